package app

// The page's sections below the answer, each a leaf component fed one
// section of page.View: an input re-renders only the sections whose
// values changed, and a section lays out what page.BuildView decided.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// resultSection is the memory per GPU: the breakdown, its facts and the
// estimator's warnings; or, when the job does not read, its problems.
type resultSection struct {
	app.Compo
	V      page.ResultView
	OK     bool
	Lang   string
	Errors []string
}

func (s *resultSection) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	if !s.OK {
		return app.Section().Class("rs-result").Body(
			app.P().Class("rs-sub").Text(t(page.MsgFixFields)),
			app.Range(s.Errors).Slice(func(i int) app.UI { return app.P().Class("rs-error").Text(s.Errors[i]) }),
		)
	}
	warns := s.V.Warnings
	return app.Section().Class("rs-result").Body(
		nodeUI(page.BreakdownNode(&s.V.Breakdown), nil),
		nodeUI(page.FactsNode("", s.V.Facts), nil),
		app.If(len(warns) > 0, func() app.UI {
			return app.Div().Class("rs-warnings").ID("rs-warnings").Body(
				app.H3().Text(t(page.MsgWarnings)),
				app.Ul().Body(app.Range(warns).Slice(func(i int) app.UI { return app.Li().Class("rs-warn").Text(warns[i]) })),
			)
		}),
	)
}

// perfSection is the speed-and-cost summary under the breakdown, each
// number with its basis.
type perfSection struct {
	app.Compo
	V    page.PerfView
	Lang string
}

func (s *perfSection) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	switch {
	case s.V.NoPerf:
		return app.Section().Class("rs-perf").Body(
			app.H2().Text(t(page.MsgSpeedTitle)),
			app.P().Class("rs-sub").ID("rs-no-perf").Text(t(page.MsgNoPerf)),
		)
	case len(s.V.Facts) == 0:
		return app.Text("")
	}
	return app.Section().Class("rs-perf").Body(
		app.H2().Text(t(page.MsgSpeedTitle)),
		app.P().Class("rs-sub").ID("rs-perf-setup").Text(s.V.Setup),
		nodeUI(page.FactsNode(s.Lang, s.V.Facts), nil),
		app.P().Class("rs-sub").Body(app.Text(t(page.MsgSpeedNote)+" "), accuracyLink(s.Lang)),
	)
}

// rulesSection compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU.
type rulesSection struct {
	app.Compo
	V    page.RulesView
	Lang string
}

func (s *rulesSection) Render() app.UI {
	if len(s.V.Rows) == 0 {
		return app.Text("")
	}
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	return app.Section().Class("rs-rules").Body(
		app.H2().Text(t(page.MsgRulesTitle)),
		app.P().Class("rs-sub").Text(t(page.MsgRulesNote)),
		tableUI(page.RulesTable(s.Lang, &s.V)),
	)
}

// fitSection is every GPU with the job's verdict on it, and the sort.
type fitSection struct {
	app.Compo
	V    page.FitView
	Lang string
}

func (s *fitSection) Render() app.UI {
	if len(s.V.Rows) == 0 {
		return app.Text("")
	}
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	return app.Section().Class("rs-fit").Body(
		app.H2().Text(t(page.MsgGPUFit)),
		app.Div().Class("rs-fit-head").Body(
			app.P().Class("rs-sub").Text(t(page.MsgPickGPU)),
			&selectBox{F: int(page.FieldSort), Label: t(page.MsgSortBy), Cur: s.V.Sort, Err: s.V.SortErr,
				Opts: []page.Option{{Value: page.SortVRAM.String(), Label: t(page.MsgSortVRAM)}, {Value: page.SortCost.String(), Label: t(page.MsgSortCost)}}},
		),
		tableUI(page.FitTable(s.Lang, &s.V)),
	)
}

// offersSection is the selected GPU's offers, with "Show all" when the
// table shows only the first ones.
type offersSection struct {
	app.Compo
	V    page.OffersView
	Lang string
}

// actionAllOffers asks the page to list every offer.
const actionAllOffers = "rs/all-offers"

func (s *offersSection) Render() app.UI {
	if s.V.Title == "" {
		return app.Text("")
	}
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	return app.Section().Class("rs-offers").Body(
		app.H2().Text(s.V.Title),
		app.P().Class("rs-sub").Text(t(page.MsgPricesNote)),
		app.If(len(s.V.Rows) == 0, func() app.UI {
			return app.P().Class("rs-sub").Text(t(page.MsgNoOffers))
		}).Else(func() app.UI {
			return tableUI(page.OfferTable(s.Lang, &s.V))
		}),
		app.If(s.V.More > 0, func() app.UI {
			return app.Button().Class("rs-more").ID("rs-more-offers").OnClick(s.onShowAll).
				Text(t(page.MsgShowAll) + " (+" + strconv.Itoa(s.V.More) + ")")
		}),
	)
}

func (s *offersSection) onShowAll(ctx app.Context, e app.Event) { ctx.NewAction(actionAllOffers) }
