package main

import (
	"encoding/json"
	"math"
	"testing"
)

// TestFixedServingGPUsAreCopies: `plan --gpu G --gpus 2` for a serving
// job (no --tp) is two data-parallel copies of one GPU, as the estimate
// reads --gpus 2 --tp 1 (twice one GPU's tokens/s). The plan had made
// each 2-GPU instance one copy of a one-GPU engine: a 2 × A100 instance
// served what one A100 serves and billed the other idle.
func TestFixedServingGPUsAreCopies(t *testing.T) {
	code, out, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--requests-per-second", "5", "--gpu", "a100-80gb-sxm", "--gpus", "2", "--all", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Rows []struct {
			ID           string  `json:"offer_id"`
			PerInstance  int     `json:"gpus_per_instance"`
			RPSPerCopy   float64 `json:"sustainable_rps_per_replica"`
			InstancesPer int     `json:"instances_per_replica"`
			Parallelism  struct {
				TP, DP int
			} `json:"parallelism"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	byID := map[string]float64{}
	checked := 0
	for _, row := range r.Rows {
		byID[row.ID] = row.RPSPerCopy
		if row.InstancesPer == 1 && row.Parallelism.TP == 1 && row.PerInstance > 1 && row.Parallelism.DP != row.PerInstance {
			t.Errorf("%s: %d GPUs an instance run DP %d of TP 1", row.ID, row.PerInstance, row.Parallelism.DP)
		}
	}
	one, two := byID["verda-1a100.22v"], byID["verda-2a100.44v"]
	if one > 0 && two > 0 {
		checked++
		if math.Abs(two-2*one) > 1e-6*two {
			t.Errorf("2 × A100 instance serves %.3f req/s, one A100 %.3f: want twice", two, one)
		}
	}
	if checked == 0 {
		t.Fatalf("no verda 1× and 2× A100 rows to compare: %v", byID)
	}
}
