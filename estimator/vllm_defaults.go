package estimator

// vLLM's defaults, as its source sets them for the OpenAI-compatible
// server (`vllm serve`, UsageContext.OPENAI_API_SERVER), which is what
// the plans launch. The memory estimate (its profiling pass and KV pool)
// and the serving simulator (its scheduler) both read them here.
//
// Source: vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults (v0.10
// and later, the current release CurrentEngineVersion among them): a GPU
// whose device memory is at least 70 GiB gets max_num_batched_tokens 8192
// and max_num_seqs 1024, a smaller one 2048 and 256; vllm/config/cache.py,
// CacheConfig.gpu_memory_utilization 0.9.
//
// vLLM also gives the A100 80GB the smaller limits: it checks the device's
// name ("a100", vLLM PR #17885, where the larger budget lowered the A100's
// throughput). The estimate and the simulator know a GPU by its memory
// only, so they take the larger limits on it; the launch command writes
// both limits out (--max-num-seqs, --max-num-batched-tokens), so the
// engine runs as planned.

// VLLMGPUMemoryUtilization is vLLM's default gpu_memory_utilization: the
// share of the GPU's memory the engine takes for weights, activations and
// its KV cache.
const VLLMGPUMemoryUtilization = 0.9

// VLLMLimits are vLLM's scheduler limits: the most sequences running at
// once (max_num_seqs) and the most tokens one step computes
// (max_num_batched_tokens, also the size of the forward pass vLLM
// profiles its activation peak with).
type VLLMLimits struct {
	MaxNumSeqs          int
	MaxNumBatchedTokens int
}

// vllmLargeGPU is the device memory from which vLLM takes its larger
// limits.
const vllmLargeGPU = 70 * GiB

var (
	vllmLimitsLarge = VLLMLimits{MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192}
	vllmLimitsSmall = VLLMLimits{MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}
)

// VLLMDefaultLimits are vLLM's default limits on a GPU of vram bytes.
func VLLMDefaultLimits(vram Bytes) VLLMLimits {
	if vram >= vllmLargeGPU {
		return vllmLimitsLarge
	}
	return vllmLimitsSmall
}
