package plan

import (
	"cmp"
	"math"
	"slices"

	"rightsize/estimator"
)

// Mixed fleets: each request-size class (Bucket) of a workload may be
// served on its own offer, and the classes on one offer share its
// replicas. Griggs et al., "Mélange: Cost Efficient Large Language Model
// Serving by Exploiting GPU Heterogeneity" (arXiv 2404.14527, abstract of
// v3) find that the request size, the request rate and the SLO strongly
// influence a GPU's cost efficiency, that differing GPU types are the most
// cost efficient for differing settings, and that a mix of types costs up
// to 77% less than a single type in conversational settings, 33% in
// document-based ones and 51% in a mixed one. Mélange frames the
// allocation as cost-aware bin packing; PlanMix searches it directly, as
// follows.
//
//  1. Each offer gets the copy shape the serving planner's closed form
//     picks for the workload's mean request at the curve's peak (fewest
//     instances; servingTech), and each class's highest rate per copy
//     within the SLOs and the utilisation cap on that shape from the
//     closed form (serveCurve.mu, at the class's own prompt and output).
//  2. A group (an offer and the classes it serves) needs, each hour,
//     ceil(Σ_class λ_h·share/ρ_class / copies per replica) replicas, at
//     least MinReplicas (each group is its own deployment), and its bill
//     is Fleet's best mix (commitment, on demand, spot) of those needs.
//  3. The best single offer: every class on one offer. A bill is at least
//     Σ_h need_h × the offer's lowest hourly rate × 730/24 (every replica
//     an hour is paid at some rate, start-ups only add), so offers are
//     priced in the order of that bound until the bound passes the
//     cheapest bill found: the cheapest single offer without pricing
//     every offer.
//  4. The mix: from each of the three cheapest single offers and from
//     each class on its own cheapest offer (by its lowest rate per
//     request), local search moves one class at a time to another
//     candidate offer (the single ones and each class's three cheapest
//     per request, on distinct GPUs), taking the best move while it
//     lowers the total bill. Every start that is a single offer is a
//     feasible mix, so the mix is never dearer than the best single offer
//     under the same model.
//  5. The engine simulator then sizes the winning mix and the best single
//     offer (each class's ρ on its shape: fleetSizer.perCopy, the daily
//     fleet's rule) and both are priced again. Under PlanFleet
//     (FleetOptions.Mix) the rows' own single-offer fleets are candidates
//     for the best single offer too, so it is never dearer than any of
//     them. Where the simulated mix costs no less than the best single
//     offer, the single offer is the answer (Mixed false). The search is
//     deterministic: ties keep the earlier offer in the input order, and
//     the simulations, run in parallel, are stored in a fixed order.

// MixBucket is one class's place in the mix.
type MixBucket struct {
	Bucket
	// Group is the index in MixedFleet.Groups of the offer serving it.
	Group int
	// PerCopyRPS is the highest rate one engine copy of the group's shape
	// serves of this class within the SLOs; SinglePerCopyRPS the same on
	// the best single offer's shape.
	PerCopyRPS, SinglePerCopyRPS float64
	// USDPerMillionRequests is the class's on-demand cost per million
	// requests at that rate on its group's offer (replica price / (3,600
	// × ρ × copies per replica) × 10⁶, docs/planning.md's cost per 1M tokens
	// with requests for tokens); SingleUSDPerMillionRequests on the best
	// single offer.
	USDPerMillionRequests, SingleUSDPerMillionRequests float64
}

// MixGroup is one offer of the mix and the classes it serves.
type MixGroup struct {
	// Row is the offer and its copy shape (TP, PP, DP copies per
	// instance, InstancesPerReplica); its price is on demand, USD.
	Row     Row
	Buckets []int   // indices into MixedFleet.Buckets
	Share   float64 // the classes' share of the requests
	Plan    FleetPlan
}

// MixedFleet is the answer: the mix, the best single offer beside it and
// the saving.
type MixedFleet struct {
	Buckets []MixBucket
	Groups  []MixGroup
	// MonthlyUSD is the sum of the groups' best bills.
	MonthlyUSD float64
	// Single is the best single offer (every class on it).
	Single MixGroup
	// SavingUSD is Single's best bill less MonthlyUSD; SavingShare that as
	// a share of Single's.
	SavingUSD, SavingShare float64
	// Mixed is false when one offer is the answer (Groups is then Single).
	Mixed bool
	// Offers is how many offers were screened; Priced how many fleets
	// were priced in the search.
	Offers, Priced int
}

// mixOffer is one offer's screening data.
type mixOffer struct {
	o    *Offer
	cs   copyShape
	hw   estimator.Hardware
	inst int // instances per replica
	// step and billed: the replicas one rental order holds and the
	// instances each pays for (rentalReplicas).
	step    int
	billed  float64
	rho     []float64 // per class: closed-form requests/s per copy (0: cannot serve it)
	minRate float64   // lowest hourly rate of a replica the best mix may use, USD
	in      FleetInput
}

// mixSearch holds one PlanMix's screening.
type mixSearch struct {
	fo    FleetOptions
	share []float64
	offs  []mixOffer
	memo  map[mixKey]float64
	calls int
	// maxInst bounds a group's instances at its peak (Options.MaxInstances).
	maxInst int
}

type mixKey struct {
	off  int
	mask uint32
}

// maxMixBuckets bounds the classes (a bit mask each; the workload parser
// makes at most 8).
const maxMixBuckets = 16

// PlanMix plans a mixed fleet for the workload's classes over the offers
// (see the comment at the top of fleet_mix.go). With one class the mix is
// the best single offer.
func PlanMix(req Request, offers []Offer, opts Options, fo FleetOptions) (MixedFleet, error) {
	return planMix(req, offers, opts, fo, mixExtra{})
}

// mixExtra is single-offer fleets sized elsewhere (PlanFleet's rows) that
// the best single offer is also chosen from, and their classes' rates per
// copy (rho(row, class)).
type mixExtra struct {
	rows []FleetRow
	rho  func(row, class int) float64
}

func planMix(req Request, offers []Offer, opts Options, fo FleetOptions, extra mixExtra) (MixedFleet, error) {
	if err := checkFleetOptions(fo); err != nil {
		return MixedFleet{}, err
	}
	buckets := fo.Buckets
	if len(buckets) == 0 {
		buckets = []Bucket{{PromptTokens: req.Workload.PromptTokens, OutputTokens: req.Workload.OutputTokens, Share: 1}}
	}
	if len(buckets) > maxMixBuckets {
		return MixedFleet{}, &estimator.InputError{Field: "workload", Value: fleetNum(float64(len(buckets))), Err: estimator.ErrRange, Reason: "want at most 16 size classes"}
	}
	req.Workload.Kind = Serving
	req.Workload.RequestsPerSecond = fo.Curve.Peak()
	req.Pricing = OnDemand
	if err := req.Validate(); err != nil {
		return MixedFleet{}, err
	}
	total := 0.0
	for _, b := range buckets {
		total += b.Share
	}
	s := &mixSearch{fo: fo, memo: map[mixKey]float64{}}
	for _, b := range buckets {
		s.share = append(s.share, b.Share/total)
	}
	if req.Workload.PromptTokens == 0 && req.Workload.OutputTokens == 0 {
		// Shapes are picked for the mix's mean request.
		mp, mo := 0.0, 0.0
		for _, b := range buckets {
			mp += float64(b.PromptTokens) * b.Share / total
			mo += float64(b.OutputTokens) * b.Share / total
		}
		req.Workload.PromptTokens, req.Workload.OutputTokens = max(int(math.Round(mp)), 1), max(int(math.Round(mo)), 1)
	}
	p := newPlanner(req, opts, len(offers))
	s.maxInst = p.maxInst
	// One planner per class: its closed-form curves at the class's size.
	ps := make([]*planner, len(buckets))
	for i, b := range buckets {
		r := req
		r.Workload.PromptTokens, r.Workload.OutputTokens = b.PromptTokens, b.OutputTokens
		ps[i] = newPlanner(r, opts, len(offers))
	}
	s.screen(p, ps, offers)
	out := MixedFleet{Offers: len(s.offs)}
	if len(s.offs) == 0 {
		return out, nil
	}
	all := uint32(1)<<len(buckets) - 1

	// 3. The cheapest single offers, in the order of their lower bound.
	singles := s.cheapestSingles(all, 3)
	if len(singles) == 0 {
		return out, nil
	}
	// 4. Local search over the candidates.
	cands := slices.Clone(singles)
	greedy := make([]int, len(buckets))
	for b := range buckets {
		top := s.cheapestFor(b, 3)
		for _, i := range top {
			if !slices.Contains(cands, i) {
				cands = append(cands, i)
			}
		}
		greedy[b] = -1
		if len(top) > 0 {
			greedy[b] = top[0]
		}
	}
	var best []int
	bestCost := math.Inf(1)
	try := func(start []int) {
		a, c := s.descend(start, cands)
		if c < bestCost-1e-9 {
			best, bestCost = a, c
		}
	}
	for _, i := range singles {
		start := make([]int, len(buckets))
		for b := range start {
			start[b] = i
		}
		try(start)
	}
	if !slices.Contains(greedy, -1) {
		try(greedy)
	}
	single := make([]int, len(buckets))
	for b := range single {
		single[b] = singles[0]
	}
	out.Priced = s.calls

	// 5. The simulator sizes the mix and the single offer.
	sim := newMixSim(ps, s)
	sim.size(best, single)
	mixG, mixCost, okMix := sim.groups(best)
	singleG, singleCost, okSingle := sim.groups(single)
	if !okSingle {
		// The simulator cannot size the single offer (a class misses the
		// SLOs even at a light load there): keep the closed form.
		sim.closed = true
		mixG, mixCost, okMix = sim.groups(best)
		singleG, singleCost, okSingle = sim.groups(single)
	}
	if okMix && len(mixG) == 1 && (!okSingle || mixCost < singleCost-1e-9) {
		// The mix is one offer cheaper than the search's single one: it
		// is the best single offer.
		singleG, singleCost, okSingle, single = mixG, mixCost, true, best
	}
	if okSingle {
		out.Single = singleG[0]
	} else {
		singleCost = math.Inf(1)
	}
	// A fleet sized elsewhere may be the cheaper single offer.
	row := -1
	for i, fr := range extra.rows {
		if fr.Sized && fr.Plan.Best.Priced && fr.Plan.Best.MonthlyUSD < singleCost-1e-9 {
			row, singleCost = i, fr.Plan.Best.MonthlyUSD
		}
	}
	if row >= 0 {
		fr := extra.rows[row]
		out.Single = MixGroup{Row: fr.Row, Share: 1, Plan: fr.Plan}
		for b := range buckets {
			out.Single.Buckets = append(out.Single.Buckets, b)
		}
		singleG = []MixGroup{out.Single}
	}
	if !okSingle && row < 0 {
		return out, nil // no offer sized: no answer
	}
	if !okMix || mixCost >= singleCost-1e-9 {
		mixG, mixCost, best = singleG, singleCost, nil
	}
	out.Groups, out.MonthlyUSD = mixG, mixCost
	out.Mixed = len(mixG) > 1 || mixG[0].Row.Offer != out.Single.Row.Offer
	out.SavingUSD = singleCost - mixCost
	if singleCost > 0 {
		out.SavingShare = out.SavingUSD / singleCost
	}
	for b, bk := range buckets {
		mb := MixBucket{Bucket: bk, Group: slices.IndexFunc(mixG, func(g MixGroup) bool { return slices.Contains(g.Buckets, b) })}
		mb.Share = s.share[b]
		if row >= 0 {
			fr := &extra.rows[row]
			mb.SinglePerCopyRPS = extra.rho(row, b)
			mb.SingleUSDPerMillionRequests = rowPerMillion(&fr.Row, mb.SinglePerCopyRPS)
		} else {
			mb.SinglePerCopyRPS = sim.rho(b, single[b])
			mb.SingleUSDPerMillionRequests = s.perMillion(single[b], mb.SinglePerCopyRPS)
		}
		if best == nil {
			mb.PerCopyRPS, mb.USDPerMillionRequests = mb.SinglePerCopyRPS, mb.SingleUSDPerMillionRequests
		} else {
			mb.PerCopyRPS = sim.rho(b, best[b])
			mb.USDPerMillionRequests = s.perMillion(best[b], mb.PerCopyRPS)
		}
		out.Buckets = append(out.Buckets, mb)
	}
	return out, nil
}

// checkFleetOptions is PlanFleet's validation of the daily question.
func checkFleetOptions(fo FleetOptions) error {
	if err := fo.Curve.Validate(); err != nil {
		return err
	}
	if fo.MinReplicas < 0 || fo.MinReplicas > 1<<16 {
		return &estimator.InputError{Field: "min-replicas", Value: fleetNum(float64(fo.MinReplicas)), Err: estimator.ErrRange, Reason: "want 0 to 65536"}
	}
	for _, b := range fo.Buckets {
		if b.PromptTokens < 0 || b.OutputTokens < 0 || b.PromptTokens+b.OutputTokens == 0 || !okPos(b.Share) {
			return &estimator.InputError{Field: "workload", Value: fleetNum(b.Share), Err: estimator.ErrRange, Reason: "want buckets with tokens and a share > 0"}
		}
	}
	return nil
}

// screen fills s.offs: every offer passing the filters with an on-demand
// price in a known currency (the offers the daily fleet sizes, stale
// prices included: the peak plan's rows flag them), its closed-form shape
// at the peak and each class's closed-form rate per copy.
func (s *mixSearch) screen(p *planner, ps []*planner, offers []Offer) {
	lam := p.req.Workload.RequestsPerSecond
	for i := range offers {
		o := &offers[i]
		if !p.passes(o) {
			continue
		}
		if s := p.support(o); !s.Runs || s.Replanned() {
			// The engine does not start here, or runs other weights than
			// the mix is sized in: not a fleet of this job.
			continue
		}
		od, ok := p.usd(o, p.price(o, OnDemand))
		if !ok || !(od > 0) {
			continue
		}
		cs, ok := p.peakShape(o, lam)
		if !ok {
			continue
		}
		_, hw := p.slice(o)
		m := mixOffer{o: o, cs: cs, hw: hw, inst: max(cs.instancesPer, 1), rho: make([]float64, len(ps))}
		m.step, m.billed = rentalReplicas(o, m.inst)
		any := false
		for b, pb := range ps {
			sc := pb.curve(cs, hw)
			if sc.ok && sc.mu > 0 {
				m.rho[b], any = sc.mu, true
			}
		}
		if !any {
			continue
		}
		price := func(pr Pricing) float64 {
			v, ok := p.usd(o, p.price(o, pr))
			if !ok || !(v > 0) {
				return 0
			}
			return v * m.billed
		}
		in := &m.in
		in.OnDemandPerHour, in.SpotPerHour = price(OnDemand), price(Spot)
		in.Reserved1yPerHour, in.Reserved3yPerHour = price(Reserved1y), price(Reserved3y)
		in.BillingGranularity = o.BillingGranularity
		if in.BillingGranularity == "" && monthlyOnly(o) {
			in.BillingGranularity = "month"
		}
		a := p.req.Assumptions
		in.StartUpSeconds = a.RestartSeconds
		if in.StartUpSeconds == 0 {
			in.StartUpSeconds = DefaultRestartSeconds
		}
		month := a.SpotInterruptionsPerMonth
		if month == 0 {
			month, _ = SpotInterruptionsPerMonth(o.SpotInterruption)
		}
		in.SpotInterruptionsPerMonth = math.Min(month*float64(m.inst), 1e6)
		in.NoSpot = s.fo.NoSpot
		m.minRate = in.OnDemandPerHour
		for _, v := range []float64{in.Reserved1yPerHour, in.Reserved3yPerHour} {
			if v > 0 {
				m.minRate = math.Min(m.minRate, v)
			}
		}
		if in.SpotPerHour > 0 && !in.NoSpot {
			m.minRate = math.Min(m.minRate, in.SpotPerHour)
		}
		s.offs = append(s.offs, m)
	}
}

// peakShape is the copy shape the serving planner's closed form picks on
// o at rate lam: the one renting the fewest instances (servingTech before
// its simulation; ties keep the smaller tensor-parallel degree). The
// instance cap applies to each group's own peak (need), not to the whole
// rate: a class may fit where the whole workload does not.
func (p *planner) peakShape(o *Offer, lam float64) (copyShape, bool) {
	shapes := p.inferShapes(o)
	_, hw := p.slice(o)
	var best copyShape
	bestInst := math.MaxInt
	for _, cs := range shapes {
		sc := p.curve(cs, hw)
		if !sc.ok || !(sc.mu > 0) {
			continue
		}
		copies := int(math.Ceil(lam/sc.mu - 1e-9))
		units := (max(copies, 1) + cs.perInstance - 1) / cs.perInstance
		inst := o.Rented(units * max(cs.instancesPer, 1)) // paid for (Offer.Rented)
		if inst < bestInst {
			best, bestInst = cs, inst
		}
	}
	return best, bestInst != math.MaxInt
}

// need is offer i's replicas each hour for the classes in mask at the
// rates rho (per class, per copy); ok is false when a class cannot be
// served there.
func (s *mixSearch) need(i int, mask uint32, rho func(b int) float64) ([24]int, bool) {
	var n [24]int
	m := &s.offs[i]
	minR := max(s.fo.MinReplicas, 1)
	for h, lam := range s.fo.Curve {
		load := 0.0
		for b := range s.share {
			if mask&(1<<b) == 0 {
				continue
			}
			r := rho(b)
			if !(r > 0) {
				return n, false
			}
			load += lam * s.share[b] / r
		}
		c := int(math.Ceil(load - 1e-9))
		n[h] = roundUp(max((c+m.cs.perInstance-1)/m.cs.perInstance, minR), m.step)
		if n[h]*m.inst > s.maxInst {
			return n, false
		}
	}
	return n, true
}

// cost is the best bill (USD/month) of offer i serving the classes in
// mask at the closed-form rates, +Inf where it cannot.
func (s *mixSearch) cost(i int, mask uint32) float64 {
	if mask == 0 {
		return 0
	}
	k := mixKey{i, mask}
	if v, ok := s.memo[k]; ok {
		return v
	}
	v := math.Inf(1)
	if n, ok := s.need(i, mask, func(b int) float64 { return s.offs[i].rho[b] }); ok {
		in := s.offs[i].in
		in.Need = n
		s.calls++
		if fp, err := Fleet(in); err == nil && fp.Best.Priced {
			v = fp.Best.MonthlyUSD
		}
	}
	s.memo[k] = v
	return v
}

// cheapestSingles is up to k offers serving every class, cheapest first,
// priced in the order of their lower bound (Σ_h need_h × lowest rate ×
// 730/24) until the bound passes the k-th cheapest bill.
func (s *mixSearch) cheapestSingles(all uint32, k int) []int {
	type lb struct {
		i int
		v float64
	}
	var order []lb
	for i := range s.offs {
		n, ok := s.need(i, all, func(b int) float64 { return s.offs[i].rho[b] })
		if !ok {
			continue
		}
		sum := 0
		for _, x := range n {
			sum += x
		}
		order = append(order, lb{i, float64(sum) * s.offs[i].minRate * HoursPerMonth / 24})
	}
	estimator.SortStable(order, func(a, b *lb) int { return cmp.Compare(a.v, b.v) })
	type priced struct {
		i int
		v float64
	}
	var top []priced
	for _, x := range order {
		if len(top) == k && x.v > top[k-1].v {
			break
		}
		v := s.cost(x.i, all)
		if math.IsInf(v, 1) {
			continue
		}
		top = append(top, priced{x.i, v})
		estimator.SortStable(top, func(a, b *priced) int { return cmp.Compare(a.v, b.v) })
		if len(top) > k {
			top = top[:k]
		}
	}
	out := make([]int, len(top))
	for j, x := range top {
		out[j] = x.i
	}
	return out
}

// cheapestFor is up to k offers on distinct GPUs with the lowest cost per
// request of class b (lowest rate / requests per replica-hour).
func (s *mixSearch) cheapestFor(b, k int) []int {
	type u struct {
		i int
		v float64
	}
	var order []u
	for i, m := range s.offs {
		if r := m.rho[b]; r > 0 {
			order = append(order, u{i, m.minRate / (r * float64(m.cs.perInstance))})
		}
	}
	estimator.SortStable(order, func(a, b *u) int { return cmp.Compare(a.v, b.v) })
	var out []int
	var gpus []string
	for _, x := range order {
		if g := s.offs[x.i].o.GPU; !slices.Contains(gpus, g) {
			gpus, out = append(gpus, g), append(out, x.i)
			if len(out) == k {
				break
			}
		}
	}
	return out
}

// total is the bill of assignment a (class → offer index), its groups
// summed in the order of their first class.
func (s *mixSearch) total(a []int) float64 {
	v := 0.0
	for b, i := range a {
		if slices.Contains(a[:b], i) {
			continue
		}
		var mask uint32
		for c, j := range a[b:] {
			if j == i {
				mask |= 1 << (b + c)
			}
		}
		v += s.cost(i, mask)
	}
	return v
}

// descend improves a by moving one class at a time to the candidate that
// lowers the bill most, until no move does.
func (s *mixSearch) descend(start, cands []int) ([]int, float64) {
	a := slices.Clone(start)
	cur := s.total(a)
	for range 64 {
		bestB, bestI, bestV := -1, -1, cur
		for b := range a {
			was := a[b]
			for _, i := range cands {
				if i == was {
					continue
				}
				a[b] = i
				if v := s.total(a); v < bestV-1e-9 {
					bestB, bestI, bestV = b, i, v
				}
			}
			a[b] = was
		}
		if bestB < 0 {
			break
		}
		a[bestB], cur = bestI, bestV
	}
	return a, cur
}

// perMillion is class cost per million requests on offer i at rho per
// copy, on demand.
func (s *mixSearch) perMillion(i int, rho float64) float64 {
	m := &s.offs[i]
	if !(rho > 0) {
		return 0
	}
	return m.in.OnDemandPerHour / (3600 * rho * float64(m.cs.perInstance)) * 1e6
}

// rowPerMillion is a class's cost per million requests on a peak-plan
// row's replica at rho per copy, on demand.
func rowPerMillion(r *Row, rho float64) float64 {
	if !(rho > 0) {
		return 0
	}
	_, billed := rentalReplicas(r.Offer, r.InstancesPerReplica)
	return r.PricePerHourUSD * billed / (3600 * rho * float64(max(r.DP, 1))) * 1e6
}

// mixSim sizes classes on offers with the engine simulator.
type mixSim struct {
	ps     []*planner
	s      *mixSearch
	rhos   map[mixKey]float64 // (offer, class as a one-bit mask) → ρ
	closed bool               // use the closed-form rates
}

func newMixSim(ps []*planner, s *mixSearch) *mixSim {
	return &mixSim{ps: ps, s: s, rhos: map[mixKey]float64{}}
}

// size finds the simulated ρ of every (class, offer) pair the
// assignments use, the pairs in parallel (each run is independent; the
// results are stored in a fixed order, so the answer does not depend on
// the schedule).
func (m *mixSim) size(as ...[]int) {
	type job struct {
		b, i int
	}
	var jobs []job
	seen := map[mixKey]bool{}
	for _, a := range as {
		for b, i := range a {
			k := mixKey{i, 1 << b}
			if !seen[k] {
				seen[k] = true
				jobs = append(jobs, job{b: b, i: i})
			}
		}
	}
	// Curves (and their simulation set-ups) are built first, one goroutine:
	// the planners' memo maps are not safe for concurrent writes.
	// Pairs on one simulation set-up (offers of one shape) share a run:
	// each set-up is sized once, by one goroutine.
	type prep struct {
		sz    *fleetSizer
		sc    serveCurve
		step  int
		first int // the job sizing this set-up
		rho   float64
	}
	preps := make([]prep, len(jobs))
	owner := map[*simMemo]int{}
	for j, x := range jobs {
		o := &m.s.offs[x.i]
		pb := m.ps[x.b]
		pr := prep{sz: &fleetSizer{p: pb, curve: m.s.fo.Curve, share: m.s.share[x.b]}, sc: pb.curve(o.cs, o.hw), step: o.cs.perInstance, first: j}
		if pr.sz.share == 1 {
			// perCopy brackets a whole workload by the peak plan's runs,
			// which the mix does not have: a share just below 1 sizes
			// the same loads without them.
			pr.sz.share = math.Nextafter(1, 0)
		}
		if pr.sc.sim != nil && pr.sc.sim.ok {
			if f, ok := owner[pr.sc.sim]; ok {
				pr.first = f
			} else {
				owner[pr.sc.sim] = j
			}
		} else {
			pr.first, pr.rho = -1, o.rho[x.b]
		}
		preps[j] = pr
	}
	parallel(len(preps), func(j int) {
		if pr := &preps[j]; pr.first == j {
			pr.rho = pr.sz.perCopy(&pr.sc, &Row{}, pr.step)
		}
	})
	for j, x := range jobs {
		v := preps[j].rho
		if f := preps[j].first; f >= 0 {
			v = preps[f].rho
		}
		m.rhos[mixKey{x.i, 1 << x.b}] = v
	}
}

// rho is class b's rate per copy on offer i (simulated, or the closed
// form's when asked or when the pair was not sized).
func (m *mixSim) rho(b, i int) float64 {
	if !m.closed {
		if v, ok := m.rhos[mixKey{i, 1 << b}]; ok {
			return v
		}
	}
	return m.s.offs[i].rho[b]
}

// groups prices assignment a at the sized rates: its groups (in the order
// of their first class), their total bill, and false when a group cannot
// be served or priced.
func (m *mixSim) groups(a []int) ([]MixGroup, float64, bool) {
	var out []MixGroup
	total := 0.0
	for b, i := range a {
		if slices.ContainsFunc(out, func(g MixGroup) bool { return g.Row.Offer == m.s.offs[i].o }) {
			continue
		}
		var mask uint32
		g := MixGroup{}
		for c, j := range a[b:] {
			if j == i {
				mask |= 1 << (b + c)
				g.Buckets = append(g.Buckets, b+c)
				g.Share += m.s.share[b+c]
			}
		}
		o := &m.s.offs[i]
		n, ok := m.s.need(i, mask, func(c int) float64 { return m.rho(c, i) })
		if !ok {
			return nil, math.Inf(1), false
		}
		in := o.in
		in.Need = n
		fp, err := Fleet(in)
		if err != nil || !fp.Best.Priced {
			return nil, math.Inf(1), false
		}
		g.Plan = fp
		g.Row = Row{Offer: o.o, Pricing: OnDemand, Fits: true, TP: o.cs.tp, PP: o.cs.pp, DP: o.cs.perInstance,
			InstancesPerReplica: o.inst, Replicas: fp.Peak, Instances: fp.Peak * o.inst,
			GPUs: float64(fp.Peak*o.inst) * o.o.GPUCount, PricePerHourUSD: o.in.OnDemandPerHour / o.billed,
			PricePerHour: o.in.OnDemandPerHour / o.billed}
		total += fp.Best.MonthlyUSD
		out = append(out, g)
	}
	return out, total, true
}
