package estimator

import "fmt"

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
