package estimator

import (
	"math"
	"testing"
)

// TestDeepEPLowLatency: SGLang's DeepEP decode inside an NVLink domain
// runs at DeepEP's measured low-latency bandwidth (deepEPLowLatencySeconds):
// DeepSeek-V3 on one B200 node at attention DP 8 · EP 8, 128 tokens a rank,
// spends 190.5 µs a layer in the dispatch and combine, DeepEP's 77 + 114 µs
// at EP 8; a decode or verify step pays the difference over NVLink's
// figure (lowLatencyExtra), a prefill step does not, and layouts DeepEP's
// low-latency kernels do not serve that way keep NVLink's or the network's
// figure: TensorRT-LLM, SGLang's EP without attention DP, a TP group over
// two NVLink domains (DeepEPDecode's RDMA figures), two-batch overlap, AMD.
// A rank's tokens past 128 pay NVLink's figure only.
func TestDeepEPLowLatency(t *testing.T) {
	b200 := Hardware{PeakFLOPS: 4.5e15, AttnFLOPS: 2.25e15, MemBandwidth: 7.7e12, LinkBandwidth: 9e11, Generation: GenBlackwell, NVLinkDomain: 8}
	base := DefaultInput(loadArch(t, "deepseek-v3.json"))
	base.Task, base.Engine, base.Weights, base.KV, base.VRAM = Inference, SGLang, FP8, FP8, 180*GiB
	base.TP, base.DP, base.EP, base.GPUs = 8, 8, 8, 8
	model := func(in Input, hw Hardware) inferModel {
		return newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	}
	m := model(base, b200)
	perLayer := (m.llComm - m.commPerToken) / m.layers * 1024
	nvlink := m.commPerToken / m.layers * 1024
	if got := (m.llComm / m.layers) * 1024; math.Abs(got-190.5e-6) > 0.5e-6 {
		t.Errorf("a layer's exchange of 128 tokens a rank: %.1f µs, want DeepEP's 190.5 µs (77 + 114)", got*1e6)
	}
	if !(nvlink < 40e-6 && perLayer > 150e-6) {
		t.Errorf("NVLink's figure %.1f µs a layer, the low-latency kernels' extra %.1f µs: want under 40 and over 150", nvlink*1e6, perLayer*1e6)
	}
	s := NewServingModel(base, b200, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000})
	dec := Step{DecodeSeqs: 1024, DecodeContext: 1024 * 1500}
	ctok, lctx, kv := s.m.stepLoad(dec, 0, 1024)
	plain, _, _ := s.m.stepSum(false, 1024, ctok, lctx, kv)
	if got, want := s.StepSeconds(dec)-plain, 1024*(m.llComm-m.commPerToken); math.Abs(got-want) > 1e-12 {
		t.Errorf("decode step of 1,024: %.4g s over the plain step, want %.4g", got, want)
	}
	pre := Step{PrefillTokens: 4096, PrefillSeqs: 4, PrefillContext: 4 * 1024 * 1025 / 2, PrefillKV: 4096}
	ctok, lctx, kv = s.m.stepLoad(pre, 4096, 0)
	plain, _, _ = s.m.stepSum(false, 4096, ctok, lctx, kv)
	spread := spreadAttention(s)
	if got := spread.StepSeconds(pre); got != plain {
		t.Errorf("prefill step %.6g s, want the normal kernels' %.6g s", got, plain)
	}
	ver := Step{DecodeSeqs: 256, DecodeContext: 256 * 1500, PrefillTokens: 256, PrefillSeqs: 256, PrefillContext: 256 * 1500, PrefillKV: 256, Verify: true}
	ctok, lctx, kv = s.m.stepLoad(ver, 256, 256)
	plain, _, _ = s.m.stepSum(false, 512, ctok, lctx, kv)
	if got, want := s.StepSeconds(ver)-plain, 512*(m.llComm-m.commPerToken); math.Abs(got-want) > 1e-12 {
		t.Errorf("verify step of 256 + 256 draft tokens: %.4g s over the plain step, want %.4g", got, want)
	}
	d0, _, _ := m.decodeStep(1024, 1500)
	m0 := m
	m0.llComm = 0
	d1, _, _ := m0.decodeStep(1024, 1500)
	if math.Abs(d0-d1-1024*(m.llComm-m.commPerToken)) > 1e-12 {
		t.Errorf("closed-form decode step: %.4g s over NVLink's, want %.4g", d0-d1, 1024*(m.llComm-m.commPerToken))
	}
	// Past 128 tokens a rank the rest cross at NVLink's figure: 512 and
	// 4,096 tokens over the 8 ranks pay the low-latency figure for 512
	// and 1,024 of them.
	for _, c := range []struct{ tokens, paid float64 }{{512, 512}, {1024, 1024}, {4096, 1024}} {
		if got, want := m.lowLatencyExtra(c.tokens), c.paid*(m.llComm-m.commPerToken); math.Abs(got-want) > 1e-15 {
			t.Errorf("%.0f tokens: low-latency extra %.4g s, want %.4g (%.0f tokens at the kernels' figure)", c.tokens, got, want, c.paid)
		}
	}
	big := Step{DecodeSeqs: 4096, DecodeContext: 4096 * 1500}
	ctok, lctx, kv = s.m.stepLoad(big, 0, 4096)
	plain, _, _ = s.m.stepSum(false, 4096, ctok, lctx, kv)
	if got, want := s.StepSeconds(big)-plain, 1024*(m.llComm-m.commPerToken); math.Abs(got-want) > 1e-12 {
		t.Errorf("decode step of 4,096: %.4g s over the plain step, want %.4g (the first 128 tokens a rank)", got, want)
	}
	for _, c := range []struct {
		name string
		edit func(*Input, *Hardware)
	}{
		{"TensorRT-LLM", func(in *Input, _ *Hardware) { in.Engine = TRTLLM }},
		{"SGLang EP without attention DP", func(in *Input, _ *Hardware) { in.DP = 1 }},
		{"two-batch overlap", func(in *Input, _ *Hardware) { in.TwoBatchOverlap = true }},
		{"over two NVLink domains", func(in *Input, hw *Hardware) {
			in.TP, in.DP, in.EP, in.GPUs = 16, 16, 16, 16
			hw.NetworkBandwidth = 50e9
		}},
		{"MI300X", func(_ *Input, hw *Hardware) { hw.Generation = GenCDNA3 }},
	} {
		in, hw := base, b200
		c.edit(&in, &hw)
		if mm := model(in, hw); mm.llComm != 0 || mm.lowLatencyExtra(1024) != 0 {
			t.Errorf("%s: low-latency exchange %g s a token, want none", c.name, mm.llComm)
		}
	}
}
