package estimator

import (
	"math"
	"slices"
)

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

// The levers, numbered as they first shipped (the page's and the JSON's
// names are by value, never by position); MakeItFit pulls them in the
// order of what they cost in speed, not in this order.
const (
	LeverCheckpointing    Lever = iota // full activation checkpointing (Korthikanti et al. 2022)
	LeverZeRO3                         // shard weights, gradients and states over the data-parallel GPUs (Rajbhandari et al. 2020)
	LeverMicroBatch                    // a smaller micro-batch, the global batch kept by gradient accumulation
	LeverOffloadOptimizer              // optimizer states on the host (ZeRO-Offload, Ren et al. 2021)
	LeverOffloadAll                    // also parameters and gradients on the host (ZeRO-Infinity)
	LeverMoreGPUs                      // the fewest GPUs that hold it with checkpointing (MinGPUs)
	LeverZeRO2                         // shard the gradients as well as the optimizer states (Rajbhandari et al. 2020 §5.2)
	LeverPlain1F1B                     // plain 1F1B instead of the interleaved schedule (Schedule.VirtualStages = 1; Narayanan et al. 2021 §2.2)
)

var leverNames = [...]string{LeverCheckpointing: "grad-checkpointing", LeverZeRO3: "zero-3", LeverMicroBatch: "micro-batch", LeverOffloadOptimizer: "offload-optimizer",
	LeverOffloadAll: "offload-all", LeverMoreGPUs: "more-gpus", LeverZeRO2: "zero-2", LeverPlain1F1B: "plain-1f1b"}

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

// StepTimer is the seconds per optimizer step of a training input on the
// caller's GPUs (Throughput's Perf.StepSeconds), and whether it has one;
// MakeItFitTimed orders the levers whose cost depends on the job with it.
type StepTimer func(Input) (seconds float64, ok bool)

// MakeItFit is MakeItFitTimed without the GPUs' figures: plain 1F1B and
// checkpointing are weighed by the step's compute alone (computeSlots).
func MakeItFit(in Input, as Result) (f Fix, ok bool) { return MakeItFitTimed(in, as, nil) }

// MakeItFitTimed is the setting that makes a training job that does not
// fit as set fit on its GPUs, pulling the levers in the order of what they
// cost in speed, each on top of the last:
//
//  1. ZeRO-2, where the job runs ZeRO 0 or 1 over data-parallel GPUs: the
//     gradients sharded too, at no cost in speed, since plain data
//     parallelism and ZeRO-1 and -2 all move 2Ψ a step (Rajbhandari et
//     al. 2020 §7; trainPerf times them alike, ZeRO-2's gathers hidden
//     under the next forward pass), the second layout ResolveTrainDefaults
//     tries;
//  2. plain 1F1B or gradient checkpointing, whichever is faster, where the
//     job pipelines with the interleaved schedule (PP > 1, more than one
//     model chunk a stage: TrainSchedule): plain 1F1B holds fewer
//     micro-batches in flight on the early stages (stageInflight) but
//     idles v times longer in the bubble (Narayanan et al. 2021 §2.2.2),
//     checkpointing computes a third more (Korthikanti et al. 2022 §6.3).
//     Which costs less depends on the micro-batches per step: Llama 3.1
//     405B at TP 8 × PP 16 on 16,384 H100s, ZeRO 2, takes 11.5 s a step
//     checkpointed against 13.4 s plain at 16 micro-batches (bubble 15/16
//     of a step's compute) but 39.2 s against 34.1 s at 64. So the two
//     are weighed by step (the StepTimer, else computeSlots) and the
//     faster that fits is the fix; where neither fits alone, both;
//     where that does not fit either, plain 1F1B is let go and
//     checkpointing stays, as before. A job that checkpoints already
//     has plain 1F1B alone to try;
//  3. then, as before, ZeRO-3 where there are GPUs to shard over
//     (communication), the largest micro-batch that fits (down to 1;
//     gradient accumulation keeps the global batch, at lower GPU
//     efficiency), optimizer offload, then everything offloaded (host
//     memory and PCIe: the slowest); failing all, the fewest GPUs that hold
//     it with checkpointing.
//
// ZeRO-2 is named only where the fix needs it: ZeRO-3 and full offload
// replace it, and a fix that fits without it drops it. as is in's own
// estimate; step may be nil. ok is false where in is not training, fits
// as set, or nothing within reach holds it.
func MakeItFitTimed(in Input, as Result, step StepTimer) (f Fix, ok bool) {
	if !in.Task.Training() || as.Fits || in.Validate() != nil {
		return Fix{}, false
	}
	c := in
	var levers []Lever
	done := func() (Fix, bool) {
		f = pruneZeRO2(in, f)
		return f, true
	}
	try := func(l Lever, change func(*Input)) bool {
		next := c
		change(&next)
		if next == c || next.Validate() != nil {
			return false
		}
		c = next
		if l == LeverZeRO3 || l == LeverOffloadAll {
			levers = slices.DeleteFunc(levers, func(x Lever) bool { return x == LeverZeRO2 })
		}
		levers = append(levers, l)
		if r := estimate(c); r.Fits {
			f = Fix{Levers: slices.Clone(levers), In: c, Result: r}
			return true
		}
		return false
	}
	dataParallel := c.GPUs/max(c.TP*c.PP, 1) > 1
	if dataParallel && c.ZeRO < 2 && try(LeverZeRO2, func(x *Input) { x.ZeRO = 2 }) {
		return done()
	}
	checkpoint := func(x *Input) { x.GradCheckpointing = true }
	plain := func(x *Input) { x.Schedule.VirtualStages = 1 }
	_, v := TrainSchedule(c, c.Schedule.workload())
	switch interleaved := c.PP > 1 && v > 1; {
	case interleaved && c.GradCheckpointing:
		// Checkpointing already on: plain 1F1B is the next lever alone.
		p := c
		plain(&p)
		if p.Validate() == nil && estimate(p).Fits {
			try(LeverPlain1F1B, plain)
			return done()
		}
	case interleaved:
		if l, ok := fasterFit(c, step, checkpoint, plain); ok {
			change := checkpoint
			if l == LeverPlain1F1B {
				change = plain
			}
			try(l, change)
			return done()
		}
		both := c
		checkpoint(&both)
		plain(&both)
		if both.Validate() == nil && estimate(both).Fits {
			try(LeverCheckpointing, checkpoint)
			try(LeverPlain1F1B, plain)
			return done()
		}
	}
	if try(LeverCheckpointing, checkpoint) {
		return done()
	}
	if dataParallel && try(LeverZeRO3, func(x *Input) { x.ZeRO = 3 }) {
		return done()
	}
	if c.Batch > 1 {
		b := largest(c.Batch-1, func(b int) bool { return fitsAt(c, b, c.Seq) })
		if try(LeverMicroBatch, func(x *Input) { x.Batch = max(b, 1) }) {
			return done()
		}
	}
	if try(LeverOffloadOptimizer, func(x *Input) { x.ZeRO, x.Offload = max(x.ZeRO, 1), OffloadOptimizer }) {
		return done()
	}
	if try(LeverOffloadAll, func(x *Input) { x.ZeRO, x.Offload = 3, OffloadAll }) {
		return done()
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

// fasterFit is, of checkpointing (a) and plain 1F1B (b), each pulled
// alone on c, the lever whose job fits and steps faster; ok is false
// where neither fits. Steps are step's seconds where it times both, else
// computeSlots; a tie goes to checkpointing, the lever pulled before.
func fasterFit(c Input, step StepTimer, a, b func(*Input)) (Lever, bool) {
	ca, cb := c, c
	a(&ca)
	b(&cb)
	fa := ca.Validate() == nil && estimate(ca).Fits
	fb := cb.Validate() == nil && estimate(cb).Fits
	switch {
	case fa && !fb:
		return LeverCheckpointing, true
	case fb && !fa:
		return LeverPlain1F1B, true
	case !fa:
		return 0, false
	}
	ta, oka := timeOf(step, ca)
	tb, okb := timeOf(step, cb)
	if !oka || !okb {
		ta, tb = computeSlots(ca), computeSlots(cb)
	}
	if tb < ta {
		return LeverPlain1F1B, true
	}
	return LeverCheckpointing, true
}

// timeOf is step(in) where step is given and answers with a finite,
// positive time.
func timeOf(step StepTimer, in Input) (float64, bool) {
	if step == nil {
		return 0, false
	}
	t, ok := step(in)
	return t, ok && t > 0 && !math.IsInf(t, 0) && !math.IsNaN(t)
}

// computeSlots is a training step's compute in units that need no GPU
// figures: trainPerf's micro-batch slots, m + (p − 1)/v (the 1F1B bubble
// of Narayanan et al. 2021 §2.2.1, shrunk v-fold by interleaving, §2.2.2),
// times the hardware FLOPs per token (trainFLOPs: checkpointing's
// recomputed forward included). It leaves out what the GPUs' figures
// decide (communication, the weight-streaming floor), so it orders two
// layouts of one job on the same GPUs, not jobs.
func computeSlots(in Input) float64 {
	m, v := TrainSchedule(in, in.Schedule.workload())
	s := float64(in.Seq)
	if in.Arch.SeqLen > 0 && !in.Arch.Generic() {
		s = float64(in.Arch.SeqLen)
	}
	_, hw, _ := trainFLOPs(in, s)
	return (float64(max(m, 1)) + float64(max(in.PP, 1)-1)/float64(max(v, 1))) * hw
}

// pruneZeRO2 drops ZeRO-2 from a fix that fits without it: the fewest
// settings that make the job fit, the stage the user gave kept.
func pruneZeRO2(in Input, f Fix) Fix {
	if !slices.Contains(f.Levers, LeverZeRO2) || f.In.ZeRO != 2 {
		return f
	}
	c := f.In
	c.ZeRO = in.ZeRO
	if c.Validate() != nil {
		return f
	}
	r := estimate(c)
	if !r.Fits {
		return f
	}
	return Fix{Levers: slices.DeleteFunc(slices.Clone(f.Levers), func(x Lever) bool { return x == LeverZeRO2 }), In: c, Result: r}
}
