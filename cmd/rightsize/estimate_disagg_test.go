package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

var disaggArgsR1 = []string{"--model", "deepseek-r1", "--gpu", "h200-sxm", "--engine", "sglang", "--precision", "fp8", "--disagg",
	"--prefill-workers", "1", "--prefill-tp", "8", "--decode-workers", "2", "--decode-tp", "8", "--decode-dp", "8", "--decode-ep", "8",
	"--concurrency", "256", "--prompt-tokens", "1024", "--output-tokens", "1024"}

// disaggSteadyR1 is disaggArgsR1's analytic steady state (--steady-state).
var disaggSteadyR1 = append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--steady-state")

// TestEstimateDisagg: the steady state's performance block, its usual
// fields and the per-side ones, consistent with each other (TTFT is the sum of its parts, no
// decode step among them: the first token streams when the request joins
// the decode batch; the client's lengths average 0.9 × the given ones:
// 922 prompt tokens of DeepSeek-R1's 70,272 KV bytes each = 64,790,784
// bytes).
func TestEstimateDisagg(t *testing.T) {
	p := perfOf(estJSON(t, disaggSteadyR1...))
	d, _ := p["disaggregated"].(map[string]any)
	if d == nil {
		t.Fatalf("no performance.disaggregated: %v", p)
	}
	f := func(m map[string]any, k string) float64 {
		v, ok := m[k].(float64)
		if !ok || !(v >= 0) || math.IsInf(v, 0) {
			t.Fatalf("%s = %v", k, m[k])
		}
		return v
	}
	ttft, tpot, tps := f(p, "time_to_first_token_seconds"), f(p, "decode_token_latency_seconds"), f(p, "tokens_per_second")
	parts := f(d, "request_overhead_seconds") + f(d, "queue_seconds") + f(d, "prefill_seconds") + f(d, "prefill_handover_seconds") + f(d, "kv_transfer_seconds")
	if math.Abs(parts-ttft) > 1e-9 {
		t.Errorf("TTFT %v, its parts %v", ttft, parts)
	}
	if f(d, "kv_transfer_bytes") != 64_790_784 {
		t.Errorf("KV bytes %v, want 64,790,784", d["kv_transfer_bytes"])
	}
	if tpot != f(d, "decode_step_seconds") || tps != f(d, "decode_tokens_per_second") || f(d, "gpus") != 24 {
		t.Errorf("TPOT %v step %v; tokens/s %v decode %v; GPUs %v", tpot, d["decode_step_seconds"], tps, d["decode_tokens_per_second"], d["gpus"])
	}
	// Little's law over the client's 256 requests (921 tokens after the first).
	if got := f(d, "requests_per_second") * (ttft + 921*tpot); math.Abs(got/256-1) > 1e-6 {
		t.Errorf("λ × cycle = %v, want 256", got)
	}
	for _, k := range []string{"prefill_prompts_per_second_capacity", "prefill_utilization", "decode_batch", "decode_requests_per_second_capacity"} {
		if f(d, k) <= 0 {
			t.Errorf("%s = %v", k, d[k])
		}
	}
	// SGLang's prefill worker spends 15 ms of its own on each prompt's
	// handover; --prefill-handover sets another figure.
	if h := f(d, "prefill_handover_seconds") / f(d, "prefill_batch"); math.Abs(h-0.015) > 1e-9 {
		t.Errorf("handover work %v s a prompt, want SGLang's 0.015", h)
	}
	q := perfOf(estJSON(t, append(disaggSteadyR1[:len(disaggSteadyR1):len(disaggSteadyR1)], "--prefill-handover", "0.05")...))
	qd, _ := q["disaggregated"].(map[string]any)
	if h := f(qd, "prefill_handover_seconds") / f(qd, "prefill_batch"); math.Abs(h-0.05) > 1e-9 || !(f(q, "time_to_first_token_seconds") > ttft) ||
		!(f(qd, "prefill_prompts_per_second_capacity") < f(d, "prefill_prompts_per_second_capacity")) {
		t.Errorf("--prefill-handover 0.05: %v s a prompt, TTFT %v against %v, capacity %v against %v", h, q["time_to_first_token_seconds"], ttft,
			qd["prefill_prompts_per_second_capacity"], d["prefill_prompts_per_second_capacity"])
	}
	code, out, errs := runEst(t, disaggSteadyR1...)
	if code != 0 || !strings.Contains(out, "disaggregated replica (estimate): 1 prefill × 8 GPUs + 2 decode × 8 GPUs = 24 GPUs") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
}

// TestEstimateDisaggErrors: each misuse gets one line naming the flag.
func TestEstimateDisaggErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "deepseek-r1", "--gpu", "h200-sxm", "--prefill-tp", "8"}, "--prefill-tp: only with --disagg"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--tp", "8"), "--tp: with --disagg each side has its own"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--decode-dp", "3"), "decode-dp"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--prefill-workers", "0"), "prefill-workers"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--decode-tp", "1", "--decode-dp", "1", "--decode-ep", "1"), "decode-tp"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--kv-transfer-gbps", "NaN"), "--kv-transfer-gbps"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--prefill-handover", "-0.01"), "--prefill-handover"},
		{[]string{"--model", "deepseek-r1", "--gpu", "h200-sxm", "--prefill-handover", "0.01"}, "--prefill-handover: only with --disagg"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--engine", "hf"), "the disaggregated engines are"},
		{[]string{"--model", "deepseek-r1", "--disagg", "--prefill-tp", "8", "--decode-tp", "8", "--output-tokens", "10", "--prompt-tokens", "10"}, "needs --gpu"},
	} {
		code, out, errs := runEst(t, c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 with %q", c.args, code, out, errs, c.want)
		}
	}
}

// FuzzDisaggFlags: any value of the --disagg flags gives exit 0 with
// finite figures, or exit 2 with one line on stderr; never a panic.
func FuzzDisaggFlags(f *testing.F) {
	f.Add("1", "8", "1", "1", "0", "2", "8", "8", "8", "0", "64", "0", "0", "")
	f.Add("0", "-8", "x", "3", "-1", "1e9", "NaN", "", "16", "9", "0", "-1", "Inf", "-1")
	f.Add("3", "4", "4", "4", "2", "1", "16", "16", "16", "64", "4096", "3200", "0.05", "0.02")
	f.Fuzz(func(t *testing.T, pw, ptp, pdp, pep, pb, dw, dtp, ddp, dep, db, conc, gbps, lat, handover string) {
		args := []string{"--model", "qwen2.5-0.5b", "--gpu", "h100-sxm", "--engine", "vllm", "--disagg", "--prompt-tokens", "512",
			"--output-tokens", "64", "--json"}
		for _, kv := range [][2]string{{"prefill-workers", pw}, {"prefill-tp", ptp}, {"prefill-dp", pdp}, {"prefill-ep", pep},
			{"prefill-batch", pb}, {"decode-workers", dw}, {"decode-tp", dtp}, {"decode-dp", ddp}, {"decode-ep", dep}, {"decode-batch", db},
			{"concurrency", conc}, {"kv-transfer-gbps", gbps}, {"kv-transfer-latency", lat}, {"prefill-handover", handover}} {
			if kv[1] != "" {
				args = append(args, "--"+kv[0], kv[1])
			}
		}
		code, out, errs := runEst(t, args...)
		switch code {
		case 0:
			if errs != "" || strings.Contains(out, "NaN") || strings.Contains(out, "Inf") || !strings.Contains(out, "\"disaggregated\"") {
				t.Fatalf("exit 0 with stdout %q stderr %q", out, errs)
			}
		case 2:
			if strings.Count(errs, "\n") != 1 || out != "" {
				t.Fatalf("exit 2 with stdout %q stderr %q", out, errs)
			}
		default:
			t.Fatalf("exit %d", code)
		}
	})
}

// TestDisaggTRTPrefillBudget: a TensorRT-LLM prefill worker with attention
// DP runs one scheduler and max_num_tokens budget (8192) per rank, so one
// forward of a TP 4 DP 4 worker takes 4 × 8192 / 922 = 35 of the client's
// 922-token prompts, not the 8 of one budget; SGLang divides its one
// chunked_prefill_size over the ranks (16,384 on a B200: 17 prompts at
// any DP).
func TestDisaggTRTPrefillBudget(t *testing.T) {
	capacity := func(engine, dp string, extra ...string) float64 {
		t.Helper()
		args := append([]string{"--model", "deepseek-r1", "--gpu", "b200", "--engine", engine, "--precision", "fp4", "--disagg",
			"--prefill-workers", "1", "--prefill-tp", "4", "--prefill-dp", dp, "--prefill-ep", "4", "--decode-workers", "1", "--decode-tp", "8",
			"--decode-ep", "8", "--concurrency", "64", "--prompt-tokens", "1024", "--output-tokens", "1024"}, extra...)
		d, _ := perfOf(estJSON(t, args...))["disaggregated"].(map[string]any)
		v, _ := d["prefill_prompts_per_second_capacity"].(float64)
		if !(v > 0) {
			t.Fatalf("%v: prefill capacity %v", args, d["prefill_prompts_per_second_capacity"])
		}
		return v
	}
	same := func(what string, a, b float64) {
		t.Helper()
		if math.Abs(a/b-1) > 1e-9 {
			t.Errorf("%s: %.6g, want %.6g", what, a, b)
		}
	}
	same("trtllm DP 4 default", capacity("trtllm", "4"), capacity("trtllm", "4", "--prefill-batch", "35"))
	same("trtllm DP 1 default", capacity("trtllm", "1"), capacity("trtllm", "1", "--prefill-batch", "8"))
	same("sglang DP 4 default", capacity("sglang", "4"), capacity("sglang", "4", "--prefill-batch", "17"))
	// Compute-bound already at 8 prompts, the larger forward gains the
	// per-forward costs: 72.5 against 66.7 prompts/s.
	if a, b := capacity("trtllm", "4"), capacity("trtllm", "4", "--prefill-batch", "8"); !(a > 1.05*b) {
		t.Errorf("trtllm DP 4: capacity %.4g prompts/s at the default, %.4g at one rank's budget: want the 4 ranks' budgets above", a, b)
	}
}

// TestEstimateDisaggSimulate: by default (and with --simulate) the
// estimate reports a simulated run of 10 × the concurrency requests in
// the usual fields (the run's means), its medians and p99 under
// performance.disaggregated and its percentiles under performance.serving
// at the aggregated estimate's names, beside the steady state's figures;
// --steady-state reports the steady state, marked so and without them. A
// run too large to simulate falls back to the steady state with a
// warning, unless --simulate asked for the run.
func TestEstimateDisaggSimulate(t *testing.T) {
	steadyOut := estJSON(t, disaggSteadyR1...)
	steady := perfOf(steadyOut)
	if d := steady["disaggregated"].(map[string]any); d["simulated"] != false || d["ttft_p50_seconds"] != nil || steady["serving"] != nil {
		t.Errorf("steady state: simulated %v, ttft_p50 %v, serving %v; want false, absent, absent", d["simulated"], d["ttft_p50_seconds"], steady["serving"])
	}
	def := perfOf(estJSON(t, disaggArgsR1...))
	p := perfOf(estJSON(t, append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate")...))
	if def["time_to_first_token_seconds"] != p["time_to_first_token_seconds"] || def["decode_token_latency_seconds"] != p["decode_token_latency_seconds"] {
		t.Errorf("default TTFT %v TPOT %v, --simulate %v %v: want the one run", def["time_to_first_token_seconds"], def["decode_token_latency_seconds"],
			p["time_to_first_token_seconds"], p["decode_token_latency_seconds"])
	}
	d := p["disaggregated"].(map[string]any)
	num := func(m map[string]any, k string) float64 {
		v, ok := m[k].(float64)
		if !ok || !(v > 0) || math.IsInf(v, 0) {
			t.Fatalf("%s = %v", k, m[k])
		}
		return v
	}
	if d["simulated"] != true || num(d, "simulated_requests") != 2560 {
		t.Fatalf("simulated %v, requests %v; want true, 2560", d["simulated"], d["simulated_requests"])
	}
	ttft, p50, p99 := num(p, "time_to_first_token_seconds"), num(d, "ttft_p50_seconds"), num(d, "ttft_p99_seconds")
	tpot, tp50 := num(p, "decode_token_latency_seconds"), num(d, "tpot_p50_seconds")
	// The first wave (256 prompts at once on one prefill worker) waits
	// seconds: the mean above the median, the p99 well above both.
	if !(p50 < ttft && ttft < p99 && p99 > 3*p50) {
		t.Errorf("TTFT mean %v, median %v, p99 %v", ttft, p50, p99)
	}
	// Decoding is the same step model: TPOT within a few per cent of
	// the steady state's.
	if st := steady["decode_token_latency_seconds"].(float64); math.Abs(tpot/st-1) > 0.05 || math.Abs(tp50/st-1) > 0.05 {
		t.Errorf("simulated TPOT %v (median %v), steady state %v", tpot, tp50, st)
	}
	if got := num(p, "tokens_per_second"); math.Abs(got/num(d, "decode_tokens_per_second")-1) > 1e-12 {
		t.Errorf("tokens/s %v, decode tokens/s %v", got, d["decode_tokens_per_second"])
	}
	// performance.serving: the same run's percentiles, in order, at the
	// aggregated estimate's paths, and the steady state's figures.
	sv, _ := p["serving"].(map[string]any)
	if sv == nil {
		t.Fatalf("no performance.serving: %v", p)
	}
	if num(sv, "time_to_first_token_p50_seconds") != p50 || num(sv, "time_to_first_token_p99_seconds") != p99 ||
		num(sv, "decode_token_latency_p50_seconds") != tp50 || num(sv, "requests") != 2560 || num(sv, "concurrency") != 256 {
		t.Errorf("serving %v against disaggregated %v", sv, d)
	}
	for _, q := range [][]string{{"time_to_first_token_p50_seconds", "time_to_first_token_p90_seconds", "time_to_first_token_p95_seconds",
		"time_to_first_token_p99_seconds"}, {"decode_token_latency_p50_seconds", "decode_token_latency_p90_seconds",
		"decode_token_latency_p95_seconds", "decode_token_latency_p99_seconds"}} {
		for i := 1; i < len(q); i++ {
			if !(num(sv, q[i-1]) <= num(sv, q[i])) {
				t.Errorf("%s %v above %s %v", q[i-1], sv[q[i-1]], q[i], sv[q[i]])
			}
		}
	}
	if num(sv, "closed_form_time_to_first_token_seconds") != num(steady, "time_to_first_token_seconds") ||
		num(sv, "closed_form_decode_token_latency_seconds") != num(steady, "decode_token_latency_seconds") ||
		!(num(sv, "e2e_latency_seconds") > ttft+900*tpot) || !(num(sv, "e2e_latency_p99_seconds") >= num(sv, "e2e_latency_seconds")) {
		t.Errorf("serving %v against the steady state %v", sv, steady)
	}
	// Too large a run to simulate: the steady state, with a warning.
	big := estJSON(t, append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--concurrency", "1000000")...)
	if bd := perfOf(big)["disaggregated"].(map[string]any); bd["simulated"] != false || !strings.Contains(fmt.Sprint(big["warnings"]), "steady state") {
		t.Errorf("10 × 1,000,000 requests: simulated %v, warnings %v; want the steady state, said so", bd["simulated"], big["warnings"])
	}
	few := perfOf(estJSON(t, append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate", "--num-requests", "300")...))
	if n := few["disaggregated"].(map[string]any)["simulated_requests"]; n != 300.0 {
		t.Errorf("--num-requests 300: %v requests", n)
	}
	code, out, errs := runEst(t, append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate")...)
	if code != 0 || !strings.Contains(out, "(simulated, 2560 requests)") || !strings.Contains(out, "median") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "deepseek-r1", "--gpu", "h200-sxm", "--simulate"}, "--simulate: only with --disagg"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate", "--num-requests", "-1"), "num-requests"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate", "--concurrency", "1000000"), "num-requests"},
		{append(disaggArgsR1[:len(disaggArgsR1):len(disaggArgsR1)], "--simulate", "--steady-state"), "give one"},
	} {
		code, out, errs := runEst(t, c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 with %q", c.args, code, out, errs, c.want)
		}
	}
}
