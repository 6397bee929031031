package main

import "slices"

// ftLightning is the group of LitGPT's rows replayed with the run's
// Lightning precision name and no more than a table prints.
const ftLightning = "fine-tune memory, Lightning precision"

func init() {
	// after the other fine-tune memory groups
	for i, g := range valGroups {
		if g == ftA100 {
			valGroups = append(valGroups[:i+1:i+1], append([]string{ftLightning}, valGroups[i+1:]...)...)
			return
		}
	}
	valGroups = append(valGroups, ftLightning)
}

// lightningKept are the flags of litgptCases and litgptA100Cases that a
// replay from the printed row and the config file it names gives, with
// the count of values each takes: the model, the task, the GPU and the
// row's GPU count, its micro-batch and sequence, the config's global
// batch, and FSDP full shard with every Block checkpointed where the row
// ran it. The global batch is the config's (global_batch_size in the
// vendored record, read from the config the row names): it sets how many
// micro-batches each rank accumulates inside no_sync, and so whether
// FSDP holds the whole model's gradients, which LitGPT's full.py default
// of 16 would set otherwise (the config hub's Llama 2 7B and Llama 3 8B
// full.yaml set 64, phi-2's 8).
var lightningKept = map[string]int{"--model": 1, "--config": 1, "--task": 1, "--gpu": 1, "--gpus": 1, "--batch": 1, "--seq": 1,
	"--global-batch": 1, "--zero": 1, "--grad-checkpointing": 0}

// litgptLightningCases replays every bf16-true row of LitGPT's tables
// (litgptCases: the config hub's automated and hand-written tables;
// litgptA100Cases: Lit-GPT's A100 40GB resource tables) as a user who
// reads the row and names its precision as printed: --precision
// bf16-true, and only the flags lightningKept lists. What the row's config
// or script set beyond them (the LoRA rank, layers and
// dropout, bnb.nf4's double quantisation, LitGPT's chunked loss, untied
// head, fused qkv adapter, held graph and 4-bit head) is left to the
// estimate's defaults for a Lightning precision name. Splits, fit calls
// and the rows left out as not the printed setup are the source groups'.
func litgptLightningCases(dir string) ([]valCase, error) {
	hub, err := litgptCases(dir)
	if err != nil {
		return nil, err
	}
	a100, err := litgptA100Cases(dir)
	if err != nil {
		return nil, err
	}
	out := make([]valCase, 0, len(hub)+len(a100))
	for _, c := range slices.Concat(hub, a100) {
		args := []string{"--precision", "bf16-true"}
		for i := 0; i < len(c.Args); i++ {
			n, ok := lightningKept[c.Args[i]]
			if ok {
				args = append(args, c.Args[i:i+1+n]...)
			} else if i+1 < len(c.Args) && len(c.Args[i+1]) > 0 && c.Args[i+1][0] != '-' {
				i++ // the dropped flag's value
			}
			i += n
		}
		g := c
		g.Group, g.Args, g.SetupArgs = ftLightning, args, c.Args
		g.Setting = c.Setting + ", Lightning precision"
		out = append(out, g)
	}
	return out, nil
}
