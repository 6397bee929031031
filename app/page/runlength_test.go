package page

import (
	"strings"
	"testing"
)

// TestRunLengthOnThePage: a pre-train with no deadline is planned within
// the assumed run length, and the answer says so in each language with
// the plan it passed over; where no plan within the default instance
// limit meets it, the limit is raised and the answer says so; where none
// within the raised limit does, the empty answer says that and names the
// fastest plan; a deadline of 0 assumes none.
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
	// 15T tokens: no plan of at most 64 instances, the default limit (the
	// page has no control for it), finishes within 117 days; the limit is
	// raised to 256, and the answer says so.
	for lang, want := range map[string]string{"en": "the limit is raised to 256 instances", "ru": "предел поднят до 256 инстансов", "zh": "上限提高到 256 个实例"} {
		v, in := viewOf(t, "m=llama-3.1-70b&t=train&tok=15T&l="+lang, nil)
		if a := in.Plan.RunLength; a == nil || a.RaisedMaxInstances != 256 || v.Answer.Kind != AnswerPicks {
			t.Fatalf("15T tokens, %s: run length %+v, answer %v %q", lang, a, v.Answer.Kind, v.Answer.Note)
		}
		if !strings.Contains(strings.Join(v.Answer.Notes, "\n"), want) {
			t.Errorf("15T tokens, %s: notes %q, want %q", lang, v.Answer.Notes, want)
		}
	}
	// 405B on 200T tokens needs more than the raised limit's most,
	// 4,096 instances: nothing is picked, and the answer names the
	// fastest plan.
	v, in := viewOf(t, "m=llama-3.1-405b&t=train&tok=200T", nil)
	if in.Plan.NoneWhy != MsgNoAnswerRunLength || v.Answer.Kind != AnswerNone || !strings.Contains(v.Answer.Note, "the fastest, ") {
		t.Errorf("405B, 200T tokens: why %v, answer %v %q", in.Plan.NoneWhy, v.Answer.Kind, v.Answer.Note)
	}
	if v, in := viewOf(t, "m=llama-3.1-70b&t=train&tok=2T&dl=0", nil); in.Plan.RunLength != nil || strings.Contains(strings.Join(v.Answer.Notes, "\n"), "117") {
		t.Errorf("dl=0: run length %+v, notes %q", in.Plan.RunLength, v.Answer.Notes)
	}
}
