package plan_test

import (
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
