package plan_test

import (
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestTrainingRowsKeepTheGlobalBatch: no training row, scaled out or not,
// has more data-parallel replicas × micro-batch than its global batch has
// sequences (estimator.TrainBatch), a layout Megatron-LM, torchtitan and
// llm-foundry refuse. Llama 3.2 1B and Llama 3.1 8B pre-trained at 8K
// tokens on up to 2,048 instances take the default 1M- and 2M-token
// batches, 128 and 256 sequences: the fastest fleets scaled out to 512
// and 2,048 H100s, a quarter and an eighth of a sequence a replica; they
// stop at 128 and 256 replicas, and say the batch stopped them.
func TestTrainingRowsKeepTheGlobalBatch(t *testing.T) {
	for _, c := range []struct {
		model  string
		tokens float64
		seqs   int
	}{
		{"llama-3.2-1b", 15e12, 128},
		{"llama-3.1-8b", 15e12, 256},
		{"llama-3.1-8b", 1e12, 256},
	} {
		req, offers := scaleOutRequest(t, c.model, estimator.Pretrain, c.tokens)
		req.Input.Seq = 8192
		res := mustPlan(t, req, offers, plan.Options{MaxInstances: 2048})
		stopped := false
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Fits && r.DP*req.Input.Batch > c.seqs {
				t.Errorf("%s: %s ×%d runs %d replicas on a %d-sequence batch", c.model, r.Offer.ID, r.Instances, r.DP, c.seqs)
			}
			stopped = stopped || hasNote(r, "note.scale_stop_batch")
		}
		fa := &res.Rows[res.Fastest]
		if fa.DP != c.seqs || !stopped {
			t.Errorf("%s on %g tokens: fastest %s ×%d at %d replicas, want %d; a row stopped by the batch: %v", c.model, c.tokens,
				fa.Offer.ID, fa.Instances, fa.DP, c.seqs, stopped)
		}
	}
}

// TestFixedLayoutPastTheBatch: a layout the user fixes at 2,048 GPUs with
// a global batch of 256 sequences of 8K (256 × 8,192 tokens) is one
// no stack starts: no row fits, each saying so (fit.batch_short), where
// the plan timed 2,048 sequences a step.
func TestFixedLayoutPastTheBatch(t *testing.T) {
	req, offers := scaleOutRequest(t, "llama-3.1-8b", estimator.Pretrain, 1e12)
	req.Input.Seq, req.Input.GPUs, req.FixedParallelism = 8192, 2048, true
	req.Workload.GlobalBatchTokens = 256 * 8192
	res, err := plan.Plan(req, offers, plan.Options{MaxInstances: 2048, KeepUnfit: true})
	if err != nil {
		t.Fatal(err)
	}
	short := 0
	for _, r := range res.Rows {
		if r.Fits {
			t.Errorf("%s ×%d fits at %d replicas", r.Offer.ID, r.Instances, r.DP)
		}
	}
	for _, r := range res.Unfit {
		if r.FitReason.Key == "fit.batch_short" {
			short++
		}
	}
	if res.Cheapest >= 0 || short == 0 {
		t.Errorf("cheapest %d, %d rows refused for the batch", res.Cheapest, short)
	}
}
