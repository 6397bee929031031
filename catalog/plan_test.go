package catalog_test

import (
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

func TestPlanOffers(t *testing.T) {
	c := catalog.Default()
	offers := c.PlanOffers(estimator.BF16)
	if len(offers) != len(c.Offers) {
		t.Fatalf("%d plan offers for %d catalog offers", len(offers), len(c.Offers))
	}
	withHW := 0
	for i, po := range offers {
		o := c.Offers[i]
		g, _ := c.GPU(o.GPU)
		p, _ := c.Provider(o.Provider)
		if po.ID != o.ID || po.GPUCount != o.GPUCount || po.OnDemandPerHour != o.OnDemandPerHour || po.SpotPerHour != o.SpotPerHour ||
			po.Currency != o.Currency || po.GPUMemory != g.Memory || po.ProviderKind != p.Kind || po.Country != p.Country {
			t.Errorf("%s: adapter changed a field: %+v", o.ID, po)
		}
		if po.HasHardware {
			withHW++
			hw, _ := g.Hardware(estimator.BF16)
			if po.Hardware != hw {
				t.Errorf("%s: hardware %+v, want %+v", o.ID, po.Hardware, hw)
			}
		}
		if len(o.Regions) > 0 && po.Region != o.Regions[0] {
			t.Errorf("%s: region %q", o.ID, po.Region)
		}
	}
	if withHW < len(offers)*3/4 { // 845 of 1107 on 2026-11-23
		t.Errorf("only %d of %d offers have speed figures", withHW, len(offers))
	}
	// p5.48xlarge: 8 H100 SXM on NVLink.
	for _, po := range offers {
		if po.ID == "aws-p5.48xlarge" && (po.GPUCount != 8 || po.Interconnect != "nvlink") {
			t.Errorf("p5.48xlarge: %v GPUs on %q", po.GPUCount, po.Interconnect)
		}
	}
}

func TestPlanFX(t *testing.T) {
	seen := map[string]bool{}
	for _, x := range catalog.Default().PlanFX() {
		if !(x.PerUSD > 0) || x.Source == "" || (x.Currency != "USD" && x.AsOf == "") {
			t.Errorf("%+v", x)
		}
		seen[x.Currency] = true
	}
	for _, c := range []string{"USD", "EUR", "RUB", "CNY"} {
		if !seen[c] {
			t.Errorf("no rate for %s", c)
		}
	}
}
