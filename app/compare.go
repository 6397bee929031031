package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// The comparison: rows of the fit and offers tables and points of the
// chart, added with their "+ Compare" buttons, side by side (up to
// page.MaxCompare), in the link as page.CompareKey. Each column's figures
// are page.PlanOut.Cells of the planner's row on its offer, the cells
// the tables print for that row.

// actionCompare is the action a table row or the chart sends to add an
// offer to the comparison, or remove it: its value is the offer ID.
const actionCompare = "rs/compare"

func (c *Calculator) onCompareAction(ctx app.Context, a app.Action) {
	if id, ok := a.Value.(string); ok {
		c.toggleCompare(ctx, id)
	}
}

// onCompareClick is the comparison's own remove buttons (data-cmp).
func (c *Calculator) onCompareClick(ctx app.Context, e app.Event) {
	c.toggleCompare(ctx, ctx.JSSrc().Get("dataset").Get("cmp").String())
}

// toggleCompare adds offer id to the comparison or removes it; a full
// comparison is left as it is and says so.
func (c *Calculator) toggleCompare(ctx app.Context, id string) {
	out, ok := page.ToggleCompare(c.cmp.ids, id)
	c.cmp.ids, c.cmp.full = out, !ok
	if c.d.Job.Model.ID == "" {
		c.recompute() // the default view's first screen computed nothing yet
	} else {
		c.dropStatic()
	}
	c.syncURL(ctx)
}

// compared reports whether offer id is in the comparison.
func (c *Calculator) compared(id string) bool {
	for _, x := range c.cmp.ids {
		if x == id {
			return true
		}
	}
	return false
}

// cmpState is how a row's "+ Compare" button reads: 0 add, 1 added
// (a click removes it), 2 the comparison is full.
// compareCol is one plan of the comparison, formatted.
type compareCol struct {
	ID, Title, Where string
	page.RowCells
	VRAM string
	OK   bool // the planner has a row on this offer for the job as set
}

// compareCols are the comparison's plans, in the order they were added.
func (c *Calculator) compareCols() []compareCol {
	cols := make([]compareCol, len(c.cmp.ids))
	for i, id := range c.cmp.ids {
		col := compareCol{ID: id, Title: id, RowCells: page.RowCells{Cost: "—", Time: "—", PerM: "—", AsOf: "—"}, VRAM: "—"}
		if x, ok := c.ps.out.Row(id); ok {
			col.OK = true
			col.Title = strconv.Itoa(x.Plan.GPUs) + " × " + c.pr.GPUName(x.Offer.GPU) + page.PlanSuffix(x.Plan)
			col.Where = c.pr.ProviderName(x.Offer.Provider) + " · " + x.Offer.InstanceType + page.Instances(x.Instances) +
				" · " + c.t(page.PricingKeys[x.Pricing]) + c.ps.out.EngineText(x)
			col.RowCells = c.ps.out.Cells(c.loc(), c.d.Job, x)
			col.VRAM = c.pr.GPUVRAM(c.loc(), x.Offer.GPU)
		} else if o, ok := c.pr.Cat.Offer(id); ok {
			col.Title = c.pr.GPUName(o.GPU)
			col.Where = c.pr.ProviderName(o.Provider) + " · " + o.InstanceType
			col.VRAM = c.pr.GPUVRAM(c.loc(), o.GPU)
		}
		cols[i] = col
	}
	return cols
}

// gpuVRAM is a GPU's memory as the fit table's VRAM column writes it.
// renderPlans shows the comparison: one column per plan, its figures in
// rows, each with a button that removes it. Each cell carries its row's
// name in data-label: on a phone each plan is a card of its own, the
// cells under their names, as the fit and offers tables do
// (web/rightsize.css).
func (c *Calculator) renderPlans() app.UI {
	cols := c.compareCols()
	labels := [...]string{c.ps.out.PlanCostHeader(c.loc()) + " · " + c.t(page.PricingKeys[c.d.Job.Pricing]), c.ps.out.PlanTimeHeader(c.loc()), c.t(page.MsgVRAM), c.t(page.MsgPerMTokens), c.t(page.MsgPriceDate)}
	classes := [...]string{"num rs-cmp-cost", "num rs-cmp-time", "num rs-cmp-vram", "num rs-cmp-perm", "num rs-cmp-asof"}
	head := make([]app.UI, 1, len(cols)+1)
	head[0] = app.Th()
	rows := make([][]app.UI, len(labels))
	for i, label := range labels {
		rows[i] = append(make([]app.UI, 0, len(cols)+1), app.Th().Attr("scope", "row").Text(label))
	}
	note := app.UI(app.Text(""))
	for _, col := range cols {
		head = append(head, app.Th().Attr("scope", "col").Attr("data-offer", col.ID).Body(
			app.Div().Class("rs-cmp-title").Text(col.Title),
			app.Div().Class("rs-where").Text(col.Where),
			app.Button().Class("rs-cmp-remove").Attr("data-cmp", col.ID).
				Attr("aria-label", c.t(page.MsgCompareRemove)+": "+col.Title+" "+col.Where).
				Title(c.t(page.MsgCompareRemove)).OnClick(c.onCompareClick).Text("✕"),
		))
		for i, v := range [...]string{col.Cost, col.Time, col.VRAM, col.PerM, col.AsOf} {
			rows[i] = append(rows[i], app.Td().Class(classes[i]).Attr("data-label", labels[i]).Text(v))
		}
		if !col.OK {
			note = app.P().Class("rs-sub").Text(c.t(page.MsgCompareNoPlan))
		}
	}
	body := make([]app.UI, len(rows))
	for i, r := range rows {
		body[i] = app.Tr().Body(r...)
	}
	full := app.UI(app.Text(""))
	if c.cmp.full {
		full = app.P().Class("rs-warn").ID("rs-plans-full").Attr("role", "status").
			Text(page.Fill(c.t(page.MsgCompareFull), strconv.Itoa(page.MaxCompare)))
	}
	return app.Section().Class("rs-compare-box").ID("rs-plans").Body(
		app.H2().Text(c.t(page.MsgComparePlans)),
		app.Div().Class("rs-scroll").Body(app.Table().ID("rs-plans-table").Body(
			app.THead().Body(app.Tr().Body(head...)),
			app.TBody().Body(body...),
		)),
		note, full,
	)
}

// compareButton is a row's "+ Compare" button (state: cmpState); the
// table's click handler reads its data-cmp.
func compareButton(lang, id string, state int) app.UI {
	if id == "" {
		return app.Text("")
	}
	label := page.Tr(lang, page.MsgCompareAdd)
	if state == 1 {
		label = page.Tr(lang, page.MsgCompared)
	}
	return app.Button().Class("rs-cmp-add").Attr("data-cmp", id).Attr("aria-pressed", strconv.FormatBool(state == 1)).
		Attr("aria-disabled", strconv.FormatBool(state == 2)).Text(label)
}

// onCompareButton handles a click on a row's "+ Compare" button; it
// reports whether the event was one (the row's own pick then does not run).
func onCompareButton(ctx app.Context, e app.Event) bool {
	b := e.Get("target").Call("closest", "[data-cmp]")
	if !b.Truthy() {
		return false
	}
	if e.Get("type").String() == "click" {
		ctx.NewActionWithValue(actionCompare, b.Get("dataset").Get("cmp").String())
	}
	return true
}
