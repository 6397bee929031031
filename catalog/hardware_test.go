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

// FP4 weights compute at the FP4 peak on Blackwell (B200: 9,000 dense
// TFLOPS; B300: 15,000), and dequantise to 16-bit elsewhere (H100: the
// BF16 peak): one rule for the CLI, the page and the planner.
func TestGPUHardwareFP4(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		id   string
		peak float64
	}{{"b200", 9000e12}, {"b300", 15000e12}, {"gb200", 10000e12}, {"h100-sxm", 989.5e12}} {
		g, _ := c.GPU(tc.id)
		hw, ok := g.Hardware(estimator.FP4)
		if !ok || hw.PeakFLOPS != tc.peak {
			t.Errorf("%s fp4 peak = %v (ok %v), want %v", tc.id, hw.PeakFLOPS, ok, tc.peak)
		}
	}
	// A Blackwell GPU without an FP4 figure takes its FP8 peak.
	for _, g := range c.GPUs {
		if !g.Blackwell() || (g.SupportsFP4 && g.FP4TFLOPS > 0) || g.FP8TFLOPS == 0 {
			continue
		}
		if hw, _ := g.Hardware(estimator.FP4); hw.PeakFLOPS != g.FP8TFLOPS*1e12 {
			t.Errorf("%s fp4 peak %v, want its fp8 %v", g.ID, hw.PeakFLOPS, g.FP8TFLOPS*1e12)
		}
	}
}

// GPU.Speed keeps the GPU's own NVLink domain unless the node says
// otherwise: a GB200 NVL72 job of 16 GPUs stays on NVLink.
func TestGPUSpeedNode(t *testing.T) {
	c := Default()
	g, _ := c.GPU("gb200")
	hw, ok := g.HardwareOn(estimator.BF16, Node{})
	if !ok || hw.NVLinkDomain != 72 || hw.NetworkBandwidth != 0 {
		t.Errorf("gb200 default node: domain %d network %v", hw.NVLinkDomain, hw.NetworkBandwidth)
	}
	hw, _ = g.HardwareOn(estimator.BF16, Node{GPUsPerNode: 4, NetworkGbps: 3200})
	if hw.NVLinkDomain != 4 || hw.NetworkBandwidth != 100e9 {
		t.Errorf("gb200 4-GPU node at 3200 Gbit/s: domain %d network %v, want 4 and 100e9", hw.NVLinkDomain, hw.NetworkBandwidth)
	}
	var none GPU
	if _, _, err := none.Speed(estimator.DefaultInput(estimator.Arch{}), estimator.Efficiency{}, estimator.Workload{}, Node{}); err != ErrNoFigures {
		t.Errorf("GPU without figures: err %v, want ErrNoFigures", err)
	}
}

// Every catalog GPU's architecture name maps to a typed generation (the
// estimator reads no names), and the host classes follow the stated
// rule: consumer cards in a desktop, data-centre cards up to Ampere in an
// older server, the rest in an H100-class server.
func TestEveryGPUHasAGeneration(t *testing.T) {
	c := Default()
	for _, g := range c.GPUs {
		if g.Generation() == estimator.GenUnknown {
			t.Errorf("%s: architecture %q maps to no generation", g.ID, g.Architecture)
		}
	}
	for id, want := range map[string]estimator.HostClass{"rtx-4090": estimator.HostDesktop, "t4": estimator.HostLegacyServer,
		"a100-80gb-sxm": estimator.HostLegacyServer, "h100-sxm": estimator.HostServer, "b200": estimator.HostServer} {
		g, ok := c.GPU(id)
		if !ok {
			t.Fatalf("no GPU %s", id)
		}
		if hw, _ := g.Hardware(estimator.BF16); g.HostClass() != want || hw.HostClass != want {
			t.Errorf("%s: host class %v (hardware %v), want %v", id, g.HostClass(), hw.HostClass, want)
		}
	}
}
