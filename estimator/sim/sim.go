package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"

	"rightsize/estimator"
)

// Load is the traffic: a closed loop (Concurrency > 0: Requests requests,
// at most Concurrency in flight, the next sent when one completes, all of
// the first Concurrency at time 0, as `vllm bench serve --request-rate inf
// --max-concurrency C` and the InferenceX client run) or an open loop
// (Concurrency 0: Requests arrivals of a Poisson process at
// RatePerSecond, drawn from a generator seeded with Seed).
type Load struct {
	Requests      int
	Concurrency   int
	RatePerSecond float64
	Seed          uint64
	// PromptTokens and OutputTokens of a request (OutputTokens ≥ 1): with
	// RangeRatio r in (0, 1), each request draws its lengths uniformly
	// from [r·L, L], as the random-dataset client of vLLM's
	// benchmark_serving.py does with --random-range-ratio r (the version
	// InferenceX runs, with r = 0.8: its benchmark-tmpl.yml
	// RANDOM_RANGE_RATIO); 0 or 1: every request has exactly these
	// lengths.
	PromptTokens, OutputTokens int
	RangeRatio                 float64
	// FirstWaveSeconds (closed loop only) delays the first Concurrency
	// requests' arrival at the scheduler: a benchmark's cold first wave,
	// the batch of distinct prompts a warm-up of copies of one prompt
	// (benchmark_serving.py's --num-warmups) never ran. It adds to their
	// TTFT and end-to-end time and to the run's duration, not to their
	// queue, and moves the mean TTFT by about FirstWaveSeconds ×
	// Concurrency / Requests, the p99 and the max by about
	// FirstWaveSeconds, the median not at all. 0: none.
	FirstWaveSeconds float64
}

// SLO bounds a request's latency for goodput; a zero field is no bound.
// Replicas sizes a deployment on the bounds at Stat over the requests
// (p95 by default).
type SLO struct {
	TTFTSeconds, TPOTSeconds float64
	Stat                     Stat
}

// Config is one simulation: the replica's step model, its engine's
// scheduler, the traffic and the SLO.
type Config struct {
	Model  *estimator.ServingModel
	Policy Policy
	Load   Load
	SLO    SLO
	// KVTokens is the KV pool in tokens; 0: Model.KVPoolTokens().
	KVTokens int64
	// SkipQueue leaves Result.Queue zero: a caller that does not read it
	// (the planner sizes replicas by TTFT, TPOT and end-to-end time)
	// spares its sort, about a tenth of a short run.
	SkipQueue bool
	// E2EMeanOnly leaves Result.E2E's percentiles and maximum zero and
	// sets its mean alone (summed in request order, not in sorted order
	// as dist sums it: the same figure to its last bits): the planner
	// reads no other, and is spared a third of the run's sorting.
	E2EMeanOnly bool
	// maxEvents, when > 0, bounds the run's scheduler events (Bench).
	maxEvents int64
	// plain, when set (tests), runs the scheduler loop without its
	// shortcuts (decodeRunPlain, no decode-step table), which must give
	// the same run.
	plain bool
}

// Dist is a latency distribution over the completed requests, in seconds:
// the mean and percentiles by linear interpolation between order
// statistics (numpy's default, which `vllm bench serve` reports).
type Dist struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// Limit is what held waiting requests back.
type Limit int

const (
	LimitNone    Limit = iota // nothing waited
	LimitSeqs                 // the running-sequence cap (Policy.MaxSeqs)
	LimitKV                   // the KV pool
	LimitTokens               // the step's token budget (prefill throughput)
	LimitPolling              // new requests taken in only every Policy.AdmitEvery steps, or held for the attention-DP balance (Policy.BalanceRanks)
)

var limitNames = [...]string{"none", "max-seqs", "kv-cache", "token-budget", "admission-interval"}

// MarshalText writes l's String, so JSON carries the name.
func (l Limit) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// String returns "none", "max-seqs", "kv-cache", "token-budget" or
// "admission-interval".
func (l Limit) String() string {
	if l < 0 || int(l) >= len(limitNames) {
		return "Limit(" + strconv.Itoa(int(l)) + ")"
	}
	return limitNames[l]
}

// Result is a simulated run. Every float field is finite and ≥ 0.
type Result struct {
	Requests int `json:"requests"` // completed requests (Load.Requests)
	// TTFT is the client's time to first token (send to first token: the
	// fixed cost, the queue, the prefill); TPOT is (E2E − TTFT)/(output −
	// 1) per request, as benchmark clients compute it; E2E is send to last
	// token; Queue is the wait at the engine between arrival and the
	// first step that schedules the request.
	TTFT  Dist `json:"ttft_seconds"`
	TPOT  Dist `json:"tpot_seconds"`
	E2E   Dist `json:"e2e_seconds"`
	Queue Dist `json:"queue_seconds"`
	// DurationSeconds is from the first send to the last token.
	DurationSeconds float64 `json:"duration_seconds"`
	// Throughput over the run: completed requests/s, generated tokens/s,
	// prompt + generated tokens/s.
	RequestsPerSecond     float64 `json:"requests_per_second"`
	OutputTokensPerSecond float64 `json:"output_tokens_per_second"`
	TotalTokensPerSecond  float64 `json:"total_tokens_per_second"`
	// GoodputRequestsPerSecond counts the requests meeting the SLO;
	// SLOAttainment is their share.
	GoodputRequestsPerSecond float64 `json:"goodput_requests_per_second"`
	SLOAttainment            float64 `json:"slo_attainment"`
	// MeanRunning is the time-weighted mean of requests running on the
	// engine; Steps the engine steps; Preemptions the requests preempted
	// (and recomputed) when the KV pool ran out.
	MeanRunning float64 `json:"mean_running"`
	Steps       int     `json:"steps"`
	Preemptions int     `json:"preemptions"`
	// Limit is what held the waiting requests back for the longest time.
	Limit Limit `json:"limit"`
	// events is the scheduler iterations the run took (arrivals, steps
	// and runs of decode-only steps, preemptions): the simulation's own
	// work, which Fit budgets.
	events int64
}

const (
	maxRequests = 1 << 20
	maxRate     = 1e9
)

// request states
const (
	stPending = iota // not yet at the scheduler
	stWaiting
	stPrefill
	stDecode
	stDone
)

type request struct {
	send, arrive float64 // client send; arrival at the scheduler (send + RequestSeconds, + Load.FirstWaveSeconds in a closed loop's first wave)
	sched, first float64 // first scheduled; first token
	finish       float64
	prompt, out  int    // the request's lengths
	target, done int    // tokens to prefill (prompt, + generated after a preemption) and prefilled
	gen          int    // tokens generated when it joined the decoding set
	k0, fin      int64  // decode counter at the join, and at the last token
	step         int64  // the engine's step count when it reached the scheduler
	epoch        int32  // bumps on preemption: heap entries of older epochs are stale
	rank         uint16 // its attention-DP rank (Policy.BalanceRanks > 1)
	state        uint8
	scheduled    bool
}

type heapEntry struct {
	fin   int64
	idx   int32
	epoch int32
}

// Run simulates cfg. It returns an *estimator.InputError for an invalid
// load, policy or model (the model's own error as it is).
func Run(cfg Config) (Result, error) {
	var s state
	b := getBufs()
	defer b.put(&s)
	if err := s.init(cfg, b); err != nil {
		return Result{}, err
	}
	if err := s.run(); err != nil {
		return Result{events: s.events}, err
	}
	return s.result(cfg.SLO, b), nil
}

// runBufs are a run's per-request arrays, kept for the next run: a plan
// simulates hundreds of short runs, whose arrays were most of its
// allocations. Nothing of them outlives the run (Result holds values).
type runBufs struct {
	reqs                         []request
	waiting, running, prefilling []int32
	heap                         []heapEntry
	plan                         []chunk
	ranks                        []rankLoad
	times                        []float64 // result's four distributions
	// pcg, re-seeded by each run, is the source of rng (a Rand holds no
	// state of its own beyond its source): the open loop's draws.
	pcg rand.PCG
	rng *rand.Rand
}

var bufPool = sync.Pool{New: func() any { return new(runBufs) }}

// maxPooledRequests bounds the runs whose arrays go back to the pool: a
// rare run of a million requests does not keep its 100 MB.
const maxPooledRequests = 1 << 16

func getBufs() *runBufs { return bufPool.Get().(*runBufs) }

// put takes back the arrays s grew and returns them to the pool.
func (b *runBufs) put(s *state) {
	if cap(s.reqs) > maxPooledRequests {
		return
	}
	b.reqs, b.waiting, b.running, b.prefilling, b.heap, b.plan = s.reqs[:0], s.waiting[:0], s.running[:0], s.prefilling[:0], s.heap[:0], s.plan[:0]
	b.ranks = s.ranks[:0]
	bufPool.Put(b)
}

func checkLoad(l Load) error {
	bad := func(field string, v int, reason string) error {
		return &estimator.InputError{Field: field, Value: itoa(v), Reason: reason, Err: estimator.ErrRange}
	}
	switch {
	case l.Requests < 1 || l.Requests > maxRequests:
		return bad("num-requests", l.Requests, "want 1..1048576")
	case l.Concurrency < 0 || l.Concurrency > maxRequests:
		return bad("concurrency", l.Concurrency, "want 0..1048576 (0: open loop at --rate)")
	case l.Concurrency == 0 && !(l.RatePerSecond > 0 && l.RatePerSecond <= maxRate):
		return &estimator.InputError{Field: "rate", Value: ftoa(l.RatePerSecond), Reason: "an open loop needs requests/s in (0, 1e9]", Err: estimator.ErrRange}
	case l.PromptTokens < 1 || l.PromptTokens > 1<<24:
		return bad("prompt-tokens", l.PromptTokens, "want 1..16777216")
	case l.OutputTokens < 1 || l.OutputTokens > 1<<24:
		return bad("output-tokens", l.OutputTokens, "want 1..16777216")
	case !(l.RangeRatio >= 0 && l.RangeRatio <= 1):
		return &estimator.InputError{Field: "range-ratio", Value: ftoa(l.RangeRatio), Reason: "want a share in [0, 1]", Err: estimator.ErrRange}
	case !(l.FirstWaveSeconds >= 0 && l.FirstWaveSeconds <= 3600):
		return &estimator.InputError{Field: "first-wave-seconds", Value: ftoa(l.FirstWaveSeconds), Reason: "want seconds in [0, 3600]", Err: estimator.ErrRange}
	}
	return nil
}

// maxSLOSeconds bounds an SLO's TTFT and TPOT, as the planner's
// --ttft-p95 and --tpot durations are bounded (0 to 10^9 s).
const maxSLOSeconds = 1e9

// checkSLO: each bound is seconds from 0 (none) to maxSLOSeconds. A NaN
// or negative bound was met by no request, and the run's goodput read 0%
// without a word of why.
func checkSLO(s SLO) error {
	for _, b := range []struct {
		field string
		v     float64
	}{{"slo-ttft", s.TTFTSeconds}, {"slo-tpot", s.TPOTSeconds}} {
		if !(b.v >= 0 && b.v <= maxSLOSeconds) {
			return &estimator.InputError{Field: b.field, Value: ftoa(b.v), Reason: "want seconds from 0 (none) to 1e9", Err: estimator.ErrRange}
		}
	}
	return nil
}

// state is one run in progress.
type state struct {
	m    *estimator.ServingModel
	p    Policy
	load Load
	reqs []request
	cap  float64 // KV pool tokens

	t float64 // simulated time
	// recv is SGLang's receive-skipper counter (Policy.RecvSkip): the
	// weight of the forwards since the scheduler last took requests in.
	recv int64
	k    int64 // decode steps so far (every decoding request gains one token per decode step)

	// The reserve share (Policy.ReserveOutput) as it decays: ratio0 at
	// decode step ratioK (Policy.ReserveDecaySteps).
	ratio0 float64
	ratioK int64

	pending    int // next request to deliver to the scheduler (arrivals are in send order)
	sent       int // requests sent by the client
	waiting    []int32
	wHead      int
	running    []int32 // admission order; finished entries are dropped lazily
	prefilling []int32 // admission order
	heap       []heapEntry
	// heapHead is the first live entry of heap while heapSorted: then
	// heap[heapHead:] is in order of fin (a queue), otherwise heap is a
	// binary heap and heapHead 0 (push).
	heapHead   int
	heapSorted bool

	nRun                 int     // running requests (prefilling + decoding)
	nDec                 int     // decoding requests
	decBase              float64 // Σ over decoding of (context at join − k0): their context is decBase + nDec·k
	finSum               float64 // Σ over decoding of fin: their remaining output is finSum − nDec·k
	prefHeld, prefOutSum float64 // Σ over prefilling of prefilled tokens and of remaining output

	finished    int
	steps       int
	events      int64 // iterations of run's loop
	maxEvents   int64 // Config.maxEvents
	plain       bool  // Config.plain
	skipQueue   bool  // Config.SkipQueue
	e2eMean     bool  // Config.E2EMeanOnly
	preemptions int
	runArea     float64    // ∫ running dt
	blocked     [5]float64 // seconds the head of the queue waited, by Limit
	plan        []chunk    // this step's prompt chunks
	eos         []float64  // Policy.IgnoreEOSAdmit's walk (eosAdmits' keys)
	// The attention-DP ranks (Policy.BalanceRanks > 1): each one's
	// requests, how many ranks hold a waiting request, how many hold
	// waiting requests and none running, and the step at which the
	// balance's iteration counter last restarted.
	ranks                   []rankLoad
	ranksWaiting, ranksCold int
	balanceFrom             int
	rng                     *rand.Rand  // open loop
	stepMemo                stepMemoKey // last decode-only step time
	stepMemoVal             float64
	decodeCalls             int        // decode-only steps computed before the table
	table                   []stepSlot // decodeStep's table of a long run
	tableBits               int
}

type chunk struct {
	idx    int32
	tokens int
}

type stepMemoKey struct {
	n   int
	ctx float64
}

func (s *state) init(cfg Config, b *runBufs) error {
	if cfg.Model == nil {
		return &estimator.InputError{Field: "model", Value: "nil", Reason: "no serving model", Err: estimator.ErrIncompatible}
	}
	if err := cfg.Model.Err(); err != nil {
		return err
	}
	if err := cfg.Policy.validate(); err != nil {
		return err
	}
	if err := checkLoad(cfg.Load); err != nil {
		return err
	}
	if err := checkSLO(cfg.SLO); err != nil {
		return err
	}
	if in := cfg.Model.Input(); in.Task.Training() {
		return &estimator.InputError{Field: "task", Value: in.Task.String(), Reason: "the simulator serves inference", Err: estimator.ErrIncompatible}
	}
	s.m, s.p, s.load, s.maxEvents, s.plain, s.skipQueue, s.e2eMean = cfg.Model, cfg.Policy, cfg.Load, cfg.maxEvents, cfg.plain, cfg.SkipQueue, cfg.E2EMeanOnly
	s.ratio0 = cfg.Policy.ReserveOutput
	s.cap = float64(cfg.KVTokens)
	if cfg.KVTokens <= 0 {
		s.cap = float64(cfg.Model.KVPoolTokens())
	}
	l := cfg.Load
	if need := float64(l.PromptTokens + l.OutputTokens); !(need <= s.cap) {
		return &estimator.InputError{Field: "prompt-tokens", Value: itoa(l.PromptTokens),
			Reason: "a request of prompt + output tokens does not fit the KV pool of " + ftoa(s.cap) + " tokens", Err: estimator.ErrIncompatible}
	}
	if s.StepSeconds(estimator.Step{DecodeSeqs: 1, DecodeContext: 1}) <= 0 {
		return &estimator.InputError{Field: "model", Value: "0", Reason: "the step model gives no step time", Err: estimator.ErrIncompatible}
	}
	s.reqs = grow(b.reqs, l.Requests) // each set whole below
	s.waiting = slices.Grow(b.waiting[:0], min(l.Requests, 4096))
	s.running = slices.Grow(b.running[:0], min(l.Requests, 4096))
	s.heap = slices.Grow(b.heap[:0], min(l.Requests, 4096))
	s.heapSorted = !s.plain
	s.prefilling, s.plan = b.prefilling[:0], b.plan[:0]
	s.ranks = b.ranks[:0]
	if n := cfg.Policy.BalanceRanks; n > 1 {
		s.ranks = slices.Grow(s.ranks, n)[:n]
		clear(s.ranks)
	}
	b.pcg.Seed(l.Seed, l.Seed^0x9e3779b97f4a7c15)
	if b.rng == nil {
		b.rng = rand.New(&b.pcg)
	}
	s.rng = b.rng
	for i := range s.reqs {
		prompt, out := l.PromptTokens, l.OutputTokens
		if l.RangeRatio > 0 && l.RangeRatio < 1 {
			prompt, out = s.draw(l.PromptTokens), s.draw(l.OutputTokens)
		}
		s.reqs[i] = request{prompt: prompt, out: out, target: prompt}
	}
	if l.Concurrency > 0 {
		for range min(l.Concurrency, l.Requests) {
			s.send(0)
			s.reqs[s.sent-1].arrive += l.FirstWaveSeconds
		}
	} else {
		t := 0.0
		for range l.Requests {
			s.send(t)
			t += s.rng.ExpFloat64() / l.RatePerSecond
		}
	}
	return nil
}

// draw is a length uniform on the integers of [r·n, n] (numpy's
// randint(int(r·n), n + 1), as benchmark_serving.py samples).
func (s *state) draw(n int) int {
	lo := max(int(s.load.RangeRatio*float64(n)), 1)
	return lo + s.rng.IntN(n-lo+1)
}

// StepSeconds is the model's step time.
func (s *state) StepSeconds(st estimator.Step) float64 { return s.m.StepSeconds(st) }

// send has the client send the next request at time t.
func (s *state) send(t float64) {
	r := &s.reqs[s.sent]
	r.send, r.arrive = t, t+s.p.RequestSeconds
	s.sent++
}

// deliver moves the requests that reached the scheduler by now to the
// waiting queue.
func (s *state) deliver() {
	if s.p.RecvSkip && s.p.AdmitEvery > 1 {
		// An idle scheduler spins through its loop and takes requests in
		// at once.
		if s.nRun > 0 && s.recv < int64(s.p.AdmitEvery) {
			return
		}
		s.recv = 0
	}
	for s.pending < s.sent && s.reqs[s.pending].arrive <= s.t {
		s.reqs[s.pending].state = stWaiting
		s.reqs[s.pending].step = int64(s.steps)
		if len(s.ranks) > 0 {
			s.assignRank(&s.reqs[s.pending])
		}
		s.waiting = append(s.waiting, int32(s.pending))
		s.pending++
	}
}

func (s *state) used() float64 {
	return s.prefHeld + s.decBase + float64(s.nDec)*float64(s.k)
}

func (s *state) outLeft() float64 {
	return s.prefOutSum + s.finSum - float64(s.nDec)*float64(s.k)
}

// share is the reserve share now: Policy.ReserveOutput, or where it
// decays (Policy.ReserveDecaySteps) its value after the decode steps since
// it was last set.
func (s *state) share() float64 {
	if s.p.ReserveDecaySteps <= 0 {
		return s.p.ReserveOutput
	}
	decay := (s.p.ReserveOutput - s.p.ReserveFloor) / float64(s.p.ReserveDecaySteps)
	return max(s.ratio0-decay*float64(s.k-s.ratioK), s.p.ReserveFloor)
}

// setShare sets the reserve share to r from this decode step on.
func (s *state) setShare(r float64) { s.ratio0, s.ratioK = r, s.k }

// reserveLeft is the running requests' remaining output as the reserve
// counts it: outLeft, each request's capped at Policy.ReserveClip where
// a request's output can exceed it.
func (s *state) reserveLeft() float64 {
	c := s.p.ReserveClip
	if c <= 0 || s.load.OutputTokens <= c {
		return s.outLeft()
	}
	sum := 0.0
	for _, i := range s.running {
		if r := &s.reqs[i]; r.state == stDecode || r.state == stPrefill {
			sum += float64(min(s.left(r), c))
		}
	}
	return sum
}

// left is r's output still to generate.
func (s *state) left(r *request) int {
	if r.state == stDecode {
		return int(r.fin - s.k)
	}
	return r.out - r.gen
}

// ownReserve is what a newly admitted request r reserves for its output:
// the whole of it, capped (Policy.ReserveOwnOutput), or the share of it.
func (s *state) ownReserve(r *request, share float64) float64 {
	left := r.out - r.gen
	if c := s.p.ReserveClip; c > 0 {
		left = min(left, c)
	}
	if s.p.ReserveOwnOutput {
		return float64(left)
	}
	return share * float64(left)
}

// eosAdmits is SGLang's add_one_req_ignore_eos check for r with free
// pool tokens (Policy.IgnoreEOSAdmit): with the running requests and r
// sorted by output left, for each i and the bs requests from it on, the
// pool less r's prompt, plus what the requests before i hold (freed when
// they finish), less left_i × bs, must exceed one token a request
// (IGNORE_EOS_RESERVE_TOKENS). Each request is one float64 key, left ×
// 2^25 + held (both whole token counts under 2^24, so the key is exact),
// which sorts by output left as the float64 sort the simulator has
// already (sortTimes); equal lefts go by tokens held, where SGLang keeps
// the order it inserted them in, which moves no check by more than the
// tie.
func (s *state) eosAdmits(r *request, free float64) bool {
	e := s.eos[:0]
	for _, i := range s.running {
		q := &s.reqs[i]
		if q.state != stDecode && q.state != stPrefill {
			continue
		}
		left := s.left(q)
		e = append(e, float64(left)*eosKeyShift+float64(q.prompt+q.out-left))
	}
	e = append(e, float64(r.out-r.gen)*eosKeyShift+float64(r.prompt+r.gen))
	slices.Sort(e)
	s.eos = e
	rem := free - float64(r.target)
	freed := 0.0
	for k, key := range e {
		left := math.Floor(key / eosKeyShift)
		bs := float64(len(e) - k)
		if rem+freed-left*bs <= eosReserveTokens*bs {
			return false
		}
		freed += key - left*eosKeyShift
	}
	return true
}

// eosKeyShift is 2^25, eosAdmits' key's shift of output left over tokens
// held.
const eosKeyShift = 1 << 25

// eosReserveTokens is SGLang's IGNORE_EOS_RESERVE_TOKENS (1): the tokens
// a request keeps free in add_one_req_ignore_eos's walk
// (python/sglang/srt/managers/schedule_policy.py).
const eosReserveTokens = 1

// errStuck: the run stopped making progress (a guard: every step either
// advances time or admits, completes or preempts a request).
var errStuck = errors.New("sim: the simulation stopped making progress")

// errEventBudget: the run took more scheduler events than its caller
// allowed (Config.maxEvents).
var errEventBudget = errors.New("sim: the run is longer than its budget of events")

func (s *state) run() error {
	// Each request passes a bounded number of events (arrival, its
	// prompt's chunks, completion, preemptions); the guard is far above.
	maxIter := 64*int64(len(s.reqs))*int64(1+s.load.PromptTokens/max(s.p.TokenBudget, 1)) + 1<<20
	if s.maxEvents > 0 {
		maxIter = min(maxIter, s.maxEvents)
	}
	for ; s.finished < len(s.reqs); s.events++ {
		if s.events > maxIter {
			if s.maxEvents > 0 && s.events > s.maxEvents {
				return errEventBudget
			}
			return errStuck
		}
		s.deliver()
		if s.nRun == 0 && s.wHead == len(s.waiting) {
			if s.pending >= s.sent {
				return errStuck
			}
			// Idle: jump to the next arrival. An idle SGLang scheduler
			// resets its reserve share (self_check_during_idle).
			s.t = max(s.t, s.reqs[s.pending].arrive)
			s.setShare(s.p.ReserveOutput)
			continue
		}
		s.preemptForGrowth()
		limit := s.schedule()
		s.advance(limit)
	}
	return nil
}

// preemptForGrowth preempts the most recently admitted running requests
// while the pool cannot hold one more token for every decoding request
// (vLLM v1's scheduler preempts from the end of its running queue when a
// running request cannot get a block: vllm/v1/core/sched/scheduler.py).
//
// With Policy.RetractSteps (SGLang's retract_decode) the preemption goes on
// until RetractSteps tokens per remaining decode are free, and the reserve
// share becomes (tokens decoded + RetractSteps × decodes) / their outputs,
// at most 1.
func (s *state) preemptForGrowth() {
	if !s.p.Preempt || !(s.used()+float64(s.nDec) > s.cap) {
		return
	}
	for s.nRun > 1 && s.used()+float64(s.nDec) > s.cap {
		s.preemptLast()
	}
	n := float64(s.p.RetractSteps)
	if n <= 0 {
		return
	}
	for s.nRun > 1 && s.used()+n*float64(s.nDec) > s.cap {
		s.preemptLast()
	}
	if s.p.ReserveDecaySteps <= 0 {
		return
	}
	var decoded, outs float64
	for _, i := range s.running {
		if r := &s.reqs[i]; r.state == stDecode {
			decoded += float64(r.out - s.left(r))
			outs += float64(r.out)
		}
	}
	if outs > 0 {
		s.setShare(min((decoded+n*float64(s.nDec))/outs, 1))
	}
}

func (s *state) preemptLast() {
	for len(s.running) > 0 {
		i := s.running[len(s.running)-1]
		s.running = s.running[:len(s.running)-1]
		r := &s.reqs[i]
		switch r.state {
		case stDecode:
			gen := r.gen + int(s.k-r.k0) // tokens generated so far
			s.nDec--
			s.decBase -= float64(r.target+1) - float64(r.k0)
			s.finSum -= float64(r.fin)
			s.nRun--
			r.epoch++
			// Recompute: the prompt and every token generated so far are
			// prefilled again (vLLM's RECOMPUTE preemption).
			r.target, r.gen, r.done = r.prompt+gen, gen, 0
		case stPrefill:
			s.prefHeld -= float64(r.done)
			s.prefOutSum -= float64(r.out - r.gen)
			s.nRun--
			s.prefilling = remove(s.prefilling, i)
			r.done = 0
		default:
			continue // finished: dropped lazily
		}
		r.state = stWaiting
		s.rankMove(r, 1, -1)
		s.preemptions++
		// Back to the front of the queue.
		if s.wHead > 0 {
			s.wHead--
			s.waiting[s.wHead] = i
		} else {
			s.waiting = slices.Insert(s.waiting, 0, i)
		}
		return
	}
}

// schedule forms this step's prompt chunks in s.plan (the running
// prefills first, then the waiting queue in arrival order) and returns
// what stopped admission (LimitNone when the queue emptied).
func (s *state) schedule() Limit {
	s.plan = s.plan[:0]
	budget := s.p.TokenBudget
	if s.p.Mixed {
		budget -= s.nDec // each decode is one token of the step's budget
	}
	planned := 0
	free := s.cap - s.used() - float64(s.nDec)
	// Running prefills continue.
	chunkCap := budget
	if c := s.p.ChunkCap; c > 0 {
		chunkCap = c
	}
	for _, i := range s.prefilling {
		r := &s.reqs[i]
		n := r.target - r.done
		if s.p.Chunked {
			n = min(n, budget-planned, chunkCap)
		} else if n > budget-planned && len(s.plan) > 0 {
			break
		}
		if n <= 0 || float64(n) > free {
			break
		}
		s.plan = append(s.plan, chunk{i, n})
		planned += n
		free -= float64(n)
	}
	// New requests, at the scheduler's polling steps (an idle engine
	// polls all the time).
	limit := LimitNone
	if s.p.AdmitEvery > 1 && !s.p.RecvSkip && s.nRun > 0 && s.steps%s.p.AdmitEvery != 0 && s.wHead < len(s.waiting) {
		return LimitPolling
	}
	if s.balanceWait() > 0 {
		return LimitPolling
	}
	if len(s.ranks) > 0 && s.wHead < len(s.waiting) {
		s.balanceFrom = s.steps // the balance's counter restarts
	}
	share := s.share()
	reserve := 0.0
	if s.p.ReserveOutput > 0 {
		reserve = share * s.reserveLeft()
	}
	for s.wHead < len(s.waiting) {
		i := s.waiting[s.wHead]
		r := &s.reqs[i]
		if s.p.MaxSeqs > 0 && s.nRun >= s.p.MaxSeqs {
			limit = LimitSeqs
			break
		}
		left := budget - planned
		n := r.target
		switch {
		case left <= 0:
			limit = LimitTokens
		case s.p.Chunked:
			n = min(n, left, chunkCap)
		case n > left && len(s.plan) > 0:
			// A whole prompt waits for a step with room for it; one over
			// the whole budget runs alone.
			limit = LimitTokens
		}
		if limit != LimitNone {
			break
		}
		need := float64(n)
		own := 0.0
		if s.p.ReserveOutput > 0 {
			own = s.ownReserve(r, share)
		}
		switch {
		case s.p.IgnoreEOSAdmit:
			need = float64(r.target) // the prompt alone: eosAdmits' walk weighs the outputs
		case s.p.ReserveOutput > 0:
			need = float64(r.target) + own
		}
		if need > free-reserve || s.p.IgnoreEOSAdmit && !s.eosAdmits(r, free) {
			limit = LimitKV
			break
		}
		s.wHead++
		r.state = stPrefill
		s.rankMove(r, -1, 1)
		if !r.scheduled {
			r.scheduled, r.sched = true, s.t
		}
		s.running = append(s.running, i)
		s.prefilling = append(s.prefilling, i)
		s.nRun++
		s.prefOutSum += float64(r.out - r.gen)
		s.plan = append(s.plan, chunk{i, n})
		planned += n
		free -= float64(n)
		reserve += own
	}
	if s.wHead > 1024 && s.wHead*2 > len(s.waiting) {
		s.waiting = s.waiting[:copy(s.waiting, s.waiting[s.wHead:])]
		s.wHead = 0
	}
	return limit
}

// advance runs the planned step (or a run of decode-only steps) and
// applies its effects.
func (s *state) advance(limit Limit) {
	decodes := s.nDec
	if !s.p.Mixed && len(s.plan) > 0 {
		decodes = 0 // a prefill step pauses the decodes
	}
	ctx := s.decBase + float64(s.nDec)*float64(s.k) // Σ context of the decoding requests
	var dt float64
	steps := int64(1)
	if len(s.plan) == 0 {
		if decodes == 0 {
			// Nothing runnable: partial prompts fill the pool and none
			// can continue. Preempt the newest (vLLM and SGLang do; a
			// request alone always fits), or wait for the next arrival.
			if s.nRun > 0 {
				s.preemptLast()
				return
			}
			s.t = max(s.t, s.nextArrival())
			return
		}
		steps = s.decodeRun()
		n := float64(decodes)
		dt = float64(steps) * s.decodeStep(decodes, ctx+n*float64(steps-1)/2)
	} else {
		st := estimator.Step{DecodeSeqs: decodes, DecodeContext: ctx}
		if decodes == 0 {
			st.DecodeContext = 0
		}
		for _, c := range s.plan {
			r := &s.reqs[c.idx]
			a, b := float64(r.done), float64(r.done+c.tokens)
			st.PrefillTokens += c.tokens
			st.PrefillSeqs++
			st.PrefillContext += (b - a) * (a + b + 1) / 2
			st.PrefillKV += b
		}
		dt = s.m.StepSeconds(st)
	}
	switch {
	case s.wHead < len(s.waiting):
		s.blocked[limit] += dt
	case s.held():
		s.blocked[LimitPolling] += dt // arrived, not yet taken in
	}
	s.addRecv(steps)
	s.runArea += float64(s.nRun) * dt
	s.t += dt
	s.steps += int(steps)
	if decodes > 0 {
		s.k += steps
	}
	// Prompt chunks: a request whose prompt is complete samples its next
	// token in the same step.
	for _, c := range s.plan {
		r := &s.reqs[c.idx]
		r.done += c.tokens
		s.prefHeld += float64(c.tokens)
		if r.done < r.target {
			continue
		}
		s.prefilling = remove(s.prefilling, c.idx)
		s.prefHeld -= float64(r.done)
		s.prefOutSum -= float64(r.out - r.gen)
		if r.gen == 0 {
			r.first = s.t
		}
		r.gen++
		if r.gen >= r.out {
			s.complete(c.idx)
			continue
		}
		r.state = stDecode
		r.k0 = s.k
		r.fin = s.k + int64(r.out-r.gen)
		s.nDec++
		s.decBase += float64(r.target+1) - float64(r.k0)
		s.finSum += float64(r.fin)
		s.push(heapEntry{r.fin, c.idx, r.epoch})
	}
	// Completions.
	for s.heapHead < len(s.heap) && s.heap[s.heapHead].fin <= s.k {
		e := s.pop()
		r := &s.reqs[e.idx]
		if e.epoch != r.epoch || r.state != stDecode {
			continue
		}
		s.nDec--
		s.decBase -= float64(r.target+1) - float64(r.k0)
		s.finSum -= float64(r.fin)
		s.complete(e.idx)
	}
	if len(s.running) > 64 && s.nRun*2 < len(s.running) {
		s.running = slices.DeleteFunc(s.running, func(j int32) bool { return s.reqs[j].state == stDone })
	}
}

// complete finishes request i at the current time; the closed loop's
// client sends its next request.
func (s *state) complete(i int32) {
	r := &s.reqs[i]
	r.state, r.finish = stDone, s.t
	s.rankMove(r, 0, -1)
	if len(s.ranks) > 0 {
		l := &s.ranks[r.rank]
		l.active--
		l.tokens -= int64(r.prompt)
	}
	s.nRun--
	s.finished++
	if s.load.Concurrency > 0 && s.sent < len(s.reqs) {
		s.send(s.t)
	}
}

// decodeRun is how many decode-only steps run before something changes
// the batch: a completion, an arrival the scheduler could admit, the KV
// pool filling (with preemption).
//
// The arrival bound needs the step time at the run's start context, and
// the run itself (advance) the step time at its mean context, which is
// at least as long: a decode-only step of the same sequences takes no
// less time at a longer context (more KV read, longer attention). So when
// the arrival lands after the other bounds' run even at the mean
// context's step time, the run is those bounds' and the start's step time
// is never needed: one step model call (memoised for advance) where there
// were two. Either way k is the one the start's step time gives.
func (s *state) decodeRun() int64 {
	if s.plain {
		return s.decodeRunPlain()
	}
	k := int64(1)
	if s.heapHead < len(s.heap) {
		k = max(s.heap[s.heapHead].fin-s.k, 1)
	}
	// Stale heap entries only make the run shorter: still correct.
	k = min(k, s.nextPoll())
	if w := s.balanceWait(); w > 0 {
		k = min(k, w) // stop when the balance wait times out
	}
	if s.p.Preempt && s.nDec > 0 {
		// The pool's room for a token more per decoding request each
		// step. Where it holds the k steps already (free ≥ k·n, whole
		// numbers below 2^53, exact as floats, and free below 2^62, so
		// the conversion below is defined) the floor is at least k, and
		// the run is spared a division and a floor.
		free := s.cap - s.used()
		if kn := k * int64(s.nDec); kn >= 1<<53 || !(free >= float64(kn) && free < 1<<62) {
			room := math.Floor(free / float64(s.nDec))
			k = min(k, max(int64(room), 1))
		}
	}
	if k > 1 && (s.wHead == len(s.waiting) || s.p.BalanceRanks > 1) && s.pending < s.sent {
		// An arrival may be admitted (or complete a balanced set): stop
		// at the step in which it lands.
		ctx := s.decBase + float64(s.nDec)*float64(s.k)
		wait := s.reqs[s.pending].arrive - s.t
		if guess := s.stepMemoVal; !(guess > 0) || wait > float64(k-1)*guess {
			// The arrival is likely after the run: check it against
			// the mean context's step time, which advance reads next.
			n := float64(s.nDec)
			if dt := s.decodeStep(s.nDec, ctx+n*float64(k-1)/2); dt > 0 && wait/dt > float64(k-1) {
				return k
			}
		}
		dt0 := s.decodeStep(s.nDec, ctx)
		if dt0 > 0 {
			n := math.Ceil(wait / dt0)
			k = min(k, max(int64(n), 1))
		}
	}
	return k
}

// nextPoll is the decode steps until the scheduler next takes requests
// in (Policy.AdmitEvery), where some wait for it; a run of decode steps
// stops there. SGLang's receive skipper (Policy.RecvSkip) takes in only
// what has not reached the waiting queue: the queue itself is scheduled
// at every step.
func (s *state) nextPoll() int64 {
	e := int64(s.p.AdmitEvery)
	switch {
	case e <= 1:
		return math.MaxInt64
	case s.p.RecvSkip:
		if s.pending < s.sent {
			return max(e-s.recv, 1)
		}
	case s.wHead < len(s.waiting) || s.pending < s.sent:
		return e - int64(s.steps)%e
	}
	return math.MaxInt64
}

// addRecv adds this step's weight to SGLang's receive-skipper counter
// (Policy.RecvSkip): a prefill step's recvSkipPrefillWeight, or 1 for each
// of a run of decode steps, where the counter restarts at 0 whenever it
// reaches the interval (with requests to take in or not); it keeps the
// value the check after the run reads.
func (s *state) addRecv(steps int64) {
	e := int64(s.p.AdmitEvery)
	switch {
	case !s.p.RecvSkip || e <= 1:
	case len(s.plan) > 0:
		s.recv += recvSkipPrefillWeight
	default:
		s.recv = (s.recv+steps-1)%e + 1
	}
}

// held reports whether a request has reached the scheduler's socket that
// SGLang's receive skipper has not taken in yet (Policy.RecvSkip).
func (s *state) held() bool {
	return s.p.RecvSkip && s.pending < s.sent && s.reqs[s.pending].arrive <= s.t
}

// recvSkipPrefillWeight is what a forward other than a decode or verify
// step adds to SGLang's receive-skipper counter
// (SGLANG_SCHEDULER_RECV_SKIPPER_WEIGHT_DEFAULT; Policy.RecvSkip).
const recvSkipPrefillWeight = 1000

// decodeRunPlain is decodeRun without its shortcut: the step time at
// the run's start context whenever an arrival may end the run. The tests
// run it beside decodeRun (Config.plain) and compare the runs.
func (s *state) decodeRunPlain() int64 {
	k := int64(1)
	if s.heapHead < len(s.heap) {
		k = max(s.heap[s.heapHead].fin-s.k, 1)
	}
	if (s.wHead == len(s.waiting) || s.p.BalanceRanks > 1) && s.pending < s.sent {
		dt0 := s.decodeStep(s.nDec, s.decBase+float64(s.nDec)*float64(s.k))
		if dt0 > 0 {
			n := math.Ceil((s.reqs[s.pending].arrive - s.t) / dt0)
			k = min(k, max(int64(n), 1))
		}
	}
	k = min(k, s.nextPoll())
	if w := s.balanceWait(); w > 0 {
		k = min(k, w)
	}
	if s.p.Preempt && s.nDec > 0 {
		room := math.Floor((s.cap - s.used()) / float64(s.nDec))
		k = min(k, max(int64(room), 1))
	}
	return k
}

// TensorRT-LLM's attention-DP balance (Policy.BalanceRanks,
// BalanceWaitSteps), as its executor runs it (NVIDIA/TensorRT-LLM
// tensorrt_llm/_torch/pyexecutor/py_executor.py, PyExecutor.
// _balance_adp_requests, and _pad_attention_dp_dummy_request;
// executor_request_queue.py, _schedule_attention_dp_requests and
// _balance_requests_across_ranks; read in two stored versions of late
// 2025 and 2026, the second with the balance moved into the scheduler
// unchanged):
//   - a new request joins one rank for good: a rank below the expected
//     count of active requests, max(⌈(active + new) / ranks⌉, the largest
//     rank's count), the one with the fewest active prompt tokens. In a
//     closed loop that is the rank where a request just finished, so the
//     ranks fill at random, not in turn;
//   - context requests start on every rank at once when every rank has
//     one, when a rank has requests but no generation request (a rank with
//     none gets a dummy one), or when the iteration counter reaches
//     timeout_iters; the counter counts every iteration in which not every
//     rank has one, with or without requests waiting, and restarts at
//     each start. So a lone request waits for the counter's next turn,
//     not timeout_iters from its own arrival.

// rankLoad is one attention-DP rank's requests: active (waiting and
// running, as the executor counts them), their prompt tokens, and of them
// the waiting and the running.
type rankLoad struct {
	active, waiting, running int32
	tokens                   int64
}

// assignRank puts r, arriving at the scheduler, on its rank
// (_schedule_attention_dp_requests: the expected count, then the heap by
// active tokens, ties to the lower rank).
func (s *state) assignRank(r *request) {
	var total, most int32
	for _, l := range s.ranks {
		total += l.active
		most = max(most, l.active)
	}
	n := int32(len(s.ranks))
	expected := max((total+n)/n, most) // ⌈(total + 1) / n⌉
	best := -1
	for i, l := range s.ranks {
		if l.active < expected && (best < 0 || l.tokens < s.ranks[best].tokens) {
			best = i
		}
	}
	l := &s.ranks[best]
	r.rank = uint16(best)
	l.active++
	l.tokens += int64(r.prompt)
	s.rankMove(r, 1, 0)
}

// rankMove moves r's rank's waiting and running counts by dWait and dRun
// and keeps the counts of ranks with waiting requests and of ranks with
// waiting requests and none running.
func (s *state) rankMove(r *request, dWait, dRun int32) {
	if len(s.ranks) == 0 {
		return
	}
	l := &s.ranks[r.rank]
	s.ranksWaiting -= b2i(l.waiting > 0)
	s.ranksCold -= b2i(l.waiting > 0 && l.running == 0)
	l.waiting += dWait
	l.running += dRun
	s.ranksWaiting += b2i(l.waiting > 0)
	s.ranksCold += b2i(l.waiting > 0 && l.running == 0)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// balanceWait is how many more steps new requests wait for the
// attention-DP balance: 0 when they may start (nothing waits, every rank
// has one, a rank has some and none running, or the counter's turn came).
func (s *state) balanceWait() int64 {
	w := s.p.BalanceWaitSteps
	if len(s.ranks) == 0 || w <= 0 || s.wHead == len(s.waiting) || s.ranksCold > 0 || s.ranksWaiting == len(s.ranks) {
		return 0
	}
	e := (s.steps - s.balanceFrom) % w
	if e == 0 && s.steps > s.balanceFrom {
		return 0
	}
	return int64(w - e)
}

// decodeStep is a decode-only step of n sequences whose contexts sum to
// ctx, memoised for the repeated calls of a run: the last call, and in a
// long run (more than stepTableAfter calls) a table of recent ones. A
// long run is mostly requests that each run alone on the replica, whose
// decode steps repeat from one request to the next (the same lengths, the
// same polling phase); the step model is a pure function, so a step read
// from the table is the step computed again, to the bit.
func (s *state) decodeStep(n int, ctx float64) float64 {
	key := stepMemoKey{n, ctx}
	if key == s.stepMemo && s.stepMemoVal > 0 {
		return s.stepMemoVal
	}
	var slot *stepSlot
	bits := math.Float64bits(ctx)
	if s.table != nil {
		slot = &s.table[s.slot(n, ctx, bits)]
		if slot.v > 0 && slot.n == n && slot.ctx == bits {
			s.stepMemo, s.stepMemoVal = key, slot.v
			return slot.v
		}
	} else if s.decodeCalls++; s.decodeCalls > stepTableAfter && !s.plain {
		s.tableBits = stepTableBits
		s.table = make([]stepSlot, 1<<s.tableBits)
	}
	v := s.m.StepSeconds(estimator.Step{DecodeSeqs: n, DecodeContext: ctx})
	s.stepMemo, s.stepMemoVal = key, v
	if slot != nil && v > 0 {
		*slot = stepSlot{n: n, ctx: bits, v: v}
	}
	return v
}

// slot is the table's slot of a decode step. Summed contexts are whole
// or half tokens (a run's mean context adds n·(steps − 1)/2), so twice
// the context indexes the table directly: the steps of a lone request
// fall in consecutive slots, in the order its runs read them, and a
// request's steps do not evict each other. Other contexts are hashed.
func (s *state) slot(n int, ctx float64, bits uint64) uint64 {
	mask := uint64(1)<<s.tableBits - 1
	if x := 2 * ctx; x >= 0 && x < 1<<52 && x == math.Trunc(x) {
		return (uint64(x) + uint64(n)*0x9e3779b1) & mask
	}
	return (bits ^ uint64(n)*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9 >> (64 - s.tableBits)
}

// stepSlot is an entry of the decode-step table: n sequences, the bits
// of their summed context, the step's seconds (0: empty).
type stepSlot struct {
	n   int
	ctx uint64
	v   float64
}

// stepTableAfter is the decode-step calls after which a run keeps the
// table (a run of a few hundred requests under load repeats few steps and
// never reaches it); the table has 1<<stepTableBits slots, one entry each
// (a newer step replaces an older one in its slot).
var stepTableAfter, stepTableBits = 1 << 14, 16

func (s *state) nextArrival() float64 {
	if s.pending < s.sent {
		return s.reqs[s.pending].arrive
	}
	return s.t
}

// heap of decoding requests by their last decode step. Entries mostly
// come in order of it: a run's requests of equal lengths each join after
// the ones before with as many tokens to go. While they do, the heap is a
// queue in that order (a sorted slice is also a binary heap): push
// appends and pop takes the first, without the sifts of a binary heap.
// The first entry out of order makes it a binary heap until it empties.
// Entries of equal fin may leave in another order than a binary heap's;
// a step's completions are applied together (advance) and sum whole
// token counts, which floats hold exactly, so the run is the same (the
// plain loop, Config.plain, keeps the binary heap: TestShortcutsMatchPlain,
// FuzzRun).
func (s *state) push(e heapEntry) {
	if s.heapSorted {
		n := len(s.heap)
		if n == s.heapHead || s.heap[n-1].fin <= e.fin {
			if n == cap(s.heap) && s.heapHead > 0 {
				s.heap = s.heap[:copy(s.heap, s.heap[s.heapHead:])]
				s.heapHead = 0
			}
			s.heap = append(s.heap, e)
			return
		}
		s.heap = s.heap[:copy(s.heap, s.heap[s.heapHead:])]
		s.heapHead, s.heapSorted = 0, false
	}
	s.heap = append(s.heap, e)
	i := len(s.heap) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s.heap[p].fin <= s.heap[i].fin {
			break
		}
		s.heap[p], s.heap[i] = s.heap[i], s.heap[p]
		i = p
	}
}

func (s *state) pop() heapEntry {
	if s.heapSorted {
		top := s.heap[s.heapHead]
		if s.heapHead++; s.heapHead == len(s.heap) {
			s.heap, s.heapHead = s.heap[:0], 0
		}
		return top
	}
	top := s.heap[0]
	n := len(s.heap) - 1
	if n == 0 && !s.plain {
		s.heapSorted = true
	}
	s.heap[0] = s.heap[n]
	s.heap = s.heap[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s.heap[l].fin < s.heap[m].fin {
			m = l
		}
		if r < n && s.heap[r].fin < s.heap[m].fin {
			m = r
		}
		if m == i {
			break
		}
		s.heap[m], s.heap[i] = s.heap[i], s.heap[m]
		i = m
	}
	return top
}

func (s *state) result(slo SLO, b *runBufs) Result {
	n := len(s.reqs)
	b.times = grow(b.times, 4*n)
	buf := b.times
	ttft, tpot, e2e, queue := buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n], buf[3*n:]
	var first, last float64 = math.Inf(1), 0
	good := 0
	var outTok, allTok, withTPOT int
	for i := range s.reqs {
		r := &s.reqs[i]
		ttft[i] = r.first - r.send
		e2e[i] = r.finish - r.send
		queue[i] = r.sched - r.arrive
		tpot[i] = 0
		if r.out > 1 {
			tpot[withTPOT] = (r.finish - r.first) / float64(r.out-1)
			withTPOT++
		}
		outTok += r.out
		allTok += r.out + r.prompt
		// The built-in min and max: math.Min's and math.Max's results
		// (the Go spec's, NaN and signed zeros included), inlined.
		first, last = min(first, r.send), max(last, r.finish)
		tp := 0.0
		if r.out > 1 {
			tp = (r.finish - r.first) / float64(r.out-1)
		}
		if (slo.TTFTSeconds <= 0 || ttft[i] <= slo.TTFTSeconds) && (slo.TPOTSeconds <= 0 || tp <= slo.TPOTSeconds) {
			good++
		}
	}
	res := Result{Requests: n, TTFT: dist(ttft), Steps: s.steps, Preemptions: s.preemptions, events: s.events}
	if s.e2eMean {
		res.E2E.Mean = mean(e2e)
	} else {
		res.E2E = dist(e2e)
	}
	if !s.skipQueue {
		res.Queue = dist(queue)
	}
	if withTPOT > 0 {
		res.TPOT = dist(tpot[:withTPOT])
	}
	if d := last - first; d > 0 {
		res.DurationSeconds = d
		res.RequestsPerSecond = float64(n) / d
		res.OutputTokensPerSecond = float64(outTok) / d
		res.TotalTokensPerSecond = float64(allTok) / d
		res.GoodputRequestsPerSecond = float64(good) / d
		res.MeanRunning = s.runArea / d
	}
	res.SLOAttainment = float64(good) / float64(n)
	for l := LimitSeqs; l <= LimitPolling; l++ {
		if s.blocked[l] > s.blocked[res.Limit] {
			res.Limit = l
		}
	}
	return res
}

// mean is v's mean as dist reports it (0 unless finite and ≥ 0), in v's
// order.
func mean(v []float64) float64 {
	var sum float64
	for _, x := range v {
		sum += x
	}
	if m := sum / float64(len(v)); m >= 0 && !math.IsInf(m, 1) {
		return m
	}
	return 0
}

// dist sorts v and summarises it.
func dist(v []float64) Dist {
	sortTimes(v)
	var sum float64
	for _, x := range v {
		sum += x
	}
	d := Dist{Mean: sum / float64(len(v)), P50: quantile(v, 0.5), P90: quantile(v, 0.9), P95: quantile(v, 0.95),
		P99: quantile(v, 0.99), Max: v[len(v)-1]}
	for _, f := range [...]*float64{&d.Mean, &d.P50, &d.P90, &d.P95, &d.P99, &d.Max} {
		if !(*f >= 0) || math.IsInf(*f, 1) {
			*f = 0
		}
	}
	return d
}

// sortTimes sorts v in increasing order, as slices.Sort does. A run's
// latencies (a few hundred finite values ≥ 0) are sorted by value
// buckets: each value goes to bucket ⌊(x − min)·n/(max − min)⌋ of n, an
// index that never decreases as x grows (each floating-point operation
// rounds monotonically), so with the buckets laid out in turn only
// values of one bucket can be out of order, and a pass of insertion sort
// orders them; where a bucket is crowded (a tail of equal or close
// values) slices.Sort sorts the whole. Such floats order as their bits
// (IEEE 754) and equal ones have equal bits, so any correct sort leaves
// the same values in the same places; a bucket sort of n values takes
// about n steps where a comparison sort takes n·log₂ n, each an
// unpredictable branch. Longer slices, and v with a negative, an
// infinite or a NaN value, are sorted by slices.Sort.
func sortTimes(v []float64) {
	const maxN, crowded = 256, 32
	n := len(v)
	if n < 2 {
		return
	}
	if n > maxN {
		slices.Sort(v)
		return
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		if math.Float64bits(x) >= 0x7ff0000000000000 { // the sign bit, or an infinite or NaN value
			slices.Sort(v)
			return
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	scale := float64(n) / (hi - lo)
	if !(scale < math.MaxFloat64) { // all equal, or a range too narrow to divide
		if hi > lo {
			slices.Sort(v)
		}
		return
	}
	// start[b] counts bucket b's values, then (prefix sums) starts it.
	var start [maxN]uint16
	var bucket [maxN]uint8
	for i, x := range v {
		b := min(int((x-lo)*scale), n-1)
		bucket[i] = uint8(b)
		start[b]++
	}
	var sum, most uint16
	for b, c := range start[:n] {
		start[b] = sum
		sum += c
		most = max(most, c)
	}
	var out [maxN]float64
	for i, x := range v {
		b := bucket[i]
		out[start[b]] = x
		start[b]++
	}
	if most > crowded {
		copy(v, out[:n])
		slices.Sort(v)
		return
	}
	// Insertion sort from out into v: each value moves back past the
	// larger ones of its own bucket only.
	for i, x := range out[:n] {
		j := i
		for ; j > 0 && v[j-1] > x; j-- {
			v[j] = v[j-1]
		}
		v[j] = x
	}
}

// remove is v without its entry i (a request is listed once), in order.
func remove(v []int32, i int32) []int32 {
	if j := slices.Index(v, i); j >= 0 {
		return append(v[:j], v[j+1:]...)
	}
	return v
}

// grow is v resliced to n elements, reallocated when its capacity is
// short (the elements are not cleared).
func grow[T any](v []T, n int) []T {
	if cap(v) < n {
		return make([]T, n)
	}
	return v[:n]
}

// quantile of sorted s by linear interpolation (numpy.percentile's
// default).
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(pos)
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Point is a closed-loop load and its result.
type Point struct {
	Concurrency int `json:"concurrency"`
	Result
}

// Capacity is the most requests the replica runs at once under cfg's
// policy: its sequence cap and the KV pool's room for requests of the
// load's prompt + output tokens (at least 1; 0 on invalid input).
func Capacity(cfg Config) int {
	if cfg.Model == nil || cfg.Model.Err() != nil {
		return 0
	}
	pool := float64(cfg.KVTokens)
	if pool <= 0 {
		pool = float64(cfg.Model.KVPoolTokens())
	}
	per := float64(cfg.Load.PromptTokens + cfg.Load.OutputTokens)
	if !(per >= 1) {
		return 0
	}
	c := int(min(pool/per, maxRequests))
	if cfg.Policy.MaxSeqs > 0 {
		c = min(c, cfg.Policy.MaxSeqs)
	}
	return max(c, 1)
}

// Saturation is the replica's saturation point: the closed loop at its
// Capacity, where every further request only queues. Its
// RequestsPerSecond is the highest rate the replica sustains; an open
// loop above it grows its queue without bound. Requests is cfg.Load's, or
// 10 × the capacity when 0.
func Saturation(cfg Config) (Point, error) {
	c := Capacity(cfg)
	if c == 0 {
		if _, err := Run(cfg); err != nil {
			return Point{}, err
		}
		return Point{}, &estimator.InputError{Field: "model", Value: "0", Reason: "no capacity", Err: estimator.ErrIncompatible}
	}
	cfg.Load.Concurrency, cfg.Load.RatePerSecond = c, 0
	if cfg.Load.Requests == 0 {
		cfg.Load.Requests = min(10*c, maxRequests)
	}
	res, err := Run(cfg)
	return Point{Concurrency: c, Result: res}, err
}
