package estimator

import (
	"math"
	"testing"
)

// NCCL's latency model (tuning.cc, Simple protocol), by hand: one node of
// 8 NVLink GPUs rings 14 hops at 3.4 µs after an 8.4 µs base; 2,048 ranks
// on 256 nodes ring 3,584 NVLink and 510 network hops (17.09 ms, × 1.9
// across nodes) or climb a tree of 2·(7 × 28 + 8 × 50) µs = 1.192 ms,
// which NCCL picks; 16 ranks on 2 nodes ring 28 + 2 hops (122.8 µs × 1.9
// = 233.3 µs) against a tree's 2·(7 × 28 + 50) = 492 µs.
func TestNCCLAllReduceLatency(t *testing.T) {
	nv := Hardware{LinkBandwidth: 300e9, NVLinkDomain: 8}
	for _, c := range []struct {
		n, perNode int
		want       float64
	}{
		{1, 8, 0},
		{8, 8, 8.4e-6 + 14*3.4e-6},
		{16, 8, 1.9 * (8.4e-6 + 28*3.4e-6 + 2*9.6e-6)},
		{2048, 8, 2 * (7*28e-6 + 8*50e-6)},
	} {
		if got := ncclAllReduceLatency(nv, c.n, c.perNode); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%d ranks, %d per node: %g s, want %g", c.n, c.perNode, got, c.want)
		}
	}
	// PCIe hops cost 5.7 µs.
	if got, want := ncclAllReduceLatency(Hardware{}, 4, 4), 8.4e-6+6*5.7e-6; math.Abs(got-want) > 1e-12 {
		t.Errorf("4 PCIe GPUs: %g s, want %g", got, want)
	}
}

// NCCL's ring reduce-scatter and all-gather latency (tuning.cc: ring
// only, n − 1 steps of which nodes − 1 cross the network), by hand: 8
// NVLink GPUs 8.4 + 7 × 3.4 µs; 2,048 ranks on 256 nodes 8.4 + 1,792 ×
// 3.4 + 255 × 9.6 µs = 8.55 ms, 14 times half the tree all-reduce's
// 1.192 ms that priced it before; one rank a node (TP 8) over 256 nodes
// 8.4 + 255 × 9.6 µs.
func TestNCCLShardLatency(t *testing.T) {
	nv := Hardware{LinkBandwidth: 300e9, NVLinkDomain: 8}
	for _, c := range []struct {
		n, perNode int
		want       float64
	}{
		{1, 8, 0},
		{8, 8, 8.4e-6 + 7*3.4e-6},
		{2048, 8, 8.4e-6 + 1792*3.4e-6 + 255*9.6e-6},
		{256, 1, 8.4e-6 + 255*9.6e-6},
	} {
		if got := ncclShardLatency(nv, c.n, c.perNode); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%d ranks, %d per node: %g s, want %g", c.n, c.perNode, got, c.want)
		}
	}
	if got, tree := ncclShardLatency(nv, 2048, 8), ncclAllReduceLatency(nv, 2048, 8)/2; got < 14*tree {
		t.Errorf("2,048 ranks: %g s, want the ring's n − 1 steps, not half the tree all-reduce (%g s)", got, tree)
	}
}

// dataParallelComm by hand: Llama 2 7B (6.74e9 parameters, bf16) on 2,048
// A100s with ZeRO-1 is Megatron's distributed optimizer: buckets of
// max(40M, 1M × 2048) parameters, so 4 buckets, each reduce-scattered
// under the backward pass (total; the last bucket is the tail) in fp32
// (gradReduceElem: 4 bytes a gradient, twice the bf16 parameters' bytes)
// and the bf16 parameters all-gathered after the optimizer step (after,
// all of it exposed), at the hierarchical bus bandwidth plus NCCL's ring
// latency per bucket. Plain DDP (ZeRO 0) on 64 GPUs packs 25 MB buckets of fp32
// gradients: 1,079 of them (540 in pure bf16). FSDP (ZeRO-3) gathers the
// bf16 parameters twice and reduce-scatters the fp32 gradients once per
// block.
func TestDataParallelComm(t *testing.T) {
	a := loadArch(t, "llama-2-7b-hf.json")
	in := DefaultInput(a)
	in.Task, in.ZeRO, in.GPUs = Pretrain, 1, 2048
	hw := a100SXM.withDefaults()
	params := float64(a.TotalParams)
	psi := 2 * params
	bw := dpBandwidth(hw, in, 2048)
	dc := dataParallelComm(in, hw, 2048, psi, params, 2, bw)
	ring := 2047.0 / 2048 * psi / bw
	sh := ncclShardLatency(hw, 2048, 8)
	if rs, ag := 2*ring+4*sh, ring+4*sh; math.Abs(relErr(dc.total, rs)) > 1e-12 || math.Abs(relErr(dc.tail, rs/4)) > 1e-12 || dc.perMicro ||
		math.Abs(relErr(dc.after, ag)) > 1e-12 || dc.afterTail != dc.after || dc.afterUnderForward {
		t.Errorf("ZeRO-1 on 2048: %+v, want an fp32 reduce-scatter %g (4 buckets) and a bf16 all-gather %g after the step", dc, rs, ag)
	}
	// Exposed with 300 ms of compute: the reduce-scatter (≈ 165 ms) hides
	// under the 200 ms backward pass but its last bucket; the all-gather
	// does not.
	if got, want := dc.exposed(0.3), 2*ring/4+sh+ring+4*sh; math.Abs(relErr(got, want)) > 1e-12 {
		t.Errorf("ZeRO-1 exposed %g s, want %g", got, want)
	}
	// 8 × 25 GB/s per node: the bus bandwidth is 2·2047/2048 / (2·255/256 / 200e9).
	if want := 2 * 2047.0 / 2048 / (2 * 255.0 / 256 / 200e9); math.Abs(relErr(bw, want)) > 1e-12 {
		t.Errorf("bus bandwidth %g, want %g", bw, want)
	}
	in.ZeRO, in.GPUs = 0, 64
	dc = dataParallelComm(in, hw, 64, psi, params, 2, dpBandwidth(hw, in, 64))
	if n := math.Ceil(2 * psi / 25e6); n != 1079 || math.Abs(relErr(dc.tail, dc.total/n)) > 1e-12 {
		t.Errorf("DDP buckets %v: %+v", n, dc)
	}
	in.PureBF16 = true
	pure := dataParallelComm(in, hw, 64, psi, params, 2, dpBandwidth(hw, in, 64))
	if n := math.Ceil(psi / 25e6); n != 540 || math.Abs(relErr(pure.tail, pure.total/n)) > 1e-12 {
		t.Errorf("pure bf16 DDP buckets %v: %+v", n, pure)
	}
	in.PureBF16 = false
	in.ZeRO = 3
	dc = dataParallelComm(in, hw, 64, psi, params, 2, dpBandwidth(hw, in, 64))
	r64 := 63.0 / 64 * psi / dpBandwidth(hw, in, 64)
	s64 := ncclShardLatency(hw, 64, 8)
	unit := 4*r64/32 + 3*s64
	if !dc.perMicro || math.Abs(relErr(dc.total, 32*unit)) > 1e-12 || math.Abs(relErr(dc.tail, r64/32+s64)) > 1e-12 {
		t.Errorf("ZeRO-3 per block: %+v, want %g per micro-batch", dc, 32*unit)
	}
	if dc := dataParallelComm(in, hw, 1, psi, params, 2, bw); dc != (dpComm{}) {
		t.Errorf("one rank: %+v", dc)
	}
}

// TestGradReduceElem: bf16 (and fp8) mixed-precision pre-training reduces
// its gradients in fp32 (Megatron-LM under --bf16, NeMo/Megatron-Bridge
// grad_reduce_in_fp32, torchtitan, Composer's DEFAULT, Llama 3 §3.3.2);
// fp16 (Megatron-LM, DeepSpeed), pure 16-bit training and fine-tunes in the
// compute dtype; fp32 training in fp32.
func TestGradReduceElem(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	for _, c := range []struct {
		task       Task
		w          DType
		pure       bool
		elem, want float64
	}{{Pretrain, BF16, false, 2, 4}, {Pretrain, FP8, false, 2, 4}, {Pretrain, FP16, false, 2, 2}, {Pretrain, BF16, true, 2, 2},
		{Pretrain, FP32, false, 4, 4}, {FullFinetune, BF16, false, 2, 2}, {LoRA, BF16, false, 2, 2}} {
		in.Task, in.Weights, in.PureBF16 = c.task, c.w, c.pure
		if got := gradReduceElem(in, c.elem); got != c.want {
			t.Errorf("%v %v pure=%v elem %g: %g bytes, want %g", c.task, c.w, c.pure, c.elem, got, c.want)
		}
	}
}

// The optimizer step by hand: mixed-precision AdamW moves 2 × (4 + 8) +
// 2 + 2 = 28 bytes per parameter, pure bf16 AdamW 2 + 2 × 4 + 4 = 14,
// pure bf16 8-bit AdamW 2 + 2 × 2.0039 + 4 = 10.008; at 0.75 of 2039 GB/s.
func TestOptimizerStep(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task = Pretrain
	for _, c := range []struct {
		opt   Optimizer
		pure  bool
		bytes float64
	}{{AdamW, false, 28}, {AdamW, true, 14}, {AdamW8bit, true, 2 + 2*(2+8.0/2048) + 4}, {SGD, false, 12}} {
		in.Optimizer, in.PureBF16 = c.opt, c.pure
		if got, want := optimizerStepSeconds(in, a100SXM, 1e9), 1e9*c.bytes/(2039e9*0.75); math.Abs(relErr(got, want)) > 1e-12 {
			t.Errorf("%v pure=%v: %g s, want %g (%g B/param)", c.opt, c.pure, got, want, c.bytes)
		}
	}
}

// A global batch smaller than replicas × Batch spreads thinner: each
// replica trains GlobalBatch / replicas sequences, once a step, while its
// gradient traffic stays whole, so the rate per GPU falls with scale and
// communication bounds the step. Every step trains the global batch. Llama 2 7B with 1,024 sequences of 4096
// on A100s (Llama 2 §2.2: 4M-token batches), ZeRO-1.
func TestGlobalBatchPerReplica(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-2-7b-hf.json"))
	in.Task, in.Seq, in.Batch, in.ZeRO = Pretrain, 4096, 1, 1
	w := Workload{GlobalBatch: 1024}
	if b := perReplicaBatch(in, w, 2048, 4096); b != 0.5 {
		t.Errorf("1024 sequences over 2048 replicas: %g each", b)
	}
	if b := perReplicaBatch(in, Workload{GlobalBatch: 1024, MicroBatches: 2}, 2048, 4096); b != 1 {
		t.Errorf("explicit micro-batches keep the batch: %g", b)
	}
	var last float64
	for i, g := range []int{256, 1024, 4096, 16384} {
		in.GPUs = g
		p := mustPerf(t, in, a100SXM, Efficiency{}, w)
		perGPU := p.TokensPerSecond / float64(g)
		if want := 1024 * 4096.0; math.Abs(relErr(p.TokensPerStep, want)) > 1e-12 {
			t.Errorf("%d GPUs: %g tokens per step, want %g", g, p.TokensPerStep, want)
		}
		if i > 0 && !(perGPU < last) {
			t.Errorf("%d GPUs: %g tok/s per GPU, not below %g", g, perGPU, last)
		}
		if g == 16384 && p.Bound != BoundCommunication {
			t.Errorf("16384 GPUs, 1/16 sequence each: bound %v (comm %g of %g s)", p.Bound, p.CommSeconds, p.StepSeconds)
		}
		if !(p.CommTotalSeconds >= p.CommSeconds) {
			t.Errorf("%d GPUs: total comm %g below exposed %g", g, p.CommTotalSeconds, p.CommSeconds)
		}
		last = perGPU
	}
}

// CommTotalSeconds counts what compute hides: an 8-GPU FSDP job on one
// NVLink node exposes almost nothing ("communication 0%") yet moves 3Ψ per
// micro-batch.
func TestCommTotal(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq = Pretrain, 8, 3, 2, 4096
	p := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{MicroBatches: 4})
	hw := h100SXMFP8.withDefaults()
	params := float64(in.Arch.TotalParams)
	dc := dataParallelComm(in, hw, 8, 2*params, params, 2, dpBandwidth(hw, in, 8))
	if math.Abs(relErr(p.CommTotalSeconds, 4*dc.total)) > 1e-12 || !(p.CommSeconds < 0.05*p.CommTotalSeconds) {
		t.Errorf("FSDP on 8 H100s: comm total %g s (want %g), exposed %g", p.CommTotalSeconds, 4*dc.total, p.CommSeconds)
	}
}

// TestLoRAZeRO3GathersTheBase: a LoRA under FSDP or ZeRO-3 shards its
// frozen base (Estimate divides it over the shard), so every micro-batch
// gathers the base twice, forward and backward, as a full fine-tune
// does; only the gradients are the adapters' alone. Llama 3.1 8B on 2 × 8
// H100s moves 2 × 15/16 × 16.06 GB of bf16 base a micro-batch at the
// hierarchical bus bandwidth, 62 ms, plus NCCL's ring latency on 3
// collectives of each of its 32 blocks (ncclShardLatency), 69 ms in all, where counting the adapters
// alone gave 0.6 ms (a 70B LoRA over 16 nodes' network came out as fast
// as on one node's NVLink).
func TestLoRAZeRO3GathersTheBase(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq = LoRA, 16, 3, 1, 2048
	p := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{})
	hw := h100SXMFP8.withDefaults()
	want := 2*15.0/16*2*float64(in.Arch.TotalParams)/dpBandwidth(hw, in, 16) + 32*3*ncclShardLatency(hw, 16, 8)
	if !(p.CommTotalSeconds >= want) || !(p.CommTotalSeconds < 1.01*want) {
		t.Errorf("LoRA at ZeRO-3 on 16 H100s: comm total %g s a step, want the base's two gathers and latency, %g s, and the adapters' gradients", p.CommTotalSeconds, want)
	}
}

// TestUnfusedAttnSeconds: the score matrices of attention without
// FlashAttention, by hand. GPT 1.7B of Narayanan et al. 2021 (24 heads, 24
// layers, h 2304) at 2048 tokens, one sequence, full recomputation:
// 2048 × 24 × (24 × 2048) = 2.416e9 scores × 30 bytes (8 forward, 14
// backward, 8 recomputed) over 2039 GB/s × 0.75 = 47.4 ms; half of that
// at TP 2; none with FlashAttention.
func TestUnfusedAttnSeconds(t *testing.T) {
	a, err := ParseConfig([]byte(`{"model_type":"gpt2","n_embd":2304,"n_layer":24,"n_head":24,"vocab_size":51200,"n_positions":2048}`))
	if err != nil {
		t.Fatal(err)
	}
	in := DefaultInput(a)
	in.Task, in.Seq, in.Batch, in.GradCheckpointing, in.FlashAttention = Pretrain, 2048, 1, true, false
	hw := Hardware{PeakFLOPS: 312e12, MemBandwidth: 2039e9}
	want := 2048.0 * 24 * 24 * 2048 * 30 / (2039e9 * 0.75)
	if got := unfusedAttnSeconds(in, hw, 1, 2048, 1); math.Abs(got/want-1) > 1e-9 {
		t.Errorf("unfused attention %.4g s, want %.4g", got, want)
	}
	tp := in
	tp.GPUs, tp.TP = 2, 2
	if got := unfusedAttnSeconds(tp, hw, 1, 2048, 1); math.Abs(got/(want/2)-1) > 1e-9 {
		t.Errorf("unfused attention at TP 2 %.4g s, want %.4g", got, want/2)
	}
	fa := in
	fa.FlashAttention = true
	if got := unfusedAttnSeconds(fa, hw, 1, 2048, 1); got != 0 {
		t.Errorf("with FlashAttention %.4g s, want 0", got)
	}
}
