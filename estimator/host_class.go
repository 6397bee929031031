package estimator

// The host's cost per eager PyTorch op, by the class of the host's CPU.
// HF transformers decoding launches one kernel per op from Python, so at
// small batch its step is bound by the host CPU that runs that Python, not
// by the GPU: the class is chosen from the host (the catalog reads an
// instance's CPU where it knows it, and states a default otherwise:
// catalog.GPU.HostClass, catalog.Offer.HostClass), never from the GPU's
// generation.

// HostClass is the class of CPU that runs the host side of a job (Python,
// the PyTorch dispatcher, kernel launches). It sets the host's time per
// eager PyTorch op (HostClass.OpSeconds), which bounds HF transformers
// decoding at small batch.
type HostClass int

const (
	// HostServer is a data-centre CPU of 2019 on: AMD EPYC (Rome and
	// later), Intel Xeon Ice Lake and later (Sapphire, Emerald, Granite
	// Rapids), NVIDIA Grace: the hosts of DGX A100/H100 systems and of
	// most A100/H100/H200/B200 cloud offers. hfOpSeconds.
	HostServer HostClass = iota
	// HostDesktop is a desktop CPU (Intel Core, AMD Ryzen) beside a
	// consumer card. hfOpSecondsDesktop.
	HostDesktop
	// HostLegacyServer is an Intel Xeon of the 14 nm Skylake family or
	// earlier (Haswell and Broadwell E5 v3/v4, Skylake-SP and Cascade
	// Lake Xeon Scalable, 2014–2019), the CPUs of the older cloud GPU
	// instances (AWS p3, g4dn, p4d; Google Cloud n1, a2, g2; Alibaba
	// gn6i). hfOpSecondsLegacy.
	HostLegacyServer
)

var hostClassNames = [...]string{HostServer: "server", HostDesktop: "desktop", HostLegacyServer: "legacy-server"}

// HostClasses lists every HostClass in display order.
var HostClasses = []HostClass{HostServer, HostLegacyServer, HostDesktop}

// String returns the CLI name ("server", "desktop", "legacy-server").
func (c HostClass) String() string { return enumName(hostClassNames[:], int(c), "HostClass") }

// ParseHostClass reads a name written by HostClass.String.
func ParseHostClass(s string) (HostClass, error) {
	i, err := parseEnum(hostClassNames[:], s, "host")
	return HostClass(i), err
}

// OpSeconds is the modelled host seconds per eager PyTorch op.
func (c HostClass) OpSeconds() float64 {
	switch c {
	case HostDesktop:
		return hfOpSecondsDesktop
	case HostLegacyServer:
		return hfOpSecondsLegacy
	}
	return hfOpSeconds
}

// Host time per eager op (Python, dispatcher, launch) by host class, for
// the op counts of perf_engine.go (hfOpsPerLayer, hfOpsPerStep).
const (
	// hfOpSeconds (HostServer) is fitted to the HF transformers 4.46.3 /
	// torch 2.5.1 BF16 decode step of Llama 3.1 8B on an H100 at batch 1
	// (24.4 ms over 32 × 43 + 27 ops = 17.4 µs; bitsandbytes
	// benchmarking/README.md, testdata/calibration/
	// bnb_optimum_benchmark.json, fit rows). The same rows at batch 8 and
	// 32 (25.5, 26.1 ms) stay on this floor. A100 servers are of this
	// class: optimum's GPTQ benchmark on one A100-SXM4-80GB (transformers
	// with auto-gptq, 2023-08; testdata/calibration/optimum_gptq_a100.json)
	// decodes Llama-2-13B in FP16 at batch 1 in 36.8 ms a step and with
	// the GPTQ exllama int4 kernel in 33.6 ms: −17% and +20% at this
	// figure, +33% and +92% at the older class's 28 µs, where the A100
	// had been put by its generation (HF decoding on data-centre Ampere
	// came out a third to twice too slow).
	hfOpSeconds = 17.4e-6
	// hfOpSecondsDesktop (HostDesktop) is fitted to the RTX 4090 Llama
	// 3.1 8B rows of the same table, where the BF16 step is bound by the
	// device but NF4 and LLM.int8() are bound by the host: (step) / (ops)
	// = 7.6 µs (NF4 b1), 9.4, 10.0, 10.7 µs (int8 b1, b8, b32); 9 µs
	// leaves them at +18%, −5%, −10%, −16%. The host is not named in that
	// table; AutoAWQ's README measures its RTX 4090 with a Ryzen 9 7950X,
	// a desktop CPU of about twice the single-thread speed of an H100
	// server's Xeon.
	hfOpSecondsDesktop = 9e-6
	// hfOpSecondsLegacy (HostLegacyServer) is fitted to the T4 Qwen 2.5
	// 3B rows of the same table, host-bound at batch 1: 24.8 µs (FP16),
	// 28.5 (NF4), 31.2 (int8); 28 µs leaves them at +13%, −2%, −10%. The
	// table does not name the T4's host; T4s are sold in the instances of
	// this class (AWS g4dn: Xeon Platinum 8259CL; Google Cloud n1;
	// Alibaba gn6i: Xeon Platinum 8163), and its NF4 rows, whose step is
	// almost all host (the 4-bit mat-vec reads 1.6 GB), take 1.6× the
	// H100 server's time per op.
	hfOpSecondsLegacy = 28e-6
)
