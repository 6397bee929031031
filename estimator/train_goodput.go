package estimator

// Training goodput: the share of a run's wall time its GPUs spend in
// training steps. The step model (trainPerf) prices steady-state steps
// only; a whole run also loses time to job interruptions, restarts from
// the last checkpoint, checkpoint writes and maintenance, which published
// GPU-hour figures of whole runs include (Meta's model cards: "Training
// time is the total GPU time required for training each model").

// llama3EffectiveTime is the effective training time Llama 3 405B's
// pre-training kept on 16,384 H100s: "higher than 90% effective training
// time while supporting automated cluster maintenance" over a 54-day
// snapshot with 466 job interruptions, 47 planned and 419 unexpected
// (Llama Team 2024, "The Llama 3 Herd of Models", arXiv:2407.21783,
// §3.3.4 and Table 5), and llama3Scale the GPUs it held for it.
const (
	llama3EffectiveTime = 0.90
	llama3Scale         = 16384
)

// minGoodput bounds TrainGoodput far beyond the GPU count it is sourced
// at: a run that lost more than half its time would change its
// checkpointing, which this does not model.
const minGoodput = 0.5

// TrainGoodput is the share of a training run's wall time spent in
// training steps on gpus GPUs when the user names none: 1 − 10% ×
// gpus / 16,384. The 10% is the time Llama 3's 16,384-GPU pre-training
// did not spend training (§3.3.4: more than 90% effective; an upper bound
// on the loss, so this overhead is on the generous side); it is taken in
// proportion to the GPUs because the interruptions that cost it are
// mostly hardware failures, which come in proportion to the hardware:
// "approximately 78% of the unexpected interruptions are attributed to
// confirmed hardware issues", GPU issues alone 58.7% (Table 5), while
// each costs a restart and the work since the last checkpoint whatever
// the job's size. An estimate, from one published run: 0.9875 on 2,048
// GPUs, 0.99994 on one; at least minGoodput. The step model's
// GPU-hours (GPUHours) leave it out; GPUHoursWithOverhead divides by it.
func TrainGoodput(gpus int) float64 {
	if gpus <= 0 {
		return 1
	}
	return max(minGoodput, 1-(1-llama3EffectiveTime)*float64(gpus)/llama3Scale)
}

// RunSeconds is the wall time of a run whose training steps take steps
// seconds at goodput g (TrainGoodput, or the user's): steps / g, the run
// with its interruptions, restarts and checkpoints. 0 when g is not in
// (0, 1]. The one function behind the CLI's job_seconds_with_overhead,
// the page's whole run and the planner's training job time.
func RunSeconds(steps, g float64) float64 {
	if !(g > 0 && g <= 1) || !(steps > 0) {
		return 0
	}
	return finite(steps / g)
}

// JobTimeWithOverhead is JobTime over the goodput g (RunSeconds).
func JobTimeWithOverhead(p Perf, tokens, g float64) float64 {
	return RunSeconds(JobTime(p, tokens), g)
}

// GPUHoursWithOverhead is GPUHours over the goodput g: the GPU time a
// whole run holds, as published whole-run figures count it.
func GPUHoursWithOverhead(p Perf, tokens, g float64) float64 {
	return finite(float64(p.GPUs) * JobTimeWithOverhead(p, tokens, g) / 3600)
}

// TrainRun is a training job's time and GPU-hours, its steps' alone and
// the whole run's at its goodput.
type TrainRun struct {
	Goodput                                   float64 // the share of wall time in training steps
	Seconds, GPUHours                         float64 // the steps' (JobTime, GPUHours)
	SecondsWithOverhead, GPUHoursWithOverhead float64 // the whole run's (RunSeconds)
}

// TrainRunOf is p's run of tokens at goodput g, or at TrainGoodput of
// p's GPUs when g is 0: what the CLI's estimate and the page report.
func TrainRunOf(p Perf, tokens, g float64) TrainRun {
	if g == 0 {
		g = TrainGoodput(p.GPUs)
	}
	return TrainRun{Goodput: g, Seconds: JobTime(p, tokens), GPUHours: GPUHours(p, tokens),
		SecondsWithOverhead: JobTimeWithOverhead(p, tokens, g), GPUHoursWithOverhead: GPUHoursWithOverhead(p, tokens, g)}
}
