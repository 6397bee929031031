package plan_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// TestSLOStatSizes: Llama 3.1 8B under vLLM on one A100 80GB per copy,
// 12 req/s of 1,000 prompt and 200 output tokens, a 300 ms TTFT target.
// The tail needs copies the mean does not: measured when written, 3
// copies at the mean and the median (the utilisation cap binds), 5 at
// p90, 6 at p95 (the default, as before the statistic could be chosen),
// 10 at p99. Each count's simulated run meets the target at the named
// statistic, and one copy fewer misses it there.
func TestSLOStatSizes(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	o := gpuOffer(t, "a100-80gb-sxm", 1, estimator.BF16)
	w := plan.Workload{RequestsPerSecond: 12, PromptTokens: 1000, OutputTokens: 200, TTFTP95Seconds: 0.3}
	want := map[plan.SLOStat]int{plan.SLOMean: 3, plan.SLOP50: 3, plan.SLOP90: 5, plan.SLOP95: 6, plan.SLOP99: 10}
	got := map[plan.SLOStat]int{}
	for _, s := range plan.SLOStats {
		w.SLOStat = s
		r := serveOne(t, in, o, w, false)
		if !r.Fits || r.Sim == nil {
			t.Fatalf("%s: fits %v (%v), simulated %v", s, r.Fits, r.FitReason, r.Sim != nil)
		}
		got[s] = r.Replicas
		t.Logf("%s: %d copies, binding %s, p95 TTFT %.3f s", s, r.Replicas, r.Binding, r.TTFTP95Seconds)
		at := func(k int) sim.Result {
			c := *r.Sim
			c.Load.RatePerSecond = w.RequestsPerSecond / float64(k)
			res, err := sim.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		stat := func(d sim.Dist) float64 {
			return map[plan.SLOStat]float64{plan.SLOMean: d.Mean, plan.SLOP50: d.P50, plan.SLOP90: d.P90, plan.SLOP95: d.P95, plan.SLOP99: d.P99}[s]
		}
		if v := stat(at(r.Replicas).TTFT); v > w.TTFTP95Seconds || v != r.TTFTAtSLOSeconds {
			t.Errorf("%s: %d copies: TTFT %.3f s over the target, or not the row's %.3f s", s, r.Replicas, v, r.TTFTAtSLOSeconds)
		}
		if r.Binding == sim.BindTTFT {
			if v := stat(at(r.Replicas - 1).TTFT); v <= w.TTFTP95Seconds {
				t.Errorf("%s: %d copies meet the target too (TTFT %.3f s)", s, r.Replicas-1, v)
			}
		}
	}
	if got[plan.SLOMean] >= got[plan.SLOP95] || got[plan.SLOP95] >= got[plan.SLOP99] {
		t.Errorf("copies at mean/p95/p99: %d/%d/%d, want increasing", got[plan.SLOMean], got[plan.SLOP95], got[plan.SLOP99])
	}
	for s, n := range want {
		if got[s] != n {
			t.Errorf("%s: %d copies, measured %d when written", s, got[s], n)
		}
	}
}

// TestSLOStatTPOT: the TPOT target binds the statistic the SLOs name in
// the simulator's sizing as in the closed form (it bound the p95 in the
// one and the mean in the other before). A TPOT target between the
// deployed run's mean and its p99 is met at the mean with fewer copies
// than at p99.
func TestSLOStatTPOT(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	o := gpuOffer(t, "a100-80gb-sxm", 1, estimator.BF16)
	w := plan.Workload{RequestsPerSecond: 12, PromptTokens: 1000, OutputTokens: 200, TPOTSeconds: 0.022}
	n := map[plan.SLOStat]int{}
	for _, s := range []plan.SLOStat{plan.SLOMean, plan.SLOP99} {
		w.SLOStat = s
		r := serveOne(t, in, o, w, false)
		if !r.Fits || r.Sim == nil {
			t.Fatalf("%s: fits %v (%v)", s, r.Fits, r.FitReason)
		}
		c := *r.Sim
		c.Load.RatePerSecond = w.RequestsPerSecond / float64(r.Replicas)
		res, err := sim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d copies, binding %s; TPOT mean %.4f s, p99 %.4f s", s, r.Replicas, r.Binding, res.TPOT.Mean, res.TPOT.P99)
		v := res.TPOT.Mean
		if s == plan.SLOP99 {
			v = res.TPOT.P99
		}
		if v > w.TPOTSeconds {
			t.Errorf("%s: %d copies: TPOT %.4f s over the target", s, r.Replicas, v)
		}
		n[s] = r.Replicas
	}
	if n[plan.SLOMean] >= n[plan.SLOP99] {
		t.Errorf("copies at mean %d, at p99 %d: want fewer at the mean", n[plan.SLOMean], n[plan.SLOP99])
	}
}

func TestParseSLOStat(t *testing.T) {
	for _, s := range plan.SLOStats {
		got, err := plan.ParseSLOStat(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSLOStat(%q) = %v, %v", s.String(), got, err)
		}
	}
	if s, err := plan.ParseSLOStat(""); err != nil || s != plan.SLOP95 {
		t.Errorf(`ParseSLOStat("") = %v, %v; want the default p95`, s, err)
	}
	if s, err := plan.ParseSLOStat(" Median"); err != nil || s != plan.SLOP50 {
		t.Errorf(`ParseSLOStat(" Median") = %v, %v`, s, err)
	}
	for _, bad := range []string{"p97", "95", "max", "p", "\x00"} {
		_, err := plan.ParseSLOStat(bad)
		var ie *estimator.InputError
		if !errors.As(err, &ie) || ie.Field != "slo-stat" || !errors.Is(err, estimator.ErrUnknown) {
			t.Errorf("ParseSLOStat(%q): %v, want an unknown slo-stat", bad, err)
		}
	}
	r := plan.Request{Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 1, SLOStat: plan.SLOStat(9)}}
	err := r.Validate()
	var ie *estimator.InputError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if x, ok := e.(*estimator.InputError); ok && x.Field == "slo-stat" {
				ie = x
			}
		}
	}
	if ie == nil || !errors.Is(ie, estimator.ErrUnknown) {
		t.Fatalf("Validate of SLOStat(9): %v, want an unknown slo-stat", err)
	}
	// The request's message is the parser's, value aside: one text.
	_, perr := plan.ParseSLOStat("x")
	var pe *estimator.InputError
	if !errors.As(perr, &pe) || ie.Reason != pe.Reason || ie.Value != "Stat(9)" {
		t.Errorf("Validate's slo-stat error %+v, ParseSLOStat's %+v: want the same reason", ie, pe)
	}
}

// TestLatencyFloorAnswersAnEmptyPlan: Llama 3.1 8B under vLLM with
// 30,000-token prompts and a 50 ms TTFT target, on one H100 and on an
// instance of eight. No copy shape meets the target: the eight-GPU row
// keeps its closest miss (its fastest shape's prefill, under the one-GPU
// offer's), and the empty plan's answer names that figure, that offer
// and the target, where it said nothing. A row that fits has no such
// answer.
func TestLatencyFloorAnswersAnEmptyPlan(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	one, eight := gpuOffer(t, "h100-sxm", 1, estimator.BF16), gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	eight.ID, eight.InstanceType = "test-h100x8", "h100x8"
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 1, PromptTokens: 30000, OutputTokens: 100, TTFTP95Seconds: 0.05}
	res := mustPlan(t, plan.Request{Input: in, Workload: w}, []plan.Offer{one, eight}, plan.Options{KeepUnfit: true})
	if res.Cheapest >= 0 || len(res.Rows) != 2 {
		t.Fatalf("cheapest %d, %d rows", res.Cheapest, len(res.Rows))
	}
	idle := map[string]float64{}
	for _, r := range res.Rows {
		if r.FitReason.Key != plan.MsgSLOTTFTPrefill {
			t.Fatalf("%s: %v", r.Offer.ID, r.FitReason)
		}
		idle[r.Offer.ID] = r.FitReason.Args[0].(float64)
	}
	t.Logf("idle TTFT: one H100 %.3f s, eight %.3f s", idle[one.ID], idle[eight.ID])
	if !(idle[eight.ID] < 0.5*idle[one.ID]) {
		t.Errorf("eight H100s' closest miss %.3f s, want under half one H100's %.3f s (TP 8's prefill, not TP 1's)", idle[eight.ID], idle[one.ID])
	}
	why, ok := plan.LatencyFloor(w, res.Rows)
	if !ok || why.Key != plan.MsgNoneLatency || len(why.Args) != 1 {
		t.Fatalf("answer %v %v", why, ok)
	}
	want := fmt.Sprintf("no offer meets the latency targets (TTFT %s s at best, one prompt on an idle replica on test h100x8, against a target of 0.05 s: take a longer target or shorter prompts)",
		plan.FormatNumber(idle[eight.ID]))
	if got := why.String(); got != want {
		t.Errorf("answer\n got %q\nwant %q", got, want)
	}

	w.TTFTP95Seconds = 30
	res = mustPlan(t, plan.Request{Input: in, Workload: w}, []plan.Offer{one, eight}, plan.Options{KeepUnfit: true})
	if _, ok := plan.LatencyFloor(w, res.Rows); res.Cheapest < 0 || ok {
		t.Errorf("a 30 s target: cheapest %d, answer %v", res.Cheapest, ok)
	}
}

// TestLatencyTargetBindsSaid: Llama 3.1 8B under vLLM on one L4, 2 req/s
// of 1,000 prompt and 200 output tokens, under a TPOT target 20% above
// the closed form's floor (the figure an unreachable target is refused
// with): the target, not the rate, sets the copies (8, at 19% load when
// written), and the row says so with the simulated engine's floor, its
// share of the target and the load each copy runs at, where the table
// said only "binding: tpot". Without a target nothing binds and no note.
func TestLatencyTargetBindsSaid(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Engine = estimator.VLLM
	o := gpuOffer(t, "l4", 1, estimator.BF16)
	w := plan.Workload{RequestsPerSecond: 2, PromptTokens: 1000, OutputTokens: 200, TPOTSeconds: 1e-4}
	r := serveOne(t, in, o, w, false)
	if r.Fits || !strings.HasPrefix(r.FitReason.Key.String(), "slo.tpot_") {
		t.Fatalf("a 0.1 ms TPOT target: fits %v (%v)", r.Fits, r.FitReason)
	}
	idle := r.FitReason.Args[0].(float64)
	w.TPOTSeconds = 1.2 * idle
	r = serveOne(t, in, o, w, false)
	if !r.Fits || r.Binding != sim.BindTPOT {
		t.Fatalf("TPOT target %.4f s: fits %v (%v), binding %v", w.TPOTSeconds, r.Fits, r.FitReason, r.Binding)
	}
	// The floor the note quotes: the row's simulated engine with one
	// request alone, as the sizing's own runs are.
	c := *r.Sim
	c.Load.Requests, c.Load.Concurrency, c.Load.RatePerSecond = 1, 1, 0
	alone, err := sim.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	f := alone.TPOT.P95
	want := fmt.Sprintf("the TPOT target sets the replica count: one sequence alone decodes at %s s per token, %s%% of the %s s target, so each replica runs at %s%% load; a longer target serves more on each",
		plan.FormatNumber(f), plan.FormatNumber(100*f/w.TPOTSeconds), plan.FormatNumber(w.TPOTSeconds), plan.FormatNumber(100*r.Utilisation))
	if !slices.ContainsFunc(r.Notes, func(n plan.Reason) bool { return n.String() == want }) {
		t.Errorf("%d copies at %.1f%% load: notes %v, want %q", r.Replicas, 100*r.Utilisation, r.Notes, want)
	}
	w.TPOTSeconds, w.TTFTP95Seconds = 0, 0
	r = serveOne(t, in, o, w, false)
	if slices.ContainsFunc(r.Notes, func(n plan.Reason) bool { return n.Key == plan.MsgNoteTTFTBinds || n.Key == plan.MsgNoteTPOTBinds }) {
		t.Errorf("no targets: notes %v", r.Notes)
	}
}

// TestDefaultTTFT: the TTFT target a plan holds where the user sets none,
// against MLPerf Inference's server-scenario TTFT limits at each
// benchmark's longest prompt (mlcommons/inference_policies
// inference_rules.adoc, 2026-07-23). Fit: the 2 s floor on the four
// chat-length benchmarks and the slope on GPT-OSS-120B (3 s at 15,330
// tokens: the line gives 3.07 s, +2%); held back: Llama 3.1 405B (6 s at
// 20,000 tokens: the line gives 4 s, −33%, the stricter reading). A
// 100,000-token prompt is allowed 20 s, where the flat 2 s sized Llama
// 3.1 8B at 1 req/s to twice the GPUs its throughput needs.
func TestDefaultTTFT(t *testing.T) {
	for _, c := range []struct {
		name          string
		prompt, limit float64 // tokens, MLPerf's TTFT limit in seconds (0: none)
		want, tol     float64 // DefaultTTFT and its allowed distance from limit, relative
	}{
		{"Llama 2 70B", 1024, 2, 2, 0},
		{"Llama 3.1 8B", 2048, 2, 2, 0},
		{"Mixtral 8x7B", 2048, 2, 2, 0},
		{"DeepSeek-R1", 3136, 2, 2, 0},
		{"GPT-OSS-120B", 15330, 3, 3.066, 0.03},
		{"Llama 3.1 405B (held back)", 20000, 6, 4, 0.34},
		{"a 100,000-token RAG prompt", 100000, 0, 20, 0},
	} {
		got := plan.DefaultTTFT(c.prompt)
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: DefaultTTFT(%v) = %v s, want %v", c.name, c.prompt, got, c.want)
		}
		if c.limit > 0 && math.Abs(got/c.limit-1) > c.tol {
			t.Errorf("%s: %v s against MLPerf's %v s, beyond ±%v", c.name, got, c.limit, c.tol)
		}
	}
	// The request's own prompt: given, or half the sequence without one;
	// only an unset target of a serving workload takes the default.
	in := modelInput(t, "llama-3.1-8b")
	in.Seq = 60000
	for _, c := range []struct {
		name string
		w    plan.Workload
		want float64
	}{
		{"given prompt", plan.Workload{Kind: plan.Serving, PromptTokens: 100000, OutputTokens: 500, TTFTByDefault: true}, 20},
		{"half the sequence", plan.Workload{Kind: plan.Serving, TTFTByDefault: true}, 6},
		{"the user's target", plan.Workload{Kind: plan.Serving, PromptTokens: 100000, OutputTokens: 500, TTFTP95Seconds: 2}, 2},
		{"no target", plan.Workload{Kind: plan.Serving, PromptTokens: 100000, OutputTokens: 500}, 0},
		{"a batch job", plan.Workload{Kind: plan.Batch, PromptTokens: 100000, OutputTokens: 500, TTFTByDefault: true}, 0},
	} {
		if got := (plan.Request{Input: in, Workload: c.w}).WithDefaultTTFT().Workload.TTFTP95Seconds; got != c.want {
			t.Errorf("%s: target %v s, want %v", c.name, got, c.want)
		}
	}
}
