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

// benchUI is the box, when the job shows it.
func benchUI(lang string, v *page.BenchView) app.UI {
	if !v.Shown {
		return app.Text("")
	}
	t := func(k page.MsgKey) string { return page.Tr(lang, k) }
	var status app.UI = app.Text("")
	if v.Status != "" {
		cls := "rs-warn"
		if v.StatusOK {
			cls = "rs-ok"
		}
		status = app.P().Class(cls).ID("rs-calibration-status").Text(v.Status)
	}
	return app.Section().Class("rs-prices").ID("rs-benchmark").Body(
		app.H2().Text(t(page.MsgBenchTitle)),
		app.P().Class("rs-sub").Text(t(page.MsgBenchHelp)),
		fieldUI(v.Field),
		status,
	)
}
