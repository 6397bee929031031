package estimator

import (
	"fmt"
	"math"
)

// SGLang's defaults that depend on the GPU: the prefill chunk, the largest
// decode batch it captures a CUDA graph for and, from those, the share of
// the GPU's memory it takes for the weights and the KV pool when the user
// sets no --mem-fraction-static.
//
// Source: sgl-project/sglang python/sglang/srt/server_args.py,
// ServerArgs._handle_gpu_memory_settings, read in two stored versions of
// the 0.5 line (one with the Ascend NPU tiers, late 2025; one with the
// piecewise CUDA-graph tokens of PR #15927, 2026-01), which agree on every
// line used here; the 2026-11 tree moved the same arithmetic into
// reserve_for_graph_mb, unchanged, and reserves DeepEP's buffers beside it
// (sglangDeepEPReserveMiB). The InferenceX SGLang images (v0.5.6 to
// v0.5.12, testdata/calibration/inferencex) fall in that line. Older
// releases took a share by TP size alone (0.88; 0.87 at TP ≥ 2, 0.85 at
// ≥ 4, 0.81 at ≥ 8, 0.79 at ≥ 16: ServerArgs.__post_init__ in stored
// 0.3/0.4 versions); the release that switched is not pinned, so it is
// not modelled.
//
// gpu_mem is the memory nvidia-smi (rocm-smi on AMD) reports as the
// card's total, in MiB (sglang/srt/utils get_device_memory_capacity):
// Input.VisibleVRAM where set, else Input.VRAM.

// SGLangGPUDefaults are SGLang's chunked_prefill_size and
// cuda_graph_max_bs on a GPU of vram bytes at tensor parallelism tp.
type SGLangGPUDefaults struct {
	ChunkedPrefillSize, CUDAGraphMaxBS int
}

// SGLangDefaults gives SGLang's chunk and CUDA-graph batch by the GPU's
// memory (_handle_gpu_memory_settings): under 20 GiB 2048 and 8 (T4,
// 4080); under 35 GiB 2048 and 24 (80 at TP ≥ 4; A10, 4090, 5090); under
// 60 GiB 4096 and 32 (160 at TP ≥ 4; A100 40 GB, L40); under 160 GiB 8192
// and 256 (512 at TP ≥ 4; H100, H200); above, 16384 and 512 (B200,
// MI300X).
func SGLangDefaults(vram Bytes, tp int) SGLangGPUDefaults {
	mib := float64(vram) / float64(MiB)
	wide := tp >= 4
	pick := func(narrow, w int) int {
		if wide {
			return w
		}
		return narrow
	}
	switch {
	case mib < 20*1024:
		return SGLangGPUDefaults{2048, 8}
	case mib < 35*1024:
		return SGLangGPUDefaults{2048, pick(24, 80)}
	case mib < 60*1024:
		return SGLangGPUDefaults{4096, pick(32, 160)}
	case mib < 160*1024:
		return SGLangGPUDefaults{8192, pick(256, 512)}
	}
	return SGLangGPUDefaults{16384, 512}
}

// sglangMemFractionStatic is SGLang's mem_fraction_static when none is set
// (_handle_gpu_memory_settings): the GPU's memory less a reserve for
// activations and CUDA graphs, in MiB,
//
//	reserved = 512 + max(chunk, 2048)·1.5 + graph_bs·2 + tp·pp/8·1024
//	         [+ graph_bs·dp·3, + graph_bs·dp·1.5 when graph_bs > 300,
//	            with data-parallel attention]
//
// at least 10 GiB on a GPU over 60 GiB, then 2 GiB more for DeepEP's
// all-to-all buffers where it runs with decode CUDA graphs
// (sglangDeepEPReserveMiB), as a share of the memory rounded to three
// places. The chunk is the user's --chunked-prefill-size
// (Input.MaxBatchedTokens) where set. Data-parallel attention is Input.DP
// above 1 (SGLang's --enable-dp-attention --dp-size). Speculative decoding
// and piecewise CUDA graphs, which reserve more, are not modelled; nor is
// a disaggregated prefill worker, whose graph and DeepEP reserves SGLang
// leaves out (the estimate keeps them: its share is the lower).
func sglangMemFractionStatic(in Input) float64 {
	vram := in.VRAM
	if in.VisibleVRAM > 0 {
		vram = in.VisibleVRAM
	}
	mib := float64(vram) / float64(MiB)
	if !(mib > 0) {
		return sglangMemFractionNoGPU
	}
	d := SGLangDefaults(vram, in.TP)
	chunk := d.ChunkedPrefillSize
	if in.MaxBatchedTokens > 0 {
		chunk = in.MaxBatchedTokens
	}
	bs := float64(d.CUDAGraphMaxBS)
	reserved := 512 + float64(max(chunk, 2048))*1.5 + bs*2 + float64(max(in.TP, 1)*max(in.PP, 1))/8*1024
	if dp := float64(in.DP); dp > 1 {
		reserved += bs * dp * 3
		if bs > 300 {
			reserved += bs * dp * 1.5
		}
	}
	if mib > 60*1024 {
		reserved = math.Max(reserved, 10*1024)
	}
	if SGLangDeepEP(in) && !in.EnforceEager {
		reserved += sglangDeepEPReserveMiB
	}
	// A reserve beyond the memory (DP attention over many ranks on a
	// small GPU) gives SGLang a share at or below 0, and no pool: 0.
	return math.Max(math.Round((mib-reserved)/mib*1000)/1000, 0)
}

// sglangGPUMemory is gpu_mem, the GPU memory SGLang reads (above):
// Input.VisibleVRAM where set, else Input.VRAM.
func sglangGPUMemory(in Input) Bytes {
	if in.VisibleVRAM > 0 {
		return in.VisibleVRAM
	}
	return in.VRAM
}

// sglangDeepEPReserveMiB is the MiB SGLang reserves beyond the floor for
// DeepEP's all-to-all buffers when --moe-a2a-backend is deepep and decode
// CUDA graphs are on ("DeepEP all-to-all buffers captured in the decode
// graph are real extra allocations, reserved on top of the floor":
// ServerArgs.reserve_for_deepep_a2a_mb, 2 × 1024, added after the 10 GiB
// floor in _handle_gpu_memory_settings; sgl-project/sglang
// python/sglang/srt/server_args.py at 001067fffe33, the release the
// launch's flags are read from, and arg_groups/memory_hook.py at
// 031ed82d8b5e). The launch runs DeepEP where SGLangDeepEP holds, and
// writes the share this reserve gives (--mem-fraction-static).
const sglangDeepEPReserveMiB = 2 * 1024

// sglangMemFractionNoGPU is SGLang's share when it cannot read the GPU's
// memory (the same function's fallback).
const sglangMemFractionNoGPU = 0.88

// TRTLLMFreeGPUMemoryFraction is TensorRT-LLM's default
// kv_cache_free_gpu_memory_fraction: the share of the memory still free
// after the model is loaded that its KV cache takes (KvCacheConfig
// free_gpu_memory_fraction, default 0.9; tensorrt_llm/llmapi/llm_args.py).
const TRTLLMFreeGPUMemoryFraction = 0.9

// MemShare is the serving engine's memory share the estimate sizes the KV
// pool with (EngineSettings.MemShare): Input.GPUMemUtil where the user
// set one, else the engine's own default — vLLM's gpu_memory_utilization
// 0.9, TensorRT-LLM's kv_cache_free_gpu_memory_fraction 0.9, SGLang's
// mem_fraction_static from the GPU's memory, TP, DP attention and chunk
// (sglangMemFractionStatic; 0 where its reserve exceeds the memory). 0 for
// an engine without a KV pool.
func (in Input) MemShare() float64 {
	if in.GPUMemUtil > 0 {
		return in.GPUMemUtil
	}
	switch in.Engine {
	case VLLM:
		return VLLMGPUMemoryUtilization
	case TRTLLM:
		return TRTLLMFreeGPUMemoryFraction
	case SGLang:
		return sglangMemFractionStatic(in)
	}
	return 0
}

// SGLangDPAttentionMemFraction is the --mem-fraction-static that SGLang
// deployments of DeepSeek-R1 FP8 with data-parallel attention set, where
// SGLang's default (sglangMemFractionStatic) reserves cuda_graph_max_bs ×
// dp × 4.5 MiB for the attention ranks' CUDA graphs — 36 GiB at DP 16 on
// an 80 GB H100, a share of 0.353, below the weights. The InferenceX
// recipes for two nodes of 8 × H100 (SemiAnalysisAI/InferenceX
// benchmarks/multi_node/srt-slurm-recipes/dsr1/sglang/h100-fp8/
// {1k1k,8k1k}/disagg/{stp,mtp}/h100-fp8-1p1d-max-dep*.yaml, commit
// aa430b5b, 2026-04-28; image lmsysorg/sglang:v0.5.8-cu130) run their
// TP 16 / DP-attention 16 / EP 16 workers at 0.9 without MTP and 0.85
// with it (with --cuda-graph-max-bs 64); their 8 × H200 DP-attention 8
// workers (h200-fp8/*/disagg/*/bs*-dep*.yaml, same commit, v0.5.8.post1)
// at 0.75 to 0.88. 0.85 is the lower H100 value: an aggregated copy runs
// prefill beside decode, which the decode-only workers' 0.9 leaves out.
// A sourced setting, not a fitted one.
const SGLangDPAttentionMemFraction = 0.85

// SGLangDPAttentionCUDAGraphMaxBS is the --cuda-graph-max-bs the same
// H100 recipes set beside that share (h100-fp8-1p1d-max-dep*.yaml, commit
// aa430b5b: 64), in place of SGLang's default 512 at TP ≥ 4
// (SGLangDefaults), whose graphs at DP attention SGLang itself reserves
// 4.5 MiB a batch slot a rank for: the share leaves 12 GiB of an 80 GB
// GPU, and 64 slots a rank × 16 ranks × 4.5 MiB is 4.5 GiB of it. A launch
// that sets SGLangDPAttentionMemFraction sets this with it.
const SGLangDPAttentionCUDAGraphMaxBS = 64

// SGLangTightMemFraction, SGLangTightChunk and SGLangTightCUDAGraphMaxBS
// are the --mem-fraction-static, --chunked-prefill-size and
// --cuda-graph-max-bs that InferenceX's SGLang recipes set together for
// DeepSeek-R1 FP8 at TP 4 on B200 and B300 (SemiAnalysisAI/InferenceX
// benchmarks/single_node/fixed_seq_len/dsr1_fp8_b200.sh and
// dsr1_fp8_b300.sh at 1b234994, 2026-06-02; since 2025-12-17 in
// dsr1_fp8_b200_docker.sh, commit 9d9d32a4b), where SGLang's default
// reserve (sglangMemFractionStatic: a 16,384-token chunk and graphs to
// batch 512 at TP ≥ 4, a share of 0.858 of a B200) leaves the 156.7 GiB of
// weights a GPU no KV pool. The smaller chunk and graph batch shrink the
// activations and graphs that the remaining 5% holds. A sourced setting,
// not a fitted one.
const (
	SGLangTightMemFraction    = 0.95
	SGLangTightChunk          = 8192
	SGLangTightCUDAGraphMaxBS = 32
)

// ShareFix is a serving engine's memory share where its default leaves a
// job no KV pool, with what the recipes that set it set beside it.
type ShareFix struct {
	// Share is the --gpu-mem-util that fits (SGLang's
	// --mem-fraction-static).
	Share float64
	// CUDAGraphMaxBS and Chunk are SGLang's --cuda-graph-max-bs and
	// --chunked-prefill-size the recipes set with the share; Chunk 0: the
	// job's own (or the engine's default).
	CUDAGraphMaxBS, Chunk int
	// Cause says what in the default share leaves no pool; Recipe names
	// the recipes that set Share (both English, for the CLI and the
	// disaggregated estimate's message).
	Cause, Recipe string
}

// Apply is in at the fix: its share, the chunk the recipes set where in
// sets none or a larger one, and the recipes' CUDA-graph batch where in
// sets none (the launch writes it: decode steps past it run eager).
func (f ShareFix) Apply(in Input) Input {
	in.GPUMemUtil = f.Share
	if in.CUDAGraphMaxBS == 0 && in.Engine == SGLang {
		in.CUDAGraphMaxBS = f.CUDAGraphMaxBS
	}
	if f.Chunk > 0 && (in.MaxBatchedTokens == 0 || in.MaxBatchedTokens > f.Chunk) {
		in.MaxBatchedTokens = f.Chunk
	}
	return in
}

// Flags is the fix as Rightsize's options: --gpu-mem-util, and
// --max-batched-tokens where it sets a chunk.
func (f ShareFix) Flags() string {
	return f.flags("--gpu-mem-util %g", " --max-batched-tokens %d", "")
}

// EngineFlags is the fix as SGLang's own flags.
func (f ShareFix) EngineFlags() string {
	return f.flags("--mem-fraction-static %g", " --chunked-prefill-size %d", " --cuda-graph-max-bs %d")
}

// PlannedShareFix is the fix a memory share set on an SGLang copy's or
// worker's layout by the planner (plan.Row.MemShare, DisaggSide.MemShare)
// stands for: the attention-DP recipes' share comes with their
// --cuda-graph-max-bs (SGLangDPAttentionCUDAGraphMaxBS), which the launch
// writes beside it, so an estimate at the share prices decode steps past
// that cap eager (ShareFix.Apply) as the launched engine runs them. share
// on a copy without attention DP (or another engine) sets the share alone.
func PlannedShareFix(share float64, in Input) ShareFix {
	f := ShareFix{Share: share}
	if in.Engine == SGLang && in.DP > 1 {
		f.CUDAGraphMaxBS = SGLangDPAttentionCUDAGraphMaxBS
	}
	return f
}

// flags writes the share, the chunk where the fix sets one and the graph
// batch where graphs names a flag for it.
func (f ShareFix) flags(share, chunk, graphs string) string {
	s := fmt.Sprintf(share, f.Share)
	if f.Chunk > 0 {
		s += fmt.Sprintf(chunk, f.Chunk)
	}
	if graphs != "" && f.CUDAGraphMaxBS > 0 {
		s += fmt.Sprintf(graphs, f.CUDAGraphMaxBS)
	}
	return s
}

// EngineShareFor is the fix for SGLang with no --gpu-mem-util where in
// does not fit as set and fits at the fix (ShareFix.Apply): under
// data-parallel attention (Input.DP > 1), whose default
// mem_fraction_static (MemShare) is below SGLangDPAttentionMemFraction,
// that share with SGLangDPAttentionCUDAGraphMaxBS; without it, where the
// default is below SGLangTightMemFraction, that share with
// SGLangTightChunk and SGLangTightCUDAGraphMaxBS. The planner sets the
// attention-DP share on such copies (it does not plan the tight one: its
// rows carry no chunk) and the launch writes either
// (--mem-fraction-static, and the graph batch and chunk); the CLI's
// estimate names it. ok is false for every other input, vLLM's and
// TensorRT-LLM's included (their defaults, 0.9, do not grow with DP).
func EngineShareFor(in Input) (ShareFix, bool) {
	if in.Engine != SGLang || in.Task.Training() || in.GPUMemUtil != 0 {
		return ShareFix{}, false
	}
	f := ShareFix{Share: SGLangTightMemFraction, CUDAGraphMaxBS: SGLangTightCUDAGraphMaxBS, Chunk: SGLangTightChunk,
		Cause:  "its reserve for the prefill chunk and CUDA graphs",
		Recipe: "as InferenceX's SGLang DeepSeek-R1 FP8 recipes at TP 4 on B200 and B300 set"}
	switch {
	case in.DP > 1:
		f = ShareFix{Share: SGLangDPAttentionMemFraction, CUDAGraphMaxBS: SGLangDPAttentionCUDAGraphMaxBS,
			Cause:  "its CUDA-graph reserve grows with attention DP " + itoa(in.DP),
			Recipe: "as InferenceX's SGLang DeepSeek-R1 multi-node recipes set"}
	case sglangGPUMemory(in) < 160*GiB:
		// The TP-4 recipes run GPUs of 180 GB and more, whose 5% holds
		// the smaller chunk's activations and graphs; SGLang's own
		// default takes its 16,384-token chunk there too
		// (SGLangDefaults). On a smaller GPU 5% may not.
		return ShareFix{}, false
	}
	if sglangMemFractionStatic(in) >= f.Share {
		return ShareFix{}, false
	}
	if r, err := Estimate(in); err != nil || r.Fits {
		return ShareFix{}, false
	}
	if r, err := Estimate(f.Apply(in)); err != nil || !r.Fits {
		return ShareFix{}, false
	}
	return f, true
}
