package estimator

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Task is what the GPUs are used for.
type Task int

const (
	Inference    Task = iota // generation / forward passes only
	Pretrain                 // training from scratch: all weights trainable
	FullFinetune             // fine-tuning all weights (same memory as Pretrain)
	LoRA                     // low-rank adapters on a frozen 16-bit base (Hu et al. 2021)
	QLoRA                    // LoRA on a frozen NF4 base (Dettmers et al. 2023)
)

var taskNames = [...]string{Inference: "inference", Pretrain: "train", FullFinetune: "finetune", LoRA: "lora", QLoRA: "qlora"}

// Tasks lists every Task in display order.
var Tasks = []Task{Inference, Pretrain, FullFinetune, LoRA, QLoRA}

// String returns the CLI name ("inference", "train", "finetune", "lora", "qlora").
func (t Task) String() string { return enumName(taskNames[:], int(t), "Task") }

// taskAliases are the other names users write for a task: the guides'
// and the frameworks' words ("pretrain" is Megatron's and torchtitan's,
// "sft" TRL's and NeMo's for full supervised fine-tuning). Each reads as
// the task whose CLI name Task.String writes.
var taskAliases = map[string]Task{
	"pretrain": Pretrain, "pretraining": Pretrain, "pre-training": Pretrain, "pre-train": Pretrain, "training": Pretrain,
	"fine-tune": FullFinetune, "full-finetune": FullFinetune, "full-fine-tune": FullFinetune, "sft": FullFinetune,
}

// ParseTask reads a name written by Task.String, or one of its aliases
// (taskAliases), in any letter case.
func ParseTask(s string) (Task, error) {
	lower := strings.ToLower(s)
	if t, ok := taskAliases[lower]; ok {
		return t, nil
	}
	i, err := parseEnum(taskNames[:], lower, "task")
	var ie *InputError
	if errors.As(err, &ie) {
		ie.Value = s // the text as given
	}
	return Task(i), err
}

// Training reports whether t computes gradients.
func (t Task) Training() bool { return t != Inference }

// Engine is the software that runs the model; it decides how memory is
// allocated (vLLM, SGLang and TensorRT-LLM pre-allocate a KV pool,
// llama.cpp stores GGUF quants) and what each step costs on the host.
type Engine int

const (
	HF       Engine = iota // Hugging Face transformers / PyTorch (also the training stack)
	VLLM                   // vLLM serving with PagedAttention
	LlamaCpp               // llama.cpp / Ollama with GGUF weights
	SGLang                 // SGLang serving (RadixAttention KV pool; memory as vLLM's)
	TRTLLM                 // TensorRT-LLM serving (paged KV pool; memory as vLLM's)
)

var engineNames = [...]string{HF: "hf", VLLM: "vllm", LlamaCpp: "llamacpp", SGLang: "sglang", TRTLLM: "trtllm"}

// Engines lists every Engine in display order.
var Engines = []Engine{HF, VLLM, SGLang, TRTLLM, LlamaCpp}

// String returns the CLI name ("hf", "vllm", "llamacpp", "sglang", "trtllm").
func (e Engine) String() string { return enumName(engineNames[:], int(e), "Engine") }

// ParseEngine reads a name written by Engine.String.
func ParseEngine(s string) (Engine, error) {
	i, err := parseEnum(engineNames[:], s, "engine")
	return Engine(i), err
}

// Optimizer is the training optimizer; it sets the optimizer-state bytes.
type Optimizer int

const (
	AdamW       Optimizer = iota // two fp32 moments: 8 B/param (Loshchilov & Hutter 2019)
	AdamW8bit                    // bitsandbytes block-wise 8-bit moments: 2 B/param (Dettmers et al. 2022)
	SGD                          // plain SGD: no state
	SGDMomentum                  // one fp32 momentum buffer: 4 B/param
	Adafactor                    // factored second moment, no first moment (Shazeer & Stern 2018)
	// PagedAdamW and PagedAdamW8bit keep AdamW's states in CUDA unified
	// memory that pages out to the host under memory pressure
	// (bitsandbytes paged optimizers, Dettmers et al. 2023 §2): the GPU's
	// peak leaves them out (bitsandbytes benchmarking/README.md, A100,
	// Qwen3-0.6B: 0.5 MB and 18.6 MB of states on the GPU).
	PagedAdamW
	PagedAdamW8bit
)

var optimizerNames = [...]string{AdamW: "adamw", AdamW8bit: "adamw-8bit", SGD: "sgd", SGDMomentum: "sgd-momentum", Adafactor: "adafactor",
	PagedAdamW: "paged-adamw", PagedAdamW8bit: "paged-adamw-8bit"}

// Optimizers lists every Optimizer in display order.
var Optimizers = []Optimizer{AdamW, AdamW8bit, PagedAdamW, PagedAdamW8bit, SGD, SGDMomentum, Adafactor}

// Paged reports whether o's states live in host-backed unified memory.
func (o Optimizer) Paged() bool { return o == PagedAdamW || o == PagedAdamW8bit }

// String returns the CLI name ("adamw", "adamw-8bit", "paged-adamw", "paged-adamw-8bit", "sgd", "sgd-momentum", "adafactor").
func (o Optimizer) String() string { return enumName(optimizerNames[:], int(o), "Optimizer") }

// ParseOptimizer reads a name written by Optimizer.String.
func ParseOptimizer(s string) (Optimizer, error) {
	i, err := parseEnum(optimizerNames[:], s, "optimizer")
	return Optimizer(i), err
}

// OptimizerImpl is how AdamW's update runs over the parameters
// (--optimizer-impl); it decides whether the optimizer step allocates a
// temporary as large as one moment (optimizerStepAllocated).
type OptimizerImpl int

const (
	// OptimizerImplAuto: the stack's own (ResolveOptimizerImpl).
	OptimizerImplAuto OptimizerImpl = iota
	// OptimizerImplForeach: torch.optim.AdamW's multi-tensor path, which
	// torch takes on CUDA when neither foreach nor fused is given
	// (_default_to_fused_or_foreach, torch/optim/optimizer.py): its
	// _multi_tensor_adam computes torch._foreach_sqrt of every second
	// moment of a (device, dtype) group at once, a new list as large as
	// the moments, before _foreach_addcdiv_ (torch/optim/adam.py at
	// dc80ccde).
	OptimizerImplForeach
	// OptimizerImplFused: one kernel per chunk of tensors with no
	// list-wide temporary: torch's fused=True (_fused_adam,
	// torch._fused_adam_), HF Trainer's adamw_torch_fused, DeepSpeed's
	// FusedAdam and apex's multi_tensor_apply (chunked), and
	// bitsandbytes' 8-bit and paged optimizers (per-tensor kernels).
	OptimizerImplFused
)

var optimizerImplNames = [...]string{OptimizerImplAuto: "auto", OptimizerImplForeach: "foreach", OptimizerImplFused: "fused"}

// OptimizerImpls lists every OptimizerImpl in display order.
var OptimizerImpls = []OptimizerImpl{OptimizerImplAuto, OptimizerImplForeach, OptimizerImplFused}

// String returns the CLI name ("auto", "foreach", "fused").
func (o OptimizerImpl) String() string {
	return enumName(optimizerImplNames[:], int(o), "OptimizerImpl")
}

// ParseOptimizerImpl reads a name written by OptimizerImpl.String.
func ParseOptimizerImpl(s string) (OptimizerImpl, error) {
	i, err := parseEnum(optimizerImplNames[:], s, "optimizer-impl")
	return OptimizerImpl(i), err
}

// ResolveOptimizerImpl is in.OptimizerImpl, or on auto the stack's: fused.
// HF Trainer's default optimizer is adamw_torch_fused with torch ≥ 2.8
// (TrainingArguments.optim: default_optim = "adamw_torch_fused" if
// is_torch_greater_or_equal_than_2_8, transformers v5
// src/transformers/training_args.py; the Trainer passes fused=True for
// it), torchtune's AdamW recipes set fused: True, DeepSpeed builds its
// FusedAdam, Megatron-Core apex's or Transformer Engine's fused Adam. The
// stack whose default is foreach, LitGPT's scripts (torch.optim.AdamW
// built with neither flag), is named by a Lightning precision, and the
// page's litgptDefaults sets OptimizerImplForeach for it.
func ResolveOptimizerImpl(in Input) OptimizerImpl {
	if in.OptimizerImpl == OptimizerImplAuto {
		return OptimizerImplFused
	}
	return in.OptimizerImpl
}

// AdapterDType is the dtype of a LoRA/QLoRA fine-tune's adapters
// (--adapter-dtype): their weights, gradients and optimizer states, and,
// where it is wider than the 16-bit activations and no autocast narrows
// it again, the copy of its input each adapted linear makes
// (loraInputCast).
type AdapterDType int

const (
	// AdapterAuto: the stack's own (ResolveAdapterDType).
	AdapterAuto AdapterDType = iota
	// AdapterFP32: fp32 adapters over a 16-bit base, Hugging Face PEFT's
	// default: get_peft_model(..., autocast_adapter_dtype=True) upcasts
	// bf16 and fp16 adapter weights to fp32 ("this will only cast
	// adapter weights using float16 or bfloat16 to float32, as this is
	// typically required for stable training", src/peft/mapping_func.py
	// at 5d602fdb; BaseTuner._cast_adapter_dtype,
	// src/peft/tuners/tuners_utils.py).
	AdapterFP32
	// AdapterBF16 and AdapterFP16: adapters in the base model's 16-bit
	// dtype, as torchtune's LoRA recipes build them (the model is
	// instantiated under training.set_default_dtype(self._dtype) and
	// validate_expected_param_dtype(self.adapter_params.items(),
	// dtype=self._dtype) checks the adapters are in it:
	// recipes/lora_finetune_single_device.py at bd2a0fc7) and LitGPT's
	// finetune/lora.py under Lightning's bf16-true or 16-true (GPT(config)
	// is built inside fabric.init_module(), whose precision context makes
	// the 16-bit dtype the default: litgpt/finetune/lora.py at 26857050).
	AdapterBF16
	AdapterFP16
)

var adapterDTypeNames = [...]string{AdapterAuto: "auto", AdapterFP32: "fp32", AdapterBF16: "bf16", AdapterFP16: "fp16"}

// AdapterDTypes lists every AdapterDType in display order.
var AdapterDTypes = []AdapterDType{AdapterAuto, AdapterFP32, AdapterBF16, AdapterFP16}

// String returns the CLI name ("auto", "fp32", "bf16", "fp16").
func (d AdapterDType) String() string { return enumName(adapterDTypeNames[:], int(d), "AdapterDType") }

// ParseAdapterDType reads a name written by AdapterDType.String.
func ParseAdapterDType(s string) (AdapterDType, error) {
	i, err := parseEnum(adapterDTypeNames[:], s, "adapter-dtype")
	return AdapterDType(i), err
}

// AdapterDTypeOf is the adapter dtype a dtype names (fp32, bf16 or fp16;
// AdapterAuto for any other).
func AdapterDTypeOf(d DType) AdapterDType {
	switch d {
	case FP32:
		return AdapterFP32
	case BF16:
		return AdapterBF16
	case FP16:
		return AdapterFP16
	}
	return AdapterAuto
}

// ResolveAdapterDType is the dtype of a LoRA/QLoRA job's adapters: the
// one in.AdapterDType names, or on auto the stack's. Under autocast
// (mixed precision) the adapters train in fp32, as Hugging Face PEFT
// keeps them (AdapterFP32) and every mixed-precision recipe holds its
// trainable weights. A 16-bit-only step (--pure-bf16, Lightning's
// bf16-true and 16-true) keeps them in the base's 16-bit dtype, as the
// stacks that run that step by default build them: torchtune's recipes
// and LitGPT's scripts (AdapterBF16), and Lightning's bitsandbytes QLoRA
// plugin (LightningQLoRADefault). PEFT's fp32 adapters over a bf16-true
// base, with the fp32 input copy each adapted linear then saves
// (loraInputCast), are --adapter-dtype fp32: a Hugging Face loop that
// loads the model in bf16 and runs no autocast. An fp32 base
// (--precision fp32) has fp32 adapters whatever the field says.
func ResolveAdapterDType(in Input) DType {
	if in.Weights == FP32 {
		return FP32
	}
	switch in.AdapterDType {
	case AdapterFP32:
		return FP32
	case AdapterBF16:
		return BF16
	case AdapterFP16:
		return FP16
	}
	if in.PureBF16 { // Lightning's bitsandbytes QLoRA (LightningQLoRADefault) among them
		if in.Weights == FP16 {
			return FP16
		}
		return BF16
	}
	return FP32
}

// Offload moves training state to host memory (DeepSpeed ZeRO-Offload /
// ZeRO-Infinity, FSDP CPUOffload).
type Offload int

const (
	OffloadNone      Offload = iota
	OffloadOptimizer         // optimizer states and fp32 master weights on the CPU (needs ZeRO ≥ 1)
	OffloadAll               // also parameters and gradients (needs ZeRO-3)
)

var offloadNames = [...]string{OffloadNone: "none", OffloadOptimizer: "optimizer", OffloadAll: "all"}

// Offloads lists every Offload in display order.
var Offloads = []Offload{OffloadNone, OffloadOptimizer, OffloadAll}

// String returns the CLI name ("none", "optimizer", "all").
func (o Offload) String() string { return enumName(offloadNames[:], int(o), "Offload") }

// ParseOffload reads a name written by Offload.String.
func ParseOffload(s string) (Offload, error) {
	i, err := parseEnum(offloadNames[:], s, "offload")
	return Offload(i), err
}

// Quant is a weight storage format beyond plain DType widths. QuantAuto
// derives it from Input.Weights, Task and Engine: int4 is group-128
// GPTQ/AWQ (HF, vLLM) or Q4_K_M (llama.cpp), int8 is Q8_0 under llama.cpp,
// QLoRA's base is NF4.
type Quant int

const (
	QuantAuto     Quant = iota
	QuantGroup128       // 4-bit GPTQ/AWQ, group 128 with fp16 scale and zero
	QuantNF4            // bitsandbytes NF4 with double quantisation
	QuantQ4_0           // GGUF Q4_0
	QuantQ4KM           // GGUF Q4_K_M
	QuantQ5KM           // GGUF Q5_K_M
	QuantQ6K            // GGUF Q6_K
	QuantQ8_0           // GGUF Q8_0
	// QuantExpertsG32 is 4-bit routed experts in groups of 32, everything
	// else 16-bit (ExpertsOnly): the compressed-tensors INT4 checkpoints
	// Moonshot publishes for Kimi K2 Thinking and K2.5.
	QuantExpertsG32
)

var quantNames = [...]string{QuantAuto: "auto", QuantGroup128: "int4-g128", QuantNF4: "nf4",
	QuantQ4_0: "q4_0", QuantQ4KM: "q4_k_m", QuantQ5KM: "q5_k_m", QuantQ6K: "q6_k", QuantQ8_0: "q8_0",
	QuantExpertsG32: "int4-experts-g32"}

// Quants lists every Quant in display order.
var Quants = []Quant{QuantAuto, QuantGroup128, QuantExpertsG32, QuantNF4, QuantQ4_0, QuantQ4KM, QuantQ5KM, QuantQ6K, QuantQ8_0}

// String returns the CLI name ("auto", "int4-g128", "nf4", "q4_k_m", ...).
func (q Quant) String() string { return enumName(quantNames[:], int(q), "Quant") }

// ParseQuant reads a name written by Quant.String.
func ParseQuant(s string) (Quant, error) {
	i, err := parseEnum(quantNames[:], s, "quant")
	return Quant(i), err
}

// GGUF reports whether q is a llama.cpp GGUF format.
func (q Quant) GGUF() bool { return q >= QuantQ4_0 && q <= QuantQ8_0 }

// ExpertsOnly reports whether q quantises a mixture-of-experts model's
// routed experts alone, leaving attention, the shared experts, the dense
// layers' MLPs, the embedding and the head in 16 bits (QuantExpertsG32).
// Moonshot's INT4 releases of Kimi K2 Thinking and K2.5 are stored so: the
// routed experts as compressed-tensors pack-quantized INT4, symmetric, one
// scale per 32 weights (the checkpoint's quantization_config, kept as it
// ships in the eatang/Kimi-K2.5-2layer slice of its weights on Hugging
// Face, whose card says only the routed experts carry the packed INT4
// triples; NVIDIA NeMo AutoModel's Kimi K2.5 state-dict adapter:
// "MoE expert weights are known to be INT4 quantized in the HF
// checkpoint"). Kimi K2's 1,014.6B routed-expert parameters at 4.5 bits
// and its other 11.8B at 16 come to 594 GB (553 GiB), where the same
// model at int4-g128 on every linear would be 549 GB; a Kimi K2.6
// derivative's card puts the full model at "~555 GB".
func (q Quant) ExpertsOnly() bool { return q == QuantExpertsG32 }

// BitsPerWeight is the real storage cost of q including block scales.
// GGUF figures: llama.cpp tools/quantize/README.md (Llama 2 7B table:
// Q4_K_M 4.84, Q5_K_M 5.68, Q6_K 6.56 bpw; mixes keep some tensors at
// higher precision); Q4_0 and Q8_0 store 32 weights with one fp16 scale in
// 18 and 34 bytes (ggml-common.h block_q4_0, block_q8_0): 4.5 and 8.5 bpw.
// NF4: 4 bits + 0.127 bits of double-quantised constants (QLoRA paper §3).
// Group-128: 4 bits + fp16 scale and fp16 zero per 128 weights = 4.25
// (AWQ/GPTQ pack zeros into 4 bits, 4.16 bpw: we keep the conservative
// figure). QuantAuto returns NaN.
func (q Quant) BitsPerWeight() float64 {
	switch q {
	case QuantGroup128:
		return 4 + 32.0/128
	case QuantExpertsG32:
		// 4 bits and one 16-bit scale per 32 weights, symmetric (no zero
		// point): compressed-tensors pack-quantized, group_size 32.
		return 4 + 16.0/32
	case QuantNF4:
		return 4.127
	case QuantQ4_0:
		return 4.5
	case QuantQ4KM:
		return 4.84
	case QuantQ5KM:
		return 5.68
	case QuantQ6K:
		return 6.56
	case QuantQ8_0:
		return 8.5
	}
	return nan()
}

// AttnKernel is the fused attention kernel a training step runs
// (--attention-kernel). Its speed relative to FlashAttention-2 is
// attnKernelSpeed; the kernels keep the scores on chip alike, so the
// memory does not depend on it.
type AttnKernel int

const (
	// AttnFA2 is FlashAttention-2 (Dao 2023) and kernels of its speed
	// (Triton's FlashAttention runs within 6% of it on an H100: Shah et
	// al. 2024, Figure 5): MPT's attn_impl flash or triton in the
	// llm-foundry rows trainAttnCost was fitted on, and the default.
	AttnFA2 AttnKernel = iota
	// AttnCuDNN is cuDNN's fused attention, which Transformer Engine
	// selects on Hopper whenever it and FlashAttention both can run
	// (v1.2–v1.x transformer_engine/pytorch/attention.py: "Select
	// FusedAttention on sm90 and FlashAttention on others for
	// performance"; 2.x get_attention_backend: "Disabling FlashAttention
	// to give FusedAttention preference on Hopper+ for performance
	// reasons"), so Megatron-Core, NeMo and Megatron-Bridge run it there.
	AttnCuDNN
	// AttnFA3 is FlashAttention-3 (Shah et al. 2024), Hopper only.
	AttnFA3
)

// AttnKernels lists every AttnKernel in display order.
var AttnKernels = []AttnKernel{AttnFA2, AttnCuDNN, AttnFA3}

var attnKernelNames = [...]string{AttnFA2: "fa2", AttnCuDNN: "cudnn", AttnFA3: "fa3"}

// String returns the CLI name ("fa2", "cudnn", "fa3").
func (k AttnKernel) String() string { return enumName(attnKernelNames[:], int(k), "AttnKernel") }

// ParseAttnKernel reads a name written by AttnKernel.String.
func ParseAttnKernel(s string) (AttnKernel, error) {
	i, err := parseEnum(attnKernelNames[:], s, "attention-kernel")
	return AttnKernel(i), err
}

// LoRATargets selects the linear layers that get adapters.
type LoRATargets int

const (
	LoRAAttention LoRATargets = iota // q, k, v, o projections
	LoRAAllLinear                    // every linear in the blocks (PEFT "all-linear")
	// LoRAQueryValue: the query and value projections only. LitGPT's
	// lora.py defaults (lora_query=True, lora_value=True; key,
	// projection, mlp and head False: litgpt/finetune/lora.py at
	// 00af8b0d, 2024-09-27) and PEFT's own when target_modules is None
	// for llama, mistral, mixtral, qwen2/3, gemma/gemma2/gemma3_text,
	// stablelm ["q_proj", "v_proj"]
	// (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING,
	// src/peft/utils/constants.py at 09ba20c4, 2026-08-21).
	LoRAQueryValue
)

var loraTargetNames = [...]string{LoRAAttention: "attention", LoRAAllLinear: "all-linear", LoRAQueryValue: "query-value"}

// LoRATargetSets lists every LoRATargets, fewest adapters first.
var LoRATargetSets = []LoRATargets{LoRAQueryValue, LoRAAttention, LoRAAllLinear}

// String returns the CLI name ("attention", "all-linear", "query-value").
func (l LoRATargets) String() string { return enumName(loraTargetNames[:], int(l), "LoRATargets") }

// mlp reports whether the set puts adapters on the MLP's linears.
func (l LoRATargets) mlp() bool { return l == LoRAAllLinear }

// ParseLoRATargets reads a name written by LoRATargets.String.
func ParseLoRATargets(s string) (LoRATargets, error) {
	i, err := parseEnum(loraTargetNames[:], s, "lora-targets")
	return LoRATargets(i), err
}

func enumName(names []string, i int, typ string) string {
	if i < 0 || i >= len(names) {
		return typ + "(" + strconv.Itoa(i) + ")"
	}
	return names[i]
}

func parseEnum(names []string, s, field string) (int, error) {
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, &InputError{Field: field, Value: s, Reason: "want one of " + strings.Join(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "" }), "|"), Err: ErrUnknown}
}

// OptionalBytes is an overhead override: when Set, Value replaces the
// built-in default (0 is a valid override).
type OptionalBytes struct {
	Set   bool
	Value Bytes
}

// Or returns the override, or def when not set.
func (o OptionalBytes) Or(def Bytes) Bytes {
	if o.Set {
		return o.Value
	}
	return def
}

// Overheads overrides the overhead lines of the breakdown; each unset field
// keeps the default documented on the Breakdown field of the same name.
type Overheads struct {
	CUDAContext, AllocatorReserve, NCCL, CUDAGraphs OptionalBytes
}

// Input is one estimation request. Start from DefaultInput and change
// fields; every field's CLI flag is named in its comment and in the Field
// of the InputError that Validate returns for it.
type Input struct {
	Arch Arch // --model / --config
	Task Task // --task
	// TextOnly runs a vision-language model's text model alone
	// (--text-only): its vision tower and projector (Arch.VisionParams) are
	// not loaded, as vLLM does with --language-model-only or a zero
	// limit_mm_per_prompt for every modality (vLLM PR #22299) and
	// transformers with the text model's class. No effect on a text model.
	TextOnly bool

	// Weights is the weight dtype (--precision). For training it is the
	// compute dtype: fp32, or bf16/fp16 mixed precision with fp32 master
	// weights. Int8/int4/fp8 are inference and LoRA-base formats.
	Weights DType
	Quant   Quant // --quant: storage format override (default auto)
	KV      DType // --kv-dtype: KV-cache dtype, independent of Weights

	Batch int // --batch: sequences per GPU step (micro-batch); concurrent sequences for inference
	Seq   int // --seq: tokens per sequence (prompt + generated); ignored for ViT (patches fixed)

	Optimizer Optimizer // --optimizer
	// OptimizerImpl is how AdamW runs its update (--optimizer-impl):
	// foreach allocates one moment's worth more at the optimizer step
	// (Result.OptimizerStep). Auto: ResolveOptimizerImpl. Training only.
	OptimizerImpl      OptimizerImpl
	GradCheckpointing  bool        // --grad-checkpointing: full activation recomputation
	SelectiveRecompute bool        // --selective-recompute: recompute attention scores only (Korthikanti et al. §5)
	FlashAttention     bool        // --flash-attention: FlashAttention/SDPA, no s² score tensors
	AttnKernel         AttnKernel  // --attention-kernel: which fused kernel a training step's attention runs (speed only)
	LoRARank           int         // --lora-rank
	LoRATargets        LoRATargets // --lora-targets
	// LoRADropout is the dropout rate on the adapters' input
	// (--lora-dropout; PEFT LoraConfig.lora_dropout, LitGPT lora_dropout).
	// Above 0 every adapted linear runs its own dropout on its input and
	// its A matrix saves the dropped copy, and dropout saves a 1-byte mask
	// (PEFT: lora_B(lora_A(dropout(x))); LitGPT's LoRALinear the same;
	// torch.native_dropout returns a bool mask). 0: no copy (PEFT replaces
	// the dropout with nn.Identity). DefaultInput sets
	// DefaultLoRADropout; it counts for LoRA/QLoRA only and is ignored
	// for other tasks.
	LoRADropout float64
	// AdapterDType is the adapters' dtype (--adapter-dtype; auto:
	// ResolveAdapterDType, PEFT's fp32). LoRA/QLoRA only.
	AdapterDType AdapterDType
	// LoRAFusedQKV: the adapters on q, k and v sit on one fused qkv
	// projection with one dropout (--lora-fused-qkv; LitGPT's
	// LoRAQKVLinear), so the attention input is copied once, not once per
	// adapted projection as PEFT's separate q_proj/k_proj/v_proj modules
	// do.
	LoRAFusedQKV bool
	// QuantizeHead stores a QLoRA base's LM head in its 4-bit format too
	// and dequantises it whole when it is used (--quantize-head;
	// Lightning's BitsandbytesPrecision without ignore_modules, as LitGPT
	// runs QLoRA). PEFT/transformers keep the head in 16-bit (their
	// default skip list holds the output embedding). QLoRA with
	// bitsandbytes only.
	QuantizeHead bool
	// KeepsLastGraph: the training loop still holds the previous
	// micro-batch's outputs, and through their grad_fn its autograd graph,
	// while the next forward runs (--keeps-last-graph). LitGPT's fit loop
	// does: logits and loss are reassigned only when the next forward and
	// loss return (litgpt/finetune/lora.py at 00af8b0d). A graph's saved
	// tensors are released by the backward, but what a custom autograd
	// function keeps as a ctx attribute lives as long as the graph:
	// bitsandbytes' MatMul4Bit keeps its input so (bnbLastGraph). HF
	// Trainer's training_step returns loss.detach() and drops the model's
	// outputs, so the default keeps nothing.
	KeepsLastGraph bool
	// LitGPTAttention: the attention is LitGPT's CausalSelfAttention
	// (--litgpt-attention), which hands scaled_dot_product_attention
	// other tensors than the q, k, v and output the saved activations
	// count (litgptAttentionElems): K and V copied out to every query
	// head where the model has fewer KV heads, and, with as many KV heads
	// as query heads, V as a view that keeps the whole fused qkv output.
	// Training only.
	LitGPTAttention bool

	Engine           Engine  // --engine
	GPUMemUtil       float64 // --gpu-mem-util: the engine's memory share in (0, 1]; 0: the engine's default (MemShare)
	MaxBatchedTokens int     // --max-batched-tokens: vLLM profiling batch (0: the engine's default, BatchedTokens)
	EnforceEager     bool    // --enforce-eager: a serving engine without CUDA graphs (vLLM --enforce-eager, SGLang --disable-cuda-graph, TensorRT-LLM cuda_graph_config: null)
	// Compiled is HF transformers with a static KV cache and
	// torch.compile (CUDA graphs) (--compile): the per-op host launches
	// that bound eager decoding at small batch leave the host.
	Compiled bool

	VRAM Bytes // --vram / --gpu: nominal memory per GPU
	// VisibleVRAM is the memory per GPU CUDA sees where it is less than
	// VRAM (--gpu): a GDDR card with ECC on keeps its ECC bits in the same
	// DRAM, so an A10G's 24 GiB shows as 23,028 MiB in nvidia-smi (CUDA C++
	// Best Practices Guide: "On GPUs with GDDR memory with ECC enabled the
	// available DRAM is reduced by 6.25%"). 0: VRAM (HBM, or not known).
	VisibleVRAM Bytes
	UsableVRAM  Bytes // --usable-vram: measured usable memory per GPU (0: derived from VisibleVRAM or VRAM)
	// VLLMSmallDefaults marks a GPU that vLLM gives its smaller scheduler
	// limits whatever its memory (--gpu: the A100, named by
	// catalog.GPU.VLLMNamesSmall; Hardware.VLLMSmallDefaults is the same
	// mark for the speed side). vLLM's default max_num_batched_tokens,
	// and so the forward pass it profiles before sizing its KV pool,
	// follows it (Input.VLLMLimits). false for a GPU known by its memory
	// alone (--vram).
	VLLMSmallDefaults bool

	GPUs    int     // --gpus: total GPUs (= DP × TP × PP)
	ZeRO    int     // --zero: DeepSpeed ZeRO stage 0..3 (FSDP full shard = 3)
	TP      int     // --tp: tensor-parallel degree
	PP      int     // --pp: pipeline-parallel stages
	CP      int     // --cp: context-parallel degree, the sequence split over CP GPUs (ring attention); 0 or 1: none
	Offload Offload // --offload
	// Schedule is the training step's pipeline schedule, from which the
	// memory of a pipeline stage counts the micro-batches it holds at once
	// (PP > 1): the CLI copies --micro-batches, --global-batch and
	// --virtual-stages here, as it passes them to the step's timing
	// (Workload). Zero fields take the defaults the timing takes
	// (TrainSchedule).
	Schedule Schedule

	// PureBF16 trains in 16-bit only (--pure-bf16), bf16 or fp16 alike
	// despite its name: weights, gradients and optimizer states in the
	// weights' dtype (Weights: BF16 or FP16; QLoRA: the compute dtype
	// beside any storage format), no fp32 master copy and no autocast
	// (the checkpointed block inputs stay 16-bit), as torchtune's recipes
	// do by default (dtype: bf16) and Lightning's "bf16-true" (bf16) and
	// "16-true" (fp16) run. LoRA/QLoRA adapters, their gradients and
	// states are in Input.AdapterDType: fp32 on auto (PEFT's), the 16-bit
	// dtype where the stack keeps them so (torchtune, LitGPT: bf16).
	PureBF16 bool
	// SequenceParallel shards the activations that tensor parallelism
	// replicates (LayerNorm, dropout, residual) over the TP group
	// (--sequence-parallel; Korthikanti et al. 2022 §4.2.2; Megatron-LM and
	// NeMo turn it on with TP). Training with TP > 1 only.
	SequenceParallel bool
	// TPCommOverlap runs tensor parallelism's sequence-parallel
	// all-gathers and reduce-scatters beside the GEMMs that consume or
	// produce them (--tp-comm-overlap; Transformer Engine's userbuffers,
	// Megatron-Core's tp_comm_overlap), as Megatron-Bridge's Llama 3 70B
	// and 3.1 405B pre-training recipes do (CommOverlapConfig(
	// tp_comm_overlap=True) with the userbuffers_*_h100_* configs,
	// src/megatron/bridge/recipes/llama/llama3.py at v0.2.0–v0.5.0). What
	// stays exposed is tpOverlapExposed's. Training with SequenceParallel
	// only (Megatron-Bridge's CommOverlapConfig turns it off without
	// sequence parallelism); nothing to overlap at TP 1, where
	// Megatron-Bridge turns it off too. Speed only.
	TPCommOverlap bool
	// LossChunks splits the training cross-entropy into this many chunks
	// along the sequence (--loss-chunks; torchtune's
	// CEWithChunkedOutputLoss, num_output_chunks 8 in its recipes): the
	// 16-bit logits are kept whole, the fp32 upcast and its gradient
	// exist one chunk at a time. 0 or 1: one piece. Training only.
	LossChunks int
	// FlashCrossEntropy: the training loss is flash-attn's fused
	// cross-entropy (--flash-cross-entropy; llm-foundry's default,
	// ComposerMPTCausalLM loss_fn 'fused_crossentropy'), which reads the
	// logits in their own dtype and writes a gradient of that dtype: no
	// fp32 copy (flashCrossEntropyBytes). Training only, one piece.
	FlashCrossEntropy bool
	// BF16OptimizerStates: full mixed-precision training whose distributed
	// optimizer keeps its states in bf16 (--bf16-optimizer-states): the
	// Adam moments and its copy of the weights, 2 bytes each, sharded as
	// ZeRO says, where the default counts fp32 (4 each). apex's
	// DistributedFusedAdam with dtype=bf16, which NeMo 1.x's Llama SFT
	// recipe sets (bf16OptimizerBytes). AdamW at ZeRO ≥ 1, 16-bit or FP8
	// weights, not --pure-bf16.
	BF16OptimizerStates bool
	// OptimizerInBackward steps the optimizer on each parameter as soon as
	// its gradient is ready and frees the gradient (--optimizer-in-backward;
	// torchtune's optimizer_in_bwd): the GPU holds one parameter's
	// gradient, not the whole model's. Full training on one GPU (no ZeRO,
	// PP or TP) only.
	OptimizerInBackward bool
	// FSDPNoSync accumulates gradients over micro-batches inside PyTorch
	// FSDP's no_sync() (--fsdp-no-sync; Lightning Fabric's
	// no_backward_sync, which LitGPT's fine-tuning scripts wrap every
	// accumulating micro-batch in): until the synchronising micro-batch
	// each rank keeps the whole model's unsharded gradients, not its
	// shard (FullyShardedDataParallel.no_sync docstring: "FSDP will
	// accumulate the full model gradients (instead of gradient shards)
	// until the eventual sync"). Training with --zero 3 only; it holds
	// only when the run accumulates (more than one micro-batch per
	// optimizer step), which the memory model does not see: the CLI sets
	// it by FSDPNoSyncDefault for fine-tunes that accumulate.
	FSDPNoSync bool
	// FSDP2 says the fine-tune's ZeRO-3 is PyTorch's FSDP2, fully_shard
	// (--fsdp2; torchtune's recipes, torchtitan, HF Accelerate's
	// fsdp_version 2), which shards each parameter as a DTensor of its own:
	// the root unit's gradient is assembled once at the backward's end
	// (rootGradBytes), where FSDP1's flat parameter concatenates its views'
	// gradients into a second, unit-wide one, and frozen weights get no
	// gradient (FSDPFrozenBlockGrads). The zero value is FSDP1
	// (FullyShardedDataParallel): Lightning's FSDPStrategy, HF
	// Accelerate's default and the launch `--emit fsdp` writes. Training
	// with --zero 3 only.
	FSDP2 bool
	// FSDPAdapterUnits says a LoRA fine-tune under FSDP wraps its adapters
	// as FSDP units of their own (--fsdp-adapter-units; PEFT's
	// fsdp_auto_wrap_policy, which HF Trainer applies to PEFT models), so
	// the frozen Block weights get no gradient. The zero value is what
	// Lightning Fabric's FSDPStrategy with LitGPT's Block wrap does: the
	// adapters share each Block's flat parameter with its frozen weights
	// (fsdpFrozenGradBytes).
	FSDPAdapterUnits bool
	// FSDPGatherFP32 says the training stack's mixed precision under FSDP
	// keeps the parameters fp32 and runs autocast over them, so FSDP
	// gathers each unit in fp32 and autocast makes the 16-bit copies:
	// Lightning's FSDPPrecision for bf16-mixed and 16-mixed
	// (mixed_precision_config: param_dtype torch.float32; forward_context
	// torch.autocast; Lightning-AI/pytorch-lightning
	// src/lightning/fabric/plugins/precision/fsdp.py at b89ca6e8). The
	// page and the CLI set it for a fine-tune named by a Lightning -mixed
	// precision (LitGPT's stack); HF Accelerate's FSDP gathers in the
	// 16-bit dtype (MixedPrecision(param_dtype=bf16)) and leaves it off.
	// It counts only at ZeRO 3 over more than one GPU, in mixed precision
	// (fsdpFP32Gather).
	FSDPGatherFP32 bool
	// EP and DP are expert parallelism and attention data parallelism
	// (--ep, --dp). In training, EP takes its ranks from the data-parallel
	// degree, as Megatron-Core's expert model parallelism does: each GPU
	// holds 1/EP of the routed experts (and ZeRO shards their states over
	// the remaining DP/EP ranks), and every MoE layer exchanges tokens by
	// all-to-all. In serving they work inside one TP group (SGLang's
	// --ep-size and --dp-size with --enable-dp-attention; vLLM's
	// --data-parallel-size D --enable-expert-parallel with TP t is TP
	// t·D, DP D, EP t·D here). Both divide TP; 0 or 1: none. Experts are
	// sharded over the TP group either way (EP: whole experts per GPU,
	// exchanged by all-to-all; otherwise each expert split by TP). With DP
	// the attention and other non-expert weights are split TP/DP ways
	// and replicated DP times, and each DP rank holds the KV cache of its
	// own Batch/DP sequences (MLA's latent cache, which TP replicates, is
	// then no longer repeated on every GPU). Inference on vLLM, SGLang or
	// TensorRT-LLM; EP needs a mixture-of-experts model.
	EP, DP int
	// RedundantExperts is the extra copies of routed experts each MoE
	// layer keeps over its EP ranks, so that EP divides experts +
	// redundant ones and the hot experts' tokens split over several
	// copies (SGLang --ep-num-redundant-experts, vLLM --enable-eplb
	// --eplb-config '{"num_redundant_experts": N}', TensorRT-LLM's MoE
	// load balancer num_slots = experts + redundant; the launches write
	// them, catalog/launch; DeepSeek's EPLB, github.com/deepseek-ai/EPLB:
	// "duplicates heavy-loaded experts"). Each EP rank then holds
	// (Experts + RedundantExperts)/EP experts. Serving with EP only; 0:
	// none.
	RedundantExperts int
	// TwoBatchOverlap is SGLang's two-batch overlap
	// (--enable-two-batch-overlap, ServerArgs.enable_two_batch_overlap,
	// default off): each forward's batch runs as two micro-batches, one's
	// attention and expert GEMMs under the other's DeepEP dispatch and
	// combine (LMSYS, "Deploying DeepSeek with PD Disaggregation and
	// Large-scale Expert Parallelism on 96 H100 GPUs", 2025-05-05, after
	// DeepSeek's dual micro-batch overlap, deepseek-ai/profile-data). SGLang
	// serving a mixture-of-experts model (TwoBatchOverlapNeeds); it
	// changes the steps of a layout with EP under attention DP only, whose
	// experts exchange tokens by all-to-all (tboStep), and leaves the
	// others as they are.
	TwoBatchOverlap bool
	// MoEA2A is SGLang's expert exchange under attention data parallelism
	// (--moe-a2a-backend): MoEA2ADeepEP, or "" for the estimate's default,
	// DeepEP's all-to-all wherever EP > 1 and DP > 1 (SGLangDeepEP), as
	// the large-scale recipes and SGLang's own CI run it; MoEA2ANone,
	// SGLang's own default, where every rank gathers every DP rank's
	// tokens before the experts and reduces after them (the same ring as
	// tensor parallelism), the shared experts split over TP and no DeepEP
	// buffers reserved. The recipes that run that (NVIDIA srt-slurm's
	// B200 and H200 attention-DP DeepSeek recipes, its GB200/GB300 FP4
	// prefill workers: --enable-dp-attention with or without --ep-size and
	// no --moe-a2a-backend) are priced as run. SGLang only.
	MoEA2A string
	// SchedulerSteps is vLLM's multi-step scheduling (--scheduler-steps;
	// vLLM v0.6's --num-scheduler-steps): the engine runs this many decode
	// steps per scheduling pass, so a new request waits for the pass in
	// flight before its prefill. 0 or 1: every step (vLLM's default). vLLM
	// only.
	SchedulerSteps int
	// AsyncScheduling is vLLM's --async-scheduling on a release before
	// 0.14.0, where it is opt-in (from v0.10, vllm-project/vllm#19970):
	// the scheduler runs one step ahead of the GPU, so the host's work per
	// running sequence no longer waits between the steps
	// (vllmSequenceGapSeconds). From 0.14.0 it is vLLM's default
	// (vllm-project/vllm#27614) and the field changes nothing. vLLM only.
	AsyncScheduling bool
	// NoOverlapSchedule turns the serving engine's overlap scheduler off:
	// the host's work for a step (scheduling, input preparation, output
	// processing) runs between the GPU's steps instead of under the
	// previous one (overlapsHost), as SGLang's --disable-overlap-schedule
	// and TensorRT-LLM's disable_overlap_scheduler: true do. SGLang turns
	// it off by itself for EAGLE speculative decoding, the MTP drafts
	// included, unless SGLANG_ENABLE_SPEC_V2 is set in its environment
	// (python/sglang/srt/server_args.py, _handle_speculative_decoding;
	// the launch Rightsize writes sets it), so a run without that
	// variable is this setting. SGLang and TensorRT-LLM only.
	NoOverlapSchedule bool
	// CUDAGraphMaxBS is SGLang's --cuda-graph-max-bs: the largest decode
	// batch a scheduler (a DP rank under attention DP) replays from a
	// captured CUDA graph. A decode step over more sequences runs eager
	// (inferModel.eagerStep, sglangEagerLaunch): SGLang's
	// CudaGraphRunner.can_run falls back to the eager forward past its
	// largest captured batch ("roughly a 4x per-token latency increase" on a
	// small model, sgl-project/sglang PR #33900; sglang#33483 measured the
	// fallback on an L40 at the default cap of 32 with max_running_requests
	// 4096). 0: the graphs cover every batch the job decodes, as the launch
	// Rightsize writes sets the flag to (catalog/launch, sglangGraphs);
	// SGLang's own default by GPU memory is SGLangDefaults' CUDAGraphMaxBS.
	// SGLang serving only.
	CUDAGraphMaxBS int
	// Offline: the serving engine runs without its API server, as a batch
	// job does (vLLM's LLM class, trtllm-bench): no front end streams the
	// tokens (vllmFrontEndToken). The planner sets it for batch jobs.
	Offline bool
	// NoPrefixCache: the serving engine runs without its prefix cache
	// (SGLang --disable-radix-cache, vLLM --no-enable-prefix-caching),
	// as benchmark recipes of random prompts do. Random prompts share no
	// prefix, so the cache saves no prefill either way; what changes is
	// SGLang's admission of requests that ignore end-of-sequence (a
	// benchmark client's --ignore-eos), which without the radix cache
	// holds back a request until the pool can take every running
	// request's whole output (sim.Policy.IgnoreEOSAdmit). vLLM and SGLang
	// serving only.
	NoPrefixCache bool
	// SchedulerRecvInterval is SGLang's --scheduler-recv-interval: its
	// scheduler takes in new requests only every that many forward passes
	// (ServerArgs.scheduler_recv_interval, default 1: every pass;
	// sgl-project/sglang python/sglang/srt/server_args.py), so a new
	// request waits for the passes before the next poll. A benchmark
	// recipe's setting, not the engine's: 0 or 1 is SGLang's default.
	// SGLang only.
	SchedulerRecvInterval int
	// AttentionDPBalanceIters is TensorRT-LLM's attention-DP balance
	// (attention_dp_config enable_balance: true, timeout_iters this,
	// batching_wait_iters 0, as the InferenceX recipes set it): a new
	// request joins one attention rank and context phases start only when
	// every rank has one to start, or every this many iterations. 0: off,
	// TensorRT-LLM's default (AttentionDpConfig.enable_balance False,
	// tensorrt_llm/llmapi/llm_args.py). TensorRT-LLM with attention data
	// parallelism (DP > 1) only.
	AttentionDPBalanceIters int
	// DraftTokens is speculative decoding with the model's own
	// multi-token-prediction module (Arch.MTPLayers; DeepSeek-V3 MTP as
	// SGLang runs it, --speculative-algorithm EAGLE --speculative-num-steps
	// d --speculative-eagle-topk 1; vLLM --speculative-config method
	// deepseek_mtp, num_speculative_tokens d; TensorRT-LLM
	// speculative_config decoding_type MTP, num_nextn_predict_layers d):
	// each decode step drafts d tokens with the module, one pass of it a
	// token, and the model verifies the d + 1 tokens of every sequence in
	// one forward (specTokenSeconds). 0: none. Serving with vllm, sglang or
	// trtllm only.
	DraftTokens int
	// DraftAcceptance is the probability that a draft token is accepted
	// when the ones before it were; 0: the measured acceptance by draft
	// position where one is published for the model's module
	// (mtpAcceptedTokens), else MTPAcceptance for every draft.
	DraftAcceptance float64
	// RequestSeconds is a serving engine's fixed cost per request outside
	// the GPU's steps (API server, tokenisation, scheduling, detokenising,
	// streaming), measured on the user's own deployment (rightsize
	// calibrate): the simulator's Policy.RequestSeconds. 0: the engine's
	// fitted figure for the model (RequestSeconds).
	RequestSeconds float64
	EngineVersion  EngineVersion // --engine-version: the engine's release (zero: CurrentEngineVersion); sets whether its host work overlaps the GPU's step
	Kernel         Kernel        // --kernel: the weight-only format's matmul kernel (KernelAuto: the engine's default); sets its host ops and bandwidth share

	Overheads Overheads // --cuda-context etc.
}

// DefaultLoRADropout is the adapters' input dropout a LoRA/QLoRA plan
// assumes when the user names none (--lora-dropout). PEFT's LoraConfig
// defaults to 0.0 and LLaMA-Factory (finetuning_args.py) passes 0.0 on,
// but the recipes most fine-tunes start from set 0.05: LitGPT's
// finetune/lora.py (lora_dropout 0.05, and its config hub 0.05–0.1),
// ms-swift v2 (SftArguments.lora_dropout_p 0.05), TRL's ModelConfig
// (lora_dropout 0.05), axolotl's example configs and torchtune's Llama
// 3.1 LoRA builders until 2024-09-11 (lora_dropout=0.05; 0.0 since
// torchtune d7fae967, and in its configs); the QLoRA paper tuned
// 0.1 up to 13B and 0.05 at 33B and 65B (Dettmers et al. 2023). The rate
// itself does not change memory, only whether each adapted linear keeps a
// dropped copy of its input and a 1-byte mask (loraSavedBytes); with
// 0.05 a plan counts that copy, the larger figure when the recipe is not
// known, and --lora-dropout 0 drops it.
const DefaultLoRADropout = 0.05

// DefaultInput is bf16 inference of a with HF transformers on one 80 GiB
// GPU: batch 1, 2048 tokens (or the architecture's fixed sample length),
// bf16 KV cache, FlashAttention/SDPA, AdamW and LoRA rank 16 ready for the
// training tasks (adapter dropout DefaultLoRADropout), vLLM utilisation 0.9 (vLLM's default).
func DefaultInput(a Arch) Input {
	seq := 2048
	if a.SeqLen > 0 {
		seq = a.SeqLen
	}
	return Input{
		Arch: a, Task: Inference, Weights: BF16, KV: BF16,
		Batch: 1, Seq: seq, Optimizer: AdamW, FlashAttention: true,
		LoRARank: 16, LoRADropout: DefaultLoRADropout, Engine: HF,
		VRAM: 80 * GiB, GPUs: 1, TP: 1, PP: 1, SequenceParallel: true,
	}
}

// ZeRODefault is Input.ZeRO when the user does not say: 1 (the optimizer
// states sharded over the data-parallel ranks, Megatron-Core's
// distributed optimizer) for pre-training whose GPUs hold more than one
// copy of the model, in.ZeRO otherwise. The stacks that publish
// pre-training runs shard at least the optimizer by default: NeMo 2.0's
// and Megatron-Bridge's recipes build their optimizer with
// use_distributed_optimizer=True (distributed_fused_adam_with_cosine_annealing),
// torchtitan shards parameters, gradients and states with FSDP2
// (data_parallel_shard_degree = -1, every rank left over), llm-foundry's
// pre-training configs run FSDP FULL_SHARD, GPT-NeoX's (Pythia's) configs
// set zero_optimization stage 1, and Llama 3 trained with FSDP (Dubey et
// al. 2024, §3.3.2). Megatron-LM's own flag is off unless given
// (--use-distributed-optimizer, store_true), and DeepSpeed's stage
// defaults to 0; ZeRO-1 is the least all of the former shard, so a
// layout a published run used is not called out of memory for want of
// a flag (Llama 3.1 405B at TP 8 × PP 16 on 16,384 H100s holds 113 GiB a
// GPU unsharded). Fine-tunes keep stage 0: HF Trainer and Accelerate
// replicate unless told to shard. The shard group is every GPU outside
// TP × PP (CP included), as Megatron-Core's distributed optimizer shards
// over the data-parallel group with context parallelism. ZeRODefault is
// the first stage tried: ResolveTrainDefaults raises it to the sharding
// of the FSDP stacks when ZeRO-1 does not fit.
func ZeRODefault(in Input) int {
	if in.Task == Pretrain && in.ZeRO == 0 && in.TP >= 1 && in.PP >= 1 && in.GPUs/(in.TP*in.PP) > 1 {
		return 1
	}
	return in.ZeRO
}

// Sentinel errors wrapped by InputError.
var (
	ErrRange        = errors.New("out of range")
	ErrIncompatible = errors.New("incompatible with other settings")
	ErrUnknown      = errors.New("unknown value")
	ErrNoModel      = errors.New("no model architecture")
	// ErrNotNumber is text that is no number at all ("abc"), where
	// ErrRange is a number outside the bounds.
	ErrNotNumber = errors.New("not a number")
)

// InputError is one invalid Input field. Field is the CLI flag name
// ("batch", "seq", "tp", ...), so a UI can show Err next to that field.
// An ErrRange error carries its bounds as numbers in Range, so a UI can
// say them in its own language and number format; Reason says them in
// English for the command line.
type InputError struct {
	Field  string // CLI flag name without dashes
	Value  string // the offending value as text
	Reason string // human detail, may be empty
	Err    error  // ErrRange, ErrIncompatible, ErrUnknown or ErrNoModel
	Range  Range  // the accepted values of an ErrRange error (zero: not said)
}

// Range is the values a field accepts: from Min to Max, each bound
// inclusive unless its Open flag is set; a bound not Has… is unbounded.
// Unit says what the bounds count.
type Range struct {
	Min, Max         float64
	HasMin, HasMax   bool
	MinOpen, MaxOpen bool // (0, 1] is Min 0 with MinOpen, Max 1
	Unit             RangeUnit
}

// RangeUnit is what a Range's bounds count.
type RangeUnit uint8

const (
	RangeNumber  RangeUnit = iota // a plain number or count
	RangeBytes                    // bytes
	RangeSeconds                  // seconds
)

// Between is the range from lo to hi, both included.
func Between(lo, hi float64) Range { return Range{Min: lo, Max: hi, HasMin: true, HasMax: true} }

// AtLeast is the range from lo up, lo included.
func AtLeast(lo float64) Range { return Range{Min: lo, HasMin: true} }

// Above is the range above lo, lo excluded.
func Above(lo float64) Range { return Range{Min: lo, HasMin: true, MinOpen: true} }

// In is r counting unit.
func (r Range) In(unit RangeUnit) Range { r.Unit = unit; return r }

// Set reports whether r says any bound.
func (r Range) Set() bool { return r.HasMin || r.HasMax }

// Contains reports whether v lies in r.
func (r Range) Contains(v float64) bool {
	lo := !r.HasMin || v > r.Min || !r.MinOpen && v == r.Min
	hi := !r.HasMax || v < r.Max || !r.MaxOpen && v == r.Max
	return lo && hi && !math.IsNaN(v)
}

// WholeRange is the range of a whole-number Input field by its CLI flag
// name, as Validate checks it (ok false: not a whole-number field with a
// fixed range). A reader that cannot hold a value (1e30 overflows an int)
// says this range, as Validate says it of a value it can hold.
func WholeRange(field string) (Range, bool) {
	for _, w := range wholeRanges {
		if w.field == field {
			return Between(w.lo, w.hi), true
		}
	}
	return Range{}, false
}

// wholeRanges are the whole-number fields' ranges, as data (a switch on
// the names was 1.4 KB of code). Workload's fields are also read under
// the flags' names, --prompt-tokens and --output-tokens.
var wholeRanges = [...]struct {
	field  string
	lo, hi float64
}{
	{"batch", 1, maxBatch},
	{"seq", 1, maxSeq}, {"prompt", 1, maxSeq}, {"prompt-tokens", 1, maxSeq},
	{"max-batched-tokens", 0, maxSeq}, {"loss-chunks", 0, maxSeq}, {"output", 0, maxSeq}, {"output-tokens", 0, maxSeq},
	{"gpus", 1, maxGPUs}, {"tp", 1, maxGPUs}, {"pp", 1, maxGPUs}, {"cp", 1, maxGPUs},
	{"ep", 0, maxGPUs}, {"dp", 0, maxGPUs}, {"redundant-experts", 0, maxGPUs}, {"nvlink-domain", 0, maxGPUs},
	{"micro-batches", 0, maxBatch}, {"virtual-stages", 0, maxBatch}, {"scheduler-steps", 0, maxBatch}, {"scheduler-recv-interval", 0, maxBatch},
	{"attention-dp-balance", 0, maxBatch}, {"mtp-draft-tokens", 0, maxDraftTokens}, {"cuda-graph-max-bs", 0, maxBatch},
	{"global-batch", 0, maxBatch * maxGPUs},
	{"lora-rank", 1, 1 << 16},
	{"zero", 0, 3},
}

func (e *InputError) Error() string {
	s := "estimator: " + e.Field + "=" + e.Value + ": " + e.Err.Error()
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Unwrap returns the sentinel.
func (e *InputError) Unwrap() error { return e.Err }

// Limits on inputs, so every product in the model stays finite.
const (
	maxBatch = 1 << 20
	maxSeq   = 1 << 24
	maxGPUs  = 1 << 16
	maxVRAM  = 1 << 50
)

type errList struct {
	errs [16]error
	n    int
}

func (l *errList) add(field string, value any, err error, reason string, args ...any) {
	if l.n == len(l.errs) {
		return
	}
	if len(args) > 0 {
		reason = fmt.Sprintf(reason, args...)
	}
	l.errs[l.n] = &InputError{Field: field, Value: fmt.Sprint(value), Reason: reason, Err: err}
	l.n++
}

// out adds an ErrRange error with the range r the field accepts.
func (l *errList) out(field string, value any, r Range, reason string, args ...any) {
	if l.n == len(l.errs) {
		return
	}
	l.add(field, value, ErrRange, reason, args...)
	l.errs[l.n-1].(*InputError).Range = r
}

// whole adds an ErrRange error for a whole-number field with its
// WholeRange.
func (l *errList) whole(field string, value int, reason string, args ...any) {
	r, _ := WholeRange(field)
	l.out(field, value, r, reason, args...)
}

// drafts checks speculative decoding's d draft tokens a step at
// acceptance acc for in (Input.DraftTokens and DraftAcceptance, the
// disaggregated replica's Disagg fields): the model needs an MTP module
// and a serving engine that runs it, TensorRT-LLM DeepSeek-V3's alone
// (its MTPDecodingConfig drives the MTP layers of tensorrt_llm/_torch/
// models/modeling_deepseekv3.py; no other model's module is read there).
func (l *errList) drafts(in Input, d int, acc float64) {
	switch {
	case d < 0 || d > maxDraftTokens:
		l.whole("mtp-draft-tokens", d, "want 0..%d", maxDraftTokens)
	case d == 0:
	case in.Arch.MTPLayers < 1:
		l.add("mtp-draft-tokens", d, ErrIncompatible, "the model has no multi-token-prediction module (num_nextn_predict_layers)")
	case in.Task.Training() || !(in.Engine == VLLM || in.Engine == SGLang || in.Engine == TRTLLM && deepSeekMTP(in.Arch)):
		l.add("mtp-draft-tokens", d, ErrIncompatible, "speculative decoding with the MTP module runs on vllm and sglang serving, and on trtllm for DeepSeek-V3-family models")
	}
	if !(acc >= 0 && acc < 1) {
		l.out("mtp-acceptance", acc, Range{Min: 0, Max: 1, HasMin: true, HasMax: true, MaxOpen: true}, "want a probability in [0, 1) (0: the measured figure for the model's module)")
	}
}

// Validate checks in and returns nil or errors.Join of *InputError values,
// one per problem, so a UI can mark every bad field at once.
func (in Input) Validate() error {
	var l errList
	in.validate(&l)
	validateKernel(&l, in) // as Estimate and Throughput check it
	if l.n == 0 {
		return nil
	}
	return errors.Join(l.errs[:l.n]...)
}

func (in Input) validate(l *errList) {
	a := in.Arch
	if a.TotalParams <= 0 {
		l.add("model", a.ModelType, ErrNoModel, "parse a config first")
		return
	}
	if in.Task < 0 || int(in.Task) >= len(taskNames) {
		l.add("task", int(in.Task), ErrUnknown, "")
	}
	if in.Engine < 0 || int(in.Engine) >= len(engineNames) {
		l.add("engine", int(in.Engine), ErrUnknown, "")
	}
	if in.Weights < 0 || int(in.Weights) >= len(dtypeNames) {
		l.add("precision", int(in.Weights), ErrUnknown, "")
	}
	if in.KV < 0 || int(in.KV) >= len(dtypeNames) {
		l.add("kv-dtype", int(in.KV), ErrUnknown, "")
	}
	if in.Quant < 0 || int(in.Quant) >= len(quantNames) {
		l.add("quant", int(in.Quant), ErrUnknown, "")
	}
	if in.Optimizer < 0 || int(in.Optimizer) >= len(optimizerNames) {
		l.add("optimizer", int(in.Optimizer), ErrUnknown, "")
	}
	if in.Offload < 0 || int(in.Offload) >= len(offloadNames) {
		l.add("offload", int(in.Offload), ErrUnknown, "")
	}
	if in.OptimizerImpl < 0 || int(in.OptimizerImpl) >= len(optimizerImplNames) {
		l.add("optimizer-impl", int(in.OptimizerImpl), ErrUnknown, "")
	} else if in.OptimizerImpl != OptimizerImplAuto && !in.Task.Training() {
		l.add("optimizer-impl", in.OptimizerImpl.String(), ErrIncompatible, "the optimizer's implementation is a training setting")
	}
	if in.LoRATargets < 0 || int(in.LoRATargets) >= len(loraTargetNames) {
		l.add("lora-targets", int(in.LoRATargets), ErrUnknown, "")
	}
	if in.AttnKernel < 0 || int(in.AttnKernel) >= len(attnKernelNames) {
		l.add("attention-kernel", int(in.AttnKernel), ErrUnknown, "")
	} else if in.AttnKernel != AttnFA2 && !in.FlashAttention {
		l.add("attention-kernel", in.AttnKernel.String(), ErrIncompatible, "a fused attention kernel needs FlashAttention-style attention (--flash-attention)")
	}
	if in.Batch < 1 || in.Batch > maxBatch {
		l.whole("batch", in.Batch, "want 1..%d", maxBatch)
	}
	if in.Seq < 1 || in.Seq > maxSeq {
		l.whole("seq", in.Seq, "want 1..%d", maxSeq)
	}
	if in.VRAM <= 0 || in.VRAM > maxVRAM {
		l.out("vram", int64(in.VRAM), Above(0).In(RangeBytes), "want > 0 bytes")
	}
	if in.UsableVRAM < 0 || in.UsableVRAM > maxVRAM {
		l.out("usable-vram", int64(in.UsableVRAM), AtLeast(0).In(RangeBytes), "want ≥ 0 bytes")
	} else if in.VRAM > 0 && in.UsableVRAM > in.VRAM {
		// What a process can allocate is below the card's memory (CUDA
		// context, ECC, driver reservations), never above it.
		l.out("usable-vram", int64(in.UsableVRAM), Between(0, float64(in.VRAM)).In(RangeBytes), "want at most the GPU's memory (%d bytes)", int64(in.VRAM))
	}
	if in.VisibleVRAM < 0 || (in.VRAM > 0 && in.VisibleVRAM > in.VRAM) {
		l.out("visible-vram", int64(in.VisibleVRAM), Between(0, float64(in.VRAM)).In(RangeBytes), "want 0..the GPU's memory (%d bytes)", int64(in.VRAM))
	}
	if !(in.GPUMemUtil >= 0 && in.GPUMemUtil <= 1) && in.Engine.Pooled() {
		l.out("gpu-mem-util", in.GPUMemUtil, Between(0, 1), "want a fraction in (0, 1] (0: the engine's default)")
	}
	if in.MaxBatchedTokens < 0 || in.MaxBatchedTokens > maxSeq {
		l.whole("max-batched-tokens", in.MaxBatchedTokens, "want 0..%d", maxSeq)
	}
	for _, o := range [...]struct {
		f string
		v OptionalBytes
	}{{"cuda-context", in.Overheads.CUDAContext}, {"allocator-reserve", in.Overheads.AllocatorReserve},
		{"nccl", in.Overheads.NCCL}, {"cuda-graphs", in.Overheads.CUDAGraphs}} {
		if o.v.Set && (o.v.Value < 0 || o.v.Value > maxVRAM) {
			l.out(o.f, int64(o.v.Value), Between(0, maxVRAM).In(RangeBytes), "want ≥ 0 bytes")
		}
	}
	train := in.Task.Training()
	if train && in.Engine != HF {
		l.add("engine", in.Engine, ErrIncompatible, "training runs on the PyTorch stack (hf)")
	}
	// fp8 full training is Transformer Engine style: fp8 matmuls with
	// bf16 weights, gradients and an fp32 master copy (NVIDIA Transformer
	// Engine user guide), so its memory is bf16 mixed precision's.
	if (in.Task == Pretrain || in.Task == FullFinetune) && in.Weights != FP32 && in.Weights != BF16 && in.Weights != FP16 && in.Weights != FP8 {
		l.add("precision", in.Weights, ErrIncompatible, "full training needs fp32, bf16, fp16 or fp8 (Transformer Engine)")
	}
	if in.Task == LoRA || in.Task == QLoRA {
		if in.LoRARank < 1 || in.LoRARank > 1<<16 {
			l.whole("lora-rank", in.LoRARank, "want 1..65536")
		}
		if a.LoRAAttnDims == 0 {
			l.add("lora-rank", in.LoRARank, ErrIncompatible, "the config gives no layer shapes (hidden_size, num_hidden_layers) to place adapters")
		} else if in.LoRATargets == LoRAQueryValue && a.LoRAQVDims == 0 {
			// MLA has no value projection of its own: DeepSeek's v is
			// part of kv_b_proj's output, its q of q_a/q_b_proj.
			l.add("lora-targets", in.LoRATargets, ErrIncompatible, "the model has no separate query and value projections (multi-head latent attention): want attention or all-linear")
		}
	}
	if in.PureBF16 && (!train || in.Task != QLoRA && in.Weights != BF16 && in.Weights != FP16) {
		l.add("pure-bf16", in.PureBF16, ErrIncompatible, "pure 16-bit training needs a training task with bf16 or fp16 weights")
	}
	if in.LossChunks < 0 || in.LossChunks > maxSeq {
		l.whole("loss-chunks", in.LossChunks, "want 0..%d", maxSeq)
	} else if in.LossChunks > 1 && !train {
		l.add("loss-chunks", in.LossChunks, ErrIncompatible, "chunked cross-entropy is a training option")
	}
	if in.BF16OptimizerStates && (in.Task != Pretrain && in.Task != FullFinetune || in.Weights == FP32 || in.PureBF16 || in.ZeRO < 1 || in.Optimizer != AdamW) {
		l.add("bf16-optimizer-states", in.BF16OptimizerStates, ErrIncompatible, "bf16 optimizer states are a distributed AdamW's (--zero 1 or more) in full mixed-precision training, not with --pure-bf16 or fp32 weights")
	}
	if in.TPCommOverlap && (!train || !in.SequenceParallel) {
		l.add("tp-comm-overlap", in.TPCommOverlap, ErrIncompatible, "tensor-parallel communication overlap is a training option that overlaps sequence parallelism's all-gathers and reduce-scatters: it needs --sequence-parallel")
	}
	if in.FlashCrossEntropy && (!train || in.LossChunks > 1) {
		l.add("flash-cross-entropy", in.FlashCrossEntropy, ErrIncompatible, "flash-attn's fused cross-entropy is a training loss over the whole logits (not with --loss-chunks)")
	}
	if in.OptimizerInBackward && (in.Task != Pretrain && in.Task != FullFinetune || in.GPUs != 1) {
		l.add("optimizer-in-backward", in.OptimizerInBackward, ErrIncompatible, "optimizer in backward needs full training on one GPU")
	}
	if !(in.LoRADropout >= 0 && in.LoRADropout < 1) {
		l.out("lora-dropout", in.LoRADropout, Range{Min: 0, Max: 1, HasMin: true, HasMax: true, MaxOpen: true}, "want 0 ≤ p < 1")
	}
	if in.QuantizeHead && in.Task != QLoRA {
		l.add("quantize-head", in.QuantizeHead, ErrIncompatible, "a 4-bit LM head needs --task qlora")
	}
	if in.KeepsLastGraph && !train {
		l.add("keeps-last-graph", in.KeepsLastGraph, ErrIncompatible, "the previous step's graph is a training option")
	}
	if in.FSDPGatherFP32 {
		switch {
		case in.Task != Pretrain && in.Task != FullFinetune:
			l.add("fsdp-fp32-gather", in.FSDPGatherFP32, ErrIncompatible, "FSDP's fp32 gather under autocast is modelled for full training (--task train or finetune)")
		case in.PureBF16 || in.Weights == FP32:
			l.add("fsdp-fp32-gather", in.FSDPGatherFP32, ErrIncompatible, "an fp32 gather under autocast is mixed precision: not with --pure-bf16 or fp32 weights")
		}
	}
	if in.LitGPTAttention && !train {
		l.add("litgpt-attention", in.LitGPTAttention, ErrIncompatible, "what LitGPT's attention saves for the backward is a training option")
	}
	if in.AdapterDType != AdapterAuto {
		switch {
		case in.Task != LoRA && in.Task != QLoRA:
			l.add("adapter-dtype", in.AdapterDType, ErrIncompatible, "an adapter dtype needs --task lora or qlora")
		case in.AdapterDType != AdapterFP32 && in.Task == LoRA && AdapterDTypeOf(in.Weights) != in.AdapterDType:
			// A 16-bit adapter under another dtype's base would cast
			// every adapted input again (PEFT's _cast_input_dtype), a case
			// no stack runs by default.
			l.add("adapter-dtype", in.AdapterDType, ErrIncompatible, "16-bit adapters are in the base's dtype (--precision bf16 or fp16): want fp32, auto or "+in.Weights.String())
		}
	}
	if in.LoRAFusedQKV && in.Task != LoRA && in.Task != QLoRA {
		l.add("lora-fused-qkv", in.LoRAFusedQKV, ErrIncompatible, "a fused qkv adapter needs --task lora or qlora")
	}
	if in.FSDPAdapterUnits && (in.Task != LoRA && in.Task != QLoRA || in.ZeRO != 3) {
		l.add("fsdp-adapter-units", in.FSDPAdapterUnits, ErrIncompatible, "adapters as FSDP units of their own need --task lora or qlora with --zero 3")
	}
	if in.FSDPNoSync && (!train || in.ZeRO != 3) {
		l.add("fsdp-no-sync", in.FSDPNoSync, ErrIncompatible, "FSDP's no_sync accumulation needs training with --zero 3")
	}
	if in.FSDP2 && (!train || in.ZeRO != 3) {
		l.add("fsdp2", in.FSDP2, ErrIncompatible, "FSDP2 (fully_shard) is ZeRO-3 sharding: it needs training with --zero 3")
	}
	for _, f := range [...]struct {
		name string
		v    int
	}{{"ep", in.EP}, {"dp", in.DP}} {
		trainEP := train && f.name == "ep"
		switch {
		case f.v < 0 || f.v > maxGPUs:
			l.whole(f.name, f.v, "want 0..%d", maxGPUs)
		case f.v <= 1:
		case f.name == "ep" && !a.IsMoE():
			l.add(f.name, f.v, ErrIncompatible, "expert parallelism needs a mixture-of-experts model")
		case f.name == "ep" && ExpertSplit(a, f.v, in.RedundantExperts) != "":
			// The estimate gives every EP rank (Experts + redundant)/EP
			// experts; an uneven split is not what it models, and
			// Megatron-LM refuses it in training (arguments.py: "Number
			// of experts should be a multiple of expert model
			// parallel_size").
			l.add(f.name, f.v, ErrIncompatible, "%s", ExpertSplit(a, f.v, in.RedundantExperts))
		case trainEP && in.Task != Pretrain && in.Task != FullFinetune:
			l.add(f.name, f.v, ErrIncompatible, "expert parallelism in training needs full training (train or finetune)")
		case trainEP && in.TP >= 1 && in.PP >= 1 && in.GPUs%(in.TP*in.PP) == 0 && (in.GPUs/(in.TP*in.PP))%f.v != 0:
			l.add(f.name, f.v, ErrIncompatible, "does not divide the data-parallel degree %d (training takes its expert ranks from it)", in.GPUs/(in.TP*in.PP))
		case trainEP:
		case train || !in.Engine.Pooled():
			l.add(f.name, f.v, ErrIncompatible, "attention data parallelism is a serving option, and serving EP needs vllm, sglang or trtllm")
		case in.TP >= 1 && in.TP%f.v != 0:
			l.add(f.name, f.v, ErrIncompatible, "does not divide tp=%d (the GPUs it spans are the TP group's)", in.TP)
		}
	}
	switch r := in.RedundantExperts; {
	case r == 0:
	case r < 0 || r > maxGPUs:
		l.whole("redundant-experts", r, "want 0..%d", maxGPUs)
	case train || !in.Engine.Pooled() || in.EP <= 1 || !a.IsMoE():
		l.add("redundant-experts", r, ErrIncompatible, "redundant experts are copies over a serving engine's expert-parallel ranks: want --ep > 1 on vllm, sglang or trtllm with a mixture-of-experts model")
	}
	switch in.MoEA2A {
	case "":
	case MoEA2ADeepEP, MoEA2ANone:
		if train || in.Engine != SGLang || !a.IsMoE() {
			l.add("moe-a2a-backend", in.MoEA2A, ErrIncompatible, "%s", MoEA2ANeeds)
		}
	default:
		l.add("moe-a2a-backend", in.MoEA2A, ErrRange, "want %s or %s", MoEA2ADeepEP, MoEA2ANone)
	}
	if in.TwoBatchOverlap && (train || in.Engine != SGLang || !a.IsMoE()) {
		l.add("two-batch-overlap", in.TwoBatchOverlap, ErrIncompatible, "%s", TwoBatchOverlapNeeds)
	}
	if !(in.RequestSeconds >= 0 && in.RequestSeconds <= 3600) {
		l.out("request-overhead", in.RequestSeconds, Between(0, 3600).In(RangeSeconds), "want seconds in [0, 3600]")
	}
	if in.SchedulerSteps < 0 || in.SchedulerSteps > maxBatch {
		l.whole("scheduler-steps", in.SchedulerSteps, "want 0..%d", maxBatch)
	} else if in.SchedulerSteps > 1 && (in.Engine != VLLM || train) {
		l.add("scheduler-steps", in.SchedulerSteps, ErrIncompatible, "multi-step scheduling is a vLLM serving option")
	}
	if in.AsyncScheduling && (in.Engine != VLLM || train) {
		l.add("async-scheduling", 1, ErrIncompatible, "async scheduling is a vLLM serving option")
	}
	if in.NoOverlapSchedule && (train || in.Engine != SGLang && in.Engine != TRTLLM) {
		l.add("no-overlap-schedule", 1, ErrIncompatible, "turning the overlap scheduler off is an sglang or trtllm serving option (vllm: --async-scheduling)")
	}
	if in.CUDAGraphMaxBS < 0 || in.CUDAGraphMaxBS > maxBatch {
		l.whole("cuda-graph-max-bs", in.CUDAGraphMaxBS, "want 0..%d", maxBatch)
	} else if in.CUDAGraphMaxBS > 0 && (in.Engine != SGLang || train) {
		l.add("cuda-graph-max-bs", in.CUDAGraphMaxBS, ErrIncompatible, "the CUDA-graph batch cap is an sglang serving option")
	}
	if in.NoPrefixCache && (train || in.Engine != VLLM && in.Engine != SGLang) {
		l.add("no-prefix-cache", 1, ErrIncompatible, "turning the prefix cache off is a vllm or sglang serving option")
	}
	if in.SchedulerRecvInterval < 0 || in.SchedulerRecvInterval > maxBatch {
		l.whole("scheduler-recv-interval", in.SchedulerRecvInterval, "want 0..%d", maxBatch)
	} else if in.SchedulerRecvInterval > 1 && (in.Engine != SGLang || train) {
		l.add("scheduler-recv-interval", in.SchedulerRecvInterval, ErrIncompatible, "the receive interval is an SGLang serving option")
	}
	if in.AttentionDPBalanceIters < 0 || in.AttentionDPBalanceIters > maxBatch {
		l.whole("attention-dp-balance", in.AttentionDPBalanceIters, "want 0..%d", maxBatch)
	} else if in.AttentionDPBalanceIters > 0 && (in.Engine != TRTLLM || train || in.DP <= 1) {
		l.add("attention-dp-balance", in.AttentionDPBalanceIters, ErrIncompatible, "the attention-DP balance is a TensorRT-LLM serving option under attention data parallelism (--dp > 1)")
	}
	l.drafts(in, in.DraftTokens, in.DraftAcceptance)
	if in.Quant.GGUF() && in.Engine != LlamaCpp {
		l.add("quant", in.Quant, ErrIncompatible, "GGUF formats run on llamacpp")
	}
	if in.Quant != QuantAuto && train && in.Task != LoRA && in.Task != QLoRA {
		l.add("quant", in.Quant, ErrIncompatible, "quantised weights cannot be fully trained")
	}
	if in.Quant.ExpertsOnly() {
		switch {
		case !in.Arch.IsMoE():
			l.add("quant", in.Quant, ErrIncompatible, "it quantises routed experts: the model has none")
		case in.Task != Inference || !in.Engine.Pooled():
			l.add("quant", in.Quant, ErrIncompatible, "a checkpoint format for vLLM, SGLang and TensorRT-LLM serving")
		}
	}
	// Parallelism.
	if in.GPUs < 1 || in.GPUs > maxGPUs {
		l.whole("gpus", in.GPUs, "want 1..%d", maxGPUs)
	}
	if in.TP < 1 || in.TP > maxGPUs {
		l.whole("tp", in.TP, "want 1..%d", maxGPUs)
	} else if in.TP > 1 {
		// The heads split over attention's TP group: the whole TP group,
		// or under serving's attention data parallelism its tp/dp GPUs
		// (attnTP; SGLang --enable-dp-attention, vLLM's DP attention:
		// each rank runs attention for its own requests over tp/dp GPUs).
		atp := int(attnTP(in))
		if train || in.DP <= 1 || in.TP%in.DP != 0 {
			atp = in.TP
		}
		if why := HeadsSplit(a, atp); why != "" {
			l.add("tp", in.TP, ErrIncompatible, "%s", why)
		}
	}
	if in.Schedule.MicroBatches < 0 || in.Schedule.MicroBatches > maxBatch {
		l.whole("micro-batches", in.Schedule.MicroBatches, "want 0..%d", maxBatch)
	}
	if in.Schedule.VirtualStages < 0 || in.Schedule.VirtualStages > maxBatch {
		l.whole("virtual-stages", in.Schedule.VirtualStages, "want 0..%d", maxBatch)
	}
	if in.Schedule.GlobalBatch < 0 || in.Schedule.GlobalBatch > maxBatch*maxGPUs {
		l.whole("global-batch", in.Schedule.GlobalBatch, "want 0..%d", maxBatch*maxGPUs)
	}
	if in.PP < 1 || in.PP > maxGPUs {
		l.whole("pp", in.PP, "want 1..%d", maxGPUs)
	} else if in.PP > 1 && in.PP > a.Layers {
		l.out("pp", in.PP, Between(1, float64(a.Layers)), "more stages than num_hidden_layers=%d", a.Layers)
	}
	if in.TP >= 1 && in.PP >= 1 && in.GPUs >= 1 && in.TP <= maxGPUs && in.PP <= maxGPUs && in.GPUs%(in.TP*in.PP) != 0 {
		l.add("gpus", in.GPUs, ErrIncompatible, "not a multiple of tp×pp=%d", in.TP*in.PP)
	}
	// Context parallelism splits each sequence over CP ranks of a model
	// copy (Megatron-Core's context_parallel_size: the world size is a
	// multiple of TP × PP × CP); the memory and speed model it for
	// training (CPShard, cpRingBytes).
	switch {
	case in.CP < 0 || in.CP > maxGPUs:
		l.whole("cp", in.CP, "want 1..%d", maxGPUs)
	case in.CP > 1 && !train:
		l.add("cp", in.CP, ErrIncompatible, "context parallelism is modelled for training")
	case in.CP > 1 && in.TP >= 1 && in.PP >= 1 && in.TP <= maxGPUs && in.PP <= maxGPUs && in.GPUs%(in.TP*in.PP*in.CP) != 0:
		l.add("cp", in.CP, ErrIncompatible, "gpus=%d is not a multiple of tp×pp×cp=%d", in.GPUs, in.TP*in.PP*in.CP)
	case in.CP > 1 && in.Seq%in.CP != 0:
		l.add("cp", in.CP, ErrIncompatible, "does not divide seq=%d", in.Seq)
	}
	if in.ZeRO < 0 || in.ZeRO > 3 {
		l.whole("zero", in.ZeRO, "want 0..3")
	} else if in.ZeRO > 0 && !train {
		l.add("zero", in.ZeRO, ErrIncompatible, "ZeRO shards training state")
	}
	switch in.Offload {
	case OffloadOptimizer:
		if !train || in.ZeRO < 1 {
			l.add("offload", in.Offload, ErrIncompatible, "optimizer offload needs training with zero ≥ 1")
		}
	case OffloadAll:
		if !train || in.ZeRO != 3 {
			l.add("offload", in.Offload, ErrIncompatible, "parameter offload needs training with zero 3")
		}
	}
}

// HeadsSplit says why a's attention heads do not split over atp GPUs, or
// "" when they do (a config without heads never does): the query heads
// must divide evenly, and the KV heads
// must divide or be divided by atp, being replicated when atp exceeds
// them (vLLM's ModelConfig.verify_with_parallel_config); MLA's one latent
// KV head is shared by all. The estimate's input check and the launch's
// check of a planned row both read it.
func HeadsSplit(a Arch, atp int) string {
	atp = max(atp, 1)
	switch {
	case a.Heads == 0 || a.Heads%atp != 0:
		return fmt.Sprintf("attention over %d GPUs does not divide num_attention_heads=%d", atp, a.Heads)
	case !a.IsMLA() && a.KVHeads > 0 && a.KVHeads%atp != 0 && atp%a.KVHeads != 0:
		return fmt.Sprintf("num_key_value_heads=%d neither divides nor is divided by attention's %d GPUs", a.KVHeads, atp)
	}
	return ""
}

// BlockRefusal is BlockSplit for a serving input as set: why its engine
// refuses to load its FP8 checkpoint at its TP, DP and EP, "" where it
// loads, where the weights are not FP8 (no blocks to split) and for
// training. The estimate's warning, the plan's check of a layout the user
// fixed and the planner's layout search read it.
func BlockRefusal(in Input) string {
	if in.Task.Training() || in.Weights != FP8 {
		return ""
	}
	return BlockSplit(in.Arch, in.Engine, in.TP, in.DP, in.EP)
}

// BlockSplit says why engine e cannot load a's block-quantised checkpoint
// (Arch.WeightBlock) split over a copy of TP tp with attention data
// parallelism dp and expert parallelism ep, or "" where it can: vLLM and
// SGLang split a linear layer over TP only in whole blocks and stop at
// start-up otherwise ("The output_size of gate's and up's weight = 64 is
// not divisible by weight quantization block_n = 128": vLLM
// Fp8MoEMethod.create_weights in
// vllm/model_executor/layers/quantization/fp8.py, and
// validate_fp8_block_shape in .../quantization/utils/fp8_utils.py for
// the dense layers, which checks each output partition against block_n
// and the input partition against block_k; SGLang's
// python/sglang/srt/layers/quantization/fp8.py the same; read
// 2026-11-29). The routed experts split over the MoE's TP: the copy's
// whole TP without expert parallelism, TP/EP in SGLang with it (--ep-size
// divides --tp-size), none in vLLM with it (--enable-expert-parallel
// keeps every expert whole); the dense layers over the copy's TP where
// attention is not data-parallel. TensorRT-LLM loads such a checkpoint
// through its own quantised-checkpoint path, which this rule does not
// describe. The estimate's input check (the planner's layout search) and
// the launch's check of a planned row both read it.
//
// The estimate itself still estimates such a layout, with
// WarnBlockSplit: a published measurement may record a layout this rule
// refuses (a worker's expert parallelism left unstated), and estimate is
// the what-if its replay asks; the planner does not lay a copy out so
// (plan.startable) and the launch refuses it.
func BlockSplit(a Arch, e Engine, tp, dp, ep int) string {
	b := a.WeightBlock
	if b < 1 || !(e == VLLM || e == SGLang) {
		return ""
	}
	tp = max(tp, 1)
	moeTP := tp
	if ep > 1 {
		moeTP = 1
		if e == SGLang {
			moeTP = max(tp/ep, 1)
		}
	}
	if w := a.MoEIntermediate; a.IsMoE() && w > 0 && (w%moeTP != 0 || w/moeTP%b != 0) {
		return fmt.Sprintf("the experts' %d-wide layers split over TP %d are not whole %d-wide blocks of the quantised checkpoint, which %s refuses at start-up: plan a smaller TP or expert parallelism", w, moeTP, b, e)
	}
	if w := a.Intermediate; dp <= 1 && w > 0 && tp > 1 && (w%tp != 0 || w/tp%b != 0) {
		return fmt.Sprintf("the dense %d-wide layers split over TP %d are not whole %d-wide blocks of the quantised checkpoint, which %s refuses at start-up: plan a smaller TP", w, tp, b, e)
	}
	return ""
}

// ExpertSplit says why a's routed experts, with redundant extra copies,
// do not split evenly over ep expert-parallel GPUs, or "" when they do:
// every EP rank holds (experts + redundant)/ep of them (SGLang's
// ep_num_redundant_experts, vLLM's EPLB and TensorRT-LLM's MoE load
// balancer place experts + redundant slots evenly over the EP ranks). The
// estimate's input check and the launch's check of a planned row both
// read it.
func ExpertSplit(a Arch, ep, redundant int) string {
	ep = max(ep, 1)
	switch {
	case (a.Experts+redundant)%ep == 0:
		return ""
	case redundant == 0:
		return fmt.Sprintf("does not divide the model's %d experts", a.Experts)
	}
	return fmt.Sprintf("does not divide the model's %d experts and %d redundant copies (%d)", a.Experts, redundant, a.Experts+redundant)
}

// RedundantExpertsRefusal says why in's engine cannot place in's
// redundant experts on hw's GPUs, "" where it can (or in has none). The
// engines' rule that redundant experts need serving EP > 1 on vLLM, SGLang
// or TensorRT-LLM with a mixture-of-experts model is Validate's; this is
// the rest of the one table, what the GPUs add:
//   - SGLang: --ep-num-redundant-experts with --enable-eplb, no further
//     condition (ServerArgs._handle_eplb_and_dispatch asserts only
//     ep_size > 1; sgl-project/sglang python/sglang/srt/server_args.py at
//     001067fffe33); SGLang starts only where the support table says.
//   - vLLM: --enable-eplb, which num_redundant_experts needs, "is only
//     supported on CUDA devices or ROCm devices" and needs
//     --enable-expert-parallel with TP × DP > 1 (ParallelConfig.
//     _validate_parallel_config, vllm/config/parallel.py, read 2026-11-30
//     in vllm-project/vllm's stored copy at 00193b82): not on Gaudi, where
//     vLLM runs through the vllm-gaudi plugin.
//   - TensorRT-LLM: the MoE load balancer (moe_config.load_balancer,
//     num_slots = experts + redundant, a multiple of EP: tensorrt_llm/
//     llmapi/llm_args.py MoeLoadBalancerConfig), on NVIDIA GPUs, where
//     TensorRT-LLM runs at all.
//
// The launch refuses such a copy (catalog/launch) and the planner lays
// out none (LayoutRefusal).
func RedundantExpertsRefusal(in Input, hw Hardware) string {
	if in.RedundantExperts <= 0 || in.Engine != VLLM || hw.Generation != GenGaudi {
		return ""
	}
	return "vLLM places redundant experts with its expert-parallel load balancer (--enable-eplb), which runs on CUDA and ROCm GPUs only, not on " +
		hw.Generation.String() + ": serve without redundant experts, with an EP that divides the model's " + strconv.Itoa(in.Arch.Experts) + " experts"
}

// LayoutRefusal is why in's layout does not run as the estimate prices it
// on hw's GPUs, "" where it does: SGLang's DeepEP all-to-all
// (DeepEPRefusal) or the engine's redundant experts
// (RedundantExpertsRefusal). The planner lays out no copy it refuses, and
// the launch refuses the same copies.
func LayoutRefusal(in Input, hw Hardware) string {
	if why := DeepEPRefusal(in, hw); why != "" {
		return why
	}
	return RedundantExpertsRefusal(in, hw)
}

// GPULayoutRefusal is the part of LayoutRefusal that depends on hw's
// GPUs, "" where the layout runs there: the estimate warns of the rest
// itself, whatever the GPU (WarnNoDPAttention: SGLang's code for the
// model runs no attention DP). The CLI's estimate notes it and the page
// shows it beside the figures of a layout the user set, which the
// planner would not lay out and the launch refuses.
func GPULayoutRefusal(in Input, hw Hardware) string {
	if sglangArchRefusal(in) != "" {
		return ""
	}
	return LayoutRefusal(in, hw)
}

// The values of Input.MoEA2A, as SGLang's --moe-a2a-backend names them.
const (
	MoEA2ADeepEP = "deepep"
	MoEA2ANone   = "none"
)

// MoEA2ANeeds is what Input.MoEA2A asks of a job.
const MoEA2ANeeds = "--moe-a2a-backend is SGLang's expert exchange: want --engine sglang serving a mixture-of-experts model"

// TwoBatchOverlapNeeds is what Input.TwoBatchOverlap asks of a job: the
// overlap is SGLang's, and it hides the experts' all-to-all, which a
// layout has with EP under attention data parallelism (tboStep).
const TwoBatchOverlapNeeds = "two-batch overlap hides SGLang's expert all-to-all under the other micro-batch's compute: want --engine sglang serving a mixture-of-experts model with --ep > 1 and attention data parallelism (--dp > 1)"

// TwoBatchOverlaps reports whether a layout of ep expert-parallel and dp
// attention data-parallel ranks has the all-to-all that
// Input.TwoBatchOverlap overlaps (given SGLang and a mixture-of-experts
// model, which Validate asks).
func TwoBatchOverlaps(ep, dp int) bool { return ep > 1 && dp > 1 }
