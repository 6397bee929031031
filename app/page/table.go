package page

import (
	"strconv"

	"rightsize/estimator"
)

// The page's tables as one shape: a Table is laid out here, from a
// section's view, down to each cell's class, column name and pieces, so
// the component renders every table (fit, offers, rules, the pin's
// comparison, hosted APIs, exchange rates) with one small renderer and
// decides nothing.

// Table is one table: its element id, caption, header row and rows. Picks
// marks a table whose rows carry a plan (planAttrs) that a click or Enter
// applies, and whose "+ Compare" buttons add an offer to the comparison;
// Removes one whose header holds buttons that take one out of it.
type Table struct {
	ID, Caption    string
	Head           []Cell
	Rows           []Row
	Picks, Removes bool
}

// Row is one table row: its class, its attributes (data-gpu, data-offer,
// data-rule, aria-selected, tabindex…), in order, and its cells.
type Row struct {
	Class string
	Attrs []Attr
	Cells []Cell
}

// Attr is an element attribute.
type Attr struct{ K, V string }

// Cell is one cell: a header (Th; every cell of Table.Head is one) or
// data; its class, id, column name for the phone's card layout (Label, as
// data-label), other attributes and what it holds, in order.
type Cell struct {
	Th               bool
	Class, ID, Label string
	Attrs            []Attr
	Nodes            []Node
}

// NodeKind is what a piece of a cell is.
type NodeKind int

const (
	NodeText    NodeKind = iota // Text
	NodeSpan                    // <span class=Class>Text</span>
	NodeDiv                     // <div class=Class>Text</div>
	NodeCompare                 // a "+ Compare" button: offer ID, label Text, state Cmp
	NodeSource                  // a price's source folded under the word Ref
	NodeRemove                  // a ✕ button that takes offer Ref out of the comparison, titled Text, named Label
	NodeEl                      // an element <Tag id=ID class=Class Attrs…>Text Kids…</Tag> (node.go)
	NodeBasis                   // a "how this was made" fold: summary Text, colour key Cmp (-1: none), facts Kids, link Label
	NodeAction                  // a button of class Class (id ID) saying Text whose click the component takes (handler Ref)
	NodeSlot                    // a leaf of the component's own, by name (Ref)
	NodeCopy                    // a button of class Class, id ID, saying Text, that copies or saves text Cmp (Copy)
)

// Node is one piece of a cell; the renderer writes every piece it is
// given (optional ones are left out when a cell is built).
type Node struct {
	Kind        NodeKind
	Class, Text string
	Ref         string // NodeCompare, NodeRemove: the offer ID; NodeSource: the fold's summary
	Label       string // NodeRemove: its accessible name
	Cmp         int
	// NodeEl: the element's tag ("svg:" before an SVG element's), id,
	// other attributes in order and children after its Text.
	Tag, ID string
	Attrs   []Attr
	Kids    []Node
}

// text is a piece of text; an empty text makes none.
func text(s string) []Node {
	if s == "" {
		return nil
	}
	return []Node{{Kind: NodeText, Text: s}}
}

// span and div are an element holding s; spanIf and divIf make none
// when s is empty.
func span(class, s string) []Node { return []Node{{Kind: NodeSpan, Class: class, Text: s}} }
func div(class, s string) []Node  { return []Node{{Kind: NodeDiv, Class: class, Text: s}} }

func spanIf(class, s string) []Node {
	if s == "" {
		return nil
	}
	return span(class, s)
}

func divIf(class, s string) []Node {
	if s == "" {
		return nil
	}
	return div(class, s)
}

// compareNode is a row's "+ Compare" button for offer id in state
// (CompareState); none without an offer.
func compareNode(lang, id string, state int) []Node {
	if id == "" {
		return nil
	}
	return []Node{{Kind: NodeCompare, Ref: id, Text: CompareLabel(lang, state), Cmp: state}}
}

// CompareLabel is the "+ Compare" button's label in state (CompareState).
func CompareLabel(lang string, state int) string {
	if state == 1 {
		return Tr(lang, MsgCompared)
	}
	return Tr(lang, MsgCompareAdd)
}

// sourceNode is a price's source folded under the word "Source".
func sourceNode(lang, source string) []Node {
	if source == "" {
		return nil
	}
	return []Node{{Kind: NodeSource, Ref: Tr(lang, MsgSource), Text: source}}
}

// join is pieces in order.
func join(parts ...[]Node) []Node {
	var out []Node
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// cell is a data cell of one piece of text.
func cell(class, label, s string) Cell {
	return Cell{Class: class, Label: label, Nodes: text(s)}
}

// th is a header cell; num one over a column of numbers.
func th(s string) Cell  { return Cell{Nodes: text(s)} }
func num(s string) Cell { return Cell{Class: "num", Nodes: text(s)} }

// rowHead is the header cell of a row.
func rowHead(s string) Cell { return Cell{Th: true, Attrs: []Attr{{"scope", "row"}}, Nodes: text(s)} }

// heads are plain header cells.
func heads(texts ...string) []Cell {
	h := make([]Cell, len(texts))
	for i, t := range texts {
		h[i] = th(t)
	}
	return h
}

// planAttrs are a pick's data attributes (data-gpu, data-gpus, data-tp,
// data-pp, data-zero; data-gc, data-cp, data-adp, data-ep, data-re,
// data-off, data-mem, data-w, data-kv and data-offer only where the plan
// sets them: Plan's checkpointing, context parallelism, attention-DP and
// EP layout with its redundant experts,
// CPU offload, engine memory share, precision and offer), which the table's click handler reads back (PlanFromData), so
// a row applied from a table is applied whole, as from a pick card.
func planAttrs(gpu string, p Plan) []Attr {
	a := []Attr{{"data-gpu", gpu}, {"data-gpus", strconv.Itoa(p.GPUs)}, {"data-tp", strconv.Itoa(p.TP)},
		{"data-pp", strconv.Itoa(p.PP)}, {"data-zero", strconv.Itoa(p.ZeRO)}}
	if p.Ckpt {
		a = append(a, Attr{"data-gc", "1"})
	}
	for _, x := range []struct {
		k string
		n int
	}{{"data-cp", p.CP}, {"data-adp", p.AttnDP}, {"data-ep", p.EP}} {
		if x.n > 1 {
			a = append(a, Attr{x.k, strconv.Itoa(x.n)})
		}
	}
	if p.Redundant > 0 {
		a = append(a, Attr{"data-re", strconv.Itoa(p.Redundant)})
	}
	if p.Offload != estimator.OffloadNone {
		a = append(a, Attr{"data-off", p.Offload.String()})
	}
	if p.MemShare > 0 {
		a = append(a, Attr{"data-mem", strconv.FormatFloat(p.MemShare, 'g', -1, 64)})
	}
	for _, x := range []struct{ k, v string }{{"data-w", p.Weights}, {"data-kv", p.KV}, {"data-offer", p.Offer}} {
		if x.v != "" {
			a = append(a, Attr{x.k, x.v})
		}
	}
	return a
}

// PlanFromData reads a pick back from its data attributes (get returns
// one by its dataset name: "gpu", "gpus", "tp", "pp", "zero", "gc", "cp",
// "adp", "ep", "re", "off", "mem", "w", "kv", "offer"); ok is false without a GPU or a count. An
// attribute that does not parse reads as unset.
func PlanFromData(get func(string) string) (gpu string, p Plan, ok bool) {
	num := func(k string) int {
		n, _ := strconv.Atoi(get(k))
		return n
	}
	gpu, p = get("gpu"), Plan{GPUs: num("gpus"), TP: num("tp"), PP: num("pp"), ZeRO: num("zero"), Ckpt: get("gc") == "1",
		CP: layoutDegree(num("cp")), AttnDP: layoutDegree(num("adp")), EP: layoutDegree(num("ep")), Redundant: max(num("re"), 0)}
	if o, err := estimator.ParseOffload(get("off")); err == nil {
		p.Offload = o
	}
	if v, err := strconv.ParseFloat(get("mem"), 64); err == nil && v > 0 && v <= 1 {
		p.MemShare = v
	}
	for _, x := range []struct {
		k string
		v *string
	}{{"w", &p.Weights}, {"kv", &p.KV}} {
		if d, err := estimator.ParseDType(get(x.k)); err == nil {
			*x.v = d.String()
		}
	}
	p.Offer = get("offer")
	return gpu, p, gpu != "" && p.GPUs > 0
}

// FitTable is the fit table of v in language lang.
func FitTable(lang string, v *FitView) Table {
	t := func(k MsgKey) string { return Tr(lang, k) }
	gpu, vram, setup, need, from := t(MsgGPUCol), t(MsgVRAM), t(MsgWithYourSetup), t(MsgMinGPUs), t(MsgFromPrice)
	tb := Table{ID: "rs-fit", Picks: true, Head: []Cell{th(gpu), num(vram), th(setup), num(need), num(from), num(v.CostHeader)}}
	for _, x := range v.Rows {
		cls, verdict := "rs-row", "rs-ok"
		if x.Selected {
			cls += " rs-selected"
		}
		if !x.Fits {
			verdict = "rs-bad"
		}
		var badge []Node
		if x.Cheapest {
			badge = span("rs-badge", t(MsgCheapest)+" ")
		}
		tb.Rows = append(tb.Rows, Row{
			Class: cls,
			Attrs: append(planAttrs(x.GPU, x.Plan), Attr{"tabindex", "0"}, Attr{"aria-selected", strconv.FormatBool(x.Selected)}),
			Cells: []Cell{
				{Class: "rs-name", Label: gpu, Nodes: join(text(x.Name+" "), compareNode(lang, x.Offer, x.Cmp))},
				cell("num rs-vram", vram, x.VRAM),
				{Class: "rs-fits", Label: setup, Nodes: span(verdict, x.Verdict)},
				{Class: "num rs-need", Label: need, Nodes: join(text(x.Need), divIf("rs-where", x.Split))},
				cell("num rs-price", from, x.From),
				{Class: "num rs-cost", Label: v.CostHeader, Nodes: join(badge, text(x.Cost), divIf("rs-where", x.Where))},
			},
		})
	}
	return tb
}

// OfferTable is the offers table of v in language lang.
func OfferTable(lang string, v *OffersView) Table {
	t := func(k MsgKey) string { return Tr(lang, k) }
	provider, instance, gpus, onDemand, spot, reserved, region, asOf := t(MsgProvider), t(MsgInstance), t(MsgGPUs),
		t(MsgOnDemand), t(MsgSpot), t(MsgReserved), t(MsgRegion), t(MsgAsOfSource)
	tb := Table{ID: "rs-offers", Picks: true,
		Head: []Cell{th(provider), th(instance), num(gpus), num(onDemand), num(spot), num(reserved), num(v.CostHeader), num(v.TimeHeader), th(region), th(asOf)}}
	for _, o := range v.Rows {
		cmpID := o.ID
		if o.Cmp < 0 {
			cmpID = ""
		}
		var own []Node
		if o.Own {
			own = span("rs-badge", t(MsgYourPrice))
		}
		date := datedText(t, o.AsOf, o.Estimated, o.Floor)
		cls := ""
		var age []Node
		if o.Age > 0 {
			cls = GradeClass[o.Age-1]
			age = span("rs-where "+cls, " "+t(GradeKeys[o.Age-1]))
		}
		tb.Rows = append(tb.Rows, Row{
			Class: "rs-row",
			Attrs: append(append([]Attr{{"data-offer", o.ID}}, planAttrs(o.GPU, o.Plan)...), Attr{"tabindex", "0"}),
			Cells: []Cell{
				{Class: "rs-name", Label: provider, Nodes: join(text(o.Provider+" "), own, compareNode(lang, cmpID, o.Cmp))},
				cell("rs-instance", instance, o.Instance),
				cell("num rs-count", gpus, o.GPUs),
				cell("num rs-price", onDemand, o.OnDemand),
				cell("num rs-spot", spot, o.Spot),
				cell("num rs-reserved", reserved, o.Reserved),
				{Class: "num rs-cost", Label: v.CostHeader, Nodes: join(text(o.Cost), divIf("rs-where", o.Where))},
				cell("num rs-time", v.TimeHeader, o.Time),
				cell("rs-region", region, o.Region),
				{Class: "rs-asof", Label: asOf, Nodes: join(span(cls, date), age,
					divIf("rs-warn rs-verify", o.Verify), divIf("rs-warn rs-far-below", o.Caveat), sourceNode(lang, SourceText(o.Source)))},
			},
		})
	}
	return tb
}

// RulesTable is the rules-of-thumb table of v in language lang.
func RulesTable(lang string, v *RulesView) Table {
	t := func(k MsgKey) string { return Tr(lang, k) }
	says, est, off := t(MsgRuleSays), t(MsgThisEstimate), t(MsgOffBy)
	tb := Table{ID: "rs-rules", Head: []Cell{th(""), num(says), num(est), num(off)}}
	for _, r := range v.Rows {
		cls := "num rs-ok"
		if r.Bad {
			cls = "num rs-bad"
		}
		// The numbers carry their column's name: on a phone each rule is
		// a card, its name across, its three numbers under their names.
		tb.Rows = append(tb.Rows, Row{Attrs: []Attr{{"data-rule", r.Rule}}, Cells: []Cell{
			cell("", "", r.Label), cell("num", says, r.Says), cell("num", est, r.Estimate), cell(cls, off, r.OffBy),
		}})
	}
	return tb
}

// PinTable is the pinned and the live configuration side by side.
func PinTable(v *PinView) Table {
	tb := Table{ID: "rs-compare", Head: heads("", v.Pinned, v.Live)}
	for _, r := range v.Rows {
		tb.Rows = append(tb.Rows, Row{Cells: []Cell{rowHead(r.Label), cell("", "", r.Pinned), cell("", "", r.Live)}})
	}
	return tb
}

// HostedTable is the hosted APIs against the serving plan: the API and
// why it is listed, its prices, the month's bill, the self-hosted bill,
// the break-even and the prices' source.
func HostedTable(v *HostedView) Table {
	tb := Table{ID: "rs-hosted-table", Caption: v.Title, Head: heads(v.Heads[:]...)}
	for i := 1; i < len(tb.Head)-1; i++ {
		tb.Head[i].Class = "num"
	}
	// Each figure carries its column's name: on a phone each API is a
	// card (web/rightsize.css), as the offers table's rows are.
	h := &v.Heads
	for _, r := range v.Rows {
		tb.Rows = append(tb.Rows, Row{Cells: []Cell{
			{Nodes: join(text(r.API), div("rs-where", r.Why))},
			cell("num", h[1], r.Prices), cell("num", h[2], r.Monthly), cell("num", h[3], r.Self), cell("num rs-be", h[4], r.BreakEven),
			cell("rs-asof rs-src", h[5], r.Source),
		}})
	}
	return tb
}

// FXTable is the dated exchange rates, with their sources.
func FXTable(v *FXView) Table {
	tb := Table{ID: "rs-fx", Caption: v.Title, Head: []Cell{th(v.Heads[0]), num(v.Heads[1]), th(v.Heads[2])}}
	for _, r := range v.Rows {
		tb.Rows = append(tb.Rows, Row{Cells: []Cell{
			cell("", "", r.Currency), cell("num", "", r.PerUSD),
			{Class: "rs-asof", Nodes: join(text(r.AsOf), div("rs-where rs-src", r.Source))},
		}})
	}
	return tb
}

// PlansTable is the comparison: one column per plan, headed by its name,
// its offer and a button that removes it, its figures in rows.
func PlansTable(v *PlansView) Table {
	tb := Table{ID: "rs-plans-table", Removes: true, Head: []Cell{th("")}}
	classes := [...]string{"num rs-cmp-cost", "num rs-cmp-time", "num rs-cmp-vram", "num rs-cmp-perm", "num rs-cmp-asof"}
	for i, label := range v.Labels {
		tb.Rows = append(tb.Rows, Row{Cells: []Cell{rowHead(label)}})
		for _, col := range v.Cols {
			x := [...]string{col.Cost, col.Time, col.VRAM, col.PerM, col.AsOf}[i]
			tb.Rows[i].Cells = append(tb.Rows[i].Cells, cell(classes[i], label, x))
		}
	}
	for _, col := range v.Cols {
		tb.Head = append(tb.Head, Cell{Attrs: []Attr{{"scope", "col"}, {"data-offer", col.ID}}, Nodes: join(
			div("rs-cmp-title", col.Title), div("rs-where", col.Where),
			[]Node{{Kind: NodeRemove, Ref: col.ID, Text: v.Remove, Label: v.Remove + ": " + col.Title + " " + col.Where}})})
	}
	return tb
}
