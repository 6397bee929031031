package plan_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// priced is o as offer id at a price, its price days old (-1: undated).
func priced(o plan.Offer, id string, price float64, days int, estimated, far bool) plan.Offer {
	o.ID, o.Provider, o.OnDemandPerHour, o.PriceAgeDays, o.AsOfEstimated, o.FarBelowMedian = id, id, price, days, estimated, far
	o.AsOf = "2026-01-01"
	return o
}

// bounded marks o's estimated date as the earliest its price can be from.
func bounded(o plan.Offer) plan.Offer {
	o.AsOfLowerBound = true
	return o
}

// hosted gives o a host of vcpus and ram GiB.
func hosted(o plan.Offer, vcpus int, ram float64) plan.Offer {
	o.VCPUs, o.RAMGiB = vcpus, ram
	return o
}

// TestPicksRestOnFreshPrices: with the default window, no pick rests on a
// stale, estimated or far-below-median price when the same GPU has a
// better-priced offer that runs the job, nor on a stale price when any
// fresh price runs it; with no fresh price anywhere the stale ones are
// picked, flagged; stale rows are planned and listed all the same.
func TestPicksRestOnFreshPrices(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 1e4, PromptTokens: 500, OutputTokens: 200}}
	l4 := gpuOffer(t, "l4", 1, estimator.BF16)
	a10 := gpuOffer(t, "a10", 1, estimator.BF16)
	for _, c := range []struct {
		name     string
		offers   []plan.Offer
		window   int
		cheapest string
		stale    []string // rows flagged Stale
		passed   []string // rows the picks pass over
	}{
		{"stale cheap, fresh dear: the fresh one", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(l4, "new", 0.8, 30, false, false)},
			0, "new", []string{"old"}, []string{"old"}},
		{"estimated date is not fresh", []plan.Offer{priced(l4, "est", 0.5, 30, true, false), priced(l4, "new", 0.8, 30, false, false)},
			0, "new", []string{"est"}, []string{"est"}},
		// SkyPilot's v9 files cannot predate 2026-07-09: AWS's, Lambda's
		// or Nebius's price of that date or later is at most that old, so
		// it is fresh inside the window; it was passed over for a dearer
		// dated price (Llama 3.1 8B at 5 req/s: GCP's RTX PRO 6000 at 3,285
		// USD a month over AWS's same GPU at 2,455 and Cudo's A800 at 618).
		{"an estimated date that is a lower bound is fresh", []plan.Offer{bounded(priced(l4, "v9", 0.5, 144, true, false)), priced(l4, "new", 0.8, 30, false, false)},
			0, "v9", nil, nil},
		{"a lower bound past the window is stale", []plan.Offer{bounded(priced(l4, "v9", 0.5, 200, true, false)), priced(l4, "new", 0.8, 30, false, false)},
			0, "new", []string{"v9"}, []string{"v9"}},
		// A host below the floor any GPU job needs (2 vCPUs, 8 GB a GPU):
		// Cudo's 2-vCPU, 4 GiB shapes beside an A800 or H100.
		{"a host below the floor is passed over", []plan.Offer{hosted(priced(l4, "tiny", 0.5, 30, false, false), 2, 4), hosted(priced(l4, "roomy", 0.52, 30, false, false), 4, 8)},
			0, "roomy", nil, []string{"tiny"}},
		{"only small hosts: still picked", []plan.Offer{hosted(priced(l4, "tiny", 0.5, 30, false, false), 2, 4)},
			0, "tiny", nil, nil},
		{"undated is not fresh", []plan.Offer{priced(l4, "undated", 0.5, -1, false, false), priced(l4, "new", 0.8, 30, false, false)},
			0, "new", []string{"undated"}, []string{"undated"}},
		{"a wider window keeps it", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(l4, "new", 0.8, 30, false, false)},
			500, "old", nil, nil},
		{"day 180 is inside the window", []plan.Offer{priced(l4, "edge", 0.5, 180, false, false), priced(l4, "new", 0.8, 30, false, false)},
			0, "edge", nil, nil},
		{"only stale offers of a GPU: still picked, flagged", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(l4, "older", 0.6, 800, false, false)},
			0, "old", []string{"old", "older"}, nil},
		{"another GPU's fresh price passes a stale one over", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(a10, "new", 5, 30, false, false)},
			0, "new", []string{"old"}, []string{"old"}},
		{"no fresh price anywhere: the stale ones are picked", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(a10, "older", 5, 500, false, false)},
			0, "old", []string{"old", "older"}, nil},
		{"far below the median: the normal price", []plan.Offer{priced(l4, "far", 0.1, 30, false, true), priced(l4, "new", 0.8, 30, false, false)},
			0, "new", nil, []string{"far"}},
		{"only far-below offers: still picked", []plan.Offer{priced(l4, "far", 0.1, 30, false, true)},
			0, "far", nil, nil},
		{"a fresh far-below price beats a stale normal one", []plan.Offer{priced(l4, "far", 0.1, 30, false, true), priced(l4, "old", 0.8, 400, false, false)},
			0, "far", []string{"old"}, []string{"old"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := req
			r.FreshnessDays = c.window
			res := mustPlan(t, r, c.offers, plan.Options{})
			if len(res.Rows) != len(c.offers) {
				t.Fatalf("%d rows for %d offers: every offer is planned and listed", len(res.Rows), len(c.offers))
			}
			if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != c.cheapest {
				t.Fatalf("cheapest %d, want %s", res.Cheapest, c.cheapest)
			}
			for i := range res.Rows {
				row := &res.Rows[i]
				id := row.Offer.ID
				if want := contains(c.stale, id); row.Stale != want {
					t.Errorf("%s: Stale %v, want %v", id, row.Stale, want)
				}
				want := contains(c.passed, id)
				if (row.PassedOver.Key != plan.NoMsg) != want || (want && row.Recommendation != plan.RecNone) {
					t.Errorf("%s: passed over %v (%s), recommendation %v", id, row.PassedOver, row.PassedOver, row.Recommendation)
				}
				if want && res.WhyNot(i).Key != row.PassedOver.Key {
					t.Errorf("%s: WhyNot %v, want %v", id, res.WhyNot(i), row.PassedOver)
				}
				if !row.Fits {
					t.Errorf("%s does not fit: %v", id, row.FitReason)
				}
			}
			for _, k := range []int{res.Fastest, res.Quickest, res.Value} {
				if k >= 0 && res.Rows[k].PassedOver.Key != plan.NoMsg {
					t.Errorf("pick %s rests on a passed-over row", res.Rows[k].Offer.ID)
				}
			}
		})
	}
}

// TestStaleElsewhereSaysWhich: an L4 price passed over because another
// GPU's fresh price runs the job says which staleness it has, as the same
// GPU's reasons do: an estimated date, or an age past the window's days.
// The sentence said "older than the freshness window or of an estimated
// date" for both.
func TestStaleElsewhereSaysWhich(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 1e4, PromptTokens: 500, OutputTokens: 200}}
	l4, a10 := gpuOffer(t, "l4", 1, estimator.BF16), gpuOffer(t, "a10", 1, estimator.BF16)
	for _, c := range []struct {
		old  plan.Offer
		key  plan.Msg
		want string
	}{
		{priced(l4, "old", 0.5, 400, false, false), plan.MsgReasonStaleElsewhere,
			"old l4: its price, from 2026-01-01, is older than the 180-day freshness window, and plans on prices dated within the window run the job: not picked (verify the price to use it)"},
		{priced(l4, "est", 0.5, 30, true, false), plan.MsgReasonStaleEstElsewhere,
			"est l4: its price's date, 2026-01-01, is an estimate, and plans on prices dated within the freshness window run the job: not picked (verify the price to use it)"},
	} {
		res := mustPlan(t, req, []plan.Offer{c.old, priced(a10, "new", 5, 30, false, false)}, plan.Options{})
		i := slices.IndexFunc(res.Rows, func(r plan.Row) bool { return r.Offer.ID == c.old.ID })
		if i < 0 {
			t.Fatalf("%s: no row in %v", c.old.ID, res.Rows)
		}
		if r := res.Rows[i]; r.PassedOver.Key != c.key || r.PassedOver.String() != c.want {
			t.Errorf("%s: %s\n got %q\nwant %q", c.old.ID, r.PassedOver.Key, r.PassedOver, c.want)
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// TestFreshnessWindowValidated: a negative or absurd window is a range
// error naming the field; 0 takes the default.
func TestFreshnessWindowValidated(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 10}}
	for _, d := range []int{-1, -180, 36501} {
		req.FreshnessDays = d
		var ie *estimator.InputError
		if err := req.Validate(); !errors.As(err, &ie) || ie.Field != "freshness-days" {
			t.Errorf("window %d: %v", d, err)
		}
	}
	req.FreshnessDays = 0
	res := mustPlan(t, req, []plan.Offer{gpuOffer(t, "l4", 1, estimator.BF16)}, plan.Options{})
	if res.FreshnessDays != plan.DefaultFreshnessDays {
		t.Errorf("window %d, want the default %d", res.FreshnessDays, plan.DefaultFreshnessDays)
	}
}

// TestCatalogPicksAreFresh: over the whole catalog dated 2026-11-26, no
// pick of a training, batch or serving plan rests on a stale price while
// a fresh offer of its GPU runs the job, nor on a far-below-median price
// while a normally priced one does.
func TestCatalogPicksAreFresh(t *testing.T) {
	cat := catalog.Default()
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	for _, mk := range []func(testing.TB) (plan.Request, []plan.Offer){trainingRequest, servingRequest} {
		req, _ := mk(t)
		offers := cat.PlanOffersAt(req.Input.Weights, today)
		res := mustPlan(t, req, offers, plan.Options{})
		checkRecommendations(t, req.Workload.Kind, &res)
		fresh, normal := map[string]bool{}, map[string]bool{}
		stale := 0
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Stale {
				stale++
			}
			if r.Fits && !r.Stale {
				fresh[r.Offer.GPU] = true
				if !r.Offer.FarBelowMedian {
					normal[r.Offer.GPU] = true
				}
			}
		}
		if stale == 0 || len(fresh) == 0 {
			t.Fatalf("%v: %d stale rows, %d GPUs with a fresh one: the test asks nothing", req.Workload.Kind, stale, len(fresh))
		}
		for _, k := range []int{res.Cheapest, res.Fastest, res.Quickest, res.Value} {
			if k < 0 {
				continue
			}
			r := &res.Rows[k]
			if r.Stale && fresh[r.Offer.GPU] {
				t.Errorf("%v: pick %s rests on a stale price (%s) while %s has a fresh one", req.Workload.Kind, r.Offer.ID, r.Offer.AsOf, r.Offer.GPU)
			}
			if !r.Stale && r.Offer.FarBelowMedian && normal[r.Offer.GPU] {
				t.Errorf("%v: pick %s is far below the median while %s has a normal price", req.Workload.Kind, r.Offer.ID, r.Offer.GPU)
			}
		}
	}
}

// TestAlonePickSaysWhyAlone: a cheapest pick alone among the rows the
// picks rest on says "on an unflagged price" only when its own price is
// unflagged and other fitting rows were passed over for theirs; a pick on
// a flagged price, or with no other row that fits, is never called
// unflagged (a stale MI325X price, the one offer of the GPU that runs the
// job, read "the only plan that fits on an unflagged price").
func TestAlonePickSaysWhyAlone(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 1e4, PromptTokens: 500, OutputTokens: 200}}
	l4 := gpuOffer(t, "l4", 1, estimator.BF16)
	for _, c := range []struct {
		name   string
		offers []plan.Offer
		key    plan.Msg
		text   string
	}{
		{"fresh pick, a stale row passed over", []plan.Offer{priced(l4, "old", 0.5, 400, false, false), priced(l4, "new", 0.8, 30, false, false)},
			plan.MsgReasonCheapestAlone, "new l4: the only plan that fits on an unflagged price, at 0.344 USD"},
		{"a stale price, nothing else fits", []plan.Offer{priced(l4, "old", 0.5, 400, false, false)},
			plan.MsgReasonCheapestOnly, "old l4: the only plan that fits, at 0.215 USD"},
		{"a fresh price, nothing else fits", []plan.Offer{priced(l4, "new", 0.8, 30, false, false)},
			plan.MsgReasonCheapestOnly, "new l4: the only plan that fits, at 0.344 USD"},
		{"a far-below pick, a stale row passed over", []plan.Offer{priced(l4, "far", 0.1, 30, false, true), priced(l4, "old", 0.8, 400, false, false)},
			plan.MsgReasonCheapestFlagged, "far l4: the only plan that fits on a price flagged no worse than its own, at 0.0431 USD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := mustPlan(t, req, c.offers, plan.Options{})
			why := res.WhyCheapest
			if why.Key != c.key || why.String() != c.text {
				t.Fatalf("cheapest's reason %s %q, want %s %q", why.Key, why, c.key, c.text)
			}
		})
	}
}
