package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Export: the plan and the offers as CSV and JSON downloads, and a
// Markdown table of the breakdown and the top offers for internal docs.
// Everything is made in the page; nothing is sent anywhere.

func (c *Calculator) renderExport() app.UI {
	if !c.d.R.OK {
		return app.Text("")
	}
	return app.Section().Class("rs-export").Body(
		app.H2().Text(c.t(page.MsgExportTitle)),
		app.Div().Class("rs-actions").Body(
			app.Button().Class("rs-more").ID("rs-export-csv").OnClick(c.onExportCSV).Text(c.t(page.MsgExportCSV)),
			app.Button().Class("rs-more").ID("rs-export-json").OnClick(c.onExportJSON).Text(c.t(page.MsgExportJSON)),
			app.Button().Class("rs-more").ID("rs-copy-markdown").OnClick(c.onCopyMarkdown).Text(c.t(page.MsgCopyMarkdown)),
		),
		app.If(c.share.what == page.MsgCopyMarkdown, func() app.UI {
			return app.P().Class("rs-ok").ID("rs-markdown-copied").Text(c.t(page.MsgMarkdownCopied))
		}),
	)
}

func (c *Calculator) onExportCSV(ctx app.Context, e app.Event) {
	download("rightsize-plan.csv", "text/csv", page.ExportCSV(c.viewIn()))
}

func (c *Calculator) onExportJSON(ctx app.Context, e app.Event) {
	download("rightsize-plan.json", "application/json", page.ExportJSON(c.viewIn(), c.link().Encode(page.DefaultState)))
}

func (c *Calculator) onCopyMarkdown(ctx app.Context, e app.Event) {
	c.copyOrDownload(ctx, page.MsgCopyMarkdown, page.ExportMarkdown(c.viewIn()), "rightsize-plan.md", "text/markdown")
}

// copyOrDownload puts text on the clipboard and records which button did
// (Calculator.copied); where the clipboard is missing or refuses, it saves
// text as the file name instead.
func (c *Calculator) copyOrDownload(ctx app.Context, button page.MsgKey, text, name, mime string) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		download(name, mime, text)
		return
	}
	settle(ctx, clip.Call("writeText", text),
		func(ctx app.Context, _ app.Value) { c.share.what = button },
		func(ctx app.Context) { download(name, mime, text) })
}

// download saves text as a file through a blob: URL (same origin, allowed
// by the page's Content-Security-Policy).
func download(name, mime, text string) {
	w := app.Window()
	blob := w.Get("Blob").New([]any{text}, map[string]any{"type": mime + ";charset=utf-8"})
	u := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	a.Call("click")
	w.Get("URL").Call("revokeObjectURL", u)
}

// heightObserved is set once the page's one ResizeObserver watches its
// height: each navigation in embed mode calls watchHeight again, and
// added an observer (and a Go callback that is never released) each time.
var heightObserved bool

// watchHeight reports the page's height to the embedding page, now and on
// every change of size, so a docs page can size the iframe:
// {type: "rightsize:height", height: <px>}.
func (c *Calculator) watchHeight(ctx app.Context) {
	w := app.Window()
	parent := w.Get("parent")
	if !parent.Truthy() {
		return
	}
	body := w.Get("document").Get("body")
	post := func() {
		h := body.Get("scrollHeight").Int()
		parent.Call("postMessage", map[string]any{"type": "rightsize:height", "height": h}, "*")
	}
	ro := w.Get("ResizeObserver")
	if ro.Truthy() && !heightObserved {
		heightObserved = true
		cb := app.FuncOf(func(this app.Value, args []app.Value) any { post(); return nil })
		ro.New(cb).Call("observe", body)
	}
	post()
}
