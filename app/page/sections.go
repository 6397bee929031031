package page

import "strings"

// Section names a part of the page that opens on demand: the first screen
// is the job line, the answer and why; the inputs and the sections below
// them are folded, each under its name, and the link's "show" key
// (FieldShow) lists the open ones, so a shared link opens what its sender
// had open.
type Section int

const (
	SecInputs Section = iota
	SecRules
	SecFit
	SecOffers
	SecExport
	SecLaunch
	SecPrices
	SecModel
	SecFleet
	SecBench
	NSections
)

// SectionKeys name the sections in the link and in their element IDs
// ("rs-fold-fit").
var SectionKeys = [NSections]string{
	SecInputs: "inputs", SecRules: "rules", SecFit: "fit", SecOffers: "offers", SecExport: "export",
	SecLaunch: "launch", SecPrices: "prices", SecModel: "model", SecFleet: "fleet", SecBench: "bench",
}

// SectionTitles are the sections' names on the page.
var SectionTitles = [NSections]MsgKey{
	SecInputs: MsgInputs, SecRules: MsgRulesTitle, SecFit: MsgGPUFit, SecOffers: MsgOffers, SecExport: MsgExportTitle,
	SecLaunch: MsgLaunchTitle, SecPrices: MsgSheetTitle, SecModel: MsgYourModel, SecFleet: MsgFleetTitle, SecBench: MsgBenchTitle,
}

// SectionOf is the section a key names.
func SectionOf(key string) (Section, bool) {
	for s, k := range SectionKeys {
		if k == key {
			return Section(s), true
		}
	}
	return 0, false
}

// Opens reports whether state s has section sec open.
func (s *ViewState) Opens(sec Section) bool { return s.lists(SectionKeys[sec]) }

// ShowsAll reports whether state s lists every row of section sec's
// table ("Show all"): a long table (the fit table, the offers) shows its
// first rows until then. The link's "show" key carries it as "all-" and
// the section's key, after the open sections, so a shared link shows the
// rows its sender saw.
func (s *ViewState) ShowsAll(sec Section) bool { return s.lists(allKey + SectionKeys[sec]) }

// allKey marks a table shown whole in the "show" key.
const allKey = "all-"

// lists reports whether the "show" key of s lists key.
func (s *ViewState) lists(key string) bool {
	for k := range strings.SplitSeq(s[FieldShow], ".") {
		if k == key {
			return true
		}
	}
	return false
}

// WithOpen is state s with section sec open or closed; the open sections
// are listed in page order, so a view has one link.
func (s ViewState) WithOpen(sec Section, open bool) ViewState {
	return s.withShow(func(x Section) bool { return x == sec && open || x != sec && s.Opens(x) }, s.ShowsAll)
}

// WithAll is state s with section sec's table shown whole or cut to its
// first rows.
func (s ViewState) WithAll(sec Section, all bool) ViewState {
	return s.withShow(s.Opens, func(x Section) bool { return x == sec && all || x != sec && s.ShowsAll(x) })
}

// withShow is state s whose "show" key lists the sections open says are
// open, then those whose tables all says are shown whole, each in page
// order.
func (s ViewState) withShow(open, all func(Section) bool) ViewState {
	var keys []string
	for x := range NSections {
		if open(x) {
			keys = append(keys, SectionKeys[x])
		}
	}
	for x := range NSections {
		if all(x) {
			keys = append(keys, allKey+SectionKeys[x])
		}
	}
	s[FieldShow] = strings.Join(keys, ".")
	return s
}

// Shows reports whether view v has section sec on the page: a section
// with nothing to open (the daily fleet and the benchmark, which belong
// to inference, on a training job; a table without rows) is left out
// rather than shown as a title that opens on nothing. Export's condition
// (an estimate to export) is the component's, which holds the result.
func (v *View) Shows(sec Section) bool {
	switch sec {
	case SecRules:
		return len(v.Rules.Rows) > 0
	case SecFit:
		return len(v.Fit.Rows) > 0
	case SecOffers:
		return v.Offers.Title != ""
	case SecFleet:
		return len(v.Form.Fleet) > 0
	case SecBench:
		return v.Form.Bench.Shown
	}
	return true
}
