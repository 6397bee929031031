package estimator

// Serving: requests at a fixed concurrency on one replica. Continuous-
// batching engines (Engine.Pooled) admit requests as others finish and mix
// their prompt chunks into decode steps; HF generate() and llama.cpp run a
// static batch: all prompts, then the decode steps.

import (
	"errors"
	"math"
)

// ServePoint is one replica serving a Workload at a fixed number of
// concurrent requests.
type ServePoint struct {
	Concurrency int // requests in flight on the replica
	// TTFTSeconds is a request's time to first token: its prefill, the
	// prefill of requests admitted with it, and the wait for the step in
	// flight. TPOTSeconds is the mean time per output token after the
	// first: the decode step plus the other requests' prompt chunks that
	// share it (chunked prefill).
	TTFTSeconds, TPOTSeconds float64
	// TokensPerSecond is generated tokens/s of the replica, consistent
	// with the two latencies: Concurrency × output / (TTFT + output ×
	// TPOT). RequestsPerSecond is the completed requests/s.
	TokensPerSecond, RequestsPerSecond float64
	// MaxConcurrency is the most requests of PromptTokens + OutputTokens
	// the replica's memory holds (the KV pool for pooled engines, the
	// largest batch that fits otherwise); 0 when none fits.
	MaxConcurrency int64
	Bound          Bound // what bounds the decode step
}

// ServingPoint estimates one replica of in (TP × PP GPUs; in.GPUs and
// in.Batch are ignored) serving w at concurrency requests in flight, on
// GPUs like hw. It returns the same errors as Throughput, and an
// *InputError for "concurrency" outside 1..2^20.
func ServingPoint(in Input, hw Hardware, eff Efficiency, w Workload, concurrency int) (ServePoint, error) {
	if err := checkConcurrency(concurrency); err != nil {
		return ServePoint{}, err
	}
	m := NewServingModel(in, hw, eff, w)
	return m.Point(concurrency)
}

// ServingModel is ServingPoint set up once for many concurrencies: the
// validation, the replica's speed model and its memory estimate do not
// depend on the concurrency (in.Batch is the only field a point changes,
// and neither reads it), so a serving curve sampled at several
// concurrencies computes them once. Point(c) returns exactly what
// ServingPoint(in, hw, eff, w, c) returns. The zero value is not valid:
// build it with NewServingModel.
type ServingModel struct {
	// m.in is ServingPoint's input (GPUs = TP × PP, Seq = prompt +
	// output), set even where m is not built (an invalid or training
	// input): the model keeps one copy of the Input, which a serving plan
	// holds for each of its copy shapes.
	w       Workload
	prompt  float64 // SampleLengths of the input as given
	out     float64
	err     error // Throughput's error, or the memory estimate's
	m       inferModel
	hw      Hardware   // as given (a training task's point is Throughput's)
	rawEff  Efficiency // as given
	eff     Efficiency // resolved
	peak    float64    // hw.PeakFLOPS
	maxConc int64
	pool    int64 // Result.KVPoolTokens of the replica (pooled engines)
}

// NewServingModel sets up one replica of in serving w on GPUs like hw,
// as ServingPoint reads them. Invalid inputs are reported by Point and
// Perf, with the errors ServingPoint returns.
func NewServingModel(in Input, hw Hardware, eff Efficiency, w Workload) ServingModel {
	if in.TP >= 1 && in.PP >= 1 && in.TP <= maxGPUs && in.PP <= maxGPUs {
		in.GPUs = in.TP * in.PP
	}
	// Any valid concurrency: validation reads Batch only for its range,
	// and the memory estimate is the one at a single request.
	in.Batch = 1
	prompt, out := SampleLengths(in, w)
	if p, o := int(prompt), int(out); p+o >= 1 && p+o <= maxSeq {
		in.Seq = p + o
	}
	s := ServingModel{w: w, prompt: prompt, out: out, hw: hw, rawEff: eff}
	s.m.in = in
	if s.err = validateThroughput(in, hw, eff, w); s.err != nil {
		return s
	}
	if !in.Task.Training() {
		hw = hw.withDefaults()
		s.eff = eff.resolve(in, hw)
		s.m = newInferModel(in, hw, s.eff)
		s.peak = hw.PeakFLOPS
	}
	if r, err := Estimate(in); err == nil {
		if in.Engine.Pooled() {
			// With attention data parallelism each DP rank keeps the KV
			// of its own sequences: the replica holds DP pools (as
			// MaxConcurrentSeqs counts them).
			s.maxConc, s.pool = r.MaxConcurrentSeqs, r.KVPoolTokens*int64(dpRanks(in))
		} else if r.Fits {
			s.maxConc = int64(MaxBatch(in))
		}
	} else if !errors.Is(err, ErrRange) {
		s.err = err
	}
	return s
}

// MaxConcurrency is every point's ServePoint.MaxConcurrency; 0 when the
// inputs are invalid.
func (s *ServingModel) MaxConcurrency() int64 {
	if s.err != nil {
		return 0
	}
	return s.maxConc
}

// Err is the error every point of the model returns: the inputs'
// validation or the memory estimate's; nil when the model is usable.
func (s *ServingModel) Err() error { return s.err }

// KVPoolTokens is the tokens of KV cache the replica's engine holds
// (Result.KVPoolTokens, what vLLM logs as "GPU KV cache size", times the
// attention data-parallel ranks, each of which holds its own); 0 for
// engines without a pool or invalid inputs.
func (s *ServingModel) KVPoolTokens() int64 {
	if s.err != nil {
		return 0
	}
	return s.pool
}

// Step is the work of one engine step on the replica, as a scheduler
// forms it: prompt tokens to prefill (whole prompts or chunks of them,
// Agrawal et al. 2024 "Sarathi-Serve": chunks ride with decodes) and
// sequences that each decode one token.
type Step struct {
	PrefillTokens int // prompt tokens computed in the step
	PrefillSeqs   int // requests those tokens belong to
	// PrefillContext is Σ over the prefill tokens of the context each
	// attends to (a chunk of tokens a+1..b of a prompt sums a·(b−a) +
	// (b−a)(b−a+1)/2); PrefillKV is Σ over the prefill requests of the
	// KV tokens the step reads and writes for them (the chunk's end b).
	PrefillContext, PrefillKV float64
	DecodeSeqs                int     // sequences decoding one token each
	DecodeContext             float64 // Σ over them of their context (prompt + generated)
	// Verify marks the prefill tokens as speculative draft tokens that the
	// decoding sequences verify: their attention runs in the decode form
	// (absorbedAttnScale), not a prompt's.
	Verify bool
}

// StepSeconds is the time of one engine step doing st on the replica:
// the same forward pass as the closed-form model's prefill and decode
// steps (step: the roofline of the tokens' FLOPs and the weights and KV
// read, the per-layer cost, TP collectives and the engine's floor), for a
// batch that mixes prompt chunks and decodes. A decode-only step of c
// sequences at context x each is Perf's DecodeStepSeconds at that
// context; k whole prompts of p tokens are prefill(k, p). It returns 0
// for an empty step, a training input or a model with an error, and
// allocates nothing.
//
// With speculative decoding (Input.DraftTokens) a step's decoding
// sequences each gain a token's worth of a draft-and-verify step
// (specTokenSeconds: the step over the tokens it yields), so a simulated
// step is one token of each decoding sequence, as without; its prompt
// tokens cost their forward and the MTP module's pass over them (SGLang
// runs the draft model's extend over every prefilled prompt), 1 +
// mtpBlock times the step's part beyond its decodes.
func (s *ServingModel) StepSeconds(st Step) float64 {
	if s.err != nil || s.m.in.Task.Training() {
		return 0
	}
	return s.m.stepSeconds(st)
}

// stepSeconds is StepSeconds on the model.
func (m *inferModel) stepSeconds(st Step) float64 {
	raw := m.rawStepSeconds(st)
	if m.draft == 0 || st.Verify || raw == 0 {
		return raw
	}
	if st.DecodeSeqs <= 0 {
		return raw * (1 + m.mtpBlock)
	}
	one := raw
	if st.PrefillTokens > 0 {
		one = m.rawStepSeconds(Step{DecodeSeqs: st.DecodeSeqs, DecodeContext: st.DecodeContext})
	}
	return finite((raw-one)*(1+m.mtpBlock) + m.specTokenSeconds(float64(st.DecodeSeqs), max(st.DecodeContext, 0), one))
}

// rawStepSeconds is stepSeconds without speculative decoding: the step as
// the scheduler forms it, each decoding sequence one token.
func (m *inferModel) rawStepSeconds(st Step) float64 {
	p, d := float64(max(st.PrefillTokens, 0)), float64(max(st.DecodeSeqs, 0))
	tokens := p + d
	if tokens == 0 {
		return 0
	}
	ctok, lctx, kv := m.stepLoad(st, p, d)
	secs, _, _ := m.stepSum((p == 0 || st.Verify) && m.eager(d), tokens, ctok, lctx, kv)
	if m.dpRanks > 1 && p > 0 && !st.Verify {
		k := float64(max(st.PrefillSeqs, 1))
		secs += m.rankSkewGrowth(k, p/k, m.sc.attended(max(st.PrefillContext, 0)/p), tokens, ctok, lctx, kv)
	}
	// The running sequences: the decoding ones and those with a prompt
	// chunk in the step.
	seqs := d + float64(max(st.PrefillSeqs, 0))
	return finite(m.frontEndFloor(secs+m.stepExtra(tokens, seqs, p == 0 || st.Verify), seqs))
}

// stepLoad is the compute in decode tokens' worth, the attention spans'
// sum and the KV bytes read of a step st of p prompt tokens and d decoding
// sequences, as StepSeconds passes them to stepSum (and rankSkewGrowth to
// deviceTerms): prompt tokens' linears and attention count promptCost
// each, a speculative step's draft tokens (Verify) 1, as decode tokens.
func (m *inferModel) stepLoad(st Step, p, d float64) (ctok, lctx, kv float64) {
	ctok = d
	// The built-in max is math.Max for every input (NaN and signed zeros
	// included, by the Go spec), inlined: this runs for every simulated
	// engine step.
	if p > 0 {
		pl, f := p*m.sc.attended(max(st.PrefillContext, 0)/p), m.promptCost
		if st.Verify {
			pl, f = pl*m.sc.absorbed, 1
		}
		ctok += p * f
		lctx += pl * f
		k := float64(max(st.PrefillSeqs, 1))
		kv += k * m.kvSeq(max(st.PrefillKV, 0)/k)
	}
	if d > 0 {
		ctx := max(st.DecodeContext, 0) / d
		lctx += d * m.sc.attended(ctx) * m.sc.absorbed
		kv += d * m.kvSeq(ctx)
	}
	return ctok, lctx, kv
}

// Input is the replica's input as ServingPoint reads it: GPUs = TP × PP,
// Seq = prompt + output tokens, Batch 1 (Perf sets it).
func (s *ServingModel) Input() Input { return s.m.in }

// Perf is Throughput of the replica's input (ServingPoint's: GPUs = TP
// × PP, Seq = prompt + output) at Batch = concurrency; ServePoint's
// latencies are its TimeToFirstToken and DecodeTokenLatency, its Bound
// the Perf's.
func (s *ServingModel) Perf(concurrency int) (Perf, error) {
	if err := checkConcurrency(concurrency); err != nil {
		return Perf{}, err
	}
	if s.err != nil {
		return Perf{}, s.err
	}
	in := s.m.in
	in.Batch = concurrency
	if in.Task.Training() {
		return Throughput(in, s.hw, s.rawEff, s.w)
	}
	return finish(s.m.perf(in, s.eff, s.peak, s.w)), nil
}

// Point is ServingPoint(in, hw, eff, w, concurrency).
func (s *ServingModel) Point(concurrency int) (ServePoint, error) {
	p, err := s.Perf(concurrency)
	if err != nil {
		return ServePoint{}, err
	}
	prompt, out := s.prompt, s.out
	sp := ServePoint{Concurrency: concurrency, TTFTSeconds: p.TimeToFirstToken, TPOTSeconds: p.DecodeTokenLatency,
		TokensPerSecond: p.TokensPerSecond, Bound: p.Bound, MaxConcurrency: s.maxConc}
	if out > 0 {
		sp.RequestsPerSecond = p.TokensPerSecond / out
	} else {
		sp.RequestsPerSecond = p.TokensPerSecond / math.Max(prompt, 1)
	}
	return sp, nil
}

func checkConcurrency(concurrency int) error {
	if concurrency < 1 || concurrency > maxBatch {
		return &InputError{Field: "concurrency", Value: itoa(concurrency), Reason: "want 1..1048576", Err: ErrRange}
	}
	return nil
}

func itoa(i int) string {
	var b [24]byte
	n := len(b)
	neg := i < 0
	u := uint64(i)
	if neg {
		u = uint64(-i)
	}
	for {
		n--
		b[n] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// inferPerf: the replica serves Input.Batch requests of the Workload at a
// time (continuously for pooled engines, as a static batch otherwise).
func inferPerf(in Input, hw Hardware, eff Efficiency, w Workload) Perf {
	eff = eff.resolve(in, hw)
	m := newInferModel(in, hw, eff)
	return m.perf(in, eff, hw.PeakFLOPS, w)
}

// perf is inferPerf on the replica's model m (built from in with any
// Batch: the model does not read it) at in.Batch, with eff resolved and
// peak the hardware's PeakFLOPS.
func (m *inferModel) perf(in Input, eff Efficiency, peak float64, w Workload) Perf {
	replicas := in.GPUs / (in.TP * in.PP)
	r := float64(replicas)
	c := float64(in.Batch)
	prompt, out := SampleLengths(in, w)

	p := Perf{GPUs: in.GPUs, Replicas: replicas, ComputeEfficiency: eff.InferenceMFU, BandwidthUtil: eff.BandwidthUtil,
		HostFloorSeconds: m.hostFloor()}
	prefillB, prefillBound := m.prefill(c, prompt)
	p.PrefillTokensPerSecond = r * c * prompt / prefillB
	if out == 0 {
		p.TimeToFirstToken = prefillB
		p.TokensPerSecond = p.PrefillTokensPerSecond
		p.MFU = p.TokensPerSecond * 2 * m.n / (float64(in.GPUs) * peak)
		p.Bound = prefillBound
		p.Uncertainty = inferUncertainty(in, prompt, out)
		return p
	}
	// Decode at the mean context of the generation, prompt + out/2: the
	// KV read grows linearly, so this is close to the mean step time
	// (exact while one term of the roofline dominates).
	// With speculative decoding step is a draft-and-verify step's seconds
	// per token it yields (specTokenSeconds); the step itself is tau of
	// them.
	step, bound, memBound := m.decodeStep(c, prompt+out/2)
	p.DecodeStepSeconds, p.DecodeMemoryBound, p.Bound = step, memBound, bound
	if m.draft > 0 {
		p.DecodeStepSeconds, p.AcceptedTokens = step*m.tau, m.tau
	}
	p.DecodeTokensPerSecond = r * c / step
	var ttft, tpot float64
	if in.Engine.Pooled() {
		// Steady state of continuous batching: every step yields one
		// token per request and, with c requests of out tokens each,
		// admits c/out new prompts whose chunks share the steps
		// (Sarathi-Serve's stall-free batching: prefill chunks ride with
		// decodes, so the steps of the other requests slow down by the
		// prompts' compute). A new request prefills its own prompt
		// (reading the weights), the prompts of requests being admitted
		// with it, and waits for the step in flight: on average half of
		// it, or half of a multi-step pass of SchedulerSteps steps (vLLM
		// v0.6 multi-step scheduling admits new requests only between
		// passes; vLLM blog 2024-09-05 "vLLM v0.6.0: 2.7x throughput
		// improvement and 5x latency reduction"), or of SGLang's receive
		// interval, whose scheduler polls for new requests only every
		// SchedulerRecvInterval passes.
		own, marginal := m.admission(prompt)
		tpot = step + c/out*marginal
		co := (c - 1) * own / (own + out*tpot)
		pass := float64(max(in.SchedulerSteps, in.SchedulerRecvInterval, 1)) * step
		ttft = own + co*marginal + (c-1)/c*pass/2
	} else {
		// Static batch (HF generate(), llama.cpp): the c prompts prefill
		// together, then out steps.
		ttft, tpot = prefillB, step
	}
	p.TimeToFirstToken, p.DecodeTokenLatency = ttft, tpot
	p.TokensPerSecond = r * c * out / (ttft + out*tpot)
	p.MFU = p.TokensPerSecond / out * (prompt + out) * 2 * m.n / (float64(in.GPUs) * peak)
	if in.TP > 1 && c*m.commPerToken > 0.5*step {
		p.Bound = BoundCommunication
	}
	p.Uncertainty = inferUncertainty(in, prompt, out)
	return p
}

// admission is a lone prompt's prefill on an idle replica and the
// seconds one prompt adds to a step that already reads the weights
// (prefill, prefillMarginal), kept for the next call with the same
// prompt: they do not depend on the concurrency.
func (m *inferModel) admission(prompt float64) (own, marginal float64) {
	if m.admitted && m.admitPrompt == prompt {
		return m.own, m.marginal
	}
	m.own, _ = m.prefill(1, prompt)
	m.marginal = m.prefillMarginal(prompt)
	m.admitted, m.admitPrompt = true, prompt
	return m.own, m.marginal
}

// inferUncertainty: ±30% where the calibration rows hold (serving
// engines at TP ≤ 2: TensorRT-LLM H100 rows −13..+4%, SGLang steps
// −16..−2%; the 2025-on llama.cpp rows), ±50% at larger TP
// (Llama-3.1-405B TP 8 is −9..+5%, one model on one engine; 2022
// DeepSpeed-Inference BLOOM TP 8 −25..−29%) and for HF transformers,
// whose host-bound steps depend on a host CPU the estimate knows only by
// class (the bitsandbytes rows put the RTX 4090 desktop at 7.6–10.7 µs
// per op, the H100 server at 17.4, the T4 VM at 25–31); +20 points beyond
// the calibrated lengths and batches (sequences over 128K tokens, batches
// over 2048) and for expert or attention data parallelism, which no
// replayed row measures.
func inferUncertainty(in Input, prompt, out float64) float64 {
	u := 0.3
	if in.TP > 2 || in.Engine == HF {
		u = 0.5
	}
	if prompt+out > 131072 || in.Batch > 2048 || in.EP > 1 || in.DP > 1 {
		u += 0.2
	}
	return math.Min(u, 0.8)
}
