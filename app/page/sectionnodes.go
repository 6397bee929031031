package page

import "strconv"

// The answer and the sections under it as Nodes: what each holds and in
// which order, with slots (NodeSlot) where the component puts a leaf of
// its own (the job line, the picks, the chart, a table, a drop-down).

// slot is the component's leaf named name.
func slot(name string) Node { return Node{Kind: NodeSlot, Ref: name} }

// none is nothing on the page.
var none = Node{}

// sectionNode is a section of class class under its title, with its
// note ("" for none) and then kids.
func sectionNode(class, title, note string, kids ...Node) Node {
	return el("section", class, tx("h2", "", title)).kids(when(note != "", tx("p", "rs-sub", note)), kids)
}

// AnswerNode is the answer of view v under the job line (slot "job"): the
// picks (slot "picks"), the chart (slot "chart") and the plan's notes, or
// why there are none.
func AnswerNode(v *View) Node {
	a := &v.Answer
	t := func(k MsgKey) string { return Tr(v.Lang, k) }
	cls := "rs-answer"
	if a.Kind == AnswerStale || a.Kind == AnswerStalePicks {
		// A field is invalid: the last answer stays, greyed, so the page
		// does not lose (and later regain) the answer's height above the
		// inputs while the user fixes it; the job line stays, so a part
		// edited there keeps its box and its message until it reads.
		cls += " rs-stale"
	}
	s := el("section", cls, tx("h2", "", t(MsgAnswerTitle)), slot("job"))
	// The user's own offers that do not run the job, each with why.
	var own []Node
	for i, line := range a.OwnUnfit {
		own = append(own, tx("p", "rs-warn", line).id("rs-own-unfit-"+strconv.Itoa(i)))
	}
	switch a.Kind {
	case AnswerStale:
		return s.kids([]Node{tx("p", "rs-sub", a.Note).id("rs-answer-stale")})
	case AnswerPlanning:
		return s.kids([]Node{tx("p", "rs-sub", a.Note).id("rs-planning")})
	case AnswerNone:
		return s.kids([]Node{tx("p", "rs-sub", a.Note).id("rs-no-answer")}, when(a.Widened != "", tx("p", "rs-sub", a.Widened).id("rs-widened")), own)
	}
	note := tx("p", "rs-sub", a.Note)
	if a.Kind == AnswerStalePicks {
		note = note.id("rs-answer-stale")
	}
	notes := el("div", "rs-notes", tx("p", "rs-sub", t(MsgPlanNotes)+":"), el("ul", "")).id("rs-plan-notes")
	for _, n := range a.Notes {
		notes.Kids[1].Kids = append(notes.Kids[1].Kids, tx("li", "", n))
	}
	return s.kids([]Node{note},
		when(a.FX != "", tx("p", "rs-sub", a.FX).id("rs-fx-line")),
		when(a.KindsNote, tx("p", "rs-sub", t(MsgKindsNote)).id("rs-kinds")),
		[]Node{slot("picks")},
		when(a.Flagged != "", tx("p", "rs-warn", a.Flagged).id("rs-flagged")),
		own,
		when(len(a.Notes) > 0, notes),
		when(len(a.Chart.Points) > 0, slot("chart")))
}

// ResultNode is the memory per GPU: the breakdown (slot "breakdown",
// BreakdownNode), its facts (FactSlotsNode) and the estimator's warnings;
// or, when the job does not read (!ok), its problems. The breakdown and
// each fact are leaves of their own on the page: the batch size moves the
// longest sequence that fits, not the breakdown on a pooled engine.
func ResultNode(lang string, v *ResultView, ok bool, problems []string) Node {
	s := el("section", "rs-result")
	if !ok {
		s = s.kids([]Node{tx("p", "rs-sub", Tr(lang, MsgFixFields))})
		for _, p := range problems {
			s.Kids = append(s.Kids, tx("p", "rs-error", p))
		}
		return s
	}
	warns := el("div", "rs-warnings", tx("h3", "", Tr(lang, MsgWarnings)), el("ul", "")).id("rs-warnings")
	for _, w := range v.Warnings {
		warns.Kids[1].Kids = append(warns.Kids[1].Kids, tx("li", "rs-warn", w))
	}
	return s.kids([]Node{slot("breakdown"), FactSlotsNode(len(v.Facts))}, when(len(v.Warnings) > 0, warns))
}

// PerfNode is the speed-and-cost summary under the breakdown, each number
// with its basis (FactSlotsNode).
func PerfNode(lang string, v *PerfView) Node {
	t := func(k MsgKey) string { return Tr(lang, k) }
	switch {
	case v.NoPerf:
		why := MsgNoPerf
		switch {
		case v.Generic:
			why = MsgNoPerfGeneric
		case v.NoFit:
			why = MsgNoPerfNoFit
		}
		return sectionNode("rs-perf", t(MsgSpeedTitle), "", tx("p", "rs-sub", t(why)).id("rs-no-perf"))
	case len(v.Facts) == 0:
		return none
	}
	return sectionNode("rs-perf", t(MsgSpeedTitle), "",
		tx("p", "rs-sub", v.Setup).id("rs-perf-setup"),
		FactSlotsNode(len(v.Facts)),
		tx("p", "rs-sub", t(MsgSpeedNote)+" ").kids([]Node{tx("a", "rs-accuracy", t(MsgHowAccurate)).attr("href", "accuracy.html")}))
}

// RulesNode compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU (the table: slot "table").
func RulesNode(lang string, v *RulesView) Node {
	if len(v.Rows) == 0 {
		return none
	}
	return sectionNode("rs-rules", Tr(lang, MsgRulesTitle), Tr(lang, MsgRulesNote), slot("table"))
}

// FitNode is every GPU with the job's verdict on it (slot "table") and the
// sort (slot "sort"), with "Show all" (handler "all") when the table
// shows only its first rows.
func FitNode(lang string, v *FitView) Node {
	if len(v.Rows) == 0 {
		return none
	}
	return sectionNode("rs-fit", Tr(lang, MsgGPUFit), "", el("div", "rs-fit-head", tx("p", "rs-sub", Tr(lang, MsgPickGPU)), slot("sort")), slot("table")).
		kids(showAll(lang, "rs-more-fit", v.More))
}

// OffersNode is the selected GPU's offers (slot "table"), with "Show all"
// (handler "all") when the table shows only the first ones.
func OffersNode(lang string, v *OffersView) Node {
	if v.Title == "" {
		return none
	}
	t := func(k MsgKey) string { return Tr(lang, k) }
	rows := slot("table")
	if len(v.Rows) == 0 {
		rows = tx("p", "rs-sub", t(MsgNoOffers))
	}
	return sectionNode("rs-offers", v.Title, t(MsgPricesNote), rows).kids(showAll(lang, "rs-more-offers", v.More))
}

// showAll is a long table's "Show all (+more)" button with id id
// (handler "all"), or nothing when the table shows every row.
func showAll(lang, id string, more int) []Node {
	return when(more > 0, Node{Kind: NodeAction, Class: "rs-more", ID: id, Ref: "all", Text: Tr(lang, MsgShowAll) + " (+" + Locale{Lang: lang}.Count(int64(more)) + ")"})
}

// OpenFullNode is the embed page's one way to edit: "Open in Rightsize",
// a link to the page's own fragment without embed=1 (frag), on the same
// origin, in a new tab (the document around the iframe stays).
func OpenFullNode(lang, frag string) Node {
	return el("p", "rs-open", tx("a", "", Tr(lang, MsgOpenInRightsize)).id("rs-open-full").
		attr("href", "#"+frag).attr("target", "_blank").attr("rel", "noopener"))
}

// PlansNode is the comparison: its title, its table (slot "table"), its
// note and why a plan was left out; nothing without plans.
func PlansNode(v *PlansView) Node {
	if len(v.Cols) == 0 {
		return none
	}
	return el("section", "rs-compare-box", tx("h2", "", v.Title), slot("table")).id("rs-plans").kids(
		when(v.Note != "", tx("p", "rs-sub", v.Note)),
		when(v.Full != "", tx("p", "rs-warn", v.Full).id("rs-plans-full").attr("role", "status")))
}

// HostedNode is the hosted APIs' note, their price fields (slot
// "fields") and, with rows, their table against the plan (slot "table").
func HostedNode(v *HostedView) Node {
	return el("div", "", tx("p", "rs-sub", v.Note), slot("fields")).id("rs-hosted").kids(when(len(v.Rows) > 0, slot("table")))
}
