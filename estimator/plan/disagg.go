package plan

import (
	"math"
	"slices"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Disaggregated prefill and decode as an alternative to the aggregated
// serving plan: prefill workers and decode workers, each pool of its own
// worker shape, on separate instances of one offer, the KV cache handed
// over between them (estimator.DisaggServing, its open loop at the
// target rate). This is how large models are served at scale (DistServe,
// Zhong et al., OSDI 2024; Splitwise, Patel et al., ISCA 2024; NVIDIA
// Dynamo's planner and SGLang's and vLLM's PD disaggregation size the two
// pools separately): the decode pool is sized on the TPOT target alone,
// the prefill pool on the TTFT target given the decode pool, and each
// pool on its own instances. Each side takes the layout that needs the
// fewest instances of the copy shapes the aggregated search tries on the
// offer (inferShapes: each TP that fits, with its attention-DP and EP
// layouts), decode also over wider expert-parallel workers (disaggLayouts):
// the measured deployments run the sides differently (InferenceX's
// disaggregated DeepSeek-R1 rows, SemiAnalysisAI/InferenceX at aa430b5b:
// on H200 with SGLang at 8k/1k tokens, prefill TP 8 without attention DP
// beside decode TP 8 or attention-DP 8 / EP 8; on GB200 prefill TP 4 × 6
// beside one decode worker of attention-DP 48 / EP 48). The planner sizes
// it on the offers of the aggregated plan's rows and says whether it
// beats the cheapest of them.

// DisaggPlan is the cheapest disaggregated deployment the planner found.
type DisaggPlan struct {
	Offer  *Offer
	Engine estimator.Engine
	// Prefill and Decode are the workers of each pool, PrefillWorker
	// and DecodeWorker each pool's worker shape (DisaggWorker).
	Prefill, Decode             int
	PrefillWorker, DecodeWorker DisaggWorker
	// PrefillSpare and DecodeSpare are the workers of Prefill and Decode
	// that are each pool's spare on spot (0 on demand): one instance's
	// workers (a worker over several instances: one worker), standby
	// capacity that takes over the instance a reclaim takes, started,
	// priced and counted in Instances and GPUs. The figures below are
	// the pools' without them, what holds while a reclaimed instance is
	// replaced.
	PrefillSpare, DecodeSpare int
	// Instances are the instances rented, spares included: each pool
	// packs its workers into whole instances of its own. At most the
	// plan's instance limit (Options.MaxInstances) unless PastLimit.
	Instances int
	// PastLimit: no disaggregated deployment fits the plan's instance
	// limit, and this is the cheapest past it, named so that the plan
	// says why it has none to offer (disagg.past_limit); it neither wins
	// nor launches (catalog/launch refuses it).
	PastLimit bool
	GPUs      float64
	// TTFTSeconds and TPOTSeconds are the disaggregated model's mean time
	// to first token and time per output token at the target rate (an
	// estimate, docs/accuracy.md "Disaggregated serving") on the pools
	// without their spares; KVTransferSeconds one request's handover.
	TTFTSeconds, TPOTSeconds, KVTransferSeconds float64
	// TTFTAtSLOSeconds and TPOTAtSLOSeconds are TTFT and TPOT at the
	// statistic the targets bound (Workload.SLOStat), the figures the
	// pools were sized on, as Row's for the aggregated plan (the M/D/1
	// prefill queue's wait at that quantile, the decode batch's Poisson
	// spread: estimator.DisaggPoint.TTFTAtSeconds).
	TTFTAtSLOSeconds, TPOTAtSLOSeconds float64
	MonthlyCostUSD, MonthlyCostDisp    float64
	// AggregatedUSD is the cheapest aggregated plan's monthly bill; Wins
	// when the disaggregated one costs less.
	AggregatedUSD float64
	Wins          bool
	// PrefillBound and DecodeBound say what set each side's worker
	// count (disaggBound): its latency target (disagg.bound_ttft,
	// disagg.bound_tpot), the request rate under the load cap
	// (disagg.bound_rate; for decode, with the requests a worker
	// decodes at once and what caps them, its KV cache or the engine's
	// sequence limit: disagg.bound_rate_kv, disagg.bound_rate_seqs), or
	// nothing, one worker being enough (disagg.bound_one). Why names
	// them beside each side's layout.
	PrefillBound, DecodeBound Reason
	Why                       Reason
}

// DisaggWorker is one pool's worker shape. TP is the worker's GPUs, DP
// and EP its attention data- and expert-parallel degrees (1: none): the
// request's --dp and --ep where it names them, else the layout the
// planner chose for the side. InstancesPerWorker is how many instances
// one worker spans: 1 where it fits one instance, more for a wide
// expert-parallel worker (TP = DP = EP = its GPUs), as every H100 row of
// InferenceX's disaggregated DeepSeek-R1 recipes runs TP 16 /
// DP-attention 16 / EP 16 workers over two 8-GPU nodes
// (SemiAnalysisAI/InferenceX benchmarks/multi_node/srt-slurm-recipes/
// dsr1/sglang/h100-fp8, commit aa430b5b). MemShare is the engine's
// memory share the workers run at where the planner set one (SGLang's
// default leaves DP-attention workers no KV pool,
// estimator.EngineShareFor); 0 where they run at the request's or the
// engine's default. The planner's workers have DP, EP and
// InstancesPerWorker at least 1.
type DisaggWorker struct {
	TP, DP, EP, InstancesPerWorker int
	// RedundantExperts is each worker's extra expert copies over its EP
	// ranks (as Row's): a rack-wide worker whose EP does not divide the
	// experts carries the fewest that do (rackRedundant).
	RedundantExperts int
	MemShare         float64
}

// Layout is w's layout as a reason names it.
func (w DisaggWorker) Layout() WorkerLayout { return WorkerLayout{w.TP, max(w.DP, 1), max(w.EP, 1)} }

// Base is the index in rows of the aggregated row d's workers take their
// settings from (the first fitting row of d's offer: its engine, memory
// and price; the launch sets each side's own shape on it), or -1 where
// there is none or d is nil.
func (d *DisaggPlan) Base(rows []Row) int {
	if d == nil {
		return -1
	}
	for i := range rows {
		if r := &rows[i]; r.Offer == d.Offer && r.Fits {
			return i
		}
	}
	return -1
}

// maxDisaggWorkers bounds each pool's search.
const maxDisaggWorkers = 1024

// disaggShapes is how many hardware shapes (GPU, instance size, memory,
// network) the search sizes, the cheapest aggregated rows' first: the
// pools' cost follows the same hourly prices and the same step times, so
// an offer far down the aggregated ranking does not lead the
// disaggregated one, and each shape costs a search of each side's
// layouts (disaggSize).
const disaggShapes = 4

// disaggWiderInstances are the instances a wider decode worker spans
// where one instance holds a copy (disaggLayouts): attention DP and EP
// over 16 and 32 GPUs of 8-GPU instances, as measured disaggregated
// DeepSeek-R1 deployments run decode (LMSYS, "Deploying DeepSeek with PD
// Disaggregation and Large-scale Expert Parallelism on 96 H100 GPUs",
// 2025-05: decode DP-attention EP over several nodes; InferenceX's GB200
// and GB300 rows, decode attention-DP 16 to 48 with EP as wide). Two
// counts bound the search's cost.
var disaggWiderInstances = [...]int{2, 4}

// disagg sizes the disaggregated alternative to res's serving plan: for
// the fitting rows' offers of the first disaggShapes hardware shapes in
// rank order, the decode layout and fewest decode workers meeting the
// TPOT target below the utilisation cap, then the prefill layout and
// fewest prefill workers meeting the TTFT target, each on the fewest
// instances (disaggSize); the cheapest such deployment. nil when the
// request is not serving, nothing fits aggregated, or no offer's copy
// can be a worker (pipeline stages across instances), or one token out.
func (p *planner) disagg(res *Result) *DisaggPlan {
	w := p.req.Workload
	if w.Kind != Serving || res.Cheapest < 0 || !(w.RequestsPerSecond > 0) || p.output < 2 {
		return nil
	}
	lam := w.RequestsPerSecond
	capU := w.MaxUtilisation
	if capU == 0 {
		capU = DefaultMaxUtilisation
	}
	type key struct {
		gpu    string
		engine estimator.Engine
		gpus   int
		gbps   float64
		mem    gpuMem
		bw     float64
		dom    int
	}
	sized := map[key]disaggSizing{}
	// best is the cheapest within the instance limit, over the cheapest
	// past it (the plan's sentence when nothing fits the limit).
	var best, over *DisaggPlan
	for i := range res.Rows {
		r := &res.Rows[i]
		o := r.Offer
		if !r.Fits || r.PassedOver.Key != NoMsg || o == nil || o.GPUCount < 1 {
			continue
		}
		mem, hw := p.slice(o)
		k := key{o.GPU, r.Engine, int(o.GPUCount), hw.NetworkBandwidth, mem, hw.MemBandwidth, hw.NVLinkDomain}
		s, seen := sized[k]
		if !seen && len(sized) == disaggShapes {
			continue
		}
		if !seen {
			// Each new shape is a search of its own (disaggSize): a
			// caller's yield may give the thread away before it, as
			// between offers (Options.Yield).
			p.opts.yield()
			s = p.disaggSize(o, r.Engine, hw, lam, capU)
			sized[k] = s
		}
		if !s.ok {
			continue
		}
		pre, dec := s.pre, s.dec
		if r.Pricing == Spot {
			// A reclaim takes an instance of either pool, and a worker
			// serves only its own side: each pool holds a spare, as the
			// aggregated row on spot holds a spare replica (serve.go,
			// docs/planning.md), so the two are compared like for like.
			pre, dec = pre.withSpare(int(o.GPUCount)), dec.withSpare(int(o.GPUCount))
		}
		// Both pools rent from one order: their instances together
		// rounded up to the offer's rental unit (Offer.Rented; a GB200
		// NVL72 rack's trays carry both sides over its NVLink).
		usd := float64(o.Rented(pre.inst+dec.inst)) * r.PricePerHourUSD * HoursPerMonth
		// The plan's instance limit bounds the deployment rented,
		// spares included, as it bounds an aggregated row's replicas
		// with theirs (servingTech); the cheapest past it is kept for
		// the sentence.
		pick := &best
		if pre.inst+dec.inst > p.maxInst {
			pick = &over
		}
		if *pick != nil && usd >= (*pick).MonthlyCostUSD {
			continue
		}
		pw, dw := p.disaggWorker(pre.cs), p.disaggWorker(dec.cs)
		*pick = &DisaggPlan{Offer: o, Engine: r.Engine, Prefill: pre.n, Decode: dec.n,
			PrefillWorker: pw, DecodeWorker: dw, PrefillSpare: pre.spare, DecodeSpare: dec.spare,
			Instances: pre.inst + dec.inst, GPUs: float64(pre.n*pw.TP + dec.n*dw.TP),
			TTFTSeconds: s.ttft, TPOTSeconds: s.tpot, KVTransferSeconds: s.xfer,
			TTFTAtSLOSeconds: s.ttftAt, TPOTAtSLOSeconds: s.tpotAt, MonthlyCostUSD: usd,
			PrefillBound: pre.bound, DecodeBound: dec.bound}
	}
	if best == nil {
		if best = over; best == nil {
			return nil
		}
		best.PastLimit = true
	}
	best.MonthlyCostDisp = p.display(best.MonthlyCostUSD)
	agg := &res.Rows[res.Cheapest]
	best.AggregatedUSD = agg.MonthlyCostUSD
	best.Wins = best.MonthlyCostUSD < agg.MonthlyCostUSD && !best.PastLimit
	ref := OfferRef{Provider: best.Offer.Provider, InstanceType: best.Offer.Name(), Instances: best.Instances, Rented: best.Offer.Rented(best.Instances)}
	pre, dec := best.PrefillWorker, best.DecodeWorker
	money := Money{Amount: p.display(best.MonthlyCostUSD), Currency: res.Currency, PerMonth: true}
	rack := disaggRack(best.Offer, pre, dec)
	switch {
	case best.PastLimit:
		best.Why = Reason{Key: MsgDisaggPastLimit, Args: []any{best.Instances, p.maxInst, ref, pre.Layout(), best.Prefill, best.PrefillBound, dec.Layout(), best.Decode, best.DecodeBound, money,
			best.MonthlyCostUSD / agg.MonthlyCostUSD, rack}}
	case best.Wins:
		best.Why = Reason{Key: MsgDisaggSidesWin, Args: []any{ref, pre.Layout(), best.Prefill, best.PrefillBound, dec.Layout(), best.Decode, best.DecodeBound, money,
			100 * (1 - best.MonthlyCostUSD/agg.MonthlyCostUSD), rack}}
	default:
		best.Why = Reason{Key: MsgDisaggSidesLose, Args: []any{ref, pre.Layout(), best.Prefill, best.PrefillBound, dec.Layout(), best.Decode, best.DecodeBound, money,
			best.MonthlyCostUSD / agg.MonthlyCostUSD, rack}}
	}
	return best
}

// disaggRack is the clause the disaggregated sentence ends with: where a
// worker of either pool spans several trays of one NVLink domain on o
// (rackInstances: a GB200 NVL72 rack), the trays a worker of each side
// spans and the rack (disagg.rack_span), as an aggregated row over the
// rack's trays says it (note.nvlink_rack); else the empty clause.
func disaggRack(o *Offer, pre, dec DisaggWorker) Reason {
	n := rackInstances(o)
	wide := max(pre.InstancesPerWorker, dec.InstancesPerWorker)
	if n < 2 || wide < 2 || wide > n {
		return Reason{}
	}
	return Reason{Key: MsgDisaggRackSpan, Args: []any{max(pre.InstancesPerWorker, 1), max(dec.InstancesPerWorker, 1), n, o.RackGPUs}}
}

// disaggWorker is the plan's record of a worker of copy shape cs: its
// layout, the instances it spans and the memory share the planner set on
// it (one other than the request's, as Row.MemShare).
func (p *planner) disaggWorker(cs copyShape) DisaggWorker {
	w := DisaggWorker{TP: cs.tp, DP: max(cs.dp, 1), EP: max(cs.ep, 1), InstancesPerWorker: max(cs.instancesPer, 1), RedundantExperts: cs.redundant}
	if s := cs.mem.share; s > 0 && s != p.in.GPUMemUtil {
		w.MemShare = s
	}
	return w
}

// disaggLayouts are the worker shapes the disaggregated search tries on
// o: the copy shapes the aggregated search tries (inferShapes) that run
// as one engine instance without pipeline stages (on one instance, or a
// wide expert-parallel copy over several), for prefill; for decode also
// the wider attention-DP/EP workers over disaggWiderInstances instances
// on the engines whose disaggregated launch starts a worker over several
// instances (catalog/launch's ErrDisaggWide): SGLang, with the model's
// experts on DeepEP, and vLLM, its data-parallel ranks over the instances
// (--data-parallel-size-local, --data-parallel-address, --headless on all
// but the first; vLLM docs, "Data Parallel Deployment").
func (p *planner) disaggLayouts(o *Offer, e estimator.Engine) (pre, dec []copyShape) {
	gpus := int(o.GPUCount)
	for _, cs := range p.inferShapes(o) {
		wide := cs.instancesPer > 1 && cs.tp == cs.instancesPer*gpus && cs.dp == cs.tp && cs.ep == cs.tp
		if cs.pp <= 1 && (cs.instancesPer <= 1 || wide) {
			pre = append(pre, cs)
		}
	}
	dec = slices.Clone(pre)
	if len(pre) == 0 || pre[0].instancesPer > 1 || e != estimator.SGLang && e != estimator.VLLM {
		return pre, dec
	}
	in := p.input(pre[0])
	in.Engine, in.GPUMemUtil = e, p.in.GPUMemUtil
	if !p.choosesLayout(in) {
		return pre, dec
	}
	for _, n := range disaggWiderInstances {
		if n > p.wideInstLimit(o) || e == estimator.VLLM && n > 2 {
			// vLLM's over two instances only: without DeepEP its
			// experts' all-to-all is the collective's ring, whose
			// latency grows with every instance more.
			break
		}
		if slices.ContainsFunc(dec, func(cs copyShape) bool { return cs.instancesPer == n }) {
			continue // a rack's trays: rackEP's already
		}
		c, ok := spreadCopy(in, o.Hardware, n, gpus, false)
		if !ok {
			continue
		}
		if c, ok := p.layoutFits(c); ok {
			dec = append(dec, shapeOf(c, 1, n))
		}
	}
	return pre, dec
}

// disaggSize is the cheapest disaggregated deployment of engine e on
// offer o's hardware hw at rate lam with each pool at most capU loaded,
// in instances: for each decode layout (disaggLayouts) the fewest decode
// workers whose TPOT meets the target, the layout on the fewest
// instances kept; then for each prefill layout the fewest prefill
// workers whose TTFT meets the TTFT target beside that decode pool, the
// one on the fewest instances kept (where no prefill layout meets it,
// the next decode layout). Both at the statistic the targets bound
// (Workload.SLOStat), as the aggregated rows are sized. Each count search
// starts at the count the side's capacity at the cap needs
// (searchWorkers), a few evaluations a layout, and a layout whose count
// at that bound already takes more instances than a pool sized before it
// is not searched: the planner runs in the page, on every change.
// Prefill workers batch as many prompts as the engine's token budget per
// forward holds (its scheduler's default, sim.DefaultPolicyOn: TensorRT-LLM
// and vLLM one budget a rank; estimator.DisaggPrefillBatch), as rightsize estimate
// --disagg and the replays of measured disaggregated serving take it.
func (p *planner) disaggSize(o *Offer, e estimator.Engine, hw estimator.Hardware, lam, capU float64) (s disaggSizing) {
	pres, decs := p.disaggLayouts(o, e)
	// inferShapes reuses its buffer: the layouts are copies.
	pres, decs = slices.Clone(pres), slices.Clone(decs)
	if len(pres) == 0 {
		return s
	}
	w := p.req.Workload
	in := p.input(pres[0])
	in.Engine, in.GPUMemUtil = e, p.in.GPUMemUtil
	budget, seqs := 0, 0
	if pol, err := sim.DefaultPolicyOn(e, in.VRAM, hw); err == nil {
		budget, seqs = pol.TokenBudget, pol.MaxSeqs
	}
	gpus := int(o.GPUCount)
	side := func(cs copyShape, n int, prefill bool) estimator.DisaggSide {
		d := estimator.DisaggSide{Workers: n, TP: cs.tp, DP: max(cs.dp, 1), EP: max(cs.ep, 1), RedundantExperts: cs.redundant, MemShare: cs.mem.share}
		switch {
		case prefill && budget > 0:
			d.Batch = estimator.DisaggPrefillBatch(in, d.DP, budget, int(p.prompt))
		case !prefill && seqs > 0:
			// A decode worker decodes at most the engine's running-
			// sequence limit at once, one limit a scheduler
			// (sim.SchedulerRanks), besides what its KV pool holds:
			// the default the launch writes (vLLM's --max-num-seqs,
			// TensorRT-LLM's --max_batch_size; SGLang's scheduler is
			// taken as bound by its pool alone, sim.DefaultPolicyOn).
			r := in
			r.TP, r.DP = d.TP, d.DP
			d.Batch = seqs * sim.SchedulerRanks(r)
		}
		return d
	}
	// One sizer for the search: each layout's serving model is built
	// once, not at every count tried.
	sz := estimator.NewDisaggSizer(in, hw, p.req.Assumptions.Efficiency, p.work)
	eval := func(pc copyShape, np int, dc copyShape, nd int) (estimator.DisaggPoint, bool) {
		// Each count tried is a slice of work of its own: a large
		// model's search holds the thread for tens of them
		// (Options.Yield).
		p.opts.yield()
		pt, err := sz.At(estimator.Disagg{Prefill: side(pc, np, true), Decode: side(dc, nd, false), Rate: lam,
			// Each request's fixed cost outside the steps, as the
			// aggregated copies' simulations take it (sim.NewConfig): a
			// calibration's, else the engine's for this model at this
			// prefill layout's TP, as rightsize estimate --disagg.
			RequestSeconds: estimator.DisaggRequestSeconds(in, hw, pc.tp), Quantile: w.SLOStat.Quantile()})
		if err != nil {
			return pt, false
		}
		return pt, pt.PrefillUtilization <= capU && lam <= capU*pt.DecodeCapacity
	}
	instances := func(cs copyShape, n int) int {
		if cs.instancesPer > 1 {
			return n * cs.instancesPer
		}
		per := max(gpus/cs.tp, 1)
		return (n + per - 1) / per
	}
	type pool = disaggPool
	// a on fewer instances, then (on as many) the lower figure its
	// target bounds: the instances rented are the cost, and the GPUs
	// they hold serve either way.
	better := func(a, b pool) bool {
		return b.n == 0 || a.inst < b.inst || a.inst == b.inst && a.at < b.at
	}
	// bounds are the layouts that run, each with the workers its
	// capacity per worker at the cap needs (capacity: one evaluation at
	// maxDisaggWorkers, the side's capacity being its workers' sum) and
	// the instances they take. They are searched fewest first (take), and
	// a layout whose bound is over the instances of a pool already sized
	// cannot beat it and is not searched. (The lists hold a few layouts:
	// picking the least each time keeps sort's code out of the page's
	// WebAssembly.)
	type bound struct {
		cs   copyShape
		need float64
		low  int
	}
	bounds := func(layouts []copyShape, capacity func(copyShape) (float64, bool)) []bound {
		var out []bound
		for _, cs := range layouts {
			full, ok := capacity(cs)
			if !ok {
				continue
			}
			need := lam / (capU * full / maxDisaggWorkers)
			out = append(out, bound{cs, need, instances(cs, int(min(max(math.Ceil(need), 1), maxDisaggWorkers)))})
		}
		return out
	}
	take := func(bs *[]bound) bound {
		i := 0
		for j, b := range *bs {
			if b.low < (*bs)[i].low {
				i = j
			}
		}
		b := (*bs)[i]
		*bs = slices.Delete(*bs, i, i+1)
		return b
	}
	// The decode pools, with prefill workers enough never to bind: the
	// widest prefill layout, which holds the longest prompt.
	probe := pres[len(pres)-1]
	dbs := bounds(decs, func(dc copyShape) (float64, bool) {
		full, ok := eval(probe, maxDisaggWorkers, dc, maxDisaggWorkers)
		return full.DecodeCapacity, ok
	})
	var decPools []pool
	sizeDecode := func(b bound) {
		n, ok := searchWorkers(b.need, func(n int) bool {
			pt, ok := eval(probe, maxDisaggWorkers, b.cs, n)
			return ok && (w.TPOTSeconds == 0 || pt.TPOTAtSeconds <= w.TPOTSeconds)
		})
		if ok {
			pt, _ := eval(probe, maxDisaggWorkers, b.cs, n)
			decPools = append(decPools, pool{cs: b.cs, n: n, inst: instances(b.cs, n), at: pt.TPOTAtSeconds})
		}
	}
	// The prefill pool beside decode pool dec: each layout's fewest
	// workers meeting the TTFT target, the best kept.
	prefillFor := func(dec pool) (pre pool) {
		pbs := bounds(pres, func(pc copyShape) (float64, bool) {
			full, ok := eval(pc, maxDisaggWorkers, dec.cs, dec.n)
			return full.PrefillCapacity, ok
		})
		for len(pbs) > 0 {
			b := take(&pbs)
			if pre.n > 0 && b.low > pre.inst {
				break
			}
			n, ok := searchWorkers(b.need, func(n int) bool {
				pt, ok := eval(b.cs, n, dec.cs, dec.n)
				return ok && (w.TTFTP95Seconds == 0 || pt.TTFTAtSeconds <= w.TTFTP95Seconds)
			})
			if !ok {
				continue
			}
			pt, _ := eval(b.cs, n, dec.cs, dec.n)
			if c := (pool{cs: b.cs, n: n, inst: instances(b.cs, n), at: pt.TTFTAtSeconds}); better(c, pre) {
				pre = c
			}
		}
		return pre
	}
	// bestDecode is the index of the best of decPools.
	bestDecode := func() int {
		i := 0
		for j, p := range decPools {
			if better(p, decPools[i]) {
				i = j
			}
		}
		return i
	}
	for len(dbs) > 0 {
		b := take(&dbs)
		if len(decPools) > 0 && b.low > decPools[bestDecode()].inst {
			dbs = append(dbs, b) // passed over: sized only if needed below
			break
		}
		sizeDecode(b)
	}
	// The best decode pool first; where no prefill pool meets the TTFT
	// target beside it (its TPOT enters the TTFT), the next, then the
	// layouts the bound passed over.
	for {
		for len(decPools) > 0 {
			i := bestDecode()
			dec := decPools[i]
			decPools = slices.Delete(decPools, i, i+1)
			if pre := prefillFor(dec); pre.n > 0 {
				// What set each count: the search's own test one worker
				// fewer (disaggBound), the decode side beside the probe
				// it was sized with.
				dec.bound = disaggBound(dec.n, w.TPOTSeconds, MsgDisaggBoundTPOT, func() (float64, bool) {
					pt, ok := eval(probe, maxDisaggWorkers, dec.cs, dec.n-1)
					return pt.TPOTAtSeconds, ok
				})
				if dec.bound.Key == MsgDisaggBoundRate {
					// The rate fills each decode worker's slots: say
					// what caps them.
					pt, _ := eval(probe, maxDisaggWorkers, dec.cs, dec.n)
					dec.bound = decodeSlotsBound(pt, e)
				}
				pre.bound = disaggBound(pre.n, w.TTFTP95Seconds, MsgDisaggBoundTTFT, func() (float64, bool) {
					pt, ok := eval(pre.cs, pre.n-1, dec.cs, dec.n)
					return pt.TTFTAtSeconds, ok
				})
				pt, _ := eval(pre.cs, pre.n, dec.cs, dec.n)
				return disaggSizing{ok: true, pre: pre, dec: dec,
					ttft: pt.TTFTSeconds, tpot: pt.TPOTSeconds, xfer: pt.KVTransferSeconds, ttftAt: pt.TTFTAtSeconds, tpotAt: pt.TPOTAtSeconds}
			}
		}
		if len(dbs) == 0 {
			return s
		}
		for _, b := range dbs {
			sizeDecode(b)
		}
		dbs = nil
	}
}

// searchWorkers is the smallest n in 1..maxDisaggWorkers with ok(n), for
// ok monotone in n and false below need (the workers the side's capacity
// at the cap needs): stepping up from there by doubling strides, then
// bisection.
func searchWorkers(need float64, ok func(n int) bool) (int, bool) {
	lo := 0 // ok(lo) is false, or lo is 0
	if need > 1 && need < maxDisaggWorkers {
		lo = int(math.Ceil(need)) - 1
	}
	step, hi := 1, lo+1
	for !ok(hi) {
		if hi >= maxDisaggWorkers {
			return 0, false
		}
		lo, step = hi, 2*step
		hi = min(hi+step, maxDisaggWorkers)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// disaggPool is one side's sized pool: its worker shape, workers and
// instances (spares included), the spare workers among them, the figure
// its target bounds at the SLO statistic (the decode pool's TPOT, the
// prefill pool's TTFT; the pool's without its spares), and the key of
// what set its count (disaggBound).
type disaggPool struct {
	cs             copyShape
	n, inst, spare int
	at             float64
	bound          Reason
}

// withSpare is the pool with one spare instance (a worker spanning
// several instances: one spare worker) on instances of gpus GPUs, its
// workers filling it, for a spot reclaim; its bound says so and how many
// workers are spare (disagg.bound_spare). The latencies stay the sized
// pool's: the pool meets its target without the spare, so it still does
// on the spare after a reclaim takes one of its instances.
func (pl disaggPool) withSpare(gpus int) disaggPool {
	if pl.cs.instancesPer > 1 {
		pl.spare, pl.inst = 1, pl.inst+pl.cs.instancesPer
	} else {
		pl.spare, pl.inst = max(gpus/max(pl.cs.tp, 1), 1), pl.inst+1
	}
	pl.n += pl.spare
	pl.bound = Reason{Key: MsgDisaggBoundSpare, Args: []any{pl.bound, pl.spare}}
	return pl
}

// disaggBound is what set a side's worker count n, the smallest that
// meets both its capacity at the load cap and its latency target (the
// search's test, searchWorkers): one worker fewer (fewer, which returns
// that count's figure at the SLO statistic and whether its capacity
// holds the rate) fails on the capacity (disagg.bound_rate) or else on
// the target (key, where target is set); one worker is
// disagg.bound_one, nothing fewer to try.
func disaggBound(n int, target float64, key Msg, fewer func() (float64, bool)) Reason {
	if n <= 1 {
		return Reason{Key: MsgDisaggBoundOne}
	}
	at, ok := fewer()
	if ok && target > 0 && at > target {
		return Reason{Key: key}
	}
	return Reason{Key: MsgDisaggBoundRate}
}

// decodeSlotsBound is the bound of a decode pool the request rate sizes
// (disagg.bound_rate) at pt, its steady state on engine e: the requests
// one worker decodes at once and what caps them, its KV cache
// (disagg.bound_rate_kv) or the engine's running-sequence limit
// (disagg.bound_rate_seqs, with the flag that sets it).
func decodeSlotsBound(pt estimator.DisaggPoint, e estimator.Engine) Reason {
	slots := int(pt.DecodeSlots)
	switch pt.DecodeSlotsBound {
	case "kv":
		return Reason{Key: MsgDisaggBoundRateKV, Args: []any{slots}}
	case "batch":
		return Reason{Key: MsgDisaggBoundRateSeqs, Args: []any{slots, e.Settings().MaxSeqs}}
	}
	return Reason{Key: MsgDisaggBoundRate}
}

// disaggSizing is one hardware shape's disaggregated pools (disaggSize)
// and the model's figures at the target rate.
type disaggSizing struct {
	ok         bool
	pre, dec   disaggPool
	ttft, tpot float64 // the means
	xfer       float64
	// ttftAt, tpotAt: at the SLO statistic
	ttftAt, tpotAt float64
}
