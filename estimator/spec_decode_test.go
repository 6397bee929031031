package estimator

import (
	"errors"
	"math"
	"testing"
)

// specInput is DeepSeek-V3 FP8 on eight H200s under SGLang (TP 8), the
// layout SGLang's DeepSeek usage docs measure MTP on.
func specInput(t *testing.T) (Input, Hardware) {
	t.Helper()
	in, hw := disaggInput(t)
	in.TP, in.GPUs = 8, 8
	return in, hw
}

// TestServingMTP: speculative decoding with DeepSeek's MTP module on one
// aggregated copy. SGLang's DeepSeek usage docs measure one draft token
// (--speculative-num-steps 1 --speculative-num-draft-tokens 2) at 1.8×
// the decode speed at batch 1 and 1.5× at batch 32 on H200 TP 8, the
// figures TestDisaggMTP holds the disaggregated decode worker to; the
// aggregated closed form's TPOT ratio is held within 15% of both. The
// simulator's step (StepSeconds) and the closed form's decode step are one
// figure, and the disaggregated decode worker's step over its accepted
// tokens is that figure too.
func TestServingMTP(t *testing.T) {
	in, hw := specInput(t)
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	for _, c := range []struct {
		conc  int
		speed float64
	}{{1, 1.8}, {32, 1.5}} {
		plain := NewServingModel(in, hw, Efficiency{}, w)
		p0, err := plain.Perf(c.conc)
		if err != nil {
			t.Fatal(err)
		}
		mi := in
		mi.DraftTokens = 1
		mtp := NewServingModel(mi, hw, Efficiency{}, w)
		p1, err := mtp.Perf(c.conc)
		if err != nil {
			t.Fatal(err)
		}
		if r := p0.DecodeTokenLatency / p1.DecodeTokenLatency; math.Abs(r/c.speed-1) > 0.15 {
			t.Errorf("concurrency %d: MTP speeds decode %.2f×, want %.1f× within 15%%", c.conc, r, c.speed)
		}
		// One story: the simulator's decode-only step at the closed
		// form's context (a token of each sequence's worth) is the closed
		// form's draft-and-verify step over the 1.92 tokens it yields.
		ctx := float64(c.conc) * (1024 + 512)
		if p1.AcceptedTokens != 1.92 || p0.AcceptedTokens != 0 {
			t.Errorf("accepted tokens a step %g with one draft, %g without; want 1.92 and 0", p1.AcceptedTokens, p0.AcceptedTokens)
		}
		if s := mtp.StepSeconds(Step{DecodeSeqs: c.conc, DecodeContext: ctx}); math.Abs(s*1.92-p1.DecodeStepSeconds) > 1e-12*s {
			t.Errorf("concurrency %d: StepSeconds %g s a token, closed form's step %g s", c.conc, s, p1.DecodeStepSeconds)
		}
		// The disaggregated decode worker of the same layout prices its
		// step the same way: its step over the tokens it yields.
		d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1},
			Concurrency: c.conc, DraftTokens: 1}
		dp, err := DisaggServing(in, hw, Efficiency{}, w, d)
		if err != nil {
			t.Fatal(err)
		}
		if dp.DecodeBatch == float64(c.conc) {
			if s := mtp.StepSeconds(Step{DecodeSeqs: c.conc, DecodeContext: ctx}); math.Abs(dp.TPOTSeconds-s) > 1e-9*s {
				t.Errorf("concurrency %d: disaggregated TPOT %g s, aggregated step %g s", c.conc, dp.TPOTSeconds, s)
			}
		}
	}
}

// TestSpecStepParts: a prefill-only step runs the MTP module over its
// prompts (1 + 1/61 of the plain step for DeepSeek-V3's 61 layers); a
// decode-only step is the verify step plus d module passes over the
// tokens a step yields (1.92 at one draft); a mixed step is its prompt
// part at 1 + 1/61 plus that decode figure.
func TestSpecStepParts(t *testing.T) {
	in, hw := specInput(t)
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	plain := NewServingModel(in, hw, Efficiency{}, w)
	in.DraftTokens = 1
	mtp := NewServingModel(in, hw, Efficiency{}, w)
	block := 1.0 / 61
	pre := Step{PrefillTokens: 1024, PrefillSeqs: 1, PrefillContext: 1024 * 1025 / 2, PrefillKV: 1024}
	if a, b := plain.StepSeconds(pre), mtp.StepSeconds(pre); math.Abs(b/a-(1+block)) > 1e-12 {
		t.Errorf("prefill step %g s with MTP, %g s without: ratio %g, want %g", b, a, b/a, 1+block)
	}
	dec := Step{DecodeSeqs: 16, DecodeContext: 16 * 1500}
	one := plain.StepSeconds(dec)
	verify := plain.StepSeconds(Step{DecodeSeqs: 16, DecodeContext: 16 * 1500, PrefillTokens: 16, PrefillSeqs: 16,
		PrefillContext: 16 * 1500, PrefillKV: 16, Verify: true})
	want := (verify + block*one) / 1.92
	if got := mtp.StepSeconds(dec); math.Abs(got-want) > 1e-12*want {
		t.Errorf("decode step %g s, want (verify %g + block × %g) / 1.92 = %g", got, verify, one, want)
	}
	if !(verify > one) {
		t.Errorf("verify step %g s not longer than the decode step %g s", verify, one)
	}
	mixed := Step{DecodeSeqs: 16, DecodeContext: 16 * 1500, PrefillTokens: 1024, PrefillSeqs: 1, PrefillContext: 1024 * 1025 / 2,
		PrefillKV: 1024}
	wantMixed := (plain.StepSeconds(mixed)-one)*(1+block) + want
	if got := mtp.StepSeconds(mixed); math.Abs(got-wantMixed) > 1e-12*wantMixed {
		t.Errorf("mixed step %g s, want %g", got, wantMixed)
	}
}

// TestMTPModuleMemory: the draft module's block (DeepSeek-V3: 11.6B of the
// checkpoint's 13.5B MTP parameters, the embedding and head shared) on
// eight GPUs at FP8 is about 1.45 GB a GPU, which the KV pool gives up.
func TestMTPModuleMemory(t *testing.T) {
	in, _ := specInput(t)
	if p := draftModuleParams(in.Arch); math.Abs(p/11.6e9-1) > 0.01 {
		t.Errorf("module %.4g parameters, want about 11.6e9", p)
	}
	r0, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	in.DraftTokens = 2
	r1, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	if d := float64(r1.PerGPU.Weights - r0.PerGPU.Weights); math.Abs(d/1.45e9-1) > 0.03 {
		t.Errorf("the module adds %.3g B a GPU, want about 1.45e9", d)
	}
	if !(r1.KVPoolTokens < r0.KVPoolTokens) {
		t.Errorf("KV pool %d tokens with the module, %d without", r1.KVPoolTokens, r0.KVPoolTokens)
	}
}

// TestSpecDecodeInputErrors: a model without an MTP module, an engine that
// does not run one (TensorRT-LLM for another family's module), training,
// too many drafts and an acceptance out of range are input errors on
// their field.
func TestSpecDecodeInputErrors(t *testing.T) {
	in, _ := specInput(t)
	llama := in
	llama.Arch = loadArch(t, "llama-2-7b-hf.json")
	for _, c := range []struct {
		f     func(*Input)
		base  Input
		field string
	}{
		{func(i *Input) { i.DraftTokens = 1 }, llama, "mtp-draft-tokens"},
		{func(i *Input) { i.DraftTokens = 17 }, in, "mtp-draft-tokens"},
		{func(i *Input) { i.DraftTokens = -1 }, in, "mtp-draft-tokens"},
		{func(i *Input) { i.DraftTokens, i.Engine = 1, HF }, in, "mtp-draft-tokens"},
		{func(i *Input) { i.DraftTokens, i.Task = 1, LoRA }, in, "mtp-draft-tokens"},
		{func(i *Input) { i.DraftTokens, i.DraftAcceptance = 1, 1 }, in, "mtp-acceptance"},
		{func(i *Input) { i.DraftTokens, i.DraftAcceptance = 1, math.NaN() }, in, "mtp-acceptance"},
		{func(i *Input) { i.DraftTokens, i.Engine, i.Arch = 1, TRTLLM, loadArch(t, "glm-4.5-air.json") }, in, "mtp-draft-tokens"},
	} {
		i := c.base
		c.f(&i)
		err := i.Validate()
		var ie *InputError
		found := false
		for _, e := range unwrapAll(err) {
			if errors.As(e, &ie) && ie.Field == c.field {
				found = true
			}
		}
		if !found {
			t.Errorf("%+v: err %v, want an InputError on %s", i.DraftTokens, err, c.field)
		}
	}
	ok := in
	ok.DraftTokens, ok.DraftAcceptance = 3, 0.7
	if err := ok.Validate(); err != nil {
		t.Errorf("3 drafts at 0.7: %v", err)
	}
	// GLM-4.5's module on vLLM and SGLang, DeepSeek's on TensorRT-LLM.
	glm := in
	glm.Arch, glm.DraftTokens = loadArch(t, "glm-4.5-air.json"), 1
	for _, e := range []Engine{VLLM, SGLang} {
		glm.Engine = e
		if err := glm.Validate(); err != nil {
			t.Errorf("GLM-4.5-Air MTP on %v: %v", e, err)
		}
	}
	ok.Engine = TRTLLM
	if err := ok.Validate(); err != nil {
		t.Errorf("DeepSeek MTP on TensorRT-LLM: %v", err)
	}
}

// unwrapAll is err's joined errors, or err alone.
func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// TestDisaggTakesTheJobsDrafts: a disaggregated replica sized for a job
// with drafts (a planner's alternative names none in its Disagg) runs
// them, as the job's aggregated copies do.
func TestDisaggTakesTheJobsDrafts(t *testing.T) {
	in, hw := specInput(t)
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Concurrency: 8}
	plain, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	in.DraftTokens = 2
	job, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	d.DraftTokens = 2
	named, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	if plain.AcceptedTokens != 1 || job.AcceptedTokens != 2.58 || job != named {
		t.Errorf("accepted tokens a step %g without drafts, %g with the job's, and the job's point %+v against the named %+v",
			plain.AcceptedTokens, job.AcceptedTokens, job, named)
	}
}
