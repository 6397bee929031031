package plan

import (
	"math"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Serving plans are sized by the engine simulator (estimator/sim): the
// closed-form curve (serveCurve) ranks shapes and gives a first replica
// count; the simulator then runs the replica under its engine's scheduler
// at the target rate spread over k replicas (Poisson arrivals, which a
// random or least-loaded router splits into Poisson streams) and k is the
// smallest count, from the utilisation cap's floor up, whose simulated
// p95 TTFT and p95 TPOT meet the SLOs. The row quotes that run's figures,
// so a plan's p95 TTFT is what the simulator gives for its replica count
// at the requested rate.

// simRequests is the requests of one sizing run: enough for a p95 over
// two hundred requests, few enough for the page to plan a thousand
// offers.
const simRequests = 150

// simServe is the simulated deployment of one copy shape at k replicas.
type simServe struct {
	res   sim.Result
	meets bool
}

// simMemo holds a shape's simulations by replica count; a serveCurve's
// copies share it.
type simMemo struct {
	cfg   sim.Config
	ok    bool
	runs  map[int]simServe
	yield func() // Options.yield, before each run
}

// newSimMemo sets up the simulation of copy shape cs on hw; ok is false
// when the engine does not batch continuously or the shape has no
// serving model.
func (p *planner) newSimMemo(in estimator.Input, hw estimator.Hardware) *simMemo {
	m := &simMemo{runs: map[int]simServe{}, yield: p.opts.yield}
	if !sim.Simulatable(in, p.work) {
		return m
	}
	cfg, err := sim.NewConfig(in, hw, p.req.Assumptions.Efficiency, p.work)
	if err != nil {
		return m
	}
	cfg.Load.Requests, cfg.Load.Seed, cfg.Load.RangeRatio = simRequests, 1, 1
	m.cfg, m.ok = cfg, true
	return m
}

// at is the simulated run of k replicas at total rate lam.
func (m *simMemo) at(k int, lam float64, w Workload) (simServe, bool) {
	if r, ok := m.runs[k]; ok {
		return r, true
	}
	res, err := m.run(lam / float64(k))
	if err != nil {
		return simServe{}, false
	}
	s := simServe{res: res, meets: (w.TTFTP95Seconds == 0 || res.TTFT.P95 <= w.TTFTP95Seconds) &&
		(w.TPOTSeconds == 0 || res.TPOT.P95 <= w.TPOTSeconds)}
	m.runs[k] = s
	return s, true
}

// run simulates one copy of the shape under Poisson arrivals at rate
// requests/s, after the planner's yield (Options.Yield).
func (m *simMemo) run(rate float64) (sim.Result, error) {
	c := m.cfg
	c.Load.Concurrency, c.Load.RatePerSecond = 0, rate
	m.yield()
	return sim.Run(c)
}

// simCopies is the smallest replica count from the utilisation cap's
// floor to hi (copies of the shape, in steps of step) whose simulated run
// meets the SLOs at lam, searched from guess (the closed form's count)
// down while it meets them and up while it does not, and what binds it;
// ok is false when none does or the shape cannot be simulated.
func (p *planner) simCopies(sc *serveCurve, lam float64, guess, hi, step int) (int, sim.Binding, bool) {
	if sc.sim == nil || !sc.sim.ok {
		return 0, sim.BindNone, false
	}
	w := p.req.Workload
	cap := w.MaxUtilisation
	if cap == 0 {
		cap = DefaultMaxUtilisation
	}
	// The utilisation cap's floor: no replica above cap × its saturated
	// rate (the headroom the request asks for).
	lo := 1
	if raw := sc.rawRate(p.output); raw > 0 {
		lo = max(lo, int(math.Ceil(lam/(cap*raw)-1e-9)))
	}
	up := func(k int) int { return (max(k, 1) + step - 1) / step * step }
	lo, k := up(lo), up(max(guess, lo))
	if k > hi {
		return 0, sim.BindNone, false
	}
	s, ok := sc.sim.at(k, lam, w)
	if !ok {
		return 0, sim.BindNone, false
	}
	if !s.meets {
		for {
			if k+step > hi {
				return 0, sim.BindNone, false
			}
			k += step
			if s, ok = sc.sim.at(k, lam, w); !ok {
				return 0, sim.BindNone, false
			}
			if s.meets {
				break
			}
		}
	} else {
		for k-step >= lo {
			d, ok := sc.sim.at(k-step, lam, w)
			if !ok || !d.meets {
				break
			}
			k = k - step
		}
	}
	// What needed the last copies: the SLO figure that k − step misses,
	// or the utilisation floor.
	switch {
	case k <= step:
		return k, sim.BindNone, true
	case k-step < lo:
		return k, sim.BindThroughput, true
	}
	d, ok := sc.sim.at(k-step, lam, w)
	if ok && w.TTFTP95Seconds > 0 && d.res.TTFT.P95 > w.TTFTP95Seconds {
		return k, sim.BindTTFT, true
	}
	return k, sim.BindTPOT, true
}
