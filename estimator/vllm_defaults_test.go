package estimator

import "testing"

// TestVLLMDefaultLimits: vLLM's defaults for `vllm serve`
// (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults,
// UsageContext.OPENAI_API_SERVER): 8192 tokens and 1024 sequences on a GPU
// of at least 70 GiB, 2048 and 256 below; gpu_memory_utilization 0.9
// (vllm/config/cache.py), DefaultInput's. An estimate reads the budget
// for its GPU unless the input sets one, and only for vLLM.
func TestVLLMDefaultLimits(t *testing.T) {
	for _, c := range []struct {
		vram Bytes
		want VLLMLimits
	}{
		{24 * GiB, VLLMLimits{MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}},
		{70*GiB - 1, VLLMLimits{MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}},
		{70 * GiB, VLLMLimits{MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192}},
		{80 * GiB, VLLMLimits{MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192}},
	} {
		if got := VLLMDefaultLimits(c.vram); got != c.want {
			t.Errorf("VLLMDefaultLimits(%v GiB) = %+v, want %+v", c.vram.GiB(), got, c.want)
		}
	}
	in := DefaultInput(Arch{})
	in.Engine = VLLM
	if in.GPUMemUtil != 0 || in.MemShare() != 0.9 || VLLMGPUMemoryUtilization != 0.9 {
		t.Errorf("gpu_memory_utilization %v (DefaultInput %v, its share %v), want the engine's default, vLLM's 0.9", VLLMGPUMemoryUtilization, in.GPUMemUtil, in.MemShare())
	}
	in.Engine, in.VRAM = VLLM, 24*GiB
	if got := in.BatchedTokens(); got != 2048 {
		t.Errorf("vLLM on 24 GiB profiles %d tokens, want 2048", got)
	}
	in.MaxBatchedTokens = 4096
	if got := in.BatchedTokens(); got != 4096 {
		t.Errorf("vLLM with max_num_batched_tokens 4096 profiles %d", got)
	}
	// SGLang's activations follow its chunk by GPU memory
	// (SGLangDefaults); TensorRT-LLM's its max_num_tokens.
	in.MaxBatchedTokens, in.Engine = 0, SGLang
	if got := in.BatchedTokens(); got != 2048 {
		t.Errorf("SGLang on 24 GiB profiles %d tokens, want its chunk, 2048", got)
	}
	in.Engine = TRTLLM
	if got := in.BatchedTokens(); got != defaultMaxBatchedToken {
		t.Errorf("TensorRT-LLM on 24 GiB profiles %d tokens, want %d", got, defaultMaxBatchedToken)
	}
}

// TestVLLMDefaultLimitsOn: vLLM takes the smaller limits on a GPU whose
// name holds "a100" whatever its memory (vllm/engine/arg_utils.py,
// get_batch_defaults; tests/engine/test_arg_utils.py,
// test_defaults_with_usage_context), which the catalog marks with
// Hardware.VLLMSmallDefaults; an unmarked GPU keys on memory alone.
func TestVLLMDefaultLimitsOn(t *testing.T) {
	small, large := VLLMLimits{MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}, VLLMLimits{MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192}
	for _, c := range []struct {
		vram  Bytes
		named bool
		want  VLLMLimits
	}{
		{80 * GiB, true, small},  // A100 80GB
		{40 * GiB, true, small},  // A100 40GB: small by memory too
		{80 * GiB, false, large}, // H100 80GB, A800 80GB
		{141 * GiB, false, large},
		{48 * GiB, false, small},
	} {
		if got := VLLMDefaultLimitsOn(c.vram, Hardware{VLLMSmallDefaults: c.named}); got != c.want {
			t.Errorf("VLLMDefaultLimitsOn(%v GiB, named %v) = %+v, want %+v", c.vram.GiB(), c.named, got, c.want)
		}
	}
}
