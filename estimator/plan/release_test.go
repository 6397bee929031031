package plan_test

import (
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestNoCurrentVLLMOnAV100: serving on vLLM's current release, every V100
// offer is refused with the release that dropped Volta (a row the table of
// what runs where refuses is never priced as a plan), and a batch job
// there runs on HF transformers instead (plan.AutoEngine); the same
// serving job for vLLM 0.19.1 plans V100s that hold the model.
func TestNoCurrentVLLMOnAV100(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Engine = estimator.VLLM
	req.Workload = plan.Workload{Kind: plan.Serving, RequestsPerSecond: 1, TTFTP95Seconds: 5, TPOTSeconds: 0.2}
	req.Filters.GPU = "v100-32gb"
	res, err := plan.Plan(req, offers, plan.Options{KeepUnfit: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cheapest >= 0 || len(res.Rows) == 0 {
		t.Fatalf("current vLLM on V100s: cheapest %d of %d rows", res.Cheapest, len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Fits || r.FitReason.Key != plan.MsgFitEngineRelease {
			t.Errorf("%s: fits %v, %q", r.Offer.ID, r.Fits, r.FitReason.String())
		}
	}
	if got, want := res.Rows[0].FitReason.String(), "vllm 0.33.0 does not run on Volta GPUs: its releases from 0.20.0 are built without their kernels (an earlier release runs there)"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	if e, _ := plan.AutoEngine(req.Input, plan.Batch, estimator.GenVolta); e != estimator.HF {
		t.Errorf("a batch job on a V100 runs on %v, want hf", e)
	}
	req.Input.EngineVersion = estimator.EngineVersion{Major: 0, Minor: 19, Patch: 1}
	if res, err := plan.Plan(req, offers, plan.Options{}); err != nil || res.Cheapest < 0 {
		t.Errorf("vLLM 0.19.1 on V100s: cheapest %d (%v)", res.Cheapest, err)
	}
}
