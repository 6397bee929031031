package estimator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SGLang's default mem_fraction_static, worked by hand from
// server_args.py _handle_gpu_memory_settings (reserve in MiB: 512 +
// max(chunk, 2048)·1.5 + graph_bs·2 + tp·pp/8·1024, + graph_bs·dp·4.5
// with DP attention at graph_bs 512, at least 10 GiB above 60 GiB).
func TestSGLangMemFractionStatic(t *testing.T) {
	for _, c := range []struct {
		name           string
		vram, visible  Bytes
		tp, dp, chunk  int
		util, want     float64
		wantChunk, wbs int
	}{
		// 512 + 12288 + 1024 + 1024 = 14848 of 81920: 0.819.
		{"80 GiB TP 8", 80 * GiB, 0, 8, 1, 0, 0, 0.819, 8192, 512},
		// 512 + 12288 + 512 + 128 = 13440: 0.836.
		{"80 GiB TP 1", 80 * GiB, 0, 1, 1, 0, 0, 0.836, 8192, 256},
		// 14848 + 512·8·3 + 512·8·1.5 = 33280: 0.594.
		{"80 GiB TP 8 DP 8", 80 * GiB, 0, 8, 8, 0, 0, 0.594, 8192, 512},
		// chunk 2048: 512 + 3072 + 512 + 128 = 4224, floor 10240: 0.875.
		{"80 GiB TP 1 chunk 2048", 80 * GiB, 0, 1, 1, 2048, 0, 0.875, 8192, 256},
		// 512 + 24576 + 1024 + 1024 = 27136 of 196608: 0.862.
		{"192 GiB TP 8", 192 * GiB, 0, 8, 1, 0, 0, 0.862, 16384, 512},
		// 512 + 3072 + 48 + 128 = 3760 of 24576, no floor: 0.847.
		{"24 GiB TP 1", 24 * GiB, 0, 1, 1, 0, 0, 0.847, 2048, 24},
		// 512 + 6144 + 64 + 128 = 6848 of 40960: 0.833.
		{"40 GiB TP 1", 40 * GiB, 0, 1, 1, 0, 0, 0.833, 4096, 32},
		// 512 + 3072 + 16 + 128 = 3728 of 16384: 0.772.
		{"16 GiB TP 1", 16 * GiB, 0, 1, 1, 0, 0, 0.772, 2048, 8},
		// What CUDA sees decides: a 24 GiB card showing 23,028 MiB.
		{"A10G with ECC", 24 * GiB, 23028 * MiB, 1, 1, 0, 0, 0.837, 2048, 24},
		// DP attention over 32 ranks on 80 GiB: 512 + 12288 + 1024 + 4096
		// + 512·32·4.5 = 91648 MiB, beyond the memory: no share.
		{"80 GiB TP 32 DP 32", 80 * GiB, 0, 32, 32, 0, 0, 0, 8192, 512},
		// The user's share wins.
		{"set 0.5", 80 * GiB, 0, 8, 1, 0, 0.5, 0.5, 8192, 512},
	} {
		in := DefaultInput(Arch{})
		in.Engine, in.VRAM, in.VisibleVRAM, in.TP, in.DP, in.MaxBatchedTokens, in.GPUMemUtil = SGLang, c.vram, c.visible, c.tp, c.dp, c.chunk, c.util
		if got := in.MemShare(); got != c.want {
			t.Errorf("%s: mem_fraction_static %v, want %v", c.name, got, c.want)
		}
		d := SGLangDefaults(c.vram, c.tp)
		if d.ChunkedPrefillSize != c.wantChunk || d.CUDAGraphMaxBS != c.wbs {
			t.Errorf("%s: SGLangDefaults %+v, want chunk %d, graph bs %d", c.name, d, c.wantChunk, c.wbs)
		}
	}
	// The other engines' defaults, and none for an engine without a pool.
	in := DefaultInput(Arch{})
	for e, want := range map[Engine]float64{VLLM: 0.9, TRTLLM: 0.9, HF: 0} {
		in.Engine = e
		if got := in.MemShare(); got != want {
			t.Errorf("%v: share %v, want %v", e, got, want)
		}
	}
}

// SGLang's pool is the share of the memory free before the weights load
// less the weights: its activations and CUDA graphs sit in the reserve,
// so a larger chunk lowers the share but takes nothing else from the
// pool.
func TestSGLangPool(t *testing.T) {
	a := loadArch(t, "deepseek-v3.json")
	in := DefaultInput(a)
	in.Engine, in.Weights, in.GPUs, in.TP, in.Batch, in.Seq, in.VRAM, in.GPUMemUtil = SGLang, FP8, 8, 8, 64, 4096, 141*GB, 0.8
	r := mustEstimate(t, in)
	b := r.PerGPU
	before := float64(r.Usable - b.CUDAContext - b.NCCL)
	want := 0.8*before - float64(b.Weights+b.QuantState)
	if got := float64(b.KVCache); got < want-1 || got > want+1 {
		t.Errorf("SGLang pool %.0f bytes, want 0.8 × %.0f − weights = %.0f", got, before, want)
	}
	if b.Activations == 0 || b.CUDAGraphs == 0 {
		t.Errorf("activations %v, CUDA graphs %v: want both counted outside the pool", b.Activations, b.CUDAGraphs)
	}
}

// SGLang reserves 2 GiB beyond the floor for DeepEP's buffers where it
// runs DeepEP with decode CUDA graphs (reserve_for_deepep_a2a_mb), and the
// launch runs DeepEP for expert parallelism under attention DP
// (SGLangDeepEP): DeepSeek-V3 at TP = DP = EP = 8 on 80 GiB reserves
// 33280 + 2048 MiB, a share of 0.569 where the same copy without EP (no
// DeepEP) keeps 0.594; without CUDA graphs (Input.EnforceEager), or
// without attention DP, nothing is added.
func TestSGLangDeepEPReserve(t *testing.T) {
	a := loadArch(t, "deepseek-v3.json")
	for _, c := range []struct {
		name      string
		dp, ep    int
		eager     bool
		deepEP    bool
		wantShare float64
	}{
		{"DP 8 EP 8", 8, 8, false, true, 0.569},
		{"DP 8 EP 1", 8, 1, false, false, 0.594},
		{"DP 1 EP 8", 1, 8, false, false, 0.819},
		// Eager (--disable-cuda-graph): no DeepEP reserve, 33280: 0.594.
		{"DP 8 EP 8 eager", 8, 8, true, true, 0.594},
	} {
		in := DefaultInput(a)
		in.Engine, in.VRAM, in.GPUs, in.TP, in.DP, in.EP, in.EnforceEager = SGLang, 80*GiB, 8, 8, c.dp, c.ep, c.eager
		if got := SGLangDeepEP(in); got != c.deepEP {
			t.Errorf("%s: SGLangDeepEP %v, want %v", c.name, got, c.deepEP)
		}
		if got := in.MemShare(); got != c.wantShare {
			t.Errorf("%s: mem_fraction_static %v, want %v", c.name, got, c.wantShare)
		}
	}
}

// TestSGLangDPAttentionWarns: an estimate of SGLang attention DP for a
// mixture-of-experts model whose SGLang code runs none (Mixtral 8x7B at
// TP 4, DP 4, EP 4) warns that the layout cannot start, and DeepEPRefusal
// names the model type; DeepSeek-V3's and Qwen3-MoE's layouts do not warn.
func TestSGLangDPAttentionWarns(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "configs", "mixtral-8x7b-v0.1.mlc_preset.json"))
	if err != nil {
		t.Fatal(err)
	}
	mixtral, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mt   string
		want bool
	}{{"mixtral", true}, {"deepseek_v3", false}, {"qwen3_moe", false}, {"glm4_moe", false}} {
		a := mixtral
		a.ModelType = c.mt // the predicate reads the model type alone
		in := DefaultInput(a)
		in.Engine, in.Task = SGLang, Inference
		in.GPUs, in.TP, in.DP, in.EP = 4, 4, 4, 4
		r, err := Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Warnings.Has(WarnNoDPAttention); got != c.want {
			t.Errorf("%s: warns %v, want %v", c.mt, got, c.want)
		}
		if why := DeepEPRefusal(in, Hardware{Generation: GenHopper, LinkBandwidth: 450e9, NVLinkDomain: 8}); (why != "") != c.want || c.want && !strings.Contains(why, c.mt) {
			t.Errorf("%s: refusal %q", c.mt, why)
		}
	}
}

// TestRedundantExpertsRefusal: Mixtral 8x7B's 8 experts at EP 6 with 4
// redundant copies (12 = 2 × 6). vLLM's EPLB, which places them, runs on
// CUDA and ROCm only: refused on Gaudi, with the flag named, and
// LayoutRefusal (the planner's judge) says the same; vLLM on Hopper and
// on CDNA3, and a vLLM copy without redundant experts on Gaudi, are not
// refused, nor are SGLang and TensorRT-LLM on Hopper.
func TestRedundantExpertsRefusal(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "configs", "mixtral-8x7b-v0.1.mlc_preset.json"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		engine    Engine
		gen       Generation
		redundant int
		refused   bool
	}{
		{VLLM, GenGaudi, 4, true},
		{VLLM, GenGaudi, 0, false},
		{VLLM, GenHopper, 4, false},
		{VLLM, GenCDNA3, 4, false},
		{SGLang, GenHopper, 4, false},
		{TRTLLM, GenHopper, 4, false},
	} {
		in := DefaultInput(a)
		in.Engine, in.Task = c.engine, Inference
		in.GPUs, in.TP, in.EP, in.RedundantExperts = 6, 6, 6, c.redundant
		hw := Hardware{Generation: c.gen, LinkBandwidth: 450e9, NVLinkDomain: 8}
		why := RedundantExpertsRefusal(in, hw)
		if (why != "") != c.refused || c.refused && !strings.Contains(why, "--enable-eplb") {
			t.Errorf("%s on %s with %d redundant: refusal %q", c.engine, c.gen, c.redundant, why)
		}
		if c.engine == VLLM && LayoutRefusal(in, hw) != why {
			t.Errorf("%s on %s: LayoutRefusal %q, RedundantExpertsRefusal %q", c.engine, c.gen, LayoutRefusal(in, hw), why)
		}
	}
}
