package page

import (
	"strconv"
	"strings"

	"rightsize/estimator"
)

// The job line above the picks: "Planned for: Llama 3.1 8B · Inference ·
// 100,000 requests × 2,048 tokens; memory and speed below on: 1 × NVIDIA
// H100 SXM 80GB · Hugging Face transformers · Batch size 1". Each part
// that is a field is editable in place with the form's choices, and a
// part whose field has a problem shows the text as typed and the form's
// message.

// JobPart is one part of the job line: plain text (F is NFields), or a
// field's value with what its editor needs.
type JobPart struct {
	F     Field
	Text  string
	Label string   // the field's name
	Err   string   // the field's problem, "" when none
	Raw   string   // the state's text, for a text editor
	Mode  string   // a text editor's keyboard hint
	Opts  []Option // a select editor's choices (nil: a text editor)
}

// Editable reports whether the part is a field.
func (p *JobPart) Editable() bool { return p.F < NFields }

// JobLineView is the job line's parts, in order.
type JobLineView struct{ Parts []JobPart }

// jobLine builds the job line.
func (b *viewBuilder) jobLine() JobLineView {
	in, l := &b.in, b.l
	j := &in.Job
	var v JobLineView
	plain := func(s string) {
		if s != "" {
			v.Parts = append(v.Parts, JobPart{F: NFields, Text: s})
		}
	}
	field := func(f Field, label MsgKey, text string) JobPart {
		p := JobPart{F: f, Text: text, Label: b.t(label), Raw: in.State[f]}
		if !in.Errs[f].OK() {
			p.Err = l.ErrText(in.Errs[f])
		}
		if p.Err != "" || j.Model.ID == "" || text == "" {
			p.Text = p.Raw // the parse did not reach it: the text as typed
		}
		switch f {
		case FieldModel, FieldTask, FieldGPU, FieldEngine:
			p.Opts = in.FieldOptions(f)
		default:
			p.Mode = FieldMode(f)
		}
		return p
	}
	// fill is msg with each "%s" replaced by the next part.
	fill := func(msg string, parts ...JobPart) {
		for _, p := range parts {
			before, after, ok := strings.Cut(msg, "%s")
			if !ok {
				break
			}
			plain(before)
			v.Parts = append(v.Parts, p)
			msg = after
		}
		plain(msg)
	}
	count := func(x float64) string { return l.Count(int64(x)) }
	// Chinese punctuates with its full-width colon and semicolon.
	colon, semicolon := l.Colon(), "; "
	if l.Lang == "zh" {
		semicolon = "；"
	}
	plain(b.t(MsgJobFor) + colon)
	v.Parts = append(v.Parts, field(FieldModel, MsgModel, j.Model.Name))
	plain(" · ")
	v.Parts = append(v.Parts, field(FieldTask, MsgTask, b.t(TaskKeys[j.In.Task])))
	plain(" · ")
	switch {
	case j.In.Task.Training() && j.Dataset > 0:
		fill(b.t(MsgJobEpochs), field(FieldEpochs, MsgEpochs, l.Given(j.Epochs)), field(FieldDataset, MsgDataset, count(j.Dataset)))
	case j.In.Task.Training():
		fill(b.t(MsgJobTokens), field(FieldTrainTokens, MsgTrainTokens, count(j.Tokens)))
	case j.RPS > 0 || !in.Errs[FieldRPS].OK():
		// A refused rate (1e309) is still a serving job: the line
		// shows the rate as typed with its message, not a batch of
		// "0 requests". A load curve sets the rate and a workload preset the sizes:
		// those parts are said, not edited here.
		rps := JobPart{F: NFields, Text: l.Given(j.RPS)}
		if !in.State.Shown(FieldCurve) || strings.TrimSpace(in.State[FieldCurve]) == "" {
			rps = field(FieldRPS, MsgRPS, l.Given(j.RPS))
		}
		// No split given is half of the sequence each (estimator.Workload).
		prompt, gen := j.Work.PromptTokens, j.Work.OutputTokens
		if prompt == 0 && gen == 0 {
			gen = j.In.Seq / 2
			prompt = max(1, j.In.Seq-gen)
		}
		out := JobPart{F: NFields, Text: count(float64(gen))}
		if j.Mix == nil {
			out = field(FieldOutput, MsgOutputTokens, count(float64(gen)))
		}
		// The prompt is the rest of the sequence: with the generated
		// tokens refused it is not known ("256 + 512" under a 512-token
		// sequence added up to more than it).
		promptText := count(float64(prompt))
		if !in.Errs[FieldOutput].OK() {
			promptText = "—"
		}
		if !in.Errs[FieldSeq].OK() {
			// Nor with the sequence refused (-5), which the field says:
			// its halves read "1 + -2 tokens each". The generated
			// tokens are what was typed, if anything.
			promptText = "—"
			if out.Err == "" {
				out.Text = "—"
				if r := strings.TrimSpace(in.State[FieldOutput]); out.F == FieldOutput && r != "" && r != "0" {
					out.Text = r
				}
			}
		}
		fill(b.t(MsgJobRate), rps, JobPart{F: NFields, Text: promptText}, out)
	default:
		fill(b.t(MsgJobRequests), field(FieldRequests, MsgRequests, count(j.Requests)), field(FieldSeq, MsgSeq, count(float64(j.In.Seq))))
	}
	// The plan's bounds, when set: the picks are the cheapest within the
	// deadline and under the budget, which the line otherwise left to the
	// folded inputs (a 30-day pre-training run read as unbounded).
	if in.State.Shown(FieldDeadline) && (j.Filters.DeadlineSeconds > 0 || !in.Errs[FieldDeadline].OK()) {
		plain(" · ")
		fill(b.t(MsgJobWithin), field(FieldDeadline, MsgDeadline, l.Duration(j.Filters.DeadlineSeconds)))
	}
	if j.Filters.BudgetUSD > 0 || !in.Errs[FieldBudget].OK() {
		per := 1.0
		if in.Prices.Cat != nil {
			if x, ok := in.Prices.Cat.FX(j.Currency); ok && x.PerUSD > 0 {
				per = x.PerUSD
			}
		}
		msg := MsgJobBudget
		if !j.In.Task.Training() && j.RPS > 0 {
			msg = MsgJobBudgetMonth // a serving fleet's budget is its month's
		}
		plain(" · ")
		fill(b.t(msg), field(FieldBudget, MsgBudget, l.Money(j.Filters.BudgetUSD*per, j.Currency)))
	}
	// The GPUs, engine and batch are the setup the memory breakdown and
	// the speed box describe, not the picks' (each pick sizes its own
	// GPUs, engine and requests in flight): the line says so rather than
	// read as the plan.
	plain(semicolon + b.t(MsgJobSetupOn) + colon)
	v.Parts = append(v.Parts, field(FieldGPUs, MsgGPUs, l.Count(int64(j.In.GPUs))))
	plain(" × ")
	v.Parts = append(v.Parts, field(FieldGPU, MsgGPU, j.GPU.Name))
	plain(PlanSuffix(j.GPU.Name, PlanOf(j.In)))
	if j.In.Task == estimator.Inference {
		plain(" · ")
		v.Parts = append(v.Parts, field(FieldEngine, MsgEngine, j.In.Engine.Label()))
	}
	plain(" · " + b.t(MsgBatch) + " ")
	v.Parts = append(v.Parts, field(FieldBatch, MsgBatch, strconv.Itoa(j.In.Batch)))
	return v
}

// JobEditID is the open editor's element id; JobPartID the id of a
// part's button, and its message's with "-error".
const JobEditID = "rs-job-edit"

func JobPartID(f Field) string { return "rs-job-" + FieldNames[f] }

// JobPartNode is part p of the job line, a field: a button that opens
// it (handler "open"), or open, the form's control in place: the form's
// choices for a select, the state's text for a text box (handlers
// "value" on a change and "key" on a key); a problem's message after it.
func JobPartNode(p *JobPart, open bool) Node {
	f := strconv.Itoa(int(p.F))
	var n Node
	switch {
	case !open:
		cls := "rs-job-part"
		if p.Err != "" {
			cls += " rs-job-bad"
		}
		n = Node{Kind: NodeEl, Tag: "button", Class: cls, ID: JobPartID(p.F), Text: p.Text,
			Attrs: []Attr{{"type", "button"}, {"data-f", f}, {"aria-label", p.Label + ": " + p.Text}, {"on:click", "open"}}}
	case p.Opts != nil:
		opts, chosen := OptionsOf(p.Opts, p.Raw)
		n = el("select", "rs-job-edit")
		n.Kids = make([]Node, len(opts))
		for i, o := range opts {
			n.Kids[i] = Node{Kind: NodeEl, Tag: "option", Text: o.Label, Attrs: []Attr{{"value", o.Value}}}
			if i == chosen {
				n.Kids[i].Attrs = append(n.Kids[i].Attrs, Attr{"selected", "true"}) // only the chosen: selected="false" would select it too
			}
		}
	default:
		n = el("input", "rs-job-edit")
		n.Attrs = []Attr{{"type", "text"}, {"inputmode", p.Mode}, {"size", strconv.Itoa(max(4, len(p.Raw)+1))}, {"value", p.Raw}}
		if p.Err != "" {
			n.Attrs = append(n.Attrs, Attr{"aria-describedby", JobPartID(p.F) + "-error"})
		}
	}
	if open {
		n.ID = JobEditID
		n.Attrs = append(n.Attrs, Attr{"data-f", f}, Attr{"aria-label", p.Label}, Attr{"aria-invalid", strconv.FormatBool(p.Err != "")},
			Attr{"on:change", "value"}, Attr{"on:keydown", "key"})
	}
	if p.Err == "" {
		return n
	}
	return el("span", "", n, tx("span", "rs-error rs-job-error", " "+p.Err).id(JobPartID(p.F)+"-error"))
}

// JobLineNode is job line v read-only (the embed page): the parts as
// text, each field's problem after it, and no control that edits them.
func JobLineNode(v *JobLineView) Node {
	line := el("p", "rs-job").id("rs-job-line")
	for _, p := range v.Parts {
		line.Kids = append(line.Kids, Node{Text: p.Text})
		if p.Err != "" {
			line.Kids = append(line.Kids, tx("span", "rs-error rs-job-error", " "+p.Err))
		}
	}
	return line
}

// OpenPart is the field of the job line open for editing, when Open.
type OpenPart struct {
	F    Field
	Open bool
}

// Field is the part open, NFields when none.
func (p OpenPart) Field() Field {
	if !p.Open {
		return NFields
	}
	return p.F
}
