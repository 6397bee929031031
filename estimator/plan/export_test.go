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
