package page

// How fresh the catalog's prices are (with the user's sheet): its offers
// by age today (catalog.GradeAge), for the page's footer.

import (
	"strconv"
	"sync"
	"time"

	"rightsize/catalog"
)

// freshCounts is the catalog's offers by catalog.AgeGrade on a day, and
// those with an estimated date; freshMemo keeps the last count (the
// footer renders with every change, the catalog and the day rarely
// change).
type freshCounts struct {
	byGrade   [catalog.AgeUndated + 1]int
	estimated int
}

var freshMemo struct {
	sync.Mutex
	cat   *catalog.Catalog
	n     int
	day   int64
	fresh freshCounts
}

func countFresh(cat *catalog.Catalog, now time.Time) freshCounts {
	day := now.Unix() / 86400
	freshMemo.Lock()
	defer freshMemo.Unlock()
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

// fresh says how much of the catalog is fresh: offers by age today.
// Without a clock (the prerendered page) it says nothing.
func (b *viewBuilder) fresh() string {
	in := &b.in
	if in.Now.IsZero() || in.Prices.Cat == nil {
		return ""
	}
	f := countFresh(in.Prices.Cat, in.Now)
	itoa := strconv.Itoa
	return Fill(b.t(MsgFooterFresh), itoa(f.byGrade[catalog.AgeFresh]), itoa(len(in.Prices.Cat.Offers)), itoa(f.byGrade[catalog.AgeAging]),
		itoa(f.byGrade[catalog.AgeStale]), itoa(f.byGrade[catalog.AgeOld]), itoa(f.byGrade[catalog.AgeUndated]), itoa(f.estimated))
}
