package estimator

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseConfig: any bytes give an Arch or an error, never a panic, and
// an accepted config has non-negative, bounded counts.
func FuzzParseConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "configs", "*.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"model_type":"llama","hidden_size":1e300}`))
	f.Add([]byte(`{"text_config":{"model_type":"llama"},"vision_config":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseConfig(data)
		if err != nil {
			return
		}
		for _, v := range []int64{a.TotalParams, a.ActiveParamCount, a.EmbeddingParams, a.HeadParams, a.LayerParams,
			a.MaxLayerParams, a.LinearParams, a.KVProjParams, a.AdafactorStates, a.LoRAAttnDims, a.LoRAMLPDims} {
			if v < 0 || v > 4*maxParams {
				t.Fatalf("count %d out of range in %+v", v, a)
			}
		}
		if a.KVBytesPerToken(FP32) < 0 {
			t.Fatal("negative KV bytes")
		}
		in := DefaultInput(a)
		if in.Validate() == nil {
			checkFinite(t, in)
		}
	})
}

// FuzzEstimate: any combination of settings on the test architectures
// gives an error or a finite, non-negative breakdown.
func FuzzEstimate(f *testing.F) {
	archs := make([]Arch, len(testConfigs))
	for i, c := range testConfigs {
		archs[i] = loadArch(f, c)
	}
	f.Add(uint8(0), uint8(0), uint8(1), uint8(1), 1, 2048, uint8(0), uint8(0), 16, 0.9, int64(80<<30), 1, 0, 1, 1, uint8(0), uint8(0), true, false)
	f.Add(uint8(2), uint8(1), uint8(5), uint8(3), 4, 4096, uint8(4), uint8(1), 64, 0.5, int64(24<<30), 8, 3, 2, 2, uint8(2), uint8(1), false, true)
	f.Add(uint8(7), uint8(0), uint8(0), uint8(1), 16, 8192, uint8(0), uint8(1), 8, 0.95, int64(80<<30), 4, 0, 4, 1, uint8(0), uint8(0), true, false)
	// Pre-training in bf16 under AdamW at ZeRO 1 on 8 GPUs with flash-attn's
	// fused cross-entropy and bf16 optimizer states (task's high bits).
	f.Add(uint8(0), uint8(1|64|128), uint8(1), uint8(1), 2, 2048, uint8(0), uint8(0), 16, 0.9, int64(80<<30), 8, 1, 1, 1, uint8(0), uint8(0), true, false)
	f.Fuzz(func(t *testing.T, model, task, weights, kv uint8, batch, seq int, opt, engine uint8, rank int, util float64,
		vram int64, gpus, zero, tp, pp int, offload, quant uint8, flash, gc bool) {
		in := DefaultInput(archs[int(model)%len(archs)])
		in.Task, in.Weights, in.KV = Task(task%6), DType(weights%7), DType(kv%7)
		in.Batch, in.Seq, in.Optimizer, in.Engine, in.LoRARank = batch, seq, Optimizer(opt%6), Engine(engine%4), rank
		in.GPUMemUtil, in.VRAM, in.GPUs, in.ZeRO, in.TP, in.PP = util, Bytes(vram), gpus, zero, tp, pp
		in.Offload, in.Quant, in.FlashAttention, in.GradCheckpointing = Offload(offload%4), Quant(quant%9), flash, gc
		// The high bits drive the training-memory options.
		in.PureBF16, in.OptimizerInBackward, in.LossChunks = opt&64 != 0, opt&128 != 0, int(quant>>4)
		in.FlashCrossEntropy, in.BF16OptimizerStates = task&64 != 0, task&128 != 0
		in.EP, in.DP = 1<<(offload>>5), 1<<(kv>>5) // serving parallelism: 1..128
		in.SchedulerSteps = int(engine >> 4)
		in.FSDPGatherFP32 = engine&8 != 0                // Lightning's fp32 FSDP gather
		in.FSDP2 = weights&8 != 0                        // FSDP2's per-parameter sharding
		in.AdapterDType = AdapterDType(weights >> 4 % 5) // auto, fp32, bf16, fp16, and one past them
		if in.Validate() != nil {
			if _, err := Estimate(in); err == nil {
				t.Fatal("Estimate accepted what Validate rejects")
			}
			return
		}
		checkFinite(t, in)
	})
}

func checkFinite(t *testing.T, in Input) {
	t.Helper()
	r, err := Estimate(in)
	if err != nil {
		t.Fatalf("valid input rejected: %v", err)
	}
	checkResult(t, "fuzz", r, in.Engine)
	if math.IsNaN(r.WeightBitsPerParam) || r.Usable < 0 || r.KVPoolTokens < 0 || r.MaxConcurrentSeqs < 0 {
		t.Fatalf("bad result %+v", r)
	}
	_ = MaxBatch(in)
}

// FuzzParseCount: any text gives a finite count in [0, 10^18] or an error.
func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"2T", "1e9", "-0", "0x10", "1e308b", "NaNk", "+Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseCount(s)
		if err == nil && (math.IsNaN(v) || v < 0 || v > 1e18) {
			t.Fatalf("ParseCount(%q) = %v", s, v)
		}
	})
}
