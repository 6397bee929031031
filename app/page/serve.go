package page

import (
	"errors"
	"unicode"
	"unicode/utf8"

	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// ServeView is the serving section: the fleet the planner's cheapest plan
// needs for the request rate under the targets, what set its size, its
// latency chart, the daily fleet, and the selected GPU's fleet when that
// is another GPU (Shown false: no serving plan).
type ServeView struct {
	Shown bool
	Title string
	Best  ServeFleet
	Chart LoadChartView // Title "": no chart
	Daily DailyFleetView
	Here  ServeFleet // Name "": none
	// Disagg says whether disaggregated prefill and decode would pay, and
	// its figures, under DisaggTitle ("": none applies).
	Disagg, DisaggTitle string
}

// ServeFleet is one fleet: what it is, its figures and what set its size.
type ServeFleet struct {
	Name  string
	Facts []Fact
	Binds string
}

// DailyFleetView is the daily fleet's answer (Shown false: none asked).
type DailyFleetView struct {
	Shown, OK bool
	Title     string
	Unsized   string // why there is none, when not OK
	FleetText
	FX          string
	ChoiceHeads [2]string
	Chart       FleetChartView
	MixTitle    string
	OwnTitle    string
	OwnErr      string
}

// serve builds the serving section.
func (b *viewBuilder) serve() ServeView {
	in, l := &b.in, b.l
	out := &in.Plan
	if !in.R.OK || !out.Serve.OK {
		return ServeView{}
	}
	v := ServeView{Shown: true, Title: b.t(MsgServeTitle)}
	v.Best = b.serveFleet("rs-", b.t(MsgFleetOf), out.Serve)
	if s := out.Load; s.OK {
		x := out.Serve
		what := l.Count(int64(x.Plan.TP*max(x.Plan.PP, 1))) + " × " + in.Prices.GPUName(x.Offer.GPU) + " · " + x.Engine.Label()
		v.Chart = LoadChartOf(s, l, what)
	}
	v.Daily = b.dailyFleet()
	if d := out.Disagg; d != nil {
		v.DisaggTitle = b.t(MsgDisaggTitle)
		v.Disagg = sentence(l.ReasonWith(d.Why, in.Prices.ProviderName)) + " · " + Fill(b.t(MsgDisaggFigures),
			l.Duration(d.TTFTAtSLOSeconds), l.Duration(d.TPOTAtSLOSeconds), SLOStatLabel(l, in.Job.SLOStat), l.Duration(d.TTFTSeconds),
			l.Duration(d.KVTransferSeconds))
		if d.PrefillSpare+d.DecodeSpare > 0 {
			v.Disagg += " · " + b.t(MsgDisaggSpares)
		}
	}
	if h := out.ServeHere; h.OK && h.Offer.GPU != out.Serve.Offer.GPU {
		v.Here = b.serveFleet("rs-here-", b.t(MsgFleetHere), h)
	}
	return v
}

// serveFleet is fleet x under its title: its GPUs, engine, price model
// and offer, its figures (ids prefixed by id) and what set its size.
func (b *viewBuilder) serveFleet(id, title string, x ServeResult) ServeFleet {
	in, l := &b.in, b.l
	stat := SLOStatLabel(l, in.Job.SLOStat)
	f := ServeFleet{
		Name: title + l.Colon() + l.Count(int64(x.GPUs)) + " × " + GPULabel(in.Prices.GPUName(x.Offer.GPU), x.Plan) + " · " + x.Engine.Label() +
			" · " + b.t(PricingKeys[x.Pricing]) + " · " + in.Prices.ProviderName(x.Offer.Provider) + " " + x.Offer.Name() + InstancesOf(l, x.Instances, x.Rented),
		Facts: []Fact{
			{ID: id + "concurrency", Label: b.t(MsgConcurrency), Value: l.Sig3(x.Concurrency)},
			{ID: id + "serve-ttft", Label: b.t(MsgTTFT) + " (" + stat + ")", Value: l.Duration(x.TTFTAtSLO)},
			// TPOT at the targets' statistic too: the mean beside a p95
			// TTFT read as a second figure for the TPOT the chart and
			// the disaggregated line give at p95 (36 ms against 46.3).
			{ID: id + "serve-tpot", Label: b.t(MsgTPOT) + " (" + stat + ")", Value: l.Duration(x.TPOTAtSLO)},
			{ID: id + "replicas", Label: b.t(MsgReplicas), Value: l.Count(int64(x.Replicas))},
			{ID: id + "fleet-gpus", Label: b.t(MsgFleetGPUs), Value: l.Count(int64(x.GPUs))},
			{ID: id + "monthly", Label: Fill(b.t(MsgMonthly), b.t(PricingKeys[x.Pricing])), Value: l.Money(x.Monthly, in.Plan.Currency)},
		},
		Binds: b.binding(x),
	}
	return f
}

// binding says what set a fleet's replica count and what held requests
// back in each engine copy, for a fleet the simulator sized.
func (b *viewBuilder) binding(x ServeResult) string {
	if !x.Sized {
		return ""
	}
	rps := ShortRate(b.l, b.in.Job.RPS)
	stat := SLOStatLabel(b.l, b.in.Job.SLOStat)
	var s string
	switch x.Binding {
	case sim.BindTTFT:
		s = Fill(b.t(MsgBindTTFT), stat, rps)
	case sim.BindTPOT:
		s = Fill(b.t(MsgBindTPOT), stat, rps)
	case sim.BindThroughput:
		s = Fill(b.t(MsgBindThroughput), rps)
	default:
		s = Fill(b.t(MsgBindNone), rps)
	}
	if x.Limit < 0 || int(x.Limit) >= len(limitKeys) {
		return s
	}
	return Fill(b.t(MsgBindAnd), s, b.t(limitKeys[x.Limit]))
}

// limitKeys name what held requests back in an engine copy, by sim.Limit.
var limitKeys = [...]MsgKey{sim.LimitNone: MsgLimitNone, sim.LimitSeqs: MsgLimitSeqs, sim.LimitKV: MsgLimitKV,
	sim.LimitTokens: MsgLimitTokens, sim.LimitPolling: MsgLimitPolling}

// dailyFleet is the daily fleet's answer, when a load curve asked for one.
func (b *viewBuilder) dailyFleet() DailyFleetView {
	in, l := &b.in, b.l
	f := in.Plan.Fleet
	if in.Job.Curve == nil {
		return DailyFleetView{}
	}
	v := DailyFleetView{Shown: true, OK: f.OK, Title: b.t(MsgFleetTitle)}
	if !f.OK {
		v.Unsized = Fill(b.t(MsgFleetUnsized), l.ReasonWith(f.Reason, in.Prices.ProviderName))
		return v
	}
	v.FleetText = FleetTextOf(f, l, Names{GPU: in.Prices.GPUName, Provider: in.Prices.ProviderName})
	v.Chart = FleetChartOf(f, l)
	if f.Currency != "USD" {
		v.FX = FXLine(l, in.Prices.Cat, f.Currency)
	}
	v.ChoiceHeads = [2]string{b.t(MsgFleetChoice), b.t(MsgMonthlyShort)}
	v.MixTitle, v.OwnTitle = b.t(MsgMixTitle), b.t(MsgOwnTitle)
	if len(v.Own) == 0 && f.OwnErr != nil {
		v.OwnErr = f.OwnErr.Error()
		if errors.Is(f.OwnErr, planner.ErrNoWatts) {
			v.OwnErr = Fill(b.t(MsgOwnNoWatts), in.Prices.GPUName(f.Row.Row.Offer.GPU))
		}
	}
	return v
}

// sentence is s with its first letter a capital, as a paragraph of its
// own starts (the reasons are written to follow a colon in the CLI).
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
