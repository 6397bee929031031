package plan

import (
	"math"
	"runtime"
)

// prewarmPeak runs, in parallel, the simulated search the serving planner
// will run for each copy shape of the peak plan: servingTech picks a
// shape by the closed form (the fewest instances at the rate; ties: the
// lower closed-form p95 end-to-end time) and simCopies searches its
// replica count from the closed form's, with the same arguments here.
// Each simulation set-up has its own serving model and run memo
// (simMemo), so searches of different shapes share nothing; the plan then
// finds every run memoised and is the same plan, whatever the schedule. A
// shape the planner would not pick only costs its search.
func (p *planner) prewarmPeak(offers []Offer) {
	if runtime.GOMAXPROCS(0) < 2 {
		return // nothing to gain on one thread
	}
	lam := p.req.Workload.RequestsPerSecond
	type job struct {
		sc              serveCurve
		guess, hi, step int
	}
	var jobs []job
	queued := map[*simMemo]bool{}
	var shapes []copyShape
	for i := range offers {
		o := &offers[i]
		if !p.passes(o) || !(p.price(o, p.req.Pricing) > 0) || !o.HasHardware || !(o.GPUCount > 0) || o.GPUMemory <= 0 {
			continue
		}
		if _, ok := p.rate(o.Currency); !ok {
			continue
		}
		shapes = append(shapes[:0], p.inferShapes(o)...)
		_, hw := p.slice(o)
		var best copyShape
		var bestCurve serveCurve
		bestInst, bestTime := math.MaxInt, 0.0
		for _, cs := range shapes {
			sc := p.curve(cs, hw)
			if !sc.ok || !(sc.mu > 0) {
				continue
			}
			units := (int(math.Ceil(lam/sc.mu-1e-9)) + cs.perInstance - 1) / cs.perInstance
			if p.req.Pricing == Spot {
				units++
			}
			inst := units * cs.instancesPer
			if inst > p.maxInst {
				continue
			}
			l := sc.at(lam, units*cs.perInstance, p.output, p.req.Workload.SLOStat)
			t := l.ttft95 + math.Max(p.output-1, 0)*l.tpot
			if inst < bestInst || (inst == bestInst && t < bestTime) {
				best, bestCurve, bestInst, bestTime = cs, sc, inst, t
			}
		}
		m := bestCurve.sim
		if bestInst == math.MaxInt || m == nil || !m.ok || queued[m] {
			continue
		}
		step := best.perInstance
		guess := bestInst / max(best.instancesPer, 1) * step
		if p.req.Pricing == Spot {
			guess -= step
		}
		queued[m] = true
		jobs = append(jobs, job{sc: bestCurve, guess: guess, hi: p.maxInst / max(best.instancesPer, 1) * step, step: step})
	}
	parallel(len(jobs), func(j int) {
		x := &jobs[j]
		p.simCopies(&x.sc, lam, x.guess, x.hi, x.step)
	})
}
