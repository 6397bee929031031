package estimator

import (
	"math"
	"strings"
	"testing"
)

// TestNoOverlapSchedule: with the overlap scheduler off (SGLang's
// --disable-overlap-schedule, TensorRT-LLM's disable_overlap_scheduler,
// or SGLang's EAGLE without SGLANG_ENABLE_SPEC_V2) the host's 4 ms a step
// (servingStepFloor) runs between the GPU's steps: a device-bound decode
// step of Llama 3.1 8B at 256 sequences on an H100 grows by exactly that,
// on SGLang and on TensorRT-LLM, and vLLM (whose own setting is
// --async-scheduling) and training refuse the setting on its field.
func TestNoOverlapSchedule(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Weights, in.VRAM = Inference, BF16, 80*GiB
	hw := Hardware{PeakFLOPS: 989e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	w := Workload{PromptTokens: 512, OutputTokens: 512}
	st := Step{DecodeSeqs: 256, DecodeContext: 256 * 768}
	for _, e := range []Engine{SGLang, TRTLLM} {
		on, off := in, in
		on.Engine, off.Engine, off.NoOverlapSchedule = e, e, true
		if err := off.Validate(); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		son, soff := NewServingModel(on, hw, Efficiency{}, w), NewServingModel(off, hw, Efficiency{}, w)
		a, b := son.StepSeconds(st), soff.StepSeconds(st)
		if a < servingStepFloor {
			t.Fatalf("%s: overlapped step %.6f s is the host floor, want a device-bound step", e, a)
		}
		if math.Abs(b-a-servingStepFloor) > 1e-12 {
			t.Errorf("%s: step %.6f s without the overlap, %.6f s with it: want %.4f s more", e, b, a, servingStepFloor)
		}
	}
	for _, c := range []struct {
		name string
		set  func(*Input)
	}{
		{"vllm", func(in *Input) { in.Engine = VLLM }},
		{"training", func(in *Input) { in.Task, in.Engine = FullFinetune, HF }},
	} {
		bad := in
		c.set(&bad)
		bad.NoOverlapSchedule = true
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "no-overlap-schedule") {
			t.Errorf("%s with the overlap scheduler off: %v, want an error on the field", c.name, err)
		}
	}
}
