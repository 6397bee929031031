package sim

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"rightsize/estimator"
)

// h100SXM is the H100 SXM 80GB datasheet at BF16 (dense): 989.5 TFLOPS,
// 3.35 TB/s, NVLink 900 GB/s both directions (nvidia.com/en-us/data-
// center/h100 spec table; catalog/data/gpus.json), link halved to one
// direction as estimator.Hardware wants.
var h100SXM = estimator.Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: estimator.GenHopper}

// llama8B is Llama-3.1-8B's config (estimator/testdata/configs).
func llama8B(t testing.TB) estimator.Arch {
	t.Helper()
	return readArch(t, "llama-3.1-8b")
}

// readArch is the config of a model in estimator/testdata/configs.
func readArch(t testing.TB, name string) estimator.Arch {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "configs", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := estimator.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// testConfig is Llama-3.1-8B BF16 on one H100 under engine e's defaults,
// prompt/output tokens per request.
func testConfig(t testing.TB, e estimator.Engine, prompt, output int) Config {
	t.Helper()
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = e, 80*gib
	m := estimator.NewServingModel(in, h100SXM, estimator.Efficiency{}, estimator.Workload{PromptTokens: prompt, OutputTokens: output})
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	p, err := DefaultPolicy(e, in.VRAM)
	if err != nil {
		t.Fatal(err)
	}
	p.RequestSeconds = estimator.RequestSeconds(in, h100SXM) // as NewConfig sets it
	return Config{Model: &m, Policy: p, Load: Load{PromptTokens: prompt, OutputTokens: output}}
}

func run(t testing.TB, cfg Config) Result {
	t.Helper()
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A lone request: TTFT is the fixed cost plus its prompt's prefill step,
// TPOT the decode step at its context, as the step model gives them.
func TestLoneRequest(t *testing.T) {
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.SGLang, estimator.TRTLLM} {
		cfg := testConfig(t, e, 1000, 200)
		cfg.Load.Concurrency, cfg.Load.Requests = 1, 5
		r := run(t, cfg)
		m := cfg.Model
		prefill := m.StepSeconds(estimator.Step{PrefillTokens: 1000, PrefillSeqs: 1, PrefillContext: 1000 * 1001 / 2, PrefillKV: 1000})
		if want := cfg.Policy.RequestSeconds + prefill; math.Abs(r.TTFT.Mean/want-1) > 1e-9 {
			t.Errorf("%s: TTFT %.6f s, want fixed cost + prefill = %.6f", e, r.TTFT.Mean, want)
		}
		mid := m.StepSeconds(estimator.Step{DecodeSeqs: 1, DecodeContext: 1100})
		if math.Abs(r.TPOT.Mean/mid-1) > 0.01 {
			t.Errorf("%s: TPOT %.6f s, want the decode step at the mean context %.6f", e, r.TPOT.Mean, mid)
		}
		// The closed-form model's decode step at concurrency 1 is the
		// same step (its TPOT adds the next prompt's share, which a lone
		// client's requests never overlap).
		p, err := m.Perf(1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.TPOT.Mean/p.DecodeStepSeconds-1) > 0.005 {
			t.Errorf("%s: simulated TPOT %.6f s, closed-form decode step %.6f", e, r.TPOT.Mean, p.DecodeStepSeconds)
		}
		if r.Queue.Max != 0 || r.Preemptions != 0 || r.Limit != LimitNone {
			t.Errorf("%s: a lone request queued: %+v", e, r)
		}
	}
}

// With C requests sent at once, the prompts queue behind the engine's
// token budget: TTFT grows with C, and the p99 request waits for the
// prefill of (nearly) all others.
func TestBurstQueuesPrefills(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 4000, 100)
	var last float64
	for _, c := range []int{1, 8, 64} {
		cfg.Load.Concurrency, cfg.Load.Requests = c, c
		r := run(t, cfg)
		if r.TTFT.Mean <= last {
			t.Errorf("concurrency %d: mean TTFT %.3f s not above %.3f s", c, r.TTFT.Mean, last)
		}
		last = r.TTFT.Mean
		if c == 64 {
			// 64 prompts of 4000 tokens at 8192 tokens a step: the last
			// first token comes after ~32 prefill steps.
			one := cfg.Model.StepSeconds(estimator.Step{PrefillTokens: 8192, PrefillSeqs: 2, PrefillContext: 2 * 4000 * 4001 / 2, PrefillKV: 8000})
			if r.TTFT.Max < 25*one || r.Limit != LimitTokens {
				t.Errorf("64 at once: max TTFT %.3f s, want ≥ 25 prefill steps of %.3f s; limit %s", r.TTFT.Max, one, r.Limit)
			}
		}
	}
}

// A cold first wave (Load.FirstWaveSeconds) delays a closed loop's first
// Concurrency requests and nothing else: the run after it is the same run
// shifted, so their TTFT grows by the delay, the mean by delay ×
// concurrency / requests, the max by at most the delay, the median, the
// queue and the TPOTs not at all, the duration by the delay; an open loop
// ignores it.
func TestFirstWave(t *testing.T) {
	const wave = 0.5
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.SGLang, estimator.TRTLLM} {
		cfg := testConfig(t, e, 1000, 200)
		cfg.Load.Concurrency, cfg.Load.Requests, cfg.Load.RangeRatio, cfg.Load.Seed = 16, 160, DefaultRangeRatio, 3
		warm := run(t, cfg)
		cfg.Load.FirstWaveSeconds = wave
		cold := run(t, cfg)
		// The shifted run rounds its times a little differently.
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
		if !near(cold.TTFT.Mean, warm.TTFT.Mean+wave*16/160) {
			t.Errorf("%v: mean TTFT %.4f s, want %.4f s + %.4f s", e, cold.TTFT.Mean, warm.TTFT.Mean, wave*16/160)
		}
		if !near(cold.TTFT.P50, warm.TTFT.P50) || !near(cold.TPOT.Mean, warm.TPOT.Mean) || !near(cold.TPOT.P99, warm.TPOT.P99) || !near(cold.Queue.Mean, warm.Queue.Mean) {
			t.Errorf("%v: median TTFT %.4f s (warm %.4f s), TPOT %+v (warm %+v), queue %.4f s (warm %.4f s)", e,
				cold.TTFT.P50, warm.TTFT.P50, cold.TPOT, warm.TPOT, cold.Queue.Mean, warm.Queue.Mean)
		}
		if cold.TTFT.Max < warm.TTFT.Max || cold.TTFT.Max > warm.TTFT.Max+wave+1e-9 {
			t.Errorf("%v: max TTFT %.4f s, warm %.4f s", e, cold.TTFT.Max, warm.TTFT.Max)
		}
		if !near(cold.DurationSeconds, warm.DurationSeconds+wave) {
			t.Errorf("%v: duration %.4f s, want %.4f s + %.1f s", e, cold.DurationSeconds, warm.DurationSeconds, wave)
		}
		cfg.Load.Concurrency, cfg.Load.RatePerSecond = 0, 5
		open := run(t, cfg)
		cfg.Load.FirstWaveSeconds = 0
		if run(t, cfg) != open {
			t.Errorf("%v: the open loop moved with a first wave", e)
		}
	}
}

// SGLang pauses decodes for prefill steps (no mixed chunks), so its TPOT
// under a stream of arrivals exceeds vLLM's, whose chunks ride with the
// decodes.
func TestSGLangPrefillStallsDecode(t *testing.T) {
	v := testConfig(t, estimator.VLLM, 2000, 200)
	g := testConfig(t, estimator.SGLang, 2000, 200)
	g.Policy.RequestSeconds = v.Policy.RequestSeconds
	for _, c := range []*Config{&v, &g} {
		c.Load.Concurrency, c.Load.Requests = 32, 320
	}
	rv, rg := run(t, v), run(t, g)
	if rg.TPOT.P99 <= rv.TPOT.P50 {
		t.Errorf("SGLang TPOT p99 %.4f s not above vLLM's median %.4f s", rg.TPOT.P99, rv.TPOT.P50)
	}
}

// The KV pool bounds the running requests: a concurrency beyond it
// queues (TensorRT-LLM reserves each request's output) or preempts
// (vLLM).
func TestKVPoolBounds(t *testing.T) {
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.TRTLLM} {
		cfg := testConfig(t, e, 1000, 1000)
		cfg.KVTokens = 20000 // 10 requests of 2000 tokens
		cfg.Load.Concurrency, cfg.Load.Requests = 40, 80
		r := run(t, cfg)
		if r.Queue.P90 <= 0 || r.Limit != LimitKV {
			t.Errorf("%s: queue p90 %.3f s, limit %s at concurrency 40 over a pool of 10", e, r.Queue.P90, r.Limit)
		}
		switch e {
		case estimator.TRTLLM: // admits only what it can finish
			if r.MeanRunning > 10.01 || r.Preemptions != 0 {
				t.Errorf("TensorRT-LLM: %.2f running, %d preemptions; want ≤ 10 and none", r.MeanRunning, r.Preemptions)
			}
		case estimator.VLLM: // admits prompts, preempts as outputs grow
			if r.Preemptions == 0 || r.MeanRunning > 20 {
				t.Errorf("vLLM: %.2f running, %d preemptions; want ≤ 20 and some", r.MeanRunning, r.Preemptions)
			}
		}
	}
}

// Open loop: well below saturation nothing waits; above it the queue
// grows with the run.
func TestOpenLoopSaturation(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 1000, 200)
	cfg.Load.Requests = 2000
	sat, err := Saturation(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := min(1024, int(cfg.Model.KVPoolTokens()/1200)); sat.RequestsPerSecond <= 0 || sat.Concurrency != want {
		t.Fatalf("saturation %+v", sat)
	}
	cfg.Load.RatePerSecond, cfg.Load.Seed = 0.2*sat.RequestsPerSecond, 7
	low := run(t, cfg)
	cfg.Load.RatePerSecond = 1.5 * sat.RequestsPerSecond
	high := run(t, cfg)
	if low.Queue.P50 > 0.05 || high.Queue.P90 < 10*low.Queue.P90+1 {
		t.Errorf("queue p50/p90 at 20%% of saturation %.3f/%.3f s, at 150%% %.3f/%.3f s", low.Queue.P50, low.Queue.P90, high.Queue.P50, high.Queue.P90)
	}
	if high.RequestsPerSecond > 1.05*sat.RequestsPerSecond {
		t.Errorf("served %.2f req/s above saturation %.2f", high.RequestsPerSecond, sat.RequestsPerSecond)
	}
	// Deterministic: the same seed gives the same run.
	if again := run(t, cfg); again != high {
		t.Errorf("two runs differ:\n%+v\n%+v", high, again)
	}
}

// Goodput counts the requests within the SLO.
func TestGoodput(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 1000, 200)
	cfg.Load.Concurrency, cfg.Load.Requests = 64, 640
	all := run(t, cfg)
	cfg.SLO = SLO{TTFTSeconds: all.TTFT.P50}
	half := run(t, cfg)
	if half.SLOAttainment < 0.45 || half.SLOAttainment > 0.6 || all.SLOAttainment != 1 {
		t.Errorf("attainment %.2f with the median TTFT as SLO (no SLO: %.2f)", half.SLOAttainment, all.SLOAttainment)
	}
	if math.Abs(half.GoodputRequestsPerSecond-half.SLOAttainment*half.RequestsPerSecond) > 1e-9 {
		t.Errorf("goodput %.4f ≠ attainment × rate", half.GoodputRequestsPerSecond)
	}
}

// Bad input gives typed errors, never a panic.
func TestBadInput(t *testing.T) {
	good := testConfig(t, estimator.VLLM, 100, 10)
	good.Load.Concurrency, good.Load.Requests = 1, 1
	cases := map[string]func(c *Config){
		"nil model":      func(c *Config) { c.Model = nil },
		"no requests":    func(c *Config) { c.Load.Requests = 0 },
		"open, no rate":  func(c *Config) { c.Load.Concurrency = 0 },
		"NaN rate":       func(c *Config) { c.Load.Concurrency, c.Load.RatePerSecond = 0, math.NaN() },
		"no output":      func(c *Config) { c.Load.OutputTokens = 0 },
		"no budget":      func(c *Config) { c.Policy.TokenBudget = 0 },
		"hf":             func(c *Config) { c.Policy.Engine = estimator.HF },
		"NaN cost":       func(c *Config) { c.Policy.RequestSeconds = math.NaN() },
		"too long":       func(c *Config) { c.KVTokens = 50 },
		"negative seqs":  func(c *Config) { c.Policy.MaxSeqs = -1 },
		"reserve over 1": func(c *Config) { c.Policy.ReserveOutput = 2 },
		"NaN first wave": func(c *Config) { c.Load.FirstWaveSeconds = math.NaN() },
		"negative wave":  func(c *Config) { c.Load.FirstWaveSeconds = -1 },
	}
	for name, mod := range cases {
		c := good
		mod(&c)
		_, err := Run(c)
		var ie *estimator.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: error %v, want *estimator.InputError", name, err)
		}
	}
	if _, err := DefaultPolicy(estimator.LlamaCpp, 80*gib); err == nil {
		t.Error("llama.cpp: no error")
	}
}

// BenchmarkSimulate is 1,000 requests (1,000-token prompts and outputs,
// lengths spread as a benchmark client draws them) on one replica, closed
// loop at 1, 64 and 256 in flight and open loop at 5 requests/s.
func BenchmarkSimulate(b *testing.B) {
	for _, c := range []struct {
		name string
		conc int
		rate float64
	}{{"closed-1", 1, 0}, {"closed-64", 64, 0}, {"closed-256", 256, 0}, {"open-5rps", 0, 5}} {
		cfg := testConfig(b, estimator.VLLM, 1000, 1000)
		cfg.Load.Concurrency, cfg.Load.RatePerSecond, cfg.Load.Requests, cfg.Load.RangeRatio = c.conc, c.rate, 1000, DefaultRangeRatio
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Replicas is the smallest count meeting the SLO: one fewer misses it.
func TestReplicas(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 2000, 300)
	cfg.Load.RangeRatio, cfg.Load.Requests = DefaultRangeRatio, 600
	slo := SLO{TTFTSeconds: 0.5, TPOTSeconds: 0.03}
	sz, err := Replicas(cfg, 60, slo, 64)
	if err != nil {
		t.Fatal(err)
	}
	if !sz.Meets || sz.Replicas < 2 || sz.Result.TTFT.P95 > slo.TTFTSeconds || sz.Result.TPOT.P95 > slo.TPOTSeconds || sz.Binding == BindNone {
		t.Fatalf("sizing %+v", sz)
	}
	c := cfg
	c.Load.RatePerSecond = 60 / float64(sz.Replicas-1)
	r := run(t, c)
	if r.TTFT.P95 <= slo.TTFTSeconds && r.TPOT.P95 <= slo.TPOTSeconds {
		t.Errorf("%d replicas meet the SLO too (p95 TTFT %.3f s, TPOT %.4f s)", sz.Replicas-1, r.TTFT.P95, r.TPOT.P95)
	}
	if _, err := Replicas(cfg, 0, slo, 4); err == nil {
		t.Error("rate 0: no error")
	}
	// An SLO below a lone request's latency: no count meets it.
	if sz, err := Replicas(cfg, 1, SLO{TTFTSeconds: 1e-4}, 4); err != nil || sz.Meets || sz.Replicas != 4 {
		t.Errorf("impossible SLO: %+v, %v", sz, err)
	}
}

// An SLO bound that no latency can be compared with (NaN, negative,
// beyond 10^9 s) is refused by name by Run and Replicas: a NaN TTFT bound
// was met by no request, and the goodput read 0% without a word.
func TestBadSLORefused(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 500, 100)
	cfg.Load.Concurrency, cfg.Load.Requests = 4, 16
	for _, tc := range []struct {
		slo   SLO
		field string
	}{
		{SLO{TTFTSeconds: math.NaN()}, "slo-ttft"},
		{SLO{TPOTSeconds: -0.05}, "slo-tpot"},
		{SLO{TTFTSeconds: 1, TPOTSeconds: 1e20}, "slo-tpot"},
		{SLO{TTFTSeconds: math.Inf(1)}, "slo-ttft"},
	} {
		c := cfg
		c.SLO = tc.slo
		_, err := Run(c)
		var ie *estimator.InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || !errors.Is(err, estimator.ErrRange) {
			t.Errorf("Run with SLO %+v: %v, want a range error on %s", tc.slo, err, tc.field)
		}
		if _, err := Replicas(cfg, 5, tc.slo, 4); !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("Replicas with SLO %+v: %v, want a range error on %s", tc.slo, err, tc.field)
		}
	}
	cfg.SLO = SLO{TTFTSeconds: 2, TPOTSeconds: 0.1}
	if r := run(t, cfg); r.SLOAttainment != 1 {
		t.Errorf("a loose SLO met by %.2f of the requests, want all", r.SLOAttainment)
	}
}

// The closed-form fast path (estimator.ServingModel.Point) and the
// simulator describe the same replica: at one request in flight the
// simulated TTFT less the fixed cost is the closed form's, and at a
// steady concurrency their throughput agrees within 5% and TPOT within
// 15% (the closed form spreads the prompts evenly over the steps). Their
// TTFT under load differs by design: the closed form's arrivals are
// staggered, the simulated client's are not.
func TestClosedFormAgrees(t *testing.T) {
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.TRTLLM} {
		cfg := testConfig(t, e, 1000, 500)
		cfg.Load.RangeRatio = 1
		for _, c := range []int{1, 16, 64, 256} {
			cfg.Load.Concurrency, cfg.Load.Requests = c, 40*c
			r := run(t, cfg)
			p, err := cfg.Model.Point(c)
			if err != nil {
				t.Fatal(err)
			}
			tpot := r.TPOT.Mean/p.TPOTSeconds - 1
			tps := r.OutputTokensPerSecond/p.TokensPerSecond - 1
			ttft := (r.TTFT.Mean-cfg.Policy.RequestSeconds)/p.TTFTSeconds - 1
			t.Logf("%s c=%d: TTFT %+.1f%% (sim %.4f − fixed, closed %.4f), TPOT %+.1f%%, tokens/s %+.1f%%", e, c, 100*ttft, r.TTFT.Mean, p.TTFTSeconds, 100*tpot, 100*tps)
			if math.Abs(tpot) > 0.15 || math.Abs(tps) > 0.05 || (c == 1 && math.Abs(ttft) > 0.01) {
				t.Errorf("%s at %d in flight: simulated TPOT %+.1f%%, tokens/s %+.1f%%, TTFT %+.1f%% off the closed form", e, c, 100*tpot, 100*tps, 100*ttft)
			}
		}
	}
}

// TensorRT-LLM's attention-DP balance (PyExecutor._balance_adp_requests,
// _schedule_attention_dp_requests): a new request joins the rank below the
// expected count with the fewest active prompt tokens, and context
// requests start when every rank has one, when a rank has some and none
// running, or at the iteration counter's turn, which comes every
// BalanceWaitSteps steps after the last start whether or not requests wait.
func TestBalanceRanks(t *testing.T) {
	s := state{p: Policy{BalanceRanks: 4, BalanceWaitSteps: 60}, ranks: make([]rankLoad, 4)}
	s.reqs = make([]request, 9)
	// Requests 0–3 run, one on each rank (the first wave fills them in
	// turn), with prompts of 100, 50, 100, 100 tokens.
	for i, prompt := range []int{100, 50, 100, 100} {
		r := &s.reqs[i]
		r.prompt = prompt
		s.assignRank(r)
		if int(r.rank) != i {
			t.Fatalf("first wave: request %d on rank %d, want %d", i, r.rank, i)
		}
		s.rankMove(r, -1, 1)
	}
	// Expected count ⌈5/4⌉ = 2: every rank is below it; rank 1 holds the
	// fewest tokens.
	r := &s.reqs[4]
	r.prompt = 10
	s.assignRank(r)
	if r.rank != 1 {
		t.Errorf("fifth request on rank %d, want 1 (fewest tokens)", r.rank)
	}
	// Rank 2's request finishes: the next one goes there, the only rank
	// below the expected count max(⌈5/4⌉, 2) = 2, though it holds more
	// tokens than rank 0 or 3.
	s.rankMove(&s.reqs[2], 0, -1)
	s.ranks[2].active--
	s.ranks[2].tokens -= 100
	r = &s.reqs[5]
	r.prompt = 10
	s.assignRank(r)
	if r.rank != 2 {
		t.Errorf("after rank 2's completion the new request is on rank %d, want 2", r.rank)
	}
	// Rank 2 now waits with nothing running: it starts at once (not every
	// rank has a generation request).
	s.waiting, s.wHead = []int32{4, 5}, 0
	s.steps, s.balanceFrom = 25, 0
	if w := s.balanceWait(); w != 0 || s.ranksCold != 1 {
		t.Errorf("a rank with requests and none running: wait %d (cold ranks %d), want 0 (1)", w, s.ranksCold)
	}
	// With a request running there, ranks 1 and 2 wait for the counter's
	// turn at step 60: 35 steps more.
	s.rankMove(&s.reqs[5], 0, 1)
	if w := s.balanceWait(); w != 35 {
		t.Errorf("at step 25: wait %d, want 35", w)
	}
	s.steps = 60
	if w := s.balanceWait(); w != 0 {
		t.Errorf("at step 60: wait %d, want 0 (the counter's turn)", w)
	}
	s.steps = 61 // the turn passed with no start: the next is at 120
	if w := s.balanceWait(); w != 59 {
		t.Errorf("at step 61: wait %d, want 59", w)
	}
	// Three more: rank 2 (fewest tokens among the ranks below the
	// expected 2), then 0, then 3. Every rank has one waiting: they start
	// at once.
	for i := 6; i < 9; i++ {
		r := &s.reqs[i]
		s.assignRank(r)
		s.rankMove(r, 0, 1)
		s.waiting = append(s.waiting, int32(i))
	}
	if s.ranksWaiting != 4 || s.balanceWait() != 0 {
		t.Errorf("every rank waiting (%d of 4): wait %d, want 0", s.ranksWaiting, s.balanceWait())
	}
}

// In a closed loop with arrivals far apart (8 ranks, 16 in flight, about
// one completion every 28 decode steps), the balance adds the wait for
// the counter's next turn: about half of the 60 steps on average, where a
// wait of 60 steps from each first waiting request would add about 45.
func TestBalanceWait(t *testing.T) {
	base := testConfig(t, estimator.TRTLLM, 512, 512)
	base.Load.Concurrency, base.Load.Requests, base.Load.RangeRatio = 16, 400, DefaultRangeRatio
	plain := run(t, base)
	bal := base
	bal.Policy.BalanceRanks, bal.Policy.BalanceWaitSteps = 8, 60
	held := run(t, bal)
	step := plain.TPOT.Mean
	got := (held.TTFT.Mean - plain.TTFT.Mean) / step
	t.Logf("balance wait: %.1f decode steps", got)
	if got < 0.4*60 || got > 0.6*60 {
		t.Errorf("balance wait adds %.1f decode steps to the mean TTFT, want about 30", got)
	}
	if held.Limit != LimitPolling {
		t.Errorf("limit %v, want %v", held.Limit, LimitPolling)
	}
	// Fewer in flight than ranks: a new request joins an empty rank, which
	// has no generation request, so nothing waits.
	few, fewPlain := bal, base
	few.Load.Concurrency, fewPlain.Load.Concurrency = 2, 2
	if a, b := run(t, few).TTFT.Mean, run(t, fewPlain).TTFT.Mean; math.Abs(a/b-1) > 1e-9 {
		t.Errorf("2 in flight on 8 ranks: TTFT %.4f s with the balance, %.4f s without", a, b)
	}
}

// TensorRT-LLM's attention-DP balance is the launch's, not a default
// (AttentionDpConfig.enable_balance is off unless set): a TP 8 DP 8
// replica schedules without it, and with Input.AttentionDPBalanceIters 60
// (the InferenceX recipes' timeout_iters) over its 8 ranks, 60 steps at
// most.
func TestAttentionDPBalanceIsExplicit(t *testing.T) {
	in := estimator.DefaultInput(readArch(t, "deepseek-v3"))
	in.Engine, in.VRAM, in.TP, in.DP, in.EP, in.GPUs, in.Weights = estimator.TRTLLM, 141*gib, 8, 8, 8, 8, estimator.FP8
	w := estimator.Workload{PromptTokens: 1024, OutputTokens: 256}
	cfg, err := NewConfig(in, h100SXM, estimator.Efficiency{}, w)
	if err != nil || cfg.Policy.BalanceRanks != 0 || cfg.Policy.BalanceWaitSteps != 0 {
		t.Fatalf("default: balance over %d ranks, %d steps (%v), want none", cfg.Policy.BalanceRanks, cfg.Policy.BalanceWaitSteps, err)
	}
	in.AttentionDPBalanceIters = 60
	cfg, err = NewConfig(in, h100SXM, estimator.Efficiency{}, w)
	if err != nil || cfg.Policy.BalanceRanks != 8 || cfg.Policy.BalanceWaitSteps != 60 {
		t.Errorf("--attention-dp-balance 60: balance over %d ranks, %d steps (%v), want 8 and 60", cfg.Policy.BalanceRanks, cfg.Policy.BalanceWaitSteps, err)
	}
}

// SGLang divides its chunked prefill size by the DP size under attention
// DP (server_args.py, _handle_data_parallelism): a DP 8 replica's budget
// stays the flag's (8,192 on a 141 GiB GPU), each rank's is 1,024, and one
// 8k prompt, on one rank, takes eight steps of 1,024 tokens, each reading
// the weights: a lone prompt's TTFT is 1.20 s where one step of the whole
// prompt made it 1.05 s (both with the prompt's attention on its one rank
// of the eight, rankSkewGrowth: 0.58 and 0.34 s spread over the eight).
// TensorRT-LLM's ranks each schedule a whole budget (the copy's is 8 of
// them).
func TestSGLangDPAttentionDividesTheChunk(t *testing.T) {
	in := estimator.DefaultInput(readArch(t, "deepseek-v3"))
	in.Engine, in.VRAM, in.TP, in.DP, in.EP, in.GPUs, in.Weights = estimator.SGLang, 141*gib, 8, 8, 8, 8, estimator.FP8
	w := estimator.Workload{PromptTokens: 8192, OutputTokens: 64}
	cfg, err := NewConfig(in, h100SXM, estimator.Efficiency{}, w)
	if err != nil || cfg.Policy.TokenBudget != 8192 || cfg.Policy.ChunkCap != 1024 {
		t.Fatalf("SGLang DP 8: budget %d, chunk %d (%v); want 8192 and 1024", cfg.Policy.TokenBudget, cfg.Policy.ChunkCap, err)
	}
	cfg.Load = Load{PromptTokens: 8192, OutputTokens: 64, Concurrency: 1, Requests: 3}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whole := cfg
	whole.Policy.ChunkCap = 0
	one, err := Run(whole)
	if err != nil {
		t.Fatal(err)
	}
	step := cfg.Model.StepSeconds(estimator.Step{PrefillTokens: 1024, PrefillSeqs: 1, PrefillContext: 1024 * 1025 / 2, PrefillKV: 1024})
	if res.TTFT.Mean < 8*step || res.TTFT.Mean < 1.1*one.TTFT.Mean {
		t.Errorf("an 8k prompt in 1,024-token chunks: TTFT %.3f s, want at least 8 steps of the first chunk's %.1f ms and 1.1 × the %.3f s of one step", res.TTFT.Mean, step*1e3, one.TTFT.Mean)
	}
	in.Engine = estimator.TRTLLM
	cfg, err = NewConfig(in, h100SXM, estimator.Efficiency{}, w)
	if err != nil || cfg.Policy.ChunkCap != 0 || cfg.Policy.TokenBudget != 8*trtBudget {
		t.Errorf("TensorRT-LLM DP 8: budget %d, chunk %d (%v); want 8 × %d and none", cfg.Policy.TokenBudget, cfg.Policy.ChunkCap, err, trtBudget)
	}
}

// SGLang's receive interval is the launch's, not a default: SGLang on a
// Blackwell GPU polls for new requests every pass (its
// scheduler_recv_interval 1) unless Input.SchedulerRecvInterval says
// otherwise, as the InferenceX B200 recipes' 10 does; then a new request
// waits for the next poll, so the median TTFT grows.
func TestRecvIntervalIsExplicit(t *testing.T) {
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = estimator.SGLang, 80*gib
	hw := h100SXM
	hw.Generation = estimator.GenBlackwell
	w := estimator.Workload{PromptTokens: 1024, OutputTokens: 256}
	b := Bench{Concurrency: 4, RangeRatio: DefaultRangeRatio, Seed: 1}
	bench := func(interval int) (Config, Result) {
		t.Helper()
		in.SchedulerRecvInterval = interval
		cfg, res, err := Benchmark(in, hw, estimator.Efficiency{}, w, b)
		if err != nil {
			t.Fatal(err)
		}
		return cfg, res
	}
	plain, r0 := bench(0)
	set, r10 := bench(10)
	if plain.Policy.AdmitEvery != 0 || set.Policy.AdmitEvery != 10 {
		t.Fatalf("AdmitEvery %d by default and %d with --scheduler-recv-interval 10, want 0 and 10", plain.Policy.AdmitEvery, set.Policy.AdmitEvery)
	}
	if !(r10.TTFT.P50 > r0.TTFT.P50) {
		t.Errorf("median TTFT %.4f s polling every 10 passes, %.4f s every pass: want longer", r10.TTFT.P50, r0.TTFT.P50)
	}
	if cfg, err := NewConfig(in, hw, estimator.Efficiency{}, w); err != nil || cfg.Policy.AdmitEvery != 10 || !cfg.Policy.RecvSkip {
		t.Errorf("NewConfig: AdmitEvery %d, receive skipper %v (%v), want 10 and SGLang's", cfg.Policy.AdmitEvery, cfg.Policy.RecvSkip, err)
	}
}

// SGLang's receive interval skips taking requests off its socket, not
// scheduling its waiting queue (Policy.RecvSkip): a prefill step makes
// the next step take new requests in, and requests already taken in start
// at the next step with room. With every prompt the size of the token
// budget, a queue held to every 30th step (vLLM's multi-step scheduling,
// the form the simulator gave SGLang's interval before) admits a prompt
// each 30 steps and lets the closed loop's queue grow; SGLang's own
// skipper keeps TTFT near the prefill's own time.
func TestRecvSkipHoldsTheSocketNotTheQueue(t *testing.T) {
	cfg := testConfig(t, estimator.SGLang, 8192, 256)
	cfg.Policy.TokenBudget, cfg.Policy.AdmitEvery, cfg.Policy.RecvSkip = 8192, 30, true
	cfg.Load.Concurrency, cfg.Load.Requests = 32, 320
	held := cfg
	held.Policy.RecvSkip = false
	rs, rh := run(t, cfg), run(t, held)
	if !(rs.TTFT.P50*3 < rh.TTFT.P50) || !(rs.OutputTokensPerSecond > rh.OutputTokensPerSecond) {
		t.Errorf("median TTFT %.3f s and %.0f tok/s with SGLang's receive skipper, %.3f s and %.0f tok/s with the queue held: want far shorter and faster",
			rs.TTFT.P50, rs.OutputTokensPerSecond, rh.TTFT.P50, rh.OutputTokensPerSecond)
	}
	// The counter: a decode run adds a step each and restarts at the
	// interval; a prefill step makes the next check take requests in.
	s := state{p: cfg.Policy}
	for _, c := range []struct {
		from, steps, want int64
	}{{0, 29, 29}, {0, 30, 30}, {0, 31, 1}, {5, 3, 8}, {12, 95, 17}} {
		s.recv = c.from
		s.plan = s.plan[:0]
		s.addRecv(c.steps)
		if s.recv != c.want {
			t.Errorf("receive counter from %d after %d decode steps: %d, want %d", c.from, c.steps, s.recv, c.want)
		}
	}
	s.recv, s.plan = 3, []chunk{{0, 1}}
	if s.addRecv(1); s.recv < int64(cfg.Policy.AdmitEvery) {
		t.Errorf("receive counter %d after a prefill step, want at least %d", s.recv, cfg.Policy.AdmitEvery)
	}
}
