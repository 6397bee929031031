package main

// GPUStack's performance lab: vllm bench serve results of vLLM, SGLang and
// TensorRT-LLM on A100, H100 and H200 for Qwen3, gpt-oss, GLM-4.5-Air and
// DeepSeek-R1 (estimator/testdata/calibration/gpustack, README there),
// replayed through "rightsize estimate" with the serving command's
// parallelism, precision and budget, the run's mean lengths, its
// concurrency (the client's --max-concurrency, else every request at
// once) and its request count. A second benchmark family next to
// InferenceX: another client setup (the chat endpoint, no warm-up),
// other models, engine defaults instead of tuned recipes.

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"
)

const gpustackFile = "gpustack/gpustack_serving_points.csv"

// gpustackGPUs maps the pages' hardware folders to catalog GPU IDs (the
// pages name the SXM boards: "NVIDIA H100 SXM", "A100 SXM 80GB", "H200
// SXM").
var gpustackGPUs = map[string]string{"a100": "a100-80gb-sxm", "h100": "h100-sxm", "h200": "h200-sxm"}

// gpustackModels maps the Hugging Face repositories the serving commands
// load to catalog IDs and the precision of their weights.
var gpustackModels = map[string]struct{ id, precision string }{
	"Qwen/Qwen3-8B": {"qwen3-8b", "bf16"}, "Qwen/Qwen3-8B-FP8": {"qwen3-8b", "fp8"},
	"Qwen/Qwen3-14B": {"qwen3-14b", "bf16"}, "Qwen/Qwen3-14B-FP8": {"qwen3-14b", "fp8"},
	"Qwen/Qwen3-32B": {"qwen3-32b", "bf16"}, "Qwen/Qwen3-32B-FP8": {"qwen3-32b", "fp8"},
	"Qwen/Qwen3-235B-A22B-Instruct-2507":     {"qwen3-235b-a22b", "bf16"},
	"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8": {"qwen3-235b-a22b", "fp8"},
	"openai/gpt-oss-120b":                    {"gpt-oss-120b", "fp4"}, "openai/gpt-oss-20b": {"gpt-oss-20b", "fp4"},
	"zai-org/GLM-4.5-Air": {"glm-4.5-air", "bf16"}, "zai-org/GLM-4.5-Air-FP8": {"glm-4.5-air", "fp8"},
	"deepseek-ai/DeepSeek-R1-0528": {"deepseek-r1", "fp8"}, "/workspace/DeepSeek-R1-0528": {"deepseek-r1", "fp8"},
}

// gpustackIgnored are serving flags that change nothing the estimate
// models (context limits, server address, parsers); every other flag the
// replay cannot set makes the row unreplayable.
var gpustackIgnored = map[string]bool{"--max-model-len": true, "--max_seq_len": true, "--max_seq_len=40960": true,
	"--host": true, "--port": true, "--tool-call-parser": true, "--reasoning-parser": true, "--trust-remote-code": true}

// gpustackValue reports whether an ignored flag takes a value.
var gpustackValue = map[string]bool{"--max-model-len": true, "--max_seq_len": true, "--host": true, "--port": true,
	"--tool-call-parser": true, "--reasoning-parser": true}

// gpustackArgs is the estimate command of one row, or the reason it has
// none.
func gpustackArgs(r map[string]string) ([]string, string) {
	folder := r["page"][strings.LastIndex(r["page"], "/")+1:]
	folder = strings.TrimSuffix(strings.TrimSuffix(folder, ".md"), "-latency")
	gpu, ok := gpustackGPUs[folder]
	if !ok {
		return nil, "GPU not in the catalog"
	}
	engine := map[string]string{"vLLM": "vllm", "SGLang": "sglang", "TensorRT-LLM": "trtllm"}[r["engine"]]
	if engine == "" {
		return nil, "no serving command"
	}
	cmd := strings.Fields(r["serving_command"])
	if l := r["label"]; strings.HasPrefix(l, "--") {
		cmd = append(cmd, strings.Fields(l)...) // the block's own flags ("# --max-num-batched-tokens 8192")
	} else if l != "" && !strings.HasPrefix(l, "random ") && !strings.HasPrefix(l, "ShareGPT") && !strings.HasPrefix(l, "BS=") {
		return nil, "a variant the label names: " + l
	}
	var model string
	tp, dp, ep, budget, graphs := 1, 1, 1, 0, 0
	expertParallel, dpAttention, async := false, false, false
	for i := 0; i < len(cmd); i++ {
		f := cmd[i]
		val := func() (int, bool) {
			if k, v, ok := strings.Cut(f, "="); ok {
				f = k
				n, err := strconv.Atoi(v)
				return n, err == nil
			}
			if i+1 >= len(cmd) {
				return 0, false
			}
			i++
			n, err := strconv.Atoi(cmd[i])
			return n, err == nil
		}
		switch {
		case i < 2 && (f == "vllm" || f == "serve" || f == "trtllm-serve" || f == "python3" || f == "-m" || f == "sglang.launch_server"):
		case f == "-m" || f == "sglang.launch_server":
		case !strings.HasPrefix(f, "-") && model == "":
			model = f // vllm serve MODEL, trtllm-serve MODEL
		case f == "--model" || f == "--model-path":
			i++
			if i < len(cmd) {
				model = cmd[i]
			}
		case f == "-tp" || f == "--tp" || f == "--tp-size" || f == "--tp_size" || f == "--tensor-parallel-size":
			n, ok := val()
			if !ok {
				return nil, "unreadable " + f
			}
			tp = n
		case f == "--ep-size" || f == "--ep_size":
			n, ok := val()
			if !ok {
				return nil, "unreadable " + f
			}
			ep = n
		case f == "--enable-expert-parallel":
			expertParallel = true
		case f == "--enable-dp-attention":
			dpAttention = true
		case f == "--async-scheduling":
			async = true // vLLM's, opt-in before 0.14 (Input.AsyncScheduling)
		case f == "--max-num-batched-tokens" || f == "--chunked-prefill-size" || strings.HasPrefix(f, "--max_num_tokens"):
			n, ok := val()
			if !ok {
				return nil, "unreadable " + f
			}
			budget = n
		case f == "--cuda-graph-max-bs" && engine == "sglang":
			n, ok := val()
			if !ok {
				return nil, "unreadable " + f
			}
			graphs = n // decode batches past it run eager (Input.CUDAGraphMaxBS)
		case gpustackIgnored[f] || gpustackIgnored[strings.SplitN(f, "=", 2)[0]]:
			if gpustackValue[f] {
				i++
			}
		default:
			return nil, "a setting the estimate does not model: " + f
		}
	}
	m, ok := gpustackModels[model]
	if !ok {
		return nil, "model not in the catalog: " + model
	}
	if page := strings.Split(r["page"], "/"); len(page) < 2 || page[len(page)-2] != m.id {
		return nil, "the command loads " + model + ", another model than the page's" // a copying slip on the page
	}
	if expertParallel {
		ep = tp // vLLM: EP over the TP × DP GPUs (DP 1 here)
	}
	if dpAttention {
		dp = tp // SGLang's --dp defaults to the TP size with --enable-dp-attention
	}
	n := num(r["successful_requests"])
	in, out := num(r["total_input_tokens"])/n, num(r["total_output_tokens"])/n
	if !(n >= 1 && in >= 1 && out >= 1) {
		return nil, "no lengths"
	}
	conc := int(n) // no --max-concurrency: every request at once
	if c := num(r["max_concurrency"]); c > 0 {
		conc = int(c)
	}
	// vllm bench serve's random dataset draws fixed lengths (its
	// --random-range-ratio defaults to 0); ShareGPT's lengths spread from
	// a few tokens to several times the mean, which the replay gives as a
	// uniform draw from 1% of L to L with the run's mean (L = 2 mean /
	// 1.01; the simulated client reads a ratio of 0 as fixed lengths).
	ratio := "1"
	if !strings.HasPrefix(r["label"], "random ") && math.Abs(in-4000) > 100 {
		ratio, in, out = "0.01", 2*in/1.01, 2*out/1.01
	}
	args := []string{"--model", m.id, "--gpu", gpu, "--engine", engine, "--precision", m.precision, "--tp", strconv.Itoa(tp),
		"--dp", strconv.Itoa(dp), "--ep", strconv.Itoa(ep), "--batch", strconv.Itoa(conc), "--num-requests", strconv.Itoa(int(n)),
		"--prompt-tokens", strconv.Itoa(int(math.Round(in))), "--output-tokens", strconv.Itoa(max(int(math.Round(out)), 2)),
		"--range-ratio", ratio}
	if budget > 0 {
		args = append(args, "--max-batched-tokens", strconv.Itoa(budget))
	}
	if graphs > 0 {
		args = append(args, "--cuda-graph-max-bs", strconv.Itoa(graphs))
	}
	if v := strings.TrimPrefix(r["engine_version"], "v"); v != "" {
		args = append(args, "--engine-version", v)
	}
	if async {
		args = append(args, "--async-scheduling")
	}
	return args, ""
}

// gpustackSplit is a page's split: FNV-1a (32 bit) of its path modulo 10,
// 0–4 fit, 5–9 held back, so that every run of one model on one GPU lands
// in the same split.
func gpustackSplit(page string) string {
	h := fnv.New32a()
	h.Write([]byte(page))
	if h.Sum32()%10 < 5 {
		return "fit"
	}
	return "heldback"
}

// gpustackLowConc is the most requests in flight that the TTFT groups
// call low concurrency: below it a request rarely queues behind others'
// prefills, and its TTFT is its own prefill and the fixed cost.
const gpustackLowConc = 8

// gpustackCases: each replayable row gives its median and mean TTFT, its
// median TPOT and its output tokens/s, in groups of their own by
// concurrency (at most gpustackLowConc in flight, or every request at
// once).
func gpustackCases(dir string) ([]valCase, error) {
	rows, err := readCSV(dir, gpustackFile)
	if err != nil {
		return nil, err
	}
	// A block whose figures another page prints too is a copying slip on
	// one of the pages (the "Other Benchmark Cases" of GLM-4.5-Air on A100
	// and H100 are the same eight results): which GPU ran it is unknown,
	// so neither is replayed.
	pages := map[[3]string]map[string]bool{}
	for _, r := range rows {
		k := [3]string{r["ttft_mean_ms"], r["output_tok_s"], r["total_input_tokens"]}
		if pages[k] == nil {
			pages[k] = map[string]bool{}
		}
		pages[k][r["page"]] = true
	}
	var out []valCase
	for _, r := range rows {
		args, _ := gpustackArgs(r)
		if args == nil || len(pages[[3]string{r["ttft_mean_ms"], r["output_tok_s"], r["total_input_tokens"]}]) > 1 {
			continue
		}
		n := int(num(r["successful_requests"]))
		conc := n
		if c := num(r["max_concurrency"]); c > 0 {
			conc = int(c)
		}
		load := "burst"
		switch {
		case conc <= gpustackLowConc:
			load = "conc ≤ 8"
		case conc < n:
			continue // no group for mid concurrencies: none in the pages' replayable rows
		}
		set := fmt.Sprintf("%s %s %s %s, %s%s, %d requests at %d (%s)", r["page"], r["engine"], r["engine_version"], r["serving_command"],
			r["label"], map[bool]string{true: "", false: " "}[r["label"] == ""], n, conc, r["section"])
		base := valCase{Split: gpustackSplit(r["page"]), Source: gpustackFile, Engine: r["engine"] + " " + r["engine_version"] + " (GPUStack)",
			Args: args, EngineID: args[5], GPU: args[3], Concurrency: conc}
		add := func(group, what, field, col string, scale float64, unit string) {
			if v := num(r[col]); v > 0 {
				c := base
				c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = group, set+", "+what, field, scale, v, unit
				out = append(out, c)
			}
		}
		const perf = "performance."
		add("GPUStack TTFT p50, "+load, "median TTFT", perf+"serving.time_to_first_token_p50_seconds", "ttft_median_ms", 1000, "ms")
		add("GPUStack TTFT mean, "+load, "mean TTFT", perf+"time_to_first_token_seconds", "ttft_mean_ms", 1000, "ms")
		add("GPUStack TPOT p50", "median TPOT", perf+"serving.decode_token_latency_p50_seconds", "tpot_median_ms", 1000, "ms")
		add("GPUStack throughput", "output tok/s", perf+"tokens_per_second", "output_tok_s", 1, "tok/s")
	}
	return out, nil
}

// gpustackDataset names a replayed row's dataset from its arguments:
// "ShareGPT" where gpustackArgs gave the uniform ShareGPT spread
// (--range-ratio 0.01), else "random N" with N the prompt length rounded
// to thousands ("random 4K"), or "random <1K" (the 128-token runs, whose
// means read 127–128 after the client's re-tokenising). The random rows' lengths are fixed (vllm bench serve's
// --random-range-ratio defaults to 0), so their errors carry no
// length-distribution term, the ShareGPT rows' do.
func gpustackDataset(args []string) string {
	if argValue(args, "--range-ratio") == "0.01" {
		return "ShareGPT"
	}
	p, err := strconv.Atoi(argValue(args, "--prompt-tokens"))
	switch {
	case err != nil || p <= 0:
		return "unknown"
	case p < 1000:
		return "random <1K"
	}
	return "random " + strconv.Itoa(int(math.Round(float64(p)/1000))) + "K"
}

// writeGPUStackBreakdown prints the GPUStack groups by engine, by GPU, by
// model and by dataset, each split apart: median |error| and median
// signed error. By GPU because a prefill's achieved share of peak differs
// by generation (the A100's and H100's burst rows err opposite ways:
// testdata/calibration/README.md, sixty-ninth round).
func writeGPUStackBreakdown(w io.Writer, cases []valCase) {
	t := breakdownTable(cases, func(c valCase) [][]string {
		if !strings.HasPrefix(c.Group, "GPUStack ") {
			return nil
		}
		return [][]string{{"engine", c.EngineID}, {"GPU", c.GPU}, {"model", argValue(c.Args, "--model")}, {"dataset", gpustackDataset(c.Args)}}
	})
	if len(t) == 0 {
		return
	}
	fmt.Fprintln(w, "\n## GPUStack's performance lab, by engine, GPU, model and dataset")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A second benchmark family (gpustack/README.md): `vllm bench serve` against vLLM, SGLang and TensorRT-LLM with")
	fmt.Fprintln(w, "their defaults on A100, H100 and H200, replayed with the serving command's parallelism, precision, token budget and")
	fmt.Fprintln(w, "vLLM `--async-scheduling` (opt-in before vLLM 0.14), the engine's release, the run's mean lengths and its")
	fmt.Fprintln(w, "concurrency. \"conc ≤ 8\" rows hold 1–8 requests in flight; \"burst\" rows send every")
	fmt.Fprintln(w, "request (100–1,000) at once. Split by page: fit pages fixed vLLM's per-request cost, held-back pages fixed nothing.")
	fmt.Fprintln(w, "By dataset: \"random N\" rows have fixed lengths (N-token prompts), so their errors hold no length-distribution")
	fmt.Fprintln(w, "term; the \"ShareGPT\" rows' lengths are a uniform draw with the run's means (gpustack/README.md, \"Lengths\").")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| group | by | value | split | n | median \\|error\\| | median error |")
	fmt.Fprintln(w, "|---|---|---|---|---:|---:|---:|")
	t.write(w)
}

// argValue is the value after flag in args, or "".
func argValue(args []string, flag string) string {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag {
			return args[i+1]
		}
	}
	return ""
}
