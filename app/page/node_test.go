package page

import "testing"

// find is the first node under n (n included) that ok accepts.
func find(n Node, ok func(Node) bool) (Node, bool) {
	if ok(n) {
		return n, true
	}
	for _, k := range n.Kids {
		if f, found := find(k, ok); found {
			return f, true
		}
	}
	return Node{}, false
}

func byID(id string) func(Node) bool { return func(n Node) bool { return n.ID == id } }

func attrOf(n Node, k string) string {
	for _, a := range n.Attrs {
		if a.K == k {
			return a.V
		}
	}
	return ""
}

// TestBreakdownNode: the verdict's class, the bar's widths, a part's row
// with its fold, and the optional totals only when they say something.
func TestBreakdownNode(t *testing.T) {
	b := Breakdown{Lang: "en", Title: "Memory", Verdict: "Does not fit", Total: "90 GiB", Usable: "80 GiB", Band: "±3%", Verify: "nvidia-smi",
		Parts: []Part{{ID: "rs-weights", Name: "Weights", Value: "60 GiB", Share: "67%", Seg: 0, Permille: 667, Formula: "P × b"},
			{ID: "rs-kv", Name: "KV cache", Value: "30 GiB", Share: "33%", Seg: 1, Permille: 333}}}
	n := BreakdownNode(&b)
	if v, ok := find(n, byID("rs-verdict")); !ok || v.Class != "rs-verdict rs-bad" || v.Text != "Does not fit" {
		t.Errorf("verdict %+v", v)
	}
	if r, ok := find(n, func(n Node) bool { return n.Tag == "svg:rect" && n.Class == "rs-seg-1" }); !ok || attrOf(r, "x") != "667" || attrOf(r, "width") != "333" {
		t.Errorf("the KV cache's bar %+v", r)
	}
	if f, ok := find(n, func(n Node) bool { return n.Kind == NodeBasis && n.Text == "Weights" }); !ok || f.Cmp != 0 || len(f.Kids) != 2 ||
		f.Kids[0].Label != "Formula" || f.Kids[0].Text != "P × b" || f.Kids[1].Label != "Verify it" {
		t.Errorf("the weights' fold %+v", f)
	}
	if v, ok := find(n, byID("rs-usable")); !ok || v.Text != "80 GiB" {
		t.Errorf("usable %+v", v)
	}
	if _, ok := find(n, byID("rs-load-peak")); ok {
		t.Error("a load peak row without a load peak")
	}
	b.LoadPeak, b.Fits = "95 GiB", true
	n = BreakdownNode(&b)
	if v, ok := find(n, byID("rs-load-peak")); !ok || v.Text != "95 GiB" {
		t.Errorf("load peak %+v", v)
	}
	if _, ok := find(n, byID("rs-backward-end-peak")); ok {
		t.Error("a backward-end row without a backward-end peak")
	}
	b.BackwardEndPeak = "21 GiB"
	n = BreakdownNode(&b)
	if v, ok := find(n, byID("rs-backward-end-peak")); !ok || v.Text != "21 GiB" {
		t.Errorf("backward-end peak %+v", v)
	}
	if v, _ := find(n, byID("rs-verdict")); v.Class != "rs-verdict rs-ok" {
		t.Errorf("a fitting verdict's class %q", v.Class)
	}
}

// TestPickNode: the card's data attributes, the age line kept (a no-break
// space) while there is no clock, the notes only when there are some (and
// folded), and
// the "Use this" button handed to the component.
func TestPickNode(t *testing.T) {
	p := PickView{Kind: "cheapest", Title: "Cheapest", GPU: "h100-sxm", Plan: Plan{GPUs: 8}, Cost: "$10", Time: "2 h",
		Price: PriceLabels{Date: "2026-11-01", Source: "aws.amazon.com"}}
	n := PickNode("en", &p, "Cost", "Time", false)
	if n.Tag != "article" || attrOf(n, "data-kind") != "cheapest" || attrOf(n, "data-gpu") != "h100-sxm" || attrOf(n, "data-gpus") != "8" {
		t.Errorf("card %s %v", n.Tag, n.Attrs)
	}
	if a, ok := find(n, func(n Node) bool { return n.Class == " rs-pick-age" || n.Class == "rs-pick-age" }); !ok || a.Text != "\u00a0" {
		t.Errorf("age line %+v", a)
	}
	if _, ok := find(n, func(n Node) bool { return n.Class == "rs-where rs-pick-notes" }); ok {
		t.Error("a notes line without notes")
	}
	if s, ok := find(n, func(n Node) bool { return n.Kind == NodeSource }); !ok || s.Text != "aws.amazon.com" || s.Ref != Tr("en", MsgSource) {
		t.Errorf("source %+v", s)
	}
	if b := n.Kids[len(n.Kids)-1]; b.Kind != NodeAction || b.Ref != "use" || b.Text != Tr("en", MsgUseThis) {
		t.Errorf("last piece %+v, want the Use this button", b)
	}
	if c, ok := find(n, func(n Node) bool { return n.Class == "rs-pick-cost" }); !ok || c.Text != "$10" {
		t.Errorf("cost %+v", c)
	}
	// Notes fold under one line, below the reason, above the button.
	p.Notes = "scaled out from 1 to 16 instances"
	n = PickNode("ru", &p, "Cost", "Time", false)
	d, ok := find(n, func(n Node) bool { return n.Class == "rs-where rs-pick-notes" })
	if !ok || d.Tag != "details" || len(d.Kids) != 2 || d.Kids[0].Tag != "summary" || d.Kids[0].Text != Tr("ru", MsgPickMore) || d.Kids[1].Text != p.Notes {
		t.Errorf("notes %+v, want them folded under %q", d, Tr("ru", MsgPickMore))
	}
}

// TestFactsNode: a fact's id on its value, its detail and its fold only
// when given.
func TestFactsNode(t *testing.T) {
	n := FactsNode("en", []Fact{{ID: "rs-ttft", Label: "TTFT", Value: "0.2 s", Basis: Basis{Formula: "prefill", Band: "±20%"}}, {Label: "Cost", Value: "$1", Detail: "AWS"}})
	if len(n.Kids) != 2 || n.Class != "rs-facts" {
		t.Fatalf("facts %+v", n)
	}
	if v, ok := find(n.Kids[0], byID("rs-ttft")); !ok || v.Tag != "dd" || v.Text != "0.2 s" {
		t.Errorf("value %+v", v)
	}
	if f, ok := find(n.Kids[0], func(n Node) bool { return n.Kind == NodeBasis }); !ok || len(f.Kids) != 2 || f.Cmp != -1 {
		t.Errorf("fold %+v", f)
	}
	if _, ok := find(n.Kids[1], func(n Node) bool { return n.Kind == NodeBasis }); ok {
		t.Error("a fold without a basis")
	}
	if d, ok := find(n.Kids[1], func(n Node) bool { return n.Class == "rs-where" }); !ok || d.Text != "AWS" {
		t.Errorf("detail %+v", d)
	}
}
