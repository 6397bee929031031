package page

import (
	"net/url"
	"testing"

	"rightsize/catalog"
)

// TestPlanRequestZeROOpen: the ZeRO field on auto reaches the planner as
// Request.ZeROOpen, with the user's own schedule (the page sets none) in
// place of the one resolved at the job's GPUs, so the planner chooses the
// layout for each shape it tries; a stage the user picked is kept, with
// the job's resolved input.
func TestPlanRequestZeROOpen(t *testing.T) {
	cat := catalog.Default()
	// Llama 3.1 405B on 8,192 H100s at TP 8 × PP 16: only plain 1F1B fits
	// (the calibration notes' twenty-sixth round).
	frag := func(zero string) string {
		v := url.Values{}
		for f, s := range map[Field]string{FieldModel: "llama-3.1-405b", FieldTask: "train", FieldSeq: "8192", FieldGPU: "h100-sxm",
			FieldGPUs: "8192", FieldTP: "8", FieldPP: "16", FieldGlobalBatch: "2048", FieldZeRO: zero} {
			if s != "" {
				v.Set(FieldKeys[f], s)
			}
		}
		return v.Encode()
	}
	j, _, _, ok := ParseJob(ParseFragment(frag(""), DefaultState), cat, Archs{}, nil, "")
	if !ok || !j.ZeROAuto {
		t.Fatalf("zero auto: ok %v, ZeROAuto %v", ok, j.ZeROAuto)
	}
	if j.In.Schedule.VirtualStages != 1 {
		t.Fatalf("the job's own layout: virtual stages %d, want 1 (plain 1F1B, the resolver's choice)", j.In.Schedule.VirtualStages)
	}
	if req := PlanRequest(j); !req.ZeROOpen || req.Input.Schedule.VirtualStages != 0 {
		t.Errorf("plan request: ZeROOpen %v, virtual stages %d; want true, 0 (chosen per shape)", req.ZeROOpen, req.Input.Schedule.VirtualStages)
	}
	j, _, _, ok = ParseJob(ParseFragment(frag("1"), DefaultState), cat, Archs{}, nil, "")
	if !ok || j.ZeROAuto {
		t.Fatalf("zero 1: ok %v, ZeROAuto %v", ok, j.ZeROAuto)
	}
	if req := PlanRequest(j); req.ZeROOpen || req.Input.ZeRO != 1 || req.Input.Schedule.VirtualStages != j.In.Schedule.VirtualStages {
		t.Errorf("zero 1: ZeROOpen %v, ZeRO %d, virtual stages %d", req.ZeROOpen, req.Input.ZeRO, req.Input.Schedule.VirtualStages)
	}
}
