package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/catalog"
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
	hf := planJSONOf(t, append(args, "--engine", "hf", "--all", "--top", "0")...)
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

// TestEngineAutoIsOneStory: with no engine given (the CLI without
// --engine, the page's engine on auto, a link written before auto with
// no engine key), rightsize estimate, the page's memory and speed
// sections and rightsize plan's pick run the job on one engine, the
// planner's (plan.AutoEngine): vLLM for a decoder's batch on an H100, HF
// transformers on a Pascal GPU and for an encoder. An engine given is
// kept at both doors: --engine hf and e=hf (a link written by hand)
// force HF transformers for the decoder's batch. A request rate
// (--requests-per-second, the link's rps) makes the job serving at both
// doors, which the plan serves on vLLM on every GPU: on a Pascal GPU too,
// where it then finds nothing and says vLLM does not run there (the
// estimate without the rate ran HF there while the page said vLLM).
func TestEngineAutoIsOneStory(t *testing.T) {
	for _, c := range []struct {
		args []string
		link string
		want estimator.Engine
		why  string // the page's reason on auto ("": an engine given)
		rate string // the request rate of a serving job ("": a batch job)
	}{
		{[]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm"}, "m=llama-3.1-8b&g=h100-sxm", estimator.VLLM, "batch inference planned on vLLM", ""},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "auto"}, "m=llama-3.1-8b&g=h100-sxm&e=auto", estimator.VLLM, "batch inference planned on vLLM", ""},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "p100"}, "m=llama-3.1-8b&g=p100", estimator.HF, "vLLM does not run on Pascal GPUs", ""},
		{[]string{"--model", "bert-base-uncased", "--gpu", "h100-sxm", "--seq", "512"}, "m=bert-base-uncased&g=h100-sxm&s=512&out=0", estimator.HF, "the model generates no tokens", ""},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "hf"}, "m=llama-3.1-8b&g=h100-sxm&e=hf", estimator.HF, "", ""},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "p100"}, "m=llama-3.1-8b&g=p100&rps=5", estimator.VLLM, "continuous batching", "5"},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "t4"}, "m=llama-3.1-8b&g=t4&rps=5", estimator.VLLM, "continuous batching", "5"},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm"}, "m=llama-3.1-8b&g=h100-sxm&rps=5", estimator.VLLM, "continuous batching", "5"},
	} {
		workload := []string{"--requests", "100000"}
		if c.rate != "" {
			c.args = append(c.args, "--requests-per-second", c.rate)
			workload = nil
		}
		code, out, errs := runEst(t, append(c.args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		var est struct {
			Engine string `json:"engine"`
		}
		if err := json.Unmarshal([]byte(out), &est); err != nil {
			t.Fatal(err)
		}
		j, _, _, ok := page.ParseJob(page.ParseFragment(c.link, page.DefaultState), catalog.Default(), page.Archs{}, nil, "")
		if !ok {
			t.Fatalf("%s: the page refuses the job", c.link)
		}
		if est.Engine != c.want.String() || j.In.Engine != c.want {
			t.Errorf("%v: rightsize estimate runs %q, the page (%s) %v; want %v", c.args, est.Engine, c.link, j.In.Engine, c.want)
		}
		setup, why := page.SetupLine(page.Locale{Lang: "en"}, j), page.EngineWhy(page.Locale{Lang: "en"}, j)
		if !strings.Contains(setup, " · "+c.want.Label()+" · ") || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("%s: the speed section says %q and the memory section's engine %q, want %s and %q", c.link, setup, why, c.want.Label(), c.why)
		}
		for _, lang := range []string{"ru", "zh"} {
			if why := page.EngineWhy(page.Locale{Lang: lang}, j); (why == "") != (c.why == "") || strings.Contains(why, c.why) && c.why != "" {
				t.Errorf("%s in %s: the engine's reason %q", c.link, lang, why)
			}
		}
		// The plan's pick at the same GPU runs the same engine; where
		// nothing runs, the plan names that engine as the cause.
		p := planJSONOf(t, append(append(c.args, workload...), "--kind", "any")...)
		if len(p.Rows) == 0 {
			if !strings.HasPrefix(p.NoneCause, c.want.String()+" does not run") {
				t.Errorf("%v: rightsize plan finds nothing and says %q, want %v named", c.args, p.NoneCause, c.want)
			}
		} else if r := cheapest(t, p); r.Engine != c.want.String() {
			t.Errorf("%v: rightsize plan's pick %s runs %q, want %v", c.args, r.OfferID, r.Engine, c.want)
		}
	}
}

// TestCompileResolvedOnce: --compile is read by the one parser
// (page.ParseInput), which resolves the auto engine once with it: HF
// transformers with torch.compile stays on HF (plan.AutoEngine), where
// the engine resolved without it would be vLLM.
func TestCompileResolvedOnce(t *testing.T) {
	code, out, errs := runEst(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--compile", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var est struct {
		Engine string `json:"engine"`
	}
	if err := json.Unmarshal([]byte(out), &est); err != nil {
		t.Fatal(err)
	}
	if est.Engine != estimator.HF.String() || strings.Contains(errs, "vllm") {
		t.Errorf("--compile on auto runs %q (notes %q), want %v", est.Engine, errs, estimator.HF)
	}
	var text page.JobText
	for f, v := range map[jobspec.Field]string{jobspec.Model: "llama-3.1-8b", jobspec.GPU: "h100-sxm", jobspec.Compile: "1"} {
		text.Text[f], text.Read[f], text.Set[f] = v, true, true
	}
	j, perrs := page.ParseInput(&text, estimator.Arch{}, catalog.Default())
	if len(perrs) > 0 || !j.EngineOpen || !j.In.Compiled || j.In.Engine != estimator.HF {
		t.Errorf("ParseInput with --compile: engine %v (open %v), compiled %v, %v; want HF compiled on auto", j.In.Engine, j.EngineOpen, j.In.Compiled, perrs)
	}
}

// TestGemmaBatchOnTuringStaysOnVLLM: vLLM refuses fp16 for Gemma 2 and
// runs it in fp32 on a T4; the batch stays on vLLM at fp32, its launch
// writes --dtype float32, and the row says why. It was planned on HF
// transformers in fp16 ("vLLM has no bf16 kernel on Turing GPUs"), the
// precision vLLM refuses for the model's numerics, not for a kernel.
func TestGemmaBatchOnTuringStaysOnVLLM(t *testing.T) {
	args := []string{"--model", "gemma-2-9b", "--requests", "10000", "--gpu", "t4"}
	r := cheapest(t, planJSONOf(t, args...))
	if r.Engine != "vllm" || r.Weights != "fp32" {
		t.Errorf("%s planned on %q with %q weights, want vllm fp32", r.OfferID, r.Engine, r.Weights)
	}
	if want := "vLLM refuses fp16 for gemma2 models (numerical instability): on Turing GPUs it runs fp32 weights, its KV cache in fp32"; !slices.Contains(r.Notes, want) {
		t.Errorf("notes %q, want %q", r.Notes, want)
	}
	code, out, errs := runPlanArgs(t, append(args, "--emit", "vllm")...)
	if code != 0 || !strings.Contains(out, "--dtype float32") {
		t.Errorf("exit %d %s: no --dtype float32 in\n%s", code, errs, out)
	}
}

// TestFP8BatchOnAmpereRunsVLLM: vLLM runs fp8 weights on an A100 (FP8
// Marlin, weight-only) where HF transformers' fine-grained FP8 needs
// compute capability 8.9, so the batch runs on vLLM in fp8: it was planned
// on HF transformers in bf16, saying "vLLM has no fp8 kernel on Ampere
// GPUs", the wrong engine's limit.
func TestFP8BatchOnAmpereRunsVLLM(t *testing.T) {
	r := cheapest(t, planJSONOf(t, "--model", "llama-3.1-8b", "--requests", "10000", "--gpu", "a100-80gb", "--precision", "fp8", "--kind", "any"))
	if r.Engine != "vllm" || r.Weights != "fp8" {
		t.Errorf("%s planned on %q with %q weights, want vllm fp8", r.OfferID, r.Engine, r.Weights)
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "kernel") {
			t.Errorf("note %q", n)
		}
	}
}

// TestGemmaQuantisedOnTuring: vLLM's int4 kernels take fp16 or bf16
// activations and vLLM refuses fp16 for Gemma 2, so on a T4 an int4
// Gemma 2 does not start on vLLM: the serving plan runs fp32 weights from
// the unquantised checkpoint and says so (it launched the int4 model,
// which stops at start-up), and the batch runs on HF transformers in int4
// with the reason named (it said vLLM had no int4 kernel there).
func TestGemmaQuantisedOnTuring(t *testing.T) {
	args := []string{"--model", "gemma-2-9b", "--requests-per-second", "1", "--gpu", "t4", "--precision", "int4"}
	r := cheapest(t, planJSONOf(t, args...))
	if r.Engine != "vllm" || r.Weights != "fp32" {
		t.Errorf("%s served on %q with %q weights, want vllm fp32", r.OfferID, r.Engine, r.Weights)
	}
	const note = "vLLM does not run int4 gemma2 models on Turing GPUs: its kernels for them take fp16 or bf16 activations, and it refuses fp16 for the model (numerical instability) where the GPU has no bf16; planned at fp32 weights from the unquantised checkpoint, its KV cache in fp32 (SGLang runs the quantised model in fp16 from Turing on; an Ampere or newer GPU runs it on vLLM)"
	if !slices.Contains(r.Notes, note) {
		t.Errorf("notes %q, want %q", r.Notes, note)
	}
	code, out, errs := runPlanArgs(t, append(args, "--emit", "vllm")...)
	if code != 0 || !strings.Contains(out, "--dtype float32") || strings.Contains(out, "--quantization") {
		t.Errorf("exit %d %s: want --dtype float32 and no --quantization in\n%s", code, errs, out)
	}
	b := cheapest(t, planJSONOf(t, "--model", "gemma-2-9b", "--requests", "10000", "--gpu", "t4", "--precision", "int4"))
	const hf = "planned on HF transformers: vLLM does not run int4 gemma2 models on Turing GPUs (its kernels take fp16 or bf16 activations, and it refuses fp16 for the model)"
	if b.Engine != "hf" || b.Weights != "int4" || !slices.Contains(b.Notes, hf) {
		t.Errorf("batch %s on %q with %q weights, notes %q; want hf int4 and %q", b.OfferID, b.Engine, b.Weights, b.Notes, hf)
	}
}
