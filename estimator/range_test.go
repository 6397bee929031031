package estimator

import (
	"errors"
	"strconv"
	"testing"
)

// TestWholeRangeIsValidates: each whole-number field's WholeRange is the
// range Validate checks: its bounds pass, one past each is refused with
// that Range, which a page then says in its own numbers.
func TestWholeRangeIsValidates(t *testing.T) {
	base := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	set := map[string]func(*Input, int){
		"batch":              func(in *Input, v int) { in.Batch = v },
		"seq":                func(in *Input, v int) { in.Seq = v },
		"gpus":               func(in *Input, v int) { in.GPUs = v },
		"tp":                 func(in *Input, v int) { in.TP = v },
		"max-batched-tokens": func(in *Input, v int) { in.MaxBatchedTokens = v },
		"loss-chunks":        func(in *Input, v int) { in.LossChunks = v },
		"scheduler-steps":    func(in *Input, v int) { in.SchedulerSteps = v },
		"scheduler-recv-interval": func(in *Input, v int) {
			in.Engine, in.SchedulerRecvInterval = SGLang, v
		},
		"attention-dp-balance": func(in *Input, v int) {
			in.Engine, in.AttentionDPBalanceIters = TRTLLM, v
		},
		"micro-batches": func(in *Input, v int) { in.Schedule.MicroBatches = v },
		"global-batch":  func(in *Input, v int) { in.Schedule.GlobalBatch = v },
		"zero":          func(in *Input, v int) { in.ZeRO = v },
	}
	for field, f := range set {
		r, ok := WholeRange(field)
		if !ok || !r.HasMin || !r.HasMax {
			t.Fatalf("%s: no whole range", field)
		}
		for _, v := range []float64{r.Min - 1, r.Max + 1} {
			in := base
			f(&in, int(v))
			var got *InputError
			for _, e := range unjoin(in.Validate()) {
				var ie *InputError
				if errors.As(e, &ie) && ie.Field == field && errors.Is(ie, ErrRange) {
					got = ie
				}
			}
			if got == nil {
				t.Errorf("%s=%v: no range error", field, v)
				continue
			}
			if got.Range != r || got.Range.Contains(v) {
				t.Errorf("%s=%v: range %+v, want %+v", field, v, got.Range, r)
			}
			if x, _ := strconv.ParseFloat(got.Value, 64); x != v {
				t.Errorf("%s=%v: value %q", field, v, got.Value)
			}
		}
		for _, v := range []float64{r.Min, r.Max} {
			in := base
			f(&in, int(v))
			for _, e := range unjoin(in.Validate()) {
				var ie *InputError
				if errors.As(e, &ie) && ie.Field == field && errors.Is(ie, ErrRange) {
					t.Errorf("%s=%v at the range's bound refused: %v", field, v, ie)
				}
			}
		}
	}
	// The command line's text stays as it read.
	in := base
	in.Seq = 0
	if err := in.Validate(); err == nil || err.Error() != "estimator: seq=0: out of range: want 1..16777216" {
		t.Errorf("seq=0: %v", err)
	}
}

func unjoin(err error) []error {
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		return u.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

func TestRangeContains(t *testing.T) {
	r := Range{Min: 0, Max: 1, HasMin: true, HasMax: true, MinOpen: true}
	for v, want := range map[float64]bool{0: false, 0.5: true, 1: true, 1.01: false, -1: false} {
		if r.Contains(v) != want {
			t.Errorf("(0, 1] contains %v: %v", v, !want)
		}
	}
	if !AtLeast(0).Contains(1e300) || AtLeast(0).Contains(-1) || Above(0).Contains(0) {
		t.Error("one-sided ranges")
	}
}
