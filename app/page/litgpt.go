package page

import (
	"slices"
	"strconv"
	"strings"

	"rightsize/app/page/jobspec"
	"rightsize/estimator"
)

// StackDefaults is what a job took from the fine-tuning stack its inputs
// name, where the job itself did not say: Stack names the stack and the
// scripts read, Flags the settings taken, each as the command line's flag
// that gives it (so a user who runs otherwise knows what to say).
type StackDefaults struct {
	Stack  string   `json:"stack"`
	Source string   `json:"source"`
	Flags  []string `json:"flags"`
	// Refused: the stack's scripts refuse the job as set (LitGPT's lora.py:
	// QLoRA on more than one device); the estimate is of the job as set.
	Refused bool `json:"refused,omitempty"`
}

// LitGPT is the stack a Lightning precision name stands for in a
// fine-tune, and the scripts its defaults are read from.
const (
	LitGPT       = "LitGPT"
	litgptSource = "Lightning-AI/litgpt litgpt/finetune/lora.py and full.py at 00af8b0d (2024-09-27)"
	// litgptGlobalBatch is setup()'s TrainArgs(global_batch_size=16,
	// micro_batch_size=1) in lora.py and full.py, the same from 58c5b188
	// (2024-04-19) to 00af8b0d (2024-09-27), the commits LitGPT's
	// config-hub tables were measured at.
	litgptGlobalBatch = 16
	// litgptChunk is lora.py's model(input_ids, lm_head_chunk_size=128)
	// and both scripts' chunked_cross_entropy (chunk_size=128 tokens,
	// litgpt/utils.py at 00af8b0d).
	litgptChunk = 128
	// litgptRank is lora.py's setup(lora_r=8), the same at every commit
	// of its tables (8641822, 58c5b188, 00af8b0d).
	litgptRank = 8
	// litgptTargets is lora.py's setup(lora_query=True, lora_key=False,
	// lora_value=True, lora_projection=False, lora_mlp=False,
	// lora_head=False) at 00af8b0d, as at 8641822 (the resource tables'
	// commit, whose printed trainable parameters are r·Σ(in+out) of q and
	// v: 1,572,864 for phi-1.5 at rank 8).
	litgptTargets = estimator.LoRAQueryValue
)

// lightningNamed is the Lightning precision a precision field's text
// names (LightningPrecisions), and whether it names one.
func lightningNamed(name string) (LightningPrecision, bool) {
	i := slices.IndexFunc(LightningPrecisions, func(p LightningPrecision) bool { return p.Name == name })
	if i < 0 {
		return LightningPrecision{}, false
	}
	return LightningPrecisions[i], true
}

// isLightning reports whether a precision field's text is one of
// Lightning's names (lightningNamed).
func isLightning(name string) bool {
	_, ok := lightningNamed(name)
	return ok
}

// litgptDefaults applies LitGPT's fine-tune defaults to in where the job
// did not set them, for a fine-tune (full, LoRA, QLoRA) whose precision is
// one of Lightning's names (LightningPrecisions): Lightning's names are
// what LitGPT's fine-tune scripts take (--precision bf16-true, as every
// recipe of its config hub sets it; bf16-mixed where none is given on a
// GPU with bf16, get_default_supported_precision(training=True) in
// litgpt/utils.py), so a job that names one plans what those scripts run
// with their defaults. HF
// Trainer/PEFT jobs (bf16, fp16) and torchtune's (--pure-bf16) keep the
// estimator's. Read from litgpt/finetune/lora.py, full.py, args.py,
// lora.py's model and litgpt/model.py at 00af8b0d:
//
//   - global batch 16 (litgptGlobalBatch) when none is given: each rank
//     accumulates (16 // devices) // micro_batch_size micro-batches
//     (TrainArgs.gradient_accumulation_iters), inside
//     fabric.no_backward_sync, which under FSDP is no_sync (the estimator's
//     FSDPNoSyncDefault then holds the whole model's gradients). Where that
//     is under one micro-batch the scripts refuse to start (the assert in
//     gradient_accumulation_iters); the job is then planned as one
//     micro-batch a step, and the default is not taken;
//
//   - on more than one device, with no ZeRO stage given and no tensor,
//     pipeline or context parallelism (the scripts have none):
//     FSDPStrategy(auto_wrap_policy={Block}, activation_checkpointing_policy={Block}),
//     full shard with every Block checkpointed (--zero 3 --grad-checkpointing).
//     Not for QLoRA, which lora.py refuses on more than one device
//     (NotImplementedError, "Quantization is currently not supported for
//     multi-GPU training"): StackDefaults.Refused says so;
//
//   - under bf16-mixed and 16-mixed, FSDP over the fp32 module: Lightning's
//     FSDPPrecision gathers the fp32 weights and autocast casts them
//     (estimator.Input.FSDPGatherFP32, counted at ZeRO 3: fp32 gradients,
//     fp32 gathers and autocast's 16-bit copy of the whole model in the
//     forward);
//
//   - the loss over 128-token chunks (litgptChunk): --loss-chunks ⌈seq/128⌉;
//
//   - its GPT's own LM head even where the checkpoint ties it
//     (estimator.Arch.WithSeparateHead);
//
//   - the fit loop's logits and loss rebound only when the next step's
//     return, so the previous step's graph is held (--keeps-last-graph);
//
//   - full and LoRA: AdamW as torch.optim.AdamW builds it with neither
//     foreach nor fused (finetune/full.py and lora.py call
//     instantiate_torch_optimizer(optimizer, model.parameters()) with
//     optimizer "AdamW", litgpt/utils.py; read at 0077627d): foreach on
//     CUDA, one moment's worth more during the step (--optimizer-impl
//     foreach; estimator.OptimizerImplForeach). QLoRA takes bitsandbytes'
//     PagedAdamW there (instantiate_bnb_optimizer), per-tensor kernels;
//
//   - its GPT's attention, CausalSelfAttention, whose K and V reach the
//     attention kernel copied out to every query head, or, with as many
//     KV heads as query heads, V as a view of the whole fused qkv output
//     (--litgpt-attention; estimator.Input.LitGPTAttention);
//
//   - LoRA/QLoRA under bf16-true or 16-true: the adapters in the model's
//     16-bit dtype where the adapter dtype is on auto (--adapter-dtype
//     bf16 or fp16): GPT(config) is built inside fabric.init_module(),
//     whose precision context makes the 16-bit dtype the default
//     (litgpt/finetune/lora.py at 26857050), so no fp32 adapter and no
//     fp32 copy of its input (auto takes the same under a 16-bit-only
//     step; estimator.ResolveAdapterDType). Under the -mixed names the module
//     is fp32, adapters too;
//
//   - LoRA/QLoRA: the adapters of one fused qkv linear with one dropout
//     (LoRAQKVLinear, --lora-fused-qkv); QLoRA: Lightning's
//     BitsandbytesPrecision quantises the LM head too (--quantize-head).
//
//   - LoRA/QLoRA: rank 8 (litgptRank) and adapters on q and v only
//     (litgptTargets, --lora-targets query-value) where none is given; a
//     link that names none means them too (ViewState.linkDefault), and
//     the page counts its rank and targets fields given only where they
//     differ from those.
//
// Each default is taken only where its field (jobspec) is not given, so
// a flag given wins at both doors; the separate head, a command-line flag
// of its own, is undone there (--separate-head=false). t says which fields the job
// gave; zeroAuto whether the ZeRO stage is on auto. It returns the
// defaults taken (nil: none), the global batch and whether the ZeRO stage
// is still on auto.
func litgptDefaults(t *JobText, in *estimator.Input, global int, zeroAuto bool) (*StackDefaults, int, bool) {
	prec, ok := lightningNamed(t.Text[jobspec.Precision])
	if !ok || in.Task != estimator.FullFinetune && in.Task != estimator.LoRA && in.Task != estimator.QLoRA {
		return nil, global, zeroAuto
	}
	d := &StackDefaults{Stack: LitGPT, Source: litgptSource}
	took := func(flag string, v ...string) {
		d.Flags = append(d.Flags, strings.Join(append([]string{"--" + flag}, v...), " "))
	}
	one := max(in.TP, 1)*max(in.PP, 1)*max(in.CP, 1) == 1
	devices := max(in.GPUs, 1)
	if global == 0 && one && in.Batch > 0 {
		if iters := litgptGlobalBatch / devices / in.Batch; iters >= 1 {
			global = iters * in.Batch * devices
			took(jobspec.Fields[jobspec.GlobalBatch].Flag, strconv.Itoa(global))
		}
	}
	d.Refused = in.Task == estimator.QLoRA && devices > 1
	if zeroAuto && one && devices > 1 && !d.Refused {
		in.ZeRO, in.GradCheckpointing, zeroAuto = 3, true, false
		took(jobspec.Fields[jobspec.ZeRO].Flag, "3")
		took(jobspec.Fields[jobspec.GradCheckpointing].Flag)
	}
	// on: a flag LitGPT's scripts turn on, where the job did not say.
	on := func(f jobspec.Field, dst *bool) {
		if !t.Set[f] {
			*dst = true
			took(jobspec.Fields[f].Flag)
		}
	}
	if !t.Set[jobspec.LossChunks] && in.Seq > litgptChunk {
		in.LossChunks = (in.Seq + litgptChunk - 1) / litgptChunk
		took(jobspec.Fields[jobspec.LossChunks].Flag, strconv.Itoa(in.LossChunks))
	}
	if a := in.Arch.WithSeparateHead(); a.TotalParams != in.Arch.TotalParams {
		in.Arch = a
		took("separate-head")
	}
	// Lightning's -mixed precisions keep the module fp32 under autocast,
	// and its FSDPPrecision gathers those fp32 weights
	// (--fsdp-fp32-gather; estimator.Input.FSDPGatherFP32), counted where
	// the plan shards at ZeRO 3.
	if prec.Mixed && in.Task == estimator.FullFinetune {
		on(jobspec.FSDPGatherFP32, &in.FSDPGatherFP32)
	}
	on(jobspec.KeepsLastGraph, &in.KeepsLastGraph)
	on(jobspec.LitGPTAttention, &in.LitGPTAttention)
	if !t.Set[jobspec.OptimizerImpl] && in.OptimizerImpl == estimator.OptimizerImplAuto && in.Task != estimator.QLoRA {
		in.OptimizerImpl = estimator.OptimizerImplForeach
		took(jobspec.Fields[jobspec.OptimizerImpl].Flag, estimator.OptimizerImplForeach.String())
	}
	if in.Task != estimator.FullFinetune {
		if !t.Set[jobspec.LoRARank] {
			in.LoRARank = litgptRank
			took(jobspec.Fields[jobspec.LoRARank].Flag, strconv.Itoa(litgptRank))
		}
		if !t.Set[jobspec.LoRATargets] {
			in.LoRATargets = litgptTargets
			took(jobspec.Fields[jobspec.LoRATargets].Flag, litgptTargets.String())
		}
		on(jobspec.LoRAFusedQKV, &in.LoRAFusedQKV)
		if d := estimator.AdapterDTypeOf(in.Weights); in.AdapterDType == estimator.AdapterAuto && in.PureBF16 && (d == estimator.AdapterBF16 || d == estimator.AdapterFP16) {
			in.AdapterDType = d
			took(jobspec.Fields[jobspec.AdapterDType].Flag, d.String())
		}
	}
	if in.Task == estimator.QLoRA {
		on(jobspec.QuantizeHead, &in.QuantizeHead)
	}
	return d, global, zeroAuto
}
