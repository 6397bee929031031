package main

import (
	"encoding/json"
	"io"
	"slices"
	"testing"

	"rightsize/app/page"
	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// A fine-tune named by a Lightning precision plans LitGPT's scripts with
// their defaults at both doors, one story: the command line and the page's
// link for the same job take the same defaults, say them (stack_defaults;
// the page's job), and size the same memory. An HF (bf16) job takes none, and a field given
// wins.
func TestLitGPTDefaultsAreOneStory(t *testing.T) {
	for _, c := range []struct {
		args  []string
		link  string
		flags []string // nil: no stack defaults
		peak  float64  // GB, peak allocated
	}{
		// Llama 2 7B LoRA on 2 A100 40GB at Lit-GPT's longest Alpaca
		// example: 16 // 2 // 1 = 8 micro-batches a step under no_sync, so
		// FSDP1 holds the frozen Block weights' gradient whole (22.18 GB
		// printed by Lit-GPT's resource table at 128 sequences a step, rank 8);
		// LitGPT's attention adds one recomputed Block's fused qkv output,
		// which V's view keeps (2 × 4096 × 2 B a token: 0.02 GB); the
		// root unit's gathered embedding and head stand beside the
		// rank's own shard of them (fsdpRootBytes).
		{[]string{"--model", "llama-2-7b", "--task", "lora", "--precision", "bf16-true", "--gpu", "a100-40gb-sxm", "--gpus", "2", "--batch", "1", "--seq", "1304"},
			"m=llama-2-7b&t=lora&p=bf16-true&g=a100-40gb-sxm&n=2&b=1&s=1304",
			[]string{"--global-batch 16", "--zero 3", "--grad-checkpointing", "--loss-chunks 11", "--keeps-last-graph", "--litgpt-attention", "--optimizer-impl foreach", "--lora-rank 8", "--lora-targets query-value", "--lora-fused-qkv", "--adapter-dtype bf16"}, 21.99},
		// Targets given are the user's, at both doors: q, k, v and o
		// keep one more dropped copy (the attention output's, 4096 × 3 B
		// a token a layer) and 2·8 more A·x, and k's and o's adapters.
		{[]string{"--model", "llama-2-7b", "--task", "lora", "--precision", "bf16-true", "--gpu", "a100-40gb-sxm", "--gpus", "2", "--batch", "1", "--seq", "1304", "--lora-targets", "attention"},
			"m=llama-2-7b&t=lora&p=bf16-true&g=a100-40gb-sxm&n=2&b=1&s=1304&lt=attention",
			[]string{"--global-batch 16", "--zero 3", "--grad-checkpointing", "--loss-chunks 11", "--keeps-last-graph", "--litgpt-attention", "--optimizer-impl foreach", "--lora-rank 8", "--lora-fused-qkv", "--adapter-dtype bf16"}, 22.03},
		// A rank given is the user's, at both doors.
		{[]string{"--model", "llama-2-7b", "--task", "lora", "--precision", "bf16-true", "--gpu", "a100-40gb-sxm", "--gpus", "2", "--batch", "1", "--seq", "1304", "--lora-rank", "16"},
			"m=llama-2-7b&t=lora&p=bf16-true&g=a100-40gb-sxm&n=2&b=1&s=1304&r=16",
			[]string{"--global-batch 16", "--zero 3", "--grad-checkpointing", "--loss-chunks 11", "--keeps-last-graph", "--litgpt-attention", "--optimizer-impl foreach", "--lora-targets query-value", "--lora-fused-qkv", "--adapter-dtype bf16"}, 0},
		// A ZeRO stage given is the user's (no FSDP default), and 16 // 4
		// // 4 = 1 micro-batch a step at micro-batch 4 on 4 GPUs.
		{[]string{"--model", "llama-2-7b", "--task", "finetune", "--precision", "bf16-true", "--gpu", "a100-80gb-sxm", "--gpus", "4", "--zero", "2", "--batch", "4", "--seq", "512"},
			"m=llama-2-7b&t=finetune&p=bf16-true&g=a100-80gb-sxm&n=4&z=2&b=4&s=512",
			[]string{"--global-batch 16", "--loss-chunks 4", "--keeps-last-graph", "--litgpt-attention", "--optimizer-impl foreach"}, 0},
		// Gemma 2 2B QLoRA on one A10G: LitGPT's own LM head (Gemma ties it)
		// in 4 bits under BitsandbytesPrecision.
		{[]string{"--model", "gemma-2-2b", "--task", "qlora", "--precision", "bf16-true", "--gpu", "a10g", "--batch", "2", "--seq", "512"},
			"m=gemma-2-2b&t=qlora&p=bf16-true&g=a10g&b=2&s=512",
			[]string{"--global-batch 16", "--loss-chunks 4", "--separate-head", "--keeps-last-graph", "--litgpt-attention", "--lora-rank 8", "--lora-targets query-value", "--lora-fused-qkv", "--adapter-dtype bf16", "--quantize-head"}, 0},
		// QLoRA on two GPUs, which lora.py refuses: planned as set, no FSDP.
		{[]string{"--model", "llama-2-7b", "--task", "qlora", "--precision", "bf16-true", "--gpu", "a10g", "--gpus", "2", "--batch", "1", "--seq", "512"},
			"m=llama-2-7b&t=qlora&p=bf16-true&g=a10g&n=2&b=1&s=512",
			[]string{"--global-batch 16", "--loss-chunks 4", "--keeps-last-graph", "--litgpt-attention", "--lora-rank 8", "--lora-targets query-value", "--lora-fused-qkv", "--adapter-dtype bf16", "--quantize-head"}, 0},
		// HF Trainer keeps the estimator's defaults.
		{[]string{"--model", "llama-2-7b", "--task", "lora", "--precision", "bf16", "--gpu", "a100-40gb-sxm", "--gpus", "2", "--zero", "3", "--batch", "1", "--seq", "1304"},
			"m=llama-2-7b&t=lora&p=bf16&g=a100-40gb-sxm&n=2&z=3&b=1&s=1304", nil, 0},
	} {
		code, out, errs := runEst(t, append(c.args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		var est struct {
			Peak  float64             `json:"peak_allocated_bytes"`
			Stack *page.StackDefaults `json:"stack_defaults"`
		}
		if err := json.Unmarshal([]byte(out), &est); err != nil {
			t.Fatal(err)
		}
		j, _, _, ok := page.ParseJob(page.ParseFragment(c.link, page.DefaultState), catalog.Default(), page.Archs{}, nil, "")
		if !ok {
			t.Fatalf("%s: the page refuses the job", c.link)
		}
		r, err := estimator.Estimate(j.In)
		if err != nil {
			t.Fatal(err)
		}
		var cli, web []string
		if est.Stack != nil {
			cli = est.Stack.Flags
		}
		if j.Stack != nil {
			web = j.Stack.Flags
		}
		if refused := slices.Contains(c.args, "qlora") && slices.Contains(c.args, "--gpus"); est.Stack != nil && j.Stack != nil &&
			(est.Stack.Refused != refused || j.Stack.Refused != refused) {
			t.Errorf("%v: refused %v, the page %v; want %v", c.args, est.Stack.Refused, j.Stack.Refused, refused)
		}
		if !slices.Equal(cli, c.flags) || !slices.Equal(web, c.flags) {
			t.Errorf("%v: defaults taken %q, the page (%s) %q; want %q", c.args, cli, c.link, web, c.flags)
		}
		if float64(r.PeakAllocated) != est.Peak {
			t.Errorf("%v: %.0f B peak allocated, the page %d B", c.args, est.Peak, int64(r.PeakAllocated))
		}
		if c.peak > 0 && (est.Peak/1e9 < c.peak-0.01 || est.Peak/1e9 > c.peak+0.01) {
			t.Errorf("%v: %.2f GB peak allocated, want %.2f", c.args, est.Peak/1e9, c.peak)
		}
	}
}

// A flag given wins over LitGPT's default in the one parser
// (page.ParseInput), not after it: the defaults said taken leave it out,
// and the estimate is the flag's. Gemma 2 2B QLoRA on one A10G at 2 × 512
// without the fused qkv adapter, the 4-bit head, the held graph, LitGPT's
// attention and the chunked loss is the job LitGPT's defaults make minus those: less peak.
func TestLitGPTDefaultsYieldToFlags(t *testing.T) {
	args := []string{"--model", "gemma-2-2b", "--task", "qlora", "--precision", "bf16-true", "--gpu", "a10g", "--batch", "2", "--seq", "512", "--json"}
	off := append(slices.Clone(args), "--lora-fused-qkv=false", "--quantize-head=false", "--keeps-last-graph=false", "--litgpt-attention=false", "--loss-chunks", "1", "--lora-targets", "all-linear")
	var def, given struct {
		Peak  float64             `json:"peak_allocated_bytes"`
		Stack *page.StackDefaults `json:"stack_defaults"`
	}
	for _, c := range []struct {
		args []string
		dst  any
	}{{args, &def}, {off, &given}} {
		code, out, errs := runEst(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if err := json.Unmarshal([]byte(out), c.dst); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"--global-batch 16", "--separate-head", "--lora-rank 8", "--adapter-dtype bf16"}; given.Stack == nil || !slices.Equal(given.Stack.Flags, want) {
		t.Errorf("defaults taken with the flags given: %+v, want %q", given.Stack, want)
	}
	// The same job in generic flags (pure-bf16 QLoRA on NF4 takes
	// Lightning's head and held graph unless told otherwise).
	generic := estJSON(t, "--model", "gemma-2-2b", "--task", "qlora", "--precision", "bf16", "--pure-bf16", "--gpu", "a10g", "--batch", "2", "--seq", "512",
		"--global-batch", "16", "--separate-head", "--lora-rank", "8", "--lora-targets", "all-linear", "--quantize-head=false", "--keeps-last-graph=false")
	if given.Peak != generic["peak_allocated_bytes"] || given.Peak == def.Peak {
		t.Errorf("peak %.0f B with the flags given, want the generic job's %v (LitGPT's defaults: %.0f)", given.Peak, generic["peak_allocated_bytes"], def.Peak)
	}
}

// TestLitGPTPlanKeepsAGivenNoSync: LitGPT's rows accumulate inside FSDP's
// no_sync as its scripts do, at both doors alike, unless the command line
// says --fsdp-no-sync=false: the one parser (page.ParseInput) records
// the flag given, the request carries it (plan.Request.FSDPNoSyncGiven),
// and the planner keeps it in LitGPT's layout, where it had put no_sync
// back. Llama 3.1 8B fully fine-tuned on one 8 × H100 instance (global
// batch 16: two micro-batches a rank): more memory free a GPU without it.
func TestLitGPTPlanKeepsAGivenNoSync(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "finetune", "--precision", "bf16-true", "--gpu", "h100-sxm", "--train-tokens", "100M"}
	reqOf := func(extra ...string) plan.Request {
		t.Helper()
		c := &planCapture{planCmd: planCmd{stderr: io.Discard}}
		if code := estimateCommand("plan", append(slices.Clone(args), extra...), io.Discard, io.Discard, c); code != 0 || c.err != nil {
			t.Fatalf("%v: exit %d, %v", extra, code, c.err)
		}
		return c.req
	}
	def, off := reqOf(), reqOf("--fsdp-no-sync=false")
	j, _, _, ok := page.ParseJob(page.ParseFragment("m=llama-3.1-8b&t=finetune&p=bf16-true&g=h100-sxm&tok=100M", page.DefaultState), catalog.Default(), page.Archs{}, nil, "")
	if !ok {
		t.Fatal("the page refuses the job")
	}
	web := page.PlanRequest(j)
	if !def.LitGPT || !web.LitGPT || def.FSDPNoSyncGiven || web.FSDPNoSyncGiven || def.Input.FSDPNoSync != web.Input.FSDPNoSync {
		t.Errorf("without the flag: CLI LitGPT %v given %v no_sync %v, the page %v %v %v", def.LitGPT, def.FSDPNoSyncGiven, def.Input.FSDPNoSync,
			web.LitGPT, web.FSDPNoSyncGiven, web.Input.FSDPNoSync)
	}
	if !off.FSDPNoSyncGiven || off.Input.FSDPNoSync {
		t.Fatalf("--fsdp-no-sync=false: given %v, no_sync %v", off.FSDPNoSyncGiven, off.Input.FSDPNoSync)
	}
	var o []plan.Offer
	for _, x := range planOffers(catalog.Default(), def.Input.Weights) {
		if x.ID == "aws-p5.48xlarge" {
			o = append(o, x)
		}
	}
	headroom := func(req plan.Request) float64 {
		t.Helper()
		res, err := plan.Plan(req, o, plan.Options{})
		if err != nil || len(res.Rows) == 0 || !res.Rows[0].Fits || res.Rows[0].Instances != 1 || res.Rows[0].ZeRO != 3 {
			t.Fatalf("%v %+v", err, res.Rows)
		}
		return res.Rows[0].HeadroomGiB
	}
	if a, b, p := headroom(def), headroom(off), headroom(web); !(b > a+1) || a != p {
		t.Errorf("free a GPU: %.2f GiB with no_sync (the page %.2f), %.2f with --fsdp-no-sync=false", a, p, b)
	}
}
