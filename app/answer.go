package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// The answer first: what to rent (cheapest, fastest, best value), why, and
// the cost-vs-time chart of every offer that can run the job.

// answerUI is the answer of view v under the job line (edit: its part
// open for editing; compared: the comparison's offers; readOnly: the
// embed page, a view of the linked job that nothing on it changes: no
// editable job line, no "Use this", a chart that only shows its points):
// the picks, the chart and the plan's notes, or why there are none.
func answerUI(view *page.View, edit page.Field, compared []string, readOnly bool) app.UI {
	v, ch := &view.Answer, &view.Answer.Chart
	return nodeUI(page.AnswerNode(view), hooks{ui: map[string]app.UI{
		"job":   &jobLine{V: &view.Job, Edit: edit, ReadOnly: readOnly},
		"picks": &recommendation{Picks: v.Picks, Lang: view.Lang, CostLabel: v.CostLabel, TimeLabel: v.TimeLabel, ReadOnly: readOnly},
		"chart": &pareto{Points: ch.Points, Title: ch.Title, XLabel: ch.XLabel, YLabel: ch.YLabel,
			Lang: view.Lang, Compared: compared, ReadOnly: readOnly},
	}})
}

type recommendation struct {
	app.Compo
	Picks                []page.PickView
	Lang                 string
	CostLabel, TimeLabel string
	ReadOnly             bool
}

func (r *recommendation) Render() app.UI {
	return app.Div().ID("rs-recommendation").Class("rs-picks").Body(app.Range(r.Picks).Slice(func(i int) app.UI {
		return &pickCard{P: &r.Picks[i], Lang: r.Lang, CostLabel: r.CostLabel, TimeLabel: r.TimeLabel, ReadOnly: r.ReadOnly}
	}))
}

// pickCard is one recommendation; "Use this" applies it (none on a
// read-only page).
type pickCard struct {
	app.Compo
	P                    *page.PickView
	Lang                 string
	CostLabel, TimeLabel string
	ReadOnly             bool
}

func (p *pickCard) onUse(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionApply, applyPlan{GPU: p.P.GPU, Plan: p.P.Plan})
}

func (p *pickCard) Render() app.UI {
	return nodeUI(page.PickNode(p.Lang, p.P, p.CostLabel, p.TimeLabel, p.ReadOnly), hooks{on: map[string]app.EventHandler{"use": p.onUse}})
}

type pareto struct {
	app.Compo
	Points                []page.Point
	Title, XLabel, YLabel string
	Lang                  string
	Compared              []string // the comparison's offers
	// ReadOnly: the embed page's chart, which shows a point on a click or
	// tap and applies none, with no "+ Compare" (see Calculator.Render).
	ReadOnly bool
	cur      page.ChartCursor // the point shown, and a tap's first press
}

func (p *pareto) Render() app.UI {
	v := page.ChartView{Points: p.Points, Title: p.Title, XLabel: p.XLabel, YLabel: p.YLabel}
	return nodeUI(page.ChartNode(p.Lang, &v, p.cur.Shown, p.Compared, p.ReadOnly), hooks{on: map[string]app.EventHandler{
		"show": p.onShow, "down": p.onDown, "pick": p.onPick, "key": p.onKey, "cmp": p.onCompare, "cmpkey": p.onCompareKey}})
}

func (p *pareto) onDown(ctx app.Context, e app.Event) {
	p.cur.Down(e.Get("pointerType").String() == "touch")
}

// onCompare adds the point shown to the comparison (or removes it).
func (p *pareto) onCompare(ctx app.Context, e app.Event) { onCompareButton(ctx, e) }

// point is the chart point an event happened on.
func (p *pareto) point(e app.Event) (int, bool) {
	d := e.Get("target").Get("dataset")
	if !d.Truthy() {
		return 0, false
	}
	i, err := strconv.Atoi(d.Get("i").String())
	return i, err == nil && i >= 0 && i < len(p.Points)
}

func (p *pareto) onShow(ctx app.Context, e app.Event) {
	if i, ok := p.point(e); ok {
		p.cur.Shown = i + 1
	}
}

// onPick: a click uses the point's plan; a tap shows it first.
func (p *pareto) onPick(ctx app.Context, e app.Event) {
	if i, ok := p.point(e); ok && p.cur.Pick(i) {
		ctx.NewActionWithValue(actionApply, applyPlan{GPU: p.Points[i].GPU, Plan: p.Points[i].Plan})
	}
}

// onKey: Enter or Space on a point applies its plan; Tab moves to a
// point's "+ Compare" (page.ChartCursor.Tab).
func (p *pareto) onKey(ctx app.Context, e app.Event) {
	k := e.Get("key").String()
	i, ok := p.point(e)
	switch {
	case (k == "Enter" || k == " ") && ok:
		e.PreventDefault()
		p.cur.Down(false)
		p.onPick(ctx, e)
	case k == "Tab" && !p.ReadOnly && ok && p.cur.Tab(i, e.Get("shiftKey").Bool()):
		e.PreventDefault()
		ctx.Defer(func(app.Context) { focusFirst("#rs-pareto-cmp button") })
	}
}

// onCompareKey: Tab on the point's "+ Compare" moves to the next point,
// Shift+Tab back to its own (page.ChartCursor.CompareTab).
func (p *pareto) onCompareKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Tab" {
		return
	}
	if i, ok := p.cur.CompareTab(len(p.Points), e.Get("shiftKey").Bool()); ok && focusFirst(`#rs-pareto circle[data-i="`+strconv.Itoa(i)+`"]`) {
		e.PreventDefault()
	}
}

// focusFirst focuses the first element matching selector; it reports
// whether there was one.
func focusFirst(selector string) bool {
	el := app.Window().Get("document").Call("querySelector", selector)
	if !el.Truthy() {
		return false
	}
	el.Call("focus")
	return true
}

// pinUI is the pinned and the live configuration side by side.
func pinUI(v *page.PinView) app.UI {
	if len(v.Rows) == 0 {
		return app.Text("")
	}
	return app.Section().Class("rs-compare-box").Body(
		app.H2().Text(v.Title),
		tableUI(page.PinTable(v)),
	)
}

// actionPin keeps the current configuration for comparison, or drops the pin.
const actionPin = "rs/pin"

// pinButton keeps the current configuration for a side-by-side comparison.
type pinButton struct {
	app.Compo
	Label  string
	Pinned bool
}

func (b *pinButton) Render() app.UI {
	return app.Button().Class("rs-more").ID("rs-pin").Attr("aria-pressed", b.Pinned).OnClick(b.onClick).Text(b.Label)
}

func (b *pinButton) onClick(ctx app.Context, e app.Event) { ctx.NewAction(actionPin) }

// foldUI is a price's source (text) as one short word (summary) that
// opens on the full provenance (a repository path with its commit, a price
// list's address): the path, in English, is long and wraps over several
// lines on a phone.
func foldUI(summary, text string) app.UI {
	if text == "" {
		return app.Text("")
	}
	return app.Details().Class("rs-where rs-src rs-src-fold").Body(app.Summary().Text(summary), app.Text(text))
}
