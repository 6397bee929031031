package estimator

import "math"

// Three mechanisms of disaggregated serving that the forward-pass model
// alone leaves out: a prefill worker with attention data parallelism runs
// each prompt's attention on one rank (rankSkewSeconds), the prefill
// worker's scheduler spends time on each prompt's handover
// (PrefillHandoverSeconds), and the decode worker admits a handed-over
// request in its own loop's steps (decodeAdmissionSteps).

// rankSkewSeconds is the compute that a forward of k prompts (or their
// chunks) on a copy of ranks attention-DP ranks puts on its busiest rank
// beyond the step that spreads every token's work over all the copy's
// GPUs: attn is one prompt's (or chunk's) attention (rankSkewGrowth). Under attention DP a request is one rank's: SGLang's
// data-parallel controller sends each request whole to one DP rank's
// scheduler (python/sglang/srt/managers/data_parallel_controller.py,
// round_robin_scheduler, sgl-project/sglang at fdd9edee), and the PD prefill
// loop syncs every forward over the ranks, idle ranks running an empty
// batch (python/sglang/srt/disaggregation/prefill.py at 000c2b94,
// get_next_disagg_prefill_batch_to_run → maybe_prepare_mlp_sync_batch);
// TensorRT-LLM's attention DP likewise gives each rank its own requests,
// and "the execution time for the Attention module in any given iteration
// is bounded by the rank with the highest workload" (TensorRT-LLM
// docs/source/blogs/tech_blog/blog10_ADP_Balance_Strategy.md at 011cfc2c,
// "Mathematical Modeling"). The experts stay spread over the EP ranks. So
// the busiest rank holds ⌈k/ranks⌉ prompts, whose attention takes ranks ×
// attn each on that rank's GPUs, where the step counted k × attn in all:
// one 1k prompt on a TP 8 DP 8 worker runs its attention on one GPU, 8
// times the spread figure. Prompts chunked over several forwards (SGLang's
// chunked_prefill_size divided by dp_size) stay on their rank, so the sum
// over the chunks is the same. The dispatch is taken as even (round robin);
// SGLang's PD mode hashing a request's bootstrap room to a rank can only
// load the busiest rank more.
func rankSkewSeconds(attn, k, ranks float64) float64 {
	if ranks <= 1 || !(k >= 1) || !(attn > 0) {
		return 0
	}
	return attn * (math.Ceil(k/ranks)*ranks - k)
}

// sglangPrefillHandoverSeconds is the time an SGLang PD prefill worker
// spends on each prompt's KV handover besides its forward, with the
// worker busy: the scheduler's thread creates the request's KV sender at
// admission, and after the forward copies the request's KV indices to
// the host, converts them to pages and hands them to the transfer engine
// (python/sglang/srt/disaggregation/prefill.py, PrefillBootstrapQueue.add,
// process_batch_result_disagg_prefill → send_kv_chunk); the transfer
// threads build one descriptor per layer and contiguous run in Python,
// under the interpreter lock the scheduler needs too (SGLang PR #5791,
// 2025-04-27, "[PD] Reduce kv transfer threads": they compete "with the
// scheduling and kernel launch"), and until PR #23967 (merged 2026-04-28,
// "Nixl async transfer") the NIXL connector ran each transfer on the
// scheduler's thread: "this caused the prefill scheduler to block on
// transfer completion and limited throughput" (Qwen3-32B, mean transfer
// time 162 ms before, 41 ms after). A prefill worker so occupied sustains
// fewer prompts a second than its forwards allow, and its queue grows
// sooner: on the InferenceX SGLang disaggregated rows with 1k prompts
// (testdata/calibration/README.md, hundred-eleventh round) the prefill
// worker's implied time a prompt under load is 2–4 × its forward, at low
// load about the forward. Fitted, an estimate: the figure, in steps of
// 5 ms from 0 to 40 ms, that minimises the median |error| of the
// SGLang fit rows' TTFT (dynamo-sglang and mori-sglang, 0 ms: 41.9%,
// 10 ms: 39.3%, 15 ms: 34.3%, 20 ms: 37.2%, 30 ms: 40.7%). It is one
// figure for every release and transfer engine (NIXL, Mooncake, MoRI):
// the rows after PR #23967 still carry the excess.
const sglangPrefillHandoverSeconds = 0.015

// PrefillHandoverSeconds is the busy time per prompt that engine e's
// disaggregated prefill worker adds to its forward for the prompt's KV
// handover (sglangPrefillHandoverSeconds), the figure a Disagg takes
// where its PrefillHandoverSeconds is 0 (rightsize estimate
// --prefill-handover); 0 for the other engines (TensorRT-LLM's
// disaggregated rows read no such excess, and no vLLM disaggregated row
// is replayed).
func PrefillHandoverSeconds(e Engine) float64 {
	if e == SGLang {
		return sglangPrefillHandoverSeconds
	}
	return 0
}

// decodeAdmissionSteps is the decode steps a handed-over request waits on
// the decode worker besides the fixed handover cost (DisaggHandoverSeconds)
// before it joins the running batch, where its first token streams.
// SGLang's PD decode worker
// pre-allocates the request's KV before the prefill side may run it (the
// prefill worker's bootstrap queue holds it until then: prefill.py at
// 000c2b94, PrefillBootstrapQueue, pop_bootstrapped), and it does so, and
// polls the finished transfers, once per iteration of its scheduler loop,
// between decode steps (python/sglang/srt/disaggregation/decode.py at
// 278e503a: PreallocQueue → TransferQueue → WaitingQueue → the running
// batch, process_decode_queue in event_loop_normal_disagg_decode): half a
// step on average for each, one step. Other engines: none modelled.
func decodeAdmissionSteps(e Engine) float64 {
	if e == SGLang {
		return 1
	}
	return 0
}

// attnLinearParams is the parameters of the attention projections a token
// multiplies by, over all layers: gemmShapeCost's attention terms
// (attnProjections).
func attnLinearParams(a Arch) float64 {
	if a.Hidden <= 0 || a.Layers <= 0 || a.Generic() || a.Encoder {
		return 0
	}
	var n float64
	attnProjections(a, 1, func(params, _ float64) { n += params })
	return n
}

// rankSkewGrowth is what attention data parallelism adds to a forward of
// k prompt chunks of chunk tokens each, whose tokens attend to attended
// context tokens on average, on a copy of m.dpRanks attention-DP ranks:
// each chunk's attention (its projections at the step's GEMM cost and its
// scores over its context, as stepLoad counts them) runs on the one rank
// its request belongs to, where the step spreads it over all the copy's
// GPUs, and the forward lasts as long as its busiest rank
// (rankSkewSeconds). The extra compute grows the roofline of the
// forward's compute and memory (deviceTerms of its tokens and the load
// stepLoad gives: ctok, lctx, kv), so under a forward still bound by its
// weight reads it costs less than its own seconds. The serving
// steps (StepSeconds), the closed form's prefill and a disaggregated
// prefill worker's forward (which calls StepSeconds) all take it; a
// speculative step's draft tokens (Step.Verify) are every request's own
// and stay spread.
func (m *inferModel) rankSkewGrowth(k, chunk, attended, tokens, ctok, lctx, kv float64) float64 {
	extra := rankSkewSeconds(m.chunkAttnSeconds(chunk, attended), k, m.dpRanks)
	if !(extra > 0) {
		return 0
	}
	c, mem := m.deviceTerms(tokens, ctok, lctx, kv)
	return rooflineTime(c+extra, mem) - rooflineTime(c, mem)
}

// chunkAttnSeconds is the compute seconds of one prompt chunk of chunk
// tokens' attention (its projections and its scores over attended context
// tokens a token), at the engine's prompt rate, as a step spreads it over
// the copy's GPUs.
func (m *inferModel) chunkAttnSeconds(chunk, attended float64) float64 {
	if m.n <= 0 {
		return 0
	}
	lin := min(attnLinearParams(m.in.Arch)/m.n, 1) * m.tokSecs * chunk
	return (lin + chunk*attended*m.ctxSecs) * m.promptCost
}
