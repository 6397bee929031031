package estimator

import (
	"fmt"
	"math"
)

// The global batch limit: a training step's global batch is split whole
// sequences at a time over the data-parallel replicas, each taking
// micro-batches of Input.Batch sequences, so a layout with more replicas
// × micro-batch than the global batch holds sequences is one the training
// stacks refuse to start:
//
//   - Megatron-LM (megatron/core/num_microbatches_calculator.py at
//     00caa53a, ConstantNumMicroBatchesCalculator): "global batch size
//     ({}) is not divisible by micro batch size ({}) times data parallel
//     size ({})" unless --decrease-batch-size-if-needed, which rounds the
//     batch down to a multiple, and then "number of microbatches should be
//     at least 1" when that multiple is 0. Its data-parallel size leaves
//     out the TP, PP and CP ranks.
//   - torchtitan (torchtitan/train.py at e9f53473, "verify batch sizes"):
//     "global batch size must be multiple of local batch size times
//     data-parallel degree", and gradient_accumulation_steps > 0.
//   - llm-foundry (llmfoundry/utils/config_utils.py,
//     calculate_batch_size_info): "Global batch size … is not divisible by
//     … as a result, the batch size would be truncated", a ValueError.
//
// So fewer sequences than replicas × micro-batch is refused everywhere
// (TrainBatch.Err) when the user named the batch. When the batch is
// pre-training's default (DefaultGlobalBatchTokens, a size-based guess, not
// the user's), a layout with more replicas than it feeds takes the smallest
// global batch that gives every replica one micro-batch (TrainBatch.Raised,
// TrainBatch.Needed), as published runs grew their batch with the GPUs: Llama
// 3 405B stepped from 4M tokens to 8M and 16M as it scaled to 16,384 H100s
// (Dubey et al. 2024 §3.4.1, Table 4: 16 sequences a data-parallel rank),
// and the CLI says so in a warning. A batch that is larger but not a multiple is refused
// by default and run rounded down by Megatron's
// --decrease-batch-size-if-needed, which is how the step model times it
// (microBatches: ⌊G / (D × b)⌋), so it is a warning (TrainBatch.Uneven).

// TrainBatch is a training step's global batch against its data-parallel
// split: what TrainBatchOf finds for an input and workload.
type TrainBatch struct {
	// Replicas is the data-parallel degree, GPUs / (TP × PP × CP), and
	// Micro the sequences of one replica's micro-batch (Input.Batch).
	Replicas, Micro int
	// Global is the sequences per optimizer step: Workload.GlobalBatch,
	// else pre-training's default (DefaultGlobalBatchTokens over the
	// sequence, Default set); 0 when the step is given in micro-batches
	// (Workload.MicroBatches) or a fine-tune steps one per replica.
	Global  float64
	Default bool
}

// TrainBatchOf is in's global batch under w against its replicas, as
// trainPerf splits it: the one judge of the global batch limit for the
// CLI, the page and the planner.
func TrainBatchOf(in Input, w Workload) TrainBatch {
	if !in.Task.Training() {
		return TrainBatch{}
	}
	tp, pp := max(1, in.TP), max(1, in.PP)
	cpN := min(cpDegree(in), max(1, in.GPUs/(tp*pp)))
	b := TrainBatch{Replicas: max(1, in.GPUs/(tp*pp*cpN)), Micro: max(1, in.Batch)}
	switch {
	case w.MicroBatches > 0:
	case w.GlobalBatch > 0:
		b.Global = float64(w.GlobalBatch)
	default:
		s := float64(in.Seq)
		if in.Arch.SeqLen > 0 && !in.Arch.Generic() {
			s = float64(in.Arch.SeqLen)
		}
		b.Global = defaultGlobalSequences(in, b.Replicas, s)
		b.Default = b.Global > 0
	}
	return b
}

// MaxReplicas is the most data-parallel replicas the global batch feeds
// a whole micro-batch each: ⌊Global / Micro⌋ (0: no global batch).
func (b TrainBatch) MaxReplicas() int {
	if !(b.Global > 0) {
		return 0
	}
	return int(math.Floor(b.Global/float64(b.Micro) + 1e-9))
}

// Short reports whether the global batch holds fewer sequences than the
// replicas' micro-batches: a layout every stack refuses.
func (b TrainBatch) Short() bool {
	return b.Global > 0 && b.Global < float64(b.Needed())*(1-1e-9)
}

// Uneven reports whether a global batch the user gave is not a multiple
// of replicas × micro-batch (and not short): Megatron-LM, torchtitan and
// llm-foundry refuse it as given; the step is timed at the multiple
// below it, as Megatron's --decrease-batch-size-if-needed runs it.
func (b TrainBatch) Uneven() bool {
	if b.Default || !(b.Global > 0) || b.Short() {
		return false
	}
	return int(b.Global)%b.Needed() != 0
}

// Rounded is the global batch an uneven one runs (Uneven): the multiple
// of replicas × micro-batch below it.
func (b TrainBatch) Rounded() int {
	d := b.Needed()
	if d <= 0 {
		return 0
	}
	return int(b.Global) / d * d
}

// Raised reports whether pre-training's default batch (Default) is short
// for the layout (Short), so the step is timed at the smallest global
// batch that feeds every replica one micro-batch (Needed) instead of
// being refused: the default is the product's assumption, not the user's.
// The planner still stops scaling out at the default batch (Short).
func (b TrainBatch) Raised() bool { return b.Default && b.Short() }

// Needed is the sequences a step needs for every replica to train one
// micro-batch: Replicas × Micro.
func (b TrainBatch) Needed() int { return b.Replicas * b.Micro }

// Err is a *BatchLimitError when a global batch the user gave is short
// (Short), nil otherwise: a short default batch is raised (Raised).
func (b TrainBatch) Err() error {
	if !b.Short() || b.Default {
		return nil
	}
	return &BatchLimitError{TrainBatch: b}
}

// BatchLimitError is a training layout whose data-parallel replicas ×
// micro-batch exceed the global batch's sequences (TrainBatch.Short). It
// wraps ErrIncompatible; Error says what to change.
type BatchLimitError struct{ TrainBatch }

func (e *BatchLimitError) Error() string {
	smaller := ""
	if e.Micro > 1 {
		smaller = ", a smaller --batch"
	}
	return fmt.Sprintf("%d data-parallel replicas × micro-batch %d need %d sequences a step, but the global batch (--global-batch) holds %s; Megatron-LM, torchtitan and llm-foundry refuse such a layout: use at most %d replicas (fewer GPUs, a larger --tp or --pp, or --cp to split each sequence)%s, or a larger --global-batch",
		e.Replicas, e.Micro, e.Needed(), trimFloat(e.Global), max(1, e.MaxReplicas()), smaller)
}

func (e *BatchLimitError) Unwrap() error { return ErrIncompatible }

// trimFloat is v without a fraction when it is whole.
func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
