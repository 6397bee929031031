package plan_test

import (
	"math"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// A serving plan quotes what the engine simulator gives for its replica
// count at the requested rate (the planner's self-consistency), its
// replica count is the fewest whose simulated p95 TTFT and TPOT meet the
// SLOs, and where both apply the closed-form curve agrees with it on TPOT.
func TestServingPlanIsTheSimulator(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	o := gpuOffer(t, "a100-80gb-sxm", 1, estimator.BF16)
	const lam = 12.0
	w := plan.Workload{RequestsPerSecond: lam, PromptTokens: 1000, OutputTokens: 200, TTFTP95Seconds: 0.4, TPOTSeconds: 0.05}
	r := serveOne(t, in, o, w, false)
	if !r.Fits || r.TP != 1 {
		t.Fatalf("fits %v (%v), TP %d", r.Fits, r.FitReason, r.TP)
	}
	// The same replica, simulated directly.
	x := in
	x.GPUs, x.TP, x.PP, x.VRAM, x.Batch = 1, 1, 1, o.GPUMemory, 1
	cfg, err := sim.NewConfig(x, o.Hardware, estimator.Efficiency{}, estimator.Workload{PromptTokens: 1000, OutputTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Load.Requests, cfg.Load.Seed, cfg.Load.RangeRatio = 150, 1, 1
	at := func(k int) sim.Result {
		c := cfg
		c.Load.RatePerSecond = lam / float64(k)
		res, err := sim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	got := at(r.Replicas)
	t.Logf("%d replicas at %g req/s: p95 TTFT %.3f s, TPOT %.4f s, %.1f in flight; binding %s, engine limit %s", r.Replicas, lam,
		got.TTFT.P95, got.TPOT.P95, r.Concurrency, r.Binding, r.EngineLimit)
	if r.TTFTP95Seconds != got.TTFT.P95 || r.TTFTP50Seconds != got.TTFT.P50 || r.TPOTSeconds != got.TPOT.Mean {
		t.Errorf("%d replicas: plan quotes TTFT p50/p95 %.4f/%.4f s, TPOT %.4f s; the simulator gives %.4f/%.4f s, %.4f s",
			r.Replicas, r.TTFTP50Seconds, r.TTFTP95Seconds, r.TPOTSeconds, got.TTFT.P50, got.TTFT.P95, got.TPOT.Mean)
	}
	// What set the count is named: with 4 or more replicas at this rate,
	// an SLO figure or the utilisation cap, and the engine limit of the
	// deployed run.
	if r.Replicas > 1 && r.Binding == sim.BindNone || r.EngineLimit != got.Limit {
		t.Errorf("binding %s, engine limit %s (the run's: %s)", r.Binding, r.EngineLimit, got.Limit)
	}
	if got.TTFT.P95 > w.TTFTP95Seconds || got.TPOT.P95 > w.TPOTSeconds {
		t.Errorf("%d replicas miss the SLO: p95 TTFT %.3f s, TPOT %.4f s", r.Replicas, got.TTFT.P95, got.TPOT.P95)
	}
	if r.Replicas > 1 && r.Utilisation < plan.DefaultMaxUtilisation*float64(r.Replicas-1)/float64(r.Replicas) {
		// Fewer replicas would also stay under the utilisation cap: they
		// must miss the SLO.
		if fewer := at(r.Replicas - 1); fewer.TTFT.P95 <= w.TTFTP95Seconds && fewer.TPOT.P95 <= w.TPOTSeconds {
			t.Errorf("%d replicas meet the SLO too", r.Replicas-1)
		}
	}
	// The closed form at the row's concurrency gives about the same TPOT.
	sp, err := estimator.ServingPoint(x, o.Hardware, estimator.Efficiency{}, estimator.Workload{PromptTokens: 1000, OutputTokens: 200},
		max(1, int(math.Round(r.Concurrency))))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.TPOTSeconds/sp.TPOTSeconds-1) > 0.15 {
		t.Errorf("at %.1f in flight: simulated TPOT %.4f s, closed form %.4f s", r.Concurrency, r.TPOTSeconds, sp.TPOTSeconds)
	}
}
