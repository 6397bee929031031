package app

import (
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// TestJobLineParts: every part of the job line that is a field is a
// button carrying that field's index (data-f), the index the form's input
// carries, so an edit there goes through the form's handler (onField).
func TestJobLineParts(t *testing.T) {
	for _, tc := range []struct {
		frag   string
		fields []page.Field
	}{
		{"", []page.Field{page.FieldModel, page.FieldTask, page.FieldRequests, page.FieldSeq, page.FieldGPUs, page.FieldGPU, page.FieldEngine, page.FieldBatch}},
		{"t=lora&tok=100M", []page.Field{page.FieldTrainTokens, page.FieldGPUs, page.FieldGPU, page.FieldBatch}},
		{"t=finetune&ds=1B&ep=2", []page.Field{page.FieldEpochs, page.FieldDataset}},
		{"m=mistral-7b-v0.3&rps=20", []page.Field{page.FieldRPS, page.FieldOutput, page.FieldEngine}},
	} {
		c, _ := load(t)
		c.state = page.ParseFragment(tc.frag, page.DefaultState)
		c.recompute()
		doc := app.HTMLString(c.renderAnswer(&viewOf(c).Answer))
		for _, f := range tc.fields {
			want := `id="` + jobPartID(f) + `"`
			i := strings.Index(doc, want)
			if i < 0 {
				t.Errorf("%q: no part %s in the job line", tc.frag, want)
				continue
			}
			tag := doc[strings.LastIndex(doc[:i], "<"):]
			tag = tag[:strings.Index(tag, ">")]
			if !strings.HasPrefix(tag, "<button") || !strings.Contains(tag, `data-f="`+strconv.Itoa(int(f))+`"`) {
				t.Errorf("%q: part %s is %s", tc.frag, page.FieldNames[f], tag)
			}
		}
	}
}

// TestJobLineEditor: an open part is the form's control in place: the
// form's choices for a select, the state's text for a text box; a bad
// value shows the form field's own message next to it, and the answer
// keeps the line (with its editor) even with no plan to show.
func TestJobLineEditor(t *testing.T) {
	c, _ := load(t)
	c.edit.f, c.edit.open = page.FieldModel, true
	doc := app.HTMLString(c.renderJobLine())
	if !strings.Contains(doc, `<select class="rs-job-edit" id="rs-job-edit" data-f="`+strconv.Itoa(int(page.FieldModel))+`"`) &&
		!strings.Contains(doc, `id="rs-job-edit"`) {
		t.Fatalf("no model editor in %s", doc)
	}
	if n, want := strings.Count(doc, "<option"), len(c.modelOptions()); n != want {
		t.Errorf("model editor offers %d choices, the form %d", n, want)
	}

	// A bad batch size typed in the line: the form's parse, the form's message.
	c.edit.f = page.FieldBatch
	c.set(page.FieldBatch, "eight")
	full := app.HTMLString(c.Render())
	form, ok1 := textByID(full, "rs-batch-error")
	line, ok2 := textByID(full, "rs-job-batch-error")
	if !ok1 || !ok2 || strings.TrimSpace(line) != form {
		t.Errorf("line's message %q (%v), form's %q (%v)", line, ok2, form, ok1)
	}
	if !strings.Contains(full, `value="eight"`) || !strings.Contains(full, `aria-describedby="rs-job-batch-error"`) {
		t.Error("the open editor does not hold the bad text or point at its message")
	}

	// Opened with a bad link and no plan ever made: the line is there,
	// its part shows the text as typed with its message.
	c2, _ := load(t)
	c2.applyFragment("m=llama-3.1-8b&s=lots")
	c2.ps.out = page.PlanOut{}
	doc = app.HTMLString(c2.renderAnswer(&viewOf(c2).Answer))
	if v, ok := textByID(doc, "rs-job-seq"); !ok || v != "lots" {
		t.Errorf("bad sequence length shown as %q (%v) in %s", v, ok, doc)
	}
	if _, ok := textByID(doc, "rs-job-seq-error"); !ok {
		t.Error("no message next to the bad part")
	}
}
