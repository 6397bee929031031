package launch_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestTrainRunLengthIsThePlans: a training launch stops after the run the
// plan priced, its training tokens over the launch's step, not after the
// launcher's default epochs (the Trainer's num_train_epochs of 3 over
// whatever data set it reads; LitGPT's --train.epochs of 5). Real plans:
// LoRA and pre-training through the Trainer launches (DeepSpeed, FSDP,
// SkyPilot) and LoRA and a full fine-tune through LitGPT's scripts on
// one GPU and on four. The step count is the plan's own (its
// OptimizerSteps) up to the launch's whole number of micro-batches.
func TestTrainRunLengthIsThePlans(t *testing.T) {
	type job struct {
		name   string
		model  string
		task   estimator.Task
		offer  string
		litgpt bool
		tokens float64
	}
	for _, c := range []job{
		{"trainer lora 8B", "llama-3.1-8b", estimator.LoRA, "aws-p5.48xlarge", false, 2e8},
		{"trainer pretrain 8B", "llama-3.1-8b", estimator.Pretrain, "aws-p5.48xlarge", false, 5e9},
		{"litgpt lora 8B", "llama-3-8b", estimator.LoRA, "aws-p5.4xlarge", true, 1e8},
		{"litgpt full 8B 4 GPUs", "llama-3-8b", estimator.FullFinetune, "gcp-a2-highgpu-4g", true, 1e8},
	} {
		var req plan.Request
		if c.litgpt {
			req = litgptJob(t, c.model, c.task)
			req.LitGPT = true
		} else {
			in := input(t, c.model)
			in.Task, in.GradCheckpointing = c.task, true
			req = plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, GlobalBatchTokens: 1 << 20}}
		}
		req.Workload.TrainTokens = c.tokens
		row := planOn(t, req, c.offer)
		kinds, tool, flag := []launch.Kind{launch.DeepSpeed, launch.FSDP, launch.SkyPilot}, "script", "--max_steps"
		if c.litgpt {
			kinds, tool, flag = []launch.Kind{launch.LitGPT}, "litgpt-finetune_lora", "--train.max_steps"
			if c.task == estimator.FullFinetune {
				tool = "litgpt-finetune_full"
			}
		}
		for _, k := range kinds {
			where := c.name + " " + k.String()
			l, err := launch.Emit(k, req, row, nil, c.model)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			text := l.Files[0].Text
			if k == launch.SkyPilot {
				text = parseYAML(t, text)["run"].(string)
			}
			got := flagInt(t, text, tool, flag)
			// The launch's step: sequences × the plan's sequence.
			var seqs int
			if c.litgpt {
				seqs = flagInt(t, text, tool, "--train.global_batch_size") * max(flagInt(t, text, tool, "--num_nodes"), 1)
			} else {
				seqs = flagInt(t, text, tool, "--per_device_train_batch_size") * flagInt(t, text, tool, "--gradient_accumulation_steps") * row.DP
			}
			want := int(math.Ceil(c.tokens / float64(seqs*req.Input.Seq)))
			if got != want || got <= 0 {
				t.Errorf("%s: %s %d, want %d (%g tokens at %d sequences of %d)", where, flag, got, want, c.tokens, seqs, req.Input.Seq)
			}
			if d := math.Abs(float64(got)-row.OptimizerSteps) / row.OptimizerSteps; d > 0.05 {
				t.Errorf("%s: %s %d, the plan's run is %.1f optimizer steps", where, flag, got, row.OptimizerSteps)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), flag+" "+strconv.Itoa(got)+" is the plan's run") {
				t.Errorf("%s: no note on the run length: %q", where, l.Notes)
			}
		}
	}
}

// TestTrainSequenceIsThePlans: a Trainer launch trains sequences of the
// plan's length. run_clm.py packs its text into blocks of --block_size
// tokens and, without the flag, of the tokenizer's model_max_length cut
// to at most 1,024 where that is past the model's positions: a LoRA
// fine-tune planned at 4,096 tokens trained blocks of 1,024, a quarter of
// the activations and step time planned. LitGPT's launch has carried the
// plan's --train.max_seq_length all along.
func TestTrainSequenceIsThePlans(t *testing.T) {
	for _, seq := range []int{512, 4096} {
		in := input(t, "llama-3.1-8b")
		in.Task, in.GradCheckpointing, in.Seq = estimator.LoRA, true, seq
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, GlobalBatchTokens: 1 << 20, TrainTokens: 2e8}}
		row := planOn(t, req, "aws-p5.48xlarge")
		for _, k := range []launch.Kind{launch.DeepSpeed, launch.FSDP, launch.SkyPilot} {
			where := strconv.Itoa(seq) + " " + k.String()
			l, err := launch.Emit(k, req, row, nil, "llama-3.1-8b")
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			text := l.Files[0].Text
			if k == launch.SkyPilot {
				text = parseYAML(t, text)["run"].(string)
			}
			if got := flagInt(t, text, "script", "--block_size"); got != seq {
				t.Errorf("%s: --block_size %d, want the plan's %d", where, got, seq)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), "--block_size "+strconv.Itoa(seq)+" is the plan's sequence") {
				t.Errorf("%s: no note on the sequence: %q", where, l.Notes)
			}
		}
	}
}
