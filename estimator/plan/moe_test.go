package plan_test

import (
	"slices"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestMoEServingChoosesExpertParallel: DeepSeek-R1 in FP8 at 100
// requests/s (1,024 tokens in and out, p95 TTFT 2 s, TPOT 50 ms) on the
// catalog's 8-GPU B200 and H200 instances. Each engine that runs expert
// parallelism serves it with attention data parallelism and the experts
// spread over the 8 GPUs (DP 8, EP 8: SGLang's --tp 8 --dp 8
// --enable-dp-attention --ep 8), on well under two thirds of the
// instances the same offer needs at tensor parallelism alone (TP 8, the
// only shape the planner tried before): MLA's latent KV cache is no
// longer repeated on every GPU of the copy, so each GPU holds 8× the
// sequences. Measured when written: B200 5 instances against 11, H200 7
// against 20 (SGLang); B200 against 13 since SGLang's prompt rate on
// Blackwell FP8 at attention TP (estimator's enginePromptRates) slows the
// TP 8 copy's prefill; B200 6 (H200 8) since SGLang's DeepEP decode runs
// at its low-latency kernels' measured figures (estimator's
// deepEPLowLatencySeconds), vLLM and TensorRT-LLM staying at 5 (7 and 6);
// B200 5 (H200 7) again since only a rank's first 128 tokens a step pay
// those figures and the rest NVLink's (estimator's lowLatencyExtra): a
// copy's capacity is its saturation, 4,009 in flight (501 a rank).
func TestMoEServingChoosesExpertParallel(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	for _, gpu := range []string{"b200", "h200-sxm"} {
		for _, eng := range []estimator.Engine{estimator.SGLang, estimator.VLLM, estimator.TRTLLM} {
			in := modelInput(t, "deepseek-r1")
			in.Weights, in.Engine = estimator.FP8, eng
			// The share the launch command sets (catalog/launch writes
			// 0.9 for every engine): SGLang's own default reserves
			// 18 GiB more a GPU for DP attention's CUDA graphs
			// (estimator.Input.MemShare), which is not what this test is
			// about.
			in.GPUMemUtil = 0.9
			o := gpuOffer(t, gpu, 8, estimator.FP8)
			res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
			if err != nil || res.Cheapest < 0 {
				t.Fatalf("%s %s: no plan: %v", gpu, eng, err)
			}
			r := res.Rows[res.Cheapest]
			// Tensor parallelism alone on the same offer: the request
			// fixes TP 8 on 8 GPUs, which the planner keeps as given.
			tp := in
			tp.TP, tp.GPUs = 8, 8
			rt, err := plan.Plan(plan.Request{Input: tp, Workload: w, FixedParallelism: true}, []plan.Offer{o}, plan.Options{})
			if err != nil || rt.Cheapest < 0 {
				t.Fatalf("%s %s TP 8: no plan: %v", gpu, eng, err)
			}
			base := rt.Rows[rt.Cheapest]
			t.Logf("%s %s: TP %d DP %d EP %d on %d instances ($%.0f/month, TPOT %.1f ms, p95 TTFT %.3f s) against TP 8 on %d ($%.0f)",
				gpu, eng, r.TP, r.AttnDP, r.EP, r.Instances, r.MonthlyCostUSD, 1000*r.TPOTSeconds, r.TTFTP95Seconds, base.Instances, base.MonthlyCostUSD)
			if r.TP != 8 || r.AttnDP != 8 || r.EP != 8 || r.GPUs != float64(8*r.Instances) {
				t.Errorf("%s %s: picked TP %d DP %d EP %d on %v GPUs, want TP 8 DP 8 EP 8", gpu, eng, r.TP, r.AttnDP, r.EP, r.GPUs)
			}
			// The row's latencies are the simulation of that layout.
			if r.Sim == nil || r.Sim.Model == nil {
				t.Errorf("%s %s: no simulated run", gpu, eng)
			} else if mi := r.Sim.Model.Input(); mi.TP != 8 || mi.DP != 8 || mi.EP != 8 {
				t.Errorf("%s %s: simulated TP %d DP %d EP %d, the row TP 8 DP 8 EP 8", gpu, eng, mi.TP, mi.DP, mi.EP)
			}
			if base.AttnDP > 1 || base.EP > 1 || base.TP != 8 {
				t.Errorf("%s %s: the fixed TP 8 request ran DP %d EP %d", gpu, eng, base.AttnDP, base.EP)
			}
			if !(r.MonthlyCostUSD < 0.65*base.MonthlyCostUSD) || r.TPOTSeconds > w.TPOTSeconds || r.TTFTP95Seconds > w.TTFTP95Seconds {
				t.Errorf("%s %s: $%.0f/month (TPOT %.3f s, TTFT %.3f s) against $%.0f at TP 8: want under 0.65× within the SLOs",
					gpu, eng, r.MonthlyCostUSD, r.TPOTSeconds, r.TTFTP95Seconds, base.MonthlyCostUSD)
			}
			if gpu == "b200" && eng == estimator.SGLang && (r.Instances != 5 || base.Instances != 13) {
				t.Errorf("B200 SGLang: %d instances against %d at TP 8, want 5 against 13", r.Instances, base.Instances)
			}
		}
	}
}

// TestDenseGetsNoExpertLayouts: a dense model (Llama 3.1 70B on 8 H100s,
// SGLang) gets the tensor-parallel shapes alone, and a request that names
// its own layout (--dp 8 --ep 8) keeps it: the planner adds no shape.
func TestDenseGetsNoExpertLayouts(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 1024, OutputTokens: 256, TTFTP95Seconds: 2}
	in := modelInput(t, "llama-3.1-70b")
	in.Engine = estimator.SGLang
	o := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	shapes := plan.Shapes(plan.Request{Input: in, Workload: w}, o, -1)
	if len(shapes) == 0 {
		t.Fatal("no shapes")
	}
	for _, s := range shapes {
		if s.DP > 1 || s.EP > 1 {
			t.Errorf("dense model: shape TP %d DP %d EP %d", s.TP, s.DP, s.EP)
		}
	}
	r1 := modelInput(t, "deepseek-r1")
	r1.Weights, r1.Engine = estimator.FP8, estimator.SGLang
	r1.TP, r1.GPUs, r1.DP, r1.EP = 8, 8, 8, 8
	o = gpuOffer(t, "h200-sxm", 8, estimator.FP8)
	shapes = plan.Shapes(plan.Request{Input: r1, Workload: w}, o, -1)
	if len(shapes) != 1 || shapes[0].TP != 8 || shapes[0].DP != 8 || shapes[0].EP != 8 {
		t.Errorf("request at DP 8 EP 8: shapes %+v, want TP 8 DP 8 EP 8 alone", shapes)
	}
}

// TestSGLangDPLayoutsNeedDeepEP: SGLang runs expert parallelism under
// attention DP with DeepEP's all-to-all, which runs on Hopper and Blackwell
// GPUs joined by NVLink (estimator.DeepEPRefusal, the launch's refusal):
// Qwen3-30B-A3B on 8 × H100 SXM gets SGLang's attention-DP layouts, on
// 8 × A100 SXM none (vLLM, whose DP ranks exchange tokens without DeepEP,
// keeps them there).
func TestSGLangDPLayoutsNeedDeepEP(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 1024, OutputTokens: 256, TTFTP95Seconds: 2}
	for _, c := range []struct {
		gpu    string
		engine estimator.Engine
		wantDP bool
	}{
		{"h100-sxm", estimator.SGLang, true},
		{"a100-80gb-sxm", estimator.SGLang, false},
		{"a100-80gb-sxm", estimator.VLLM, true},
	} {
		in := modelInput(t, "qwen3-30b-a3b")
		in.Engine = c.engine
		var dp bool
		for _, s := range plan.Shapes(plan.Request{Input: in, Workload: w}, gpuOffer(t, c.gpu, 8, estimator.BF16), -1) {
			dp = dp || s.DP > 1
		}
		if dp != c.wantDP {
			t.Errorf("%s on %s: attention-DP layouts %v, want %v", c.engine, c.gpu, dp, c.wantDP)
		}
	}
}

// TestExpertLayoutsKeepTheirOwnMemo: copy shapes that differ only in their
// attention-DP and EP layout never share a memory or curve memo entry:
// each shape's figures built after all the others on one planner are
// those it gets on a fresh planner, every shape adds its own entries, and
// the layouts' figures differ (a shared entry would make them equal).
func TestExpertLayoutsKeepTheirOwnMemo(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	req := plan.Request{Input: in, Workload: w}
	o := gpuOffer(t, "b200", 8, estimator.FP8)
	all := plan.Shapes(req, o, -1)
	layouts := map[[2]int]plan.ShapeFigures{}
	for i, s := range all {
		if i > 0 && (s.MemoSC <= all[i-1].MemoSC || s.MemoFit < all[i-1].MemoFit) {
			t.Errorf("shape %d (TP %d DP %d EP %d) shares a curve memo entry: %d entries after it, %d before", i, s.TP, s.DP, s.EP, s.MemoSC, all[i-1].MemoSC)
		}
		alone := plan.Shapes(req, o, i)[i]
		if s.KVMax != alone.KVMax || s.RPS != alone.RPS || s.Headroom != alone.Headroom {
			t.Errorf("shape %d (TP %d DP %d EP %d): %+v after the others, %+v alone", i, s.TP, s.DP, s.EP, s, alone)
		}
		if s.TP == 8 {
			layouts[[2]int{max(s.DP, 1), max(s.EP, 1)}] = s
		}
	}
	tp, dpep, ep := layouts[[2]int{1, 1}], layouts[[2]int{8, 8}], layouts[[2]int{1, 8}]
	if tp.TP == 0 || dpep.TP == 0 || ep.TP == 0 {
		t.Fatalf("TP 8 layouts %v: want DP/EP 1/1, 8/8 and 1/8", layouts)
	}
	if tp.KVMax == dpep.KVMax || tp.RPS == dpep.RPS || ep.RPS == dpep.RPS || tp.RPS == ep.RPS {
		t.Errorf("layouts with equal figures: TP %+v, DP/EP %+v, EP %+v", tp, dpep, ep)
	}
}

// TestWideExpertParallel: DeepSeek-R1 in FP8 does not fit one 8 × H100
// instance (640 GB for 671 GB of weights). Over two instances with 3,200
// Gbit/s between them the planner spreads one copy's attention and
// experts over all 16 GPUs (TP = DP = EP = 16, SGLang's multi-node
// --tp 16 --dp 16 --enable-dp-attention --ep 16), its all-to-all priced
// over the NIC, and rents well under two thirds of the instances the
// pipeline layout (TP 8 × PP 2, the only shape tried before) needs.
// Measured when written: 14 instances against 46. The network matters:
// at a tenth of it over RoCE (320 Gbit/s) the all-to-all costs more than
// the pipeline saves and the planner keeps TP 8 × PP 2; over 320 Gbit/s
// of Ethernet, short of what the wide-EP guides run on, the wide copy is
// not tried at all and the row says why (note.wide_ep_network).
func TestWideExpertParallel(t *testing.T) {
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	// The share the launch command sets (0.9): SGLang's own default
	// reserves 4.5 × 512 × DP MiB a GPU for DP attention, 36 GiB at
	// DP 16, which leaves an 80 GiB GPU no pool (estimator.Input.MemShare).
	in.GPUMemUtil = 0.9
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	ether := gpuOffer(t, "h100-sxm", 8, estimator.FP8)
	ether.NetworkGbps, ether.NetworkFabric = 320, "ethernet"
	if r := serveOne(t, in, ether, w, false); !r.Fits || r.EP > 1 || r.PP != 2 || !hasNote(&r, plan.MsgNoteWideEPNetwork) {
		t.Errorf("320 Gbit/s Ethernet: fits %v, TP %d PP %d EP %d, notes %v: want TP 8 PP 2 and note.wide_ep_network", r.Fits, r.TP, r.PP, r.EP, r.Notes)
	}
	for _, gbps := range []float64{3200, 320} {
		o := gpuOffer(t, "h100-sxm", 8, estimator.FP8)
		o.NetworkGbps = gbps
		if gbps == 320 {
			o.NetworkFabric = "roce"
		}
		res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
		if err != nil || res.Cheapest < 0 {
			t.Fatalf("%v Gbit/s: no plan: %v", gbps, err)
		}
		r := res.Rows[res.Cheapest]
		pp := in
		pp.TP, pp.PP, pp.GPUs = 8, 2, 16
		rp, err := plan.Plan(plan.Request{Input: pp, Workload: w, FixedParallelism: true}, []plan.Offer{o}, plan.Options{})
		if err != nil || rp.Cheapest < 0 {
			t.Fatalf("%v Gbit/s TP 8 PP 2: no plan: %v", gbps, err)
		}
		base := rp.Rows[rp.Cheapest]
		t.Logf("%v Gbit/s: TP %d PP %d DP %d EP %d, %d instances a copy, %d instances ($%.0f/month, %.2f req/s a copy, TPOT %.1f ms) against TP 8 PP 2 on %d",
			gbps, r.TP, r.PP, r.AttnDP, r.EP, r.InstancesPerReplica, r.Instances, r.MonthlyCostUSD, r.SustainableRPSPerReplica, 1000*r.TPOTSeconds, base.Instances)
		if gbps == 3200 {
			if r.TP != 16 || r.AttnDP != 16 || r.EP != 16 || r.PP != 1 || r.InstancesPerReplica != 2 || r.Instances%2 != 0 {
				t.Errorf("picked TP %d PP %d DP %d EP %d over %d instances a copy, want TP = DP = EP = 16 over 2", r.TP, r.PP, r.AttnDP, r.EP, r.InstancesPerReplica)
			}
			if !(r.MonthlyCostUSD < 0.65*base.MonthlyCostUSD) || r.TPOTSeconds > w.TPOTSeconds {
				t.Errorf("$%.0f/month (TPOT %.3f s) against $%.0f at TP 8 PP 2", r.MonthlyCostUSD, r.TPOTSeconds, base.MonthlyCostUSD)
			}
		}
		if gbps == 320 && (r.EP > 1 || r.PP != 2) {
			t.Errorf("320 Gbit/s: picked TP %d PP %d EP %d, want TP 8 PP 2: the all-to-all over the network is not priced", r.TP, r.PP, r.EP)
		}
	}
}

// TestWideExpertParallelAtTheEngineDefault: with no --gpu-mem-util,
// SGLang's default --mem-fraction-static leaves DeepSeek-R1 FP8 no KV
// pool at attention DP 16 on 80 GB H100s (estimator.EngineShareFor), so
// before the planner set the recipes' share itself its only layout on
// 8-GPU H100 instances was TP 8 × PP 2 (26 copies of 16 GPUs at 100
// req/s, 3.28 req/s a copy). Now the wide layout is tried at the share
// InferenceX's H100 DeepSeek-R1 recipes set, 0.85, the row says so and
// carries it (Row.MemShare), and at 3,200 Gbit/s it is picked; vLLM's
// default share fits already and is left alone.
func TestWideExpertParallelAtTheEngineDefault(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	o := gpuOffer(t, "h100-sxm", 8, estimator.FP8)
	o.NetworkGbps = 3200
	for _, eng := range []estimator.Engine{estimator.SGLang, estimator.VLLM} {
		in := modelInput(t, "deepseek-r1")
		in.Weights, in.Engine = estimator.FP8, eng
		res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
		if err != nil || res.Cheapest < 0 {
			t.Fatalf("%v: no plan: %v", eng, err)
		}
		r := res.Rows[res.Cheapest]
		t.Logf("%v: TP %d PP %d DP %d EP %d over %d instances, share %v, %.2f req/s a copy, %d instances",
			eng, r.TP, r.PP, r.AttnDP, r.EP, r.InstancesPerReplica, r.MemShare, r.SustainableRPSPerReplica, r.Instances)
		if r.TP != 16 || r.AttnDP != 16 || r.EP != 16 || r.PP != 1 || r.InstancesPerReplica != 2 {
			t.Errorf("%v: picked TP %d PP %d DP %d EP %d over %d instances, want TP = DP = EP = 16 over 2", eng, r.TP, r.PP, r.AttnDP, r.EP, r.InstancesPerReplica)
		}
		noted := false
		for _, n := range r.Notes {
			noted = noted || n.Key == plan.MsgNoteMemShare
		}
		switch eng {
		case estimator.SGLang:
			if r.MemShare != estimator.SGLangDPAttentionMemFraction || !noted {
				t.Errorf("SGLang: share %v, noted %v: want %v, noted", r.MemShare, noted, estimator.SGLangDPAttentionMemFraction)
			}
			if r.SustainableRPSPerReplica < 2*3.28 {
				t.Errorf("SGLang: %.2f req/s a copy, want well above TP 8 × PP 2's 3.28", r.SustainableRPSPerReplica)
			}
		default:
			if r.MemShare != 0 || noted {
				t.Errorf("%v: share %v, noted %v: its default fits, want none", eng, r.MemShare, noted)
			}
		}
	}
}

// TestFixedWideLayoutAtTheEngineShare: the user's own SGLang layout of
// DeepSeek-R1 at TP = DP = EP = 16 on two 8-GPU H100 instances fits at
// the share the planner's own wide layouts take (layoutFits); it read
// "needs more than 64 instances" on every offer, as if more instances
// could help a copy whose size the user fixed.
func TestFixedWideLayoutAtTheEngineShare(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 5, PromptTokens: 1024, OutputTokens: 1024}
	o := gpuOffer(t, "h100-sxm", 8, estimator.FP8)
	o.NetworkGbps = 3200
	in := modelInput(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	in.GPUs, in.TP, in.PP, in.DP, in.EP = 16, 16, 1, 16, 16
	res, err := plan.Plan(plan.Request{Input: in, Workload: w, FixedParallelism: true}, []plan.Offer{o}, plan.Options{KeepUnfit: true})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("no plan (%v): %+v", err, res.Rows[0].FitReason)
	}
	r := res.Rows[res.Cheapest]
	if r.TP != 16 || r.AttnDP != 16 || r.EP != 16 || r.InstancesPerReplica != 2 || r.MemShare != estimator.SGLangDPAttentionMemFraction {
		t.Errorf("TP %d DP %d EP %d over %d instances at share %v; want the layout given over 2 at %v", r.TP, r.AttnDP, r.EP, r.InstancesPerReplica, r.MemShare, estimator.SGLangDPAttentionMemFraction)
	}
}

// TestSGLangLaysOutNoDPAttentionForMixtral: the planner lays out SGLang's
// attention data parallelism only for the model types SGLang runs it for
// (estimator.SGLangDPAttention, judged by estimator.DeepEPRefusal): on
// 8 × H200 at 200 requests/s Mixtral 8x7B's cheapest vLLM copy runs
// attention DP with EP, its SGLang copy does not (SGLang's Mixtral splits
// attention over the whole TP group).
func TestSGLangLaysOutNoDPAttentionForMixtral(t *testing.T) {
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 200, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	for _, eng := range []estimator.Engine{estimator.VLLM, estimator.SGLang} {
		in := modelInput(t, "mixtral-8x7b")
		in.Engine, in.GPUMemUtil = eng, 0.9
		o := gpuOffer(t, "h200-sxm", 8, in.Weights)
		res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{})
		if err != nil || res.Cheapest < 0 {
			t.Fatalf("%v: no plan: %v", eng, err)
		}
		r := res.Rows[res.Cheapest]
		t.Logf("%v: TP %d DP %d EP %d on %d instances", eng, r.TP, r.AttnDP, r.EP, r.Instances)
		if dp := r.AttnDP > 1; dp != (eng == estimator.VLLM) {
			t.Errorf("%v: picked TP %d DP %d EP %d", eng, r.TP, r.AttnDP, r.EP)
		}
	}
}

// TestNoCopyOverSmallVMs: Qwen3-30B-A3B in fp16 (61 GB of weights) fits
// no instance of one or four T4s (16 GB each). Before a serving copy
// needed NVLink nodes to span instances (serveInstLimit), the planner
// rented eight single-T4 g4dn.2xlarge VMs as one DP 8 / EP 8 copy over
// their 10 Gbit/s NICs, and four-T4 g4dn.12xlarge pairs likewise; now
// those rows say why not (fit.span_node) and the pick is the one
// instance of eight T4s, g4dn.metal (AWS prices, us-east-1). An 8 × H100
// node on a stated 3,200 Gbit/s EFA network still spans: DeepSeek-R1 in
// FP8 runs its wide expert-parallel copy over two of them.
func TestNoCopyOverSmallVMs(t *testing.T) {
	in := modelInput(t, "qwen3-30b-a3b")
	in.Weights = estimator.FP16
	var offers []plan.Offer
	for _, c := range []struct {
		name  string
		gpus  float64
		gbps  float64
		price float64
	}{{"g4dn.2xlarge", 1, 10, 0.752}, {"g4dn.12xlarge", 4, 50, 3.912}, {"g4dn.metal", 8, 100, 7.824}} {
		o := gpuOffer(t, "t4", c.gpus, estimator.FP16)
		o.ID, o.InstanceType, o.NetworkGbps, o.NetworkFabric, o.OnDemandPerHour = c.name, c.name, c.gbps, "ethernet", c.price
		offers = append(offers, o)
	}
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 1, PromptTokens: 1000, OutputTokens: 200}
	res, err := plan.Plan(plan.Request{Input: in, Workload: w}, offers, plan.Options{KeepUnfit: true})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("no plan: %v", err)
	}
	if r := res.Rows[res.Cheapest]; r.Offer.ID != "g4dn.metal" || r.InstancesPerReplica != 1 || r.TP != 8 {
		t.Errorf("picked %s, TP %d, %d instances a copy; want g4dn.metal, TP 8 on one instance", r.Offer.ID, r.TP, r.InstancesPerReplica)
	}
	for _, r := range res.Rows {
		if r.Offer.ID != "g4dn.metal" && (r.Fits || r.FitReason.Key != plan.MsgFitSpanNode) {
			t.Errorf("%s: fits %v over %d instances a copy (%v), want fit.span_node", r.Offer.ID, r.Fits, r.InstancesPerReplica, r.FitReason)
		}
	}
	r1 := modelInput(t, "deepseek-r1")
	r1.Weights, r1.Engine, r1.GPUMemUtil = estimator.FP8, estimator.SGLang, 0.9
	p5 := gpuOffer(t, "h100-sxm", 8, estimator.FP8)
	p5.NetworkGbps, p5.NetworkFabric = 3200, "efa"
	wr := plan.Workload{RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	if r := serveOne(t, r1, p5, wr, false); !r.Fits || r.EP != 16 || r.InstancesPerReplica != 2 {
		t.Errorf("DeepSeek-R1 on 8 × H100 over EFA: fits %v, TP %d PP %d EP %d over %d instances (%v), want EP 16 over 2", r.Fits, r.TP, r.PP, r.EP, r.InstancesPerReplica, r.FitReason)
	}
}

// TestWideEPNotOverTCPXO: GCP's A3 High and Mega (GPUDirect-TCPX and
// -TCPXO, a TCP offload NCCL reaches through Google's plugin) do not carry
// DeepEP's internode kernels, which need GPUDirect RDMA through NVSHMEM
// (wideNetwork's sources): DeepSeek-R1 at 100 requests/s there runs as
// TP 8 × PP 2, and the row's note names the reason, where AWS p5 (EFA)
// spreads the experts.
func TestWideEPNotOverTCPXO(t *testing.T) {
	req, offers := catalogRequest(t, "deepseek-r1")
	req.Input.Weights, req.Input.Engine = estimator.FP8, estimator.SGLang
	req.Workload = plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024, TTFTP95Seconds: 2, TPOTSeconds: 0.05}
	var some []plan.Offer
	for _, o := range offers {
		switch o.ID {
		case "gcp-a3-highgpu-8g", "gcp-a3-megagpu-8g", "aws-p5.48xlarge":
			some = append(some, o)
		}
	}
	if len(some) != 3 {
		t.Fatalf("%d of the 3 offers in the catalog", len(some))
	}
	res, err := plan.Plan(req, some, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if !r.Fits {
			t.Errorf("%s: does not fit", r.Offer.ID)
			continue
		}
		if r.Offer.Provider == "aws" {
			if r.EP < 16 {
				t.Errorf("%s: EP %d over EFA", r.Offer.ID, r.EP)
			}
			continue
		}
		i := slices.IndexFunc(r.Notes, func(n plan.Reason) bool { return n.Key == plan.MsgNoteWideEPNetwork })
		if r.EP > 1 || r.PP != 2 || i < 0 || !strings.Contains(r.Notes[i].String(), "GPUDirect-TCPX/TCPXO carry NCCL only") {
			t.Errorf("%s: TP %d PP %d EP %d, notes %v", r.Offer.ID, r.TP, r.PP, r.EP, r.Notes)
		}
	}
}
