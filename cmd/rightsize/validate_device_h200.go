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
// optimizer phases, in GB (ftRun). Rows the flags cannot say are left out:
// the FSDP2 runs on one GPU (fsdpRootBytes holds no root copy at one GPU),
// LoRA on the LM head, and models outside the catalog (Phi-3 mini). Test
// rows: nothing was fitted on them.
func deviceH200MemoryCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, file := range []string{"device-h200-2026-11-30/ft.json", "device-h200-2026-11-30/ft2.json"} {
		var f struct{ Runs []map[string]any }
		if err := readJSON(dir, file, &f); err != nil {
			return nil, err
		}
		for _, r := range f.Runs {
			run, ok := readFTRun(r)
			if !ok || r["fsdp2_world1"] == true {
				continue
			}
			lora := ""
			if run.lora != nil {
				lora = fmt.Sprintf(" r%d %s dropout %g", run.lora.rank, run.lora.targets, run.lora.dropout)
			}
			out = append(out, valCase{Group: "fine-tune memory", Split: "test", Source: file, Engine: "HF transformers 5.17 (PEFT 0.21)",
				Setting: fmt.Sprintf("%s %s%s H200 %s AdamW %s, batch %d × %d checkpointing=%v, peak memory (allocated)", run.model, run.task, lora, run.prec(), run.impl, run.batch, run.seq, run.ckpt),
				Args:    run.args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: run.measured / (1 << 30), Unit: "GiB"})
		}
	}
	return out, nil
}

// ftRun is one run of device-finetune/ft.py's schema, as every replay of
// it reads it: bf16-true (--pure-bf16) unless the run was mixed precision
// (fp32 weights and states, bf16 autocast: --precision bf16); AdamW foreach
// or fused as the run built it; LoRA's rank, targets (q and v, or every
// linear), dropout and adapter dtype (PEFT's fp32 unless the run kept them
// in bf16, autocast_adapter_dtype=False, as LitGPT does); checkpointing;
// the peak allocated net of what earlier jobs left (leftover).
type ftRun struct {
	model, task, impl string
	batch, seq        int
	mixed, ckpt       bool
	lora              *ftLoRA
	args              []string // the flags every replay of the run passes
	measured          float64  // bytes
}

type ftLoRA struct {
	rank             int
	targets, adapter string
	dropout          float64
}

// prec names the run's precision in a setting.
func (r ftRun) prec() string {
	if r.mixed {
		return "mixed"
	}
	return "bf16-true"
}

// readFTRun reads r, or reports false for a run no flags can replay: one
// that recorded an error, a method other than full and LoRA, a model
// outside the catalog (Phi-3 mini), LoRA on the LM head too.
func readFTRun(r map[string]any) (ftRun, bool) {
	run := ftRun{model: str(r["model"]), task: map[string]string{"full": "finetune", "lora": "lora"}[str(r["method"])],
		batch: int(num(r["micro_batch"])), seq: int(num(r["seq"])), impl: "foreach",
		mixed: strings.HasPrefix(str(r["precision"]), "mixed"), ckpt: r["activation_checkpointing"] == true}
	if r["peak_allocated_bytes"] == nil || run.task == "" || run.model == "phi-3-mini" {
		return run, false
	}
	if strings.HasSuffix(str(r["optimizer"]), "fused") {
		run.impl = "fused"
	}
	run.args = []string{"--model", run.model, "--task", run.task, "--gpu", "h200-sxm", "--batch", itoa(run.batch), "--seq", itoa(run.seq),
		"--precision", "bf16", "--optimizer-impl", run.impl}
	if !run.mixed {
		run.args = append(run.args, "--pure-bf16")
	}
	if l, ok := r["lora"].(map[string]any); ok {
		lo := ftLoRA{rank: int(num(l["r"])), targets: "query-value", adapter: "fp32", dropout: num(l["dropout"])}
		switch t := l["targets"].(type) {
		case string:
			if t != "all-linear" {
				return run, false
			}
			lo.targets = "all-linear"
		case []any:
			if len(t) != 2 {
				return run, false // every linear and the head: the head's adapter has no flag
			}
		}
		if str(l["adapter_dtype"]) == "bf16" {
			lo.adapter = "bf16"
		}
		run.lora = &lo
		run.args = append(run.args, "--lora-rank", itoa(lo.rank), "--lora-targets", lo.targets,
			"--lora-dropout", strconv.FormatFloat(lo.dropout, 'g', -1, 64), "--adapter-dtype", lo.adapter)
	}
	if run.ckpt {
		run.args = append(run.args, "--grad-checkpointing")
	}
	run.measured = num(r["peak_allocated_bytes"]) - leftover(r, run.mixed)
	return run, true
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
// (device-h200-2026-11-30-fsdp/ft3.json; ft4.json, which accumulates 2
// micro-batches without the gradient sync; ft5.json, LoRA with bf16
// adapters as LitGPT keeps them, accumulating as LitGPT's global batch
// makes it: HF transformers 5.17, PyTorch 2.11, FSDP2 fully_shard or FSDP1
// FullyShardedDataParallel per decoder layer and the root, random weights;
// a rank's shards, gathers and reduce-scatter outputs are allocated as on
// W GPUs), read as ftRun; mixed precision is FSDP gathering fp32 as
// Lightning's FSDPPrecision does for bf16-mixed (--fsdp-fp32-gather). Test
// rows: nothing was fitted on them; the calibration README's ninety-second
// to ninety-fourth rounds read them.
func deviceFSDPMemoryCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, file := range []string{"device-h200-2026-11-30-fsdp/ft3.json", "device-h200-2026-11-30-fsdp/ft4.json", "device-h200-2026-11-30-fsdp/ft5.json"} {
		var f struct{ Runs []map[string]any }
		if err := readJSON(dir, file, &f); err != nil {
			return nil, err
		}
		for _, r := range f.Runs {
			run, ok := readFTRun(r)
			w := int(num(r["fsdp_world"]))
			if !ok || w < 2 {
				continue
			}
			kind := str(r["fsdp_kind"])
			args := append(run.args, "--gpus", itoa(w), "--zero", "3")
			if strings.HasPrefix(kind, "FSDP2") {
				args = append(args, "--fsdp2")
			}
			acc := max(1, int(num(r["accumulation"])))
			if acc > 1 {
				// micro-batches accumulated under no_sync (FSDP1) or without
				// the gradient sync (FSDP2): --fsdp-no-sync's default
				args = append(args, "--global-batch", itoa(run.batch*w*acc))
			}
			if run.mixed {
				// FSDP2 without a MixedPrecisionPolicy under autocast:
				// the fp32 gather, as Lightning's bf16-mixed runs it.
				args = append(args, "--fsdp-fp32-gather")
			}
			lora := ""
			if run.lora != nil {
				if strings.HasPrefix(kind, "FSDP2") {
					// FSDP2 shards parameter by parameter: the frozen
					// weights keep no gradient, as with the adapters as
					// units of their own.
					args = append(args, "--fsdp-adapter-units")
				}
				lora = fmt.Sprintf(" r%d %s, %s adapters", run.lora.rank, run.lora.targets, run.lora.adapter)
			}
			out = append(out, valCase{Group: "fine-tune memory", Split: "test", Source: file, Engine: "HF transformers 5.17 (PEFT 0.21), " + kind,
				Setting: fmt.Sprintf("%s %s%s %d × H200 %s %s, batch %d × %d × %d micro-batches checkpointing=%v, peak memory (allocated)", run.model, run.task, lora, w, kind, run.prec(), run.batch, run.seq, acc, run.ckpt),
				Args:    args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: run.measured / (1 << 30), Unit: "GiB"})
		}
	}
	return out, nil
}
