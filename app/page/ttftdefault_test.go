package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// TestTTFTFieldShowsTheDefaultInEffect: the TTFT field is empty by
// default, and the plan holds the planner's default for the job's prompt
// (planner.DefaultTTFT), as rightsize plan does without --ttft-p95: its
// placeholder gives the milliseconds and the line under it the rule and
// its source, in each language. 2 s for the sample job's prompt; 20 s for
// 100,000-token prompts. A target typed in is the user's.
func TestTTFTFieldShowsTheDefaultInEffect(t *testing.T) {
	for _, tc := range []struct {
		frag        string
		ttft        float64
		byDefault   bool
		placeholder string
		where       string
	}{
		{"rps=1", 2, true, "2000", "empty: 2,000 ms, the default for 1,536-token prompts (2 s, or 0.2 s per 1,000 tokens where longer; an estimate after MLPerf Inference's server limits)"},
		{"rps=1&s=100500&out=500", 20, true, "20000", "empty: 20,000 ms, the default for 100,000-token prompts"},
		{"rps=1&s=100500&out=500&l=ru", 20, true, "20000", "пусто: 20\u00a0000 мс, по умолчанию для промптов в 100\u00a0000 токенов"},
		{"rps=1&s=100500&out=500&l=zh", 20, true, "20000", "留空：20,000 毫秒，即 100,000 token 提示词的默认值"},
		{"rps=1&s=100500&out=500&ttft=2000", 2, false, "20000", "empty: 20,000 ms"},
	} {
		pr := NewPrices(catalog.Default(), nil)
		s := ParseFragment(tc.frag, DefaultState)
		d := Derive(s, nil, pr, nil, "")
		if !d.R.OK {
			t.Fatalf("%s: no result: %v %v", tc.frag, d.Errs, d.General)
		}
		w := PlanRequest(d.Job).Workload
		if w.TTFTP95Seconds != tc.ttft || w.TTFTByDefault != tc.byDefault {
			t.Errorf("%s: the plan holds %v s (by default %v), want %v s (%v)", tc.frag, w.TTFTP95Seconds, w.TTFTByDefault, tc.ttft, tc.byDefault)
		}
		v := BuildView(ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General})
		found := false
		for _, f := range v.Form.Fields {
			if f.F != FieldTTFT {
				continue
			}
			found = true
			if f.Placeholder != tc.placeholder || !strings.Contains(f.Where, tc.where) {
				t.Errorf("%s: placeholder %q, line %q; want %q and %q in it", tc.frag, f.Placeholder, f.Where, tc.placeholder, tc.where)
			}
		}
		if !found {
			t.Errorf("%s: no TTFT field", tc.frag)
		}
	}
}

// TestDefaultTTFTReliefInEachLanguage: where the default TTFT target sets
// the cheapest pick's replica count (Llama 3.1 70B at 1 req/s with
// 30,000-token prompts on CoreWeave's offers: 6 s), the page's plan notes
// say what twice the target buys, in each language, with every argument
// filled.
func TestDefaultTTFTReliefInEachLanguage(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	req, all := planRequestOf(pr, "m=llama-3.1-70b&rps=1&s=30500&out=500")
	var offers []planner.Offer
	for _, o := range all {
		if o.Provider == "coreweave" && o.GPU == "h100-sxm" { // GB200 trays rent by the rack
			offers = append(offers, o)
		}
	}
	res, err := planner.Plan(req, offers, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var n planner.Reason
	for _, r := range res.Notes {
		if r.Key == planner.MsgNoteTTFTDefaultRelax {
			n = r
		}
	}
	if n.Key == planner.NoMsg {
		t.Fatalf("no note.ttft_default_relax in %v", res.Notes)
	}
	for lang, want := range map[string]string{
		"en": "at a TTFT of 12.0 s — 6.80× one prompt's prefill there — the cheapest is",
		"ru": "при TTFT 12,0 с — 6,80× prefill одного промпта на нём — самый дешёвый вариант",
		"zh": "若 TTFT 为 12.0 秒（其上单个提示词 prefill 的 6.80 倍），最便宜的是",
	} {
		got := Locale{Lang: lang}.Reason(n)
		if !strings.Contains(got, want) || strings.Contains(got, "%!") || strings.Contains(got, "..") {
			t.Errorf("%s: %q, want %q in it", lang, got, want)
		}
	}
}
