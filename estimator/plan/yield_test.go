package plan_test

import (
	"reflect"
	"sync/atomic"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// pageRequest is the request the page makes for model (its defaults:
// estimator.DefaultInput with one context-, data- and expert-parallel
// rank, the ZeRO stage and the batch engine left to the planner, the
// providers a visitor is shown, a 180-day freshness window) for workload
// w, with every catalog offer.
func pageRequest(tb testing.TB, model string, task estimator.Task, w plan.Workload) (plan.Request, []plan.Offer) {
	tb.Helper()
	req, offers := catalogRequest(tb, model)
	req.Input.CP, req.Input.EP, req.Input.DP, req.Input.Task = 1, 1, 1, task
	req.ZeROOpen, req.EngineOpen, req.Workload = true, true, w
	req.Filters.Kinds, req.FreshnessDays = []string{"hyperscaler", "gpu-cloud", "broker"}, 180
	return req, offers
}

// maxStretchEvaluations bounds the estimates, serving-curve points and
// simulated runs the planner makes between two yields. The page runs the
// planner on the browser's only thread and gives it back at the first
// yield after it has held it for page.YieldEvery (12 ms), so a stretch
// between two yields runs whole, past the 50 ms of a long task if it is
// long. The longest stretches were one offer's whole row, yielded only
// between offers: 10 evaluations for the default batch job (its
// scale-out ladder), 49 for a full fine-tune (its layouts, their
// doublings and the memory margin's re-plan), 29 for LoRA, 100 for
// pre-training, 247 for pre-training Llama 3.1 70B (4.8–7.3 ms of one
// thread's CPU natively, 2026-11-30; WebAssembly is several times
// slower) and 21 for serving DeepSeek-R1 (its expert-parallel layouts).
// With a yield before each layout search, split, doubling, rung, curve,
// TP and simulated run, the same plans stretch at most 7 (Llama 3.1 70B:
// 0.34–0.39 ms). The ranking and the picks make no evaluations; they
// yield between their steps.
const maxStretchEvaluations = 8

// TestYieldStretches: the page's default serving, batch and training
// plans (and pre-training of a 70B model and serving DeepSeek-R1, the
// heaviest searches) never hold the thread past maxStretchEvaluations
// between yields: a count, not a time, so that a busy machine does not
// fail it (the page's own figure is app/page's BenchmarkPlanStretch
// compiled to WebAssembly).
func TestYieldStretches(t *testing.T) {
	const (
		prompt, output = 1536, 512 // the page's sequence of 2,048 and its 512 generated tokens
	)
	serving := func(rps float64) plan.Workload {
		return plan.Workload{Kind: plan.Serving, PromptTokens: prompt, OutputTokens: output, RequestsPerSecond: rps,
			TTFTP95Seconds: plan.DefaultTTFTSeconds, TPOTSeconds: plan.DefaultTPOTSeconds}
	}
	training := plan.Workload{Kind: plan.Training, TrainTokens: 1e9}
	cases := []struct {
		name, model string
		task        estimator.Task
		w           plan.Workload
		unknownNets bool // Assumptions.UnknownNetworks
	}{
		{"batch", "llama-3.1-8b", estimator.Inference, plan.Workload{Kind: plan.Batch, PromptTokens: prompt, OutputTokens: output, Requests: 100000}, false},
		{"serving", "llama-3.1-8b", estimator.Inference, serving(20), false},
		{"finetune", "llama-3.1-8b", estimator.FullFinetune, training, false},
		{"lora", "llama-3.1-8b", estimator.LoRA, training, false},
		{"pretrain", "llama-3.1-8b", estimator.Pretrain, training, false},
		{"pretrain-70b", "llama-3.1-70b", estimator.Pretrain, training, false},
		// Unknown networks allowed: the wide expert-parallel copies are
		// searched over the 8-GPU offers whose network the catalog leaves
		// unstated too, not only over the few on a stated RDMA fabric.
		{"serving-r1", "deepseek-r1", estimator.Inference, serving(100), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, offers := pageRequest(t, c.model, c.task, c.w)
			req.Assumptions.UnknownNetworks = c.unknownNets
			st, err := plan.Stretches(req, offers)
			if err != nil {
				t.Fatal(err)
			}
			var most, total int
			var at string
			for _, s := range st {
				total += s.Evaluations
				if s.Evaluations > most {
					most, at = s.Evaluations, s.After
				}
			}
			// Each plan evaluates hundreds of shapes over the catalog: a
			// count that sees fewer does not see the planner's work.
			if total < 400 {
				t.Fatalf("%d evaluations over %d stretches, want ≥ 400", total, len(st))
			}
			if most > maxStretchEvaluations {
				t.Errorf("%d evaluations between two yields (after %s), want ≤ %d", most, at, maxStretchEvaluations)
			}
			t.Logf("%d evaluations over %d stretches, at most %d (after %s)", total, len(st), most, at)
		})
	}
}

// TestFleetYieldChangesNothing: a daily fleet's plan (the page's daily
// load, planned with its yield) is the same with Options.Yield as
// without, and the yield is called. Its sizing runs on several goroutines
// natively (parallel), so the count is atomic.
func TestFleetYieldChangesNothing(t *testing.T) {
	req, offers := servingRequest(t)
	fo := plan.FleetOptions{Curve: chatCurve, Rows: 12}
	var calls atomic.Int64
	with, err := plan.PlanFleet(req, offers, plan.Options{Yield: func() { calls.Add(1) }}, fo)
	if err != nil {
		t.Fatal(err)
	}
	without, err := plan.PlanFleet(req, offers, plan.Options{}, fo)
	if err != nil {
		t.Fatal(err)
	}
	if len(with.Rows) == 0 {
		t.Fatal("no fleets to compare")
	}
	if calls.Load() < int64(with.Peak.Considered) {
		t.Errorf("Yield called %d times over %d offers", calls.Load(), with.Peak.Considered)
	}
	if !reflect.DeepEqual(with, without) {
		t.Errorf("the fleets differ with Yield: %d rows, without %d", len(with.Rows), len(without.Rows))
	}
}
