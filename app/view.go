package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Render formats the current state through leaf components; it computes
// nothing.
func (c *Calculator) Render() app.UI {
	c.memo.renders++
	v := c.memo.view(c)
	cls := "rs-page"
	if app.IsClient {
		// Every render in the browser is the app's own DOM, with its
		// handlers: the page answers input from the first one (the static
		// page never carries rs-live).
		cls += " rs-live"
	}
	if c.start.Live && c.start.RestShown == nRest {
		cls += " rs-complete"
	}
	if c.ps.Pending() {
		cls += " rs-plan-pending" // the tables' costs wait for the planner
	}
	if c.embed {
		full := c.link()
		full.Embed = false
		// The embed page is the answer and its figures only, for an iframe
		// in a docs page: no inputs, no fit or offers tables, and so no
		// comparison of plans either (its plans are added from those
		// tables, and the chart there offers no "+ Compare"). A cmp= in
		// the link is kept for "Open in Rightsize", whose page shows it.
		cls += " rs-embed"
		return app.Main().Class(cls).Body(
			nodeUI(page.LinkNoteNode(v.Lang, c.share.notes.link, c.share.notes.cmp), hooks{}),
			answerUI(v, c.open.part.Field(), c.cmp.ids, c.embed),
			resultUI(v, c.d.R.OK),
			&perfSection{V: &v.Perf, Lang: v.Lang},
			serveUI(&v.Serve, v.Lang),
			nodeUI(page.OpenFullNode(v.Lang, full.Encode(page.DefaultState)), hooks{}),
		)
	}
	plain := c.plainView()
	return app.Main().Class(cls).Body(
		nodeUI(page.LinkNoteNode(v.Lang, c.share.notes.link, c.share.notes.cmp), hooks{}),
		app.If(c.start.UpdateReady, func() app.UI { return &updateBanner{Lang: v.Lang} }),
		app.Header().Class("rs-header").Body(
			app.Div().Class("rs-title").Body(
				app.H1().Text("Rightsize"),
				fieldUI(&v.Form.Language),
			),
			app.Div().Class("rs-share").Body(
				app.P().Class("rs-tagline").Text(tr(c, page.MsgTagline)),
				app.Div().Class("rs-actions").Body(
					&copyButton{ID: "rs-copy-link", Label: tr(c, page.MsgCopyLink), What: page.CopyLink},
					&pinButton{Label: page.PinLabel(v.Lang, c.pin != nil), Pinned: c.pin != nil},
				),
			),
			app.If(c.share.copied, func() app.UI { return app.P().Class("rs-ok").ID("rs-link-copied").Text(tr(c, page.MsgLinkCopied)) }),
			app.If(c.share.url != "", func() app.UI {
				return app.Input().Type("text").ID("rs-share-url").ReadOnly(true).Value(c.share.url).Attr("aria-label", tr(c, page.MsgCopyLink))
			}),
		),
		staticOr(c.start.Keeps(page.StaticAnswer, plain, c.ps.Out.OK), page.StaticAnswer, func() app.UI { return answerUI(v, c.open.part.Field(), c.cmp.ids, c.embed) }),
		pinUI(&v.Pinned),
		&plansTable{V: &v.Plans},
		formUI(&v.Form),
		staticOr(c.start.Keeps(page.StaticResult, plain, c.ps.Out.OK), page.StaticResult, func() app.UI { return resultUI(v, c.d.R.OK) }),
		staticOr(c.start.Keeps(page.StaticPerf, plain, c.ps.Out.OK), page.StaticPerf, func() app.UI { return &perfSection{V: &v.Perf, Lang: v.Lang} }),
		serveUI(&v.Serve, v.Lang),
		app.If(c.start.RestShown > 0, func() app.UI {
			return app.Div().Class("rs-rest").Body(c.restUI(v, c.start.RestShown)...)
		}),
	)
}

// restUI is the first n sections below the first screen, in page order
// (nRest: the folds, then the footer). In the browser they come one at a
// time after mount (showRest), so no single render holds the main thread
// for long.
func (c *Calculator) restUI(v *page.View, n int) []app.UI {
	body := make([]app.UI, 0, n)
	for sec := page.SecRules; sec < page.NSections && len(body) < n; sec++ {
		var f app.UI = app.Text("")
		if v.Shows(sec) && (sec != page.SecExport || c.d.R.OK) { // export: an estimate to export
			fd := &fold{Sec: sec, Title: page.Tr(v.Lang, page.SectionTitles[sec]), Open: c.state.Opens(sec), C: c}
			if fd.Open {
				fd.N = c.memo.renders
			}
			f = fd
		}
		body = append(body, f)
	}
	if len(body) < n {
		body = append(body, &leaf[string]{Lang: v.Lang, V: &v.Fresh, node: func(lang string, fresh *string) page.Node { return page.FooterNode(lang, *fresh) }})
	}
	return body
}

// fold is section Sec below the first screen under its name, as a leaf:
// closed, its props are its title and state, so go-app skips it on every
// input. Its body is rendered only while it is open (the link's "show"
// key), read from the page C at render time, and N, the page's render
// count while open, renders it with the page. The prerendered page and a
// closed section carry no body: opening one renders it, so the first
// screen builds only what is on it.
type fold struct {
	app.Compo
	Sec   page.Section
	Title string
	Open  bool
	N     uint64
	C     *Calculator
}

func (f *fold) Render() app.UI {
	key := page.SectionKeys[f.Sec]
	d := app.Details().Class("rs-fold").ID("rs-fold-"+key).Attr("data-s", key).OnToggle(f.onToggle)
	if f.Open {
		d = d.Open(true) // never Open(false): the static HTML would read open="false", which is open
	}
	return d.Body(app.Summary().Class("rs-fold-title").Text(f.Title), app.If(f.Open, f.body))
}

// body is the open section's body, from the page's view and state now.
func (f *fold) body() app.UI {
	c := f.C
	v := c.memo.view(c)
	switch f.Sec {
	case page.SecRules:
		return &rulesSection{V: &v.Rules, Lang: v.Lang}
	case page.SecFit:
		return &fitSection{V: &v.Fit, Lang: v.Lang}
	case page.SecOffers:
		return &offersSection{V: &v.Offers, Lang: v.Lang}
	case page.SecExport:
		return nodeUI(page.ExportNode(v.Lang, c.share.what == page.MsgCopyMarkdown), hooks{})
	case page.SecLaunch:
		return nodeUI(page.LaunchNode(v.Lang, &v.Launch, c.share.what == page.MsgCopyLaunch),
			hooks{ui: map[string]app.UI{"kind": fieldUI(&v.Launch.Kind), "router": fieldUI(&v.Launch.Router)}})
	case page.SecPrices:
		return &sheetBox{Lang: v.Lang, V: page.SheetBox{Busy: c.sheet.load.busy, Name: c.sheet.Name, Err: c.sheet.Err, Progress: c.sheet.load.progress,
			Rows: c.sheet.Rows, Offers: len(c.pr.Own), SavedBad: c.sheet.load.sheetSavedBad, Unsaved: c.sheet.load.sheetUnsaved, Off: !app.IsClient}}
	case page.SecModel:
		return &configBox{Lang: v.Lang, Err: c.own.err, Unsaved: c.sheet.load.configUnsaved, Bad: c.sheet.load.configBad}
	case page.SecFleet:
		return nodeUI(page.FleetInputsNode(v.Lang, len(v.Form.Fleet) > 0), hooks{ui: map[string]app.UI{"fields": fieldsDiv(v.Form.Fleet)}})
	}
	return nodeUI(page.BenchNode(v.Lang, &v.Form.Bench), hooks{ui: map[string]app.UI{"field": fieldUI(&v.Form.Bench.Field)}})
}

// actionFold carries a section's new open state to the page.
const actionFold = "rs/fold"

type foldChange struct {
	Sec  page.Section
	Open bool
}

// onToggle sends the fold's new state up.
func (f *fold) onToggle(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionFold, foldChange{f.Sec, ctx.JSSrc().Get("open").Bool()})
}

// onFold keeps a section's open state in the state (and so in the link)
// when the user opens or closes it; nothing is recomputed, unless the
// default view's first screen stood in for the results until now.
func (c *Calculator) onFold(ctx app.Context, a app.Action) {
	f, ok := a.Value.(foldChange)
	if !ok || c.state.Opens(f.Sec) == f.Open {
		return
	}
	first := c.firstScreen()
	c.state = c.state.WithOpen(f.Sec, f.Open)
	if first {
		c.recompute(ctx)
	}
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
}

// nRest is how many sections restUI lists.
const nRest = 10

// viewIn is what page.BuildView builds the page's view from.
func (c *Calculator) viewIn() page.ViewIn {
	in := page.ViewIn{
		State: c.state, Job: c.d.Job, R: c.d.R, Plan: c.ps.Out, Pending: c.ps.Pending(), Prices: c.pr, Now: c.now,
		Compare: c.cmp.ids, CompareFull: c.cmp.full, CustomName: c.own.name, HasCustom: c.own.arch != nil,
		Errs: c.d.Errs, General: c.d.General, Typed: c.open.overrides, FirstScreen: c.firstScreen(),
	}
	if c.pin != nil {
		in.Pin = &page.PinIn{Job: c.d.PinJob, R: c.d.Pinned, Plan: c.ps.Pin}
	}
	return in
}

// resultUI is the memory section of view v, with the job's problems
// when it does not read.
func resultUI(v *page.View, ok bool) app.UI {
	return &resultSection{V: &v.Result, OK: ok, Lang: v.Lang, Errors: v.Problems}
}

// selectBox is one drop-down as a leaf component, its view's
// page.FieldView; a change travels up as actionField. In the browser its
// options are one innerHTML write (writeOptions, on mount and on a change
// of props, of page.OptionsHTML), not go-app elements created one by one
// through syscall/js; the static page renders them as children, so the
// HTML is the same.
type selectBox struct {
	app.Compo
	V *page.FieldView
}

func (s *selectBox) Render() app.UI {
	v := s.V
	id := fieldID(v.F)
	sel := app.Select().ID(id).Attr("data-f", strconv.Itoa(int(v.F))).Attr("aria-invalid", v.Err != "").OnChange(s.onChange)
	if !app.IsClient {
		sel = sel.Body(optionElems(v.Opts, v.Value)...)
	}
	return app.Div().Class("rs-field").Body(
		app.Label().For(id).Text(v.Label),
		sel,
		whereLine(v.Where),
		errLine(id, v.Err),
	)
}

// OnMount and OnUpdate keep the browser's options in step with the props;
// both run before the browser gets the main thread back, so no script or
// user ever sees the select without its options. Writing them changes
// nothing go-app renders: OnMount cancels the update go-app schedules
// after it, for this select and for the page around it.
func (s *selectBox) OnMount(ctx app.Context) {
	s.writeOptions()
	ctx.PreventUpdate()
}

func (s *selectBox) OnUpdate(ctx app.Context) { s.writeOptions() }

// optionElems are options opts as elements, cur chosen.
func optionElems(opts []page.Option, cur string) []app.UI {
	opts, chosen := page.OptionsOf(opts, cur)
	body := make([]app.UI, len(opts))
	for i, o := range opts {
		// Only the chosen option carries "selected": in the static HTML,
		// selected="false" would select it too.
		opt := app.Option().Value(o.Value).Text(o.Label)
		if i == chosen {
			opt = opt.Selected(true)
		}
		body[i] = opt
	}
	return body
}

func (s *selectBox) writeOptions() {
	if !app.IsClient || !s.Mounted() {
		return
	}
	sel := s.JSValue().Call("querySelector", "select")
	if !sel.Truthy() {
		return
	}
	sel.Set("innerHTML", page.OptionsHTML(s.V.Opts, s.V.Value))
	sel.Set("value", s.V.Value)
}

func (s *selectBox) onChange(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionField, fieldChange{F: s.V.F, V: ctx.JSSrc().Get("value").String()})
}

// actionField carries a leaf component's input change to the page.
const actionField = "rs/field"

type fieldChange struct {
	F page.Field
	V string
}

// tr is message k in the page's language.
func tr(c *Calculator, k page.MsgKey) string { return page.Tr(page.LangOf(&c.state), k) }

// updateBanner says a newer build is ready and offers a reload.
type updateBanner struct {
	app.Compo
	Lang string
}

func (u *updateBanner) Render() app.UI {
	return app.Div().Class("rs-update").ID("rs-update").Body(
		app.Text(page.Tr(u.Lang, page.MsgUpdateReady)+" "),
		app.Button().Class("rs-more").OnClick(u.onReload).Text(page.Tr(u.Lang, page.MsgReload)),
	)
}

func (u *updateBanner) onReload(ctx app.Context, e app.Event) { ctx.Reload() }
