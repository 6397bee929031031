package plan

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func TestErlangC(t *testing.T) {
	for _, c := range []struct {
		k    int
		a    float64
		want float64
	}{
		{1, 0.5, 0.5},   // M/M/1: P(wait) = ρ
		{2, 1, 1.0 / 3}, // (a²/2!)·2/(2−1) / (1 + a + a²/2!·2) = 1/3
		{3, 2, 4.0 / 9}, // (8/6)·3 / (1 + 2 + 2 + 4) = 4/9
		{10, 0, 0},      // no load, no wait
		{4, 4, 1},       // saturated
		{200, 150, erlangCDirect(200, 150)},
	} {
		if got := erlangC(c.k, c.a); !near(got, c.want, 1e-9) && !(c.want == 0 && got == 0) {
			t.Errorf("erlangC(%d, %v) = %v, want %v", c.k, c.a, got, c.want)
		}
	}
	// More servers at the same load never wait more.
	for k := 2; k < 50; k++ {
		if erlangC(k, 1.5) > erlangC(k-1, 1.5)+1e-12 {
			t.Errorf("erlangC not decreasing in k at %d", k)
		}
	}
}

// erlangCDirect is the textbook sum, in logs, for the large-k check.
func erlangCDirect(k int, a float64) float64 {
	logTerm := func(j int) float64 { lg, _ := math.Lgamma(float64(j + 1)); return float64(j)*math.Log(a) - lg }
	top := math.Exp(logTerm(k)) * float64(k) / (float64(k) - a)
	sum := 0.0
	for j := 0; j < k; j++ {
		sum += math.Exp(logTerm(j))
	}
	return top / (sum + top)
}

func TestDaly(t *testing.T) {
	// Young's first-order term: δ = 60 s, M = 24 h → √(2·60·86400) ≈ 3220 s;
	// Daly's correction adds (1/3)√(δ/2M) etc. and subtracts δ.
	delta, m := 60.0, 86400.0
	tau := dalyInterval(delta, m)
	young := math.Sqrt(2 * delta * m)
	x := delta / (2 * m)
	if want := young*(1+math.Sqrt(x)/3+x/9) - delta; !near(tau, want, 1e-12) || tau < 3100 || tau > 3200 {
		t.Errorf("tau = %v, want %v (≈ 3180)", tau, want)
	}
	// τ minimises the expected wall time (within the approximation's
	// error: ±20% of τ costs more).
	ts, restart := 72*3600.0, 600.0
	best := dalyWallTime(ts, tau, delta, restart, m)
	for _, f := range []float64{0.5, 0.8, 1.25, 2} {
		if w := dalyWallTime(ts, tau*f, delta, restart, m); w < best {
			t.Errorf("T_w(%.2fτ) = %v < T_w(τ) = %v", f, w, best)
		}
	}
	// Interruptions cost time: T_w > T_s; and δ ≥ 2M falls back to τ = M.
	if !(best > ts) {
		t.Errorf("T_w = %v, want > T_s = %v", best, ts)
	}
	if got := dalyInterval(3000, 1000); got != 1000 {
		t.Errorf("dalyInterval(δ ≥ 2M) = %v, want M", got)
	}
	// No interruptions: only the checkpoints' own time.
	if got := dalyWallTime(1000, 100, 10, 600, math.Inf(1)); got != 1100 {
		t.Errorf("no-interruption wall time %v, want 1100", got)
	}
}

func TestServeCurveInterpolates(t *testing.T) {
	sc := serveCurve{c: []float64{1, 8, 64}, tpot: []float64{0.010, 0.012, 0.030}, ttft: []float64{0.1, 0.1, 0.1}, kvMax: 64}
	for _, c := range []struct{ c, want float64 }{{0.5, 0.010}, {1, 0.010}, {4.5, 0.011}, {36, 0.021}, {128, 0.030 + 64*0.018/56}} {
		if got := sc.interp(sc.tpot, c.c); !near(got, c.want, 1e-9) {
			t.Errorf("tpot(%v) = %v, want %v", c.c, got, c.want)
		}
	}
	// Little's law: at the concurrency found for a rate, c / (TTFT +
	// out·TPOT) is that rate; beyond the pool's throughput there is none.
	const out = 100
	for _, lam := range []float64{0.5, 3, 8, 15} {
		c, ok := sc.concurrency(lam, out)
		if !ok {
			t.Fatalf("%v req/s: not served", lam)
		}
		cc := math.Max(c, 1)
		if got := c / (sc.interp(sc.ttft, cc) + out*sc.interp(sc.tpot, cc)); !near(got, lam, 2e-3) {
			t.Errorf("%v req/s: c = %v completes %v req/s", lam, c, got)
		}
	}
	if _, ok := sc.concurrency(1.01*sc.rawRate(out), out); ok {
		t.Errorf("a rate above the full pool's %v req/s was served", sc.rawRate(out))
	}
}

// TestSearchInstances: for every threshold and guess, the search finds
// the smallest n that fits, or none.
func TestSearchInstances(t *testing.T) {
	for limit := 1; limit <= 70; limit++ {
		for need := 1; need <= limit+2; need++ {
			for guess := 0; guess <= limit+3; guess++ {
				looks := 0
				n, ok := searchInstances(limit, guess, func(n int) (int, bool) {
					looks++
					if n < 1 || n > limit {
						t.Fatalf("limit %d: looked at %d", limit, n)
					}
					return n, n >= need
				})
				if want := need <= limit; ok != want || (ok && n != need) {
					t.Fatalf("limit %d need %d guess %d: %d %v", limit, need, guess, n, ok)
				}
				if guess == need && need > 1 && need <= limit && looks > 2 {
					t.Errorf("right guess %d took %d looks", guess, looks)
				}
			}
		}
	}
}
