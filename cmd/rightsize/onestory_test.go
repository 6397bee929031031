package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestPageAgreesWithCLI runs a matrix of jobs through `rightsize estimate
// --json` and through the page's own parse and compute (page.LinkFigures,
// from the same inputs as a link) and requires the same numbers: memory,
// speed, TTFT, TPOT, MFU assumed and implied. Every engine × precision on
// inference, every training task, Blackwell FP4, MoE, multi-node. A
// training job that does not fit is the one difference: the CLI times it,
// flagged (performance.does_not_fit), while the page, whose speed prices
// the job on the planner's offers, says it has none on the GPUs as set.
func TestPageAgreesWithCLI(t *testing.T) {
	type job map[string]string // CLI flag (= the page field's name) → value
	var cases []job
	for _, eng := range []string{"hf", "vllm", "sglang", "trtllm", "llamacpp"} {
		for _, prec := range []string{"bf16", "fp8", "int4", "fp4"} {
			for _, gpu := range []string{"h100-sxm", "b200", "l4"} {
				c := job{"model": "llama-3.1-8b", "task": "inference", "engine": eng, "precision": prec, "gpu": gpu, "batch": "8", "seq": "2048"}
				if eng == "llamacpp" {
					c["quant"] = "q4_k_m"
					c["precision"] = "int4"
				}
				cases = append(cases, c)
			}
		}
	}
	for _, task := range []string{"train", "finetune", "lora", "qlora"} {
		for _, gpu := range []string{"h100-sxm", "a100-80gb-sxm", "b200"} {
			cases = append(cases, job{"model": "llama-3.1-8b", "task": task, "gpu": gpu, "batch": "4", "seq": "4096", "gpus": "8", "zero": "3", "grad-checkpointing": "1"})
		}
	}
	cases = append(cases,
		// 70B FSDP over two 8-GPU nodes, and TP inside them.
		job{"model": "llama-3.1-70b", "task": "finetune", "gpu": "h100-sxm", "gpus": "16", "zero": "3", "batch": "2", "seq": "4096", "grad-checkpointing": "1"},
		job{"model": "llama-3.1-70b", "task": "train", "gpu": "h100-sxm", "gpus": "64", "tp": "8", "pp": "2", "batch": "1", "seq": "8192", "grad-checkpointing": "1"},
		// MoE served with TP on one node, Blackwell FP4.
		job{"model": "mixtral-8x7b", "task": "inference", "engine": "vllm", "precision": "fp4", "gpu": "b200", "gpus": "2", "tp": "2", "batch": "32"},
		job{"model": "qwen3-30b-a3b", "task": "inference", "engine": "sglang", "precision": "fp8", "gpu": "h100-sxm", "batch": "64"},
		// GB200: 16 GPUs inside the NVL72 domain.
		job{"model": "llama-3.1-70b", "task": "train", "gpu": "gb200", "gpus": "16", "tp": "4", "batch": "1", "seq": "4096", "grad-checkpointing": "1"},
		// Weight-only kernels, an older engine release, a named host, a
		// vision-language model served text only.
		job{"model": "llama-3.1-8b", "task": "inference", "engine": "hf", "precision": "int4", "kernel": "autogptq", "gpu": "a100-80gb-sxm", "batch": "1"},
		job{"model": "llama-3.1-8b", "task": "inference", "engine": "hf", "precision": "int8", "kernel": "bitsandbytes", "gpu": "a100-80gb-sxm", "batch": "4", "host": "legacy-server"},
		job{"model": "llama-3.1-8b", "task": "inference", "engine": "hf", "gpu": "l4", "batch": "1", "host": "AMD EPYC 7742"},
		job{"model": "llama-3.1-8b", "task": "inference", "engine": "vllm", "precision": "int4", "kernel": "marlin", "gpu": "h100-sxm", "batch": "16", "engine-version": "0.6.0"},
		job{"model": "llama-3.1-8b", "task": "inference", "engine": "sglang", "gpu": "h100-sxm", "batch": "32", "engine-version": "0.3.0"},
		job{"model": "gemma-3-27b", "task": "inference", "engine": "vllm", "gpu": "h100-sxm", "batch": "8", "text-only": "1"},
		job{"model": "gemma-3-27b", "task": "inference", "engine": "vllm", "gpu": "h100-sxm", "batch": "8"},
		// MoE with expert parallelism: served inside the TP group, trained
		// from the data-parallel ranks; attention data parallelism.
		job{"model": "qwen3-30b-a3b", "task": "inference", "engine": "vllm", "precision": "fp8", "gpu": "h100-sxm", "gpus": "4", "tp": "4", "ep": "4", "batch": "64"},
		job{"model": "qwen3-30b-a3b", "task": "inference", "engine": "sglang", "gpu": "h100-sxm", "gpus": "8", "tp": "8", "ep": "8", "dp": "8", "batch": "128"},
		job{"model": "mixtral-8x7b", "task": "train", "gpu": "h100-sxm", "gpus": "16", "ep": "8", "zero": "1", "batch": "1", "seq": "4096", "grad-checkpointing": "1"},
		// A fine-tune accumulating 8 micro-batches under FSDP: both hold
		// the whole model's gradients between syncs by default
		// (estimator.FSDPNoSyncDefault).
		job{"model": "llama-3.1-8b", "task": "finetune", "gpu": "a100-80gb-sxm", "gpus": "4", "zero": "3", "batch": "2", "seq": "2048", "global-batch": "64", "grad-checkpointing": "1"},
		job{"model": "llama-3.1-8b", "task": "lora", "gpu": "l4", "gpus": "2", "zero": "3", "batch": "1", "seq": "2048", "global-batch": "16", "grad-checkpointing": "1"},
		// Context parallelism for a long sequence.
		job{"model": "llama-3.1-8b", "task": "train", "gpu": "h100-sxm", "gpus": "16", "cp": "4", "batch": "1", "seq": "65536", "grad-checkpointing": "1"},
		job{"model": "llama-3.1-70b", "task": "train", "gpu": "h100-sxm", "gpus": "64", "tp": "8", "cp": "2", "batch": "1", "seq": "32768", "grad-checkpointing": "1"},
		// Llama 3.1 405B's published layouts with ZeRO on auto: the
		// layout each door picks (ZeRO 2 interleaved at 16,384; ZeRO 1
		// under plain 1F1B at 8,192, 32 micro-batches a replica) is one.
		job{"model": "llama-3.1-405b", "task": "train", "gpu": "h100-sxm", "gpus": "16384", "tp": "8", "pp": "16", "batch": "1", "seq": "8192", "global-batch": "2048"},
		job{"model": "llama-3.1-405b", "task": "train", "gpu": "h100-sxm", "gpus": "8192", "tp": "8", "pp": "16", "batch": "1", "seq": "8192", "global-batch": "2048"},
		// The training step's fused attention kernel: cuDNN's under
		// Megatron-Core on Hopper, FlashAttention-3.
		job{"model": "llama-3.1-70b", "task": "train", "gpu": "h100-sxm", "gpus": "64", "tp": "8", "batch": "1", "seq": "8192", "grad-checkpointing": "1", "attention-kernel": "cudnn"},
		job{"model": "llama-3.1-8b", "task": "lora", "gpu": "h100-sxm", "batch": "4", "seq": "4096", "attention-kernel": "fa3"},
	)
	agree := func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
	checked := 0
	for _, c := range cases {
		var args []string
		q := url.Values{}
		for k, v := range c {
			// The link key of the CLI flag, from the one table both read.
			f, ok := jobspec.ByFlag(k)
			if !ok {
				t.Fatalf("--%s is not a shared job field (jobspec.Fields)", k)
			}
			if k == "grad-checkpointing" || k == "text-only" {
				args = append(args, "--"+k)
			} else {
				args = append(args, "--"+k, v)
			}
			q.Set(jobspec.Fields[f].Key, v)
		}
		// The page's defaults for what the case leaves out: 512 output
		// tokens of the sequence, 1B training tokens, KV in bf16.
		seq := c["seq"]
		if seq == "" {
			seq = "2048"
		}
		var n int
		fmt.Sscan(seq, &n)
		args = append(args, "--output-tokens", "512", "--prompt-tokens", fmt.Sprint(n-512), "--train-tokens", "1B", "--json")
		name := strings.Join(args, " ")
		code, out, errs := runEst(t, args...)
		fig, perr := page.LinkFigures(q.Encode())
		if code != 0 || perr != nil {
			// Both refuse the same jobs.
			if (code != 0) != (perr != nil) {
				t.Errorf("%s: CLI exit %d (%s), page error %v", name, code, strings.TrimSpace(errs), perr)
			}
			continue
		}
		var r struct {
			Memory struct {
				Total int64 `json:"total_bytes"`
			} `json:"per_gpu"`
			Peak        int64 `json:"peak_bytes"`
			Performance *struct {
				TokensPerSecond   float64 `json:"tokens_per_second"`
				MFU               float64 `json:"mfu"`
				ComputeEfficiency float64 `json:"compute_efficiency"`
				BandwidthUtil     float64 `json:"bandwidth_util"`
				StepSeconds       float64 `json:"step_seconds"`
				JobSeconds        float64 `json:"job_seconds"`
				TTFT              float64 `json:"time_to_first_token_seconds"`
				TPOT              float64 `json:"decode_token_latency_seconds"`
				Comm              float64 `json:"comm_seconds"`
				Prefill           float64 `json:"prefill_tokens_per_second"`
				DoesNotFit        bool    `json:"does_not_fit"`
			} `json:"performance"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Memory.Total != fig.TotalBytes || r.Peak != fig.PeakBytes {
			t.Errorf("%s: memory per GPU CLI %d B (peak %d), page %d B (peak %d)", name, r.Memory.Total, r.Peak, fig.TotalBytes, fig.PeakBytes)
		}
		p := r.Performance
		if p != nil && p.DoesNotFit {
			if fig.OK {
				t.Errorf("%s: the page times a job that does not fit", name)
			}
			continue
		}
		if (p != nil) != fig.OK {
			t.Errorf("%s: CLI speed %v, page speed %v", name, p != nil, fig.OK)
			continue
		}
		if p == nil {
			continue
		}
		checked++
		for _, f := range []struct {
			what      string
			cli, page float64
		}{
			{"tokens/s", p.TokensPerSecond, fig.TokensPerSecond}, {"implied MFU", p.MFU, fig.MFU},
			{"MFU assumed", p.ComputeEfficiency, fig.ComputeEfficiency}, {"bandwidth use", p.BandwidthUtil, fig.BandwidthUtil},
			{"step", p.StepSeconds, fig.StepSeconds}, {"job", p.JobSeconds, fig.JobSeconds},
			{"TTFT", p.TTFT, fig.TTFTSeconds}, {"TPOT", p.TPOT, fig.TPOTSeconds},
			{"communication", p.Comm, fig.CommSeconds}, {"prefill tokens/s", p.Prefill, fig.PrefillTokensPerSec},
		} {
			if !agree(f.cli, f.page) {
				t.Errorf("%s: %s CLI %v, page %v", name, f.what, f.cli, f.page)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d of %d jobs had speed on both sides", checked, len(cases))
	}
}

// TestPageFleetAgreesWithCLI: the page's daily fleet (page.LinkFleet) is
// the CLI's: the best mix's monthly bill is the cheapest of the CLI's
// offers and its mixed fleet's single offer, on the same offer, and owning
// it costs what the CLI says for that offer.
func TestPageFleetAgreesWithCLI(t *testing.T) {
	const curve = "2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3"
	for _, c := range []struct{ model, preset, stat string }{{"mistral-7b-v0.3", "code", ""}, {"llama-3.1-8b", "chat", ""}, {"llama-3.1-8b", "", ""},
		// A 300 ms TTFT target at p99 (--slo-stat, the page's "slo" key):
		// a dearer fleet than at the default p95.
		{"llama-3.1-8b", "", "p99"}} {
		args := []string{"--model", c.model, "--load-curve", curve, "--ttft-p95", "2s", "--tpot", "100ms",
			"--own-price", "9000", "--kwh-price", "0.15", "--depreciation-years", "4", "--json"}
		frag := "m=" + c.model + "&lc=" + curve + "&own=9000&kwh=0.15&dep=4"
		if c.stat != "" {
			args = append(args, "--slo-stat", c.stat, "--ttft-p95", "300ms")
			frag += "&slo=" + c.stat + "&ttft=300"
		}
		if c.preset != "" {
			args = append(args, "--workload", c.preset)
			frag += "&wl=" + c.preset
		} else {
			args = append(args, "--prompt-tokens", "1536", "--output-tokens", "512")
		}
		code, out, errs := runPlanArgs(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Fleet struct {
				Offers []struct {
					ID    string `json:"offer_id"`
					Sized bool   `json:"sized"`
					Best  struct {
						Monthly float64 `json:"monthly_usd"`
					} `json:"best"`
					Owned *struct {
						Monthly float64 `json:"monthly_usd"`
					} `json:"owned"`
				} `json:"offers"`
				Mixed *struct {
					Single struct {
						ID   string `json:"offer_id"`
						Best struct {
							Monthly float64 `json:"monthly_usd"`
						} `json:"best"`
					} `json:"single"`
				} `json:"mixed"`
			} `json:"fleet"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		// The cheapest sized fleet (rows come cheapest first, unsized
		// last), or the mixed fleet's single offer when cheaper.
		best, id := math.Inf(1), ""
		if o := r.Fleet.Offers; len(o) > 0 && o[0].Sized {
			best, id = o[0].Best.Monthly, o[0].ID
		}
		if m := r.Fleet.Mixed; m != nil && m.Single.Best.Monthly < best {
			best, id = m.Single.Best.Monthly, m.Single.ID
		}
		if id == "" {
			t.Fatalf("%s %s: the CLI sized no fleet", c.model, c.preset)
		}
		f, err := page.LinkFleet(frag)
		if err != nil || !f.OK {
			t.Fatalf("%s: page fleet %v %+v", frag, err, f.Reason)
		}
		if f.Row.Row.Offer.ID != id || math.Abs(f.Row.Plan.Best.MonthlyUSD-best) > 1e-6*best {
			t.Errorf("%s %s: page %s at %.2f USD/month, CLI %s at %.2f", c.model, c.preset, f.Row.Row.Offer.ID, f.Row.Plan.Best.MonthlyUSD, id, best)
		}
		if o := r.Fleet.Offers[0]; o.ID == id && o.Owned != nil && (f.Own == nil || math.Abs(f.Own.MonthlyUSD-o.Owned.Monthly) > 1e-6*o.Owned.Monthly) {
			t.Errorf("%s: owned CLI %.2f, page %+v", c.model, o.Owned.Monthly, f.Own)
		}
	}
}

// TestPageLaunchAgreesWithCLI: the page's "Run it" box (page.LinkLaunch)
// writes what rightsize plan --emit prints for the same job and launcher.
func TestPageLaunchAgreesWithCLI(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"--model", "llama-3.1-8b", "--requests-per-second", "5", "--prompt-tokens", "1536", "--output-tokens", "512", "--ttft-p95", "2s", "--tpot", "100ms", "--emit", "vllm"}, "m=llama-3.1-8b&rps=5"},
		{[]string{"--model", "llama-3.1-8b", "--requests-per-second", "5", "--prompt-tokens", "1536", "--output-tokens", "512", "--ttft-p95", "2s", "--tpot", "100ms", "--emit", "sglang"}, "m=llama-3.1-8b&rps=5&run=sglang"},
		{[]string{"--model", "llama-3.1-8b", "--task", "finetune", "--zero", "3", "--grad-checkpointing", "--seq", "2048", "--train-tokens", "1B", "--emit", "deepspeed"}, "t=finetune&z=3&gc=1"},
		// A Lightning precision name: LitGPT's scripts planned, LitGPT's
		// command handed over (the page's only launcher for it).
		{[]string{"--model", "llama-3.2-1b", "--task", "lora", "--precision", "bf16-true", "--seq", "2048", "--train-tokens", "1B", "--emit", "litgpt"}, "m=llama-3.2-1b&t=lora&p=bf16-true"},
	} {
		code, out, errs := runPlanArgs(t, c.args...)
		web, err := page.LinkLaunch(c.frag)
		if code != 0 || err != nil {
			t.Errorf("%s: CLI exit %d (%s), page %v", c.frag, code, strings.TrimSpace(errs), err)
			continue
		}
		if out != web {
			t.Errorf("%s: CLI prints\n%s\npage writes\n%s", c.frag, out, web)
		}
	}
}

// The page's disaggregated launch and rightsize plan --emit-pick
// disaggregated are one text, for each serving engine's dialect, behind
// the engine's router and behind NVIDIA Dynamo (--emit-router, the
// link's rt).
func TestPageDisaggLaunchAgreesWithCLI(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--engine", "sglang", "--requests-per-second", "20",
		"--prompt-tokens", "2000", "--output-tokens", "500", "--ttft-p95", "2s", "--tpot", "50ms", "--emit-pick", "disaggregated"}
	const frag = "m=llama-3.1-70b&e=sglang&rps=20&s=2500&out=500&ttft=2000&tpot=50"
	for _, router := range []string{"engine", "dynamo"} {
		for _, k := range []string{"vllm", "sglang", "trtllm"} {
			code, out, errs := runPlanArgs(t, append(args, "--emit", k, "--emit-router", router)...)
			web, err := page.LinkLaunchDisagg(frag + "&run=" + k + "&rt=" + router)
			if code != 0 || err != nil {
				t.Errorf("%s %s: CLI exit %d (%s), page %v", router, k, code, strings.TrimSpace(errs), err)
				continue
			}
			if out != web {
				t.Errorf("%s %s: CLI prints\n%s\npage writes\n%s", router, k, out, web)
			}
			if dyn := strings.Contains(out, "python -m dynamo.frontend"); dyn != (router == "dynamo") {
				t.Errorf("%s %s: Dynamo's frontend in the launch: %v", router, k, dyn)
			}
		}
	}
	if _, err := page.LinkLaunchDisagg(frag + "&run=sglang&rt=nginx"); err == nil {
		t.Error("the page wrote a launch for an unknown router")
	}
}

// The page's "With gradient checkpointing" fact and the CLI's
// with_grad_checkpointing are one figure: training jobs that do not fit
// without checkpointing get the same memory per GPU from both, and a job
// that fits, or already checkpoints, gets it from neither.
func TestCheckpointingAgreesWithCLI(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
		want bool // a figure on both sides
	}{
		{[]string{"--model", "llama-3.1-70b", "--task", "qlora", "--gpu", "h100-sxm", "--batch", "4", "--seq", "4096", "--grad-checkpointing=false"}, "m=llama-3.1-70b&t=qlora&g=h100-sxm&b=4&s=4096&gc=0", true},
		{[]string{"--model", "llama-3.1-8b", "--task", "lora", "--gpu", "a100-80gb-sxm", "--batch", "8", "--seq", "4096"}, "m=llama-3.1-8b&t=lora&g=a100-80gb-sxm&b=8&s=4096", true},
		{[]string{"--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "h100-sxm", "--gpus", "8", "--zero", "3", "--batch", "1", "--seq", "1024"}, "m=llama-3.1-8b&t=finetune&g=h100-sxm&n=8&z=3&b=1&s=1024", false},
		{[]string{"--model", "llama-3.1-70b", "--task", "qlora", "--gpu", "h100-sxm", "--batch", "4", "--seq", "4096", "--grad-checkpointing"}, "m=llama-3.1-70b&t=qlora&g=h100-sxm&b=4&s=4096&gc=1", false},
		// Two 24 GB cards: checkpointing alone does not hold it, ZeRO-3
		// and offload do (QLoRA's default checkpointing turned off).
		{[]string{"--model", "llama-3.1-70b", "--task", "qlora", "--gpu", "rtx-4090", "--gpus", "2", "--batch", "4", "--seq", "4096", "--grad-checkpointing=false"}, "m=llama-3.1-70b&t=qlora&g=rtx-4090&n=2&b=4&s=4096&gc=0", true},
		// Llama 3.1 405B interleaved at ZeRO 1: ZeRO-2 (free) holds it;
		// at ZeRO 2 and 64 micro-batches, plain 1F1B, by the H100's step
		// times on both sides.
		{[]string{"--model", "llama-3.1-405b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16384", "--tp", "8", "--pp", "16", "--batch", "1", "--seq", "8192", "--global-batch", "2048", "--zero", "1"},
			"m=llama-3.1-405b&t=train&g=h100-sxm&n=16384&tp=8&pp=16&b=1&s=8192&gb=2048&z=1", true},
		{[]string{"--model", "llama-3.1-405b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16384", "--tp", "8", "--pp", "16", "--batch", "1", "--seq", "8192", "--global-batch", "8192", "--zero", "2"},
			"m=llama-3.1-405b&t=train&g=h100-sxm&n=16384&tp=8&pp=16&b=1&s=8192&gb=8192&z=2", true},
	} {
		name := strings.Join(c.args, " ")
		code, out, errs := runEst(t, append(c.args, "--train-tokens", "1B", "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		var r struct {
			GC *struct {
				Total int64 `json:"total_bytes"`
				Fits  bool  `json:"fits"`
			} `json:"with_grad_checkpointing"`
			FitsWith *struct {
				Settings []string `json:"settings"`
				Total    int64    `json:"total_bytes"`
			} `json:"fits_with"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		// A job that does not fit has no speed figures (an error) but
		// keeps its memory figures; any other error is the page's failure.
		fig, err := page.LinkFigures(c.frag)
		if err != nil && fig.TotalBytes == 0 {
			t.Fatalf("%s: the page failed: %v", c.frag, err)
		}
		cliFix, cliSet := int64(0), ""
		if r.FitsWith != nil {
			cliFix, cliSet = r.FitsWith.Total, strings.Join(r.FitsWith.Settings, "+")
		}
		if cliFix != fig.FitsWithBytes || cliSet != strings.Join(fig.FitsWith, "+") {
			t.Errorf("%s: fits with: CLI %s at %d B, page %v at %d B", name, cliSet, cliFix, fig.FitsWith, fig.FitsWithBytes)
		}
		if strings.Contains(c.frag, "rtx-4090") && !strings.Contains(cliSet, "offload") {
			t.Errorf("%s: fits with %q, want an offload", name, cliSet)
		}
		if want := map[string]string{"z=1": "zero-2", "z=2": "plain-1f1b"}; strings.Contains(c.frag, "405b") && cliSet != want[c.frag[len(c.frag)-3:]] {
			t.Errorf("%s: fits with %q, want %q", name, cliSet, want[c.frag[len(c.frag)-3:]])
		}
		cli := int64(0)
		if r.GC != nil {
			cli = r.GC.Total
		}
		if (cli > 0) != c.want || cli != fig.CheckpointedBytes {
			t.Errorf("%s: with checkpointing CLI %d B, page %d B (want a figure: %v)", name, cli, fig.CheckpointedBytes, c.want)
		}
	}
}

// TestAttentionKernelAgreesWithCLI: the page's training speed and the
// CLI's performance.tokens_per_second are one figure for each fused
// attention kernel (--attention-kernel, the page's select), and the
// kernel moves it on an H100 (estimator attnKernelSpeed: cuDNN's 1.62×
// and FlashAttention-3's 1.74× FlashAttention-2's attention speed), so
// a door that dropped the field would not agree.
func TestAttentionKernelAgreesWithCLI(t *testing.T) {
	speed := map[string]float64{}
	for _, k := range []string{"fa2", "cudnn", "fa3"} {
		args := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "8", "--batch", "2", "--seq", "8192", "--grad-checkpointing",
			"--attention-kernel", k, "--train-tokens", "1B", "--json"}
		code, out, errs := runEst(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", k, code, errs)
		}
		var r struct {
			Performance *struct {
				TokensPerSecond float64 `json:"tokens_per_second"`
				StepSeconds     float64 `json:"step_seconds"`
			} `json:"performance"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Performance == nil {
			t.Fatalf("%s: %v, performance %v", k, err, r.Performance)
		}
		fig, err := page.LinkFigures("m=llama-3.1-8b&t=train&g=h100-sxm&n=8&b=2&s=8192&gc=1&tok=1B&ak=" + k)
		if err != nil || !fig.OK {
			t.Fatalf("%s: the page: %v (speed %v)", k, err, fig.OK)
		}
		p := r.Performance
		if math.Abs(p.TokensPerSecond-fig.TokensPerSecond) > 1e-9*p.TokensPerSecond || math.Abs(p.StepSeconds-fig.StepSeconds) > 1e-9*p.StepSeconds {
			t.Errorf("%s: tokens/s CLI %v, page %v; step CLI %v s, page %v s", k, p.TokensPerSecond, fig.TokensPerSecond, p.StepSeconds, fig.StepSeconds)
		}
		speed[k] = p.TokensPerSecond
	}
	// At 8,192 tokens attention is a sizeable share of an 8B model's step:
	// the faster kernels shorten it, each by less than its own speed-up.
	if !(speed["fa2"] < speed["cudnn"] && speed["cudnn"] < speed["fa3"] && speed["fa3"] < 1.74*speed["fa2"]) {
		t.Errorf("tokens/s by kernel %v: want fa2 < cudnn < fa3 < 1.74 × fa2", speed)
	}
}

// TestPageSheetAgreesWithCLI: a price sheet of the user's own prices
// loaded into the page (page.LinkPlan) and read by rightsize plan --prices
// gives one cheapest pick: the same offer, price and cost, and the same
// sentence. The sheets: new offers at negotiated rates far below the
// catalog's median, a EUR rate for an offer listed in USD, undated, a tie
// with a catalog price and a rate on a marketplace's provider.
func TestPageSheetAgreesWithCLI(t *testing.T) {
	const head = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n"
	jobs := []struct {
		args []string
		frag string
	}{
		{[]string{"--model", "llama-3.1-8b", "--task", "lora", "--seq", "2048", "--train-tokens", "1B"}, "t=lora"},
		{[]string{"--model", "llama-3.1-8b", "--requests-per-second", "5", "--prompt-tokens", "1536", "--output-tokens", "512", "--ttft-p95", "2s", "--tpot", "100ms"}, "m=llama-3.1-8b&rps=5"},
	}
	dir := t.TempDir()
	for _, job := range jobs {
		// The tie: the catalog's cheapest offer for the job, priced the
		// same as a new offer of the user's.
		c := cheapest(t, planJSONOf(t, job.args...))
		tie := fmt.Sprintf("%s%s,zz-ours,%s,%v,%v,%s\n", head, c.Provider, c.GPU, c.GPUsPerInstance, c.PricePerHour, c.Currency)
		for i, sheet := range []string{
			head + "lambda,our-h100,h100-sxm,1,1.20,USD\nlambda,our-a100,a100-80gb,1,0.60,USD\n",
			"offer_id,on_demand_per_hour,currency\nlambda-gpu_1x_h100_sxm5,1.1,EUR\n",
			head + "vast,our-h100,h100-sxm,1,1.0,USD\n",
			tie,
		} {
			path := filepath.Join(dir, strconv.Itoa(i)+".csv")
			if err := os.WriteFile(path, []byte(sheet), 0o644); err != nil {
				t.Fatal(err)
			}
			cli := cheapest(t, planJSONOf(t, append(job.args, "--prices", path)...))
			web, err := page.LinkPlan(job.frag, []byte(sheet))
			if err != nil {
				t.Fatalf("sheet %d, %s: page: %v", i, job.frag, err)
			}
			var pick *page.Pick
			for k := range web.Picks {
				if web.Picks[k].Kind == page.PickCheapest {
					pick = &web.Picks[k]
				}
			}
			if pick == nil {
				t.Fatalf("sheet %d, %s: the page has no cheapest pick", i, job.frag)
			}
			row := web.Rows[pick.Row]
			cost := cli.JobCostDisp
			if cli.MonthlyCostDisp > 0 {
				cost = cli.MonthlyCostDisp
			}
			// The tie goes to the user's price; where the pick is itself
			// within 1% of a cheaper, slower row (the lora job's 2 × A40
			// beside 1 × A40), the sentence names that rule instead.
			if !cli.UserPrice || sheet == tie && !strings.Contains(cli.Why, "the tie goes to your price") && !strings.Contains(cli.Why, "within 1% of the lowest cost") {
				t.Errorf("sheet %d, %s: the cheapest is %s (user %v): %s", i, job.frag, cli.OfferID, cli.UserPrice, cli.Why)
			}
			if pick.Offer.ID != cli.OfferID || row.PricePerHour != cli.PricePerHour || math.Abs(pick.Cost-cost) > 1e-9*cost ||
				pick.Offer.UserPrice != cli.UserPrice || row.Why.String() != cli.Why {
				t.Errorf("sheet %d, %s: page %s at %v/h, %.4f (user %v): %q; CLI %s at %v/h, %.4f (user %v): %q", i, job.frag,
					pick.Offer.ID, row.PricePerHour, pick.Cost, pick.Offer.UserPrice, row.Why.String(), cli.OfferID, cli.PricePerHour, cost, cli.UserPrice, cli.Why)
			}
		}
	}
	// A sheet one door refuses, the other refuses with the same reason.
	bad := head + "lambda,ours,H100,1,1.2,USD\n"
	path := filepath.Join(dir, "bad.csv")
	os.WriteFile(path, []byte(bad), 0o644)
	code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--prices", path)
	_, err := page.LinkPlan("t=lora", []byte(bad))
	const why = `row 1 (line 2): gpu "H100" is not in the catalog (did you mean h100-80gb, h100-nvl, h100-pcie, h100-sxm? known: `
	if code == 0 || !strings.Contains(errs, why) || err == nil || !strings.Contains(err.Error(), why) {
		t.Errorf("bad sheet: CLI exit %d %q; page %v", code, errs, err)
	}
}

// TestPageExportAgreesWithCLI: the page's exports date each offer's
// price as rightsize plan --json does for the same job: the date, whether
// it is estimated and whether it is the earliest the price can be from
// (as_of_lower_bound, one field name at both doors), and the Markdown
// writes such a pick's date "≥date", as the CLI's table does. Both a
// training and a serving job, so the lower bounds are asked of rows the
// two doors price differently.
func TestPageExportAgreesWithCLI(t *testing.T) {
	for _, job := range []struct {
		args []string
		frag string
	}{
		{[]string{"--model", "llama-3.1-8b", "--task", "lora", "--seq", "2048", "--train-tokens", "1B"}, "t=lora"},
		{[]string{"--model", "llama-3.1-8b", "--requests-per-second", "5", "--prompt-tokens", "1536", "--output-tokens", "512", "--ttft-p95", "2s", "--tpot", "100ms"}, "m=llama-3.1-8b&rps=5"},
	} {
		type dated struct {
			AsOf                  string
			Estimated, LowerBound bool
		}
		cli := map[string]dated{}
		for _, r := range planJSONOf(t, append(job.args, "--top", "0")...).Rows {
			cli[r.OfferID] = dated{r.AsOf, r.AsOfEstimated, r.AsOfLowerBound}
		}
		ex, err := page.LinkExport(job.frag)
		if err != nil {
			t.Fatalf("%s: page: %v", job.frag, err)
		}
		var doc struct {
			Offers []struct {
				Pick           string `json:"pick"`
				OfferID        string `json:"offer_id"`
				AsOf           string `json:"as_of"`
				AsOfEstimated  bool   `json:"as_of_estimated"`
				AsOfLowerBound *bool  `json:"as_of_lower_bound"`
			} `json:"offers"`
		}
		if err := json.Unmarshal([]byte(ex.JSON), &doc); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(ex.CSV)).ReadAll()
		if err != nil || len(recs) != len(doc.Offers)+1 {
			t.Fatalf("%s: CSV %d records for %d JSON rows: %v", job.frag, len(recs), len(doc.Offers), err)
		}
		col := slices.Index(recs[0], "as_of_lower_bound")
		if col < 0 {
			t.Fatalf("%s: CSV header %v has no as_of_lower_bound", job.frag, recs[0])
		}
		bounded, matched := 0, 0
		for i, o := range doc.Offers {
			if o.AsOfLowerBound == nil {
				t.Fatalf("%s: export row %s has no as_of_lower_bound", job.frag, o.OfferID)
			}
			got := dated{o.AsOf, o.AsOfEstimated, *o.AsOfLowerBound}
			if c := recs[i+1][col]; c != strconv.FormatBool(got.LowerBound) {
				t.Errorf("%s: %s: CSV as_of_lower_bound %q, JSON %v", job.frag, o.OfferID, c, got.LowerBound)
			}
			want, ok := cli[o.OfferID]
			if !ok {
				continue // a row the CLI's ranking leaves out of its fitting rows
			}
			matched++
			if got != want {
				t.Errorf("%s: %s: page export dates %+v, CLI %+v", job.frag, o.OfferID, got, want)
			}
			if got.LowerBound {
				bounded++
				if o.Pick != "" && !strings.Contains(ex.Markdown, "≥"+got.AsOf) {
					t.Errorf("%s: the %s pick's lower bound %s is not \"≥%s\" in the Markdown:\n%s", job.frag, o.Pick, got.AsOf, got.AsOf, ex.Markdown)
				}
			}
		}
		if matched < len(doc.Offers)/2 || bounded == 0 {
			t.Errorf("%s: %d of %d export rows are CLI rows, %d with a lower bound: the test asks little", job.frag, matched, len(doc.Offers), bounded)
		}
		t.Logf("%s: %d export rows, %d matched, %d lower bounds", job.frag, len(doc.Offers), matched, bounded)
	}
}

// TestWholeRunAgreesWithCLI: a training run's whole time and GPU-hours
// are one figure at every door: the page's detail beside the steps'
// (page.LinkFigures) is the CLI's performance.job_seconds_with_overhead
// and gpu_hours_with_overhead, and the planner times the same layout at
// the same goodput (its rows' goodput, estimator.TrainGoodput: 0.9875 on
// 2,048 GPUs). A layout past the global batch is refused at both doors
// with one judge (estimator.TrainBatchOf): the page's error is the CLI's.
func TestWholeRunAgreesWithCLI(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "2048", "--tp", "8", "--seq", "8192",
		"--global-batch", "256", "--train-tokens", "15T"}
	cli := perfOf(estJSON(t, args...))
	fig, err := page.LinkFigures("m=llama-3.1-8b&t=train&g=h100-sxm&n=2048&tp=8&s=8192&gb=256&tok=15T")
	if err != nil || !fig.OK {
		t.Fatalf("page: %v", err)
	}
	if g := cli["goodput"].(float64); g != 0.9875 || fig.Goodput != g || !same(fig.JobSecondsWithOverhead, cli["job_seconds_with_overhead"].(float64)) ||
		!same(fig.GPUHoursWithOverhead, cli["gpu_hours_with_overhead"].(float64)) || !same(fig.JobSeconds, cli["job_seconds"].(float64)) {
		t.Errorf("CLI goodput %v, %v s, %v GPU-h; page %v, %v s, %v GPU-h", cli["goodput"], cli["job_seconds_with_overhead"], cli["gpu_hours_with_overhead"],
			fig.Goodput, fig.JobSecondsWithOverhead, fig.GPUHoursWithOverhead)
	}
	p := planJSONOf(t, "--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "2048", "--tp", "8", "--seq", "8192",
		"--global-batch", "256", "--train-tokens", "15T", "--max-instances", "256", "--top", "0")
	n := 0
	for _, r := range p.Rows {
		if r.GPUs == 2048 && r.JobHours > 0 {
			n++
			if r.Goodput != 0.9875 {
				t.Errorf("%s: plan goodput %v, want 0.9875", r.OfferID, r.Goodput)
			}
		}
	}
	if n == 0 {
		t.Error("no 2,048-GPU plan row")
	}
	// --goodput reaches the plan as it reaches the estimate: the whole
	// run is the steps over it (the plan's start-up added).
	ask := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "8", "--train-tokens", "10B", "--goodput", "0.8"}
	est := perfOf(estJSON(t, ask...))
	if r := planJSONOf(t, ask...).Rows[0]; r.Goodput != 0.8 || !same(r.JobHours*3600-plan.DefaultRestartSeconds, est["job_seconds_with_overhead"].(float64)) {
		t.Errorf("plan --goodput 0.8: goodput %v, %v h; estimate's whole run %v s", r.Goodput, r.JobHours, est["job_seconds_with_overhead"])
	}
	// Past pre-training's default batch both doors time the smallest
	// batch the layout needs (estimator.TrainBatch.Raised), one sequence
	// a replica, and the CLI says so; past a --global-batch the user gave,
	// both refuse with one message.
	raised := []string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--gpus", "16384", "--seq", "8192", "--train-tokens", "15T"}
	out := estJSON(t, raised...)
	rp := perfOf(out)
	fig, err = page.LinkFigures("m=llama-3.1-8b&t=train&g=h100-sxm&n=16384&s=8192&tok=15T")
	if err != nil || !fig.OK || !same(fig.JobSeconds, rp["job_seconds"].(float64)) || rp["micro_batches"].(float64) != 1 ||
		!strings.Contains(fmt.Sprint(out["warnings"]), "timed at the smallest batch that feeds them, 16384 sequences") {
		t.Errorf("16,384 replicas on the default batch: page %v (%v s), CLI %v s, %v micro-batches, warnings %v", err, fig.JobSeconds, rp["job_seconds"], rp["micro_batches"], out["warnings"])
	}
	bad := append(raised, "--global-batch", "256")
	_, _, errs := runEst(t, bad...)
	_, err = page.LinkFigures("m=llama-3.1-8b&t=train&g=h100-sxm&n=16384&s=8192&gb=256&tok=15T")
	var be *estimator.BatchLimitError
	if !errors.As(err, &be) || be.Replicas != 16384 || be.Global != 256 || !strings.Contains(errs, err.Error()) {
		t.Errorf("16,384 replicas on 256 sequences: page %v, CLI %q", err, errs)
	}
}

// TestPageRackBillAgreesWithCLI: DeepSeek-R1 FP8 at 10 requests/s on
// GB200 (CoreWeave's NVL72 trays, rented as whole racks of 18): the CLI's
// JSON row uses 2 trays, rents 18 and bills 42 × 18 × 730 = 551,880
// USD/month, and the page's export prices the same row at the same bill.
func TestPageRackBillAgreesWithCLI(t *testing.T) {
	const id = "coreweave-nvidia-gb200-nvl72-on-demand-north-america"
	args := []string{"--model", "deepseek-r1", "--precision", "fp8", "--gpu", "gb200", "--requests-per-second", "10", "--prompt-tokens", "1024", "--output-tokens", "1024"}
	var cli *planRowJSON
	for _, r := range planJSONOf(t, args...).Rows {
		if r.OfferID == id {
			cli = &r
		}
	}
	if cli == nil || cli.Instances != 2 || cli.RentedInstances != 18 || cli.MonthlyCostUSD != 551880 {
		t.Fatalf("CLI row %+v: want 2 trays used, 18 rented, 551880 USD/month", cli)
	}
	// The page's prompt is the sequence less the output (2,048 − 1,024).
	pageArgs := append(slices.Clip(args[:8]), "--output-tokens", "1024", "--seq", "2048")
	q := url.Values{}
	for i := 0; i < len(pageArgs); i += 2 {
		f, ok := jobspec.ByFlag(pageArgs[i][2:])
		if !ok {
			t.Fatalf("%s is not a shared job field", pageArgs[i])
		}
		q.Set(jobspec.Fields[f].Key, pageArgs[i+1])
	}
	ex, err := page.LinkExport(q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Offers []struct {
			OfferID string  `json:"offer_id"`
			Cost    float64 `json:"cost"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(ex.JSON), &doc); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(doc.Offers, func(o struct {
		OfferID string  `json:"offer_id"`
		Cost    float64 `json:"cost"`
	}) bool {
		return o.OfferID == id
	})
	if i < 0 || doc.Offers[i].Cost != cli.MonthlyCostDisp {
		t.Errorf("page export %+v: want %s at the CLI's %v", doc.Offers, id, cli.MonthlyCostDisp)
	}
}

// TestRackLabelAgrees: the GB200 NVL72 row uses 2 trays of the 18 it
// rents; the CLI's instances cell, the pick's sentence and the page's card
// and sentence (in each language) all say so with one label
// (plan.InstancesLabel), where the sentence once said "×2" beside "2 of 18".
func TestRackLabelAgrees(t *testing.T) {
	const id = "coreweave-nvidia-gb200-nvl72-on-demand-north-america"
	p := planJSONOf(t, "--model", "deepseek-r1", "--precision", "fp8", "--gpu", "gb200", "--requests-per-second", "10")
	_, cells := columns(p)
	i := slices.IndexFunc(p.Rows, func(r planRowJSON) bool { return r.OfferID == id })
	if i < 0 {
		t.Fatalf("no %s row", id)
	}
	r := p.Rows[i]
	if c := cells(r)[4]; c != "2 of 18" {
		t.Errorf("instances cell %q, want 2 of 18", c)
	}
	if want := "coreweave NVIDIA GB200 NVL72 (on-demand, North America) ×2 of 18: "; !strings.HasPrefix(r.Why, want) {
		t.Errorf("pick's sentence %q, want it to start %q", r.Why, want)
	}
	ref := plan.OfferRef{Provider: "coreweave", InstanceType: "gb200", Instances: r.Instances, Rented: r.RentedInstances}
	for lang, want := range map[string]string{"en": " ×2 of 18", "ru": " ×2 из 18", "zh": " ×2（共 18）"} {
		l := page.Locale{Lang: lang}
		card := page.InstancesOf(l, r.Instances, r.RentedInstances)
		said := l.Reason(plan.Reason{Key: plan.MsgNotePastLimitOnly, Args: []any{4, ref, plan.Money{Amount: 551880, Currency: "USD", PerMonth: true}, "18"}})
		if card != want || !strings.Contains(said, "coreweave gb200"+want) {
			t.Errorf("%s: card %q, sentence %q; want both to say %q", lang, card, said, want)
		}
	}
}
