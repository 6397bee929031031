package estimator

// Architecture: the shape numbers the memory model needs, read from a Hugging
// Face config.json, and the exact parameter counts derived from them.

// Arch is a model architecture. It is comparable and holds no slices or maps,
// so copying it into an Input and estimating never allocates.
//
// Shape fields are as the config states them (after family defaults and key
// aliases are resolved). The count fields (TotalParams ... LoRAMLPDims) are
// derived by ParseConfig; callers that build an Arch by hand should start
// from ParseConfig output and not edit shapes without recounting.
type Arch struct {
	// ModelType is the config's model_type ("llama", "gemma2", "vit",
	// "rightsize-generic", ...). For a VLM it is the text model's type.
	ModelType string
	// NameOrPath is the config's _name_or_path as written: the Hugging Face
	// repository or the local directory the config was saved from ("" when
	// absent or not a string). It is data, not checked here; a launch uses
	// it only when it is a repository ID.
	NameOrPath string

	Hidden       int // hidden_size / n_embd / dim
	Intermediate int // dense MLP width (intermediate_size / n_inner / ffn_hidden_size)
	Layers       int // transformer blocks
	Heads        int // query heads
	KVHeads      int // key/value heads (== Heads for MHA, 1 for MQA, Heads/groups for GQA)
	HeadDim      int // per-head dim (explicit head_dim, or Hidden/Heads)
	Vocab        int // vocab_size (0 for vision and generic models)
	MaxPositions int // context length the config declares (0 if none)
	// ScaledContext is the longer context the model's card reaches with a
	// RoPE scaling its config.json leaves out, and ScaledRope that
	// rope_scaling (JSON) as the card writes it: Qwen2.5-72B's config
	// declares 32,768 tokens, its card 131,072 with YaRN. Set by the
	// catalog (catalog.Model.ScaleContext); 0 and "" for none. Requests
	// are still held to MaxPositions: the engines refuse longer ones
	// until the setting is made.
	ScaledContext int
	ScaledRope    string
	// ServedPositions is the context the checkpoint a serving launch loads
	// declares where it is less than MaxPositions: the catalog sizes a
	// model from its pretrained config and serves its instruction-tuned
	// sibling, whose config.json may declare less (Qwen2.5-7B's 131,072
	// tokens, Qwen2.5-7B-Instruct's 32,768). Set by the catalog
	// (catalog.Model.ScaleContext); 0 where the served checkpoint
	// declares MaxPositions. ServeContext reads it.
	ServedPositions int
	// CardContext is the context the model's card gives where it is less
	// than the one the engines serve (ServeContext): Mistral NeMo's card
	// gives 128k tokens ("a large context window of up to 128k tokens",
	// mistral.ai/news/mistral-nemo) while its config.json declares
	// 1,024,000 positions, which vLLM takes as --max-model-len; DeepSeek-
	// V2-Lite's card 32k under 163,840. A request past it is served, on
	// positions the card does not vouch for: the planner says so
	// (note.past_card_context) and plans it. Set by the catalog
	// (catalog.Model.ScaleContext); 0 for none.
	CardContext int

	TiedEmbeddings bool // LM head shares the input embedding matrix
	Bias           bool // attention/MLP linears carry biases
	GatedMLP       bool // SwiGLU/GeGLU MLP (gate, up, down) rather than fc1/fc2
	Encoder        bool // bidirectional encoder (BERT, ViT): no KV cache, no LM head
	Dropout        bool // family trains with dropout (masks count in activations)
	NormsPerLayer  int  // norms applied per block (2 for most, 4 for Gemma 2/3, 1 for Falcon-7B)

	// Mixture of experts (0 when dense).
	Experts         int // routed experts per MoE layer (num_local_experts / n_routed_experts)
	ExpertsPerToken int // num_experts_per_tok
	SharedExperts   int // n_shared_experts, each MoEIntermediate wide
	MoEIntermediate int // moe_intermediate_size (Intermediate for Mixtral)
	// SharedExpertIntermediate is the width of a shared expert sized on its
	// own (Qwen2-MoE shared_expert_intermediate_size), on every token in
	// addition to SharedExperts × MoEIntermediate; 0 when none.
	SharedExpertIntermediate int
	// DenseLayers is the layers with a dense MLP rather than experts
	// (DeepSeek first_k_dense_replace; Qwen-MoE mlp_only_layers and
	// layers off decoder_sparse_step).
	DenseLayers int

	// Multi-head latent attention (DeepSeek V2/V3; 0 when not MLA).
	QLoRARank     int
	KVLoRARank    int
	QKNopeHeadDim int
	QKRopeHeadDim int
	VHeadDim      int

	// Sliding-window attention: SlidingLayers of Layers attend to at most
	// SlidingWindow past tokens, so their KV cache is capped there.
	SlidingWindow int
	SlidingLayers int
	// AttentionSinks: each attention layer has one learned sink logit per
	// head (gpt-oss; counted in the parameters, no KV).
	AttentionSinks bool
	// AttnSoftcap: the attention scores are soft-capped, tanh(s/c)·c,
	// before the softmax (Gemma 2 attn_logit_softcapping). No SDPA kernel
	// takes a cap, so the frameworks run these layers eagerly and the
	// score tensors are materialised (eagerScores).
	AttnSoftcap bool
	// FinalLogitSoftcap: the LM head's logits are soft-capped the same way
	// before the loss (Gemma 2 final_logit_softcapping).
	FinalLogitSoftcap bool

	// Chunked local attention (Llama 4, attention_chunk_size): ChunkedLayers
	// of Layers attend only within their AttentionChunk-token chunk, so they
	// keep at most AttentionChunk tokens of KV per sequence; the rest
	// (every no_rope_layer_interval-th, NoPE) are global.
	AttentionChunk int
	ChunkedLayers  int

	// Linear attention (Qwen3-Next Gated DeltaNet): LinearAttnLayers of
	// Layers keep no KV cache but a fixed recurrent state of
	// LinearStateElems elements per sequence per layer (conv state
	// conv_dim × (kernel−1) + recurrent state v_heads × k_head_dim ×
	// v_head_dim), whatever the sequence length.
	LinearAttnLayers int
	LinearStateElems int64

	// Multi-token-prediction modules (DeepSeek-V3, GLM-4.5
	// num_nextn_predict_layers): MTPLayers extra blocks of MTPParams
	// parameters in the checkpoint, used only for speculative decoding and
	// NOT included in TotalParams (publishers quote the main model).
	MTPLayers int
	MTPParams int64

	// MXFP4Params is how many of TotalParams the published checkpoint
	// stores as MXFP4 (gpt-oss MoE expert weights: 4-bit E2M1 elements plus
	// one 8-bit scale per 32, i.e. 4.25 bits each; OCP MX spec v1.0); 0 when
	// the checkpoint is all 16-bit.
	MXFP4Params int64
	// WeightBlock is the width of the weight blocks the published
	// checkpoint is quantised in (config.json quantization_config
	// weight_block_size, [128, 128] in DeepSeek-V3/R1's and Kimi K2's FP8
	// checkpoints; DeepSeek-V3 README_WEIGHTS.md); 0 for a checkpoint
	// without blocks. The engines split a layer over TP only in whole
	// blocks (BlockSplit).
	WeightBlock int

	// Vision (ViT): tokens per image = (ImageSize/PatchSize)² + 1.
	ImageSize, PatchSize, Channels int

	// SeqLen is the tokens/patches/positions per sample that activations
	// scale with, for models whose sample length is fixed by the
	// architecture (ViT patches, rightsize-generic seq_len); 0 otherwise.
	SeqLen int
	// ActivationBytesPerSample is rightsize-generic's published or estimated
	// training activation footprint per sample (bf16, no checkpointing,
	// at SeqLen); 0 when unknown.
	ActivationBytesPerSample Bytes

	// Derived counts (elements, i.e. parameters).
	TotalParams      int64 // every tensor of the checkpoint's base model
	ActiveParamCount int64 // parameters used per token (MoE: routed top-k + shared)
	EmbeddingParams  int64 // input-side embeddings (token, position, type, patch, + their norm): first pipeline stage
	HeadParams       int64 // output side (final norm, untied LM head, pooler, classifier): last pipeline stage
	LayerParams      int64 // all transformer blocks
	MaxLayerParams   int64 // the largest block (ZeRO-3/FSDP gather unit, dequantisation buffer)
	LinearParams     int64 // weight matrices inside blocks: what int8/int4/fp8/NF4 quantise
	KVProjParams     int64 // K and V projection weights+biases in all blocks (replicated when TP > KV heads)
	VisionParams     int64 // VLM vision tower + projector (ViT-style count; exact where VisionExact)
	// VisionExact: the tower and projector are counted as transformers
	// builds them (Gemma 3's SigLIP tower and projector, LLaVA's CLIP tower
	// and two-layer projector: addVision), not approximately.
	VisionExact bool
	// AdafactorStates is the factored second-moment size: rows+cols for every
	// matrix, the full size for vectors (Shazeer & Stern 2018, Alg. 4).
	AdafactorStates int64
	// LoRAAttnDims and LoRAMLPDims are Σ(in+out) over the attention and MLP
	// linears of all blocks; a rank-r adapter on them has r× that many
	// parameters (Hu et al. 2021: A is r×in, B is out×r).
	LoRAAttnDims, LoRAMLPDims int64
	// LoRAQVDims is Σ(in+out) over the query and value projections of
	// the blocks with softmax attention (LoRAQueryValue): 0 for MLA,
	// whose value has no projection of its own, and for linear-attention
	// layers (Gated DeltaNet's fused in_proj_qkvz has no q_proj or
	// v_proj to match).
	LoRAQVDims int64
}

// Params is the total parameter count: the sum of the checkpoint's tensor
// sizes (for a VLM, text model + approximate vision tower).
func (a Arch) Params() int64 { return a.TotalParams }

// ActiveParams is the parameters used per token: equal to Params for dense
// models; for MoE, the shared parts plus ExpertsPerToken routed experts.
func (a Arch) ActiveParams() int64 { return a.ActiveParamCount }

// ServeContext is the context a served request is held to: the served
// checkpoint's (ServedPositions) where it declares less than the
// config's, else MaxPositions (0: unknown). The engines refuse a longer
// request: vLLM's --max-model-len and SGLang's --context-length default
// to it and are checked against it at start-up.
func (a Arch) ServeContext() int {
	if a.ServedPositions > 0 && (a.MaxPositions == 0 || a.ServedPositions < a.MaxPositions) {
		return a.ServedPositions
	}
	return a.MaxPositions
}

// IsMLA reports whether the model uses multi-head latent attention.
func (a Arch) IsMLA() bool { return a.KVLoRARank > 0 }

// IsMoE reports whether the model has routed experts.
func (a Arch) IsMoE() bool { return a.Experts > 0 }

// HasKVCache reports whether generation keeps a KV cache (decoders only;
// rightsize-generic models carry no attention layout, so none is counted).
func (a Arch) HasKVCache() bool {
	return !a.Encoder && !a.Generic() && a.Layers > 0 && (a.KVLoRARank > 0 || a.KVHeads*a.HeadDim > 0)
}

// kvElemsPerTokenLayer is the KV-cache elements one token occupies in one
// layer: 2·kv_heads·head_dim (K and V; Kwon et al. 2023 §3), or for MLA the
// compressed latent plus the decoupled RoPE key, kv_lora_rank +
// qk_rope_head_dim (DeepSeek-V2, arXiv:2405.04434, Table 1).
func (a Arch) kvElemsPerTokenLayer() int64 {
	if !a.HasKVCache() {
		return 0
	}
	if a.IsMLA() {
		return int64(a.KVLoRARank + a.QKRopeHeadDim)
	}
	return 2 * int64(a.KVHeads) * int64(a.HeadDim)
}

// KVCacheLayers is the layers that keep a KV cache: all but the
// linear-attention layers (Qwen3-Next keeps KV in 1 of 4 layers).
func (a Arch) KVCacheLayers() int { return max(a.Layers-a.LinearAttnLayers, 0) }

// KVBytesPerToken is the KV cache one token occupies across the KV-cache
// layers when stored as kv: 2·layers·kv_heads·head_dim·bytes (MLA:
// (kv_lora_rank + qk_rope_head_dim)·layers·bytes). Sliding-window and
// chunked layers are counted in full here, as vLLM reports its pool in
// tokens; their cap applies to a sequence's cache (kvBytesPerSeq).
// Linear-attention layers have no KV (their fixed state is in
// LinearStateBytes). Quantised KV (int8/fp8/int4) is counted at its element
// width.
func (a Arch) KVBytesPerToken(kv DType) Bytes {
	bits := kv.BitsPerElement()
	if bits != bits { // NaN: unknown dtype
		return 0
	}
	return Bytes(a.kvElemsPerTokenLayer() * int64(a.KVCacheLayers()) * int64(bits) / 8)
}

// LinearStateBytes is one sequence's fixed linear-attention state across
// all linear layers at bits per element (vLLM keeps the Gated DeltaNet
// state in the model dtype by default); 0 for models without such layers.
func (a Arch) LinearStateBytes(bits float64) float64 {
	return float64(a.LinearAttnLayers) * float64(a.LinearStateElems) * bits / 8
}

// kvBytesPerSeq is one sequence's attention state at seq tokens: full
// layers keep seq tokens, sliding-window layers at most SlidingWindow,
// chunked layers at most AttentionChunk, and linear-attention layers a
// fixed state (LinearStateBytes), as bits per element.
func (a Arch) kvBytesPerSeq(seq int64, bits float64) float64 {
	return newKVLayout(a, bits, 1).bytes(seq)
}

// kvLayout is kvBytesPerSeq's figures at one element width, times the
// share of them one rank holds, read from the architecture once: the
// serving simulator asks for a sequence's bytes at every engine step.
type kvLayout struct {
	perToken               float64 // bytes per token per layer on the rank
	full, sliding, chunked float64 // layers of each kind
	window, chunk          int64   // SlidingWindow, AttentionChunk
	state                  float64 // linear-attention state bytes on the rank
}

func newKVLayout(a Arch, bits, share float64) kvLayout {
	return kvLayout{perToken: float64(a.kvElemsPerTokenLayer()) * bits / 8 * share,
		full: float64(max(a.KVCacheLayers()-a.SlidingLayers-a.ChunkedLayers, 0)), sliding: float64(a.SlidingLayers),
		chunked: float64(a.ChunkedLayers), window: int64(a.SlidingWindow), chunk: int64(a.AttentionChunk),
		state: a.LinearStateBytes(bits) * share}
}

// bytes is one sequence's KV bytes at seq tokens on the rank: full layers
// hold every token, sliding-window and chunked layers at most their window.
func (k kvLayout) bytes(seq int64) float64 {
	capped := func(n int64) float64 {
		if n > 0 && n < seq {
			return float64(n)
		}
		return float64(seq)
	}
	return k.perToken*(k.full*float64(seq)+k.sliding*capped(k.window)+k.chunked*capped(k.chunk)) + k.state
}

// qDim is the query width nh·hd (MLA: nh·(qk_nope + qk_rope)); kvDim and
// vDim are the K and V widths (MLA: after kv_b_proj decompression).
func (a Arch) qDim() int64 {
	if a.IsMLA() {
		return int64(a.Heads) * int64(a.QKNopeHeadDim+a.QKRopeHeadDim)
	}
	return int64(a.Heads) * int64(a.HeadDim)
}

func (a Arch) kvDim() int64 {
	if a.IsMLA() {
		return int64(a.Heads) * int64(a.QKNopeHeadDim+a.QKRopeHeadDim)
	}
	return int64(a.KVHeads) * int64(a.HeadDim)
}

func (a Arch) vDim() int64 {
	if a.IsMLA() {
		return int64(a.Heads) * int64(a.VHeadDim)
	}
	return int64(a.KVHeads) * int64(a.HeadDim)
}

// activeMLPWidth is the MLP width a token passes through in an average
// block: the dense width, or for MoE top-k routed plus shared experts.
func (a Arch) activeMLPWidth() int64 {
	if !a.IsMoE() {
		return int64(a.Intermediate)
	}
	moe := int64(a.MoEIntermediate)*int64(a.ExpertsPerToken+a.SharedExperts) + int64(a.SharedExpertIntermediate)
	if a.Layers <= 0 || a.DenseLayers <= 0 {
		return moe
	}
	return (moe*int64(a.Layers-a.DenseLayers) + int64(a.Intermediate)*int64(a.DenseLayers)) / int64(a.Layers)
}

// Generic reports whether a is a rightsize-generic description (parameter
// count plus optional shape numbers) rather than a layer-by-layer model.
func (a Arch) Generic() bool { return a.ModelType == GenericModelType }

// AttendedContext is Σ over the attention layers of the context each one
// attends to for a token that sees ctx previous tokens: full layers see ctx,
// sliding-window layers at most SlidingWindow, chunked layers at most
// AttentionChunk (their chunk holds between 1 and AttentionChunk tokens; the
// cap is the worst case), and linear-attention layers none (their cost is
// per token, not per context). It is the sum perf.go's attnLayerCtx needs
// for the new layouts.
func (a Arch) AttendedContext(ctx float64) float64 { return a.layerSpans().attended(ctx) }

// layerSpans is what AttendedContext reads of the model: the attention
// layers by how far they see, and the caps of the windowed ones.
type layerSpans struct {
	full, sliding, chunked float64
	window, chunk          int
}

func (a Arch) layerSpans() layerSpans {
	return layerSpans{full: float64(max(a.KVCacheLayers()-a.SlidingLayers-a.ChunkedLayers, 0)),
		sliding: float64(a.SlidingLayers), chunked: float64(a.ChunkedLayers), window: a.SlidingWindow, chunk: a.AttentionChunk}
}

func (l layerSpans) attended(ctx float64) float64 {
	capped := func(n int) float64 {
		if n > 0 && float64(n) < ctx {
			return float64(n)
		}
		return ctx
	}
	return l.full*ctx + l.sliding*capped(l.window) + l.chunked*capped(l.chunk)
}

// MXFP4BitsPerParam is the storage of one MXFP4 element: 4 bits plus one
// shared 8-bit E8M0 scale per block of 32 (OCP Microscaling Formats v1.0,
// §5.2), 4.25 bits.
const MXFP4BitsPerParam = 4 + 8.0/32

// CheckpointWeightBytes is the weight memory of the model as published:
// MXFP4Params at MXFP4BitsPerParam and the rest at bits per parameter (the
// checkpoint's 16 bits for gpt-oss's attention, router, embeddings).
func (a Arch) CheckpointWeightBytes(bits float64) float64 {
	return float64(a.MXFP4Params)*MXFP4BitsPerParam/8 + float64(a.TotalParams-a.MXFP4Params)*bits/8
}

// WithSeparateHead is a with its LM head held as its own V·h matrix when
// the checkpoint ties it to the input embedding: LitGPT's GPT builds
// transformer.wte (nn.Embedding) and lm_head (nn.Linear) as separate
// parameters and never ties them, and its convert_hf_checkpoint copies a
// tied checkpoint's embedding into lm_head ("if 'lm_head.weight' not in
// state_dict: state_dict['lm_head.weight'] =
// state_dict['transformer.wte.weight']"), so Gemma and Llama 3.2 run with
// V·h more weights there (frozen in LoRA, trained in a full fine-tune).
// The head joins the last pipeline stage's HeadParams. a is returned
// unchanged when its head is already separate (or it has none).
func (a Arch) WithSeparateHead() Arch {
	if !a.TiedEmbeddings || a.Vocab <= 0 || a.Hidden <= 0 || a.Encoder {
		return a
	}
	head := int64(a.Vocab) * int64(a.Hidden)
	a.TiedEmbeddings = false
	a.TotalParams += head
	a.ActiveParamCount += head
	a.HeadParams += head
	return a
}
