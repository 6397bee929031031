package plan

import "testing"

// searchCopies on monotone answers: the smallest multiple of the step at
// or above the threshold T (to 1/64 of the count beyond 128 steps), the
// largest count below it that misses, and at most 2⌈log₂(hi/step)⌉ + 2
// probes from any guess.
func TestSearchCopies(t *testing.T) {
	for _, step := range []int{1, 2, 8} {
		hi := 8192 * step
		bound := 2
		for n := 1; n < hi/step; n *= 2 {
			bound += 2
		}
		for _, T := range []int{1, 2, 7, 37, 130, 1000, 5000, hi - 3} {
			want := (T + step - 1) / step * step
			for _, guess := range []int{0, 1, 5, 36, 37, 38, 500, 4000, hi} {
				for _, lo := range []int{1, 3, 40} {
					probes := 0
					k, miss, ok := searchCopies(lo, hi, step, guess, func(k int) (bool, bool) {
						probes++
						if k%step != 0 || k < 1 || k > hi {
							t.Fatalf("step %d: probed %d", step, k)
						}
						return k >= T, true
					})
					up := func(k int) int { return (k + step - 1) / step * step }
					w, margin := max(want, up(lo)), step
					if w >= 128*step {
						margin = max(step, w/64/step*step)
					}
					if !ok || k < w || k > w+margin || (miss != 0 && (miss >= T || k-miss > max(step, k/64/step*step))) ||
						(miss == 0 && k != up(lo)) {
						t.Errorf("step %d, T %d, lo %d, guess %d: %d (miss %d, ok %v), want %d (+%d)", step, T, lo, guess, k, miss, ok, w, margin)
					}
					if probes > bound {
						t.Errorf("step %d, T %d, lo %d, guess %d: %d probes, want at most %d", step, T, lo, guess, probes, bound)
					}
				}
			}
		}
		// No count meets: not ok, within the bound.
		probes := 0
		if _, _, ok := searchCopies(1, hi, step, 3, func(int) (bool, bool) { probes++; return false, true }); ok || probes > bound {
			t.Errorf("step %d: none meets, ok %v after %d probes", step, ok, probes)
		}
	}
}
