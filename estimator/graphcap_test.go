package estimator

import (
	"math"
	"strings"
	"testing"
)

// TestSGLangGraphCap: SGLang replays a decode step from a CUDA graph only
// up to --cuda-graph-max-bs sequences a scheduler; past it the step runs
// eager. Llama 3.1 8B on an H100 at a cap of 32: a decode step of 32
// sequences is the graph step to the bit, one of 33 or 64 is the longer
// of the device's time and the host's 4 ms plus the eager launches of its
// 32 layers × 10 operations at SGLang's 39.7 µs each (12.7 ms); the cap
// counts a rank's sequences under attention DP; a prompt step is not
// capped (SGLang runs prompts outside the graphs anyway); and vLLM and
// training refuse the setting on its field.
func TestSGLangGraphCap(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Weights, in.VRAM, in.Engine = Inference, BF16, 80*GiB, SGLang
	hw := Hardware{PeakFLOPS: 989e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	w := Workload{PromptTokens: 512, OutputTokens: 512}
	capped := in
	capped.CUDAGraphMaxBS = 32
	if err := capped.Validate(); err != nil {
		t.Fatal(err)
	}
	free, cp := NewServingModel(in, hw, Efficiency{}, w), NewServingModel(capped, hw, Efficiency{}, w)
	dec := func(n int) Step { return Step{DecodeSeqs: n, DecodeContext: float64(n) * 768} }
	if a, b := free.StepSeconds(dec(32)), cp.StepSeconds(dec(32)); a != b || a <= 0 {
		t.Errorf("32 sequences at a cap of 32: %.6f s, %.6f s without a cap: want the graph step", b, a)
	}
	launch := 32 * 10 * 0.080 / 2013
	if math.Abs(sglangEagerLaunch(capped, hw)-launch) > 1e-12 {
		t.Fatalf("eager launches %.6f s, want %.6f s", sglangEagerLaunch(capped, hw), launch)
	}
	for _, n := range []int{33, 64} {
		g, e := free.StepSeconds(dec(n)), cp.StepSeconds(dec(n))
		if want := servingStepFloor + launch; math.Abs(e-want) > 1e-12 || g >= want {
			t.Errorf("%d sequences: eager step %.6f s (graph %.6f s), want the host's %.6f s", n, e, g, want)
		}
	}
	// The closed form's decode step reads the same eager step.
	capped.Batch = 64
	if p, err := Throughput(capped, hw, Efficiency{}, w); err != nil || math.Abs(p.DecodeStepSeconds-(servingStepFloor+launch)) > 1e-9 {
		t.Errorf("closed form at 64: %+v, %v; want a %.6f s step", p.DecodeStepSeconds, err, servingStepFloor+launch)
	}
	pre := Step{PrefillTokens: 2048, PrefillSeqs: 4, PrefillContext: 4 * 512 * 256, PrefillKV: 2048, DecodeSeqs: 64, DecodeContext: 64 * 768}
	if a, b := free.StepSeconds(pre), cp.StepSeconds(pre); a != b {
		t.Errorf("a prompt step with 64 decoding: %.6f s capped, %.6f s not: want the same", b, a)
	}
	// Under attention DP the cap is a rank's: 8 ranks of 160 run 1,280
	// sequences from graphs and 1,281 eager.
	m := inferModel{eagerLaunch: 1, graphCap: 160, dpRanks: 8}
	if m.eager(1280) || !m.eager(1281) {
		t.Errorf("8 ranks capped at 160: eager at 1,280 %v, at 1,281 %v; want false, true", m.eager(1280), m.eager(1281))
	}
	for _, c := range []struct {
		name string
		set  func(*Input)
	}{
		{"vllm", func(in *Input) { in.Engine = VLLM }},
		{"trtllm", func(in *Input) { in.Engine = TRTLLM }},
		{"training", func(in *Input) { in.Task, in.Engine = FullFinetune, HF }},
		{"negative", func(in *Input) { in.CUDAGraphMaxBS = -1 }},
	} {
		bad := in
		bad.CUDAGraphMaxBS = 32
		c.set(&bad)
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "cuda-graph-max-bs") {
			t.Errorf("%s: %v, want an error on the field", c.name, err)
		}
	}
}

// TestSGLangEagerOneStep: SGLang without CUDA graphs (--enforce-eager,
// SGLang's --disable-cuda-graph) prices every decode step as the step past
// the graph cap does, from one function (sglangEagerLaunch), and reports
// the launches in its host floor. The launches follow the layer's eager
// operations (promptOps), so a DeepSeek-V3 layer (MoE, MLA, FP8, TP 8:
// 33 operations) costs 3.3 times a dense BF16 layer's 10, where the
// count of 10 for every architecture had priced DeepSeek-class models'
// eager steps at a third. SGLang's own measurement (sgl-project/sglang
// PR #1401, 2024-09, bench_latency at batch 1): Llama 3 8B decodes 1.3×
// slower without graphs, DeepSeek-Coder-V2-Lite (MoE, MLA) about 4×.
func TestSGLangEagerOneStep(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Weights, in.VRAM, in.Engine = Inference, BF16, 80*GiB, SGLang
	hw := Hardware{PeakFLOPS: 989e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	w := Workload{PromptTokens: 512, OutputTokens: 512}
	eager, capped := in, in
	eager.EnforceEager, capped.CUDAGraphMaxBS = true, 1
	st := Step{DecodeSeqs: 48, DecodeContext: 48 * 700}
	me, mc := NewServingModel(eager, hw, Efficiency{}, w), NewServingModel(capped, hw, Efficiency{}, w)
	a, b := me.StepSeconds(st), mc.StepSeconds(st)
	if a != b || a <= servingStepFloor {
		t.Errorf("eager step %.6f s, past a cap of 1 %.6f s: want one figure above the host floor", a, b)
	}
	eager.Batch = 8
	p, err := Throughput(eager, hw, Efficiency{}, w)
	if want := servingStepFloor + sglangEagerLaunch(eager, hw); err != nil || math.Abs(p.HostFloorSeconds-want) > 1e-12 {
		t.Errorf("host floor %.6f s (%v), want %.6f s", p.HostFloorSeconds, err, want)
	}
	ds := DefaultInput(loadArch(t, "deepseek-v3.json"))
	ds.Task, ds.Weights, ds.Engine, ds.TP, ds.GPUs = Inference, FP8, SGLang, 8, 8
	if got, want := sglangEagerLaunch(ds, hw), 61*33*0.080/2013; math.Abs(got-want) > 1e-12 {
		t.Errorf("DeepSeek-V3 FP8 at TP 8: eager launches %.6f s, want %.6f s (61 layers × 33 operations)", got, want)
	}
}
