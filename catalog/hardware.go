package catalog

import "rightsize/estimator"

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
//   - GPUs with no 16-bit rate in the catalog (Pascal P4/P40, whose FP16
//     runs at 1/64 of FP32, and cards whose tensor rate is not sourced):
//     the FP32 rate, as frameworks compute there in FP32.
//
// NVLink datasheets quote both directions together, so the link figure is
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
	if g.Interconnect == "nvlink" && g.NVLinkGBps > 0 {
		hw.LinkBandwidth = g.NVLinkGBps * 1e9 / 2
		hw.NVLinkDomain = g.NVLinkDomain
	}
	hw.Architecture, hw.FormFactor = g.Architecture, g.FormFactor
	hw.HostLinkBandwidth = estimator.PCIeX16Bandwidth(g.PCIeGen)
	return hw, hw.PeakFLOPS > 0 && hw.MemBandwidth > 0
}
