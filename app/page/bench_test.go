package page

import "testing"

// BenchmarkDerive is an input's computation: the job parsed, the estimate,
// the fit table over every GPU and the offers (no planner). make bench
// also runs it compiled to WebAssembly in Chromium.
func BenchmarkDerive(b *testing.B) {
	pr := NewPrices(DefaultCatalog(), nil)
	for b.Loop() {
		Derive(DefaultState, nil, pr, nil, "")
	}
}

// BenchmarkBuildView is an input's view: every section's labels, figures
// and rows built from the computed job. Its allocations are most of its
// cost in WebAssembly.
func BenchmarkBuildView(b *testing.B) {
	pr := NewPrices(DefaultCatalog(), nil)
	d := Derive(DefaultState, nil, pr, nil, "")
	in := ViewIn{State: DefaultState, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General}
	b.ReportAllocs()
	for b.Loop() {
		BuildView(in)
	}
}

// BenchmarkBuildViewPlanned is an input's view with the planner's last
// answer on screen, as every input after the first plan builds it: the
// fit and offers tables read the plan's rows per GPU and per offer.
func BenchmarkBuildViewPlanned(b *testing.B) {
	pr := NewPrices(DefaultCatalog(), nil)
	d := Derive(DefaultState, nil, pr, nil, "")
	in := ViewIn{State: DefaultState, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General, Plan: RunPlan(d.Job, pr)}
	b.ReportAllocs()
	for b.Loop() {
		BuildView(in)
	}
}
