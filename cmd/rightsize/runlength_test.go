package main

import (
	"strings"
	"testing"
)

// TestPlanRunLength: rightsize plan for a pre-train with no --deadline
// holds the assumed 117-day run length, says so above the table and
// names the multi-year plan it passed over under it; --deadline 0 plans
// without it, and a fine-tune assumes none.
func TestPlanRunLength(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--task", "train", "--train-tokens", "2T"}
	p := planJSONOf(t, args...)
	a := p.AssumedDeadline
	if p.DeadlineFrom != "default" || p.DeadlineSeconds != 117*86400 || !strings.Contains(p.DeadlineSource, "BLOOM 176B") || a == nil || a.Missed || a.Without == nil {
		t.Fatalf("deadline %v s from %q (%q), assumed %+v; want the assumed 117 days and the plan without them", p.DeadlineSeconds, p.DeadlineFrom, p.DeadlineSource, a)
	}
	cheap := cheapestRow(t, p)
	if cheap.JobHours > 117*24 || a.Without.Hours < 3*8766 || a.Without.CostDisp >= a.PickCostDisp || a.PickCostDisp != cheap.JobCostDisp {
		t.Errorf("cheapest %.0f h at %.2f; without the run length %.0f h at %.2f (pick %.2f)", cheap.JobHours, cheap.JobCostDisp, a.Without.Hours, a.Without.CostDisp, a.PickCostDisp)
	}
	_, out, _ := runPlanArgs(t, args...)
	for _, want := range []string{"run length: within 117 days, assumed for pre-training without --deadline", "run length: without it the cheapest plan is " + a.Without.Provider} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	none := planJSONOf(t, append(args, "--deadline", "0")...)
	if none.DeadlineSeconds != 0 || none.AssumedDeadline != nil || cheapestRow(t, none).JobHours < 3*8766 {
		t.Errorf("--deadline 0: deadline %v, assumed %+v, cheapest %.0f h; want none and the multi-year plan", none.DeadlineSeconds, none.AssumedDeadline, cheapestRow(t, none).JobHours)
	}

	missed := planJSONOf(t, "--model", "llama-3.1-70b", "--task", "train", "--train-tokens", "15T")
	if m := missed.AssumedDeadline; m == nil || !m.Missed || m.Without == nil || m.Without.Instances != m.MaxInstances || m.GPUs <= int(m.Without.GPUs) {
		t.Errorf("15T tokens: assumed %+v; want missed, with the fastest plan of 64 instances and the GPUs 117 days need", m)
	}

	for _, task := range []string{"finetune", "lora"} {
		if f := planJSONOf(t, "--model", "llama-3.1-8b", "--task", task, "--train-tokens", "100M"); f.DeadlineFrom != "" || f.AssumedDeadline != nil {
			t.Errorf("%s: deadline from %q, assumed %+v; want none", task, f.DeadlineFrom, f.AssumedDeadline)
		}
	}
}
