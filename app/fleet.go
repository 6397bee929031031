package app

// The daily fleet: its inputs (a load curve, a workload preset, the
// owned-GPU prices; page.FieldCurve …) in their own box, and the answer
// (page.FleetTextOf, page.FleetChartOf) in the serving section.

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// dailyFleetUI is the daily fleet's answer, or nothing when none was asked.
func dailyFleetUI(v *page.DailyFleetView) app.UI {
	if !v.Shown {
		return app.Text("")
	}
	if !v.OK {
		return app.Div().ID("rs-daily-fleet").Body(app.H3().Text(v.Title), app.P().Class("rs-warn").Text(v.Unsized))
	}
	body := []app.UI{
		app.H3().Text(v.Title),
		app.P().ID("rs-fleet-best").Text(v.Headline),
		app.If(v.VsCard != "", func() app.UI { return app.P().Class("rs-sub").ID("rs-fleet-vs-card").Text(v.VsCard) }),
		app.If(v.FX != "", func() app.UI { return app.P().Class("rs-sub").Text(v.FX) }),
		app.Table().Class("rs-table rs-fleet-bills").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text(v.ChoiceHeads[0]), app.Th().Text(v.ChoiceHeads[1]))),
			app.TBody().Body(app.Range(v.Choices).Slice(func(i int) app.UI {
				x := v.Choices[i]
				row := app.Tr().Body(app.Td().Text(x.Name), app.Td().Class("rs-num").Text(x.Monthly))
				if x.Best {
					row = row.Class("rs-best")
				}
				return row
			})),
		),
		fleetChart(v.Chart),
	}
	if v.Mix != "" {
		body = append(body, app.H3().Text(v.MixTitle), app.P().ID("rs-fleet-mix").Text(v.Mix),
			app.Ul().Class("rs-fleet-list").Body(app.Range(v.MixLines).Slice(func(i int) app.UI { return app.Li().Text(v.MixLines[i]) })))
	}
	if len(v.Own) > 0 {
		body = append(body, app.H3().Text(v.OwnTitle),
			app.Ul().Class("rs-fleet-list").ID("rs-fleet-own").Body(app.Range(v.Own).Slice(func(i int) app.UI { return app.Li().Text(v.Own[i]) })))
	} else if v.OwnErr != "" {
		body = append(body, app.P().Class("rs-warn").ID("rs-fleet-own").Text(v.OwnErr))
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
