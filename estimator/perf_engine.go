package estimator

// The engine's floor under each forward step. A GPU runs kernels behind
// the host that launches them, so a step takes the longer of the host's
// work (launching kernels, scheduling, sampling) and the device's; when
// the host is longer the step is host-bound and a faster GPU does not help.

import (
	"math"
)

// HF transformers eager decoding (host-bound at small batch).
const (
	// hfOpsPerLayer is the PyTorch ops one Llama-style decoder layer
	// launches per eager forward, counted from transformers'
	// modeling_llama.py (v4.46): RMSNorm 7 (to fp32, pow, mean, add,
	// rsqrt, mul, weight mul) × 2; q, k, v, o projections 4; rotary
	// embedding on q and k 10 (mul, rotate_half's slice/neg/cat, mul,
	// add); KV-cache update 2 (cat); repeat_kv 2; SDPA 3; the transposed
	// output's copy 1; MLP 5 (gate, up, SiLU, mul, down); residual adds 2.
	// That is 43, of which 7 are linears (hfLinearsPerLayer).
	hfOpsPerLayer     = 43
	hfLinearsPerLayer = 7
	// hfOpsPerStep: ops outside the layers per generate() step, counted
	// the same way: rotary cos/sin 8, final RMSNorm 7, LM head 1, logits
	// processing, argmax, stopping criteria and cache bookkeeping about
	// 11. An estimate (generate()'s Python varies by version).
	hfOpsPerStep = 27
)

// Extra host ops per linear for weight-only formats in HF transformers, by
// kernel (resolveKernel). The bitsandbytes figures are fitted to the same
// H100 Llama 3.1 8B rows: (format step − BF16 step) / (32 layers × 7
// linears) / hfOpSeconds.
const (
	// hfOpsNF4: bitsandbytes NF4 with double quantisation (the QLoRA
	// format, QuantNF4): (41.1 − 24.4) ms → 4.3 ops per linear. Without
	// double quantisation it is 2.2 (33.1 ms).
	hfOpsNF4 = 4
	// hfOpsInt8: bitsandbytes LLM.int8() with outlier decomposition
	// (transformers' default llm_int8_threshold 6.0): (81.7 − 24.4) ms →
	// 14.7 ops per linear.
	hfOpsInt8 = 15
	// hfOpsExllama: the exllama/exllamav2 and Marlin GPTQ kernels call
	// one custom op per linear, as nn.Linear calls one matmul: none
	// extra. optimum's GPTQ benchmark on an A100 (optimum_gptq_a100.json)
	// decodes Llama-2-13B at batch 1 faster with exllama than in FP16
	// (33.6 against 36.8 ms, both host-bound): no extra launches.
	hfOpsExllama = 0
	// hfOpsAutoGPTQ: AutoGPTQ's CUDA kernel ("cuda-old", also GPTQ int8,
	// which exllama does not run): its batch-1 row of the same table,
	// 45.8 ms, is 12.3 ms over exllama's, 44 µs per linear over 40 × 7
	// linears: 2.5 ops at 17.4 µs (2.1 at the 21 µs that table's FP16 row
	// implies); 2. Fitted on that row (split fit).
	hfOpsAutoGPTQ = 2
	// hfOpsAWQ: AutoAWQ's GEMM and GEMV kernels (WQLinear: reshape, a cast
	// to fp16, the kernel, the bias): 2. Not calibrated: an estimate.
	hfOpsAWQ = 2
	// hfOpsFP8: fp8 (and fp4) weights in transformers (activation
	// quantisation and a scaled matmul per linear). Not calibrated: an
	// estimate.
	hfOpsFP8 = 2
)

// Serving engines (vLLM, SGLang, TensorRT-LLM) with CUDA graphs.
const (
	// servingStepFloor is the host's seconds per engine step: scheduler,
	// input preparation, sampler and output processing. Releases that
	// overlap it with the GPU's previous step (overlapsHost) make it a
	// floor the device cannot go under; older ones add it to every step
	// (once per pass of vLLM's multi-step scheduling, which schedules N
	// steps at once: vLLM v0.6.0 blog, 2024-09-05, "vLLM v0.6.0: 2.7x
	// Throughput Improvement and 5x Latency Reduction"). Fitted, as a
	// floor, to vLLM v0.19.1's decode inter-token latency at concurrency
	// 1 for gpt-oss-20b on an H100, whose intercept (4.03–4.07 ms) is
	// well above its weight read (~1.5 ms of MXFP4 experts and BF16
	// attention): public-2026-11/vllm_blog_fp8_kvcache.json. Engines
	// measured on larger models (the SGLang and TensorRT-LLM rows) sit
	// above it. Taken as the same host work in older releases (not
	// fitted there): the SGLang v0.3.0 Llama 3.1 8B A100 TPOT rows (test)
	// then come out +23% and +6% (−7%, −17% with the host hidden).
	servingStepFloor = 4.0e-3
	// servingEagerOpsPerLayer: ops per layer when a serving engine runs
	// without CUDA graphs (vLLM --enforce-eager): fused RMSNorm+residual
	// 2, QKV 1, rotary 1, attention 1, o 1, gate-up 1, SiLU-and-mul 1,
	// down 1, plus cache write 1: 10, each at hfOpSeconds. An estimate.
	servingEagerOpsPerLayer = 10
	// llamaCppLayerSeconds: llama.cpp's per-layer cost under its CUDA
	// graphs, fitted with llamaCppBandwidthUtil to the 2025-on llama-bench
	// tg128 rows (perf_hardware.go).
	llamaCppLayerSeconds = 20e-6
)

// Pooled reports whether e pre-allocates a KV pool and batches requests
// continuously (vLLM, SGLang, TensorRT-LLM).
func (e Engine) Pooled() bool { return e == VLLM || e == SGLang || e == TRTLLM }

// resolveKernel is in's weight-only kernel: Input.Kernel, or the
// engine's default for the format. HF transformers loads int8 with
// bitsandbytes (load_in_8bit, LLM.int8()) and GPTQ int4 with exllama
// (GPTQConfig's use_exllama default); vLLM and SGLang pick Marlin for
// GPTQ/AWQ int4 and int8 on Ampere and later (vLLM's gptq_marlin and
// awq_marlin methods are chosen over gptq and awq when the GPU supports
// them); NF4 is bitsandbytes everywhere. KernelAuto for 16-bit, fp8/fp4,
// GGUF and TensorRT-LLM (its own kernels: the byte ratio).
func resolveKernel(in Input) Kernel {
	switch {
	case in.Kernel != KernelAuto:
		return in.Kernel
	case in.Task == QLoRA || in.Quant == QuantNF4:
		return KernelBitsandbytes
	case in.Quant.GGUF() || in.Engine == LlamaCpp || in.Engine == TRTLLM || (in.Weights != INT8 && in.Weights != INT4):
		return KernelAuto
	case in.Engine == HF && in.Weights == INT8:
		return KernelBitsandbytes
	case in.Engine == HF:
		return KernelExllama
	}
	return KernelMarlin
}

// bnb4 reports whether in runs bitsandbytes' 4-bit kernels (NF4, QLoRA's
// base, or int4 with --kernel bitsandbytes).
func bnb4(in Input) bool {
	return in.Task == QLoRA || in.Quant == QuantNF4 || (in.Kernel == KernelBitsandbytes && in.Weights == INT4)
}

// hfFormatOps is the extra host ops per linear for in's weight format and
// kernel in HF transformers.
func hfFormatOps(in Input) float64 {
	switch k := resolveKernel(in); {
	case bnb4(in):
		return hfOpsNF4
	case k == KernelBitsandbytes:
		return hfOpsInt8
	case k == KernelExllama || k == KernelMarlin:
		return hfOpsExllama
	case k == KernelAutoGPTQ:
		return hfOpsAutoGPTQ
	case k == KernelAWQGEMM || k == KernelAWQGEMV:
		return hfOpsAWQ
	case in.Weights == FP8 || in.Weights == FP4:
		return hfOpsFP8
	}
	return 0
}

// linearsPerLayer is the linears a token passes through in one layer: the
// attention's 4 and the MLP's 3, or 3 per routed expert plus a router.
func linearsPerLayer(a Arch) float64 {
	if a.IsMoE() && a.ExpertsPerToken > 0 {
		return 4 + 3*float64(a.ExpertsPerToken) + 1
	}
	return hfLinearsPerLayer
}

// stepFloor is the host's seconds under one forward step of a replica,
// and the device-side seconds per layer that move no weights (added to the
// device time). HF eager pays its launches on the host; CUDA-graph
// engines (serving engines, HF with Input.Compiled) pay layerOverhead on
// the device and a fixed host cost per step.
func stepFloor(in Input, hw Hardware) (host, perLayer float64) {
	op := hw.HostOpSeconds
	a := in.Arch
	layers := math.Max(float64(a.Layers), 0)
	switch {
	case in.Engine == LlamaCpp:
		return 0, llamaCppLayerSeconds
	case in.Engine == SGLang && in.EnforceEager:
		// Its decode steps launch eagerly on the host, priced per step
		// (inferModel.eagerStep, sglangEagerLaunch); no layer cost on
		// the device.
		return servingHost(in), 0
	case in.Engine.Pooled() && in.EnforceEager:
		return servingHost(in) + layers*servingEagerOpsPerLayer*op, 0
	case in.Engine.Pooled():
		return servingHost(in), layerOverhead
	case in.Compiled:
		// Static cache + torch.compile(mode="reduce-overhead") captures
		// the step in CUDA graphs (transformers "LLM inference
		// optimization" guide): the launches leave the host.
		return 0, layerOverhead
	}
	ops := layers*(hfOpsPerLayer-hfLinearsPerLayer+linearsPerLayer(a)*(1+hfFormatOps(in))) + hfOpsPerStep
	return ops * op, 0
}

// servingHost is a serving engine's host seconds per step: the floor, or,
// in a release that runs it between steps, its share of a multi-step
// pass (Input.SchedulerSteps).
func servingHost(in Input) float64 {
	if !overlapsHost(in) && in.SchedulerSteps > 1 {
		return servingStepFloor / float64(in.SchedulerSteps)
	}
	return servingStepFloor
}

// dequantBytesFactor is how many bytes the device moves per byte of
// stored linear weight in a forward over more than one token: bitsandbytes
// 4-bit dequantises each linear to a 16-bit copy before the matmul (read
// 4.127 bits, write and read 16: ×8.75) when the batch is above 1 (its
// mat-vec kernel handles batch 1 directly: bitsandbytes
// functional.gemv_4bit). vLLM's bitsandbytes method calls the same
// matmul_4bit, so it pays the same copies. Other formats read their stored
// bytes once.
func dequantBytesFactor(in Input, tokens float64) float64 {
	f := newWeightFormat(in)
	return f.dequant(tokens)
}

// weightFormat is what a forward's weight format costs by the tokens it
// carries, read once per model (a serving model's steps read it for
// every step): the bytes moved per stored byte (dequantBytesFactor) and
// whether the device waits on the host (hostSerial), which change only at
// one token (bitsandbytes 4-bit) and at exllamaReconsRows (exllama).
type weightFormat struct {
	hf, bnb, exllama bool
	// autogptq: AutoGPTQ's CUDA kernel in HF transformers, which reads the
	// weights once per row of input (autogptqRowPasses).
	autogptq bool
	// dqBnb, dqExllama: the factors of bitsandbytes' and exllama's (and
	// AutoGPTQ's) 16-bit copies; dq: the stored bytes' factor otherwise.
	dqBnb, dqExllama, dq float64
}

func newWeightFormat(in Input) weightFormat {
	k := resolveKernel(in)
	f := weightFormat{hf: in.Engine == HF, bnb: bnb4(in)}
	f.exllama = f.hf && k == KernelExllama
	f.autogptq = f.hf && k == KernelAutoGPTQ
	f.dqBnb = (4.127/8 + 4) / (4.127 / 8)
	if f.exllama || f.autogptq {
		bits, _, _ := weightBits(in)
		f.dqExllama = (bits/8 + 4) / (bits / 8)
	}
	switch {
	case k == KernelAuto || k == KernelBitsandbytes:
		f.dq = 1
	case k == KernelMarlin && in.Engine != HF:
		f.dq = 1 / marlinBandwidthShare
	default:
		f.dq = 1 / hfInt4BandwidthShare
	}
	return f
}

// dequant is dequantBytesFactor at tokens.
func (f *weightFormat) dequant(tokens float64) float64 {
	switch {
	case f.bnb && tokens > 1:
		return f.dqBnb
	case f.recons(tokens) || f.autogptq && tokens >= autogptqSwitchRows:
		return f.dqExllama
	case f.autogptq && tokens > 1:
		return f.dq * tokens
	}
	return f.dq
}

// copies reports whether a forward over tokens dequantises the linears
// to 16-bit copies (bitsandbytes 4-bit above one token, exllama's
// reconstruction): dequant is then the copy's factor, which applies to
// the quantised linears alone (inferModel.weightBytes).
func (f *weightFormat) copies(tokens float64) bool {
	return f.bnb && tokens > 1 || f.recons(tokens)
}

// linearsOnly reports whether dequant's factor at tokens applies to the
// quantised linears alone, the 16-bit embedding, norms and LM head being
// read once (inferModel.weightBytes): the 16-bit copies (copies) and
// AutoGPTQ's passes per row (autogptqRowPasses; its LM head is a plain
// fp16 nn.Linear at every batch).
func (f *weightFormat) linearsOnly(tokens float64) bool {
	return f.copies(tokens) || f.autogptq
}

// serial is hostSerial at tokens.
func (f *weightFormat) serial(tokens float64) bool {
	return f.hf && f.copies(tokens)
}

// recons is exllamaRecons at tokens.
func (f *weightFormat) recons(tokens float64) bool {
	return f.exllama && tokens >= exllamaReconsRows
}

// marlinBandwidthShare is the share of BF16's achieved bandwidth that
// Marlin reaches inside a serving engine at small batch. Its kernels alone
// come close to the 4× byte ratio up to batch 16–32, but end to end in vLLM
// the paper reports speedups "of up to 2.8×" over FP16 (Frantar et al.
// 2024, arXiv:2408.11743, abstract); a dense 7B model at batch 1 on an A10
// reaches 2.8× here at 0.85 (3.2× at the byte ratio), so 0.85. An
// estimate from the paper's best case, not fitted on rows.
const marlinBandwidthShare = 0.85

// hfInt4BandwidthShare is the share of BF16's achieved bandwidth that the
// group-wise int4 mat-vec kernels of the PyTorch stack reach (GPTQ/AWQ
// kernels in transformers, torch's int4 tinygemm): unpacking and scaling
// in the inner loop leave them short of the byte ratio. Fitted to
// gpt-fast's compiled int4 Llama-2-7B row on an A100 (4.95 ms against
// 3.83 ms at BF16's share: 0.72; testdata/calibration/
// pytorch_gpt_fast_blog.json). Taken for every group-wise kernel in HF
// transformers and for the serving engines' non-Marlin ones (vLLM's gptq
// and awq methods), int8 too: an estimate beyond tinygemm.
const hfInt4BandwidthShare = 0.72

// hostSerial reports whether a forward over tokens runs its device work
// after the host's launches instead of under them: bitsandbytes 4-bit in
// HF transformers at batch > 1, which dequantises every linear to a
// 16-bit copy before its matmul (dequantBytesFactor). Its H100 Llama 3.1
// 8B fit rows at batch 8 and 32 (56.6, 57.7 ms) sit near the host floor
// (40.0 ms) plus the dequantisation's device time (13.4 ms), −6% and −5%,
// not at the longer of the two (−29%, −31%); the T4 Qwen 2.5 3B rows, fit
// rows of the host classes, land at +27% and +15% and the held-back H100
// Qwen 2.5 32B at +14% and +9% (the longer: −31%, −41%, −34%, −39%). The
// RTX 4090 rows come out +48..+59% (the longer: +1..+16%): on that card
// the sum does not hold. The same table's NF4 rows without double
// quantisation say so too: double quantisation's extra host work (2.7 ms
// a step at batch 1 on the RTX 4090, 8.0 ms on the H100) is still there at
// batch 8 on the H100 Llama 3.1 8B (9.0 ms) and mostly hidden on the RTX
// 4090 (1.8 ms), i.e. the host runs under the device there. Which cards
// overlap, and why the dequantising path is slower on H100 and T4 than on
// the RTX 4090, has no source yet (testdata/calibration/README.md,
// "single-GPU decode outliers").
func hostSerial(in Input, tokens float64) bool {
	f := newWeightFormat(in)
	return f.serial(tokens)
}

// exllamaRecons reports whether HF's exllama kernel reconstructs each
// linear's 16-bit weights and runs cuBLAS instead of its int4 mat-vec:
// from exllamaReconsRows rows of input on (exllama's matmul_recons_thd,
// which AutoGPTQ sets to 8, "the default from exllama repo"). Like
// bitsandbytes' 4-bit dequantisation it writes and reads a 16-bit copy
// (dequantBytesFactor) after the host's launches (hostSerial): optimum's
// A100 Llama-2-13B exllama rows at batch 8 and 16 (72.4, 93.1 ms; test
// rows) come out +11% and −3% (−58%, −67% with the int4 read alone).
func exllamaRecons(in Input, tokens float64) bool {
	f := newWeightFormat(in)
	return f.recons(tokens)
}

// exllamaReconsRows is exllama's matmul_recons_thd as AutoGPTQ sets it.
const exllamaReconsRows = 8

// autogptqRowPasses: AutoGPTQ's CUDA kernel reads the packed weights once
// per row of input. Its QuantLinear (auto_gptq/nn_modules/qlinear/
// qlinear_cuda_old.py; use_cuda_fp16 True by default) calls
// vecquant4matmul_faster_old for fewer than kernel_switch_threshold rows
// (128 by default), and that launch's grid is (height/32, width/256,
// batch), each block taking its row from blockIdx.z and walking its own
// slice of the weights (autogptq_extension/cuda_256/
// autogptq_cuda_kernel_256.cu, VecQuant4MatMulKernelFaster_old; the 8-bit
// VecQuant8MatMulKernel_old launches the same grid), so a forward over B
// tokens reads the int4 weights B times (dequant: B × the kernel's
// stored-bytes factor). From 128 rows it dequantises each linear to fp16
// and calls torch.matmul: a 16-bit copy (dequantBytesFactor). optimum's
// A100 Llama-2-13B autogptq-cuda-old rows (test) grow by about 11 ms a row
// from batch 4 to 16 (59.9, 102.9, 189.9 ms), as the weights' passes do,
// where one pass stays under the host floor at batch 1.
const autogptqSwitchRows = 128

// enginePromptRate is a serving engine's achieved prompt rate on one GPU
// generation and weight precision, from a release on: the seconds its
// prompt tokens' compute takes relative to the step model's (promptCost).
type enginePromptRate struct {
	engine  Engine
	gen     Generation
	weights DType
	since   EngineVersion
	cost    float64
}

// enginePromptRates: the prompt rates that differ from the step model's.
// The InferenceX DeepSeek-R1 rows (testdata/calibration/inferencex) time
// SGLang's prefill slower than the step model gives on AMD, on
// Blackwell FP8 and on Hopper FP8, while TensorRT-LLM's on the same B200
// matches it
// (testdata/calibration/README.md, sixty-fifth and sixty-sixth rounds):
// an 8k prompt costs 57 µs a token more than a 1k prompt on eight MI300X,
// 30 on MI355X, 44 on B200 and 28 for TensorRT-LLM on B200 (all splits),
// about 160, 310, 210 and 330 TFLOP/s a GPU counting the 2 × 37B FLOPs of
// the linears alone. What SGLang runs there: on ROCm, AITER's block-scale
// FP8 fused MoE, FP8 block-scale GEMM and attention (AMD ROCm blog,
// "Accelerate DeepSeek-R1 Inference: Integrate AITER into SGLang",
// 2025-05-16); on Blackwell, its MLA decode kernel (trtllm_mla) has no
// prefill and hands prefill to FlashInfer's (SGLang docs,
// docs/backend/attention_backend.md). No per-kernel table for those kernels
// at DeepSeek's shapes was found, so each cost is fitted, an estimate: the
// factor at which the modelled rise of the median TTFT from 1k to 8k
// prompts at 1–8 in flight matches the measured rise on the fit rows of
// that engine, GPU family and precision (the median over concurrencies of
// the measured ÷ modelled rise, iterated: a 1k prompt's step sits near
// the roofline's corner, where more compute shows only in part), with
// sglangRequestSeconds refitted on the same rows. The rows ran SGLang
// v0.5.6–v0.5.12; earlier releases keep the step model's rate (none is
// measured), later ones are taken as these.
var enginePromptRates = [...]enginePromptRate{
	// MI300X and MI325X, FP8: 11 + 11 fit rows at 4 in flight and 1 + 2
	// at 8 (measured ÷ modelled rise 2.84 and 3.52 with no factor; 0.87
	// and 1.11 with this one).
	{SGLang, GenCDNA3, FP8, EngineVersion{0, 5, 6}, 4.2},
	// MI355X, FP8: 10 + 12 fit rows at 4 in flight (2.64 with no factor;
	// 1.01 with this one).
	{SGLang, GenCDNA4, FP8, EngineVersion{0, 5, 6}, 3.9},
	// MI355X, FP4: 1 + 11 fit rows at 4 in flight (1.86; 1.02).
	{SGLang, GenCDNA4, FP4, EngineVersion{0, 5, 6}, 1.9},
	// B200 and B300, FP8: the one fit pair is B300's at 1 in flight
	// (1.56; 1.02); B200's fit rows hold no 1k/8k pair. Blackwell FP4
	// keeps 1: its fit pairs disagree (B200 0.57, B300 6.8 from two
	// single runs at 1.4 s).
	{SGLang, GenBlackwell, FP8, EngineVersion{0, 5, 6}, 1.6},
	// H100 and H200, FP8: no aggregated fit row pairs 1k with 8k prompts
	// (the measured ÷ modelled rise over all splits is 1.13), so the factor is fitted where an 8k prompt's
	// rate sets a fit row's TTFT: the two disaggregated H200 fit rows with
	// 8k prompts on a TP 8 prefill worker (64 and 256 in flight, whose
	// prefill queues amplify the rate: −50% and −47% with no factor; +19%
	// and −16% with this one), together with the aggregated H200 fit rows
	// (1k prompts, median TTFT 15.4 → 14.2%): the factor of 1.1–1.3 in
	// steps of 0.05 that minimises the sum of the fit groups' median
	// |error|. On the test rows it gives the measured rise (aggregated 8k
	// prompts at 4–32 in flight: −9…−4% → −1…+6% median TTFT).
	{SGLang, GenHopper, FP8, EngineVersion{0, 5, 6}, 1.2},
}

// promptCost is the factor on a prompt token's compute seconds (its
// linears and its attention) for in's engine, release and weights on hw:
// enginePromptRates' cost, else 1. Decode tokens keep the step model's.
// The rates were measured with attention tensor-parallel (no attention
// data parallelism), the layout of every fit row above. Under attention DP
// the same engine's prefill workers keep the step model's rate: the
// disaggregated GB200 FP8 fit rows (8k prompts, prefill at TP 8 with DP
// attention, 128 in flight) come out at 878 ms against 840–937 ms
// measured without the factor and 1,675 ms with it, so DP > 1 keeps 1 (SGLang then runs MLA per rank over all
// heads, and with EP DeepEP and DeepGEMM's grouped kernels, which the step
// model already matches: sixty-fifth round).
func promptCost(in Input, hw Hardware) float64 {
	if dpRanks(in) > 1 {
		return 1
	}
	v := engineVersion(in)
	for _, r := range enginePromptRates {
		if r.engine == in.Engine && r.gen == hw.Generation && r.weights == in.Weights && !v.Less(r.since) {
			return r.cost
		}
	}
	return 1
}
