package page

import "testing"

// TestChartNode: one circle per point, the point shown's label in the
// caption and its "+ Compare" only where the page offers the comparison;
// the chart's handlers are named for the component.
func TestChartNode(t *testing.T) {
	v := ChartView{Title: "Cost vs time", Points: []Point{{ID: "a", Label: "A", X: 20, Y: 30}, {ID: "b", Label: "B", X: 40, Y: 50}}}
	n := ChartNode("en", &v, 0, nil, false)
	chart, _ := find(n, byID("rs-pareto"))
	circles := 0
	for _, k := range chart.Kids {
		if k.Tag == "svg:circle" {
			circles++
		}
	}
	if circles != 2 || attrOf(chart, "on:click") != "pick" || attrOf(chart, "on:mouseover") != "show" {
		t.Errorf("chart: %d points, handlers %v", circles, chart.Attrs)
	}
	if info, _ := find(n, byID("rs-pareto-info")); info.Text != Tr("en", MsgParetoHint) {
		t.Errorf("nothing shown: caption %q", info.Text)
	}
	if _, ok := find(n, byID("rs-pareto-cmp")); ok {
		t.Error("a + Compare with no point shown")
	}
	n = ChartNode("en", &v, 2, []string{"b"}, false)
	if info, _ := find(n, byID("rs-pareto-info")); info.Text != "B" {
		t.Errorf("point 2 shown: caption %q", info.Text)
	}
	if c, ok := find(n, byID("rs-pareto-cmp")); !ok || len(c.Kids) != 1 || c.Kids[0].Cmp != 1 || attrOf(c, "on:keydown") != "cmpkey" {
		t.Errorf("compare %+v", c)
	}
	if _, ok := find(ChartNode("en", &v, 2, nil, true), byID("rs-pareto-cmp")); ok {
		t.Error("the embed page's chart offers + Compare")
	}
	if _, ok := find(ChartNode("en", &v, 3, nil, false), byID("rs-pareto-cmp")); ok {
		t.Error("a point past the last is shown")
	}
}

// TestFileBoxes: the prerendered picker is disabled, the live one writes
// no disabled attribute; a saved sheet that failed says it was kept; the
// config box offers dropping a bad saved one.
func TestFileBoxes(t *testing.T) {
	picker := func(n Node) Node { p, _ := find(n, byID("rs-prices-file")); return p }
	if p := picker(SheetNode("en", &SheetBox{Off: true})); attrOf(p, "disabled") != "true" || attrOf(p, "on:change") != "pick" {
		t.Errorf("prerendered picker %v", p.Attrs)
	}
	if p := picker(SheetNode("en", &SheetBox{})); attrOf(p, "disabled") != "" || attrOf(p, "aria-invalid") != "false" {
		t.Errorf("live picker %v", p.Attrs)
	}
	n := SheetNode("en", &SheetBox{Err: "bad row", SavedBad: true})
	if e, _ := find(n, byID("rs-prices-file-error")); e.Text != Tr("en", MsgSavedKept)+" bad row" {
		t.Errorf("error %q", e.Text)
	}
	if b, ok := find(n, byID("rs-prices-clear")); !ok || b.Ref != "clear" {
		t.Errorf("clear %+v", b)
	}
	if _, ok := find(SheetNode("en", &SheetBox{}), byID("rs-prices-clear")); ok {
		t.Error("Clear without a sheet")
	}
	n = ConfigNode("en", "not JSON", false, true)
	if b, ok := find(n, byID("rs-config-drop")); !ok || b.Ref != "dropsaved" || n.ID != "rs-your-model" {
		t.Errorf("config drop %+v", b)
	}
	if p, _ := find(n, byID("rs-config-paste")); attrOf(p, "aria-invalid") != "true" || attrOf(p, "on:change") != "paste" {
		t.Errorf("paste box %v", p.Attrs)
	}
}
