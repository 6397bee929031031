package app

import (
	"math"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// A calibration from rightsize calibrate (its link form) is applied on
// the GPU and engine it was fitted for: it travels in the link and
// changes the speed box; another GPU leaves it unapplied and says why; a
// user's own assumption wins; a bad one does not block the estimate.
func TestBenchmarkCalibration(t *testing.T) {
	c, _ := load(t)
	c.set(page.FieldEngine, "vllm")
	c.set(page.FieldGPU, "h100-sxm")
	if !c.d.R.OK || !c.d.R.Perf.OK {
		t.Fatalf("vLLM on H100: %v %v", c.d.Errs, c.d.General)
	}
	ttft := c.d.R.Perf.P.TimeToFirstToken
	c.set(page.FieldCalibration, "h100-sxm,vllm,23.6,0.79,0.69")
	j := c.d.Job
	if !j.CalApplied || math.Abs(j.In.RequestSeconds-0.0236) > 1e-12 || j.Eff.InferenceMFU != 0.79 || j.Eff.BandwidthUtil != 0.69 {
		t.Fatalf("calibration not applied: %+v", j.Cal)
	}
	if got := c.d.R.Perf.P.TimeToFirstToken; got == ttft || c.d.R.Perf.Eff.BandwidthUtil != 0.69 {
		t.Errorf("speed box unchanged: TTFT %v (was %v), bandwidth share %v", got, ttft, c.d.R.Perf.Eff.BandwidthUtil)
	}
	html := app.HTMLString(c.renderBenchmark())
	for _, id := range []string{"rs-calibration", "rs-calibration-status"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("box lacks %s", id)
		}
	}
	if frag := c.link().Encode(page.DefaultState); !strings.Contains(frag, "cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69") {
		t.Errorf("link %q lacks the calibration", frag)
	}
	// A user's own assumption wins over the calibration's.
	c.set(page.FieldBWUtil, "0.5")
	if c.d.Job.Eff.BandwidthUtil != 0.5 {
		t.Errorf("bandwidth share %v, want the field's 0.5", c.d.Job.Eff.BandwidthUtil)
	}
	c.set(page.FieldBWUtil, "")
	// Another GPU: kept in the link, not applied, and the box says why.
	c.set(page.FieldGPU, "h200-sxm")
	if !c.d.R.OK || c.d.Job.CalApplied || c.d.Job.In.RequestSeconds != 0 || !strings.Contains(app.HTMLString(c.renderBenchmark()), "h100-sxm") {
		t.Errorf("calibration applied on another GPU: %+v", c.d.Job.Cal)
	}
	// A hand-edited link: ignored, the estimate stands, the box says so.
	c.set(page.FieldGPU, "h100-sxm")
	c.set(page.FieldCalibration, "h100-sxm,vllm,oops")
	if !c.d.R.OK || !c.d.Job.CalBad || !strings.Contains(app.HTMLString(c.renderBenchmark()), c.t(page.MsgBenchBad)) {
		t.Errorf("bad calibration: ok %v, %v %v", c.d.R.OK, c.d.Errs, c.d.General)
	}
	// Training hides the box and ignores the field.
	c.set(page.FieldTask, "finetune")
	if !c.d.R.OK || c.d.Job.CalBad || app.HTMLString(c.renderBenchmark()) != "" {
		t.Errorf("training: %v", c.d.Job.CalBad)
	}
}
