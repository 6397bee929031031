package estimator

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadArch(t testing.TB, file string) Arch {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "configs", file))
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type calRow struct {
	model, setting      string
	measured, estimated float64 // same unit
	unit                string
	tol                 float64 // asserted relative tolerance; 0 = logged only
	note                string
}

// TestCalibration compares estimates with the published measurements in
// testdata/calibration and prints an error table (go test -run Calibration -v).
func TestCalibration(t *testing.T) {
	var rows []calRow
	rows = append(rows, bertRows(t)...)
	rows = append(rows, vllmRows(t)...)
	rows = append(rows, octocoderRows(t)...)

	reportCalibration(t, rows)
}

// reportCalibration prints the error table of rows and fails each asserted
// row outside its tolerance; rows with tol 0 are logged with their note.
func reportCalibration(t *testing.T, rows []calRow) {
	t.Helper()
	t.Logf("%-22s %-46s %12s %12s %8s", "model", "setting", "measured", "estimated", "error")
	for _, r := range rows {
		e := relErr(r.estimated, r.measured)
		mark := ""
		if r.tol == 0 {
			mark = " (logged only: " + r.note + ")"
		} else if r.note != "" {
			mark = " (" + r.note + ")"
		}
		t.Logf("%-22s %-46s %12.6g %12.6g %+7.1f%% %s%s", r.model, r.setting, r.measured, r.estimated, 100*e, r.unit, mark)
		if r.tol > 0 && math.Abs(e) > r.tol {
			t.Errorf("%s %s: estimated %.4g, measured %.4g %s: error %+.1f%% beyond ±%.0f%%", r.model, r.setting, r.estimated, r.measured, r.unit, 100*e, 100*r.tol)
		}
	}
}

type measurement struct {
	ID                    string `json:"id"`
	Precision             string `json:"precision"`
	Optimizer             string `json:"optimizer"`
	BatchSize             int    `json:"batch_size"`
	SeqLen                int    `json:"seq_len"`
	GradientCheckpointing bool   `json:"gradient_checkpointing"`
	Measured              any    `json:"measured_gpu_memory"`
}

// bertRows: HF "Efficient training on a single GPU" / "Model training
// anatomy" series, bert-large-uncased on a V100 16 GB, nvidia-smi MiB
// (includes the CUDA context, which the same series measured as 1343 MiB;
// we pass that as the CUDAContext override). Tolerance ±10%.
func bertRows(t *testing.T) []calRow {
	data, err := os.ReadFile(filepath.Join("testdata", "calibration", "memory_measurements.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Records []measurement }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	a := loadArch(t, "bert-large-uncased.json")
	var context float64
	for _, m := range f.Records {
		if m.ID == "hf-bert-large-cuda-context" {
			context = m.Measured.(float64)
		}
	}
	if context == 0 {
		t.Fatal("no CUDA context record")
	}
	base := DefaultInput(a)
	base.UsableVRAM = 16160 * MiB // nvidia-smi total in the records
	base.FlashAttention = false   // 2021-era eager attention
	base.Overheads.CUDAContext = OptionalBytes{Set: true, Value: Bytes(context) * MiB}
	var rows []calRow
	for _, m := range f.Records {
		in := base
		setting := ""
		switch {
		case m.ID == "hf-bert-large-weights-loaded":
			in.Weights = FP32
			r := estimate(in)
			rows = append(rows, calRow{"bert-large-uncased", "fp32 weights loaded (V100)", m.Measured.(float64),
				float64(r.PerGPU.Weights+r.PerGPU.CUDAContext) / float64(MiB), "MiB", 0.03, ""})
			continue
		case !strings.HasPrefix(m.ID, "hf-bert-large-train"):
			continue
		}
		in.Task = FullFinetune
		in.Batch, in.Seq = m.BatchSize, m.SeqLen
		in.GradCheckpointing = m.GradientCheckpointing
		in.Weights = FP32
		if strings.HasPrefix(m.Precision, "fp16") {
			in.Weights = FP16
		}
		switch {
		case strings.Contains(m.Optimizer, "Adafactor"):
			in.Optimizer = Adafactor
		case strings.Contains(m.Optimizer, "8bit"):
			in.Optimizer = AdamW8bit
		default:
			in.Optimizer = AdamW
		}
		setting = fmt.Sprintf("train %s bs%d s%d %s gc=%v", in.Weights, in.Batch, in.Seq, in.Optimizer, in.GradCheckpointing)
		r, err := Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, calRow{"bert-large-uncased", setting, m.Measured.(float64), float64(r.PerGPU.Total()) / float64(MiB), "MiB", 0.10, ""})
	}
	if len(rows) != 10 {
		t.Errorf("found %d BERT rows, want 10", len(rows))
	}
	return rows
}

// vllmRows: vLLM v0.19 startup logs on an H100 (79.19 GiB physical), TP 1,
// max_model_len 8192, gpu_memory_utilization 0.95, from the llm-d planner
// accuracy report (testdata/calibration/engine_observations.md rows 4, 6).
// Tolerance ±5% on KV-pool tokens.
func vllmRows(t *testing.T) []calRow {
	h100 := func(a Arch, kv DType) Input {
		in := DefaultInput(a)
		in.Engine, in.GPUMemUtil, in.Seq, in.KV = VLLM, 0.95, 8192, kv
		in.UsableVRAM = toBytes(79.19 * float64(GiB))
		return in
	}
	var rows []calRow
	for _, c := range []struct {
		file, model string
		kv          DType
		tokens      float64
		weightsGiB  float64
		actGiB      float64
	}{
		{"llama-3.1-8b.json", "Llama-3.1-8B", BF16, 476016, 14.99, 1.89},
		{"qwen2.5-7b.json", "Qwen2.5-7B", BF16, 1096000, 14.25, 2.21},
		{"qwen2.5-7b.json", "Qwen2.5-7B", FP8, 2192000, 0, 0},
	} {
		r, err := Estimate(h100(loadArch(t, c.file), c.kv))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, calRow{c.model, "vLLM H100 util 0.95 KV " + c.kv.String() + " pool tokens", c.tokens, float64(r.KVPoolTokens), "tokens", 0.05, ""})
		if c.weightsGiB > 0 {
			rows = append(rows, calRow{c.model, "vLLM weights (GiB×1000)", 1000 * c.weightsGiB, 1000 * r.PerGPU.Weights.GiB(), "mGiB", 0.01, ""})
			rows = append(rows, calRow{c.model, "vLLM activation peak (GiB×1000)", 1000 * c.actGiB, 1000 * (r.PerGPU.Activations + r.PerGPU.Logits).GiB(), "mGiB", 0.10, ""})
		}
	}
	// Row 8: RTX 4090 (24 GiB), util 0.9, vLLM version and
	// max_num_batched_tokens not stated in LLMServingSim PR #59.
	in := h100(loadArch(t, "llama-3.1-8b.json"), BF16)
	in.UsableVRAM, in.VRAM, in.GPUMemUtil, in.MaxBatchedTokens = 0, 24*GiB, 0.9, 2048
	r, _ := Estimate(in)
	rows = append(rows, calRow{"Llama-3.1-8B", "vLLM RTX 4090 util 0.9 pool tokens", 41408, float64(r.KVPoolTokens), "tokens", 0,
		"small pool = difference of large numbers; batched tokens unknown"})
	return rows
}

// octocoderRows: HF blog "Optimizing your LLM in production" (bigcode/
// octocoder, batch 1, ~20-token prompt + 60 new tokens),
// torch.cuda.max_memory_allocated in GiB: excludes the CUDA context and the
// allocator's cache, so we compare weights + activations + logits + KV +
// quantisation state.
func octocoderRows(t *testing.T) []calRow {
	a := loadArch(t, "octocoder.json")
	var rows []calRow
	for _, c := range []struct {
		setting  string
		w        DType
		q        Quant
		measured float64
		tol      float64
		note     string
	}{
		{"HF bf16, short prompt", BF16, QuantAuto, 29.0260648727417, 0.03, ""},
		{"HF int8 (bitsandbytes), short prompt", INT8, QuantAuto, 15.219234466552734, 0.05, ""},
		{"HF 4-bit (bitsandbytes), short prompt", INT4, QuantNF4, 9.543574333190918, 0,
			"blog used that version's default 4-bit type, not NF4+double quant"},
	} {
		in := DefaultInput(a)
		in.Weights, in.Quant, in.Seq = c.w, c.q, 80
		r, err := Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		b := r.PerGPU
		est := (b.Weights + b.Activations + b.Logits + b.KVCache + b.QuantState).GiB()
		rows = append(rows, calRow{"octocoder (15.5B)", c.setting + " (GiB×1000)", 1000 * c.measured, 1000 * est, "mGiB", c.tol, c.note})
	}
	return rows
}

// ftCase is one published fine-tuning peak (or out-of-memory report) and
// the input that replays it.
type ftCase struct {
	split    string // fit, test, heldback (testdata/calibration/README.md)
	method   string // full, lora, qlora
	source   string
	setting  string
	in       Input
	measured float64 // GiB; 0: the job ran out of memory
	reserved bool    // measured as torch.cuda.max_memory_reserved (else allocated/active)
	ran      bool    // the job ran on its GPUs (a measured peak, or "ran" without one)
	tol      float64 // asserted |error|; 0: logged only
	// meanTokens: a reserved figure's run over samples of varying length,
	// their mean truncated length (RunReserved); 0: every step alike.
	meanTokens float64
}

// ftCallMisses are the rows (by setting) whose fit call is known wrong,
// and why: logged, not asserted (their errors still are).
var ftCallMisses = map[string]string{
	// Its step peak sat 0.01 GiB under the usable 79.2 GiB; the recomputed
	// block's dropout copies at ms-swift's 0.05 (0.12 GiB) put it over,
	// though the run fitted (78.44 GiB reserved). Held back; thirteenth
	// round (calibration README).
	"Qwen-72B LoRA, GPTQ int8 base, A100": "step peak 79.31 GiB over the usable 79.20 GiB by the adapters' dropout copies",
}

// peakGiB is the estimate to compare with a measurement: the job's peak
// without the CUDA context, and for an allocated (or "active") figure
// without the allocator's reserve, NCCL's buffers and CUDA graphs either
// (Result.PeakAllocated: the largest of the step's, the backward's end
// and the optimizer step).
func peakGiB(c ftCase, r Result) float64 {
	b := r.PerGPU
	if c.reserved {
		return RunReserved(c.in, r, c.meanTokens).GiB()
	}
	return max(r.PeakAllocated, r.LoadPeak-b.CUDAContext).GiB()
}

// sf names the ms-swift benchmark rows.
const sf = "ms_swift_training_benchmarks.json"

// fineTuneCases: the fine-tuning memory rows and out-of-memory reports.
//
//   - torchtune README (2024-09 table): Llama 3.1 8B on one RTX 4090 / RTX
//     A6000, 70B LoRA and 405B QLoRA on 8 A100s (FSDP), batch 2 packed to
//     2048, pure bf16, activation checkpointing, 8 loss chunks; peak memory
//     per GPU as torchtune logs it (active bytes). The 405B row prints GB.
//   - ms-swift v2 benchmark, Quantization table: LoRA rank 8 on Qwen-1's
//     c_attn over a bf16, GPTQ int4/int8 or bitsandbytes NF4 base (HF
//     Trainer, PEFT), batch 1, max_length 2048 (the dataset's mean is 3234
//     tokens), checkpointing, flash attention, one A100 80GB;
//     torch.cuda.max_memory_reserved over a run of varying lengths, compared
//     with RunReserved at the dataset's mean truncated length. Its "Model
//     Type & Max Length" table's Qwen-1.8B LoRA rows (max_length
//     512–8192) are the fit rows of reservedLossBlocks. Qwen-72B LoRA in
//     bf16 over two A100s (device_map: two pipeline stages, one
//     micro-batch in flight) ran at 512–2048 tokens and ran out of memory
//     at 4096 and 8192.
//   - ms-swift Megatron-SWIFT benchmark: Qwen3-30B-A3B full SFT at 8K on 16
//     A800s ran with DeepSpeed ZeRO-3 and ran out of memory with ZeRO-2.
//   - PEFT README: bloomz-7b1 full fine-tuning ran out of memory on an A100
//     80GB; LoRA ran (32 GB).
//   - Megatron-LLM: Falcon-40B fine-tuning with TP 8 on 8 A100 80GB ran out
//     of memory at the first batch (engine_observations.md row 29).
//   - device-h100-2026-11-26: our own HF transformers LoRA and pure-bf16
//     full fine-tuning runs on one H100 (max_memory_allocated).
//
// No constant was fitted on the other rows: the mechanisms (memory_peak.go)
// come from PEFT's, bitsandbytes' and FSDP's code and documentation and
// PyTorch's caching allocator (reservedLossBlocks, fitted on Qwen-1.8B). The
// ms-swift Qwen-7B/14B rows, the full fine-tunes and our H100 runs are
// test rows; the Qwen-72B rows and torchtune's LoRA/QLoRA rows are held
// back (they were seen before the mechanisms were written: the 405B
// QLoRA row's gather and the Qwen rows' QLoRA-over-LoRA gap pointed at
// them). tol is the asserted relative error (0: logged only, with why).
// The fit call (Result.Fits, on the peak) is asserted on every row.
func fineTuneCases(t testing.TB) []ftCase {
	cfg := func(dir, file string) Arch {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("testdata", dir, file))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseConfig(data)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var out []ftCase
	add := func(c ftCase) { out = append(out, c) }

	// torchtune README.
	tt := func(a Arch, task Task, vram Bytes, gpus int) Input {
		in := DefaultInput(a)
		in.Task, in.VRAM, in.GPUs = task, vram, gpus
		in.Batch, in.Seq, in.GradCheckpointing, in.PureBF16, in.LossChunks = 2, 2048, true, true, 8
		// lora_dropout 0 at the table's commit (30b8519e): the 8B and 70B
		// LoRA configs set 0.0, the lora_llama3_1_* builders default to it
		// (torchtune d7fae967, 2024-09-11; before it they passed 0.05).
		in.LoRARank, in.LoRADropout = 8, 0
		// adapters in the recipe's dtype: the model is built under
		// training.set_default_dtype(bf16) and validate_expected_param_dtype
		// checks the adapters are in it (recipes/lora_finetune_single_device.py
		// at bd2a0fc7)
		if task == LoRA || task == QLoRA {
			in.AdapterDType = AdapterBF16
		}
		if gpus > 1 {
			// lora_rank 16 in 70B_lora.yaml and 405B_qlora.yaml at the
			// table's commit (30b8519e, as at d7fae967); the 8B
			// single-device LoRA and QLoRA configs set 8
			in.LoRARank = 16
		}
		switch task {
		case FullFinetune:
			in.Optimizer, in.OptimizerInBackward = PagedAdamW8bit, true
		case LoRA:
			// 8B_lora_single_device.yaml: lora_attn_modules ['q_proj',
			// 'v_proj']; 70B_lora.yaml: ['q_proj', 'k_proj', 'v_proj'],
			// no set of its own (attention's o adapter is the excess)
			in.LoRATargets = LoRAQueryValue
			if gpus > 1 {
				in.LoRATargets = LoRAAttention
			}
		case QLoRA:
			// torchao's NF4 (torchtune's QLoRA base): int8 scalers per
			// 64 weights, fp32 per 256 blocks, QuantNF4's 4.127 bits
			in.Weights, in.Quant, in.LoRATargets = INT4, QuantNF4, LoRAAllLinear
		}
		if gpus > 1 {
			in.ZeRO, in.FSDP2 = 3, true // torchtune's distributed recipes: fully_shard
		}
		return in
	}
	l8 := loadArch(t, "llama-3.1-8b.json")
	const tf = "torchtune_readme.json"
	add(ftCase{"test", "full", tf, "Llama 3.1 8B full, RTX 4090", tt(l8, FullFinetune, 24*GiB, 1), 18.9, false, true, 0.10, 0})
	add(ftCase{"test", "full", tf, "Llama 3.1 8B full, RTX A6000", tt(l8, FullFinetune, 48*GiB, 1), 37.4, false, true, 0, 0})
	add(ftCase{"heldback", "lora", tf, "Llama 3.1 8B LoRA, RTX 4090", tt(l8, LoRA, 24*GiB, 1), 16.2, false, true, 0.15, 0})
	add(ftCase{"heldback", "lora", tf, "Llama 3.1 8B LoRA, RTX A6000", tt(l8, LoRA, 48*GiB, 1), 30.3, false, true, 0, 0})
	// The QLoRA rows: +18% and +19% with no adapter dropout (the recipes
	// at the table's commit), +24% and +23% with the 0.05 the builders
	// passed before 2024-09-11 (calibration README, the thirteenth round
	// and "single-GPU fine-tune speed"); held back, not fitted.
	add(ftCase{"heldback", "qlora", tf, "Llama 3.1 8B QLoRA, RTX 4090", tt(l8, QLoRA, 24*GiB, 1), 7.4, false, true, 0.20, 0})
	// The two FSDP rows read +12.5% and +38.6% with FSDP's root unit, the
	// 16-bit embedding and head whole on every rank (fsdpRootBytes: 4.2 GB
	// for 70B, 8.4 for 405B), which torchtune's distributed LoRA recipe
	// holds at the table's commit (only layers.i are units of their own,
	// recipes/lora_finetune_distributed.py at 30b8519e; FSDP2 does not
	// reshard the root after the forward) and our H200 runs measure
	// (device-h200-2026-11-30-fsdp: Llama 3.1 8B LoRA at 4 ranks 10.41 GB,
	// 8.29 without it). The README names neither the config of each row
	// (its 405B config runs batch 1, the table says 2) nor what it
	// measured: logged, not asserted.
	add(ftCase{"heldback", "lora", tf, "Llama 3.1 70B LoRA, 8×A100 FSDP", tt(loadArch(t, "llama-3.1-70b.json"), LoRA, 80*GiB, 8), 27.6, false, true, 0, 0})
	add(ftCase{"heldback", "qlora", tf, "Llama 3.1 405B QLoRA, 8×A100 FSDP", tt(loadArch(t, "llama-3.1-405b.json"), QLoRA, 80*GiB, 8), 44.8e9 / float64(GiB), false, true, 0, 0})

	// ms-swift v2 benchmark: its dataset (cls-fudan-news-zh, 3234.4 ±
	// 2547.5 Qwen tokens a sample, truncated to max_length) puts
	// swiftMean(max_length) tokens in a step on average.
	swiftMean := func(maxLen int) float64 { return MeanTruncatedTokens(3234.4, 2547.5, float64(maxLen)) }
	sw := func(a Arch, task Task, w DType, q Quant) Input {
		in := DefaultInput(a)
		in.Task, in.Weights, in.Quant, in.VRAM = task, w, q, 80*GiB
		in.Batch, in.Seq, in.GradCheckpointing, in.LoRARank, in.LoRATargets = 1, 2048, true, 8, LoRAAttention
		// ms-swift v2's lora_dropout_p default 0.05, on Qwen-1's fused
		// c_attn (one dropout)
		in.LoRADropout, in.LoRAFusedQKV = 0.05, true
		return in
	}
	// Model Type & Max Length table: Qwen-1.8B LoRA (bf16 base) at
	// max_length 512–8192, the fit rows of reservedLossBlocks.
	q18 := cfg(filepath.Join("calibration", "finetune_configs"), "qwen-1_8b.json")
	for i, gib := range []float64{6.99, 10.71, 16.35, 23.8, 37.03} {
		in := sw(q18, LoRA, BF16, QuantAuto)
		in.Seq = 512 << i
		add(ftCase{"fit", "lora", sf, fmt.Sprintf("Qwen-1.8B LoRA, bf16 base, A100, max_length %d", in.Seq), in, gib, true, true, 0.07, swiftMean(in.Seq)})
	}
	// Quantization table.
	for _, m := range []struct {
		file, name, split       string
		bf16, gptq4, gptq8, nf4 float64
	}{
		{"qwen-7b.json", "Qwen-7B", "test", 27.74, 19.21, 22.2, 23.85},
		{"qwen-14b.json", "Qwen-14B", "test", 40.14, 23.3, 29.13, 30.05},
		{"qwen-72b.json", "Qwen-72B", "heldback", 0, 54.86, 78.44, 74.87},
	} {
		a := cfg(filepath.Join("calibration", "finetune_configs"), m.file)
		lt, qt := 0.05, 0.12 // test rows: LoRA, and QLoRA (bitsandbytes 0.41's 2–3 GiB beyond the model)
		if m.split != "test" {
			lt, qt = 0, 0
		}
		if m.bf16 > 0 {
			add(ftCase{m.split, "lora", sf, m.name + " LoRA, bf16 base, A100", sw(a, LoRA, BF16, QuantAuto), m.bf16, true, true, lt, swiftMean(2048)})
		}
		add(ftCase{m.split, "lora", sf, m.name + " LoRA, GPTQ int4 base, A100", sw(a, LoRA, INT4, QuantGroup128), m.gptq4, true, true, lt, swiftMean(2048)})
		add(ftCase{m.split, "lora", sf, m.name + " LoRA, GPTQ int8 base, A100", sw(a, LoRA, INT8, QuantAuto), m.gptq8, true, true, lt, swiftMean(2048)})
		add(ftCase{m.split, "qlora", sf, m.name + " QLoRA (bitsandbytes NF4), A100", sw(a, QLoRA, BF16, QuantAuto), m.nf4, true, true, qt, swiftMean(2048)})
	}
	q72 := cfg(filepath.Join("calibration", "finetune_configs"), "qwen-72b.json")
	for _, s := range []int{512, 1024, 2048, 4096, 8192} {
		in := sw(q72, LoRA, BF16, QuantAuto)
		in.GPUs, in.PP, in.Seq = 2, 2, s
		add(ftCase{"heldback", "lora", sf, fmt.Sprintf("Qwen-72B LoRA bf16, 2×A100 device_map, %d tokens", s), in, 0, true, s <= 2048, 0, swiftMean(s)})
	}

	// Megatron-SWIFT benchmark: DeepSpeed full SFT at 8K, 16 A800s.
	for _, z := range []int{2, 3} {
		in := DefaultInput(loadArch(t, "qwen3-30b-a3b.json"))
		in.Task, in.VRAM, in.GPUs, in.ZeRO = FullFinetune, 80*GiB, 16, z
		in.Batch, in.Seq, in.GradCheckpointing = 1, 8192, true
		add(ftCase{"test", "full", sf, fmt.Sprintf("Qwen3-30B-A3B full SFT 8K, 16×A800, ZeRO-%d", z), in, 0, false, z == 3, 0, 0})
	}

	// Megatron-LLM (epfLLM #6, engine_observations.md row 29): Falcon-40B
	// fine-tuning with TP 8 on 8 A100 80GB ran out of memory at the first
	// batch (its 16-bit weights, fp32 gradients and Adam states are 18 B a
	// parameter, 90 GB per GPU at TP 8).
	f40 := DefaultInput(loadArch(t, "falcon-40b.json"))
	f40.Task, f40.VRAM, f40.GPUs, f40.TP, f40.Batch, f40.Seq = FullFinetune, 80*GiB, 8, 8, 1, 2048
	add(ftCase{"test", "full", "engine_observations.md", "Falcon-40B fine-tune, TP 8 on 8×A100 80GB", f40, 0, false, false, 0, 0})

	// PEFT README: bloomz-7b1 on one A100 80GB.
	bz := cfg(filepath.Join("calibration", "finetune_configs"), "bloomz-7b1.json")
	for _, task := range []Task{FullFinetune, LoRA} {
		in := DefaultInput(bz)
		in.Task, in.VRAM, in.Batch, in.Seq, in.LoRARank = task, 80*GiB, 8, 64, 8
		add(ftCase{"test", map[Task]string{FullFinetune: "full", LoRA: "lora"}[task], "memory_measurements.json",
			"bloomz-7b1 " + task.String() + ", A100 80GB", in, 0, false, task == LoRA, 0, 0})
	}

	// Our H100 runs.
	h := func(a Arch, task Task, b, s int, gc bool) Input {
		in := DefaultInput(a)
		in.Task, in.VRAM, in.Batch, in.Seq, in.GradCheckpointing, in.PureBF16 = task, 80*GiB, b, s, gc, true
		in.LoRARank, in.LoRATargets = 16, LoRAQueryValue // measure.py's target_modules=["q_proj", "v_proj"]
		in.LoRADropout = 0                               // measure.py's LoraConfig(lora_dropout=0.0)
		if task == LoRA {
			in.AdapterDType = AdapterFP32 // PEFT's, over the bf16 model without autocast
		}
		return in
	}
	const hf = "device-h100-2026-11-26"
	l1, q3 := loadArch(t, "llama-3.2-1b.json"), loadArch(t, "qwen2.5-3b.json")
	for _, c := range []struct {
		name string
		in   Input
		gib  float64
	}{
		{"Llama 3.1 8B LoRA r16 q,v, batch 1 × 2048", h(l8, LoRA, 1, 2048, true), 18.56},
		{"Llama 3.1 8B LoRA r16 q,v, batch 4 × 2048", h(l8, LoRA, 4, 2048, true), 28.96},
		{"Llama 3.1 8B LoRA r16 q,v, batch 2 × 4096", h(l8, LoRA, 2, 4096, true), 28.97},
		{"Llama 3.2 1B full, batch 4 × 2048", h(l1, FullFinetune, 4, 2048, false), 32.10},
		{"Llama 3.2 1B full, batch 4 × 2048, checkpointing", h(l1, FullFinetune, 4, 2048, true), 19.34},
		{"Llama 3.2 1B full, batch 8 × 4096, checkpointing", h(l1, FullFinetune, 8, 4096, true), 56.44},
		{"Qwen2.5 3B full, batch 2 × 4096, checkpointing", h(q3, FullFinetune, 2, 4096, true), 32.57},
		{"Qwen2.5 3B full, batch 1 × 2048", h(q3, FullFinetune, 1, 2048, false), 30.14},
	} {
		m := "full"
		if c.in.Task == LoRA {
			m = "lora"
		}
		add(ftCase{"test", m, hf, c.name + ", H100", c.in, c.gib, false, true, 0.15, 0})
	}
	return append(out, h200Cases(t)...)
}

// h200Cases: our HF transformers + PEFT jobs on one H200
// (device-h200-2026-11-30/ft.json, written by ../device-finetune/ft.py):
// bf16 weights, gradients and AdamW states (Lightning's "bf16-true":
// PureBF16), torch.optim.AdamW with neither foreach nor fused given,
// sequence 512, no checkpointing, LoRA dropout 0.05 with the rank and
// targets ft.json records; peak_allocated_bytes over three steps'
// forward, backward and optimizer phases, in bytes (compared in GiB),
// each held within 12%. Test rows: nothing is fitted on them. The four FSDP2 rows (fully_shard
// on one GPU) are not expressible: at world size 1 FSDP2 gathers the root
// unit into a copy beside the local shard (+2.10 GB for Llama 3.1 8B
// LoRA, its embedding and head; +0.53 GB for Llama 3.2 1B full, its tied
// embedding), which --zero 3 on one GPU counts as nothing (fsdpRootBytes
// stands for FSDP1's stacks, which run NO_SHARD on one GPU), while it
// counts two gathered blocks that do not show there; they are logged, not
// compared.
func h200Cases(t testing.TB) []ftCase {
	data, err := os.ReadFile(filepath.Join("testdata", "calibration", "device-h200-2026-11-30", "ft.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Runs []struct {
			Model, Config, Method string
			MicroBatch            int  `json:"micro_batch"`
			Seq                   int  `json:"seq"`
			FSDP2                 bool `json:"fsdp2_world1"`
			Checkpointing         bool `json:"activation_checkpointing"`
			LoRA                  *struct {
				R       int
				Dropout float64
				Targets []string
			}
			Peak float64 `json:"peak_allocated_bytes"`
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var out []ftCase
	for _, r := range f.Runs {
		setting := fmt.Sprintf("%s %s, batch %d × %d", r.Model, r.Method, r.MicroBatch, r.Seq)
		if r.FSDP2 {
			t.Logf("%s, FSDP2 on one GPU, checkpointing %v, H200: %.2f GB measured; not expressible (h200Cases)", setting, r.Checkpointing, r.Peak/1e9)
			continue
		}
		in := DefaultInput(loadArch(t, r.Config))
		in.VRAM = 143771 * MiB // nvidia-smi.txt
		in.Batch, in.Seq, in.GradCheckpointing, in.PureBF16 = r.MicroBatch, r.Seq, r.Checkpointing, true
		// ft.py's torch.optim.AdamW(params, lr=2e-4, weight_decay=0.0,
		// betas=(0.9, 0.95)): neither foreach nor fused, so foreach on CUDA
		in.Task, in.OptimizerImpl = FullFinetune, OptimizerImplForeach
		if r.LoRA != nil {
			in.Task, in.LoRARank, in.LoRADropout = LoRA, r.LoRA.R, r.LoRA.Dropout
			in.AdapterDType = AdapterFP32 // PEFT's, over the bf16 model without autocast
			switch strings.Join(r.LoRA.Targets, ",") {
			case "q_proj,v_proj":
				in.LoRATargets = LoRAQueryValue
			case "down_proj,gate_up_proj,lm_head,o_proj,qkv_proj":
				// Phi-3's fused qkv_proj (one adapter, one dropout) and
				// every other linear; the head's adapter (r·(V + h),
				// 0.28M parameters) is not counted.
				in.LoRATargets, in.LoRAFusedQKV = LoRAAllLinear, true
				setting += ", every linear and the head"
			default:
				t.Fatalf("%s: LoRA targets %v not expressible", setting, r.LoRA.Targets)
			}
			setting += fmt.Sprintf(", r%d", r.LoRA.R)
		}
		out = append(out, ftCase{"test", r.Method, "device-h200-2026-11-30", setting + ", H200", in, r.Peak / float64(GiB), false, true, 0.12, 0})
	}
	if len(out) != 8 {
		t.Errorf("found %d expressible H200 rows, want 8", len(out))
	}
	return out
}

// TestFineTuneMemory prints the fine-tuning peak errors by split and
// method, and holds the medians and every out-of-memory call.
func TestFineTuneMemory(t *testing.T) {
	errs := map[string][]float64{}
	t.Logf("%-9s %-6s %-62s %9s %9s %8s %-5s %s", "split", "method", "setting", "measured", "estimate", "error", "fits", "peak")
	for _, c := range fineTuneCases(t) {
		r, err := Estimate(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.setting, err)
		}
		est := peakGiB(c, r)
		e := ""
		if c.measured > 0 {
			x := relErr(est, c.measured)
			errs[c.split] = append(errs[c.split], math.Abs(x))
			errs[c.split+" "+c.method] = append(errs[c.split+" "+c.method], math.Abs(x))
			if c.source != sf {
				errs[c.split+" other stacks"] = append(errs[c.split+" other stacks"], math.Abs(x))
			}
			e = fmt.Sprintf("%+7.1f%%", 100*x)
		}
		t.Logf("%-9s %-6s %-62s %9.2f %9.2f %8s %-5v %s (step %.2f, load %.2f, steady %.2f GiB)", c.split, c.method, c.setting, c.measured, est, e,
			r.Fits, r.PeakPhase, r.PerGPU.Total().GiB(), r.LoadPeak.GiB(), r.SteadyState.GiB())
		if x := relErr(est, c.measured); c.tol > 0 && math.Abs(x) > c.tol {
			t.Errorf("%s (%s): estimated %.2f GiB, measured %.2f: %+.1f%% beyond ±%.0f%%", c.setting, c.source, est, c.measured, 100*x, 100*c.tol)
		}
		miss, known := ftCallMisses[c.setting]
		switch {
		case r.Fits != c.ran && known:
			t.Logf("%s: fit call known wrong: %s", c.setting, miss)
		case r.Fits != c.ran:
			t.Errorf("%s (%s): fits %v, but the job %s", c.setting, c.source, r.Fits, map[bool]string{true: "ran", false: "ran out of memory"}[c.ran])
		case known:
			t.Errorf("%s: fit call right now; drop it from ftCallMisses (%s)", c.setting, miss)
		}
	}
	// Medians as they stand: the ms-swift rows compared with RunReserved
	// (the allocator's cache over their varying lengths), QLoRA with the
	// head's autocast copy, the other stacks' test rows within 6%; held back
	// within the 12%; the LoRA test rows within 1.5% with PEFT's
	// fp32 adapters and their input copies counted (2.2% without:
	// loraInputCast).
	want := map[string]float64{"fit": 0.03, "test": 0.04, "test other stacks": 0.06, "heldback": 0.12, "test full": 0.06, "test lora": 0.015, "heldback qlora": 0.25}
	for _, k := range []string{"fit", "test", "test other stacks", "heldback", "heldback other stacks", "test full", "test lora", "test qlora",
		"heldback lora", "heldback qlora"} {
		if len(errs[k]) == 0 {
			continue
		}
		m := median(errs[k])
		t.Logf("median |error| %-15s %5.1f%% over %d rows", k, 100*m, len(errs[k]))
		if w, ok := want[k]; ok && m > w {
			t.Errorf("median |error| of the %s rows %.1f%%, want ≤ %.0f%%", k, 100*m, 100*w)
		}
	}
}

// median of xs (xs is reordered).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
