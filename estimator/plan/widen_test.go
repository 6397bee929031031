package plan_test

import (
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestWiden: no Russian provider prices an H100, so a Russian H100 plan
// is empty; Widen drops the GPU and answers with what Russian providers
// do price, still Russian.
func TestWiden(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Task, req.Input.Seq = estimator.LoRA, 1024
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e8}
	req.Filters.Countries, req.Filters.GPU = []string{"RU"}, "h100-sxm"
	if res := mustPlan(t, req, offers, plan.Options{}); res.Cheapest >= 0 {
		t.Fatalf("a Russian H100 plan: %s", res.Rows[res.Cheapest].Offer.ID)
	}
	res, dropped, ok := plan.Widen(req, offers, plan.Options{})
	if !ok || dropped != "gpu" {
		t.Fatalf("Widen: %v %q", ok, dropped)
	}
	if o := res.Rows[res.Cheapest].Offer; o.Country != "RU" || o.GPU == "h100-sxm" {
		t.Fatalf("widened pick %s (%s, %s)", o.ID, o.Country, o.GPU)
	}
	req.Filters = plan.Filters{}
	if _, _, ok := plan.Widen(req, offers, plan.Options{}); ok {
		t.Error("Widen without filters")
	}
}
