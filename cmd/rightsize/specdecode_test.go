package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEstimateSpeculativeDecoding: rightsize estimate takes the MTP drafts
// without --disagg. DeepSeek-R1 FP8 on 8 × H200 under SGLang at 32 in
// flight: two drafts yield DeepSeek-R1's measured 2.58 tokens a step, the
// draft-and-verify step is that many times the per-token figure's step,
// the simulated TPOT falls, and the text says where the acceptance comes
// from; --mtp-acceptance replaces it; a model without an MTP module, and
// an acceptance of 1, are refused on their flag; the plan's
// --emit writes the engine's speculative flags.
func TestEstimateSpeculativeDecoding(t *testing.T) {
	args := []string{"estimate", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "h200-sxm", "--engine", "sglang",
		"--tp", "8", "--gpus", "8", "--batch", "32", "--prompt-tokens", "1024", "--output-tokens", "1024", "--num-requests", "96"}
	type perf struct {
		TPOT     float64 `json:"decode_token_latency_seconds"`
		Step     float64 `json:"decode_step_seconds"`
		Accepted float64 `json:"mtp_accepted_tokens_per_step"`
	}
	get := func(extra ...string) perf {
		t.Helper()
		out, errOut, code := runCLI(append(append(append([]string(nil), args...), extra...), "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errOut)
		}
		var j struct {
			Perf perf `json:"performance"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		return j.Perf
	}
	plain, two, flat := get(), get("--mtp-draft-tokens", "2"), get("--mtp-draft-tokens", "2", "--mtp-acceptance", "0.5")
	if plain.Accepted != 0 || two.Accepted != 2.58 || flat.Accepted != 1.75 {
		t.Errorf("accepted tokens a step: %g without drafts, %g with two, %g at 0.5; want 0, 2.58, 1.75", plain.Accepted, two.Accepted, flat.Accepted)
	}
	if !(two.TPOT < 0.8*plain.TPOT) || !(flat.TPOT > two.TPOT) {
		t.Errorf("TPOT %g s without drafts, %g s with two, %g s at 0.5 acceptance", plain.TPOT, two.TPOT, flat.TPOT)
	}
	if !(two.Step > plain.Step) {
		t.Errorf("the draft-and-verify step %g s is not longer than the plain step %g s", two.Step, plain.Step)
	}
	text, _, _ := runCLI(append(append([]string(nil), args...), "--mtp-draft-tokens", "2")...)
	if !strings.Contains(text, "speculative decoding with the MTP module: draft tokens a step 2, tokens accepted a step 2.58 (DeepSeek-R1's measured acceptance by draft position") {
		t.Errorf("text:\n%s", text)
	}
	sim, _, _ := runCLI("simulate", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "h200-sxm", "--engine", "sglang",
		"--tp", "8", "--gpus", "8", "--batch", "8", "--prompt-tokens", "1024", "--output-tokens", "1024", "--mtp-draft-tokens", "2")
	if !strings.Contains(sim, "speculative decoding with the MTP module: draft tokens a step 2, tokens accepted a step 2.58") {
		t.Errorf("simulate:\n%s", sim)
	}
	emit, _, code := runCLI("plan", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "h200-sxm", "--engine", "sglang",
		"--requests-per-second", "5", "--prompt-tokens", "1024", "--output-tokens", "1024", "--mtp-draft-tokens", "2", "--emit", "sglang")
	if code != 0 || !strings.Contains(emit, "--speculative-num-steps 2") || !strings.Contains(emit, "SGLANG_ENABLE_SPEC_V2=1") ||
		!strings.Contains(emit, "--max-running-requests") {
		t.Errorf("--emit sglang (exit %d):\n%s", code, emit)
	}
	for _, c := range [][]string{
		{"estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--mtp-draft-tokens", "1"},
		{"estimate", "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "h200-sxm", "--engine", "sglang", "--tp", "8", "--gpus", "8",
			"--mtp-draft-tokens", "1", "--mtp-acceptance", "1"},
	} {
		_, errOut, code := runCLI(c...)
		if code == 0 || !strings.Contains(errOut, "mtp-") {
			t.Errorf("%v: exit %d, %q", c, code, errOut)
		}
	}
}
