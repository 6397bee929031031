package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// For serving engines estimate reports the simulated closed-loop
// benchmark at --batch in flight: the means in the stable fields, the
// percentiles under performance.serving, and --concurrency is --batch.
func TestEstimateServingSimulated(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--prompt-tokens", "2000", "--output-tokens", "300", "--json"}
	get := func(extra ...string) map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runEstimate(append(append([]string{}, args...), extra...), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		p, _ := m["performance"].(map[string]any)
		if p == nil {
			t.Fatal("no performance")
		}
		return p
	}
	p := get("--batch", "32")
	s, _ := p["serving"].(map[string]any)
	if s == nil {
		t.Fatal("no serving block")
	}
	ttft, tpot := p["time_to_first_token_seconds"].(float64), p["decode_token_latency_seconds"].(float64)
	if !(ttft > s["request_overhead_seconds"].(float64)) || !(s["time_to_first_token_p99_seconds"].(float64) >= s["time_to_first_token_p50_seconds"].(float64)) ||
		!(tpot > 0) || s["requests"].(float64) != 320 || s["concurrency"].(float64) != 32 {
		t.Errorf("serving figures %v, TTFT %v, TPOT %v", s, ttft, tpot)
	}
	if q := get("--concurrency", "32"); q["time_to_first_token_seconds"] != p["time_to_first_token_seconds"] {
		t.Errorf("--concurrency 32 gives TTFT %v, --batch 32 %v", q["time_to_first_token_seconds"], ttft)
	}
	// Under load the first token waits for other prompts.
	if lone := get("--batch", "1"); !(lone["time_to_first_token_seconds"].(float64) < ttft) {
		t.Errorf("TTFT at 1 in flight %v not below 32's %v", lone["time_to_first_token_seconds"], ttft)
	}
	// p90 ≤ p95 ≤ p99, and no first wave unless asked for.
	if p90, p95, p99 := s["time_to_first_token_p90_seconds"].(float64), s["time_to_first_token_p95_seconds"].(float64),
		s["time_to_first_token_p99_seconds"].(float64); !(p90 <= p95 && p95 <= p99) || s["first_wave_seconds"] != nil ||
		!(s["decode_token_latency_p95_seconds"].(float64) > 0) {
		t.Errorf("percentiles %v %v %v, first wave %v", p90, p95, p99, s["first_wave_seconds"])
	}
	// A cold first wave of 0.5 s: the mean TTFT rises by 0.5 × 32/320
	// s, the median not at all.
	cold := get("--batch", "32", "--first-wave-seconds", "0.5")
	cs := cold["serving"].(map[string]any)
	if d := cold["time_to_first_token_seconds"].(float64) - ttft; d < 0.049 || d > 0.051 || cs["first_wave_seconds"] != 0.5 ||
		math.Abs(cs["time_to_first_token_p50_seconds"].(float64)-s["time_to_first_token_p50_seconds"].(float64)) > 1e-9 {
		t.Errorf("first wave 0.5 s: mean TTFT +%v s, serving %v", d, cs)
	}
	// --steady-state keeps the closed form.
	if ss := get("--batch", "32", "--steady-state"); ss["serving"] != nil || ss["time_to_first_token_seconds"].(float64) != s["closed_form_time_to_first_token_seconds"].(float64) {
		t.Errorf("--steady-state: %v", ss)
	}
	// The replay's form: TP 8 without --gpus is one 8-GPU replica.
	var out, errb bytes.Buffer
	if code := runEstimate([]string{"--model", "deepseek-r1", "--gpu", "b200", "--engine", "sglang", "--precision", "fp4", "--tp", "8", "--dp", "1",
		"--ep", "8", "--batch", "64", "--prompt-tokens", "1024", "--output-tokens", "1024", "--json"}, &out, &errb); code != 0 {
		t.Errorf("replay form: exit %d: %s", code, errb.String())
	}
}

func TestSimulateCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--prompt-tokens", "2000",
		"--output-tokens", "300", "--concurrencies", "1,32", "--slo-ttft", "0.5", "--slo-tpot", "0.03", "--rate", "40"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"1 in flight", "32 in flight", "saturation:", "at 40 requests/s:", "replicas meet the SLO"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	errb.Reset()
	if code := run([]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "hf"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "continuous batching") {
		t.Errorf("hf: exit %d, %q", code, errb.String())
	}
}

// TestSimulateSLOStat: --slo-stat names the statistic --rate sizes on.
// Llama 3.1 8B under vLLM on an A100 80GB, 12 req/s of 1,000 + 200
// tokens, TTFT 300 ms: measured when written, 2 replicas at the mean, 3 at
// p95, 4 at p99. A bad value is a one-line error.
func TestSimulateSLOStat(t *testing.T) {
	n := map[string]int{}
	for _, s := range []string{"mean", "p95", "p99"} {
		var out, errb bytes.Buffer
		code := run([]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--engine", "vllm", "--prompt-tokens", "1000",
			"--output-tokens", "200", "--rates", "1", "--slo-ttft", "0.3", "--rate", "12", "--slo-stat", s, "--format", "json"}, &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", s, code, errb.String())
		}
		var r struct {
			Sizing struct {
				Replicas int  `json:"replicas"`
				Meets    bool `json:"meets"`
			} `json:"sizing"`
			SLOStat string `json:"slo_stat"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.SLOStat != s || !r.Sizing.Meets {
			t.Fatalf("%s: %v, slo_stat %q, meets %v", s, err, r.SLOStat, r.Sizing.Meets)
		}
		n[s] = r.Sizing.Replicas
	}
	if n["mean"] >= n["p95"] || n["p95"] >= n["p99"] {
		t.Errorf("replicas at mean/p95/p99: %d/%d/%d", n["mean"], n["p95"], n["p99"])
	}
	var out, errb bytes.Buffer
	if code := run([]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--engine", "vllm", "--rate", "12", "--slo-stat", "p97"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "slo-stat") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("p97: exit %d, %q", code, errb.String())
	}
}
