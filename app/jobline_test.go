package app

import (
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// TestJobLineButtons: every editable part of the job line is a button
// carrying its field's index (data-f), the index the form's input
// carries; which parts a job has: page.TestJobLineParts.
func TestJobLineButtons(t *testing.T) {
	c, _ := load(t)
	c.state = page.ParseFragment("m=mistral-7b-v0.3&rps=20", page.DefaultState)
	c.recompute(none)
	v := viewOf(c)
	doc := app.HTMLString(answerUI(v, c.open.part.Field(), c.cmp.ids, c.embed))
	n := 0
	for _, p := range v.Job.Parts {
		if !p.Editable() {
			continue
		}
		n++
		want := `id="` + page.JobPartID(p.F) + `"`
		i := strings.Index(doc, want)
		if i < 0 {
			t.Errorf("no part %s in the job line", want)
			continue
		}
		tag := doc[strings.LastIndex(doc[:i], "<"):]
		tag = tag[:strings.Index(tag, ">")]
		if !strings.HasPrefix(tag, "<button") || !strings.Contains(tag, `data-f="`+strconv.Itoa(int(p.F))+`"`) {
			t.Errorf("part %s is %s", page.FieldNames[p.F], tag)
		}
	}
	if n < 6 {
		t.Errorf("%d editable parts", n)
	}
}

// TestJobLineEditor: an open part is the form's control in place: the
// form's choices for a select, the state's text for a text box; a bad
// value shows the form field's own message next to it, and the answer
// keeps the line (with its editor) even with no plan to show.
func TestJobLineEditor(t *testing.T) {
	c, _ := load(t)
	c.open.part = page.OpenPart{F: page.FieldModel, Open: true}
	doc := app.HTMLString(&jobLine{V: &viewOf(c).Job, Edit: page.FieldModel})
	if !strings.Contains(doc, `<select class="rs-job-edit" id="rs-job-edit" data-f="`+strconv.Itoa(int(page.FieldModel))+`"`) &&
		!strings.Contains(doc, `id="rs-job-edit"`) {
		t.Fatalf("no model editor in %s", doc)
	}
	if n, want := strings.Count(doc, "<option"), len(viewOf(c).Form.Fields[0].Opts); n != want {
		t.Errorf("model editor offers %d choices, the form %d", n, want)
	}

	// A bad batch size typed in the line: the form's parse, the form's message.
	c.open.part.F = page.FieldBatch
	c.set(none, page.FieldBatch, "eight")
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
	c2.applyFragment(none, "m=llama-3.1-8b&s=lots")
	c2.ps.Out = page.PlanOut{}
	doc = app.HTMLString(answerOf(c2))
	if v, ok := textByID(doc, "rs-job-seq"); !ok || v != "lots" {
		t.Errorf("bad sequence length shown as %q (%v) in %s", v, ok, doc)
	}
	if _, ok := textByID(doc, "rs-job-seq-error"); !ok {
		t.Error("no message next to the bad part")
	}
}
