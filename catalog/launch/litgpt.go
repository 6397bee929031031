package launch

import (
	"strconv"
	"strings"

	"rightsize/estimator"
)

// LitGPT's command line, read from Lightning-AI/litgpt at v0.4.13
// (0fb584787eb5, 2024-09-27), whose litgpt/__main__.py, args.py,
// finetune/lora.py, finetune/full.py, data/ and scripts/download.py are
// those of 00af8b0d, the commit the plan's LitGPT defaults are read from
// (app/page litgptDefaults); testdata/litgpt_flags.txt lists the flags.
// From v0.5.11 (5ac69b06, 2025-08-13) lora.py shards with
// ModelParallelStrategy (FSDP2) instead of FSDPStrategy with checkpointed
// Blocks: a different memory from the one planned, so the launch pins the
// release.
const (
	litgptRelease = "0.4.13"
	// litgptAlpha is lora.py's setup(lora_alpha=16): it scales the
	// adapters' update and sizes no memory, so the plan has none of its
	// own.
	litgptAlpha = 16
	// litgptCheckpoints is where litgpt download writes a repository's
	// converted checkpoint (download_from_hub's checkpoint_dir
	// "checkpoints" / repo_id), the directory the fine-tune scripts read.
	litgptCheckpoints = "checkpoints/"
)

// litgptHub is LitGPT's config hub at v0.4.13: every configs entry's
// hf_config org/name in litgpt/config.py, the repositories litgpt
// download takes (download_from_hub prints "Unsupported `repo_id`" and
// returns for any other, without a model_name, so the fine-tune that
// follows finds no checkpoint). Extracted by loading config.py and
// listing configs (133 entries, no duplicates).
const litgptHub = `
stabilityai/stablelm-base-alpha-3b
stabilityai/stablelm-base-alpha-7b
stabilityai/stablelm-tuned-alpha-3b
stabilityai/stablelm-tuned-alpha-7b
stabilityai/stablelm-3b-4e1t
stabilityai/stablelm-zephyr-3b
stabilityai/stable-code-3b
stabilityai/stablecode-completion-alpha-3b
stabilityai/stablecode-completion-alpha-3b-4k
stabilityai/stablecode-instruct-alpha-3b
stabilityai/stablelm-2-1_6b
stabilityai/stablelm-2-1_6b-chat
EleutherAI/pythia-14m
EleutherAI/pythia-31m
EleutherAI/pythia-70m
EleutherAI/pythia-160m
EleutherAI/pythia-410m
EleutherAI/pythia-1b
EleutherAI/pythia-1.4b
EleutherAI/pythia-2.8b
EleutherAI/pythia-6.9b
EleutherAI/pythia-12b
EleutherAI/pythia-14m-deduped
EleutherAI/pythia-31m-deduped
EleutherAI/pythia-70m-deduped
EleutherAI/pythia-160m-deduped
EleutherAI/pythia-410m-deduped
EleutherAI/pythia-1b-deduped
EleutherAI/pythia-1.4b-deduped
EleutherAI/pythia-2.8b-deduped
EleutherAI/pythia-6.9b-deduped
EleutherAI/pythia-12b-deduped
databricks/dolly-v2-3b
databricks/dolly-v2-7b
databricks/dolly-v2-12b
togethercomputer/RedPajama-INCITE-Base-3B-v1
togethercomputer/RedPajama-INCITE-Chat-3B-v1
togethercomputer/RedPajama-INCITE-Instruct-3B-v1
togethercomputer/RedPajama-INCITE-7B-Base
togethercomputer/RedPajama-INCITE-7B-Chat
togethercomputer/RedPajama-INCITE-7B-Instruct
tiiuae/falcon-7b
tiiuae/falcon-7b-instruct
tiiuae/falcon-40b
tiiuae/falcon-40b-instruct
tiiuae/falcon-180B
tiiuae/falcon-180B-chat
openlm-research/open_llama_3b
openlm-research/open_llama_7b
openlm-research/open_llama_13b
lmsys/vicuna-7b-v1.3
lmsys/vicuna-13b-v1.3
lmsys/vicuna-33b-v1.3
lmsys/vicuna-7b-v1.5
lmsys/vicuna-7b-v1.5-16k
lmsys/vicuna-13b-v1.5
lmsys/vicuna-13b-v1.5-16k
lmsys/longchat-7b-16k
lmsys/longchat-13b-16k
NousResearch/Nous-Hermes-llama-2-7b
NousResearch/Nous-Hermes-13b
NousResearch/Nous-Hermes-Llama2-13b
meta-llama/Llama-2-7b-hf
meta-llama/Llama-2-7b-chat-hf
meta-llama/Llama-2-13b-hf
meta-llama/Llama-2-13b-chat-hf
meta-llama/Llama-2-70b-hf
meta-llama/Llama-2-70b-chat-hf
meta-llama/Meta-Llama-3-8B
meta-llama/Meta-Llama-3-8B-Instruct
meta-llama/Meta-Llama-3.1-8B
meta-llama/Meta-Llama-3.1-8B-Instruct
meta-llama/Meta-Llama-3-70B
meta-llama/Meta-Llama-3-70B-Instruct
meta-llama/Meta-Llama-3.1-70B
meta-llama/Meta-Llama-3.1-70B-Instruct
meta-llama/Meta-Llama-3.1-405B
meta-llama/Meta-Llama-3.1-405B-Instruct
meta-llama/Llama-3.2-1B
meta-llama/Llama-3.2-1B-Instruct
meta-llama/Llama-3.2-3B
meta-llama/Llama-3.2-3B-Instruct
google/gemma-2b
google/gemma-7b
google/gemma-2-2b
google/gemma-2-9b
google/gemma-2-27b
google/gemma-2b-it
google/gemma-7b-it
google/gemma-2-2b-it
google/gemma-2-9b-it
google/gemma-2-27b-it
google/codegemma-7b-it
h2oai/h2o-danube2-1.8b-chat
stabilityai/FreeWilly2
codellama/CodeLlama-7b-hf
codellama/CodeLlama-13b-hf
codellama/CodeLlama-34b-hf
codellama/CodeLlama-70b-hf
codellama/CodeLlama-7b-Python-hf
codellama/CodeLlama-13b-Python-hf
codellama/CodeLlama-34b-Python-hf
codellama/CodeLlama-70b-Python-hf
codellama/CodeLlama-7b-Instruct-hf
codellama/CodeLlama-13b-Instruct-hf
codellama/CodeLlama-34b-Instruct-hf
codellama/CodeLlama-70b-Instruct-hf
garage-bAInd/Platypus-30B
garage-bAInd/Platypus2-7B
garage-bAInd/Platypus2-13B
garage-bAInd/Platypus2-70B
garage-bAInd/Camel-Platypus2-13B
garage-bAInd/Camel-Platypus2-70B
garage-bAInd/Stable-Platypus2-13B
garage-bAInd/Platypus2-70B-instruct
togethercomputer/LLaMA-2-7B-32K
microsoft/phi-1_5
microsoft/phi-2
microsoft/Phi-3-mini-4k-instruct
microsoft/Phi-3.5-mini-instruct
mistralai/mathstral-7B-v0.1
mistralai/Mistral-7B-v0.1
mistralai/Mistral-7B-Instruct-v0.1
mistralai/Mixtral-8x7B-v0.1
mistralai/Mixtral-8x7B-Instruct-v0.1
unsloth/Mistral-7B-v0.2
mistralai/Mistral-7B-Instruct-v0.2
mistralai/Mistral-7B-v0.3
mistralai/Mistral-7B-Instruct-v0.3
mistralai/Mistral-Large-Instruct-2407
TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T
TinyLlama/TinyLlama-1.1B-Chat-v1.0
Trelis/Llama-2-7b-chat-hf-function-calling-v2
keeeeenw/MicroLlama
`

// litgptRepo is the repository of LitGPT's config hub (litgptHub) that
// names repo, in the hub's spelling (download_from_hub compares it
// exactly; the Hub's repository IDs are not case-sensitive), or "". Meta
// renamed its Llama 3.1 repositories on the Hugging Face Hub after the hub
// named them (meta-llama/Meta-Llama-3.1-8B is now meta-llama/Llama-3.1-8B,
// as the catalog names it; oumi-ai/oumi pull request 1357, 2025-02-04),
// and the Hub redirects a renamed repository's old name
// (huggingface/hub-docs docs/hub/repositories-settings.md, "Renaming or
// transferring a repo", read 2026-11-30), so litgpt download takes the
// name its list has.
func litgptRepo(repo string) string {
	if rest, ok := strings.CutPrefix(strings.ToLower(repo), "meta-llama/llama-3.1-"); ok {
		repo = "meta-llama/Meta-Llama-3.1-" + rest
	}
	for _, r := range strings.Fields(litgptHub) {
		if strings.EqualFold(r, repo) {
			return r
		}
	}
	return ""
}

// litgptLoRA is lora.py's --lora_query, --lora_key, --lora_value,
// --lora_projection, --lora_mlp and --lora_head for the plan's adapter
// targets (LoRA's Config fields in litgpt/lora.py: the fused qkv's three
// parts, the attention output projection, the MLP's linears and the LM
// head); ok false for a target set LitGPT has no flags for.
func litgptLoRA(t estimator.LoRATargets) (flags [6]bool, ok bool) {
	const q, k, v, proj, mlp = 0, 1, 2, 3, 4
	switch t {
	case estimator.LoRAQueryValue:
		// LitGPT's own default (finetune/lora.py at 00af8b0d:
		// lora_query and lora_value True, the rest False).
		flags[q], flags[v] = true, true
	case estimator.LoRAAttention:
		flags[q], flags[k], flags[v], flags[proj] = true, true, true, true
	case estimator.LoRAAllLinear:
		// PEFT's all-linear: every linear of the blocks, not the head.
		flags[q], flags[k], flags[v], flags[proj], flags[mlp] = true, true, true, true, true
	default:
		return flags, false
	}
	return flags, true
}

var litgptLoRAFlags = [6]string{"--lora_query", "--lora_key", "--lora_value", "--lora_projection", "--lora_mlp", "--lora_head"}

// litgptPrecision is Lightning's name for the plan's training precision,
// as lora.py and full.py take it (--precision; Fabric's
// _check_and_init_precision): "-true" where the weights, gradients and
// optimizer states stay in the 16-bit dtype (estimator.Input.PureBF16),
// "-mixed" for autocast over fp32 weights, "32-true" for fp32; "" for a
// precision Lightning's names do not give as planned (fp8's Transformer
// Engine over fp32 master weights).
func (e *emitter) litgptPrecision() string {
	var dtype string
	switch e.in.Weights {
	case estimator.BF16:
		dtype = "bf16"
	case estimator.FP16:
		dtype = "16"
	case estimator.FP32:
		return "32-true"
	default:
		return ""
	}
	if e.in.PureBF16 {
		return dtype + "-true"
	}
	return dtype + "-mixed"
}

// litgpt writes launch.sh: litgpt download of the model's repository,
// then litgpt finetune_lora (LoRA and QLoRA, with --quantize) or
// finetune_full on the row's GPUs, with the plan's micro-batch, global
// batch, sequence, precision and adapters. LitGPT runs one layout
// (lora.py and full.py setup): one device with no activation
// checkpointing (strategy "auto"), or FSDPStrategy(auto_wrap_policy=
// {Block}, activation_checkpointing_policy={Block}, cpu_offload=False) —
// full shard, every Block recomputed, nothing offloaded — on more than
// one; QLoRA on one device only. A row laid out otherwise is refused.
func (e *emitter) litgpt() error {
	script, out := "finetune_lora", "out/finetune/lora"
	switch e.in.Task {
	case estimator.FullFinetune:
		script, out = "finetune_full", "out/finetune/full"
	case estimator.LoRA, estimator.QLoRA:
	default:
		return e.fail(ErrLitGPT, "LitGPT's launch here is a fine-tune (litgpt finetune_lora or finetune_full); the plan's task is "+e.in.Task.String())
	}
	if r := e.row; r.TP > 1 || r.PP > 1 || max(r.EP, e.in.EP) > 1 || e.in.CP > 1 {
		return e.fail(ErrLitGPT, "the plan splits the model (TP, PP, EP or CP); LitGPT's fine-tune scripts run data parallel only (FSDP over Blocks)")
	}
	s, err := e.train()
	if err != nil {
		return err
	}
	if e.in.Offload != estimator.OffloadNone {
		return e.fail(ErrLitGPT, "the plan offloads to the host; LitGPT's FSDPStrategy sets cpu_offload=False")
	}
	// The planner lays a LitGPT job's rows out as these scripts run them
	// (plan.Request.LitGPT, plan.StackLitGPT); a row planned otherwise
	// (a request without it) is refused, naming the --gpu and --gpus
	// that plan LitGPT's defaults for that GPU count.
	fixed := " (the row's layout); plan LitGPT's on this GPU with --gpu " + e.row.Offer.GPU + " --gpus " + itoa(s.world)
	if s.world > 1 {
		if e.in.Task == estimator.QLoRA {
			return e.fail(ErrLitGPT, "QLoRA on "+itoa(s.world)+" GPUs: LitGPT's lora.py refuses --quantize on more than one device (\"Quantization is currently not supported for multi-GPU training\"): plan with --gpu "+e.row.Offer.GPU+" --gpus 1, or --task lora")
		}
		if e.row.ZeRO != 3 {
			return e.fail(ErrLitGPT, "the plan shards at ZeRO-"+itoa(e.row.ZeRO)+" on "+itoa(s.world)+" GPUs"+fixed+
				": LitGPT shards fully on more than one GPU (FSDPStrategy's FULL_SHARD, every Block recomputed)")
		}
		if !e.in.GradCheckpointing {
			e.note("LitGPT recomputes every Block's activations under FSDP (activation_checkpointing_policy={Block}); the plan does not: the run needs less memory than planned and takes longer than the plan's time")
		}
	} else if e.in.GradCheckpointing {
		return e.fail(ErrLitGPT, "the plan recomputes activations on one GPU"+fixed+
			": LitGPT's scripts checkpoint activations only under FSDP on more than one GPU")
	}
	prec := e.litgptPrecision()
	if prec == "" {
		return e.fail(ErrLitGPT, "the plan trains in "+e.in.Weights.String()+", which LitGPT's --precision (bf16-true, bf16-mixed, 16-true, 16-mixed, 32-true) does not give as planned")
	}
	if e.in.Task == estimator.QLoRA && strings.HasSuffix(prec, "-mixed") {
		return e.fail(ErrLitGPT, "QLoRA in "+prec+": LitGPT's lora.py refuses quantization with mixed precision (\"Quantization and mixed precision is not supported\"): plan with --precision bf16-true")
	}
	var lora [6]bool
	if e.in.Task != estimator.FullFinetune {
		var ok bool
		if lora, ok = litgptLoRA(e.in.LoRATargets); !ok {
			return e.fail(ErrLitGPT, "LitGPT's --lora_* flags have no adapter set "+e.in.LoRATargets.String())
		}
		// LitGPT builds its adapters with the model, inside
		// fabric.init_module(), in the dtype the precision builds it in:
		// the 16-bit one under bf16-true and 16-true, fp32 under the mixed
		// and 32-true names (litgpt/finetune/lora.py at 26857050); it has no
		// setting of their own, so a plan that counted other adapters
		// (--adapter-dtype, estimator.ResolveAdapterDType) is not what runs.
		want := estimator.FP32
		switch prec {
		case "bf16-true":
			want = estimator.BF16
		case "16-true":
			want = estimator.FP16
		}
		if got := estimator.ResolveAdapterDType(e.in); got != want {
			return e.fail(ErrLitGPT, "the plan's adapters are "+got.String()+", but LitGPT's lora.py builds them in "+want.String()+" under --precision "+prec+
				": plan with --adapter-dtype "+estimator.AdapterDTypeOf(want).String()+" (or auto), or launch with --emit fsdp or deepspeed")
		}
	}
	repo := litgptRepo(e.model)
	switch {
	case e.model == Placeholder:
		return e.fail(ErrLitGPTModel, "no model named: LitGPT fine-tunes a model of its config hub (litgpt download list names them)")
	case repo == "":
		return e.fail(ErrLitGPTModel, "LitGPT "+litgptRelease+"'s config hub has no "+e.model+" (litgpt download list names the repositories it takes): plan with --precision bf16 for a Trainer launch (deepspeed, fsdp)")
	}

	dl := &command{argv: []string{"litgpt", "download", repo}}
	c := &command{argv: []string{"litgpt", script, litgptCheckpoints + repo}}
	c.num("--devices", s.perNode)
	c.num("--num_nodes", s.nodes)
	c.flag("--precision", prec)
	if e.in.Task == estimator.QLoRA {
		// BitsandbytesPrecision's NF4, double-quantised only where the
		// plan says (estimator.QuantNF4, as the Trainer's
		// bnb_4bit_use_double_quant).
		q := "bnb.nf4"
		if e.in.Quant == estimator.QuantNF4 {
			q = "bnb.nf4-dq"
		}
		c.flag("--quantize", q)
	}
	// TrainArgs.batch_size(devices) = global_batch_size // devices, where
	// devices is the scripts' --devices, one instance's GPUs (fit() gets
	// setup's devices, not the world size): each rank accumulates
	// (global // devices) // micro micro-batches, so the step's global
	// batch is that over every instance.
	c.num("--train.global_batch_size", s.accum*s.micro*s.perNode)
	c.num("--train.micro_batch_size", s.micro)
	c.num("--train.max_seq_length", e.in.Seq)
	if n := e.maxSteps(s); n > 0 {
		// TrainArgs.max_steps ("Limits the number of optimizer steps to
		// run", litgpt/args.py): lora.py's and full.py's fit loop (v0.4.13, 0fb584787eb5) runs
		// while step_count < max_steps and the data set's epoch <
		// --train.epochs (5 by default in both setups), and sizes the
		// cosine schedule to the smaller (lr_max_steps).
		c.num("--train.max_steps", n)
		e.note("--train.max_steps " + itoa(n) + " is the plan's run: " + tokenCount(e.req.Workload.TrainTokens) + " tokens at " +
			plural(s.micro*s.accum*s.dp, "sequence") + " of up to " + itoa(s.seq) + " tokens a step; LitGPT stops sooner where the data set's --train.epochs (5 by default) end first, and a step of samples shorter than --train.max_seq_length takes less time than planned")
	}
	if s.nodes > 1 {
		e.note("LitGPT's --train.global_batch_size counts one instance's GPUs (TrainArgs.batch_size(devices) with --devices): a step takes --num_nodes times as many sequences, the plan's global batch")
	}
	if e.in.Task != estimator.FullFinetune {
		c.num("--lora_r", e.in.LoRARank)
		c.num("--lora_alpha", litgptAlpha)
		c.frac("--lora_dropout", e.in.LoRADropout)
		for i, on := range lora {
			c.flag(litgptLoRAFlags[i], strconv.FormatBool(on))
		}
	}
	c.flag("--data", "Alpaca")
	c.flag("--out_dir", out)
	if n := e.saveSteps(); n > 0 {
		c.num("--train.save_interval", n)
		if e.in.Task == estimator.FullFinetune {
			// full.py's --resume auto: the latest step-* checkpoint in
			// out_dir, no error where there is none.
			c.flag("--resume", "auto")
			e.note("spot: finetune_full saves every --train.save_interval optimizer steps, the plan's checkpoint interval, and --resume auto restarts from the last save; keep --out_dir on storage that outlives a reclaimed instance")
		} else {
			e.note("spot: finetune_lora saves the adapters every --train.save_interval optimizer steps, the plan's checkpoint interval, but LitGPT " + litgptRelease + "'s lora.py has no --resume: a reclaimed run starts again from step 0")
		}
	}
	text := "#!/bin/sh\n" + e.header() +
		"# LitGPT " + litgptRelease + " (pip install 'litgpt[all]==" + litgptRelease + "'): the release whose fine-tune scripts the plan's defaults are read from\n"
	if s.nodes > 1 {
		// Fabric's LightningEnvironment (lightning/fabric/plugins/
		// environments/lightning.py) reads NODE_RANK and MASTER_ADDR,
		// and MASTER_PORT, which every instance must give alike (else
		// each picks a free port of its own), and spawns --devices
		// local ranks itself.
		c.setenv("MASTER_PORT", "29500", "")
		c.setenv("MASTER_ADDR", "", masterAddr)
		c.setenv("NODE_RANK", "", nodeRank)
		text += "# on each of the " + itoa(s.nodes) + " instances: NODE_RANK 0.." + itoa(s.nodes-1) + ", MASTER_ADDR the first one's address\n" + nodeGuards(s.nodes, c.String())
	}
	e.file("launch.sh", "sh", text+dl.String()+"\n"+c.String()+"\n")
	e.note("litgpt download reads HF_TOKEN for a gated repository (Llama's, Gemma's): export a token with access to it first")
	e.note("--data Alpaca is LitGPT's default data set; for your own give --data JSON --data.json_path FILE. LitGPT pads each batch to its longest sample, cut at --train.max_seq_length (the plan's sequence): the plan's peak is a batch that reaches it")
	if e.in.Task != estimator.FullFinetune {
		e.note("--lora_alpha is lora.py's default: it scales the adapters' update and sizes no memory")
	}
	return nil
}
