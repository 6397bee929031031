package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// memShareOut is the part of the estimate's JSON the share tests read.
type memShareOut struct {
	Fits bool `json:"fits"`
	Fix  *struct {
		DefaultShare      float64 `json:"default_share"`
		Share             float64 `json:"share"`
		MaxBatchedTokens  int     `json:"max_batched_tokens"`
		CUDAGraphMaxBS    int     `json:"cuda_graph_max_bs"`
		KVPoolTokens      int64   `json:"kv_pool_tokens"`
		MaxConcurrentSeqs int64   `json:"max_concurrent_seqs"`
	} `json:"fits_with_mem_share"`
}

// TestEstimateNamesTheEngineShare: DeepSeek-R1 FP8 on two nodes of 8 ×
// H100 at TP 16 with attention DP 16 and EP 16, the layout SGLang's
// DeepSeek recipes run, does not fit at SGLang's default
// --mem-fraction-static (its CUDA-graph reserve, 4.5 MiB × 512 × 16, and
// the 2 GiB it keeps for the DeepEP buffers the layout runs with leave a
// share of 0.331, below the weights); the estimate says the
// default share is the cause and names --gpu-mem-util 0.85, at which it
// fits with a pool of many sequences. A share the user sets, or an engine
// whose default does not grow with DP (vLLM), gets no such hint.
func TestEstimateNamesTheEngineShare(t *testing.T) {
	args := []string{"estimate", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "h100-sxm",
		"--gpus", "16", "--tp", "16", "--dp", "16", "--ep", "16", "--batch", "256", "--prompt-tokens", "1024", "--output-tokens", "1024"}
	out, errOut, code := runCLI(append(args, "--engine", "sglang", "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j memShareOut
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Fits || j.Fix == nil {
		t.Fatalf("fits %v, fix %+v: want no fit at the default share and a fix", j.Fits, j.Fix)
	}
	if j.Fix.DefaultShare < 0.3 || j.Fix.DefaultShare > 0.4 || j.Fix.Share != 0.85 || j.Fix.MaxConcurrentSeqs < 256 {
		t.Errorf("fix %+v: want default ≈ 0.331, share 0.85, a pool of at least the batch", *j.Fix)
	}
	text, _, _ := runCLI(append(args, "--engine", "sglang")...)
	if !strings.Contains(text, "does NOT fit") || !strings.Contains(text, "default --mem-fraction-static, 0.331 here") ||
		!strings.Contains(text, "fits with --gpu-mem-util 0.85") {
		t.Errorf("the text does not name the default share and the flag:\n%s", text)
	}
	// At the share the hint names, it fits and no hint is left.
	fixed, _, _ := runCLI(append(args, "--engine", "sglang", "--gpu-mem-util", "0.85")...)
	if strings.Contains(fixed, "does NOT fit") || strings.Contains(fixed, "fits with --gpu-mem-util") {
		t.Errorf("at --gpu-mem-util 0.85:\n%s", fixed)
	}
	vllm, _, _ := runCLI(append(args, "--engine", "vllm")...)
	if strings.Contains(vllm, "--mem-fraction-static") {
		t.Errorf("vLLM gets SGLang's hint:\n%s", vllm)
	}
}

// TestEstimateNamesTheTightShare: DeepSeek-R1 FP8 at TP 4 on B200s under
// SGLang does not fit at SGLang's default --mem-fraction-static (0.856:
// its reserve for a 16,384-token chunk and graphs to batch 512 leaves the
// 156.7 GiB of weights a GPU no KV pool); the estimate names the share,
// chunk and graph batch InferenceX's TP-4 recipes run it with, at which it
// fits, and says so in the JSON (fits_with_mem_share with
// max_batched_tokens and cuda_graph_max_bs).
func TestEstimateNamesTheTightShare(t *testing.T) {
	args := []string{"estimate", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "b200", "--engine", "sglang",
		"--tp", "4", "--batch", "32", "--prompt-tokens", "8192", "--output-tokens", "1024"}
	out, errOut, code := runCLI(append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j memShareOut
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Fits || j.Fix == nil {
		t.Fatalf("fits %v, fix %+v: want no fit at the default share and a fix", j.Fits, j.Fix)
	}
	if f := *j.Fix; f.DefaultShare != 0.856 || f.Share != 0.95 || f.MaxBatchedTokens != 8192 || f.CUDAGraphMaxBS != 32 || f.KVPoolTokens < 150000 {
		t.Errorf("fix %+v: want 0.856 → 0.95 with chunk 8192, graphs to 32, a bf16 KV pool over 150,000 tokens (16 sequences of 9,216)", f)
	}
	text, _, _ := runCLI(args...)
	if !strings.Contains(text, "fits with --gpu-mem-util 0.95 --max-batched-tokens 8192 (--mem-fraction-static 0.95 --chunked-prefill-size 8192 --cuda-graph-max-bs 32") {
		t.Errorf("the text does not name the share, chunk and graph batch:\n%s", text)
	}
	fixed, _, _ := runCLI(append(args, "--gpu-mem-util", "0.95", "--max-batched-tokens", "8192")...)
	if strings.Contains(fixed, "does NOT fit") || strings.Contains(fixed, "fits with --gpu-mem-util") {
		t.Errorf("at the fix:\n%s", fixed)
	}
}
