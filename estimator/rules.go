package estimator

// Rules of thumb that GPU-selection guides and popular calculators give,
// next to this estimator's figure for the same job, so that a user can see
// where a rule holds and where it misses (KV cache at long context,
// activations at large batch, optimizer states in training).

// Rule names a rule of thumb.
type Rule int

const (
	// RuleParams4Bytes is the naive "VRAM ≈ parameters × 4 bytes (+ batch ×
	// input size)" that GPU-selection guides give; the input term is a
	// few MB and left out.
	RuleParams4Bytes Rule = iota
	// RuleParamMemory1_5 is "VRAM ≥ parameter memory × 1.5 for optimizer
	// states" from the same guides, for training; parameter memory is
	// parameters × the bytes of the chosen weight precision.
	RuleParamMemory1_5
	// RuleWeights1_2 is weights × 1.2 for serving: M = P·4B/(32/Q)·1.2
	// (substratus.ai, "Calculating GPU memory for serving LLMs"), the flat
	// overhead factor many calculators use.
	RuleWeights1_2
	// RuleHF18Bytes is 18 bytes per parameter plus activations for
	// mixed-precision AdamW training (huggingface/transformers docs,
	// model_memory_anatomy.md: 6 weights + 4 gradients + 8 optimizer).
	// Shown without activations, as the rule gives no number for them.
	RuleHF18Bytes
	numRules
)

var ruleNames = [...]string{
	RuleParams4Bytes: "params-x4-bytes", RuleParamMemory1_5: "param-memory-x1.5",
	RuleWeights1_2: "weights-x1.2", RuleHF18Bytes: "hf-18-bytes-per-param",
}

// String returns a stable name for the rule.
func (r Rule) String() string { return enumName(ruleNames[:], int(r), "Rule") }

// RuleCheck is one rule's figure for a job and the estimator's figure for
// the same job held by one copy of the model on one GPU (no sharding, no
// offload), which is what the rules describe.
type RuleCheck struct {
	Rule     Rule
	Bytes    Bytes // what the rule says
	Estimate Bytes // Estimate(...).PerGPU.Total() for one unsharded copy, a pooled engine's KV pool holding the batch
}

// Error is the rule's relative error against the estimate: (rule −
// estimate) / estimate; negative means the rule under-sizes the GPU.
func (c RuleCheck) Error() float64 {
	if c.Estimate <= 0 {
		return 0
	}
	return float64(c.Bytes-c.Estimate) / float64(c.Estimate)
}

// RuleChecks evaluates the rules of thumb that apply to the job's task
// (serving rules for inference, training rules for training) and returns
// them in a fixed-size array with the count used, so that it does not
// allocate. An invalid input returns its validation error.
func RuleChecks(in Input) ([numRules]RuleCheck, int, error) {
	var out [numRules]RuleCheck
	one := in
	one.GPUs, one.TP, one.PP, one.ZeRO, one.Offload, one.UsableVRAM = 1, 1, 1, 0, OffloadNone, 0
	r, err := Estimate(one)
	if err != nil {
		return out, 0, err
	}
	est := r.PerGPU.Total()
	if in.Engine.Pooled() && r.MaxConcurrentSeqs >= 1 {
		// A pooled engine takes its memory share of the GPU whatever the
		// job (vLLM's gpu_memory_utilization, 0.9 by default): its KV
		// pool is sized by the GPU, and a rule, which sizes the job, met
		// the pool's fill ("−75%" for weights × 1.2 on an 80 GB card
		// that a 24 GB card serves). It is compared with the pool
		// holding the job's batch: Batch of the MaxConcurrentSeqs
		// sequences of Seq tokens the pool holds.
		kv := r.PerGPU.KVCache
		est += Bytes(float64(kv)*float64(in.Batch)/float64(r.MaxConcurrentSeqs)) - kv
	}
	p := float64(r.Params)
	n := 0
	add := func(rule Rule, b float64) {
		out[n] = RuleCheck{Rule: rule, Bytes: toBytes(b), Estimate: est}
		n++
	}
	add(RuleParams4Bytes, p*4)
	train := in.Task != Inference
	switch {
	case !train:
		add(RuleWeights1_2, float64(r.PerGPU.Weights)*1.2)
	default:
		add(RuleParamMemory1_5, p*in.Weights.BitsPerElement()/8*1.5)
		if (in.Task == Pretrain || in.Task == FullFinetune) && in.Optimizer == AdamW && in.Weights != FP32 {
			add(RuleHF18Bytes, p*18)
		}
	}
	return out, n, nil
}
