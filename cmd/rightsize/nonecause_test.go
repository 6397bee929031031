package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestNothingFitsSaysWhy: where every offer of --gpu is refused for one
// reason, the "nothing fits" line names it, and the engines that run the
// job on those GPUs with the flag that picks them. Llama 3.1 8B served
// at 2 req/s on P100s: vLLM does not start on Pascal, nor do SGLang and
// TensorRT-LLM (HF transformers and llama.cpp serving a rate are planned
// as vLLM), so no engine is offered. The same model's batch on vLLM:
// HF transformers and llama.cpp run it there, and each plans it. Rows
// refused for different reasons say the most common (TestNothingFitsCountsMixedReasons).
func TestNothingFitsSaysWhy(t *testing.T) {
	_, out, _ := runPlanArgs(t, "--model", "llama-3.1-8b", "--requests-per-second", "2", "--gpu", "p100")
	if want := "nothing fits with --gpu as given: vllm does not run on Pascal GPUs, nor does any other engine the plan serves a request rate on (sglang, trtllm); without it the cheapest plan is "; !strings.Contains(out, want) {
		t.Errorf("serving on P100s, want %q in:\n%s", want, out)
	}

	batch := []string{"--model", "llama-3.1-8b", "--requests", "1000", "--gpu", "p100"}
	_, out, _ = runPlanArgs(t, append(batch, "--engine", "vllm")...)
	if want := "nothing fits with --gpu as given: vllm does not run on Pascal GPUs; engines that run the job on them: hf, llamacpp (--engine hf or --engine llamacpp); without it the cheapest plan is "; !strings.Contains(out, want) {
		t.Errorf("batch on vLLM on P100s, want %q in:\n%s", want, out)
	}
	p := planJSONOf(t, append(batch, "--engine", "vllm")...)
	if p.NoneCause != "vllm does not run on Pascal GPUs; engines that run the job on them: hf, llamacpp" || strings.Join(p.NoneCauseEngines, ",") != "hf,llamacpp" {
		t.Errorf("JSON: %q %v", p.NoneCause, p.NoneCauseEngines)
	}
	for _, e := range p.NoneCauseEngines {
		if q := planJSONOf(t, append(batch, "--engine", e)...); q.Widened != nil || q.NoneCause != "" || len(q.Rows) == 0 {
			t.Errorf("--engine %s on P100s: %d rows, widened %v", e, len(q.Rows), q.Widened)
		}
	}

	_, out, _ = runPlanArgs(t, "--model", "llama-3.1-405b", "--requests-per-second", "2", "--gpu", "h100-sxm", "--max-instances", "1")
	if !strings.Contains(out, "nothing fits with --gpu as given: the offers are refused for different reasons, the most common first: ") {
		t.Errorf("405B on one H100 instance (rows refused for different reasons):\n%s", out)
	}
	// Every T4 offer is one, four or eight T4s on PCIe: no serving copy
	// spans them, whatever their network (fit.span_node).
	_, out, _ = runPlanArgs(t, "--model", "llama-3.1-405b", "--requests-per-second", "2", "--gpu", "t4")
	if want := "nothing fits with --gpu as given: every offer is refused for one reason, one instance does not hold it, and one serving copy is not split over instances without NVLink between their GPUs"; !strings.Contains(out, want) {
		t.Errorf("405B on T4s, want %q in:\n%s", want, out)
	}
}

// TestNothingFitsNamesTheLatencyFloor: Llama 3.1 70B at 0.2 req/s of
// 120,000-token prompts under a 2 s TTFT target (given: the default for
// such prompts is 24 s) fits no offer
// (the offers that hold it miss the target, the rest are too small): the
// "nothing fits" line and the JSON's none_cause say the shortest TTFT an
// offer reaches, where the plan printed an empty table and nothing else.
func TestNothingFitsNamesTheLatencyFloor(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--requests-per-second", "0.2", "--prompt-tokens", "120000", "--output-tokens", "1000", "--seq", "131072", "--ttft-p95", "2s"}
	want := "no offer meets the latency targets (TTFT 4.65 s at best, one prompt on an idle replica on aws p6-b300.48xlarge, against a target of 2.00 s: take a longer target or shorter prompts)"
	_, out, _ := runPlanArgs(t, args...)
	if !strings.Contains(out, "nothing fits: "+want+"\n") {
		t.Errorf("want %q in:\n%s", want, out)
	}
	if p := planJSONOf(t, args...); p.NoneCause != want || len(p.Rows) != 0 {
		t.Errorf("JSON: %d rows, none_cause %q", len(p.Rows), p.NoneCause)
	}
}

// TestNothingFitsCountsMixedReasons: a fixed GPU count no offer runs,
// each for its own reason, says the most common reasons with their counts
// on the "nothing fits" line, and --json lists them all (none_reasons),
// where it said only "nothing fits". Llama 3.1 8B pre-trained on 1,024
// H100s (no --tp): most offers name no cluster network to span 128
// instances, some need more than the 64-instance limit, some have no
// on-demand price.
func TestNothingFitsCountsMixedReasons(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "train", "--train-tokens", "1T", "--gpu", "h100-sxm", "--gpus", "1024"}
	p := planJSONOf(t, args...)
	if len(p.Rows) != 0 || len(p.NoneReasons) < 2 {
		t.Fatalf("%d rows, reasons %+v", len(p.Rows), p.NoneReasons)
	}
	keys, n := map[string]int{}, 0
	for i, r := range p.NoneReasons {
		keys[r.Key] += r.Offers
		n += r.Offers
		if i > 0 && r.Offers > p.NoneReasons[i-1].Offers {
			t.Errorf("reason %d (%d offers) after one of %d", i, r.Offers, p.NoneReasons[i-1].Offers)
		}
	}
	if n != p.Considered || keys["fit.no_fabric"] == 0 || keys["fit.too_big"] == 0 || keys["fit.no_price"] == 0 || p.NoneReasons[0].Key != "fit.no_fabric" {
		t.Errorf("%d of %d offers counted: %v", n, p.Considered, keys)
	}
	top := p.NoneReasons[0]
	want := "the offers are refused for different reasons, the most common first: " + strconv.Itoa(top.Offers) + " × " + top.Reason + "; "
	if !strings.HasPrefix(p.NoneCause, want) || strings.Count(p.NoneCause, " × ") != min(len(p.NoneReasons), 4) {
		t.Errorf("none_cause %q, want it to start %q and name at most three reasons", p.NoneCause, want)
	}
	if _, out, _ := runPlanArgs(t, args...); !strings.Contains(out, "nothing fits with --gpu as given: "+p.NoneCause+"; without it") {
		t.Errorf("want the reasons on the nothing-fits line:\n%s", out)
	}
}
