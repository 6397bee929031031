package main

import (
	"slices"
	"strings"
	"testing"
)

// TestLitGPTJobLaunchesAsPlanned: a fine-tune named by a Lightning
// precision, planned with LitGPT's scripts and defaults, hands over the
// LitGPT command those were read from, with the row's figures: GPUs a
// node and nodes (the row's data-parallel ranks), micro-batch, the step's
// sequences (the plan's tokens a step), sequence, precision, LoRA rank 8
// and QLoRA's 4-bit base; on one GPU and under LitGPT's FSDP on four.
// The full fine-tune on one GPU runs on an H200: at full.py's foreach
// AdamW step its bf16 weights, gradients, states and the step's temporary
// (10 bytes a parameter) with the held logits need 79.3 GiB, over an
// H100's usable 79.2.
func TestLitGPTJobLaunchesAsPlanned(t *testing.T) {
	base := []string{"--model", "llama-3-8b", "--precision", "bf16-true", "--seq", "2048", "--train-tokens", "1B"}
	for _, c := range []struct {
		task, gpus, script, gpu string
	}{
		{"lora", "1", "finetune_lora", "h100-sxm"}, {"lora", "4", "finetune_lora", "h100-sxm"}, {"qlora", "1", "finetune_lora", "h100-sxm"},
		{"finetune", "1", "finetune_full", "h200-141gb"}, {"finetune", "4", "finetune_full", "h100-sxm"},
	} {
		args := append(append([]string{}, base...), "--gpu", c.gpu, "--task", c.task, "--gpus", c.gpus)
		p := planJSONOf(t, args...)
		for _, pick := range emitPicks[:3] {
			r, ok := picksOf(t, p)[pick]
			if !ok {
				continue
			}
			where := c.task + " on " + c.gpus + " GPUs, " + pick
			code, out, errs := runPlanArgs(t, append(args, "--emit", "litgpt", "--emit-pick", pick)...)
			if code != 0 {
				t.Errorf("%s: exit %d: %s", where, code, errs)
				continue
			}
			script := launchFiles(out)[""]
			if !strings.Contains(script, "\nlitgpt download meta-llama/Meta-Llama-3-8B\n") || !strings.Contains(script, "litgpt "+c.script+" checkpoints/meta-llama/Meta-Llama-3-8B") {
				t.Errorf("%s: not LitGPT's %s of the model:\n%s", where, c.script, script)
			}
			par := r.Parallelism
			devices, nodes := flagNum(t, script, "--devices", -1), flagNum(t, script, "--num_nodes", -1)
			micro, global := flagNum(t, script, "--train.micro_batch_size", -1), flagNum(t, script, "--train.global_batch_size", -1)
			if nodes != r.Instances || devices*nodes != par.DP {
				t.Errorf("%s: --devices %d --num_nodes %d, the row's DP %d on %d instances", where, devices, nodes, par.DP, r.Instances)
			}
			if micro != 1 {
				t.Errorf("%s: micro-batch %d, the plan's 1", where, micro)
			}
			// lora.py's global batch counts one node's GPUs.
			if step := float64(global*nodes) * 2048; !near(step, 1e9/r.OptimizerSteps) {
				t.Errorf("%s: %d sequences × %d nodes a step = %v tokens; the plan's %v", where, global, nodes, step, 1e9/r.OptimizerSteps)
			}
			if got := flagNum(t, script, "--train.max_seq_length", -1); got != 2048 {
				t.Errorf("%s: sequence %d", where, got)
			}
			if par.DP > 1 && (par.ZeRO != 3 || !par.GradCheckpointing) {
				t.Errorf("%s: the row is ZeRO-%d, recompute %v: not LitGPT's FSDP, yet launched", where, par.ZeRO, par.GradCheckpointing)
			}
			want := map[string]string{"lora": "--precision bf16-true", "qlora": "--quantize bnb.nf4", "finetune": "--precision bf16-true"}[c.task]
			if !strings.Contains(script, want) {
				t.Errorf("%s: no %q", where, want)
			}
			if rank := flagNum(t, script, "--lora_r", -1); c.task != "finetune" && rank != 8 {
				t.Errorf("%s: --lora_r %d, LitGPT's default the plan took is 8", where, rank)
			}
		}
	}
}

// TestLitGPTJobOneStory: the launch of a Lightning-named fine-tune is
// LitGPT's, and LitGPT's only such a job's: --emit fsdp on it points to
// --emit litgpt, --emit litgpt on a Trainer (bf16) job to the Lightning
// name.
func TestLitGPTJobOneStory(t *testing.T) {
	job := []string{"--model", "llama-3-8b", "--task", "lora", "--seq", "2048", "--train-tokens", "1B"}
	for _, c := range []struct {
		precision, emit, says string
	}{
		{"bf16-true", "fsdp", "use litgpt"}, {"bf16-true", "deepspeed", "use litgpt"}, {"bf16-true", "skypilot", "use litgpt"},
		{"bf16", "litgpt", "--precision bf16-true"},
	} {
		code, _, errs := runPlanArgs(t, append(append([]string{}, job...), "--precision", c.precision, "--gpu", "h100-sxm", "--gpus", "4", "--emit", c.emit)...)
		if code == 0 || !strings.Contains(errs, "--emit "+c.emit+": ") || !strings.Contains(errs, c.says) {
			t.Errorf("--precision %s --emit %s: exit %d, %q; want a refusal saying %q", c.precision, c.emit, code, errs, c.says)
		}
	}
}

// TestLitGPTPlanOverEveryGPULaunches: a plan over every GPU of a
// Lightning-named fine-tune lays each rented row out as LitGPT's scripts
// run it (one GPU as the job is, or FSDP full shard with every Block
// recomputed, nothing offloaded), so every pick launches with --emit
// litgpt, and the notes name that launch, not the Trainer's. A QLoRA
// job's picks are one GPU each: lora.py refuses --quantize on more, and
// instances of more GPUs say so.
func TestLitGPTPlanOverEveryGPULaunches(t *testing.T) {
	for _, task := range []string{"lora", "qlora", "finetune"} {
		args := []string{"--model", "llama-3.1-8b", "--task", task, "--precision", "bf16-true", "--dataset-tokens", "100M"}
		p := planJSONOf(t, append(args, "--all")...)
		refused := false
		for _, r := range p.Rows {
			if r.WhyKey == "fit.litgpt_qlora" {
				refused = true
				if task != "qlora" || r.Fits || r.GPUsPerInstance <= 1 {
					t.Errorf("%s: %s %s (%v GPUs an instance, fits %v) refused as multi-GPU QLoRA", task, r.Provider, r.InstanceType, r.GPUsPerInstance, r.Fits)
				}
			}
			if !r.Fits {
				continue
			}
			par, where := r.Parallelism, task+": "+r.Provider+" "+r.InstanceType
			gpus := par.DP * par.TP * par.PP
			switch {
			case par.TP != 1 || par.PP != 1 || par.ContextParallel > 1 || par.Offload != "none":
				t.Errorf("%s: TP %d PP %d CP %d offload %s: not a layout LitGPT runs", where, par.TP, par.PP, par.ContextParallel, par.Offload)
			case gpus == 1 && par.GradCheckpointing:
				t.Errorf("%s: one GPU with checkpointing: LitGPT checkpoints only under FSDP", where)
			case gpus > 1 && (par.ZeRO != 3 || !par.GradCheckpointing):
				t.Errorf("%s: %d GPUs at ZeRO-%d, checkpointing %v: not LitGPT's FSDP", where, gpus, par.ZeRO, par.GradCheckpointing)
			case task == "qlora" && gpus != 1:
				t.Errorf("%s: QLoRA on %d GPUs", where, gpus)
			}
			for _, n := range r.Notes {
				if strings.Contains(n, "--emit fsdp") || strings.Contains(n, "--emit deepspeed") {
					t.Errorf("%s: a note sends the job to the Trainer's launch: %s", where, n)
				}
			}
			if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "--emit litgpt writes its launch") }) {
				t.Errorf("%s: no note names --emit litgpt: %q", where, r.Notes)
			}
		}
		if task == "qlora" && !refused {
			t.Errorf("qlora: no instance of more than one GPU says LitGPT runs QLoRA on one")
		}
		for _, pick := range emitPicks[:3] {
			r := picksOf(t, p)[pick]
			code, out, errs := runPlanArgs(t, append(append([]string{}, args...), "--emit", "litgpt", "--emit-pick", pick)...)
			if code != 0 {
				t.Errorf("%s, %s pick (%s %s): exit %d: %s", task, pick, r.Provider, r.InstanceType, code, errs)
				continue
			}
			devices, nodes := flagNum(t, out, "--devices", -1), flagNum(t, out, "--num_nodes", -1)
			if devices*nodes != r.Parallelism.DP || nodes != r.Instances {
				t.Errorf("%s, %s pick: --devices %d --num_nodes %d for DP %d on %d instances", task, pick, devices, nodes, r.Parallelism.DP, r.Instances)
			}
		}
	}
}

// TestLitGPTLayoutGivenRefused: a layout given that LitGPT's scripts do
// not run is the cause of an empty plan, with what to change, not a
// launch refused after the plan.
func TestLitGPTLayoutGivenRefused(t *testing.T) {
	base := []string{"--model", "llama-3.1-8b", "--precision", "bf16-true", "--dataset-tokens", "100M", "--gpu", "h100-sxm"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "qlora", "--gpus", "2"}, "nothing fits with --gpu as given: LitGPT's lora.py runs QLoRA on one GPU only"},
		{[]string{"--task", "lora", "--gpus", "4", "--zero", "2"}, "nothing fits with --gpu as given: LitGPT's fine-tune scripts run one GPU as the job is, or on more FSDP full shard (ZeRO-3)"},
	} {
		_, out, errs := runPlanArgs(t, append(append([]string{}, base...), c.args...)...)
		if !strings.Contains(out+errs, c.want) {
			t.Errorf("%v: want %q in\n%s%s", c.args, c.want, out, errs)
		}
	}
}
