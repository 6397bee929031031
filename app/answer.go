package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// The answer first: what to rent (cheapest, fastest, best value), why, and
// the cost-vs-time chart of every offer that can run the job.

// answerUI is the answer of view v under the job line (edit: its part
// open for editing; compared: the comparison's offers; embed: the embed
// page, whose chart offers no "+ Compare"): the picks,
// the chart and the plan's notes, or why there are none.
func answerUI(view *page.View, edit page.Field, compared []string, embed bool) app.UI {
	v, ch := &view.Answer, &view.Answer.Chart
	return nodeUI(page.AnswerNode(view), hooks{ui: map[string]app.UI{
		"job":   &jobLine{V: view.Job, Edit: edit},
		"picks": &recommendation{Picks: v.Picks, Lang: view.Lang, CostLabel: v.CostLabel, TimeLabel: v.TimeLabel},
		"chart": &pareto{Points: ch.Points, Title: ch.Title, XLabel: ch.XLabel, YLabel: ch.YLabel, Hint: ch.Hint,
			Lang: view.Lang, Compared: compared, NoCompare: embed},
	}})
}

type recommendation struct {
	app.Compo
	Picks                []page.PickView
	Lang                 string
	CostLabel, TimeLabel string
}

func (r *recommendation) Render() app.UI {
	return app.Div().ID("rs-recommendation").Class("rs-picks").Body(app.Range(r.Picks).Slice(func(i int) app.UI {
		return &pickCard{P: r.Picks[i], Lang: r.Lang, CostLabel: r.CostLabel, TimeLabel: r.TimeLabel}
	}))
}

// pickCard is one recommendation; "Use this" applies it.
type pickCard struct {
	app.Compo
	P                    page.PickView
	Lang                 string
	CostLabel, TimeLabel string
}

func (p *pickCard) onUse(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionApply, applyPlan{GPU: p.P.GPU, Plan: p.P.Plan})
}

func (p *pickCard) Render() app.UI {
	return nodeUI(page.PickNode(p.Lang, &p.P, p.CostLabel, p.TimeLabel), hooks{on: map[string]app.EventHandler{"use": p.onUse}})
}

type pareto struct {
	app.Compo
	Points                      []page.Point
	Title, XLabel, YLabel, Hint string
	Lang                        string
	Compared                    []string // the comparison's offers
	// NoCompare leaves out the "+ Compare" of the point shown: the embed
	// page shows no comparison (see Calculator.Render).
	NoCompare bool
	shown     int // index+1 of the point last hovered or tapped
}

func (p *pareto) Render() app.UI {
	v := page.ChartView{Points: p.Points, Title: p.Title, XLabel: p.XLabel, YLabel: p.YLabel, Hint: p.Hint}
	return nodeUI(page.ChartNode(p.Lang, &v, p.shown, p.Compared, p.NoCompare), hooks{on: map[string]app.EventHandler{
		"show": p.onShow, "pick": p.onPick, "key": p.onKey, "cmp": p.onCompare, "cmpkey": p.onCompareKey}})
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
		p.shown = i + 1
	}
}

func (p *pareto) onPick(ctx app.Context, e app.Event) {
	if i, ok := p.point(e); ok {
		p.shown = i + 1
		ctx.NewActionWithValue(actionApply, applyPlan{GPU: p.Points[i].GPU, Plan: p.Points[i].Plan})
	}
}

// onKey: Enter or Space on a point applies its plan. Tab walks the
// points in order with the "+ Compare" of each between it and the next
// (the button sits under the chart, after every point in the page):
// Tab on point i shows it and moves to its button; Shift+Tab on point
// i shows point i-1 and moves to that one's button (onCompareKey
// takes it on from there). Shift+Tab on the first point leaves the chart.
func (p *pareto) onKey(ctx app.Context, e app.Event) {
	k := e.Get("key").String()
	switch {
	case k == "Enter" || k == " ":
		e.PreventDefault()
		p.onPick(ctx, e)
	case k == "Tab" && !p.NoCompare:
		i, ok := p.point(e)
		if e.Get("shiftKey").Bool() {
			i--
		}
		if !ok || i < 0 {
			return
		}
		e.PreventDefault()
		p.shown = i + 1
		ctx.Defer(func(app.Context) { focusFirst("#rs-pareto-cmp button") })
	}
}

// onCompareKey: Tab on the point's "+ Compare" moves to the next point,
// Shift+Tab back to its own point; Tab on the last point's leaves the
// chart.
func (p *pareto) onCompareKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Tab" || p.shown == 0 {
		return
	}
	i := p.shown // the next point's index
	if e.Get("shiftKey").Bool() {
		i--
	}
	if i < len(p.Points) && focusFirst(`#rs-pareto circle[data-i="`+strconv.Itoa(i)+`"]`) {
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

// orNBSP is s, or a no-break space that keeps an empty line's height.
func orNBSP(s string) string {
	if s == "" {
		return "\u00a0"
	}
	return s
}
