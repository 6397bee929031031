package page

// The serving latency chart: one engine copy of the cheapest pick's
// serving plan, simulated by estimator/sim at a handful of Poisson request
// rates from low load to just past its saturation point, with the user's
// latency targets, the plan's operating point and the saturation point
// marked. ServeLoadOf computes the numbers once per plan (RunPlan);
// LoadChartOf lays them out for a language; loadChart renders.

import (
	"math"
	"strconv"

	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// LoadPoint is one simulated request rate of one engine copy.
type LoadPoint struct {
	RPS float64 // Poisson arrivals per second at the copy
	// Time to first token, seconds: its median and its figure at the
	// statistic the latency targets bound (ServeLoad.Stat); time per
	// output token at that statistic.
	TTFTP50, TTFTStat float64
	TPOTStat          float64
}

// ServeLoad is the latency of one engine copy of a serving plan against
// the request rate it receives.
type ServeLoad struct {
	OK     bool
	Points []LoadPoint // by rate; the operating point is one of them
	Op     int         // Points[Op] is the plan's operating point
	// Copies is the engine copies the plan deploys (replicas × copies per
	// replica); the operating point is the target rate over them.
	Copies int
	// SatRPS is the copy's saturation rate (sim.Saturation): the most
	// requests/s it completes with every slot busy; above it the queue
	// grows without bound.
	SatRPS float64
	// TTFTTarget and TPOTTarget are the job's latency targets in seconds
	// (0: none).
	TTFTTarget, TPOTTarget float64
	// Stat is the statistic the targets bound (planner.Workload.SLOStat):
	// the chart draws TTFT and TPOT at it against them.
	Stat planner.SLOStat
	// Requests is each charted run's simulated requests.
	Requests int
}

// The chart runs the planner's own sizing simulation (CopyConfig: 150
// Poisson requests from seed 1, every request of exactly the job's
// lengths), so its operating point is the run the plan quotes
// (TestServeChartMatchesPlan holds them together). satRequests is the
// saturation run's requests per request the copy holds at once
// (sim.Capacity).
const satRequests = 4

// loadShares are the rates charted, as shares of the saturation rate: low
// load, the knee, and just past saturation.
var loadShares = [...]float64{0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.05, 1.15}

// CopyConfig is the simulation the planner sized row r with
// (planner.Row.Sim: one engine copy of r's shape under its engine's
// scheduler, on the offer's hardware as the planner reads it for a
// serving copy); ok is false when the engine simulator did not size r.
// The queue figure, which no plan reads, is left out of its runs
// (sim.Config.SkipQueue).
func CopyConfig(r *planner.Row) (sim.Config, bool) {
	if r.Sim == nil {
		return sim.Config{}, false
	}
	return *r.Sim, true
}

// ServeLoadOf simulates one engine copy of serving row r (planned for req)
// at the charted rates and at the plan's operating point. yield, when
// not nil, is called before each simulated run, as the planner calls
// Options.Yield: ten runs of a large model hold the browser's thread for
// tens of milliseconds together.
func ServeLoadOf(req planner.Request, r *planner.Row, yield func()) ServeLoad {
	w := req.Workload
	copies := r.ServingCopies() // a spot row's spare holds no load (planner.Row.ServingCopies)
	if w.Kind != planner.Serving || !r.Fits || copies < 1 || !(w.RequestsPerSecond > 0) {
		return ServeLoad{}
	}
	cfg, ok := CopyConfig(r)
	if !ok {
		return ServeLoad{}
	}
	// The saturation run: the copy at its capacity for four times as many
	// requests (within 1% of the simulator's default of ten times, at
	// 40% of its cost).
	sc := cfg
	sc.Load.Requests = satRequests * sim.Capacity(cfg)
	if yield == nil {
		yield = func() {}
	}
	yield()
	sat, err := sim.Saturation(sc)
	if err != nil || !(sat.RequestsPerSecond > 0) {
		return ServeLoad{}
	}
	s := ServeLoad{Copies: copies, SatRPS: sat.RequestsPerSecond, TTFTTarget: w.TTFTP95Seconds, TPOTTarget: w.TPOTSeconds, Stat: w.SLOStat, Requests: cfg.Load.Requests,
		Points: make([]LoadPoint, 0, len(loadShares)+1)}
	op := w.RequestsPerSecond / float64(copies)
	run := func(rps float64) bool {
		c := cfg
		c.Load.Concurrency, c.Load.RatePerSecond = 0, rps
		yield()
		res, err := sim.Run(c)
		if err != nil {
			return false
		}
		s.Points = append(s.Points, LoadPoint{RPS: rps, TTFTP50: res.TTFT.P50, TTFTStat: w.SLOStat.Of(res.TTFT), TPOTStat: w.SLOStat.Of(res.TPOT)})
		return true
	}
	s.Op = -1
	for _, f := range loadShares {
		rps := f * s.SatRPS
		if s.Op < 0 && op <= rps*1.03 {
			// The operating point takes its place among the rates; a
			// charted rate within 3% of it is left out.
			s.Op = len(s.Points)
			if !run(op) {
				return ServeLoad{}
			}
			if op >= rps*0.97 {
				continue
			}
		}
		if !run(rps) {
			return ServeLoad{}
		}
	}
	if s.Op < 0 {
		s.Op = len(s.Points)
		if !run(op) {
			return ServeLoad{}
		}
	}
	s.OK = true
	return s
}

// The chart's geometry (SVG user units). Its labels are SVG text whose
// size the stylesheet sets per screen width (web/rightsize.css .rs-load).
const (
	lcW, lcH      = 600, 360
	lcLeft, lcTop = 8, 10
	lcRight       = 24
	lcBot         = 40
	ChartViewBox  = "0 0 600 360"
)

// ChartPath is SVG path data drawn in one class (a curve, the grid, a
// target line, the marked points as round dots of zero length); ChartText a
// tick label; ChartKey a legend entry. Classes style them: the page's
// Content-Security-Policy forbids inline styles.
type (
	ChartPath struct{ Class, D string }
	ChartText struct {
		Class, Text string
		X, Y        int
	}
	ChartKey struct{ Class, Text string }
)

// LoadChartView is the chart laid out in one language.
type LoadChartView struct {
	Title, XLabel, YLabel, Caption string
	Paths                          []ChartPath
	Texts                          []ChartText
	Keys                           []ChartKey
}

// pathData writes SVG path data: M x,y or L x,y (pt), H x or V y (to).
type pathData []byte

func (d pathData) pt(c byte, x, y int) pathData {
	return strconv.AppendInt(append(d.to(c, x), ','), int64(y), 10)
}

func (d pathData) to(c byte, v int) pathData {
	if len(d) > 0 {
		d = append(d, ' ')
	}
	return strconv.AppendInt(append(d, c), int64(v), 10)
}

// lcScale maps rates (x, linear from 0 to xMax) and latencies (y, log
// from lo to hi) to the plot.
type lcScale struct{ xMax, lo, hi float64 }

const lcPlotW, lcPlotH, lcBottom, lcRightX = lcW - lcLeft - lcRight, lcH - lcTop - lcBot, lcH - lcBot, lcW - lcRight

func (s lcScale) x(v float64) int { return lcLeft + int(math.Round(v/s.xMax*lcPlotW)) }

func (s lcScale) y(v float64) int {
	v = math.Min(math.Max(v, s.lo), s.hi)
	return lcTop + int(math.Round(math.Log(s.hi/v)/math.Log(s.hi/s.lo)*lcPlotH))
}

// hline and vline are a line across the plot at y and up it at x.
func hline(y int) string { return string(pathData(nil).pt('M', lcLeft, y).to('H', lcRightX)) }
func vline(x int) string { return string(pathData(nil).pt('M', x, lcTop).to('V', lcBottom)) }

// LoadChartOf lays s out: a linear rate axis from 0, a log latency axis,
// the TTFT p50/p95 and TPOT p95 curves, the targets as dashed lines in
// their curve's colour, the operating point and the saturation point as
// vertical lines. what names the copy ("1 × H100 SXM · vLLM").
func LoadChartOf(s ServeLoad, l Locale, what string) LoadChartView {
	stat := SLOStatLabel(l, s.Stat)
	sc := lcScale{lo: math.Inf(1)}
	for _, p := range s.Points {
		sc.xMax = math.Max(sc.xMax, p.RPS)
		for _, v := range [...]float64{p.TTFTP50, p.TTFTStat, p.TPOTStat, s.TTFTTarget, s.TPOTTarget} {
			if v > 0 && !math.IsInf(v, 0) {
				sc.lo, sc.hi = math.Min(sc.lo, v), math.Max(sc.hi, v)
			}
		}
	}
	xStep := niceStep(sc.xMax / 5)
	sc.xMax = math.Ceil(sc.xMax/xStep-1e-9) * xStep
	if !(sc.hi > 0) {
		sc.lo, sc.hi = 1e-3, 1
	}
	// At least a decade, with a margin at each end.
	sc.lo, sc.hi = sc.lo/1.3, sc.hi*1.3
	if sc.hi/sc.lo < 10 {
		m := math.Sqrt(sc.lo * sc.hi)
		sc.lo, sc.hi = m/math.Sqrt(10), m*math.Sqrt(10)
	}
	v := LoadChartView{Title: l.T(MsgLoadTitle), XLabel: l.T(MsgLoadX), YLabel: l.T(MsgLoadY)}
	// Grid and ticks: latency at 1-2-5 steps (1-3 or decades alone over
	// a wider range), labelled inside the plot above their line; rates
	// below the axis.
	steps := []float64{1, 2, 5}
	switch {
	case sc.hi/sc.lo > 1000:
		steps = steps[:1]
	case sc.hi/sc.lo > 30:
		steps = []float64{1, 3}
	}
	var grid string
	for e := math.Floor(math.Log10(sc.lo)); e <= math.Ceil(math.Log10(sc.hi)); e++ {
		for _, m := range steps {
			t := m * math.Pow(10, e)
			if t >= sc.lo && t <= sc.hi {
				y := sc.y(t)
				grid += hline(y) + " "
				v.Texts = append(v.Texts, ChartText{Class: "rs-lc-ytick", Text: TickSeconds(l, t), X: lcLeft + 4, Y: y - 4})
			}
		}
	}
	axis := pathData(hline(lcBottom))
	for t := 0.0; t <= sc.xMax*(1+1e-9); t += xStep {
		x := sc.x(t)
		v.Texts = append(v.Texts, ChartText{Class: "rs-lc-xtick", Text: ShortRate(l, t), X: x, Y: lcH - 8})
		axis = axis.pt('M', x, lcBottom).to('v', 5)
	}
	op := s.Points[s.Op]
	v.Paths = append(v.Paths, ChartPath{"rs-lc-grid", grid}, ChartPath{"rs-axis", string(axis)},
		ChartPath{"rs-lc-sat", vline(sc.x(s.SatRPS))}, ChartPath{"rs-lc-op", vline(sc.x(op.RPS))})
	// The targets, then the curves with their point at the operating
	// point.
	var targets []ChartKey
	for i, t := range [...]float64{s.TTFTTarget, s.TPOTTarget} {
		if t > 0 {
			class := "rs-lc-target " + ChartSeries[2*i]
			v.Paths = append(v.Paths, ChartPath{class, hline(sc.y(t))})
			targets = append(targets, ChartKey{Class: class, Text: Fill(l.T(loadTargetKeys[i]), stat, TickSeconds(l, t))})
		}
	}
	for i, class := range ChartSeries {
		var d pathData
		c := byte('M')
		for _, p := range s.Points {
			d, c = d.pt(c, sc.x(p.RPS), sc.y(p.Series(i))), 'L'
		}
		v.Paths = append(v.Paths, ChartPath{"rs-lc-curve " + class, string(d)},
			ChartPath{"rs-lc-dot " + class, string(pathData(nil).pt('M', sc.x(op.RPS), sc.y(op.Series(i))).to('h', 0))})
		v.Keys = append(v.Keys, ChartKey{Class: class, Text: Fill(l.T(loadSeriesKeys[i]), stat)})
	}
	v.Keys = append(v.Keys, targets...)
	v.Keys = append(v.Keys,
		ChartKey{Class: "rs-lc-op", Text: Fill(l.T(MsgLoadOp), ShortRate(l, op.RPS))},
		ChartKey{Class: "rs-lc-sat", Text: Fill(l.T(MsgLoadSat), ShortRate(l, s.SatRPS))})
	figures := []string{stat, TickSeconds(l, op.TTFTStat), stat, TickSeconds(l, op.TPOTStat), ShortRate(l, s.SatRPS), l.Count(int64(s.Requests))}
	if s.Copies > 1 {
		v.Caption = Fill(l.T(MsgLoadCaption), append([]string{what, ShortRate(l, op.RPS*float64(s.Copies)), l.Count(int64(s.Copies)), ShortRate(l, op.RPS)}, figures...)...)
	} else {
		// One copy: "spreads 5 req/s over 1 copies, 5 req/s each" said it
		// twice, in the wrong number.
		v.Caption = Fill(l.T(MsgLoadCaptionOne), append([]string{what, ShortRate(l, op.RPS)}, figures...)...)
	}
	return v
}

// ChartSeries are the curves' classes: TTFT at the targets' statistic
// (p95 by default, whence the class names), TTFT p50, TPOT at the
// statistic
// (loadSeriesKeys their legend keys, LoadPoint.Series their figures, in
// that order).
var ChartSeries = [...]string{"rs-lc-ttft95", "rs-lc-ttft50", "rs-lc-tpot95"}

// loadSeriesKeys and loadTargetKeys name the curves and the two targets
// (TTFT, TPOT): each its own message, not an offset from another.
var (
	loadSeriesKeys = [len(ChartSeries)]MsgKey{MsgLoadTTFT95, MsgLoadTTFT50, MsgLoadTPOT95}
	loadTargetKeys = [2]MsgKey{MsgLoadTTFTTarget, MsgLoadTPOTTarget}
)

// Series is p's figure of curve i of ChartSeries.
func (p LoadPoint) Series(i int) float64 {
	switch i {
	case 0:
		return p.TTFTStat
	case 1:
		return p.TTFTP50
	}
	return p.TPOTStat
}

// niceStep is the 1-2-5 step at or above v.
func niceStep(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// ShortRate writes a rate with at most three significant digits and no
// trailing zeros: "20", "3.33", "1,500".
func ShortRate(l Locale, v float64) string {
	if v >= 1000 {
		return l.Rate(v)
	}
	return l.decimals(strconv.FormatFloat(v, 'g', 3, 64))
}

// TickSeconds writes a latency with three significant digits: "20 ms",
// "1.5 s".
func TickSeconds(l Locale, sec float64) string {
	if sec < 1 {
		return l.decimals(strconv.FormatFloat(sec*1000, 'g', 3, 64)) + " " + l.T(MsgMs)
	}
	return l.decimals(strconv.FormatFloat(sec, 'g', 3, 64)) + " " + l.T(MsgSec)
}
