package main

import (
	"encoding/json"
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
