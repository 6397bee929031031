package page

import "testing"

// slots are the slot names under n, in order.
func slots(n Node) []string {
	var out []string
	if n.Kind == NodeSlot {
		out = append(out, n.Ref)
	}
	for _, k := range n.Kids {
		out = append(out, slots(k)...)
	}
	return out
}

// TestAnswerNode: each kind of answer keeps the job line, and only the
// picks' answer holds the picks, the notes and the chart.
func TestAnswerNode(t *testing.T) {
	for _, tc := range []struct {
		v     AnswerView
		id    string
		cls   string
		slots string
	}{
		{AnswerView{Kind: AnswerStale, Note: "fix"}, "rs-answer-stale", "rs-answer rs-stale", "job"},
		{AnswerView{Kind: AnswerPlanning, Note: "…"}, "rs-planning", "rs-answer", "job"},
		{AnswerView{Kind: AnswerNone, Note: "none", Widened: "without the budget"}, "rs-widened", "rs-answer", "job"},
		{AnswerView{Kind: AnswerPicks, Note: "n", FX: "1 USD = 0.9 EUR", Notes: []string{"a", "b"}, Chart: ChartView{Points: []Point{{}}}}, "rs-fx-line", "rs-answer", "job picks chart"},
		{AnswerView{Kind: AnswerStalePicks, Note: "fix"}, "rs-answer-stale", "rs-answer rs-stale", "job picks"},
	} {
		n := AnswerNode(&View{Lang: "en", Answer: tc.v})
		got := ""
		for i, s := range slots(n) {
			if i > 0 {
				got += " "
			}
			got += s
		}
		if n.Tag != "section" || n.Class != tc.cls || got != tc.slots {
			t.Errorf("kind %d: <%s class=%q> slots %q, want class %q slots %q", tc.v.Kind, n.Tag, n.Class, got, tc.cls, tc.slots)
		}
		if _, ok := find(n, byID(tc.id)); !ok {
			t.Errorf("kind %d: no #%s", tc.v.Kind, tc.id)
		}
		if notes, ok := find(n, byID("rs-plan-notes")); ok != (len(tc.v.Notes) > 0) || ok && len(notes.Kids[1].Kids) != 2 {
			t.Errorf("kind %d: plan notes %v %+v", tc.v.Kind, ok, notes)
		}
	}
}

// TestSectionNodes: an empty section is left out; the offers' "Show all"
// says how many more and goes to the component's handler.
func TestSectionNodes(t *testing.T) {
	if n := PerfNode("en", &PerfView{}); n.Kind != NodeText || n.Text != "" {
		t.Errorf("an empty summary renders %+v", n)
	}
	if n := OffersNode("en", &OffersView{}); n.Tag != "" {
		t.Errorf("offers without a title render %+v", n)
	}
	n := OffersNode("en", &OffersView{Title: "Offers", Rows: []OfferRow{{}}, More: 7})
	if b, ok := find(n, byID("rs-more-offers")); !ok || b.Kind != NodeAction || b.Ref != "all" || b.Text != Tr("en", MsgShowAll)+" (+7)" {
		t.Errorf("show all %+v", b)
	}
	if n := OffersNode("en", &OffersView{Title: "Offers"}); len(slots(n)) != 0 {
		t.Errorf("offers without rows hold a table: %v", slots(n))
	}
	if n := ResultNode("en", &ResultView{}, false, []string{"batch: not a number"}); len(n.Kids) != 2 || n.Kids[1].Class != "rs-error" {
		t.Errorf("problems %+v", n)
	}
	if n := FitNode("en", &FitView{Rows: []FitRow{{}}}); len(slots(n)) != 2 || slots(n)[0] != "sort" {
		t.Errorf("fit slots %v", slots(n))
	}
}
