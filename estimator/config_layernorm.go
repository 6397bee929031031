package estimator

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
	// GPT2Config's three dropout rates (resid_pdrop, embd_pdrop,
	// attn_pdrop; 0.1 by default): a config that sets all three to 0
	// trains without dropout, so no masks are saved.
	if r.zero("resid_pdrop") && r.zero("embd_pdrop") && r.zero("attn_pdrop") {
		s.dropout = false
	}
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
