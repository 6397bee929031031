package catalog

import (
	"slices"
	"time"
)

// Freshness of a price, for ranking and labels. A price's age counts whole
// days from its AsOf (a UTC calendar date) to the day asked. An estimated
// AsOf (AsOfEstimated) is the earliest the price can date from, so it is
// graded by that date and also reported as estimated: the page says "about".

// DefaultFreshnessDays is the default freshness window: the default
// ranking uses prices no older than this; older or estimated prices can
// still be shown and picked, labelled "verify".
const DefaultFreshnessDays = 180

// PriceAgeDays is how many whole days old the offer's price is on today's
// date (0 on its AsOf day), or -1 when AsOf is not a date. A date after
// today counts as 0.
func (o Offer) PriceAgeDays(today time.Time) int {
	y, m, d, ok := splitDate(o.AsOf)
	if !ok {
		return -1
	}
	asOf := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	ty, tm, td := today.UTC().Date()
	day := time.Date(ty, tm, td, 0, 0, 0, 0, time.UTC)
	return max(0, int(day.Sub(asOf).Hours()/24))
}

// AgeGrade grades a price by age, for labels and colours.
type AgeGrade int

const (
	AgeFresh   AgeGrade = iota // under 90 days (StaleAfter)
	AgeAging                   // 90 days to DefaultFreshnessDays
	AgeStale                   // DefaultFreshnessDays to a year
	AgeOld                     // a year or more
	AgeUndated                 // AsOf is not a date
)

var ageGradeNames = [...]string{"fresh", "aging", "stale", "old", "undated"}

// String returns "fresh", "aging", "stale", "old" or "undated" (message
// keys for the page's labels).
func (g AgeGrade) String() string {
	if g < 0 || int(g) >= len(ageGradeNames) {
		return "undated"
	}
	return ageGradeNames[g]
}

// GradeAge grades an age in days (negative: undated).
func GradeAge(days int) AgeGrade {
	switch {
	case days < 0:
		return AgeUndated
	case days < 90:
		return AgeFresh
	case days < DefaultFreshnessDays:
		return AgeAging
	case days < 365:
		return AgeStale
	default:
		return AgeOld
	}
}

// PriceAgeGrade grades the offer's price on today's date.
func (o Offer) PriceAgeGrade(today time.Time) AgeGrade { return GradeAge(o.PriceAgeDays(today)) }

// FreshWithin reports whether the offer's price is dated (not estimated,
// or estimated with AsOf a proven lower bound: AsOfLowerBound) and at
// most days old on today's date: the test the default ranking applies
// with DefaultFreshnessDays.
func (o Offer) FreshWithin(today time.Time, days int) bool {
	a := o.PriceAgeDays(today)
	return a >= 0 && a <= days && !o.AsOfGuessed()
}

// AsOfGuessed reports whether the offer's date is an estimate with no
// proven bound (AsOfEstimated without AsOfLowerBound): its price may be
// older than AsOf says, so no age makes it fresh.
func (o Offer) AsOfGuessed() bool { return o.AsOfEstimated && !o.AsOfLowerBound }

// PriceMedians holds, per GPU, each provider's cheapest on-demand price per
// GPU-hour in USD (converted with the catalog's reference rates), to tell a
// price far below what the other providers ask.
type PriceMedians struct {
	// byGPU[gpu] lists (provider, USD per GPU-hour), one per provider.
	byGPU map[string][]providerPrice
}

type providerPrice struct {
	provider string
	usd      float64
}

// Medians indexes the catalog's on-demand prices per GPU and provider.
func (c *Catalog) Medians() *PriceMedians {
	best := map[[2]string]float64{}
	for i := range c.Offers {
		o := &c.Offers[i]
		p := o.OnDemandPerGPUHour()
		if p <= 0 {
			continue
		}
		usd, _, ok := c.ToUSD(p, o.Currency)
		if !ok {
			continue
		}
		k := [2]string{o.GPU, o.Provider}
		if b, seen := best[k]; !seen || usd < b {
			best[k] = usd
		}
	}
	m := &PriceMedians{byGPU: map[string][]providerPrice{}}
	for k, usd := range best {
		m.byGPU[k[0]] = append(m.byGPU[k[0]], providerPrice{k[1], usd})
	}
	return m
}

// MinOtherProviders is how many other providers must price a GPU before a
// price can be called far below their median.
const MinOtherProviders = 2

// OthersMedianPerGPUHour is the median, over the providers other than
// exclude, of each one's cheapest on-demand USD price per GPU-hour for gpu,
// and how many providers it is over (0 and 0 when none).
func (m *PriceMedians) OthersMedianPerGPUHour(gpu, exclude string) (usd float64, providers int) {
	var xs []float64
	for _, p := range m.byGPU[gpu] {
		if p.provider != exclude {
			xs = append(xs, p.usd)
		}
	}
	if len(xs) == 0 {
		return 0, 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2], n
	}
	return (xs[n/2-1] + xs[n/2]) / 2, n
}

// FarBelowMedian reports whether the offer's on-demand price per GPU-hour
// (in USD) is under half the median of the other providers' cheapest
// on-demand prices for the same GPU, with at least MinOtherProviders of
// them: a marketplace "from" price, a stale promotion or an error, which
// the page labels rather than ranks as a plain bargain.
func (m *PriceMedians) FarBelowMedian(c *Catalog, o Offer) bool {
	p := o.OnDemandPerGPUHour()
	if p <= 0 {
		return false
	}
	usd, _, ok := c.ToUSD(p, o.Currency)
	if !ok {
		return false
	}
	med, n := m.OthersMedianPerGPUHour(o.GPU, o.Provider)
	return n >= MinOtherProviders && usd < med/2
}

// FarBelowMedian is (*PriceMedians).FarBelowMedian on a fresh index; build
// the index once with Medians when asking for many offers.
func (c *Catalog) FarBelowMedian(o Offer) bool { return c.Medians().FarBelowMedian(c, o) }

// FromPrice reports whether the offer's provider is a marketplace, whose
// listed price is the cheapest listing at the time read (a "from" price).
func (c *Catalog) FromPrice(o Offer) bool {
	p, ok := c.Provider(o.Provider)
	return ok && p.Kind == KindMarketplace
}
