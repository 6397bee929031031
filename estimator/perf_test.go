package estimator

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// GPU figures from Rightsize's catalog/data/gpus.json (datasheet, dense):
// A100 80GB SXM: 312 TFLOPS BF16, 2039 GB/s, NVLink 600 GB/s both
// directions (NVIDIA A100 datasheet); H100 SXM 80GB: 989.5 TFLOPS BF16,
// 1979 TFLOPS FP8, 3.35 TB/s, NVLink 900 GB/s both directions
// (nvidia.com/en-us/data-center/h100 spec table). Link figures are halved
// to one direction, as Hardware.LinkBandwidth wants.
var (
	a100SXM    = Hardware{PeakFLOPS: 312e12, MemBandwidth: 2039e9, LinkBandwidth: 300e9, Generation: GenAmpere}
	h100SXMFP8 = Hardware{PeakFLOPS: 1979e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper}
)

// perfArch loads a config from testdata/configs or, by id, from
// testdata/calibration/perf_configs.json.
func perfArch(t testing.TB, id string) Arch {
	t.Helper()
	if strings.HasSuffix(id, ".json") {
		return loadArch(t, id)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "calibration", "perf_configs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Configs map[string]struct {
			Config json.RawMessage `json:"config"`
		} `json:"configs"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	c, ok := f.Configs[id]
	if !ok {
		t.Fatalf("no config %q in perf_configs.json", id)
	}
	a, err := ParseConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// gptArch is a Megatron GPT benchmark model (Korthikanti et al. 2022 Table
// 3: GeLU MLP 4h, biases, LayerNorm, learned positions, vocab 51200) as a
// GPT-2-family config.
func gptArch(t testing.TB, heads, hidden, layers int) Arch {
	t.Helper()
	a, err := ParseConfig(fmt.Appendf(nil, `{"model_type":"gpt2","n_embd":%d,"n_layer":%d,"n_head":%d,"vocab_size":51200,"n_positions":2048}`,
		hidden, layers, heads))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustPerf(t testing.TB, in Input, hw Hardware, eff Efficiency, w Workload) Perf {
	t.Helper()
	p, err := Throughput(in, hw, eff, w)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readRecords(t *testing.T, file string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "calibration", file))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Records []map[string]any }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Records
}

func record(t *testing.T, recs []map[string]any, id string) map[string]any {
	t.Helper()
	for _, r := range recs {
		if r["id"] == id {
			return r
		}
	}
	t.Fatalf("no record %q", id)
	return nil
}

func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return f
		}
	}
	t.Fatalf("not a number: %v", v)
	return 0
}

// TestPerfCalibration compares Throughput with the public measurements in
// testdata/calibration (training_compute.json, inference_throughput.json)
// and prints the error table (go test -run PerfCalibration -v).
func TestPerfCalibration(t *testing.T) {
	var rows []calRow
	rows = append(rows, llama2Rows(t)...)
	rows = append(rows, megatronRows(t)...)
	rows = append(rows, largeRunRows(t)...)
	rows = append(rows, trtllmRows(t)...)
	rows = append(rows, bloomInferenceRows(t)...)
	rows = append(rows, sglangDecodeRows(t)...)

	reportCalibration(t, rows)
}

// llama2Rows: pretraining GPU-hours from the Llama 2 model card (2.0T
// tokens, 4096 context, A100-80GB) with the modelled training efficiency
// (fitted to llm-foundry, not to these rows), 2048 GPUs data parallel
// with the run's 4M-token batch (§2.2: 1,024 sequences, half a sequence
// per GPU per step) over the default network, with the layout the
// validate report assumes (a sharded optimizer, ZeRO-1; TP 8 for 70B:
// plain DDP's 25 MB buckets at 2,048 ranks would pay a collective's
// latency 536 times a step). Test rows,
// held to ±35%: a model card's GPU-hours are the run's whole allocation
// (failures and restarts, evaluation, stragglers across 2,048 GPUs), which
// the step model does not price; since data-parallel traffic crosses the
// network hierarchically (collectiveBandwidth, checked against nccl-tests)
// the estimate is 18–31% below them, while the measured iteration times
// (Megatron rows below) stay within 8%.
func llama2Rows(t *testing.T) []calRow {
	recs := readRecords(t, "training_compute.json")
	var rows []calRow
	for _, c := range []struct{ id, arch string }{
		{"llama2-7b", "llama-2-7b-hf.json"}, {"llama2-13b", "llama-2-13b-chat-hf.json"}, {"llama2-70b", "llama-2-70b"},
	} {
		rec := record(t, recs, c.id)
		in := DefaultInput(perfArch(t, c.arch))
		in.Task, in.Seq, in.Batch, in.GPUs, in.ZeRO = Pretrain, int(num(t, rec["context_length"])), 1, 2048, 1
		if c.id == "llama2-70b" {
			in.TP = 8
		}
		p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{GlobalBatch: 1024})
		rows = append(rows, calRow{model: rec["model"].(string), setting: "pretrain 2.0T tokens, 2048 A100 SXM",
			measured: num(t, rec["training_gpu_hours"]), estimated: GPUHours(p, 2.0e12), unit: "GPU-h", tol: 0.35})
	}
	return rows
}

// megatronRows: Korthikanti et al. 2022 Table 3/5 iteration times on A100
// 80GB (Selene), with selective recompute + sequence parallelism ("present
// work") and with full recompute, TP all-reduces and the pipeline bubble
// (global/micro batch = micro-batches) as modelled, at the modelled
// training efficiency (fitted to llm-foundry, not to these rows): test
// rows held to ±25% (22B −2..−6%, 175B–1T +5..+11%, attention unfused as in
// Megatron-LM 2022). Also asserted (±10%):
// the ratio of full-recompute to selective-recompute time, which tests the
// recompute FLOPs and all-reduces independently of the efficiency.
// Sequence parallelism replaces each all-reduce by a reduce-scatter and an
// all-gather of the same volume (their §4.2.2): the TP cost is unchanged.
func megatronRows(t *testing.T) []calRow {
	recs := readRecords(t, "training_compute.json")
	var rows []calRow
	for _, id := range []string{"korthikanti2022-mfu-22b", "korthikanti2022-mfu-175b", "korthikanti2022-mfu-530b", "korthikanti2022-mfu-1t"} {
		rec := record(t, recs, id)
		mc := rec["model_config"].(map[string]any)
		a := gptArch(t, int(num(t, mc["attention_heads"])), int(num(t, mc["hidden_size"])), int(num(t, mc["layers"])))
		in := DefaultInput(a)
		in.Task, in.Seq, in.Batch = Pretrain, int(num(t, mc["seq_len"])), int(num(t, mc["micro_batch"]))
		in.TP, in.PP, in.GPUs = int(num(t, mc["tensor_parallel"])), int(num(t, mc["pipeline_parallel"])), int(num(t, rec["num_gpus"]))
		in.FlashAttention = false // Megatron-LM 2022: unfused attention, as rightsize validate replays them
		w := Workload{MicroBatches: int(num(t, mc["global_batch"]) / num(t, mc["micro_batch"]))}
		it := rec["iteration_time_s"].(map[string]any)
		name := fmt.Sprintf("GPT %.0fB (Megatron)", float64(a.TotalParams)/1e9)
		cfg := fmt.Sprintf("tp%d pp%d m%d", in.TP, in.PP, w.MicroBatches)

		in.SelectiveRecompute = true
		sel := mustPerf(t, in, a100SXM, Efficiency{}, w)
		in.SelectiveRecompute, in.GradCheckpointing = false, true
		full := mustPerf(t, in, a100SXM, Efficiency{}, w)
		ms, mf := num(t, it["present_work"]), num(t, it["full_recompute"])
		rows = append(rows,
			calRow{model: name, setting: "iteration, selective, " + cfg, measured: ms, estimated: sel.StepSeconds, unit: "s", tol: 0.25,
				note: fmt.Sprintf("published MFU %.1f%%", num(t, rec["mfu_percent"]))},
			calRow{model: name, setting: "iteration, full recompute, " + cfg, measured: mf, estimated: full.StepSeconds, unit: "s", tol: 0.25},
			calRow{model: name, setting: "time full / selective recompute", measured: mf / ms, estimated: full.StepSeconds / sel.StepSeconds,
				unit: "×", tol: 0.10})
	}
	return rows
}

// largeRunRows: BLOOM's reported TFLOP/s per GPU (logged: its Jean Zay
// fabric, 4 Omni-Path links per node, is slower than the default), and
// BLOOM's GPU-hours from its dates (logged: wall time includes restarts).
func largeRunRows(t *testing.T) []calRow {
	recs := readRecords(t, "training_compute.json")
	var rows []calRow
	bloom := perfArch(t, "bloom-176b")
	in := DefaultInput(bloom)
	in.Task, in.Seq, in.GPUs, in.TP, in.PP = Pretrain, 2048, 384, 4, 12 // BLOOM: TP 4, PP 12, DP 8 (tr11 README)
	in.SelectiveRecompute = false
	p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{MicroBatches: 2048 / 8})
	rows = append(rows, calRow{model: "BLOOM 176B", setting: "achieved TFLOP/s per GPU, tp4 pp12 dp8",
		measured: 150, estimated: p.MFU * 312, unit: "TFLOP/s", note: "network not given"})
	// 11 Mar 2022 11:42 to 5 Jul 2022 (estimated end): 115.5 days × 384 GPUs.
	rec := record(t, recs, "bloom-176b-training")
	_ = rec
	rows = append(rows, calRow{model: "BLOOM 176B", setting: "GPU-hours, 341.6B tokens, 384 GPUs",
		measured: 115.5 * 24 * 384, estimated: GPUHours(p, 341.6e9), unit: "GPU-h", note: "dates include restarts and evaluation"})
	return rows
}

// trtllmRows: TensorRT-LLM max-throughput rows on H100 SXM with FP8
// weights: total output tokens/s for uniform requests. The engine picks
// the batch: we take the most sequences of prompt+output tokens the
// memory model's KV pool holds at 0.95 utilisation (the rows'
// kv_cache_free_gpu_mem_fraction), capped at 2048 (TensorRT-LLM's default
// max_batch_size). KV cache in FP8, as in NVIDIA's ModelOpt FP8
// checkpoints (kv_cache_quant_algo FP8). The default InferenceMFU and
// BandwidthUtil are fitted to these rows, and so is inferenceRoofK (to the
// decode-heavy ones, with the SGLang batch-128 step): fitted, not
// validated.
func trtllmRows(t *testing.T) []calRow {
	archs := map[string]string{"Llama-3.1-8B-Instruct": "llama-3.1-8b.json", "Llama-3.3-70B-Instruct": "llama-3.3-70b",
		"Llama-3.1-405B-Instruct": "llama-3.1-405b"}
	var rows []calRow
	for _, rec := range readRecords(t, "inference_throughput.json") {
		id, _ := rec["id"].(string)
		if !strings.HasPrefix(id, "trtllm-") {
			continue
		}
		a := perfArch(t, archs[rec["model"].(string)])
		isl, osl := int(num(t, rec["input_len"])), int(num(t, rec["output_len"]))
		in := DefaultInput(a)
		in.Engine, in.Weights, in.KV, in.GPUMemUtil, in.Offline = VLLM, FP8, FP8, 0.95, true // trtllm-bench: no API server
		in.TP = int(num(t, rec["tensor_parallel"]))
		in.GPUs, in.Seq = in.TP, isl+osl
		r := mustEstimate(t, in)
		in.Batch = int(min(max(r.MaxConcurrentSeqs, 1), 2048))
		p := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{PromptTokens: isl, OutputTokens: osl})
		rows = append(rows, calRow{model: strings.TrimSuffix(rec["model"].(string), "-Instruct"),
			setting:  fmt.Sprintf("TRT-LLM H100 tp%d fp8 %d/%d b%d", in.TP, isl, osl, in.Batch),
			measured: num(t, rec["total_output_tokens_per_s"]), estimated: p.TokensPerSecond, unit: "tok/s", tol: trtTol(in.TP)})
	}
	return rows
}

// trtTol is the band the TensorRT-LLM rows are held to: ±20% at TP 1
// (Llama-3.1-8B: −13..+4%) and TP 2 (Llama-3.3-70B: −9..−1%), ±30% at
// TP 8 (Llama-3.1-405B: −7..+23%; its decode-heavy rows were up to +81%
// with max(compute, memory) and no per-layer cost). The forward-pass
// constants were fitted to these rows, so the bands guard the fit rather
// than validate it; Perf.Uncertainty stays ±30% at TP ≤ 2 and ±50% above.
func trtTol(tp int) float64 {
	if tp <= 2 {
		return 0.20
	}
	return 0.30
}

// bloomInferenceRows: BLOOM-176B generation on 8×A100 80GB (HF blog,
// 2022): ms per generated token = wall time / (batch × 100 tokens), a
// prompt of a few tokens (16 assumed). accelerate = HF eager with the
// layers split over the GPUs (PP 8, run in sequence); DeepSpeed-Inference
// = TP 8 with fused kernels (modelled with vLLM-class defaults). The bf16
// and fp16 rows are held to ±40% (accelerate −4..+3%, DeepSpeed-Inference
// −25..−29%: its 2022 kernels were slower than the H100-fitted per-layer
// cost); of the defaults only defaultBandwidthUtil was fitted to them
// (accelerate batch 1).
func bloomInferenceRows(t *testing.T) []calRow {
	a := perfArch(t, "bloom-176b")
	var rows []calRow
	for _, rec := range readRecords(t, "inference_throughput.json") {
		id, _ := rec["id"].(string)
		if !strings.HasPrefix(id, "hf-bloom176b-") || rec["msec_per_token"] == "oom" || rec["msec_per_token"] == nil {
			continue
		}
		eng, prec := rec["engine"].(string), rec["precision"].(string)
		if eng == "ds-zero" {
			continue // ZeRO-Inference streams weights from CPU: not modelled
		}
		in := DefaultInput(a)
		in.GPUs, in.Batch, in.Seq = int(num(t, rec["num_gpus"])), int(num(t, rec["batch_size"])), 116
		if prec == "int8" {
			in.Weights = INT8
		}
		switch eng {
		case "accelerate":
			in.PP = in.GPUs
		case "ds-inference":
			in.TP, in.Engine = in.GPUs, VLLM
		}
		p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{PromptTokens: 16, OutputTokens: 100})
		row := calRow{model: "BLOOM 176B", setting: fmt.Sprintf("%s %s %d×A100 b%d", eng, prec, in.GPUs, in.Batch),
			measured: num(t, rec["msec_per_token"]), estimated: 1000 / p.TokensPerSecond, unit: "ms/tok"}
		switch {
		case prec == "int8" && eng == "accelerate":
			row.note = "bitsandbytes LLM.int8 outlier decomposition not modelled"
		case prec == "int8":
			row.note = "ZeroQuant int8 kernels not modelled"
		default:
			row.tol = 0.4
			row.note = "2022 stack, ±40%"
		}
		rows = append(rows, row)
	}
	return rows
}

// --- properties -------------------------------------------------------

func checkPerf(t *testing.T, what string, p Perf) {
	t.Helper()
	for i, v := range []float64{p.FLOPsPerToken, p.HardwareFLOPsPerToken, p.StepSeconds, p.TokensPerStep, p.TokensPerSecond, p.MFU,
		p.PrefillTokensPerSecond, p.TimeToFirstToken, p.DecodeStepSeconds, p.DecodeTokenLatency, p.DecodeTokensPerSecond,
		p.Uncertainty, p.TokensPerSecondLow, p.TokensPerSecondHigh} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%s: field %d = %v in %+v", what, i, v, p)
		}
	}
}

func TestThroughputProperties(t *testing.T) {
	ran := 0
	defer func() {
		if ran < 3*len(testConfigs) {
			t.Errorf("only %d architecture × task cases ran", ran)
		}
	}()
	for _, f := range testConfigs {
		a := loadArch(t, f)
		for _, task := range Tasks {
			in := DefaultInput(a)
			in.Task, in.Batch, in.Seq = task, 4, 1024
			if task == QLoRA {
				in.Weights = BF16
			}
			if in.Validate() != nil {
				continue
			}
			ran++
			p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
			checkPerf(t, f+" "+task.String(), p)
			if p.TokensPerSecond <= 0 {
				t.Errorf("%s %v: no throughput: %+v", f, task, p)
			}
			// More GPUs (data parallel) inside one NVLink domain never
			// lower the job's rate; beyond it the gradient traffic
			// crosses the network and may (checked in TestTrainComm).
			prev := 0.0
			for _, g := range []int{1, 2, 4, 8} {
				in.GPUs = g
				q := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
				if q.TokensPerSecond < prev {
					t.Errorf("%s %v: %d GPUs give %g tok/s, fewer gave %g", f, task, g, q.TokensPerSecond, prev)
				}
				prev = q.TokensPerSecond
			}
			// Higher memory, link or compute figures are never slower.
			in.GPUs = 2
			if a.Heads%2 == 0 && (a.IsMLA() || a.KVHeads%2 == 0) {
				in.TP = 2
			}
			var last Perf
			for i, s := range []float64{0.5, 1, 2, 4} {
				hw := Hardware{PeakFLOPS: 312e12 * s, MemBandwidth: 2039e9 * s, LinkBandwidth: 300e9 * s, Generation: GenAmpere}
				for j, h := range []Hardware{hw, {PeakFLOPS: hw.PeakFLOPS, MemBandwidth: 2039e9, LinkBandwidth: 300e9, Generation: GenAmpere},
					{PeakFLOPS: 312e12, MemBandwidth: hw.MemBandwidth, LinkBandwidth: 300e9, Generation: GenAmpere},
					{PeakFLOPS: 312e12, MemBandwidth: 2039e9, LinkBandwidth: hw.LinkBandwidth, Generation: GenAmpere}} {
					q := mustPerf(t, in, h, Efficiency{}, Workload{})
					base := mustPerf(t, in, Hardware{PeakFLOPS: 312e12 * 0.5, MemBandwidth: 2039e9 * 0.5, LinkBandwidth: 300e9 * 0.5, Generation: GenAmpere}, Efficiency{}, Workload{})
					if j > 0 {
						base = mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
						if s < 1 {
							continue
						}
					}
					if q.TokensPerSecond < base.TokensPerSecond*(1-1e-12) || q.DecodeTokensPerSecond < base.DecodeTokensPerSecond*(1-1e-12) ||
						(base.TimeToFirstToken > 0 && q.TimeToFirstToken > base.TimeToFirstToken*(1+1e-12)) {
						t.Errorf("%s %v: faster hardware %+v is slower: %+v vs %+v", f, task, h, q, base)
					}
				}
				q := mustPerf(t, in, hw, Efficiency{}, Workload{})
				if i > 0 && q.TokensPerSecond < last.TokensPerSecond {
					t.Errorf("%s %v: ×%g hardware slower than the step before", f, task, s)
				}
				last = q
			}
		}
	}
}

// Int4 weights read a quarter of bf16's bytes, so memory-bound decode on
// a serving engine is faster; fp8 KV halves the cache read. Under HF
// transformers eager the host bounds batch-1 decode: GPTQ int4 through
// exllama (the default kernel) launches what bf16 does and decodes at the
// same host floor, while kernels that add launches per linear are slower
// (bitsandbytes benchmark: NF4 and LLM.int8 below BF16 on an H100;
// optimum's: AutoGPTQ's cuda-old kernel below exllama on an A100).
func TestDecodeQuantFaster(t *testing.T) {
	for _, f := range []string{"llama-3.1-8b.json", "mixtral-8x7b-v0.1.mlc_preset.json", "qwen2.5-7b.json", "deepseek-v3.json"} {
		in := DefaultInput(loadArch(t, f))
		in.Batch, in.Seq = 1, 4096
		hf := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{})
		in.Weights = INT4
		hf4 := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{})
		if hf4.DecodeTokensPerSecond != hf.DecodeTokensPerSecond || hf.Bound != BoundHost || hf4.Bound != BoundHost {
			t.Errorf("%s: HF exllama int4 decode %g tok/s, bf16 %g (bound %v)", f, hf4.DecodeTokensPerSecond, hf.DecodeTokensPerSecond, hf.Bound)
		}
		for _, k := range []Kernel{KernelAutoGPTQ, KernelAWQGEMM, KernelBitsandbytes} {
			in.Kernel = k
			if q := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{}); !(q.DecodeTokensPerSecond < hf.DecodeTokensPerSecond) {
				t.Errorf("%s: HF int4 with %v decode %g tok/s, bf16 %g", f, k, q.DecodeTokensPerSecond, hf.DecodeTokensPerSecond)
			}
		}
		in.Kernel = KernelAuto
		in.Weights, in.Engine = BF16, VLLM
		bf := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
		in.Weights = INT4
		i4 := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
		if !(i4.DecodeTokensPerSecond > 1.5*bf.DecodeTokensPerSecond) || !bf.DecodeMemoryBound {
			t.Errorf("%s: int4 decode %g tok/s, bf16 %g (memory-bound %v)", f, i4.DecodeTokensPerSecond, bf.DecodeTokensPerSecond, bf.DecodeMemoryBound)
		}
		in.Weights, in.Batch = BF16, 64
		b16 := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
		in.KV = FP8
		k8 := mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
		if k8.DecodeStepSeconds > b16.DecodeStepSeconds {
			t.Errorf("%s: fp8 KV step %g s, bf16 KV %g s", f, k8.DecodeStepSeconds, b16.DecodeStepSeconds)
		}
	}
}

// TestDefaultGlobalBatch: a pre-training run with no batch given steps on
// the published batch of its size (GPT-3 Table 2.1, Llama 2 §2.2): 2M
// tokens for a 7B on 8 GPUs at 4096 tokens (64 micro-batches of one
// sequence per replica), not one micro-batch (the 48.8M optimizer steps
// a 100B-token run would count); a fine-tune keeps one; a batch given
// wins.
func TestDefaultGlobalBatch(t *testing.T) {
	a := loadArch(t, "llama-2-7b-hf.json")
	in := DefaultInput(a)
	in.Task, in.Seq, in.GPUs, in.ZeRO = Pretrain, 4096, 8, 1
	hw := a100SXM
	hw.LinkBandwidth = 300e9
	p := mustPerf(t, in, hw, Efficiency{}, Workload{})
	if p.TokensPerStep != 1<<21 || p.MicroBatches != 64 {
		t.Errorf("7B pre-train: %g tokens in %d micro-batches per step, want 2,097,152 in 64", p.TokensPerStep, p.MicroBatches)
	}
	if steps := 100e9 / p.TokensPerStep; steps < 4e4 || steps > 6e4 {
		t.Errorf("100B tokens in %g steps", steps)
	}
	if g := p.TokensPerStep; mustPerf(t, in, hw, Efficiency{}, Workload{GlobalBatch: 8}).TokensPerStep == g {
		t.Error("a given global batch did not replace the default")
	}
	for _, c := range []struct {
		params float64
		want   float64
	}{{125e6, 1 << 19}, {1.3e9, 1 << 20}, {6.7e9, 1 << 21}, {13e9, 1 << 21}, {70e9, 1 << 22}, {405e9, 1 << 22}} {
		b := in
		b.Arch.TotalParams = int64(c.params)
		if got := DefaultGlobalBatchTokens(b); got != c.want {
			t.Errorf("%g params: %g tokens, want %g", c.params, got, c.want)
		}
	}
	in.Task = FullFinetune
	if p := mustPerf(t, in, hw, Efficiency{}, Workload{}); p.MicroBatches != 1 || DefaultGlobalBatchTokens(in) != 0 {
		t.Errorf("fine-tune: %d micro-batches", p.MicroBatches)
	}
}

// Worked numbers: a dense 7B at batch 1 decodes one token per weight read
// (weight bytes / bandwidth × util) plus the per-layer overhead; training FLOPs are 6N + 12·L·s·d_attn, 8N + 16·L·s·d_attn
// with full checkpointing; LoRA is 4N + 12·L·s·d_attn.
func TestPerfFormulas(t *testing.T) {
	a := loadArch(t, "llama-2-7b-hf.json")
	n := float64(a.TotalParams - a.EmbeddingParams)
	attn := 12 * 32 * 4096 * 4096.0
	in := DefaultInput(a)
	in.Task, in.Seq = Pretrain, 4096
	// One micro-batch per optimizer step (the pre-training default
	// accumulates to DefaultGlobalBatchTokens: TestDefaultGlobalBatch).
	p := mustPerf(t, in, a100SXM, Efficiency{MFU: 0.4}, Workload{MicroBatches: 1})
	if rel := relErr(p.FLOPsPerToken, 6*n+attn); math.Abs(rel) > 1e-12 || p.HardwareFLOPsPerToken != p.FLOPsPerToken {
		t.Errorf("FLOPs/token %g, want %g", p.FLOPsPerToken, 6*n+attn)
	}
	// One GPU: the step's compute at peak × MFU, then the optimizer's
	// pass over every parameter, 2 × (4 + 8) + 2 + 2 = 28 bytes each
	// (mixed-precision AdamW) at 0.75 of 2039 GB/s: 6.74e9 × 28 /
	// 1.529e12 = 0.123 s.
	opt := float64(a.TotalParams) * 28 / (2039e9 * 0.75)
	compute := 4096 * (6*n + attn) / (312e12 * 0.4)
	if rel := relErr(p.TokensPerSecond, 4096/(compute+opt)); math.Abs(rel) > 1e-12 || p.CommSeconds != 0 || p.CommTotalSeconds != 0 {
		t.Errorf("1 GPU: %g tok/s, want 4096 / (peak × MFU time + optimizer step): %+v", p.TokensPerSecond, p)
	}
	if rel := relErr(p.MFU, 0.4*compute/(compute+opt)); math.Abs(rel) > 1e-12 {
		t.Errorf("MFU %g, want 0.4 less the optimizer step on one GPU", p.MFU)
	}
	in.GradCheckpointing = true
	p = mustPerf(t, in, a100SXM, Efficiency{MFU: 0.4}, Workload{MicroBatches: 1})
	compute = 4096 * p.HardwareFLOPsPerToken / (312e12 * 0.4)
	if rel := relErr(p.HardwareFLOPsPerToken, 8*n+attn*16/12); math.Abs(rel) > 1e-12 ||
		math.Abs(relErr(p.MFU, 0.4*p.FLOPsPerToken/p.HardwareFLOPsPerToken*compute/(compute+opt))) > 1e-12 {
		t.Errorf("checkpointed: %g hardware FLOPs/token, MFU %g", p.HardwareFLOPsPerToken, p.MFU)
	}
	in.GradCheckpointing, in.Task = false, LoRA
	p = mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
	if rel := relErr(p.FLOPsPerToken, 4*n+attn); math.Abs(rel) > 1e-12 {
		t.Errorf("LoRA FLOPs/token %g, want %g", p.FLOPsPerToken, 4*n+attn)
	}

	in = DefaultInput(a)
	in.Seq, in.Engine = 2, VLLM
	p = mustPerf(t, in, a100SXM, Efficiency{BandwidthUtil: 1, InferenceMFU: 1}, Workload{PromptTokens: 1, OutputTokens: 1})
	// The step is the weight read plus layerOverhead per layer; at full
	// peak the compute term adds (1 + (c/m)^1.5)^(2/3) − 1 ≈ 0.04%.
	weights := float64(a.TotalParams-a.EmbeddingParams) * 2
	want := 1 / (weights/2039e9 + float64(a.Layers)*layerOverhead)
	if rel := relErr(p.DecodeTokensPerSecond, want); math.Abs(rel) > 0.001 {
		t.Errorf("batch-1 decode %g tok/s, want 1 / (weights / bandwidth + layers × %g s) = %g", p.DecodeTokensPerSecond, layerOverhead, want)
	}
	// One request on a continuous-batching engine: its TPOT is the step
	// plus its own prompt's chunk spread over its one output token.
	if stall := p.DecodeTokenLatency - p.DecodeStepSeconds; !p.DecodeMemoryBound || !(stall > 0 && stall < 1e-4) {
		t.Errorf("batch-1 decode: %+v", p)
	}
	// Under HF eager the host bounds it: 43 ops per layer plus 27 per
	// step at the server host class's cost each.
	in.Engine = HF
	p = mustPerf(t, in, a100SXM, Efficiency{}, Workload{PromptTokens: 1, OutputTokens: 1})
	if host := (43*float64(a.Layers) + 27) * hfOpSeconds; math.Abs(relErr(p.DecodeStepSeconds, host)) > 1e-12 || p.Bound != BoundHost ||
		p.DecodeTokenLatency != p.DecodeStepSeconds {
		t.Errorf("HF batch-1 decode step %g s, want the host floor %g s: %+v", p.DecodeStepSeconds, host, p)
	}
	// Job time and GPU-hours.
	in.Task, in.GPUs = Pretrain, 8
	p = mustPerf(t, in, a100SXM, Efficiency{}, Workload{})
	if rel := relErr(JobTime(p, 1e9), 1e9/p.TokensPerSecond); math.Abs(rel) > 1e-12 || math.Abs(relErr(GPUHours(p, 1e9), 8*JobTime(p, 1e9)/3600)) > 1e-12 {
		t.Errorf("JobTime %g, GPUHours %g", JobTime(p, 1e9), GPUHours(p, 1e9))
	}
	for _, tok := range []float64{0, -1, math.NaN()} {
		if JobTime(p, tok) != 0 || GPUHours(p, tok) != 0 {
			t.Errorf("JobTime(%v) = %v", tok, JobTime(p, tok))
		}
	}
	if v := JobTime(Perf{}, 1e9); v != 0 {
		t.Errorf("JobTime of no throughput = %v", v)
	}
	if v := JobTime(Perf{TokensPerSecond: 1e-300}, 1e300); math.IsInf(v, 0) {
		t.Errorf("JobTime overflowed: %v", v)
	}
}

func TestThroughputValidation(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	nan := math.NaN()
	for _, c := range []struct {
		hw     Hardware
		eff    Efficiency
		w      Workload
		fields []string
	}{
		{Hardware{}, Efficiency{}, Workload{}, []string{"peak-flops", "mem-bandwidth"}},
		{Hardware{PeakFLOPS: nan, MemBandwidth: math.Inf(1), LinkBandwidth: -1}, Efficiency{}, Workload{}, []string{"peak-flops", "mem-bandwidth", "link-bandwidth"}},
		{a100SXM, Efficiency{MFU: 1.5, InferenceMFU: nan, BandwidthUtil: -0.1}, Workload{}, []string{"mfu", "inference-mfu", "bandwidth-util"}},
		{a100SXM, Efficiency{}, Workload{PromptTokens: 0, OutputTokens: 5, MicroBatches: -1}, []string{"prompt", "micro-batches"}},
		{a100SXM, Efficiency{}, Workload{PromptTokens: -3, OutputTokens: -1}, []string{"prompt", "output"}},
	} {
		_, err := Throughput(in, c.hw, c.eff, c.w)
		if err == nil {
			t.Errorf("%+v accepted", c)
			continue
		}
		for _, f := range c.fields {
			if !strings.Contains(err.Error(), "estimator: "+f+"=") {
				t.Errorf("%+v: error %q does not name %s", c, err, f)
			}
		}
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrRange) {
			t.Errorf("%+v: %v is not an InputError wrapping ErrRange", c, err)
		}
	}
	bad := in
	bad.Batch = 0
	if _, err := Throughput(bad, a100SXM, Efficiency{}, Workload{}); err == nil || !strings.Contains(err.Error(), "batch") {
		t.Errorf("invalid Input accepted: %v", err)
	}
}

func TestThroughputAllocs(t *testing.T) {
	in := DefaultInput(loadArch(t, "mixtral-8x7b-v0.1.mlc_preset.json"))
	in.GPUs, in.TP, in.Batch = 4, 2, 32
	train := in
	train.Task, train.PP, train.GPUs = Pretrain, 2, 8
	for _, x := range []Input{in, train} {
		if n := testing.AllocsPerRun(100, func() { _, _ = Throughput(x, h100SXMFP8, Efficiency{}, Workload{}) }); n != 0 {
			t.Errorf("Throughput allocates %v times per call", n)
		}
	}
}

func BenchmarkThroughput(b *testing.B) {
	in := DefaultInput(loadArch(b, "llama-3.1-8b.json"))
	in.Engine, in.Batch, in.GPUs, in.TP = VLLM, 64, 2, 2
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Throughput(in, h100SXMFP8, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000})
	}
}

// FuzzThroughput: any settings and hardware give an error or a finite,
// non-negative Perf, never a panic.
func FuzzThroughput(f *testing.F) {
	archs := make([]Arch, len(testConfigs))
	for i, c := range testConfigs {
		archs[i] = loadArch(f, c)
	}
	f.Add(uint8(0), uint8(0), uint8(1), uint8(1), uint8(0), 1, 2048, 1, 1, 1, false, false, 312e12, 2039e9, 0.0, 0.0, 0.0, 0.0, 0, 0, 0)
	f.Add(uint8(2), uint8(1), uint8(1), uint8(1), uint8(0), 4, 4096, 16, 2, 2, true, false, 989e12, 3.35e12, 450e9, 0.5, 0.3, 0.9, 0, 0, 8)
	f.Add(uint8(7), uint8(0), uint8(5), uint8(3), uint8(1), 256, 8192, 8, 8, 1, false, true, 1e18, 1e15, 1e15, 1.0, 1.0, 1.0, 4096, 4096, 0)
	f.Add(uint8(7), uint8(0x80), uint8(5), uint8(3), uint8(4), 32, 2048, 8, 8, 1, false, false, 989e12, 4.8e12, 450e9, 0.0, 0.0, 0.0, 1024, 1024, 0)
	f.Fuzz(func(t *testing.T, model, task, weights, kv, engine uint8, batch, seq, gpus, tp, pp int, gc, sel bool,
		peak, bw, link, mfu, imfu, util float64, prompt, out, micro int) {
		in := DefaultInput(archs[int(model)%len(archs)])
		in.Task, in.Weights, in.KV, in.Engine = Task(task%6), DType(weights%7), DType(kv%7), Engine(engine%6)
		in.Batch, in.Seq, in.GPUs, in.TP, in.PP = batch, seq, gpus, tp, pp
		in.GradCheckpointing, in.SelectiveRecompute = gc, sel
		// The high bits drive the serving and host options.
		in.EP, in.DP, in.SchedulerSteps = 1<<(kv>>5), 1<<(weights>>5), int(engine>>4)
		// Speculative decoding's drafts from the task's top bits (0..3;
		// DeepSeek-V3 has an MTP module, the others get input errors).
		in.DraftTokens = int(task >> 6)
		// Kernels (any, invalid combinations included) and engine
		// releases on both sides of the overlap releases.
		in.Kernel, in.EngineVersion = Kernel(int(task>>3)%(len(Kernels)+1)), EngineVersion{0, int(model>>3) % 16, 0}
		host := HostServer
		if model&128 != 0 {
			host = HostDesktop
		}
		p, err := Throughput(in, Hardware{PeakFLOPS: peak, MemBandwidth: bw, LinkBandwidth: link, HostClass: host}, Efficiency{mfu, imfu, util}, Workload{PromptTokens: prompt, OutputTokens: out, MicroBatches: micro})
		if err != nil {
			if p != (Perf{}) {
				t.Fatal("error with a non-zero Perf")
			}
			return
		}
		checkPerf(t, "fuzz", p)
		_ = JobTime(p, 1e12)
		if !in.Task.Training() {
			sp, err := ServingPoint(in, Hardware{PeakFLOPS: peak, MemBandwidth: bw, LinkBandwidth: link}, Efficiency{mfu, imfu, util},
				Workload{PromptTokens: prompt, OutputTokens: out}, batch)
			for _, v := range []float64{sp.TTFTSeconds, sp.TPOTSeconds, sp.TokensPerSecond, sp.RequestsPerSecond} {
				if err == nil && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
					t.Fatalf("ServingPoint: %+v", sp)
				}
			}
		}
	})
}

// sglangDecodeRows: SGLang's bench_latency on one H100 with CUDA graphs,
// Meta-Llama-3-8B bf16, input 128, output 8: median decode latency 7.37 ms
// at batch 1 and 11.84 ms at batch 128 (github.com/sgl-project/sglang
// issue #1008, "Benchmark llama-3-8B (TP=1, bs=1) with cuda graph").
// layerOverhead is fitted to the batch-1 row (−1.5%) and inferenceRoofK
// partly to the batch-128 row (−16%; max(compute, memory) with no
// per-layer cost gave −19% and −42%). Held to ±20%, the TP 1 band of the
// TensorRT-LLM rows: one engine version, two batch sizes.
func sglangDecodeRows(t *testing.T) []calRow {
	a := loadArch(t, "meta-llama-3-8b-instruct.json")
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9} // H100 SXM, catalog gpus.json
	var rows []calRow
	for _, c := range []struct {
		batch    int
		measured float64 // seconds per decode step
	}{{1, 0.00737}, {128, 0.01184}} {
		in := DefaultInput(a)
		in.Engine, in.Batch, in.Seq, in.VRAM = VLLM, c.batch, 136, 80*GiB
		p, err := Throughput(in, hw, Efficiency{}, Workload{PromptTokens: 128, OutputTokens: 8})
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, calRow{"Llama-3-8B", fmt.Sprintf("SGLang H100 bf16 decode step, batch %d", c.batch),
			1000 * c.measured, 1000 * p.DecodeStepSeconds, "ms", 0.20, "fitted, ±20%"})
	}
	return rows
}

// bnbRows: HF transformers 4.46.3 decode steps of the bitsandbytes
// benchmark table (testdata/calibration/bnb_optimum_benchmark.json). The
// fit rows (H100 Llama 3.1 8B: BF16, NF4 with double quantisation,
// LLM.int8() with decomposition) fixed hfOpSeconds and the extra ops per
// linear, and NF4's host-serial dequantisation at batch > 1 (hostSerial):
// held to ±10% at every batch. Test and held-back rows on other
// GPUs and models are reported by rightsize validate (docs/accuracy.md).
func bnbRows(t *testing.T) []calRow {
	a := loadArch(t, "llama-3.1-8b.json")
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper}
	var rows []calRow
	for _, rec := range readRecords(t, "bnb_optimum_benchmark.json") {
		if rec["split"] != "fit" || rec["gpu"] != "H100 SXM" || rec["model"] != "llama-3.1-8b" {
			continue
		}
		in := DefaultInput(a)
		switch rec["format"] {
		case "BF16":
		case "NF4+DQ":
			in.Weights, in.Quant = INT4, QuantNF4
		case "INT8+Decomp":
			in.Weights = INT8
		default:
			continue
		}
		in.Batch, in.Seq = int(num(t, rec["batch_size"])), 320
		p := mustPerf(t, in, hw, Efficiency{}, Workload{PromptTokens: 256, OutputTokens: 64})
		row := calRow{model: "Llama-3.1-8B", setting: fmt.Sprintf("HF 4.46 H100 %s b%d decode step", rec["format"], in.Batch),
			measured: 1000 * num(t, rec["decode_latency_s"]), estimated: 1000 * p.DecodeStepSeconds, unit: "ms", tol: 0.10, note: "fitted"}
		rows = append(rows, row)
	}
	return rows
}

func TestBNBDecodeCalibration(t *testing.T) { reportCalibration(t, bnbRows(t)) }

// TestHostClassCalibration holds the host classes' per-op cost to the rows
// it was fitted on (bnb_optimum_benchmark.json): the RTX 4090 Llama 3.1 8B
// rows bound by its desktop host (NF4 at batch 1, LLM.int8() at batch 1
// and 8) and the T4 Qwen 2.5 3B rows (FP16 and NF4 at batch 1, int8 at 1
// and 8), within ±20%.
func TestHostClassCalibration(t *testing.T) {
	type gpu struct {
		hw    Hardware
		model string
	}
	gpus := map[string]gpu{
		"RTX 4090": {Hardware{PeakFLOPS: 165.2e12, MemBandwidth: 1008e9, Generation: GenAda, HostClass: HostDesktop}, "llama-3.1-8b.json"},
		"T4":       {Hardware{PeakFLOPS: 65e12, MemBandwidth: 300e9, Generation: GenTuring, HostClass: HostLegacyServer}, "qwen2.5-3b.json"},
	}
	var rows []calRow
	for _, rec := range readRecords(t, "bnb_optimum_benchmark.json") {
		g, ok := gpus[rec["gpu"].(string)]
		if !ok || rec["split"] != "fit" {
			continue
		}
		in := DefaultInput(loadArch(t, g.model))
		b := int(num(t, rec["batch_size"]))
		switch rec["format"] {
		case "NF4+DQ":
			if b > 1 {
				continue
			}
			in.Weights, in.Quant = INT4, QuantNF4
		case "INT8+Decomp":
			if b > 8 { // its outlier decomposition grows with the batch (+6–14% at 32)
				continue
			}
			in.Weights = INT8
		case "FP16":
			if b > 1 {
				continue
			}
			in.Weights = FP16
		default:
			continue
		}
		in.Batch, in.Seq = b, 320
		p := mustPerf(t, in, g.hw, Efficiency{}, Workload{PromptTokens: 256, OutputTokens: 64})
		rows = append(rows, calRow{model: g.model, setting: fmt.Sprintf("HF 4.46 %s %s b%d decode step", rec["gpu"], rec["format"], b),
			measured: 1000 * num(t, rec["decode_latency_s"]), estimated: 1000 * p.DecodeStepSeconds, unit: "ms", tol: 0.20, note: "fitted"})
	}
	if len(rows) < 6 {
		t.Fatalf("%d host-class rows, want ≥ 6", len(rows))
	}
	reportCalibration(t, rows)
	if got := HostServer.OpSeconds(); got != hfOpSeconds {
		t.Errorf("H100 SXM host op %g, want the server figure %g", got, hfOpSeconds)
	}
}

// Serving at a concurrency: TPOT and TTFT grow with the requests in
// flight (decode steps read more KV, other prompts' chunks share the
// steps), throughput agrees with both latencies, and the KV pool bounds
// the concurrency.
func TestServingPoint(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Engine, in.GPUMemUtil = VLLM, 0.9
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper}
	w := Workload{PromptTokens: 2000, OutputTokens: 500}
	var prev ServePoint
	for i, c := range []int{1, 4, 16, 64} {
		sp, err := ServingPoint(in, hw, Efficiency{}, w, c)
		if err != nil {
			t.Fatal(err)
		}
		if want := float64(c) * 500 / (sp.TTFTSeconds + 500*sp.TPOTSeconds); math.Abs(relErr(sp.TokensPerSecond, want)) > 1e-9 {
			t.Errorf("c=%d: %g tok/s, latencies imply %g", c, sp.TokensPerSecond, want)
		}
		if sp.MaxConcurrency < 100 || sp.Concurrency != c {
			t.Errorf("c=%d: %+v", c, sp)
		}
		if i > 0 && !(sp.TPOTSeconds > prev.TPOTSeconds && sp.TTFTSeconds > prev.TTFTSeconds && sp.TokensPerSecond > prev.TokensPerSecond) {
			t.Errorf("c=%d: %+v after %+v", c, sp, prev)
		}
		prev = sp
	}
	if _, err := ServingPoint(in, hw, Efficiency{}, w, 0); err == nil || !errors.Is(err, ErrRange) {
		t.Errorf("concurrency 0: %v", err)
	}
}

// Engine floors: HF eager decode at batch 1 is host-bound and its time
// follows the layer count, not the weight bytes; compiling it (CUDA
// graphs) removes the floor; a serving engine's small-model step stops at
// servingStepFloor; a faster GPU does not speed a host-bound step.
func TestEngineFloors(t *testing.T) {
	small, big := loadArch(t, "llama-3.2-1b.json"), loadArch(t, "llama-3.1-8b.json")
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, Generation: GenHopper}
	w := Workload{PromptTokens: 100, OutputTokens: 100}
	step := func(a Arch, e Engine, compiled bool, hw Hardware) Perf {
		in := DefaultInput(a)
		in.Engine, in.Compiled = e, compiled
		return mustPerf(t, in, hw, Efficiency{}, w)
	}
	s, b := step(small, HF, false, hw), step(big, HF, false, hw)
	if s.Bound != BoundHost || b.Bound != BoundHost {
		t.Errorf("HF batch 1 not host-bound: %v %v", s.Bound, b.Bound)
	}
	if r := b.DecodeStepSeconds / s.DecodeStepSeconds; math.Abs(r-float64(32*43+27)/float64(16*43+27)) > 1e-9 {
		t.Errorf("HF 8B/1B step ratio %g, want the ops ratio", r)
	}
	if c := step(big, HF, true, hw); !(c.DecodeStepSeconds < b.DecodeStepSeconds/2) || c.Bound != BoundBandwidth {
		t.Errorf("compiled HF step %g s (%v), eager %g s", c.DecodeStepSeconds, c.Bound, b.DecodeStepSeconds)
	}
	v := step(small, VLLM, false, hw)
	if v.DecodeStepSeconds != servingStepFloor || v.Bound != BoundHost {
		t.Errorf("vLLM 1B step %g s (%v), want the engine floor %g", v.DecodeStepSeconds, v.Bound, servingStepFloor)
	}
	fast := hw
	fast.MemBandwidth *= 2
	if f := step(big, HF, false, fast); f.DecodeStepSeconds != b.DecodeStepSeconds {
		t.Errorf("host-bound step changed with bandwidth: %g vs %g", f.DecodeStepSeconds, b.DecodeStepSeconds)
	}
	if got := []string{BoundCompute.String(), BoundBandwidth.String(), BoundHost.String(), BoundCommunication.String()}; strings.Join(got, ",") != "compute,bandwidth,host,communication" {
		t.Errorf("Bound names %v", got)
	}
}

// The link matters beyond TP: ZeRO-3 over PCIe is slower than over
// NVLink; crossing the node boundary onto a slow network is slower per
// GPU than inside the node; CPU offload pays its host traffic; more
// micro-batches amortise the data-parallel gradient traffic.
func TestTrainComm(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq = FullFinetune, 8, 3, 1, 2048
	sxm := Hardware{PeakFLOPS: 312e12, MemBandwidth: 2039e9, LinkBandwidth: 300e9, Generation: GenAmpere}
	pcie := Hardware{PeakFLOPS: 312e12, MemBandwidth: 1935e9, Generation: GenAmpere}
	ps, pp := mustPerf(t, in, sxm, Efficiency{}, Workload{}), mustPerf(t, in, pcie, Efficiency{}, Workload{})
	if !(pp.TokensPerSecond < 0.8*ps.TokensPerSecond) || pp.Bound != BoundCommunication || ps.Bound != BoundCompute {
		t.Errorf("8×A100 PCIe %g tok/s (%v), SXM %g (%v)", pp.TokensPerSecond, pp.Bound, ps.TokensPerSecond, ps.Bound)
	}
	in.GPUs = 16
	slow := sxm
	slow.NetworkBandwidth = 3e9
	if p16 := mustPerf(t, in, slow, Efficiency{}, Workload{}); !(p16.TokensPerSecond/16 < ps.TokensPerSecond/8) {
		t.Errorf("16 GPUs over a 3 GB/s network: %g tok/s per GPU, 8 in a node %g", p16.TokensPerSecond/16, ps.TokensPerSecond/8)
	}
	in.GPUs, in.ZeRO = 8, 1
	base := mustPerf(t, in, sxm, Efficiency{}, Workload{})
	in.Offload = OffloadOptimizer
	if off := mustPerf(t, in, sxm, Efficiency{}, Workload{}); !(off.TokensPerSecond < base.TokensPerSecond) || off.CommSeconds <= base.CommSeconds {
		t.Errorf("optimizer offload %g tok/s, none %g", off.TokensPerSecond, base.TokensPerSecond)
	}
	in.Offload, in.GPUs, in.ZeRO = OffloadNone, 64, 0
	m1 := mustPerf(t, in, slow, Efficiency{}, Workload{MicroBatches: 1})
	m16 := mustPerf(t, in, slow, Efficiency{}, Workload{GlobalBatch: 64 * 16})
	if m16.MicroBatches != 16 || !(m16.TokensPerSecond > m1.TokensPerSecond) {
		t.Errorf("16 micro-batches %g tok/s (m=%d), 1: %g", m16.TokensPerSecond, m16.MicroBatches, m1.TokensPerSecond)
	}
	// The interleaved schedule shrinks the bubble (p − 1)/m to (p − 1)/(v·m).
	in.GPUs, in.PP, in.Offload = 4, 4, OffloadNone
	// Both end with the optimizer step over a stage's quarter of the
	// parameters; plain 1F1B also waits for its pipeline sends, which the
	// interleaved schedule overlaps (three times as many).
	plain := mustPerf(t, in, sxm, Efficiency{}, Workload{MicroBatches: 8})
	inter := mustPerf(t, in, sxm, Efficiency{}, Workload{MicroBatches: 8, VirtualStages: 3})
	hw := sxm.withDefaults()
	opt := optimizerStepSeconds(in, hw, float64(in.Arch.TotalParams)/4)
	send := pipelineSendSeconds(in, hw, 1, 2048, 1, 2)
	if r := (inter.StepSeconds - opt) / (plain.StepSeconds - opt - 11*send); math.Abs(r-(8+1.0)/(8+3)) > 1e-9 {
		t.Errorf("interleaved/plain step %g, want (8 + 3/3)/(8 + 3)", r)
	}
	// b·s·h·2 bytes forward and back over NVLink: 2 × 2048 × 4096 × 2 / 300e9.
	if want := 2 * 2048 * 4096 * 2 / 300e9; math.Abs(relErr(send, want)) > 1e-12 ||
		math.Abs(relErr(inter.CommTotalSeconds, 8*3*send)) > 1e-9 || inter.CommSeconds != 0 {
		t.Errorf("pipeline send %g s (want %g); interleaved comm total %g, exposed %g", send, want, inter.CommTotalSeconds, inter.CommSeconds)
	}
	// A user's MFU replaces the model's.
	if p := mustPerf(t, in, sxm, Efficiency{MFU: 0.3}, Workload{}); p.ComputeEfficiency != 0.3 {
		t.Errorf("MFU override: %g", p.ComputeEfficiency)
	}
}

// llamaCppRows: llama-bench tg128 (batch-1 decode) rows
// (public-2026-11/llama_cpp_llama_bench.json) on GPUs whose bandwidth the
// catalog gives (RTX 6000 Ada 960 GB/s, RTX 4090 1008 GB/s; gpus.json).
// Decode at batch 1 does not depend on the FLOP/s figure (checked below),
// so a placeholder peak is used. The 2025 RTX 6000 Ada row is a fit row of
// llamaCppBandwidthUtil and llamaCppLayerSeconds (±10%); the early-2024
// RTX 4090 rows are test rows (±20%).
func llamaCppRows(t *testing.T) []calRow {
	recs := readRecords(t, "public-2026-11/llama_cpp_llama_bench.json")
	var rows []calRow
	for _, c := range []struct {
		id, arch string
		bw       float64
		w        DType
		q        Quant
		tol      float64
	}{
		{"llamacpp-pr19053-rtx-6000-ada-generation-llama-8b-q4-0-tg128", "llama-3.1-8b.json", 960e9, INT4, QuantQ4_0, 0.10},
		{"llamacpp-pr4766-rtx4090-codellama7b-f16-tg128", "llama-2-7b-hf.json", 1008e9, FP16, QuantAuto, 0.20},
		{"llamacpp-pr4766-rtx4090-codellama7b-q8_0-tg128", "llama-2-7b-hf.json", 1008e9, INT8, QuantQ8_0, 0.20},
	} {
		rec := record(t, recs, c.id)
		in := DefaultInput(loadArch(t, c.arch))
		in.Engine, in.Weights, in.Quant, in.Seq = LlamaCpp, c.w, c.q, 129
		w := Workload{PromptTokens: 1, OutputTokens: 128}
		p := mustPerf(t, in, Hardware{PeakFLOPS: 100e12, MemBandwidth: c.bw}, Efficiency{}, w)
		if q := mustPerf(t, in, Hardware{PeakFLOPS: 200e12, MemBandwidth: c.bw}, Efficiency{}, w); math.Abs(relErr(q.DecodeTokenLatency, p.DecodeTokenLatency)) > 0.01 {
			t.Errorf("%s: batch-1 decode moved %g → %g s with the peak", c.id, p.DecodeTokenLatency, q.DecodeTokenLatency)
		}
		rows = append(rows, calRow{model: c.arch, setting: "llama.cpp tg128 " + rec["model_type_as_printed"].(string),
			measured: num(t, rec["tokens_per_s"]), estimated: 1 / p.DecodeTokenLatency, unit: "tok/s", tol: c.tol})
	}
	return rows
}

func TestLlamaCppDecodeCalibration(t *testing.T) { reportCalibration(t, llamaCppRows(t)) }

// TensorRT-LLM sizes its KV pool from the memory free after loading, so
// DeepSeek-V3 in FP8 on 4 × B200 (180 GB each) keeps a pool of hundreds
// of thousands of tokens (134K at 180 GB) where vLLM's 0.9 of the whole memory leaves less
// than one 8K sequence.
func TestTRTLLMPool(t *testing.T) {
	in := DefaultInput(loadArch(t, "deepseek-v3.json"))
	in.Weights, in.KV, in.TP, in.GPUs, in.Seq, in.Batch, in.VRAM = FP8, FP8, 4, 4, 8192, 16, 180*GB
	in.Engine = TRTLLM
	trt := mustEstimate(t, in)
	in.Engine = VLLM
	vl := mustEstimate(t, in)
	if !trt.Fits || trt.KVPoolTokens < 100000 || vl.MaxConcurrentSeqs != 0 {
		t.Errorf("TensorRT-LLM pool %d tokens (fits %v), vLLM %d sequences", trt.KVPoolTokens, trt.Fits, vl.MaxConcurrentSeqs)
	}
}

// TestExpertAndAttentionDataParallel: DeepSeek-V3 (MLA, 256 experts) FP8
// on 8 H200s with SGLang. Attention data parallelism (--dp 8) replicates
// the non-expert weights (more weight per GPU) but stops repeating the
// MLA latent cache on every GPU, so the replica holds several times the
// sequences and decodes a batch with less KV read per GPU; experts stay
// sharded over all 8 GPUs either way. EP without DP pays an all-to-all
// of k copies of each token, more than TP's all-reduce, except on SGLang,
// which sums the ranks' experts with TP's all-reduce.
func TestExpertAndAttentionDataParallel(t *testing.T) {
	a := loadArch(t, "deepseek-v3.json")
	in := DefaultInput(a)
	in.Engine, in.Weights, in.GPUs, in.TP, in.Batch, in.Seq, in.VRAM = SGLang, FP8, 8, 8, 64, 4096, 141*GB
	// One memory share for both layouts: SGLang's own default reserves
	// 18 GiB more for DP attention's CUDA graphs (sglangMemFractionStatic),
	// which is not what this test is about.
	in.GPUMemUtil = 0.9
	hw := Hardware{PeakFLOPS: 1979e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, Generation: GenHopper}
	w := Workload{PromptTokens: 2000, OutputTokens: 1000}
	tp := mustEstimate(t, in)
	tpPerf := mustPerf(t, in, hw, Efficiency{}, w)
	in.DP, in.EP = 8, 8
	dp := mustEstimate(t, in)
	dpPerf := mustPerf(t, in, hw, Efficiency{}, w)
	if !(dp.PerGPU.Weights > tp.PerGPU.Weights) {
		t.Errorf("DP weights %v not above TP's %v", dp.PerGPU.Weights, tp.PerGPU.Weights)
	}
	// The experts are most of DeepSeek-V3: replicating the rest adds
	// less than a quarter.
	if r := float64(dp.PerGPU.Weights) / float64(tp.PerGPU.Weights); r > 1.25 {
		t.Errorf("DP/TP weights %.2f, want ≤ 1.25", r)
	}
	if !(dp.MaxConcurrentSeqs > 3*tp.MaxConcurrentSeqs) {
		t.Errorf("DP holds %d sequences, TP %d: want > 3×", dp.MaxConcurrentSeqs, tp.MaxConcurrentSeqs)
	}
	// At 64 requests the DP step pays one more collective a layer (the
	// gather before the experts and the scatter after, dpGatherLatency)
	// and the busiest EP group's experts (64 tokens touch 87% of the
	// experts on average, the busiest of 8 groups 95%: maxBinomialShare),
	// and saves the 8× replicated latent reads: 0–12% above TP's. At 512
	// requests the latent reads win.
	if r := dpPerf.DecodeStepSeconds / tpPerf.DecodeStepSeconds; !(r > 1 && r < 1.12) {
		t.Errorf("DP decode step %g s against TP's %g s at batch 64: want 0–12%% above", dpPerf.DecodeStepSeconds, tpPerf.DecodeStepSeconds)
	}
	{
		big := in
		big.Batch = 512
		dpBig := mustPerf(t, big, hw, Efficiency{}, w)
		big.DP, big.EP = 1, 1
		tpBig := mustPerf(t, big, hw, Efficiency{}, w)
		if !(dpBig.DecodeStepSeconds < 0.8*tpBig.DecodeStepSeconds) {
			t.Errorf("DP decode step %g s not 20%% below TP's %g s at batch 512", dpBig.DecodeStepSeconds, tpBig.DecodeStepSeconds)
		}
	}
	in.DP = 1
	// SGLang's EP without DP sums the experts' outputs with the TP
	// all-reduce (deepseek_v2.py forward_normal): TP's collectives, its
	// experts whole on each GPU, and the step waits for the GPU whose
	// experts the batch touches most: above TP's step by that GPU's
	// extra reads, at most 10% at 64 requests. Measured, InferenceX
	// DeepSeek-R1 FP8 on 8 B200s with SGLang: EP 8 against EP 1 at 16 in
	// flight 15.29 against 13.66 ms median TPOT (+12%), at 4 in flight
	// 11.13 against 8.78 ms (+27%).
	epPerf := mustPerf(t, in, hw, Efficiency{}, w)
	if r := epPerf.DecodeStepSeconds / tpPerf.DecodeStepSeconds; !(r > 1 && r <= 1.1) {
		t.Errorf("SGLang EP without DP step %g s against TP's %g s: want 0–10%% above", epPerf.DecodeStepSeconds, tpPerf.DecodeStepSeconds)
	}
	in.Engine, in.EP = TRTLLM, 1
	trtTP := mustPerf(t, in, hw, Efficiency{}, w)
	in.EP = 8
	trtEP := mustPerf(t, in, hw, Efficiency{}, w)
	if !(trtEP.DecodeStepSeconds > trtTP.DecodeStepSeconds) {
		t.Errorf("TensorRT-LLM EP without DP step %g s not above TP's %g s", trtEP.DecodeStepSeconds, trtTP.DecodeStepSeconds)
	}
	in.Engine = SGLang
	for _, bad := range []func(Input) Input{
		func(in Input) Input { in.EP = 3; return in },                                  // does not divide TP
		func(in Input) Input { in.DP, in.Engine = 8, HF; return in },                   // not a serving engine
		func(in Input) Input { in.Arch = loadArch(t, "llama-3.1-8b.json"); return in }, // dense: no experts
	} {
		b := bad(in)
		if err := b.Validate(); err == nil || !(strings.Contains(err.Error(), "ep") || strings.Contains(err.Error(), "dp")) {
			t.Errorf("bad EP/DP accepted: %v", err)
		}
	}
}

// TestSchedulerPassSettings: an engine setting that has the scheduler
// take new requests once every N steps (vLLM's multi-step scheduling,
// --scheduler-steps; SGLang's --scheduler-recv-interval) makes a new
// request wait for half of N steps instead of half a step, so the closed
// form's TTFT grows by (c−1)/c · (N−1) · step/2 at c requests and TPOT
// does not move; the other engines refuse the setting.
func TestSchedulerPassSettings(t *testing.T) {
	for _, c := range []struct {
		flag    string
		engine  Engine
		hw      Hardware
		set     func(*Input, int)
		refused []Engine
	}{
		{"scheduler-steps", VLLM, Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, Generation: GenHopper},
			func(in *Input, n int) { in.SchedulerSteps = n }, []Engine{SGLang}},
		{"scheduler-recv-interval", SGLang, Hardware{PeakFLOPS: 2250e12, MemBandwidth: 8e12, Generation: GenBlackwell},
			func(in *Input, n int) { in.SchedulerRecvInterval = n }, []Engine{VLLM, TRTLLM}},
	} {
		in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
		in.Engine, in.Batch, in.Seq = c.engine, 8, 512
		w := Workload{PromptTokens: 256, OutputTokens: 128}
		one := mustPerf(t, in, c.hw, Efficiency{}, w)
		c.set(&in, 10)
		ten := mustPerf(t, in, c.hw, Efficiency{}, w)
		want := one.TimeToFirstToken + 7.0/8*9*one.DecodeStepSeconds/2
		if math.Abs(relErr(ten.TimeToFirstToken, want)) > 1e-9 || ten.DecodeTokenLatency != one.DecodeTokenLatency {
			t.Errorf("%v --%s 10: TTFT %g s (TPOT %g), want %g s (TPOT %g)", c.engine, c.flag, ten.TimeToFirstToken, ten.DecodeTokenLatency, want, one.DecodeTokenLatency)
		}
		for _, e := range c.refused {
			in.Engine = e
			if err := in.Validate(); err == nil || !strings.Contains(err.Error(), c.flag) {
				t.Errorf("--%s on %v accepted: %v", c.flag, e, err)
			}
		}
	}
}

// TestAttentionDPBalanceNeedsTRTLLM: TensorRT-LLM's attention-DP balance
// needs TensorRT-LLM and DP > 1.
func TestAttentionDPBalanceNeedsTRTLLM(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Batch, in.Seq, in.AttentionDPBalanceIters = 8, 512, 60
	for _, c := range []struct {
		e  Engine
		dp int
	}{{TRTLLM, 1}, {SGLang, 1}} {
		in.Engine, in.DP = c.e, c.dp
		if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "attention-dp-balance") {
			t.Errorf("attention-DP balance on %v DP %d accepted: %v", c.e, c.dp, err)
		}
	}
}

// TestVLLMBitsandbytes: vLLM's bitsandbytes 4-bit runs bitsandbytes'
// matmul_4bit, which dequantises to a 16-bit copy above one token: at
// batch 8 its memory-bound step reads several times GPTQ's bytes, at
// batch 1 about the same.
func TestVLLMBitsandbytes(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Engine, in.Weights, in.Seq = VLLM, INT4, 640
	hw := Hardware{PeakFLOPS: 165.2e12, MemBandwidth: 1008e9, Generation: GenAda, HostClass: HostDesktop}
	w := Workload{PromptTokens: 128, OutputTokens: 512}
	step := func(q Quant, b int) float64 {
		in.Quant, in.Batch = q, b
		return mustPerf(t, in, hw, Efficiency{}, w).DecodeStepSeconds
	}
	// Both read about 4 bits a weight; Marlin at marlinBandwidthShare.
	if r := step(QuantNF4, 1) / step(QuantGroup128, 1); r < 0.8 || r > 1.1 {
		t.Errorf("batch 1: NF4/GPTQ step %.2f, want about 1", r)
	}
	if r := step(QuantNF4, 8) / step(QuantGroup128, 8); r < 3 {
		t.Errorf("batch 8: NF4/GPTQ step %.2f, want ≥ 3 (16-bit copies)", r)
	}
}

// TestHFInt4Kernels: HF's group-wise int4 mat-vec kernels (AutoAWQ's GEMV
// here) read the weights at hfInt4BandwidthShare of BF16's achieved
// bandwidth, at every batch, and do not serialise with the host as
// bitsandbytes' dequantisation does; exllama does from 8 rows on, where it
// reconstructs 16-bit weights (exllamaRecons).
// Compiled (no host floor), the int4 step over the BF16 step at batch 1
// is the ratio of their weight reads plus the per-layer cost (the KV read
// of 640 tokens is under 2% of either).
func TestHFInt4Kernels(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Compiled, in.Seq = true, 640
	w := Workload{PromptTokens: 128, OutputTokens: 512}
	hw := a100SXM.withDefaults()
	for _, b := range []int{1, 8} {
		in.Batch, in.Weights, in.Quant = b, BF16, QuantAuto
		bf := mustPerf(t, in, a100SXM, Efficiency{}, w)
		mb := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
		in.Weights, in.Quant, in.Kernel = INT4, QuantGroup128, KernelAWQGEMV
		q := mustPerf(t, in, a100SXM, Efficiency{}, w)
		mq := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
		layers := float64(a.Layers) * layerOverhead
		want := (mq.gpuWeightRead(float64(b))/hfInt4BandwidthShare/mq.bw + layers) / (mb.gpuWeightRead(float64(b))/mb.bw + layers)
		// At batch 8 the compute term enters the roofline blend: only
		// batch 1 is held to the ratio.
		if got := q.DecodeStepSeconds / bf.DecodeStepSeconds; b == 1 && math.Abs(relErr(got, want)) > 0.05 {
			t.Errorf("batch %d: int4/bf16 step %.3f, want %.3f", b, got, want)
		}
		if hostSerial(in, float64(b)) {
			t.Errorf("batch %d: AWQ int4 taken as host-serial", b)
		}
		in.Kernel = KernelExllama
		if recons := b >= exllamaReconsRows; hostSerial(in, float64(b)) != recons || (dequantBytesFactor(in, float64(b)) > 2) != recons {
			t.Errorf("batch %d: exllama host-serial %v, bytes factor %g", b, hostSerial(in, float64(b)), dequantBytesFactor(in, float64(b)))
		}
		in.Kernel = KernelAuto
	}
}

// TestTrainingExpertParallel: Qwen3-30B-A3B (128 experts, top 8)
// pre-trained on 16 GPUs with ZeRO-1 and EP 8: each GPU holds 1/8 of the
// routed experts, ZeRO shards their states over the other 2 ranks, so the
// optimizer bytes per GPU do not change while the weights drop by 7/8 of
// the experts; the all-to-all stays inside the NVLink domain, and the
// gradients each GPU all-reduces across the two nodes shrink with its
// expert share, so the job runs faster than at EP 1.
func TestTrainingExpertParallel(t *testing.T) {
	a := loadArch(t, "qwen3-30b-a3b.json")
	in := DefaultInput(a)
	in.Task, in.GPUs, in.ZeRO, in.Seq, in.GradCheckpointing = Pretrain, 16, 1, 4096, true
	// 100 Gbit/s Ethernet per node (1.5625 GB/s per GPU): the gradients'
	// all-reduce across the two nodes is exposed, so EP's smaller share shows.
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NetworkBandwidth: 100e9 / 8 / 8}
	one := mustEstimate(t, in)
	onePerf := mustPerf(t, in, hw, Efficiency{}, Workload{GlobalBatch: 256})
	in.EP = 8
	ep := mustEstimate(t, in)
	epPerf := mustPerf(t, in, hw, Efficiency{}, Workload{GlobalBatch: 256})
	ex := expertParams(a)
	if got, want := float64(one.PerGPU.Weights-ep.PerGPU.Weights), ex*7/8*2; math.Abs(relErr(got, want)) > 0.01 {
		t.Errorf("EP 8 saves %.3g weight bytes, want 7/8 of the experts in bf16 %.3g", got, want)
	}
	if math.Abs(relErr(float64(ep.PerGPU.Optimizer), float64(one.PerGPU.Optimizer))) > 1e-6 {
		t.Errorf("ZeRO-1 optimizer %v with EP 8, %v without: want equal", ep.PerGPU.Optimizer, one.PerGPU.Optimizer)
	}
	if !(epPerf.TokensPerSecond > onePerf.TokensPerSecond) || !(epPerf.CommSeconds < onePerf.CommSeconds) {
		t.Errorf("EP 8 inside a node: %.3g tok/s (comm %.3g s) against %.3g (%.3g s)", epPerf.TokensPerSecond, epPerf.CommSeconds,
			onePerf.TokensPerSecond, onePerf.CommSeconds)
	}
	// Across nodes at a slow network the all-to-all outlasts the compute.
	in.GPUs, in.EP = 64, 64
	slow := mustPerf(t, in, Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper, NetworkBandwidth: 5e9}, Efficiency{}, Workload{GlobalBatch: 256})
	if !(slow.CommSeconds > 0) {
		t.Errorf("EP 64 over a 40 Gb/s network: no exposed communication: %+v", slow)
	}
	for _, bad := range []func(Input) Input{
		func(in Input) Input { in.EP = 3; return in },
		func(in Input) Input { in.Task = LoRA; return in },
		func(in Input) Input { in.DP = 2; return in },
	} {
		if err := bad(in).Validate(); err == nil || !(strings.Contains(err.Error(), "ep") || strings.Contains(err.Error(), "dp")) {
			t.Errorf("bad training EP/DP accepted: %v", err)
		}
	}
	// More EP ranks than the model has experts to split evenly.
	in.EP = 2 * in.Arch.Experts
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "experts") {
		t.Errorf("EP %d over %d experts accepted: %v", in.EP, in.Arch.Experts, err)
	}
}

// TestPCIeX16Bandwidth: the per-generation host link agrees with the PCIe
// 4.0 default and doubles per generation up to 5.0.
func TestPCIeX16Bandwidth(t *testing.T) {
	if g4 := PCIeX16Bandwidth(4); math.Abs(g4/PCIeBandwidth-1) > 0.001 {
		t.Errorf("PCIe 4.0 x16 %v B/s, PCIeBandwidth %v", g4, PCIeBandwidth)
	}
	if r := PCIeX16Bandwidth(5) / PCIeX16Bandwidth(4); r != 2 {
		t.Errorf("PCIe 5.0 / 4.0 = %v, want 2", r)
	}
	if PCIeX16Bandwidth(0) != 0 || PCIeX16Bandwidth(7) != 0 {
		t.Error("an unknown generation has a bandwidth")
	}
}

// TestDPBandwidthWithTP: a data-parallel group reduces inside a node only
// among the ranks that share a shard. With TP 8 on an 8-GPU node each rank
// is alone on its node, so its whole shard crosses the network at its own
// share of the NIC (50 GB/s per GPU here); with TP 1 all eight reduce over
// NVLink first (the hierarchical all-reduce of collectiveBandwidth), and
// with TP 4 two do.
func TestDPBandwidthWithTP(t *testing.T) {
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, NVLinkDomain: 8, NetworkBandwidth: 50e9}
	in := Input{TP: 8}
	if got := dpBandwidth(hw, in, 4); math.Abs(got-50e9) > 1 {
		t.Errorf("TP 8, DP 4 over 4 nodes: %v B/s, want the per-GPU network 50e9", got)
	}
	in.TP = 1
	if got, want := dpBandwidth(hw, in, 32), collectiveBandwidth(hw, 32); got != want {
		t.Errorf("TP 1, DP 32: %v, want collectiveBandwidth's %v", got, want)
	}
	// TP 4: two ranks per node; 2(n−1)/n over 8 nodes at 2 × 50e9, bus
	// bandwidth 2(g−1)/g / that for g = 16.
	in.TP = 4
	want := 2 * 15.0 / 16 / (2 * 7.0 / 8 / (2 * 50e9))
	if got := dpBandwidth(hw, in, 16); math.Abs(got-want) > 1 {
		t.Errorf("TP 4, DP 16: %v, want %v", got, want)
	}
	// Inside one node the group stays on NVLink.
	if got := dpBandwidth(hw, in, 2); got != 450e9 {
		t.Errorf("TP 4, DP 2 in one node: %v", got)
	}
}

// optimumA100Rows: optimum's GPTQ benchmark of HF transformers on one
// A100-SXM4-80GB (testdata/calibration/optimum_gptq_a100.json), Llama-2-13B
// at prompt 512 and 512 new tokens: a decode step is (512 × per-token
// latency − prefill) / 511. The host is the server class (the A100's
// catalog default), each GPTQ row at its own kernel (--kernel exllama or
// autogptq). The batch-1 rows are fit rows: FP16 and exllama placed the
// A100's host in the server class (−17%, −9%), AutoGPTQ's cuda-old row
// fixed hfOpsAutoGPTQ (−12%); they and the FP16 rows at batch 2 and 4
// (test) are held to ±20%, the exllama rows at batch 8 and 16 (test), where
// exllama reconstructs 16-bit weights (exllamaRecons: +11%, −3%), to ±25%.
// Logged: FP16 at batch 8 and 16 (−34%, −44% with the cache's
// concatenation, hfDynamicCacheReads: transformers of 2023 also ran eager
// attention, device work that grows with batch × context and is not
// modelled), exllama at batch 2 and 4 (−18%, −43%) and AutoGPTQ's cuda-old
// kernel above batch 1 (−14%, −33%, −42%, −38% at batch 2 to 16: it reads
// the weights once per row, autogptqRowPasses, which leaves batch 2 and 4
// under the host floor and the passes at about 7.4 ms against the rows'
// 11 ms).
func optimumA100Rows(t *testing.T) []calRow {
	a := loadArch(t, "llama-2-13b-chat-hf.json")
	var rows []calRow
	for _, rec := range readRecords(t, "optimum_gptq_a100.json") {
		in := DefaultInput(a)
		in.Weights = FP16
		kernel, _ := rec["kernel"].(string)
		switch kernel {
		case "exllama":
			in.Weights, in.Quant, in.Kernel = INT4, QuantGroup128, KernelExllama
		case "autogptq-cuda-old":
			in.Weights, in.Quant, in.Kernel = INT4, QuantGroup128, KernelAutoGPTQ
		}
		b := int(num(t, rec["batch_size"]))
		in.Batch, in.Seq = b, 1024
		p := mustPerf(t, in, a100SXM, Efficiency{}, Workload{PromptTokens: 512, OutputTokens: 512})
		step := (512*num(t, rec["per_token_latency_ms"]) - num(t, rec["prefill_latency_ms"])) / 511
		row := calRow{model: "Llama-2-13B", setting: fmt.Sprintf("HF A100 %s %s b%d decode step (%s)", rec["format"], kernel, b, rec["split"]),
			measured: step, estimated: 1000 * p.DecodeStepSeconds, unit: "ms", note: "2023 GPTQ kernels at batch > 1"}
		switch {
		case rec["split"] == "fit":
			row.tol, row.note = 0.20, "fit"
		case kernel == "" && b <= 4:
			row.tol, row.note = 0.20, "test"
		case kernel == "exllama" && b >= exllamaReconsRows:
			row.tol, row.note = 0.25, "test: exllama reconstructs"
		case kernel == "":
			row.note = "2023 eager attention and KV concatenation at large batch not modelled"
		}
		rows = append(rows, row)
	}
	return rows
}

func TestOptimumA100Calibration(t *testing.T) { reportCalibration(t, optimumA100Rows(t)) }

// TestKernels: GPTQ int8 in HF transformers runs AutoGPTQ's kernel, not
// bitsandbytes' LLM.int8() outlier decomposition, so it launches
// hfOpsAutoGPTQ extra ops per linear instead of hfOpsInt8; the default
// kernels are bitsandbytes for int8 and exllama for int4 in HF, Marlin in
// vLLM; Marlin in a serving engine reads at marlinBandwidthShare, other
// group-wise kernels at hfInt4BandwidthShare; kernels that do not fit the
// format or engine are refused.
func TestKernels(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Weights, in.Batch, in.Seq = INT8, 1, 512
	w := Workload{PromptTokens: 256, OutputTokens: 256}
	hw := h100SXMFP8
	bnb := mustPerf(t, in, hw, Efficiency{}, w)
	in.Kernel = KernelAutoGPTQ
	gptq := mustPerf(t, in, hw, Efficiency{}, w)
	ops := func(extra float64) float64 {
		return (float64(a.Layers)*(hfOpsPerLayer-hfLinearsPerLayer+hfLinearsPerLayer*(1+extra)) + hfOpsPerStep) * hfOpSeconds
	}
	if math.Abs(relErr(bnb.DecodeStepSeconds, ops(hfOpsInt8))) > 1e-9 || math.Abs(relErr(gptq.DecodeStepSeconds, ops(hfOpsAutoGPTQ))) > 1e-9 {
		t.Errorf("HF int8 step: bitsandbytes %g s (want %g), GPTQ %g s (want %g)", bnb.DecodeStepSeconds, ops(hfOpsInt8), gptq.DecodeStepSeconds, ops(hfOpsAutoGPTQ))
	}
	for _, c := range []struct {
		e    Engine
		w    DType
		want Kernel
	}{{HF, INT8, KernelBitsandbytes}, {HF, INT4, KernelExllama}, {VLLM, INT4, KernelMarlin}, {VLLM, INT8, KernelMarlin}, {TRTLLM, INT4, KernelAuto}, {HF, BF16, KernelAuto}} {
		if got := resolveKernel(Input{Engine: c.e, Weights: c.w}); got != c.want {
			t.Errorf("%v %v: default kernel %v, want %v", c.e, c.w, got, c.want)
		}
	}
	// Serving: Marlin's weight read at batch 1 is the bytes over its share.
	in.Engine, in.Weights, in.Kernel = VLLM, INT4, KernelAuto
	m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	if got, want := dequantBytesFactor(in, 1), 1/marlinBandwidthShare; got != want {
		t.Errorf("vLLM Marlin bytes factor %g, want %g", got, want)
	}
	in.Kernel = KernelExllama
	if got := dequantBytesFactor(in, 1); got != 1/hfInt4BandwidthShare || !(m.weight > 0) {
		t.Errorf("vLLM gptq (exllama) bytes factor %g", got)
	}
	for _, bad := range []func(Input) Input{
		func(in Input) Input { in.Weights, in.Kernel = BF16, KernelMarlin; return in },
		func(in Input) Input { in.Weights, in.Kernel = INT8, KernelExllama; return in },
		func(in Input) Input { in.Engine, in.Kernel = TRTLLM, KernelMarlin; return in },
		func(in Input) Input { in.Kernel = Kernel(99); return in },
	} {
		if _, err := Throughput(bad(in), hw, Efficiency{}, w); err == nil || !strings.Contains(err.Error(), "kernel") {
			t.Errorf("bad kernel accepted: %v", err)
		}
	}
	for _, k := range Kernels {
		if got, err := ParseKernel(k.String()); err != nil || got != k {
			t.Errorf("ParseKernel(%q) = %v, %v", k, got, err)
		}
	}
}

// TestRooflineTime: the square-and-cube-root form of rooflineTime is the
// roofline blend (c^k + m^k)^(1/k) at k = inferenceRoofK, and keeps its
// bounds: max(c, m) ≤ t ≤ c + m.
func TestRooflineTime(t *testing.T) {
	if inferenceRoofK != 1.5 {
		t.Fatalf("rooflineTime is written for k = 3/2, inferenceRoofK is %v", inferenceRoofK)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		c, m := math.Exp(rng.Float64()*40-30), math.Exp(rng.Float64()*40-30)
		if rng.IntN(10) == 0 {
			m = 0
		}
		got := rooflineTime(c, m)
		want := math.Pow(math.Pow(c, 1.5)+math.Pow(m, 1.5), 1/1.5)
		if math.Abs(got-want) > 1e-12*want {
			t.Fatalf("rooflineTime(%g, %g) = %g, the blend is %g", c, m, got, want)
		}
		if got < math.Max(c, m)*(1-1e-15) || got > (c+m)*(1+1e-15) {
			t.Fatalf("rooflineTime(%g, %g) = %g outside [max, sum]", c, m, got)
		}
	}
	for _, c := range []struct{ c, m, want float64 }{{0, 0, 0}, {1, 0, 1}, {0, 2, 2}, {math.Inf(1), 1, math.Inf(1)}} {
		if got := rooflineTime(c.c, c.m); got != c.want {
			t.Errorf("rooflineTime(%g, %g) = %g, want %g", c.c, c.m, got, c.want)
		}
	}
}

// TestKVLayout: one rank's KV bytes per sequence (kvLayout at a share,
// read once per replica for the serving step) are Arch.kvBytesPerSeq times
// that share, for every vendored config (sliding-window, chunked, MLA and
// linear-attention models among them) and lengths on both sides of their
// windows.
func TestKVLayout(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "configs", "*.json"))
	if err != nil || len(files) < 20 {
		t.Fatalf("configs: %d files, %v", len(files), err)
	}
	windowed := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		a, err := ParseConfig(data)
		if err != nil {
			continue // not a model config (generic and vision presets are other tests')
		}
		if a.SlidingLayers > 0 || a.ChunkedLayers > 0 {
			windowed++
		}
		for _, bits := range []float64{16, 8, 4.25} {
			k := newKVLayout(a, bits, 0.25)
			for _, seq := range []int64{0, 1, 127, 128, 129, 4095, 4096, 4097, 131072} {
				want := a.kvBytesPerSeq(seq, bits) * 0.25
				if got := k.bytes(seq); math.Abs(got-want) > 1e-12*math.Max(want, 1) {
					t.Fatalf("%s at %d tokens, %v bits: %g bytes, kvBytesPerSeq gives %g", filepath.Base(f), seq, bits, got, want)
				}
			}
		}
	}
	if windowed == 0 {
		t.Fatal("no sliding-window or chunked config among the vendored ones")
	}
}

// TestPow23: rooflineTime's s^(2/3) is within two ulps of math.Cbrt(s²)
// over [1, 2] (random points, the table's knots and their neighbours),
// exactly 1 at s = 1, and never falls by more than an ulp along s, nor at
// all on a grid of steps above the rounding: the simulator's decode runs
// read a step's time as not falling when its context grows, which
// rooflineTime's own roundings (r = min/max, r·√r, the product with max)
// already hold only to the last bit.
func TestPow23(t *testing.T) {
	check := func(s float64) {
		t.Helper()
		got, want := pow23(s), math.Cbrt(s*s)
		if math.Abs(got-want) > 2*(math.Nextafter(want, 3)-want) {
			t.Fatalf("pow23(%v) = %v, ∛(s²) = %v", s, got, want)
		}
	}
	if got := pow23(1); got != 1 {
		t.Fatalf("pow23(1) = %v, want 1", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		check(1 + rng.Float64())
	}
	starts := []float64{1}
	for i := 1; i < pow23Steps; i++ {
		starts = append(starts, 1+float64(i)/pow23Steps-1e-13)
	}
	for range 200 {
		starts = append(starts, 1+rng.Float64()*0.999)
	}
	for _, s := range starts {
		check(s)
		prev := pow23(s)
		for range 2000 {
			s = math.Nextafter(s, 3)
			check(s)
			y := pow23(s)
			if y < math.Nextafter(prev, 0) {
				t.Fatalf("pow23 falls at %v: %v after %v", s, y, prev)
			}
			prev = y
		}
	}
	prev := 0.0
	for i := 0; i <= 1<<20; i++ {
		y := pow23(1 + float64(i)/(1<<20))
		if y < prev {
			t.Fatalf("pow23 falls at step %d", i)
		}
		prev = y
	}
}

// TestDequantCopiesLinearsOnly: a 16-bit copy is made of the quantised
// linears only (inferModel.weightBytes). Llama 3.1 8B in HF with NF4: its
// 6,979,321,856 linear weights at 4.127 bits are 3,600,457,662 bytes, the
// LM head and norms (525,602,816 weights) stay BF16, 1,051,205,632 bytes:
// 4,651,663,294 bytes at batch 1 (the 4-bit mat-vec reads them once). At
// batch 8 bitsandbytes reads the 4.127 bits and writes and reads a 16-bit
// copy of each linear, 6,979,321,856 × (4.127/8 + 4) bytes, and reads the
// head once: 32,568,950,718 bytes (40,719,806,116 when the copy's ×8.75
// was put on the head too).
func TestDequantCopiesLinearsOnly(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Weights, in.Quant, in.Batch = INT4, QuantNF4, 8
	hw := a100SXM.withDefaults()
	m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	for _, c := range []struct{ tokens, want float64 }{{1, 4651663294.464}, {8, 32568950718.464}, {32, 32568950718.464}} {
		if got := m.weightBytes(c.tokens); math.Abs(got/c.want-1) > 1e-9 {
			t.Errorf("NF4 at %g tokens: %.0f weight bytes, want %.0f", c.tokens, got, c.want)
		}
	}
}

// TestAutoGPTQRowPasses: AutoGPTQ's CUDA kernel reads the int4 weights once
// per row below 128 rows and dequantises to fp16 from there
// (autogptqRowPasses). Llama-2-13B in HF: 12,687,769,600 linear weights at
// 4.25 bits (group 128) are 6,740,377,600 bytes, read at
// hfInt4BandwidthShare; the LM head and norms (164,254,720 weights) stay
// fp16, 328,509,440 bytes, read once at every batch. At batch 8: 8 × 6,740,377,600 / 0.72 +
// 328,509,440 = 75,221,593,884 bytes; at 128 rows the copy,
// 12,687,769,600 × (4.25/8 + 4) + 328,509,440 = 57,819,965,440. exllama
// at batch 2 reads the weights once.
func TestAutoGPTQRowPasses(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-2-13b-chat-hf.json"))
	in.Weights, in.Quant, in.Kernel = INT4, QuantGroup128, KernelAutoGPTQ
	hw := a100SXM.withDefaults()
	m := newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	for _, c := range []struct{ tokens, want float64 }{
		{1, 6740377600/hfInt4BandwidthShare + 328509440},
		{8, 75221593884.44444}, {128, 57819965440}} {
		if got := m.weightBytes(c.tokens); math.Abs(got/c.want-1) > 1e-9 {
			t.Errorf("autogptq at %g tokens: %.0f weight bytes, want %.0f", c.tokens, got, c.want)
		}
	}
	if hostSerial(in, 8) {
		t.Error("autogptq's row passes taken as host-serial")
	}
	in.Kernel = KernelExllama
	m = newInferModel(in, hw, Efficiency{}.resolve(in, hw))
	if got, want := m.weightBytes(2), (6740377600+328509440)/hfInt4BandwidthShare; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("exllama at 2 tokens: %.0f weight bytes, want %.0f", got, want)
	}
}

// TestHFPrefillAtEngineShare: HF transformers prefills at the serving
// engines' matmul share (defaultInferenceMFU, the same cuBLAS GEMMs) and
// decodes at hfDecodeComputeShare of it. Llama-2-7B on an A100 (312
// TFLOP/s FP16): 32 layers × (4 · 4096² + 3 · 4096 · 11008) + the LM head
// 32000 · 4096 = 6,607,077,376 matmul parameters, and the 65 RMSNorm
// weight vectors of 4096 that matmulParams counts with them:
// 6,607,343,616, all at K ≥ 4096 on one GPU (gemmShapeCost 1), so a prompt
// token costs 2 · 6.6073e9 / (312e12 × 0.5) = 84.709 µs of matmuls and a
// decoded token 169.42 µs.
func TestHFPrefillAtEngineShare(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-2-7b-hf.json"))
	in.Engine, in.Weights = HF, FP16
	eff := Efficiency{}.resolve(in, a100SXM)
	m := newInferModel(in, a100SXM.withDefaults(), eff)
	if eff.InferenceMFU != 0.5 || m.n != 6607343616 {
		t.Fatalf("HF inference MFU %g, matmul parameters %g: want 0.5 and 6,607,343,616", eff.InferenceMFU, m.n)
	}
	if got, want := m.computeTime(1, 0), 84.709e-6; math.Abs(relErr(got, want)) > 1e-4 {
		t.Errorf("HF prefill matmuls %g s a token, want %g", got, want)
	}
	d := m.hfDecodeModel()
	if got, want := d.computeTime(1, 0), 169.42e-6; math.Abs(relErr(got, want)) > 1e-4 {
		t.Errorf("HF decode matmuls %g s a token, want %g", got, want)
	}
	// A serving engine decodes at the prefill's share.
	in.Engine = VLLM
	v := newInferModel(in, a100SXM.withDefaults(), Efficiency{}.resolve(in, a100SXM))
	if got := v.computeTime(1, 0); math.Abs(relErr(got, 84.709e-6)) > 1e-4 {
		t.Errorf("vLLM matmuls %g s a token, want 84.709 µs", got)
	}
}

// TestLlamaCppF16HalfAccumulate pins llama.cpp's F16 linears at the
// FP16-accumulate rate of a GeForce card (halfAccumGEMM), by hand:
// Llama-2-7B's 6,607,343,616 matmul parameters on an RTX 4090 (Ada
// whitepaper v2.02 Table 2: 330.3 TFLOPS dense with FP16 accumulate,
// 165.2 with FP32 accumulate) at the 0.5 inference MFU cost
// 2 · 6,607,343,616 / (330.3e12 · 0.5) = 80.016 µs a prompt token.
// BF16 weights (CUBLAS_COMPUTE_32F), GGUF quants (MMQ) and other engines
// stay at 165.2 TFLOPS: 2 · 6,607,343,616 / (165.2e12 · 0.5) = 159.98 µs.
func TestLlamaCppF16HalfAccumulate(t *testing.T) {
	rtx4090 := Hardware{PeakFLOPS: 165.2e12, HalfAccumFLOPS: 330.3e12, MemBandwidth: 1008e9, Generation: GenAda}
	in := DefaultInput(loadArch(t, "llama-2-7b-hf.json"))
	for _, c := range []struct {
		name   string
		engine Engine
		w      DType
		quant  Quant
		hw     Hardware
		want   float64
	}{
		{"llama.cpp F16", LlamaCpp, FP16, QuantAuto, rtx4090, 80.016e-6},
		{"llama.cpp BF16", LlamaCpp, BF16, QuantAuto, rtx4090, 159.98e-6},
		{"llama.cpp Q8_0", LlamaCpp, INT8, QuantQ8_0, rtx4090, 159.98e-6},
		{"vLLM F16", VLLM, FP16, QuantAuto, rtx4090, 159.98e-6},
		{"llama.cpp F16, one rate", LlamaCpp, FP16, QuantAuto, Hardware{PeakFLOPS: 165.2e12, MemBandwidth: 1008e9, Generation: GenAda}, 159.98e-6},
	} {
		in.Engine, in.Weights, in.Quant = c.engine, c.w, c.quant
		eff := Efficiency{}.resolve(in, c.hw)
		m := newInferModel(in, c.hw.withDefaults(), eff)
		if m.n != 6607343616 {
			t.Fatalf("matmul parameters %g, want 6,607,343,616", m.n)
		}
		if got := m.computeTime(1, 0); math.Abs(relErr(got, c.want)) > 1e-4 {
			t.Errorf("%s: matmuls %g s a prompt token, want %g", c.name, got, c.want)
		}
		// Attention's products keep the FP32-accumulate rate.
		if want := 165.2e12 * eff.InferenceMFU; math.Abs(relErr(m.attnFlops, want)) > 1e-12 {
			t.Errorf("%s: attention at %g FLOP/s, want %g", c.name, m.attnFlops, want)
		}
	}
}
