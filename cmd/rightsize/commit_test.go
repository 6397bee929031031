package main

import (
	"math"
	"testing"
)

// TestCommitmentsUndercutOnDemand: Llama 3.1 70B served at 5 requests/s
// on demand costs 35,945 USD a month on CoreWeave's HGX H100 (its GB200
// tray, 30,660 while trays were billed singly, rents as a whole rack of
// 18, 551,880); a service at a steady rate runs every hour of the month,
// so a 3-year reservation's month is the comparison, and GCP's
// a3-highgpu-8g at 28,371 is 21% less: the plan says so (GCP's A2 3-year price, 22,526 for a2-highgpu-8g
// ×3, is out of the catalog: 65% under on-demand, past the 57% Google
// publishes). A 1-year reservation's cheapest is dearer, and said
// nowhere; a plan already on a reservation, or on spot, names none.
func TestCommitmentsUndercutOnDemand(t *testing.T) {
	// CoreWeave's and GCP's offers: the case of an on-demand pick that a
	// reservation elsewhere undercuts (Cudo's H100s, fresh since their
	// July 2026 date is a lower bound, are cheaper on demand than both).
	job := []string{"--model", "llama-3.1-70b", "--requests-per-second", "5", "--prompt-tokens", "2000", "--output-tokens", "300", "--seq", "2300", "--provider", "coreweave,gcp"}
	p := planJSONOf(t, job...)
	if od := cheapest(t, p); math.Abs(od.MonthlyCostUSD-35945) > 1 {
		t.Fatalf("on demand: %s at %.0f USD/month, want 35,945", od.OfferID, od.MonthlyCostUSD)
	}
	if len(p.Commitments) != 1 {
		t.Fatalf("commitments %+v, want the 3-year one", p.Commitments)
	}
	c := p.Commitments[0]
	if c.Pricing != "reserved-3y" || c.OfferID != "gcp-a3-highgpu-8g" || c.Instances != 1 || math.Abs(c.MonthlyCostUSD-28371) > 1 || math.Abs(c.Saving-0.2107) > 0.002 {
		t.Errorf("commitment %+v, want reserved-3y on gcp-a3-highgpu-8g at 28,371 USD/month, 21%% less", c)
	}
	for _, pr := range []string{"reserved-3y", "spot"} {
		if p := planJSONOf(t, append(job, "--pricing", pr)...); len(p.Commitments) != 0 {
			t.Errorf("--pricing %s: commitments %+v", pr, p.Commitments)
		}
	}
}
