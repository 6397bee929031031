package estimator

import (
	"errors"
	"math"
	"testing"
)

// kimiInt4 is Kimi K2 served by vLLM on eight GPUs with 4-bit weights in
// format q, 4 requests of 8k + 1k.
func kimiInt4(t testing.TB, q Quant) Input {
	in := Input{Arch: loadArch(t, "kimi-k2.json"), Task: Inference, Engine: VLLM, Weights: INT4, Quant: q, KV: BF16,
		Batch: 4, Seq: 9216, GPUs: 8, TP: 8, PP: 1, VRAM: 141 * GB}
	return in
}

// TestExpertsOnlyMemory: Moonshot's INT4 checkpoint of Kimi K2 stores the
// routed experts at 4.5 bits (INT4, one 16-bit scale per 32) and every
// other weight at 16: 594 GB on eight GPUs, against 549 GB with every
// linear at int4-g128's 4.25 (Quant.ExpertsOnly's arithmetic).
func TestExpertsOnlyMemory(t *testing.T) {
	total := func(q Quant) float64 {
		r := mustEstimate(t, kimiInt4(t, q))
		return 8 * float64(r.PerGPU.Weights) / 1e9
	}
	a := loadArch(t, "kimi-k2.json")
	ex, all := expertParams(a), float64(a.TotalParams)
	want := (ex*4.5 + (all-ex)*16) / 8 / 1e9
	if got := total(QuantExpertsG32); math.Abs(got-want)/want > 0.005 || math.Abs(got-594) > 6 {
		t.Errorf("int4-experts-g32: %.1f GB of weights, want %.1f (about 594)", got, want)
	}
	if got := total(QuantGroup128); math.Abs(got-549) > 6 {
		t.Errorf("int4-g128: %.1f GB of weights, want about 549", got)
	}
	r := mustEstimate(t, kimiInt4(t, QuantExpertsG32))
	if b := r.WeightBitsPerParam; math.Abs(b-want*8e9/all) > 0.01 {
		t.Errorf("bits a parameter %.3f, want %.3f", b, want*8e9/all)
	}
}

// TestExpertsOnlyDecode: a decode step reads the touched experts at 4.5
// bits through the weight-only kernel and the 16-bit rest as it is, so at
// 4 requests it reads more than with every linear at 4.25 bits and less
// than the experts' 16-bit copy would; the experts' bytes alone match the
// touched share of their 4.5-bit weights.
func TestExpertsOnlyDecode(t *testing.T) {
	step := func(q Quant) (float64, inferModel) {
		in := kimiInt4(t, q)
		hw := h200SXM.withDefaults()
		m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
		return m.weightBytes(4), m
	}
	g128, _ := step(QuantGroup128)
	exp, m := step(QuantExpertsG32)
	if !(exp > g128) {
		t.Errorf("experts-only step reads %.3g B, want more than int4-g128's %.3g", exp, g128)
	}
	a := loadArch(t, "kimi-k2.json")
	dense := m.denseBytes
	wantEx := expertParams(a) * 4.5 / 8 / 8 * m.expertShare(4) / marlinBandwidthShare
	if experts := exp - dense; math.Abs(experts-wantEx)/wantEx > 1e-9 {
		t.Errorf("experts' bytes %.6g, want %.6g (4.5 bits at Marlin's bandwidth share)", experts, wantEx)
	}
	// The rest at 16 bits: attention, the shared experts, the dense layer
	// and the LM head, about 11B parameters over 8 GPUs.
	if dense < 2.5e9 || dense > 3.2e9 {
		t.Errorf("non-expert bytes a GPU %.3g, want 2.5–3.2 GB (about 11B 16-bit parameters over 8)", dense)
	}
}

// TestExpertsOnlyRefused: the format needs routed experts and a serving
// job on vLLM, SGLang or TensorRT-LLM.
func TestExpertsOnlyRefused(t *testing.T) {
	dense := Input{Arch: loadArch(t, "llama-3.1-8b.json"), Task: Inference, Engine: VLLM, Weights: INT4, Quant: QuantExpertsG32,
		KV: BF16, Batch: 1, Seq: 2048, GPUs: 1, TP: 1, PP: 1, VRAM: 80 * GB}
	lora := kimiInt4(t, QuantExpertsG32)
	lora.Task, lora.Engine, lora.LoRARank = LoRA, HF, 16
	cpp := kimiInt4(t, QuantExpertsG32)
	cpp.Engine = LlamaCpp
	for name, in := range map[string]Input{"dense": dense, "lora": lora, "llama.cpp": cpp} {
		_, err := Estimate(in)
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		found := false
		for _, e := range errs {
			var ie *InputError
			found = found || errors.As(e, &ie) && ie.Field == "quant" && errors.Is(e, ErrIncompatible)
		}
		if !found {
			t.Errorf("%s: %v, want an incompatible quant", name, err)
		}
	}
	if q, err := ParseQuant("int4-experts-g32"); err != nil || q != QuantExpertsG32 || q.GGUF() || !q.ExpertsOnly() || q.BitsPerWeight() != 4.5 {
		t.Errorf("ParseQuant: %v %v", q, err)
	}
}
