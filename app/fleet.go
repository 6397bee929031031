package app

// The daily fleet: its inputs (a load curve, a workload preset, the
// owned-GPU prices; page.FieldCurve …) in their own box, and the answer
// (page.FleetTextOf, page.FleetChartOf) in the serving section.

import (
	"errors"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	planner "rightsize/estimator/plan"
)

// renderFleetInputs is the "Daily load" box, for inference.
func (c *Calculator) renderFleetInputs() app.UI {
	if !c.state.Shown(page.FieldCurve) {
		return app.Text("")
	}
	curve := app.Div().Class("rs-field rs-field-wide").Body(
		app.Label().For(fieldID(page.FieldCurve)).Text(c.t(page.MsgCurveField)),
		c.fieldInput(page.FieldCurve).Attr("inputmode", "decimal").Attr("spellcheck", "false").
			Placeholder("2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3"),
		c.fieldError(page.FieldCurve),
	)
	return app.Section().Class("rs-prices").ID("rs-daily").Body(
		app.H2().Text(c.t(page.MsgFleetTitle)),
		app.Div().Class("rs-fields").Body(
			curve,
			c.selectField(page.FieldWorkload, page.MsgWorkloadField, c.workloadOptions()),
			c.textField(page.FieldOwnPrice, page.MsgOwnPriceField, "decimal"),
			c.textField(page.FieldKWh, page.MsgKWhField, "decimal"),
			c.textField(page.FieldOwnYears, page.MsgOwnYearsField, "decimal"),
		),
	)
}

// workloadOptions are the workload picker's choices: the request as set,
// then the planner's presets, each described in the page's language.
func (c *Calculator) workloadOptions() []option {
	opts := []option{{"", c.t(page.MsgWorkloadAsSet)}}
	for _, p := range planner.Presets() {
		opts = append(opts, option{p.Name, page.PresetLabel(c.lang(), p.Name, p.Description)})
	}
	return opts
}

// fleetUI is the daily fleet's answer, or nothing when none was asked.
func (c *Calculator) fleetUI() app.UI {
	f := c.ps.out.Fleet
	if c.d.Job.Curve == nil {
		return app.Text("")
	}
	l := c.loc()
	if !f.OK {
		why := l.ReasonWith(f.Reason, c.pr.ProviderName)
		return app.Div().ID("rs-daily-fleet").Body(app.H3().Text(c.t(page.MsgFleetTitle)),
			app.P().Class("rs-warn").Text(page.Fill(c.t(page.MsgFleetUnsized), why)))
	}
	t := page.FleetTextOf(f, l, page.Names{GPU: c.pr.GPUName, Provider: c.pr.ProviderName})
	v := page.FleetChartOf(f, l)
	body := []app.UI{
		app.H3().Text(c.t(page.MsgFleetTitle)),
		app.P().ID("rs-fleet-best").Text(t.Headline),
		app.If(t.VsCard != "", func() app.UI { return app.P().Class("rs-sub").ID("rs-fleet-vs-card").Text(t.VsCard) }),
		app.If(f.Currency != "USD", func() app.UI {
			return app.P().Class("rs-sub").Text(page.FXLine(l, c.pr.Cat, f.Currency))
		}),
		app.Table().Class("rs-table rs-fleet-bills").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text(c.t(page.MsgFleetChoice)), app.Th().Text(c.t(page.MsgMonthlyShort)))),
			app.TBody().Body(app.Range(t.Choices).Slice(func(i int) app.UI {
				x := t.Choices[i]
				row := app.Tr().Body(app.Td().Text(x.Name), app.Td().Class("rs-num").Text(x.Monthly))
				if x.Best {
					row = row.Class("rs-best")
				}
				return row
			})),
		),
		fleetChart(v),
	}
	if t.Mix != "" {
		body = append(body, app.H3().Text(c.t(page.MsgMixTitle)), app.P().ID("rs-fleet-mix").Text(t.Mix),
			app.Ul().Class("rs-fleet-list").Body(app.Range(t.MixLines).Slice(func(i int) app.UI { return app.Li().Text(t.MixLines[i]) })))
	}
	if len(t.Own) > 0 {
		body = append(body, app.H3().Text(c.t(page.MsgOwnTitle)),
			app.Ul().Class("rs-fleet-list").ID("rs-fleet-own").Body(app.Range(t.Own).Slice(func(i int) app.UI { return app.Li().Text(t.Own[i]) })))
	} else if f.OwnErr != nil {
		msg := f.OwnErr.Error()
		if errors.Is(f.OwnErr, planner.ErrNoWatts) {
			msg = page.Fill(c.t(page.MsgOwnNoWatts), c.pr.GPUName(f.Row.Row.Offer.GPU))
		}
		body = append(body, app.P().Class("rs-warn").ID("rs-fleet-own").Text(msg))
	}
	return app.Div().ID("rs-daily-fleet").Body(body...)
}

// fleetChart draws a laid-out fleet chart.
func fleetChart(v page.FleetChartView) app.UI {
	return app.Figure().Class("rs-load rs-fleet-chart").Body(
		app.H3().Text(v.Title),
		chartSVG("rs-fleet-chart", page.FleetViewBox, v.Title, v.Paths, v.Texts),
		chartKeys("rs-lc-keys rs-fc-keys", v.Keys),
		app.FigCaption().Text(v.Caption),
	)
}
