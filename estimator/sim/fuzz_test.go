package sim

import (
	"math"
	"testing"

	"rightsize/estimator"
)

// FuzzRun: any policy and load either runs to a result whose figures are
// finite and ordered (p50 ≤ p99 ≤ max, TTFT ≥ the fixed cost) or returns an
// error; it never panics or hangs, and the plain scheduler loop
// (Config.plain) gives the same result.
func FuzzRun(f *testing.F) {
	f.Add(uint8(1), 64, 8192, 32, 1000, 200, 0.8, 0.02, true, true, 0.0, true, uint16(0), int64(0))
	f.Add(uint8(3), 0, 100, 0, 5000, 1, 0.0, 0.0, false, false, 1.0, false, uint16(30), int64(20000))
	f.Add(uint8(2), 3, 1, 7, 1, 1, 1.0, 0.5, false, true, 0.7, true, uint16(2), int64(0))
	cfg := testConfig(f, estimator.VLLM, 100, 10)
	// The decode-step table from the first step, in 16 slots (as
	// TestShortcutsMatchPlain).
	defer func(n, b int) { stepTableAfter, stepTableBits = n, b }(stepTableAfter, stepTableBits)
	stepTableAfter, stepTableBits = 0, 4
	f.Fuzz(func(t *testing.T, engine uint8, seqs, budget, conc, prompt, output int, ratio, fixed float64,
		mixed, chunked bool, reserve float64, preempt bool, every uint16, kv int64) {
		c := cfg
		c.Policy = Policy{Engine: estimator.Engine(engine % 6), MaxSeqs: seqs % 4096, TokenBudget: budget % 70000, Mixed: mixed,
			Chunked: chunked, ReserveOutput: reserve, Preempt: preempt, RequestSeconds: fixed, AdmitEvery: int(every)}
		c.Load = Load{Requests: 50, Concurrency: conc % 300, RatePerSecond: 20, PromptTokens: prompt % 20000, OutputTokens: output % 3000, RangeRatio: ratio}
		c.KVTokens = kv % 10_000_000
		if every%3 == 1 {
			c.Load.FirstWaveSeconds = 3 * fixed // a cold first wave (closed loops)
		}
		r, err := Run(c)
		plain := c
		plain.plain = true
		if p, perr := Run(plain); p != r || (err == nil) != (perr == nil) {
			t.Fatalf("with the shortcuts %+v (%v), without %+v (%v)", r, err, p, perr)
		}
		if err != nil {
			return
		}
		for _, d := range []Dist{r.TTFT, r.TPOT, r.E2E, r.Queue} {
			for _, v := range []float64{d.Mean, d.P50, d.P99, d.Max} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("non-finite figure in %+v", r)
				}
			}
			if d.P50 > d.P99+1e-12 || d.P99 > d.Max+1e-12 {
				t.Fatalf("percentiles out of order: %+v", d)
			}
		}
		if r.Requests != 50 || r.TTFT.P50 < c.Policy.RequestSeconds-1e-12 {
			t.Fatalf("result %+v", r)
		}
	})
}
