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
// TTFT and TPOT, at the statistic the SLOs name (Workload.SLOStat; p95
// by default), meet the SLOs (searchCopies: to 1/64 of the count
// beyond 128 copies). A shape whose lone request on an idle replica
// already misses them is set aside at once (idle). The row quotes that
// run's figures, so a plan's p95 TTFT is what the simulator gives for its
// replica count at the requested rate. The closed form compares the same
// statistic where it can compute it (serveCurve.at, sustainable).

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
	cfg  sim.Config
	ok   bool
	runs map[int]simServe
	// found is the copies the last search (simCopies) settled on: the
	// next search of the shape, for an offer of another instance size,
	// starts there.
	found int
	yield func() // Options.yield, before each run
}

// simConfig sets up the simulation of the copy input in on hw; false
// when the engine does not batch continuously or the copy has no serving
// model. Its Model is estimator.NewServingModel(in, hw, the request's
// efficiency, p.work): sim.NewConfig reads a workload's lengths as they
// are unless both are 0, and p.work's prompt is at least 1
// (newPlanner), so the serving curve reads its points from the same
// model (curve).
func (p *planner) simConfig(in estimator.Input, hw estimator.Hardware) (sim.Config, bool) {
	if !sim.Simulatable(in, p.work) {
		return sim.Config{}, false
	}
	cfg, err := sim.NewConfig(in, hw, p.req.Assumptions.Efficiency, p.work)
	if err != nil {
		return sim.Config{}, false
	}
	cfg.Load.Requests, cfg.Load.Seed, cfg.Load.RangeRatio = simRequests, 1, 1
	cfg.SkipQueue = true // no plan reads it
	return cfg, true
}

// newSimMemo holds the runs of the simulation cfg (simConfig); its ok is
// false when there is none.
func (p *planner) newSimMemo(cfg sim.Config, ok bool) *simMemo {
	return &simMemo{cfg: cfg, ok: ok, runs: map[int]simServe{}, yield: p.opts.yield}
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
	s := simServe{res: res, meets: meetsSLO(w, res)}
	m.runs[k] = s
	return s, true
}

// run simulates one copy of the shape under Poisson arrivals at rate
// requests/s, after the planner's yield (Options.Yield).
func (m *simMemo) run(rate float64) (sim.Result, error) {
	c := m.cfg
	c.Load.Concurrency, c.Load.RatePerSecond = 0, rate
	// A row quotes its run's mean end-to-end time alone (servingTech);
	// the copy's configuration (Row.Sim) keeps every figure for the
	// page's load chart.
	c.E2EMeanOnly = true
	m.yield()
	return sim.Run(c)
}

// idle is the simulated run of one request on an empty replica (a
// closed loop of one): the engine's fixed cost per request, the prompt's
// prefill steps with nothing else in them and a decode step per token for
// one sequence. No request does better at any load: a busier replica
// shares its steps (a step of more tokens or sequences takes no less time
// in the step model), splits a prompt into more chunks (each step pays
// the weight reads again), queues, polls or preempts, and every request
// of a sizing run has the same lengths (Load.RangeRatio 1). So its TTFT
// and TPOT are floors under the p95s of any replica count: an SLO below
// them is met by no count.
func (m *simMemo) idle() (sim.Result, bool) {
	m.yield()
	res, err := idleRun(m.cfg)
	return res, err == nil
}

// idleRun is c's run of one request on an empty replica (simMemo.idle).
func idleRun(c sim.Config) (sim.Result, error) {
	c.Load.Requests, c.Load.Concurrency, c.Load.RatePerSecond = 1, 1, 0
	return sim.Run(c)
}

// floor is why no replica count of sc meets the SLOs in the simulator
// (the idle run's TTFT or TPOT is above them), or false when a count may.
// It costs one short run per shape, and spares the search (simCopies) and
// the fleet's bisection (perCopy) their runs at every count up to the
// instance limit.
func (p *planner) floor(sc *serveCurve) (Reason, bool) {
	w := p.req.Workload
	if sc.sim == nil || !sc.sim.ok || (w.TTFTP95Seconds == 0 && w.TPOTSeconds == 0) {
		return Reason{}, false
	}
	res, ok := sc.sim.idle()
	if !ok {
		return Reason{}, false
	}
	// A relative margin keeps a count whose p95 equals the floor (the
	// lightest loads) from being ruled out by rounding.
	const margin = 1 + 1e-9
	switch {
	// One request's run has one TTFT and one TPOT: every statistic of it
	// is that value.
	case w.TTFTP95Seconds > 0 && res.TTFT.P95 > w.TTFTP95Seconds*margin:
		return Reason{Key: MsgSLOTTFTPrefill, Args: []any{res.TTFT.P95}}, true
	case w.TPOTSeconds > 0 && res.TPOT.P95 > w.TPOTSeconds*margin:
		return tpotReason(sc.bound, res.TPOT.P95), true
	}
	return Reason{}, false
}

// sloBinds is the note of a row whose replica count a latency target sets
// (bind, from simCopies): the idle run's figure against the target and the
// load each replica runs at. Near the floor a target costs replicas far
// beyond the rate's: Llama 3.1 70B on T4s under the default 100 ms TPOT
// rented 17 copies at 7% load each, as one sequence alone decodes at
// 85 ms a token, and the plan's table said only "binding: tpot".
func (p *planner) sloBinds(sc *serveCurve, bind sim.Binding, load float64) (Reason, bool) {
	w := p.req.Workload
	if bind != sim.BindTTFT && bind != sim.BindTPOT {
		return Reason{}, false
	}
	res, ok := sc.sim.idle()
	if !ok {
		return Reason{}, false
	}
	// One request's run has one TTFT and one TPOT: every statistic of it
	// is that value (floor).
	key, idle, target := MsgNoteTTFTBinds, res.TTFT.P95, w.TTFTP95Seconds
	if bind == sim.BindTPOT {
		key, idle, target = MsgNoteTPOTBinds, res.TPOT.P95, w.TPOTSeconds
	}
	if !(target > 0) {
		return Reason{}, false
	}
	return Reason{Key: key, Args: []any{idle, 100 * idle / target, target, 100 * load}}, true
}

// simCopies is the smallest replica count from the utilisation cap's
// floor to hi (copies of the shape, in steps of step) whose simulated run
// meets the SLOs at lam (searchCopies, from guess), and what binds it; ok
// is false when none does or the shape cannot be simulated.
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
	if f := sc.sim.found; f > 0 {
		// Another offer's search of this shape at this rate (another
		// step): the answer lies within a step of it.
		guess = f
	}
	k, miss, ok := searchCopies(lo, hi, step, guess, func(k int) (bool, bool) {
		s, ok := sc.sim.at(k, lam, w)
		return s.meets, ok
	})
	if !ok {
		return 0, sim.BindNone, false
	}
	sc.sim.found = k
	// What needed the last copies: the SLO figure that the largest count
	// known to miss (k − step, but for the search's margin) misses, or
	// the utilisation floor.
	switch {
	case k <= step:
		return k, sim.BindNone, true
	case miss == 0:
		return k, sim.BindThroughput, true
	}
	d, ok := sc.sim.at(miss, lam, w)
	if ok && w.TTFTP95Seconds > 0 && w.SLOStat.Of(d.res.TTFT) > w.TTFTP95Seconds {
		return k, sim.BindTTFT, true
	}
	return k, sim.BindTPOT, true
}

// searchCopies is the smallest multiple of step in [lo, hi] (both
// rounded up to steps) at which meets holds, and miss, the largest count
// below it known to miss (0 when the answer is lo's multiple); ok is
// false when no count up to hi meets or meets fails to run (its second
// result false).
//
// The search starts at guess (the closed form's count, usually within a
// step or two of the answer) and gallops: up while the count misses, down
// while it meets, the stride doubling each time, then bisects between the
// last count that misses and the first that meets. Meeting the SLOs is
// monotone in the count up to the simulator's sampling noise (fewer
// requests per replica queue less), so this finds the count a one-step
// scan finds wherever the answer is monotone, with the same runs when it
// lies a step from the guess. It settles to the step up to 128 steps and
// to 1/64 of the count beyond: a margin of at most 1.6%, inside the
// sampling noise of a p95 over simRequests requests at such counts
// (their p95 TTFT moves by several percent between neighbouring counts),
// which spares the largest and slowest runs.
//
// It costs at most 2⌈log₂(hi/step)⌉ + 2 runs: 28 at --max-instances 8192
// (the CLI's bound), where a scan cost up to 8,192. Each run is
// simRequests requests of at most (prompt chunks + output / the engine's
// polling interval) scheduler events. The worst case measured on the
// catalog is SGLang on Blackwell, which polls every 10 steps, serving
// 16k-token outputs at a TTFT target within the noise of the idle floor:
// at thousands of replicas each request runs alone, and most of its
// decode steps repeat the previous request's, which the run reads from
// its step table (sim); about 1.6 s of CPU for the plan (6.8 s before
// the table).
func searchCopies(lo, hi, step, guess int, meets func(k int) (bool, bool)) (k, miss int, ok bool) {
	up := func(k int) int { return (max(k, 1) + step - 1) / step * step }
	tol := func(k int) int { return max(step, k/64/step*step) }
	hi = hi / step * step
	lo, k = up(lo), up(max(guess, lo))
	if k > hi {
		return 0, 0, false
	}
	m, ok := meets(k)
	if !ok {
		return 0, 0, false
	}
	if !m {
		// Up, the stride doubling, to the first count that meets.
		miss = k
		for d := step; ; d *= 2 {
			if miss == hi {
				return 0, 0, false
			}
			k = min(miss+d, hi)
			if m, ok = meets(k); !ok {
				return 0, 0, false
			}
			if m {
				break
			}
			miss = k
		}
	} else {
		// Down, the stride doubling, while the count meets, not below
		// lo.
		for d := tol(k); k > lo; d *= 2 {
			n := max(k-d, lo)
			if m, ok = meets(n); !ok || !m {
				miss = n
				break
			}
			k = n
		}
	}
	// Bisect (miss, k] in steps of step, down to tol(k).
	for miss > 0 && k-miss > tol(k) {
		mid := miss + (k-miss)/step/2*step
		if m, ok = meets(mid); ok && m {
			k = mid
		} else {
			miss = mid
		}
	}
	return k, miss, true
}
