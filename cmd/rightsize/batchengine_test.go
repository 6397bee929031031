package main

import (
	"math"
	"testing"

	"rightsize/app/page"
	"rightsize/estimator"
)

// TestBatchEngineIsTheLaunchs: a decoder's batch job with no engine given
// is planned on vLLM, the engine rightsize plan --emit launches, by both
// doors: the CLI's cheapest pick and the page's are one offer, at one
// time and cost, on vLLM. An engine given is kept: --engine hf prices HF
// transformers' static batches, slower on the same offer.
func TestBatchEngineIsTheLaunchs(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--requests", "1000000", "--prompt-tokens", "1536", "--output-tokens", "512"}
	cli := cheapest(t, planJSONOf(t, args...))
	if cli.Engine != "vllm" {
		t.Fatalf("no --engine: the cheapest %s is planned on %q, want vllm", cli.OfferID, cli.Engine)
	}
	web, err := page.LinkPlan("m=llama-3.1-8b&req=1000000&out=512", nil)
	if err != nil {
		t.Fatal(err)
	}
	var pick *page.Pick
	for k := range web.Picks {
		if web.Picks[k].Kind == page.PickCheapest {
			pick = &web.Picks[k]
		}
	}
	if pick == nil {
		t.Fatal("the page has no cheapest pick")
	}
	if pick.Offer.ID != cli.OfferID || pick.Engine != estimator.VLLM || math.Abs(pick.Seconds/3600-cli.JobHours) > 1e-9*cli.JobHours {
		t.Errorf("page: %s on %s, %.4f h; CLI: %s on %s, %.4f h", pick.Offer.ID, pick.Engine, pick.Seconds/3600, cli.OfferID, cli.Engine, cli.JobHours)
	}
	// The user's engine is kept, and prices HF's slower batches on the
	// same offer.
	hf := planJSONOf(t, append(args, "--engine", "hf", "--all")...)
	seen := false
	for _, r := range hf.Rows {
		if r.OfferID == cli.OfferID && r.Instances == cli.Instances {
			seen = true
			if r.Engine != "hf" || !(r.JobHours > 1.5*cli.JobHours) {
				t.Errorf("--engine hf on %s: %q, %.2f h; vLLM %.2f h", r.OfferID, r.Engine, r.JobHours, cli.JobHours)
			}
		}
	}
	if !seen {
		t.Errorf("--engine hf: no row of %s × %d", cli.OfferID, cli.Instances)
	}
}

// TestBatchEngineKeepsHFWhereVLLMDoesNot: where vLLM does not run the job
// (Pascal GPUs; INT8 weights on AMD, which vLLM has no kernel for) and
// for a model that generates no tokens (BERT), the batch is planned on HF
// transformers, and the plan says why.
func TestBatchEngineKeepsHFWhereVLLMDoesNot(t *testing.T) {
	for _, c := range []struct {
		args []string
		note string
	}{
		{[]string{"--model", "llama-3.1-8b", "--requests", "10000", "--gpu", "p100", "--kind", "any"}, "planned on HF transformers: vLLM does not run on Pascal GPUs"},
		{[]string{"--model", "llama-3.1-8b", "--requests", "10000", "--gpu", "mi300x", "--precision", "int8", "--kind", "any"}, "planned on HF transformers: vLLM has no int8 kernel on CDNA3 GPUs"},
		{[]string{"--model", "bert-base-uncased", "--requests", "100000", "--seq", "512"}, ""},
	} {
		p := planJSONOf(t, c.args...)
		r := cheapest(t, p)
		if r.Engine != "hf" {
			t.Errorf("%v: %s planned on %q, want hf", c.args, r.OfferID, r.Engine)
		}
		found := false
		for _, n := range r.Notes {
			found = found || n == c.note
		}
		for _, n := range p.Notes {
			found = found || c.note == "" && n == "the model generates no tokens (an encoder or a fixed-input model): its batch is planned on HF transformers"
		}
		if !found {
			t.Errorf("%v: no note %q in %q / %q", c.args, c.note, r.Notes, p.Notes)
		}
	}
}
