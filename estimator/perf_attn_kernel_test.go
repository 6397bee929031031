package estimator

import (
	"errors"
	"math"
	"testing"
)

// TestAttnKernelSpeed pins the fused attention kernel's term by hand on
// Llama 3.1 8B, one H100-like GPU (fp8 peak 1000 TFLOP/s, 16-bit
// attention 500), MFU 0.4, one 8,192-token sequence per step: attention's
// FLOPs are 3 · 4 · L · s · d_attn a token (forward and backward, PaLM's
// count) = 3 · 4 · 32 · 8192 · 4096, 1.0555e14 a step; FlashAttention-2
// pays them at twice the linears' cost (the 16-bit rate), cuDNN's kernel
// at 2/1.62 and FlashAttention-3's at 2/1.74 (Shah et al. 2024, Figures
// 5–6), so cuDNN's step is 1.0555e14 · (2 − 2/1.62) / 4e14 = 0.20198 s
// shorter and FlashAttention-3's 0.22445 s. Nothing moves off Hopper.
func TestAttnKernelSpeed(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Weights, in.Seq, in.Batch = FullFinetune, FP8, 8192, 1
	eff := Efficiency{MFU: 0.4}
	step := func(k AttnKernel, g Generation) float64 {
		in := in
		in.AttnKernel = k
		p, err := Throughput(in, Hardware{PeakFLOPS: 1000e12, AttnFLOPS: 500e12, MemBandwidth: 3.35e12, Generation: g}, eff, Workload{})
		if err != nil {
			t.Fatal(err)
		}
		return p.StepSeconds
	}
	fa2 := step(AttnFA2, GenHopper)
	for _, c := range []struct {
		k     AttnKernel
		saved float64
	}{{AttnCuDNN, 0.2019844}, {AttnFA3, 0.2244520}} {
		if got := fa2 - step(c.k, GenHopper); math.Abs(got-c.saved) > 1e-6 {
			t.Errorf("%v on Hopper: step %v s shorter than FlashAttention-2's, want %v", c.k, got, c.saved)
		}
		if got := step(c.k, GenAmpere); got != step(AttnFA2, GenAmpere) {
			t.Errorf("%v on Ampere: step %v s, want FlashAttention-2's %v (no kernel table there)", c.k, got, step(AttnFA2, GenAmpere))
		}
	}
}

// TestAttnKernelInput: the kernel is read by name, an unknown one is
// refused, and a fused kernel with materialised scores
// (--flash-attention=false) is a contradiction the estimator names.
func TestAttnKernelInput(t *testing.T) {
	for _, k := range AttnKernels {
		got, err := ParseAttnKernel(k.String())
		if err != nil || got != k {
			t.Errorf("ParseAttnKernel(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, err := ParseAttnKernel("flash"); !errors.Is(err, ErrUnknown) {
		t.Errorf("ParseAttnKernel(flash): %v, want ErrUnknown", err)
	}
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.AttnKernel, in.FlashAttention = Pretrain, AttnCuDNN, false
	var ie *InputError
	if _, err := Estimate(in); !errors.As(err, &ie) || ie.Field != "attention-kernel" || !errors.Is(err, ErrIncompatible) {
		t.Errorf("cuDNN kernel without FlashAttention: %v, want an attention-kernel ErrIncompatible", err)
	}
	in.AttnKernel = AttnKernel(7)
	if _, err := Estimate(in); !errors.As(err, &ie) || ie.Field != "attention-kernel" || !errors.Is(err, ErrUnknown) {
		t.Errorf("kernel 7: %v, want an attention-kernel ErrUnknown", err)
	}
}
