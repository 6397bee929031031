package estimator

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxBinomialShareExact: E[max of g Binomial(n, p)] / n against cases
// worked by hand. Two Bernoulli(½): E[max] = 1 − ¼ = 0.75. Two
// Binomial(2, ½) (F = ¼, ¾): (1 − 1/16) + (1 − 9/16) = 1.375, share
// 0.6875. One group, or p at 0 or 1, is the mean.
func TestMaxBinomialShareExact(t *testing.T) {
	for _, c := range []struct {
		g    int
		n, p float64
		want float64
	}{{2, 1, 0.5, 0.75}, {2, 2, 0.5, 0.6875}, {1, 32, 0.3, 0.3}, {8, 32, 0, 0}, {8, 32, 1, 1}} {
		if got := maxBinomialShare(c.g, c.n, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("maxBinomialShare(%d, %v, %v) = %v, want %v", c.g, c.n, c.p, got, c.want)
		}
	}
}

// TestMaxBinomialShareRouting: the busiest EP group's share under uniform
// top-k routing, simulated exactly (each token draws k distinct experts of
// E, the experts placed in order over the groups), against the
// independent-slots formula: DeepSeek-V3's 256 experts, top 8, over 8 and
// 32 groups at decode batches of 1 to 256 tokens. The formula is within
// 3% of the simulation (it slightly overstates the spread: a token's k
// distinct draws are negatively correlated) and above the mean share
// wherever a group can be short.
func TestMaxBinomialShareRouting(t *testing.T) {
	const e, k, trials = 256, 8, 4000
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range []int{8, 32} {
		for _, tokens := range []int{1, 4, 16, 64, 256} {
			sum := 0.0
			for range trials {
				var hit [e]bool
				for range tokens {
					var drawn [e]bool
					for n := 0; n < k; {
						if x := rng.IntN(e); !drawn[x] {
							drawn[x], hit[x] = true, true
							n++
						}
					}
				}
				busiest := 0
				for grp := range g {
					c := 0
					for x := grp * e / g; x < (grp+1)*e/g; x++ {
						if hit[x] {
							c++
						}
					}
					busiest = max(busiest, c)
				}
				sum += float64(busiest) / float64(e/g)
			}
			sim := sum / trials
			p := 1 - math.Pow(1-float64(k)/e, float64(tokens))
			got := maxBinomialShare(g, float64(e/g), p)
			t.Logf("EP %d, %d tokens: formula %.4f, simulated %.4f, mean %.4f", g, tokens, got, sim, p)
			if math.Abs(got/sim-1) > 0.03 {
				t.Errorf("EP %d, %d tokens: formula %.4f, routing simulated %.4f", g, tokens, got, sim)
			}
			if tokens <= 64 && !(got > p*1.05) {
				t.Errorf("EP %d, %d tokens: busiest share %.4f not above the mean %.4f", g, tokens, got, p)
			}
		}
	}
}

// TestEPDecodeReadsTheBusiestGroup: a decode step with the experts split
// over EP groups reads the busiest group's experts; with them split over
// TP (EP 1) every GPU reads its slice of every touched expert. Table
// lookups and the direct formula agree.
func TestEPDecodeReadsTheBusiestGroup(t *testing.T) {
	in := DefaultInput(perfArch(t, "deepseek-v3.json"))
	in.Task, in.Engine, in.Weights, in.KV, in.VRAM, in.TP, in.GPUs = Inference, SGLang, FP8, FP8, 180*GiB, 8, 8
	hw := Hardware{PeakFLOPS: 2250e12, MemBandwidth: 8e12, LinkBandwidth: 900e9, Generation: GenBlackwell, NVLinkDomain: 8}
	tp := newInferModel(in, hw, Efficiency{})
	in.EP = 8
	ep := newInferModel(in, hw, Efficiency{})
	if tp.epShare != nil || len(ep.epShare) != epShareTable {
		t.Fatalf("tables: EP 1 %d, EP 8 %d", len(tp.epShare), len(ep.epShare))
	}
	for _, tokens := range []float64{1, 4, 16, 63, 64, 200, 4.5} {
		mean, busiest := tp.gpuWeightRead(tokens), ep.gpuWeightRead(tokens)
		if !(busiest > mean) {
			t.Errorf("%v tokens: EP 8 reads %.4g B, EP 1 %.4g B", tokens, busiest, mean)
		}
		if i := int(tokens); float64(i) == tokens && i < epShareTable {
			if got, want := ep.epShare[i], ep.expertShare(tokens); got != want {
				t.Errorf("%v tokens: table %v, formula %v", tokens, got, want)
			}
		}
	}
	if a, b := tp.gpuWeightRead(4096), ep.gpuWeightRead(4096); math.Abs(b/a-1) > 1e-6 {
		t.Errorf("4096 tokens: every expert touched, EP 8 %.6g B against EP 1 %.6g B", b, a)
	}
}
