package estimator

// What runs where: one table of which engine starts on which GPU
// generation and which weight formats it has kernels for there. The
// planner never ranks a plan the table says would not start, the
// estimate and the launch settings run the format the table gives
// (fp16 where a GPU has no bf16, 16-bit where a format has no kernel),
// and the page and the CLI say so next to the figure.
//
// Sources, each read 2026-11:
//   - vLLM, "GPU installation": compute capability 7.0 or higher (V100,
//     T4, RTX 20xx and newer); "Installation with ROCm": MI200 (gfx90a),
//     MI300 (gfx942), MI350 (gfx950); Intel Gaudi through the vllm-gaudi
//     plugin.
//   - vLLM, "Quantization: supported hardware" (docs.vllm.ai/quantization,
//     Volta = SM 7.0, Turing 7.5, Ampere 8.0/8.6, Ada 8.9, Hopper 9.0):
//     GPTQ on Volta and newer; AWQ and INT8 W8A8 on Turing and newer;
//     Marlin (GPTQ/AWQ/FP8/FP4 weight-only) on Turing and newer; FP8 W8A8
//     on Ada, Hopper and AMD; on AMD neither AWQ, GPTQ nor INT8 W8A8.
//     "FP8 W8A8": FP8 models run as weight-only W8A16 (FP8 Marlin) on
//     compute capability ≥ 7.5.
//   - vLLM's CUDA platform (vllm/platforms/cuda.py, check_if_supports_dtype):
//     "Bfloat16 is only supported on GPUs with compute capability of at
//     least 8.0"; --dtype float16 runs instead.
//   - SGLang, "Quick start": an NVIDIA GPU of sm75 and above (T4, A10,
//     A100, L4, L40S, H100); "AMD GPUs": MI300X, MI325X, MI355X.
//   - TensorRT-LLM, "Supported hardware": Blackwell, Hopper, Ada
//     Lovelace, Ampere (A100); "Support matrix" (0.18): FP8 on Ada and
//     Hopper (and Blackwell), not on Ampere; INT8 and INT4 on all three.
//   - NVIDIA Transformer Engine, "Installation": FP8 training needs
//     Hopper, Ada or Blackwell (ROCm TransformerEngine: MI300 and newer).
//   - Hugging Face transformers, TrainingArguments: bf16 "requires
//     Ampere or higher"; fp16 mixed precision is the pre-Ampere recipe.
//   - llama.cpp, "Build: CUDA" and "HIP": every CUDA GPU this catalog
//     lists and ROCm GPUs; no Gaudi back-end.
//
// Releases: the table is the current releases'. Where a release matters
// for what starts, it is noted: vLLM's V1 engine runs compute capability
// below 8.0 (fp16 and fp32) since v0.10.2 (vLLM PRs #23614 and #24022);
// the releases before fell back to the V0 engine there, so every vLLM
// release on Turing starts, at V0's speed before v0.10.2 (the speed
// model's per-release host cost, perf_engine_version.go). On Volta the
// releases from vLLMWithoutVolta on do not start: their wheels and images
// ship no sm70 kernels (SupportNoEngineRelease). The attention kernel
// (FlashAttention on Ampere and newer, Triton or FlexAttention below)
// changes speed, not what starts, and is the speed model's.
//
// A generation the table does not know (GenUnknown) is assumed to run
// everything: the catalog gives every GPU a generation, so this is only a
// custom GPU's case.

// SupportWhy says why a plan runs something other than what was asked.
type SupportWhy int

const (
	SupportOK       SupportWhy = iota // runs as asked
	SupportNoEngine                   // the engine does not start on this GPU generation
	SupportNoBF16                     // no bf16 on this GPU: fp16 runs, same bytes
	SupportNoFormat                   // the weight format has no kernel here: 16-bit runs
	// SupportNoFP16Model: vLLM refuses fp16 for this model family
	// (fp16Refused): bf16 runs, or fp32 on a GPU without bf16.
	SupportNoFP16Model
	// SupportNoQuantModel: vLLM runs no quantised weights of this model
	// family on a GPU without bf16 (quantRefused): fp32 weights run, from
	// the unquantised checkpoint.
	SupportNoQuantModel
	// SupportNoEngineRelease: the engine's release is built without this
	// generation's kernels, though earlier releases ran there (vLLM from
	// vLLMWithoutVolta on a V100).
	SupportNoEngineRelease
)

// vLLMWithoutVolta is the first vLLM release that does not start on a
// Volta GPU (V100, compute capability 7.0). vLLM PR #39878 ("Switch
// default CUDA to 13.0, update CUDA architecture lists", opened
// 2026-04-15, merged) makes CUDA 13.0 the default wheel and image and
// keeps CUDA 12.9 as a variant, both on PyTorch 2.11, following its
// architecture lists; PyTorch 2.11's CUDA 12.8+ and 13.0 binaries start at
// Turing (7.5), Volta only in the CUDA 12.6 build ("Dropping Volta
// support from CUDA-12.8 binaries for release 2.11", PyTorch developer
// forum, 2026-01-15), and CUDA 13's compiler has no target below sm_75. A
// report on that pull request (2026-04-18) shows a main build, 0.19.1rc1
// dev391, failing on a V100 with "CUDA error: no kernel image is
// available for execution on the device"; vLLM 0.21.0's wheels are cu129
// and cu130 only (vllm-project/vllm issue #42756, 2026-05-15). The release
// is the first cut from main after that build, 0.20.0: inferred from the
// dev build's number, the release notes not read. A V100 runs vLLM 0.19
// or earlier (or a source build against CUDA 12.6).
var vLLMWithoutVolta = EngineVersion{0, 20, 0}

// EngineRelease is in's engine release, the current one where the job
// names none.
func EngineRelease(in Input) EngineVersion {
	if in.EngineVersion.IsZero() {
		return CurrentEngineVersion(in.Engine)
	}
	return in.EngineVersion
}

// FirstReleaseWithout is the first release of engine e built without
// generation g's kernels, where an earlier one ran there (vLLM on Volta:
// vLLMWithoutVolta); the zero value where none is known.
func FirstReleaseWithout(e Engine, g Generation) EngineVersion {
	if e == VLLM && g == GenVolta {
		return vLLMWithoutVolta
	}
	return EngineVersion{}
}

// Support is the table's verdict for one GPU generation, engine, task and
// weight format.
type Support struct {
	Runs    bool  // false: the engine does not start on this generation
	Weights DType // the weights the plan runs: the asked format or its substitute
	Why     SupportWhy
}

// Substituted reports whether the plan runs other weights than asked.
func (s Support) Substituted() bool { return s.Runs && s.Why != SupportOK }

// Replanned reports whether the weights that run differ in memory and
// speed from the asked ones, so that a plan is made whole with them: a
// format with no kernel, or a model family the engine refuses in fp16
// (bf16 for fp16, SupportNoBF16, is the same bytes and speed, except in
// mixed-precision pre-training: ReplannedFor).
func (s Support) Replanned() bool {
	return s.Runs && (s.Why == SupportNoFormat || s.Why == SupportNoFP16Model || s.Why == SupportNoQuantModel)
}

// ReplannedFor is Replanned for job in: fp16 that runs for bf16
// (SupportNoBF16) is replanned too where the job times them apart, in
// mixed-precision pre-training, whose bf16 gradients reduce in fp32 and
// fp16 ones in fp16 (gradReduceElem): a plan that runs fp16 is timed as
// the fp16 job it runs.
func (s Support) ReplannedFor(in Input) bool {
	return s.Replanned() || s.Runs && s.Why == SupportNoBF16 && gradReduceElem(in, 2) != gradReduceElem(Input{Task: in.Task, PureBF16: in.PureBF16, Weights: FP16}, 2)
}

// Cause is why the job in does not run as asked on generation g, in
// words ("" where it does): the one phrasing the launch's note and the
// CLI estimate's note build on (the page says it from the planner's
// reason keys, in each of its languages).
func (s Support) Cause(g Generation, in Input) string {
	eng, gpus := in.Engine.String(), g.String()+" GPUs"
	switch s.Why {
	case SupportNoEngine:
		return eng + " does not start on " + gpus
	case SupportNoBF16:
		return "bf16 does not run on " + gpus
	case SupportNoFormat:
		stack := eng
		if in.Task.Training() {
			stack = "training (Transformer Engine)"
		}
		return in.Weights.String() + " has no kernel in " + stack + " on " + gpus
	case SupportNoFP16Model:
		why := eng + " refuses fp16 for " + in.Arch.ModelType + " models (numerical instability)"
		if s.Weights == FP32 {
			why += ", and " + gpus + " have no bf16"
		}
		return why
	case SupportNoQuantModel:
		return in.Weights.String() + " kernels run fp16 activations, which " + eng + " refuses for " + in.Arch.ModelType +
			" models, and " + gpus + " have no bf16"
	case SupportNoEngineRelease:
		first := FirstReleaseWithout(in.Engine, g).String()
		return eng + " " + EngineRelease(in).String() + " does not start on " + gpus + ": its releases from " + first +
			" are built without their kernels (CUDA 13 and PyTorch 2.11); an --engine-version before " + first + " runs there"
	}
	return ""
}

// gens is a set of generations.
type gens uint32

func genSet(g ...Generation) gens {
	var s gens
	for _, x := range g {
		s |= 1 << uint(x)
	}
	return s
}

func (s gens) has(g Generation) bool { return s&(1<<uint(g)) != 0 }

var (
	nvFrom = func(g Generation) gens { // NVIDIA generations from g on
		var s gens
		for x := g; x <= GenBlackwell; x++ {
			s |= 1 << uint(x)
		}
		return s
	}
	amd      = genSet(GenCDNA2, GenCDNA3, GenCDNA4)
	allGens  = nvFrom(GenPascal) | amd | genSet(GenGaudi)
	bf16Gens = nvFrom(GenAmpere) | amd | genSet(GenGaudi)
)

// engineGens is where each engine starts (the sources above).
var engineGens = [...]gens{
	HF:       allGens,
	VLLM:     nvFrom(GenVolta) | amd | genSet(GenGaudi),
	SGLang:   nvFrom(GenTuring) | genSet(GenCDNA3, GenCDNA4),
	TRTLLM:   nvFrom(GenAmpere),
	LlamaCpp: nvFrom(GenPascal) | amd,
}

// SupportForJob is SupportFor for the job in on generation g, with what
// the format alone does not tell: the job's engine release (vLLM from
// vLLMWithoutVolta does not start on Volta); TensorRT-LLM runs FP4 weights on Hopper
// only as gpt-oss's MXFP4 experts (Arch.MXFP4Params; BF16 activations
// over MXFP4 MoE weights, the TRITON MoE back-end: "Deployment Guide for
// GPT-OSS on TensorRT-LLM", MoE backend support matrix, TensorRT-LLM
// 1.4.0rc4 docs), while an NVFP4 checkpoint needs Blackwell (Model
// Optimizer's support matrix: FP4 per-block weights and activations,
// "GPUs: Blackwell and Later"), so such a model runs 16-bit there. vLLM and SGLang, whose FP4
// Marlin kernels run from Turing, load gpt-oss's MXFP4 checkpoint only
// from compute capability 8.0: Mxfp4Config.get_min_capability returns 80
// in vLLM (vllm/model_executor/layers/quantization/mxfp4.py, whose
// get_supported_act_dtypes is bfloat16 alone) and in SGLang
// (python/sglang/srt/layers/quantization/mxfp4.py), read 2026-11-29; on
// Turing the model runs 16-bit (fp16, from a 16-bit copy of the
// checkpoint), as on Volta, where the table has no FP4 at all.
func SupportForJob(g Generation, in Input) Support {
	s := SupportFor(g, in.Engine, in.Task, in.Weights)
	if first := FirstReleaseWithout(in.Engine, g); s.Runs && !first.IsZero() && !in.Task.Training() && !EngineRelease(in).Less(first) {
		return Support{Weights: in.Weights, Why: SupportNoEngineRelease}
	}
	if s.Runs && s.Weights == FP16 && in.Engine == VLLM && !in.Task.Training() && fp16Refused(in.Arch.ModelType) {
		s.Weights, s.Why = FP32, SupportNoFP16Model
		if bf16Gens.has(g) || g == GenUnknown {
			s.Weights = BF16 // fp16 asked where bf16 runs: same memory
		}
	}
	if quantRefused(g, in, s) {
		s.Weights, s.Why = FP32, SupportNoQuantModel
	}
	if !s.Runs || s.Weights != FP4 || in.Task.Training() {
		return s
	}
	switch {
	case in.Engine == TRTLLM && g == GenHopper && in.Arch.MXFP4Params == 0:
		s.Weights, s.Why = BF16, SupportNoFormat
	case (in.Engine == VLLM || in.Engine == SGLang) && g == GenTuring && in.Arch.MXFP4Params > 0:
		s.Weights, s.Why = FP16, SupportNoFormat
	}
	return s
}

// fp16Refused reports whether vLLM refuses to run a model of the config's
// model_type in fp16: vllm/config/model.py, _FLOAT16_NOT_SUPPORTED_MODELS
// (gemma2, gemma3, gemma3_text, plamo2, glm4: "Numerical instability.
// Please use bfloat16 or float32 instead."). _check_valid_dtype raises it
// as a ValueError at start-up for --dtype float16, and _resolve_auto_dtype
// leaves float16 out of the dtypes --dtype auto may take, so on a GPU
// without bf16 (Volta, Turing) such a model runs in float32: twice the
// weights' memory, at the GPU's fp32 rate (vLLM main, read 2026-11-30).
// SupportForJob plans vLLM so, and the launch writes the dtype that runs.
// SGLang's _get_and_verify_dtype (python/sglang/srt/configs/model_config.py,
// read 2026-11-30) has no such list: it starts such a model in fp16.
func fp16Refused(modelType string) bool {
	switch modelType {
	case "gemma2", "gemma3", "gemma3_text", "plamo2", "glm4":
		return true
	}
	return false
}

// quantRefused reports whether vLLM stops at start-up on quantised
// weights s of the job in on generation g: a model it refuses in fp16
// (fp16Refused) on a GPU without bf16 (Volta, Turing). vLLM checks the
// model's dtype against the quantisation method's activation dtypes
// (VllmConfig._get_quantization_config, vllm/config/vllm.py at
// vllm-project/vllm 000fc94b754f: "… is not supported for quantization
// method …"); those are fp16 alone for AWQ (awq.py at 000796acdf1e,
// get_supported_act_dtypes), fp16 and bf16 for GPTQ/AWQ Marlin
// (gptq_marlin.py at 00161ce01fe6) and FP8 (fp8.py at 0071b24bf8fe),
// never fp32, which is what vLLM resolves such a model to there, and
// --dtype float16 is refused for the model itself. SGLang, with no fp16
// refusal list, starts the quantised model in fp16 from Turing on; an
// Ampere or newer GPU runs it in bf16.
func quantRefused(g Generation, in Input, s Support) bool {
	if !s.Runs || in.Engine != VLLM || in.Task.Training() || !fp16Refused(in.Arch.ModelType) || bf16Gens.has(g) || g == GenUnknown {
		return false
	}
	switch s.Weights {
	case INT4, INT8, FP8, FP4:
		return true
	}
	return false
}

// formatGens is where a pooled engine (vLLM, SGLang, TensorRT-LLM) has
// kernels for a quantised weight format; a format missing here runs
// everywhere the engine does.
func formatGens(e Engine, w DType) (gens, bool) {
	switch e {
	case VLLM, SGLang:
		switch w {
		case FP8: // W8A8 on Ada+, W8A16 FP8 Marlin from Turing; AMD MI300+
			return nvFrom(GenTuring) | genSet(GenCDNA3, GenCDNA4, GenGaudi), true
		case INT8: // INT8 W8A8: Turing and newer, not AMD
			return nvFrom(GenTuring), true
		case INT4: // GPTQ from Volta (AWQ from Turing), not AMD
			return nvFrom(GenVolta), true
		case FP4: // Marlin FP4 weight-only from Turing, NVFP4 on Blackwell; MXFP4 on MI300+
			return nvFrom(GenTuring) | genSet(GenCDNA3, GenCDNA4), true
		}
	case TRTLLM:
		switch w {
		case FP8:
			return nvFrom(GenAda), true
		case FP4: // NVFP4 on Blackwell; MXFP4 (gpt-oss) on Hopper: SupportForJob
			return nvFrom(GenHopper), true
		}
	}
	return 0, false
}

// SupportFor looks up what runs for a job with weights w on generation g
// under engine e; training tasks run on the training stack (PyTorch with
// DeepSpeed or FSDP, Transformer Engine for fp8) whatever the engine.
func SupportFor(g Generation, e Engine, t Task, w DType) Support {
	s := Support{Runs: true, Weights: w}
	if g == GenUnknown || g < 0 || int(g) >= len(generationNames) {
		return s
	}
	sixteen := FP16
	if bf16Gens.has(g) {
		sixteen = BF16
	}
	if t.Training() {
		switch {
		case w == BF16 && !bf16Gens.has(g):
			s.Weights, s.Why = FP16, SupportNoBF16
		case w == FP8 && !(nvFrom(GenAda) | genSet(GenCDNA3, GenCDNA4)).has(g):
			s.Weights, s.Why = sixteen, SupportNoFormat
		}
		return s
	}
	if e < 0 || int(e) >= len(engineGens) || !engineGens[e].has(g) {
		return Support{Weights: w, Why: SupportNoEngine}
	}
	switch {
	case w == BF16 && !bf16Gens.has(g):
		s.Weights, s.Why = FP16, SupportNoBF16
	case e == HF && w == FP8 && !(nvFrom(GenAda) | genSet(GenCDNA3, GenCDNA4)).has(g):
		// transformers' fine-grained FP8 needs compute capability ≥ 8.9.
		s.Weights, s.Why = sixteen, SupportNoFormat
	default:
		if ok, known := formatGens(e, w); known && !ok.has(g) {
			s.Weights, s.Why = sixteen, SupportNoFormat
		}
	}
	return s
}
