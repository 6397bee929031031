package app

// The page's sections below the answer, each a leaf component fed one
// section of page.View: an input re-renders only the sections whose
// values changed, and a section renders what page.BuildView decided and
// page laid out (page.ResultNode, page.FitNode…).

import (
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
	return nodeUI(page.ResultNode(s.Lang, &s.V, s.OK, s.Errors), hooks{ui: map[string]app.UI{
		"breakdown": &breakdownBox{B: s.V.Breakdown},
		// The facts' folds are in the basis's own words (no language).
		"facts": &factsBox{Facts: s.V.Facts},
	}})
}

// breakdownBox is the memory breakdown (page.BreakdownNode) as a leaf:
// go-app skips it while the breakdown did not change.
type breakdownBox struct {
	app.Compo
	B page.Breakdown
}

func (b *breakdownBox) Render() app.UI { return nodeUI(page.BreakdownNode(&b.B), hooks{}) }

// factsBox is a list of facts (page.FactsNode) as a leaf, each fact a
// leaf of its own (factBox): the batch size moves four of the speed
// summary's six facts and one of the breakdown's six.
type factsBox struct {
	app.Compo
	Lang  string
	Facts []page.Fact
}

func (b *factsBox) Render() app.UI {
	facts := make(map[string]app.UI, len(b.Facts))
	for i := range b.Facts {
		facts[page.FactSlot(i)] = &factBox{Lang: b.Lang, F: b.Facts[i]}
	}
	return nodeUI(page.FactSlotsNode(len(b.Facts)), hooks{ui: facts})
}

// factBox is one fact (page.FactNode) as a leaf.
type factBox struct {
	app.Compo
	Lang string
	F    page.Fact
}

func (b *factBox) Render() app.UI { return nodeUI(page.FactNode(b.Lang, b.F), hooks{}) }

// perfSection is the speed-and-cost summary under the breakdown.
type perfSection struct {
	app.Compo
	V    page.PerfView
	Lang string
}

func (s *perfSection) Render() app.UI {
	return nodeUI(page.PerfNode(s.Lang, &s.V), hooks{ui: map[string]app.UI{"facts": &factsBox{Lang: s.Lang, Facts: s.V.Facts}}})
}

// rulesSection compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU.
type rulesSection struct {
	app.Compo
	V    page.RulesView
	Lang string
}

func (s *rulesSection) Render() app.UI {
	return nodeUI(page.RulesNode(s.Lang, &s.V), hooks{ui: map[string]app.UI{"table": tableUI(page.RulesTable(s.Lang, &s.V))}})
}

// fitSection is every GPU with the job's verdict on it, and the sort,
// with "Show all" when the table shows only its first rows.
type fitSection struct {
	app.Compo
	V    page.FitView
	Lang string
}

func (s *fitSection) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	return nodeUI(page.FitNode(s.Lang, &s.V), hooks{on: map[string]app.EventHandler{"all": s.onShowAll}, ui: map[string]app.UI{
		"sort": &selectBox{F: int(page.FieldSort), Label: t(page.MsgSortBy), Cur: s.V.Sort, Err: s.V.SortErr,
			Opts: []page.Option{{Value: page.SortVRAM.String(), Label: t(page.MsgSortVRAM)}, {Value: page.SortCost.String(), Label: t(page.MsgSortCost)}}},
		"table": tableUI(page.FitTable(s.Lang, &s.V)),
	}})
}

func (s *fitSection) onShowAll(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionShowAll, page.SecFit)
}

// offersSection is the selected GPU's offers, with "Show all" when the
// table shows only the first ones.
type offersSection struct {
	app.Compo
	V    page.OffersView
	Lang string
}

// actionShowAll asks the page to list every row of a section's table
// (its value: the page.Section).
const actionShowAll = "rs/show-all"

func (s *offersSection) Render() app.UI {
	return nodeUI(page.OffersNode(s.Lang, &s.V), hooks{on: map[string]app.EventHandler{"all": s.onShowAll},
		ui: map[string]app.UI{"table": tableUI(page.OfferTable(s.Lang, &s.V))}})
}

func (s *offersSection) onShowAll(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionShowAll, page.SecOffers)
}
