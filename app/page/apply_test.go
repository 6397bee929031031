package page

import (
	"testing"
)

// TestWithPlanCarriesTheLayout: applying the planner's pick for
// DeepSeek-R1 on SGLang at 100 requests/s gives the job the row's whole
// layout (attention DP and EP inside each copy), so the page's estimate
// is the row's; applying a TP-only row resets a layout the job had; a
// training plan leaves the job's EP and sets its CP.
func TestWithPlanCarriesTheLayout(t *testing.T) {
	_, in, _ := pageOf(t, "m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50&g=b200", nil)
	x, ok := in.Plan.Best("b200")
	if !ok {
		t.Fatal("no B200 plan for DeepSeek-R1 at 100 req/s")
	}
	if x.Plan.AttnDP != 8 || x.Plan.EP != 8 || x.Plan.TP != 8 {
		t.Fatalf("the B200 pick is %+v, want TP 8 with attention DP 8 and EP 8", x.Plan)
	}
	s := in.State.WithPlan("b200", x.Plan, false)
	if s[FieldDP] != "8" || s[FieldEP] != "8" || s[FieldTP] != "8" {
		t.Fatalf("applied: tp %s dp %s ep %s", s[FieldTP], s[FieldDP], s[FieldEP])
	}
	d := Derive(s, nil, in.Prices, nil, "")
	if !d.R.OK || d.Job.In.DP != 8 || d.Job.In.EP != 8 || !d.R.Res.Fits {
		t.Fatalf("the applied job: ok %v, dp %d, ep %d, fits %v (%v %v)", d.R.OK, d.Job.In.DP, d.Job.In.EP, d.R.Res.Fits, d.Errs, d.General)
	}
	// A TP-only row: no layout left over from the last pick.
	if s = s.WithPlan("b200", Plan{GPUs: 8, TP: 8, PP: 1}, false); s[FieldDP] != "1" || s[FieldEP] != "1" {
		t.Errorf("a TP-only row left dp %s ep %s", s[FieldDP], s[FieldEP])
	}
	// Training rows choose no EP: the job's stays.
	s[FieldEP] = "4"
	if s = s.WithPlan("h100-sxm", Plan{GPUs: 16, TP: 2, PP: 1, ZeRO: 1}, true); s[FieldEP] != "4" || s[FieldZeRO] != "1" || s[FieldGPUs] != "16" {
		t.Errorf("a training row: ep %s zero %s gpus %s", s[FieldEP], s[FieldZeRO], s[FieldGPUs])
	}
	// A training row past its global batch splits each sequence (CP):
	// the job takes it, and a later row without CP resets it.
	if s = s.WithPlan("h200-sxm", Plan{GPUs: 2048, TP: 2, PP: 1, ZeRO: 1, CP: 4}, true); s[FieldCP] != "4" || s[FieldTP] != "2" {
		t.Errorf("a CP row: cp %q tp %s", s[FieldCP], s[FieldTP])
	}
	if s = s.WithPlan("h200-sxm", Plan{GPUs: 256, TP: 1, PP: 1, ZeRO: 1}, true); s[FieldCP] != "1" {
		t.Errorf("a row without CP left cp %q", s[FieldCP])
	}
}
