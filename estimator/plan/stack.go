package plan

import "rightsize/estimator"

// Stack is the training software that runs a layout: the one judge of
// which layouts the planner may pick, which note a training row carries
// and what catalog/launch's training emitters refuse.
type Stack int

const (
	// StackNone: no stack named here runs the layout (a user's own
	// --tp at ZeRO 2 or 3 on a model torchtitan does not ship, or a
	// QLoRA base split by TP or PP).
	StackNone Stack = iota
	// StackDataParallel: every GPU holds the whole model between
	// collectives (TP 1, PP 1, no CP or EP) and ZeRO 0–3 shards the
	// rest: Hugging Face's Trainer and accelerate with DeepSpeed ZeRO or
	// FSDP, what rightsize plan --emit deepspeed|fsdp writes.
	StackDataParallel
	// StackMegatron: TP, PP, CP and EP with at most ZeRO 1, Megatron-
	// Core's distributed optimizer sharding the optimizer states over the
	// data-parallel ranks (Megatron-LM --use-distributed-optimizer,
	// docs/source/api-guide/dist_optimizer.md; NeMo 2.0 and Megatron-
	// Bridge recipes run their fine-tunes, LoRA included, the same way).
	// Neither shards gradients or parameters as ZeRO 2/3 do.
	StackMegatron
	// StackTorchtitan: FSDP2 (ZeRO 2/3) with tensor, pipeline and
	// context parallelism, pre-training only, on the model families
	// torchtitan ships (pytorch/torchtitan, torchtitan/models/__init__.py:
	// llama3, deepseek_v3, qwen3, whose train_configs include
	// qwen3_30b_a3b; --parallelism.tensor_parallel_degree,
	// pipeline_parallel_degree, context_parallel_degree and
	// data_parallel_shard_degree, torchtitan/config/job_config.py).
	StackTorchtitan
	// StackLitGPT: LitGPT's fine-tune scripts, the one stack of a job
	// planned for them (Request.LitGPT), in the layouts they run
	// (litgptRuns): one GPU as the job is, or FSDP full shard with every
	// Block recomputed and nothing offloaded on more.
	StackLitGPT
)

var stackNames = [...]string{StackNone: "none", StackDataParallel: "data-parallel", StackMegatron: "megatron", StackTorchtitan: "torchtitan", StackLitGPT: "litgpt"}

func (s Stack) String() string {
	if s >= 0 && int(s) < len(stackNames) {
		return stackNames[s]
	}
	return "Stack(?)"
}

// torchtitanTypes are the Hugging Face model_type values of the families
// torchtitan pre-trains (torchtitan/models/__init__.py _supported_models:
// llama3, deepseek_v3, qwen3).
var torchtitanTypes = [...]string{"llama", "deepseek_v3", "qwen3", "qwen3_moe"}

// TrainStack is the stack that runs in's training layout (its TP, PP,
// CP, EP and ZeRO stage).
func TrainStack(in estimator.Input) Stack {
	tp, pp := max(in.TP, 1), max(in.PP, 1)
	if tp == 1 && pp == 1 && in.CP <= 1 && in.EP <= 1 {
		return StackDataParallel
	}
	if in.Task == estimator.QLoRA {
		// bitsandbytes' NF4 layers are sharded by FSDP or ZeRO-3 only
		// (PEFT's "FSDP and QLoRA" and "DeepSpeed and QLoRA" guides);
		// Megatron-LM has no NF4 layers.
		return StackNone
	}
	if in.ZeRO <= 1 {
		return StackMegatron
	}
	if in.Task == estimator.Pretrain && in.EP <= 1 {
		for _, t := range torchtitanTypes {
			if in.Arch.ModelType == t {
				return StackTorchtitan
			}
		}
	}
	return StackNone
}

// litgptRuns reports whether LitGPT's fine-tune scripts run in's layout
// (litgpt/finetune/lora.py and full.py setup() at 00af8b0d, the release
// catalog/launch's LitGPT launch pins): on one device the "auto"
// strategy, with no activation checkpointing; on more,
// FSDPStrategy(auto_wrap_policy={Block},
// activation_checkpointing_policy={Block}, cpu_offload=False), full shard
// (ZeRO-3) with every Block recomputed and nothing offloaded. Neither has
// tensor, pipeline, context or expert parallelism, and lora.py refuses
// QLoRA on more than one device (NotImplementedError, "Quantization is
// currently not supported for multi-GPU training").
func litgptRuns(in estimator.Input) bool {
	if max(in.TP, 1)*max(in.PP, 1)*max(in.CP, 1)*max(in.EP, 1) != 1 || in.Offload != estimator.OffloadNone {
		return false
	}
	if in.GPUs <= 1 {
		return !in.GradCheckpointing
	}
	return in.ZeRO == 3 && in.GradCheckpointing && in.Task != estimator.QLoRA
}

// trainStack is the stack that runs in's layout of this job: LitGPT's
// scripts alone for a job planned for them (Request.LitGPT), where they
// run it, else TrainStack's. The planner picks only layouts it names.
func (p *planner) trainStack(in estimator.Input) Stack {
	if !p.req.LitGPT {
		return TrainStack(in)
	}
	if litgptRuns(in) {
		return StackLitGPT
	}
	return StackNone
}

// stackNote is the note that says which stack runs a training row's
// layout (in's parallelism and ZeRO stage), how to launch it and, for a
// rental fine-tune, why that layout.
func (p *planner) stackNote(in estimator.Input) Reason {
	finetune := in.Task == estimator.FullFinetune || in.Task == estimator.LoRA || in.Task == estimator.QLoRA
	tp, pp := max(in.TP, 1), max(in.PP, 1)
	switch p.trainStack(in) {
	case StackLitGPT:
		return Reason{Key: MsgNoteStackLitGPT, Args: []any{in.GPUs, in.ZeRO}}
	case StackDataParallel:
		// FSDP has no optimizer-only sharding: its ShardingStrategy is
		// NO_SHARD, SHARD_GRAD_OP (ZeRO-2) or FULL_SHARD (ZeRO-3)
		// (torch.distributed.fsdp docs), and the fsdp launch writes
		// SHARD_GRAD_OP for ZeRO-1 (catalog/launch).
		ft, zero1 := finetune && p.rental, in.ZeRO == 1
		key := MsgNoteStackDP
		switch {
		case ft && zero1:
			key = MsgNoteStackDPFTZero1
		case ft:
			key = MsgNoteStackDPFT
		case zero1:
			key = MsgNoteStackDPZero1
		}
		return Reason{Key: key, Args: []any{in.ZeRO}}
	case StackMegatron:
		if finetune && p.rental {
			// rentalRow's fallback: no data-parallel shape fits.
			return Reason{Key: MsgNoteStackMegatronFT, Args: []any{tp, pp, in.ZeRO}}
		}
		return Reason{Key: MsgNoteStackMegatron, Args: []any{tp, pp, in.ZeRO}}
	case StackTorchtitan:
		return Reason{Key: MsgNoteStackTorchtitan, Args: []any{tp, pp, in.ZeRO}}
	}
	return Reason{Key: MsgNoteStackNone, Args: []any{tp, pp, in.ZeRO}}
}
