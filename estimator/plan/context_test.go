package plan_test

import (
	"math"
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
