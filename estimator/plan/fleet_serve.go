package plan

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"rightsize/estimator"
)

// Fleets over the catalog: the serving plan at the curve's peak picks each
// offer's copy shape (Plan, on demand), the engine simulator sizes that
// shape at every hour's rate (serve_sim.go: the fewest replicas whose
// simulated TTFT and TPOT meet the SLOs at their statistic), and Fleet prices the day.

// Bucket is one request-size class of a workload mix: its prompt and
// output tokens and its share of requests.
type Bucket struct {
	PromptTokens, OutputTokens int
	Share                      float64
}

// FleetOptions is the daily question.
type FleetOptions struct {
	Curve LoadCurve
	// MinReplicas is the fewest replicas kept at any hour (0: 1).
	MinReplicas int
	// Buckets, when given, size each hour by the sum of each bucket's
	// load in engine copies at its share of the hour's rate (the
	// request's own prompt and output tokens then only rank the offers at
	// the peak).
	Buckets []Bucket
	// NoSpot keeps spot out of the best mix.
	NoSpot bool
	// Rows is how many of the peak plan's best rows under each price
	// model get a fleet (fleetCandidates; 0: all fitting rows).
	Rows int
	// Mix asks for a mixed fleet with two or more Buckets
	// (FleetResult.Mix; fleet_mix.go): its best single offer is also
	// chosen from the rows' fleets.
	Mix bool
}

// FleetRow is one offer's fleet.
type FleetRow struct {
	// Row is the serving plan at the curve's peak, on demand.
	Row  Row
	Plan FleetPlan
	// RequestsPerSecond is the curve; StartUpSeconds the start-up assumed
	// (Assumptions.RestartSeconds, else DefaultRestartSeconds);
	// SpotInterruptionsPerMonth the reclaim share per replica.
	RequestsPerSecond         LoadCurve
	StartUpSeconds            float64
	SpotInterruptionsPerMonth float64
	// Sized is false when a bucket or an hour could not be sized on the
	// row's shape (Reason says why); Plan is then empty.
	Sized  bool
	Reason Reason
}

// FleetResult is the peak plan and the fleets, cheapest best mix first.
type FleetResult struct {
	Peak Result
	Rows []FleetRow
	// Mix is the mixed fleet (FleetOptions.Mix with two or more buckets).
	Mix *MixedFleet
}

// PlanFleet plans a daily load curve over the offers.
func PlanFleet(req Request, offers []Offer, opts Options, fo FleetOptions) (FleetResult, error) {
	if err := checkFleetOptions(fo); err != nil {
		return FleetResult{}, err
	}
	req.Workload.Kind = Serving
	req.Workload.RequestsPerSecond = fo.Curve.Peak()
	req.Pricing = OnDemand
	o2 := opts
	o2.Top, o2.KeepUnfit = 0, false
	if err := req.Validate(); err != nil {
		return FleetResult{}, err
	}
	peak := newPlanner(req, o2, len(offers))
	peak.prewarmPeak(offers)
	res := peak.plan(offers)
	out := FleetResult{Peak: res}
	// The fleets rest on the rows the picks may rest on: a row passed over
	// for a stale or far-below-median price (passOver) gets no fleet, and
	// its offer takes no part in the mix, so a fleet is never cheaper only
	// because its price is old.
	passed := map[string]bool{}
	for i := range res.Rows {
		if r := &res.Rows[i]; r.PassedOver.Key != NoMsg && r.Offer != nil {
			passed[r.Offer.ID] = true
		}
	}
	sel := peak.fleetCandidates(res.Rows, fo)
	n := len(sel)
	// One sizer per workload (the request's, or each bucket's): its
	// planner memoises curves and simulations across rows.
	var sizers []*fleetSizer
	if len(fo.Buckets) == 0 {
		sizers = []*fleetSizer{{p: peak, curve: fo.Curve, share: 1, memo: map[*simMemo]float64{}}}
	} else {
		total := 0.0
		for _, b := range fo.Buckets {
			total += b.Share
		}
		for _, b := range fo.Buckets {
			r := req
			r.Workload.PromptTokens, r.Workload.OutputTokens = b.PromptTokens, b.OutputTokens
			sizers = append(sizers, &fleetSizer{p: newPlanner(r, o2, len(offers)), curve: fo.Curve, share: b.Share / total, memo: map[*simMemo]float64{}})
		}
	}
	// Rows are large (a day of five choices): each is planned in place
	// and moved once into its rank.
	prewarm(sizers, sel)
	rows := make([]FleetRow, n)
	for i := range sel {
		fleetRow(sizers, sel[i], fo, len(fo.Buckets) == 0, &rows[i])
	}
	m := n
	// Cheapest best mix first, unsized rows last.
	key := func(i int) float64 {
		if !rows[i].Sized {
			return math.Inf(1)
		}
		return rows[i].Plan.Best.MonthlyUSD
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	// Apply the permutation in place, one cycle at a time: position i
	// takes row idx[i].
	var tmp FleetRow
	for i := range idx {
		if idx[i] == i || idx[i] < 0 {
			continue
		}
		tmp = rows[i]
		j := i
		for {
			k := idx[j]
			idx[j] = -1
			if k == i {
				rows[j] = tmp
				break
			}
			rows[j] = rows[k]
			j = k
		}
	}
	out.Rows = rows
	if fo.Mix && len(fo.Buckets) > 1 {
		// Each row's class rates are its sizers' (the load of 1 request/s
		// is 1/ρ).
		rho := func(i, b int) float64 {
			l, _, ok := sizers[b].load(&rows[i].Row, 1)
			if !ok || !(l > 0) {
				return 0
			}
			return 1 / l
		}
		mixOffers := offers
		if len(passed) > 0 {
			mixOffers = make([]Offer, 0, len(offers))
			for _, o := range offers {
				if !passed[o.ID] {
					mixOffers = append(mixOffers, o)
				}
			}
		}
		m, err := planMix(req, mixOffers, opts, fo, mixExtra{rows: rows, rho: rho})
		if err != nil {
			return FleetResult{}, err
		}
		out.Mix = &m
	}
	out.Peak.Hosted = peak.hostedDay(fo, rows, out.Mix)
	return out, nil
}

// fleetCandidates are the peak plan's rows that get a fleet, in rank
// order: every fitting row not passed over when fo.Rows is 0, else the
// fo.Rows cheapest at the peak under each price model the best mix may
// use (on demand, spot unless fo.NoSpot, reserved for 1 and 3 years;
// the peak fleet's instances at the offer's price). The rows are ranked
// on demand, and an offer whose on-demand price is high may still give
// the cheapest day on spot: Llama 3.1 8B on vLLM over a day from 2 to 12
// requests/s ranked three on-demand offers whose best mix was $2,820 a
// month, where a GCP L4 offer's spot mix is $1,315.
func (p *planner) fleetCandidates(rows []Row, fo FleetOptions) []Row {
	ok := func(r *Row) bool { return r.Fits && r.Offer != nil && r.PassedOver.Key == NoMsg }
	var idx []int
	for i := range rows {
		if ok(&rows[i]) {
			idx = append(idx, i)
		}
	}
	if fo.Rows > 0 && len(idx) > fo.Rows {
		keep := make(map[int]bool, 4*fo.Rows)
		for _, pr := range Pricings {
			if pr == Spot && fo.NoSpot {
				continue
			}
			type cand struct {
				i    int
				cost float64
			}
			var cs []cand
			for _, i := range idx {
				r := &rows[i]
				v, okUSD := p.usd(r.Offer, p.price(r.Offer, pr))
				if okUSD && v > 0 {
					cs = append(cs, cand{i, v * float64(r.Rented())})
				}
			}
			estimator.SortStable(cs, func(a, b *cand) int { return cmp.Compare(a.cost, b.cost) })
			for _, c := range cs[:min(fo.Rows, len(cs))] {
				keep[c.i] = true
			}
		}
		idx = slices.DeleteFunc(idx, func(i int) bool { return !keep[i] })
	}
	sel := make([]Row, len(idx))
	for k, i := range idx {
		sel[k] = rows[i]
	}
	return sel
}

// hostedDay compares each hosted API with the cheapest rented fleet over
// the day's load curve, cheapest API first (Result.Hosted at the peak
// prices the peak rate around the clock, which a daily load never pays).
// The API bills the day's tokens: Σ_h λ_h × 3,600 s × the mean request's
// price (prompt × input + output × output price, / 10⁶; with size
// classes, their share-weighted mean), × 730/24 days a month as the
// fleets' bills (FleetChoice.MonthlyUSD). Self-hosting is the cheapest
// priced fleet of the day: the best mix of price models (FleetPlan.Best)
// of a single offer, or the mixed fleet where its groups cost less. There
// is no break-even rate on a curve: the two bills stand side by side.
func (p *planner) hostedDay(fo FleetOptions, rows []FleetRow, mix *MixedFleet) []HostedComparison {
	if len(p.req.HostedAPIs) == 0 {
		return nil
	}
	// The cheapest fleet and what to call it.
	self, name := 0.0, any(nil)
	consider := func(usd float64, n any) {
		if usd > 0 && (name == nil || usd < self) {
			self, name = usd, n
		}
	}
	fleetName := func(r *Row) OfferRef {
		return OfferRef{Provider: r.Offer.Provider, InstanceType: r.Offer.Name()}
	}
	for i := range rows {
		if r := &rows[i]; r.Sized && r.Plan.Best.Priced && r.Row.Offer != nil {
			consider(r.Plan.Best.MonthlyUSD, fleetName(&r.Row))
		}
	}
	if mix != nil {
		if g := &mix.Single; g.Plan.Best.Priced && g.Row.Offer != nil {
			consider(g.Plan.Best.MonthlyUSD, fleetName(&g.Row))
		}
		if mix.Mixed && len(mix.Groups) > 1 {
			var parts []string
			for i := range mix.Groups {
				if g := &mix.Groups[i]; g.Row.Offer != nil {
					parts = append(parts, fleetName(&g.Row).String())
				}
			}
			consider(mix.MonthlyUSD, strings.Join(parts, " + "))
		}
	}
	// Requests a month over the curve, and the mean request's tokens.
	day := 0.0
	for _, lam := range fo.Curve {
		day += lam * 3600
	}
	month := day * HoursPerMonth / 24
	prompt, output := p.prompt, p.output
	if len(fo.Buckets) > 0 {
		total := 0.0
		prompt, output = 0, 0
		for _, b := range fo.Buckets {
			total += b.Share
			prompt += b.Share * float64(b.PromptTokens)
			output += b.Share * float64(b.OutputTokens)
		}
		prompt, output = prompt/total, output/total
	}
	out := make([]HostedComparison, 0, len(p.req.HostedAPIs))
	for _, h := range p.req.HostedAPIs {
		perReq := h.RequestUSD(prompt, output)
		hc := HostedComparison{API: h, MonthlyCostUSD: month * perReq, SelfHostedUSD: self, OverLoadCurve: true}
		switch {
		case name == nil:
			hc.Why = Reason{Key: MsgHostedNoFit, Args: []any{h.ID}}
		case self < hc.MonthlyCostUSD:
			hc.Why = Reason{Key: MsgHostedDayRentCheaper, Args: []any{name, h.ID}}
		default:
			hc.Why = Reason{Key: MsgHostedDayAPICheaper, Args: []any{h.ID, name}}
		}
		out = append(out, hc)
	}
	estimator.SortStable(out, func(a, b *HostedComparison) int {
		return cmp.Or(cmp.Compare(a.MonthlyCostUSD, b.MonthlyCostUSD), cmp.Compare(a.API.ID, b.API.ID))
	})
	return out
}

// fleetSizer sizes replicas for one workload at a share of the curve.
type fleetSizer struct {
	p     *planner
	curve LoadCurve
	share float64
	memo  map[*simMemo]float64 // a shape's highest rate per copy within the SLOs
}

// load is the engine copies of the row's shape that lam keeps busy
// within the SLOs and the utilisation cap, lam/ρ* (fractional: the
// fewest copies are its ceiling).
//
// The simulator runs one copy at lam/k requests/s (serve_sim.go), so
// whether k copies meet the SLOs at lam depends on lam/k alone: with ρ*
// the highest rate per copy whose simulated TTFT and TPOT meet them at the SLOs' statistic
// (and at most the cap's share of the copy's saturated rate), the fewest
// copies are ceil(lam/ρ*), the count simCopies finds wherever meeting the
// SLOs is monotone in the rate. ρ* is found once per shape by bisection,
// so a day of 24 rates costs about ten simulated runs, not 24 searches.
// Without a simulation (an engine without continuous batching) it is the
// closed form's sustainable rate μ.
func (s *fleetSizer) load(r *Row, lam float64) (float64, Reason, bool) {
	cs, sc := s.shape(r)
	return s.loadOn(r, cs, &sc, lam)
}

// loadOn is load on the row's shape cs and curve sc (shape's).
func (s *fleetSizer) loadOn(r *Row, cs copyShape, sc *serveCurve, lam float64) (float64, Reason, bool) {
	if !sc.ok || !(sc.mu > 0) {
		why := sc.why
		if why.Key == NoMsg {
			why = Reason{Key: MsgSLOKVPool}
		}
		return 0, why, false
	}
	if !(lam > 0) {
		return 0, Reason{}, true
	}
	rho := sc.mu
	if sc.sim != nil && sc.sim.ok {
		v, ok := s.memo[sc.sim]
		if !ok {
			v = s.perCopy(sc, r, cs.perInstance)
			s.memo[sc.sim] = v
		}
		rho = v
	}
	if !(rho > 0) {
		return 0, Reason{Key: MsgSLOKVPool}, false
	}
	return lam / rho, Reason{}, true
}

// shape is the row's copy shape and its curve for s's workload.
func (s *fleetSizer) shape(r *Row) (copyShape, serveCurve) {
	p := s.p
	mem, hw := p.slice(r.Offer)
	mem.share = p.in.GPUMemUtil // the share the row's copies ran at (gpuMem)
	if r.MemShare > 0 {
		mem.share = r.MemShare
	}
	gpus := r.TP * r.PP
	if p.req.FixedParallelism {
		gpus = p.in.GPUs
	}
	cs := copyShape{mem: mem, gpus: gpus, tp: r.TP, pp: r.PP, perInstance: max(r.DP, 1), instancesPer: max(r.InstancesPerReplica, 1), dp: r.AttnDP, ep: r.EP}
	return cs, p.curve(cs, hw)
}

// prewarm fills the sizers' memos with ρ* of every simulated shape the
// rows use, the shapes in parallel: each shape's set-up has its own
// serving model, so its runs share nothing with another's. The curves are
// built first, in the rows' order (the planners' memo tables are not safe
// for concurrent writes), and each shape is sized for the first row that
// uses it, as load would size it, so the memos hold what the sequential
// loop would put there, whatever the schedule.
func prewarm(sizers []*fleetSizer, rows []Row) {
	type job struct {
		s    *fleetSizer
		sc   serveCurve
		r    *Row
		step int
		rho  float64
	}
	var jobs []job
	queued := map[*simMemo]bool{}
	for i := range rows {
		r := &rows[i]
		if !r.Fits || r.Offer == nil {
			continue
		}
		for _, s := range sizers {
			cs, sc := s.shape(r)
			if !sc.ok || !(sc.mu > 0) || sc.sim == nil || !sc.sim.ok || queued[sc.sim] {
				continue
			}
			if _, ok := s.memo[sc.sim]; ok {
				continue
			}
			queued[sc.sim] = true
			jobs = append(jobs, job{s: s, sc: sc, r: r, step: cs.perInstance})
		}
	}
	parallel(len(jobs), func(j int) {
		x := &jobs[j]
		x.rho = x.s.perCopy(&x.sc, x.r, x.step)
	})
	for _, x := range jobs {
		x.s.memo[x.sc.sim] = x.rho
	}
}

// perCopy is ρ*: the highest rate one copy of sc serves within the SLOs
// in the simulator, at most the utilisation cap's share of its saturated
// rate; 0 when even a light load misses them.
//
// When the sizer plans the peak's own workload, the peak row brackets ρ*:
// its k copies meet the SLOs at the peak rate λ/k, and k − step copies
// (over λ/(k − step)) either miss them or break the cap.
func (s *fleetSizer) perCopy(sc *serveCurve, r *Row, step int) float64 {
	p := s.p
	w := p.req.Workload
	cap := w.MaxUtilisation
	if cap == 0 {
		cap = DefaultMaxUtilisation
	}
	hi := cap * sc.rawRate(p.output)
	lo, hiFails := 0.0, false
	if s.share == 1 && r.Replicas > 0 {
		lo = math.Min(w.RequestsPerSecond/float64(r.Replicas*step), hi)
		// The peak plan's own runs of this shape (k copies at the peak
		// rate: a copy at λ/k) tighten the bracket for free.
		for k, run := range sc.sim.runs {
			rho := w.RequestsPerSecond / float64(k)
			switch {
			case run.meets && rho > lo && rho <= hi:
				lo = rho
			case !run.meets && rho <= hi:
				hi, hiFails = rho, true
			}
		}
		if lo > hi {
			// Not monotone at the peak: keep the peak plan's own count.
			lo = w.RequestsPerSecond / float64(r.Replicas*step)
			hi = lo
		}
	}
	meets := func(rho float64) bool {
		res, err := sc.sim.run(rho)
		return err == nil && meetsSLO(w, res)
	}
	if !(hi > 0) {
		return 0
	}
	// Bisect only while some hour's count differs between the bounds:
	// ceil(λ_h/lo) copies meet the SLOs, ceil(λ_h/hi) may not. Where the
	// peak plan's runs already settle every hour, no run is needed.
	settled := func() bool {
		for _, lam := range s.curve {
			if lam *= s.share; lam > 0 && math.Ceil(lam/lo-1e-9) != math.Ceil(lam/hi-1e-9) {
				return false
			}
		}
		return true
	}
	if lo > 0 && settled() {
		return lo
	}
	if !hiFails && meets(hi) {
		return hi
	}
	for range 12 {
		if lo > 0 && settled() {
			break
		}
		mid := (lo + hi) / 2
		if meets(mid) {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 2e-3*hi {
			break
		}
	}
	return lo
}

// fleetRow sizes and prices one row's day.
func fleetRow(sizers []*fleetSizer, r Row, fo FleetOptions, single bool, fr *FleetRow) {
	p := sizers[0].p
	o := r.Offer
	fr.Row, fr.RequestsPerSecond = r, fo.Curve
	a := p.req.Assumptions
	fr.StartUpSeconds = a.RestartSeconds
	if fr.StartUpSeconds == 0 {
		fr.StartUpSeconds = DefaultRestartSeconds
	}
	month := a.SpotInterruptionsPerMonth
	if month == 0 {
		month, _ = SpotInterruptionsPerMonth(o.SpotInterruption)
	}
	inst := max(r.InstancesPerReplica, 1)
	step, billed := rentalReplicas(o, inst)
	// A replica spanning several instances goes down when any of them is
	// reclaimed.
	fr.SpotInterruptionsPerMonth = math.Min(month*float64(inst), 1e6)
	minR := fo.MinReplicas
	if minR == 0 {
		minR = 1
	}
	peak := fo.Curve.Peak()
	per := max(r.DP, 1)
	// Each workload's shape and curve on the row, looked up once for the
	// day's 24 hours.
	type shaped struct {
		cs copyShape
		sc serveCurve
	}
	var buf [8]shaped
	shapes := buf[:0]
	for _, s := range sizers {
		cs, sc := s.shape(&r)
		shapes = append(shapes, shaped{cs, sc})
	}
	var in FleetInput
	for h, lam := range fo.Curve {
		need := 0
		if single && lam == peak {
			need = r.Replicas // the peak plan's own count
		} else {
			// A mix's classes share the copies: each class adds its mean
			// load at its share of the rate (λ·share/ρ*_class copies), and
			// the hour needs the sum's ceiling. An assumption: a copy
			// serving the mix meets the SLOs when each class's load fits,
			// which ignores short requests queueing behind long prompts.
			load := 0.0
			for i, s := range sizers {
				l, why, ok := s.loadOn(&r, shapes[i].cs, &shapes[i].sc, lam*s.share)
				if !ok {
					fr.Reason = why
					return
				}
				load += l
			}
			c := int(math.Ceil(load - 1e-9))
			need = (c + per - 1) / per
			if single {
				// A quieter hour needs no more than the peak.
				need = min(need, r.Replicas)
			}
		}
		// The replicas rented: whole orders of the offer's rental unit
		// (a GB200 NVL72 rack's trays carry step replicas).
		in.Need[h] = roundUp(max(need, minR), step)
	}
	price := func(pr Pricing) float64 {
		v, ok := p.usd(o, p.price(o, pr))
		if !ok || !(v > 0) {
			return 0
		}
		return v * billed
	}
	in.OnDemandPerHour, in.SpotPerHour = price(OnDemand), price(Spot)
	in.Reserved1yPerHour, in.Reserved3yPerHour = price(Reserved1y), price(Reserved3y)
	in.BillingGranularity = o.BillingGranularity
	if in.BillingGranularity == "" && monthlyOnly(o) {
		in.BillingGranularity = "month"
	}
	in.StartUpSeconds = fr.StartUpSeconds
	in.SpotInterruptionsPerMonth = fr.SpotInterruptionsPerMonth
	in.NoSpot = fo.NoSpot
	fp, err := Fleet(in)
	if err != nil {
		fr.Reason = Reason{Key: MsgFitNoPrice, Args: []any{OnDemand.String()}}
		return
	}
	fr.Plan, fr.Sized = fp, true
}
