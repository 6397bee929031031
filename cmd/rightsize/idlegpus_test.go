package main

import (
	"strings"
	"testing"
)

// A training layout the user fixed on fewer GPUs than the cheapest
// instance holds (--gpus 2 on 8× A100 40GB): the plan bills all 8 and
// says 6 are idle, naming what the same job on all 8 takes and costs; the
// FSDP and DeepSpeed launches start 2 ranks (they refused "data-parallel
// degree 2 on 8 ranks") and say the rest are idle. On shadeform, whose
// cheapest A100 40GB listing holds 8 (GCP's a2-highgpu-2g rents the two).
func TestFixedLayoutOnBiggerInstance(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "lora", "--gpu", "a100-40gb", "--gpus", "2", "--zero", "3", "--provider", "shadeform"}
	code, out, errs := runPlanArgs(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const note = "note: cheapest (shadeform lambdalabs_A100x8): the layout given runs on 2 of the 8 GPUs rented; 6 idle, paid: the same job at DP 8 on all of them takes 15.4 h for 158.8 USD"
	if !strings.Contains(out, note+"\n") {
		t.Errorf("plan lacks %q:\n%s", note, out)
	}
	for _, c := range []struct{ emit, ranks string }{
		{"fsdp", "num_processes: 2\n"},
		{"deepspeed", "--nproc-per-node 2 "},
	} {
		code, out, errs := runPlanArgs(t, append(args, "--emit", c.emit)...)
		if code != 0 {
			t.Errorf("--emit %s: exit %d: %s", c.emit, code, errs)
			continue
		}
		const idle = "# note: the layout given runs on 2 of the 8 GPUs rented (GPUs 0..1); 6 idle, paid\n"
		if !strings.Contains(out, c.ranks) || !strings.Contains(out, idle) {
			t.Errorf("--emit %s: want %q and %q:\n%s", c.emit, c.ranks, idle, out)
		}
	}
}
