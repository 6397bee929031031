package estimator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlockSplit: DeepSeek-V3's FP8 checkpoint (quantization_config
// weight_block_size [128, 128]) has 2048-wide experts and an 18,432-wide
// dense MLP. vLLM and SGLang load it at TP 16 (128 and 1,152 a shard) and
// refuse TP 32 (64-wide expert shards) unless expert parallelism keeps
// the experts whole; SGLang's experts split over TP/EP. The estimate's
// input check refuses what the engines refuse, so the planner never lays
// a copy out so; the same config without blocks (16-bit weights
// quantised at load) and TensorRT-LLM are not held to it.
func TestBlockSplit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "configs", "deepseek-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	q := strings.Replace(string(data), "{", `{"quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]},`, 1)
	a, err := ParseConfig([]byte(q))
	if err != nil {
		t.Fatal(err)
	}
	if a.WeightBlock != 128 || plain.WeightBlock != 0 {
		t.Fatalf("WeightBlock %d with the quantization_config, %d without; want 128 and 0", a.WeightBlock, plain.WeightBlock)
	}
	for _, c := range []struct {
		a           Arch
		e           Engine
		tp, dp, ep  int
		weights     DType
		refusedWith string // "": loads
	}{
		{a, VLLM, 16, 1, 1, FP8, ""},
		{a, VLLM, 32, 1, 1, FP8, "the experts' 2048-wide layers split over TP 32 are not whole 128-wide blocks"},
		{a, SGLang, 32, 1, 1, FP8, "which sglang refuses at start-up"},
		{a, VLLM, 32, 32, 32, FP8, ""},
		{a, SGLang, 32, 32, 32, FP8, ""},
		// SGLang's experts split over TP/EP = 32/8 = 4 (512 each); the
		// dense layers over TP 32 without attention DP: 576, 4.5 blocks.
		{a, SGLang, 32, 1, 8, FP8, "the dense 18432-wide layers split over TP 32"},
		{a, TRTLLM, 32, 1, 1, FP8, ""},
		{a, VLLM, 32, 1, 1, BF16, ""},
		{plain, VLLM, 32, 1, 1, FP8, ""},
	} {
		in := DefaultInput(c.a)
		in.Engine, in.Weights = c.e, c.weights
		in.GPUs, in.TP, in.PP, in.DP, in.EP = c.tp, c.tp, 1, c.dp, c.ep
		why := ""
		if c.weights == FP8 {
			why = BlockSplit(c.a, c.e, c.tp, c.dp, c.ep)
		}
		name := c.e.String() + " TP " + itoa(c.tp) + " DP " + itoa(c.dp) + " EP " + itoa(c.ep) + " " + c.weights.String()
		switch {
		case c.refusedWith == "" && why != "":
			t.Errorf("%s, WeightBlock %d: %s", name, c.a.WeightBlock, why)
		case c.refusedWith != "" && !strings.Contains(why, c.refusedWith):
			t.Errorf("%s: %q, want a refusal naming %q", name, why, c.refusedWith)
		}
		// The estimate estimates the layout (a replayed measurement may
		// record it) and warns where the engine refuses it.
		if err := in.Validate(); err != nil {
			t.Errorf("%s: the estimate refuses it: %v", name, err)
			continue
		}
		if r, err := Estimate(in); err != nil || r.Warnings.Has(WarnBlockSplit) != (why != "") {
			t.Errorf("%s: error %v, WarnBlockSplit %v; want it where the engine refuses (%q)", name, err, r.Warnings.Has(WarnBlockSplit), why)
		}
	}
}
