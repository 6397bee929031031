package main

import (
	"strings"
	"testing"
)

// TestPureBF16Emit: --pure-bf16 plans 16-bit weights and optimizer
// states with no fp32 master copy, and the launches run that: FSDP loads
// the model in bf16 under accelerate's mixed_precision "no" (its bf16
// mixed precision upcasts the parameters to fp32); DeepSpeed keeps bf16
// master weights and optimizer states at ZeRO 1–3; SkyPilot's one-GPU
// pick runs at ZeRO-0 with no DeepSpeed mixed precision. Before, each
// wrote bf16 autocast over fp32 weights. (Its Lightning name, --precision
// bf16-true, plans LitGPT's scripts, which --emit litgpt launches:
// TestLitGPTJobLaunchesAsPlanned.)
func TestPureBF16Emit(t *testing.T) {
	base := []string{"--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "h100-sxm", "--zero", "3", "--dataset-tokens", "50M", "--provider", "aws"}
	for _, flag := range [][]string{{"--pure-bf16"}} {
		for _, c := range []struct {
			emit       []string
			want, dont []string
		}{
			{[]string{"--emit", "fsdp"}, []string{`mixed_precision: "no"`, "--dtype bfloat16"}, []string{"--bf16", `mixed_precision: "bf16"`}},
			{[]string{"--emit", "deepspeed", "--emit-pick", "fastest"},
				[]string{`"bf16_master_weights_and_grads": true`, `"bf16_optimizer_states": true`, "--bf16 true", "--dtype bfloat16"}, nil},
			{[]string{"--emit", "skypilot", "--emit-pick", "fastest"},
				[]string{`"bf16_master_weights_and_grads": true`, `"bf16_optimizer_states": true`, "--dtype bfloat16"}, nil},
			{[]string{"--emit", "skypilot"}, []string{`"stage": 0`, "--dtype bfloat16"}, []string{`"bf16"`, "--bf16"}},
		} {
			args := append(append(append([]string{}, base...), flag...), c.emit...)
			code, out, errs := runPlanArgs(t, args...)
			where := strings.Join(flag, " ") + " " + strings.Join(c.emit, " ")
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", where, code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: want %q in\n%s", where, w, out)
				}
			}
			for _, w := range c.dont {
				if strings.Contains(out, w) {
					t.Errorf("%s: %q in\n%s", where, w, out)
				}
			}
		}
	}
}
