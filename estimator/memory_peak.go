package estimator

import "math"

// The memory a job needs is its peak, not what stays on the GPU between
// steps. A training step's breakdown (Result.PerGPU) already holds the
// step's transients (saved activations, the loss's logits, bitsandbytes'
// dequantised weight); loading a model that is quantised on the GPU has a
// peak of its own, before any step runs. This file models that load peak,
// the Hugging Face PEFT preparation of a 4-bit base, and FSDP's gather
// unit for a quantised base, and chooses the larger peak for the fit call.

// Phase names when a job's per-GPU memory peaks.
type Phase uint8

const (
	PhaseStep          Phase = iota // a training step or a forward pass (Result.PerGPU)
	PhaseLoad                       // loading the weights: quantising them on the GPU
	PhaseBackwardEnd                // the backward's end: FSDP1's root unit assembling its gradient (Result.BackwardEnd)
	PhaseOptimizerStep              // the optimizer step: foreach AdamW's temporary (Result.OptimizerStep)
	numPhases
)

var phaseNames = [numPhases]string{PhaseStep: "step", PhaseLoad: "load", PhaseBackwardEnd: "backward-end", PhaseOptimizerStep: "optimizer-step"}

// String returns "step", "load", "backward-end" or "optimizer-step".
func (p Phase) String() string { return enumName(phaseNames[:], int(p), "Phase") }

// kbitPrepared reports whether a QLoRA job runs Hugging Face PEFT's
// preparation of a k-bit base (prepare_model_for_kbit_training, which
// TRL's SFTTrainer and axolotl call on a 4-bit model): it casts
// every parameter that is not quantised (embeddings, LM head, norms) to
// fp32 ("cast all non INT8 parameters to fp32", peft/utils/other.py;
// bitsandbytes issue #1569, where the maintainer confirms the cast and a
// Ministral 8B QLoRA job grows from 63 to 81 GB with it). The embedding
// output is then fp32 and with it the residual stream and the norms'
// outputs, which the frozen 4-bit linears save for the backward pass
// (bitsandbytes MatMul4Bit saves its input). torchtune's QLoRA
// (PureBF16: NF4 from torchao, every other tensor bf16) does no such cast,
// nor does QLoRA under FSDP or ZeRO-3, whose flat parameters need one
// dtype: the packed 4-bit weights are stored in the model's dtype
// (bnb_4bit_quant_storage, PEFT's "FSDP with QLoRA" guide) and axolotl
// skips the preparation with FSDP.
func kbitPrepared(in Input) bool { return in.Task == QLoRA && !in.PureBF16 && in.ZeRO < 3 }

// LightningQLoRADefault reports whether a QLoRA plan that does not say more
// is Lightning's bitsandbytes plugin, and so takes its LM head
// (Input.QuantizeHead) and its fit loop's held graph (Input.KeepsLastGraph)
// by default. A bitsandbytes 4-bit base (--quant auto: NF4 without double
// quantisation, nf4AutoBits) under pure bf16 (Input.PureBF16) with no
// sharding is what Lightning's BitsandbytesPrecision("nf4", bf16) builds:
// its init_context makes bf16 the default dtype, so embeddings, norms and
// adapters are bf16 (Lightning's "bf16-true"), and swaps torch.nn.Linear
// for an NF4 Linear4bit with compress_statistics=False, the head among
// them (ignore_modules is empty unless the user names modules;
// lightning/fabric/plugins/precision/bitsandbytes.py). The other stacks
// that quantise with bitsandbytes are not pure bf16: PEFT's
// prepare_model_for_kbit_training casts what is not quantised to fp32
// (kbitPrepared), and FSDP-QLoRA (ZeRO 3) stores the packed weights in
// the model's dtype under HF Trainer. torchtune's QLoRA is torchao's
// double-quantised NF4 (--quant nf4), left out. The plugin's fine-tuning
// scripts are LitGPT's (finetune/lora.py at 00af8b0d selects it for
// --quantize bnb.nf4 and bf16-true), whose fit loop rebinds logits and
// loss only when the next forward and loss return, so the previous step's
// graph, and with it bitsandbytes' ctx-held 4-bit inputs, is still there
// (bnbLastGraph, heldLogitBytes). --quantize-head=false and
// --keeps-last-graph=false say otherwise.
func LightningQLoRADefault(in Input) bool {
	return in.Task == QLoRA && in.PureBF16 && in.Quant == QuantAuto && in.ZeRO == 0 && bnbLinears(in)
}

// QLoRACheckpointingDefault is Input.GradCheckpointing for a QLoRA job
// whose user does not say: on, as the stacks QLoRA is run with turn full
// activation checkpointing on by default. PEFT's
// prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)
// enables it (src/peft/utils/other.py at c1a876fa); TRL's SFTConfig
// defaults gradient_checkpointing to True (trl/trainer/sft_config.py at
// 016013e8); artidoro/qlora's qlora.py, the QLoRA paper's script,
// defaults --gradient_checkpointing to True; torchtune's QLoRA recipes
// set enable_activation_checkpointing: True
// (recipes/configs/llama3_1/8B_qlora_single_device.yaml at 0b3e04ad).
// LitGPT's single-device finetune/lora.py does not checkpoint (its
// Fabric strategy is "auto" on one device, no
// activation_checkpointing_policy): off for a job planned for LitGPT's
// scripts (litgpt: a Lightning precision name) and for pure-bf16 QLoRA
// on bitsandbytes NF4, Lightning's BitsandbytesPrecision as LitGPT runs
// it (LightningQLoRADefault). --grad-checkpointing=false says otherwise.
func QLoRACheckpointingDefault(in Input, litgpt bool) bool {
	return in.Task == QLoRA && !litgpt && !LightningQLoRADefault(in)
}

// quantisedOnLoad reports whether the weights are quantised on the GPU
// while they load: bitsandbytes' Params4bit and Int8Params quantise when
// they are moved to the device (bitsandbytes nn/modules.py; its FSDP-QLoRA
// guide notes the change that stops it "quantizing already quantized
// weights when they're moved from a CPU to GPU"), so transformers'
// bitsandbytes quantizer puts each 16-bit weight on the GPU and quantises
// it there. QLoRA and HF inference whose linears bitsandbytes runs (NF4,
// LLM.int8(), or int4/int8 with --kernel bitsandbytes: bnbLinears) do
// this; GPTQ, AWQ and GGUF files arrive quantised, whatever kernel runs
// them.
func quantisedOnLoad(in Input) bool {
	if in.Task == QLoRA {
		return true
	}
	return in.Engine == HF && in.Task == Inference && bnbLinears(in)
}

// blockLinearParams is the quantisable (linear) parameters of the largest
// block: MaxLayerParams times the blocks' linear share.
func blockLinearParams(a Arch) float64 {
	if a.LayerParams <= 0 {
		return 0
	}
	return float64(a.MaxLayerParams) * math.Min(1, float64(a.LinearParams)/float64(a.LayerParams))
}

// gatherBytes is the FSDP/ZeRO-3 gather buffer: the block being computed
// and the one prefetched (FSDP's default forward and backward prefetch),
// each whole on every rank of its TP group, at the width its weights are
// stored in. A QLoRA base is gathered as 4-bit storage: bitsandbytes'
// quant_storage makes the packed weights a float tensor FSDP can shard and
// all-gather, and they are dequantised one linear at a time for the
// matmul (bitsandbytes "FSDP-QLoRA" guide; Answer.AI's fsdp_qlora; PEFT's
// "FSDP with QLoRA" guide). torchtune's FSDP2 shards and gathers NF4
// tensors the same way.
//
// Nothing is gathered where the data-parallel group is one GPU and the
// parameters stay on it: FSDP1 clamps every sharding strategy to NO_SHARD
// at world size 1 ("We clamp the strategy to `NO_SHARD` for world size
// of 1 since they are currently functionally equivalent",
// _init_core_state, torch/distributed/fsdp/_init_utils.py), whose flat
// parameter is the unsharded one, and DeepSpeed ZeRO-3 skips the
// all-gather when every parameter's partition world size is 1
// (all_gather_coalesced returns _no_gather_coalesced, whose
// NoGatherCoalescedHandle sets param.data to the partition itself,
// param.ds_tensor.data.to(device).view(ds_shape): a view, no copy, on the
// device; deepspeed/runtime/zero/partition_parameters.py at edaa7221).
// With the parameters offloaded to the host (OffloadAll) each block is
// still copied in, a gather buffer's worth.
func gatherBytes(in Input, wide float64) float64 {
	if zeroShards(in) <= 1 && in.Offload != OffloadAll {
		return 0
	}
	a := in.Arch
	unit := float64(a.MaxLayerParams)
	if in.Task == QLoRA {
		linBits, otherBits, _ := weightBits(in)
		lin := blockLinearParams(a)
		return 2 * (lin*linBits/8 + (unit-lin)*otherBits/8) / float64(in.TP)
	}
	return 2 * unit / float64(in.TP) * wide
}

// fsdpFP32Gather reports whether a full training step's FSDP gathers fp32
// weights under autocast (Input.FSDPGatherFP32): ZeRO 3 over more than one
// data-parallel rank, mixed precision (not --pure-bf16, not fp32), a full
// fine-tune or pre-training, no pipeline stages. Its sharded states are
// then fp32 weights, fp32 gradients and the AdamW moments, with no
// separate master copy (4 + 4 + 8 bytes a parameter over the shards, where
// DeepSpeed's and Accelerate's 16-bit parameters keep 2 + 2 + 12); the
// gather buffer and the root unit's copy are fp32 (gatherWidth); and the
// forward holds autocast's 16-bit copy of every weight (fsdpAutocastCopies).
func fsdpFP32Gather(in Input) bool {
	return in.FSDPGatherFP32 && in.ZeRO == 3 && zeroShards(in) > 1 && in.PP <= 1 &&
		(in.Task == Pretrain || in.Task == FullFinetune) && in.Weights != FP32 && !in.PureBF16
}

// gatherWidth is the bytes a gathered FSDP/ZeRO-3 weight takes: fp32's 4
// where the stack gathers fp32 (fsdpFP32Gather), else the compute width
// (trainWidth).
func gatherWidth(in Input) float64 {
	if fsdpFP32Gather(in) {
		return 4
	}
	return trainWidth(in)
}

// fsdpAutocastCopies is the 16-bit copies a step whose FSDP gathers fp32
// weights (fsdpFP32Gather) holds at its forward's end, on one GPU: 2 bytes
// for every parameter of the model on this TP rank, unsharded, where the
// step does not checkpoint its activations. A linear's matmul saves its
// weight operand, the 16-bit copy autocast made of the gathered fp32
// weight, for the backward (autocastMixed), so every layer's copy
// outlives its unit's reshard until that layer's backward. Under full
// checkpointing Lightning's FSDP (FSDP1) holds none: its forward hands the
// modules views into the gathered flat parameter, which are no leaves, so
// autocast's cache (cached_cast, aten/src/ATen/autocast_mode.cpp: fp32
// leaves that require grad) keeps no copy and the checkpoint saves none.
// Our H200 runs (device-h200-2026-11-30-fsdp, one rank of 8 through the
// fake process group, bf16 autocast over fp32 gathers): Llama 3.1 8B
// under FSDP2 without checkpointing peaks at 38.93 GB with the copies
// (ft4.json; 37.28 modelled, 20.34 without them), Llama 3.2 1B under FSDP1
// at 16.20 (15.48; 10.39); under FSDP1 with checkpointing and 2
// accumulated micro-batches, Llama 3.1 8B's forward adds 6.2 GB, not its
// 16.1 GB of copies (54.30 GB peak; 51.0 modelled, 67.1 with the copies).
// FSDP2 (fully_shard) gathers leaf parameters, which autocast caches
// through the forward even under checkpointing: Qwen2.5 7B at 8 ranks
// peaks at 33.02 GB in the forward (ft3.json), which FSDP1's figure reads
// at 19.1 GB (−42%): with Input.FSDP2 the copies count under checkpointing
// too.
func fsdpAutocastCopies(in Input) float64 {
	if !fsdpFP32Gather(in) || in.GradCheckpointing && !in.FSDP2 {
		return 0
	}
	return 2 * float64(in.Arch.TotalParams) / float64(max(in.TP, 1))
}

// fsdpGathered is what a ZeRO-3 step holds above its shard of the weights,
// on one GPU, with shard the states' sharding degree: the gather buffer
// (gatherBytes), the root unit's whole copy (fsdpRootBytes), both at the
// gather's width (gatherWidth), and autocast's copies over an fp32 gather
// (fsdpAutocastCopies). modelStates adds it to the sharded weights; the
// moments after every unit has resharded (restingWeightBytes) take it out.
// The fp32-gather terms are read only where the flag is on, so a ZeRO-3
// estimate's model states cost what they did without it
// (BenchmarkEstimate).
func fsdpGathered(in Input, shard float64) float64 {
	gw, copies := trainWidth(in), 0.0
	if in.FSDPGatherFP32 {
		gw, copies = gatherWidth(in), fsdpAutocastCopies(in)
	}
	return gatherBytes(in, gw) + fsdpRootBytes(in, gw, shard) + copies
}

// zeroShards is the data-parallel degree ZeRO and FSDP shard a training
// job's states over: the GPUs over the TP × PP ranks of one model copy
// (modelStates' dp).
func zeroShards(in Input) float64 { return float64(in.GPUs / max(in.TP*in.PP, 1)) }

// fsdpRootBytes is what the root FSDP unit holds above its shard through a
// fine-tune's step, on one GPU: the parameters no Block unit takes (the
// embedding, the final norm and an untied LM head: Arch.EmbeddingParams +
// HeadParams), whole from the forward's start to the backward's end,
// beside the rank's own shard of them, which stays allocated: FSDP1's
// FlatParamHandle keeps the shard as flat_param._local_shard and gathers
// into a second tensor, _full_param_padded ("We maintain a padded
// unsharded tensor that serves as the all-gather destination and owns
// the original parameter storages", init_flat_param_attributes,
// torch/distributed/fsdp/_flat_param.py), so the gathered root is a
// whole (embedding + head) above the 1/N already in the sharded weights,
// not (1 − 1/N) of it. On one GPU FSDP1 runs NO_SHARD ("FSDP is
// switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD
// since the world size is 1", torch/distributed/fsdp/_init_utils.py)
// and gathers nothing: zero there. The
// fine-tuning stacks wrap only the transformer blocks (Lightning/LitGPT
// FSDPStrategy auto_wrap_policy={Block}; HF Accelerate's
// TRANSFORMER_BASED_WRAP on the model's _no_split_modules, which `--emit
// fsdp` writes; torchtune's distributed LoRA recipe, whose shard
// condition takes layers.i alone, pytorch/torchtune
// recipes/lora_finetune_distributed.py at 30b8519e), so those parameters
// fall to the root unit, and PyTorch FSDP does not reshard the root after
// the forward "with the intention that they are immediately used for
// backward computation" (FSDP1 torch/distributed/fsdp/_runtime_utils.py
// _post_forward_reshard: only non-root handles free their unsharded
// parameter; FSDP2's fully_shard likewise sets reshard_after_forward
// False on the root), whether or not the step accumulates: our H200 runs
// (device-h200-2026-11-30-fsdp, one micro-batch a step) hold it through
// the forward, Llama 3.1 8B under FSDP2 at 8 ranks 12.70 GB at the
// forward's end (2.01 GB of sharded weights and 4.02 of moments, the
// embedding and head's 2.10 gathered, the activations), its LoRA at 4
// ranks 10.41 GB where the root left out read 8.29. Zero for
// pre-training and pipeline stages (Megatron-style stacks place the
// embedding and head on the first and last stage). The width: the step's
// 16-bit width (trainWidth) for full fine-tunes, the frozen base's
// non-linear width for LoRA and QLoRA (weightBits: 16-bit).
func fsdpRootBytes(in Input, wide, shard float64) float64 {
	if in.ZeRO != 3 || in.PP > 1 || shard <= 1 || in.Task != FullFinetune && in.Task != LoRA && in.Task != QLoRA {
		return 0
	}
	a := in.Arch
	if in.Task != FullFinetune {
		_, otherBits, _ := weightBits(in)
		wide = otherBits / 8
	}
	return float64(a.EmbeddingParams+a.HeadParams) / float64(in.TP) * wide
}

// rootGradBytes is what the root FSDP unit's gradient holds above the
// step's gradients at the end of a full fine-tune's backward, on one GPU,
// for the stacks fsdpRootBytes stands for (PyTorch FSDP1: Lightning's
// FSDPStrategy, HF Accelerate's FSDP plugin in 2024); zero elsewhere.
//
// FSDP1 hands each original parameter to its module as a view into the
// unsharded flat parameter ("views into the flat parameter via
// torch.split()", FlatParameter._numels_with_padding;
// FlatParamHandle._use_unsharded_views and _get_unflat_views,
// torch/distributed/fsdp/_flat_param.py, torch 2.2–2.4), so autograd
// reaches the flat parameter through one split node per unit, which runs
// only once every view's gradient has arrived, concatenating them into a
// new flat gradient (unit-wide, unsharded) that AccumulateGrad then adds
// to the gradient no_sync keeps (or, on the synchronising micro-batch,
// _post_backward_hook reduce-scatters: _runtime_utils.py). In the root
// unit the LM head's weight gradient is computed first in the backward and
// the embedding's (dense, V·h) last, so at the backward's end the views'
// gradients (the root's parameters, once) and the new flat gradient (once
// more) are there together: 2·(embedding + head) at the gradient width,
// beside the whole model's no_sync gradients (Breakdown.Gradients). Full
// fine-tunes only: a LoRA or QLoRA root is frozen and has no gradient.
// FSDP2 (Input.FSDP2) keeps each parameter a DTensor of its own, whose
// unsharded gradient autograd accumulates in place: the root's gradient
// once, (embedding + head), before its reduce-scatter. Our H200 runs of
// Llama 3.1 8B at 4 ranks, one micro-batch a step (ft3.json): FSDP1's
// backward peaks at 21.91 GB, FSDP2's at 20.44, 1.47 GB apart where the
// root's gradient is 2.10.
func rootGradBytes(in Input, wide, shard float64) float64 {
	if in.Task != FullFinetune || fsdpRootBytes(in, wide, shard) <= 0 {
		return 0
	}
	copies := 2.0
	if in.FSDP2 {
		copies = 1
	}
	return copies * float64(in.Arch.EmbeddingParams+in.Arch.HeadParams) / float64(in.TP) * wide
}

// gradsNoneAtStart reports whether a full fine-tune's step reaches its
// backward with no gradient allocated: under FSDP (ZeRO 3 over more than
// one rank, no pipeline stages) with one micro-batch an optimizer step,
// whose previous step's gradients the optimizer's zero_grad set to None
// (torch.optim.Optimizer.zero_grad set_to_none=True, the default since
// PyTorch 2.0; HF Trainer and Lightning call it each step). The backward
// then frees each block's activations as it makes that block's gradient,
// reduce-scatters it and keeps the shard, so the sharded gradients
// (Breakdown.Gradients elsewhere) are whole only at the backward's end
// (backwardEndAllocated), and the step's moment, the forward's end and
// the backward's start, holds what gradsInFlight counts. Accumulating
// fine-tunes keep the earlier micro-batches' gradients through each
// forward (whole under no_sync: Input.FSDPNoSync; sharded without it).
func gradsNoneAtStart(in Input) bool {
	return in.Task == FullFinetune && in.ZeRO == 3 && in.PP <= 1 && zeroShards(in) > 1 && !in.FSDPNoSync &&
		in.Offload != OffloadAll && !in.OptimizerInBackward && !accumulates(in, in.Schedule.workload())
}

// gradsInFlight is the gradients a step holds at the backward's start
// where it allocated none before (gradsNoneAtStart), on one GPU, at the
// gradient width: the LM head's, computed first and kept unsharded in the
// root unit until the root's reduce-scatter at the backward's end (a tied
// head's is the embedding matrix's, V·h), and the first block's whole,
// unsharded gradient going into its reduce-scatter. Our H200 runs
// (device-h200-2026-11-30-fsdp, ft3.json: Llama 3.1 8B, one micro-batch a
// step) rise from the forward's end to the backward's peak by 1.72 GB at 4
// ranks and 1.48 GB at 8 under FSDP2: the head's 1.05 GB and a block's
// 0.44. Zero where the step's moment is the forward's end instead: under
// checkpointing with autocast's copies of fp32-gathered weights
// (fsdpAutocastCopies), which no checkpoint saves, the copies go when
// autocast's cache is cleared as the forward returns, before the head's
// gradient exists (our H200 Qwen2.5 7B at 8 ranks under FSDP2: 33.02 GB at
// the forward's end, 25.07 in the backward).
func gradsInFlight(in Input) float64 {
	if in.GradCheckpointing && fsdpAutocastCopies(in) > 0 {
		return 0
	}
	a := in.Arch
	head := float64(a.HeadParams)
	if a.TiedEmbeddings {
		head += float64(a.Vocab) * float64(a.Hidden)
	}
	return (head + float64(a.MaxLayerParams)) / float64(max(in.TP, 1)) * gatherWidth(in)
}

// backwardEndAllocated is what PyTorch's allocator holds at the end of
// the backward where the root's gradient is assembled (rootGradBytes), on
// one GPU, or zero where that moment is not modelled. Every block unit
// has been resharded by then: each unit's post-backward hook frees its
// unsharded parameter once its gradient is accumulated
// (_should_free_in_backward: FULL_SHARD frees under no_sync too), and
// autograd runs the embedding's backward, the first op of the forward,
// last. So the moment holds the sharded weights with the root's unsharded
// copy (the root reshards only in the final callback, _catch_all_reshard)
// but no gather buffer, the gradients grads (the whole model's under
// no_sync; the shards otherwise, the blocks' alone where the step began
// its backward with none, gradsNoneAtStart), the optimizer states, no
// activations (freed as the backward went), and the logits the training
// loop still references: with KeepsLastGraph, LitGPT's fp32 logits
// (Lightning Fabric's convert_output cast, heldLogitBytes: 4 bytes a
// logit once the loss graph is gone); otherwise none.
func backwardEndAllocated(in Input, b Breakdown, grads Bytes) float64 {
	wide := gatherWidth(in)
	g := rootGradBytes(in, wide, zeroShards(in))
	if g <= 0 {
		return 0
	}
	w := math.Max(float64(b.Weights)-gatherBytes(in, wide)-fsdpAutocastCopies(in), 0)
	held := float64(grads)
	if gradsNoneAtStart(in) {
		// The blocks' shards; the root's shard comes of its
		// reduce-scatter, after this moment.
		a := in.Arch
		held *= 1 - float64(a.EmbeddingParams+a.HeadParams)/float64(max(a.TotalParams, 1))
	}
	return w + held + float64(b.Optimizer+b.QuantState) + g + loopLogitBytes(in)
}

// loopLogitBytes is what the training loop still references of the
// previous step's logits once its graph is gone, on one GPU: with
// KeepsLastGraph, LitGPT's fp32 logits (4 bytes a logit, heldLogitBytes'
// figure once the loss graph is freed); otherwise none. The backward's
// end and the optimizer step both hold them.
func loopLogitBytes(in Input) float64 {
	if !in.KeepsLastGraph || in.Arch.Vocab <= 0 || in.Arch.Encoder {
		return 0
	}
	return float64(in.Batch) * float64(in.Seq) * float64(in.Arch.Vocab) / float64(in.TP) * 4 / CPShard(in)
}

// adamMomentShare is the share of Breakdown.Optimizer that one AdamW
// moment is: the states are two moments of st/2 bytes a parameter each
// beside any master copy (modelStates' bytes: fp32 master weights, 4
// bytes, under ZeRO/FSDP mixed precision; bf16OptimizerBytes' copy and
// states; states in the weights' 16-bit dtype under PureBF16); LoRA and
// QLoRA keep no master copy.
func adamMomentShare(in Input) float64 {
	if in.Task != Pretrain && in.Task != FullFinetune {
		return 0.5
	}
	master, st := 0.0, optimizerBytesPerParam(AdamW)
	if in.Weights != FP32 && !in.PureBF16 && in.ZeRO > 0 && !fsdpFP32Gather(in) {
		master = 4
	}
	if in.BF16OptimizerStates {
		master, st = bf16OptimizerBytes()
	}
	if in.PureBF16 {
		st /= 2
	}
	return st / 2 / (master + st)
}

// foreachTempBytes is the temporary foreach AdamW allocates in its step,
// on one GPU: as large as one moment of the states this GPU holds, in
// their dtype. PyTorch's _multi_tensor_adam (torch/optim/adam.py at
// dc80ccde) updates both moments in place (_foreach_lerp_, _foreach_mul_,
// _foreach_addcmul_), then computes exp_avg_sq_sqrt =
// torch._foreach_sqrt(device_exp_avg_sqs), a new tensor for every
// second moment of the (device, dtype) group, divides it and adds eps in
// place and only then applies _foreach_addcdiv_; the list lives until the
// group is done. Our H200 runs show it (device-h200-2026-11-30, ft.json:
// bf16-true full fine-tunes, torch.optim.AdamW with neither flag): the
// step's peak is the allocation after the backward plus one
// parameter-sized bf16 tensor, Llama 3.2 1B 9.96 → 12.43 GB, Qwen2.5 3B
// 25.18 → 31.43 GB, Phi-3 mini 30.64 → 38.28 GB, where our H100 runs with
// fused=True (device-h100-2026-11-26, hf_h100_phases.json) peak at the
// allocation after the backward. Zero for the fused implementations
// (ResolveOptimizerImpl), for AdamW's bitsandbytes forms (8-bit, paged:
// per-tensor kernels), for other optimizers, with the states offloaded
// (the host runs the step) and with the optimizer in the backward (one
// parameter at a time).
func foreachTempBytes(in Input, b Breakdown) float64 {
	if !in.Task.Training() || in.OptimizerInBackward || in.Optimizer != AdamW || ResolveOptimizerImpl(in) != OptimizerImplForeach {
		return 0
	}
	return float64(b.Optimizer) * adamMomentShare(in)
}

// optimizerStepAllocated is what PyTorch's allocator holds during the
// optimizer step, on one GPU, where the step allocates a temporary of
// its own (foreachTempBytes), or zero. By then the backward has freed
// the activations and FSDP has resharded every unit, the root's too
// (FSDP1's _catch_all_reshard in the backward's final callback; FSDP2
// reshards the root after the backward): the sharded weights without the
// gather buffer and the root's copy, the gradients (under no_sync, the
// shard the synchronising micro-batch reduce-scattered into), the
// optimizer states, the temporary, and the logits the training loop
// still holds (KeepsLastGraph: LitGPT's fp32 logits, 4 bytes a logit, as
// at the backward's end). Our H200 runs under FSDP2 peak at the step
// within 0.01 GB of the plain runs (Llama 3.2 1B full 12.43 GB both).
func optimizerStepAllocated(in Input, b Breakdown, grads Bytes) float64 {
	t := foreachTempBytes(in, b)
	if t <= 0 {
		return 0
	}
	g := float64(grads)
	if shard := zeroShards(in); in.ZeRO >= 2 && in.FSDPNoSync && shard > 1 {
		g /= shard
	}
	return restingWeightBytes(in, b) + g + float64(b.Optimizer) + t + loopLogitBytes(in)
}

// autocastMixed reports whether a full training step runs PyTorch
// autocast over fp32 weights (HF Trainer's fp16/bf16 mixed precision
// without ZeRO: not --pure-bf16, not fp32, ZeRO 0), whose forward makes
// a 16-bit copy of every weight a matmul reads.
//
// PyTorch's autocast casts each fp32 leaf that requires grad to the
// 16-bit dtype once per forward and caches the cast (cached_cast,
// aten/src/ATen/autocast_mode.cpp: can_try_cache for "lower_precision_fp
// casts of fp32 model weights (leaves)"); the cache is cleared when the
// outermost autocast context exits, at the end of each forward ("it
// calls clear_cache() to ensure cached Tensors don't leak outside the
// autocasting region", same file). What keeps the copies past the
// forward is autograd: a linear's matmul saves its weight operand, the
// 16-bit copy, for the gradient of its input (tools/autograd/
// derivatives.yaml, mm: mm_mat1_backward(grad, mat2, ...)), and the
// backward frees a layer's saved tensors once that layer's backward has
// run, as it makes that layer's fp32 gradients. So the copies are whole
// at the forward's end, shrink layer by layer as the gradients grow, and
// are gone at the optimizer step.
func autocastMixed(in Input) bool {
	return (in.Task == Pretrain || in.Task == FullFinetune) && in.Weights != FP32 && !in.PureBF16 && in.ZeRO == 0
}

// autocastCopyBesideGrads reports whether a mixed-precision step
// (autocastMixed) holds its 16-bit weight copies and the whole model's
// fp32 gradients at once, so that Breakdown.Weights counts the copies, 2
// bytes a parameter, beside the 4 of the fp32 weights: when the step
// accumulates more than one micro-batch, the gradients of the earlier
// micro-batches are there through each later forward. With one
// micro-batch per optimizer step the gradients are None through the
// forward (HF Trainer's model.zero_grad() and torch.optim's zero_grad
// set them to None, torch ≥ 2.0) and appear in the backward as the
// copies go, layer by layer (autocastMixed), so the copies (2 bytes a
// parameter) never stand beside more than the gradients' 4: the
// gradients' count covers them. Our H200 runs of Qwen2.5 3B in mixed
// precision at batch 1 × 512 (device-h200-2026-11-30/ft2.json, one
// micro-batch a step) hold 46.92 GB at the forward's end (fp32 weights
// 12.41, AdamW states 24.69, the copies 6.17 and the activations) and
// 50.70 at the backward's, fp32 weights, gradients and states (49.45)
// and the tied embedding's two gradients being summed: never the
// copies beside the gradients, which read +15.5% with fused AdamW when
// counted so.
func autocastCopyBesideGrads(in Input) bool {
	if !autocastMixed(in) {
		return false
	}
	return accumulates(in, in.Schedule.workload())
}

// autocastCopyBytes is the 16-bit weight copies Breakdown.Weights holds
// (autocastCopyBesideGrads): 2 of its 6 bytes a parameter; zero
// otherwise.
func autocastCopyBytes(in Input, b Breakdown) float64 {
	if !autocastCopyBesideGrads(in) {
		return 0
	}
	return float64(b.Weights) / 3
}

// restingWeightBytes is b.Weights without what a training step gathers
// under FSDP (ZeRO 3): the gather buffer and the root unit's unsharded
// copy, nor the 16-bit copies autocast makes in the forward
// (autocastCopyBytes), which the backward has freed. The weights rest so
// while they load and during the optimizer step, after every unit has
// resharded.
func restingWeightBytes(in Input, b Breakdown) float64 {
	w := float64(b.Weights) - autocastCopyBytes(in, b)
	if in.Task.Training() && in.ZeRO == 3 {
		w -= fsdpGathered(in, zeroShards(in))
	}
	return math.Max(w, 0)
}

// loadTransient is the memory above the loaded weights while a quantised
// base is loaded and prepared, on one GPU:
//
//   - quantising: a linear layer's 16-bit weight on the GPU while it is
//     quantised. transformers' bitsandbytes quantizer
//     (create_quantized_param) and Answer.AI's fsdp_qlora
//     (load_and_quantize) move the checkpoint to the GPU tensor by tensor,
//     and Params4bit frees the 16-bit copy once its 4-bit one exists; the
//     largest such tensor is the block's largest linear (largestLinear).
//   - preparing (kbitPrepared): each 16-bit tensor that is cast to fp32
//     stays until its fp32 copy exists, so the largest of them, the
//     embedding (or untied LM head, V·h), is there twice at 2 + 4 bytes an
//     element while the other casts are done; 2 bytes of that are above the
//     fp32 weights the step then holds.
//
// Zero when the weights arrive quantised or are not quantised at all.
func loadTransient(in Input) float64 {
	if !quantisedOnLoad(in) {
		return 0
	}
	a := in.Arch
	tp := float64(in.TP)
	t := largestLinear(a) / tp * 2
	if kbitPrepared(in) {
		t = math.Max(t, float64(a.Vocab)*float64(a.Hidden)/tp*2)
	}
	return t
}

// The allocator's reserve under pressure.
//
// PyTorch's caching allocator keeps the blocks a step frees and reuses
// them; what it holds above the allocated bytes is the reserve
// (Breakdown.AllocatorReserve, 35% of one micro-batch's activations and
// logits, fitted where memory was plentiful). When cudaMalloc fails it
// does not fail the allocation: it frees cached blocks that are not split
// and retries (c10/cuda/CUDACachingAllocator.cpp, DeviceCachingAllocator::
// malloc: alloc_block, then release_available_cached_blocks, then
// release_cached_blocks and alloc_block again; the file's header: "If
// this also fails, the allocator will attempt to free all cached blocks
// that are not split and retry the allocation"). What it cannot free is
// the free space inside segments that still hold a live block: at the
// point it raises out of memory, "the only remaining 'cached' memory is
// split from a larger block that is partially in-use" (the comment above
// the message), and the message prints it as "reserved by PyTorch but
// unallocated". A job near the limit therefore needs its allocated bytes
// and that split remainder, not the whole reserve.
//
// allocatorKept returns that remainder for a training step:
// trainAllocatorKept (4%) of the step's allocated bytes, at most the
// reserve. The share is the largest of eight training jobs' out-of-
// memory messages that print both figures (reserved-but-unallocated over
// allocated by PyTorch): 0.2% (LoRA-ViT #6, 16 GB), 0.5% (axolotl #998,
// 24 GB), 0.75% (RWKV5-LM-LoRA #2, 80 GB), 0.8% (stanford_alpaca #76,
// A10), 0.86% (MiniCPM-V #338, 80 GB), 0.9% (torchtune #2071, 24 GB),
// 1.4% (LTE #3, 80 GB), 4.0% (OpenHelix-Team/cobra #24, 24 GB, a torchrun
// job whose task the issue does not state; 1.4% without it). It is not a
// bound: a run whose step
// shapes change can leave more split (llama-cookbook #320, an A10G LoRA
// run failing on the first backward of its second epoch, held 10.61 GiB
// split beside 9.71 GiB allocated; the cache of varying lengths is
// ReservedLossCache's). An explicit Overheads.AllocatorReserve is the
// user's figure and counts whole; inference keeps its whole reserve (no
// out-of-memory messages of inference steps were read).
func allocatorKept(in Input, b Breakdown) Bytes {
	if !in.Task.Training() || in.Overheads.AllocatorReserve.Set {
		return b.AllocatorReserve
	}
	allocated := b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs
	return min(b.AllocatorReserve, toBytes(trainAllocatorKept*float64(allocated)))
}

// peak fills in the result's steady state, load peak and peak from the
// step's breakdown s, and the fit call from the peak.
func peak(in Input, s stageOut, r *Result) {
	b := s.b
	// The step needs its allocated bytes and what the allocator cannot
	// give back; the rest of the reserve is cache it frees under pressure.
	r.AllocatorCache = b.AllocatorReserve - allocatorKept(in, b)
	step := b.Total() - r.AllocatorCache
	// Between steps: the model's states, the KV cache and the fixed
	// overheads; the activations, logits, dequantised weight and the
	// allocator's share of them come and go within a step.
	r.SteadyState = b.Weights + s.grads + b.Optimizer + b.KVCache + b.CUDAContext + b.NCCL + b.CUDAGraphs
	r.LoadPeak = 0
	if t := loadTransient(in); t > 0 {
		// While loading, the weights (without FSDP's gather buffer and the
		// root unit's whole copy, which a step allocates) and the CUDA
		// context are on the GPU, and no optimizer state yet.
		r.LoadPeak = toBytes(restingWeightBytes(in, b) + float64(b.CUDAContext) + t)
	}
	stepAllocated := b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs
	r.PeakAllocated = stepAllocated
	r.BackwardEnd = 0
	// A moment beside the step's (the backward's end, the optimizer
	// step) needs what it allocates, the step's fixed overheads and what
	// the allocator cannot give back of the moment's own allocations
	// (allocatorKept's share).
	moment := func(e float64) Bytes {
		kept := math.Min(float64(b.AllocatorReserve), trainAllocatorKept*e)
		r.PeakAllocated = max(r.PeakAllocated, toBytes(e))
		return toBytes(e + float64(b.CUDAContext+b.NCCL+b.CUDAGraphs) + kept)
	}
	if e := backwardEndAllocated(in, b, s.grads); e > 0 {
		r.BackwardEnd = moment(e)
	}
	r.OptimizerStep = 0
	if e := optimizerStepAllocated(in, b, s.grads); e > 0 {
		r.OptimizerStep = moment(e)
	}
	r.Peak, r.PeakPhase = step, PhaseStep
	if r.BackwardEnd > r.Peak {
		r.Peak, r.PeakPhase = r.BackwardEnd, PhaseBackwardEnd
	}
	if r.OptimizerStep > r.Peak {
		r.Peak, r.PeakPhase = r.OptimizerStep, PhaseOptimizerStep
	}
	if r.LoadPeak > r.Peak {
		r.Peak, r.PeakPhase = r.LoadPeak, PhaseLoad
	}
	r.Headroom = r.Usable - r.Peak
	r.Fits = r.Peak <= r.Usable && s.kvFits
}

// Reserved memory over a run whose steps differ in length.
//
// torch.cuda.max_memory_reserved, which fine-tuning benchmarks such as
// ms-swift v2's print, is the caching allocator's high-water mark: the
// blocks tensors occupy plus the blocks it keeps cached once they are freed
// (PyTorch "CUDA semantics", memory management: memory_allocated against
// memory_reserved). When a run's samples differ in length, every step's
// sequence-sized tensors differ in size; the blocks cached from earlier
// steps fit the next step's tensors only in part, and the allocator
// reserves new segments beside them (the fragmentation its
// expandable_segments option addresses, "a job changing allocation sizes
// frequently, such as having a changing batch size"). A fine-tuning step's
// largest sequence-sized tensors are the loss's b·s·V logits in fp32. The
// cache is what the allocator hands back before it fails an allocation
// (it frees its cached blocks and retries), so it never raises the peak a
// job needs (Result.Peak, Fits) and it fills at most the GPU.

// reservedLossBlocks is the cache at the run's high-water mark, in fp32
// copies of the mean step's logits (b × mean tokens × V × 4 bytes): 9,
// fitted on ms-swift v2's Qwen-1.8B LoRA rows at max_length 512–8192
// (docs/source/LLM/Benchmark.md, "Model Type & Max Length", public-2026-11/
// ms_swift_training_benchmarks.json; fit rows): their excess over the
// step's peak is 8.0–9.4 such copies at every length when the copies are
// taken at the dataset's mean truncated length (499–3121 tokens), and
// 8.4 falling to 3.5 when taken at max_length; 9 is the median of the five.
const reservedLossBlocks = 9.0

// ReservedLossCache is the caching allocator's cache of the loss's blocks
// at the high-water mark of a training run whose micro-batches hold
// sequences of meanTokens tokens on average (capped at in.Seq):
// reservedLossBlocks fp32 copies of the mean step's logits on the last
// pipeline stage, sharded like the logits over TP and CP. Zero for
// inference, encoders and meanTokens ≤ 0.
func ReservedLossCache(in Input, meanTokens float64) Bytes {
	a := in.Arch
	if !in.Task.Training() || a.Vocab <= 0 || a.Encoder || !(meanTokens > 0) || in.TP < 1 {
		return 0
	}
	s := math.Min(meanTokens, float64(in.Seq))
	return toBytes(reservedLossBlocks * 4 * float64(in.Batch) * s * float64(a.Vocab) / float64(in.TP) / CPShard(in))
}

// RunReserved is torch.cuda.max_memory_reserved after a training run whose
// sequences average meanTokens tokens: the job's peak with the whole
// allocator reserve (PerGPU.Total, or the load peak or the optimizer
// step where larger), without the CUDA
// context (the driver's, not the allocator's), plus ReservedLossCache, up
// to the usable memory the context leaves.
func RunReserved(in Input, r Result, meanTokens float64) Bytes {
	ctx := r.PerGPU.CUDAContext
	typical := max(r.PerGPU.Total(), r.LoadPeak, r.OptimizerStep) // the whole reserve held: memory was there
	return max(0, min(typical+ReservedLossCache(in, meanTokens), r.Usable)-ctx)
}

// MeanTruncatedTokens is the mean length of samples truncated to maxTokens
// when their lengths follow a gamma distribution of the given mean and
// standard deviation (E[min(L, maxTokens)], by the midpoint rule over 4096
// intervals): what a dataset described by its mean and spread puts in a
// step on average. It returns maxTokens when sd ≤ 0 and mean ≥ maxTokens,
// mean when sd ≤ 0 otherwise.
func MeanTruncatedTokens(mean, sd, maxTokens float64) float64 {
	if !(mean > 0) || !(maxTokens > 0) {
		return 0
	}
	if !(sd > 0) {
		return math.Min(mean, maxTokens)
	}
	k := mean * mean / (sd * sd) // shape
	theta := sd * sd / mean      // scale
	lg, _ := math.Lgamma(k)
	norm := lg + k*math.Log(theta)
	const n = 4096
	h := maxTokens / n
	var below, mass float64 // ∫₀ᶜ x f(x) dx and ∫₀ᶜ f(x) dx
	for i := range n {
		x := (float64(i) + 0.5) * h
		f := math.Exp((k-1)*math.Log(x) - x/theta - norm)
		below += x * f * h
		mass += f * h
	}
	return below + maxTokens*math.Max(0, 1-mass)
}

// fsdpFrozenGradBytes is the gradient PyTorch FSDP1 allocates for a LoRA
// fine-tune's frozen Block weights, on one GPU, whole (no_sync holds it
// between syncs: Input.FSDPNoSync): the Block parameters (all but
// Arch.EmbeddingParams and HeadParams) at the base's 16-bit width.
//
// Lightning Fabric's FSDPStrategy sets use_orig_params=True by default
// ("Enables joint setup of model and optimizer ...",
// src/lightning/fabric/strategies/fsdp.py, Lightning 2.1), and LitGPT wraps
// each Block as one FSDP unit (finetune/lora.py at 8641822:
// FSDPStrategy(auto_wrap_policy={Block}, ...)), so each Block's flat
// parameter holds its frozen weights and its LoRA adapters together. FSDP1
// documents what that costs: "For use_orig_params=True, FSDP supports
// mixing frozen and non-frozen, but we recommend not doing so since then
// the gradient memory usage will be higher than expected (namely,
// equivalent to not freezing those parameters)"
// (torch/distributed/fsdp/fully_sharded_data_parallel.py,
// FullyShardedDataParallel docstring, torch 2.1): autograd reaches the
// flat parameter as one tensor, and its gradient is unit-wide. LitGPT's
// resource tables (A100 40GB, commit 8641822) show it: Llama 2 7B LoRA
// prints 21.30 GB on one GPU and 22.18 GB on two.
//
// Zero unless the adapters can share a flat parameter with the frozen
// weights and the stack is FSDP1's: LoRA (a QLoRA base is packed 4-bit
// storage) under --zero 3 with FSDPNoSync (DeepSpeed ZeRO-3 and FSDP2 keep
// per-parameter gradients; --fsdp-no-sync=false or --fsdp2 says so), a pure 16-bit
// step with 16-bit adapters (Input.PureBF16, ResolveAdapterDType: an FSDP1
// flat parameter needs one dtype, so fp32 adapters, PEFT's default, are
// units of their own whatever the policy),
// no pipeline stages, and not Input.FSDPAdapterUnits.
func fsdpFrozenGradBytes(in Input) float64 {
	if !FSDPFrozenBlockGrads(in) {
		return 0
	}
	a := in.Arch
	_, otherBits, _ := weightBits(in)
	blocks := float64(a.TotalParams - a.EmbeddingParams - a.HeadParams)
	return max(blocks, 0) / float64(max(in.TP, 1)) * otherBits / 8
}

// FSDPFrozenBlockGrads reports whether in's gradients count its frozen
// Block weights (fsdpFrozenGradBytes).
func FSDPFrozenBlockGrads(in Input) bool {
	return in.Task == LoRA && in.ZeRO == 3 && in.FSDPNoSync && in.PureBF16 && ResolveAdapterDType(in) != FP32 && in.PP <= 1 && !in.FSDPAdapterUnits && !in.FSDP2
}
