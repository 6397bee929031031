package estimator

// Prompt processing: compute-bound forward passes over the prompt, with
// causal attention FLOPs that grow with its length.

import "math"

// prefill is the seconds to prefill k prompts of length prompt together
// on an idle replica: one forward over k·prompt tokens (causal attention
// averages prompt/2 context per token) writing their KV cache, at least
// the engine's floor, and the memory-bound operators between the matmuls
// (prefillOpBytes), which run after the device's roofline.
func (m *inferModel) prefill(k, prompt float64) (secs float64, b Bound) {
	secs, b, _ = m.step(k*prompt, m.sc.attended(prompt/2), k*m.kvSeq(prompt))
	return secs + k*prompt*m.prefillOps, b
}

// prefillMarginal is the extra seconds one prompt adds to a step that
// already reads the weights (chunked prefill, Agrawal et al. 2024,
// "Taming Throughput-Latency Tradeoff in LLM Inference with
// Sarathi-Serve", OSDI: prompt chunks ride in decode steps): its compute,
// its memory-bound operators and its TP all-reduces.
func (m *inferModel) prefillMarginal(prompt float64) float64 {
	return m.computeTime(prompt, m.sc.attended(prompt/2)) + prompt*(m.prefillOps+m.commPerToken)
}

// sampleLengths is the prompt and generated tokens per request: the
// Workload's, or half of Input.Seq each; ViT runs one forward over its
// fixed patches and encoders generate nothing.
func sampleLengths(in Input, w Workload) (prompt, out float64) {
	a := in.Arch
	prompt, out = float64(w.PromptTokens), float64(w.OutputTokens)
	if w.PromptTokens == 0 && w.OutputTokens == 0 {
		out = float64(in.Seq / 2)
		prompt = max(1, float64(in.Seq)-out)
	}
	if a.SeqLen > 0 && !a.Generic() {
		return float64(a.SeqLen), 0
	}
	if a.Encoder {
		out = 0
	}
	return prompt, out
}

// prefillOpBytes is the bytes one GPU moves per prompt token in the
// memory-bound operators between a forward's matmuls and attention:
// work that the matmul FLOPs (computeTime) do not count, that runs as
// kernels of its own between the GEMMs (not under them), and that tensor
// parallelism does not shard where it acts on the hidden state, which
// every rank of attention's TP group holds whole (Shoeybi et al. 2019 §3:
// the all-reduces leave each rank the full h-wide activation). Counted
// per layer in 16-bit activations (2 bytes; 4 for fp32), each kernel's
// reads plus writes, after the serving engines' prefill kernels
// (vLLM csrc/layernorm_kernels.cu, pos_encoding_kernels.cu,
// activation_kernels.cu, moe/moe_align_sum_kernels.cu; SGLang's sgl-kernel
// ports of the same):
//   - two fused residual-add + RMSNorm (fused_add_rms_norm: read the input
//     and the residual, write both): 4h each, NormsPerLayer of them;
//   - rotary embedding on the rank's query and key heads (read and write
//     in place): 2·(heads + kv heads)·rotary dim / attention TP (MLA:
//     heads·rope dim of the queries and the one shared rope key);
//   - the KV cache write (reshape_and_cache: read k and v, write the
//     cache): 2·KV width / attention TP;
//   - the gated activation (silu_and_mul: read gate and up, write their
//     product): 3·width / TP, for the dense MLP, each of the token's k
//     routed experts (whose widths the TP group splits, by EP or by
//     slicing) and the shared experts;
//   - MoE routing (top-k over the router's logits, then fused_moe's
//     output of the k experts' rows and moe_sum: write and read k·h, write
//     h), k·h / EP of them on one rank under expert parallelism.
//
// The FP8/FP4 activation quantisation before each low-precision GEMM is
// left out: TensorRT-LLM and vLLM's compile passes fuse it into the norm
// and the activation. Attention's own reads of q, k, v are in the
// attention kernel's time. Korthikanti et al. 2022 (Table 2) count the
// same operators' activations for training.
func prefillOpBytes(in Input, atp, tp float64) float64 {
	a := in.Arch
	h := float64(a.Hidden)
	if h <= 0 || a.Layers <= 0 || a.Generic() {
		return 0
	}
	atp, tp = math.Max(atp, 1), math.Max(tp, 1)
	norms := float64(a.NormsPerLayer)
	if norms <= 0 {
		norms = 2
	}
	layers := float64(a.Layers)
	per := norms * 4 * h
	// Rotary and KV cache write.
	if a.IsMLA() {
		rope := float64(a.QKRopeHeadDim)
		per += 2*(float64(a.Heads)*rope/atp+rope) + 2*float64(a.KVLoRARank+a.QKRopeHeadDim)
	} else if !a.Encoder {
		hd := float64(a.HeadDim)
		per += 2*(float64(a.Heads)+float64(a.KVHeads))*hd/atp + 2*2*float64(a.KVHeads)*hd/atp
	}
	act := 3.0 // gate and up read, product written
	if !a.GatedMLP {
		act = 2 // activation read and written
	}
	var total float64
	if a.IsMoE() {
		dense := float64(a.DenseLayers)
		moe := math.Max(layers-dense, 0)
		k := float64(a.ExpertsPerToken)
		ep := math.Max(float64(in.EP), 1)
		experts := act*(k*float64(a.MoEIntermediate)+float64(a.SharedExperts)*float64(a.MoEIntermediate)+
			float64(a.SharedExpertIntermediate))/tp + 2*k*h/ep + h
		total = layers*per + dense*act*float64(a.Intermediate)/tp + moe*experts
	} else {
		total = layers * (per + act*float64(a.Intermediate)/tp)
	}
	elem := math.Max(2, in.Weights.BitsPerElement()/8)
	return total * elem
}
