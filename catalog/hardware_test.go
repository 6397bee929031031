package catalog

import (
	"testing"

	"rightsize/estimator"
)

func TestGPUHardware(t *testing.T) {
	c := Default()
	h100, _ := c.GPU("h100-sxm")
	hw, ok := h100.Hardware(estimator.BF16)
	// H100 SXM (catalog, from the datasheet): 989.5 TFLOPS dense BF16,
	// 3.35 TB/s HBM3, NVLink 900 GB/s (both directions).
	if !ok || hw.PeakFLOPS != 989.5e12 || hw.MemBandwidth != 3.35e12 || hw.LinkBandwidth != 450e9 {
		t.Errorf("h100-sxm bf16: %+v ok=%v", hw, ok)
	}
	if fp8, _ := h100.Hardware(estimator.FP8); fp8.PeakFLOPS <= hw.PeakFLOPS {
		t.Errorf("h100-sxm fp8 peak %v not above bf16 %v", fp8.PeakFLOPS, hw.PeakFLOPS)
	}
	if i4, _ := h100.Hardware(estimator.INT4); i4.PeakFLOPS != hw.PeakFLOPS {
		t.Errorf("weight-only int4 should compute at the bf16 rate: %v", i4.PeakFLOPS)
	}
	// T4 has no BF16: 65 TFLOPS FP16 tensor, 320 GB/s, PCIe.
	t4, _ := c.GPU("t4")
	if hw, ok := t4.Hardware(estimator.BF16); !ok || hw.PeakFLOPS != 65e12 || hw.LinkBandwidth != 0 {
		t.Errorf("t4 bf16: %+v ok=%v", hw, ok)
	}
	// P40 has no usable 16-bit rate: the FP32 rate, 12 TFLOPS.
	p40, _ := c.GPU("p40")
	if hw, ok := p40.Hardware(estimator.BF16); !ok || hw.PeakFLOPS != 12e12 || hw.MemBandwidth != 346e9 {
		t.Errorf("p40 bf16: %+v ok=%v", hw, ok)
	}
	// Every GPU has speed figures.
	for _, g := range c.GPUs {
		if _, ok := g.Hardware(estimator.BF16); !ok {
			t.Errorf("%s has no performance figures", g.ID)
		}
		if g.FP4TFLOPS > 0 && !g.SupportsFP4 || g.NVLinkDomain > 1 && g.NVLinkGBps == 0 {
			t.Errorf("%s: FP4 %v (supported %v), NVLink domain %d at %v GB/s", g.ID, g.FP4TFLOPS, g.SupportsFP4, g.NVLinkDomain, g.NVLinkGBps)
		}
	}
	if gb, _ := c.GPU("gb200"); gb.NVLinkDomain != 72 || gb.FP4TFLOPS != 10000 {
		t.Errorf("gb200: NVLink domain %d, FP4 %v", gb.NVLinkDomain, gb.FP4TFLOPS)
	}
}
