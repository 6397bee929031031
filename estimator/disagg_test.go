package estimator

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// disaggInput is DeepSeek-V3 (MLA: one 576-element latent per token and
// layer) in FP8 with a BF16 KV cache on SGLang, on 141 GiB GPUs.
func disaggInput(t *testing.T) (Input, Hardware) {
	in := DefaultInput(loadArch(t, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.KV, in.VRAM = Inference, SGLang, FP8, BF16, 141*GiB
	hw := Hardware{PeakFLOPS: 1979e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	return in, hw
}

// TestDisaggWorkedExample: 1 prefill × TP 8 + 2 decode × TP 8 (16 GPUs,
// over the 8-GPU NVLink domain: the handover crosses the network), 1,000
// prompt and 1,000 output tokens, 64 requests in flight.
//
// KV bytes: DeepSeek-V3 caches kv_lora_rank 512 + qk_rope_head_dim 64 =
// 576 elements per token and layer, 61 layers, 2 bytes (BF16): 70,272 B
// per token, 70,272,000 B for the prompt. MLA's latent is whole on every
// rank, so one link carries it: Hopper's default network, 400 Gbit/s =
// 50e9 B/s per GPU: 1.40544 ms, plus the 36 ms handover = 37.40544 ms,
// plus SGLang's decode worker admitting the request in its loop: one
// decode step (decodeAdmissionSteps).
//
// The rest follows from the step model: TTFT = 40 ms request cost +
// queue + prefill + transfer (the first token streams when the request
// joins the decode batch, before its first decode step); TPOT = that
// step; and Little's law closes the loop: λ × (TTFT + 999 × TPOT) = 64.
func TestDisaggWorkedExample(t *testing.T) {
	in, hw := disaggInput(t)
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1, Batch: 8}, Decode: DisaggSide{Workers: 2, TP: 8, DP: 1, EP: 1},
		Concurrency: 64, RequestSeconds: 0.040}
	p, err := DisaggServing(in, hw, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000}, d)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*math.Abs(want) {
			t.Errorf("%s = %.9g, want %.9g", what, got, want)
		}
	}
	near("KV bytes", p.KVBytes, 70_272_000, 1e-12)
	near("KV transfer", p.KVTransferSeconds, 0.036+70_272_000/50e9+p.DecodeStepSeconds, 1e-12)
	near("TTFT", p.TTFTSeconds, 0.040+p.QueueSeconds+p.PrefillSeconds+p.PrefillHandoverSeconds+p.KVTransferSeconds, 1e-12)
	near("TPOT", p.TPOTSeconds, p.DecodeStepSeconds, 1e-12)
	near("Little's law", p.RequestsPerSecond*(p.TTFTSeconds+999*p.TPOTSeconds), 64, 1e-6)
	near("tokens/s", p.TokensPerSecond, 1000*p.RequestsPerSecond, 1e-12)
	// 2 decode workers hold the requests not in prefill or handover: at
	// most 32 each.
	if !(p.DecodeBatch > 20 && p.DecodeBatch <= 32) || p.GPUs != 24 || p.Bound != "concurrency" {
		t.Errorf("decode batch %.2f, GPUs %d, bound %s; want 20..32, 24, concurrency", p.DecodeBatch, p.GPUs, p.Bound)
	}
	// The prefill side's capacity is its largest batch over the worker's
	// time for that batch: its forward and, on SGLang, the 8 prompts'
	// handover work (PrefillHandoverSeconds, 15 ms each), and its load λ
	// over that capacity.
	m := NewServingModel(func() Input { i := in; i.TP = 8; return i }(), hw, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000})
	s8 := m.StepSeconds(Step{PrefillTokens: 8000, PrefillSeqs: 8, PrefillContext: 8 * 1000 * 1001 / 2, PrefillKV: 8000})
	near("prefill capacity", p.PrefillCapacity, 8/(s8+8*0.015), 1e-9)
	near("prefill load", p.PrefillUtilization, p.RequestsPerSecond/p.PrefillCapacity, 1e-9)
}

// TestDisaggDecodeBound: with 8 decode slots per worker and 512 requests
// in flight the decode side is full: λ = D × 8 / (999 × TPOT(8)) and the
// requests beyond the slots wait in TTFT, so Little's law still holds.
func TestDisaggDecodeBound(t *testing.T) {
	in, hw := disaggInput(t)
	d := Disagg{Prefill: DisaggSide{Workers: 2, TP: 8, DP: 8, EP: 8, Batch: 4}, Decode: DisaggSide{Workers: 2, TP: 8, DP: 8, EP: 8, Batch: 8},
		Concurrency: 512}
	p, err := DisaggServing(in, hw, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000}, d)
	if err != nil {
		t.Fatal(err)
	}
	if p.Bound != "decode" || p.DecodeBatch != 8 {
		t.Fatalf("bound %s, decode batch %v: want decode, 8", p.Bound, p.DecodeBatch)
	}
	if want := 2 * 8 / (999 * p.TPOTSeconds); math.Abs(p.RequestsPerSecond/want-1) > 1e-6 {
		t.Errorf("λ = %v, want %v", p.RequestsPerSecond, want)
	}
	if got := p.RequestsPerSecond * (p.TTFTSeconds + 999*p.TPOTSeconds); math.Abs(got/512-1) > 1e-6 {
		t.Errorf("λ × cycle = %v, want 512", got)
	}
}

// TestDisaggMoreWorkers: more prefill workers never raise TTFT, more
// decode workers never raise TPOT, at the same concurrency.
func TestDisaggMoreWorkers(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 8000, OutputTokens: 1000}
	base := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 8}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 8, EP: 8}, Concurrency: 256}
	p0, err := DisaggServing(in, hw, Efficiency{}, w, base)
	if err != nil {
		t.Fatal(err)
	}
	more := base
	more.Prefill.Workers = 4
	p1, _ := DisaggServing(in, hw, Efficiency{}, w, more)
	if p1.TTFTSeconds > p0.TTFTSeconds {
		t.Errorf("4 prefill workers: TTFT %v > %v with 1", p1.TTFTSeconds, p0.TTFTSeconds)
	}
	more = base
	more.Decode.Workers = 4
	p2, _ := DisaggServing(in, hw, Efficiency{}, w, more)
	if p2.TPOTSeconds > p0.TPOTSeconds {
		t.Errorf("4 decode workers: TPOT %v > %v with 1", p2.TPOTSeconds, p0.TPOTSeconds)
	}
}

// TestDisaggErrors: bad layouts name their flag.
func TestDisaggErrors(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 100}
	ok := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Concurrency: 8}
	for _, c := range []struct {
		field string
		f     func(*Disagg)
	}{
		{"prefill-workers", func(d *Disagg) { d.Prefill.Workers = 0 }},
		{"decode-tp", func(d *Disagg) { d.Decode.TP = -1 }},
		{"decode-batch", func(d *Disagg) { d.Decode.Batch = -3 }},
		{"concurrency", func(d *Disagg) { d.Concurrency = 0 }},
		{"kv-transfer-gbps", func(d *Disagg) { d.KVBandwidth = math.NaN() }},
		{"kv-transfer-latency", func(d *Disagg) { d.KVLatencySeconds = math.Inf(1) }},
		{"prefill-dp", func(d *Disagg) { d.Prefill.DP = 3 }},                                                                // does not divide TP 8
		{"decode-tp", func(d *Disagg) { d.Decode.TP = 1 }},                                                                  // 671B in FP8 on one 141 GiB GPU
		{"prefill-ep", func(d *Disagg) { d.Prefill.EP = 16 }},                                                               // over TP 8
		{"decode-ep", func(d *Disagg) { d.Decode.TP, d.Decode.DP, d.Decode.EP = 48, 48, 48 }},                               // 256 experts over 48
		{"decode-ep", func(d *Disagg) { d.Decode.TP, d.Decode.DP, d.Decode.EP, d.Decode.RedundantExperts = 48, 48, 48, 8 }}, // 264 over 48
		{"prefill-redundant-experts", func(d *Disagg) { d.Prefill.RedundantExperts = 8 }},                                   // without EP
		{"quantile", func(d *Disagg) { d.Quantile = 1 }},
		{"quantile", func(d *Disagg) { d.Quantile = math.NaN() }},
	} {
		d := ok
		c.f(&d)
		p, err := DisaggServing(in, hw, Efficiency{}, w, d)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%s: err %v, want an InputError on %s", c.field, err, c.field)
		}
		if p != (DisaggPoint{}) {
			t.Errorf("%s: a point with an error: %+v", c.field, p)
		}
	}
}

// FuzzDisaggServing: any layout, concurrency and link figures give an
// *InputError, or a point whose figures are finite and consistent
// (TTFT at least the prefill and transfer; Little's law within 1e-6
// where the client's requests are all in flight).
func FuzzDisaggServing(f *testing.F) {
	f.Add(1, 8, 1, 1, 0, 2, 8, 8, 8, 0, 0, 0, 64, 0.0, 0.0, 0.0, 1000, 100)
	f.Add(0, -1, 3, 16, -2, 1<<30, 0, 1, 1, 1, -3, -1, 0, math.NaN(), math.Inf(1), math.NaN(), 0, -5)
	f.Add(3, 16, 16, 16, 4, 1, 16, 16, 16, 32, 0, 3, 4096, 50e9, 0.01, 0.7, 8000, 1000)
	f.Add(4, 4, 4, 4, 0, 1, 48, 48, 48, 0, 32, 1, 2048, 0.0, 0.0, 0.0, 1024, 1024)
	in, hw := func() (Input, Hardware) {
		in := DefaultInput(perfArch(f, "deepseek-v3.json"))
		in.Task, in.Engine, in.Weights, in.KV, in.VRAM = Inference, SGLang, FP8, BF16, 141*GiB
		return in, Hardware{PeakFLOPS: 1979e12, MemBandwidth: 4.8e12, LinkBandwidth: 450e9, Generation: GenHopper, NVLinkDomain: 8}
	}()
	f.Fuzz(func(t *testing.T, pw, ptp, pdp, pep, pb, dw, dtp, ddp, dep, db, dred, draft, conc int, bw, lat, accept float64, prompt, out int) {
		d := Disagg{Prefill: DisaggSide{Workers: pw, TP: ptp, DP: pdp, EP: pep, Batch: pb},
			Decode: DisaggSide{Workers: dw, TP: dtp, DP: ddp, EP: dep, RedundantExperts: dred, Batch: db}, Concurrency: conc,
			KVBandwidth: bw, KVLatencySeconds: lat, DraftTokens: draft, Acceptance: accept}
		p, err := DisaggServing(in, hw, Efficiency{}, Workload{PromptTokens: prompt, OutputTokens: out}, d)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v: not an InputError", err)
			}
			return
		}
		for _, v := range []float64{p.TTFTSeconds, p.TPOTSeconds, p.TokensPerSecond, p.RequestsPerSecond, p.QueueSeconds, p.PrefillSeconds,
			p.PrefillHandoverSeconds, p.KVTransferSeconds, p.DecodeBatch, p.PrefillUtilization} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("%+v", p)
			}
		}
		if p.TTFTSeconds < p.PrefillSeconds+p.PrefillHandoverSeconds+p.KVTransferSeconds {
			t.Fatalf("TTFT %v below prefill %v + its handover work %v + transfer %v", p.TTFTSeconds, p.PrefillSeconds,
				p.PrefillHandoverSeconds, p.KVTransferSeconds)
		}
		// SGLang's prefill worker spends its handover work on each prompt
		// of the batch a request is in (PrefillHandoverSeconds).
		if h := p.PrefillBatch * sglangPrefillHandoverSeconds; math.Abs(p.PrefillHandoverSeconds-h) > 1e-9*h {
			t.Fatalf("handover work %v s for a batch of %v prompts, want %v", p.PrefillHandoverSeconds, p.PrefillBatch, h)
		}
	})
}

// TestRedundantExperts: DeepSeek-V3's 256 routed experts over a 48-GPU
// wide-EP decode worker need 32 redundant copies (288 = 48 × 6, SGLang's
// --ep-num-redundant-experts 32). The copies add their weights to every
// GPU: 32 more expert slots over the 32-GPU layout that divides without
// them are 32/256 = 12.5% more routed-expert weight per GPU, and a decode
// step that reads every slot reads that much more.
func TestRedundantExperts(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.DP, in.EP, in.GPUs, in.Batch = 32, 32, 32, 32, 1024
	plain, err := Estimate(in)
	if err != nil {
		t.Fatal(err)
	}
	red := in
	red.RedundantExperts = 32
	more, err := Estimate(red)
	if err != nil {
		t.Fatal(err)
	}
	a := in.Arch
	linBits, _, _ := weightBits(in)
	want := expertParams(a) / 32 * 32 / 256 * linBits / 8
	if got := float64(more.PerGPU.Weights - plain.PerGPU.Weights); math.Abs(got-want) > 1e-6*want+1 {
		t.Errorf("redundant experts' weights = %.0f B per GPU, want %.0f", got, want)
	}
	// A step of many tokens reads every slot: 12.5% more expert bytes.
	m0, m1 := newInferModel(in, hw, Efficiency{}), newInferModel(red, hw, Efficiency{})
	dense := m0.denseBytes
	if r := (m1.gpuWeightRead(1e6) - dense) / (m0.gpuWeightRead(1e6) - dense); math.Abs(r-288.0/256) > 1e-9 {
		t.Errorf("expert bytes read at a large step: ratio %.6f, want %.6f", r, 288.0/256)
	}
	// EP 48 divides 256 + 32, not 256 alone.
	in.TP, in.DP, in.EP, in.GPUs = 48, 48, 48, 48
	if _, err := Estimate(in); err == nil {
		t.Error("EP 48 over 256 experts accepted")
	}
	in.RedundantExperts = 32
	if _, err := Estimate(in); err != nil {
		t.Errorf("EP 48 over 256 + 32 experts: %v", err)
	}
	if ExpertSplit(a, 48, 32) != "" || ExpertSplit(a, 48, 0) == "" || ExpertSplit(a, 24, 8) != "" {
		t.Error("ExpertSplit disagrees with (experts + redundant) % EP")
	}
}

// TestDisaggMTP: speculative decoding with DeepSeek's MTP module. One
// verify step yields 1 + a + … + a^d tokens at a fixed acceptance a (d =
// 1, a = 0.85: 1.85; d = 3: 3.186625), and DeepSeek-R1's measured 1.92 at
// one draft by default (TestDisaggMTPByPosition). SGLang's DeepSeek usage docs measure MTP with one draft
// token (--speculative-num-steps 1 --speculative-num-draft-tokens 2) at
// 1.8× the decode speed at batch 1 and 1.5× at batch 32 on H200 TP 8; the
// estimate's TPOT ratio is held within 15% of both.
func TestDisaggMTP(t *testing.T) {
	for _, c := range []struct {
		d    int
		a    float64
		want float64
	}{{0, 0.85, 1}, {1, 0.85, 1.85}, {3, 0.85, 3.186625}, {2, 1, 3}} {
		if got := acceptedTokens(c.d, c.a); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("acceptedTokens(%d, %g) = %g, want %g", c.d, c.a, got, c.want)
		}
	}
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	for _, c := range []struct {
		conc  int
		speed float64
	}{{1, 1.8}, {32, 1.5}} {
		d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Concurrency: c.conc}
		plain, err := DisaggServing(in, hw, Efficiency{}, w, d)
		if err != nil {
			t.Fatal(err)
		}
		d.DraftTokens = 1
		mtp, err := DisaggServing(in, hw, Efficiency{}, w, d)
		if err != nil {
			t.Fatal(err)
		}
		if r := plain.TPOTSeconds / mtp.TPOTSeconds; math.Abs(r/c.speed-1) > 0.15 {
			t.Errorf("concurrency %d: MTP speeds decode %.2f×, want %.1f× within 15%%", c.conc, r, c.speed)
		}
		if math.Abs(mtp.DecodeStepSeconds-mtp.AcceptedTokens*mtp.TPOTSeconds) > 1e-12 || math.Abs(mtp.AcceptedTokens-1.92) > 1e-12 {
			t.Errorf("step %g s, accepted %g, TPOT %g s: want step = accepted × TPOT, 1.92 accepted", mtp.DecodeStepSeconds,
				mtp.AcceptedTokens, mtp.TPOTSeconds)
		}
	}
	// A model without an MTP module, and out-of-range figures, are input errors.
	llama, _ := disaggInput(t)
	llama.Arch = loadArch(t, "llama-2-7b-hf.json")
	ok := Disagg{Prefill: DisaggSide{Workers: 1, TP: 1, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 1, DP: 1, EP: 1}, Concurrency: 1}
	for _, c := range []struct {
		in    Input
		f     func(*Disagg)
		field string
	}{
		{llama, func(d *Disagg) { d.DraftTokens = 1 }, "mtp-draft-tokens"},
		{in, func(d *Disagg) { d.DraftTokens = 17 }, "mtp-draft-tokens"},
		{in, func(d *Disagg) { d.DraftTokens, d.Acceptance = 1, 1 }, "mtp-acceptance"},
	} {
		d := ok
		c.f(&d)
		_, err := DisaggServing(c.in, hw, Efficiency{}, w, d)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("err %v, want an InputError on %s", err, c.field)
		}
	}
}

// TestDisaggMTPByPosition: DeepSeek-R1's MTP yields the tokens per step
// NVIDIA measured at 1–5 drafts (1.92, 2.58, 2.82, 2.99, 3.01: 1 + the sum
// of the first d of 0.92, 0.66, 0.24, 0.17, 0.02), and nothing more past
// five, on every engine (the module's chain, not the engine's, decides
// what is accepted); a given acceptance overrides the table (three drafts
// at 0.85: 3.186625), and another MTP architecture keeps 0.85 a draft. At
// three drafts the table's 2.82 against 3.186625 gives one request on a
// TP 8 TensorRT-LLM decode worker 3.186625/2.82 = 1.130 times the TPOT it
// has at 0.85.
func TestDisaggMTPByPosition(t *testing.T) {
	in, hw := disaggInput(t)
	for _, c := range []struct {
		d    int
		a    float64
		want float64
	}{
		{0, 0, 1}, {1, 0, 1.92}, {2, 0, 2.58}, {3, 0, 2.82}, {4, 0, 2.99}, {5, 0, 3.01}, {8, 0, 3.01}, {3, 0.85, 3.186625},
		{1, 0.85, 1.85},
	} {
		if got := mtpAcceptedTokens(in.Arch, c.d, c.a); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("mtpAcceptedTokens(%d drafts, %g) = %.6f, want %.6f", c.d, c.a, got, c.want)
		}
	}
	// The table is DeepSeek-V3's module's: another MTP architecture keeps
	// 0.85 a draft.
	other := in.Arch
	other.ModelType = "glm4_moe"
	if got := mtpAcceptedTokens(other, 3, 0); math.Abs(got-3.186625) > 1e-12 {
		t.Errorf("glm4_moe: %.6f accepted, want 3.186625", got)
	}
	in.Engine = TRTLLM
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}, Decode: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1},
		Concurrency: 1, DraftTokens: 3}
	table, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	d.Acceptance = MTPAcceptance
	flat, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(table.AcceptedTokens-2.82) > 1e-12 || math.Abs(flat.AcceptedTokens-3.186625) > 1e-12 {
		t.Errorf("accepted %g and %g, want 2.82 and 3.186625", table.AcceptedTokens, flat.AcceptedTokens)
	}
	// One request: both steps are the step of one (the decode batch is
	// under one, which the step takes as one), the TPOT that step over the
	// accepted tokens.
	if math.Abs(table.DecodeStepSeconds-flat.DecodeStepSeconds) > 1e-12*flat.DecodeStepSeconds || flat.DecodeStepSeconds <= 0 {
		t.Fatalf("decode steps %g s and %g s differ", table.DecodeStepSeconds, flat.DecodeStepSeconds)
	}
	if r := table.TPOTSeconds / flat.TPOTSeconds; math.Abs(r-3.186625/2.82) > 1e-9 {
		t.Errorf("TPOT ratio %.6f, want %.6f", r, 3.186625/2.82)
	}
}

// TestDisaggAtRate: the open loop at the rate a closed loop of 64
// requests completes is that closed loop's steady state (with the same
// decode slots), and a rate at either side's capacity is refused.
func TestDisaggAtRate(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1, Batch: 8}, Decode: DisaggSide{Workers: 2, TP: 8, DP: 1, EP: 1, Batch: 32},
		Concurrency: 64, RequestSeconds: 0.040}
	closed, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	d.Rate, d.Concurrency = closed.RequestsPerSecond, 0
	open, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]any{{"TTFT", open.TTFTSeconds, closed.TTFTSeconds}, {"TPOT", open.TPOTSeconds, closed.TPOTSeconds},
		{"decode batch", open.DecodeBatch, closed.DecodeBatch}, {"rate", open.RequestsPerSecond, closed.RequestsPerSecond}} {
		if got, want := c[1].(float64), c[2].(float64); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s at the closed loop's rate: %.9g, closed loop %.9g", c[0], got, want)
		}
	}
	if open.Bound != "rate" && open.Bound != "prefill" {
		t.Errorf("bound %q", open.Bound)
	}
	// At a quantile, TTFT is the mean less the prefill queue's mean wait
	// plus M/D/1's wait at that quantile, and TPOT the step at the decode
	// batch's Poisson quantile; the means are unchanged, and at 0 the
	// quantile figures are the means.
	if open.TTFTAtSeconds != open.TTFTSeconds || open.TPOTAtSeconds != open.TPOTSeconds {
		t.Errorf("quantile 0: %v, %v against the means %v, %v", open.TTFTAtSeconds, open.TPOTAtSeconds, open.TTFTSeconds, open.TPOTSeconds)
	}
	q := d
	q.Quantile = 0.99
	p99, err := DisaggServing(in, hw, Efficiency{}, w, q)
	rho := p99.PrefillUtilization
	if want := open.TTFTSeconds - open.QueueSeconds + mdWaitQuantile(rho, p99.PrefillSeconds+p99.PrefillHandoverSeconds, 0.99); err != nil || p99.TTFTSeconds != open.TTFTSeconds ||
		math.Abs(p99.TTFTAtSeconds-want) > 1e-12 || !(p99.TTFTAtSeconds > open.TTFTSeconds) || !(p99.TPOTAtSeconds > open.TPOTSeconds) {
		t.Errorf("p99 at load %.2f: TTFT %.4f s (want %.4f), TPOT %.2f ms against the means %.4f s, %.2f ms: %v", rho, p99.TTFTAtSeconds, want,
			1000*p99.TPOTAtSeconds, open.TTFTSeconds, 1000*open.TPOTSeconds, err)
	}
	d.Rate = 1.001 * math.Min(closed.PrefillCapacity, closed.DecodeCapacity)
	var ie *InputError
	if _, err := DisaggServing(in, hw, Efficiency{}, w, d); !errors.As(err, &ie) || ie.Field != "rate" {
		t.Errorf("a rate past capacity: %v", err)
	}
	d.Rate = math.NaN()
	if _, err := DisaggServing(in, hw, Efficiency{}, w, d); !errors.As(err, &ie) || ie.Field != "rate" {
		t.Errorf("a NaN rate: %v", err)
	}
}

// TestDisaggSizer: a sizer's points are DisaggServing's, bit for bit and
// error for error, whatever it evaluated before (sides of one shape and
// of several, more shapes than it keeps, invalid ones between).
func TestDisaggSizer(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	z := NewDisaggSizer(in, hw, Efficiency{}, w)
	side := func(workers, tp, dp, ep, batch int) DisaggSide {
		return DisaggSide{Workers: workers, TP: tp, DP: dp, EP: ep, Batch: batch}
	}
	ds := []Disagg{
		{Prefill: side(2, 8, 8, 8, 4), Decode: side(2, 8, 8, 8, 8), Concurrency: 512},
		{Prefill: side(3, 8, 8, 8, 4), Decode: side(1, 8, 8, 8, 0), Concurrency: 64},
		{Prefill: side(1, 8, 1, 1, 0), Decode: side(2, 16, 16, 16, 0), Concurrency: 64},
		{Prefill: side(1, 4, 1, 1, 0), Decode: side(2, 8, 8, 8, 0), Rate: 3},
		{Prefill: side(0, 8, 8, 8, 0), Decode: side(2, 8, 8, 8, 0), Concurrency: 64},
		{Prefill: side(2, 8, 8, 8, 4), Decode: side(2, 8, 8, 8, 8), Concurrency: 512},
		{Prefill: side(1, 8, 1, 1, 0), Decode: side(4, 8, 8, 8, 0), Rate: 5},
		{Prefill: side(1, 4, 1, 1, 0), Decode: side(2, 8, 8, 8, 0), Rate: 3},
	}
	// Each layout again at a share of its own, right after it: another
	// model (an open loop's decode slots are its KV pool's).
	var pairs []Disagg
	for _, d := range ds {
		own := d
		own.Decode.MemShare, own.Prefill.MemShare = 0.6, 0.7
		pairs = append(pairs, d, own)
	}
	ds = append(ds, pairs...)
	for i, d := range ds {
		want, werr := DisaggServing(in, hw, Efficiency{}, w, d)
		got, err := z.At(d)
		if got != want || (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("point %d: sizer %+v, %v; DisaggServing %+v, %v", i, got, err, want, werr)
		}
	}
}

// TestDisaggSideMemShare: a side's memory share (DisaggSide.MemShare, as
// a planner sets SGLang's attention-DP workers' on their side alone) is
// the KV pool that side's workers hold: DeepSeek-V3 decode workers of
// attention DP 8 / EP 8 on 8 × H100 hold fewer requests at 0.7 than at
// the default share, so a side's decode capacity at the same rate falls,
// and the prefill side, at its own share, does not change. A share out
// of (0, 1] names the side's flag.
func TestDisaggSideMemShare(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	d := Disagg{Prefill: DisaggSide{Workers: 2, TP: 8, DP: 1, EP: 8}, Decode: DisaggSide{Workers: 4, TP: 8, DP: 8, EP: 8}, Rate: 5}
	def, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	low := d
	low.Decode.MemShare = 0.7
	at, err := DisaggServing(in, hw, Efficiency{}, w, low)
	if err != nil {
		t.Fatal(err)
	}
	if !(at.DecodeCapacity < def.DecodeCapacity) || at.PrefillCapacity != def.PrefillCapacity {
		t.Errorf("decode share 0.7: decode capacity %.2f req/s (default share %.2f), prefill %.2f (%.2f)", at.DecodeCapacity, def.DecodeCapacity,
			at.PrefillCapacity, def.PrefillCapacity)
	}
	bad := d
	bad.Decode.MemShare = 1.5
	var ie *InputError
	if _, err := DisaggServing(in, hw, Efficiency{}, w, bad); !errors.As(err, &ie) || ie.Field != "decode-gpu-mem-util" {
		t.Errorf("decode share 1.5: %v, want decode-gpu-mem-util", err)
	}
}

// TestDisaggNoKVRoomNamesTheShare: DeepSeek-V3 FP8 on 80 GB GPUs with a
// prefill worker of TP 32 · attention DP 32 · EP 32 holds the weights
// (about 34 GiB a GPU), but SGLang's default mem_fraction_static at DP 32
// reserves the rest for CUDA graphs and leaves no KV pool: the error says
// that and names the share that fits (0.85), as the aggregated estimate
// does, on the side's TP field. A worker the weights do not fit (TP 8 of
// 80 GB GPUs, 671 GB of FP8 weights) keeps the plain message.
func TestDisaggNoKVRoomNamesTheShare(t *testing.T) {
	in, hw := disaggInput(t)
	in.VRAM = 80 * GiB
	w := Workload{PromptTokens: 2000, OutputTokens: 100}
	wide := DisaggSide{Workers: 1, TP: 32, DP: 32, EP: 32}
	d := Disagg{Prefill: wide, Decode: wide, Concurrency: 64}
	var ie *InputError
	_, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if !errors.As(err, &ie) || ie.Field != "prefill-tp" || !strings.Contains(ie.Reason, "--gpu-mem-util 0.85") ||
		!strings.Contains(ie.Reason, "attention DP 32") {
		t.Fatalf("DP 32 prefill worker at SGLang's default share: %v", err)
	}
	d.Prefill.MemShare = SGLangDPAttentionMemFraction
	_, err = DisaggServing(in, hw, Efficiency{}, w, d)
	if !errors.As(err, &ie) || ie.Field != "decode-tp" || !strings.Contains(ie.Reason, "decode worker no KV cache") {
		t.Fatalf("DP 32 decode worker at SGLang's default share: %v", err)
	}
	d.Decode.MemShare = SGLangDPAttentionMemFraction
	if _, err := DisaggServing(in, hw, Efficiency{}, w, d); err != nil {
		t.Fatalf("both sides at the recipes' share: %v", err)
	}
	d.Prefill = DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1}
	_, err = DisaggServing(in, hw, Efficiency{}, w, d)
	if !errors.As(err, &ie) || ie.Field != "prefill-tp" || ie.Reason != "the model and one request's KV cache do not fit a prefill worker" {
		t.Fatalf("TP 8 of 80 GB GPUs: %v", err)
	}
}

// TestDPGatherLatency: attention data parallelism gathers the DP ranks'
// tokens before the MLP or experts and scatters them after (SGLang's
// dp_gather/dp_scatter, DeepEP's dispatch and combine): two collectives a
// layer where tensor-parallel attention has one all-reduce after the MLP
// and one inside attention. DeepSeek-V3 FP8, TP 8 on an 8-GPU NVLink
// domain: a decode step of one request per rank at DP 8 with EP 8 pays
// 61 layers × (0 + 32 + 32 µs) of collective latency, at DP 1 EP 1 61 ×
// (32 + 32 µs); without the gather DP 8 paid 61 × 32 µs, 1.95 ms less.
func TestDPGatherLatency(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.GPUs = 8, 8
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	at := func(dp, ep int) inferModel {
		i := in
		i.DP, i.EP = dp, ep
		m := NewServingModel(i, hw, Efficiency{}, w)
		if err := m.Err(); err != nil {
			t.Fatal(err)
		}
		return m.m
	}
	tp, dp := at(1, 1), at(8, 8)
	const lat = servingAllReduceSeconds
	if got := dp.perLayer - tp.perLayer; math.Abs(got) > 1e-12 {
		t.Errorf("per-layer cost DP 8 EP 8 − TP 8 = %.3g s, want 0 (two collectives each: attention's all-reduce and the MLP's, or the gather and the scatter)", got)
	}
	if got := dpGatherLatency(hw, 8); math.Abs(got-lat) > 1e-15 {
		t.Errorf("dpGatherLatency over 8 GPUs of one domain = %.3g s, want %.3g", got, lat)
	}
	// Over 16 GPUs across two 8-GPU domains: the ring's 15 hops.
	if got := dpGatherLatency(hw, 16); math.Abs(got-15*allReduceHopSeconds) > 1e-15 {
		t.Errorf("dpGatherLatency over 16 GPUs of 8-GPU domains = %.3g s, want %.3g", got, 15*allReduceHopSeconds)
	}
	m := NewServingModel(func() Input { i := in; i.DP, i.EP = 8, 8; return i }(), hw, Efficiency{}, w)
	step := m.StepSeconds(Step{DecodeSeqs: 8, DecodeContext: 8 * 1500})
	if want := 61 * 2 * lat; dp.layers*(dp.perLayer-layerOverhead) < want*(1-1e-9) || step < want {
		t.Errorf("DP 8 EP 8 decode step %.3g s with %.3g s of per-layer cost, want at least the %.3g s of two collectives a layer", step, dp.layers*(dp.perLayer-layerOverhead), want)
	}
}

// TestEPAllToAllAcrossDomains: an expert-parallel all-to-all over 16 GPUs
// of two 8-GPU NVLink domains sends half of each GPU's bytes (8 of 16
// ranks) through its own 400 Gbit/s NIC, 50e9 B/s: 1e-11 s a byte, five
// times the 1.94e-12 of the ring all-reduce's hierarchical bandwidth it
// was priced at. Inside one domain, 7/8 of the bytes over 450e9 B/s of
// NVLink.
func TestEPAllToAllAcrossDomains(t *testing.T) {
	hw := Hardware{LinkBandwidth: 450e9, NetworkBandwidth: 50e9, NVLinkDomain: 8}
	for _, c := range []struct {
		ep   int
		want float64
	}{{8, 7.0 / 8 / 450e9}, {16, 0.5 / 50e9}, {32, 24.0 / 32 / 50e9}} {
		if got := epAllToAllSecondsPerByte(hw, c.ep); math.Abs(got/c.want-1) > 1e-12 {
			t.Errorf("EP %d: %.4g s/B, want %.4g", c.ep, got, c.want)
		}
	}
	if ring := 15.0 / 16 / collectiveBandwidth(hw, 16); !(epAllToAllSecondsPerByte(hw, 16) > 5*ring*0.99) {
		t.Errorf("EP 16 all-to-all %.4g s/B, the ring's %.4g: want about 5×", epAllToAllSecondsPerByte(hw, 16), ring)
	}
}

// TestDPGatherBytes: under attention DP the experts' traffic is priced as
// the EP all-to-all of each rank's own tokens, k copies each (dispatch and
// combine), which at DP = EP = top-k inside one NVLink domain moves what an
// all-gather of every rank's tokens before the experts and a
// reduce-scatter after move (TensorRT-LLM's AllGatherReduceScatter,
// SGLang's dp_gather/dp_reduce_scatter_tensor): (DP − 1)/DP of the
// replica's tokens × hidden × 2 B each way. DeepSeek-V3, TP 8 DP 8 EP 8,
// 16-bit activations, 450e9 B/s of NVLink: 61 layers × 2 × 8 × 7,168 × 2 B
// × 7/8 / 8 / 450e9 = 61 × 2 × 7/8 × 7,168 × 2 / 450e9 s a token, 3.4 µs;
// attention's own all-reduce is gone (one rank). So the collective's bytes
// are not what makes the attention-DP rows at 8–16 a rank slower than the
// estimate (calibration README, "attention-DP decode step").
func TestDPGatherBytes(t *testing.T) {
	in, hw := disaggInput(t)
	in.TP, in.GPUs, in.DP, in.EP = 8, 8, 8, 8
	m := NewServingModel(in, hw, Efficiency{}, Workload{PromptTokens: 1000, OutputTokens: 1000})
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	allGatherReduceScatter := 61 * 2 * 7.0 / 8 * 7168 * 2 / 450e9
	if got := m.m.commPerToken; math.Abs(got/allGatherReduceScatter-1) > 1e-12 {
		t.Errorf("DP 8 EP 8 collective seconds a token %.6g, want %.6g (an all-gather and a reduce-scatter of every rank's tokens)", got, allGatherReduceScatter)
	}
}

// TestDisaggDecodeSlotWait: TensorRT-LLM's generation worker schedules at
// most max_batch_size requests, and a handed-over request beyond them
// waits for a slot (py_executor.py: only the fitting
// DISAGG_GENERATION_INIT requests are scheduled). NVIDIA's H100 recipe
// ctx1_gen3_tep16_batch1 runs 3 decode workers of one slot each at 6 in
// flight: the decode side holds λ = 3 / (steps × TPOT), and by Little's law
// on the requests not decoding λ × TTFT = 6 − 3, so TTFT is one request's
// whole decode (steps × TPOT), not the handover's fraction of a second.
func TestDisaggDecodeSlotWait(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1024, OutputTokens: 1024}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 8, EP: 8}, Decode: DisaggSide{Workers: 3, TP: 8, DP: 1, EP: 8, Batch: 1},
		Concurrency: 6}
	p, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	if p.Bound != "decode" || p.DecodeBatch != 1 {
		t.Fatalf("bound %s, decode batch %v: want decode, 1", p.Bound, p.DecodeBatch)
	}
	if got := p.RequestsPerSecond * p.TTFTSeconds; math.Abs(got/3-1) > 1e-6 {
		t.Errorf("λ × TTFT = %v, want 6 − 3 slots = 3", got)
	}
	steps := 3 / (p.RequestsPerSecond * p.TPOTSeconds) // λ = 3 / (steps × TPOT)
	if math.Abs(p.TTFTSeconds/(steps*p.TPOTSeconds)-1) > 1e-6 || !(p.TTFTSeconds > 5) {
		t.Errorf("TTFT %.3f s, want one decode of %.0f steps × %.2f ms", p.TTFTSeconds, steps, 1000*p.TPOTSeconds)
	}
	// Without the cap every request decodes at once and TTFT is the
	// handover path alone.
	d.Decode.Batch = 0
	free, err := DisaggServing(in, hw, Efficiency{}, w, d)
	if err != nil {
		t.Fatal(err)
	}
	if !(free.TTFTSeconds < 1) || free.Bound != "concurrency" {
		t.Errorf("uncapped: TTFT %.3f s, bound %s; want under 1 s, concurrency", free.TTFTSeconds, free.Bound)
	}
}

// TestDisaggDecodeSlots: the point says how many requests a decode worker
// decodes at once and what sets it: at a closed loop the client's
// requests per worker (64 over 2 workers: 32), at a rate the worker's KV
// pool (the serving model's MaxConcurrency), or Decode.Batch where it is
// fewer; a Batch over the pool leaves the pool's.
func TestDisaggDecodeSlots(t *testing.T) {
	in, hw := disaggInput(t)
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	d := Disagg{Prefill: DisaggSide{Workers: 1, TP: 8, DP: 1, EP: 1, Batch: 8}, Decode: DisaggSide{Workers: 2, TP: 8, DP: 1, EP: 1},
		Concurrency: 64, RequestSeconds: 0.040}
	si := in
	si.TP, si.DP, si.EP, si.PP, si.CP = 8, 1, 1, 1, 1
	m := NewServingModel(si, hw, Efficiency{}, w)
	pool := float64(m.MaxConcurrency())
	if pool < 64 {
		t.Fatalf("KV pool of %v requests, want over 64", pool)
	}
	open := func(batch int) Disagg {
		o := d
		o.Concurrency, o.Rate, o.Decode.Batch = 0, 1, batch
		return o
	}
	for _, c := range []struct {
		name  string
		d     Disagg
		slots float64
		bound string
	}{
		{"closed loop", d, 32, "concurrency"},
		{"rate", open(0), pool, "kv"},
		{"rate, batch 48", open(48), 48, "batch"},
		{"rate, batch over the pool", open(int(pool) + 1), pool, "kv"},
	} {
		pt, err := DisaggServing(in, hw, Efficiency{}, w, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if pt.DecodeSlots != c.slots || pt.DecodeSlotsBound != c.bound {
			t.Errorf("%s: %v slots (%q), want %v (%q)", c.name, pt.DecodeSlots, pt.DecodeSlotsBound, c.slots, c.bound)
		}
	}
}

// TestPlannedShareCarriesTheGraphCap: a side's memory share of its own
// (DisaggSide.MemShare, the planner's SGLang attention-DP share) comes
// with the recipes' --cuda-graph-max-bs 64, which the launch writes beside
// it (PlannedShareFix, the launch's fixedShare), so a decode worker whose
// ranks run more than 64 sequences prices those steps eager, as the
// launched engine runs them. DeepSeek-V3 FP8 on 80 GB GPUs, TP 32 · DP 32 ·
// EP 32 at the share: 64 a rank (2,048 in flight on one decode worker)
// keeps its graph step (40.2 ms), 96 a rank (3,072) goes past the cap
// (84.0 ms), where a cap raised to 128 by hand keeps graphs (40.7 ms); at
// the request's own share (the model input's GPUMemUtil) nothing is added.
func TestPlannedShareCarriesTheGraphCap(t *testing.T) {
	in, hw := disaggInput(t)
	in.VRAM = 80 * GiB
	if f := PlannedShareFix(0.85, Input{Engine: SGLang, DP: 32}); f.Share != 0.85 || f.CUDAGraphMaxBS != SGLangDPAttentionCUDAGraphMaxBS {
		t.Fatalf("SGLang DP 32: %+v", f)
	}
	for _, i := range []Input{{Engine: SGLang, DP: 1}, {Engine: VLLM, DP: 8}, {Engine: TRTLLM, DP: 8}} {
		if f := PlannedShareFix(0.85, i); f.CUDAGraphMaxBS != 0 {
			t.Fatalf("%v DP %d: %+v", i.Engine, i.DP, f)
		}
	}
	w := Workload{PromptTokens: 1000, OutputTokens: 1000}
	wide := DisaggSide{Workers: 1, TP: 32, DP: 32, EP: 32, MemShare: SGLangDPAttentionMemFraction}
	z := NewDisaggSizer(in, hw, Efficiency{}, w)
	if got := z.sideInput(wide, Disagg{}).CUDAGraphMaxBS; got != SGLangDPAttentionCUDAGraphMaxBS {
		t.Fatalf("side input's cap %d, want %d", got, SGLangDPAttentionCUDAGraphMaxBS)
	}
	step := func(in Input, conc int) float64 {
		t.Helper()
		d := Disagg{Prefill: DisaggSide{Workers: 4, TP: 32, DP: 32, EP: 32, MemShare: SGLangDPAttentionMemFraction}, Decode: wide, Concurrency: conc}
		p, err := DisaggServing(in, hw, Efficiency{}, w, d)
		if err != nil {
			t.Fatal(err)
		}
		return p.DecodeStepSeconds
	}
	raised := in
	raised.CUDAGraphMaxBS = 128
	within, past, graphs := step(in, 2048), step(in, 3072), step(raised, 3072)
	t.Logf("decode step: 64 a rank %.1f ms, 96 a rank %.1f ms (graphs to 128: %.1f ms)", within*1e3, past*1e3, graphs*1e3)
	if !(past > 2*graphs) {
		t.Fatalf("96 a rank past the cap: %.1f ms, with graphs to 128: %.1f ms", past*1e3, graphs*1e3)
	}
	if !(within < past/1.5) {
		t.Fatalf("64 a rank, within the cap: %.1f ms, against %.1f ms past it", within*1e3, past*1e3)
	}
	own := in
	own.GPUMemUtil = SGLangDPAttentionMemFraction // the request's own share: no fix stands behind it
	if got := NewDisaggSizer(own, hw, Efficiency{}, w).sideInput(wide, Disagg{}).CUDAGraphMaxBS; got != 0 {
		t.Fatalf("at the request's own share the side's cap is %d, want none", got)
	}
}
