package plan_test

import (
	"slices"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// pretrain405B is Llama 3.1 405B pre-trained on 15.6T tokens of 8K
// sequences (Dubey et al. 2024) on the catalog's H100 SXM offers.
func pretrain405B(tb testing.TB) (plan.Request, []plan.Offer) {
	req, offers := catalogRequest(tb, "llama-3.1-405b")
	req.Input.Task, req.Input.Seq = estimator.Pretrain, 8192
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 15.6e12}
	// Every layout that holds the job, however long it runs: no
	// assumed run length (TestAssumedRunLength).
	req.Filters.NoDeadline = true
	req.Filters.GPU = "h100-sxm"
	return req, offers
}

// cheapest is the plan's cheapest fitting row.
func cheapest(t *testing.T, req plan.Request, offers []plan.Offer) plan.Row {
	t.Helper()
	res, err := plan.Plan(req, offers, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cheapest < 0 {
		t.Fatal("nothing fits")
	}
	return res.Rows[res.Cheapest]
}

// TestPlanResolvesLayoutPerShape: with the ZeRO stage left open, every
// row of a pre-training plan runs the layout estimator.ResolveTrainDefaults
// chooses at that row's own GPUs, TP and PP (the one judge the CLI and
// the page use at the user's layout), and that layout fits; the plan then
// reaches pipelined layouts the user's stage held out.
func TestPlanResolvesLayoutPerShape(t *testing.T) {
	req, offers := pretrain405B(t)
	req.ZeROOpen = true
	res, err := plan.Plan(req, offers, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range res.Rows {
		if !r.Fits {
			continue
		}
		n++
		in := req.Input
		in.GPUs, in.TP, in.PP, in.GradCheckpointing = int(r.GPUs), r.TP, r.PP, r.GradCheckpointing
		in.VRAM, in.VisibleVRAM = r.Offer.GPUMemory, r.Offer.GPUVisibleMemory
		want, lay := estimator.ResolveTrainDefaults(in, true)
		if r.ZeRO != want.ZeRO {
			t.Errorf("%s: %d GPUs TP %d PP %d: ZeRO %d, the resolver's %d", r.Offer.ID, in.GPUs, r.TP, r.PP, r.ZeRO, want.ZeRO)
		}
		if r.PP > 1 && (r.VirtualStages < 1 || want.Schedule.VirtualStages == 1 && r.VirtualStages != 1) {
			t.Errorf("%s: PP %d timed with %d chunks a stage, the resolver's schedule %d (1: plain 1F1B)", r.Offer.ID, r.PP, r.VirtualStages, want.Schedule.VirtualStages)
		}
		if e, err := estimator.Estimate(want); err != nil || !e.Fits {
			t.Errorf("%s: the resolved layout (ZeRO %d, %+v) does not fit: %v", r.Offer.ID, want.ZeRO, lay, err)
		}
		if r.DP > 1 && r.ZeRO == 0 {
			t.Errorf("%s: pre-training over %d replicas at ZeRO 0: the published stacks shard at least the optimizer", r.Offer.ID, r.DP)
		}
	}
	if n == 0 {
		t.Fatal("no H100 offer fits the 405B pre-train")
	}
	// The user's own stage as a floor (ZeRO 0 at one GPU, tried with the
	// interleaved schedule only) left the plan to checkpoint on a few
	// instances; choosing per shape finds a pipeline that needs neither.
	// On B200s: on H100s the pipeline that needed neither (64 instances,
	// PP 32, ZeRO 2) left 1.2 of 79 GiB free, inside the memory
	// estimate's error (trainMemoryMargin), and no plan under the
	// instance limit does without checkpointing.
	req.Filters.GPU = "b200"
	shut := req
	shut.ZeROOpen = false
	open, fixed := cheapest(t, req, offers), cheapest(t, shut, offers)
	if !(open.JobCostUSD < fixed.JobCostUSD) {
		t.Errorf("layout chosen per shape: %.4g USD (TP %d PP %d ZeRO %d, ckpt %v), not below the floor's %.4g USD (TP %d PP %d ZeRO %d, ckpt %v)",
			open.JobCostUSD, open.TP, open.PP, open.ZeRO, open.GradCheckpointing, fixed.JobCostUSD, fixed.TP, fixed.PP, fixed.ZeRO, fixed.GradCheckpointing)
	}
	if open.PP < 2 || open.GradCheckpointing {
		t.Errorf("cheapest open layout: TP %d PP %d ZeRO %d ckpt %v, want a pipeline without checkpointing", open.TP, open.PP, open.ZeRO, open.GradCheckpointing)
	}
}

// TestPlanKeepsGivenZeRO: a stage the user gave is the floor, as before;
// ZeROOpen changes nothing for a fine-tune (its stage has no default to
// choose).
func TestPlanKeepsGivenZeRO(t *testing.T) {
	req, offers := pretrain405B(t)
	req.Input.ZeRO = 1
	for _, r := range mustPlan(t, req, offers, plan.Options{}).Rows {
		if r.Fits && r.ZeRO < 1 {
			t.Errorf("%s: ZeRO %d under the user's 1", r.Offer.ID, r.ZeRO)
		}
	}
	ft, offers := trainingRequest(t)
	a := mustPlan(t, ft, offers, plan.Options{})
	ft.ZeROOpen = true
	b := mustPlan(t, ft, offers, plan.Options{})
	if len(a.Rows) != len(b.Rows) || a.Cheapest != b.Cheapest {
		t.Fatalf("fine-tune: %d rows, cheapest %d; open: %d rows, cheapest %d", len(a.Rows), a.Cheapest, len(b.Rows), b.Cheapest)
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		if x.Offer.ID != y.Offer.ID || x.ZeRO != y.ZeRO || x.TP != y.TP || x.PP != y.PP || x.Instances != y.Instances || x.JobSeconds != y.JobSeconds {
			t.Errorf("fine-tune row %d moved with ZeROOpen: %s ZeRO %d TP %d PP %d ×%d → %s ZeRO %d TP %d PP %d ×%d",
				i, x.Offer.ID, x.ZeRO, x.TP, x.PP, x.Instances, y.Offer.ID, y.ZeRO, y.TP, y.PP, y.Instances)
		}
	}
}

// TestPlanBF16StatesSearchZeRO1: bf16 optimizer states are a distributed
// optimizer's (ZeRO 1 or more); with the stage left open the plan
// searches ZeRO 1 to 3 and says so, for a pre-train (whose stage it
// chooses per shape, single-GPU rows included) and a full fine-tune; a
// stage the user gave below 1 is still refused.
func TestPlanBF16StatesSearchZeRO1(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.BF16OptimizerStates = true
	offers := []plan.Offer{gpuOffer(t, "h100-sxm", 8, estimator.BF16), gpuOffer(t, "h100-sxm", 1, estimator.BF16)}
	offers[1].ID = "test-h100-1"
	for _, task := range []estimator.Task{estimator.Pretrain, estimator.FullFinetune} {
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}, ZeROOpen: true}
		req.Input.Task = task
		res, err := plan.Plan(req, offers, plan.Options{KeepUnfit: true})
		if err != nil {
			t.Fatalf("%v: %v", task, err)
		}
		n := 0
		for _, r := range res.Rows {
			if r.Fits {
				n++
				if r.ZeRO < 1 {
					t.Errorf("%v on %s: ZeRO %d", task, r.Offer.ID, r.ZeRO)
				}
			}
		}
		if n == 0 || !slices.ContainsFunc(res.Notes, func(r plan.Reason) bool { return r.Key == plan.MsgNoteBF16StatesZero }) {
			t.Errorf("%v: %d rows fit; notes %v", task, n, res.Notes)
		}
		req.ZeROOpen = false
		if _, err := plan.Plan(req, offers, plan.Options{}); err == nil || !strings.Contains(err.Error(), "bf16-optimizer-states") {
			t.Errorf("%v at a given ZeRO 0: %v, want the refusal", task, err)
		}
	}
}
