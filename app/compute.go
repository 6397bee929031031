package app

// compute turns a job, the catalog (with the user's price sheet applied)
// into results: numbers only, no text. It is a pure function of its inputs
// (no go-app, no browser), so it is tested and benchmarked natively; the
// components format what it returns.

import (
	"cmp"
	"slices"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// maxGPUsSearched bounds the "GPUs needed" search: 64 GPUs is eight 8-GPU
// nodes, past which a memory calculator stops being the right tool.
const maxGPUsSearched = 64

// offersShown is how many offers the table shows before "Show all".
const offersShown = 12

// paretoPoints bounds the points of the cost-vs-time chart: the cheapest
// candidates plus every point of the Pareto front (each point costs the
// page DOM work on every input change; the export lists them all).
const paretoPoints = 40

// plan is how a job uses its GPUs: the count and the split.
type plan struct {
	GPUs, TP, PP, ZeRO int
}

func planOf(in estimator.Input) plan { return plan{in.GPUs, in.TP, in.PP, in.ZeRO} }

func (p plan) apply(in estimator.Input) estimator.Input {
	in.GPUs, in.TP, in.PP, in.ZeRO = p.GPUs, p.TP, p.PP, p.ZeRO
	return in
}

// results is everything the page shows for one job, as numbers.
type results struct {
	OK         bool
	Res        estimator.Result
	MaxBatch   int
	MaxSeq     int
	SeqCapped  bool // MaxSeq stopped at the model's context length
	Need       int  // GPUs of the selected kind the job needs (0: more than maxGPUsSearched)
	Fit        []fitResult
	Offers     []offerResult
	OffersMore int
	Rules      []estimator.RuleCheck
	Perf       perfResult
	HWWarn     []msgKey // the GPU disagrees with the input (bf16 on T4, ...)
	// PerfErr is the estimator's objection to the speed inputs (a workload
	// with no prompt left), for the page to place next to its field.
	PerfErr error
}

// perfResult is the speed and cost of the job as set.
type perfResult struct {
	OK       bool
	P        estimator.Perf
	HW       estimator.Hardware
	Eff      estimator.Efficiency
	Seconds  float64 // training: the whole job
	GPUHours float64
	// Cheapest is the lowest USD on-demand cost among the selected GPU's
	// offers (job cost, or per 1M tokens for inference), 0 if none.
	Cheapest      float64
	CheapestOffer string // offer ID
}

// fitResult is one GPU of the fit table.
type fitResult struct {
	GPU      catalog.GPU
	Fits     bool // with the user's own GPU count and split
	Headroom estimator.Bytes
	Found    bool // some count up to maxGPUsSearched holds the job
	Plan     plan // the user's setup when it fits (or nothing holds it), else the fewest GPUs that hold it
	From     offerPrice
	Cost     float64 // USD; job cost or per 1M tokens; 0 = none
	Cheapest bool
}

// offerResult is one offer of the selected GPU.
type offerResult struct {
	Offer    catalog.Offer
	Provider catalog.Provider
	Plan     plan
	Cost     float64 // on-demand, in the offer's currency
	SpotCost float64
	Own      bool // the user's price sheet set this price
}

// offerPrice is the cheapest on-demand price per GPU-hour of one GPU in one currency.
type offerPrice struct {
	perGPUHour float64
	currency   string
}

// prices is the catalog with the user's sheet applied and the indexes
// compute needs.
type prices struct {
	cat      *catalog.Catalog
	cheapest map[string]offerPrice
	own      map[string]bool
	offers   map[estimator.DType][]planner.Offer // the planner's view of the offers, by weight dtype
}

func newPrices(cat *catalog.Catalog, own map[string]bool) prices {
	return prices{cat: cat, cheapest: cheapestUSD(cat), own: own, offers: map[estimator.DType][]planner.Offer{}}
}

// planOffers is the catalog's offers for the planner (catalog.PlanOffers),
// made once per weight dtype.
func (pr prices) planOffers(d estimator.DType) []planner.Offer {
	o, ok := pr.offers[d]
	if !ok {
		o = pr.cat.PlanOffers(d)
		pr.offers[d] = o
	}
	return o
}

// compute estimates j and prices it on every GPU and offer.
func compute(j job, pr prices) (r results, general []fieldErr) {
	in := j.In
	res, err := estimator.Estimate(in)
	if err != nil {
		var errs [nFields]fieldErr
		s := defaultState
		placeErrors(err, &s, &errs, &general)
		return r, general
	}
	r.OK, r.Res = true, res
	r.MaxBatch = estimator.MaxBatch(in)
	r.MaxSeq = estimator.MaxSeq(in)
	if limit := contextLimit(j); limit > 0 && r.MaxSeq > limit {
		r.MaxSeq, r.SeqCapped = limit, true
	}
	r.HWWarn = hardwareWarnings(in, j.GPU)
	sp := speeds{j: j, cache: map[speedKey]speedVal{}}
	r.Fit, r.Need = fitResults(j, pr, &sp)
	r.Perf, r.PerfErr = perfOf(j)
	r.Offers, r.OffersMore = offerResults(j, pr, &sp, r.Need, &r.Perf)
	if rules, n, err := estimator.RuleChecks(in); err == nil {
		r.Rules = slices.Clone(rules[:n])
	}
	return r, nil
}

// contextLimit is the model's context length (catalog card, else the
// config's max_position_embeddings); 0 when unknown.
func contextLimit(j job) int {
	if j.Model.ContextLength > 0 {
		return j.Model.ContextLength
	}
	return j.In.Arch.MaxPositions
}

// hardwareWarnings: the selected GPU lacks units for the input's formats.
// bf16 tensor cores arrived with Ampere (T4 is Turing, V100 Volta), fp8
// with Ada and Hopper (NVIDIA H100 and L40S datasheets), FP4 with
// Blackwell (NVIDIA, "Introducing NVFP4", 2025); the catalog records each
// as a GPU flag.
func hardwareWarnings(in estimator.Input, g catalog.GPU) []msgKey {
	var w []msgKey
	uses := func(d estimator.DType) bool {
		return in.Weights == d || (in.KV == d && !in.Task.Training() && in.Arch.HasKVCache())
	}
	if uses(estimator.BF16) && !g.SupportsBF16 && g.ID != "" {
		w = append(w, mHWNoBF16)
	}
	if uses(estimator.FP8) && !g.SupportsFP8 && g.ID != "" {
		w = append(w, mHWNoFP8)
	}
	if uses(estimator.FP4) && !g.SupportsFP4 && g.ID != "" {
		w = append(w, mHWNoFP4)
	}
	return w
}

// speeds memoizes estimator.Throughput per GPU and setup: many offers
// share a GPU and a count.
type speedKey struct {
	gpu string
	p   plan
}

type speedVal struct {
	p  estimator.Perf
	ok bool
}

type speeds struct {
	j     job
	cache map[speedKey]speedVal
}

// of is the speed of j on GPU g set up as p.
func (s *speeds) of(g catalog.GPU, p plan) (estimator.Perf, bool) {
	k := speedKey{g.ID, p}
	if v, ok := s.cache[k]; ok {
		return v.p, v.ok
	}
	var v speedVal
	if hw, ok := g.Hardware(s.j.In.Weights); ok {
		x := p.apply(s.j.In)
		x.VRAM, x.UsableVRAM = g.Memory, 0
		if g.ID == s.j.GPU.ID {
			x.UsableVRAM = s.j.In.UsableVRAM
		}
		perf, err := estimator.Throughput(x, hw, s.j.Eff, s.j.Work)
		v = speedVal{perf, err == nil}
	}
	s.cache[k] = v
	return v.p, v.ok
}

// costAt prices a speed estimate at hourly (per whole rental, in its
// currency): the training job's cost, or the cost of a million generated
// tokens for inference; and the time it takes (seconds per 1M tokens for
// inference). 0 for a price or speed of 0.
func (j job) costAt(p estimator.Perf, hourly float64) (cost, seconds float64) {
	if j.In.Task == estimator.Inference {
		if p.TokensPerSecond > 0 {
			seconds = 1e6 / p.TokensPerSecond
		}
		return estimator.CostPerMillionTokens(hourly, p.TokensPerSecond), seconds
	}
	seconds = estimator.JobTime(p, j.Tokens)
	return estimator.JobCost(hourly, seconds), seconds
}

// perfOf is the speed of the job as set on the selected GPU. Not OK when
// the job does not fit or the catalog lacks the GPU's figures.
func perfOf(j job) (perfResult, error) {
	hw, ok := j.GPU.Hardware(j.In.Weights)
	if !ok {
		return perfResult{}, nil
	}
	res, err := estimator.Estimate(j.In)
	if err != nil || !res.Fits {
		return perfResult{}, nil
	}
	p, err := estimator.Throughput(j.In, hw, j.Eff, j.Work)
	if err != nil {
		return perfResult{}, err
	}
	r := perfResult{OK: true, P: p, HW: hw, Eff: effective(j)}
	if j.In.Task.Training() {
		r.Seconds = estimator.JobTime(p, j.Tokens)
		r.GPUHours = estimator.GPUHours(p, j.Tokens)
	}
	return r, nil
}

// effective is the efficiency used: the user's overrides over the
// estimator's defaults for this job.
func effective(j job) estimator.Efficiency {
	e := estimator.DefaultEfficiency(j.In)
	if j.Eff.MFU > 0 {
		e.MFU = j.Eff.MFU
	}
	if j.Eff.InferenceMFU > 0 {
		e.InferenceMFU = j.Eff.InferenceMFU
	}
	if j.Eff.BandwidthUtil > 0 {
		e.BandwidthUtil = j.Eff.BandwidthUtil
	}
	return e
}

// fitResults estimates the job on every catalog GPU, smallest memory
// first (or cheapest job first), and how many of the selected GPU it needs.
func fitResults(j job, pr prices, sp *speeds) ([]fitResult, int) {
	gpus := slices.Clone(pr.cat.GPUs)
	slices.SortStableFunc(gpus, func(a, b catalog.GPU) int {
		return cmp.Or(cmp.Compare(a.Memory, b.Memory), cmp.Compare(a.ID, b.ID))
	})
	need := 0
	rows := make([]fitResult, 0, len(gpus))
	for _, g := range gpus {
		if g.Memory <= 0 {
			continue
		}
		x := j.In
		x.VRAM, x.UsableVRAM = g.Memory, 0
		// Without a count that holds the job, a pick keeps the user's setup.
		r := fitResult{GPU: g, Plan: planOf(x)}
		if res, err := estimator.Estimate(x); err == nil {
			r.Fits, r.Headroom = res.Fits, res.Headroom
		}
		if min, found := estimator.MinGPUsInput(x, maxGPUsSearched); found {
			r.Found, r.Plan = true, planOf(min)
			if g.ID == j.GPU.ID {
				need = min.GPUs
			}
			if r.Fits {
				r.Plan = planOf(x) // the user's own GPU count and parallelism fit: price that
			}
		}
		if p, ok := pr.cheapest[g.ID]; ok {
			r.From = p
			if r.Found {
				if perf, ok := sp.of(g, r.Plan); ok {
					r.Cost, _ = j.costAt(perf, p.perGPUHour*float64(r.Plan.GPUs))
				}
			}
		}
		rows = append(rows, r)
	}
	if j.Sort == sortCost {
		// Cheapest job first; GPUs without a price or a fit keep memory order after them.
		slices.SortStableFunc(rows, func(a, b fitResult) int { return cmp.Compare(priceKey(a.Cost), priceKey(b.Cost)) })
	}
	best := -1
	for i, r := range rows {
		if r.Cost > 0 && (best < 0 || r.Cost < rows[best].Cost) {
			best = i
		}
	}
	if best >= 0 {
		rows[best].Cheapest = true
	}
	return rows, need
}

// instancePlan is how a job set up as p runs on an instance of n GPUs:
// all of them, as whole model copies (a multiple of TP × PP). ok is false
// when the instance has fewer GPUs than p.
func instancePlan(p plan, n float64) (plan, bool) {
	per := max(1, p.TP*p.PP)
	q := p
	q.GPUs = int(n) / per * per
	return q, q.GPUs >= p.GPUs && q.GPUs >= 1
}

// offerResults lists the selected GPU's offers with enough GPUs in one
// instance for this job, ranked by what the job costs on each (all the
// instance's GPUs at work), USD first; offers without a cost follow by
// price per GPU-hour.
func offerResults(j job, pr prices, sp *speeds, need int, perf *perfResult) ([]offerResult, int) {
	base := planOf(j.In)
	if res, err := estimator.Estimate(j.In); err == nil && !res.Fits && need > 0 {
		if min, ok := estimator.MinGPUsInput(j.In, maxGPUsSearched); ok {
			base = planOf(min)
		}
	}
	var rows []offerResult
	for _, o := range pr.cat.OffersForGPU(j.GPU.ID) {
		q, ok := instancePlan(base, o.GPUCount)
		if !ok {
			continue
		}
		r := offerResult{Offer: o, Plan: q, Own: pr.own[o.ID]}
		r.Provider, _ = pr.cat.Provider(o.Provider)
		if perf.OK {
			if p, ok := sp.of(j.GPU, q); ok {
				r.Cost, _ = j.costAt(p, o.OnDemandPerHour)
				r.SpotCost, _ = j.costAt(p, o.SpotPerHour)
			}
		}
		if r.Cost > 0 && o.Currency == "USD" && (perf.Cheapest == 0 || r.Cost < perf.Cheapest) {
			perf.Cheapest, perf.CheapestOffer = r.Cost, o.ID
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b offerResult) int {
		return cmp.Or(
			cmp.Compare(currencyRank(a.Offer.Currency), currencyRank(b.Offer.Currency)),
			cmp.Compare(a.Offer.Currency, b.Offer.Currency),
			cmp.Compare(priceKey(a.Cost), priceKey(b.Cost)),
			cmp.Compare(priceKey(a.Offer.OnDemandPerGPUHour()), priceKey(b.Offer.OnDemandPerGPUHour())),
			cmp.Compare(a.Offer.ID, b.Offer.ID),
		)
	})
	more := 0
	if !j.AllOffers && len(rows) > offersShown {
		more = len(rows) - offersShown
		rows = rows[:offersShown]
	}
	return rows, more
}

func currencyRank(cur string) int {
	if cur == "USD" {
		return 0
	}
	return 1
}

// priceKey sorts unknown (0) prices last.
func priceKey(p float64) float64 {
	if p <= 0 {
		return 1e18
	}
	return p
}

// cheapestUSD finds, per GPU, the lowest on-demand USD price per GPU-hour.
func cheapestUSD(cat *catalog.Catalog) map[string]offerPrice {
	m := map[string]offerPrice{}
	for _, o := range cat.Offers {
		if o.Currency != "USD" || o.GPUCount < 1 {
			continue
		}
		p := o.OnDemandPerGPUHour()
		if p <= 0 {
			continue
		}
		if cur, ok := m[o.GPU]; !ok || p < cur.perGPUHour {
			m[o.GPU] = offerPrice{p, "USD"}
		}
	}
	return m
}
