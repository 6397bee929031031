package catalog

import (
	"cmp"
	"time"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// PlanOffers returns every offer as the planner's plain values, with its
// GPU's figures for weights stored as w and its provider's kind and
// country. Offers whose GPU lacks speed figures come back with
// HasHardware false (the planner says so rather than dropping them).
//
// Zero fields are unknown to the planner: NetworkGbps (inter-node network;
// Assumptions.NetworkGbps is used), SpotInterruption (no AWS Spot Advisor
// bucket; a stated default is used), NVLinkDomain (the whole instance
// when its GPUs are NVLink-connected) and RackGPUs (the offer's
// NVLinkDomain: its instances are trays of a rack whose NVLink the
// provider joins; 0, the NVLink domain ends at the instance) and
// RentalUnit (the offer's RentalUnitInstances; 0, each instance rents
// alone).
//
// Prices are not dated: every PriceAgeDays is -1, so no price counts as
// fresh and the freshness window passes no row over (a price far below
// the median still is); PlanOffersAt dates
// them. FarBelowMedian is set either way.
func (c *Catalog) PlanOffers(w estimator.DType) []plan.Offer { return c.PlanOffersAt(w, time.Time{}) }

// PlanOffersAt is PlanOffers with each price's age on today's date
// (Offer.PriceAgeDays; a zero today leaves them undated, -1), for the
// planner's freshness window.
func (c *Catalog) PlanOffersAt(w estimator.DType, today time.Time) []plan.Offer {
	med := c.Medians()
	gpus := make(map[string]GPU, len(c.GPUs))
	for _, g := range c.GPUs {
		gpus[g.ID] = g
	}
	provs := make(map[string]Provider, len(c.Providers))
	for _, p := range c.Providers {
		provs[p.ID] = p
	}
	out := make([]plan.Offer, 0, len(c.Offers))
	regional := c.regionalTypes()
	for _, o := range c.Offers {
		po := planOffer(o, gpus[o.GPU], provs[o.Provider], w)
		po.FarBelowMedian = !o.UserPrice && med.FarBelowMedian(c, o)
		if n := c.instanceName(o, func(o Offer) bool { return regional[regionalKey(o)] }); n != o.InstanceType {
			po.InstanceName = n // a broker's encoded listing ID, named
		}
		if !today.IsZero() {
			po.PriceAgeDays = o.PriceAgeDays(today)
		}
		out = append(out, po)
	}
	return out
}

// PlanOffer is the offer with the given ID as PlanOffers gives it, but
// undated and unmarked against the median (PriceAgeDays -1,
// FarBelowMedian false) and under its instance type's own name: its
// instance, hardware and prices, for a page that estimates a job on one
// offer as the planner does (plan.OnOffer).
func (c *Catalog) PlanOffer(id string, w estimator.DType) (plan.Offer, bool) {
	o, ok := c.Offer(id)
	if !ok {
		return plan.Offer{}, false
	}
	g, _ := c.GPU(o.GPU)
	p, _ := c.Provider(o.Provider)
	return planOffer(o, g, p, w), true
}

// planOffer is offer o of GPU g from provider p as the planner's plain
// values, with g's figures for weights stored as w: what PlanOffersAt
// gives but the price's age, the median mark and a broker's instance name.
func planOffer(o Offer, g GPU, p Provider, w estimator.DType) plan.Offer {
	hw, ok := g.Hardware(w)
	if c, known := o.HostClass(); known {
		hw.HostClass = c // the instance's own CPU (Offer.HostCPU)
	}
	po := plan.Offer{
		ID: o.ID, Provider: o.Provider, ProviderKind: p.Kind, Country: p.Country, AccountsLocalOnly: p.AccountsLocalOnly, InstanceType: o.InstanceType,
		GPU: o.GPU, GPUCount: o.GPUCount, VCPUs: o.VCPUs, RAMGiB: o.RAMGiB,
		Interconnect:    o.Interconnect,
		OnDemandPerHour: o.OnDemandPerHour, SpotPerHour: o.SpotPerHour,
		Reserved1yPerHour: o.Reserved1yPerHour, Reserved3yPerHour: o.Reserved3yPerHour, MonthlyPrice: o.MonthlyPrice,
		Currency: o.Currency, BillingGranularity: o.BillingGranularity, BillingMinimumSeconds: p.BillingMinimumSeconds,
		NetworkGbps: o.NetworkGbps, NetworkFabric: o.NetworkFabric, SpotInterruption: o.SpotInterruption,
		PricesIncludeVAT: p.PricesIncludeVAT, VATRate: p.VATRate, NVLinkDomain: g.NVLinkDomain, RackGPUs: o.NVLinkDomain, RentalUnit: o.RentalUnitInstances,
		AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, AsOfLowerBound: o.AsOfLowerBound, Source: o.Source,
		Hardware: hw, HasHardware: ok, GPUMemory: g.Memory, GPUVisibleMemory: g.ECCMemory,
		PriceAgeDays: -1, UserPrice: o.UserPrice,
		ToVerify: o.PriceToVerify(),
	}
	po.SpotFarBelow = !o.UserPrice && o.SpotPerHour > 0 && o.OnDemandPerHour > 0 && o.SpotPerHour < plan.SpotFloorShare*o.OnDemandPerHour
	if len(o.Regions) > 0 {
		po.Region, po.Regions = o.Regions[0], o.Regions
	}
	// Single-GPU offers and multi-GPU offers without a listed
	// interconnect inherit the GPU's: an SXM part sits on NVLink.
	if po.Interconnect == "" && o.GPUCount > 1 {
		po.Interconnect = g.Interconnect
	}
	return po
}

// PlanFX is the catalog's dated FX table as the planner's plain values:
// units of each currency per USD.
func (c *Catalog) PlanFX() []plan.FXRate {
	out := make([]plan.FXRate, 0, len(c.FXRates))
	for _, r := range c.FXRates {
		out = append(out, plan.FXRate{Currency: r.Currency, PerUSD: r.PerUSD, AsOf: r.AsOf, Source: r.Source})
	}
	return out
}

// PlanHostedAPIs returns the hosted API list prices of catalog model
// modelID as the planner's values, in USD per million tokens: prices in
// another currency are converted at the catalog's FX table (and left out
// when it has no rate for it). They come cheapest first (output price,
// then input price, then ID), with the list price's date and source.
func (c *Catalog) PlanHostedAPIs(modelID string) []plan.HostedAPI {
	var out []plan.HostedAPI
	for _, h := range c.HostedAPIs {
		if h.ModelID == "" || h.ModelID != modelID {
			continue
		}
		cur := h.Currency
		if cur == "" {
			cur = "USD"
		}
		fx, ok := c.FX(cur)
		if !ok || !(fx.PerUSD > 0) {
			continue
		}
		out = append(out, plan.HostedAPI{ID: h.ID, Provider: h.Provider, Model: h.Model,
			InputUSDPerMillion: h.InputPerMillion / fx.PerUSD, OutputUSDPerMillion: h.OutputPerMillion / fx.PerUSD,
			Currency: cur, AsOf: h.AsOf, Source: h.Source})
	}
	estimator.SortStable(out, func(a, b *plan.HostedAPI) int {
		return cmp.Or(cmp.Compare(a.OutputUSDPerMillion, b.OutputUSDPerMillion),
			cmp.Compare(a.InputUSDPerMillion, b.InputUSDPerMillion), cmp.Compare(a.ID, b.ID))
	})
	return out
}
