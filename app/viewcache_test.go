package app

import (
	"reflect"
	"testing"

	"rightsize/app/page"
)

// TestViewMemo: the page's view is built once per state and agrees with a
// fresh page.BuildView after every kind of change that reaches it: an
// input, a plan's answer, a fold, the comparison and the pin.
func TestViewMemo(t *testing.T) {
	c, _ := load(t)
	ctx := contextOf(t)
	fresh := func(what string) {
		t.Helper()
		if got, want := *c.memo.view(c), page.BuildView(c.viewIn()); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: the memoised view differs from a fresh one", what)
		}
	}
	fresh("loading")
	first := c.memo.view(c)
	if again := c.memo.view(c); &again.Fit.Rows[0] != &first.Fit.Rows[0] {
		t.Fatal("a second view of the same state was rebuilt")
	}
	c.set(ctx, page.FieldBatch, "8")
	fresh("a batch size")
	if c.memo.view(c).Result.Breakdown.Verdict == first.Result.Breakdown.Verdict && reflect.DeepEqual(c.memo.view(c).Result, first.Result) {
		t.Fatal("batch 8 shows the memory of the default batch")
	}
	c.ps.Set(page.PlanOut{}, page.PlanOut{})
	fresh("a plan's answer")
	c.state = c.state.WithOpen(page.SecOffers, true)
	fresh("a fold")
	if id := c.memo.view(c).Offers.Rows; len(id) > 0 {
		c.cmp.ids, _ = page.ToggleCompare(c.cmp.ids, id[0].ID)
		fresh("a comparison")
	}
	p := c.state
	c.pin = &p
	fresh("a pin")
}
