package estimator

// Training communication by scale: the latency of each collective as NCCL
// models it, how many collectives a step issues (buckets, FSDP units), the
// part no schedule can hide, the optimizer's own step, pipeline sends and
// the global batch spread over the data-parallel ranks.

import "math"

// NCCL's cost model (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel,
// the Simple protocol used for large messages): an all-reduce over a ring
// of n ranks on m nodes costs baseLat + (2(n−1) − 2(m−1))·intra hop +
// 2(m−1)·network hop, × 1.9 across nodes for large messages ("plateau
// effect of ring"); the double binary tree costs 2·((n/m − 1)·intra +
// log2(m)·network). NCCL takes the faster algorithm for each call, so
// across many nodes the tree's logarithmic latency wins. Figures in
// seconds, from its baseLat and hwLat tables (Ring/Simple: 8.4 µs base,
// 3.4 µs per NVLink hop, 5.7 per PCIe hop, 9.6 per network hop;
// Tree/Simple: 28 µs per intra-node and 50 µs per network step, a 256 kB
// chunk each).
const (
	ncclRingBase    = 8.4e-6
	ncclRingNVLink  = 3.4e-6
	ncclRingPCIe    = 5.7e-6
	ncclRingNet     = 9.6e-6
	ncclRingPlateau = 1.9
	ncclTreeIntra   = 28e-6
	ncclTreeNet     = 50e-6
)

// ncclAllReduceLatency is the latency term of one all-reduce among n ranks,
// perNode of them in each node (NCCL's ring and tree models above, the
// faster of the two). Reduce-scatters and all-gathers have no tree:
// ncclShardLatency.
func ncclAllReduceLatency(hw Hardware, n, perNode int) float64 {
	if n <= 1 {
		return 0
	}
	perNode, nodes, intra := ringHops(hw, n, perNode)
	inter := 2 * (nodes - 1)
	ring := ncclRingBase + float64(2*(n-1)-inter)*intra + float64(inter)*ncclRingNet
	if nodes == 1 {
		return ring
	}
	ring *= ncclRingPlateau
	tree := 2 * (float64(perNode-1)*ncclTreeIntra + math.Ceil(math.Log2(float64(nodes)))*ncclTreeNet)
	return math.Min(ring, tree)
}

// ringHops is a ring of n ranks' layout for NCCL's latency model: ranks a
// node (at least 1, at most n), nodes, and the intra-node hop's latency
// (NVLink, or PCIe where the GPU's links are no faster).
func ringHops(hw Hardware, n, perNode int) (int, int, float64) {
	perNode = max(1, min(perNode, n))
	intra := ncclRingNVLink
	if hw.LinkBandwidth <= PCIeBandwidth {
		intra = ncclRingPCIe
	}
	return perNode, (n + perNode - 1) / perNode, intra
}

// ncclShardLatency is the latency term of one reduce-scatter or
// all-gather among n ranks, perNode of them in each node. NCCL runs
// these two collectives as a ring only: its tuning model skips every
// other algorithm for them (src/graph/tuning.cc at v2.17.1, "if (coll ==
// ncclFuncReduceScatter && a != NCCL_ALGO_RING && a != NCCL_ALGO_NVLS)
// continue", NVLS being NVLink SHARP inside one node; the same at
// v2.30.7, where PAT joins only for one GPU per node), so the tree's
// logarithmic latency that an all-reduce across many nodes gets
// (ncclAllReduceLatency) is not theirs. The ring takes n − 1 steps, of
// which nodes − 1 cross the network ("nsteps = nRanks-1", "nInterSteps
// = nNodes-1"): baseLat + (n − nodes)·intra hop + (nodes − 1)·network
// hop, with the Ring/Simple constants above. Across thousands of ranks
// this is milliseconds a collective (2,048 ranks on 256 nodes: 8.55 ms,
// against 0.6 ms for half a tree all-reduce), paid once per bucket, or
// per block and micro-batch under ZeRO-3. PAT, NCCL 2.23's logarithmic
// reduce-scatter and all-gather, runs only with one GPU a node and NCCL
// ≥ 2.23 (ncclPatEnable: "PAT only supports 1 GPU per node"), and is not
// modelled: with TP filling a node the ring here is an upper bound.
func ncclShardLatency(hw Hardware, n, perNode int) float64 {
	if n <= 1 {
		return 0
	}
	_, nodes, intra := ringHops(hw, n, perNode)
	return ncclRingBase + float64(n-nodes)*intra + float64(nodes-1)*ncclRingNet
}

// Gradient buckets: how many collectives a data-parallel step issues.
//
//   - PyTorch DDP packs gradients into 25 MB buckets (bucket_cap_mb=25,
//     torch.nn.parallel.DistributedDataParallel; Li et al. 2020 §3.2.3) and
//     all-reduces each as it fills.
//   - Megatron-Core's DDP and distributed optimizer (what TP/PP jobs and
//     ZeRO-1 here stand for) use buckets of max(40M, 1M × DP) parameters
//     (DistributedDataParallelConfig.bucket_size: larger with more ranks
//     "to amortize the latency"), reduce-scattered, then all-gathered back
//     after the optimizer.
//   - FSDP and ZeRO-2/3 collect per wrapped unit, one transformer block
//     (PyTorch FSDP's transformer auto-wrap; Zhao et al. 2023 §3): ZeRO-3
//     all-gathers each block's parameters for the forward and again for
//     the backward pass and reduce-scatters its gradients on every
//     micro-batch; ZeRO-2 reduce-scatters gradients and all-gathers the
//     updated parameters once a step.
const (
	ddpBucketBytes       = 25e6
	megatronBucketParams = 40e6
	megatronBucketPerDP  = 1e6
)

// dpComm is one step's data-parallel traffic for d ranks: its whole time
// (bandwidth and per-collective latency), the part that can overlap the
// backward pass, and the part no schedule hides (the last bucket, whose
// gradients are ready only when the backward pass ends, or with ZeRO-3 the
// first block's gather before any compute).
type dpComm struct {
	total, tail float64
	perMicro    bool // ZeRO-3: the traffic repeats on every micro-batch (total is per micro-batch)
	// after is ZeRO-1/2's all-gather of the updated parameters, which
	// follows the optimizer step and so cannot run under the backward
	// pass (not part of total): each rank updates only its shard and the
	// others need it before the next forward (Rajbhandari et al. 2020,
	// ZeRO §5.1: P_os all-gathers the updated parameters at the end of
	// each step; §7.2.1: reduce-scatter, update, all-gather, 2Ψ). DeepSpeed's stage 1/2 optimizer all-gathers the
	// partitions at the end of its step (overlap_comm overlaps the
	// gradient reduction only); PyTorch's ZeroRedundancyOptimizer
	// broadcasts the updated shards after step() unless overlap_with_ddp;
	// Megatron-LM's distributed optimizer (docs/distrib_optimizer.md)
	// all-gathers after the step unless --overlap-param-gather (off by
	// default) moves it under the next forward pass. ZeRO-1 takes the
	// exposed default. ZeRO-2 is priced per wrapped unit as FSDP's
	// SHARD_GRAD_OP runs it: each block's parameters are gathered again in
	// the next forward pass, issued on their own stream ahead of the block
	// that needs them (Zhao et al. 2023, PyTorch FSDP: forward prefetch and
	// communication overlapped with computation), so they hide under the
	// forward pass (a third of the compute) except the first block's
	// (afterTail).
	after, afterTail  float64
	afterUnderForward bool
}

// exposed is the part of one step's data-parallel traffic no computation
// hides, given the compute of the step's last micro-batch: the gradient
// reduction beyond its backward pass (2/3 of it) or at least the last
// bucket, and the parameters' all-gather after the optimizer step (under
// the next forward pass, 1/3 of it, where the schedule allows, never
// less than its first unit).
func (c dpComm) exposed(compute float64) float64 {
	e := math.Max(c.tail, c.total-compute*2/3)
	if c.after > 0 {
		hide := 0.0
		if c.afterUnderForward {
			hide = compute / 3
		}
		e += math.Max(c.afterTail, c.after-hide)
	}
	return e
}

// gradReduceElem is the bytes per element of the gradient reduction.
// Pre-training in bf16 mixed precision (and fp8 or fp4, whose Transformer
// Engine recipes keep bf16 parameters and gradients) reduces the
// gradients in fp32: Megatron-LM turns accumulate_allreduce_grads_in_fp32
// on under --bf16 ("bfloat16 requires gradient accumulation and
// all-reduce to be done in fp32", megatron/training/arguments.py; off only
// with --grad-reduce-in-bf16), NeMo 2.0 / Megatron-Bridge recipes set
// grad_reduce_in_fp32=True, torchtitan's mixed_precision_reduce defaults to
// float32, Composer's (llm-foundry's) FSDP mixed_precision DEFAULT has
// reduce_dtype float32, and Llama 3 reduce-scattered "gradients in FP32
// across data parallel workers in FSDP" (Dubey et al. 2024 §3.3.2). The
// parameters still move in the compute dtype (ZeRO-1/2's all-gather after
// the step, ZeRO-3's gathers). fp16 keeps its own dtype: Megatron-LM forces
// fp32 only for bf16, and DeepSpeed's ZeRO reduces fp16 gradients in fp16
// unless communication_data_type says otherwise (GPT-NeoX's fp16 runs).
// Pure 16-bit training (Composer's PURE, Lightning's bf16-true) reduces in
// the compute dtype. Fine-tunes keep the compute dtype here (their stacks
// differ; not yet sourced case by case).
func gradReduceElem(in Input, elem float64) float64 {
	if in.Task == Pretrain && !in.PureBF16 && in.Weights != FP16 {
		return math.Max(elem, 4)
	}
	return elem
}

// dataParallelComm prices the gradient (and ZeRO parameter) traffic of
// one step: psi bytes of this GPU's shard over d ranks at bus bandwidth
// bw; params is the shard's parameter count, elem the bytes per element of
// the parameters (the gradients move at gradReduceElem).
func dataParallelComm(in Input, hw Hardware, d int, psi, params, elem, bw float64) dpComm {
	if d <= 1 || psi <= 0 {
		return dpComm{}
	}
	df := float64(d)
	perNode := max(1, hw.NodeGPUs()/max(1, in.TP)) // the DP × CP group's ranks in one node
	lat := ncclAllReduceLatency(hw, d, perNode)    // an all-reduce (plain DDP)
	sh := ncclShardLatency(hw, d, perNode)         // a reduce-scatter or an all-gather
	ring := (df - 1) / df * psi / bw               // one reduce-scatter or all-gather of psi
	gradPsi := psi / elem * gradReduceElem(in, elem)
	gradRing := (df - 1) / df * gradPsi / bw // the gradients' reduce-scatter
	layers := math.Max(1, math.Ceil(float64(in.Arch.Layers)/float64(max(1, in.PP))))
	lora := in.Task == LoRA || in.Task == QLoRA
	switch {
	case in.ZeRO == 3 && lora:
		// The frozen base is sharded too (Estimate divides it over the
		// shard): FSDP and ZeRO-3 gather each block's base weights for
		// the forward and again for the backward on every micro-batch,
		// as for a full fine-tune, and reduce-scatter the adapters'
		// gradients only. Counting the adapters alone priced a 70B LoRA
		// over 16 nodes' network as free as on one node's NVLink.
		base := (df - 1) / df * frozenBaseBytes(in) / bw
		unit := (2*base+gradRing)/layers + 3*sh
		return dpComm{total: layers * unit, tail: base/layers + sh, perMicro: true}
	case in.ZeRO == 3:
		// 2 all-gathers and 1 reduce-scatter per block per micro-batch;
		// the first block's gather has nothing to hide under.
		unit := (2*ring+gradRing)/layers + 3*sh
		return dpComm{total: layers * unit, tail: ring/layers + sh, perMicro: true}
	case in.ZeRO == 2 && !lora:
		// 1 reduce-scatter per block under the backward pass, then each
		// block's parameters gathered again in the next forward (after).
		unit := gradRing/layers + sh
		gather := ring/layers + sh
		return dpComm{total: layers * unit, tail: unit, after: layers * gather, afterTail: gather, afterUnderForward: true}
	}
	var buckets float64
	if in.ZeRO == 1 || in.TP > 1 || in.PP > 1 {
		buckets = math.Ceil(params / math.Max(megatronBucketParams, megatronBucketPerDP*df))
	} else {
		buckets = math.Ceil(gradPsi / ddpBucketBytes) // DDP's bucket_cap_mb counts gradient bytes
	}
	buckets = math.Max(1, buckets)
	if in.ZeRO == 1 || in.ZeRO == 2 {
		// The distributed optimizer reduce-scatters each bucket under the
		// backward pass and all-gathers the updated parameters after the
		// step (after), exposed.
		rs := gradRing + buckets*sh
		ag := ring + buckets*sh
		return dpComm{total: rs, tail: rs / buckets, after: ag, afterTail: ag}
	}
	total := 2*gradRing + buckets*lat // all-reduce = reduce-scatter + all-gather (Patarasuk & Yuan 2009)
	return dpComm{total: total, tail: total / buckets}
}

// frozenBaseBytes is one GPU's frozen LoRA or QLoRA base before ZeRO
// shards it (its TP × PP part, 1/EP of the experts), in the width it is
// stored and gathered in: weightBits (a QLoRA base's linear layers in
// their 4-bit storage, as gatherBytes counts the gather buffer).
func frozenBaseBytes(in Input) float64 {
	a := in.Arch
	experts := expertParams(a) * (1 - 1/trainEP(in))
	lin := math.Max(0, float64(a.LinearParams)-experts)
	other := math.Max(0, float64(a.TotalParams)-float64(a.LinearParams))
	linBits, otherBits, _ := weightBits(in)
	return (lin*linBits/8 + other*otherBits/8) / float64(max(1, in.TP)*max(1, in.PP))
}

// optimizerStepSeconds is the optimizer update after the gradients are
// reduced, which nothing overlaps: a memory-bound pass over this GPU's
// share of the trainable parameters, at the decode bandwidth share. A
// fused multi-tensor kernel (apex FusedAdam, torch's fused AdamW) reads
// and writes each parameter's master copy and states once, reads its
// gradient and writes its 16-bit weight: 2·(master + states) + 2 + 2
// bytes per parameter, with the memory model's state sizes
// (optimizerBytesPerParam; ZeRO §3's 4 + 8 bytes of master and Adam
// moments, Rajbhandari et al. 2020): 28 bytes for mixed-precision AdamW,
// 14 in pure 16-bit (states halved, no master: the weight is read too).
func optimizerStepSeconds(in Input, hw Hardware, shardParams float64) float64 {
	if shardParams <= 0 || hw.MemBandwidth <= 0 {
		return 0
	}
	st := optimizerBytesPerParam(in.Optimizer)
	if in.Optimizer == Adafactor && in.Arch.TotalParams > 0 {
		st = 4 * float64(in.Arch.AdafactorStates) / float64(in.Arch.TotalParams)
	}
	master := 4.0
	if in.PureBF16 {
		master = 2 // no fp32 copy: the 16-bit weight is read instead
		if in.Optimizer != AdamW8bit && in.Optimizer != PagedAdamW8bit {
			st /= 2
		}
	}
	bytes := 2*(master+st) + 2 + 2
	if in.PureBF16 {
		bytes = master + 2*st + 2 + 2
	}
	return shardParams * bytes / (hw.MemBandwidth * defaultBandwidthUtil)
}

// pipelineSendSeconds is the point-to-point traffic of one micro-batch on
// one pipeline stage: its activations forward and their gradients back,
// b·s·h elements each, split over the TP group (Megatron's scatter/gather
// optimisation, Narayanan et al. 2021 §4.1), v times with v virtual
// stages ("the amount of communication also increases by v", §2.2.2).
// Stages are laid out after the TP (and CP) group, so a stage boundary
// crosses nodes once a stage fills a node.
func pipelineSendSeconds(in Input, hw Hardware, b, s, v, elem float64) float64 {
	if in.PP <= 1 || in.Arch.Hidden <= 0 {
		return 0
	}
	group := in.TP * max(1, in.CP)
	bw := hw.LinkBandwidth
	if group*2 > hw.NodeGPUs() {
		bw = hw.NetworkBandwidth
	}
	return 2 * v * b * s * float64(in.Arch.Hidden) * elem / float64(in.TP*max(1, in.CP)) / bw
}

// perReplicaBatch is the sequences each data-parallel replica trains per
// micro-batch: Input.Batch, or fewer when the global batch is smaller than
// the replicas × Batch (a global batch of 1,024 sequences on 2,048
// replicas leaves half a sequence to each: the model shards it, as
// context parallelism or a smaller DP group would, and every replica still
// reduces a whole gradient). Large data-parallel jobs meet this limit: the
// global batch is set by the optimisation (a few million tokens: Llama 2
// 4M, Kaplan et al. 2020's critical batch size), not by the GPU count.
// Without a global batch, pre-training takes its default one
// (trainGlobalSequences), raised to one micro-batch a replica where the
// layout needs more (TrainBatch.Raised), so a default batch never leaves a
// replica a fraction of a sequence; a --global-batch the user gave can
// (a layout the CLI refuses, timed here as if sharded).
func perReplicaBatch(in Input, w Workload, replicas int, seq float64) float64 {
	b := float64(in.Batch)
	if w.MicroBatches > 0 || replicas <= 0 {
		return b
	}
	g := float64(w.GlobalBatch)
	if g == 0 {
		g = trainGlobalSequences(in, replicas, seq)
	}
	if g > 0 {
		b = math.Min(b, g/float64(replicas))
	}
	return b
}
