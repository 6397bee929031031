package estimator

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
)

// h200KernelsFile is our own kernel timings on one H200 SXM (700 W board,
// 132 SMs, PyTorch 2.11 + CUDA 13.0, cuDNN 9.19; single calls after an L2
// flush, median of 5–30): testdata/calibration/device-h200-2026-11-30,
// made by testdata/calibration/device-kernels/kernels.py.
const h200KernelsFile = "testdata/calibration/device-h200-2026-11-30/kernels.json"

// h200SXM is the catalog's H200 SXM (catalog/data/gpus.json, id
// h200-sxm: 989.5 dense BF16 and 1,979 FP8 TFLOP/s, 4.8 TB/s, NVLink
// 900 GB/s both ways in a domain of 8), as catalog.GPU.Hardware builds it
// for BF16 weights; FP8 weights take the FP8 peak (h200SXMFP8).
var h200SXM = Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, NVLinkDomain: 8, Generation: GenHopper}

func h200SXMFP8() Hardware {
	hw := h200SXM
	hw.PeakFLOPS, hw.AttnFLOPS = 1979e12, 989.5e12
	return hw
}

// kernelPoint is one point of kernels.json (the script's schema
// "rightsize-device-kernels/1"): a timed call or a failed one (Error).
type kernelPoint struct {
	Section, Op, Dtype, Backend, Error string
	Model                              *string
	Shape                              struct {
		M, N, K, Batch, Context, Seq, Heads, Groups, Bytes float64
		QHeads                                             float64 `json:"q_heads"`
		KVHeads                                            float64 `json:"kv_heads"`
		HeadDim                                            float64 `json:"head_dim"`
		MPerGroup                                          float64 `json:"m_per_group"`
	}
	Seconds, Flops, TFLOPS float64
	SecondsMin             float64 `json:"seconds_min"`
	BytesMoved             float64 `json:"bytes"`
}

func (p kernelPoint) model() string {
	if p.Model == nil {
		return ""
	}
	return *p.Model
}

func loadH200Kernels(t *testing.T) []kernelPoint {
	t.Helper()
	var f struct {
		Schema string
		Points []kernelPoint
	}
	readTestJSON(t, h200KernelsFile, &f)
	if f.Schema != "rightsize-device-kernels/1" || len(f.Points) < 500 {
		t.Fatalf("%s: schema %q, %d points", h200KernelsFile, f.Schema, len(f.Points))
	}
	// A point whose median call took more than twice its fastest was
	// disturbed while it ran (9 of 594: e.g. Qwen3-14B's QKV at M 64,
	// median 4.5× its fastest call, where the same shape's neighbours are
	// within 1.1×); it is left out, not corrected.
	var timed []kernelPoint
	noisy := 0
	for _, p := range f.Points {
		switch {
		case p.Error != "":
		case !(p.Seconds > 0 && p.SecondsMin > 0):
			t.Fatalf("%s %s %s: %v s (fastest %v)", p.Op, p.model(), p.Backend, p.Seconds, p.SecondsMin)
		case p.Seconds > 2*p.SecondsMin:
			noisy++
		default:
			timed = append(timed, p)
		}
	}
	if noisy != 9 {
		t.Errorf("%d points with a median above twice their fastest call, want 9", noisy)
	}
	return timed
}

// h200DecodeModel is the serving step model of Llama 3.1 8B under vLLM at
// BF16 on one H200 SXM with the default efficiencies: its achieved FLOP/s
// (InferenceMFU of peak) and seconds per byte (1 / (BandwidthUtil of the
// bandwidth)) are what every decode and prefill step prices kernels at.
func h200DecodeModel(t *testing.T, hw Hardware, w DType) inferModel {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Engine, in.Weights, in.KV = Inference, VLLM, w, BF16
	return newInferModel(in, hw, DefaultEfficiency(in))
}

// gemmModelSeconds is the step model's time for one GEMM of m×k by k×n
// (groups of them), operands of elem bytes and a 16-bit output: its
// compute at the model's FLOP/s divided by gemmKCost(k), its bytes at the
// model's bandwidth, joined by rooflineTime, as deviceTerms joins them.
func gemmModelSeconds(m inferModel, groups, rows, n, k, elem float64) (secs, compute, mem float64) {
	compute = 2 * groups * rows * n * k * gemmKCost(k) / m.flops
	mem = groups * (elem*(n*k+rows*k) + 2*rows*n) * m.perBW
	return rooflineTime(compute, mem), compute, mem
}

// TestH200KernelCurves sets each kernel measured on our H200 beside the
// step model's own time for the same shape on the catalog's H200 SXM
// (default efficiencies: InferenceMFU 0.5 of 989.5 TFLOP/s, BandwidthUtil
// 0.75 of 4.8 TB/s; gemmKCost; rooflineTime), and the training attention
// kernels beside attnKernelSpeed. Ratios are the model's time over the
// kernel's: above 1 the model is slower than the kernel. The model's
// efficiencies are end-to-end fits (they carry what an engine adds to its
// kernels), so the kernels are expected to run at or above them; the
// assertions fail where the model becomes faster than the measured
// kernels by more than the per-layer fixed cost (layerOverhead) covers,
// or drifts away from them. testdata/calibration/README.md, eightieth
// round, reads the table.
func TestH200KernelCurves(t *testing.T) {
	pts := loadH200Kernels(t)
	bf16, fp8 := h200DecodeModel(t, h200SXM, BF16), h200DecodeModel(t, h200SXMFP8(), FP8)
	if math.Abs(bf16.flops-494.75e12) > 1e9 || math.Abs(1/bf16.perBW-3.6e12) > 1e9 || math.Abs(fp8.flops-989.5e12) > 1e9 {
		t.Fatalf("H200 step model: %.1f TFLOP/s, %.0f GB/s (FP8 %.1f), want 494.75, 3600 (989.5)", bf16.flops/1e12, 1/bf16.perBW/1e9, fp8.flops/1e12)
	}
	t.Run("gemm", func(t *testing.T) { h200GEMMs(t, pts, bf16, fp8) })
	t.Run("decode-linears", func(t *testing.T) { h200DecodeLinears(t, pts, bf16) })
	t.Run("decode-attention", func(t *testing.T) { h200DecodeAttention(t, pts, bf16) })
	t.Run("train-attention", func(t *testing.T) { h200TrainAttention(t, pts) })
	t.Run("moe", func(t *testing.T) { h200GroupedGEMMs(t, pts, bf16, fp8) })
}

// h200GEMMs: the dense BF16 and FP8 GEMMs at a training micro-batch (M
// 8192), at DeepGEMM's dense shapes (M 64–4096) and at Qwen3-14B decode
// sizes, the 8192³ reference, the FP8 speed-up the model gives (FP8 peak
// twice BF16's, operands half the bytes) against the measured one, and
// the K curve of BF16 cuBLAS beside gemmKCost's.
func h200GEMMs(t *testing.T, pts []kernelPoint, bf16, fp8 inferModel) {
	type key struct {
		model   string
		m, n, k float64
	}
	bfPt, fpPt := map[key]kernelPoint{}, map[key]kernelPoint{}
	for _, p := range pts {
		if !(p.Op == "gemm_reference" || (p.Section == "fp8" && p.Op == "gemm")) {
			continue
		}
		k := key{p.model(), p.Shape.M, p.Shape.N, p.Shape.K}
		if k.model == "" {
			k.model = "reference 8192³"
		}
		if p.Dtype == "bf16" {
			bfPt[k] = p
		} else if b, ok := fpPt[k]; !ok || p.Seconds < b.Seconds {
			fpPt[k] = p // the fastest FP8 scaling of the three
		}
	}
	keys := sortedKeys2(bfPt, func(a, b key) bool {
		if a.model != b.model {
			return a.model < b.model
		}
		if a.m != b.m {
			return a.m < b.m
		}
		return a.n*a.k < b.n*b.k
	})
	t.Logf("%-24s %5s %5s %5s | %8s %6s %6s | %-18s %8s %6s %6s | %5s %5s", "GEMM", "M", "N", "K", "BF16", "model", "ratio", "best FP8", "TFLOP/s", "model", "ratio", "FP8×", "model")
	var kRows [][2]float64 // BF16 M 8192, N ≥ 4096: K, TFLOP/s
	for _, k := range keys {
		b := bfPt[k]
		bm, _, _ := gemmModelSeconds(bf16, 1, k.m, k.n, k.k, 2)
		line := fmt.Sprintf("%-24s %5.0f %5.0f %5.0f | %8.0f %6.0f %6.2f |", k.model, k.m, k.n, k.k, b.TFLOPS, b.Flops/bm/1e12, bm/b.Seconds)
		check := func(name string, model, kernel float64) {
			// Compute-bound (M ≥ 4096): the model's GEMM is slower than
			// the kernel's (its InferenceMFU is an end-to-end share),
			// up to 2.8× at K 512, where gemmK0 charges BF16 cuBLAS for
			// DeepGEMM FP8's K curve. Memory-bound (M ≤ 1024): the model
			// may be faster, by no more than a launch's fixed cost.
			ratio := model / kernel
			switch {
			case k.m >= 4096 && (ratio < 1 || ratio > 2.8):
				t.Errorf("%s M %v N %v K %v %s: model %.2f× the kernel's time, want 1–2.8×", k.model, k.m, k.n, k.k, name, ratio)
			case k.m < 4096 && (ratio > 2.5 || kernel-model > 15e-6):
				t.Errorf("%s M %v N %v K %v %s: model %.2f× the kernel's time, %.1f µs short; want ≤ 2.5× and ≤ 15 µs short", k.model, k.m, k.n, k.k, name, ratio, 1e6*(kernel-model))
			}
		}
		check("BF16", bm, b.Seconds)
		if f, ok := fpPt[k]; ok {
			fm, _, _ := gemmModelSeconds(fp8, 1, k.m, k.n, k.k, 1)
			up, modelUp := b.Seconds/f.Seconds, bm/fm
			line += fmt.Sprintf(" %-18s %8.0f %6.0f %6.2f | %5.2f %5.2f", f.Backend, f.TFLOPS, f.Flops/fm/1e12, fm/f.Seconds, up, modelUp)
			check(f.Backend, fm, f.Seconds)
			// The speed-up FP8 gets at a training micro-batch: measured
			// 1.57–1.85× (best scaling), below the model's ≈ 2.
			if k.m == 8192 && (up < 1.5 || up > modelUp) {
				t.Errorf("%s M 8192 N %v K %v: FP8 speed-up %.2f× measured, model %.2f×; want 1.5× ≤ measured ≤ model", k.model, k.n, k.k, up, modelUp)
			}
		}
		t.Log(line)
		if k.m == 8192 && k.n >= 4096 && !strings.HasPrefix(k.model, "reference") {
			kRows = append(kRows, [2]float64{k.k, b.TFLOPS})
		}
	}
	// The K curve of BF16 cuBLAS (N ≥ 4096, M 8192): the rate at K 1,024
	// against the deepest K, beside gemmKCost's. Fitted in the same form
	// e(K) = e∞·K/(K + K₀) on the Llama 3.1 70B TP 8 rows' two ends (K
	// 1,024: 700, K 8,192: 800 TFLOP/s), K₀ = 171 and e∞ = 817 hold the
	// other rows (Llama 3.1 8B, DeepGEMM's dense shapes at M 4096) within
	// 4%: a fourth of DeepGEMM FP8's 717. Not shipped
	// (testdata/calibration/README.md, eightieth round: GPUStack's held-back
	// rows move the wrong way).
	sort.Slice(kRows, func(i, j int) bool { return kRows[i][0] < kRows[j][0] })
	if len(kRows) < 4 || kRows[0][0] != 1024 {
		t.Fatalf("BF16 M 8192 rows by K: %v", kRows)
	}
	deep := 0.0
	for _, r := range kRows[1:] {
		deep = math.Max(deep, r[1])
	}
	measured, model := deep/kRows[0][1], gemmKCost(1024)
	t.Logf("BF16 K 1,024: %.0f TFLOP/s against %.0f at K ≥ 3,584 (cost %.3f); gemmKCost(1024) = %.3f", kRows[0][1], deep, measured, model)
	if measured > 1.2 || model < measured+0.2 {
		t.Errorf("K 1,024 cost: measured %.3f, gemmKCost %.3f: want the measured ≤ 1.2 and the model's above it by 0.2 (DeepGEMM FP8's K₀ = 717 charges BF16 cuBLAS more than it pays)", measured, model)
	}
	const k0, eInf = 171.0, 817.0
	for _, k := range keys {
		b := bfPt[k]
		if k.m < 4096 || k.n < 4096 {
			continue
		}
		if e := eInf*k.k/(k.k+k0)/b.TFLOPS - 1; math.Abs(e) > 0.045 {
			t.Errorf("%s M %v N %v K %v: BF16 curve %.0f TFLOP/s, measured %.0f (%+.1f%%), want within 4.5%%", k.model, k.m, k.n, k.k, eInf*k.k/(k.k+k0), b.TFLOPS, 100*e)
		}
	}
}

// h200DecodeLinears: a decoder layer's four linears at M tokens, summed,
// against the model's one roofline over them (its decode step's matmul
// compute and weight bytes). Each kernel pays a fixed cost beside its
// bytes; the model's per-layer layerOverhead (40 µs) stands for a layer's
// fixed costs. Fitted per kernel over the memory-bound points (M ≤ 16),
// t = t₀ + bytes / BW gives t₀ = 10.7 µs and BW = 4.0 TB/s against the
// model's 0 and 3.6 TB/s: the four linears' fixed costs (43 µs) are about
// layerOverhead, and the bytes are read a tenth faster than BandwidthUtil
// says.
func h200DecodeLinears(t *testing.T, pts []kernelPoint, m inferModel) {
	type acc struct{ kernel, compute, mem, bytes, n float64 }
	layers := map[string]map[float64]*acc{}
	var sx, sy, sxx, sxy, n float64 // least squares of seconds on bytes, M ≤ 16
	for _, p := range pts {
		if p.Section != "decode" || !strings.HasPrefix(p.Op, "linear_") {
			continue
		}
		byM := layers[p.model()]
		if byM == nil {
			byM = map[float64]*acc{}
			layers[p.model()] = byM
		}
		a := byM[p.Shape.M]
		if a == nil {
			a = &acc{}
			byM[p.Shape.M] = a
		}
		_, c, mem := gemmModelSeconds(m, 1, p.Shape.M, p.Shape.N, p.Shape.K, 2)
		a.kernel += p.Seconds
		a.compute += c
		a.mem += mem
		a.bytes += p.BytesMoved
		a.n++
		if p.Shape.M <= 16 {
			x, y := p.BytesMoved, p.Seconds
			sx, sy, sxx, sxy, n = sx+x, sy+y, sxx+x*x, sxy+x*y, n+1
		}
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	t0 := (sy - slope*sx) / n
	t.Logf("decode linears, M ≤ 16, %v kernels: t = %.1f µs + bytes / %.0f GB/s (model: 0 + bytes / %.0f GB/s, layerOverhead %.0f µs a layer)", n, 1e6*t0, 1/slope/1e9, 1/m.perBW/1e9, 1e6*layerOverhead)
	if bw := 1 / slope; bw < 3.6e12 || bw > 4.4e12 || t0 < 4e-6 || t0 > 12e-6 {
		t.Errorf("decode linears' fit: t₀ %.1f µs, %.0f GB/s; want 3,600–4,400 GB/s and 4–12 µs", 1e6*t0, bw/1e9)
	}
	t.Logf("%-20s %5s %9s %9s %9s %7s %9s", "decode layer linears", "M", "kernel µs", "GB/s", "model µs", "ratio", "excess µs")
	for _, model := range sortedKeys(layers) {
		for _, M := range sortedKeys(layers[model]) {
			a := layers[model][M]
			if a.n < 4 {
				t.Logf("%-20s %5.0f (a linear left out: disturbed)", model, M)
				continue
			}
			mt := rooflineTime(a.compute, a.mem)
			ratio, excess := mt/a.kernel, a.kernel-mt
			t.Logf("%-20s %5.0f %9.1f %9.0f %9.1f %7.2f %9.1f", model, M, 1e6*a.kernel, a.bytes/a.kernel/1e9, 1e6*mt, ratio, 1e6*excess)
			// To M 128 the layer is memory-bound and the kernels are
			// slower than the roofline by their fixed costs, within
			// layerOverhead. From M 256 the model's compute
			// (InferenceMFU) is 1.3–1.7× slower than cuBLAS's.
			lo, hi, short := 0.6, 1.2, layerOverhead
			if M >= 256 {
				lo, hi = 1.3, 1.75
			}
			if ratio < lo || ratio > hi || excess > short {
				t.Errorf("%s M %v: model %.2f× the kernels' time (want %.2f–%.2f×), %.1f µs short (want ≤ %.0f µs)", model, M, ratio, lo, hi, 1e6*excess, 1e6*short)
			}
		}
	}
}

// h200DecodeAttention: one layer's decode attention over a contiguous
// cache, best SDPA backend, against the model's roofline of attention's
// FLOPs (at InferenceMFU) and the bytes read (at BandwidthUtil).
func h200DecodeAttention(t *testing.T, pts []kernelPoint, m inferModel) {
	type key struct {
		model      string
		batch, ctx float64
	}
	best := map[key]kernelPoint{}
	for _, p := range pts {
		if p.Op != "decode_attention" {
			continue
		}
		k := key{p.model(), p.Shape.Batch, p.Shape.Context}
		if b, ok := best[k]; !ok || p.Seconds < b.Seconds {
			best[k] = p
		}
	}
	keys := make([]key, 0, len(best))
	for k := range best {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.model != b.model {
			return a.model < b.model
		}
		if a.batch != b.batch {
			return a.batch < b.batch
		}
		return a.ctx < b.ctx
	})
	t.Logf("%-20s %5s %6s %9s %7s %9s %6s %9s", "decode attention", "batch", "ctx", "kernel µs", "GB/s", "model µs", "ratio", "excess µs")
	for _, k := range keys {
		p := best[k]
		mt := rooflineTime(p.Flops/m.attnFlops, p.BytesMoved*m.perBW)
		ratio, excess := mt/p.Seconds, p.Seconds-mt
		t.Logf("%-20s %5.0f %6.0f %9.1f %7.0f %9.1f %6.2f %9.1f", k.model, k.batch, k.ctx, 1e6*p.Seconds, p.BytesMoved/p.Seconds/1e9, 1e6*mt, ratio, 1e6*excess)
		// Short caches run below BandwidthUtil by a fixed 7–13 µs
		// (1.3 TB/s at 64 × 512 of the 70B's one KV head a GPU), a
		// launch's cost that layerOverhead carries; from 512 MB of cache
		// the kernel reads at 4.0–4.6 TB/s and the model is 1.1–1.3×
		// slower.
		lo, hi := 0.35, 1.35
		if p.BytesMoved >= 512e6 {
			lo = 1.1
		}
		if ratio < lo || ratio > hi || excess > 15e-6 {
			t.Errorf("%s %v × %v: model %.2f× the kernel's time (want %.2f–%.2f×), %.1f µs short (want ≤ 15)", k.model, k.batch, k.ctx, ratio, lo, hi, 1e6*excess)
		}
	}
}

// h200TrainAttention: the measured speed of cuDNN's fused attention
// (SDPA's default on Hopper) over SDPA's FlashAttention-2 backend,
// forward + backward, against attnKernelSpeed's 1.62 (Shah et al. 2024,
// H100, the flash_attn package's FlashAttention-2), and cuDNN's rate
// against the paper's H100 figures.
func h200TrainAttention(t *testing.T, pts []kernelPoint) {
	type key struct {
		model string
		seq   float64
	}
	rate := map[key]map[string]float64{}
	for _, p := range pts {
		if p.Op != "attention_fwd_bwd" {
			continue
		}
		k := key{p.model(), p.Shape.Seq}
		if rate[k] == nil {
			rate[k] = map[string]float64{}
		}
		rate[k][p.Backend] = p.TFLOPS
	}
	// The paper's cuDNN, forward + backward at its count (1 + 2.5 units of
	// work over 1/fwd + 2.5/bwd), H100: forward 617 / 609 / 600 / 595,
	// backward 465 / 499 / 518 / 516 TFLOP/s at 2k…16k (perf_train.go).
	paper := map[float64]float64{}
	for i, L := range []float64{2048, 4096, 8192, 16384} {
		f, b := []float64{617, 609, 600, 595}[i], []float64{465, 499, 518, 516}[i]
		paper[L] = 3.5 / (1/f + 2.5/b)
	}
	cudnn := attnKernelSpeed(AttnCuDNN, GenHopper)
	t.Logf("%-18s %6s %8s %8s %8s %7s %7s", "train attention", "seq", "cuDNN", "FA2-sdpa", "paper", "speed", "model")
	for _, k := range sortedKeys2(rate, func(a, b key) bool { return a.model < b.model || a.model == b.model && a.seq < b.seq }) {
		r := rate[k]
		c, f := r["sdpa-cudnn"], r["sdpa-flash"]
		if d := r["sdpa-default"]; d > c {
			c = d // SDPA's default picks cuDNN on Hopper (the kernels' names)
		}
		speed := c / f
		t.Logf("%-18s %6.0f %8.0f %8.0f %8.0f %7.2f %7.2f", k.model, k.seq, c, f, paper[k.seq], speed, cudnn)
		// PyTorch's FlashAttention-2 backend is slower than the paper's,
		// so cuDNN's lead over it is larger than 1.62 (1.71–1.91): the
		// model's figure is not above what the board shows.
		if speed < cudnn || speed > 2 {
			t.Errorf("%s seq %v: cuDNN %.2f× SDPA's FlashAttention-2, want %.2f–2", k.model, k.seq, speed, cudnn)
		}
		if p := paper[k.seq]; p > 0 && math.Abs(c/p-1) > 0.15 {
			t.Errorf("%s seq %v: cuDNN %.0f TFLOP/s on the H200, paper's H100 %.0f: want within 15%%", k.model, k.seq, c, p)
		}
	}
}

// h200GroupedGEMMs: the MoE experts' grouped GEMMs by tokens per expert
// (best BF16 backend; FP8 row-wise), against the model's roofline of the
// same FLOPs at gemmKCost(K) and every expert's weights read once.
func h200GroupedGEMMs(t *testing.T, pts []kernelPoint, bf16, fp8 inferModel) {
	type key struct {
		model, dtype string
		tpe          float64
	}
	best := map[key]kernelPoint{}
	for _, p := range pts {
		if p.Op != "grouped_gemm" {
			continue
		}
		k := key{p.model(), p.Dtype, p.Shape.MPerGroup}
		if b, ok := best[k]; !ok || p.Seconds < b.Seconds {
			best[k] = p
		}
	}
	t.Logf("%-28s %-8s %6s %8s %7s %8s %6s", "grouped GEMM", "dtype", "tok/ex", "TFLOP/s", "GB/s", "model", "ratio")
	for _, k := range sortedKeys2(best, func(a, b key) bool {
		if a.model != b.model {
			return a.model < b.model
		}
		if a.dtype != b.dtype {
			return a.dtype < b.dtype
		}
		return a.tpe < b.tpe
	}) {
		p := best[k]
		m, elem := bf16, 2.0
		if k.dtype == "fp8_e4m3" {
			m, elem = fp8, 1
		}
		s := p.Shape
		mt, _, _ := gemmModelSeconds(m, s.Groups, s.MPerGroup, s.N, s.K, elem)
		ratio := mt / p.Seconds
		t.Logf("%-28s %-8s %6.0f %8.0f %7.0f %8.0f %6.2f", k.model, k.dtype, k.tpe, p.TFLOPS, p.BytesMoved/p.Seconds/1e9, p.Flops/mt/1e12, ratio)
		// BF16 (the best of bmm, _grouped_mm and a loop): up to 32
		// tokens an expert the kernels read every expert's weights at
		// 2.5–4.2 TB/s, the model at 3.6 (0.65–1.3×); from 128 the
		// model's compute is 1.45–2.55× slower. FP8 (PyTorch's row-wise
		// _scaled_grouped_mm, not an engine's kernel): up to 32 tokens it
		// reads the 1-byte weights at 1.7–2.8 TB/s, so the model is
		// faster (0.45–0.85×); its 512-token point is slow on Qwen3's
		// shapes; from 2,048 the model is 1.05–1.25× slower.
		lo, hi := 0.65, 1.3
		switch {
		case k.dtype == "fp8_e4m3" && k.tpe <= 32:
			lo, hi = 0.45, 0.85
		case k.dtype == "fp8_e4m3":
			lo, hi = 0.45, 1.25
		case k.tpe >= 128:
			lo, hi = 1.45, 2.55
		}
		if ratio < lo || ratio > hi {
			t.Errorf("%s %s %v tokens an expert: model %.2f× the kernel's time, want %.2f–%.2f×", k.model, k.dtype, k.tpe, ratio, lo, hi)
		}
	}
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return sortedKeys2(m, func(a, b K) bool { return a < b })
}

func sortedKeys2[K comparable, V any](m map[K]V, less func(a, b K) bool) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	return keys
}
