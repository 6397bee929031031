package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Sections of the static page that stay on screen while the browser
// catches up.
//
// The site generator prerenders the default view. In the browser go-app
// replaces that DOM with its own at start-up, and building the first
// screen is most of what users wait for before the page answers input
// (cold WebAssembly: every render function runs for the first time). On
// the default view the static copies of the recommendation, the memory
// breakdown and the speed-and-cost summary are moved into empty slots
// instead, so the first render builds only the header and the inputs:
// the breakdown is rendered live in the first step after the page is
// live (showRest), the recommendation and the summary when the browser's
// first plan arrives. Any change of the view drops the copies
// at once and renders the live sections. The copies are the same HTML
// the live render produces for that view; their basis folds open
// natively.

var (
	staticSelectors = [page.NStatic]string{"main section.rs-answer", "main section.rs-result", "main section.rs-perf"}
	staticSlotIDs   = [page.NStatic]string{"rs-answer-slot", "rs-result-slot", "rs-perf-slot"}
)

// staticPage holds the static page's sections, taken by Routes before
// go-app replaces the prerendered DOM.
var staticPage [page.NStatic]app.Value

func takeStaticPage() {
	if !app.IsClient {
		return
	}
	doc := app.Window().Get("document")
	for s, sel := range staticSelectors {
		if v := doc.Call("querySelector", sel); v.Truthy() {
			staticPage[s] = v
		}
	}
}

// plainView reports whether the page shows the default view: no link
// state, no price sheet of the user's, no pin, no comparison, not
// embedded. Only there do the static copies stand in.
func (c *Calculator) plainView() bool {
	return c.state == page.DefaultState && c.sheet.Rows == 0 && c.pin == nil && len(c.cmp.ids) == 0 && !c.embed
}

// firstScreen reports whether the default view's first screen is all the
// browser has built: the static copies stand in for the breakdown and the
// summary, so nothing on screen needs the job's results yet. The page
// then computes nothing and leaves the folded Overheads and Assumptions
// boxes empty until the first step after it is live (showRest), as the
// browser compiles WebAssembly function by function on first call (the
// estimator and those boxes' render code). Any input computes at once.
func (c *Calculator) firstScreen() bool {
	return c.start.FirstScreen(c.plainView(), c.ps.Out.OK)
}

// staticOr renders the slot for section s while its static copy stands
// in (keep; place moves the copy in), else the live section. The slot is
// a div, the live section a section: go-app replaces one by the other
// whole, the copy with it. A click in the answer's copy goes to
// onStaticJobPart.
func staticOr(keep bool, s page.Static, render func() app.UI) app.UI {
	if !keep {
		return render()
	}
	slot := app.Div().ID(staticSlotIDs[s])
	if s == page.StaticAnswer {
		slot = slot.OnClick(onStaticJobPart)
	}
	return slot
}

// actionStaticPart opens the part of the job line a click hit in the
// static copy of the answer.
const actionStaticPart = "rs/static-part"

// onStaticJobPart takes a click on the static copy of the answer, which
// stands until the browser's first plan arrives: its buttons are markup
// without handlers, so the click is taken here, where it bubbles to the
// slot, and sent up with the part's field.
func onStaticJobPart(ctx app.Context, e app.Event) {
	if b := e.Get("target").Call("closest", "button[data-f]"); b.Truthy() {
		if f, ok := dataField(b); ok {
			ctx.NewActionWithValue(actionStaticPart, f)
		}
	}
}

// onStaticPart opens that part: the live answer replaces the copy at once
// (its picks say "Planning…" until the plan comes), with that part's
// editor open and focused; the job is computed now if the first step
// after start-up has not come yet.
func (c *Calculator) onStaticPart(ctx app.Context, a app.Action) {
	f, ok := a.Value.(page.Field)
	if !ok {
		return
	}
	if !c.start.FirstStepDone {
		// What the first step after start-up does (showRest): the job,
		// the live breakdown and summary, and the plan. The steps below
		// the first screen follow on their own schedule.
		c.start.FirstStepDone = true
		c.recompute(ctx)
	}
	c.start.static[page.StaticAnswer], c.start.Held[page.StaticAnswer] = nil, false
	c.open.part = page.OpenPart{F: f, Open: true}
	focusAfter(ctx, page.JobEditID)
}

// place moves the static copies into their slots; go-app leaves a slot's
// foreign child alone until the live section replaces the slot.
func (st *staging) place(plain, planned bool) {
	st.drop(plain, planned)
	doc := app.Window().Get("document")
	for s, v := range st.static {
		if v == nil {
			continue
		}
		if slot := doc.Call("getElementById", staticSlotIDs[s]); slot.Truthy() {
			slot.Call("appendChild", v)
		}
	}
}

// drop forgets the copies that no longer stand for the view
// (page.Staging.Drop).
func (st *staging) drop(plain, planned bool) {
	st.Drop(plain, planned)
	for s, held := range st.Held {
		if !held {
			st.static[s] = nil
		}
	}
}
