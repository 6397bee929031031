package estimator

import "iter"

// Breakdown is the memory of one GPU, part by part. Every field is ≥ 0 and
// Total is their sum. The overhead lines (CUDAContext ... QuantState) have
// defaults documented here; Input.Overheads replaces the first four.
type Breakdown struct {
	// Weights: parameters held on this GPU at their storage width, including
	// quantisation scales, LoRA adapters (Input.AdapterDType) and, under ZeRO-3/FSDP, the
	// 16-bit gather buffer for two blocks (the one computing + prefetch).
	// In HF mixed-precision training it is 6 B/param: fp32 weights plus the
	// autocast 16-bit copy (HF "Model training anatomy").
	Weights Bytes
	// Gradients: 4 B per trainable param in fp32 and HF autocast training,
	// 2 B with 16-bit ZeRO/FSDP training; divided by DP at ZeRO ≥ 2.
	Gradients Bytes
	// Optimizer: optimizer states (AdamW 8, 8-bit AdamW 2, SGD 0, SGD
	// momentum 4 B/param, Adafactor 4 B × (rows+cols)) plus 4 B/param fp32
	// master weights in 16-bit ZeRO training; divided by DP at ZeRO ≥ 1.
	Optimizer Bytes
	// Activations: training, tensors saved for backward (Korthikanti et
	// al. 2022, arXiv:2205.05198, Eq. 1/2 and §5); inference, the transient
	// peak of one block's forward (HF), vLLM's profiled peak, or llama.cpp's
	// compute buffer.
	Activations Bytes
	// Logits: training cross-entropy spike b·s·V (16-bit logits + fp32
	// upcast + fp32 gradient), with a k-bit-prepared QLoRA head's 16-bit
	// autocast copy (autocastHeadCopy); inference, the last position's
	// fp32 logits.
	Logits Bytes
	// KVCache: the sequences' cache (HF, llama.cpp) or vLLM's pre-allocated
	// pool.
	KVCache Bytes

	// CUDAContext: driver context, kernels, cuBLAS workspace. Default 500
	// MiB (PyTorch with lazy module loading); vLLM's measured "non-torch"
	// 0.25 GiB at TP 1 (llm-d vLLM v0.19 accuracy report). Older stacks
	// load every kernel: HF measured 1343 MiB on a V100 (model_memory_anatomy).
	CUDAContext Bytes
	// AllocatorReserve: PyTorch caching-allocator fragmentation and
	// untracked transients, as a share of activations (training 35%,
	// fitted to the HF BERT-large V100 series; HF inference 10%). 0 for
	// vLLM and llama.cpp, which allocate fixed pools. In training, what
	// exceeds 4% of the step's allocated bytes is cache the allocator
	// frees under pressure (Result.AllocatorCache), which the fit call
	// leaves out.
	AllocatorReserve Bytes
	// NCCL: communicator buffers. 1.85 GiB at TP ≥ 2 (llm-d report:
	// non-torch 2.07–2.13 GiB at TP 2/4 vs 0.25 at TP 1); 0.5 GiB for
	// DP/PP-only jobs (rough, ±100%); 0 on one GPU and for llama.cpp.
	NCCL Bytes
	// CUDAGraphs: vLLM captured graphs, 1 GiB default (0.4–2.5 GiB measured:
	// llm-d 0.51–1.85, vLLM #48601 2.04, #7553 2.46); 0 with EnforceEager
	// and for other engines. vLLM v0.19 allocates it outside
	// gpu_memory_utilization.
	CUDAGraphs Bytes
	// QuantState: bitsandbytes' dequantisation buffer (one 16-bit copy of
	// the largest linear) for NF4/int8 under HF.
	QuantState Bytes
}

// Part names one line of a Breakdown. Parts are ordered as a breakdown is
// shown: the model's state, then the working memory, then the overheads.
type Part int

const (
	PartWeights Part = iota
	PartGradients
	PartOptimizer
	PartActivations
	PartLogits
	PartKVCache
	PartCUDAContext
	PartAllocatorReserve
	PartNCCL
	PartCUDAGraphs
	PartQuantState
	NumParts // the number of parts; not a part
)

var partNames = [NumParts]string{
	PartWeights: "weights", PartGradients: "gradients", PartOptimizer: "optimizer", PartActivations: "activations",
	PartLogits: "logits", PartKVCache: "kv cache", PartCUDAContext: "cuda context", PartAllocatorReserve: "allocator reserve",
	PartNCCL: "nccl", PartCUDAGraphs: "cuda graphs", PartQuantState: "quant state",
}

// String returns the part's name as the CLI prints it ("weights", "kv
// cache", "allocator reserve", ...).
func (p Part) String() string { return enumName(partNames[:], int(p), "Part") }

// Overhead reports whether p is one of the overhead lines (CUDA context
// and after), whose confidence is Confidence.Overhead.
func (p Part) Overhead() bool { return p >= PartCUDAContext && p < NumParts }

// Part returns the bytes of one part (0 for an unknown part).
func (b Breakdown) Part(p Part) Bytes {
	switch p {
	case PartWeights:
		return b.Weights
	case PartGradients:
		return b.Gradients
	case PartOptimizer:
		return b.Optimizer
	case PartActivations:
		return b.Activations
	case PartLogits:
		return b.Logits
	case PartKVCache:
		return b.KVCache
	case PartCUDAContext:
		return b.CUDAContext
	case PartAllocatorReserve:
		return b.AllocatorReserve
	case PartNCCL:
		return b.NCCL
	case PartCUDAGraphs:
		return b.CUDAGraphs
	case PartQuantState:
		return b.QuantState
	}
	return 0
}

// Parts yields every part in order with its bytes, zero parts included,
// without allocating.
func (b Breakdown) Parts() iter.Seq2[Part, Bytes] {
	return func(yield func(Part, Bytes) bool) {
		for p := Part(0); p < NumParts; p++ {
			if !yield(p, b.Part(p)) {
				return
			}
		}
	}
}

// Overhead is the sum of the overhead lines.
func (b Breakdown) Overhead() Bytes {
	var sum Bytes
	for p := PartCUDAContext; p < NumParts; p++ {
		sum += b.Part(p)
	}
	return sum
}

// Total is the sum of every part.
func (b Breakdown) Total() Bytes {
	var sum Bytes
	for p := Part(0); p < NumParts; p++ {
		sum += b.Part(p)
	}
	return sum
}

// Confidence is the relative half-width of each part's uncertainty
// (0.25 = ±25%), judged from the calibration data in testdata/calibration,
// and the resulting range of the total.
type Confidence struct {
	Weights, Gradients, Optimizer, Activations, Logits, KVCache, Overhead float64
	Low, High                                                             Bytes // total at the low and high ends
}

// Of is the relative half-width of part p (the overhead lines share
// Overhead; 0 for an unknown part).
func (c Confidence) Of(p Part) float64 {
	switch {
	case p == PartWeights:
		return c.Weights
	case p == PartGradients:
		return c.Gradients
	case p == PartOptimizer:
		return c.Optimizer
	case p == PartActivations:
		return c.Activations
	case p == PartLogits:
		return c.Logits
	case p == PartKVCache:
		return c.KVCache
	case p.Overhead():
		return c.Overhead
	}
	return 0
}

// Warning is one soft problem with an estimate: the numbers are valid but
// deserve a note.
type Warning uint8

const (
	WarnTightFit          Warning = iota // fits with less than 5% headroom
	WarnSeqBeyondContext                 // seq exceeds the config's max_position_embeddings
	WarnKVHeadsReplicated                // TP > KV heads: KV heads (and their cache) are replicated
	WarnUnevenPipeline                   // layers do not split evenly over PP stages; the stage needing the most memory is shown
	WarnNoActivationModel                // generic model without shape numbers: activations not estimated
	WarnVisionApprox                     // VLM vision tower counted approximately
	WarnFP8NotInLlamaCpp                 // llama.cpp has no fp8: Q8_0 assumed
	WarnPoolBelowOneSeq                  // the serving engine's KV pool holds less than one sequence of Seq tokens
	WarnNoKVCache                        // encoder / generic model: no KV cache counted
	WarnZeROWithoutDP                    // ZeRO stage set but data-parallel degree is 1
	WarnBlockSplit                       // the engine refuses this TP for the block-quantised checkpoint (BlockSplit)
	WarnNoDPAttention                    // SGLang's code for this MoE model runs no attention DP (SGLangDPAttention)
	numWarnings
)

var warningText = [numWarnings]string{
	WarnTightFit:          "fits with less than 5% headroom",
	WarnSeqBeyondContext:  "sequence longer than the model's max_position_embeddings",
	WarnKVHeadsReplicated: "tensor parallelism exceeds KV heads: KV heads are replicated",
	WarnUnevenPipeline:    "layers do not divide evenly over pipeline stages: showing the stage that needs the most memory (in training the first and last stages hold the fewer layers)",
	WarnNoActivationModel: "model gives no shape numbers: activations not estimated",
	WarnVisionApprox:      "vision tower parameters are approximate",
	WarnFP8NotInLlamaCpp:  "llama.cpp has no fp8 weights: Q8_0 assumed",
	WarnPoolBelowOneSeq:   "the serving engine's KV pool is smaller than one sequence",
	WarnNoKVCache:         "no KV cache for this architecture",
	WarnZeROWithoutDP:     "ZeRO has no effect with a data-parallel degree of 1",
	WarnBlockSplit:        "this tensor parallelism splits the checkpoint's fp8 blocks, which the engine refuses at start-up: estimated as if it loaded",
	WarnNoDPAttention:     "SGLang runs this model without attention data parallelism, so it cannot start this layout: estimated as if it ran with DeepEP",
}

// String describes w in a short English sentence.
func (w Warning) String() string {
	if w >= numWarnings {
		return "unknown warning"
	}
	return warningText[w]
}

// Warnings is a set of Warning, as a bitmask (no allocation).
type Warnings uint32

// Has reports whether w is in the set.
func (ws Warnings) Has(w Warning) bool { return ws&(1<<w) != 0 }

func (ws *Warnings) add(w Warning) { *ws |= 1 << w }

// Each yields the warnings in the set in order.
func (ws Warnings) Each() iter.Seq[Warning] {
	return func(yield func(Warning) bool) {
		for w := Warning(0); w < numWarnings; w++ {
			if ws.Has(w) && !yield(w) {
				return
			}
		}
	}
}

// Strings returns the warnings' texts (allocates; for display).
func (ws Warnings) Strings() []string {
	var s []string
	for w := range ws.Each() {
		s = append(s, w.String())
	}
	return s
}

// Result is an estimate. It holds no pointers or slices: computing one
// allocates nothing.
type Result struct {
	Params, ActiveParams int64 // Arch.Params, Arch.ActiveParams
	// VisionParams is a vision-language model's vision tower and projector
	// (Arch.VisionParams), counted apart from its text model
	// (Params − VisionParams); Input.TextOnly leaves them unloaded.
	VisionParams       int64
	TrainableParams    int64 // all params, LoRA adapter params, or 0 for inference
	KVBytesPerToken    Bytes // whole model, Input.KV dtype (Arch.KVBytesPerToken)
	WeightBitsPerParam float64

	PerGPU   Breakdown // the worst GPU (first or last pipeline stage): the step's peak, part by part
	Usable   Bytes     // usable memory per GPU (see UsableBytes)
	Fits     bool      // Peak ≤ Usable (vLLM: and the pool holds Batch sequences of Seq)
	Headroom Bytes     // Usable − Peak (negative when it does not fit)

	// Peak is the most memory the job needs on one GPU at any time: the
	// largest of the step's (PerGPU.Total less AllocatorCache), LoadPeak,
	// BackwardEnd and OptimizerStep. Fits and Headroom use it. PeakPhase
	// says which it is.
	Peak Bytes
	// AllocatorCache is the part of PerGPU.AllocatorReserve that PyTorch's
	// caching allocator frees and retries with before it fails an
	// allocation (whole cached segments; allocatorKept in memory_peak.go):
	// held when memory is plentiful, so PerGPU shows it, but not needed,
	// so Peak leaves it out. 0 for inference and for an explicit
	// Overheads.AllocatorReserve.
	AllocatorCache Bytes
	PeakPhase      Phase
	// LoadPeak is the memory while the weights load, for a base that is
	// quantised on the GPU as it loads (bitsandbytes: QLoRA, HF NF4 and
	// LLM.int8() inference): the loaded weights, the CUDA context and the
	// 16-bit weights being quantised or cast (loadTransient); 0 otherwise.
	LoadPeak Bytes
	// BackwardEnd is the memory at the end of a full fine-tune's backward
	// under PyTorch FSDP (ZeRO 3 over more than one GPU), when the root
	// unit's gradient is assembled (rootGradBytes: twice under FSDP1,
	// beside the views' gradients; once under Input.FSDP2): the sharded
	// weights with the root's whole copy, the gradients (the whole model's
	// under no_sync, else the shards), optimizer states, the root's
	// gradient, the logits the loop still holds, the fixed overheads; 0
	// where not modelled.
	BackwardEnd Bytes
	// GradientsInFlight says PerGPU.Gradients is what a sharded full
	// fine-tune with one micro-batch a step holds at its backward's start,
	// the LM head's gradient and one block's in flight (gradsNoneAtStart),
	// not the gradients' shards, which are whole only at BackwardEnd.
	GradientsInFlight bool
	// OptimizerStep is the memory during the optimizer step where it
	// allocates a temporary of its own (foreach AdamW: one moment's
	// worth, foreachTempBytes): the weights without FSDP's gathered
	// copies, gradients, optimizer states, the temporary, the logits the
	// loop still holds, the fixed overheads; 0 where the step allocates
	// none (fused implementations, Input.OptimizerImpl).
	OptimizerStep Bytes
	// PeakAllocated is what PyTorch's allocator holds at the largest of
	// the step's moment, BackwardEnd and OptimizerStep
	// (torch.cuda.max_memory_allocated over a step): the step's breakdown
	// less the CUDA context, the allocator's reserve, NCCL's buffers and
	// CUDA graphs, or the other moments without them. The load is left
	// out (LoadPeak).
	PeakAllocated Bytes
	// SteadyState is what stays on the GPU between steps: weights,
	// gradients, optimizer states, KV cache, CUDA context, NCCL buffers and
	// CUDA graphs, without a step's activations, logits, dequantised
	// weight and the allocator's share of them.
	SteadyState Bytes

	// vLLM: tokens the KV pool holds (as vLLM logs "GPU KV cache size"),
	// and how many sequences of Seq tokens fit at once.
	KVPoolTokens      int64
	MaxConcurrentSeqs int64
	// HostOffload: host RAM per GPU taken by offloaded states.
	HostOffload Bytes

	Warnings   Warnings
	Confidence Confidence
}

// Runs reports whether a speed estimate applies to in: the job fits, or,
// for an engine with a pre-allocated KV pool serving requests, the engine
// starts and its pool holds at least one sequence: a concurrency above
// what the pool holds then queues (the engine admits what fits, as vLLM's
// scheduler does) instead of failing. The CLI and the page print speed
// only when it holds.
func (r Result) Runs(in Input) bool {
	if in.Task == Inference && in.Engine.Pooled() {
		return r.MaxConcurrentSeqs >= 1
	}
	return r.Fits
}
