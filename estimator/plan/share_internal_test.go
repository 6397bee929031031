package plan

import (
	"testing"

	"rightsize/estimator"
)

// TestPlannedShareSetsTheGraphCap: the share the planner sets on an SGLang
// attention-DP copy (gpuMem.share where the request set none, Row.MemShare)
// reaches its estimates with the recipes' --cuda-graph-max-bs, which the
// launch writes beside the share (estimator.PlannedShareFix), so the plan
// prices decode steps past 64 sequences a rank eager as the launched engine
// runs them; the request's own share sets no cap, and a copy without
// attention DP or another engine keeps the share alone.
func TestPlannedShareSetsTheGraphCap(t *testing.T) {
	m := gpuMem{vram: 80 * estimator.GiB, share: estimator.SGLangDPAttentionMemFraction}
	in := estimator.Input{Engine: estimator.SGLang, DP: 16, EP: 16, TP: 16}
	m.set(&in)
	if in.GPUMemUtil != estimator.SGLangDPAttentionMemFraction || in.CUDAGraphMaxBS != estimator.SGLangDPAttentionCUDAGraphMaxBS {
		t.Fatalf("planner's share: GPUMemUtil %g, CUDAGraphMaxBS %d", in.GPUMemUtil, in.CUDAGraphMaxBS)
	}
	own := estimator.Input{Engine: estimator.SGLang, DP: 16, GPUMemUtil: estimator.SGLangDPAttentionMemFraction}
	m.set(&own)
	if own.CUDAGraphMaxBS != 0 {
		t.Fatalf("the request's own share set a cap: %d", own.CUDAGraphMaxBS)
	}
	set := estimator.Input{Engine: estimator.SGLang, DP: 16, CUDAGraphMaxBS: 256}
	m.set(&set)
	if set.CUDAGraphMaxBS != 256 {
		t.Fatalf("a cap of the request's own was replaced: %d", set.CUDAGraphMaxBS)
	}
	for _, i := range []estimator.Input{{Engine: estimator.SGLang, DP: 1}, {Engine: estimator.VLLM, DP: 8}} {
		m.set(&i)
		if i.GPUMemUtil != estimator.SGLangDPAttentionMemFraction || i.CUDAGraphMaxBS != 0 {
			t.Fatalf("%v DP %d: GPUMemUtil %g, CUDAGraphMaxBS %d", i.Engine, i.DP, i.GPUMemUtil, i.CUDAGraphMaxBS)
		}
	}
}
