package catalog

import (
	"math"
	"strings"
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
// rule, from the host and not the GPU's generation: consumer cards in a
// desktop; otherwise the class most providers' known hosts of the GPU are
// of (T4: g4dn, n1, gn6i, GN7 Xeons of the Skylake family; A100: EPYC and
// Ice Lake hosts at Azure, OCI, Alibaba, Cudo, Yandex outvote AWS's and
// Google's Cascade Lake), else the server default.
func TestEveryGPUHasAGeneration(t *testing.T) {
	c := Default()
	for _, g := range c.GPUs {
		if g.Generation() == estimator.GenUnknown {
			t.Errorf("%s: architecture %q maps to no generation", g.ID, g.Architecture)
		}
	}
	for id, want := range map[string]estimator.HostClass{"rtx-4090": estimator.HostDesktop, "t4": estimator.HostLegacyServer, "a10g": estimator.HostServer,
		"a100-80gb-sxm": estimator.HostServer, "h100-sxm": estimator.HostServer, "b200": estimator.HostServer} {
		g, ok := c.GPU(id)
		if !ok {
			t.Fatalf("no GPU %s", id)
		}
		if hw, _ := g.Hardware(estimator.BF16); g.HostClass() != want || hw.HostClass != want {
			t.Errorf("%s: host class %v (hardware %v), want %v", id, g.HostClass(), hw.HostClass, want)
		}
	}
}

// TestHostClassOfOffers: an offer's host class comes from its instance's
// CPU (provider instance families, or the CPU its type names), and CPU
// names map by generation of the CPU, not of the GPU. Never from its
// notes, which app.wasm's catalog does not carry: the CLI and the page
// see one host CPU for every offer (Yandex's platforms were read from
// their notes, the whole note given as the CPU, on the CLI alone).
func TestHostClassOfOffers(t *testing.T) {
	if nHostClasses != len(estimator.HostClasses) {
		t.Fatalf("nHostClasses %d, estimator has %d", nHostClasses, len(estimator.HostClasses))
	}
	for cpu, want := range map[string]estimator.HostClass{
		"Intel Xeon Platinum 8275CL": estimator.HostLegacyServer, "Intel Xeon E5-2686 v4": estimator.HostLegacyServer,
		"Intel Xeon Platinum 8369B": estimator.HostServer, "Intel Xeon Platinum 8480C": estimator.HostServer,
		"AMD EPYC 7742": estimator.HostServer, "AMD Ryzen 9 7950X": estimator.HostDesktop, "epyc-genoa-a100-pcie_1x12v24gb": estimator.HostServer,
		"Intel Xeon Gold 6248": estimator.HostLegacyServer, "Intel Cascade Lake": estimator.HostLegacyServer,
	} {
		if got, ok := HostClassOfCPU(cpu); !ok || got != want {
			t.Errorf("HostClassOfCPU(%q) = %v, %v; want %v", cpu, got, ok, want)
		}
	}
	if _, ok := HostClassOfCPU("grace period of 30 days"); ok {
		t.Error("a note's words taken for a CPU")
	}
	c := Default()
	for id, want := range map[string]estimator.HostClass{"aws-p4de.24xlarge": estimator.HostLegacyServer, "aws-g5.xlarge": estimator.HostServer,
		"azure-standard_nd96amsr_a100_v4": estimator.HostServer, "aws-g4dn.xlarge": estimator.HostLegacyServer} {
		o, ok := c.Offer(id)
		if !ok {
			t.Errorf("no offer %s", id)
			continue
		}
		if got, ok := o.HostClass(); !ok || got != want {
			t.Errorf("%s (%s): host class %v, %v; want %v", id, o.HostCPU(), got, ok, want)
		}
	}
	yandex := map[string]estimator.HostClass{"gpu-standard-v1": estimator.HostLegacyServer, "gpu-standard-v2": estimator.HostLegacyServer,
		"gpu-standard-v3": estimator.HostServer, "standard-v3-t4": estimator.HostServer}
	seen := 0
	for _, o := range c.Offers {
		noNotes := o
		noNotes.Notes = ""
		if o.HostCPU() != noNotes.HostCPU() {
			t.Errorf("%s %s: host CPU %q read from its notes", o.Provider, o.InstanceType, o.HostCPU())
		}
		if want, ok := yandex[strings.Fields(o.InstanceType + " ")[0]]; ok && o.Provider == "yandex" {
			seen++
			if got, ok := o.HostClass(); !ok || got != want || len(o.HostCPU()) > 40 {
				t.Errorf("yandex %s: host %q, class %v, %v; want %v", o.InstanceType, o.HostCPU(), got, ok, want)
			}
		}
	}
	if seen == 0 {
		t.Error("no Yandex GPU offer checked")
	}
}

// Under FP8 and FP4 linears attention keeps the 16-bit rate
// (estimator.Hardware.AttnFLOPS): the H100's 989.5 BF16 TFLOPS beside its
// 1,979 FP8, the B200's BF16 beside its FP4; a 16-bit model sets none.
func TestGPUHardwareAttention(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		gpu string
		w   estimator.DType
	}{{"h100-sxm", estimator.FP8}, {"b200", estimator.FP4}, {"b200", estimator.FP8}, {"mi300x", estimator.FP8}} {
		g, ok := c.GPU(tc.gpu)
		if !ok {
			t.Fatalf("no %s", tc.gpu)
		}
		hw, _ := g.Hardware(tc.w)
		if want := g.BF16TFLOPS * 1e12; hw.AttnFLOPS != want || !(hw.PeakFLOPS > want) {
			t.Errorf("%s %v: attention %v FLOP/s, want the BF16 peak %v below the peak %v", tc.gpu, tc.w, hw.AttnFLOPS, want, hw.PeakFLOPS)
		}
	}
	g, _ := c.GPU("h100-sxm")
	if hw, _ := g.Hardware(estimator.BF16); hw.AttnFLOPS != 0 {
		t.Errorf("BF16: attention %v FLOP/s, want 0 (the peak)", hw.AttnFLOPS)
	}
	g, _ = c.GPU("a100-80gb-sxm") // no FP8 units: FP8 weights run at the BF16 peak
	if hw, _ := g.Hardware(estimator.FP8); hw.AttnFLOPS != 0 {
		t.Errorf("A100 FP8: attention %v FLOP/s, want 0 (the peak is already BF16)", hw.AttnFLOPS)
	}
}

// TestVLLMNamesSmall: vLLM singles out the A100 by name (its device name,
// lowered, contains "a100": vllm/engine/arg_utils.py, get_batch_defaults),
// so every catalog A100 carries the mark into its Hardware and no other
// GPU does, the A800 80GB (same board, another name) and the H100 included.
func TestVLLMNamesSmall(t *testing.T) {
	c := Default()
	for id, want := range map[string]bool{"a100-80gb-sxm": true, "a100-80gb-pcie": true, "a100-80gb": true, "a100-40gb": true,
		"a800-80gb": false, "h100-sxm": false, "a10g": false, "h200-sxm": false} {
		g, ok := c.GPU(id)
		if !ok {
			t.Fatalf("no GPU %s", id)
		}
		if hw, _ := g.Hardware(estimator.BF16); g.VLLMNamesSmall() != want || hw.VLLMSmallDefaults != want {
			t.Errorf("%s (%q): named %v, hardware mark %v, want %v", id, g.Name, g.VLLMNamesSmall(), hw.VLLMSmallDefaults, want)
		}
	}
}

// TestHalfAccumOnGeForceOnly: the FP16-accumulate rate reaches the
// estimator for the GeForce cards whose whitepapers give it (RTX 4090:
// Ada whitepaper v2.02 Table 2, 330.3 TFLOPS) and not for professional
// cards, which run FP16 and FP32 accumulation at one rate.
func TestHalfAccumOnGeForceOnly(t *testing.T) {
	c := Default()
	for id, want := range map[string]float64{"rtx-4090": 330.3e12, "rtx-3090": 142e12, "rtx-5090": 419.2e12,
		"rtx-6000-ada": 0, "l40s": 0, "a100-80gb-sxm": 0, "rtx-pro-6000-ws-maxq": 0} {
		g, ok := c.GPU(id)
		if !ok {
			t.Fatalf("GPU %s not in the catalog", id)
		}
		hw, _ := g.Hardware(estimator.FP16)
		if math.Abs(hw.HalfAccumFLOPS-want) > 1e6 {
			t.Errorf("%s: HalfAccumFLOPS %g, want %g", id, hw.HalfAccumFLOPS, want)
		}
	}
}
