// Package page is the calculator page without its components: it parses
// the link into a typed job (ParseFragment, ParseJob), computes the
// estimate, the fit and offers tables (Compute), runs the planner and lays
// out its picks, serving fleet and latency chart (RunPlan, LoadChartOf),
// and formats every figure and planner message in the page's language
// (Locale, the message tables). Everything here is a plain value that
// native tests check; package app only renders it with go-app, and the
// command line's agreement test reads the same figures (LinkFigures).
//
// It imports no go-app: the deps test holds it to the catalog, the
// estimator, the planner and the standard library.
package page
