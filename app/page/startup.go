package page

import (
	"sync/atomic"
	"time"
)

// The page's start-up in the browser and its planner runs, as decisions
// the component carries out: what stands on screen when, what a change
// re-plans, when an answer is stale. The component holds the state and
// makes go-app's calls; these functions decide.

// Static names a section of the static page that can stand in for the
// live one while the browser catches up.
type Static int

const (
	StaticAnswer Static = iota // the recommendation
	StaticResult               // the memory breakdown
	StaticPerf                 // the speed-and-cost summary
	NStatic
)

// Staging is the start-up in the browser: Live is set once the app has
// taken over the prerendered page; Held marks the static page's sections
// still standing in for the live ones on the default view, Computed is
// set once the first screen's job is computed and FirstStepDone once
// its live sections replace the copies (FirstStep); RestShown is how many of the
// sections below the first screen are rendered. The prerendered page has
// them all; in the browser they follow in steps after the app is live,
// with the main thread free between them, so the first render (the
// start-up cost users wait for) stays small and inputs answer while the
// rest arrives. UpdateReady is set when the service worker has a newer
// build.
type Staging struct {
	Live, UpdateReady bool
	RestShown         int
	Held              [NStatic]bool
	Computed          bool
	FirstStepDone     bool
}

// FirstScreen reports whether the default view's first screen is all the
// browser has built and nothing is computed yet: the static breakdown
// stands (Keeps) and the first step has not computed the job.
func (st *Staging) FirstScreen(plain, planned bool) bool {
	return st.Keeps(StaticResult, plain, planned) && !st.Computed
}

// Step is what a start-up step after the app is live does.
type Step int

const (
	// StepRest shows the next sections below the first screen.
	StepRest Step = iota
	// StepCompute computes the default view's job, builds its view and
	// fills the folded boxes; the static copies still stand for the
	// breakdown, the answer and the summary. The job's first computation
	// and its render (the boxes and the live breakdown, their code
	// compiled on first call) ran as one task of 510–660 ms after mount
	// on a loaded 2-core machine, once 3.1 s (TestColdLoadTimes' long
	// tasks, 2026-11-30): the page's first long wait for input. As two
	// steps, with a turn of the browser's event loop between them, input
	// waits for one of them only.
	StepCompute
	// StepShow renders the live breakdown in place of its static copy,
	// from the job StepCompute computed.
	StepShow
)

// FirstStep decides the next start-up step and records it: firstScreen,
// the default view's first screen stands (FirstScreen). Off the first
// screen (a link, an input before the first step) the job is computed
// and rendered already, and the steps go on with the rest.
func (st *Staging) FirstStep(firstScreen bool) Step {
	switch {
	case st.FirstStepDone:
		return StepRest
	case firstScreen:
		st.Computed = true
		return StepCompute
	}
	st.FirstStepDone = true
	if st.Computed {
		return StepShow
	}
	return StepRest
}

// Keeps reports whether the static copy of section s stands for the live
// one now: on the plain view (the default state, no price sheet, pin,
// comparison or embedding), for the recommendation and the
// speed-and-cost summary until the browser's first plan (planned), for
// the breakdown the first screen only. The summary's cost figures and
// their offer lines come from the plan: rendered live before it, the box
// lost those lines and got them back, and every section below moved
// twice under a user's first click.
func (st *Staging) Keeps(s Static, plain, planned bool) bool {
	if !st.Held[s] || !plain {
		return false
	}
	if s == StaticResult {
		return !st.FirstStepDone
	}
	return !planned
}

// Drop forgets the copies that no longer stand for the view: once
// dropped, a copy never returns.
func (st *Staging) Drop(plain, planned bool) {
	for s := range NStatic {
		st.Held[s] = st.Keeps(s, plain, planned)
	}
}

// RestStages are the counts of the sections below the first screen shown
// after each step before the last: the rules and the fit table, then the
// offers table (the largest); the last step shows the small forms and
// the footer. Each step re-renders the whole page, so fewer, evenly sized
// steps beat one per section.
var RestStages = []int{2, 3}

// RestFirstDelay is the pause between the first screen going live and the
// first step below it: long enough for a first input (or a test driver's
// query for the live page) to be answered on a loaded machine, short of
// the planner's start (PlanDelay).
const RestFirstDelay = 150 * time.Millisecond

// RestDelay is the pause before each later step: several frames of
// go-app's engine (1/120 s), so the browser paints and handles pending
// input (and a test driver's queries) in between.
const RestDelay = 50 * time.Millisecond

// NextRest is how many of the n sections below the first screen the
// next step shows, and the pause before it; more is false once all are
// shown. A section added after the last stage's count is shown at the
// last step, never waited on.
func (st *Staging) NextRest(n int) (next int, delay time.Duration, more bool) {
	if st.RestShown >= n {
		return n, 0, false
	}
	delay = RestDelay
	if !st.FirstStepDone && !st.Computed {
		delay = RestFirstDelay
	}
	next = n
	for _, k := range RestStages {
		if k > st.RestShown && k < next {
			next = k
			break
		}
	}
	return next, delay, true
}

// PlanStep is what the page does with the planner after a change.
type PlanStep int

const (
	// PlanWait: the answer is on its way (or waits for the first step
	// after start-up, or for mount); the last answer stays, greyed.
	PlanWait PlanStep = iota
	// PlanKeep: nothing to plan (the job does not read); the last answer
	// stays for the greyed answer until a valid input replaces it.
	PlanKeep
	// PlanNow: plan at once, without yielding (natively, in tests, in the
	// prerendered page).
	PlanNow
	// PlanLater: plan off the input's path, after the updated tables are
	// painted (PlanDelay), dropping the answer if a newer change came.
	PlanLater
)

// NextPlan decides the planner's step: firstScreen, the default view's
// first screen stands and nothing is computed yet; ok, the job reads;
// sync, plan at once (component tests); browser, the page runs in the
// browser; live, the page has a context to run the planner under (from
// mount on).
func NextPlan(firstScreen, ok, sync, browser, live bool) PlanStep {
	switch {
	case firstScreen:
		return PlanWait
	case !ok:
		return PlanKeep
	case sync, !browser:
		return PlanNow
	case !live:
		return PlanWait // starting in the browser: the page plans once it is up
	}
	return PlanLater
}

// PlanDelay is how long the planner waits after an input change: well
// past one frame of go-app's engine (1/120 s) and the render of the rest
// of the page, so the tables are on screen and the page answers input
// before the planner (hundreds of milliseconds in WebAssembly for the
// whole catalog) holds the main thread; a change within the delay
// replaces the pending plan instead of queuing another.
const PlanDelay = 250 * time.Millisecond

// Tickets number a page's requests of one kind (a plan, a write of the
// link): an answer is stale once a newer request was made. Safe to read
// from a request's goroutine.
type Tickets struct{ n atomic.Int64 }

// Next is a new request's ticket.
func (t *Tickets) Next() int64 { return t.n.Add(1) }

// Stale reports whether a newer request followed ticket k's.
func (t *Tickets) Stale(k int64) bool { return k != t.n.Load() }
