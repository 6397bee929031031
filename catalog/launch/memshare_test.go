package launch_test

import (
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestLaunchMemShareIsTheEstimates: the memory share a launch writes is
// the one the estimate sized the KV pool with (Input.MemShare) for the
// emitted engine on the row's GPU at the copy's TP and attention DP —
// SGLang's own default where the request sets none (0.819 for Llama 3.1
// 70B at TP 8 on an 80 GB H100; 0.688 for Qwen3-30B-A3B at TP 4 with DP 4 and
// EP 4, 0.713 less the 2 GiB SGLang reserves for the DeepEP buffers the
// launch runs it with), the request's share where it sets one.
func TestLaunchMemShareIsTheEstimates(t *testing.T) {
	for _, c := range []struct {
		model       string
		tp, dp      int
		util        float64
		want        float64
		kind        launch.Kind
		flag, engID string
	}{
		{"llama-3.1-70b", 8, 1, 0, 0.819, launch.SGLang, "--mem-fraction-static", "sglang"},
		{"qwen3-30b-a3b", 4, 4, 0, 0.688, launch.SGLang, "--mem-fraction-static", "sglang"},
		{"llama-3.1-70b", 8, 1, 0.85, 0.85, launch.SGLang, "--mem-fraction-static", "sglang"},
		{"llama-3.1-70b", 8, 1, 0, 0.9, launch.VLLM, "--gpu-memory-utilization", "vllm"},
	} {
		req := serving(t, c.model, 5, estimator.SGLang, plan.OnDemand)
		req.Input.GPUMemUtil = c.util
		row := servingRow(t, req, "aws-p5.48xlarge", c.tp, 8/c.tp, 1)
		row.AttnDP = c.dp
		if c.dp > 1 {
			row.EP = c.tp
		}
		in := req.Input
		in.Engine, _ = estimator.ParseEngine(c.engID)
		in.VRAM, in.TP, in.DP, in.EP = row.Offer.GPUMemory, c.tp, c.dp, row.EP
		if got := in.MemShare(); got != c.want {
			t.Fatalf("%s TP %d DP %d: the estimate's share %v, want %v", c.model, c.tp, c.dp, got, c.want)
		}
		l, err := launch.Emit(c.kind, req, row, nil, c.model)
		if err != nil {
			t.Fatal(err)
		}
		text := l.Text()
		i := strings.Index(text, c.flag+" ")
		if i < 0 {
			t.Fatalf("%s: no %s in\n%s", c.model, c.flag, text)
		}
		v, _, _ := strings.Cut(text[i+len(c.flag)+1:], " ")
		if got, err := strconv.ParseFloat(v, 64); err != nil || got != c.want {
			t.Errorf("%s TP %d DP %d on %v: the launch writes %s %q, the estimate sized the pool at %v", c.model, c.tp, c.dp, c.kind, c.flag, v, c.want)
		}
	}
}
