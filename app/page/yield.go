package page

import "time"

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
// browser's event loop when every goroutine waits, and time.Sleep parks
// the planner's goroutine, so input, rendering and painting go on between
// slices of a plan (the planner calls it between offers and inside each
// offer's row, planner.Options.Yield; ServeLoadOf before each simulated
// run of the load chart).
func YieldToBrowser() {
	if time.Since(lastYield) < YieldEvery {
		return
	}
	time.Sleep(time.Millisecond)
	lastYield = time.Now()
}
