package estimator

// Context parallelism (Input.CP): the sequence split over CP GPUs, with
// attention computed by passing the keys and values around a ring.
//
// Each of the CP ranks holds s/CP tokens of every sequence: their
// activations, their KV, and 1/CP of every layer's GEMM work. Attention
// needs every earlier token's K and V, so the ranks pass their KV blocks
// around a ring, CP − 1 steps per layer, each step's transfer overlapped
// with the attention of the block already held (Liu, Zaharia & Abbeel
// 2023, "Ring Attention with Blockwise Transformers", arXiv:2310.01889
// §3; Megatron-Core's context parallelism, docs "context_parallel":
// "CP … leverages ring attention … communication is overlapped with
// computation", with causal load balancing, each rank holding two chunks
// of the sequence). The backward pass sends the KV blocks again and their
// gradients back (twice the forward volume). CP ranks also join the
// data-parallel gradient reduction (Megatron reduces gradients over the
// DP × CP group).

import "math"

// cpDegree is the context-parallel degree (≥ 1).
func cpDegree(in Input) int { return max(1, in.CP) }

// CPShard is the factor Input.CP divides the per-GPU activations and
// KV cache by (1 without context parallelism): each rank holds s/CP tokens
// of every sequence. The memory model (Estimate) applies it to the
// sequence-proportional parts.
func CPShard(in Input) float64 { return float64(cpDegree(in)) }

// cpRingBytes is the KV one rank sends per layer and micro-batch in the
// forward pass: CP − 1 ring steps of its block of s/CP tokens' K and V
// (the heads of its TP shard), in the compute dtype.
func cpRingBytes(in Input, b, s, elem float64) float64 {
	cp := float64(cpDegree(in))
	if cp <= 1 {
		return 0
	}
	kv := float64(in.Arch.kvElemsPerTokenLayer()) / float64(max(1, min(in.TP, max(1, in.Arch.KVHeads))))
	return (cp - 1) * b * s / cp * kv * elem
}

// cpBandwidth is the link a CP ring uses: NVLink while TP × CP ranks fit
// in a node (Megatron orders its groups TP, CP, DP, PP), the GPU's share of
// the network otherwise.
func cpBandwidth(in Input, hw Hardware) float64 {
	if in.TP*cpDegree(in) <= hw.NodeGPUs() {
		return hw.LinkBandwidth
	}
	return hw.NetworkBandwidth
}

// cpTrainSeconds is one micro-batch's ring traffic on one pipeline stage
// (forward, backward, and the forward again when recomputing), in total
// and the part the attention compute of each ring step does not hide.
// attn is the stage's attention compute time for the micro-batch.
func cpTrainSeconds(in Input, hw Hardware, b, s, elem, attn float64) (total, exposed float64) {
	per := cpRingBytes(in, b, s, elem)
	if per <= 0 {
		return 0, 0
	}
	layers := math.Ceil(float64(in.Arch.KVCacheLayers()) / float64(max(1, in.PP)))
	passes := 3.0 // forward KV; backward KV and dKV
	if in.GradCheckpointing {
		passes = 4
	}
	total = layers * passes * per / cpBandwidth(in, hw)
	return total, math.Max(0, total-attn)
}

// CPPrefillSeconds is the time a prompt's prefill takes split over
// Input.CP GPUs (long-context prefill with ring attention: Meta's
// "Context Parallelism for Scalable Million-Token Inference", Yang et
// al. 2024, arXiv:2411.01783, pass-KV ring): the single-GPU compute time
// computeSeconds (of which attnSeconds is attention) divided by CP, plus
// the ring's KV exchange beyond what the attention of each step hides.
// The prefill model (perf_prefill.go) calls it with its own times.
func CPPrefillSeconds(in Input, hw Hardware, tokens, computeSeconds, attnSeconds float64) float64 {
	cp := float64(cpDegree(in))
	if cp <= 1 {
		return computeSeconds
	}
	hw = hw.withDefaults()
	elem := 2.0
	per := cpRingBytes(in, 1, tokens, elem)
	ring := float64(in.Arch.KVCacheLayers()) * per / cpBandwidth(in, hw)
	return computeSeconds/cp + math.Max(0, ring-attnSeconds/cp)
}
