package main

import (
	"fmt"
	"strconv"
	"strings"
)

// devicePrefillCases: our own whole-model prefills on one H200
// (device-h200-2026-11-30/prefill.json, dense, and
// device-h200-2026-11-30-moe/moe_prefill.json, MoE through transformers'
// grouped_mm experts backend: HF transformers 5.17, PyTorch 2.11, SDPA,
// random bf16 weights from the public configs, batch 1, the last token's
// logits only, the median of 5 forwards after 2 warm-ups, 3 after 1 for
// the MoE models). The forward is the prefill without sampling the first
// token, which the estimate's time to first token also holds (one
// decode-sized step's worth at most): test rows, nothing was fitted on
// them.
func devicePrefillCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, src := range []struct{ file, engine string }{
		{"device-h200-2026-11-30/prefill.json", "HF transformers 5.17, PyTorch 2.11 (SDPA, cuDNN)"},
		{"device-h200-2026-11-30-moe/moe_prefill.json", "HF transformers 5.17, PyTorch 2.11 (SDPA, grouped_mm experts)"},
	} {
		var f struct{ Points []map[string]any }
		if err := readJSON(dir, src.file, &f); err != nil {
			return nil, err
		}
		for _, p := range f.Points {
			n, sec := int(num(p["tokens"])), num(p["seconds_median"])
			if n <= 0 || sec <= 0 {
				continue // a point that recorded an error
			}
			out = append(out, valCase{Group: "prefill/TTFT", Split: "test", Source: src.file, Engine: src.engine,
				Setting: fmt.Sprintf("%s H200 BF16 batch 1, prompt %d, whole-model forward", p["model"], n),
				Args: []string{"--model", str(p["model"]), "--gpu", "h200-sxm", "--engine", "hf", "--precision", "bf16", "--batch", "1",
					"--seq", itoa(n + 1), "--prompt-tokens", itoa(n), "--output-tokens", "1"},
				Field: "performance.time_to_first_token_seconds", Scale: 1000, Measured: 1000 * sec, Unit: "ms"})
		}
	}
	return out, nil
}

// deviceH200MemoryCases: our own fine-tunes on one H200
// (device-h200-2026-11-30/ft.json and ft2.json: HF transformers 5.17 and
// PEFT 0.21, random weights, sequence 512–2,048), peak
// torch.cuda.max_memory_allocated over three steps' forward, backward and
// optimizer phases, in GB. bf16-true (--pure-bf16) unless the run was
// mixed precision (fp32 weights and states, bf16 autocast: --precision
// bf16); PEFT's fp32 adapters, --adapter-dtype fp32 (auto keeps them fp32
// under autocast only); AdamW
// foreach or fused as the run built it. Rows the flags cannot
// say are left out: the FSDP2 runs on one GPU (fsdpRootBytes holds no root
// copy at one GPU), LoRA on the LM head, and models outside the catalog
// (Phi-3 mini). Test rows: nothing was fitted on them.
func deviceH200MemoryCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, file := range []string{"device-h200-2026-11-30/ft.json", "device-h200-2026-11-30/ft2.json"} {
		var f struct{ Runs []map[string]any }
		if err := readJSON(dir, file, &f); err != nil {
			return nil, err
		}
		for _, r := range f.Runs {
			model, method := str(r["model"]), str(r["method"])
			if r["fsdp2_world1"] == true || model == "phi-3-mini" || r["peak_allocated_bytes"] == nil {
				continue
			}
			b, sq := int(num(r["micro_batch"])), int(num(r["seq"]))
			task := map[string]string{"full": "finetune", "lora": "lora"}[method]
			if task == "" {
				continue
			}
			args := []string{"--model", model, "--task", task, "--gpu", "h200-sxm", "--batch", itoa(b), "--seq", itoa(sq), "--precision", "bf16"}
			mixed := strings.HasPrefix(str(r["precision"]), "mixed")
			if !mixed {
				args = append(args, "--pure-bf16")
			}
			impl := "foreach"
			if strings.HasSuffix(str(r["optimizer"]), "fused") {
				impl = "fused"
			}
			args = append(args, "--optimizer-impl", impl)
			lora := ""
			if l, ok := r["lora"].(map[string]any); ok {
				targets := "query-value"
				switch t := l["targets"].(type) {
				case string:
					if t != "all-linear" {
						continue
					}
					targets = "all-linear"
				case []any:
					if len(t) != 2 {
						continue // every linear and the head: the head's adapter has no flag
					}
				}
				args = append(args, "--lora-rank", itoa(int(num(l["r"]))), "--lora-targets", targets, "--lora-dropout", strconv.FormatFloat(num(l["dropout"]), 'g', -1, 64),
					"--adapter-dtype", "fp32")
				lora = fmt.Sprintf(" r%d %s dropout %g", int(num(l["r"])), targets, num(l["dropout"]))
			}
			ckpt := r["activation_checkpointing"] == true
			if ckpt {
				args = append(args, "--grad-checkpointing")
			}
			prec := "bf16-true"
			if mixed {
				prec = "mixed"
			}
			out = append(out, valCase{Group: "fine-tune memory", Split: "test", Source: file, Engine: "HF transformers 5.17 (PEFT 0.21)",
				Setting: fmt.Sprintf("%s %s%s H200 %s AdamW %s, batch %d × %d checkpointing=%v, peak memory (allocated)", model, task, lora, prec, impl, b, sq, ckpt),
				Args:    args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: (num(r["peak_allocated_bytes"]) - leftover(r, mixed)) / (1 << 30), Unit: "GiB"})
		}
	}
	return out, nil
}

// leftover is what earlier jobs of the same process still held when an
// ft.py job built its model: the allocation after building it less its
// parameters (2 bytes each in bf16, 4 in mixed precision's fp32), where it
// is a leak (above leakBytes: 0.6–2.3 GB in ft5.json's later LoRA jobs);
// a measured peak is taken net of it.
func leftover(r map[string]any, mixed bool) float64 {
	w := 2.0
	if mixed {
		w = 4
	}
	if l := num(r["weights_allocated_bytes"]) - w*num(r["params"]); l > leakBytes {
		return l
	}
	return 0
}

// leakBytes is the leftover above which an earlier job's leak is taken
// out: below it the difference is the CUDA libraries' workspaces (cuBLAS's
// per-stream workspace, made by an earlier job's first matmul), which a
// job in a fresh process allocates on its own first matmul too.
const leakBytes = 0.25e9

// deviceFSDPMemoryCases: our own FSDP fine-tunes at 2–8 GPUs, measured on
// one H200 through PyTorch's fake process group
// (device-h200-2026-11-30-fsdp/ft3.json and ft4.json, which accumulates
// 2 micro-batches without the gradient sync: HF transformers 5.17, PyTorch
// 2.11, FSDP2 fully_shard or FSDP1 FullyShardedDataParallel per decoder
// layer and the root, random weights; a rank's shards, gathers and
// reduce-scatter outputs are allocated as on W GPUs), peak
// torch.cuda.max_memory_allocated over three steps, net of what earlier
// jobs left allocated (leftover); ft5.json: LoRA with bf16 adapters (as
// LitGPT keeps them) under FSDP1, accumulating as LitGPT's global batch
// makes it. bf16-true (--pure-bf16) unless mixed (fp32 weights and states,
// bf16 autocast, FSDP gathering fp32 as Lightning's FSDPPrecision does for
// bf16-mixed, --fsdp-fp32-gather); AdamW foreach; PEFT's fp32 adapters. Test rows: nothing
// was fitted on them; the calibration README's ninety-second round reads
// them.
func deviceFSDPMemoryCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, file := range []string{"device-h200-2026-11-30-fsdp/ft3.json", "device-h200-2026-11-30-fsdp/ft4.json", "device-h200-2026-11-30-fsdp/ft5.json"} {
		var f struct{ Runs []map[string]any }
		if err := readJSON(dir, file, &f); err != nil {
			return nil, err
		}
		for _, r := range f.Runs {
			if r["peak_allocated_bytes"] == nil {
				continue // a run that recorded an error (FSDP1 over PEFT's mixed-dtype units)
			}
			model, method, w := str(r["model"]), str(r["method"]), int(num(r["fsdp_world"]))
			task := map[string]string{"full": "finetune", "lora": "lora"}[method]
			if task == "" || w < 2 || model == "phi-3-mini" {
				continue
			}
			b, sq := int(num(r["micro_batch"])), int(num(r["seq"]))
			args := []string{"--model", model, "--task", task, "--gpu", "h200-sxm", "--gpus", itoa(w), "--zero", "3",
				"--batch", itoa(b), "--seq", itoa(sq), "--precision", "bf16", "--optimizer-impl", "foreach"}
			acc := max(1, int(num(r["accumulation"])))
			if acc > 1 {
				// micro-batches accumulated under no_sync (FSDP1) or without
				// the gradient sync (FSDP2): --fsdp-no-sync's default
				args = append(args, "--global-batch", itoa(b*w*acc))
			}
			mixed := strings.HasPrefix(str(r["precision"]), "mixed")
			if !mixed {
				args = append(args, "--pure-bf16")
			} else {
				// FSDP2 without a MixedPrecisionPolicy under autocast:
				// the fp32 gather, as Lightning's bf16-mixed runs it.
				args = append(args, "--fsdp-fp32-gather")
			}
			lora := ""
			if l, ok := r["lora"].(map[string]any); ok {
				targets := "query-value"
				if str(l["targets"]) == "all-linear" {
					targets = "all-linear"
				}
				ad := "fp32" // PEFT's default
				if str(l["adapter_dtype"]) == "bf16" {
					ad = "bf16" // autocast_adapter_dtype=False, as LitGPT keeps them
				}
				args = append(args, "--lora-rank", itoa(int(num(l["r"]))), "--lora-targets", targets,
					"--lora-dropout", strconv.FormatFloat(num(l["dropout"]), 'g', -1, 64), "--adapter-dtype", ad)
				if strings.HasPrefix(str(r["fsdp_kind"]), "FSDP2") {
					// FSDP2 shards parameter by parameter: the frozen
					// weights keep no gradient, as with the adapters as
					// units of their own.
					args = append(args, "--fsdp-adapter-units")
				}
				lora = fmt.Sprintf(" r%d %s, %s adapters", int(num(l["r"])), targets, ad)
			}
			ckpt := r["activation_checkpointing"] == true
			if ckpt {
				args = append(args, "--grad-checkpointing")
			}
			prec := "bf16-true"
			if mixed {
				prec = "mixed"
			}
			out = append(out, valCase{Group: "fine-tune memory", Split: "test", Source: file, Engine: "HF transformers 5.17 (PEFT 0.21), " + str(r["fsdp_kind"]),
				Setting: fmt.Sprintf("%s %s%s %d × H200 %s %s, batch %d × %d × %d micro-batches checkpointing=%v, peak memory (allocated)", model, task, lora, w, str(r["fsdp_kind"]), prec, b, sq, acc, ckpt),
				Args:    args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: (num(r["peak_allocated_bytes"]) - leftover(r, mixed)) / (1 << 30), Unit: "GiB"})
		}
	}
	return out, nil
}
