package plan

import (
	"math"
	"slices"
	"strconv"

	"rightsize/estimator"
)

// checkpointBytes is a training checkpoint: the trainable weights plus
// their optimizer states. Mixed-precision AdamW keeps fp32 master weights
// and two fp32 moments, 12 bytes/param on top of the 16-bit weights
// (Rajbhandari et al. 2020, "ZeRO", §3.1: 2Ψ + 2Ψ + 12Ψ with gradients,
// which a checkpoint does not hold); ZeRO shards them, but the checkpoint
// as a whole is still that size (docs/planning.md). LoRA adapters train in fp32
// (PEFT's default), so they carry no separate master copy.
func checkpointBytes(in estimator.Input) float64 {
	r, err := estimator.Estimate(withGPUs(in, 1, 1, 1, 0))
	if err != nil {
		return 0
	}
	n := float64(r.TrainableParams)
	weight := 2.0
	master := 4.0
	if in.Weights == estimator.FP32 || in.Task == estimator.LoRA || in.Task == estimator.QLoRA {
		weight, master = 4, 0
	}
	var moments float64
	switch in.Optimizer {
	case estimator.AdamW:
		moments = 8 // two fp32 moments (Loshchilov & Hutter 2019)
	case estimator.AdamW8bit:
		moments = 2 // two 8-bit moments (Dettmers et al. 2022, "8-bit Optimizers")
	case estimator.SGDMomentum:
		moments = 4
	case estimator.Adafactor:
		moments = 0 // factored second moment: rows + columns, negligible (Shazeer & Stern 2018)
	}
	return n * (weight + master + moments)
}

func withGPUs(in estimator.Input, gpus, tp, pp, zero int) estimator.Input {
	in.GPUs, in.TP, in.PP, in.ZeRO = gpus, tp, pp, zero
	return in
}

// layoutOpen reports whether the planner chooses the job's ZeRO stage and
// pipeline schedule for each shape it tries: a pre-training job whose user
// gave no ZeRO stage (Request.ZeROOpen).
func (p *planner) layoutOpen() bool {
	return p.req.ZeROOpen && p.in.Task == estimator.Pretrain
}

// resolveLayout is in with the ZeRO stage, and the pipeline schedule
// where the user gave none, that estimator.ResolveTrainDefaults chooses
// for in's own GPUs, TP and PP: the one judge the CLI's estimate and the
// page use at the user's layout, here at each shape the planner tries
// (Llama 3.1 405B on 16,384 H100s at TP 8 × PP 16 fits only at ZeRO 2,
// on 8,192 only as plain 1F1B). The user's own schedule is p.in's
// (Request.ZeROOpen), not one resolved at another layout.
func (p *planner) resolveLayout(in estimator.Input) estimator.Input {
	in.ZeRO, in.Schedule.VirtualStages = 0, p.in.Schedule.VirtualStages
	in, _ = estimator.ResolveTrainDefaults(in, true)
	// The stages it tries start at 1 where data parallelism shards; a
	// job without it keeps 0, below the floor bf16 optimizer states
	// set (zeroFloor).
	in.ZeRO = max(in.ZeRO, p.req.zeroFloor())
	return in
}

// openLayout is resolveLayout's layout of in and its fit where a
// training stack runs it; where the resolver's stage (the lowest that
// fits the estimate) fits only inside the margin (trainMemoryMargin), the
// next stage that leaves it, as more sharding holds less per GPU.
func (p *planner) openLayout(in estimator.Input) (estimator.Input, fitOut) {
	c := p.resolveLayout(in)
	if p.trainStack(c) == StackNone {
		return c, fitOut{}
	}
	r := p.estimate(c)
	if r.Fits || c.GPUs <= c.TP*c.PP*c.CP {
		return c, r
	}
	for z := c.ZeRO + 1; z <= 3; z++ {
		h := c
		h.ZeRO = z
		if p.trainStack(h) == StackNone {
			break
		}
		if hr := p.estimate(h); hr.Fits {
			return h, hr
		}
	}
	return c, r
}

// trainShape is one way to run the job on n instances.
type trainShape struct {
	in        estimator.Input
	instances int
	res       fitOut
}

// shapeOut is a memoised searchShape result; vs is the pipeline
// schedule's Input.Schedule.VirtualStages.
type shapeOut struct {
	tp, pp, zero, vs int
	res              fitOut
	ok               bool
}

// fitTraining finds the fewest instances of o on which the job fits and the
// parallelism that holds it there, preferring (in order) no pipeline
// stages, the smallest TP inside the instance, and the lowest ZeRO stage
// at or above the request's (a pre-training job whose user left the ZeRO
// stage open: the stage and schedule resolveLayout chooses for each
// shape, which fits or rules the shape out). Fitting is monotone in the instance count
// (more GPUs shard more), so the count is found by doubling, then
// bisection.
func (p *planner) fitTraining(o *Offer) (trainShape, bool) {
	gpus := int(o.GPUCount)
	mem, _ := p.slice(o)
	in := p.in
	mem.set(&in)
	if p.req.FixedParallelism {
		n := (in.GPUs + gpus - 1) / gpus
		if p.layoutOpen() {
			in = p.resolveLayout(in)
		}
		res := p.estimate(in)
		return trainShape{in, n, res}, res.Fits && n <= p.instLimit(o)
	}
	top := p.tpTop(o)
	at := func(n int) (trainShape, bool) {
		total := n * gpus
		// Offers of other shapes reach the same GPU total (2 × 8 and
		// 4 × 4 GPUs): the search result depends only on the memory,
		// the total and the largest TP inside an instance.
		k := shapeKey{mem, total, top}
		so, seen := p.shapes[k]
		if !seen {
			// Each search is a slice of work of its own (Options.Yield).
			p.opts.yield()
			s, ok := p.searchShape(in, total, top)
			so = shapeOut{s.in.TP, s.in.PP, s.in.ZeRO, s.in.Schedule.VirtualStages, s.res, ok}
			memo(&p.shapes, 448)[k] = so
		}
		if !so.ok {
			return trainShape{}, false
		}
		c := withGPUs(in, total, so.tp, so.pp, so.zero)
		c.Schedule.VirtualStages = so.vs
		return trainShape{c, n, so.res}, true
	}
	guess := 0
	if t, ok := p.hints[mem]; ok {
		guess = (t + gpus - 1) / gpus
	}
	s, ok := searchInstances(p.instLimit(o), guess, at)
	if ok {
		memo(&p.hints, 0)[mem] = s.in.GPUs
	}
	return s, ok
}

// tpTop is the largest TP the planner tries on an instance of o (maxTP:
// inside its NVLink domain).
func (p *planner) tpTop(o *Offer) int {
	if p.in.Task == estimator.QLoRA {
		// QLoRA's frozen base is bitsandbytes NF4, which the stacks that
		// run it shard by data parallelism only (FSDP or ZeRO-3: Answer.AI's
		// FSDP+QLoRA, 2024; PEFT's "FSDP and QLoRA" and "DeepSpeed and
		// QLoRA" guides); Megatron-LM's tensor parallelism has no NF4
		// layers. A TP 2 plan of Llama 3.1 70B on A6000s was one no stack
		// launches (--emit fsdp refused it): without TP the rental layout
		// turns activation checkpointing on instead, as QLoRA runs do
		// (Dettmers et al. 2023, §4: gradient checkpointing throughout).
		return 1
	}
	if p.dataParallel {
		return 1 // rentalRow's data-parallel try: PP 1 too (searchShape)
	}
	return maxTP(o, int(o.GPUCount))
}

// shapeKey memoises searchShape.
type shapeKey struct {
	mem          gpuMem
	total, maxTP int
}

// layoutMayFit reports whether any layout resolveLayout may choose could
// fit tp × pp on total GPUs, from the memo shared by every memory size:
// ZeRO-3 holds the least per GPU at a given schedule (Rajbhandari et al.
// 2020, Fig. 1; as searchShape's own first try), so when it does not fit
// under any schedule the resolver may take (the user's, or the
// interleaved and plain 1F1B ones), no stage the resolver tries does, and
// the shape is passed over without its search (up to four estimates the
// memo does not keep).
func (p *planner) layoutMayFit(in estimator.Input, total, tp, pp, dp int) bool {
	c := withGPUs(in, total, tp, pp, 0)
	if dp > 1 {
		c.ZeRO = 3
	}
	vs := [2]int{p.in.Schedule.VirtualStages, 1}
	n := 1
	if vs[0] == 0 && pp > 1 {
		n = 2
	}
	for _, v := range vs[:n] {
		c.Schedule.VirtualStages = v
		if p.estimate(c).Fits {
			return true
		}
	}
	return false
}

// searchShape finds the preferred parallelism for total GPUs among the
// layouts a training stack runs (trainStack): TP and PP splits at ZeRO 2
// or 3 only where torchtitan runs them, as Megatron-LM's distributed
// optimizer shards optimizer states only; for a job planned for LitGPT's
// scripts, their layouts alone.
func (p *planner) searchShape(in estimator.Input, total int, top int) (trainShape, bool) {
	{
		open := p.layoutOpen()
		maxPP := max(in.Arch.Layers, 1)
		if p.dataParallel {
			maxPP = 1
		}
		for pp := 1; pp <= total && pp <= maxPP; pp *= 2 {
			for tp := 1; tp <= top; tp *= 2 {
				if total%(tp*pp) != 0 {
					continue
				}
				// Each split's layouts are a slice of work of their own
				// (Options.Yield).
				p.opts.yield()
				dp := total / (tp * pp)
				if open {
					if !p.layoutMayFit(in, total, tp, pp, dp) {
						continue
					}
					if c, r := p.openLayout(withGPUs(in, total, tp, pp, 0)); r.Fits {
						return trainShape{c, 0, r}, true
					}
					continue
				}
				// ZeRO-3 holds the least per GPU (Rajbhandari et al. 2020,
				// Fig. 1: 2Ψ+2Ψ+KΨ sharded stage by stage): when it does
				// not fit, no lower stage does, so try it first.
				if dp > 1 && in.ZeRO < 3 && !p.estimate(withGPUs(in, total, tp, pp, 3)).Fits {
					continue
				}
				z0 := in.ZeRO
				if p.req.LitGPT && dp > 1 {
					z0 = 3 // LitGPT shards in full or not at all (litgptRuns)
				}
				for z := z0; z <= 3; z++ {
					if dp == 1 && z > in.ZeRO {
						break // nothing to shard over
					}
					c := withGPUs(in, total, tp, pp, z)
					if p.trainStack(c) == StackNone {
						break // higher stages run on no stack either
					}
					if r := p.estimate(c); r.Fits {
						return trainShape{c, 0, r}, true
					}
				}
			}
			if pp*top >= total {
				break
			}
		}
		return trainShape{}, false
	}
}

// searchInstances returns the smallest n in [1, limit] with at(n) true,
// assuming monotonicity (more instances never hurt). guess, when > 1, is
// where to look first (what an offer of the same GPU in another size
// needed): a right guess costs two looks.
func searchInstances[T any](limit, guess int, at func(int) (T, bool)) (T, bool) {
	var zero T
	guess = min(guess, limit)
	lo, hi := 0, 0 // at(lo) false (0: none tried), at(hi) true (0: none found)
	var best T
	if guess > 1 {
		if s, ok := at(guess); ok {
			best, hi = s, guess
		} else {
			lo = guess
		}
	}
	if hi == 0 {
		if lo == 0 {
			if s, ok := at(1); ok {
				return s, true
			}
			lo = 1
		}
		// Most offers of small GPUs never hold a large job: one look at
		// the limit spares the doubling.
		if lo < limit {
			if _, ok := at(limit); !ok {
				return zero, false
			}
		} else {
			return zero, false
		}
		for n := lo * 2; ; n *= 2 {
			n = min(n, limit)
			if s, ok := at(n); ok {
				best, hi = s, n
				break
			}
			lo = n
		}
	} else if lo == 0 {
		// The guess fits: is one instance fewer enough?
		if hi == 1 {
			return best, true
		}
		if s, ok := at(hi - 1); !ok {
			return best, true
		} else {
			best, hi = s, hi-1
		}
		if s, ok := at(1); ok {
			return s, true
		}
		lo = 1
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if s, ok := at(mid); ok {
			best, hi = s, mid
		} else {
			lo = mid
		}
	}
	return best, true
}

// trainMemoryMargin is the share of a GPU's usable memory a training
// layout the planner chooses leaves free beyond the estimated peak: the
// p90 |error| of the memory estimate of fine-tunes on rows it was not
// fitted on (docs/accuracy.md, "fine-tune memory", test split: 6.3% over
// 33 published and measured runs; with LitGPT's hand-written config-hub
// rows added since, 35 runs read 6.7%, which would move a pre-training
// pick of Qwen3-30B-A3B to a TP 2 split the FSDP and DeepSpeed launches
// do not write: kept at 6.3% until that pick is checked). The peak already holds the caching
// allocator's split remainder at the point it raises out of memory
// (estimator's allocatorKept, 4% of the allocated bytes, from eight
// out-of-memory messages); the margin is the estimate's own error on top:
// a layout the estimate puts at 0.3 GiB free on 24 GiB would run out of
// memory if the real peak is 1.3% above the estimate, as in 16 of the 34
// test rows with a figure. The held-back split's p90, 18.7%, is set by
// over-estimates (+18.2%, +19.1%, two QLoRA runs), which err on the safe
// side, and by torchtune's README rows of one job on two GPUs that
// disagree with each other (16.2 GiB on an RTX 4090, 30.3 GiB on an RTX
// A6000), which no one estimate of the job matches both of; not by
// shortfalls of a job near its limit. A layout the user fixes
// (Request.FixedParallelism) is kept and its row notes a fit inside the
// margin. Serving needs none: the engines pre-allocate a share of the
// memory (vLLM's --gpu-memory-utilization, 0.9 by default, leaves a
// tenth outside) and size the KV pool to what their profiling run leaves
// (vLLM's determine_num_available_blocks), so an estimate short of the
// real activations shrinks the pool, not the process.
const trainMemoryMargin = 0.063

// trainMargin is the bytes a training layout the planner chooses leaves
// free on a GPU of usable bytes (trainMemoryMargin); none for a layout
// the user fixed, or a bare planner's.
func (p *planner) trainMargin(usable estimator.Bytes) estimator.Bytes {
	if p.req.FixedParallelism || p.bare {
		return 0
	}
	return marginOf(usable)
}

// marginOf is trainMemoryMargin of usable bytes.
func marginOf(usable estimator.Bytes) estimator.Bytes {
	return estimator.Bytes(trainMemoryMargin * float64(usable))
}

// trainTech finds the shape and time of the training job on o (no
// prices: offers with the same hardware share it).
func (p *planner) trainTech(o *Offer, r *Row) {
	if o.GPUCount < 1 {
		r.FitReason = Reason{Key: MsgFitFractionTraining}
		return
	}
	if why := p.litgptRefusal(o); why.Key != NoMsg {
		r.FitReason = why
		return
	}
	s, ok := p.fitTraining(o)
	switch {
	case !ok && p.req.FixedParallelism && s.instances > 0 && s.instances <= p.instLimit(o):
		// The user's layout runs out of memory however many instances
		// are rented: "needs more than 64 instances" sent a full
		// fine-tune of 8B on 16 H100s at ZeRO 0 looking for a bigger
		// fleet, where --zero 2 or 3 (or no --gpus) is what fits it.
		r.FitReason = Reason{Key: MsgFitLayoutOOM, Args: []any{-s.res.Headroom.GiB(), s.in.GPUs, s.in.TP, s.in.PP, s.in.ZeRO}}
		return
	case !ok:
		r.FitReason = p.tooBig(o)
		if !p.bare {
			// A layout that holds the job only inside the margin is
			// not a plan, and the row says how close it came.
			v := variant{weights: p.in.Weights, offload: p.in.Offload, rental: p.rental, ckpt: p.in.GradCheckpointing, dataParallel: p.dataParallel, bare: true}
			p.opts.yield() // a search of its own (Options.Yield)
			if b, ok := p.sub(v).fitTraining(o); ok {
				r.FitReason = Reason{Key: MsgFitInsideMargin, Args: []any{b.res.Headroom.GiB(), 100 * trainMemoryMargin}}
			}
		}
		return
	}
	_, hw := p.slice(o)
	wide := false
	if !p.req.FixedParallelism && p.trainBatch(s.in).Short() {
		// The fewest instances that hold the job have more replicas
		// than its batch feeds: fewer, wider ones on the same GPUs.
		s, wide = p.fitBatch(o, hw, s)
	}
	p.trainTime(o, hw, s, r)
	if wide && r.Fits {
		r.wide = p.wideNote(s.in, r)
	}
	if p.req.FixedParallelism {
		if r.Fits && s.res.Headroom < marginOf(s.in.UsableBytes()) {
			r.Notes = append(r.Notes, Reason{Key: MsgNoteInsideMargin, Args: []any{s.res.Headroom.GiB(), 100 * trainMemoryMargin}})
		}
		p.idleGPUs(o, hw, s, r)
		return
	}
	// A deadline may need more instances than the fewest that fit: the
	// ladder climbed from them holds the fleets, and scaleOut takes the
	// first that meets it.
	if s.instances < p.instLimit(o) {
		r.ladder = p.climb(o, hw, s, *r)
	}
}

// litgptRefusal is why LitGPT's fine-tune scripts run a job planned for
// them (Request.LitGPT) in no layout on o, or no Key: QLoRA, which
// lora.py runs on one device only, on an instance of more GPUs (a plan
// rents whole instances), or the user's own layout (FixedParallelism)
// where it is not one they run (litgptRuns).
func (p *planner) litgptRefusal(o *Offer) Reason {
	switch {
	case !p.req.LitGPT:
	case p.req.FixedParallelism && p.in.Task == estimator.QLoRA && p.in.GPUs > 1:
		return Reason{Key: MsgFitLitGPTQLoRA, Args: []any{p.in.GPUs}}
	case p.req.FixedParallelism && !litgptRuns(p.in):
		return Reason{Key: MsgFitLitGPTLayout, Args: []any{max(p.in.GPUs, 1), max(p.in.TP, 1), max(p.in.PP, 1), p.in.ZeRO}}
	case !p.req.FixedParallelism && p.in.Task == estimator.QLoRA && o.GPUCount > 1:
		return Reason{Key: MsgFitLitGPTQLoRA, Args: []any{o.GPUCount}}
	}
	return Reason{}
}

// idleFleet is a fixed layout's GPUs beside the GPUs its instances hold
// (idleGPUs): used of paid run the job; dp and seconds are the same job
// data-parallel over all paid GPUs (0: no such layout runs it).
type idleFleet struct {
	used, paid, dp int
	seconds        float64
}

// idleGPUs marks a fitting row r whose fixed layout s (Request.FixedParallelism)
// uses fewer GPUs than its instances of o hold: --gpus 2 on an instance
// of 8 GPUs rents, and bills, all 8 (jobMoney), and the launch starts 2
// ranks. The row says so, and names what the idle GPUs would buy: the
// same layout's model split (TP × PP, ZeRO stage) data-parallel over all
// of them, where it runs the job within the global batch (batchCap, the
// limit a planner-chosen fleet climbs to).
func (p *planner) idleGPUs(o *Offer, hw estimator.Hardware, s trainShape, r *Row) {
	paid := s.instances * int(o.GPUCount)
	if !r.Fits || s.in.GPUs >= paid {
		return
	}
	r.idle = &idleFleet{used: s.in.GPUs, paid: paid}
	in := withGPUs(s.in, paid, s.in.TP, s.in.PP, s.in.ZeRO)
	if paid%(in.TP*in.PP) != 0 {
		return
	}
	res := p.estimate(in)
	if !res.Fits {
		return
	}
	all := *r
	all.Notes = nil
	p.trainTime(o, hw, trainShape{in, s.instances, res}, &all)
	if !all.Fits {
		return
	}
	if c := p.batchCap(s.in, *r); c > 0 && tokensPerStep(&all, p.req.Workload.TrainTokens) > c*(1+1e-9) {
		return
	}
	r.idle.dp, r.idle.seconds = all.DP, all.JobSeconds
}

// idleNote is the note of a priced row with idle GPUs (idleGPUs): the
// GPUs used and paid for and, where a layout runs on all of them, its
// time and the bill of the row's instances for it at the row's price.
func (p *planner) idleNote(r *Row) Reason {
	f := r.idle
	args := []any{f.used, f.paid, f.paid - f.used}
	if !(f.seconds > 0) {
		return Reason{Key: MsgNoteIdleGPUs, Args: args}
	}
	return Reason{Key: MsgNoteIdleGPUsAll, Args: append(args, f.dp, Duration{Seconds: f.seconds},
		Money{Amount: p.display(r.billUSD(f.seconds)), Currency: p.req.currency()})}
}

// ladder is the fleets of one training or batch tech row beyond its
// fewest instances: each step doubles the one before it (grow,
// batchLadder), keeping its parallelism, price-free. stop says why it ends: the instance limit,
// the global batch (batch tokens a step), no layout a stack runs on the
// next doubling (at: its instances), or a step no faster than the one
// before it (the last step). seqs is the global batch in sequences
// where it is a fine-tune's default (fineTuneGlobalSequences), else 0.
type ladder struct {
	steps []Row // a training row's fleets
	// pastBatch is how many of the last steps step more sequences than
	// a fine-tune's usual global batch (batchCap): climbed only under a
	// deadline, which they may meet (fineTuneBatchNote says so), never
	// a scaled-out plan.
	pastBatch int
	// base and fleets are a batch row's fleets: base (its tech row) with
	// the size and speed of each fleet, all a doubling of a batch's
	// replicas changes. A row is large; a fleet is a few numbers.
	base   *Row
	fleets []batchFleet
	stop   ladderStop
	at     int
	batch  float64
	seqs   float64
}

// batchFleet is one fleet of a batch ladder: what batchLadder sets on a
// copy of the row it climbs from.
type batchFleet struct {
	replicas, instances                           int
	gpus, concurrency, tps, prefillShare, seconds float64
}

// count is the number of fleets on l.
func (l *ladder) count() int { return len(l.steps) + len(l.fleets) }

// step is l's i-th fleet as a row, written into buf where the ladder
// holds it as a batchFleet.
func (l *ladder) step(i int, buf *Row) *Row {
	if l.base == nil {
		return &l.steps[i]
	}
	f := &l.fleets[i]
	*buf = *l.base
	buf.Replicas, buf.Instances, buf.GPUs = f.replicas, f.instances, f.gpus
	buf.Concurrency, buf.TokensPerSecond, buf.prefillShare, buf.JobSeconds = f.concurrency, f.tps, f.prefillShare, f.seconds
	return buf
}

type ladderStop int

const (
	stopLimit ladderStop = iota
	stopBatch
	stopLayout
	stopSlower
)

// climb doubles shape s of row r up to the instance limit: the fleets a
// scaled-out plan, and the fleet that meets a deadline, are chosen from
// (scaleOut). It stops where a doubling runs on no stack, where it no
// longer speeds the job by frontTolerance (that step kept, so its
// figures can say so), and where more data-parallel replicas would step
// more tokens than the job's global batch (batchCap) and no wider
// replica runs it (grow). A fine-tune of a usual batch under a deadline
// climbs on past that batch (ladder.pastBatch), its replicas each
// stepping their micro-batch, as far as the deadline may need.
func (p *planner) climb(o *Offer, hw estimator.Hardware, s trainShape, r Row) *ladder {
	limit := p.instLimit(o)
	l := &ladder{steps: make([]Row, 0, doublings(s.instances, limit))}
	batch := p.batchCap(s.in, r)
	past := -1 // the step past the batch, where one is climbed
	end := func(stop ladderStop, at int) *ladder {
		if past >= 0 {
			l.pastBatch = len(l.steps) - past
		} else {
			l.stop, l.at = stop, at
		}
		return l
	}
	for {
		if s.instances*2 > limit {
			return end(stopLimit, limit)
		}
		next, ns := r, s
		ok, limited := p.grow(o, hw, &ns, &next, batch)
		switch {
		case !ok && limited && past >= 0:
			return end(stopBatch, 0)
		case !ok && limited:
			l.stop, l.batch = stopBatch, batch
			if ft := fineTuneGlobalSequences * trainSeq(s.in); p.fineTuneDefaultBatch() && batch <= ft {
				l.seqs = fineTuneGlobalSequences
				if p.req.Filters.DeadlineSeconds > 0 {
					past, batch = len(l.steps), 0
					continue
				}
			}
			return l
		case !ok:
			return end(stopLayout, s.instances*2)
		}
		next.ladder = nil
		l.steps = append(l.steps, next)
		if !(next.JobSeconds < r.JobSeconds*(1-frontTolerance)) {
			return end(stopSlower, 0)
		}
		r, s = next, ns
	}
}

// doublings is how many times n doubles within limit: the most steps a
// ladder from n instances takes, its steps' capacity (a row is large,
// and a ladder grown by appends allocated about twice its rows).
func doublings(n, limit int) int {
	k := 0
	for n = max(n, 1); n <= limit/2; n *= 2 {
		k++
	}
	return k
}

// scaleOutSpeedup is the speed-up a doubling of a training or batch
// fleet must buy for a scaled-out plan to take it: 1.5×, CSC's scalability
// criterion for running on more processors ("The speed of the
// application has to increase by 50%, when the number of processors is
// doubled": CSC – IT Center for Science, Cray T3E User's Guide, §10.3
// "Scalability criteria at CSC"). A doubling below it costs at least
// 2/1.5 = 1.33× as much for the time it saves. The knee's measure (cost
// × time, recommend.go) falls with a doubling above √2 ≈ 1.41×, so each
// doubling the rule takes moves a plan towards the knee.
const scaleOutSpeedup = 1.5

// scaling is what scaleOut found for a training or batch row: its
// scaled-out plan (nil: no doubling pays) and the note that says where
// scaling stops (no Key: nothing to say, as on an offer one instance of
// which is the most a plan may rent).
type scaling struct {
	row  *Row
	stop Reason
	// met: the offer's row is the first fleet that meets the deadline,
	// not its fewest instances.
	met bool
	// fleet holds row's figures: scaleOut prices the ladder's fleets in
	// the planner's scratch (scaleRows), which the next offer overwrites.
	fleet Row
}

// scaleOut prices the ladder l of r's tech row on o (priced copies a
// tech row onto a priced one, as row does) and returns the largest fleet
// that fits (budget, deadline, host) whose own doubling bought at least
// scaleOutSpeedup on the ranked time (on spot the expected time: more
// instances are reclaimed more often) and that runs at least
// scaleOutSpeedup per doubling as fast as r, the fewest instances, over
// all of them. The rule is CSC's, applied to each doubling and on
// average: a fleet whose last doubling pays after doublings that did not
// (a ZeRO-3 fleet that accumulates many micro-batches over a slow
// network speeds up as the accumulation falls) is taken when the whole
// climb pays.
//
// Where r misses the deadline (fit.past_deadline), the first fleet of
// the ladder that meets it (on spot, on its expected time) becomes r,
// the offer's row, and the scaled-out fleet is still the one the rule
// picks against the fewest instances: the same search with a deadline
// as without, so a deadline the plan without it meets already leaves
// that plan's fleets listed, and the cheaper of the two picked. r stays
// as it is where no fleet meets the deadline.
func (p *planner) scaleOut(o *Offer, r *Row, l *ladder, priced func(t, c *Row)) *scaling {
	// The fleets are priced in place in scratch the planner keeps (a row
	// is large, and a batch or training plan prices thousands of them);
	// only the chosen ones are copied out.
	rows := p.scaleRows[:0]
	dl, late := p.req.Filters.DeadlineSeconds, r.FitReason.Key == MsgFitPastDeadline
	best, meet, prev := -1, -1, r.time
	rule := l.count() - l.pastBatch // the fleets a scaled-out plan may take
	for i := range l.count() {
		if i >= rule && (!late || meet >= 0) {
			break
		}
		t := l.step(i, &p.stepRow)
		rows = append(rows, Row{})
		c := &rows[len(rows)-1]
		priced(t, c)
		p.finish(o, c)
		if late && meet < 0 && c.time > 0 && c.time <= dl {
			meet = i
		}
		if i >= rule {
			continue
		}
		doublings := math.Log2(float64(c.Instances) / float64(r.Instances))
		if c.Fits && c.time > 0 && prev >= scaleOutSpeedup*c.time && r.time >= math.Pow(scaleOutSpeedup, doublings)*c.time {
			best = i
		}
		prev = c.time
	}
	p.scaleRows = rows
	if late {
		if meet < 0 {
			return nil // no fleet meets the deadline: r says so
		}
		*r = rows[meet]
		if meet >= rule {
			// Past the batch a scaled-out plan stops at: its note
			// (fineTuneBatchNote) says the recipe differs.
			return nil
		}
	}
	if best <= meet {
		best = -1 // r is that fleet, or one past it
	}
	rows = rows[:min(len(rows), rule)]
	from, k := r, max(best, meet)+1
	if best >= 0 {
		from = &rows[best]
	}
	var stop Reason
	switch {
	case k < len(rows):
		n := &rows[k]
		speed := ratio(from.time, n.time)
		if speed >= scaleOutSpeedup {
			break // it pays, and the budget, the deadline or the host rules it out
		}
		key := MsgNoteScaleStopSlow
		if n.Bound == estimator.BoundCommunication {
			key = MsgNoteScaleStopComm
		}
		stop = Reason{Key: key, Args: []any{n.Instances, speed, ratio(n.cost, from.cost)}}
	case best < 0 && l.stop == stopLimit:
		// r holds the job on about the most instances a plan may rent.
	case l.stop == stopLimit:
		stop = Reason{Key: MsgNoteScaleStopLimit, Args: []any{l.at}}
	case l.stop == stopBatch && l.seqs > 0:
		stop = Reason{Key: MsgNoteScaleStopBatchFT, Args: []any{l.seqs, l.batch}}
	case l.stop == stopBatch:
		stop = Reason{Key: MsgNoteScaleStopBatch, Args: []any{l.batch}}
	case l.stop == stopLayout:
		stop = Reason{Key: MsgNoteScaleStopLayout, Args: []any{l.at}}
	}
	if best < 0 && stop.Key == NoMsg {
		return nil
	}
	sc := &scaling{stop: stop, met: late}
	if best >= 0 {
		sc.fleet = rows[best]
		sc.row = &sc.fleet
	}
	return sc
}

// scaledRow makes sc's fleet s the row the plan lists, r being the
// fewest instances of its offer (or the fewest that meet the deadline,
// scaling.met): marked, with a note that sets it against r and the note
// that says where scaling stops.
func scaledRow(r *Row, sc *scaling) {
	s, key := sc.row, MsgNoteScaleOut
	if sc.met {
		key = MsgNoteScaleOutDeadline
	}
	s.ScaledFrom = r.Instances
	s.Notes = append(slices.Clip(s.Notes), Reason{Key: key,
		Args: []any{r.Instances, s.Instances, ratio(r.time, s.time), ratio(s.cost, r.cost)}})
	if sc.stop.Key != NoMsg {
		s.Notes = append(s.Notes, sc.stop)
	}
}

// pruneScaled drops the scaled-out rows (scaledRow) the picks could
// never rest on, rows being ranked: those passed over for their price
// (passOver), and those a fitting row the picks may rest on that ranks
// before them (costs no more) runs as fast as or faster than. A
// scaled-out fleet is listed for the cost–time front it adds to: a GPU
// offered at a dozen prices would otherwise add a dozen fleets, all but
// the cheapest behind another. Fewest-instance rows stay, as before.
func pruneScaled(rows []Row) []Row {
	fastest := math.Inf(1)
	out := rows[:0]
	for i := range rows {
		r := &rows[i]
		if r.ScaledFrom > 0 && (r.PassedOver.Key != NoMsg || !(r.time < fastest)) {
			continue
		}
		if r.Fits && r.PassedOver.Key == NoMsg {
			fastest = min(fastest, r.time)
		}
		out = append(out, *r)
	}
	clear(rows[len(out):])
	return out
}

// tokensPerStep is a training row's global batch in tokens: the job's
// tokens over its optimizer steps.
func tokensPerStep(r *Row, tokens float64) float64 {
	if !(r.OptimizerSteps > 0) {
		return 0
	}
	return tokens / r.OptimizerSteps
}

// batchCap is the most tokens an optimizer step of a scaled-out fleet
// may take: the job's global batch (Workload.GlobalBatchTokens, else the
// estimator's published default for pre-training,
// estimator.DefaultGlobalBatchTokens), or the fewest instances' own step
// where that is larger. Data parallelism divides the global batch among
// the replicas (gradient accumulation falls to one micro-batch each,
// Workload.GlobalBatchTokens); past that, more replicas would step a
// larger batch than the run's, which changes the training itself:
// beyond the critical batch size a larger batch needs more tokens for
// the same loss (McCandlish et al. 2018, "An Empirical Model of
// Large-Batch Training", §2.2), which a job of fixed tokens does not
// count, so scaling out stops there. A fine-tune with no
// --global-batch-tokens steps its micro-batches on every replica, its
// batch growing with them: its fleets stop at a fine-tune's usual batch,
// fineTuneGlobalSequences, so the fastest pick does not train a
// different recipe (a LoRA of 70B on 64 nodes stepped 512 sequences).
// 0: no cap.
func (p *planner) batchCap(in estimator.Input, r Row) float64 {
	g := p.req.Workload.GlobalBatchTokens
	if g == 0 {
		g = estimator.DefaultGlobalBatchTokens(in)
	}
	if g == 0 && in.Task != estimator.Pretrain {
		g = fineTuneGlobalSequences * trainSeq(in)
	}
	if !(g > 0) {
		return 0
	}
	return math.Max(g, tokensPerStep(&r, p.req.Workload.TrainTokens))
}

// fineTuneGlobalSequences is the global batch, in sequences, of a
// fine-tune that names none: 128, Stanford Alpaca's (full fine-tune of
// LLaMA 7B and 13B; github.com/tatsu-lab/stanford_alpaca README,
// "Fine-tuning": batch size 128) and alpaca-lora's default for LoRA
// (github.com/tloen/alpaca-lora finetune.py: batch_size 128, its
// gradient accumulation divided by the world size so the batch holds
// however many GPUs run it). A default, not a measurement:
// --global-batch-tokens replaces it.
const fineTuneGlobalSequences = 128

// fineTuneBatchNote says when fine-tune row r steps more sequences than
// a fine-tune's usual global batch (fineTuneGlobalSequences) because it
// has more data-parallel replicas than that, each stepping its
// micro-batch: a fleet grown to meet --deadline, or the fewest instances
// of a large model. Scaled-out fleets stop at that batch (batchCap); these
// rows cannot, so they say the recipe differs. No note where the user
// named the global batch.
func (p *planner) fineTuneBatchNote(r *Row) Reason {
	if !p.fineTuneDefaultBatch() {
		return Reason{}
	}
	seqs := tokensPerStep(r, p.req.Workload.TrainTokens) / trainSeq(p.in)
	if !(seqs > fineTuneGlobalSequences*(1+1e-9)) {
		return Reason{}
	}
	return Reason{Key: MsgNoteFTBatchLarge, Args: []any{math.Round(seqs), r.DP}}
}

// trainSeq is the tokens of one training sample: --seq, or the length
// the architecture fixes (Arch.SeqLen: ViT patches), as the estimator
// counts it.
func trainSeq(in estimator.Input) float64 {
	if in.Arch.SeqLen > 0 && !in.Arch.Generic() {
		return float64(in.Arch.SeqLen)
	}
	return float64(in.Seq)
}

// grow doubles the instances of shape s and reports whether it did
// (within the instance limit and still fitting), and whether the doubling
// met the global batch (limited). It keeps
// the parallelism while more data-parallel replicas fit the batch: not
// short of sequences (estimator.TrainBatch.Short) and, where cap > 0, not
// stepping more than cap tokens (batchCap). Past that it doubles the GPUs
// of each replica instead (wider), as published runs scale past their
// batch.
func (p *planner) grow(o *Offer, hw estimator.Hardware, s *trainShape, r *Row, cap float64) (grown, limited bool) {
	// Each doubling is a slice of work of its own (Options.Yield).
	p.opts.yield()
	if s.instances*2 > p.instLimit(o) {
		return false, false
	}
	bigger := *s
	bigger.instances *= 2
	bigger.in.GPUs *= 2
	nr := *r
	if p.trainBatch(bigger.in).Short() {
		limited = true
	} else if p.fitShape(&bigger) {
		p.trainTime(o, hw, bigger, &nr)
		limited = cap > 0 && nr.Fits && tokensPerStep(&nr, p.req.Workload.TrainTokens) > cap*(1+1e-9)
		if !nr.Fits && !limited {
			return false, false
		}
		if nr.wide.Key != NoMsg {
			nr.wide = p.wideNote(bigger.in, &nr) // its replicas, not r's
		}
	} else {
		return false, false
	}
	if limited {
		var ok bool
		if bigger, nr, ok = p.wider(o, hw, *s, *r, cap); !ok {
			return false, true
		}
	}
	*r, *s = nr, bigger
	return true, limited
}

// fitShape sizes s's layout (chosen afresh where the planner chooses
// the ZeRO stage: more replicas shard more) and reports whether it fits
// on a stack that runs it.
func (p *planner) fitShape(s *trainShape) bool {
	if p.layoutOpen() {
		s.in, s.res = p.openLayout(s.in)
	} else {
		s.res = p.estimate(s.in)
	}
	return s.res.Fits && p.trainStack(s.in) != StackNone
}

// wider is shape s, whose replicas the global batch holds no more of, on
// twice its instances with each replica on twice the GPUs: TP doubled
// inside the NVLink domain (tpTop), PP doubled, or CP doubled where the
// sequence splits, the fastest the estimator times of those that fit, run
// on a stack and step the same batch (no more tokens than r or cap). Each
// split has its cost, which the step time counts: TP's all-reduces, PP's
// bubble ((p − 1)/m of the step, Narayanan et al. 2021 §2.2.1: a replica
// with one micro-batch gains nothing from it), CP's ring of keys and
// values. Published runs scale past their batch so: Llama 3 405B at TP 8 ×
// CP 1 × PP 16 on 16,384 H100s, CP 16 for its long-context stage (Llama 3
// paper, arXiv:2407.21783, §3.3.2, Table 4). The row says why (wideNote).
func (p *planner) wider(o *Offer, hw estimator.Hardware, s trainShape, r Row, cap float64) (trainShape, Row, bool) {
	if p.fineTuneDefaultBatch() {
		// Its batch is a usual recipe's (fineTuneGlobalSequences), not
		// the run's: a larger one is another recipe, not a refused
		// layout, and fine-tunes run data-parallel stacks.
		return trainShape{}, Row{}, false
	}
	limit := math.Max(cap, tokensPerStep(&r, p.req.Workload.TrainTokens)) * (1 + 1e-9)
	var best trainShape
	var bestRow Row
	found := false
	for _, split := range [...]int{splitTP, splitPP, splitCP} {
		c := s
		c.instances *= 2
		c.in.GPUs *= 2
		switch split {
		case splitTP:
			if c.in.TP*2 > p.tpTop(o) {
				continue
			}
			c.in.TP *= 2
		case splitPP:
			if p.dataParallel || c.in.PP*2 > max(c.in.Arch.Layers, 1) {
				continue
			}
			c.in.PP *= 2
		case splitCP:
			cp := max(c.in.CP, 1) * 2
			if p.dataParallel || c.in.Seq%cp != 0 {
				continue
			}
			c.in.CP = cp
		}
		p.opts.yield() // a layout's search (Options.Yield)
		if !p.fitShape(&c) {
			continue
		}
		nr := r
		p.trainTime(o, hw, c, &nr)
		if !nr.Fits || tokensPerStep(&nr, p.req.Workload.TrainTokens) > limit {
			continue
		}
		if !found || nr.JobSeconds < bestRow.JobSeconds {
			best, bestRow, found = c, nr, true
		}
	}
	if found {
		bestRow.wide = p.wideNote(best.in, &bestRow)
	}
	return best, bestRow, found
}

// fitBatch is shape s, whose data-parallel replicas × micro-batch exceed
// its global batch's sequences (a layout no stack starts), on the same
// instances with fewer replicas of more GPUs each: the fastest layout
// the step model times whose TP (inside the NVLink domain, tpTop), PP
// and CP are at least s's, that fits, runs on a stack, and steps no more
// than the job's batch (wider's splits, at the same GPUs). s itself, and
// false, where none does; trainTime then refuses it (fit.batch_short).
// A global batch of 4 sequences on an 8-GPU instance: 4 replicas of TP 2.
func (p *planner) fitBatch(o *Offer, hw estimator.Hardware, s trainShape) (trainShape, bool) {
	if p.dataParallel {
		return s, false
	}
	g := p.req.Workload.GlobalBatchTokens
	if g == 0 {
		g = estimator.DefaultGlobalBatchTokens(s.in)
	}
	gpus, top, layers := s.in.GPUs, p.tpTop(o), max(s.in.Arch.Layers, 1)
	var best trainShape
	var bestRow, nr Row
	found := false
	for tp := max(s.in.TP, 1); tp <= top; tp *= 2 {
		for pp := max(s.in.PP, 1); pp <= layers && tp*pp <= gpus; pp *= 2 {
			for cp := max(s.in.CP, 1); tp*pp*cp <= gpus; cp *= 2 {
				if gpus%(tp*pp*cp) != 0 || s.in.Seq%cp != 0 {
					continue
				}
				c := s
				c.in.TP, c.in.PP, c.in.CP = tp, pp, cp
				if cp == 1 {
					c.in.CP = s.in.CP
				}
				p.opts.yield() // a layout's search (Options.Yield)
				if p.trainBatch(c.in).Short() || !p.fitShape(&c) {
					continue
				}
				nr = Row{}
				p.trainTime(o, hw, c, &nr)
				if !nr.Fits || g > 0 && tokensPerStep(&nr, p.req.Workload.TrainTokens) > g*(1+1e-9) {
					continue
				}
				if !found || nr.JobSeconds < bestRow.JobSeconds {
					best, bestRow, found = c, nr, true
				}
			}
		}
	}
	if !found {
		return s, false
	}
	return best, true
}

// fineTuneDefaultBatch reports whether the job is a fine-tune whose
// user named no global batch: its scaled-out fleets stop at
// fineTuneGlobalSequences (batchCap).
func (p *planner) fineTuneDefaultBatch() bool {
	return p.req.Workload.GlobalBatchTokens == 0 && p.in.Task != estimator.Pretrain
}

// The splits wider tries, in its order of preference at equal times.
const (
	splitTP = iota
	splitPP
	splitCP
)

// wideNote says why fleet r of layout in runs its replicas on more GPUs
// each (wider): the global batch in sequences (trainBatch), the most
// replicas it holds at this layout, and the layout. A replica
// steps at least one micro-batch of Input.Batch sequences, and under the
// estimator's default batch with pipeline stages at least PP of them
// (estimator.DefaultGlobalBatchTokens: the default batch grows to fill
// the pipeline, which a larger batch than the run's is not).
func (p *planner) wideNote(in estimator.Input, r *Row) Reason {
	seqs := int(math.Round(p.trainBatch(in).Global))
	per := max(in.Batch, 1)
	if p.req.Workload.GlobalBatchTokens == 0 && in.PP > 1 {
		per *= in.PP
	}
	most := seqs / per
	split := max(in.TP, 1) * max(in.PP, 1) * max(in.CP, 1)
	return Reason{Key: MsgNoteBatchWider, Args: []any{seqs, most, r.DP, split, max(in.TP, 1), max(in.PP, 1), max(in.CP, 1)}}
}

// trainWork is the workload a training layout in is timed with: with
// --global-batch-tokens, the micro-batches per replica that step it
// (gradient accumulation); else the estimator's default batch.
func (p *planner) trainWork(in estimator.Input) estimator.Workload {
	var w estimator.Workload
	if g := p.req.Workload.GlobalBatchTokens; g > 0 {
		dp := in.GPUs / (in.TP * in.PP * max(in.CP, 1))
		w.MicroBatches = max(1, int(math.Round(g/(float64(dp)*float64(in.Batch)*trainSeq(in)))))
	}
	return w
}

// trainBatch is layout in's global batch against its replicas
// (estimator.TrainBatchOf): the request's --global-batch-tokens in
// sequences, else the estimator's default batch.
func (p *planner) trainBatch(in estimator.Input) estimator.TrainBatch {
	var w estimator.Workload
	if g := p.req.Workload.GlobalBatchTokens; g > 0 {
		w.GlobalBatch = max(1, int(math.Round(g/trainSeq(in))))
	}
	return estimator.TrainBatchOf(in, w)
}

// trainTime fills r with shape s on o: parallelism, speed, job time.
func (p *planner) trainTime(o *Offer, hw estimator.Hardware, s trainShape, r *Row) {
	in := s.in
	dp := in.GPUs / (in.TP * in.PP * max(in.CP, 1))
	w := p.trainWork(in)
	if b := p.trainBatch(in); b.Short() {
		// A layout no training stack starts (estimator.TrainBatch): the
		// global batch has fewer sequences than the replicas' micro-batches.
		// LitGPT's scripts stop there too (TrainArgs.batch_size and
		// gradient_accumulation_iters assert a sequence or more a device,
		// litgpt/args.py at 00af8b0d), and split no model (no TP, PP or
		// CP): fewer GPUs or a larger batch is all their advice.
		key := MsgFitBatchShort
		if p.req.LitGPT {
			key = MsgFitBatchShortLitGPT
		}
		r.FitReason = Reason{Key: key, Args: []any{b.Replicas, math.Round(b.Global), b.MaxReplicas()}}
		return
	}
	pf := p.perf(in, hw, w)
	if !pf.ok || !(pf.stepSeconds > 0) {
		r.FitReason = Reason{Key: MsgFitNoHardware}
		return
	}
	step := pf.stepSeconds
	r.CommSeconds, r.Bound = pf.commSeconds, pf.bound
	// A row over several instances whose provider names no network was
	// timed on an assumed one: the row says so, not the whole plan (a
	// plan-wide note read as the picks' when they ran on a named fabric,
	// e.g. 3.2 Tbit/s InfiniBand, and another offer had none).
	if s.instances > 1 {
		if g, assumed := p.networkGbps(o); assumed {
			r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteNetworkAssumed, Args: []any{g}})
		}
	}
	tps := pf.tokensPerStep / step
	tokens := p.req.Workload.TrainTokens
	r.Fits, r.FitReason = true, Reason{Key: MsgFitOK, Args: []any{s.res.Headroom.GiB()}}
	r.HeadroomGiB = s.res.Headroom.GiB()
	r.HostOffloadGiB = s.res.HostOffload.GiB() * o.GPUCount
	r.Instances = s.instances
	r.GPUs = float64(s.instances) * o.GPUCount
	r.TP, r.PP, r.DP, r.ZeRO = in.TP, in.PP, dp, in.ZeRO
	if in.EP > 1 {
		// The experts split over EP of the DP ranks (--ep, Megatron's
		// expert parallelism), which the memory and time above count on:
		// the row says so, and a launcher that cannot split them refuses.
		r.EP = in.EP
	}
	if in.PP > 1 {
		r.VirtualStages = int(pf.virtualStages)
	}
	if in.CP > 1 {
		r.CP = in.CP
	}
	r.GradCheckpointing, r.Offload = in.GradCheckpointing, in.Offload
	r.Replicas, r.InstancesPerReplica = 1, s.instances
	r.TokensPerSecond = tps
	r.OptimizerSteps = tokens / pf.tokensPerStep
	// The instances start and load the model before the first step, on
	// every instance rented (startUpSeconds), as a batch job's do: a
	// fleet of 64 instances for a job of minutes was priced as if it
	// trained from the moment it was rented, and came out the cheapest
	// way to fine-tune 70B on 1B tokens.
	// The whole run: the steps over the goodput its GPUs keep through
	// interruptions, restarts and checkpoints (estimator.RunSeconds, at
	// the user's Assumptions.Goodput or TrainGoodput's estimate, as
	// rightsize estimate's job_seconds_with_overhead).
	r.Goodput = p.req.Assumptions.Goodput
	if !(r.Goodput > 0) {
		r.Goodput = estimator.TrainGoodput(in.GPUs)
	}
	r.JobSeconds = estimator.Finite(p.startUpSeconds() + estimator.RunSeconds(tokens/tps, r.Goodput))
}

// trainMoney prices the training row on o.
func (p *planner) trainMoney(o *Offer, r *Row) {
	p.spotTraining(o, r, r.Instances)
	p.jobMoney(r)
	r.TokensPerUSD = estimator.Finite(p.req.Workload.TrainTokens / r.cost)
}

// jobMoney fills the job's cost fields from JobSeconds, the job's time
// without interruptions: job cost = instances × hourly price × billed
// hours (docs/planning.md; the whole instance is billed even where the
// plan leaves GPUs idle), the hours each instance is billed for the job's
// time (BilledHours). On spot the ranking uses the expected cost and time
// (SpotExpectedCostUSD, SpotExpectedSeconds), which exceed them.
func (p *planner) jobMoney(r *Row) {
	inst := float64(r.Rented())
	if od, ok := p.usd(r.Offer, p.vat(r.Offer, r.Offer.OnDemandPerHour)); ok && od > 0 {
		r.OnDemandJobCostUSD = estimator.Finite(inst * od * BilledHours(r.Offer, OnDemand, r.JobSeconds))
	}
	r.GPUHours = r.GPUs * r.JobSeconds / 3600
	r.BilledHours = BilledHours(r.Offer, r.Pricing, r.JobSeconds)
	r.JobCost = estimator.Finite(inst * r.PricePerHour * r.BilledHours)
	r.JobCostUSD = r.billUSD(r.JobSeconds)
	r.JobCostDisp = p.display(r.JobCostUSD)
	r.cost, r.time = r.JobCostUSD, r.JobSeconds
	if r.Pricing == Spot && r.SpotExpectedSeconds > 0 {
		r.cost, r.time = r.SpotExpectedCostUSD, r.SpotExpectedSeconds
	}
}

// billUSD is the bill, in US dollars, of r's instances at r's price for
// a run of seconds: instances rented (Row.Rented) × hourly price × billed
// hours (docs/planning.md, BilledHours). The job's cost (jobMoney) and
// the all-GPU alternative of a row with idle GPUs (idleNote) both read it.
func (r *Row) billUSD(seconds float64) float64 {
	return estimator.Finite(float64(r.Rented()) * r.PricePerHourUSD * BilledHours(r.Offer, r.Pricing, seconds))
}

// BilledHours is the hours a provider bills one instance of o for a run of
// seconds under pricing: the run rounded up to the offer's billing unit
// (BillingGranularity: an hourly-billed instance that runs ten minutes
// pays the hour), and no less than its documented minimum
// (BillingMinimumSeconds); a plan sold only by the month (monthlyOnly)
// pays whole months on demand. Reserved prices bill the commitment by its
// term whatever the job uses (reserved), so a job's share of one is its
// own hours. An offer whose source does not state its granularity is
// billed by the exact time (per second), as the catalog cannot say more;
// its cost may then be low by up to one unit of the provider's billing
// (a serving fleet's start-ups, billedHours, take the hour instead).
// Training and batch job costs on the CLI, in its JSON and on the page
// all come from here.
func BilledHours(o *Offer, pricing Pricing, seconds float64) float64 {
	if !(seconds > 0) {
		return 0
	}
	if pricing == Reserved1y || pricing == Reserved3y {
		return seconds / 3600
	}
	unit := billingUnitSeconds(o.BillingGranularity)
	if pricing == OnDemand && monthlyOnly(o) {
		unit = billingUnitSeconds("month")
	}
	return math.Max(roundUpTo(seconds, unit), o.BillingMinimumSeconds) / 3600
}

// billingUnitSeconds is the unit an offer billed at granularity g pays
// by, in seconds (catalog.Offer.BillingGranularity); 0 when g is "", the
// source not saying.
func billingUnitSeconds(g string) float64 {
	switch g {
	case "second":
		return 1
	case "minute":
		return 60
	case "hour":
		return 3600
	case "month":
		return HoursPerMonth * 3600
	}
	return 0
}

// roundUpTo is s seconds in whole units of unit seconds, or s itself when
// unit is 0; the 1e-9 keeps a run of exactly n units at n.
func roundUpTo(s, unit float64) float64 {
	if !(unit > 0) {
		return s
	}
	return math.Ceil(s/unit-1e-9) * unit
}

// monthlyOnly reports whether o is sold only by the month (a subscription
// plan: Paperspace's "A100 monthly" at $1994 / month, OVHcloud's monthly
// flavours): its hourly price is MonthlyPrice / HoursPerMonth, so a job of
// a few hours pays the month, not those hours of it.
func monthlyOnly(o *Offer) bool { return o.OnDemandPerHour == 0 && o.MonthlyPrice > 0 }

// spotTraining is the expected time and cost of the job on spot instances
// that are reclaimed as a Poisson process, checkpointing at the optimum
// interval. Daly (2006), "A higher order estimate of the optimum
// checkpoint interval for restart dumps", FGCS 22(3): with mean time
// between interruptions M, checkpoint write δ, restart R and work T_s,
// T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ, at
// τ = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))] − δ for δ < 2M
// (τ = M beyond); Young (1974) is its first term. Any of n instances
// being reclaimed stops the job, so M = 730 h / (n × monthly share).
// Sharded checkpoints are written by every instance at once.
func (p *planner) spotTraining(o *Offer, r *Row, n int) {
	if !(o.SpotPerHour > 0) {
		return
	}
	m, rate, restart := p.spotParams(o, r, n)
	delta := p.ckpt / (float64(n) * rate)
	tau := dalyInterval(delta, m)
	if !math.IsInf(tau, 1) {
		r.CheckpointIntervalSeconds = tau
	}
	p.spotCost(o, r, n, dalyWallTime(r.JobSeconds, tau, delta, restart, m))
}

// dalyInterval is Daly's higher-order optimum checkpoint interval for
// checkpoint time delta and mean time between interruptions m (seconds).
func dalyInterval(delta, m float64) float64 {
	if math.IsInf(m, 1) || !(delta > 0) {
		return math.Inf(1)
	}
	if delta >= 2*m {
		return m
	}
	x := delta / (2 * m)
	return math.Sqrt(2*delta*m)*(1+math.Sqrt(x)/3+x/9) - delta
}

// dalyWallTime is Daly's expected wall time for ts seconds of work,
// checkpointing every tau seconds: M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ.
// Without interruptions it is ts plus the checkpoints' own time.
func dalyWallTime(ts, tau, delta, restart, m float64) float64 {
	if math.IsInf(m, 1) || !(m > 0) {
		if math.IsInf(tau, 1) {
			return ts
		}
		return ts * (1 + delta/tau)
	}
	if math.IsInf(tau, 1) || !(tau > 0) {
		return ts * math.Exp(restart/m)
	}
	return m * math.Exp(restart/m) * math.Expm1((tau+delta)/m) * ts / tau
}

// spotParams returns M (seconds), the checkpoint write rate and the
// restart time.
func (p *planner) spotParams(o *Offer, r *Row, n int) (m, writeRate, restart float64) {
	a := p.req.Assumptions
	month := a.SpotInterruptionsPerMonth
	if month == 0 {
		var known bool
		month, known = SpotInterruptionsPerMonth(o.SpotInterruption)
		// Said only of a spot plan: an on-demand job's spot figures are
		// a side column, and the note read as a caveat on its answer.
		if !known && p.req.Pricing == Spot && !p.noted(MsgNoteSpotDefaultRate) {
			p.note(Reason{Key: MsgNoteSpotDefaultRate, Args: []any{100 * month}})
		}
	}
	r.SpotInterruptionsPerMonth = month
	m = math.Inf(1)
	if month > 0 {
		m = HoursPerMonth * 3600 / (float64(n) * month)
	}
	writeRate = a.CheckpointWriteBytesPerSecond
	if writeRate == 0 {
		writeRate = DefaultCheckpointWriteBytesPerSecond
	}
	return m, writeRate, p.startUpSeconds()
}

func (p *planner) spotCost(o *Offer, r *Row, n int, seconds float64) {
	spot, ok := p.usd(o, p.vat(o, o.SpotPerHour))
	if !ok {
		return
	}
	r.SpotExpectedSeconds = estimator.Finite(seconds)
	// The expected wall time is billed as one run (BilledHours). Each
	// reclaim ends a run and the next one is billed afresh, which adds
	// nothing on per-second billing and up to one unit per reclaim on
	// coarser units: that is not counted, so the expected cost of a spot
	// job billed by the hour is low by up to an hour per reclaim.
	// n instances run the job (and are reclaimed); o.Rented(n) are paid.
	r.SpotExpectedCostUSD = estimator.Finite(float64(o.Rented(n)) * spot * BilledHours(o, Spot, seconds))
}

// reserved fills the break-even utilisation of the request's reservation
// (or of the 1-year one, else the 3-year one, when pricing on demand or
// spot): the commitment is
// paid for every hour, so it wins when the share of hours used exceeds
// u* = r/o (docs/planning.md, "Reserved and committed prices"); the monthly
// commitment is r × 730 per instance.
func (p *planner) reserved(o *Offer, r *Row) {
	rate, years := o.Reserved1yPerHour, 1
	if r.Pricing == Reserved3y || (r.Pricing != Reserved1y && rate == 0) {
		rate, years = o.Reserved3yPerHour, 3
	}
	rate = p.vat(o, rate)
	od := p.vat(o, o.OnDemandPerHour)
	if !(rate > 0) {
		return
	}
	r.ReservedTermYears = years
	if od > 0 {
		r.ReservedBreakEvenUtilisation = rate / od
	}
	if usd, ok := p.usd(o, rate); ok {
		r.ReservedMonthlyCommitmentUSD = usd * HoursPerMonth * float64(max(r.Rented(), 1))
		// The whole term is billed, used or not: 12 × years months.
		r.ReservedCommitmentUSD = r.ReservedMonthlyCommitmentUSD * 12 * float64(years)
	}
	if r.Pricing == Reserved1y || r.Pricing == Reserved3y {
		// The commitment in full beside the job's share of it: a 2.4-hour
		// job on a 3-year reservation is cheap only for someone who uses
		// the rest of the term (break-even: the reserved-to-on-demand
		// price ratio of the hours, docs/planning.md).
		cur := p.req.currency()
		args := []any{Money{Amount: p.display(r.ReservedCommitmentUSD), Currency: cur}, strconv.Itoa(years),
			Money{Amount: p.display(r.ReservedMonthlyCommitmentUSD), Currency: cur, PerMonth: true}}
		if od > 0 {
			r.Notes = append(r.Notes, Reason{Key: MsgNoteReservedCommitment, Args: append(args, 100*r.ReservedBreakEvenUtilisation)})
		} else {
			r.Notes = append(r.Notes, Reason{Key: MsgNoteReservedTerm, Args: args})
		}
	}
}

// Host sizing rules from the users' guides (DOMAIN.md, "Multi-GPU"):
// training wants ≥ 8 CPU cores and ≥ 64 GB RAM per high-end GPU;
// inference 2–4 cores and 8–16 GB per GPU (the lower ends are checked).
const (
	trainVCPUsPerGPU = 8
	trainRAMGBPerGPU = 64
	inferVCPUsPerGPU = 2
	inferRAMGBPerGPU = 8
)

// hostKey is what the soft host rules look at.
type hostKey struct {
	vcpus     int
	ram, gpus float64
}

// hostCheck applies the host rules. Offloaded state that does not fit in
// host RAM is a hard failure; the sizing rules are soft (and their
// verdict is shared by offers of the same host shape).
func (p *planner) hostCheck(o *Offer, r *Row) {
	gpus := math.Max(o.GPUCount, 1)
	if need := r.HostOffloadGiB; need > 0 {
		if o.RAMGiB == 0 {
			// Hundreds of GiB offloaded (788 GiB for a 70B optimizer)
			// are not a bet on an unlisted host.
			r.Host = HostCheck{Status: HostFail, Reason: Reason{Key: MsgHostOffloadUnlisted, Args: []any{need}}}
			return
		}
		if need > o.RAMGiB {
			r.Host = HostCheck{Status: HostFail, Reason: Reason{Key: MsgHostOffloadRAM, Args: []any{need, o.RAMGiB}}}
			return
		}
	}
	if o.VCPUs == 0 || o.RAMGiB == 0 {
		r.Host = HostCheck{Status: HostUnknown, Reason: Reason{Key: MsgHostUnknown}}
		return
	}
	cpu, ram := float64(inferVCPUsPerGPU), float64(inferRAMGBPerGPU)
	if p.req.Workload.Kind == Training {
		cpu, ram = trainVCPUsPerGPU, trainRAMGBPerGPU
	}
	perCPU := float64(o.VCPUs) / gpus
	perRAM := o.RAMGiB * float64(estimator.GiB) / float64(estimator.GB) / gpus
	if !(perCPU < cpu) && !(perRAM < ram) {
		r.Host = HostCheck{Status: HostOK, Reason: Reason{Key: MsgHostOK}}
		return
	}
	// A warning's arguments are built once per host shape.
	k := hostKey{o.VCPUs, o.RAMGiB, gpus}
	if h, ok := p.hostWarn[k]; ok {
		r.Host = h
		return
	}
	short := perCPU < inferVCPUsPerGPU || perRAM < inferRAMGBPerGPU
	if perCPU < cpu {
		r.Host = HostCheck{HostWarn, Reason{Key: MsgHostFewVCPUs, Args: []any{perCPU, cpu}}, short}
	} else {
		r.Host = HostCheck{HostWarn, Reason{Key: MsgHostLittleRAM, Args: []any{o.RAMGiB / gpus, ram * float64(estimator.GB) / float64(estimator.GiB)}}, short}
	}
	if p.hostWarn == nil {
		p.hostWarn = make(map[hostKey]HostCheck, 64)
	}
	p.hostWarn[k] = r.Host
}
