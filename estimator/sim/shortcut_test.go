package sim

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"rightsize/estimator"
)

// samePlain runs cfg with the simulator's shortcuts and without them (the
// plain decodeRun, no decode-step table) and
// fails unless both give the same result, to the bit, or the same error.
func samePlain(t *testing.T, name string, cfg Config) {
	t.Helper()
	fast, ferr := Run(cfg)
	cfg.plain = true
	ref, rerr := Run(cfg)
	if (ferr == nil) != (rerr == nil) || (ferr != nil && ferr.Error() != rerr.Error()) {
		t.Fatalf("%s: error %v with the shortcuts, %v without", name, ferr, rerr)
	}
	if fast != ref {
		t.Fatalf("%s: with the shortcuts\n%+v\nwithout\n%+v", name, fast, ref)
	}
}

// shortcutModels are serving models of several shapes: dense and
// sliding-window attention, 16-bit and quantised weights, Hopper and
// Blackwell (where SGLang polls), tensor and attention data parallelism.
func shortcutModels(t *testing.T) []Config {
	t.Helper()
	blackwell := estimator.Hardware{PeakFLOPS: 2250e12, MemBandwidth: 8e12, LinkBandwidth: 900e9, Generation: estimator.GenBlackwell}
	var out []Config
	for _, c := range []struct {
		model   string
		hw      estimator.Hardware
		vram    estimator.Bytes
		weights estimator.DType
		tp, dp  int
		engine  estimator.Engine
	}{
		{"llama-3.1-8b", h100SXM, 80 * gib, estimator.BF16, 1, 0, estimator.VLLM},
		{"llama-3.1-8b", h100SXM, 80 * gib, estimator.BF16, 1, 0, estimator.SGLang},
		{"llama-3.1-8b", h100SXM, 80 * gib, estimator.BF16, 2, 0, estimator.TRTLLM},
		{"llama-3.1-8b", blackwell, 180 * gib, estimator.BF16, 1, 0, estimator.SGLang},
		{"llama-3.2-1b", blackwell, 180 * gib, estimator.INT8, 1, 0, estimator.SGLang},
		{"gemma-3-1b", h100SXM, 80 * gib, estimator.BF16, 1, 0, estimator.VLLM},
		{"llama-3.1-70b", h100SXM, 80 * gib, estimator.FP8, 4, 4, estimator.TRTLLM},
		{"llama-3.1-70b", blackwell, 180 * gib, estimator.FP8, 2, 0, estimator.SGLang},
	} {
		in := estimator.DefaultInput(readArch(t, c.model))
		in.Engine, in.VRAM, in.Weights, in.TP, in.GPUs, in.DP = c.engine, c.vram, c.weights, c.tp, c.tp, c.dp
		cfg, err := NewConfig(in, c.hw, estimator.Efficiency{}, estimator.Workload{PromptTokens: 1000, OutputTokens: 200})
		if err != nil {
			t.Fatalf("%s on %v: %v", c.model, c.hw.Generation, err)
		}
		out = append(out, cfg)
	}
	return out
}

// The shortcuts (decodeRun's, the decode-step table) change how much work
// a run takes, never its result: random loads (open and closed loops, fixed and drawn lengths, pools
// small enough to preempt) and scheduler settings on several models give
// the same result, to the bit, as the plain loop.
func TestShortcutsMatchPlain(t *testing.T) {
	// Every run keeps the decode-step table from its first steps, in 16
	// slots: steps replace each other in them all the time.
	defer func(n, b int) { stepTableAfter, stepTableBits = n, b }(stepTableAfter, stepTableBits)
	stepTableAfter, stepTableBits = 0, 4
	models := shortcutModels(t)
	rng := rand.New(rand.NewPCG(7, 11))
	n := 240
	if testing.Short() {
		n = 60
	}
	for i := range n {
		cfg := models[i%len(models)]
		p := &cfg.Policy
		switch rng.IntN(4) {
		case 0:
			p.AdmitEvery = []int{0, 1, 2, 10, 30}[rng.IntN(5)]
			p.RecvSkip = rng.IntN(2) == 0 // SGLang's receive skipper
		case 1:
			p.BalanceRanks, p.BalanceWaitSteps = 2+rng.IntN(7), rng.IntN(80)
		case 2:
			p.MaxSeqs = 1 + rng.IntN(64)
		}
		l := &cfg.Load
		l.Requests, l.Seed = 1+rng.IntN(200), rng.Uint64()
		l.PromptTokens, l.OutputTokens = 1+rng.IntN(4000), 1+rng.IntN(2000)
		if rng.IntN(2) == 0 {
			l.RangeRatio = rng.Float64()
		}
		if rng.IntN(3) == 0 {
			l.Concurrency = 1 + rng.IntN(128)
			if rng.IntN(2) == 0 {
				l.FirstWaveSeconds = rng.Float64() // a cold first wave
			}
		} else {
			l.RatePerSecond = math.Exp(rng.Float64()*9 - 4) // 0.02..150 requests/s
		}
		if rng.IntN(4) == 0 {
			// A pool of a few requests: admission waits, preemption.
			cfg.KVTokens = int64(float64(l.PromptTokens+l.OutputTokens) * (1 + 6*rng.Float64()))
		}
		samePlain(t, "case "+itoa(i), cfg)
	}
}

// sortTimes orders latencies exactly as slices.Sort does: the same
// values in the same places, whatever their spread, ties, zeros, or a
// negative, infinite or NaN value among them; and whatever crowds its
// buckets: a narrow bulk with a far tail, ranges among the subnormals or
// up to the largest float, values a few ulps apart.
func TestSortTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	odd := []float64{0, -1, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
	for i := range 4000 {
		n := rng.IntN(300)
		v := make([]float64, n)
		base := rng.Float64()
		for j := range v {
			switch k := rng.IntN(8); {
			case k == 0:
				v[j] = float64(rng.IntN(5)) // ties
			case k == 1:
				v[j] = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(12)-8))
			case k == 2 && i%3 == 0:
				v[j] = base + rng.Float64()*1e-3 // a narrow bulk ...
			case k == 3 && i%3 == 0:
				v[j] = base * (1 + 100*rng.Float64()) // ... and its tail
			case k == 4 && i%5 == 0:
				v[j] = math.Float64frombits(math.Float64bits(base) + uint64(rng.IntN(8))) // ulps apart
			case k == 5 && i%11 == 0:
				v[j] = math.Float64frombits(uint64(rng.IntN(1000))) // subnormals
			case k == 6 && i%13 == 0:
				v[j] = math.MaxFloat64 * rng.Float64()
			default:
				v[j] = rng.Float64()
			}
			if i%7 == 0 && rng.IntN(50) == 0 {
				v[j] = odd[rng.IntN(len(odd))]
			}
		}
		checkSortTimes(t, "case "+itoa(i), v)
	}
}

// FuzzSortTimes: sortTimes of any values is slices.Sort's order.
func FuzzSortTimes(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	f.Fuzz(func(t *testing.T, b []byte) {
		v := make([]float64, len(b)/8)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		checkSortTimes(t, "fuzz", v)
	})
}

func checkSortTimes(t *testing.T, name string, v []float64) {
	t.Helper()
	want := slices.Clone(v)
	slices.Sort(want)
	sortTimes(v)
	for j := range v {
		// slices.Sort leaves −0 and +0 in either order, and NaNs first.
		if math.Float64bits(v[j]) != math.Float64bits(want[j]) && !(math.IsNaN(v[j]) && math.IsNaN(want[j])) && !(v[j] == 0 && want[j] == 0) {
			t.Fatalf("%s: at %d %v, slices.Sort has %v", name, j, v[j], want[j])
		}
	}
}

// A run's arrays come from the pool dirty from other runs: a run is the
// same after any other.
func TestPooledArraysClean(t *testing.T) {
	a := testConfig(t, estimator.VLLM, 800, 100)
	a.Load.Requests, a.Load.RatePerSecond, a.Load.RangeRatio = 120, 15, DefaultRangeRatio
	b := testConfig(t, estimator.SGLang, 3000, 700)
	b.Load.Requests, b.Load.Concurrency, b.KVTokens = 400, 64, 40000
	first := run(t, a)
	run(t, b)
	if again := run(t, a); again != first {
		t.Fatalf("after another run\n%+v\nfirst\n%+v", again, first)
	}
}

// decodeRun's shortcut rests on the step model taking no less time for a
// decode-only step of the same sequences at a longer context. Checked
// over contexts from one token a sequence to a million, finely (a
// quarter token a sequence) at the short end and geometrically beyond,
// on every shape of shortcutModels.
func TestDecodeStepMonotoneInContext(t *testing.T) {
	for i, cfg := range shortcutModels(t) {
		for _, n := range []int{1, 2, 7, 64, 300} {
			nf := float64(n)
			prev, prevCtx := 0.0, 0.0
			check := func(ctx float64) {
				v := cfg.Model.StepSeconds(estimator.Step{DecodeSeqs: n, DecodeContext: ctx})
				if v < prev {
					t.Fatalf("model %d, %d sequences: %.17g s at context %g, %.17g s at %g", i, n, v, ctx, prev, prevCtx)
				}
				prev, prevCtx = v, ctx
			}
			for x := nf; x < nf*2048; x += max(0.5, nf/4) {
				check(x)
			}
			for x := nf * 2048; x < nf*1e6; x *= 1.01 {
				check(math.Round(x))
			}
		}
	}
}

// SkipQueue changes nothing but the Queue distribution, which it leaves
// zero.
func TestSkipQueue(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 800, 100)
	cfg.Load.Requests, cfg.Load.RatePerSecond, cfg.Load.RangeRatio = 150, 15, DefaultRangeRatio
	full := run(t, cfg)
	cfg.SkipQueue = true
	skip := run(t, cfg)
	if skip.Queue != (Dist{}) || full.Queue == (Dist{}) {
		t.Fatalf("queue with SkipQueue %+v, without %+v", skip.Queue, full.Queue)
	}
	skip.Queue = full.Queue
	if skip != full {
		t.Fatalf("with SkipQueue\n%+v\nwithout\n%+v", skip, full)
	}
}

// E2EMeanOnly changes nothing but the E2E distribution, whose mean it
// keeps (to its last bits: summed in another order) and whose other
// figures it leaves zero.
func TestE2EMeanOnly(t *testing.T) {
	cfg := testConfig(t, estimator.VLLM, 800, 100)
	cfg.Load.Requests, cfg.Load.RatePerSecond, cfg.Load.RangeRatio = 150, 15, DefaultRangeRatio
	full := run(t, cfg)
	cfg.E2EMeanOnly = true
	brief := run(t, cfg)
	if want := (Dist{Mean: brief.E2E.Mean}); brief.E2E != want || math.Abs(brief.E2E.Mean/full.E2E.Mean-1) > 1e-12 {
		t.Fatalf("E2E with E2EMeanOnly %+v, without %+v", brief.E2E, full.E2E)
	}
	brief.E2E = full.E2E
	if brief != full {
		t.Fatalf("with E2EMeanOnly\n%+v\nwithout\n%+v", brief, full)
	}
}
