package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every bf16-true row of LitGPT's tables, replayed with the run's
// precision name and only the model, task, GPU, GPU count, micro-batch,
// sequence and (where the row ran it) FSDP with checkpointing, is called
// right: the Lightning name plans LitGPT's scripts with their defaults
// (page.litgptDefaults), so the FSDP LoRA runs accumulate under no_sync
// (Llama 2 13B on 2 A100s and Falcon 40B on 4 ran out of memory; both
// were called fitting at one micro-batch a step) and Gemma 7B's LoRA
// carries LitGPT's untied 256K × 3072 head (out of memory on the A10G,
// called fitting with a tied one). The two full fine-tunes on 4 A10Gs at
// micro-batch 4 are the exception the inputs leave: their configs set a
// global batch of 64 where the scripts default to 16, one micro-batch a
// step at that shape, so FSDP shards the gradients; given the global
// batch, both are called out of memory. Llama 2 7B LoRA at micro-batch 4
// on one A100 40GB (out of memory) is called out of memory with LitGPT's
// attention (--litgpt-attention): with 32 KV heads for 32 query heads V
// reaches SDPA as a view of the fused qkv output, which it keeps whole,
// 2 × 4096 × 2 B a token a layer more (41.95 GB; 39.22 GB, called
// fitting, without it).
func TestLitGPTLightningReplay(t *testing.T) {
	dir := filepath.Join("..", "..", "estimator", "testdata", "calibration")
	rows, err := litgptLightningCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 59+35 {
		t.Fatalf("%d rows, want 94", len(rows))
	}
	leftByInputs := map[string]bool{
		"llama-2-7b full fine-tune, 4xA10G (4 GPU), batch 4 × 512, peak allocated, Lightning precision": true,
		"llama-3-8b full fine-tune, 4xA10G (4 GPU), batch 4 × 512, peak allocated, Lightning precision": true,
	}
	oom, wrong := 0, 0
	for _, c := range rows {
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--") && a != "--precision" {
				if _, ok := lightningKept[a]; !ok {
					t.Errorf("%s: %s is not a flag the row gives: %q", c.Setting, a, c.Args)
				}
			}
		}
		if err := c.run(); err != nil {
			t.Fatal(err)
		}
		if c.Inconsistent {
			continue
		}
		if c.OOM {
			oom++
		}
		if c.EstFits != c.OOM {
			continue
		}
		if !leftByInputs[c.Setting] {
			t.Errorf("%s: fits=%v, but the run %s", c.Setting, c.EstFits, map[bool]string{true: "ran out of memory", false: "ran"}[c.OOM])
			continue
		}
		wrong++
		g := c
		g.Args = append(append([]string{}, c.Args...), "--global-batch", "64")
		if err := g.run(); err != nil {
			t.Fatal(err)
		}
		if g.EstFits {
			t.Errorf("%s: with its config's --global-batch 64 still called fitting", c.Setting)
		}
	}
	if oom != 15 || wrong != len(leftByInputs) {
		t.Errorf("%d out-of-memory rows (want 15), %d wrong calls left (want the %d full fine-tunes)", oom, wrong, len(leftByInputs))
	}
}
