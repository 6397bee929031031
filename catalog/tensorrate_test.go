package catalog

import "testing"

// TestEveryBF16GPUHasATensorRate: a GPU the catalog says runs bf16 has a
// 16-bit tensor rate, so its speed is not the FP32 fallback's quarter of
// it (the RTX 5880 Ada had none).
func TestEveryBF16GPUHasATensorRate(t *testing.T) {
	for _, g := range Default().GPUs {
		if g.SupportsBF16 && !(g.BF16TFLOPS > 0) {
			t.Errorf("%s supports bf16 but has no bf16 tensor rate", g.ID)
		}
	}
}
