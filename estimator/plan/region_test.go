package plan_test

import (
	"testing"

	"rightsize/estimator/plan"
)

// TestInRegion: the region filter matches any region an offer lists, by
// prefix and case aside; an offer with Region alone is read by it.
func TestInRegion(t *testing.T) {
	two := plan.Offer{Region: "cn-northwest-1", Regions: []string{"cn-northwest-1", "cn-north-1"}}
	one := plan.Offer{Region: "eu-west-1"}
	for _, c := range []struct {
		o      plan.Offer
		prefix string
		want   bool
	}{
		{two, "cn-north-1", true}, {two, "CN-NORTHWEST", true}, {two, "cn-north-2", false},
		{one, "eu-west", true}, {one, "eu-central", false}, {plan.Offer{}, "eu", false},
	} {
		if got := c.o.InRegion(c.prefix); got != c.want {
			t.Errorf("%v in %q: %v, want %v", c.o.Regions, c.prefix, got, c.want)
		}
	}
}
