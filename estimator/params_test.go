package estimator

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParamCounts checks ParseConfig's exact counts against the published
// figures for every config in testdata/configs. tol is the relative error
// allowed: 0.1% where the exact tensor total is published, the card's
// rounding otherwise.
func TestParamCounts(t *testing.T) {
	tests := []struct {
		file          string
		total, active int64   // published (active 0: dense, equals total)
		tol           float64 // relative
		activeTol     float64 // relative, for active where it is rounded more coarsely (0: tol)
	}{
		// meta-llama/Llama-2-7b-hf model page, safetensors total 6,738,415,616.
		{"llama-2-7b-hf.json", 6_738_415_616, 0, 0.001, 0},
		// meta-llama/Llama-2-13b-chat-hf, safetensors total 13,015,864,320.
		{"llama-2-13b-chat-hf.json", 13_015_864_320, 0, 0.001, 0},
		// meta-llama/Llama-3.1-8B, safetensors total 8,030,261,248.
		{"llama-3.1-8b.json", 8_030_261_248, 0, 0.001, 0},
		// meta-llama/Meta-Llama-3-8B-Instruct, safetensors total 8,030,261,248.
		{"meta-llama-3-8b-instruct.json", 8_030_261_248, 0, 0.001, 0},
		// meta-llama/Llama-3.2-1B, safetensors total 1,235,814,400 (tied head).
		{"llama-3.2-1b.json", 1_235_814_400, 0, 0.001, 0},
		// mistralai/Mistral-7B-v0.1, safetensors total 7,241,732,096.
		{"mistral-7b-v0.1.mlc_preset.json", 7_241_732_096, 0, 0.001, 0},
		// mistralai/Mixtral-8x7B-v0.1: 46.7B total, 12.9B active per token
		// (Mixtral of Experts, arXiv:2401.04088, §2 "47B"/"13B"; Mistral AI
		// announcement "46.7B total, 12.9B per token").
		{"mixtral-8x7b-v0.1.mlc_preset.json", 46_700_000_000, 12_900_000_000, 0.002, 0},
		// Qwen/Qwen2.5-7B model card: 7.61B (safetensors 7,615,616,512).
		{"qwen2.5-7b.json", 7_615_616_512, 0, 0.001, 0},
		// Qwen/Qwen2.5-32B: the HF model page's safetensors count is "32.8B
		// params" (rounded to 0.1B: ±0.15%). The model card's prose says
		// 32.5B, which matches neither the tensors nor the card's own
		// 31.0B non-embedding figure plus 2×0.78B embeddings.
		{"qwen2.5-32b.json", 32_800_000_000, 0, 0.0016, 0},
		// google/gemma-2-2b, safetensors total 2,614,341,888.
		{"gemma-2-2b.mlc_preset.json", 2_614_341_888, 0, 0.001, 0},
		// google/gemma-2-9b, safetensors total 9,241,705,984.
		{"gemma-2-9b.mlc_preset.json", 9_241_705_984, 0, 0.001, 0},
		// openai-community/gpt2, 124,439,808 (HF "124M params"; Radford et
		// al. 2019 report 117M with a different count).
		{"gpt2.mlc_preset.json", 124_439_808, 0, 0.001, 0},
		// google-bert/bert-large-uncased incl. pooler: 335,141,888.
		{"bert-large-uncased.json", 335_141_888, 0, 0.001, 0},
		// microsoft/Phi-3-mini-4k-instruct, safetensors total 3,821,079,552 (card: 3.8B).
		{"phi-3-mini-4k-instruct.json", 3_821_079_552, 0, 0.001, 0},
		// tiiuae/falcon-7b, safetensors total 6,921,720,704.
		{"falcon-7b.json", 6_921_720_704, 0, 0.001, 0},
		// google/vit-base-patch16-224-in21k (ViTModel + pooler): 86,389,248.
		{"vit-base-patch16-224-in21k.json", 86_389_248, 0, 0.001, 0},
		// DeepSeek-V2: 236B total, 21B activated (arXiv:2405.04434, abstract);
		// HF deepseek-ai/DeepSeek-V2 safetensors total 235,741,434,880.
		// "21B" is rounded to 1B (±2.4%).
		{"deepseek-v2_official-inference-config_236B.json", 235_741_434_880, 21_000_000_000, 0.024, 0},
		// DeepSeek-V3: 671B total, 37B activated (arXiv:2412.19437, abstract).
		// Rounded to 1B; we count the input embedding and LM head as active
		// (+1.85B), the report does not say whether it does (±2%).
		{"deepseek-v3.json", 671_000_000_000, 37_000_000_000, 0.02, 0},
		// bigcode/octocoder (StarCoder): 15.5B (arXiv:2305.06161), tensors 15,517,456,384.
		{"octocoder.json", 15_517_456_384, 0, 0.001, 0},
		// llava-hf/llava-1.5-7b-hf: 7,063,427,072 (HF page): the CLIP tower
		// as transformers' CLIPVisionModel builds it, LLaVA's mlp2x
		// projector and the Llama 2 text model, exact.
		{"llava-1.5-7b-hf.json", 7_063_427_072, 0, 1e-12, 0},
		// Qwen/Qwen3-30B-A3B: the HF model page's safetensors total is
		// 30,532,122,624 ("30.5B params"); the model card says "30.5B in
		// total and 3.3B activated". Counting the input embedding and the
		// untied LM head as active (2 × 0.31B) we get 3.353B, 1.6% over the
		// card's 3.3B; the card does not say how it counts them.
		{"qwen3-30b-a3b.json", 30_532_122_624, 3_300_000_000, 0.001, 0.017},
		// Qwen/Qwen1.5-MoE-A2.7B model card: "14.3B parameters in total and
		// 2.7B activated parameters during runtime" (rounded to 0.1B:
		// ±0.35% and ±1.9%). The Qwen1.5-MoE blog post's "2.0B
		// non-embedding" activated agrees: 2.689B less 2 × 0.311B embeddings.
		{"qwen1.5-moe-a2.7b.mlc_preset.json", 14_300_000_000, 2_700_000_000, 0.0035, 0.019},
		// openai/gpt-oss-20b: 20.91B total, 3.61B active (arXiv:2508.10925
		// Table 1, 0.01B steps). OpenAI counts one 0.58B vocabulary matrix
		// as active, we count both (+16%).
		{"gpt-oss-20b.json", 20_910_000_000, 3_610_000_000, 0.0005, 0.17},
		// openai/gpt-oss-120b: 116.83B total, 5.13B active (same table).
		{"gpt-oss-120b.json", 116_830_000_000, 5_130_000_000, 0.0001, 0.12},
		// Llama 4 Scout / Maverick: 109B / 400B total with the vision tower
		// (counted approximately), 17B active for the text model (we add
		// the 0.84B tower to active too).
		{"llama-4-scout.json", 109_000_000_000, 17_000_000_000, 0.005, 0.065},
		{"llama-4-maverick.json", 400_000_000_000, 17_000_000_000, 0.005, 0.065},
		// Qwen3-Next-80B-A3B: "80B total, 3B activated" (rounded; the
		// card's 3B leaves out the 2 × 0.31B vocabulary matrices).
		{"qwen3-next-80b-a3b.json", 80_000_000_000, 3_000_000_000, 0.005, 0.3},
		// GLM-4.5: 355B / 32B (card). Main model 352.8B; the MTP layer is
		// Arch.MTPParams.
		{"glm-4.5.json", 355_000_000_000, 32_000_000_000, 0.007, 0.06},
		{"glm-4.5-air.json", 106_000_000_000, 12_000_000_000, 0.009, 0.12},
		// google/gemma-3-1b-pt safetensors total 999,885,952.
		{"gemma-3-1b.json", 999_885_952, 0, 0.001, 0},
		// Gemma 3 27B: 27,433M incl. the 417M SigLIP tower (report Table 1,
		// in 1M steps); TestVisionTowersApart checks the parts.
		{"gemma-3-27b.json", 27_433_000_000, 0, 0.00003, 0},
		// Kimi K2: "1T total, 32B activated" (DeepSeek-V3 architecture).
		{"kimi-k2.json", 1_000_000_000_000, 32_000_000_000, 0.03, 0.03},
		// OLMo 2 7B: 7.3B; Granite 3.1 8B: 8.17B (HF model pages).
		{"olmo-2-7b.json", 7_300_000_000, 0, 0.001, 0},
		{"granite-3.1-8b.json", 8_170_000_000, 0, 0.001, 0},
		// rightsize-generic: the stated count is returned as is.
		{"t5-3b.generic.json", 2_851_598_336, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "configs", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			a, err := ParseConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			active := tc.active
			if active == 0 {
				active = tc.total
			}
			activeTol := tc.activeTol
			if activeTol == 0 {
				activeTol = tc.tol
			}
			for _, c := range []struct {
				name      string
				got, want int64
				tol       float64
			}{{"total", a.Params(), tc.total, tc.tol}, {"active", a.ActiveParams(), active, activeTol}} {
				e := relErr(float64(c.got), float64(c.want))
				t.Logf("%-45s %-6s computed %16d published %16d error %+.4f%%", tc.file, c.name, c.got, c.want, 100*e)
				if math.Abs(e) > c.tol {
					t.Errorf("%s params = %d, published %d (error %.3f%% > %.3f%%)", c.name, c.got, c.want, 100*e, 100*c.tol)
				}
			}
		})
	}
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return got
	}
	return (got - want) / want
}

// TestQwenMoELayout checks the Qwen-MoE sparse-layer rule (transformers
// Qwen2MoeDecoderLayer / Qwen3MoeDecoderLayer): layer i is sparse when it is
// not in mlp_only_layers and (i+1) % decoder_sparse_step == 0.
func TestQwenMoELayout(t *testing.T) {
	base := `"hidden_size":64,"intermediate_size":256,"moe_intermediate_size":32,"num_attention_heads":4,
		"num_key_value_heads":2,"num_hidden_layers":8,"vocab_size":100,"num_experts":4,"num_experts_per_tok":2`
	for _, c := range []struct {
		extra        string
		dense        int
		wantErr, moe bool
	}{
		{`"model_type":"qwen3_moe"`, 0, false, true},
		{`"model_type":"qwen3_moe","decoder_sparse_step":2`, 4, false, true},
		// Layer 0 is off the step already; 1 and 5 turn dense; 99 is out of range.
		{`"model_type":"qwen3_moe","decoder_sparse_step":2,"mlp_only_layers":[0,1,5,5,99]`, 6, false, true},
		{`"model_type":"qwen3_moe","mlp_only_layers":[0,1,2,3,4,5,6,7]`, 0, false, false},
		{`"model_type":"qwen3_moe","num_experts":0`, 0, false, false},
		{`"model_type":"qwen2_moe","shared_expert_intermediate_size":128,"mlp_only_layers":[3]`, 1, false, true},
		{`"model_type":"qwen3_moe","decoder_sparse_step":0`, 0, true, false},
		{`"model_type":"qwen3_moe","mlp_only_layers":"3"`, 0, true, false},
		{`"model_type":"qwen3_moe","mlp_only_layers":[1.5]`, 0, true, false},
	} {
		a, err := ParseConfig([]byte("{" + base + "," + c.extra + "}"))
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err = %v, want error %v", c.extra, err, c.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if a.IsMoE() != c.moe || a.DenseLayers != c.dense {
			t.Errorf("%s: IsMoE %v DenseLayers %d, want %v %d", c.extra, a.IsMoE(), a.DenseLayers, c.moe, c.dense)
		}
	}
	// Qwen2-MoE per sparse layer by hand: attention with q/k/v biases
	// (q, o 64×64; k, v 64×32 for 2 KV heads of 16), 2 norms, router 64×4, 4 experts of 3·64·32,
	// shared expert 3·64·128 and its 64×1 gate.
	a, err := ParseConfig([]byte("{" + base + `,"model_type":"qwen2_moe","shared_expert_intermediate_size":128}`))
	if err != nil {
		t.Fatal(err)
	}
	attn := int64(2*64*64 + 2*64*32 + 64 + 2*32)
	layer := attn + 2*64 + 64*4 + 4*3*64*32 + 3*64*128 + 64
	active := attn + 2*64 + 64*4 + 2*3*64*32 + 3*64*128 + 64
	emb := int64(2*100*64 + 64)
	if a.Params() != emb+8*layer || a.ActiveParams() != emb+8*active {
		t.Errorf("qwen2_moe params %d/%d, want %d/%d", a.Params(), a.ActiveParams(), emb+8*layer, emb+8*active)
	}
}

// TestNewAttentionLayouts checks the layer layouts read from the new
// families and what one sequence keeps: gpt-oss alternates 128-token
// sliding layers with full ones, Llama 4 chunks 3 of 4 layers at 8192
// tokens, Qwen3-Next keeps KV in 1 of 4 layers and a fixed Gated DeltaNet
// state in the others, Gemma 3 has 5 local layers to 1 global.
func TestNewAttentionLayouts(t *testing.T) {
	read := func(f string) Arch {
		data, err := os.ReadFile(filepath.Join("testdata", "configs", f))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseConfig(data)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	const seq = 32768
	g := read("gpt-oss-20b.json")
	if g.SlidingLayers != 12 || g.SlidingWindow != 128 || !g.AttentionSinks || g.MXFP4Params != 19_110_297_600 {
		t.Errorf("gpt-oss-20b: sliding %d/%d sinks %v mxfp4 %d", g.SlidingLayers, g.SlidingWindow, g.AttentionSinks, g.MXFP4Params)
	}
	// 2·8 KV heads·64 = 1024 elements per token-layer; 12 full layers at
	// seq, 12 sliding layers at 128; bf16.
	if got, want := g.kvBytesPerSeq(seq, 16), 1024.0*2*(12*seq+12*128); got != want {
		t.Errorf("gpt-oss-20b KV per sequence %v, want %v", got, want)
	}
	if got, want := g.AttendedContext(seq), 12.0*seq+12*128; got != want {
		t.Errorf("gpt-oss-20b attended context %v, want %v", got, want)
	}
	// 19.11B MXFP4 expert weights at 4.25 bits + 1.80B others at 16 bits:
	// 10.15e9 + 3.61e9 bytes (the published checkpoint is about 13.8 GB).
	if got := g.CheckpointWeightBytes(16); math.Abs(got-(19_110_297_600*4.25/8+1_804_459_584*2)) > 1 {
		t.Errorf("gpt-oss-20b checkpoint bytes %v", got)
	}
	l := read("llama-4-scout.json")
	if l.ChunkedLayers != 36 || l.AttentionChunk != 8192 || l.Experts != 16 || l.SharedExperts != 1 || l.DenseLayers != 0 {
		t.Errorf("llama-4-scout: chunked %d/%d experts %d shared %d dense %d", l.ChunkedLayers, l.AttentionChunk, l.Experts, l.SharedExperts, l.DenseLayers)
	}
	if got, want := l.kvBytesPerSeq(seq, 16), 2048.0*2*(12*seq+36*8192); got != want {
		t.Errorf("llama-4-scout KV per sequence %v, want %v", got, want)
	}
	if m := read("llama-4-maverick.json"); m.DenseLayers != 24 || m.Intermediate != 16384 || m.MoEIntermediate != 8192 {
		t.Errorf("llama-4-maverick: dense %d of 48, widths %d/%d", m.DenseLayers, m.Intermediate, m.MoEIntermediate)
	}
	q := read("qwen3-next-80b-a3b.json")
	// conv_dim = 2·16·128 + 32·128 = 8192, ×(4−1); recurrent 32·128·128.
	if q.LinearAttnLayers != 36 || q.LinearStateElems != 8192*3+32*128*128 || q.KVCacheLayers() != 12 {
		t.Errorf("qwen3-next: linear %d, state %d, KV layers %d", q.LinearAttnLayers, q.LinearStateElems, q.KVCacheLayers())
	}
	if got, want := q.KVBytesPerToken(BF16), Bytes(12*2*2*256*2); got != want {
		t.Errorf("qwen3-next KV per token %d, want %d (12 full-attention layers)", got, want)
	}
	if got := q.AttendedContext(seq); got != 12*seq {
		t.Errorf("qwen3-next attended context %v, want %v (linear layers attend to nothing)", got, 12*seq)
	}
	if got, want := q.kvBytesPerSeq(seq, 16), 1024.0*2*12*seq+36*548864*2; got != want {
		t.Errorf("qwen3-next per sequence %v, want %v", got, want)
	}
	if gm := read("gemma-3-1b.json"); gm.SlidingLayers != 22 || gm.SlidingWindow != 512 {
		t.Errorf("gemma-3-1b: sliding %d/%d, want 22 of 26 at 512", gm.SlidingLayers, gm.SlidingWindow)
	}
	if glm := read("glm-4.5.json"); glm.MTPLayers != 1 || glm.MTPParams <= 0 || glm.DenseLayers != 3 {
		t.Errorf("glm-4.5: mtp %d (%d params), dense %d", glm.MTPLayers, glm.MTPParams, glm.DenseLayers)
	}
	// Qwen3.5 nests a qwen3_5_moe_text config (no intermediate_size) under
	// text_config; its layer_types mark the Gated DeltaNet layers.
	lt := strings.Repeat(`"linear_attention","linear_attention","linear_attention","full_attention",`, 4)
	q35, err := ParseConfig([]byte(`{"model_type":"qwen3_5_moe","text_config":{"model_type":"qwen3_5_moe_text",
		"hidden_size":256,"num_hidden_layers":16,"layer_types":[` + strings.TrimSuffix(lt, ",") + `],
		"num_attention_heads":4,"num_key_value_heads":2,"head_dim":64,"num_experts":8,"num_experts_per_tok":2,
		"moe_intermediate_size":64,"shared_expert_intermediate_size":64,"vocab_size":1000,
		"linear_num_key_heads":2,"linear_num_value_heads":4,"linear_key_head_dim":32,"linear_value_head_dim":32}}`))
	if err != nil {
		t.Fatal(err)
	}
	// conv_dim = 2·2·32 + 4·32 = 256, ×(4−1) (kernel default 4); recurrent 4·32·32.
	if q35.LinearAttnLayers != 12 || q35.KVCacheLayers() != 4 || q35.LinearStateElems != 256*3+4*32*32 || q35.Experts != 8 {
		t.Errorf("qwen3.5: linear %d, KV layers %d, state %d, experts %d", q35.LinearAttnLayers, q35.KVCacheLayers(), q35.LinearStateElems, q35.Experts)
	}
}

// TestMoreFamilies checks MiniMax-M2 (full-width q/k norms, biased sigmoid
// router), DeepSeek-V3.2's indexer and the Qwen VLM aliases by hand counts.
func TestMoreFamilies(t *testing.T) {
	// h 8, 1 layer, 2 heads of 4, 1 KV head, 2 experts of 4, vocab 10:
	// attention 64+32+32+64 + q/k norms 8+4, norms 16, experts 2·3·8·4,
	// router 8·2+2; embedding 80 + head 80 + final norm 8.
	mm, err := ParseConfig([]byte(`{"model_type":"minimax_m2","hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,
		"num_key_value_heads":1,"head_dim":4,"intermediate_size":4,"num_local_experts":2,"num_experts_per_tok":1,"vocab_size":10,
		"use_qk_norm":true,"qk_norm_type":"per_layer","tie_word_embeddings":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(192 + 12 + 16 + 192 + 18 + 168); mm.Params() != want {
		t.Errorf("minimax_m2 tiny: %d params, want %d", mm.Params(), want)
	}
	v3, err := os.ReadFile(filepath.Join("testdata", "configs", "deepseek-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	a3, _ := ParseConfig(v3)
	v32 := strings.Replace(string(v3), `"model_type": "deepseek_v3"`, `"model_type": "deepseek_v32", "index_n_heads": 64, "index_head_dim": 128`, 1)
	a32, err := ParseConfig([]byte(v32))
	if err != nil {
		t.Fatal(err)
	}
	// 61 layers × (1536·64·128 + 7168·128 + 7168·64 + 2·128).
	if got, want := a32.Params()-a3.Params(), int64(61*(1536*64*128+7168*128+7168*64+2*128)); got != want {
		t.Errorf("deepseek_v32 indexer adds %d params, want %d", got, want)
	}
	vl, err := ParseConfig([]byte(`{"model_type":"qwen2_5_vl","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
		"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"vision_config":{"depth":2,"hidden_size":32,"intermediate_size":64,"patch_size":14}}`))
	if err != nil {
		t.Fatal(err)
	}
	txt, _ := ParseConfig([]byte(`{"model_type":"qwen2","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
		"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100}`))
	if vl.ModelType != "qwen2_5_vl" || vl.VisionParams <= 0 || vl.Params() != txt.Params()+vl.VisionParams {
		t.Errorf("qwen2_5_vl: type %s, vision %d, total %d (text %d)", vl.ModelType, vl.VisionParams, vl.Params(), txt.Params())
	}
}

// A VLM's vision tower and projector are counted apart from its text model,
// as the families build them: Gemma 3's SigLIP tower (no class token, no
// pooling head with vision_use_head false) and its one-matrix projector;
// LLaVA's CLIP tower and two-layer projector. --text-only leaves them out.
func TestVisionTowersApart(t *testing.T) {
	g := loadArch(t, "gemma-3-27b.json")
	// Gemma 3 technical report (arXiv:2503.19786) Table 1, 27B: vision
	// encoder 417M, embedding parameters 1,416M (the 262,208 × 5376 token
	// embedding and the 6.19M projector), non-embedding 25,600M; in 1M
	// steps.
	const projector = 1152*5376 + 1152
	tower := g.VisionParams - projector
	emb := int64(262_208)*5376 + projector
	rest := g.TotalParams - tower - emb
	for _, c := range []struct {
		name      string
		got, want int64
	}{{"vision encoder", tower, 417_000_000}, {"embedding", emb, 1_416_000_000}, {"non-embedding", rest, 25_600_000_000}} {
		if d := c.got - c.want; d < -500_000 || d > 500_000 {
			t.Errorf("gemma-3-27b %s: %d, report %d (±0.5M)", c.name, c.got, c.want)
		}
	}
	if g.Vocab != 262_208 {
		t.Fatalf("gemma-3-27b vocab %d, want 262208", g.Vocab)
	}
	// LLaVA-1.5: CLIP ViT-L/14 at 336 px, 303.5M (transformers'
	// CLIPVisionModel: 24 blocks, class embedding, 577 positions, pre and
	// post LayerNorm, unbiased patch convolution) + mlp2x projector
	// 1024×4096 + 4096×4096 with biases.
	l := loadArch(t, "llava-1.5-7b-hf.json")
	const clip = 24*(4*(1024*1024+1024)+2*1024*4096+4096+1024+4*1024) + 3*14*14*1024 + 1024 + 577*1024 + 4*1024
	if want := int64(clip + 1024*4096 + 4096 + 4096*4096 + 4096); l.VisionParams != want {
		t.Errorf("llava vision %d, want %d", l.VisionParams, want)
	}

	in := DefaultInput(g)
	full := mustEstimate(t, in)
	in.TextOnly = true
	text := mustEstimate(t, in)
	if d := full.PerGPU.Weights - text.PerGPU.Weights; d != Bytes(2*g.VisionParams) || full.VisionParams != g.VisionParams {
		t.Errorf("text-only weights %d B below the whole model's, want %d (2 B × %d)", d, 2*g.VisionParams, g.VisionParams)
	}
	// Gemma 3's and LLaVA's towers are counted exactly: no "approximate"
	// warning; Llama 4's tower is counted like CLIP, approximately, and
	// says so unless it is left out.
	if text.Warnings.Has(WarnVisionApprox) || full.Warnings.Has(WarnVisionApprox) || !g.VisionExact || !l.VisionExact {
		t.Errorf("vision warning on exact towers: whole %v, text-only %v", full.Warnings.Has(WarnVisionApprox), text.Warnings.Has(WarnVisionApprox))
	}
	scout := loadArch(t, "llama-4-scout.json")
	si := DefaultInput(scout)
	if scout.VisionParams == 0 || scout.VisionExact || !mustEstimate(t, si).Warnings.Has(WarnVisionApprox) {
		t.Errorf("llama-4-scout: vision %d, exact %v: want an approximate tower, said", scout.VisionParams, scout.VisionExact)
	}
	si.TextOnly = true
	if mustEstimate(t, si).Warnings.Has(WarnVisionApprox) {
		t.Error("llama-4-scout text only: the tower's warning remains")
	}
	in.Task = FullFinetune
	if r := mustEstimate(t, in); r.TrainableParams != g.TotalParams-g.VisionParams {
		t.Errorf("text-only fine-tune trains %d, want %d", r.TrainableParams, g.TotalParams-g.VisionParams)
	}
	txt := loadArch(t, "llama-3.1-8b.json")
	a, b := DefaultInput(txt), DefaultInput(txt)
	b.TextOnly = true
	if mustEstimate(t, a).PerGPU != mustEstimate(t, b).PerGPU {
		t.Error("text-only changes a text model's estimate")
	}
}
