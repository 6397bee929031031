package estimator

import (
	"math"
	"testing"
)

// TestAttnLinearParams: DeepSeek-V3's attention projections by hand
// (config.json: hidden 7168, 128 heads, q_lora_rank 1536, kv_lora_rank
// 512, qk_nope 128, qk_rope 64, v_head_dim 128, 61 layers): q_a 7168 ×
// 1536 = 11,010,048; q_b 1536 × 128 × 192 = 37,748,736; kv_a 7168 × 576 =
// 4,128,768; kv_b 512 × 128 × 256 = 16,777,216; o 128 × 128 × 7168 =
// 117,440,512; 187,105,280 a layer, 11,413,422,080 in all. A GQA layer of
// Llama 3 8B's shape (hidden 4096, 32 heads, 8 KV heads of 128): QKV 4096
// × 6144 = 25,165,824 and O 4096 × 4096 = 16,777,216, 41,943,040 a layer,
// 1,342,177,280 over 32 layers.
func TestAttnLinearParams(t *testing.T) {
	if got := attnLinearParams(loadArch(t, "deepseek-v3.json")); got != 11_413_422_080 {
		t.Errorf("DeepSeek-V3: %.0f, want 11,413,422,080", got)
	}
	gqa := Arch{Hidden: 4096, Layers: 32, Heads: 32, KVHeads: 8, HeadDim: 128}
	if got := attnLinearParams(gqa); got != 1_342_177_280 {
		t.Errorf("GQA: %.0f, want 1,342,177,280", got)
	}
}

// TestRankSkewSeconds: the busiest of the ranks holds ⌈k/ranks⌉ whole
// prompts, each taking ranks × attn there, against the k × attn the step
// counted.
func TestRankSkewSeconds(t *testing.T) {
	for _, c := range []struct {
		attn, k, ranks, want float64
	}{
		{1, 1, 8, 7},     // one prompt on one of 8 ranks: 8 × attn, 1 counted
		{1, 8, 8, 0},     // one prompt a rank: balanced
		{1, 9, 8, 7},     // 2 on the busiest: 16 against 9
		{2, 5, 4, 6},     // 2 on the busiest: 2 × (8 − 5)
		{1, 3, 1, 0},     // no attention DP
		{0, 1, 8, 0},     // no attention
		{1, 0, 8, 0},     // no prompt
		{1, 1.5, 8, 6.5}, // the closed form's fractional batch: 8 − 1.5
		{1, math.NaN(), 8, 0},
	} {
		if got := rankSkewSeconds(c.attn, c.k, c.ranks); got != c.want {
			t.Errorf("rankSkewSeconds(%g, %g, %g) = %g, want %g", c.attn, c.k, c.ranks, got, c.want)
		}
	}
}

// TestDisaggAttentionDPPrefill: one request in flight on a TP 8 DP 8 EP 8
// prefill worker is one rank's: its forward is the step as the model
// spreads it with 7 × its attention's compute more on that rank, under the
// same roofline. DeepSeek-V3's attention is a third of the FLOPs of a
// 900-token prompt (11.4 B attention projection parameters of the 36.6 B
// it multiplies by, plus the scores), 3.6 ms of compute spread over the 8
// GPUs, while the 41 ms forward is mostly the experts' weight reads (84 GB
// of FP8 a GPU) and the per-layer costs: 9% of it. On one rank the
// attention is 29 ms of compute, which the weight reads partly hide: the
// forward takes 60 ms, between the step plus half the 25 ms and the step
// plus all of it. The same worker without attention DP pays nothing.
func TestDisaggAttentionDPPrefill(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 100}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 8, EP: 8}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1},
		Concurrency: 1, RequestSeconds: 0.040}
	p, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	pi := in
	pi.TP, pi.DP, pi.EP, pi.GPUs = 8, 8, 8, 8
	m := NewServingModel(pi, hw, Efficiency{}, w)
	prompt, _ := SampleLengths(in, w)
	st := Step{PrefillTokens: int(prompt), PrefillSeqs: 1, PrefillContext: prompt * (prompt + 1) / 2, PrefillKV: prompt}
	spread := spreadAttention(m)
	step := spread.StepSeconds(st) // the attention spread over the 8 GPUs
	mm := &m.m
	attn := mm.chunkAttnSeconds(prompt, mm.sc.attended((prompt+1)/2))
	if share := attn / step; !(share > 0.05 && share < 0.15) {
		t.Errorf("attention %.4g s of a %.4g s forward (%.2f): want about 9%%", attn, step, share)
	}
	ctok, lctx, kv := mm.stepLoad(st, prompt, 0)
	c, mem := mm.deviceTerms(prompt, ctok, lctx, kv)
	// The worker's time for the prompt: the forward with its busiest
	// rank's attention, and SGLang's handover work (PrefillHandoverSeconds).
	h := PrefillHandoverSeconds(in.Engine)
	if in.Engine != SGLang || h != 0.015 {
		t.Fatalf("engine %v, handover %g s: the test wants SGLang's 15 ms", in.Engine, h)
	}
	if want := step + rooflineTime(c+7*attn, mem) - rooflineTime(c, mem); math.Abs(p.PrefillSeconds/want-1) > 1e-9 || math.Abs(p.PrefillHandoverSeconds-h) > 1e-15 ||
		p.PrefillBatch != 1 || math.Abs(m.StepSeconds(st)/want-1) > 1e-12 {
		t.Errorf("prefill %.6g s + %.6g s of handover of batch %.3g (step %.6g s), want %.6g s + %g s of 1", p.PrefillSeconds,
			p.PrefillHandoverSeconds, p.PrefillBatch, m.StepSeconds(st), want, h)
	}
	if f := p.PrefillSeconds; !(f > step+3.5*attn && f < step+7*attn) {
		t.Errorf("prefill forward %.4g s: want between %.4g and %.4g", f, step+3.5*attn, step+7*attn)
	}
	d.Prefill.DP = 1
	q, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	pi.DP = 1
	m1 := NewServingModel(pi, hw, Efficiency{}, w)
	if want := m1.StepSeconds(Step{PrefillTokens: int(prompt), PrefillSeqs: 1, PrefillContext: prompt * (prompt + 1) / 2,
		PrefillKV: prompt}); math.Abs(q.PrefillSeconds/want-1) > 1e-9 || q.PrefillHandoverSeconds != p.PrefillHandoverSeconds {
		t.Errorf("DP 1: prefill %.6g s + %.6g s, want the step's %.6g s + %.6g s", q.PrefillSeconds, q.PrefillHandoverSeconds, want, p.PrefillHandoverSeconds)
	}
}

// TestDecodeAdmissionSteps: SGLang's decode worker admits a handed-over
// request in its loop (one decode step, half for the pre-allocation and
// half for the transfer poll); the other engines add none.
func TestDecodeAdmissionSteps(t *testing.T) {
	if decodeAdmissionSteps(SGLang) != 1 || decodeAdmissionSteps(TRTLLM) != 0 || decodeAdmissionSteps(VLLM) != 0 {
		t.Errorf("admission steps: SGLang %g, TensorRT-LLM %g, vLLM %g; want 1, 0, 0", decodeAdmissionSteps(SGLang),
			decodeAdmissionSteps(TRTLLM), decodeAdmissionSteps(VLLM))
	}
}

// spreadAttention is m with its prompt chunks' attention spread over all
// its GPUs, as a copy without attention DP prices it (rankSkewGrowth
// aside): the figure the skew is measured against.
func spreadAttention(m ServingModel) ServingModel {
	m.m.dpRanks = 1
	return m
}

// TestRankSkewAggregatedStep: an aggregated copy with attention DP prices
// its mixed steps the way a prefill worker's forward is priced: one
// prompt chunk among 8 ranks puts its attention on one rank (the step
// grows), eight chunks of equal size, one a rank, cost what the spread
// step costs, and nine load one rank with two. Decodes alone, a
// speculative step's draft tokens and a copy without attention DP are
// untouched.
func TestRankSkewAggregatedStep(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.DP, in.EP, in.GPUs = 8, 8, 8, 8
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	m := NewServingModel(in, hw, Efficiency{}, w)
	spread := spreadAttention(m)
	step := func(k int) Step {
		return Step{PrefillTokens: 512 * k, PrefillSeqs: k, PrefillContext: float64(k) * 512 * 513 / 2, PrefillKV: float64(512 * k),
			DecodeSeqs: 64, DecodeContext: 64 * 1500}
	}
	for _, c := range []struct {
		k        int
		min, max float64 // the step over the spread one
	}{{1, 1.02, 1.5}, {8, 1, 1}, {9, 1.02, 1.5}} {
		st := step(c.k)
		got, base := m.StepSeconds(st), spread.StepSeconds(st)
		if r := got / base; r < c.min || r > c.max || math.IsNaN(r) {
			t.Errorf("%d chunks of 512 beside 64 decodes: %.4g s against %.4g s spread (%.3f×), want %.2f–%.2f×", c.k, got, base, r, c.min, c.max)
		}
	}
	// Nine chunks load one rank with two: the same 7 chunks' attention
	// beyond the spread step as one chunk, on a step more bound by its
	// compute, so at least as long (the roofline hides less of it): 7.1
	// and 10.7 ms here.
	if one, nine := m.StepSeconds(step(1))-spread.StepSeconds(step(1)), m.StepSeconds(step(9))-spread.StepSeconds(step(9)); !(nine >= one && one > 0.005 && nine < 0.015) {
		t.Errorf("skew of 9 chunks %.4g s, of 1 chunk %.4g s: want 9's at least 1's, about 7 and 11 ms", nine, one)
	}
	dec := Step{DecodeSeqs: 256, DecodeContext: 256 * 1500}
	ver := Step{DecodeSeqs: 256, DecodeContext: 256 * 1500, PrefillTokens: 256, PrefillSeqs: 256, PrefillContext: 256 * 1500, PrefillKV: 256, Verify: true}
	for _, st := range []Step{dec, ver} {
		if got, want := m.StepSeconds(st), spread.StepSeconds(st); got != want {
			t.Errorf("step %+v: %.6g s, want the spread %.6g s", st, got, want)
		}
	}
	// The closed form's prefill takes the same skew: a lone prompt is one
	// rank's, eight prompts fill the ranks; the marginal prompt keeps the
	// spread figure.
	lone, lone1 := m.m.prefill(1, 1000)
	spreadLone, _ := spread.m.prefill(1, 1000)
	eight, _ := m.m.prefill(8, 1000)
	spreadEight, _ := spread.m.prefill(8, 1000)
	if !(lone > 1.02*spreadLone) || eight != spreadEight || m.m.prefillMarginal(1000) != spread.m.prefillMarginal(1000) {
		t.Errorf("closed form: lone prompt %.4g s (%v) against %.4g s spread, eight %.4g against %.4g, marginal %.4g against %.4g",
			lone, lone1, spreadLone, eight, spreadEight, m.m.prefillMarginal(1000), spread.m.prefillMarginal(1000))
	}
	in.DP = 1
	m1 := NewServingModel(in, hw, Efficiency{}, w)
	if m1.m.dpRanks != 1 {
		t.Errorf("DP 1: %g ranks", m1.m.dpRanks)
	}
}

// FuzzStepSecondsDP: any step on a copy with attention DP prices finite and
// at least the step with the prompts' attention spread (the skew only adds,
// and adds nothing to decode-only and speculative steps), whatever the
// step's counts and context sums.
func FuzzStepSecondsDP(f *testing.F) {
	f.Add(512, 1, 131328.0, 512.0, 64, 96000.0, false, uint8(8))
	f.Add(4096, 9, 1e9, 4096.0, 0, 0.0, false, uint8(4))
	f.Add(256, 256, 384000.0, 256.0, 256, 384000.0, true, uint8(8))
	f.Add(-3, -1, math.NaN(), math.Inf(1), -5, math.Inf(-1), false, uint8(2))
	in := DefaultInput(loadArch(f, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.KV, in.VRAM = Inference, SGLang, FP8, BF16, 141*GiB
	hw := Hardware{PeakFLOPS: 1979e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	models := map[uint8][2]ServingModel{}
	f.Fuzz(func(t *testing.T, prompt, seqs int, ctx, kv float64, decode int, dctx float64, verify bool, dp uint8) {
		ranks := []int{2, 4, 8}[int(dp)%3]
		pair, ok := models[uint8(ranks)]
		if !ok {
			in := in
			in.TP, in.DP, in.EP, in.GPUs = 8, ranks, 8, 8
			m := NewServingModel(in, hw, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 100})
			pair = [2]ServingModel{m, spreadAttention(m)}
			models[uint8(ranks)] = pair
		}
		st := Step{PrefillTokens: prompt % 70000, PrefillSeqs: seqs % 1024, PrefillContext: ctx, PrefillKV: kv,
			DecodeSeqs: decode % 4096, DecodeContext: dctx, Verify: verify}
		got, base := pair[0].StepSeconds(st), pair[1].StepSeconds(st)
		if math.IsNaN(got) || math.IsInf(got, 0) || got < 0 {
			t.Fatalf("step %+v on DP %d: %v s", st, ranks, got)
		}
		if got < base-1e-12*base {
			t.Fatalf("step %+v on DP %d: %v s, below the spread step's %v s", st, ranks, got, base)
		}
		if (st.PrefillTokens <= 0 || verify) && got != base {
			t.Fatalf("step %+v on DP %d: %v s, want the spread step's %v s (no prompt tokens of its own)", st, ranks, got, base)
		}
	})
}
