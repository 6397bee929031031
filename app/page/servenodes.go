package page

import "strconv"

// The serving section as Nodes: the fleet for the cheapest pick and for
// the selected GPU, the latency chart (slot "load", a leaf of the
// component's), the daily fleet and its chart.

// ServeNode is the serving section of v, or nothing without a serving
// plan.
func ServeNode(lang string, v *ServeView) Node {
	if !v.Shown {
		return none
	}
	fleet := func(id, bindsID string, f *ServeFleet) []Node {
		return append([]Node{tx("p", "rs-sub", f.Name).id(id), FactsNode(lang, f.Facts)},
			when(f.Binds != "", tx("p", "rs-sub rs-binds", f.Binds).id(bindsID))...)
	}
	return el("section", "rs-serve", tx("h2", "", v.Title)).kids(
		fleet("rs-fleet-plan", "rs-binds", &v.Best),
		when(v.Chart.Title != "", slot("load")),
		[]Node{DailyFleetNode(&v.Daily)},
		when(v.Here.Name != "", fleet("rs-fleet-here", "rs-here-binds", &v.Here)...),
		when(v.Disagg != "", tx("h3", "", v.DisaggTitle), tx("p", "rs-sub", v.Disagg).id("rs-disagg")))
}

// LoadChartNode is a laid-out latency chart. The axis names and the
// legend are HTML around the SVG, which keeps the page's font size on a
// phone; the SVG's title names it, the caption below says its figures.
func LoadChartNode(v *LoadChartView) Node {
	return el("figure", "rs-load",
		tx("h3", "", v.Title),
		tx("div", "rs-axis-label rs-axis-y", "↑ "+v.YLabel).attr("aria-hidden", "true"),
		chartSVG("rs-load-chart", ChartViewBox, v.Title, v.Paths, v.Texts),
		tx("div", "rs-axis-label rs-axis-x", v.XLabel+" →").attr("aria-hidden", "true"),
		chartKeys("rs-lc-keys", v.Keys),
		tx("figcaption", "", v.Caption).id("rs-load-info"))
}

// chartSVG is a laid-out chart's SVG: its title, then its paths and tick
// labels, each styled by its class (the latency and the fleet charts).
func chartSVG(id, viewBox, title string, paths []ChartPath, texts []ChartText) Node {
	s := el("svg:svg", "", tx("svg:title", "", title)).id(id).attr("viewBox", viewBox).attr("role", "img")
	for _, p := range paths {
		s.Kids = append(s.Kids, el("svg:path", p.Class).attr("d", p.D))
	}
	for _, t := range texts {
		s.Kids = append(s.Kids, tx("svg:text", t.Class, t.Text).attr("x", strconv.Itoa(t.X)).attr("y", strconv.Itoa(t.Y)))
	}
	return s
}

// chartKeys is a chart's legend, in HTML so it keeps the page's font size.
func chartKeys(class string, keys []ChartKey) Node {
	ul := el("ul", class)
	for _, k := range keys {
		ul.Kids = append(ul.Kids, tx("li", k.Class, k.Text))
	}
	return ul
}

// list is a list of class class holding lines.
func list(class string, lines []string) Node {
	ul := el("ul", class)
	for _, l := range lines {
		ul.Kids = append(ul.Kids, tx("li", "", l))
	}
	return ul
}

// DailyFleetNode is the daily fleet's answer (FleetTextOf, FleetChartOf),
// or nothing when none was asked; its inputs (a load curve, a workload
// preset, the owned-GPU prices; FieldCurve …) are in their own box
// (FleetInputsNode).
func DailyFleetNode(v *DailyFleetView) Node {
	switch {
	case !v.Shown:
		return none
	case !v.OK:
		return el("div", "", tx("h3", "", v.Title), tx("p", "rs-warn", v.Unsized)).id("rs-daily-fleet")
	}
	bills := el("tbody", "")
	for _, x := range v.Choices {
		row := el("tr", "", tx("td", "", x.Name), tx("td", "rs-num", x.Monthly))
		if x.Best {
			row.Class = "rs-best"
		}
		bills.Kids = append(bills.Kids, row)
	}
	c := &v.Chart
	own := when(v.OwnErr != "", tx("p", "rs-warn", v.OwnErr).id("rs-fleet-own"))
	if len(v.Own) > 0 {
		own = []Node{tx("h3", "", v.OwnTitle), list("rs-fleet-list", v.Own).id("rs-fleet-own")}
	}
	return el("div", "", tx("h3", "", v.Title), tx("p", "", v.Headline).id("rs-fleet-best")).id("rs-daily-fleet").kids(
		when(v.VsCard != "", tx("p", "rs-sub", v.VsCard).id("rs-fleet-vs-card")),
		when(v.FX != "", tx("p", "rs-sub", v.FX)),
		[]Node{
			el("table", "rs-table rs-fleet-bills", el("thead", "", el("tr", "", tx("th", "", v.ChoiceHeads[0]), tx("th", "", v.ChoiceHeads[1]))), bills),
			el("figure", "rs-load rs-fleet-chart", tx("h3", "", c.Title), chartSVG("rs-fleet-chart", FleetViewBox, c.Title, c.Paths, c.Texts),
				chartKeys("rs-lc-keys rs-fc-keys", c.Keys), tx("figcaption", "", c.Caption)),
		},
		when(v.Mix != "", tx("h3", "", v.MixTitle), tx("p", "", v.Mix).id("rs-fleet-mix"), list("rs-fleet-list", v.MixLines)),
		own)
}
