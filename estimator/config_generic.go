package estimator

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
		a.LoRAQVDims = 4 * int64(a.Hidden) * int64(a.Layers) // q and v of those four
	}
	return a, nil
}
