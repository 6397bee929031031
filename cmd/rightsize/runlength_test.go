package main

import (
	"strings"
	"testing"
)

// TestPlanRunLength: rightsize plan for a pre-train with no --deadline
// holds the assumed 117-day run length, says so above the table and
// names the multi-year plan it passed over under it; where no plan within
// the default 64 instances meets it, the limit is raised and the plan
// says so, but a --max-instances given is held; --deadline 0 plans
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

	// 15T tokens: no plan of at most 64 instances finishes within 117
	// days. The default limit is raised to the fleet the run length
	// needs, twice it to the next power of two: 256 (512 when the
	// fastest of 64 instances was 8 × MI300X, before Nebius's and GCP's
	// B200 prices of July 2026 or later counted as fresh). The pick is
	// 256 × 8 B200 on Nebius for 2,075 h (86 days).
	big := []string{"--model", "llama-3.1-70b", "--task", "train", "--train-tokens", "15T"}
	raised := planJSONOf(t, big...)
	if r := raised.AssumedDeadline; r == nil || r.Missed || r.MaxInstances != 64 || r.RaisedMaxInstances != 256 {
		t.Fatalf("15T tokens: assumed %+v; want the limit of 64 raised to 256", r)
	}
	if c := cheapestRow(t, raised); c.JobHours > 117*24 || c.Instances <= 64 || c.Instances > 256 {
		t.Errorf("15T tokens: cheapest %d instances for %.0f h; want more than 64 within 117 days", c.Instances, c.JobHours)
	}
	if _, out, _ := runPlanArgs(t, big...); !strings.Contains(out, "run length: the instance limit, 64 by default, is raised to 256 for the run length; --max-instances sets yours") {
		t.Errorf("15T tokens: table lacks the raised limit:\n%s", out)
	}
	// A limit the user gives is never raised.
	missed := planJSONOf(t, append(big, "--max-instances", "64")...)
	if m := missed.AssumedDeadline; m == nil || !m.Missed || m.RaisedMaxInstances != 0 || m.Without == nil || m.Without.Instances != m.MaxInstances || m.GPUs <= int(m.Without.GPUs) || missed.Fitting != 0 {
		t.Errorf("--max-instances 64: %d fit, assumed %+v; want none, missed, with the fastest plan of 64 instances and the GPUs 117 days need", missed.Fitting, m)
	}
	if _, out, _ := runPlanArgs(t, append(big, "--max-instances", "64")...); !strings.Contains(out, "run length: no plan of at most 64 instances finishes within 117 days") || strings.Contains(out, "is raised to") {
		t.Errorf("--max-instances 64: table lacks the missed run length, or raises the limit:\n%s", out)
	}

	// A run past what --max-instances takes: the note says so instead of
	// naming a value the flag refuses (405B on 300T tokens: about 10,800
	// instances of 8 B300 against the flag's 8,192).
	if _, out, _ := runPlanArgs(t, "--model", "llama-3.1-405b", "--task", "train", "--train-tokens", "300T"); !strings.Contains(out, "that is more instances than --max-instances takes (8192)") || strings.Contains(out, "--max-instances 10") {
		t.Errorf("405B on 300T tokens: the note names a limit the flag refuses, or not the flag's own:\n%s", out)
	}

	for _, task := range []string{"finetune", "lora"} {
		if f := planJSONOf(t, "--model", "llama-3.1-8b", "--task", task, "--train-tokens", "100M"); f.DeadlineFrom != "" || f.AssumedDeadline != nil {
			t.Errorf("%s: deadline from %q, assumed %+v; want none", task, f.DeadlineFrom, f.AssumedDeadline)
		}
	}
}
