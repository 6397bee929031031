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

// TestVLLMA100Pool: the memory estimate profiles an A100 80GB
// (Input.VLLMSmallDefaults) at vLLM's smaller budget, 2048 tokens, as the
// engine does (vllm/engine/arg_utils.py, get_batch_defaults: "a100" in the
// device name), and its KV pool takes the activations the 8192-token
// forward would have held. Llama-3.1-8B (hidden 4096, intermediate 14336,
// 32 layers of 8 KV heads × 128, bf16) on one 80 GiB GPU:
//   - activations (vllmActivations) 2048 × (6·14336 + 8·4096) × 2 B =
//     2048 × 118,784 × 2 = 486,539,264 B; 1,946,157,056 B at 8192 tokens;
//   - the pool grows by the difference, 1,459,617,792 B, which at
//     32 × 2 × 8 × 128 × 2 = 131,072 B a token is 11,136 tokens.
//
// An unmarked GPU of the same memory (an H100 80GB) keeps 8192.
func TestVLLMA100Pool(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Engine, in.VRAM, in.GPUs, in.TP = VLLM, 80*GiB, 1, 1
	h100, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	in.VLLMSmallDefaults = true
	if got := in.BatchedTokens(); got != 2048 {
		t.Errorf("A100 80GB profiles %d tokens, want 2048", got)
	}
	if l := in.VLLMLimits(); l != (VLLMLimits{MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}) {
		t.Errorf("A100 80GB limits %+v, want 256 sequences, 2048 tokens", l)
	}
	a100, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	if a100.PerGPU.Activations != 486539264 || h100.PerGPU.Activations != 1946157056 {
		t.Errorf("activations A100 %d B, H100 %d B; want 486,539,264 and 1,946,157,056", a100.PerGPU.Activations, h100.PerGPU.Activations)
	}
	if d := a100.PerGPU.KVCache - h100.PerGPU.KVCache; d < 1459617792-1 || d > 1459617792+1 {
		t.Errorf("A100 pool %d B over the H100's, want 1,459,617,792", d)
	}
	if d := a100.KVPoolTokens - h100.KVPoolTokens; d < 11136-1 || d > 11136+1 {
		t.Errorf("A100 pool %d tokens (H100 %d): %d more, want 11,136", a100.KVPoolTokens, h100.KVPoolTokens, d)
	}
	// The mark counts for vLLM alone, and a budget set by hand wins.
	in.MaxBatchedTokens = 8192
	if got := in.BatchedTokens(); got != 8192 {
		t.Errorf("A100 80GB with max_num_batched_tokens 8192 profiles %d", got)
	}
	in.MaxBatchedTokens, in.Engine = 0, SGLang
	if got, want := in.BatchedTokens(), SGLangDefaults(in.VRAM, 1).ChunkedPrefillSize; got != want {
		t.Errorf("SGLang on an A100 80GB profiles %d tokens, want its chunk %d", got, want)
	}
}
