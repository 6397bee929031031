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
	if concurrency < 1 || concurrency > maxBatch {
		return ServePoint{}, &InputError{Field: "concurrency", Value: itoa(concurrency), Reason: "want 1..1048576", Err: ErrRange}
	}
	if in.TP >= 1 && in.PP >= 1 && in.TP <= maxGPUs && in.PP <= maxGPUs {
		in.GPUs = in.TP * in.PP
	}
	in.Batch = concurrency
	prompt, out := sampleLengths(in, w)
	if p, o := int(prompt), int(out); p+o >= 1 && p+o <= maxSeq {
		in.Seq = p + o
	}
	p, err := Throughput(in, hw, eff, w)
	if err != nil {
		return ServePoint{}, err
	}
	sp := ServePoint{Concurrency: concurrency, TTFTSeconds: p.TimeToFirstToken, TPOTSeconds: p.DecodeTokenLatency,
		TokensPerSecond: p.TokensPerSecond, Bound: p.Bound}
	if out > 0 {
		sp.RequestsPerSecond = p.TokensPerSecond / out
	} else {
		sp.RequestsPerSecond = p.TokensPerSecond / math.Max(prompt, 1)
	}
	one := in
	one.Batch = 1
	if r, err := Estimate(one); err == nil {
		if in.Engine.Pooled() {
			sp.MaxConcurrency = r.MaxConcurrentSeqs
		} else if r.Fits {
			sp.MaxConcurrency = int64(MaxBatch(one))
		}
	} else if !errors.Is(err, ErrRange) {
		return ServePoint{}, err
	}
	return sp, nil
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
	replicas := in.GPUs / (in.TP * in.PP)
	r := float64(replicas)
	c := float64(in.Batch)
	prompt, out := sampleLengths(in, w)

	p := Perf{GPUs: in.GPUs, Replicas: replicas, ComputeEfficiency: eff.InferenceMFU, BandwidthUtil: eff.BandwidthUtil,
		HostFloorSeconds: m.host}
	prefillB, prefillBound := m.prefill(c, prompt)
	p.PrefillTokensPerSecond = r * c * prompt / prefillB
	if out == 0 {
		p.TimeToFirstToken = prefillB
		p.TokensPerSecond = p.PrefillTokensPerSecond
		p.MFU = p.TokensPerSecond * 2 * m.n / (float64(in.GPUs) * hw.PeakFLOPS)
		p.Bound = prefillBound
		p.Uncertainty = inferUncertainty(in, prompt, out)
		return p
	}
	// Decode at the mean context of the generation, prompt + out/2: the
	// KV read grows linearly, so this is close to the mean step time
	// (exact while one term of the roofline dominates).
	step, bound, memBound := m.decodeStep(c, prompt+out/2)
	p.DecodeStepSeconds, p.DecodeMemoryBound, p.Bound = step, memBound, bound
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
		// improvement and 5x latency reduction").
		tpot = step + c/out*m.prefillMarginal(prompt)
		own, _ := m.prefill(1, prompt)
		co := (c - 1) * own / (own + out*tpot)
		pass := float64(max(in.SchedulerSteps, 1)) * step
		ttft = own + co*m.prefillMarginal(prompt) + (c-1)/c*pass/2
	} else {
		// Static batch (HF generate(), llama.cpp): the c prompts prefill
		// together, then out steps.
		ttft, tpot = prefillB, step
	}
	p.TimeToFirstToken, p.DecodeTokenLatency = ttft, tpot
	p.TokensPerSecond = r * c * out / (ttft + out*tpot)
	p.MFU = p.TokensPerSecond / out * (prompt + out) * 2 * m.n / (float64(in.GPUs) * hw.PeakFLOPS)
	if in.TP > 1 && c*m.commPerToken > 0.5*step {
		p.Bound = BoundCommunication
	}
	p.Uncertainty = inferUncertainty(in, prompt, out)
	return p
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
