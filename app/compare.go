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

// onCompare adds an offer to the comparison or removes it; a full
// comparison is left as it is and says so.
func (c *Calculator) onCompare(ctx app.Context, a app.Action) {
	id, ok := a.Value.(string)
	if !ok {
		return
	}
	out, ok := page.ToggleCompare(c.cmp.ids, id)
	c.cmp.ids, c.cmp.full = out, !ok
	if c.d.Job.Model.ID == "" {
		c.recompute(ctx) // the default view's first screen computed nothing yet
	} else {
		c.start.drop(c.plainView(), c.ps.Out.OK)
	}
	c.share.sync(ctx, c.link().Encode(page.DefaultState))
}

// plansTable shows the comparison: one column per plan, its figures in
// rows, each with a button that removes it. Each cell carries its row's
// name in data-label: on a phone each plan is a card of its own, the
// cells under their names, as the fit and offers tables do
// (web/rightsize.css).
type plansTable struct {
	app.Compo
	V *page.PlansView
}

func (p *plansTable) Render() app.UI {
	return nodeUI(page.PlansNode(p.V), hooks{ui: map[string]app.UI{"table": tableUI(page.PlansTable(p.V))}})
}

// compareButton is a "+ Compare" button with its label (page.CompareLabel)
// for offer id in state (page.CompareState); the table's click handler
// reads its data-cmp.
func compareButton(label, id string, state int) app.UI {
	if id == "" {
		return app.Text("")
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
