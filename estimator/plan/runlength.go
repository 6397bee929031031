package plan

import (
	"math"

	"rightsize/estimator"
)

// DefaultPretrainDeadlineSeconds is the run length a pre-training plan
// assumes when the user gives no deadline: 117 days, the longest
// published pre-training run we know of, BLOOM 176B on 384 A100s
// (11 March to 6 July 2022: BigScience, "BLOOM", the BigScience blog,
// https://bigscience.huggingface.co/blog/bloom; "about 3.5 months",
// Le Scao et al. 2022, arXiv:2211.05100). Others ran shorter: Llama 3
// 405B, "a 54-day period" of its pre-training (Llama 3 paper,
// arXiv:2407.21783 §3.3.4); DeepSeek-V3, pre-trained "in less than two
// months" on 2,048 H800s (DeepSeek-V3 technical report,
// arXiv:2412.19437). An assumption, labelled as one wherever it is
// used: without it the cheapest plan is the fewest GPUs at the best
// scaling efficiency, which for a trillion-token pre-train runs for
// years, a plan nobody rents. Sources read 2026-11-30.
const DefaultPretrainDeadlineSeconds = 117 * 24 * 3600

// AssumedDeadline is what the assumed run length did to a pre-training
// plan (Result.AssumedDeadline).
type AssumedDeadline struct {
	Seconds float64 // DefaultPretrainDeadlineSeconds
	// Missed: no plan within the instance limit (MaxInstances, the
	// plan's Options.MaxInstances or its default) finishes within
	// Seconds; the result then lists no pick, Without is the fastest
	// plan without the assumption, and GPUs the fewest of its GPUs that
	// could finish within Seconds: its GPU-hours over the run length, a
	// floor, since a wider fleet scales less than linearly.
	Missed       bool
	MaxInstances int
	GPUs         int
	// RaisedMaxInstances is, where no plan within the default instance
	// limit (no Options.MaxInstances given) finishes within Seconds,
	// the limit the plan was raised to so that one does
	// (raisedMaxInstances); MaxInstances stays the default it started
	// from. 0 where the limit was not raised: a limit the user set is
	// never raised.
	RaisedMaxInstances int
	// Without is, where the assumption changed the cheapest pick, the
	// cheapest plan without it (Missed: the fastest); nil where the
	// pick is the same row either way.
	Without *Row
}

// assumedDeadline is the run length r's plan holds for want of a
// deadline: DefaultPretrainDeadlineSeconds for pre-training on rented
// offers with no deadline given and none refused, else 0. Fine-tunes
// keep no deadline: their runs are hours, and their cheapest pick is
// not a multi-year one.
func (r Request) assumedDeadline() float64 {
	f := r.Filters
	if r.Workload.Kind != Training || r.Input.Task != estimator.Pretrain || f.DeadlineSeconds > 0 || f.NoDeadline {
		return 0
	}
	return DefaultPretrainDeadlineSeconds
}

// planAssumed plans req without a deadline and, where its cheapest pick
// runs past the assumed run length dl, again with dl as its deadline
// (the deadline's own machinery: fleets grown to meet it, plans past it
// cut), and says what the assumption changed. A job whose cheapest plan
// already finishes within dl keeps that plan: the assumption binds only
// the runs it is there to stop. Where no plan within the default instance
// limit finishes within dl, the limit is raised to the fleet dl needs
// (raisedMaxInstances) and the job planned again; a limit the user set
// (Options.MaxInstances) is held, and the result then picks nothing.
func planAssumed(req Request, offers []Offer, opts Options, dl float64) Result {
	a := &AssumedDeadline{Seconds: dl, MaxInstances: opts.MaxInstances}
	if a.MaxInstances <= 0 {
		a.MaxInstances = defaultMaxInstances
	}
	free := req
	free.Filters.NoDeadline = true
	alt := newPlanner(free, opts, len(offers)).plan(offers)
	if alt.Cheapest < 0 || alt.Rows[alt.Cheapest].RankedSeconds <= dl {
		alt.AssumedDeadline = a
		return alt
	}
	with := req
	with.Filters.DeadlineSeconds = dl
	res := newPlanner(with, opts, len(offers)).plan(offers)
	res.AssumedDeadline = a
	switch {
	case res.Cheapest < 0 && alt.Quickest >= 0:
		a.Missed = true
		a.Without = &alt.Rows[alt.Quickest]
		a.GPUs = int(math.Ceil(a.Without.GPUHours*3600/dl - 1e-9))
		if opts.MaxInstances > 0 {
			break
		}
		// Both the run length and the default instance limit are
		// assumptions: the answer is the fleet the run length needs.
		n := raisedMaxInstances(a.GPUs, a.Without.Offer.GPUCount)
		if n <= a.MaxInstances {
			break
		}
		wide := opts
		wide.MaxInstances = n
		if w := newPlanner(with, wide, len(offers)).plan(offers); w.Cheapest >= 0 && alt.Cheapest >= 0 {
			w.AssumedDeadline = &AssumedDeadline{Seconds: dl, MaxInstances: a.MaxInstances, RaisedMaxInstances: n, Without: &alt.Rows[alt.Cheapest]}
			return w
		}
	case res.Cheapest >= 0:
		a.Without = &alt.Rows[alt.Cheapest]
	}
	return res
}

// maxRaisedInstances caps the instance limit a pre-train's assumed run
// length may raise the default to: 4,096 eight-GPU instances, 32,768
// GPUs, twice the largest fleet of the published runs
// DefaultPretrainDeadlineSeconds cites, Llama 3 405B's "up to 16K H100
// GPUs" on 8-GPU servers (Llama 3 paper, arXiv:2407.21783 §3.3.1, read
// 2026-11-30). An assumption: a fleet far past the published runs is
// not a plan to rent by default.
const maxRaisedInstances = 4096

// raisedMaxInstances is the instance limit a pre-train needs to finish
// within the assumed run length where the default limit falls short:
// the next power of two of at least twice the instances of perInstance
// GPUs that gpus (the run length's floor, AssumedDeadline.GPUs) fill,
// the 2× because a wider fleet scales less than linearly; at most
// maxRaisedInstances.
func raisedMaxInstances(gpus int, perInstance float64) int {
	if gpus <= 0 || !(perInstance > 0) {
		return 0
	}
	need := 2 * math.Ceil(float64(gpus)/perInstance-1e-9)
	n := 1
	for float64(n) < need && n < maxRaisedInstances {
		n *= 2
	}
	return n
}
