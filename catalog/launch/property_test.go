package launch_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestRandomJobsRunWhereTheyArePlanned is the property test over random
// jobs: a model of the catalog × task × precision × engine × workload,
// planned over the whole catalog as the command line plans it. For every
// fitting row the planner ranks (the best six of each job are launched):
//   - the row's GPU runs the row's engine, task and weights (the support
//     table, estimator.SupportFor), and the weights are the job's unless
//     the table substitutes them;
//   - every launch of the row either runs, or is refused for a reason the
//     row explains (an engine the table refuses on that GPU, a training
//     split the data-parallel configs do not set up, a cloud SkyPilot
//     lacks): never launch.inconsistent (TP and heads, EP and experts,
//     context, memory share), and the semantic checks of TestRealPlans
//     hold on what is emitted.
func TestRandomJobsRunWhereTheyArePlanned(t *testing.T) {
	cat := catalog.Default()
	var models []string
	for _, m := range cat.Models {
		if a, err := estimator.ParseConfig([]byte(m.Config)); err == nil && a.HasKVCache() && !a.Generic() {
			models = append(models, m.ID)
		}
	}
	if len(models) < 10 {
		t.Fatalf("%d LLMs in the catalog", len(models))
	}
	jobs := 80
	if testing.Short() {
		jobs = 8
	}
	rng := rand.New(rand.NewPCG(28, 1))
	var planned, rows, launched, refused int
	for i := 0; i < jobs; i++ {
		model := models[rng.IntN(len(models))]
		in := input(t, model)
		in.Task = estimator.Tasks[rng.IntN(len(estimator.Tasks))]
		in.Weights = []estimator.DType{estimator.BF16, estimator.FP16, estimator.FP8, estimator.INT8, estimator.INT4, estimator.FP4}[rng.IntN(6)]
		req := plan.Request{Input: in, Pricing: plan.Pricing(rng.IntN(2))}
		switch {
		case in.Task == estimator.QLoRA:
			req.Input.Weights = estimator.INT4
			req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e8}
		case in.Task.Training():
			if in.Task != estimator.LoRA {
				req.Input.Weights = estimator.BF16
			}
			req.Input.GradCheckpointing = true
			req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 5e8}
		case rng.IntN(2) == 0:
			req.Input.Engine = []estimator.Engine{estimator.VLLM, estimator.SGLang, estimator.TRTLLM}[rng.IntN(3)]
			req.Workload = plan.Workload{Kind: plan.Serving, RequestsPerSecond: []float64{0.5, 5, 40}[rng.IntN(3)],
				PromptTokens: 1000, OutputTokens: 200, MaxRequestTokens: 4096}
			if in.Arch.IsMoE() {
				// Expert parallelism over the copy's GPUs.
				ep := []int{1, 2, 4, 8}[rng.IntN(4)]
				req.Input.EP, req.Input.TP, req.Input.GPUs = ep, ep, ep
			}
		default:
			req.Input.Engine = []estimator.Engine{estimator.VLLM, estimator.HF}[rng.IntN(2)]
			req.Workload = plan.Workload{Kind: plan.Batch, Requests: 2e4, PromptTokens: 800, OutputTokens: 300}
		}
		where := model + " " + req.Input.Task.String() + " " + req.Input.Weights.String() + " " + req.Input.Engine.String() + " " + req.Workload.Kind.String()
		if err := req.Input.Validate(); err != nil {
			continue // a combination the estimator refuses by name
		}
		res, err := plan.Plan(req, cat.PlanOffers(req.Input.Weights), plan.Options{})
		if err != nil {
			continue
		}
		planned++
		launches := 0
		for _, row := range res.Rows {
			if !row.Fits {
				continue
			}
			rows++
			g := row.Offer.Hardware.Generation
			s := estimator.SupportFor(g, row.Engine, req.Input.Task, req.Input.Weights)
			if !s.Runs {
				t.Errorf("%s: ranked %s (%v), where %v does not run", where, row.Offer.ID, g, row.Engine)
				continue
			}
			if row.Weights != s.Weights {
				t.Errorf("%s on %s: planned with %v, the support table runs %v", where, row.Offer.ID, row.Weights, s.Weights)
			}
			if launches++; launches > 6 {
				continue // every row's support is checked; the best six are launched
			}
			for _, k := range launch.For(req.Workload.Kind, false) {
				l, err := launch.Emit(k, req, row, cat, model)
				var le *launch.Error
				switch {
				case err == nil:
					launched++
					checkLaunch(t, where+" "+k.String(), l, row.DP)
					if k == launch.VLLM {
						checkSemantics(t, where+" "+row.Offer.ID, req, row, l.Files[0].Text, "vllm", estimator.VLLM, "--dtype", "--tensor-parallel-size", "--max-model-len")
					}
				case errors.As(err, &le) && le.Key == launch.ErrInconsistent:
					t.Errorf("%s on %s, %v: %v", where, row.Offer.ID, k, err)
				case errors.As(err, &le) && (le.Key == launch.ErrUnsupported || le.Key == launch.ErrModelParallel ||
					le.Key == launch.ErrNoSkyPilotCloud || le.Key == launch.ErrNoAccelerator || le.Key == launch.ErrOptimizerOnly || le.Key == launch.ErrSkyServePorts || le.Key == launch.ErrPrecision):
					refused++
					if le.Key == launch.ErrUnsupported && k != launch.SkyPilot && strings.Contains(le.Reason, row.Engine.String()+" does not run") {
						t.Errorf("%s on %s: the planned engine itself refused: %v", where, row.Offer.ID, err)
					}
				default:
					t.Errorf("%s on %s, %v: %v", where, row.Offer.ID, k, err)
				}
			}
		}
	}
	t.Logf("%d jobs planned, %d fitting rows, %d launches written, %d refused with a reason", planned, rows, launched, refused)
	if planned < jobs/3 || launched < jobs {
		t.Fatalf("too few jobs exercised: %d planned, %d launched", planned, launched)
	}
}
