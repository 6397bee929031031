package plan_test

import (
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestAttentionKernelReachesEveryCandidate: the fused attention kernel of
// the request's training job (estimator.Input.AttnKernel) is the one each
// candidate's estimate runs: cuDNN's speeds every Hopper offer's plan of
// the same shape (estimator attnKernelSpeed: 1.62× FlashAttention-2's
// attention on an H100) and leaves every other GPU's as it was (no
// published comparison there).
func TestAttentionKernelReachesEveryCandidate(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Task, req.Input.Seq, req.Input.Batch, req.Input.GradCheckpointing = estimator.Pretrain, 8192, 2, true
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e9}
	fa2 := mustPlan(t, req, offers, plan.Options{KeepUnfit: true})
	req.Input.AttnKernel = estimator.AttnCuDNN
	cudnn := mustPlan(t, req, offers, plan.Options{KeepUnfit: true})
	byID := map[string]*plan.Row{}
	for i := range fa2.Rows {
		byID[fa2.Rows[i].Offer.ID] = &fa2.Rows[i]
	}
	var hopper, other int
	for i := range cudnn.Rows {
		b := &cudnn.Rows[i]
		a, ok := byID[b.Offer.ID]
		if !ok || !(a.TokensPerSecond > 0) || a.TP != b.TP || a.PP != b.PP || a.DP != b.DP || a.ZeRO != b.ZeRO || a.GradCheckpointing != b.GradCheckpointing {
			continue
		}
		g := b.Offer.GPU
		if strings.HasPrefix(g, "h100") || strings.HasPrefix(g, "h200") {
			hopper++
			if !(b.TokensPerSecond > a.TokensPerSecond*1.01) {
				t.Errorf("%s (%s): cuDNN %.0f tokens/s, FlashAttention-2 %.0f", b.Offer.ID, g, b.TokensPerSecond, a.TokensPerSecond)
			}
		} else if strings.HasPrefix(g, "a100") || strings.HasPrefix(g, "b200") || strings.HasPrefix(g, "l40s") {
			other++
			if !closeTo(a.TokensPerSecond, b.TokensPerSecond) {
				t.Errorf("%s (%s): cuDNN %.0f tokens/s, FlashAttention-2 %.0f: moved off Hopper", b.Offer.ID, g, b.TokensPerSecond, a.TokensPerSecond)
			}
		}
	}
	if hopper < 5 || other < 5 {
		t.Fatalf("compared %d Hopper and %d other rows", hopper, other)
	}
}
