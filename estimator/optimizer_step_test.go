package estimator

import (
	"errors"
	"math"
	"testing"
)

// TestOptimizerStepPhase pins foreach AdamW's step (foreachTempBytes,
// optimizerStepAllocated) on our H200 run of Qwen2.5 3B, a bf16-true full
// fine-tune at batch 1 × 512 whose peak was the optimizer step: 31.43 GB
// allocated (device-h200-2026-11-30/ft.json), 25.18 GB after the
// backward. By hand: bf16 weights, gradients and two moments, 8 bytes a
// parameter, and the temporary, one bf16 moment: 10 bytes a parameter
// (30.86 GB for 3,085,938,688 parameters), the peak, within 2% of the
// measurement where the step's breakdown is 12% under. Fused (and auto,
// which is fused outside LitGPT's scripts), 8-bit AdamW and the
// optimizer in the backward have no such moment; under FSDP mixed
// precision the temporary is the sharded fp32 moment.
func TestOptimizerStepPhase(t *testing.T) {
	a := loadArch(t, "qwen2.5-3b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.VRAM = FullFinetune, 1, 512, true, 141*GB
	in.OptimizerImpl = OptimizerImplForeach
	r := mustEstimate(t, in)
	p := float64(a.TotalParams)
	if p != 3085938688 {
		t.Fatalf("Qwen2.5 3B: %.0f parameters, want 3,085,938,688 (ft.json)", p)
	}
	if got := float64(r.PeakAllocated); math.Abs(got-10*p) > 4 {
		t.Errorf("allocated at the optimizer step %.0f B, want 10 B × %.0f = %.0f", got, p, 10*p)
	}
	b := r.PerGPU
	kept := math.Min(float64(b.AllocatorReserve), trainAllocatorKept*10*p)
	if got, w := float64(r.OptimizerStep), 10*p+float64(b.CUDAContext+b.NCCL+b.CUDAGraphs)+kept; math.Abs(got-w) > 4 {
		t.Errorf("OptimizerStep %.0f B, want %.0f", got, w)
	}
	if r.PeakPhase != PhaseOptimizerStep || r.Peak != r.OptimizerStep || r.PeakPhase.String() != "optimizer-step" {
		t.Errorf("peak %v at %v, want the optimizer step's %v", r.Peak, r.PeakPhase, r.OptimizerStep)
	}
	if e := relErr(float64(r.PeakAllocated), 31432439296); math.Abs(e) > 0.02 {
		t.Errorf("peak allocated %.2f GB against 31.43 GB measured: %+.1f%%", float64(r.PeakAllocated)/1e9, 100*e)
	}
	for name, f := range map[string]func(Input) Input{
		"fused":       func(x Input) Input { x.OptimizerImpl = OptimizerImplFused; return x },
		"auto":        func(x Input) Input { x.OptimizerImpl = OptimizerImplAuto; return x },
		"8-bit":       func(x Input) Input { x.Optimizer = AdamW8bit; return x },
		"in backward": func(x Input) Input { x.OptimizerInBackward = true; return x },
	} {
		x := mustEstimate(t, f(in))
		xb := x.PerGPU
		if x.OptimizerStep != 0 || x.PeakPhase == PhaseOptimizerStep || x.PeakAllocated != xb.Total()-xb.CUDAContext-xb.AllocatorReserve-xb.NCCL-xb.CUDAGraphs {
			t.Errorf("%s: OptimizerStep %v, phase %v: want none, the step's", name, x.OptimizerStep, x.PeakPhase)
		}
	}
	// FSDP mixed precision on 4 GPUs: fp32 master weights and moments,
	// 4 + 8 bytes a parameter sharded; the temporary is one fp32 moment's
	// shard, p × 4 / 4, and the gather buffer and the root's whole copy
	// are gone; the gradients are the 16-bit shard, p × 2 / 4 (the step's
	// breakdown holds only those in flight at the backward's start:
	// gradsNoneAtStart).
	f := in
	f.PureBF16, f.GPUs, f.ZeRO = false, 4, 3
	fr := mustEstimate(t, f)
	fb := fr.PerGPU
	shard := Bytes(p * 2 / 4)
	if !gradsNoneAtStart(f) || math.Abs(float64(fb.Gradients)-gradsInFlight(f)) > 1 {
		t.Errorf("FSDP, one micro-batch a step: gradients %v at the step's moment, want the %.0f B in flight", fb.Gradients, gradsInFlight(f))
	}
	want := float64(fb.Weights) - gatherBytes(f, 2) - fsdpRootBytes(f, 2, 4) + float64(shard+fb.Optimizer) + p*4/4
	if got := optimizerStepAllocated(f, fb, shard); math.Abs(got-want) > 4 {
		t.Errorf("FSDP mixed precision: optimizer step %.0f B, want %.0f", got, want)
	}
	if got := foreachTempBytes(f, fb); math.Abs(got-p) > 4 {
		t.Errorf("FSDP mixed precision: temporary %.0f B, want %.0f (one fp32 moment over 4 ranks)", got, p)
	}
}

// TestOptimizerImplInput: the names round-trip, an unknown one and a
// setting for inference are refused with the field named.
func TestOptimizerImplInput(t *testing.T) {
	for _, o := range OptimizerImpls {
		if got, err := ParseOptimizerImpl(o.String()); err != nil || got != o {
			t.Errorf("%v: parsed %v, %v", o, got, err)
		}
	}
	var ie *InputError
	if _, err := ParseOptimizerImpl("apex"); !errors.As(err, &ie) || ie.Field != "optimizer-impl" || !errors.Is(err, ErrUnknown) {
		t.Errorf("apex: %v, want an unknown optimizer-impl", err)
	}
	in := DefaultInput(loadArch(t, "qwen2.5-3b.json"))
	in.OptimizerImpl = OptimizerImplForeach
	if _, err := Estimate(in); !errors.As(err, &ie) || ie.Field != "optimizer-impl" || !errors.Is(err, ErrIncompatible) {
		t.Errorf("inference with foreach: %v, want an incompatible optimizer-impl", err)
	}
	in.OptimizerImpl = OptimizerImpl(7)
	if _, err := Estimate(in); !errors.As(err, &ie) || ie.Field != "optimizer-impl" || !errors.Is(err, ErrUnknown) {
		t.Errorf("OptimizerImpl(7): %v, want an unknown optimizer-impl", err)
	}
}
