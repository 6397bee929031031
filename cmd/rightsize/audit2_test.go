package main

import (
	"strings"
	"testing"
)

// TestEncoderEstimateHasNoDecodeRate: an encoder answers in one forward
// pass; the estimate says so instead of 1/1e-12 tokens/s per request.
func TestEncoderEstimateHasNoDecodeRate(t *testing.T) {
	code, out, errs := runEst(t, "--model", "bert-base-uncased", "--gpu", "t4", "--seq", "512")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "tokens/s per request") || !strings.Contains(out, "one forward pass per request: ") {
		t.Errorf("encoder estimate:\n%s", out)
	}
}

// TestNoOfferIsNotNothingFits: a GPU with no offer in the catalog (Gaudi
// 2) leaves no offer to consider: the widened line says no offer
// matches, not that nothing fits, which reads as a model too big for it.
func TestNoOfferIsNotNothingFits(t *testing.T) {
	code, out, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--engine", "vllm", "--requests-per-second", "1", "--gpu", "gaudi2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "0 offers considered") || !strings.Contains(out, "no offer matches with --gpu as given; without it the cheapest plan is ") {
		t.Errorf("gaudi2 plan:\n%s", out)
	}
}
