package estimator

// The disaggregated replica as a discrete-event simulation of the closed
// loop a benchmark client runs (the InferenceX recipes: C clients, 10 × C
// requests, each one's lengths drawn uniformly from [0.8, 1] × the given
// ones, the next request sent when one completes), on the step model the
// steady state uses (disaggSteps: each side's forward, the handover, the
// decode worker's slots). Where the steady state takes the P prefill
// workers as one server of the full-batch capacity with M/D/1's wait, the
// simulation runs each worker's FCFS batches and each decode worker's
// running batch, so the first wave (C prompts at time 0) and the waves it
// leaves queue as the engines do. TTFT = the request's fixed cost + its
// wait for a prefill worker + the forward it is in (with, on SGLang, the
// worker's handover work for that forward's prompts: the steady state's
// forward) + its KV handover + its
// wait for a decode slot and the decode worker's admission: the engines
// stream the token the prefill made when the request joins the decode
// batch, before its first decode step, which yields the second token
// (steady's comment in disagg.go, the first token at the join).
//
// Scheduling, as the disaggregated engines do it:
//   - Prefill: one FCFS queue that every prefill worker pulls from (NVIDIA
//     Dynamo's global prefill queue; SGLang's prefill server takes its
//     waiting prompts FCFS), a worker busy one forward at a time and
//     taking up to kMax waiting prompts into its next forward (the side's
//     Batch, or the token budget the estimate's caller turned into one).
//   - Handover: each prompt's KV goes over the links when its forward ends
//     (latency + its bytes over the link bandwidth, as the steady state;
//     the links are not shared between handovers).
//   - Decode: workers taken in turn (round robin, Dynamo's and SGLang's
//     router default), each holding up to the side's Batch running
//     requests (0: all it is given), the rest waiting FCFS for a slot; a step of n requests lasts decode(n) × tau
//     and yields tau tokens of each, the first step after a request's
//     join its second token on. A handed-over request waits admit decode
//     steps (decodeAdmissionSteps: two polls of SGLang's decode loop, half
//     a step each on average): half of them as time and, on a worker
//     that is stepping, the rest as the wait for the next step boundary
//     (a request joins a running batch only between steps); on an idle
//     worker all of them as time.

import (
	"container/heap"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// DisaggRun is the benchmark a simulated replica serves: Disagg.Concurrency
// clients in a closed loop.
type DisaggRun struct {
	// Requests in the run; 0: 10 × Concurrency (the InferenceX recipes'
	// num-prompts).
	Requests int
	// PromptTokens and OutputTokens are the given lengths (PromptTokens
	// 0: the workload's, as SampleLengths reads it); with
	// RangeRatio r in (0, 1) each request draws each length uniformly
	// from the integers of [r·L, L] (benchmark_serving.py
	// --random-range-ratio, as estimator/sim's Load.RangeRatio); 0 or 1:
	// every request has these lengths.
	PromptTokens, OutputTokens int
	RangeRatio                 float64
	Seed                       uint64
}

// DisaggDist is a latency's mean and quantiles over a run's requests.
type DisaggDist struct{ Mean, P50, P90, P95, P99 float64 }

// DisaggSimResult is a simulated run.
type DisaggSimResult struct {
	// TTFT per request (its first token − its send) and TPOT ((E2E −
	// TTFT)/(output − 1), as the client computes it, requests of one
	// output token left out).
	TTFT, TPOT DisaggDist
	// E2E per request: its last token − its send.
	E2E DisaggDist
	// PrefillWait is the wait for a prefill worker, DecodeWait the wait
	// from the end of the handover to the join of a decode batch, where
	// the first token streams (admission and a free slot).
	PrefillWait, DecodeWait DisaggDist
	// Output tokens/s and completed requests/s over the run (first send
	// to last completion), and its duration.
	TokensPerSecond, RequestsPerSecond, DurationSeconds float64
	// PrefillBatch is the mean prompts per forward, PrefillBusy the
	// share of the prefill workers' time spent in forwards, DecodeBatch
	// the time-averaged requests decoding per decode worker.
	PrefillBatch, PrefillBusy, DecodeBatch float64
	Requests                               int
	// Bound is what held the run back, as DisaggPoint.Bound: "decode"
	// when over a tenth of the requests found their decode worker's slots
	// full, else "prefill" when the prefill workers were over 90% busy,
	// else "concurrency".
	Bound string
}

// maxDisaggSimWork bounds a simulated run: requests × output tokens (each
// decode step visits every request it serves). The largest InferenceX
// setting, 10 × 16,384 requests of 8,192 tokens, is 1.3e9; a run takes a
// few ns a request-token (about 5 s for that one on one core).
const maxDisaggSimWork = 2e9

// maxDisaggSimRequests bounds a run's requests (about 100 bytes each).
const maxDisaggSimRequests = 1 << 20

// Simulate runs the benchmark r on the replica d (d.Rate must be 0: the
// simulation is the closed loop). Invalid input gives an *InputError.
func (z *DisaggSizer) Simulate(d Disagg, r DisaggRun) (DisaggSimResult, error) {
	if d.Rate != 0 {
		return DisaggSimResult{}, &InputError{Field: "rate", Value: strconv.FormatFloat(d.Rate, 'g', -1, 64), Err: ErrIncompatible,
			Reason: "the simulation is a closed loop at the concurrency"}
	}
	var l errList
	if r.Requests < 0 || r.Requests > maxDisaggSimRequests {
		l.add("num-requests", float64(r.Requests), ErrRange, "want 0..1048576 (0: 10 × the concurrency)")
	}
	if r.PromptTokens < 0 || r.PromptTokens > 1<<24 {
		l.add("prompt-tokens", float64(r.PromptTokens), ErrRange, "want 0..16777216")
	}
	if r.OutputTokens < 1 || r.OutputTokens > 1<<24 {
		l.add("output-tokens", float64(r.OutputTokens), ErrRange, "want 1..16777216")
	}
	if !(r.RangeRatio >= 0 && r.RangeRatio <= 1) {
		l.add("range-ratio", r.RangeRatio, ErrRange, "want a share in [0, 1]")
	}
	if l.n > 0 {
		return DisaggSimResult{}, errors.Join(l.errs[:l.n]...)
	}
	m, err := z.model(d)
	if err != nil {
		return DisaggSimResult{}, err
	}
	n := r.Requests
	if n == 0 {
		n = 10 * d.Concurrency
	}
	if n > maxDisaggSimRequests {
		return DisaggSimResult{}, &InputError{Field: "num-requests", Value: strconv.Itoa(n), Err: ErrRange,
			Reason: "10 × the concurrency is over 1048576 requests: give fewer"}
	}
	if work := float64(n) * float64(r.OutputTokens); work > maxDisaggSimWork {
		return DisaggSimResult{}, &InputError{Field: "num-requests", Value: strconv.Itoa(n), Err: ErrRange,
			Reason: "requests × output tokens over " + strconv.FormatFloat(maxDisaggSimWork, 'g', -1, 64) + ": too large a run to simulate"}
	}
	if r.PromptTokens == 0 {
		r.PromptTokens, r.RangeRatio = max(1, int(math.Round(m.prompt))), 1
	}
	s := newDisaggSim(m, d, r, n)
	s.run()
	return s.result(), nil
}

// dsReq is one simulated request.
type dsReq struct {
	prompt, out         int
	send, arrive        float64 // the client's send; its arrival at the prefill queue (after the fixed cost)
	sched, handed, join float64 // its forward's start; its handover's end; its join of a decode batch
	first, finish       float64 // its first token (at the join); its last
	left                float64 // tokens still to generate
	worker              int     // its decode worker
}

// dsEvent is an event: at time t, kind on request or worker i; seq orders
// events of one time as they were scheduled.
type dsEvent struct {
	t    float64
	seq  uint64
	kind uint8
	i    int
}

const (
	evArrive  uint8 = iota // request i reaches the prefill queue
	evForward              // prefill worker i ends its forward
	evHanded               // request i's KV is on its decode worker
	evReady                // request i is admitted to its decode worker's queue
	evStep                 // decode worker i ends its step
)

type dsHeap []dsEvent

func (h dsHeap) Len() int { return len(h) }
func (h dsHeap) Less(a, b int) bool {
	if h[a].t != h[b].t {
		return h[a].t < h[b].t
	}
	return h[a].seq < h[b].seq
}
func (h dsHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *dsHeap) Push(x any)   { *h = append(*h, x.(dsEvent)) }
func (h *dsHeap) Pop() any {
	o := *h
	e := o[len(o)-1]
	*h = o[:len(o)-1]
	return e
}

type dsPrefill struct {
	busy  bool
	batch []int
}

type dsDecode struct {
	busy    bool
	running []int
	waiting []int   // admitted, waiting for a slot (FCFS)
	runArea float64 // Σ running × step seconds, for the time-averaged batch
}

type disaggSim struct {
	m                 *disaggSteps
	d                 Disagg
	reqs              []dsReq
	sent              int
	ev                dsHeap
	seq               uint64
	queue             dsFIFO // the prefill FCFS queue
	pre               []dsPrefill
	dec               []dsDecode
	rr                int // next decode worker
	nMax              int
	kMax              int
	stepMemo          []float64
	forwards, prompts int
	slotWaits         int // requests that found their decode worker's slots full
	preBusy           float64
	now               float64
}

func newDisaggSim(m *disaggSteps, d Disagg, r DisaggRun, n int) *disaggSim {
	s := &disaggSim{m: m, d: d, reqs: make([]dsReq, n), pre: make([]dsPrefill, d.Prefill.Workers),
		dec: make([]dsDecode, d.Decode.Workers), nMax: max(1, int(m.nMax)), kMax: max(1, int(m.kMax))}
	// The side's Batch, else no cap: the measured engines admit every
	// request they are given (the steady state's ⌈C/D⌉ is that count on
	// even workers; here a worker may hold more while another holds
	// fewer).
	s.nMax = max(1, min(d.Concurrency, n))
	if d.Decode.Batch > 0 {
		s.nMax = min(s.nMax, d.Decode.Batch)
	}
	s.stepMemo = make([]float64, s.nMax+1)
	var pcg rand.PCG
	pcg.Seed(r.Seed, r.Seed^0x9e3779b97f4a7c15)
	rng := rand.New(&pcg)
	// draw is a length uniform on the integers of [r·L, L] (numpy's
	// randint(int(r·L), L + 1), as benchmark_serving.py samples; as
	// estimator/sim's).
	draw := func(L int) int {
		lo := max(int(r.RangeRatio*float64(L)), 1)
		if L < lo {
			return L
		}
		return lo + rng.IntN(L-lo+1)
	}
	for i := range s.reqs {
		p, o := r.PromptTokens, r.OutputTokens
		if r.RangeRatio > 0 && r.RangeRatio < 1 {
			p, o = draw(r.PromptTokens), draw(r.OutputTokens)
		}
		s.reqs[i] = dsReq{prompt: p, out: o}
	}
	for range min(d.Concurrency, n) {
		s.send(0)
	}
	return s
}

func (s *disaggSim) push(t float64, kind uint8, i int) {
	s.seq++
	heap.Push(&s.ev, dsEvent{t: t, seq: s.seq, kind: kind, i: i})
}

// send has a client send the next request at time t.
func (s *disaggSim) send(t float64) {
	if s.sent >= len(s.reqs) {
		return
	}
	i := s.sent
	s.sent++
	q := &s.reqs[i]
	q.send, q.arrive = t, t+s.d.RequestSeconds
	s.push(q.arrive, evArrive, i)
}

// step is the seconds of a decode step of n requests.
func (s *disaggSim) step(n int) float64 {
	n = min(max(n, 1), len(s.stepMemo)-1)
	if s.stepMemo[n] == 0 {
		s.stepMemo[n] = s.m.decode(float64(n)) * s.m.tau
	}
	return s.stepMemo[n]
}

func (s *disaggSim) run() {
	for s.ev.Len() > 0 {
		e := heap.Pop(&s.ev).(dsEvent)
		s.now = e.t
		switch e.kind {
		case evArrive:
			s.queue.push(e.i)
			s.startForwards()
		case evForward:
			w := &s.pre[e.i]
			for _, i := range w.batch {
				q := &s.reqs[i]
				s.push(s.now+s.m.latency+s.m.kvPerToken*float64(q.prompt)/s.m.linkBW, evHanded, i)
			}
			w.busy, w.batch = false, w.batch[:0]
			s.startForwards()
		case evHanded:
			q := &s.reqs[e.i]
			q.handed = s.now
			wi := s.rr
			s.rr = (s.rr + 1) % len(s.dec)
			w := &s.dec[wi]
			a := s.m.admit * s.step(len(w.running)+1)
			if w.busy {
				a /= 2
			}
			q.worker = wi
			if a == 0 {
				s.ready(e.i)
			} else {
				s.push(s.now+a, evReady, e.i)
			}
		case evReady:
			s.ready(e.i)
		case evStep:
			s.endStep(e.i)
		}
	}
}

// startForwards starts a forward on every idle prefill worker while
// prompts wait.
func (s *disaggSim) startForwards() {
	for wi := range s.pre {
		w := &s.pre[wi]
		q := &s.queue
		if w.busy || q.len() == 0 {
			continue
		}
		k := min(s.kMax, q.len())
		w.batch = append(w.batch[:0], q.take(k)...)
		var tokens int
		var ctx float64
		for _, i := range w.batch {
			q := &s.reqs[i]
			q.sched = s.now
			tokens += q.prompt
			ctx += float64(q.prompt) * float64(q.prompt+1) / 2
		}
		f := s.m.forward(k, tokens, ctx, float64(tokens))
		w.busy = true
		s.forwards++
		s.prompts += k
		s.preBusy += f
		s.push(s.now+f, evForward, wi)
	}
}

// dsFIFO is a queue of request indices.
type dsFIFO struct {
	v    []int
	head int
}

func (q *dsFIFO) len() int   { return len(q.v) - q.head }
func (q *dsFIFO) push(i int) { q.v = append(q.v, i) }

// take removes and returns the first k (valid until the next push).
func (q *dsFIFO) take(k int) []int {
	out := q.v[q.head : q.head+k]
	q.head += k
	if q.head == len(q.v) {
		q.v, q.head = q.v[:0], 0
	}
	return out
}

// ready queues request i on its decode worker, which starts a step if it
// is idle.
func (s *disaggSim) ready(i int) {
	wi := s.reqs[i].worker
	w := &s.dec[wi]
	if len(w.running) >= s.nMax {
		s.slotWaits++
	}
	w.waiting = append(w.waiting, i)
	if !w.busy {
		s.startStep(wi)
	}
}

// startStep admits waiting requests into the free slots of decode worker
// wi and starts its next step, if any request runs.
func (s *disaggSim) startStep(wi int) {
	w := &s.dec[wi]
	for len(w.waiting) > 0 && len(w.running) < s.nMax {
		i := w.waiting[0]
		w.waiting = w.waiting[1:]
		// The first token streams at the join, before the step
		// (steady's comment, the first token at the join); the other
		// output − 1 take the steps from this one on.
		q := &s.reqs[i]
		q.join, q.first, q.left = s.now, s.now, float64(q.out-1)
		if q.left <= 1e-9 {
			q.finish = s.now
			s.send(s.now)
			continue
		}
		w.running = append(w.running, i)
	}
	if len(w.running) == 0 {
		w.busy = false
		return
	}
	w.busy = true
	t := s.step(len(w.running))
	w.runArea += float64(len(w.running)) * t
	s.push(s.now+t, evStep, wi)
}

// endStep gives each running request of decode worker wi its tokens,
// completes the finished ones (their clients send the next) and starts the
// next step.
func (s *disaggSim) endStep(wi int) {
	w := &s.dec[wi]
	keep := w.running[:0]
	for _, i := range w.running {
		q := &s.reqs[i]
		q.left -= s.m.tau
		if q.left <= 1e-9 {
			q.finish = s.now
			s.send(s.now)
			continue
		}
		keep = append(keep, i)
	}
	w.running = keep
	s.startStep(wi)
}

func (s *disaggSim) result() DisaggSimResult {
	n := len(s.reqs)
	ttft, tpot, pw, dw, e2e := make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	first, last := math.Inf(1), 0.0
	outTok := 0
	for i := range s.reqs {
		q := &s.reqs[i]
		ttft = append(ttft, q.first-q.send)
		e2e = append(e2e, q.finish-q.send)
		pw = append(pw, q.sched-q.arrive)
		dw = append(dw, q.join-q.handed)
		if q.out > 1 {
			tpot = append(tpot, (q.finish-q.first)/float64(q.out-1))
		}
		outTok += q.out
		first, last = min(first, q.send), max(last, q.finish)
	}
	res := DisaggSimResult{TTFT: disaggDist(ttft), TPOT: disaggDist(tpot), E2E: disaggDist(e2e), PrefillWait: disaggDist(pw), DecodeWait: disaggDist(dw),
		Requests: n}
	if d := last - first; d > 0 {
		res.DurationSeconds = d
		res.TokensPerSecond = finite(float64(outTok) / d)
		res.RequestsPerSecond = finite(float64(n) / d)
		res.PrefillBusy = finite(s.preBusy / (d * float64(len(s.pre))))
		var area float64
		for _, w := range s.dec {
			area += w.runArea
		}
		res.DecodeBatch = finite(area / (d * float64(len(s.dec))))
	}
	if s.forwards > 0 {
		res.PrefillBatch = float64(s.prompts) / float64(s.forwards)
	}
	switch {
	case 10*s.slotWaits > n:
		res.Bound = "decode"
	case res.PrefillBusy > 0.9:
		res.Bound = "prefill"
	default:
		res.Bound = "concurrency"
	}
	return res
}

// disaggDist is v's mean, median, 90th, 95th and 99th percentiles (linear between
// order statistics, as estimator/sim's dist); 0s for no values.
func disaggDist(v []float64) DisaggDist {
	if len(v) == 0 {
		return DisaggDist{}
	}
	slices.Sort(v)
	var sum float64
	for _, x := range v {
		sum += x
	}
	q := func(p float64) float64 {
		pos := p * float64(len(v)-1)
		lo := int(pos)
		hi := min(lo+1, len(v)-1)
		return v[lo] + (v[hi]-v[lo])*(pos-float64(lo))
	}
	return DisaggDist{Mean: finite(sum / float64(len(v))), P50: finite(q(0.5)), P90: finite(q(0.9)), P95: finite(q(0.95)), P99: finite(q(0.99))}
}
