package estimator

import "testing"

// The table's cells (firstwave.go, fitted on the InferenceX fit rows):
// one per vendor for the engines with rows, none for the rest.
func TestColdFirstWaveSeconds(t *testing.T) {
	for _, c := range []struct {
		e      Engine
		vendor string
		want   float64
	}{{SGLang, "NVIDIA", 0.45}, {TRTLLM, "NVIDIA", 0.45}, {SGLang, "AMD", 3.35}, {VLLM, "NVIDIA", 0}, {VLLM, "AMD", 0},
		{HF, "NVIDIA", 0}, {LlamaCpp, "NVIDIA", 0}, {SGLang, "Intel", 0}, {SGLang, "", 0}} {
		if got := ColdFirstWaveSeconds(c.e, c.vendor); got != c.want {
			t.Errorf("ColdFirstWaveSeconds(%v, %q) = %v, want %v", c.e, c.vendor, got, c.want)
		}
	}
}
