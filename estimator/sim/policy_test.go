package sim

import (
	"testing"

	"rightsize/estimator"
)

// TestVLLMDefaultsAgree: the simulator's vLLM scheduler and the memory
// estimate read one rule for vLLM's defaults
// (estimator.VLLMDefaultLimitsOn). On GPUs of the memory sizes sold, on
// each side of vLLM's 70 GiB line, and on a GPU the engine names (the
// A100: Hardware.VLLMSmallDefaults for the simulator,
// Input.VLLMSmallDefaults for the estimate), the step budget the
// simulator schedules with is the forward pass the estimate profiles its
// activation peak with (the estimate is the one it gives with that budget
// set), and the sequence cap is vLLM's.
func TestVLLMDefaultsAgree(t *testing.T) {
	a := llama8B(t)
	for _, c := range []struct {
		gib   float64
		named bool
	}{{16, false}, {24, false}, {32, false}, {40, false}, {40, true}, {48, false}, {69.5, false}, {70, false}, {80, false},
		{80, true}, {94, false}, {141, false}, {192, false}, {288, false}} {
		gib := c.gib
		vram := estimator.Bytes(gib * float64(estimator.GiB))
		hw := h100SXM
		hw.VLLMSmallDefaults = c.named
		want := estimator.VLLMDefaultLimitsOn(vram, hw)
		pol, err := DefaultPolicyOn(estimator.VLLM, vram, hw)
		if err != nil {
			t.Fatal(err)
		}
		in := estimator.DefaultInput(a)
		in.Engine, in.VRAM, in.VLLMSmallDefaults = estimator.VLLM, vram, c.named
		if pol.MaxSeqs != want.MaxNumSeqs || pol.TokenBudget != want.MaxNumBatchedTokens {
			t.Errorf("%v GiB: simulator max_num_seqs %d, max_num_batched_tokens %d; vLLM's %+v", gib, pol.MaxSeqs, pol.TokenBudget, want)
		}
		if got := in.BatchedTokens(); got != pol.TokenBudget {
			t.Errorf("%v GiB: the estimate profiles %d tokens, the simulator schedules %d", gib, got, pol.TokenBudget)
		}
		cfg, err := NewConfig(in, hw, estimator.Efficiency{}, estimator.Workload{PromptTokens: 1000, OutputTokens: 200})
		if err != nil {
			t.Fatal(err)
		}
		// NewConfig adds the model's fixed cost per request, which the
		// engine's policy alone leaves 0.
		if pol.RequestSeconds != 0 || cfg.Policy.RequestSeconds != estimator.RequestSeconds(in, hw) {
			t.Errorf("%v GiB: request cost %v in the engine's policy, %v in NewConfig's", gib, pol.RequestSeconds, cfg.Policy.RequestSeconds)
		}
		pol.RequestSeconds = cfg.Policy.RequestSeconds
		if cfg.Policy != pol {
			t.Errorf("%v GiB: NewConfig's policy %+v, DefaultPolicy's %+v", gib, cfg.Policy, pol)
		}
		set := in
		set.MaxBatchedTokens = pol.TokenBudget
		r0, err0 := estimator.Estimate(in)
		r1, err1 := estimator.Estimate(set)
		if err0 != nil || err1 != nil {
			t.Fatal(err0, err1)
		}
		if r0.PerGPU != r1.PerGPU {
			t.Errorf("%v GiB: the default estimate %+v, at the simulator's %d tokens %+v", gib, r0.PerGPU, pol.TokenBudget, r1.PerGPU)
		}
	}
}

// TestVLLMLimitsOnA100: vLLM gives a GPU whose name holds "a100" its
// smaller limits whatever its memory (vllm/engine/arg_utils.py,
// get_batch_defaults), so the simulated scheduler of an A100 80GB runs
// 256 sequences and 2048 tokens a step, as `vllm serve` does there with no
// flags, where an H100 of the same 80 GiB runs 1024 and 8192. A budget the
// input sets still wins; the sequence cap stays the engine's.
func TestVLLMLimitsOnA100(t *testing.T) {
	a100 := estimator.Hardware{PeakFLOPS: 312e12, MemBandwidth: 2.039e12, LinkBandwidth: 300e9, Generation: estimator.GenAmpere,
		VLLMSmallDefaults: true}
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = estimator.VLLM, 80*estimator.GiB
	w := estimator.Workload{PromptTokens: 1000, OutputTokens: 200}
	for _, c := range []struct {
		name          string
		hw            estimator.Hardware
		budget        int
		seqs, perStep int
	}{
		{"A100 80GB", a100, 0, 256, 2048},
		{"H100 80GB", h100SXM, 0, 1024, 8192},
		{"A100 80GB, --max-num-batched-tokens 4096", a100, 4096, 256, 4096},
	} {
		in.MaxBatchedTokens = c.budget
		cfg, err := NewConfig(in, c.hw, estimator.Efficiency{}, w)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Policy.MaxSeqs != c.seqs || cfg.Policy.TokenBudget != c.perStep {
			t.Errorf("%s: max_num_seqs %d, max_num_batched_tokens %d; want %d, %d", c.name, cfg.Policy.MaxSeqs, cfg.Policy.TokenBudget, c.seqs, c.perStep)
		}
	}
	if pol, _ := DefaultPolicy(estimator.VLLM, 80*estimator.GiB); pol.MaxSeqs != 1024 {
		t.Errorf("an unnamed 80 GiB GPU runs %d sequences, want 1024", pol.MaxSeqs)
	}
}
