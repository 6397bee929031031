package plan_test

import (
	"math"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestJobsPayTheirProviderBillingUnit: a batch job of a quarter hour
// (3,000 requests of Qwen2.5 1.5B on one L4, with its 600 s start-up)
// costs a full hour on an hourly-billed offer, whole minutes on a
// minute-billed one, whole seconds on a per-second one and its exact time
// where the source states no unit; so the hourly offer, the lowest
// price per hour, is the dearest plan, and the minute-billed one at 1.2×
// its price the cheapest. The JSON's and the page's job cost are this
// figure (Row.JobCostUSD, RankedCostDisp).
func TestJobsPayTheirProviderBillingUnit(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 3000, PromptTokens: 500, OutputTokens: 200}}
	l4 := gpuOffer(t, "l4", 1, estimator.BF16)
	offer := func(id, unit string, price float64) plan.Offer {
		o := l4
		o.ID, o.InstanceType, o.BillingGranularity, o.OnDemandPerHour = id, id, unit, price
		return o
	}
	hourly := offer("hourly", "hour", 1)
	hourly.SpotPerHour = 0.4
	res := mustPlan(t, req, []plan.Offer{hourly, offer("minutes", "minute", 1.2), offer("exact", "", 1.3),
		offer("seconds", "second", 1.5)}, plan.Options{})
	rows := map[string]*plan.Row{}
	for i := range res.Rows {
		rows[res.Rows[i].Offer.ID] = &res.Rows[i]
	}
	s := rows["hourly"].JobSeconds
	if !(s > 600 && s < 1200) {
		t.Fatalf("job of %v s: the test wants ten to twenty minutes", s)
	}
	want := map[string]float64{"hourly": 1, "minutes": 1.2 * math.Ceil(s/60) / 60, "exact": 1.3 * s / 3600, "seconds": 1.5 * math.Ceil(s) / 3600}
	for id, w := range want {
		if r := rows[id]; r == nil || r.JobSeconds != s || !closeTo(r.JobCostUSD, w) || !closeTo(r.RankedCostDisp, w) {
			t.Errorf("%s: want the job's %v s at %v USD", id, s, w)
			if r != nil {
				t.Logf("%s: %v s at %v USD (ranked %v)", id, r.JobSeconds, r.JobCostUSD, r.RankedCostDisp)
			}
		}
	}
	if ch := res.Rows[res.Cheapest].Offer.ID; ch != "minutes" || !(want["minutes"] < want["exact"]) {
		t.Errorf("cheapest %s, want the minute-billed offer at %.4g USD (exact %.4g, seconds %.4g, hourly 1)", ch, want["minutes"], want["exact"], want["seconds"])
	}
	// Spot: the expected time, reclaims and restarts included, is
	// billed as one run in whole hours.
	if r := rows["hourly"]; !(r.SpotExpectedSeconds >= s) || !closeTo(r.SpotExpectedCostUSD, 0.4*math.Ceil(r.SpotExpectedSeconds/3600)) {
		t.Errorf("spot: %v USD for %v s, want 0.4 USD per whole hour", r.SpotExpectedCostUSD, r.SpotExpectedSeconds)
	}
	if res.Rows[len(res.Rows)-1].Offer.ID != "hourly" {
		t.Errorf("the hourly offer, a full hour for %.0f s, is not the dearest plan", s)
	}
}

// TestBilledHours: each unit rounds up, a run of whole units stays whole,
// AWS's 60-second minimum holds, a month-only plan pays months on demand,
// a reservation's share and an unstated unit are the exact time, spot
// rounds as on demand.
func TestBilledHours(t *testing.T) {
	for _, c := range []struct {
		unit    string
		min     float64
		monthly bool
		pricing plan.Pricing
		seconds float64
		want    float64 // hours
	}{
		{"hour", 0, false, plan.OnDemand, 600, 1},
		{"hour", 0, false, plan.OnDemand, 7200, 2},
		{"hour", 0, false, plan.Spot, 3601, 2},
		{"minute", 0, false, plan.OnDemand, 61, 2.0 / 60},
		{"second", 60, false, plan.OnDemand, 12.5, 60.0 / 3600},
		{"second", 60, false, plan.OnDemand, 90.2, 91.0 / 3600},
		{"month", 0, false, plan.OnDemand, 3600, plan.HoursPerMonth},
		{"", 0, true, plan.OnDemand, 3600, plan.HoursPerMonth},
		{"hour", 0, false, plan.Reserved1y, 600, 600.0 / 3600},
		{"", 0, false, plan.OnDemand, 1234.5, 1234.5 / 3600},
		{"hour", 0, false, plan.OnDemand, 0, 0},
	} {
		o := plan.Offer{BillingGranularity: c.unit, BillingMinimumSeconds: c.min, OnDemandPerHour: 1}
		if c.monthly {
			o.OnDemandPerHour, o.MonthlyPrice = 0, 730
		}
		if got := plan.BilledHours(&o, c.pricing, c.seconds); !closeTo(got, c.want) {
			t.Errorf("%q (min %v, month-only %v) %v for %v s: %v h, want %v", c.unit, c.min, c.monthly, c.pricing, c.seconds, got, c.want)
		}
	}
}
