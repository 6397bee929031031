package estimator

import "testing"

// TestEngineShareForTightTP: DeepSeek-V3 FP8 at TP 4 under SGLang on a
// 180 GiB GPU does not fit at SGLang's default share (its reserve for a
// 16,384-token chunk and graphs to batch 512 at TP ≥ 4) and fits at the
// TP-4 recipes' share with their chunk and graph batch; the same job on
// a 141 GiB GPU gets no such fix (the recipes run 180 GB GPUs, and its
// 5% would hold less), nor does a share the user set, nor vLLM. At
// attention DP the fix is the attention-DP recipes' share, with no chunk.
func TestEngineShareForTightTP(t *testing.T) {
	in, _ := disaggInput(t)
	in.VRAM, in.TP, in.GPUs, in.Batch, in.Seq = 180*GiB, 4, 4, 1, 2048
	if r, err := Estimate(in); err != nil || r.Fits {
		t.Fatalf("at SGLang's default share (%.3f): fits %v, err %v; want no fit", in.MemShare(), r.Fits, err)
	}
	f, ok := EngineShareFor(in)
	if !ok || f.Share != SGLangTightMemFraction || f.Chunk != SGLangTightChunk || f.CUDAGraphMaxBS != SGLangTightCUDAGraphMaxBS {
		t.Fatalf("fix %+v %v: want %v with chunk %d and graphs to %d", f, ok, SGLangTightMemFraction, SGLangTightChunk, SGLangTightCUDAGraphMaxBS)
	}
	fixed := f.Apply(in)
	if fixed.GPUMemUtil != 0.95 || fixed.MaxBatchedTokens != 8192 {
		t.Errorf("applied: share %v, chunk %d", fixed.GPUMemUtil, fixed.MaxBatchedTokens)
	}
	if r, err := Estimate(fixed); err != nil || !r.Fits || r.KVPoolTokens <= 0 {
		t.Errorf("at the fix: fits %v, pool %d, err %v", r.Fits, r.KVPoolTokens, err)
	}
	if got := f.Flags(); got != "--gpu-mem-util 0.95 --max-batched-tokens 8192" {
		t.Errorf("Flags %q", got)
	}
	if got := f.EngineFlags(); got != "--mem-fraction-static 0.95 --chunked-prefill-size 8192 --cuda-graph-max-bs 32" {
		t.Errorf("EngineFlags %q", got)
	}
	small := in
	small.VRAM, small.TP, small.GPUs = 86*GiB, 8, 8
	if r, err := Estimate(small); err != nil || r.Fits {
		t.Fatalf("86 GiB at TP 8, default share: fits %v, err %v; want no fit", r.Fits, err)
	}
	small.GPUMemUtil = 0.95
	if r, err := Estimate(small); err != nil || !r.Fits {
		t.Fatalf("86 GiB at TP 8 at 0.95: fits %v, err %v; want a fit, which the size rule withholds", r.Fits, err)
	}
	for name, x := range map[string]Input{
		"86 GiB":      func() Input { x := in; x.VRAM, x.TP, x.GPUs = 86*GiB, 8, 8; return x }(),
		"user share":  func() Input { x := in; x.GPUMemUtil = 0.9; return x }(),
		"vLLM":        func() Input { x := in; x.Engine = VLLM; return x }(),
		"fits as set": func() Input { x := in; x.TP, x.GPUs = 8, 8; return x }(),
	} {
		if f, ok := EngineShareFor(x); ok {
			t.Errorf("%s: fix %+v, want none", name, f)
		}
	}
	dp := in
	dp.VRAM, dp.TP, dp.GPUs, dp.DP, dp.EP = 80*GiB, 16, 16, 16, 16
	if f, ok := EngineShareFor(dp); !ok || f.Share != SGLangDPAttentionMemFraction || f.Chunk != 0 || f.CUDAGraphMaxBS != SGLangDPAttentionCUDAGraphMaxBS {
		t.Errorf("DP 16 on 80 GiB: fix %+v %v, want %v with graphs to %d and no chunk", f, ok, SGLangDPAttentionMemFraction, SGLangDPAttentionCUDAGraphMaxBS)
	}
}
