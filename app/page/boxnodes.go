package page

// The boxes below the tables (export, "Run it", your benchmark, the daily
// load), the link's notes and the footer as Nodes, with slots for the
// component's fields.

// Copy names a text the page copies or saves: a NodeCopy button's Cmp.
type Copy int

const (
	CopyLink Copy = iota
	CopyMarkdown
	CopyLaunch
	CopyLaunchDisagg
	SaveCSV
	SaveJSON
)

// copyNode is the button with id id saying label that copies or saves what.
func copyNode(id, label string, what Copy) Node {
	return Node{Kind: NodeCopy, Class: "rs-more", ID: id, Text: label, Cmp: int(what)}
}

// ExportNode is the export section (copied: the Markdown is on the
// clipboard).
func ExportNode(lang string, copied bool) Node {
	t := func(k MsgKey) string { return Tr(lang, k) }
	return sectionNode("rs-export", t(MsgExportTitle), "",
		el("div", "rs-actions", copyNode("rs-export-csv", t(MsgExportCSV), SaveCSV), copyNode("rs-export-json", t(MsgExportJSON), SaveJSON),
			copyNode("rs-copy-markdown", t(MsgCopyMarkdown), CopyMarkdown))).
		kids(when(copied, tx("p", "rs-ok", t(MsgMarkdownCopied)).id("rs-markdown-copied")))
}

// LaunchNode is the "Run it" box, once the planner has a pick (copied:
// the settings are on the clipboard); the launcher's picker is slot
// "kind", the router's "router".
func LaunchNode(lang string, v *LaunchView, copied bool) Node {
	if !v.Shown {
		return none
	}
	t := func(k MsgKey) string { return Tr(lang, k) }
	s := sectionNode("rs-prices", t(MsgLaunchTitle), t(MsgLaunchHelp), slot("kind")).id("rs-launch")
	if v.Err != "" {
		return s.kids([]Node{tx("p", "rs-warn", v.Err).id("rs-launch-error")})
	}
	return s.kids([]Node{
		tx("p", "rs-sub", v.For).id("rs-launch-for"),
		tx("pre", "rs-launch", v.Text).id("rs-launch-text"),
		copyNode("rs-copy-launch", t(MsgCopyLaunch), CopyLaunch),
	}, when(copied, tx("p", "rs-ok", t(MsgLaunchCopied)).id("rs-launch-copied")),
		when(v.DisaggText != "",
			tx("h3", "", v.DisaggTitle),
			slot("router"),
			tx("p", "rs-sub", v.DisaggFor).id("rs-launch-disagg-for"),
			tx("pre", "rs-launch", v.DisaggText).id("rs-launch-disagg"),
			copyNode("rs-copy-launch-disagg", t(MsgCopyLaunch), CopyLaunchDisagg)))
}

// BenchNode is the "Your benchmark" box, when the job shows it; its field
// is slot "field". The calibration that `rightsize calibrate` fits to a
// serving benchmark the user ran (its "link form" line: gpu,engine,request
// ms,prefill MFU,decode bandwidth share) goes in a field that the link
// carries (FieldCalibration); ParseJob applies it to the speed box and the
// plans when the selected GPU and engine are the ones it was fitted for.
// Fitting in the page (estimator/sim.Parse and sim.Fit behind a file drop)
// measured about 40 KB of brotli in app.wasm, beyond its budget, so the
// fit runs in the CLI.
func BenchNode(lang string, v *BenchView) Node {
	if !v.Shown {
		return none
	}
	cls := "rs-warn"
	if v.StatusOK {
		cls = "rs-ok"
	}
	return sectionNode("rs-prices", Tr(lang, MsgBenchTitle), Tr(lang, MsgBenchHelp), slot("field")).id("rs-benchmark").
		kids(when(v.Status != "", tx("p", cls, v.Status).id("rs-calibration-status")))
}

// FleetInputsNode is the "Daily load" box, for inference (shown): its
// fields are slot "fields".
func FleetInputsNode(lang string, shown bool) Node {
	if !shown {
		return none
	}
	return sectionNode("rs-prices", Tr(lang, MsgFleetTitle), "", slot("fields")).id("rs-daily")
}

// LinkNoteNode names what the page ignored in the link it was opened with
// (link: parts that do not decode; cmp: comparison values that do not
// read), so a hand-edited link that half works does not pass for a
// whole one.
func LinkNoteNode(lang string, link, cmp []string) Node {
	linkNote, cmpNote := LinkNotes(lang, link, cmp)
	note := none
	if linkNote != "" {
		note = tx("p", "rs-error", linkNote).id("rs-link-ignored").attr("role", "status")
	}
	if cmpNote == "" {
		return note
	}
	return el("div", "", note, tx("p", "rs-error", cmpNote).id("rs-cmp-ignored").attr("role", "status"))
}

// FooterNode is the page's footer, with the catalog's freshness (fresh;
// "" for none).
func FooterNode(lang, fresh string) Node {
	return el("footer", "rs-footer", tx("p", "rs-sub", Tr(lang, MsgFooter))).kids(when(fresh != "", tx("p", "rs-sub", fresh).id("rs-fresh")))
}
