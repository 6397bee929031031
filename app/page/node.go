package page

import (
	"strconv"
	"strings"
)

// The page's fixed blocks (the memory breakdown, a list of facts, a
// recommendation's card) laid out as Nodes, down to each element's id,
// class and text, so the component renders them with the table renderer
// and decides nothing.

// el is element tag of class class holding kids.
func el(tag, class string, kids ...Node) Node {
	return Node{Kind: NodeEl, Tag: tag, Class: class, Kids: kids}
}

// tx is element tag of class class holding text s.
func tx(tag, class, s string) Node { return Node{Kind: NodeEl, Tag: tag, Class: class, Text: s} }

// id is n with element id i.
func (n Node) id(i string) Node { n.ID = i; return n }

// attr is n with attribute k=v after its others.
func (n Node) attr(k, v string) Node {
	n.Attrs = append(append([]Attr(nil), n.Attrs...), Attr{k, v})
	return n
}

// when is nodes, or none unless ok.
func when(ok bool, nodes ...Node) []Node {
	if !ok {
		return nil
	}
	return nodes
}

// kids is n with children ns after its others.
func (n Node) kids(ns ...[]Node) Node {
	n.Kids = join(append([][]Node{n.Kids}, ns...)...)
	return n
}

// BasisFact is one line of a basis: what it is and its text ("" leaves it out).
type BasisFact struct {
	Key   MsgKey
	Value string
}

// BasisNode is a "how this number was made" fold titled label (seg: the
// colour key of a breakdown part, -1 none) over facts.
func BasisNode(lang, label string, seg int, facts ...BasisFact) Node {
	n := Node{Kind: NodeBasis, Text: label, Cmp: seg, Label: Tr(lang, MsgHowAccurate)}
	for _, f := range facts {
		if f.Value != "" {
			n.Kids = append(n.Kids, Node{Label: Tr(lang, f.Key), Text: f.Value})
		}
	}
	return n
}

// BasisOf is basis b's fold.
func BasisOf(lang string, b Basis) Node {
	return BasisNode(lang, Tr(lang, MsgBasis), -1, BasisFact{MsgBasisFormula, b.Formula}, BasisFact{MsgBasisInputs, b.Inputs},
		BasisFact{MsgBasisEfficiency, b.Efficiency}, BasisFact{MsgBasisBand, b.Band}, BasisFact{MsgBasisBound, b.Bound},
		BasisFact{MsgBasisVerify, b.Verify})
}

// FactsNode is a list of labelled numbers, each with what it describes
// and its basis (FactNode).
func FactsNode(lang string, facts []Fact) Node {
	dl := el("dl", "rs-facts")
	for i := range facts {
		dl.Kids = append(dl.Kids, FactNode(lang, &facts[i]))
	}
	return dl
}

// FactSlotsNode is FactsNode's list of n facts, fact i in slot
// FactSlot(i): the page renders each fact as a leaf of its own
// (FactNode), so an input that moves one fact re-renders that fact alone.
func FactSlotsNode(n int) Node {
	dl := el("dl", "rs-facts")
	for i := range n {
		dl.Kids = append(dl.Kids, slot(FactSlot(i)))
	}
	return dl
}

// FactSlot names fact i's slot in FactSlotsNode.
func FactSlot(i int) string { return "fact" + strconv.Itoa(i) }

// FactNode is one labelled number: its label, its value (under its
// id), what it describes and its basis's fold.
func FactNode(lang string, x *Fact) Node {
	return el("div", "rs-fact", tx("dt", "", x.Label), tx("dd", "", x.Value).id(x.ID)).kids(
		when(x.Detail != "", tx("div", "rs-where", x.Detail)),
		when(x.Basis.Formula != "", BasisOf(lang, x.Basis)))
}

// BreakdownNode is the memory per GPU as a bar and a table of parts.
func BreakdownNode(b *Breakdown) Node {
	t := func(k MsgKey) string { return Tr(b.Lang, k) }
	cls := "rs-verdict rs-ok"
	if !b.Fits {
		cls = "rs-verdict rs-bad"
	}
	// The bar is SVG with widths as attributes: the page's
	// Content-Security-Policy refuses inline style attributes.
	bar := el("svg:svg", "rs-bar").attr("viewBox", "0 0 1000 10").attr("preserveAspectRatio", "none").attr("aria-hidden", "true")
	x := 0
	for _, p := range b.Parts {
		bar.Kids = append(bar.Kids, el("svg:rect", "rs-seg-"+strconv.Itoa(p.Seg), tx("svg:title", "", p.Name)).
			attr("x", strconv.Itoa(x)).attr("y", "0").attr("width", strconv.Itoa(p.Permille)).attr("height", "10"))
		x += p.Permille
	}
	verify := b.Verify
	body := el("tbody", "")
	for _, p := range b.Parts {
		body.Kids = append(body.Kids, el("tr", "",
			el("td", "", BasisNode(b.Lang, p.Name, p.Seg, BasisFact{MsgBasisFormula, p.Formula}, BasisFact{MsgBasisBand, p.Band}, BasisFact{MsgBasisVerify, verify})),
			tx("td", "num", p.Value).id(p.ID), tx("td", "num", p.Share), tx("td", "num", p.Band)))
	}
	total := func(cls, label, id, v string) Node {
		return el("tr", cls, tx("td", "", label), tx("td", "num", v).id(id), el("td", ""), el("td", ""))
	}
	how := t(MsgHowAccurate)
	body = body.kids([]Node{
		el("tr", "rs-total", tx("td", "", t(MsgTotal)), tx("td", "num", b.Total).id("rs-total"), tx("td", "num", "100%"),
			tx("td", "num rs-band", b.Band+" ").kids([]Node{tx("a", "", "ⓘ").id("rs-accuracy-link").attr("href", "accuracy.html").
				attr("aria-label", how).attr("title", how)})),
	}, when(b.LoadPeak != "", total("rs-total", t(MsgLoadPeak), "rs-load-peak", b.LoadPeak)),
		when(b.BackwardEndPeak != "", total("rs-total", t(MsgBackwardEndPeak), "rs-backward-end-peak", b.BackwardEndPeak)),
		when(b.OptimizerStepPeak != "", total("rs-total", t(MsgOptimizerStepPeak), "rs-optimizer-step-peak", b.OptimizerStepPeak)),
		when(b.Needed != "", total("rs-total", t(MsgNeeded), "rs-needed", b.Needed)),
		[]Node{el("tr", "", tx("td", "", t(MsgUsable)), tx("td", "num", b.Usable).id("rs-usable"),
			tx("td", "rs-usable-note", b.UsableNote).attr("colspan", "2"))})
	return el("div", "",
		tx("h2", "", b.Title),
		tx("p", cls, b.Verdict).id("rs-verdict"),
		bar,
		el("table", "rs-breakdown",
			el("thead", "", el("tr", "", tx("th", "", t(MsgPart)), tx("th", "num", t(MsgMemory)), tx("th", "num", t(MsgShare)),
				tx("th", "num", t(MsgUncertainty)))),
			body))
}

// reasonNodes are a card's reasons, one paragraph a line (a card shared by
// several picks gives each role's sentence).
func reasonNodes(reason string) []Node {
	var out []Node
	for _, r := range strings.Split(reason, "\n") {
		out = append(out, tx("p", "rs-reason", r))
	}
	return out
}

// PickNode is recommendation p's card; its "Use this" button (handler
// "use") applies it, except on a read-only page (the embed page).
func PickNode(lang string, p *PickView, costLabel, timeLabel string, readOnly bool) Node {
	pr := &p.Price
	// The date, its age grade and the source each on a line of their own:
	// the prerendered card has no clock to grade the age with, and its
	// line stays (empty) so the live card, which says it, is as tall and
	// nothing below the answer moves when it arrives.
	age := pr.Age
	if age == "" {
		age = "\u00a0"
	}
	return el("article", "rs-pick",
		tx("h3", "", p.Title),
		tx("p", "rs-pick-what", p.What),
		tx("p", "rs-where", p.Where),
		el("p", "rs-where rs-pick-price", tx("span", pr.Class, pr.Date), el("br", ""), tx("span", pr.Class+" rs-pick-age", age)),
	).attr("data-kind", p.Kind).attr("data-roles", p.Roles).attr("data-gpu", p.GPU).attr("data-gpus", strconv.Itoa(p.Plan.GPUs)).kids(
		sourceNode(lang, pr.Source),
		when(pr.Verify != "", tx("p", "rs-warn rs-pick-verify", pr.Verify)),
		when(pr.Caveat != "", tx("p", "rs-warn rs-pick-far", pr.Caveat)),
		when(pr.From != "", tx("p", "rs-where rs-pick-from", pr.From)),
		[]Node{
			el("dl", "rs-facts",
				el("div", "rs-fact", tx("dt", "", costLabel), tx("dd", "rs-pick-cost", p.Cost)),
				el("div", "rs-fact", tx("dt", "", timeLabel), tx("dd", "rs-pick-time", p.Time))),
		},
		reasonNodes(p.Reason),
		// The notes (a scale-out's doublings, a spare, the layout) fold
		// under one line: the answer and its reason stay the card's first
		// reading, and three cards of notes made the first screens long.
		when(p.Notes != "", el("details", "rs-where rs-pick-notes", tx("summary", "", Tr(lang, MsgPickMore)), tx("p", "", p.Notes))),
		when(!readOnly, Node{Kind: NodeAction, Class: "rs-more", Ref: "use", Text: Tr(lang, MsgUseThis)}),
	)
}
