package plan

import (
	"math"
	"slices"
	"strconv"

	"rightsize/estimator"
)

// Daily load and price models together. A serving deployment's load
// follows the day; its replicas follow the load, and each replica can be
// committed for a term (reserved: paid every hour of the term), rented on
// demand by the hour, or rented on spot with a spare. Fleet chooses the
// mix with the lowest monthly bill for one offer and shows each single
// price model beside it, hour by hour.
//
// The arithmetic, each part with its source:
//   - A committed replica is billed every hour at the term's effective
//     rate r and serves the base; it wins over on-demand o for the hours
//     it is busy when their share exceeds the break-even utilisation
//     u* = r/o (docs/planning.md, "Reserved and committed prices"). Fleet
//     tries every committed count from 0 to the peak, so it finds that
//     count without assuming the rest of the fleet is on demand.
//   - Replicas above the committed ones run on demand or on spot in each
//     hour. Spot holds one spare replica whenever it holds any, to absorb
//     a reclaim (docs/planning.md, "online serving on spot needs spare
//     replicas"; the serving planner's rule, servingTech), and each
//     reclaim bills a replacement's start-up: reclaims per hour = spot
//     replicas × the monthly reclaim share / 730 (the planner's spot
//     model, spotParams).
//   - A replica that joins in hour h starts StartUpSeconds before it, and
//     the start-up is billed at the offer's granularity: a second-billed
//     replica pays StartUpSeconds/3,600 h, a minute-billed one the whole
//     minutes, an hour-billed one the whole hours (a replica started for
//     20 minutes costs the hour). The catalog's BillingGranularity gives
//     the unit; where it is empty the hour is assumed (the dearer reading).
//     A month-billed offer cannot follow the day: its rented replicas are
//     held at their peak every hour.
//   - A month is HoursPerMonth hours: every hour of the day repeats
//     HoursPerMonth/24 times, so a row's monthly bill is its hour's bill ×
//     730/24 and a choice's bill is the sum of its 24 rows.
//
// The choice of on-demand or spot for the replicas above the commitment is
// made per hour by dynamic programming over the day (a cycle: hour 23
// precedes hour 0), because a switch between them starts new replicas.

// LoadCurve is the request rate in each hour of the day, requests/s, hour
// 0 first (the user's clock).
type LoadCurve [24]float64

// Peak is the curve's highest rate.
func (c LoadCurve) Peak() float64 {
	m := 0.0
	for _, v := range c {
		m = math.Max(m, v)
	}
	return m
}

// Mean is the curve's mean rate.
func (c LoadCurve) Mean() float64 {
	s := 0.0
	for _, v := range c {
		s += v
	}
	return s / 24
}

// Validate rejects negative, non-finite or all-zero curves.
func (c LoadCurve) Validate() error {
	for _, v := range c {
		if !okNonNeg(v) {
			return &estimator.InputError{Field: "load-curve", Value: fleetNum(v), Err: estimator.ErrRange, Reason: "want 24 rates ≥ 0 requests/s"}
		}
	}
	if c.Peak() == 0 {
		return &estimator.InputError{Field: "load-curve", Value: "0", Err: estimator.ErrRange, Reason: "want at least one hour above 0 requests/s"}
	}
	return nil
}

// FleetInput is one offer's fleet question: the replicas each hour
// needs and the prices of one replica-hour (USD, all of a replica's
// instances; 0: not offered).
type FleetInput struct {
	Need [24]int

	OnDemandPerHour, SpotPerHour, Reserved1yPerHour, Reserved3yPerHour float64

	// BillingGranularity is the offer's: "second", "minute", "hour",
	// "month", or "" (the hour is assumed).
	BillingGranularity string
	// StartUpSeconds is a new replica's time from launch to serving
	// (provisioning, loading weights, the engine's warm-up).
	StartUpSeconds float64
	// SpotInterruptionsPerMonth is the share of spot replicas reclaimed
	// per 730 h.
	SpotInterruptionsPerMonth float64
	// NoSpot keeps spot out of the best mix (it is still shown alone).
	NoSpot bool
}

// FleetHour is one hour of the day in one choice: the replicas by price
// model and that hour's bill.
type FleetHour struct {
	Hour int
	Need int // replicas the hour's load needs
	// Reserved is the committed replicas (all of them, busy or not);
	// OnDemand and Spot the rented ones (Spot counts the spare).
	Reserved, OnDemand, Spot int
	// The hour's bill, USD for one day's hour: commitment, on-demand and
	// spot replica-hours, start-ups of replicas joining this hour (billed
	// at the granularity) and the expected spot replacements.
	ReservedUSD, OnDemandUSD, SpotUSD, StartUpUSD, SpotReclaimUSD float64
	USD                                                           float64 // their sum
	MonthlyUSD                                                    float64 // USD × 730/24
}

// FleetChoice is one way to buy the fleet.
type FleetChoice struct {
	// Term is the commitment's price model (Reserved1y or Reserved3y), or
	// OnDemand when nothing is committed.
	Term     Pricing
	Reserved int // replicas committed
	// Priced is false when the offer lacks a price the choice needs.
	Priced     bool
	Hours      [24]FleetHour
	MonthlyUSD float64 // the sum of Hours' MonthlyUSD
}

// FleetPlan is the answer for one offer.
type FleetPlan struct {
	Peak, Min int // replicas at the busiest and quietest hour
	// Each single price model: all on demand, all on spot (with its
	// spare), all committed at the peak for one or three years.
	AllOnDemand, AllSpot, AllReserved1y, AllReserved3y FleetChoice
	// Best is the cheapest mix of a commitment (either term, or none) and
	// on-demand or spot replicas per hour.
	Best FleetChoice
	// SavingUSD is AllOnDemand's bill less Best's per month, and
	// SavingShare that as a share of AllOnDemand's (0 when it is unpriced).
	SavingUSD, SavingShare float64
	// BreakEven1y and BreakEven3y are u* = r/o for each term (0: unpriced).
	BreakEven1y, BreakEven3y float64
	// DeclinedSpotMonthlyUSD is, where the cheapest mix served on spot
	// but saved less than a second spare replica would cost
	// (SecondSpareMonthlyUSD; fleetCost.secondSpare), that mix's monthly
	// bill: Best is then the cheapest mix without spot. 0: spot was not
	// declined.
	DeclinedSpotMonthlyUSD, SecondSpareMonthlyUSD float64
	// BilledStartUpHours is what one start-up is billed, in hours.
	BilledStartUpHours float64
	// AssumedHourBilling is set when the offer names no granularity.
	AssumedHourBilling bool
}

// fleetNum is a value in an error message.
func fleetNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// billedHours is what a start-up of s seconds is billed at granularity g:
// whole units of it, and whole hours where g is "" (the dearer reading) or
// "month" (a month-billed replica is held all month and starts no more).
func billedHours(s float64, g string) float64 {
	if !(s > 0) {
		return 0
	}
	if g == "" || g == "month" {
		g = "hour"
	}
	return roundUpTo(s, billingUnitSeconds(g)) / 3600
}

// mode is how the replicas above the commitment are rented in an hour.
type mode int

const (
	rentOnDemand mode = iota
	rentSpot
)

// fleetCost prices choices for one FleetInput.
type fleetCost struct {
	in      *FleetInput
	startup float64 // billed hours per start-up
	reclaim float64 // spot reclaims per replica-hour
	month   bool
}

// counts is hour h's rented replicas under commitment r and mode m.
func (f *fleetCost) counts(h, r int, m mode, hold int) (od, spot int) {
	rem := max(f.in.Need[h]-r, 0)
	if f.month {
		rem = hold
	}
	if rem == 0 {
		return 0, 0
	}
	if m == rentSpot {
		return 0, rem + 1 // the spare
	}
	return rem, 0
}

// cost is hour h's bill (USD, one day's hour) under commitment r at
// rate rate, mode m, after an hour in mode prev: hour's USD without the
// row.
func (f *fleetCost) cost(h, r int, rate float64, m, prev mode, hold int) float64 {
	in := f.in
	od, sp := f.counts(h, r, m, hold)
	v := float64(r)*rate + float64(od)*in.OnDemandPerHour + float64(sp)*in.SpotPerHour
	if !f.month {
		pod, psp := f.counts((h+23)%24, r, prev, hold)
		v += f.startup * (float64(max(od-pod, 0))*in.OnDemandPerHour + float64(max(sp-psp, 0))*in.SpotPerHour)
	}
	return v + float64(sp)*f.reclaim*f.startup*in.SpotPerHour
}

// hour fills hour h's row under commitment r at rate rate, mode m, after
// an hour in mode prev.
func (f *fleetCost) hour(h, r int, rate float64, m, prev mode, hold int) FleetHour {
	in := f.in
	od, sp := f.counts(h, r, m, hold)
	pod, psp := f.counts((h+23)%24, r, prev, hold)
	x := FleetHour{Hour: h, Need: in.Need[h], Reserved: r, OnDemand: od, Spot: sp}
	x.ReservedUSD = float64(r) * rate
	x.OnDemandUSD = float64(od) * in.OnDemandPerHour
	x.SpotUSD = float64(sp) * in.SpotPerHour
	if !f.month {
		x.StartUpUSD = f.startup * (float64(max(od-pod, 0))*in.OnDemandPerHour + float64(max(sp-psp, 0))*in.SpotPerHour)
	}
	x.SpotReclaimUSD = float64(sp) * f.reclaim * f.startup * in.SpotPerHour
	x.USD = x.ReservedUSD + x.OnDemandUSD + x.SpotUSD + x.StartUpUSD + x.SpotReclaimUSD
	x.MonthlyUSD = x.USD * HoursPerMonth / 24
	return x
}

// fixed is the choice with commitment r at rate rate and every hour in
// mode m.
func (f *fleetCost) fixed(term Pricing, r int, rate float64, m mode, hold int) FleetChoice {
	c := FleetChoice{Term: term, Reserved: r, Priced: true}
	for h := range 24 {
		c.Hours[h] = f.hour(h, r, rate, m, m, hold)
		c.MonthlyUSD += c.Hours[h].MonthlyUSD
	}
	return c
}

// best is the cheapest day with commitment r: each hour's mode by
// dynamic programming over the day's cycle (the mode of hour 23 is the
// "previous" of hour 0), on demand winning ties. It returns the day's
// bill (USD) and the modes.
func (f *fleetCost) best(r int, rate float64, spot bool, hold int) (float64, [24]mode) {
	modes := []mode{rentOnDemand}
	if spot {
		modes = append(modes, rentSpot)
	}
	bestCost, bestSeq := math.Inf(1), [24]mode{}
	for _, last := range modes {
		// cost[m] is the cheapest day so far ending in mode m; from[h][m]
		// the mode of hour h−1 on that path.
		var from [24][2]mode
		cost := [2]float64{math.Inf(1), math.Inf(1)}
		for _, m := range modes {
			cost[m] = f.cost(0, r, rate, m, last, hold)
			from[0][m] = last
		}
		for h := 1; h < 24; h++ {
			next := [2]float64{math.Inf(1), math.Inf(1)}
			for _, m := range modes {
				for _, pm := range modes {
					if v := cost[pm] + f.cost(h, r, rate, m, pm, hold); v < next[m]-1e-9 {
						next[m], from[h][m] = v, pm
					}
				}
			}
			cost = next
		}
		// The day must end in the mode it assumed before hour 0.
		if cost[last] < bestCost-1e-9 {
			bestCost = cost[last]
			bestSeq[23] = last
			for h := 23; h > 0; h-- {
				bestSeq[h-1] = from[h][bestSeq[h]]
			}
		}
	}
	return bestCost, bestSeq
}

// choice itemises the day with commitment r and modes seq.
func (f *fleetCost) choice(term Pricing, r int, rate float64, seq [24]mode, hold int) FleetChoice {
	c := FleetChoice{Term: term, Reserved: r, Priced: true}
	for h := range 24 {
		c.Hours[h] = f.hour(h, r, rate, seq[h], seq[(h+23)%24], hold)
		c.MonthlyUSD += c.Hours[h].MonthlyUSD
	}
	return c
}

// fleetCand is a candidate best mix: its commitment and each hour's mode.
type fleetCand struct {
	term Pricing
	r    int
	rate float64
	seq  [24]mode
}

// search is the cheapest mix (and its day's bill; +Inf where none is
// priced) of a commitment (none, or r of either term at t1 or t2 at
// rates r1 and r2) and each hour's remainder on demand, or on spot where
// spot is set. Without a rented price the commitment must cover the peak.
func (f *fleetCost) search(in FleetInput, t1 Pricing, r1 float64, t2 Pricing, r2 float64, peak int, hold func(int) int, spot bool) (fleetCand, float64) {
	od := in.OnDemandPerHour > 0
	rent := od || spot
	var win fleetCand
	winCost := math.Inf(1)
	consider := func(term Pricing, r int, rate float64) {
		var v float64
		var seq [24]mode
		if od {
			v, seq = f.best(r, rate, spot, hold(r))
		} else {
			for h := range seq {
				seq[h] = rentSpot
			}
			for h := range 24 {
				v += f.cost(h, r, rate, rentSpot, rentSpot, hold(r))
			}
		}
		if v < winCost-1e-9 {
			win, winCost = fleetCand{term, r, rate, seq}, v
		}
	}
	if rent {
		consider(OnDemand, 0, 0)
	}
	// The bill is linear in the committed count between two adjacent
	// levels of the need (the same hours have replicas above it), so the
	// cheapest count is one of the levels: try those.
	var levels []int
	for _, n := range in.Need {
		if n > 0 && !slices.Contains(levels, n) && (rent || n == peak) {
			levels = append(levels, n)
		}
	}
	slices.Sort(levels)
	for _, t := range []struct {
		p    Pricing
		rate float64
	}{{t1, r1}, {t2, r2}} {
		if !(t.rate > 0) {
			continue
		}
		for _, r := range levels {
			consider(t.p, r, t.rate)
		}
	}
	return win, winCost
}

// secondSpare is what a second spare spot replica would add to c's
// monthly bill (USD): one more spot replica, with its expected reclaims'
// start-ups, in every hour c holds spot; 0 where c holds none.
//
// spotPaysOff: serving on spot takes a risk its spare replica absorbs
// only in part. The spare covers one reclaim until its replacement
// starts; a daily fleet of one offer is one spot pool ("a set of unused
// EC2 instances with the same instance type ... and Availability Zone",
// AWS whitepaper "Cost optimization: leveraging EC2 Spot Instances",
// Spot Instance Best Practices, docs.aws.amazon.com/whitepapers/latest/
// cost-optimization-leveraging-ec2-spot-instances/spot-best-practices.html,
// read 2026-11-30), whose reclaims come together when the provider
// needs that pool back, which is why AWS advises spreading over pools;
// and the providers' guides advise against spot for production serving
// (docs/planning.md, "Online serving on spot needs spare replicas"). So
// the mix takes spot only where it stays cheaper than the best mix
// without it after paying for a second reclaim as well: a second spare
// replica in every hour it holds spot. A saving smaller than one spot
// replica's bill (2% on a fleet of a few replicas) is not worth the
// reclaims; on a large fleet that spare is a small share and spot keeps
// its pick.
func (f *fleetCost) secondSpare(c FleetChoice) float64 {
	usd := 0.0
	for _, h := range c.Hours {
		if h.Spot > 0 {
			usd += f.in.SpotPerHour * (1 + f.reclaim*f.startup)
		}
	}
	return usd * HoursPerMonth / 24
}

// Fleet plans one offer's fleet over the day: each single price model and
// the cheapest mix (see the comment at the top of fleet.go).
func Fleet(in FleetInput) (FleetPlan, error) {
	for _, v := range []float64{in.OnDemandPerHour, in.SpotPerHour, in.Reserved1yPerHour, in.Reserved3yPerHour, in.StartUpSeconds, in.SpotInterruptionsPerMonth} {
		if !okNonNeg(v) {
			return FleetPlan{}, &estimator.InputError{Field: "fleet", Value: fleetNum(v), Err: estimator.ErrRange, Reason: "want prices, start-up and reclaim share ≥ 0"}
		}
	}
	out := FleetPlan{Min: math.MaxInt}
	for _, n := range in.Need {
		if n < 0 || n > 1<<20 {
			return FleetPlan{}, &estimator.InputError{Field: "fleet", Value: fleetNum(float64(n)), Err: estimator.ErrRange, Reason: "want 0 to 2^20 replicas per hour"}
		}
		out.Peak, out.Min = max(out.Peak, n), min(out.Min, n)
	}
	f := &fleetCost{in: &in, startup: billedHours(in.StartUpSeconds, in.BillingGranularity), month: in.BillingGranularity == "month"}
	out.BilledStartUpHours = f.startup
	out.AssumedHourBilling = in.BillingGranularity == ""
	f.reclaim = in.SpotInterruptionsPerMonth / HoursPerMonth
	// hold is the rented replicas a month-billed offer keeps all month
	// above commitment r: the peak's remainder.
	hold := func(r int) int { return max(out.Peak-r, 0) }
	od, spot := in.OnDemandPerHour > 0, in.SpotPerHour > 0
	if od {
		out.AllOnDemand = f.fixed(OnDemand, 0, 0, rentOnDemand, hold(0))
	}
	if spot {
		out.AllSpot = f.fixed(OnDemand, 0, 0, rentSpot, hold(0))
	}
	terms := []struct {
		p    Pricing
		rate float64
		all  *FleetChoice
		be   *float64
	}{{Reserved1y, in.Reserved1yPerHour, &out.AllReserved1y, &out.BreakEven1y}, {Reserved3y, in.Reserved3yPerHour, &out.AllReserved3y, &out.BreakEven3y}}
	for _, t := range terms {
		if t.rate > 0 {
			*t.all = f.fixed(t.p, out.Peak, t.rate, rentOnDemand, 0)
			if od {
				*t.be = t.rate / in.OnDemandPerHour // docs/planning.md: u* = r/o
			}
		}
	}
	// The best mix: every commitment (none, or r of either term) with
	// each hour's remainder on demand or spot, by its day's bill; only
	// the winner is itemised.
	useSpot := spot && !in.NoSpot
	win, winCost := f.search(in, terms[0].p, terms[0].rate, terms[1].p, terms[1].rate, out.Peak, hold, useSpot)
	if useSpot && !math.IsInf(winCost, 1) {
		// Spot serves only where its saving pays for its risk (see
		// spotPaysOff): else the best mix without it.
		if safe, safeCost := f.search(in, terms[0].p, terms[0].rate, terms[1].p, terms[1].rate, out.Peak, hold, false); !math.IsInf(safeCost, 1) {
			c := f.choice(win.term, win.r, win.rate, win.seq, hold(win.r))
			if spare := f.secondSpare(c); spare > 0 && winCost+spare*24/HoursPerMonth >= safeCost-1e-9 {
				out.DeclinedSpotMonthlyUSD, out.SecondSpareMonthlyUSD = c.MonthlyUSD, spare
				win, winCost = safe, safeCost
			}
		}
	}
	if !math.IsInf(winCost, 1) {
		out.Best = f.choice(win.term, win.r, win.rate, win.seq, hold(win.r))
	}
	if out.AllOnDemand.Priced && out.Best.Priced {
		out.SavingUSD = out.AllOnDemand.MonthlyUSD - out.Best.MonthlyUSD
		if out.AllOnDemand.MonthlyUSD > 0 {
			out.SavingShare = out.SavingUSD / out.AllOnDemand.MonthlyUSD
		}
	}
	if out.Min == math.MaxInt {
		out.Min = 0
	}
	return out, nil
}
