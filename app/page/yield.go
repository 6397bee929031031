package page

import (
	"runtime"
	"time"
)

// The planner's yield in the browser: Go's WebAssembly runtime runs on
// the browser's only thread, so a plan gives it back now and then
// (Prices.Yield; the component's plan runner).

// YieldEvery is the longest a plan holds the browser's only thread at a
// time, with room under the 50 ms a long task takes (past which input
// waits) for a slice that cannot yield inside it: one simulated run, the
// ranking, the answer's dispatch. At 30 ms, 3 of 15 plans of the default
// page ran 53–60 ms tasks, each ending with the answer's dispatch. At 20
// ms, once the default serving plan also sized wide expert-parallel rows
// and their disaggregated workers, 11 tasks of 55–78 ms over 8 runs of 15
// changes (TestE2EInputUpdate); at 12 ms, 3 of 50–64 ms over 6 runs, input
// → DOM the same within its noise (16.7–21.2 ms against 16.1–19.7).
const YieldEvery = 12 * time.Millisecond

// lastYield is when YieldToBrowser last gave the thread back; the page's
// Go code runs on one thread, so it needs no lock.
var lastYield time.Time

// YieldToBrowser gives the browser's thread back for a moment once a plan
// has held it for YieldEvery: Go's WebAssembly runtime returns to the
// browser's event loop when every goroutine waits, and GiveBack parks
// the planner's goroutine until the loop's next turn (turn_js.go), so
// input, rendering and painting go on between slices of a plan (the
// planner calls it between offers and inside each
// offer's row, planner.Options.Yield; ServeLoadOf before each simulated
// run of the load chart).
func YieldToBrowser() {
	if time.Since(lastYield) >= YieldEvery {
		GiveBack()
	}
}

// GiveBack gives the browser's thread back now, whatever the last slice
// held. The component calls it between a plan and the dispatch of its
// answer: without it, the plan's last slice (the ranking, the load chart),
// a collection at its yield, the answer's view and go-app's diff ran as
// one task, the longest while re-planning (279 ms of 11 over 50 ms under
// Chromium's profiler, TestE2EReplanProfile, 2026-11-30).
func GiveBack() {
	turn()
	lastYield = time.Now()
}

// stalePlan is what a plan's yield panics with once its answer is no
// longer wanted (PlansWhile); PlansWhile recovers it.
type stalePlan struct{}

// Plans are the page's answers to job j and, when pin is set, to the
// pinned configuration's job pinJob, at prices pr.
func Plans(j, pinJob Job, pin bool, pr Prices) (out, pinOut PlanOut) {
	out = RunPlan(j, pr)
	if pin {
		pinOut = RunPlan(pinJob, pr)
	}
	return out, pinOut
}

// PlansWhile is Plans, abandoned at the planner's first yield (pr.Yield)
// after live reports false: an input that replaces the job makes the
// answer one the page drops, and planning it to the end held the
// browser's thread for a whole plan after each change (with the new
// input's work in the same tasks) and made its garbage. ok is false when
// it was abandoned. The planner calls its yield on the caller's goroutine
// only with one thread (planner's parallel), as in WebAssembly; with more
// it runs to the end.
func PlansWhile(live func() bool, j, pinJob Job, pin bool, pr Prices) (out, pinOut PlanOut, ok bool) {
	if !live() {
		return out, pinOut, false
	}
	if yield := pr.Yield; runtime.GOMAXPROCS(0) == 1 {
		pr.Yield = func() {
			if yield != nil {
				yield()
			}
			if !live() {
				panic(stalePlan{})
			}
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, stale := r.(stalePlan); !stale {
				panic(r)
			}
			ok = false
		}
	}()
	out, pinOut = Plans(j, pinJob, pin, pr)
	return out, pinOut, true
}
