package main

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// servingAchieved is the median |error| the simulated benchmark reached on
// the InferenceX points (2026-11-26) by group and split (fit, test, held
// back): all GPUs, and NVIDIA GPUs only. Three mechanisms moved them at
// this date: the MI325X's Infinity Fabric (its TP all-reduces ran over
// PCIe in the model: SGLang MI325X TTFT +176% → +27% median error), the
// AMD generations' all-reduce latency (servingAllReduceLatency: AMD TPOT
// −42% → −2% in-sample) and the recipes' SGLang receive interval on
// Blackwell (the replay's --scheduler-recv-interval,
// sglangRecipeRecvInterval: SGLang B200 TTFT −48.5% → +8.4%); then
// attention's products at the 16-bit peak under FP8/FP4 linears
// (Hardware.AttnFLOPS: throughput per GPU 10.8/12.7/12.3% → 10.9/11.8/12.0%,
// 8k-prompt TTFT at concurrency 1–4 −40% → −37%). The mean
// the estimate reports is compared with the measured mean where a row keeps
// one ("load TTFT", 213 rows) and with the median where it does not ("load
// TTFT vs median", 878 history rows). The measured means run at about twice
// the medians (median ratio 1.9; ours 1.1): the first wave of each run waits
// seconds more than the steady state, p99 of 68–83 s at a median of
// 0.3–0.8 s on the 2025-11/12 SGLang B200 runs that had no warm-up, and still
// 1.9× after InferenceX added warm-up requests (2026-01-21). The simulator's
// first wave queues only for its prefills, so its mean is about half the
// measured mean there; on the rows whose p99 is under 8× their median the
// mean's error is about 30%. TestServingAccuracy fails when a figure gets
// worse by more than servingSlack; when the model improves, lower them. The
// issue's targets (TTFT 30%, TPOT and throughput per GPU 12%) are met by the
// TTFT medians and the TPOTs, nearly by the throughput, not by the mean TTFT.
// On 2026-11-28 matmul efficiency by the inner dimension each linear runs at
// on one GPU (estimator gemmShapeCost: DeepSeek-R1's expert down
// projections at K = 256 under TP 8), SGLang's expert parallelism summed by
// the TP all-reduce (no all-to-all without attention DP) and the share of
// the FP8/FP4 peak the engines reach on Blackwell (fitted on the Blackwell
// fit rows at concurrency ≤ 8) moved the TTFT medians 22.2/25.5/25.3% →
// 18.1/18.2/23.8% (NVIDIA 21.2/18.0/21.1% → 15.9/11.0/15.1%), the mean TTFT
// 49.9/58.2/56.9% → 45.5/53.7/54.0% and throughput per GPU on NVIDIA
// 9.5/12.7/11.9% → 8.2/10.2/7.7% (testdata/calibration/README.md, eighth
// round). Then the InferenceX client's cold first wave (0.5 s, fitted on
// the NVIDIA fit rows that keep a mean; "Twelfth round" there) moved the mean TTFT 45.5/53.7/54.0% →
// 36.6/43.2/46.6% and the p99 68.2/76.0/69.9% → 56.9/60.5/51.4%, the
// medians by under a point. Replaying the TensorRT-LLM rows with the
// recipe's own max_num_tokens of their day (trtRecipeMaxNumTokens: one
// prompt plus the decodes per step before 2026-01-21) moved the mean TTFT
// 36.6/43.2/46.6% → 33.7/42.8/46.6% and the p99 → 53.7/59.2/48.3%
// (testdata/calibration/README.md, "TensorRT-LLM 1.1's attention DP").
// SGLang's prompt rate by GPU generation and precision (estimator
// enginePromptRates) with its per-request cost refitted (106 → 80 ms)
// moved the mean TTFT 33.7/42.8/46.6% → 34.5/34.0/37.7%, the p50
// 18.1/18.2/23.8% → 14.5/11.9/13.5% and the p99 → 43.7/45.4/35.3%; the
// mean against the median ("load TTFT vs median") went 31.2/33.9/29.6% →
// 23.8/36.2/36.5%, as a mean nearer the measured means (about twice the
// medians) must (testdata/calibration/README.md, sixty-sixth round). The
// estimate's own cold first wave by default (estimator.ColdFirstWaveSeconds:
// 0.45 s for SGLang and TensorRT-LLM on NVIDIA GPUs, 3.35 s for SGLang on
// AMD GPUs, fitted on the fit rows that keep a mean), which the replay now
// takes in place of its 0.5 s, moved the mean TTFT 34.5/34.0/37.7% →
// 18.1/24.4/28.0%, the p99 43.7/45.4/35.3% → 49.4/52.3/38.6% (on AMD a
// whole wave that late where the measured runs stall one or two requests)
// and the mean against the median 23.8/36.2/36.5% → 61.5/56.0/152.1% (a
// mean with its first wave against a median: the history rows keep no
// mean); the p50 and the TPOTs did not move (sixty-eighth round).
var servingAchieved = []struct {
	group  string
	nvidia bool
	splits [3]float64
}{
	{"load TTFT", false, [3]float64{0.181, 0.244, 0.280}},
	// The same mean with --first-wave-seconds 0, a service's steady state
	// (testdata/calibration/README.md, "The first wave's cause").
	{loadTTFTNoWave, false, [3]float64{0.425, 0.408, 0.451}},
	{"load TTFT p99", false, [3]float64{0.494, 0.523, 0.386}},
	// SGLang's Hopper FP8 prompt rate (enginePromptRates, 1.2; ninety-ninth
	// round) lengthens the H200 history rows' modelled mean, which this
	// group holds against their medians: test 56.0 → 63.7%, while the same
	// rows' p50 went 11.0 → 5.0% (H200 SGLang, test).
	{"load TTFT vs median", false, [3]float64{0.615, 0.637, 1.521}},
	// SGLang's receive interval as its receive skipper (sim.Policy.
	// RecvSkip; hundred-seventh round): 14.5/11.9/13.5% → 15.7/13.8/14.2%,
	// the fit split's p90 41.0 → 33.6%, the fit rows at 8k prompts and 128
	// in flight +614% → −25%.
	{"load TTFT p50", false, [3]float64{0.157, 0.138, 0.142}},
	{"load TPOT", false, [3]float64{0.109, 0.098, 0.068}},
	{"load TPOT vs median", false, [3]float64{0.073, 0.086, 0.078}},
	{"load TPOT p50", false, [3]float64{0.079, 0.084, 0.079}},
	{"load throughput/GPU", false, [3]float64{0.092, 0.106, 0.073}},
	{"load TTFT p50", true, [3]float64{0.158, 0.110, 0.146}},
	{"load TPOT p50", true, [3]float64{0.064, 0.081, 0.071}},
	{"load throughput/GPU", true, [3]float64{0.082, 0.102, 0.077}},
}

const servingSlack = 0.02

// checkRecorded is the accuracy tests' one check of a recorded figure
// (TestServingAccuracy, TestGPUStackAccuracy, TestMTPAccuracy): the median
// |error| of the errors filed under key, logged beside the record; it
// fails with fewer than minN errors or a median worse than the record by
// more than servingSlack.
func checkRecorded(t *testing.T, errs map[string][]float64, key string, recorded float64, minN int) {
	t.Helper()
	v := errs[key]
	if len(v) < minN {
		t.Errorf("%s: %d points", key, len(v))
		return
	}
	got := quantile(v, 0.5)
	t.Logf("%-52s n=%4d median |error| %.1f%% (recorded %.1f%%)", key, len(v), 100*got, 100*recorded)
	if got > recorded+servingSlack {
		t.Errorf("%s: median |error| %.1f%%, worse than the recorded %.1f%%", key, 100*got, 100*recorded)
	}
}

func TestServingAccuracy(t *testing.T) {
	cases, err := inferencexCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string][]float64{}
	tight := 0
	for i := range cases {
		c := &cases[i]
		// DeepSeek-R1 FP8 on 4 B200s does not fit SGLang's own default
		// share (0.856: 150.7 GiB for 156.7 GiB of weights a GPU); the
		// recipe runs it at its own share and chunk, which the replay
		// passes (sglangRecipeMemShare), so every row gets an estimate.
		if strings.Contains(c.Setting, "b200 sglang fp8 TP 4 ") {
			a := strings.Join(c.Args, " ")
			if !strings.Contains(a, "--gpu-mem-util 0.95 --max-batched-tokens 8192") {
				t.Errorf("%s: %s, want the recipe's share and chunk", c.Setting, a)
			}
			tight++
		}
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		for _, nv := range []bool{false, true} {
			if nv && strings.HasPrefix(c.GPU, "mi") {
				continue
			}
			k := c.Group + "|" + c.Split + "|" + map[bool]string{false: "all", true: "nvidia"}[nv]
			errs[k] = append(errs[k], math.Abs(c.Error))
		}
	}
	if tight != 29 {
		t.Errorf("%d cases of DeepSeek-R1 FP8 on 4 B200s under SGLang, want 29 (4 rows)", tight)
	}
	for _, a := range servingAchieved {
		for i, s := range valSplits {
			checkRecorded(t, errs, a.group+"|"+s+"|"+map[bool]string{false: "all", true: "nvidia"}[a.nvidia], a.splits[i], 20)
		}
	}
}

// The vLLM H100 sweep InferenceX published as tables (issue #828; test
// rows, nothing fitted to them): 14 TPOTs and 9 throughputs, within the
// issue's 12% target at the median (9.9% and 9.0% on 2026-11-26), each
// row but the concurrency-64 1k/8k one (the report's "hard wall", −54%)
// within 20%.
func TestInferencexTableCases(t *testing.T) {
	cases, err := inferencexTableCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	abs, walls := map[string][]float64{}, 0
	for i := range cases {
		c := &cases[i]
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		if c.Split != "test" || c.EngineID != "vllm" || c.GPU != "h100" {
			t.Errorf("%s: split %s, engine %s, GPU %s", c.Setting, c.Split, c.EngineID, c.GPU)
		}
		abs[c.Group] = append(abs[c.Group], math.Abs(c.Error))
		if strings.Contains(c.Setting, "1024/8192 conc 64 ") {
			walls++ // the report's "hard wall" (16.01 ms), not modelled
		} else if math.Abs(c.Error) > 0.2 {
			t.Errorf("%s: %+.1f%%, want within 20%% (every row but the wall was within 16%% on 2026-11-26)", c.Setting, 100*c.Error)
		}
	}
	if walls != 1 {
		t.Errorf("%d rows of the 1k/8k concurrency-64 wall, want 1", walls)
	}
	for g, n := range map[string]int{"load TPOT, tables": 14, "load throughput/GPU, tables": 9} {
		if len(abs[g]) != n {
			t.Errorf("%s: %d cases, want %d", g, len(abs[g]), n)
			continue
		}
		if m := quantile(abs[g], 0.5); m > 0.12 {
			t.Errorf("%s: median |error| %.1f%%, want ≤ 12%%", g, 100*m)
		}
	}
}

// gpustackAchieved is the median |error| on GPUStack's performance-lab
// runs (gpustack/README.md; a second benchmark family, split by page) by
// group, fit and held back, on 2026-11-28. Only vLLM's per-request cost
// was fitted on these rows. What they say: at 1–8 requests in flight the
// fixed cost a request carries depends on the model (vLLM on Qwen3-8B
// wants 40 ms, on gpt-oss-120b 14–17 ms; SGLang and TensorRT-LLM on
// Qwen3-8B 7–25 ms against their 106 and 68 ms fitted on DeepSeek-R1,
// +358% and +93%); with every request sent at once (500–1,000 of them) the
// replay is 2× fast on TTFT and throughput, more for MoE models (gpt-oss,
// GLM-4.5-Air, Qwen3-235B, DeepSeek-R1: −50…−70%) than for dense Qwen3
// (−19…−31%). The burst figures were lowered on 2026-11-29, when the
// A100 80GB took vLLM's smaller scheduler limits (the engine names it).
// TestGPUStackAccuracy fails when a figure gets worse by more
// than servingSlack; lower them when the model improves.
var gpustackAchieved = []struct {
	group  string
	splits [2]float64 // fit, held back
}{
	{"GPUStack TTFT p50, conc ≤ 8", [2]float64{0.325, 0.346}},
	{"GPUStack TTFT mean, conc ≤ 8", [2]float64{0.329, 0.351}},
	{"GPUStack TTFT p50, burst", [2]float64{0.407, 0.418}},
	{"GPUStack TTFT mean, burst", [2]float64{0.390, 0.423}},
	{"GPUStack TPOT p50", [2]float64{0.219, 0.349}},
	{"GPUStack throughput", [2]float64{0.485, 0.618}},
}

func TestGPUStackAccuracy(t *testing.T) {
	cases, err := gpustackCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string][]float64{}
	for i := range cases {
		c := &cases[i]
		if err := c.run(); errors.Is(err, errNoSpeed) {
			continue // the job does not fit the replica (validate lists it as skipped)
		} else if err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		errs[c.Group+"|"+c.Split] = append(errs[c.Group+"|"+c.Split], math.Abs(c.Error))
	}
	for _, a := range gpustackAchieved {
		for i, s := range []string{"fit", "heldback"} {
			checkRecorded(t, errs, a.group+"|"+s, a.splits[i], 3)
		}
	}
}

// A GPUStack row replays the serving command it printed: its TP, EP, DP
// attention and token budget, the block's own flags, the run's lengths and
// concurrency; commands with settings the estimate does not model, another
// model than the page's, or a GPU outside the catalog are not replayed.
func TestGPUStackArgs(t *testing.T) {
	row := func(page, label, cmd, conc string) map[string]string {
		return map[string]string{"page": page, "label": label, "serving_command": cmd, "engine": map[bool]string{true: "vLLM", false: "SGLang"}[strings.HasPrefix(cmd, "vllm")],
			"engine_version": "v0.11.0", "successful_requests": "500", "max_concurrency": conc, "total_input_tokens": "1997942", "total_output_tokens": "100000"}
	}
	arg := func(args []string, flag string) string {
		for i := range args[:len(args)-1] {
			if args[i] == flag {
				return args[i+1]
			}
		}
		return ""
	}
	args, why := gpustackArgs(row("docs/performance-lab/qwen3-235b-a22b/h100.md", "--max-num-batched-tokens 16384",
		"vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --enable-expert-parallel --max-model-len 32768", ""))
	for flag, want := range map[string]string{"--model": "qwen3-235b-a22b", "--gpu": "h100-sxm", "--precision": "fp8", "--tp": "4", "--ep": "4",
		"--dp": "1", "--batch": "500", "--num-requests": "500", "--prompt-tokens": "3996", "--output-tokens": "200", "--range-ratio": "1",
		"--max-batched-tokens": "16384", "--engine-version": "0.11.0"} {
		if got := arg(args, flag); got != want {
			t.Errorf("%s = %q, want %q (%v, %s)", flag, got, want, args, why)
		}
	}
	args, _ = gpustackArgs(row("docs/performance-lab/deepseek-r1/h200.md", "",
		"python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --host 0.0.0.0 --port 8000 --tp-size 8 --enable-dp-attention", "4"))
	if arg(args, "--dp") != "8" || arg(args, "--tp") != "8" || arg(args, "--batch") != "4" || arg(args, "--engine") != "sglang" {
		t.Errorf("DP attention row: %v", args)
	}
	// SGLang's CUDA-graph cap is replayed (decode past it runs eager,
	// estimator.Input.CUDAGraphMaxBS); none where the command sets none.
	args, _ = gpustackArgs(row("docs/performance-lab/qwen3-8b/h100.md", "",
		"python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --cuda-graph-max-bs 8", "4"))
	if arg(args, "--cuda-graph-max-bs") != "8" {
		t.Errorf("graph cap row: %v", args)
	}
	if a, _ := gpustackArgs(row("docs/performance-lab/deepseek-r1/h200.md", "",
		"python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp-size 8", "4")); slices.Contains(a, "--cuda-graph-max-bs") {
		t.Errorf("a command without a cap replayed with one: %v", a)
	}
	for _, r := range []map[string]string{
		row("docs/performance-lab/qwen3-8b/h100-latency.md", "", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B-FP8 --speculative-algorithm EAGLE3", "4"),
		row("docs/performance-lab/gpt-oss-20b/h100.md", "", "vllm serve openai/gpt-oss-120b --async-scheduling", ""),
		row("docs/performance-lab/qwen3-8b/910b.md", "", "vllm serve Qwen/Qwen3-8B", ""),
		row("docs/performance-lab/glm-4.x/h200.md", "", "vllm serve zai-org/GLM-4.6 -tp 8", ""),
		row("docs/performance-lab/qwen3-14b/h100.md", "triton", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8", ""),
	} {
		if args, why := gpustackArgs(r); args != nil || why == "" {
			t.Errorf("%s %s replayed: %v", r["page"], r["serving_command"], args)
		}
	}
}

// The GPUStack breakdown sorts rows by dataset as well as engine and model:
// the ShareGPT rows (the uniform spread gpustackArgs gives) apart from the
// fixed-length random rows by prompt size, so the length-distribution term
// of the ShareGPT errors reads against rows that have none.
func TestGPUStackDataset(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--prompt-tokens", "430", "--output-tokens", "399", "--range-ratio", "0.01"}, "ShareGPT"},
		{[]string{"--prompt-tokens", "3995", "--output-tokens", "200", "--range-ratio", "1"}, "random 4K"},
		{[]string{"--prompt-tokens", "1996", "--output-tokens", "99", "--range-ratio", "1"}, "random 2K"},
		{[]string{"--prompt-tokens", "31999", "--output-tokens", "100", "--range-ratio", "1"}, "random 32K"},
		{[]string{"--prompt-tokens", "127", "--output-tokens", "4", "--range-ratio", "1"}, "random <1K"},
		{[]string{"--output-tokens", "4"}, "unknown"},
	} {
		if got := gpustackDataset(c.args); got != c.want {
			t.Errorf("gpustackDataset(%v) = %q, want %q", c.args, got, c.want)
		}
	}
	// Two ShareGPT rows at +50% and +150% and one random 4K row at −20%:
	// the dataset lines hold the median |error| and signed median of each.
	mk := func(e float64, prompt, ratio string) valCase {
		return valCase{Group: "GPUStack throughput", Split: "fit", EngineID: "vllm", GPU: "h100-sxm", Error: e,
			Args: []string{"--model", "qwen3-8b", "--prompt-tokens", prompt, "--range-ratio", ratio}}
	}
	var b strings.Builder
	writeGPUStackBreakdown(&b, []valCase{mk(0.5, "430", "0.01"), mk(1.5, "430", "0.01"), mk(-0.2, "3996", "1")})
	for _, want := range []string{
		"| GPUStack throughput | dataset | ShareGPT | fit (in-sample) | 2 | 100.0% | +100.0% |",
		"| GPUStack throughput | dataset | random 4K | fit (in-sample) | 1 | 20.0% | -20.0% |",
		"| GPUStack throughput | engine | vllm | fit (in-sample) | 3 | 50.0% | +50.0% |",
		"| GPUStack throughput | GPU | h100-sxm | fit (in-sample) | 3 | 50.0% | +50.0% |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("breakdown lacks %q:\n%s", want, b.String())
		}
	}
}

// InferenceX's published single-replica tables (inferencex_blog_points.csv:
// Kimi K2.5 on vLLM at H200 INT4, B200 INT4 and NVFP4; MiniMax-M2.5 on vLLM
// at H100 FP8, B200 FP8 and NVFP4; DeepSeek-R1 NVFP4 on SGLang 0.5.5 and
// 0.5.6 at B200; nothing fitted to them, the March Kimi run held back):
// every cell replays, and the median |error| stays within a point or two of
// what was recorded on 2026-12-01 (TPOT 9.0% test, 8.4% held back; output
// tokens/s per GPU 8.6% and 11.7%; the Kimi INT4 cells as Moonshot's
// experts-only INT4, --quant int4-experts-g32).
func TestInferencexBlogCases(t *testing.T) {
	cases, err := inferencexBlogCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	abs := map[string][]float64{}
	for i := range cases {
		c := &cases[i]
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		if !(c.Estimated > 0) {
			t.Fatalf("%s: estimate %v", c.Setting, c.Estimated)
		}
		abs[c.Group+"/"+c.Split] = append(abs[c.Group+"/"+c.Split], math.Abs(c.Error))
	}
	for k, want := range map[string]struct {
		n   int
		max float64
	}{
		blogTPOT + "/test": {53, 0.11}, blogTPOT + "/heldback": {5, 0.10},
		blogThroughput + "/test": {53, 0.10}, blogThroughput + "/heldback": {5, 0.14},
	} {
		if len(abs[k]) != want.n {
			t.Errorf("%s: %d cases, want %d", k, len(abs[k]), want.n)
			continue
		}
		if m := quantile(abs[k], 0.5); m > want.max {
			t.Errorf("%s: median |error| %.1f%%, want ≤ %.0f%%", k, 100*m, 100*want.max)
		}
	}
}
