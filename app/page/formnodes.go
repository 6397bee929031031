package page

import "strconv"

// The cost-vs-time chart and the boxes that read the user's files as
// Nodes. Event handlers are attributes "on:<event>" naming the
// component's handler.

// on is n with the component's handler name for event.
func (n Node) on(event, name string) Node { return n.attr("on:"+event, name) }

// ChartNode is the cost-vs-time chart of v, with point shown-1 shown
// (0: none) and its "+ Compare" (for the comparison compared). Handlers:
// "show" (hover, focus), "down" (pointerdown: a touch's first tap shows
// a point, the second uses it), "pick" (click), "key" on the chart; "cmp"
// (click) and "cmpkey" on the "+ Compare". A read-only chart (the embed
// page) only shows points: a click is "show", and there is no "+ Compare".
func ChartNode(lang string, v *ChartView, shown int, compared []string, readOnly bool) Node {
	itoa := strconv.Itoa
	line := func(x1, y1, x2, y2 int) Node {
		return el("svg:line", "rs-axis").attr("x1", itoa(x1)).attr("y1", itoa(y1)).attr("x2", itoa(x2)).attr("y2", itoa(y2))
	}
	chart := el("svg:svg", "", tx("svg:title", "", v.Title),
		line(ChartLeft, ChartH-ChartBot, ChartW-ChartRight, ChartH-ChartBot), line(ChartLeft, ChartTop, ChartLeft, ChartH-ChartBot)).
		id("rs-pareto").attr("viewBox", "0 0 "+itoa(ChartW)+" "+itoa(ChartH)).attr("role", "group").attr("aria-label", v.Title).
		on("mouseover", "show").on("focusin", "show")
	hint := MsgParetoHint
	if readOnly {
		chart, hint = chart.on("click", "show"), MsgParetoHintView
	} else {
		chart = chart.on("pointerdown", "down").on("click", "pick").on("keydown", "key")
	}
	if front := FrontLine(v.Points); front != "" {
		chart.Kids = append(chart.Kids, el("svg:polyline", "rs-front").attr("points", front))
	}
	for i, pt := range v.Points {
		// No handler per point: the chart listens once (event delegation).
		chart.Kids = append(chart.Kids, el("svg:circle", pt.Class()).attr("cx", itoa(pt.X)).attr("cy", itoa(pt.Y)).attr("r", "5").
			attr("data-i", itoa(i)).attr("data-gpu", pt.GPU).attr("tabindex", "0").attr("role", "button").attr("aria-label", pt.Label))
	}
	info, cmp := Tr(lang, hint), none
	if shown > 0 && shown <= len(v.Points) {
		pt := &v.Points[shown-1]
		info = pt.Label
		if !readOnly {
			// The point shown can join the comparison.
			state := CompareState(compared, pt.ID)
			cmp = el("span", "", compareNode(lang, pt.ID, state)...).id("rs-pareto-cmp").on("click", "cmp").on("keydown", "cmpkey")
		}
	}
	// The axis names are HTML text around the chart, not SVG text: the SVG
	// scales with the page's width (to about 0.37 of its size on a 360 px
	// phone), which shrank Chinese labels below legibility; HTML text keeps
	// the page's font size on every screen.
	return el("figure", "rs-pareto",
		tx("div", "rs-axis-label rs-axis-y", "↑ "+v.YLabel).attr("aria-hidden", "true"),
		chart,
		tx("div", "rs-axis-label rs-axis-x", v.XLabel+" →").attr("aria-hidden", "true"),
		el("figcaption", "", tx("span", "", info).id("rs-pareto-info").attr("aria-live", "polite"), Node{Text: " "}, cmp))
}

// fileInput is a file picker with id id for types accept, invalid or not,
// whose change goes to handler name.
func fileInput(id, accept string, invalid bool, name string) Node {
	return el("input", "").id(id).attr("type", "file").attr("accept", accept).attr("aria-invalid", strconv.FormatBool(invalid)).on("change", name)
}

// SheetBox is what the "Your prices" section shows: the sheet in use or
// being applied (Busy, Progress, Name, Rows, Offers), its problem, whether
// the saved sheet failed to read (SavedBad) or could not be kept
// (Unsaved), and Off for the prerendered page's picker.
type SheetBox struct {
	Busy, Name, Err        string
	Progress               float64
	Rows, Offers           int
	SavedBad, Unsaved, Off bool
}

// SheetNode is the "Your prices" section: the status, the file picker
// (handler "pick") and "Clear" (handler "clear").
func SheetNode(lang string, s *SheetBox) Node {
	t := func(k MsgKey) string { return Tr(lang, k) }
	id, msg, ok := SheetStatus(lang, s.Busy, s.Progress, s.Name, s.Rows, s.Offers)
	status := tx("p", "rs-sub", msg)
	switch {
	case ok:
		status = tx("p", "rs-ok", msg).id(id)
	case id != "":
		status = tx("p", "rs-sub", msg).id(id).attr("role", "status")
	}
	picker := fileInput("rs-prices-file", ".csv,.json,text/csv,application/json", s.Err != "", "pick")
	if s.Off {
		// Disabled on the prerendered page: a file picked there, before
		// the page is live, went to an input the live page replaces, and
		// was dropped without a word. (The live page writes no disabled
		// attribute at all: disabled="false" would disable it in HTML.)
		picker = picker.attr("disabled", "true")
	}
	errMsg := s.Err
	if s.SavedBad {
		errMsg = t(MsgSavedKept) + " " + errMsg
	}
	return sectionNode("rs-prices", t(MsgSheetTitle), "", status,
		el("div", "rs-field rs-file", tx("label", "", t(MsgSheetPick)).attr("for", "rs-prices-file"), picker).kids(
			when(s.Err != "", tx("p", "rs-error", errMsg).id("rs-prices-file-error")),
			when(s.Unsaved, tx("p", "rs-warn", t(MsgNotKept)).id("rs-prices-unsaved")))).
		kids(when(s.Name != "" || s.SavedBad, Node{Kind: NodeAction, Class: "rs-more", ID: "rs-prices-clear", Ref: "clear", Text: t(MsgSheetClear)}))
}

// ConfigNode is the "Your model" section: a config.json picked (handler
// "file"), pasted ("paste") or dropped ("drop", "dragover"), its problem
// (err), whether it could not be kept (unsaved) and, when the saved one
// does not read (bad), a button that drops it ("dropsaved").
func ConfigNode(lang, err string, unsaved, bad bool) Node {
	t := func(k MsgKey) string { return Tr(lang, k) }
	return sectionNode("rs-prices", t(MsgYourModel), t(MsgConfigHelp),
		el("div", "rs-field rs-file", tx("label", "", t(MsgConfigPick)).attr("for", "rs-config-file"),
			fileInput("rs-config-file", ".json,application/json", err != "", "file")),
		el("div", "rs-field rs-drop", tx("label", "", t(MsgConfigPaste)).attr("for", "rs-config-paste"),
			el("textarea", "").id("rs-config-paste").attr("rows", "4").attr("spellcheck", "false").
				attr("placeholder", `{"model_type": "llama", "hidden_size": 4096, …}`).attr("aria-invalid", strconv.FormatBool(err != "")).on("change", "paste")).
			on("dragover", "dragover").on("drop", "drop")).id("rs-your-model").kids(
		when(err != "", tx("p", "rs-error", err).id("rs-config-file-error").attr("aria-live", "polite")),
		when(unsaved, tx("p", "rs-warn", t(MsgNotKept)).id("rs-config-unsaved")),
		when(bad, Node{Kind: NodeAction, Class: "rs-more", ID: "rs-config-drop", Ref: "dropsaved", Text: t(MsgConfigDrop)}))
}
