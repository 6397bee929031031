package plan_test

import (
	"math"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestTrainStack: the stack that runs each layout. Data-parallel runs at
// any ZeRO stage on FSDP or DeepSpeed; a TP/PP split at ZeRO ≤ 1 on
// Megatron-LM or NeMo; at ZeRO-2/3 on torchtitan, for pre-training its
// families only; a QLoRA base on data-parallel sharding only.
func TestTrainStack(t *testing.T) {
	llama, mixtral, qwen := modelInput(t, "llama-3.1-70b"), modelInput(t, "mixtral-8x7b"), modelInput(t, "qwen3-30b-a3b")
	for _, c := range []struct {
		name                 string
		in                   estimator.Input
		task                 estimator.Task
		tp, pp, cp, ep, zero int
		want                 plan.Stack
	}{
		{"fine-tune ZeRO-3", llama, estimator.FullFinetune, 1, 1, 1, 1, 3, plan.StackDataParallel},
		{"pre-train ZeRO-0", llama, estimator.Pretrain, 1, 1, 0, 0, 0, plan.StackDataParallel},
		{"QLoRA ZeRO-3", llama, estimator.QLoRA, 1, 1, 1, 1, 3, plan.StackDataParallel},
		{"fine-tune TP 2 ZeRO-1", llama, estimator.FullFinetune, 2, 1, 1, 1, 1, plan.StackMegatron},
		{"LoRA PP 2 ZeRO-0", llama, estimator.LoRA, 1, 2, 1, 1, 0, plan.StackMegatron},
		{"pre-train EP 8 ZeRO-1", mixtral, estimator.Pretrain, 1, 1, 1, 8, 1, plan.StackMegatron},
		{"pre-train CP 2 ZeRO-1", llama, estimator.Pretrain, 1, 1, 2, 1, 1, plan.StackMegatron},
		{"fine-tune TP 2 ZeRO-3", llama, estimator.FullFinetune, 2, 1, 1, 1, 3, plan.StackNone},
		{"pre-train Llama TP 2 ZeRO-3", llama, estimator.Pretrain, 2, 1, 1, 1, 3, plan.StackTorchtitan},
		{"pre-train Qwen3 MoE TP 8 PP 4 ZeRO-2", qwen, estimator.Pretrain, 8, 4, 1, 1, 2, plan.StackTorchtitan},
		{"pre-train Mixtral TP 2 ZeRO-3", mixtral, estimator.Pretrain, 2, 1, 1, 1, 3, plan.StackNone},
		{"pre-train Llama EP with TP at ZeRO-3", llama, estimator.Pretrain, 2, 1, 1, 2, 3, plan.StackNone},
		{"QLoRA PP 2", llama, estimator.QLoRA, 1, 2, 1, 1, 0, plan.StackNone},
	} {
		in := c.in
		in.Task, in.TP, in.PP, in.CP, in.EP, in.ZeRO = c.task, c.tp, c.pp, c.cp, c.ep, c.zero
		if got := plan.TrainStack(in); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFineTuneIsDataParallel: Llama 3.1 70B fully fine-tuned on one 8 ×
// B200 instance was planned TP 2 at ZeRO-3 without checkpointing, a
// layout no fine-tuning stack runs; it is data-parallel ZeRO-3 with
// activation checkpointing, which --emit fsdp|deepspeed write, and its
// note says so. The recompute costs time: 79,534 s against TP 2's 64,381
// s (1.24×; a full recompute is one more forward pass, about a third more
// compute, Korthikanti et al. 2022 §4, of which attention's share and the
// communication hidden under it leave less).
func TestFineTuneIsDataParallel(t *testing.T) {
	in := modelInput(t, "llama-3.1-70b")
	in.Task = estimator.FullFinetune
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
	o := gpuOffer(t, "b200", 8, estimator.BF16)
	res, err := plan.Plan(req, []plan.Offer{o}, plan.Options{})
	if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits {
		t.Fatalf("%v, %+v", err, res.Rows)
	}
	r := res.Rows[0]
	if r.Instances != 1 || r.TP != 1 || r.PP != 1 || r.DP != 8 || r.ZeRO != 3 || !r.GradCheckpointing {
		t.Errorf("%d instance(s), TP %d PP %d DP %d ZeRO %d, checkpointing %v; want 1, TP 1, DP 8, ZeRO 3 with checkpointing",
			r.Instances, r.TP, r.PP, r.DP, r.ZeRO, r.GradCheckpointing)
	}
	noted := false
	for _, n := range r.Notes {
		noted = noted || n.Key == plan.MsgNoteStackDPFT
	}
	if !noted {
		t.Errorf("no note names the data-parallel stack: %v", r.Notes)
	}
	// The split the planner no longer picks, as the user's own layout:
	// faster on paper, on no stack, and its note says so.
	fixed := req
	fixed.FixedParallelism = true
	fixed.Input.GPUs, fixed.Input.TP, fixed.Input.ZeRO = 8, 2, 3
	fr, err := plan.Plan(fixed, []plan.Offer{o}, plan.Options{})
	if err != nil || len(fr.Rows) != 1 || !fr.Rows[0].Fits {
		t.Fatalf("TP 2 ZeRO-3: %v, %+v", err, fr.Rows)
	}
	tp2 := fr.Rows[0]
	if ratio := r.JobSeconds / tp2.JobSeconds; !(ratio > 1.15 && ratio < 1.35) {
		t.Errorf("data-parallel with checkpointing %.0f s, TP 2 without %.0f s: ratio %.2f, want the recompute's ~1.33", r.JobSeconds, tp2.JobSeconds, ratio)
	}
	if n := len(tp2.Notes); n == 0 || tp2.Notes[n-1].Key != plan.MsgNoteStackNone {
		t.Errorf("TP 2 at ZeRO-3's notes: %v, want note.stack_none last", tp2.Notes)
	}
}

// TestZeRO1NoteNamesFSDPsStrategy: FSDP has no optimizer-only sharding
// (its strategies are NO_SHARD, SHARD_GRAD_OP and FULL_SHARD), so a
// data-parallel row at ZeRO-1 does not say "FSDP or DeepSpeed runs it":
// DeepSpeed runs it, FSDP as SHARD_GRAD_OP. Other stages keep the plain
// note.
func TestZeRO1NoteNamesFSDPsStrategy(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Task = estimator.Pretrain
	o := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	for zero, key := range map[int]plan.Msg{1: plan.MsgNoteStackDPZero1, 3: plan.MsgNoteStackDP} {
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}, FixedParallelism: true}
		req.Input.GPUs, req.Input.ZeRO = 8, zero
		res, err := plan.Plan(req, []plan.Offer{o}, plan.Options{})
		if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits {
			t.Fatalf("ZeRO-%d: %v, %+v", zero, err, res.Rows)
		}
		var got []plan.Msg
		for _, n := range res.Rows[0].Notes {
			if strings.HasPrefix(n.Key.String(), "note.stack_") {
				got = append(got, n.Key)
				if zero == 1 && strings.Contains(n.String(), "FSDP or DeepSpeed runs it") {
					t.Errorf("ZeRO-1: %q", n.String())
				}
			}
		}
		if len(got) != 1 || got[0] != key {
			t.Errorf("ZeRO-%d: stack notes %v, want %s", zero, got, key)
		}
	}
}

// TestLitGPTLayouts: a job planned for LitGPT's fine-tune scripts
// (Request.LitGPT) is laid out only as they run it: one GPU as the job
// is, FSDP full shard (ZeRO-3) with every Block recomputed on more, QLoRA
// on one GPU only; the Trainer's cheapest rental layout of the same job
// on 8 H100s (ZeRO-0 data parallelism, no recompute) is not one of them.
// A layout given that LitGPT does not run is refused with its reason.
func TestLitGPTLayouts(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	one, eight := gpuOffer(t, "h100-sxm", 1, estimator.BF16), gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	one.ID, eight.ID = "one", "eight"
	keys := func(r plan.Row) string {
		var k []string
		for _, n := range r.Notes {
			k = append(k, n.Key.String())
		}
		return strings.Join(k, " ")
	}
	for _, task := range []estimator.Task{estimator.LoRA, estimator.FullFinetune, estimator.QLoRA} {
		job := in
		job.Task = task
		req := plan.Request{Input: job, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}, LitGPT: true}
		res, err := plan.Plan(req, []plan.Offer{one, eight}, plan.Options{KeepUnfit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rows {
			where := task.String() + " on " + r.Offer.ID
			gpus := r.DP * r.TP * r.PP
			switch {
			case task == estimator.QLoRA && r.Offer.ID == "eight":
				if r.Fits || r.FitReason.Key != plan.MsgFitLitGPTQLoRA {
					t.Errorf("%s: fits %v, %v; want refused: lora.py runs QLoRA on one GPU", where, r.Fits, r.FitReason)
				}
				continue
			case !r.Fits && task == estimator.FullFinetune && r.Offer.ID == "one":
				continue // 16 bytes a parameter: more than one H100, and no network between instances
			case !r.Fits:
				t.Errorf("%s: %v", where, r.FitReason)
				continue
			case r.TP != 1 || r.PP != 1 || r.Offload != estimator.OffloadNone:
				t.Errorf("%s: TP %d PP %d offload %v", where, r.TP, r.PP, r.Offload)
			case gpus == 1 && (r.GradCheckpointing || r.ZeRO != 0):
				t.Errorf("%s: one GPU at ZeRO-%d, checkpointing %v; LitGPT runs it as is", where, r.ZeRO, r.GradCheckpointing)
			case gpus > 1 && (r.ZeRO != 3 || !r.GradCheckpointing):
				t.Errorf("%s: %d GPUs at ZeRO-%d, checkpointing %v; LitGPT's FSDP is ZeRO-3 with every Block recomputed", where, gpus, r.ZeRO, r.GradCheckpointing)
			}
			if k := keys(r); !strings.Contains(k, plan.MsgNoteStackLitGPT.String()) || strings.Contains(k, plan.MsgNoteStackDP.String()) || strings.Contains(k, "note.rental_layout") {
				t.Errorf("%s: notes %s; want LitGPT's stack note alone", where, k)
			}
		}
	}
	// A full fine-tune's global batch of 16 on 8 GPUs accumulates 2
	// micro-batches under FSDP's no_sync, which holds the whole model's
	// gradients between syncs: the row's memory is the estimate's with it.
	full := in
	full.Task = estimator.FullFinetune
	req := plan.Request{Input: full, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8, GlobalBatchTokens: float64(16 * in.Seq)}, LitGPT: true}
	res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{})
	if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits || res.Rows[0].DP != 8 {
		t.Fatalf("full fine-tune on 8 H100s: %v %+v", err, res.Rows)
	}
	at := full
	at.GPUs, at.ZeRO, at.GradCheckpointing = 8, 3, true
	at.FSDPNoSync = estimator.FSDPNoSyncDefault(at, estimator.Workload{GlobalBatch: 16})
	if !at.FSDPNoSync {
		t.Fatal("8 GPUs stepping 16 sequences do not accumulate")
	}
	headroom := func(noSync bool) float64 {
		fixed := req
		fixed.Input, fixed.FixedParallelism = at, true
		fixed.Input.FSDPNoSync = noSync
		res, err := plan.Plan(fixed, []plan.Offer{eight}, plan.Options{})
		if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits {
			t.Fatalf("the layout given, no_sync %v: %v %+v", noSync, err, res.Rows)
		}
		return res.Rows[0].HeadroomGiB
	}
	if got, want, without := res.Rows[0].HeadroomGiB, headroom(true), headroom(false); math.Abs(got-want) > 0.01 || !(without > want+1) {
		t.Errorf("full fine-tune on 8 H100s: %.2f GiB free a GPU; the same layout with no_sync's gradients %.2f, without %.2f", got, want, without)
	}
	// The Trainer's rental layout of the LoRA on 8 H100s, which LitGPT's
	// scripts do not run.
	job := in
	job.Task = estimator.LoRA
	req = plan.Request{Input: job, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
	if res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{}); err != nil || len(res.Rows) != 1 || res.Rows[0].ZeRO == 3 && res.Rows[0].GradCheckpointing {
		t.Errorf("the Trainer's layout: %v %+v; want one LitGPT does not run", err, res.Rows)
	}
	// Layouts given.
	for _, c := range []struct {
		task       estimator.Task
		gpus, zero int
		ckpt       bool
		want       plan.Msg
	}{
		{estimator.LoRA, 4, 3, true, plan.NoMsg},
		{estimator.LoRA, 4, 2, true, plan.MsgFitLitGPTLayout},
		{estimator.LoRA, 4, 3, false, plan.MsgFitLitGPTLayout},
		{estimator.LoRA, 1, 0, true, plan.MsgFitLitGPTLayout},
		{estimator.QLoRA, 2, 3, true, plan.MsgFitLitGPTQLoRA},
	} {
		job := in
		job.Task, job.GPUs, job.ZeRO, job.GradCheckpointing = c.task, c.gpus, c.zero, c.ckpt
		req := plan.Request{Input: job, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}, LitGPT: true, FixedParallelism: true}
		res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{KeepUnfit: true})
		if err != nil || len(res.Rows) != 1 {
			t.Fatalf("%+v: %v, %d rows", c, err, len(res.Rows))
		}
		r := res.Rows[0]
		if c.want == plan.NoMsg && (!r.Fits || !strings.Contains(keys(r), plan.MsgNoteStackLitGPT.String())) || c.want != plan.NoMsg && (r.Fits || r.FitReason.Key != c.want) {
			t.Errorf("%+v: fits %v, %v, notes %s; want %q", c, r.Fits, r.FitReason, keys(r), c.want)
		}
	}
}

// TestLitGPTBatchShortSaysLitGPTsFix: a LitGPT row of more GPUs than its
// global batch of 16 sequences feeds is refused with LitGPT's advice
// (fewer GPUs or a larger global batch: its scripts split no model), not
// the Megatron-class advice of TP, PP or context parallelism it cannot
// take. Llama 3.1 70B fully fine-tuned on 8-H100 instances: the fewest
// that hold it under FSDP full shard are 3, 24 GPUs, past 16.
func TestLitGPTBatchShortSaysLitGPTsFix(t *testing.T) {
	in := modelInput(t, "llama-3.1-70b")
	in.Task = estimator.FullFinetune
	eight := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	eight.NetworkGbps = 3200
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8, GlobalBatchTokens: float64(16 * in.Seq)}, LitGPT: true}
	res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{KeepUnfit: true})
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("%v %+v", err, res.Rows)
	}
	r := res.Rows[0]
	if r.Fits || r.FitReason.Key != plan.MsgFitBatchShortLitGPT || len(r.FitReason.Args) != 3 || r.FitReason.Args[0] != 24 || r.FitReason.Args[2] != 16 {
		t.Fatalf("fits %v, %v %v; want refused with LitGPT's batch advice: 24 GPUs, at most 16", r.Fits, r.FitReason.Key, r.FitReason.Args)
	}
	s := r.FitReason.String()
	if strings.Contains(s, "larger TP") || !strings.Contains(s, "--train.global_batch_size") || !strings.Contains(s, "at most 16 GPUs") {
		t.Errorf("LitGPT's advice: %q", s)
	}
	// The same job for the Trainer keeps the stacks' advice.
	req.LitGPT, req.FixedParallelism = false, true
	req.Input.GPUs, req.Input.ZeRO, req.Input.GradCheckpointing = 24, 3, true
	if res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{KeepUnfit: true}); err != nil || len(res.Rows) != 1 || res.Rows[0].FitReason.Key != plan.MsgFitBatchShort {
		t.Errorf("the Trainer's 24 GPUs: %v %+v", err, res.Rows)
	}
}

// TestLitGPTKeepsAGivenNoSync: a LitGPT row accumulates inside FSDP's
// no_sync, holding the whole model's gradients between syncs, unless the
// user said otherwise (--fsdp-no-sync=false: Request.FSDPNoSyncGiven);
// the planner took LitGPT's accumulation whatever the flag said. Llama
// 3.1 8B fully fine-tuned on 8 H100s at a global batch of 16: the row's
// memory is the fixed layout's without no_sync when the flag says so.
func TestLitGPTKeepsAGivenNoSync(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	in.Task = estimator.FullFinetune
	eight := gpuOffer(t, "h100-sxm", 8, estimator.BF16)
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8, GlobalBatchTokens: float64(16 * in.Seq)}, LitGPT: true}
	headroom := func(req plan.Request) float64 {
		t.Helper()
		res, err := plan.Plan(req, []plan.Offer{eight}, plan.Options{})
		if err != nil || len(res.Rows) != 1 || !res.Rows[0].Fits || res.Rows[0].DP != 8 {
			t.Fatalf("full fine-tune on 8 H100s: %v %+v", err, res.Rows)
		}
		return res.Rows[0].HeadroomGiB
	}
	def := headroom(req)
	off := req
	off.FSDPNoSyncGiven = true // --fsdp-no-sync=false
	got := headroom(off)
	fixed := off
	fixed.FixedParallelism = true
	fixed.Input.GPUs, fixed.Input.ZeRO, fixed.Input.GradCheckpointing = 8, 3, true
	if want := headroom(fixed); math.Abs(got-want) > 0.01 || !(got > def+1) {
		t.Errorf("--fsdp-no-sync=false: %.2f GiB free a GPU, want the layout without no_sync's %.2f (with it %.2f)", got, want, def)
	}
}
