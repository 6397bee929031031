package app

// The serving latency chart's component: loadchart.go computes and lays
// out the chart; loadChart renders it.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
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

// serveUI is the serving section of view v, or nothing without a
// serving plan. The page calls the sections it hides only when they show:
// WebAssembly code is compiled on a function's first call.
func serveUI(v *page.ServeView, lang string) app.UI {
	if !v.Shown {
		return app.Text("")
	}
	fleet := func(id, bindsID string, f *page.ServeFleet) []app.UI {
		return []app.UI{
			app.P().Class("rs-sub").ID(id).Text(f.Name),
			nodeUI(page.FactsNode(lang, f.Facts), hooks{}),
			app.If(f.Binds != "", func() app.UI { return app.P().Class("rs-sub rs-binds").ID(bindsID).Text(f.Binds) }),
		}
	}
	body := []app.UI{app.H2().Text(v.Title)}
	body = append(body, fleet("rs-fleet-plan", "rs-binds", &v.Best)...)
	body = append(body,
		app.If(v.Chart.Title != "", func() app.UI { return &loadChart{V: v.Chart} }),
		dailyFleetUI(&v.Daily))
	if v.Here.Name != "" {
		body = append(body, fleet("rs-fleet-here", "rs-here-binds", &v.Here)...)
	}
	if v.Disagg != "" {
		body = append(body, app.H3().Text(v.DisaggTitle), app.P().Class("rs-sub").ID("rs-disagg").Text(v.Disagg))
	}
	return app.Section().Class("rs-serve").Body(body...)
}

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
