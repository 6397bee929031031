package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/sim"
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

// A benchmark file with figures no real run has is refused at once, in
// one line naming the figure (it ran 229 s and wrote a calibration at
// every bound); so are flags beyond the same bounds. A successful run
// keeps stdout to its JSON and stderr empty when stderr is not a
// terminal.
func TestCalibrateBounds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	huge := write("huge.json", `{"backend":"vllm","max_concurrency":1048576,"num_prompts":1048576,"request_rate":"inf","completed":1048576,`+
		`"random_input_len":16777216,"random_output_len":16777216,"random_range_ratio":1,"median_ttft_ms":1000,"median_tpot_ms":20,"output_throughput":1000}`)
	noLen := write("nolen.csv", "concurrency,ttft_ms,tpot_ms\n4,80,9\n")
	base := []string{"calibrate", "--gpu", "h100-sxm", "--engine", "vllm", "--model", "llama-3.1-8b"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{huge}, "concurrency 1048576: want 1..4096 requests in flight"},
		{[]string{write("len.json", `{"max_concurrency":8,"random_input_len":16777216,"random_output_len":16777216,"median_ttft_ms":1000,"median_tpot_ms":20}`)},
			"lengths 16777216 + 16777216 tokens: want at most 10485760"},
		{[]string{write("rr.json", `{"max_concurrency":8,"random_input_len":1024,"random_output_len":128,"random_range_ratio":5,"median_ttft_ms":100,"median_tpot_ms":10}`)},
			"random_range_ratio 5: want a share in [0, 1]"},
		{[]string{write("tiny.csv", "concurrency,ttft_ms,tpot_ms,prompt_tokens,output_tokens\n4,1e-150,9,1024,128\n")}, "time to first token 1e-153 s"},
		{[]string{"--concurrency", "1048576", noLen}, "--concurrency 1048576: want 1..4096"},
		{[]string{"--batch", "0", noLen}, "--batch 0: want 1..4096"},
		{[]string{"--prompt-tokens", "16777216", "--output-tokens", "16777216", noLen}, "want lengths ≥ 0, at most 10485760 tokens together"},
	} {
		start := time.Now()
		out, errs, code := runCLI(append(append([]string{}, base...), c.args...)...)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v: took %v", c.args, took)
		}
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want one line with %q", c.args, code, out, errs, c.want)
		}
	}
	out, errs, code := runCLI(append(base, "--json", "--prompt-tokens", "1024", "--output-tokens", "128", noLen)...)
	if code != 0 || errs != "" || !json.Valid([]byte(out)) {
		t.Errorf("code %d, stderr %q, stdout valid JSON %v", code, errs, json.Valid([]byte(out)))
	}
}

// The progress line: nothing in the first second, then "calibrating…
// n/N" redrawn at most every 100 ms over the previous one, cleared at
// the end; off for a writer that is not a terminal.
func TestCalibrateProgress(t *testing.T) {
	var b strings.Builder
	t0 := time.Unix(1000, 0)
	now := t0
	p := &progress{w: &b, now: func() time.Time { return now }, start: t0}
	for _, s := range []struct {
		at   time.Duration
		done int
		want string
	}{
		{500 * time.Millisecond, 5, ""},
		{1100 * time.Millisecond, 9, "\rcalibrating… 9/600"},
		{1150 * time.Millisecond, 10, ""},
		{1300 * time.Millisecond, 120, "\rcalibrating… 120/600"},
		{1500 * time.Millisecond, 7, "\rcalibrating… 7/600  "},
	} {
		b.Reset()
		now = t0.Add(s.at)
		p.update(s.done, 600)
		if b.String() != s.want {
			t.Errorf("at %v: %q, want %q", s.at, b.String(), s.want)
		}
	}
	b.Reset()
	p.end()
	if want := "\r" + strings.Repeat(" ", utf8.RuneCountInString("calibrating… 120/600")) + "\r"; b.String() != want {
		t.Errorf("end: %q, want %q", b.String(), want)
	}
	var buf bytes.Buffer
	off := newProgress(&buf)
	off.start = time.Time{} // long ago
	off.update(1, 600)
	off.end()
	if buf.Len() != 0 {
		t.Errorf("not a terminal: %q", buf.String())
	}
}

// sim.MaxBenchmarkTokens, the longest benchmark request calibrate reads,
// is the longest context a catalog model declares: a catalog model with
// a longer one needs the bound raised.
func TestBenchmarkBoundsCoverCatalog(t *testing.T) {
	longest, name := 0, ""
	for _, m := range catalog.Default().Models {
		a, err := estimator.ParseConfig([]byte(m.Config))
		if err != nil {
			t.Fatalf("%s: %v", m.ID, err)
		}
		if a.MaxPositions > longest {
			longest, name = a.MaxPositions, m.ID
		}
	}
	if longest != sim.MaxBenchmarkTokens {
		t.Errorf("the longest catalog context is %d tokens (%s); sim.MaxBenchmarkTokens is %d", longest, name, sim.MaxBenchmarkTokens)
	}
}
