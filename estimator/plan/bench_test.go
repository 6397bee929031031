package plan_test

import (
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// catalogRequest is a request on a catalog model with every catalog offer.
func catalogRequest(tb testing.TB, model string) (plan.Request, []plan.Offer) {
	tb.Helper()
	cat := catalog.Default()
	m, ok := cat.Model(model)
	if !ok {
		tb.Fatalf("no model %s", model)
	}
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		tb.Fatal(err)
	}
	in := estimator.DefaultInput(a)
	return plan.Request{Input: in, FX: cat.PlanFX()}, cat.PlanOffers(in.Weights)
}

func trainingRequest(tb testing.TB) (plan.Request, []plan.Offer) {
	req, offers := catalogRequest(tb, "llama-3.1-70b")
	req.Input.Task, req.Input.ZeRO, req.Input.GradCheckpointing, req.Input.Seq = estimator.FullFinetune, 3, true, 2048
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e9}
	return req, offers
}

// pretrainingRequest is a 405B pre-train with the ZeRO stage left open:
// the planner chooses the layout for each shape it tries.
func pretrainingRequest(tb testing.TB) (plan.Request, []plan.Offer) {
	req, offers := catalogRequest(tb, "llama-3.1-405b")
	req.Input.Task, req.Input.Seq, req.ZeROOpen = estimator.Pretrain, 8192, true
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 15.6e12}
	return req, offers
}

func servingRequest(tb testing.TB) (plan.Request, []plan.Offer) {
	req, offers := catalogRequest(tb, "mistral-7b-v0.1")
	req.Workload = plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 500, OutputTokens: 200, TTFTP95Seconds: 1}
	return req, offers
}

// BenchmarkPlan plans over the whole catalog (every offer) for a training
// and a serving job; the page re-plans on every keystroke.
func BenchmarkPlan(b *testing.B) {
	for _, c := range []struct {
		name string
		mk   func(testing.TB) (plan.Request, []plan.Offer)
	}{{"training", trainingRequest}, {"pretraining", pretrainingRequest}, {"serving", servingRequest}} {
		req, offers := c.mk(b)
		if len(offers) < 1100 {
			b.Fatalf("catalog has %d offers, want ≥ 1100", len(offers))
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			start, n := cpuTime(), 0
			for b.Loop() {
				if _, err := plan.Plan(req, offers, plan.Options{}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			// CPU time per plan (all threads, the GC's included): the
			// wall-clock ns/op also counts other processes' turns on a
			// shared machine.
			if cpu := cpuTime() - start; cpu > 0 && n > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
			}
		})
	}
}
