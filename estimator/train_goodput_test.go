package estimator

import (
	"math"
	"testing"
)

// TestTrainGoodput: Llama 3's 16,384-GPU pre-training kept over 90%
// effective training time (§3.3.4), and its interruptions, mostly
// hardware failures, come in proportion to the GPUs: 0.90 there, 0.9875
// on 2,048 GPUs, nearly 1 on one, never below minGoodput; the whole run's
// GPU-hours are the steps' over it, and the steps' own are unchanged.
func TestTrainGoodput(t *testing.T) {
	for _, c := range []struct {
		gpus int
		want float64
	}{
		{16384, 0.90},
		{2048, 0.9875},
		{1, 1 - 0.1/16384},
		{0, 1},
		{1 << 20, minGoodput},
	} {
		if got := TrainGoodput(c.gpus); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%d GPUs: goodput %g, want %g", c.gpus, got, c.want)
		}
	}
	p := Perf{GPUs: 16384, TokensPerSecond: 2e6}
	steps := GPUHours(p, 15.6e12)
	if got, want := GPUHoursWithOverhead(p, 15.6e12, TrainGoodput(16384)), steps/0.9; math.Abs(relErr(got, want)) > 1e-12 {
		t.Errorf("whole run %g GPU-hours, want %g (the steps' %g over 0.9)", got, want, steps)
	}
	if got := GPUHoursWithOverhead(p, 15.6e12, 0); got != 0 {
		t.Errorf("goodput 0: %g GPU-hours, want 0 (not a share)", got)
	}
	if got := JobTimeWithOverhead(p, 15.6e12, 1); got != JobTime(p, 15.6e12) {
		t.Errorf("goodput 1: %g s, want the steps' %g s", got, JobTime(p, 15.6e12))
	}
}
