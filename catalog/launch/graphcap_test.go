package launch_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestEmitSGLangGraphCap: an SGLang launch captures CUDA graphs for the
// batch the plan decodes from graphs. On one L40S (48 GB at TP 1, where
// SGLang's own cap is 32: estimator.SGLangDefaults) a plan of Llama 3.1 8B
// with more requests in flight than 32 writes --cuda-graph-max-bs at the
// plan's requests in flight; a plan within the default writes none; a
// cap the user set (estimator.Input.CUDAGraphMaxBS, priced eager past it)
// is written as set; and a plan without graphs writes none.
func TestEmitSGLangGraphCap(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	def := estimator.SGLangDefaults(48*estimator.GB, 1).CUDAGraphMaxBS
	graphs := func(req plan.Request, row plan.Row) int {
		t.Helper()
		l, err := launch.Emit(launch.SGLang, req, row, nil, "meta-llama/Llama-3.1-8B-Instruct")
		if err != nil {
			t.Fatal(err)
		}
		checkLaunch(t, "sglang", l, row.DP)
		m := regexp.MustCompile(`--cuda-graph-max-bs (\d+)`).FindStringSubmatch(l.Text())
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		// A cap the plan's batch set says why, beside SGLang's own.
		why := strings.Contains(l.Text(), "SGLang captures "+strconv.Itoa(def)+" by default")
		if why != (req.Input.CUDAGraphMaxBS == 0) {
			t.Errorf("cap %d (set %d): the note on SGLang's default written %v", n, req.Input.CUDAGraphMaxBS, why)
		}
		return n
	}
	for _, c := range []struct {
		rps      float64
		cap      int
		eager    bool
		above    bool // the plan's requests in flight exceed SGLang's default
		wantUser bool
	}{
		{rps: 0.5}, {rps: 20, above: true}, {rps: 20, cap: 48, wantUser: true}, {rps: 20, eager: true},
	} {
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: c.rps, PromptTokens: 1000, OutputTokens: 400}}
		req.Input.Engine, req.Input.CUDAGraphMaxBS, req.Input.EnforceEager = estimator.SGLang, c.cap, c.eager
		row := planOn(t, req, "aws-g6e.xlarge")
		conc := int(row.Concurrency + 0.999999)
		got := graphs(req, row)
		switch {
		case c.eager && got != 0:
			t.Errorf("%g req/s without graphs: --cuda-graph-max-bs %d written, want none", c.rps, got)
		case c.wantUser && got != c.cap:
			t.Errorf("%g req/s, cap %d set: --cuda-graph-max-bs %d, want %d", c.rps, c.cap, got, c.cap)
		case c.eager || c.wantUser:
		case c.above && (conc <= def || got != conc):
			t.Errorf("%g req/s: %d in flight, --cuda-graph-max-bs %d; want the plan's %d above SGLang's %d", c.rps, conc, got, conc, def)
		case !c.above && (conc > def || got != 0):
			t.Errorf("%g req/s: %d in flight within SGLang's %d, --cuda-graph-max-bs %d written; want none", c.rps, conc, def, got)
		}
	}
}
