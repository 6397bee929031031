package estimator

import (
	"math"
	"strings"
	"testing"
)

// promptRateInput is DeepSeek-V3 (DeepSeek-R1's architecture) in FP8 on
// SGLang at TP 8 on eight MI300X (the catalog's figures: 2,614.9 dense
// FP8 TFLOP/s, 1,307.4 BF16, 5.3 TB/s, Infinity Fabric 896 GB/s).
func promptRateInput(t *testing.T) (Input, Hardware) {
	in := DefaultInput(loadArch(t, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.KV, in.VRAM = Inference, SGLang, FP8, BF16, 192*GiB
	in.TP, in.GPUs = 8, 8
	hw := Hardware{PeakFLOPS: 2614.9e12, AttnFLOPS: 1307.4e12, MemBandwidth: 5.3e12, LinkBandwidth: 896e9,
		Generation: GenCDNA3, NVLinkDomain: 8}
	return in, hw
}

// TestPromptCost: the prompt rates of enginePromptRates apply to their
// engine, GPU generation, precision and releases only, and not under
// attention data parallelism.
func TestPromptCost(t *testing.T) {
	for _, c := range []struct {
		name string
		e    Engine
		g    Generation
		w    DType
		v    EngineVersion
		dp   int
		want float64
	}{
		{"SGLang MI300X FP8", SGLang, GenCDNA3, FP8, EngineVersion{}, 1, 4.2},
		{"SGLang MI300X FP8 v0.5.6", SGLang, GenCDNA3, FP8, EngineVersion{0, 5, 6}, 1, 4.2},
		{"SGLang MI300X FP8 v0.5.5 (before the rows)", SGLang, GenCDNA3, FP8, EngineVersion{0, 5, 5}, 1, 1},
		{"SGLang MI300X FP8 DP 8", SGLang, GenCDNA3, FP8, EngineVersion{}, 8, 1},
		{"SGLang MI355X FP8", SGLang, GenCDNA4, FP8, EngineVersion{}, 1, 3.9},
		{"SGLang MI355X FP4", SGLang, GenCDNA4, FP4, EngineVersion{}, 1, 1.9},
		{"SGLang B200 FP8", SGLang, GenBlackwell, FP8, EngineVersion{}, 1, 1.6},
		{"SGLang B200 FP8 DP 8", SGLang, GenBlackwell, FP8, EngineVersion{}, 8, 1},
		{"SGLang B200 FP4", SGLang, GenBlackwell, FP4, EngineVersion{}, 1, 1},
		{"SGLang H200 FP8", SGLang, GenHopper, FP8, EngineVersion{}, 1, 1.2},
		{"SGLang H200 FP8 v0.5.5 (before the rows)", SGLang, GenHopper, FP8, EngineVersion{0, 5, 5}, 1, 1},
		{"SGLang H200 FP8 DP 8", SGLang, GenHopper, FP8, EngineVersion{}, 8, 1},
		{"SGLang H100 BF16", SGLang, GenHopper, BF16, EngineVersion{}, 1, 1},
		{"TensorRT-LLM H200 FP8", TRTLLM, GenHopper, FP8, EngineVersion{}, 1, 1},
		{"SGLang MI300X BF16", SGLang, GenCDNA3, BF16, EngineVersion{}, 1, 1},
		{"TensorRT-LLM B200 FP8", TRTLLM, GenBlackwell, FP8, EngineVersion{}, 1, 1},
		{"vLLM MI300X FP8", VLLM, GenCDNA3, FP8, EngineVersion{}, 1, 1},
	} {
		in := Input{Engine: c.e, Weights: c.w, EngineVersion: c.v, DP: c.dp}
		if got := promptCost(in, Hardware{Generation: c.g}); got != c.want {
			t.Errorf("%s: prompt cost %g, want %g", c.name, got, c.want)
		}
	}
}

// TestSGLangPromptRate: on SGLang's MI300X FP8 rows a prompt token's
// compute costs promptCost (4.2) times the step model's, in a whole
// prefill, in a prompt chunk beside decodes and in the closed form's
// marginal prompt, while a decode-only step does not move. Against the
// same model at a release before the rows (v0.5.5: the step model's
// rate), the rise of the idle-replica TTFT from a 1k to an 8k prompt grows
// by more than 3× and lands near what the InferenceX MI300X rows measure
// (57 µs a token at 4 in flight; 54 µs here on an idle replica, 14 µs at
// the step model's rate).
func TestSGLangPromptRate(t *testing.T) {
	in, hw := promptRateInput(t)
	old := in
	old.EngineVersion = EngineVersion{0, 5, 5}
	eff := Efficiency{}.resolve(in, hw)
	m, m0 := newInferModel(in, hw, eff), newInferModel(old, hw, eff)
	if m.promptCost != 4.2 || m0.promptCost != 1 {
		t.Fatalf("prompt costs %g and %g, want 4.2 and 1", m.promptCost, m0.promptCost)
	}
	lctx := m.sc.attended(4096)
	if got, want := m.computeTime(8192, lctx), 4.2*m0.computeTime(8192, lctx); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("8k prompt compute %.4g s, want 4.2 × %.4g = %.4g s", got, m0.computeTime(8192, lctx), want)
	}
	if got, want := m.prefillMarginal(8192)-m0.prefillMarginal(8192), 3.2*m0.computeTime(8192, lctx); math.Abs(got/want-1) > 1e-9 {
		t.Errorf("marginal 8k prompt %.4g s over the step model's, want %.4g", got, want)
	}
	w := Workload{PromptTokens: 8192, OutputTokens: 1024}
	s, s0 := NewServingModel(in, hw, Efficiency{}, w), NewServingModel(old, hw, Efficiency{}, w)
	dec := Step{DecodeSeqs: 64, DecodeContext: 64 * 9000}
	if a, b := s.StepSeconds(dec), s0.StepSeconds(dec); a != b || a <= 0 {
		t.Errorf("decode step of 64: %.6g s, %.6g s at the step model's prompt rate: want the same", a, b)
	}
	pre := Step{PrefillTokens: 8192, PrefillSeqs: 1, PrefillContext: 8192 * 8193 / 2, PrefillKV: 8192}
	if a, b := s.StepSeconds(pre), s0.StepSeconds(pre); !(a > 2.5*b) {
		t.Errorf("8k prefill step: %.4g s against %.4g s at the step model's rate, want over 2.5×", a, b)
	}
	mix := pre
	mix.DecodeSeqs, mix.DecodeContext = dec.DecodeSeqs, dec.DecodeContext
	if a, b := s.StepSeconds(mix)-s.StepSeconds(pre), s0.StepSeconds(mix)-s0.StepSeconds(pre); a > b {
		t.Errorf("64 decodes beside an 8k chunk add %.4g s, more than the %.4g s they add at the step model's rate", a, b)
	}
	rise := func(in Input) float64 {
		in.Batch = 1
		short := mustPerf(t, in, hw, Efficiency{}, Workload{PromptTokens: 1024, OutputTokens: 1024})
		long := mustPerf(t, in, hw, Efficiency{}, Workload{PromptTokens: 8192, OutputTokens: 1024})
		return (long.TimeToFirstToken - short.TimeToFirstToken) / 7168
	}
	r, r0 := rise(in), rise(old)
	t.Logf("TTFT rise a prompt token: %.1f µs (step model's rate %.1f µs)", 1e6*r, 1e6*r0)
	if !(r > 3*r0) || !(r > 45e-6 && r < 75e-6) {
		t.Errorf("TTFT rise a prompt token %.1f µs (%.1f µs at the step model's rate), want over 3× and within 45–75 µs", 1e6*r, 1e6*r0)
	}
}

// TestVLLMSequenceGap: vLLM's V1 engine before asynchronous scheduling
// (0.8.0 up to 0.14.0, without --async-scheduling) waits 21 µs a running
// sequence between GPU steps (vllmSequenceGapSeconds): a decode step of
// 256 sequences on v0.11.0 is the v0.14.0 step plus 5.376 ms, in the
// simulator's steps and in the closed form's decode step alike; the
// opt-in flag, the releases from 0.14, those before V1 (which run their
// host work between steps already) and the other engines add nothing.
func TestVLLMSequenceGap(t *testing.T) {
	for _, c := range []struct {
		name  string
		e     Engine
		v     EngineVersion
		async bool
		want  float64
	}{
		{"vLLM 0.11.0", VLLM, EngineVersion{0, 11, 0}, false, 21e-6},
		{"vLLM 0.8.0", VLLM, EngineVersion{0, 8, 0}, false, 21e-6},
		{"vLLM 0.13.0", VLLM, EngineVersion{0, 13, 0}, false, 21e-6},
		{"vLLM 0.11.0 --async-scheduling", VLLM, EngineVersion{0, 11, 0}, true, 0},
		{"vLLM 0.14.0", VLLM, EngineVersion{0, 14, 0}, false, 0},
		{"vLLM current", VLLM, EngineVersion{}, false, 0},
		{"vLLM 0.7.3", VLLM, EngineVersion{0, 7, 3}, false, 0},
		{"SGLang 0.5.3", SGLang, EngineVersion{0, 5, 3}, false, 0},
	} {
		in := Input{Engine: c.e, EngineVersion: c.v, AsyncScheduling: c.async}
		if got := vllmSequenceGap(in); got != c.want {
			t.Errorf("%s: %g s a sequence, want %g", c.name, got, c.want)
		}
	}
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Engine, in.Weights, in.VRAM = Inference, VLLM, BF16, 80*GiB
	hw := Hardware{PeakFLOPS: 989e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	w := Workload{PromptTokens: 512, OutputTokens: 512}
	old, cur := in, in
	old.EngineVersion, cur.EngineVersion = EngineVersion{0, 11, 0}, EngineVersion{0, 14, 0}
	so, sc := NewServingModel(old, hw, Efficiency{}, w), NewServingModel(cur, hw, Efficiency{}, w)
	st := Step{DecodeSeqs: 256, DecodeContext: 256 * 768}
	if got, want := so.StepSeconds(st)-sc.StepSeconds(st), 256*21e-6; math.Abs(got-want) > 1e-12 {
		t.Errorf("decode step of 256 on v0.11.0 is %.6g s over v0.14.0's, want %.6g", got, want)
	}
	chunk := Step{DecodeSeqs: 30, DecodeContext: 30 * 768, PrefillTokens: 2048, PrefillSeqs: 2, PrefillContext: 2 * 1024 * 1025 / 2, PrefillKV: 2048}
	if got, want := so.StepSeconds(chunk)-sc.StepSeconds(chunk), 32*21e-6; math.Abs(got-want) > 1e-12 {
		t.Errorf("mixed step of 30 decodes and 2 prompts on v0.11.0 is %.6g s over v0.14.0's, want %.6g", got, want)
	}
	mo, mc := newInferModel(old, hw, Efficiency{}.resolve(old, hw)), newInferModel(cur, hw, Efficiency{}.resolve(cur, hw))
	do, _, _ := mo.decodeStep(256, 768)
	dc, _, _ := mc.decodeStep(256, 768)
	if math.Abs(do-dc-256*21e-6) > 1e-12 {
		t.Errorf("closed-form decode step of 256: %.6g s over v0.14.0's, want %.6g", do-dc, 256*21e-6)
	}
	bad := in
	bad.Engine, bad.AsyncScheduling = SGLang, true
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "async-scheduling") {
		t.Errorf("--async-scheduling on SGLang: %v, want an error on the field", err)
	}
}

// TestVLLMFrontEndFloor: vLLM's V1 API server streams every token of
// every running request, 45 µs each (vllmFrontEndTokenSeconds), so a step
// of a small or sparse model at hundreds of streams is at least that:
// gpt-oss-120b on four B200s decodes 512 streams in 23.0 ms where the GPU
// takes 8.9 (measured 22.5), and 16 at the GPU's pace. With attention DP
// each rank has its API server; SGLang and vLLM before 0.8 none here.
func TestVLLMFrontEndFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want float64
	}{
		{"vLLM current", Input{Engine: VLLM}, 45e-6},
		{"vLLM 0.8.0", Input{Engine: VLLM, EngineVersion: EngineVersion{0, 8, 0}}, 45e-6},
		{"vLLM 0.7.3", Input{Engine: VLLM, EngineVersion: EngineVersion{0, 7, 3}}, 0},
		{"vLLM DP 4", Input{Engine: VLLM, TP: 4, DP: 4}, 45e-6 / 4},
		{"SGLang", Input{Engine: SGLang}, 0},
		{"TensorRT-LLM", Input{Engine: TRTLLM}, 0},
	} {
		if got := vllmFrontEndToken(c.in); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: %g s a token, want %g", c.name, got, c.want)
		}
	}
	in := DefaultInput(loadArch(t, "gpt-oss-120b.json"))
	in.Task, in.Engine, in.Weights, in.VRAM, in.TP, in.GPUs = Inference, VLLM, FP4, 180*GiB, 4, 4
	hw := Hardware{PeakFLOPS: 9e15, AttnFLOPS: 2.25e15, MemBandwidth: 7.7e12, LinkBandwidth: 900e9, Generation: GenBlackwell, NVLinkDomain: 8}
	m := NewServingModel(in, hw, Efficiency{}, Workload{PromptTokens: 1024, OutputTokens: 1024})
	step := func(seqs int) float64 {
		return m.StepSeconds(Step{DecodeSeqs: seqs, DecodeContext: float64(seqs) * 1536})
	}
	if got := step(512); math.Abs(got-512*45e-6) > 1e-9 {
		t.Errorf("512 streams: %.2f ms, want the front end's %.2f ms", got*1e3, 512*45e-3)
	}
	if got := step(16); got <= 16*45e-6 {
		t.Errorf("16 streams: %.2f ms, want the GPU's step, over the front end's %.2f ms", got*1e3, 16*45e-3)
	}
	// The closed form's decode step says what bounds it.
	im := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	if secs, b, _ := im.decodeStep(512, 1536); b != BoundHost || math.Abs(secs-512*45e-6) > 1e-9 {
		t.Errorf("closed-form decode of 512 streams: %.2f ms, bound %v; want the front end's 23.04 ms, host", secs*1e3, b)
	}
	if _, b, _ := im.decodeStep(16, 1536); b == BoundHost {
		t.Errorf("closed-form decode of 16 streams: bound %v, want the GPU's", b)
	}
}
