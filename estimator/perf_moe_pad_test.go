package estimator

import (
	"math"
	"testing"
)

// TestMoEPaddedRows pins the padded rows of a hand-computed case: 256
// experts, top-8, a 128-row tile. One token touches 8 experts, each padded
// to a whole tile: 8 · 128 = 1,024 rows for 8 real ones. Eight tokens touch
// 256·(1 − (31/32)⁸) experts on average, none of them past one tile. 1,024
// tokens give each expert 32 rows on average (sd 5.6), so every expert
// takes exactly one tile: 256 · 128 = 32,768 rows for 8,192, 4×.
func TestMoEPaddedRows(t *testing.T) {
	const e, k, tile = 256.0, 8.0, 128.0
	p := k / e
	rows := func(tokens float64) float64 {
		return e * moePaddedRows(tokens, p, tile, math.Pow(1-p, tokens))
	}
	for _, c := range []struct{ tokens, want float64 }{
		{1, 1024},
		{8, 256 * 128 * (1 - math.Pow(31.0/32, 8))}, // 7,349.9
		{1024, 32768},
	} {
		if got := rows(c.tokens); math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("%v tokens: %.2f padded rows, want %.2f", c.tokens, got, c.want)
		}
	}
	if got := rows(8); math.Abs(got-7349.9) > 0.1 {
		t.Errorf("8 tokens: %.2f padded rows, want 7,349.9", got)
	}
	// No tokens, no rows; a tile of 1 is no padding.
	if got := moePaddedRows(0, p, tile, 1); got != 0 {
		t.Errorf("0 tokens: %v rows", got)
	}
	if got := moePaddedRows(4096, p, 1, math.Pow(1-p, 4096)); math.Abs(got-4096*p) > 0.01*4096*p {
		t.Errorf("tile 1: %.2f rows per expert, want the mean %.2f", got, 4096*p)
	}
}

// TestMoEPaddedRowsAgainstBinomial holds the normal approximation of
// moePaddedRows to the exact E[ceil(t/M)·M] for t ~ Binomial(T, p), summed
// over the binomial's mass, within 1.5% (the normal law misses the binomial's skew at a few tiles per expert) where the tiles the engines use meet
// a few tokens per expert and many.
func TestMoEPaddedRowsAgainstBinomial(t *testing.T) {
	exact := func(n int, p, tile float64) float64 {
		// pmf by the recurrence P(t+1) = P(t)·(n−t)/(t+1)·p/(1−p), in logs.
		var sum float64
		lp := float64(n) * math.Log1p(-p)
		for i := 0; i <= n; i++ {
			if i > 0 {
				lp += math.Log(float64(n-i+1)/float64(i)) + math.Log(p/(1-p))
			}
			sum += math.Exp(lp) * tile * math.Ceil(float64(i)/tile)
		}
		return sum
	}
	for _, c := range []struct {
		n       int
		p, tile float64
	}{
		{64, 8.0 / 256, 16}, {512, 8.0 / 256, 16}, {700, 8.0 / 256, 16}, {1024, 8.0 / 256, 64},
		{4096, 8.0 / 256, 64}, {16384, 8.0 / 256, 128}, {8192, 4.0 / 128, 64}, {2048, 2.0 / 8, 64},
	} {
		want := exact(c.n, c.p, c.tile)
		got := moePaddedRows(float64(c.n), c.p, c.tile, math.Pow(1-c.p, float64(c.n)))
		t.Logf("T=%d p=%.4f M=%v: %.3f rows per expert, exact %.3f (%+.2f%%)", c.n, c.p, c.tile, got, want, 100*(got/want-1))
		if math.Abs(got/want-1) > 0.015 {
			t.Errorf("T=%d p=%.4f M=%v: %.2f rows per expert, exact %.2f", c.n, c.p, c.tile, got, want)
		}
	}
}

// TestMoEPadSlowsPrefill: a 1,024-token prefill step of DeepSeek-V3 on
// SGLang (TP 8, Triton fused_moe, 64-row tiles at that step: 32 rows per
// expert on average, so each expert's rows double) takes longer than the
// same step priced without the padding; a decode step of 8 sequences
// stays memory-bound and moves by under 5% (one row per touched expert in
// a 16-row tile: 16× the routed FLOPs, still far under the weight reads,
// which the roofline's soft corner charges a little); and a dense model's
// prefill step has no routed experts to pad.
func TestMoEPadSlowsPrefill(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.DP, in.EP, in.GPUs = 8, 1, 1, 8
	m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	if m.tile.at(1024) != moeTritonTileLarge || m.tile.at(8) != moeTritonTileSmall {
		t.Fatalf("SGLang TP 8 tile: %+v", m.tile)
	}
	flat := m
	flat.tile = moeTile{}
	padded, _ := m.deviceSum(1024, 1024*512, 0)
	plain, _ := flat.deviceSum(1024, 1024*512, 0)
	if r := padded / plain; !(r > 1.1 && r < 2) {
		t.Errorf("1,024-token prefill step: %.4g s padded, %.4g s unpadded (×%.3f), want ×1.1–2", padded, plain, r)
	}
	if f := m.moePadFactor(1024, m.untouched(1024)); math.Abs(f-2) > 0.01 {
		t.Errorf("pad factor at 1,024 tokens: %.3f, want 2 (64-row tiles, 32 rows per expert)", f)
	}
	dPad, memBound := m.deviceSum(8, 8*4096, 8*m.kvSeq(4096))
	dPlain, _ := flat.deviceSum(8, 8*4096, 8*m.kvSeq(4096))
	if r := dPad / dPlain; !memBound || !(r >= 1 && r < 1.05) {
		t.Errorf("decode step of 8: %.4g s padded, %.4g unpadded (×%.3f, memory-bound %v), want memory-bound and under 5%% more", dPad, dPlain, r, memBound)
	}

	ll := DefaultInput(perfArch(t, "llama-3.1-70b.json"))
	ll.Task, ll.Engine, ll.Weights, ll.KV, ll.TP, ll.GPUs = Inference, SGLang, FP8, BF16, 8, 8
	d := newInferModel(ll, hw, Efficiency{}.resolve(ll, hw))
	if d.routedSecs != 0 || d.tile.large != 0 {
		t.Errorf("dense model: routed %v s/token, tile %+v; want none", d.routedSecs, d.tile)
	}
	dd := d
	dd.tile = moeTile{moeTritonTileSmall, moeTritonTileLarge, moeTritonTileSwitch}
	a, _ := d.deviceSum(1024, 1024*512, 0)
	b, _ := dd.deviceSum(1024, 1024*512, 0)
	if a != b {
		t.Errorf("dense prefill step: %v s, %v s with a tile; want equal", a, b)
	}
}

// TestMoETileByEngine: the tile follows the engine and backend the
// source names (perf_moe_pad.go): vLLM and SGLang's Triton fused_moe 16
// rows up to 768 tokens a step and 64 above, for FP8 and 16-bit experts;
// none under SGLang's DeepEP (attention DP with EP), for FP4 and int4
// experts, on TensorRT-LLM, on AMD GPUs and for dense models.
func TestMoETileByEngine(t *testing.T) {
	in, hw := disaggInput(t)
	triton := moeTile{16, 64, 768}
	in.TP, in.DP, in.EP, in.GPUs = 8, 1, 8, 8
	if got := newMoETile(in, hw); got != triton || got.at(768) != 16 || got.at(769) != 64 {
		t.Errorf("SGLang TP 8 EP 8 FP8: %+v, want Triton 16/64 switching above 768 tokens", got)
	}
	in.DP = 8
	if got := newMoETile(in, hw); got != (moeTile{}) {
		t.Errorf("SGLang DeepEP: %+v, want none", got)
	}
	in.DP, in.Engine = 1, VLLM
	if got := newMoETile(in, hw); got != triton {
		t.Errorf("vLLM FP8: %+v, want Triton 16/64", got)
	}
	in.Weights = BF16
	if got := newMoETile(in, hw); got != triton {
		t.Errorf("vLLM BF16: %+v, want Triton 16/64", got)
	}
	for _, w := range []DType{FP4, INT4} {
		in.Weights = w
		if got := newMoETile(in, hw); got != (moeTile{}) {
			t.Errorf("vLLM %v: %+v, want none", w, got)
		}
	}
	in.Weights, in.Engine = FP8, TRTLLM
	if got := newMoETile(in, hw); got != (moeTile{}) {
		t.Errorf("TensorRT-LLM: %+v, want none", got)
	}
	in.Engine, hw.Generation = SGLang, GenCDNA3
	if got := newMoETile(in, hw); got != (moeTile{}) {
		t.Errorf("SGLang on CDNA3: %+v, want none", got)
	}
}

// BenchmarkMoEStep prices one DeepSeek-V3 step (SGLang TP 8) at the token
// counts a serving simulation meets, with the tile's padding and without
// it: the cost of moePadFactor per step.
func BenchmarkMoEStep(b *testing.B) {
	in := DefaultInput(loadArch(b, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.KV, in.VRAM = Inference, SGLang, FP8, BF16, 141*GiB
	in.TP, in.GPUs = 8, 8
	hw := Hardware{PeakFLOPS: 1979e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	flat := m
	flat.tile = moeTile{}
	for _, c := range []struct {
		name string
		m    *inferModel
	}{{"padded", &m}, {"unpadded", &flat}} {
		b.Run(c.name, func(b *testing.B) {
			var s float64
			for b.Loop() {
				for _, t := range []float64{1, 8, 64, 512, 1024, 8192} {
					d, _ := c.m.deviceSum(t, t*1000, t*1e6)
					s += d
				}
			}
			if !(s > 0) {
				b.Fatal(s)
			}
		})
	}
}
