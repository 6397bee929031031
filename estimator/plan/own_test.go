package plan_test

import (
	"slices"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestOwnRowsKeptPastEmptyColumns: --region, --min-vcpus and --min-ram
// keep the user's own row whose sheet leaves that column empty, and mark
// it (Row.Unchecked and a note each), where they dropped it unsaid; an
// own row whose column says otherwise, and a catalog offer with no
// region, are still filtered out.
func TestOwnRowsKeptPastEmptyColumns(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 3000, PromptTokens: 500, OutputTokens: 200},
		Filters: plan.Filters{Regions: []string{"eu"}, MinVCPUs: 8, MinRAMGiB: 32}}
	l4 := gpuOffer(t, "l4", 1, estimator.BF16)
	offer := func(id, region string, vcpus int, ram float64, own bool) plan.Offer {
		o := l4
		o.ID, o.InstanceType, o.Region, o.VCPUs, o.RAMGiB, o.UserPrice = id, id, region, vcpus, ram, own
		return o
	}
	res := mustPlan(t, req, []plan.Offer{
		offer("own-blank", "", 0, 0, true),
		offer("own-eu-blank-host", "eu-west-1", 0, 64, true),
		offer("own-us", "us-east-1", 16, 64, true),
		offer("own-eu-small", "eu-west-1", 4, 64, true),
		offer("catalog-blank", "", 16, 64, false),
		offer("catalog-eu", "eu-central-1", 16, 64, false),
	}, plan.Options{KeepUnfit: true})
	got := map[string][]string{}
	for _, r := range res.Rows {
		got[r.Offer.ID] = r.Unchecked
		var notes []string
		for _, n := range r.Notes {
			if n.Key == plan.MsgNoteOwnNoRegion || n.Key == plan.MsgNoteOwnNoVCPUs || n.Key == plan.MsgNoteOwnNoRAM {
				notes = append(notes, n.Key.String())
			}
		}
		if len(notes) != len(r.Unchecked) {
			t.Errorf("%s: unchecked %q, notes %q", r.Offer.ID, r.Unchecked, notes)
		}
	}
	want := map[string][]string{
		"own-blank":         {plan.ColumnRegion, plan.ColumnVCPUs, plan.ColumnRAM},
		"own-eu-blank-host": {plan.ColumnVCPUs},
		"catalog-eu":        nil,
	}
	if len(got) != len(want) || res.Considered != len(want) {
		t.Errorf("rows %v (considered %d), want %v", got, res.Considered, want)
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || !slices.Equal(g, w) {
			t.Errorf("%s: listed %v, unchecked %q; want %q", id, ok, g, w)
		}
	}
	if r := res.Rows[res.Cheapest]; !r.Fits || r.Offer.ID == "" {
		t.Errorf("no cheapest pick")
	}
	if s := plan.UncheckedNote(plan.ColumnRegion).String(); s != "region not given in your sheet: kept, the region filter not checked" {
		t.Errorf("region note %q", s)
	}
}

// TestOwnUnfitSaysHowManyGPUs: the user's own instance that does not hold
// the job is told how many of its GPUs one instance would need, by the
// planner's own layout search, and (inference) which smaller weights fit
// it as it is, before any network between instances: one T4 for Llama
// 3.1 8B in 16 bits needs 16.8 GiB where 15.8 GiB are usable (the
// test offer names no ECC share); two T4s at
// TP 2, or FP8 weights (vLLM's FP8 Marlin on Turing), would hold it. A
// catalog pair of T4s runs it at TP 2, as the reason says. An 8B full
// fine-tune on one A100 80GB: two of them at ZeRO-3. A 70B full fine-tune
// that no instance of eight A100s holds still asks for the network.
func TestOwnUnfitSaysHowManyGPUs(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	t4 := gpuOffer(t, "t4", 1, estimator.BF16)
	t4.UserPrice = true
	r := serveOne(t, in, t4, plan.Workload{RequestsPerSecond: 1}, false)
	if r.Fits || r.FitReason.Key != plan.MsgFitOwnGPUsOrWeights {
		t.Fatalf("1 × T4: fits %v, reason %q", r.Fits, r.FitReason)
	}
	a := r.FitReason.Args
	if a[0] != 1 || a[1] != "t4" || a[5] != 2 || a[7] != (plan.Layout{TP: 2, PP: 1}) || a[8] != "fp8" {
		t.Errorf("args %v", a)
	}
	if need, usable := a[2].(float64), a[4].(float64); !(need > 16.5 && need < 17.1) || !(usable > 15.5 && usable < 16) {
		t.Errorf("need %.3g GiB of %.3g usable, want about 16.8 of 15.8", need, usable)
	}
	const en = "1 × t4 cannot hold one copy of the model: 16.8 GiB per GPU at TP 1, 15.8 GiB usable; one instance of 2 × t4 would, at TP 2, or fp8 weights on these GPUs"
	if s := r.FitReason.String(); s != en {
		t.Errorf("reason %q, want %q", s, en)
	}
	two := gpuOffer(t, "t4", 2, estimator.BF16)
	if r := serveOne(t, in, two, plan.Workload{RequestsPerSecond: 1}, false); !r.Fits || r.TP != 2 {
		t.Errorf("2 × T4: fits %v at TP %d, want TP 2", r.Fits, r.TP)
	}
	train := func(model string, task estimator.Task) plan.Row {
		in := modelInput(t, model)
		in.Task, in.Seq = task, 2048
		a100 := gpuOffer(t, "a100-80gb", 1, estimator.BF16)
		a100.UserPrice = true
		if task == estimator.FullFinetune && model == "llama-3.1-70b" {
			a100.GPUCount = 2
		}
		res := mustPlan(t, plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}, []plan.Offer{a100}, plan.Options{KeepUnfit: true})
		return res.Rows[0]
	}
	if r := train("llama-3.1-8b", estimator.FullFinetune); r.FitReason.Key != plan.MsgFitOwnMoreGPUs || r.FitReason.Args[2] != 2 ||
		r.FitReason.String() != "1 × a100-80gb cannot hold the job; one instance of 2 × a100-80gb would, at TP 1 × PP 1, ZeRO-3" {
		t.Errorf("8B full fine-tune on 1 × A100: %q (%v)", r.FitReason, r.FitReason)
	}
	if r := train("llama-3.1-70b", estimator.FullFinetune); r.FitReason.Key != plan.MsgFitNoFabricOwn {
		t.Errorf("70B full fine-tune on 2 × A100: %q", r.FitReason)
	}
}
