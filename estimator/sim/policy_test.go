package sim

import (
	"testing"

	"rightsize/estimator"
)

// TestVLLMDefaultsAgree: the simulator's vLLM scheduler and the memory
// estimate read one table of vLLM's defaults (estimator.VLLMDefaultLimits).
// On GPUs of the memory sizes sold, and on each side of vLLM's 70 GiB
// line, the step budget the simulator schedules with is the forward pass
// the estimate profiles its activation peak with (the estimate is the
// one it gives with that budget set), and the sequence cap is vLLM's.
func TestVLLMDefaultsAgree(t *testing.T) {
	a := llama8B(t)
	for _, gib := range []float64{16, 24, 32, 40, 48, 69.5, 70, 80, 94, 141, 192, 288} {
		vram := estimator.Bytes(gib * float64(estimator.GiB))
		want := estimator.VLLMDefaultLimits(vram)
		pol, err := DefaultPolicy(estimator.VLLM, vram)
		if err != nil {
			t.Fatal(err)
		}
		in := estimator.DefaultInput(a)
		in.Engine, in.VRAM = estimator.VLLM, vram
		if pol.MaxSeqs != want.MaxNumSeqs || pol.TokenBudget != want.MaxNumBatchedTokens {
			t.Errorf("%v GiB: simulator max_num_seqs %d, max_num_batched_tokens %d; vLLM's %+v", gib, pol.MaxSeqs, pol.TokenBudget, want)
		}
		if got := in.BatchedTokens(); got != pol.TokenBudget {
			t.Errorf("%v GiB: the estimate profiles %d tokens, the simulator schedules %d", gib, got, pol.TokenBudget)
		}
		cfg, err := NewConfig(in, h100SXM, estimator.Efficiency{}, estimator.Workload{PromptTokens: 1000, OutputTokens: 200})
		if err != nil {
			t.Fatal(err)
		}
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
