package estimator

import (
	"math"
	"testing"
)

func TestRuleChecks(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	const p = 8030261248
	in := DefaultInput(a)
	in.GPUs, in.TP = 2, 2 // rules are compared with one unsharded copy
	got, n, err := RuleChecks(in)
	if err != nil {
		t.Fatal(err)
	}
	one := DefaultInput(a)
	want := mustEstimate(t, one).PerGPU.Total()
	if n != 2 || got[0].Rule != RuleParams4Bytes || got[1].Rule != RuleWeights1_2 {
		t.Fatalf("inference rules: %d %+v", n, got[:n])
	}
	if got[0].Bytes != 4*p || got[0].Estimate != want {
		t.Errorf("params×4: %d vs estimate %d, want %d vs %d", got[0].Bytes, got[0].Estimate, int64(4*p), want)
	}
	// bf16 weights 2·p bytes × 1.2.
	if w := Bytes(math.Ceil(2 * p * 1.2)); got[1].Bytes != w {
		t.Errorf("weights×1.2 = %d, want %d", got[1].Bytes, w)
	}
	// Short context, batch 1: the ×4 rule nearly doubles the real need.
	if e := got[0].Error(); e < 0.8 || e > 1.0 {
		t.Errorf("params×4 error %.2f, want about +87%%", e)
	}

	// On vLLM at an 80 GiB GPU the pool fills 0.9 of it (54 GiB of KV);
	// the rules are compared with the pool holding the batch's one
	// sequence: weights × 1.2 is close (it read −75% against the fill),
	// ×4 bytes still overshoots.
	in = DefaultInput(a)
	in.Engine, in.VRAM = VLLM, 80*GiB
	full := mustEstimate(t, in)
	if got, _, err = RuleChecks(in); err != nil {
		t.Fatal(err)
	}
	batchKV := float64(full.PerGPU.KVCache) / float64(full.MaxConcurrentSeqs)
	if want := full.PerGPU.Total() - full.PerGPU.KVCache + Bytes(batchKV); got[0].Estimate != want || full.MaxConcurrentSeqs < 100 {
		t.Errorf("vLLM: rules compared with %d, want %d (pool of %d sequences)", got[0].Estimate, want, full.MaxConcurrentSeqs)
	}
	if e := got[1].Error(); e < -0.1 || e > 0.1 {
		t.Errorf("vLLM: weights×1.2 error %.2f, want within ±10%%", e)
	}
	if e := got[0].Error(); e < 0.5 {
		t.Errorf("vLLM: params×4 error %.2f, want above +50%%", e)
	}

	in = DefaultInput(a)
	in.Task, in.Batch, in.Seq = FullFinetune, 8, 4096
	got, n, err = RuleChecks(in)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || got[1].Rule != RuleParamMemory1_5 || got[2].Rule != RuleHF18Bytes {
		t.Fatalf("training rules: %d %+v", n, got[:n])
	}
	if got[1].Bytes != 3*p || got[2].Bytes != 18*p {
		t.Errorf("param memory×1.5 = %d (want %d), 18 B/param = %d (want %d)", got[1].Bytes, int64(3*p), got[2].Bytes, int64(18*p))
	}
	// Both training rules under-size a batch-8 × 4k fine-tune: activations.
	if got[1].Error() >= 0 || got[2].Error() >= 0 {
		t.Errorf("training rules should under-size this job: %.2f %.2f", got[1].Error(), got[2].Error())
	}
	in.Batch = 0
	if _, _, err := RuleChecks(in); err == nil {
		t.Error("invalid input accepted")
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _, _ = RuleChecks(DefaultInput(a)) }); allocs != 0 {
		t.Errorf("RuleChecks allocates %.0f times", allocs)
	}
}
