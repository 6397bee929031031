package sim

import (
	"testing"

	"rightsize/estimator"
)

// SGLang's reserve share (new_token_ratio) decays by (0.7 − 0.098)/600 a
// decode step from 0.7 to its floor 0.098, and goes back to 0.7 when the
// scheduler idles.
func TestSGLangShareDecays(t *testing.T) {
	cfg := testConfig(t, estimator.SGLang, 100, 100)
	p := cfg.Policy
	if p.ReserveOutput != 0.7 || p.ReserveFloor != 0.7*0.14 || p.ReserveDecaySteps != 600 || !p.ReserveOwnOutput ||
		p.ReserveClip != 4096 || p.RetractSteps != 20 {
		t.Fatalf("SGLang policy %+v", p)
	}
	s := state{p: p, ratio0: p.ReserveOutput}
	for _, c := range []struct {
		k    int64
		want float64
	}{{0, 0.7}, {300, 0.7 - 300*(0.7-0.098)/600}, {600, 0.098}, {5000, 0.098}} {
		s.k = c.k
		if got := s.share(); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("share after %d decode steps %v, want %v", c.k, got, c.want)
		}
	}
	s.setShare(p.ReserveOutput)
	if got := s.share(); got != 0.7 {
		t.Errorf("share after a reset %v, want 0.7", got)
	}
	// vLLM keeps no reserve and TensorRT-LLM a fixed whole one.
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.TRTLLM} {
		q, _ := DefaultPolicy(e, 80*gib)
		s := state{p: q, ratio0: q.ReserveOutput, k: 5000}
		if got := s.share(); got != q.ReserveOutput {
			t.Errorf("%v: share %v after 5000 steps, want %v", e, got, q.ReserveOutput)
		}
	}
}

// Under KV pressure the decayed share admits more than the fixed 0.7 did:
// with a pool of 20 requests' prompts and outputs and 40 in flight, the
// SGLang scheduler runs more requests at once and finishes sooner, and
// retracts (preempts) some, as SGLang does once its estimate runs short.
func TestSGLangAdmitsMoreAsTheShareDecays(t *testing.T) {
	base := testConfig(t, estimator.SGLang, 1000, 1000)
	base.KVTokens = 20 * 2000
	base.Load.Concurrency, base.Load.Requests = 40, 400
	fixed := base
	fixed.Policy.ReserveDecaySteps, fixed.Policy.ReserveFloor, fixed.Policy.RetractSteps = 0, 0, 0
	rd, rf := run(t, base), run(t, fixed)
	if !(rd.OutputTokensPerSecond > rf.OutputTokensPerSecond*1.03) {
		t.Errorf("throughput with the decaying share %.0f tok/s, with a fixed 0.7 %.0f: want the decay above", rd.OutputTokensPerSecond, rf.OutputTokensPerSecond)
	}
	t.Logf("decay %.0f tok/s %d pre, fixed %.0f %d", rd.OutputTokensPerSecond, rd.Preemptions, rf.OutputTokensPerSecond, rf.Preemptions)
	if rd.Preemptions == 0 {
		t.Errorf("no retraction with the decaying share; want some")
	}
	// A pool that holds every request whole: no retraction, the same run.
	roomy := base
	roomy.KVTokens = 41 * 2000
	roomyFixed := roomy
	roomyFixed.Policy.ReserveDecaySteps, roomyFixed.Policy.ReserveFloor = 0, 0
	a, b := run(t, roomy), run(t, roomyFixed)
	if a.Preemptions != 0 || a.TTFT != b.TTFT || a.TPOT != b.TPOT {
		t.Errorf("room for all: decaying %+v (%d retractions), fixed %+v", a.TTFT, a.Preemptions, b.TTFT)
	}
}

// SGLang's retraction frees 20 tokens per remaining decode and resets the
// share to (decoded + 20 × decodes) / outputs.
func TestSGLangRetractResetsShare(t *testing.T) {
	cfg := testConfig(t, estimator.SGLang, 1000, 1000)
	cfg.KVTokens = 20 * 2000
	cfg.Load.Concurrency, cfg.Load.Requests = 40, 80
	var s state
	b := getBufs()
	defer b.put(&s)
	if err := s.init(cfg, b); err != nil {
		t.Fatal(err)
	}
	for s.finished < len(s.reqs) && s.preemptions == 0 && s.events < 1<<20 {
		s.events++
		s.deliver()
		if s.nRun == 0 && s.wHead == len(s.waiting) {
			s.t = max(s.t, s.reqs[s.pending].arrive)
			continue
		}
		s.preemptForGrowth()
		if s.preemptions > 0 {
			break
		}
		s.advance(s.schedule())
	}
	if s.preemptions == 0 {
		t.Fatal("no retraction")
	}
	if free := s.cap - s.used(); free < 20*float64(s.nDec) {
		t.Errorf("after the retraction %.0f tokens free for %d decodes, want at least 20 each", free, s.nDec)
	}
	var decoded, outs float64
	for _, i := range s.running {
		if r := &s.reqs[i]; r.state == stDecode {
			decoded += float64(r.out - s.left(r))
			outs += float64(r.out)
		}
	}
	want := min((decoded+20*float64(s.nDec))/outs, 1)
	if got := s.share(); got != want || s.ratioK != s.k {
		t.Errorf("share after the retraction %v at step %d (set at %d), want %v", got, s.k, s.ratioK, want)
	}
}

// SGLang's admission of ignore-eos requests without a radix cache
// (Policy.IgnoreEOSAdmit): a pool of 20.5 requests' prompts and outputs
// with 40 in flight (fixed lengths, 1,000 + 1,000) never runs more than
// the pool holds to their last tokens, so it never retracts; its own-output
// reserve at the decayed share runs more at once and retracts. The walk by
// hand: with 10 requests holding 1,500 tokens each and 500 to go and a new
// 1,000-token prompt, a pool of 21,000 leaves 6,000 free, 5,000 after the
// prompt, and the walk's first step asks for 11 × 500 + 11: refused;
// 22,000 admits.
func TestSGLangIgnoreEOSAdmission(t *testing.T) {
	base := testConfig(t, estimator.SGLang, 1000, 1000)
	base.KVTokens = 41 * 1000
	base.Load.Concurrency, base.Load.Requests = 40, 400
	eos := base
	eos.Policy.IgnoreEOSAdmit = true
	rb, re := run(t, base), run(t, eos)
	if re.Preemptions != 0 || rb.Preemptions == 0 {
		t.Errorf("retractions: %d with the ignore-eos admission (want 0), %d with the reserve (want some)", re.Preemptions, rb.Preemptions)
	}
	if !(re.TTFT.Mean > rb.TTFT.Mean) {
		t.Errorf("mean TTFT %v with the ignore-eos admission, %v with the reserve: want the walk's queue longer", re.TTFT.Mean, rb.TTFT.Mean)
	}
	t.Logf("ignore-eos: TTFT %.2f s, %d retractions; reserve: %.2f s, %d", re.TTFT.Mean, re.Preemptions, rb.TTFT.Mean, rb.Preemptions)

	s := state{p: eos.Policy, reqs: make([]request, 11)}
	for i := range 10 {
		s.reqs[i] = request{prompt: 1000, out: 1000, gen: 500, state: stPrefill}
		s.running = append(s.running, int32(i))
	}
	s.reqs[10] = request{prompt: 1000, out: 1000, target: 1000}
	for _, c := range []struct {
		cap  float64
		want bool
	}{{21000, false}, {22000, true}} {
		free := c.cap - 10*1500
		if got := s.eosAdmits(&s.reqs[10], free); got != c.want {
			t.Errorf("pool %v: admits %v, want %v", c.cap, got, c.want)
		}
	}
}
