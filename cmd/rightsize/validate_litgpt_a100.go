package main

import (
	"fmt"
	"path/filepath"
)

// ftA100 is the group of LitGPT's A100 40GB resource tables.
const ftA100 = "fine-tune memory, A100 40GB"

func init() {
	// after the other fine-tune memory groups
	for i, g := range valGroups {
		if g == "fine-tune memory, generic flags" {
			valGroups = append(valGroups[:i+1:i+1], append([]string{ftA100}, valGroups[i+1:]...)...)
			return
		}
	}
	valGroups = append(valGroups, ftA100)
}

// litgptA100Cases: Lit-GPT's resource tables (tutorials/resource-tables.md,
// measured at commit 8641822, 2023-10: A100-SXM4-40GB, PyTorch 2.1.0,
// bitsandbytes 0.41.1, bf16-true), the LoRA rows on 1 GPU and on 2 and 4
// GPUs under FSDP, replayed with the flags any fine-tuning framework has:
// the model, the task (bnb.nf4 and bnb.nf4-dq: QLoRA, --quant nf4 for the
// double-quantised one), the A100 40GB and the row's GPUs, its micro-batch,
// the sequence the peak step trains on (finetune/lora.py pads each
// micro-batch to its longest sample and puts the longest Alpaca example
// in the first one: the table's longest example for the model), 128
// sequences per optimizer step (lora.py's batch_size), bf16-true as
// --pure-bf16, lora.py's rank 8 on q and v (--lora-targets query-value,
// from the record's layer flags: litgptTargets) with dropout 0.05 and its
// strategy: on more than one GPU FSDP full shard with every Block
// checkpointed (--zero 3 --grad-checkpointing), on one no checkpointing
// (--grad-checkpointing=false, which QLoRA's default would otherwise
// turn on). Nothing LitGPT-specific
// (chunked loss, fused qkv adapter, held graph, 4-bit head) is passed;
// the estimate's defaults stand for them. Peak memory as lora.py prints
// it, torch.cuda.max_memory_allocated()/1e9, compared with the allocated
// peak; every row, OOM rows too, checks the fit call. Splits by model,
// set before any replay (the file's "split"): fit, phi-1.5 and Llama 2
// 7B; test, StableLM Alpha 3B and Falcon 40B; held back, Llama 2 13B.
func litgptA100Cases(dir string) ([]valCase, error) {
	const file = "public-2026-11/litgpt_resource_tables.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	cfg := func(name string) []string {
		return []string{"--config", filepath.Join(dir, "finetune_configs", name+".json")}
	}
	models := map[string][]string{"phi-1_5": cfg("phi-1_5"), "stablelm-base-alpha-3b": cfg("stablelm-base-alpha-3b"),
		"Llama-2-7b-hf": {"--model", "llama-2-7b"}, "Llama-2-13b-hf": {"--model", "llama-2-13b"}, "falcon-40b": {"--model", "falcon-40b"}}
	var out []valCase
	for _, r := range recs {
		m, ok := models[str(r["litgpt_config"])]
		if !ok {
			return nil, fmt.Errorf("%s: no model for %q", file, r["litgpt_config"])
		}
		sp := str(r["split"])
		if sp != "fit" && sp != "test" && sp != "heldback" {
			return nil, fmt.Errorf("%s: %s: split %q", file, r["id"], sp)
		}
		gpus, mb, seq := int(num(r["gpus"])), int(num(r["micro_batch_size"])), int(num(r["longest_train_example_tokens"]))
		targets, err := litgptTargets(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", file, r["id"], err)
		}
		args := append(append([]string{}, m...), "--gpu", "a100-40gb-sxm", "--gpus", itoa(gpus), "--batch", itoa(mb), "--seq", itoa(seq),
			"--global-batch", itoa(int(num(r["global_batch_size"]))), "--pure-bf16", // adapters in bf16, --adapter-dtype auto's under bf16-true
			"--lora-rank", itoa(int(num(r["lora_r"]))), "--lora-targets", targets, "--lora-dropout", fmt.Sprint(num(r["lora_dropout"])))
		switch q := str(r["quantization_as_printed"]); q {
		case "None":
			args = append(args, "--task", "lora")
		case "bnb.nf4":
			args = append(args, "--task", "qlora", "--precision", "int4")
		case "bnb.nf4-dq":
			args = append(args, "--task", "qlora", "--precision", "int4", "--quant", "nf4")
		default:
			return nil, fmt.Errorf("%s: %s: quantization %q", file, r["id"], q)
		}
		if gpus > 1 {
			args = append(args, "--zero", "3", "--grad-checkpointing")
		} else {
			// One device: Lit-GPT's lora.py checkpoints nothing, where a
			// QLoRA job's default does (estimator.QLoRACheckpointingDefault).
			args = append(args, "--grad-checkpointing=false")
		}
		c := valCase{Group: ftA100, Split: sp, Source: file, Engine: "Lit-GPT 8641822 (2023-10, bf16-true)",
			Setting: fmt.Sprintf("%s %s %s, %d × A100 40GB, batch %d × %d, peak allocated", r["size_as_printed"], r["model_as_printed"],
				r["quantization_as_printed"], gpus, mb, seq),
			Args: args, Field: "peak_allocated_bytes", Scale: 1e-9, Unit: "GB", Call: true}
		if r["out_of_memory"] == true {
			c.OOM = true
		} else {
			c.Measured = num(r["peak_memory_gb"])
		}
		out = append(out, c)
	}
	return out, nil
}
