package page

import (
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
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
		{1234.6, "1,235", "1\u00a0235"}, {-123.4, "-123", "-123"},
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

// TestRangeMessagesNameTheRange: a batch, sequence length or GPU count
// out of range says the range in the page's language and numbers, for a
// value the estimator refuses (0) and one no int holds (1e30).
func TestRangeMessagesNameTheRange(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	want := map[string][3]string{
		"en": {"out of range: 1 to 1,048,576", "out of range: 1 to 16,777,216", "out of range: 1 to 65,536"},
		"ru": {"вне допустимого диапазона: от 1 до 1\u00a0048\u00a0576", "вне допустимого диапазона: от 1 до 16\u00a0777\u00a0216", "вне допустимого диапазона: от 1 до 65\u00a0536"},
		"zh": {"超出范围：1 至 1,048,576", "超出范围：1 至 16,777,216", "超出范围：1 至 65,536"},
	}
	for lang, w := range want {
		for i, f := range []Field{FieldBatch, FieldSeq, FieldGPUs} {
			for _, bad := range []string{"0", "1e30"} {
				frag := "l=" + lang + "&" + FieldKeys[f] + "=" + bad
				d := Derive(ParseFragment(frag, DefaultState), nil, pr, nil, "")
				if got := ErrText(lang, d.Errs[f]); got != w[i] {
					t.Errorf("%s: %q, want %q", frag, got, w[i])
				}
			}
		}
	}
}

// TestEveryRangeErrorHasItsRange walks every field the page reads with
// values out of any range, on the jobs that show each field, and checks
// that every out-of-range message carries its range, and that the range
// refuses the value it is said of (a range that let the value through
// would tell the user nothing).
func TestEveryRangeErrorHasItsRange(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	bases := []string{"", "t=lora", "t=train&tok=1B", "e=vllm&rps=10", "e=sglang&req=1000&dl=12&own=30000&kwh=0.1&dep=4"}
	checked := 0
	for _, base := range bases {
		for f := range Field(NFields) {
			if f == FieldLang || f == FieldModel || f == FieldGPU {
				continue
			}
			for _, bad := range []string{"-5", "0", "1e30", "-1e30", "1e400", "0.5"} {
				frag := FieldKeys[f] + "=" + bad
				if base != "" {
					frag = base + "&" + frag
				}
				s := ParseFragment(frag, DefaultState)
				d := Derive(s, nil, pr, nil, "")
				errs := append(d.Errs[:], d.General...)
				for _, e := range errs {
					if e.Key != MsgRange {
						continue
					}
					checked++
					if !e.Range.Set() {
						t.Errorf("%s: out of range with no range: %+v", frag, e)
						continue
					}
					if x, err := strconv.ParseFloat(e.Value, 64); err == nil && e.Range.Contains(x) && !strings.Contains(frag, "=0.5") {
						t.Errorf("%s: %s is said out of %+v, which holds it", frag, e.Value, e.Range)
					}
					if got := ErrText("ru", e); !strings.Contains(got, ": ") {
						t.Errorf("%s: %q names no range", frag, got)
					}
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d out-of-range messages met: the walk no longer reaches the fields", checked)
	}
}

// TestRangeText: open and one-sided ranges and units.
func TestRangeText(t *testing.T) {
	for _, c := range []struct {
		r    estimator.Range
		lang string
		want string
	}{
		{estimator.Between(0.01, 1), "ru", "от 0,01 до 1"},
		{estimator.Above(0), "en", "> 0"},
		{estimator.AtLeast(0), "zh", "≥ 0"},
		{estimator.Range{Min: 0, Max: 1e6, HasMin: true, HasMax: true, MinOpen: true}, "en", "> 0, ≤ 1,000,000"},
		{estimator.Between(0, 3600).In(estimator.RangeSeconds), "en", "0 s to 60 min"},
		{estimator.Between(0, float64(80*estimator.GiB)).In(estimator.RangeBytes), "ru", "от 0,00 ГиБ до 80,00 ГиБ"},
	} {
		if got := (Locale{Lang: c.lang}).RangeText(c.r); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.lang, c.r, got, c.want)
		}
	}
}
