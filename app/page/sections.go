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
func (s *ViewState) Opens(sec Section) bool {
	for _, k := range strings.Split(s[FieldShow], ".") {
		if k == SectionKeys[sec] {
			return true
		}
	}
	return false
}

// WithOpen is state s with section sec open or closed; the open sections
// are listed in page order, so a view has one link.
func (s ViewState) WithOpen(sec Section, open bool) ViewState {
	var keys []string
	for x := range NSections {
		if x == sec && open || x != sec && s.Opens(x) {
			keys = append(keys, SectionKeys[x])
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
