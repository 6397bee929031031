package launch

import (
	"cmp"
	"math"
	"strings"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// servePort is the first engine copy's HTTP port (vLLM's and
// trtllm-serve's default, 8000; SGLang's is 30000, set explicitly so every
// engine answers on the same port).
const servePort = 8000

// copyShape is one engine copy as the row plans it.
type copyShape struct {
	tp, pp int
	// dp is attention data parallelism inside the copy (Input.DP): the
	// copy's TP GPUs hold dp attention ranks of tp/dp GPUs each.
	dp, ep int
	// copies is the engine copies on one instance (Row.DP); nodes the
	// instances one copy spans (Row.InstancesPerReplica).
	copies, nodes int
	// redundant is the extra expert copies over the copy's EP ranks
	// (plan.Row.RedundantExperts, plan.DisaggWorker.RedundantExperts:
	// estimator.Input.RedundantExperts), 0 for none.
	redundant int
}

// shape is the row's copy shape; its attention-DP and EP layout is the
// row's (plan.Row.AttnDP, EP: the request's or the planner's choice),
// else the request's (a row that names none).
func (e *emitter) shape() copyShape {
	r := e.row
	dp, ep, red := e.in.DP, e.in.EP, e.in.RedundantExperts
	if r.AttnDP > 0 || r.EP > 0 {
		dp, ep, red = r.AttnDP, r.EP, r.RedundantExperts
	}
	s := copyShape{tp: max(r.TP, 1), pp: max(r.PP, 1), dp: max(dp, 1), ep: max(ep, 1),
		copies: max(r.DP, 1), nodes: max(r.InstancesPerReplica, 1), redundant: max(red, 0)}
	if s.tp%s.dp != 0 {
		s.dp = 1
	}
	return s
}

// engineOf is the engine a kind runs.
func engineOf(k Kind) estimator.Engine {
	switch k {
	case SGLang:
		return estimator.SGLang
	case TRTLLM:
		return estimator.TRTLLM
	}
	return estimator.VLLM
}

// serve writes the serving engine's launch: one process per engine copy
// unless the engine starts the copies itself (vLLM's and SGLang's data
// parallelism), each on its own GPUs and port.
func (e *emitter) serve() error {
	cmds, err := e.engineCommands(e.k)
	if err != nil {
		return err
	}
	e.file("serve.sh", "sh", "#!/bin/sh\n"+e.header()+nodeGuards(e.shape().nodes, cmds)+e.rackSetup(e.shape().nodes)+cmds)
	if e.k == TRTLLM && trtllmNeedsOptions(e.shape(), e.in) {
		e.file(trtllmOptions, "yaml", trtllmOptionsYAML(e.shape(), e.in))
	}
	switch r := e.row; {
	case e.req.Workload.Kind == plan.Serving && r.Replicas > 1:
		e.note("run this on each of the " + itoa(r.Replicas) + " replicas (" + plural(max(r.InstancesPerReplica, 1), "instance") + " each) behind a load balancer")
	case e.req.Workload.Kind == plan.Batch && r.Instances > max(r.InstancesPerReplica, 1):
		e.note("run this on each of the " + itoa(r.Instances) + " instances and split the requests between them")
	}
	e.batchClient(e.k)
	return nil
}

// batchClient notes, for a batch job that engine k serves for want of an
// offline batch command (runBatch), that a client sends it the requests.
func (e *emitter) batchClient(k Kind) {
	if e.req.Workload.Kind == plan.Batch && !e.runBatch(k) && !e.disagg {
		e.note(k.String() + " has no batch-file command: the server runs the job, and a client sends it the requests (OpenAI API, port " + itoa(servePort) + ") and keeps the planned batch in flight")
	}
}

// header is the comment at the top of a file: the row it launches.
func (e *emitter) header() string {
	r := e.row
	// The names are data (a price sheet's, a provider's API's): a newline
	// in one must not end the comment.
	s := "# rightsize plan: " + catalog.Printable(r.Offer.Provider+" "+r.Offer.Name())
	if r.Instances > 1 {
		s += " ×" + itoa(r.Instances)
	}
	s += ", " + r.Pricing.String()
	if e.req.Workload.Kind == plan.Serving {
		s += ", " + plural(max(r.Replicas, 1), "replica") + " of " + plural(max(r.InstancesPerReplica, 1), "instance")
	}
	return s + "\n"
}

// engineCommands is the shell text that starts the engine copies of one
// replica of the row with engine kind k.
func (e *emitter) engineCommands(k Kind) (string, error) {
	s := e.shape()
	planned := e.row.Engine
	if planned != engineOf(k) && planned != estimator.HF {
		e.note("the plan was sized for " + planned.String() + "; these settings run " + k.String())
	} else if planned == estimator.HF {
		e.note("the plan was sized for hf (transformers); these settings run " + k.String() + " instead")
	}
	perProcess := e.perProcess(k, s)
	if err := e.checkServe(k, s); err != nil {
		return "", err
	}
	c, err := e.engineCommand(k, s, perProcess)
	if err != nil {
		return "", err
	}
	if e.rayCluster(k, s) {
		// One vLLM copy over several instances runs on a Ray cluster: the
		// first instance starts its head and serves, the others join it
		// (vLLM docs, "Distributed inference and serving", multi-node:
		// ray start --head --port=6379 on the head, ray start
		// --address=<head>:6379 on the workers; the flags are ray start's,
		// testdata/ray_start_flags.txt). One script for every instance,
		// told apart by NODE_RANK, as SGLang's and torchrun's multi-node
		// launches are.
		e.note("Ray runs this copy's instances: install it on each beside vLLM (pip install " + rayPackage +
			"), as vLLM no longer installs it, and the same Ray release on every instance")
		return "if [ \"$NODE_RANK\" = 0 ]; then\n  ray start --head --port=6379\n  " +
			strings.ReplaceAll(c.String(), "\n", "\n  ") + "\nelse\n  ray start --address=\"$HEAD_IP:6379\" --block\nfi\n", nil
	}
	if !perProcess {
		return c.String() + "\n", nil
	}
	var b strings.Builder
	gpus := s.tp * s.pp
	// A vLLM copy's data-parallel ranks meet at one RPC port
	// (ParallelConfig.data_parallel_rpc_port, 29550 by default,
	// vllm/config/parallel.py): copies on one instance would share it,
	// so each gets its own.
	dpPort := k == VLLM && s.dp > 1
	if dpPort {
		c.num("--data-parallel-rpc-port", vllmDPRPCPort)
	}
	batch := e.runBatch(k)
	for i := 0; i < s.copies; i++ {
		c.onGPUs(i*gpus, gpus)
		c.set("--port", itoa(servePort+i))
		switch {
		case batch && e.rankFiles:
			c.setWord("-i", rankFile(batchInput, i))
			c.setWord("-o", rankFile(batchOutput, i))
		case batch:
			// Each copy its own share of the requests and its own results.
			c.set("-i", copyFile(batchInput, i))
			c.set("-o", copyFile(batchOutput, i))
		}
		if dpPort {
			c.set("--data-parallel-rpc-port", itoa(vllmDPRPCPort+i))
		}
		b.WriteString(c.String() + " &\n")
	}
	b.WriteString("wait\n")
	switch {
	case batch:
		e.note(plural(s.copies, "engine copy") + " per instance, each on its own GPUs: split " + batchInput + " into " +
			copyFile(batchInput, 0) + " to " + copyFile(batchInput, s.copies-1) + ", one share a copy")
	case e.req.Workload.Kind == plan.Batch:
		e.note(plural(s.copies, "engine copy") + " per instance, each on its own GPUs and port from " + itoa(servePort) + ": send each copy its share of the requests")
	default:
		e.note(plural(s.copies, "engine copy") + " per instance, each on its own GPUs and port from " + itoa(servePort) + ": put a load balancer in front")
	}
	return b.String(), nil
}

// The request and result files of an offline batch job (runBatch).
const (
	batchInput  = "requests.jsonl"
	batchOutput = "results.jsonl"
)

// copyFile is the file name of engine copy i's share: requests-0.jsonl.
func copyFile(name string, i int) string {
	base, ext, _ := strings.Cut(name, ".")
	return base + "-" + itoa(i) + "." + ext
}

// rankFile is the file name of the share of the instance SkyPilot ranks
// SKYPILOT_NODE_RANK (requests-$SKYPILOT_NODE_RANK.jsonl), and of its
// engine copy i where i >= 0, for the shell to expand: built from the
// constant names above and an integer only.
func rankFile(name string, i int) shellWord {
	base, ext, _ := strings.Cut(name, ".")
	w := base + "-$SKYPILOT_NODE_RANK"
	if i >= 0 {
		w += "-" + itoa(i)
	}
	return shellWord(w + "." + ext)
}

// runBatch is whether the launch of engine k runs the batch job offline,
// from a request file to a results file, rather than as a server a
// client sends the requests to: vLLM's vllm run-batch (engineCommand).
// SGLang and TensorRT-LLM have no such command, so their batch launches
// serve and a client sends the requests: SGLang's server has no batch-file
// endpoint (python/sglang/srt/entrypoints/http_server.py at
// sgl-project/sglang 0025436eab05 routes /v1/completions,
// /v1/chat/completions and the like, no /v1/files or /v1/batches), and
// TensorRT-LLM's command-line tools (tensorrt_llm/commands: serve, bench,
// eval, build) run none; both run offline batches only from Python
// (sglang.Engine, tensorrt_llm.LLM). A disaggregated launch serves: its
// workers are two servers behind a router.
func (e *emitter) runBatch(k Kind) bool {
	return k == VLLM && e.req.Workload.Kind == plan.Batch && !e.disagg
}

// sglangDenseDP reports whether shape s of the dense model a has
// data-parallel ranks, which SGLang runs as copies (--dp-size without
// --enable-dp-attention), not as attention DP.
func sglangDenseDP(a estimator.Arch, s copyShape) bool { return s.dp > 1 && !a.IsMoE() }

// perProcess is whether engine k runs the copies of shape s on one
// instance as one process each, on its own GPUs and port, because the
// engine cannot start them as independent copies itself: TensorRT-LLM (no
// data-parallel flag), attention data parallelism or expert parallelism
// beside several copies (the engines' DP flag is then taken by the copy's
// own ranks), and vLLM copies of a mixture-of-experts model: vLLM's
// data-parallel ranks of an MoE model are not independent copies, they
// step together (idle ranks run dummy batches) and their expert layers
// form one tensor-parallel group of DP x TP GPUs (vLLM docs, "Data
// Parallel Deployment", docs/serving/data_parallel_deployment.md at
// vllm-project/vllm 01e4fce07423, read 2026-11-29), where the plan sized
// independent copies of TP GPUs each.
func (e *emitter) perProcess(k Kind, s copyShape) bool {
	return s.copies > 1 && (k == TRTLLM || s.dp > 1 || s.ep > 1 || k == VLLM && e.in.Arch.IsMoE())
}

// rayCluster is whether the serving launch of k runs one vLLM copy over
// several instances on a Ray cluster, which engineCommands starts.
func (e *emitter) rayCluster(k Kind, s copyShape) bool {
	return k == VLLM && s.nodes > 1 && !e.perProcess(k, s)
}

// rayPackage is the pip requirement of the Ray a vLLM launch over several
// instances starts. vLLM's wheels stopped requiring Ray in March 2026
// (vllm-project/vllm pull request 36170, "Remove default ray dependency",
// merged 2026-03-05, took ray[cgraph]>=2.48.0 out of requirements/cuda.txt;
// requirements/cuda.txt and common.txt name no Ray at 009d524805ba and
// 0073e4497d73), and vLLM's docs install it apart as ray[cgraph], the
// Compiled Graph extra its Ray executor runs pipeline stages with
// (docs/serving/parallelism_scaling.md, "What is Ray?": "Ray is an
// optional dependency ... pip install \"ray[cgraph]\""); Ray names the
// extra cgraph from its 2.41 release on (ray-project/ray,
// doc/source/ray-core/compiled-graph/quickstart.rst: ray[adag] before
// 2.41), so pip takes a Ray of 2.41 or later. Quoted: the brackets are a
// shell pattern.
const rayPackage = "\"ray[cgraph]\""

// vllmDPRPCPort is vLLM's default data-parallel RPC port
// (ParallelConfig.data_parallel_rpc_port, vllm/config/parallel.py), the
// first copy's on an instance of several.
const vllmDPRPCPort = 29550

// trtllmOptions is the TensorRT-LLM LLM API options file serve.sh names.
const trtllmOptions = "extra_llm_api_options.yaml"

// trtllmNeedsOptions is whether the aggregated launch of copy shape s
// for in needs that file: attention data parallelism, or a plan without
// CUDA graphs (trtllmNoGraphs).
func trtllmNeedsOptions(s copyShape, in estimator.Input) bool {
	return s.dp > 1 || in.EnforceEager || s.redundant > 0 || in.DraftTokens > 0 || in.NoOverlapSchedule
}

// trtllmOptionsYAML is that file for copy shape s: attention data
// parallelism (enable_attention_dp, an LLM API field: tensorrt_llm/
// llmapi/llm_args.py) with the balance the plan priced (trtllmBalance),
// the redundant experts' slots (trtllmLoadBalancer) and, for a plan
// without CUDA graphs, trtllmNoGraphs.
func trtllmOptionsYAML(s copyShape, in estimator.Input) string {
	var b strings.Builder
	b.WriteString("# trtllm-serve --extra_llm_api_options")
	if s.dp > 1 {
		b.WriteString(": attention data parallelism over the copy's " + itoa(s.tp) + " GPUs, experts over " + itoa(s.ep))
	}
	b.WriteString("\n")
	if s.dp > 1 {
		b.WriteString("enable_attention_dp: true\n")
	}
	b.WriteString(trtllmBalance(s, in))
	b.WriteString(trtllmLoadBalancer(s, in.Arch))
	if in.EnforceEager {
		b.WriteString(trtllmNoGraphs)
	}
	if in.NoOverlapSchedule {
		// The plan ran the host's work between the steps
		// (Input.NoOverlapSchedule): the LLM API's disable_overlap_scheduler
		// (tensorrt_llm/llmapi/llm_args.py).
		b.WriteString(trtllmNoOverlap)
	}
	b.WriteString(trtllmMTP(in))
	return b.String()
}

// trtllmNoOverlap turns TensorRT-LLM's overlap scheduler off.
const trtllmNoOverlap = "disable_overlap_scheduler: true\n"

// trtllmMTP is the speculative decoding a plan priced (estimator.Input.
// DraftTokens) as TensorRT-LLM's options set it: TorchLlmArgs'
// speculative_config as an MTPDecodingConfig (decoding_type MTP,
// num_nextn_predict_layers d: "Each module predicts the next token, so N
// modules produce N draft tokens"; tensorrt_llm/llmapi/llm_args.py), as
// the InferenceX recipes write it (benchmarks/single_node/fixed_seq_len/
// dsr1_fp8_h200_trt_mtp.sh at 843c6254); "" without drafts.
func trtllmMTP(in estimator.Input) string {
	if in.DraftTokens <= 0 {
		return ""
	}
	return "speculative_config:\n  decoding_type: \"MTP\"\n  num_nextn_predict_layers: " + itoa(in.DraftTokens) + "\n"
}

// poolSeqs is the requests copy shape s of engine k holds at once by its
// KV pool (estimator.Result.MaxConcurrentSeqs at the workload's
// lengths), what the plan's simulator let run where the engine's own
// default sets no cap; 0 where the estimate fails.
func (e *emitter) poolSeqs(k Kind, s copyShape) int {
	in := e.engineInput(k, s)
	r, err := estimator.Estimate(in)
	if err != nil || r.MaxConcurrentSeqs < 1 {
		return 0
	}
	return int(min(r.MaxConcurrentSeqs, 1<<20))
}

// trtllmLoadBalancer is the MoE load balancer that holds copy shape s's
// redundant experts: TorchLlmArgs' moe_config.load_balancer
// (MoeLoadBalancerConfig: num_slots, the expert slots over all EP ranks,
// at least the experts and a multiple of EP; layer_updates_per_iter, 0
// for a fixed placement, above 0 for the online balancer;
// tensorrt_llm/llmapi/llm_args.py), num_slots = experts + redundant and
// one layer updated an iteration, as TensorRT-LLM's wide-EP docs configure
// DeepSeek-R1's 256 experts with 288 slots ("configure online EP
// balancer": examples/wide_ep/README.md and the trtllm-serve deployment
// guides); the estimate prices the balanced placement redundant copies
// buy (estimator.Input.RedundantExperts). The MoE backend is left to
// TensorRT-LLM (AUTO). "" without redundant experts.
func trtllmLoadBalancer(s copyShape, a estimator.Arch) string {
	if s.redundant <= 0 {
		return ""
	}
	return "moe_config:\n  load_balancer:\n    num_slots: " + itoa(a.Experts+s.redundant) + "\n    layer_updates_per_iter: 1\n"
}

// trtllmBalance is the attention-DP balance a plan made with
// Input.AttentionDPBalanceIters priced (sim.Policy.BalanceWaitSteps:
// context phases start when every attention rank has one to start, or
// every that many iterations), as the InferenceX recipes write it and
// the estimator's input names it: the LLM API's attention_dp_config
// (TorchLlmArgs.attention_dp_config, an AttentionDpConfig: enable_balance,
// default false; timeout_iters, default 50; batching_wait_iters, default
// 10, here 0 as the recipes set it; tensorrt_llm/llmapi/llm_args.py, read
// 2026-11-30 in NVIDIA/TensorRT-LLM's stored copies from 2025-11 on, not
// at the commit of testdata/trtllm_flags.txt). "" without attention data
// parallelism (s.dp 1), where the plan priced no balance either
// (sim.NewConfig), or without the setting (TensorRT-LLM's default, off).
func trtllmBalance(s copyShape, in estimator.Input) string {
	if s.dp <= 1 || in.AttentionDPBalanceIters <= 0 {
		return ""
	}
	return "attention_dp_config:\n  enable_balance: true\n  timeout_iters: " + itoa(in.AttentionDPBalanceIters) + "\n  batching_wait_iters: 0\n"
}

// trtllmNoGraphs turns TensorRT-LLM's CUDA graphs off, as a plan made with
// Input.EnforceEager assumed (no graphs' memory, eager decode steps): the
// PyTorch backend captures decode graphs by default (TorchLlmArgs'
// cuda_graph_config has default_factory=CudaGraphConfig) and runs without
// them only when the field is null (get_pytorch_backend_config:
// use_cuda_graph=bool(self.cuda_graph_config is not None));
// tensorrt_llm/llmapi/llm_args.py.
const trtllmNoGraphs = "cuda_graph_config: null\n"

// limits is what the plan sized one engine copy's scheduler with: the
// sequences running at once (0: the KV pool limits) and the tokens one
// step computes. Batch jobs run their planned batch per copy
// (plan.Row.Concurrency); serving rows were sized by the engine simulator
// under the engine's documented defaults on the row's GPU
// (sim.DefaultPolicyOn), which are written out so the deployment matches
// the plan.
func (e *emitter) limits(k Kind) (seqs, tokens int) {
	pol, err := sim.DefaultPolicyOn(engineOf(k), e.rowVRAM(), e.row.Offer.Hardware)
	if err == nil {
		seqs, tokens = pol.MaxSeqs, pol.TokenBudget
	}
	if e.in.MaxBatchedTokens > 0 {
		tokens = e.in.MaxBatchedTokens
	}
	if e.req.Workload.Kind == plan.Batch && e.row.Concurrency >= 1 {
		seqs = int(math.Ceil(e.row.Concurrency))
		if s := e.shape(); (k == VLLM || k == TRTLLM || k == SGLang && sglangDenseDP(e.in.Arch, s)) && s.dp > 1 {
			dp := s.dp
			// The batch is the copy's, and each attention rank takes its
			// share: vLLM's --max-num-seqs applies per data-parallel rank
			// (vLLM docs, "Data Parallel Deployment", at
			// vllm-project/vllm 01e4fce07423), and so does TensorRT-LLM's
			// --max_batch_size under enable_attention_dp: each rank's
			// executor admits up to its max_num_active_requests (the
			// model engine's get_max_num_sequences, from max_batch_size),
			// the copy tp_size times that
			// (ExecutorRequestQueue._fetch_new_requests_attention_dp:
			// "total_max_num_active_requests = self.dist.tp_size *
			// self.max_num_active_requests", and
			// _schedule_attention_dp_requests fills a rank up to
			// max_num_active_requests; NVIDIA/TensorRT-LLM
			// tensorrt_llm/_torch/pyexecutor/executor_request_queue.py,
			// read at 007a7508b8f6, not at 00209af149e7, the release
			// the launch's flags are read from). SGLang's copies of a
			// dense model (sglangDenseDP) each run their own scheduler
			// with the server's --max-running-requests: SGLang divides
			// it by dp_size only under enable_dp_attention
			// ("max_running_requests // (dp_size if enable_dp_attention
			// else 1)", ModelRunnerKVCacheMixin in
			// python/sglang/srt/model_executor/, read in a 2026 tree,
			// not at 001067fffe33).
			seqs = int(math.Ceil(e.row.Concurrency / float64(dp)))
		}
	}
	// TensorRT-LLM's PyTorch backend, with chunked prefill off (its
	// default), refuses a request whose prompt is over max_num_tokens
	// ("The sum of prompt length ... should not exceed max_num_tokens",
	// LLM._check_arguments, tensorrt_llm/llmapi/llm.py, read 2026-11-29):
	// the step budget covers the longest prompt, which the plan's
	// simulator runs whole in one step (sim.Policy.Chunked).
	if p := e.longestPrompt(); k == TRTLLM && tokens > 0 && p > tokens {
		e.note("trtllm-serve refuses a prompt over --max_num_tokens while chunked prefill is off: --max_num_tokens is " + itoa(p) + ", the workload's longest prompt, instead of " + itoa(tokens))
		tokens = p
	}
	return seqs, tokens
}

// longestPrompt bounds the prompts the workload sends: its prompt length
// when every request has the same lengths, else its longest request less
// one output token, within the model's context.
func (e *emitter) longestPrompt() int {
	prompt, output := e.lengths()
	n := prompt
	if m := e.req.Workload.MaxRequestTokens; m > prompt+output {
		n = m - 1
	}
	if ctx := e.in.Arch.ServeContext(); ctx > 0 && n > ctx-1 {
		n = ctx - 1
	}
	return n
}

// rowVRAM is the memory of one of the row's GPUs (or of its slice of
// one), as the planner sized it, not the request's; the request's where
// the row's offer names none. The engines' defaults depend on it.
func (e *emitter) rowVRAM() estimator.Bytes {
	vram := e.row.Offer.GPUMemory
	if g := e.row.Offer.GPUCount; g > 0 && g < 1 {
		vram = estimator.Bytes(float64(vram) * g)
	}
	if vram == 0 {
		vram = e.in.VRAM
	}
	return vram
}

// memShare is the memory share the launch writes for engine k running
// copies of shape s: the one the estimate sized the KV pool with
// (estimator.Input.MemShare) — the request's --gpu-mem-util where set,
// else engine k's own default on the row's GPU at the copy's TP, PP and
// attention DP (SGLang's mem_fraction_static depends on all three). Writing
// it keeps the engine on the pool the plan assumed, whatever a later
// release's default. The share fixedShare gives where there is one. 0.9
// where there is none to read (a share at or below 0, which the estimate
// calls no pool).
func (e *emitter) memShare(k Kind, s copyShape) float64 {
	if f := e.fixedShare(k, s); f.Share > 0 {
		return f.Share
	}
	if u := e.engineInput(k, s).MemShare(); u > 0 && u <= 1 {
		return u
	}
	return 0.9
}

// engineInput is the request's input as engine k runs one copy of shape
// s on the row's GPUs, one sequence at a time (as the planner sizes a
// copy: estimator/plan's planner.input).
func (e *emitter) engineInput(k Kind, s copyShape) estimator.Input {
	in := e.in
	in.Engine = engineOf(k)
	if e.row.Offer.GPUMemory > 0 {
		in.VRAM, in.VisibleVRAM = e.rowVRAM(), 0
		in.VLLMSmallDefaults = e.row.Offer.Hardware.VLLMSmallDefaults
	}
	in.TP, in.PP, in.DP, in.EP = max(s.tp, 1), max(s.pp, 1), max(s.dp, 1), max(s.ep, 1)
	in.GPUs, in.ZeRO, in.Batch, in.RedundantExperts = in.TP*in.PP, 0, 1, s.redundant
	return in
}

// sglangGraphs is the --cuda-graph-max-bs an SGLang copy of shape s
// starts with (0: none written): the plan's own where it set one
// (estimator.Input.CUDAGraphMaxBS, which the estimate priced eager past),
// else, where SGLang's default for the GPU's memory and TP
// (estimator.SGLangDefaults) is below the batch a scheduler runs — seqs,
// the --max-running-requests written (0: none), or the plan's requests
// in flight, over the copy's attention-DP ranks — that batch: the plan
// priced every decode step from a graph, and past its largest captured
// batch SGLang decodes eager (CudaGraphRunner.can_run; about 4× the
// per-token latency of a small model, sgl-project/sglang PR #33900, with
// the fallback seen at SGLang's default cap of 32 on an L40, #33483).
// Deployment guides set the cap to the running requests
// (sgl-project/sglang PR #21005: "Typically people set cuda-graph-max-bs
// equal to max-running-requests"). Nothing without graphs
// (Input.EnforceEager).
func (e *emitter) sglangGraphs(s copyShape, seqs int) int {
	if e.in.EnforceEager {
		return 0
	}
	if g := e.in.CUDAGraphMaxBS; g > 0 {
		return g
	}
	// limits gives a dense model's DP copies (sglangDenseDP) their own
	// share already; attention DP's --max-running-requests is the copy's.
	n, perScheduler := seqs, sglangDenseDP(e.in.Arch, s)
	if n == 0 {
		n, perScheduler = int(math.Ceil(e.row.Concurrency)), false
	}
	if !perScheduler && s.dp > 1 {
		n = (n + s.dp - 1) / s.dp
	}
	if d := estimator.SGLangDefaults(e.rowVRAM(), s.tp).CUDAGraphMaxBS; n > d {
		e.note("--cuda-graph-max-bs " + itoa(n) + ": the plan decodes " + itoa(n) + " requests a scheduler from CUDA graphs, where SGLang captures " +
			itoa(d) + " by default on this GPU; a larger batch decodes eager, several times slower a token")
		return n
	}
	return 0
}

// fixedShare is the share a launch of engine k sets in place of k's
// default, with the settings that go with it (Share 0 for none): the
// row's own where the planner set one (plan.Row.MemShare: SGLang's
// default leaves its attention-DP copies no pool, which the recipes run
// with CUDA graphs to estimator.SGLangDPAttentionCUDAGraphMaxBS) and k
// runs the row's engine; where k is another engine than the one the row
// was planned for, the fix estimator.EngineShareFor gives when k's default
// leaves the copy no pool (SGLang's at DP attention 16 on H100s reserves
// 0.36 of each GPU for weights and KV, under DeepSeek-R1's FP8 weights
// alone, and SGLang stops at start-up; at TP 4 on B200s its reserve for a
// 16,384-token chunk and graphs to batch 512 does the same).
func (e *emitter) fixedShare(k Kind, s copyShape) estimator.ShareFix {
	if u := e.rowShare(k); u > 0 {
		return estimator.PlannedShareFix(u, e.engineInput(k, s))
	}
	if e.in.GPUMemUtil != 0 || engineOf(k) == e.row.Engine {
		return estimator.ShareFix{}
	}
	if f, ok := estimator.EngineShareFor(e.engineInput(k, s)); ok {
		return f
	}
	return estimator.ShareFix{}
}

// rowShare is the memory share the planner set on the row's copies
// (plan.Row.MemShare) where k runs the row's engine and the request set
// none; 0 otherwise.
func (e *emitter) rowShare(k Kind) float64 {
	if u := e.row.MemShare; u > 0 && u <= 1 && e.in.GPUMemUtil == 0 && engineOf(k) == e.row.Engine {
		return u
	}
	return 0
}

// dtypeName is the --dtype value of the compute dtype, "" to leave it
// to the checkpoint (vLLM and SGLang take the same names: vllm
// config/model.py ModelDType, sglang server_args.py dtype choices).
func dtypeName(d estimator.DType) string {
	switch d {
	case estimator.BF16:
		return "bfloat16"
	case estimator.FP16:
		return "float16"
	case estimator.FP32:
		return "float32"
	}
	return ""
}

// quant notes or flags the weight format: fp8 weights quantise a 16-bit
// checkpoint at load (vLLM and SGLang --quantization fp8); int8/int4 need
// a checkpoint stored in that format, whose quantization_config the
// engines read.
func (e *emitter) quant() (flag string) {
	mxfp4 := e.in.Weights == estimator.FP4 && e.in.Arch.MXFP4Params > 0
	if e.storedSet && e.in.Weights == e.stored && !mxfp4 {
		// The published checkpoint is stored in the planned format (a
		// catalog model's WeightsDType: DeepSeek-V3/R1's block FP8):
		// the engines read its quantization_config, and SGLang's
		// quantization docs say not to add --quantization to a
		// pre-quantized model (docs.sglang.io, "Quantization").
		e.note("the plan keeps " + e.in.Weights.String() + " weights: the published checkpoint stores them so, and the engine reads its quantization_config")
		return ""
	}
	switch e.in.Weights {
	case estimator.FP8:
		return "fp8"
	case estimator.FP4:
		if mxfp4 {
			// gpt-oss is published with its experts in MXFP4 (its
			// config.json's quantization_config, quant_method "mxfp4"):
			// the published checkpoint is the planned one.
			e.note("the plan keeps fp4 weights: the published checkpoint stores its experts in MXFP4, and the engine reads its quantization_config")
			return ""
		}
		fallthrough
	case estimator.INT8, estimator.INT4:
		if e.published && e.model == Placeholder {
			break // checkpoint's note says which copy to name
		}
		e.note("the plan keeps " + e.in.Weights.String() + " weights: serve a checkpoint stored in that format (" + e.storedFormats(e.in.Weights) + "); the engine reads its quantization_config")
	}
	return ""
}

// storedFormats names the checkpoint formats that store weights w and
// that vLLM, SGLang and TensorRT-LLM load on the row's GPU (vLLM docs,
// "Quantization: supported hardware"): GPTQ and AWQ 4-bit (AWQ from
// Turing, so GPTQ alone on Volta), GPTQ 8-bit and INT8 W8A8, NVFP4 (and
// MXFP4, gpt-oss's own).
func (e *emitter) storedFormats(w estimator.DType) string {
	switch w {
	case estimator.INT4:
		if e.in.Quant.ExpertsOnly() {
			return "Moonshot's INT4 layout: experts in compressed-tensors INT4"
		}
		if e.row.Offer.Hardware.Generation == estimator.GenVolta {
			return "GPTQ 4-bit"
		}
		return "AWQ or GPTQ 4-bit"
	case estimator.INT8:
		return "GPTQ 8-bit or INT8 W8A8"
	case estimator.FP4:
		return "NVFP4 or MXFP4"
	case estimator.FP8:
		if e.engine() == estimator.TRTLLM {
			return "FP8, a ModelOpt export"
		}
		return "FP8"
	}
	return w.String()
}

func (e *emitter) engineCommand(k Kind, s copyShape, perProcess bool) (*command, error) {
	seqs, tokens := e.limits(k)
	util := e.memShare(k, s)
	// The three settings' names come from the estimator's one table, so
	// the launch sets what the page's fields name.
	knobs := engineOf(k).Settings()
	c := &command{}
	switch k {
	case VLLM:
		// vllm serve: flags from vllm/engine/arg_utils.py
		// (EngineArgs.add_cli_args) and
		// vllm/entrypoints/openai/cli_args.py (--host, --port);
		// testdata/vllm_flags.txt.
		c.argv = []string{"vllm", "serve", e.model}
		if e.runBatch(k) {
			// An offline batch job: vllm run-batch reads the requests
			// from a file and writes the results to another, with the
			// engine arguments serve takes (vllm/entrypoints/openai/
			// run_batch.py, make_arg_parser: -i/--input-file and
			// -o/--output-file, required, then AsyncEngineArgs.
			// add_cli_args; read at vllm-project/vllm 0056ae7b2144, and
			// at 02759f3134b0 as vllm/entrypoints/launchers/run_batch.py
			// with the same flags; neither at 99d7eb5d6a51, the commit
			// testdata/vllm_flags.txt was read at, which the store does
			// not hold). It takes the model as --model, and has no
			// HTTP server: its --port is a metrics server's, and --host
			// is absent at 0056ae7b2144, so neither is written.
			c.argv = []string{"vllm", "run-batch"}
			if e.rankFiles {
				c.expand("-i", rankFile(batchInput, -1))
				c.expand("-o", rankFile(batchOutput, -1))
			} else {
				c.flag("-i", batchInput)
				c.flag("-o", batchOutput)
			}
			c.flag("--model", e.model)
			e.note("vllm run-batch reads " + batchInput + ", one request a line in OpenAI's batch format (custom_id, method POST, url /v1/chat/completions, body with model " +
				e.model + " and messages), and writes " + batchOutput + "; it takes chat requests only, so the model needs a chat template")
		}
		if e.remoteCode != "" {
			c.bare("--trust-remote-code")
			e.note(e.remoteCode)
		}
		if s.dp > 1 || s.ep > 1 {
			// vLLM's data-parallel attention with expert parallelism:
			// --data-parallel-size D with TP t is a copy of t·D GPUs, its
			// experts spread over all of them (estimator.Input, EP and DP).
			c.num("--tensor-parallel-size", s.tp/s.dp)
			if s.dp > 1 {
				c.num("--data-parallel-size", s.dp)
			}
			if s.ep > 1 {
				c.bare("--enable-expert-parallel")
				if s.ep != s.tp {
					e.note("vLLM's expert parallelism spans the copy's " + itoa(s.tp) + " GPUs; the plan assumed EP " + itoa(s.ep))
				}
				if s.redundant > 0 {
					// The redundant experts the plan sized each rank
					// with: EPLBConfig.num_redundant_experts, which
					// vLLM takes only with --enable-eplb (ParallelConfig
					// refuses it otherwise), through --eplb-config's JSON
					// (EngineArgs.add_cli_args at 99d7eb5d6a51, where
					// --num-redundant-experts is deprecated for removal
					// in v0.12.0; vLLM docs, "Expert Parallel
					// Deployment", EPLB: --enable-eplb --eplb-config
					// '{"num_redundant_experts":32}' at large scale).
					c.bare("--enable-eplb")
					c.flag("--eplb-config", `{"num_redundant_experts":`+itoa(s.redundant)+`}`)
					e.note("vLLM's expert-parallel load balancer (--enable-eplb) places the " + itoa(s.redundant) + " redundant experts; it runs on the model classes that implement vLLM's MixtureOfExperts interface (DeepSeek V2/V3 among them): vLLM stops at start-up with another")
				}
			}
		} else {
			c.num("--tensor-parallel-size", s.tp)
			if !perProcess && s.copies > 1 {
				c.num("--data-parallel-size", s.copies)
			}
		}
		if s.pp > 1 {
			c.num("--pipeline-parallel-size", s.pp)
		}
		switch {
		case s.nodes > 1 && e.disagg:
			// A disaggregated worker's ranks meet without Ray
			// (disaggWorkers writes their flags).
		case s.nodes > 1 && s.dp > 1:
			// Data-parallel ranks over several instances: vLLM places
			// them as Ray actors over the cluster the script starts
			// (EngineArgs data_parallel_backend "ray"), each instance
			// holding its share (data_parallel_size_local; vLLM docs,
			// "Data Parallel Deployment").
			c.flag("--data-parallel-backend", "ray")
			c.num("--data-parallel-size-local", s.dp/s.nodes)
			e.note("one copy spans " + plural(s.nodes, "instance") + ": run this script on each with NODE_RANK 0.." + itoa(s.nodes-1) + " and HEAD_IP the first one's address; the first starts the Ray head and serves, the others join it")
		case s.nodes > 1:
			c.flag("--distributed-executor-backend", "ray")
			e.note("one copy spans " + plural(s.nodes, "instance") + ": run this script on each with NODE_RANK 0.." + itoa(s.nodes-1) + " and HEAD_IP the first one's address; the first starts the Ray head and serves, the others join it")
		}
		if d := dtypeName(e.in.Weights); d != "" {
			c.flag("--dtype", d)
		}
		if q := e.quant(); q != "" {
			c.flag("--quantization", q)
		}
		if e.in.KV == estimator.FP8 {
			c.flag("--kv-cache-dtype", "fp8")
		}
		c.num("--max-model-len", e.contextLen())
		if seqs > 0 {
			c.num(knobs.MaxSeqs, seqs)
		}
		if tokens > 0 {
			c.num(knobs.TokenBudget, tokens)
		}
		c.frac(knobs.MemShare, util)
		if e.in.EnforceEager {
			c.bare("--enforce-eager")
		}
		if e.in.NoPrefixCache {
			// The plan ran without the prefix cache (Input.NoPrefixCache):
			// vLLM's --enable-prefix-caching is a boolean option whose
			// negation turns it off (on by default in the V1 engine;
			// EngineArgs, vllm/engine/arg_utils.py).
			c.bare("--no-enable-prefix-caching")
		}
		if d := e.in.DraftTokens; d > 0 {
			// The speculative decoding the plan priced
			// (estimator.Input.DraftTokens): vLLM's --speculative-config,
			// a JSON SpeculativeConfig (method mtp, which
			// SpeculativeConfig.__post_init__ resolves to the model's own
			// MTP proposer and to which it rewrites the per-model names,
			// deepseek_mtp and glm4_moe_mtp among MTPModelTypes, "is
			// deprecated and replaced with mtp"; num_speculative_tokens;
			// vllm/config/speculative.py, EngineArgs.speculative_config in
			// vllm/engine/arg_utils.py).
			c.flag("--speculative-config", `{"method":"mtp","num_speculative_tokens":`+itoa(d)+`}`)
		}
		if !e.runBatch(k) {
			c.flag("--host", "0.0.0.0")
			c.num("--port", servePort)
		}
	case SGLang:
		// python -m sglang.launch_server: flags from
		// python/sglang/srt/server_args.py (ServerArgs fields, the flag
		// is the field name in kebab case); testdata/sglang_flags.txt.
		c.argv = []string{"python", "-m", "sglang.launch_server"}
		c.flag("--model-path", e.model)
		if e.remoteCode != "" {
			c.bare("--trust-remote-code")
			e.note(e.remoteCode)
		}
		switch {
		case sglangDenseDP(e.in.Arch, s):
			// A dense model's data-parallel ranks are copies of tp/dp
			// GPUs each, as the estimate prices them (each rank holds
			// the weights over tp/dp GPUs; vLLM's --data-parallel-size
			// writes the same): SGLang's --dp-size without DP attention
			// runs dp copies of --tp-size GPUs behind its own router
			// (DataParallelController), dp × tp/dp GPUs. Its
			// --enable-dp-attention needs model code that splits
			// attention over an attention-TP group, which its dense
			// model code has not (LlamaAttention splits the heads over
			// get_tensor_model_parallel_world_size, with no
			// LayerCommunicator: sgl-project/sglang
			// python/sglang/srt/models/llama.py, read at 00239548).
			c.num("--tp-size", s.tp/s.dp)
		default:
			c.num("--tp-size", s.tp)
		}
		if s.pp > 1 {
			c.num("--pp-size", s.pp)
		}
		switch {
		case sglangDenseDP(e.in.Arch, s):
			c.num("--dp-size", s.dp)
		case s.dp > 1:
			// Attention DP, for the mixture-of-experts model types
			// whose SGLang code runs it (estimator.SGLangDPAttention;
			// checkServe refused the others).
			c.num("--dp-size", s.dp)
			c.bare("--enable-dp-attention")
		case !perProcess && s.copies > 1:
			// --dp-size without DP attention runs that many copies of
			// tp GPUs behind SGLang's own router.
			c.num("--dp-size", s.copies)
		}
		if s.ep > 1 {
			c.num("--ep-size", s.ep)
		}
		if s.redundant > 0 {
			// The redundant experts the plan sized each rank with
			// (ServerArgs.ep_num_redundant_experts, default 0), placed and
			// moved by SGLang's EPLB (enable_eplb: it records the experts'
			// load and rebalances every eplb_rebalance_num_iterations,
			// 1000; its dispatch algorithm then defaults to "static" under
			// DeepEP and "dynamic" without an all-to-all backend:
			// ServerArgs._handle_eplb_and_dispatch, python/sglang/srt/
			// server_args.py at 001067fffe33, which asks nothing else of
			// them but ep_size > 1). Without --enable-eplb the copies sit
			// on the first experts' trivial placement and balance nothing
			// the estimate prices; NVIDIA Dynamo's GB200 recipe and LMSYS's
			// deployment start from a measured placement file
			// (--init-expert-location) this plan does not have.
			c.num("--ep-num-redundant-experts", s.redundant)
			c.bare("--enable-eplb")
		}
		if x := e.engineInput(k, s); estimator.SGLangDeepEP(x) {
			// The all-to-all the estimate prices for expert parallelism
			// under attention DP, inside one NVLink domain or across
			// several (estimator.SGLangDeepEP; checkServe refused the
			// layouts SGLang cannot run so: estimator.DeepEPRefusal):
			// ServerArgs.moe_a2a_backend, default "none" (every token
			// gathered to every rank, the shared experts split over TP),
			// "deepep" as SGLang's own CI runs DeepSeek on one node
			// (test/srt/ep/test_deepep_large.py at 0ed54dab) and the
			// LMSYS large-scale EP deployment over many. --deepep-mode
			// is left at "auto" (normal kernels in prefill, low-latency
			// in decode).
			c.flag("--moe-a2a-backend", "deepep")
			if estimator.DeepEPDecode(x, e.row.Offer.Hardware) {
				e.note("--moe-a2a-backend deepep needs DeepEP and its NVSHMEM/RDMA set-up on every instance (the lmsysorg/sglang images ship them)")
			} else {
				e.note("--moe-a2a-backend deepep needs DeepEP installed beside SGLang (the lmsysorg/sglang images ship it)")
			}
		}
		if e.in.TwoBatchOverlap && s.ep > 1 && s.dp > 1 {
			// The estimate's micro-batches (estimator.Input.TwoBatchOverlap):
			// ServerArgs.enable_two_batch_overlap.
			c.bare("--enable-two-batch-overlap")
		}
		if s.nodes > 1 {
			c.num("--nnodes", s.nodes)
			c.expand("--node-rank", nodeRank)
			c.expand("--dist-init-addr", headInit)
			if !e.disagg { // its own note names each worker's first instance
				e.note("one copy spans " + plural(s.nodes, "instance") + ": run the command on each with NODE_RANK 0.." + itoa(s.nodes-1) + " and HEAD_IP the first one's address")
			}
		}
		if d := dtypeName(e.in.Weights); d != "" {
			c.flag("--dtype", d)
		}
		if q := e.quant(); q != "" {
			c.flag("--quantization", q)
		}
		if e.in.KV == estimator.FP8 {
			c.flag("--kv-cache-dtype", "fp8_e4m3")
		}
		c.num("--context-length", e.contextLen())
		if e.in.EnforceEager {
			// The plan assumed no CUDA graphs (Input.EnforceEager):
			// SGLang's ServerArgs.disable_cuda_graph
			// (python/sglang/srt/server_args.py).
			c.bare("--disable-cuda-graph")
		}
		if e.in.NoPrefixCache {
			// The plan ran without the radix cache (Input.NoPrefixCache),
			// which changes SGLang's admission of ignore-eos requests:
			// ServerArgs.disable_radix_cache
			// (python/sglang/srt/server_args.py).
			c.bare("--disable-radix-cache")
		}
		if e.in.NoOverlapSchedule {
			// The plan ran the host's work between the steps
			// (Input.NoOverlapSchedule): ServerArgs.disable_overlap_schedule
			// (python/sglang/srt/server_args.py).
			c.bare("--disable-overlap-schedule")
		}
		if d := e.in.DraftTokens; d > 0 {
			// The speculative decoding the plan priced
			// (estimator.Input.DraftTokens): SGLang's EAGLE worker over the
			// model's own MTP module, a chain of d drafts (topk 1, d + 1
			// tokens verified), as SGLang's DeepSeek usage docs and the
			// InferenceX recipes launch it (docs/basic_usage/
			// deepseek_v3.md, "Multi-token Prediction";
			// benchmarks/single_node/fixed_seq_len/dsr1_fp8_h200_mtp.sh).
			// ServerArgs._handle_speculative_decoding (python/sglang/srt/
			// server_args.py at 469c63e5) takes the draft from the model's
			// own checkpoint for DeepSeek-V3 and GLM-4.5, resets
			// max_running_requests to 48 where it is not given, and turns
			// the overlap scheduler off unless SGLANG_ENABLE_SPEC_V2 is
			// set: the plan priced the overlap and the KV pool's
			// concurrency, so both are written.
			c.flag("--speculative-algorithm", "EAGLE")
			c.num("--speculative-num-steps", d)
			c.num("--speculative-eagle-topk", 1)
			c.num("--speculative-num-draft-tokens", d+1)
			c.setenv("SGLANG_ENABLE_SPEC_V2", "1", "")
			if seqs == 0 {
				seqs = e.poolSeqs(k, s)
			}
		}
		// SGLang's static share holds the weights and the KV pool
		// (memShare: the share the estimate sized the pool with).
		c.frac(knobs.MemShare, util)
		if f := e.fixedShare(k, s); f.Share > 0 {
			// The recipes that set that share capture CUDA graphs to a
			// smaller batch (estimator.SGLangDPAttentionCUDAGraphMaxBS at
			// DP attention, SGLangTightCUDAGraphMaxBS at TP 4), and at TP
			// 4 prefill a smaller chunk, which the share's reserve holds;
			// a cap the plan set itself (Input.CUDAGraphMaxBS, which
			// ShareFix.Apply keeps and the estimate priced) stands.
			if g := cmp.Or(e.in.CUDAGraphMaxBS, f.CUDAGraphMaxBS); g > 0 {
				c.num("--cuda-graph-max-bs", g)
			}
			if f.Chunk > 0 && (tokens == 0 || tokens > f.Chunk) {
				tokens = f.Chunk
			}
		} else if g := e.sglangGraphs(s, seqs); g > 0 {
			c.num("--cuda-graph-max-bs", g)
		}
		if seqs > 0 {
			c.num(knobs.MaxSeqs, seqs)
		}
		if tokens > 0 {
			// Under DP attention SGLang divides chunked_prefill_size by
			// dp_size "to avoid MoE kernel issues" (ServerArgs.
			// _handle_data_parallelism, python/sglang/srt/server_args.py,
			// read 2026-11-29), so the flag is the copy's step budget over
			// all its ranks; the plan gives each rank the budget of one
			// scheduler (sim.NewConfig), which the flag then holds dp times.
			attnDP := s.dp
			if sglangDenseDP(e.in.Arch, s) {
				attnDP = 1 // copies, each with its own scheduler
			}
			c.num(knobs.TokenBudget, tokens*attnDP)
			if attnDP > 1 {
				e.note(knobs.TokenBudget + " " + itoa(tokens*s.dp) + " is the copy's: SGLang divides it by --dp-size, so each attention rank runs " + itoa(tokens) + " tokens a step, as planned")
			}
		}
		if n := e.in.SchedulerRecvInterval; n > 1 {
			// The receive interval the plan priced (Input.
			// SchedulerRecvInterval, a benchmark recipe's setting: new
			// requests are taken in every n forward passes):
			// ServerArgs.scheduler_recv_interval, default 1
			// (python/sglang/srt/server_args.py at 001067fffe33).
			c.num("--scheduler-recv-interval", n)
		}
		c.flag("--host", "0.0.0.0")
		c.num("--port", servePort)
	case TRTLLM:
		// trtllm-serve: click options of tensorrt_llm/commands/serve.py;
		// testdata/trtllm_flags.txt.
		c.argv = []string{"trtllm-serve", e.model}
		if e.remoteCode != "" {
			c.bare("--trust_remote_code")
			e.note(e.remoteCode)
		}
		c.num("--tp_size", s.tp)
		if s.pp > 1 {
			c.num("--pp_size", s.pp)
		}
		if s.ep > 1 {
			c.num("--ep_size", s.ep)
		}
		if trtllmNeedsOptions(s, e.in) {
			// Attention data parallelism is an LLM API option, not a
			// flag: trtllm-serve reads it from the YAML file named by
			// --extra_llm_api_options (alias --config; tensorrt_llm/
			// commands/serve.py), enable_attention_dp: true, as
			// TensorRT-LLM's DeepSeek-R1 throughput recipes set it with
			// moe_expert_parallel_size (--ep_size above).
			c.flag("--extra_llm_api_options", trtllmOptions)
			if s.dp > 1 && s.dp != s.tp {
				e.note("TensorRT-LLM's attention data parallelism runs one rank per GPU of the copy; the plan assumed attention DP " + itoa(s.dp) + " over " + itoa(s.tp))
			}
		}
		if s.nodes > 1 && !e.disagg {
			// A disaggregated worker's MPI job is written out
			// (trtllmMPI).
			e.note("one copy spans " + plural(s.nodes, "instance") + ": start trtllm-serve under mpirun or srun over them (TensorRT-LLM multi-node docs)")
		}
		if (e.in.Weights == estimator.FP8 && !(e.storedSet && e.stored == estimator.FP8)) || e.in.KV == estimator.FP8 {
			e.note("TensorRT-LLM reads fp8 weights and an fp8 KV cache from a quantised checkpoint (ModelOpt); serve one")
		} else {
			e.quant()
		}
		if seqs > 0 {
			c.num(knobs.MaxSeqs, seqs)
		}
		if tokens > 0 {
			c.num(knobs.TokenBudget, tokens)
		}
		c.num("--max_seq_len", e.contextLen())
		// The share of the memory left after the model is loaded that
		// the KV cache takes, as the estimator sizes TensorRT-LLM's pool
		// (kvPool; 0.9, TensorRT-LLM's default too).
		c.frac(knobs.MemShare, util)
		c.flag("--host", "0.0.0.0")
		c.num("--port", servePort)
	}
	return c, nil
}

// nodeGuards stops a script that spans nodes instances where the
// instance's rank (NODE_RANK) or the first instance's address (HEAD_IP or
// MASTER_ADDR) that its text uses is unset: "--node-rank $NODE_RANK" would
// otherwise pass the next flag as the rank, and SGLang, torchrun and
// Accelerate stop with an argument error far from its cause (as the
// disaggregated scripts require HOST_IP). "" for one instance, or a text
// that uses neither (TensorRT-LLM's, started under mpirun).
func nodeGuards(nodes int, text string) string {
	if nodes < 2 {
		return ""
	}
	var b strings.Builder
	if strings.Contains(text, "$NODE_RANK") {
		b.WriteString(guard("NODE_RANK", "the rank of this instance, 0 to "+itoa(nodes-1)))
	}
	for _, addr := range []string{"HEAD_IP", "MASTER_ADDR"} {
		if strings.Contains(text, "$"+addr) {
			b.WriteString(guard(addr, "the address of the first instance"))
		}
	}
	return b.String()
}
