package page

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

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

// BenchmarkEdit is one field edited on the default job, end to end
// through the page's pure functions, as an input runs them in the
// browser before go-app's diff: the batch size set to 2 or 8 in turn (as
// TestE2EInputUpdate types it), the job parsed and computed (Derive) and
// its view built with the last plan's answer on screen and the re-plan
// pending (BuildView).
func BenchmarkEdit(b *testing.B) {
	pr := NewPrices(DefaultCatalog(), nil)
	plan := RunPlan(Derive(DefaultState, nil, pr, nil, "").Job, pr)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s := DefaultState
		s[FieldBatch] = []string{"2", "8"}[i%2]
		d := Derive(s, nil, pr, nil, "")
		BuildView(ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General, Plan: plan, Pending: true})
	}
}

// BenchmarkPlanStretch is a re-plan of the default batch job, of serving
// it at 20 req/s and of its full fine-tune, the planner held between
// yields as the page runs it (page.Prices.Yield): stretch-ms is the
// median over the runs of each plan's longest stretch between two yields,
// the most the planner holds the browser's thread in a row (past
// YieldEvery it gives it back at the next yield). Compiled to WebAssembly
// (make bench) it is the page's own figure, without the DOM's work around
// it that TestE2EInputUpdate's long tasks count. gcs/op is the
// collections a plan set off (in WebAssembly each stops the page's only
// thread), over this benchmark's heap, not the page's.
func BenchmarkPlanStretch(b *testing.B) {
	for _, frag := range []string{"", "rps=20", "t=finetune"} {
		b.Run("job="+frag, func(b *testing.B) {
			_, j, err := linkJob(frag)
			if err != nil {
				b.Fatal(err)
			}
			pr := NewPrices(DefaultCatalog(), nil)
			pr.PlanOffers(j.In.Weights) // made once per weight type, before the page's first plan
			var longest []time.Duration
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			gcs := ms.NumGC
			b.ReportAllocs()
			for b.Loop() {
				var most time.Duration
				last := time.Now()
				pr.Yield = func() {
					now := time.Now()
					most, last = max(most, now.Sub(last)), now
				}
				RunPlan(j, pr)
				longest = append(longest, max(most, time.Since(last)))
			}
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.NumGC-gcs)/float64(len(longest)), "gcs/op")
			slices.Sort(longest)
			b.ReportMetric(float64(longest[len(longest)/2])/1e6, "stretch-ms")
		})
	}
}
