package launch

import (
	"math"
	"strconv"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// maxGradNorm is the gradient clipping written into the configs: 1.0,
// transformers' TrainingArguments.max_grad_norm default (the planner does
// not model clipping, so any value leaves the plan as sized).
const maxGradNorm = 1.0

// trainShape is the training row as a launcher sees it.
type trainShape struct {
	nodes, perNode, world int // instances, GPUs per instance, total GPUs
	dp                    int // data-parallel replicas
	micro, accum          int // micro-batch per GPU, micro-batches per optimizer step
	seq                   int // tokens a sequence (the planner's trainSeq)
}

// train checks the row for a data-parallel launcher and works out its
// shape. The micro-batch is Input.Batch; the accumulation is what the
// planner ran the step with (estimator/plan trainTime: the global batch in
// tokens over DP × micro-batch × sequence, or the estimator's default of
// 4 × PP micro-batches, 1 without pipeline stages).
func (e *emitter) train() (trainShape, error) {
	r := e.row
	if g := r.Offer.Hardware.Generation; preTuring(g) {
		e.note("PyTorch's default CUDA 12.8 and 13.0 builds start at Turing from 2.11 on: " + g.String() + " GPUs run its CUDA 12.6 build (pip install torch --index-url " +
			cu126TorchIndex + ")")
	}
	if e.in.FSDP2 && e.k != FSDP {
		// DeepSpeed ZeRO-3 gathers per module and releases the embedding
		// after its use; the plan held FSDP2's whole root unit, and the
		// FSDP config is the launch that runs what it sized.
		e.note("the plan sized FSDP2 (--fsdp2); this launch runs DeepSpeed ZeRO-" + itoa(r.ZeRO) + ": --emit fsdp writes Accelerate's fsdp_version 2 config")
	}
	cp := max(r.CP, e.in.CP, 1)
	if r.TP > 1 || r.PP > 1 || cp > 1 {
		// The stack that runs the split is the planner's judge's
		// (plan.TrainStack), named in the plan's note up front:
		// Megatron-LM and NeMo split the model by TP, PP and CP with their
		// distributed optimizer, which shards the optimizer states only
		// (ZeRO-1); a plan that also shards gradients or parameters
		// (ZeRO-2/3) is FSDP2 with tensor and pipeline parallelism, as
		// torchtitan pre-trains its model families (pytorch/torchtitan:
		// --parallelism.tensor_parallel_degree, pipeline_parallel_degree
		// and data_parallel_shard_degree, torchtitan/config).
		in := e.in
		in.TP, in.PP, in.ZeRO, in.EP, in.CP = r.TP, r.PP, r.ZeRO, max(r.EP, e.in.EP), cp
		split, cpFlag := "TP "+itoa(r.TP)+" × PP "+itoa(r.PP), ""
		if cp > 1 {
			// torchtitan/config/job_config.py, Parallelism:
			// context_parallel_degree; Megatron-LM --context-parallel-size.
			split += " × CP " + itoa(cp)
			cpFlag = " --parallelism.context_parallel_degree " + itoa(cp)
		}
		var where string
		switch plan.TrainStack(in) {
		case plan.StackMegatron:
			where = "run it with Megatron-LM or NeMo"
		case plan.StackTorchtitan:
			where = "run it with torchtitan (FSDP2 with --parallelism.tensor_parallel_degree " + itoa(r.TP) +
				" --parallelism.pipeline_parallel_degree " + itoa(r.PP) + cpFlag + "), as Megatron-LM's distributed optimizer shards optimizer states only (ZeRO-1)"
		default:
			where = "no training stack runs it (Megatron-LM's distributed optimizer shards optimizer states only, ZeRO-1; torchtitan pre-trains Llama 3, Qwen3 and DeepSeek-V3 only; a QLoRA base shards data-parallel only): plan with --zero 1 or without --tp"
		}
		return trainShape{}, e.fail(ErrModelParallel, "the plan splits the model by "+split+
			" at ZeRO-"+itoa(r.ZeRO)+"; DeepSpeed ZeRO and FSDP configs here are data-parallel only: "+where)
	}
	if ep := max(r.EP, e.in.EP); ep > 1 {
		// transformers' MoE layers (modeling_mixtral.py and the like)
		// run every expert on every rank: the Trainer's DeepSpeed ZeRO
		// and FSDP shard the experts' memory but do not split the
		// experts' work, so a plan sized with each rank holding 1/EP of
		// the experts does not fit as launched.
		return trainShape{}, e.fail(ErrModelParallel, "the plan splits the experts over EP "+itoa(ep)+
			" ranks; DeepSpeed ZeRO and FSDP configs here have no expert parallelism: run it with Megatron-LM or NeMo (--expert-model-parallel-size)")
	}
	s := trainShape{nodes: max(r.Instances, 1), perNode: e.gpusPerInstance()}
	s.dp = max(r.DP, 1)
	if held := s.nodes * s.perNode; s.dp < held && s.dp%s.nodes == 0 {
		// A layout the user fixed on fewer GPUs than the instances hold
		// (--gpus 2 on an instance of 8: the planner's idleGPUs): the
		// launch starts its DP ranks, DP / instances on each. torchrun
		// and accelerate launch --nproc-per-node / num_processes local
		// ranks, and the Trainer puts local rank i on cuda:i
		// (TrainingArguments._setup_devices), so the job runs on GPUs
		// 0..n-1 of each instance and the rest stay free.
		s.perNode = s.dp / s.nodes
		on := "GPUs 0.." + itoa(s.perNode-1)
		if s.nodes > 1 {
			on += " of each instance"
		}
		e.note("the layout given runs on " + itoa(s.dp) + " of the " + itoa(held) + " GPUs rented (" + on + "); " + itoa(held-s.dp) + " idle, paid")
	}
	s.world = s.nodes * s.perNode
	s.micro = max(e.in.Batch, 1)
	s.seq = e.in.Seq
	if e.in.Arch.SeqLen > 0 && !e.in.Arch.Generic() {
		s.seq = e.in.Arch.SeqLen
	}
	seq := float64(s.seq)
	s.accum = 1
	g := e.req.Workload.GlobalBatchTokens
	if g <= 0 {
		g = estimator.DefaultGlobalBatchTokens(e.in) // the plan's default (pre-training)
	}
	if g > 0 {
		s.accum = max(1, int(math.Round(g/(float64(s.dp)*float64(s.micro)*seq))))
	} else if r.PP > 1 {
		s.accum = 4 * r.PP
	}
	return s, e.checkTrain(s)
}

// maxSteps is the optimizer steps the launch stops after: the plan's
// training tokens (Workload.TrainTokens, which its time and cost count)
// over the tokens of one of the launch's steps, micro-batch ×
// accumulation × data-parallel replicas × sequence, rounded up; 0 where
// the plan names no tokens. Without it the Trainer runs its
// num_train_epochs (3 by default) over whatever data set it is given,
// and LitGPT's scripts their --train.epochs (5), neither of them the run
// the plan priced.
func (e *emitter) maxSteps(s trainShape) int {
	tokens := e.req.Workload.TrainTokens
	step := float64(s.micro) * float64(s.accum) * float64(s.dp) * float64(s.seq)
	if !(tokens > 0) || !(step > 0) {
		return 0
	}
	return int(math.Ceil(tokens / step))
}

// precision is the mixed-precision mode: "bf16", "fp16" or "no". fp8
// training is Transformer Engine's fp8 matmuls inside bf16 mixed
// precision (bf16 weights and gradients, an fp32 master copy: NVIDIA
// Transformer Engine user guide; estimator.Input.Validate sizes its
// memory as bf16's), so its base is bf16, not fp32's "no".
func (e *emitter) precision() string {
	switch e.in.Weights {
	case estimator.BF16:
		return "bf16"
	case estimator.FP8:
		e.note("the plan's speed counts fp8 matmuls (Transformer Engine): these settings run bf16 mixed precision, in the memory the plan sized but slower, until the script runs its layers under Transformer Engine's fp8_autocast (or plan with --precision bf16 for bf16's time)")
		return "bf16"
	case estimator.FP16:
		return "fp16"
	}
	return "no"
}

// pure16 is torch's name for the dtype of a pure 16-bit plan
// (estimator.Input.PureBF16: weights, gradients and optimizer states in
// 16 bits, no fp32 master copy), "bfloat16" or "float16"; "" for mixed
// precision or fp32.
func (e *emitter) pure16() string {
	if !e.in.PureBF16 {
		return ""
	}
	if e.in.Weights == estimator.FP16 {
		return "float16"
	}
	return "bfloat16"
}

// mixedPrecision is the launcher's mixed-precision mode: precision(), or
// "no" where a pure 16-bit plan runs as the model's own dtype with no
// autocast. accelerate upcasts a 16-bit model's parameters to fp32 under
// FSDP whenever mixed_precision is not "no" (Accelerator.prepare_model,
// "FSDP upcast of low precision parameters", and fsdp2_prepare_model for
// FSDP2: src/accelerate/accelerator.py and utils/fsdp_utils.py at
// huggingface/accelerate v1.14.0, beb0672aa844) — the fp32 master copy a
// pure plan does not hold; the Trainer's --bf16 sets that mode
// (ACCELERATE_MIXED_PRECISION). DeepSpeed's bf16 at ZeRO-0 is its
// BF16_Optimizer, which keeps fp32 master weights
// (deepspeed/runtime/bf16_optimizer.py, fp32_groups_flat_partition);
// without a bf16 or fp16 section the engine neither casts the model nor
// wraps the optimizer (engine.py _configure_distributed_model and
// _do_optimizer_sanity_check at deepspeedai/DeepSpeed v0.19.5,
// cf44300453eb), so the bf16-loaded model trains as it is. At ZeRO 1–3
// DeepSpeed keeps bf16 master weights itself (deepspeedJSON).
func (e *emitter) mixedPrecision() string {
	if e.pure16() != "" && (e.k == FSDP || e.row.ZeRO == 0) {
		return "no"
	}
	return e.precision()
}

// deepspeedPure refuses a pure 16-bit plan that DeepSpeed cannot run as
// planned: fp16 master weights (fp16_master_weights_and_grads) need
// ZeRO-Offload with DeepSpeedCPUAdam (the ZeRO optimizers'
// _enforce_cpu_offload, deepspeed/runtime/zero/stage_1_and_2.py and
// stage3.py at v0.19.5), and bf16 optimizer states offloaded need a
// DeepSpeedCPUAdam built with fp32_optimizer_states=False
// (_configure_master_weights, runtime/base_optimizer.py), while the
// Trainer's optimizer reaches DeepSpeed through accelerate's
// map_pytorch_optim_to_deepspeed (src/accelerate/utils/deepspeed.py at
// v1.14.0) as a DeepSpeedCPUAdam with its fp32 states. ZeRO-0 runs
// without DeepSpeed's mixed precision (mixedPrecision).
func (e *emitter) deepspeedPure() error {
	d := e.pure16()
	if d == "" || e.row.ZeRO == 0 {
		return nil
	}
	if d == "float16" {
		return e.fail(ErrPrecision, "the plan trains in pure fp16 at ZeRO-"+itoa(e.row.ZeRO)+
			", and DeepSpeed keeps fp16 master weights only under ZeRO-Offload with its own CPU Adam: emit fsdp, or plan with --zero 0")
	}
	if e.in.Offload != estimator.OffloadNone {
		return e.fail(ErrPrecision, "the plan trains in pure bf16 with its optimizer offloaded, and the Trainer hands DeepSpeed a CPU Adam with fp32 states, which DeepSpeed's bf16 optimizer states refuse: plan without --offload, or with mixed precision (no --pure-bf16)")
	}
	return nil
}

// pureNotes says what the training script does for a pure 16-bit plan
// beyond the flags: a model built from a config (pre-training) in the
// 16-bit dtype where no launcher casts it (run_clm.py's --dtype reaches
// from_pretrained only; DeepSpeed's bf16 casts the module), and PEFT's
// adapters kept in it (get_peft_model's autocast_adapter_dtype, True by
// default, upcasts 16-bit adapters to fp32).
func (e *emitter) pureNotes() {
	d := e.pure16()
	if d == "" {
		return
	}
	if e.in.Task == estimator.Pretrain && e.mixedPrecision() == "no" {
		name := "bf16"
		if d == "float16" {
			name = "fp16"
		}
		e.note("pure " + name + ": build the model in torch." + d +
			" (AutoModelForCausalLM.from_config(config, dtype=torch." + d + ")): run_clm.py's --dtype applies to published weights only, and an fp32 model trains with the fp32 copy the plan did not count")
	}
	// Only where the plan counted 16-bit adapters: fp32 ones
	// (--adapter-dtype fp32) are PEFT's default and need no setting.
	if (e.in.Task == estimator.LoRA || e.in.Task == estimator.QLoRA) && estimator.ResolveAdapterDType(e.in) != estimator.FP32 {
		e.note("pure 16-bit adapters: wrap the model with get_peft_model(model, config, autocast_adapter_dtype=False), or PEFT keeps the adapters and their optimizer states in fp32, which the plan did not count")
	}
}

// trainerArgs are the training script's flags: transformers'
// TrainingArguments (src/transformers/training_args.py), which the
// Trainer's example scripts (examples/pytorch/language-modeling/run_clm.py)
// parse with HfArgumentParser, plus run_clm's --model_name_or_path;
// testdata/transformers_flags.txt.
func (e *emitter) trainerArgs(c *command, s trainShape, checkpointing bool) {
	if e.in.Task == estimator.Pretrain {
		// Pre-training starts from the architecture, not the published
		// weights: run_clm.py's ModelArguments build a model from
		// scratch from --config_name ("model_name_or_path: ... Don't set
		// if you want to train a model from scratch") and need
		// --tokenizer_name for the tokenizer then.
		c.flag("--config_name", e.model)
		c.flag("--tokenizer_name", e.model)
	} else {
		c.flag("--model_name_or_path", e.model)
		if d := e.pure16(); d != "" {
			// run_clm.py's ModelArguments.dtype, passed to
			// from_pretrained (huggingface/transformers 00d481d18f91).
			c.flag("--dtype", d)
		}
	}
	c.num("--per_device_train_batch_size", s.micro)
	c.num("--gradient_accumulation_steps", s.accum)
	// The plan's sequence: run_clm.py packs the tokenised text into
	// blocks of DataTrainingArguments.block_size tokens, and without the
	// flag takes the tokenizer's model_max_length, cut to
	// min(1024, max_position_embeddings) where that is larger than the
	// model's positions (examples/pytorch/language-modeling/run_clm.py,
	// huggingface/transformers): a fine-tune planned at 4,096 tokens
	// would train at 1,024, in less memory and time than planned.
	c.num("--block_size", s.seq)
	e.note("--block_size " + itoa(s.seq) + " is the plan's sequence (run_clm.py's DataTrainingArguments.block_size; without it run_clm.py trains blocks of at most 1,024 tokens): a Trainer script of your own must train sequences of " + itoa(s.seq) + " tokens, packed or padded to it, for the memory and time planned")
	if n := e.maxSteps(s); n > 0 {
		// TrainingArguments.max_steps: "the total number of training
		// steps to perform. Overrides num_train_epochs"; the Trainer
		// cycles the data set as often as that takes
		// (src/transformers/training_args.py and trainer.py's
		// _inner_training_loop, huggingface/transformers).
		c.num("--max_steps", n)
		e.note("--max_steps " + itoa(n) + " is the plan's run: " + tokenCount(e.req.Workload.TrainTokens) + " tokens at " +
			plural(s.micro*s.accum*s.dp, "sequence") + " of " + itoa(s.seq) + " tokens a step (it overrides num_train_epochs); the time and cost are for that many steps")
	}
	c.frac("--max_grad_norm", maxGradNorm)
	e.pureNotes()
	switch e.mixedPrecision() {
	case "bf16":
		c.flag("--bf16", "true")
	case "fp16":
		c.flag("--fp16", "true")
	}
	if checkpointing {
		c.flag("--gradient_checkpointing", "true")
	}
	c.flag("--output_dir", "out")
	if n := e.saveSteps(); n > 0 {
		// A spot row's time and cost count on a checkpoint every
		// CheckpointIntervalSeconds (Young/Daly, estimator/plan): the
		// Trainer saves every save_steps optimizer steps
		// (TrainingArguments save_strategy "steps", save_steps; its
		// default of 500 steps is not the planned interval).
		c.flag("--save_strategy", "steps")
		c.num("--save_steps", n)
		e.note("spot: the Trainer saves a checkpoint every " + itoa(n) + " optimizer steps, the plan's interval; keep --output_dir on storage that outlives a reclaimed instance (a bucket, such as one SkyPilot mounts with file_mounts mode MOUNT) and resume from its last checkpoint (trainer.train(resume_from_checkpoint=...)), or each restart begins again from step 0")
	}
	if e.in.Task == estimator.LoRA || e.in.Task == estimator.QLoRA {
		list, after := loraModules(e.in.LoRATargets, e.in.Arch.ModelType)
		e.note("the plan trains " + e.in.Task.String() + " adapters: the script must wrap the model with PEFT, LoraConfig(r=" + itoa(e.in.LoRARank) +
			", lora_dropout=" + ftoa(e.in.LoRADropout) + ", target_modules=" + list + ")" + after)
	}
	if e.in.Task == estimator.QLoRA {
		// The plan's 4-bit base: bitsandbytes NF4, double-quantised
		// only under --quant nf4 (estimator.Quant), computing in the
		// training precision (transformers' BitsAndBytesConfig:
		// load_in_4bit, bnb_4bit_quant_type, bnb_4bit_use_double_quant,
		// bnb_4bit_compute_dtype, whose float32 default runs the
		// matmuls in fp32).
		e.note("QLoRA: load the base with BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=" +
			pyBool(e.in.Quant == estimator.QuantNF4) + ", bnb_4bit_compute_dtype=torch." + storageDType(e.precision()) + "), the 4-bit format the plan sized")
	}
	if e.in.Task == estimator.QLoRA && (e.row.ZeRO == 3 || e.k == FSDP) {
		// FSDP shards float tensors only: bitsandbytes' Params4bit store
		// their NF4 bytes in quant_storage, uint8 by default, which must
		// be the other weights' dtype for FSDP-QLoRA (bitsandbytes docs,
		// "FSDP-QLoRA"; PEFT's "Use PEFT QLoRA and FSDP" and "DeepSpeed
		// and QLoRA" guides set bnb_4bit_quant_storage the same way).
		// FSDP flattens each wrapped unit's parameters whatever its
		// sharding strategy, NO_SHARD and SHARD_GRAD_OP too, and refuses
		// uint8 ones ("Cannot flatten integer dtype tensors",
		// FlatParamHandle._validate_tensors_to_flatten,
		// torch/distributed/fsdp/_flat_param.py, read 2026-11-29).
		e.note("QLoRA under FSDP or ZeRO-3: load the base with BitsAndBytesConfig(bnb_4bit_quant_storage=torch." + storageDType(e.precision()) + "), the dtype of the other weights, or the 4-bit weights cannot be flattened and sharded")
	}
}

// torchrun is the launcher line on every node: torch.distributed.run's
// flags (torch/distributed/run.py); testdata/torchrun_flags.txt. Several
// nodes take their rank and the first node's address from the
// environment (SkyPilot sets SKYPILOT_NODE_RANK and SKYPILOT_NODE_IPS).
func torchrun(s trainShape) *command {
	c := &command{argv: []string{"torchrun"}}
	c.num("--nnodes", s.nodes)
	c.num("--nproc-per-node", s.perNode)
	if s.nodes > 1 {
		c.expand("--node-rank", nodeRank)
		c.expand("--master-addr", masterAddr)
		c.num("--master-port", 29500)
	}
	return c
}

// deepspeed writes ds_config.json (DeepSpeed's configuration JSON, keys
// from deepspeed/runtime/constants.py, zero/config.py,
// zero/offload_config.py, activation_checkpointing/config.py;
// testdata/deepspeed_keys.txt) and the torchrun line of a Trainer script
// that reads it (TrainingArguments --deepspeed).
func (e *emitter) deepspeed() error {
	s, err := e.train()
	if err != nil {
		return err
	}
	if err := e.deepspeedPure(); err != nil {
		return err
	}
	e.file("launch.sh", "sh", e.deepspeedLaunch(s))
	e.file("ds_config.json", "json", e.deepspeedJSON(s))
	return nil
}

func (e *emitter) deepspeedLaunch(s trainShape) string {
	c := e.deepspeedCommand(s)
	text := "#!/bin/sh\n" + e.header()
	if s.nodes > 1 {
		text += "# on each of the " + itoa(s.nodes) + " instances: NODE_RANK 0.." + itoa(s.nodes-1) + ", MASTER_ADDR the first one's address\n" + nodeGuards(s.nodes, c.String())
	}
	return text + c.String() + "\n"
}

// deepspeedCommand is torchrun starting the Trainer script with the
// DeepSpeed config.
func (e *emitter) deepspeedCommand(s trainShape) *command {
	c := torchrun(s)
	c.then = &command{argv: []string{"train.py"}}
	e.trainerArgs(c.then, s, e.in.GradCheckpointing)
	c.then.flag("--deepspeed", "ds_config.json")
	return c
}

// deepspeedJSON writes the config as JSON by hand (no encoding/json in
// the browser build). train_batch_size = micro × accumulation × DP, the
// identity DeepSpeed checks (deepspeed/runtime/config.py,
// _batch_assertion).
func (e *emitter) deepspeedJSON(s trainShape) string {
	j := &jsonWriter{}
	j.open()
	j.num("train_batch_size", s.micro*s.accum*s.dp)
	j.num("train_micro_batch_size_per_gpu", s.micro)
	j.num("gradient_accumulation_steps", s.accum)
	j.float("gradient_clipping", maxGradNorm)
	switch e.mixedPrecision() {
	case "bf16":
		j.object("bf16")
		j.boolean("enabled", true)
		if e.pure16() != "" {
			// Pure bf16 at ZeRO 1–3: the ZeRO optimizer's master
			// weights, gradients and Adam states in bf16, no fp32
			// copy (DeepSpeedBF16Config, deepspeed/runtime/
			// precision_config.py at v0.19.5; ZeRO 1–3 only,
			// runtime/config.py).
			j.boolean("bf16_master_weights_and_grads", true)
			j.boolean("bf16_optimizer_states", true)
			e.note("pure bf16: bf16_master_weights_and_grads and bf16_optimizer_states need DeepSpeed 0.18.3 or later")
		}
		j.close()
	case "fp16":
		j.object("fp16")
		j.boolean("enabled", true)
		j.close()
	}
	j.object("zero_optimization")
	j.num("stage", max(e.row.ZeRO, 0))
	if e.in.Offload >= estimator.OffloadOptimizer {
		j.object("offload_optimizer")
		j.str("device", "cpu")
		j.boolean("pin_memory", true)
		j.close()
	}
	if e.in.Offload == estimator.OffloadAll {
		j.object("offload_param")
		j.str("device", "cpu")
		j.boolean("pin_memory", true)
		j.close()
	}
	j.boolean("overlap_comm", true)
	j.boolean("contiguous_gradients", true)
	j.close()
	if e.in.GradCheckpointing {
		// DeepSpeed's own checkpointing API reads this block; the
		// Trainer turns recomputation on with --gradient_checkpointing.
		j.object("activation_checkpointing")
		j.boolean("partition_activations", false)
		j.boolean("contiguous_memory_optimization", false)
		j.boolean("cpu_checkpointing", false)
		j.close()
	}
	j.close()
	return j.String()
}

// fsdp writes accelerate's config file with an fsdp_config block (keys
// from accelerate's src/accelerate/commands/config/cluster.py and
// config_args.py ClusterConfig; testdata/accelerate_keys.txt) and the
// accelerate launch line (src/accelerate/commands/launch.py) of a Trainer
// script.
func (e *emitter) fsdp() error {
	s, err := e.train()
	if err != nil {
		return err
	}
	if e.in.Offload == estimator.OffloadOptimizer {
		return e.fail(ErrOptimizerOnly, "the plan offloads the optimizer alone, which FSDP cannot (its CPU offload moves parameters and gradients too): use deepspeed")
	}
	// ZeRO stage → FSDP sharding: 3 shards parameters, gradients and
	// optimizer states (FULL_SHARD); 2 gradients and states
	// (SHARD_GRAD_OP); FSDP has no optimizer-only sharding, so ZeRO-1
	// takes SHARD_GRAD_OP, which holds less.
	strategy := "NO_SHARD"
	switch e.row.ZeRO {
	case 3:
		strategy = "FULL_SHARD"
	case 1, 2:
		strategy = "SHARD_GRAD_OP"
		if e.row.ZeRO == 1 {
			e.note("FSDP has no optimizer-only sharding (ZeRO-1): SHARD_GRAD_OP also shards the gradients, which needs less memory than the plan")
		}
	}
	c := &command{argv: []string{"accelerate", "launch"}}
	c.flag("--config_file", "fsdp.yaml")
	if s.nodes > 1 {
		c.expand("--machine_rank", nodeRank)
		c.expand("--main_process_ip", masterAddr)
	}
	text := "#!/bin/sh\n" + e.header()
	if s.nodes > 1 {
		text += "# on each of the " + itoa(s.nodes) + " instances: NODE_RANK 0.." + itoa(s.nodes-1) + ", MASTER_ADDR the first one's address\n" + nodeGuards(s.nodes, c.String())
	}
	c.then = &command{argv: []string{"train.py"}}
	// FSDP recomputes activations itself (fsdp_activation_checkpointing);
	// the Trainer's --gradient_checkpointing stays off with it.
	e.trainerArgs(c.then, s, false)
	e.file("launch.sh", "sh", text+c.String()+"\n")

	y := &yamlWriter{}
	y.str("compute_environment", "LOCAL_MACHINE")
	y.str("distributed_type", "FSDP")
	y.section("fsdp_config")
	y.str("fsdp_auto_wrap_policy", "TRANSFORMER_BASED_WRAP")
	if e.in.FSDP2 {
		// FSDP2 (fully_shard), as the plan sized it (estimator.Input.FSDP2):
		// accelerate's fsdp_version 2 takes fsdp_reshard_after_forward for
		// the sharding strategy (FULL_SHARD: true) and has no prefetch,
		// module-state sync or orig-params keys
		// (src/accelerate/commands/to_fsdp2.py ARGUMENT_KEY_MAPPING,
		// huggingface/accelerate at b0d8fa95).
		y.boolean("fsdp_cpu_ram_efficient_loading", true)
		y.boolean("fsdp_offload_params", e.in.Offload == estimator.OffloadAll)
		y.boolean("fsdp_reshard_after_forward", strategy == "FULL_SHARD")
		y.str("fsdp_state_dict_type", "SHARDED_STATE_DICT")
		y.num("fsdp_version", 2)
	} else {
		y.str("fsdp_backward_prefetch", "BACKWARD_PRE")
		y.boolean("fsdp_cpu_ram_efficient_loading", true)
		y.boolean("fsdp_forward_prefetch", false)
		y.boolean("fsdp_offload_params", e.in.Offload == estimator.OffloadAll)
		y.str("fsdp_sharding_strategy", strategy)
		y.str("fsdp_state_dict_type", "SHARDED_STATE_DICT")
		y.boolean("fsdp_sync_module_states", true)
		y.boolean("fsdp_use_orig_params", true)
	}
	y.boolean("fsdp_activation_checkpointing", e.in.GradCheckpointing)
	y.end()
	y.num("machine_rank", 0)
	if s.nodes > 1 {
		y.num("main_process_port", 29500)
	}
	y.str("main_training_function", "main")
	y.str("mixed_precision", e.mixedPrecision())
	y.num("num_machines", s.nodes)
	y.num("num_processes", s.world)
	y.str("rdzv_backend", "static")
	y.boolean("same_network", true)
	y.boolean("use_cpu", false)
	e.file("fsdp.yaml", "yaml", y.String())
	return nil
}

// storageDType is torch's name for the training precision's dtype.
func storageDType(precision string) string {
	if precision == "fp16" {
		return "float16"
	}
	return "bfloat16"
}

// saveSteps is the optimizer steps between checkpoints that a spot
// row's plan counts on (plan.Row.CheckpointIntervalSeconds over the
// seconds per optimizer step, JobSeconds / OptimizerSteps), at least 1;
// 0 for a row not on spot or without the figures.
func (e *emitter) saveSteps() int {
	r := e.row
	if r.Pricing != plan.Spot || r.CheckpointIntervalSeconds <= 0 || r.OptimizerSteps <= 0 || r.JobSeconds <= 0 {
		return 0
	}
	n := math.Round(r.CheckpointIntervalSeconds / (r.JobSeconds / r.OptimizerSteps))
	if !(n >= 1) {
		return 1
	}
	return int(min(n, math.Ceil(r.OptimizerSteps)))
}

// loraModules is PEFT's target_modules for the plan's adapters:
// "all-linear" (PEFT's LoraConfig shorthand for every linear but the
// output layer), or the attention projections the set names under their
// names in transformers' modeling file of the family (modeling_llama.py
// and the families below: q_proj, k_proj, v_proj, o_proj; query-value
// q_proj and v_proj, PEFT's own default for most of them,
// TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING in
// src/peft/utils/constants.py at 09ba20c4; modeling_phi3.py: a fused
// qkv_proj and o_proj, so q and v alone are not a module there). Another
// family's names are left to the script: the list is "[...]" and after
// writes which modules to put there, the config's model_type a quoted
// string outside the call, so a model_type that reads as Python is not
// part of the code.
func loraModules(t estimator.LoRATargets, modelType string) (list, after string) {
	if t == estimator.LoRAAllLinear {
		return "\"all-linear\"", ""
	}
	switch modelType {
	case "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma2", "gemma3", "gemma3_text",
		"granite", "olmo2", "llama4", "gpt_oss", "glm4_moe":
		if t == estimator.LoRAQueryValue {
			return "[\"q_proj\", \"v_proj\"]", ""
		}
		return "[\"q_proj\", \"k_proj\", \"v_proj\", \"o_proj\"]", ""
	case "phi3":
		if t == estimator.LoRAQueryValue {
			return "[...]", ", target_modules adapting the query and value projections of model_type \"phi3\", whose q, k and v are one fused qkv_proj (PEFT adapts a module whole: qkv_proj puts adapters on k too)"
		}
		return "[\"qkv_proj\", \"o_proj\"]", ""
	}
	what := "the attention projections"
	if t == estimator.LoRAQueryValue {
		what = "the query and value projections"
	}
	return "[...]", ", target_modules listing " + what + " of model_type " + quoteString(modelType)
}

// pyBool is Python's spelling of b.
func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// tokenCount writes a token count short: "500M", "1.2B", to four
// significant figures.
func tokenCount(v float64) string {
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			return strconv.FormatFloat(v/u.div, 'g', 4, 64) + u.unit
		}
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
