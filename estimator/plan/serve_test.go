package plan_test

import (
	"math"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// gpuOffer is a one-instance offer of n catalog GPUs at $1/h.
func gpuOffer(t testing.TB, gpu string, n float64, w estimator.DType) plan.Offer {
	t.Helper()
	g, ok := catalog.Default().GPU(gpu)
	if !ok {
		t.Fatalf("no GPU %s", gpu)
	}
	hw, ok := g.Hardware(w)
	if !ok {
		t.Fatalf("no figures for %s", gpu)
	}
	ic := "pcie"
	if n > 1 {
		ic = g.Interconnect
	}
	return plan.Offer{ID: "test-" + gpu, Provider: "test", InstanceType: gpu, GPU: gpu, GPUCount: n, Interconnect: ic,
		OnDemandPerHour: 1, Currency: "USD", Hardware: hw, HasHardware: true, GPUMemory: g.Memory, VCPUs: int(16 * math.Max(n, 1)), RAMGiB: 128 * math.Max(n, 1)}
}

func modelInput(t testing.TB, id string) estimator.Input {
	t.Helper()
	m, ok := catalog.Default().Model(id)
	if !ok {
		t.Fatalf("no model %s", id)
	}
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	m.ScaleContext(&a) // as the CLI and the page read a catalog model
	return estimator.DefaultInput(a)
}

// serveOne plans serving on one offer and returns its row.
func serveOne(t testing.TB, in estimator.Input, o plan.Offer, w plan.Workload, fixed bool) plan.Row {
	t.Helper()
	w.Kind = plan.Serving
	res, err := plan.Plan(plan.Request{Input: in, Workload: w, FixedParallelism: fixed}, []plan.Offer{o}, plan.Options{KeepUnfit: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	return res.Rows[0]
}

// TestServingVLLMCurves checks the serving model against the SGLang team's
// benchmark of vLLM v0.6.0 (and SGLang v0.3.0) on ShareGPT at 4 and 8
// requests/s (github.com/sgl-project/sglang benchmark/benchmark_vllm_060/
// README.md @120affb9; estimator/testdata/calibration/public-2026-11/
// sglang_benchmark_docs.json): median TPOT, and the offline maximum
// request rate. The output length, 194 tokens, is the README's offline
// output tokens/s over requests/s (4132.37 / 21.27); the prompt lengths
// are not published, so 256 tokens is assumed and the bracket 128–512
// must contain every measurement.
func TestServingVLLMCurves(t *testing.T) {
	in8 := modelInput(t, "llama-3.1-8b")
	in8.Engine = estimator.VLLM
	in70 := modelInput(t, "llama-3.1-70b")
	in70.Engine, in70.GPUs, in70.TP = estimator.VLLM, 4, 4
	a100 := gpuOffer(t, "a100-80gb-sxm", 1, estimator.BF16)
	h100 := gpuOffer(t, "h100-sxm", 4, estimator.BF16)
	const out = 194
	for _, c := range []struct {
		name         string
		in           estimator.Input
		o            plan.Offer
		fixed        bool
		rps          float64
		tpotMs       float64 // vLLM median TPOT
		offlineReqPS float64 // vLLM offline request throughput
	}{
		{"llama-3.1-8b a100 4 req/s", in8, a100, false, 4, 14.14, 21.27},
		{"llama-3.1-8b a100 8 req/s", in8, a100, false, 8, 17.09, 21.27},
		{"llama-3.1-70b 4×h100 4 req/s", in70, h100, true, 4, 23.58, 19.04},
		{"llama-3.1-70b 4×h100 8 req/s", in70, h100, true, 8, 29.15, 19.04},
	} {
		var tpot, raw [3]float64
		for i, prompt := range []int{128, 256, 512} {
			w := plan.Workload{RequestsPerSecond: c.rps, PromptTokens: prompt, OutputTokens: out}
			r := serveOne(t, c.in, c.o, w, c.fixed)
			if !r.Fits || r.Replicas != 1 {
				t.Fatalf("%s: fits %v, replicas %d (%v)", c.name, r.Fits, r.Replicas, r.FitReason)
			}
			w.MaxUtilisation = 1 // no SLO, no cap: the raw capacity
			tpot[i] = 1000 * r.TPOTSeconds
			raw[i] = serveOne(t, c.in, c.o, w, c.fixed).SustainableRPSPerReplica
		}
		t.Logf("%s: TPOT %.1f ms (measured %.2f); offline %.1f req/s (measured %.2f)", c.name, tpot[1], c.tpotMs, raw[1], c.offlineReqPS)
		if e := tpot[1]/c.tpotMs - 1; math.Abs(e) > 0.25 {
			t.Errorf("%s: TPOT %.2f ms, measured %.2f: %+.0f%%, want within ±25%%", c.name, tpot[1], c.tpotMs, 100*e)
		}
		if e := raw[1]/c.offlineReqPS - 1; math.Abs(e) > 0.40 {
			t.Errorf("%s: offline %.2f req/s, measured %.2f: %+.0f%%, want within ±40%%", c.name, raw[1], c.offlineReqPS, 100*e)
		}
		if !(tpot[0]*0.75 <= c.tpotMs && c.tpotMs <= tpot[2]*1.25) || !(raw[2]*0.6 <= c.offlineReqPS && c.offlineReqPS <= raw[0]*1.4) {
			t.Errorf("%s: prompts 128–512 give TPOT %.1f–%.1f ms and %.1f–%.1f req/s, not bracketing %.2f ms and %.2f req/s",
				c.name, tpot[0], tpot[2], raw[2], raw[0], c.tpotMs, c.offlineReqPS)
		}
	}
}

// TestServingLatencyGrowsWithRate: more load, longer TPOT and TTFT, more
// concurrency, until a second replica is needed.
func TestServingLatencyGrowsWithRate(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	o := gpuOffer(t, "l4", 1, estimator.BF16)
	var prev plan.Row
	for _, rps := range []float64{0.25, 0.5, 1, 1.5, 2} {
		r := serveOne(t, in, o, plan.Workload{RequestsPerSecond: rps, PromptTokens: 500, OutputTokens: 200}, false)
		if !r.Fits {
			t.Fatalf("%v req/s: %v", rps, r.FitReason)
		}
		if r.Replicas == prev.Replicas && (r.TPOTSeconds < prev.TPOTSeconds || r.TTFTP95Seconds < prev.TTFTP95Seconds || r.Concurrency <= prev.Concurrency) {
			t.Errorf("%v req/s: TPOT %v TTFT95 %v conc %v after %v %v %v", rps, r.TPOTSeconds, r.TTFTP95Seconds, r.Concurrency,
				prev.TPOTSeconds, prev.TTFTP95Seconds, prev.Concurrency)
		}
		if r.TTFTP95Seconds < r.TTFTP50Seconds || r.Utilisation > 0.8+1e-9 {
			t.Errorf("%v req/s: p95 %v < p50 %v or utilisation %v over the cap", rps, r.TTFTP95Seconds, r.TTFTP50Seconds, r.Utilisation)
		}
		prev = r
	}
}

// TestServingSLOReasons: a plan that no replica can serve says why.
func TestServingSLOReasons(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	o := gpuOffer(t, "l4", 1, estimator.BF16)
	for _, c := range []struct {
		w   plan.Workload
		key plan.Msg
	}{
		// Prefilling 8000 tokens on one L4 takes longer than 100 ms.
		{plan.Workload{RequestsPerSecond: 1, PromptTokens: 8000, OutputTokens: 100, TTFTP95Seconds: 0.1}, plan.MsgSLOTTFTPrefill},
		// An 8B bf16 model reads 16 GB per step: at 300 GB/s that is > 5 ms.
		{plan.Workload{RequestsPerSecond: 1, PromptTokens: 100, OutputTokens: 100, TPOTSeconds: 0.005}, plan.MsgSLOTPOTBandwidth},
	} {
		r := serveOne(t, in, o, c.w, false)
		if r.Fits || r.FitReason.Key != c.key {
			t.Errorf("%+v: fits %v, reason %v, want %s", c.w, r.Fits, r.FitReason, c.key)
		}
	}
}

// TestPipelineAcrossInstances: Llama 3.1 405B in bf16 (810 GB of
// weights) does not fit one 8 × H100 instance (640 GB), so each replica
// spans instances as pipeline stages, TP 8 inside each node, as vLLM's
// multi-node guide runs it (vLLM docs, "Distributed Inference and
// Serving") — given a stated network between them (serveInstLimit).
// Mistral-7B in bf16 does not fit one 16 GB T4, and a copy is never split
// over single-T4 VMs, whatever their network, nor given as the layout:
// "no offer" there, an instance with more T4s or a larger GPU elsewhere.
func TestPipelineAcrossInstances(t *testing.T) {
	w := plan.Workload{RequestsPerSecond: 2, PromptTokens: 500, OutputTokens: 200}
	in := modelInput(t, "llama-3.1-405b")
	o := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	for _, c := range []struct {
		gbps   float64
		fabric string
		key    plan.Msg // the fit reason; NoMsg fits
	}{
		{0, "", plan.MsgFitNoFabric},
		{100, "ethernet", plan.NoMsg},
		{3200, "infiniband", plan.NoMsg},
	} {
		o.NetworkGbps, o.NetworkFabric = c.gbps, c.fabric
		r := serveOne(t, in, o, w, false)
		if c.key != plan.NoMsg {
			if r.Fits || r.FitReason.Key != c.key {
				t.Errorf("%v Gbit/s %q: fits %v (%v), want %s", c.gbps, c.fabric, r.Fits, r.FitReason, c.key)
			}
			continue
		}
		if !r.Fits || r.TP != 8 || r.PP < 2 || r.InstancesPerReplica != r.PP || r.Instances != r.PP*r.Replicas {
			t.Errorf("%v Gbit/s %q: fits %v, TP %d PP %d, %d instances per replica, %d instances (%v)", c.gbps, c.fabric, r.Fits, r.TP, r.PP, r.InstancesPerReplica, r.Instances, r.FitReason)
		}
	}
	t4 := gpuOffer(t, "t4", 1, estimator.FP16)
	t4.NetworkGbps, t4.NetworkFabric = 100, "ethernet"
	mistral := modelInput(t, "mistral-7b-v0.1")
	if r := serveOne(t, mistral, t4, w, false); r.Fits || r.FitReason.Key != plan.MsgFitSpanNode {
		t.Errorf("single-T4 VMs: fits %v, TP %d PP %d over %d instances (%v), want fit.span_node", r.Fits, r.TP, r.PP, r.InstancesPerReplica, r.FitReason)
	}
	// The same pipeline given as the layout (--tp 1 --pp 2).
	mistral.GPUs, mistral.TP, mistral.PP = 2, 1, 2
	if r := serveOne(t, mistral, t4, w, true); r.Fits || r.FitReason.Key != plan.MsgFitSpanNode {
		t.Errorf("TP 1 PP 2 on single-T4 VMs: fits %v over %d instances (%v), want fit.span_node", r.Fits, r.InstancesPerReplica, r.FitReason)
	}
}

// TestServingIsTheSpeedModel: a serving row is the speed model's replica
// at the row's concurrency: its TPOT is estimator.ServingPoint's there
// (the curve interpolates samples, so within a few per cent), and the
// concurrency obeys Little's law, c = λ × (TTFT + out × TPOT).
func TestServingIsTheSpeedModel(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	o := gpuOffer(t, "a100-80gb-sxm", 1, estimator.BF16)
	for _, rps := range []float64{1, 4, 8} {
		w := plan.Workload{RequestsPerSecond: rps, PromptTokens: 256, OutputTokens: 194}
		r := serveOne(t, in, o, w, false)
		if !r.Fits || r.Replicas != 1 {
			t.Fatalf("%v req/s: fits %v, %d replicas", rps, r.Fits, r.Replicas)
		}
		if got := rps * (r.TTFTP50Seconds + 194*r.TPOTSeconds); math.Abs(got/r.Concurrency-1) > 0.01 {
			t.Errorf("%v req/s: λ(TTFT + out·TPOT) = %v in flight, row says %v", rps, got, r.Concurrency)
		}
		x := in
		x.GPUs, x.TP, x.PP, x.VRAM = 1, 1, 1, o.GPUMemory
		sp, err := estimator.ServingPoint(x, o.Hardware, estimator.Efficiency{}, estimator.Workload{PromptTokens: 256, OutputTokens: 194}, int(math.Round(r.Concurrency)))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.TPOTSeconds/sp.TPOTSeconds-1) > 0.05 {
			t.Errorf("%v req/s at %.1f in flight: TPOT %v s, ServingPoint %v s", rps, r.Concurrency, r.TPOTSeconds, sp.TPOTSeconds)
		}
	}
}

// TestServingKeepsContinuousBatchingEngine: a serving plan runs on the
// engine the request names when it batches continuously (SGLang and
// TensorRT-LLM have their own schedulers in the simulator), and on vLLM,
// with a note saying so, when it does not (HF transformers).
func TestServingKeepsContinuousBatchingEngine(t *testing.T) {
	ttft := map[estimator.Engine]float64{}
	for _, c := range []struct {
		engine, want estimator.Engine
		note         bool
	}{{estimator.SGLang, estimator.SGLang, false}, {estimator.TRTLLM, estimator.TRTLLM, false}, {estimator.VLLM, estimator.VLLM, false}, {estimator.HF, estimator.VLLM, true}} {
		req, offers := servingRequest(t)
		req.Input.Engine = c.engine
		res, err := plan.Plan(req, offers, plan.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Cheapest < 0 {
			t.Fatalf("%v: no plan", c.engine)
		}
		r := res.Rows[res.Cheapest]
		if r.Engine != c.want {
			t.Errorf("%v: planned on %v, want %v", c.engine, r.Engine, c.want)
		}
		noted := false
		for _, n := range res.Notes {
			noted = noted || n.Key == plan.MsgNoteServingEngine
		}
		if noted != c.note {
			t.Errorf("%v: note that serving runs on vLLM: %v, want %v", c.engine, noted, c.note)
		}
		ttft[c.engine] = r.TTFTP95Seconds
	}
	// The engines' schedulers differ (their per-request costs, cited in
	// estimator/sim), so their quoted p95 TTFTs do.
	if ttft[estimator.SGLang] == ttft[estimator.VLLM] || ttft[estimator.TRTLLM] == ttft[estimator.VLLM] {
		t.Errorf("p95 TTFT: vLLM %v, SGLang %v, TensorRT-LLM %v s: the engines' schedulers gave one answer", ttft[estimator.VLLM], ttft[estimator.SGLang], ttft[estimator.TRTLLM])
	}
}

// A one-token answer (a label, a score) comes out of its prompt's last
// prefill step: it has no TPOT, a TPOT target does not bind it, and the
// bill is the prompt's, per input token, with nothing left to price per
// output token (the planner's $/1M output was the decode share of a
// decode that never runs, beside a TPOT of 0).
func TestOneTokenOutputs(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	all := catalog.Default().PlanOffers(estimator.BF16)
	var offers []plan.Offer
	for i := 0; i < len(all); i += 20 {
		offers = append(offers, all[i])
	}
	const lam, prompt = 5.0, 500
	for _, tpot := range []float64{0, 1e-6} {
		w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: lam, PromptTokens: prompt, OutputTokens: 1, TPOTSeconds: tpot}
		res := mustPlan(t, plan.Request{Input: in, Workload: w}, offers, plan.Options{})
		if res.Fitting < 20 {
			t.Fatalf("TPOT target %g s: %d of %d offers fit", tpot, res.Fitting, res.Considered)
		}
		for _, r := range res.Rows {
			perSec := r.MonthlyCostUSD / (plan.HoursPerMonth * 3600)
			if r.TPOTSeconds != 0 || r.USDPerMillionOutput != 0 || !closeTo(r.USDPerMillionInput*lam*prompt/1e6, perSec) {
				t.Errorf("%s: TPOT %g s, %g USD per 1M output and %g per 1M input for %g USD/s", r.Offer.ID, r.TPOTSeconds,
					r.USDPerMillionOutput, r.USDPerMillionInput, perSec)
			}
		}
	}
}
