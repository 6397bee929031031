package page

import "testing"

// TestServeNodes: the serving section holds the latency chart's slot only
// with a chart, the selected GPU's fleet only when there is one; the daily
// fleet says why it has none, or marks the best bill and lists the owned
// GPUs (else their problem).
func TestServeNodes(t *testing.T) {
	v := ServeView{Shown: true, Title: "Serving", Best: ServeFleet{Name: "2 × H100", Binds: "TTFT"}}
	n := ServeNode("en", &v)
	if len(slots(n)) != 0 {
		t.Errorf("slots without a chart: %v", slots(n))
	}
	if b, ok := find(n, byID("rs-binds")); !ok || b.Text != "TTFT" {
		t.Errorf("binds %+v", b)
	}
	if _, ok := find(n, byID("rs-fleet-here")); ok {
		t.Error("a fleet on the selected GPU without one")
	}
	v.Chart.Title, v.Here.Name = "Latency", "4 × L40S"
	n = ServeNode("en", &v)
	if got := slots(n); len(got) != 1 || got[0] != "load" {
		t.Errorf("slots %v", got)
	}
	if h, ok := find(n, byID("rs-fleet-here")); !ok || h.Text != "4 × L40S" {
		t.Errorf("here %+v", h)
	}
	if n := ServeNode("en", &ServeView{}); n.Tag != "" {
		t.Errorf("no serving plan renders %+v", n)
	}

	d := DailyFleetView{Shown: true, Title: "Daily fleet", Unsized: "no offer fits"}
	if n := DailyFleetNode(&d); n.ID != "rs-daily-fleet" || len(n.Kids) != 2 || n.Kids[1].Text != "no offer fits" {
		t.Errorf("unsized %+v", n)
	}
	d.OK, d.OwnErr = true, "price: not a number"
	d.Choices = []FleetChoiceText{{Name: "on demand", Monthly: "$9"}, {Name: "mix", Monthly: "$5", Best: true}}
	n = DailyFleetNode(&d)
	if best, ok := find(n, func(n Node) bool { return n.Class == "rs-best" }); !ok || best.Kids[0].Text != "mix" {
		t.Errorf("best bill %+v", best)
	}
	if o, ok := find(n, byID("rs-fleet-own")); !ok || o.Tag != "p" || o.Text != d.OwnErr {
		t.Errorf("own problem %+v", o)
	}
	d.Own = []string{"8 × H100 owned: $4"}
	if o, _ := find(DailyFleetNode(&d), byID("rs-fleet-own")); o.Tag != "ul" || len(o.Kids) != 1 {
		t.Errorf("own list %+v", o)
	}
}
