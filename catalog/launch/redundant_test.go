package launch_test

import (
	"errors"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// rackR1 is DeepSeek-R1 in FP8 on engine at rps requests a second of 1000
// tokens in and 1000 out, as `rightsize plan --model deepseek-r1
// --precision fp8 --prompt-tokens 1000 --output-tokens 1000 --gpu gb200`
// asks it, planned on CoreWeave's GB200 NVL72 trays.
func rackR1(t *testing.T, engine estimator.Engine, rps float64) (plan.Request, plan.Result) {
	t.Helper()
	req := serving(t, "deepseek-r1", rps, engine, plan.OnDemand)
	req.Input.Weights = estimator.FP8
	req.Workload.OutputTokens = 1000
	o := offer(t, gb200Rack, req.Input.Weights)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return req, res
}

// redundantFlags is what each engine's launch writes for 8 redundant
// experts over DeepSeek-R1's 256: SGLang's ep_num_redundant_experts with
// its EPLB, vLLM's EPLB with num_redundant_experts in its JSON config, and
// TensorRT-LLM's MoE load balancer of 256 + 8 slots.
var redundantFlags = map[launch.Kind][]string{
	launch.SGLang: {"--ep-num-redundant-experts 8 \\\n", "--enable-eplb \\\n"},
	launch.VLLM:   {"--enable-eplb \\\n", `--eplb-config '{"num_redundant_experts":8}' \` + "\n"},
	launch.TRTLLM: {"moe_config:\n  load_balancer:\n    num_slots: 264\n    layer_updates_per_iter: 1\n"},
}

// TestRackLaunchesWriteTheRedundantExperts: the planner serves
// DeepSeek-R1 on GB200 trays with copies of 6 trays (EP 24) and 8
// redundant experts (256 + 8 = 264 = 11 × 24): vLLM and TensorRT-LLM
// at 70 requests/s as it picks them, SGLang as a request that names the
// layout (its own pick is EP 32 over 8 trays since its DeepEP decode runs
// at the low-latency kernels' figures). Each engine's launch of that row
// writes the engine's own setting for them, and its flags and options
// are the engine's (checkLaunch). Before, every launch stopped at
// "expert parallelism over 24 GPUs does not divide the model's 256
// experts": the check read the request's redundant experts (none), not
// the row's, and no launch wrote any.
func TestRackLaunchesWriteTheRedundantExperts(t *testing.T) {
	for k, engine := range map[launch.Kind]estimator.Engine{launch.SGLang: estimator.SGLang, launch.VLLM: estimator.VLLM, launch.TRTLLM: estimator.TRTLLM} {
		req, res := rackR1(t, engine, 70)
		if res.Cheapest < 0 {
			t.Fatalf("%s: no plan", k)
		}
		if engine == estimator.SGLang {
			req.Input.GPUs, req.Input.TP, req.Input.DP, req.Input.EP, req.Input.RedundantExperts = 24, 24, 24, 24, 8
			req.FixedParallelism = true
			o := offer(t, gb200Rack, req.Input.Weights)
			var err error
			if res, err = plan.Plan(req, []plan.Offer{*o}, plan.Options{}); err != nil || res.Cheapest < 0 {
				t.Fatalf("%s at EP 24 with 8 redundant experts: no plan: %v", k, err)
			}
		}
		row := res.Rows[res.Cheapest]
		if row.EP != 24 || row.RedundantExperts != 8 || row.InstancesPerReplica != 6 {
			t.Fatalf("%s: planned EP %d with %d redundant experts over %d trays, want EP 24 with 8 over 6", k, row.EP, row.RedundantExperts, row.InstancesPerReplica)
		}
		l, err := launch.Emit(k, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		checkLaunch(t, k.String(), l, 0)
		for _, want := range redundantFlags[k] {
			if !strings.Contains(l.Text(), want) {
				t.Errorf("%s: no %q in\n%s", k, want, l.Text())
			}
		}
	}
}

// TestRackDisaggregatedLaunchesWriteTheRedundantExperts: the command of
// the report, `rightsize plan --model deepseek-r1 --precision fp8
// --requests-per-second 100 --prompt-tokens 1000 --output-tokens 1000
// --gpu gb200 --engine sglang --emit sglang --emit-pick disaggregated`,
// planned decode workers of 6 trays (EP 24) with 8 redundant experts
// (plan.DisaggWorker.RedundantExperts), as it still does for vLLM (for
// SGLang it now takes one worker of EP 32 over 8 trays, and the 6-tray
// worker is set on its plan here). The SGLang and vLLM launches,
// behind the engine's router and NVIDIA Dynamo's, write them on the
// decode workers only, and the scripts' heading says so; before, both
// stopped at "expert parallelism over 24 GPUs does not divide the
// model's 256 experts".
func TestRackDisaggregatedLaunchesWriteTheRedundantExperts(t *testing.T) {
	for _, tc := range []struct {
		k      launch.Kind
		engine estimator.Engine
		r      launch.Router
	}{
		{launch.SGLang, estimator.SGLang, launch.EngineRouter},
		{launch.SGLang, estimator.SGLang, launch.DynamoRouter},
		{launch.VLLM, estimator.VLLM, launch.EngineRouter},
	} {
		req, res := rackR1(t, tc.engine, 100)
		d := res.Disagg
		if d == nil {
			t.Fatalf("%s: no disaggregated alternative", tc.k)
		}
		if tc.engine == estimator.SGLang && d.DecodeWorker.EP == 32 {
			// SGLang's own pick is one decode worker of EP 32 over 8
			// trays (its DeepEP decode at the low-latency kernels'
			// figures); the 6-tray worker the others take is written
			// here as the launch of that plan.
			w := *d
			w.DecodeWorker = plan.DisaggWorker{TP: 24, DP: 24, EP: 24, InstancesPerWorker: 6, RedundantExperts: 8}
			w.Instances = d.Instances - 2*d.Decode
			d, res.Disagg = &w, &w
		}
		if d.DecodeWorker.EP != 24 || d.DecodeWorker.RedundantExperts != 8 || d.PrefillWorker.RedundantExperts != 0 {
			t.Fatalf("%s: decode workers EP %d with %d redundant experts, prefill %d, want EP 24 with 8, prefill none", tc.k, d.DecodeWorker.EP, d.DecodeWorker.RedundantExperts, d.PrefillWorker.RedundantExperts)
		}
		l, err := launch.EmitDisaggVia(tc.k, tc.r, req, res, nil, "deepseek-r1")
		if err != nil {
			t.Fatalf("%s %s: %v", tc.k, tc.r, err)
		}
		checkDisaggVia(t, tc.k.String()+" "+tc.r.String(), tc.k, tc.r, l)
		for _, f := range l.Files {
			if !strings.Contains(f.Text, "EP 24, 8 redundant experts)") {
				t.Errorf("%s %s: the heading of %s does not name the decode workers' redundant experts:\n%s", tc.k, tc.r, f.Name, f.Text)
			}
			for _, want := range redundantFlags[tc.k] {
				if got := strings.Contains(f.Text, want); got != (f.Name == "decode.sh") {
					t.Errorf("%s %s: %s has %q: %v", tc.k, tc.r, f.Name, want, got)
				}
			}
		}
	}
}

// TestTRTLLMDisaggregatedWritesTheRedundantExperts: TensorRT-LLM's
// disaggregated workers of one instance each (8 × H200, the request's EP
// 8 with 8 redundant experts) write the load balancer's 264 slots into
// both sides' options files, read by trtllm-serve and by Dynamo's
// dynamo.trtllm alike. (Workers over several instances TensorRT-LLM's
// disaggregated launch does not write: ErrDisaggWide.)
func TestTRTLLMDisaggregatedWritesTheRedundantExperts(t *testing.T) {
	req := serving(t, "deepseek-r1", 20, estimator.TRTLLM, plan.OnDemand)
	req.Input.Weights = estimator.FP8
	req.Workload.OutputTokens = 1000
	req.Input.TP, req.Input.DP, req.Input.EP, req.Input.GPUs, req.Input.RedundantExperts = 8, 8, 8, 8, 8
	req.FixedParallelism = true
	o := offer(t, "nebius-gpu-h200-sxm_8gpu-128vcpu-1600gb", req.Input.Weights) // an 8 × H200 host priced in USD (the plan has no FX table here)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Disagg; d == nil || d.DecodeWorker.RedundantExperts != 8 || d.PrefillWorker.RedundantExperts != 8 {
		t.Fatalf("the disaggregated workers: %+v", res.Disagg)
	}
	for _, r := range []launch.Router{launch.EngineRouter, launch.DynamoRouter} {
		l, err := launch.EmitDisaggVia(launch.TRTLLM, r, req, res, nil, "deepseek-r1")
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		checkDisaggVia(t, "trtllm "+r.String(), launch.TRTLLM, r, l)
		for _, f := range l.Files {
			if f.Format == "yaml" && !strings.Contains(f.Text, redundantFlags[launch.TRTLLM][0]) {
				t.Errorf("%s: %s has no load balancer:\n%s", r, f.Name, f.Text)
			}
		}
	}
}

// TestRedundantExpertsRefusedWhereTheEngineCannot: vLLM places redundant
// experts with its EPLB, which runs on CUDA and ROCm GPUs only; a row
// with redundant experts on Gaudi is refused with the reason (the planner
// lays out no such copy: estimator.LayoutRefusal), SGLang's launch of
// the same row on NVIDIA GPUs is not. A row whose redundant experts do
// not make EP divide the experts is inconsistent.
func TestRedundantExpertsRefusedWhereTheEngineCannot(t *testing.T) {
	req, res := rackR1(t, estimator.VLLM, 70)
	row := res.Rows[res.Cheapest]
	gaudi := *row.Offer
	gaudi.Hardware.Generation = estimator.GenGaudi
	row.Offer = &gaudi
	_, err := launch.Emit(launch.VLLM, req, row, nil, "deepseek-r1")
	var le *launch.Error
	if !errors.As(err, &le) || le.Key != launch.ErrLayoutUnsupported || !strings.Contains(le.Reason, "--enable-eplb") {
		t.Errorf("vLLM with redundant experts on Gaudi: %v", err)
	}
	row = res.Rows[res.Cheapest]
	row.RedundantExperts = 4 // 260 over 24 GPUs
	_, err = launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
	if !errors.As(err, &le) || le.Key != launch.ErrInconsistent || !strings.Contains(le.Reason, "256 experts and 4 redundant copies") {
		t.Errorf("4 redundant experts over EP 24: %v", err)
	}
}
