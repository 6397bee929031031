package estimator

import "testing"

// TestECCVisible: the memory CUDA sees is named beside the usable memory
// only where it sets it: a GDDR card with ECC on (an A10G's 24 GiB shows
// 23,028 MiB, catalog ecc_memory_mib), not where the card's whole memory
// counts or the user measured their own (--usable-vram).
func TestECCVisible(t *testing.T) {
	ecc := Input{VRAM: 24 * GiB, VisibleVRAM: 23028 * MiB}
	if v := ecc.ECCVisible(); v != 23028*MiB {
		t.Errorf("A10G with ECC on: %d, want %d", v, 23028*MiB)
	}
	// 0.99 × 23,028 MiB = 22.263 GiB, the figure the note stands beside.
	if u := ecc.UsableBytes().GiB(); u < 22.263 || u > 22.264 {
		t.Errorf("A10G usable %.4f GiB, want 22.263", u)
	}
	for _, c := range []struct {
		name string
		in   Input
	}{
		{"HBM (no ECC share)", Input{VRAM: 80 * GiB}},
		{"measured usable memory", Input{VRAM: 24 * GiB, VisibleVRAM: 23028 * MiB, UsableVRAM: 20 * GiB}},
		{"visible equals the card", Input{VRAM: 24 * GiB, VisibleVRAM: 24 * GiB}},
	} {
		if v := c.in.ECCVisible(); v != 0 {
			t.Errorf("%s: %d, want 0", c.name, v)
		}
	}
}
