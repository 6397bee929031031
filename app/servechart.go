package app

// The serving latency chart's component: loadchart.go computes and lays
// out the chart; loadChart renders it.

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// loadChart draws a laid-out latency chart. The axis names and the legend
// are HTML around the SVG, which keeps the page's font size on a phone.
type loadChart struct {
	app.Compo
	V *page.LoadChartView
}

func (c *loadChart) Render() app.UI { return nodeUI(page.LoadChartNode(c.V), hooks{}) }

// serveUI is the serving section of view v, or nothing without a serving
// plan. The page calls the sections it hides only when they show:
// WebAssembly code is compiled on a function's first call.
func serveUI(v *page.ServeView, lang string) app.UI {
	return nodeUI(page.ServeNode(lang, v), hooks{ui: map[string]app.UI{"load": &loadChart{V: &v.Chart}}})
}
