package main

import (
	"os/exec"
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

// TestQLoRAPlansWithoutTP: QLoRA's NF4 base is sharded by data
// parallelism only (FSDP-QLoRA, DeepSpeed ZeRO-3); no stack runs it
// tensor-parallel. Llama 3.1 70B on A6000s was planned at TP 2, which
// --emit fsdp then refused; every fitting row now has TP 1, and the
// FSDP launch names the 4-bit storage dtype FSDP needs.
func TestQLoRAPlansWithoutTP(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--task", "qlora", "--gpu", "rtx-a6000", "--dataset-tokens", "50M", "--top", "0"}
	p := planJSONOf(t, args...)
	n := 0
	for _, r := range p.Rows {
		if r.Fits {
			n++
			if r.Parallelism.TP != 1 {
				t.Errorf("%s %s: TP %d, want 1", r.Provider, r.InstanceName, r.Parallelism.TP)
			}
		}
	}
	if n == 0 {
		t.Fatal("no fitting row")
	}
	code, out, errs := runPlanArgs(t, append(args, "--emit", "fsdp")...)
	if code != 0 {
		t.Fatalf("--emit fsdp: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "bnb_4bit_quant_storage=torch.bfloat16") || !strings.Contains(out, `fsdp_sharding_strategy: "FULL_SHARD"`) {
		t.Errorf("--emit fsdp:\n%s", out)
	}
}

// TestGptOssServesAsPublished: gpt-oss-20b ships its experts as MXFP4 and
// runs within 16 GB; planned at 16 bits (42 GB) it took four RTX 4090s at
// TP 4 or two RTX 5090s. Without --precision it is planned as published,
// on one 24 GB card, and the note says so.
func TestGptOssServesAsPublished(t *testing.T) {
	args := []string{"--model", "gpt-oss-20b", "--engine", "vllm", "--requests-per-second", "1", "--gpu", "rtx-4090", "--kind", "any"}
	p := planJSONOf(t, args...)
	ok := false
	for _, r := range p.Rows {
		if r.Recommendation == "cheapest" {
			ok = r.GPUsPerInstance == 1 && r.Parallelism.TP == 1
			if !ok {
				t.Errorf("cheapest %s: %v GPUs, TP %d", r.InstanceName, r.GPUsPerInstance, r.Parallelism.TP)
			}
		}
	}
	if !ok {
		t.Fatalf("no one-GPU cheapest pick: %d rows", len(p.Rows))
	}
	_, _, errs := runPlanArgs(t, args...)
	if !strings.Contains(errs, "--precision fp4: gpt-oss-20b ships its weights in fp4") {
		t.Errorf("stderr: %s", errs)
	}
}

// TestFlagErrorIsPrintable: a hostile flag value echoed in its error
// reaches the terminal as one printable line, its escape sequence and
// line separator written as escapes.
func TestFlagErrorIsPrintable(t *testing.T) {
	code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--engine", "vllm\x1b[2J\u2028x", "--requests-per-second", "1")
	if code != 2 || strings.ContainsAny(errs, "\x1b\u2028") || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `\x1b[2J`) {
		t.Errorf("exit %d: %q", code, errs)
	}
}

// TestDynamoOnlyOnNVIDIA: NVIDIA Dynamo's support matrix lists NVIDIA
// Ampere to Blackwell only; a Dynamo launch of DeepSeek-R1 on MI300X is
// refused naming the engine's own router, which launches there.
func TestDynamoOnlyOnNVIDIA(t *testing.T) {
	args := []string{"--model", "deepseek-r1", "--engine", "sglang", "--requests-per-second", "60", "--gpu", "mi300x", "--emit", "sglang", "--emit-pick", "disaggregated"}
	code, _, errs := runPlanArgs(t, append(args, "--emit-router", "dynamo")...)
	if code != 2 || !strings.Contains(errs, "NVIDIA Dynamo runs on NVIDIA Ampere, Ada, Hopper and Blackwell GPUs, not on CDNA3 (mi300x): use --emit-router engine") {
		t.Errorf("dynamo on mi300x: exit %d: %s", code, errs)
	}
	if code, out, errs := runPlanArgs(t, args...); code != 0 || !strings.Contains(out, "sglang_router.launch_router --pd-disaggregation") {
		t.Errorf("engine router on mi300x: exit %d: %s\n%s", code, errs, out)
	}
}

// TestGenericEstimateHasNoTokenSpeed: a rightsize-generic model (ResNet-50,
// SDXL's UNet) has no tokens; its estimate says speed is not modelled
// instead of printing tokens per second per request.
func TestGenericEstimateHasNoTokenSpeed(t *testing.T) {
	for _, m := range []string{"resnet-50", "sdxl-unet"} {
		code, out, errs := runEst(t, "--model", m, "--gpu", "l4")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", m, code, errs)
		}
		if strings.Contains(out, "tokens/s") || !strings.Contains(out, "speed: not modelled for a rightsize-generic model") {
			t.Errorf("%s:\n%s", m, out)
		}
	}
}

// TestMultiNodeScriptNeedsItsRank: a serve script over several instances
// stops at once, naming the variable, where NODE_RANK or HEAD_IP is
// unset; it passed "--node-rank --dist-init-addr :5000" to SGLang.
func TestMultiNodeScriptNeedsItsRank(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	code, out, errs := runPlanArgs(t, "--model", "kimi-k2", "--engine", "sglang", "--requests-per-second", "5", "--gpu", "h100-sxm", "--emit", "sglang")
	if code != 0 || !strings.Contains(out, "--nnodes ") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, env := range [][]string{{"HEAD_IP=10.0.0.1"}, {"NODE_RANK=0"}} {
		cmd := exec.Command(sh, "-c", out)
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		missing := "NODE_RANK"
		if env[0] == "NODE_RANK=0" {
			missing = "HEAD_IP"
		}
		if err == nil || !strings.Contains(string(b), "set "+missing+" to") || strings.Contains(string(b), "sglang") {
			t.Errorf("%v: %v: %s", env, err, b)
		}
	}
}
