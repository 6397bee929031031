package plan_test

import (
	"math"
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
// and 2,048 H100s, a quarter and an eighth of a sequence a replica. They
// then stopped at 128 and 256 replicas of one GPU each (the 8B on 15T
// tokens: 32 B200 instances, 1,208 h); past the batch they now run those
// replicas on more GPUs each, TP inside the NVLink domain and CP over the
// sequence, as published runs scale (the 8B: 256 B300 instances at TP 4
// × CP 2, 241 h), and say why (note.batch_wider). The cheapest pick is
// unchanged.
func TestTrainingRowsKeepTheGlobalBatch(t *testing.T) {
	for _, c := range []struct {
		model    string
		tokens   float64
		seqs     int
		cheapUSD float64 // the cheapest pick's job cost, as before
		hours    float64 // the quickest plan's (Result.Quickest), at most (before: 476, 1,208 and 81 h)
	}{
		{"llama-3.2-1b", 15e12, 128, 163086.12, 160},
		{"llama-3.1-8b", 15e12, 256, 1024349.73, 250},
		{"llama-3.1-8b", 1e12, 256, 68294.70, 17},
	} {
		req, offers := scaleOutRequest(t, c.model, estimator.Pretrain, c.tokens)
		req.Input.Seq = 8192
		res := mustPlan(t, req, offers, plan.Options{MaxInstances: 2048})
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Fits && r.DP*req.Input.Batch > c.seqs {
				t.Errorf("%s: %s ×%d runs %d replicas on a %d-sequence batch", c.model, r.Offer.ID, r.Instances, r.DP, c.seqs)
			}
			if per := r.TP * r.PP * max(r.CP, 1); r.Fits && int(r.GPUs) != r.DP*per {
				t.Errorf("%s: %s ×%d: %v GPUs, %d replicas of TP %d × PP %d × CP %d", c.model, r.Offer.ID, r.Instances, r.GPUs, r.DP, r.TP, r.PP, r.CP)
			}
		}
		ch, fa := &res.Rows[res.Cheapest], &res.Rows[res.Quickest]
		if math.Abs(ch.JobCostUSD-c.cheapUSD) > 0.005 {
			t.Errorf("%s on %g tokens: cheapest %s at %.2f USD, want %.2f", c.model, c.tokens, ch.Offer.ID, ch.JobCostUSD, c.cheapUSD)
		}
		if fa.DP != c.seqs || !(fa.GPUs > float64(c.seqs)) || !hasNote(fa, plan.MsgNoteBatchWider) || !(fa.JobSeconds <= c.hours*3600) {
			t.Errorf("%s on %g tokens: fastest %s ×%d, %d replicas on %v GPUs (TP %d × PP %d × CP %d) in %.0f h, want %d replicas of more than one GPU in ≤ %.0f h, with its note (%v)",
				c.model, c.tokens, fa.Offer.ID, fa.Instances, fa.DP, fa.GPUs, fa.TP, fa.PP, fa.CP, fa.JobSeconds/3600, c.seqs, c.hours, fa.Notes)
		}
	}
}

// TestDeadlinePastTheBatch: a deadline that only a fleet past the global
// batch's replicas meets. Llama 3.1 8B on 15T tokens at 8K within 300 h
// had no plan (256 replicas of one GPU took 1,208 h at the fastest); 256
// replicas of 8 GPUs each (TP and CP) meet it.
func TestDeadlinePastTheBatch(t *testing.T) {
	req, offers := scaleOutRequest(t, "llama-3.1-8b", estimator.Pretrain, 15e12)
	req.Input.Seq = 8192
	req.Filters.DeadlineSeconds = 300 * 3600
	res := mustPlan(t, req, offers, plan.Options{MaxInstances: 2048})
	if res.Cheapest < 0 {
		t.Fatal("no plan meets 300 h")
	}
	r := &res.Rows[res.Cheapest]
	if r.DP > 256 || !(r.JobSeconds <= req.Filters.DeadlineSeconds) || !hasNote(r, plan.MsgNoteBatchWider) {
		t.Errorf("cheapest %s ×%d: %d replicas, TP %d × PP %d × CP %d, %.0f h; notes %v", r.Offer.ID, r.Instances, r.DP, r.TP, r.PP, r.CP, r.JobSeconds/3600, r.Notes)
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
		if r.FitReason.Key == plan.MsgFitBatchShort {
			short++
		}
	}
	if res.Cheapest >= 0 || short == 0 {
		t.Errorf("cheapest %d, %d rows refused for the batch", res.Cheapest, short)
	}
}

// TestFewestInstancesPastTheBatch: a global batch of 4 sequences has
// fewer sequences than an 8-GPU instance has data-parallel ranks at TP 1,
// so every 8-GPU offer whose memory holds the model at TP 1 was refused
// (fit.batch_short): Verda's 8 × B200 among them. The same instance runs
// the batch as fewer, wider replicas (TP, PP, CP), timed: those offers
// now fit, none with more than 4 replicas, and say why.
func TestFewestInstancesPastTheBatch(t *testing.T) {
	req, offers := scaleOutRequest(t, "llama-3.1-8b", estimator.Pretrain, 1e9)
	req.Input.Seq = 4096
	req.Workload.GlobalBatchTokens = 4 * 4096
	res := mustPlan(t, req, offers, plan.Options{})
	b200 := false
	for i := range res.Rows {
		r := &res.Rows[i]
		if !r.Fits {
			continue
		}
		if r.DP*req.Input.Batch > 4 {
			t.Errorf("%s ×%d: %d replicas on a 4-sequence batch", r.Offer.ID, r.Instances, r.DP)
		}
		if r.Offer.ID == "verda-8b200.240v" && r.ScaledFrom == 0 {
			b200 = true
			if !hasNote(r, plan.MsgNoteBatchWider) || r.TP*r.PP*max(r.CP, 1) < 2 || int(r.GPUs) != r.DP*r.TP*r.PP*max(r.CP, 1) {
				t.Errorf("%s: %d replicas of TP %d × PP %d × CP %d on %v GPUs, notes %v", r.Offer.ID, r.DP, r.TP, r.PP, r.CP, r.GPUs, r.Notes)
			}
		}
	}
	if !b200 {
		t.Error("Verda's 8 × B200 does not run a 4-sequence batch")
	}
}
