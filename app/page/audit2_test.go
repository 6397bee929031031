package page

import (
	"strings"
	"testing"
)

// The serving fleet's cards give TPOT at the targets' statistic, as they
// give TTFT, and as the load chart under them and the disaggregated line
// do: the mean under a bare label read as a second figure for one TPOT
// (36 ms on the card, 46.3 ms p95 in the chart's caption).
func TestFleetTPOTAtTheTargetsStatistic(t *testing.T) {
	for _, frag := range []string{"m=mistral-7b-v0.3&e=vllm&rps=16", "m=mistral-7b-v0.3&e=vllm&rps=16&slo=p99"} {
		v, in := viewOf(t, frag, nil)
		s := in.Plan.Load
		if !v.Serve.Shown || !s.OK {
			t.Fatalf("%s: no fleet or no load chart", frag)
		}
		stat := SLOStatLabel(Locale{Lang: "en"}, in.Job.SLOStat)
		f := factOf(t, v.Serve.Best.Facts, "rs-serve-tpot")
		op := s.Points[s.Op]
		if f.Label != "Time per output token ("+stat+")" || f.Value != (Locale{Lang: "en"}).Duration(op.TPOTStat) {
			t.Errorf("%s: TPOT card %q = %q; the chart's %s TPOT at the plan is %g s", frag, f.Label, f.Value, stat, op.TPOTStat)
		}
		if ttft := factOf(t, v.Serve.Best.Facts, "rs-serve-ttft"); !strings.HasSuffix(ttft.Label, "("+stat+")") {
			t.Errorf("%s: TTFT card %q", frag, ttft.Label)
		}
	}
}
