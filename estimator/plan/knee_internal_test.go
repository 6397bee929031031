package plan

import (
	"slices"
	"strings"
	"testing"
)

// TestKneeLeastCostTimesTime: the best value is the front's plan with the
// least cost × time, ties to the cheaper: a plan 1.33× the cost for 44.9×
// the speed is the value (the chord's knee had no point to find between
// two and kept the cheapest); one 2.83× the cost for 2.68× the speed is
// not; on a three-point front the middle plan wins when it saves more
// time than it costs.
func TestKneeLeastCostTimesTime(t *testing.T) {
	rows := func(ct ...[2]float64) []Row {
		r := make([]Row, len(ct))
		for i, x := range ct {
			r[i].cost, r[i].time = x[0], x[1]
		}
		return r
	}
	front := func(n int) []int {
		f := make([]int, n)
		for i := range f {
			f[i] = i
		}
		return f
	}
	for _, c := range []struct {
		name string
		rows []Row
		want int
	}{
		{"1.33× the cost for 44.9× the speed", rows([2]float64{20.33, 17.7 * 3600}, [2]float64{27.06, 17.7 * 3600 / 44.9}), 1},
		{"2.83× the cost for 2.68× the speed", rows([2]float64{1679, 0.312}, [2]float64{1679 * 2.83, 0.312 / 2.68}), 0},
		{"a tie keeps the cheaper", rows([2]float64{10, 4}, [2]float64{20, 2}), 0},
		{"the middle plan", rows([2]float64{10, 100}, [2]float64{12, 20}, [2]float64{100, 10}), 1},
		{"one plan", rows([2]float64{10, 100}), 0},
	} {
		if got := knee(c.rows, front(len(c.rows))); got != c.want {
			t.Errorf("%s: value %d, want %d", c.name, got, c.want)
		}
	}
	if knee(nil, nil) != -1 {
		t.Error("an empty front has a value")
	}
}

// TestCheapestWinsCostTiesOnSpeed: a plan 0.06% dearer than the lowest
// cost at twice its speed is the cheapest pick (the default page's
// 8 × H200 against 4 × H200, $9.37 against $9.36), with a sentence naming
// the tie; the lowest-cost row is off the front and says why; a plan 2%
// dearer does not win on speed; a tie on speed within 1% keeps the
// lowest cost.
func TestCheapestWinsCostTiesOnSpeed(t *testing.T) {
	plan := func(ct ...[2]float64) *Result {
		res := &Result{Currency: "USD", Cheapest: -1, Fastest: -1, Value: -1}
		for i, x := range ct {
			res.Rows = append(res.Rows, Row{Offer: &Offer{ID: string(rune('a' + i)), Provider: "p", InstanceType: string(rune('a' + i))}, Fits: true, Instances: 1, RankedCostDisp: x[0], cost: x[0], time: x[1]})
		}
		recommend(res, Batch)
		return res
	}
	res := plan([2]float64{9.3597, 4222}, [2]float64{9.3656, 2111}, [2]float64{9.71, 1153}, [2]float64{12.13, 1103})
	if res.Cheapest != 1 || res.Rows[res.Cheapest].Why.Key != MsgReasonCheapestTie {
		t.Errorf("cheapest %d (%s), want row 1 by the tie", res.Cheapest, res.Rows[max(res.Cheapest, 0)].Why)
	}
	if got := res.Rows[1].Why.String(); got != "p b: cheapest that fits at 9.37 USD, within 1% of the lowest cost (p a, at 9.36 USD) for 2.00× its speed" {
		t.Errorf("the tie's sentence: %q", got)
	}
	if w := res.WhyNot(0); w.Key != MsgReasonCostTie || w.String() != "p a: p b costs at most 1% more and runs 2.00× as fast" {
		t.Errorf("the lowest-cost row's why-not: %q (%s)", w.String(), w.Key)
	}
	if len(res.Pareto) == 0 || res.Pareto[0] != 1 {
		t.Errorf("front %v: want it to start at row 1", res.Pareto)
	}
	// 2% dearer is not a tie; within 1% but less than 1% faster is a tie
	// the lowest cost keeps.
	for _, c := range [][2][2]float64{{{10, 100}, {10.2, 50}}, {{10, 100}, {10.05, 99.5}}} {
		if res := plan(c[0], c[1]); res.Cheapest != 0 || res.Rows[0].Why.Key != MsgReasonCheapest {
			t.Errorf("%v: cheapest %d (%s), want the lowest cost", c, res.Cheapest, res.Rows[0].Why.Key)
		}
	}
}

// recommendOf recommends rows of the given cost and time (a job's cost
// and seconds, or a month's cost and a request's p95 seconds) as a job of
// kind.
func recommendOf(kind Kind, ct ...[2]float64) *Result {
	res := &Result{Currency: "USD", Cheapest: -1, Fastest: -1, Quickest: -1, Value: -1}
	for i, x := range ct {
		res.Rows = append(res.Rows, Row{Offer: &Offer{ID: string(rune('a' + i)), Provider: "p", InstanceType: string(rune('a' + i))}, Fits: true, Instances: 1,
			RankedCostDisp: x[0], cost: x[0], time: x[1], E2EP95Seconds: x[1]})
	}
	recommend(res, kind)
	return res
}

// TestFastestWinsTimeTiesOnCost: a 1B LoRA on 1B tokens (the catalog's
// plan, 2026-11): 16 × Azure ND40rs_v2 (128 V100s) at 0.394 h and 173 USD
// is 4.8% faster than one 8 × B200 at 0.413 h and 28.4 USD, inside the
// speed model's error: the B200 is the quickest plan, and the faster
// alternative too (77× faster for 1.26× the cost); the V100 fleet, at
// 7.7× the cheapest's cost, is past the alternative's bound and says so.
// Within the bound a lead inside FastestTolerance is a tie the cheaper
// plan wins, its sentence naming it; a tie the cheapest plan is in makes
// it the fastest too; a lead past the tolerance but under AltMinSpeedup
// leaves no alternative.
func TestFastestWinsTimeTiesOnCost(t *testing.T) {
	plan := recommendOf
	l4, b200, v100 := [2]float64{22.46, 31.88 * 3600}, [2]float64{28.41, 0.4129 * 3600}, [2]float64{173.44, 0.3938 * 3600}
	res := plan(Training, l4, b200, v100)
	if res.Fastest != 1 || res.Value != 1 || res.Quickest != 1 || res.Rows[1].Recommendation != RecFastest {
		t.Fatalf("fastest %d, value %d, quickest %d, want the B200 (row 1) for each", res.Fastest, res.Value, res.Quickest)
	}
	if got := res.WhyFastest.String(); got != "p b: 77.2× faster for 1.26× the cost of the cheapest plan, 0.413 h" {
		t.Errorf("the fastest pick's sentence: %q", got)
	}
	if got := res.WhyNot(2).String(); got != "p c: 81.0× faster for 7.72× the cost of the cheapest plan, more than the 2× its cost a faster alternative may take" {
		t.Errorf("the row past the bound: %q", got)
	}
	if !slices.Equal(res.Pareto, []int{0, 1, 2}) {
		t.Errorf("front %v: the tie stays on it", res.Pareto)
	}
	// The same V100 fleet within the bound (40 USD): a tie the B200 wins.
	res = plan(Training, l4, b200, [2]float64{40, 0.3938 * 3600})
	if got := res.WhyFastest.String(); res.Fastest != 1 || got != "p b: 77.2× faster for 1.26× the cost of the cheapest plan, 0.413 h, within 7% of the shortest time at up to 2× that cost (p c, 0.394 h)" {
		t.Errorf("the fastest pick's tie: %d, %q", res.Fastest, got)
	}
	if got := res.WhyNot(2).String(); got != "p c: 1.05× as fast as p b, within the 7% the estimate cannot tell apart, for 1.41× its cost: not the fastest pick" {
		t.Errorf("the passed-over row's sentence: %q", got)
	}
	// 0.37 h is 11.6% faster than the B200: no tie.
	if res := plan(Training, l4, b200, [2]float64{40, 0.37 * 3600}); res.Fastest != 2 || res.WhyFastest.Key != MsgReasonFastest {
		t.Errorf("a plan 11.6%% faster: fastest %d (%s), want row 2", res.Fastest, res.WhyFastest.Key)
	}
	// Serving ranks by the p95 time per request, whose error spreads
	// wider than training time's: a plan at 1.5× the cost 7.45% faster
	// is a tie the cheaper plan wins, each sentence naming 9%; in a
	// training job (7%) the same lead is no tie, and under AltMinSpeedup:
	// no alternative.
	r1 := [][2]float64{{0.20e6, 1.0745}, {0.30e6, 1}}
	res = plan(Serving, r1...)
	if res.Fastest != 0 || res.WhyFastest.Key != MsgReasonFastestCheapestTie || res.Rows[1].Why.Key != MsgReasonFastestPassed {
		t.Errorf("serving, a 7.45%% lead: fastest %d (%s), row 1 %s", res.Fastest, res.WhyFastest.Key, res.Rows[1].Why.Key)
	}
	if got := res.WhyFastest.String(); got != "p a: the cheapest plan is also the fastest, p95 1.07 s per request, within 9% of the shortest time (p b, p95 1.00 s per request) for 0.667× its cost" {
		t.Errorf("serving, the cheapest's tie: %q", got)
	}
	if got := res.WhyNot(1).String(); got != "p b: 1.07× as fast as p a, within the 9% the estimate cannot tell apart, for 1.50× its cost: not the fastest pick" {
		t.Errorf("serving, the passed-over row's sentence: %q", got)
	}
	if res := plan(Training, r1...); res.Fastest != -1 || res.Value != 0 || res.WhyFastest.Key != MsgReasonNoAlternative {
		t.Errorf("training, a 7.45%% lead: fastest %d (%s), value %d, want none", res.Fastest, res.WhyFastest.Key, res.Value)
	}
	// A batch job's time is its throughput's: a 10% lead is a tie
	// (11%), a 12% lead is not, and is no alternative.
	if res := plan(Batch, [2]float64{100, 1.10}, [2]float64{150, 1}); res.Fastest != 0 || !strings.Contains(res.WhyFastest.String(), "within 11% of the shortest time") {
		t.Errorf("batch, a 10%% lead: fastest %d (%s)", res.Fastest, res.WhyFastest)
	}
	if res := plan(Batch, [2]float64{100, 1.12}, [2]float64{150, 1}); res.Fastest != -1 || res.Quickest != 1 {
		t.Errorf("batch, a 12%% lead: fastest %d, quickest %d, want none and row 1", res.Fastest, res.Quickest)
	}
}

// TestFasterAlternativeIsBounded: the faster alternative beside the
// cheapest is the quickest front row within AltCostBound (2×) of its
// cost, shown only at AltMinSpeedup (1.2×) or more, and its sentence
// states it against the cheapest; a front row past the bound is the
// quickest plan but not the alternative; with no row 1.2× as fast within
// the bound there is none, and the sentence says what the quickest would
// buy.
func TestFasterAlternativeIsBounded(t *testing.T) {
	cheap := [2]float64{100, 10 * 3600}
	for _, c := range []struct {
		name                 string
		rows                 [][2]float64
		fastest, best, value int
		why                  string
	}{
		{"1.9× faster for 1.4×, and 3× faster for 2.5×", [][2]float64{cheap, {140, 10 * 3600 / 1.9}, {250, 10 * 3600 / 3.0}}, 1, 2, 1,
			"p b: 1.90× faster for 1.40× the cost of the cheapest plan, 5.26 h"},
		// The best value stays within the bound: 1.1× the cost for 1.15×
		// the speed, not the 6× for 5× past it.
		{"1.15× faster for 1.1×, and 5× faster for 6×", [][2]float64{cheap, {110, 10 * 3600 / 1.15}, {600, 2 * 3600}}, -1, 2, 1,
			"p a: no plan within 2× its cost runs at least 20% faster, so no faster plan is shown; the fastest, p c, runs 5.00× as fast for 6.00× the cost"},
		{"the bound itself: 1.5× faster for 2×", [][2]float64{cheap, {200, 10 * 3600 / 1.5}}, 1, 1, 0,
			"p b: 1.50× faster for 2.00× the cost of the cheapest plan, 6.67 h"},
		{"the cheapest is the quickest", [][2]float64{cheap, {150, 11 * 3600}}, 0, 0, 0,
			"p a: the cheapest plan is also the fastest, 10 h"},
	} {
		res := recommendOf(Training, c.rows...)
		if res.Fastest != c.fastest || res.Quickest != c.best || res.Value != c.value || res.WhyFastest.String() != c.why {
			t.Errorf("%s: fastest %d, quickest %d, value %d, %q; want %d, %d, %d, %q", c.name, res.Fastest, res.Quickest, res.Value, res.WhyFastest,
				c.fastest, c.best, c.value, c.why)
		}
		if c.fastest < 0 && slices.ContainsFunc(res.Rows, func(r Row) bool { return r.Recommendation == RecFastest }) {
			t.Errorf("%s: no alternative, but a row marked fastest", c.name)
		}
	}
	// A best value that is the faster alternative but not the quickest
	// plan overall is not called the fastest.
	res := recommendOf(Training, cheap, [2]float64{140, 10 * 3600 / 1.9}, [2]float64{250, 10 * 3600 / 3.0})
	if got, want := res.WhyValue.String(), "p b: the faster alternative is also the best value, 1.40× the cheapest plan's cost for 1.90× its speed"; got != want {
		t.Errorf("value %d: %q, want %q", res.Value, got, want)
	}
	// The cheapest as the best value says within what bound.
	res = recommendOf(Training, cheap, [2]float64{300, 10 * 3600 / 2})
	if got := res.WhyValue.String(); res.Value != 0 || got != "p a: the cheapest plan is also the best value: no dearer plan within 2× its cost buys enough speed for its cost" {
		t.Errorf("value %d: %q", res.Value, got)
	}
}
