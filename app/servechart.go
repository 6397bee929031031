package app

// The serving latency chart's component: loadchart.go computes and lays
// out the chart; loadChart renders it.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/estimator/sim"
)

// loadChart draws a laid-out latency chart. The axis names and the legend
// are HTML around the SVG, which keeps the page's font size on a phone.
type loadChart struct {
	app.Compo
	V page.LoadChartView
}

func (c *loadChart) Render() app.UI {
	v := c.V
	// The SVG's title names it; the caption below says its figures.
	return app.Figure().Class("rs-load").Body(
		app.H3().Text(v.Title),
		app.Div().Class("rs-axis-label rs-axis-y").Attr("aria-hidden", true).Text("↑ "+v.YLabel),
		chartSVG("rs-load-chart", page.ChartViewBox, v.Title, v.Paths, v.Texts),
		app.Div().Class("rs-axis-label rs-axis-x").Attr("aria-hidden", true).Text(v.XLabel+" →"),
		chartKeys("rs-lc-keys", v.Keys),
		app.FigCaption().ID("rs-load-info").Text(v.Caption),
	)
}

// loadChartUI is the serving latency chart of the cheapest pick, or
// nothing when it has none.
func (c *Calculator) loadChartUI() app.UI {
	s := c.ps.out.Load
	if !s.OK || !c.ps.out.Serve.OK {
		return app.Text("")
	}
	v := c.ps.out.Serve
	l := c.loc()
	what := l.Count(int64(v.Plan.TP*max(v.Plan.PP, 1))) + " × " + c.pr.GPUName(v.Offer.GPU) + " · " + page.EngineLabels[v.Engine]
	return &loadChart{V: page.LoadChartOf(s, l, what)}
}

// bindingText says what set a fleet's replica count and what held
// requests back in each engine copy, for a fleet the simulator sized.
func (c *Calculator) bindingText(v page.ServeResult) string {
	if !v.Sized {
		return ""
	}
	l := c.loc()
	rps := page.ShortRate(l, c.d.Job.RPS)
	var s string
	switch v.Binding {
	case sim.BindTTFT:
		s = page.Fill(l.T(page.MsgBindTTFT), rps)
	case sim.BindTPOT:
		s = page.Fill(l.T(page.MsgBindTPOT), rps)
	case sim.BindThroughput:
		s = page.Fill(l.T(page.MsgBindThroughput), rps)
	default:
		s = page.Fill(l.T(page.MsgBindNone), rps)
	}
	if v.Limit < 0 || int(v.Limit) >= len(limitKeys) {
		return s
	}
	return page.Fill(l.T(page.MsgBindAnd), s, l.T(limitKeys[v.Limit]))
}

// limitKeys name what held requests back in an engine copy, by sim.Limit.
var limitKeys = [...]page.MsgKey{sim.LimitNone: page.MsgLimitNone, sim.LimitSeqs: page.MsgLimitSeqs, sim.LimitKV: page.MsgLimitKV,
	sim.LimitTokens: page.MsgLimitTokens, sim.LimitPolling: page.MsgLimitPolling}

// chartSVG is a laid-out chart's SVG: its title, then its paths and tick
// labels, each styled by its class (the latency and the fleet charts).
func chartSVG(id, viewBox, title string, paths []page.ChartPath, texts []page.ChartText) app.UI {
	body := make([]app.UI, 0, 1+len(paths)+len(texts))
	body = append(body, svg("title").Text(title))
	for _, p := range paths {
		body = append(body, svg("path").Class(p.Class).Attr("d", p.D))
	}
	for _, t := range texts {
		body = append(body, svg("text").Class(t.Class).Attr("x", strconv.Itoa(t.X)).Attr("y", strconv.Itoa(t.Y)).Text(t.Text))
	}
	return svg("svg").ID(id).Attr("viewBox", viewBox).Attr("role", "img").Body(body...)
}

// chartKeys is a chart's legend, in HTML so it keeps the page's font size.
func chartKeys(class string, keys []page.ChartKey) app.UI {
	return app.Ul().Class(class).Body(app.Range(keys).Slice(func(i int) app.UI {
		return app.Li().Class(keys[i].Class).Text(keys[i].Text)
	}))
}
