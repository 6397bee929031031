package estimator

// GEMM efficiency by shape: the share of a GEMM kernel's peak it reaches
// falls with the inner (reduction) dimension K it runs on one GPU. Tensor
// parallelism shards K of the row-parallel linears (attention's output
// projection, the MLP's and the experts' down projections) TP ways, so a
// TP 8 replica of a model with narrow experts runs its down projections at
// K of a few hundred, where the kernel's fixed cost per output tile
// (pipeline fill, the epilogue, FP8 block-scale promotion) is not
// amortised over the K loop.

import "math"

// gemmK0 is the inner dimension at which a GEMM reaches half its
// large-K throughput, in the form e(K) = e∞ · K / (K + K₀). Source:
// DeepGEMM's README (github.com/deepseek-ai/DeepGEMM, "Normal GEMMs for
// dense models", FP8 with 128-wide block scaling on an H800 SXM5, NVCC
// 12.8, the first release's table, 2025-02; MIT), its M = 4096 rows,
// which are compute-bound: K = 512, 1536, 2048, 7168, 16384 reach 590,
// 990, 1025, 1304, 1358 TFLOPS. e∞ = 1417 TFLOPS and K₀ = 717 hold every
// row within 3% (966, 1050, 1288 at K = 1536, 2048, 7168); the two ends
// fix them. The same README's Blackwell table of a later release holds K =
// 512 within 3% of K = 16384, so the curve is a kernel's, not a law of the
// hardware: it stands for the engines' grouped and dense FP8/BF16 GEMMs of
// 2025–26 (fused_moe, CUTLASS, DeepGEMM, TensorRT-LLM's), which the
// InferenceX DeepSeek-R1 rows say still pay it (below).
const gemmK0 = 717

// gemmRefK is the inner dimension at which Efficiency.InferenceMFU
// applies: the smallest hidden size of the TensorRT-LLM H100 rows that
// constant was fitted on (Llama 3.1 8B, 3.3 70B and 3.1 405B at TP 1–8;
// inference_throughput.json, split "fit"). Deeper linears are not credited
// above the fitted MFU; those rows move by under half a point with the
// curve (their TP-sharded K stays at 1,024 and above).
const gemmRefK = 4096

// gemmKCost is the time of a GEMM of inner dimension k relative to one at
// gemmRefK and above: (k + K₀)/k ÷ (K_ref + K₀)/K_ref, at least 1.
func gemmKCost(k float64) float64 {
	if k <= 0 {
		return 1
	}
	return math.Max(1, (k+gemmK0)/k*gemmRefK/(gemmRefK+gemmK0))
}

// gemmShapeCost is the matmul FLOPs' time per token relative to
// Efficiency.InferenceMFU: the FLOP-weighted mean of gemmKCost over one
// token's linears, each at the inner dimension one GPU runs it at.
// Column-parallel linears (QKV, gate/up, the experts' gate/up, MLA's
// low-rank up-projections) keep their whole K; row-parallel ones (the
// attention output, the MLP and expert down projections) take K / TP
// (Shoeybi et al. 2019 §3: the MLP's second GEMM and the attention output
// split along their input). Routed experts are whole on each GPU under
// expert parallelism (EP = TP: K is the expert's width) and split TP/EP
// ways otherwise; the dense layers' MLPs and the shared experts take the
// engine's split (servingMLPShards: whole on every GPU under TensorRT-LLM's
// attention DP and SGLang's DeepEP). The LM head and what the layer list
// misses count at 1.
func gemmShapeCost(a Arch, atp, tp, ep float64, sh mlpShards) float64 {
	h := float64(a.Hidden)
	if h <= 0 || a.Layers <= 0 || a.Generic() || a.Encoder {
		return 1
	}
	atp, tp = math.Max(atp, 1), math.Max(tp, 1)
	var flops, cost float64
	add := func(params, k float64) {
		if params > 0 {
			flops += params
			cost += params * gemmKCost(k)
		}
	}
	layers := float64(a.Layers)
	attnProjections(a, atp, add)
	// MLP: dense layers, then experts.
	up := 1.0
	if a.GatedMLP {
		up = 2
	}
	mlp := func(n, width, shards float64) {
		add(n*up*h*width, h)
		add(n*width*h, width/shards)
	}
	if a.IsMoE() {
		moe := layers - float64(a.DenseLayers)
		mlp(float64(a.DenseLayers), float64(a.Intermediate), sh.dense)
		w := float64(a.MoEIntermediate)
		experts := tp
		if ep > 1 {
			experts = math.Max(tp/ep, 1)
		}
		mlp(moe*float64(a.ExpertsPerToken), w, experts)
		mlp(moe*float64(a.SharedExperts), w, sh.shared)
		mlp(moe, float64(a.SharedExpertIntermediate), sh.shared)
	} else {
		mlp(layers, float64(a.Intermediate), tp)
	}
	if flops <= 0 {
		return 1
	}
	// Linears the list misses (the LM head, norms' and routers' small
	// products) run at the reference.
	if n := matmulParams(a); n > flops {
		cost += n - flops
		flops = n
	}
	return cost / flops
}

// attnProjections calls add with each attention projection of a over all
// its layers: its parameters and the inner dimension K it runs at on one
// GPU, the output projection split over atp attention-TP ranks. MLA: the
// query (or its low-rank q_a and q_b), kv_a with the rope key, kv_b and o;
// otherwise the fused Q, K, V and O. The caller has checked a's hidden
// size and layers.
func attnProjections(a Arch, atp float64, add func(params, k float64)) {
	h, layers, heads := float64(a.Hidden), float64(a.Layers), float64(a.Heads)
	if a.IsMLA() {
		qk := float64(a.QKNopeHeadDim + a.QKRopeHeadDim)
		v := float64(a.VHeadDim)
		if r := float64(a.QLoRARank); r > 0 {
			add(layers*h*r, h)
			add(layers*r*heads*qk, r)
		} else {
			add(layers*h*heads*qk, h)
		}
		r := float64(a.KVLoRARank)
		add(layers*h*(r+float64(a.QKRopeHeadDim)), h)
		add(layers*r*heads*(float64(a.QKNopeHeadDim)+v), r)
		add(layers*heads*v*h, heads*v/atp)
		return
	}
	hd := float64(a.HeadDim)
	add(layers*h*(heads+2*float64(a.KVHeads))*hd, h)
	add(layers*heads*hd*h, heads*hd/atp)
}

// nvidiaGEMMCurve reports whether gemmK0's curve applies on g: it was
// measured on NVIDIA tensor cores; AMD's and Intel's GEMM libraries
// (hipBLASLt, AITER's MoE kernels) have no such table here, so their
// matmuls stay at InferenceMFU.
func nvidiaGEMMCurve(g Generation) bool {
	switch g {
	case GenCDNA2, GenCDNA3, GenCDNA4, GenGaudi:
		return false
	}
	return true
}

// blackwellLowPrecisionShare is the share of Efficiency.InferenceMFU that
// the serving engines' FP8 and FP4 matmuls reach on Blackwell GPUs, whose
// datasheet low-precision peaks are 2.3× Hopper's (B200 FP8 4.5 PFLOP/s
// dense against H200's 1.98). The engines' Blackwell kernels of 2025–26
// do not reach that ratio: on the InferenceX DeepSeek-R1 rows (SGLang FP8
// TP 8, concurrency 1–4) an 8k prompt costs 24–44 µs a token more than a
// 1k prompt on a B200 against 28 µs on an H200. Fitted on the InferenceX
// NVIDIA Blackwell fit rows at concurrency ≤ 8 (60 rows of SGLang,
// TensorRT-LLM and vLLM, B200 and B300, FP8 and FP4; TTFT p50 median
// |error| 22.0, 19.0, 14.5, 18.6% at 1, 0.5, 0.4, 0.3), their test rows
// 12.8 → 14.1%, held back 25.6 → 24.1% (testdata/calibration/README.md,
// eighth round). A measured kernel curve should replace it (issue #30,
// item 6); BF16 on Blackwell and every other generation keep 1. Like
// gemmShapeCost it scales the matmuls relative to Efficiency.InferenceMFU,
// a user's --inference-mfu included (the MFU of deep GEMMs at Hopper's
// kernel maturity), and leaves attention's products at InferenceMFU:
// scaling the resolved MFU instead (attention too) moved the InferenceX
// TTFT p50 18.1/18.2/23.8% → 20.7/19.9/22.3%.
const blackwellLowPrecisionShare = 0.4

// blackwellDenseFP4Share is the share of Efficiency.InferenceMFU that a
// dense model's FP4 linears reach on a Blackwell GPU: NVIDIA's
// Megatron-Bridge pre-trains Llama 3.1 405B in NVFP4 on GB200 at 2,716–2,960
// model TFLOP/s a GPU, 27–30% of the 10 PFLOP/s FP4 peak, against 40–42%
// of the FP8 peak on H100 (784–827 of 1,979) and on GB200 (2,004–2,144 of
// 5,000; public-2026-11/megatron_bridge_performance_summary.json, 26.02–
// 26.06): 0.7 of Hopper's share, an estimate from training GEMMs.
const blackwellDenseFP4Share = 0.7

// lowPrecisionGEMMShare is the share of Efficiency.InferenceMFU a serving
// engine's FP8 or FP4 linears reach on a Blackwell GPU, 1 elsewhere:
// blackwellLowPrecisionShare for a mixture-of-experts model, whose rows
// it was fitted on (DeepSeek-R1 on InferenceX; its grouped expert GEMMs
// at a few tokens an expert); for a dense model FP8 keeps 1 and FP4
// blackwellDenseFP4Share. Dense FP8 GEMMs reach the same share of the FP8
// peak on Blackwell as on Hopper where they are measured: Megatron-Bridge
// pre-trains Llama 3.1 405B in FP8 at 40–42% of the peak on H100 (784–827
// model TFLOP/s of 1,979), 37% on B200 (1,667 of 4,500, 25.11) and 40–43%
// on GB200 (2,004–2,144 of 5,000; public-2026-11/
// megatron_bridge_performance_summary.json). With the MoE share on every
// model a B200 served Llama 3.1 405B in FP8 at 1.3× an H100's rate, below
// the 2.3× of its FP8 peak and the 2.0–2.6× those training rows measure.
func lowPrecisionGEMMShare(in Input, hw Hardware) float64 {
	if hw.Generation != GenBlackwell || !in.Engine.Pooled() || (in.Weights != FP8 && in.Weights != FP4) {
		return 1
	}
	switch {
	case in.Arch.IsMoE():
		return blackwellLowPrecisionShare
	case in.Weights == FP4:
		return blackwellDenseFP4Share
	}
	return 1
}

// fp8MarlinGEMMShare is the share of the 16-bit matmul rate that FP8
// weights reach on an NVIDIA GPU without FP8 tensor cores (compute
// capability below 8.9: Turing and Ampere, the A100, A10G, A40) under
// vLLM and SGLang, which run an FP8 checkpoint there as weight-only W8A16
// through Marlin: the weights stay 8-bit in memory and are read as 8-bit
// (the step model's byte count), dequantised to 16-bit inside the kernel,
// and multiplied on the 16-bit tensor cores (catalog.GPU.Hardware gives
// those GPUs their BF16 peak for FP8 weights).
//
// What each engine does there:
//   - vLLM: Fp8LinearMethod and Fp8MoEMethod set use_marlin where the
//     device lacks capability 8.9 ("For GPUs that lack FP8 hardware
//     support, we can leverage the Marlin kernel for fast weight-only FP8
//     quantization"; vllm-project/vllm vllm/model_executor/layers/
//     quantization/fp8.py at 0071b24bf8fe), the dense linears through
//     apply_fp8_marlin_linear (gptq_marlin_gemm with b_q_type
//     float8_e4m3fn) and the experts through fused_marlin_moe, whose
//     loader warns "This may degrade performance for compute-heavy
//     workloads" (utils/marlin_utils_fp8.py at 02d33ed1cbfc); added by
//     vLLM PR #5975, "Expand FP8 support to Ampere GPUs using FP8 Marlin".
//   - SGLang: Fp8LinearMethod turns Marlin on by itself where
//     can_auto_enable_marlin_fp8 holds, 80 <= sm < 89 (sgl-project/sglang
//     python/sglang/srt/layers/quantization/fp8.py at 00563d368df9,
//     fp8_utils.py); its Fp8MoEMethod has no Marlin path there and runs
//     the Triton fused MoE, which on sm80 takes Triton's fp8e4b15 type and
//     16-bit MMAs (SGLang PR #31340): no timing of it was found, so it is
//     taken at the same share, an estimate.
//   - TensorRT-LLM: FP8 needs Ada or Hopper (its support matrix);
//     SupportFor runs the 16-bit model there, so this share never applies.
//
// The share is Marlin's large-batch rate against cuBLAS's 16-bit GEMM on an
// A100-class GPU: Marlin runs its 64-row tile repeatedly above 64 rows
// (Frantar, IST-DASLab/marlin issue #2: "for batchsizes > 64, it will just
// run the batch 64 kernel repeatedly") and levels off at 141 TFLOP/s
// while torch's FP16 matmul keeps rising, Marlin ÷ torch 0.74, 0.73,
// 0.66, 0.60, 0.61 at M = 256, 512, 1,024, 2,048, 4,000 (Marlin's
// bench.py, vLLM PR #2497, comment of 2024-01-24; the GPU is not named,
// but 141 TFLOP/s is above an A10's or RTX 4090's 16-bit peak and its
// 1,158 GB/s at batch 1 above an L40S's bandwidth: an A100 or A800).
// 0.66 is their median. An end-to-end A100 80GB point agrees: Llama-2-70B
// GPTQ 4-bit at 16 × 1k-token prompts prefills in 12.2 s with Marlin and
// 9.68 s with exllamav2, which dequantises to fp16 and calls cuBLAS there
// (IBM/text-generation-inference PR #51): 0.79 with attention included.
// Those rows are 4-bit Marlin; the FP8 kernel is the same gptq_marlin
// structure with an 8-bit dequantisation, and no FP8 Marlin timing above
// 64 rows was found, so the share stands for it, an estimate. Below the
// ridge the step is memory-bound and the share hardly moves it; there the
// kernel reads at marlinBandwidthShare, as GPTQ/AWQ Marlin does
// (newInferModel).
const fp8MarlinGEMMShare = 0.66

// FP8Marlin reports whether in's FP8 weights run as W8A16 Marlin on a GPU
// of generation g: a vLLM or SGLang inference on Turing or Ampere (no FP8
// tensor cores; fp8MarlinGEMMShare). The page and the CLI say so beside
// the figures.
func FP8Marlin(in Input, g Generation) bool {
	return in.Weights == FP8 && !in.Task.Training() && (in.Engine == VLLM || in.Engine == SGLang) &&
		(g == GenTuring || g == GenAmpere)
}

// fp8Marlin is FP8Marlin on hw's generation.
func fp8Marlin(in Input, hw Hardware) bool { return FP8Marlin(in, hw.Generation) }

// linearGEMMShare is the share of the matmul rate a serving step's
// linears reach by their weight format on hw beyond lowPrecisionGEMMShare:
// fp8MarlinGEMMShare for FP8 weights run as W8A16 Marlin, else 1.
// Attention's products are not linears and keep the 16-bit rate.
func linearGEMMShare(in Input, hw Hardware) float64 {
	if fp8Marlin(in, hw) {
		return fp8MarlinGEMMShare
	}
	return 1
}

// halfAccumGEMM reports whether in's linears run at hw.HalfAccumFLOPS:
// llama.cpp's F16 weights on a GPU whose FP16-accumulate tensor rate is
// above PeakFLOPS (GeForce). ggml-cuda multiplies an F16 weight above
// the vector kernels' batch through cuBLAS with CUBLAS_COMPUTE_16F, FP16
// accumulation, on every NVIDIA GPU after Volta (ggml-org/llama.cpp
// ggml/src/ggml-cuda/ggml-cuda.cu at 00108827d879:
// batched_mul_mat_traits<GGML_TYPE_F16>::compute_type, with FP32 output
// only for Volta, RDNA4 and CDNA; ggml_cuda_op_mul_mat_cublas's
// cu_compute_type = CUBLAS_COMPUTE_16F in the early-2024 builds, whose
// ggml-cuda.cu sets CUDA_USE_TENSOR_CORES unless GGML_CUDA_FORCE_MMQ). BF16
// weights multiply with CUBLAS_COMPUTE_32F (batched_mul_mat_traits
// <GGML_TYPE_BF16>), and GGUF quants run the MMQ int8 kernels on Turing
// and later (ggml_cuda_should_use_mmq: true where turing_mma_available),
// so neither reads the FP16-accumulate rate. The early-2024 builds
// dequantised quants to F16 for cuBLAS above 32 tokens ("max batch size
// to use MMQ kernels when tensor cores are available", MMQ_MAX_BATCH_SIZE
// 32); the build is not an input, so those take the current path.
// Decode steps of a few tokens run ggml's own vector kernels instead
// (ggml_cuda_should_use_mmvf); they are bandwidth-bound, so the rate the
// step model gives their matmuls barely moves them.
func halfAccumGEMM(in Input, hw Hardware) bool {
	return in.Engine == LlamaCpp && in.Weights == FP16 && in.Quant == QuantAuto && hw.HalfAccumFLOPS > hw.PeakFLOPS
}
