package estimator

import "math"

// Two mechanisms of disaggregated serving that the forward-pass model
// alone leaves out: a prefill worker with attention data parallelism runs
// each prompt's attention on one rank (rankSkewSeconds), and the decode
// worker admits a handed-over request in its own loop's steps
// (decodeAdmissionSteps).

// rankSkewSeconds is what a prefill forward of k whole prompts on a worker
// of ranks attention-DP ranks takes beyond StepSeconds, which spreads every
// token's work over all the worker's GPUs: attn is one prompt's attention
// (promptAttnSeconds). Under attention DP a request is one rank's: SGLang's
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
func rankSkewSeconds(attn float64, k int, ranks float64) float64 {
	if ranks <= 1 || k < 1 || !(attn > 0) {
		return 0
	}
	return attn * (math.Ceil(float64(k)/ranks)*ranks - float64(k))
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

// promptAttnSeconds is the compute seconds of one whole prompt of p
// tokens' attention (its projections at the step's GEMM cost, and its
// scores over the prompt) as StepSeconds counts them: spread over all the
// replica's GPUs. 0 for a model with an error.
func (s *ServingModel) promptAttnSeconds(p float64) float64 {
	m := &s.m
	if s.err != nil || m.n <= 0 || p <= 0 {
		return 0
	}
	lin := math.Min(attnLinearParams(m.in.Arch)/m.n, 1) * m.tokSecs * p
	return (lin + p*m.sc.attended((p+1)/2)*m.ctxSecs) * m.promptCost
}

// rooflineGrowth is what a step st of the model takes longer when one
// rank's compute grows by extra seconds: its device time is the roofline
// of compute and memory (deviceSum, which StepSeconds runs, on the terms
// stepLoad and deviceTerms give it), so extra compute under a forward
// still bound by its weight reads costs less than its own seconds.
func (s *ServingModel) rooflineGrowth(st Step, extra float64) float64 {
	m := &s.m
	p, d := float64(max(st.PrefillTokens, 0)), float64(max(st.DecodeSeqs, 0))
	if s.err != nil || !(extra > 0) || p+d <= 0 {
		return 0
	}
	ctok, lctx, kv := m.stepLoad(st, p, d)
	c, mem := m.deviceTerms(p+d, ctok, lctx, kv)
	return rooflineTime(c+extra, mem) - rooflineTime(c, mem)
}
