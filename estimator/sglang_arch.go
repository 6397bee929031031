package estimator

// sglangDPAttentionMoE holds the mixture-of-experts model types
// (Arch.ModelType, the config's model_type) whose SGLang model code runs
// attention data parallelism and dispatches its routed experts through
// the all-to-all backend, the layout the estimate prices for SGLang's
// expert parallelism under attention DP (SGLangDeepEP). Read from
// sgl-project/sglang python/sglang/srt/models/ on its main branch
// (2026-11; the files were not re-read at 001067fffe33, the release the
// launch's flags are read from): a model type is listed where its
// decoder layer builds attention over the attention-TP group
// (get_attention_tp_size) with the DP gather/scatter communicator
// (LayerCommunicator) and its MoE block dispatches through the DeepEP
// dispatcher (DeepEPDispatcher, get_moe_a2a_backend):
//   - deepseek_v2.py, DeepseekV2ForCausalLM and DeepseekV3ForCausalLM:
//     DeepSeek-V2, V3/R1, V3.2 and Kimi K2, whose config names
//     DeepseekV3ForCausalLM (SGLang's CI runs it so: --tp 8
//     --enable-dp-attention --dp 8 --moe-a2a-backend deepep,
//     test/srt/ep/test_deepep_large.py at 0ed54dab);
//   - qwen3_moe.py, Qwen3MoeForCausalLM (Qwen3-MoE and the text model of
//     Qwen3-VL-MoE);
//   - glm4_moe.py, Glm4MoeForCausalLM (GLM-4.5, GLM-4.5-Air).
//
// Left out, so SGLang gets no attention-DP layout for them: mixtral.py
// (MixtralAttention splits heads over the whole TP group,
// get_tensor_model_parallel_world_size, with no LayerCommunicator, and
// MixtralMoE all-reduces its experts over TP: read at 7f1f5bc1),
// llama4.py (LayerCommunicator, but Llama4MoE calls FusedMoE with no
// all-to-all dispatcher), qwen2_moe.py (attention over the attention-TP
// group with LayerCommunicator, but Qwen2MoeSparseMoeBlock calls its
// experts with no DeepEP dispatch and all-reduces over TP: read at
// 0115497d; SGLang may run its attention DP without DeepEP, which is not
// the exchange the estimate prices), and the model types whose files
// were not confirmed (gpt_oss, qwen3_next, qwen3_5_moe_text,
// minimax_m2): a layout the launch cannot vouch for is not offered.
var sglangDPAttentionMoE = map[string]bool{
	"deepseek_v2": true, "deepseek_v3": true, "deepseek_v32": true, "kimi_k2": true,
	"deepseek":  true, // DeepSeek-V3's native params.json (parseDeepSeekNative)
	"qwen3_moe": true, "qwen3_vl_moe_text": true,
	"glm4_moe": true,
}

// SGLangDPAttention reports whether SGLang's model code for a runs
// attention data parallelism with its experts dispatched by DeepEP's
// all-to-all (sglangDPAttentionMoE); false for dense models, which the
// table does not cover.
func SGLangDPAttention(a Arch) bool {
	return a.IsMoE() && sglangDPAttentionMoE[a.ModelType]
}

// sglangArchRefusal is why SGLang cannot start in's attention-DP layout
// of a mixture-of-experts model whose SGLang model code runs no attention
// DP (SGLangDPAttention), "" otherwise.
func sglangArchRefusal(in Input) string {
	if in.Engine != SGLang || dpRanks(in) <= 1 || !in.Arch.IsMoE() || SGLangDPAttention(in.Arch) {
		return ""
	}
	return "SGLang's model code for " + in.Arch.ModelType + " runs no attention data parallelism with DeepEP's all-to-all (--enable-dp-attention, --moe-a2a-backend deepep): serve this layout with vLLM or TensorRT-LLM, or SGLang without attention data parallelism"
}
