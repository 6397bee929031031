package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// The job line above the picks (page.JobLineView), editable in place:
// each part that is a field is a button; a click opens a select or a
// text box for that field right there. A value goes through actionField,
// the form's own path, so the link, the parse and the messages are the
// form's: a bad value keeps the box open with the message the form field
// gives.

// actionJob carries the job line's edits to the page: open a part's
// editor, apply its value, or close it.
const actionJob = "rs/job"

type jobEdit struct {
	F     page.Field
	V     string
	Apply bool // apply V (else: open F's editor, or close with F = NFields)
}

// jobLine is the line as a leaf; Edit is the part open for editing
// (page.NFields: none); ReadOnly: the embed page's, text only.
type jobLine struct {
	app.Compo
	V        *page.JobLineView
	Edit     page.Field
	ReadOnly bool
}

func (j *jobLine) Render() app.UI {
	if j.ReadOnly {
		return nodeUI(page.JobLineNode(j.V), hooks{})
	}
	body := make([]app.UI, len(j.V.Parts))
	for i := range j.V.Parts {
		if p := &j.V.Parts[i]; p.Editable() {
			body[i] = &jobPart{P: p, Open: j.Edit == p.F}
		} else {
			body[i] = app.Text(p.Text)
		}
	}
	return app.P().Class("rs-job").ID("rs-job-line").Body(body...)
}

// jobPart is a part of the line that is a field (page.JobPartNode), as a
// leaf of its own: an input changes one or two of the line's parts.
type jobPart struct {
	app.Compo
	P    *page.JobPart
	Open bool
}

func (j *jobPart) Render() app.UI {
	return nodeUI(page.JobPartNode(j.P, j.Open), hooks{on: map[string]app.EventHandler{"open": j.onOpen, "value": j.onValue, "key": j.onKey}})
}

// onOpen opens the part for editing.
func (j *jobPart) onOpen(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionJob, jobEdit{F: j.P.F})
}

// onValue applies the editor's value.
func (j *jobPart) onValue(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionJob, jobEdit{F: j.P.F, V: ctx.JSSrc().Get("value").String(), Apply: true})
}

// onKey: Escape closes the editor (the value stays as it was); Enter
// applies a text box's value.
func (j *jobPart) onKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Escape":
		e.PreventDefault()
		ctx.NewActionWithValue(actionJob, jobEdit{F: page.NFields})
	case "Enter":
		if ctx.JSSrc().Get("tagName").String() == "INPUT" {
			e.PreventDefault()
			j.onValue(ctx, e)
		}
	}
}

// dataField is the field an element carries in data-f.
func dataField(el app.Value) (page.Field, bool) {
	return page.FieldOfData(el.Get("dataset").Get("f").String())
}

// onJob opens, applies or closes a part of the job line. An applied value
// goes through the form's path; the editor closes once it reads, and
// focus returns to the part's button.
func (c *Calculator) onJob(ctx app.Context, a app.Action) {
	e, ok := a.Value.(jobEdit)
	if !ok || e.F > page.NFields {
		return
	}
	switch {
	case !e.Apply && e.F < page.NFields:
		c.open.part = page.OpenPart{F: e.F, Open: true}
		focusAfter(ctx, page.JobEditID)
		return
	case e.Apply && e.F < page.NFields && (e.V != c.state[e.F] || !c.d.Errs[e.F].OK()):
		c.change(ctx, e.F, e.V)
	}
	if f := c.open.part.F; c.open.part.Open && (!e.Apply || c.d.Errs[f].OK()) {
		c.open.part.Open = false
		focusAfter(ctx, page.JobPartID(f))
	}
}

// focusAfter focuses element id once the update under way is on screen.
// ctx is the page's own context: the event's source (the part's button,
// or the box) leaves the page in this update, and go-app drops a function
// deferred on an element no longer mounted.
func focusAfter(ctx app.Context, id string) {
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
}
