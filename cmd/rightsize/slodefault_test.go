package main

import (
	"strconv"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/estimator/plan"
)

// TestServingTargetsByDefault: a serving plan with no --ttft-p95 or
// --tpot holds the page's default targets (2 s, 100 ms at p95), so the
// CLI and the page plan the same job alike and no pick queues requests
// for tens of seconds: Gemma 3 27B on TensorRT-LLM at 5 req/s picked 13 ×
// A100 80GB at a p95 TTFT of 42.8 s without them (on a price its source
// left open, which the picks now pass over; at 8,000-token prompts the
// cheapest pick without targets still waits past 2 s). 0 still sets none.
func TestServingTargetsByDefault(t *testing.T) {
	ms := func(s float64) string { return strconv.FormatFloat(1000*s, 'g', -1, 64) }
	if d := page.DefaultState; d[page.FieldTTFT] != ms(plan.DefaultTTFTSeconds) || d[page.FieldTPOT] != ms(plan.DefaultTPOTSeconds) {
		t.Errorf("page defaults %s/%s ms, planner's %v/%v s", d[page.FieldTTFT], d[page.FieldTPOT], plan.DefaultTTFTSeconds, plan.DefaultTPOTSeconds)
	}
	args := []string{"--model", "gemma-3-27b", "--engine", "trtllm", "--requests-per-second", "5", "--prompt-tokens", "8000"}
	p := planJSONOf(t, args...)
	if p.TTFTTargetSeconds != 2 || p.TPOTTargetSeconds != 0.1 || p.SLOStat != "p95" {
		t.Fatalf("targets %v s, %v s at %s; want 2, 0.1 at p95", p.TTFTTargetSeconds, p.TPOTTargetSeconds, p.SLOStat)
	}
	for _, r := range p.Rows {
		if r.Recommendation != "none" && r.Recommendation != "" && (r.TTFTAtSLOSeconds > 2 || r.TTFTAtSLOSeconds <= 0) {
			t.Errorf("%s %s: p95 TTFT %v s under a 2 s target", r.Recommendation, r.InstanceType, r.TTFTAtSLOSeconds)
		}
	}
	none := planJSONOf(t, append(args, "--ttft-p95", "0", "--tpot", "0")...)
	if none.TTFTTargetSeconds != 0 || none.TPOTTargetSeconds != 0 {
		t.Errorf("--ttft-p95 0 --tpot 0: targets %v, %v; want none", none.TTFTTargetSeconds, none.TPOTTargetSeconds)
	}
	cheapest := func(p planJSON) planRowJSON {
		for _, r := range p.Rows {
			if r.Recommendation == "cheapest" {
				return r
			}
		}
		t.Fatal("no cheapest pick")
		return planRowJSON{}
	}
	if c := cheapest(none); !(c.TTFTAtSLOSeconds > plan.DefaultTTFTSeconds) {
		t.Errorf("without targets the cheapest pick, %s, waits %v s at p95: the case above no longer shows the defaults' use", c.InstanceType, c.TTFTAtSLOSeconds)
	}
}

// TestTrainingTaskTrainsTheDefaultTokens: a plan for a training --task
// with no workload flag trains --train-tokens' default (1B), as the page
// plans its training job, and says so in a note; it refused with "need a
// workload". A task that is not training still needs one.
func TestTrainingTaskTrainsTheDefaultTokens(t *testing.T) {
	got := planJSONOf(t, "--model", "llama-3.1-8b", "--task", "lora")
	want := planJSONOf(t, "--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "1B")
	if got.Workload != "training" || len(got.Rows) == 0 || len(got.Rows) != len(want.Rows) || got.Rows[0].OnDemandJobCostUSD != want.Rows[0].OnDemandJobCostUSD {
		t.Fatalf("without --train-tokens: %s, %d rows; with 1B: %d rows", got.Workload, len(got.Rows), len(want.Rows))
	}
	noted := false
	for _, n := range got.Notes {
		noted = noted || strings.Contains(n, "1B training tokens, --train-tokens' default")
	}
	if !noted || len(got.Notes) != len(want.Notes)+1 {
		t.Errorf("notes %q, want the default named once more than %q", got.Notes, want.Notes)
	}
	if code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--task", "inference"); code == 0 || !strings.Contains(errs, "need a workload") {
		t.Errorf("inference with no workload: exit %d, %q", code, errs)
	}
}
