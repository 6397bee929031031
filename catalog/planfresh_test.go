package catalog

import (
	"testing"
	"time"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// The planner's default freshness window is the catalog's.
func TestPlannerFreshnessWindow(t *testing.T) {
	if plan.DefaultFreshnessDays != DefaultFreshnessDays {
		t.Errorf("plan.DefaultFreshnessDays %d, catalog.DefaultFreshnessDays %d", plan.DefaultFreshnessDays, DefaultFreshnessDays)
	}
}

// TestPlanOffersAt: the planner's offers carry each price's age on the day
// asked and the far-below-median flag; PlanOffers leaves them undated.
func TestPlanOffersAt(t *testing.T) {
	c := Default()
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	dated, undated := c.PlanOffersAt(estimator.BF16, today), c.PlanOffers(estimator.BF16)
	m := c.Medians()
	far := 0
	for i, o := range c.Offers {
		if dated[i].PriceAgeDays != o.PriceAgeDays(today) || undated[i].PriceAgeDays != -1 {
			t.Fatalf("%s: age %d / %d, want %d / -1", o.ID, dated[i].PriceAgeDays, undated[i].PriceAgeDays, o.PriceAgeDays(today))
		}
		if f := m.FarBelowMedian(c, o); dated[i].FarBelowMedian != f || undated[i].FarBelowMedian != f {
			t.Fatalf("%s: far below %v, want %v", o.ID, dated[i].FarBelowMedian, f)
		}
		if dated[i].FarBelowMedian {
			far++
		}
	}
	if far == 0 {
		t.Error("no offer far below the median: the flag is not carried")
	}
}
