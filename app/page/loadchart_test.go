package page

import (
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// servingFrags are serving questions whose cheapest picks differ in shape.
var servingFrags = []string{
	"m=mistral-7b-v0.3&rps=20&ttft=1000",
	"m=mixtral-8x7b&p=fp4&g=b200&e=vllm&rps=5",
	"m=llama-3.1-70b&rps=10&ttft=2000&tpot=80",
	"rps=200&ttft=500&tpot=40",
	"m=llama-3.1-405b&p=fp8&rps=5&ttft=5000&pr=spot",                                     // TP 4, a spare replica on spot
	"m=mistral-7b-v0.3&rps=20&ttft=1000&imfu=0.3&bw=0.6",                                 // the user's efficiencies
	"m=mistral-7b-v0.3&rps=20&ttft=1000&g=h100-sxm&e=vllm&cal=h100-sxm,vllm,120,0.3,0.5", // a calibration: 120 ms per request
}

// servePlan is the page's plan for frag (as RunPlan makes it), the
// request behind it and the planner's own result for that request.
func servePlan(t testing.TB, frag string) (PlanOut, planner.Request, planner.Result) {
	t.Helper()
	pr := NewPrices(catalog.Default(), nil)
	d := Derive(ParseFragment(frag, DefaultState), nil, pr, nil, "")
	if !d.R.OK {
		t.Fatalf("%s: %v %v", frag, d.Errs, d.General)
	}
	req := PlanRequest(d.Job)
	req.FX = pr.Cat.PlanFX()
	res, err := planner.Plan(req, pr.PlanOffers(d.Job.In.Weights), planner.Options{})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("%s: no plan: %v", frag, err)
	}
	return RunPlan(d.Job, pr), req, res
}

// TestServeChartMatchesPlan: the chart's operating point is the run the
// planner sized the cheapest row with (its quoted p50/p95 TTFT), at the
// target rate over the plan's engine copies, and every point is the
// simulator's own result at its rate.
func TestServeChartMatchesPlan(t *testing.T) {
	for _, frag := range servingFrags {
		t.Run(frag, func(t *testing.T) {
			out, req, res := servePlan(t, frag)
			r := &res.Rows[res.Cheapest]
			s := out.Load
			if !s.OK {
				t.Fatalf("no chart for %s", r.Offer.ID)
			}
			// The operating point is the plan's: the rate over the copies
			// that hold it, a spot row's spare replica left out.
			held := r.Replicas
			if r.Pricing == planner.Spot {
				held--
			}
			copies := held * r.DP
			op := s.Points[s.Op]
			if s.Copies != copies || op.RPS != req.Workload.RequestsPerSecond/float64(copies) {
				t.Errorf("operating point %g req/s over %d copies, want %g over %d", op.RPS, s.Copies, req.Workload.RequestsPerSecond/float64(copies), copies)
			}
			if op.TTFTStat != r.TTFTP95Seconds || op.TTFTP50 != r.TTFTP50Seconds {
				t.Errorf("operating point TTFT p50/p95 %g/%g s, the plan quotes %g/%g", op.TTFTP50, op.TTFTStat, r.TTFTP50Seconds, r.TTFTP95Seconds)
			}
			if s.TTFTTarget != req.Workload.TTFTP95Seconds || s.TPOTTarget != req.Workload.TPOTSeconds {
				t.Errorf("targets %g/%g, want %g/%g", s.TTFTTarget, s.TPOTTarget, req.Workload.TTFTP95Seconds, req.Workload.TPOTSeconds)
			}
			cfg, ok := CopyConfig(r)
			if !ok {
				t.Fatal("no simulation config")
			}
			sc := cfg
			sc.Load.Requests = 4 * sim.Capacity(cfg)
			sat, err := sim.Saturation(sc)
			if err != nil || sat.RequestsPerSecond != s.SatRPS {
				t.Errorf("saturation %g req/s, the simulator gives %g (%v)", s.SatRPS, sat.RequestsPerSecond, err)
			}
			if last := s.Points[len(s.Points)-1].RPS; last <= s.SatRPS || s.Points[0].RPS >= s.SatRPS/2 {
				t.Errorf("rates %g … %g req/s do not run from low load past saturation at %g", s.Points[0].RPS, last, s.SatRPS)
			}
			for i, p := range s.Points {
				if i > 0 && p.RPS <= s.Points[i-1].RPS {
					t.Errorf("rates out of order: %g after %g", p.RPS, s.Points[i-1].RPS)
				}
				cfg.Load.Concurrency, cfg.Load.RatePerSecond = 0, p.RPS
				want, err := sim.Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if p.TTFTP50 != want.TTFT.P50 || p.TTFTStat != want.TTFT.P95 || p.TPOTStat != want.TPOT.P95 {
					t.Errorf("at %g req/s: %+v, the simulator gives TTFT %g/%g TPOT p95 %g", p.RPS, p, want.TTFT.P50, want.TTFT.P95, want.TPOT.P95)
				}
			}
			t.Logf("%s TP%d PP%d ×%d copies: sat %.2f req/s, op %.2f; %d points", r.Offer.ID, r.TP, r.PP, copies, s.SatRPS, op.RPS, len(s.Points))
		})
	}
}

// TestServeLoadYields: the chart's simulated runs (the saturation run
// and one per point) each come after a yield, as the planner's do: ten
// runs of DeepSeek-R1's copy held the browser's thread for tens of
// milliseconds together. The yield changes no point.
func TestServeLoadYields(t *testing.T) {
	for _, frag := range servingFrags {
		t.Run(frag, func(t *testing.T) {
			_, req, res := servePlan(t, frag)
			r := &res.Rows[res.Cheapest]
			calls := 0
			with, without := ServeLoadOf(req, r, func() { calls++ }), ServeLoadOf(req, r, nil)
			if !with.OK || calls != len(with.Points)+1 {
				t.Errorf("%d yields for %d points and the saturation run", calls, len(with.Points))
			}
			if !slices.Equal(with.Points, without.Points) || with.SatRPS != without.SatRPS {
				t.Errorf("with yields %+v, without %+v", with, without)
			}
		})
	}
}

// BenchmarkServeLoad is the chart's simulation, once per plan: the
// saturation run and the charted rates of one engine copy.
func BenchmarkServeLoad(b *testing.B) {
	for _, frag := range servingFrags {
		b.Run(frag, func(b *testing.B) {
			_, req, res := servePlan(b, frag)
			r := &res.Rows[res.Cheapest]
			for b.Loop() {
				if !ServeLoadOf(req, r, nil).OK {
					b.Fatal("no chart")
				}
			}
		})
	}
}

// TestLoadCaptionOneCopy: a plan on one engine copy says it serves the
// rate on that copy; it read "spreads 5 req/s over 1 copies, 5 req/s
// each".
func TestLoadCaptionOneCopy(t *testing.T) {
	for lang, want := range map[string][2]string{"en": {"serves 5 req/s on this one copy", "copies"}, "ru": {"этой одной копией", "копиям"}, "zh": {"这一个副本", "分给"}} {
		v, _, _ := pageOf(t, "rps=5&m=llama-3.1-70b&l="+lang, nil)
		if got := v.Serve.Chart.Caption; !strings.Contains(got, want[0]) || strings.Contains(got, want[1]) {
			t.Errorf("%s: %q", lang, got)
		}
	}
}
