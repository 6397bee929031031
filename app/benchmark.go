package app

// The "Your benchmark" box: the calibration that `rightsize calibrate`
// fits to a serving benchmark the user ran (its "link form" line:
// gpu,engine,request ms,prefill MFU,decode bandwidth share) goes in a
// field that the link carries (page.FieldCalibration); page.ParseJob applies it to the
// speed box and the plans when the selected GPU and engine are the ones
// it was fitted for. Fitting in the page (estimator/sim.Parse and
// sim.Fit behind a file drop) measured about 40 KB of brotli in app.wasm,
// beyond its budget, so the fit runs in the CLI.

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

func (c *Calculator) renderBenchmark() app.UI {
	l := c.loc()
	j := &c.d.Job
	var status app.UI = app.Text("")
	switch {
	case j.CalBad:
		status = app.P().Class("rs-warn").ID("rs-calibration-status").Text(c.t(page.MsgBenchBad))
	case j.CalApplied:
		status = app.P().Class("rs-ok").ID("rs-calibration-status").Text(page.Fill(c.t(page.MsgBenchApplied), j.Cal.GPU, j.Cal.Engine.String(),
			l.Fixed(j.Cal.RequestSeconds*1000, 1)+" "+c.t(page.MsgMs), l.Fixed(j.Cal.InferenceMFU, 2), l.Fixed(j.Cal.BandwidthUtil, 2)))
	case j.Cal.GPU != "":
		status = app.P().Class("rs-warn").ID("rs-calibration-status").Text(page.Fill(c.t(page.MsgBenchMismatch), j.Cal.GPU, j.Cal.Engine.String()))
	}
	if !c.state.Shown(page.FieldCalibration) {
		return app.Text("")
	}
	return app.Section().Class("rs-prices").ID("rs-benchmark").Body(
		app.H2().Text(c.t(page.MsgBenchTitle)),
		app.P().Class("rs-sub").Text(c.t(page.MsgBenchHelp)),
		app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(page.FieldCalibration)).Text(c.t(page.MsgBenchPick)),
			c.fieldInput(page.FieldCalibration).Attr("spellcheck", "false").Placeholder("h100-sxm,vllm,16,0.5,0.75"),
		),
		status,
	)
}
