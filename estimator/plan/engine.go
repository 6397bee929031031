package plan

import "rightsize/estimator"

// AutoEngineName is the engine's name for none given: the page's engine
// field on auto, rightsize --engine auto (the flag's default).
const AutoEngineName = "auto"

// AutoEngine is the engine a job runs on when its user names none (the
// page's engine on auto, rightsize without --engine: Request.EngineOpen),
// on a GPU of generation g (estimator.GenUnknown: any GPU), and the note
// that says why (empty where the job keeps its stack's own engine). The
// estimate at the user's GPU and the planner on each offer both ask it,
// so the memory and speed a job is shown and the picks it is planned on
// are one engine's:
//
//   - training runs on the PyTorch stack, HF transformers
//     (estimator.Input.Validate);
//   - GGUF weights run on llama.cpp, the one engine that reads them;
//   - HF transformers compiled (Input.Compiled) is the user's own stack;
//   - serving at a request rate means continuous batching: vLLM, whose
//     KV pool and admission the estimator models (PagedAttention, Kwon
//     et al., SOSP 2023; note.serving_engine);
//   - offline batch inference of a decoder runs on an engine with
//     continuous batching and a paged KV pool, vLLM's offline inference
//     (LLM.generate, "Offline Inference", vLLM docs), not HF generate's
//     static batches: vLLM, the engine --emit launches
//     (note.batch_engine), except on a GPU where vLLM does not run or
//     has no kernel for the job's format and HF transformers runs other
//     weights (estimator.SupportForJob), where the batch stays on HF
//     transformers (note.batch_hf_gpu, note.batch_hf_weights);
//   - a model that generates no tokens (an encoder such as BERT, a
//     fixed-input model such as ViT, whose inputs the estimator counts
//     as prompts: estimator.SampleLengths, or a rightsize-generic model
//     such as ResNet-50) has nothing to batch continuously: HF
//     transformers, PyTorch (note.batch_engine_encoder).
func AutoEngine(in estimator.Input, kind Kind, g estimator.Generation) (estimator.Engine, Reason) {
	switch {
	case kind == Training || in.Task.Training():
		return estimator.HF, Reason{}
	case in.Quant.GGUF():
		return estimator.LlamaCpp, Reason{}
	case in.Compiled:
		return estimator.HF, Reason{}
	case kind == Serving:
		return estimator.VLLM, Reason{Key: MsgNoteServingEngine}
	case !generates(in.Arch):
		return estimator.HF, Reason{Key: MsgNoteBatchEngineEncoder}
	}
	in.Engine = estimator.HF
	hf := estimator.SupportForJob(g, in)
	in.Engine = estimator.VLLM
	vllm := estimator.SupportForJob(g, in)
	switch {
	case !hf.Runs:
		// Neither runs the job here: the row says so as vLLM's.
	case !vllm.Runs:
		return estimator.HF, Reason{Key: MsgNoteBatchHFGPU, Args: []any{g.String()}}
	case vllm.Why == estimator.SupportNoQuantModel && hf.Weights == in.Weights:
		// vLLM has the format's kernels but refuses the model's dtype for
		// them here (estimator.quantRefused); transformers runs the
		// quantised model in fp16.
		return estimator.HF, Reason{Key: MsgNoteBatchHFQuantModel, Args: []any{in.Weights.String(), in.Arch.ModelType, g.String()}}
	case vllm.Weights != hf.Weights && vllm.Weights != in.Weights && vllm.Why != estimator.SupportNoFP16Model:
		// HF keeps the format vLLM has no kernel for (int8 on AMD). Where
		// vLLM runs the job's format and HF does not (fp8 on an A100:
		// vLLM's FP8 Marlin, transformers' fine-grained FP8 from compute
		// capability 8.9), vLLM runs it; and vLLM's fp32 for a model it
		// refuses in fp16 (Gemma 2/3 on a T4) stays: the refusal is for
		// the model's numerics in fp16, which HF's fp16 would run all the
		// same.
		return estimator.HF, Reason{Key: MsgNoteBatchHFWeights, Args: []any{in.Weights.String(), g.String()}}
	}
	return estimator.VLLM, Reason{Key: MsgNoteBatchEngine}
}

// generates reports whether a model generates tokens: not an encoder
// (BERT) nor a model of a fixed input length (ViT), whose inputs the
// estimator counts as prompts with no output (estimator.SampleLengths),
// nor a rightsize-generic model (ResNet-50, SDXL's UNet, FLUX.1: a
// parameter count with no attention layout, which no LLM engine loads).
func generates(a estimator.Arch) bool {
	return !a.Encoder && a.SeqLen == 0 && !a.Generic()
}
