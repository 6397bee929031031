package main

// Disaggregated serving: SemiAnalysis InferenceX's measured NVIDIA Dynamo
// (SGLang, TensorRT-LLM) and AMD MoRI (SGLang) points
// (estimator/testdata/calibration/inferencex/inferencex_disagg_points.csv),
// replayed through "rightsize estimate --disagg" with the point's own GPU,
// engine, precision, each side's workers and layout, concurrency and
// nominal prompt/output lengths, nothing else.

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const inferencexDisaggFile = "inferencex/inferencex_disagg_points.csv"

// inferencexDecodeBatchFile holds the decode workers' max_batch_size of
// the TensorRT-LLM rows, read from the recipe each InferenceX search-space
// entry names (inferencex/README.md, "Decode batch").
const inferencexDecodeBatchFile = "inferencex/inferencex_disagg_decode_batch.csv"

// inferencexPrefillFile holds the prefill workers' scheduling settings of
// the recipe that ran each row (chunked-prefill-size, max-prefill-tokens,
// max-running-requests and DP size for SGLang; max_num_tokens,
// max_batch_size and attention-DP ranks for TensorRT-LLM), read by
// inferencex/vendor_disagg_prefill.py (inferencex/README.md, "Prefill
// batch").
const inferencexPrefillFile = "inferencex/inferencex_disagg_prefill.csv"

// sglangDefaultMaxPrefillTokens is SGLang's --max-prefill-tokens default,
// the prompt tokens one rank's prefill batch admits where a recipe sets
// none (server_args.py: max_prefill_tokens = 16384).
const sglangDefaultMaxPrefillTokens = 16384

// recipePrefillBatch is the prompts of isl tokens one prefill forward of
// the worker carries under the recipe's settings p (a row of
// inferencexPrefillFile), 0 where they do not say. Each attention-DP rank
// schedules its own requests: TensorRT-LLM every rank at max_num_tokens
// and max_batch_size (one PyExecutor a rank); SGLang every rank at
// chunked-prefill-size / dp-size (server_args.py divides it under DP
// attention) and max-prefill-tokens (PrefillAdder's rem_chunk_tokens and
// rem_input_tokens), at most max-running-requests / dp-size requests
// (scheduler.py: per_dp_max_running_requests). A rank takes whole prompts
// while they fit, at least one (a longer prompt is chunked over forwards on
// its rank).
func recipePrefillBatch(p map[string]string, framework string, isl int) int {
	n := func(k string) int { return recipeInt(p, k) }
	dp := max(n("dp_size"), 1)
	if isl < 1 {
		return 0
	}
	var perRank int
	switch framework {
	case "dynamo-trt":
		tok, b := n("max_num_tokens"), n("max_batch_size")
		if tok < 1 {
			return 0
		}
		perRank = max(1, tok/isl)
		if b > 0 {
			perRank = min(perRank, b)
		}
	case "dynamo-sglang", "mori-sglang":
		chunk := n("chunked_prefill_size")
		if chunk < 1 {
			return 0
		}
		mpt := n("max_prefill_tokens")
		if mpt < 1 {
			mpt = sglangDefaultMaxPrefillTokens
		}
		perRank = max(1, min(chunk/dp, mpt)/isl)
		if m := n("max_running_requests"); m > 0 {
			perRank = min(perRank, max(1, m/dp))
		}
	default:
		return 0
	}
	return dp * perRank
}

// decodeSlots is the requests one decode worker of row r runs at once
// under its recipe (0: not known): p is the row's recipe settings
// (inferencexPrefillFile; nil where not matched), named the TensorRT-LLM
// decode batch the recipe's file name states (inferencexDecodeBatchFile;
// 0 where none). TensorRT-LLM's generation worker schedules at most
// max_batch_size requests a rank (each attention-DP rank runs its own
// executor and scheduler); a transferred request beyond them stays in
// DISAGG_GENERATION_INIT until a slot frees (py_executor.py
// _executor_loop: _schedule → _prepare_disagg_gen_init for the
// fitting_disagg_gen_init_requests only). The recipe's own value is taken
// where read (it differs from its file name's in 4 of 171 rows), the name's
// otherwise. SGLang's decode worker runs at most max-running-requests over
// all its DP ranks (scheduler.py splits it, per_dp_max_running_requests);
// a request beyond them waits for one to finish.
func decodeSlots(r, p map[string]string, named int) int {
	switch r["framework"] {
	case "dynamo-trt":
		b := named
		if v := recipeInt(p, "decode_max_batch_size"); v > 0 {
			b = v
		}
		if b > 0 && r["decode_dp_attention"] == "true" {
			b *= max(recipeInt(r, "gpus_per_decode_worker"), 1) // max_batch_size per attention-DP rank
		}
		return b
	case "dynamo-sglang", "mori-sglang":
		return recipeInt(p, "decode_max_running_requests")
	}
	return 0
}

// recipeInt is the integer setting k of a recipe row p (0 where unset,
// not an integer, or p is nil).
func recipeInt(p map[string]string, k string) int {
	v, _ := strconv.Atoi(p[k])
	return v
}

// recipeKey keys a row of the points file or of inferencexPrefillFile by
// its setting, framework and run date, the match vendor_disagg_prefill.py
// makes.
func recipeKey(r map[string]string) string {
	return disaggLayoutKey(r) + r["framework"] + "|" + r["run_date"]
}

// disaggLayoutKey is a row's setting (GPU, precision, lengths, MTP,
// concurrency and both sides' layouts), as the decode-batch table keys it.
func disaggLayoutKey(r map[string]string) string {
	var b strings.Builder
	for _, c := range []string{"hardware", "precision", "isl", "osl", "spec_decoding", "conc", "prefill_num_workers",
		"gpus_per_prefill_worker", "prefill_ep", "prefill_dp_attention", "decode_num_workers", "gpus_per_decode_worker", "decode_ep",
		"decode_dp_attention"} {
		b.WriteString(strings.ToLower(r[c]))
		b.WriteByte('|')
	}
	return b.String()
}

// The disaggregated groups ("load …": reported by engine, GPU and
// concurrency with the other serving-under-load groups, and in their own
// section).
const (
	disaggTTFT     = "load disaggregated TTFT"
	disaggTPOT     = "load disaggregated TPOT"
	disaggTTFTMean = "load disaggregated TTFT mean"
	disaggTPOTMean = "load disaggregated TPOT mean"
)

func init() { valGroups = append(valGroups, disaggTTFT, disaggTPOT, disaggTTFTMean, disaggTPOTMean) }

// disaggEngines maps InferenceX's disaggregated frameworks to the engine
// each worker runs.
var disaggEngines = map[string]string{"dynamo-sglang": "sglang", "mori-sglang": "sglang", "dynamo-trt": "trtllm"}

// disaggGPUs maps InferenceX hardware keys to catalog GPU IDs.
var disaggGPUs = map[string]string{"h100": "h100-sxm", "h200": "h200-sxm", "b200": "b200", "b300": "b300", "gb200": "gb200",
	"gb300": "gb300", "mi355x": "mi355x"}

// disaggArgs is the estimate command of one measured point, or why the
// point cannot be expressed.
//
// slots is the decode worker's request slots under the row's recipe (0:
// not known; decodeSlots), passed as --decode-batch, which the
// estimate's decode-bound closed loop turns into the wait for a slot;
// prefillBatch its prefill worker's prompts a forward (recipePrefillBatch),
// passed as --prefill-batch.
func disaggArgs(r, p map[string]string, slots, prefillBatch int) ([]string, string) {
	model, ok := inferencexModels[r["model"]]
	if !ok {
		return nil, "model"
	}
	gpu, ok := disaggGPUs[r["hardware"]]
	if !ok {
		return nil, "GPU not in the catalog"
	}
	engine := disaggEngines[r["framework"]]
	if engine == "" {
		return nil, "engine"
	}
	args := []string{"--model", model, "--gpu", gpu, "--engine", engine, "--precision", r["precision"], "--disagg",
		"--concurrency", r["conc"], "--prompt-tokens", r["isl"], "--output-tokens", r["osl"]}
	switch r["spec_decoding"] {
	case "none":
	case "mtp":
		// The rows do not state the draft tokens; the replay assumes
		// InferenceX's TensorRT-LLM MTP recipe rule (benchmarks/
		// dsr1_fp4_b200_trt_mtp.sh: num_nextn_predict_layers 1 with
		// attention DP, 3 without) for TensorRT-LLM workers, and for
		// SGLang the DeepSeek usage docs' --speculative-num-steps 1
		// --speculative-num-draft-tokens 2; the acceptance is the
		// estimate's default (TensorRT-LLM's measured tokens per step
		// by draft count for DeepSeek-R1, SGLang estimator.MTPAcceptance).
		d := "1"
		if engine == "trtllm" && r["decode_dp_attention"] != "true" {
			d = "3"
		}
		args = append(args, "--mtp-draft-tokens", d)
	default:
		return nil, "speculative decoding " + r["spec_decoding"]
	}
	for _, s := range []string{"prefill", "decode"} {
		g, _ := strconv.Atoi(r["gpus_per_"+s+"_worker"])
		ep, _ := strconv.Atoi(r[s+"_ep"])
		if g < 1 {
			return nil, "GPUs per worker not stated"
		}
		ep = max(ep, 1)
		if g%ep != 0 {
			return nil, "EP does not divide the worker's GPUs"
		}
		dp := 1
		if r[s+"_dp_attention"] == "true" {
			dp = g // attention data parallelism over the worker's GPUs
		}
		red := redundantFor(disaggExperts[model], ep)
		if dp > 1 && dynamoSlurmJobs(r) {
			// The scripts ran DeepEP over the worker's GPUs with 32
			// redundant experts (dynamoSlurmJobs); the dashboard lists
			// these rows at EP 1.
			ep, red = g, dynamoSlurmJobsRedundant
		}
		if a2a := p[s+"_moe_a2a_backend"]; engine == "sglang" && a2a != "" {
			// The recipe's own EP (ep-size) and, under attention DP with
			// EP, its exchange (vendor_disagg_prefill.py's columns).
			if n, err := strconv.Atoi(p[s+"_ep_size"]); err == nil && n >= 1 && g%n == 0 {
				ep, red = n, redundantFor(disaggExperts[model], n)
			}
			if a2a == "none" && dp > 1 && ep > 1 {
				args = append(args, "--"+s+"-moe-a2a-backend", a2a)
			}
		}
		// The worker's GPUs are its TP degree (the MoE's tensor or
		// expert parallel group), attention DP and EP inside it.
		args = append(args, "--"+s+"-workers", r[s+"_num_workers"], "--"+s+"-tp", strconv.Itoa(g), "--"+s+"-dp", strconv.Itoa(dp),
			"--"+s+"-ep", strconv.Itoa(ep))
		if red > 0 {
			args = append(args, "--"+s+"-redundant-experts", strconv.Itoa(red))
		}
	}
	if prefillBatch > 0 {
		args = append(args, "--prefill-batch", strconv.Itoa(prefillBatch))
	}
	if slots > 0 {
		args = append(args, "--decode-batch", strconv.Itoa(slots))
	}
	if rel := imageRelease(r["image"]); rel != "" {
		args = append(args, "--engine-version", rel)
	}
	if disaggRecipeFP8KV(r) {
		args = append(args, "--kv-dtype", "fp8")
	}
	if moriDecodeGraphs(r) {
		args = append(args, "--cuda-graph-max-bs", strconv.Itoa(moriDPDecodeGraphMaxBS))
	}
	return args, ""
}

// moriDPDecodeGraphMaxBS is the largest decode batch a MoRI-SGLang decode
// worker with attention DP captures a CUDA graph for, a rank's: InferenceX's
// AMD recipes pass --cuda-graph-bs 1…160 with max_running_requests 4096
// to every DeepSeek model's DP decode worker (benchmarks/multi_node/
// amd_utils/models.yaml, decode.dp.cuda_graph_bs_range "1-160", from its
// first version, 8d81e0bf, 2026-02-19, to 843c6254); their decode workers
// without DP run at most their graph batch (ep_only 256 of 256, no_dp 128
// of 128), so only the DP workers can decode past their graphs.
const moriDPDecodeGraphMaxBS = 160

// moriDecodeGraphs reports whether row r's decode worker ran under
// models.yaml's DP settings (moriDPDecodeGraphMaxBS): a MoRI-SGLang row
// with attention DP on the decode side, run after the file was added.
func moriDecodeGraphs(r map[string]string) bool {
	return r["framework"] == "mori-sglang" && r["decode_dp_attention"] == "true" && r["run_date"] >= "2026-02-19"
}

// disaggRecipeFP8KV reports whether the recipe that ran a disaggregated
// row stored the KV cache in FP8 (both sides: the handover moves the
// cache as stored). The dashboard's kv_cache_dtype column is empty for
// these rows; the recipes say:
//   - dynamo-trt: every TensorRT-LLM recipe InferenceX names sets
//     kv_cache_config dtype: fp8 on both sides (NVIDIA/srt-slurm
//     recipes/trtllm/{b200,b300,gb200,gb300}-{fp4,fp8}, h100-fp8, h200
//     at a69553ff, 2026-08-20: 330 of 330 files; before 2026-01 the
//     ai-dynamo/dynamo components/backends/trtllm/performance_sweeps
//     configs, e.g. gb200/1k1k/stp/ctx1_gen1_dep8_batch512_eplb0_mtp0.yaml);
//   - mori-sglang (MI355X): --kv-cache-dtype fp8_e4m3 in the DeepSeek-R1
//     server flags from the first recipe (billishyahao/sglang_disagg
//     sglang_disagg_server.sh, 2025-12-19) to InferenceX's own copy
//     (benchmarks/multi_node/amd_utils/models.yaml from 2026-02-19);
//   - dynamo-sglang on Blackwell: --kv-cache-dtype fp8_e4m3 in every
//     NVIDIA/srt-slurm DeepSeek-R1 recipe (recipes/{b200,gb200,gb300}-*,
//     from their first version, 2026-01-27 on GB200/GB300 and 2026-03-03
//     on B200; c88ef731); the GB200 rows of 2025-12 ran ai-dynamo/dynamo's
//     frozen slurm_jobs scripts (dynamoSlurmJobs), whose gb200-fp8.sh sets
//     no KV dtype (the engine's default, bf16 here) and gb200-fp4.sh
//     fp8_e4m3, and H100/H200 recipes set none.
func disaggRecipeFP8KV(r map[string]string) bool {
	switch r["framework"] {
	case "dynamo-trt", "mori-sglang":
		return true
	case "dynamo-sglang":
		switch r["hardware"] {
		case "b200", "b300", "gb300":
			return true
		case "gb200":
			return !dynamoSlurmJobs(r) || r["precision"] == "fp4"
		}
	}
	return false
}

// dynamoSlurmJobs reports whether row r ran NVIDIA Dynamo's frozen SGLang
// slurm_jobs scripts: the GB200 Dynamo-SGLang rows before the srt-slurm
// recipes (2026-01-27). Those scripts
// (ai-dynamo/dynamo components/backends/sglang/slurm_jobs/scripts/
// gb200-fp8.sh at 7fbc72da and gb200-fp4.sh at 44884ef2) start both
// roles with --enable-dp-attention over all the worker's GPUs
// (--tp-size and --dp-size $TOTAL_GPUS), their experts over the same GPUs
// through DeepEP (--moe-a2a-backend deepep, which sets SGLang's EP size
// to the TP size; the FP4 script also passes --ep-size $TOTAL_GPUS) with
// --ep-num-redundant-experts 32, and the FP4 script stores the KV cache
// in FP8 (--kv-cache-dtype fp8_e4m3; the FP8 script sets none). The
// dashboard lists these rows at EP 1.
func dynamoSlurmJobs(r map[string]string) bool {
	return r["framework"] == "dynamo-sglang" && r["hardware"] == "gb200" && r["run_date"] < "2026-01-27"
}

// dynamoSlurmJobsRedundant is those scripts' --ep-num-redundant-experts.
const dynamoSlurmJobsRedundant = 32

// disaggExperts is the routed experts of the replayed models
// (DeepSeek-R1's config.json: n_routed_experts 256).
var disaggExperts = map[string]int{"deepseek-r1": 256}

// redundantFor is the redundant experts the replay gives a worker whose
// EP does not divide the model's experts: the rows do not state the
// count, so the replay assumes the smallest that makes EP divide experts
// + copies (EP 48: 32, as NVIDIA Dynamo's GB200 SGLang DeepSeek-R1 recipe
// sets --ep-num-redundant-experts 32; EP 24: 8). 0 where EP divides them.
func redundantFor(experts, ep int) int {
	if experts <= 0 || ep <= 1 || experts%ep == 0 {
		return 0
	}
	return ep - experts%ep
}

// disaggRows counts the rows per split, and the expressible ones, for
// the report (set by disaggCases).
var disaggRows = map[string][2]int{}

// disaggWhyNot counts the rows that cannot be replayed, by reason.
var disaggWhyNot = map[string]int{}

// disaggCases: each expressible row gives the mean TTFT and TPOT the
// estimate reports against the measured medians (every row keeps them;
// the steady state has no first wave, which lifts the measured mean TTFT
// to about twice the median).
func disaggCases(dir string) ([]valCase, error) {
	rows, err := readCSV(dir, inferencexDisaggFile)
	if err != nil {
		return nil, err
	}
	brows, err := readCSV(dir, inferencexDecodeBatchFile)
	if err != nil {
		return nil, err
	}
	prows, err := readCSV(dir, inferencexPrefillFile)
	if err != nil {
		return nil, err
	}
	prefills := map[string]map[string]string{}
	for _, p := range prows {
		prefills[recipeKey(p)] = p
	}
	batches := map[string]int{}
	for _, b := range brows {
		n, err := strconv.Atoi(b["decode_max_batch"])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: decode_max_batch %q", inferencexDecodeBatchFile, b["decode_max_batch"])
		}
		batches[disaggLayoutKey(b)] = n
	}
	clear(disaggRows)
	clear(disaggWhyNot)
	var out []valCase
	for _, r := range rows {
		n := disaggRows[r["split"]]
		n[0]++
		disaggRows[r["split"]] = n
		p := prefills[recipeKey(r)] // nil: not matched
		pb := 0
		if p != nil {
			pb = recipePrefillBatch(p, r["framework"], recipeInt(r, "isl"))
		}
		args, why := disaggArgs(r, p, decodeSlots(r, p, batches[disaggLayoutKey(r)]), pb)
		if why == "" {
			// A layout the estimate rejects (the model does not fit a
			// worker) is not expressible either: asked of the steady
			// state, which the simulated run shares its model with.
			if _, err := estimateField(append(append([]string{}, args...), "--steady-state", "--json"), "performance.time_to_first_token_seconds"); err != nil {
				why = "the estimate rejects the layout"
			}
		}
		if why != "" {
			disaggWhyNot[why]++
			continue
		}
		n[1]++
		disaggRows[r["split"]] = n
		conc, _ := strconv.Atoi(r["conc"])
		set := fmt.Sprintf("%s %s %s %s %sP(TP %s EP %s%s) %sD(TP %s EP %s%s) %s/%s conc %d (%s)", r["model"], r["hardware"], r["framework"],
			r["precision"], r["prefill_num_workers"], r["gpus_per_prefill_worker"], r["prefill_ep"], dpTag(r["prefill_dp_attention"]),
			r["decode_num_workers"], r["gpus_per_decode_worker"], r["decode_ep"], dpTag(r["decode_dp_attention"]), r["isl"], r["osl"], conc, r["run_date"])
		base := valCase{Split: r["split"], Source: inferencexDisaggFile, Engine: r["framework"] + " " + orDash(r["image"]), Args: args,
			EngineID: r["framework"], GPU: r["hardware"], Concurrency: conc}
		for _, g := range []struct{ group, what, field, col string }{
			// The simulated run's median against the measured median,
			// its mean against the measured mean where the row keeps one.
			{disaggTTFT, "median TTFT", "performance.serving.time_to_first_token_p50_seconds", "ttft_median_ms"},
			{disaggTPOT, "median TPOT", "performance.serving.decode_token_latency_p50_seconds", "tpot_median_ms"},
			{disaggTTFTMean, "mean TTFT", "performance.time_to_first_token_seconds", "ttft_mean_ms"},
			{disaggTPOTMean, "mean TPOT", "performance.decode_token_latency_seconds", "tpot_mean_ms"},
		} {
			if v := num(r[g.col]); v > 0 {
				c := base
				c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = g.group, set+", "+g.what, g.field, 1000, v, "ms"
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func dpTag(v string) string {
	if v == "true" {
		return " DP-attn"
	}
	return ""
}

// writeDisaggSection prints the disaggregated serving group: per split,
// the rows expressible and the median |error| of TTFT and TPOT, then by
// GPU and engine.
func writeDisaggSection(w io.Writer, cases []valCase) {
	total := 0
	for _, n := range disaggRows {
		total += n[0]
	}
	if total == 0 {
		return
	}
	fmt.Fprintln(w, "\n## Disaggregated serving")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "SemiAnalysis InferenceX's disaggregated DeepSeek-R1 points (NVIDIA Dynamo with SGLang or TensorRT-LLM workers, SGLang")
	fmt.Fprintln(w, "with AMD MoRI), each replayed as `rightsize estimate --disagg --prefill-workers P --prefill-tp T --prefill-dp D")
	fmt.Fprintln(w, "--prefill-ep E --decode-workers … --concurrency C --prompt-tokens I --output-tokens O --json` (the closed-loop")
	fmt.Fprintln(w, "benchmark simulated on the disaggregated step model, 10 × C requests, estimator.DisaggSizer.Simulate). The run's median")
	fmt.Fprintln(w, "TTFT and TPOT (`performance.serving`) against the measured medians; its means (`performance`) against the measured")
	fmt.Fprintln(w, "means, where the row keeps them (\"… mean\" groups). A row is")
	fmt.Fprintln(w, "expressible when Rightsize has its model, GPU, engine and setting and the estimate accepts its layout; the fitted")
	fmt.Fprintln(w, "constants (`estimator.DisaggHandoverSeconds`, and SGLang's prefill-side handover work per prompt,")
	fmt.Fprintln(w, "`sglangPrefillHandoverSeconds`) were set on fit rows; held-back rows were not looked at while fitting.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| split | rows | expressible | TTFT median \\|error\\| | TTFT median error | TPOT median \\|error\\| | TPOT median error | mean TTFT median \\|error\\| (rows) | mean TPOT median \\|error\\| |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	med := func(group, split, by, key string) (float64, float64, int) {
		var abs, signed []float64
		for _, c := range cases {
			if c.Group != group || (split != "" && c.Split != split) {
				continue
			}
			if by != "" && disaggBy(c, by) != key {
				continue
			}
			abs, signed = append(abs, math.Abs(c.Error)), append(signed, c.Error)
		}
		return quantile(abs, 0.5), quantile(signed, 0.5), len(abs)
	}
	all := [2]int{}
	for _, s := range append(valSplits, "") {
		n := disaggRows[s]
		name := splitNames[s]
		if s == "" {
			n, name = all, "all"
		} else {
			all[0], all[1] = all[0]+n[0], all[1]+n[1]
		}
		ta, ts, _ := med(disaggTTFT, s, "", "")
		pa, ps, _ := med(disaggTPOT, s, "", "")
		ma, _, mn := med(disaggTTFTMean, s, "", "")
		qa, _, _ := med(disaggTPOTMean, s, "", "")
		fmt.Fprintf(w, "| %s | %d | %d (%.0f%%) | %.1f%% | %+.1f%% | %.1f%% | %+.1f%% | %.1f%% (%d) | %.1f%% |\n", name, n[0], n[1],
			100*float64(n[1])/math.Max(float64(n[0]), 1), 100*ta, 100*ts, 100*pa, 100*ps, 100*ma, mn, 100*qa)
	}
	var why []string
	for k, v := range disaggWhyNot {
		why = append(why, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(why)
	fmt.Fprintf(w, "\nRows not expressible, by reason: %s.\n\n", strings.Join(why, "; "))
	fmt.Fprintln(w, "What the disaggregated model leaves out:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "- **Speculative decoding.** A third of the rows run DeepSeek's MTP (`--mtp-draft-tokens d`): each decode step drafts d")
	fmt.Fprintln(w, "  tokens with the MTP block and verifies d + 1 in one forward, yielding on every engine the tokens per step NVIDIA")
	fmt.Fprintln(w, "  measured for DeepSeek-R1 at d drafts (1.92 at 1, 2.82 at 3; not fitted). The rows do not state d: the replay takes 1,")
	fmt.Fprintln(w, "  and 3 for TensorRT-LLM decode workers without attention DP (InferenceX's TensorRT-LLM MTP recipe rule); some SGLang")
	fmt.Fprintln(w, "  recipes run 2 or 3. Both sides hold the module's block (11.6B parameters beside the model's). The MTP rows read")
	fmt.Fprintln(w, "  10–17% fast even on TP decode workers: their prompts are random tokens in a chat template, and the single-node MTP")
	fmt.Fprintln(w, "  runs of the same recipes accept 1.8 tokens a step at one draft and 2.4–2.6 at three (section \"Speculative decoding")
	fmt.Fprintln(w, "  (MTP) on one copy\"), under the table's 1.92 and 2.82; the disaggregated rows keep no inter-token latency to read")
	fmt.Fprintln(w, "  theirs from, so none is passed.")
	fmt.Fprintln(w, "- **Wide EP.** Decode workers of 24 or 48 GPUs run EP 24/48 over DeepSeek-R1's 256 experts with redundant copies")
	fmt.Fprintln(w, "  (`--decode-redundant-experts`); the rows do not state how many, so the replay gives the smallest count that makes")
	fmt.Fprintln(w, "  EP divide experts + copies (EP 48: 32, as NVIDIA Dynamo's GB200 SGLang recipe sets; EP 24: 8). The GB200")
	fmt.Fprintln(w, "  Dynamo-SGLang rows before 2026-01-27 (70 rows), which the dashboard lists at EP 1, ran Dynamo's slurm_jobs scripts:")
	fmt.Fprintln(w, "  DeepEP over each attention-DP worker's GPUs with 32 redundant experts, FP8 KV for FP4; the replay runs them so")
	fmt.Fprintln(w, "  (TTFT 44.4 / 49.1 / 29.5% → 45.2 / 49.1 / 34.5%: their decode steps read 20–53% fast at EP 24–48). The copies cost")
	fmt.Fprintln(w, "  memory and weight reads; the load balance they buy is the uniform routing the step model assumes for every EP")
	fmt.Fprintln(w, "  layout (no imbalance without them either). The EP all-to-all is the aggregated model's (every token's k experts")
	fmt.Fprintln(w, "  from each rank without attention DP, which makes a TP 8 EP 8 prefill worker about 2.3× slower than TP 8 EP 1:")
	fmt.Fprintln(w, "  a measured stand-in, as TensorRT-LLM's code sums the experts with an all-reduce there; TensorRT-LLM's NVFP4")
	fmt.Fprintln(w, "  dispatch under attention DP crosses at 4 bits and a scale byte per 16 elements, the combine in 16 bits;")
	fmt.Fprintln(w, "  across NVLink domains the bytes for other domains cross each GPU's own NIC), and attention DP pays two")
	fmt.Fprintln(w, "  collectives a layer (the gather before the experts and the scatter after), each one all-reduce's latency.")
	fmt.Fprintln(w, "- **Each SGLang worker's exchange as its recipe sets it.** NVIDIA's srt-slurm recipes run DeepEP")
	fmt.Fprintln(w, "  (`moe-a2a-backend: deepep`) only on the GB200/GB300 FP8 attention-DP prefill workers and the wide-EP decode")
	fmt.Fprintln(w, "  workers; the B200 and H200 attention-DP workers and the GB200/GB300 FP4 prefill workers set no backend (SGLang's")
	fmt.Fprintln(w, "  gather: every rank takes every DP rank's tokens before the experts), and the B200 ones no `ep-size` (the experts")
	fmt.Fprintln(w, "  split over TP, which the dashboard lists as EP 8). The replay passes the recipe's `ep-size` and, under")
	fmt.Fprintln(w, "  attention DP with EP, `--prefill-moe-a2a-backend none` / `--decode-moe-a2a-backend none`")
	fmt.Fprintln(w, "  (`inferencex_disagg_prefill.csv` columns `prefill_moe_a2a_backend`, `prefill_ep_size`, `decode_*`).")
	fmt.Fprintln(w, "- **The decode step at hundreds of requests per rank.** GB200 TensorRT-LLM, 1 prefill × 4 and 1 decode × 8 GPUs")
	fmt.Fprintln(w, "  at 4,300 in flight, runs near the measured rate (78 against 66 requests/s) but decodes 375 requests per rank")
	fmt.Fprintln(w, "  in 41.7 ms where the engine took 54 ms at about 460. The estimate's prefill capacity binds first, so it holds")
	fmt.Fprintln(w, "  70% of the requests in decode and queues the rest for prefill (TTFT 16.7 s against 9.7 s): most of this row's")
	fmt.Fprintln(w, "  error is the closed loop, not the step. The decode workers of 16 GPUs or")
	fmt.Fprintln(w, "  more decode about a sixth faster than measured on the fit rows. MLA's attention is counted in its absorbed decode")
	fmt.Fprintln(w, "  form (2.83× the decompressed form's FLOPs per attended token for DeepSeek-R1, which makes attention-DP decode,")
	fmt.Fprintln(w, "  128 heads per rank over one latent, compute-bound as FlashMLA reports); what remains is not attention's FLOPs.")
	fmt.Fprintln(w, "  Most of the TTFT error under load is this closed-loop consequence, not the prefill or handover model.")
	fmt.Fprintln(w, "- **Attention-DP decode workers** (the \"decode worker\" rows of the table below) hold most of the error, and")
	fmt.Fprintln(w, "  most of it is the prefill side's: their TPOT reads −17% where the TP decode workers without MTP read +4%, but of")
	fmt.Fprintln(w, "  the 243 attention-DP rows the 143 whose estimate is prefill-bound with under 90% of the requests in decode read")
	fmt.Fprintln(w, "  −26%, while those whose decode worker holds at least 90% read −13% (concurrency-bound, 46), −2% (decode-bound,")
	fmt.Fprintln(w, "  25) and +2% (prefill-bound, 17): a closed loop that queues requests for prefill decodes fewer at once, in shorter")
	fmt.Fprintln(w, "  steps. On 86 of 514 rows the measured request rate (C over the median TTFT + (OSL − 1) × the median TPOT) is above")
	fmt.Fprintln(w, "  the estimate's prefill capacity (30 of them GB200 SGLang attention-DP prefill workers), so it is too low there; yet")
	fmt.Fprintln(w, "  one SGLang FP8 prefill worker of TP 8, EP 8 and attention DP 8 with 1k prompts serves 80–83 prompts/s on GB200 and")
	fmt.Fprintln(w, "  GB300 and 29 on H200 (saturated runs), where the estimate gives 38.5 and 35.3 with the handover work and 91 and 75")
	fmt.Fprintln(w, "  without it, and no term tried (that work spread over the DP ranks, or scaled by the KV page size) improves the rows")
	fmt.Fprintln(w, "  as a whole.")
	fmt.Fprintln(w, "- **Prefill under load.** A prefill worker with attention DP runs each prompt's attention on the one rank it was")
	fmt.Fprintln(w, "  sent to, and every forward lasts as long as its busiest rank (SGLang's DP controller and MLP sync; TensorRT-LLM's")
	fmt.Fprintln(w, "  ADP blog): the estimate counts ⌈k/DP⌉ prompts' attention on that rank (`rankSkewSeconds`, in every step of a copy")
	fmt.Fprintln(w, "  with attention DP, aggregated ones too), which makes a 1k prompt alone on a DP 8 worker about 1.5× slower. An")
	fmt.Fprintln(w, "  SGLang prefill worker also spends 15 ms of its own time on each prompt's handover (`sglangPrefillHandoverSeconds`:")
	fmt.Fprintln(w, "  the KV sender, the indices to the host, the transfer engine's descriptors under the interpreter lock; SGLang's NIXL")
	fmt.Fprintln(w, "  connector ran the transfer on the scheduler's thread until its PR #23967), fitted on the fit rows: it takes the")
	fmt.Fprintln(w, "  H200 rows that saturate one prefill worker with 1k prompts to 35 and 26 prompts/s of capacity against 31 and 23")
	fmt.Fprintln(w, "  measured (75 and 44 from the forward alone), and the SGLang rows' TTFT error from 41.9 / 59.1 / 41.3% to 34.3 /")
	fmt.Fprintln(w, "  39.7 / 24.8% (fit / test / held back). The GB200 SGLang 6 × 8-GPU 8k rows at 4,096 in flight read 20.4")
	fmt.Fprintln(w, "  prompts/s of capacity against 17–19 measured, but the 5 × 8-GPU rows at 6,144 measure 54 (estimated 17): the same")
	fmt.Fprintln(w, "  worker shape measures 3× apart. Of the prefill-bound 8k rows without attention DP (measured TTFT over 5 s), the")
	fmt.Fprintln(w, "  MI355X MoRI TP 8 workers estimate 0.54–0.85× the measured rate (output tokens/s per GPU × GPUs ÷ OSL) and the")
	fmt.Fprintln(w, "  H100 SGLang TP 16 worker 2.6×, so that row's 8k TTFT under load comes out low.")
	fmt.Fprintln(w, "- **Memory.** DeepSeek-R1 FP8 on a 4-GPU GB200 worker with attention DP and no EP (23 rows) does not fit by the")
	fmt.Fprintln(w, "  memory estimate; the engines ran it. The estimate lays SGLang's weights out as its models do by default under")
	fmt.Fprintln(w, "  attention DP (the LM head, the three dense MLPs and the shared experts over the whole TP group, the embedding")
	fmt.Fprintln(w, "  whole on every GPU: 3.9 GiB less per GPU here), which leaves 166.0 GiB of weights per GPU against the 165.7 GiB")
	fmt.Fprintln(w, "  the 0.9 memory share allows. SGLang's own default share on a GPU this size with attention DP is lower (about")
	fmt.Fprintln(w, "  0.8: over 30 GiB reserved), so the measured runs set a larger --mem-fraction-static, which the rows do not state;")
	fmt.Fprintln(w, "  the replay does not guess it. SGLang's share also holds only the weights and the KV pool (activations and CUDA")
	fmt.Fprintln(w, "  graphs come out of the rest), where the estimate counts activations inside every pooled engine's share.")
	fmt.Fprintln(w, "- **Decode slots.** The TensorRT-LLM rows replay with their recipe's decode `max_batch_size` (`--decode-batch`,")
	fmt.Fprintln(w, "  per attention-DP rank; `inferencex/inferencex_disagg_decode_batch.csv`, 171 of 225 rows). The recipes run 5–100%")
	fmt.Fprintln(w, "  more requests than slots, so the rest wait for a slot before their first token (a whole decode at 6 in flight on")
	fmt.Fprintln(w, "  3 one-slot workers: 12.7 s measured). The estimate spreads that wait evenly over the requests (a mean); where")
	fmt.Fprintln(w, "  the router leaves some requests unqueued the measured median is lower.")
	fmt.Fprintln(w, "- **Queueing.** A steady state: Pollaczek–Khinchine waits for the prefill queue at its load against the capacity of")
	fmt.Fprintln(w, "  full batches, no first wave or drain, the KV transfer after the whole prefill (no layer-by-layer overlap), and")
	fmt.Fprintln(w, "  one fixed handover cost for every engine, plus, on SGLang, the prefill worker's handover work above and one")
	fmt.Fprintln(w, "  decode step for the decode worker's loop (it")
	fmt.Fprintln(w, "  pre-allocates the request's KV before the prefill may run and polls the finished transfer between its steps:")
	fmt.Fprintln(w, "  `decodeAdmissionSteps`). The measured means are 1.1–2.0× the medians (quartiles of the 73 fit rows that keep")
	fmt.Fprintln(w, "  both), as a closed loop's first wave of C prompts through the prefill side makes them (InferenceX sends 10 × C")
	fmt.Fprintln(w, "  requests): the simulated run sends them so, and its mean holds the wave. Against the measured means the analytic")
	fmt.Fprintln(w, "  steady state (`--steady-state`, no wave) read 58.1 / 53.8 / 50.2% fit / test / held back on the rows that keep")
	fmt.Fprintln(w, "  them, the simulated run 35.8 / 34.7 / 26.3%; its medians against the measured medians 40.8 / 37.7 / 31.0%, where")
	fmt.Fprintln(w, "  the steady state's mean read 45.2 / 48.8 / 34.5% (calibration README, hundred-twentieth round).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| by | value | n | TTFT median \\|error\\| | TTFT median error | TPOT median \\|error\\| | TPOT median error |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	vals := map[string]map[string]bool{}
	for _, by := range disaggBys {
		vals[by] = map[string]bool{}
		for _, c := range cases {
			if c.Group == disaggTTFT {
				vals[by][disaggBy(c, by)] = true
			}
		}
	}
	for _, by := range disaggBys {
		ks := keys(vals[by])
		if by == "concurrency" {
			ks = slices.DeleteFunc(slices.Clone(concBuckets), func(k string) bool { return !vals[by][k] })
		}
		for _, k := range ks {
			ta, ts, n := med(disaggTTFT, "", by, k)
			pa, ps, _ := med(disaggTPOT, "", by, k)
			fmt.Fprintf(w, "| %s | %s | %d | %.1f%% | %+.1f%% | %.1f%% | %+.1f%% |\n", by, k, n, 100*ta, 100*ts, 100*pa, 100*ps)
		}
	}
}

// disaggBys are the breakdowns of the disaggregated table: the engine,
// the GPU, the decode worker's layout (attention DP or not, MTP or not:
// the step forms the decode model prices differently) and the client's
// concurrency band (concBucket, as the aggregated breakdown's).
var disaggBys = []string{"engine", "GPU", "decode worker", "concurrency"}

// disaggBy is case c's value in breakdown by (disaggBys), read from the
// replay's own flags where the case holds no field for it.
func disaggBy(c valCase, by string) string {
	switch by {
	case "engine":
		return c.EngineID
	case "GPU":
		return c.GPU
	case "decode worker":
		v := "TP"
		if i := slices.Index(c.Args, "--decode-dp"); i >= 0 && i+1 < len(c.Args) && c.Args[i+1] != "1" {
			v = "attention DP"
		}
		if slices.Contains(c.Args, "--mtp-draft-tokens") {
			return v + ", MTP"
		}
		return v
	case "concurrency":
		return concBucket(c.Concurrency)
	}
	return ""
}

// wideEPFile is the published wide expert-parallel decode points
// (testdata/calibration/wide_ep/README.md).
const wideEPFile = "wide_ep/wide_ep_decode_points.csv"

// wideEPCases: the decode step of the published wide expert-parallel
// decode instances (the rows marked for replay: SGLang's 72-H100 EP 72
// decode with and without two-batch overlap, fit rows, and its 48-GB200
// EP 48 decode in NVFP4, a test row), replayed as `rightsize estimate
// --steady-state` of a copy of the instance's GPUs (attention DP and EP
// over every GPU, the row's redundant experts, weights and KV dtype,
// SGLang's wide-EP memory share 0.85, the published sequences a GPU at
// the published KV length: a prompt one token shorter and two output
// tokens, whose mean context is that length) against the step the
// published throughput implies. The two H100 rows fixed the overlap's
// exposed share (tboExposedShare).
func wideEPCases(dir string) ([]valCase, error) {
	rows, err := readCSV(dir, wideEPFile)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range rows {
		if r["replay"] != "yes" {
			continue
		}
		g, seqs, kv, step := num(r["decode_gpus"]), num(r["seqs_per_gpu"]), num(r["kv_len"]), num(r["step_ms"])
		if !(g >= 1 && seqs >= 1 && kv >= 2 && step > 0) || splitNames[r["split"]] == "" || r["kv_dtype"] == "" {
			return nil, fmt.Errorf("%s: %s: decode_gpus %q, seqs_per_gpu %q, kv_len %q, step_ms %q, split %q, kv_dtype %q", wideEPFile, r["id"],
				r["decode_gpus"], r["seqs_per_gpu"], r["kv_len"], r["step_ms"], r["split"], r["kv_dtype"])
		}
		args := []string{"--model", r["model"], "--gpu", r["gpu"], "--engine", r["engine"], "--precision", r["weights"],
			"--kv-dtype", r["kv_dtype"], "--tp", r["decode_gpus"], "--gpus", r["decode_gpus"], "--dp", r["attn_dp"], "--ep", r["ep"],
			"--redundant-experts", r["redundant_experts"], "--gpu-mem-util", "0.85", "--batch", itoa(int(seqs * g)),
			"--prompt-tokens", itoa(int(kv) - 1), "--output-tokens", "2", "--steady-state"}
		overlap := "without two-batch overlap"
		if r["two_batch_overlap"] == "yes" {
			args = append(args, "--two-batch-overlap")
			overlap = "two-batch overlap"
		}
		out = append(out, valCase{Group: "wide-EP decode step", Split: r["split"], Source: wideEPFile,
			Engine: "SGLang (LMSYS, " + r["published"][:min(7, len(r["published"]))] + ")",
			Setting: fmt.Sprintf("DeepSeek-V3 %s × %s, %s weights, %s KV, attention DP %s, EP %s + %s redundant experts, %s, %.0f sequences a GPU at %.0f tokens",
				r["decode_gpus"], r["gpu"], r["weights"], r["kv_dtype"], r["attn_dp"], r["ep"], r["redundant_experts"], overlap, seqs, kv),
			Args: args, Field: "performance.decode_step_seconds", Scale: 1000, Measured: step, Unit: "ms"})
	}
	return out, nil
}
