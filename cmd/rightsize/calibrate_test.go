package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const calFixtures = "../../estimator/sim/testdata/calibrate/"

// calibrate fits the measured vLLM runs (gpt-oss-120b on 4 B200,
// InferenceX) better than the estimator's own factors, writes a file that
// estimate, plan and simulate apply, and the estimate then carries the
// fitted factors.
func TestCalibrateFixture(t *testing.T) {
	dir := t.TempDir()
	calFile := filepath.Join(dir, "cal.json")
	out, errs, code := runCLI("calibrate", "--gpu", "b200", "--engine", "vllm", "--model", "gpt-oss-120b", "--precision", "fp4", "--tp", "4",
		"--json", "--out", calFile, calFixtures+"vllm_gptoss120b_b200_tp4.jsonl")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	var got calibrateJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("before %+v error %.3f; after %+v error %.3f; %d simulations; at bound %v", got.Before, got.ErrBefore, got.After, got.ErrAfter, got.Simulations, got.AtBound)
	if got.Format != "vllm" || len(got.Runs) != 5 || got.Calibration.GPU != "b200" || got.Calibration.Engine.String() != "vllm" {
		t.Fatalf("%+v", got)
	}
	if !(got.ErrAfter < got.ErrBefore) || got.Simulations > 600 {
		t.Errorf("error %.3f -> %.3f in %d simulations", got.ErrBefore, got.ErrAfter, got.Simulations)
	}
	if !strings.HasPrefix(got.Link, "b200,vllm,") {
		t.Errorf("link %q", got.Link)
	}
	// The table says the same.
	table, _, code := runCLI("calibrate", "--gpu", "b200", "--engine", "vllm", "--model", "gpt-oss-120b", "--precision", "fp4", "--tp", "4",
		calFixtures+"vllm_gptoss120b_b200_tp4.jsonl")
	if code != 0 || !strings.Contains(table, "prefill MFU") || !strings.Contains(table, "686.7 ms") {
		t.Errorf("table:\n%s", table)
	}

	// estimate applies it: the GPU and engine come from the file.
	out, errs, code = runCLI("estimate", "--model", "gpt-oss-120b", "--precision", "fp4", "--tp", "4", "--batch", "64",
		"--prompt-tokens", "1024", "--output-tokens", "1024", "--calibration", calFile, "--json")
	if code != 0 {
		t.Fatalf("estimate: %s", errs)
	}
	var est struct {
		Engine      string `json:"engine"`
		Performance struct {
			ComputeEfficiency float64 `json:"compute_efficiency"`
			BandwidthUtil     float64 `json:"bandwidth_util"`
			Serving           struct {
				RequestSeconds float64 `json:"request_overhead_seconds"`
			} `json:"serving"`
		} `json:"performance"`
	}
	if err := json.Unmarshal([]byte(out), &est); err != nil {
		t.Fatal(err)
	}
	p := est.Performance
	if est.Engine != "vllm" || p.ComputeEfficiency != got.After.InferenceMFU || p.BandwidthUtil != got.After.BandwidthUtil ||
		p.Serving.RequestSeconds != got.After.RequestSeconds {
		t.Errorf("estimate with the calibration: %+v, want %+v", est, got.After)
	}
	// plan and simulate take it too.
	if _, errs, code := runCLI("plan", "--model", "gpt-oss-120b", "--precision", "fp4", "--requests-per-second", "5",
		"--prompt-tokens", "1024", "--output-tokens", "1024", "--calibration", calFile, "--format", "json"); code != 0 {
		t.Errorf("plan: %s", errs)
	}
	if _, errs, code := runCLI("simulate", "--model", "gpt-oss-120b", "--precision", "fp4", "--tp", "4", "--concurrencies", "1,8",
		"--prompt-tokens", "1024", "--output-tokens", "1024", "--calibration", calFile); code != 0 {
		t.Errorf("simulate: %s", errs)
	}
	// Another GPU or engine is a one-line error.
	for _, args := range [][]string{{"--gpu", "h100-sxm"}, {"--engine", "sglang"}} {
		_, errs, code := runCLI(append([]string{"estimate", "--model", "gpt-oss-120b", "--precision", "fp4", "--calibration", calFile}, args...)...)
		if code != 2 || !strings.Contains(errs, "fitted for b200 on vllm") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: code %d, %q", args, code, errs)
		}
	}
}

// Every layout runs through calibrate; what a file lacks comes from the
// flags, and bad files are one-line errors that say what was expected.
func TestCalibrateFiles(t *testing.T) {
	base := []string{"calibrate", "--gpu", "h100-sxm", "--engine", "vllm", "--model", "llama-3.1-8b"}
	for _, f := range []string{"plain.csv", "genai-perf-concurrency1/profile_export_genai_perf.csv"} {
		if _, errs, code := runCLI(append(base, calFixtures+f)...); code != 0 {
			t.Errorf("%s: %s", f, errs)
		}
	}
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	genai, err := os.ReadFile(calFixtures + "genai-perf-concurrency1/profile_export_genai_perf.csv")
	if err != nil {
		t.Fatal(err)
	}
	noConc := write("profile_export_genai_perf.csv", string(genai))
	noLen := write("nolen.csv", "concurrency,ttft_ms,tpot_ms\n4,80,9\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "need the benchmark result FILE"},
		{[]string{"--json"}, "need the benchmark result FILE"},
		{[]string{filepath.Join(dir, "missing.json")}, "no such file"},
		{[]string{write("x.json", `{"hello": "world"}`)}, "vllm bench serve"},
		{[]string{write("e.csv", "")}, "empty"},
		{[]string{noConc}, "--concurrency"},
		{[]string{noLen}, "--prompt-tokens"},
		{[]string{"--engine", "hf", noLen}, "vllm, sglang or trtllm"},
	} {
		args := append(append([]string{}, base...), c.args...)
		_, errs, code := runCLI(args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: code %d, %q; want %q", c.args, code, errs, c.want)
		}
	}
	// Flags may follow FILE; a second FILE is an error.
	if out, errs, code := runCLI(append(base, noLen, "--prompt-tokens", "512", "--output-tokens", "128", "--json")...); code != 0 || !strings.HasPrefix(out, "{") {
		t.Errorf("flags after FILE: %d %s", code, errs)
	}
	if _, errs, code := runCLI(append(base, noLen, noLen)...); code != 2 || !strings.Contains(errs, "one benchmark FILE") {
		t.Errorf("two files: %d %s", code, errs)
	}
	// With the flags the same files fit.
	if _, errs, code := runCLI(append(base, "--concurrency", "1", noConc)...); code != 0 {
		t.Errorf("genai-perf with --concurrency: %s", errs)
	}
	if _, errs, code := runCLI(append(base, "--prompt-tokens", "512", "--output-tokens", "128", noLen)...); code != 0 {
		t.Errorf("plain CSV with lengths: %s", errs)
	}
	if _, errs, code := runCLI("calibrate", "--gpu", "b200", "--engine", "sglang", "--model", "deepseek-r1", "--precision", "fp4", "--tp", "8", "--ep", "8",
		calFixtures+"sglang_dsr1_b200_tp8.jsonl"); code != 0 {
		t.Errorf("sglang: %s", errs)
	}
}
