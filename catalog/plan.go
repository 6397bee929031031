package catalog

import (
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// PlanOffers returns every offer as the planner's plain values, with its
// GPU's figures for weights stored as w and its provider's kind and
// country. Offers whose GPU lacks speed figures come back with
// HasHardware false (the planner says so rather than dropping them).
//
// Fields the catalog does not carry yet stay zero, which the planner reads
// as unknown: Offer.NetworkGbps and NetworkFabric (inter-node network),
// SpotInterruption (AWS Spot Advisor bucket), Provider.PricesIncludeVAT and
// VATRate, and GPU.NVLinkDomain (0: the whole instance when its GPUs are
// NVLink-connected).
func (c *Catalog) PlanOffers(w estimator.DType) []plan.Offer {
	gpus := make(map[string]GPU, len(c.GPUs))
	for _, g := range c.GPUs {
		gpus[g.ID] = g
	}
	provs := make(map[string]Provider, len(c.Providers))
	for _, p := range c.Providers {
		provs[p.ID] = p
	}
	out := make([]plan.Offer, 0, len(c.Offers))
	for _, o := range c.Offers {
		g := gpus[o.GPU]
		p := provs[o.Provider]
		hw, ok := g.Hardware(w)
		po := plan.Offer{
			ID: o.ID, Provider: o.Provider, ProviderKind: p.Kind, Country: p.Country, InstanceType: o.InstanceType,
			GPU: o.GPU, GPUCount: o.GPUCount, VCPUs: o.VCPUs, RAMGiB: o.RAMGiB,
			Interconnect:    o.Interconnect,
			OnDemandPerHour: o.OnDemandPerHour, SpotPerHour: o.SpotPerHour,
			Reserved1yPerHour: o.Reserved1yPerHour, Reserved3yPerHour: o.Reserved3yPerHour, MonthlyPrice: o.MonthlyPrice,
			Currency: o.Currency, BillingGranularity: o.BillingGranularity,
			AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, Source: o.Source,
			Hardware: hw, HasHardware: ok, GPUMemory: g.Memory,
		}
		if len(o.Regions) > 0 {
			po.Region = o.Regions[0]
		}
		// Single-GPU offers and multi-GPU offers without a listed
		// interconnect inherit the GPU's: an SXM part sits on NVLink.
		if po.Interconnect == "" && o.GPUCount > 1 {
			po.Interconnect = g.Interconnect
		}
		out = append(out, po)
	}
	return out
}

// PlanFX is the dated FX table the planner converts with: units of each
// currency per USD. Until the catalog carries its own FX table, these are
// the reference rates staged in the shared market data (fx_rates.csv),
// each with its source and date.
func (c *Catalog) PlanFX() []plan.FXRate {
	return []plan.FXRate{
		{Currency: "USD", PerUSD: 1, AsOf: "", Source: "identity"},
		{Currency: "EUR", PerUSD: 0.8684, AsOf: "2026-06",
			Source: "US Federal Reserve H.10 monthly average (June 2026) via FRED, github.com/datasets/exchange-rates data/monthly.csv @fa7d9499"},
		{Currency: "CNY", PerUSD: 6.7758, AsOf: "2026-06",
			Source: "US Federal Reserve H.10 monthly average (June 2026) via FRED, github.com/datasets/exchange-rates data/monthly.csv @fa7d9499"},
		{Currency: "RUB", PerUSD: 82.9211, AsOf: "2026-08-22",
			Source: "Bank of Russia official rate via github.com/solovmm/fin_calc data/fx_daily.json @03271e6a"},
	}
}
