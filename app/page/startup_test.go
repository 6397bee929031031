package page

import (
	"testing"
	"time"
)

// TestStagingKeeps: the static copies stand only on the plain view, the
// breakdown's until the first step after start-up, the answer's and the
// summary's until the first plan; a dropped copy never returns.
func TestStagingKeeps(t *testing.T) {
	held := [NStatic]bool{true, true, true}
	for _, tc := range []struct {
		plain, planned, firstDone bool
		want                      [NStatic]bool
	}{
		{true, false, false, [NStatic]bool{true, true, true}},
		{true, false, true, [NStatic]bool{true, false, true}},
		{true, true, false, [NStatic]bool{false, true, false}},
		{true, true, true, [NStatic]bool{}},
		{false, false, false, [NStatic]bool{}},
	} {
		st := Staging{Held: held, FirstStepDone: tc.firstDone}
		for s := range NStatic {
			if got := st.Keeps(s, tc.plain, tc.planned); got != tc.want[s] {
				t.Errorf("plain %v planned %v first step %v: section %d kept %v, want %v", tc.plain, tc.planned, tc.firstDone, s, got, tc.want[s])
			}
		}
		st.Drop(tc.plain, tc.planned)
		if st.Held != tc.want {
			t.Errorf("plain %v planned %v first step %v: held %v after Drop, want %v", tc.plain, tc.planned, tc.firstDone, st.Held, tc.want)
		}
		st.Drop(true, false) // back on the plain view, before a plan
		if st.Held != tc.want {
			t.Errorf("a dropped copy came back: %v", st.Held)
		}
	}
	if (&Staging{}).Keeps(StaticAnswer, true, false) {
		t.Error("a section without a copy is kept")
	}
}

// TestNextRest: the sections below the first screen arrive in the stages,
// then all of them, the first step after the longer pause.
func TestNextRest(t *testing.T) {
	st := Staging{}
	var shown []int
	var delays []time.Duration
	for {
		next, d, more := st.NextRest(10)
		if !more {
			break
		}
		shown, delays = append(shown, next), append(delays, d)
		st.RestShown, st.FirstStepDone = next, true
		if len(shown) > 5 {
			t.Fatalf("no end: %v", shown)
		}
	}
	if want := []int{2, 3, 10}; len(shown) != 3 || shown[0] != want[0] || shown[1] != want[1] || shown[2] != want[2] {
		t.Errorf("stages %v, want %v", shown, want)
	}
	if delays[0] != RestFirstDelay || delays[1] != RestDelay || delays[2] != RestDelay {
		t.Errorf("pauses %v", delays)
	}
	// Fewer sections than the stages count: all at the first step.
	if next, _, more := (&Staging{}).NextRest(1); next != 1 || !more {
		t.Errorf("one section: next %d more %v", next, more)
	}
}

// TestFirstStep: on the default view's first screen the first step after
// start-up computes with the static breakdown still standing, the next
// renders the live one, then the sections below follow, each after the
// shorter pause; off the first screen the steps go straight to the rest.
func TestFirstStep(t *testing.T) {
	st := Staging{Held: [NStatic]bool{true, true, true}}
	if !st.FirstScreen(true, false) {
		t.Fatal("before the first step: not the first screen")
	}
	if _, d, _ := st.NextRest(10); d != RestFirstDelay {
		t.Errorf("first pause %v, want %v", d, RestFirstDelay)
	}
	if got := st.FirstStep(st.FirstScreen(true, false)); got != StepCompute {
		t.Fatalf("first step %v, want StepCompute", got)
	}
	if st.FirstScreen(true, false) || !st.Keeps(StaticResult, true, false) {
		t.Errorf("after computing: first screen %v, static breakdown kept %v; want false, true",
			st.FirstScreen(true, false), st.Keeps(StaticResult, true, false))
	}
	if next, d, more := st.NextRest(10); next != RestStages[0] || d != RestDelay || !more {
		t.Errorf("after computing: next %d after %v (more %v), want %d after %v", next, d, more, RestStages[0], RestDelay)
	}
	if got := st.FirstStep(st.FirstScreen(true, false)); got != StepShow {
		t.Fatalf("second step %v, want StepShow", got)
	}
	if st.Keeps(StaticResult, true, false) {
		t.Error("after the live breakdown is shown the static one is kept")
	}
	if got := st.FirstStep(false); got != StepRest {
		t.Errorf("third step %v, want StepRest", got)
	}

	// A link, or an input before the first step: nothing left to compute.
	st = Staging{Held: [NStatic]bool{true, true, true}}
	if got := st.FirstStep(false); got != StepRest || !st.FirstStepDone || st.Computed {
		t.Errorf("off the first screen: step %v, first step done %v, computed %v", got, st.FirstStepDone, st.Computed)
	}
}

// TestNextPlan: what the planner does after a change, in each case.
func TestNextPlan(t *testing.T) {
	for _, tc := range []struct {
		first, ok, sync, browser, live bool
		want                           PlanStep
	}{
		{true, true, true, true, true, PlanWait},     // the first screen plans nothing
		{false, false, true, true, true, PlanKeep},   // a job that does not read keeps the last answer
		{false, true, true, true, true, PlanNow},     // component tests
		{false, true, false, false, false, PlanNow},  // natively, the prerendered page
		{false, true, false, true, false, PlanWait},  // in the browser before mount
		{false, true, false, true, true, PlanLater},  // in the browser, live
		{false, false, false, true, false, PlanKeep}, // nothing to plan before mount either
	} {
		if got := NextPlan(tc.first, tc.ok, tc.sync, tc.browser, tc.live); got != tc.want {
			t.Errorf("%+v: %d, want %d", tc, got, tc.want)
		}
	}
}

// TestTickets: an answer is stale once a newer request was made.
func TestTickets(t *testing.T) {
	var tk Tickets
	a := tk.Next()
	if tk.Stale(a) {
		t.Fatal("the newest request's answer is stale")
	}
	b := tk.Next()
	if !tk.Stale(a) || tk.Stale(b) {
		t.Errorf("after a newer request: first stale %v, second stale %v", tk.Stale(a), tk.Stale(b))
	}
}
