package estimator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// GenericModelType is the model_type of Rightsize's own config schema for
// models the estimator does not describe layer by layer (T5, Whisper,
// ResNet-50, the SDXL UNet, ...). The schema is exactly:
//
//	{
//	  "model_type": "rightsize-generic",
//	  "num_parameters": 2851598336,      // required: total parameters (integer > 0)
//	  "hidden_size": 1024,               // optional: model width
//	  "num_hidden_layers": 48,           // optional: blocks (encoder + decoder)
//	  "seq_len": 512,                    // optional: tokens/patches/positions per sample
//	  "activation_bytes_per_sample": 0   // optional: see below
//	}
//
// activation_bytes_per_sample is the memory of the activations saved for
// the backward pass for ONE sample of seq_len positions, in bf16, without
// gradient checkpointing (a published measurement or a per-layer estimate
// times the layers). The estimator scales it linearly with batch and with
// Input.Seq/seq_len, doubles it for fp32 training, and for inference keeps
// one layer's share (activations are freed layer by layer). Without it,
// activations follow Korthikanti et al. with hidden_size and
// num_hidden_layers (heads = hidden_size/64, MLP 4×), or are 0 with
// WarnNoActivationModel when those are missing. Any other key is an error.
const GenericModelType = "rightsize-generic"

// ParseConfig reads a Hugging Face config.json (or a rightsize-generic
// config, see GenericModelType) and returns the architecture with exact
// parameter counts. Supported model_type values: llama, mistral, mixtral,
// qwen2, qwen2_moe, qwen3, qwen3_moe, qwen3_next, qwen3_5_text,
// qwen3_5_moe_text, phi3, gemma, gemma2, gemma3_text, gpt_oss, llama4_text,
// glm4_moe, kimi_k2, minimax_m2, granite, olmo2, falcon, gpt2, gpt_bigcode,
// bert, roberta, xlm-roberta, deepseek_v2, deepseek_v3, deepseek_v32, vit,
// rightsize-generic, and the VLM text models qwen2_vl, qwen2_5_vl,
// qwen3_vl_text, qwen3_vl_moe_text. A config with a text_config (LLaVA,
// Gemma 3, Llama 4, Qwen3.5, Mistral 3) or a flat VLM config with a
// vision_config is read through its text model plus an approximate vision
// tower (Arch.VisionParams, included in TotalParams); DeepSeek's own
// inference config (keys dim, n_layers, ...) is accepted too.
//
// Errors name the offending field, e.g.
// "estimator: config: num_key_value_heads=5 does not divide num_attention_heads=32".
func ParseConfig(data []byte) (Arch, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return Arch{}, fmt.Errorf("estimator: config: %w", err)
	}
	if m == nil {
		return Arch{}, fmt.Errorf("estimator: config: want a JSON object")
	}
	return parseMap(m, "")
}

// maxParams bounds the counts so every later product stays finite and exact.
const maxParams = 1e15

type reader struct {
	m      map[string]any
	prefix string // "text_config." for nested configs
	err    error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("estimator: config: "+format, args...)
	}
}

func (r *reader) has(k string) bool {
	v, ok := r.m[k]
	return ok && v != nil
}

func (r *reader) str(k string) string {
	v, ok := r.m[k]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.fail("%s%s: want a string", r.prefix, k)
	}
	return s
}

// num reads key k as an integer in [0, limit].
func (r *reader) num(k string, limit int64) (int64, bool) {
	v, ok := r.m[k]
	if !ok || v == nil {
		return 0, false
	}
	n, isNum := v.(json.Number)
	if !isNum {
		r.fail("%s%s=%v: want an integer", r.prefix, k, v)
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		f, ferr := n.Float64()
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1e18 {
			r.fail("%s%s=%s: want an integer", r.prefix, k, n)
			return 0, false
		}
		i = int64(f)
	}
	if i < 0 || i > limit {
		r.fail("%s%s=%d: out of range [0, %d]", r.prefix, k, i, limit)
		return 0, false
	}
	return i, true
}

// dim reads the first present key among keys (aliases) as a dimension.
func (r *reader) dim(def int64, keys ...string) int64 {
	for _, k := range keys {
		if r.has(k) {
			v, _ := r.num(k, 1<<24)
			return v
		}
	}
	return def
}

// need is dim for a required, positive field.
func (r *reader) need(keys ...string) int64 {
	v := r.dim(-1, keys...)
	if v < 0 {
		r.fail("%s%s: missing", r.prefix, keys[0])
		return 0
	}
	if v == 0 {
		r.fail("%s%s=0: must be > 0", r.prefix, keys[0])
	}
	return v
}

func (r *reader) flag(def bool, k string) bool {
	v, ok := r.m[k]
	if !ok || v == nil {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		r.fail("%s%s=%v: want true or false", r.prefix, k, v)
	}
	return b
}

func parseMap(m map[string]any, prefix string) (Arch, error) {
	r := &reader{m: m, prefix: prefix}
	if tc, ok := m["text_config"]; ok && tc != nil && prefix == "" {
		return parseVLM(r, tc)
	}
	mt := r.str("model_type")
	if r.err != nil {
		return Arch{}, r.err
	}
	if mt == "" && r.has("dim") && r.has("n_layers") {
		return parseDeepSeekNative(r)
	}
	var s spec
	reported := mt
	if a, ok := textAliases[mt]; ok {
		mt = a
	}
	switch mt {
	case "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen3_next", "phi3", "gemma", "gemma2", "gemma3_text",
		"deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "gpt_oss", "llama4_text", "glm4_moe", "granite", "olmo2",
		"qwen3_5_text", "qwen3_5_moe_text", "minimax_m2":
		s = llamaLike(r, mt)
	case "falcon", "RefinedWeb", "RefinedWebModel":
		s = falcon(r)
	case "gpt2", "gpt_bigcode":
		s = gpt2(r, mt)
	case "bert", "roberta", "xlm-roberta":
		s = bert(r)
	case "vit":
		s = vit(r)
	case GenericModelType:
		return parseGeneric(r)
	case "":
		return Arch{}, fmt.Errorf("estimator: config: %smodel_type: missing", prefix)
	default:
		return Arch{}, fmt.Errorf("estimator: config: %smodel_type=%q: unsupported (use a supported family or %q)", prefix, mt, GenericModelType)
	}
	if r.err != nil {
		return Arch{}, r.err
	}
	s.modelType = reported
	a, err := s.build(prefix)
	if err != nil || prefix != "" {
		return a, err
	}
	// Flat VLM configs (Qwen2-VL, Qwen2.5-VL) carry the text model at the
	// top level and the tower in vision_config.
	if vc, ok := m["vision_config"].(map[string]any); ok {
		return addVision(a, vc, mt)
	}
	return a, nil
}

// textAliases map VLM and renamed text model types to the family whose
// text model they use (transformers models/qwen2_vl, qwen2_5_vl, qwen3_vl,
// qwen3_vl_moe: the language model is Qwen2 / Qwen3 / Qwen3-MoE).
var textAliases = map[string]string{
	"qwen2_vl": "qwen2", "qwen2_5_vl": "qwen2", "qwen2_vl_text": "qwen2", "qwen2_5_vl_text": "qwen2",
	"qwen3_vl_text": "qwen3", "qwen3_vl_moe_text": "qwen3_moe",
}

// spec is a normalised block-structured architecture to count.
type spec struct {
	modelType                    string
	h, inter, layers, nh, kv, hd int64
	vocab, positions, typeVocab  int64 // positions: learned position embeddings
	ctx                          int64 // declared context length
	tied                         bool
	qkvBias, oBias, mlpBias      bool
	gated                        bool
	norms                        int64 // norms per block
	normBias                     bool  // LayerNorm (weight+bias) rather than RMSNorm
	qkNorm                       bool  // per-head q_norm/k_norm (Qwen3, Gemma 3)
	embNorm, pooler, noFinal     bool
	classes                      int64 // classifier outputs (ViT with id2label)
	encoder, dropout             bool
	// vision
	image, patch, channels int64
	// MoE
	experts, topk, shared, moeI, dense int64
	routerBias                         bool
	sharedI                            int64 // one shared expert this wide (Qwen2-MoE)
	sharedGate                         bool  // sigmoid gate on the shared expert, a 1×h linear
	// MLA
	qLoRA, kvLoRA, nope, rope, vhd int64
	// sliding window
	window, slidingLayers int64
	// chunked local attention (Llama 4)
	chunk, chunkedLayers int64
	sinks                bool  // one learned sink logit per head per layer (gpt-oss)
	expertBias           bool  // expert linears carry biases (gpt-oss)
	qGate                bool  // q_proj also emits an output gate, 2× wide (Qwen3-Next)
	qkNormFull           bool  // q_norm/k_norm over the full q and k widths (OLMo 2, MiniMax-M2)
	idxHeads, idxDim     int64 // DeepSeek-V3.2 indexer heads and head width
	mxfp4                bool  // expert weights stored as MXFP4 (gpt-oss)
	mtp                  int64
	// linear attention (Qwen3-Next Gated DeltaNet)
	linLayers                          int64
	linKHeads, linVHeads, linKD, linVD int64
	linKernel                          int64
}

func llamaLike(r *reader, mt string) spec {
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
		// MiniMax-M2 (vLLM model_executor/models/minimax_m2.py): q_norm and
		// k_norm over the full q and k widths (qk_norm_type "per_layer"),
		// num_local_experts SwiGLU experts of intermediate_size, a sigmoid
		// router with a score-correction bias; no dense layer.
		s.qkNormFull = r.flag(true, "use_qk_norm") && r.str("qk_norm_type") != "per_head"
		s.qkNorm = r.flag(true, "use_qk_norm") && r.str("qk_norm_type") == "per_head"
		s.routerBias = true
	}
	if mt == "deepseek_v2" || mt == "deepseek_v3" || mt == "deepseek_v32" || mt == "kimi_k2" {
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
	// Gemma-family and layer_types lists.
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
	if s.window == 0 {
		s.slidingLayers = 0
	}
	if s.chunk == 0 {
		s.chunkedLayers = 0
	}
	s.ctx = r.dim(0, "max_position_embeddings")
	return s
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

func falcon(r *reader) spec {
	s := spec{norms: 2, normBias: true, tied: true}
	s.h = r.need("hidden_size")
	s.layers = r.need("num_hidden_layers", "n_layer")
	s.nh = r.need("num_attention_heads", "n_head")
	s.vocab = r.need("vocab_size")
	s.inter = r.dim(4*s.h, "ffn_hidden_size")
	s.tied = r.flag(true, "tie_word_embeddings")
	b := r.flag(false, "bias")
	s.qkvBias, s.oBias, s.mlpBias = b, b, b
	// modeling_falcon.py: new_decoder_architecture uses num_kv_heads and two
	// norms (ln_attn, ln_mlp); otherwise multi_query gives one KV head and a
	// parallel-attention block has a single input_layernorm.
	switch {
	case r.flag(false, "new_decoder_architecture"):
		s.kv = r.dim(s.nh, "num_kv_heads")
		if n := r.dim(2, "num_ln_in_parallel_attn"); n == 1 {
			s.norms = 1
		}
	case r.flag(true, "multi_query"):
		s.kv = 1
		if r.flag(true, "parallel_attn") {
			s.norms = 1
		}
	default:
		s.kv = s.nh
		if r.flag(true, "parallel_attn") {
			s.norms = 1
		}
	}
	s.hd = r.dim(0, "head_dim")
	s.ctx = r.dim(0, "max_position_embeddings")
	return s
}

func gpt2(r *reader, mt string) spec {
	// modeling_gpt2.py / modeling_gpt_bigcode.py: learned positions, biases
	// everywhere, LayerNorms with bias, tied LM head, MLP n_inner (4h).
	s := spec{norms: 2, normBias: true, tied: true, qkvBias: true, oBias: true, mlpBias: true, dropout: true}
	s.h = r.need("n_embd", "hidden_size")
	if r.has("n_embd") && r.has("hidden_size") && r.dim(0, "n_embd") != r.dim(0, "hidden_size") {
		r.fail("%sn_embd=%d contradicts hidden_size=%d", r.prefix, r.dim(0, "n_embd"), r.dim(0, "hidden_size"))
	}
	s.layers = r.need("n_layer", "num_hidden_layers")
	s.nh = r.need("n_head", "num_attention_heads")
	s.vocab = r.need("vocab_size")
	s.positions = r.dim(1024, "n_positions", "max_position_embeddings")
	s.inter = r.dim(4*s.h, "n_inner")
	s.tied = r.flag(true, "tie_word_embeddings")
	s.kv = s.nh
	if mt == "gpt_bigcode" && r.flag(true, "multi_query") {
		s.kv = 1
	}
	return s
}

func bert(r *reader) spec {
	// modeling_bert.py BertModel: word, position and token-type embeddings
	// + LayerNorm; post-LN blocks with biases; pooler (dense h×h + bias).
	s := spec{norms: 2, normBias: true, qkvBias: true, oBias: true, mlpBias: true,
		embNorm: true, pooler: true, noFinal: true, encoder: true, dropout: true}
	s.h = r.need("hidden_size")
	s.layers = r.need("num_hidden_layers")
	s.nh = r.need("num_attention_heads")
	s.vocab = r.need("vocab_size")
	s.inter = r.need("intermediate_size")
	s.positions = r.dim(512, "max_position_embeddings")
	s.typeVocab = r.dim(2, "type_vocab_size")
	s.kv = s.nh
	s.tied = true // no LM head counted
	return s
}

func vit(r *reader) spec {
	// modeling_vit.py: CLS token, position embeddings for patches+1, a
	// Conv2d patch projection, pre-LN blocks, final LayerNorm; ViTModel adds
	// a pooler, ViTForImageClassification (id2label present) a classifier.
	s := spec{norms: 2, normBias: true, oBias: true, mlpBias: true, encoder: true, dropout: true, tied: true}
	s.h = r.need("hidden_size")
	s.layers = r.need("num_hidden_layers")
	s.nh = r.need("num_attention_heads")
	s.inter = r.need("intermediate_size")
	s.image = r.dim(224, "image_size")
	s.patch = r.dim(16, "patch_size")
	s.channels = r.dim(3, "num_channels")
	s.qkvBias = r.flag(true, "qkv_bias")
	s.kv = s.nh
	if s.patch == 0 || s.image < s.patch {
		r.fail("%spatch_size=%d: must be in [1, image_size=%d]", r.prefix, s.patch, s.image)
	}
	if l, ok := r.m["id2label"].(map[string]any); ok && len(l) > 0 {
		s.classes = int64(len(l))
	} else {
		s.pooler = true
	}
	return s
}

func parseGeneric(r *reader) (Arch, error) {
	allowed := map[string]bool{"model_type": true, "num_parameters": true, "hidden_size": true,
		"num_hidden_layers": true, "seq_len": true, "activation_bytes_per_sample": true}
	for k := range r.m {
		if !allowed[k] {
			r.fail("%s: unknown field for %s (want num_parameters, hidden_size, num_hidden_layers, seq_len, activation_bytes_per_sample)", k, GenericModelType)
			return Arch{}, r.err
		}
	}
	p, ok := r.num("num_parameters", maxParams)
	if !ok && r.err == nil {
		r.fail("num_parameters: missing")
	}
	if ok && p == 0 {
		r.fail("num_parameters=0: must be > 0")
	}
	a := Arch{ModelType: GenericModelType}
	a.Hidden = int(r.dim(0, "hidden_size"))
	a.Layers = int(r.dim(0, "num_hidden_layers"))
	a.SeqLen = int(r.dim(0, "seq_len"))
	act, _ := r.num("activation_bytes_per_sample", 1<<50)
	if r.err != nil {
		return Arch{}, r.err
	}
	a.ActivationBytesPerSample = Bytes(act)
	// Shape assumptions for the activation formula: 64-wide heads, MHA,
	// a 4× GeLU MLP (the GPT/T5/ViT norm).
	a.Heads, a.HeadDim = a.Hidden/64, 64
	a.KVHeads = a.Heads
	a.Intermediate = 4 * a.Hidden
	a.NormsPerLayer = 2
	a.TotalParams, a.ActiveParamCount = p, p
	a.LayerParams, a.LinearParams = p, p
	a.MaxLayerParams = p
	if a.Layers > 0 {
		a.MaxLayerParams = p / int64(a.Layers)
	}
	// Adafactor factors an h×h matrix to 2h states: about 2/h of the size.
	a.AdafactorStates = p
	if a.Hidden > 0 {
		a.AdafactorStates = p*2/int64(a.Hidden) + 1
		// Four h×h attention linears and two h↔4h MLP linears per block.
		a.LoRAAttnDims = 8 * int64(a.Hidden) * int64(a.Layers)
		a.LoRAMLPDims = 10 * int64(a.Hidden) * int64(a.Layers)
	}
	return a, nil
}

func parseVLM(r *reader, tc any) (Arch, error) {
	tm, ok := tc.(map[string]any)
	if !ok {
		return Arch{}, fmt.Errorf("estimator: config: text_config: want an object")
	}
	a, err := parseMap(tm, "text_config.")
	if err != nil {
		return Arch{}, err
	}
	vc, ok := r.m["vision_config"].(map[string]any)
	if !ok {
		return a, nil
	}
	top, _ := r.m["model_type"].(string)
	return addVision(a, vc, top)
}

// addVision adds the vision tower and projector of a VLM whose top-level
// model_type is top to a, counted apart in a.VisionParams.
//
// The tower is a ViT encoder (q,k,v,o with biases, fc1/fc2, two LayerNorms
// per block, patch convolution, position embeddings, a final LayerNorm),
// as the tower's own model type builds it in transformers:
//   - siglip_vision_model (Gemma 3, PaliGemma): a biased patch convolution,
//     one position per patch and no class token, the post-LayerNorm, and
//     the attention-pooling head (probe, nn.MultiheadAttention, LayerNorm,
//     MLP) unless vision_use_head is false (models/siglip).
//   - clip_vision_model (LLaVA): an unbiased patch convolution, a class
//     embedding and one more position, pre- and post-LayerNorms
//     (models/clip).
//   - others (Qwen2-VL's, Llama 4's towers): counted like CLIP, approximately.
//
// The projector: Gemma 3's is one h_v×H matrix after an RMSNorm of the
// vision width (Gemma3MultiModalProjector: mm_input_projection_weight,
// mm_soft_emb_norm, and an average pool without parameters); others are
// counted as LLaVA's two-layer mlp2x_gelu, h_v×H and H×H with biases.
func addVision(a Arch, vc map[string]any, top string) (Arch, error) {
	v := &reader{m: vc, prefix: "vision_config."}
	// Qwen2-VL names the tower width embed_dim (its hidden_size is the
	// merger's output width, the text model's).
	h := v.dim(0, "embed_dim", "hidden_size")
	l := v.dim(0, "num_hidden_layers", "depth") // depth: Qwen2-VL/Qwen3.5 vision
	in := v.dim(4*h, "intermediate_size")
	img := v.dim(224, "image_size")
	p := v.dim(14, "patch_size")
	ch := v.dim(3, "num_channels")
	if v.err != nil {
		return Arch{}, v.err
	}
	if h == 0 || l == 0 || p == 0 {
		return a, nil
	}
	vmt := v.str("model_type")
	useHead := v.flag(true, "vision_use_head")
	if v.err != nil {
		return Arch{}, v.err
	}
	np := (img / p) * (img / p)
	fv := float64(h) * float64(h+in) * float64(l)
	if fv > maxParams {
		return Arch{}, fmt.Errorf("estimator: config: vision_config: too large")
	}
	block := 4*(h*h+h) + 2*h*in + in + h + 4*h
	var tower int64
	switch vmt {
	case "siglip_vision_model":
		tower = l*block + ch*p*p*h + h + np*h + 2*h
		if useHead {
			// probe + in_proj (3h×h + 3h) + out_proj (h×h + h) + LayerNorm + MLP
			tower += h + 4*h*h + 4*h + 2*h + 2*h*in + in + h
		}
	default:
		tower = l*block + ch*p*p*h + h + (np+1)*h + 4*h
	}
	H := int64(a.Hidden)
	proj := h*H + H + H*H + H
	if top == "gemma3" {
		proj = h*H + h
	}
	a.VisionParams = tower + proj
	a.VisionExact = (vmt == "siglip_vision_model" && top == "gemma3") || (vmt == "clip_vision_model" && top == "llava")
	a.TotalParams += a.VisionParams
	a.ActiveParamCount += a.VisionParams
	a.EmbeddingParams += a.VisionParams
	return a, nil
}

// counter accumulates parameter counts in int64, refusing any product that
// would exceed maxParams (so fuzzed configs cannot overflow).
type counter struct {
	big bool
}

func (c *counter) mul(xs ...int64) int64 {
	f := 1.0
	for _, x := range xs {
		f *= float64(x)
	}
	if f > maxParams {
		c.big = true
		return 0
	}
	p := int64(1)
	for _, x := range xs {
		p *= x
	}
	return p
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// build validates s and counts its parameters.
func (s spec) build(prefix string) (Arch, error) {
	errf := func(format string, args ...any) (Arch, error) {
		return Arch{}, fmt.Errorf("estimator: config: "+prefix+format, args...)
	}
	mla := s.kvLoRA > 0
	if s.hd == 0 {
		if s.nh == 0 || s.h%s.nh != 0 {
			return errf("hidden_size=%d is not divisible by num_attention_heads=%d (and no head_dim)", s.h, s.nh)
		}
		s.hd = s.h / s.nh
	}
	if !mla {
		if s.kv == 0 || s.kv > s.nh || s.nh%s.kv != 0 {
			return errf("num_key_value_heads=%d does not divide num_attention_heads=%d", s.kv, s.nh)
		}
	}
	if s.experts > 0 {
		if s.topk == 0 || s.topk > s.experts {
			return errf("num_experts_per_tok=%d: must be in [1, %d experts]", s.topk, s.experts)
		}
		if s.dense > s.layers {
			return errf("first_k_dense_replace=%d exceeds num_hidden_layers=%d", s.dense, s.layers)
		}
		if s.moeI == 0 {
			return errf("moe_intermediate_size=0: must be > 0")
		}
	}
	if s.slidingLayers > s.layers {
		s.slidingLayers = s.layers
	}
	var c counter
	h := s.h
	nb := func(bias bool, n int64) int64 { return b2i(bias) * n }
	normSize := h * (1 + b2i(s.normBias))

	a := Arch{
		ModelType: s.modelType, Hidden: int(h), Intermediate: int(s.inter), Layers: int(s.layers),
		Heads: int(s.nh), KVHeads: int(s.kv), HeadDim: int(s.hd), Vocab: int(s.vocab),
		MaxPositions: int(max(s.ctx, s.positions)), TiedEmbeddings: s.tied,
		Bias: s.qkvBias || s.mlpBias, GatedMLP: s.gated, Encoder: s.encoder, Dropout: s.dropout,
		NormsPerLayer: int(s.norms),
		Experts:       int(s.experts), ExpertsPerToken: int(s.topk), SharedExperts: int(s.shared),
		MoEIntermediate: int(s.moeI), SharedExpertIntermediate: int(s.sharedI), DenseLayers: int(s.dense),
		QLoRARank: int(s.qLoRA), KVLoRARank: int(s.kvLoRA), QKNopeHeadDim: int(s.nope),
		QKRopeHeadDim: int(s.rope), VHeadDim: int(s.vhd),
		SlidingWindow: int(s.window), SlidingLayers: int(s.slidingLayers), AttentionSinks: s.sinks,
		AttentionChunk: int(s.chunk), ChunkedLayers: int(s.chunkedLayers), LinearAttnLayers: int(s.linLayers),
		MTPLayers: int(s.mtp),
		ImageSize: int(s.image), PatchSize: int(s.patch), Channels: int(s.channels),
	}
	if mla {
		a.KVHeads = int(s.nh)
		a.HeadDim = int(s.nope + s.rope)
	}

	// One block's attention: params, linear weights, adafactor states, LoRA dims, KV projections.
	var attn, attnLin, attnFact, attnLoRA, kvProj int64
	mat := func(in, out int64, bias bool) {
		w := c.mul(in, out)
		attn += w + nb(bias, out)
		attnLin += w
		attnFact += in + out + nb(bias, out)
		attnLoRA += in + out
	}
	if mla {
		// modeling_deepseek_v2.py DeepseekV2Attention.
		qk := s.nope + s.rope
		if s.qLoRA > 0 {
			mat(h, s.qLoRA, false)
			attn += s.qLoRA // q_a_layernorm
			attnFact += s.qLoRA
			mat(s.qLoRA, c.mul(s.nh, qk), false)
		} else {
			mat(h, c.mul(s.nh, qk), false)
		}
		if s.idxHeads > 0 {
			mat(max(s.qLoRA, 1), c.mul(s.idxHeads, s.idxDim), false) // indexer wq_b
			mat(h, s.idxDim, false)                                  // indexer wk
			mat(h, s.idxHeads, false)                                // indexer weights_proj
			attn += 2 * s.idxDim                                     // indexer k_norm
			attnFact += 2 * s.idxDim
		}
		mat(h, s.kvLoRA+s.rope, false) // kv_a_proj_with_mqa
		attn += s.kvLoRA               // kv_a_layernorm
		attnFact += s.kvLoRA
		mat(s.kvLoRA, c.mul(s.nh, s.nope+s.vhd), false) // kv_b_proj
		mat(c.mul(s.nh, s.vhd), h, false)               // o_proj
	} else {
		q, kv := c.mul(s.nh, s.hd), c.mul(s.kv, s.hd)
		if s.qGate {
			mat(h, 2*q, s.qkvBias) // query and its output gate
		} else {
			mat(h, q, s.qkvBias)
		}
		before := attn
		mat(h, kv, s.qkvBias)
		mat(h, kv, s.qkvBias)
		kvProj = attn - before
		mat(q, h, s.oBias)
		if s.qkNorm {
			attn += 2 * s.hd
			attnFact += 2 * s.hd
		}
		if s.qkNormFull {
			attn += q + kv
			attnFact += q + kv
		}
		if s.sinks {
			attn += s.nh
			attnFact += s.nh
		}
	}
	// A Gated DeltaNet linear-attention layer in place of attention
	// (modeling_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz
	// h→2·key_dim+2·value_dim, in_proj_ba h→2·v_heads, a depthwise conv1d
	// over conv_dim = 2·key_dim+value_dim (no bias), dt_bias and A_log per
	// value head, a gated RMSNorm over v_head_dim and out_proj
	// value_dim→h. Its state per sequence: conv_dim×(kernel−1) +
	// v_heads×k_head_dim×v_head_dim (vLLM mamba state shapes).
	var linAttn, linLin, linFact, linLoRA int64
	if s.linLayers > 0 {
		keyDim, valDim := c.mul(s.linKHeads, s.linKD), c.mul(s.linVHeads, s.linVD)
		convDim := 2*keyDim + valDim
		in1, in2, out := c.mul(h, 2*keyDim+2*valDim), c.mul(h, 2*s.linVHeads), c.mul(valDim, h)
		linLin = in1 + in2 + out
		linAttn = linLin + c.mul(convDim, s.linKernel) + 2*s.linVHeads + s.linVD
		linFact = (h + 2*keyDim + 2*valDim) + (h + 2*s.linVHeads) + (valDim + h) + convDim + s.linKernel + 2*s.linVHeads + s.linVD
		linLoRA = (h + 2*keyDim + 2*valDim) + (h + 2*s.linVHeads) + (valDim + h)
		a.LinearStateElems = c.mul(convDim, s.linKernel-1) + c.mul(s.linVHeads, s.linKD, s.linVD)
	}
	norms := s.norms * normSize

	// MLP of width w: params, linear weights, adafactor, lora dims.
	mlpB := func(w int64, bias bool) (p, lin, fact, lora int64) {
		k := int64(2)
		if s.gated {
			k = 3
		}
		lin = k * c.mul(h, w)
		p = lin + nb(bias, (k-1)*w+h)
		fact = k*(h+w) + nb(bias, (k-1)*w+h)
		lora = k * (h + w)
		return
	}
	mlp := func(w int64) (p, lin, fact, lora int64) { return mlpB(w, s.mlpBias) }
	dP, dLin, dFact, dLoRA := mlp(s.inter)
	denseBlock := attn + dP + norms

	layers := s.layers
	nDense, nMoE := layers, int64(0)
	var moeBlock, moeActive, eP, eLin, eFact, eLoRA, router int64
	var sP, sLin, sFact, sLoRA, sGate int64 // Qwen2-MoE shared expert and its gate
	if s.experts > 0 {
		nDense, nMoE = s.dense, layers-s.dense
		eP, eLin, eFact, eLoRA = mlpB(s.moeI, s.mlpBias || s.expertBias)
		router = c.mul(h, s.experts) + nb(s.routerBias, s.experts)
		if s.sharedI > 0 {
			sP, sLin, sFact, sLoRA = mlp(s.sharedI)
		}
		sGate = b2i(s.sharedGate) * h
		shared := s.shared*eP + sP + sGate
		moeBlock = attn + norms + router + c.mul(s.experts, eP) + shared
		moeActive = attn + norms + router + c.mul(s.topk, eP) + shared
	}

	// Embeddings (input side) and head (output side).
	emb := c.mul(s.vocab, h) + c.mul(s.positions, h) + c.mul(s.typeVocab, h)
	embFact := s.vocab + h + nb(s.positions > 0, s.positions+h) + nb(s.typeVocab > 0, s.typeVocab+h)
	if s.embNorm {
		emb += normSize
		embFact += normSize
	}
	if s.image > 0 {
		np := (s.image / s.patch) * (s.image / s.patch)
		emb += c.mul(s.channels, s.patch, s.patch, h) + h + h + c.mul(np+1, h) // conv w+b, CLS, positions
		embFact += s.channels*s.patch*s.patch + 3*h + np + 1 + h
		a.SeqLen = int(np + 1)
	}
	var head, headFact int64
	if !s.noFinal {
		head += normSize
		headFact += normSize
	}
	if !s.tied {
		head += c.mul(s.vocab, h)
		headFact += s.vocab + h
	}
	if s.pooler {
		head += c.mul(h, h) + h
		headFact += 3 * h
	}
	if s.classes > 0 {
		head += c.mul(h, s.classes) + s.classes
		headFact += h + 2*s.classes
	}

	body := c.mul(nDense, denseBlock) + c.mul(nMoE, moeBlock)
	// Linear-attention layers swap their attention for a DeltaNet block.
	linDelta := c.mul(s.linLayers, linAttn) - c.mul(s.linLayers, attn)
	body += linDelta
	total := emb + body + head
	if c.big || float64(emb)+float64(body)+float64(head) > maxParams {
		return errf("num_hidden_layers=%d × hidden_size=%d describes more than 10^15 parameters", s.layers, s.h)
	}
	a.TotalParams = total
	a.ActiveParamCount = total
	if s.experts > 0 {
		a.ActiveParamCount = emb + head + nDense*denseBlock + nMoE*moeActive + linDelta
	}
	if s.mxfp4 {
		a.MXFP4Params = nMoE * c.mul(s.experts, eLin)
	}
	if s.mtp > 0 {
		// A DeepSeek-V3-layout MTP module as stored in the checkpoint: one
		// more decoder block (MoE), enorm and hnorm, eh_proj (2h→h), and
		// its own copies of the embedding and of shared_head (norm + head)
		// (DeepSeek-V3 README: 671B main model + 14B MTP module).
		blk := denseBlock
		if nMoE > 0 {
			blk = moeBlock
		}
		a.MTPParams = s.mtp * (blk + 3*h + c.mul(2*h, h) + 2*c.mul(s.vocab, h))
	}
	a.EmbeddingParams, a.HeadParams, a.LayerParams = emb, head, body
	a.MaxLayerParams = max(b2i(nDense > 0)*denseBlock, moeBlock)
	a.LinearParams = layers*attnLin + nDense*dLin + nMoE*(c.mul(s.experts+s.shared, eLin)+router+sLin+sGate) +
		s.linLayers*(linLin-attnLin)
	a.KVProjParams = layers * kvProj
	a.AdafactorStates = embFact + headFact + layers*(attnFact+norms) + nDense*dFact +
		nMoE*((s.experts+s.shared)*eFact+h+s.experts+sFact+b2i(s.sharedGate)*(h+1)) + s.linLayers*(linFact-attnFact)
	a.LoRAAttnDims = layers*attnLoRA + s.linLayers*(linLoRA-attnLoRA)
	a.LoRAMLPDims = nDense*dLoRA + nMoE*((s.experts+s.shared)*eLoRA+sLoRA)
	return a, nil
}
