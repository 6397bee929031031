package plan_test

import (
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestAssumedRunLength: a pre-training plan with no deadline holds the
// assumed run length (plan.DefaultPretrainDeadlineSeconds, 117 days).
// Llama 3.1 70B on 2T tokens: the cheapest pick was one 8 × B200
// instance for 3.8 years; it is now a fleet that finishes within 117
// days, and the result names the multi-year plan it passed over. On 15T
// tokens no fleet of at most 64 instances finishes in time: with that
// limit given, nothing is picked, and the result names the fastest plan
// and the GPUs the run length needs; with the default limit, the limit
// is raised to the fleet the run length needs. Fine-tunes and
// --deadline 0 assume nothing.
func TestAssumedRunLength(t *testing.T) {
	const dl = plan.DefaultPretrainDeadlineSeconds
	if dl != 117*86400 {
		t.Fatalf("assumed run length %d s, want BLOOM 176B's 117 days", dl)
	}
	req, offers := scaleOutRequest(t, "llama-3.1-70b", estimator.Pretrain, 2e12)
	req.Filters.NoDeadline = false
	res := mustPlan(t, req, offers, plan.Options{})
	a := res.AssumedDeadline
	if a == nil || res.Cheapest < 0 || a.Missed || a.Without == nil || a.MaxInstances != 64 {
		t.Fatalf("2T tokens: cheapest %d, assumed %+v; want a pick within the run length and the plan without it", res.Cheapest, a)
	}
	ch := &res.Rows[res.Cheapest]
	if ch.RankedSeconds > dl || ch.Instances < 2 {
		t.Errorf("2T tokens: cheapest %s ×%d takes %.0f h, past the assumed %d h", ch.Offer.ID, ch.Instances, ch.RankedSeconds/3600, dl/3600)
	}
	if w := a.Without; w.RankedSeconds < 3*365*86400 || w.RankedCostDisp >= ch.RankedCostDisp || w.Instances != 1 {
		t.Errorf("2T tokens: without the run length %s ×%d, %.0f h at %.2f; want the one-instance run of years, cheaper than the pick's %.2f",
			w.Offer.ID, w.Instances, w.RankedSeconds/3600, w.RankedCostDisp, ch.RankedCostDisp)
	}
	// --deadline 0: the plan without it.
	none := req
	none.Filters.NoDeadline = true
	free := mustPlan(t, none, offers, plan.Options{})
	if free.AssumedDeadline != nil || free.Cheapest < 0 || free.Rows[free.Cheapest].Offer.ID != a.Without.Offer.ID ||
		free.Rows[free.Cheapest].RankedCostDisp != a.Without.RankedCostDisp {
		t.Errorf("no deadline: cheapest %d, assumed %+v; want %s, the plan the run length passed over", free.Cheapest, free.AssumedDeadline, a.Without.Offer.ID)
	}

	// 15T tokens: no plan of at most 64 instances finishes within the
	// run length. A --max-instances of 64 the user gave holds: nothing is
	// picked, and the result names the fastest plan and the GPUs the run
	// length needs.
	req.Workload.TrainTokens = 15e12
	res = mustPlan(t, req, offers, plan.Options{MaxInstances: 64})
	a = res.AssumedDeadline
	if a == nil || !a.Missed || res.Cheapest >= 0 || res.PastDeadline == 0 || a.Without == nil || a.RaisedMaxInstances != 0 {
		t.Fatalf("15T tokens within 64 instances: cheapest %d, assumed %+v; want none, missed, with the fastest plan", res.Cheapest, a)
	}
	if f := a.Without; f.Instances != 64 || a.GPUs <= int(f.GPUs) || float64(a.GPUs)*dl/3600 < f.GPUHours {
		t.Errorf("15T tokens: fastest %s ×%d (%v GPUs), %d GPUs needed for %.0f GPU-hours", f.Offer.ID, f.Instances, f.GPUs, a.GPUs, f.GPUHours)
	}
	// The default limit is an assumption too, and is raised to the fleet
	// the run length needs: the fastest plan, 64 × 8 B300, takes 3,793 h
	// (158 days); 117 days need at least 692 of its GPUs, 87 instances;
	// twice that, 174, to the next power of two: 256.
	res = mustPlan(t, req, offers, plan.Options{})
	a = res.AssumedDeadline
	if a == nil || a.Missed || res.Cheapest < 0 || a.MaxInstances != 64 || a.RaisedMaxInstances != 256 || a.Without == nil {
		t.Fatalf("15T tokens: cheapest %d, assumed %+v; want a pick within 256 instances", res.Cheapest, a)
	}
	if ch := &res.Rows[res.Cheapest]; ch.RankedSeconds > dl || ch.Instances <= 64 || ch.Instances > 256 {
		t.Errorf("15T tokens: cheapest %s ×%d takes %.0f h; want more than 64 instances within %d h", ch.Offer.ID, ch.Instances, ch.RankedSeconds/3600, dl/3600)
	}
	if w := a.Without; w.RankedSeconds < 3*365*86400 {
		t.Errorf("15T tokens: without the run length %s ×%d, %.0f h; want the plan of years", w.Offer.ID, w.Instances, w.RankedSeconds/3600)
	}

	// On H100s only, 70B on 1T tokens: the cheapest plan, 48 instances
	// for 861 h, already finishes within the run length, and is kept (the
	// deadline's growth from the fewest instances found a plan 1.3× as
	// dear).
	req.Workload.TrainTokens = 1e12
	req.Filters.GPU = "h100-sxm"
	res = mustPlan(t, req, offers, plan.Options{})
	none = req
	none.Filters.NoDeadline = true
	free = mustPlan(t, none, offers, plan.Options{})
	if a := res.AssumedDeadline; a == nil || a.Without != nil || a.Missed || res.Cheapest < 0 || free.Cheapest < 0 ||
		res.Rows[res.Cheapest].Offer.ID != free.Rows[free.Cheapest].Offer.ID || res.Rows[res.Cheapest].RankedCostDisp != free.Rows[free.Cheapest].RankedCostDisp {
		t.Errorf("1T tokens on H100s: assumed %+v, cheapest %d; want the plan without a deadline, %d", a, res.Cheapest, free.Cheapest)
	}

	for _, task := range []estimator.Task{estimator.FullFinetune, estimator.LoRA} {
		req, offers := scaleOutRequest(t, "llama-3.1-8b", task, 1e8)
		req.Filters.NoDeadline = false
		if res := mustPlan(t, req, offers, plan.Options{}); res.AssumedDeadline != nil {
			t.Errorf("%v: assumed a run length %+v", task, res.AssumedDeadline)
		}
	}
}
