package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// A model that is not in the catalog: the user pastes, drops or picks its
// Hugging Face config.json (or a rightsize-generic file) and the page parses
// it with the same estimator.ParseConfig the command line uses. The file
// stays in the browser (localStorage) and travels, compressed, in the link
// (state.go), so a colleague opening the link gets the same model.

// configKey is the localStorage key of the loaded config.
const configKey = "rightsize.config/v1"

// parse reads a config in language lang; it keeps the model when the
// config is valid, and says why not otherwise.
func (o *ownModel) parse(name, text, lang string) bool {
	a, msg := page.ReadConfig(name, text, lang)
	if o.err = msg; msg != "" {
		return false
	}
	o.arch, o.name, o.text = &a, name, text
	return true
}

// actionConfig carries the own-model section's userFile to the page: a
// file read or text pasted, one that could not be read, or Remove (of a
// saved config that failed to load).
const actionConfig = "rs/config"

// onConfig applies a config from any source and keeps it; a full
// localStorage loses the copy kept for the next visit, and the page says so.
func (c *Calculator) onConfig(ctx app.Context, a app.Action) {
	m, ok := a.Value.(userFile)
	switch {
	case !ok:
	case m.Remove:
		ctx.LocalStorage().Del(configKey)
		c.sheet.load.configBad, c.own.err = false, ""
	case m.Err != "":
		c.own.err = m.Err
	case c.own.parse(m.Name, m.Text, page.LangOf(&c.state)):
		c.set(ctx, page.FieldModel, page.CustomModelID)
		c.sheet.load.configBad = false
		c.sheet.load.configUnsaved = !keep(ctx, configKey, savedFile{m.Name, m.Text})
		c.share.sync(ctx, c.link().Encode(page.DefaultState))
	}
}

// configBox is the "Your model" section: a file picker, a box to paste
// or drop a config.json on, and what became of the last one.
type configBox struct {
	app.Compo
	Lang, Err    string
	Unsaved, Bad bool
}

func (b *configBox) Render() app.UI {
	return nodeUI(page.ConfigNode(b.Lang, b.Err, b.Unsaved, b.Bad), hooks{on: map[string]app.EventHandler{
		"file": b.onFile, "paste": b.onPaste, "drop": b.onDrop, "dragover": b.onDragOver, "dropsaved": b.onDropSaved}})
}

func (b *configBox) read(ctx app.Context, files app.Value) {
	readFile(ctx, actionConfig, b.Lang, files, page.MaxConfigBytes)
}

func (b *configBox) onFile(ctx app.Context, e app.Event) { b.read(ctx, ctx.JSSrc().Get("files")) }

// onPaste takes the text pasted into the box.
func (b *configBox) onPaste(ctx app.Context, e app.Event) {
	if text := strings.TrimSpace(ctx.JSSrc().Get("value").String()); text != "" {
		ctx.NewActionWithValue(actionConfig, userFile{Name: "config.json", Text: text})
	}
}

// onDrop reads a config.json dropped on the box.
func (b *configBox) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if dt := e.Get("dataTransfer"); dt.Truthy() {
		b.read(ctx, dt.Get("files"))
	}
}

// onDragOver lets the box accept drops.
func (b *configBox) onDragOver(ctx app.Context, e app.Event) { e.PreventDefault() }

func (b *configBox) onDropSaved(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionConfig, userFile{Remove: true})
}
