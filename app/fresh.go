package app

// How fresh the prices are, as the page says it: each pick's and each
// offer's price date, graded by age (catalog.GradeAge) once the page has a
// clock, with "price from 2025-10 — verify" on a stale or estimated price
// and a label on one far below what the other providers ask; and the
// footer's count of the catalog's offers by age.

import (
	"strconv"
	"time"

	"rightsize/app/page"
	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// gradeKeys and gradeClass label and colour a catalog.AgeGrade.
var (
	gradeKeys  = [...]page.MsgKey{catalog.AgeFresh: page.MsgAgeFresh, catalog.AgeAging: page.MsgAgeAging, catalog.AgeStale: page.MsgAge180to365, catalog.AgeOld: page.MsgAgeOld, catalog.AgeUndated: page.MsgAgeUndated}
	gradeClass = [...]string{catalog.AgeFresh: "rs-age-fresh", catalog.AgeAging: "rs-age-aging", catalog.AgeStale: "rs-age-old", catalog.AgeOld: "rs-age-old", catalog.AgeUndated: "rs-age-old"}
)

// priceLabels are a price's date line and its warnings, formatted.
type priceLabels struct {
	Date     string // "Price as of 2026-07-30 (estimated date)"
	Age      string // the age grade ("under 90 days old"); "" without a clock
	Class    string // the age grade's colour; "" without a clock
	Source   string
	Verify   string // "price from 2025-10 — verify" when stale or estimated
	FarBelow string // under half the other providers' median
	From     string // a marketplace's "from" price
}

// AsOf is the date line with its age grade: "Price as of 2026-07-30
// (estimated date) · under 90 days old".
func (p priceLabels) AsOf() string {
	if p.Age == "" {
		return p.Date
	}
	return p.Date + " · " + p.Age
}

// priceLabelsOf labels offer o's price; stale is the planner's verdict
// (Row.Stale), read only when the page has a clock (now not zero): the
// prerendered page grades nothing, but an estimated date is always said.
func (c *Calculator) priceLabelsOf(o *planner.Offer, stale bool) priceLabels {
	l := c.loc()
	p := priceLabels{Date: page.Fill(c.t(page.MsgPriceAsOf), l.Date(o.AsOf)), Source: page.SourceText(o.Source)}
	if o.AsOf == "" {
		p.Date = c.t(page.MsgAgeUndated)
	}
	if o.AsOfEstimated {
		p.Date += " (" + c.t(page.MsgEstimatedDate) + ")"
	}
	if !c.now.IsZero() {
		g := catalog.GradeAge(o.PriceAgeDays)
		p.Class = gradeClass[g]
		if g != catalog.AgeUndated {
			p.Age = c.t(gradeKeys[g])
		}
	} else {
		stale = false
	}
	if stale || o.AsOfEstimated || o.AsOf == "" {
		month := o.AsOf
		if len(month) >= 7 {
			month = month[:7]
		}
		if month == "" {
			month = c.t(page.MsgAgeUndated)
		}
		p.Verify = page.Fill(c.t(page.MsgVerifyPrice), month)
	}
	if o.FarBelowMedian {
		p.FarBelow = c.t(page.MsgFarBelow)
	}
	if o.ProviderKind == catalog.KindMarketplace {
		p.From = c.t(page.MsgFromListing)
	}
	return p
}

// freshCounts is the catalog's offers by catalog.AgeGrade on a day, and
// those with an estimated date; freshMemo keeps the last count (the
// footer renders with every change, the catalog and the day rarely change).
type freshCounts struct {
	byGrade   [catalog.AgeUndated + 1]int
	estimated int
}

var freshMemo struct {
	cat   *catalog.Catalog
	n     int
	day   int64
	fresh freshCounts
}

func countFresh(cat *catalog.Catalog, now time.Time) freshCounts {
	day := now.Unix() / 86400
	if freshMemo.cat == cat && freshMemo.n == len(cat.Offers) && freshMemo.day == day {
		return freshMemo.fresh
	}
	var f freshCounts
	for i := range cat.Offers {
		o := &cat.Offers[i]
		f.byGrade[o.PriceAgeGrade(now)]++
		if o.AsOfEstimated {
			f.estimated++
		}
	}
	freshMemo.cat, freshMemo.n, freshMemo.day, freshMemo.fresh = cat, len(cat.Offers), day, f
	return f
}

// freshnessFooter says how much of the catalog (with the user's sheet) is
// fresh: offers by age today. Without a clock (the prerendered page) it
// says nothing.
func (c *Calculator) freshnessFooter() string {
	if c.now.IsZero() || c.pr.Cat == nil {
		return ""
	}
	f := countFresh(c.pr.Cat, c.now)
	itoa := strconv.Itoa
	return page.Fill(c.t(page.MsgFooterFresh), itoa(f.byGrade[catalog.AgeFresh]), itoa(len(c.pr.Cat.Offers)), itoa(f.byGrade[catalog.AgeAging]),
		itoa(f.byGrade[catalog.AgeStale]), itoa(f.byGrade[catalog.AgeOld]), itoa(f.byGrade[catalog.AgeUndated]), itoa(f.estimated))
}

// flagOffer grades an offers-table row's price on the page's clock and
// labels it as a pick card is labelled: "verify" when older than the
// freshness window, undated or estimated, and far below the median (the
// planner's flag, on the offers it planned).
func (c *Calculator) flagOffer(r *offerRowView, o *catalog.Offer) {
	days := c.job.FreshnessDays
	if days <= 0 {
		days = catalog.DefaultFreshnessDays
	}
	po := planner.Offer{AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, PriceAgeDays: -1}
	if !c.now.IsZero() {
		po.PriceAgeDays = o.PriceAgeDays(c.now)
		r.Age = int(catalog.GradeAge(po.PriceAgeDays)) + 1
	}
	if k, ok := c.ps.out.ByOffer[o.ID]; ok {
		po.FarBelowMedian = c.ps.out.Cands[k].Offer.FarBelowMedian
	}
	p := c.priceLabelsOf(&po, !o.FreshWithin(c.now, days))
	r.Verify, r.FarBelow = p.Verify, p.FarBelow
}
