package estimator

import (
	"encoding/json"
	"strconv"
)

// llamaLike reads the Llama-shaped decoders (RMSNorm, a gated MLP) and their
// sliding-window, MoE, MLA and linear-attention variants.
func llamaLike(r *reader, mt string) spec {
	s := llamaDims(r, mt)
	llamaAttention(r, &s, mt)
	if mt == "mixtral" || r.has("num_local_experts") {
		s.experts = r.dim(0, "num_local_experts")
		s.moeI = s.inter
	}
	switch mt {
	case "gpt_oss":
		gptOSS(r, &s)
	case "llama4_text":
		llama4(r, &s)
	case "glm4_moe":
		glm4MoE(r, &s)
	case "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text":
		qwen3Next(r, &s, mt)
	case "minimax_m2":
		minimaxM2(r, &s)
	}
	if mt == "deepseek_v2" || mt == "deepseek_v3" || mt == "deepseek_v32" || mt == "kimi_k2" {
		deepSeek(r, &s, mt)
	}
	if mt == "qwen2_moe" || mt == "qwen3_moe" || mt == "qwen3_next" || mt == "qwen3_5_moe_text" {
		qwenMoE(r, mt, &s)
	}
	if s.experts > 0 {
		s.topk = r.need("num_experts_per_tok")
	}
	s.hd = r.dim(0, "head_dim")
	if (mt == "gemma3_text" || mt == "qwen3_5_text" || mt == "qwen3_5_moe_text") && s.hd == 0 {
		s.hd = 256 // Gemma3TextConfig and Qwen3.5 config defaults
	}
	layerTypes(r, &s, mt)
	if s.window == 0 {
		s.slidingLayers = 0
	}
	if s.chunk == 0 {
		s.chunkedLayers = 0
	}
	s.ctx = r.dim(0, "max_position_embeddings")
	return s
}

// llamaDims reads the widths, counts and biases every llamaLike family has.
func llamaDims(r *reader, mt string) spec {
	s := spec{norms: 2, gated: true}
	s.h = r.need("hidden_size")
	s.layers = r.need("num_hidden_layers")
	if mt == "gemma3_text" {
		// Gemma 3 configs leave out what equals Gemma3TextConfig's defaults
		// (transformers configuration_gemma3.py): 8 query heads, 4 KV heads,
		// head_dim 256, vocab 262208.
		s.nh = r.dim(8, "num_attention_heads")
		s.vocab = r.dim(262208, "vocab_size")
		s.kv = r.dim(4, "num_key_value_heads")
	} else {
		s.nh = r.need("num_attention_heads")
		s.vocab = r.need("vocab_size")
		s.kv = r.dim(s.nh, "num_key_value_heads")
	}
	if mt == "qwen3_5_moe_text" || mt == "qwen3_next" {
		// All-MoE hybrids may leave out the dense width (no dense layer).
		s.inter = r.dim(0, "intermediate_size")
	} else {
		s.inter = r.need("intermediate_size")
	}
	s.tied = r.flag(mt == "gemma" || mt == "gemma2" || mt == "gemma3_text", "tie_word_embeddings")
	attnBias := r.flag(false, "attention_bias")
	s.qkvBias, s.oBias = attnBias, attnBias
	s.mlpBias = r.flag(false, "mlp_bias")
	return s
}

// llamaAttention reads each family's attention biases, q/k norms, norms per
// block and sliding-window layers.
func llamaAttention(r *reader, s *spec, mt string) {
	switch mt {
	case "qwen2", "qwen2_moe":
		// Qwen2 q/k/v projections always carry a bias, o_proj none
		// (transformers models/qwen2/modeling_qwen2.py); Qwen2-MoE the same,
		// switchable by qkv_bias (default true) in newer configs
		// (models/qwen2_moe/modeling_qwen2_moe.py Qwen2MoeAttention).
		s.qkvBias, s.oBias = mt == "qwen2" || r.flag(true, "qkv_bias"), false
		if r.flag(false, "use_sliding_window") {
			s.window = r.dim(0, "sliding_window")
			mw := r.dim(s.layers, "max_window_layers")
			if mw < s.layers {
				s.slidingLayers = s.layers - mw
			}
		}
	case "olmo2":
		// OLMo 2 (transformers models/olmo2/modeling_olmo2.py): RMSNorm
		// q_norm over nh·hd and k_norm over kv·hd, and norms after
		// attention and after the MLP (post-norm), two per block.
		s.qkNormFull = true
	case "qwen3", "qwen3_moe":
		// q_norm/k_norm: RMSNorm over head_dim (modeling_qwen3.py,
		// modeling_qwen3_moe.py Qwen3MoeAttention); biases per attention_bias.
		s.qkNorm = true
	case "gemma2":
		// Gemma 2: pre/post norms around attention and MLP, every other
		// layer sliding (modeling_gemma2.py: layer_idx % 2 == 0).
		s.norms = 4
		s.window = r.dim(0, "sliding_window")
		s.slidingLayers = (s.layers + 1) / 2
		// Soft-capped attention scores and final logits, on unless the
		// config sets them to null: Gemma2Config's defaults are
		// attn_logit_softcapping=50.0, final_logit_softcapping=30.0
		// (transformers models/gemma2/configuration_gemma2.py, read at
		// 008e5743), as LitGPT's Gemma 2 configs set them (litgpt/config.py
		// at 00af8b0d).
		s.attnCap = r.capped("attn_logit_softcapping")
		s.finalCap = r.capped("final_logit_softcapping")
	case "gemma3_text":
		// Gemma 3: 5 local (sliding) layers to 1 global, the pattern given
		// by sliding_window_pattern (6) or layer_types (Gemma 3 technical
		// report, arXiv 2503.19786, §2.1; modeling_gemma3.py).
		s.norms, s.qkNorm = 4, true
		s.window = r.dim(0, "sliding_window")
		p := r.dim(6, "sliding_window_pattern")
		if p > 0 {
			s.slidingLayers = s.layers - s.layers/p
		}
	case "mistral", "mixtral", "phi3":
		s.window = r.dim(0, "sliding_window")
		if s.window > 0 {
			s.slidingLayers = s.layers
		}
	}
}

// minimaxM2 reads MiniMax-M2 (vLLM model_executor/models/minimax_m2.py):
// q_norm and k_norm over the full q and k widths (qk_norm_type "per_layer"),
// num_local_experts SwiGLU experts of intermediate_size, a sigmoid router
// with a score-correction bias; no dense layer.
func minimaxM2(r *reader, s *spec) {
	s.qkNormFull = r.flag(true, "use_qk_norm") && r.str("qk_norm_type") != "per_head"
	s.qkNorm = r.flag(true, "use_qk_norm") && r.str("qk_norm_type") == "per_head"
	s.routerBias = true
}

// deepSeek reads the Hugging Face configs of DeepSeek-V2, V3, V3.2 and
// Kimi K2: routed and shared experts after first_k_dense_replace dense
// layers, multi-head latent attention, MTP layers.
func deepSeek(r *reader, s *spec, mt string) {
	s.experts = r.dim(0, "n_routed_experts")
	s.shared = r.dim(0, "n_shared_experts")
	s.moeI = r.dim(s.inter, "moe_intermediate_size")
	s.dense = r.dim(0, "first_k_dense_replace")
	if f := r.dim(1, "moe_layer_freq"); f != 1 {
		r.fail("%smoe_layer_freq=%d: only 1 is supported", r.prefix, f)
	}
	// DeepSeek-V3's noaux_tc router keeps a per-expert score
	// correction bias (modeling_deepseek_v3.py, e_score_correction_bias).
	s.routerBias = r.str("topk_method") == "noaux_tc"
	s.qLoRA = r.dim(0, "q_lora_rank")
	s.kvLoRA = r.need("kv_lora_rank")
	s.nope = r.need("qk_nope_head_dim")
	s.rope = r.need("qk_rope_head_dim")
	s.vhd = r.need("v_head_dim")
	s.kv = s.nh
	s.mtp = r.dim(0, "num_nextn_predict_layers")
	if mt == "deepseek_v32" {
		// DeepSeek-V3.2 sparse attention's lightning indexer per layer
		// (DeepSeek-V3.2-Exp inference/model.py Indexer): wq_b
		// q_lora_rank→index_n_heads·index_head_dim, wk h→index_head_dim,
		// k_norm (LayerNorm, weight and bias), weights_proj h→index_n_heads.
		s.idxHeads = r.need("index_n_heads")
		s.idxDim = r.need("index_head_dim")
	}
}

// layerTypes reads a layer_types list (Gemma family, gpt-oss, Qwen3-Next,
// Llama 4): its sliding, linear-attention and chunked layers.
func layerTypes(r *reader, s *spec, mt string) {
	if lt, ok := r.m["layer_types"].([]any); ok && len(lt) > 0 {
		if int64(len(lt)) != s.layers {
			r.fail("%slayer_types has %d entries, num_hidden_layers=%d", r.prefix, len(lt), s.layers)
		}
		s.slidingLayers = 0
		lin, chunked := int64(0), int64(0)
		for _, t := range lt {
			switch t {
			case "sliding_attention":
				s.slidingLayers++
			case "linear_attention":
				lin++
			case "chunked_attention":
				chunked++
			}
		}
		if s.slidingLayers > 0 {
			s.window = r.dim(0, "sliding_window")
		}
		if mt == "qwen3_next" || mt == "qwen3_5_text" || mt == "qwen3_5_moe_text" {
			s.linLayers = lin
		}
		if mt == "llama4_text" {
			s.chunkedLayers = chunked
		}
	}
}

// gptOSS reads gpt-oss (transformers models/gpt_oss/modeling_gpt_oss.py;
// OpenAI gpt-oss model card, arXiv 2508.10925): attention with biases and
// one learned sink logit per head, alternating sliding-window (128) and
// full layers (layer_types), a biased router and num_local_experts SwiGLU
// experts with biases (gate_up_proj [E, h, 2·I] + bias, down_proj [E, I, h]
// + bias), no dense MLP; the expert weights ship as MXFP4.
func gptOSS(r *reader, s *spec) {
	b := r.flag(true, "attention_bias")
	s.qkvBias, s.oBias = b, b
	s.sinks, s.routerBias, s.expertBias = true, true, true
	s.dense = 0
	if q, ok := r.m["quantization_config"].(map[string]any); ok {
		s.mxfp4 = q["quant_method"] == "mxfp4"
	}
	if _, ok := r.m["layer_types"]; !ok {
		// GptOssConfig default: even layers sliding, odd layers full.
		s.window = r.dim(0, "sliding_window")
		s.slidingLayers = (s.layers + 1) / 2
	}
}

// llama4 reads the Llama 4 text model (transformers
// models/llama4/modeling_llama4.py, configuration_llama4.py): layers in
// moe_layers (default every interleave_moe_layer_step-th) have
// num_local_experts routed experts of intermediate_size (top-1), a shared
// expert of the same width and a bias-free router; the others a dense MLP of
// intermediate_size_mlp. RoPE layers use chunked local attention of
// attention_chunk_size tokens; every no_rope_layer_interval-th layer (4) is
// global attention without RoPE (no_rope_layers[i] == 0). The QK norm is a
// weightless L2 norm.
func llama4(r *reader, s *spec) {
	s.moeI = s.inter
	s.inter = r.dim(s.inter, "intermediate_size_mlp")
	s.experts = r.dim(0, "num_local_experts")
	s.shared = 1
	step := r.dim(1, "interleave_moe_layer_step")
	moeLayers := int64(0)
	if v, ok := r.m["moe_layers"].([]any); ok {
		moeLayers = int64(len(v))
	} else if step > 0 {
		moeLayers = s.layers / step
	} else {
		r.fail("%sinterleave_moe_layer_step=0: must be > 0", r.prefix)
	}
	s.dense = s.layers - moeLayers
	s.chunk = r.dim(0, "attention_chunk_size")
	if v, ok := r.m["no_rope_layers"].([]any); ok && len(v) > 0 {
		for _, e := range v {
			if n, _ := e.(json.Number); n.String() != "0" {
				s.chunkedLayers++
			}
		}
	} else if iv := r.dim(4, "no_rope_layer_interval"); iv > 0 {
		s.chunkedLayers = s.layers - s.layers/iv
	}
}

// glm4MoE reads GLM-4.5 (transformers models/glm4_moe/modeling_glm4_moe.py):
// q/k/v projections with bias (attention_bias), o_proj without, optional
// per-head q/k norms (use_qk_norm); the first first_k_dense_replace layers
// dense, the rest n_routed_experts experts of moe_intermediate_size plus
// n_shared_experts shared ones and a router with a score-correction bias;
// num_nextn_predict_layers MTP blocks.
func glm4MoE(r *reader, s *spec) {
	b := r.flag(false, "attention_bias")
	s.qkvBias, s.oBias = b, false
	s.qkNorm = r.flag(false, "use_qk_norm")
	s.experts = r.dim(0, "n_routed_experts")
	s.shared = r.dim(0, "n_shared_experts")
	s.moeI = r.need("moe_intermediate_size")
	s.dense = r.dim(0, "first_k_dense_replace")
	s.routerBias = true
	s.mtp = r.dim(0, "num_nextn_predict_layers")
}

// qwen3Next reads Qwen3-Next (transformers
// models/qwen3_next/modeling_qwen3_next.py): 3 of every 4 layers
// (full_attention_interval) are Gated DeltaNet linear attention, the rest
// gated full attention (q_proj emits query and gate, 2× wide) with q/k norms;
// MoE as Qwen2-MoE (routed experts, a gated shared expert).
//
// Qwen3.5 (qwen3_5_text, qwen3_5_moe_text; transformers models/qwen3_5*)
// keeps this layout (its in_proj_qkv/in_proj_z/in_proj_b/in_proj_a split the
// same widths) and gates attention per attn_output_gate; its config classes
// default to 16 key and 32 value heads of 128, kernel 4 and head_dim 256.
func qwen3Next(r *reader, s *spec, mt string) {
	s.qkNorm = true
	s.qGate = r.flag(true, "attn_output_gate")
	if mt == "qwen3_next" {
		s.linKHeads = r.need("linear_num_key_heads")
		s.linVHeads = r.need("linear_num_value_heads")
		s.linKD = r.need("linear_key_head_dim")
		s.linVD = r.need("linear_value_head_dim")
		s.linKernel = r.need("linear_conv_kernel_dim")
	} else {
		s.linKHeads = r.dim(16, "linear_num_key_heads")
		s.linVHeads = r.dim(32, "linear_num_value_heads")
		s.linKD = r.dim(128, "linear_key_head_dim")
		s.linVD = r.dim(128, "linear_value_head_dim")
		s.linKernel = r.dim(4, "linear_conv_kernel_dim")
		if s.hd == 0 {
			s.hd = r.dim(256, "head_dim")
		}
	}
	if s.linKHeads == 0 || s.linVHeads == 0 || s.linKernel == 0 {
		r.fail("%slinear attention needs key heads, value heads and a conv kernel > 0", r.prefix)
		return
	}
	if _, ok := r.m["layer_types"]; !ok {
		iv := r.dim(4, "full_attention_interval")
		if iv == 0 {
			r.fail("%sfull_attention_interval=0: must be > 0", r.prefix)
			return
		}
		s.linLayers = s.layers - s.layers/iv
	}
}

// qwenMoE reads the Qwen2-MoE / Qwen3-MoE expert layout (transformers
// models/qwen2_moe/modeling_qwen2_moe.py, models/qwen3_moe/modeling_qwen3_moe.py).
// Decoder layer i has a sparse MoE block when i is not in mlp_only_layers
// and num_experts > 0 and (i+1) % decoder_sparse_step == 0, otherwise a
// dense SwiGLU MLP of intermediate_size. The sparse block is a router
// (gate: Linear(hidden, num_experts, bias=False)) and num_experts SwiGLU
// experts of moe_intermediate_size; Qwen2-MoE adds one shared expert of
// shared_expert_intermediate_size and its sigmoid gate
// (shared_expert_gate: Linear(hidden, 1, bias=False)), both always on.
func qwenMoE(r *reader, mt string, s *spec) {
	s.experts = r.dim(0, "num_experts")
	if mt == "qwen3_5_moe_text" {
		s.experts = r.dim(256, "num_experts")
	}
	s.moeI = r.dim(s.inter, "moe_intermediate_size")
	if mt == "qwen2_moe" || mt == "qwen3_next" || mt == "qwen3_5_moe_text" {
		s.sharedI = r.dim(0, "shared_expert_intermediate_size")
		s.sharedGate = s.sharedI > 0
	}
	step := r.dim(1, "decoder_sparse_step")
	if step == 0 {
		r.fail("%sdecoder_sparse_step=0: must be > 0", r.prefix)
		return
	}
	// Layers left dense by mlp_only_layers (distinct, in range, and on a
	// sparse step; others are dense already).
	skip := map[int64]bool{}
	if v, ok := r.m["mlp_only_layers"]; ok && v != nil {
		list, isList := v.([]any)
		if !isList {
			r.fail("%smlp_only_layers: want a list of layer indices", r.prefix)
			return
		}
		for _, e := range list {
			n, isNum := e.(json.Number)
			i, err := strconv.ParseInt(string(n), 10, 64)
			if !isNum || err != nil {
				r.fail("%smlp_only_layers: %v is not a layer index", r.prefix, e)
				return
			}
			if i >= 0 && i < s.layers && (i+1)%step == 0 {
				skip[i] = true
			}
		}
	}
	moeLayers := s.layers/step - int64(len(skip))
	if s.experts == 0 || moeLayers <= 0 {
		// No sparse block anywhere: a dense model.
		s.experts, s.moeI, s.sharedI, s.sharedGate = 0, 0, 0, false
		return
	}
	s.dense = s.layers - moeLayers
}

// parseDeepSeekNative reads DeepSeek's own inference config
// (github.com/deepseek-ai/DeepSeek-V3 inference/configs, model.py ModelArgs).
func parseDeepSeekNative(r *reader) (Arch, error) {
	s := spec{norms: 2, gated: true, modelType: "deepseek"}
	s.h = r.need("dim")
	s.inter = r.need("inter_dim")
	s.moeI = r.need("moe_inter_dim")
	s.layers = r.need("n_layers")
	s.dense = r.dim(1, "n_dense_layers")
	s.nh = r.need("n_heads")
	s.kv = s.nh
	s.experts = r.need("n_routed_experts")
	s.shared = r.dim(0, "n_shared_experts")
	s.topk = r.need("n_activated_experts")
	s.vocab = r.dim(102400, "vocab_size")
	s.qLoRA = r.dim(0, "q_lora_rank")
	s.kvLoRA = r.need("kv_lora_rank")
	s.nope = r.need("qk_nope_head_dim")
	s.rope = r.need("qk_rope_head_dim")
	s.vhd = r.need("v_head_dim")
	// model.py Gate: "self.bias = nn.Parameter(...) if self.dim == 7168".
	s.routerBias = s.h == 7168
	if r.err != nil {
		return Arch{}, r.err
	}
	return s.build("")
}
