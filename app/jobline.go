package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/estimator"
)

// The job line above the picks, editable in place: each part that is a
// field (model, task, the job's size, GPU count and GPU, engine, batch)
// is a button; a click opens a select or a text box for that field right
// there. It writes the page state through onField, the form's own
// handler, so the link, the parse and the messages are the form's: a bad
// value keeps the box open with the message the form field gives.

// jobEditID is the open editor's element id.
const jobEditID = "rs-job-edit"

// jobPartID is the id of a part's button; its message is jobPartID+"-error".
func jobPartID(f page.Field) string { return "rs-job-" + page.FieldNames[f] }

// renderJobLine says the job the answer is planned for and the setup the
// figures below it are for: "Planned for: Llama 3.1 8B · Inference ·
// 100,000 requests × 2,048 tokens; memory and speed below on: 1 × NVIDIA
// H100 SXM 80GB · Hugging Face transformers · Batch size 1".
func (c *Calculator) renderJobLine() app.UI {
	j, l := c.d.Job, c.loc()
	body := []app.UI{app.Text(c.t(page.MsgJobFor) + ": ")}
	add := func(parts ...app.UI) { body = append(body, parts...) }
	sep := func() { add(app.Text(" · ")) }
	add(c.jobPart(page.FieldModel, page.MsgModel, j.Model.Name))
	sep()
	add(c.jobPart(page.FieldTask, page.MsgTask, c.t(page.TaskKeys[j.In.Task])))
	sep()
	count := func(v float64) string { return l.Count(int64(v)) }
	switch {
	case j.In.Task.Training() && j.Dataset > 0:
		add(fillParts(c.t(page.MsgJobEpochs),
			c.jobPart(page.FieldEpochs, page.MsgEpochs, l.Sig3(j.Epochs)),
			c.jobPart(page.FieldDataset, page.MsgDataset, count(j.Dataset)))...)
	case j.In.Task.Training():
		add(fillParts(c.t(page.MsgJobTokens), c.jobPart(page.FieldTrainTokens, page.MsgTrainTokens, count(j.Tokens)))...)
	case j.RPS > 0:
		// A load curve sets the rate and a workload preset the sizes:
		// those parts are said, not edited here.
		rps := app.UI(app.Text(l.Sig3(j.RPS)))
		if !c.state.Shown(page.FieldCurve) || strings.TrimSpace(c.state[page.FieldCurve]) == "" {
			rps = c.jobPart(page.FieldRPS, page.MsgRPS, l.Sig3(j.RPS))
		}
		out := app.UI(app.Text(count(float64(j.Work.OutputTokens))))
		if j.Mix == nil {
			out = c.jobPart(page.FieldOutput, page.MsgOutputTokens, count(float64(j.Work.OutputTokens)))
		}
		add(fillParts(c.t(page.MsgJobRate), rps, app.Text(count(float64(j.Work.PromptTokens))), out)...)
	default:
		add(fillParts(c.t(page.MsgJobRequests),
			c.jobPart(page.FieldRequests, page.MsgRequests, count(j.Requests)),
			c.jobPart(page.FieldSeq, page.MsgSeq, count(float64(j.In.Seq))))...)
	}
	// The GPUs, engine and batch are the setup the memory breakdown and
	// the speed box describe, not the picks' (each pick sizes its own
	// GPUs, engine and requests in flight): the line says so rather than
	// read as the plan.
	add(app.Text("; " + c.t(page.MsgJobSetupOn) + ": "))
	add(c.jobPart(page.FieldGPUs, page.MsgGPUs, l.Count(int64(j.In.GPUs))), app.Text(" × "),
		c.jobPart(page.FieldGPU, page.MsgGPU, j.GPU.Name), app.Text(page.PlanSuffix(page.PlanOf(j.In))))
	if j.In.Task == estimator.Inference {
		sep()
		add(c.jobPart(page.FieldEngine, page.MsgEngine, page.EngineLabels[j.In.Engine]))
	}
	add(app.Text(" · "+c.t(page.MsgBatch)+" "), c.jobPart(page.FieldBatch, page.MsgBatch, strconv.Itoa(j.In.Batch)))
	return app.P().Class("rs-job").ID("rs-job-line").Body(body...)
}

// fillParts is msg with each "%s" replaced by the next part.
func fillParts(msg string, parts ...app.UI) []app.UI {
	var out []app.UI
	for _, p := range parts {
		before, after, ok := strings.Cut(msg, "%s")
		if !ok {
			break
		}
		if before != "" {
			out = append(out, app.Text(before))
		}
		out = append(out, p)
		msg = after
	}
	if msg != "" {
		out = append(out, app.Text(msg))
	}
	return out
}

// jobPart is field f in the job line: its value as a button, or the open
// editor; a field with a problem shows the text as typed and the form's
// message after it.
func (c *Calculator) jobPart(f page.Field, label page.MsgKey, text string) app.UI {
	bad := !c.d.Errs[f].OK()
	if bad || c.d.Job.Model.ID == "" || text == "" {
		text = c.state[f] // the parse did not reach it: the text as typed
	}
	var part app.UI
	if c.edit.open && c.edit.f == f {
		part = c.jobEditor(f, label)
	} else {
		cls := "rs-job-part"
		if bad {
			cls += " rs-job-bad"
		}
		part = app.Button().Type("button").Class(cls).ID(jobPartID(f)).Attr("data-f", strconv.Itoa(int(f))).
			Attr("aria-label", c.t(label)+": "+text).OnClick(c.onJobOpen).Text(text)
	}
	if !bad {
		return part
	}
	return app.Span().Body(part, app.Span().Class("rs-error rs-job-error").ID(jobPartID(f)+"-error").Text(" "+page.ErrText(c.lang(), c.d.Errs[f])))
}

// jobEditor is the open part: the form's choices for a select field, a
// text box with the state's text for the others.
func (c *Calculator) jobEditor(f page.Field, label page.MsgKey) app.UI {
	var opts []option
	switch f {
	case page.FieldModel:
		opts = c.modelOptions()
	case page.FieldTask:
		opts = c.taskOptions()
	case page.FieldGPU:
		opts = c.gpuOptions()
	case page.FieldEngine:
		opts = engineOptions()
	}
	bad := !c.d.Errs[f].OK()
	if opts != nil {
		s := &selectBox{Cur: c.state[f], Opts: opts}
		return app.Select().Class("rs-job-edit").ID(jobEditID).Attr("data-f", strconv.Itoa(int(f))).
			Attr("aria-label", c.t(label)).Attr("aria-invalid", strconv.FormatBool(bad)).
			OnChange(c.onJobField).OnKeyDown(c.onJobKey).Body(s.optionElems()...)
	}
	mode := "numeric"
	switch f {
	case page.FieldTrainTokens, page.FieldDataset:
		mode = "text"
	case page.FieldEpochs, page.FieldRPS:
		mode = "decimal"
	}
	in := app.Input().Type("text").Class("rs-job-edit").ID(jobEditID).Attr("data-f", strconv.Itoa(int(f))).
		Attr("aria-label", c.t(label)).Attr("inputmode", mode).Attr("size", max(4, len(c.state[f])+1)).
		Value(c.state[f]).Attr("aria-invalid", strconv.FormatBool(bad)).OnChange(c.onJobField).OnKeyDown(c.onJobKey)
	if bad {
		in = in.Attr("aria-describedby", jobPartID(f)+"-error")
	}
	return in
}

// onJobOpen opens a part of the job line for editing, and focuses it.
func (c *Calculator) onJobOpen(ctx app.Context, e app.Event) {
	f, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("f").String())
	if err != nil || f < 0 || f >= int(page.NFields) {
		return
	}
	c.edit.f, c.edit.open = page.Field(f), true
	c.focusAfter(jobEditID)
}

// onJobField applies the editor's value as the form does (onField), then
// closes it unless the value is wrong.
func (c *Calculator) onJobField(ctx app.Context, e app.Event) {
	f := c.edit.f
	if v := ctx.JSSrc().Get("value").String(); v != c.state[f] || !c.d.Errs[f].OK() {
		c.onField(ctx, e)
	}
	if c.d.Errs[f].OK() {
		c.closeJobEdit()
	}
}

// onJobKey: Escape closes the editor (the value stays as it was); Enter
// applies a text box's value.
func (c *Calculator) onJobKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Escape":
		e.PreventDefault()
		c.closeJobEdit()
	case "Enter":
		if ctx.JSSrc().Get("tagName").String() == "INPUT" {
			e.PreventDefault()
			c.onJobField(ctx, e)
		}
	}
}

func (c *Calculator) closeJobEdit() {
	if !c.edit.open {
		return
	}
	f := c.edit.f
	c.edit.open = false
	c.focusAfter(jobPartID(f))
}

// focusAfter focuses element id once the update under way is on screen.
// It defers on the page's own context: the event's source (the part's
// button, or the box) leaves the page in this update, and go-app drops a
// function deferred on an element no longer mounted.
func (c *Calculator) focusAfter(id string) {
	if !app.IsClient || !c.ps.hasCtx {
		return
	}
	c.ps.ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
}
