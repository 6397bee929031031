package plan_test

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// coreweaveGB200 is the catalog's GB200 NVL72 offer: 4-GPU trays that
// CoreWeave deploys as whole racks of 18 sharing the rack's NVLink.
func coreweaveGB200(t *testing.T) plan.Offer {
	t.Helper()
	o, ok := catalog.Default().PlanOffer("coreweave-nvidia-gb200-nvl72-on-demand-north-america", estimator.FP8)
	if !ok {
		t.Fatal("no CoreWeave GB200 NVL72 offer in the catalog")
	}
	if o.RackGPUs != 72 || o.GPUCount != 4 || o.NetworkGbps != 0 || o.NetworkFabric != "" {
		t.Fatalf("CoreWeave GB200: rack %d GPUs, %v GPUs an instance, network %v %q: want a 72-GPU rack of 4-GPU trays, no network stated",
			o.RackGPUs, o.GPUCount, o.NetworkGbps, o.NetworkFabric)
	}
	return o
}

// TestRackTraysShareNVLink: the trays of a rack the provider joins by
// NVLink (Offer.RackGPUs) time a job on the rack's 72-GPU NVLink domain;
// the same tray without it, or over PCIe, keeps the domain to the
// instance (before, every GB200 tray did: 4).
func TestRackTraysShareNVLink(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	o := coreweaveGB200(t)
	for _, c := range []struct {
		name string
		edit func(*plan.Offer)
		want int
	}{
		{"rack", func(*plan.Offer) {}, 72},
		{"no rack", func(o *plan.Offer) { o.RackGPUs = 0 }, 4},
		{"pcie", func(o *plan.Offer) { o.Interconnect = "pcie" }, 4},
	} {
		x := o
		c.edit(&x)
		if _, hw := plan.OnOffer(in, &x, plan.Assumptions{}); hw.NVLinkDomain != c.want {
			t.Errorf("%s: NVLink domain %d GPUs, want %d", c.name, hw.NVLinkDomain, c.want)
		}
	}
}

// TestRackSpanStopsAtTheRack: a layout given over the rack's trays needs
// no network (TP = DP = EP = 32 over 8 trays fits the offer, which names
// none), one past the rack does (128 GPUs over 32 trays: fit.no_fabric),
// and without the rack neither spans a tray (before, the 32-GPU layout
// did not fit either).
func TestRackSpanStopsAtTheRack(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine, in.GPUMemUtil = estimator.FP8, estimator.SGLang, 0.9
	w := plan.Workload{RequestsPerSecond: 10, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	o := coreweaveGB200(t)
	lay := func(gpus int) estimator.Input {
		x := in
		x.GPUs, x.TP, x.DP, x.EP = gpus, gpus, gpus, gpus
		return x
	}
	if r := serveOne(t, lay(32), o, w, true); !r.Fits || r.InstancesPerReplica != 8 || !hasNote(&r, plan.MsgNoteNVLinkRack) {
		t.Errorf("32 GPUs in the rack: fits %v (%v), %d trays a copy, notes %v: want 8 trays and note.nvlink_rack", r.Fits, r.FitReason, r.InstancesPerReplica, r.Notes)
	}
	if r := serveOne(t, lay(128), o, w, true); r.Fits || r.FitReason.Key != plan.MsgFitNoFabric {
		t.Errorf("128 GPUs past the rack: fits %v, reason %q: want fit.no_fabric", r.Fits, r.FitReason.Key)
	}
	o.RackGPUs = 0
	if r := serveOne(t, lay(32), o, w, true); r.Fits {
		t.Errorf("32 GPUs without the rack: fits over %d trays with no network", r.InstancesPerReplica)
	}
}

// TestGB200WideEPInOneNVLinkDomain: DeepSeek-R1 FP8 on SGLang at 100
// requests/s (1,024 tokens in and out) on CoreWeave's GB200 NVL72 trays.
// Each tray holds a copy, and before the rack rule the planner served it
// so (TP 4 a tray: 79 trays, 2.4 M USD/month, measured when written); now
// its copies run wide expert parallelism over several trays of one rack
// (attention DP = EP = TP = 4 × trays, at most 18 trays), as SGLang and
// TensorRT-LLM run DeepSeek on GB200 NVL72, for well under half the bill
// (8 trays of TP 32, 0.25 M USD/month, when written).
// The all-to-all between the trays is timed on NVLink: the copy's TPOT
// is the same whatever the network between instances (1 Gbit/s stated
// here), where over the network it would be far slower.
func TestGB200WideEPInOneNVLinkDomain(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine, in.GPUMemUtil = estimator.FP8, estimator.SGLang, 0.9
	w := plan.Workload{RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	o := coreweaveGB200(t)
	r := serveOne(t, in, o, w, false)
	flat := o
	flat.RackGPUs = 0
	w.Kind = plan.Serving
	res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{flat}, plan.Options{MaxInstances: 1000})
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("trays alone: %d rows, %v", len(res.Rows), err)
	}
	b := res.Rows[0]
	t.Logf("rack: TP %d DP %d EP %d over %d trays, %d trays ($%.0f/month, TPOT %.1f ms); trays alone: TP %d over %d, %d trays ($%.0f)",
		r.TP, r.AttnDP, r.EP, r.InstancesPerReplica, r.Instances, r.MonthlyCostUSD, 1000*r.TPOTSeconds, b.TP, b.InstancesPerReplica, b.Instances, b.MonthlyCostUSD)
	if !r.Fits || !b.Fits {
		t.Fatalf("fits: rack %v (%v), trays alone %v (%v)", r.Fits, r.FitReason, b.Fits, b.FitReason)
	}
	n := r.InstancesPerReplica
	if n < 2 || n > 18 || r.TP != 4*n || r.AttnDP != r.TP || r.EP != r.TP || r.PP != 1 || !hasNote(&r, plan.MsgNoteNVLinkRack) {
		t.Errorf("rack: TP %d DP %d EP %d PP %d over %d trays, notes %v: want TP = DP = EP = 4 × trays over 2 to 18 trays, and note.nvlink_rack",
			r.TP, r.AttnDP, r.EP, r.PP, n, r.Notes)
	}
	if b.InstancesPerReplica != 1 || !(r.MonthlyCostUSD < 0.5*b.MonthlyCostUSD) {
		t.Errorf("rack $%.0f/month against $%.0f for trays alone (%d trays a copy): want under half", r.MonthlyCostUSD, b.MonthlyCostUSD, b.InstancesPerReplica)
	}
	slow := o
	slow.NetworkGbps, slow.NetworkFabric = 1, "ethernet"
	x := in
	x.GPUs, x.TP, x.DP, x.EP, x.RedundantExperts = r.TP, r.TP, r.TP, r.TP, r.RedundantExperts
	a, s := serveOne(t, x, o, w, true), serveOne(t, x, slow, w, true)
	if !a.Fits || !s.Fits || s.TPOTSeconds != a.TPOTSeconds || s.SustainableRPSPerReplica != a.SustainableRPSPerReplica {
		t.Errorf("TP %d over %d trays: TPOT %.4f s, %.3f req/s a copy with no network stated; %.4f s, %.3f at 1 Gbit/s (fits %v %v): the all-to-all left NVLink",
			r.TP, n, a.TPOTSeconds, a.SustainableRPSPerReplica, s.TPOTSeconds, s.SustainableRPSPerReplica, a.Fits, s.Fits)
	}
}

// TestRentedRoundsUpToTheUnit: an offer rented in whole orders
// (Offer.RentalUnit: CoreWeave's GB200 NVL72 trays, whole racks of 18)
// bills every count rounded up to them; one without bills the count.
func TestRentedRoundsUpToTheUnit(t *testing.T) {
	o := coreweaveGB200(t)
	if o.RentalUnit != 18 {
		t.Fatalf("CoreWeave GB200: rental unit %d, want 18 (whole racks)", o.RentalUnit)
	}
	for _, c := range []struct{ unit, n, want int }{
		{18, 0, 0}, {18, 1, 18}, {18, 2, 18}, {18, 18, 18}, {18, 19, 36}, {18, 79, 90},
		{0, 2, 2}, {1, 2, 2},
	} {
		x := o
		x.RentalUnit = c.unit
		if got := x.Rented(c.n); got != c.want {
			t.Errorf("unit %d: %d instances rent %d, want %d", c.unit, c.n, got, c.want)
		}
	}
}

// TestGB200BillsTheRack: DeepSeek-R1 FP8 served on vLLM at 10 and 100
// requests/s (1,024 tokens in and out, TTFT 2 s and TPOT 100 ms at p95,
// rightsize plan's defaults) on CoreWeave's GB200 NVL72 trays. The plan
// uses 2 trays (10 req/s) or 8 (100 req/s), as before, and was billed for
// them (61,320 and 245,280 USD/month); CoreWeave rents the trays only as
// whole racks of 18, so each now bills the rack, 42 × 18 × 730 = 551,880
// USD/month, its $/1M tokens with it, and says how many more copies the
// idle trays hold. The disaggregated plan's pools rent from one rack too.
func TestGB200BillsTheRack(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.VLLM
	o := coreweaveGB200(t)
	for _, c := range []struct {
		rps        float64
		inst, more int
		before     float64
	}{{10, 2, 8, 61320}, {100, 8, 1, 245280}} {
		w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: c.rps, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.1}
		plans := func(o plan.Offer) plan.Result {
			res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
			if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits {
				t.Fatalf("%v req/s: %d rows, %v", c.rps, len(res.Rows), err)
			}
			return res
		}
		res := plans(o)
		r := &res.Rows[0]
		if r.Instances != c.inst || r.Rented() != 18 || r.MonthlyCostUSD != 42*18*730 {
			t.Errorf("%v req/s: %d trays used, %d rented, %.2f USD/month: want %d used, 18 rented, 551880", c.rps, r.Instances, r.Rented(), r.MonthlyCostUSD, c.inst)
		}
		i := slices.IndexFunc(r.Notes, func(n plan.Reason) bool { return n.Key == plan.MsgNoteRentalUnitCopies })
		if i < 0 || !slices.Equal(r.Notes[i].Args, []any{18, 72.0, c.inst, 18, c.more}) {
			t.Errorf("%v req/s: notes %v: want note.rental_unit_copies [18 72 %d 18 %d]", c.rps, r.Notes, c.inst, c.more)
		}
		flat := o
		flat.RentalUnit = 0
		b := plans(flat).Rows[0]
		if b.Instances != c.inst || b.MonthlyCostUSD != c.before || hasNote(&b, plan.MsgNoteRentalUnit) {
			t.Errorf("%v req/s, trays rented singly: %d trays, %.2f USD/month, notes %v: want %d, %v and no rental note", c.rps, b.Instances, b.MonthlyCostUSD, b.Notes, c.inst, c.before)
		}
		if got, want := r.USDPerMillionOutput/b.USDPerMillionOutput, 551880/c.before; math.Abs(got/want-1) > 1e-9 {
			t.Errorf("%v req/s: $/1M output %.4f against %.4f singly: ratio %.4f, want %.4f", c.rps, r.USDPerMillionOutput, b.USDPerMillionOutput, got, want)
		}
		if d := res.Disagg; d != nil && d.MonthlyCostUSD != float64(o.Rented(d.Instances))*42*730 {
			t.Errorf("%v req/s: disaggregated %d trays at %.2f USD/month: want the racks they rent", c.rps, d.Instances, d.MonthlyCostUSD)
		}
	}
}

// TestRackTrainingBillsTheRack: a LoRA of Llama 3.1 8B fits one GB200
// tray; on CoreWeave's racks the job pays for 18 trays for its hours,
// and says the other 17 idle.
func TestRackTrainingBillsTheRack(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Task, in.Weights, in.Seq, in.Batch = estimator.LoRA, estimator.BF16, 2048, 4
	o := coreweaveGB200(t)
	w := plan.Workload{Kind: plan.Training, TrainTokens: 1e8}
	res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
	if err != nil || len(res.Rows) < 1 || !res.Rows[0].Fits {
		t.Fatalf("%d rows, %v", len(res.Rows), err)
	}
	r := &res.Rows[0]
	want := 18 * 42 * plan.BilledHours(r.Offer, plan.OnDemand, r.JobSeconds)
	if r.Rented() != 18 || math.Abs(r.JobCostUSD/want-1) > 1e-12 || !hasNote(r, plan.MsgNoteRentalUnit) {
		t.Errorf("%d trays used, %d rented, %.2f USD for %.0f s (want %.2f), notes %v: want the rack billed and note.rental_unit",
			r.Instances, r.Rented(), r.JobCostUSD, r.JobSeconds, want, r.Notes)
	}
}

// TestRackDecodeWorkersOfSixTrays: DeepSeek-R1 FP8 at 100 requests/s
// (1,024 tokens in and out, TTFT 2 s and TPOT 100 ms at p95) on
// CoreWeave's GB200 NVL72 trays, disaggregated. The rack-wide workers
// were powers of two (8, 16, 32, 64 GPUs) and decode took three workers
// of TP 8 over two trays each; InferenceX's GB200 rows run decode workers
// of 24 and 48 GPUs, whose EP does not divide the 256 experts without
// redundant copies. Now the search tries 6 and 12 trays too, with the
// fewest redundant experts that split evenly (8 over EP 24, 32 over EP
// 48, as Dynamo's GB200 recipe), and one decode worker of TP 24 over 6
// trays did the three workers' work at a lower TPOT (measured when
// written: 23.6 ms against 36.2 ms at p95). With SGLang's DeepEP decode
// at its low-latency kernels' measured figures (estimator's
// deepEPLowLatencySeconds) one worker of TP 32 over 8 trays does it at
// 27.5 ms (p95); the 24- and 48-GPU workers with their redundant experts
// still fit, and the bill is the same rack. Since each prompt's handover
// keeps an SGLang prefill worker busy 15 ms (estimator's
// sglangPrefillHandoverSeconds) the prefill pool is four workers of two
// trays where it was two: 16 trays of the rack where 12 were used. Since
// only a rank's first 128 tokens a step pay the low-latency figures
// (estimator's lowLatencyExtra), the TP 24 worker with 8 redundant
// experts over 6 trays does it again, at 43.4 ms (p95), on 14 trays: the
// layout of InferenceX's GB200 Dynamo-SGLang rows of 2025-12.
func TestRackDecodeWorkersOfSixTrays(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.1}
	o := coreweaveGB200(t)
	res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
	if err != nil || res.Disagg == nil {
		t.Fatalf("no disaggregated plan: %v", err)
	}
	d := res.Disagg
	dw := d.DecodeWorker
	t.Logf("prefill TP %d × %d, decode TP %d DP %d EP %d +%d redundant × %d over %d trays, %d trays, TPOT %.1f ms p95, %.0f USD/month",
		d.PrefillWorker.TP, d.Prefill, dw.TP, dw.DP, dw.EP, dw.RedundantExperts, d.Decode, dw.InstancesPerWorker, d.Instances, 1000*d.TPOTAtSLOSeconds, d.MonthlyCostUSD)
	if dw.TP != 24 || dw.DP != 24 || dw.EP != 24 || dw.RedundantExperts != 8 || dw.InstancesPerWorker != 6 || d.Decode != 1 {
		t.Errorf("decode: TP %d DP %d EP %d, %d redundant experts, %d trays a worker, %d workers: want one worker of TP = DP = EP = 24 with 8 redundant experts over 6 trays",
			dw.TP, dw.DP, dw.EP, dw.RedundantExperts, dw.InstancesPerWorker, d.Decode)
	}
	if d.Instances != 14 || d.MonthlyCostUSD != 42*18*730 || d.TPOTAtSLOSeconds > 0.05 {
		t.Errorf("%d trays at %.2f USD/month, TPOT %.4f s: want 14 trays of one rack (551880) and TPOT under 50 ms", d.Instances, d.MonthlyCostUSD, d.TPOTAtSLOSeconds)
	}
	// The sentence says the workers span trays of the rack, as an
	// aggregated row over the trays does (before, it did not).
	if a := d.Why.Args; len(a) == 0 || !reflect.DeepEqual(a[len(a)-1], plan.Reason{Key: plan.MsgDisaggRackSpan, Args: []any{2, 6, 18, 72}}) ||
		!strings.Contains(d.Why.String(), "its workers span trays of one NVLink domain (2 a prefill worker, 6 a decode worker; a rack of 18 trays, 72 GPUs") {
		t.Errorf("why: %s", d.Why)
	}
	// The copy a row runs at EP 24 carries 8 redundant experts.
	x24 := in
	x24.GPUs, x24.TP, x24.DP, x24.EP, x24.RedundantExperts = 24, 24, 24, 24, 8
	if r := serveOne(t, x24, o, w, true); !r.Fits || r.RedundantExperts != 8 || r.InstancesPerReplica != 6 {
		t.Errorf("EP 24 with 8 redundant experts: fits %v (%v), %d redundant, %d trays", r.Fits, r.FitReason, r.RedundantExperts, r.InstancesPerReplica)
	}
	// The copy a row runs at EP 48 carries the 32 redundant experts of
	// Dynamo's recipe, and says so.
	x := in
	x.GPUs, x.TP, x.DP, x.EP, x.RedundantExperts = 48, 48, 48, 48, 32
	if r := serveOne(t, x, o, w, true); !r.Fits || r.RedundantExperts != 32 || r.InstancesPerReplica != 12 {
		t.Errorf("EP 48 with 32 redundant experts: fits %v (%v), %d redundant, %d trays", r.Fits, r.FitReason, r.RedundantExperts, r.InstancesPerReplica)
	}
}

// TestNamedWideLayoutSpansInstances: a request that names an attention-DP
// and EP group wider than one instance, without fixing the layout (the
// page's job after a wide row is applied: TP = DP = EP = 32 and the GPU
// picked), gets copies of that group over the instances that can carry
// them, as a fixed layout does: 8 trays of CoreWeave's GB200 rack, 4 of
// 8-GPU B200 instances on a 3.2 Tbit/s network; none on 8-GPU instances
// whose network is not stated (the experts' all-to-all would cross it) nor
// on MI300X, where SGLang's DeepEP does not run. Before, the per-instance
// TPs the planner tries could not hold the group and every offer came out
// empty.
func TestNamedWideLayoutSpansInstances(t *testing.T) {
	in, w := namedR1(t, 32)
	fixed := serveOne(t, in, coreweaveGB200(t), w, true)
	named := serveOne(t, in, coreweaveGB200(t), w, false)
	if !named.Fits || named.TP != 32 || named.AttnDP != 32 || named.EP != 32 || named.InstancesPerReplica != 8 {
		t.Errorf("GB200 rack: fits %v (%v), TP %d DP %d EP %d over %d trays: want TP = DP = EP = 32 over 8", named.Fits, named.FitReason, named.TP, named.AttnDP, named.EP, named.InstancesPerReplica)
	}
	if named.Instances != fixed.Instances || named.TPOTSeconds != fixed.TPOTSeconds {
		t.Errorf("GB200 rack: named %d trays, TPOT %.4f s; fixed %d, %.4f s: want the same copy", named.Instances, named.TPOTSeconds, fixed.Instances, fixed.TPOTSeconds)
	}
	b := gpuOffer(t, "b200", 8, estimator.FP8)
	b.NetworkGbps = 3200
	if r := serveOne(t, in, b, w, false); !r.Fits || r.TP != 32 || r.InstancesPerReplica != 4 {
		t.Errorf("B200 over 3.2 Tbit/s: fits %v (%v), TP %d over %d instances: want TP 32 over 4", r.Fits, r.FitReason, r.TP, r.InstancesPerReplica)
	}
	for _, o := range []plan.Offer{gpuOffer(t, "b200", 8, estimator.FP8), gpuOffer(t, "mi300x", 8, estimator.FP8)} {
		if o.GPU == "mi300x" {
			o.NetworkGbps = 3200
		}
		if r := serveOne(t, in, o, w, false); r.Fits {
			t.Errorf("%s (network %v Gbit/s): a copy of TP %d over %d instances, want none", o.GPU, o.NetworkGbps, r.TP, r.InstancesPerReplica)
		}
	}
}

// TestNamedLayoutRefusedWhereItDoesNotRun: a request that names SGLang's
// attention DP 8 · EP 8 (the page's job after a B200 row is applied)
// gets copies of it only on GPUs where SGLang runs that layout as priced
// (estimator.LayoutRefusal: DeepEP's all-to-all needs Hopper or
// Blackwell joined by NVLink), as the planner's own layouts; before, the
// MI300X offer came back as the cheapest pick of a layout its launch
// refuses. Fixed with --gpu, the row does not fit and says why
// (fit.layout_refused).
func TestNamedLayoutRefusedWhereItDoesNotRun(t *testing.T) {
	in, w := namedR1(t, 8)
	if r := serveOne(t, in, gpuOffer(t, "b200", 8, estimator.FP8), w, false); !r.Fits || r.AttnDP != 8 || r.EP != 8 {
		t.Errorf("B200: fits %v (%v), DP %d EP %d: want the named DP 8 · EP 8", r.Fits, r.FitReason, r.AttnDP, r.EP)
	}
	mi := gpuOffer(t, "mi300x", 8, estimator.FP8)
	if r := serveOne(t, in, mi, w, false); r.Fits && r.AttnDP > 1 {
		t.Errorf("MI300X: a copy of DP %d EP %d, which SGLang does not run there", r.AttnDP, r.EP)
	}
	if why := estimator.LayoutRefusal(in, mi.Hardware); why == "" {
		t.Error("SGLang's DP 8 · EP 8 on MI300X: no refusal")
	}
	// Fixed there (rightsize plan --gpu mi300x --tp 8 --dp 8 --ep 8),
	// the row does not fit, and says why: before, it was planned and
	// recommended on the only unflagged MI300X price.
	if r := serveOne(t, in, mi, w, true); r.Fits || r.FitReason.Key != plan.MsgFitLayoutRefused ||
		!strings.Contains(r.FitReason.String(), "does not run the layout given (attention DP 8, EP 8) on CDNA3 GPUs") {
		t.Errorf("MI300X, fixed: fits %v, reason %q", r.Fits, r.FitReason)
	}
}

// namedR1 is DeepSeek-R1 FP8 on SGLang named at TP = attention DP = EP =
// n GPUs, at 100 requests/s of 1,024 tokens in and out (TTFT 2 s, TPOT
// 100 ms): the page's job after a planner row of that layout is applied.
func namedR1(t *testing.T, n int) (estimator.Input, plan.Workload) {
	t.Helper()
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	in.GPUs, in.TP, in.DP, in.EP = n, n, n, n
	return in, plan.Workload{RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.1}
}
