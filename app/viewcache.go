package app

import (
	"time"

	"rightsize/app/page"
)

// viewMemo is the page's last view with what it was built from. In the
// browser the view of an input is built while the input is handled
// (recompute), not in the render that follows: go-app renders on its next
// frame, 1/120 s after the input's dispatch (go-app's engineX.Start), and
// the input's own work is shorter than that, so a view built in between
// is ready when the frame comes and the frame only diffs and writes the
// DOM. A plan's answer is not built ahead: its dispatch follows the
// planner's last slice in one task, which the view would only lengthen.
// A render whose inputs did not change (a copied-link note, each step of
// the start-up's showRest) reuses the view, whose unchanged parts go-app's
// prop comparison then finds identical at once. A view is never changed
// once built (a new one replaces it): the leaves hold pointers into it.
type viewMemo struct {
	key viewKey
	v   *page.View
	// derived counts recompute's results (viewKey.derived); renders the
	// page's renders (an open fold's prop, so it renders with the page).
	derived, renders uint64
}

// viewKey is what the view is built from (Calculator.viewIn), by value
// where it is small and by version or identity where it is not: the
// derived job and results change only in recompute (derived), and so do
// the prices (a sheet is applied with a recompute: prices.go); the plan's
// answer only in page.PlanState.Set (Answers); the comparison only by
// reassignment (compare.go).
type viewKey struct {
	derived, answers uint64
	pending          bool
	state            page.ViewState
	now, today       time.Time
	cmp              *string
	ncmp             int
	full             bool
	pin              *page.ViewState
	typed            bool
	ownName          string
	ownArch          *page.Arch
	firstScreen      bool
}

// keyOf is what c's view would be built from now.
func (m *viewMemo) keyOf(c *Calculator) viewKey {
	k := viewKey{
		derived: m.derived, answers: c.ps.Answers, pending: c.ps.Pending(),
		state: c.state, now: c.now, today: c.pr.Today,
		ncmp: len(c.cmp.ids), full: c.cmp.full, pin: c.pin,
		typed:   c.open.overrides,
		ownName: c.own.name, ownArch: c.own.arch, firstScreen: c.firstScreen(),
	}
	if len(c.cmp.ids) > 0 {
		k.cmp = &c.cmp.ids[0]
	}
	return k
}

// view is c's view of the current state, built once per state.
func (m *viewMemo) view(c *Calculator) *page.View {
	if k := m.keyOf(c); m.v == nil || m.key != k {
		v := page.BuildView(c.viewIn())
		m.key, m.v = k, &v
	}
	return m.v
}
