package estimator

// The engines' facts the simulator, the launcher and the page share: each
// engine's product name (Label), whether it pre-allocates a KV pool
// (Pooled, perf_engine.go) and the names of its own settings behind the
// Input fields it reads (Settings). The scheduler's defaults per engine
// are the simulator's (sim.DefaultPolicy), the launch dialect the
// launcher's.

var engineLabels = [...]string{HF: "Hugging Face transformers", VLLM: "vLLM", SGLang: "SGLang", TRTLLM: "TensorRT-LLM", LlamaCpp: "llama.cpp (GGUF)"}

// Label is e's product name, as the page and the notes write it.
func (e Engine) Label() string {
	if int(e) < 0 || int(e) >= len(engineLabels) {
		return e.String()
	}
	return engineLabels[e]
}

// EngineSettings names a pooled serving engine's own settings behind three
// Input fields, spelled as its launch command takes them. Each engine
// reads the field its own way; the estimate follows each reading
// (kvPool, the simulator's DefaultPolicy):
//   - MemShare (Input.GPUMemUtil): vLLM's --gpu-memory-utilization and
//     SGLang's --mem-fraction-static are shares of the GPU's whole memory
//     the engine may take; TensorRT-LLM's
//     --kv_cache_free_gpu_memory_fraction is the share of the memory
//     still free after the model is loaded that its KV cache takes
//     (TensorRT-LLM KvCacheConfig documentation).
//   - TokenBudget (Input.MaxBatchedTokens): the tokens one step may
//     schedule — vLLM's --max-num-batched-tokens, SGLang's
//     --chunked-prefill-size, TensorRT-LLM's --max_num_tokens.
//   - MaxSeqs: the running-sequence cap — vLLM's --max-num-seqs, SGLang's
//     --max-running-requests, TensorRT-LLM's --max_batch_size.
//
// Sources: vLLM's engine arguments (vllm/engine/arg_utils.py), SGLang's
// python/sglang/srt/server_args.py, TensorRT-LLM's trtllm-serve options
// (tensorrt_llm/commands/serve.py); the launch package's flag lists
// (catalog/launch/testdata) are checked against the same sources.
type EngineSettings struct {
	MemShare, TokenBudget, MaxSeqs string
}

var engineSettings = [...]EngineSettings{
	VLLM:   {MemShare: "--gpu-memory-utilization", TokenBudget: "--max-num-batched-tokens", MaxSeqs: "--max-num-seqs"},
	SGLang: {MemShare: "--mem-fraction-static", TokenBudget: "--chunked-prefill-size", MaxSeqs: "--max-running-requests"},
	TRTLLM: {MemShare: "--kv_cache_free_gpu_memory_fraction", TokenBudget: "--max_num_tokens", MaxSeqs: "--max_batch_size"},
}

// Settings returns e's setting names; empty for an engine without a
// pre-allocated KV pool (Pooled false).
func (e Engine) Settings() EngineSettings {
	if int(e) < 0 || int(e) >= len(engineSettings) {
		return EngineSettings{}
	}
	return engineSettings[e]
}
