package app

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	planner "rightsize/estimator/plan"
)

// The answer first: what to rent (cheapest, fastest, best value), why, and
// the cost-vs-time chart of every offer that can run the job.

// pickView is one recommendation, formatted.
type pickView struct {
	Kind, Title, What, Where, Cost, Time, Reason string
	Notes                                        string // the row's own planner notes (VAT, spot spare), joined
	GPU                                          string
	Plan                                         page.Plan
	Price                                        priceLabels // the price's date, source, age and warnings
}

var pickTitles = [...]page.MsgKey{page.PickCheapest: page.MsgPickCheapest, page.PickFastest: page.MsgPickFastest, page.PickValue: page.MsgPickValue}

func (c *Calculator) pickViews() []pickView {
	l := c.loc()
	out := make([]pickView, len(c.ps.out.Picks))
	for i, p := range c.ps.out.Picks {
		out[i] = pickView{
			Kind: p.Kind.String(), Title: c.t(pickTitles[p.Kind]),
			What: strconv.Itoa(p.Plan.GPUs) + " × " + c.gpuName(p.Offer.GPU) + planSuffix(p.Plan),
			Where: c.providerName(p.Offer.Provider) + kindText(l, p.Offer) + " · " + p.Offer.InstanceType + instances(p.Instances) +
				" · " + c.t(pricingKeys[p.Pricing]) + c.engineText(p.Candidate),
			Cost:   l.Money(p.Cost, c.ps.out.Currency),
			Time:   l.Duration(p.Seconds),
			Reason: l.ReasonWith(p.Why, c.providerName),
			GPU:    p.Offer.GPU, Plan: p.Plan,
			Price: c.priceLabelsOf(p.Offer, p.Stale),
		}
		for _, n := range p.Notes {
			if out[i].Notes != "" {
				out[i].Notes += " · "
			}
			out[i].Notes += l.ReasonWith(n, c.providerName)
		}
	}
	return out
}

// kindText is " (GPU cloud)" after a provider's name, " (your price)" on
// the user's own price.
func kindText(l page.Locale, o *planner.Offer) string {
	if o.UserPrice {
		return " (" + l.T(page.MsgOwnPriceMark) + ")"
	}
	if k := l.KindLabel(o.ProviderKind); k != "" {
		return " (" + k + ")"
	}
	return ""
}

func instances(n int) string {
	if n > 1 {
		return " ×" + strconv.Itoa(n)
	}
	return ""
}

func planSuffix(p page.Plan) string {
	if s := splitText(p); s != "" {
		return " (" + s + ")"
	}
	return ""
}

func (c *Calculator) providerName(id string) string {
	if p, ok := c.pr.Cat.Provider(id); ok && p.Name != "" {
		return p.Name
	}
	return id
}

func (c *Calculator) gpuName(id string) string {
	if g, ok := c.pr.Cat.GPU(id); ok {
		return g.Name
	}
	return id
}

func (c *Calculator) renderAnswer() app.UI {
	if !c.r.OK {
		if !c.ps.out.OK || len(c.ps.out.Picks) == 0 {
			// No answer to keep: the job line stays, so a part edited
			// there keeps its box and its message until it reads.
			return app.Section().Class("rs-answer rs-stale").Body(
				app.H2().Text(c.t(page.MsgAnswerTitle)),
				c.renderJobLine(),
				app.P().Class("rs-sub").ID("rs-answer-stale").Text(c.t(page.MsgFixToUpdate)),
			)
		}
		// A field is invalid: the last answer stays, greyed, so the page
		// does not lose (and later regain) the answer's height above the
		// inputs while the user fixes it.
		return c.answerPicks("rs-answer rs-stale", app.P().Class("rs-sub").ID("rs-answer-stale").Text(c.t(page.MsgFixToUpdate)))
	}
	if !c.ps.out.OK && c.ps.pending() {
		return app.Section().Class("rs-answer").Body(
			app.H2().Text(c.t(page.MsgAnswerTitle)),
			c.renderJobLine(),
			app.P().Class("rs-sub").ID("rs-planning").Text(c.t(page.MsgPlanning)),
		)
	}
	if len(c.ps.out.Picks) == 0 {
		return app.Section().Class("rs-answer").Body(
			app.H2().Text(c.t(page.MsgAnswerTitle)),
			c.renderJobLine(),
			app.P().Class("rs-sub").ID("rs-no-answer").Text(c.t(c.ps.out.NoneWhy)),
			app.If(c.ps.out.WidenedDrop != "", func() app.UI {
				return app.P().Class("rs-sub").ID("rs-widened").Text(c.ps.out.WidenedLine(c.loc(), page.Names{GPU: c.gpuName, Provider: c.providerName}))
			}),
		)
	}
	return c.answerPicks("rs-answer", app.P().Class("rs-sub").Text(c.t(page.MsgAnswerNote)))
}

// answerPicks is the answer with the plan's picks and chart under note.
func (c *Calculator) answerPicks(class string, note app.UI) app.UI {
	return app.Section().Class(class).Body(
		app.H2().Text(c.t(page.MsgAnswerTitle)),
		c.renderJobLine(),
		note,
		c.fxLine(),
		app.If(c.state[page.FieldProviderKind] == "", func() app.UI {
			return app.P().Class("rs-sub").ID("rs-kinds").Text(c.t(page.MsgKindsNote))
		}),
		&recommendation{Picks: c.pickViews(), Lang: c.lang(), CostLabel: c.planCostHeader(), TimeLabel: c.planTimeHeader()},
		c.flaggedLine(),
		c.planNotes(),
		c.paretoChart(),
	)
}

// flaggedLine names the cheaper plan the picks passed over for its price.
func (c *Calculator) flaggedLine() app.UI {
	line := c.ps.out.FlaggedLine(c.loc(), c.providerName)
	if line == "" {
		return app.Text("")
	}
	return app.P().ID("rs-flagged").Class("rs-warn").Text(line)
}

// planNotes lists what the planner assumed for the whole plan (a network
// speed, a spot reclaim rate, the serving engine, a reservation's terms),
// next to the picks they qualify.
func (c *Calculator) planNotes() app.UI {
	if len(c.ps.out.Notes) == 0 {
		return app.Text("")
	}
	l := c.loc()
	notes := make([]string, len(c.ps.out.Notes))
	for i, n := range c.ps.out.Notes {
		notes[i] = l.ReasonWith(n, c.providerName)
	}
	return app.Div().ID("rs-plan-notes").Class("rs-notes").Body(
		app.P().Class("rs-sub").Text(c.t(page.MsgPlanNotes)+":"),
		app.Ul().Body(app.Range(notes).Slice(func(i int) app.UI { return app.Li().Text(notes[i]) })),
	)
}

// engineText is " · vLLM" for an inference plan, "" for training.
func (c *Calculator) engineText(x page.Candidate) string {
	if c.ps.out.Kind == planner.Training {
		return ""
	}
	return " · " + engineLabels[x.Engine]
}

type recommendation struct {
	app.Compo
	Picks                []pickView
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
	P                    pickView
	Lang                 string
	CostLabel, TimeLabel string
}

func (p *pickCard) onUse(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionApply, applyPlan{GPU: p.P.GPU, Plan: p.P.Plan})
}

func (p *pickCard) Render() app.UI {
	x := p.P
	return app.Article().Class("rs-pick").Attr("data-kind", x.Kind).Attr("data-gpu", x.GPU).Attr("data-gpus", strconv.Itoa(x.Plan.GPUs)).Body(
		app.H3().Text(x.Title),
		app.P().Class("rs-pick-what").Text(x.What),
		app.P().Class("rs-where").Text(x.Where),
		// The date, its age grade and the source each on a line of their
		// own: the prerendered card has no clock to grade the age with,
		// and its line stays (empty) so the live card, which says it, is
		// as tall and nothing below the answer moves when it arrives.
		app.P().Class("rs-where rs-pick-price").Body(
			app.Span().Class(x.Price.Class).Text(x.Price.Date),
			app.Br(),
			app.Span().Class(x.Price.Class+" rs-pick-age").Text(orNBSP(x.Price.Age)),
			app.If(x.Price.Source != "", func() app.UI { return app.Span().Class("rs-src").Body(app.Br(), app.Text(x.Price.Source)) }),
		),
		app.If(x.Price.Verify != "", func() app.UI { return app.P().Class("rs-warn rs-pick-verify").Text(x.Price.Verify) }),
		app.If(x.Price.FarBelow != "", func() app.UI { return app.P().Class("rs-warn rs-pick-far").Text(x.Price.FarBelow) }),
		app.If(x.Price.From != "", func() app.UI { return app.P().Class("rs-where rs-pick-from").Text(x.Price.From) }),
		app.Dl().Class("rs-facts").Body(
			app.Div().Class("rs-fact").Body(app.Dt().Text(p.CostLabel), app.Dd().Class("rs-pick-cost").Text(x.Cost)),
			app.Div().Class("rs-fact").Body(app.Dt().Text(p.TimeLabel), app.Dd().Class("rs-pick-time").Text(x.Time)),
		),
		app.P().Class("rs-reason").Text(x.Reason),
		app.If(x.Notes != "", func() app.UI { return app.P().Class("rs-where rs-pick-notes").Text(x.Notes) }),
		app.Button().Class("rs-more").OnClick(p.onUse).Text(page.Tr(p.Lang, page.MsgUseThis)),
	)
}

// pointView is one offer on the chart, in chart coordinates.
type pointView struct {
	ID, GPU, Label string
	X, Y           int
	Front, Picked  bool
	Plan           page.Plan
}

// chart geometry (SVG user units).
const (
	chartW, chartH       = 900, 280
	chartLeft, chartBot  = 16, 12
	chartTop, chartRight = 12, 12
)

// paretoChart places the candidates on log axes: cost (x) and time (y).
func (c *Calculator) paretoChart() app.UI {
	pts := c.ps.out.Points
	if len(pts) == 0 {
		return app.Text("")
	}
	l := c.loc()
	minC, maxC, minT, maxT := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, p := range pts {
		minC, maxC = math.Min(minC, p.Cost), math.Max(maxC, p.Cost)
		minT, maxT = math.Min(minT, p.Seconds), math.Max(maxT, p.Seconds)
	}
	scale := func(v, lo, hi float64, size int) int {
		if hi <= lo {
			return size / 2
		}
		return int(math.Round((math.Log(v) - math.Log(lo)) / (math.Log(hi) - math.Log(lo)) * float64(size)))
	}
	w, h := chartW-chartLeft-chartRight, chartH-chartTop-chartBot
	picked := map[string]bool{}
	for _, p := range c.ps.out.Picks {
		picked[p.Offer.ID] = true
	}
	views := make([]pointView, len(pts))
	for i, p := range pts {
		views[i] = pointView{
			ID: p.Offer.ID, GPU: p.Offer.GPU, Plan: p.Plan, Front: p.Front, Picked: picked[p.Offer.ID],
			X:     chartLeft + scale(p.Cost, minC, maxC, w),
			Y:     chartTop + h - scale(p.Seconds, minT, maxT, h),
			Label: strconv.Itoa(p.Plan.GPUs) + " × " + c.gpuName(p.Offer.GPU) + " · " + c.providerName(p.Offer.Provider) + " " + p.Offer.InstanceType + instances(p.Instances) + " · " + l.Money(p.Cost, c.ps.out.Currency) + " · " + l.Duration(p.Seconds),
		}
	}
	return &pareto{
		Points: views, Title: c.t(page.MsgParetoTitle),
		XLabel: c.planCostHeader() + " (" + l.Money(minC, c.ps.out.Currency) + " … " + l.Money(maxC, c.ps.out.Currency) + ")",
		YLabel: c.planTimeHeader() + " (" + l.Duration(minT) + " … " + l.Duration(maxT) + ")",
		Hint:   c.t(page.MsgParetoHint),
		Lang:   c.lang(), Compared: c.cmp, NoCompare: c.embed,
	}
}

type pareto struct {
	app.Compo
	Points                      []pointView
	Title, XLabel, YLabel, Hint string
	Lang                        string
	Compared                    []string // the comparison's offers
	// NoCompare leaves out the "+ Compare" of the point shown: the embed
	// page shows no comparison (see Calculator.Render).
	NoCompare bool
	shown     int // index+1 of the point last hovered or tapped
}

func (p *pareto) Render() app.UI {
	body := []app.UI{
		svg("title").Text(p.Title),
		svg("line").Class("rs-axis").Attr("x1", chartLeft).Attr("y1", chartH-chartBot).Attr("x2", chartW-chartRight).Attr("y2", chartH-chartBot),
		svg("line").Class("rs-axis").Attr("x1", chartLeft).Attr("y1", chartTop).Attr("x2", chartLeft).Attr("y2", chartH-chartBot),
	}
	// The front as a step line, cheapest to fastest.
	var front string
	for _, pt := range p.Points {
		if pt.Front {
			if front != "" {
				front += " "
			}
			front += strconv.Itoa(pt.X) + "," + strconv.Itoa(pt.Y)
		}
	}
	if front != "" {
		body = append(body, svg("polyline").Class("rs-front").Attr("points", front))
	}
	for i, pt := range p.Points {
		cls := "rs-pt"
		if pt.Front {
			cls += " rs-pt-front"
		}
		if pt.Picked {
			cls += " rs-pt-picked"
		}
		// No handler per point: the chart listens once (event delegation).
		body = append(body, svg("circle").Class(cls).Attr("cx", pt.X).Attr("cy", pt.Y).Attr("r", 5).
			Attr("data-i", strconv.Itoa(i)).Attr("tabindex", 0).Attr("role", "button").Attr("aria-label", pt.Label))
	}
	info, cmp := p.Hint, app.UI(app.Text(""))
	if p.shown > 0 && p.shown <= len(p.Points) {
		pt := p.Points[p.shown-1]
		info = pt.Label
	}
	if p.shown > 0 && p.shown <= len(p.Points) && !p.NoCompare {
		pt := p.Points[p.shown-1]
		// The point shown can join the comparison.
		state := 0
		if len(p.Compared) >= page.MaxCompare {
			state = 2
		}
		for _, id := range p.Compared {
			if id == pt.ID {
				state = 1
			}
		}
		cmp = app.Span().ID("rs-pareto-cmp").OnClick(p.onCompare).OnKeyDown(p.onCompareKey).Body(compareButton(p.Lang, pt.ID, state))
	}
	// The axis names are HTML text around the chart, not SVG text: the SVG
	// scales with the page's width (to about 0.37 of its size on a 360 px
	// phone), which shrank Chinese labels below legibility; HTML text keeps
	// the page's font size on every screen.
	return app.Figure().Class("rs-pareto").Body(
		app.Div().Class("rs-axis-label rs-axis-y").Attr("aria-hidden", true).Text("↑ "+p.YLabel),
		svg("svg").ID("rs-pareto").Attr("viewBox", "0 0 "+strconv.Itoa(chartW)+" "+strconv.Itoa(chartH)).
			Attr("role", "group").Attr("aria-label", p.Title).
			On("mouseover", p.onShow).On("focusin", p.onShow).OnClick(p.onPick).OnKeyDown(p.onKey).Body(body...),
		app.Div().Class("rs-axis-label rs-axis-x").Attr("aria-hidden", true).Text(p.XLabel+" →"),
		app.FigCaption().Body(app.Span().ID("rs-pareto-info").Attr("aria-live", "polite").Text(info), app.Text(" "), cmp),
	)
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

// planCostHeader and planTimeHeader name the planner's cost and time.
func (c *Calculator) planCostHeader() string {
	switch c.ps.out.Kind {
	case planner.Serving:
		return c.t(page.MsgMonthlyShort)
	case planner.Batch:
		return c.t(page.MsgBatchCost)
	}
	return c.t(page.MsgJobCost)
}

func (c *Calculator) planTimeHeader() string {
	switch c.ps.out.Kind {
	case planner.Serving:
		return c.t(page.MsgE2EP95)
	case planner.Batch:
		return c.t(page.MsgBatchTime)
	}
	return c.t(page.MsgJobTime)
}

// pinButton keeps the current configuration for a side-by-side comparison.
func (c *Calculator) pinButton() app.UI {
	label := c.t(page.MsgPin)
	if c.pin != nil {
		label = c.t(page.MsgUnpin)
	}
	return app.Button().Class("rs-more").ID("rs-pin").Attr("aria-pressed", c.pin != nil).OnClick(c.onPin).Text(label)
}

// compareRow is one line of the comparison.
type compareRow struct{ Label, Pinned, Live string }

// renderCompare shows the pinned and the live configuration side by side.
func (c *Calculator) renderCompare() app.UI {
	if c.pin == nil {
		return app.Text("")
	}
	rows := []compareRow{}
	add := func(k page.MsgKey, a, b string) { rows = append(rows, compareRow{c.t(k), a, b}) }
	pj, lj := c.pinJob, c.job
	pr, lr := c.pinned, c.r
	l := c.loc()
	add(page.MsgModel, pj.Model.Name, c.modelName())
	add(page.MsgTask, pj.In.Task.String(), lj.In.Task.String())
	add(page.MsgPrecision, pj.In.Weights.String(), lj.In.Weights.String())
	add(page.MsgGPU, strconv.Itoa(pj.In.GPUs)+" × "+pj.GPU.Name+planSuffix(page.PlanOf(pj.In)), strconv.Itoa(lj.In.GPUs)+" × "+lj.GPU.Name+planSuffix(page.PlanOf(lj.In)))
	mem := func(r page.Results) string {
		if !r.OK {
			return "—"
		}
		return l.Bytes(r.Res.Peak)
	}
	verdict := func(r page.Results) string {
		switch {
		case !r.OK:
			return "—"
		case r.Res.Fits:
			return c.t(page.MsgFits)
		}
		return c.t(page.MsgDoesNotFit)
	}
	speed := func(r page.Results) string {
		if !r.Perf.OK {
			return "—"
		}
		return l.Rate(r.Perf.P.TokensPerSecond)
	}
	// The costs are the planner's: its cheapest plan on each side's GPU.
	cost := func(j page.Job, o *page.PlanOut) string {
		x, ok := o.Best(j.GPU.ID)
		if !ok || c.ps.pending() {
			return "—"
		}
		unit := page.MsgJobCost
		switch o.Kind {
		case planner.Serving:
			unit = page.MsgMonthlyShort
		case planner.Batch:
			unit = page.MsgBatchCost
		}
		return l.Money(x.Cost, o.Currency) + " (" + c.t(unit) + ")"
	}
	perM := func(j page.Job, o *page.PlanOut) string {
		x, ok := o.Best(j.GPU.ID)
		if !ok || c.ps.pending() {
			return "—"
		}
		return o.Cells(l, j, x).PerM
	}
	add(page.MsgMemory, mem(pr), mem(lr))
	add(page.MsgVerdict, verdict(pr), verdict(lr))
	add(page.MsgTokensPerSec, speed(pr), speed(lr))
	add(page.MsgCheapestCost, cost(pj, &c.ps.pin), cost(lj, &c.ps.out))
	add(page.MsgPerMTokens, perM(pj, &c.ps.pin), perM(lj, &c.ps.out))
	return app.Section().Class("rs-compare-box").Body(
		app.H2().Text(c.t(page.MsgCompareTitle)),
		app.Div().Class("rs-scroll").Body(app.Table().ID("rs-compare").Body(
			app.THead().Body(app.Tr().Body(app.Th(), app.Th().Text(c.t(page.MsgPinned)), app.Th().Text(c.t(page.MsgLive)))),
			app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
				return app.Tr().Body(app.Th().Attr("scope", "row").Text(rows[i].Label), app.Td().Text(rows[i].Pinned), app.Td().Text(rows[i].Live))
			})),
		)),
	)
}

// fxLine says the dated rate the answer's prices were converted at, when
// they are not in USD.
func (c *Calculator) fxLine() app.UI {
	if s := page.FXLine(c.loc(), c.pr.Cat, c.ps.out.Currency); s != "" {
		return app.P().Class("rs-sub").ID("rs-fx-line").Text(s)
	}
	return app.Text("")
}

// orNBSP is s, or a no-break space that keeps an empty line's height.
func orNBSP(s string) string {
	if s == "" {
		return "\u00a0"
	}
	return s
}
