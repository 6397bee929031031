package main

// "rightsize estimate --disagg": a disaggregated replica, P prefill
// workers and D decode workers of their own layouts handing the KV cache
// over the network (estimator.DisaggServing).

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// disaggFlags are the --disagg flags.
type disaggFlags struct {
	on                    *bool
	pw, ptp, pdp, pep, pb *int
	dw, dtp, ddp, dep, db *int
	pred, dred            *int    // each side's redundant experts
	pa2a, da2a            *string // each side's SGLang expert exchange
	kvGbps, kvLatency     *float64
	prefillHandover       *float64
	simulate              *bool // --simulate
}

// defineDisagg registers the --disagg flags on fs.
func defineDisagg(fs *flag.FlagSet) *disaggFlags {
	f := &disaggFlags{on: fs.Bool("disagg", false, "serving: a disaggregated replica, --prefill-workers prefill and --decode-workers decode workers of their own layouts, the KV cache handed over the network (SGLang PD, NVIDIA Dynamo, TensorRT-LLM disaggregated); --concurrency requests in flight on the replica. --tp/--dp/--ep/--gpus do not apply")}
	side := func(s, what string) (w, tp, dp, ep, b *int) {
		w = fs.Int(s+"-workers", 1, "with --disagg: "+s+" workers (engine instances) in the replica")
		tp = fs.Int(s+"-tp", 1, "with --disagg: GPUs per "+s+" worker (its tensor-parallel degree, as --tp)")
		dp = fs.Int(s+"-dp", 1, "with --disagg: attention data-parallel ranks per "+s+" worker (divides --"+s+"-tp, as --dp)")
		ep = fs.Int(s+"-ep", 1, "with --disagg: expert-parallel degree per "+s+" worker (divides --"+s+"-tp, as --ep)")
		b = fs.Int(s+"-batch", 0, "with --disagg: "+what)
		return
	}
	f.pw, f.ptp, f.pdp, f.pep, f.pb = side("prefill", "prompts one prefill forward takes at most (0: as many as the engine's prefill token budget holds)")
	f.dw, f.dtp, f.ddp, f.dep, f.db = side("decode", "requests one decode worker runs together at most; the rest wait for a slot (0: every request it is given)")
	for _, r := range []struct {
		s string
		v **int
	}{{"prefill", &f.pred}, {"decode", &f.dred}} {
		*r.v = fs.Int(r.s+"-redundant-experts", 0, "with --disagg: extra expert copies over each "+r.s+" worker's EP ranks, so that --"+r.s+"-ep divides experts + these (as --redundant-experts; SGLang --ep-num-redundant-experts)")
	}
	f.pa2a = fs.String("prefill-moe-a2a-backend", "", "with --disagg: the prefill workers' SGLang expert exchange under attention DP (as --moe-a2a-backend)")
	f.da2a = fs.String("decode-moe-a2a-backend", "", "with --disagg: the decode workers' SGLang expert exchange under attention DP (as --moe-a2a-backend)")
	f.kvGbps = fs.Float64("kv-transfer-gbps", 0, "with --disagg: Gbit/s per GPU the KV cache crosses between prefill and decode workers (0: NVLink where both sides fit one NVLink domain, else --network-gbps per GPU or 400 Gbit/s per Hopper/Blackwell GPU)")
	f.prefillHandover = fs.Float64("prefill-handover", 0, fmt.Sprintf("with --disagg: seconds a prefill worker spends on each prompt's handover besides its forward, busy (0: the engine's fitted figure, %.0f ms on SGLang, none on the others)", 1000*estimator.PrefillHandoverSeconds(estimator.SGLang)))
	f.kvLatency = fs.Float64("kv-transfer-latency", 0, fmt.Sprintf("with --disagg: seconds each request's KV handover costs besides the bytes (0: the fitted %.0f ms)", 1000*estimator.DisaggHandoverSeconds))
	f.simulate = fs.Bool("simulate", false, "with --disagg: simulate the benchmark's closed loop (--concurrency clients, --num-requests requests, default 10 × the clients, lengths drawn as --range-ratio says; each prefill worker's FCFS batches and each decode worker's slots), the default; TTFT and TPOT are the run's means, performance.serving has their percentiles. --steady-state: the analytic steady state instead")
	return f
}

// active reports whether --disagg is on; the side flags without it, or
// --tp, --dp, --ep or --gpus with it, are an error.
func (f *disaggFlags) active(set map[string]bool) (bool, error) {
	if f == nil {
		return false, nil
	}
	for _, n := range []string{"prefill-workers", "prefill-tp", "prefill-dp", "prefill-ep", "prefill-batch", "decode-workers",
		"decode-tp", "decode-dp", "decode-ep", "decode-batch", "prefill-redundant-experts", "decode-redundant-experts", "prefill-moe-a2a-backend", "decode-moe-a2a-backend", "kv-transfer-gbps",
		"kv-transfer-latency", "prefill-handover", "simulate"} {
		if set[n] && !*f.on {
			return false, fmt.Errorf("--%s: only with --disagg", n)
		}
	}
	if set["simulate"] && set["steady-state"] {
		return false, fmt.Errorf("--simulate and --steady-state: give one (the simulated run is the default)")
	}
	if *f.on {
		for _, n := range []string{"tp", "dp", "ep", "gpus", "pp", "cp", "redundant-experts", "moe-a2a-backend"} {
			if set[n] {
				return false, fmt.Errorf("--%s: with --disagg each side has its own (--prefill-%s, --decode-%s)", n, n, n)
			}
		}
	}
	return *f.on, nil
}

// disaggJSON is the per-side figures of a disaggregated replica
// (estimator.DisaggPoint), under performance.disaggregated.
type disaggJSON struct {
	PrefillWorkers int `json:"prefill_workers"`
	PrefillGPUs    int `json:"prefill_gpus_per_worker"`
	DecodeWorkers  int `json:"decode_workers"`
	DecodeGPUs     int `json:"decode_gpus_per_worker"`
	GPUs           int `json:"gpus"`
	Concurrency    int `json:"concurrency"`
	// Prefill: seconds of the forward that prefills a request, the
	// worker's own seconds on that batch's handovers after it (SGLang:
	// estimator's PrefillHandoverSeconds a prompt; 0 otherwise), prompts
	// in it, the side's capacity in prompts/s and its busy share.
	PrefillSeconds     float64 `json:"prefill_seconds"`
	PrefillHandover    float64 `json:"prefill_handover_seconds"`
	PrefillBatch       float64 `json:"prefill_batch"`
	PrefillCapacity    float64 `json:"prefill_prompts_per_second_capacity"`
	PrefillUtilization float64 `json:"prefill_utilization"`
	QueueSeconds       float64 `json:"queue_seconds"`
	KVBytes            float64 `json:"kv_transfer_bytes"`
	KVSeconds          float64 `json:"kv_transfer_seconds"`
	// Decode: step time, requests decoding per worker, the side's
	// capacity in requests/s, its generated tokens/s.
	DecodeStepSeconds  float64 `json:"decode_step_seconds"`
	DecodeBatch        float64 `json:"decode_batch"`
	DecodeCapacity     float64 `json:"decode_requests_per_second_capacity"`
	DecodeTokensPerSec float64 `json:"decode_tokens_per_second"`
	RequestsPerSecond  float64 `json:"requests_per_second"`
	RequestSeconds     float64 `json:"request_overhead_seconds"`
	Bound              string  `json:"bound"`
	// Simulated: the figures are a simulated run of the closed loop
	// (estimator.DisaggSizer.Simulate) of Requests requests, with the
	// median and 99th percentile of TTFT and TPOT over them and the mean
	// wait from the handover's end to the join of a decode batch, where the
	// first token streams; false: the analytic steady state
	// (--steady-state), without these.
	Simulated      bool    `json:"simulated"`
	Requests       int     `json:"simulated_requests,omitempty"`
	TTFTP50        float64 `json:"ttft_p50_seconds,omitempty"`
	TTFTP99        float64 `json:"ttft_p99_seconds,omitempty"`
	TPOTP50        float64 `json:"tpot_p50_seconds,omitempty"`
	TPOTP99        float64 `json:"tpot_p99_seconds,omitempty"`
	DecodeWaitSecs float64 `json:"decode_wait_seconds,omitempty"`
}

// disaggPerfJSON is the performance block of a disaggregated replica:
// the usual fields and the per-side ones.
type disaggPerfJSON struct {
	*perfJSON
	// Serving is the simulated run's percentiles at the aggregated
	// estimate's paths (simJSON's names); absent from the steady state.
	Serving       *disaggServingJSON `json:"serving,omitempty"`
	Disaggregated disaggJSON         `json:"disaggregated"`
}

// disaggServingJSON is the simulated closed loop of a disaggregated
// replica under performance.serving, its fields named as the aggregated
// estimate's simulated benchmark (simJSON) names them: --concurrency
// requests in flight, the run's requests, percentiles over them (linear
// between order statistics; the means are time_to_first_token_seconds
// and decode_token_latency_seconds), the mean wait for a prefill worker,
// the engine's fixed cost per request, and the analytic steady state's
// figures (closed_form_*) for the same replica. Bound is what held the
// run back (decode slots, prefill workers, or neither: concurrency).
type disaggServingJSON struct {
	Concurrency int    `json:"concurrency"`
	Requests    int    `json:"requests"`
	Bound       string `json:"bound"`
	percentilesJSON
	E2EMean        float64 `json:"e2e_latency_seconds"`
	E2EP99         float64 `json:"e2e_latency_p99_seconds"`
	QueueMean      float64 `json:"queue_seconds"`
	RequestSeconds float64 `json:"request_overhead_seconds"`
	RequestsPerSec float64 `json:"requests_per_second"`
	ClosedFormTTFT float64 `json:"closed_form_time_to_first_token_seconds"`
	ClosedFormTPOT float64 `json:"closed_form_decode_token_latency_seconds"`
	ClosedFormTPS  float64 `json:"closed_form_tokens_per_second"`
}

// disaggJob is what runDisagg reads from the estimate flags.
type disaggJob struct {
	name           string
	in             estimator.Input
	gpu            catalog.GPU
	gpuSet         bool
	node           catalog.Node
	eff            estimator.Efficiency
	prompt, output int
	rangeRatio     float64
	requests       int  // --num-requests (0: 10 × --concurrency)
	steadyState    bool // --steady-state: the analytic closed loop, not the simulated run
	asJSON         bool
}

// runDisagg prints the estimate of a disaggregated replica: the decode
// worker's memory (the side that holds the running requests' KV cache)
// and the performance of the replica.
func (f *disaggFlags) run(j disaggJob, stdout io.Writer, fail func(string, ...any) int) int {
	in := j.in
	if in.Task != estimator.Inference {
		return fail("--disagg: an inference job (--task inference)")
	}
	if j.node.GPUsPerNode < 0 {
		return fail("--gpus-per-node: want ≥ 1 (0: the GPU's own)")
	}
	if !j.gpuSet {
		return fail("--disagg: needs --gpu (the speed of both sides comes from the catalog GPU's figures)")
	}
	if j.output < 1 {
		return fail("--disagg: needs --output-tokens ≥ 1 (and --prompt-tokens)")
	}
	hw, ok := j.gpu.HardwareOn(in.Weights, j.node)
	pol, err := sim.DefaultPolicyOn(in.Engine, in.VRAM, hw)
	if err != nil {
		return fail("--disagg: --engine %s: the disaggregated engines are vllm, sglang and trtllm", in.Engine)
	}
	if !ok {
		return fail("--disagg: %v", catalog.ErrNoFigures)
	}
	for _, c := range []struct {
		name string
		v    float64
		ok   bool
	}{{"kv-transfer-gbps", *f.kvGbps, *f.kvGbps >= 0 && *f.kvGbps <= 1e7}, {"kv-transfer-latency", *f.kvLatency, *f.kvLatency >= 0 && *f.kvLatency <= 3600},
		{"prefill-handover", *f.prefillHandover, *f.prefillHandover >= 0 && *f.prefillHandover <= 3600}} {
		if !c.ok {
			return fail("--%s %v: want a number from 0 to %g (0: the default)", c.name, c.v, map[bool]float64{true: 1e7, false: 3600}[c.name == "kv-transfer-gbps"])
		}
	}
	// The client draws each request's lengths uniformly from [ratio ×
	// given, given] (benchmark_serving.py --random-range-ratio): the
	// steady state takes their means.
	mean := func(n int) int { return max(1, int(math.Round(float64(n)*(1+j.rangeRatio)/2))) }
	w := estimator.Workload{PromptTokens: mean(j.prompt), OutputTokens: mean(j.output)}
	if j.prompt < 1 {
		w.PromptTokens = 0
	}
	d := estimator.Disagg{
		Prefill:     estimator.DisaggSide{Workers: *f.pw, TP: *f.ptp, DP: *f.pdp, EP: *f.pep, RedundantExperts: *f.pred, Batch: *f.pb, MoEA2A: *f.pa2a},
		Decode:      estimator.DisaggSide{Workers: *f.dw, TP: *f.dtp, DP: *f.ddp, EP: *f.dep, RedundantExperts: *f.dred, Batch: *f.db, MoEA2A: *f.da2a},
		Concurrency: in.Batch, KVBandwidth: *f.kvGbps * 1e9 / 8, KVLatencySeconds: *f.kvLatency, PrefillHandoverSeconds: *f.prefillHandover,
		DraftTokens: in.DraftTokens, Acceptance: in.DraftAcceptance,
	}
	if in.TwoBatchOverlap && !estimator.TwoBatchOverlaps(d.Prefill.EP, d.Prefill.DP) && !estimator.TwoBatchOverlaps(d.Decode.EP, d.Decode.DP) {
		return fail("--two-batch-overlap: %s on a side (--prefill-ep and --prefill-dp, or --decode-ep and --decode-dp)", estimator.TwoBatchOverlapNeeds)
	}
	// --request-overhead, else the prefill forward's operations at the
	// prefill side's TP.
	d.RequestSeconds = estimator.DisaggRequestSeconds(in, hw, d.Prefill.TP)
	if d.Prefill.Batch == 0 && w.PromptTokens > 0 {
		d.Prefill.Batch = estimator.DisaggPrefillBatch(in, *f.pdp, pol.TokenBudget, w.PromptTokens)
	}
	z := estimator.NewDisaggSizer(in, hw, j.eff, w)
	p, err := z.At(d)
	if err != nil {
		return fail("%v", err)
	}
	// The closed loop as the benchmark runs it (the default, as the
	// aggregated estimate's serving figures are a simulated benchmark):
	// each request's lengths drawn from [ratio × given, given],
	// --num-requests of them (0: 10 × the concurrency, as the InferenceX
	// recipes run), simulated on the same step model as the analytic
	// steady state (--steady-state). Replayed on the InferenceX
	// disaggregated points the simulated run is the closer of the two on
	// every split, medians against the measured medians and means against
	// the measured means (estimator/testdata/calibration/README.md,
	// hundred-twentieth round). A run too large to simulate falls back to
	// the steady state with a warning, unless --simulate asked for it.
	var sr estimator.DisaggSimResult
	closed := p // the analytic steady state, kept beside the simulated run
	simulated := !j.steadyState
	var warnings []string
	if simulated {
		if sr, err = z.Simulate(d, estimator.DisaggRun{Requests: j.requests, PromptTokens: max(j.prompt, w.PromptTokens),
			OutputTokens: j.output, RangeRatio: j.rangeRatio}); err != nil {
			if *f.simulate {
				return fail("--simulate: %v (--steady-state: the analytic closed loop)", err)
			}
			simulated = false
			warnings = append(warnings, fmt.Sprintf("the simulated run was refused (%v): the figures are the analytic steady state (--steady-state)", err))
		}
	}
	if simulated {
		p.TTFTSeconds, p.TPOTSeconds, p.TokensPerSecond, p.RequestsPerSecond = sr.TTFT.Mean, sr.TPOT.Mean, sr.TokensPerSecond, sr.RequestsPerSecond
		p.QueueSeconds, p.PrefillBatch, p.PrefillUtilization, p.DecodeBatch = sr.PrefillWait.Mean, sr.PrefillBatch, math.Min(sr.PrefillBusy, 1), sr.DecodeBatch
		p.Bound = sr.Bound
	}
	// The decode worker's memory and its speed figures at its batch.
	dec := z.SideInput(d.Decode, d)
	dec.GPUs = d.Decode.TP
	dec.Batch = max(1, int(math.Ceil(p.DecodeBatch)))
	dec.Seq = w.PromptTokens + w.OutputTokens
	r, err := estimator.Estimate(dec)
	if err != nil {
		return fail("%v", err)
	}
	sp, _, err := j.gpu.Speed(dec, j.eff, w, j.node)
	if err != nil {
		return fail("%v", err)
	}
	perf := newPerfJSON(dec, sp, 0)
	perf.TimeToFirstToken, perf.DecodeTokenLatency, perf.DecodeStepSeconds = p.TTFTSeconds, p.TPOTSeconds, p.DecodeStepSeconds
	perf.TokensPerSecond, perf.TokensPerSecondLow, perf.TokensPerSecondHigh = p.TokensPerSecond,
		p.TokensPerSecond*(1-sp.Uncertainty), p.TokensPerSecond*(1+sp.Uncertainty)
	perf.PrefillTokensPerSecond = p.PrefillCapacity * float64(w.PromptTokens)
	perf.HostFloorSeconds = 0
	dj := disaggJSON{PrefillWorkers: d.Prefill.Workers, PrefillGPUs: d.Prefill.TP, DecodeWorkers: d.Decode.Workers, DecodeGPUs: d.Decode.TP,
		GPUs: p.GPUs, Concurrency: d.Concurrency, PrefillSeconds: p.PrefillSeconds, PrefillHandover: p.PrefillHandoverSeconds, PrefillBatch: p.PrefillBatch,
		PrefillCapacity: p.PrefillCapacity, PrefillUtilization: p.PrefillUtilization, QueueSeconds: p.QueueSeconds,
		KVBytes: p.KVBytes, KVSeconds: p.KVTransferSeconds, DecodeStepSeconds: p.DecodeStepSeconds, DecodeBatch: p.DecodeBatch,
		DecodeCapacity: p.DecodeCapacity, DecodeTokensPerSec: p.TokensPerSecond, RequestsPerSecond: p.RequestsPerSecond,
		RequestSeconds: d.RequestSeconds, Bound: p.Bound}
	var serving *disaggServingJSON
	if simulated {
		dj.Simulated, dj.Requests, dj.TTFTP50, dj.TTFTP99, dj.TPOTP50, dj.TPOTP99, dj.DecodeWaitSecs = true, sr.Requests,
			sr.TTFT.P50, sr.TTFT.P99, sr.TPOT.P50, sr.TPOT.P99, sr.DecodeWait.Mean
		serving = &disaggServingJSON{Concurrency: d.Concurrency, Requests: sr.Requests, Bound: sr.Bound,
			percentilesJSON: percentilesJSON{TTFTP50: sr.TTFT.P50, TTFTP90: sr.TTFT.P90, TTFTP95: sr.TTFT.P95, TTFTP99: sr.TTFT.P99,
				TPOTP50: sr.TPOT.P50, TPOTP90: sr.TPOT.P90, TPOTP95: sr.TPOT.P95, TPOTP99: sr.TPOT.P99},
			E2EMean: sr.E2E.Mean, E2EP99: sr.E2E.P99, QueueMean: sr.PrefillWait.Mean, RequestSeconds: d.RequestSeconds,
			RequestsPerSec: sr.RequestsPerSecond, ClosedFormTTFT: closed.TTFTSeconds, ClosedFormTPOT: closed.TPOTSeconds,
			ClosedFormTPS: closed.TokensPerSecond}
	}
	maxBatch, maxSeq := estimator.MaxBatch(dec), estimator.MaxSeq(dec)
	minGPUs, _ := estimator.MinGPUs(dec, minGPUsLimit)
	if j.asJSON {
		out := struct {
			estimateJSON
			Performance disaggPerfJSON `json:"performance"`
		}{newEstimateJSON(j.name, dec, r, maxBatch, maxSeq, minGPUs, nil), disaggPerfJSON{perf, serving, dj}}
		out.Warnings = append(out.Warnings, warnings...)
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning: "+w)
	}
	fmt.Fprintln(stdout, "decode worker:")
	printEstimate(stdout, j.name, dec, r, maxBatch, maxSeq, minGPUs, nil, j.gpu.Vendor)
	kind := "estimate"
	if simulated {
		kind = fmt.Sprintf("simulated, %d requests", sr.Requests)
	}
	fmt.Fprintf(stdout, "\ndisaggregated replica (%s): %d prefill × %d GPUs + %d decode × %d GPUs = %d GPUs, %d requests in flight, %s-bound\n",
		kind, dj.PrefillWorkers, dj.PrefillGPUs, dj.DecodeWorkers, dj.DecodeGPUs, dj.GPUs, dj.Concurrency, dj.Bound)
	if simulated {
		fmt.Fprintf(stdout, "  time to first token %.3f s mean (median %.3f s, p99 %.3f s): %.0f ms per request + %.3f s queued for prefill + a %.3f s prefill forward (%.1f prompts)%s + %.3f s KV handover + %.3f s for a decode slot (means; the first token streams when the request joins the decode batch)\n",
			p.TTFTSeconds, sr.TTFT.P50, sr.TTFT.P99, 1000*d.RequestSeconds, p.QueueSeconds, p.PrefillSeconds, p.PrefillBatch, handoverWork(p), p.KVTransferSeconds, sr.DecodeWait.Mean)
		fmt.Fprintf(stdout, "  time per output token median %.1f ms, p99 %.1f ms\n", 1000*sr.TPOT.P50, 1000*sr.TPOT.P99)
	} else {
		fmt.Fprintf(stdout, "  time to first token %.3f s = %.0f ms per request + %.3f s queued + %.3f s prefill (%.1f prompts per forward)%s + %.3f s KV transfer (%.1f MB) and admission (the first token streams when the request joins the decode batch)\n",
			p.TTFTSeconds, 1000*d.RequestSeconds, p.QueueSeconds, p.PrefillSeconds, p.PrefillBatch, handoverWork(p), p.KVTransferSeconds, p.KVBytes/1e6)
	}
	fmt.Fprintf(stdout, "  prefill: %.2f prompts/s capacity, %.0f%% busy; decode: %.1f ms per step at %.1f requests per worker, %.2f requests/s capacity\n",
		p.PrefillCapacity, 100*p.PrefillUtilization, 1000*p.DecodeStepSeconds, p.DecodeBatch, p.DecodeCapacity)
	fmt.Fprintf(stdout, "  %.0f tokens/s generated, %.2f requests/s; time per output token %.1f ms\n", p.TokensPerSecond, p.RequestsPerSecond, 1000*p.TPOTSeconds)
	return 0
}

// handoverWork is the text line's term for the prefill worker's own time
// on its batch's handovers ("" where the engine spends none).
func handoverWork(p estimator.DisaggPoint) string {
	if !(p.PrefillHandoverSeconds > 0) {
		return ""
	}
	return fmt.Sprintf(" + %.3f s of the prefill worker's handover work", p.PrefillHandoverSeconds)
}
