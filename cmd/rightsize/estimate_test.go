package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
			Compute         float64 `json:"compute_efficiency"`
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
	// Full training on Hopper at Llama 3.1 8B's width computes at 0.44 /
	// (1 + 1.5 × (989.5e12 / 3.35e12) / 4096) = 0.397 of peak (no
	// recompute, no TP/PP). The step adds what does not hide under that
	// compute on NVLink (the last gradient bucket's reduce-scatter and the
	// optimizer's update after it), so its MFU is a few percent lower:
	// 0.379.
	if want := 0.44 / (1 + 1.5*(989.5e12/3.35e12)/4096); math.Abs(p.Compute-want) > 1e-3*want || p.MFU < 0.37 || p.MFU > 0.39 || !(p.MFU < p.Compute) {
		t.Errorf("MFU %v, compute efficiency %v (want %v)", p.MFU, p.Compute, want)
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
	for _, c := range [][]string{{"--ep", "3", "--tp", "4", "--engine", "vllm"}, {"--dp", "2", "--engine", "hf"}, {"--scheduler-steps", "4", "--engine", "sglang"},
		{"--scheduler-recv-interval", "10", "--engine", "vllm"}, {"--attention-dp-balance", "60", "--engine", "trtllm"}} {
		args := append([]string{"--model", "llama-3.1-8b", "--gpus", "4"}, c...)
		if code, _, errs := runEst(t, args...); code != 2 || !strings.Contains(errs, strings.TrimPrefix(c[0], "--")) {
			t.Errorf("%v: exit %d, %q", c, code, errs)
		}
	}
}

// estJSON runs estimate --json and decodes its output; it fails the test
// on a non-zero exit.
func estJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errs := runEst(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// perfOf is the estimate's performance block (nil without one).
func perfOf(r map[string]any) map[string]any { p, _ := r["performance"].(map[string]any); return p }

// same reports whether a and b agree to a relative 1e-9.
func same(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestEstimateHost: --host sets the class of the CPU that runs HF eager
// decoding, by class name or by CPU name, and the JSON says which class
// the speed took; without it the GPU's own hosts decide (the A100's
// server, the T4's Skylake-era cloud Xeons, the RTX 4090's desktop).
// Llama 2 7B at batch 1 is host-bound: its step is 32 blocks × 43 eager
// ops + 27 (host_class.go's fit note) at the class's cost per op.
func TestEstimateHost(t *testing.T) {
	args := []string{"--model", "llama-2-7b", "--engine", "hf", "--batch", "1", "--seq", "512", "--prompt-tokens", "256", "--output-tokens", "256"}
	const ops = 32*43 + 27
	for _, c := range []struct {
		gpu, host string
		class     estimator.HostClass
	}{
		{"a100-80gb-sxm", "", estimator.HostServer},
		{"a100-80gb-sxm", "legacy-server", estimator.HostLegacyServer},
		{"a100-80gb-sxm", "desktop", estimator.HostDesktop},
		{"a100-80gb-sxm", "Intel Xeon Platinum 8275CL", estimator.HostLegacyServer}, // Cascade Lake (AWS p4d)
		{"a100-80gb-sxm", "AMD EPYC 7742", estimator.HostServer},                    // Rome (DGX A100)
		{"rtx-4090", "", estimator.HostDesktop},
		{"t4", "", estimator.HostLegacyServer},
	} {
		a := append([]string{"--gpu", c.gpu}, args...)
		if c.host != "" {
			a = append(a, "--host", c.host)
		}
		p := perfOf(estJSON(t, a...))
		if p["host_class"] != c.class.String() {
			t.Errorf("%s --host %q: host_class %v, want %v", c.gpu, c.host, p["host_class"], c.class)
			continue
		}
		floor, want := p["host_floor_seconds"].(float64), ops*c.class.OpSeconds()
		// On the A100 the step is the host's (its 13.5 GB read takes 7 ms);
		// the RTX 4090's and the T4's bandwidth bind before their hosts.
		hostBound := c.gpu == "a100-80gb-sxm"
		if !same(floor, want) || hostBound != (p["bound"] == "host") || hostBound && !same(p["decode_step_seconds"].(float64), want) {
			t.Errorf("%s --host %q: host floor %v s, step %v s (%v); want floor %v s", c.gpu, c.host, floor, p["decode_step_seconds"], p["bound"], want)
		}
	}
	// --host-op-us overrides the class's figure.
	if p := perfOf(estJSON(t, append([]string{"--gpu", "a100-80gb-sxm", "--host-op-us", "20"}, args...)...)); !same(p["host_floor_seconds"].(float64), ops*20e-6) {
		t.Errorf("--host-op-us 20: host floor %v s, want %v", p["host_floor_seconds"], ops*20e-6)
	}
	// A serving engine's step does not run HF's eager ops: no host class.
	if p := perfOf(estJSON(t, "--model", "llama-2-7b", "--gpu", "a100-80gb-sxm", "--engine", "vllm", "--host", "desktop", "--steady-state")); p["host_class"] != nil {
		t.Errorf("vLLM: host_class %v", p["host_class"])
	}
	code, _, errs := runEst(t, append([]string{"--gpu", "a100-80gb-sxm", "--host", "Pentium 4"}, args...)...)
	if code != 2 || !strings.Contains(errs, "--host") || !strings.Contains(errs, "want server, legacy-server, desktop or a CPU name") {
		t.Errorf("--host \"Pentium 4\": exit %d, %q", code, errs)
	}
}

// TestEstimateKernel: the weight-only kernel moves HF's decode step by its
// extra host ops per linear (perf_engine.go: exllama and Marlin none,
// AutoGPTQ 2, bitsandbytes' LLM.int8() 15) over Llama 2 13B's 40 × 7
// linears at the A100 server host's cost per op, and its memory by what
// it stores: LLM.int8() a 16-bit dequantisation buffer of the largest
// linear (5120 × 13824), GPTQ group-128 scales and zeros instead. Kernels
// that do not run the format are refused with the reason, with or without
// --gpu.
func TestEstimateKernel(t *testing.T) {
	args := []string{"--model", "llama-2-13b", "--gpu", "a100-80gb-sxm", "--engine", "hf", "--batch", "1", "--seq", "1024",
		"--prompt-tokens", "512", "--output-tokens", "512"}
	run := func(extra ...string) (step, state, weights float64) {
		r := estJSON(t, append(slices.Clone(args), extra...)...)
		pg := r["per_gpu"].(map[string]any)
		return perfOf(r)["decode_step_seconds"].(float64), pg["quant_state_bytes"].(float64), pg["weights_bytes"].(float64)
	}
	op, linears := estimator.HostServer.OpSeconds(), 40.0*7
	exl, exlState, w4 := run("--precision", "int4", "--quant", "int4-g128", "--kernel", "exllama")
	agq, agqState, w4a := run("--precision", "int4", "--quant", "int4-g128", "--kernel", "autogptq")
	if auto, _, _ := run("--precision", "int4", "--quant", "int4-g128"); auto != exl {
		t.Errorf("HF int4 default kernel: step %v s, exllama %v s", auto, exl)
	}
	if !same(agq-exl, linears*2*op) || exlState != 0 || agqState != 0 || w4 != w4a {
		t.Errorf("int4 exllama %v s, autogptq %v s: +%v s, want +%v (2 ops per linear); quant state %v, %v", exl, agq, agq-exl, linears*2*op, exlState, agqState)
	}
	bnb, bnbState, w8 := run("--precision", "int8")
	gptq, gptqState, w8g := run("--precision", "int8", "--kernel", "autogptq")
	if !same(bnb-gptq, linears*13*op) {
		t.Errorf("int8: LLM.int8() %v s, GPTQ on autogptq %v s: %v s apart, want %v (15 − 2 ops per linear)", bnb, gptq, bnb-gptq, linears*13*op)
	}
	// 12,687,769,600 linear weights: 8 bits with LLM.int8(), 8 + 24/128
	// with GPTQ's scales and zeros.
	if bnbState != 2*5120*13824 || gptqState != 0 || !same(w8g-w8, 12_687_769_600*(24.0/128)/8) {
		t.Errorf("int8 quant state %v (LLM.int8()), %v (GPTQ); weights %v, %v", bnbState, gptqState, w8, w8g)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--precision", "int8", "--kernel", "exllama"}, "4-bit only: int8 GPTQ runs on autogptq or marlin"},
		{[]string{"--precision", "bf16", "--kernel", "marlin"}, "a weight-only kernel needs int4 or int8 weights"},
		{[]string{"--precision", "int4", "--engine", "llamacpp", "--kernel", "marlin"}, "GGUF, llama.cpp and TensorRT-LLM use their own kernels"},
		{[]string{"--precision", "int4", "--kernel", "turbo"}, "--kernel"},
	} {
		for _, gpu := range []string{"a100-80gb-sxm", ""} {
			a := append([]string{"--model", "llama-2-13b"}, c.args...)
			if gpu != "" {
				a = append(a, "--gpu", gpu)
			}
			code, _, errs := runEst(t, a...)
			if code != 2 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "kernel") {
				t.Errorf("%v: exit %d, %q; want 2 and %q", a, code, errs, c.want)
			}
		}
	}
}

// TestEstimateEngineVersion: vLLM before 0.14 and SGLang before 0.4 run
// their host work between the GPU's steps (perf_engine_version.go), so an
// older release adds the serving step floor (host_floor_seconds) to a
// device-bound step: Llama 3.1 8B at batch 8 on an A100 reads 16 GB a
// step, well above the floor. vLLM 0.6's multi-step scheduling pays it
// once per 10 steps. The JSON names the release the model took: the
// engine's current one by default, none for HF transformers.
func TestEstimateEngineVersion(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--batch", "8", "--seq", "384", "--prompt-tokens", "256", "--output-tokens", "128"}
	step := func(engine string, extra ...string) (string, float64, float64, map[string]any) {
		r := estJSON(t, append(append(slices.Clone(args), "--engine", engine), extra...)...)
		p := perfOf(r)
		v, _ := r["engine_version"].(string)
		return v, p["decode_step_seconds"].(float64), p["host_floor_seconds"].(float64), p
	}
	for _, c := range []struct {
		engine        estimator.Engine
		old, overlaps string
	}{{estimator.VLLM, "0.6.0", "0.14.0"}, {estimator.SGLang, "0.3.0", "0.4.0"}} {
		e := c.engine.String()
		cur, curStep, floor, p := step(e, "--steady-state")
		if cur != estimator.CurrentEngineVersion(c.engine).String() || cur == "" || p["bound"] == "host" || !(curStep > floor) {
			t.Fatalf("%s: engine_version %q, step %v s (%v), floor %v s", e, cur, curStep, p["bound"], floor)
		}
		v, oldStep, _, _ := step(e, "--steady-state", "--engine-version", c.old)
		if v != c.old || !same(oldStep, curStep+floor) {
			t.Errorf("%s %s: engine_version %q, step %v s; want %v s (current %v + floor %v)", e, c.old, v, oldStep, curStep+floor, curStep, floor)
		}
		if v, s, _, _ := step(e, "--steady-state", "--engine-version", "v"+c.overlaps); v != c.overlaps || s != curStep {
			t.Errorf("%s %s: engine_version %q, step %v s; want the current %v s", e, c.overlaps, v, s, curStep)
		}
		// The simulated benchmark's TPOT moves the same way.
		_, _, _, pc := step(e)
		_, _, _, po := step(e, "--engine-version", c.old)
		if !(po["decode_token_latency_seconds"].(float64) > pc["decode_token_latency_seconds"].(float64)) {
			t.Errorf("%s %s: simulated TPOT %v s, current %v s", e, c.old, po["decode_token_latency_seconds"], pc["decode_token_latency_seconds"])
		}
	}
	_, cur, floor, _ := step("vllm", "--steady-state", "--scheduler-steps", "10")
	if _, s, _, _ := step("vllm", "--steady-state", "--scheduler-steps", "10", "--engine-version", "0.6.0"); !same(s, cur+floor/10) {
		t.Errorf("vLLM 0.6.0 with 10 scheduler steps: step %v s, want %v", s, cur+floor/10)
	}
	if r := estJSON(t, append(slices.Clone(args), "--engine", "hf")...); r["engine_version"] != nil {
		t.Errorf("HF transformers: engine_version %v", r["engine_version"])
	}
	code, _, errs := runEst(t, append(slices.Clone(args), "--engine", "vllm", "--engine-version", "latest-ish")...)
	if code != 2 || !strings.Contains(errs, "--engine-version") || !strings.Contains(errs, "want a release such as 0.6.0") {
		t.Errorf("bad --engine-version: exit %d, %q", code, errs)
	}
}

// TestEstimateTextOnly: a vision-language model counts its text model and
// its vision tower with projector apart, the two adding up to its
// parameters: Gemma 3 27B's SigLIP tower and projector are 423,060,336
// (the report's 417M encoder and 6.19M projector, Table 1) of
// 27,432,406,640. --text-only leaves them unloaded: 2 bytes each fewer in
// bf16, the counts unchanged. A text model has no vision parameters.
func TestEstimateTextOnly(t *testing.T) {
	full := estJSON(t, "--model", "gemma-3-27b")
	text := estJSON(t, "--model", "gemma-3-27b", "--text-only")
	for _, r := range []map[string]any{full, text} {
		if r["parameters"] != 27_432_406_640.0 || r["vision_parameters"] != 423_060_336.0 ||
			r["text_parameters"].(float64)+r["vision_parameters"].(float64) != r["parameters"].(float64) {
			t.Errorf("gemma-3-27b: parameters %v, text %v, vision %v", r["parameters"], r["text_parameters"], r["vision_parameters"])
		}
	}
	if full["text_only"] != false || text["text_only"] != true {
		t.Errorf("text_only %v, %v", full["text_only"], text["text_only"])
	}
	wf, wt := full["per_gpu"].(map[string]any)["weights_bytes"].(float64), text["per_gpu"].(map[string]any)["weights_bytes"].(float64)
	if wf-wt != 2*423_060_336 {
		t.Errorf("--text-only weights %v, all %v: %v apart, want %v", wt, wf, wf-wt, 2*423_060_336)
	}
	if r := estJSON(t, "--model", "llama-3.1-8b"); r["vision_parameters"] != 0.0 || r["text_parameters"] != r["parameters"] {
		t.Errorf("llama-3.1-8b: text %v, vision %v of %v", r["text_parameters"], r["vision_parameters"], r["parameters"])
	}
	if _, out, _ := runEst(t, "--model", "gemma-3-27b", "--text-only"); !strings.Contains(out, "(text 27.009B, vision tower and projector 0.423B, not loaded: --text-only)") {
		t.Errorf("table:\n%s", out)
	}
}

// TestEstimatePeak: fits and headroom_bytes are judged on peak_bytes, the
// larger of the step (per_gpu.total_bytes) and loading a base quantised on
// the GPU (load_peak_bytes); steady_state_bytes is what stays between
// steps. A Qwen 2.5 72B QLoRA job at 128 tokens peaks while PEFT casts its
// 152,064 × 8192 embedding and untied head to fp32, above its step; a
// GPU whose usable memory lies between the two does not fit it.
func TestEstimatePeak(t *testing.T) {
	args := []string{"--model", "qwen2.5-72b", "--task", "qlora", "--precision", "int4", "--batch", "1", "--seq", "128", "--grad-checkpointing", "--vram", "60GB"}
	r := estJSON(t, args...)
	pg := r["per_gpu"].(map[string]any)
	f := func(k string) float64 { return r[k].(float64) }
	step, load, peak := pg["total_bytes"].(float64)-f("allocator_cache_bytes"), f("load_peak_bytes"), f("peak_bytes")
	// PEFT's fp32 head (above its 16-bit copy while loading) and the
	// head's 16-bit autocast copy in every step: the step (without the
	// allocator's cache, which it frees under pressure; none here, where
	// the reserve is below 4% of the step) is the peak.
	if r["peak_phase"] != "step" || peak != step || !(load > 0 && load < step) || f("headroom_bytes") != f("usable_bytes")-peak || r["fits"] != true {
		t.Fatalf("peak %v (%v), load %v, step %v, headroom %v, fits %v", peak, r["peak_phase"], load, step, r["headroom_bytes"], r["fits"])
	}
	var steady float64
	for _, k := range []string{"weights_bytes", "gradients_bytes", "optimizer_bytes", "kv_cache_bytes", "cuda_context_bytes", "nccl_bytes", "cuda_graphs_bytes"} {
		steady += pg[k].(float64)
	}
	if f("steady_state_bytes") != steady || !(steady < step) {
		t.Errorf("steady state %v, want %v (below the step %v)", r["steady_state_bytes"], steady, step)
	}
	// Usable memory a MiB short of the peak.
	short := strconv.FormatFloat(peak-(1<<20), 'f', 0, 64) + "B"
	r = estJSON(t, append(slices.Clone(args), "--usable-vram", short)...)
	if r["fits"] != false || !(r["headroom_bytes"].(float64) < 0) {
		t.Errorf("usable %s: fits %v, headroom %v", short, r["fits"], r["headroom_bytes"])
	}
	if _, out, _ := runEst(t, append(slices.Clone(args), "--usable-vram", short)...); !strings.Contains(out, "does NOT fit") {
		t.Errorf("table:\n%s", out)
	}
	// A 16-bit LoRA base loads as it is: the step, less the allocator's
	// cache, is the peak.
	r = estJSON(t, "--model", "qwen2.5-7b", "--task", "lora", "--vram", "80GiB")
	if r["peak_phase"] != "step" || r["load_peak_bytes"] != 0.0 || !(r["allocator_cache_bytes"].(float64) > 0) ||
		r["peak_bytes"] != r["per_gpu"].(map[string]any)["total_bytes"].(float64)-r["allocator_cache_bytes"].(float64) {
		t.Errorf("LoRA: peak %v (%v), load %v", r["peak_bytes"], r["peak_phase"], r["load_peak_bytes"])
	}
}

// TestEstimateBackwardEnd: a full fine-tune that accumulates under FSDP
// (LitGPT's Gemma 2B row: --fsdp-no-sync by default) peaks at the end of
// the backward (estimator.Result.BackwardEnd): peak_phase "backward-end",
// peak_bytes is backward_end_bytes, peak_allocated_bytes is above the
// step's allocated_bytes, and the table names the line. Synchronising
// every micro-batch (--fsdp-no-sync=false) the same moment holds the
// gradients' shards, not the whole model's: lower by three quarters of
// the whole model's 16-bit gradients over 4 GPUs.
func TestEstimateBackwardEnd(t *testing.T) {
	args := []string{"--config", filepath.Join("..", "..", "estimator", "testdata", "calibration", "finetune_configs", "gemma-2b.json"),
		"--task", "finetune", "--gpu", "a10g", "--gpus", "4", "--batch", "1", "--seq", "512", "--global-batch", "16", "--pure-bf16",
		"--loss-chunks", "4", "--separate-head", "--keeps-last-graph", "--zero", "3", "--grad-checkpointing"}
	r := estJSON(t, args...)
	pg := r["per_gpu"].(map[string]any)
	if r["peak_phase"] != "backward-end" || r["peak_bytes"] != r["backward_end_bytes"] ||
		!(r["peak_allocated_bytes"].(float64) > pg["allocated_bytes"].(float64)+2e9) || !(r["peak_bytes"].(float64) > pg["total_bytes"].(float64)) {
		t.Errorf("peak %v (%v), backward end %v, peak allocated %v, step allocated %v", r["peak_bytes"], r["peak_phase"],
			r["backward_end_bytes"], r["peak_allocated_bytes"], pg["allocated_bytes"])
	}
	if _, out, _ := runEst(t, args...); !strings.Contains(out, "peak per GPU (end of backward)") {
		t.Errorf("table:\n%s", out)
	}
	s := estJSON(t, append(slices.Clone(args), "--fsdp-no-sync=false")...)
	whole := 2 * r["parameters"].(float64)
	if d := r["backward_end_bytes"].(float64) - s["backward_end_bytes"].(float64); math.Abs(d-whole*3/4) > 0.01*whole {
		t.Errorf("sync: backward end %v, %v under no_sync's %v; want three quarters of the whole gradients, %.0f", s["backward_end_bytes"], d, r["backward_end_bytes"], whole*3/4)
	}
}

// TestEstimateNoPromptLeft: --output-tokens as long as --seq leaves no
// prompt; the command says so in one line naming both flags, not
// "prompt=0: out of range".
func TestEstimateNoPromptLeft(t *testing.T) {
	code, _, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--seq", "512", "--output-tokens", "512")
	if code == 0 || !strings.Contains(errs, "--output-tokens 512 leaves no prompt in --seq 512") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("exit %d, %q", code, errs)
	}
	if code, _, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--seq", "1024", "--output-tokens", "512"); code != 0 {
		t.Errorf("512 of 1024 tokens generated: exit %d, %q", code, errs)
	}
}

// TestOutputTokensOneReading: estimate, plan, simulate and calibrate read
// --output-tokens alone as the generated part of --seq (the prompt the
// rest), so each answers as with the prompt given: plan and simulate
// refused it (prompt 0) and calibrate called the lengths unknown.
func TestOutputTokensOneReading(t *testing.T) {
	noLen := filepath.Join(t.TempDir(), "nolen.csv")
	if err := os.WriteFile(noLen, []byte("concurrency,ttft_ms,tpot_ms\n4,80,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, cmd []string }{
		{[]string{"estimate"}, []string{"estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--json"}},
		{[]string{"plan"}, []string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "2", "--top", "2", "--format", "json"}},
		{[]string{"plan", "batch"}, []string{"plan", "--model", "llama-3.1-8b", "--requests", "1000", "--top", "2", "--format", "json"}},
		{[]string{"simulate"}, []string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--concurrencies", "1,4", "--format", "json"}},
		{[]string{"calibrate"}, []string{"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--json", noLen}},
	} {
		alone, errs, code := runCLI(append(c.cmd, "--seq", "2048", "--output-tokens", "512")...)
		if code != 0 {
			t.Errorf("%v --seq 2048 --output-tokens 512: code %d, %s", c.name, code, errs)
			continue
		}
		both, errs, code := runCLI(append(c.cmd, "--seq", "2048", "--prompt-tokens", "1536", "--output-tokens", "512")...)
		if code != 0 || alone != both {
			t.Errorf("%v: --output-tokens 512 alone reads otherwise than --prompt-tokens 1536 with it (code %d, %s)", c.name, code, errs)
		}
	}
	// The default --seq too: 2048 less the output.
	out, errs, code := runCLI("simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--concurrencies", "1", "--output-tokens", "256")
	if code != 0 || !strings.Contains(out, "1792/256 tokens per request") {
		t.Errorf("simulate --output-tokens 256: code %d, %s%s", code, errs, out)
	}
	// An output that leaves no prompt is the same one-line error everywhere.
	for _, cmd := range [][]string{
		{"estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm"},
		{"plan", "--model", "llama-3.1-8b", "--requests", "1000"},
		{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm"},
	} {
		_, errs, code := runCLI(append(cmd, "--seq", "2048", "--output-tokens", "2048")...)
		if code != 2 || !strings.Contains(errs, "--output-tokens 2048 leaves no prompt in --seq 2048") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: code %d, %q", cmd[0], code, errs)
		}
	}
}

// TestShippedPrecision: serving a model whose checkpoint ships FP8
// weights (DeepSeek-R1) plans FP8 unless --precision says otherwise, and
// says so; training keeps the 16-bit default, and a 16-bit checkpoint is
// untouched.
func TestShippedPrecision(t *testing.T) {
	var j struct {
		Precision string `json:"precision"`
	}
	read := func(args ...string) (string, string) {
		t.Helper()
		out, errOut, code := runCLI(append([]string{"estimate", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		j.Precision = ""
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return j.Precision, errOut
	}
	if p, note := read("--model", "deepseek-r1", "--gpus", "8"); p != "fp8" || !strings.Contains(note, "DeepSeek-R1 ships its weights in fp8") {
		t.Errorf("DeepSeek-R1 serving: precision %q, note %q", p, note)
	}
	if p, note := read("--model", "deepseek-r1", "--gpus", "16", "--precision", "bf16", "--engine", "vllm"); p != "bf16" || note != "" {
		t.Errorf("DeepSeek-R1 at --precision bf16: precision %q, note %q", p, note)
	}
	if p, _ := read("--model", "deepseek-r1", "--gpus", "64", "--task", "finetune", "--zero", "3"); p != "bf16" {
		t.Errorf("DeepSeek-R1 fine-tune: precision %q", p)
	}
	if p, note := read("--model", "llama-3.1-8b", "--engine", "vllm"); p != "bf16" || note != "" {
		t.Errorf("Llama 3.1 8B: precision %q, note %q", p, note)
	}
}

// TestFineTuneDefaults: what a fine-tune plan assumes when the flags say
// nothing, against LitGPT's config-hub runs on A10Gs. Llama 3 8B full
// fine-tuning on 4 GPUs with FSDP at micro-batch 4 and global batch 64
// (four micro-batches per step) ran out of memory: by default the
// accumulation runs under FSDP's no_sync(), so every GPU holds the whole
// model's bf16 gradients (2 B per parameter) and the plan does not fit;
// --fsdp-no-sync=false shards them again. Gemma 7B LoRA at 1 × 512 with
// only the generic flags counts the adapters' dropout copies (0.05 by
// default) in place of the attention input; --lora-dropout 0 drops them.
func TestFineTuneDefaults(t *testing.T) {
	full := []string{"--model", "llama-3-8b", "--task", "finetune", "--gpu", "a10g", "--gpus", "4", "--zero", "3", "--batch", "4", "--seq", "512",
		"--global-batch", "64", "--pure-bf16", "--grad-checkpointing"}
	code, _, errs := runEst(t, append(slices.Clone(full), "--json")...)
	if code != 0 || !strings.Contains(errs, "note: --fsdp-no-sync") {
		t.Errorf("exit %d, no no_sync note: %q", code, errs)
	}
	r := estJSON(t, full...)
	per := r["per_gpu"].(map[string]any)
	params := r["parameters"].(float64)
	if got := per["gradients_bytes"].(float64); math.Abs(got-2*params) > 1 {
		t.Errorf("default gradients %.0f B, want the whole model's in bf16 %.0f", got, 2*params)
	}
	if r["fits"] != false {
		t.Error("Llama 3 8B full on 4 A10Gs accumulating under FSDP called fitting; LitGPT's run ran out of memory")
	}
	off := estJSON(t, append(slices.Clone(full), "--fsdp-no-sync=false")...)
	if got := off["per_gpu"].(map[string]any)["gradients_bytes"].(float64); math.Abs(got-2*params/4) > 4 {
		t.Errorf("--fsdp-no-sync=false gradients %.0f B, want a quarter of the model's %.0f", got, 2*params/4)
	}
	// One micro-batch a step: the step's moment, the backward's start,
	// holds the head's gradient and one block's in bf16 (V·h + the final
	// norm's h; q, k, v, o 4096 × 10240, the MLP's 3 × 4096 × 14336, two
	// norms), the shards only at the backward's end.
	one := estJSON(t, append(slices.Clone(full[:len(full)-4]), "--global-batch", "16", "--pure-bf16")...)
	inFlight := 2.0 * (128256*4096 + 4096 + 4096*10240 + 3*4096*14336 + 2*4096)
	if got := one["per_gpu"].(map[string]any)["gradients_bytes"].(float64); math.Abs(got-inFlight) > 4 {
		t.Errorf("one micro-batch per step: gradients %.0f B, want the head's and a block's in flight %.0f", got, inFlight)
	}
	if one["gradients_in_flight"] != true || r["gradients_in_flight"] != false {
		t.Errorf("gradients_in_flight: one micro-batch %v, accumulating %v", one["gradients_in_flight"], r["gradients_in_flight"])
	}
	if !(one["backward_end_bytes"].(float64) > 2*params/4) {
		t.Errorf("one micro-batch per step: backward end %v, want it to hold the shards %.0f", one["backward_end_bytes"], 2*params/4)
	}

	cfg := filepath.Join("..", "..", "estimator", "testdata", "calibration", "finetune_configs", "gemma-7b.json")
	lora := []string{"--config", cfg, "--task", "lora", "--precision", "bf16", "--gpu", "a10g", "--batch", "1", "--seq", "512"}
	def, zero := estJSON(t, lora...), estJSON(t, append(slices.Clone(lora), "--lora-dropout", "0")...)
	act := func(r map[string]any) float64 { return r["per_gpu"].(map[string]any)["activations_bytes"].(float64) }
	// 28 layers × 512 tokens × (q, k, v: 3·3072; o: 4096) inputs × (2 B + 1 B mask),
	// less the attention input (3072 × 2 B) the frozen q/k/v then keep no copy of
	if got, want := act(def)-act(zero), 28*512*((3*3072+4096)*3.0-3072*2); math.Abs(got-want) > 28 {
		t.Errorf("default adapter dropout adds %.0f B, want %.0f", got, want)
	}
	if code, _, errs := runEst(t, "--model", "llama-3-8b", "--lora-dropout", "0.1"); code != 2 || !strings.Contains(errs, "lora-dropout") {
		t.Errorf("--lora-dropout on an inference job: exit %d, %q", code, errs)
	}
}

// TestLightningQLoRADefault: a pure-bf16 QLoRA on bitsandbytes NF4
// (Lightning's BitsandbytesPrecision, estimator.LightningQLoRADefault)
// plans a 4-bit LM head and the fit loop's held graph unless told
// otherwise. Llama 2 7B at 2 × 512 by hand: the head stores V·h at 4.5
// bits, not 16, and is dequantised whole (V·h·2 B); the previous step's
// 4-bit linear inputs are 1,024 tokens × 32 layers × (attention and MLP
// inputs 2·4096·2 B + attention output and MLP product 2·(4096 + 11008) B)
// + the head's input 1,024 × 4096 × 2 B.
func TestLightningQLoRADefault(t *testing.T) {
	args := []string{"--model", "llama-2-7b", "--task", "qlora", "--gpu", "a10g", "--batch", "2", "--seq", "512",
		"--pure-bf16", "--precision", "int4", "--lora-targets", "attention", "--lora-rank", "8"}
	code, _, errs := runEst(t, append(slices.Clone(args), "--json")...)
	if code != 0 || !strings.Contains(errs, "BitsandbytesPrecision") {
		t.Errorf("exit %d, no note on Lightning's plugin: %q", code, errs)
	}
	def := estJSON(t, args...)
	off := estJSON(t, append(slices.Clone(args), "--quantize-head=false", "--keeps-last-graph=false")...)
	both := estJSON(t, append(slices.Clone(args), "--quantize-head", "--keeps-last-graph")...)
	part := func(r map[string]any, k string) float64 { return r["per_gpu"].(map[string]any)[k].(float64) }
	if def["peak_allocated_bytes"] != both["peak_allocated_bytes"] {
		t.Errorf("default peak %v, want the explicit flags' %v", def["peak_allocated_bytes"], both["peak_allocated_bytes"])
	}
	const V, h = 32000.0, 4096.0
	if got, want := part(off, "weights_bytes")-part(def, "weights_bytes"), V*h*(16-4.5)/8; math.Abs(got-want) > 8 {
		t.Errorf("4-bit head saves %.0f B of weights, want %.0f", got, want)
	}
	if got, want := part(def, "quant_state_bytes"), V*h*2; math.Abs(got-want) > 8 {
		t.Errorf("dequantised head %.0f B, want %.0f", got, want)
	}
	if got, want := part(def, "activations_bytes")-part(off, "activations_bytes"), 1024*32*(2*h*2+2*(h+11008))+1024*h*2; math.Abs(got-want) > 32 {
		t.Errorf("held 4-bit inputs %.0f B, want %.0f", got, want)
	}
	// Not Lightning's plugin: PEFT's fp32 preparation (no --pure-bf16),
	// torchao's double-quantised NF4 (--quant nf4), LoRA on a 16-bit base.
	for _, other := range [][]string{
		{"--model", "llama-2-7b", "--task", "qlora", "--gpu", "a10g", "--batch", "2", "--seq", "512", "--precision", "int4"},
		append(slices.Clone(args), "--quant", "nf4"),
		{"--model", "llama-2-7b", "--task", "lora", "--gpu", "a10g", "--batch", "2", "--seq", "512", "--pure-bf16"},
	} {
		if _, _, errs := runEst(t, append(slices.Clone(other), "--json")...); strings.Contains(errs, "BitsandbytesPrecision") {
			t.Errorf("%v: planned as Lightning's plugin", other)
		}
	}
}

// TestSeparateHead: --separate-head gives a tied checkpoint its own LM
// head, as LitGPT runs Gemma and Llama 3.2: 256,000 × 2,048 more
// parameters for Gemma 2B, their bf16 weights in the plan.
func TestSeparateHead(t *testing.T) {
	cfg := filepath.Join("..", "..", "estimator", "testdata", "calibration", "finetune_configs", "gemma-2b.json")
	args := []string{"--config", cfg, "--task", "lora", "--gpu", "a10g", "--batch", "2", "--seq", "512", "--pure-bf16"}
	tied, sep := estJSON(t, args...), estJSON(t, append(slices.Clone(args), "--separate-head")...)
	const head = 256000 * 2048
	if d := sep["parameters"].(float64) - tied["parameters"].(float64); d != head {
		t.Errorf("--separate-head adds %.0f parameters, want %d", d, head)
	}
	w := func(r map[string]any) float64 { return r["per_gpu"].(map[string]any)["weights_bytes"].(float64) }
	if d := w(sep) - w(tied); math.Abs(d-2*head) > 1 {
		t.Errorf("--separate-head adds %.0f B of weights, want %d", d, 2*head)
	}
}

// TestPublishedPretrainLayoutGetsATime: Llama 3.1 405B as Meta pre-trained
// it (TP 8 × PP 16, 8K sequences, 2,048-sequence batches on 16,384 H100s,
// and Table 4's 8,192 with 32 micro-batches a replica; Dubey et al. 2024
// §3.3.2), given as a replay gives it, without --zero or
// --virtual-stages, fits and gets GPU-hours: the layout is the first the
// common stacks run that fits (estimator.ResolveTrainDefaults). At 16,384
// Megatron-Core's interleaved warm-up takes all 16 micro-batches on the
// early stages, 79.4 GiB at ZeRO 1, so the gradients are sharded too (the
// run's FSDP, ZeRO 2's memory: 73.6 GiB, 36.1M GPU-hours against the
// card's 30.84M, which also holds the long-context and annealing stages);
// at 8,192 neither stage fits interleaved (92.6, 86.8 GiB) and plain 1F1B
// does at ZeRO 1 (75.7 GiB). A stage the user gives wins: --zero 1 at
// 16,384 keeps the interleaved default and does not fit, --zero 0 neither;
// each still gets its time, flagged (performance.does_not_fit and a
// warning): ZeRO 1's step is ZeRO 2's but for the gradients' reduction
// (36.66M GPU-hours), ZeRO 0 all-reduces them whole (37.16M).
func TestPublishedPretrainLayoutGetsATime(t *testing.T) {
	args := []string{"--model", "llama-3.1-405b", "--task", "train", "--gpu", "h100-sxm", "--tp", "8", "--pp", "16",
		"--seq", "8192", "--precision", "bf16", "--train-tokens", "15.6T", "--global-batch", "2048", "--json"}
	type out struct {
		ZeRO        int   `json:"zero"`
		Fits        bool  `json:"fits"`
		Peak        int64 `json:"peak_bytes"`
		Performance *struct {
			GPUHours      float64 `json:"gpu_hours"`
			VirtualStages int     `json:"virtual_stages"`
			DoesNotFit    bool    `json:"does_not_fit"`
		} `json:"performance"`
		Warnings []string `json:"warnings"`
	}
	run := func(extra ...string) (out, string) {
		t.Helper()
		code, stdout, errs := runEst(t, append(slices.Clone(args), extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		var r out
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r, errs
	}
	for _, c := range []struct {
		gpus         string
		zero, vp     int
		peakGiB, gph float64 // measured: GiB per GPU, GPU-hours
		note         string
	}{
		{"16384", 2, 4, 73.55, 36.13e6, "--zero 2 --virtual-stages 4: ZeRO-1 (distributed optimizer) with the interleaved schedule (4 chunks a stage) needs 79.4 GiB of 79.2 usable"},
		{"8192", 1, 1, 75.75, 43.24e6, "--zero 1 --virtual-stages 1: ZeRO-1 (distributed optimizer) with the interleaved schedule (4 chunks a stage) needs 92.6 GiB of 79.2 usable, FSDP-style ZeRO-2 with the interleaved schedule (4 chunks a stage) needs 86.8 GiB; ZeRO-1 (distributed optimizer) with plain 1F1B fits at 75.7 GiB"},
	} {
		r, errs := run("--gpus", c.gpus)
		if r.ZeRO != c.zero || !r.Fits || r.Performance == nil || r.Performance.DoesNotFit {
			t.Fatalf("%s GPUs: zero %d, fits %v, performance %+v; want ZeRO %d fitting, with a time", c.gpus, r.ZeRO, r.Fits, r.Performance, c.zero)
		}
		if r.Performance.VirtualStages != c.vp {
			t.Errorf("%s GPUs: %d chunks a stage, want %d", c.gpus, r.Performance.VirtualStages, c.vp)
		}
		if g := float64(r.Peak) / (1 << 30); math.Abs(g-c.peakGiB) > 0.01 {
			t.Errorf("%s GPUs: %.2f GiB a GPU, measured %.2f", c.gpus, g, c.peakGiB)
		}
		if h := r.Performance.GPUHours; math.Abs(h/c.gph-1) > 0.002 {
			t.Errorf("%s GPUs: %.2fM GPU-hours, measured %.2fM", c.gpus, h/1e6, c.gph/1e6)
		}
		if !strings.Contains(errs, c.note) {
			t.Errorf("%s GPUs: the note does not say which layout and why: %q", c.gpus, errs)
		}
	}
	for _, c := range []struct {
		zero string
		gph  float64 // measured GPU-hours
	}{{"1", 36.66e6}, {"0", 37.16e6}} {
		r, errs := run("--gpus", "16384", "--zero", c.zero)
		if r.Fits || strings.Contains(errs, "--virtual-stages") {
			t.Errorf("--zero %s: fits %v, notes %q; want the given stage out of memory under the default schedule", c.zero, r.Fits, errs)
		}
		if r.Performance == nil || !r.Performance.DoesNotFit || r.Performance.VirtualStages != 4 {
			t.Fatalf("--zero %s: performance %+v; want the interleaved step's time, flagged does_not_fit", c.zero, r.Performance)
		}
		if h := r.Performance.GPUHours; math.Abs(h/c.gph-1) > 0.002 {
			t.Errorf("--zero %s: %.2fM GPU-hours, measured %.2fM", c.zero, h/1e6, c.gph/1e6)
		}
		if !slices.Contains(r.Warnings, unfitTimeWarning) {
			t.Errorf("--zero %s: warnings %q do not flag the time as one for a job that does not fit", c.zero, r.Warnings)
		}
	}
}

// TestEstimateSaysWhatDoesNotRun: an estimate on a catalog GPU says what
// the table of what runs where holds against the job, as the planner
// applies it to every offer: TensorRT-LLM does not start on a T4, fp8
// training has no kernel on an A100, a V100 has no bf16; these were
// estimated in full with no word. A job that runs as given has no note,
// except fp8 on an A100, which says it runs as W8A16 Marlin.
func TestEstimateSaysWhatDoesNotRun(t *testing.T) {
	for _, c := range []struct {
		args []string
		note string
	}{
		{[]string{"--engine", "trtllm", "--gpu", "t4", "--precision", "int4"}, "note: trtllm does not start on Turing GPUs (t4)"},
		{[]string{"--task", "train", "--precision", "fp8", "--gpu", "a100-80gb", "--gpus", "8", "--zero", "3"},
			"note: fp8 has no kernel in training (Transformer Engine) on Ampere GPUs (a100-80gb): it runs bf16 weights there"},
		{[]string{"--engine", "vllm", "--gpu", "t4"}, "note: bf16 does not run on Turing GPUs (t4)"},
		{[]string{"--engine", "vllm", "--gpu", "v100-32gb", "--engine-version", "0.19.1"}, "note: bf16 does not run on Volta GPUs (v100-32gb)"},
		// vLLM's releases from 0.20.0 ship no Volta kernels.
		{[]string{"--engine", "vllm", "--gpu", "v100-32gb"},
			"note: vllm 0.33.0 does not start on Volta GPUs: its releases from 0.20.0 are built without their kernels (CUDA 13 and PyTorch 2.11); an --engine-version before 0.20.0 runs there (v100-32gb)"},
		{[]string{"--engine", "sglang", "--gpu", "mi250x"}, "note: sglang does not start on CDNA2 GPUs (mi250x)"},
		{[]string{"--engine", "vllm", "--gpu", "h100-sxm", "--precision", "fp8"}, ""},
		{[]string{"--engine", "vllm", "--vram", "16GB"}, ""},
		// FP8 runs on an A100 under vLLM and SGLang, as W8A16 Marlin:
		// a note, not a substitution.
		{[]string{"--engine", "sglang", "--gpu", "a100-80gb-sxm", "--precision", "fp8"},
			"note: fp8 runs as W8A16 (Marlin) on Ampere GPUs (a100-80gb-sxm): sglang keeps the weights 8-bit and multiplies at the 16-bit rate"},
	} {
		code, _, errs := runEst(t, append([]string{"--model", "llama-3.1-8b"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if c.note == "" && (strings.Contains(errs, "does not start") || strings.Contains(errs, "has no kernel") || strings.Contains(errs, "does not run")) ||
			c.note != "" && !strings.Contains(errs, c.note) {
			t.Errorf("%v: stderr %q, want %q", c.args, errs, c.note)
		}
	}
}

// TestEstimateGoodput: a training estimate keeps gpu_hours the training
// steps' and reports the whole run's beside it, at --goodput or, without
// it, estimator.TrainGoodput of the job's GPUs (0.90 on 16,384); a share
// outside (0, 1] is refused by name.
func TestEstimateGoodput(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16384", "--tp", "8", "--seq", "8192",
		"--global-batch", "2048", "--train-tokens", "15T"}
	def := perfOf(estJSON(t, args...))
	steps, _ := def["gpu_hours"].(float64)
	if g, _ := def["goodput"].(float64); g != 0.9 || !same(def["gpu_hours_with_overhead"].(float64), steps/0.9) ||
		!same(def["job_seconds_with_overhead"].(float64), def["job_seconds"].(float64)/0.9) {
		t.Errorf("default: goodput %v, whole run %v GPU-hours, want 0.9 and %v", def["goodput"], def["gpu_hours_with_overhead"], steps/0.9)
	}
	given := perfOf(estJSON(t, append(args, "--goodput", "0.8")...))
	if g, _ := given["gpu_hours"].(float64); !same(g, steps) || !same(given["gpu_hours_with_overhead"].(float64), steps/0.8) {
		t.Errorf("--goodput 0.8: steps %v (want %v), whole run %v (want %v)", given["gpu_hours"], steps, given["gpu_hours_with_overhead"], steps/0.8)
	}
	for _, bad := range []string{"1.2", "-0.1", "NaN"} {
		if code, _, errs := runEst(t, append(args, "--goodput", bad)...); code != 2 || !strings.Contains(errs, "--goodput") {
			t.Errorf("--goodput %s: exit %d, %q", bad, code, errs)
		}
	}
	inf := perfOf(estJSON(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm"))
	if _, ok := inf["goodput"]; ok {
		t.Errorf("serving estimate has a goodput: %v", inf["goodput"])
	}
}

// TestEstimateBatchLimit: Llama 3.1 8B pre-trained at 8K tokens on
// 16,384 GPUs with no batch: the default 256 sequences feed 256 replicas,
// so the step is timed at the smallest batch the layout needs, 16,384
// sequences, with a warning (estimator.TrainBatch.Raised); with a
// --global-batch of 256 given the layout is refused, saying the replicas
// that fit and how to get there; TP 8 × CP 8 runs it. A --global-batch that
// is not a multiple of the replicas is timed rounded down, with a warning in
// the text and in --json's warnings.
func TestEstimateBatchLimit(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16384", "--seq", "8192", "--train-tokens", "15T"}
	if code, out, _ := runEst(t, args...); code != 0 || !strings.Contains(out, "warning: pre-training's default global batch for this model size (256 sequences) is short of 16384") ||
		!strings.Contains(out, "16384 sequences (1.34e+08 tokens) a step") {
		t.Errorf("16,384 replicas on the default 256 sequences: exit %d, %q", code, out)
	}
	code, out, errs := runEst(t, append(args, "--global-batch", "256")...)
	if code != 2 || out != "" || !strings.Contains(errs, "16384 data-parallel replicas × micro-batch 1 need 16384 sequences") ||
		!strings.Contains(errs, "at most 256 replicas") || !strings.Contains(errs, "--cp") {
		t.Errorf("16,384 replicas on a given 256 sequences: exit %d, %q", code, errs)
	}
	if p := perfOf(estJSON(t, append(args, "--tp", "8", "--cp", "8")...)); !(p["gpu_hours"].(float64) > 0) {
		t.Errorf("TP 8 × CP 8 (256 replicas): %v", p)
	}
	uneven := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16", "--global-batch", "100"}
	const warn = "--global-batch 100 is not a multiple of 16 data-parallel replicas × micro-batch 1"
	if _, out, _ := runEst(t, uneven...); !strings.Contains(out, "warning: "+warn) || !strings.Contains(out, "timed at 96 sequences") {
		t.Errorf("uneven batch, text: %q", out)
	}
	r := estJSON(t, uneven...)
	ws, _ := r["warnings"].([]any)
	found := false
	for _, w := range ws {
		found = found || strings.HasPrefix(w.(string), warn)
	}
	if !found {
		t.Errorf("uneven batch, --json warnings: %v", ws)
	}
}

// TestEstimateNamesTheTrainingStack: the estimate's header names the stack
// that runs a training layout (plan.TrainStack): Megatron-Core for TP × PP
// at ZeRO 1, torchtitan for a Llama pre-trained with TP and ZeRO 2, none
// for TP × PP at ZeRO 3 on a family torchtitan does not ship, and hf for
// data parallelism.
func TestEstimateNamesTheTrainingStack(t *testing.T) {
	for args, want := range map[string]string{
		"--model mistral-7b-v0.3 --tp 2 --pp 2":          "train on megatron-core (Megatron-LM, NeMo), ",
		"--model llama-3.1-8b --tp 2 --zero 2":           "train on torchtitan (FSDP2 with TP/PP/CP), ",
		"--model mistral-7b-v0.3 --tp 2 --pp 2 --zero 3": "train on hf (no training stack runs this split at ZeRO 3), ",
		"--model llama-3.1-8b":                           "train on hf, ",
	} {
		var out, errb bytes.Buffer
		a := append(strings.Fields(args), "--task", "pretrain", "--gpu", "h100-sxm", "--gpus", "16", "--seq", "4096")
		if code := run(append([]string{"estimate"}, a...), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", args, code, errb.String())
		}
		if !strings.Contains(out.String(), "\n"+want) {
			t.Errorf("%s: header %q, want %q", args, strings.SplitN(out.String(), "\n", 3)[1], want)
		}
	}
}

// TestFSDP2Flag: --fsdp2 names ZeRO-3 where --zero is not given (FSDP2 is
// ZeRO-3 sharding) and assembles the root unit's gradient once at the
// backward's end, where FSDP1 does twice: Llama 3.1 8B's embedding and
// head, 2 × 128256 × 4096 + 4096 parameters in bf16, apart.
func TestFSDP2Flag(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "h200-sxm", "--gpus", "4", "--batch", "1", "--seq", "512",
		"--pure-bf16", "--optimizer-impl", "foreach"}
	v1 := estJSON(t, append(slices.Clone(args), "--zero", "3")...)
	v2 := estJSON(t, append(slices.Clone(args), "--fsdp2")...)
	if v2["zero"] != 3.0 {
		t.Errorf("--fsdp2 without --zero: zero %v, want 3", v2["zero"])
	}
	// backward_end_bytes holds the allocator's kept share of a moment's
	// allocations too (4%: estimator's trainAllocatorKept).
	root := 2.0 * (2*128256*4096 + 4096) * 1.04
	if d := v1["backward_end_bytes"].(float64) - v2["backward_end_bytes"].(float64); math.Abs(d-root) > 0.002*root {
		t.Errorf("FSDP1's backward end %v, FSDP2's %v: %.0f apart, want the root's gradient %.0f", v1["backward_end_bytes"], v2["backward_end_bytes"], d, root)
	}
	if code, _, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h200-sxm", "--fsdp2"); code != 2 || !strings.Contains(errs, "fsdp2") {
		t.Errorf("--fsdp2 on an inference job: exit %d, %q", code, errs)
	}
}

// TestEstimateNotesRefusedLayout: an estimate of a serving layout the
// engine does not run on the named GPU as priced (SGLang's DeepEP
// attention DP 8 × EP 8 on MI300X: estimator.GPULayoutRefusal) keeps its
// figures and says so in a note, as the planner and the launch refuse it;
// on H200s, where DeepEP runs over NVLink, no such note.
func TestEstimateNotesRefusedLayout(t *testing.T) {
	args := []string{"estimate", "--model", "deepseek-r1", "--engine", "sglang", "--precision", "fp8", "--gpus", "8", "--tp", "8",
		"--dp", "8", "--ep", "8", "--batch", "16", "--prompt-tokens", "1000", "--output-tokens", "1000", "--json", "--gpu"}
	const note = "these figures are for a layout that would not run there"
	out, errs, code := runCLI(append(args, "mi300x")...)
	if code != 0 || !strings.Contains(errs, "--gpu mi300x: SGLang runs expert parallelism under attention data parallelism with DeepEP") || !strings.Contains(errs, note) {
		t.Errorf("mi300x: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "time_to_first_token_seconds") {
		t.Errorf("mi300x: the figures are gone: %.300s", out)
	}
	if _, errs, code := runCLI(append(args, "h200-sxm")...); code != 0 || strings.Contains(errs, note) {
		t.Errorf("h200: exit %d, stderr %q", code, errs)
	}
}

// TestEstimateOffline: vLLM's API server holds a step of gpt-oss-120b on
// four B200s at 512 streams to 45 µs a stream (23 ms a token, InferenceX
// measured 22.5); --offline times the engine without it (vllm run-batch),
// at the GPU's step.
func TestEstimateOffline(t *testing.T) {
	tpot := func(extra ...string) float64 {
		t.Helper()
		args := append([]string{"estimate", "--model", "gpt-oss-120b", "--engine", "vllm", "--gpu", "b200", "--gpus", "4", "--tp", "4",
			"--batch", "512", "--prompt-tokens", "1024", "--output-tokens", "1024", "--json"}, extra...)
		out, errs, code := runCLI(args...)
		var r struct {
			Performance struct {
				TPOT float64 `json:"decode_token_latency_seconds"`
			} `json:"performance"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		return r.Performance.TPOT
	}
	online, offline := tpot(), tpot("--offline")
	if online < 0.020 || online > 0.026 || offline > 0.5*online {
		t.Errorf("TPOT at 512 streams: %.1f ms behind the API server (want 20–26), %.1f ms offline (want under half)", online*1e3, offline*1e3)
	}
}
