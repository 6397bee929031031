package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

// TestBatchLimitBesideGPUs: Llama 3.1 8B pre-trained at 8K tokens on
// 16,384 H100s with a global batch of 256 sequences given: the page says
// beside the GPUs, in each language, that the replicas exceed the global
// batch and how many it feeds, and shows no time. Without a batch the
// default is raised to one sequence a replica and timed (the estimator's
// TrainBatch.Raised), as the CLI does. TP 8 × CP 8 (256 replicas) is timed, with the
// whole run at its goodput (0.90 on 16,384 GPUs) beside the steps' time.
func TestBatchLimitBesideGPUs(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	if d := Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=16384&s=8192&tok=15T", DefaultState), nil, pr, nil, ""); !d.Errs[FieldGPUs].OK() || !d.R.Perf.OK {
		t.Errorf("default batch on 16,384 replicas: %+v, timed %v", d.Errs[FieldGPUs], d.R.Perf.OK)
	}
	d := Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=16384&s=8192&gb=256&tok=15T", DefaultState), nil, pr, nil, "")
	e := d.Errs[FieldGPUs]
	if e.Key != MsgBatchShort || d.R.Perf.OK {
		t.Fatalf("GPUs field: %+v; timed: %v", e, d.R.Perf.OK)
	}
	for lang, want := range map[string][]string{
		"en": {"16,384 data-parallel replicas", "256 sequences", "at most 256 replicas"},
		"ru": {"16\u00a0384 реплик", "256 последовательностей", "не больше 256 реплик"},
		"zh": {"16,384 个数据并行副本", "256 条序列", "最多使用 256 个副本"},
	} {
		got := Locale{Lang: lang}.ErrText(e)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", lang, got, w)
			}
		}
	}
	d = Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=16384&tp=8&cp=8&s=8192&tok=15T", DefaultState), nil, pr, nil, "")
	if !d.Errs[FieldGPUs].OK() || !d.R.Perf.OK || d.R.Perf.Run.Goodput != 0.9 {
		t.Fatalf("TP 8 × CP 8: %+v, timed %v, goodput %v", d.Errs[FieldGPUs], d.R.Perf.OK, d.R.Perf.Run.Goodput)
	}
	b := &viewBuilder{l: Locale{Lang: "en"}}
	runTime, runHours := b.wholeRun(d.R.Perf.Run)
	if !strings.HasPrefix(runTime, "whole run ") || !strings.Contains(runTime, "at 90.0% goodput") || !strings.Contains(runHours, "at 90.0% goodput") {
		t.Errorf("whole run: %q, %q", runTime, runHours)
	}
	if a, _ := b.wholeRun(estimatorRunAt(0.99995)); a != "" {
		t.Errorf("8 GPUs' goodput shown: %q", a)
	}
}

func estimatorRunAt(g float64) estimator.TrainRun {
	return estimator.TrainRun{Goodput: g, Seconds: 3600, SecondsWithOverhead: 3600 / g}
}

// TestUnevenBatchNote: a global batch of 100 sequences on 16 replicas is
// refused by the stacks as given and timed at 96, as the CLI warns; the
// page says so beside the optimizer steps. 96 needs no note.
func TestUnevenBatchNote(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	b := &viewBuilder{l: Locale{Lang: "en"}}
	d := Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=16&gb=100", DefaultState), nil, pr, nil, "")
	if got := b.unevenBatch(d.Job); got != "a global batch of 100 is not a multiple of 16 replicas × micro-batch 1, which the stacks refuse: timed at 96" {
		t.Errorf("100 on 16 replicas: %q", got)
	}
	d = Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=16&gb=96", DefaultState), nil, pr, nil, "")
	if got := b.unevenBatch(d.Job); got != "" {
		t.Errorf("96 on 16 replicas: %q", got)
	}
}

// TestRaisedBatchNote: Llama 3.1 8B pre-trained at 8K tokens on 4,096
// H100s with no global batch of the user's: the default for its size (256
// sequences) feeds 256 of the 4,096 replicas, so the step is timed at
// 4,096 sequences (estimator.TrainBatch.Raised), and the page says so
// beside the optimizer steps in each language, with the CLI's numbers. A
// global batch the user gives takes no such note.
func TestRaisedBatchNote(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	d := Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=4096&s=8192&tok=15T", DefaultState), nil, pr, nil, "")
	if !d.R.Perf.OK {
		t.Fatalf("not timed: %+v", d.Errs[FieldGPUs])
	}
	if got, want := d.R.Perf.P.TokensPerStep, 4096.0*8192; got != want {
		t.Errorf("tokens a step %v, want %v", got, want)
	}
	want := map[string]string{
		"en": "the default global batch for this model size (256 sequences) is short of 4,096 replicas × micro-batch 1",
		"ru": "(256 последовательностей) не хватает на 4\u00a0096 реплик × микробатч 1",
		"zh": "默认全局批量（256 条序列）不足以喂满 4,096 个副本",
	}
	for lang, w := range want {
		b := &viewBuilder{l: Locale{Lang: lang}}
		got := b.unevenBatch(d.Job)
		if !strings.Contains(got, w) || !strings.Contains(got, b.l.Count(4096)) {
			t.Errorf("%s: %q, want it to hold %q", lang, got, w)
		}
	}
	d = Derive(ParseFragment("m=llama-3.1-8b&t=train&g=h100-sxm&n=256&s=8192&tok=15T", DefaultState), nil, pr, nil, "")
	if got := (&viewBuilder{l: Locale{Lang: "en"}}).unevenBatch(d.Job); got != "" {
		t.Errorf("256 replicas on the default batch: %q", got)
	}
}
