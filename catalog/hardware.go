package catalog

import (
	"errors"
	"strings"
	"sync"

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
	if g.FP16Acc16TFLOPS*1e12 > hw.PeakFLOPS {
		// GeForce FP16 accumulation (estimator.Hardware.HalfAccumFLOPS).
		hw.HalfAccumFLOPS = g.FP16Acc16TFLOPS * 1e12
	}
	if w == estimator.FP8 || w == estimator.FP4 {
		// Attention's products stay 16-bit (estimator.Hardware.AttnFLOPS).
		if b := max(g.BF16TFLOPS, g.FP16TFLOPS); b > 0 && b*1e12 < hw.PeakFLOPS {
			hw.AttnFLOPS = b * 1e12
		}
	}
	if g.GPULink() && g.NVLinkGBps > 0 {
		hw.LinkBandwidth = g.NVLinkGBps * 1e9 / 2
		hw.NVLinkDomain = g.NVLinkDomain
	}
	hw.Generation, hw.HostClass = g.Generation(), g.HostClass()
	hw.VLLMSmallDefaults = g.VLLMNamesSmall()
	hw.HostLinkBandwidth = estimator.PCIeX16Bandwidth(g.PCIeGen)
	return hw, hw.PeakFLOPS > 0 && hw.MemBandwidth > 0
}

// VLLMNamesSmall reports whether vLLM gives the GPU its smaller scheduler
// defaults by name (estimator.Hardware.VLLMSmallDefaults): the engine
// lowers the device's name and takes max_num_seqs 256 and
// max_num_batched_tokens 2048 where it contains "a100", whatever the
// memory (vllm/engine/arg_utils.py, get_batch_defaults; vLLM PR #17885).
// The catalog's names and CUDA's ("NVIDIA A100 80GB SXM",
// "NVIDIA A100-SXM4-80GB") both carry it; the A800's do not.
func (g GPU) VLLMNamesSmall() bool { return strings.Contains(strings.ToLower(g.Name), "a100") }

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

// HostClass is the class of host CPU the GPU is used from, which sets HF
// transformers' host time per eager op (estimator.HostClass). It is chosen
// from the host, not from the GPU's generation: the CPU of the instances
// the catalog offers the GPU in where it knows them (Offer.HostCPU), by
// the providers most of whose known hosts are of one class; a desktop for
// consumer cards (a consumer card sits in a desktop); otherwise the stated
// default, estimator.HostServer (the class of the DGX and cloud servers
// the A100 and H100 HF rows were measured on). An offer's own host class
// is Offer.HostClass.
func (g GPU) HostClass() estimator.HostClass {
	if strings.Contains(strings.ToLower(g.FormFactor), "consumer") {
		return estimator.HostDesktop
	}
	if c, ok := offerHostClasses()[g.ID]; ok {
		return c
	}
	return estimator.HostServer
}

// HostClassOfCPU is the host class of a CPU by its name as providers print
// it ("Intel Xeon Platinum 8275CL", "AMD EPYC 7R13", "Intel Cascade Lake",
// "epyc-genoa"); ok is false for a name it does not know. Intel Xeons of
// the 14 nm Skylake family and before (Haswell, Broadwell, Skylake-SP,
// Cascade Lake: E5 v3/v4 and Xeon Scalable x1xx/x2xx) are
// estimator.HostLegacyServer; AMD EPYC, Intel Ice Lake (x3xx) and later
// Xeons, NVIDIA Grace are estimator.HostServer; Intel Core and AMD Ryzen
// are estimator.HostDesktop.
func HostClassOfCPU(cpu string) (estimator.HostClass, bool) {
	s := strings.ToLower(cpu)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("ryzen", "core i3", "core i5", "core i7", "core i9", "core ultra", "threadripper"):
		return estimator.HostDesktop, true
	case has("epyc", "ice lake", "ice-lake", "sapphire", "emerald", "granite", "nvidia grace", "grace cpu", "grace hopper"):
		return estimator.HostServer, true
	case has("haswell", "broadwell", "skylake", "cascade"):
		return estimator.HostLegacyServer, true
	}
	// Xeon Scalable model numbers: the second digit is the generation
	// (8175M Skylake, 8275CL Cascade Lake, 8358 Ice Lake, 8480C Sapphire
	// Rapids); E5/E7 v3/v4 are Haswell/Broadwell.
	if i := strings.Index(s, "xeon"); i >= 0 {
		rest := s[i+len("xeon"):]
		if strings.Contains(rest, "e5-") || strings.Contains(rest, "e7-") {
			return estimator.HostLegacyServer, true
		}
		for j := 0; j+3 < len(rest); j++ {
			if isDigit(rest[j]) && isDigit(rest[j+1]) && isDigit(rest[j+2]) && isDigit(rest[j+3]) && (j == 0 || !isDigit(rest[j-1])) {
				if rest[j+1] <= '2' {
					return estimator.HostLegacyServer, true
				}
				return estimator.HostServer, true
			}
		}
	}
	return 0, false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// instanceCPUs names the CPU of cloud GPU instance families, from the
// providers' instance-type pages: AWS EC2 "Accelerated computing"
// specifications (p3: Xeon E5-2686 v4; p3dn: Xeon Platinum 8175M; g4dn:
// Xeon Platinum 8259CL; p4d/p4de: Xeon Platinum 8275CL; g5: AMD EPYC
// 7R32; g6, g6e, gr6, p5: AMD EPYC 7R13), Google Cloud "GPU machine
// types" (n1: Skylake or earlier; a2 and g2: Cascade Lake; a3: Sapphire
// Rapids), Azure VM size pages (NCv3: Xeon E5-2690 v4; NDv2: Xeon
// Platinum 8168; NCasT4_v3 and ND A100 v4: EPYC 7V12; NC A100 v4: EPYC
// 7V13; NC A10 v4 and NVadsA10 v5: EPYC 74F3V; ND H100 v5: Xeon Platinum
// 8480C), Alibaba ECS instance families (gn6i, gn6v, gn6e: Xeon Platinum
// 8163; gn7, gn7e, gn7i: Xeon Platinum 8369B), OCI bare-metal GPU shapes
// (GPU3: Xeon Platinum 8167M; GPU4: EPYC 7542; GPU.A100-v2: EPYC 7J13;
// GPU.A10 and VM.GPU.A10: Xeon Platinum 8358; GPU.H100: Xeon Platinum
// 8480+), Tencent Cloud GN7 (Xeon Platinum 8255C), Yandex Cloud's GPU
// platforms ("Platforms", yandex.cloud/docs/compute/concepts/vm-platforms,
// as the offers' notes quote it: gpu-standard-v1 Intel Broadwell,
// gpu-standard-v2 Intel Cascade Lake, gpu-standard-v3 AMD EPYC,
// standard-v3-t4 Intel Ice Lake). Keys are the provider and a lower-case
// prefix of the instance type.
var instanceCPUs = []struct{ provider, prefix, cpu string }{
	{"aws", "p3dn.", "Intel Xeon Platinum 8175M"}, {"aws", "p3.", "Intel Xeon E5-2686 v4"},
	{"aws", "g4dn.", "Intel Xeon Platinum 8259CL"}, {"aws", "p4d.", "Intel Xeon Platinum 8275CL"},
	{"aws", "p4de.", "Intel Xeon Platinum 8275CL"}, {"aws", "g5.", "AMD EPYC 7R32"},
	{"aws", "g6.", "AMD EPYC 7R13"}, {"aws", "g6e.", "AMD EPYC 7R13"}, {"aws", "g6f.", "AMD EPYC 7R13"},
	{"aws", "gr6.", "AMD EPYC 7R13"}, {"aws", "gr6f.", "AMD EPYC 7R13"}, {"aws", "p5.", "AMD EPYC 7R13"},
	{"gcp", "n1-", "Intel Skylake"}, {"gcp", "a2-", "Intel Cascade Lake"}, {"gcp", "g2-", "Intel Cascade Lake"},
	{"gcp", "a3-", "Intel Sapphire Rapids"},
	{"azure", "standard_nc6s_v3", "Intel Xeon E5-2690 v4"}, {"azure", "standard_nc12s_v3", "Intel Xeon E5-2690 v4"},
	{"azure", "standard_nc24s_v3", "Intel Xeon E5-2690 v4"}, {"azure", "standard_nc24rs_v3", "Intel Xeon E5-2690 v4"},
	{"azure", "standard_nd40rs_v2", "Intel Xeon Platinum 8168"},
	{"azure", "standard_nc4as_t4_v3", "AMD EPYC 7V12"}, {"azure", "standard_nc8as_t4_v3", "AMD EPYC 7V12"},
	{"azure", "standard_nc16as_t4_v3", "AMD EPYC 7V12"}, {"azure", "standard_nc64as_t4_v3", "AMD EPYC 7V12"},
	{"azure", "standard_nd96asr_v4", "AMD EPYC 7V12"}, {"azure", "standard_nd96amsr_a100_v4", "AMD EPYC 7V12"},
	{"azure", "standard_nc24ads_a100_v4", "AMD EPYC 7V13"}, {"azure", "standard_nc48ads_a100_v4", "AMD EPYC 7V13"},
	{"azure", "standard_nc96ads_a100_v4", "AMD EPYC 7V13"},
	{"azure", "standard_nc8ads_a10_v4", "AMD EPYC 74F3V"}, {"azure", "standard_nc16ads_a10_v4", "AMD EPYC 74F3V"},
	{"azure", "standard_nc32ads_a10_v4", "AMD EPYC 74F3V"}, {"azure", "standard_nv36ads_a10_v5", "AMD EPYC 74F3V"},
	{"azure", "standard_nv36adms_a10_v5", "AMD EPYC 74F3V"}, {"azure", "standard_nv72ads_a10_v5", "AMD EPYC 74F3V"},
	{"azure", "standard_nd96isr_h100_v5", "Intel Xeon Platinum 8480C"},
	{"alibaba", "ecs.gn6i-", "Intel Xeon Platinum 8163"}, {"alibaba", "ecs.ebmgn6i.", "Intel Xeon Platinum 8163"},
	{"alibaba", "ecs.gn6v-", "Intel Xeon Platinum 8163"}, {"alibaba", "ecs.ebmgn6v.", "Intel Xeon Platinum 8163"},
	{"alibaba", "ecs.gn6e-", "Intel Xeon Platinum 8163"},
	{"alibaba", "ecs.gn7-", "Intel Xeon Platinum 8369B"}, {"alibaba", "ecs.gn7e-", "Intel Xeon Platinum 8369B"},
	{"alibaba", "ecs.ebmgn7e.", "Intel Xeon Platinum 8369B"}, {"alibaba", "ecs.gn7i-", "Intel Xeon Platinum 8369B"},
	{"oci", "bm.gpu3.", "Intel Xeon Platinum 8167M"}, {"oci", "vm.gpu3.", "Intel Xeon Platinum 8167M"},
	{"oci", "bm.gpu4.", "AMD EPYC 7542"}, {"oci", "bm.gpu.a100-v2.", "AMD EPYC 7J13"},
	{"oci", "bm.gpu.a10.", "Intel Xeon Platinum 8358"}, {"oci", "vm.gpu.a10.", "Intel Xeon Platinum 8358"},
	{"oci", "bm.gpu.h100.", "Intel Xeon Platinum 8480+"},
	{"tencent", "gn7.", "Intel Xeon Platinum 8255C"},
	{"yandex", "gpu-standard-v1", "Intel Broadwell"}, {"yandex", "gpu-standard-v2", "Intel Cascade Lake"},
	{"yandex", "gpu-standard-v3", "AMD EPYC"}, {"yandex", "standard-v3-t4", "Intel Ice Lake"},
}

// HostCPU is the CPU of the offer's instance, from its provider's
// instance family (instanceCPUs; aws-cn as aws) or from the instance type
// where it names it (cudo's "epyc-genoa-…"); "" when neither says. Not
// from the offer's notes: app.wasm's catalog carries none (source.NativeOnly),
// so a CPU read there would give the CLI a host class the page never sees.
func (o Offer) HostCPU() string {
	provider, it := strings.TrimSuffix(o.Provider, "-cn"), strings.ToLower(o.InstanceType)
	for _, c := range instanceCPUs {
		if c.provider == provider && strings.HasPrefix(it, c.prefix) {
			return c.cpu
		}
	}
	if _, ok := HostClassOfCPU(o.InstanceType); ok {
		return o.InstanceType
	}
	return ""
}

// HostClass is the class of the offer's host CPU (HostCPU); ok is false
// when the catalog does not know it (GPU.HostClass is the stated default
// then).
func (o Offer) HostClass() (estimator.HostClass, bool) { return HostClassOfCPU(o.HostCPU()) }

// offerHostClasses is each GPU's host class by the built-in catalog's
// offers: the class of most providers whose host CPU for that GPU is
// known (a provider counts once, by its offers' majority), kept only
// when it holds at least two thirds of them.
var offerHostClasses = sync.OnceValue(func() map[string]estimator.HostClass {
	type key struct{ gpu, provider string }
	byProvider := map[key][nHostClasses]int{}
	for _, o := range Default().Offers {
		if c, ok := o.HostClass(); ok {
			k := key{o.GPU, strings.TrimSuffix(o.Provider, "-cn")}
			n := byProvider[k]
			n[c]++
			byProvider[k] = n
		}
	}
	votes := map[string][nHostClasses]int{}
	for k, n := range byProvider {
		best := 0
		for c := range n {
			if n[c] > n[best] {
				best = c
			}
		}
		v := votes[k.gpu]
		v[best]++
		votes[k.gpu] = v
	}
	out := map[string]estimator.HostClass{}
	for gpu, v := range votes {
		total, best := 0, 0
		for c := range v {
			total += v[c]
			if v[c] > v[best] {
				best = c
			}
		}
		if 3*v[best] >= 2*total {
			out[gpu] = estimator.HostClass(best)
		}
	}
	return out
})

// nHostClasses sizes the vote arrays: one slot per estimator.HostClass
// (TestHostClassOfOffers holds it to len(estimator.HostClasses)).
const nHostClasses = 3

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
	// Host is the host CPU, a class name ("server", "legacy-server",
	// "desktop") or a CPU name (HostClassOfCPU); "": the GPU's
	// (GPU.HostClass). ParseHost reads it.
	Host string
}

// ParseHost reads Node.Host: a host class name or a CPU name the catalog
// knows ("" gives the zero class: HardwareOn keeps the GPU's then).
func ParseHost(s string) (c estimator.HostClass, err error) {
	if s == "" {
		return estimator.HostServer, nil
	}
	if c, err := estimator.ParseHostClass(s); err == nil {
		return c, nil
	}
	if c, ok := HostClassOfCPU(s); ok {
		return c, nil
	}
	return 0, &estimator.InputError{Field: "host", Value: s, Err: estimator.ErrUnknown,
		Reason: "want server, legacy-server, desktop or a CPU name such as AMD EPYC 7742, Xeon Platinum 8275CL, Ryzen 9 7950X"}
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
	if c, err := ParseHost(n.Host); err == nil && n.Host != "" {
		hw.HostClass = c
	}
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

// StepTimer times the training layouts estimator.MakeItFitTimed weighs
// on GPU g in node n: Speed's seconds per optimizer step, each layout
// with its own pipeline schedule (Input.Schedule.VirtualStages, which the
// plain-1F1B lever sets), so that the CLI's fits_with and the page's
// "Fits with" order the levers by the same times. No time where the
// catalog lacks g's figures (MakeItFitTimed then weighs compute alone).
func (g GPU) StepTimer(eff estimator.Efficiency, w estimator.Workload, n Node) estimator.StepTimer {
	return func(in estimator.Input) (float64, bool) {
		w := w
		w.VirtualStages = in.Schedule.VirtualStages
		p, _, err := g.Speed(in, eff, w, n)
		if err != nil {
			return 0, false
		}
		return p.StepSeconds, true
	}
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
	if !hok {
		return cfg, res, false, nil
	}
	return BenchmarkOn(in, hw, eff, w, b)
}

// BenchmarkOn is GPU.Benchmark on hardware hw: a planner offer's
// (plan.OnOffer), where a page estimates a row's job on its instance.
func BenchmarkOn(in estimator.Input, hw estimator.Hardware, eff estimator.Efficiency, w estimator.Workload, b sim.Bench) (cfg sim.Config, res sim.Result, ok bool, err error) {
	if !sim.Simulatable(in, w) {
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

// SetMemory gives in the memory of one g: VRAM the card's memory (what
// the page and CLI print, and what engine defaults key on) and VisibleVRAM
// the part CUDA sees with ECC on where the catalog has it (ECCMemory), so
// that in.UsableBytes is UsableFraction of that. An explicit
// in.UsableVRAM (--usable-vram) still wins. Every door that estimates on a
// catalog GPU sets its memory here, and the planner's offers carry the
// same two figures (PlanOffers). It marks a GPU vLLM gives its smaller
// limits by name too (VLLMNamesSmall, estimator.Input.VLLMSmallDefaults):
// the engine's default step budget, and with it the forward pass it
// profiles before sizing its KV pool, follows the mark as it follows the
// memory.
func (g GPU) SetMemory(in *estimator.Input) {
	in.VRAM, in.VisibleVRAM = g.Memory, g.ECCMemory
	in.VLLMSmallDefaults = g.VLLMNamesSmall()
}

// UsableBytes is the memory per GPU an estimate on g fits in when the
// user gives none: estimator.Input.UsableBytes of SetMemory's figures.
func (g GPU) UsableBytes() estimator.Bytes {
	var in estimator.Input
	g.SetMemory(&in)
	return in.UsableBytes()
}

// ECCVisible is what CUDA sees of g with ECC on where that sets its usable
// memory (estimator.Input.ECCVisible of SetMemory's figures; 0: the card's
// memory does).
func (g GPU) ECCVisible() estimator.Bytes {
	var in estimator.Input
	g.SetMemory(&in)
	return in.ECCVisible()
}
