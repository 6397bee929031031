package estimator

// Grouped MoE GEMMs pad each expert's token rows to the kernel's M tile.
// The serving engines sort a step's (token, expert) pairs by expert and
// run one grouped GEMM over them in tiles of M rows, each tile belonging
// to one expert, so an expert that receives t rows costs ceil(t/M)·M rows
// of tensor-core work: the padding rows are multiplied with the rest of
// their tile (masked only on the store).
//   - vLLM and SGLang's Triton fused_moe: moe_align_block_size pads each
//     expert's rows to BLOCK_SIZE_M (vllm-project/vllm
//     vllm/model_executor/layers/fused_moe/fused_moe.py, fused_moe_kernel's
//     docstring: "padding ensures divisibility by BLOCK_SIZE_M"; the same
//     kernel in sgl-project/sglang
//     python/sglang/srt/layers/moe/fused_moe_triton/). BLOCK_SIZE_M comes
//     from a tuned table keyed by the step's token count: the DeepSeek-V3/R1
//     tables (E=256 / 257, N=256, H200, fp8_w8a8, block_shape [128, 128];
//     vllm .../fused_moe/configs/ at commit 645d18f, sglang
//     .../configs/triton_3_3_1/ at a309148) give 16 for 1–512 tokens and 64
//     for 1,024–4,096, the nearest key chosen (try_get_optimal_moe_config),
//     so 16 up to 768 tokens and 64 above (moeTritonTileSmall/Large/Switch).
//     The untuned default (get_default_config) is 16 when the step has no
//     more tokens than experts and 64 otherwise, for BF16 and FP16 experts
//     too. These tables hold FP8 (and the default 16-bit) experts only:
//     int4/int8 weight-only experts (moe_wna16, Marlin: the smallest of 8,
//     16, 32, 48, 64 rows that fits the step) and FP4 experts (gpt-oss's
//     MXFP4, NVFP4 on Blackwell) run other kernels and stay unpadded; with
//     the 16-row tile their decode steps (the InferenceX gpt-oss-120b H100
//     tables) went from 10.3% to 14.6% median |error| in TPOT.
//
// Not modelled, and why:
//   - DeepGEMM's m-grouped contiguous layout, which SGLang runs for FP8
//     experts under DeepEP (attention DP with expert parallelism), aligns
//     every expert segment to 128 rows (get_mk_alignment_for_contiguous_layout,
//     deepseek-ai/DeepGEMM csrc/utils/layout.hpp, v2.1.1;
//     kLegacyMKAlignmentForContiguousLayout in
//     csrc/jit_kernels/heuristics/runtime.hpp at 54e2261, 2026-06; SGLang's
//     python/sglang/srt/layers/moe/token_dispatcher/deepep_v2.py asks
//     DeepEP for the same _EXPERT_ALIGNMENT 128). That layout serves extend
//     (prefill) batches only; decode batches take DeepGEMM's masked layout
//     (deepep_v2.py: use_expand_layout = not get_is_extend_in_batch()),
//     whose block is a heuristic's, and a step here does not know which it
//     is. Padding every DeepEP step to 128 rows moved the disaggregated
//     TTFT test rows from 59.7% to 60.4% median |error| and its held-back
//     TPOT p90 from 44.0% to 53.6%, and nothing else.
//   - TensorRT-LLM's CUTLASS MoE GEMMs tile per expert too, but choose the
//     tile by profiling tactics at start-up, so its source holds no table
//     to read; AMD's AITER MoE kernels have none here either.

import "math"

// The Triton fused_moe tile (above).
const (
	moeTritonTileSmall  = 16
	moeTritonTileLarge  = 64
	moeTritonTileSwitch = 768 // tokens; midway between the table's 512 and 1,024 keys
)

// moeTile is the M tile a serving replica's grouped expert GEMMs pad each
// expert's rows to: small up to switch tokens a step, large above; zero
// where no padding is modelled.
type moeTile struct{ small, large, switchAt float64 }

func (t moeTile) at(tokens float64) float64 {
	if tokens <= t.switchAt {
		return t.small
	}
	return t.large
}

// newMoETile picks the tile of in's engine and backend on hw (see above):
// the Triton fused_moe tile for vLLM and for SGLang without DeepEP, with
// FP8, BF16 or FP16 experts on an NVIDIA GPU; none otherwise.
func newMoETile(in Input, hw Hardware) moeTile {
	if !in.Arch.IsMoE() || !nvidiaGEMMCurve(hw.Generation) {
		return moeTile{}
	}
	switch in.Weights {
	case FP8, BF16, FP16:
	default:
		return moeTile{}
	}
	switch {
	case in.Engine == VLLM, in.Engine == SGLang && !(in.EP > 1 && dpRanks(in) > 1):
		return moeTile{moeTritonTileSmall, moeTritonTileLarge, moeTritonTileSwitch}
	}
	return moeTile{}
}

// moePaddedRows is the expected rows one expert slot's grouped GEMM runs
// over in a step of tokens tokens, each routed to the slot with
// probability p (uniform routing: k of the E slots), at tile rows:
// E[ceil(t/M)·M] = M·Σ_{j≥0} P(t > jM) for t ~ Binomial(tokens, p). none
// is (1 − p)^tokens, which the caller has (gpuWeightRead's touched
// experts): the j = 0 term is exact; the others take the normal
// approximation with a continuity correction, summed only where P(t > jM)
// lies between 3·10⁻⁷ and 1 − 3·10⁻⁷ (|z| < 5), so a step costs a few
// math.Erfc at most. Once the spread reaches a tile (sd ≥ M) the padding
// ceil(t/M)·M − t is uniform on 0 … M − 1 to within e^(−2π²) of a row,
// and the rows are the mean plus (M − 1)/2 with no sum at all.
func moePaddedRows(tokens, p, tile, none float64) float64 {
	if tokens <= 0 || p <= 0 || tile <= 0 {
		return 0
	}
	mu := tokens * p
	sd := math.Sqrt(mu * (1 - p))
	if sd <= 0 {
		return tile * math.Max(math.Ceil(mu/tile), 0)
	}
	if sd >= tile {
		return mu + (tile-1)/2
	}
	sum := 1 - none
	// Tiles certainly full: P(t > jM) ≈ 1 for jM + ½ < mu − 5·sd.
	j := math.Max(math.Floor((mu-5*sd-0.5)/tile), 1)
	sum += j - 1
	for ; ; j++ {
		z := (j*tile + 0.5 - mu) / sd
		if z > 5 {
			break
		}
		sum += 0.5 * math.Erfc(z/math.Sqrt2)
	}
	return tile * sum
}

// moePadFactor is the routed experts' GEMM rows with the tile's padding
// relative to the rows without it, in a step of tokens tokens (at least
// 1); none is (1 − p)^tokens for the slot probability p.
func (m *inferModel) moePadFactor(tokens, none float64) float64 {
	tile := m.tile.at(tokens)
	if tile <= 0 || tokens <= 0 {
		return 1
	}
	p := m.k / (m.E * m.slots)
	return math.Max(moePaddedRows(tokens, p, tile, none)/(tokens*p), 1)
}
