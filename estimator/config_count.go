package estimator

import "fmt"

// maxParams bounds the counts so every later product stays finite and exact.
const maxParams = 1e15

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
	attnCap, finalCap    bool  // attention / final logits soft-capped (Gemma 2)
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
	if err := s.check(prefix); err != nil {
		return Arch{}, err
	}
	var c counter
	k := s.count(&c)
	if c.big || float64(k.emb.p)+float64(k.body)+float64(k.head.p) > maxParams {
		return Arch{}, configErr(prefix, "num_hidden_layers=%d × hidden_size=%d describes more than 10^15 parameters", s.layers, s.h)
	}
	a := s.arch()
	a.SeqLen, a.LinearStateElems = int(k.seqLen), k.linState
	s.totals(&a, &c, k)
	return a, nil
}

func configErr(prefix, format string, args ...any) error {
	return fmt.Errorf("estimator: config: "+prefix+format, args...)
}

// mla reports whether s has DeepSeek's multi-head latent attention.
func (s spec) mla() bool { return s.kvLoRA > 0 }

// normSize is one norm's parameters: a LayerNorm's weight and bias, or an
// RMSNorm's weight.
func (s spec) normSize() int64 { return s.h * (1 + b2i(s.normBias)) }

// check validates the shape of s, taking head_dim as hidden_size /
// num_attention_heads when the config gives none, and clamping the sliding
// layers to the layers.
func (s *spec) check(prefix string) error {
	if s.hd == 0 {
		if s.nh == 0 || s.h%s.nh != 0 {
			return configErr(prefix, "hidden_size=%d is not divisible by num_attention_heads=%d (and no head_dim)", s.h, s.nh)
		}
		s.hd = s.h / s.nh
	}
	if !s.mla() {
		if s.kv == 0 || s.kv > s.nh || s.nh%s.kv != 0 {
			return configErr(prefix, "num_key_value_heads=%d does not divide num_attention_heads=%d", s.kv, s.nh)
		}
	}
	if s.experts > 0 {
		if s.topk == 0 || s.topk > s.experts {
			return configErr(prefix, "num_experts_per_tok=%d: must be in [1, %d experts]", s.topk, s.experts)
		}
		if s.dense > s.layers {
			return configErr(prefix, "first_k_dense_replace=%d exceeds num_hidden_layers=%d", s.dense, s.layers)
		}
		if s.moeI == 0 {
			return configErr(prefix, "moe_intermediate_size=0: must be > 0")
		}
	}
	if s.slidingLayers > s.layers {
		s.slidingLayers = s.layers
	}
	return nil
}

// arch is the Arch of the shape of s, its parameter counts not yet filled.
func (s spec) arch() Arch {
	a := Arch{
		ModelType: s.modelType, Hidden: int(s.h), Intermediate: int(s.inter), Layers: int(s.layers),
		Heads: int(s.nh), KVHeads: int(s.kv), HeadDim: int(s.hd), Vocab: int(s.vocab),
		MaxPositions: int(max(s.ctx, s.positions)), TiedEmbeddings: s.tied,
		Bias: s.qkvBias || s.mlpBias, GatedMLP: s.gated, Encoder: s.encoder, Dropout: s.dropout,
		NormsPerLayer: int(s.norms),
		Experts:       int(s.experts), ExpertsPerToken: int(s.topk), SharedExperts: int(s.shared),
		MoEIntermediate: int(s.moeI), SharedExpertIntermediate: int(s.sharedI), DenseLayers: int(s.dense),
		QLoRARank: int(s.qLoRA), KVLoRARank: int(s.kvLoRA), QKNopeHeadDim: int(s.nope),
		QKRopeHeadDim: int(s.rope), VHeadDim: int(s.vhd),
		SlidingWindow: int(s.window), SlidingLayers: int(s.slidingLayers), AttentionSinks: s.sinks,
		AttnSoftcap: s.attnCap, FinalLogitSoftcap: s.finalCap,
		AttentionChunk: int(s.chunk), ChunkedLayers: int(s.chunkedLayers), LinearAttnLayers: int(s.linLayers),
		MTPLayers: int(s.mtp),
		ImageSize: int(s.image), PatchSize: int(s.patch), Channels: int(s.channels),
	}
	if s.mla() {
		a.KVHeads = int(s.nh)
		a.HeadDim = int(s.nope + s.rope)
	}
	return a
}

// part counts one piece of a model: its parameters (p), the weights of its
// linear layers (lin), its Adafactor states (fact: an in×out matrix factored
// to in+out, anything else kept whole) and its LoRA dims (lora: in+out of
// each linear layer).
type part struct {
	p, lin, fact, lora int64
}

// linear adds an in×out weight matrix, and a bias of out when bias.
func (q *part) linear(c *counter, in, out int64, bias bool) {
	w := c.mul(in, out)
	q.p += w + nb(bias, out)
	q.lin += w
	q.fact += in + out + nb(bias, out)
	q.lora += in + out
}

// vector adds n parameters outside any matrix (norm weights, sink logits).
func (q *part) vector(n int64) {
	q.p += n
	q.fact += n
}

// nb is the size n of a bias when there is one, else 0.
func nb(bias bool, n int64) int64 { return b2i(bias) * n }

// counts holds what build assembles into an Arch: each kind of block once,
// and the body of blocks.
type counts struct {
	attn       part  // one block's attention
	kvProj     int64 // the parameters of its k and v projections
	qvLoRA     int64 // in+out of its q and v projections (0 for MLA)
	lin        part  // one Gated DeltaNet in place of attn
	linState   int64 // its state per sequence, elements
	norms      int64 // one block's norms
	dense      part  // one dense MLP
	denseBlock int64 // one dense block: attention, MLP, norms
	nDense     int64 // dense blocks
	nMoE       int64 // MoE blocks
	moe        moeLayer
	emb, head  part  // input and output sides (p and fact)
	seqLen     int64 // ViT's patches + 1
	body       int64 // all blocks
	linDelta   int64 // what the DeltaNet layers add over attention
}

// moeLayer counts one MoE block.
type moeLayer struct {
	expert  part  // one routed expert (the s.shared shared experts are as wide)
	sharedI part  // the one shared expert of width s.sharedI (Qwen2-MoE)
	router  int64 // h×experts, and a bias when s.routerBias
	gate    int64 // the sigmoid gate on sharedI, a 1×h linear
	block   int64 // the whole block
	active  int64 // what one token runs through
}

// count counts each kind of block of s once, then the body; c flags any
// product over maxParams.
func (s spec) count(c *counter) counts {
	var k counts
	if s.mla() {
		k.attn = s.mlaAttention(c)
	} else {
		k.attn, k.kvProj, k.qvLoRA = s.attention(c)
	}
	if s.linLayers > 0 {
		k.lin, k.linState = s.deltaNet(c)
	}
	k.norms = s.norms * s.normSize()
	k.dense = s.mlp(c, s.inter, s.mlpBias)
	k.denseBlock = k.attn.p + k.dense.p + k.norms
	k.nDense = s.layers
	if s.experts > 0 {
		k.nDense, k.nMoE = s.dense, s.layers-s.dense
		k.moe = s.moe(c, k.attn.p+k.norms)
	}
	k.emb, k.seqLen = s.embeddings(c)
	k.head = s.head(c)
	k.body = c.mul(k.nDense, k.denseBlock) + c.mul(k.nMoE, k.moe.block)
	// Linear-attention layers swap their attention for a DeltaNet block.
	k.linDelta = c.mul(s.linLayers, k.lin.p) - c.mul(s.linLayers, k.attn.p)
	k.body += k.linDelta
	return k
}

// mlaAttention counts one block's multi-head latent attention
// (modeling_deepseek_v2.py DeepseekV2Attention), with DeepSeek-V3.2's
// lightning indexer when s.idxHeads > 0.
func (s spec) mlaAttention(c *counter) part {
	var a part
	h := s.h
	qk := s.nope + s.rope
	if s.qLoRA > 0 {
		a.linear(c, h, s.qLoRA, false)
		a.vector(s.qLoRA) // q_a_layernorm
		a.linear(c, s.qLoRA, c.mul(s.nh, qk), false)
	} else {
		a.linear(c, h, c.mul(s.nh, qk), false)
	}
	if s.idxHeads > 0 {
		a.linear(c, max(s.qLoRA, 1), c.mul(s.idxHeads, s.idxDim), false) // indexer wq_b
		a.linear(c, h, s.idxDim, false)                                  // indexer wk
		a.linear(c, h, s.idxHeads, false)                                // indexer weights_proj
		a.vector(2 * s.idxDim)                                           // indexer k_norm
	}
	a.linear(c, h, s.kvLoRA+s.rope, false)                  // kv_a_proj_with_mqa
	a.vector(s.kvLoRA)                                      // kv_a_layernorm
	a.linear(c, s.kvLoRA, c.mul(s.nh, s.nope+s.vhd), false) // kv_b_proj
	a.linear(c, c.mul(s.nh, s.vhd), h, false)               // o_proj
	return a
}

// attention counts one block's multi-head or grouped-query attention, and
// apart the parameters of its k and v projections and the LoRA dims
// (in+out) of its q and v projections.
func (s spec) attention(c *counter) (a part, kvProj, qvLoRA int64) {
	h := s.h
	q, kv := c.mul(s.nh, s.hd), c.mul(s.kv, s.hd)
	if s.qGate {
		a.linear(c, h, 2*q, s.qkvBias) // query and its output gate
	} else {
		a.linear(c, h, q, s.qkvBias)
	}
	qvLoRA = a.lora + h + kv // q_proj, and v_proj: h → kv
	before := a.p
	a.linear(c, h, kv, s.qkvBias)
	a.linear(c, h, kv, s.qkvBias)
	kvProj = a.p - before
	a.linear(c, q, h, s.oBias)
	if s.qkNorm {
		a.vector(2 * s.hd)
	}
	if s.qkNormFull {
		a.vector(q + kv)
	}
	if s.sinks {
		a.vector(s.nh)
	}
	return a, kvProj, qvLoRA
}

// deltaNet counts a Gated DeltaNet linear-attention layer in place of
// attention (modeling_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz
// h→2·key_dim+2·value_dim, in_proj_ba h→2·v_heads, a depthwise conv1d
// over conv_dim = 2·key_dim+value_dim (no bias), dt_bias and A_log per
// value head, a gated RMSNorm over v_head_dim and out_proj
// value_dim→h. Its state per sequence: conv_dim×(kernel−1) +
// v_heads×k_head_dim×v_head_dim (vLLM mamba state shapes).
func (s spec) deltaNet(c *counter) (d part, state int64) {
	h := s.h
	keyDim, valDim := c.mul(s.linKHeads, s.linKD), c.mul(s.linVHeads, s.linVD)
	convDim := 2*keyDim + valDim
	d.linear(c, h, 2*keyDim+2*valDim, false) // in_proj_qkvz
	d.linear(c, h, 2*s.linVHeads, false)     // in_proj_ba
	d.linear(c, valDim, h, false)            // out_proj
	d.p += c.mul(convDim, s.linKernel)       // conv1d
	d.fact += convDim + s.linKernel
	d.vector(2*s.linVHeads + s.linVD) // dt_bias, A_log, norm
	state = c.mul(convDim, s.linKernel-1) + c.mul(s.linVHeads, s.linKD, s.linVD)
	return d, state
}

// mlp counts an MLP of width w: up and down projections, and a gate
// projection when s.gated; biases on the w-wide ones and on down when bias.
func (s spec) mlp(c *counter, w int64, bias bool) part {
	k := int64(2)
	if s.gated {
		k = 3
	}
	var m part
	m.lin = k * c.mul(s.h, w)
	m.p = m.lin + nb(bias, (k-1)*w+s.h)
	m.fact = k*(s.h+w) + nb(bias, (k-1)*w+s.h)
	m.lora = k * (s.h + w)
	return m
}

// moe counts one MoE block whose attention and norms hold attnNorms
// parameters: the router, the routed and shared experts, the shared
// expert's gate.
func (s spec) moe(c *counter, attnNorms int64) moeLayer {
	var m moeLayer
	m.expert = s.mlp(c, s.moeI, s.mlpBias || s.expertBias)
	m.router = c.mul(s.h, s.experts) + nb(s.routerBias, s.experts)
	if s.sharedI > 0 {
		m.sharedI = s.mlp(c, s.sharedI, s.mlpBias)
	}
	m.gate = b2i(s.sharedGate) * s.h
	shared := s.shared*m.expert.p + m.sharedI.p + m.gate
	m.block = attnNorms + m.router + c.mul(s.experts, m.expert.p) + shared
	m.active = attnNorms + m.router + c.mul(s.topk, m.expert.p) + shared
	return m
}

// embeddings counts the input side: token, position and token-type
// embeddings, an embedding norm (BERT), and ViT's patch projection, class
// token and positions; seqLen is ViT's patches + 1 (else 0).
func (s spec) embeddings(c *counter) (e part, seqLen int64) {
	h := s.h
	e.p = c.mul(s.vocab, h) + c.mul(s.positions, h) + c.mul(s.typeVocab, h)
	e.fact = s.vocab + h + nb(s.positions > 0, s.positions+h) + nb(s.typeVocab > 0, s.typeVocab+h)
	if s.embNorm {
		e.vector(s.normSize())
	}
	if s.image > 0 {
		np := (s.image / s.patch) * (s.image / s.patch)
		e.p += c.mul(s.channels, s.patch, s.patch, h) + h + h + c.mul(np+1, h) // conv w+b, CLS, positions
		e.fact += s.channels*s.patch*s.patch + 3*h + np + 1 + h
		seqLen = np + 1
	}
	return e, seqLen
}

// head counts the output side: the final norm, an untied LM head, a pooler
// (h×h and a bias), a classifier.
func (s spec) head(c *counter) part {
	var o part
	h := s.h
	if !s.noFinal {
		o.vector(s.normSize())
	}
	if !s.tied {
		o.p += c.mul(s.vocab, h)
		o.fact += s.vocab + h
	}
	if s.pooler {
		o.p += c.mul(h, h) + h
		o.fact += 3 * h
	}
	if s.classes > 0 {
		o.p += c.mul(h, s.classes) + s.classes
		o.fact += h + 2*s.classes
	}
	return o
}

// totals fills the parameter counts of a from k.
func (s spec) totals(a *Arch, c *counter, k counts) {
	h, layers, nDense, nMoE := s.h, s.layers, k.nDense, k.nMoE
	total := k.emb.p + k.body + k.head.p
	a.TotalParams = total
	a.ActiveParamCount = total
	if s.experts > 0 {
		a.ActiveParamCount = k.emb.p + k.head.p + nDense*k.denseBlock + nMoE*k.moe.active + k.linDelta
	}
	e, sh := k.moe.expert, k.moe.sharedI
	if s.mxfp4 {
		a.MXFP4Params = nMoE * c.mul(s.experts, e.lin)
	}
	if s.mtp > 0 {
		// A DeepSeek-V3-layout MTP module as stored in the checkpoint: one
		// more decoder block (MoE), enorm and hnorm, eh_proj (2h→h), and
		// its own copies of the embedding and of shared_head (norm + head)
		// (DeepSeek-V3 README: 671B main model + 14B MTP module).
		blk := k.denseBlock
		if nMoE > 0 {
			blk = k.moe.block
		}
		a.MTPParams = s.mtp * (blk + 3*h + c.mul(2*h, h) + 2*c.mul(s.vocab, h))
	}
	a.EmbeddingParams, a.HeadParams, a.LayerParams = k.emb.p, k.head.p, k.body
	a.MaxLayerParams = max(b2i(nDense > 0)*k.denseBlock, k.moe.block)
	a.LinearParams = layers*k.attn.lin + nDense*k.dense.lin + nMoE*(c.mul(s.experts+s.shared, e.lin)+k.moe.router+sh.lin+k.moe.gate) +
		s.linLayers*(k.lin.lin-k.attn.lin)
	a.KVProjParams = layers * k.kvProj
	a.AdafactorStates = k.emb.fact + k.head.fact + layers*(k.attn.fact+k.norms) + nDense*k.dense.fact +
		nMoE*((s.experts+s.shared)*e.fact+h+s.experts+sh.fact+b2i(s.sharedGate)*(h+1)) + s.linLayers*(k.lin.fact-k.attn.fact)
	a.LoRAAttnDims = layers*k.attn.lora + s.linLayers*(k.lin.lora-k.attn.lora)
	a.LoRAMLPDims = nDense*k.dense.lora + nMoE*((s.experts+s.shared)*e.lora+sh.lora)
	a.LoRAQVDims = (layers - s.linLayers) * k.qvLoRA
}
