package page

import (
	"strings"
	"testing"
)

// TestSpeculativeDecodingOnThePage: DeepSeek-R1 on SGLang shows the MTP
// drafts among the engine settings; two drafts open the box, speed the
// decode up and say what a step yields (2.58 tokens, DeepSeek-R1's
// measured acceptance at two drafts) in the page's language, the figure
// the CLI prints; a model without an MTP module, an acceptance that is no
// number or out of range, get their message next to the field.
func TestSpeculativeDecodingOnThePage(t *testing.T) {
	base := "m=deepseek-r1&p=fp8&e=sglang&g=h200-sxm&n=8&tp=8&b=32"
	v0, _, d0 := pageOf(t, base, nil)
	if !hasField(v0.Form.Overrides.Fields, FieldDraft) || hasField(v0.Form.Overrides.Fields, FieldDraftAccept) || v0.Form.Overrides.Open {
		t.Fatalf("DeepSeek-R1 without drafts: the draft field in the folded box, no acceptance field")
	}
	v1, _, d1 := pageOf(t, base+"&mtp=2", nil)
	if !d0.R.Perf.OK || !d1.R.Perf.OK {
		t.Fatal("no speed estimate")
	}
	if !v1.Form.Overrides.Open || !hasField(v1.Form.Overrides.Fields, FieldDraftAccept) {
		t.Error("two drafts: the box stays folded, or no acceptance field")
	}
	p0, p1 := d0.R.Perf.P, d1.R.Perf.P
	if p1.AcceptedTokens < 2.579 || p1.AcceptedTokens > 2.581 || !(p1.DecodeTokenLatency < 0.8*p0.DecodeTokenLatency) {
		t.Errorf("accepted %g a step; TPOT %g s with drafts, %g s without", p1.AcceptedTokens, p1.DecodeTokenLatency, p0.DecodeTokenLatency)
	}
	detail := func(v View) string {
		for _, f := range v.Perf.Facts {
			if f.ID == "rs-per-seq" {
				return f.Detail
			}
		}
		return ""
	}
	if got := detail(v1); got != "MTP draft tokens a step: 2; tokens accepted a step: 2.58" {
		t.Errorf("English detail %q", got)
	}
	if ru, _, _ := pageOf(t, base+"&mtp=2&l=ru", nil); detail(ru) != "черновых токенов MTP за шаг: 2; принятых токенов за шаг: 2,58" {
		t.Errorf("Russian detail %q", detail(ru))
	}
	if d := detail(v0); d != "" {
		t.Errorf("no drafts, detail %q", d)
	}
	for _, c := range []struct {
		frag string
		f    Field
		want string
	}{
		{"m=llama-3.1-8b&e=vllm&mtp=1", FieldDraft, "multi-token-prediction"},
		{base + "&mtp=2&mtpa=x", FieldDraftAccept, ""},
		{base + "&mtp=2&mtpa=1.5", FieldDraftAccept, ""},
		{base + "&mtp=99", FieldDraft, ""},
	} {
		v, in, _ := pageOf(t, c.frag, nil)
		if in.Errs[c.f].OK() {
			t.Errorf("%s: no error on %s", c.frag, FieldNames[c.f])
			continue
		}
		var shown bool
		for _, fv := range v.Form.Overrides.Fields {
			if fv.F == c.f && fv.Err != "" && strings.Contains(fv.Err, c.want) {
				shown = true
			}
		}
		if !shown {
			t.Errorf("%s: the error is not shown next to %s", c.frag, FieldNames[c.f])
		}
	}
}
