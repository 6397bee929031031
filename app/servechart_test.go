package app

import (
	"html"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

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
			c.start.drop(c.plainView(), c.ps.Out.OK)
			c.recompute(none)
			if !c.ps.Out.Load.OK {
				t.Fatal("no chart")
			}
			doc := app.HTMLString(c.Render())
			l := locOf(c)
			s := c.ps.Out.Load
			v := page.LoadChartOf(s, l, "x")
			for _, want := range []string{
				`id="rs-load-chart"`, `class="rs-lc-curve rs-lc-ttft95"`, `class="rs-lc-curve rs-lc-ttft50"`,
				`class="rs-lc-curve rs-lc-tpot95"`, `<path `, `<text `, `class="rs-lc-target rs-lc-ttft95"`, `class="rs-lc-target rs-lc-tpot95"`,
				`class="rs-lc-op"`, `class="rs-lc-sat"`, `class="rs-lc-ytick"`, `class="rs-lc-xtick"`,
				html.EscapeString(l.T(page.MsgLoadX)), html.EscapeString(l.T(page.MsgLoadY)), html.EscapeString(l.T(page.MsgLoadTitle)),
				html.EscapeString(page.Fill(l.T(page.MsgLoadTTFTTarget), "p95", page.TickSeconds(l, 1))), l.T(page.MsgMs),
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
