package plan_test

import (
	"math"
	"testing"

	"rightsize/estimator/plan"
)

func flat(n int) (a [24]int) {
	for h := range a {
		a[h] = n
	}
	return a
}

// spiky is base replicas for hours 0–15 and peak for hours 16–23.
func spiky(base, peak int) (a [24]int) {
	for h := range a {
		a[h] = base
		if h >= 16 {
			a[h] = peak
		}
	}
	return a
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// checkRows: every choice's bill is the sum of its own rows, every row's
// bill the sum of its parts at the row's own counts, and the best mix is
// no dearer than any single price model.
func checkRows(t *testing.T, in plan.FleetInput, fp plan.FleetPlan) {
	t.Helper()
	for name, c := range map[string]plan.FleetChoice{"on-demand": fp.AllOnDemand, "spot": fp.AllSpot,
		"reserved-1y": fp.AllReserved1y, "reserved-3y": fp.AllReserved3y, "best": fp.Best} {
		if !c.Priced {
			continue
		}
		sum := 0.0
		for h, x := range c.Hours {
			rate := map[plan.Pricing]float64{plan.Reserved1y: in.Reserved1yPerHour, plan.Reserved3y: in.Reserved3yPerHour}[c.Term]
			if x.Hour != h || x.Need != in.Need[h] || x.Reserved+x.OnDemand+max(x.Spot-1, 0) < x.Need {
				t.Errorf("%s hour %d: %+v does not cover the need %d", name, h, x, in.Need[h])
			}
			if !near(x.ReservedUSD, float64(x.Reserved)*rate) || !near(x.OnDemandUSD, float64(x.OnDemand)*in.OnDemandPerHour) ||
				!near(x.SpotUSD, float64(x.Spot)*in.SpotPerHour) {
				t.Errorf("%s hour %d: parts %+v do not follow the counts", name, h, x)
			}
			if !near(x.USD, x.ReservedUSD+x.OnDemandUSD+x.SpotUSD+x.StartUpUSD+x.SpotReclaimUSD) || !near(x.MonthlyUSD, x.USD*730/24) {
				t.Errorf("%s hour %d: %+v does not add up", name, h, x)
			}
			sum += x.MonthlyUSD
		}
		if !near(sum, c.MonthlyUSD) {
			t.Errorf("%s: bill %.6f, its rows sum to %.6f", name, c.MonthlyUSD, sum)
		}
		if fp.Best.MonthlyUSD > c.MonthlyUSD+1e-9 && (name != "spot" || !in.NoSpot) {
			t.Errorf("best mix %.2f dearer than %s %.2f", fp.Best.MonthlyUSD, name, c.MonthlyUSD)
		}
	}
}

// Hand-computed fleets. 730/24 = 30.41666… days a month.
func TestFleetHandComputed(t *testing.T) {
	for _, c := range []struct {
		name                 string
		in                   plan.FleetInput
		od, spot, r1y        float64 // single choices' monthly bills
		best                 float64
		term                 plan.Pricing
		reserved             int
		bestOnDemandAtHour16 int
	}{
		// Flat 3 replicas, reserved 6 < on-demand 10: all reserved.
		// On demand 3 × 10 × 730 = 21,900; reserved 3 × 6 × 730 = 13,140.
		{name: "flat", in: plan.FleetInput{Need: flat(3), OnDemandPerHour: 10, Reserved1yPerHour: 6, BillingGranularity: "second"},
			od: 21900, r1y: 13140, best: 13140, term: plan.Reserved1y, reserved: 3},
		// 2 replicas for 16 h, 5 for 8 h; u* = 6/10 = 0.6. The base two
		// are busy 24/24 h > u*, the peak three 8/24 = 0.33 < u*: commit
		// two, rent three for 8 h. A day: 2 × 6 × 24 + 3 × 10 × 8 = 528,
		// × 730/24 = 16,060. All on demand: (2 × 16 + 5 × 8) × 10 = 720 a
		// day = 21,900; all reserved at the peak: 5 × 6 × 24 = 720 = 21,900.
		{name: "spiky", in: plan.FleetInput{Need: spiky(2, 5), OnDemandPerHour: 10, Reserved1yPerHour: 6, BillingGranularity: "second"},
			od: 21900, r1y: 21900, best: 16060, term: plan.Reserved1y, reserved: 2, bestOnDemandAtHour16: 3},
		// The same on demand only, with a 20-minute start-up billed by the
		// hour: the three joining at 16:00 each pay an hour: 720 + 30 =
		// 750 a day = 22,812.5.
		{name: "hour-billed start-up", in: plan.FleetInput{Need: spiky(2, 5), OnDemandPerHour: 10, StartUpSeconds: 1200, BillingGranularity: "hour"},
			od: 22812.5, best: 22812.5, term: plan.OnDemand, bestOnDemandAtHour16: 5},
		// Billed by the second: 3 × 1/3 h × 10 = 10 a day: 730 × 30 +
		// 10 × 730/24 = 22,204.1666…
		{name: "second-billed start-up", in: plan.FleetInput{Need: spiky(2, 5), OnDemandPerHour: 10, StartUpSeconds: 1200, BillingGranularity: "second"},
			od: 22204.166666666668, best: 22204.166666666668, term: plan.OnDemand, bestOnDemandAtHour16: 5},
		// Spot at 3 with a spare: 4 replicas × 3 = 12 an hour; reclaims
		// 4 × 0.25/730 an hour, each billed 600 s = 1/6 h at 3: 0.5/730 an
		// hour. A month: 12 × 730 + 0.5 = 8,760.5, below on demand 21,900.
		{name: "spot with a spare", in: plan.FleetInput{Need: flat(3), OnDemandPerHour: 10, SpotPerHour: 3, StartUpSeconds: 600,
			SpotInterruptionsPerMonth: 0.25, BillingGranularity: "second"},
			od: 21900, spot: 8760.5, best: 8760.5, term: plan.OnDemand},
		// A month-billed offer holds its peak: 5 × 10 × 730 = 36,500.
		{name: "month-billed", in: plan.FleetInput{Need: spiky(2, 5), OnDemandPerHour: 10, BillingGranularity: "month"},
			od: 36500, best: 36500, term: plan.OnDemand, bestOnDemandAtHour16: 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			fp, err := plan.Fleet(c.in)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, c.in, fp)
			for _, g := range []struct {
				what      string
				got, want float64
			}{{"all on demand", fp.AllOnDemand.MonthlyUSD, c.od}, {"all spot", fp.AllSpot.MonthlyUSD, c.spot},
				{"all reserved 1y", fp.AllReserved1y.MonthlyUSD, c.r1y}, {"best", fp.Best.MonthlyUSD, c.best}} {
				if !near(g.got, g.want) {
					t.Errorf("%s: %.6f, want %.6f", g.what, g.got, g.want)
				}
			}
			if fp.Best.Term != c.term || fp.Best.Reserved != c.reserved || fp.Best.Hours[16].OnDemand != c.bestOnDemandAtHour16 {
				t.Errorf("best: %s × %d, %d on demand at 16:00; want %s × %d, %d", fp.Best.Term, fp.Best.Reserved,
					fp.Best.Hours[16].OnDemand, c.term, c.reserved, c.bestOnDemandAtHour16)
			}
			if !near(fp.SavingUSD, c.od-c.best) {
				t.Errorf("saving %.4f, want %.4f", fp.SavingUSD, c.od-c.best)
			}
		})
	}
}

// TestFleetSpotPaysOff: the best mix serves on spot only where it stays
// cheaper than the mix without it after paying for a second spare
// replica (fleetCost.secondSpare): a 2% saving on three replicas does
// not flip the pick, a large saving does, and the plan says what spot
// would have cost.
func TestFleetSpotPaysOff(t *testing.T) {
	for _, c := range []struct {
		name                  string
		spot                  float64
		best, declined, spare float64
		spotHeld              int
	}{
		// On demand 3 × 10 × 730 = 21,900. Spot at 7.35 with its spare:
		// 4 × 7.35 × 730 = 21,462, 2% less; a second spare costs
		// 7.35 × 730 = 5,365.5, more than the 438 saved: on demand.
		{name: "2% saving", spot: 7.35, best: 21900, declined: 21462, spare: 5365.5},
		// Spot at 3: 4 × 3 × 730 = 8,760, and a second spare (2,190)
		// still leaves it far below on demand: spot.
		{name: "large saving", spot: 3, best: 8760, spotHeld: 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := plan.FleetInput{Need: flat(3), OnDemandPerHour: 10, SpotPerHour: c.spot, BillingGranularity: "second"}
			fp, err := plan.Fleet(in)
			if err != nil {
				t.Fatal(err)
			}
			if !near(fp.Best.MonthlyUSD, c.best) || fp.Best.Hours[0].Spot != c.spotHeld {
				t.Errorf("best %.2f with %d on spot, want %.2f with %d", fp.Best.MonthlyUSD, fp.Best.Hours[0].Spot, c.best, c.spotHeld)
			}
			if !near(fp.DeclinedSpotMonthlyUSD, c.declined) || !near(fp.SecondSpareMonthlyUSD, c.spare) {
				t.Errorf("declined spot %.2f, second spare %.2f; want %.2f, %.2f", fp.DeclinedSpotMonthlyUSD, fp.SecondSpareMonthlyUSD, c.declined, c.spare)
			}
			if !near(fp.AllSpot.MonthlyUSD, 4*c.spot*plan.HoursPerMonth) {
				t.Errorf("all spot %.2f, want it still shown: %.2f", fp.AllSpot.MonthlyUSD, 4*c.spot*plan.HoursPerMonth)
			}
		})
	}
}

// The committed count follows the break-even utilisation: replica k is
// committed when the share of hours it is busy exceeds u* = r/o.
func TestFleetBreakEven(t *testing.T) {
	// A staircase: replica k (1-based) busy 24 − 2(k−1) hours of the day.
	var need [24]int
	for h := range need {
		need[h] = 1 + min(h/2, 11)
	}
	for _, r := range []float64{2, 4.5, 6, 8.5, 9.9} {
		in := plan.FleetInput{Need: need, OnDemandPerHour: 10, Reserved1yPerHour: r, BillingGranularity: "second"}
		fp, err := plan.Fleet(in)
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, in, fp)
		u := r / 10
		if !near(fp.BreakEven1y, u) {
			t.Errorf("r %g: break-even %g, want %g", r, fp.BreakEven1y, u)
		}
		want := 0
		for k := 1; k <= 12; k++ {
			if busy := float64(24-2*(k-1)) / 24; busy > u {
				want = k
			}
		}
		if fp.Best.Reserved != want {
			t.Errorf("r %g (u* %.3f): %d committed, want %d", r, u, fp.Best.Reserved, want)
		}
	}
}

// Bad inputs are errors, not plans.
func TestFleetRejects(t *testing.T) {
	for _, in := range []plan.FleetInput{{OnDemandPerHour: -1}, {OnDemandPerHour: math.NaN()}, {Need: [24]int{-1}}, {StartUpSeconds: math.Inf(1)}} {
		if _, err := plan.Fleet(in); err == nil {
			t.Errorf("%+v: no error", in)
		}
	}
	if err := (plan.LoadCurve{}).Validate(); err == nil {
		t.Error("an all-zero curve validates")
	}
}

// chatCurve is a daily curve with a night trough and an evening peak
// (requests/s by hour), a shape for the tests and the benchmark.
var chatCurve = plan.LoadCurve{4, 3, 2, 2, 2, 3, 5, 8, 12, 15, 16, 17, 18, 17, 16, 16, 17, 18, 20, 20, 18, 14, 10, 6}

// Over the catalog, each fleet's peak hour has the peak plan's replicas,
// quieter hours no more, and its bills add up.
func TestPlanFleetCatalog(t *testing.T) {
	req, offers := servingRequest(t)
	res, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve, Rows: 12})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) == 0 {
		t.Fatal("no fleets")
	}
	for i, fr := range res.Rows {
		if !fr.Sized {
			t.Errorf("%s: not sized: %v", fr.Row.Offer.ID, fr.Reason)
			continue
		}
		fp := fr.Plan
		if fp.Peak != fr.Row.Replicas {
			t.Errorf("%s: peak %d replicas, the peak plan %d", fr.Row.Offer.ID, fp.Peak, fr.Row.Replicas)
		}
		for h, x := range fp.AllOnDemand.Hours {
			if chatCurve[h] < chatCurve.Peak()/2 && x.Need > fp.Peak {
				t.Errorf("%s hour %d: %d replicas at %.0f req/s, peak %d", fr.Row.Offer.ID, h, x.Need, chatCurve[h], fp.Peak)
			}
		}
		var in plan.FleetInput
		for h, x := range fp.AllOnDemand.Hours {
			in.Need[h] = x.Need
		}
		if i > 0 && fp.Best.MonthlyUSD < res.Rows[i-1].Plan.Best.MonthlyUSD {
			t.Errorf("row %d cheaper than row %d", i, i-1)
		}
		if fp.Best.MonthlyUSD > fp.AllOnDemand.MonthlyUSD+1e-9 {
			t.Errorf("%s: best %.0f above all on demand %.0f", fr.Row.Offer.ID, fp.Best.MonthlyUSD, fp.AllOnDemand.MonthlyUSD)
		}
		if i < 3 {
			t.Logf("%s %s: %d..%d replicas; on demand %.0f, spot %.0f, 1y %.0f, best %s × %d %.0f USD/month (−%.0f%%)", fr.Row.Offer.ID, fr.Row.Offer.GPU,
				fp.Min, fp.Peak, fp.AllOnDemand.MonthlyUSD, fp.AllSpot.MonthlyUSD, fp.AllReserved1y.MonthlyUSD, fp.Best.Term, fp.Best.Reserved, fp.Best.MonthlyUSD, 100*fp.SavingShare)
		}
	}
}

// BenchmarkFleet plans a daily curve over the whole catalog: "plan" is
// PlanFleet (the peak plan, then a fleet for every fitting row: the
// simulator's per-copy rate and the day's pricing); "price" is Fleet alone
// over every row's day, the part the page re-runs when only a price model
// or a start-up changes.
func BenchmarkFleet(b *testing.B) {
	req, offers := servingRequest(b)
	fo := plan.FleetOptions{Curve: chatCurve}
	b.Run("plan", func(b *testing.B) {
		b.ReportAllocs()
		start, n := cpuTime(), 0
		for b.Loop() {
			if _, err := plan.PlanFleet(req, offers, plan.Options{}, fo); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if cpu := cpuTime() - start; cpu > 0 && n > 0 {
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
		}
	})
	res, err := plan.PlanFleet(req, offers, plan.Options{}, fo)
	if err != nil {
		b.Fatal(err)
	}
	ins := make([]plan.FleetInput, 0, len(res.Rows))
	for _, fr := range res.Rows {
		if !fr.Sized {
			continue
		}
		in := plan.FleetInput{StartUpSeconds: fr.StartUpSeconds, SpotInterruptionsPerMonth: fr.SpotInterruptionsPerMonth,
			BillingGranularity: fr.Row.Offer.BillingGranularity, OnDemandPerHour: fr.Plan.AllOnDemand.Hours[0].OnDemandUSD / float64(max(fr.Plan.AllOnDemand.Hours[0].OnDemand, 1)),
			SpotPerHour: 0.4 * fr.Row.PricePerHourUSD, Reserved1yPerHour: 0.6 * fr.Row.PricePerHourUSD, Reserved3yPerHour: 0.4 * fr.Row.PricePerHourUSD}
		for h, x := range fr.Plan.AllOnDemand.Hours {
			in.Need[h] = x.Need
		}
		ins = append(ins, in)
	}
	b.Run("price", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range ins {
				if _, err := plan.Fleet(in); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(len(ins)), "offers")
	})
}

// An owned GPU's break-even follows from its inputs by hand: $25,000
// over 5 years is 25,000/43,800 = 0.570776 $/h; 700 W × 1.5 × $0.10 =
// 0.105 $/busy hour; against $2.50 rented, u* = 0.570776/(2.5 − 0.105) =
// 0.238320; at u = 0.5 a busy hour costs 0.570776/0.5 + 0.105 = 1.246553.
func TestOwnCost(t *testing.T) {
	c, err := plan.OwnCost(plan.Owned{PriceUSD: 25000, Watts: 700, PUE: 1.5, KWhUSD: 0.10, DepreciationYears: 5, Utilisation: 0.5}, 2.5)
	if err != nil {
		t.Fatal(err)
	}
	capital := 25000.0 / (5 * 8760)
	for _, g := range []struct {
		what      string
		got, want float64
	}{{"capital", c.CapitalPerHourUSD, capital}, {"energy", c.EnergyPerBusyHourUSD, 0.105},
		{"busy hour", c.PerBusyGPUHourUSD, capital/0.5 + 0.105}, {"break-even", c.BreakEvenUtilisation, capital / (2.5 - 0.105)}} {
		if !near(g.got, g.want) {
			t.Errorf("%s: %.6f, want %.6f", g.what, g.got, g.want)
		}
	}
	if math.Abs(c.BreakEvenUtilisation-0.238320) > 1e-6 {
		t.Errorf("break-even %.6f, by hand 0.238320", c.BreakEvenUtilisation)
	}
	// At the break-even, owning and renting the busy hours cost the same.
	u := c.BreakEvenUtilisation
	if own, rent := capital+u*0.105, u*2.5; !near(own, rent) {
		t.Errorf("at u* owning %.6f, renting %.6f", own, rent)
	}
	// Energy above the rented price: owning never pays.
	if c, _ := plan.OwnCost(plan.Owned{PriceUSD: 1, Watts: 1000, KWhUSD: 10, DepreciationYears: 1, Utilisation: 1}, 1); !math.IsInf(c.BreakEvenUtilisation, 1) {
		t.Errorf("break-even %g, want +Inf", c.BreakEvenUtilisation)
	}
	for _, o := range []plan.Owned{{}, {PriceUSD: 1, DepreciationYears: 1, Utilisation: 1.5}, {PriceUSD: 1, DepreciationYears: 1, Utilisation: 1, PUE: 0.5}} {
		if _, err := plan.OwnCost(o, 1); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// Size classes share the copies: a class split in two halves of the same
// size needs the same replicas every hour as the class whole, and one
// class of the request's own size stays within a replica of the plain
// plan (its per-copy rate is bisected afresh).
func TestPlanFleetBuckets(t *testing.T) {
	req, offers := servingRequest(t)
	plain, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve, Rows: 4})
	if err != nil {
		t.Fatal(err)
	}
	one := []plan.Bucket{{PromptTokens: 500, OutputTokens: 200, Share: 1}}
	halves := []plan.Bucket{{PromptTokens: 500, OutputTokens: 200, Share: 0.5}, {PromptTokens: 500, OutputTokens: 200, Share: 0.5}}
	a, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve, Rows: 4, Buckets: one})
	if err != nil {
		t.Fatal(err)
	}
	b, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve, Rows: 4, Buckets: halves})
	if err != nil {
		t.Fatal(err)
	}
	need := func(res plan.FleetResult) map[string][24]int {
		m := map[string][24]int{}
		for _, fr := range res.Rows {
			var n [24]int
			for h, x := range fr.Plan.AllOnDemand.Hours {
				n[h] = x.Need
			}
			m[fr.Row.Offer.ID] = n
		}
		return m
	}
	np, na, nb := need(plain), need(a), need(b)
	if len(na) == 0 {
		t.Fatal("no fleets")
	}
	for id, x := range na {
		if nb[id] != x {
			t.Errorf("%s: one class %v, two halves %v", id, x, nb[id])
		}
		for h := range x {
			if d := x[h] - np[id][h]; d < -1 || d > 1 {
				t.Errorf("%s hour %d: one class %d replicas, the plain plan %d", id, h, x[h], np[id][h])
			}
		}
	}
}

// A fleet of few offers (FleetOptions.Rows) is chosen under every price
// model its best mix may use, not on demand alone: the offers with the
// cheapest spot or reserved peak get a fleet too, so the day's best mix
// is never dearer than among the on-demand leaders, and here cheaper.
func TestFleetCandidatesByPriceModel(t *testing.T) {
	req, offers := servingRequest(t)
	all, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve})
	if err != nil {
		t.Fatal(err)
	}
	few, err := plan.PlanFleet(req, offers, plan.Options{}, plan.FleetOptions{Curve: chatCurve, Rows: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The three offers the peak plan ranks first on demand, and their
	// cheapest best mix: what a fleet of three offers chose from before.
	lead := map[string]bool{}
	for i := range few.Peak.Rows {
		if r := &few.Peak.Rows[i]; r.Fits && r.PassedOver.Key == plan.NoMsg && len(lead) < 3 {
			lead[r.Offer.ID] = true
		}
	}
	onDemandBest := math.Inf(1)
	for _, fr := range all.Rows {
		if fr.Sized && lead[fr.Row.Offer.ID] {
			onDemandBest = min(onDemandBest, fr.Plan.Best.MonthlyUSD)
		}
	}
	if len(few.Rows) <= 3 || len(few.Rows) > 12 {
		t.Fatalf("%d fleets for 3 offers per price model, want 4..12", len(few.Rows))
	}
	got := few.Rows[0].Plan.Best.MonthlyUSD
	if !(got < onDemandBest) || got < all.Rows[0].Plan.Best.MonthlyUSD {
		t.Errorf("best mix of the chosen offers %.0f USD/month (%s), of the on-demand leaders %.0f, of every offer %.0f",
			got, few.Rows[0].Row.Offer.ID, onDemandBest, all.Rows[0].Plan.Best.MonthlyUSD)
	}
	t.Logf("%d fleets: best %s %.0f USD/month; on-demand leaders' best %.0f; every offer's best %s %.0f",
		len(few.Rows), few.Rows[0].Row.Offer.ID, got, onDemandBest, all.Rows[0].Row.Offer.ID, all.Rows[0].Plan.Best.MonthlyUSD)
}
