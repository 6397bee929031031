package page

import "testing"

// TestJobPartNode: a field of the job line is a button that opens it,
// carrying its field (data-f) and its name and value to screen readers;
// open, it is the form's control in place (the choices with the state's
// chosen, or a text box sized to the text); a problem is a message after
// it that the box points at.
func TestJobPartNode(t *testing.T) {
	batch := JobPart{F: FieldBatch, Text: "8", Label: "Batch size", Raw: "8", Mode: "numeric"}
	n := JobPartNode(&batch, false)
	if n.Tag != "button" || n.ID != "rs-job-batch" || n.Class != "rs-job-part" || n.Text != "8" ||
		attrOf(n, "type") != "button" || attrOf(n, "data-f") != "5" || attrOf(n, "aria-label") != "Batch size: 8" || attrOf(n, "on:click") != "open" {
		t.Errorf("closed part: %+v", n)
	}

	bad := batch
	bad.Text, bad.Raw, bad.Err = "eight", "eight", "not a number"
	n = JobPartNode(&bad, true)
	in, msg := n.Kids[0], n.Kids[1]
	if n.Tag != "span" || len(n.Kids) != 2 || in.Tag != "input" || in.ID != JobEditID || attrOf(in, "value") != "eight" || attrOf(in, "size") != "6" ||
		attrOf(in, "aria-invalid") != "true" || attrOf(in, "aria-describedby") != "rs-job-batch-error" || attrOf(in, "on:change") != "value" || attrOf(in, "on:keydown") != "key" {
		t.Errorf("open bad part: %+v", n)
	}
	if msg.ID != "rs-job-batch-error" || msg.Class != "rs-error rs-job-error" || msg.Text != " not a number" {
		t.Errorf("its message: %+v", msg)
	}
	if c := JobPartNode(&bad, false).Kids[0]; c.Class != "rs-job-part rs-job-bad" || c.Tag != "button" {
		t.Errorf("closed bad part: %+v", c)
	}

	task := JobPart{F: FieldTask, Text: "LoRA", Label: "Task", Raw: "lora", Opts: []Option{{"infer", "Inference"}, {"lora", "LoRA"}, {"full", "Full fine-tune"}}}
	sel := JobPartNode(&task, true)
	var chosen []string
	for _, o := range sel.Kids {
		if attrOf(o, "selected") == "true" {
			chosen = append(chosen, attrOf(o, "value"))
		}
	}
	if sel.Tag != "select" || sel.ID != JobEditID || len(sel.Kids) != 3 || len(chosen) != 1 || chosen[0] != "lora" || attrOf(sel, "aria-invalid") != "false" || attrOf(sel, "data-f") != "2" {
		t.Errorf("open select: %d options, chosen %q, %+v", len(sel.Kids), chosen, sel.Attrs)
	}
}

// TestPlansAndHostedNodes: the comparison's box is there only with plans,
// its note and a refusal's message under the table; the hosted APIs'
// table only with rows.
func TestPlansAndHostedNodes(t *testing.T) {
	if n := PlansNode(&PlansView{}); n.Kind != NodeText || n.Text != "" {
		t.Errorf("no plans: %+v", n)
	}
	n := PlansNode(&PlansView{Title: "Plans", Cols: make([]PlanCol, 2), Note: "a note", Full: "holds 4 plans"})
	if n.ID != "rs-plans" || len(n.Kids) != 4 || n.Kids[1].Ref != "table" || n.Kids[2].Text != "a note" || n.Kids[3].ID != "rs-plans-full" || attrOf(n.Kids[3], "role") != "status" {
		t.Errorf("plans: %+v", n)
	}
	if _, ok := find(HostedNode(&HostedView{}), func(n Node) bool { return n.Ref == "table" }); ok {
		t.Error("the hosted APIs' table without rows")
	}
	if h := HostedNode(&HostedView{Rows: make([]HostedRow, 1)}); h.ID != "rs-hosted" || h.Kids[1].Ref != "fields" || h.Kids[2].Ref != "table" {
		t.Errorf("hosted: %+v", h)
	}
}
