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
