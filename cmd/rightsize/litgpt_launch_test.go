package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestLitGPTJobLaunchesAsPlanned: a fine-tune named by a Lightning
// precision, planned with LitGPT's scripts and defaults, hands over the
// LitGPT command those were read from, with the row's figures: GPUs a
// node and nodes (the row's data-parallel ranks), micro-batch, the step's
// sequences (the plan's tokens a step), sequence, precision, LoRA rank 8
// and QLoRA's 4-bit base; on one GPU and under LitGPT's FSDP on four.
func TestLitGPTJobLaunchesAsPlanned(t *testing.T) {
	base := []string{"--model", "llama-3-8b", "--precision", "bf16-true", "--seq", "2048", "--train-tokens", "1B", "--gpu", "h100-sxm"}
	for _, c := range []struct {
		task, gpus, script string
	}{
		{"lora", "1", "finetune_lora"}, {"lora", "4", "finetune_lora"}, {"qlora", "1", "finetune_lora"},
		{"finetune", "1", "finetune_full"}, {"finetune", "4", "finetune_full"},
	} {
		args := append(append([]string{}, base...), "--task", c.task, "--gpus", c.gpus)
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
// name. A pick whose layout LitGPT does not run (a plan over every GPU
// lays rows out as a rented fleet would) says which --gpu and --gpus to
// plan, and that plan launches.
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
	args := append(append([]string{}, job...), "--precision", "bf16-true")
	code, _, errs := runPlanArgs(t, append(args, "--emit", "litgpt")...)
	if code == 0 {
		return // the cheapest rented layout is LitGPT's own
	}
	m := regexp.MustCompile(`--gpu (\S+) --gpus (\d+)`).FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("refused without a layout to plan: %s", errs)
	}
	if code, out, errs := runPlanArgs(t, append(args, "--gpu", m[1], "--gpus", m[2], "--emit", "litgpt")...); code != 0 || !strings.Contains(out, "--devices "+m[2]+" ") {
		t.Errorf("the layout the refusal names (--gpu %s --gpus %s): exit %d, %s\n%s", m[1], m[2], code, errs, out)
	}
}
