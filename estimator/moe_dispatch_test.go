package estimator

import (
	"math"
	"testing"
)

// TestMoEDispatchBytes holds the expert-parallel exchange's bytes to what
// the engines send (moeDispatchBytes): TensorRT-LLM's NVFP4 dispatch under
// attention DP at 0.5625 bytes an element with the combine in 16 bits,
// (0.5625 + 2) / (2 + 2) of the 16-bit exchange; every other case at the
// activations' width both ways.
func TestMoEDispatchBytes(t *testing.T) {
	a := loadArch(t, "deepseek-v3.json")
	hw := Hardware{PeakFLOPS: 1e16, AttnFLOPS: 2.5e15, MemBandwidth: 8e12, LinkBandwidth: 9e11, Generation: GenBlackwell,
		NVLinkDomain: 72}
	comm := func(e Engine, w DType, dp int) float64 {
		in := DefaultInput(a)
		in.Task, in.Engine, in.Weights, in.KV = Inference, e, w, FP8
		in.TP, in.DP, in.EP, in.GPUs = 4, dp, 4, 4
		h := hw.withDefaults()
		m := newInferModel(in, h, DefaultEfficiency(in).resolve(in, h))
		return m.commPerToken
	}
	if got := nvfp4ActivationBytes; got != 0.5625 {
		t.Fatalf("nvfp4ActivationBytes = %v, want 0.5625 (4 bits and one scale byte per 16 elements)", got)
	}
	fp8 := comm(TRTLLM, FP8, 4)
	if fp8 <= 0 {
		t.Fatalf("TensorRT-LLM FP8 DP 4 EP 4: no exchange priced (%v)", fp8)
	}
	// Attention DP leaves attention's own all-reduce at one rank, so the
	// per-token communication is the exchange alone.
	cases := []struct {
		name string
		e    Engine
		w    DType
		dp   int
		want float64 // relative to TensorRT-LLM FP8 under DP 4
	}{
		{"TensorRT-LLM NVFP4, DP 4", TRTLLM, FP4, 4, 2.5625 / 4},
		{"SGLang NVFP4, DP 4 (DeepEP keeps 16 bits)", SGLang, FP4, 4, 1},
		{"vLLM NVFP4, DP 4", VLLM, FP4, 4, 1},
	}
	for _, c := range cases {
		if got := comm(c.e, c.w, c.dp) / fp8; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: exchange %.6f of the 16-bit one, want %.6f", c.name, got, c.want)
		}
	}
	// Without attention DP TensorRT-LLM's NVFP4 rows keep the 16-bit
	// figure (epAllToAll's stand-in): no post-quantised exchange runs there.
	if a, b := comm(TRTLLM, FP4, 1), comm(TRTLLM, FP8, 1); math.Abs(a/b-1) > 1e-12 {
		t.Errorf("TensorRT-LLM without DP: NVFP4 %.3g s a token, FP8 %.3g s; want equal", a, b)
	}
}
