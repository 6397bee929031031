package page

import (
	"reflect"
	"testing"
)

// attr is a row's attribute k ("" when it has none).
func attr(r Row, k string) string {
	for _, a := range r.Attrs {
		if a.K == k {
			return a.V
		}
	}
	return ""
}

func TestFitTable(t *testing.T) {
	v := FitView{CostHeader: "Job cost · on-demand", Rows: []FitRow{
		{GPU: "h100", Name: "H100", VRAM: "80 GB", Verdict: "fits", Need: "1", From: "$2.00/h", Cost: "$10", Where: "AWS",
			Fits: true, Selected: true, Cheapest: true, Plan: Plan{GPUs: 2, TP: 2, PP: 1}, Offer: "aws-p5", Cmp: 1},
		{GPU: "t4", Name: "T4", Verdict: "too small", Need: "4", Split: "TP 4", Plan: Plan{GPUs: 4, TP: 4, PP: 1}},
	}}
	tb := FitTable("en", &v)
	if tb.ID != "rs-fit" || !tb.Picks || len(tb.Head) != 6 || tb.Head[5].Class != "num" || tb.Head[5].Nodes[0].Text != v.CostHeader {
		t.Fatalf("head %+v", tb)
	}
	r := tb.Rows[0]
	if r.Class != "rs-row rs-selected" || attr(r, "aria-selected") != "true" || attr(r, "data-gpus") != "2" || attr(r, "data-tp") != "2" || attr(r, "tabindex") != "0" {
		t.Errorf("selected row %+v", r)
	}
	name := r.Cells[0]
	if name.Label != "GPU" || len(name.Nodes) != 2 || !reflect.DeepEqual(name.Nodes[1], Node{Kind: NodeCompare, Ref: "aws-p5", Text: Tr("en", MsgCompared), Cmp: 1}) {
		t.Errorf("name cell %+v", name)
	}
	cost := r.Cells[5]
	want := []Node{{Kind: NodeSpan, Class: "rs-badge", Text: "cheapest "}, {Kind: NodeText, Text: "$10"}, {Kind: NodeDiv, Class: "rs-where", Text: "AWS"}}
	if cost.Class != "num rs-cost" || cost.Label != v.CostHeader || !reflect.DeepEqual(cost.Nodes, want) {
		t.Errorf("cost cell %+v", cost)
	}
	r = tb.Rows[1]
	if r.Class != "rs-row" || attr(r, "aria-selected") != "false" || len(r.Cells[0].Nodes) != 1 ||
		r.Cells[2].Nodes[0].Class != "rs-bad" || r.Cells[3].Nodes[1].Text != "TP 4" || len(r.Cells[5].Nodes) != 0 {
		t.Errorf("second row %+v", r)
	}
}

func TestOfferTable(t *testing.T) {
	v := OffersView{CostHeader: "Cost", TimeHeader: "Time", Rows: []OfferRow{
		{ID: "a", GPU: "h100", Provider: "AWS", AsOf: "2025-10-01", Estimated: true, Own: true, Age: 2, Verify: "check", Source: "catalog/x.json",
			Plan: Plan{GPUs: 8, TP: 8, PP: 1}, Cmp: 2},
		{ID: "b", GPU: "a100", Provider: "GCP", AsOf: "2025-11-01", Plan: Plan{GPUs: 1, TP: 1, PP: 1}, Cmp: -1},
	}}
	tb := OfferTable("en", &v)
	if tb.ID != "rs-offers" || len(tb.Head) != 10 || tb.Head[7].Nodes[0].Text != "Time" || tb.Head[8].Class != "" {
		t.Fatalf("head %+v", tb.Head)
	}
	r := tb.Rows[0]
	if attr(r, "data-offer") != "a" || attr(r, "data-gpu") != "h100" || attr(r, "data-gpus") != "8" || len(r.Cells) != 10 {
		t.Errorf("row %+v", r)
	}
	p := r.Cells[0].Nodes
	if len(p) != 3 || p[1].Class != "rs-badge" || p[2].Kind != NodeCompare || p[2].Cmp != 2 || p[2].Text != Tr("en", MsgCompareAdd) {
		t.Errorf("provider %+v", p)
	}
	asof := r.Cells[9].Nodes
	if len(asof) != 4 || asof[0].Text != "2025-10-01 (estimated date)" || asof[0].Class != GradeClass[1] ||
		asof[1].Class != "rs-where "+GradeClass[1] || asof[2].Class != "rs-warn rs-verify" || asof[3].Kind != NodeSource || asof[3].Ref != Tr("en", MsgSource) {
		t.Errorf("as-of cell %+v", asof)
	}
	// An offer without a plan has no compare button; no clock, no grade.
	r = tb.Rows[1]
	if len(r.Cells[0].Nodes) != 1 || len(r.Cells[9].Nodes) != 1 || r.Cells[9].Nodes[0].Class != "" {
		t.Errorf("plain row %+v", r)
	}
}

func TestPlanFromData(t *testing.T) {
	attrs := planAttrs("h100", Plan{GPUs: 4, TP: 2, PP: 2, ZeRO: 3})
	get := func(k string) string { return attr(Row{Attrs: attrs}, "data-"+k) }
	gpu, p, ok := PlanFromData(get)
	if !ok || gpu != "h100" || p != (Plan{GPUs: 4, TP: 2, PP: 2, ZeRO: 3}) {
		t.Errorf("round trip: %q %+v %v", gpu, p, ok)
	}
	for _, d := range []map[string]string{{"gpus": "2"}, {"gpu": "h100", "gpus": "x"}, {"gpu": "h100", "gpus": "0"}} {
		if _, _, ok := PlanFromData(func(k string) string { return d[k] }); ok {
			t.Errorf("%v read as a pick", d)
		}
	}
}

func TestSmallTables(t *testing.T) {
	rules := RulesTable("en", &RulesView{Rows: []RuleRow{{Rule: "2x", Label: "2 bytes", OffBy: "+40%", Bad: true}}})
	if rules.ID != "rs-rules" || rules.Picks || attr(rules.Rows[0], "data-rule") != "2x" || rules.Rows[0].Cells[3].Class != "num rs-bad" || len(rules.Head[0].Nodes) != 0 {
		t.Errorf("rules %+v", rules)
	}
	// On a phone each rule is a card: its numbers carry their columns' names.
	if c := rules.Rows[0].Cells; c[0].Label != "" || c[1].Label != Tr("en", MsgRuleSays) || c[2].Label != Tr("en", MsgThisEstimate) || c[3].Label != Tr("en", MsgOffBy) || c[3].Label == "" {
		t.Errorf("rules labels %q %q %q %q", c[0].Label, c[1].Label, c[2].Label, c[3].Label)
	}
	pin := PinTable(&PinView{Pinned: "Pinned", Live: "Now", Rows: []PinRow{{"GPU", "A100", "H100"}}})
	if c := pin.Rows[0].Cells; !c[0].Th || c[0].Nodes[0].Text != "GPU" || c[2].Nodes[0].Text != "H100" || pin.Head[2].Nodes[0].Text != "Now" {
		t.Errorf("pin %+v", pin)
	}
	h := HostedTable(&HostedView{Title: "APIs", Heads: [6]string{"API", "Prices", "Month", "Self", "Break-even", "Source"}, Rows: []HostedRow{{API: "x"}}})
	if h.Caption != "APIs" || h.Head[0].Class != "" || h.Head[1].Class != "num" || h.Head[4].Class != "num" || h.Head[5].Class != "" ||
		len(h.Rows[0].Cells[0].Nodes) != 2 || h.Rows[0].Cells[5].Class != "rs-asof rs-src" ||
		h.Rows[0].Cells[0].Label != "" || h.Rows[0].Cells[1].Label != "Prices" || h.Rows[0].Cells[4].Label != "Break-even" || h.Rows[0].Cells[5].Label != "Source" {
		t.Errorf("hosted %+v", h)
	}
	fx := FXTable(&FXView{Title: "Rates", Heads: [3]string{"Currency", "Per USD", "As of"}, Rows: []FXRow{{"EUR", "0.92", "2025-11-01", "ECB"}}})
	if fx.Head[1].Class != "num" || !reflect.DeepEqual(fx.Rows[0].Cells[2].Nodes[1], Node{Kind: NodeDiv, Class: "rs-where rs-src", Text: "ECB"}) {
		t.Errorf("fx %+v", fx)
	}
}

func TestPlansTable(t *testing.T) {
	v := PlansView{Labels: [5]string{"Cost", "Time", "VRAM", "$/1M", "Date"}, Remove: "Remove", Cols: []PlanCol{
		{ID: "a", Title: "1 × H100", Where: "AWS", RowCells: RowCells{Cost: "$1", Time: "2 h"}, VRAM: "80 GB"},
		{ID: "b", Title: "8 × B200", Where: "GCP", RowCells: RowCells{Cost: "$9"}},
	}}
	tb := PlansTable(&v)
	if tb.ID != "rs-plans-table" || !tb.Removes || tb.Picks || len(tb.Head) != 3 || len(tb.Rows) != 5 {
		t.Fatalf("table %+v", tb)
	}
	h := tb.Head[2]
	if attr(Row{Attrs: h.Attrs}, "data-offer") != "b" || len(h.Nodes) != 3 ||
		!reflect.DeepEqual(h.Nodes[2], Node{Kind: NodeRemove, Ref: "b", Text: "Remove", Label: "Remove: 8 × B200 GCP"}) {
		t.Errorf("head %+v", h)
	}
	cost := tb.Rows[0].Cells
	if !cost[0].Th || cost[0].Nodes[0].Text != "Cost" || cost[1].Class != "num rs-cmp-cost" || cost[1].Label != "Cost" || cost[2].Nodes[0].Text != "$9" {
		t.Errorf("cost row %+v", cost)
	}
	if c := tb.Rows[2].Cells[1]; c.Class != "num rs-cmp-vram" || c.Nodes[0].Text != "80 GB" {
		t.Errorf("VRAM cell %+v", c)
	}
}
