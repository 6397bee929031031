package estimator

import "testing"

// TestSupportFor holds the table to the engines' documented limits, one
// row per source statement.
func TestSupportFor(t *testing.T) {
	for _, c := range []struct {
		name string
		g    Generation
		e    Engine
		t    Task
		w    DType
		want Support
	}{
		// vLLM refuses bf16 below compute capability 8.0: fp16 runs.
		{"vllm bf16 Turing", GenTuring, VLLM, Inference, BF16, Support{true, FP16, SupportNoBF16}},
		{"vllm bf16 Volta", GenVolta, VLLM, Inference, BF16, Support{true, FP16, SupportNoBF16}},
		{"vllm bf16 Ampere", GenAmpere, VLLM, Inference, BF16, Support{true, BF16, SupportOK}},
		{"vllm bf16 MI300", GenCDNA3, VLLM, Inference, BF16, Support{true, BF16, SupportOK}},
		// vLLM needs compute capability 7.0: no Pascal.
		{"vllm Pascal", GenPascal, VLLM, Inference, FP16, Support{false, FP16, SupportNoEngine}},
		{"llama.cpp Pascal", GenPascal, LlamaCpp, Inference, INT4, Support{true, INT4, SupportOK}},
		{"hf Pascal", GenPascal, HF, Inference, FP16, Support{true, FP16, SupportOK}},
		// SGLang from sm75; TensorRT-LLM from Ampere, NVIDIA only.
		{"sglang Volta", GenVolta, SGLang, Inference, FP16, Support{false, FP16, SupportNoEngine}},
		{"sglang Turing fp16", GenTuring, SGLang, Inference, FP16, Support{true, FP16, SupportOK}},
		{"trtllm Turing", GenTuring, TRTLLM, Inference, FP16, Support{false, FP16, SupportNoEngine}},
		{"trtllm MI300", GenCDNA3, TRTLLM, Inference, BF16, Support{false, BF16, SupportNoEngine}},
		{"sglang MI250", GenCDNA2, SGLang, Inference, BF16, Support{false, BF16, SupportNoEngine}},
		{"llama.cpp Gaudi", GenGaudi, LlamaCpp, Inference, BF16, Support{false, BF16, SupportNoEngine}},
		// FP8: W8A16 Marlin from Turing in vLLM; nothing on Volta; TRT-LLM from Ada.
		{"vllm fp8 Volta", GenVolta, VLLM, Inference, FP8, Support{true, FP16, SupportNoFormat}},
		{"vllm fp8 Turing", GenTuring, VLLM, Inference, FP8, Support{true, FP8, SupportOK}},
		{"vllm fp8 Ampere", GenAmpere, VLLM, Inference, FP8, Support{true, FP8, SupportOK}},
		{"vllm fp8 MI250", GenCDNA2, VLLM, Inference, FP8, Support{true, BF16, SupportNoFormat}},
		{"trtllm fp8 Ampere", GenAmpere, TRTLLM, Inference, FP8, Support{true, BF16, SupportNoFormat}},
		{"trtllm fp8 Ada", GenAda, TRTLLM, Inference, FP8, Support{true, FP8, SupportOK}},
		// INT8 W8A8 from Turing, not on AMD; GPTQ from Volta, not on AMD.
		{"vllm int8 Volta", GenVolta, VLLM, Inference, INT8, Support{true, FP16, SupportNoFormat}},
		{"vllm int8 MI300", GenCDNA3, VLLM, Inference, INT8, Support{true, BF16, SupportNoFormat}},
		{"vllm int4 Volta", GenVolta, VLLM, Inference, INT4, Support{true, INT4, SupportOK}},
		{"vllm int4 MI300", GenCDNA3, VLLM, Inference, INT4, Support{true, BF16, SupportNoFormat}},
		{"trtllm fp4 Ampere", GenAmpere, TRTLLM, Inference, FP4, Support{true, BF16, SupportNoFormat}},
		{"trtllm fp4 Blackwell", GenBlackwell, TRTLLM, Inference, FP4, Support{true, FP4, SupportOK}},
		// Training: fp16 mixed precision before Ampere; FP8 (Transformer Engine) from Ada.
		{"train bf16 V100", GenVolta, HF, FullFinetune, BF16, Support{true, FP16, SupportNoBF16}},
		{"train fp8 A100", GenAmpere, HF, Pretrain, FP8, Support{true, BF16, SupportNoFormat}},
		{"train fp8 H100", GenHopper, HF, Pretrain, FP8, Support{true, FP8, SupportOK}},
		{"train on Pascal", GenPascal, VLLM, LoRA, FP16, Support{true, FP16, SupportOK}},
		// A generation the table does not know runs as asked.
		{"unknown", GenUnknown, TRTLLM, Inference, FP8, Support{true, FP8, SupportOK}},
	} {
		if got := SupportFor(c.g, c.e, c.t, c.w); got != c.want {
			t.Errorf("%s: SupportFor(%v, %v, %v, %v) = %+v, want %+v", c.name, c.g, c.e, c.t, c.w, got, c.want)
		}
	}
}

// TestSupportSubstitutesRun: whatever the table substitutes runs on that
// GPU under that engine, as asked (a substitute never needs another).
func TestSupportSubstitutesRun(t *testing.T) {
	for g := GenUnknown; g <= GenGaudi; g++ {
		for _, e := range Engines {
			for _, task := range Tasks {
				for _, w := range DTypes {
					s := SupportFor(g, e, task, w)
					if !s.Runs {
						continue
					}
					if again := SupportFor(g, e, task, s.Weights); again.Weights != s.Weights || again.Why != SupportOK && s.Weights != w {
						t.Errorf("%v %v %v %v → %v, which itself gives %+v", g, e, task, w, s.Weights, again)
					}
					if s.Weights != w && s.Weights.BitsPerElement() < w.BitsPerElement() {
						t.Errorf("%v %v %v %v: substitute %v is narrower", g, e, task, w, s.Weights)
					}
				}
			}
		}
	}
}

// TestSupportForJob: TensorRT-LLM runs FP4 on Hopper only for gpt-oss's
// MXFP4 experts; an NVFP4 model there runs bf16, on Blackwell FP4, and
// vLLM's FP4 Marlin is not affected.
func TestSupportForJob(t *testing.T) {
	nvfp4 := Input{Engine: TRTLLM, Task: Inference, Weights: FP4}
	mxfp4 := nvfp4
	mxfp4.Arch.MXFP4Params = 1 << 30
	vllm := nvfp4
	vllm.Engine = VLLM
	vllmMX := mxfp4
	vllmMX.Engine = VLLM
	sglangMX := mxfp4
	sglangMX.Engine = SGLang
	vllmMXTrain := vllmMX
	vllmMXTrain.Task = LoRA
	gemma := Input{Engine: VLLM, Task: Inference, Weights: BF16}
	gemma.Arch.ModelType = "gemma3_text"
	gemma2, gemmaFP16, gemmaINT4, gemmaSGLang, gemmaLoRA, llama := gemma, gemma, gemma, gemma, gemma, gemma
	gemma2.Arch.ModelType, llama.Arch.ModelType = "gemma2", "llama"
	gemmaFP16.Weights, gemmaINT4.Weights, gemmaSGLang.Engine, gemmaLoRA.Task = FP16, INT4, SGLang, LoRA
	gemmaFP8, gemmaINT4SGLang, llamaINT4 := gemmaINT4, gemmaINT4, llama
	gemmaFP8.Weights, gemmaINT4SGLang.Engine, llamaINT4.Weights = FP8, SGLang, INT4
	// A V100 runs vLLM 0.19 or earlier (vLLMWithoutVolta): the Volta rows
	// of the model and format rules name such a release.
	old := EngineVersion{0, 19, 1}
	vllmMXOld, gemma2Old, gemmaINT4Old := vllmMX, gemma2, gemmaINT4
	vllmMXOld.EngineVersion, gemma2Old.EngineVersion, gemmaINT4Old.EngineVersion = old, old, old
	llamaOld, llama20 := llama, llama
	llamaOld.EngineVersion, llama20.EngineVersion = old, EngineVersion{0, 20, 0}
	llamaTrain := llama
	llamaTrain.Task = LoRA
	for _, c := range []struct {
		name string
		g    Generation
		in   Input
		want Support
	}{
		{"trtllm nvfp4 Hopper", GenHopper, nvfp4, Support{true, BF16, SupportNoFormat}},
		{"trtllm mxfp4 Hopper", GenHopper, mxfp4, Support{true, FP4, SupportOK}},
		{"trtllm nvfp4 Blackwell", GenBlackwell, nvfp4, Support{true, FP4, SupportOK}},
		{"trtllm nvfp4 Ada", GenAda, nvfp4, Support{true, BF16, SupportNoFormat}},
		{"vllm nvfp4 Hopper", GenHopper, vllm, Support{true, FP4, SupportOK}},
		{"vllm nvfp4 Turing", GenTuring, vllm, Support{true, FP4, SupportOK}},
		{"vllm mxfp4 Turing", GenTuring, vllmMX, Support{true, FP16, SupportNoFormat}},
		{"sglang mxfp4 Turing", GenTuring, sglangMX, Support{true, FP16, SupportNoFormat}},
		{"vllm 0.19 mxfp4 Volta", GenVolta, vllmMXOld, Support{true, FP16, SupportNoFormat}},
		{"vllm mxfp4 Ampere", GenAmpere, vllmMX, Support{true, FP4, SupportOK}},
		{"vllm mxfp4 training Turing", GenTuring, vllmMXTrain, Support{true, FP4, SupportOK}},
		// vLLM refuses fp16 for Gemma 2/3 (_FLOAT16_NOT_SUPPORTED_MODELS):
		// fp32 where the GPU has no bf16, bf16 where fp16 was asked.
		{"vllm gemma3 bf16 Turing", GenTuring, gemma, Support{true, FP32, SupportNoFP16Model}},
		{"vllm 0.19 gemma2 bf16 Volta", GenVolta, gemma2Old, Support{true, FP32, SupportNoFP16Model}},
		{"vllm gemma3 fp16 Ampere", GenAmpere, gemmaFP16, Support{true, BF16, SupportNoFP16Model}},
		{"vllm gemma3 bf16 Ampere", GenAmpere, gemma, Support{true, BF16, SupportOK}},
		// vLLM's int4 and fp8 kernels take fp16 or bf16 activations, and
		// it refuses fp16 for Gemma 2/3: without bf16 the quantised model
		// does not start; fp32 weights do.
		{"vllm gemma3 int4 Turing", GenTuring, gemmaINT4, Support{true, FP32, SupportNoQuantModel}},
		{"vllm 0.19 gemma3 int4 Volta", GenVolta, gemmaINT4Old, Support{true, FP32, SupportNoQuantModel}},
		{"vllm gemma3 fp8 Turing", GenTuring, gemmaFP8, Support{true, FP32, SupportNoQuantModel}},
		{"vllm gemma3 int4 Ampere", GenAmpere, gemmaINT4, Support{true, INT4, SupportOK}},
		{"sglang gemma3 int4 Turing", GenTuring, gemmaINT4SGLang, Support{true, INT4, SupportOK}},
		{"vllm llama int4 Turing", GenTuring, llamaINT4, Support{true, INT4, SupportOK}},
		{"vllm llama bf16 Turing", GenTuring, llama, Support{true, FP16, SupportNoBF16}},
		{"sglang gemma3 bf16 Turing", GenTuring, gemmaSGLang, Support{true, FP16, SupportNoBF16}},
		{"gemma3 LoRA Turing", GenTuring, gemmaLoRA, Support{true, FP16, SupportNoBF16}},
		// vLLM's releases from 0.20.0 ship no Volta kernels: the current
		// release (the zero EngineVersion) and 0.20.0 do not start on a
		// V100, 0.19.1 does (fp16); training there is not vLLM's.
		{"vllm current Volta", GenVolta, llama, Support{false, BF16, SupportNoEngineRelease}},
		{"vllm 0.20.0 Volta", GenVolta, llama20, Support{false, BF16, SupportNoEngineRelease}},
		{"vllm 0.19.1 Volta", GenVolta, llamaOld, Support{true, FP16, SupportNoBF16}},
		{"vllm current Turing", GenTuring, llama, Support{true, FP16, SupportNoBF16}},
		{"LoRA on a V100", GenVolta, llamaTrain, Support{true, FP16, SupportNoBF16}},
	} {
		if got := SupportForJob(c.g, c.in); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestSupportCause holds the one phrasing of why a job does not run as
// asked (the launch's and the CLI's notes both read it): each verdict its
// own words, naming the engine, the generation and the model family
// where they are the cause, and nothing where the job runs as asked.
func TestSupportCause(t *testing.T) {
	gemma := Input{Engine: VLLM, Task: Inference, Weights: BF16}
	gemma.Arch.ModelType = "gemma2"
	gemmaINT4 := gemma
	gemmaINT4.Weights = INT4
	fp8Train := Input{Engine: HF, Task: Pretrain, Weights: FP8}
	trt := Input{Engine: TRTLLM, Task: Inference, Weights: BF16}
	for _, c := range []struct {
		name      string
		g         Generation
		in        Input
		want      string
		replanned bool
	}{
		{"runs as asked", GenHopper, gemma, "", false},
		{"no engine", GenTuring, trt, "trtllm does not start on Turing GPUs", false},
		{"no bf16", GenTuring, Input{Engine: VLLM, Task: Inference, Weights: BF16}, "bf16 does not run on Turing GPUs", false},
		{"no fp8 training kernel", GenAmpere, fp8Train, "fp8 has no kernel in training (Transformer Engine) on Ampere GPUs", true},
		{"fp16 refused, no bf16", GenTuring, gemma, "vllm refuses fp16 for gemma2 models (numerical instability), and Turing GPUs have no bf16", true},
		{"quantised refused", GenTuring, gemmaINT4, "int4 kernels run fp16 activations, which vllm refuses for gemma2 models, and Turing GPUs have no bf16", true},
		{"release without the GPU's kernels", GenVolta, gemma, "vllm 0.33.0 does not start on Volta GPUs: its releases from 0.20.0 are built without their kernels (CUDA 13 and PyTorch 2.11); an --engine-version before 0.20.0 runs there", false},
	} {
		s := SupportForJob(c.g, c.in)
		if got := s.Cause(c.g, c.in); got != c.want {
			t.Errorf("%s: Cause = %q, want %q", c.name, got, c.want)
		}
		if s.Replanned() != c.replanned {
			t.Errorf("%s: Replanned = %v, want %v (%+v)", c.name, s.Replanned(), c.replanned, s)
		}
	}
}

// TestFirstReleaseWithoutIsVLLMOnVolta: the one release gate the table
// holds is vLLM's on Volta, 0.20.0; the page's warning for it
// (app/page MsgHWEngineRelease) names that engine, GPU and release, so a
// second gate needs its own words there.
func TestFirstReleaseWithoutIsVLLMOnVolta(t *testing.T) {
	for e := range Engine(len(engineGens)) {
		for g := GenUnknown; g <= GenGaudi; g++ {
			v := FirstReleaseWithout(e, g)
			if want := (e == VLLM && g == GenVolta); v.IsZero() == want {
				t.Errorf("%v on %v: %v", e, g, v)
			}
		}
	}
	if v := FirstReleaseWithout(VLLM, GenVolta); v != (EngineVersion{0, 20, 0}) {
		t.Errorf("vLLM on Volta: %v, want 0.20.0", v)
	}
}
