package estimator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

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
	a, err := parseMap(m, "")
	if err != nil {
		return a, err
	}
	a.NameOrPath, _ = m["_name_or_path"].(string)
	a.WeightBlock = weightBlock(m)
	return a, nil
}

// weightBlock is the width a TP shard of a layer of config m's
// checkpoint must be a multiple of: its quantization_config's
// weight_block_size [n, k] (the form of the block-FP8 checkpoints vLLM's
// and SGLang's Fp8Config read) splits a column-parallel layer's output in
// n-wide blocks and a row-parallel layer's input in k-wide ones (vLLM
// validate_fp8_block_shape), so a shard of the MLP's width takes lcm(n,
// k); 0 where it gives none, or a size that is not two positive widths.
func weightBlock(m map[string]any) int {
	q, _ := m["quantization_config"].(map[string]any)
	b, _ := q["weight_block_size"].([]any)
	if len(b) != 2 {
		return 0
	}
	n, _ := b[0].(json.Number)
	k, _ := b[1].(json.Number)
	bn, err1 := n.Int64()
	bk, err2 := k.Int64()
	if err1 != nil || err2 != nil || bn < 1 || bk < 1 || bn > 1<<16 || bk > 1<<16 {
		return 0
	}
	g, r := bn, bk
	for r != 0 {
		g, r = r, g%r
	}
	return int(bn / g * bk)
}

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

// capped reads a soft-capping value k (Gemma 2): on when absent (the
// config class's default) or a positive number, off when null or 0.
func (r *reader) capped(k string) bool {
	v, ok := r.m[k]
	if !ok {
		return true
	}
	if v == nil {
		return false
	}
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	if !isNum || err != nil || f < 0 {
		r.fail("%s%s=%v: want a non-negative number or null", r.prefix, k, v)
		return false
	}
	return f > 0
}

// zero reports whether key k is present and the number 0.
func (r *reader) zero(k string) bool {
	n, ok := r.m[k].(json.Number)
	if !ok {
		return false
	}
	f, err := n.Float64()
	return err == nil && f == 0
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
