package main

import (
	"slices"
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
		"sglang mi355x fp8 before": false, "sglang mi355x fp8 after": true, "vllm b200 fp4": true} {
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

// TestInferenceXDisaggRecipeKV: every dynamo-trt and mori-sglang
// disaggregated row stores FP8 KV, dynamo-sglang on Blackwell from the
// srt-slurm recipes on (GB200 from 2026-01-27), H100/H200 never.
func TestInferenceXDisaggRecipeKV(t *testing.T) {
	rows, err := readCSV(calDir, inferencexDisaggFile)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rows {
		args, why := disaggArgs(r, 0)
		if why != "" {
			continue
		}
		want := r["framework"] != "dynamo-sglang"
		switch r["hardware"] {
		case "b200", "b300", "gb300":
			want = want || r["framework"] == "dynamo-sglang"
		case "gb200":
			want = want || r["run_date"] >= "2026-01-27"
		}
		if hasFP8KV(args) != want {
			t.Errorf("%s %s %s: FP8 KV %v, want %v", r["framework"], r["hardware"], r["run_date"], hasFP8KV(args), want)
		}
		seen[r["framework"]+" "+map[bool]string{true: "fp8", false: "bf16"}[want]]++
	}
	for _, k := range []string{"dynamo-trt fp8", "mori-sglang fp8", "dynamo-sglang fp8", "dynamo-sglang bf16"} {
		if seen[k] == 0 {
			t.Errorf("no %s rows", k)
		}
	}
	t.Log(seen)
}
