package estimator

// Achieved rates: the share of the datasheet peaks each phase reaches.

import (
	"math"
)

// Default efficiencies for inference. Sources and fits are in
// testdata/calibration/README.md and perf_test.go.
const (
	// defaultInferenceMFU: share of peak for the compute-bound inference
	// phases. Fitted to the prefill-heavy TensorRT-LLM H100 FP8 rows
	// (prompt 2048–20000, output 128–2000: within ±10% at 0.50 with
	// max(compute, memory); −13..+15% with inferenceRoofK and
	// layerOverhead), so fitted, not validated.
	defaultInferenceMFU = 0.50
	// defaultBandwidthUtil: share of datasheet bandwidth while decoding.
	// BLOOM-176B bf16 at batch 1 on 8×A100 (accelerate) reads 352 GB in
	// 230 ms: 0.75 of 8 × 2039 GB/s run in sequence (fitted to that row,
	// not validated); the memory-bound TensorRT-LLM rows then land within
	// −13..+4% at TP 1–2 (with inferenceRoofK and layerOverhead), and the
	// HF transformers BF16 rows of the bitsandbytes table on an RTX 4090,
	// where the device, not the host, bounds the step, within 1%.
	defaultBandwidthUtil = 0.75
	// llamaCppBandwidthUtil: llama.cpp's CUDA mat-vec kernels on GGUF
	// blocks. Fitted to the llama-bench tg128 rows of builds from 2025 on
	// (RTX 4080 Qwen2.5-7B Q4_K_M, RTX 6000 Ada Llama 3B Q4_K_M and 8B
	// Q4_0; public-2026-11/llama_cpp_llama_bench.json) with
	// llamaCppLayerSeconds: within −6..+8%. The early-2024 builds are
	// test rows (see validate).
	llamaCppBandwidthUtil = 0.85
)

// DefaultEfficiency returns the inference efficiencies Throughput uses for
// in when the caller gives none, and the training MFU of a GPU of unknown
// generation with the architecture's width (trainEfficiency refines it
// with the Hardware).
func DefaultEfficiency(in Input) Efficiency {
	e := Efficiency{MFU: trainEfficiency(in, Hardware{}), InferenceMFU: defaultInferenceMFU, BandwidthUtil: defaultBandwidthUtil}
	switch {
	case in.Task.Training():
	case in.Engine == LlamaCpp:
		e.BandwidthUtil = llamaCppBandwidthUtil
	}
	return e
}

// resolve fills eff's zero fields from the model.
func (eff Efficiency) resolve(in Input, hw Hardware) Efficiency {
	d := DefaultEfficiency(in)
	if eff.MFU == 0 {
		eff.MFU = trainEfficiency(in, hw)
	}
	if eff.InferenceMFU == 0 {
		eff.InferenceMFU = d.InferenceMFU
	}
	if eff.BandwidthUtil == 0 {
		eff.BandwidthUtil = d.BandwidthUtil
	}
	return eff
}

// Training compute efficiency (hardware FLOPs / peak while computing,
// before collectives, offload and the pipeline bubble):
//
//	e = e_gen / (1 + trainWidthK · (peak / bandwidth) / h)
//
// A transformer layer spends 24·h² FLOPs per token in matmuls and moves
// O(h) bytes per token in its memory-bound operators (norms, activation
// functions, residual adds, softmax, dropout: Korthikanti et al. 2022
// Table 2 counts 34·s·b·h bytes of them per layer), so their time relative
// to the matmuls scales as (peak/bandwidth)/h: narrow models and GPUs with
// more FLOP/s per byte of bandwidth reach less of peak. e_gen is the
// matmul efficiency of the generation (large GEMMs reach less of the
// datasheet peak on Hopper, whose peak is set at a boost clock that power
// limits do not sustain).
//
// Fitted (least median relative error) to the hardware utilisation
// (HFU) of the 8-GPU BF16 rows of llm-foundry's MPT benchmark table
// (public-2026-11/llm_foundry_benchmarks.json: 125M–70B, seq 512–65536,
// A100 40/80GB and H100; 4.4% median error on those rows). The 16–512 GPU
// rows are the test slice (their collectives cross nodes).
const (
	trainWidthK    = 1.5
	trainEffAmpere = 0.64
	trainEffHopper = 0.44
	// trainEffUnknown: other and unknown generations (Volta, Turing,
	// Ada, AMD, ...) take the mean of the two calibrated ones, an
	// estimate; the band widens (trainUncertainty).
	trainEffUnknown = (trainEffAmpere + trainEffHopper) / 2
)

// Generation is a GPU's architecture generation. The catalog maps its
// datasheet architecture names to it (catalog.GPU.Generation); the
// estimator never reads a name.
type Generation int

const (
	GenUnknown Generation = iota
	GenPascal
	GenVolta
	GenTuring
	GenAmpere
	GenAda
	GenHopper
	GenBlackwell // Blackwell and Blackwell Ultra
	GenCDNA2
	GenCDNA3
	GenCDNA4
	GenGaudi
)

var generationNames = [...]string{GenUnknown: "unknown", GenPascal: "Pascal", GenVolta: "Volta", GenTuring: "Turing",
	GenAmpere: "Ampere", GenAda: "Ada Lovelace", GenHopper: "Hopper", GenBlackwell: "Blackwell", GenCDNA2: "CDNA2",
	GenCDNA3: "CDNA3", GenCDNA4: "CDNA4", GenGaudi: "Gaudi"}

func (g Generation) String() string { return enumName(generationNames[:], int(g), "Generation") }

// calibratedGeneration reports whether g is one the training model was
// fitted on (Blackwell is not: it is assumed like Hopper).
func calibratedGeneration(g Generation) bool { return g == GenAmpere || g == GenHopper }

// trainEfficiency is the modelled training compute efficiency for in on
// hw (hw.PeakFLOPS or MemBandwidth 0: an A100-like ratio of 153 FLOP per
// byte).
func trainEfficiency(in Input, hw Hardware) float64 {
	e := trainEffUnknown
	switch hw.Generation {
	case GenAmpere:
		e = trainEffAmpere
	case GenHopper, GenBlackwell: // Blackwell assumed like Hopper: not calibrated
		e = trainEffHopper
	}
	ratio := 312e12 / 2039e9 // A100 SXM 80GB datasheet
	if hw.PeakFLOPS > 0 && hw.MemBandwidth > 0 {
		ratio = hw.PeakFLOPS / hw.MemBandwidth
	}
	h := float64(in.Arch.Hidden)
	if h <= 0 {
		return e
	}
	return e / (1 + trainWidthK*ratio/h)
}

// Inference forward-pass shape. Both constants are fitted (not validated)
// to the TensorRT-LLM H100 rows and SGLang's Llama-3-8B decode steps.
const (
	// inferenceRoofK combines compute time c and memory time m as
	// (c^k + m^k)^(1/k) instead of max(c, m). The roofline is an upper
	// bound on attainable performance (Williams et al. 2009), reached only
	// far from the ridge point; an LLM forward pass is a chain of kernels,
	// some compute-bound and some memory-bound, and summing per-operator
	// roofline times, as LLM-Viewer does (Yuan et al. 2024, "LLM Inference
	// Unveiled: Survey and Roofline Model Insights", arXiv:2402.16363),
	// lands between max(c, m) and c + m. k = 1.5 is fitted to the
	// TensorRT-LLM H100 decode-heavy rows and the SGLang batch-128 step
	// (1.4–1.6 fit about equally; max(c, m), k = ∞, left Llama-3.1-405B
	// TP 8 up to +81% fast and the SGLang step −42%). At c = m it is
	// 2^(2/3) ≈ 1.59 × max; at c = m/4, 1.04 × max.
	inferenceRoofK = 1.5
	// layerOverhead is seconds per layer per forward pass that move no
	// weights under CUDA graphs: kernel setup and teardown between the
	// several kernels of a layer (Hazy Research 2025, "Look Ma, No
	// Bubbles!": vLLM and SGLang use at most 50% of H100 bandwidth
	// decoding Llama-3.2-1B at batch 1, about a hundred kernels per
	// forward). Fitted to SGLang's Llama-3-8B batch-1 decode step on an
	// H100 (7.37 ms against 5.98 ms of memory time at
	// defaultBandwidthUtil: 43 µs × 32 layers), rounded down to 40 µs.
	layerOverhead = 40e-6
)

// rooflineTime is (c^k + m^k)^(1/k) with k = inferenceRoofK, scaled by the
// larger term so it neither overflows nor underflows; it is ≥ max(c, m),
// ≤ c + m, and non-decreasing in both.
//
// With k = 3/2 and r = min/max ≤ 1 it is max·(1 + r·√r)^(2/3): a square
// root and the power 2/3 of s = 1 + r·√r in [1, 2] (pow23) instead of
// three math.Pow calls, which were a quarter of a serving plan's time
// (the simulator prices every engine step with it). TestRooflineTime
// holds it to the general form. The built-in max and min give math.Max's
// and math.Min's results for every input, NaN, infinities and signed
// zeros included (the Go spec's table of them), without the call to their
// assembly that math.Max and math.Min make on amd64.
func rooflineTime(c, m float64) float64 {
	hi := max(c, m)
	if !(hi > 0) || math.IsInf(hi, 1) {
		return hi
	}
	r := min(c, m) / hi
	return hi * pow23(1+r*math.Sqrt(r))
}

// pow23Steps is the intervals of pow23's table over [1, 2].
const pow23Steps = 128

// pow23Table holds s^(2/3) = ∛(s²) at s = 1 + i/pow23Steps, i = 0 …
// pow23Steps (each s and s² exact), from math.Cbrt.
var pow23Table = func() (t [pow23Steps + 1]float64) {
	for i := range t {
		s := 1 + float64(i)/pow23Steps
		t[i] = math.Cbrt(s * s)
	}
	return t
}()

// pow23 is s^(2/3) for s in [1, 2], within two ulps of math.Cbrt(s*s),
// which it replaces in rooflineTime: math.Cbrt reduces its argument and
// refines its guess with five divisions, and was an eighth of a serving
// plan's time. Here the guess y₀ is the table's linear interpolation
// (relative error below h²/36 ≈ 1.7·10⁻⁶ for steps of h = 1/128, the
// second derivative of s^(2/3) being −(2/9)·s^(−4/3)), and one
// correction y = y₀·(1 + ε)^(1/3) with ε = s²/y₀³ − 1 (|ε| < 6·10⁻⁶),
// taken to its ε² term (1 + ε/3 − ε²/9; the next, 5ε³/81, is below
// 2·10⁻¹⁷), brings it to the rounding of those few operations: one
// division in all. At s = 1 it is 1 exactly (the table's first entry,
// ε = 0), so a step that is all compute or all memory stays at
// max(c, m). TestPow23 holds it to math.Cbrt over [1, 2] and checks that
// it never falls by more than an ulp as s grows (rooflineTime's other
// roundings already allow as much).
func pow23(s float64) float64 {
	u := (s - 1) * pow23Steps
	i := min(max(int(u), 0), pow23Steps-1)
	a, b := pow23Table[i], pow23Table[i+1]
	y := a + (u-float64(i))*(b-a)
	e := s*s/(y*y*y) - 1
	return y + y*e*(1.0/3-e*(1.0/9))
}

// matmulParams is N for the FLOP counts: the parameters a token multiplies
// by. The input embedding is a lookup, not a matmul, and is left out unless
// it is tied to the LM head (which is a matmul over the vocabulary), as in
// Megatron's count 72·B·s·L·h²·(1 + s/6h + V/(12hL)) (Narayanan et al.
// 2021, Appendix; Korthikanti et al. 2022 §6.3), whose V term is the head.
func matmulParams(a Arch) float64 {
	n := float64(a.ActiveParamCount)
	if !a.TiedEmbeddings || a.Encoder {
		n -= float64(a.EmbeddingParams)
	}
	return math.Max(n, 0)
}

// attnLayerCtx is Σ over layers of the context each attends to, for a
// token that sees ctx previous tokens: sliding-window layers see at most
// their window.
func attnLayerCtx(a Arch, ctx float64) float64 { return a.AttendedContext(ctx) }

// attnFLOPs is the forward FLOPs of the attention scores and the weighted
// sum of values for one token over contexts summing to lctx (Σ layers of
// context): 2·ctx·d_attn for Q·Kᵀ and 2·ctx·d_attn for scores·V per layer
// (Kaplan et al. 2020 Table 1 counts the first; PaLM Appendix B both, as
// 12·L·H·Q·T for forward and backward, i.e. 4·L·T·d_attn forward).
func attnFLOPs(a Arch, lctx float64) float64 {
	return 4 * lctx * float64(a.qDim())
}

// NodeGPUs is how many GPUs share one node's network: the NVLink domain,
// or 8 (an HGX board) when it is not set, as withDefaults assumes.
func (hw Hardware) NodeGPUs() int {
	if hw.NVLinkDomain > 0 {
		return hw.NVLinkDomain
	}
	return 8
}

// ResolveEfficiency is the efficiency Throughput uses for in on hw: eff's
// zero fields filled from the model (trainEfficiency refines the training
// MFU by hw's generation and FLOP-per-byte ratio). Perf.ComputeEfficiency
// and Perf.BandwidthUtil report the same figures; a page that shows "the
// MFU assumed" shows this one.
func ResolveEfficiency(in Input, hw Hardware, eff Efficiency) Efficiency { return eff.resolve(in, hw) }
