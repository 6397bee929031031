package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/estimator"
)

// A model that is not in the catalog: the user pastes, drops or picks its
// Hugging Face config.json (or a rightsize-generic file) and the page parses
// it with the same estimator.ParseConfig the command line uses. The file
// stays in the browser (localStorage) and travels, compressed, in the link
// (state.go), so a colleague opening the link gets the same model.

// configKey is the localStorage key of the loaded config.
const configKey = "rightsize.config/v1"

// applyConfig parses a config and, when it is valid, selects it as the model.
func (c *Calculator) applyConfig(name, text string) bool {
	c.own.err = ""
	if len(text) > page.MaxConfigBytes {
		c.own.err = name + ": " + c.t(page.MsgConfigTooBig)
		return false
	}
	a, err := estimator.ParseConfig([]byte(text))
	if err != nil {
		c.own.err = name + ": " + c.t(page.MsgBadConfig) + ": " + strings.TrimPrefix(err.Error(), "estimator: ")
		return false
	}
	c.own.arch, c.own.name, c.own.text = &a, name, text
	c.set(page.FieldModel, page.CustomModelID)
	return true
}

// loadSavedConfig restores the config kept from an earlier visit, without
// changing the selected model (a config that came with the link wins).
func (c *Calculator) loadSavedConfig(ctx app.Context) {
	if c.own.arch != nil {
		return
	}
	var s savedFile
	if err := ctx.LocalStorage().Get(configKey, &s); err != nil || s.Text == "" {
		return
	}
	a, err := estimator.ParseConfig([]byte(s.Text))
	if err != nil {
		// Kept: the page says why, the user loads a corrected file or
		// removes it (a newer estimator may refuse what an older took).
		c.sheet.load.configBad = true
		c.own.err = c.t(page.MsgSavedKept) + " " + s.Name + ": " + c.t(page.MsgBadConfig) + ": " + strings.TrimPrefix(err.Error(), "estimator: ")
		return
	}
	c.own.arch, c.own.name, c.own.text = &a, s.Name, s.Text
	c.recompute()
}

// useConfig applies a config from any source and keeps it; a full
// localStorage loses the copy kept for the next visit, and the page says so.
func (c *Calculator) useConfig(ctx app.Context, name, text string) {
	if c.applyConfig(name, text) {
		c.sheet.load.configBad = false
		c.sheet.load.configUnsaved = !keep(ctx, configKey, savedFile{name, text})
		c.syncURL(ctx)
	}
}

// onDropConfig removes a saved config that failed to load.
func (c *Calculator) onDropConfig(ctx app.Context, e app.Event) {
	ctx.LocalStorage().Del(configKey)
	c.sheet.load.configBad, c.own.err = false, ""
}

func (c *Calculator) onConfigFile(ctx app.Context, e app.Event) {
	c.readFile(ctx, ctx.JSSrc().Get("files"), page.MaxConfigBytes,
		func(name, why string) { c.own.err = name + ": " + why }, c.useConfig)
}

// onConfigPaste parses the text pasted into the config box.
func (c *Calculator) onConfigPaste(ctx app.Context, e app.Event) {
	text := strings.TrimSpace(ctx.JSSrc().Get("value").String())
	if text == "" {
		return
	}
	c.useConfig(ctx, "config.json", text)
}

// onConfigDrop reads a config.json dropped on the box.
func (c *Calculator) onConfigDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	dt := e.Get("dataTransfer")
	if !dt.Truthy() {
		return
	}
	c.readFile(ctx, dt.Get("files"), page.MaxConfigBytes,
		func(name, why string) { c.own.err = name + ": " + why }, c.useConfig)
}

// onDragOver lets the box accept drops.
func (c *Calculator) onDragOver(ctx app.Context, e app.Event) { e.PreventDefault() }

// customModelName is the model list's label for the loaded config.
func (c *Calculator) customModelName() string { return c.t(page.MsgYourModel) + ": " + c.own.name }

func (c *Calculator) renderCustomModel() app.UI {
	return app.Section().Class("rs-prices").ID("rs-your-model").Body(
		app.H2().Text(c.t(page.MsgYourModel)),
		app.P().Class("rs-sub").Text(c.t(page.MsgConfigHelp)),
		app.Div().Class("rs-field rs-file").Body(
			app.Label().For("rs-config-file").Text(c.t(page.MsgConfigPick)),
			app.Input().Type("file").ID("rs-config-file").Accept(".json,application/json").
				Attr("aria-invalid", c.own.err != "").OnChange(c.onConfigFile),
		),
		app.Div().Class("rs-field rs-drop").OnDragOver(c.onDragOver).OnDrop(c.onConfigDrop).Body(
			app.Label().For("rs-config-paste").Text(c.t(page.MsgConfigPaste)),
			app.Textarea().ID("rs-config-paste").Rows(4).Attr("spellcheck", "false").
				Placeholder(`{"model_type": "llama", "hidden_size": 4096, …}`).
				Attr("aria-invalid", c.own.err != "").OnChange(c.onConfigPaste),
		),
		app.If(c.own.err != "", func() app.UI {
			return app.P().Class("rs-error").ID("rs-config-file-error").Attr("aria-live", "polite").Text(c.own.err)
		}),
		app.If(c.sheet.load.configUnsaved, func() app.UI {
			return app.P().Class("rs-warn").ID("rs-config-unsaved").Text(c.t(page.MsgNotKept))
		}),
		app.If(c.sheet.load.configBad, func() app.UI {
			return app.Button().Class("rs-more").ID("rs-config-drop").OnClick(c.onDropConfig).Text(c.t(page.MsgConfigDrop))
		}),
	)
}
