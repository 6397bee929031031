package page

// The daily fleet on the page: the planner's PlanFleet (estimator/plan,
// fleet_serve.go) for the job's load curve, its mixed fleet for a workload
// preset of several request sizes (fleet_mix.go) and the owned-GPU
// alternative (OwnFleet), as the CLI's rightsize plan --load-curve
// --workload --own-price answers them. FleetOut holds the planner's
// answer; FleetTextOf and FleetChartOf lay it out in the page's language
// and currency (the planner's figures are USD).

import (
	"math"
	"strconv"

	planner "rightsize/estimator/plan"
)

// fleetRows is how many of the peak plan's best offers under each price
// model get a fleet, as the CLI's --fleet-offers default.
const fleetRows = 3

// FleetOut is the daily fleet as the page shows it.
type FleetOut struct {
	OK bool
	// Row is the cheapest best mix of a sized fleet (FleetResult.Rows come
	// cheapest first).
	Row planner.FleetRow
	Mix *planner.MixedFleet // nil without two or more request sizes
	// Own is the owned-GPU alternative for Row (nil: not asked, or OwnErr).
	Own    *planner.OwnedFleet
	OwnErr error
	// Reason says why no fleet was sized (OK false).
	Reason planner.Reason
	// PerUSD converts the planner's USD into Currency: the plan's rate
	// (PlanOut.PerUSD), set by RunPlan.
	PerUSD   float64
	Currency string
	// CardMonthly is the cheapest pick's monthly bill at the peak, in
	// Currency (RunPlan sets it): the card above the fleet, which the
	// fleet's text answers when the day costs less.
	CardMonthly float64
}

// planFleet runs the planner's daily fleet for j; res.Peak is the plan at
// the curve's busiest hour, which the picks and tables show.
func planFleet(j Job, pr Prices, req planner.Request, offers []planner.Offer) (planner.Result, FleetOut, error) {
	fo := planner.FleetOptions{Curve: *j.Curve, Rows: fleetRows}
	if j.Mix != nil && len(j.Mix.Buckets) > 1 {
		fo.Buckets, fo.Mix = j.Mix.Buckets, true
	}
	fr, err := planner.PlanFleet(req, offers, planner.Options{Yield: pr.Yield}, fo)
	if err != nil {
		return planner.Result{}, FleetOut{}, err
	}
	// Currency and PerUSD are the plan's (RunPlan sets them).
	out := FleetOut{Mix: fr.Mix}
	for _, r := range fr.Rows {
		if r.Sized && r.Plan.Best.Priced {
			out.OK, out.Row = true, r
			break
		}
		if out.Reason.Key == planner.NoMsg {
			out.Reason = r.Reason
		}
	}
	// The mixed fleet's search reaches beyond the best rows at the peak:
	// its best single offer is never dearer than theirs, and the fleet box
	// shows that one (with the mix beside it when a mix saves).
	if x := fr.Mix; x != nil && x.Single.Plan.Best.Priced && (!out.OK || x.Single.Plan.Best.MonthlyUSD < out.Row.Plan.Best.MonthlyUSD) {
		out.OK = true
		out.Row = planner.FleetRow{Row: x.Single.Row, Plan: x.Single.Plan, RequestsPerSecond: fo.Curve, Sized: true}
	}
	if out.OK && j.Own != nil {
		tdp := 0.0
		if g, ok := pr.Cat.GPU(out.Row.Row.Offer.GPU); ok {
			tdp = float64(g.TDPWatts)
		}
		if o, err := planner.OwnFleet(*j.Own, out.Row, tdp); err != nil {
			out.OwnErr = err
		} else {
			out.Own = &o
		}
	}
	return fr.Peak, out, nil
}

// FleetText is the fleet's answer in one language: the headline, the
// bills of each price model, the mixed fleet and the owned alternative.
type FleetText struct {
	Headline string
	// VsCard says why the fleet costs less than the cheapest pick above
	// it (one "cheapest" per page); "" when it does not.
	VsCard   string
	Peak     string
	Choices  []FleetChoiceText
	Mix      string
	MixLines []string
	Own      []string
}

// FleetChoiceText is one way to buy the fleet and its monthly bill.
type FleetChoiceText struct {
	Name, Monthly string
	Best          bool
}

// money is a planner USD amount in the page's currency.
func (f FleetOut) money(l Locale, usd float64) string {
	return l.Money(usd*f.PerUSD, f.Currency)
}

// Names name catalog GPUs and providers by their IDs.
type Names struct{ GPU, Provider func(string) string }

// offerName is a replica's shape and offer: "2 × L40S · Lium L40S_2x".
func offerName(l Locale, r planner.Row, n Names) string {
	gpus := r.Offer.GPUCount * float64(max(r.InstancesPerReplica, 1))
	return l.Fixed(gpus, 0) + " × " + n.GPU(r.Offer.GPU) + " · " + n.Provider(r.Offer.Provider) + " " + r.Offer.Name()
}

// FleetTextOf lays f out.
func FleetTextOf(f FleetOut, l Locale, names Names) FleetText {
	var t FleetText
	if !f.OK {
		return t
	}
	fp := f.Row.Plan
	best := fp.Best
	t.Headline = Fill(l.T(MsgFleetBest), offerName(l, f.Row.Row, names), f.money(l, best.MonthlyUSD), bestMixText(l, best))
	if fp.SavingUSD > 0 {
		t.Headline += " · " + Fill(l.T(MsgFleetSaving), f.money(l, fp.SavingUSD), l.Fixed(fp.SavingShare*100, 0)+"%")
	}
	if fp.DeclinedSpotMonthlyUSD > 0 {
		t.Headline += " · " + Fill(l.T(MsgFleetNoSpot), f.money(l, fp.DeclinedSpotMonthlyUSD), f.money(l, fp.SecondSpareMonthlyUSD))
	}
	if day := best.MonthlyUSD * f.PerUSD; f.CardMonthly > 0 && day < f.CardMonthly*(1-1e-9) {
		t.VsCard = Fill(l.T(MsgFleetVsCard), l.Money(f.CardMonthly, f.Currency), l.Money(day, f.Currency))
	}
	t.Peak = Fill(l.T(MsgFleetPeak), l.Count(int64(fp.Peak)), l.Rate(f.Row.RequestsPerSecond.Peak()), l.Count(int64(fp.Min)))
	for _, c := range []struct {
		k MsgKey
		c planner.FleetChoice
	}{{MsgFleetAllOD, fp.AllOnDemand}, {MsgFleetAllSpot, fp.AllSpot}, {MsgFleetAll1y, fp.AllReserved1y}, {MsgFleetAll3y, fp.AllReserved3y}, {MsgFleetBestMix, best}} {
		m := l.T(MsgFleetUnpriced)
		if c.c.Priced {
			m = f.money(l, c.c.MonthlyUSD)
		}
		t.Choices = append(t.Choices, FleetChoiceText{Name: l.T(c.k), Monthly: m, Best: c.k == MsgFleetBestMix})
	}
	if x := f.Mix; x != nil && len(x.Groups) > 0 {
		if x.Mixed {
			t.Mix = Fill(l.T(MsgMixSaves), f.money(l, x.MonthlyUSD), f.money(l, x.Single.Plan.Best.MonthlyUSD),
				offerName(l, x.Single.Row, names), f.money(l, x.SavingUSD), l.Fixed(x.SavingShare*100, 0)+"%")
			for _, g := range x.Groups {
				t.MixLines = append(t.MixLines, Fill(l.T(MsgMixGroup), l.Count(int64(g.Plan.Peak))+" × "+offerName(l, g.Row, names),
					l.Fixed(g.Share*100, 0)+"%", bucketsText(l, x, g.Buckets)))
			}
		} else {
			t.Mix = Fill(l.T(MsgMixSame), offerName(l, x.Single.Row, names))
		}
	}
	if o := f.Own; o != nil {
		t.Own = append(t.Own, Fill(l.T(MsgOwnLine), l.Fixed(o.GPUs, 0), f.money(l, o.PerBusyGPUHourUSD), f.money(l, o.RentedPerGPUHourUSD), f.money(l, o.MonthlyUSD)))
		// The verdict on one basis: the best rented fleet of the same day.
		verdict := MsgOwnDearer
		if o.CheaperThanRenting() {
			verdict = MsgOwnCheaper
		}
		t.Own = append(t.Own, Fill(l.T(verdict), f.money(l, o.MonthlyUSD), f.money(l, o.RentedMonthlyUSD)))
		if o.PaysOff() && o.BreakEvenUtilisation <= 1 {
			t.Own = append(t.Own, Fill(l.T(MsgOwnBreakEven), l.Fixed(o.BreakEvenUtilisation*100, 0)+"%", l.Fixed(o.Owned.Utilisation*100, 0)+"%"))
		} else {
			t.Own = append(t.Own, l.T(MsgOwnNever))
		}
	}
	return t
}

// bestMixText says how the best mix buys: what it reserves, for which
// term, and how it rents the rest.
func bestMixText(l Locale, c planner.FleetChoice) string {
	od, spot := false, false
	for _, h := range c.Hours {
		od = od || h.OnDemand > 0
		spot = spot || h.Spot > 0
	}
	rest := l.T(MsgPrOnDemand)
	switch {
	case od && spot:
		rest += " + " + l.T(MsgPrSpot)
	case spot:
		rest = l.T(MsgPrSpot)
	}
	if c.Reserved == 0 || c.Term == planner.OnDemand {
		return Fill(l.T(MsgFleetNoCommit), rest)
	}
	term := l.T(MsgPrRes1)
	if c.Term == planner.Reserved3y {
		term = l.T(MsgPrRes3)
	}
	return Fill(l.T(MsgFleetCommit), l.Count(int64(c.Reserved)), term, rest)
}

// bucketsText names a group's request sizes: "≈321→109, 1,287→109 tokens".
func bucketsText(l Locale, x *planner.MixedFleet, idx []int) string {
	s := ""
	for i, b := range idx {
		if b < 0 || b >= len(x.Buckets) {
			continue
		}
		if i > 0 {
			s += ", "
		}
		s += l.Count(int64(x.Buckets[b].PromptTokens)) + "→" + l.Count(int64(x.Buckets[b].OutputTokens))
	}
	return s + " " + l.T(MsgTokens)
}

// The fleet chart's geometry (SVG user units), as the latency chart's.
const (
	fcW, fcH      = 600, 300
	fcLeft, fcTop = 8, 10
	fcRight       = 76
	fcBot         = 30
	FleetViewBox  = "0 0 600 300"
)

// FleetChartView is the fleet chart laid out in one language: stacked
// bars of reserved, on-demand and spot replicas per hour, the replicas
// needed as a step line, and the hour's cost as a line on the right axis.
type FleetChartView struct {
	Title, Caption string
	Paths          []ChartPath
	Texts          []ChartText
	Keys           []ChartKey
}

// FleetChartOf draws the best mix of f over the day.
func FleetChartOf(f FleetOut, l Locale) FleetChartView {
	v := FleetChartView{Title: l.T(MsgFleetChartTitle)}
	if !f.OK {
		return v
	}
	hours := f.Row.Plan.Best.Hours
	top, costTop := 1, 0.0
	for _, h := range hours {
		top = max(top, h.Reserved+h.OnDemand+h.Spot, h.Need)
		costTop = math.Max(costTop, h.USD*f.PerUSD)
	}
	// About four gridlines on each axis, at 1-2-5 steps.
	step := max(1, int(niceStep(float64(top)/4)))
	top = step * ((top + step - 1) / step)
	if !(costTop > 0) {
		costTop = 1
	}
	costStep := niceStep(costTop / 4)
	costTop = costStep * math.Ceil(costTop/costStep)
	plotW, plotH := fcW-fcLeft-fcRight, fcH-fcTop-fcBot
	bottom := fcTop + plotH
	x := func(h float64) int { return fcLeft + int(math.Round(h/24*float64(plotW))) }
	y := func(n float64) int { return bottom - int(math.Round(n/float64(top)*float64(plotH))) }
	yc := func(c float64) int { return bottom - int(math.Round(c/costTop*float64(plotH))) }
	// Grid and replica ticks on the left, cost ticks on the right.
	var grid pathData
	for n := 0; n <= top; n += step {
		grid = grid.pt('M', fcLeft, y(float64(n))).to('H', fcLeft+plotW)
		v.Texts = append(v.Texts, ChartText{Class: "rs-fc-tick", Text: l.Count(int64(n)), X: fcLeft + 2, Y: y(float64(n)) - 2})
	}
	for c := costStep; c <= costTop*1.0001; c += costStep {
		v.Texts = append(v.Texts, ChartText{Class: "rs-fc-tick rs-fc-cost", Text: l.Money(c, f.Currency), X: fcLeft + plotW + 2, Y: yc(c) + 4})
	}
	for h := 0; h <= 24; h += 6 {
		v.Texts = append(v.Texts, ChartText{Class: "rs-fc-tick", Text: strconv.Itoa(h) + ":00", X: x(float64(h)), Y: bottom + 18})
	}
	v.Paths = append(v.Paths, ChartPath{Class: "rs-fc-grid", D: string(grid)})
	// Stacked bars, one path per price model.
	var bars [3]pathData
	for i, h := range hours {
		x0, x1 := x(float64(i))+1, x(float64(i+1))-1
		base := 0
		for k, n := range [3]int{h.Reserved, h.OnDemand, h.Spot} {
			if n == 0 {
				continue
			}
			y0, y1 := y(float64(base)), y(float64(base+n))
			bars[k] = bars[k].pt('M', x0, y0).to('V', y1).to('H', x1).to('V', y0).to('H', x0)
			base += n
		}
	}
	for k, c := range [3]string{"rs-fc-res", "rs-fc-od", "rs-fc-spot"} {
		if len(bars[k]) > 0 {
			v.Paths = append(v.Paths, ChartPath{Class: c, D: string(bars[k])})
		}
	}
	// The replicas needed, a step line; the hour's cost, a polyline.
	var need, cost pathData
	for i, h := range hours {
		c := byte('L')
		if i == 0 {
			c = 'M'
		}
		need = need.pt(c, x(float64(i)), y(float64(h.Need))).to('H', x(float64(i+1)))
		cost = cost.pt(c, x(float64(i)+0.5), yc(h.USD*f.PerUSD))
	}
	v.Paths = append(v.Paths, ChartPath{Class: "rs-fc-need", D: string(need)}, ChartPath{Class: "rs-fc-costline", D: string(cost)})
	v.Keys = []ChartKey{{Class: "rs-fc-res", Text: l.T(MsgFleetReserved)}, {Class: "rs-fc-od", Text: l.T(MsgPrOnDemand)},
		{Class: "rs-fc-spot", Text: l.T(MsgPrSpot)}, {Class: "rs-fc-need", Text: l.T(MsgFleetNeed)}, {Class: "rs-fc-costline", Text: l.T(MsgFleetCostHour)}}
	v.Caption = Fill(l.T(MsgFleetPeak), l.Count(int64(f.Row.Plan.Peak)), l.Rate(f.Row.RequestsPerSecond.Peak()), l.Count(int64(f.Row.Plan.Min)))
	return v
}
