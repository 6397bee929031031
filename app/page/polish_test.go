package page

import (
	"testing"
)

// TestRuntimeNamesFollowTheVendor: on an AMD GPU the breakdown, the
// overrides box and the no-graphs switch say HIP (ROCm's hipCtx and
// hipGraph), on Intel Gaudi HPU graphs, on NVIDIA CUDA; in every language.
func TestRuntimeNamesFollowTheVendor(t *testing.T) {
	for _, c := range []struct {
		gpu, lang, ctx, graphs, eager string
	}{
		{"h100-sxm", "en", "CUDA context", "CUDA graphs", "No CUDA graphs (vLLM --enforce-eager)"},
		{"mi300x", "en", "HIP context", "HIP graphs", "No HIP graphs (vLLM --enforce-eager)"},
		{"mi300x", "ru", "Контекст HIP", "HIP graphs", "Без HIP graphs (vLLM --enforce-eager)"},
		{"mi300x", "zh", "HIP 上下文", "HIP graphs", "不用 HIP graphs（vLLM --enforce-eager）"},
		{"gaudi2", "en", "Runtime context", "HPU graphs", "No HPU graphs (vLLM --enforce-eager)"},
	} {
		v, _, d := pageOf(t, "g="+c.gpu+"&e=vllm&l="+c.lang, nil)
		if !d.R.OK {
			t.Fatalf("%s: no result: %v %v", c.gpu, d.Errs, d.General)
		}
		names := map[string]bool{}
		for _, p := range v.Result.Breakdown.Parts {
			names[p.Name] = true
		}
		if !names[c.ctx] || !names[c.graphs] {
			t.Errorf("%s %s: parts %v, want %q and %q", c.gpu, c.lang, names, c.ctx, c.graphs)
		}
		labels := map[Field]string{}
		for _, f := range append(v.Form.Fields, v.Form.Overrides.Fields...) {
			labels[f.F] = f.Label
		}
		if labels[FieldCtx] != c.ctx || labels[FieldGraphs] != c.graphs || labels[FieldEager] != c.eager {
			t.Errorf("%s %s: labels %q, %q, %q; want %q, %q, %q", c.gpu, c.lang,
				labels[FieldCtx], labels[FieldGraphs], labels[FieldEager], c.ctx, c.graphs, c.eager)
		}
	}
}

// TestRequestsLabelHasNoCondition: the batch job's requests field shows
// only for a batch job (no request rate), so its label says no "when".
func TestRequestsLabelHasNoCondition(t *testing.T) {
	want := map[string]string{"en": "Requests in the batch job", "ru": "Запросов в пакетной задаче", "zh": "批处理任务的请求数"}
	for lang, w := range want {
		v, _, _ := pageOf(t, "l="+lang, nil)
		got := ""
		for _, f := range v.Form.Fields {
			if f.F == FieldRequests {
				got = f.Label
			}
		}
		if got != w {
			t.Errorf("%s: requests label %q, want %q", lang, got, w)
		}
	}
}

// TestSig3: three significant digits, as the name says; a whole part of
// four digits or more stays whole.
func TestSig3(t *testing.T) {
	for _, c := range []struct {
		v      float64
		en, ru string
	}{
		{123.4, "123", "123"}, {99.96, "100", "100"}, {12.34, "12.3", "12,3"}, {9.996, "10.0", "10,0"},
		{1.234, "1.23", "1,23"}, {0.9996, "1.00", "1,00"}, {0.01234, "0.0123", "0,0123"},
		{1234.6, "1,235", "1 235"}, {-123.4, "-123", "-123"},
	} {
		if got := (Locale{Lang: "en"}).Sig3(c.v); got != c.en {
			t.Errorf("Sig3(%v) = %q, want %q", c.v, got, c.en)
		}
		if got := (Locale{Lang: "ru"}).Sig3(c.v); got != c.ru {
			t.Errorf("ru Sig3(%v) = %q, want %q", c.v, got, c.ru)
		}
	}
	if got := (Locale{Lang: "en"}).Given(123.45); got != "123" {
		t.Errorf("Given(123.45) = %q, want 123", got)
	}
}
