package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

func runEst(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runEstimate(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEstimateJSON(t *testing.T) {
	code, out, errs := runEst(t, "--config", "../../estimator/testdata/configs/llama-3.1-8b.json",
		"--engine", "vllm", "--vram", "80GiB", "--gpu-mem-util", "0.95", "--seq", "8192", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"parameters", "active_parameters", "kv_cache_bytes_per_token", "per_gpu", "usable_bytes",
		"fits", "max_batch_that_fits", "max_seq_that_fits", "kv_pool_tokens", "warnings", "rules_of_thumb"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if r["parameters"].(float64) != 8030261248 || r["kv_cache_bytes_per_token"].(float64) != 131072 {
		t.Errorf("parameters %v, kv bytes/token %v", r["parameters"], r["kv_cache_bytes_per_token"])
	}
	pg := r["per_gpu"].(map[string]any)
	for _, k := range []string{"weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes",
		"kv_cache_bytes", "overhead_bytes", "total_bytes", "cuda_context_bytes", "nccl_bytes", "cuda_graphs_bytes"} {
		if _, ok := pg[k]; !ok {
			t.Errorf("per_gpu lacks %q", k)
		}
	}
	// vLLM pool on a 0.99×80 GiB H100 at 0.95: about 476k tokens (llm-d report: 476,016).
	if tok := r["kv_pool_tokens"].(float64); tok < 450000 || tok > 500000 {
		t.Errorf("kv_pool_tokens %v", tok)
	}
}

func TestEstimateTable(t *testing.T) {
	code, out, errs := runEst(t, "--config", "../../estimator/testdata/configs/mixtral-8x7b-v0.1.mlc_preset.json",
		"--task", "qlora", "--vram", "48GB", "--grad-checkpointing", "--seq", "1024")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"46.703B parameters", "12.880B active", "qlora on hf", "total per GPU", "quant state"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestEstimateCatalog(t *testing.T) {
	code, out, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"parameters": 8030261248`) {
		t.Errorf("unexpected output %s", out)
	}
}

func TestEstimateErrors(t *testing.T) {
	cfg := "../../estimator/testdata/configs/llama-3.1-8b.json"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "need --model ID or --config FILE"},
		{[]string{"--config", "nope.json"}, "--config"},
		{[]string{"--config", cfg, "--batch", "0"}, "batch=0"},
		{[]string{"--config", cfg, "--tp", "3", "--gpus", "3"}, "tp=3"},
		{[]string{"--config", cfg, "--task", "dance"}, "--task"},
		{[]string{"--config", cfg, "--vram", "24"}, "missing unit"},
		{[]string{"--config", cfg, "--bogus"}, "flag provided but not defined"},
		{[]string{"--config", cfg, "--gpu", "h100-sxm", "--vram", "80GiB"}, "exclusive"},
		{[]string{"--model", "no-such-model"}, "not in the catalog"},
		{[]string{"--config", cfg, "--engine", "vllm", "--task", "lora"}, "engine=vllm"},
	} {
		code, _, errs := runEst(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line containing %q", c.args, code, errs, c.want)
		}
	}
}

// knownCatalogIssues are catalog entries whose data disagrees with the
// estimator; they are logged, not failed, until the catalog is fixed.
var knownCatalogIssues = map[string]string{}

// TestCatalogModelsParse: every catalog model's config parses and its
// parameter count is within 5% of the catalog's published figure (cards
// round: "7B" for Llama-2-7B's 6.74B).
func TestCatalogModelsParse(t *testing.T) {
	for _, m := range catalog.Default().Models {
		a, err := estimator.ParseConfig([]byte(m.Config))
		e := 0.0
		if err == nil && m.PublishedParams > 0 {
			e = float64(a.Params()-m.PublishedParams) / float64(m.PublishedParams)
		}
		bad := err != nil || e > 0.05 || e < -0.05
		switch {
		case bad && knownCatalogIssues[m.ID] != "":
			t.Logf("%s: known catalog issue (%s): err=%v, count error %+.1f%%", m.ID, knownCatalogIssues[m.ID], err, 100*e)
		case err != nil:
			t.Errorf("%s: %v", m.ID, err)
		case bad:
			t.Errorf("%s: %d parameters, catalog publishes %d (%+.1f%%)", m.ID, a.Params(), m.PublishedParams, 100*e)
		}
	}
}

// With --gpu the estimate carries a speed block from the catalog GPU's
// datasheet figures; without it (or with only --vram) it does not.
func TestEstimatePerformance(t *testing.T) {
	code, out, errs := runEst(t, "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "h100-sxm",
		"--gpus", "8", "--zero", "3", "--train-tokens", "2B", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Performance *struct {
			TokensPerSecond float64 `json:"tokens_per_second"`
			MFU             float64 `json:"mfu"`
			TrainTokens     float64 `json:"train_tokens"`
			JobSeconds      float64 `json:"job_seconds"`
			GPUHours        float64 `json:"gpu_hours"`
		} `json:"performance"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	p := r.Performance
	if p == nil || p.TokensPerSecond <= 0 || p.TrainTokens != 2e9 {
		t.Fatalf("performance block: %+v", p)
	}
	// Job time is tokens / rate, and 8 GPUs work all of it.
	if d := p.JobSeconds - 2e9/p.TokensPerSecond; d*d > 1e-6 || (p.GPUHours-8*p.JobSeconds/3600)*(p.GPUHours-8*p.JobSeconds/3600) > 1e-9 {
		t.Errorf("job %v s, GPU-hours %v at %v tokens/s", p.JobSeconds, p.GPUHours, p.TokensPerSecond)
	}
	// Full training on Hopper at Llama 3.1 8B's width: 0.44 / (1 + 1.5 ×
	// (989.5e12 / 3.35e12) / 4096) ≈ 0.397 (no recompute, no TP/PP; the
	// ZeRO-3 gathers hide under compute on NVLink).
	if p.MFU < 0.38 || p.MFU > 0.41 {
		t.Errorf("MFU %v", p.MFU)
	}
	_, out, _ = runEst(t, "--model", "llama-3.1-8b", "--vram", "80GiB", "--json")
	if strings.Contains(out, `"performance"`) {
		t.Error("a speed estimate without datasheet figures (--vram only)")
	}
	if code, _, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--train-tokens", "lots"); code != 2 || !strings.Contains(errs, "--train-tokens") {
		t.Errorf("bad --train-tokens: exit %d, %q", code, errs)
	}
}

// TestEstimateTrainingMemoryFlags: torchtune's full fine-tune of Llama 3.1
// 8B on one RTX 4090 (pure bf16, paged 8-bit AdamW in the backward pass,
// chunked loss, activation checkpointing) reports 18.9 GiB peak active
// memory in its README; allocated_bytes is the comparable figure and must
// land within 10%, and leave out the context and allocator cache.
func TestEstimateTrainingMemoryFlags(t *testing.T) {
	code, out, errs := runEst(t, "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "rtx-4090", "--batch", "2", "--seq", "2048",
		"--grad-checkpointing", "--pure-bf16", "--optimizer", "paged-adamw-8bit", "--optimizer-in-backward", "--loss-chunks", "8", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		PerGPU map[string]float64 `json:"per_gpu"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	alloc, total := r.PerGPU["allocated_bytes"], r.PerGPU["total_bytes"]
	if gib := alloc / (1 << 30); gib < 18.9*0.9 || gib > 18.9*1.1 {
		t.Errorf("allocated %.2f GiB, want 18.9 ± 10%%", gib)
	}
	if want := total - r.PerGPU["cuda_context_bytes"] - r.PerGPU["allocator_reserve_bytes"] - r.PerGPU["nccl_bytes"] - r.PerGPU["cuda_graphs_bytes"]; alloc != want {
		t.Errorf("allocated %v, want total less overheads %v", alloc, want)
	}
	// Serving flags reach the estimator's validation.
	for _, c := range [][]string{{"--ep", "3", "--tp", "4", "--engine", "vllm"}, {"--dp", "2", "--engine", "hf"}, {"--scheduler-steps", "4", "--engine", "sglang"}} {
		args := append([]string{"--model", "llama-3.1-8b", "--gpus", "4"}, c...)
		if code, _, errs := runEst(t, args...); code != 2 || !strings.Contains(errs, strings.TrimPrefix(c[0], "--")) {
			t.Errorf("%v: exit %d, %q", c, code, errs)
		}
	}
}
