package plan

import (
	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Disaggregated prefill and decode as an alternative to the aggregated
// serving plan: prefill workers and decode workers of one engine copy's
// shape each, on separate instances of one offer, the KV cache handed
// over between them (estimator.DisaggServing, its open loop at the
// target rate). This is how large models are served at scale (DistServe,
// Zhong et al., OSDI 2024; Splitwise, Patel et al., ISCA 2024; NVIDIA
// Dynamo's planner and SGLang's and vLLM's PD disaggregation size the two
// pools separately): the decode pool is sized on the TPOT target alone,
// the prefill pool on the TTFT target given the decode pool, and each
// pool on its own instances. The planner sizes it on the offers of the
// aggregated plan's rows and says whether it beats the cheapest of them.

// DisaggPlan is the cheapest disaggregated deployment the planner found.
type DisaggPlan struct {
	Offer  *Offer
	Engine estimator.Engine
	// TP is each worker's tensor-parallel GPUs (the aggregated row's copy
	// shape on the offer); Prefill and Decode the workers of each pool.
	TP, Prefill, Decode int
	// DP and EP are each worker's attention data- and expert-parallel
	// degrees: the aggregated row's (Row.AttnDP, Row.EP: the request's
	// --dp and --ep, or the layout the planner chose) where they divide
	// the worker's TP GPUs, else 1. Both sides take the aggregated
	// layout, so the comparison is of disaggregation alone.
	DP, EP int
	// Instances are the instances rented: each pool packs its workers
	// into whole instances of its own. InstancesPerWorker is how many
	// instances one worker spans: 1 where it fits one instance, more for
	// a wide expert-parallel worker (the aggregated row's copy over
	// Row.InstancesPerReplica instances, TP = DP = EP = its GPUs), as
	// every H100 row of InferenceX's disaggregated DeepSeek-R1 recipes
	// runs TP 16 / DP-attention 16 / EP 16 workers over two 8-GPU nodes
	// (SemiAnalysisAI/InferenceX benchmarks/multi_node/srt-slurm-recipes/
	// dsr1/sglang/h100-fp8, commit aa430b5b).
	Instances, InstancesPerWorker int
	// MemShare is the engine's memory share the workers run at where the
	// planner set one (the aggregated row's Row.MemShare: SGLang's
	// default leaves DP-attention workers no KV pool,
	// estimator.EngineShareFix); 0 where they run at the request's or the
	// engine's default. The launch writes it on both sides.
	MemShare float64
	GPUs     float64
	// TTFTSeconds and TPOTSeconds are the disaggregated model's mean time
	// to first token and time per output token at the target rate (an
	// estimate, docs/accuracy.md "Disaggregated serving");
	// KVTransferSeconds one request's handover.
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
	Why           Reason
}

// Base is the index in rows of the aggregated row d's workers take their
// settings from (the first fitting row of d's offer and TP without
// pipeline stages, as the launch reads it), or -1 where there is none
// or d is nil.
func (d *DisaggPlan) Base(rows []Row) int {
	if d == nil {
		return -1
	}
	for i := range rows {
		if r := &rows[i]; r.Offer == d.Offer && r.TP == d.TP && r.PP <= 1 && r.Fits {
			return i
		}
	}
	return -1
}

// maxDisaggWorkers bounds each pool's search.
const maxDisaggWorkers = 1024

// disaggShapes is how many hardware shapes (GPU, instance size, copy
// shape, network) the search sizes, the cheapest aggregated rows' first:
// the pools' cost follows the same hourly prices and the same step
// times, so an offer far down the aggregated ranking does not lead the
// disaggregated one, and each shape costs a few dozen open-loop
// evaluations.
const disaggShapes = 4

// disagg sizes the disaggregated alternative to res's serving plan: for
// the fitting rows' offers of the first disaggShapes shapes in rank order,
// the fewest decode workers
// meeting the TPOT target below the utilisation cap, then the fewest
// prefill workers meeting the TTFT target; the cheapest such deployment.
// nil when the request is not serving, nothing fits aggregated, or no row
// can be disaggregated (pipeline stages across instances, one token out);
// a wide expert-parallel copy over several instances is a worker over as
// many (workerSpan).
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
		gpu         string
		gpus, tp    int
		gbps        float64
		mem         gpuMem
		bw          float64
		dom, dp, ep int
	}
	sized := map[key]disaggSizing{}
	var best *DisaggPlan
	for i := range res.Rows {
		r := &res.Rows[i]
		o := r.Offer
		if !r.Fits || r.PassedOver.Key != "" || r.PP > 1 || r.TP < 1 || o == nil || o.GPUCount < 1 {
			continue
		}
		span := workerSpan(r)
		if span < 1 {
			continue
		}
		mem, hw := p.slice(o)
		// The workers run at the share the aggregated copy of the same
		// layout runs at (Row.MemShare, estimator.EngineShareFix).
		mem.share = r.MemShare
		k := key{o.GPU, int(o.GPUCount), r.TP, hw.NetworkBandwidth, mem, hw.MemBandwidth, hw.NVLinkDomain, r.AttnDP, r.EP}
		s, seen := sized[k]
		if !seen && len(sized) == disaggShapes {
			continue
		}
		if !seen {
			// Each new shape is a search of its own (disaggSize): a
			// caller's yield may give the thread away before it, as
			// between offers (Options.Yield).
			p.opts.yield()
			in := withGPUs(p.in, r.TP, r.TP, 1, 0)
			mem.set(&in)
			in.Batch, in.Engine, in.DP, in.EP = 1, r.Engine, r.AttnDP, r.EP
			s = p.disaggSize(in, hw, lam, capU)
			sized[k] = s
		}
		if !s.ok {
			continue
		}
		inst := (s.p + s.d) * span // wide workers: span instances each
		if span == 1 {
			per := int(o.GPUCount) / r.TP // workers per instance
			inst = (s.p+per-1)/per + (s.d+per-1)/per
		}
		usd := float64(inst) * r.PricePerHourUSD * HoursPerMonth
		if best != nil && usd >= best.MonthlyCostUSD {
			continue
		}
		best = &DisaggPlan{Offer: o, Engine: r.Engine, TP: r.TP, Prefill: s.p, Decode: s.d, DP: s.dp, EP: s.ep, Instances: inst, InstancesPerWorker: span, MemShare: r.MemShare,
			GPUs: float64((s.p + s.d) * r.TP), TTFTSeconds: s.ttft, TPOTSeconds: s.tpot, KVTransferSeconds: s.xfer,
			TTFTAtSLOSeconds: s.ttftAt, TPOTAtSLOSeconds: s.tpotAt, MonthlyCostUSD: usd}
	}
	if best == nil {
		return nil
	}
	best.MonthlyCostDisp = p.display(best.MonthlyCostUSD)
	agg := &res.Rows[res.Cheapest]
	best.AggregatedUSD = agg.MonthlyCostUSD
	best.Wins = best.MonthlyCostUSD < agg.MonthlyCostUSD
	ref := OfferRef{Provider: best.Offer.Provider, InstanceType: best.Offer.Name(), Instances: best.Instances}
	if best.Wins {
		best.Why = Reason{Key: "disagg.wins", Args: []any{ref, best.Prefill, best.Decode, WorkerLayout{best.TP, best.DP, best.EP},
			Money{Amount: p.display(best.MonthlyCostUSD), Currency: res.Currency, PerMonth: true},
			100 * (1 - best.MonthlyCostUSD/agg.MonthlyCostUSD)}}
	} else {
		best.Why = Reason{Key: "disagg.loses", Args: []any{ref, best.Prefill, best.Decode, WorkerLayout{best.TP, best.DP, best.EP},
			Money{Amount: p.display(best.MonthlyCostUSD), Currency: res.Currency, PerMonth: true},
			best.MonthlyCostUSD / agg.MonthlyCostUSD}}
	}
	return best
}

// disaggSize is the fewest decode workers of copy input in on hw whose
// TPOT at rate lam meets the target with each pool at most capU loaded,
// then the fewest prefill workers whose TTFT meets the TTFT target, both
// at the statistic the targets bound (Workload.SLOStat, as the
// aggregated rows are sized).
// Prefill workers batch as many prompts as the engine's token budget per
// forward holds (its scheduler's default, sim.DefaultPolicyOn: TensorRT-LLM
// one budget a rank; estimator.DisaggPrefillBatch), as rightsize estimate
// --disagg and the replays of measured disaggregated serving take it.
func (p *planner) disaggSize(in estimator.Input, hw estimator.Hardware, lam, capU float64) (s disaggSizing) {
	w := p.req.Workload
	dp, ep := workerLayout(in)
	side := estimator.DisaggSide{TP: in.TP, DP: dp, EP: ep}
	pre := side
	if pol, err := sim.DefaultPolicyOn(in.Engine, in.VRAM, hw); err == nil {
		pre.Batch = estimator.DisaggPrefillBatch(in, dp, pol.TokenBudget, int(p.prompt))
	}
	// One sizer for the search: the workers' serving model is built once,
	// not at every count tried.
	sz := estimator.NewDisaggSizer(in, hw, p.req.Assumptions.Efficiency, p.work)
	eval := func(np, nd int) (estimator.DisaggPoint, bool) {
		pre.Workers, side.Workers = np, nd
		pt, err := sz.At(estimator.Disagg{Prefill: pre, Decode: side, Rate: lam, RequestSeconds: in.RequestSeconds, Quantile: w.SLOStat.Quantile()})
		if err != nil {
			return pt, false
		}
		return pt, pt.PrefillUtilization <= capU && lam <= capU*pt.DecodeCapacity
	}
	// first is the smallest n in 1..maxDisaggWorkers with ok(n), for ok
	// monotone in n: doubling, then bisection.
	first := func(ok func(n int) bool) (int, bool) {
		hi := 1
		for !ok(hi) {
			if hi >= maxDisaggWorkers {
				return 0, false
			}
			hi = min(2*hi, maxDisaggWorkers)
		}
		lo := hi / 2 // ok(lo) is false, or lo is 0
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
	// The decode pool, with prefill workers enough never to bind.
	d, ok := first(func(n int) bool {
		pt, ok := eval(maxDisaggWorkers, n)
		return ok && (w.TPOTSeconds == 0 || pt.TPOTAtSeconds <= w.TPOTSeconds)
	})
	if !ok {
		return s
	}
	np, ok := first(func(n int) bool {
		pt, ok := eval(n, d)
		return ok && (w.TTFTP95Seconds == 0 || pt.TTFTAtSeconds <= w.TTFTP95Seconds)
	})
	if !ok {
		return s
	}
	pt, _ := eval(np, d)
	return disaggSizing{ok: true, p: np, d: d, dp: dp, ep: ep, ttft: pt.TTFTSeconds, tpot: pt.TPOTSeconds, xfer: pt.KVTransferSeconds,
		ttftAt: pt.TTFTAtSeconds, tpotAt: pt.TPOTAtSeconds}
}

// disaggSizing is one hardware shape's disaggregated pools (disaggSize):
// the prefill and decode workers, their attention-DP and EP degrees, and
// the model's figures at the target rate.
type disaggSizing struct {
	ok           bool
	p, d, dp, ep int
	ttft, tpot   float64 // the means
	xfer         float64
	// ttftAt, tpotAt: at the SLO statistic
	ttftAt, tpotAt float64
}

// workerSpan is how many instances one disaggregated worker of row r's
// copy shape spans: 1 where the copy fits one instance; for a wide
// expert-parallel copy (one copy over Row.InstancesPerReplica whole
// instances, attention DP and EP over all its GPUs: the planner's wideEP)
// that many; 0 for a copy that cannot be a worker (pipeline stages across
// instances, a TP that does not fill whole instances).
func workerSpan(r *Row) int {
	g := int(r.Offer.GPUCount)
	if r.TP <= g {
		return 1
	}
	n := max(r.InstancesPerReplica, 1)
	if r.PP > 1 || r.TP != n*g || r.AttnDP != r.TP || r.EP != r.TP {
		return 0
	}
	return n
}

// workerLayout is a disaggregated worker's attention-DP and EP degrees for
// copy input in: the request's where the worker's TP divides by them (the
// aggregated rows' layout), else 1 each.
func workerLayout(in estimator.Input) (dp, ep int) {
	tp, dp, ep := max(in.TP, 1), max(in.DP, 1), max(in.EP, 1)
	if tp%dp != 0 {
		dp = 1
	}
	if tp%ep != 0 {
		ep = 1
	}
	return dp, ep
}
