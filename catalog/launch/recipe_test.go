package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// dsr1DP8 is the golden deepseek-r1-dp8-ep8 request on engine eng and its
// row: DeepSeek-R1 FP8 at attention DP 8, EP 8 on 8 × H200, with
// attention DP in the request as the balance needs it (Input.DP).
func dsr1DP8(t *testing.T, eng estimator.Engine) (plan.Request, plan.Row) {
	t.Helper()
	req := deepseekR1FP8(t)
	req.Input.Engine, req.Input.DP, req.Input.EP, req.Input.TP, req.Input.GPUs = eng, 8, 8, 8, 8
	row := servingRow(t, req, "aws-p5en.48xlarge", 8, 1, 7)
	row.AttnDP, row.EP = 8, 8
	return req, row
}

// disagg5 is a plan result whose disaggregated alternative runs 2
// prefill and 3 decode workers of row's shape on row's offer, one an
// instance (TestGoldenDisagg's).
func disagg5(row plan.Row) plan.Result {
	d := plan.DisaggPlan{Offer: row.Offer, Engine: row.Engine, PrefillWorker: rowWorker(row), DecodeWorker: rowWorker(row), Prefill: 2, Decode: 3, Instances: 5}
	return plan.Result{Rows: []plan.Row{row}, Disagg: &d}
}

// file is the text of the launch's file name, "" without one.
func file(l launch.Launch, name string) string {
	for _, f := range l.Files {
		if f.Name == name {
			return f.Text
		}
	}
	return ""
}

// TestLaunchWritesRecipeSettings: a plan priced with SGLang's receive
// interval (--scheduler-recv-interval 10) launches SGLang with
// --scheduler-recv-interval 10, on one server and on both sides of the
// disaggregated launch; a plan priced with TensorRT-LLM's attention-DP
// balance (--attention-dp-balance 60) writes attention_dp_config with
// enable_balance, timeout_iters 60 and batching_wait_iters 0 into the
// options file (aggregated, and both sides' files disaggregated). Unset,
// neither is written, and a copy without attention DP, where the plan
// prices no balance, writes none either.
func TestLaunchWritesRecipeSettings(t *testing.T) {
	const recv, iters = 10, 60
	for _, set := range []bool{true, false} {
		req, row := dsr1DP8(t, estimator.SGLang)
		if set {
			req.Input.SchedulerRecvInterval = recv
		}
		l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		checkLaunch(t, "sglang", l, 1)
		dl, err := launch.EmitDisagg(launch.SGLang, req, disagg5(row), nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		checkDisagg(t, "sglang disaggregated", launch.SGLang, dl)
		for _, f := range []launch.File{l.Files[0], dl.Files[0], dl.Files[1]} {
			if got := flagInt(t, workerLines(f.Text), "sglang", "--scheduler-recv-interval"); set && got != recv || !set && got != 0 {
				t.Errorf("receive interval set %v: %s:\n%s", set, f.Name, f.Text)
			}
		}

		req, row = dsr1DP8(t, estimator.TRTLLM)
		if set {
			req.Input.AttentionDPBalanceIters = iters
		}
		if err := req.Input.Validate(); err != nil {
			t.Fatalf("balance set %v: %v", set, err)
		}
		l, err = launch.Emit(launch.TRTLLM, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		checkLaunch(t, "trtllm", l, 1)
		dl, err = launch.EmitDisagg(launch.TRTLLM, req, disagg5(row), nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		checkDisagg(t, "trtllm disaggregated", launch.TRTLLM, dl)
		for _, name := range []string{"extra_llm_api_options.yaml", "context_config.yaml", "gen_config.yaml"} {
			text := file(l, name) + file(dl, name)
			if text == "" {
				t.Fatalf("balance set %v: no %s", set, name)
			}
			doc := leaves(parseYAML(t, text), "", map[string]any{})
			switch {
			case !set && doc["attention_dp_config"] != nil:
				t.Errorf("balance unset: %s:\n%s", name, text)
			case set && (doc["attention_dp_config.enable_balance"] != true || doc["attention_dp_config.timeout_iters"] != int64(iters) ||
				doc["attention_dp_config.batching_wait_iters"] != int64(0)):
				t.Errorf("balance %d: %s:\n%s", iters, name, text)
			}
		}
	}

	// A copy without attention DP: TensorRT-LLM balances nothing, and the
	// plan priced no wait (sim.NewConfig), so no attention_dp_config.
	req, row := dsr1DP8(t, estimator.TRTLLM)
	req.Input.AttentionDPBalanceIters = iters
	row.AttnDP = 1
	l, err := launch.Emit(launch.TRTLLM, req, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Text(); strings.Contains(text, "attention_dp_config") {
		t.Errorf("no attention DP, the balance is written:\n%s", text)
	}
}
