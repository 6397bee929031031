package plan

import (
	"math"
	"testing"
)

// TestClosedFormSLOStat: the closed form's figures at each statistic.
// TTFT: the speed model's mean plus the Erlang C wait's mean C/(kμ − λ)
// or quantile ln(C/(1 − q))/(kμ − λ). TPOT: the mean at the mean and the
// median; above them, where the closed form's figures are the plan's (no
// simulator), the mean TPOT at the Poisson quantile of the requests in
// flight; where the simulator sizes the plan, the mean for every
// statistic (a screen that sets aside no shape the simulator would size).
func TestClosedFormSLOStat(t *testing.T) {
	sc := serveCurve{ok: true, kvMax: 200, c: []float64{1, 8, 64, 200}, ttft: []float64{0.1, 0.12, 0.3, 0.8},
		tpot: []float64{0.01, 0.012, 0.02, 0.05}, prefillW: 0.05}
	const lam, k, out = 30.0, 2, 200.0
	a := lam * sc.prefillW
	pw, drain := erlangC(k, a), (k-a)/sc.prefillW
	base := sc.at(lam, k, out, SLOMean)
	if !base.ok {
		t.Fatal("no load")
	}
	mean := sc.interp(sc.ttft, math.Max(base.c, 1))
	if got, want := base.ttftS, mean+pw/drain; math.Abs(got-want) > 1e-12 {
		t.Errorf("mean TTFT %.6f, want %.6f", got, want)
	}
	if base.tpotS != base.tpot {
		t.Errorf("mean TPOT %.6f, want the mean %.6f", base.tpotS, base.tpot)
	}
	prev := 0.0
	for _, s := range []SLOStat{SLOP50, SLOP90, SLOP95, SLOP99} {
		l := sc.at(lam, k, out, s)
		q := s.Quantile()
		want := mean
		if pw > 1-q {
			want += math.Log(pw/(1-q)) / drain
		}
		if math.Abs(l.ttftS-want) > 1e-12 || l.ttftS < prev {
			t.Errorf("%s TTFT %.6f, want %.6f (not below %.6f)", s, l.ttftS, want, prev)
		}
		prev = l.ttftS
		if s == SLOP95 && l.ttftS != l.ttft95 {
			t.Errorf("p95 TTFT %.6f, the row's %.6f", l.ttftS, l.ttft95)
		}
		switch {
		case s == SLOP50 && l.tpotS != l.tpot:
			t.Errorf("p50 TPOT %.6f, want the mean %.6f", l.tpotS, l.tpot)
		case s != SLOP50 && !(l.tpotS > l.tpot):
			t.Errorf("%s TPOT %.6f, want above the mean %.6f without a simulator", s, l.tpotS, l.tpot)
		}
	}
	sc.sim = &simMemo{ok: true}
	if l := sc.at(lam, k, out, SLOP99); l.tpotS != l.tpot {
		t.Errorf("simulated shape: p99 TPOT screen %.6f, want the mean %.6f", l.tpotS, l.tpot)
	}
}
