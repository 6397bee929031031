package main

import (
	"strings"
	"testing"
)

// TestPlanRegionPrices: AWS China prices each region on its own (the
// China Price List of 2026-01-21: g5.xlarge 9.51389 CNY/h in Beijing,
// 6.70086 in Ningxia). --region cn-north-1 plans Beijing's offers at
// Beijing's prices, its 1-year reservation Beijing's own, and its local
// zone cn-north-1-pkx-1 with no reservation (the source lists none
// there); --region cn-northwest-1 keeps Ningxia's. An instance type
// priced in several regions is named with its offer's region.
func TestPlanRegionPrices(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--requests-per-second", "1", "--provider", "aws-cn", "--all", "--top", "0"}
	for _, c := range []struct {
		region, pricing string
		want            map[string]float64 // offer → price per hour (CNY); 0: not planned
	}{
		{"cn-north-1", "on-demand", map[string]float64{"aws-cn-g5.xlarge-cn-north-1": 9.51389, "aws-cn-g5.xlarge-cn-north-1-pkx-1": 9.51389, "aws-cn-g5.xlarge-cn-northwest-1": 0}},
		{"cn-north-1", "reserved-1y", map[string]float64{"aws-cn-g5.xlarge-cn-north-1": 5.127968, "aws-cn-g5.xlarge-cn-north-1-pkx-1": 0, "aws-cn-g5.xlarge-cn-northwest-1": 0}},
		{"cn-northwest-1", "on-demand", map[string]float64{"aws-cn-g5.xlarge-cn-northwest-1": 6.70086, "aws-cn-g5.xlarge-cn-north-1": 0}},
		{"cn-northwest-1", "reserved-1y", map[string]float64{"aws-cn-g5.xlarge-cn-northwest-1": 3.907306}},
	} {
		p := planJSONOf(t, append(job, "--region", c.region, "--pricing", c.pricing)...)
		got := map[string]float64{}
		for _, r := range p.Rows {
			if r.Fits {
				got[r.OfferID] = r.PricePerHour
			}
			// Two rows of one instance type say which region each is.
			if r.InstanceType == "g5.xlarge" && !strings.HasPrefix(r.InstanceName, "g5.xlarge ("+c.region) {
				t.Errorf("--region %s: %s is named %q", c.region, r.OfferID, r.InstanceName)
			}
		}
		for id, want := range c.want {
			if got[id] != want {
				t.Errorf("--region %s --pricing %s: %s at %v CNY/h, want %v", c.region, c.pricing, id, got[id], want)
			}
		}
	}
}

// TestPlanRegionUnlisted: a region no offer of the provider stands in is
// refused with the regions the provider does list.
func TestPlanRegionUnlisted(t *testing.T) {
	code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--requests-per-second", "1", "--provider", "aws-cn", "--region", "cn-north-2")
	want := `--region "cn-north-2": no aws-cn offer is hosted in a region starting with it; aws-cn lists: cn-north-1 · cn-north-1-pkx-1 · cn-northwest-1`
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}
