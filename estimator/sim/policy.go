// Package sim simulates a serving engine step by step: requests arrive
// (a closed loop of N requests with at most C in flight, as benchmark
// clients such as `vllm bench serve --max-concurrency` run them, or an
// open loop of Poisson arrivals at a rate), the engine's scheduler admits
// them each step under its limits (running sequences, batched-token
// budget, chunked prefill, KV cache with preemption) and each step takes
// the time of the estimator's step model (estimator.ServingModel.
// StepSeconds). Out come the distributions of time to first token, time
// per output token, end-to-end latency and queueing, throughput and
// goodput under an SLO.
//
// It is a discrete-event simulator in the manner of Vidur (Agrawal et al.
// 2024, "Vidur: A Large-Scale Simulation Framework for LLM Inference",
// MLSys), written for this package: runs of decode-only steps between
// events (an arrival, a completion, the KV pool filling) are advanced
// together, at the step time of their mean context, so a run of 1,000
// requests takes well under 10 ms. It is deterministic (the open loop's
// arrivals come from a seeded generator), imports only the standard
// library and the estimator, allocates only the per-request arrays and
// never panics on bad input: it returns *estimator.InputError values.
package sim

import (
	"rightsize/estimator"
)

// Policy is one engine's scheduler: its limits and the fixed cost of a
// request outside the GPU's steps. DefaultPolicy gives each engine's
// documented defaults; a zero limit means none.
type Policy struct {
	Engine estimator.Engine
	// MaxSeqs is the most requests running at once (vLLM max_num_seqs,
	// TensorRT-LLM max_batch_size, SGLang max_running_requests); 0: only
	// the KV pool limits them.
	MaxSeqs int
	// TokenBudget is the most tokens one step computes: vLLM
	// max_num_batched_tokens, TensorRT-LLM max_num_tokens (decodes count
	// one token each), SGLang chunked_prefill_size for its prefill steps.
	TokenBudget int
	// ChunkCap is the most prompt tokens one request computes in a step
	// where it is below TokenBudget: an attention-DP rank's own share of
	// the budget, which one prompt (on one rank) cannot exceed (SGLang,
	// NewConfig). 0: TokenBudget.
	ChunkCap int
	// Mixed: prompt chunks share a step with the running decodes (vLLM
	// v1, TensorRT-LLM in-flight batching). Otherwise a step either
	// prefills or decodes, and a prefill step pauses every decode
	// (SGLang without --enable-mixed-chunk).
	Mixed bool
	// Chunked: a prompt longer than what is left of the budget is split
	// across steps (vLLM v1, SGLang). Otherwise a prompt runs whole in
	// one step (TensorRT-LLM without enable_chunked_prefill), alone if it
	// exceeds the budget.
	Chunked bool
	// ReserveOutput is the share of a request's output tokens whose KV a
	// new request must find free at admission, next to its prompt's:
	// 1 for TensorRT-LLM's GUARANTEED_NO_EVICT (a started request is never
	// paused), SGLang's new_token_ratio estimate, 0 for vLLM (blocks are
	// allocated as tokens are scheduled).
	ReserveOutput float64
	// ReserveFloor and ReserveDecaySteps: the reserve share decays, one
	// step of (ReserveOutput − ReserveFloor)/ReserveDecaySteps per decode
	// step, down to ReserveFloor; it starts again from ReserveOutput when
	// the engine idles (SGLang's new_token_ratio: init 0.7, floor
	// 0.7 × 0.14, 600 decode steps). ReserveDecaySteps 0: a fixed share.
	ReserveFloor      float64
	ReserveDecaySteps int
	// ReserveOwnOutput: a new request must find room for its whole
	// output (clipped at ReserveClip) next to its prompt, the running
	// requests' outputs counting at the reserve share; the requests
	// admitted in the same step count whole too (SGLang's
	// PrefillAdder.add_one_req against rem_total_tokens). Otherwise a new
	// request's own output counts at the share as well.
	ReserveOwnOutput bool
	// ReserveClip caps each request's output in the reserve (SGLang's
	// CLIP_MAX_NEW_TOKENS, 4096); 0: no cap.
	ReserveClip int
	// IgnoreEOSAdmit: SGLang's admission for requests that ignore
	// end-of-sequence on a server without a radix cache (--ignore-eos
	// benchmark clients with --disable-radix-cache): PrefillAdder.add_one_req
	// hands them to add_one_req_ignore_eos, which admits a request only
	// when the free pool less its prompt holds every request's whole
	// output as they finish, shortest remaining output first: sorted by
	// output left, for each i with bs requests from it on, free + the
	// tokens held by those finished before − left_i × bs must exceed
	// IGNORE_EOS_RESERVE_TOKENS (1) × bs (sgl-project/sglang
	// python/sglang/srt/managers/schedule_policy.py). The prompt must also
	// fit beside the running requests' new_token_ratio reserve. Where it
	// is set the usual own-output reserve (ReserveOwnOutput) is not
	// applied. The benchmark's outputs run to their drawn lengths, as an
	// ignore_eos client's do.
	IgnoreEOSAdmit bool
	// Preempt: when the pool cannot hold the next step's tokens, the
	// engine preempts the most recently admitted running request and
	// recomputes it later (vLLM v1 RECOMPUTE, SGLang's retraction).
	Preempt bool
	// RetractSteps: a preemption goes on until the pool holds that many
	// more tokens for every running decode, and then sets the reserve
	// share to (tokens decoded + RetractSteps × decodes) / their outputs,
	// capped at 1 (SGLang's retract_decode and its
	// SGLANG_RETRACT_DECODE_STEPS, 20). 0: one request at a time, while a
	// single token per decode does not fit (vLLM).
	RetractSteps int
	// AdmitEvery takes new requests in only every so many steps: vLLM
	// v0.6's multi-step scheduling (--num-scheduler-steps, which runs
	// that many decode steps per scheduling pass), SGLang's
	// --scheduler-recv-interval (the scheduler polls for new requests
	// every that many forward passes). 0 or 1: every step.
	AdmitEvery int
	// RecvSkip: AdmitEvery is SGLang's receive skipper, not a scheduling
	// pass. SGLang's scheduler schedules its waiting queue at every step
	// and only takes new requests off its socket when a counter reaches
	// AdmitEvery; each decode or verify step adds 1 to it, any other
	// forward (a prefill) adds 1,000, and an idle scheduler polls at once
	// (sgl-project/sglang python/sglang/srt/managers/
	// scheduler_recv_skipper.py, SchedulerRecvSkipper.handle; the weights
	// are environ.py's SGLANG_SCHEDULER_RECV_SKIPPER_WEIGHT_DEFAULT 1000,
	// _DECODE 1, _TARGET_VERIFY 1, _NONE 1). So a request that arrives
	// after a prefill step is taken in at the next step, and one that
	// arrives during decoding waits for the counter. Without it AdmitEvery
	// holds the waiting queue as vLLM's multi-step scheduling does.
	RecvSkip bool
	// BalanceRanks and BalanceWaitSteps: TensorRT-LLM's attention-DP
	// balance (attention_dp_config enable_balance, batching_wait_iters 0,
	// timeout_iters BalanceWaitSteps): each new request joins one of the
	// BalanceRanks attention ranks, and new requests start only when every
	// rank has one to start, when a rank has some and none running, or
	// every BalanceWaitSteps steps after the last start (the executor's
	// iteration counter; sim.go, rankLoad). 0: no balance wait.
	BalanceRanks, BalanceWaitSteps int
	// RequestSeconds is each request's fixed cost outside the GPU's
	// steps: the HTTP/API server, tokenisation, scheduling, detokenising
	// and streaming. It adds to TTFT and end-to-end latency but occupies
	// no step. The engine's policy alone leaves it 0: it depends on the
	// model (estimator.RequestSeconds, which NewConfig sets).
	RequestSeconds float64
}

// Default scheduler limits, from the engines' sources. vLLM's
// (max_num_seqs and max_num_batched_tokens by GPU memory, and the smaller
// ones on an A100) are estimator.VLLMDefaultLimitsOn, which the memory
// estimate reads too (estimator.Input.VLLMLimits);
// chunked prefill is on in its v1 engine and preemption recomputes.
const (
	// SGLang's admission under KV pressure (sgl-project/sglang
	// python/sglang/srt/managers/scheduler.py, init_new_token_ratio and
	// update_running_batch; schedule_policy.py, PrefillAdder and
	// add_one_req; schedule_batch.py, retract_decode; the defaults in
	// global_config.py, later environ.py). A new request is admitted when
	// its prompt plus its whole output (at most CLIP_MAX_NEW_TOKENS,
	// SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION 4096) fits in the free pool
	// less new_token_ratio of every running request's remaining output.
	// The ratio starts at SGLANG_INIT_NEW_TOKEN_RATIO 0.7 and falls by
	// (0.7 − 0.7 × SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14) /
	// SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS 600 each decode step without a
	// retraction, to 0.098; it returns to 0.7 when the scheduler idles
	// (self_check_during_idle). When a decode step finds no token free
	// for every running request, retract_decode takes back requests (the
	// fewest tokens generated first, then the longest prompt: about the
	// newest) until SGLANG_RETRACT_DECODE_STEPS 20 tokens per remaining
	// request are free, and sets the ratio to (tokens decoded + 20 ×
	// requests) / their max_new_tokens, at most 1; a retracted request
	// goes back to the queue and prefills its prompt and output again.
	//
	// Not modelled: a request with ignore_eos on a server without the
	// radix cache takes add_one_req_ignore_eos instead, which admits only
	// when the pool holds every running request to its last token (ratio
	// 1) as the shortest finish first — InferenceX's clients send
	// --ignore-eos and its DeepSeek-R1 recipes pass
	// --disable-radix-cache; with SGLang's default pool that admission
	// binds on none of its rows (testdata/calibration/README.md, "SGLang's
	// memory default and admission").
	sglangNewTokenRatio    = 0.7
	sglangMinNewTokenRatio = sglangNewTokenRatio * 0.14
	sglangRatioDecaySteps  = 600
	sglangRetractSteps     = 20
	sglangClipMaxNewTokens = 4096
	// TensorRT-LLM's LLM API defaults: max_num_tokens 8192, max_batch_size
	// 2048, capacity scheduler GUARANTEED_NO_EVICT, chunked context off
	// (tensorrt_llm/llmapi/llm_args.py; "Useful Runtime Options" in the
	// TensorRT-LLM performance tuning guide).
	trtBudget, trtSeqs = 8192, 2048
)

const gib = 1 << 30

// DefaultPolicy is engine e's scheduler with its documented defaults on a
// GPU of vram bytes, and its fitted per-request cost. Engines that do not
// batch continuously (HF transformers, llama.cpp) return an
// *estimator.InputError: the simulator models continuous batching.
func DefaultPolicy(e estimator.Engine, vram estimator.Bytes) (Policy, error) {
	return DefaultPolicyOn(e, vram, estimator.Hardware{})
}

// DefaultPolicyOn is DefaultPolicy on a GPU like hw: vLLM's limits are
// estimator.VLLMDefaultLimitsOn, which reads the GPUs the engine singles
// out by name (the A100 80GB takes the smaller limits).
func DefaultPolicyOn(e estimator.Engine, vram estimator.Bytes, hw estimator.Hardware) (Policy, error) {
	p := Policy{Engine: e}
	switch e {
	case estimator.VLLM:
		l := estimator.VLLMDefaultLimitsOn(vram, hw)
		p.TokenBudget, p.MaxSeqs = l.MaxNumBatchedTokens, l.MaxNumSeqs
		p.Mixed, p.Chunked, p.Preempt = true, true, true
	case estimator.SGLang:
		// SGLang's chunked_prefill_size by GPU memory
		// (estimator.SGLangDefaults: 2048 under 35 GiB, 4096 under
		// 60 GiB, 8192 under 160 GiB, 16384 above); max_prefill_tokens
		// defaults to 16384, at least the chunk, so the chunk bounds a
		// prefill step.
		p.TokenBudget = estimator.SGLangDefaults(vram, 1).ChunkedPrefillSize
		p.Chunked, p.Preempt, p.ReserveOutput = true, true, sglangNewTokenRatio
		p.ReserveFloor, p.ReserveDecaySteps, p.ReserveOwnOutput = sglangMinNewTokenRatio, sglangRatioDecaySteps, true
		p.ReserveClip, p.RetractSteps = sglangClipMaxNewTokens, sglangRetractSteps
	case estimator.TRTLLM:
		p.TokenBudget, p.MaxSeqs = trtBudget, trtSeqs
		p.Mixed, p.ReserveOutput = true, 1
	default:
		return Policy{}, &estimator.InputError{Field: "engine", Value: e.String(), Reason: "the simulator models continuous batching (vllm, sglang, trtllm)", Err: estimator.ErrIncompatible}
	}
	return p, nil
}

func (p Policy) validate() error {
	bad := func(field string, v int, reason string) error {
		return &estimator.InputError{Field: field, Value: itoa(v), Reason: reason, Err: estimator.ErrRange}
	}
	switch {
	case !p.Engine.Pooled():
		return &estimator.InputError{Field: "engine", Value: p.Engine.String(), Reason: "the simulator models continuous batching (vllm, sglang, trtllm)", Err: estimator.ErrIncompatible}
	case p.MaxSeqs < 0 || p.MaxSeqs > maxRequests:
		return bad("max-seqs", p.MaxSeqs, "want 0..1048576 (0: the KV pool limits)")
	case p.TokenBudget < 1 || p.TokenBudget > 1<<24:
		return bad("max-batched-tokens", p.TokenBudget, "want 1..16777216")
	case p.ChunkCap < 0 || p.ChunkCap > p.TokenBudget:
		return bad("chunk-cap", p.ChunkCap, "want 0..max-batched-tokens (0: the budget)")
	case !(p.ReserveOutput >= 0 && p.ReserveOutput <= 1):
		return &estimator.InputError{Field: "reserve-output", Value: ftoa(p.ReserveOutput), Reason: "want a share in [0, 1]", Err: estimator.ErrRange}
	case !(p.ReserveFloor >= 0 && p.ReserveFloor <= p.ReserveOutput):
		return &estimator.InputError{Field: "reserve-floor", Value: ftoa(p.ReserveFloor), Reason: "want a share in [0, reserve-output]", Err: estimator.ErrRange}
	case p.ReserveDecaySteps < 0 || p.ReserveDecaySteps > 1<<24:
		return bad("reserve-decay-steps", p.ReserveDecaySteps, "want 0..16777216")
	case p.ReserveClip < 0 || p.ReserveClip > 1<<24:
		return bad("reserve-clip", p.ReserveClip, "want 0..16777216 (0: none)")
	case p.RetractSteps < 0 || p.RetractSteps > 1<<16:
		return bad("retract-steps", p.RetractSteps, "want 0..65536")
	case p.AdmitEvery < 0 || p.AdmitEvery > 1<<16:
		return bad("scheduler-steps", p.AdmitEvery, "want 0..65536")
	case p.BalanceRanks < 0 || p.BalanceRanks > 1<<16:
		return bad("balance-ranks", p.BalanceRanks, "want 0..65536")
	case p.BalanceWaitSteps < 0 || p.BalanceWaitSteps > 1<<16:
		return bad("balance-wait-steps", p.BalanceWaitSteps, "want 0..65536")
	case !(p.RequestSeconds >= 0 && p.RequestSeconds <= 3600):
		return &estimator.InputError{Field: "request-seconds", Value: ftoa(p.RequestSeconds), Reason: "want seconds in [0, 3600]", Err: estimator.ErrRange}
	}
	return nil
}

// Bench is a closed-loop benchmark of one replica: Concurrency requests
// in flight, Requests in all (0: DefaultRequests), lengths spread by
// RangeRatio (Load.RangeRatio; use DefaultRangeRatio for a benchmark
// client's), drawn from Seed.
type Bench struct {
	Concurrency, Requests int
	RangeRatio            float64
	Seed                  uint64
	// FirstWaveSeconds is the benchmark's cold first wave
	// (Load.FirstWaveSeconds); 0: none.
	FirstWaveSeconds float64
	// maxEvents, when > 0, stops the run with errEventBudget after that
	// many scheduler events (Fit's budget).
	maxEvents int64
}

// DefaultRangeRatio is the benchmark client's length spread: InferenceX
// runs benchmark_serving.py with --random-range-ratio 0.8 (its
// .github/workflows/benchmark-tmpl.yml RANDOM_RANGE_RATIO default), so a
// request's prompt and output are uniform in [0.8 L, L] for the lengths L
// given. Without a spread a closed loop's requests finish in lockstep and
// arrive in waves, which real clients' varied lengths break up.
const DefaultRangeRatio = 0.8

// DefaultRequests is the requests of a benchmark at concurrency c: 10 × c
// as InferenceX's single-node recipes send (--num-prompts $((CONC * 10)),
// SemiAnalysisAI/InferenceX benchmarks/single_node/fixed_seq_len/*.sh),
// at least 64 so that low concurrencies give stable percentiles (an
// estimate).
func DefaultRequests(c int) int {
	return min(max(10*c, 64), maxRequests)
}

// Simulatable reports whether Benchmark applies to in serving w: inference
// on a continuously batching engine that generates tokens.
func Simulatable(in estimator.Input, w estimator.Workload) bool {
	_, out := lengths(in, w)
	return !in.Task.Training() && in.Engine.Pooled() && out >= 1 && !in.Arch.Encoder && in.Arch.SeqLen == 0
}

// lengths is the prompt and output tokens per request as the speed
// estimate reads them: the workload's, or half of Input.Seq each.
func lengths(in estimator.Input, w estimator.Workload) (prompt, output int) {
	if w.PromptTokens == 0 && w.OutputTokens == 0 {
		output = in.Seq / 2
		return max(1, in.Seq-output), output
	}
	return w.PromptTokens, w.OutputTokens
}

// SchedulerRanks is how many schedulers one engine copy of in runs, each
// under the engine's limits (Policy.MaxSeqs, TokenBudget): with attention
// data parallelism each DP rank schedules its own requests (vLLM's
// data-parallel engines, SGLang's and TensorRT-LLM's attention-DP ranks),
// so the copy holds DP times the sequences and tokens of one scheduler;
// 1 otherwise.
func SchedulerRanks(in estimator.Input) int {
	if dp := in.DP; dp > 1 && in.TP%dp == 0 {
		return dp
	}
	return 1
}

// NewConfig sets up the simulation of one replica of in (in.TP × in.PP
// GPUs like hw; in.GPUs and in.Batch are ignored) serving w under its
// engine's default scheduler (DefaultPolicyOn in.VRAM and hw; a non-zero
// in.MaxBatchedTokens replaces the token budget, in.SchedulerSteps or
// in.SchedulerRecvInterval sets AdmitEvery, in.NoPrefixCache SGLang's
// IgnoreEOSAdmit, in.AttentionDPBalanceIters
// TensorRT-LLM's attention-DP balance, estimator.RequestSeconds
// RequestSeconds: in.RequestSeconds where set). When the memory estimate's KV pool cannot hold one
// request (a job that fits only with a lower memory reserve or an fp8 KV
// cache), the pool bounds nothing and KVUnbounded says so. Load's
// concurrency, rate and request count are left to the caller.
func NewConfig(in estimator.Input, hw estimator.Hardware, eff estimator.Efficiency, w estimator.Workload) (Config, error) {
	pol, err := DefaultPolicyOn(in.Engine, in.VRAM, hw)
	if err != nil {
		return Config{}, err
	}
	if in.MaxBatchedTokens > 0 {
		pol.TokenBudget = in.MaxBatchedTokens
	}
	pol.AdmitEvery = max(in.SchedulerSteps, in.SchedulerRecvInterval)
	pol.RecvSkip = in.Engine == estimator.SGLang && in.SchedulerRecvInterval > 1
	pol.IgnoreEOSAdmit = in.Engine == estimator.SGLang && in.NoPrefixCache
	pol.RequestSeconds = estimator.RequestSeconds(in, hw) // a calibration's (Calibration), else the engine's for the model
	if dp := SchedulerRanks(in); dp > 1 {
		pol.MaxSeqs *= dp
		// Each rank's whole budget (TensorRT-LLM, vLLM), or one budget
		// a rank's prompt takes a dp-th of (SGLang):
		// estimator.RankBudgets.
		if estimator.RankBudgets(in.Engine) {
			pol.TokenBudget = min(pol.TokenBudget*dp, 1<<24)
		} else {
			pol.ChunkCap = max(pol.TokenBudget/dp, 1)
		}
		if in.Engine == estimator.TRTLLM && in.AttentionDPBalanceIters > 0 {
			pol.BalanceRanks, pol.BalanceWaitSteps = dp, in.AttentionDPBalanceIters
		}
	}
	prompt, output := lengths(in, w)
	w.PromptTokens, w.OutputTokens = prompt, output
	m := estimator.NewServingModel(in, hw, eff, w)
	if err := m.Err(); err != nil {
		return Config{}, err
	}
	cfg := Config{Model: &m, Policy: pol, Load: Load{PromptTokens: prompt, OutputTokens: output}}
	if m.KVPoolTokens() < int64(prompt+output) {
		cfg.KVTokens = KVUnbounded
	}
	return cfg, nil
}

// KVUnbounded as Config.KVTokens is a pool that bounds nothing.
const KVUnbounded = 1 << 50

// Benchmark is the closed-loop benchmark that Rightsize reports for a
// serving engine, the CLI's estimate and the page alike: NewConfig's
// replica at b. Result.Apply puts it into the speed estimate.
func Benchmark(in estimator.Input, hw estimator.Hardware, eff estimator.Efficiency, w estimator.Workload, b Bench) (Config, Result, error) {
	cfg, err := NewConfig(in, hw, eff, w)
	if err != nil {
		return cfg, Result{}, err
	}
	cfg.Load.Concurrency, cfg.Load.Requests = b.Concurrency, b.Requests
	if b.Requests == 0 {
		cfg.Load.Requests = DefaultRequests(b.Concurrency)
	}
	cfg.Load.RangeRatio, cfg.Load.Seed = b.RangeRatio, b.Seed
	cfg.Load.FirstWaveSeconds = b.FirstWaveSeconds
	cfg.maxEvents = b.maxEvents
	res, err := Run(cfg)
	return cfg, res, err
}

// Apply returns p (estimator.Throughput of the job, replicas copies of the
// simulated replica) with its serving figures replaced by the benchmark's:
// TimeToFirstToken and DecodeTokenLatency are the means over the run's
// requests, TokensPerSecond the generated tokens/s of all replicas, and
// the band and the implied MFU scale with it.
func (r Result) Apply(p estimator.Perf, replicas int) estimator.Perf {
	tps := r.OutputTokensPerSecond * float64(max(replicas, 1))
	if p.TokensPerSecond > 0 {
		scale := tps / p.TokensPerSecond
		p.TokensPerSecondLow *= scale
		p.TokensPerSecondHigh *= scale
		p.MFU *= scale
	}
	p.TokensPerSecond = tps
	p.TimeToFirstToken, p.DecodeTokenLatency = r.TTFT.Mean, r.TPOT.Mean
	return p
}
