package estimator

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMD1WaitQuantile: the M/D/1 wait's quantiles against a simulated
// queue (Lindley's recursion W' = max(0, W + S − A) over 1,500,000
// Poisson arrivals, one second of service) at loads from light to heavy,
// for the median to p99, on both sides of the exact sum's span; the
// known values of Crommelin's sum at ρ = 0.5 (P(W ≤ 1) = e^0.5/2,
// P(W ≤ 2) = (e − e^0.5/2)/2); and the mean's bounds.
func TestMD1WaitQuantile(t *testing.T) {
	if got, want := mdWaitCDF(0.5, 1), math.Exp(0.5)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("P(W ≤ 1) at ρ 0.5: %v, want %v", got, want)
	}
	if got, want := mdWaitCDF(0.5, 2), (math.E-math.Exp(0.5)/2)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("P(W ≤ 2) at ρ 0.5: %v, want %v", got, want)
	}
	for _, rho := range []float64{0.3, 0.6, 0.8, 0.9} {
		r := rand.New(rand.NewPCG(1, uint64(rho*100)))
		const n = 1_500_000
		w, ws := 0.0, make([]float64, n)
		for i := range ws {
			ws[i] = w
			w = math.Max(0, w+1-r.ExpFloat64()/rho)
		}
		slices.Sort(ws)
		for _, q := range []float64{0.5, 0.9, 0.95, 0.99} {
			got, sim := mdWaitQuantile(rho, 1, q), ws[int(q*n)]
			// Sampling error of a tail quantile of a correlated series:
			// 5% or a twentieth of a service time.
			if math.Abs(got-sim) > math.Max(0.05*sim, 0.05) {
				t.Errorf("ρ %v: q%v wait %.3f s, simulated %.3f s", rho, q, got, sim)
			}
			if got2 := mdWaitQuantile(rho, 2.5, q); math.Abs(got2-2.5*got) > 1e-9 {
				t.Errorf("ρ %v: q%v not proportional to the service time: %v against %v", rho, q, got2, 2.5*got)
			}
		}
	}
	if mdWaitQuantile(0.4, 1, 0.5) != 0 || !math.IsInf(mdWaitQuantile(1, 1, 0.95), 1) || mdWaitQuantile(0, 1, 0.99) != 0 {
		t.Error("the median at light load waits, or a full queue is finite, or an idle one waits")
	}
}
