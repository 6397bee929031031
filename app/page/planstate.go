package page

// PlanStatus is where the planner's answer stands.
type PlanStatus int

const (
	PlanReady   PlanStatus = iota // the answer is the current job's, or there is nothing to plan
	PlanPending                   // an answer for the current job is on its way; the last one stays, greyed
)

// PlanState holds the planner's answer as the page's state, as go-app's
// docs app holds a document with its status: the answer for the job, the
// pin's (for the comparison), where it stands, and the tickets of its
// requests, which the pending plan's goroutine reads to drop an answer a
// newer input has replaced. Answers counts the answers stored (the
// component's view memo keys on it).
type PlanState struct {
	Out, Pin PlanOut
	Status   PlanStatus
	Seq      Tickets
	Answers  uint64
}

// Pending reports whether an answer for the current job is on its way.
func (p *PlanState) Pending() bool { return p.Status == PlanPending }

// Set stores an answer for the current job.
func (p *PlanState) Set(out, pin PlanOut) {
	p.Out, p.Pin, p.Status = out, pin, PlanReady
	p.Answers++
}
