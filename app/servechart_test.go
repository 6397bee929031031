package app

import (
	"html"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// servingFrags are serving questions whose cheapest picks differ in shape.
var servingFrags = []string{
	"m=mistral-7b-v0.3&rps=20&ttft=1000",
	"m=mixtral-8x7b&p=fp4&g=b200&e=vllm&rps=5",
	"m=llama-3.1-70b&rps=10&ttft=2000&tpot=80",
	"rps=200&ttft=500&tpot=40",
	"m=llama-3.1-405b&p=fp8&rps=5&ttft=5000&pr=spot",                                     // TP 4, a spare replica on spot
	"m=mistral-7b-v0.3&rps=20&ttft=1000&imfu=0.3&bw=0.6",                                 // the user's efficiencies
	"m=mistral-7b-v0.3&rps=20&ttft=1000&g=h100-sxm&e=vllm&cal=h100-sxm,vllm,120,0.3,0.5", // a calibration: 120 ms per request
}

// servePlan is the page's plan for frag and the request behind it.
func servePlan(t testing.TB, frag string) (*Calculator, planner.Request, planner.Result) {
	t.Helper()
	c := &Calculator{}
	c.OnInit()
	c.state = page.ParseFragment(frag, page.DefaultState)
	c.start.drop(c.plainView(), c.ps.out.OK)
	c.recompute()
	req := page.PlanRequest(c.d.Job)
	req.FX = c.pr.Cat.PlanFX()
	res, err := planner.Plan(req, c.pr.PlanOffers(c.d.Job.In.Weights), planner.Options{})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("%s: no plan: %v", frag, err)
	}
	return c, req, res
}

// TestServeChartMatchesPlan: the chart's operating point is the run the
// planner sized the cheapest row with (its quoted p50/p95 TTFT), at the
// target rate over the plan's engine copies, and every point is the
// simulator's own result at its rate.
func TestServeChartMatchesPlan(t *testing.T) {
	for _, frag := range servingFrags {
		t.Run(frag, func(t *testing.T) {
			c, req, res := servePlan(t, frag)
			r := &res.Rows[res.Cheapest]
			s := c.ps.out.Load
			if !s.OK {
				t.Fatalf("no chart for %s", r.Offer.ID)
			}
			copies := r.Replicas * r.DP
			op := s.Points[s.Op]
			if s.Copies != copies || op.RPS != req.Workload.RequestsPerSecond/float64(copies) {
				t.Errorf("operating point %g req/s over %d copies, want %g over %d", op.RPS, s.Copies, req.Workload.RequestsPerSecond/float64(copies), copies)
			}
			if op.TTFTP95 != r.TTFTP95Seconds || op.TTFTP50 != r.TTFTP50Seconds {
				t.Errorf("operating point TTFT p50/p95 %g/%g s, the plan quotes %g/%g", op.TTFTP50, op.TTFTP95, r.TTFTP50Seconds, r.TTFTP95Seconds)
			}
			if s.TTFTTarget != req.Workload.TTFTP95Seconds || s.TPOTTarget != req.Workload.TPOTSeconds {
				t.Errorf("targets %g/%g, want %g/%g", s.TTFTTarget, s.TPOTTarget, req.Workload.TTFTP95Seconds, req.Workload.TPOTSeconds)
			}
			cfg, ok := page.CopyConfig(req, r)
			if !ok {
				t.Fatal("no simulation config")
			}
			sc := cfg
			sc.Load.Requests = 4 * sim.Capacity(cfg)
			sat, err := sim.Saturation(sc)
			if err != nil || sat.RequestsPerSecond != s.SatRPS {
				t.Errorf("saturation %g req/s, the simulator gives %g (%v)", s.SatRPS, sat.RequestsPerSecond, err)
			}
			if last := s.Points[len(s.Points)-1].RPS; last <= s.SatRPS || s.Points[0].RPS >= s.SatRPS/2 {
				t.Errorf("rates %g … %g req/s do not run from low load past saturation at %g", s.Points[0].RPS, last, s.SatRPS)
			}
			for i, p := range s.Points {
				if i > 0 && p.RPS <= s.Points[i-1].RPS {
					t.Errorf("rates out of order: %g after %g", p.RPS, s.Points[i-1].RPS)
				}
				cfg.Load.Concurrency, cfg.Load.RatePerSecond = 0, p.RPS
				want, err := sim.Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if p.TTFTP50 != want.TTFT.P50 || p.TTFTP95 != want.TTFT.P95 || p.TPOTP95 != want.TPOT.P95 {
					t.Errorf("at %g req/s: %+v, the simulator gives TTFT %g/%g TPOT p95 %g", p.RPS, p, want.TTFT.P50, want.TTFT.P95, want.TPOT.P95)
				}
			}
			t.Logf("%s TP%d PP%d ×%d copies: sat %.2f req/s, op %.2f; %d points", r.Offer.ID, r.TP, r.PP, copies, s.SatRPS, op.RPS, len(s.Points))
		})
	}
}

// BenchmarkServeLoad is the chart's simulation, once per plan: the
// saturation run and the charted rates of one engine copy.
func BenchmarkServeLoad(b *testing.B) {
	for _, frag := range servingFrags {
		b.Run(frag, func(b *testing.B) {
			_, req, res := servePlan(b, frag)
			r := &res.Rows[res.Cheapest]
			for b.Loop() {
				if !page.ServeLoadOf(req, r).OK {
					b.Fatal("no chart")
				}
			}
		})
	}
}

// TestServeChartRenders renders the page of a serving question in each
// language and finds the chart: its curves, the target lines at the
// targets, the operating and saturation lines, the labelled axes and the
// sentence saying what binds.
func TestServeChartRenders(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		frag := "m=mistral-7b-v0.3&rps=20&ttft=1000&tpot=60&l=" + lang
		t.Run(frag, func(t *testing.T) {
			c, _ := load(t)
			c.state = page.ParseFragment(frag, page.DefaultState)
			c.start.drop(c.plainView(), c.ps.out.OK)
			c.recompute()
			if !c.ps.out.Load.OK {
				t.Fatal("no chart")
			}
			doc := app.HTMLString(c.Render())
			l := locOf(c)
			s := c.ps.out.Load
			v := page.LoadChartOf(s, l, "x")
			for _, want := range []string{
				`id="rs-load-chart"`, `class="rs-lc-curve rs-lc-ttft95"`, `class="rs-lc-curve rs-lc-ttft50"`,
				`class="rs-lc-curve rs-lc-tpot95"`, `<path `, `<text `, `class="rs-lc-target rs-lc-ttft95"`, `class="rs-lc-target rs-lc-tpot95"`,
				`class="rs-lc-op"`, `class="rs-lc-sat"`, `class="rs-lc-ytick"`, `class="rs-lc-xtick"`,
				html.EscapeString(l.T(page.MsgLoadX)), html.EscapeString(l.T(page.MsgLoadY)), html.EscapeString(l.T(page.MsgLoadTitle)),
				html.EscapeString(page.Fill(l.T(page.MsgLoadTTFTTarget), page.TickSeconds(l, 1))), l.T(page.MsgMs),
			} {
				if !strings.Contains(doc, want) {
					t.Errorf("doc lacks %s", want)
				}
			}
			binds, ok := textByID(doc, "rs-binds")
			if !ok || !strings.Contains(binds, page.ShortRate(l, 20)) {
				t.Errorf("what binds: %q", binds)
			}
			// The targets sit at their latencies and the operating point at
			// the rate over the copies, on the chart's own scales (read back
			// from its tick labels, within their rounding to whole units).
			y := func(sec float64) int { return yOf(t, v, sec) }
			ttft, tpot := pathOf(t, v, "rs-lc-target rs-lc-ttft95"), pathOf(t, v, "rs-lc-target rs-lc-tpot95")
			if !near(ttft[1], y(1)) || !near(tpot[1], y(0.06)) {
				t.Errorf("target lines at y %d and %d, want %d and %d", ttft[1], tpot[1], y(1), y(0.06))
			}
			op, sat := pathOf(t, v, "rs-lc-op"), pathOf(t, v, "rs-lc-sat")
			if x := xOf(t, v, 20/float64(s.Copies)); !near(op[0], x) {
				t.Errorf("operating point at x %d, want %d (20 req/s over %d copies)", op[0], x, s.Copies)
			}
			if x := xOf(t, v, s.SatRPS); !near(sat[0], x) {
				t.Errorf("saturation at x %d, want %d", sat[0], x)
			}
			// The operating point's dots sit on the curves' points there.
			for i, class := range page.ChartSeries {
				d, want := pathOf(t, v, "rs-lc-dot "+class), pathOf(t, v, "rs-lc-curve "+class)[2*s.Op:]
				if d[0] != want[0] || d[1] != want[1] || !near(d[1], y(s.Points[s.Op].Series(i))) {
					t.Errorf("%s dot at %v, its curve's point at %v", class, d[:2], want[:2])
				}
			}
		})
	}
}

// near: within two user units (a quarter of a pixel on a phone).
func near(a, b int) bool { return a-b <= 2 && b-a <= 2 }

// pathOf is the numbers of the chart's path of class cls, in order.
func pathOf(t *testing.T, v page.LoadChartView, cls string) []int {
	t.Helper()
	for _, p := range v.Paths {
		if p.Class != cls {
			continue
		}
		var out []int
		for _, f := range strings.FieldsFunc(p.D, func(r rune) bool { return r == ' ' || r == ',' || r >= 'A' }) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: %q: %v", cls, p.D, err)
			}
			out = append(out, n)
		}
		return out
	}
	t.Fatalf("no %s path", cls)
	return nil
}

// xOf and yOf read the chart's scales back from its tick labels: x is
// linear through the first and last rate ticks, y logarithmic through the
// first and last latency ticks.
func xOf(t *testing.T, v page.LoadChartView, rps float64) int {
	t.Helper()
	var xs []page.ChartText
	for _, tx := range v.Texts {
		if tx.Class == "rs-lc-xtick" {
			xs = append(xs, tx)
		}
	}
	if len(xs) < 2 {
		t.Fatal("fewer than two rate ticks")
	}
	a, b := xs[0], xs[len(xs)-1]
	ra, rb := parseTick(t, a.Text), parseTick(t, b.Text)
	return a.X + int(math.Round((rps-ra)/(rb-ra)*float64(b.X-a.X)))
}

func yOf(t *testing.T, v page.LoadChartView, sec float64) int {
	t.Helper()
	var ys []page.ChartText
	for _, tx := range v.Texts {
		if tx.Class == "rs-lc-ytick" {
			ys = append(ys, tx)
		}
	}
	if len(ys) < 2 {
		t.Fatal("fewer than two latency ticks")
	}
	a, b := ys[0], ys[len(ys)-1]
	sec0, sec1 := tickValue(t, a.Text), tickValue(t, b.Text)
	// Tick labels sit 4 units above their line.
	y0, y1 := float64(a.Y+4), float64(b.Y+4)
	return int(math.Round(y0 + (math.Log(sec)-math.Log(sec0))/(math.Log(sec1)-math.Log(sec0))*(y1-y0)))
}

func parseTick(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// tickValue reads "20 ms" or "1 s" (any language's unit) in seconds.
func tickValue(t *testing.T, s string) float64 {
	t.Helper()
	num, unit, _ := strings.Cut(s, " ")
	f := parseTick(t, num)
	for _, lang := range []string{"en", "ru", "zh"} {
		if unit == page.Tr(lang, page.MsgMs) {
			return f / 1000
		}
	}
	return f
}
