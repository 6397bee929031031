package plan_test

import (
	"testing"

	"rightsize/estimator/plan"
)

// TestCountReasons: an empty plan's refusals grouped by their sentence
// (key and arguments: "needs more than 64 instances" is not "needs more
// than 8"), the most common first and, at equal counts, in the rows'
// order; fitting rows and rows with no reason are not counted.
func TestCountReasons(t *testing.T) {
	big := func(n int) plan.Row { return plan.Row{FitReason: plan.Reason{Key: plan.MsgFitTooBig, Args: []any{n}}} }
	price := plan.Row{FitReason: plan.Reason{Key: plan.MsgFitNoPrice, Args: []any{"on-demand"}}}
	rows := []plan.Row{big(8), price, big(64), big(64), {Fits: true, FitReason: plan.Reason{Key: plan.MsgFitOK, Args: []any{1.0}}}, big(64), price, {}, big(16)}
	got := plan.CountReasons(rows)
	want := []struct {
		s string
		n int
	}{{"needs more than 64 instances", 3}, {"no on-demand price", 2}, {"needs more than 8 instances", 1}, {"needs more than 16 instances", 1}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i, w := range want {
		if got[i].Why.String() != w.s || got[i].Offers != w.n {
			t.Errorf("%d: %q × %d, want %q × %d", i, got[i].Why.String(), got[i].Offers, w.s, w.n)
		}
	}
}
