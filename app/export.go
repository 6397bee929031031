package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Export: the plan and the offers as CSV and JSON downloads, a Markdown
// table of the breakdown and the top offers for internal docs, the "Run
// it" box's launch settings and the page's link. Everything is made in
// the page; nothing is sent anywhere.

// actionCopy asks the page to copy or save one of its texts.
const actionCopy = "rs/copy"

// copyButton is a button that sends actionCopy.
type copyButton struct {
	app.Compo
	ID, Label string
	What      page.Copy
}

func (b *copyButton) Render() app.UI {
	return app.Button().Class("rs-more").ID(b.ID).OnClick(b.onClick).Text(b.Label)
}

func (b *copyButton) onClick(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionCopy, b.What)
}

// onCopy copies the page's link, its Markdown table or its launch
// settings to the clipboard (where that is refused: the link is shown to
// copy by hand, the others saved as files), or saves the CSV or JSON.
func (c *Calculator) onCopy(ctx app.Context, a app.Action) {
	what, _ := a.Value.(page.Copy)
	done := func(k page.MsgKey) func(app.Context) { return func(app.Context) { c.share.what = k } }
	switch what {
	case page.CopyLink:
		c.share.flush(ctx, c.link().Encode(page.DefaultState))
		href := app.Window().Get("location").Get("href").String()
		clip := app.Window().Get("navigator").Get("clipboard")
		if !clip.Truthy() {
			c.share.url = href
			return
		}
		settle(ctx, clip.Call("writeText", href),
			func(ctx app.Context, _ app.Value) { c.share.copied, c.share.url = true, "" },
			func(ctx app.Context) { c.share.copied, c.share.url = false, href })
	case page.SaveCSV:
		download("rightsize-plan.csv", "text/csv", page.ExportCSV(c.viewIn()))
	case page.SaveJSON:
		download("rightsize-plan.json", "application/json", page.ExportJSON(c.viewIn(), c.link().Encode(page.DefaultState)))
	case page.CopyMarkdown:
		copyOrDownload(ctx, page.ExportMarkdown(c.viewIn()), "rightsize-plan.md", "text/markdown", done(page.MsgCopyMarkdown))
	case page.CopyLaunch, page.CopyLaunchDisagg:
		in := c.viewIn()
		if text, file, ok := page.LaunchCopy(&in, what == page.CopyLaunchDisagg); ok {
			copyOrDownload(ctx, text, file, "text/plain", done(page.MsgCopyLaunch))
		}
	}
}

// copyOrDownload puts text on the clipboard and calls copied; where the
// clipboard is missing or refuses, it saves text as the file name instead.
func copyOrDownload(ctx app.Context, text, name, mime string, copied func(app.Context)) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		download(name, mime, text)
		return
	}
	settle(ctx, clip.Call("writeText", text),
		func(ctx app.Context, _ app.Value) { copied(ctx) },
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
func watchHeight() {
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
