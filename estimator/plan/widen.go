package plan

// Widen answers an empty plan with what does exist: it re-plans a request
// on which nothing fits with one filter dropped at a time, the narrowest
// first (the GPU, then the region, the provider, the country, the
// budget and the deadline), and returns the first plan that fits and the
// filter it dropped ("gpu", "region", "provider", "country", "budget",
// "deadline"). "No Russian provider prices an H100" is then followed by
// what a Russian provider does price. ok is false when no filter was set
// or nothing fits without any one of them.
func Widen(req Request, offers []Offer, opts Options) (res Result, dropped string, ok bool) {
	f := req.Filters
	for _, w := range []struct {
		name string
		set  bool
		drop func(*Filters)
	}{
		{"gpu", f.GPU != "", func(x *Filters) { x.GPU = "" }},
		{"region", len(f.Regions) > 0, func(x *Filters) { x.Regions = nil }},
		{"provider", len(f.Providers) > 0, func(x *Filters) { x.Providers = nil }},
		{"country", len(f.Countries) > 0, func(x *Filters) { x.Countries = nil }},
		{"budget", f.BudgetUSD > 0, func(x *Filters) { x.BudgetUSD = 0 }},
		{"deadline", f.DeadlineSeconds > 0, func(x *Filters) { x.DeadlineSeconds = 0 }},
	} {
		if !w.set {
			continue
		}
		r := req
		w.drop(&r.Filters)
		if w.name == "gpu" {
			r.FixedParallelism = false // the user's layout was for that GPU
		}
		out, err := Plan(r, offers, opts)
		if err == nil && out.Cheapest >= 0 {
			return out, w.name, true
		}
	}
	return Result{}, "", false
}
