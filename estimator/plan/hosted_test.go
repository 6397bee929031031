package plan_test

import (
	"math"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// When no offer can serve the job, each hosted API keeps its bill at the
// target rate and says that nothing self-hosted fits, where it was set
// against a self-hosted bill of 0 with no sentence.
func TestHostedWhenNothingFits(t *testing.T) {
	req, _ := servingRequest(t)
	req.Workload.TTFTP95Seconds = 0.001 // below any prefill of 500 tokens
	req.HostedAPIs = []plan.HostedAPI{{ID: "api", InputUSDPerMillion: 0.2, OutputUSDPerMillion: 0.6}}
	res := mustPlan(t, req, []plan.Offer{gpuOffer(t, "l40s", 1, estimator.BF16)}, plan.Options{})
	if res.Fitting != 0 || len(res.Hosted) != 1 {
		t.Fatalf("%d fit, %d hosted", res.Fitting, len(res.Hosted))
	}
	h := res.Hosted[0]
	want := 20 * 730 * 3600 * (500*0.2 + 200*0.6) / 1e6
	if !closeTo(h.MonthlyCostUSD, want) || h.SelfHostedUSD != 0 || h.BreakEvenRPS != 0 || h.Why.Key != "hosted.no_fit" ||
		h.Why.String() != "no self-hosted plan fits the job to compare with api" {
		t.Errorf("%+v (%q), want %.2f USD/month and hosted.no_fit", h, h.Why, want)
	}
}

// Over a daily load curve the hosted APIs bill the day's tokens, not the
// peak's around the clock, and stand against the cheapest rented fleet
// of the same day (the single offers' best mixes of price models, and
// the mixed fleet), where they were set against the peak plan's month.
func TestHostedOverLoadCurve(t *testing.T) {
	req, offers := servingRequest(t)
	req.HostedAPIs = []plan.HostedAPI{{ID: "cheap", InputUSDPerMillion: 0.01, OutputUSDPerMillion: 0.02},
		{ID: "dear", InputUSDPerMillion: 3, OutputUSDPerMillion: 15}}
	for _, fo := range []plan.FleetOptions{{Curve: chatCurve, Rows: 4}, {Curve: chatCurve, Buckets: chatMix, Mix: true, Rows: 3}} {
		res, err := plan.PlanFleet(req, offers, plan.Options{}, fo)
		if err != nil {
			t.Fatal(err)
		}
		// The day's requests: Σ λ_h × 3,600 s = 1,004,400 (chatCurve sums
		// to 279 req/s·h), × 730/24 a month.
		month := 279 * 3600 * 730 / 24.0
		prompt, output := 500.0, 200.0
		if len(fo.Buckets) > 0 {
			// 0.6 × 200 + 0.3 × 1,500 + 0.1 × 6,000 and 0.6 × 150 + 0.3 × 300 + 0.1 × 200.
			prompt, output = 1170, 200
		}
		self := math.Inf(1)
		for _, fr := range res.Rows {
			if fr.Sized && fr.Plan.Best.Priced {
				self = math.Min(self, fr.Plan.Best.MonthlyUSD)
			}
		}
		if m := res.Mix; m != nil {
			self = math.Min(self, math.Min(m.Single.Plan.Best.MonthlyUSD, m.MonthlyUSD))
		}
		if len(res.Peak.Hosted) != 2 || math.IsInf(self, 1) {
			t.Fatalf("%d hosted comparisons, cheapest fleet %v", len(res.Peak.Hosted), self)
		}
		for _, h := range res.Peak.Hosted {
			perReq := (prompt*h.API.InputUSDPerMillion + output*h.API.OutputUSDPerMillion) / 1e6
			want, key := month*perReq, "hosted.day_api_cheaper"
			if self < want {
				key = "hosted.day_rent_cheaper"
			}
			if !h.OverLoadCurve || !closeTo(h.MonthlyCostUSD, want) || !closeTo(h.SelfHostedUSD, self) || h.BreakEvenRPS != 0 || h.Why.Key != key {
				t.Errorf("buckets %d: %+v, want %.2f USD/month against %.2f, %s", len(fo.Buckets), h, want, self, key)
			}
		}
		if h := res.Peak.Hosted; h[0].API.ID != "cheap" || h[0].Why.Key != "hosted.day_api_cheaper" || h[1].Why.Key != "hosted.day_rent_cheaper" {
			t.Errorf("cheap API then dear, each against the fleet: %v; %v", h[0].Why, h[1].Why)
		}
	}
}
