package page

import (
	"testing"

	"rightsize/catalog"
)

// TestUnknownProviderKindMarked: a link whose provider kind no provider
// has marks the field, as --kind does on the command line (catalog
// KindsFilter); it planned on no offer without a word.
func TestUnknownProviderKindMarked(t *testing.T) {
	cat := catalog.Default()
	for frag, bad := range map[string]bool{
		"m=llama-3.1-8b&rps=5&pk=gpucloud":  true,
		"m=llama-3.1-8b&rps=5&pk=any":       false,
		"m=llama-3.1-8b&rps=5&pk=gpu-cloud": false,
	} {
		_, errs, _, ok := ParseJob(ParseFragment(frag, DefaultState), cat, Archs{}, nil, "")
		if got := !errs[FieldProviderKind].OK(); got != bad || ok == bad {
			t.Errorf("%s: provider kind marked %v (ok %v), want %v", frag, got, ok, bad)
		}
		if bad && errs[FieldProviderKind].Key != MsgUnknownChoice {
			t.Errorf("%s: %v, want unknown choice", frag, errs[FieldProviderKind])
		}
	}
}

// TestRequestOverContextMarksTheSequence: a job whose request is longer
// than the model's context (GPT-2's 1,024 at a sequence of 2,048) is
// refused by the planner on the sequence field, which the page marks, and
// the answer says to fix the marked field, by its name (on a phone the
// field lies screens below the answer); it said no priced offer could
// run the job. Within the context it plans.
func TestRequestOverContextMarksTheSequence(t *testing.T) {
	v, in, _ := pageOf(t, "m=gpt2&s=2048&req=1000", nil)
	if in.Plan.OK {
		t.Fatal("GPT-2 at 2,048 tokens a request planned")
	}
	var seq *FieldView
	for i := range v.Form.Fields {
		if v.Form.Fields[i].F == FieldSeq {
			seq = &v.Form.Fields[i]
		}
	}
	if seq == nil || seq.Err == "" || v.Answer.Kind != AnswerStale || v.Answer.Note != Fill(Tr("en", MsgFixNamed), "“"+seq.Label+"”") {
		t.Errorf("sequence field %+v, answer %+v: want the field marked and the answer to fix it", seq, v.Answer)
	}
	if _, in, _ := pageOf(t, "m=gpt2&s=1024&req=1000", nil); !in.Plan.OK {
		t.Error("GPT-2 at 1,024 tokens a request: no plan")
	}
}

// TestRequestOverContextNamesYaRN: Qwen2.5-72B's config declares 32,768
// tokens and its card 131,072 with YaRN; the sequence field's message at
// 65,536 says so, with the card's rope_scaling and the page's own config
// field, in every language, written as config.json files are (a space
// after each ':' and ',', so a phone may break it between keys).
// Qwen2.5-3B's card has no such setting: its message stays the range's.
func TestRequestOverContextNamesYaRN(t *testing.T) {
	rope := `{"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}`
	for _, lang := range []string{"en", "ru", "zh"} {
		l := Locale{Lang: lang}
		for frag, yarn := range map[string]bool{"m=qwen2.5-72b&s=65536&rps=1": true, "m=qwen2.5-3b&s=65536&rps=1": false,
			"m=qwen2.5-7b&s=65536&rps=1": true, "m=qwen2.5-32b&s=65536&rps=1": true} {
			v, _, _ := pageOf(t, frag+"&l="+lang, nil)
			var seq string
			for _, f := range v.Form.Fields {
				if f.F == FieldSeq {
					seq = f.Err
				}
			}
			want := Fill(Tr(lang, MsgOverContextYaRN), l.Count(65536), l.Count(32768), l.Count(131072), rope, "131072", l.Count(32768))
			if got := seq == want; got != yarn || seq == "" {
				t.Errorf("%s %s: %q", lang, frag, seq)
			}
		}
	}
}
