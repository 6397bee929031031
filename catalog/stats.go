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

// ProviderStats is one provider's coverage and freshness.
type ProviderStats struct {
	ID, Kind, Country, Currency string
	AsOf                        string
	AsOfEstimated               bool
	AgeBucket                   string
	Offers                      int
	OffersAsOfEstimated         int
	// OffersByAge counts the provider's offers per AgeBuckets entry.
	OffersByAge map[string]int
	Reserved1y  int // offers with a 1-year commitment price
	Reserved3y  int // offers with a 3-year commitment price
	Spot        int // offers with a spot price
	SpotRisk    int // offers with a spot interruption bucket
	Network     int // offers with an inter-node network figure
}

// Stats summarises the catalog's coverage and freshness at a time.
type Stats struct {
	GPUs, GPUsWithSpeed, Models, Providers, Offers, HostedAPIs int
	OffersAsOfEstimated                                        int
	OffersByAge                                                map[string]int // AgeBuckets → offers
	ProvidersWithReserved1y, ProvidersWithReserved3y           []string
	Reserved1y, Reserved3y                                     int // offers with such a price
	FXAsOf                                                     string
	FX                                                         map[string]float64 // currency → units per USD
	ProvidersByCountry                                         map[string]int
	ByProvider                                                 []ProviderStats
}

// Stats computes coverage and staleness at now.
func (c *Catalog) Stats(now time.Time) Stats {
	s := Stats{GPUs: len(c.GPUs), Models: len(c.Models), Providers: len(c.Providers), Offers: len(c.Offers),
		HostedAPIs: len(c.HostedAPIs), OffersByAge: map[string]int{}, FX: map[string]float64{},
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
			AsOf: p.AsOf, AsOfEstimated: p.AsOfEstimated, AgeBucket: AgeBucket(p.AsOf, now), OffersByAge: map[string]int{}})
	}
	for _, o := range c.Offers {
		b := AgeBucket(o.AsOf, now)
		s.OffersByAge[b]++
		if o.AsOfEstimated {
			s.OffersAsOfEstimated++
		}
		if o.Reserved1yPerHour > 0 {
			s.Reserved1y++
		}
		if o.Reserved3yPerHour > 0 {
			s.Reserved3y++
		}
		i, ok := idx[o.Provider]
		if !ok {
			continue
		}
		p := &s.ByProvider[i]
		p.Offers++
		p.OffersByAge[b]++
		if o.AsOfEstimated {
			p.OffersAsOfEstimated++
		}
		if o.Reserved1yPerHour > 0 {
			p.Reserved1y++
		}
		if o.Reserved3yPerHour > 0 {
			p.Reserved3y++
		}
		if o.SpotPerHour > 0 {
			p.Spot++
		}
		if o.SpotInterruption != "" {
			p.SpotRisk++
		}
		if o.NetworkGbps > 0 {
			p.Network++
		}
	}
	for _, p := range s.ByProvider {
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
