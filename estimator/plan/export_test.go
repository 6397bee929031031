package plan

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
