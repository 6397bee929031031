package page

import (
	"strings"
	"testing"

	planner "rightsize/estimator/plan"
)

// TestFasterAlternativeCard: the page's default training job as a LoRA
// (Llama 3.1 8B on 1B tokens) showed a "Fastest" card of 16 instances of
// 8 GPUs at several times the cheapest's cost. Its faster alternative is
// one 8 × B200 at Verda, within twice the cheapest's cost
// (planner.AltCostBound), titled "Faster" as it is not the quickest plan,
// and its sentence is the planner's, stated against the cheapest, in each
// language.
func TestFasterAlternativeCard(t *testing.T) {
	for lang, want := range map[string][2]string{
		"en": {"Faster", "8B200.240V: 7.25× faster for 1.19× the cost of the cheapest plan, 88 min"},
		"ru": {"Быстрее", "8B200.240V: в 7,25× быстрее самого дешёвого варианта при 1,19× его стоимости, 88 мин"},
		"zh": {"更快", "8B200.240V：速度为最便宜方案的 7.25×，成本为其 1.19×，88 分钟"},
	} {
		v, in, _ := pageOf(t, "t=lora&l="+lang, nil)
		var fast *PickView
		for i := range v.Answer.Picks {
			if strings.Contains(v.Answer.Picks[i].Roles, "fastest") {
				fast = &v.Answer.Picks[i]
			}
		}
		if fast == nil {
			t.Fatalf("%s: no fastest card in %+v", lang, v.Answer.Picks)
		}
		var why string
		for _, p := range in.Plan.Picks {
			if p.Kind == PickFastest {
				why = Locale{Lang: lang}.ReasonWith(p.Why, in.Prices.ProviderName)
			}
		}
		if !strings.HasPrefix(fast.Title, want[0]) || !strings.Contains(fast.Reason, want[1]) || !strings.Contains(fast.Reason, why) || why == "" ||
			fast.GPU != "b200" || !strings.Contains(fast.What, "8 × ") {
			t.Errorf("%s: card %q (%s, %s): %q", lang, fast.Title, fast.What, fast.GPU, fast.Reason)
		}
	}
}

// TestNoFXNoteInEachLanguage: the plan's note on offers left out for want
// of an exchange rate (planner's note.no_fx) reads in each language, its
// count in the locale's digits.
func TestNoFXNoteInEachLanguage(t *testing.T) {
	r := planner.Reason{Key: planner.MsgNoteNoFX, Args: []any{"EUR", 1200}}
	for lang, want := range map[string]string{
		"en": "no exchange rate for EUR: 1,200 offers priced in it are left out of the plan",
		"ru": "нет курса для EUR: предложения с ценами в этой валюте (1\u00a0200) в план не вошли",
		"zh": "EUR 没有汇率：以该货币计价的 1,200 个报价未纳入方案",
	} {
		if got := (Locale{Lang: lang}).Reason(r); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// TestSetupLineGroupsTheBatch: the setup line writes the batch as the
// locale writes counts ("1,024", "1 024"), as the field messages do.
func TestSetupLineGroupsTheBatch(t *testing.T) {
	_, _, d := pageOf(t, "b=1024", nil)
	for lang, want := range map[string]string{"en": " 1,024", "ru": " 1\u00a0024", "zh": " 1,024"} {
		if got := SetupLine(Locale{Lang: lang}, d.Job); !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end %q", lang, got, want)
		}
	}
}

// TestNoFasterAlternativeNote: a full fine-tune of Mixtral 8x7B has no
// plan within twice the cheapest's cost that runs at least 20% faster (a
// GB200 rack runs it several times as fast for more than twice the
// cost), so the page shows no faster card; the planner's sentence on
// what the quickest plan would buy is among the plan's notes, as the CLI
// prints it, in each language.
func TestNoFasterAlternativeNote(t *testing.T) {
	_, in, _ := pageOf(t, "m=mixtral-8x7b&t=finetune", nil)
	for _, p := range in.Plan.Picks {
		if p.Kind == PickFastest {
			t.Fatalf("a faster pick: %+v", p.Why)
		}
	}
	var note planner.Reason
	for _, n := range in.Plan.Notes {
		if n.Key == planner.MsgReasonNoAlternative {
			note = n
		}
	}
	if note.Key == planner.NoMsg {
		t.Fatalf("no note on the missing faster alternative in %+v", in.Plan.Notes)
	}
	for lang, want := range map[string]string{
		"en": "no plan within 2× its cost runs at least 20% faster, so no faster plan is shown; the fastest, ",
		"ru": "ни один вариант не дороже 2× его стоимости не быстрее хотя бы на 20%",
		"zh": "成本不超过其 2× 的方案中没有快至少 20% 的",
	} {
		if got := (Locale{Lang: lang}).Reason(note); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to contain %q", lang, got, want)
		}
	}
}
