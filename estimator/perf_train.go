package estimator

// Training step: FLOPs per token, recomputation, the compute efficiency
// of perf_hardware.go and the weight-streaming floor of a micro-batch,
// tensor-parallel all-reduces, the 1F1B pipeline bubble, the default
// global batch, the data-parallel and sharded collectives that compute
// does not hide, CPU offload traffic and QLoRA's dequantisation.

import "math"

// trainFLOPs returns model and hardware FLOPs per trained token and the
// all-reduces per layer per micro-batch under TP.
func trainFLOPs(in Input, s float64) (model, hwFLOPs, allReduces float64) {
	a := in.Arch
	n := matmulParams(a)
	// Attention at full (non-causal) context, as the MFU definitions count
	// it (PaLM Appendix B; Megatron's s/6h term): forward 4·L·s·d_attn,
	// backward twice that.
	attn := 3 * attnFLOPs(a, attnLayerCtx(a, s))
	switch in.Task {
	case LoRA, QLoRA:
		// Frozen base: forward 2N plus the activation gradients 2N; the
		// weight gradients (the other 2N) are computed for the adapters
		// only, which are < 1% of N (Hu et al. 2021 §4.2: "we do not need to
		// calculate the gradients for the vast majority of the parameters";
		// they report a 25% speedup on GPT-3 175B, against 33% fewer FLOPs).
		model = 4*n + attn
	default:
		model = 6*n + attn // Kaplan et al. 2020 §2.1; Hoffmann et al. 2022 Appendix F
	}
	hwFLOPs = model
	allReduces = 4 // per layer: 2 forward + 2 backward (Shoeybi et al. 2019 §3, Fig. 4)
	switch {
	case in.GradCheckpointing:
		// Full recomputation runs every block's forward again in the
		// backward pass: + 2N + 4·L·s·d_attn (Korthikanti et al. 2022 §6.3:
		// HFU counts it, MFU does not; Table 4 measures +39% time for
		// the 22B layer, against +33% FLOPs), and its 2 all-reduces.
		hwFLOPs += 2*n + attnFLOPs(a, attnLayerCtx(a, s))
		allReduces += 2
	case in.SelectiveRecompute && a.Hidden > 0:
		// Recomputing the attention core: hardware/model FLOPs ≈ 1 + s/6h
		// (Korthikanti et al. 2022 §6.3; 2.7% for GPT-3 175B at s = 2048).
		hwFLOPs *= 1 + s/(6*float64(a.Hidden))
	}
	return model, hwFLOPs, allReduces
}

// microBatches is the gradient-accumulation count per optimizer step of
// sequences of seq tokens.
func microBatches(in Input, w Workload, replicas int, seq float64) int {
	switch {
	case w.MicroBatches > 0:
		return w.MicroBatches
	case w.GlobalBatch > 0:
		return max(1, w.GlobalBatch/(replicas*in.Batch))
	}
	if g := trainGlobalSequences(in, replicas, seq); g > 0 {
		return max(1, int(math.Round(g/(float64(replicas)*float64(max(in.Batch, 1))))))
	}
	if in.PP > 1 {
		return 4 * in.PP
	}
	return 1
}

// FSDPNoSyncDefault is Input.FSDPNoSync when the user does not say: a
// fine-tune (full, LoRA or QLoRA) under FSDP full shard (ZeRO 3) that
// accumulates more than one micro-batch per optimizer step (w's
// MicroBatches or GlobalBatch) keeps the whole model's unsharded
// gradients between syncs, as the fine-tuning stacks built on PyTorch
// FSDP do by default: Hugging Face Accelerate's accumulate() runs every
// micro-batch but the last under the model's no_sync() unless
// GradientAccumulationPlugin.sync_each_batch is set, whose default is
// False (transformers TrainingArguments.gradient_accumulation_kwargs:
// "Setting to True may reduce memory requirements when using gradient
// accumulation with distributed training"); Lightning Fabric's
// no_backward_sync under its FSDPStrategy calls FSDP's no_sync(), and
// LitGPT's full.py/lora.py wrap every accumulating micro-batch in it.
// Stacks that reduce-scatter every micro-batch do not hold them:
// DeepSpeed ZeRO-3, torchtune (FSDP2, no no_sync), Composer/llm-foundry
// (its ddp_sync_context skips models not wrapped in DDP), Megatron-Core;
// --fsdp-no-sync=false says so. Pre-training is left out: its stacks are
// those.
func FSDPNoSyncDefault(in Input, w Workload) bool {
	if in.ZeRO != 3 || in.Task != FullFinetune && in.Task != LoRA && in.Task != QLoRA {
		return false
	}
	return accumulates(in, w)
}

// accumulates reports whether a training job of workload w accumulates
// more than one micro-batch per optimizer step on each data-parallel
// replica (the GPUs over TP × PP × CP; microBatches), so that the
// earlier micro-batches' gradients are there through the later ones'
// forwards (FSDPNoSyncDefault, autocastCopyBesideGrads).
func accumulates(in Input, w Workload) bool {
	replicas := max(1, in.GPUs/(max(in.TP, 1)*max(in.PP, 1)*cpDegree(in)))
	return microBatches(in, w, replicas, float64(in.Seq)) > 1
}

// Schedule is the part of a training Workload that sets what a pipeline
// stage holds at once (Input.Schedule): micro-batches per optimizer step,
// the global batch in sequences and the model chunks per stage, each as
// in Workload (0: the default).
type Schedule struct {
	MicroBatches, GlobalBatch, VirtualStages int
}

// workload is s as the Workload the step's timing takes.
func (s Schedule) workload() Workload {
	return Workload{MicroBatches: s.MicroBatches, GlobalBatch: s.GlobalBatch, VirtualStages: s.VirtualStages}
}

// TrainSchedule is the pipeline schedule a training step runs: m
// micro-batches per optimizer step in each pipeline and v model chunks per
// stage (1: plain 1F1B), as trainPerf times it, so that the memory of a
// stage and the step's time assume the same schedule.
func TrainSchedule(in Input, w Workload) (m, v int) {
	a := in.Arch
	cpN := min(cpDegree(in), max(1, in.GPUs/max(1, in.TP*in.PP)))
	in.CP = cpN
	replicas := max(1, in.GPUs/max(1, in.TP*in.PP*cpN))
	s := float64(in.Seq)
	if a.SeqLen > 0 && !a.Generic() {
		s = float64(a.SeqLen)
	}
	return pipeSchedule(in, w, replicas, s, perReplicaBatch(in, w, replicas, s))
}

// pipeSchedule is TrainSchedule with the replicas, the sequence and the
// sequences per replica (perReplicaBatch) already known.
func pipeSchedule(in Input, w Workload, replicas int, s, b float64) (m, v int) {
	m = microBatches(in, w, replicas, s)
	if b < float64(in.Batch) {
		m = 1 // the global batch is spread thinner than one micro-batch per replica
	}
	return m, virtualStages(in, w, m)
}

// virtualStages is the model chunks per pipeline stage the step runs:
// w.VirtualStages when given (1: plain 1F1B), else the input's schedule
// (Input.Schedule.VirtualStages, which ResolveTrainDefaults sets to 1
// when only plain 1F1B fits), else DefaultVirtualStages.
func virtualStages(in Input, w Workload, m int) int {
	if w.VirtualStages > 0 {
		return w.VirtualStages
	}
	if in.Schedule.VirtualStages > 0 {
		return in.Schedule.VirtualStages
	}
	return DefaultVirtualStages(in, m)
}

// DefaultVirtualStages is the interleaved schedule's chunks per pipeline
// stage when the user names none: for pre-training over PP > 1 stages fed
// a multiple of PP micro-batches (m), two layers a chunk, ⌊⌈L/PP⌉/2⌋;
// otherwise 1 (plain 1F1B). The published Megatron-Core pre-training
// runs interleave at that size: Megatron-Bridge's Llama 3 70B recipe runs
// PP 8 with VP 5 (80 layers, 10 a stage) and Llama 3.1 405B PP 8 with VP
// 8 (126 layers, 16 a stage) (public-2026-11/megatron_bridge_performance_summary.json),
// and Llama 3 405B trained with an interleaved schedule at PP 16 (Dubey
// et al. 2024, §3.3.2; 8 layers a stage, the chunk count not given: this
// takes 4). Interleaving shrinks the bubble v-fold (Narayanan et al. 2021
// §2.2.2); Megatron-Core's interleaved schedule refuses an m that is not
// a multiple of PP (schedules.py: "number of microbatches (m) is not
// divisible by pipeline-model-parallel-size (p) when using interleaved
// schedule"), so such batches run plain 1F1B.
// Megatron-LM itself interleaves only when asked
// (--num-layers-per-virtual-pipeline-stage); --virtual-stages 1 says so.
func DefaultVirtualStages(in Input, m int) int {
	if in.Task != Pretrain || in.PP <= 1 || m <= 0 || m%in.PP != 0 || in.Arch.Layers <= 0 {
		return 1
	}
	perStage := (in.Arch.Layers + in.PP - 1) / in.PP
	return max(1, perStage/2)
}

// defaultGlobalSequences is the sequences of seq tokens per optimizer step
// a pre-training run takes when the user names no batch: the published
// batch for the model's size (DefaultGlobalBatchTokens), raised under
// pipeline parallelism to one micro-batch per stage for every replica. A
// pipeline fed fewer micro-batches than it has stages idles most of the
// time (bubble (p − 1)/m, Narayanan et al. 2021 §2.2.1), so runs that
// pipeline grow the batch with the data-parallel degree: Llama 3 405B
// trained with 16M-token batches of 8,192 on 16,384 H100s at TP 8 × PP 16
// (Dubey et al. 2024 §3.4.1 and Table 4), m = 16M / (128 replicas ×
// 8192) = 16 = PP; Megatron's interleaved schedule requires m to be a
// multiple of PP. 0 for other tasks.
func defaultGlobalSequences(in Input, replicas int, seq float64) float64 {
	g := DefaultGlobalBatchTokens(in)
	if g <= 0 {
		return 0
	}
	g /= math.Max(seq, 1)
	if in.PP > 1 {
		g = math.Max(g, float64(replicas*max(in.Batch, 1)*in.PP))
	}
	return g
}

// trainGlobalSequences is the sequences per optimizer step the step model
// times when the user names no batch: defaultGlobalSequences, raised to
// one micro-batch for every replica where the default feeds fewer
// (TrainBatch.Raised: the training stacks refuse a replica without a whole
// micro-batch, train_batch.go, so a run on that many GPUs takes a larger
// batch, as Llama 3 405B's did on 16,384 GPUs). 0 for other tasks.
func trainGlobalSequences(in Input, replicas int, seq float64) float64 {
	g := defaultGlobalSequences(in, replicas, seq)
	if g > 0 {
		g = math.Max(g, float64(replicas*max(in.Batch, 1)))
	}
	return g
}

// DefaultGlobalBatchTokens is the tokens per optimizer step a
// pre-training run takes when the user names none; 0 for other tasks
// (fine-tunes step on the micro-batches given). Published pre-training
// batches grow with the model: GPT-3 (Brown et al. 2020, Table 2.1) took
// 0.5M tokens up to 760M parameters, 1M at 1.3B and 2.7B, 2M at 6.7B and
// 13B, 3.2M at 175B; Llama 2 (Touvron et al. 2023, §2.2) 4M from 7B to
// 70B. This takes GPT-3's steps below 30B parameters and Llama 2's 4M at
// and above, in powers of two. A default, not a measurement: a run's own
// batch (--global-batch-tokens) replaces it.
func DefaultGlobalBatchTokens(in Input) float64 {
	if in.Task != Pretrain {
		return 0
	}
	switch p := in.Arch.Params(); {
	case p < 1e9:
		return 1 << 19
	case p < 5e9:
		return 1 << 20
	case p < 30e9:
		return 1 << 21
	}
	return 1 << 22
}

// collectiveBandwidth is the bus bandwidth (NCCL tests' busbw,
// PERFORMANCE.md: the per-GPU bytes/s in a ring's 2(n−1)/n·S accounting)
// of a collective among group GPUs. Inside the NVLink domain it is the
// link. Beyond it NCCL works hierarchically, one channel per NIC: the k GPUs
// of a node reduce-scatter over NVLink, the nodes all-reduce their 1/k
// shards in parallel over the k NICs, then all-gather over NVLink, with the
// phases pipelined (NCCL's ring and tree channels). The time is the slower
// phase: 2(k−1)/k·S/link against 2(m−1)/m·S/(k·net) for m nodes. Checked
// against a public nccl-tests all_reduce_perf run on 2 × 8 H100 (GCP A3
// Mega, 8 × 200 Gbit/s per node; github.com/lessizzmore/create-a3mega-ztan-fork,
// file ztan-NCCL-test-result): 339 GB/s busbw measured at large sizes,
// 375 GB/s from this formula (+11%); the flat ring over the per-GPU
// network share gave 25 GB/s.
func collectiveBandwidth(hw Hardware, group int) float64 {
	if group <= hw.NVLinkDomain {
		return hw.LinkBandwidth
	}
	g := float64(group)
	k := float64(max(1, hw.NVLinkDomain))
	nodes := math.Ceil(g / k)
	intra := 2 * (k - 1) / k / hw.LinkBandwidth
	inter := 2 * (nodes - 1) / nodes / (k * hw.NetworkBandwidth)
	return 2 * (g - 1) / g / math.Max(intra, inter)
}

// dpBandwidth is the bus bandwidth of one data-parallel group of d ranks
// (one GPU of each TP × PP model copy, all holding the same shard). TP
// groups sit inside a node and pipeline stages across nodes (Megatron-LM
// placement, Narayanan et al. 2021 §3.3), so a node of k GPUs holds
// k / TP ranks of each DP group: only those reduce over NVLink before the
// network (the hierarchical all-reduce collectiveBandwidth models), and
// with TP = k every rank's whole shard crosses the network at its own
// share of the node's NIC. collectiveBandwidth(hw, GPUs) assumed all k
// GPUs of a node shared one tensor, which undercounts the traffic k/TP
// times (a 70B job with TP 4 on 8-GPU nodes: half the time, with TP 8
// an eighth).
func dpBandwidth(hw Hardware, in Input, d int) float64 {
	local := max(1, max(1, hw.NVLinkDomain)/max(1, in.TP))
	if d <= local {
		return hw.LinkBandwidth
	}
	g := float64(d)
	k := float64(local)
	nodes := math.Ceil(g / k)
	intra := 2 * (k - 1) / k / hw.LinkBandwidth
	inter := 2 * (nodes - 1) / nodes / (k * hw.NetworkBandwidth)
	return 2 * (g - 1) / g / math.Max(intra, inter)
}

// trainAttnCost is the time of one attention FLOP relative to one GEMM
// FLOP in 16-bit training. Fitted jointly with trainEffAmpere,
// trainEffHopper and trainWidthK to the 8-GPU BF16 llm-foundry rows
// (sequences 512–65536): 1 fits best (median 4.3%; 1.5 gives 6.8%, 2
// gives 10.7%), so FlashAttention runs at the GEMMs' share there. Under
// fp8 it costs twice that on an H100 (16-bit attention at half the fp8
// peak: Hardware.AttnFLOPS), which the FP8 llm-foundry test rows confirm (+2..+9% at 512–32768 tokens,
// against up to −54% if attention ran at the fp8 peak).
const trainAttnCost = 1.0

// trainAttnShare is the time of one attention FLOP relative to one FLOP
// of the linears at the compute efficiency: trainAttnCost for a
// FlashAttention-2-class kernel in 16-bit training; under fp8 and fp4 the
// products run at the GPU's 16-bit rate (Hardware.AttnFLOPS), so
// peak/AttnFLOPS times that; and the kernel (Input.AttnKernel) divides it
// by its speed against FlashAttention-2 (attnKernelSpeed).
//
// Tried and not kept: pricing an fp8 step's attention at exactly its
// 16-bit time, i.e. without the width term's fp8 ratio (trainEfficiency
// charges memory-bound work per FLOP at peak/bandwidth, which doubles
// under fp8; (1 + K·attn/(bw·h)) / (1 + K·peak/(bw·h)) of the share, 0.91
// on an H100 at h = 4096, 0.85 at h = 2048). It put the FP8 llm-foundry
// test rows at +3..+19% (MPT-1b at 8K and 32K tokens +18%), against
// +2..+9% with the ratio kept: what that work is in fp8 steps is not
// sourced, so the fitted form stays.
func trainAttnShare(in Input, hw Hardware) float64 {
	share := trainAttnCost
	if hw.AttnFLOPS > 0 && hw.AttnFLOPS < hw.PeakFLOPS {
		share *= hw.PeakFLOPS / hw.AttnFLOPS
	}
	return share / attnKernelSpeed(in.AttnKernel, hw.Generation)
}

// attnKernelSpeed is a fused attention kernel's training speed (forward
// and backward) against FlashAttention-2's on the same GPU, from the
// kernel benchmarks of the FlashAttention-3 paper (Shah et al. 2024,
// arXiv:2407.08608, Figures 5 and 6: BF16, head dim 128, H100 80GB SXM5,
// 16k tokens a batch). FLOPs there are counted as the paper counts them,
// the backward pass 2.5 forwards, so a training step's attention takes
// 1/fwd + 2.5/bwd per forward FLOP. FlashAttention-2 forward 362 / 368 /
// 370 / 370 TFLOP/s and backward 291 / 310 / 318 / 322 at 2k / 4k / 8k /
// 16k tokens; cuDNN 617 / 609 / 600 / 595 and 465 / 499 / 518 / 516,
// 1.60–1.63× FlashAttention-2's time; FlashAttention-3 625 / 638 / 646 / 648
// and 501 / 542 / 559 / 561, 1.72–1.76×. Taken as 1.62 and 1.74 at every
// length (512 tokens: 1.46 and 1.48; shorter sequences spend little of
// their step in attention). Only on Hopper: FlashAttention-3 runs only
// there, and no table of cuDNN's speed against FlashAttention-2 on Ampere
// or Blackwell was found (1: as fitted).
func attnKernelSpeed(k AttnKernel, g Generation) float64 {
	if g != GenHopper {
		return 1
	}
	switch k {
	case AttnCuDNN:
		return 1.62
	case AttnFA3:
		return 1.74
	}
	return 1
}

// trainPerf: FLOPs per token (PaLM Appendix B), time per micro-batch from
// the compute efficiency, Megatron TP all-reduces, the context-parallel
// KV ring and the 1F1B pipeline bubble, then the data-parallel traffic
// compute does not hide, the optimizer step and offload traffic
// (train_comm.go, cp.go).
func trainPerf(in Input, hw Hardware, eff Efficiency, w Workload) Perf {
	a := in.Arch
	eff = eff.resolve(in, hw)
	tp, pp := float64(in.TP), float64(in.PP)
	cpN := min(cpDegree(in), max(1, in.GPUs/(in.TP*in.PP))) // no more CP ranks than a model copy's GPUs allow
	in.CP = cpN
	cp := float64(cpN)
	replicas := max(1, in.GPUs/(in.TP*in.PP*cpN))
	s := float64(in.Seq)
	if a.SeqLen > 0 && !a.Generic() {
		s = float64(a.SeqLen) // ViT: patches fixed by the architecture, as in Estimate
	}
	// The global batch spread over the replicas (perReplicaBatch): at
	// large data-parallel degree each replica may get less than Batch.
	b := perReplicaBatch(in, w, replicas, s)
	model, hwFLOPs, allReduces := trainFLOPs(in, s)

	// One micro-batch on one pipeline stage: its share of the FLOPs over
	// its TP × CP group at the compute efficiency, plus the TP all-reduces
	// of its layers, each of b·s/CP·h activations in the compute dtype; a
	// ring all-reduce sends 2(t−1)/t of the data from each GPU (NCCL tests'
	// bus bandwidth, PERFORMANCE.md; Narayanan et al. 2021 §3.3).
	// Attention's score and value products run in FlashAttention kernels
	// at a lower share of peak than the large GEMMs (trainAttnCost), and
	// in 16-bit under fp8 and fp4 training (Transformer Engine casts only
	// the linears), i.e. at the GPU's 16-bit rate (Hardware.AttnFLOPS),
	// as inference's prefill does: half an H100's fp8 peak, a quarter of a
	// B200's fp4 peak, and the peak itself on a GPU without fp8 units,
	// whose peak is already its 16-bit rate (an A100 running fp8 weights).
	attnShare := trainAttnShare(in, hw)
	attnHW := attnFLOPs(a, attnLayerCtx(a, s)) * 3
	if in.GradCheckpointing {
		attnHW += attnFLOPs(a, attnLayerCtx(a, s))
	}
	attnHW = math.Min(attnHW, hwFLOPs)
	rate := tp * pp * cp * hw.PeakFLOPS * eff.MFU
	compute := b * s * (hwFLOPs + (attnShare-1)*attnHW) / rate
	compute = math.Max(compute, weightStreamSeconds(in, hw))
	compute += unfusedAttnSeconds(in, hw, b, s, cp)
	elem := 2.0
	if in.Weights == FP32 {
		elem = 4
	}
	var tpComm, tpTotal float64
	if in.TP > 1 && a.Hidden > 0 {
		layers := math.Ceil(float64(a.Layers) / pp)
		xt := b * s / cp * float64(a.Hidden) * elem / collectiveBandwidth(hw, in.TP)
		tpComm = layers * allReduces * 2 * (tp - 1) / tp * xt
		tpTotal = tpComm
		if in.TPCommOverlap && in.SequenceParallel {
			// Never more than the collectives in turn: with GEMMs too
			// short to hide anything, the overlap counts sequence
			// parallelism's two backward all-gathers, which the
			// all-reduce count above leaves out.
			tpComm = math.Min(tpComm, layers*tpOverlapExposed(in, tp, xt, b*s/cp, hw.PeakFLOPS*eff.MFU))
		}
	}
	// Context parallelism: the KV ring of each layer, overlapped with the
	// attention of the block in hand (cp.go); what outlasts it adds to
	// the micro-batch.
	cpTotal, cpExposed := cpTrainSeconds(in, hw, b, s, elem, b*s*attnShare*attnHW/rate)
	tpComm += cpExposed
	// Expert parallelism: every MoE layer sends each token's hidden state
	// to its k experts and back, in the forward and the backward pass (and
	// again when recomputing), (EP − 1)/EP of them to other GPUs of the
	// EP × TP group (Megatron-Core MoE token dispatcher; DeepSeek-V3
	// report §3.2). MoE training schedules overlap these all-to-alls with
	// the computation of other micro-batches or chunks (DeepSeek-V3's
	// DualPipe hides them fully, §3.2.1; Megatron-Core's
	// overlap_moe_expert_parallel_comm), so only what outlasts a
	// micro-batch's compute is exposed, with the TP traffic.
	var a2a float64
	if ep := trainEP(in); ep > 1 && a.Hidden > 0 {
		passes := 4.0
		if in.GradCheckpointing {
			passes = 6
		}
		moeLayers := math.Ceil(math.Max(float64(a.Layers-a.DenseLayers), 0) / pp)
		a2a = moeLayers * passes * float64(a.ExpertsPerToken) * (ep - 1) / ep * b * s / cp * float64(a.Hidden) * elem /
			collectiveBandwidth(hw, in.EP*in.TP)
		tpComm += math.Max(0, a2a-compute)
	}
	// QLoRA dequantises each NF4 base linear to 16-bit in the forward
	// pass, again in the backward pass and in recomputation (bitsandbytes
	// dequantize_4bit before the 16-bit matmul; Dettmers et al. 2023 §3):
	// read 4.127 bits, write and read 16 bits per weight, at the decode
	// bandwidth share.
	if in.Task == QLoRA {
		passes := 2.0
		if in.GradCheckpointing {
			passes = 3
		}
		lin := float64(a.LinearParams) / (tp * pp)
		compute += passes * lin * (4.127/8 + 4) / (hw.MemBandwidth * defaultBandwidthUtil)
	}
	m, vi := pipeSchedule(in, w, replicas, s, b)
	mf := float64(m)
	v := float64(vi)

	// Pipeline sends (train_comm.go): Megatron overlaps them with compute
	// in the interleaved schedule (overlap_p2p_comm, on with virtual
	// stages); plain 1F1B waits for each.
	send := pipelineSendSeconds(in, hw, b, s/cp, v, elem)
	sendExposed := send
	if v > 1 {
		sendExposed = 0
	}

	// Data parallelism (Rajbhandari et al. 2020, ZeRO §7: plain DP and
	// ZeRO-1/2 move 2Ψ per step, an all-reduce or reduce-scatter +
	// all-gather of the gradients; ZeRO-3 3Ψ, the parameters gathered for
	// forward and backward and the gradients reduce-scattered, on every
	// micro-batch). Ψ is this GPU's model shard in the compute dtype;
	// LoRA moves only the adapters' gradients. The gradients are reduced
	// over the DP × CP ranks. DDP, FSDP and DeepSpeed bucket the gradient
	// traffic under the backward pass (PyTorch DDP, Li et al. 2020
	// §3.2.3), so only what outlasts it is exposed: the last micro-batch's
	// backward (2/3 of its compute) for DP and ZeRO-1/2's gradients, each
	// micro-batch's whole compute for ZeRO-3's prefetched gathers; and never
	// less than the last bucket (or ZeRO-3's first gather), which has
	// nothing left to hide under. ZeRO-1's all-gather of the updated
	// parameters follows the optimizer step and is exposed whole; ZeRO-2's
	// per-block gathers hide under the next forward pass (dpComm.after).
	// Each collective pays NCCL's latency, which grows with the ranks
	// (train_comm.go).
	var exposed, dpTotal float64
	d := replicas * cpN
	params := float64(a.TotalParams) - expertParams(a)*(1-1/trainEP(in)) // with EP, each GPU holds 1/EP of the experts
	if in.Task == LoRA || in.Task == QLoRA {
		params = float64(loraParams(in))
	}
	params /= tp * pp
	if d > 1 {
		psi := params * elem
		dc := dataParallelComm(in, hw, d, psi, params, elem, dpBandwidth(hw, in, d))
		if dc.perMicro {
			exposed = mf * math.Max(dc.tail, dc.total-compute)
			dpTotal = mf * dc.total
		} else {
			exposed = dc.exposed(compute)
			dpTotal = dc.total + dc.after
		}
	}
	// The optimizer step follows the reduction (train_comm.go); ZeRO
	// shards it over the DP × CP ranks.
	shard := params
	if in.ZeRO > 0 {
		shard /= float64(d)
	}
	opt := optimizerStepSeconds(in, hw, shard)
	if in.Task == LoRA || in.Task == QLoRA {
		opt = optimizerStepSeconds(in, hw, float64(loraParams(in))/(tp*pp))
	}
	// CPU offload (ZeRO-Offload, Ren et al. 2021 §4.1): the 16-bit
	// gradients go to the host and the updated 16-bit parameters come
	// back every step, 4 bytes per parameter of this GPU's shard over the
	// host link; offloading the parameters too (ZeRO-Infinity) streams
	// them in for forward and backward on every micro-batch. Not overlapped
	// (the host's Adam step is not modelled either: a lower bound), and
	// the GPU's optimizer step moves to the host.
	var offload float64
	if in.Offload != OffloadNone {
		shard := float64(a.TotalParams) / (tp * pp * float64(max(1, replicasForZeRO(in, replicas))))
		offload = 2 * elem * shard / hw.HostLinkBandwidth
		if in.Offload == OffloadAll {
			offload += mf * 2 * elem * shard / hw.HostLinkBandwidth
		}
		opt = 0
	}
	exposed += offload

	// 1F1B pipeline: m micro-batches take (m + p − 1) micro-batch times
	// (Narayanan et al. 2021 §2.2.1: bubble fraction (p − 1)/m); the
	// interleaved schedule with v chunks per stage shrinks the bubble to
	// (p − 1)/(v·m) (§2.2.2).
	slots := mf + (pp-1)/v
	step := slots*(compute+tpComm+sendExposed) + exposed + opt
	tokensPerStep := float64(replicas) * mf * b * s
	tps := tokensPerStep / step

	p := Perf{GPUs: in.GPUs, Replicas: replicas, FLOPsPerToken: model, HardwareFLOPsPerToken: hwFLOPs,
		StepSeconds: step, TokensPerStep: tokensPerStep, TokensPerSecond: tps, MicroBatches: m, VirtualStages: int(v),
		CommSeconds: slots*(tpComm+sendExposed) + exposed, ComputeEfficiency: eff.MFU}
	p.CommTotalSeconds = finite(slots*(tpTotal+cpTotal+a2a) + mf*send + dpTotal + offload)
	p.MFU = tps * model / (float64(in.GPUs) * hw.PeakFLOPS)
	p.Bound = BoundCompute
	if p.CommSeconds > 0.3*step {
		p.Bound = BoundCommunication
	}
	p.Uncertainty = trainUncertainty(in, hw, eff, p)
	return p
}

// weightStreamSeconds is the least time one micro-batch takes on one GPU
// however few tokens it holds: every pass reads each weight matrix of the
// GPU's shard once, the forward pass, the backward pass's two products
// (activation and weight gradients) and recomputation's forward, and the
// weight gradients are added into the gradient buffer (read and written:
// fp32 main gradients, Megatron's gradient_accumulation_fusion and PyTorch
// AMP's fp32 .grad; 16-bit with pure-16-bit training). A GEMM of M tokens
// does 2·M FLOPs per 16-bit weight it reads (2 bytes), so below about
// peak/bandwidth tokens per micro-batch (≈ 300 on an H100, 150 on an A100
// in 16-bit) it waits on memory, not on the tensor cores (the roofline,
// Williams et al. 2009; NVIDIA's Matrix Multiplication Background guide,
// arithmetic intensity). Micro-batches of thousands of tokens never meet
// this floor; a small model spread over thousands of GPUs does, where the
// global batch leaves each GPU a fraction of a sequence per step
// (perReplicaBatch). LoRA's frozen base is read twice (forward and the
// activation gradients) and accumulates no base gradient; QLoRA's 4-bit
// base traffic is priced by its dequantisation instead. Read at the
// bandwidth share decode reaches (defaultBandwidthUtil).
func weightStreamSeconds(in Input, hw Hardware) float64 {
	if hw.MemBandwidth <= 0 || in.Task == QLoRA {
		return 0
	}
	shard := matmulParams(in.Arch) / float64(max(1, in.TP)*max(1, in.PP))
	elem := 2.0
	switch in.Weights {
	case FP32:
		elem = 4
	case FP8:
		elem = 1 // Transformer Engine's fp8 weight copies feed the GEMMs
	}
	reads, grad := 3.0, 8.0
	if in.PureBF16 {
		grad = 4
	}
	if in.Task == LoRA {
		reads, grad = 2, 0
	}
	if in.GradCheckpointing {
		reads++
	}
	return shard * (reads*elem + grad) / (hw.MemBandwidth * defaultBandwidthUtil)
}

// replicasForZeRO is the data-parallel degree ZeRO shards over (1 without ZeRO).
func replicasForZeRO(in Input, replicas int) int {
	if in.ZeRO == 0 {
		return 1
	}
	return replicas
}

// loraParams is the adapters' parameter count, which the memory and the
// speed models both read: r·Σ(in+out) over the adapted linears (Hu et al.
// 2021: A is r×in, B is out×r). LitGPT's fused LoRAQKVLinear holds the
// same: lora_A (r·n)×in and lora_B (Σ enabled outs)×r for the n enabled
// of q, k, v (litgpt/lora.py at 00af8b0d).
func loraParams(in Input) int64 {
	a := in.Arch
	var dims int64
	switch in.LoRATargets {
	case LoRAQueryValue:
		dims = a.LoRAQVDims
	case LoRAAllLinear:
		dims = a.LoRAAttnDims + a.LoRAMLPDims
	default:
		dims = a.LoRAAttnDims
	}
	return int64(in.LoRARank) * dims
}

// trainUncertainty: ±20% on a calibrated generation (the 8-GPU
// llm-foundry rows fit within 4.4% median, 18% p90; the 16–512 GPU rows
// are the test slice), ±30% otherwise; +20 points when the width, sequence
// or scale is outside the calibrated range (h 768–8192, s ≤ 65536,
// ≤ 512 GPUs), when communication bounds the step, for QLoRA and offload
// (their host-side costs are lower bounds), and when the user's MFU
// replaces the model's.
func trainUncertainty(in Input, hw Hardware, eff Efficiency, p Perf) float64 {
	u := 0.2
	if !calibratedGeneration(hw.Generation) {
		u = 0.3
	}
	h := in.Arch.Hidden
	if h < 768 || h > 8192 || in.Seq > 65536 || in.GPUs > 512 {
		u += 0.2
	}
	if p.Bound == BoundCommunication || in.Task == QLoRA || in.Offload != OffloadNone {
		u += 0.2
	}
	return math.Min(u, 0.8)
}

// unfusedAttnSeconds is the time a micro-batch's attention spends moving
// its scores through memory when they are materialised (eagerScores:
// Megatron-LM before FlashAttention, HF eager attention, soft-capped
// Gemma 2 attention). Each of
// the b·heads·s² scores of a layer (the whole matrix, the causal half
// masked, not skipped) is written by Q·Kᵀ, read and written by the
// softmax (scale, mask and softmax fused in one kernel in Megatron-LM,
// scaled_upper_triang_masked_softmax) and read by the product with V:
// 8 bytes in 16-bit in the forward pass; the backward pass writes the
// probabilities' gradient, reads it with the probabilities and writes the
// scores' gradient in the softmax's backward, and reads that twice (dQ,
// dK) and the probabilities once (dV): 14 bytes; recomputation (full, or
// selective, which recomputes exactly this core: Korthikanti et al. 2022
// §5) runs the forward again. Attention dropout, when a model has it,
// moves more and is left out. FlashAttention keeps the scores in on-chip
// memory (Dao et al. 2022 §3.1), the case trainAttnCost was fitted on; the
// GEMM FLOPs of the two products are counted there either way. Read at
// the bandwidth share decode reaches (defaultBandwidthUtil).
func unfusedAttnSeconds(in Input, hw Hardware, b, s, cp float64) float64 {
	a := in.Arch
	if !eagerScores(in) || a.Heads <= 0 || hw.MemBandwidth <= 0 {
		return 0
	}
	perScore := 8.0 + 14
	if in.GradCheckpointing || in.SelectiveRecompute {
		perScore += 8
	}
	// Scores on this GPU: its share of the heads (TP) and of the queries
	// (CP), over its stage's layers (PP), each layer's context from
	// attnLayerCtx (summed over the layers).
	scores := b * s / cp * float64(a.Heads) / attnTP(in) * attnLayerCtx(a, s) / float64(max(1, in.PP))
	return scores * perScore / (hw.MemBandwidth * defaultBandwidthUtil)
}

// tpOverlapExposed is the tensor-parallel communication one layer's
// micro-batch leaves exposed when Transformer Engine's userbuffers overlap
// it with the GEMMs (Input.TPCommOverlap), xt being the time to move the
// layer's whole activation (tokens · h in the compute dtype) at the TP
// group's bandwidth, tokens the micro-batch's tokens on this GPU and rate
// this GPU's GEMM rate (peak × the compute efficiency). Under sequence
// parallelism a layer's collectives are all-gathers and reduce-scatters,
// each moving (t − 1)/t of the activation (Korthikanti et al. 2022
// §4.2.2): forward, an all-gather before the QKV and the MLP's up
// projection and a reduce-scatter after the attention output and the down
// projection; backward, an all-gather of the output gradient before the
// two row-parallel dgrads, and for each column-parallel linear the input
// all-gathered again for its wgrad and its dgrad reduce-scattered. How
// each runs is Megatron-Bridge's H100 userbuffers configs
// (userbuffers_fp8_h100_h8192_tp4_mbs1_seqlen8192 and
// userbuffers_fp8_h100_h16384_tp8_cp2_mbs1_seqlen8192,
// src/megatron/bridge/training/comm_overlap.py at v0.2.0, unchanged to
// v0.5.0): the forward GEMMs and the row-parallel dgrads as ring exchanges
// (RingExchangeOverlapCfg), the column-parallel backward in bulk
// (BulkOverlapCfg: qkv/fc1_dgrad and qkv/fc1_wgrad). Transformer Engine's
// ring exchange (CommOverlapP2PBase::split_overlap_ag and
// split_overlap_rs, transformer_engine/common/comm_gemm_overlap/
// comm_gemm_overlap.cpp) splits the GEMM into t chunks: an all-gather
// computes on the chunk in hand while the next arrives, so the GEMM's
// first t − 1 chunks hide its t − 1 transfers; a reduce-scatter sends each
// chunk's partial result once computed, so the last chunk's transfer
// (1/t of the activation) follows the GEMM. A bulk overlap runs the whole
// collective beside the other backward GEMM of the same linear and is
// exposed only by what outlasts it. The SMs and memory traffic the
// transfers take from the GEMMs are not modelled (the userbuffers configs
// give the ring exchanges 1 SM and the bulk ones 2–24 of the 132). LoRA
// runs no base wgrad, so nothing hides the wgrad side's reduce-scatter.
// MoE layers' MLP collectives, which Megatron-Core's token dispatcher and
// grouped experts run outside these configs, stay as without overlap; a
// full recomputation repeats the forward's.
func tpOverlapExposed(in Input, tp, xt, tokens, rate float64) float64 {
	a := in.Arch
	h := float64(a.Hidden)
	coll := (tp - 1) / tp * xt // one all-gather or reduce-scatter
	chunk := xt / tp           // one ring step's transfer
	gemm := func(params float64) float64 { return 2 * tokens * params / tp / rate }
	ring := func(g float64) float64 { return math.Max(0, coll-g*(tp-1)/tp) }
	bulk := func(g float64) float64 { return math.Max(0, coll-g) }
	wgrad := 1.0
	if in.Task == LoRA || in.Task == QLoRA {
		wgrad = 0
	}
	var attnP float64
	attnProjections(a, 1, func(p, _ float64) { attnP += p })
	attnP /= math.Max(1, float64(a.Layers))
	vDim := float64(a.Heads * a.HeadDim)
	if a.IsMLA() {
		vDim = float64(a.Heads * a.VHeadDim)
	}
	o := gemm(vDim * h)
	qkv := gemm(math.Max(0, attnP-vDim*h))
	fwd := ring(qkv) + chunk + ring(o)
	bwd := ring(o) + bulk(qkv) + bulk(wgrad*qkv)
	if a.IsMoE() {
		fwd += 2 * coll
		bwd += 2 * coll
	} else {
		i := float64(a.Intermediate)
		up := i * h
		if a.GatedMLP {
			up *= 2
		}
		gu, gd := gemm(up), gemm(i*h)
		fwd += ring(gu) + chunk + ring(gd)
		bwd += ring(gd) + bulk(gu) + bulk(wgrad*gu)
	}
	if in.GradCheckpointing {
		return 2*fwd + bwd
	}
	return fwd + bwd
}
