package page

import (
	"strings"
	"testing"
)

// TestRunLengthOnThePage: a pre-train with no deadline is planned within
// the assumed run length, and the answer says so in each language with
// the plan it passed over; where no plan meets it, the empty answer says
// that and names the fastest plan; a deadline of 0 assumes none.
func TestRunLengthOnThePage(t *testing.T) {
	for lang, want := range map[string]string{"en": "Planned to finish within 117.0 days", "ru": "укладывается в 117,0", "zh": "在 117.0"} {
		v, in := viewOf(t, "m=llama-3.1-70b&t=train&tok=2T&l="+lang, nil)
		if in.Plan.RunLength == nil || in.Plan.RunLength.Without == nil || v.Answer.Kind != AnswerPicks {
			t.Fatalf("%s: run length %+v, answer %v", lang, in.Plan.RunLength, v.Answer.Kind)
		}
		if !strings.Contains(strings.Join(v.Answer.Notes, "\n"), want) {
			t.Errorf("%s: notes %q, want %q", lang, v.Answer.Notes, want)
		}
	}
	v, in := viewOf(t, "m=llama-3.1-70b&t=train&tok=15T", nil)
	if in.Plan.NoneWhy != MsgNoAnswerRunLength || v.Answer.Kind != AnswerNone || !strings.Contains(v.Answer.Note, "the fastest, ") {
		t.Errorf("15T tokens: why %v, answer %v %q", in.Plan.NoneWhy, v.Answer.Kind, v.Answer.Note)
	}
	if v, in := viewOf(t, "m=llama-3.1-70b&t=train&tok=2T&dl=0", nil); in.Plan.RunLength != nil || strings.Contains(strings.Join(v.Answer.Notes, "\n"), "117") {
		t.Errorf("dl=0: run length %+v, notes %q", in.Plan.RunLength, v.Answer.Notes)
	}
}
