package plan_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestMistral7BV01SlidingWindow: Mistral 7B v0.1 attends over the last
// 4,096 tokens in every layer (sliding_window 4096 in its config.json; the
// Mistral 7B paper, arXiv 2310.06825, Table 1), so a 30,500-token request
// keeps 4,096 tokens of KV cache per layer, and one replica serves about
// twice the long requests v0.3 (the same shapes, no window) does. The
// catalog's config had lost the window with MLC's own key for it, and
// planned v0.1's long prompts at v0.3's cost.
func TestMistral7BV01SlidingWindow(t *testing.T) {
	v01, v03 := modelInput(t, "mistral-7b-v0.1"), modelInput(t, "mistral-7b-v0.3")
	if a := v01.Arch; a.SlidingWindow != 4096 || a.SlidingLayers != 32 {
		t.Fatalf("mistral-7b-v0.1: window %d over %d layers, want 4096 over 32", a.SlidingWindow, a.SlidingLayers)
	}
	if a := v03.Arch; a.SlidingWindow != 0 {
		t.Fatalf("mistral-7b-v0.3: window %d, want none", a.SlidingWindow)
	}
	// HF transformers keeps each sequence's cache: 8 sequences × 4,096
	// tokens × 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 bytes = 4 GiB
	// for v0.1; 8 × 30,500 tokens × 128 KiB = 29.8 GiB for v0.3.
	kv := func(in estimator.Input) estimator.Bytes {
		in.Engine, in.Task, in.Batch, in.Seq, in.VRAM = estimator.HF, estimator.Inference, 8, 30500, 141*estimator.GiB
		res, err := estimator.Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		return res.PerGPU.KVCache
	}
	if got := kv(v01); got != 4*estimator.GiB {
		t.Errorf("mistral-7b-v0.1: KV cache %v bytes for 8 × 30,500 tokens, want 4 GiB (4,096 tokens a layer)", got)
	}
	if got, want := float64(kv(v03)), 8*30500*131072.0; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("mistral-7b-v0.3: KV cache %v bytes, want %v", got, want)
	}
	// One H100 serving 30,000-token prompts: v0.1's bounded cache holds
	// more requests at once, so each replica sustains more of them.
	o := gpuOffer(t, "h100-sxm", 1, estimator.BF16)
	w := plan.Workload{RequestsPerSecond: 1, PromptTokens: 30000, OutputTokens: 500}
	r01, r03 := serveOne(t, v01, o, w, false), serveOne(t, v03, o, w, false)
	if !r01.Fits || !r03.Fits {
		t.Fatalf("fits: v0.1 %v (%v), v0.3 %v (%v)", r01.Fits, r01.FitReason, r03.Fits, r03.FitReason)
	}
	if ratio := r01.SustainableRPSPerReplica / r03.SustainableRPSPerReplica; ratio < 1.5 {
		t.Errorf("requests/s a replica: v0.1 %.3g, v0.3 %.3g (%.2f×), want v0.1 at 1.5× or more", r01.SustainableRPSPerReplica, r03.SustainableRPSPerReplica, ratio)
	}
}

// TestPastCardContextNote: Mistral NeMo's card gives 128k tokens of
// context ("a large context window of up to 128k tokens", the catalog's
// 128,000) while its config.json declares 1,024,000 positions, which vLLM
// takes as --max-model-len: a 200,500-token request is served and
// planned, with a note that the card claims nothing past 128,000; a
// 100,500-token one, and Llama 3.1 8B's within its 131,072 (card and
// config agree), get none.
func TestPastCardContextNote(t *testing.T) {
	nemo, llama := modelInput(t, "mistral-nemo-12b"), modelInput(t, "llama-3.1-8b")
	if nemo.Arch.CardContext != 128000 || nemo.Arch.ServeContext() != 1024000 {
		t.Fatalf("mistral-nemo-12b: card context %d, served %d; want 128000 and 1024000", nemo.Arch.CardContext, nemo.Arch.ServeContext())
	}
	if llama.Arch.CardContext != 0 {
		t.Fatalf("llama-3.1-8b: card context %d, want 0 (card and config both 131,072)", llama.Arch.CardContext)
	}
	o := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	note := func(in estimator.Input, prompt int) (plan.Reason, bool) {
		t.Helper()
		w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 0.1, PromptTokens: prompt, OutputTokens: 500}
		res, err := plan.Plan(plan.Request{Input: in, Workload: w}, []plan.Offer{o}, plan.Options{KeepUnfit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Notes {
			if n.Key == plan.MsgNotePastCardContext {
				return n, true
			}
		}
		return plan.Reason{}, false
	}
	n, ok := note(nemo, 200000)
	if !ok {
		t.Fatal("mistral-nemo-12b, 200,500-token requests: no note.past_card_context")
	}
	if len(n.Args) != 3 || n.Args[0] != 200500 || n.Args[1] != 128000 || n.Args[2] != 1024000 {
		t.Errorf("note args %v, want [200500 128000 1024000]", n.Args)
	}
	if want := "a request of 200,500 tokens is past the 128,000-token context the model card gives"; !strings.HasPrefix(n.String(), want) {
		t.Errorf("note reads %q", n.String())
	}
	if _, ok := note(nemo, 100000); ok {
		t.Error("mistral-nemo-12b, 100,500-token requests: note.past_card_context within the card's 128,000")
	}
	if _, ok := note(llama, 120000); ok {
		t.Error("llama-3.1-8b, 120,500-token requests: note.past_card_context within its 131,072")
	}
}

// TestGGUFServingRefused: a GGUF format (llama.cpp's) served at a rate is
// refused up front, naming the --quant field and what runs instead; it
// was planned on vLLM, which the estimator does not run GGUF on, and
// every offer failed as if the model did not fit. A batch job of the same
// format still plans (on llama.cpp).
func TestGGUFServingRefused(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Quant, in.Weights, in.Engine = estimator.QuantQ4KM, estimator.INT4, estimator.LlamaCpp // as the CLI and the page set a GGUF job
	o := gpuOffer(t, "h100-sxm", 1, estimator.INT4)
	_, err := plan.Plan(plan.Request{Input: in, EngineOpen: true, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 2, PromptTokens: 1000, OutputTokens: 200}}, []plan.Offer{o}, plan.Options{})
	var ie *estimator.InputError
	if !errors.As(err, &ie) || ie.Field != "quant" || ie.Value != "q4_k_m" || !errors.Is(err, estimator.ErrIncompatible) || !strings.Contains(ie.Reason, "--precision int4") {
		t.Fatalf("Q4_K_M at 2 req/s: error %v (%+v), want the quant field refused with --precision int4 named", err, ie)
	}
	res, err := plan.Plan(plan.Request{Input: in, EngineOpen: true, Workload: plan.Workload{Kind: plan.Batch, Requests: 1000, PromptTokens: 1000, OutputTokens: 200}}, []plan.Offer{o}, plan.Options{})
	if err != nil || res.Cheapest < 0 || res.Rows[res.Cheapest].Engine != estimator.LlamaCpp {
		t.Fatalf("Q4_K_M batch: error %v, cheapest %d", err, res.Cheapest)
	}
}
