package estimator

import (
	"errors"
	"math"
	"strings"
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

// TestTrainBatchLimit: Llama 3.1 8B pre-trained at 8K tokens with no
// batch takes the default 2M tokens, 256 sequences: on 16,384 GPUs at TP 1
// that is 1/64 of a sequence a replica, which Megatron-LM refuses
// ("global batch size … is not divisible by micro batch size … times data
// parallel size"), as torchtitan and llm-foundry do. The default is the
// product's guess, not the user's, so the estimate takes the smallest batch
// that layout needs, one sequence a replica (16,384, 134M tokens: timed,
// Raised), where a --global-batch of 256 the user gave is refused. TP 8 ×
// CP 8 leaves 256 replicas, which the default feeds. A --global-batch of
// 2,050 on 2,048 replicas is larger but not a multiple: refused as given,
// timed at 2,048 (Megatron's --decrease-batch-size-if-needed). Fine-tunes
// without a batch and jobs given in micro-batches have no limit to meet.
func TestTrainBatchLimit(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Seq, in.Batch, in.GPUs = Pretrain, 8192, 1, 16384
	b := TrainBatchOf(in, Workload{})
	if b.Err() != nil || !b.Short() || !b.Raised() || b.Replicas != 16384 || b.Global != 256 || !b.Default ||
		b.MaxReplicas() != 256 || b.Needed() != 16384 {
		t.Errorf("16,384 replicas on the default 256 sequences: %+v, %v", b, b.Err())
	}
	if p := mustPerf(t, in, scaleHardware["h100-sxm"], Efficiency{}, Workload{}); p.TokensPerStep != 16384*8192 || p.MicroBatches != 1 {
		t.Errorf("raised default: %g tokens a step in %d micro-batches, want %d in 1", p.TokensPerStep, p.MicroBatches, 16384*8192)
	}
	b = TrainBatchOf(in, Workload{GlobalBatch: 256})
	var be *BatchLimitError
	if err := b.Err(); !errors.As(err, &be) || !errors.Is(err, ErrIncompatible) || b.Raised() ||
		!strings.Contains(err.Error(), "at most 256 replicas") || !strings.Contains(err.Error(), "(--global-batch) holds 256") {
		t.Errorf("16,384 replicas on a given 256 sequences: %+v, %v", b, err)
	}
	in.TP, in.CP = 8, 8
	if b := TrainBatchOf(in, Workload{}); b.Replicas != 256 || b.Err() != nil || b.Uneven() {
		t.Errorf("TP 8 × CP 8: %+v, %v", b, b.Err())
	}
	in.TP, in.CP, in.GPUs = 1, 1, 2048
	b = TrainBatchOf(in, Workload{GlobalBatch: 2050})
	if b.Err() != nil || !b.Uneven() || b.Rounded() != 2048 {
		t.Errorf("2,050 sequences on 2,048 replicas: %+v, rounded %d", b, b.Rounded())
	}
	if p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{GlobalBatch: 2050}); p.TokensPerStep != 2048*8192 {
		t.Errorf("uneven batch timed at %g tokens a step, want %d", p.TokensPerStep, 2048*8192)
	}
	if b := TrainBatchOf(in, Workload{MicroBatches: 4}); b.Err() != nil || b.Uneven() {
		t.Errorf("micro-batches given: %+v", b)
	}
	in.Task = FullFinetune
	if b := TrainBatchOf(in, Workload{}); b.Err() != nil || b.Global != 0 {
		t.Errorf("fine-tune, no batch: %+v", b)
	}
}

// TestRunSeconds: the whole run is the steps over the goodput, the one
// function behind the CLI's, the page's and the planner's figures; no
// goodput outside (0, 1] and no steps give 0.
func TestRunSeconds(t *testing.T) {
	if got := RunSeconds(900, 0.9); math.Abs(got-1000) > 1e-9 {
		t.Errorf("900 s at 0.9: %g s", got)
	}
	for _, g := range []float64{0, -1, 1.5, math.NaN()} {
		if got := RunSeconds(900, g); got != 0 {
			t.Errorf("goodput %g: %g s, want 0", g, got)
		}
	}
	p := Perf{GPUs: 2048, TokensPerSecond: 1e6}
	r := TrainRunOf(p, 1e12, 0)
	if r.Goodput != TrainGoodput(2048) || r.SecondsWithOverhead != RunSeconds(JobTime(p, 1e12), r.Goodput) || r.GPUHours != GPUHours(p, 1e12) {
		t.Errorf("run %+v", r)
	}
}
