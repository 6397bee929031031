package estimator

// Prompt processing: compute-bound forward passes over the prompt, with
// causal attention FLOPs that grow with its length.

// prefill is the seconds to prefill k prompts of length prompt together
// on an idle replica: one forward over k·prompt tokens (causal attention
// averages prompt/2 context per token) writing their KV cache, at least
// the engine's floor. Its compute runs at the engine's prompt rate
// (promptCost); under attention DP each prompt's attention is its rank's
// (rankSkewGrowth), as in StepSeconds.
func (m *inferModel) prefill(k, prompt float64) (secs float64, b Bound) {
	n, f, at := k*prompt, m.promptCost, m.sc.attended(prompt/2)
	ctok, lctx, kv := n*f, n*at*f, k*m.kvSeq(prompt)
	secs, b, _ = m.stepSum(false, n, ctok, lctx, kv)
	if m.dpRanks > 1 {
		secs += m.rankSkewGrowth(k, prompt, at, n, ctok, lctx, kv)
	}
	return secs, b
}

// prefillMarginal is the extra seconds one prompt adds to a step that
// already reads the weights (chunked prefill, Agrawal et al. 2024,
// "Taming Throughput-Latency Tradeoff in LLM Inference with
// Sarathi-Serve", OSDI: prompt chunks ride in decode steps): its compute
// and its TP all-reduces.
//
// Under attention DP a prompt riding in a step is its rank's, but at the
// loads this figure sizes a step carries prompts for most ranks, and the
// busiest rank's excess over the spread figure (rankSkewSeconds: at most
// ranks − 1 prompts' attention over the step's k) is shared by them; so
// the marginal keeps the spread figure, and the simulated steps price
// each step's own skew (StepSeconds). Charging every prompt the lone
// prompt's skew nearly halved a DP 8 copy's capacity (the planner's
// DeepSeek B200 SGLang copies: 11 instances where 6 serve the load) and
// turned it from attention DP, which the measured rows do not.
func (m *inferModel) prefillMarginal(prompt float64) float64 {
	return m.computeTime(prompt, m.sc.attended(prompt/2)) + prompt*m.commPerToken
}

// SampleLengths is the prompt and generated tokens per request: the
// Workload's, or half of Input.Seq each; ViT runs one forward over its
// fixed patches, and an encoder (BERT) generates nothing and reads its
// whole Input.Seq where the Workload names no prompt (the halves were a
// decoder's: a BERT job of 512-token inputs was timed at 256). The
// estimate and the planner both read it.
func SampleLengths(in Input, w Workload) (prompt, out float64) {
	a := in.Arch
	prompt, out = float64(w.PromptTokens), float64(w.OutputTokens)
	if a.SeqLen > 0 && !a.Generic() {
		return float64(a.SeqLen), 0
	}
	if a.Encoder {
		if w.PromptTokens == 0 {
			prompt = max(1, float64(in.Seq))
		}
		return prompt, 0
	}
	if w.PromptTokens == 0 && w.OutputTokens == 0 {
		out = float64(in.Seq / 2)
		prompt = max(1, float64(in.Seq)-out)
	}
	return prompt, out
}
