package main

import (
	"slices"
	"strconv"
	"testing"
)

const calDir = "../../estimator/testdata/calibration"

// hasFP8KV reports whether args plan an FP8 KV cache.
func hasFP8KV(args []string) bool {
	i := slices.Index(args, "--kv-dtype")
	return i >= 0 && i+1 < len(args) && args[i+1] == "fp8"
}

// TestInferenceXRecipeKV: the aggregated replays store the KV cache as
// the recipe that ran each row did (recipeFP8KV): every TensorRT-LLM row
// and every SGLang row on B200/B300 in FP8, SGLang on H200 in bf16, and
// the AMD rows from the day their recipe turned FP8 on (MI300X and MI325X
// 2026-01-23, MI355X FP4 2025-12-16, MI355X FP8 2026-03-05).
func TestInferenceXRecipeKV(t *testing.T) {
	rows, err := readCSV(calDir, "inferencex/inferencex_serving_points.csv")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string][2]int{} // key → rows, rows with FP8 KV
	for _, r := range rows {
		args, ok := inferencexArgs(r)
		if !ok {
			continue
		}
		k := r["framework"] + " " + r["hardware"] + " " + r["precision"]
		switch r["hardware"] {
		case "mi300x", "mi325x", "mi355x":
			if (r["hardware"] == "mi355x" && r["precision"] == "fp4" && r["run_date"] >= "2025-12-16") ||
				(r["hardware"] == "mi355x" && r["precision"] == "fp8" && r["run_date"] >= "2026-03-05") ||
				(r["hardware"] != "mi355x" && r["run_date"] >= "2026-01-23") {
				k += " after"
			} else {
				k += " before"
			}
		}
		c := count[k]
		c[0]++
		if hasFP8KV(args) {
			c[1]++
		}
		count[k] = c
	}
	for k, want := range map[string]bool{"trt b200 fp4": true, "trt b200 fp8": true, "trt h200 fp8": true, "sglang b200 fp4": true,
		"sglang b300 fp8": true, "sglang h200 fp8": false, "sglang mi300x fp8 before": false, "sglang mi300x fp8 after": true,
		"sglang mi325x fp8 after": true, "sglang mi355x fp4 before": false, "sglang mi355x fp4 after": true,
		"sglang mi355x fp8 before": false, "sglang mi355x fp8 after": true} {
		c := count[k]
		if c[0] == 0 {
			t.Errorf("%s: no rows", k)
			continue
		}
		if n := map[bool]int{true: c[0], false: 0}[want]; c[1] != n {
			t.Errorf("%s: %d of %d rows plan an FP8 KV cache, want %d", k, c[1], c[0], n)
		}
	}
}

// TestInferenceXBranchLengths: the development-branch rows' client drew
// lengths from [0, nominal] (vendor.py), so the SGLang rows replay with
// --range-ratio 0.001 (the estimate's 0 is fixed lengths) and the vLLM
// gpt-oss-120b rows, whose outputs ended at end-of-sequence (148–184
// tokens a request of 512 drawn), are not replayed; no dashboard row
// changes the estimate's default spread.
func TestInferenceXBranchLengths(t *testing.T) {
	rows, err := readCSV(calDir, "inferencex/inferencex_serving_points.csv")
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, r := range rows {
		args, ok := inferencexArgs(r)
		i := slices.Index(args, "--range-ratio")
		switch {
		case r["source"] == "branch" && r["framework"] == "vllm":
			if ok {
				t.Errorf("vLLM branch row conc %s (%s output tokens a request) replayed", r["conc"], r["output_tokens_per_request"])
			}
			n["vllm"]++
		case r["source"] == "branch":
			if !ok || i < 0 || args[i+1] != "0.001" {
				t.Errorf("SGLang branch row conc %s: %v, want --range-ratio 0.001", r["conc"], args)
			}
			n["sglang"]++
		case ok && i >= 0:
			t.Errorf("dashboard row %s %s conc %s sets %v", r["hardware"], r["framework"], r["conc"], args[i:])
		}
	}
	if n["vllm"] != 5 || n["sglang"] != 8 {
		t.Errorf("branch rows: %v, want 5 vLLM and 8 SGLang", n)
	}
	for _, c := range []struct {
		ratio, osl, out string
		want            bool
	}{
		{"0", "1024", "169", true}, {"0", "1024", "469", false}, {"", "1024", "700", true}, {"", "1024", "900", false},
		{"0", "1024", "", false},
	} {
		r := map[string]string{"range_ratio": c.ratio, "osl": c.osl, "output_tokens_per_request": c.out}
		if got := endedAtEOS(r); got != c.want {
			t.Errorf("endedAtEOS(%v) = %v, want %v", r, got, c.want)
		}
	}
}

// TestInferenceXDisaggRecipeKV: every dynamo-trt and mori-sglang
// disaggregated row stores FP8 KV, dynamo-sglang on Blackwell from the
// srt-slurm recipes on (GB200 from 2026-01-27, and FP4 before them:
// Dynamo's gb200-fp4.sh), H100/H200 never. The GB200 Dynamo-SGLang rows
// before 2026-01-27 run their attention-DP workers' experts over all the
// worker's GPUs with 32 redundant experts (dynamoSlurmJobs).
func TestInferenceXDisaggRecipeKV(t *testing.T) {
	rows, err := readCSV(calDir, inferencexDisaggFile)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rows {
		args, why := disaggArgs(r, nil, 0, 0)
		if why != "" {
			continue
		}
		want := r["framework"] != "dynamo-sglang"
		switch r["hardware"] {
		case "b200", "b300", "gb300":
			want = want || r["framework"] == "dynamo-sglang"
		case "gb200":
			want = want || r["run_date"] >= "2026-01-27" || r["framework"] == "dynamo-sglang" && r["precision"] == "fp4"
		}
		if hasFP8KV(args) != want {
			t.Errorf("%s %s %s: FP8 KV %v, want %v", r["framework"], r["hardware"], r["run_date"], hasFP8KV(args), want)
		}
		// MoRI's attention-DP decode workers capture graphs to 160 a rank
		// (moriDPDecodeGraphMaxBS) since amd_utils/models.yaml; no other
		// row passes a cap.
		g := slices.Index(args, "--cuda-graph-max-bs")
		wantCap := r["framework"] == "mori-sglang" && r["decode_dp_attention"] == "true" && r["run_date"] >= "2026-02-19"
		if (g >= 0) != wantCap || g >= 0 && args[g+1] != "160" {
			t.Errorf("%s %s %s DP %s: graph cap %v, want %v at 160", r["framework"], r["hardware"], r["run_date"], r["decode_dp_attention"], g >= 0, wantCap)
		}
		if wantCap {
			seen["graph cap"]++
		}
		if r["framework"] == "dynamo-sglang" && r["hardware"] == "gb200" && r["run_date"] < "2026-01-27" && r["decode_dp_attention"] == "true" {
			if tp := argValue(args, "--decode-tp"); argValue(args, "--decode-ep") != tp || argValue(args, "--decode-redundant-experts") != "32" {
				t.Errorf("%s %s: decode TP %s EP %s, %s redundant experts; want EP = TP and 32", r["framework"], r["run_date"], tp,
					argValue(args, "--decode-ep"), argValue(args, "--decode-redundant-experts"))
			}
			seen["slurm_jobs"]++
		}
		seen[r["framework"]+" "+map[bool]string{true: "fp8", false: "bf16"}[want]]++
	}
	for _, k := range []string{"dynamo-trt fp8", "mori-sglang fp8", "dynamo-sglang fp8", "dynamo-sglang bf16", "slurm_jobs", "graph cap"} {
		if seen[k] == 0 {
			t.Errorf("no %s rows", k)
		}
	}
	t.Log(seen)
}

// TestRecipePrefillBatch: the prefill worker's prompts a forward under
// the recipe's settings, each attention-DP rank scheduling its own.
// SGLang GB200 DEP 8 at 8k (chunked-prefill-size 131,072 over 8 ranks,
// max-prefill-tokens at its 16,384 default): 2 a rank, 16; the same with
// max-running-requests 24 (3 a rank): 16; SGLang H100 TP 16 with a
// 2,048-token chunk: one prompt, chunked; TensorRT-LLM B200 FP8 at 8k
// (max_num_tokens 8,320, max_batch_size 1, 8 ranks): 8; at 1k
// (16,384 and 16): 16 a rank, 128; no settings: 0.
func TestRecipePrefillBatch(t *testing.T) {
	for _, c := range []struct {
		fw   string
		p    map[string]string
		isl  int
		want int
	}{
		{"dynamo-sglang", map[string]string{"chunked_prefill_size": "131072", "dp_size": "8", "max_running_requests": "30000"}, 8192, 16},
		{"mori-sglang", map[string]string{"chunked_prefill_size": "131072", "dp_size": "8", "max_running_requests": "24"}, 8192, 16},
		{"mori-sglang", map[string]string{"chunked_prefill_size": "131072", "dp_size": "8", "max_running_requests": "8"}, 8192, 8},
		{"dynamo-sglang", map[string]string{"chunked_prefill_size": "2048", "max_prefill_tokens": "2048", "dp_size": "1"}, 8192, 1},
		{"dynamo-sglang", map[string]string{"chunked_prefill_size": "65536", "max_prefill_tokens": "8192", "dp_size": "8"}, 8192, 8},
		{"dynamo-trt", map[string]string{"max_num_tokens": "8320", "max_batch_size": "1", "dp_size": "8"}, 8192, 8},
		{"dynamo-trt", map[string]string{"max_num_tokens": "16384", "max_batch_size": "16", "dp_size": "8"}, 1024, 128},
		{"dynamo-trt", map[string]string{}, 1024, 0},
	} {
		if got := recipePrefillBatch(c.p, c.fw, c.isl); got != c.want {
			t.Errorf("%s %v at %d: %d prompts, want %d", c.fw, c.p, c.isl, got, c.want)
		}
	}
	rows, err := readCSV(calDir, inferencexPrefillFile)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		isl, _ := strconv.Atoi(r["isl"])
		if recipePrefillBatch(r, r["framework"], isl) > 0 {
			n++
		}
	}
	if n < 400 {
		t.Errorf("%d of %d recipe rows give a prefill batch, want ≥ 400", n, len(rows))
	}
}

// TestDecodeSlots: a decode worker's slots under its recipe. TensorRT-LLM
// with attention DP over 8 GPUs at max_batch_size 16 (the recipe's own
// value, over the 8 its file name says): 128; without DP, the name's 64
// where the recipe was not read; SGLang's max-running-requests 512 for the
// worker (B200 FP8 1P/5D at 4,096 in flight); no setting: 0.
func TestDecodeSlots(t *testing.T) {
	trtDP := map[string]string{"framework": "dynamo-trt", "decode_dp_attention": "true", "gpus_per_decode_worker": "8"}
	trtTP := map[string]string{"framework": "dynamo-trt", "decode_dp_attention": "false", "gpus_per_decode_worker": "8"}
	sgl := map[string]string{"framework": "dynamo-sglang", "decode_dp_attention": "true", "gpus_per_decode_worker": "8"}
	for _, c := range []struct {
		r, p  map[string]string
		named int
		want  int
	}{
		{trtDP, map[string]string{"decode_max_batch_size": "16"}, 8, 128},
		{trtTP, nil, 64, 64},
		{sgl, map[string]string{"decode_max_running_requests": "512"}, 0, 512},
		{sgl, map[string]string{}, 0, 0},
	} {
		if got := decodeSlots(c.r, c.p, c.named); got != c.want {
			t.Errorf("%v %v named %d: %d slots, want %d", c.r, c.p, c.named, got, c.want)
		}
	}
}
