package estimator

import (
	"math"
	"testing"
)

// TestRequestSecondsByModel: the engines' fixed cost per request follows
// the model's prefill operations for SGLang and TensorRT-LLM (DeepSeek-R1
// at TP 8 in FP8 keeps the 80 and 68 ms fitted on its rows; Llama 3.1 8B
// on one GPU in BF16 runs 32 × 10 operations), stays vLLM's one figure,
// grows with a slower host class, is the input's own figure where one is
// set (a calibration, --request-overhead), and is 0 for engines that serve
// no requests.
func TestRequestSecondsByModel(t *testing.T) {
	ds := DefaultInput(loadArch(t, "deepseek-v3.json"))
	ds.Weights, ds.TP = FP8, 8
	llama := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	llama.Weights, llama.TP = BF16, 1
	gptoss := DefaultInput(loadArch(t, "gpt-oss-120b.json"))
	gptoss.Weights, gptoss.TP = FP4, 2
	calibrated := llama
	calibrated.RequestSeconds = 0.0125
	server := Hardware{HostClass: HostServer}
	legacy := Hardware{HostClass: HostLegacyServer}
	for _, c := range []struct {
		name string
		in   Input
		e    Engine
		hw   Hardware
		want float64
	}{
		{"SGLang DeepSeek-R1 TP 8 FP8", ds, SGLang, server, 0.080},
		{"TensorRT-LLM DeepSeek-R1 TP 8 FP8", ds, TRTLLM, server, 0.068},
		{"vLLM DeepSeek-R1", ds, VLLM, server, 0.028},
		{"SGLang Llama 3.1 8B", llama, SGLang, server, 320 * 0.080 / 2013},
		{"TensorRT-LLM Llama 3.1 8B", llama, TRTLLM, server, 0.016 + 320*0.052/2013},
		{"vLLM Llama 3.1 8B", llama, VLLM, server, 0.028},
		{"SGLang gpt-oss-120b TP 2 FP4 (MoE, quantised, TP)", gptoss, SGLang, server, 36 * 27 * 0.080 / 2013},
		{"SGLang Llama 3.1 8B on a legacy host", llama, SGLang, legacy, 320 * 0.080 / 2013 * hfOpSecondsLegacy / hfOpSeconds},
		{"SGLang, the host's own op time", llama, SGLang, Hardware{HostOpSeconds: 2 * hfOpSeconds}, 2 * 320 * 0.080 / 2013},
		{"SGLang with a calibration's or --request-overhead's figure", calibrated, SGLang, legacy, 0.0125},
		{"HF", llama, HF, server, 0},
		{"llama.cpp", llama, LlamaCpp, server, 0},
	} {
		in := c.in
		in.Engine = c.e
		if got := RequestSeconds(in, c.hw); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %.4f s a request, want %.4f", c.name, got, c.want)
		}
	}
}

// TestDisaggRequestSeconds: a disaggregated replica's fixed cost counts
// the prompt's operations at the prefill side's TP, whatever TP the input
// names (the planner's input carries its first layout's): DeepSeek-R1 FP8
// on SGLang at prefill TP 8 keeps 80 ms; at TP 1 the two all-reduces a
// layer go (61 × 31 operations).
func TestDisaggRequestSeconds(t *testing.T) {
	in := DefaultInput(loadArch(t, "deepseek-v3.json"))
	in.Weights, in.Engine, in.TP = FP8, SGLang, 1
	hw := Hardware{HostClass: HostServer}
	for _, c := range []struct {
		tp   int
		want float64
	}{{8, 0.080}, {1, 61 * 31 * 0.080 / 2013}, {0, 61 * 31 * 0.080 / 2013}} {
		if got := DisaggRequestSeconds(in, hw, c.tp); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("prefill TP %d: %.4f s, want %.4f", c.tp, got, c.want)
		}
	}
}
