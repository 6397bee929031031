package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPlanReadsGlobalBatch: `rightsize plan --global-batch N` asks the
// planner for N sequences a step, as the page does with its global batch
// field (page.GlobalBatchTokens: sequences × sequence length). The plan
// had read --global-batch-tokens only, so the CLI priced the default
// batch where the page priced the user's.
func TestPlanReadsGlobalBatch(t *testing.T) {
	hours := func(extra ...string) float64 {
		t.Helper()
		args := append([]string{"--model", "llama-3.1-8b", "--task", "train", "--gpu", "h100-sxm", "--seq", "4096",
			"--train-tokens", "10B", "--json"}, extra...)
		code, out, errs := runPlanArgs(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Rows []struct {
				JobHours float64 `json:"job_hours"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Rows) == 0 {
			t.Fatalf("%v: %v, %d rows", args, err, len(r.Rows))
		}
		return r.Rows[0].JobHours
	}
	seqs, tokens, none := hours("--global-batch", "16"), hours("--global-batch-tokens", "65536"), hours()
	if seqs != tokens {
		t.Errorf("--global-batch 16 plans %.4f h, --global-batch-tokens 65536 (16 × 4096) %.4f h", seqs, tokens)
	}
	if seqs == none {
		t.Errorf("--global-batch 16 plans the default batch's %.4f h", none)
	}
	code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--task", "train", "--global-batch", "16", "--global-batch-tokens", "4M")
	if code == 0 || !strings.Contains(errs, "exclusive") {
		t.Errorf("both batch flags: exit %d, %q", code, errs)
	}
}

// TestPlanPastTheBatchShowsItsLayout: Llama 3.1 8B pre-trained on 15T
// tokens at 8K on up to 2,048 instances: the fastest pick runs the
// default batch's 256 replicas on more GPUs each (TP × CP), and the
// table, the JSON and the notes say its whole layout: DP = GPUs / (TP ×
// PP × CP), the CP after the ZeRO stage ("2/1/256/1 cp4"), and why.
// --emit fsdp refuses it for Megatron-LM.
func TestPlanPastTheBatchShowsItsLayout(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "train", "--train-tokens", "15T", "--seq", "8192", "--max-instances", "2048"}
	fa, ok := picksOf(t, planJSONOf(t, args...))["fastest"]
	if !ok {
		t.Fatal("no fastest pick")
	}
	par := fa.Parallelism
	if par.DP != 256 || par.ContextParallel < 2 || int(fa.GPUs) != par.DP*par.TP*par.PP*par.ContextParallel ||
		!slices.ContainsFunc(fa.Notes, func(n string) bool { return strings.Contains(n, "the global batch of 256 sequences holds at most 256") }) {
		t.Errorf("fastest %s ×%d on %v GPUs: %+v; notes %q", fa.InstanceName, fa.Instances, fa.GPUs, par, fa.Notes)
	}
	code, out, errs := runPlanArgs(t, args...)
	if cell := fmt.Sprintf(" %d/%d/%d/%d cp%d ", par.TP, par.PP, par.DP, par.ZeRO, par.ContextParallel); code != 0 || !strings.Contains(out, cell) {
		t.Errorf("exit %d (%s); the table has no %q:\n%s", code, errs, cell, out)
	}
	code, _, errs = runPlanArgs(t, append(args, "--emit", "fsdp", "--emit-pick", "fastest")...)
	if code == 0 || !strings.Contains(errs, "× CP "+strconv.Itoa(par.ContextParallel)) || !strings.Contains(errs, "Megatron-LM") {
		t.Errorf("--emit fsdp: exit %d, %q", code, errs)
	}
}
