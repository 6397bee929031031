package main

// Serving under load: SemiAnalysis InferenceX's measured points at fixed
// client concurrency (estimator/testdata/calibration/inferencex), replayed
// through "rightsize estimate" as an independent replay runs them: the
// point's own GPU, engine, precision, TP/EP/DP, concurrency (--batch) and
// nominal prompt/output lengths, nothing else.

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

const inferencexFile = "inferencex/inferencex_serving_points.csv"

// inferencexGPUs maps InferenceX hardware keys to catalog GPU IDs.
var inferencexGPUs = map[string]string{"h100": "h100-sxm", "h200": "h200-sxm", "b200": "b200", "b300": "b300",
	"mi300x": "mi300x", "mi325x": "mi325x", "mi355x": "mi355x"}

// inferencexEngines maps InferenceX framework keys to Rightsize's engines.
var inferencexEngines = map[string]string{"sglang": "sglang", "trt": "trtllm", "vllm": "vllm"}

// inferencexModels maps the rows' model names to catalog IDs.
//
// Kimi K2.5 is replayed as the catalog's Kimi K2: its language model is
// Kimi K2's (61 layers, MLA with 64 heads, 384 routed experts, 8 a token
// and one shared; arXiv:2602.02276, the Kimi K2.5 report, and the model's
// config.json), and the MoonViT-3D vision encoder (about 0.4B parameters)
// that K2.5 adds is not in the catalog model: an approximation that moves
// the weights by 0.04%. Moonshot's INT4 checkpoint keeps attention, the
// shared expert and the dense first layer in BF16 (its quantization
// config's exclusions): the replay passes --quant int4-experts-g32.
// MiniMax-M2.5 is replayed as the catalog's MiniMax-M2: the engines load
// both as MiniMaxM2ForCausalLM, and M2.5's dimensions are taken to be M2's
// (its config.json was not read).
var inferencexModels = map[string]string{"DeepSeek-R1-0528": "deepseek-r1", "nvidia/DeepSeek-R1-0528-FP4": "deepseek-r1",
	"openai/gpt-oss-120b": "gpt-oss-120b", "moonshotai/Kimi-K2.5": "kimi-k2", "nvidia/Kimi-K2.5-NVFP4": "kimi-k2",
	"MiniMaxAI/MiniMax-M2.5": "minimax-m2", "nvidia/MiniMax-M2.5-NVFP4": "minimax-m2"}

// The InferenceX client's cold first wave is the estimate's own default
// (estimate --first-wave-seconds auto, estimator.ColdFirstWaveSeconds,
// fitted on this file's fit rows that keep a mean): the replay passes
// nothing, as an independent replay with only a row's own settings does.
//
// The client (InferenceX utils/bench_serving/benchmark_serving.py, a copy
// of vLLM's benchmark_serving) creates every request's task at once
// behind an asyncio semaphore of --max-concurrency, so the first wave of
// C requests starts together. Before it, one request of input_requests[0]
// and (since 2026-01-21, benchmarks/benchmark_lib.sh) a warm-up of
// --num-warmups 2 × CONC copies of that prompt, C at a time. Every
// DeepSeek-R1 recipe turns prefix caching off (SGLang --disable-radix-cache
// or SGLANG_RADIX_FORCE_MISS=1, TensorRT-LLM enable_block_reuse: false;
// benchmarks/single_node/fixed_seq_len/dsr1_*.sh at 843c6254), so the
// warm-up prefills C copies at a time: batches of the first wave's size,
// one prompt length where the first wave draws C lengths from
// [0.8, 1] × ISL. The engines' admission of that batch is simulated step
// by step; what the first wave waits beyond it was not found in the
// engines' or the client's source (testdata/calibration/README.md, "The
// first wave's cause"), so the table is fitted, per engine and GPU vendor
// (the sixty-eighth round there).

// loadTTFTNoWave is the group of the InferenceX rows' mean TTFT replayed
// without a first wave (--first-wave-seconds 0), as a service in its
// steady state would show it and as `rightsize estimate` reported it
// before the wave became its default; it follows "load TTFT" in the
// report.
const loadTTFTNoWave = "load TTFT, no first wave"

func init() {
	i := slices.Index(valGroups, "load TTFT")
	valGroups = slices.Insert(valGroups, i+1, loadTTFTNoWave)
}

// noWaveArgs is args without a cold first wave.
func noWaveArgs(args []string) []string {
	return append(args[:len(args):len(args)], "--first-wave-seconds", "0")
}

// inferencexArgs is the estimate command of one measured point. A row
// may state its recipe's settings itself (the published tables,
// inferencexBlogFile): engine_version where it names no image, kv_dtype
// (fp8 or bf16) over the recipes' rule (recipeFP8KV), max_batched_tokens
// over TensorRT-LLM's, quant, the checkpoint's weight format, and
// range_ratio, the client's length spread where it was not the CI's 0.8
// (clientRangeArgs). A run whose outputs ended at end-of-sequence is not
// replayed (endedAtEOS).
func inferencexArgs(r map[string]string) ([]string, bool) {
	model, ok1 := inferencexModels[r["model"]]
	gpu, ok2 := inferencexGPUs[r["hardware"]]
	engine, ok3 := inferencexEngines[r["framework"]]
	if !ok1 || !ok2 || !ok3 || endedAtEOS(r) {
		return nil, false
	}
	tp := r["tp"]
	dp := "1"
	if r["dp_attention"] == "true" {
		dp = tp // attention data parallelism over the TP group
	}
	ep := r["ep"]
	if ep == "" || ep == "0" {
		ep = "1"
	}
	args := []string{"--model", model, "--gpu", gpu, "--engine", engine, "--precision", r["precision"], "--tp", tp, "--dp", dp,
		"--ep", ep, "--batch", r["conc"], "--prompt-tokens", r["isl"], "--output-tokens", r["osl"]}
	rel := imageRelease(r["image"])
	if rel == "" {
		rel = r["engine_version"]
	}
	if rel != "" {
		args = append(args, "--engine-version", rel)
	}
	conc, _ := strconv.Atoi(r["conc"])
	isl, _ := strconv.Atoi(r["isl"])
	switch {
	case r["max_batched_tokens"] != "":
		args = append(args, "--max-batched-tokens", r["max_batched_tokens"])
	case r["framework"] == "trt":
		args = append(args, "--max-batched-tokens", strconv.Itoa(trtRecipeMaxNumTokens(isl, conc, r["run_date"])))
	}
	if r["framework"] == "trt" && dp != "1" {
		args = append(args, "--attention-dp-balance", strconv.Itoa(trtRecipeBalanceIters))
	}
	if n := sglangRecipeRecvInterval(r["framework"], r["hardware"], dp, conc); n > 0 {
		args = append(args, "--scheduler-recv-interval", strconv.Itoa(n))
	}
	if r["framework"] == "sglang" {
		// Every DeepSeek-R1 recipe runs SGLang with --disable-radix-cache
		// (recipeFP8KV's scripts), and the client sends --ignore-eos.
		args = append(args, "--no-prefix-cache")
		tpn, _ := strconv.Atoi(tp)
		if u, chunk := sglangRecipeMemShare(r["hardware"], r["precision"], tpn, r["run_date"]); u > 0 {
			args = append(args, "--gpu-mem-util", strconv.FormatFloat(u, 'f', -1, 64))
			if chunk > 0 && r["max_batched_tokens"] == "" {
				args = append(args, "--max-batched-tokens", strconv.Itoa(chunk))
			}
		}
	}
	if kv := r["kv_dtype"]; kv == "fp8" || kv == "" && recipeFP8KV(r["framework"], r["hardware"], r["precision"], r["run_date"]) {
		args = append(args, "--kv-dtype", "fp8")
	}
	if q := r["quant"]; q != "" {
		args = append(args, "--quant", q)
	}
	return append(args, clientRangeArgs(r["range_ratio"])...), true
}

// clientRangeArgs is the simulated client's length spread for a row whose
// client drew lengths with --random-range-ratio ratio ("" for the CI's 0.8,
// the estimate's default). InferenceX's benchmark_serving.py draws each
// length from randint(int(L × ratio), L + 1), so its 0 is [0, L] (the
// development-branch rows, vendor.py); the estimate's --range-ratio 0 means
// fixed lengths (vllm bench serve's 0), so that client's 0 is passed as
// 0.001, whose draw starts at 1 token for any L under 1,000,000.
func clientRangeArgs(ratio string) []string {
	switch ratio {
	case "":
		return nil
	case "0":
		return []string{"--range-ratio", "0.001"}
	}
	return []string{"--range-ratio", ratio}
}

// endedAtEOS reports whether a row's run produced well under the output
// its client drew: under 80% of the drawn lengths' mean, (1 + ratio) / 2 ×
// OSL, measured as output tokens over requests. The client sends no
// ignore_eos (the development-branch runs, vendor.py), so the model ended
// those outputs itself: vLLM's gpt-oss-120b branch runs averaged 148–184
// tokens of a drawn 512, with median end-to-end latencies of 155–1,393 ms
// against TPOTs of 3.7–22 ms (most outputs a few dozen tokens, a few near
// 1,024). The estimate draws outputs of the given lengths only, so such a
// run is not the workload it replays; the SGLang DeepSeek-R1 branch runs
// (469–506 tokens of 512) are.
func endedAtEOS(r map[string]string) bool {
	out := num(r["output_tokens_per_request"])
	osl := num(r["osl"])
	ratio := sim.DefaultRangeRatio
	if s := r["range_ratio"]; s != "" {
		ratio = num(s)
	}
	return out > 0 && osl > 0 && out < 0.8*osl*(1+ratio)/2
}

// recipeFP8KV reports whether the InferenceX recipe that ran a row stored
// the KV cache in FP8 (the engines' default stores it in the model's
// activation dtype, bf16 here). Read from every version of the
// DeepSeek-R1 single-node scripts (benchmarks/dsr1_*.sh, later
// benchmarks/single_node/{,fixed_seq_len/}dsr1_*.sh, 2025-10 → 2026-08,
// SemiAnalysisAI/InferenceX at 843c6254, Apache-2.0):
//   - TensorRT-LLM: kv_cache_config dtype: fp8 in every version;
//   - SGLang on B200/B300: --kv-cache-dtype fp8_e4m3 in every version; on
//     H200 never (auto);
//   - SGLang on MI300X/MI325X from 2026-01-23 (commits 32772c579,
//     e9b6e0fde: "Set --kv-cache-dtype fp8_e4m3"), MI355X FP4 from
//     2025-12-16 (332fec529), MI355X FP8 from 2026-03-05 (9d39c92ee); a
//     run on the day of the change is the run the change triggered;
//   - the development-branch B200 rows (together_runner at 2a6a04c0):
//     SGLang --kv-cache-dtype fp8_e4m3, vLLM kv-cache-dtype: fp8.
func recipeFP8KV(framework, hardware, precision, runDate string) bool {
	switch framework {
	case "trt", "vllm":
		return true
	case "sglang":
	default:
		return false
	}
	switch hardware {
	case "b200", "b300":
		return true
	case "mi300x", "mi325x":
		return runDate >= "2026-01-23"
	case "mi355x":
		if precision == "fp4" {
			return runDate >= "2025-12-16"
		}
		return runDate >= "2026-03-05"
	}
	return false
}

// sglangRecipeMemShare is the --mem-fraction-static that InferenceX's
// SGLang DeepSeek-R1 recipe for a row set (0: none, SGLang's default),
// and the --chunked-prefill-size the replay passes with it where the
// share needs it (0: the replay leaves the chunk to SGLang's default).
// Read from every version of the scripts (benchmarks/dsr1_*{,_docker,
// _slurm}.sh, benchmarks/single_node/{,fixed_seq_len/}dsr1_*.sh,
// SemiAnalysisAI/InferenceX, 2025-08 → 2026-07, Apache-2.0):
//   - H200: 0.82 from 2025-11-14 (dsr1_fp8_h200_slurm.sh, b63287acc; none
//     before);
//   - B200 and B300 FP4: 0.85 in every version;
//   - B200 and B300 FP8: 0.82 at TP 8, 0.95 at TP 4 with
//     --chunked-prefill-size 8192 and --cuda-graph-max-bs 32
//     (estimator.SGLangTightMemFraction, since 9d9d32a4b, 2025-12-17);
//   - MI300X, MI325X, MI355X: 0.8 from 2025-09-10/20 (one day at 0.95 on
//     MI355X FP8, 2026-03-05, e441f97ad, not modelled).
func sglangRecipeMemShare(hardware, precision string, tp int, runDate string) (share float64, chunk int) {
	switch hardware {
	case "h200":
		if runDate >= "2025-11-14" {
			return 0.82, 0
		}
	case "b200", "b300":
		switch {
		case precision == "fp4":
			return 0.85, 0
		case tp == 4:
			return estimator.SGLangTightMemFraction, estimator.SGLangTightChunk
		}
		return 0.82, 0
	case "mi300x", "mi325x", "mi355x":
		return 0.8, 0
	}
	return 0, 0
}

// trtRecipeBalanceIters is the attention-DP balance that InferenceX's
// TensorRT-LLM recipes launch with under attention data parallelism:
// attention_dp_config enable_balance: true, batching_wait_iters: 0,
// timeout_iters: 60 (every DeepSeek-R1 recipe; gpt-oss and MiniMax enable
// the balance too; SemiAnalysisAI/InferenceX
// benchmarks/single_node/fixed_seq_len/*.sh at 843c6254, 2026-08-21,
// Apache-2.0). TensorRT-LLM's default is no balance.
const trtRecipeBalanceIters = 60

// sglangRecipeRecvInterval is the --scheduler-recv-interval that
// InferenceX's SGLang recipes launch with on B200 and B300 without
// attention data parallelism: 10 below concurrency 16 and 30 from 16 (the
// DeepSeek-R1 FP8/FP4 and Qwen3.5 recipes; GLM-5 FP4 10): the scheduler
// takes in new requests every that many forward passes
// (SemiAnalysisAI/InferenceX benchmarks/single_node/fixed_seq_len/*.sh at
// 843c6254, 2026-08-21, Apache-2.0). 0 for every other row (SGLang's
// default, every pass). On the InferenceX SGLang B200 rows the TTFT
// median error goes from −48.5% to +8.4% (228 rows, all splits) with it.
func sglangRecipeRecvInterval(framework, hardware, dp string, conc int) int {
	if framework != "sglang" || (hardware != "b200" && hardware != "b300") || dp != "1" {
		return 0
	}
	if conc >= 16 {
		return 30
	}
	return 10
}

// trtRecipeSince8192 is the day InferenceX's TensorRT-LLM recipes began
// to raise max_num_tokens to at least 8192 (SemiAnalysisAI/InferenceX
// commit 64af5a771, "Adding evals after throughput benchmarks (#258)",
// 2026-01-21, benchmarks/dsr1_{fp4_b200,fp8_b200,fp8_h200}_trt_slurm.sh).
const trtRecipeSince8192 = "2026-01-21"

// trtRecipeMaxNumTokens is the --max_num_tokens that InferenceX's
// DeepSeek-R1 TensorRT-LLM recipes launched trtllm-serve with for a row
// of prompt length isl at client concurrency conc run on runDate
// (YYYY-MM-DD): MAX_NUM_TOKENS=$(( ($CONC+$ISL+64+63)/64*64 )) in every
// version from 2025-11-03 (commit 17d5e204f) on, one whole prompt plus
// the running decodes per step; from 2026-01-21 (trtRecipeSince8192)
// raised to at least 8192 (benchmarks/single_node/fixed_seq_len/
// dsr1_*_trt.sh at 843c6254 still does). The rows before then ran the
// lower budget; the engine's default, which the estimate takes
// otherwise, is 8192 (sim.DefaultPolicy).
func trtRecipeMaxNumTokens(isl, conc int, runDate string) int {
	n := (conc + isl + 64 + 63) / 64 * 64
	if runDate >= trtRecipeSince8192 {
		n = max(n, 8192)
	}
	return n
}

// imageRelease is the engine release a row's container image names
// ("lmsysorg/sglang:v0.5.9-cu130" → "0.5.9",
// "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6.post2" → "1.2.0rc6.post2",
// "vllm/vllm-openai:v0.22.0" → "0.22.0"); "" where the row keeps no image
// (the dashboard's older points) or its tag is no release ("dev-cu13"):
// the estimate then takes the engine's current release.
func imageRelease(image string) string {
	_, tag, ok := strings.Cut(image, ":")
	if !ok {
		return ""
	}
	tag, _, _ = strings.Cut(strings.TrimPrefix(tag, "v"), "-")
	if _, err := estimator.ParseEngineVersion(tag); err != nil || tag == "" {
		return ""
	}
	return tag
}

// inferencexRow is the case every group of an InferenceX single-node
// row starts from (its split, source, engine, GPU and concurrency, args
// the estimate command) and the row's setting as the report names it;
// extra ("MTP 2") goes before its lengths.
func inferencexRow(r map[string]string, source string, args []string, extra string) (valCase, string) {
	conc, _ := strconv.Atoi(r["conc"])
	set := fmt.Sprintf("%s %s %s %s TP %s EP %s", r["model"], r["hardware"], r["framework"], r["precision"], r["tp"], r["ep"])
	if r["dp_attention"] == "true" {
		set += " DP-attn"
	}
	if extra != "" {
		set += " " + extra
	}
	set += fmt.Sprintf(" %s/%s conc %d (%s)", r["isl"], r["osl"], conc, r["run_date"])
	return valCase{Split: r["split"], Source: source, Engine: r["framework"] + " " + orDash(r["image"]), Args: args,
		EngineID: inferencexEngines[r["framework"]], GPU: r["hardware"], Concurrency: conc}, set
}

// inferencexCases: every row gives up to seven cases: the mean TTFT and
// TPOT the estimate reports (against the measured means, or the medians
// where a row keeps only those), their p50 and p99, and the output
// tokens/s per GPU.
func inferencexCases(dir string) ([]valCase, error) {
	rows, err := readCSV(dir, inferencexFile)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range rows {
		args, ok := inferencexArgs(r)
		if !ok {
			continue
		}
		tp, _ := strconv.Atoi(r["tp"])
		base, set := inferencexRow(r, inferencexFile, args, "")
		add := func(group, what, field, col string, scale float64, unit string) {
			v := num(r[col])
			if !(v > 0) {
				return
			}
			c := base
			c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = group, set+", "+what, field, scale, v, unit
			out = append(out, c)
		}
		const perf = "performance."
		// The mean the estimate reports against the measured mean where the
		// row keeps one, and against the median where it does not (the
		// dashboard's history rows): a replay that compares the reported
		// figure with whatever the row holds sees both, so both are shown,
		// apart.
		if num(r["ttft_mean_ms"]) > 0 {
			add("load TTFT", "mean TTFT", perf+"time_to_first_token_seconds", "ttft_mean_ms", 1000, "ms")
			// The same mean without a first wave (loadTTFTNoWave).
			n := len(out)
			add(loadTTFTNoWave, "mean TTFT, no first wave", perf+"time_to_first_token_seconds", "ttft_mean_ms", 1000, "ms")
			if len(out) > n {
				out[n].Args = noWaveArgs(args)
			}
		} else {
			add("load TTFT vs median", "median TTFT (no mean kept)", perf+"time_to_first_token_seconds", "ttft_median_ms", 1000, "ms")
		}
		if num(r["tpot_mean_ms"]) > 0 {
			add("load TPOT", "mean TPOT", perf+"decode_token_latency_seconds", "tpot_mean_ms", 1000, "ms")
		} else {
			add("load TPOT vs median", "median TPOT (no mean kept)", perf+"decode_token_latency_seconds", "tpot_median_ms", 1000, "ms")
		}
		add("load TTFT p50", "median TTFT", perf+"serving.time_to_first_token_p50_seconds", "ttft_median_ms", 1000, "ms")
		add("load TTFT p99", "p99 TTFT", perf+"serving.time_to_first_token_p99_seconds", "ttft_p99_ms", 1000, "ms")
		add("load TPOT p50", "median TPOT", perf+"serving.decode_token_latency_p50_seconds", "tpot_median_ms", 1000, "ms")
		add("load TPOT p99", "p99 TPOT", perf+"serving.decode_token_latency_p99_seconds", "tpot_p99_ms", 1000, "ms")
		// InferenceX divides single-node throughput by TP (its
		// process_result.py): per GPU of the one replica.
		add("load throughput/GPU", "output tok/s per GPU", perf+"tokens_per_second", "tput_per_gpu_output_tok_s", 1/float64(max(tp, 1)), "tok/s/GPU")
	}
	return out, nil
}

const inferencexTableFile = "inferencex/inferencex_issue_points.csv"

// inferencexTableCases: the vLLM H100 sweep InferenceX published as
// tables (inferencexTableFile, README there): each row gives its TPOT
// and, where the table has it, its output tokens/s per GPU, against the
// mean TPOT and the throughput the estimate reports, in groups of their
// own (the tables do not say mean or median).
func inferencexTableCases(dir string) ([]valCase, error) {
	rows, argv, err := tableRows(dir, inferencexTableFile)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for i, r := range rows {
		args := argv[i]
		conc, _ := strconv.Atoi(r["conc"])
		tp, _ := strconv.Atoi(r["tp"])
		set := fmt.Sprintf("%s %s %s %s TP %s %s/%s conc %d (%s, %s)", r["model"], r["hardware"], r["framework"], r["precision"], r["tp"],
			r["isl"], r["osl"], conc, r["source_url"], r["posted"])
		base := valCase{Split: r["split"], Source: inferencexTableFile, Engine: r["framework"] + " (release not stated)", Args: args,
			EngineID: inferencexEngines[r["framework"]], GPU: r["hardware"], Concurrency: conc}
		add := func(group, what, field, col string, scale float64, unit string) {
			if v := num(r[col]); v > 0 {
				c := base
				c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = group, set+", "+what, field, scale, v, unit
				out = append(out, c)
			}
		}
		add("load TPOT, tables", "TPOT (table)", "performance.decode_token_latency_seconds", "tpot_ms", 1000, "ms")
		add("load throughput/GPU, tables", "output tok/s per GPU (table)", "performance.tokens_per_second", "tput_per_gpu_output_tok_s",
			1/float64(max(tp, 1)), "tok/s/GPU")
	}
	return out, nil
}

// tableRows reads a published table of InferenceX points (file under
// dir) and each row's estimate arguments (inferencexArgs): every row of
// such a table must replay, so one that cannot is an error.
func tableRows(dir, file string) ([]map[string]string, [][]string, error) {
	rows, err := readCSV(dir, file)
	if err != nil {
		return nil, nil, err
	}
	argv := make([][]string, len(rows))
	for i, r := range rows {
		args, ok := inferencexArgs(r)
		if !ok {
			return nil, nil, fmt.Errorf("%s: a row of %s on %s %s that the replay cannot set up", file, r["model"], r["hardware"], r["framework"])
		}
		argv[i] = args
	}
	return rows, argv, nil
}

const inferencexBlogFile = "inferencex/inferencex_blog_points.csv"

// The blog tables' groups: InferenceX's published single-replica tables
// (inferencexBlogFile: Kimi K2.5 and MiniMax-M2.5 on vLLM, DeepSeek-R1 on
// SGLang; README there, "Blog tables"), apart from the dashboard's rows and the issue's.
const (
	blogTPOT       = "load TPOT, blog tables"
	blogThroughput = "load throughput/GPU, blog tables"
)

// inferencexBlogCases: each cell of the blog tables, its TPOT against the
// mean TPOT the estimate reports and its throughput against the
// estimate's output tokens/s per GPU. The posts print total tokens/s per
// GPU (input and output, InferenceX's tput_per_gpu); a request of the
// closed loop brings isl prompt tokens for every osl it generates (both
// lengths drawn with the same range ratio), so its output share is
// osl / (isl + osl). Each row's recipe settings travel with it, as
// inferencexArgs reads them: the KV dtype (bf16 where the recipe set
// none), the engine release, vLLM's --max-num-batched-tokens where the
// recipe set one, and the checkpoint's weight format where its precision
// does not say it (--quant: Moonshot's INT4 Kimi K2.5 quantises the routed
// experts alone).
func inferencexBlogCases(dir string) ([]valCase, error) {
	rows, argv, err := tableRows(dir, inferencexBlogFile)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for i, r := range rows {
		args := argv[i]
		conc, _ := strconv.Atoi(r["conc"])
		tp, _ := strconv.Atoi(r["tp"])
		isl, osl := num(r["isl"]), num(r["osl"])
		rel := r["engine_version"]
		if rel == "" {
			rel = "release not stated"
		}
		set := fmt.Sprintf("%s %s %s %s TP %s EP %s %s/%s conc %d (%s, %s)", r["model"], r["hardware"], r["framework"], r["precision"],
			r["tp"], r["ep"], r["isl"], r["osl"], conc, rel, r["posted"])
		base := valCase{Split: r["split"], Source: inferencexBlogFile, Engine: r["framework"] + " " + rel, Args: args,
			EngineID: inferencexEngines[r["framework"]], GPU: r["hardware"], Concurrency: conc}
		add := func(group, what, field string, v, scale float64, unit string) {
			if v > 0 {
				c := base
				c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = group, set+", "+what, field, scale, v, unit
				out = append(out, c)
			}
		}
		add(blogTPOT, "TPOT (blog table)", "performance.decode_token_latency_seconds", num(r["tpot_ms"]), 1000, "ms")
		if isl > 0 && osl > 0 {
			add(blogThroughput, "output tok/s per GPU (blog table's total × osl/(isl+osl))", "performance.tokens_per_second",
				num(r["tput_per_gpu_total_tok_s"])*osl/(isl+osl), 1/float64(max(tp, 1)), "tok/s/GPU")
		}
	}
	return out, nil
}

// readCSV reads the calibration CSV dir/file, with a header, into one map
// per row (readJSON's twin).
func readCSV(dir, file string) ([]map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := make(map[string]string, len(rec))
		for i, h := range recs[0] {
			if i < len(rec) {
				m[h] = rec[i]
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// concBuckets are concBucket's names, in order.
var concBuckets = []string{"1–4", "5–16", "17–64", "65–256", ">256"}

// concBucket names the concurrency bucket of the breakdown.
func concBucket(c int) string {
	switch {
	case c <= 4:
		return "1–4"
	case c <= 16:
		return "5–16"
	case c <= 64:
		return "17–64"
	case c <= 256:
		return "65–256"
	}
	return ">256"
}

// loadBreakdown is the median |error| of the serving-under-load cases by
// group, engine (or GPU) and split.
type loadBreakdown struct {
	Group, Split, By, Key string
	N                     int
	Median, Signed        float64
}

func breakdowns(cases []valCase) []loadBreakdown {
	type k struct{ g, s, by, key string }
	abs, signed := map[k][]float64{}, map[k][]float64{}
	for _, c := range cases {
		if !strings.HasPrefix(c.Group, "load ") {
			continue
		}
		for _, kk := range []k{{c.Group, c.Split, "engine", c.EngineID}, {c.Group, c.Split, "concurrency", concBucket(c.Concurrency)},
			{c.Group, c.Split, "GPU", c.GPU}} {
			abs[kk] = append(abs[kk], math.Abs(c.Error))
			signed[kk] = append(signed[kk], c.Error)
		}
	}
	var out []loadBreakdown
	for kk, v := range abs {
		out = append(out, loadBreakdown{kk.g, kk.s, kk.by, kk.key, len(v), quantile(v, 0.5), quantile(signed[kk], 0.5)})
	}
	gi := valGroupIndex()
	si := map[string]int{"fit": 0, "test": 1, "heldback": 2}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return gi[a.Group] < gi[b.Group]
		}
		if a.By != b.By {
			return a.By > b.By
		}
		if a.Key != b.Key {
			if a.By == "concurrency" {
				return slices.Index(concBuckets, a.Key) < slices.Index(concBuckets, b.Key)
			}
			return a.Key < b.Key
		}
		return si[a.Split] < si[b.Split]
	})
	return out
}

// writeLoadBreakdown prints the serving-under-load groups by engine, GPU
// and concurrency bucket, each split apart.
func writeLoadBreakdown(w io.Writer, cases []valCase) {
	b := breakdowns(cases)
	if len(b) == 0 {
		return
	}
	fmt.Fprintln(w, "\n## Serving under load, by engine, GPU and concurrency")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "SemiAnalysis InferenceX's single-node DeepSeek-R1 points (SGLang, TensorRT-LLM), each")
	fmt.Fprintln(w, "replayed as `rightsize estimate --gpu G --engine E --precision P --tp T --dp D --ep E --batch C --prompt-tokens I")
	fmt.Fprintln(w, "--output-tokens O --json` (the development-branch SGLang runs, whose client drew lengths from [0, nominal], with")
	fmt.Fprintln(w, "`--range-ratio 0.001`; the branch's vLLM gpt-oss-120b runs are not replayed: their outputs ended at end-of-sequence,")
	fmt.Fprintln(w, "148–184 tokens of the 512 drawn on average, a workload the estimate does not draw; inferencex/README.md)")
	fmt.Fprintln(w, "(the simulated closed-loop benchmark with the estimate's default cold first wave: its first C")
	fmt.Fprintln(w, "requests reach the engine late by the estimator's table, SGLang and TensorRT-LLM 0.45 s on NVIDIA GPUs, SGLang 3.35 s")
	fmt.Fprintln(w, "on AMD GPUs, vLLM none, fitted on the fit rows; `estimator.ColdFirstWaveSeconds`). Median |error| and median signed error per")
	fmt.Fprintln(w, "cell. \"load TTFT\" and \"load TPOT\" compare the run's mean (`time_to_first_token_seconds`,")
	fmt.Fprintln(w, "`decode_token_latency_seconds`) with the measured mean where a row keeps one; \"… vs median\" compare the same mean")
	fmt.Fprintln(w, "with the median of the rows that keep no mean (the dashboard's history); \"p50\" and \"p99\" compare the simulated")
	fmt.Fprintln(w, "percentiles. The measured mean TTFT runs at 1.2–3.5× the median at 4–64 in flight (the first wave waits longer than")
	fmt.Fprintln(w, "the steady state: 0.5–1 s more than the simulated prefill queue on NVIDIA GPUs with warm-up, 2–15 s on AMD GPUs, up")
	fmt.Fprintln(w, "to a p99 of 68–83 s on runs without warm-up). \"load TTFT, no first wave\" is the same mean replayed with")
	fmt.Fprintln(w, "`--first-wave-seconds 0`, as a service in its steady state shows it (the wave's cause is not sourced, so the table is")
	fmt.Fprintln(w, "an estimate; testdata/calibration/README.md, \"The first wave's cause\" and the sixty-eighth round).")
	fmt.Fprintln(w, "The \"tables\" groups are the vLLM gpt-oss-120b H100 sweep InferenceX published in its issue #828 (TPOT as the tables")
	fmt.Fprintln(w, "print it, mean or median not stated; inferencex/README.md).")
	fmt.Fprintln(w, "The \"blog tables\" groups are the single-replica tables of four InferenceX blog posts (Kimi K2.5 on vLLM: H200 INT4,")
	fmt.Fprintln(w, "B200 INT4 and NVFP4, replayed as Kimi K2; MiniMax-M2.5 on vLLM: H100 FP8, B200 FP8 and NVFP4 at TP 1–8, replayed as")
	fmt.Fprintln(w, "MiniMax-M2; DeepSeek-R1 NVFP4 on SGLang 0.5.5 and 0.5.6 at B200), each with its")
	fmt.Fprintln(w, "recipe's KV dtype, release and token budget; the posts print total tokens/s per GPU, of which a request's")
	fmt.Fprintln(w, "osl/(isl + osl) is output (inferencex/README.md, \"Blog tables\"). Nothing was fitted on them.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| group | by | value | split | n | median \\|error\\| | median error |")
	fmt.Fprintln(w, "|---|---|---|---|---:|---:|---:|")
	for _, r := range b {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %.1f%% | %+.1f%% |\n", r.Group, r.By, r.Key, splitNames[r.Split], r.N, 100*r.Median, 100*r.Signed)
	}
}
