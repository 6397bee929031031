package estimator

// TrainLayout is the memory layout ResolveTrainDefaults chose for the
// settings the user left open, and why.
type TrainLayout struct {
	// ZeROChosen and ScheduleChosen say which settings the resolver
	// chose: the ZeRO stage (the user gave none and pre-training shards
	// by default, ZeRODefault) and the pipeline schedule (no
	// Schedule.VirtualStages and pre-training interleaves by default,
	// DefaultVirtualStages).
	ZeROChosen, ScheduleChosen bool
	// ZeRO is the stage the job runs with, VirtualStages the model
	// chunks per pipeline stage (1: plain 1F1B).
	ZeRO, VirtualStages int
	// Fits: the chosen layout fits; Peak and Usable are its memory per
	// GPU (zero when nothing was left to choose).
	Fits         bool
	Peak, Usable Bytes
	// Tried is the layouts tried before the chosen one, in order, each
	// of which needs more than Usable; empty when the first default
	// fits, or when none does (the defaults then stand and the job does
	// not fit).
	Tried []LayoutTry
}

// LayoutTry is one layout ResolveTrainDefaults tried and found too large.
type LayoutTry struct {
	ZeRO, VirtualStages int
	Peak                Bytes
}

// ResolveTrainDefaults is in with the layout settings the user left open
// chosen as the common stacks would run the job, the first that fits:
// the one judge of these defaults for the CLI, the page and the planner.
// zeroOpen says the user gave no ZeRO stage; the schedule is open when
// in.Schedule.VirtualStages is 0. Only pre-training has open settings
// (ZeRODefault, DefaultVirtualStages); other jobs come back unchanged,
// without an estimate. The search runs only when both are open: a stage
// or a schedule the user gave wins, the other keeps its plain default,
// and the estimate says whether that fits (FitsWith when not).
//
// The ZeRO stages tried, lowest first: 1, Megatron-Core's distributed
// optimizer (NeMo 2.0 and Megatron-Bridge recipes, ZeRODefault); then 2,
// the sharding of the FSDP stacks that pipeline: Llama 3's FSDP sharded
// "the model, optimizer, and gradients" (Dubey et al. 2024, §3.3.2) over
// a TP 8 × PP 16 pipeline, and torchtitan's FSDP2 keeps a stage's
// parameters gathered from forward to backward when pipelining
// (torchtitan models/llama3/infra/parallelize.py, apply_fsdp:
// reshard_after_forward = not pp_enabled, "to avoid per-microbatch
// all-gathers"), so with PP > 1 they hold no less than ZeRO 2 counts;
// without pipeline stages 3 as well, torchtitan's FSDP2 (resharded
// after the forward pass) and llm-foundry's FULL_SHARD. The schedule:
// interleaved (DefaultVirtualStages; the bubble shrinks v-fold,
// Narayanan et al. 2021 §2.2.2), then plain 1F1B, whose warm-up holds
// fewer micro-batches (stageInflight). The schedule is the outer choice:
// ZeRO 2's time is ZeRO 1's (both move 2Ψ a step, Rajbhandari et al. 2020
// §7; trainPerf) while plain 1F1B idles v times longer (Llama 3.1 405B on
// 16,384 H100s: 36.1M GPU-hours interleaved at ZeRO 2, 57.3M under 1F1B
// at ZeRO 1). A job none of them fits keeps the first defaults (the
// estimate then says it does not fit, with FitsWith). Settings the user
// gave are kept as given.
func ResolveTrainDefaults(in Input, zeroOpen bool) (Input, TrainLayout) {
	lay := TrainLayout{ZeRO: in.ZeRO, VirtualStages: in.Schedule.VirtualStages}
	if in.Task != Pretrain {
		return in, lay
	}
	zs, nz := [3]int{in.ZeRO}, 1
	if z := ZeRODefault(in); zeroOpen && z != in.ZeRO {
		zs, nz = [3]int{z, 2, 3}, 3
		if in.PP > 1 {
			nz = 2 // FSDP with pipeline stages keeps its parameters gathered: ZeRO 2
		}
		lay.ZeROChosen = true
	}
	if !zeroOpen || in.Schedule.VirtualStages != 0 {
		// One of them given: the user's layout, judged as given with
		// the other's plain default (a replay of a run's stage or
		// schedule is not second-guessed).
		in.ZeRO, lay.ZeRO = zs[0], zs[0]
		return in, lay
	}
	vs, nv := [2]int{in.Schedule.VirtualStages}, 1
	if in.PP > 1 {
		if _, v := TrainSchedule(in, in.Schedule.workload()); v > 1 {
			vs, nv = [2]int{0, 1}, 2 // 0: the default, interleaved
			lay.ScheduleChosen = true
		}
	}
	in.ZeRO = zs[0]
	if nz*nv == 1 {
		lay.ZeRO = in.ZeRO
		return in, lay
	}
	var tried [6]LayoutTry
	n := 0
	for _, v := range vs[:nv] {
		for _, z := range zs[:nz] {
			c := in
			c.ZeRO, c.Schedule.VirtualStages = z, v
			r, err := Estimate(c)
			if err != nil {
				return in, lay // Estimate reports it to the caller
			}
			_, ran := TrainSchedule(c, c.Schedule.workload())
			if r.Fits {
				lay.ZeRO, lay.VirtualStages, lay.Fits, lay.Peak, lay.Usable = z, ran, true, r.Peak, r.Usable
				if n > 0 {
					lay.Tried = append([]LayoutTry(nil), tried[:n]...)
				}
				return c, lay
			}
			if n == 0 {
				lay.ZeRO, lay.VirtualStages, lay.Peak, lay.Usable = z, ran, r.Peak, r.Usable
			}
			tried[n] = LayoutTry{z, ran, r.Peak}
			n++
		}
	}
	in.Schedule.VirtualStages = vs[0]
	return in, lay
}
