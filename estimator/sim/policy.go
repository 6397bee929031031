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
	// Preempt: when the pool cannot hold the next step's tokens, the
	// engine preempts the most recently admitted running request and
	// recomputes it later (vLLM v1 RECOMPUTE, SGLang's retraction).
	Preempt bool
	// RequestSeconds is each request's fixed cost outside the GPU's
	// steps: the HTTP/API server, tokenisation, scheduling, detokenising
	// and streaming. It adds to TTFT and end-to-end latency but occupies
	// no step. Fitted per engine (requestSeconds).
	RequestSeconds float64
}

// Default scheduler limits, from the engines' sources.
const (
	// vLLM v1 on GPUs of at least 70 GiB other than the A100, for the
	// OpenAI-compatible server: max_num_batched_tokens 8192 and
	// max_num_seqs 1024; on smaller GPUs 2048 and 256
	// (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults, v0.10 and
	// later). Chunked prefill is on in v1; preemption recomputes.
	vllmBudgetLarge, vllmSeqsLarge = 8192, 1024
	vllmBudgetSmall, vllmSeqsSmall = 2048, 256
	// SGLang chunked_prefill_size by GPU memory: 2048 under 35 GiB, 8192
	// under 160 GiB, 16384 above (sglang/srt/server_args.py,
	// _handle_gpu_memory_settings); max_prefill_tokens defaults to 16384,
	// at least the chunk, so the chunk bounds a prefill step.
	sglangChunkSmall, sglangChunkMid, sglangChunkLarge = 2048, 8192, 16384
	// sglangNewTokenRatio is SGLang's initial new_token_ratio, the share
	// of each running request's remaining output it keeps free when it
	// admits a new one (sglang/srt/managers/scheduler.py,
	// SGLANG_INIT_NEW_TOKEN_RATIO default 0.7); the ratio decays while
	// nothing is retracted, which this model leaves out.
	sglangNewTokenRatio = 0.7
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
	p := Policy{Engine: e, RequestSeconds: requestSeconds(e)}
	switch e {
	case estimator.VLLM:
		p.TokenBudget, p.MaxSeqs = vllmBudgetSmall, vllmSeqsSmall
		if vram >= 70*gib {
			p.TokenBudget, p.MaxSeqs = vllmBudgetLarge, vllmSeqsLarge
		}
		p.Mixed, p.Chunked, p.Preempt = true, true, true
	case estimator.SGLang:
		p.TokenBudget = sglangChunkLarge
		switch {
		case vram < 35*gib:
			p.TokenBudget = sglangChunkSmall
		case vram < 160*gib:
			p.TokenBudget = sglangChunkMid
		}
		p.Chunked, p.Preempt, p.ReserveOutput = true, true, sglangNewTokenRatio
	case estimator.TRTLLM:
		p.TokenBudget, p.MaxSeqs = trtBudget, trtSeqs
		p.Mixed, p.ReserveOutput = true, 1
	default:
		return Policy{}, &estimator.InputError{Field: "engine", Value: e.String(), Reason: "the simulator models continuous batching (vllm, sglang, trtllm)", Err: estimator.ErrIncompatible}
	}
	return p, nil
}

// requestSeconds is the engine's fixed cost per request outside the GPU's
// steps (Policy.RequestSeconds). The values are fitted in calibrate_test.go.
func requestSeconds(e estimator.Engine) float64 {
	switch e {
	case estimator.SGLang:
		return sglangRequestSeconds
	case estimator.TRTLLM:
		return trtllmRequestSeconds
	}
	return vllmRequestSeconds
}

// Placeholders until calibration fits them.
const (
	sglangRequestSeconds = 0.1
	trtllmRequestSeconds = 0.1
	vllmRequestSeconds   = 0.1
)

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
	case !(p.ReserveOutput >= 0 && p.ReserveOutput <= 1):
		return &estimator.InputError{Field: "reserve-output", Value: ftoa(p.ReserveOutput), Reason: "want a share in [0, 1]", Err: estimator.ErrRange}
	case !(p.RequestSeconds >= 0 && p.RequestSeconds <= 3600):
		return &estimator.InputError{Field: "request-seconds", Value: ftoa(p.RequestSeconds), Reason: "want seconds in [0, 3600]", Err: estimator.ErrRange}
	}
	return nil
}
