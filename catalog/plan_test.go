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
			if c, known := o.HostClass(); known {
				hw.HostClass = c // the instance's own CPU
			}
			if po.Hardware != hw {
				t.Errorf("%s: hardware %+v, want %+v", o.ID, po.Hardware, hw)
			}
		}
		if len(o.Regions) > 0 && po.Region != o.Regions[0] {
			t.Errorf("%s: region %q", o.ID, po.Region)
		}
		// AWS bills Linux instances by the second, 60 seconds at least,
		// and Compute Engine likewise (providers.json cites each page);
		// no other provider documents a minimum the catalog records.
		if want := map[string]float64{"aws": 60, "gcp": 60}[o.Provider]; po.BillingGranularity != o.BillingGranularity || po.BillingMinimumSeconds != want {
			t.Errorf("%s: billed by %q, %v s at least; want %q, %v s", o.ID, po.BillingGranularity, po.BillingMinimumSeconds, o.BillingGranularity, want)
		}
	}
	if withHW < len(offers)*3/4 { // 845 of 1107 on 2026-11-23
		t.Errorf("only %d of %d offers have speed figures", withHW, len(offers))
	}
	// p5.48xlarge: 8 H100 SXM on NVLink. p4de.24xlarge's A100s sit on
	// Cascade Lake Xeons (legacy-server), though the A100's default host
	// is a server.
	for _, po := range offers {
		if po.ID == "aws-p5.48xlarge" && (po.GPUCount != 8 || po.Interconnect != "nvlink") {
			t.Errorf("p5.48xlarge: %v GPUs on %q", po.GPUCount, po.Interconnect)
		}
		if po.ID == "aws-p4de.24xlarge" && po.Hardware.HostClass != estimator.HostLegacyServer {
			t.Errorf("p4de.24xlarge: host class %v", po.Hardware.HostClass)
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

// TestPlanHostedAPIs: a catalog model's hosted prices come dated and
// sourced, cheapest output first, and other models' prices stay out.
func TestPlanHostedAPIs(t *testing.T) {
	c := catalog.Default()
	apis := c.PlanHostedAPIs("llama-3.1-8b")
	if len(apis) < 3 {
		t.Fatalf("%d hosted prices for llama-3.1-8b, the catalog lists ≥ 3", len(apis))
	}
	want := map[string]catalog.HostedAPIPrice{}
	for _, h := range c.HostedAPIs {
		if h.ModelID == "llama-3.1-8b" {
			want[h.ID] = h
		}
	}
	if len(apis) != len(want) {
		t.Errorf("%d hosted prices, the catalog has %d for the model", len(apis), len(want))
	}
	for i, a := range apis {
		h, ok := want[a.ID]
		if !ok || a.AsOf == "" || a.Source == "" || h.Currency != "USD" ||
			a.InputUSDPerMillion != h.InputPerMillion || a.OutputUSDPerMillion != h.OutputPerMillion {
			t.Errorf("%+v against %+v", a, h)
		}
		if i > 0 && apis[i-1].OutputUSDPerMillion > a.OutputUSDPerMillion {
			t.Errorf("%s before %s: not cheapest output first", apis[i-1].ID, a.ID)
		}
	}
	if got := c.PlanHostedAPIs("no-such-model"); len(got) != 0 {
		t.Errorf("%d prices for an unknown model", len(got))
	}
	if got := c.PlanHostedAPIs(""); len(got) != 0 {
		t.Errorf("%d prices for the empty model ID (proprietary models)", len(got))
	}
}

// TestPlanHostedAPIsConvert: a price in another currency is converted at
// the FX table, and one without a rate is left out.
func TestPlanHostedAPIsConvert(t *testing.T) {
	c := catalog.Catalog{
		FXRates: []catalog.FXRate{{Currency: "EUR", PerUSD: 0.8, AsOf: "2026-08-01", Source: "test"}},
		HostedAPIs: []catalog.HostedAPIPrice{
			{ID: "eu", ModelID: "m", InputPerMillion: 0.4, OutputPerMillion: 0.8, Currency: "EUR", AsOf: "2026-08-01", Source: "s"},
			{ID: "us", ModelID: "m", InputPerMillion: 0.3, OutputPerMillion: 0.9, Currency: "USD", AsOf: "2026-08-01", Source: "s"},
			{ID: "jp", ModelID: "m", InputPerMillion: 10, OutputPerMillion: 20, Currency: "JPY", AsOf: "2026-08-01", Source: "s"},
		},
	}
	got := c.PlanHostedAPIs("m")
	// 0.8 EUR is 1 USD, dearer than 0.9 USD: the dollar price comes first.
	if len(got) != 2 || got[1].ID != "eu" || got[1].InputUSDPerMillion != 0.5 || got[1].OutputUSDPerMillion != 1 || got[1].Currency != "EUR" ||
		got[0].ID != "us" || got[0].OutputUSDPerMillion != 0.9 {
		t.Errorf("%+v", got)
	}
}
