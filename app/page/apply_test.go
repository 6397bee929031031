package page

import (
	"strings"
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

// TestWithPlanCarriesCheckpointing: a rented fleet's training row takes
// the memory layout that costs least, with or without activation
// checkpointing; applying it gives the job that choice, given, so a QLoRA
// row planned without checkpointing is not estimated with QLoRA's default
// (on), and the applied job's memory is the row's. An inference row
// leaves the field alone; a table row carries the choice in data-gc.
func TestWithPlanCarriesCheckpointing(t *testing.T) {
	_, in, _ := pageOf(t, "m=llama-3.1-8b&t=qlora&tok=100M", nil)
	if !in.Job.In.GradCheckpointing {
		t.Fatal("QLoRA's default is checkpointing on")
	}
	var row *Candidate
	for k := range in.Plan.Cands {
		if x := &in.Plan.Cands[k]; !x.Plan.Ckpt {
			row = x
			break
		}
	}
	if row == nil {
		t.Fatal("no QLoRA row planned without checkpointing")
	}
	s := in.State.WithPlan(row.Offer.GPU, row.Plan, true)
	if s[FieldCheckpointing] != "0" {
		t.Fatalf("applied a row without checkpointing: gc %q", s[FieldCheckpointing])
	}
	d := Derive(s, nil, in.Prices, nil, "")
	if !d.R.OK || d.Job.In.GradCheckpointing || d.Job.CheckpointingDefault {
		t.Errorf("the applied job: ok %v, checkpointing %v (default %v)", d.R.OK, d.Job.In.GradCheckpointing, d.Job.CheckpointingDefault)
	}
	if s = s.WithPlan(row.Offer.GPU, Plan{GPUs: 1, TP: 1, PP: 1, Ckpt: true}, true); s[FieldCheckpointing] != "1" {
		t.Errorf("a checkpointed row: gc %q", s[FieldCheckpointing])
	}
	if s = s.WithPlan("h100-sxm", Plan{GPUs: 1, TP: 1, PP: 1}, false); s[FieldCheckpointing] != "1" {
		t.Errorf("an inference row changed gc to %q", s[FieldCheckpointing])
	}
	attrs := map[string]string{}
	for _, a := range planAttrs("h100-sxm", Plan{GPUs: 2, TP: 1, PP: 1, Ckpt: true}) {
		attrs[a.K] = a.V
	}
	if _, p, ok := PlanFromData(func(k string) string { return attrs["data-"+k] }); !ok || !p.Ckpt || p.GPUs != 2 {
		t.Errorf("data attributes %v read back as %+v", attrs, p)
	}
}

// TestWithPlanCarriesRedundantExperts: a planner row whose EP does not
// divide the model's experts adds redundant copies (plan.Row.
// RedundantExperts, note.redundant_experts): DeepSeek-R1 over 24 GB200
// GPUs at EP 24 holds 256 + 8 experts. Applying it, from a pick card or
// a table row (data-re read back), gives the job the copies, so the page
// estimates what the row planned; without them "24 does not divide the
// model's 256 experts". The layout text names them, the form shows the
// field, and a later row without them clears it.
func TestWithPlanCarriesRedundantExperts(t *testing.T) {
	_, in, _ := pageOf(t, "m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50&g=gb200", nil)
	p := Plan{GPUs: 24, TP: 24, PP: 1, AttnDP: 24, EP: 24, Redundant: 8}
	attrs := map[string]string{}
	for _, a := range planAttrs("gb200", p) {
		attrs[a.K] = a.V
	}
	if attrs["data-re"] != "8" {
		t.Fatalf("data-re %q, want 8", attrs["data-re"])
	}
	gpu, back, ok := PlanFromData(func(k string) string { return attrs["data-"+k] })
	if !ok || gpu != "gb200" || back != p {
		t.Fatalf("read back %s %+v, want gb200 %+v", gpu, back, p)
	}
	if got := SplitText(p); !strings.Contains(got, "EP 24 +8") {
		t.Errorf("layout text %q does not name the redundant experts", got)
	}
	s := in.State.WithPlan("gb200", p, false)
	if s[FieldRedundant] != "8" || s[FieldEP] != "24" {
		t.Fatalf("applied: ep %s redundant %s", s[FieldEP], s[FieldRedundant])
	}
	d := Derive(s, nil, in.Prices, nil, "")
	if !d.R.OK || d.Job.In.EP != 24 || d.Job.In.RedundantExperts != 8 {
		t.Fatalf("the applied job: ok %v, ep %d, redundant %d (%v %v)", d.R.OK, d.Job.In.EP, d.Job.In.RedundantExperts, d.Errs, d.General)
	}
	v := BuildView(ViewIn{State: s, Job: d.Job, R: d.R})
	found := false
	for _, f := range v.Form.Fields {
		if f.F == FieldRedundant {
			found = f.Value == "8"
		}
	}
	if !found {
		t.Error("the form does not show the redundant experts the row set")
	}
	without := s
	without[FieldRedundant] = "0"
	if d := Derive(without, nil, in.Prices, nil, ""); d.R.OK {
		t.Error("EP 24 without the copies estimated: want the experts' error")
	}
	if s = s.WithPlan("gb200", Plan{GPUs: 8, TP: 8, PP: 1, AttnDP: 8, EP: 8}, false); s[FieldRedundant] != "0" {
		t.Errorf("a row without copies left %q", s[FieldRedundant])
	}
	// The applied job plans again, with its copies over the rack's trays
	// (and over instances a network for the experts joins): its group of
	// 24 GPUs is wider than one instance, and before, no offer's
	// per-instance layouts held it, so the plan went empty.
	_, after, _ := pageOf(t, "m=deepseek-r1&p=fp8&e=sglang&g=gb200&n=24&tp=24&adp=24&xp=24&re=8&rps=100", nil)
	rack := false
	for _, x := range after.Plan.Cands {
		if x.Plan.TP != 24 || x.Plan.EP != 24 || x.Plan.Redundant != 8 {
			t.Errorf("%s: a candidate of %+v, want the named TP = DP = EP = 24 with 8 copies", x.Offer.ID, x.Plan)
		}
		rack = rack || x.Offer.GPU == "gb200"
	}
	if len(after.Plan.Cands) == 0 || !rack {
		t.Errorf("after apply: %d candidates, a GB200 rack among them %v", len(after.Plan.Cands), rack)
	}
}

// TestAsyncSchedulingField: vLLM's opt-in async scheduling before 0.14
// (estimator.Input.AsyncScheduling, the CLI's --async-scheduling) is a
// box among the engine settings for a vLLM job; ticked on vLLM 0.11 it
// takes the V1 engine's host gap per sequence off the decode step
// (estimator's vllmSequenceGap); on another engine the box is hidden and
// not read, as the page's other engine-only fields (a link that ticks it
// there changes nothing; the CLI refuses --async-scheduling off vLLM).
func TestAsyncSchedulingField(t *testing.T) {
	v, off, _ := pageOf(t, "m=llama-3.1-8b&e=vllm&ev=0.11.0&rps=5", nil)
	if !hasField(v.Form.Overrides.Fields, FieldAsync) || off.Job.In.AsyncScheduling {
		t.Fatalf("vLLM 0.11: the box shown %v, async %v", hasField(v.Form.Overrides.Fields, FieldAsync), off.Job.In.AsyncScheduling)
	}
	v, on, _ := pageOf(t, "m=llama-3.1-8b&e=vllm&ev=0.11.0&rps=5&as=1", nil)
	if !on.Job.In.AsyncScheduling || !v.Form.Overrides.Open {
		t.Fatalf("ticked: async %v, box open %v", on.Job.In.AsyncScheduling, v.Form.Overrides.Open)
	}
	if !(on.R.Perf.P.DecodeStepSeconds < off.R.Perf.P.DecodeStepSeconds) {
		t.Errorf("decode step %.6f s ticked, %.6f s not: want the host gap gone", on.R.Perf.P.DecodeStepSeconds, off.R.Perf.P.DecodeStepSeconds)
	}
	if v, _, _ := pageOf(t, "m=llama-3.1-8b&e=sglang&rps=5", nil); hasField(v.Form.Overrides.Fields, FieldAsync) {
		t.Error("SGLang: the vLLM box is shown")
	}
	if _, other, _ := pageOf(t, "m=llama-3.1-8b&e=sglang&rps=5&as=1", nil); !other.R.OK || other.Job.In.AsyncScheduling {
		t.Errorf("SGLang with the vLLM box ticked in the link: ok %v, async %v; want the hidden box not read", other.R.OK, other.Job.In.AsyncScheduling)
	}
}

// TestNoOverlapField: the overlap scheduler off (estimator.Input.
// NoOverlapSchedule, the CLI's --no-overlap-schedule) is a box among the
// engine settings of an SGLang or TensorRT-LLM job; ticked, the decode
// step carries the host's step work after the GPU's; on vLLM the box is
// hidden and a link that ticks it changes nothing.
func TestNoOverlapField(t *testing.T) {
	for _, e := range []string{"sglang", "trtllm"} {
		v, off, _ := pageOf(t, "m=llama-3.1-8b&e="+e+"&rps=5", nil)
		if !hasField(v.Form.Overrides.Fields, FieldNoOverlap) || off.Job.In.NoOverlapSchedule {
			t.Fatalf("%s: the box shown %v, off %v", e, hasField(v.Form.Overrides.Fields, FieldNoOverlap), off.Job.In.NoOverlapSchedule)
		}
		v, on, _ := pageOf(t, "m=llama-3.1-8b&e="+e+"&rps=5&nos=1", nil)
		if !on.Job.In.NoOverlapSchedule || !v.Form.Overrides.Open {
			t.Fatalf("%s ticked: off %v, box open %v", e, on.Job.In.NoOverlapSchedule, v.Form.Overrides.Open)
		}
		if !(on.R.Perf.P.DecodeStepSeconds > off.R.Perf.P.DecodeStepSeconds) {
			t.Errorf("%s: decode step %.6f s ticked, %.6f s not: want the host's work added", e, on.R.Perf.P.DecodeStepSeconds, off.R.Perf.P.DecodeStepSeconds)
		}
	}
	// A link's bad value opens the box, so its message shows by the field.
	if v, bad, _ := pageOf(t, "m=llama-3.1-8b&e=sglang&rps=5&nos=abc", nil); bad.Errs[FieldNoOverlap].OK() || !v.Form.Overrides.Open {
		t.Errorf("nos=abc: error %v, box open %v; want the error shown in the opened box", bad.Errs[FieldNoOverlap], v.Form.Overrides.Open)
	}
	if v, bad, _ := pageOf(t, "m=llama-3.1-8b&e=vllm&rps=5&as=abc", nil); bad.Errs[FieldAsync].OK() || !v.Form.Overrides.Open {
		t.Errorf("as=abc: error %v, box open %v; want the error shown in the opened box", bad.Errs[FieldAsync], v.Form.Overrides.Open)
	}
	if v, _, _ := pageOf(t, "m=llama-3.1-8b&e=vllm&rps=5", nil); hasField(v.Form.Overrides.Fields, FieldNoOverlap) {
		t.Error("vLLM: the box is shown")
	}
	if _, other, _ := pageOf(t, "m=llama-3.1-8b&e=vllm&rps=5&nos=1", nil); !other.R.OK || other.Job.In.NoOverlapSchedule {
		t.Errorf("vLLM with the box ticked in the link: ok %v, off %v; want the hidden box not read", other.R.OK, other.Job.In.NoOverlapSchedule)
	}
}
