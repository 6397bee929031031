package estimator

import (
	"math"
	"strings"
	"testing"
)

// TestAutocastCopyAndGradients pins the 16-bit weight copies of a
// mixed-precision full fine-tune (autocastMixed) on our H200 runs of
// Qwen2.5 3B at batch 1 × 512 (device-h200-2026-11-30/ft2.json: fp32
// weights, gradients and AdamW states under bf16 autocast, one
// micro-batch a step). With one micro-batch the copies and the gradients
// are never whole together, so the step counts 4 + 4 bytes a parameter of
// fp32 weights and gradients (the copies, 2, inside the gradients' 4):
// fused AdamW's peak, the step's, within 4% of the 50.70 GB measured (it
// read 57.6 GB, +15.5%, with the copies beside the gradients). foreach
// AdamW's peak is its optimizer step, fp32 weights, gradients, two
// moments and one moment's temporary, 20 bytes a parameter (61.72 GB)
// against 61.80 GB measured (it read 67.9 GB with the copies). With
// accumulation (global batch 4) the earlier micro-batches' gradients
// stand beside each forward's copies: 6 bytes a parameter of weights in
// the step, and still 20 at the optimizer step, after the backward has
// freed the copies.
func TestAutocastCopyAndGradients(t *testing.T) {
	a := loadArch(t, "qwen2.5-3b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.Weights, in.VRAM = FullFinetune, 1, 512, BF16, 141*GB
	p := float64(a.TotalParams)
	if p != 3085938688 {
		t.Fatalf("Qwen2.5 3B: %.0f parameters, want 3,085,938,688 (ft2.json)", p)
	}
	fused := in
	fused.OptimizerImpl = OptimizerImplFused
	r := mustEstimate(t, fused)
	if got := float64(r.PerGPU.Weights); math.Abs(got-4*p) > 4 {
		t.Errorf("one micro-batch: weights %.0f B, want the fp32 weights alone, 4 B × %.0f = %.0f", got, p, 4*p)
	}
	if e := relErr(float64(r.PeakAllocated), 50701958144); r.PeakPhase != PhaseStep || e < 0 || e > 0.04 {
		t.Errorf("fused: peak allocated %.2f GB at %v against 50.70 GB measured at the step: %+.1f%%", float64(r.PeakAllocated)/1e9, r.PeakPhase, 100*e)
	}
	foreach := in
	foreach.OptimizerImpl = OptimizerImplForeach
	r = mustEstimate(t, foreach)
	if got := float64(r.PeakAllocated); r.PeakPhase != PhaseOptimizerStep || math.Abs(got-20*p) > 8 {
		t.Errorf("foreach: peak allocated %.0f B at %v, want the optimizer step's 20 B × %.0f = %.0f", got, r.PeakPhase, p, 20*p)
	}
	if e := relErr(float64(r.PeakAllocated), 61796636160); math.Abs(e) > 0.01 {
		t.Errorf("foreach: peak allocated %.2f GB against 61.80 GB measured: %+.1f%%", float64(r.PeakAllocated)/1e9, 100*e)
	}
	acc := foreach
	acc.Schedule.GlobalBatch = 4
	r = mustEstimate(t, acc)
	if got := float64(r.PerGPU.Weights); math.Abs(got-6*p) > 4 {
		t.Errorf("accumulating: weights %.0f B, want fp32 weights and the 16-bit copies, 6 B × %.0f = %.0f", got, p, 6*p)
	}
	if got := float64(r.PeakAllocated); math.Abs(got-20*p) > 8 {
		t.Errorf("accumulating: optimizer step %.0f B, want 20 B × %.0f = %.0f (no copies)", got, p, 20*p)
	}
	// bf16-true and FSDP mixed precision make no autocast copies.
	for name, x := range map[string]Input{
		"pure bf16": func() Input { x := foreach; x.PureBF16 = true; return x }(),
		"fsdp":      func() Input { x := acc; x.GPUs, x.ZeRO = 4, 3; return x }(),
	} {
		if autocastMixed(x) || autocastCopyBytes(x, mustEstimate(t, x).PerGPU) != 0 {
			t.Errorf("%s: counted autocast copies", name)
		}
	}
}

// TestFSDPRootLocalShard: under FSDP1 with the Block-only wrap
// (FSDPNoSync's stacks) the root unit's gathered parameters are a whole
// (embedding + head) above the rank's own shard of them, which stays
// allocated beside the all-gather's destination (FlatParamHandle's
// _local_shard and _full_param_padded): Llama 3.1 8B's untied embedding
// and head (and final norm), 2 × 128,256 × 4,096 bf16, 2.10 GB on each of
// 4 GPUs, where
// (1 − 1/4) of it, 1.58 GB, was counted before. On one GPU FSDP1 runs
// NO_SHARD: no root copy.
func TestFSDPRootLocalShard(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = FullFinetune, 4, 512, true, true
	in.GPUs, in.ZeRO, in.FSDPNoSync = 4, 3, true
	root := float64(a.EmbeddingParams + a.HeadParams)
	if root != 2*128256*4096+4096 {
		t.Fatalf("Llama 3.1 8B: embedding, final norm and head %.0f, want 2 × 128,256 × 4,096 + 4,096", root)
	}
	if got := fsdpRootBytes(in, 2, 4); math.Abs(got-2*root) > 1 {
		t.Errorf("root unit %.0f B above the shard, want the whole embedding and head in bf16 %.0f", got, 2*root)
	}
	r := mustEstimate(t, in)
	want := 2*float64(a.TotalParams)/4 + gatherBytes(in, 2) + 2*root
	if got := float64(r.PerGPU.Weights); math.Abs(got-want) > 4 {
		t.Errorf("weights %.0f B, want the shard, two gathered blocks and the whole root %.0f", got, want)
	}
	in.GPUs = 1
	if got := fsdpRootBytes(in, 2, 1); got != 0 {
		t.Errorf("one GPU (FSDP1's NO_SHARD): root %.0f B, want 0", got)
	}
}

// TestPEFTAdapterInputCast pins PEFT's fp32 adapters over a bf16 base
// without autocast (ResolveAdapterDType, loraInputCast) on our H200 run
// of Llama 3.1 8B LoRA r32 on q and v, batch 2 × 512, dropout 0, bf16
// weights and foreach AdamW (device-h200-2026-11-30/ft2.json: 23.52 GB
// peak allocated). PEFT's adapters are fp32: 13,631,488 parameters
// of 4 bytes (--adapter-dtype fp32), 2 more than bf16 adapters; and each adapted linear saves
// its own fp32 copy of the attention input (q and v: 2 × 4 B a hidden
// element) and an fp32 A·x (r wide), where bf16 adapters save the input
// once in bf16 and a bf16 A·x: 6h + 4r bytes more a token and layer. The
// peak reads within 2% of the measurement (−5.1% with bf16 adapters,
// auto's under bf16-true).
// LitGPT's and torchtune's 16-bit adapters (--adapter-dtype bf16) cast
// nothing, and Lightning's bitsandbytes QLoRA plugin is bf16 on auto.
func TestPEFTAdapterInputCast(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.VRAM = LoRA, 2, 512, true, 141*GB
	in.LoRARank, in.LoRATargets, in.LoRADropout, in.OptimizerImpl = 32, LoRAQueryValue, 0, OptimizerImplForeach
	// auto keeps a 16-bit-only step's adapters in the base's dtype
	// (torchtune's and LitGPT's) and autocast's in fp32 (PEFT's, as every
	// mixed-precision recipe trains its weights); this run is PEFT over a
	// bf16 model without autocast: --adapter-dtype fp32.
	if got := ResolveAdapterDType(in); got != BF16 {
		t.Errorf("auto under bf16-true: %v adapters, want the base's bf16", got)
	}
	if mixed := (Input{Weights: BF16}); ResolveAdapterDType(mixed) != FP32 {
		t.Errorf("auto under autocast: %v adapters, want fp32", ResolveAdapterDType(mixed))
	}
	in.AdapterDType = AdapterFP32
	peft := mustEstimate(t, in)
	if peft.TrainableParams != 13631488 {
		t.Fatalf("trainable %d, want 13,631,488 (ft2.json)", peft.TrainableParams)
	}
	if e := relErr(float64(peft.PeakAllocated), 23521708032); math.Abs(e) > 0.02 {
		t.Errorf("PEFT's fp32 adapters: peak allocated %.2f GB against 23.52 GB measured: %+.1f%%", float64(peft.PeakAllocated)/1e9, 100*e)
	}
	bf := in
	bf.AdapterDType = AdapterBF16
	lit := mustEstimate(t, bf)
	if got, want := peft.PerGPU.Weights-lit.PerGPU.Weights, Bytes(2*13631488); got != want {
		t.Errorf("fp32 adapters add %d B of weights, want %d", got, want)
	}
	h, r := float64(a.Hidden), 32.0
	want := float64(a.Layers) * 1024 * (6*h + 4*r) // 809,500,672 B
	if got := float64(peft.PerGPU.Activations - lit.PerGPU.Activations); math.Abs(got-want) > float64(a.Layers) {
		t.Errorf("fp32 input copies add %.0f B of activations, want %.0f", got, want)
	}
	if e := relErr(float64(lit.PeakAllocated), 23521708032); e > -0.04 {
		t.Errorf("bf16 adapters read %+.1f%%, want the old count's under-estimate", 100*e)
	}
	// No copy under autocast (mixed precision: the matmul casts back to
	// 16-bit) nor over an fp32 base; Lightning's QLoRA plugin is bf16.
	mixed := in
	mixed.PureBF16 = false
	if loraInputCast(mixed) || ResolveAdapterDType(mixed) != FP32 {
		t.Error("mixed precision: counted an fp32 input copy, or not fp32 adapters")
	}
	q := in
	q.Task, q.Weights, q.AdapterDType = QLoRA, INT4, AdapterAuto
	if !LightningQLoRADefault(q) || ResolveAdapterDType(q) != BF16 || loraInputCast(q) {
		t.Errorf("Lightning's bf16-true QLoRA: %v adapters", ResolveAdapterDType(q))
	}
	for name, x := range map[string]Input{
		"full fine-tune": func() Input { x := bf; x.Task = FullFinetune; return x }(),
		"fp16 on bf16":   func() Input { x := in; x.AdapterDType = AdapterFP16; return x }(),
	} {
		if err := x.Validate(); err == nil || !strings.Contains(err.Error(), "adapter-dtype") {
			t.Errorf("%s: accepted (%v)", name, err)
		}
	}
}

// TestZeRO3OneGPUGathersNothing: on one GPU FSDP1 runs NO_SHARD and
// DeepSpeed ZeRO-3 hands each parameter its own partition (no
// all-gather), so --zero 3 holds the weights as ZeRO 0 does, without two
// gathered blocks (gatherBytes); with the parameters on the host each
// block is still copied in, and on two GPUs both are gathered.
func TestZeRO3OneGPUGathersNothing(t *testing.T) {
	a := loadArch(t, "llama-3.2-1b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.VRAM = FullFinetune, 4, 512, true, 141*GB
	plain := mustEstimate(t, in)
	in.ZeRO = 3
	one := mustEstimate(t, in)
	if one.PerGPU.Weights != plain.PerGPU.Weights || one.PerGPU.Weights != Bytes(2*a.TotalParams) {
		t.Errorf("one GPU, ZeRO 3: weights %d B, want ZeRO 0's %d (2 B × %d)", one.PerGPU.Weights, plain.PerGPU.Weights, a.TotalParams)
	}
	off := in
	off.Offload = OffloadAll
	if got, want := mustEstimate(t, off).PerGPU.Weights, toBytes(gatherBytes(off, 2)); got != want || want <= 0 {
		t.Errorf("one GPU, parameters on the host: weights %d B, want the copied-in blocks %d", got, want)
	}
	two := in
	two.GPUs = 2
	if g := gatherBytes(two, 2); g != 2*float64(a.MaxLayerParams)*2 {
		t.Errorf("two GPUs: gather %.0f B, want two bf16 blocks %.0f", g, 4*float64(a.MaxLayerParams))
	}
}

// TestFSDPFP32GatherAutocastCopies pins FSDP over fp32 weights under
// autocast (Input.FSDPGatherFP32, Lightning's bf16-mixed) on our H200 runs
// (device-h200-2026-11-30-fsdp/ft4.json, one rank of 8 through the fake
// process group, foreach AdamW, batch 1 × 512): Llama 3.1 8B without
// checkpointing peaks at 38.93 GB with autocast's bf16 copy of every
// weight held for the backward (it read 20.34 GB with the 16-bit gather,
// the flag off, −48%); with checkpointing and 2 micro-batches accumulated
// under no_sync (FSDP1), at 54.30 GB, the whole model's fp32 gradients and
// no copies. The sharded states are 4 + 4 + 8 bytes a parameter (no
// separate master copy); the copies are gone at the optimizer step.
func TestFSDPFP32GatherAutocastCopies(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.Weights, in.VRAM = FullFinetune, 1, 512, BF16, 141*GB
	in.GPUs, in.ZeRO, in.OptimizerImpl = 8, 3, OptimizerImplForeach
	p := float64(a.TotalParams)
	off := mustEstimate(t, in)
	in.FSDPGatherFP32 = true
	on := mustEstimate(t, in)
	if e := relErr(float64(on.PeakAllocated), 38927969280); math.Abs(e) > 0.06 {
		t.Errorf("fp32 gather: peak allocated %.2f GB at %v against 38.93 GB measured: %+.1f%%", float64(on.PeakAllocated)/1e9, on.PeakPhase, 100*e)
	}
	// One micro-batch a step: the step's moment holds the gradients in
	// flight at the backward's start, the head's and one block's, in fp32
	// (gradsInFlight); the fp32 shards, 4 B × p / 8, are the backward
	// end's and the optimizer step's.
	if got, want := float64(on.PerGPU.Gradients), (float64(a.HeadParams)+float64(a.MaxLayerParams))*4; math.Abs(got-want) > 8 {
		t.Errorf("fp32 gather: gradients %.0f B at the step's moment, want the head's and a block's in fp32, %.0f", got, want)
	}
	if got, want := float64(on.PerGPU.Optimizer), 8*p/8; math.Abs(got-want) > 8 {
		t.Errorf("fp32 gather: optimizer %.0f B, want the two fp32 moments' shard, no master copy, %.0f", got, want)
	}
	if got := float64(on.PerGPU.Weights - off.PerGPU.Weights); got < 2*p || got > 2*p+6e9 {
		t.Errorf("fp32 gather adds %.2f GB of weights, want the bf16 copies (%.2f GB) plus fp32 over 16-bit shards, gathers and root", got/1e9, 2*p/1e9)
	}
	if on.OptimizerStep >= on.Peak {
		t.Errorf("the copies are gone at the optimizer step: step %v, optimizer step %v", on.Peak, on.OptimizerStep)
	}
	acc := in
	acc.GradCheckpointing, acc.FSDPNoSync, acc.Schedule.GlobalBatch = true, true, 16
	r := mustEstimate(t, acc)
	if e := relErr(float64(r.PeakAllocated), 54298476544); math.Abs(e) > 0.06 {
		t.Errorf("checkpointing, 2 micro-batches under no_sync: peak allocated %.2f GB at %v against 54.30 GB measured: %+.1f%%", float64(r.PeakAllocated)/1e9, r.PeakPhase, 100*e)
	}
	if got, want := float64(r.PerGPU.Gradients), 4*p; math.Abs(got-want) > 8 {
		t.Errorf("no_sync: gradients %.0f B, want the whole model's in fp32, %.0f", got, want)
	}
	for _, c := range []struct {
		name string
		mod  func(*Input)
	}{
		{"pure bf16", func(in *Input) { in.PureBF16 = true }},
		{"lora", func(in *Input) { in.Task = LoRA }},
		{"inference", func(in *Input) { in.Task, in.ZeRO = Inference, 0 }},
	} {
		bad := in
		c.mod(&bad)
		if _, err := Estimate(bad); err == nil || !strings.Contains(err.Error(), "fsdp-fp32-gather") {
			t.Errorf("%s with the fp32 gather: err %v, want an fsdp-fp32-gather message", c.name, err)
		}
	}
	// One GPU (no shards) gathers nothing: the flag is a stack property
	// the plan's layout decides on.
	one := in
	one.GPUs = 1
	in0 := one
	in0.FSDPGatherFP32 = false
	if a, b := mustEstimate(t, one), mustEstimate(t, in0); a.PeakAllocated != b.PeakAllocated {
		t.Errorf("one GPU: %v with the fp32 gather, %v without", a.PeakAllocated, b.PeakAllocated)
	}
}

// TestFSDPBackwardStart pins a full fine-tune under FSDP with one
// micro-batch a step (gradsNoneAtStart) on our H200 runs
// (device-h200-2026-11-30-fsdp/ft3.json, one rank of W through the fake
// process group, bf16-true, foreach AdamW, Llama 3.1 8B at 1 × 512): the
// step's moment is the backward's start, the sharded weights and moments,
// the root unit's embedding and head whole, the activations and the
// gradients in flight (the head's and one block's, unsharded); the shards
// are whole only at the backward's end, where FSDP1 assembles the root's
// gradient twice and FSDP2 once. Measured peaks (GB): FSDP2 at 8 ranks
// 14.18 (the backward, 12.70 at the forward's end), FSDP2 at 4 ranks
// 20.44, FSDP1 at 4 ranks 21.91; the LoRA r32 on q and v with fp32
// adapters at 4 ranks, FSDP2, 10.41 (the frozen root held as well).
// Before: the step held the whole shard of the gradients and no root,
// −13.2%, −0.5%, −7.1%, −20.3%.
func TestFSDPBackwardStart(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	base := DefaultInput(a)
	base.Task, base.Batch, base.Seq, base.PureBF16, base.VRAM = FullFinetune, 1, 512, true, 141*GB
	base.ZeRO, base.OptimizerImpl = 3, OptimizerImplForeach
	for _, c := range []struct {
		name     string
		gpus     int
		fsdp2    bool
		lora     bool
		measured float64 // GB, torch.cuda.max_memory_allocated
		tol      float64
	}{
		{"FSDP2, 8 ranks", 8, true, false, 14.18e9, 0.03},
		{"FSDP2, 4 ranks", 4, true, false, 20.44e9, 0.03},
		{"FSDP1, 4 ranks", 4, false, false, 21.91e9, 0.02},
		{"FSDP2 LoRA, 4 ranks", 4, true, true, 10.41e9, 0.02},
	} {
		in := base
		in.GPUs, in.FSDP2 = c.gpus, c.fsdp2
		if c.lora {
			in.Task, in.LoRARank, in.LoRATargets, in.AdapterDType, in.FSDPAdapterUnits = LoRA, 32, LoRAQueryValue, AdapterFP32, true
		}
		r := mustEstimate(t, in)
		if e := relErr(float64(r.PeakAllocated), c.measured); math.Abs(e) > c.tol {
			t.Errorf("%s: peak allocated %.2f GB at %v against %.2f GB measured: %+.1f%%", c.name, float64(r.PeakAllocated)/1e9, r.PeakPhase, c.measured/1e9, 100*e)
		}
		if c.lora {
			continue
		}
		if !gradsNoneAtStart(in) || math.Abs(float64(r.PerGPU.Gradients)-gradsInFlight(in)) > 1 {
			t.Errorf("%s: gradients %v at the step's moment, want the %.0f B in flight", c.name, r.PerGPU.Gradients, gradsInFlight(in))
		}
		if want := (float64(a.HeadParams) + float64(a.MaxLayerParams)) * 2; math.Abs(gradsInFlight(in)-want) > 1 {
			t.Errorf("%s: gradients in flight %.0f B, want the head's and a block's in bf16, %.0f", c.name, gradsInFlight(in), want)
		}
	}
	// Accumulating, the earlier micro-batches' gradients are there through
	// the later forwards: the whole shard (no no_sync) or the whole model's.
	acc := base
	acc.GPUs, acc.Schedule.GlobalBatch = 4, 8
	if r := mustEstimate(t, acc); gradsNoneAtStart(acc) || math.Abs(float64(r.PerGPU.Gradients)-2*float64(a.TotalParams)/4) > 2 {
		t.Errorf("2 micro-batches a step: gradients %v, want the shard %.0f", r.PerGPU.Gradients, 2*float64(a.TotalParams)/4)
	}
}
