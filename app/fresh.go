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
)

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
