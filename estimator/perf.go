package estimator

// Time and throughput: how fast a job runs on given GPUs, next to how much
// memory it needs. The files perf_*.go follow the model's parts:
//
//	perf.go          the API: Hardware, Efficiency, Workload, Perf, Throughput
//	perf_hardware.go achieved rates: default efficiencies, training MFU by
//	                 GPU generation and width, weight-format kernel efficiency
//	perf_train.go    training step: FLOPs, recomputation, TP, pipeline
//	                 bubble, data-parallel and sharded collectives, offload
//	perf_prefill.go  prompt processing (compute-bound forward passes)
//	perf_decode.go   one decode step (roofline of weights, KV cache, FLOPs)
//	perf_engine.go   the engine's floor under each step: HF eager host
//	                 launch cost, serving engines' per-step cost, llama.cpp
//	perf_serve.go    serving under load: ServingPoint, TTFT/TPOT at a
//	                 concurrency, chunked prefill stalls
//
// The device model is a roofline (Williams, Waterman & Patterson 2009,
// "Roofline: an insightful visual performance model", CACM 52(4)): a phase
// is bounded by its compute time (FLOPs / achieved FLOP/s) and its memory
// time (bytes / achieved bandwidth). Every constant names the public
// measurements it was fitted on (testdata/calibration, README.md there,
// which also says which rows are fit, test and held back).

import (
	"errors"
	"math"
)

// Hardware is one GPU's datasheet figures. The caller picks the peak for the
// compute dtype: BF16/FP16 dense tensor FLOP/s for 16-bit training and
// serving, FP8 for fp8 weights, INT8 TOPS for int8 kernels that compute in
// int8. Weight-only int4/int8/NF4 formats dequantise to 16-bit and use the
// BF16 figure.
type Hardware struct {
	PeakFLOPS float64 // dense (not 2:4-sparse) tensor FLOP/s per GPU for the compute dtype
	// AttnFLOPS is the dense 16-bit tensor FLOP/s per GPU that attention's
	// score and value products run at when PeakFLOPS is an FP8 or FP4
	// rate: the engines' prefill attention kernels (FlashAttention,
	// FlashInfer, FlashMLA and TensorRT-LLM's context FMHA in their default
	// configurations) take BF16/FP16 operands whatever the linears' format,
	// as Transformer Engine casts only the linears to FP8 in training
	// (trainAttnCost). 0: PeakFLOPS.
	AttnFLOPS float64
	// HalfAccumFLOPS is the dense FP16 tensor FLOP/s per GPU with FP16
	// accumulation where the datasheet gives it above PeakFLOPS'
	// FP32-accumulate rate: GeForce cards run FP16-accumulate tensor math
	// at twice the FP32-accumulate rate (NVIDIA Ada whitepaper v2.02,
	// Appendix A Table 2, RTX 4090: 330.3 against 165.2 TFLOPS dense),
	// while data-centre and workstation cards run both at one rate.
	// Only llama.cpp's F16 GEMMs read it (halfAccumGEMM). 0: none.
	HalfAccumFLOPS float64
	MemBandwidth   float64 // bytes/s per GPU, datasheet HBM/GDDR bandwidth
	// LinkBandwidth is the bytes/s one GPU sends in one direction to its
	// peers inside its NVLink domain (NVLink datasheets quote both
	// directions together: halve them, e.g. H100 SXM 900 GB/s → 450e9).
	// 0 means the GPUs talk over PCIe: PCIeBandwidth is used.
	LinkBandwidth float64

	// Generation is the GPU's architecture generation, typed (the catalog
	// maps its datasheet names to it: catalog.GPU.Generation); it selects
	// the matmul efficiency of training (trainEfficiency) and the default
	// network. GenUnknown: the mean of the calibrated generations.
	Generation Generation
	// NVLinkDomain is how many GPUs share LinkBandwidth (8 on HGX boards,
	// 72 in a GB200 NVL72 rack; for PCIe cards, the GPUs of one node, which
	// talk over PCIe). 0: 8. Collectives among more GPUs than this cross
	// the network.
	NVLinkDomain int
	// NetworkBandwidth is the bytes/s per GPU between nodes, one
	// direction (e.g. 8 × 400 Gb/s InfiniBand NDR on a DGX H100 = 50e9
	// per GPU). 0: defaultNetworkBandwidth, hopperNetworkBandwidth for
	// Hopper and Blackwell.
	NetworkBandwidth float64
	// HostLinkBandwidth is the bytes/s between a GPU and host memory, one
	// direction (CPU offload). 0: PCIeBandwidth.
	HostLinkBandwidth float64
	// HostOpSeconds is the host's time to dispatch one eager PyTorch op
	// (HF transformers decoding is bound by it at small batch). 0: the
	// host class's fitted figure (HostClass.OpSeconds).
	HostOpSeconds float64
	// VLLMSmallDefaults marks a GPU that vLLM gives its smaller scheduler
	// limits whatever its memory (VLLMDefaultLimitsOn): the engine keys
	// them on the device's name as well as its memory and names the A100.
	// The catalog sets it from the GPU's name; the estimator reads no name.
	VLLMSmallDefaults bool
	// HostClass is the class of the host CPU that launches the GPU's
	// work, set by the catalog from the host (catalog.Offer.HostClass
	// where the instance's CPU is known, catalog.GPU.HostClass's stated
	// default otherwise): HostServer is the zero value.
	HostClass HostClass
}

// PCIeBandwidth is PCIe 4.0 x16 per direction: 16 GT/s × 16 lanes ×
// 128/130 encoding / 8 = 31.5 GB/s (PCI-SIG PCIe 4.0 base specification);
// the TP link when Hardware.LinkBandwidth is 0 and the host link when
// Hardware.HostLinkBandwidth is 0.
const PCIeBandwidth = 31.5e9

// PCIeX16Bandwidth is one direction of a x16 link of PCIe generation gen,
// in bytes/s: 8 GT/s (gen 3), 16 (gen 4), 32 (gen 5) with 128b/130b
// encoding, and 64 GT/s (gen 6, PAM4 with FLIT encoding, ~121 GB/s), × 16
// lanes / 8 bits (PCI-SIG base specifications 3.0–6.0). 0 for an unknown
// generation: Hardware.HostLinkBandwidth 0 means PCIeBandwidth.
func PCIeX16Bandwidth(gen int) float64 {
	switch gen {
	case 3:
		return 8e9 * 16 * 128 / 130 / 8
	case 4:
		return 16e9 * 16 * 128 / 130 / 8
	case 5:
		return 32e9 * 16 * 128 / 130 / 8
	case 6:
		return 121e9
	}
	return 0
}

// defaultNetworkBandwidth is the inter-node bytes/s per GPU when Hardware
// gives none: one 200 Gb/s port per GPU (HDR InfiniBand, the A100-era
// DGX SuperPOD fabric: NVIDIA DGX A100 user guide, 8 × ConnectX-6 200 Gb/s
// for compute), 25e9 bytes/s. An estimate for clusters that do not say.
const defaultNetworkBandwidth = 25e9

// hopperNetworkBandwidth is the same default for Hopper and Blackwell
// GPUs: one 400 Gb/s port per GPU (NDR InfiniBand, 8 × ConnectX-7 in a
// DGX H100 and DGX B200: NVIDIA DGX H100/B200 user guides; AWS p5's 3200
// Gb/s EFA per 8 GPUs), 50e9 bytes/s. An estimate for clusters that do
// not say.
const hopperNetworkBandwidth = 50e9

// Efficiency is the share of the datasheet peaks a job achieves. A zero
// field takes the model's value (DefaultEfficiency, trainEfficiency); a
// non-zero field overrides it, so a team can plug in its own measurement.
type Efficiency struct {
	// MFU is the training compute efficiency: hardware FLOPs per second
	// (model FLOPs plus recomputation) / peak, before the collectives,
	// offload traffic and the pipeline bubble, which Throughput adds. Its
	// definition follows Chowdhery et al. 2022 (PaLM, Appendix B) and
	// Korthikanti et al. 2022 §6.3 (their HFU when recomputing).
	MFU float64
	// InferenceMFU is the same utilisation for the compute-bound inference
	// phases: prefill, and decode at batches large enough to be
	// compute-bound (HF transformers' decode steps run at
	// hfDecodeComputeShare of it).
	InferenceMFU float64
	// BandwidthUtil is achieved / datasheet memory bandwidth while decoding
	// (reading the weights and KV cache every step).
	BandwidthUtil float64
}

// Workload describes the requests (inference) or the step (training).
type Workload struct {
	// PromptTokens and OutputTokens per request (inference). Both zero:
	// half of Input.Seq is prompt, half is generated. Otherwise
	// PromptTokens must be ≥ 1; OutputTokens 0 means prefill only.
	PromptTokens, OutputTokens int
	// MicroBatches per optimizer step in each pipeline (training: gradient
	// accumulation steps). 0: from GlobalBatch, else 4 × PP with PP > 1
	// and 1 without.
	MicroBatches int
	// GlobalBatch is the sequences per optimizer step over the whole job
	// (training). When set and MicroBatches is 0, MicroBatches is
	// GlobalBatch / (replicas × Input.Batch), at least 1.
	GlobalBatch int
	// VirtualStages is the model chunks per pipeline stage of Megatron's
	// interleaved 1F1B schedule (training with PP > 1); 1: plain 1F1B; 0:
	// DefaultVirtualStages (interleaved for pre-training, as the
	// Megatron-Core recipes run it).
	VirtualStages int
}

// Bound is what limits a phase: the regime that decided its time.
type Bound int

const (
	BoundNone          Bound = iota // no estimate
	BoundCompute                    // tensor-core FLOPs
	BoundBandwidth                  // memory bandwidth (weights, KV cache)
	BoundHost                       // host: kernel launches, engine scheduler, Python
	BoundCommunication              // collectives, offload or network traffic
)

var boundNames = [...]string{BoundNone: "", BoundCompute: "compute", BoundBandwidth: "bandwidth",
	BoundHost: "host", BoundCommunication: "communication"}

// String returns "compute", "bandwidth", "host", "communication" or "".
func (b Bound) String() string { return enumName(boundNames[:], int(b), "Bound") }

// Perf is a time/throughput estimate. Every float field is finite and ≥ 0.
type Perf struct {
	GPUs     int // Input.GPUs
	Replicas int // data-parallel copies of the model: GPUs / (TP × PP)

	// Training (0 for inference).
	// FLOPsPerToken is model FLOPs per trained token: 6N + 12·L·s·d_attn
	// for full training (PaLM Appendix B), 4N + 12·L·s·d_attn for LoRA.
	FLOPsPerToken float64
	// HardwareFLOPsPerToken adds recomputation: one more forward pass with
	// full activation checkpointing (8N + 16·L·s·d_attn), × (1 + s/6h)
	// with selective recomputation (Korthikanti et al. 2022 §6.3).
	HardwareFLOPsPerToken float64
	StepSeconds           float64 // one optimizer step: MicroBatches micro-batches per pipeline
	TokensPerStep         float64 // whole job: Replicas × MicroBatches × Batch × Seq
	MicroBatches          int     // micro-batches per optimizer step in each pipeline
	// VirtualStages is the model chunks per pipeline stage the step was
	// timed with (Workload.VirtualStages or DefaultVirtualStages; 1:
	// plain 1F1B; 0 for inference).
	VirtualStages int
	// CommSeconds is the part of StepSeconds spent in collectives and
	// offload traffic that compute does not hide.
	CommSeconds float64
	// CommTotalSeconds is the time of all of a training step's
	// communication on its own (TP, DP/ZeRO, EP, pipeline sends, CP ring,
	// offload), hidden or not: CommSeconds is the part of it compute does
	// not hide.
	CommTotalSeconds float64

	// TokensPerSecond is the whole job's rate: trained tokens/s, or for
	// inference generated tokens/s over all replicas serving Workload at
	// Input.Batch concurrent requests each (prompt tokens/s when
	// OutputTokens is 0).
	TokensPerSecond float64
	// MFU is the model-FLOPs utilisation this estimate implies, after
	// recomputation, collectives and the pipeline bubble (training), or
	// for inference over the whole serving cycle.
	MFU float64
	// ComputeEfficiency is the share of peak FLOP/s the compute phases
	// were given (Efficiency.MFU or the training model's value;
	// InferenceMFU for inference), and BandwidthUtil the share of memory
	// bandwidth the decode step was given: the figures a team can
	// override.
	ComputeEfficiency, BandwidthUtil float64

	// Inference (0 for training).
	PrefillTokensPerSecond float64 // prompt tokens/s, all replicas, Batch prompts at once
	// TimeToFirstToken is the seconds from a request's arrival to its
	// first token with Batch requests in flight: its own prefill, the
	// prefill of the requests admitted with it, and the engine's floor.
	TimeToFirstToken float64
	// DecodeStepSeconds is one decode step for Batch sequences at the
	// mean context, with the engine's floor (with speculative decoding,
	// Input.DraftTokens, the draft-and-verify step, which yields
	// AcceptedTokens tokens a sequence); DecodeTokenLatency is the time
	// per output token a client sees (TPOT): the step over the tokens it
	// yields plus the share of other requests' prefills that stall it.
	DecodeStepSeconds     float64
	DecodeTokenLatency    float64
	DecodeTokensPerSecond float64 // Batch × AcceptedTokens / DecodeStepSeconds × Replicas
	// AcceptedTokens is the tokens one speculative decode step yields a
	// sequence (mtpAcceptedTokens); 0 without Input.DraftTokens.
	AcceptedTokens    float64
	DecodeMemoryBound bool // the decode step's device time is limited by memory bandwidth, not FLOPs
	// HostFloorSeconds is the engine's floor under one decode step
	// (kernel launches, scheduler, sampler); the step takes at least this.
	HostFloorSeconds float64

	// Bound is the regime that decided TokensPerSecond.
	Bound Bound

	// Uncertainty is the relative half-width of TokensPerSecond's band
	// (0.3 = ±30%), judged from the calibration tables; it widens when an
	// input is outside the calibrated range. TokensPerSecondLow and High
	// are its ends.
	Uncertainty                             float64
	TokensPerSecondLow, TokensPerSecondHigh float64
}

// Limits on hardware figures (1 EFLOP/s and 1 PB/s per GPU), so products
// stay finite.
const (
	maxPeakFLOPS = 1e18
	maxBandwidth = 1e15
)

// Throughput estimates how fast in runs on GPUs like hw. It validates in
// (as Estimate does), hw, eff and w, returning errors.Join of *InputError
// values naming each bad field; it never panics, allocates nothing on
// valid input, and every field of a valid result is finite and ≥ 0.
func Throughput(in Input, hw Hardware, eff Efficiency, w Workload) (Perf, error) {
	if err := validateThroughput(in, hw, eff, w); err != nil {
		return Perf{}, err
	}
	hw = hw.withDefaults()
	var p Perf
	if in.Task.Training() {
		p = trainPerf(in, hw, eff, w)
	} else {
		p = inferPerf(in, hw, eff, w)
	}
	return finish(p), nil
}

// validateThroughput is Throughput's validation.
func validateThroughput(in Input, hw Hardware, eff Efficiency, w Workload) error {
	var l errList
	in.validate(&l)
	validateKernel(&l, in)
	validatePerf(&l, hw, eff, w)
	if l.n > 0 {
		return errors.Join(l.errs[:l.n]...)
	}
	return nil
}

// finish fills the band's ends and sanitizes p.
func finish(p Perf) Perf {
	p.TokensPerSecondLow = p.TokensPerSecond * (1 - p.Uncertainty)
	p.TokensPerSecondHigh = p.TokensPerSecond * (1 + p.Uncertainty)
	return sanitize(p)
}

// withDefaults fills the zero link figures.
func (hw Hardware) withDefaults() Hardware {
	if hw.NVLinkDomain == 0 {
		hw.NVLinkDomain = 8
	}
	if hw.LinkBandwidth == 0 {
		hw.LinkBandwidth = PCIeBandwidth
	}
	if hw.NetworkBandwidth == 0 {
		hw.NetworkBandwidth = defaultNetworkBandwidth
		if hw.Generation == GenHopper || hw.Generation == GenBlackwell {
			hw.NetworkBandwidth = hopperNetworkBandwidth
		}
	}
	if hw.HostLinkBandwidth == 0 {
		hw.HostLinkBandwidth = PCIeBandwidth
	}
	if hw.HostOpSeconds == 0 {
		hw.HostOpSeconds = hw.HostClass.OpSeconds()
	}
	return hw
}

func validatePerf(l *errList, hw Hardware, eff Efficiency, w Workload) {
	if !(hw.PeakFLOPS > 0 && hw.PeakFLOPS <= maxPeakFLOPS) {
		l.out("peak-flops", hw.PeakFLOPS, Range{Min: 0, Max: maxPeakFLOPS, HasMin: true, HasMax: true, MinOpen: true}, "want FLOP/s in (0, 1e18]")
	}
	if !(hw.HalfAccumFLOPS >= 0 && hw.HalfAccumFLOPS <= maxPeakFLOPS) {
		l.out("half-accum-flops", hw.HalfAccumFLOPS, Between(0, maxPeakFLOPS), "want FLOP/s in [0, 1e18] (0: none)")
	}
	if !(hw.MemBandwidth > 0 && hw.MemBandwidth <= maxBandwidth) {
		l.out("mem-bandwidth", hw.MemBandwidth, Range{Min: 0, Max: maxBandwidth, HasMin: true, HasMax: true, MinOpen: true}, "want bytes/s in (0, 1e15]")
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"link-bandwidth", hw.LinkBandwidth}, {"network-bandwidth", hw.NetworkBandwidth}, {"host-link-bandwidth", hw.HostLinkBandwidth}} {
		if !(f.v >= 0 && f.v <= maxBandwidth) {
			l.out(f.name, f.v, Between(0, maxBandwidth), "want bytes/s in [0, 1e15] (0: default)")
		}
	}
	if !(hw.HostOpSeconds >= 0 && hw.HostOpSeconds <= 1) {
		l.out("host-op-seconds", hw.HostOpSeconds, Between(0, 1).In(RangeSeconds), "want seconds in [0, 1] (0: default)")
	}
	if hw.NVLinkDomain < 0 || hw.NVLinkDomain > maxGPUs {
		l.whole("nvlink-domain", hw.NVLinkDomain, "want 0..%d GPUs (0: default)", maxGPUs)
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"mfu", eff.MFU}, {"inference-mfu", eff.InferenceMFU}, {"bandwidth-util", eff.BandwidthUtil}} {
		if !(f.v >= 0 && f.v <= 1) {
			l.out(f.name, f.v, Between(0, 1), "want a fraction in (0, 1] (0: default)")
		}
	}
	both := w.PromptTokens == 0 && w.OutputTokens == 0
	if w.PromptTokens < 0 || w.PromptTokens > maxSeq || (!both && w.PromptTokens == 0) {
		l.whole("prompt", w.PromptTokens, "want 1..%d", maxSeq)
	}
	if w.OutputTokens < 0 || w.OutputTokens > maxSeq {
		l.whole("output", w.OutputTokens, "want 0..%d", maxSeq)
	}
	if w.MicroBatches < 0 || w.MicroBatches > maxBatch {
		l.whole("micro-batches", w.MicroBatches, "want 0..%d", maxBatch)
	}
	if w.VirtualStages < 0 || w.VirtualStages > maxBatch {
		l.whole("virtual-stages", w.VirtualStages, "want 0..%d", maxBatch)
	}
	if w.GlobalBatch < 0 || w.GlobalBatch > maxBatch*maxGPUs {
		l.whole("global-batch", w.GlobalBatch, "want 0..%d", maxBatch*maxGPUs)
	}
}

// JobTime is the seconds p takes to process tokens (trained tokens, or
// generated tokens for inference): tokens / TokensPerSecond. It returns 0
// for tokens ≤ 0 or NaN and for a Perf without throughput, and never
// more than math.MaxFloat64.
func JobTime(p Perf, tokens float64) float64 {
	if !(tokens > 0) || !(p.TokensPerSecond > 0) {
		return 0
	}
	return finite(tokens / p.TokensPerSecond)
}

// GPUHours is the GPU time p takes to process tokens: GPUs × JobTime / 3600.
func GPUHours(p Perf, tokens float64) float64 {
	return finite(float64(p.GPUs) * JobTime(p, tokens) / 3600)
}

// Finite maps NaN and negatives to 0 and +Inf to MaxFloat64: the
// estimator's and the planner's figures are never NaN or infinite.
func Finite(f float64) float64 { return finite(f) }

func finite(f float64) float64 {
	switch {
	case f != f || f < 0:
		return 0
	case f > math.MaxFloat64:
		return math.MaxFloat64
	}
	return f
}

// sanitize maps any NaN or negative field to 0 and +Inf to MaxFloat64, so
// a valid input never yields a non-finite number even at extreme limits.
func sanitize(p Perf) Perf {
	for _, f := range [...]*float64{&p.FLOPsPerToken, &p.HardwareFLOPsPerToken, &p.StepSeconds, &p.TokensPerStep,
		&p.CommSeconds, &p.TokensPerSecond, &p.MFU, &p.ComputeEfficiency, &p.BandwidthUtil,
		&p.PrefillTokensPerSecond, &p.TimeToFirstToken, &p.DecodeStepSeconds, &p.DecodeTokenLatency,
		&p.DecodeTokensPerSecond, &p.AcceptedTokens, &p.HostFloorSeconds, &p.Uncertainty, &p.TokensPerSecondLow, &p.TokensPerSecondHigh} {
		*f = finite(*f)
	}
	return p
}
