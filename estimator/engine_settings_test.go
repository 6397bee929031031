package estimator

import "testing"

// TestEngineTable: every engine has its product name, and exactly the
// engines with a pre-allocated KV pool name the three settings the pool
// and the scheduler read.
func TestEngineTable(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Engines {
		l := e.Label()
		if l == "" || l == e.String() || seen[l] {
			t.Errorf("%s: label %q", e, l)
		}
		seen[l] = true
		s := e.Settings()
		if named := s.MemShare != "" && s.TokenBudget != "" && s.MaxSeqs != ""; named != e.Pooled() {
			t.Errorf("%s: pooled %v, settings %+v", e, e.Pooled(), s)
		}
	}
	if got := SGLang.Settings().MemShare; got != "--mem-fraction-static" {
		t.Errorf("SGLang's memory share is %q", got)
	}
}
