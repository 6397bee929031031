package estimator

import (
	"errors"
	"math"
	"testing"
)

// TestMoEA2ANoneGathers: SGLang's own exchange under attention DP
// (Input.MoEA2A "none") is priced as the gather it runs, not as DeepEP.
// DeepSeek-V3 FP8 on eight H200-class GPUs at TP = DP = EP = 8: with the
// gather the layout is no SGLangDeepEP one (no DeepEP refusal, no DeepEP
// buffers beside the static share, whose default then rises by their
// share), each token's MoE exchange is one ring all-reduce of its hidden
// state over the eight GPUs, 61 × 2 × 7/8 × 7168 × 2 B / 450 GB/s =
// 3.4 µs a token (epAllToAll), and decode steps pay none of DeepEP's
// low-latency kernels' figures (deepEPLowLatencySeconds). Without DP or EP
// the field changes nothing; on another engine it is refused.
func TestMoEA2ANoneGathers(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.DP, in.EP, in.GPUs = 8, 8, 8, 8
	gather := in
	gather.MoEA2A = MoEA2ANone
	if !SGLangDeepEP(in) || SGLangDeepEP(gather) {
		t.Fatalf("SGLangDeepEP: default %v, gather %v; want true, false", SGLangDeepEP(in), SGLangDeepEP(gather))
	}
	explicit := in
	explicit.MoEA2A = MoEA2ADeepEP
	if !SGLangDeepEP(explicit) {
		t.Fatal("--moe-a2a-backend deepep is not SGLangDeepEP")
	}
	ms, mg := sglangMemFractionStatic(in), sglangMemFractionStatic(gather)
	if want := float64(sglangDeepEPReserveMiB) * float64(MiB) / float64(in.VRAM); math.Abs(mg-ms-want) > 0.0015 {
		t.Fatalf("static share %.3f with DeepEP, %.3f with the gather: want DeepEP's %.3f reserve between them", ms, mg, want)
	}
	a := in.Arch
	m := newInferModel(gather, hw, DefaultEfficiency(in))
	want := float64(a.Layers) * 2 * 7.0 / 8 * float64(a.Hidden) * 2 / collectiveBandwidth(hw, 8)
	if math.Abs(m.commPerToken-want) > 1e-9*want {
		t.Fatalf("gather's exchange %.3g s a token, want one ring all-reduce %.3g s", m.commPerToken, want)
	}
	if d := newInferModel(in, hw, DefaultEfficiency(in)); !(d.llComm > d.commPerToken) || m.llComm != 0 {
		t.Fatalf("DeepEP's low-latency decode exchange %.3g s a token (bytes %.3g), the gather's %.3g: want DeepEP's alone, above its bytes",
			d.llComm, d.commPerToken, m.llComm)
	}
	for _, n := range []int{1, 8} {
		x := in
		x.DP, x.EP = n, 9-n // DP 1 EP 8, DP 8 EP 1: no all-to-all either way
		y := x
		y.MoEA2A = MoEA2ANone
		if newInferModel(x, hw, DefaultEfficiency(in)).commPerToken != newInferModel(y, hw, DefaultEfficiency(in)).commPerToken {
			t.Fatalf("DP %d EP %d: the field moved a layout with no all-to-all", x.DP, x.EP)
		}
	}
	v := gather
	v.Engine = VLLM
	var ie *InputError
	if err := v.Validate(); !errors.As(err, &ie) || ie.Field != "moe-a2a-backend" || !errors.Is(err, ErrIncompatible) {
		t.Fatalf("vLLM with --moe-a2a-backend none: %v", err)
	}
	v = in
	v.MoEA2A = "mooncake"
	if err := v.Validate(); !errors.As(err, &ie) || ie.Field != "moe-a2a-backend" || !errors.Is(err, ErrRange) {
		t.Fatalf("--moe-a2a-backend mooncake: %v", err)
	}
}

// TestDisaggSideMoEA2A: a disaggregated side's exchange (DisaggSide.MoEA2A)
// reaches that side's workers alone, and a bad one is reported on the
// side's flag.
func TestDisaggSideMoEA2A(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	z := NewDisaggSizer(in, hw, Efficiency{}, w)
	p := DisaggSide{Workers: 1, TP: 8, DP: 8, EP: 8, MoEA2A: MoEA2ANone}
	d := DisaggSide{Workers: 1, TP: 8, DP: 8, EP: 8}
	if SGLangDeepEP(z.sideInput(p, Disagg{})) || !SGLangDeepEP(z.sideInput(d, Disagg{})) {
		t.Fatal("the prefill side's gather did not stay on its side")
	}
	p.MoEA2A = "bogus"
	_, err := DisaggServing(in, hw, Efficiency{}, w, Disagg{Prefill: p, Decode: d, Concurrency: 8})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "prefill-moe-a2a-backend" {
		t.Fatalf("a bad prefill exchange: %v, want it on prefill-moe-a2a-backend", err)
	}
}
