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
	V      *page.ResultView
	OK     bool
	Lang   string
	Errors []string
}

func (s *resultSection) Render() app.UI {
	ui := factLeaves("", s.V.Facts) // the facts' folds are in the basis's own words (no language)
	ui["breakdown"] = &leaf[page.Breakdown]{V: &s.V.Breakdown, node: func(_ string, b *page.Breakdown) page.Node { return page.BreakdownNode(b) }}
	return nodeUI(page.ResultNode(s.Lang, s.V, s.OK, s.Errors), hooks{ui: ui})
}

// leaf is a piece a section lays out (page.BreakdownNode, page.FactNode)
// as a leaf of its own: go-app skips it while its value did not change.
// A batch change moves one of the breakdown's facts and four of the
// speed summary's six, and re-rendered both sections whole.
type leaf[T any] struct {
	app.Compo
	Lang string
	V    *T
	node func(lang string, v *T) page.Node
}

func (l *leaf[T]) Render() app.UI { return nodeUI(l.node(l.Lang, l.V), hooks{}) }

// factLeaves fill page.FactSlotsNode's slots, each fact a leaf.
func factLeaves(lang string, facts []page.Fact) map[string]app.UI {
	ui := make(map[string]app.UI, len(facts)+1)
	for i := range facts {
		ui[page.FactSlot(i)] = &leaf[page.Fact]{Lang: lang, V: &facts[i], node: page.FactNode}
	}
	return ui
}

// perfSection is the speed-and-cost summary under the breakdown.
type perfSection struct {
	app.Compo
	V    *page.PerfView
	Lang string
}

func (s *perfSection) Render() app.UI {
	return nodeUI(page.PerfNode(s.Lang, s.V), hooks{ui: factLeaves(s.Lang, s.V.Facts)})
}

// rulesSection compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU.
type rulesSection struct {
	app.Compo
	V    *page.RulesView
	Lang string
}

func (s *rulesSection) Render() app.UI {
	return nodeUI(page.RulesNode(s.Lang, s.V), hooks{ui: map[string]app.UI{"table": tableUI(page.RulesTable(s.Lang, s.V))}})
}

// fitSection is every GPU with the job's verdict on it, and the sort,
// with "Show all" when the table shows only its first rows.
type fitSection struct {
	app.Compo
	V    *page.FitView
	Lang string
}

func (s *fitSection) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(s.Lang, k) }
	return nodeUI(page.FitNode(s.Lang, s.V), hooks{on: map[string]app.EventHandler{"all": s.onShowAll}, ui: map[string]app.UI{
		"sort": &selectBox{V: &page.FieldView{F: page.FieldSort, Kind: page.KindSelect, Label: t(page.MsgSortBy), Value: s.V.Sort, Err: s.V.SortErr,
			Opts: []page.Option{{Value: page.SortVRAM.String(), Label: t(page.MsgSortVRAM)}, {Value: page.SortCost.String(), Label: t(page.MsgSortCost)}}}},
		"table": tableUI(page.FitTable(s.Lang, s.V)),
	}})
}

func (s *fitSection) onShowAll(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionShowAll, page.SecFit)
}

// offersSection is the selected GPU's offers, with "Show all" when the
// table shows only the first ones.
type offersSection struct {
	app.Compo
	V    *page.OffersView
	Lang string
}

// actionShowAll asks the page to list every row of a section's table
// (its value: the page.Section).
const actionShowAll = "rs/show-all"

func (s *offersSection) Render() app.UI {
	return nodeUI(page.OffersNode(s.Lang, s.V), hooks{on: map[string]app.EventHandler{"all": s.onShowAll},
		ui: map[string]app.UI{"table": tableUI(page.OfferTable(s.Lang, s.V))}})
}

func (s *offersSection) onShowAll(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionShowAll, page.SecOffers)
}
