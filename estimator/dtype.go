package estimator

import (
	"fmt"
	"math"
)

// DType is a numeric storage format for weights, gradients or the KV cache.
type DType int

const (
	FP32 DType = iota
	BF16
	FP16
	FP8
	INT8
	INT4
	// FP4 is a 4-bit float (E2M1) with block scales: NVFP4 (an FP8 scale
	// per 16 elements and an fp32 scale per tensor, 4.5 bits per weight:
	// NVIDIA, "Introducing NVFP4", 2025) or MXFP4 (an 8-bit power-of-two
	// scale per 32, 4.25 bits: OCP Microscaling Formats v1.0). Storage is
	// counted as NVFP4.
	FP4
)

var dtypeNames = [...]string{FP32: "fp32", BF16: "bf16", FP16: "fp16", FP8: "fp8", INT8: "int8", INT4: "int4", FP4: "fp4"}

// DTypes lists every DType in display order.
var DTypes = []DType{FP32, BF16, FP16, FP8, FP4, INT8, INT4}

func (d DType) String() string {
	if d < 0 || int(d) >= len(dtypeNames) {
		return fmt.Sprintf("DType(%d)", int(d))
	}
	return dtypeNames[d]
}

// ParseDType reads a dtype name as written by String.
func ParseDType(s string) (DType, error) {
	for i, n := range dtypeNames {
		if n == s {
			return DType(i), nil
		}
	}
	return 0, &InputError{Field: "dtype", Value: s, Reason: "want fp32, bf16, fp16, fp8, fp4, int8 or int4", Err: ErrUnknown}
}

// BitsPerElement is the storage width of one element, without any
// quantization scales (IEEE 754 / OCP FP8 / integer widths).
func (d DType) BitsPerElement() float64 {
	switch d {
	case FP32:
		return 32
	case BF16, FP16:
		return 16
	case FP8, INT8:
		return 8
	case INT4, FP4:
		return 4
	}
	return math.NaN()
}

// WeightsBytes is the memory of params weights stored as d: params × bits / 8
// (the dense-storage rule; see e.g. HF "Model memory anatomy"). Quantization
// scales are accounted for by the full memory model, not here.
func WeightsBytes(params int64, d DType) (Bytes, error) {
	if params < 0 {
		return 0, fmt.Errorf("estimator: parameter count %d: must be ≥ 0", params)
	}
	bits := d.BitsPerElement()
	if math.IsNaN(bits) {
		return 0, fmt.Errorf("estimator: unknown dtype %v", d)
	}
	return Bytes(math.Ceil(float64(params) * bits / 8)), nil
}
