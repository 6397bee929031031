package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// minGPUsLimit bounds the MinGPUs search reported by estimate.
const minGPUsLimit = 1024

// runEstimate implements "rightsize estimate": parse flags, resolve the
// model and GPU, estimate, and print a table or JSON. Invalid flags, files
// or inputs print one line on stderr and return 2.
func runEstimate(args []string, stdout, stderr io.Writer) int {
	return estimateCommand("estimate", args, stdout, stderr, nil)
}

// ckptDefaultNote says a QLoRA job is estimated with activation
// checkpointing as its stacks run it by default
// (estimator.QLoRACheckpointingDefault).
const ckptDefaultNote = "--grad-checkpointing: QLoRA checkpoints activations by default, as PEFT's prepare_model_for_kbit_training, TRL's SFTConfig, the QLoRA paper's qlora.py and torchtune's QLoRA recipes run it; --grad-checkpointing=false for a script that does not (LitGPT's lora.py: a Lightning precision such as bf16-true) (grad_checkpointing_default in --json)"

// estimateCommand parses the estimate flags. With a nil sub it prints the
// estimate; otherwise sub adds its own flags to the set and receives the
// parsed job (rightsize plan).
func estimateCommand(cmd string, args []string, stdout, stderr io.Writer, sub subcommand) (code int) {
	// notes are said once the command has answered (a refused input says
	// only why it was refused).
	var notes []string
	defer func() {
		if code == 0 {
			for _, n := range notes {
				fmt.Fprintln(stderr, "note: "+n)
			}
		}
	}()
	fail := func(format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		// One printable line: a flag's value is echoed in its error, and
		// an escape sequence in it (--engine $'vllm\e[2J') reached the
		// terminal as given.
		msg = catalog.Printable(strings.ReplaceAll(msg, "\n", "; "))
		fmt.Fprintln(stderr, "rightsize "+cmd+": "+msg)
		return 2
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// Defaults and choices are the estimator's, as on the page.
	def := estimator.DefaultInput(estimator.Arch{})
	// The shared job fields' flags (jobspec.Fields) are read back as text
	// by jobText and parsed by page.ParseInput, as the page's fields: the
	// blank ones are defined here for their help only.
	var (
		model            = textFlag(fs, jobspec.Model, "catalog model ID (e.g. llama-3.1-8b)")
		config           = fs.String("config", "", "Hugging Face config.json or rightsize-generic config file")
		_                = textFlag(fs, jobspec.Task, choices(estimator.Tasks))
		_                = textFlag(fs, jobspec.Precision, "weights: "+choices(estimator.DTypes)+" (training: the compute dtype; fp8 = Transformer Engine), or Lightning's "+choices(page.LightningPrecisions)+" (bf16-true and 16-true: --pure-bf16; the -mixed ones: autocast over fp32 weights, training only)")
		_                = textFlag(fs, jobspec.KVDType, "KV cache: "+choices(estimator.DTypes))
		_                = textFlag(fs, jobspec.Quant, "weight format: "+choices(estimator.Quants)+" (auto under --task qlora: bitsandbytes NF4 without double quantisation, 4.5 bits, its and Lightning's default; nf4: double-quantised, 4.127 bits, as the QLoRA paper and torchtune's torchao NF4)")
		_                = textFlag(fs, jobspec.Kernel, "weight-only int4/int8 kernel: "+choices(estimator.Kernels)+" (auto: in HF bitsandbytes for int8 and NF4, exllama for int4; in vLLM and SGLang Marlin. GPTQ int8 in HF: autogptq)")
		batch            = intFlag(fs, jobspec.Batch, "micro-batch (training) or concurrent sequences (inference)")
		_                = intFlag(fs, jobspec.Seq, "tokens per sequence")
		_                = textFlag(fs, jobspec.Optimizer, choices(estimator.Optimizers))
		_                = textFlag(fs, jobspec.OptimizerImpl, "training: how AdamW runs its step, "+choices(estimator.OptimizerImpls)+" (foreach: torch.optim.AdamW with neither foreach nor fused given, as LitGPT's scripts and a plain loop build it, allocates one moment's worth more during the step; fused: torch's fused=True, HF Trainer's default adamw_torch_fused, torchtune's fused: True, DeepSpeed's FusedAdam. auto: fused, foreach with a Lightning --precision)")
		_                = boolFlag(fs, jobspec.PureBF16, "training in 16-bit only, bf16 or fp16 as --precision says (the name is older than fp16 support): no fp32 master copy, gradients and optimizer states in the weights' dtype (torchtune's default; Lightning's --precision bf16-true and 16-true)")
		seqPar           = fs.Bool("sequence-parallel", def.SequenceParallel, "with TP in training, shard the LayerNorm/dropout activations too (Megatron-LM, NeMo)")
		tpOverlap        = fs.Bool("tp-comm-overlap", false, "training with TP and --sequence-parallel: overlap the tensor-parallel all-gathers and reduce-scatters with the GEMMs (Transformer Engine userbuffers, Megatron-Core tp_comm_overlap; Megatron-Bridge's Llama 3 70B and 405B recipes); no effect at TP 1")
		optInBwd         = fs.Bool("optimizer-in-backward", false, "full training on one GPU: step each parameter in the backward pass and free its gradient (torchtune optimizer_in_bwd)")
		loraDrop         = fs.Float64("lora-dropout", def.LoRADropout, "LoRA/QLoRA: dropout rate on the adapters' input (PEFT lora_dropout); above 0 each adapted linear saves a dropped copy of its input and a mask. 0.05 as LitGPT, ms-swift, TRL, axolotl's examples and torchtune's builders before 2024-09-11 set; 0 for PEFT's own default, LLaMA-Factory, Unsloth's notebooks, torchtune's Llama 3.1 recipes since")
		_                = textFlag(fs, jobspec.AdapterDType, "LoRA/QLoRA: the adapters' dtype, "+choices(estimator.AdapterDTypes)+" (fp32: Hugging Face PEFT's default over a bf16/fp16 base, autocast_adapter_dtype; without autocast, --pure-bf16, each adapted linear then saves an fp32 copy of its input. bf16/fp16: the base's dtype, as torchtune and LitGPT keep them. auto: fp32 under autocast (mixed precision); the model's 16-bit dtype in 16-bit-only training, --pure-bf16 or a Lightning bf16-true/16-true --precision, as torchtune's and LitGPT's; a Hugging Face PEFT loop over a bf16 model without autocast is --adapter-dtype fp32)")
		_                = boolFlag(fs, jobspec.LoRAFusedQKV, "LoRA/QLoRA: the q, k, v adapters share one fused qkv projection and one dropout (LitGPT)")
		_                = boolFlag(fs, jobspec.QuantizeHead, "QLoRA: the LM head is 4-bit too and dequantised whole when used (Lightning BitsandbytesPrecision, LitGPT; on by default for --pure-bf16 QLoRA on bitsandbytes NF4)")
		_                = boolFlag(fs, jobspec.KeepsLastGraph, "training: the loop holds the previous micro-batch's outputs, and so its autograd graph, until the next forward returns (LitGPT's fit loop); bitsandbytes' 4-bit linears keep their inputs with that graph. HF Trainer drops them each step; on by default for --pure-bf16 QLoRA on bitsandbytes NF4")
		sepHead          = fs.Bool("separate-head", false, "the LM head is its own copy of a tied input embedding (LitGPT: its GPT keeps wte and lm_head apart and its checkpoint conversion copies a tied embedding into both)")
		_                = boolFlag(fs, jobspec.FSDPNoSync, "training with --zero 3 that accumulates micro-batches inside FSDP's no_sync(): each rank holds the whole model's gradients between syncs. Default: on for fine-tunes that accumulate (--global-batch or --micro-batches above one micro-batch per replica), as HF Accelerate/Trainer and Lightning/LitGPT do; --fsdp-no-sync=false for DeepSpeed ZeRO-3, torchtune (FSDP2) or Accelerate's sync_each_batch")
		_                = boolFlag(fs, jobspec.FSDP2, "training with --zero 3 on PyTorch's FSDP2 (fully_shard: torchtune, torchtitan, HF Accelerate's fsdp_version 2), which keeps each parameter a tensor of its own: the root unit's gradient (embedding and LM head) is assembled once at the backward's end, not twice as FSDP1's flat parameter does, and frozen weights get no gradient. Default: FSDP1 (FullyShardedDataParallel: Lightning's FSDPStrategy, HF Accelerate's default, what --emit fsdp writes)")
		fsdpAdapterUnits = fs.Bool("fsdp-adapter-units", false, "LoRA under --zero 3: the adapters are FSDP units of their own (PEFT's fsdp_auto_wrap_policy, which HF Trainer applies to PEFT models), so the frozen weights get no gradient. Default: off, as Lightning/LitGPT wrap each Block with its adapters, and with --pure-bf16 FSDP then keeps a gradient for the frozen Block weights too")
		_                = textFlag(fs, jobspec.AttnKernel, "training: the fused attention kernel, "+choices(estimator.AttnKernels)+" (speed only; on H100 cuDNN's runs 1.62× and FlashAttention-3 1.74× FlashAttention-2's speed: Shah et al. 2024). cudnn for Megatron-Core, NeMo and Megatron-Bridge (Transformer Engine prefers it on Hopper); fa2 for FlashAttention-2 or Triton kernels (llm-foundry, HF with flash_attention_2)")
		_                = boolFlag(fs, jobspec.FSDPGatherFP32, "full training in mixed precision at --zero 3: FSDP keeps the parameters fp32 and gathers them in fp32, and autocast casts each gathered weight, caching a 16-bit copy of the whole model through the forward (Lightning's FSDPPrecision for bf16-mixed and 16-mixed: param_dtype float32; a fully_shard without a MixedPrecisionPolicy under autocast). Off: the 16-bit gather of HF Accelerate's FSDP and DeepSpeed. On by default with Lightning's bf16-mixed or 16-mixed --precision")
		_                = boolFlag(fs, jobspec.LitGPTAttention, "training: the attention is LitGPT's CausalSelfAttention, which saves K and V copied out to every query head (fewer KV heads than query heads) or the whole fused qkv output through V's view (as many); on by default with a Lightning --precision")
		_                = intFlag(fs, jobspec.LossChunks, "training: cross-entropy in this many chunks (torchtune's chunked loss uses 8); 0: one piece")
		bf16Opt          = fs.Bool("bf16-optimizer-states", false, "full training at --zero 1 or more (plan without --zero searches ZeRO 1 to 3): the distributed AdamW keeps its moments and its copy of the weights in bf16, 6 bytes a parameter before sharding, not 12 (apex DistributedFusedAdam dtype bf16, as NeMo 1.x's Llama SFT recipe sets it)")
		flashCE          = fs.Bool("flash-cross-entropy", false, "training: the loss is flash-attn's fused cross-entropy (llm-foundry's default loss_fn fused_crossentropy), which keeps the 16-bit logits and writes a 16-bit gradient, no fp32 copy")
		_                = boolFlag(fs, jobspec.GradCheckpointing, "full activation checkpointing. Default: on for --task qlora, as PEFT's prepare_model_for_kbit_training, TRL's SFTConfig, qlora.py and torchtune's QLoRA recipes run it (not for LitGPT's lora.py: a Lightning precision, or --pure-bf16 QLoRA on bitsandbytes NF4); --grad-checkpointing=false turns it off")
		_                = boolFlag(fs, jobspec.SelectiveRecompute, "recompute attention scores only")
		_                = boolFlag(fs, jobspec.FlashAttention, "FlashAttention/SDPA (no s² score tensors)")
		_                = intFlag(fs, jobspec.LoRARank, "LoRA rank")
		_                = textFlag(fs, jobspec.LoRATargets, choices(estimator.LoRATargetSets)+" (query-value: PEFT's own default for Llama-family models and LitGPT's lora.py default, taken with a Lightning --precision)")
		_                = textFlag(fs, jobspec.Engine, plan.AutoEngineName+"|"+choices(estimator.Engines)+" (auto: the engine the plan runs the job on: vllm for a decoder's inference where vLLM runs it on --gpu, else hf; hf for training)")
		_                = boolFlag(fs, jobspec.Compile, "HF transformers with a static KV cache and torch.compile (CUDA graphs)")
		_                = boolFlag(fs, jobspec.TextOnly, "a vision-language model's text model alone: its vision tower and projector are not loaded (vLLM --language-model-only)")
		_                = floatFlag(fs, jobspec.MFU, "training compute efficiency (share of peak FLOP/s) to use instead of the model's; 0: model")
		_                = floatFlag(fs, jobspec.InferenceMFU, "share of peak FLOP/s for prefill; 0: model")
		_                = floatFlag(fs, jobspec.BandwidthUtil, "share of memory bandwidth while decoding; 0: model")
		hostOp           = fs.Float64("host-op-us", 0, "HF eager: host microseconds per PyTorch op (0: by --host's class: 17.4 server, 28 legacy-server, 9 desktop)")
		host             = textFlag(fs, jobspec.Host, "host CPU: a class ("+choices(estimator.HostClasses)+") or a CPU name (e.g. \"AMD EPYC 7742\", \"Xeon Platinum 8275CL\"); sets HF eager's cost per op. Default: the class of the hosts the catalog offers the GPU in (desktop for consumer cards), else server")
		_                = textFlag(fs, jobspec.EngineVersion, "serving engine release, e.g. 0.6.0 (vLLM before 0.8 and SGLang before 0.4 run their scheduler between the GPU's steps, not under them). Default: the current release ("+currentVersions()+")")
		micro            = fs.Int("micro-batches", 0, "training: micro-batches (gradient accumulation steps) per optimizer step; 0: from --global-batch, else pre-training's published batch for the model's size (0.5M-4M tokens), else 4×PP with PP, else 1")
		_                = intFlag(fs, jobspec.GlobalBatch, "training: sequences per optimizer step over all GPUs")
		vp               = fs.Int("virtual-stages", 0, "training with --pp: model chunks per stage (Megatron interleaved 1F1B); 1: plain 1F1B; 0: pre-training interleaves two layers a chunk when the micro-batches are a multiple of --pp, as Megatron-Core's recipes and Llama 3 run it, else plain 1F1B")
		netGbps          = fs.Float64("network-gbps", 0, "inter-node network per node in Gbit/s (e.g. 3200 for 8×400G); 0: 200 Gbit/s per GPU")
		gpusNode         = fs.Int("gpus-per-node", 0, "GPUs per node: they share NVLink (or PCIe) and --network-gbps; 0: the GPU's NVLink domain (72 on GB200 NVL72), else 8")
		_                = floatFlag(fs, jobspec.GPUMemUtil, "the serving engine's memory share: vLLM --gpu-memory-utilization, SGLang --mem-fraction-static (shares of the GPU's memory), TensorRT-LLM --kv_cache_free_gpu_memory_fraction (a share of the memory free after loading)")
		_                = intFlag(fs, jobspec.MaxBatchedTokens, "the serving engine's tokens per step: vLLM --max-num-batched-tokens, SGLang --chunked-prefill-size, TensorRT-LLM --max_num_tokens (0: the engine's default for the GPU's memory)")
		_                = boolFlag(fs, jobspec.EnforceEager, "serving engines without CUDA graphs, as vLLM --enforce-eager, SGLang --disable-cuda-graph and TensorRT-LLM's cuda_graph_config: null run (no graphs' memory, eager decode steps; --emit writes the engine's setting)")
		schedSteps       = fs.Int("scheduler-steps", 0, "vLLM multi-step scheduling (--num-scheduler-steps); 0: every step")
		_                = boolFlag(fs, jobspec.AsyncScheduling, "vLLM --async-scheduling on a release before 0.14 (--engine-version), where it is opt-in: the scheduler runs a step ahead of the GPU, so the host's 21 µs a running sequence between steps goes (from 0.14 the default; the flag changes nothing)")
		_                = boolFlag(fs, jobspec.NoOverlapSchedule, "SGLang and TensorRT-LLM: the overlap scheduler off (SGLang --disable-overlap-schedule, TensorRT-LLM disable_overlap_scheduler: true; --emit writes it): the host's 4 ms a step run between the GPU's steps instead of under them. SGLang's speculative decoding (--mtp-draft-tokens) runs so unless SGLANG_ENABLE_SPEC_V2 is set, which the launch --emit writes sets")
		_                = intFlag(fs, jobspec.CUDAGraphMaxBS, "SGLang serving: the largest decode batch a scheduler (an attention-DP rank) replays from a CUDA graph (SGLang --cuda-graph-max-bs; --emit writes it); a decode step over more sequences runs eager, its kernels launched by the host. 0: graphs cover the job's batch, as the launch --emit writes sets them to (SGLang's own default is 8 to 512 by GPU memory and TP)")
		noPrefixCache    = fs.Bool("no-prefix-cache", false, "vLLM and SGLang: run without the prefix cache (SGLang --disable-radix-cache, vLLM --no-enable-prefix-caching; --emit writes it), as benchmark recipes do; with SGLang the benchmark's ignore-eos requests are then admitted only when the KV pool can hold every running request's whole output")
		recvInterval     = fs.Int("scheduler-recv-interval", 0, "SGLang --scheduler-recv-interval: new requests are taken off the socket every that many decode steps and at the step after a prefill (SGLang's receive skipper; the waiting queue is scheduled every step), as some benchmark recipes set it; 0: every pass (SGLang's default)")
		_                = intFlag(fs, jobspec.MTPDraftTokens, "serving with vllm, sglang or trtllm: speculative decoding with the model's multi-token-prediction module (DeepSeek-V3/R1, GLM-4.5), d draft tokens a decode step verified together (SGLang --speculative-algorithm EAGLE --speculative-num-steps d; vLLM --speculative-config method deepseek_mtp; TensorRT-LLM MTP num_nextn_predict_layers d; --emit writes it); 0: none")
		_                = floatFlag(fs, jobspec.MTPAcceptance, fmt.Sprintf("with --mtp-draft-tokens: probability a draft token is accepted when the ones before it were (0: DeepSeek-R1's measured tokens a step by draft count, 1.92 at one draft to 3.01 at five, else %.2f, DeepSeek-V3's measured 85-90%%). Benchmarks of random-token prompts accept fewer", estimator.MTPAcceptance))
		dpBalance        = fs.Int("attention-dp-balance", 0, "TensorRT-LLM with --dp > 1: attention_dp_config enable_balance with timeout_iters N (batching_wait_iters 0), as some benchmark recipes set it; 0: off (TensorRT-LLM's default)")
		gpu              = textFlag(fs, jobspec.GPU, "catalog GPU ID (e.g. h100-sxm); a plan for an ID in no form factor (a100-80gb, h100-80gb, h200-141gb) takes the chip's SXM, PCIe and NVL offers too")
		vram             = fs.String("vram", "", "memory per GPU with unit, e.g. 24GB or 80GiB (default 80GiB)")
		_                = textFlag(fs, jobspec.UsableVRAM, "measured usable memory per GPU (default 0.99 × what CUDA sees: vram, less the ECC share of a catalog GDDR GPU)")
		_                = intFlag(fs, jobspec.GPUs, "total GPUs")
		_                = intFlag(fs, jobspec.ZeRO, "DeepSpeed ZeRO stage 0..3 (FSDP full shard = 3). Default: 1 for pre-training over more than one data-parallel replica (the optimizer states sharded, as Megatron-Core's distributed optimizer, FSDP and GPT-NeoX run it), else 0")
		_                = textFlag(fs, jobspec.Offload, choices(estimator.Offloads))
		_                = intFlag(fs, jobspec.TP, "tensor-parallel degree")
		_                = intFlag(fs, jobspec.PP, "pipeline-parallel stages")
		_                = intFlag(fs, jobspec.CP, "context-parallel degree: the sequence split over CP GPUs with ring attention (training; --gpus = DP × TP × PP × CP)")
		_                = intFlag(fs, jobspec.EP, "MoE expert-parallel degree: training, taken from the data-parallel ranks (Megatron); serving, inside the TP group (divides --tp; vLLM -dp D --enable-expert-parallel with -tp t is --tp t·D --dp D --ep t·D)")
		_                = intFlag(fs, jobspec.RedundantExperts, "serving with --ep: extra copies of routed experts over the EP ranks, so that --ep divides experts + these; each EP rank holds (experts + these)/EP (SGLang --ep-num-redundant-experts, vLLM --enable-eplb --eplb-config num_redundant_experts, TensorRT-LLM MoE load balancer num_slots − experts)")
		moeA2A           = fs.String("moe-a2a-backend", "", "SGLang serving a mixture-of-experts model with --ep and --dp: the experts' token exchange, "+estimator.MoEA2ADeepEP+" (DeepEP's all-to-all, the default here, as the large-scale recipes run it) or "+estimator.MoEA2ANone+" (SGLang's own default: every rank gathers every DP rank's tokens before the experts, as NVIDIA's B200 and H200 attention-DP recipes run)")
		tbo              = fs.Bool("two-batch-overlap", false, "SGLang serving a mixture-of-experts model with --ep and --dp: run each step as two micro-batches whose compute overlaps the other's expert all-to-all (--enable-two-batch-overlap; off by default, as SGLang's). Faster once the all-to-all crosses nodes at large batches (+25.5% decode at 256 sequences a GPU on 72 H100s), slower at small ones (−27% at 32)")
		_                = intFlag(fs, jobspec.DP, "serving: attention data-parallel ranks inside the TP group (divides --tp; SGLang --enable-dp-attention --dp-size)")
		_                = textFlag(fs, jobspec.CUDAContext, "override the CUDA context line, e.g. 1343MiB")
		_                = textFlag(fs, jobspec.AllocatorReserve, "override the allocator reserve line")
		_                = textFlag(fs, jobspec.NCCL, "override the NCCL buffers line")
		_                = textFlag(fs, jobspec.CUDAGraphs, "override the CUDA graphs line")
		asJSON           = fs.Bool("json", false, "print JSON")
		_                = textFlag(fs, jobspec.TrainTokens, "tokens the training job processes, e.g. 500M, 2T (speed estimate with --gpu)")
		promptTok        = fs.Int("prompt-tokens", 0, "inference: prompt tokens per request (0: --seq less --output-tokens; with --output-tokens 0 too: half of --seq)")
		outputTok        = intFlag(fs, jobspec.OutputTokens, "inference: generated tokens per request")
		numReq           = fs.Int("num-requests", 0, "serving engines: requests in the simulated benchmark (0: 10 × --batch, at least 64; with --disagg 10 × --concurrency, as InferenceX's recipes send)")
		noSim            = fs.Bool("steady-state", false, "serving engines (and --disagg): report the closed-form steady state instead of the simulated benchmark")
		reqOver          = fs.Float64("request-overhead", 0, "serving engines: fixed seconds per request outside the GPU's steps (API server, tokenisation, streaming); 0: the engine's fitted figure for the model (SGLang and TensorRT-LLM by its prefill operations: 80 and 68 ms for DeepSeek-R1, 14 and 25 ms for Qwen3-8B; vLLM 28 ms)")
		calFile          = fs.String("calibration", "", "serving engines: apply a calibration written by rightsize calibrate --out: its GPU and engine where --gpu and --engine are not given (a mismatch is an error; a plan then covers that GPU's offers only) and its factors as --request-overhead, --inference-mfu and --bandwidth-util where those are not given (and --first-wave-seconds 0: the fit ran without a cold first wave, so its request cost holds the measured runs' cold start)")
		goodput          = fs.Float64("goodput", 0, "training: the share of the run's wall time spent in training steps, for performance.gpu_hours_with_overhead (interruptions, restarts, checkpoints); 0: estimated from the GPU count, 1 − 10% × GPUs / 16,384 (Llama 3's 16K-GPU pre-training kept over 90% effective time); 1: steps only")
		offline          = fs.Bool("offline", false, "serving engines: the engine runs without its API server (vLLM's LLM class, vllm run-batch, benchmark_throughput): no front end streams the tokens (vLLM's V1 API server otherwise holds a step to 45 µs a running stream); rightsize plan runs batch jobs so")
		rangeRatio       = fs.Float64("range-ratio", sim.DefaultRangeRatio, "serving engines: the simulated client draws each request's prompt and output lengths uniformly from [ratio × given, given] (benchmark_serving.py --random-range-ratio); 0 or 1: fixed lengths (vllm bench serve's 0; a client that draws from [0, given] at 0 is 0.001 here)")
	)
	firstWave := defineFirstWave(fs)
	// --concurrency is --batch for serving: the client's requests in
	// flight per replica (vllm bench serve --max-concurrency).
	fs.Func("concurrency", "serving: requests in flight per replica (the same as --batch)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err == nil {
			*batch = n
		}
		return err
	})
	var dis *disaggFlags // estimate's --disagg (estimate_disagg.go)
	if sub != nil {
		sub.define(fs)
	} else {
		dis = defineDisagg(fs)
		// The plan's request rate (rightsize plan; the page's rps):
		// given, the job is online serving, whose engine on auto is the
		// one the plan serves it on, as the page resolves it.
		textFlag(fs, jobspec.RequestsPerSecond, "online serving: target request rate, as rightsize plan takes it; makes the job a serving job, whose engine on auto is the plan's for serving (the speed stays the closed-loop benchmark at --batch; rightsize plan sizes replicas for the rate)")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: rightsize "+cmd+" (--model ID | --config FILE) [flags]")
			fs.PrintDefaults()
			return 0
		}
		return fail("%v", err)
	}
	if p, ok := sub.(positional); ok {
		if err := p.positional(fs.Args()); err != nil {
			return fail("%v", err)
		}
	} else if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *calFile != "" {
		if err := loadCalibration(fs, *calFile); err != nil {
			return fail("--calibration: %v", err)
		}
	}
	// The efficiency and hardware flags are checked here, by their names,
	// whether or not the job reaches the speed model that reads them
	// (without --gpu it does not, and NaN passed unseen).
	in01 := func(v float64) bool { return v >= 0 && v <= 1 }
	for _, f := range []struct {
		name string
		ok   bool
		want string
	}{
		{"host-op-us", *hostOp >= 0 && *hostOp <= 1e6, "microseconds per op from 0 to 1e6 (0: by --host)"},
		{"network-gbps", *netGbps >= 0 && *netGbps <= 1e6, "Gbit/s per node from 0 to 1e6 (0: the default)"},
		{"request-overhead", *reqOver >= 0 && *reqOver <= 3600, "seconds from 0 to 3600 (0: the engine's)"},
		{"range-ratio", in01(*rangeRatio), "a share in [0, 1]"},
		{"goodput", in01(*goodput), "a share in (0, 1] (0: estimated from the GPU count)"},
		{"gpus-per-node", *gpusNode >= 0, "≥ 1 (0: the GPU's own)"},
	} {
		if !f.ok {
			return fail("--%s %s: want %s", f.name, fs.Lookup(f.name).Value, f.want)
		}
	}

	// Architecture.
	var (
		cfg []byte
		cm  *catalog.Model // the catalog's model, for its card's context
	)
	name := *model
	switch {
	case *model != "" && *config != "":
		return fail("--model and --config are exclusive")
	case *model != "":
		m, ok := catalog.Default().Model(*model)
		if !ok {
			return fail("--model %q: not in the catalog (see rightsize catalog stats)", *model)
		}
		cfg, cm = []byte(m.Config), &m
	case *config != "":
		data, err := readConfig(*config)
		if err != nil {
			return fail("--config: %v", err)
		}
		cfg, name = data, *config
	default:
		return fail("need --model ID or --config FILE")
	}
	arch, err := estimator.ParseConfig(cfg)
	if err != nil {
		return fail("%s: %v", name, err)
	}
	if cm != nil {
		cm.ScaleContext(&arch)
	}
	if *sepHead {
		arch = arch.WithSeparateHead()
	}

	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// The shared job fields are read as the page reads its own
	// (page.ParseInput): their text, and which of them were given.
	text := jobText(fs, set)
	if *vram != "" {
		text.Read[jobspec.GPU] = false // --gpu and --vram are exclusive: said below
	}
	ij, jerrs := page.ParseInput(&text, arch, catalog.Default())
	in, gpuSpec := ij.In, ij.GPU // gpuSpec: --gpu's datasheet figures feed the speed estimate
	var errs []error
	for _, e := range jerrs {
		errs = append(errs, e)
	}
	if sub == nil && set[jobspec.Fields[jobspec.RequestsPerSecond].Flag] {
		// The rate as the plan reads it (page.ParsePlan): the estimate
		// has no other plan field, so only its problems come back.
		_, perrs := page.ParsePlan(&text, catalog.Default())
		for _, e := range perrs {
			errs = append(errs, e)
		}
		if in.Task.Training() {
			errs = append(errs, fmt.Errorf("--requests-per-second: a serving job's request rate; --task %s trains", in.Task))
		}
	}
	parse := func(flagName string, f func() error) {
		if err := f(); err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flagName, err))
		}
	}
	if ij.ShippedBy != "" {
		// Served in the checkpoint's own precision (page.ParseInput).
		notes = append(notes, fmt.Sprintf("--precision %s: %s ships its weights in %s (--precision bf16 plans 16-bit weights)", in.Weights, ij.ShippedBy, in.Weights))
	}
	// The command line's own fields (the page has none of these).
	in.SequenceParallel, in.TPCommOverlap = *seqPar, *tpOverlap
	in.OptimizerInBackward, in.SchedulerSteps, in.RequestSeconds, in.Offline = *optInBwd, *schedSteps, *reqOver, *offline
	in.LoRADropout = *loraDrop
	in.FSDPAdapterUnits, in.SchedulerRecvInterval, in.AttentionDPBalanceIters = *fsdpAdapterUnits, *recvInterval, *dpBalance
	in.NoPrefixCache = *noPrefixCache
	in.FlashCrossEntropy, in.BF16OptimizerStates = *flashCE, *bf16Opt
	if set["separate-head"] && !*sepHead {
		in.Arch = arch // the stack's separate head, refused
	}
	if lora := in.Task == estimator.LoRA || in.Task == estimator.QLoRA; !lora {
		if set["lora-dropout"] && *loraDrop > 0 {
			errs = append(errs, errors.New("--lora-dropout: adapter dropout needs --task lora or qlora"))
		}
		// The adapters' shape sizes a LoRA or QLoRA fine-tune only: with
		// another task (serving LoRA adapters among them, which no job
		// here sizes) it was dropped without a word.
		var given []string
		for _, n := range []string{"lora-rank", "lora-targets", "lora-fused-qkv"} {
			if set[n] {
				given = append(given, "--"+n)
			}
		}
		if len(given) > 0 {
			errs = append(errs, fmt.Errorf("%s: the adapters of --task lora or qlora; --task %s has none (serving LoRA adapters is not sized)", strings.Join(given, ", "), in.Task))
		}
	}
	in.TwoBatchOverlap = *tbo
	in.MoEA2A = *moeA2A
	switch {
	case *gpu != "" && *vram != "":
		errs = append(errs, errors.New("--gpu and --vram are exclusive"))
	case *vram != "":
		parse("vram", func() (err error) { in.VRAM, err = estimator.ParseBytes(*vram); return })
	}
	tokens, global := ij.TrainTokens, ij.GlobalBatch
	if len(errs) > 0 {
		return fail("%v", errors.Join(errs...))
	}
	// --output-tokens alone is the generated part of --seq, the prompt the
	// rest, as the page reads its sequence and output fields; estimate,
	// plan, simulate and calibrate all take it so.
	if *promptTok == 0 && *outputTok > 0 && in.Task == estimator.Inference {
		if *outputTok >= in.Seq {
			return fail("--output-tokens %d leaves no prompt in --seq %d: give --prompt-tokens, or a --seq longer than the output", *outputTok, in.Seq)
		}
		*promptTok = in.Seq - *outputTok
	}
	// The memory of a pipeline stage counts the micro-batches the step's
	// schedule keeps in flight: the same schedule the time is given.
	in.Schedule = estimator.Schedule{MicroBatches: *micro, GlobalBatch: global, VirtualStages: *vp}
	// Pre-training's ZeRO stage and pipeline schedule when not given: the
	// first the common stacks run that fits, as the page and planner take them.
	var lay estimator.TrainLayout
	in, lay = estimator.ResolveTrainDefaults(in, ij.ZeROAuto)
	notes = append(notes, layoutNotes(lay)...)
	if !ij.FSDPNoSyncGiven && estimator.FSDPNoSyncDefault(in, estimator.Workload{MicroBatches: *micro, GlobalBatch: global}) {
		// Accumulating under FSDP's no_sync() by default
		// (estimator.FSDPNoSyncDefault): the gradients line holds the
		// whole model's.
		in.FSDPNoSync = true
		notes = append(notes, "--fsdp-no-sync: the fine-tune accumulates micro-batches under FSDP, which by default (HF Accelerate, Lightning/LitGPT) keeps the whole model's gradients on every GPU between syncs; --fsdp-no-sync=false for DeepSpeed ZeRO-3, torchtune or Accelerate's sync_each_batch")
	}
	if !set["fsdp-adapter-units"] && estimator.FSDPFrozenBlockGrads(in) {
		notes = append(notes, "--fsdp-adapter-units: a 16-bit LoRA under FSDP with Lightning/LitGPT's Block wrap shares each Block's flat parameter with its adapters, so FSDP keeps a gradient for the frozen Block weights too (counted); --fsdp-adapter-units when the adapters are FSDP units of their own (PEFT's fsdp_auto_wrap_policy, HF Trainer)")
	}
	if d := ij.Stack; d != nil {
		notes = append(notes, "--precision "+text.Text[jobspec.Precision]+": a fine-tune with Lightning's precision name plans "+d.Stack+"'s fine-tune scripts with their defaults where no flag says otherwise: "+strings.Join(d.Flags, " ")+" ("+d.Source+"); a flag given wins (stack_defaults in --json)")
		if d.Refused {
			notes = append(notes, "--task qlora on "+strconv.Itoa(in.GPUs)+" GPUs: "+d.Stack+"'s lora.py refuses quantization on more than one device (\"Quantization is currently not supported for multi-GPU training\"); the estimate is of the job as set, which it does not run: --gpus 1, or --task lora")
		}
	}
	if estimator.LightningQLoRADefault(in) && ij.Stack == nil {
		// Pure-bf16 QLoRA on bitsandbytes NF4 is Lightning's
		// BitsandbytesPrecision (estimator.LightningQLoRADefault), whose
		// head and held graph the parser took where not given.
		if !set["quantize-head"] || !set["keeps-last-graph"] {
			notes = append(notes, "--pure-bf16 QLoRA on bitsandbytes NF4 plans Lightning's BitsandbytesPrecision as LitGPT runs it: the LM head is 4-bit too (--quantize-head) and the fit loop holds the previous step's graph (--keeps-last-graph); --quantize-head=false or --keeps-last-graph=false for a loop that drops it")
		}
	}
	if ij.CheckpointingDefault {
		notes = append(notes, ckptDefaultNote)
	}
	if sub != nil {
		return sub.run(estimateJob{in: in, name: name, gpu: gpuSpec, eff: ij.Eff, trainTokens: tokens,
			prompt: *promptTok, output: *outputTok, set: set, engineOpen: ij.EngineOpen, stack: ij.Stack, noSyncGiven: ij.FSDPNoSyncGiven,
			ckptDefault: ij.CheckpointingDefault}, stdout, fail)
	}
	if ij.EngineOpen && ij.EngineWhy.Key != plan.NoMsg {
		notes = append(notes, "no --engine: "+in.Engine.String()+", "+ij.EngineWhy.String()+" (--engine names another)")
	}
	if *gpu != "" && gpuSpec.ID != "" {
		if n := supportNote(gpuSpec, in); n != "" {
			notes = append(notes, n)
		}
	}
	on, err := dis.active(set)
	switch {
	case err != nil:
		return fail("%v", err)
	case in.TwoBatchOverlap && !on && !estimator.TwoBatchOverlaps(in.EP, in.DP):
		return fail("--two-batch-overlap: %s", estimator.TwoBatchOverlapNeeds)
	}
	if on {
		return dis.run(disaggJob{name: name, in: in, gpu: gpuSpec, gpuSet: *gpu != "", prompt: *promptTok, output: *outputTok,
			node:       catalog.Node{GPUsPerNode: *gpusNode, NetworkGbps: *netGbps, HostOpSeconds: *hostOp * 1e-6, Host: *host},
			eff:        estimator.Efficiency{InferenceMFU: ij.Eff.InferenceMFU, BandwidthUtil: ij.Eff.BandwidthUtil},
			rangeRatio: *rangeRatio, requests: *numReq, steadyState: *noSim, asJSON: *asJSON}, stdout, fail)
	}
	r, err := estimator.Estimate(in)
	if err != nil {
		return fail("%v", err)
	}
	// The global batch limit (estimator.TrainBatchOf, the page's and the
	// planner's judge too): more replicas × micro-batch than the global
	// batch has sequences is a layout no training stack starts.
	split := estimator.TrainBatchOf(in, estimator.Workload{MicroBatches: *micro, GlobalBatch: global})
	if err := split.Err(); err != nil {
		return fail("%v", err)
	}
	maxBatch, maxSeq := estimator.MaxBatch(in), estimator.MaxSeq(in)
	minGPUs, _ := estimator.MinGPUs(in, minGPUsLimit)
	// Speed needs the GPU's datasheet figures, so only with --gpu.
	var perf *perfJSON
	// The node flags override the catalog's figures only when given (a
	// GB200 keeps its 72-GPU NVLink domain); catalog.GPU.Speed is the
	// page's path too.
	node := catalog.Node{GPUsPerNode: *gpusNode, NetworkGbps: *netGbps, HostOpSeconds: *hostOp * 1e-6, Host: *host}
	// fits_with weighs plain 1F1B against checkpointing by their step
	// times on this GPU (estimator.MakeItFitTimed), as the page does.
	step := gpuSpec.StepTimer(ij.Eff,
		estimator.Workload{PromptTokens: *promptTok, OutputTokens: *outputTok, MicroBatches: *micro, GlobalBatch: global}, node)
	// Speed for a job that runs (Result.Runs) on a GPU with speed figures
	// (catalog.ErrNoFigures: none, as without --gpu), and for a training
	// job that does not fit (timedUnfit): its step as set, priced as if
	// the memory were there, so a replay of a published layout the memory
	// model calls short still gets its hours, flagged.
	if r.Runs(in) || timedUnfit(in, r) {
		eff := ij.Eff
		w := estimator.Workload{PromptTokens: *promptTok, OutputTokens: *outputTok, MicroBatches: *micro, GlobalBatch: global, VirtualStages: in.Schedule.VirtualStages}
		switch p, hw, err := gpuSpec.Speed(in, eff, w, node); {
		case errors.Is(err, catalog.ErrNoFigures):
		case err != nil && !r.Runs(in):
			// A job that does not fit and cannot be timed either says
			// the first: the memory verdict is the answer.
		case noPrompt(err):
			// --seq is prompt plus output: the output took all of it.
			return fail("--output-tokens %d leaves no prompt in --seq %d: give --prompt-tokens, or a --seq longer than the output", *outputTok, in.Seq)
		case err != nil:
			return fail("%v", err)
		default:
			perf = newPerfJSON(in, p, tokens)
			perf.setGoodput(in, p, tokens, *goodput)
			perf.DoesNotFit = !r.Runs(in)
			if in.Task == estimator.Inference && in.Engine == estimator.HF {
				perf.HostClass = hw.HostClass.String()
			}
		}
	}
	// Serving engines: the figures are a simulated closed-loop benchmark
	// at --batch requests in flight per replica (see perfJSON), its first
	// wave as late as --first-wave-seconds says (by default the
	// estimator's cold first wave for the engine and GPU vendor).
	// catalog.GPU.Benchmark is the page's path too.
	if perf != nil && !*noSim {
		w := estimator.Workload{PromptTokens: *promptTok, OutputTokens: *outputTok}
		eff := estimator.Efficiency{InferenceMFU: ij.Eff.InferenceMFU, BandwidthUtil: ij.Eff.BandwidthUtil}
		cfg, res, ok, err := gpuSpec.Benchmark(in, eff, w, node, sim.Bench{Concurrency: in.Batch, Requests: *numReq, RangeRatio: *rangeRatio,
			FirstWaveSeconds: firstWave.seconds(in.Engine, gpuSpec.Vendor)})
		if err != nil {
			return fail("%v", err)
		}
		if ok {
			perf.applySim(cfg, res, catalog.CopiesOf(in))
		}
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := newEstimateJSON(name, in, r, maxBatch, maxSeq, minGPUs, step)
		out.Performance, out.StackDefaults, out.GradCheckpointingDefault = perf, ij.Stack, ij.CheckpointingDefault
		if perf != nil && perf.DoesNotFit {
			out.Warnings = append(out.Warnings, unfitTimeWarning)
		}
		if split.Uneven() {
			out.Warnings = append(out.Warnings, unevenBatchWarning(split))
		}
		if split.Raised() {
			out.Warnings = append(out.Warnings, raisedBatchWarning(split, in.Seq))
		}
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	printEstimate(stdout, name, in, r, maxBatch, maxSeq, minGPUs, step, gpuSpec.Vendor)
	printPerf(stdout, in, perf)
	if split.Uneven() {
		fmt.Fprintln(stdout, "warning: "+unevenBatchWarning(split))
	}
	if split.Raised() {
		fmt.Fprintln(stdout, "warning: "+raisedBatchWarning(split, in.Seq))
	}
	return 0
}

// raisedBatchWarning says that pre-training's default global batch feeds
// fewer replicas than the layout has (estimator.TrainBatch.Raised), so the
// step was timed at the smallest batch that gives each a micro-batch.
func raisedBatchWarning(b estimator.TrainBatch, seq int) string {
	return fmt.Sprintf("pre-training's default global batch for this model size (%s sequences) is short of %d data-parallel replicas × micro-batch %d, a layout Megatron-LM, torchtitan and llm-foundry refuse: timed at the smallest batch that feeds them, %d sequences (%.3g tokens) a step, as runs grow their batch with the GPUs (Llama 3 405B: 16M tokens on 16,384 H100s); --global-batch holds a batch of your own",
		strconv.FormatFloat(b.Global, 'f', -1, 64), b.Replicas, b.Micro, b.Needed(), float64(b.Needed())*float64(seq))
}

// unevenBatchWarning says that a --global-batch that is not a multiple of
// the replicas' micro-batches (estimator.TrainBatch.Uneven) is refused by
// the stacks as given, and what the estimate timed.
func unevenBatchWarning(b estimator.TrainBatch) string {
	return fmt.Sprintf("--global-batch %d is not a multiple of %d data-parallel replicas × micro-batch %d: Megatron-LM, torchtitan and llm-foundry refuse it as given; timed at %d sequences a step, as Megatron's --decrease-batch-size-if-needed rounds it",
		int(b.Global), b.Replicas, b.Micro, b.Rounded())
}

// perfJSON is the speed estimate (estimator.Throughput with the catalog
// GPU's datasheet figures); absent without --gpu or when the catalog lacks
// the GPU's FLOPS or bandwidth.
//
// For serving engines (vllm, sglang, trtllm) generating tokens, the
// serving figures are a simulated closed-loop benchmark (estimator/sim)
// unless --steady-state: --batch requests in flight per replica,
// --num-requests requests, the engine's default scheduler.
// time_to_first_token_seconds and decode_token_latency_seconds are then
// the means over the run's requests (TTFT from send to first token,
// fixed per-request cost included; TPOT = (E2E − TTFT)/(output − 1) per
// request, as benchmark clients compute it), tokens_per_second the
// generated tokens/s of all replicas over the run, and "serving" holds
// the percentiles and the closed-form figures.
type perfJSON struct {
	TokensPerSecond     float64 `json:"tokens_per_second"`
	TokensPerSecondLow  float64 `json:"tokens_per_second_low"`
	TokensPerSecondHigh float64 `json:"tokens_per_second_high"`
	Uncertainty         float64 `json:"uncertainty"`
	MFU                 float64 `json:"mfu"`
	// ComputeEfficiency and BandwidthUtil are the shares of peak the
	// model used (what --mfu / --inference-mfu and --bandwidth-util
	// override); Bound is the regime that set the rate: "compute",
	// "bandwidth", "host" or "communication".
	ComputeEfficiency float64 `json:"compute_efficiency"`
	BandwidthUtil     float64 `json:"bandwidth_util,omitempty"`
	Bound             string  `json:"bound"`
	// Training.
	TrainTokens float64 `json:"train_tokens,omitempty"`
	JobSeconds  float64 `json:"job_seconds,omitempty"`
	GPUHours    float64 `json:"gpu_hours,omitempty"`
	StepSeconds float64 `json:"step_seconds,omitempty"`
	CommSeconds float64 `json:"comm_seconds,omitempty"`
	// CommTotalSeconds is the step's whole communication (TP, DP/ZeRO,
	// EP, pipeline sends, CP ring, offload), hidden or not; CommSeconds
	// is the part compute does not hide.
	CommTotalSeconds float64 `json:"comm_total_seconds,omitempty"`
	// Goodput is the share of the run's wall time spent in training
	// steps (--goodput, else estimator.TrainGoodput);
	// JobSecondsWithOverhead and GPUHoursWithOverhead are job_seconds
	// and gpu_hours over it: the whole run with its interruptions,
	// restarts and checkpoints, as published whole-run GPU-hours count
	// it. job_seconds and gpu_hours stay the training steps' alone.
	Goodput                float64 `json:"goodput,omitempty"`
	JobSecondsWithOverhead float64 `json:"job_seconds_with_overhead,omitempty"`
	GPUHoursWithOverhead   float64 `json:"gpu_hours_with_overhead,omitempty"`
	MicroBatches           int     `json:"micro_batches,omitempty"`
	VirtualStages          int     `json:"virtual_stages,omitempty"`
	// DoesNotFit: the training job does not fit as set (the estimate's
	// "fits" is false); the figures are its step's time once the memory
	// is found (fits_with, a larger GPU), not a plan that starts.
	DoesNotFit bool `json:"does_not_fit,omitempty"`
	// Inference.
	TimeToFirstToken   float64 `json:"time_to_first_token_seconds,omitempty"`
	DecodeTokenLatency float64 `json:"decode_token_latency_seconds,omitempty"`
	DecodeStepSeconds  float64 `json:"decode_step_seconds,omitempty"`
	// MTPAcceptedTokens is the tokens one speculative decode step yields
	// a sequence with --mtp-draft-tokens (decode_step_seconds is then the
	// draft-and-verify step, decode_token_latency_seconds per token);
	// absent without.
	MTPAcceptedTokens float64 `json:"mtp_accepted_tokens_per_step,omitempty"`
	HostFloorSeconds  float64 `json:"host_floor_seconds,omitempty"`
	// HostClass is the host CPU class behind HF eager's cost per op
	// ("server", "legacy-server", "desktop"; --host or the catalog's).
	HostClass              string  `json:"host_class,omitempty"`
	PrefillTokensPerSecond float64 `json:"prefill_tokens_per_second,omitempty"`
	DecodeMemoryBound      bool    `json:"decode_memory_bound,omitempty"`
	// Serving is the simulated benchmark behind the serving figures.
	Serving *simJSON `json:"serving,omitempty"`
}

func newPerfJSON(in estimator.Input, p estimator.Perf, tokens float64) *perfJSON {
	j := &perfJSON{TokensPerSecond: p.TokensPerSecond, TokensPerSecondLow: p.TokensPerSecondLow,
		TokensPerSecondHigh: p.TokensPerSecondHigh, Uncertainty: p.Uncertainty, MFU: p.MFU,
		ComputeEfficiency: p.ComputeEfficiency, BandwidthUtil: p.BandwidthUtil, Bound: p.Bound.String()}
	if in.Task == estimator.Inference {
		j.TimeToFirstToken, j.DecodeTokenLatency, j.DecodeMemoryBound = p.TimeToFirstToken, p.DecodeTokenLatency, p.DecodeMemoryBound
		j.DecodeStepSeconds, j.HostFloorSeconds, j.PrefillTokensPerSecond = p.DecodeStepSeconds, p.HostFloorSeconds, p.PrefillTokensPerSecond
		j.MTPAcceptedTokens = p.AcceptedTokens
		return j
	}
	j.TrainTokens, j.JobSeconds, j.GPUHours = tokens, estimator.JobTime(p, tokens), estimator.GPUHours(p, tokens)
	j.StepSeconds, j.CommSeconds, j.MicroBatches, j.VirtualStages = p.StepSeconds, p.CommSeconds, p.MicroBatches, p.VirtualStages
	j.CommTotalSeconds = p.CommTotalSeconds
	return j
}

// setGoodput sets a training job's goodput, given (0 < g ≤ 1) or
// estimated from its GPUs (g = 0), and the whole run's time and GPU-hours
// at it.
func (j *perfJSON) setGoodput(in estimator.Input, p estimator.Perf, tokens, g float64) {
	if in.Task == estimator.Inference {
		return
	}
	run := estimator.TrainRunOf(p, tokens, g)
	j.Goodput, j.JobSecondsWithOverhead, j.GPUHoursWithOverhead = run.Goodput, run.SecondsWithOverhead, run.GPUHoursWithOverhead
}

// acceptanceSource says where the estimate's draft acceptance comes from.
func acceptanceSource(in estimator.Input) string {
	switch {
	case in.DraftAcceptance > 0:
		return fmt.Sprintf("--mtp-acceptance %g", in.DraftAcceptance)
	case estimator.MeasuredMTP(in.Arch):
		return "DeepSeek-R1's measured acceptance by draft position; random-token benchmarks accept fewer, --mtp-acceptance sets yours"
	}
	return fmt.Sprintf("%.2f a draft, DeepSeek-V3's measured second-token acceptance; --mtp-acceptance sets yours", estimator.MTPAcceptance)
}

func printPerf(w io.Writer, in estimator.Input, p *perfJSON) {
	if p == nil {
		return
	}
	if in.Arch.Generic() && in.Task == estimator.Inference {
		// A rightsize-generic model (diffusion, vision: FLUX.1, SDXL's
		// UNet, ResNet-50) is a parameter count with no attention layout:
		// its "tokens" per second ("ResNet-50: 2128.6 tokens/s per
		// request") measure nothing a user serves. The JSON keeps the
		// fields.
		fmt.Fprintln(w, "\nspeed: not modelled for a rightsize-generic model (a parameter count, no attention layout): the memory above is the estimate")
		return
	}
	fmt.Fprintf(w, "\nspeed (estimate, %.0f–%.0f tokens/s): %.0f tokens/s, MFU %.0f%%, %s-bound\n", p.TokensPerSecondLow, p.TokensPerSecondHigh, p.TokensPerSecond, 100*p.MFU, p.Bound)
	if p.MTPAcceptedTokens > 0 {
		fmt.Fprintf(w, "speculative decoding with the MTP module: draft tokens a step %d, tokens accepted a step %.2f (%s), a %.1f ms draft-and-verify step\n",
			in.DraftTokens, p.MTPAcceptedTokens, acceptanceSource(in), 1000*p.DecodeStepSeconds)
	}
	if in.Task == estimator.Inference {
		if s := p.Serving; s != nil {
			wave := "" // the cold first wave the run was given (--first-wave-seconds)
			if s.FirstWaveSeconds > 0 {
				wave = fmt.Sprintf("; first wave %.2f s late as a benchmark's cold start, --first-wave-seconds 0 for none", s.FirstWaveSeconds)
			}
			fmt.Fprintf(w, "simulated benchmark, %d requests at %d in flight per replica (%s scheduler defaults; limit: %s%s):\n", s.Requests, s.Concurrency, in.Engine, s.Limit, wave)
			fmt.Fprintf(w, "  time to first token mean %.3f s, p50 %.3f s, p99 %.3f s (%.0f ms per request outside the GPU, %.3f s queued on average)\n",
				p.TimeToFirstToken, s.TTFTP50, s.TTFTP99, 1000*s.RequestSeconds, s.QueueMean)
			fmt.Fprintf(w, "  time per output token mean %.1f ms, p50 %.1f ms, p99 %.1f ms; %.2f requests/s\n",
				1000*p.DecodeTokenLatency, 1000*s.TPOTP50, 1000*s.TPOTP99, s.RequestsPerSecond)
			return
		}
		if p.DecodeTokenLatency <= 0 {
			// An encoder (or a model with no decode step) answers in one
			// forward pass: no tokens per second to print (it printed
			// 1/1e-12, "1000000000000.0 tokens/s per request").
			fmt.Fprintf(w, "one forward pass per request: %.3f s\n", p.TimeToFirstToken)
			return
		}
		fmt.Fprintf(w, "time to first token %.3f s; %.1f tokens/s per request\n", p.TimeToFirstToken, 1/p.DecodeTokenLatency)
		return
	}
	fmt.Fprintf(w, "%.3g training tokens: %.1f h, %.1f GPU-hours of training steps\n", p.TrainTokens, p.JobSeconds/3600, p.GPUHours)
	if p.Goodput > 0 && p.Goodput < 1 {
		fmt.Fprintf(w, "whole run at %.2f%% goodput (interruptions, restarts, checkpoints; --goodput): %.1f h, %.1f GPU-hours\n",
			100*p.Goodput, p.JobSecondsWithOverhead/3600, p.GPUHoursWithOverhead)
	}
	if p.DoesNotFit {
		fmt.Fprintln(w, "warning: "+unfitTimeWarning)
	}
}

// unfitTimeWarning flags the time of a training job that does not fit
// (timedUnfit), in the text and in --json's warnings.
const unfitTimeWarning = "does NOT fit: the training time is this layout's step as if the memory were there; as set, the job stops out of memory, and the settings that make it fit (fits with) take their own time"

// timedUnfit reports whether a job that does not fit is still timed: a
// training job, whose step as set (its compute, communication and
// pipeline schedule) is priced without reference to its memory. The
// levers in fits_with that make it fit (checkpointing, offload, a smaller
// micro-batch, ZeRO 3) change that time; estimate with them gives theirs.
// The page and the planner rank only jobs that run (Result.Runs); serving
// that does not start has no time.
func timedUnfit(in estimator.Input, r estimator.Result) bool {
	return !r.Fits && in.Task.Training()
}

type perGPUJSON struct {
	WeightsBytes          int64 `json:"weights_bytes"`
	GradientsBytes        int64 `json:"gradients_bytes"`
	OptimizerBytes        int64 `json:"optimizer_bytes"`
	ActivationsBytes      int64 `json:"activations_bytes"`
	LogitsBytes           int64 `json:"logits_bytes"`
	KVCacheBytes          int64 `json:"kv_cache_bytes"`
	CUDAContextBytes      int64 `json:"cuda_context_bytes"`
	AllocatorReserveBytes int64 `json:"allocator_reserve_bytes"`
	NCCLBytes             int64 `json:"nccl_bytes"`
	CUDAGraphsBytes       int64 `json:"cuda_graphs_bytes"`
	QuantStateBytes       int64 `json:"quant_state_bytes"`
	OverheadBytes         int64 `json:"overhead_bytes"`
	TotalBytes            int64 `json:"total_bytes"`
	// AllocatedBytes is what PyTorch's allocator holds at the peak
	// (torch.cuda.max_memory_allocated, the "peak memory active" of
	// fine-tuning frameworks' logs): the total without the CUDA context,
	// the allocator's reserve, NCCL's buffers and CUDA graphs.
	AllocatedBytes int64 `json:"allocated_bytes"`
}

type confidenceJSON struct {
	Weights     float64 `json:"weights"`
	Gradients   float64 `json:"gradients"`
	Optimizer   float64 `json:"optimizer"`
	Activations float64 `json:"activations"`
	Logits      float64 `json:"logits"`
	KVCache     float64 `json:"kv_cache"`
	Overhead    float64 `json:"overhead"`
	LowBytes    int64   `json:"total_low_bytes"`
	HighBytes   int64   `json:"total_high_bytes"`
}

type estimateJSON struct {
	Model     string `json:"model"`
	ModelType string `json:"model_type"`
	Task      string `json:"task"`
	Engine    string `json:"engine"`
	// EngineVersion is the engine release the speed model took: --engine-version,
	// or the engine's current release (estimator.CurrentEngineVersion); "" for
	// HF transformers and llama.cpp, whose releases the model does not read.
	EngineVersion          string     `json:"engine_version,omitempty"`
	Precision              string     `json:"precision"`
	KVDType                string     `json:"kv_dtype"`
	Batch                  int        `json:"batch"`
	Seq                    int        `json:"seq"`
	GPUs                   int        `json:"gpus"`
	TP                     int        `json:"tp"`
	PP                     int        `json:"pp"`
	CP                     int        `json:"cp,omitempty"`
	ZeRO                   int        `json:"zero"`
	Parameters             int64      `json:"parameters"`
	ActiveParameters       int64      `json:"active_parameters"`
	TrainableParameters    int64      `json:"trainable_parameters"`
	WeightBitsPerParameter float64    `json:"weight_bits_per_parameter"`
	KVCacheBytesPerToken   int64      `json:"kv_cache_bytes_per_token"`
	PerGPU                 perGPUJSON `json:"per_gpu"`
	VRAMBytes              int64      `json:"vram_bytes"`
	UsableBytes            int64      `json:"usable_bytes"`
	HeadroomBytes          int64      `json:"headroom_bytes"`
	Fits                   bool       `json:"fits"`
	MaxBatchThatFits       int        `json:"max_batch_that_fits"`
	MaxSeqThatFits         int        `json:"max_seq_that_fits"`
	MinGPUsThatFit         int        `json:"min_gpus_that_fit"`
	// WithGradCheckpointing is the job redone with full activation
	// checkpointing, where a training job does not fit without it
	// (estimator.WithCheckpointing); absent otherwise.
	WithGradCheckpointing *checkpointingJSON `json:"with_grad_checkpointing,omitempty"`
	// FitsWith is what makes a training job that does not fit as set fit
	// (estimator.MakeItFit): the levers pulled, in order, and the job's
	// figures with them; absent when it fits or nothing within reach does.
	FitsWith *fitsWithJSON `json:"fits_with,omitempty"`
	// FitsWithMemShare is the engine memory share that makes a serving
	// job fit where the engine's default share is what leaves it no KV
	// pool (estimator.EngineShareFor: SGLang at data-parallel attention,
	// or at a wide TP whose chunk and CUDA-graph reserve leave the weights
	// no room, with the chunk the recipes set there); absent otherwise.
	FitsWithMemShare *memShareFixJSON `json:"fits_with_mem_share,omitempty"`
	// StackDefaults is what a fine-tune took from the stack its precision
	// names, where no flag said it (page.StackDefaults: LitGPT's scripts
	// for a Lightning precision name); absent otherwise.
	StackDefaults     *page.StackDefaults `json:"stack_defaults,omitempty"`
	KVPoolTokens      int64               `json:"kv_pool_tokens"`
	MaxConcurrentSeqs int64               `json:"max_concurrent_seqs"`
	HostOffloadBytes  int64               `json:"host_offload_bytes"`
	Warnings          []string            `json:"warnings"`
	Confidence        confidenceJSON      `json:"confidence"`
	RulesOfThumb      []ruleJSON          `json:"rules_of_thumb"`
	Performance       *perfJSON           `json:"performance,omitempty"`
	peakJSON                              // peak_bytes, peak_phase, load_peak_bytes, steady_state_bytes
	towersJSON                            // text_parameters, vision_parameters, text_only
	// GradCheckpointingDefault: activation checkpointing is on as QLoRA's
	// stacks run it, no --grad-checkpointing given
	// (page.InputJob.CheckpointingDefault); absent otherwise.
	GradCheckpointingDefault bool `json:"grad_checkpointing_default,omitempty"`
}

// towersJSON counts a vision-language model's text model and its vision
// tower with projector apart (parameters is their sum); text_only says the
// tower was left out (--text-only).
type towersJSON struct {
	TextParameters   int64 `json:"text_parameters"`
	VisionParameters int64 `json:"vision_parameters"`
	TextOnly         bool  `json:"text_only"`
}

// peakJSON is when the job's memory peaks (estimator.Result.Peak): fits
// and headroom_bytes are judged on peak_bytes, the step's total_bytes or,
// where loading a base quantised on the GPU needs more, load_peak_bytes;
// peak_phase says which ("step", "load", "backward-end" or
// "optimizer-step"). backward_end_bytes is the end of a full fine-tune's
// backward under PyTorch FSDP, when the root unit assembles its gradient
// (0 where not modelled); gradients_in_flight says per_gpu.gradients_bytes
// is what such a fine-tune with one micro-batch a step holds at its
// backward's start, the head's and one block's gradients, not the shards
// (estimator.Result.GradientsInFlight); optimizer_step_bytes the optimizer step where it
// allocates a temporary of its own (foreach AdamW, --optimizer-impl; 0
// otherwise); peak_allocated_bytes is what PyTorch's allocator holds at the
// largest of the step and those moments (torch.cuda.max_memory_allocated;
// per_gpu.allocated_bytes is the step's alone). steady_state_bytes is what
// stays on the GPU between steps (weights, gradients, optimizer states,
// KV cache, CUDA context, NCCL, CUDA graphs). allocator_cache_bytes is the
// part of the allocator reserve that PyTorch frees and retries with before
// an allocation fails: in total_bytes, not in peak_bytes.
type peakJSON struct {
	PeakBytes           int64  `json:"peak_bytes"`
	PeakPhase           string `json:"peak_phase"`
	LoadPeakBytes       int64  `json:"load_peak_bytes"`
	SteadyStateBytes    int64  `json:"steady_state_bytes"`
	AllocatorCacheBytes int64  `json:"allocator_cache_bytes"`
	BackwardEndBytes    int64  `json:"backward_end_bytes"`
	PeakAllocatedBytes  int64  `json:"peak_allocated_bytes"`
	OptimizerStepBytes  int64  `json:"optimizer_step_bytes"`
	GradientsInFlight   bool   `json:"gradients_in_flight"`
}

// ruleJSON is one rule of thumb next to the estimate for one unsharded
// model copy on one GPU (estimator.RuleChecks).
type ruleJSON struct {
	Rule          string  `json:"rule"`
	Bytes         int64   `json:"bytes"`
	EstimateBytes int64   `json:"estimate_bytes"`
	Error         float64 `json:"error"`
}

func rulesJSON(in estimator.Input) []ruleJSON {
	out := []ruleJSON{}
	rules, n, err := estimator.RuleChecks(in)
	if err != nil {
		return out
	}
	for _, r := range rules[:n] {
		out = append(out, ruleJSON{r.Rule.String(), int64(r.Bytes), int64(r.Estimate), r.Error()})
	}
	return out
}

// checkpointingJSON is a training job redone with full activation
// checkpointing: its per-GPU total (the figure total_bytes gives for the
// job as set), activations, headroom and whether it fits.
type checkpointingJSON struct {
	TotalBytes       int64 `json:"total_bytes"`
	ActivationsBytes int64 `json:"activations_bytes"`
	HeadroomBytes    int64 `json:"headroom_bytes"`
	Fits             bool  `json:"fits"`
}

// fitsWithJSON is estimator.MakeItFit's answer: settings are the levers'
// names in the order pulled ("zero-2", "plain-1f1b", "grad-checkpointing",
// "zero-3", "micro-batch", "offload-optimizer", "offload-all",
// "more-gpus"); the figures are the job's with them, per GPU, and the
// host memory its offload needs; virtual_stages is the pipeline schedule
// (1: plain 1F1B, as --virtual-stages 1; 0: the default).
type fitsWithJSON struct {
	Settings         []string `json:"settings"`
	GPUs             int      `json:"gpus"`
	ZeRO             int      `json:"zero"`
	Batch            int      `json:"batch"`
	VirtualStages    int      `json:"virtual_stages"`
	Offload          string   `json:"offload"`
	TotalBytes       int64    `json:"total_bytes"`
	HeadroomBytes    int64    `json:"headroom_bytes"`
	HostOffloadBytes int64    `json:"host_offload_bytes"`
}

func newFitsWithJSON(in estimator.Input, r estimator.Result, step estimator.StepTimer) *fitsWithJSON {
	f, ok := estimator.MakeItFitTimed(in, r, step)
	if !ok {
		return nil
	}
	j := &fitsWithJSON{GPUs: f.In.GPUs, ZeRO: f.In.ZeRO, Batch: f.In.Batch, VirtualStages: f.In.Schedule.VirtualStages, Offload: f.In.Offload.String(),
		TotalBytes: int64(f.Result.Peak), HeadroomBytes: int64(f.Result.Headroom), HostOffloadBytes: int64(f.Result.HostOffload)}
	for _, l := range f.Levers {
		j.Settings = append(j.Settings, l.String())
	}
	return j
}

// memShareFixJSON is estimator.EngineShareFor's answer: the engine's
// default share, the share that fits (the --gpu-mem-util to pass; SGLang's
// --mem-fraction-static) and the KV pool at it.
type memShareFixJSON struct {
	DefaultShare float64 `json:"default_share"`
	Share        float64 `json:"share"`
	// MaxBatchedTokens is the prefill chunk the recipes set with the
	// share (--max-batched-tokens; SGLang's --chunked-prefill-size) and
	// CUDAGraphMaxBS their --cuda-graph-max-bs; absent where they set no
	// chunk.
	MaxBatchedTokens  int   `json:"max_batched_tokens,omitempty"`
	CUDAGraphMaxBS    int   `json:"cuda_graph_max_bs,omitempty"`
	KVPoolTokens      int64 `json:"kv_pool_tokens"`
	MaxConcurrentSeqs int64 `json:"max_concurrent_seqs"`
}

func newMemShareFixJSON(in estimator.Input) *memShareFixJSON {
	f, ok := estimator.EngineShareFor(in)
	if !ok {
		return nil
	}
	return memShareFixAt(in, f)
}

// memShareFixAt is fix f of in (estimator.EngineShareFor's), with the
// KV pool at it.
func memShareFixAt(in estimator.Input, f estimator.ShareFix) *memShareFixJSON {
	j := &memShareFixJSON{DefaultShare: in.MemShare(), Share: f.Share, CUDAGraphMaxBS: f.CUDAGraphMaxBS}
	in = f.Apply(in)
	if f.Chunk > 0 {
		j.MaxBatchedTokens = in.MaxBatchedTokens
	}
	if r, err := estimator.Estimate(in); err == nil {
		j.KVPoolTokens, j.MaxConcurrentSeqs = r.KVPoolTokens, r.MaxConcurrentSeqs
	}
	return j
}

func newCheckpointingJSON(in estimator.Input, r estimator.Result) *checkpointingJSON {
	g, ok := estimator.WithCheckpointing(in, r)
	if !ok {
		return nil
	}
	return &checkpointingJSON{int64(g.PerGPU.Total()), int64(g.PerGPU.Activations), int64(g.Headroom), g.Fits}
}

func newEstimateJSON(name string, in estimator.Input, r estimator.Result, maxBatch, maxSeq, minGPUs int, step estimator.StepTimer) estimateJSON {
	b := r.PerGPU
	c := r.Confidence
	w := r.Warnings.Strings()
	if w == nil {
		w = []string{}
	}
	return estimateJSON{
		Model: name, ModelType: in.Arch.ModelType, Task: in.Task.String(), Engine: in.Engine.String(), EngineVersion: estimator.EngineVersionOf(in).String(),
		Precision: in.Weights.String(), KVDType: in.KV.String(), Batch: in.Batch, Seq: in.Seq,
		GPUs: in.GPUs, TP: in.TP, PP: in.PP, CP: in.CP, ZeRO: in.ZeRO,
		Parameters: r.Params, ActiveParameters: r.ActiveParams, TrainableParameters: r.TrainableParams,
		WeightBitsPerParameter: r.WeightBitsPerParam, KVCacheBytesPerToken: int64(r.KVBytesPerToken),
		PerGPU: perGPUJSON{
			WeightsBytes: int64(b.Weights), GradientsBytes: int64(b.Gradients), OptimizerBytes: int64(b.Optimizer),
			ActivationsBytes: int64(b.Activations), LogitsBytes: int64(b.Logits), KVCacheBytes: int64(b.KVCache),
			CUDAContextBytes: int64(b.CUDAContext), AllocatorReserveBytes: int64(b.AllocatorReserve),
			NCCLBytes: int64(b.NCCL), CUDAGraphsBytes: int64(b.CUDAGraphs), QuantStateBytes: int64(b.QuantState),
			OverheadBytes: int64(b.Overhead()), TotalBytes: int64(b.Total()),
			AllocatedBytes: int64(b.Total() - b.CUDAContext - b.AllocatorReserve - b.NCCL - b.CUDAGraphs),
		},
		VRAMBytes: int64(in.VRAM), UsableBytes: int64(r.Usable), HeadroomBytes: int64(r.Headroom), Fits: r.Fits,
		peakJSON:         peakJSON{int64(r.Peak), r.PeakPhase.String(), int64(r.LoadPeak), int64(r.SteadyState), int64(r.AllocatorCache), int64(r.BackwardEnd), int64(r.PeakAllocated), int64(r.OptimizerStep), r.GradientsInFlight},
		towersJSON:       towersJSON{r.Params - r.VisionParams, r.VisionParams, in.TextOnly},
		MaxBatchThatFits: maxBatch, MaxSeqThatFits: maxSeq, MinGPUsThatFit: minGPUs, WithGradCheckpointing: newCheckpointingJSON(in, r),
		FitsWith: newFitsWithJSON(in, r, step), FitsWithMemShare: newMemShareFixJSON(in),
		KVPoolTokens: r.KVPoolTokens, MaxConcurrentSeqs: r.MaxConcurrentSeqs, HostOffloadBytes: int64(r.HostOffload),
		Warnings: w,
		Confidence: confidenceJSON{Weights: c.Weights, Gradients: c.Gradients, Optimizer: c.Optimizer,
			Activations: c.Activations, Logits: c.Logits, KVCache: c.KVCache, Overhead: c.Overhead,
			LowBytes: int64(c.Low), HighBytes: int64(c.High)},
		RulesOfThumb: rulesJSON(in),
	}
}

// runsOn is what the estimate's header says the job runs on: the engine,
// and for a training layout past data parallelism the stack that runs it
// (plan.TrainStack, the planner's and the launches' one judge), where the
// engine's name (hf) would say HF transformers of a Megatron or torchtitan
// layout. The JSON's engine field keeps the engine.
func runsOn(in estimator.Input) string {
	if !in.Task.Training() {
		return in.Engine.String()
	}
	switch plan.TrainStack(in) {
	case plan.StackMegatron:
		return "megatron-core (Megatron-LM, NeMo)"
	case plan.StackTorchtitan:
		return "torchtitan (FSDP2 with TP/PP/CP)"
	case plan.StackNone:
		return in.Engine.String() + fmt.Sprintf(" (no training stack runs this split at ZeRO %d)", in.ZeRO)
	}
	return in.Engine.String()
}

func printEstimate(w io.Writer, name string, in estimator.Input, r estimator.Result, maxBatch, maxSeq, minGPUs int, step estimator.StepTimer, vendor string) {
	gib := func(b estimator.Bytes) string { return fmt.Sprintf("%.2f GiB", b.GiB()) }
	fmt.Fprintf(w, "%s (%s): %.3fB parameters", name, in.Arch.ModelType, float64(r.Params)/estimator.Billion)
	if r.VisionParams > 0 {
		fmt.Fprintf(w, " (text %.3fB, vision tower and projector %.3fB", float64(r.Params-r.VisionParams)/estimator.Billion, float64(r.VisionParams)/estimator.Billion)
		if in.TextOnly {
			fmt.Fprint(w, ", not loaded: --text-only")
		}
		fmt.Fprint(w, ")")
	}
	if r.ActiveParams != r.Params {
		fmt.Fprintf(w, ", %.3fB active per token", float64(r.ActiveParams)/estimator.Billion)
	}
	fmt.Fprintf(w, "\n%s on %s, %s weights (%.2f bits/param), %s KV, batch %d × %d tokens, %d GPU(s) (TP %d, PP %d, ZeRO %d)\n\n",
		in.Task, runsOn(in), in.Weights, r.WeightBitsPerParam, in.KV, in.Batch, in.Seq, in.GPUs, in.TP, in.PP, in.ZeRO)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	b, c := r.PerGPU, r.Confidence
	for part, v := range b.Parts() {
		if v == 0 {
			continue
		}
		name := partName(part, vendor)
		if part == estimator.PartGradients && r.GradientsInFlight {
			name = "gradients in flight" // the page's basis: the head's and one block's, at the backward's start
		}
		fmt.Fprintf(tw, "%s\t%s\t±%.0f%%\t\n", name, gib(v), 100*c.Of(part))
	}
	fmt.Fprintf(tw, "total per GPU\t%s\t%s – %s\t\n", gib(b.Total()), gib(c.Low), gib(c.High))
	switch {
	case r.PeakPhase == estimator.PhaseLoad:
		fmt.Fprintf(tw, "peak per GPU (loading)\t%s\t\t\n", gib(r.Peak))
	case r.PeakPhase == estimator.PhaseBackwardEnd:
		// FSDP1's root unit assembles its gradient after the step's
		// activations are gone (estimator.Result.BackwardEnd).
		fmt.Fprintf(tw, "peak per GPU (end of backward)\t%s\t\t\n", gib(r.Peak))
	case r.PeakPhase == estimator.PhaseOptimizerStep:
		// Foreach AdamW's temporary beside the weights, gradients and
		// states (estimator.Result.OptimizerStep).
		fmt.Fprintf(tw, "peak per GPU (optimizer step)\t%s\t\t\n", gib(r.Peak))
	case r.AllocatorCache > 0:
		// The fit is judged on what the step needs: the allocator frees
		// its cached blocks before an allocation fails.
		fmt.Fprintf(tw, "needed per GPU\t%s\t−%s cache\t\n", gib(r.Peak), gib(r.AllocatorCache))
	}
	fmt.Fprintf(tw, "usable per GPU\t%s\t\t\n", gib(r.Usable))
	tw.Flush()
	if v := in.ECCVisible(); v > 0 {
		// A GDDR GPU with ECC on fits in what CUDA sees, not the card's
		// marketed size (catalog.GPU.ECCMemory; the page says the same).
		fmt.Fprintf(w, "  usable (ECC): %.2f × the %s CUDA sees with ECC on, of the card's %s\n", estimator.UsableFraction, gib(v), gib(in.VRAM))
	}
	verdict := "fits"
	if !r.Fits {
		verdict = "does NOT fit"
	}
	fmt.Fprintf(w, "\n%s (headroom %s); max batch %d, max seq %d", verdict, gib(r.Headroom), maxBatch, maxSeq)
	if minGPUs > 0 {
		fmt.Fprintf(w, ", min GPUs %d", minGPUs)
	}
	fmt.Fprintln(w)
	if g := newCheckpointingJSON(in, r); g != nil {
		verdict := "does NOT fit"
		if g.Fits {
			verdict = "fits"
		}
		fmt.Fprintf(w, "with --grad-checkpointing: %s per GPU (activations %s), %s (headroom %s)\n",
			gib(estimator.Bytes(g.TotalBytes)), gib(estimator.Bytes(g.ActivationsBytes)), verdict, gib(estimator.Bytes(g.HeadroomBytes)))
	}
	if f := newFitsWithJSON(in, r, step); f != nil {
		fmt.Fprintf(w, "fits with %s: %s per GPU on %d GPUs (ZeRO %d, batch %d, offload %s, headroom %s",
			strings.Join(f.Settings, " + "), gib(estimator.Bytes(f.TotalBytes)), f.GPUs, f.ZeRO, f.Batch, f.Offload, gib(estimator.Bytes(f.HeadroomBytes)))
		if f.VirtualStages > 0 {
			fmt.Fprintf(w, ", virtual stages %d", f.VirtualStages)
		}
		if f.HostOffloadBytes > 0 {
			fmt.Fprintf(w, ", host memory %s per GPU", gib(estimator.Bytes(f.HostOffloadBytes)))
		}
		fmt.Fprintln(w, ")")
	}
	if fix, ok := estimator.EngineShareFor(in); ok {
		f := memShareFixAt(in, fix)
		fmt.Fprintf(w, "SGLang's default --mem-fraction-static, %s here (%s), is what leaves no KV pool; fits with %s (%s, %s): KV pool %d tokens, %d concurrent sequences of %d tokens\n",
			strconv.FormatFloat(f.DefaultShare, 'f', -1, 64), fix.Cause, fix.Flags(), fix.EngineFlags(), fix.Recipe, f.KVPoolTokens, f.MaxConcurrentSeqs, in.Seq)
	}
	if in.Engine.Pooled() && r.KVPoolTokens > 0 {
		fmt.Fprintf(w, "%s KV pool: %d tokens, %d concurrent sequences of %d tokens\n", in.Engine, r.KVPoolTokens, r.MaxConcurrentSeqs, in.Seq)
	}
	if r.HostOffload > 0 {
		fmt.Fprintf(w, "host memory for offloaded state: %s per GPU\n", gib(r.HostOffload))
	}
	for _, s := range r.Warnings.Strings() {
		fmt.Fprintln(w, "warning: "+s)
	}
	if rules := rulesJSON(in); len(rules) > 0 {
		fmt.Fprintf(w, "\nrules of thumb vs this job as one copy on one GPU (%s):\n", gib(estimator.Bytes(rules[0].EstimateBytes)))
		for _, r := range rules {
			fmt.Fprintf(w, "  %-22s %10s  %+4.0f%%\n", r.Rule, gib(estimator.Bytes(r.Bytes)), 100*r.Error)
		}
	}
}

// choices lists an enum's CLI names, "a|b|c", in the estimator's order.
func choices[T fmt.Stringer](xs []T) string {
	names := make([]string, len(xs))
	for i, x := range xs {
		names[i] = x.String()
	}
	return strings.Join(names, "|")
}

// currentVersions lists each serving engine's current release, as
// --engine-version's default.
func currentVersions() string {
	var parts []string
	for _, e := range estimator.Engines {
		if v := estimator.CurrentEngineVersion(e); !v.IsZero() && e.Pooled() {
			parts = append(parts, e.String()+" "+v.String())
		}
	}
	return strings.Join(parts, ", ")
}

// noPrompt reports whether err is the estimator's objection to a workload
// whose output tokens leave no prompt in the sequence.
func noPrompt(err error) bool {
	var ie *estimator.InputError
	return errors.As(err, &ie) && ie.Field == "prompt"
}

// supportNote says what the table of what runs where
// (estimator.SupportFor, which the planner applies to every offer) holds
// against the job on GPU g, or "": an engine that does not start on g's
// generation (TensorRT-LLM on a T4), a format with no kernel there (fp8
// training on an A100), bf16 on a GPU without it, a parallel layout the
// engine does not run on g (estimator.GPULayoutRefusal: SGLang's DeepEP on
// AMD or over PCIe, vLLM's redundant experts on Gaudi). The estimate keeps the
// figures of the job as given; the note says it would not run so.
func supportNote(g catalog.GPU, in estimator.Input) string {
	gen := g.Generation()
	s := estimator.SupportForJob(gen, in)
	cause := s.Cause(gen, in) + " (" + g.ID + ")"
	if s.Why == estimator.SupportOK && estimator.FP8Marlin(in, gen) {
		return "fp8 runs as W8A16 (Marlin) on " + gen.String() + " GPUs (" + g.ID + "): " + in.Engine.String() +
			" keeps the weights 8-bit and multiplies at the 16-bit rate, slower than bf16 at large batches and in long prompts"
	}
	layout := ""
	if hw, ok := g.Hardware(in.Weights); ok && !in.Task.Training() {
		layout = estimator.GPULayoutRefusal(in, hw)
	}
	switch {
	case !s.Runs:
		return cause + ": these figures are for a setup that would not run, and rightsize plan leaves such GPUs out"
	case layout != "":
		return "--gpu " + g.ID + ": " + layout + "; these figures are for a layout that would not run there, and rightsize plan lays out no such copy"
	case s.Why == estimator.SupportNoBF16:
		return cause + ": the engines run fp16 there, same memory (--precision fp16)"
	case s.Why == estimator.SupportNoQuantModel:
		return cause + ": it runs " + s.Weights.String() + " weights from the unquantised checkpoint, and these figures are for " +
			in.Weights.String() + " (--precision " + s.Weights.String() + " for what runs; --engine sglang runs the quantised model in fp16 from Turing on)"
	case s.Substituted():
		return cause + ": it runs " + s.Weights.String() + " weights there, and these figures are for " + in.Weights.String() +
			" (--precision " + s.Weights.String() + " for what runs)"
	}
	return ""
}

// partName is a breakdown line's name as the text output prints it, in
// the GPU's runtime's words: ROCm's HIP context and HIP graphs on AMD
// (hipGraph, ROCm HIP API reference), Intel Gaudi's HPU graphs
// (docs.habana.ai, "Run Inference Using HPU Graphs") and its runtime
// context. The JSON keeps cuda_context_bytes and cuda_graphs_bytes.
func partName(p estimator.Part, vendor string) string {
	switch {
	case vendor == "AMD" && p == estimator.PartCUDAContext:
		return "hip context"
	case vendor == "AMD" && p == estimator.PartCUDAGraphs:
		return "hip graphs"
	case vendor == "Intel" && p == estimator.PartCUDAContext:
		return "runtime context"
	case vendor == "Intel" && p == estimator.PartCUDAGraphs:
		return "hpu graphs"
	}
	return p.String()
}
