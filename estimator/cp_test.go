package estimator

import (
	"math"
	"strings"
	"testing"
)

// Ring attention by hand (cp.go): Llama 3.1 8B keeps 2 × 8 KV heads × 128
// = 2048 KV elements per token and layer, 1024 per GPU under TP 2. At CP 4
// each rank holds 131072 / 4 = 32768 tokens and passes its block 3 times
// per layer in the forward pass: 3 × 32768 × 1024 × 2 bytes = 201,326,592
// bytes. TP 2 × CP 4 fits a node: NVLink, 450 GB/s on an H100; 32 layers
// × (forward KV + backward KV and dKV) = 3 passes.
func TestCPRing(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.TP, in.CP, in.GPUs, in.Seq = Pretrain, 2, 4, 8, 131072
	if got := cpRingBytes(in, 1, 131072, 2); got != 201326592 {
		t.Errorf("ring bytes per layer %v, want 201326592", got)
	}
	hw := h100SXMFP8.withDefaults()
	total, exposed := cpTrainSeconds(in, hw, 1, 131072, 2, 0.5)
	if want := 32 * 3 * 201326592 / 450e9; math.Abs(relErr(total, want)) > 1e-12 || math.Abs(exposed-math.Max(0, want-0.5)) > 1e-15 {
		t.Errorf("ring %g s exposed %g, want %g", total, exposed, want)
	}
	if CPShard(in) != 4 || CPShard(Input{}) != 1 {
		t.Errorf("CPShard %v", CPShard(in))
	}
	// TP 8 × CP 2 spans two nodes: the ring crosses the network.
	in.TP, in.CP = 8, 2
	if bw := cpBandwidth(in, hw); bw != hw.NetworkBandwidth {
		t.Errorf("CP across nodes at %g B/s", bw)
	}
	in.CP = 1
	if got := cpRingBytes(in, 1, 131072, 2); got != 0 {
		t.Errorf("no CP: %v bytes", got)
	}
}

// Training with CP: 32 H100s at 128k tokens, CP 4 × DP 8 against the same
// GPUs with each sequence on one GPU (DP 32). The ring hides under the
// attention of each step, so the rate per GPU stays within a few percent
// while each GPU holds a quarter of the sequence; at 8k tokens across
// nodes (TP 8 × CP 4) the ring outlasts the little attention there is.
func TestCPTraining(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.Task, in.Seq, in.GPUs, in.ZeRO = Pretrain, 131072, 32, 1
	w := Workload{GlobalBatch: 32}
	flat := mustPerf(t, in, h100SXMFP8, Efficiency{}, w)
	in.CP = 4
	cp := mustPerf(t, in, h100SXMFP8, Efficiency{}, w)
	if r := cp.TokensPerSecond / flat.TokensPerSecond; r < 0.95 || r > 1.01 || cp.Replicas != 8 || cp.TokensPerStep != flat.TokensPerStep {
		t.Errorf("CP 4 / none at 128k: rate ratio %g, replicas %d, tokens per step %g vs %g", r, cp.Replicas, cp.TokensPerStep, flat.TokensPerStep)
	}
	if !(cp.CommTotalSeconds > flat.CommTotalSeconds) {
		t.Errorf("the ring adds traffic: %g vs %g s", cp.CommTotalSeconds, flat.CommTotalSeconds)
	}
	in.Seq, in.TP, in.CP = 8192, 8, 4
	short := mustPerf(t, in, h100SXMFP8, Efficiency{}, Workload{GlobalBatch: 1})
	hw := h100SXMFP8.withDefaults()
	if ring, _ := cpTrainSeconds(in, hw, 1, 8192, 2, 0); !(short.CommSeconds > 0) || ring <= 0 {
		t.Errorf("CP across nodes at 8k: exposed %g s, ring %g s", short.CommSeconds, ring)
	}
	// More CP ranks than the GPUs hold, CP for inference, a sequence CP
	// does not divide: refused, naming the field.
	for _, bad := range []func(Input) Input{
		func(in Input) Input { in.CP, in.GPUs, in.TP = 64, 8, 1; return in },
		func(in Input) Input { in.CP, in.Task = 2, Inference; return in },
		func(in Input) Input { in.CP, in.Seq = 3, 8192; in.GPUs, in.TP = 24, 8; return in },
	} {
		if err := bad(in).Validate(); err == nil || !strings.Contains(err.Error(), "cp") {
			t.Errorf("bad cp accepted: %v", err)
		}
	}
	// Memory: each rank holds a quarter of the sequence's activations and
	// logits.
	in.Seq, in.TP, in.GPUs = 131072, 1, 32
	in.CP = 1
	whole := mustEstimate(t, in)
	in.CP = 4
	quarter := mustEstimate(t, in)
	if a, b := float64(quarter.PerGPU.Activations), float64(whole.PerGPU.Activations)/4; math.Abs(a-b) > 2 {
		t.Errorf("CP 4 activations %v, want a quarter of %v", quarter.PerGPU.Activations, whole.PerGPU.Activations)
	}
}

// Long-context prefill over CP GPUs: the compute divides by CP and the
// ring's KV exchange adds only what the attention does not hide
// (CPPrefillSeconds). Llama 3.1 8B, 1M-token prompt, CP 8 on one node
// (NVLink): 32 layers × 7 × 131072 × 2048 × 2 bytes / 450 GB/s = 0.52 s
// of ring, hidden under 8 s of attention per rank.
func TestCPPrefill(t *testing.T) {
	in := DefaultInput(loadArch(t, "llama-3.1-8b.json"))
	in.CP = 8
	hw := Hardware{PeakFLOPS: 989.5e12, MemBandwidth: 3.35e12, LinkBandwidth: 450e9, Generation: GenHopper}
	ring := 32 * 7 * 131072 * 2048 * 2 / 450e9
	if got := CPPrefillSeconds(in, hw, 1<<20, 100, 64); math.Abs(relErr(got, 100.0/8)) > 1e-12 {
		t.Errorf("hidden ring: %g s, want %g", got, 100.0/8)
	}
	if got, want := CPPrefillSeconds(in, hw, 1<<20, 4, 0), 0.5+ring; math.Abs(relErr(got, want)) > 1e-12 {
		t.Errorf("no attention to hide the ring: %g s, want %g", got, want)
	}
	in.CP = 1
	if got := CPPrefillSeconds(in, hw, 1<<20, 4, 1); got != 4 {
		t.Errorf("no CP: %g", got)
	}
}
