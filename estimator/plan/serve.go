package plan

import (
	"math"
	"slices"
	"strconv"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Serving model. A replica ("engine copy") runs continuous batching
// (Orca, Yu et al., OSDI 2022; vLLM): requests join the running batch as
// soon as the KV pool admits them (PagedAttention, Kwon et al., SOSP
// 2023), each decode step produces one token for every sequence in flight,
// and the prompts of newly admitted requests share the steps (chunked
// prefill: Agrawal et al., "Sarathi-Serve", OSDI 2024).
//
// Why a queueing model rather than a discrete-event simulation: the page
// re-plans on every keystroke over a thousand offers, so each offer gets a
// closed form evaluated a few dozen times. The pieces:
//   - the replica at c requests in flight is the speed model's
//     estimator.ServingPoint: mean TTFT(c) (own prefill, the prompts
//     admitted with it, the step in flight), TPOT(c) (the decode step plus
//     the prompt chunks sharing it) and the KV pool's limit; sampled at
//     c = 1, 8, 64, … and the pool's limit, interpolated linearly in c;
//   - Little's law fixes the concurrency at a rate: λ = c / (TTFT(c) +
//     out·TPOT(c)), the replica's completion rate X(c) at c in flight, so
//     c at λ solves X(c) = λ; a rate above X at the pool's limit is more
//     than the replica serves;
//   - bursts of arrivals queue before admission for the prefill budget
//     (one prompt at a time at the batched prefill rate, P_w seconds):
//     Erlang C (M/M/k) gives the wait's tail, P(W > t) = C(k, A)·
//     e^{−(kμ − λ)t} with μ = 1/P_w and A = λ·P_w (docs/planning.md), added to
//     the speed model's mean TTFT. The mean already holds the first-order
//     contention of the prompts admitted together, so the sum leans
//     conservative; exponential service overstates the wait of
//     near-constant prefills (M/D/k waits about half as long) and Poisson
//     arrivals understate bursts; the utilisation cap
//     (DefaultMaxUtilisation) keeps the headroom docs/planning.md asks for. One
//     replica's sustainable rate is found with k = 1; at the target rate
//     the replicas behind a least-loaded router share one queue
//     (k = replicas).
//
// serve_test.go checks it against the SGLang team's published vLLM v0.6.0
// request-rate runs (Llama 3.1 8B on one A100, 70B on four H100s).
type serveCurve struct {
	ok       bool
	kvMax    float64   // requests the KV pool holds at prompt + output tokens (ServePoint.MaxConcurrency)
	c        []float64 // sampled concurrencies, increasing from 1
	ttft     []float64 // mean TTFT at c, seconds
	tpot     []float64 // mean TPOT at c, seconds
	prefillW float64   // GPU-seconds per prompt when prefills are batched
	bound    estimator.Bound
	headroom estimator.Bytes
	mu       float64 // sustainable requests/s of one copy
	why      Reason  // why mu is 0
	fitOK    Reason
	sim      *simMemo // the engine simulator's runs of this shape (serve_sim.go)
}

// interp is the piecewise-linear value of ys at c (flat below the first
// sample, the last segment's slope beyond the last).
func (sc *serveCurve) interp(ys []float64, c float64) float64 {
	n := len(sc.c) - 1
	if c <= sc.c[0] || n == 0 {
		return ys[0]
	}
	i, _ := slices.BinarySearch(sc.c, c)
	if i > n {
		i = n
	}
	c0, c1 := sc.c[i-1], sc.c[i]
	return ys[i-1] + (c-c0)*(ys[i]-ys[i-1])/(c1-c0)
}

// x is the replica's completion rate at c requests in flight (Little's
// law), out output tokens each.
func (sc *serveCurve) x(c, out float64) float64 {
	return c / (sc.interp(sc.ttft, c) + out*sc.interp(sc.tpot, c))
}

// concurrency solves X(c) = per for c in (0, kvMax]; ok is false when
// the replica cannot complete per requests/s. Below one request in flight
// the replica is mostly idle: c = per × (TTFT(1) + out·TPOT(1)).
func (sc *serveCurve) concurrency(per, out float64) (float64, bool) {
	if x1 := sc.x(1, out); per <= x1 {
		return per / x1, true
	}
	// X grows with c (batching) but need not be monotone between
	// samples: take the first segment that reaches per. On it TTFT and
	// TPOT are linear, a + b·c, so X(c) = c / (A + B·c) with A = a_TTFT +
	// out·a_TPOT, B = b_TTFT + out·b_TPOT, and X(c) = per at
	// c = per·A / (1 − per·B); bisect where that form fails.
	lo := 1.0
	for i, hi := range sc.c[1:] {
		hi = math.Min(hi, sc.kvMax)
		if sc.x(hi, out) >= per {
			c0, c1 := sc.c[i], sc.c[i+1]
			bT := (sc.ttft[i+1] - sc.ttft[i]) / (c1 - c0)
			bP := (sc.tpot[i+1] - sc.tpot[i]) / (c1 - c0)
			A := sc.ttft[i] - bT*c0 + out*(sc.tpot[i]-bP*c0)
			B := bT + out*bP
			if d := 1 - per*B; A > 0 && d > 0 {
				if c := per * A / d; c >= lo*(1-1e-9) && c <= hi*(1+1e-9) {
					return math.Min(math.Max(c, lo), hi), true
				}
			}
			for range 50 {
				mid := (lo + hi) / 2
				if sc.x(mid, out) >= per {
					hi = mid
				} else {
					lo = mid
				}
				if hi-lo < 1e-3*hi {
					break
				}
			}
			return hi, true
		}
		lo = hi
		if hi >= sc.kvMax {
			break
		}
	}
	return 0, false
}

// load is one replica's state at λ req/s when k replicas share the
// prefill queue (each at λ/k): requests in flight c, the mean TPOT, the
// TTFT's median and p95, and (ttftS, tpotS) the TTFT and TPOT at the
// statistic the SLOs name (Workload.SLOStat), the figures its targets
// bound.
type load struct {
	c, tpot        float64
	ttft50, ttft95 float64
	ttftS, tpotS   float64
	ok             bool
}

// at evaluates k replicas at a total rate lam, the SLO figures at stat.
func (sc *serveCurve) at(lam float64, k int, out float64, stat SLOStat) load {
	kf := float64(k)
	per := lam / kf
	a := lam * sc.prefillW
	if !(a < kf) {
		return load{}
	}
	c, ok := sc.concurrency(per, out)
	if !ok {
		return load{}
	}
	// Erlang C with k servers of rate 1/P_w: an arrival waits with
	// probability C, and then for an exponential time of rate kμ − λ, so
	// P(W > t) = C·e^{−(kμ − λ)t} (the wait's q-quantile below) and
	// E[W] = C/(kμ − λ) (Cooper, §4.4; Kleinrock, "Queueing Systems"
	// vol. 1, §3.5).
	pw := erlangC(k, a)
	drain := (kf - a) / sc.prefillW // kμ − λ
	quant := func(q float64) float64 {
		if pw <= 1-q || !(drain > 0) {
			return 0
		}
		return math.Log(pw/(1-q)) / drain
	}
	cc := math.Max(c, 1)
	ttft := sc.interp(sc.ttft, cc)
	l := load{c: c, tpot: sc.interp(sc.tpot, cc), ttft50: ttft + quant(0.5), ttft95: ttft + quant(0.95), ok: true}
	if stat == SLOMean {
		l.ttftS, l.tpotS = ttft, l.tpot
		if drain > 0 {
			l.ttftS += pw / drain
		}
	} else {
		q := stat.Quantile()
		l.ttftS, l.tpotS = ttft+quant(q), sc.tpotQuantile(c, q)
	}
	return l
}

// simulated reports whether the engine simulator sizes this shape's plans
// (serve_sim.go), the closed form only ranking the shapes and guessing the
// count.
func (sc *serveCurve) simulated() bool { return sc.sim != nil && sc.sim.ok }

// tpotQuantile is the closed form's q-quantile of TPOT at c requests in
// flight on average. The speed model gives the mean TPOT at a
// concurrency, not its spread over requests; the spread comes from the
// number in flight, which varies as requests arrive and leave. Below the
// KV pool's limit a continuously batching replica serves every request in
// flight at once, an infinite-server queue, whose number in system under
// Poisson arrivals is Poisson with mean c (M/G/∞: Kleinrock, "Queueing
// Systems" vol. 1, §3.8), about c + z_q·√c at its q-quantile. The TPOT at
// that concurrency overstates the request's: a request's TPOT averages
// the step time over its whole decode, which smooths the count's swings.
// The median (and the mean) is the mean TPOT. What the closed form cannot
// give is the rest of the tail: preemptions and recomputation when the
// pool fills, prompts that stall a step, the engine's polling; the
// simulator (serve_sim.go) has them and sizes the plan where the engine
// runs in it.
//
// Where the simulator sizes the shape (simulated), the closed form is a
// screen that must not set aside a shape the simulator would size, and
// reads the mean TPOT for every statistic: a lower estimate of a tail
// percentile. Where it does not (engines without continuous batching),
// the closed form's figure is the plan's, and it reads the quantile.
func (sc *serveCurve) tpotQuantile(c, q float64) float64 {
	var z float64
	switch {
	case sc.simulated():
		return sc.interp(sc.tpot, math.Max(c, 1))
	case q >= 0.99:
		z = 2.3263 // standard normal quantiles
	case q >= 0.95:
		z = 1.6449
	case q >= 0.9:
		z = 1.2816
	default:
		return sc.interp(sc.tpot, math.Max(c, 1))
	}
	cq := math.Min(c+z*math.Sqrt(c), math.Max(sc.kvMax, c))
	return sc.interp(sc.tpot, math.Max(cq, 1))
}

// erlangC is the probability that an arrival waits in M/M/k at offered
// load a = λ/μ < k, by the Erlang B recursion B(j) = a·B(j−1)/(j + a·B(j−1))
// and C = k·B/(k − a·(1 − B)) (Cooper, "Introduction to Queueing Theory",
// 2nd ed., §4.4), which stays finite for large k.
func erlangC(k int, a float64) float64 {
	if !(a > 0) {
		return 0
	}
	if a >= float64(k) {
		return 1
	}
	b := 1.0
	for j := 1; j <= k; j++ {
		b = a * b / (float64(j) + a*b)
	}
	return float64(k) * b / (float64(k) - a*(1-b))
}

// rawRate is one replica's throughput with the KV pool full.
func (sc *serveCurve) rawRate(out float64) float64 {
	return sc.x(math.Max(sc.kvMax, 1), out)
}

// sustainable is the highest rate one replica serves within the SLOs and
// the utilisation cap, and the reason when it serves none.
func (p *planner) sustainable(sc *serveCurve) (float64, Reason) {
	w := p.req.Workload
	out := p.output
	// The targets bound the statistic they name (Workload.SLOStat), as in
	// the simulator's sizing (meetsSLO).
	meets := func(l load) bool {
		// A one-token answer has no TPOT (build): a TPOT target does not
		// bind it, as in the simulator.
		return l.ok && (w.TPOTSeconds == 0 || out <= 1 || l.tpotS <= w.TPOTSeconds) && (w.TTFTP95Seconds == 0 || l.ttftS <= w.TTFTP95Seconds)
	}
	cap := w.MaxUtilisation
	if cap == 0 {
		cap = DefaultMaxUtilisation
	}
	hi := sc.rawRate(out) * cap
	tiny := hi * 1e-6
	if sc.kvMax < 1 {
		return 0, Reason{Key: MsgSLOKVPool}
	}
	if l := sc.at(tiny, 1, out, w.SLOStat); !meets(l) {
		switch {
		case w.TTFTP95Seconds > 0 && l.ttftS > w.TTFTP95Seconds:
			return 0, Reason{Key: MsgSLOTTFTPrefill, Args: []any{sc.ttft[0]}}
		default:
			return 0, tpotReason(sc.bound, sc.tpot[0])
		}
	}
	if meets(sc.at(hi, 1, out, w.SLOStat)) {
		return hi, Reason{}
	}
	lo := tiny
	for range 40 {
		mid := (lo + hi) / 2
		if meets(sc.at(mid, 1, out, w.SLOStat)) {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-3*hi {
			break
		}
	}
	return lo, Reason{}
}

// tpotReason is why a TPOT target below tpot, one sequence's decode step
// on an idle replica, is met at no rate: what bounds that step.
func tpotReason(bound estimator.Bound, tpot float64) Reason {
	switch bound {
	case estimator.BoundBandwidth:
		return Reason{Key: MsgSLOTPOTBandwidth, Args: []any{tpot}}
	case estimator.BoundHost:
		return Reason{Key: MsgSLOTPOTHost, Args: []any{tpot}}
	case estimator.BoundCommunication:
		return Reason{Key: MsgSLOTPOTCommunication, Args: []any{tpot}}
	}
	return Reason{Key: MsgSLOTPOTCompute, Args: []any{tpot}}
}

// copyShape is one engine copy: TP × PP GPUs, how many fit in an instance
// (perInstance ≥ 1), or how many instances one spans; dp and ep are its
// attention data-parallel and expert-parallel degrees inside the TP group
// (estimator.Input.DP and EP; 0 or 1: none).
type copyShape struct {
	mem                       gpuMem
	gpus, tp, pp              int
	perInstance, instancesPer int
	dp, ep                    int
	// redundant is the copy's extra expert copies over its EP ranks
	// (estimator.Input.RedundantExperts: the request's, or the fewest
	// that let a rack-wide EP split the experts evenly, rackRedundant).
	// A function of ep within one plan, so the memo keys' EP stands
	// for it.
	redundant int
}

// input is the estimator input of one copy.
func (p *planner) input(cs copyShape) estimator.Input {
	in := withGPUs(p.in, cs.gpus, cs.tp, cs.pp, 0)
	cs.mem.set(&in)
	in.Batch, in.DP, in.EP, in.RedundantExperts = 1, cs.dp, cs.ep, cs.redundant
	return in
}

func shapeOf(in estimator.Input, perInstance, instancesPer int) copyShape {
	return copyShape{memOf(in), in.GPUs, in.TP, in.PP, perInstance, instancesPer, in.DP, in.EP, in.RedundantExperts}
}

// inferShapes lists the engine-copy shapes to try on o: the smallest TP
// that fits one instance, then each larger TP up to the instance or NVLink
// domain (after each TP of a mixture-of-experts model, its expert-parallel
// layouts: moeLayouts); a model too large for one instance spans the
// fewest instances, TP inside each and pipeline stages across them, where
// its instances are nodes a serving copy spans (serveInstLimit).
func (p *planner) inferShapes(o *Offer) []copyShape {
	mem, _ := p.slice(o)
	in := p.in
	mem.set(&in)
	in.Batch, in.ZeRO = 1, 0
	if p.req.FixedParallelism {
		return p.layoutShape(o, in)
	}
	if w := max(in.DP, in.EP); w > max(int(o.GPUCount), 1) {
		// The request names an attention-DP or EP group wider than one
		// instance (the page's job after a planner row of wide EP over a
		// rack's trays is applied: TP = DP = EP = 32 on GB200): copies of
		// that TP group spanning instances, as a fixed layout spans them;
		// the per-instance TPs below cannot hold the group.
		c := withGPUs(in, w, w, 1, 0)
		if !startable(c) {
			return nil
		}
		return p.layoutShape(o, c)
	}
	if o.GPUCount < 1 {
		c := withGPUs(in, 1, 1, 1, 0)
		if p.estimate(c).Fits {
			return []copyShape{shapeOf(c, 1, 1)}
		}
		return nil
	}
	gpus := int(o.GPUCount)
	top := maxTP(o, gpus)
	out := p.shapeBuf[:0]
	defer func() { p.shapeBuf = out[:0] }()
	for tp := 1; tp <= top; tp *= 2 {
		c := withGPUs(in, tp, tp, 1, 0)
		// A layout the request names (its attention DP and EP) is laid
		// out only where the engine runs it as priced, as the planner's
		// own (moeLayouts): SGLang's DP 8 · EP 8 applied from a B200 row
		// came back as the cheapest pick on MI300X, where DeepEP does not
		// run and the launch refuses it.
		if !startable(c) || estimator.LayoutRefusal(c, o.Hardware) != "" {
			continue
		}
		// Each TP's fit and mixture-of-experts layouts are a slice of
		// work of their own (Options.Yield).
		p.opts.yield()
		if len(out) > 0 || p.estimate(c).Fits {
			out = append(out, shapeOf(c, gpus/tp, 1))
			out = p.moeLayouts(out, c, gpus/tp, o.Hardware)
		}
	}
	if len(out) > 0 {
		return p.rackEP(out, o, in, gpus)
	}
	tp := top
	// Pipeline stages across instances: no more stages than layers.
	limit := min(p.serveInstLimit(o), max(in.Arch.Layers*tp/gpus, 1))
	s, ok := searchInstances(limit, 0, func(n int) (copyShape, bool) {
		if n == 1 {
			return copyShape{}, false
		}
		c := withGPUs(in, n*gpus, tp, n*gpus/tp, 0)
		if !startable(c) || estimator.LayoutRefusal(c, o.Hardware) != "" {
			return copyShape{}, false
		}
		p.opts.yield() // each count tried: a slice of its own (Options.Yield)
		return shapeOf(c, 1, n), p.estimate(c).Fits
	})
	if ok {
		out = append(out, s)
	}
	return p.rackEP(p.wideEP(out, o, in, gpus), o, in, gpus)
}

// rackEP appends to out the wider expert-parallel copies of a
// mixture-of-experts model over several instances of one NVLink domain
// (rackInstances: the trays of a GB200 NVL72 rack), past the widest
// (wideEP) already in out: attention DP and the experts spread over every
// GPU (TP = DP = EP), as the engines serve DeepSeek-class models on the
// rack (SGLang's decode over 12 trays, LMSYS, "Deploying DeepSeek on
// GB200 NVL72 with PD and Large Scale EP (Part I)", 2025-06-16;
// InferenceX's GB200 rows, decode attention-DP and EP 16 to 48). wideEP
// keeps the fewest instances where the all-to-all crosses the network;
// inside one NVLink domain it does not, and a wider copy holds more KV
// per GPU (each GPU keeps fewer experts), so each width is a layout of
// its own for the search to price, even for a model one instance holds.
// The widths are rackSpans; where one does not divide the model's
// experts, the copy carries the fewest redundant experts that make it
// (rackRedundant: DeepSeek-R1's 256 experts over 48 GPUs with 32).
func (p *planner) rackEP(out []copyShape, o *Offer, in estimator.Input, gpus int) []copyShape {
	limit := min(rackInstances(o), p.serveInstLimit(o))
	if limit < 2 || !p.choosesLayout(in) {
		return out
	}
	widest := 1
	for _, cs := range out {
		if cs.instancesPer > 1 && cs.tp == cs.gpus && cs.dp == cs.tp && cs.ep == cs.tp {
			widest = max(widest, cs.instancesPer)
		}
	}
	for _, n := range rackSpans {
		if n > limit {
			break
		}
		if n <= widest {
			continue
		}
		c, ok := spreadCopy(in, o.Hardware, n, gpus, true)
		if !ok {
			continue
		}
		p.opts.yield() // each span tried: a slice of its own (Options.Yield)
		if c, ok := p.layoutFits(c); ok {
			out = append(out, shapeOf(c, 1, n))
		}
	}
	return out
}

// spreadCopy is in as one copy over n instances of gpus GPUs each, with
// attention data parallelism and the routed experts on every GPU (TP = DP
// = EP = n·gpus), as SGLang and TensorRT-LLM spread wide EP, and whether
// it starts and o's hardware hw runs it (startable,
// estimator.LayoutRefusal): the copies wideEP and rackEP try and the
// disaggregated decode workers over several instances (disaggLayouts).
// rack: the copy carries the redundant experts a rack-wide EP needs to
// split the experts evenly (rackRedundant).
func spreadCopy(in estimator.Input, hw estimator.Hardware, n, gpus int, rack bool) (estimator.Input, bool) {
	c := withGPUs(in, n*gpus, n*gpus, 1, 0)
	c.DP, c.EP = c.TP, c.TP
	if rack {
		c.RedundantExperts = rackRedundant(c)
	}
	return c, startable(c) && estimator.LayoutRefusal(c, hw) == ""
}

// rackSpans are the instances a rack-wide expert-parallel copy spans
// (rackEP): the powers of two and the steps of 1.5 between them. The
// measured GB200 NVL72 deployments run their decode workers over 6, 8 and
// 12 trays (InferenceX's disaggregated DeepSeek-R1 rows on GB200 with
// SGLang: decode workers of 24, 32 and 48 GPUs; NVIDIA Dynamo's GB200
// SGLang recipe and LMSYS's GB200 NVL72 post: 12 trays), which powers of
// two alone (8, 16, 32, 64 GPUs) miss. Seven widths bound the search's
// cost: each is a serving curve of its own.
var rackSpans = [...]int{2, 3, 4, 6, 8, 12, 16}

// rackRedundant is the redundant experts a rack-wide copy c carries: the
// request's where they split the experts evenly over c's EP ranks
// (estimator.ExpertSplit), else the fewest that do, R = EP − E mod EP,
// where c's engine places redundant experts (SGLang
// --ep-num-redundant-experts, vLLM --enable-eplb --eplb-config num_redundant_experts,
// TensorRT-LLM's MoE load balancer num_slots; estimator.Input.Validate is
// the judge). DeepSeek-R1's 256 experts take 32 over EP 48, the
// --ep-num-redundant-experts 32 of NVIDIA Dynamo's GB200 SGLang
// DeepSeek-R1 recipe (components/backends/sglang/slurm_jobs/scripts/
// gb200-fp8.sh), and 8 over EP 24, as the calibration replays those
// workers (testdata/calibration/inferencex/README.md, "Redundant
// experts"). Whether c runs is startable's to say.
func rackRedundant(c estimator.Input) int {
	e, ep := c.Arch.Experts, c.EP
	if ep <= 1 || e <= 0 || estimator.ExpertSplit(c.Arch, ep, c.RedundantExperts) == "" {
		return c.RedundantExperts
	}
	return (ep - e%ep) % ep
}

// maxWideEPInstances bounds the instances one wide expert-parallel copy
// spans (wideEP): LMSYS's DeepSeek-V3 deployment runs its decode workers
// over 9 nodes of 8 H100s and prefill over 3 (LMSYS, "Deploying DeepSeek
// with PD Disaggregation and Large-scale Expert Parallelism on 96 H100
// GPUs", 2025-05), TensorRT-LLM's wide-EP examples EP 32 to 72.
const maxWideEPInstances = 16

// wideEP appends to out the wide expert-parallel copy of a
// mixture-of-experts model that no instance of o holds alone: attention
// data parallelism on every GPU and the routed experts spread whole over
// all of them (TP = DP = EP = the copy's GPUs), over the fewest instances
// that hold it (over nodes and a network it spans: wideInstLimit), as
// SGLang runs DeepSeek over several nodes (--tp 16 --dp 16
// --enable-dp-attention --ep 16 --nnodes 2; SGLang docs, DeepSeek usage,
// multi-node) and TensorRT-LLM's wide EP (its docs, "Wide Expert
// Parallelism"). Only the experts' all-to-all crosses the instances (the
// estimator prices it over the NIC: epAllToAllSecondsPerByte), where the
// pipeline copy beside it passes activations stage to stage. A model that
// fits one instance gets none: the planner's single-instance layouts
// (moeLayouts) serve it on fewer instances, each instance's all-to-all
// staying on NVLink.
func (p *planner) wideEP(out []copyShape, o *Offer, in estimator.Input, gpus int) []copyShape {
	limit := p.wideInstLimit(o)
	if limit < 2 || !p.choosesLayout(in) {
		return out
	}
	for n := 2; n <= limit; n++ {
		// EP must divide the experts (Input.Validate): 256 experts take
		// 16 or 32 GPUs, not 24.
		c, ok := spreadCopy(in, o.Hardware, n, gpus, false)
		if !ok {
			continue
		}
		p.opts.yield() // each span tried: a slice of its own (Options.Yield)
		if c, ok := p.layoutFits(c); ok {
			return append(out, shapeOf(c, 1, n))
		}
	}
	return out
}

// setLayout sets r's attention-DP and EP layout from copy cs on o, and the
// memory share the planner set on it (Row.MemShare) with its note. A
// mixture-of-experts copy in pipeline stages over instances whose network
// carries no wide expert-parallel copy (wideNetwork) says so.
func (p *planner) setLayout(r *Row, o *Offer, cs copyShape) {
	r.AttnDP, r.EP, r.MemShare, r.RedundantExperts = cs.dp, cs.ep, 0, cs.redundant
	if s := cs.mem.share; s > 0 && s != p.in.GPUMemUtil {
		r.MemShare = s
		r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteMemShare, Args: []any{cs.dp, s}})
	}
	if cs.redundant > 0 && cs.redundant != p.in.RedundantExperts {
		// The planner's redundant experts: the split said, and the flag.
		r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteRedundantExperts, Args: []any{cs.ep, p.in.Arch.Experts, cs.redundant, (p.in.Arch.Experts + cs.redundant) / max(cs.ep, 1)}})
	}
	if n := rackInstances(o); cs.instancesPer > 1 && cs.instancesPer <= n {
		// A copy over a rack's trays: the layout said in the rack's words.
		r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteNVLinkRack, Args: []any{cs.instancesPer, n, o.RackGPUs}})
	}
	if cs.pp > 1 && cs.instancesPer > rackInstances(o) && p.choosesLayout(p.in) && !p.wideNetwork(o) {
		r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteWideEPNetwork, Args: []any{float64(minWideEPGbpsPerGPU)}})
	}
}

// layoutFits reports whether the attention-DP and EP copy c fits one
// sequence, with the engine's memory share it fits at: its own, or, where
// the engine's default share is what leaves no KV pool, the share the
// engine's published recipes set for that layout (estimator.EngineShareFor:
// SGLang's default --mem-fraction-static reserves CUDA-graph memory for
// every attention rank, 36 GiB of an 80 GB H100 at DP 16, where
// InferenceX's H100 DeepSeek-R1 recipes run DP-attention 16 at 0.85 to
// 0.9). The row notes the share (note.mem_share) and the launch writes it.
func (p *planner) layoutFits(c estimator.Input) (estimator.Input, bool) {
	if p.estimate(c).Fits {
		return c, true
	}
	// Only the attention-DP share: a row carries the share, not the
	// smaller chunk the TP-4 recipes set with theirs
	// (estimator.EngineShareFor).
	if c.DP <= 1 {
		return c, false
	}
	if f, ok := estimator.EngineShareFor(c); ok {
		c = f.Apply(c) // the share with its recipes' CUDA-graph cap, as PlannedShareFix gives the row's share
		return c, p.estimate(c).Fits
	}
	return c, false
}

// layoutShape is the copy shape of the layout in names (a fixed layout,
// or an attention-DP or EP group wider than one instance): in's GPUs on
// one of o's instances (as many copies an instance as fit), or over the
// fewest instances that hold them where those reach each other as a
// serving copy needs (serveInstLimit: NVLink nodes on a stated network;
// experts spread past one instance over a network that carries their
// all-to-all, wideNetwork, else a rack's NVLink between its trays), at the
// engine's published share where its default leaves no KV pool
// (layoutFits, as the planner's own layouts: SGLang DeepSeek-R1 at --tp 16
// --dp 16 --ep 16 on two H100 instances read "needs more than 64
// instances"); none where the engine does not run it on o's GPUs as
// priced (estimator.LayoutRefusal: servingTech's fit.layout_refused), it
// does not fit, or it does not span (the fit reason says why: tooBig).
func (p *planner) layoutShape(o *Offer, in estimator.Input) []copyShape {
	gpus := max(int(o.GPUCount), 1)
	if estimator.LayoutRefusal(in, o.Hardware) != "" {
		return nil
	}
	in, ok := p.layoutFits(in)
	if !ok {
		return nil
	}
	if in.GPUs <= gpus {
		return []copyShape{shapeOf(in, max(gpus/(in.GPUs), 1), 1)}
	}
	n, limit := (in.GPUs+gpus-1)/gpus, p.serveInstLimit(o)
	if in.EP > gpus && !p.wideNetwork(o) {
		limit = min(limit, rackInstances(o)) // NVLink between a rack's trays
	}
	if n > limit {
		return nil
	}
	return []copyShape{shapeOf(in, 1, n)}
}

// choosesLayout reports whether the planner chooses the attention-DP and
// EP layout of copies of in: a mixture-of-experts model on an engine that
// runs expert parallelism, the request naming neither --dp nor --ep nor a
// fixed parallelism.
func (p *planner) choosesLayout(in estimator.Input) bool {
	return in.Arch.IsMoE() && in.Engine.Pooled() && p.in.DP <= 1 && p.in.EP <= 1 && !p.req.FixedParallelism
}

// moeLayouts appends to out the expert-parallel layouts of copy c (TP ≥ 2
// GPUs, perInstance copies an instance) where the planner chooses the
// layout: a mixture-of-experts model on a serving engine that runs expert
// parallelism (vLLM, SGLang, TensorRT-LLM; estimator.Input.Validate is the
// judge), the request naming neither --dp nor --ep. Two layouts, each with
// the routed experts spread whole over the TP group (EP = TP):
//   - attention data parallelism over the whole group (DP = EP = TP), what
//     the engines run for DeepSeek-V3/R1-class models at throughput: SGLang
//     --tp 8 --dp 8 --enable-dp-attention --ep 8 (SGLang docs, DeepSeek
//     usage; LMSYS, "Deploying DeepSeek with PD Disaggregation and
//     Large-scale Expert Parallelism", 2025-05), TensorRT-LLM
//     enable_attention_dp with moe_expert_parallel_size 8 (its DeepSeek-R1
//     throughput recipe), vLLM --data-parallel-size 8
//     --enable-expert-parallel (vLLM docs, "Data Parallel Deployment" and
//     "Expert Parallel Deployment"): each GPU runs attention for its own
//     requests and holds its own KV cache, which MLA's latent cache would
//     otherwise repeat on every GPU of the group;
//   - tensor-parallel attention with expert parallelism (DP 1, EP = TP),
//     the engines' latency layout (SGLang --tp 8 --ep 8, the InferenceX
//     recipes; TensorRT-LLM moe_expert_parallel_size without attention DP).
//
// Attention DP below the group (1 < DP < TP) is left out: the engines'
// DeepSeek recipes above run DP = TP (TensorRT-LLM's attention DP is one
// rank per GPU), and in the estimator's model it sits between the two:
// DeepSeek-R1 FP8 on 8 × H200 (1,024 tokens in and out) sustains 5.2,
// 5.9, 8.7 and 11.3 req/s a copy at EP 8 with DP 1, 2, 4 and 8
// (Qwen3-235B-A22B 13.3, 11.7, 17.4, 22.0; Mixtral 8x7B 44.9, 45.3, 50.7,
// 57.0). Dense models and requests that fix a layout get no extra shape;
// nor does SGLang's attention DP on GPUs DeepEP's all-to-all, which SGLang
// runs it with, does not run on (estimator.DeepEPRefusal: the launch's
// refusal).
func (p *planner) moeLayouts(out []copyShape, c estimator.Input, perInstance int, hw estimator.Hardware) []copyShape {
	if c.TP < 2 || !p.choosesLayout(c) {
		return out
	}
	for _, dp := range [...]int{c.TP, 1} {
		x := c
		x.DP, x.EP = dp, c.TP
		if !startable(x) || estimator.LayoutRefusal(x, hw) != "" {
			continue
		}
		if x, ok := p.layoutFits(x); ok {
			out = append(out, shapeOf(x, perInstance, 1))
		}
	}
	return out
}

// curve builds (or recalls) the serving curve of one copy shape from
// estimator.ServingPoint at c = 1, 8, 64, … and the KV pool's limit.
func (p *planner) curve(cs copyShape, hw estimator.Hardware) serveCurve {
	in := p.input(cs)
	if in.TP == 1 {
		hw.LinkBandwidth = 0 // no tensor-parallel traffic: the link does not matter
	}
	// Tensor parallelism stays inside the NVLink domain and the
	// estimator's inference model sends nothing else across instances
	// (pipeline stages pass activations of a few kB per token): only a
	// wide expert-parallel copy's all-to-all crosses the network (wideEP),
	// and only its curve reads it.
	if in.EP <= hw.NVLinkDomain {
		hw.NetworkBandwidth = 0
	}
	// Nor does it read the host link (offload traffic is a training cost)
	// or the domain beyond the TP group: offers that differ only there
	// share the curve.
	hw.HostLinkBandwidth = 0
	// Nor the host CPU's class, which prices eager PyTorch ops: a
	// serving engine under CUDA graphs pays a fixed host cost per step
	// whatever the CPU (estimator stepFloor; TestPooledStepIgnoresHost
	// holds it), so offers that differ only in their CPU share the curve.
	if in.Engine.Pooled() && !in.EnforceEager {
		hw.HostClass, hw.HostOpSeconds = 0, 0
	}
	if in.TP <= hw.NVLinkDomain {
		hw.NVLinkDomain = in.TP
	}
	k, memo := mkPerfKey(hw, memOf(in), in.GPUs, in.TP, in.PP, 0, 0, 0, in.DP, in.EP)
	if sc, ok := p.serves[k]; ok && memo {
		return *sc
	}
	sc := serveCurve{}
	eff := p.req.Assumptions.Efficiency
	// One serving model per shape: its points are ServingPoint's without
	// repeating the setup every concurrency shares. A serving plan's
	// simulation of the shape holds the same model (simConfig), and the
	// curve reads its points from it.
	var simCfg sim.Config
	simOK := false
	if p.req.Workload.Kind == Serving {
		simCfg, simOK = p.simConfig(in, hw)
	}
	var sm *estimator.ServingModel
	if simOK {
		sm = simCfg.Model
	} else {
		m := estimator.NewServingModel(in, hw, eff, p.work)
		sm = &m
	}
	pf, err := sm.Perf(1)
	res := p.estimate(in)
	sc.headroom = res.Headroom
	sc.fitOK = Reason{Key: MsgFitOK, Args: []any{sc.headroom.GiB()}}
	if err != nil || sm.MaxConcurrency() < 1 {
		p.keepCurve(k, memo, sc)
		return sc
	}
	sc.kvMax = float64(sm.MaxConcurrency())
	sc.bound = pf.Bound
	// The batched prefill rate is read at min(8, the pool's limit)
	// prompts: prompts of a few requests prefilled together, past the
	// weight reads of a lone prompt.
	batch := int(math.Min(8, sc.kvMax))
	var batchPerf estimator.Perf
	haveBatch := false
	// Samples at 1, 8, 64, … and the pool's limit; one within 2× of the
	// limit is dropped (the limit's own sample covers it).
	n := 2
	for c := 8.0; 2*c <= sc.kvMax; c *= 8 {
		n++
	}
	buf := make([]float64, 3*n)
	sc.c, sc.ttft, sc.tpot = buf[:0:n], buf[n:n:2*n], buf[2*n:2*n:3*n]
	for c := 1.0; ; c *= 8 {
		if 2*c > sc.kvMax {
			c = sc.kvMax
		}
		if c > 1 {
			pf, err = sm.Perf(int(c))
			if err != nil {
				break
			}
		}
		if int(c) == batch {
			batchPerf, haveBatch = pf, true
		}
		sc.c = append(sc.c, c)
		sc.ttft = append(sc.ttft, pf.TimeToFirstToken)
		sc.tpot = append(sc.tpot, pf.DecodeTokenLatency)
		if c >= sc.kvMax {
			break
		}
	}
	x := in
	x.Batch = batch
	// The model's Perf is Throughput of its own input (GPUs = TP × PP,
	// Seq = prompt + output); the planner's copy input matches it
	// unless the request fixed more GPUs or a sequence of its own.
	if mi := sm.Input(); mi.GPUs != x.GPUs || mi.Seq != x.Seq {
		haveBatch = false
		batchPerf, err = estimator.Throughput(x, hw, eff, p.work)
	} else if !haveBatch {
		batchPerf, err = sm.Perf(batch)
	} else {
		err = nil
	}
	if err == nil && batchPerf.PrefillTokensPerSecond > 0 {
		sc.prefillW = p.prompt / batchPerf.PrefillTokensPerSecond
	}
	sc.ok = len(sc.c) > 0 && sc.prefillW > 0 && sc.ttft[0] > 0
	if sc.ok && p.req.Workload.Kind == Serving {
		sc.sim = p.newSimMemo(simCfg, simOK)
		sc.mu, sc.why = p.sustainable(&sc)
		// The simulator adds the engine's fixed cost per request and
		// chunks the prompt: where its idle replica already misses the
		// SLOs, no count of this shape meets them (serve_sim.go, idle).
		if sc.mu > 0 {
			if why, miss := p.floor(&sc); miss {
				sc.mu, sc.why = 0, why
			}
		}
	}
	p.keepCurve(k, memo, sc)
	return sc
}

// keepCurve memoises sc under k when memoise is set (map values stay
// small; the curves are carved from a slab).
func (p *planner) keepCurve(k perfKey, memoise bool, sc serveCurve) {
	if !memoise {
		return
	}
	if len(p.curveSlab) == 0 {
		p.curveSlab = make([]serveCurve, 32)
	}
	c := &p.curveSlab[0]
	p.curveSlab = p.curveSlab[1:]
	*c = sc
	memo(&p.serves, 224)[k] = c
}

// servingTech sizes a deployment on o for the target rate and SLOs: per
// copy shape, the sustainable rate per replica, the replicas needed and
// the latencies at the target; the shape renting the fewest instances
// wins (ties: lower p95 latency), which is the cheapest at any price.
// The instances rented are those paid for (Offer.Rented): on an offer
// rented by the rack every shape inside one rack costs the rack, and the
// one using the fewest of its trays wins (then the faster), so the rest
// can carry more copies of it (rentalNote) rather than one copy widened
// over the rack with no second to fail over to.
func (p *planner) servingTech(o *Offer, r *Row) {
	shapes := p.inferShapes(o)
	if len(shapes) == 0 {
		r.FitReason = p.tooBig(o)
		if p.req.FixedParallelism && estimator.LayoutRefusal(p.in, o.Hardware) != "" {
			// The layout given does not run on these GPUs as priced
			// (estimator.LayoutRefusal, the launch's refusal).
			r.FitReason = Reason{Key: MsgFitLayoutRefused, Args: []any{p.in.Engine.String(), max(p.in.DP, 1), max(p.in.EP, 1), o.Hardware.Generation.String()}}
		}
		return
	}
	_, hw := p.slice(o)
	lam := p.req.Workload.RequestsPerSecond
	var best Row
	var bestShape copyShape
	var bestCurve serveCurve
	var why Reason
	// past is the fewest instances a shape refused for the instance
	// limit needs to carry the rate (Row.pastLimit), 0 while none is.
	past := 0
	// build is the row of copies of shape cs (closed-form latencies, or
	// the simulated run s of the replicas deployed).
	build := func(cs copyShape, sc *serveCurve, copies int, sim func(k int) (simServe, bool)) (Row, bool) {
		units := (copies + cs.perInstance - 1) / cs.perInstance
		if r.Pricing == Spot {
			units++ // a spare replica absorbs a reclaim (docs/planning.md)
		}
		if n := units * cs.instancesPer; n > p.maxInst {
			if why.Key == NoMsg {
				why = Reason{Key: MsgFitTooBig, Args: []any{p.maxInst}}
			}
			if sim == nil && (past == 0 || n < past) {
				past = n
			}
			return Row{}, false
		}
		// The copies that carry the rate and hold the SLOs: on spot,
		// those left after a reclaim takes the spare (holdingReplicas),
		// as a disaggregated plan quotes its pools without their spares
		// (disagg.go withSpare). Quoted over every copy, spare included,
		// a spot row read faster and less loaded than it runs the hour
		// after a reclaim.
		k := holdingReplicas(units, r.Pricing) * cs.perInstance
		var l load
		if sim != nil {
			// Quote the simulated run of the k replicas holding the SLOs.
			if s, ok := sim(k); ok {
				// Requests in flight per replica, client-side (Little's
				// law over the mean end-to-end latency).
				c := lam / float64(k) * s.res.E2E.Mean
				st := p.req.Workload.SLOStat
				l = load{c: c, tpot: s.res.TPOT.Mean, ttft50: s.res.TTFT.P50, ttft95: s.res.TTFT.P95,
					ttftS: st.Of(s.res.TTFT), tpotS: st.Of(s.res.TPOT), ok: true}
			}
		}
		if !l.ok {
			l = sc.at(lam, k, p.output, p.req.Workload.SLOStat) // the closed form's
		}
		c := *r
		c.Fits, c.FitReason = true, sc.fitOK
		c.HeadroomGiB = sc.headroom.GiB()
		c.Replicas, c.InstancesPerReplica = units, cs.instancesPer
		c.Instances = units * cs.instancesPer
		c.GPUs = float64(c.Instances) * o.GPUCount
		c.TP, c.PP, c.DP, c.ZeRO = cs.tp, cs.pp, cs.perInstance, 0
		p.setLayout(&c, o, cs)
		c.SustainableRPSPerReplica = sc.mu * float64(cs.perInstance)
		c.Concurrency = l.c
		c.TPOTSeconds = l.tpot
		c.TTFTP50Seconds, c.TTFTP95Seconds = l.ttft50, l.ttft95
		c.TTFTAtSLOSeconds, c.TPOTAtSLOSeconds = l.ttftS, l.tpotS
		tail := math.Max(p.output-1, 0) * l.tpot
		c.E2EP50Seconds, c.E2EP95Seconds = l.ttft50+tail, l.ttft95+tail
		c.Utilisation = lam / float64(k) / sc.rawRate(p.output)
		c.TokensPerSecond = lam * p.output
		// Prefill's share of the busy replica's time: P_w of every
		// 1/X(c) seconds per completed request.
		c.prefillShare = math.Min(1, sc.prefillW*sc.x(math.Max(l.c, 1), p.output))
		if p.output <= 1 {
			// A one-token answer (a label, a score, a yes/no) is sampled
			// from the logits of its prompt's last prefill step: no decode
			// step follows, so it has no time per output token (TPOT is
			// (E2E − TTFT)/(output − 1), undefined; vLLM's and SGLang's
			// benchmark clients leave such requests out of TPOT, as the
			// simulator does), and its GPU time is the prompt's, priced
			// per input token: the output token costs nothing beyond it.
			c.TPOTSeconds, c.TPOTAtSLOSeconds, c.prefillShare = 0, 0, 1
		}
		c.time = c.E2EP95Seconds
		return c, true
	}
	for _, cs := range shapes {
		// Each shape's curve is a slice of work of its own (Options.Yield).
		p.opts.yield()
		sc := p.curve(cs, hw)
		if !sc.ok {
			continue
		}
		mu, reason := sc.mu, sc.why
		if !(mu > 0) {
			if closerMiss(reason, why) {
				why = reason
			}
			continue
		}
		c, ok := build(cs, &sc, int(math.Ceil(lam/mu-1e-9)), nil)
		if ok && (!best.Fits || fewerInstances(o, &c, &best) || (c.Instances == best.Instances && c.time < best.time)) {
			best, bestShape, bestCurve = c, cs, sc
		}
	}
	if !best.Fits {
		if why.Key == NoMsg {
			why = Reason{Key: MsgSLOKVPool}
		}
		r.FitReason = why
		if why.Key == MsgFitTooBig {
			r.pastLimit = past
		}
		return
	}
	// The engine simulator sizes the chosen shape where it applies
	// (serve_sim.go): the fewest copies whose simulated p95 TTFT and TPOT
	// meet the SLOs, and the row quotes that simulation.
	if sc := &bestCurve; sc.sim != nil && sc.sim.ok {
		cs := bestShape
		guess := best.Replicas * cs.perInstance
		if r.Pricing == Spot {
			guess -= cs.perInstance
		}
		k, bind, ok := p.simCopies(sc, lam, guess, p.maxInst/max(cs.instancesPer, 1)*cs.perInstance, cs.perInstance)
		if !ok {
			r.FitReason = Reason{Key: MsgFitTooBig, Args: []any{p.maxInst}}
			return
		}
		var limit sim.Limit
		c, ok := build(cs, sc, k, func(n int) (simServe, bool) {
			s, ok := sc.sim.at(n, lam, p.req.Workload)
			limit = s.res.Limit
			return s, ok
		})
		if !ok {
			r.FitReason = why
			return
		}
		c.Binding, c.EngineLimit, c.Sim = bind, limit, &sc.sim.cfg
		if n, ok := p.sloBinds(sc, bind, c.Utilisation); ok {
			c.Notes = append(slices.Clip(c.Notes), n)
		}
		best = c
	}
	*r = best
}

// fewerInstances reports whether row a rents fewer instances of o than
// row b (Offer.Rented), or as many and uses fewer.
func fewerInstances(o *Offer, a, b *Row) bool {
	ra, rb := o.Rented(a.Instances), o.Rented(b.Instances)
	return ra < rb || ra == rb && a.Instances < b.Instances
}

// pastLimitOffer is a serving offer the instance limit alone refused
// (Row.pastLimit): the instances that would carry the rate and their
// monthly bill at the request's pricing, in USD.
type pastLimitOffer struct {
	offer     *Offer
	instances int
	usd       float64
}

// consider keeps r's offer where the instance limit alone refused it, its
// price is dated within the freshness window (r.Stale unset), its bill is
// within budget (0: none) and it is the cheapest so kept.
func (c *pastLimitOffer) consider(r *Row, budget float64) {
	if r.Fits || r.pastLimit <= 0 || r.FitReason.Key != MsgFitTooBig || r.Stale || !(r.PricePerHourUSD > 0) {
		return
	}
	usd := float64(r.Offer.Rented(r.pastLimit)) * r.PricePerHourUSD * HoursPerMonth
	if budget > 0 && usd > budget || c.offer != nil && usd >= c.usd {
		return
	}
	*c = pastLimitOffer{offer: r.Offer, instances: r.pastLimit, usd: usd}
}

// pastLimitNote says so where an offer the instance limit (Options.
// MaxInstances, default 64) refused would carry the target rate for less
// than the cheapest pick, or where nothing fits within it: at scale the
// limit, not the prices, otherwise decides the pick, and a 200 req/s
// service of GLM-4.5 at 8,000-token prompts was quoted at 6.3 M USD a
// month on the one offer whose faster GPUs stay within 64 instances,
// where 88 instances of another cost 2.8 M. The instances are the
// closed-form sizing's (the simulated sizing may add a few): an estimate,
// said as one.
func (p *planner) pastLimitNote(res *Result, c pastLimitOffer) {
	if c.offer == nil || p.req.Workload.Kind != Serving {
		return
	}
	ref := OfferRef{Provider: c.offer.Provider, InstanceType: c.offer.Name(), Instances: c.instances, Own: c.offer.UserPrice}
	bill := Money{Amount: p.display(c.usd), Currency: res.Currency, PerMonth: true}
	// The flag's value is a string: the reader copies it, so no locale
	// groups its digits ("--max-instances 1200", not "1,200").
	flag := strconv.Itoa(c.instances)
	if res.Cheapest < 0 {
		p.note(Reason{Key: MsgNotePastLimitOnly, Args: []any{p.maxInst, ref, bill, flag}})
		return
	}
	if best := &res.Rows[res.Cheapest]; c.usd < best.MonthlyCostUSD {
		p.note(Reason{Key: MsgNotePastLimitCheaper, Args: []any{p.maxInst, ref, bill, c.usd / best.MonthlyCostUSD, flag}})
	}
}

// holdingReplicas is the replicas of a serving plan of units replicas
// under pricing that carry its rate and hold its SLOs: on spot, all but
// the spare that absorbs a reclaim (servingTech).
func holdingReplicas(units int, pricing Pricing) int {
	if pricing == Spot && units > 1 {
		return units - 1
	}
	return units
}

// ServingCopies is the engine copies of serving row r that carry its
// rate and hold its SLOs (the replicas less a spot row's spare, each of
// DP copies): the copies its latencies and utilisation are quoted over.
func (r *Row) ServingCopies() int {
	return holdingReplicas(r.Replicas, r.Pricing) * max(r.DP, 1)
}

// servingMoney prices the serving row on o: monthly bill = the instances
// rented (replicas × instances per replica, rounded up to the offer's
// rental unit: Row.Rented) × hourly × 730.
func (p *planner) servingMoney(o *Offer, r *Row) {
	lam := p.req.Workload.RequestsPerSecond
	r.MonthlyCostUSD = float64(r.Rented()) * r.PricePerHourUSD * HoursPerMonth
	r.MonthlyCostDisp = p.display(r.MonthlyCostUSD)
	perSec := r.MonthlyCostUSD / (HoursPerMonth * 3600)
	p.tokenPrices(r, perSec, lam)
	r.TokensPerUSD = estimator.Finite(lam * p.output / perSec)
	r.cost = r.MonthlyCostUSD
	if r.Pricing == Spot {
		r.Notes = append(r.Notes, Reason{Key: MsgSpotServing})
	}
	if o.SpotPerHour > 0 {
		if spot, ok := p.usd(o, p.vat(o, o.SpotPerHour)); ok {
			n := r.Instances
			if r.Pricing != Spot {
				n += r.InstancesPerReplica // the spare replica
			}
			r.SpotExpectedCostUSD = float64(o.Rented(n)) * spot * HoursPerMonth
		}
	}
}

// tokenPrices splits a cost per second between input and output tokens by
// their share of GPU time (docs/planning.md: price prompt tokens by prefill
// seconds, not at zero), at lam requests/s.
func (p *planner) tokenPrices(r *Row, perSec, lam float64) {
	if !(lam > 0) {
		return
	}
	if p.prompt > 0 {
		r.USDPerMillionInput = estimator.Finite(perSec * r.prefillShare / (lam * p.prompt) * 1e6)
	}
	if p.output > 0 {
		r.USDPerMillionOutput = estimator.Finite(perSec * (1 - r.prefillShare) / (lam * p.output) * 1e6)
	}
}

// batchTech sizes an offline job of Workload.Requests requests on one
// serving unit of o (more when a deadline asks), every engine copy running
// as many requests at once as its memory holds.
func (p *planner) batchTech(o *Offer, r *Row) {
	shapes := p.inferShapes(o)
	if len(shapes) == 0 {
		r.FitReason = p.tooBig(o)
		return
	}
	cs := shapes[0] // smallest TP: most copies, the best throughput per GPU
	_, hw := p.slice(o)
	// The shapes' fits, the curve and each fleet the row and its ladder
	// time are slices of work of their own (Options.Yield).
	p.opts.yield()
	sc := p.curve(cs, hw)
	if !sc.ok {
		r.FitReason = Reason{Key: MsgSLOKVPool}
		return
	}
	reqs := p.req.Workload.Requests
	units := 1
	// eval is units replicas' concurrency each, tokens/s together and
	// prefill's share of the time; 0 tokens/s where no speed is known.
	eval := func(units int) (c, tps, share float64) {
		p.opts.yield()
		copies := float64(units * cs.perInstance)
		c = math.Max(1, math.Min(sc.kvMax, math.Ceil(reqs/copies)))
		x := p.input(cs)
		x.Batch = int(c)
		pf := p.perf(x, hw, p.work)
		if !pf.ok || !(pf.tokensPerSecond > 0) {
			return c, 0, 0
		}
		prefill := c * p.prompt / math.Max(pf.prefillTokensPerSecond, 1e-300)
		dec := p.output * pf.decodeStep
		return c, pf.tokensPerSecond * copies, prefill / (prefill + dec)
	}
	c, tps, share := eval(units)
	if tps == 0 {
		r.FitReason = Reason{Key: MsgFitNoHardware}
		return
	}
	tokens := p.batchTokens()
	up := p.startUpSeconds()
	if dl := p.req.Filters.DeadlineSeconds; dl > 0 {
		for up+tokens/tps > dl && units*2*cs.instancesPer <= p.maxInst {
			nc, ntps, nshare := eval(units * 2)
			if ntps == 0 {
				break
			}
			units, c, tps, share = units*2, nc, ntps, nshare
		}
	}
	r.Fits, r.FitReason = true, sc.fitOK
	r.HeadroomGiB = sc.headroom.GiB()
	r.Replicas, r.InstancesPerReplica = units, cs.instancesPer
	r.Instances = units * cs.instancesPer
	r.GPUs = float64(r.Instances) * o.GPUCount
	r.TP, r.PP, r.DP = cs.tp, cs.pp, cs.perInstance
	p.setLayout(r, o, cs)
	r.Concurrency = c
	r.TokensPerSecond = tps
	r.prefillShare = share
	r.JobSeconds = estimator.Finite(up + tokens/tps)
	r.ladder = p.batchLadder(o, r, units, cs.instancesPer, eval)
}

// batchLadder is a batch tech row's larger fleets, as climb is a
// training row's: each step doubles r's replicas (units of instancesPer
// instances) up to the instance limit, ending at a step no faster than
// the one before it by frontTolerance (that step kept). A batch's
// requests are independent, so its replicas share no traffic and need
// no network between them (as the deadline's doubling above): the job's
// tokens split over more copies, and each instance is billed its
// start-up (startUpSeconds), which is where a doubling stops paying
// (scaleOut's rule). Without it the fastest plan of a million prompts
// was one instance for 1.6 h, where eight finish in 21 minutes. eval is
// batchTech's: the replicas' concurrency, tokens/s and prefill share.
func (p *planner) batchLadder(o *Offer, r *Row, units, instancesPer int, eval func(units int) (c, tps, share float64)) *ladder {
	l := &ladder{base: r, fleets: make([]batchFleet, 0, doublings(units*instancesPer, p.maxInst))}
	tokens, up := p.batchTokens(), p.startUpSeconds()
	last := r.JobSeconds
	for {
		if units*2*instancesPer > p.maxInst {
			l.stop, l.at = stopLimit, p.maxInst
			return l
		}
		units *= 2
		c, tps, share := eval(units)
		if !(tps > 0) {
			l.stop = stopSlower // no speed to say anything of
			return l
		}
		next := batchFleet{replicas: units, instances: units * instancesPer, concurrency: c, tps: tps, prefillShare: share,
			seconds: estimator.Finite(up + tokens/tps)}
		next.gpus = float64(next.instances) * o.GPUCount
		l.fleets = append(l.fleets, next)
		if !(next.seconds < last*(1-frontTolerance)) {
			l.stop = stopSlower
			return l
		}
		last = next.seconds
	}
}

// startUpSeconds is the time from renting an instance to its first
// request: the instance starting and the engine loading the weights, as a
// daily fleet's new replica takes it (FleetRow.StartUpSeconds) and a spot
// reclaim's restart (spotParams): Assumptions.RestartSeconds, else
// DefaultRestartSeconds (an assumption). A batch job is billed for it: a
// job of seconds on an 8-GPU instance came out cheaper than the same job
// on one GPU, as if the instance were ready when rented.
func (p *planner) startUpSeconds() float64 {
	if s := p.req.Assumptions.RestartSeconds; s > 0 {
		return s
	}
	return DefaultRestartSeconds
}

// batchTokens is the tokens a batch job produces: generated tokens, or
// prompt tokens for prefill-only jobs (embeddings, scoring).
func (p *planner) batchTokens() float64 {
	if p.output == 0 {
		return p.req.Workload.Requests * p.prompt
	}
	return p.req.Workload.Requests * p.output
}

// batchMoney prices the batch row on o.
func (p *planner) batchMoney(o *Offer, r *Row) {
	if o.SpotPerHour > 0 {
		// Requests are independent: a reclaim loses the batch in flight
		// and the restart; Daly's T_w with δ → 0 is T_s·e^{R/M}.
		m, _, restart := p.spotParams(o, r, r.Instances)
		p.spotCost(o, r, r.Instances, r.JobSeconds*math.Exp(restart/m))
	}
	p.jobMoney(r)
	perSec := r.cost / math.Max(r.time, 1e-300)
	p.tokenPrices(r, perSec, p.req.Workload.Requests/math.Max(r.time, 1e-300))
	r.TokensPerUSD = estimator.Finite(p.batchTokens() / r.cost)
}

// startable reports whether a serving copy laid out as c starts: a valid
// input whose TP leaves a block-quantised checkpoint's shards whole blocks
// (estimator.BlockRefusal, the rule the launch refuses by too). The estimate
// alone only warns of such a layout (estimator.WarnBlockSplit).
func startable(c estimator.Input) bool {
	return c.Validate() == nil && estimator.BlockRefusal(c) == ""
}
