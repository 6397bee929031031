package estimator

import (
	"math"
	"testing"
)

// llama3_70BArch is Llama 3 70B's shape (meta-llama/Meta-Llama-3-70B
// config.json: hidden 8192, 64 heads of 128, 8 KV heads, SwiGLU MLP
// 28,672 wide, 80 layers).
func llama3_70BArch() Arch {
	return Arch{Hidden: 8192, Heads: 64, KVHeads: 8, HeadDim: 128, Intermediate: 28672, GatedMLP: true, Layers: 80}
}

// TestTPOverlapExposed: what Transformer Engine's userbuffers leave of one
// layer's tensor-parallel traffic (tpOverlapExposed), by hand. xt = 1 s to
// move the whole activation, TP 4: a collective takes 0.75 s, a ring
// chunk 0.25 s. GEMMs far longer than the transfers leave the two forward
// reduce-scatters' last chunks, 0.5 s; instant GEMMs leave every
// collective, 4 forward + 6 backward (sequence parallelism all-gathers the
// column-parallel inputs again for their wgrads) and the two tails, 8 s; a
// full recomputation adds the forward's again. LoRA computes no base
// wgrad, so the two wgrad-side reduce-scatters stay exposed.
func TestTPOverlapExposed(t *testing.T) {
	in := Input{Arch: llama3_70BArch(), Task: Pretrain}
	for _, c := range []struct {
		name string
		mod  func(*Input)
		rate float64
		want float64
	}{
		{"long GEMMs", nil, 1, 0.5},
		{"instant GEMMs", nil, math.Inf(1), 10*0.75 + 2*0.25},
		{"long GEMMs, full recomputation", func(in *Input) { in.GradCheckpointing = true }, 1, 1.0},
		{"instant GEMMs, full recomputation", func(in *Input) { in.GradCheckpointing = true }, math.Inf(1), 14*0.75 + 4*0.25},
		{"long GEMMs, LoRA", func(in *Input) { in.Task = LoRA }, 1, 0.5 + 2*0.75},
	} {
		in := in
		if c.mod != nil {
			c.mod(&in)
		}
		if got := tpOverlapExposed(in, 4, 1, 8192, c.rate); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %g s exposed, want %g", c.name, got, c.want)
		}
	}
}

// TestTPCommOverlapStep: Megatron-Bridge's Llama 3 70B H100 FP8 layout
// (TP 4, PP 8, VP 5, 64 GPUs, GBS 256 of 8,192 tokens, 128 micro-batches
// a pipeline) with its recipe's tp_comm_overlap. Without it the step
// exposes 4 all-reduces of a 134 MB activation per layer, 10 layers and
// 128 + 7/5 micro-batch slots, about a tenth of the step. With it, an
// H100's FP8 GEMMs of one layer (the smallest, the attention output,
// 2 · 8,192 · 8192²/4 FLOPs ≈ 0.35 ms at 39.7% of 1,979 TFLOP/s)
// outlast each 0.22 ms collective, so only the two forward
// reduce-scatters' last chunks stay, 2 · 134 MB / 4 at the NVLink bus
// bandwidth each layer (0.2 s a step), and the step is about 10% shorter
// (the CLI's replay of Megatron-Bridge's row: 1,408 → 1,550 tokens/s a
// GPU, measured 1,664). The traffic itself (CommTotalSeconds) does not
// change.
func TestTPCommOverlapStep(t *testing.T) {
	in := DefaultInput(perfArch(t, "llama-3.1-70b.json"))
	in.Task, in.Weights, in.GPUs, in.TP, in.PP, in.ZeRO, in.Batch, in.Seq = Pretrain, FP8, 64, 4, 8, 1, 1, 8192
	in.AttnKernel = AttnCuDNN
	w := Workload{GlobalBatch: 256, VirtualStages: 5}
	off := mustPerf(t, in, h100SXMFP8, Efficiency{}, w)
	in.TPCommOverlap = true
	on := mustPerf(t, in, h100SXMFP8, Efficiency{}, w)
	if on.CommTotalSeconds != off.CommTotalSeconds {
		t.Errorf("traffic %g s with the overlap, %g s without: the overlap hides it, it does not remove it", on.CommTotalSeconds, off.CommTotalSeconds)
	}
	if off.MicroBatches != 128 || on.VirtualStages != 5 {
		t.Fatalf("%d micro-batches, %d chunks: want 128 and 5", off.MicroBatches, on.VirtualStages)
	}
	bw := collectiveBandwidth(h100SXMFP8.withDefaults(), 4)
	slots, x := 128+7.0/5, 8192*8192*2.0 // one micro-batch's activation in bf16
	allReduces := 10 * slots * 4 * 2 * 0.75 * x / bw
	tail := 10 * slots * 2 * x / 4 / bw
	if got, want := off.CommSeconds-on.CommSeconds, allReduces-tail; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("exposed communication fell %g s, want the all-reduces' %g s less the reduce-scatters' last chunks' %g s", got, allReduces, tail)
	}
	if got, want := off.StepSeconds-on.StepSeconds, allReduces-tail; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("step fell %g s, want %g s", got, want)
	}
	if r := off.StepSeconds / on.StepSeconds; r < 1.09 || r > 1.11 {
		t.Errorf("step %g s without the overlap, %g s with it: want about 10%% faster", off.StepSeconds, on.StepSeconds)
	}
	in.SequenceParallel = false
	if err := in.Validate(); err == nil {
		t.Error("--tp-comm-overlap without --sequence-parallel accepted")
	}
	in.SequenceParallel, in.Task = true, Inference
	if err := in.Validate(); err == nil {
		t.Error("--tp-comm-overlap for inference accepted")
	}
}
