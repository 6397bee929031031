package estimator

// A serving engine's fixed cost per request, outside the GPU's steps.

// RequestSeconds is the seconds in's serving engine spends on each request
// outside the GPU's steps on a host like hw's (the simulator's
// Policy.RequestSeconds; the disaggregated model's Disagg.RequestSeconds):
// it adds to time to first token and end-to-end latency but occupies no
// step. Input.RequestSeconds (a calibration's, or --request-overhead) is
// the figure where set; else 0 for an engine that serves no requests (HF,
// llama.cpp). The simulator (sim.NewConfig), the disaggregated estimate,
// the planner's disaggregated layouts and the calibration fit's start all
// read this one function.
//
// At 1–4 in flight a request's TTFT is this cost plus its own prefill, so
// the cost is what the rows at low concurrency leave over the simulated
// prefill. Those rows ask for a cost that depends on the model more than
// on the engine or the benchmark family: DeepSeek-R1 56–190 ms on SGLang,
// TensorRT-LLM and vLLM alike, Qwen3-8B 7–48 ms, gpt-oss-120b 14–17 ms
// (testdata/calibration/README.md, "Seventh round"). For SGLang and
// TensorRT-LLM it follows one prefill forward's eager operations
// (promptOps: prefill runs outside the engines' CUDA graphs, which they
// capture for decode batches only) at a fitted cost each; vLLM's rows do
// not (gpt-oss-120b, with more operations, asks for less than Qwen3-8B),
// so it keeps one figure. Why the cost sits outside the steps rather than
// in the prefill step itself, where eager launches would be: placed in
// the step, the same cost lengthens every prompt step that decoding
// requests wait behind, and the InferenceX SGLang rows at 9–64 in flight
// then read TPOT 6–11% too long (signed, against −1…+4% here) while the
// TTFT groups do not move (testdata/calibration/README.md, hundred-sixth
// round). What the engines do per request that scales with the layers is
// not read in their source: a fitted figure, an estimate.
func RequestSeconds(in Input, hw Hardware) float64 {
	if in.RequestSeconds > 0 {
		return in.RequestSeconds
	}
	switch in.Engine {
	case SGLang:
		// One eager forward's launches: the same figure as an eager
		// decode step's (sglangEagerLaunch).
		return sglangEagerLaunch(in, hw)
	case TRTLLM:
		return trtllmRequestSeconds + promptOps(in)*trtllmRequestOpSeconds*hostClass(hw)
	case VLLM:
		return vllmRequestSeconds
	}
	return 0
}

// sglangEagerLaunch is the host's seconds to launch one decode forward of
// in's model eagerly on SGLang, past its captured CUDA graphs
// (Input.CUDAGraphMaxBS): the forward's eager operations (promptOps) at
// SGLang's cost per operation on a host like hw's, the figure its
// prefill's eager forward is fitted at (sglangRequestOpSeconds; 80 ms for
// DeepSeek-R1 at TP 8 on a server host). Read by hand against InferenceX's
// MoRI-SGLang decode ranks that ran past their recipes' graphs
// (DeepSeek-R1 on MI355X, 256 and 512 sequences a rank against graphs to
// 160: 77.5 and 85.1 ms a step measured, +3 and −6% so priced;
// testdata/calibration/README.md, hundred-sixteenth round); their replay
// does not reach the cap, its prefill side limiting the modelled batch.
// Not fitted on those rows.
func sglangEagerLaunch(in Input, hw Hardware) float64 {
	return promptOps(in) * sglangRequestOpSeconds * hostClass(hw)
}

// hostClass is the host's speed against a server's: the factor on the
// engines' per-operation costs fitted on server hosts.
func hostClass(hw Hardware) float64 { return hw.withDefaults().HostOpSeconds / hfOpSeconds }

// DisaggRequestSeconds is RequestSeconds for a disaggregated replica
// whose prefill workers run prefillTP ways: a request's prompt runs there,
// so its operations are counted at that side's TP. rightsize estimate
// --disagg and the planner's disaggregated layouts both take it.
func DisaggRequestSeconds(in Input, hw Hardware, prefillTP int) float64 {
	in.TP = max(prefillTP, 1)
	return RequestSeconds(in, hw)
}

// promptOps is the eager operations of one prefill forward of in's model:
// its layers × the operations each runs outside a CUDA graph. A dense
// layer runs servingEagerOpsPerLayer (10); an MoE layer adds 8 (router
// GEMM, top-k, token sort, two grouped GEMMs, their activation, the
// weighted sum, the shared expert's launch), MLA 6 (the query and KV
// down-projections' norms, the decompressing up-projection, the rotary
// split and concatenations), FP8 or FP4 weights 7 (an activation
// quantisation before each linear), tensor parallelism 2 (the layer's two
// all-reduces). The counts are an estimate from the shape of the engines'
// layer code (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py
// and llama.py), not a count of launched kernels; only their sum over a
// model, times the fitted seconds, is used.
func promptOps(in Input) float64 {
	a := in.Arch
	ops := float64(servingEagerOpsPerLayer)
	if a.IsMoE() {
		ops += 8
	}
	if a.IsMLA() {
		ops += 6
	}
	if in.Weights == FP8 || in.Weights == FP4 {
		ops += 7
	}
	if in.TP > 1 {
		ops += 2
	}
	return max(float64(a.Layers), 0) * ops
}

const (
	// sglangRequestOpSeconds: SGLang's cost per promptOps operation on a
	// server host (hfOpSeconds' class). DeepSeek-R1 at TP 8 in FP8 or FP4
	// runs 61 × 33 = 2,013 operations, so 80 ms / 2,013 (39.7 µs) keeps
	// the 80 ms fitted on the 119 SGLang InferenceX fit rows at 1–8 in
	// flight (median |error| 13.5% at 75 and 80 ms; the prompt rates,
	// enginePromptRates, were fitted with it; at 40 µs, 80.5 ms, the
	// simulated admissions shift by a step on some rows and the test
	// split's median TTFT moves by half a point); it gives Qwen3-8B on one
	// H100 (36 × 10) 14 ms, where GPUStack's three SGLang v0.5.3 fit rows
	// ask for 7–21 ms (+250% median TTFT error with 80 ms; +2% with this).
	sglangRequestOpSeconds = 0.080 / 2013
	// trtllmRequestSeconds and trtllmRequestOpSeconds: TensorRT-LLM's
	// fixed part and cost per operation. The 41 TensorRT-LLM InferenceX
	// fit rows (DeepSeek-R1, H200 and B200, 2,013 operations at TP 8)
	// asked for 68 ms (median |error| 15.6%) and GPUStack's one
	// TensorRT-LLM fit row (Qwen3-8B, v1.2.0rc1, 360 operations) for
	// 25 ms: two points, two figures (16 ms + 52 ms / 2,013 = 25.8 µs an
	// operation, which keeps DeepSeek-R1's 68 ms; the Qwen3-8B row's median
	// TTFT +93% → +4%). A fit on two model families, an estimate.
	trtllmRequestSeconds   = 0.016
	trtllmRequestOpSeconds = 0.052 / 2013
	// vllmRequestSeconds: the vLLM fit rows at concurrency ≤ 8, each
	// model weighted alike: Qwen3-8B on an H100 (GPUStack, vLLM 0.11.0,
	// 1–8 in flight, 5 rows) wants 40 ms over the simulated TTFT at the
	// median, gpt-oss-120b 14 and 17 ms (GPUStack on one and two H100s,
	// vLLM 0.10.2); their mean, 28 ms. It was 16 ms, fitted on an
	// InferenceX B200 branch run at 16 in flight that is no longer
	// replayed: its outputs ended at end-of-sequence (169 tokens a request
	// of the 512 its client drew), so it was not the 1k/1k run it was
	// replayed as (testdata/calibration/README.md, hundred-thirteenth
	// round).
	vllmRequestSeconds = 0.028
)
