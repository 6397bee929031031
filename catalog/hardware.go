package catalog

import (
	"errors"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Hardware gives the estimator's performance figures for this GPU when its
// weights are stored as w. The peak is the datasheet's dense tensor rate
// for the dtype the matmuls run in:
//   - fp32: TF32 tensor cores are off by default for matmuls in PyTorch
//     (torch.backends.cuda.matmul.allow_tf32 = False since 1.12), so the
//     non-tensor FP32 rate;
//   - fp8: the FP8 rate where the GPU has one;
//   - bf16, fp16 and the weight-only formats (int8/int4/NF4/GGUF, which
//     dequantise to 16-bit before the matmul): BF16, or FP16 on GPUs
//     without BF16 (T4, V100);
//   - fp4 on Blackwell: NVFP4/MXFP4 tensor cores compute in FP4 (NVIDIA,
//     "Introducing NVFP4", 2025), so the dense FP4 peak, or the FP8 peak
//     where the catalog has no FP4 figure (an underestimate of prefill);
//     elsewhere FP4 weights are dequantised to 16-bit (W4A16 kernels) and
//     the BF16 peak applies;
//   - GPUs with no 16-bit rate in the catalog (Pascal P4/P40, whose FP16
//     runs at 1/64 of FP32, and cards whose tensor rate is not sourced):
//     the FP32 rate, as frameworks compute there in FP32.
//
// This is the one place a GPU's figures are chosen: the CLI, the page, the
// planner (PlanOffers) and validate all call it.
//
// NVLink (and Infinity Fabric) datasheets quote both directions together, so the link figure is
// halved (H100 SXM: 900 GB/s → 450e9 B/s each way); PCIe-only GPUs leave
// it 0 and the estimator uses PCIe 4.0 x16. ok is false when the datasheet
// figures needed (peak, bandwidth) are not in the catalog.
func (g GPU) Hardware(w estimator.DType) (hw estimator.Hardware, ok bool) {
	tflops := 0.0
	switch w {
	case estimator.FP32:
		tflops = g.FP32TFLOPS
	case estimator.FP8:
		tflops = g.FP8TFLOPS
	case estimator.FP4:
		if g.Blackwell() {
			tflops = g.FP8TFLOPS
			if g.SupportsFP4 && g.FP4TFLOPS > 0 {
				tflops = g.FP4TFLOPS
			}
		}
	}
	if tflops == 0 {
		tflops = g.BF16TFLOPS
		if !g.SupportsBF16 || tflops == 0 {
			tflops = max(g.FP16TFLOPS, tflops)
		}
	}
	if tflops == 0 {
		tflops = g.FP32TFLOPS
	}
	hw = estimator.Hardware{PeakFLOPS: tflops * 1e12, MemBandwidth: g.MemoryBandwidthBytesPerSecond}
	if g.GPULink() && g.NVLinkGBps > 0 {
		hw.LinkBandwidth = g.NVLinkGBps * 1e9 / 2
		hw.NVLinkDomain = g.NVLinkDomain
	}
	hw.Generation, hw.HostClass = g.Generation(), g.HostClass()
	hw.HostLinkBandwidth = estimator.PCIeX16Bandwidth(g.PCIeGen)
	return hw, hw.PeakFLOPS > 0 && hw.MemBandwidth > 0
}

// Blackwell reports whether the GPU is of NVIDIA's Blackwell generation
// (B200, B300 "Blackwell Ultra", GB200, RTX PRO 6000 Blackwell, RTX 50xx).
func (g GPU) Blackwell() bool { return g.Generation() == estimator.GenBlackwell }

// generations maps the catalog's architecture names to the estimator's
// typed generations; TestEveryGPUHasAGeneration holds every catalog GPU to
// a name in it.
var generations = map[string]estimator.Generation{
	"Pascal": estimator.GenPascal, "Volta": estimator.GenVolta, "Turing": estimator.GenTuring,
	"Ampere": estimator.GenAmpere, "Ada Lovelace": estimator.GenAda, "Hopper": estimator.GenHopper,
	"Blackwell": estimator.GenBlackwell, "Blackwell Ultra": estimator.GenBlackwell,
	"CDNA2": estimator.GenCDNA2, "CDNA3": estimator.GenCDNA3, "CDNA4": estimator.GenCDNA4,
	"Gaudi 2": estimator.GenGaudi, "Gaudi 3": estimator.GenGaudi,
}

// Generation is the GPU's typed architecture generation (GenUnknown for a
// name the catalog does not map).
func (g GPU) Generation() estimator.Generation { return generations[g.Architecture] }

// HostClass is the class of host the GPU sits in, which sets HF
// transformers' host time per op: a desktop for consumer cards (form
// factors the catalog marks "consumer"), an older cloud server for
// data-centre cards up to Ampere, an H100-class server otherwise. A GPU's
// host is a stated default here; an instance's own CPU is not yet read.
func (g GPU) HostClass() estimator.HostClass {
	switch {
	case strings.Contains(strings.ToLower(g.FormFactor), "consumer"):
		return estimator.HostDesktop
	}
	switch g.Generation() {
	case estimator.GenPascal, estimator.GenVolta, estimator.GenTuring, estimator.GenAmpere:
		return estimator.HostLegacyServer
	}
	return estimator.HostServer
}

// Node is how the GPUs of a job are grouped into machines, where the user
// says so; zero fields keep the catalog's figures (GPU.Hardware) and the
// estimator's stated defaults.
type Node struct {
	// GPUsPerNode share NVLink (or PCIe) and the node's network; 0: the
	// GPU's NVLink domain (72 on GB200 NVL72), else 8.
	GPUsPerNode int
	// NetworkGbps is the node's inter-node network, Gbit/s; 0: the
	// estimator's default per GPU (estimator.Hardware.NetworkBandwidth).
	NetworkGbps float64
	// HostOpSeconds is the host's time per eager PyTorch op; 0: the host
	// class's fitted figure.
	HostOpSeconds float64
}

// ErrNoFigures: the catalog lacks the GPU's peak or bandwidth, so no speed
// can be estimated on it.
var ErrNoFigures = errors.New("the catalog has no speed figures for this GPU")

// HardwareOn is GPU.Hardware with the node's figures applied.
func (g GPU) HardwareOn(w estimator.DType, n Node) (estimator.Hardware, bool) {
	hw, ok := g.Hardware(w)
	if n.GPUsPerNode > 0 {
		hw.NVLinkDomain = n.GPUsPerNode
	}
	hw.NetworkBandwidth = n.NetworkGbps * 1e9 / 8 / float64(hw.NodeGPUs())
	hw.HostOpSeconds = n.HostOpSeconds
	return hw, ok
}

// Speed is the job's speed on GPU g in node n: the one path from (GPU,
// node, precision, engine) to the estimator's figures that the CLI and the
// page both take, so they print the same numbers for the same input.
// eff's zero fields are the estimator's defaults (Perf.ComputeEfficiency
// and Perf.BandwidthUtil report the ones used).
func (g GPU) Speed(in estimator.Input, eff estimator.Efficiency, w estimator.Workload, n Node) (estimator.Perf, estimator.Hardware, error) {
	hw, ok := g.HardwareOn(in.Weights, n)
	if !ok {
		return estimator.Perf{}, hw, ErrNoFigures
	}
	p, err := estimator.Throughput(in, hw, eff, w)
	return p, hw, err
}

// Benchmark is the simulated closed-loop benchmark that Rightsize reports
// for a serving engine (estimator/sim.Benchmark) on GPU g in node n, the
// one the CLI's estimate and the page both show: ok is false where it does
// not apply (training, engines without continuous batching, encoders; see
// sim.Simulatable) or the catalog lacks the GPU's figures. The training
// MFU does not enter it. Result.Apply(p, CopiesOf(in)) puts it into the
// speed estimate p of GPU.Speed.
func (g GPU) Benchmark(in estimator.Input, eff estimator.Efficiency, w estimator.Workload, n Node, b sim.Bench) (cfg sim.Config, res sim.Result, ok bool, err error) {
	hw, hok := g.HardwareOn(in.Weights, n)
	if !hok || !sim.Simulatable(in, w) {
		return cfg, res, false, nil
	}
	eff.MFU = 0
	cfg, res, err = sim.Benchmark(in, hw, eff, w, b)
	return cfg, res, err == nil, err
}

// CopiesOf is how many engine copies (replicas of TP × PP GPUs) in's GPUs
// make: the benchmark's replica count.
func CopiesOf(in estimator.Input) int { return max(in.GPUs/max(in.TP*in.PP, 1), 1) }

// GPULink reports whether the GPU's peers in its domain talk over a GPU
// link rather than PCIe: NVLink, or AMD's Infinity Fabric (xGMI), whose
// bidirectional total the catalog keeps in NVLinkGBps as well.
func (g GPU) GPULink() bool { return g.Interconnect == "nvlink" || g.Interconnect == "infinity-fabric" }
