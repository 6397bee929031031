package app

import (
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Calculator is the one stateful page component: it owns the input state
// (raw text of every field), the parsed job and its results. Handlers
// change the state and call recompute; Render formats through leaf
// components whose props point into the view (leaves.go).
type Calculator struct {
	app.Compo

	state page.ViewState
	now   time.Time // zero outside the browser, so the static page carries no staleness flags
	embed bool      // #embed=1: results only, for an iframe in a docs page
	// open is what the user opened that the view keeps open.
	open disclosure
	// pr is the catalog with the user's price sheet applied; sheet is the
	// sheet (prices.go).
	pr    page.Prices
	sheet priceSheet
	share shareState // the link: "Copy link", the fragment's writes, what it could not read
	own   ownModel   // the user's own config.json (custommodel.go)
	// pin is the configuration kept for comparison ("Pin"), or nil; cmp
	// is the comparison's offers (compare.go).
	pin *page.ViewState
	cmp compareList
	// d is the state's job and results (recompute).
	d page.Derived
	// ps is the planner's answer as the page's state (page.PlanState). In the
	// browser the planner runs after the tables are on screen (pending
	// meanwhile); natively and in the prerendered page it runs with the
	// rest.
	ps page.PlanState
	// start is the page's start-up in the browser (static.go, showRest).
	start staging
	// memo is the last view built and what it was built from (viewcache.go).
	memo viewMemo
}

// disclosure is what the user opened that the link does not carry: the
// overheads box (kept open once the user typed in it) and the part of the
// job line open for editing (jobline.go). The open sections and the
// tables shown whole are in the state's "show" key (page.Section).
type disclosure struct {
	overrides bool
	part      page.OpenPart
}

// shareState is the link both ways: the result of "Copy link" (copied to
// the clipboard, or the URL shown for copying by hand where the clipboard
// is refused), what the last copy button put on the clipboard (0:
// nothing), the newest fragment write (sync), and what the opened link
// held that the page could not read (notes, routes.go).
type shareState struct {
	copied bool
	url    string
	what   page.MsgKey
	seq    page.Tickets
	notes  linkNotes
}

// ownModel is the user's own config.json: parsed (nil: none), its file
// name, its text and why it did not read.
type ownModel struct {
	arch            *page.Arch
	name, text, err string
}

// compareList is the comparison's offers, in the link as page.CompareKey;
// full: the last add found it full.
type compareList struct {
	ids  []string
	full bool
}

// linkNotes are the parts of the opened link that do not decode, and the
// values of its comparison that do not read (page.ParseCompare).
type linkNotes struct{ link, cmp []string }

// staging is the start-up in the browser (page.Staging) with the static
// page's sections standing in for the live ones on the default view
// (static.go).
type staging struct {
	page.Staging
	static [page.NStatic]app.Value
}

// OnInit sets defaults; it runs natively, in the browser and during static
// prerendering, so the generated index.html already shows an estimate.
func (c *Calculator) OnInit() {
	Mark("rightsize:init")
	c.sheet.base = page.DefaultCatalog()
	c.pr = page.NewPrices(c.sheet.base, nil)
	c.state = page.DefaultState
	if !app.IsClient {
		c.start.RestShown = nRest
		// The prerendered page plans on the catalog's newest price date,
		// so its picks rest on the prices the live page's will on the day
		// the site is built (the freshness window passes stale prices
		// over); it shows no age grades, which need the visitor's clock.
		if d, err := time.Parse(time.DateOnly, c.sheet.base.NewestAsOf()); err == nil {
			c.pr.Today = d
		}
	}
	if app.IsClient {
		c.now = time.Now() // staleness grades only in the browser, never in the prerendered page
		c.pr.Today, c.pr.Yield = c.now, planYield()
		c.start.static = staticPage
		for s, v := range staticPage {
			c.start.Held[s] = v != nil
		}
	}
	c.recompute(app.Context{})
	Mark("rightsize:computed")
}

// OnMount runs only in the browser: it restores saved files, listens for
// picks from the leaf components and marks the page live, which the
// end-to-end tests wait for.
func (c *Calculator) OnMount(ctx app.Context) {
	Mark("rightsize:mounted")
	ctx.Handle(actionApply, c.onApply)
	ctx.Handle(actionField, c.onFieldAction)
	ctx.Handle(actionCompare, c.onCompare)
	ctx.Handle(actionShowAll, c.onShowAll)
	ctx.Handle(actionJob, c.onJob)
	ctx.Handle(actionSheet, c.onSheet)
	ctx.Handle(actionConfig, c.onConfig)
	ctx.Handle(actionCopy, c.onCopy)
	ctx.Handle(actionPin, c.onPin)
	ctx.Handle(actionFold, c.onFold)
	ctx.Handle(actionStaticPart, c.onStaticPart)
	c.replan(ctx)
	custom, sheet := c.own.arch, c.sheet.Rows
	c.loadSaved(ctx)
	c.start.place(c.plainView(), c.ps.Out.OK)
	c.start.Live = true
	if c.embed {
		watchHeight()
	}
	c.showRest(ctx)
	if c.own.arch == custom && c.sheet.Rows == sheet {
		// Nothing on screen changed (the plan was pending from the first
		// render on): skip the update go-app schedules after OnMount, a
		// second pass over the whole page in cold code at start-up.
		ctx.PreventUpdate()
	}
}

// showRest renders the next section below the first screen restDelay
// after the current render has finished, until all are shown. Rendering
// them in one update held WebAssembly's single thread for about a second
// after mount (the fit and offers tables' first DOM): the page looked
// live but answered no input, and the planner's first run waited behind it.
func (c *Calculator) showRest(ctx app.Context) {
	next, d, more := c.start.NextRest(nRest)
	if !more {
		return
	}
	// Defer: count the delay from the end of this update, so the browser
	// gets the main thread (paint, input) between two sections.
	ctx.Defer(func(ctx app.Context) {
		ctx.After(d, func(ctx app.Context) {
			switch c.start.FirstStep(c.firstScreen()) {
			case page.StepCompute:
				// The job, its view and the folded boxes; the planner
				// starts from here (page.StepCompute).
				c.recompute(ctx)
				ctx.Defer(func(app.Context) { Mark("rightsize:first-computed") })
			case page.StepShow:
				// The live breakdown in place of its static copy
				// (static.go).
				c.start.drop(c.plainView(), c.ps.Out.OK)
				ctx.Defer(func(app.Context) { Mark("rightsize:first-shown") })
			default:
				c.start.RestShown = next
			}
			c.showRest(ctx)
		})
	})
}

// OnAppUpdate is called by go-app when the service worker has fetched a
// newer build; the page offers a reload instead of switching under the user.
func (c *Calculator) OnAppUpdate(ctx app.Context) { c.start.UpdateReady = ctx.AppUpdateAvailable() }

// OnNav restores the state of a shared link from the URL fragment.
func (c *Calculator) OnNav(ctx app.Context) {
	c.share.seq.Next() // a pending write of the old state must not replace the link opened
	changed := c.applyFragment(ctx, ctx.Page().URL().Fragment)
	setDocumentLang(page.LangOf(&c.state))
	if c.embed && c.start.Live {
		watchHeight()
	}
	if !changed {
		// The link holds the view on screen (the start-up navigation to a
		// plain URL): skip the update go-app schedules after OnNav.
		ctx.PreventUpdate()
	}
}

// applyFragment reads a link: the state, the pin, the embed flag and a
// custom model carried in the link. It reports whether the view changed;
// a link holding the current view changes nothing.
func (c *Calculator) applyFragment(ctx app.Context, frag string) bool {
	ignored := page.IgnoredInLink(frag)
	l := page.ParseLink(frag, page.DefaultState)
	// The notes on what the link's reader ignored are part of the view: a
	// link that holds the current state but a part the page cannot read
	// ("#%" on the default page) still shows its note.
	notes := !slices.Equal(ignored, c.share.notes.link) || !slices.Equal(l.CompareBad, c.share.notes.cmp)
	c.share.notes.link, c.share.notes.cmp = ignored, l.CompareBad
	if l.Shows(c.state, c.embed, c.cmp.ids, c.pin, c.own.text) {
		return notes
	}
	c.state, c.embed = l.State, l.Embed
	c.cmp.ids, c.cmp.full = l.Compare, false
	c.pin = nil
	if l.Pinned {
		p := l.Pin
		c.pin = &p
	}
	if l.Config != "" {
		if a, err := page.ParseConfig(l.Config); err == nil {
			c.own.arch, c.own.text = &a, l.Config
			c.own.name = l.ConfigName
		}
	}
	c.recompute(ctx)
	return true
}

// onFieldAction is a change from a leaf component (selectBox).
func (c *Calculator) onFieldAction(ctx app.Context, a app.Action) {
	if ch, ok := a.Value.(fieldChange); ok && ch.F >= 0 && ch.F < page.NFields {
		c.change(ctx, ch.F, ch.V)
	}
}

// change applies one input's new text, keeps the link in step and the
// document's language.
func (c *Calculator) change(ctx app.Context, f page.Field, v string) {
	for _, o := range page.OverrideFields {
		c.open.overrides = c.open.overrides || o == f
	}
	c.set(ctx, f, v)
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
	if f == page.FieldLang {
		setDocumentLang(page.LangOf(&c.state))
	}
}

// actionApply is the action a leaf component sends when the user picks a
// fit-table row, an offer, a recommendation or a chart point.
const actionApply = "rs/apply"

// applyPlan is the value of actionApply: a GPU and how to use it.
type applyPlan struct {
	GPU  string
	Plan page.Plan
}

// onApply sets the GPU, its count and the split in one step, so every
// table agrees with the pick.
func (c *Calculator) onApply(ctx app.Context, a app.Action) {
	p, ok := a.Value.(applyPlan)
	if !ok {
		return
	}
	if _, ok := c.pr.Cat.GPU(p.GPU); !ok || p.Plan.GPUs < 1 {
		return
	}
	c.state = c.state.WithPlan(p.GPU, p.Plan, c.d.Job.In.Task.Training()).WithAll(page.SecOffers, false)
	c.set(ctx, page.FieldGPU, p.GPU)
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
}

// onShowAll lists every row of a section's table (the fit table, the
// offers), in the state and so in the link.
func (c *Calculator) onShowAll(ctx app.Context, a app.Action) {
	sec, ok := a.Value.(page.Section)
	if !ok || c.state.ShowsAll(sec) {
		return
	}
	c.state = c.state.WithAll(sec, true) // the view is built from the state: nothing to recompute
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
}

// onPin keeps the current configuration for comparison, or drops the pin.
func (c *Calculator) onPin(ctx app.Context, a app.Action) {
	if c.pin != nil {
		c.pin = nil
	} else {
		p := c.state
		c.pin = &p
	}
	c.recompute(ctx)
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
}

// set changes one field and recomputes.
func (c *Calculator) set(ctx app.Context, f page.Field, v string) {
	if f == page.FieldModel {
		c.state = c.state.WithModel(v, c.pr.Cat) // and the checkpoint's precision
	} else {
		c.state[f] = v
	}
	c.share.copied, c.share.url, c.share.what = false, "", 0
	if f == page.FieldGPU {
		c.state = c.state.WithAll(page.SecOffers, false) // another GPU's offers
	}
	c.recompute(ctx)
}

// link is what the URL fragment carries.
func (c *Calculator) link() page.Link {
	return page.LinkOf(c.state, c.embed, c.cmp.ids, c.pin, c.own.text, c.own.name)
}

// sync keeps the fragment in step with the state, without a history
// entry. In the browser it writes once input pauses for urlDelay:
// rewriting the address bar (history.replaceState, the og:url meta) costs
// the main thread a few milliseconds that an input change spends on its
// tables instead. Copy link flushes it first (flush).
func (s *shareState) sync(ctx app.Context, frag string) {
	seq := s.seq.Next()
	if !app.IsClient {
		writeURL(ctx, frag)
		return
	}
	opened := ctx.Page().URL().Fragment // a link opened meanwhile changes it, before OnNav runs
	ctx.Async(func() {
		time.Sleep(urlDelay)
		if !s.seq.Stale(seq) && ctx.Page().URL().Fragment == opened { // no newer change, no link opened
			writeURL(ctx, frag)
		}
	})
}

// flush writes the fragment now, dropping a pending write.
func (s *shareState) flush(ctx app.Context, frag string) {
	s.seq.Next()
	writeURL(ctx, frag)
}

// urlDelay is how long the address bar waits for input to pause.
const urlDelay = 150 * time.Millisecond

func writeURL(ctx app.Context, frag string) {
	u := *ctx.Page().URL()
	u.Fragment = frag
	u.RawFragment = ""
	ctx.Page().ReplaceURL(&u)
}

// recompute parses the state into a job and computes its results (and the
// pin's, for the comparison), then re-plans (ctx: the page's context, nil
// before mount). The default view's first screen shows the static page's
// results and the inputs, which need no job: the default state parses
// without a problem (TestDefaultStateParses), so there is no error to
// show. The first step after the page is live computes (showRest).
func (c *Calculator) recompute(ctx app.Context) {
	c.d = page.Derived{}
	if !c.firstScreen() {
		c.d = page.Derive(c.state, c.pin, c.pr, c.own.arch, c.own.name)
		c.start.drop(c.plainView(), c.ps.Out.OK)
	}
	c.memo.derived++
	c.replan(ctx)
	if app.IsClient {
		c.memo.view(c) // built while the input is handled (viewMemo)
	}
}

// replan runs the planner for the current job as page.NextPlan decides:
// at once natively (tests, the prerendered page), and in the browser
// after the updated tables have been painted, so typing never waits for
// it; an answer for an older job is dropped.
func (c *Calculator) replan(ctx app.Context) {
	step := page.NextPlan(c.firstScreen(), c.d.R.OK, planSync, app.IsClient, ctx.Context != nil)
	runPlan(&c.ps, ctx, step, c.d.Job, c.d.PinJob, c.pin != nil && c.d.Pinned.OK, c.pr, func() {
		c.start.drop(c.plainView(), c.ps.Out.OK)
		Mark("rightsize:planned")
	})
}

// planYield is the planner's yield in the browser (yieldToBrowser), nil
// elsewhere.
func planYield() func() {
	if app.IsClient {
		return page.YieldToBrowser
	}
	return nil
}

// run carries out step for job j (and the pin's job pinJob when pin) at
// prices pr. A later answer (page.PlanLater) comes through ctx, the
// page's context it is handed, and done runs once it is stored.
func runPlan(p *page.PlanState, ctx app.Context, step page.PlanStep, j, pinJob page.Job, pin bool, pr page.Prices, done func()) {
	seq := p.Seq.Next()
	switch step {
	case page.PlanWait:
		p.Status = page.PlanPending
	case page.PlanKeep:
		p.Status = page.PlanReady
	case page.PlanNow:
		// Without yielding: a test may drive this from a browser event's
		// callback, where a sleep would wait forever.
		pr.Yield = nil
		p.Set(page.Plans(j, pinJob, pin, pr))
	case page.PlanLater:
		p.Status = page.PlanPending
		ctx.Async(func() {
			// Let the engine render the tables and the browser paint them.
			// A newer change may replace this plan meanwhile: read the
			// tickets atomically, as waiting here on a Dispatch would
			// deadlock an engine that consumes its dispatches only after
			// its async work (go-app's TestEngine).
			time.Sleep(page.PlanDelay)
			// A newer change abandons the plan at its next yield.
			out, pinOut, ok := page.PlansWhile(func() bool { return !p.Seq.Stale(seq) }, j, pinJob, pin, pr)
			if !ok {
				return
			}
			// The answer's dispatch and the update it starts (the view and
			// go-app's diff) are a task of their own, after the plan's last.
			if app.IsClient {
				page.GiveBack()
			}
			ctx.Dispatch(func(ctx app.Context) {
				if !p.Seq.Stale(seq) {
					p.Set(out, pinOut)
					done()
				}
			})
		})
	}
}

// planSync makes replan plan at once, for component tests that read the
// plan right after an input change (the deferred path runs in the
// end-to-end tests).
var planSync bool

// setDocumentLang sets the document's language, for screen readers and fonts.
func setDocumentLang(lang string) {
	if app.IsClient {
		app.Window().Get("document").Get("documentElement").Set("lang", lang)
	}
}
