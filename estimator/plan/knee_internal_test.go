package plan

import "testing"

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
	if res.Cheapest != 1 || res.Rows[res.Cheapest].Why.Key != "reason.cheapest_tie" {
		t.Errorf("cheapest %d (%s), want row 1 by the tie", res.Cheapest, res.Rows[max(res.Cheapest, 0)].Why)
	}
	if got := res.Rows[1].Why.String(); got != "p b: cheapest that fits at 9.37 USD, within 1% of the lowest cost (p a, at 9.36 USD) for 2.00× its speed" {
		t.Errorf("the tie's sentence: %q", got)
	}
	if w := res.WhyNot(0); w.Key != "reason.cost_tie" || w.String() != "p a: p b costs at most 1% more and runs 2.00× as fast" {
		t.Errorf("the lowest-cost row's why-not: %q (%s)", w.String(), w.Key)
	}
	if len(res.Pareto) == 0 || res.Pareto[0] != 1 {
		t.Errorf("front %v: want it to start at row 1", res.Pareto)
	}
	// 2% dearer is not a tie; within 1% but less than 1% faster is a tie
	// the lowest cost keeps.
	for _, c := range [][2][2]float64{{{10, 100}, {10.2, 50}}, {{10, 100}, {10.05, 99.5}}} {
		if res := plan(c[0], c[1]); res.Cheapest != 0 || res.Rows[0].Why.Key != "reason.cheapest" {
			t.Errorf("%v: cheapest %d (%s), want the lowest cost", c, res.Cheapest, res.Rows[0].Why.Key)
		}
	}
}
