package estimator

import (
	"errors"
	"math"
)

func nan() float64 { return math.NaN() }

// UsableFraction is the share of the memory a GPU shows CUDA (its nominal
// memory, or Input.VisibleVRAM where ECC takes part of it) that PyTorch
// can allocate: the driver reserves the rest. An "80 GB" H100 reports
// 79.19 GiB total to torch (llm-d vLLM v0.19 accuracy report; 79.11 GiB
// in vLLM PR #48601's log): 0.99 of 80 GiB.
const UsableFraction = 0.99

// Overhead defaults (see the Breakdown field comments for sources).
const (
	defaultCUDAContext  = 500 * MiB
	vllmNonTorch        = 256 * MiB  // 0.25 GiB
	ncclTP              = 1894 * MiB // 1.85 GiB
	ncclDP              = 512 * MiB
	defaultCUDAGraphs   = 1 * GiB
	trainAllocatorShare = 0.35
	// trainAllocatorKept is the share of a training step's allocated bytes
	// that the caching allocator still holds, free but not returnable, when
	// an allocation would fail: allocatorKept. The rest of the reserve is
	// cached whole segments it frees and retries with (memory_peak.go).
	trainAllocatorKept     = 0.04
	hfInferAllocatorShare  = 0.10
	defaultMaxBatchedToken = 8192 // TensorRT-LLM; vLLM's: Input.VLLMLimits, SGLang's: SGLangDefaults
	// vllmSamplerRows is the rows of fp32 logits the activation peak of a
	// pooled engine adds to its forward pass: vLLM's sampler runs after
	// the forward pass on max_num_seqs rows (1024 on an H100, 256 below
	// 70 GiB and on an A100: Input.VLLMLimits), so only part of its logits add to the
	// profiled peak. Fitted with vllmActivations to the llm-d v0.19 H100
	// peaks (calibration_test.go, vllmRows): 256 rows put both within 5%,
	// 1024 rows 22–25% over.
	vllmSamplerRows = 256
	llamaCppUBatch  = 512 // llama.cpp default n_ubatch
)

// BatchedTokens is the tokens of the forward pass a pooled engine
// profiles its activation peak with, its step budget:
// in.MaxBatchedTokens, else the engine's default (vLLM's
// max_num_batched_tokens for the GPU, in.VLLMLimits; SGLang's chunk for
// its memory; 8192 for TensorRT-LLM).
func (in Input) BatchedTokens() int {
	switch {
	case in.MaxBatchedTokens > 0:
		return in.MaxBatchedTokens
	case in.Engine == VLLM:
		return in.VLLMLimits().MaxNumBatchedTokens
	case in.Engine == SGLang:
		return SGLangDefaults(in.VRAM, in.TP).ChunkedPrefillSize
	}
	return defaultMaxBatchedToken
}

// UsableBytes is the memory per GPU the estimate must fit in: in.UsableVRAM
// when set, else UsableFraction of what CUDA sees (in.VisibleVRAM when
// set, else in.VRAM).
func (in Input) UsableBytes() Bytes {
	if in.UsableVRAM > 0 {
		return in.UsableVRAM
	}
	if in.VisibleVRAM > 0 {
		return toBytes(float64(in.VisibleVRAM) * UsableFraction)
	}
	return toBytes(float64(in.VRAM) * UsableFraction)
}

// ECCVisible is the memory per GPU CUDA sees where ECC takes part of the
// card's DRAM (in.VisibleVRAM below in.VRAM: a GDDR GPU with ECC on,
// catalog.GPU.ECCMemory) and the usable memory is derived from it; 0 where
// it is not: an HBM card, a GPU without a sourced ECC-on total, or a
// measured --usable-vram, which stands on its own. The page and the CLI
// say it beside the usable memory, where the fit is decided, so a 24 GB
// A10G's 22.26 GiB is not read as a slip.
func (in Input) ECCVisible() Bytes {
	if in.UsableVRAM > 0 || in.VisibleVRAM <= 0 || in.VisibleVRAM >= in.VRAM {
		return 0
	}
	return in.VisibleVRAM
}

// toBytes converts a non-negative float to Bytes, mapping NaN and
// negatives to 0 and clamping at 2^62.
func toBytes(f float64) Bytes {
	if !(f > 0) {
		return 0
	}
	if f > 1<<62 {
		return 1 << 62
	}
	return Bytes(math.Ceil(f))
}

// Estimate computes the per-GPU memory for in. It validates in first and
// returns Validate's errors, with a weight-only kernel that does not fit
// the format or engine (validateKernel: the kernel sets the format's
// memory, gptqBits and bnbLinears, as it sets its speed); it never panics,
// and a valid input always gives finite, non-negative parts. It does not
// allocate.
func Estimate(in Input) (Result, error) {
	var l errList
	in.validate(&l)
	validateKernel(&l, in)
	if l.n > 0 {
		return Result{}, errors.Join(l.errs[:l.n]...)
	}
	return estimate(in), nil
}

// stageOut is one pipeline stage's breakdown and vLLM pool figures.
type stageOut struct {
	b Breakdown
	// grads is the gradients the step holds once its backward is done
	// (the shard under ZeRO 2 and 3): b.Gradients, except where the step
	// starts its backward with none (gradsNoneAtStart), whose breakdown,
	// the step's moment, holds the gradients in flight (gradsInFlight).
	grads      Bytes
	poolTokens int64
	maxSeqs    int64
	host       Bytes
	kvFits     bool
}

func estimate(in Input) Result {
	a := in.Arch
	r := Result{Params: a.TotalParams, ActiveParams: a.ActiveParamCount, VisionParams: a.VisionParams, Usable: in.UsableBytes()}
	r.KVBytesPerToken = a.KVBytesPerToken(in.KV)
	if in.Engine == LlamaCpp && in.KV != FP32 && in.KV != BF16 && in.KV != FP16 {
		r.KVBytesPerToken = Bytes(float64(a.kvElemsPerTokenLayer()*int64(a.KVCacheLayers())) * llamaCppKVBits(in.KV) / 8)
	}
	if a.SeqLen > 0 && !a.Generic() {
		in.Seq = a.SeqLen // ViT: patches per image are fixed by the architecture
	}
	// Served requests are held to the served checkpoint's context
	// (Arch.ServeContext), training to the config's.
	ctx := a.MaxPositions
	if in.Task == Inference {
		ctx = a.ServeContext()
	}
	if ctx > 0 && in.Seq > ctx {
		r.Warnings.add(WarnSeqBeyondContext)
	}
	if a.VisionParams > 0 && !a.VisionExact && !in.TextOnly {
		r.Warnings.add(WarnVisionApprox)
	}
	if !a.HasKVCache() && in.Task == Inference {
		r.Warnings.add(WarnNoKVCache)
	}
	if a.Generic() && a.ActivationBytesPerSample == 0 && (a.Hidden == 0 || a.Layers == 0) {
		r.Warnings.add(WarnNoActivationModel)
	}
	if in.TP > 1 && !a.IsMLA() && a.KVHeads > 0 && in.TP > a.KVHeads {
		r.Warnings.add(WarnKVHeadsReplicated)
	}
	if in.PP > 1 && a.Layers%in.PP != 0 {
		r.Warnings.add(WarnUnevenPipeline)
	}
	if in.ZeRO > 0 && in.GPUs/(in.TP*in.PP) == 1 {
		r.Warnings.add(WarnZeROWithoutDP)
	}
	if BlockRefusal(in) != "" {
		r.Warnings.add(WarnBlockSplit)
	}
	if sglangArchRefusal(in) != "" {
		r.Warnings.add(WarnNoDPAttention)
	}
	_, _, warnFP8 := weightBits(in)
	if warnFP8 {
		r.Warnings.add(WarnFP8NotInLlamaCpp)
	}

	var s stageOut
	switch {
	case in.PP == 1:
		s = stage(in, pipeStage{first: true, last: true}, &r)
	case in.Task.Training():
		s = worstTrainStage(in, &r)
	default:
		first := stage(in, pipeStage{first: true}, &r)
		last := stage(in, pipeStage{last: true}, &r)
		s = first
		if last.b.Total() > first.b.Total() {
			s = last
		}
	}
	r.PerGPU = s.b
	r.GradientsInFlight = s.grads != s.b.Gradients
	r.KVPoolTokens, r.MaxConcurrentSeqs, r.HostOffload = s.poolTokens, s.maxSeqs, s.host
	peak(in, s, &r) // Peak, Headroom and Fits: the larger of the step and the load
	if r.Fits && float64(r.Headroom) < 0.05*float64(r.Usable) {
		r.Warnings.add(WarnTightFit)
	}
	r.Confidence = confidence(in, s.b)
	return r
}

// weightBits returns the storage bits per parameter of the quantisable
// block linears and of everything else (embeddings, LM head, norms:
// bitsandbytes, GPTQ/AWQ and vLLM fp8 leave them in 16-bit; GGUF files
// quantise all of them), and whether fp8 was requested from llama.cpp.
func weightBits(in Input) (linear, other float64, fp8LlamaCpp bool) {
	q := in.Quant
	if q == QuantAuto {
		switch {
		case in.Task == QLoRA:
			// QLoRA's base as the stacks quantise it when nobody says
			// more: NF4 without double quantisation, one fp32 absmax per
			// 64 weights (nf4AutoBits).
			return nf4AutoBits, 16, false
		case in.Weights == INT4 && in.Kernel == KernelBitsandbytes:
			q = QuantNF4 // bitsandbytes' 4-bit format
		case in.Engine == LlamaCpp && (in.Weights == INT4):
			q = QuantQ4KM
		case in.Engine == LlamaCpp && (in.Weights == INT8 || in.Weights == FP8):
			q, fp8LlamaCpp = QuantQ8_0, in.Weights == FP8
		case in.Weights == INT4:
			q = QuantGroup128
		case in.Weights == INT8 && gptqKernel(resolveKernel(in)):
			return gptqBits(8, gptqGroupSize), 16, false
		}
	}
	if q != QuantAuto {
		bits := q.BitsPerWeight()
		if q.GGUF() {
			return bits, bits, fp8LlamaCpp
		}
		return bits, 16, false
	}
	bits := in.Weights.BitsPerElement()
	if in.Weights == FP4 {
		// NVFP4 linears (scales included); embeddings, head and norms
		// stay 16-bit, as in NVIDIA's ModelOpt FP4 checkpoints.
		return 4.5, 16, false
	}
	if in.Weights == INT8 || in.Weights == FP8 {
		return bits, 16, false
	}
	return bits, bits, false
}

// quantisedLinears is how many of lin block-linear parameters in's weight
// format stores at weightBits' linear width, ex of them routed experts:
// the experts alone under an experts-only format (Quant.ExpertsOnly; the
// rest stay 16-bit), else all of them.
func quantisedLinears(in Input, lin, ex float64) float64 {
	if in.Quant.ExpertsOnly() {
		return math.Min(ex, lin)
	}
	return lin
}

// nf4AutoBits is a QLoRA base's bits per linear weight when --quant is
// auto: bitsandbytes NF4 with one fp32 absmax per 64-weight block and no
// double quantisation, 4 + 32/64 = 4.5. That is what a QLoRA run gets
// unless it asks for more: transformers' BitsAndBytesConfig defaults
// bnb_4bit_use_double_quant to False and Params4bit's blocksize to 64
// (src/transformers/utils/quantization_config.py; bitsandbytes
// nn/modules.py), and Lightning's BitsandbytesPrecision "nf4" (LitGPT's
// --quantize bnb.nf4) builds Linear4bit with compress_statistics=False,
// its "nf4-dq" with True (lightning/fabric/plugins/precision/bitsandbytes.py).
// The double-quantised format (QLoRA paper §3: 4.127 bits; torchao's NF4
// that torchtune uses, int8 scalers per 64 weights and fp32 per 256
// blocks) is --quant nf4 (QuantNF4).
const nf4AutoBits = 4 + 32.0/64

// gptqGroupSize is GPTQ's default group: transformers' GPTQConfig and
// optimum's GPTQQuantizer default group_size to 128 ("Recommended value is
// 128 and -1 uses per-column quantization"; src/transformers/utils/
// quantization_config.py), as AutoGPTQ's BaseQuantizeConfig does.
const gptqGroupSize = 128

// gptqBits is the storage bits per weight of a GPTQ linear with b-bit
// weights in groups of g input rows, as AutoGPTQ's QuantLinear stores it
// (auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py; exllama's, Marlin's
// and transformers' GPTQ loaders read the same tensors): qweight packs b
// bits per weight into int32 (in/32·b × out), and each group of g rows has
// per output column an fp16 scale (scales, in/g × out) and a b-bit zero
// point packed into int32 (qzeros, in/g × out/32·b): b + (16 + b)/g. The
// g_idx vector (one int32 per input row, 32/out bits a weight: 0.006 at
// 5,120 outputs) is left out. Group-128 int8: 8 + 24/128 = 8.1875.
// (int4-g128, Quant.BitsPerWeight, keeps a conservative fp16 zero: 4.25
// where this gives 4.156.)
func gptqBits(b, g float64) float64 { return b + (16+b)/g }

// gptqKernel reports whether k runs GPTQ-format weights (qweight, scales,
// qzeros): exllama, Marlin and AutoGPTQ's kernels.
func gptqKernel(k Kernel) bool { return k == KernelExllama || k == KernelMarlin || k == KernelAutoGPTQ }

// bnbLinears reports whether bitsandbytes runs in's quantised linears in
// HF transformers: QLoRA's base, NF4, or int8/int4 on its kernel (LLM.int8()
// is HF's default for int8: resolveKernel). GPTQ weights on exllama,
// Marlin or AutoGPTQ's kernels are not: their scales and zeros are stored
// with the weights (gptqBits) and no 16-bit copy is kept.
func bnbLinears(in Input) bool {
	return in.Engine == HF && (bnb4(in) || resolveKernel(in) == KernelBitsandbytes)
}

// kvBitsPerElement is the KV cache's storage bits per element as the
// engine stores it; memory and speed share it.
func kvBitsPerElement(in Input) float64 {
	if in.Engine == LlamaCpp {
		return llamaCppKVBits(in.KV)
	}
	return in.KV.BitsPerElement()
}

// attnTP is the tensor-parallel degree of attention and the other
// non-expert weights: TP, or TP/DP with attention data parallelism.
func attnTP(in Input) float64 {
	if in.DP > 1 && in.TP >= in.DP {
		return float64(in.TP / in.DP)
	}
	return float64(max(in.TP, 1))
}

// trainEP is the expert-parallel degree of a training job (1 for
// inference, whose EP lives inside the TP group).
func trainEP(in Input) float64 {
	if in.Task.Training() && in.EP > 1 {
		return float64(in.EP)
	}
	return 1
}

// dpRanks is the attention data-parallel ranks of a replica (≥ 1); each
// holds the KV cache of its own share of the sequences.
func dpRanks(in Input) float64 { return float64(max(in.DP, 1)) }

// expertParams is the routed experts' parameters: the difference between
// total and active parameters scaled by E/(E − k) (each token uses k of E
// experts); 0 for dense models.
func expertParams(a Arch) float64 {
	e, k := float64(a.Experts), float64(a.ExpertsPerToken)
	if !a.IsMoE() || e <= k || k <= 0 {
		return 0
	}
	return math.Max(float64(a.TotalParams-a.ActiveParamCount)*e/(e-k), 0)
}

// expertSlots is the routed experts' slots per expert: (E + R)/E with R
// redundant copies (Input.RedundantExperts), each EP rank holding
// (E + R)/EP experts' weights; 1 without them. Memory and speed share it.
func expertSlots(in Input) float64 {
	e := float64(in.Arch.Experts)
	if in.RedundantExperts <= 0 || e <= 0 {
		return 1
	}
	return (e + float64(in.RedundantExperts)) / e
}

// kvTPShare is the share of a sequence's KV cache one TP rank holds: K/V
// heads are split over TP down to one head per rank (replicated beyond);
// MLA's latent is replicated on every rank (vLLM). Memory and speed share it.
func kvTPShare(a Arch, tp float64) float64 {
	switch {
	case a.IsMLA():
		return 1
	case a.KVHeads > 0:
		return math.Max(1, float64(a.KVHeads)/tp) / float64(a.KVHeads)
	}
	return 1 // no K/V heads given: no cache to split
}

// llamaCppKVBits: llama.cpp's quantised cache types are q8_0 (8.5 bits)
// and q4_0 (4.5 bits) blocks (ggml-common.h); fp8 maps to q8_0.
func llamaCppKVBits(d DType) float64 {
	switch d {
	case INT4:
		return 4.5
	case INT8, FP8:
		return 8.5
	}
	return d.BitsPerElement()
}

// trainWidth is the bytes of a weight in the compute dtype: 2 (16-bit), 4
// in fp32 training.
func trainWidth(in Input) float64 {
	if in.Weights == FP32 {
		return 4
	}
	return 2
}

// optimizerBytesPerParam is the state per trainable parameter.
func optimizerBytesPerParam(o Optimizer) float64 {
	switch o {
	case AdamW:
		return 8 // exp_avg + exp_avg_sq in fp32 (HF model_memory_anatomy)
	case AdamW8bit, PagedAdamW8bit:
		// Two 1-byte states + one fp32 absmax per 2048-element block
		// (bitsandbytes blockwise quantisation, Dettmers et al. 2022).
		return 2 + 2*4.0/2048
	case PagedAdamW:
		return 8
	case SGDMomentum:
		return 4
	}
	return 0 // SGD; Adafactor is computed from its factored size
}

// bf16OptimizerBytes is what a distributed AdamW keeping its states in
// bf16 (Input.BF16OptimizerStates) holds per parameter before ZeRO
// shards it: its copy of the weights and the two moments, 2 bytes each.
// apex's DistributedFusedAdam allocates exp_avg and exp_avg_sq "dtype:
// datatype for optimizer state" and its stored parameter copy
// (store_params) in that dtype, and its contiguous gradient buffer in
// grad_sync_dtype (apex/contrib/optimizers/distributed_fused_adam.py at
// f9f19d5c, 2024-07-23). NeMo-Framework-Launcher 24.07's Llama SFT
// recipe (launcher_scripts/conf/peft/llama/sft.yaml, tag 24.07 at
// 8325688d) sets distributed_fused_adam with dtype and grad_sync_dtype
// bf16 and megatron_amp_O2, and its H100 examples for the NeMo 24.07
// performance table's SFT rows (examples/peft/llama/h100/*.sh) set
// fp8_params; NeMo then stores the parameter copy (megatron_base_model.py
// setup_optimization: store_params = True when fp8_params, at 0b8a80ee).
// Without fp8_params NeMo stores none when the optimizer's dtype is the
// model's (store_params = False), so such a run holds 2 bytes a
// parameter less than counted; the FP8 weights themselves (1 byte and
// Transformer Engine's cached transpose) are counted as 16-bit.
func bf16OptimizerBytes() (master, states float64) {
	return 2, optimizerBytesPerParam(AdamW) / 2
}

// pipeStage names one pipeline stage: whether it holds the embedding
// (first) and the head (last), its layers (0: ⌈L/PP⌉, the largest share)
// and the micro-batches whose activations it holds at once in training
// (0: one).
type pipeStage struct {
	first, last bool
	layers      int
	inflight    float64
}

// stageLayers is the transformer layers of training stage i of pp when the
// L layers do not divide evenly: every stage takes ⌈L/pp⌉ and the
// shortfall comes off the first and the last stage, then off the stages
// after the first in order. The first and last stages carry the embedding
// and the output head and loss, and under 1F1B stage i holds the
// activations of pp − i micro-batches, so the early stages are the
// fullest: Llama 3's 405B run put 126 layers on 16 stages by taking "one
// Transformer layer each from the first and the last stages" (Dubey et
// al. 2024, "The Llama 3 Herd of Models", §3.3.2, memory imbalance), which
// Megatron-Core exposes as --decoder-first-pipeline-num-layers and
// --decoder-last-pipeline-num-layers.
func stageLayers(L, pp, i int) int {
	if pp <= 1 || L <= 0 {
		return L
	}
	k := (L + pp - 1) / pp
	short := pp*k - L
	pos := i + 1 // the order stages give a layer up in: first, last, then 1, 2, …
	switch i {
	case 0:
		pos = 0
	case pp - 1:
		pos = 1
	}
	if pos < short {
		return k - 1
	}
	return k
}

// worstTrainStage is the training stage that needs the most memory per
// GPU. Each stage holds the saved activations of the micro-batches its
// schedule has in flight at once (stageInflight: under 1F1B stage i holds
// min(pp − i, m); Narayanan et al. 2021 §2.2.1: "the number of outstanding
// forward passes is at most the number of pipeline stages", reached on the
// first stage; under the interleaved schedule more, and the same on every
// early stage when the warm-up takes the whole batch), so with layers
// balanced as stageLayers puts them the first stage (embedding, most
// micro-batches), the second (as many or fewer micro-batches, perhaps a
// layer more), the first middle stage with the full ⌈L/pp⌉ layers and the
// last (head and logits) are the candidates; the largest decides whether
// the job fits. The schedule is the one the step is timed with
// (TrainSchedule on Input.Schedule).
func worstTrainStage(in Input, r *Result) stageOut {
	pp, L := in.PP, in.Arch.Layers
	m, v := TrainSchedule(in, in.Schedule.workload())
	at := func(i int) pipeStage {
		k := stageLayers(L, pp, i)
		return pipeStage{first: i == 0, last: i == pp-1, layers: k, inflight: stageInflight(pp, i, m, v, k)}
	}
	best := stage(in, at(0), r)
	try := func(i int) {
		if s := stage(in, at(i), r); s.b.Total() > best.b.Total() {
			best = s
		}
	}
	try(pp - 1)
	if pp > 2 {
		try(1)
		k := stageLayers(L, pp, 1)
		for i := 2; i < pp-1; i++ {
			if l := stageLayers(L, pp, i); l > k {
				try(i)
				break
			}
		}
	}
	return best
}

// chunkLayers is the transformer layers of each of the v model chunks of
// stage i of pp when the stage holds k layers: ⌈k/v⌉ each, and the chunks
// that take one fewer are the first chunks of the first stage (the
// embedding's chunk) and the last chunks of the others (on the last stage
// the loss's chunk). Megatron-Core does the same for the published 405B
// split: with account_for_embedding_in_pipeline_split and
// account_for_loss_in_pipeline_split the embedding and the loss each take
// a layer's place, L + 2 slots over pp·v chunks, so the first chunk of the
// first stage and the last chunk of the last stage build one layer fewer
// (get_num_layers_to_build, megatron/core/transformer/transformer_block.py,
// core_v0.19.0); Llama 3.1 405B (126 layers) at PP 16 VP 4 is 2 layers a
// chunk and 1 in those two.
func chunkLayers(k, v, i int) []int {
	c := make([]int, max(v, 1))
	for j := range c {
		c[j] = chunkLayer(k, v, i, j)
	}
	return c
}

// chunkLayer is chunkLayers' chunk j, without the slice.
func chunkLayer(k, v, i, j int) int {
	v = max(v, 1)
	full := (k + v - 1) / v
	short := full*v - k
	if i == 0 && j < short || i != 0 && j >= v-short {
		return full - 1
	}
	return full
}

// stageInflight is how many micro-batches' worth of stage i's saved
// activations (k layers each) the stage holds at its peak, under
// Megatron-Core's schedules (megatron/core/pipeline_parallel/schedules.py,
// core_v0.19.0, get_pp_rank_microbatches):
//
//   - plain 1F1B (v = 1): min(pp − i − 1, m) warm-up forwards, then one
//     forward before each backward: min(pp − i, m) micro-batches.
//   - interleaved (v > 1, forward_backward_pipelining_with_interleaving):
//     W = (pp − i − 1)·2 + (v − 1)·g warm-up chunk forwards, g the
//     micro-batches a chunk runs in a row (microbatch_group_size_per_vp_stage,
//     default pp, model_parallel_config.py), then 1F1B over chunks: W + 1
//     chunk-micro-batches in flight; when W reaches all m·v the whole
//     batch runs forward first and the stage holds m micro-batches of all
//     its layers. Chunks run in get_schedule_table's order (g micro-batches
//     of chunk 0, then of chunk 1, …; backward from the last chunk), so with
//     unequal chunks (chunkLayers) the peak is the largest sum of the
//     layers in flight over the steady state.
//
// Llama 3.1 405B at PP 16 VP 4 with m = 16 (16,384 GPUs, batch 2,048):
// every stage up to the seventh holds all 64 chunk-micro-batches, 16 of its
// 8 layers on the second stage, against 15 under plain 1F1B; at m = 32
// the second stage holds 77 chunks of 2 layers, 19.25 micro-batches.
func stageInflight(pp, i, m, v, k int) float64 {
	m = max(m, 1)
	if v <= 1 || pp <= 1 {
		return float64(min(pp-i, m))
	}
	total := m * v
	w := (pp-i-1)*2 + (v-1)*pp
	if w >= total || k <= 0 {
		return float64(m)
	}
	// get_schedule_table: micro-batches in groups of pp; each group runs
	// chunk 0 … v−1; the last group takes all that remain. Two cursors
	// walk that order in place, the forwards and, w behind, the
	// backwards (no table: the estimate runs on every input of the page).
	full := (k + v - 1) / v // chunkLayer's sizes, worked out once
	short := full*v - k
	layers := func(ch int) int {
		if i == 0 && ch < short || i != 0 && ch >= v-short {
			return full - 1
		}
		return full
	}
	fwd, bwd := schedCursor{sz: min(pp, m)}, schedCursor{sz: min(pp, m)}
	var held, peak int
	for f := 0; f < total; f++ {
		held += layers(fwd.ch)
		fwd.next(pp, m, v)
		if f >= w {
			if held > peak {
				peak = held
			}
			held -= layers(v - 1 - bwd.ch) // the backward that follows this forward
			bwd.next(pp, m, v)
		}
	}
	return float64(peak) / float64(k)
}

// schedCursor walks get_schedule_table's order of chunk-micro-batches
// (stageInflight): the micro-batches of one group (sz of them from lo)
// through chunk ch, then the next chunk, then the next group.
type schedCursor struct{ lo, sz, ch, mb int }

func (c *schedCursor) next(pp, m, v int) {
	if c.mb++; c.mb < c.sz {
		return
	}
	c.mb = 0
	if c.ch++; c.ch < v {
		return
	}
	c.ch, c.lo = 0, c.lo+pp
	c.sz = min(pp, m-c.lo)
}

// stage computes one pipeline stage's per-GPU breakdown: its share of the
// parameters, the model states, the working memory (activations, logits,
// KV cache), the overheads and, for pooled engines, the KV pool.
func stage(in Input, ps pipeStage, r *Result) stageOut {
	var out stageOut
	last := ps.last
	sh := stageParams(in, ps)
	out.host = modelStates(in, sh, &out.b, r)
	out.grads = out.b.Gradients
	if gradsNoneAtStart(in) {
		out.b.Gradients = toBytes(math.Min(gradsInFlight(in), float64(out.grads)*zeroShards(in)))
	}
	seqKV, tokKV := workingMemory(in, sh, ps, &out.b)
	// The head's autocast copy lives with the loss's logits: made in the
	// forward pass, gone after the head's backward.
	out.b.Logits += toBytes(autocastHeadCopy(in, last))
	overheads(in, &out.b)
	if autocastMixed(in) && !autocastCopyBesideGrads(in) && !in.Overheads.AllocatorReserve.Set {
		// The forward's 16-bit weight copies, freed in the backward as the
		// gradients appear (autocastCopyBesideGrads), stay in the caching
		// allocator's cache: a copy's blocks, half a gradient's size, do
		// not hold the gradients that follow, so what the allocator has
		// reserved (nvidia-smi's reading on a roomy GPU) still counts them;
		// under pressure it frees them (allocatorKept), so the fit call
		// does not. HF's BERT-large V100 series (nvidia-smi, fp16 at batch
		// 4, one micro-batch a step) reads the same either way.
		out.b.AllocatorReserve += toBytes(2 * sh.params)
	}
	quantizedHead(in, last, &out.b)
	kvPool(in, seqKV, tokKV, r, &out)
	return out
}

// quantizedHead: a QLoRA base whose LM head is a 4-bit linear too
// (Input.QuantizeHead; Lightning's BitsandbytesPrecision replaces every
// nn.Linear outside its ignore_modules, which LitGPT's lora.py leaves
// empty, so lm_head is NF4). On the last stage the head is stored in the
// base's format, not 16-bit; a tied head becomes a 4-bit copy beside the
// 16-bit embedding (LitGPT keeps separate wte and lm_head weights). Its
// matmul dequantises the whole V·h head to 16-bit for each logits chunk,
// forward and backward (bitsandbytes MatMul4Bit), so the dequantisation
// buffer is the larger of that and the largest block linear.
func quantizedHead(in Input, last bool, b *Breakdown) {
	a := in.Arch
	if !last || !in.QuantizeHead || in.Task != QLoRA || !bnbLinears(in) || a.Vocab == 0 || a.Encoder {
		return
	}
	head := float64(a.Vocab) * float64(a.Hidden) / float64(in.TP)
	linBits, otherBits, _ := weightBits(in)
	if kbitPrepared(in) {
		otherBits = 32
	}
	w := float64(b.Weights) + head*(linBits-otherBits)/8
	if a.TiedEmbeddings {
		w = float64(b.Weights) + head*linBits/8
	}
	b.Weights = toBytes(w)
	b.QuantState = max(b.QuantState, toBytes(head*2))
}

// autocastHeadCopy is the 16-bit copy of the LM head that a mixed-precision
// step holds while the head is kept in fp32, on the last stage. PEFT's
// prepare_model_for_kbit_training casts every parameter bitsandbytes left
// unquantised, the head among them, to fp32 (kbitPrepared); HF Trainer's
// bf16/fp16 mixed precision runs the forward under torch.autocast, which
// casts the fp32 weight to 16-bit for the head's matmul, and autograd saves
// that 16-bit operand for the matmul's backward (the gradient of the hidden
// states, which the LoRA layers below need), so it stays from the head's
// forward to its backward, beside the loss's logits. The blocks' weights
// are quantised and the embedding is a lookup, which autocast does not
// cast. On ms-swift v2's QLoRA rows (Qwen-7B/14B, test) the error goes
// −6.6/−8.9% → −1.8/−4.0%, held-back fine-tune memory 12.9% → 11.3%.
func autocastHeadCopy(in Input, last bool) float64 {
	a := in.Arch
	if !last || !kbitPrepared(in) || a.Vocab <= 0 || a.Hidden <= 0 || a.Encoder {
		return 0
	}
	return 2 * float64(a.Vocab) * float64(a.Hidden) / float64(max(in.TP, 1))
}

// stageShape is one stage's share of the model on one GPU.
type stageShape struct {
	frac, k          float64 // share of the layers, and their count
	params           float64 // parameters on this GPU
	linGPU, otherGPU float64 // of which block linears, and the rest
	exGPU            float64 // of which routed experts
}

// stageParams: the stage's layers and ends, sharded over TP.
func stageParams(in Input, ps pipeStage) stageShape {
	a := in.Arch
	first, last := ps.first, ps.last
	tp := float64(in.TP)
	// Layers on this stage: the largest share when they do not divide,
	// unless the stage names its own (stageLayers).
	frac, k := 1.0, float64(a.Layers)
	if a.Layers > 0 && in.PP > 1 {
		k = math.Ceil(float64(a.Layers) / float64(in.PP))
		if ps.layers > 0 {
			k = float64(ps.layers)
		}
		frac = k / float64(a.Layers)
	}
	body := float64(a.LayerParams) * frac
	lin := float64(a.LinearParams) * frac
	kvp := float64(a.KVProjParams) * frac
	ex := math.Min(expertParams(a)*frac, lin) // routed experts: sharded over the whole TP group
	atp := attnTP(in)
	exShard := tp * trainEP(in) // and over EP data-parallel ranks in training
	var ends float64
	if first {
		ends += float64(a.EmbeddingParams) // a VLM's vision tower and projector included
		if in.TextOnly {
			ends -= float64(a.VisionParams)
		}
	}
	if last {
		ends += float64(a.HeadParams)
		if !first && a.TiedEmbeddings && !a.Encoder {
			ends += float64(a.Vocab) * float64(a.Hidden) // last stage keeps its own copy of a tied head
		}
	}
	// Tensor parallelism shards everything (Megatron and vLLM shard the
	// vocabulary too) except K/V heads when TP exceeds them: each rank then
	// holds one whole KV head. With attention data parallelism (Input.DP)
	// the non-expert weights are sharded TP/DP ways only.
	kvShare := 1 / atp
	if atp > 1 && !a.IsMLA() && a.KVHeads > 0 && atp > float64(a.KVHeads) {
		kvShare = 1 / float64(a.KVHeads)
	}
	exGPU := ex * expertSlots(in) / exShard // redundant copies of experts included
	params := exGPU + (ends+body-ex-kvp)/atp + kvp*kvShare
	linGPU := exGPU + (lin-ex)/atp
	if d := sglangDPSharding(in, ps); d != (dpSharding{}) {
		// SGLang under attention DP: the embedding whole on every GPU,
		// the LM head over the whole TP group (sglangDPSharding) rather
		// than attention's TP/DP share.
		params += d.embed*(1-1/atp) + d.head*(1/tp-1/atp)
	}
	if !in.Task.Training() {
		// The dense layers' MLPs and the shared experts as the serving
		// engine splits them (servingMLPShards), not at attention's share.
		mlp := placedMLPParams(in, atp) * frac
		params += mlp
		linGPU += mlp
		if in.DraftTokens > 0 && last && body > 0 {
			// Speculative decoding loads the MTP module beside the model
			// (draftModuleParams), split over the GPUs as a block of the
			// model is: this GPU's share of the stage's blocks.
			share := (exGPU + (body-ex-kvp)/atp + kvp*kvShare + mlp) / body
			d := draftModuleParams(a) * share
			params += d
			linGPU += d
		}
	}
	return stageShape{frac: frac, k: k, params: params, linGPU: linGPU, otherGPU: params - linGPU, exGPU: exGPU}
}

// draftModuleParams is the parameters of the one multi-token-prediction
// module a serving engine loads for speculative decoding (Arch.MTPParams
// over Arch.MTPLayers): its Transformer block, its two norms and the
// projection of the concatenated embedding and hidden state (DeepSeek-V3
// report, arXiv:2412.19437 §2.2), without the embedding and output head,
// which the engines share with the model: SGLang's draft model takes the
// target's (DeepseekV3ForCausalLMNextN.set_embed_and_head, called from
// python/sglang/srt/speculative/eagle_worker.py), as vLLM's EAGLE proposer
// does where the shapes match (vllm/v1/spec_decode/eagle.py,
// load_model). The engines load one module even where the checkpoint holds
// more, and run it d times. The DeepSeek-V3 checkpoint's 14B of MTP
// weights (its README, "671B of the Main Model weights and 14B of the
// Multi-Token Prediction Module weights") count the embedding and head
// again; the block alone is about 11.6B.
func draftModuleParams(a Arch) float64 {
	if a.MTPLayers < 1 || a.MTPParams <= 0 {
		return 0
	}
	shared := 2 * float64(a.Vocab) * float64(a.Hidden)
	return math.Max(float64(a.MTPParams)/float64(a.MTPLayers)-shared, 0)
}

// dpSharding is the parameters of one pipeline stage that SGLang lays out
// differently from attention's TP under attention data parallelism.
type dpSharding struct {
	embed float64 // input embedding: whole on every GPU
	head  float64 // LM head: over the whole TP group
}

// sglangDPSharding is the model's ends that SGLang's attention data
// parallelism (--enable-dp-attention, Input.DP > 1) shards otherwise than
// attention's TP/DP share, as SGLang's models build their layers with the
// default flags (python/sglang/srt/models/deepseek_v2.py; the same pattern
// in its other MoE models):
//   - the input embedding is replicated: VocabParallelEmbedding(...,
//     enable_tp=not enable_dp_attention);
//   - the LM head is split over the whole TP group: ParallelLMHead(...,
//     use_attn_tp_group=enable_dp_lm_head), --enable-dp-lm-head off by
//     default.
//
// The dense MLPs and shared experts are servingMLPShards'. Zero for other
// engines and without attention DP: vLLM's data parallelism builds a whole
// TP model on each DP rank, so attention's share holds.
func sglangDPSharding(in Input, ps pipeStage) dpSharding {
	a := in.Arch
	if in.Engine != SGLang || attnTP(in) >= float64(in.TP) || in.Task.Training() {
		return dpSharding{}
	}
	var d dpSharding
	if ps.first {
		d.embed = float64(a.EmbeddingParams)
		if in.TextOnly {
			d.embed -= float64(a.VisionParams)
		}
	}
	if ps.last && !a.TiedEmbeddings {
		d.head = float64(a.HeadParams)
	}
	return d
}

// mlpShards is the ways a serving replica splits the dense layers' MLPs
// and the shared experts of an MoE model over its GPUs (tensor parallelism
// of the linears, 1 for a whole copy on every GPU). Each GPU runs its share
// on the tokens it holds, so their FLOPs spread over the replica's GPUs
// whatever the split; the split sets the weight bytes a GPU holds and
// reads and the inner dimension its down projections run at
// (gemmShapeCost).
type mlpShards struct{ dense, shared float64 }

// servingMLPShards is how in's engine splits an MoE model's dense MLPs and
// shared experts. Without attention data parallelism (DP ≤ 1) both take
// the TP group, as every other linear. Under attention DP:
//   - SGLang (--enable-dp-attention) splits the dense layers' MLPs over the
//     whole TP group unless --moe-dense-tp-size 1 (enable_moe_dense_fully_dp:
//     tp_size 1; default None, the TP group). Its shared experts take the
//     TP group too (or are fused into the routed experts, which the TP group
//     shares), except under DeepEP (--moe-a2a-backend deepep, which the
//     estimate and the launch take for SGLang with attention DP and EP:
//     SGLangDeepEP), where DeepseekV2MoE builds them with tp_rank 0,
//     tp_size 1, a whole copy on
//     every GPU run on its own tokens, and shared-expert fusion is off
//     ("can not use shared experts fusion optimization under deepep expert
//     parallelism"): sgl-project/sglang python/sglang/srt/models/
//     deepseek_v2.py at 00114aef (DeepseekV2MoE.__init__, enable_deepep_moe)
//     and at 3e4a39ee (get_moe_a2a_backend().is_deepep()). The estimate
//     lays out SGLang's other MoE models so too (their files not read
//     here: an estimate).
//   - TensorRT-LLM with attention DP runs both whole on every rank: "If
//     using attention DP, the shared experts also use DP instead of TP"
//     (Deepseekv3MoE._compute_shared_expert_tp_size: shared_tp_size 1) and
//     "If using attention DP, the MLP also uses DP instead of TP"
//     (DeepseekV3DecoderLayer._compute_mlp_tp_size: mlp_tp_size 1),
//     NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/modeling_deepseekv3.py
//     at a43cf9e.
//   - vLLM and the others build a whole TP model on each DP rank: both at
//     attention's TP. vLLM's sequence-parallel MoE (is_sequence_parallel,
//     which replicates them over the rank's TP group and splits its tokens
//     instead) is not modelled; at TP 1 a rank the two are the same.
func servingMLPShards(in Input) mlpShards {
	tp, atp := float64(max(in.TP, 1)), attnTP(in)
	switch {
	case atp >= tp:
		return mlpShards{tp, tp}
	case SGLangDeepEP(in):
		return mlpShards{tp, 1}
	case in.Engine == SGLang:
		return mlpShards{tp, tp}
	case in.Engine == TRTLLM:
		return mlpShards{1, 1}
	}
	return mlpShards{atp, atp}
}

// moeMLPParams is an MoE model's dense layers' MLP parameters and its
// shared experts' (SharedExperts of MoEIntermediate and one of
// SharedExpertIntermediate a MoE layer); 0, 0 for a dense model.
func moeMLPParams(a Arch) (dense, shared float64) {
	if !a.IsMoE() || a.Hidden <= 0 {
		return 0, 0
	}
	mats := 2.0 // fc1, fc2
	if a.GatedMLP {
		mats = 3 // gate, up, down
	}
	h, nDense := float64(a.Hidden), float64(max(a.DenseLayers, 0))
	moeLayers := math.Max(float64(a.Layers)-nDense, 0)
	width := float64(a.MoEIntermediate)*float64(max(a.SharedExperts, 0)) + float64(a.SharedExpertIntermediate)
	return nDense * mats * h * float64(a.Intermediate), moeLayers * mats * h * width
}

// placedMLPParams is the parameters of the whole model's dense MLPs
// and shared experts that one serving GPU holds beyond attention's TP
// share of them (atp ways, as the rest of the non-expert weights): negative
// where the engine splits them wider (servingMLPShards). Memory and speed
// read it.
func placedMLPParams(in Input, atp float64) float64 {
	dense, shared := moeMLPParams(in.Arch)
	if dense+shared == 0 || in.Task.Training() {
		return 0
	}
	sh := servingMLPShards(in)
	return dense*(1/sh.dense-1/atp) + shared*(1/sh.shared-1/atp)
}

// modelStates: weights, gradients and optimizer states on this GPU after
// ZeRO sharding and offload; it returns the bytes held on the host.
func modelStates(in Input, sh stageShape, b *Breakdown, r *Result) Bytes {
	a := in.Arch
	tp := float64(in.TP)
	dp := zeroShards(in)
	frac, params, linGPU, otherGPU := sh.frac, sh.params, sh.linGPU, sh.otherGPU
	linBits, otherBits, _ := weightBits(in)
	if kbitPrepared(in) {
		otherBits = 32 // PEFT's k-bit preparation: see kbitPrepared
	}
	r.WeightBitsPerParam = (float64(a.LinearParams)*linBits + float64(a.TotalParams-a.LinearParams)*otherBits) / float64(a.TotalParams)
	if in.Quant.ExpertsOnly() {
		q := quantisedLinears(in, float64(a.LinearParams), expertParams(a))
		r.WeightBitsPerParam = (q*linBits + (float64(a.TotalParams)-q)*otherBits) / float64(a.TotalParams)
	}

	var W, G, O, host float64
	switch in.Task {
	case Inference:
		W = linGPU*linBits/8 + otherGPU*otherBits/8
		if in.Quant.ExpertsOnly() {
			q := quantisedLinears(in, linGPU, sh.exGPU)
			W = q*linBits/8 + (linGPU-q+otherGPU)*otherBits/8
		}
	case Pretrain, FullFinetune:
		r.TrainableParams = a.TotalParams
		if in.TextOnly {
			r.TrainableParams -= a.VisionParams
		}
		var wB, gB, master float64
		switch {
		case in.Weights == FP32:
			wB, gB = 4, 4
		case in.PureBF16:
			// 16-bit weights and gradients, no master copy; the
			// optimizer's fp32 states are allocated like the parameters,
			// in 16-bit (torch.optim state follows the parameter dtype).
			wB, gB = 2, 2
		case in.ZeRO == 0:
			// PyTorch autocast (HF Trainer fp16/bf16): fp32 parameters
			// and gradients, 4 + 4 B/param, and the 16-bit weight copies
			// autocast makes for the forward (autocastCopyBytes: 2
			// B/param where they are whole beside the gradients, HF
			// model_memory_anatomy's "18 bytes per model parameter").
			wB, gB = 4, 4
			if autocastCopyBesideGrads(in) {
				wB = 6
			}
		case fsdpFP32Gather(in):
			// FSDP over fp32 parameters under autocast (Lightning's
			// -mixed): fp32 weights and gradients, the AdamW moments, no
			// separate master copy (fsdpFP32Gather).
			wB, gB = 4, 4
		default:
			// ZeRO/FSDP mixed precision: 16-bit params and grads, fp32
			// master copy in the optimizer (Rajbhandari et al. 2020 §3.1:
			// 2+2+12 = 16 B/param with Adam).
			wB, gB, master = 2, 2, 4
		}
		st := optimizerBytesPerParam(in.Optimizer)
		if in.Optimizer == Adafactor {
			st = 4 * float64(a.AdafactorStates) / float64(a.TotalParams)
		}
		if in.BF16OptimizerStates {
			master, st = bf16OptimizerBytes()
		}
		if in.PureBF16 && in.Optimizer != AdamW8bit && in.Optimizer != PagedAdamW8bit {
			st /= 2
		}
		W, G, O = params*wB, params*gB, params*(master+st)
		if in.OptimizerInBackward {
			// One parameter's gradient at a time: the largest tensor, the
			// embedding (or LM head) V·h or an MLP matrix h·I.
			G = math.Min(params, math.Max(float64(a.Vocab), float64(a.Intermediate))*float64(a.Hidden)) * gB
		}
		if in.Optimizer.Paged() {
			host += params * st // states page out to the host
			O = params * master
		}
	case LoRA, QLoRA:
		trainable := float64(loraParams(in))
		r.TrainableParams = int64(trainable)
		ad := trainable * frac / tp
		// Adapters and their gradients in the adapters' dtype
		// (ResolveAdapterDType: PEFT's fp32, or the base's 16-bit dtype
		// as torchtune and LitGPT keep them).
		adB := ResolveAdapterDType(in).BitsPerElement() / 8
		W = linGPU*linBits/8 + otherGPU*otherBits/8 + ad*adB
		G = ad*adB + fsdpFrozenGradBytes(in)
		st := optimizerBytesPerParam(in.Optimizer)
		if in.Optimizer == Adafactor {
			st = 4 / float64(in.LoRARank) // A (r×in) factors to r+in ≈ in: 1/r of its size
		}
		if adB < 4 && in.Optimizer != AdamW8bit && in.Optimizer != PagedAdamW8bit {
			st /= 2 // states follow the 16-bit adapters (torch.optim state is allocated like the parameter)
		}
		O = ad * st
		if in.Optimizer.Paged() {
			host += O
			O = 0
		}
	}
	if in.Task.Training() {
		// ZeRO shards over the data-parallel ranks; the routed experts,
		// already split over EP of them, over the other dp/EP
		// (Megatron-Core's expert data-parallel group).
		shard := dp
		if ep := trainEP(in); ep > 1 && params > 0 {
			f := sh.exGPU / params
			shard = dp / (1 - f + f*ep)
		}
		if in.ZeRO >= 1 {
			O /= shard
		}
		if in.ZeRO >= 2 && !in.FSDPNoSync {
			// FSDPNoSync: the whole model's gradients between syncs
			// (Input.FSDPNoSync); the shard they reduce into at the
			// synchronising micro-batch replaces them unit by unit.
			G /= shard
		}
		gather := 0.0
		if in.ZeRO == 3 {
			// FSDP/ZeRO-3 all-gather the current block and prefetch the
			// next one (gatherBytes: a QLoRA base in its 4-bit storage).
			gather = fsdpGathered(in, shard)
			W = W/shard + gather
		}
		switch in.Offload {
		case OffloadOptimizer:
			host += O
			O = 0
		case OffloadAll:
			host += O + G + (W - gather)
			O, G, W = 0, 0, gather
		}
	}
	b.Weights, b.Gradients, b.Optimizer = toBytes(W), toBytes(G), toBytes(O)
	return toBytes(host)

}

// workingMemory: activations, logits and the KV cache of this stage's
// layers on this GPU; it returns one sequence's and one token's KV bytes.
func workingMemory(in Input, sh stageShape, ps pipeStage, b *Breakdown) (seqKV, tokKV float64) {
	last := ps.last
	a := in.Arch
	tp := float64(in.TP)
	frac, k := sh.frac, sh.k
	kvBits := kvBitsPerElement(in)
	kvHeadShare := kvTPShare(a, attnTP(in))
	seqKV = a.kvBytesPerSeq(int64(in.Seq), kvBits) * frac * kvHeadShare
	tokKV = float64(a.kvElemsPerTokenLayer()) * kvBits / 8 * k * kvHeadShare

	seq, batch := float64(in.Seq), float64(in.Batch)
	switch {
	case in.Task.Training():
		inflight := math.Max(1, ps.inflight) // 1F1B: stage i holds pp − i micro-batches (worstTrainStage)
		// Context parallelism: each rank holds s/CP tokens of every
		// sequence (CPShard), so the sequence-proportional activations and
		// logits divide by CP (Megatron-Core context parallelism guide:
		// "each GPU only computes and stores the activations of a chunk of
		// the sequence").
		cp := CPShard(in)
		// The first stage holds the saved activations of its micro-batches
		// in flight, but recomputes one block of one micro-batch at a time.
		saved, working := trainActivationSplit(in, k)
		b.Activations = toBytes((saved*inflight + working + bnbLastGraph(in, k, last)) / cp)
		if last && a.Vocab > 0 && !a.Encoder {
			// Cross-entropy on b·s·V logits: 16-bit logits, fp32 upcast,
			// fp32 gradient (fp32 training: logits + gradient). Chunked
			// (LossChunks), the upcast and gradient exist for one chunk
			// at a time (torchtune CEWithChunkedOutputLoss).
			keep, fp32 := 2.0, 8.0
			if in.Weights == FP32 {
				keep, fp32 = 4, 4
			}
			per := keep + fp32
			if in.FlashCrossEntropy {
				per = flashCrossEntropyBytes(keep)
				if a.FinalLogitSoftcap {
					per += keep // tanh's saved output, as below
				}
			} else if in.Task == Pretrain && in.LossChunks <= 1 && !a.FinalLogitSoftcap {
				// Megatron-Core's vocab-parallel cross-entropy, which
				// GPTModel's loss runs at every TP, TP 1 included
				// (language_module.py compute_language_model_loss;
				// tensor_parallel/cross_entropy.py, core_v0.19.0):
				// forward casts the 16-bit logits to fp32 (.float()),
				// exponentiates that copy in place (torch.exp(...,
				// out=)) and saves it; backward turns the saved softmax
				// into the gradient in place (grad_input = softmax;
				// mul_), which the cast's backward makes 16-bit again.
				// At most the 16-bit logits or gradient and one fp32
				// copy exist at once: 6 bytes an element (fp32
				// training: .float() is the same tensor, 4). The fused
				// kernels (--cross-entropy-loss-fusion, native or
				// Transformer Engine) keep no more. llm-foundry's
				// default loss keeps less (Input.FlashCrossEntropy).
				// torchtitan's loss upcasts whole (10 bytes): a
				// torchtitan run is counted short by 4 bytes a logit.
				per = keep + 4
				if in.Weights == FP32 {
					per = 4
				}
			} else if in.KeepsLastGraph {
				per = heldLogitBytes(keep)
				if a.FinalLogitSoftcap && in.LossChunks <= 1 {
					per += keep // tanh's saved output, as below
				}
			} else if in.LossChunks > 1 {
				per = keep + fp32/float64(in.LossChunks)
			} else if a.FinalLogitSoftcap {
				// Soft-capped logits (Gemma 2): transformers'
				// Gemma2ForCausalLM (diff_gemma2.py at 0604c449, 2024)
				// and LitGPT's GPT.forward (litgpt/model.py at
				// 00af8b0d) compute tanh(logits/cap)·cap before the
				// upcast; tanh's output, in the compute dtype, is saved
				// for its backward until the loss's gradient reaches
				// it. LitGPT's chunked head (lm_head_chunk_size, lora.py)
				// returns the chunks before the cap, so a chunked loss
				// keeps none.
				per += keep
			}
			b.Logits = toBytes(batch * seq * float64(a.Vocab) / tp * per / cp)
		}
		// The allocator's reserve grows with what one micro-batch
		// allocates and frees, not with how many are in flight: every
		// micro-batch saves tensors of the same shapes, which the caching
		// allocator serves from the blocks the micro-batch before it freed
		// (PyTorch CUDA caching allocator: freed blocks stay cached and are
		// reused for requests they fit; "CUDA semantics", memory
		// management). Counted on the saved activations of one micro-batch
		// with its working block and logits; on one stage without a
		// pipeline this is what it was.
		b.AllocatorReserve = toBytes(trainAllocatorShare * ((saved+working)/cp + float64(b.Logits)))
	case in.Engine.Pooled():
		b.Activations = toBytes(vllmActivations(a, float64(in.BatchedTokens()), tp))
		if last && a.Vocab > 0 && !a.Encoder {
			b.Logits = toBytes(vllmSamplerRows * float64(a.Vocab) / tp * 4)
		}
	case in.Engine == LlamaCpp:
		b.Activations = toBytes(llamaCppCompute(in, tp))
	default: // HF inference
		b.Activations = toBytes(hfInferActivations(in, k, tp))
		if last && a.Vocab > 0 && !a.Encoder {
			b.Logits = toBytes(batch * float64(a.Vocab) / tp * (2 + 4)) // last position, 16-bit + fp32
		}
		b.KVCache = toBytes(batch * seqKV)
		b.AllocatorReserve = toBytes(hfInferAllocatorShare * float64(b.Activations+b.Logits+b.KVCache))
	}
	if in.Engine == LlamaCpp && !in.Task.Training() {
		b.KVCache = toBytes(batch * seqKV)
	}

	return seqKV, tokKV
}

// overheads: CUDA context, NCCL buffers, CUDA graphs, allocator reserve
// and bitsandbytes' dequantisation buffer, each overridable.
func overheads(in Input, b *Breakdown) {
	a := in.Arch
	tp := float64(in.TP)
	ctx := Bytes(defaultCUDAContext)
	if in.Engine.Pooled() && !in.Task.Training() {
		ctx = vllmNonTorch
	}
	b.CUDAContext = in.Overheads.CUDAContext.Or(ctx)
	var nccl Bytes
	multi := in.GPUs > 1
	switch {
	case !multi || in.Engine == LlamaCpp:
		// single GPU; llama.cpp copies between GPUs without NCCL
	case in.TP > 1:
		nccl = ncclTP
	case in.Engine == HF && !in.Task.Training():
		// HF device_map pipelines copy activations without NCCL
	default:
		nccl = ncclDP
	}
	b.NCCL = in.Overheads.NCCL.Or(nccl)
	var graphs Bytes
	if in.Engine.Pooled() && !in.Task.Training() && !in.EnforceEager {
		graphs = defaultCUDAGraphs
	}
	b.CUDAGraphs = in.Overheads.CUDAGraphs.Or(graphs)
	b.AllocatorReserve = in.Overheads.AllocatorReserve.Or(b.AllocatorReserve)
	if bnbLinears(in) {
		// bitsandbytes dequantises one linear at a time to 16-bit; GPTQ
		// kernels keep no such copy (their scales and zeros are weights).
		b.QuantState = toBytes(largestLinear(a) / tp * 2)
	}

}

// kvPool: a pooled engine pre-allocates its memory share (Input.MemShare:
// the user's GPUMemUtil or the engine's default) of the memory and gives
// what the rest leaves to the KV cache (vLLM gpu_memory_utilization,
// SGLang mem_fraction_static). TensorRT-LLM instead takes the share of
// the memory still free once the model is loaded (its
// kv_cache_free_gpu_mem_fraction, "the fraction of free GPU memory"
// after loading: TensorRT-LLM KvCacheConfig documentation).
func kvPool(in Input, seqKV, tokKV float64, r *Result, out *stageOut) {
	a := in.Arch
	b := &out.b
	batch := float64(in.Batch)
	out.kvFits = true
	if in.Engine.Pooled() && !in.Task.Training() {
		share := in.MemShare()
		budget := share * float64(r.Usable)
		static := float64(b.Weights + b.Activations + b.Logits + b.CUDAContext + b.NCCL + b.QuantState)
		switch in.Engine {
		case TRTLLM:
			free := float64(r.Usable) - static - float64(b.CUDAGraphs)
			budget = static + share*math.Max(free, 0)
		case SGLang:
			// SGLang sizes its pool as the share of the memory free before
			// the weights load (after the CUDA context and the
			// communicators) less what the weights took: pool =
			// f·(free before) − weights (model_runner.py
			// profile_max_num_token; model_runner_kv_cache_mixin.py
			// _profile_available_bytes in the 2026 tree). Activations,
			// logits and CUDA graphs live in the 1 − f it leaves
			// (server_args.py _handle_gpu_memory_settings sizes that
			// reserve for them), so they take nothing from the pool.
			before := float64(r.Usable) - float64(b.CUDAContext+b.NCCL)
			budget = share*math.Max(before, 0) + float64(b.CUDAContext+b.NCCL)
			static = float64(b.Weights + b.QuantState + b.CUDAContext + b.NCCL)
		}
		pool := budget - static
		if pool < 0 {
			pool = 0
		}
		b.KVCache = toBytes(pool)
		if a.HasKVCache() && tokKV > 0 {
			out.poolTokens = int64(pool / tokKV)
			// Each attention data-parallel rank holds its own sequences.
			out.maxSeqs = int64(math.Min(pool/seqKV*dpRanks(in), math.MaxInt64/2))
			out.kvFits = pool >= math.Ceil(batch/dpRanks(in))*seqKV && pool > 0
			if pool < seqKV {
				r.Warnings.add(WarnPoolBelowOneSeq)
			}
		} else {
			out.kvFits = static <= budget
		}
	}
}

// largestLinear is the biggest weight matrix inside a block.
func largestLinear(a Arch) float64 {
	w := max(int64(a.Intermediate), int64(a.MoEIntermediate), a.qDim())
	if a.Generic() {
		w = 4 * int64(a.Hidden)
	}
	return float64(a.Hidden) * float64(w)
}

// perTokenLayer returns, for one token in one block, the bytes of saved
// activations that scale with tokens (replicated under TP and sharded) and
// the bytes per token per attended position of the s² score tensors.
//
// Korthikanti et al. 2022 (arXiv:2205.05198) §4.1 count, for a GPT block
// with 16-bit activations: attention 11sbh + 5as²b, MLP 19sbh, norms 4sbh,
// i.e. sbh(34 + 5as/h) (Eq. 1). We keep their terms but use the model's own
// widths: LN outputs feeding q/k/v (h), Q (nh·hd), K and V (kv·hd), the
// attention output (nh·hd), the MLP input (h), the MLP hidden tensors (2I
// for GeLU: fc1 output and activation output; 4I for SwiGLU: gate, up,
// act(gate), product), the norm inputs (h each) and 1-byte dropout masks
// (2h) for families trained with dropout. Scores: softmax output (+
// dropout output and mask) = 5 bytes per element with dropout, 2 without.
// Under TP without sequence parallelism (Eq. 2) the norm inputs, block
// inputs and masks are replicated and the rest divided by t.
func perTokenLayer(in Input, elem float64) (repl, shard, scores float64) {
	a := in.Arch
	h := float64(a.Hidden)
	q, kv, v := float64(a.qDim()), float64(a.kvDim()), float64(a.vDim())
	o := q
	if a.IsMLA() {
		o = float64(a.Heads) * float64(a.VHeadDim)
		kv += float64(a.KVLoRARank + a.QLoRARank) // latents
	}
	I := float64(a.activeMLPWidth())
	mlp := 2 * I
	if a.GatedMLP {
		mlp = 4 * I
		if megatronCoreStep(in) {
			// Megatron-Core's SwiGLU is one fused function that saves
			// only its input, the gate and up projections (2I); the
			// product is saved by the down projection (I):
			// megatron/core/fusions/fused_bias_swiglu.py. Its MLP calls
			// it at any TP (mlp.py: bias_activation_fusion with silu and
			// a gated linear unit); Megatron-LM sets it from
			// --bias-swiglu-fusion, on unless --no-bias-swiglu-fusion
			// (arguments.py), NeMo's and Megatron-Bridge's Llama configs
			// with bias_activation_fusion=True. Unfused (HF, eager
			// PyTorch) act(gate) is saved as well.
			mlp = 3 * I
		}
	}
	topk := 1.0
	if a.IsMoE() {
		topk = float64(a.ExpertsPerToken) // tokens are copied to each routed expert
	}
	norms := float64(a.NormsPerLayer) * h
	normElem := elem
	amp := in.Weights != FP32 && in.ZeRO == 0 && in.Engine == HF
	if amp {
		normElem = 4 // autocast runs layer_norm in fp32 and saves fp32 inputs
	}
	masks := 0.0
	if a.Dropout {
		masks = 2 * h
	}
	mlpIn := h * topk // MLP input (MoE: one copy per routed expert)
	attnIn := h       // the attention input (the first norm's output)
	if frozenInputs(in) {
		// LoRA on a 16-bit base with dropout on the adapters' input: the
		// frozen q/k/v linears do not save the attention input (the
		// autograd rule below), and each adapter saves its own dropped
		// copy instead (loraSavedBytes), so the norm's output itself
		// is kept by nothing: LitGPT's RMSNorm multiplies by a frozen
		// weight (x_normed * self.weight, litgpt/model.py at 00af8b0d),
		// which saves the weight only, and layer_norm saves its input,
		// not its output. Without dropout the adapters' A matrices save
		// the input itself, as QLoRA's MatMul4Bit does, unless PEFT casts
		// it to its fp32 adapters first (loraInputCast): then each saves
		// its own fp32 copy (loraSavedBytes) and the input goes too.
		attnIn = 0
	}
	if in.Task == LoRA && (!in.LoRATargets.mlp() || frozenInputs(in)) {
		// LoRA on a 16-bit base with adapters on attention only: the MLP's
		// linears are frozen, and PyTorch's autograd saves a matmul input
		// only when the weight's gradient is needed (the guard_for /
		// should_compute_output checks in tools/autograd/gen_variable_type.py),
		// so the MLP input and the down-projection input (the product, I)
		// are not kept. gate, up and act(gate) still are: SiLU and the
		// product need them to pass the gradient down. QLoRA keeps both:
		// bitsandbytes' MatMul4Bit saves its input whenever the input
		// needs a gradient (bitsandbytes/autograd/_functions.py). With
		// adapters on every linear and dropout on their input
		// (frozenInputs) the same holds: each adapter saves a dropped
		// copy of the MLP input and of the product (loraSavedBytes),
		// the frozen linears neither.
		mlpIn = 0
		if a.GatedMLP {
			mlp = 3 * I
		} else {
			mlp = I // GeLU keeps fc1's output, drops the activation output
		}
	}
	hidElem := elem
	if kbitPrepared(in) {
		// fp32 embeddings and norms (kbitPrepared): the block input, the
		// norms' inputs and outputs (the attention and MLP inputs) are
		// fp32; the linears' outputs stay 16-bit under autocast.
		hidElem, normElem = 4, 4
	}
	repl = attnIn*hidElem + mlpIn*hidElem + norms*normElem + masks // attention input, MLP input, norm inputs, masks
	repl += loraSavedBytes(in, elem)
	shard = (q+kv+v+o+litgptAttentionElems(in))*elem + mlp*elem
	sb := elem
	if amp {
		sb = 4 // softmax in fp32 under autocast
	}
	switch {
	case a.AttnSoftcap:
		scores = float64(a.Heads) * softcapScoreBytes(elem)
	case a.Dropout:
		scores = float64(a.Heads) * (sb + elem + 1)
	default:
		scores = float64(a.Heads) * sb
	}
	return repl, shard, scores
}

// litgptAttentionElems is what LitGPT's attention (Input.LitGPTAttention)
// keeps for the backward per token and layer beyond the q, k, v and
// output perTokenLayer counts, in elements of the compute dtype.
// CausalSelfAttention.forward (litgpt/model.py at 00af8b0d, 2024-09-27;
// the same lines at 58c5b188 and, as lit_gpt/model.py, at 8641822) views
// the fused qkv output as (B, n_query_groups, q_per_kv + 2, T, hs) and
// splits it; with fewer KV heads than query heads (GQA, MQA) it expands k
// and v to every query head ("training: flash attention requires it") and
// reshapes them, which copies them (an expanded tensor has no view of
// that shape); apply_rope and torch.cat then make k a new tensor of
// n_head heads. scaled_dot_product_attention saves its q, k and v as
// given (derivatives.yaml, _scaled_dot_product_flash_attention and
// _efficient_attention; flash-attn's FlashAttnFunc at 8641822 the same),
// so K and V are kept at n_head × head_size a token, not
// n_query_groups ×: 2·(n_head − n_query_groups)·head_size more. With as
// many KV heads as query heads the reshapes are views: q and k become
// new tensors through the rope, but v is still a view of the fused qkv
// output, which its saved reference keeps whole ((n_head +
// 2·n_query_groups)·head_size a token where v alone is n_query_groups ×
// head_size): (n_head + n_query_groups)·head_size more. The soft-capped
// path (Gemma 2) saves the same q, k and v in its two matmuls. Zero for
// attention LitGPT does not have (MLA) and without the field: other
// stacks' attention is counted at the model's own KV width, as before.
func litgptAttentionElems(in Input) float64 {
	a := in.Arch
	if !in.LitGPTAttention || a.IsMLA() || a.KVHeads <= 0 || a.KVHeads > a.Heads {
		return 0
	}
	q, kv := float64(a.qDim()), float64(a.kvDim())
	if a.KVHeads < a.Heads {
		return 2 * (q - kv)
	}
	return q + kv
}

// frozenInputs reports whether a LoRA step on a 16-bit base keeps none of
// its frozen linears' inputs: PyTorch's autograd saves a matmul input only
// when the weight's gradient is needed (the guard_for /
// should_compute_output checks in tools/autograd/gen_variable_type.py),
// and with dropout on the adapters' input (Input.LoRADropout > 0) each
// adapter's A matrix saves the dropped copy, not the input (LitGPT's
// LoRALinear and LoRAQKVLinear, litgpt/lora.py at 00af8b0d; PEFT's
// lora.Linear: lora_A(dropout(x))). Which inputs that covers depends on
// the targets: the attention input always (q and v carry adapters), the
// MLP input and the down projection's input with all-linear. QLoRA's
// 4-bit linears save their input whatever the adapters do (bitsandbytes
// MatMul4Bit), so it is LoRA only.
func frozenInputs(in Input) bool {
	return in.Task == LoRA && (in.LoRADropout > 0 || loraInputCast(in))
}

// loraInputCast reports whether each adapted linear casts its input to
// the adapters' wider dtype and saves that copy for the backward: PEFT's
// fp32 adapters (ResolveAdapterDType) over a 16-bit step that runs
// without autocast (Input.PureBF16: a bf16-true base). PEFT's
// lora.Linear.forward runs x = self._cast_input_dtype(x,
// lora_A.weight.dtype) before lora_B(lora_A(dropout(x)))
// (src/peft/tuners/lora/layer.py at 5d602fdb), and _cast_input_dtype
// returns x.to(dtype) where the dtypes differ
// (src/peft/tuners/tuners_utils.py); its bitsandbytes 4-bit layer does
// the same where autocast is off (lora/bnb.py, requires_conversion = not
// torch.is_autocast_enabled()). The fp32 copy (or, with dropout, its
// dropped fp32 copy) is what lora_A saves, one per adapted linear, 4
// bytes an element, and the r-wide intermediate lora_B saves is fp32 too.
// Our H200 runs show it (device-h200-2026-11-30, ft2.json: Llama 3.1 8B
// LoRA r32 on q and v, batch 2 × 512, dropout 0, bf16 weights and PEFT
// 0.21: 32 layers × 2 × 1,024 tokens × 4,096 × 4 B = 1.07 GB that a
// 16-bit count of the adapters' input leaves out). Under autocast
// (mixed precision) the matmul casts that copy back to 16-bit, which
// elem already counts; LitGPT's and torchtune's 16-bit adapters cast
// nothing.
func loraInputCast(in Input) bool {
	if in.Task != LoRA && in.Task != QLoRA || in.Weights == FP32 || !in.PureBF16 {
		return false
	}
	return ResolveAdapterDType(in) == FP32
}

// heldLogitBytes is the logits' bytes per element at the peak of a
// LitGPT step (Input.KeepsLastGraph), keep being the compute dtype's
// bytes. Lightning Fabric's _FabricModule.forward returns
// precision.convert_output(output), which HalfPrecision and
// BitsandbytesPrecision alike cast to torch.get_default_dtype(), fp32
// outside their forward context (lightning/fabric/plugins/precision/
// half.py and bitsandbytes.py, 2.4.0), so the whole logits list, every
// lm_head_chunk_size chunk, becomes fp32 when the forward returns, before
// the loss sees it: LitGPT's chunked_cross_entropy (litgpt/utils.py at
// 00af8b0d) chunks the loss, not the upcast. Its fit loops
// (finetune/lora.py and full.py) reassign logits only when that call
// returns, so while the new list is cast the previous step's fp32 list is
// still referenced: previous fp32 (4) + this step's 16-bit chunks (keep)
// + their fp32 copies (4), 10 bytes in bf16. After the assignment the loss
// keeps at most the fp32 list and the log-softmax it saves (8). In fp32
// training the cast returns the same tensor: 8.
func heldLogitBytes(keep float64) float64 {
	if keep >= 4 {
		return 4 + keep
	}
	return 4 + keep + 4
}

// megatronCoreStep reports whether a training step's activations are
// counted as Megatron-Core saves them (fused SwiGLU, its vocab-parallel
// cross-entropy): pre-training, whose defaults are Megatron-Core's recipes
// (ZeRODefault, DefaultVirtualStages; NeMo 2.0 and Megatron-Bridge), at
// any TP, and any training run with sequence parallelism over TP > 1,
// which is Megatron-Core's (Korthikanti et al. 2022). Fine-tunes are HF
// Trainer, PEFT, torchtune or LitGPT steps, unfused.
func megatronCoreStep(in Input) bool {
	return in.Task == Pretrain || in.Task.Training() && in.SequenceParallel && in.TP > 1
}

// flashCrossEntropyBytes is what flash-attn's fused cross-entropy
// (Input.FlashCrossEntropy) holds per logit at the loss's backward, keep
// being the logits' bytes: CrossEntropyLoss.forward saves the logits
// themselves with one fp32 log-sum-exp a row (ctx.save_for_backward(logits,
// lse, labels)), and backward writes the gradient into
// torch.empty_like(logits), the logits' own dtype (inplace_backward is
// False by default): flash_attn/ops/triton/cross_entropy.py at v2.4.2 and
// at 0251105a (2026-08-15); the CUDA xentropy_cuda_lib of v1.0.9 saves
// and returns the same. The logits and their gradient, 4 bytes in bf16,
// against Megatron-Core's 6 (16-bit logits or gradient and one fp32 copy)
// and HF's 10. llm-foundry builds it by default (ComposerMPTCausalLM:
// loss_fn 'fused_crossentropy', flash_attn.losses.cross_entropy.
// CrossEntropyLoss; llmfoundry/models/mpt/modeling_mpt.py at 5e85bd62,
// 2024-01-06, the benchmark table's rows, and at 8c8dd48f, 2025-07-21),
// and its pre-training YAMLs do not override it (scripts/train/yamls/
// pretrain/mpt-*.yaml, which scripts/train/benchmarking/
// submit_benchmarks.py runs).
func flashCrossEntropyBytes(keep float64) float64 {
	return 2 * keep
}

// softcapScoreBytes is what soft-capped eager attention (Arch.AttnSoftcap)
// saves for backward per score element, with 16-bit (elem 2) or fp32
// (elem 4) activations. LitGPT's CausalSelfAttention (litgpt/model.py at
// 00af8b0d, "with softcapping we cannot use SDPA") and transformers'
// Gemma 2 eager attention (modeling_gemma2.py, 2024 releases from
// v4.42.3) both compute q·kᵀ·scale, tanh(·/cap)·cap, add the mask,
// softmax(dtype=float32), cast back to the compute dtype and multiply by
// V. Autograd keeps tanh's output (its backward is 1 − y²: elem bytes),
// softmax's fp32 output (4) and the cast probabilities that the product
// with V saves (elem; the same tensor as the softmax output when elem is
// 4). The scalings and the mask addition save nothing, and Gemma 2's
// attention dropout is 0, which PyTorch's dropout returns unchanged (no
// mask).
func softcapScoreBytes(elem float64) float64 {
	if elem >= 4 {
		return 4 + 4
	}
	return elem + 4 + elem
}

// eagerScores reports whether the attention materialises its b·heads·s²
// scores: without FlashAttention/SDPA (Input.FlashAttention false), or
// with soft-capped scores (Arch.AttnSoftcap), which torch's
// scaled_dot_product_attention cannot apply, so LitGPT computes them
// eagerly (litgpt/model.py at 00af8b0d) and transformers (2024 releases
// from v4.42.3) swaps its default SDPA for eager attention on Gemma 2
// (Gemma2PreTrainedModel._check_and_enable_sdpa: "DISABLE torch SDPA by
// default on Gemma2 models ... because of the logits softcapping").
// FlashAttention 2.6's softcap argument is not told apart from SDPA by
// --flash-attention; the default runs of both frameworks are eager.
func eagerScores(in Input) bool {
	return !in.FlashAttention || in.Arch.AttnSoftcap
}

// bnbLastGraph is the previous micro-batch's bitsandbytes 4-bit linear
// inputs still held at this step's peak on one GPU, for k blocks, when the
// loop keeps the previous graph (Input.KeepsLastGraph). MatMul4Bit.forward
// keeps its input as ctx.tensors = (A, B) whenever the input needs a
// gradient, not through save_for_backward, and its backward reads it
// without clearing it (bitsandbytes/autograd/_functions.py, 0.42.0 to
// 0.44.1), so it is freed with the graph: while the next forward runs, the
// previous step's inputs of every 4-bit linear are there beside this
// step's. Per token and block: the attention input (one tensor for q, k
// and v), the output projection's input (the attention output), the MLP
// input (one tensor for gate and up, or fc1) and the down projection's
// input (the MLP's product); the 4-bit LM head's input (the final norm's
// output, whose 128-token chunks are views of it) on the last stage
// (Input.QuantizeHead). Without recomputation only: a checkpointed block
// runs its 4-bit linears again in the backward.
func bnbLastGraph(in Input, k float64, last bool) float64 {
	a := in.Arch
	if !in.KeepsLastGraph || in.Task != QLoRA || !bnbLinears(in) || in.GradCheckpointing || a.Generic() {
		return 0
	}
	elem, hidElem := 2.0, 2.0
	if kbitPrepared(in) {
		hidElem = 4 // fp32 norms' outputs (kbitPrepared), as perTokenLayer
	}
	h, tp := float64(a.Hidden), float64(in.TP)
	o := float64(a.qDim())
	if a.IsMLA() {
		o = float64(a.Heads) * float64(a.VHeadDim)
	}
	topk := math.Max(1, float64(a.ExpertsPerToken))
	perTok := hidElem*h*(1+topk) + elem*(o+float64(a.activeMLPWidth()))/tp
	tokens := float64(in.Batch) * float64(in.Seq)
	out := tokens * perTok * k
	if last && in.QuantizeHead && a.Vocab > 0 && !a.Encoder {
		out += tokens * h * hidElem
	}
	return out
}

// loraSavedBytes is what the adapters themselves save per token per layer
// for the backward, beyond the base model's own tensors: each adapter's
// intermediate A·x, r wide, which B saves to take its weight's gradient
// (PEFT's lora.Linear: lora_B(lora_A(dropout(x))); LitGPT's
// LoRAQKVLinear: after_A, r per enabled q, k or v, into a grouped conv1d,
// litgpt/lora.py at 00af8b0d), and, with dropout on their input
// (Input.LoRADropout), each adapted linear's dropped input in the compute
// dtype (what its A matrix saves) and dropout's 1-byte mask; where PEFT
// casts the input to its fp32 adapters (loraInputCast) the copy, dropped
// or not, and A·x are fp32. The adapted
// linears by LoRATargets: q and v (query-value); q, k, v and o
// (attention); those and the MLP's gate and up (or fc1) and its down
// projection (all-linear). LoRAFusedQKV: q, k and v share one dropped
// copy (LitGPT's one lora_dropout on the fused qkv input).
func loraSavedBytes(in Input, elem float64) float64 {
	if in.Task != LoRA && in.Task != QLoRA {
		return 0
	}
	a := in.Arch
	h := float64(a.Hidden)
	var inputs, adapters float64
	switch in.LoRATargets {
	case LoRAQueryValue:
		inputs, adapters = 2*h, 2
		if in.LoRAFusedQKV {
			inputs = h
		}
	default:
		inputs, adapters = 3*h+float64(a.qDim()), 4
		if in.LoRAFusedQKV {
			inputs = h + float64(a.qDim())
		}
	}
	if in.LoRATargets.mlp() {
		up, n := h, 2.0 // fc1
		if a.GatedMLP {
			up, n = 2*h, 3 // gate and up, each with its own dropout
		}
		inputs += up + float64(a.activeMLPWidth())
		adapters += n
	}
	adElem := elem // what an adapter saves: its input's copy and A·x
	if loraInputCast(in) {
		adElem = 4 // PEFT's fp32 copy of each adapted input (loraInputCast)
	}
	saved := adapters * float64(in.LoRARank) * adElem
	switch {
	case in.LoRADropout > 0:
		saved += inputs * (adElem + 1)
	case loraInputCast(in):
		saved += inputs * adElem
	}
	return saved
}

// trainActivations is the activation memory saved for backward on one GPU
// for k blocks and one micro-batch, with the block being recomputed.
func trainActivations(in Input, k float64) float64 {
	saved, working := trainActivationSplit(in, k)
	return saved + working
}

// trainActivationSplit is trainActivations in two parts: what is saved for
// backward (each micro-batch in flight holds it), and, under full
// recomputation, the one block being recomputed (one micro-batch at a
// time).
func trainActivationSplit(in Input, k float64) (saved, working float64) {
	a := in.Arch
	elem := 2.0
	if in.Weights == FP32 {
		elem = 4
	}
	tp := float64(in.TP)
	b, s := float64(in.Batch), float64(in.Seq)
	if a.Generic() {
		if a.ActivationBytesPerSample > 0 {
			per := float64(a.ActivationBytesPerSample) * elem / 2
			if a.SeqLen > 0 {
				per *= s / float64(a.SeqLen)
			}
			if in.GradCheckpointing && a.Layers > 0 {
				return b * s * float64(a.Hidden) * elem * k / tp, b * per / float64(a.Layers) / tp
			}
			return b * per / tp * k / math.Max(1, float64(a.Layers)), 0
		}
		if a.Hidden == 0 || a.Layers == 0 {
			return 0, 0
		}
	}
	repl, shard, scores := perTokenLayer(in, elem)
	perTok := repl + shard/tp
	sp := 1.0 // sequence parallelism shards the replicated part too
	if in.SequenceParallel && in.TP > 1 {
		perTok, sp = (repl+shard)/tp, tp
	}
	if eagerScores(in) && !in.SelectiveRecompute {
		perTok += scores * s / tp
	} else if !eagerScores(in) {
		perTok += float64(a.Heads) * 4 / tp // FlashAttention saves fp32 logsumexp per row
	}
	layer := b * s * perTok
	if in.GradCheckpointing {
		// Full recomputation keeps each block's input (2sbh in 16-bit,
		// Korthikanti §5) and re-runs one block at a time during backward.
		// The input is in the residual stream's dtype: fp32 under autocast
		// when the model itself is fp32 (full training with HF Trainer's
		// mixed precision) or its embeddings were cast to fp32
		// (kbitPrepared); a LoRA base loaded in 16-bit keeps a 16-bit
		// residual, as autocast leaves its embedding lookup and additions
		// in the weights' dtype.
		inElem := elem
		full := in.Task == Pretrain || in.Task == FullFinetune
		if in.Weights != FP32 && in.ZeRO == 0 && !in.PureBF16 && (full || kbitPrepared(in)) {
			inElem = 4
		}
		return b * s * float64(a.Hidden) * inElem * k / sp, layer
	}
	return layer * k, 0
}

// hfInferActivations is the transient peak of one block's forward over the
// whole prompt (prefill) with the KV cache growing: hidden-state copies
// (residual, normed, attention output, next residual) plus the larger of
// the attention phase (q/k/v and, eagerly, bf16 scores + fp32 softmax) and
// the MLP phase (gate, up and product tensors).
func hfInferActivations(in Input, k, tp float64) float64 {
	a := in.Arch
	t := float64(in.Batch) * float64(in.Seq)
	s := float64(in.Seq)
	if a.Generic() {
		if a.ActivationBytesPerSample > 0 && a.Layers > 0 {
			per := float64(a.ActivationBytesPerSample) * float64(in.Weights.BitsPerElement()) / 16
			if a.SeqLen > 0 {
				per *= s / float64(a.SeqLen)
			}
			return float64(in.Batch) * per / float64(a.Layers) / tp
		}
		if a.Hidden == 0 {
			return 0
		}
	}
	elem := math.Max(2, in.Weights.BitsPerElement()/8) // quantised weights compute in 16-bit
	hidden := 4 * t * float64(a.Hidden) * elem
	attn := t * float64(a.qDim()+2*a.kvDim()) * elem / tp
	if eagerScores(in) {
		attn += float64(in.Batch) * float64(a.Heads) / tp * s * s * (elem + 4)
	}
	mlp := t * float64(a.activeMLPWidth()) * 3 * elem / tp
	return hidden + math.Max(attn, mlp)
}

// vllmActivations is vLLM's profiled activation peak for a forward pass of
// max_num_batched_tokens tokens: T·(6I/t + 8h)·2 bytes. Fitted to the llm-d
// v0.19 report (Llama-3.1-8B 1.89 GiB, Qwen2.5-7B 2.21 GiB measured, both
// within 5%) with I the active MLP width.
func vllmActivations(a Arch, tokens, tp float64) float64 {
	return tokens * (6*float64(a.activeMLPWidth())/tp + 8*float64(a.Hidden)) * 2
}

// llamaCppCompute is llama.cpp's compute buffer for one ubatch of 512
// tokens: fp32 logits and MLP/hidden scratch, plus without flash attention
// the fp32 KQ matrix over the whole context (n_ubatch × n_ctx × heads).
// Sized from ollama #6160 (192 MiB at 22B, 49k ctx, flash attention).
func llamaCppCompute(in Input, tp float64) float64 {
	a := in.Arch
	ub := math.Min(llamaCppUBatch, float64(in.Batch)*float64(in.Seq))
	c := ub * 4 * (float64(a.Vocab) + (2*float64(a.activeMLPWidth())+4*float64(a.Hidden))/tp)
	if !in.FlashAttention {
		c += ub * float64(in.Batch) * float64(in.Seq) * float64(a.Heads) / tp * 4
	}
	return c
}

// confidence assigns each part its relative uncertainty.
func confidence(in Input, b Breakdown) Confidence {
	a := in.Arch
	c := Confidence{Weights: 0.01, Gradients: 0.01, Optimizer: 0.02, Activations: 0.25, Logits: 0.25, KVCache: 0.03, Overhead: 0.5}
	if in.Quant != QuantAuto || in.Weights == INT4 || in.Weights == INT8 || in.Weights == FP4 || in.Task == QLoRA || a.VisionParams > 0 {
		c.Weights = 0.03 // quant mixes and approximate towers (calibration: Llama-3.1-70B Q4_K_M 4.82 vs 4.84 bpw)
	}
	if in.Optimizer == Adafactor {
		c.Optimizer = 0.10
	}
	switch {
	case a.Generic() && a.ActivationBytesPerSample == 0:
		c.Activations = 0.5
	case in.Engine.Pooled() && !in.Task.Training():
		c.Activations, c.KVCache = 0.3, 0.05 // llm-d: pool tokens within 5%
	case in.Engine == LlamaCpp && !in.Task.Training():
		c.Activations = 0.5
	}
	parts := [...]struct {
		v Bytes
		r float64
	}{{b.Weights, c.Weights}, {b.Gradients, c.Gradients}, {b.Optimizer, c.Optimizer},
		{b.Activations, c.Activations}, {b.Logits, c.Logits}, {b.KVCache, c.KVCache}, {b.Overhead(), c.Overhead}}
	var lo, hi float64
	for _, p := range parts {
		lo += float64(p.v) * (1 - p.r)
		hi += float64(p.v) * (1 + p.r)
	}
	c.Low, c.High = toBytes(lo), toBytes(hi)
	return c
}
