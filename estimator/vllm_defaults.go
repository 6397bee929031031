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
// name, `device_memory >= 70 * GiB_bytes and "a100" not in device_name`
// (vLLM PR #17885, where the larger budget lowered the A100's throughput;
// tests/engine/test_arg_utils.py, test_defaults_with_usage_context, pins
// both tables). The catalog marks such GPUs (Hardware.VLLMSmallDefaults)
// and VLLMDefaultLimitsOn reads the mark: the serving simulator, the
// planner and the launch command take the smaller limits on an A100 80GB,
// as the engine does when no flag is given, and so does the memory
// estimate: Input.VLLMSmallDefaults carries the same mark (set with the
// GPU's memory by catalog.GPU.SetMemory and the planner's offers), and
// Input.VLLMLimits reads it, so the forward pass vLLM profiles before it
// sizes its KV pool (Input.BatchedTokens) is 2048 tokens on an A100 80GB.

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

// VLLMDefaultLimits are vLLM's default limits on a GPU of vram bytes
// that the engine does not single out by name.
func VLLMDefaultLimits(vram Bytes) VLLMLimits {
	if vram >= vllmLargeGPU {
		return vllmLimitsLarge
	}
	return vllmLimitsSmall
}

// VLLMDefaultLimitsOn are vLLM's default limits on a GPU like hw with vram
// bytes: the smaller ones on a GPU the engine names
// (Hardware.VLLMSmallDefaults), else VLLMDefaultLimits(vram).
func VLLMDefaultLimitsOn(vram Bytes, hw Hardware) VLLMLimits {
	if hw.VLLMSmallDefaults {
		return vllmLimitsSmall
	}
	return VLLMDefaultLimits(vram)
}

// VLLMLimits are vLLM's default limits on the GPU in describes:
// VLLMDefaultLimitsOn its memory and its mark (in.VLLMSmallDefaults).
func (in Input) VLLMLimits() VLLMLimits {
	return VLLMDefaultLimitsOn(in.VRAM, Hardware{VLLMSmallDefaults: in.VLLMSmallDefaults})
}
