package catalog

import (
	"slices"
	"time"
)

// AgeBuckets are the staleness buckets Stats counts offers in, by the age of
// their AsOf at the time asked: fresher than 30 days, 30–90 (still within
// StaleAfter), 90–180, 180–365, and older than a year.
var AgeBuckets = []string{"<30d", "30-90d", "90-180d", "180-365d", ">365d"}

// AgeBucket returns the bucket of an AsOf date at now ("undated" when it is
// not a date).
func AgeBucket(asOf string, now time.Time) string {
	t, err := AsOfTime(asOf)
	if err != nil {
		return "undated"
	}
	switch d := now.Sub(t).Hours() / 24; {
	case d < 30:
		return AgeBuckets[0]
	case d < 90:
		return AgeBuckets[1]
	case d < 180:
		return AgeBuckets[2]
	case d < 365:
		return AgeBuckets[3]
	default:
		return AgeBuckets[4]
	}
}

// OfferCounts counts offers by the freshness of their price and by the
// prices and facts they carry; Stats keeps one for the whole catalog and
// one per provider.
type OfferCounts struct {
	Offers              int
	OffersAsOfEstimated int
	// OffersByAge counts offers per AgeBuckets entry ("undated" too).
	OffersByAge map[string]int
	Reserved1y  int // offers with a 1-year commitment price
	Reserved3y  int // offers with a 3-year commitment price
	Spot        int // offers with a spot price
	SpotRisk    int // offers with a spot interruption bucket
	Network     int // offers with an inter-node network figure
	// Fresh counts offers whose price is dated (not estimated) and within
	// DefaultFreshnessDays; FarBelowMedian those under half the other
	// providers' median on-demand price per GPU-hour (PriceMedians).
	Fresh          int
	FarBelowMedian int
}

// add counts one offer whose AsOf falls in bucket.
func (n *OfferCounts) add(o *Offer, bucket string, fresh, far bool) {
	if n.OffersByAge == nil {
		n.OffersByAge = map[string]int{}
	}
	n.Offers++
	n.OffersByAge[bucket]++
	for _, c := range [...]struct {
		has bool
		n   *int
	}{
		{o.AsOfEstimated, &n.OffersAsOfEstimated}, {o.Reserved1yPerHour > 0, &n.Reserved1y},
		{o.Reserved3yPerHour > 0, &n.Reserved3y}, {o.SpotPerHour > 0, &n.Spot},
		{o.SpotInterruption != "", &n.SpotRisk}, {o.NetworkGbps > 0, &n.Network},
		{fresh, &n.Fresh}, {far, &n.FarBelowMedian},
	} {
		if c.has {
			*c.n++
		}
	}
}

// ProviderStats is one provider's coverage and freshness.
type ProviderStats struct {
	ID, Kind, Country, Currency string
	AsOf                        string
	AsOfEstimated               bool
	AgeBucket                   string
	OfferCounts
}

// Stats summarises the catalog's coverage and freshness at a time.
type Stats struct {
	GPUs, GPUsWithSpeed, Models, Providers, HostedAPIs int
	// ProvidersWithOffers counts providers with at least one offer (the
	// catalog also lists providers whose prices could not be sourced, for
	// users' price sheets).
	ProvidersWithOffers int
	// OfferCounts counts every offer, also one whose provider is not in
	// the catalog (validation rules that out; Stats does not rely on it).
	OfferCounts
	ProvidersWithReserved1y, ProvidersWithReserved3y []string
	FXAsOf                                           string
	FX                                               map[string]float64 // currency → units per USD
	ProvidersByCountry                               map[string]int
	ByProvider                                       []ProviderStats
}

// Stats computes coverage and staleness at now.
func (c *Catalog) Stats(now time.Time) Stats {
	s := Stats{GPUs: len(c.GPUs), Models: len(c.Models), Providers: len(c.Providers),
		HostedAPIs: len(c.HostedAPIs), OfferCounts: OfferCounts{OffersByAge: map[string]int{}}, FX: map[string]float64{},
		ProvidersByCountry: map[string]int{}}
	for _, g := range c.GPUs {
		if g.BF16TFLOPS > 0 || g.FP16TFLOPS > 0 || g.FP32TFLOPS > 0 {
			s.GPUsWithSpeed++
		}
	}
	for _, r := range c.FXRates {
		s.FX[r.Currency] = r.PerUSD
		if r.AsOf > s.FXAsOf {
			s.FXAsOf = r.AsOf
		}
	}
	idx := map[string]int{}
	for _, p := range c.Providers {
		idx[p.ID] = len(s.ByProvider)
		s.ProvidersByCountry[p.Country]++
		s.ByProvider = append(s.ByProvider, ProviderStats{ID: p.ID, Kind: p.Kind, Country: p.Country, Currency: p.Currency,
			AsOf: p.AsOf, AsOfEstimated: p.AsOfEstimated, AgeBucket: AgeBucket(p.AsOf, now),
			OfferCounts: OfferCounts{OffersByAge: map[string]int{}}})
	}
	m := c.Medians()
	for i := range c.Offers {
		o := &c.Offers[i]
		b := AgeBucket(o.AsOf, now)
		fresh, far := o.FreshWithin(now, DefaultFreshnessDays), m.FarBelowMedian(c, *o)
		s.add(o, b, fresh, far)
		if p, ok := idx[o.Provider]; ok {
			s.ByProvider[p].add(o, b, fresh, far)
		}
	}
	for _, p := range s.ByProvider {
		if p.Offers > 0 {
			s.ProvidersWithOffers++
		}
		if p.Reserved1y > 0 {
			s.ProvidersWithReserved1y = append(s.ProvidersWithReserved1y, p.ID)
		}
		if p.Reserved3y > 0 {
			s.ProvidersWithReserved3y = append(s.ProvidersWithReserved3y, p.ID)
		}
	}
	slices.Sort(s.ProvidersWithReserved1y)
	slices.Sort(s.ProvidersWithReserved3y)
	return s
}
