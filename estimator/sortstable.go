package estimator

import "slices"

// SortStable sorts s stably by cmp, as slices.SortStableFunc does, through
// a slice of indexes. Every element type then shares the one []int
// instantiation of the sort, where slices.SortStableFunc on a struct type
// compiles a sort of its own: 7–20 KB of the page's WebAssembly each
// (the planner's, the page's and the catalog's sorts of rows, offers,
// hosted APIs and candidates were about 60 KB of it).
func SortStable[E any](s []E, cmp func(a, b *E) int) {
	if len(s) < 2 {
		return
	}
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp(&s[i], &s[j]) })
	sorted := make([]E, len(s))
	for k, i := range idx {
		sorted[k] = s[i]
	}
	copy(s, sorted)
}
