package estimator

// Weight-only formats by kernel: the same stored bits run through
// different kernels, which launch different host ops per linear and reach
// different shares of the memory bandwidth. Input.Kernel names the kernel;
// KernelAuto is the engine's default for the format.

// Kernel is the matmul kernel of a weight-only quantised format.
type Kernel int

const (
	// KernelAuto is the engine's default for the format (resolveKernel):
	// HF transformers runs int8 and NF4 through bitsandbytes and GPTQ int4
	// through exllama; vLLM and SGLang run GPTQ/AWQ int4 and int8 through
	// Marlin on Ampere and later and NF4 through bitsandbytes.
	KernelAuto Kernel = iota
	// KernelBitsandbytes: LLM.int8() (int8 with outlier decomposition)
	// and the NF4/FP4 4-bit kernels (load_in_8bit, load_in_4bit).
	KernelBitsandbytes
	// KernelExllama: the exllama (v1) and exllamav2 GPTQ int4 kernels
	// (transformers' GPTQ default; vLLM's "gptq" method).
	KernelExllama
	// KernelMarlin: Marlin W4A16/W8A16 kernels (Frantar et al. 2024;
	// vLLM's gptq_marlin and awq_marlin, transformers' GPTQ backend
	// "marlin").
	KernelMarlin
	// KernelAutoGPTQ: AutoGPTQ's CUDA ("cuda-old") and Triton kernels,
	// also GPTQ int8 in transformers, which exllama does not run.
	KernelAutoGPTQ
	// KernelAWQGEMM and KernelAWQGEMV: AutoAWQ's kernels (AWQ version
	// "gemm", its default, and "gemv"); vLLM's "awq" method is the GEMM.
	KernelAWQGEMM
	KernelAWQGEMV
)

var kernelNames = [...]string{KernelAuto: "auto", KernelBitsandbytes: "bitsandbytes", KernelExllama: "exllama",
	KernelMarlin: "marlin", KernelAutoGPTQ: "autogptq", KernelAWQGEMM: "awq-gemm", KernelAWQGEMV: "awq-gemv"}

// Kernels lists every Kernel in display order.
var Kernels = []Kernel{KernelAuto, KernelBitsandbytes, KernelExllama, KernelMarlin, KernelAutoGPTQ, KernelAWQGEMM, KernelAWQGEMV}

// String returns the CLI name ("auto", "bitsandbytes", "exllama",
// "marlin", "autogptq", "awq-gemm", "awq-gemv").
func (k Kernel) String() string { return enumName(kernelNames[:], int(k), "Kernel") }

// ParseKernel reads a name written by Kernel.String.
func ParseKernel(s string) (Kernel, error) {
	i, err := parseEnum(kernelNames[:], s, "kernel")
	return Kernel(i), err
}

// validateKernel checks Input.Kernel against the format and engine: a
// kernel names a weight-only int4/int8 format (not GGUF) run by HF
// transformers, vLLM or SGLang; exllama and AutoAWQ's kernels are 4-bit
// only.
func validateKernel(l *errList, in Input) {
	k := in.Kernel
	switch {
	case k == KernelAuto:
	case k < KernelAuto || int(k) >= len(kernelNames):
		l.add("kernel", int(k), ErrUnknown, "")
	case in.Weights != INT4 && in.Weights != INT8:
		l.add("kernel", k.String(), ErrIncompatible, "a weight-only kernel needs int4 or int8 weights")
	case in.Quant.GGUF() || in.Engine == LlamaCpp || in.Engine == TRTLLM:
		l.add("kernel", k.String(), ErrIncompatible, "GGUF, llama.cpp and TensorRT-LLM use their own kernels")
	case in.Weights == INT8 && (k == KernelExllama || k == KernelAWQGEMM || k == KernelAWQGEMV):
		l.add("kernel", k.String(), ErrIncompatible, "4-bit only: int8 GPTQ runs on autogptq or marlin")
	}
}
