package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// The job line above the picks (page.JobLineView), editable in place:
// each part that is a field is a button; a click opens a select or a
// text box for that field right there. A value goes through actionField,
// the form's own path, so the link, the parse and the messages are the
// form's: a bad value keeps the box open with the message the form field
// gives.

// jobEditID is the open editor's element id.
const jobEditID = "rs-job-edit"

// jobPartID is the id of a part's button; its message is jobPartID+"-error".
func jobPartID(f page.Field) string { return "rs-job-" + page.FieldNames[f] }

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
	V        page.JobLineView
	Edit     page.Field
	ReadOnly bool
}

func (j *jobLine) Render() app.UI {
	if j.ReadOnly {
		return nodeUI(page.JobLineNode(&j.V), hooks{})
	}
	body := make([]app.UI, 0, len(j.V.Parts))
	for i := range j.V.Parts {
		p := &j.V.Parts[i]
		if !p.Editable() {
			body = append(body, app.Text(p.Text))
			continue
		}
		var part app.UI
		if j.Edit == p.F {
			part = j.editor(p)
		} else {
			cls := "rs-job-part"
			if p.Err != "" {
				cls += " rs-job-bad"
			}
			part = app.Button().Type("button").Class(cls).ID(jobPartID(p.F)).Attr("data-f", strconv.Itoa(int(p.F))).
				Attr("aria-label", p.Label+": "+p.Text).OnClick(j.onOpen).Text(p.Text)
		}
		if p.Err != "" {
			part = app.Span().Body(part, app.Span().Class("rs-error rs-job-error").ID(jobPartID(p.F)+"-error").Text(" "+p.Err))
		}
		body = append(body, part)
	}
	return app.P().Class("rs-job").ID("rs-job-line").Body(body...)
}

// editor is the open part: the form's choices for a select field, a text
// box with the state's text for the others.
func (j *jobLine) editor(p *page.JobPart) app.UI {
	bad := strconv.FormatBool(p.Err != "")
	if p.Opts != nil {
		s := &selectBox{Cur: p.Raw, Opts: p.Opts}
		return app.Select().Class("rs-job-edit").ID(jobEditID).Attr("data-f", strconv.Itoa(int(p.F))).
			Attr("aria-label", p.Label).Attr("aria-invalid", bad).
			OnChange(j.onValue).OnKeyDown(j.onKey).Body(s.optionElems()...)
	}
	in := app.Input().Type("text").Class("rs-job-edit").ID(jobEditID).Attr("data-f", strconv.Itoa(int(p.F))).
		Attr("aria-label", p.Label).Attr("inputmode", p.Mode).Attr("size", max(4, len(p.Raw)+1)).
		Value(p.Raw).Attr("aria-invalid", bad).OnChange(j.onValue).OnKeyDown(j.onKey)
	if p.Err != "" {
		in = in.Attr("aria-describedby", jobPartID(p.F)+"-error")
	}
	return in
}

// onOpen opens a part of the job line for editing.
func (j *jobLine) onOpen(ctx app.Context, e app.Event) {
	if f, ok := dataField(ctx.JSSrc()); ok {
		ctx.NewActionWithValue(actionJob, jobEdit{F: f})
	}
}

// onValue applies the editor's value.
func (j *jobLine) onValue(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionJob, jobEdit{F: j.Edit, V: ctx.JSSrc().Get("value").String(), Apply: true})
}

// onKey: Escape closes the editor (the value stays as it was); Enter
// applies a text box's value.
func (j *jobLine) onKey(ctx app.Context, e app.Event) {
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
		focusAfter(ctx, jobEditID)
		return
	case e.Apply && e.F < page.NFields && (e.V != c.state[e.F] || !c.d.Errs[e.F].OK()):
		c.change(ctx, e.F, e.V)
	}
	if f := c.open.part.F; c.open.part.Open && (!e.Apply || c.d.Errs[f].OK()) {
		c.open.part.Open = false
		focusAfter(ctx, jobPartID(f))
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
