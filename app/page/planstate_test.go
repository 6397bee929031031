package page

import (
	"testing"
	"time"
)

// TestPlanState: an answer stored is ready and counted; a pending one
// says so until the next answer.
func TestPlanState(t *testing.T) {
	var p PlanState
	if p.Pending() || p.Answers != 0 {
		t.Fatalf("zero state: pending %v, answers %d", p.Pending(), p.Answers)
	}
	p.Status = PlanPending
	if !p.Pending() {
		t.Fatal("a pending state does not say so")
	}
	out := PlanOut{OK: true, Currency: "EUR"}
	p.Set(out, PlanOut{})
	if p.Pending() || p.Answers != 1 || p.Out.Currency != "EUR" || !p.Out.OK || p.Pin.OK {
		t.Fatalf("after Set: pending %v, answers %d, out %+v, pin OK %v", p.Pending(), p.Answers, p.Out.OK, p.Pin.OK)
	}
}

// TestYieldToBrowser: the thread is given back only once a plan has held
// it for YieldEvery, and the clock restarts then.
func TestYieldToBrowser(t *testing.T) {
	now := time.Now()
	lastYield = now
	YieldToBrowser()
	if !lastYield.Equal(now) {
		t.Fatal("yielded before YieldEvery had passed")
	}
	lastYield = now.Add(-2 * YieldEvery)
	YieldToBrowser()
	if !lastYield.After(now) {
		t.Fatalf("did not yield after %v held", 2*YieldEvery)
	}
}
