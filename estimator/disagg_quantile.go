package estimator

import "math"

// The quantiles of a disaggregated replica's TTFT and TPOT over its
// requests (Disagg.Quantile), so that a planner sizes the replica on the
// statistic its SLOs name, as it sizes aggregated serving.

// mdWaitQuantile is the q-quantile of the waiting time of an M/D/1 queue
// of load rho < 1 whose service takes s seconds (arrivals at rate rho/s).
// Its distribution is Erlang's (1909) and Crommelin's (1932, "Delay
// probability formulae when the holding times are constant", P.O.E.E.J.
// 25; Iversen, "Teletraffic Engineering and Network Planning", DTU 2015,
// the M/D/1 waiting time): in units of s and with T = ⌊τ⌋,
//
//	P(W ≤ τ) = (1 − ρ) Σ_{j=0..T} (ρ(j − τ))^j / j! · e^{ρ(τ − j)}.
//
// Its terms alternate in sign and grow as e^{2ρτ}, so in float64 it is
// evaluated only up to τ = mdExactSpan (terms below e^16, the sum good to
// about 1e-9); beyond it the tail is the Cramér–Lundberg asymptote of the
// M/G/1 wait (Asmussen and Albrecher, "Ruin Probabilities", 2nd ed. 2010,
// ch. IV: P(W > t) ~ C e^{−γt}, with γ the positive root of λ(E e^{γS} −
// 1) = γ and C = (1 − ρ)/(λ E[S e^{γS}] − 1)), for constant service in
// units of s: ρ(e^g − 1) = g and C = (1 − ρ)/(ρ e^g − 1). At ρ = 0.5 the
// asymptote's P(W > 2s) is 0.0536 against the exact 0.0530; it is exact
// in the limit, and TestMD1WaitQuantile checks both against a simulated
// queue (Lindley's recursion).
func mdWaitQuantile(rho, s, q float64) float64 {
	switch {
	case !(rho > 0) || !(s > 0) || !(q > 0):
		return 0
	case !(rho < 1) || !(q < 1):
		return math.Inf(1)
	case 1-rho >= q: // P(W = 0) = 1 − ρ
		return 0
	}
	if mdWaitCDF(rho, mdExactSpan) >= q {
		lo, hi := 0.0, float64(mdExactSpan)
		for range 60 {
			mid := (lo + hi) / 2
			if mdWaitCDF(rho, mid) >= q {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi * s
	}
	g := mdDecay(rho)
	c := (1 - rho) / (rho*math.Exp(g) - 1)
	return math.Max(mdExactSpan, math.Log(c/(1-q))/g) * s
}

// mdExactSpan is how many service times of wait mdWaitCDF evaluates.
const mdExactSpan = 8.0

// mdWaitCDF is P(W ≤ τ) of M/D/1 at load rho, τ in service times
// (mdWaitQuantile's Crommelin sum).
func mdWaitCDF(rho, tau float64) float64 {
	sum, fact := 0.0, 1.0
	for j := 0; float64(j) <= tau; j++ {
		if j > 0 {
			fact *= float64(j)
		}
		sum += math.Pow(rho*(float64(j)-tau), float64(j)) / fact * math.Exp(rho*(tau-float64(j)))
	}
	return math.Min(1, (1-rho)*sum)
}

// mdDecay is the positive root g of ρ(e^g − 1) = g for 0 < ρ < 1 (the
// Cramér–Lundberg exponent of M/D/1 in units of the service time): the
// left side is convex, below g at 0+ and above it for large g, so
// bisection between 0 and the first doubling that overshoots.
func mdDecay(rho float64) float64 {
	f := func(g float64) float64 { return rho*math.Expm1(g) - g }
	hi := 1.0
	for f(hi) <= 0 && hi < 1e3 {
		hi *= 2
	}
	lo := 0.0
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) <= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// normalQuantile is the standard normal distribution's q-quantile,
// √2·erf⁻¹(2q − 1).
func normalQuantile(q float64) float64 { return math.Sqrt2 * math.Erfinv(2*q-1) }
