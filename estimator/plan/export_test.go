package plan

import (
	"runtime"

	"rightsize/estimator"
)

// SimRuns plans req on offers (Plan, after validation) and returns the
// plan and how many simulated runs each copy shape took (serve_sim.go):
// the cost of sizing its replicas.
func SimRuns(req Request, offers []Offer, opts Options) (Result, []int, error) {
	if err := req.Validate(); err != nil {
		return Result{}, nil, err
	}
	p := newPlanner(req, opts, len(offers))
	res := p.plan(offers)
	var runs []int
	for _, sc := range p.serves {
		if sc.sim != nil && sc.sim.ok {
			runs = append(runs, len(sc.sim.runs))
		}
	}
	return res, runs, nil
}

// ShapeFigures is one engine-copy shape inferShapes tries and what its
// serving curve holds.
type ShapeFigures struct {
	TP, DP, EP      int
	KVMax, RPS      float64
	Headroom        float64 // GiB per GPU
	MemoFit, MemoSC int     // the planner's memory and curve memo entries after it
}

// Shapes lists the copy shapes the planner tries for req on o and builds
// each one's curve, in order, on one planner (one set of memo tables);
// with only ≥ 0 it builds the curve of that shape alone on a fresh
// planner.
func Shapes(req Request, o Offer, only int) []ShapeFigures {
	p := newPlanner(req, Options{}, 1)
	_, hw := p.slice(&o)
	shapes := append([]copyShape(nil), p.inferShapes(&o)...)
	out := make([]ShapeFigures, len(shapes))
	for i, cs := range shapes {
		out[i] = ShapeFigures{TP: cs.tp, DP: cs.dp, EP: cs.ep}
		if only >= 0 && i != only {
			continue
		}
		sc := p.curve(cs, hw)
		out[i].KVMax, out[i].RPS, out[i].Headroom = sc.kvMax, sc.mu, sc.headroom.GiB()
		out[i].MemoFit, out[i].MemoSC = len(p.fits), len(p.serves)
	}
	return out
}

// evaluations counts the estimator's and the simulator's work p has done
// so far, from its memo tables (over p and the planners of its variants,
// sub): each memory or speed estimate, each serving curve's points and
// the batched-prefill point beside them, each simulated run of a
// replica count. The estimates a layout's resolver makes inside the
// estimator (estimator.ResolveTrainDefaults) and the disaggregated
// search's points, which no table keeps, are not counted.
func (p *planner) evaluations() int {
	n := len(p.fits) + len(p.needs) + len(p.perfs) + len(p.shapes)
	for _, sc := range p.serves {
		n += len(sc.c) + 1
		if sc.sim != nil {
			n += len(sc.sim.runs)
		}
	}
	for _, q := range p.subs {
		n += q.evaluations()
	}
	return n
}

// Stretch is the planner's work between two calls of Options.Yield (or
// the plan's start or end): Evaluations (planner.evaluations) after the
// yield in function After.
type Stretch struct {
	Evaluations int
	After       string
}

// Stretches plans req on offers (Plan, after validation) with a yield
// that records each stretch of work between yields.
func Stretches(req Request, offers []Offer) ([]Stretch, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var p *planner
	var out []Stretch
	last, after := 0, "the plan's start"
	end := func(next string) {
		n := p.evaluations()
		out = append(out, Stretch{n - last, after})
		last, after = n, next
	}
	p = newPlanner(req, Options{Yield: func() {
		next := "?"
		if pc, _, _, ok := runtime.Caller(2); ok { // past Options.yield
			next = runtime.FuncForPC(pc).Name()
		}
		end(next)
	}}, len(offers))
	p.plan(offers)
	end("")
	return out, nil
}

// DisaggDecodeLayouts are the decode worker shapes the disaggregated
// search tries for req on o with engine e (disaggLayouts).
func DisaggDecodeLayouts(req Request, o Offer, e estimator.Engine) []DisaggWorker {
	p := newPlanner(req, Options{}, 1)
	_, dec := p.disaggLayouts(&o, e)
	out := make([]DisaggWorker, len(dec))
	for i, cs := range dec {
		out[i] = p.disaggWorker(cs)
	}
	return out
}

// FormatNumber is formatNumber, the figures of the planner's sentences.
func FormatNumber(v float64) string { return formatNumber(v) }
