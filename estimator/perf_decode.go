package estimator

// One forward pass of a serving replica on the device, and the decode step
// built from it.

import (
	"math"
	"strconv"
)

// inferModel holds what every inference forward pass of one replica
// shares; its methods are the phases.
type inferModel struct {
	in     Input
	tp     float64
	atp    float64 // attention's TP degree: tp, or tp/DP (attnTP)
	n      float64 // matmul parameters (matmulParams)
	weight float64 // weight bytes one forward reads on the whole replica
	// plainBytes: the bytes one GPU reads of the weights that are not
	// quantised linears (embedding rows, norms, LM head), which a
	// dequantising kernel never copies (weightBytes).
	plainBytes float64
	// ep is the EP groups the routed experts are split over (0: none);
	// epShare[t] is expertShare(t) for t < epShareTable (nil without EP).
	ep      int
	epShare []float64
	// expertFrac is the routed experts' share of weight; E and k their
	// count and top-k (0 for dense models); slots the expert slots per
	// expert with redundant copies (expertSlots).
	expertFrac, E, k, slots float64
	// exBytes is the routed experts' weight bytes on the whole replica,
	// at the weight-only kernel's factor, where they are stored narrower
	// than the rest (Quant.ExpertsOnly); 0 otherwise, where they are
	// weight × expertFrac.
	exBytes float64
	// mlpBytes is the weight bytes of the dense MLPs and shared experts
	// one GPU reads beyond attention's share of them, as the engine splits
	// them (placedMLPParams; the memory estimate holds the same).
	mlpBytes        float64
	kvShare, kvBits float64
	kvLayout        kvLayout // kvSeq's figures, from a, kvBits and kvShare
	sc              stepConsts
	bw, flops       float64 // achieved bytes/s and FLOP/s per GPU
	attnFlops       float64 // achieved FLOP/s of attention's products (Hardware.AttnFLOPS)
	commPerToken    float64 // TP all-reduce seconds per token per forward
	host, perLayer  float64 // stepFloor
	// hostBetween: the serving engine's release runs its per-step host
	// work between the GPU's steps, not under them (overlapsHost).
	hostBetween bool
	// seqGap: host seconds per running sequence the engine's release
	// adds to every step after the GPU's (vllmSequenceGap).
	seqGap float64
	// feToken: the API server's seconds per streamed token, over the
	// copy's API servers (vllmFrontEndToken); a step is at least this
	// times its running sequences (frontEndFloor).
	feToken float64
	// llComm is commPerToken for a decode or verify step where SGLang's
	// DeepEP runs its low-latency kernels inside an NVLink domain
	// (deepEPLowLatencySeconds); 0 elsewhere.
	llComm float64
	layers float64
	// gemmCost is the matmuls' time relative to InferenceMFU by the
	// inner dimension each runs at on one GPU (gemmShapeCost).
	gemmCost float64
	// promptCost is the factor on a prompt token's compute seconds
	// (promptCost, enginePromptRates); decode tokens keep 1.
	promptCost float64
	// The per-step coefficients of device, read once when the model is
	// built (newInferModel, stepCoeffs): a serving plan's simulations
	// price tens of thousands of steps, and these were four divisions
	// of each.
	tokSecs     float64 // matmul seconds per token: 2·n·gemmCost / flops / tp
	ctxSecs     float64 // attention seconds per token and attended token: 4·qDim / attnFlops / tp
	denseBytes  float64 // non-expert weight bytes one GPU reads per forward: weight·(1 − expertFrac) / atp + mlpBytes
	perBW       float64 // 1 / bw
	fixedLayers float64 // layers · perLayer
	// epFloor is the least a step's communication takes under DeepEP
	// (deepEPDecode): its dispatch's and combine's latency over all the
	// layers, which the bytes hide once there are enough (deepEPFloor).
	epFloor float64
	// tbo: the forward runs as two overlapped micro-batches
	// (Input.TwoBatchOverlap; tboStep).
	tbo bool
	// dpRanks is the copy's attention-DP ranks (dpRanks(in)): above 1 a
	// step's prompt chunks each run their attention on one rank
	// (rankSkewGrowth).
	dpRanks float64
	// graphCap and eagerLaunch: SGLang's decode steps run eager, the host
	// taking eagerLaunch seconds to launch the forward (sglangEagerLaunch;
	// 0 on other engines, whose eager step is stepFloor's), every one with
	// Input.EnforceEager (graphCap 0) and past graphCap sequences on a
	// rank (Input.CUDAGraphMaxBS) without it (eager, eagerStep).
	graphCap, eagerLaunch float64
	// Speculative decoding (Input.DraftTokens; specTokenSeconds): draft
	// tokens a decode step verifies, the tokens a step yields
	// (mtpAcceptedTokens) and the MTP module's share of a forward (one
	// block of the model's layers). draft 0: none.
	draft, tau, mtpBlock float64
	// admission's memo: own prefill and marginal prompt seconds at
	// admitPrompt.
	admitted                   bool
	admitPrompt, own, marginal float64
}

func newInferModel(in Input, hw Hardware, eff Efficiency) inferModel {
	a := in.Arch
	m := inferModel{in: in, tp: float64(in.TP), atp: attnTP(in), n: matmulParams(a), layers: math.Max(float64(a.Layers), 0)}
	// Weight bytes a forward pass reads: every parameter at its storage
	// width (the memory model's weightBits) except the input embedding,
	// of which only the batch's rows are gathered (untied models).
	linBits, otherBits, _ := weightBits(in)
	readParams := float64(a.TotalParams)
	if !a.TiedEmbeddings || a.Encoder {
		readParams -= float64(a.EmbeddingParams)
	}
	// An experts-only format (Quant.ExpertsOnly) stores the routed experts
	// at linBits and every other weight, the dense MLPs and shared experts
	// included, at otherBits.
	lin := math.Min(quantisedLinears(in, float64(a.LinearParams), expertParams(a)), readParams)
	m.weight = (lin*linBits + math.Max(readParams-lin, 0)*otherBits) / 8
	m.plainBytes = math.Max(readParams-lin, 0) * otherBits / 8 / m.atp
	mlpBits := linBits
	if in.Quant.ExpertsOnly() {
		mlpBits = otherBits
	}
	m.mlpBytes = placedMLPParams(in, m.atp) * mlpBits / 8
	// MoE: the routed experts are the difference between total and active
	// parameters scaled by E/(E − k). With uniform routing a step of B
	// tokens touches E·(1 − (1 − k/E)^B) experts of each layer (expected
	// distinct draws), so decode at small batch reads only those.
	m.E, m.k, m.slots = float64(a.Experts), float64(a.ExpertsPerToken), expertSlots(in)
	if in.EP > 1 && m.E > 0 {
		m.ep = in.EP
	}
	if ex := expertParams(a); ex > 0 {
		m.expertFrac = math.Min(ex, readParams) / math.Max(readParams, 1)
		if in.Quant.ExpertsOnly() {
			// The experts' own bytes, not their share of the parameters:
			// they are stored narrower than the rest (stepCoeffs puts the
			// weight-only kernel's factor on them once sc is known).
			m.exBytes = math.Min(ex, readParams) * linBits / 8
		}
	}
	// One GPU holds its attention rank's share of each of its own
	// sequences: kvTPShare at attention's TP, and 1/DP of the replica's
	// sequences (kvShare averages over the replica's sequences).
	m.kvBits, m.kvShare = kvBitsPerElement(in), kvTPShare(a, m.atp)/dpRanks(in)
	if !a.IsMLA() && a.KVHeads == 0 {
		m.kvShare = 1 / m.tp
	}
	if a.HasKVCache() {
		m.kvLayout = newKVLayout(a, m.kvBits, m.kvShare) // else none: no KV bytes
	}
	m.bw = hw.MemBandwidth * eff.BandwidthUtil
	m.flops = hw.PeakFLOPS * eff.InferenceMFU * lowPrecisionGEMMShare(in, hw)
	m.gemmCost, m.promptCost = 1, promptCost(in, hw)
	if nvidiaGEMMCurve(hw.Generation) {
		m.gemmCost = gemmShapeCost(a, m.atp, m.tp, float64(in.EP), servingMLPShards(in))
	}
	m.attnFlops = m.flops
	m.flops *= linearGEMMShare(in, hw) // the linears only
	if halfAccumGEMM(in, hw) {
		// The linears only: attention keeps the FP32-accumulate rate.
		m.flops = hw.HalfAccumFLOPS * eff.InferenceMFU
	}
	if hw.AttnFLOPS > 0 && hw.AttnFLOPS < hw.PeakFLOPS {
		m.attnFlops = hw.AttnFLOPS * eff.InferenceMFU
	}
	// TP: 2 all-reduces per layer in the forward pass (Shoeybi et al. 2019
	// §3), ring cost 2(t−1)/t of tokens·h activations per GPU.
	// a2a is the seconds a rank's token costs in one layer's EP dispatch
	// and combine (below; 0 without the all-to-all).
	a2a := 0.0
	if in.TP > 1 && a.Hidden > 0 {
		elem := math.Max(2, in.Weights.BitsPerElement()/8) // activations in 16-bit (or fp32)
		h, bw := float64(a.Hidden), collectiveBandwidth(hw, in.TP)
		ring := func(t float64) float64 { return 2 * (t - 1) / t * h * elem / bw }
		mlp := ring(m.tp)
		if epAllToAll(in) {
			// Expert parallelism: all-to-all dispatch and combine of each
			// token's hidden state to its k experts, (EP−1)/EP of them on
			// other GPUs (DeepSeek-V3 report §3.2; DeepEP), each GPU
			// sending its own attention rank's tokens. SGLang's expert
			// parallelism without attention data parallelism (its default
			// moe_a2a_backend "none", which the InferenceX recipes run:
			// --ep-size with --tensor-parallel-size and no
			// --moe-a2a-backend) keeps every token on every rank after
			// attention's all-reduce, runs the rank's own experts on the
			// tokens routed to them and sums the ranks' outputs with one
			// all-reduce (python/sglang/srt/models/deepseek_v2.py,
			// DeepseekV2MoE.forward_normal: tensor_model_parallel_all_reduce
			// after the experts): the same ring as tensor parallelism.
			// The dispatch carries each element at moeDispatchBytes, the
			// combine at the activations' width.
			a2a = m.k * h * (moeDispatchBytes(in, elem) + elem) * epAllToAllSecondsPerByte(hw, in.EP)
			mlp = a2a / dpRanks(in)
		}
		m.commPerToken = m.layers * (ring(m.atp) + mlp)
		if SGLangDeepEP(in) && deepEPArch(hw) && !DeepEPDecode(in, hw) && !in.TwoBatchOverlap {
			ll := m.k * h * deepEPLowLatencySeconds(elem) / dpRanks(in)
			m.llComm = m.layers * (ring(m.atp) + math.Max(mlp, ll))
		}
	}
	m.host, m.perLayer = stepFloor(in, hw)
	m.hostBetween = in.Engine.Pooled() && !overlapsHost(in)
	m.seqGap = vllmSequenceGap(in)
	m.feToken = vllmFrontEndToken(in)
	// Each all-reduce also pays a latency that does not shrink with the
	// message: one collective for attention (over its TP ranks) and one
	// for the MLP or experts per layer (allReduceLatency); under DeepEP the
	// experts' two, its dispatch and combine, are the step's epFloor.
	switch {
	case a2a > 0 && DeepEPDecode(in, hw):
		m.perLayer += allReduceLatency(hw, m.atp)
		m.epFloor = m.layers * deepEPFloor(hw, m.tp, a2a)
	case in.TP > 1:
		m.perLayer += allReduceLatency(hw, m.atp) + allReduceLatency(hw, m.tp)
		if dpRanks(in) > 1 {
			m.perLayer += dpGatherLatency(hw, m.tp)
		}
	}
	m.tbo = in.TwoBatchOverlap && a2a > 0
	m.dpRanks = dpRanks(in)
	if in.Engine == SGLang && (in.EnforceEager || in.CUDAGraphMaxBS > 0) {
		m.eagerLaunch = sglangEagerLaunch(in, hw)
		if !in.EnforceEager {
			m.graphCap = float64(in.CUDAGraphMaxBS)
		}
	}
	if in.DraftTokens > 0 && m.layers > 0 {
		m.draft, m.mtpBlock = float64(in.DraftTokens), 1/m.layers
		m.tau = mtpAcceptedTokens(a, in.DraftTokens, in.DraftAcceptance)
	}
	m.sc = newStepConsts(in)
	if fp8Marlin(in, hw) {
		// FP8 as W8A16 Marlin (fp8MarlinGEMMShare) reads its 8-bit
		// weights through the same gptq_marlin kernel as GPTQ/AWQ
		// Marlin, at that kernel's bandwidth share.
		m.sc.dq = 1 / marlinBandwidthShare
	}
	if m.ep > 1 && m.expertFrac > 0 {
		m.epShare = make([]float64, epShareTable)
		for t := range m.epShare {
			m.epShare[t] = m.expertShare(float64(t))
		}
	}
	m.stepCoeffs()
	return m
}

// stepCoeffs sets device's per-step coefficients from the model's
// figures. They regroup device's arithmetic (a product by a reciprocal
// for a division, the per-token terms summed after their quotients),
// which moves a step's time in its last bits only.
func (m *inferModel) stepCoeffs() {
	m.tokSecs = 2 * (m.n + m.hotExpertParams()) * m.gemmCost / m.flops / m.tp
	m.ctxSecs = 4 * m.sc.qDim / m.attnFlops / m.tp
	m.denseBytes = m.weight*(1-m.expertFrac)/m.atp + m.mlpBytes
	if m.exBytes > 0 {
		m.denseBytes = (m.weight-m.exBytes)/m.atp + m.mlpBytes
		// The weight-only kernel (Marlin's MoE under vLLM and SGLang)
		// reads the experts at its factor, the same at every batch on the
		// serving engines the format runs on; the 16-bit rest is read as
		// it is (weightBytes). stepCoeffs runs once, from newInferModel.
		m.exBytes *= m.sc.dequant(1)
	}
	m.perBW = 1 / m.bw
	m.fixedLayers = m.layers * m.perLayer
}

// hotExpertParams is the matmul parameters a token adds to the step of
// the most loaded EP rank beyond the mean rank's: its routed experts'
// active parameters, expertParams·k/E, times the excess of the hottest
// rank's routed tokens over the mean (epImbalance − 1). The MoE layer
// waits for its slowest rank.
func (m *inferModel) hotExpertParams() float64 {
	if m.E <= 0 {
		return 0
	}
	return expertParams(m.in.Arch) * m.k / m.E * (epImbalance(m.in) - 1)
}

// epImbalance is the routed tokens of the most loaded EP rank over the
// mean rank's in a serving MoE layer: the hot rank's expert GEMMs set the
// layer's time (hotExpertParams). Its dispatch and combine carry more
// tokens too ("more data will be sent to/received from the hot EP rank",
// TensorRT-LLM's large-scale EP blog), but the all-to-all's bytes term
// stands as DeepEP's measurements fit it (deepEPFloor): with the
// imbalance on it as well, the 72-GPU H100 decode without two-batch
// overlap read 125.9 ms against 115.2 ms measured (117.4 ms without it
// anywhere, 119.0 ms on the GEMMs alone; with the shared experts split over
// the 72 GPUs, before servingMLPShards: 110.2 ms now). Large EP (above 8
// ranks, as that blog counts it): epEPLBImbalance, measured at EP 32 and 36
// with redundant experts an EPLB placed, and taken for every EP above 8
// with or without them (an estimate). Without copies an engine's load
// balancer may still move whole experts (SGLang's --enable-eplb and vLLM's
// EPLB run with none redundant), and the measured deployments balance far
// better than the experts placed in order: TensorRT-LLM's 2.564 put the
// InferenceX disaggregated decode workers of 16 GPUs (EP 16, no redundant
// experts in the replay) from 17.3% to 26.2% median TPOT |error|, where
// 1.109 moves them from 16.6% to 16.2% (fit rows; test 12.9% → 12.7%). It
// was charged only with redundant experts until the hundred-second round,
// which made a layout that balances its experts dearer than one that does
// not, and steered the planner to EP widths that divide the experts
// (testdata/calibration/README.md, "Two-batch overlap and EP imbalance"
// and the hundred-second round).
func epImbalance(in Input) float64 {
	if in.EP <= 8 || !in.Arch.IsMoE() || in.Task.Training() {
		return 1
	}
	return epEPLBImbalance
}

// epEPLBImbalance is the hottest EP rank's routed tokens over the mean
// under DeepSeek's EPLB placement with redundant experts: TensorRT-LLM
// measured an imbalance ratio (max − mean)/mean of 0.109 with 9 expert
// slots a rank at EP 32 and 0.115 with 8 at EP 36 (32 redundant experts
// either way), against 1.564 with the 256 experts placed in order
// (DeepSeek-R1 on 32 GB200s, decode at 256 requests a rank, a machine
// translation dataset, each the mean over layers and iterations; NVIDIA
// TensorRT-LLM docs/source/blogs/tech_blog/
// blog4_Scaling_Expert_Parallelism_in_TensorRT-LLM.md, "Offline EP Load
// Balancer", Table 1, 2025). The LMSYS 96-H100 post reads EPLB's decode
// speedup at EP 72 as 2.54× ("Ablation Study: EPLB", 2025-05-05), about
// the ratio of the two, 2.564 / 1.109 = 2.31.
const epEPLBImbalance = 1.109

// stepConsts are the per-step figures that depend on the model alone,
// read once when the model is built rather than on every one of the
// simulator's steps (each call had copied the Input and the Arch):
// AttendedContext's layer counts and caps, the attention's query width,
// and the weight format's costs by token count (weightFormat).
// TestStepConstsMatch holds them to the functions they stand for.
type stepConsts struct {
	layers layerSpans
	qDim   float64 // attnFLOPs(a, lctx) = 4·lctx·qDim
	// absorbed is a decoding token's attention FLOPs per attended token
	// relative to attnFLOPs' (absorbedAttnScale): 1 except for MLA.
	absorbed float64
	weightFormat
}

func newStepConsts(in Input) stepConsts {
	return stepConsts{layers: in.Arch.layerSpans(), qDim: float64(in.Arch.qDim()), absorbed: absorbedAttnScale(in),
		weightFormat: newWeightFormat(in)}
}

// absorbedAttnScale is the attention FLOPs of a decoding token relative to
// attnFLOPs' 4·ctx·qDim per layer: 1, except for multi-head latent
// attention. MLA decodes in its absorbed form (DeepSeek-V2,
// arXiv:2405.04434, §2.1.2: W_UK is absorbed into W_Q and W_UV into W_O,
// so attention runs on the cached latent and is never decompressed):
// every query head attends over the kv_lora_rank + qk_rope_head_dim
// latent as its key and the kv_lora_rank latent as its value, which the
// FlashMLA decoding kernel counts as 2·h_q·s_q·s_k·(d_k + d_v) FLOPs with
// d_k = 576 and d_v = 512 for DeepSeek-V3 (FlashMLA,
// docs/20250422-new-kernel-deep-dive.md: the kernel is compute-bound once
// h_q·s_q ≥ 128 on an H800, although it decodes; it reaches 580–660 of the
// H800's 989 dense BF16 TFLOPS, more than the InferenceMFU share the step
// model gives attention, which stays as it is). Per head and attended
// token that is 2·(2·kv_lora_rank + qk_rope_head_dim) = 2,176 FLOPs
// against attnFLOPs' 4·(qk_nope + qk_rope) = 768, 2.83×. The engines run
// every decode step (and speculative decoding's verification of draft
// tokens) this way and only fresh prompts in the decompressed MHA form
// that attnFLOPs counts: SGLang's DeepSeek attention dispatch
// (_handle_attention_backend: MHA only for an extend without
// speculative decoding, the absorbed MLA kernels otherwise), vLLM's
// MLACommonImpl (prefill decompressed, decode absorbed), TensorRT-LLM's
// MLA generation kernels and llama.cpp's deepseek2 graph since it caches
// the latent (ggml-org/llama.cpp pull 12801). Hugging Face transformers
// decompresses the latent with kv_b_proj at every step
// (modeling_deepseek_v3.py, DeepseekV3Attention) and attends as MHA: 1.
func absorbedAttnScale(in Input) float64 {
	a := in.Arch
	q := float64(a.qDim())
	if !a.IsMLA() || in.Engine == HF || q <= 0 || a.Heads <= 0 {
		return 1
	}
	dk, dv := float64(a.KVLoRARank+a.QKRopeHeadDim), float64(a.KVLoRARank)
	return 2 * float64(a.Heads) * (dk + dv) / (4 * q)
}

// attended is in.Arch.AttendedContext(ctx).
func (c *stepConsts) attended(ctx float64) float64 { return c.layers.attended(ctx) }

// allReduceLatency is the exposed latency of one decode-sized all-reduce
// over t GPUs. Two GPUs exchange once (one hop, allReduceHopSeconds).
// Across NVLink domains NCCL's ring passes t − 1 hops. Between 3 and the
// domain's size the serving engines use one-shot or two-shot all-reduce
// kernels (vLLM's custom_all_reduce, TensorRT-LLM's AllReduce with its
// ONESHOT/TWOSHOT strategies, SGLang's custom and FlashInfer fused
// all-reduce), in which every GPU reads its peers' buffers in one or two
// steps: the latency stops growing with t (servingAllReduceSeconds).
func allReduceLatency(hw Hardware, t float64) float64 {
	switch {
	case t <= 1:
		return 0
	case t <= 2:
		return allReduceHopSeconds
	case t <= float64(max(hw.NVLinkDomain, 1)):
		return servingAllReduceLatency(hw.Generation)
	}
	return (t - 1) * allReduceHopSeconds
}

// epAllToAll reports whether in's experts exchange tokens by an
// expert-parallel all-to-all (dispatch and combine): a serving MoE with EP,
// except SGLang's EP without attention data parallelism, which sums the
// ranks' experts with an all-reduce (newInferModel).
//
// TensorRT-LLM and vLLM keep the all-to-all's figure without attention DP
// as a measured stand-in, not as what their code runs. Their code sums
// the experts there with an all-reduce too: TensorRT-LLM selects no
// all-to-all unless mapping.enable_attention_dp (the fused MoE modules'
// select_alltoall_method_type, DeepseekV3MoE's should_enable_alltoall;
// tensorrt_llm/_torch/modules/fused_moe, models/modeling_deepseekv3.py),
// and vLLM's FusedMoEParallelConfig.use_all2all_kernels is dp_size > 1
// and use_ep (vllm/model_executor/layers/fused_moe/config.py). Priced as
// that all-reduce, their EP rows without DP come out too fast: TensorRT-LLM
// DeepSeek-R1 FP8 TP 8 EP 8 with 8k prompts at 4 in flight reads a median
// TTFT of 264 ms against 381 ms measured on eight H200s (443 ms with the
// all-to-all) and 216 against 318 ms on eight B200s (306 ms), and
// GPUStack's vLLM Qwen3-235B-A22B FP8 TP 8 EP burst on H100s +105 →
// +181% throughput. The same engine's EP 1 rows say the missing cost is
// not the exchange (H200, 8k: 374 ms at EP 1 against 381 ms at EP 8), and
// no prompt rate for it can be fitted (no fit row pairs 1k with 8k prompts
// there), so the all-to-all's figure stays on these rows
// (testdata/calibration/README.md, ninety-eighth round).
//
// SGLang under attention DP with --moe-a2a-backend none (Input.MoEA2A)
// gathers instead: python/sglang/srt/layers/communicator.py's
// LayerCommunicator gathers every DP rank's tokens to every rank before
// the MoE block (dp_gather) and scatters the reduced output after it
// (dp_scatter), where the DeepEP dispatcher exchanges each token with its
// experts' ranks only; the same ring as tensor parallelism, as without
// attention DP.
func epAllToAll(in Input) bool {
	return in.EP > 1 && in.Arch.IsMoE() && (in.Engine != SGLang || (dpRanks(in) > 1 && in.MoEA2A != MoEA2ANone))
}

// SGLangDeepEP reports whether in is SGLang's expert parallelism under
// attention data parallelism (a mixture-of-experts model, EP > 1, DP > 1),
// which the estimate prices as DeepEP's all-to-all wherever the copy's
// GPUs sit: each rank dispatches its own tokens to their experts' ranks
// (epAllToAll) and holds the shared experts whole (servingMLPShards), and
// SGLang reserves DeepEP's buffers beside its static share
// (sglangMemFractionStatic). The SGLang launch runs that exchange where
// this holds, --moe-a2a-backend deepep (catalog/launch), as SGLang's own
// CI runs DeepSeek on one node of 8 GPUs (--tp 8 --enable-dp-attention
// --dp 8 --moe-a2a-backend deepep: sgl-project/sglang
// test/srt/ep/test_deepep_large.py at 0ed54dab); without it SGLang
// gathers every token to every rank and splits the shared experts over
// TP, which is not what was priced.
func SGLangDeepEP(in Input) bool {
	return in.Engine == SGLang && dpRanks(in) > 1 && epAllToAll(in)
}

// DeepEPRuns reports whether DeepEP's kernels run on hw's GPUs: Hopper
// or Blackwell ("Hopper (SM90) GPUs, or other architectures with SM90
// PTX ISA support") joined by NVLink ("NVLink with full directed CUDA
// peer access between every pair of participating intranode GPUs … Use
// another MoE all-to-all backend when the participating GPUs do not
// form a full-P2P domain"; deepseek-ai/DeepEP README.md at 0297fc8,
// Requirements), the GPUs' own link (Hardware.LinkBandwidth) and not
// PCIe. The SGLang launch refuses an SGLangDeepEP layout elsewhere.
func DeepEPRuns(hw Hardware) bool {
	return deepEPArch(hw) && hw.LinkBandwidth > 0
}

// DeepEPRefusal is why SGLang cannot run in's SGLangDeepEP layout as the
// estimate prices it on hw's GPUs, "" where it can (or in is no such
// layout): the model's SGLang code runs no attention data parallelism
// (SGLangDPAttention; this refusal covers any SGLang attention DP of a
// mixture-of-experts model, with or without EP), DeepEP does not run
// there (DeepEPRuns), or EP is not the TP
// group, which SGLang's DeepEP backend makes it ("if
// view.moe_a2a_backend in _A2A_EP_SPANNING_BACKENDS: return {"ep_size":
// view.tp_size}", deepep among them: sgl-project/sglang
// python/sglang/srt/arg_groups/overrides.py, _a2a_ep_size, read from
// the tree of server_args.py at 001067fffe33). The launch refuses such a
// layout and the planner lays out none (estimator/plan).
func DeepEPRefusal(in Input, hw Hardware) string {
	switch why := sglangArchRefusal(in); {
	case why != "":
		return why
	case !SGLangDeepEP(in):
		return ""
	case !DeepEPRuns(hw):
		why := "these are " + hw.Generation.String() + " GPUs"
		if deepEPArch(hw) {
			why = "these talk over PCIe"
		}
		return "SGLang runs expert parallelism under attention data parallelism with DeepEP's all-to-all (--moe-a2a-backend deepep), which needs Hopper or Blackwell GPUs joined by NVLink, and " + why +
			": serve this layout with vLLM or TensorRT-LLM, or SGLang without attention data parallelism"
	case in.EP != in.TP:
		return "SGLang's DeepEP all-to-all spreads the experts over the whole TP group (EP " + strconv.Itoa(in.TP) + "), not EP " + strconv.Itoa(in.EP)
	}
	return ""
}

// deepEPArch reports whether hw's GPUs are of a generation DeepEP's
// kernels (its low-latency ones included) are built for: Hopper or
// Blackwell (DeepEPRuns).
func deepEPArch(hw Hardware) bool {
	return hw.Generation == GenHopper || hw.Generation == GenBlackwell
}

// DeepEPDecode reports whether in's all-to-all is DeepEP's over RDMA: an
// SGLangDeepEP layout on Hopper or Blackwell GPUs (DeepEP's low-latency
// kernels need SM90 and RDMA with IBGDA) whose TP group spans NVLink
// domains (inside one, the fitted collective latency stands:
// servingAllReduceSeconds), the large-scale EP deployment
// (--moe-a2a-backend deepep, low-latency kernels in decode; LMSYS,
// "Deploying DeepSeek with PD Disaggregation and Large-scale Expert
// Parallelism on 96 H100 GPUs", 2025-05-05). TensorRT-LLM across nodes
// without a multi-node NVLink domain exchanges tokens by all-gather and
// reduce-scatter unless DeepEP is switched on by environment
// (tensorrt_llm/_torch/modules/fused_moe, WideEPMoE's
// select_alltoall_method_type: MNNVL inside an NVL72 rack, DeepEP only
// with TRTLLM_CAN_USE_DEEP_EP), and AMD's MoRI has no published latency
// table here: both keep the collective's latency.
func DeepEPDecode(in Input, hw Hardware) bool {
	return SGLangDeepEP(in) && deepEPArch(hw) && in.TP > max(hw.NVLinkDomain, 1)
}

// deepEPFloor is the seconds of one layer's DeepEP dispatch and combine
// when a rank sends few tokens: two collectives' latency over the t GPUs
// (allReduceLatency: a ring's t − 1 hops across NVLink domains), but no
// more than the two take at deepEPMeasuredTokens a rank, given perToken,
// the seconds both take per token a rank (their bytes through the NIC,
// epAllToAllSecondsPerByte). The step pays the larger of this floor and
// its tokens' bytes, not their sum (inferModel.deviceSum): DeepEP's
// low-latency kernels write each token to its experts' ranks as soon as
// it is ready, so the collective's latency passes under the transfer, and
// its measured times at deepEPMeasuredTokens are the bytes alone. The
// bytes term reproduces them within 7% at every EP measured: dispatch plus
// combine 313, 428, 487, 561, 554 µs at EP 16, 32, 64, 128, 256
// (deepseek-ai/DeepEP docs/legacy.md at 0297fc8, "Low-latency kernels with
// pure RDMA": H800, 400 Gbit/s CX7, 7168 hidden, top-8, FP8 dispatch, BF16
// combine) against 294, 440, 514, 550, 569 µs; a ring's latency added to
// them (2 × 63 hops × allReduceHopSeconds = 756 µs at EP 64, more than the
// measured pair) made a 72-GPU H100 decode step of 256 requests a rank
// 170 ms where SGLang measured 115 ms without two-batch overlap
// (testdata/calibration/wide_ep/README.md).
func deepEPFloor(hw Hardware, t, perToken float64) float64 {
	return math.Min(2*allReduceLatency(hw, t), deepEPMeasuredTokens*perToken)
}

// deepEPMeasuredTokens is the tokens a rank of DeepEP's low-latency
// measurement sends ("a typical DeepSeek-V3/R1 production setting (128
// tokens per batch…)", deepseek-ai/DeepEP docs/legacy.md): a dispatch of
// fewer takes no longer.
const deepEPMeasuredTokens = 128

// epAllToAllSecondsPerByte is the seconds per byte a GPU sends in an
// expert-parallel all-to-all over ep GPUs (dispatch or combine), each byte
// to a uniformly drawn rank: (ep − 1)/ep of them leave the GPU. Inside one
// NVLink domain they cross NVLink. An EP group wider than the domain sends
// the share bound for the other domains, (ep − d)/ep, through the GPU's
// own NIC at the network's per-GPU figure, while (d − 1)/ep stays on
// NVLink; the slower path sets the time. An all-to-all has no
// hierarchical reduction to shrink what crosses the network, as a ring
// all-reduce has (collectiveBandwidth): DeepEP's kernels measure their
// bottleneck as the RDMA link as soon as EP leaves the node (DeepEP
// README: normal kernels 153–158 GB/s over NVLink at EP 8 against 43–58
// GB/s over a 400 Gb/s CX7 NIC at EP 16–64; low-latency kernels 39–63
// GB/s at EP 16–256).
func epAllToAllSecondsPerByte(hw Hardware, ep int) float64 {
	e := float64(max(ep, 1))
	d := math.Min(float64(max(hw.NVLinkDomain, 1)), e)
	if e <= d || hw.NetworkBandwidth <= 0 {
		return (e - 1) / e / collectiveBandwidth(hw, ep)
	}
	return math.Max((d-1)/e/hw.LinkBandwidth, (e-d)/e/hw.NetworkBandwidth)
}

// deepEPLowLatencySeconds is the seconds one element of a token's hidden
// state takes through DeepEP's low-latency dispatch and combine together,
// where elem is the activations' width (the combine's): DeepEP's
// measured logical bandwidth at EP 8, 77 µs and 98 GB/s for an FP8
// dispatch, 114 µs and 127 GB/s for a BF16 combine of 128 tokens a rank
// (7168 hidden, top-8; deepseek-ai/DeepEP docs/legacy.md at dd758ca,
// "Low-latency kernels with pure RDMA", H800 with a 400 Gbit/s CX7).
// SGLang dispatches in FP8 there (one byte an element) and combines at
// the activations' width. Inside an NVLink domain the estimate used to
// price the exchange at NVLink's bandwidth (epAllToAllSecondsPerByte),
// 6–7× faster than those kernels run; no SM100 or NVL72 low-latency
// table is published, so DeepEP's own EP 8 figures stand for them, an
// estimate: the InferenceX SGLang decode workers under attention DP
// inside a B200 node or a GB200/GB300 rack read 15–30% too fast with
// NVLink's figure (testdata/calibration/README.md, hundred-first round).
func deepEPLowLatencySeconds(elem float64) float64 {
	return 1/deepEPLLDispatchBandwidth + elem/deepEPLLCombineBandwidth
}

// DeepEP's low-latency logical bandwidths at EP 8 (deepEPLowLatencySeconds).
const (
	deepEPLLDispatchBandwidth = 98e9  // B/s, FP8 dispatch
	deepEPLLCombineBandwidth  = 127e9 // B/s, BF16 combine
)

// lowLatencyExtra is what a decode or verify step of tokens tokens takes
// beyond deviceSum's exchange where DeepEP runs its low-latency kernels
// there (llComm): SGLang's PD decode workers set --deepep-mode
// low_latency (the InferenceX recipes), and its auto mode takes them for
// every batch without an extend in it (sgl-project/sglang
// python/sglang/srt/layers/moe/utils.py, DeepEPMode.resolve); prefill
// steps keep the normal kernels' NVLink figure. The exchange adds to the
// step outside the roofline (deviceSum), so the difference adds too.
//
// Only a rank's first deepEPMeasuredTokens tokens pay the low-latency
// figure; the rest cross at NVLink's (commPerToken, already in the step).
// DeepEP's figures are its kernels' time at 128 tokens a rank, where the
// exchange is bound by its latency, not by NVLink's bandwidth, and no
// larger batch is published; carried on in proportion they priced the
// LMSYS GB200 NVL72 decode of 1,408 sequences a GPU (48 GPUs, NVFP4
// experts, FP8 KV at 2,000 tokens: 13,386 output tokens/s a GPU, a 105 ms
// step; lmsys.org/blog/2025-09-25-gb200-part-2) at 238 ms, where the
// capped exchange gives 141 ms (testdata/calibration/wide_ep/README.md).
// At 128 tokens a rank or fewer nothing changes: every InferenceX
// disaggregated decode worker of this kind but four (testdata/
// calibration/README.md, hundred-sixteenth round).
func (m *inferModel) lowLatencyExtra(tokens float64) float64 {
	if m.llComm > m.commPerToken {
		return math.Min(tokens, deepEPMeasuredTokens*dpRanks(m.in)) * (m.llComm - m.commPerToken)
	}
	return 0
}

// stepExtra is what a step of tokens tokens over seqs running sequences
// takes beyond stepSum, the one place both step forms (StepSeconds, the
// simulator's and the disaggregated sides'; decodeStep, the closed
// form's) add it: the engine's host gap per running sequence (seqGap)
// and, where decode is true (a decode or verify step), DeepEP's
// low-latency exchange (lowLatencyExtra).
func (m *inferModel) stepExtra(tokens, seqs float64, decode bool) float64 {
	x := m.seqGap * seqs
	if decode {
		x += m.lowLatencyExtra(tokens)
	}
	return x
}

// frontEndFloor is a step of secs that emits a token for each of seqs
// running sequences, at least as long as the engine's API server takes to
// stream them (feToken; 0 where the engine's front end is not modelled).
func (m *inferModel) frontEndFloor(secs, seqs float64) float64 {
	return max(secs, m.feToken*seqs)
}

// moeDispatchBytes is the bytes one element of a token's hidden state
// takes in the expert-parallel dispatch, where elem is the activations'
// width (the combine's). TensorRT-LLM quantises NVFP4 activations before
// the exchange under attention DP: its fused MoE modules set
// use_postquant_alltoall where the all-to-all runs and the weights are
// NVFP4 (environment TRTLLM_MOE_POST_QUANT_ALLTOALLV, on by default), and
// the all-gather path quantises first too (fp4_quantize with
// scaling_vector_size 16 "for both postquant alltoall and allgather"), so
// each element crosses as 4 bits plus one E4M3 scale byte per 16
// elements (nvfp4ActivationBytes); the combine returns in 16 bits
// (use_low_precision_combine is off by default; NVIDIA/TensorRT-LLM
// tensorrt_llm/_torch/modules/fused_moe/fused_moe_cutlass.py,
// fused_moe_wide_ep.py). Later releases quantise before the exchange for
// other formats as well (use_postquant_alltoall without the NVFP4
// condition); the release that changed it was not read, so FP8 keeps
// elem. Every other exchange keeps elem: the DeepEP bytes term was matched
// to DeepEP's FP8-dispatch measurements at that width (deepEPFloor).
func moeDispatchBytes(in Input, elem float64) float64 {
	if in.Engine == TRTLLM && in.Weights == FP4 && dpRanks(in) > 1 {
		return nvfp4ActivationBytes
	}
	return elem
}

// nvfp4ActivationBytes is one NVFP4 element with its share of the block
// scale: 4 bits, and one E4M3 byte for every 16 elements.
const nvfp4ActivationBytes = 0.5 + 1.0/16

// dpGatherLatency is the latency of the collective that attention data
// parallelism adds to every layer: the DP ranks' tokens are gathered
// over the whole TP group before the MLP or experts and scattered back
// after, two collectives where tensor-parallel attention has one
// all-reduce after the MLP (allReduceLatency(tp)) and one inside
// attention's own TP ranks, which DP leaves at one rank (atp = 1, no
// latency). SGLang: dp_gather before and dp_scatter after the MLP of a
// DP-attention layer (python/sglang/srt/layers/dp_attention.py,
// LayerCommunicator), and with DeepEP the MoE layer's dispatch before and
// combine after the experts (DeepEP's low-latency kernels: two
// collectives per MoE layer, each 77–194 µs for dispatch and 114–369 µs
// for combine from EP 8 to EP 256 on H800 over RDMA at 128 tokens per
// rank, DeepEP README "Low-latency kernels with pure RDMA").
// TensorRT-LLM with attention DP all-gathers the ranks' tokens before the
// MoE and reduce-scatters after (or, for wide EP, its MNNVL all-to-all
// dispatch and combine). Each costs what one all-reduce over the group
// costs (allReduceLatency): no constant is fitted. With it, the
// attention-DP decode rows of the InferenceX disaggregated fit set (24
// to 48 GPUs a decode worker: 20–45% too fast before) move their TPOT
// median |error| from 21.7% to 17.3% (testdata/calibration/README.md,
// "Sixteenth round").
func dpGatherLatency(hw Hardware, tp float64) float64 { return allReduceLatency(hw, tp) }

// servingAllReduceSeconds is the exposed latency of one all-reduce over 3
// to 72 GPUs of one NVLink domain: an effective figure (the collective,
// its synchronisation and what the engine does not overlap with it).
// Fitted to the TPOT of the InferenceX fit rows on NVIDIA GPUs
// (DeepSeek-R1 TP 4 and 8, SGLang and TensorRT-LLM, concurrency 1–512;
// testdata/calibration/inferencex, split "fit"): 12, 20, 30, 34, 38, 42
// µs give median |error| 23.7, 14.1, 7.1, 7.9, 9.5, 13.1%, and 32 µs 7.9%
// (median error −1.9%, against −3.6% at 30 µs). Their TPOT is
// the same at TP 4 and TP 8 (B300 TP 4 and B200 TP 8 FP4 at concurrency
// 1: 5.9 ms each), where a ring's latency put TP 8 at +37%.
const servingAllReduceSeconds = 32e-6

// servingAllReduceLatency is servingAllReduceSeconds for a GPU generation.
// AMD Instinct GPUs pay more per collective in a serving step: their
// decode TPOT at concurrency 1–4 is about twice an H200's with a similar
// HBM bandwidth (InferenceX DeepSeek-R1 FP8 TP 8 on SGLang: 21 ms on
// MI300X against 12 ms on H200), a step cost that does not shrink with the
// batch, as the all-reduce's latency does not (RCCL and the engines'
// ROCm all-reduce kernels, and what the ROCm stack does not overlap with
// them). Fitted to the TPOT of the InferenceX fit rows on AMD GPUs
// (DeepSeek-R1 SGLang TP 8, concurrency 1–64; split "fit"):
//   - CDNA3 (MI300X, MI325X; 79 rows): 100, 120, 140, 150, 160 µs give
//     median |error| 22.0, 12.5, 10.6, 11.9, 13.6% (32 µs: 41.7%);
//   - CDNA4 (MI355X; 53 rows): 32, 50, 55, 60, 70 µs give 28.8, 14.1,
//     18.9, 20.0, 26.5%.
//
// CDNA2 takes CDNA3's figure (no rows: an estimate).
func servingAllReduceLatency(g Generation) float64 {
	switch g {
	case GenCDNA2, GenCDNA3:
		return 140e-6
	case GenCDNA4:
		return 50e-6
	}
	return servingAllReduceSeconds
}

// allReduceHopSeconds is the latency of one hop of a ring all-reduce
// (NCCL's ring algorithm): the whole latency at TP 2, and per hop across
// NVLink domains. Fitted, as the latency per hop at every TP, to the
// TensorRT-LLM Llama-3.1-405B TP 8 rows (median |error| 8.3% → 3.2%,
// against 2, 4, 6, 8 µs: 6.7, 5.2, 3.2, 4.9%), before
// servingAllReduceSeconds took over from 3 GPUs to the domain's size; it
// keeps the TP 2 rows of the same table where they were.
const allReduceHopSeconds = 6e-6

// gpuWeightRead is the weight bytes one GPU reads in a forward over
// tokens: the non-expert weights at attention's TP share and, of the
// routed experts (sharded over the whole TP group), those the tokens
// touch: with uniform routing a step of B tokens touches E·(1 − (1 −
// k/E)^B) experts of each layer (expected distinct draws). With R
// redundant copies (Input.RedundantExperts) the GPU holds (E + R)/E times
// the expert weights and a token's k experts are k of the E + R slots (the
// load balancer spreads a hot expert's tokens over its copies: DeepSeek's
// EPLB), so a step touches (E + R)·(1 − (1 − k/(E + R))^B) slots: the same
// bytes for a few tokens, (E + R)/E times them once every slot is read.
// With the experts split over EP groups (Input.EP) each GPU reads the
// touched slots of its own group and the layer waits for the group that
// drew the most (expertShare); split over TP (EP 1) every GPU reads its
// slice of every touched expert, the mean. Measured beside it: InferenceX
// DeepSeek-R1 FP8 on 8 B200s with SGLang, EP 8 against EP 1, median TPOT
// +27% at 4 in flight and +12% at 16 (testdata/calibration/README.md,
// ninety-sixth round).
func (m *inferModel) gpuWeightRead(tokens float64) float64 {
	if m.expertFrac == 0 {
		return m.denseBytes
	}
	var touched float64
	if i := int(tokens); i >= 0 && i < len(m.epShare) && float64(i) == tokens {
		touched = m.epShare[i]
	} else {
		touched = m.expertShare(tokens)
	}
	ex := m.weight * m.expertFrac
	if m.exBytes > 0 {
		ex = m.exBytes
	}
	return m.denseBytes + ex*m.slots/m.tp*touched
}

// expertShare is the share of its expert slots one GPU reads in a step of
// tokens tokens: the expected distinct slots touched (uniform routing),
// and under EP the busiest group's (maxBinomialShare).
func (m *inferModel) expertShare(tokens float64) float64 {
	slots := m.E * m.slots
	touched := 1 - math.Pow(1-m.k/slots, tokens)
	if m.ep > 1 {
		touched = maxBinomialShare(m.ep, math.Round(slots/float64(m.ep)), touched)
	}
	return touched
}

// epShareTable is the decode batches (tokens a step) whose expertShare a
// model with EP reads from a table built with it (epShare).
const epShareTable = 64

// maxBinomialShare is E[max of g independent Binomial(n, p)] / n: the
// share of its n expert slots that the busiest of g EP groups reads in a
// step where each slot is touched with probability p (uniform routing,
// the slots taken as independent). The MoE layer waits for that group.
// E[max] = Σ_{j<n} (1 − F(j)^g) over the binomial's CDF F (its pmf by the
// recurrence from (1 − p)^n); the sum stops once F^g is within 1e-12 of
// 1. Where most slots are touched the share lies between p and 1, so p
// is returned when the mean untouched slots are under 0.01 a group (p
// within 0.01/n of the share) or (1 − p)^n underflows (p within 1 − p).
// Checked against an exact simulation of top-k routing in
// TestMaxBinomialShareRouting.
func maxBinomialShare(g int, n, p float64) float64 {
	q := 1 - p
	if !(p > 0) || n < 1 || g <= 1 || n*q < 0.01 {
		return p
	}
	pmf := math.Pow(q, n)
	if pmf == 0 {
		return p
	}
	r := p / q
	cdf, sum := 0.0, 0.0
	for j := 0.0; j < n; j++ {
		cdf += pmf
		pmf *= (n - j) / (j + 1) * r
		fg := powInt(cdf, g)
		if fg > 1-1e-12 {
			break
		}
		sum += 1 - fg
	}
	return sum / n
}

// powInt is x^k for k ≥ 1 by repeated squaring.
func powInt(x float64, k int) float64 {
	y := 1.0
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			y *= x
		}
		x *= x
	}
	return y
}

// weightBytes is the bytes one GPU moves for the weights of a forward
// over tokens: gpuWeightRead at the format's factor (dequantBytesFactor).
// Where the kernel dequantises to a 16-bit copy (bitsandbytes 4-bit above
// one token, exllama's reconstruction), only the quantised linears are
// copied: the embedding, the norms and the LM head stay in 16 bits and are
// read once. transformers' bitsandbytes integration leaves the output
// embedding unconverted (integrations/bitsandbytes.py,
// get_keys_to_not_convert: "the output embedding ... kept in full
// precision for numerical stability"), and AutoGPTQ quantises only the
// decoder layers' linears (inside_layer_modules), so lm_head stays an
// nn.Linear in fp16. Before, the copy's factor (×8.75 for NF4) was put on
// these 16-bit bytes too: a 1.05 GB LM head of Llama 3.1 8B became 9.2 GB.
func (m *inferModel) weightBytes(tokens float64) float64 {
	w, dq := m.gpuWeightRead(tokens), m.sc.dequant(tokens)
	if m.exBytes > 0 {
		return w // the experts' factor is in exBytes
	}
	if m.sc.linearsOnly(tokens) {
		return (w-m.plainBytes)*dq + m.plainBytes
	}
	return w * dq
}

// kvSeq is one sequence's KV bytes at ctx tokens on one TP rank.
func (m *inferModel) kvSeq(ctx float64) float64 {
	return m.kvLayout.bytes(int64(math.Ceil(ctx)))
}

// computeTime is the tensor-core seconds of tokens new prompt tokens
// whose attention spans sum to lctx per token, on the whole replica (PP
// stages run in sequence, so PP does not divide it), at the engine's
// prompt rate (promptCost).
func (m *inferModel) computeTime(tokens, lctx float64) float64 {
	return (tokens*m.tokSecs + tokens*lctx*m.ctxSecs) * m.promptCost
}

// device is the device seconds of one forward over tokens new decode
// tokens, reading the weights once (dequantised copies included) and
// kvRead KV bytes: the roofline of compute and memory (rooflineTime), the
// per-layer cost under CUDA graphs and the TP all-reduces.
func (m *inferModel) device(tokens, lctx, kvRead float64) (secs float64, memBound bool) {
	return m.deviceSum(tokens, tokens, tokens*lctx, kvRead)
}

// deviceSum is device with the tokens' attention spans as their sum,
// lctxSum = tokens · lctx (StepSeconds has the sum, and is spared the
// division by tokens and the product that undoes it), and ctok the
// tokens' compute in decode tokens' worth: a prompt token counts
// promptCost, and lctxSum carries the same factor on its prompt part
// (stepLoad).
func (m *inferModel) deviceSum(tokens, ctok, lctxSum, kvRead float64) (secs float64, memBound bool) {
	if m.tbo && tokens >= 2 {
		return m.tboStep(tokens, ctok, lctxSum, kvRead)
	}
	c, mem := m.deviceTerms(tokens, ctok, lctxSum, kvRead)
	return rooflineTime(c, mem) + m.fixedLayers + max(m.epFloor, tokens*m.commPerToken), mem > c
}

// tboStep is deviceSum under two-batch overlap (Input.TwoBatchOverlap):
// the tokens run as two micro-batches of half each, whose layers
// alternate so that one's attention and expert GEMMs run while the other's
// dispatch or combine is in flight (SGLang python/sglang/srt/
// two_batch_overlap.py, the operations split at YieldOperation; LMSYS,
// "Deploying DeepSeek with PD Disaggregation and Large-scale Expert
// Parallelism on 96 H100 GPUs", 2025-05-05, "Two-batch Overlap"). Each
// micro-batch reads the weights and pays DeepEP's floor on its own, so the
// compute stream is two half-size rooflines and the communication stream
// two half-size exchanges; the step is the longer of the two streams, plus
// the share tboExposedShare of the exchanges' bytes that the overlap does
// not hide, plus the per-layer cost (launches and attention's collective),
// which neither stream hides.
func (m *inferModel) tboStep(tokens, ctok, lctxSum, kvRead float64) (secs float64, memBound bool) {
	half := tokens / 2
	c, mem := m.deviceTerms(half, ctok/2, lctxSum/2, kvRead/2)
	bytes := tokens * m.commPerToken
	compute, comm := 2*rooflineTime(c, mem), 2*max(m.epFloor, bytes/2)
	return max(compute, comm) + tboExposedShare*bytes + m.fixedLayers, mem > c
}

// tboExposedShare is the share of the all-to-all's bytes time that
// two-batch overlap leaves exposed: DeepEP's decode kernels occupy the
// SMs while they send and receive and free them only while the data is in
// flight ("decode communication kernels either fully utilize SMs (during
// send/receive) or none (during inflight waiting)", LMSYS 2025-05-05,
// "Ablation Study: Two-batch Overlap"), so the sending part does not run
// under the other micro-batch's compute. Fitted to the speedup of the
// one published decode pair at a full batch: 72 H100s, 256 sequences a
// GPU at 2,000 tokens, 22,310 output tokens/s a node with the overlap and
// 25.5% fewer without (step 91.9 ms against 115.2 ms measured): the step
// model's 110.2 ms without the overlap over 1.255 is 87.8 ms, which 0.34
// gives (0.405 gives the measured 91.9 ms). Held back: the same post's 32
// sequences a GPU, where the overlap is 27% slower (step ×1.37); the
// model gives ×1.45 (testdata/calibration/wide_ep/README.md). An estimate
// from one fit point, refitted when the shared experts became whole on
// every GPU (servingMLPShards: the step without the overlap went from
// 119.0 to 110.2 ms, its compute shrinking under the exchange that the
// overlap hides it behind; 0.45 before).
const tboExposedShare = 0.34

// deviceTerms is the two terms of deviceSum's roofline: the compute
// seconds of ctok tokens' worth of linears (deviceSum) and attention spans
// summing to lctxSum, and the memory seconds of reading the weights once
// for tokens new tokens and kvRead KV bytes. The one place they are
// formed (rankSkewGrowth reads them too).
func (m *inferModel) deviceTerms(tokens, ctok, lctxSum, kvRead float64) (c, mem float64) {
	return ctok*m.tokSecs + lctxSum*m.ctxSecs, (m.weightBytes(tokens) + kvRead) * m.perBW
}

// step is one engine step: the longer of the host floor and the device,
// or their sum where the device's work waits on the host (hostSerial) or
// the serving engine's release schedules between steps instead of under
// them (overlapsHost: SGLang before 0.4, vLLM before 0.8); where eager, a
// decode step launched eagerly (inferModel.eager, eagerStep); memBound
// reports whether the device's part was limited by memory bandwidth
// rather than FLOPs.
func (m *inferModel) step(eager bool, tokens, lctx, kvRead float64) (secs float64, b Bound, memBound bool) {
	return m.stepSum(eager, tokens, tokens, tokens*lctx, kvRead)
}

// stepSum is step with the tokens' attention spans as their sum and
// their compute in decode tokens' worth (deviceSum).
func (m *inferModel) stepSum(eager bool, tokens, ctok, lctxSum, kvRead float64) (secs float64, b Bound, memBound bool) {
	d, memBound := m.deviceSum(tokens, ctok, lctxSum, kvRead)
	var host bool
	switch {
	case eager:
		secs = m.eagerStep(d)
		host = secs > d
	case m.hostBetween || m.sc.serial(tokens):
		secs, host = m.host+d, m.host >= d
	default:
		secs, host = max(m.host, d), m.host >= d
	}
	switch {
	case host:
		return secs, BoundHost, memBound
	case memBound:
		return secs, BoundBandwidth, memBound
	}
	return secs, BoundCompute, memBound
}

// decodeStep is one decode step of batch sequences at context ctx, whose
// attention runs in the decode form (absorbedAttnScale), with the
// engine's host gap per sequence (seqGap).
func (m *inferModel) decodeStep(batch, ctx float64) (secs float64, b Bound, memBound bool) {
	kv := batch * m.kvSeq(ctx)
	if m.in.Engine == HF {
		if !m.in.Compiled {
			kv *= hfDynamicCacheReads
		}
		d := m.hfDecodeModel()
		return d.step(false, batch, d.sc.attended(ctx)*d.sc.absorbed, kv)
	}
	secs, b, memBound = m.step(m.eager(batch), batch, m.sc.attended(ctx)*m.sc.absorbed, kv)
	secs += m.stepExtra(batch, batch, true)
	if fe := m.frontEndFloor(secs, batch); fe > secs {
		// The API server streams the tokens slower than the GPU makes
		// them: the host bounds the step.
		secs, b = fe, BoundHost
	}
	if m.draft > 0 {
		// Speculative decoding: the seconds per generated token of a
		// draft-and-verify step (specTokenSeconds), the figure the closed
		// form reads as its decode step.
		secs = m.specTokenSeconds(batch, batch*ctx, secs)
	}
	return secs, b, memBound
}

// eager reports whether an SGLang decode step of seqs sequences runs
// eager: every one without CUDA graphs (Input.EnforceEager), else one past
// the graph cap (Input.CUDAGraphMaxBS) on its busiest rank, the copy's
// seqs spread evenly over its attention-DP ranks (SGLang's graph runner
// takes the batch of its own scheduler).
func (m *inferModel) eager(seqs float64) bool {
	return m.eagerLaunch > 0 && (m.graphCap == 0 || math.Ceil(seqs/max(m.dpRanks, 1)) > m.graphCap)
}

// hostFloor is the host's least seconds under a decode step at Batch
// (Perf.HostFloorSeconds): stepFloor's, with the eager launches where every
// decode step runs eager (Input.EnforceEager on SGLang).
func (m *inferModel) hostFloor() float64 {
	if m.eagerLaunch > 0 && m.graphCap == 0 {
		return m.host + m.eagerLaunch
	}
	return m.host
}

// eagerStep is an eager decode step whose device work takes d: the host
// launches the forward's kernels (eagerLaunch) on the thread that also
// runs the step's scheduling (host), while the device runs them, so the
// step is the longer of the two; an engine release that schedules between
// the steps (hostBetween) adds its host work before both.
func (m *inferModel) eagerStep(d float64) float64 {
	if m.hostBetween {
		return m.host + max(m.eagerLaunch, d)
	}
	return max(m.host+m.eagerLaunch, d)
}

// specTokenSeconds is the seconds per generated token of a speculative
// decode step of n sequences whose contexts sum to ctxSum, where one is
// the plain decode step of the same sequences: the module drafts
// Input.DraftTokens d tokens, one pass of its block a token (the DeepSeek-V3
// report, arXiv:2412.19437 §2.2: an MTP module is one Transformer block
// beside the shared embedding and output head, so a pass costs a block's
// share of the forward, mtpBlock), and the model verifies each
// sequence's d + 1 tokens in one forward, the d draft tokens attending to
// the context in the decode form and their KV written (Step.Verify; the
// context's KV read once); the step yields tau tokens a sequence
// (mtpAcceptedTokens). The simulator's steps (StepSeconds) and the
// closed form (decodeStep) both take a token's worth, so TPOT, throughput
// and a request's steps follow from the one figure; the disaggregated
// decode worker prices its steps with it too. SGLang's EAGLE worker runs
// the same chain (draft forward d times, then verify; python/sglang/srt/
// speculative/eagle_worker.py), as TensorRT-LLM's MTP (the "MTP Eagle"
// path, one module run d times) and vLLM's deepseek_mtp proposer do.
func (m *inferModel) specTokenSeconds(n, ctxSum, one float64) float64 {
	d := int(m.draft)
	k := int(math.Ceil(n))
	verify := m.rawStepSeconds(Step{DecodeSeqs: k, DecodeContext: ctxSum, PrefillTokens: k * d, PrefillSeqs: k,
		PrefillContext: m.draft * ctxSum, PrefillKV: float64(k * d), Verify: true})
	return (verify + m.draft*m.mtpBlock*one) / m.tau
}

// hfDecodeModel is m with its decode steps' compute at
// hfDecodeComputeShare: a copy whose per-token compute coefficients are
// divided by it (a value on the stack; HF steps are not simulated).
func (m *inferModel) hfDecodeModel() inferModel {
	d := *m
	d.tokSecs /= hfDecodeComputeShare
	d.ctxSecs /= hfDecodeComputeShare
	return d
}

// hfDecodeComputeShare is the share of Efficiency.InferenceMFU that HF
// transformers' decode steps reach; its prefill runs at InferenceMFU
// itself. A prefill's linears are GEMMs of batch × prompt rows that
// transformers runs through torch.nn.functional.linear (nn.Linear), the
// cuBLAS call vLLM makes for its unquantised linears as well
// (vllm/model_executor/layers/utils.py: the unquantised GEMM is
// torch.nn.functional.linear), so they reach the serving engines' share
// (defaultInferenceMFU); eager mode's cost is its host launches, which
// stepFloor counts per op. Measured: optimum's Llama-2-13B FP16 prefills
// of 512 tokens on an A100 reach 44% (batch 1) to 56% (batch 16) of the
// FP16 peak (optimum_gptq_a100.json, test rows; the model had priced them
// at 24%). The decode steps keep the quarter of peak that the previous
// HF-wide figure (hfInferenceMFU 0.25) was fitted to on accelerate's
// BLOOM-176B generation rows at batch 8–32 (inference_throughput.json;
// GEMMs of 8–32 rows, where the compute term only shapes the roofline's
// corner): 0.25 / 0.50. Pricing them at the full share moved the
// bitsandbytes decode fit rows from 7.8% to 9.9% median |error| (RTX 4090
// BF16 batch 32 −2% → −13%), so the decode figure stays as fitted; what
// it stands for (eager attention over the concatenated cache, GEMMs of a
// few rows) is not separated (testdata/calibration/README.md, "HF
// prefill at the engines' GEMM efficiency").
const hfDecodeComputeShare = 0.5

// hfDynamicCacheReads is the cache bytes an HF transformers eager decode
// step moves per byte of KV cache: its DynamicCache appends each new
// token by concatenating the layer's whole cache with it (cache_utils.py,
// DynamicLayer.update: self.keys = torch.cat([self.keys, key_states],
// dim=-2)), which reads the old cache and writes a new one, and attention
// then reads it: 3. The static cache of a compiled step (Input.Compiled)
// writes the new token in place and reads the cache once. The RTX 4090
// BF16 Llama 3.1 8B rows, bound by the device, move from −12% to −9%
// (batch 8) and from −12% to −1% (batch 32).
const hfDynamicCacheReads = 3
