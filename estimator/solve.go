package estimator

import "slices"

// fitsAt reports whether in fits with the given batch and sequence length.
func fitsAt(in Input, batch, seq int) bool {
	in.Batch, in.Seq = batch, seq
	return estimate(in).Fits
}

// largest returns the largest n in [1, limit] with ok(n), assuming ok is
// monotone (true up to some n, false after); 0 when ok(1) is false.
func largest(limit int, ok func(int) bool) int {
	if !ok(1) {
		return 0
	}
	lo, hi := 1, 2
	for hi <= limit && ok(hi) {
		lo, hi = hi, hi*2
	}
	if hi > limit {
		if ok(limit) {
			return limit
		}
		hi = limit
	}
	for hi-lo > 1 { // ok(lo) && !ok(hi)
		mid := lo + (hi-lo)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// MaxBatch is the largest batch (concurrent sequences for inference) that
// fits in.VRAM at in.Seq, or 0 when even batch 1 does not fit or in is
// invalid. Memory is monotone in batch, so this is a binary search.
func MaxBatch(in Input) int {
	in.Batch = 1
	if in.Validate() != nil {
		return 0
	}
	return largest(maxBatch, func(b int) bool { return fitsAt(in, b, in.Seq) })
}

// MaxSeq is the longest sequence that fits at in.Batch, or 0. It does not
// stop at the model's context length (Result warns about that); for
// architectures with a fixed sample length (ViT) it is that length or 0.
func MaxSeq(in Input) int {
	in.Seq = 1
	if in.Validate() != nil {
		return 0
	}
	if in.Arch.SeqLen > 0 && !in.Arch.Generic() {
		if fitsAt(in, in.Batch, in.Arch.SeqLen) {
			return in.Arch.SeqLen
		}
		return 0
	}
	return largest(maxSeq, func(s int) bool { return fitsAt(in, in.Batch, s) })
}

// MinGPUs is the smallest number of GPUs (≤ limit) on which in fits, and
// whether one was found. How GPUs are added depends on the task:
//
//   - vLLM inference: tensor parallelism (TP = n, which must divide the
//     heads; other n are skipped), PP kept at 1;
//   - HF (device_map) and llama.cpp inference: layers split over n GPUs
//     (pipeline stages, worst stage counted);
//   - training with ZeRO ≥ 1: data parallelism with in.TP and in.PP kept,
//     so n steps over multiples of TP×PP;
//   - training with ZeRO 0: pipeline stages PP = n/TP.
func MinGPUs(in Input, limit int) (n int, ok bool) {
	c, ok := MinGPUsInput(in, limit)
	return c.GPUs, ok
}

// MinGPUsInput is MinGPUs returning the whole input that fits (GPUs and the
// TP/PP it implies), so that callers can go on to estimate its speed.
func MinGPUsInput(in Input, limit int) (Input, bool) {
	if limit > maxGPUs {
		limit = maxGPUs
	}
	for n := 1; n <= limit; n++ {
		c := in
		c.GPUs = n
		switch {
		case !in.Task.Training() && in.Engine.Pooled():
			c.TP, c.PP = n, 1
		case !in.Task.Training():
			c.TP, c.PP = 1, n
		case in.ZeRO >= 1:
			// keep TP, PP
		default:
			if n%max(in.TP, 1) != 0 {
				continue
			}
			c.PP = n / max(in.TP, 1)
		}
		if c.Validate() != nil {
			continue
		}
		if estimate(c).Fits {
			return c, true
		}
	}
	return Input{}, false
}

// WithCheckpointing is the estimate of a training job that does not fit
// as set, redone with full activation checkpointing (Input.
// GradCheckpointing): the first lever a fine-tuner reaches for (Hugging
// Face PEFT's prepare_model_for_kbit_training turns it on for QLoRA by
// default, use_gradient_checkpointing=True). as is in's own estimate
// (Estimate(in), which the caller has already made). ok is false where in
// is not training, already checkpoints, fits as set, or gains nothing
// from it (an architecture without an activation model).
func WithCheckpointing(in Input, as Result) (r Result, ok bool) {
	if !in.Task.Training() || in.GradCheckpointing || as.Fits {
		return Result{}, false
	}
	in.GradCheckpointing = true
	r = estimate(in)
	return r, r.Peak < as.Peak
}

// Lever is one memory setting a training job can change to fit.
type Lever int

const (
	LeverCheckpointing    Lever = iota // full activation checkpointing (Korthikanti et al. 2022)
	LeverZeRO3                         // shard weights, gradients and states over the data-parallel GPUs (Rajbhandari et al. 2020)
	LeverMicroBatch                    // a smaller micro-batch, the global batch kept by gradient accumulation
	LeverOffloadOptimizer              // optimizer states on the host (ZeRO-Offload, Ren et al. 2021)
	LeverOffloadAll                    // also parameters and gradients on the host (ZeRO-Infinity)
	LeverMoreGPUs                      // the fewest GPUs that hold it with checkpointing (MinGPUs)
)

var leverNames = [...]string{LeverCheckpointing: "grad-checkpointing", LeverZeRO3: "zero-3", LeverMicroBatch: "micro-batch", LeverOffloadOptimizer: "offload-optimizer",
	LeverOffloadAll: "offload-all", LeverMoreGPUs: "more-gpus"}

// String is the lever's name in the CLI's JSON ("grad-checkpointing", "zero-3", …).
func (l Lever) String() string { return enumName(leverNames[:], int(l), "Lever") }

// Fix is what makes a training job fit: the levers pulled, in the order
// they are tried, and the job and its estimate with them.
type Fix struct {
	Levers []Lever
	In     Input
	Result Result
}

// maxFixGPUs bounds the "more GPUs" lever: a job that needs more than a
// few nodes is a cluster question, which the planner answers.
const maxFixGPUs = 64

// MakeItFit is the setting that makes a training job that does not fit
// as set fit on its GPUs, pulling the levers a fine-tuner reaches for in
// the order of what they cost in speed, each on top of the last: gradient
// checkpointing (a third more compute), ZeRO-3 where there are GPUs to
// shard over (communication), the largest micro-batch that fits (down to
// 1; gradient accumulation keeps the global batch, at lower GPU
// efficiency), optimizer offload, then everything offloaded (host memory
// and PCIe: the slowest); failing all, the fewest GPUs that hold it with
// checkpointing. as is in's own estimate. ok is false where in
// is not training, fits as set, or nothing within reach holds it.
func MakeItFit(in Input, as Result) (f Fix, ok bool) {
	if !in.Task.Training() || as.Fits || in.Validate() != nil {
		return Fix{}, false
	}
	c := in
	var levers []Lever
	try := func(l Lever, change func(*Input)) bool {
		next := c
		change(&next)
		if next == c || next.Validate() != nil {
			return false
		}
		c = next
		levers = append(levers, l)
		if r := estimate(c); r.Fits {
			f = Fix{Levers: slices.Clone(levers), In: c, Result: r}
			return true
		}
		return false
	}
	if try(LeverCheckpointing, func(x *Input) { x.GradCheckpointing = true }) {
		return f, true
	}
	if c.GPUs/max(c.TP*c.PP, 1) > 1 && try(LeverZeRO3, func(x *Input) { x.ZeRO = 3 }) {
		return f, true
	}
	if c.Batch > 1 {
		b := largest(c.Batch-1, func(b int) bool { return fitsAt(c, b, c.Seq) })
		if try(LeverMicroBatch, func(x *Input) { x.Batch = max(b, 1) }) {
			return f, true
		}
	}
	if try(LeverOffloadOptimizer, func(x *Input) { x.ZeRO, x.Offload = max(x.ZeRO, 1), OffloadOptimizer }) {
		return f, true
	}
	if try(LeverOffloadAll, func(x *Input) { x.ZeRO, x.Offload = 3, OffloadAll }) {
		return f, true
	}
	more := in
	more.GradCheckpointing = true
	if g, found := MinGPUsInput(more, maxFixGPUs); found && g.GPUs > in.GPUs {
		levers := []Lever{LeverMoreGPUs}
		if !in.GradCheckpointing {
			levers = []Lever{LeverCheckpointing, LeverMoreGPUs}
		}
		return Fix{Levers: levers, In: g, Result: estimate(g)}, true
	}
	return Fix{}, false
}
