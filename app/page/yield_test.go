package page

import (
	"runtime"
	"testing"
)

// TestPlansWhileStopsAtTheNextYield: a plan whose answer a newer input
// replaced stops at the planner's first yield after it, with nothing to
// show; one still wanted is the plan Plans makes.
func TestPlansWhileStopsAtTheNextYield(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // the browser's one thread
	_, j, err := linkJob("")
	if err != nil {
		t.Fatal(err)
	}
	pr := NewPrices(DefaultCatalog(), nil)
	yields, stale := 0, false
	pr.Yield = func() {
		yields++
		stale = stale || yields == 40 // a newer input came while the thread was given back
	}
	out, _, ok := PlansWhile(func() bool { return !stale }, j, j, false, pr)
	if ok || out.OK || yields != 40 {
		t.Errorf("replaced at yield 40: ok %v, answer %v, %d yields: want abandoned there, after 40", ok, out.OK, yields)
	}

	pr.Yield = nil
	want, _ := Plans(j, j, false, pr)
	got, _, ok := PlansWhile(func() bool { return true }, j, j, false, pr)
	if !ok || !got.OK || len(got.Cands) != len(want.Cands) || len(got.Picks) != len(want.Picks) || got.Picks[0].Cost != want.Picks[0].Cost {
		t.Errorf("still wanted: ok %v, %d plans, %d picks; Plans made %d plans, %d picks", ok, len(got.Cands), len(got.Picks), len(want.Cands), len(want.Picks))
	}
	if _, _, ok := PlansWhile(func() bool { return false }, j, j, false, pr); ok {
		t.Error("replaced before it started: planned anyway")
	}
}
