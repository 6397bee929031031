package estimator

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/breakdown.golden")

// testConfigs are the architectures the property, golden and fuzz tests run over.
var testConfigs = []string{
	"llama-3.1-8b.json", "llama-3.2-1b.json", "mixtral-8x7b-v0.1.mlc_preset.json",
	"qwen2.5-7b.json", "gemma-2-9b.mlc_preset.json", "gpt2.mlc_preset.json",
	"bert-large-uncased.json", "deepseek-v3.json", "vit-base-patch16-224-in21k.json",
	"falcon-7b.json", "t5-3b.generic.json", "qwen3-30b-a3b.json",
	"qwen1.5-moe-a2.7b.mlc_preset.json",
}

func mustEstimate(t testing.TB, in Input) Result {
	t.Helper()
	r, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Hand-checked cases for the formula pieces.
func TestKVBytesPerToken(t *testing.T) {
	for _, c := range []struct {
		file string
		kv   DType
		want Bytes
	}{
		// 2 (K,V) × 32 layers × 8 KV heads × 128 × 2 B = 131,072 B (vLLM's
		// 58.11 GiB pool ↔ 476,016 tokens in the llm-d report agrees).
		{"llama-3.1-8b.json", BF16, 131072},
		{"llama-3.1-8b.json", FP8, 65536},
		// Llama-2-7B MHA: 2 × 32 × 32 × 128 × 2 = 524,288 B (0.5 MiB/token).
		{"llama-2-7b-hf.json", FP16, 524288},
		// DeepSeek-V2 MLA: (512 + 64) × 60 layers = 34,560 elements
		// (paper Table 9 "34.6K"), × 2 B.
		{"deepseek-v2_official-inference-config_236B.json", BF16, 69120},
		// Encoders keep no cache.
		{"bert-large-uncased.json", BF16, 0},
	} {
		if got := loadArch(t, c.file).KVBytesPerToken(c.kv); got != c.want {
			t.Errorf("%s KVBytesPerToken(%v) = %d, want %d", c.file, c.kv, got, c.want)
		}
	}
}

func TestKorthikantiGPT(t *testing.T) {
	// A GPT block (dropout, GeLU 4h MLP, MHA) in 16-bit ZeRO training must
	// reproduce sbh(34 + 5as/h) per layer (Korthikanti et al. Eq. 1), and
	// the TP baseline sbh(10 + 24/t + 5as/(ht)) (Eq. 2).
	a := loadArch(t, "gpt2.mlc_preset.json")
	in := DefaultInput(a)
	in.Task, in.ZeRO, in.GPUs, in.FlashAttention = Pretrain, 1, 2, false
	in.Batch, in.Seq = 2, 1024
	s, b, h, heads := 1024.0, 2.0, 768.0, 12.0
	want := s * b * h * (34 + 5*heads*s/h) * 12
	if got := trainActivations(in, 12); math.Abs(got-want) > 1 {
		t.Errorf("activations = %.0f, want sbh(34+5as/h)·L = %.0f", got, want)
	}
	in.TP, in.GPUs, in.SequenceParallel = 2, 4, false
	want = s * b * h * (10 + 24/2.0 + 5*heads*s/(h*2)) * 12
	if got := trainActivations(in, 12); math.Abs(got-want) > 1 {
		t.Errorf("TP2 activations = %.0f, want %.0f", got, want)
	}
	// With sequence parallelism the whole block is sharded:
	// sbh/t·(34 + 5as/h) (Korthikanti et al. Eq. 4 without recompute).
	in.SequenceParallel = true
	want = s * b * h / 2 * (34 + 5*heads*s/h) * 12
	if got := trainActivations(in, 12); math.Abs(got-want) > 1 {
		t.Errorf("TP2 + SP activations = %.0f, want %.0f", got, want)
	}
}

// Pure bf16 full fine-tuning keeps 2 + 2 B/param of weights and gradients
// and AdamW's two states in bf16 (4 B/param): 8 B/param where mixed
// precision with ZeRO needs 16; a paged optimizer's states go to the host.
func TestPureBF16AndPagedOptimizer(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.ZeRO, in.GPUs = FullFinetune, 1, 1
	mixed := mustEstimate(t, in)
	in.ZeRO, in.PureBF16 = 0, true
	pure := mustEstimate(t, in)
	p := float64(a.Params())
	if w, g, o := float64(pure.PerGPU.Weights)/p, float64(pure.PerGPU.Gradients)/p, float64(pure.PerGPU.Optimizer)/p; math.Abs(w-2) > 0.01 ||
		math.Abs(g-2) > 0.01 || math.Abs(o-4) > 0.01 {
		t.Errorf("pure bf16: %.2f + %.2f + %.2f B/param, want 2 + 2 + 4", w, g, o)
	}
	if !(pure.PerGPU.Total() < mixed.PerGPU.Total()) {
		t.Errorf("pure bf16 %v ≥ mixed %v", pure.PerGPU.Total(), mixed.PerGPU.Total())
	}
	in.Optimizer = PagedAdamW8bit
	paged := mustEstimate(t, in)
	if paged.PerGPU.Optimizer != 0 || !(paged.HostOffload > Bytes(1.9*p)) {
		t.Errorf("paged 8-bit AdamW: %v on the GPU, %v on the host", paged.PerGPU.Optimizer, paged.HostOffload)
	}
	// Pure bf16 LoRA (torchtune: --adapter-dtype bf16): adapters, their
	// gradients and AdamW states in 16-bit, half of PEFT's fp32 adapters.
	// The checkpointed block input is 16-bit in both: the base is loaded
	// in 16-bit, so autocast's residual stream is too.
	in.Task, in.Optimizer, in.GradCheckpointing, in.AdapterDType = LoRA, AdamW, true, AdapterBF16
	lpure := mustEstimate(t, in)
	in.PureBF16, in.AdapterDType = false, AdapterAuto
	lmixed := mustEstimate(t, in)
	if g, o := lpure.PerGPU.Gradients, lpure.PerGPU.Optimizer; 2*g != lmixed.PerGPU.Gradients || 2*o != lmixed.PerGPU.Optimizer || g == 0 {
		t.Errorf("pure bf16 LoRA grads %v optimizer %v, want half of %v, %v", g, o, lmixed.PerGPU.Gradients, lmixed.PerGPU.Optimizer)
	}
	if d := lmixed.PerGPU.Activations - lpure.PerGPU.Activations; d != 0 {
		t.Errorf("pure bf16 LoRA activations %d B below autocast's, want the same", d)
	}
	// QLoRA through PEFT casts the embeddings to fp32 (kbitPrepared): its
	// checkpointed block input is fp32, 2 B more per element than
	// torchtune's pure bf16 QLoRA.
	in.Task = QLoRA
	qmixed := mustEstimate(t, in)
	in.PureBF16 = true
	qpure := mustEstimate(t, in)
	in.PureBF16 = false
	saved := float64(in.Batch) * float64(in.Seq) * float64(a.Hidden) * 2 * float64(a.Layers)
	if d := float64(qmixed.PerGPU.Activations - qpure.PerGPU.Activations); !(d >= saved) {
		t.Errorf("PEFT QLoRA activations %.0f B above pure bf16 QLoRA's, want at least %.0f", d, saved)
	}
	in.Task, in.PureBF16 = Inference, true
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "pure-bf16") {
		t.Errorf("pure bf16 inference accepted: %v", err)
	}
}

func TestWeightsByFormat(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	p := float64(a.Params())
	for _, c := range []struct {
		name   string
		w      DType
		q      Quant
		engine Engine
		bpw    float64 // expected overall bits per weight (approx.)
		tol    float64
	}{
		{"fp32", FP32, QuantAuto, HF, 32, 0},
		{"bf16", BF16, QuantAuto, HF, 16, 0},
		{"Q4_K_M", INT4, QuantAuto, LlamaCpp, 4.84, 0},
		{"Q8_0", INT8, QuantAuto, LlamaCpp, 8.5, 0},
		{"Q6_K", BF16, QuantQ6K, LlamaCpp, 6.56, 0},
		// int4 g128 on linears, 16-bit embeddings+head (1.05B of 8.03B).
		{"int4-g128", INT4, QuantAuto, HF, (6.98*4.25 + 1.05*16) / 8.03, 0.01},
		{"nf4", BF16, QuantNF4, HF, (6.98*4.127 + 1.05*16) / 8.03, 0.01},
	} {
		in.Weights, in.Quant, in.Engine = c.w, c.q, c.engine
		r := mustEstimate(t, in)
		got := float64(r.PerGPU.Weights) * 8 / p
		if math.Abs(got-c.bpw) > c.tol+0.001 {
			t.Errorf("%s: %.3f bits/param, want %.3f", c.name, got, c.bpw)
		}
	}
}

func TestValidateNamesFields(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Batch, in.Seq, in.TP, in.GPUs, in.ZeRO = 0, -1, 3, 3, 2
	in.UsableVRAM = in.VRAM + 1 // more usable than the card holds
	err := in.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	fields := map[string]bool{}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ie *InputError
		if !errors.As(e, &ie) {
			t.Fatalf("%v is not an *InputError", e)
		}
		fields[ie.Field] = true
	}
	for _, f := range []string{"batch", "seq", "tp", "zero", "usable-vram"} {
		if !fields[f] {
			t.Errorf("no error for field %q in %v", f, err)
		}
	}
	if !errors.Is(err, ErrRange) || !errors.Is(err, ErrIncompatible) {
		t.Errorf("sentinels not wrapped: %v", err)
	}
	if _, err := Estimate(in); err == nil {
		t.Error("Estimate accepted an invalid input")
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":5,"vocab_size":32000,"intermediate_size":11008}`,
			"estimator: config: num_key_value_heads=5 does not divide num_attention_heads=32"},
		{`{"model_type":"llama","hidden_size":4000,"num_hidden_layers":32,"num_attention_heads":48,"vocab_size":32000,"intermediate_size":11008}`,
			"hidden_size=4000 is not divisible by num_attention_heads=48"},
		{`{"model_type":"llama","num_hidden_layers":32}`, "hidden_size: missing"},
		{`{"model_type":"llama","hidden_size":"big"}`, "hidden_size=big: want an integer"},
		{`{"model_type":"mamba"}`, `model_type="mamba": unsupported`},
		{`{"model_type":"rightsize-generic","num_parameters":5,"width":3}`, "width: unknown field"},
		{`{"model_type":"rightsize-generic"}`, "num_parameters: missing"},
		{`{"model_type":"mixtral","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":10,"intermediate_size":8,"num_local_experts":2,"num_experts_per_tok":3}`,
			"num_experts_per_tok=3"},
		{`{"model_type":"gpt2","n_embd":768,"hidden_size":1024,"n_layer":1,"n_head":12,"vocab_size":10}`, "n_embd=768 contradicts hidden_size=1024"},
		{`[]`, "estimator: config:"},
	} {
		_, err := ParseConfig([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseConfig(%s) error = %v, want %q", c.json, err, c.want)
		}
	}
}

// Property tests over every test architecture and task.
func TestProperties(t *testing.T) {
	for _, f := range testConfigs {
		a := loadArch(t, f)
		for _, task := range Tasks {
			for _, eng := range Engines {
				in := DefaultInput(a)
				in.Task, in.Engine, in.Seq = task, eng, 512
				if in.Validate() != nil {
					continue
				}
				name := fmt.Sprintf("%s/%v/%v", f, task, eng)
				prev := mustEstimate(t, in)
				checkResult(t, name, prev, eng)
				for _, b := range []int{2, 4, 8} {
					in.Batch = b
					r := mustEstimate(t, in)
					if r.PerGPU.Total() < prev.PerGPU.Total() || (r.Fits && !prev.Fits) {
						t.Errorf("%s: total not monotone in batch at %d", name, b)
					}
					prev = r
				}
				in.Batch = 1
				prev = mustEstimate(t, in)
				for _, s := range []int{1024, 2048, 8192} {
					in.Seq = s
					r := mustEstimate(t, in)
					if r.PerGPU.Total() < prev.PerGPU.Total() || (r.Fits && !prev.Fits) {
						t.Errorf("%s: total not monotone in seq at %d", name, s)
					}
					prev = r
				}
			}
		}
		// int4 ≤ bf16 ≤ fp32 for inference weights and totals.
		in := DefaultInput(a)
		var last Bytes
		for _, d := range []DType{INT4, INT8, BF16, FP32} {
			in.Weights = d
			r := mustEstimate(t, in)
			if r.PerGPU.Weights < last {
				t.Errorf("%s: %v weights %d smaller than a narrower dtype's %d", f, d, r.PerGPU.Weights, last)
			}
			last = r.PerGPU.Weights
		}
		// More ZeRO never increases per-GPU model states.
		in = DefaultInput(a)
		in.Task, in.GPUs = FullFinetune, 8
		var prevStates Bytes = math.MaxInt64
		for z := 0; z <= 3; z++ {
			in.ZeRO = z
			r := mustEstimate(t, in)
			st := r.PerGPU.Weights + r.PerGPU.Gradients + r.PerGPU.Optimizer
			if z > 0 && st > prevStates { // ZeRO-0 uses the HF autocast accounting, compare from 1 on
				t.Errorf("%s: ZeRO-%d states %d > ZeRO-%d's %d", f, z, st, z-1, prevStates)
			}
			prevStates = st
		}
	}
}

func checkResult(t *testing.T, name string, r Result, e Engine) {
	t.Helper()
	b := r.PerGPU
	parts := []Bytes{b.Weights, b.Gradients, b.Optimizer, b.Activations, b.Logits, b.KVCache,
		b.CUDAContext, b.AllocatorReserve, b.NCCL, b.CUDAGraphs, b.QuantState}
	var sum Bytes
	for i, p := range parts {
		if p < 0 {
			t.Errorf("%s: part %d negative: %d", name, i, p)
		}
		sum += p
	}
	if sum != b.Total() {
		t.Errorf("%s: total %d ≠ sum of parts %d", name, b.Total(), sum)
	}
	// Pooled engines (vLLM, SGLang, TensorRT-LLM) may also fail for want of
	// KV pool with memory to spare.
	if r.Fits && r.Headroom < 0 || !e.Pooled() && r.Fits != (r.Headroom >= 0) {
		t.Errorf("%s: Fits=%v but headroom %d", name, r.Fits, r.Headroom)
	}
	if math.IsNaN(r.WeightBitsPerParam) || math.IsInf(r.WeightBitsPerParam, 0) {
		t.Errorf("%s: bits per param %v", name, r.WeightBitsPerParam)
	}
	c := r.Confidence
	if c.Low > b.Total() || c.High < b.Total() {
		t.Errorf("%s: confidence [%d, %d] excludes total %d", name, c.Low, c.High, b.Total())
	}
}

func TestParallelism(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	one := mustEstimate(t, in)
	in.TP, in.GPUs = 2, 2
	two := mustEstimate(t, in)
	if d := float64(two.PerGPU.Weights) / float64(one.PerGPU.Weights); math.Abs(d-0.5) > 0.01 {
		t.Errorf("TP2 weights ratio %.3f, want 0.5", d)
	}
	if two.PerGPU.NCCL == 0 {
		t.Error("no NCCL buffers at TP2 in a training/vLLM setting")
	}
	// TP 16 > 8 KV heads: KV cache per GPU stops shrinking at one head.
	in.TP, in.GPUs, in.Batch = 16, 16, 4
	r16 := mustEstimate(t, in)
	in.TP, in.GPUs = 8, 8
	r8 := mustEstimate(t, in)
	if r16.PerGPU.KVCache != r8.PerGPU.KVCache || !r16.Warnings.Has(WarnKVHeadsReplicated) {
		t.Errorf("KV at TP16 %d vs TP8 %d; warnings %v", r16.PerGPU.KVCache, r8.PerGPU.KVCache, r16.Warnings.Strings())
	}
	// Pipeline: 32 layers over 3 stages → 11 on the worst stage, warning.
	in = DefaultInput(a)
	in.PP, in.GPUs = 3, 3
	r := mustEstimate(t, in)
	if !r.Warnings.Has(WarnUnevenPipeline) {
		t.Error("no uneven-pipeline warning")
	}
	if r.PerGPU.Weights >= one.PerGPU.Weights/2 {
		t.Errorf("PP3 worst stage weights %d not below half of %d", r.PerGPU.Weights, one.PerGPU.Weights)
	}
	// Offload moves the optimizer to the host.
	in = DefaultInput(a)
	in.Task, in.GPUs, in.ZeRO, in.Offload = FullFinetune, 4, 3, OffloadOptimizer
	r = mustEstimate(t, in)
	if r.PerGPU.Optimizer != 0 || r.HostOffload == 0 {
		t.Errorf("offload: optimizer %d host %d", r.PerGPU.Optimizer, r.HostOffload)
	}
}

func TestSolvers(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.VRAM = 24 * GiB
	b := MaxBatch(in)
	if b < 1 {
		t.Fatalf("MaxBatch = %d", b)
	}
	if !fitsAt(in, b, in.Seq) || fitsAt(in, b+1, in.Seq) {
		t.Errorf("MaxBatch %d is not the boundary", b)
	}
	s := MaxSeq(in)
	if !fitsAt(in, in.Batch, s) || fitsAt(in, in.Batch, s+1) {
		t.Errorf("MaxSeq %d is not the boundary", s)
	}
	// 70B-class training needs many GPUs; 8B bf16 inference fits one 80 GiB GPU.
	in = DefaultInput(a)
	if n, ok := MinGPUs(in, 8); !ok || n != 1 {
		t.Errorf("MinGPUs inference = %d, %v", n, ok)
	}
	in.Task, in.ZeRO = FullFinetune, 3
	n, ok := MinGPUs(in, 64)
	if !ok || n < 2 {
		t.Errorf("MinGPUs full fine-tune ZeRO-3 = %d, %v", n, ok)
	}
	in.GPUs = n
	if !mustEstimate(t, in).Fits {
		t.Errorf("MinGPUs answer %d does not fit", n)
	}
	in.GPUs = n - 1
	if n > 1 && mustEstimate(t, in).Fits {
		t.Errorf("%d GPUs already fit", n-1)
	}
	// Boundary: usable exactly at the total fits, one byte less does not.
	in = DefaultInput(a)
	r := mustEstimate(t, in)
	in.UsableVRAM = r.PerGPU.Total()
	if !mustEstimate(t, in).Fits {
		t.Error("does not fit at exactly its total")
	}
	in.UsableVRAM--
	if mustEstimate(t, in).Fits {
		t.Error("fits one byte below its total")
	}
}

func TestEstimateAllocs(t *testing.T) {
	in := DefaultInput(loadArch(t, "mixtral-8x7b-v0.1.mlc_preset.json"))
	in.Task, in.GPUs, in.ZeRO, in.TP = LoRA, 8, 3, 2
	if n := testing.AllocsPerRun(100, func() { _, _ = Estimate(in) }); n != 0 {
		t.Errorf("Estimate allocates %v times per call", n)
	}
}

func BenchmarkEstimate(b *testing.B) {
	in := DefaultInput(loadArch(b, "llama-3.1-8b.json"))
	in.Task, in.GPUs, in.ZeRO, in.PP = FullFinetune, 8, 3, 2
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Estimate(in)
	}
}

// A 16-bit LoRA with attention-only adapters saves less for backward than a
// full fine-tune (frozen MLP linears keep no inputs); all-linear adapters and
// torchtune's QLoRA (the input of every 4-bit matmul is saved) save the
// same; PEFT's QLoRA saves its fp32 hidden-width tensors (kbitPrepared).
// Without adapter dropout (DefaultLoRADropout adds its copies on top:
// TestLoRADropout).
func TestLoRAActivations(t *testing.T) {
	for _, f := range testConfigs {
		a := loadArch(t, f)
		if a.Generic() {
			continue
		}
		act := func(task Task, tg LoRATargets, pure bool) Bytes {
			in := DefaultInput(a)
			in.Task, in.LoRATargets, in.Batch, in.Seq, in.PureBF16 = task, tg, 2, 512, pure && task == QLoRA
			in.LoRADropout = 0
			return mustEstimate(t, in).PerGPU.Activations
		}
		full := act(FullFinetune, LoRAAttention, false)
		attn, all, q := act(LoRA, LoRAAttention, false), act(LoRA, LoRAAllLinear, false), act(QLoRA, LoRAAttention, true)
		// Beyond the full fine-tune's: each adapter's r-wide A·x, which
		// its B saves (loraSavedBytes), 2 bytes at rank 16 for every
		// token (2 × 512; ViT's patches are fixed) in every layer: 4
		// attention adapters, and 3 (gate, up, down) or 2 (fc1, fc2) on
		// the MLP.
		seq := 512
		if a.SeqLen > 0 {
			seq = a.SeqLen
		}
		inter := func(adapters int) Bytes { return Bytes(adapters * 16 * 2 * 2 * seq * a.Layers) }
		mlp := 2
		if a.GatedMLP {
			mlp = 3
		}
		if all != full+inter(4+mlp) || q != full+inter(4) {
			t.Errorf("%s: all-linear LoRA %d and pure bf16 QLoRA %d activations, want the full fine-tune's %d and the adapters' %d and %d", f, all, q, full, inter(4+mlp), inter(4))
		}
		if pq := act(QLoRA, LoRAAttention, false); !(pq > full) {
			t.Errorf("%s: PEFT QLoRA activations %d, want more than the full fine-tune's %d (fp32 hidden states)", f, pq, full)
		}
		// The dropped tensors (MLP input h, down-projection input I) are
		// 10-30% of a block's saved bytes in these families.
		if r := float64(attn) / float64(full); r < 0.6 || r > 0.92 {
			t.Errorf("%s: attention-only LoRA activations %.2f of full fine-tune, want 0.6-0.92", f, r)
		}
	}
}

// TestGolden pins a fixed matrix of breakdowns; regenerate with
// go test ./estimator -run Golden -update and review the diff.
func TestGolden(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("# model task engine weights kv batch seq gpus tp pp zero |")
	for p := Part(0); p < NumParts; p++ {
		sb.WriteString(" " + strings.ReplaceAll(p.String(), " ", "_"))
	}
	sb.WriteString(" | total usable fits pool_tokens (MiB unless noted)\n")
	mib := func(b Bytes) string { return fmt.Sprintf("%.0f", float64(b)/float64(MiB)) }
	cases := []func(Input) Input{
		func(in Input) Input { return in },
		func(in Input) Input { in.Weights, in.KV, in.Batch, in.Seq = INT4, FP8, 8, 4096; return in },
		func(in Input) Input { in.Engine, in.Seq, in.Batch = VLLM, 8192, 16; return in },
		func(in Input) Input { in.Engine, in.Weights, in.KV = LlamaCpp, INT4, INT8; return in },
		func(in Input) Input { in.Task, in.Batch, in.Seq = FullFinetune, 4, 1024; return in },
		func(in Input) Input {
			in.Task, in.GPUs, in.ZeRO, in.GradCheckpointing = Pretrain, 8, 3, true
			return in
		},
		func(in Input) Input { in.Task, in.LoRATargets = LoRA, LoRAAllLinear; return in },
		func(in Input) Input { in.Task, in.LoRATargets = LoRA, LoRAAttention; return in },
		func(in Input) Input { in.Task, in.GradCheckpointing = QLoRA, true; return in },
		func(in Input) Input { in.GPUs, in.TP, in.PP, in.Task, in.ZeRO = 8, 2, 2, Pretrain, 1; return in },
	}
	for _, f := range testConfigs {
		a := loadArch(t, f)
		for _, c := range cases {
			in := c(DefaultInput(a))
			if in.Validate() != nil {
				continue
			}
			r := mustEstimate(t, in)
			b := r.PerGPU
			fmt.Fprintf(&sb, "%s %v %v %v %v %d %d %d %d %d %d |",
				strings.TrimSuffix(f, ".json"), in.Task, in.Engine, in.Weights, in.KV, in.Batch, in.Seq, in.GPUs, in.TP, in.PP, in.ZeRO)
			for _, v := range b.Parts() {
				sb.WriteString(" " + mib(v))
			}
			fmt.Fprintf(&sb, " | %s %s %v %d\n", mib(b.Total()), mib(r.Usable), r.Fits, r.KVPoolTokens)
		}
	}
	path := filepath.Join("testdata", "breakdown.golden")
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got := sb.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("breakdown.golden line %d:\n got  %s\n want %s", i+1, g, w)
			}
		}
	}
}

// Arch, Input and Result must stay comparable (no slices, maps or funcs):
// go-app props compare them, and it keeps Estimate allocation-free.
var (
	_ = Arch{} == Arch{}
	_ = Input{} == Input{}
	_ = Result{} == Result{}
)

// TestParts: the parts are the breakdown's lines in order, each once, with
// one name each, and they sum to Total; Parts allocates nothing.
func TestParts(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.GPUs, in.TP, in.PP, in.ZeRO = Pretrain, 8, 2, 2, 1
	r := mustEstimate(t, in)
	b := r.PerGPU
	want := []Bytes{b.Weights, b.Gradients, b.Optimizer, b.Activations, b.Logits, b.KVCache,
		b.CUDAContext, b.AllocatorReserve, b.NCCL, b.CUDAGraphs, b.QuantState}
	if int(NumParts) != len(want) {
		t.Fatalf("NumParts %d, want %d", NumParts, len(want))
	}
	names := map[string]bool{}
	var sum, over Bytes
	i := 0
	for p, v := range b.Parts() {
		if p != Part(i) || v != want[i] {
			t.Errorf("part %d: got %v %d, want %v %d", i, p, v, Part(i), want[i])
		}
		if names[p.String()] || strings.HasPrefix(p.String(), "Part(") {
			t.Errorf("part %d: name %q repeated or missing", i, p)
		}
		names[p.String()] = true
		sum += v
		if p.Overhead() {
			over += v
			if r.Confidence.Of(p) != r.Confidence.Overhead {
				t.Errorf("%v: confidence %g, want the overhead's %g", p, r.Confidence.Of(p), r.Confidence.Overhead)
			}
		}
		i++
	}
	if sum != b.Total() || over != b.Overhead() || over == 0 {
		t.Errorf("parts sum %d (overhead %d), Total %d, Overhead %d", sum, over, b.Total(), b.Overhead())
	}
	if b.Part(NumParts) != 0 || b.Part(-1) != 0 || NumParts.String() != "Part(11)" {
		t.Errorf("unknown parts: %d %d %q", b.Part(NumParts), b.Part(-1), NumParts.String())
	}
	if r.Confidence.Of(PartWeights) != r.Confidence.Weights || r.Confidence.Of(PartKVCache) != r.Confidence.KVCache {
		t.Error("Confidence.Of does not match its fields")
	}
	if n := testing.AllocsPerRun(100, func() {
		for range b.Parts() {
		}
		_ = b.Total()
	}); n != 0 {
		t.Errorf("Parts allocates %v times", n)
	}
}

// TestChunkedLossAndOptimizerInBackward: torchtune's memory options. The
// chunked cross-entropy keeps the 16-bit logits (2 B per element) and one
// chunk's fp32 upcast and gradient (8/chunks B); optimizer-in-backward
// holds one parameter's gradient, Llama 3.1 8B's V·h embedding in bf16.
func TestChunkedLossAndOptimizerInBackward(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = FullFinetune, 2, 2048, true, true
	elems := 2.0 * 2048 * float64(a.Vocab)
	whole := mustEstimate(t, in)
	in.LossChunks = 8
	chunked := mustEstimate(t, in)
	if got, want := float64(whole.PerGPU.Logits), elems*10; math.Abs(got-want) > 1 {
		t.Errorf("whole logits %.0f, want %.0f", got, want)
	}
	if got, want := float64(chunked.PerGPU.Logits), elems*3; math.Abs(got-want) > 1 {
		t.Errorf("8-chunk logits %.0f, want %.0f", got, want)
	}
	in.OptimizerInBackward = true
	ob := mustEstimate(t, in)
	if got, want := float64(ob.PerGPU.Gradients), float64(a.Vocab)*float64(a.Hidden)*2; math.Abs(got-want) > 1 {
		t.Errorf("optimizer-in-backward gradients %.0f, want one V·h bf16 tensor %.0f", got, want)
	}
	if ob.PerGPU.Weights != chunked.PerGPU.Weights || ob.PerGPU.Optimizer != chunked.PerGPU.Optimizer {
		t.Error("optimizer-in-backward changed weights or optimizer states")
	}
	for _, bad := range []func(Input) Input{
		func(in Input) Input { in.GPUs, in.ZeRO = 2, 3; return in },
		func(in Input) Input { in.Task, in.OptimizerInBackward = LoRA, true; return in },
	} {
		if err := bad(in).Validate(); err == nil || !strings.Contains(err.Error(), "optimizer-in-backward") {
			t.Errorf("bad optimizer-in-backward accepted: %v", err)
		}
	}
	in.OptimizerInBackward, in.LossChunks = false, -1
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "loss-chunks") {
		t.Errorf("negative loss chunks accepted: %v", err)
	}
	in.Task, in.LossChunks, in.PureBF16 = Inference, 8, false
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "loss-chunks") {
		t.Errorf("chunked loss at inference accepted: %v", err)
	}
}

// The fit call uses the peak: a QLoRA job on a short sequence peaks while
// PEFT casts its embeddings to fp32 (the 16-bit matrix and its fp32 copy),
// above its training step; a GPU that holds the step but not that peak
// does not fit it.
func TestPeakDecidesFit(t *testing.T) {
	// The load peak decides where it exceeds the step: a QLoRA stage whose
	// step would hold only its weights (peak on a hand-made breakdown).
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.GradCheckpointing = QLoRA, 1, 64, true
	var s stageOut
	s.b.Weights, s.b.CUDAContext, s.kvFits = 5<<30, 500<<20, true
	var pr Result
	pr.Usable = 8 << 30
	peak(in, s, &pr)
	vh := float64(a.Vocab) * float64(a.Hidden)
	if want := s.b.Weights + s.b.CUDAContext + Bytes(math.Ceil(2*vh)); pr.PeakPhase != PhaseLoad || pr.Peak != want || pr.LoadPeak != want {
		t.Errorf("weights-only step: peak %v (%v), load %v, want the load peak %v", pr.Peak, pr.PeakPhase, pr.LoadPeak, want)
	}
	if pr.Headroom != pr.Usable-pr.Peak || !pr.Fits {
		t.Errorf("weights-only step: headroom %v, fits %v", pr.Headroom, pr.Fits)
	}
	pr.Usable = pr.Peak - 1 // above the step, below the load
	peak(in, s, &pr)
	if pr.Fits || pr.Headroom != -1 {
		t.Errorf("usable = load peak − 1 B: fits %v, headroom %v", pr.Fits, pr.Headroom)
	}
	// QLoRA under PEFT's k-bit preparation: loading casts the head to fp32
	// through a 16-bit copy (2·V·h above the weights), and every step holds
	// the head's 16-bit autocast copy (autocastHeadCopy) with the loss's
	// logits, so the step is the peak even for a short sequence.
	r := mustEstimate(t, in)
	if want := r.PerGPU.Weights + r.PerGPU.CUDAContext + Bytes(math.Ceil(2*vh)); r.LoadPeak < want-1 || r.LoadPeak > want+1 {
		t.Errorf("QLoRA load peak %v, want %v", r.LoadPeak, want)
	}
	if r.PeakPhase != PhaseStep || r.Peak != r.PerGPU.Total() || !(r.Peak > r.LoadPeak) {
		t.Errorf("QLoRA: peak %v (%v), load %v, step %v", r.Peak, r.PeakPhase, r.LoadPeak, r.PerGPU.Total())
	}
	if want := r.PerGPU.Weights + r.PerGPU.Gradients + r.PerGPU.Optimizer + r.PerGPU.CUDAContext; r.SteadyState != want {
		t.Errorf("steady state %v, want %v", r.SteadyState, want)
	}
	in.UsableVRAM = r.Peak
	if r := mustEstimate(t, in); !r.Fits || r.Headroom != 0 {
		t.Errorf("usable = peak: fits %v, headroom %v", r.Fits, r.Headroom)
	}
	in.UsableVRAM = r.Peak - 1
	if r := mustEstimate(t, in); r.Fits || r.Headroom != -1 {
		t.Errorf("usable = peak − 1 B: fits %v, headroom %v", r.Fits, r.Headroom)
	}
	in.UsableVRAM = 0
	pure := in
	pure.PureBF16 = true // torchtune: no k-bit preparation, no fp32 head, no copy
	rp := mustEstimate(t, pure)
	if got := float64(r.PerGPU.Logits - rp.PerGPU.Logits); math.Abs(got-2*vh) > 1 {
		t.Errorf("QLoRA logits exceed torchtune's by %v, want the head's 16-bit copy 2·V·h = %v", got, 2*vh)
	}
	// Torchtune's QLoRA (pure bf16) casts nothing: its load transient is
	// the largest 16-bit linear (the 14336 × 4096 MLP matrices), and a
	// 16-bit LoRA base loads as it is.
	if want := rp.PerGPU.Weights + rp.PerGPU.CUDAContext + 2*14336*4096; rp.LoadPeak < want-1 || rp.LoadPeak > want+1 {
		t.Errorf("pure bf16 QLoRA load peak %v, want %v", rp.LoadPeak, want)
	}
	in.Task = LoRA
	if r := mustEstimate(t, in); r.LoadPeak != 0 || r.Peak != r.PerGPU.Total() || r.PeakPhase != PhaseStep {
		t.Errorf("LoRA: load %v, peak %v (%v), step %v", r.LoadPeak, r.Peak, r.PeakPhase, r.PerGPU.Total())
	}
}

// FSDP gathers a QLoRA base as 4-bit storage: the gather buffer of two
// blocks is NF4 (4.5 bits by default: nf4AutoBits) for the linears and
// 16-bit for the norms,
// where a 16-bit LoRA base gathers two 16-bit blocks.
func TestFSDPGatherQuantised(t *testing.T) {
	a := loadArch(t, "llama-3.1-70b.json")
	in := DefaultInput(a)
	in.GPUs, in.ZeRO, in.GradCheckpointing, in.PureBF16 = 8, 3, true, true
	in.Task = LoRA
	lora := mustEstimate(t, in)
	in.Task = QLoRA
	q := mustEstimate(t, in)
	unit, lin := float64(a.MaxLayerParams), blockLinearParams(a)
	if g, want := gatherBytes(in, 2), 2*(lin*nf4AutoBits/8+(unit-lin)*2); math.Abs(g-want) > 1 {
		t.Errorf("QLoRA gather %.0f B, want %.0f", g, want)
	}
	// 70B: 80 blocks of 856M parameters, 99.98% of them in linears.
	if g := gatherBytes(in, 2) / float64(GiB); g < 0.87 || g > 0.92 {
		t.Errorf("70B QLoRA gather %.3f GiB, want 0.90", g)
	}
	in.Task = LoRA
	if g := gatherBytes(in, 2) / float64(GiB); g < 3.17 || g > 3.21 {
		t.Errorf("70B LoRA gather %.3f GiB, want 3.19", g)
	}
	// Beside the same root unit (the 16-bit embedding and head, whole on
	// every rank: fsdpRootBytes).
	root := toBytes(fsdpRootBytes(in, 2, 8))
	if !(q.PerGPU.Weights-root < (lora.PerGPU.Weights-root)/3) {
		t.Errorf("70B FSDP weights per GPU: QLoRA %v, LoRA %v", q.PerGPU.Weights, lora.PerGPU.Weights)
	}
	// Under FSDP the PEFT path keeps its embeddings in 16-bit (one dtype
	// per flat parameter): the same weights as torchtune's pure bf16.
	in.Task, in.PureBF16 = QLoRA, false
	if hf := mustEstimate(t, in); hf.PerGPU.Weights-q.PerGPU.Weights > Bytes(float64(a.TotalParams)*0.002) {
		t.Errorf("70B FSDP QLoRA weights: PEFT %v, pure bf16 %v", hf.PerGPU.Weights, q.PerGPU.Weights)
	}
}

// TestQuantStateByKernel: bitsandbytes' 16-bit dequantisation buffer (one
// copy of the block's largest linear) belongs to its kernels only. GPTQ
// int8 on AutoGPTQ's kernel or Marlin keeps no such copy; its weights carry
// their group-128 scales and zeros instead (gptqBits: 8 + 24/128 bits on
// the linears, AutoGPTQ's QuantLinear). Llama-2-13B: 40 blocks of 4 × 5120²
// + 3 × 5120 × 13824 linear weights (12,687,769,600), 16-bit embeddings,
// head and norms (328,094,720); its largest linear is 5120 × 13824.
func TestQuantStateByKernel(t *testing.T) {
	a := loadArch(t, "llama-2-13b-chat-hf.json")
	const lin, other, largest = 12_687_769_600, 328_094_720, 5120 * 13824
	if a.LinearParams != lin || a.TotalParams != lin+other {
		t.Fatalf("Llama-2-13B linears %d, total %d; want %d, %d", a.LinearParams, a.TotalParams, lin, lin+other)
	}
	in := DefaultInput(a)
	in.Weights = INT8
	for _, c := range []struct {
		engine  Engine
		kernel  Kernel
		weights Bytes // per GPU
		state   Bytes
	}{
		// HF's int8 default is LLM.int8(): 8-bit linears and the buffer.
		{HF, KernelAuto, lin + 2*other, 2 * largest},
		{HF, KernelBitsandbytes, lin + 2*other, 2 * largest},
		// GPTQ int8: lin × 8.1875 / 8 = 12,985,139,200 B, no buffer.
		{HF, KernelAutoGPTQ, 12_985_139_200 + 2*other, 0},
		{HF, KernelMarlin, 12_985_139_200 + 2*other, 0},
		// vLLM runs int8 on Marlin by default: the GPTQ format.
		{VLLM, KernelAuto, 12_985_139_200 + 2*other, 0},
	} {
		in.Engine, in.Kernel = c.engine, c.kernel
		b := mustEstimate(t, in).PerGPU
		if b.Weights != c.weights || b.QuantState != c.state {
			t.Errorf("int8 on %v, kernel %v: weights %d, quant state %d; want %d, %d", c.engine, c.kernel, b.Weights, b.QuantState, c.weights, c.state)
		}
	}
	if got, want := gptqBits(8, gptqGroupSize), 8.1875; got != want {
		t.Errorf("GPTQ int8 g128: %v bits, want %v", got, want)
	}
	// int4 on bitsandbytes is its 4-bit format: the same memory as NF4.
	in.Engine, in.Weights, in.Kernel = HF, INT4, KernelBitsandbytes
	bnb := mustEstimate(t, in).PerGPU
	in.Kernel, in.Quant = KernelAuto, QuantNF4
	if nf4 := mustEstimate(t, in).PerGPU; bnb != nf4 || bnb.QuantState != 2*largest {
		t.Errorf("int4 on bitsandbytes %+v, NF4 %+v", bnb, nf4)
	}
	// A kernel that does not run the format is refused by the memory
	// estimate too, naming the field.
	in.Quant, in.Weights, in.Kernel = QuantAuto, INT8, KernelExllama
	var ie *InputError
	if _, err := Estimate(in); !errors.As(err, &ie) || ie.Field != "kernel" || !errors.Is(err, ErrIncompatible) {
		t.Errorf("int8 on exllama: %v", err)
	}
}

// Only weights bitsandbytes runs are quantised on the GPU as they load:
// GPTQ int8 on AutoGPTQ arrives quantised (no load peak), int4 with the
// bitsandbytes kernel is NF4 and has one; a kernel that does not fit the
// format is refused by Validate, as by Estimate.
func TestLoadPeakByKernel(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Engine, in.Weights, in.Kernel = HF, INT8, KernelAutoGPTQ
	if r := mustEstimate(t, in); r.LoadPeak != 0 || r.PeakPhase != PhaseStep {
		t.Errorf("GPTQ int8 on AutoGPTQ: load peak %v (%v)", r.LoadPeak, r.PeakPhase)
	}
	in.Weights, in.Kernel = INT4, KernelBitsandbytes
	if r := mustEstimate(t, in); !(r.LoadPeak > r.PerGPU.Weights) {
		t.Errorf("int4 on bitsandbytes: load peak %v, weights %v", r.LoadPeak, r.PerGPU.Weights)
	}
	in.Weights, in.Kernel = BF16, KernelMarlin
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "kernel") {
		t.Errorf("Marlin for bf16 weights: Validate %v", err)
	}
}

// TestReservedLossCache: the allocator's cache over a run of varying
// lengths (memory_peak.go), by hand.
func TestReservedLossCache(t *testing.T) {
	// MeanTruncatedTokens: with sd = mean the gamma is exponential and
	// E[min(L, c)] = θ(1 − e^(−c/θ)): 1000 · (1 − 1/e) = 632.12 at c = θ.
	for _, c := range []struct {
		mean, sd, cap, want, tol float64
	}{
		{1000, 1000, 1000, 1000 * (1 - math.Exp(-1)), 1e-4},
		{1000, 1000, 3000, 1000 * (1 - math.Exp(-3)), 1e-4},
		{3234.4, 2547.5, 50000, 3234.4, 1e-3}, // no truncation left: the mean
		{500, 0, 2048, 500, 0},                // every sample alike
		{5000, 0, 2048, 2048, 0},
	} {
		if got := MeanTruncatedTokens(c.mean, c.sd, c.cap); math.Abs(got/c.want-1) > c.tol {
			t.Errorf("MeanTruncatedTokens(%g, %g, %g) = %.2f, want %.2f", c.mean, c.sd, c.cap, got, c.want)
		}
	}
	// ReservedLossCache: 9 fp32 copies of 1 × 1000 × 151936 logits =
	// 5,469,696,000 bytes; halved over TP 2; capped at Seq; none for
	// inference.
	cfg := []byte(`{"model_type":"qwen2","hidden_size":2048,"intermediate_size":5504,"num_hidden_layers":24,"num_attention_heads":16,"num_key_value_heads":16,"vocab_size":151936,"max_position_embeddings":8192}`)
	a, err := ParseConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.GradCheckpointing = LoRA, 1, 2048, true
	if got := ReservedLossCache(in, 1000); got != 5469696000 {
		t.Errorf("ReservedLossCache = %d, want 5469696000", got)
	}
	if got := ReservedLossCache(in, 4000); got != 5469696000*2048/1000 {
		t.Errorf("ReservedLossCache above Seq = %d, want %d", got, 5469696000*2048/1000)
	}
	tp := in
	tp.GPUs, tp.TP = 2, 2
	if got := ReservedLossCache(tp, 1000); got != 5469696000/2 {
		t.Errorf("ReservedLossCache at TP 2 = %d, want %d", got, 5469696000/2)
	}
	inf := in
	inf.Task = Inference
	if got := ReservedLossCache(inf, 1000); got != 0 {
		t.Errorf("ReservedLossCache for inference = %d, want 0", got)
	}
	// RunReserved: the peak with the whole allocator reserve, without the
	// context, plus the cache, up to the usable memory; the fit call is
	// the peak's, which leaves the reserve's cache out.
	r, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	ctx := r.PerGPU.CUDAContext
	if got, want := RunReserved(in, r, 1000), max(r.PerGPU.Total(), r.LoadPeak)+5469696000-ctx; got != want {
		t.Errorf("RunReserved = %d, want %d", got, want)
	}
	small := in
	small.VRAM = 12 * GiB
	rs, err := Estimate(small)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := RunReserved(small, rs, 1000), rs.Usable-rs.PerGPU.CUDAContext; got != want || !rs.Fits {
		t.Errorf("RunReserved on 12 GiB = %d (fits %v), want the usable memory %d and a fit", got, rs.Fits, want)
	}
}

// TestSortStable: SortStable orders as slices.SortStableFunc does, ties
// in their first order.
func TestSortStable(t *testing.T) {
	type kv struct{ k, v int }
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 60 {
		s := make([]kv, n)
		for i := range s {
			s[i] = kv{rng.IntN(7), i}
		}
		want := slices.Clone(s)
		slices.SortStableFunc(want, func(a, b kv) int { return a.k - b.k })
		SortStable(s, func(a, b *kv) int { return a.k - b.k })
		if !slices.Equal(s, want) {
			t.Fatalf("n=%d: %v, want %v", n, s, want)
		}
	}
}

// WithCheckpointing redoes a training job that does not fit with full
// activation checkpointing: Llama 3.1 70B QLoRA at batch 4 × 4,096 tokens
// on one 80 GB GPU holds 485 GiB of activations as set and about a tenth
// with checkpointing (the layer inputs only, Korthikanti et al. 2022 §4),
// still too much for one GPU; at batch 1 × 1,024 checkpointing makes it
// fit. A job that fits, an inference job and one already checkpointing
// get none.
func TestWithCheckpointing(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-70b.json"))
	in.Task, in.Batch, in.Seq, in.VRAM = QLoRA, 4, 4096, 80*GB
	as, err := Estimate(in)
	if err != nil || as.Fits {
		t.Fatalf("70B QLoRA at 4 × 4096 on 80 GB: fits %v, %v", as.Fits, err)
	}
	g, ok := WithCheckpointing(in, as)
	if !ok || g.Fits || !(g.PerGPU.Activations < as.PerGPU.Activations/8) || g.PerGPU.Weights != as.PerGPU.Weights {
		t.Errorf("with checkpointing: ok %v, fits %v, activations %.1f GiB (as set %.1f), weights %d against %d",
			ok, g.Fits, float64(g.PerGPU.Activations)/float64(GiB), float64(as.PerGPU.Activations)/float64(GiB), g.PerGPU.Weights, as.PerGPU.Weights)
	}
	in.GradCheckpointing = true
	want, _ := Estimate(in)
	if g.Peak != want.Peak || g.PerGPU != want.PerGPU {
		t.Errorf("WithCheckpointing peak %d, Estimate with the flag %d", g.Peak, want.Peak)
	}
	if _, ok := WithCheckpointing(in, want); ok {
		t.Error("a job already checkpointing got an alternative")
	}
	in.GradCheckpointing, in.Batch, in.Seq = false, 1, 1024
	if as, _ = Estimate(in); as.Fits {
		t.Fatal("70B QLoRA at 1 × 1024 fits without checkpointing")
	}
	if g, ok := WithCheckpointing(in, as); !ok || !g.Fits || !(g.Headroom > 0) {
		t.Errorf("70B QLoRA at 1 × 1024 with checkpointing: ok %v, fits %v, headroom %d", ok, g.Fits, g.Headroom)
	}
	in.Seq = 128
	if as, _ = Estimate(in); !as.Fits {
		t.Fatal("70B QLoRA at 1 × 128 does not fit")
	}
	if _, ok := WithCheckpointing(in, as); ok {
		t.Error("a job that fits got an alternative")
	}
	in.Task, in.Seq = Inference, 4096
	in.Batch = 256
	if as, _ = Estimate(in); as.Fits {
		t.Fatal("an inference job at batch 256 × 4096 on 80 GB fits: the case no longer tests the task check")
	}
	if _, ok := WithCheckpointing(in, as); ok {
		t.Error("an inference job got an alternative")
	}
}

// TestFSDPNoSync: accumulating under FSDP's no_sync() keeps the whole
// model's 16-bit gradients on every rank (pure bf16: 2 B per parameter)
// while optimizer states and weights stay sharded (the root unit whole
// either way: fsdpRootBytes); it needs --zero 3.
func TestFSDPNoSync(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = FullFinetune, 4, 512, true, true
	in.GPUs, in.ZeRO = 4, 3
	sharded := mustEstimate(t, in)
	in.FSDPNoSync = true
	ns := mustEstimate(t, in)
	if got, want := float64(ns.PerGPU.Gradients), 2*float64(a.TotalParams); math.Abs(got-want) > 1 {
		t.Errorf("no_sync gradients %.0f, want the whole model's in bf16 %.0f", got, want)
	}
	// The root unit is whole with or without no_sync (TestFSDPRootUnit).
	if ns.PerGPU.Weights != sharded.PerGPU.Weights || ns.PerGPU.Optimizer != sharded.PerGPU.Optimizer {
		t.Error("no_sync changed the sharded weights or optimizer states")
	}
	in.ZeRO = 2
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "fsdp-no-sync") {
		t.Errorf("no_sync without --zero 3 accepted: %v", err)
	}
}

// TestLoRADropout: adapter dropout saves, per token and layer, each
// adapted linear's dropped input (16-bit) and a 1-byte mask: for
// attention targets q, k, v (one copy when fused) and o's input; nothing
// at rate 0. On a 16-bit base the attention input itself (h, 16-bit) is
// then kept by nothing (frozenInputs), so it leaves the count.
func TestLoRADropout(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.AdapterDType = LoRA, 1, 512, true, AdapterBF16
	in.LoRADropout = 0
	base := mustEstimate(t, in)
	in.LoRADropout = 0.05
	sep := mustEstimate(t, in)
	in.LoRAFusedQKV = true
	fused := mustEstimate(t, in)
	per := func(inputs float64) float64 { return inputs * 3 * 512 * float64(a.Layers) }
	h, q := float64(a.Hidden), float64(a.qDim())
	attnIn := h * 2 * 512 * float64(a.Layers)
	if got, want := float64(sep.PerGPU.Activations-base.PerGPU.Activations), per(3*h+q)-attnIn; math.Abs(got-want) > float64(a.Layers) {
		t.Errorf("separate q/k/v dropout adds %.0f, want %.0f", got, want)
	}
	if got, want := float64(fused.PerGPU.Activations-base.PerGPU.Activations), per(h+q)-attnIn; math.Abs(got-want) > float64(a.Layers) {
		t.Errorf("fused qkv dropout adds %.0f, want %.0f", got, want)
	}
	in.LoRADropout = 1
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "lora-dropout") {
		t.Errorf("lora-dropout 1 accepted: %v", err)
	}
	// Outside LoRA/QLoRA the rate is ignored (DefaultInput carries it for
	// every task): a full fine-tune is the same with and without it.
	in.Task, in.LoRADropout, in.LoRAFusedQKV, in.AdapterDType = FullFinetune, 0, false, AdapterAuto
	full := mustEstimate(t, in)
	in.LoRADropout = DefaultLoRADropout
	if got := mustEstimate(t, in); got.Peak != full.Peak {
		t.Errorf("adapter dropout moved a full fine-tune: %d, want %d", got.Peak, full.Peak)
	}
}

// TestLoRAQueryValue: adapters on q and v only (LitGPT's lora.py and
// PEFT's Llama defaults), Llama 3 8B (h 4096, 32 layers, 32 query heads
// and 8 KV heads of 128), rank 16, bf16, 1 × 2048 tokens, dropout 0.05 on
// each adapter's own input. By hand:
//
//   - parameters: q_proj 4096 → 4096 and v_proj 4096 → 1024 are
//     (4096 + 4096) + (4096 + 1024) = 13,312 in+out a layer, × 32 × 16 =
//     6,815,744 (PEFT's print_trainable_parameters for this LoraConfig);
//     attention adds k (5,120) and o (8,192): 26,624 × 32 × 16 =
//     13,631,488;
//   - saved for backward, a token a layer: q and v each keep a dropped
//     copy of the attention input (2 × 4096 × 2 B) and its 1-byte mask
//     (2 × 4096 B), 24,576 B, and the two r-wide A·x (2 × 16 × 2 B), 64 B;
//     attention keeps k's copy and o's (4096 + 4096 inputs × 3 B) and two
//     A·x more (64 B): 24,640 B more, × 2048 tokens × 32 layers =
//     1,614,807,040 B.
func TestLoRAQueryValue(t *testing.T) {
	a := loadArch(t, "meta-llama-3-8b-instruct.json")
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.LoRARank, in.LoRADropout = LoRA, 1, 2048, 16, 0.05
	in.LoRATargets = LoRAQueryValue
	qv := mustEstimate(t, in)
	in.LoRATargets = LoRAAttention
	attn := mustEstimate(t, in)
	if qv.TrainableParams != 6_815_744 || attn.TrainableParams != 13_631_488 {
		t.Errorf("trainable parameters: q,v %d, attention %d; want 6,815,744 and 13,631,488", qv.TrainableParams, attn.TrainableParams)
	}
	if got := attn.PerGPU.Activations - qv.PerGPU.Activations; got != 1_614_807_040 {
		t.Errorf("attention saves %d B more than q,v; want 1,614,807,040", got)
	}
	// Without dropout only the two A·x differ: 64 B × 2048 × 32.
	in.LoRADropout = 0
	attn0 := mustEstimate(t, in)
	in.LoRATargets = LoRAQueryValue
	if got := attn0.PerGPU.Activations - mustEstimate(t, in).PerGPU.Activations; got != 4_194_304 {
		t.Errorf("without dropout attention saves %d B more than q,v; want 4,194,304", got)
	}
	// The speed model reads the same count.
	if got := loraParams(in); got != 6_815_744 {
		t.Errorf("loraParams %d, want 6,815,744", got)
	}
	// MLA has no value projection of its own.
	ds := DefaultInput(loadArch(t, "deepseek-v3.json"))
	ds.Task, ds.LoRATargets = LoRA, LoRAQueryValue
	if err := ds.Validate(); err == nil || !strings.Contains(err.Error(), "lora-targets") {
		t.Errorf("query-value on MLA accepted: %v", err)
	}
}

// TestLitGPTAttention: LitGPT's CausalSelfAttention (litgpt/model.py at
// 00af8b0d) hands SDPA K and V copied out to every query head where the
// model has fewer KV heads, and, with as many, V as a view of the whole
// fused qkv output (litgptAttentionElems). Llama 3 8B LoRA (32 query heads,
// 8 KV heads, 128 wide) at 1 × 2048 keeps 2 × (4096 − 1024) × 2 B a token
// a layer more, × 2048 × 32 = 805,306,368 B; Llama 2 7B (32 and 32) the q
// and k thirds of qkv, (4096 + 4096) × 2 B, 1,073,741,824 B. Under full
// recomputation the saved block inputs do not change: the block being
// recomputed holds one layer's worth, 12,288 × 2048 B. Inference refuses
// the field, and MLA, which LitGPT does not have, is not moved.
func TestLitGPTAttention(t *testing.T) {
	for _, c := range []struct {
		file string
		want Bytes
	}{
		{"meta-llama-3-8b-instruct.json", 805_306_368},
		{"llama-2-7b-hf.json", 1_073_741_824},
	} {
		in := DefaultInput(loadArch(t, c.file))
		in.Task, in.Batch, in.Seq, in.LoRARank, in.LoRATargets = LoRA, 1, 2048, 8, LoRAQueryValue
		base := mustEstimate(t, in)
		in.LitGPTAttention = true
		lit := mustEstimate(t, in)
		if got := lit.PerGPU.Activations - base.PerGPU.Activations; got != c.want {
			t.Errorf("%s: LitGPT's attention saves %d B more, want %d", c.file, got, c.want)
		}
	}
	in := DefaultInput(loadArch(t, "meta-llama-3-8b-instruct.json"))
	in.Task, in.Batch, in.Seq, in.GradCheckpointing = LoRA, 1, 2048, true
	base := mustEstimate(t, in)
	in.LitGPTAttention = true
	if got := mustEstimate(t, in).PerGPU.Activations - base.PerGPU.Activations; got != 12_288*2048 {
		t.Errorf("checkpointed: %d B more, want one block's %d", got, 12_288*2048)
	}
	in.Task = Inference
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "litgpt-attention") {
		t.Errorf("LitGPT's attention on inference accepted: %v", err)
	}
	ds := DefaultInput(loadArch(t, "deepseek-v3.json"))
	ds.Task, ds.GPUs, ds.ZeRO = LoRA, 64, 3
	off := mustEstimate(t, ds)
	ds.LitGPTAttention = true
	if on := mustEstimate(t, ds); on.PerGPU.Activations != off.PerGPU.Activations {
		t.Errorf("MLA moved: %d B, want %d", on.PerGPU.Activations, off.PerGPU.Activations)
	}
}

// TestDefaultLoRADropout: a LoRA plan that names no dropout counts the
// adapters' dropped input copies at the recipes' 0.05 (DefaultLoRADropout,
// as LitGPT, ms-swift and TRL set it): Gemma 7B LoRA on q, k, v, o at
// 1 × 512 keeps 28 layers × 512 tokens × (3·3072 + 4096) inputs × 3 B =
// 572.5 MB more than at rate 0, less the attention input that the frozen
// q/k/v no longer share with the adapters (frozenInputs: 28 × 512 × 3072
// × 2 B = 88.1 MB), 484.4 MB; the default inference input, which carries
// the rate too, stays valid.
func TestDefaultLoRADropout(t *testing.T) {
	if d := DefaultInput(Arch{}).LoRADropout; d != 0.05 {
		t.Fatalf("DefaultInput's LoRA dropout %v, want 0.05", d)
	}
	a := loadArch(t, "llama-3.1-8b.json")
	if err := DefaultInput(a).Validate(); err != nil {
		t.Fatalf("default inference input refused: %v", err)
	}
	g := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-7b.json"))
	if g.Layers != 28 || g.Hidden != 3072 || g.qDim() != 4096 {
		t.Fatalf("gemma-7b shapes %d layers, h %d, q %d", g.Layers, g.Hidden, g.qDim())
	}
	in := DefaultInput(g)
	in.Task, in.Batch, in.Seq = LoRA, 1, 512
	def := mustEstimate(t, in)
	in.LoRADropout = 0
	zero := mustEstimate(t, in)
	if got, want := float64(def.PerGPU.Activations-zero.PerGPU.Activations), 28*512*((3*3072+4096)*3.0-3072*2); math.Abs(got-want) > 28 {
		t.Errorf("default dropout adds %.0f B, want %.0f", got, want)
	}
}

// TestFrozenInputs: with adapters on every linear of a 16-bit base and
// dropout on their input, the frozen linears save none of their inputs
// (frozenInputs): TinyLlama (h 2048, I 5632, 22 layers) at 8 × 512 keeps
// the attention input, the MLP input and the product, (2·2048 + 5632)
// × 2 B per token and layer, less than QLoRA's 4-bit linears, which save
// theirs whatever the adapters do (bitsandbytes MatMul4Bit), and than
// the same LoRA at rate 0, whose adapters' A matrices save the inputs
// themselves.
func TestFrozenInputs(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "tinyllama-1.1b.json"))
	if a.Hidden != 2048 || a.Intermediate != 5632 || a.Layers != 22 || !a.GatedMLP {
		t.Fatalf("tinyllama shapes h %d, I %d, %d layers", a.Hidden, a.Intermediate, a.Layers)
	}
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.AdapterDType = LoRA, 8, 512, true, AdapterBF16 // LitGPT's bf16 adapters
	in.LoRATargets, in.LoRAFusedQKV = LoRAAllLinear, true
	in.LoRADropout = 0.05
	lora := mustEstimate(t, in)
	in.Task = QLoRA
	qlora := mustEstimate(t, in)
	in.Task, in.LoRADropout = LoRA, 0
	zero := mustEstimate(t, in)
	kept := (2*2048 + 5632) * 2.0 * 8 * 512 * 22 // 1,754,267,648 B
	if got := float64(qlora.PerGPU.Activations - lora.PerGPU.Activations); math.Abs(got-kept) > 22 {
		t.Errorf("QLoRA keeps %.0f B more than LoRA, want %.0f", got, kept)
	}
	// Rate 0: no dropped copies (per token and layer: h for fused qkv, q
	// for o, 2h for gate and up, I for down, each 2 B + a 1-byte mask),
	// but the inputs are back.
	copies := (2048 + 2048 + 2*2048 + 5632) * 3.0 * 8 * 512 * 22
	if got := float64(lora.PerGPU.Activations - zero.PerGPU.Activations); math.Abs(got-(copies-kept)) > 22 {
		t.Errorf("dropout at 0.05 adds %.0f B, want %.0f", got, copies-kept)
	}
}

// TestHeldLogits: a LitGPT step (KeepsLastGraph) holds 10 bytes per bf16
// logit at its peak whatever the loss chunking (heldLogitBytes: the
// previous step's fp32 list, this step's bf16 chunks and their fp32
// copies, Lightning Fabric's convert_output), 8 in fp32; without it a
// chunked loss keeps 2 + 8/chunks.
func TestHeldLogits(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "tinyllama-1.1b.json"))
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.PureBF16, in.LossChunks = LoRA, 8, 512, true, 4
	logits := 8 * 512 * float64(a.Vocab) // 131,072,000 for V 32000
	if got, want := float64(mustEstimate(t, in).PerGPU.Logits), logits*(2+8.0/4); math.Abs(got-want) > 1 {
		t.Errorf("chunked logits %.0f B, want %.0f", got, want)
	}
	in.KeepsLastGraph = true
	if got, want := float64(mustEstimate(t, in).PerGPU.Logits), logits*10; math.Abs(got-want) > 1 {
		t.Errorf("LitGPT's held logits %.0f B, want %.0f", got, want)
	}
	if heldLogitBytes(2) != 10 || heldLogitBytes(4) != 8 {
		t.Errorf("heldLogitBytes(2, 4) = %v, %v, want 10, 8", heldLogitBytes(2), heldLogitBytes(4))
	}
}

// TestQuantizeHead: a 4-bit LM head (Lightning's BitsandbytesPrecision)
// is stored in the base's format instead of 16-bit, and its
// dequantisation buffer is the whole V·h head in 16-bit.
func TestQuantizeHead(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Weights, in.Batch, in.Seq, in.PureBF16 = QLoRA, INT4, 1, 512, true
	base := mustEstimate(t, in)
	in.QuantizeHead = true
	q := mustEstimate(t, in)
	head := float64(a.Vocab) * float64(a.Hidden)
	if got, want := float64(q.PerGPU.QuantState), 2*head; math.Abs(got-want) > 1 {
		t.Errorf("dequantisation buffer %.0f, want the bf16 head %.0f", got, want)
	}
	if !(q.PerGPU.Weights < base.PerGPU.Weights) {
		t.Errorf("4-bit head weights %d, want below the 16-bit head's %d", q.PerGPU.Weights, base.PerGPU.Weights)
	}
	in.Task, in.Weights = LoRA, BF16
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "quantize-head") {
		t.Errorf("quantize-head on a 16-bit LoRA accepted: %v", err)
	}
}

// TestSGLangDPSharding: under SGLang's attention DP, DeepSeek-V3's LM head
// (129,280 × 7,168 and the final norm) is split over the whole TP group and
// the embedding is whole on every GPU (sglangDPSharding); its 3 dense MLPs
// (3 × 3 × 7,168 × 18,432) and its 58 layers' shared expert (58 × 3 ×
// 7,168 × 2,048) are split over the whole TP group too, except the shared
// experts under DeepEP (EP > 1), whole on every GPU (servingMLPShards);
// TensorRT-LLM's attention DP runs both whole; vLLM's DP and SGLang
// without DP keep attention's share.
func TestSGLangDPSharding(t *testing.T) {
	in := DefaultInput(loadArch(t, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.TP, in.DP, in.EP, in.VRAM = Inference, SGLang, FP8, 4, 4, 1, 186*GiB
	in.GPUs = 4
	whole := pipeStage{first: true, last: true}
	d := sglangDPSharding(in, whole)
	want := dpSharding{embed: 129280 * 7168, head: 129280*7168 + 7168}
	if d != want {
		t.Errorf("TP 4 DP 4 EP 1: %+v, want %+v", d, want)
	}
	const dense, shared = 3 * 3 * 7168 * 18432, 58 * 3 * 7168 * 2048
	if gd, gs := moeMLPParams(in.Arch); gd != dense || gs != shared {
		t.Errorf("dense MLPs %v and shared experts %v, want %v and %v", gd, gs, float64(dense), float64(shared))
	}
	for _, c := range []struct {
		name string
		edit func(*Input)
		want mlpShards
	}{
		{"SGLang TP 4 DP 4", func(*Input) {}, mlpShards{4, 4}},
		{"SGLang TP 4 DP 4 EP 4 (DeepEP)", func(i *Input) { i.EP = 4 }, mlpShards{4, 1}},
		{"SGLang TP 16 DP 8 EP 16 (DeepEP)", func(i *Input) { i.TP, i.DP, i.EP = 16, 8, 16 }, mlpShards{16, 1}},
		{"TensorRT-LLM TP 4 DP 4", func(i *Input) { i.Engine = TRTLLM }, mlpShards{1, 1}},
		{"vLLM TP 4 DP 2", func(i *Input) { i.Engine, i.DP = VLLM, 2 }, mlpShards{2, 2}},
		{"SGLang TP 4 without DP", func(i *Input) { i.DP = 1 }, mlpShards{4, 4}},
	} {
		o := in
		c.edit(&o)
		if got := servingMLPShards(o); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	for _, o := range []Input{func() Input { i := in; i.Engine = VLLM; return i }(), func() Input { i := in; i.DP = 1; return i }()} {
		if got := sglangDPSharding(o, whole); got != (dpSharding{}) {
			t.Errorf("%v DP %d: %+v, want none", o.Engine, o.DP, got)
		}
	}
	// The per-GPU weights drop by the head and the MLPs' 3/4 at their
	// storage widths against vLLM's layout of the same replica.
	v := in
	v.Engine = VLLM
	rs, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := Estimate(v)
	if err != nil {
		t.Fatal(err)
	}
	linBits, otherBits, _ := weightBits(in)
	drop := (float64(want.head)*otherBits/8 + (dense+shared)*linBits/8) * 3 / 4
	if got := float64(rv.PerGPU.Weights - rs.PerGPU.Weights); math.Abs(got-drop) > 1e-6*drop {
		t.Errorf("weights vLLM − SGLang = %.0f B, want %.0f", got, drop)
	}
	// SGLang TP 16, attention DP 8 (attention TP 2), DeepEP: each GPU holds
	// the shared experts whole, where attention's share held half, and the
	// dense MLPs at 1/16 rather than 1/2.
	ep := in
	ep.TP, ep.DP, ep.EP, ep.GPUs = 16, 8, 16, 16
	if got, want := placedMLPParams(ep, 2), shared/2+dense*(1.0/16-1.0/2); math.Abs(got-want) > 1 {
		t.Errorf("TP 16 DP 8 EP 16: %.0f parameters beyond attention's share, want %.0f", got, want)
	}
}

// TestFSDPNoSyncDefault: a fine-tune under --zero 3 that accumulates
// (LitGPT's Llama 3 8B full config: 4 GPUs, micro-batch 4, global batch
// 64, four micro-batches per step) holds the whole model's gradients by
// default, as Accelerate and Lightning do; one micro-batch per step,
// pre-training, or no FSDP does not.
func TestFSDPNoSyncDefault(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Batch, in.Seq, in.GPUs, in.ZeRO = FullFinetune, 4, 512, 4, 3
	for _, c := range []struct {
		name string
		edit func(Input) Input
		w    Workload
		want bool
	}{
		{"four micro-batches", nil, Workload{GlobalBatch: 64}, true},
		{"micro-batches named", nil, Workload{MicroBatches: 2}, true},
		{"LoRA", func(in Input) Input { in.Task = LoRA; return in }, Workload{GlobalBatch: 64}, true},
		{"one micro-batch", nil, Workload{GlobalBatch: 16}, false},
		{"no batch named", nil, Workload{}, false},
		{"pre-training", func(in Input) Input { in.Task = Pretrain; return in }, Workload{GlobalBatch: 64}, false},
		{"ZeRO 2", func(in Input) Input { in.ZeRO = 2; return in }, Workload{GlobalBatch: 64}, false},
	} {
		x := in
		if c.edit != nil {
			x = c.edit(x)
		}
		if got := FSDPNoSyncDefault(x, c.w); got != c.want {
			t.Errorf("%s: FSDPNoSyncDefault %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSeparateHead: a tied checkpoint run with its own LM head (LitGPT)
// holds V·h more parameters, on the last stage; an untied one is
// unchanged. Gemma 2B: 256,000 × 2,048 = 524,288,000 more, 1.05 GB of bf16
// weights in a LoRA plan.
func TestSeparateHead(t *testing.T) {
	g := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-2b.json"))
	if !g.TiedEmbeddings {
		t.Fatal("gemma-2b config not tied")
	}
	s := g.WithSeparateHead()
	const head = 256000 * 2048
	if s.TiedEmbeddings || s.TotalParams-g.TotalParams != head || s.HeadParams-g.HeadParams != head || s.ActiveParamCount-g.ActiveParamCount != head {
		t.Errorf("separate head: tied %v, +%d params, +%d head params, +%d active; want untied and +%d each", s.TiedEmbeddings,
			s.TotalParams-g.TotalParams, s.HeadParams-g.HeadParams, s.ActiveParamCount-g.ActiveParamCount, head)
	}
	in := DefaultInput(g)
	in.Task, in.Batch, in.Seq, in.PureBF16 = LoRA, 2, 512, true
	tied := mustEstimate(t, in)
	in.Arch = s
	sep := mustEstimate(t, in)
	if got := float64(sep.PerGPU.Weights - tied.PerGPU.Weights); math.Abs(got-2*head) > 1 {
		t.Errorf("separate head adds %.0f B of weights, want %d", got, 2*head)
	}
	l := loadArch(t, "llama-3.1-8b.json")
	if l.TiedEmbeddings || l.WithSeparateHead() != l {
		t.Error("an untied model changed")
	}
}

// TestGemma2Softcap: Gemma 2's soft-capped attention runs eagerly whatever
// --flash-attention says, and its soft-capped logits keep tanh's output.
// Gemma 2 2B (26 layers, 8 heads, vocabulary 256,000), LoRA in bf16 at
// 2 × 512: each layer saves 2 × 8 × 512² scores at 2 (tanh) + 4 (fp32
// softmax) + 2 (bf16 probabilities) bytes, 26 × 33,554,432 = 872,415,232 B
// in all; the loss holds 2 × 512 × 256,000 logits at 2 (bf16) + 8 (fp32
// upcast and gradient) + 2 (tanh's output) = 3,145,728,000 B, and 4 bytes
// each (1,048,576,000 B) with LitGPT's loss in 4 chunks, whose chunked head
// skips the cap. Gemma 1 (gemma-2b) and Gemma 3 are not capped: Gemma 2B's
// logits at 2 × 512 stay 2 × 512 × 256,000 × 10 = 2,621,440,000 B.
func TestGemma2Softcap(t *testing.T) {
	g := loadArch(t, "gemma-2-2b.mlc_preset.json")
	if !g.AttnSoftcap || !g.FinalLogitSoftcap {
		t.Fatalf("gemma-2-2b: AttnSoftcap %v, FinalLogitSoftcap %v; want both", g.AttnSoftcap, g.FinalLogitSoftcap)
	}
	for _, f := range []string{"gemma-3-1b.json", "llama-3.1-8b.json"} {
		if a := loadArch(t, f); a.AttnSoftcap || a.FinalLogitSoftcap {
			t.Errorf("%s: soft-capped", f)
		}
	}
	off, err := ParseConfig([]byte(`{"model_type": "gemma2", "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
		"num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "vocab_size": 256000,
		"attn_logit_softcapping": null, "final_logit_softcapping": null}`))
	if err != nil || off.AttnSoftcap || off.FinalLogitSoftcap {
		t.Errorf("null caps: AttnSoftcap %v, FinalLogitSoftcap %v, err %v; want neither", off.AttnSoftcap, off.FinalLogitSoftcap, err)
	}

	in := DefaultInput(g)
	in.Task, in.Batch, in.Seq, in.Weights = LoRA, 2, 512, BF16
	if !in.FlashAttention {
		t.Fatal("default input without FlashAttention/SDPA")
	}
	capped := mustEstimate(t, in)
	plain := in
	plain.Arch.AttnSoftcap, plain.Arch.FinalLogitSoftcap = false, false
	base := mustEstimate(t, plain)
	if got := capped.PerGPU.Activations - base.PerGPU.Activations; got != 872415232-851968 {
		t.Errorf("soft-capped scores add %d B of activations, want 871,563,264", got)
	}
	if got := capped.PerGPU.Logits; got != 3145728000 {
		t.Errorf("soft-capped logits %d B, want 3,145,728,000", got)
	}
	in.LossChunks = 4
	if got := mustEstimate(t, in).PerGPU.Logits; got != 1048576000 {
		t.Errorf("chunked soft-capped logits %d B, want 1,048,576,000", got)
	}

	g1 := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-2b.json"))
	if g1.AttnSoftcap || g1.FinalLogitSoftcap {
		t.Error("gemma-2b (Gemma 1) soft-capped")
	}
	in1 := DefaultInput(g1)
	in1.Task, in1.Batch, in1.Seq, in1.Weights = LoRA, 2, 512, BF16
	if got := mustEstimate(t, in1).PerGPU.Logits; got != 2621440000 {
		t.Errorf("gemma-2b logits %d B, want 2,621,440,000", got)
	}
}

// TestKeepsLastGraph: with the previous step's graph held (LitGPT's fit
// loop), bitsandbytes' MatMul4Bit inputs of that step are there again at
// this step's peak. Llama 2 7B (32 layers, h 4,096, I 11,008) QLoRA in
// pure bf16 at 2 × 512 with a 4-bit head: per token and layer the
// attention input, the attention output and the MLP input (4,096 each)
// and the down projection's input (11,008), 2 bytes each:
// 1,024 × 32 × 2 × 23,296 = 1,526,726,656 B, plus the head's input,
// 1,024 × 4,096 × 2 = 8,388,608 B: 1,535,115,264 B. Nothing for a 16-bit
// LoRA (its saved tensors go with the backward), under checkpointing, or
// without the flag; refused for inference.
func TestKeepsLastGraph(t *testing.T) {
	a := loadArch(t, "llama-2-7b-hf.json")
	in := DefaultInput(a)
	in.Task, in.Weights, in.Batch, in.Seq, in.PureBF16, in.QuantizeHead = QLoRA, INT4, 2, 512, true, true
	base := mustEstimate(t, in)
	in.KeepsLastGraph = true
	kept := mustEstimate(t, in)
	if got := kept.PerGPU.Activations - base.PerGPU.Activations; got != 1535115264 {
		t.Errorf("previous step's 4-bit inputs %d B, want 1,535,115,264", got)
	}
	for _, c := range []struct {
		name string
		edit func(*Input)
	}{
		{"LoRA", func(x *Input) { x.Task, x.Weights, x.QuantizeHead = LoRA, BF16, false }},
		{"checkpointing", func(x *Input) { x.GradCheckpointing = true }},
	} {
		on, off := in, in
		c.edit(&on)
		c.edit(&off)
		off.KeepsLastGraph = false
		if d := mustEstimate(t, on).PerGPU.Activations - mustEstimate(t, off).PerGPU.Activations; d != 0 {
			t.Errorf("%s: the previous graph adds %d B, want 0", c.name, d)
		}
	}
	inf := DefaultInput(a)
	inf.KeepsLastGraph = true
	if err := inf.Validate(); err == nil || !strings.Contains(err.Error(), "keeps-last-graph") {
		t.Errorf("keeps-last-graph on inference accepted: %v", err)
	}
}

// TestAllocatorCacheUnderPressure: a training step needs its allocated
// bytes and 4% of them that the caching allocator cannot free (at most
// the reserve); the rest of the reserve is cache, in PerGPU but not in
// Peak, so a GPU between the two fits the job. Inference and an explicit
// --allocator-reserve count the reserve whole.
func TestAllocatorCacheUnderPressure(t *testing.T) {
	cfg := []byte(`{"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192}`)
	a, err := ParseConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := DefaultInput(a)
	in.Task, in.Batch, in.Seq, in.VRAM = LoRA, 2, 2048, 80*GiB
	r := mustEstimate(t, in)
	b := r.PerGPU
	allocated := b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs
	kept := toBytes(trainAllocatorKept * float64(allocated))
	if r.AllocatorCache != b.AllocatorReserve-kept || !(kept > 0 && kept < b.AllocatorReserve) {
		t.Fatalf("cache %d, reserve %d, kept %d", r.AllocatorCache, b.AllocatorReserve, kept)
	}
	if r.Peak != b.Total()-r.AllocatorCache || r.PeakPhase != PhaseStep {
		t.Errorf("peak %d (%v), want the step without the cache %d", r.Peak, r.PeakPhase, b.Total()-r.AllocatorCache)
	}
	between := in
	between.UsableVRAM = (r.Peak + b.Total()) / 2
	if !mustEstimate(t, between).Fits {
		t.Errorf("usable %d between the needed %d and the held %d: does not fit", between.UsableVRAM, r.Peak, b.Total())
	}
	set := in
	set.Overheads.AllocatorReserve = OptionalBytes{Set: true, Value: b.AllocatorReserve}
	if rs := mustEstimate(t, set); rs.AllocatorCache != 0 || rs.Peak != rs.PerGPU.Total() {
		t.Errorf("explicit reserve: cache %d, peak %d, total %d", rs.AllocatorCache, rs.Peak, rs.PerGPU.Total())
	}
	inf := in
	inf.Task = Inference
	if ri := mustEstimate(t, inf); ri.AllocatorCache != 0 || ri.PerGPU.AllocatorReserve == 0 {
		t.Errorf("inference: cache %d, reserve %d", ri.AllocatorCache, ri.PerGPU.AllocatorReserve)
	}
}

// TestFSDPRootUnit: under FSDP the fine-tuning stacks wrap the blocks
// alone, so the embedding, final norm and untied head sit in the root
// unit, which FSDP does not reshard after the forward: each rank holds
// them whole beside its shard, whether or not the step accumulates under
// no_sync. Gemma 2B (tied, V·h = 256000 × 2048) fully fine-tuned on 4
// GPUs, LitGPT's config: the weights line is the 16-bit shard, the two
// gathered blocks and the root's whole 16-bit copy (FSDP1 gathers into a
// tensor of its own), exactly, which moves toward LitGPT's printed 17.43
// GB; LoRA's 16-bit base holds the same root; pre-training none (its
// stacks place the embedding and head on pipeline stages).
func TestFSDPRootUnit(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-2b.json"))
	in := DefaultInput(a)
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = FullFinetune, 4, 3, 1, 512, true, true
	in.VRAM = 24 * GiB
	weights := func(in Input) Bytes {
		t.Helper()
		r, err := Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		return r.PerGPU.Weights
	}
	root := float64(a.EmbeddingParams + a.HeadParams)
	if root < 256000*2048 {
		t.Fatalf("root unit %.0f parameters, want at least the 256000 × 2048 embedding", root)
	}
	shards := float64(a.TotalParams)*2/4 + gatherBytes(in, 2)
	want := root * 2
	for _, noSync := range []bool{false, true} {
		x := in
		x.FSDPNoSync = noSync
		if got := float64(weights(x)) - shards; math.Abs(got-want) > 2 {
			t.Errorf("full fine-tune, no_sync %v: root unit adds %.0f B, want %.0f", noSync, got, want)
		}
	}
	in.FSDPNoSync = true
	r, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	b := r.PerGPU
	allocated := b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs // the CLI's allocated_bytes
	before, after := float64(allocated-toBytes(want))/1e9, float64(allocated)/1e9
	if math.Abs(after-17.43) >= math.Abs(before-17.43) {
		t.Errorf("allocated %.2f GB, %.2f GB without the root unit: no closer to LitGPT's 17.43 GB", after, before)
	}
	lora := in
	lora.Task, lora.LoRARank, lora.LoRATargets, lora.FSDPNoSync = LoRA, 8, LoRAAllLinear, false
	if got := fsdpRootBytes(lora, 2, 4); math.Abs(got-want) > 2 {
		t.Errorf("LoRA: root unit %.0f B, want the 16-bit base's %.0f", got, want)
	}
	pre := in
	pre.Task, pre.FSDPNoSync = Pretrain, false
	if d := float64(weights(pre)) - shards; math.Abs(d) > 2 {
		t.Errorf("pre-training: root unit adds %.0f B, want 0 (its stacks are not these)", d)
	}
}

// TestQLoRANF4Default: a QLoRA base with --quant auto is NF4 without
// double quantisation (4.5 bits per linear weight: one fp32 absmax per 64
// weights), bitsandbytes' and Lightning's default; --quant nf4 is the
// double-quantised 4.127. The difference is the linears' 0.373 bits
// each, and bitsandbytes inference keeps its NF4 figure.
func TestQLoRANF4Default(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Task, in.Weights, in.Batch, in.Seq, in.GradCheckpointing = QLoRA, INT4, 1, 512, true
	auto := mustEstimate(t, in)
	in.Quant = QuantNF4
	dq := mustEstimate(t, in)
	want := float64(a.LinearParams) * (4.5 - 4.127) / 8
	if got := float64(auto.PerGPU.Weights - dq.PerGPU.Weights); math.Abs(got-want) > 2 {
		t.Errorf("auto over nf4: %.0f B, want %.0f (the linears at 4.5 vs 4.127 bits)", got, want)
	}
	in.Task, in.Quant, in.Kernel = Inference, QuantAuto, KernelBitsandbytes
	if lin, _, _ := weightBits(in); lin != QuantNF4.BitsPerWeight() {
		t.Errorf("bitsandbytes int4 inference: %v bits, want NF4's %v", lin, QuantNF4.BitsPerWeight())
	}
}

// TestFSDP1BackwardEnd pins the end of a full fine-tune's backward under
// FSDP1 (rootGradBytes) on LitGPT's Gemma 2B row (4×A10G, batch 1 × 512,
// bf16-true, untied head, held logits; 17.43 GB measured): the sharded
// weights with the root's whole copy but no gather buffer, the whole
// model's no_sync gradients, the states, the root's gradient twice
// (views and flat gradient: 2 × (V·h + V·h + h) × 2 B) and the loop's fp32
// logits (512 × 256,000 × 4 B), no activations. By hand from the
// breakdown and the shapes; it must be the peak, nearer 17.43 GB than the
// step's allocated bytes. Synchronising every micro-batch, the moment
// holds the blocks' shards instead; LoRA (a frozen root) and one GPU have
// no such moment.
func TestFSDP1BackwardEnd(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-2b.json"))
	a = a.WithSeparateHead()
	in := DefaultInput(a)
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = FullFinetune, 4, 3, 1, 512, true, true
	in.FSDPNoSync, in.KeepsLastGraph, in.LossChunks = true, true, 4
	in.VRAM = 24 * GiB
	r := mustEstimate(t, in)
	b := r.PerGPU
	root := float64(a.EmbeddingParams + a.HeadParams)
	if root != 2*256000*2048+2048 {
		t.Fatalf("root unit %.0f parameters, want 2 × 256000 × 2048 + 2048 (wte, lm_head, final norm)", root)
	}
	gather := 2 * float64(a.MaxLayerParams) * 2
	want := float64(b.Weights) - gather + float64(b.Gradients+b.Optimizer) + 2*root*2 + 512*256000*4
	if got := float64(r.PeakAllocated); math.Abs(got-want) > 2 {
		t.Errorf("allocated at the backward's end %.0f B, want %.0f", got, want)
	}
	kept := math.Min(float64(b.AllocatorReserve), trainAllocatorKept*want)
	if got, w := float64(r.BackwardEnd), want+float64(b.CUDAContext+b.NCCL)+kept; math.Abs(got-w) > 3 {
		t.Errorf("BackwardEnd %.0f B, want %.0f", got, w)
	}
	if r.PeakPhase != PhaseBackwardEnd || r.Peak != r.BackwardEnd {
		t.Errorf("peak %v at %v, want the backward's end %v", r.Peak, r.PeakPhase, r.BackwardEnd)
	}
	step := b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs
	if e, s := math.Abs(float64(r.PeakAllocated)/1e9-17.43), math.Abs(float64(step)/1e9-17.43); e >= s {
		t.Errorf("peak allocated %.2f GB, step %.2f GB: no nearer LitGPT's 17.43 GB", float64(r.PeakAllocated)/1e9, float64(step)/1e9)
	}
	// Without no_sync (one micro-batch a step) the same moment holds the
	// blocks' gradient shards, not the whole model's (the root's shard
	// comes of its reduce-scatter, after it); FSDP2 assembles the root's
	// gradient once.
	for _, fsdp2 := range []bool{false, true} {
		x := in
		x.FSDPNoSync, x.FSDP2 = false, fsdp2
		xr := mustEstimate(t, x)
		copies := 2.0
		if fsdp2 {
			copies = 1
		}
		blocks := float64(a.TotalParams-a.EmbeddingParams-a.HeadParams) * 2 / 4
		w := float64(xr.PerGPU.Weights) - gather + blocks + float64(xr.PerGPU.Optimizer) + copies*root*2 + 512*256000*4
		if got := backwardEndAllocated(x, xr.PerGPU, toBytes(float64(a.TotalParams)*2/4)); math.Abs(got-w) > 4 {
			t.Errorf("sync, FSDP2 %v: backward's end %.0f B, want %.0f", fsdp2, got, w)
		}
	}
	for name, f := range map[string]func(Input) Input{
		"LoRA":    func(x Input) Input { x.Task, x.LoRARank, x.LoRATargets = LoRA, 8, LoRAAllLinear; return x },
		"one GPU": func(x Input) Input { x.GPUs, x.ZeRO, x.FSDPNoSync, x.GradCheckpointing = 1, 0, false, false; return x },
	} {
		x := mustEstimate(t, f(in))
		xb := x.PerGPU
		if x.BackwardEnd != 0 || x.PeakPhase == PhaseBackwardEnd || x.PeakAllocated != xb.Total()-xb.CUDAContext-xb.AllocatorReserve-xb.NCCL-xb.CUDAGraphs {
			t.Errorf("%s: BackwardEnd %v, phase %v, peak allocated %v: want none, the step's", name, x.BackwardEnd, x.PeakPhase, x.PeakAllocated)
		}
	}
}

// TestLightningQLoRADefault: only a pure-bf16 QLoRA on bitsandbytes NF4
// without double quantisation and without sharding is planned as
// Lightning's BitsandbytesPrecision; PEFT's fp32 preparation, torchao's
// double-quantised NF4, FSDP/ZeRO sharding and 16-bit LoRA are not.
func TestLightningQLoRADefault(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "gemma-2b.json"))
	in := DefaultInput(a)
	in.Task, in.Weights, in.PureBF16, in.Batch, in.Seq = QLoRA, INT4, true, 2, 512
	if !LightningQLoRADefault(in) {
		t.Fatal("pure-bf16 NF4 QLoRA on one GPU: not Lightning's plugin")
	}
	for name, mod := range map[string]func(*Input){
		"PEFT's fp32 preparation": func(in *Input) { in.PureBF16 = false },
		"double-quantised NF4":    func(in *Input) { in.Quant = QuantNF4 },
		"ZeRO 3":                  func(in *Input) { in.ZeRO, in.GPUs = 3, 2 },
		"ZeRO 2":                  func(in *Input) { in.ZeRO, in.GPUs = 2, 2 },
		"LoRA":                    func(in *Input) { in.Task, in.Weights = LoRA, BF16 },
	} {
		c := in
		mod(&c)
		if LightningQLoRADefault(c) {
			t.Errorf("%s: planned as Lightning's plugin", name)
		}
	}
}

// TestFSDPFrozenBlockGrads pins fsdpFrozenGradBytes: a 16-bit LoRA under
// FSDP1 (--zero 3 with no_sync, Lightning's Block wrap) keeps a gradient
// for every Block parameter, frozen ones too. phi-1.5 (gpt2 layout, h =
// 2048, 24 blocks of 12h² + 13h parameters: two LayerNorms 4h, c_attn
// 3h² + 3h, c_proj h² + h, c_fc 4h² + 4h, mlp c_proj 4h² + h) on 2 GPUs:
// 24 × (12 × 2048² + 13 × 2048) × 2 B = 2,417,197,056 B more gradients
// than with the adapters as units of their own, and the allocated peak
// moves toward LitGPT's printed 4.86 GB (resource tables, 2 × A100 40GB).
// Zero without no_sync (FSDP2, DeepSpeed), with fp32 adapters and for
// QLoRA.
func TestFSDPFrozenBlockGrads(t *testing.T) {
	a := loadArch(t, filepath.Join("..", "calibration", "finetune_configs", "phi-1_5.json"))
	in := DefaultInput(a)
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq, in.PureBF16, in.GradCheckpointing = LoRA, 2, 3, 1, 1044, true, true
	in.FSDPNoSync, in.LoRARank, in.LoRATargets, in.AdapterDType = true, 8, LoRAAttention, AdapterBF16 // Lit-GPT's bf16 adapters
	in.VRAM = 40 * GiB
	est := func(in Input) Breakdown {
		t.Helper()
		r, err := Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		return r.PerGPU
	}
	own := in
	own.FSDPAdapterUnits = true
	const want = 24 * (12*2048*2048 + 13*2048) * 2
	mixed, sep := est(in), est(own)
	if got := mixed.Gradients - sep.Gradients; math.Abs(float64(got-want)) > 2 {
		t.Errorf("frozen Block gradients %d B, want %d", got, want)
	}
	alloc := func(b Breakdown) float64 {
		return float64(b.Total()-b.CUDAContext-b.AllocatorReserve-b.NCCL-b.CUDAGraphs) / 1e9
	}
	if math.Abs(alloc(mixed)-4.86) >= math.Abs(alloc(sep)-4.86) {
		t.Errorf("allocated %.2f GB, %.2f GB with adapter units: no closer to LitGPT's 4.86 GB", alloc(mixed), alloc(sep))
	}
	for name, f := range map[string]func(*Input){
		"no no_sync":    func(in *Input) { in.FSDPNoSync = false },
		"mixed":         func(in *Input) { in.PureBF16, in.AdapterDType = false, AdapterAuto },
		"fp32 adapters": func(in *Input) { in.AdapterDType = AdapterFP32 },
		"QLoRA":         func(in *Input) { in.Task, in.Weights = QLoRA, INT4 },
	} {
		x := in
		f(&x)
		if g := fsdpFrozenGradBytes(x); g != 0 {
			t.Errorf("%s: frozen Block gradients %.0f B, want 0", name, g)
		}
	}
	bad := in
	bad.Task, bad.FSDPAdapterUnits = FullFinetune, true
	if _, err := Estimate(bad); err == nil {
		t.Error("--fsdp-adapter-units on a full fine-tune: no error")
	}
}
