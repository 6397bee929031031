package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Recommendation marks a row.
type Recommendation int

const (
	RecNone Recommendation = iota
	RecCheapest
	RecFastest
	RecValue
	RecPareto
)

var recNames = [...]string{RecNone: "none", RecCheapest: "cheapest", RecFastest: "fastest", RecValue: "value", RecPareto: "pareto"}

func (r Recommendation) String() string {
	if r >= 0 && int(r) < len(recNames) {
		return recNames[r]
	}
	return "Recommendation(?)"
}

// HostStatus is the verdict of the host checks.
type HostStatus int

const (
	// HostUnknown: not checked (the offer does not fit) or the offer
	// lists no vCPUs or RAM.
	HostUnknown HostStatus = iota
	HostOK
	HostWarn
	HostFail
)

var hostNames = [...]string{HostUnknown: "unknown", HostOK: "ok", HostWarn: "warn", HostFail: "fail"}

func (h HostStatus) String() string {
	if h >= 0 && int(h) < len(hostNames) {
		return hostNames[h]
	}
	return "HostStatus(?)"
}

// Reason is a sentence as a message key and its arguments, so the page can
// translate it; English renders it for the command line. Args are strings
// (names) and float64 (numbers) in the order the key's message uses them.
type Reason struct {
	Key  string
	Args []any // float64 (a plain number), int, string (a name), Money, Duration, OfferRef
}

// Typed arguments of a Reason. Numbers and their units stay apart until a
// formatter writes them (as golang.org/x/perf's benchunit keeps values and
// units apart): String below for the CLI, the page's locale for the page,
// so a figure in a sentence is formatted like the same figure on a card.

// Money is an amount in Currency; PerMonth marks a monthly bill.
type Money struct {
	Amount   float64
	Currency string
	PerMonth bool
}

// Duration is a job's time in seconds; P95PerRequest marks a serving
// plan's p95 end-to-end latency of one request.
type Duration struct {
	Seconds       float64
	P95PerRequest bool
}

// OfferRef names a plan: its offer's provider (an ID: a formatter may
// show the provider's name) and instance type, and the instances rented;
// Own marks an offer on the user's own price (Offer.UserPrice), which the
// sentence says, as the page's cards and the table's price flags do.
type OfferRef struct {
	Provider, InstanceType string
	Instances              int
	// Rented is the instances the bill pays for (Row.Rented) where the
	// provider rents whole orders and the plan uses fewer; 0 or Instances:
	// it rents what it uses.
	Rented int
	Own    bool
}

// InstancesOfEnglish is InstancesLabel's of in English.
const InstancesOfEnglish = "%s of %s"

// InstancesLabel is the one way a plan's instance count is written: "8"
// where the plan rents what it uses, "8 of 18" where the provider rents
// whole orders and the plan uses fewer than it pays for (Row.Rented: a
// CoreWeave GB200 NVL72 rack of 18 trays). of is InstancesOfEnglish or its
// translation ("%s из %s"), num writes a count in the reader's digits. The
// CLI's instances column, every reason naming a plan (OfferRef.String) and
// the page's cards and sentences (page.InstancesOf) all write it here, so
// the pick's sentence says what its card says.
func InstancesLabel(n, rented int, of string, num func(int) string) string {
	if rented > n {
		return fmt.Sprintf(of, num(n), num(rented))
	}
	return num(n)
}

// InstancesSuffix is " ×" and InstancesLabel after an instance type rented
// more than once ("aws p5.48xlarge ×2", "coreweave … ×8 of 18"), or "".
func InstancesSuffix(n, rented int, of string, num func(int) string) string {
	if n > 1 || rented > n && n > 0 {
		return " ×" + InstancesLabel(n, rented, of, num)
	}
	return ""
}

// WorkerLayout names a disaggregated worker's layout in a reason: its
// tensor-parallel GPUs and, inside them, the attention data-parallel
// ranks and expert-parallel degree (1: none), abbreviated as the page's
// and the CLI's plan tables write them ("8 · attn-DP 8 · EP 8").
type WorkerLayout struct{ TP, DP, EP int }

func (w WorkerLayout) String() string {
	s := strconv.Itoa(w.TP)
	if w.DP > 1 {
		s += " · attn-DP " + strconv.Itoa(w.DP)
	}
	if w.EP > 1 {
		s += " · EP " + strconv.Itoa(w.EP)
	}
	return s
}

func (m Money) String() string {
	s := displayNumber(m.Amount) + " " + m.Currency
	if m.PerMonth {
		s += "/month"
	}
	return s
}

func (d Duration) String() string {
	if d.P95PerRequest {
		return "p95 " + displayNumber(d.Seconds) + " s per request"
	}
	return displayNumber(d.Seconds/3600) + " h"
}

func (o OfferRef) String() string {
	s := o.Provider + " " + o.InstanceType + InstancesSuffix(o.Instances, o.Rented, InstancesOfEnglish, GroupInt)
	if o.Own {
		s += " (your price)"
	}
	return s
}

// Message keys and their English text. A translation supplies the same
// keys with the same argument order.
var English = map[string]string{
	"fit.ok":                        "fits with %s GiB headroom per GPU",
	"fit.no_hardware":               "the catalog lacks this GPU's speed figures",
	"fit.batch_short":               "%s data-parallel replicas need more sequences a step than the global batch's %s, a layout Megatron-LM, torchtitan and FSDP stacks refuse: at most %s replicas (fewer GPUs, larger TP or PP, context parallelism) or a larger global batch",
	"fit.no_price":                  "no %s price",
	"fit.no_fx":                     "no exchange rate for %s",
	"fit.fraction_training":         "a GPU slice is for inference only",
	"fit.too_big":                   "needs more than %s instances",
	"fit.inside_margin":             "fits with %s GiB free per GPU at best — inside the memory estimate's error (%s%% of the GPU's memory): a plan would risk running out of memory",
	"note.inside_margin":            "the layout given fits with %s GiB free per GPU — inside the memory estimate's error (%s%% of the GPU's memory): a fragmentation spike may run it out of memory",
	"note.idle_gpus":                "the layout given runs on %s of the %s GPUs rented; %s idle, paid",
	"note.idle_gpus_all":            "the layout given runs on %s of the %s GPUs rented; %s idle, paid: the same job at DP %s on all of them takes %s for %s",
	"fit.layout_oom":                "%s GiB per GPU short at the layout given (%s GPUs, TP %s, PP %s, ZeRO %s): set a higher --zero or --grad-checkpointing, or leave --gpus, --tp and --pp out to let the plan choose",
	"fit.engine_gpu":                "%s does not run on %s GPUs",
	"fit.batch_short_litgpt":        "%s GPUs need more sequences a step than the global batch's %s, which LitGPT's fine-tune scripts refuse at the start (each device takes one sequence or more, TrainArgs in litgpt/args.py); they run data-parallel only (no TP, PP or CP): at most %s GPUs, or a larger global batch (--global-batch, which --emit litgpt writes as --train.global_batch_size)",
	"fit.litgpt_qlora":              "LitGPT's lora.py runs QLoRA on one GPU only (\"Quantization is currently not supported for multi-GPU training\"), not on %s: plan --gpus 1 on an instance of one GPU, or --task lora",
	"fit.litgpt_layout":             "LitGPT's fine-tune scripts run one GPU as the job is, or on more FSDP full shard (ZeRO-3) with every Block recomputed and nothing offloaded, not the layout given (%s GPUs, TP %s, PP %s, ZeRO %s, with its checkpointing and offload): leave --gpus, --zero, --grad-checkpointing and --offload out to plan LitGPT's",
	"fit.no_fabric":                 "one instance does not hold it, and the provider names no cluster network between instances (allow unknown networks to plan across them)",
	"fit.span_node":                 "one instance does not hold it, and one serving copy is not split over instances without NVLink between their GPUs: multi-node serving runs over whole NVLink nodes (take an instance with more GPUs, or a GPU with more memory)",
	"fit.no_fabric_own":             "one instance does not hold it, and your price sheet names no network between your instances: give the row's network_gbps and network_fabric (or allow unknown networks) to plan across them",
	"fit.filtered":                  "filtered out: %s",
	"fit.over_budget":               "over budget",
	"fit.past_deadline":             "misses the deadline",
	"fit.own_more_gpus":             "%s × %s cannot hold the job; one instance of %s × %s would, at %s",
	"fit.own_gpus":                  "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; one instance of %s × %s would, at %s",
	"fit.own_gpus_or_weights":       "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; one instance of %s × %s would, at %s, or %s weights on these GPUs",
	"fit.own_weights":               "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; %s weights would fit these GPUs (no instance of up to 8 of them holds the job as set, and planning across instances needs the row's network_gbps and network_fabric)",
	"host.ok":                       "host sized to the guides' rule",
	"host.unknown":                  "the offer does not list vCPUs or RAM",
	"host.few_vcpus":                "%s vCPUs per GPU, below the %s per GPU that host sizing guides give for this task: data-loader workers, tokenising and the serving front end run on them, and too few leave the GPUs waiting (a soft rule: pre-tokenise the data, or take a larger host shape)",
	"host.little_ram":               "%s GiB RAM per GPU, below the %s GiB per GPU that host sizing guides give for this task: loading the checkpoint and the data loader's pinned buffers use it (a soft rule: load the weights sharded or memory-mapped, or take a larger host shape)",
	"host.offload_unlisted":         "CPU offload needs %s GiB of host RAM, and the offer does not list its RAM",
	"host.offload_ram":              "CPU offload needs %s GiB of host RAM, the instance has %s GiB",
	"slo.ttft_prefill":              "TTFT is bound by prefill: %s s for one prompt on an idle replica",
	"slo.tpot_bandwidth":            "TPOT is bound by memory bandwidth: %s s per token even alone",
	"slo.tpot_compute":              "TPOT is bound by compute: %s s per token even alone",
	"slo.tpot_host":                 "TPOT is bound by the host and engine overhead: %s s per token even alone",
	"slo.tpot_communication":        "TPOT is bound by tensor-parallel communication: %s s per token even alone",
	"slo.kv_pool":                   "the KV pool cannot hold one request",
	"none.latency":                  "no offer meets the latency targets (%s)",
	"none.latency2":                 "no offer meets the latency targets (%s; %s)",
	"none.ttft_floor":               "TTFT %s s at best, one prompt on an idle replica on %s, against a target of %s s: take a longer target or shorter prompts",
	"none.tpot_floor":               "TPOT %s s at best, one sequence alone on %s, against a target of %s s: take a longer target, lighter weights or a smaller model",
	"spot.serving":                  "spot reclaims break serving SLOs unless a spare replica covers them; one is added",
	"reason.cheapest":               "%s: cheapest that fits at %s; the runner-up, %s, costs %s× as much for %s× the speed",
	"reason.cheapest_alone":         "%s: the only plan that fits on an unflagged price, at %s",
	"reason.cheapest_flagged":       "%s: the only plan that fits on a price flagged no worse than its own, at %s",
	"reason.cheapest_only":          "%s: the only plan that fits, at %s",
	"reason.cheapest_own_tie":       "%s: cheapest that fits at %s; %s costs the same, and the tie goes to your price",
	"reason.cheapest_tie":           "%s: cheapest that fits at %s, within %s%% of the lowest cost (%s, at %s) for %s× its speed",
	"reason.cost_tie":               "%s: %s costs at most %s%% more and runs %s× as fast",
	"reason.fastest":                "%s: %s× faster for %s× the cost of the cheapest plan, %s",
	"reason.fastest_tie":            "%s: %s× faster for %s× the cost of the cheapest plan, %s, within %s%% of the shortest time at up to %s× that cost (%s, %s)",
	"reason.fastest_cheapest_tie":   "%s: the cheapest plan is also the fastest, %s, within %s%% of the shortest time (%s, %s) for %s× its cost",
	"reason.no_alternative":         "%s: no plan within %s× its cost runs at least %s%% faster, so no faster plan is shown; the fastest, %s, runs %s× as fast for %s× the cost",
	"reason.past_bound":             "%s: %s× faster for %s× the cost of the cheapest plan, more than the %s× its cost a faster alternative may take",
	"reason.fastest_passed":         "%s: %s× as fast as %s, within the %s%% the estimate cannot tell apart, for %s× its cost: not the fastest pick",
	"reason.fastest_alone":          "%s: the only plan that fits on an unflagged price, %s",
	"reason.value":                  "%s: the knee of cost against time, %s× the cheapest plan's cost for %s× its speed",
	"reason.pareto":                 "%s: no other plan is both cheaper and faster",
	"reason.fastest_is_cheapest":    "%s: the cheapest plan is also the fastest, %s",
	"reason.value_is_cheapest":      "%s: the cheapest plan is also the best value: no dearer plan within %s× its cost buys enough speed for its cost",
	"reason.value_is_fastest":       "%s: the fastest plan is also the best value, %s× the cheapest plan's cost for %s× its speed",
	"reason.value_is_faster":        "%s: the faster alternative is also the best value, %s× the cheapest plan's cost for %s× its speed",
	"reason.none":                   "%s: another plan is both cheaper and faster (%s)",
	"reason.tie":                    "%s: no faster than %s, which costs no more, by over %s%%",
	"reason.stale":                  "%s: its price, from %s, is older than the %s-day freshness window, and a fresher price for this GPU runs the job: not picked (verify the price to use it)",
	"reason.stale_estimated":        "%s: its price's date, %s, is an estimate, and a price dated within the freshness window for this GPU runs the job: not picked (verify the price to use it)",
	"reason.stale_elsewhere":        "%s: its price, from %s, is older than the %s-day freshness window, and plans on prices dated within the window run the job: not picked (verify the price to use it)",
	"reason.stale_est_elsewhere":    "%s: its price's date, %s, is an estimate, and plans on prices dated within the freshness window run the job: not picked (verify the price to use it)",
	"reason.stale_undated":          "%s: its price is undated, and a price dated within the freshness window for this GPU runs the job: not picked (verify the price to use it)",
	"reason.host_short":             "%s: its host is below what sizing guides give for this task (%s), and an offer of a host that meets it runs the job: not picked",
	"reason.far_below":              "%s: under half what the other providers ask for this GPU, and a normally priced offer of it runs the job: not picked (verify the price to use it)",
	"reason.spot_far_below":         "%s: its spot price is under %s%% of its own on-demand price, deeper than the clouds' documented discounts, and other plans run the job: not picked (verify the price to use it)",
	"reason.far_below_elsewhere":    "%s: under half what the other providers ask for this GPU, and plans on normally priced offers run the job: not picked (verify the price to use it)",
	"reason.to_verify":              "%s: its source quotes this price as a floor (\"starting at\") or leaves a condition of it open (a footnote, a column or a region it does not settle), and a confirmed price of this GPU runs the job: not picked (verify the price to use it)",
	"reason.to_verify_elsewhere":    "%s: its source quotes this price as a floor (\"starting at\") or leaves a condition of it open (a footnote, a column or a region it does not settle), and plans on confirmed prices run the job: not picked (verify the price to use it)",
	"note.wide_ep_network":          "the experts are not spread over the instances (wide expert parallelism): the provider names no RDMA network (InfiniBand, RoCE, EFA) or %s Gbit/s per GPU between them, which DeepEP's all-to-all and the multi-node guides run on (DeepEP's internode kernels need GPUDirect RDMA; Google's GPUDirect-TCPX/TCPXO carry NCCL only); the copy runs as pipeline stages instead",
	"note.nvlink_rack":              "each copy spans %s trays in one NVLink domain (a rack of %s trays, %s GPUs, joined by NVLink): the traffic between its trays runs over NVLink, not the network",
	"note.redundant_experts":        "EP %s does not divide the model's %s experts: the plan adds %s redundant expert copies, %s a GPU (SGLang --ep-num-redundant-experts, vLLM --enable-eplb --eplb-config num_redundant_experts, TensorRT-LLM's MoE load balancer num_slots), as NVIDIA Dynamo's GB200 DeepSeek-R1 recipe runs EP 48 with 32",
	"note.rental_unit":              "the provider rents these instances only in whole orders of %s (%s GPUs): the plan uses %s of the %s instances it pays for, the rest idle",
	"note.rental_unit_copies":       "the provider rents these instances only in whole orders of %s (%s GPUs): the plan uses %s of the %s instances it pays for; copies of this layout the idle ones hold at no extra cost (headroom past the target): %s",
	"note.network_assumed":          "inter-node network unknown: %s Gbit/s assumed",
	"note.accounts_local":           "the provider opens accounts only to legal entities registered in %s, its home country: renting it needs one",
	"note.spot_default_rate":        "spot interruption rate unknown: %s%% of instances per month assumed",
	"note.reserved_commitment":      "a reservation bills every hour of its term: %s over %s years (%s), cheaper than on-demand only above %s%% use",
	"note.reserved_term":            "a reservation bills every hour of its term: %s over %s years (%s)",
	"note.vat_excluded":             "prices normalised to exclude %s%% VAT",
	"note.no_fx":                    "no exchange rate for %s: %s offers priced in it are left out of the plan",
	"note.vat_included":             "prices include %s%% VAT",
	"note.weights_substituted":      "%s weights have no kernel in this engine on %s GPUs: planned with %s weights",
	"note.fp16_for_bf16":            "%s does not run on %s GPUs: runs %s instead, same memory",
	"note.quant_refused_model":      "vLLM does not run %s %s models on %s GPUs: its kernels for them take fp16 or bf16 activations, and it refuses fp16 for the model (numerical instability) where the GPU has no bf16; planned at %s weights from the unquantised checkpoint, its KV cache in %s (SGLang runs the quantised model in fp16 from Turing on; an Ampere or newer GPU runs it on vLLM)",
	"note.fp16_refused_model":       "vLLM refuses fp16 for %s models (numerical instability): on %s GPUs it runs %s weights, its KV cache in %s",
	"note.rental_no_offload":        "planned without your CPU offload (%s): a rented fleet holds the job on its GPUs, faster",
	"note.rental_layout_ckpt":       "planned with activation checkpointing: a rented fleet takes the memory layout (ZeRO stage, checkpointing) that costs least, not your own GPUs' settings",
	"note.rental_layout_no_ckpt":    "planned without activation checkpointing: a rented fleet takes the memory layout (ZeRO stage, checkpointing) that costs least, not your own GPUs' settings",
	"note.stack_dp":                 "data-parallel (TP 1 × PP 1) at ZeRO-%s: FSDP or DeepSpeed runs it, and --emit fsdp or deepspeed writes its launch",
	"note.stack_dp_ft":              "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on FSDP or DeepSpeed (--emit fsdp or deepspeed writes its launch), with no checkpoint conversion for a tensor-parallel stack",
	"note.stack_dp_zero1":           "data-parallel (TP 1 × PP 1) at ZeRO-%s: DeepSpeed runs it, FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory), and --emit fsdp or deepspeed writes its launch",
	"note.stack_dp_ft_zero1":        "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on DeepSpeed, or on FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory); --emit fsdp or deepspeed writes its launch, with no checkpoint conversion for a tensor-parallel stack",
	"note.stack_litgpt":             "LitGPT's layout on %s GPU(s) at ZeRO-%s, as its fine-tune scripts run one (as the job is) or more (FSDP full shard, every Block recomputed, nothing offloaded): --emit litgpt writes its launch",
	"note.stack_megatron":           "TP %s × PP %s at ZeRO-%s: Megatron-LM or NeMo runs this split (their distributed optimizer is ZeRO-1); --emit fsdp and deepspeed write data-parallel launches only",
	"note.stack_megatron_ft":        "TP %s × PP %s at ZeRO-%s, as no data-parallel layout fits these GPUs: Megatron-LM or NeMo runs this split after converting the checkpoint (their distributed optimizer is ZeRO-1); --emit fsdp and deepspeed write data-parallel launches only",
	"note.stack_torchtitan":         "TP %s × PP %s at ZeRO-%s: torchtitan runs this split (FSDP2 with --parallelism.tensor_parallel_degree and pipeline_parallel_degree); --emit fsdp and deepspeed write data-parallel launches only",
	"note.stack_none":               "TP %s × PP %s at ZeRO-%s runs on no training stack: Megatron-LM shards optimizer states only (ZeRO-1), torchtitan pre-trains Llama 3, Qwen3 and DeepSeek-V3 only, and a QLoRA base shards data-parallel only; plan with --zero 1 or without --tp",
	"note.scale_out":                "scaled out from %s to %s instances: %s× as fast as the fewest that hold the job, for %s× the cost (each doubling must buy 1.5× the speed, CSC's scaling rule)",
	"note.scale_out_deadline":       "scaled out from %s to %s instances: %s× as fast as the fewest that meet the deadline, for %s× the cost (each doubling must buy 1.5× the speed, CSC's scaling rule)",
	"note.scale_stop_slow":          "scaling out stops here: doubling to %s instances would speed the job %s× for %s× the cost, under the 1.5× a doubling must buy",
	"note.scale_stop_comm":          "scaling out stops here: doubling to %s instances would speed the job %s× for %s× the cost, under the 1.5× a doubling must buy, as communication compute does not hide takes more of each step",
	"note.batch_wider":              "the global batch of %s sequences holds at most %s data-parallel replicas at this layout (each steps a micro-batch or more, as many as its pipeline stages under the default batch), so this fleet runs fewer, wider replicas: %s of %s GPUs each (TP %s × PP %s × CP %s), as published runs scale past their batch (Llama 3 405B: TP 8 × CP × PP 16, Llama 3 paper §3.3.2); the time counts each split's cost: TP's all-reduces, PP's pipeline bubble, CP's ring of keys and values",
	"note.scale_stop_batch":         "scaling out stops here: more data-parallel replicas would step more than the job's global batch of %s tokens (--global-batch-tokens sets it)",
	"note.scale_stop_batch_ft":      "scaling out stops here: more data-parallel replicas would step more than %s sequences (%s tokens), a fine-tune's usual global batch (Stanford Alpaca, alpaca-lora); a larger one is another training recipe (--global-batch-tokens sets it)",
	"note.ft_batch_large":           "%s sequences a step, above a fine-tune's usual global batch of 128 (Stanford Alpaca, alpaca-lora): its %s data-parallel replicas step one micro-batch each, so the training recipe (batch, and the learning rate tuned for it) differs from the usual one (fewer instances keep the usual batch, and take longer)",
	"note.scale_stop_limit":         "scaling out stops here: doubling again would pass the instance limit, %s (--max-instances)",
	"note.scale_stop_layout":        "scaling out stops here: on %s instances no layout runs on a training stack",
	"note.mem_share":                "SGLang's default --mem-fraction-static leaves no KV cache at attention DP %s; the plan sets %s, as the SGLang DeepSeek-R1 multi-node recipes do (InferenceX, H100)",
	"note.no_spare":                 "one replica at %s%% load serves the whole rate: no spare if it fails (add one for N+1)",
	"note.past_limit_cheaper":       "cheaper past the instance limit, %s (--max-instances): %s would carry the rate at about %s, %s× the cheapest pick's bill; --max-instances %s plans it",
	"note.past_limit_only":          "past the instance limit, %s (--max-instances): %s would carry the rate at about %s; --max-instances %s plans it",
	"note.ttft_binds":               "the TTFT target sets the replica count: one prompt alone takes %s s to its first token, %s%% of the %s s target, so each replica runs at %s%% load; a longer target serves more on each",
	"note.ttft_default_relax":       "the TTFT target is the default, %s s for %s-token prompts (2 s, or 0.2 s per 1,000 prompt tokens where longer, after MLPerf Inference's server limits), and it sets the cheapest pick's replica count: %s at %s; at a TTFT of %s s — %s× one prompt's prefill there — the cheapest is %s at %s. Set the TTFT your users accept",
	"note.tpot_binds":               "the TPOT target sets the replica count: one sequence alone decodes at %s s per token, %s%% of the %s s target, so each replica runs at %s%% load; a longer target serves more on each",
	"note.serving_engine":           "serving assumes continuous batching (vLLM)",
	"note.past_card_context":        "a request of %s tokens is past the %s-token context the model card gives: the engines serve it (the config declares %s positions, vLLM's default --max-model-len), but the card claims no quality past its context; plan requests within it, or test the model at this length",
	"note.bf16_states_zero":         "bf16 optimizer states are a distributed optimizer's: the plan searches ZeRO 1 to 3 only (a ZeRO stage given is kept)",
	"note.batch_engine":             "batch inference planned on vLLM (continuous batching, offline LLM.generate), the engine the launch runs",
	"note.batch_engine_encoder":     "the model generates no tokens (an encoder or a fixed-input model): its batch is planned on HF transformers",
	"note.batch_hf_gpu":             "planned on HF transformers: vLLM does not run on %s GPUs",
	"note.batch_hf_quant_model":     "planned on HF transformers: vLLM does not run %s %s models on %s GPUs (its kernels take fp16 or bf16 activations, and it refuses fp16 for the model)",
	"note.batch_hf_weights":         "planned on HF transformers: vLLM has no %s kernel on %s GPUs",
	"note.own_no_region":            "region not given in your sheet: kept, the region filter not checked",
	"note.own_no_vcpus":             "vCPUs not given in your sheet: kept, the vCPU floor not checked",
	"note.own_no_ram":               "RAM not given in your sheet: kept, the RAM floor not checked",
	"note.own_no_country":           "your provider's country is not known: kept, the country filter not checked",
	"hosted.cheaper_than_api":       "self-hosting on %s beats %s above %s requests/s",
	"hosted.cheaper_than_api_above": "self-hosting on %s beats %s from %s requests/s while one replica carries the rate (to %s requests/s), and at every rate above %s; between them, a rate that needs one replica more can cost more than the API's tokens",
	"hosted.never":                  "%s stays cheaper than self-hosting at any rate one replica sustains",
	"disagg.sides_win":              "it pays on %s: prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), %s, %s%% less than the aggregated plan at the targets (an estimate)%s",
	"disagg.rack_span":              "; its workers span trays of one NVLink domain (%s a prefill worker, %s a decode worker; a rack of %s trays, %s GPUs, joined by NVLink): the traffic between a worker's trays runs over NVLink, not the network",
	"disagg.sides_lose":             "it would not pay: the cheapest, on %s, prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), costs %s, %s× the aggregated plan%s",
	"disagg.bound_ttft":             "as many as the TTFT target needs",
	"disagg.bound_tpot":             "as many as the TPOT target needs",
	"disagg.bound_rate":             "as many as the request rate needs under the load cap",
	"disagg.bound_rate_kv":          "as many as the request rate needs under the load cap, each decoding at most %s requests at once, as many as its KV cache holds",
	"disagg.bound_rate_seqs":        "as many as the request rate needs under the load cap, each decoding at most %s requests at once, the engine's running-sequence limit (%s)",
	"disagg.bound_one":              "one is enough",
	"disagg.bound_spare":            "%s; %s of them a spare for a spot reclaim",
	"hosted.no_fit":                 "no self-hosted plan fits the job to compare with %s",
	"hosted.batch_api":              "hosted API %s at %s/%s USD per 1M input/output tokens, list price as of %s, runs the batch for %s, less than the cheapest self-hosted plan, %s at %s",
	"hosted.batch_self":             "hosted API %s, the cheapest for the model at %s/%s USD per 1M input/output tokens, list price as of %s, runs the batch for %s, more than the cheapest self-hosted plan, %s at %s",
	"hosted.day_rent_cheaper":       "over the day's load curve the cheapest rented fleet, on %s, costs less than %s",
	"hosted.day_api_cheaper":        "over the day's load curve %s costs less than the cheapest rented fleet, on %s",
}

// String renders r in English.
func (r Reason) String() string {
	f, ok := English[r.Key]
	if !ok {
		return r.Key
	}
	args := make([]any, len(r.Args))
	for i, a := range r.Args {
		switch v := a.(type) {
		case float64:
			args[i] = displayNumber(v)
		case int:
			args[i] = GroupInt(v)
		case fmt.Stringer:
			args[i] = v.String()
		default:
			args[i] = v
		}
	}
	return fmt.Sprintf(f, args...)
}

// GroupInt writes n with its thousands grouped by commas, as English
// writes a count (CLDR "en": #,##0): 16,384.
func GroupInt(n int) string { return groupDigits(strconv.Itoa(n)) }

// GroupFixed writes v with prec decimals and its thousands grouped by
// commas, as English writes an amount: 124,155 or 66,868.00.
func GroupFixed(v float64, prec int) string {
	return groupDigits(strconv.FormatFloat(v, 'f', prec, 64))
}

// displayNumber is formatNumber with the thousands of its whole part
// grouped, for a sentence a reader reads (106,288 USD/month); an input
// echoed back in an error keeps formatNumber's plain digits.
func displayNumber(v float64) string { return groupDigits(formatNumber(v)) }

// groupDigits puts a comma between each three digits of the leading run
// of digits in s (after a minus sign): "106288.5" is "106,288.5"; the
// exponent form ("1.5e+20") has one leading digit and stays as it is.
func groupDigits(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := 0; i < n; i++ {
		if i > 0 && (n-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	b.WriteString(s[n:])
	return b.String()
}

// formatNumber writes v with three significant digits (two decimals at
// most for numbers ≥ 1; whole numbers below 10¹⁵ in full), and from 10¹⁵
// up in the exponent form of %.3g ("1.5e+20"): no bill or rate is that
// large, an out-of-range input echoed back in an error can be, and a
// float64 near its limit written in full runs to 309 digits.
func formatNumber(v float64) string {
	switch {
	case v >= 1e15:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case v >= 10 && v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strings.TrimRight(strconv.FormatFloat(v, 'g', 3, 64), ".")
}

// HostCheck is the host's verdict and why.
type HostCheck struct {
	Status HostStatus
	Reason Reason
	// Short: the host is below the guides' floor for any GPU job, the
	// inference rule's 2 vCPUs and 8 GB of RAM per GPU (a training job's
	// rule asks more, and missing that is a warning only). The picks pass
	// such a row over where a row on a larger host runs the job (trust).
	Short bool
}

// Row is one offer's plan. Money fields ending in USD are converted at the
// request's FX table; fields without a currency suffix are in the offer's
// native Currency, and Display fields in Request.Currency.
type Row struct {
	Offer *Offer

	// Shape: instances rented, GPUs used, parallelism. For serving, a
	// replica is InstancesPerReplica instances running DP engine copies
	// of TP × PP GPUs each.
	Instances        int
	GPUs             float64 // Instances × GPUCount
	TP, PP, DP, ZeRO int
	// VirtualStages is a training row's pipeline schedule when PP > 1:
	// the model chunks per stage (estimator.Perf.VirtualStages; 1: plain
	// 1F1B), chosen with the ZeRO stage where Request.ZeROOpen; 0
	// without pipeline stages.
	VirtualStages int
	// CP is a training row's context-parallel degree, each sequence split
	// over CP GPUs of a replica (estimator.Input.CP: the user's --cp, or
	// the planner's past the global batch, wider); 0 or 1: none. DP is
	// then GPUs / (TP × PP × CP).
	CP int
	// AttnDP and EP are an inference row's layout inside each engine copy
	// of TP GPUs (estimator.Input.DP and EP; 0 or 1: none): attention data
	// parallelism over AttnDP ranks of TP/AttnDP GPUs each, and the routed
	// experts spread whole over EP GPUs (SGLang --dp-size
	// --enable-dp-attention --ep-size, vLLM --data-parallel-size
	// --enable-expert-parallel, TensorRT-LLM enable_attention_dp and
	// moe_expert_parallel_size). The copy is still TP × PP GPUs; DP above
	// stays the engine copies per replica.
	AttnDP, EP int
	// RedundantExperts is the extra copies of routed experts over the EP
	// ranks of each copy (estimator.Input.RedundantExperts): the
	// request's, or the fewest the planner gave a rack-wide copy whose EP
	// does not divide the experts (the row notes it,
	// note.redundant_experts); 0: none.
	RedundantExperts int
	// MemShare is the engine's memory share the planner set on the row's
	// copies where the engine's default leaves them no KV pool
	// (estimator.EngineShareFix: SGLang's --mem-fraction-static at
	// data-parallel attention; the row notes it, note.mem_share, and the
	// launch writes it); 0 where the copies run at the request's
	// --gpu-mem-util or the engine's default.
	MemShare float64
	// GradCheckpointing and Offload are a training row's memory layout:
	// the user's settings, or the rental layout the planner chose
	// (rentalRow's notes say so).
	GradCheckpointing   bool
	Offload             estimator.Offload
	Replicas            int
	InstancesPerReplica int
	// ScaledFrom is, on a training or batch row that rents more
	// instances than the fewest that hold the job (a scaled-out fleet,
	// for speed: scaleOut), that fewest count, its offer's other row; 0
	// on every other row.
	ScaledFrom int

	Fits        bool
	FitReason   Reason
	HeadroomGiB float64 // per GPU

	// Engine is the engine the row is planned on: the request's, or vLLM
	// for serving at a rate (note.serving_engine) and for a decoder's batch
	// job with no engine given (Request.EngineOpen, note.batch_engine).
	Engine estimator.Engine
	// Weights is the weight format the row runs: the request's, or what
	// runs on the GPU (estimator.SupportFor: fp16 where there is no bf16,
	// 16-bit where the format has no kernel; the row's notes say so).
	Weights estimator.DType
	// KV is the KV cache's dtype the row runs (serving and batch rows):
	// the request's, or fp32 where its weights run in fp32 for a
	// 16-bit job (a model vLLM refuses in fp16: planner.sub).
	KV estimator.DType

	Pricing          Pricing
	PricePerHour     float64 // native, per instance, after VAT normalisation
	PricePerHourUSD  float64
	PricePerHourDisp float64
	FXAsOf           string // date of the rate that converted the offer's currency ("" for USD)

	// ReservedCommitmentUSD is a reservation's whole term at its price:
	// ReservedMonthlyCommitmentUSD × 12 × ReservedTermYears.
	ReservedCommitmentUSD float64

	// Training and batch jobs. BilledHours is what each instance is
	// billed for JobSeconds on the row's price model (BilledHours):
	// JobCost = Instances × PricePerHour × BilledHours.
	// A training row's JobSeconds is the whole run: its steps over
	// Goodput (estimator.TrainGoodput of the GPUs the layout uses; the
	// interruptions, restarts and checkpoints a run of that size loses,
	// estimator.RunSeconds), plus the start-up; 0 for batch jobs.
	Goodput         float64
	JobSeconds      float64
	BilledHours     float64
	GPUHours        float64
	JobCost         float64 // native
	JobCostUSD      float64
	JobCostDisp     float64
	TokensPerSecond float64
	OptimizerSteps  float64
	// CommSeconds is the communication per optimizer step that compute
	// does not hide (tensor-parallel all-reduces, data-parallel and
	// ZeRO/FSDP collectives over NVLink, PCIe or the network, offload
	// traffic: estimator.Perf.CommSeconds); Bound is what limits the step.
	CommSeconds float64
	Bound       estimator.Bound

	// Serving.
	MonthlyCostUSD                 float64
	MonthlyCostDisp                float64
	SustainableRPSPerReplica       float64
	TTFTP50Seconds, TTFTP95Seconds float64
	TPOTSeconds                    float64
	// TTFTAtSLOSeconds and TPOTAtSLOSeconds are TTFT and TPOT at the
	// statistic the targets bound (Workload.SLOStat): the figures the
	// sizing held under the targets (TTFTP95Seconds and the mean
	// TPOTSeconds at the default p95 and the mean).
	TTFTAtSLOSeconds, TPOTAtSLOSeconds float64
	E2EP50Seconds, E2EP95Seconds       float64
	Utilisation                        float64
	Concurrency                        float64 // sequences in flight per engine copy at the target
	// Binding is what set the replica count when the engine simulator
	// sized the row (serve_sim.go): the p95 TTFT or TPOT that one copy
	// fewer misses, the utilisation cap (throughput), or none (one
	// copy); EngineLimit is what held requests back in the simulated
	// run at the target (kv-cache, token-budget, max-seqs, none).
	Binding     sim.Binding
	EngineLimit sim.Limit
	// Sim is the simulation of one engine copy the row was sized with
	// (simConfig: its model, scheduler, hardware and lengths; 150
	// requests from seed 1), nil when the engine simulator did not size
	// it. The rows of one copy shape share it; never write through it.
	// The page's latency chart runs it at other rates, so its points are
	// the simulator's own at the plan's setup.
	Sim *sim.Config

	// Inference jobs and serving.
	USDPerMillionInput, USDPerMillionOutput float64

	// OnDemandJobCostUSD is the job at the on-demand price (training and
	// batch), next to SpotExpectedCostUSD whatever the pricing.
	OnDemandJobCostUSD float64

	// Spot.
	SpotExpectedSeconds       float64
	SpotExpectedCostUSD       float64
	SpotInterruptionsPerMonth float64
	CheckpointIntervalSeconds float64

	// Reserved.
	ReservedBreakEvenUtilisation float64
	ReservedTermYears            int // the reservation the two fields above describe: 1 or 3
	ReservedMonthlyCommitmentUSD float64

	USDPerDenseTFLOPSHour float64
	TokensPerUSD          float64

	// HostOffloadGiB is the CPU-offloaded state one instance's host RAM
	// must hold (per-GPU offload × GPUs per instance; 0 without offload),
	// next to Offer.RAMGiB in the host check.
	HostOffloadGiB float64

	Host  HostCheck
	Notes []Reason
	// Unchecked names the filters the user's own row could not be
	// checked against, its sheet's column left empty (ColumnRegion,
	// ColumnVCPUs, ColumnRAM) or its provider's country unknown
	// (ColumnCountry): the row is kept, and a note says each.
	Unchecked      []string
	Recommendation Recommendation
	Why            Reason

	// Stale marks a price older than the freshness window, undated or
	// with an estimated date (Offer.PriceAgeDays, Offer.AsOfEstimated);
	// the row is planned and listed all the same. PassedOver says why the
	// picks pass a fitting row over (reason.stale or reason.far_below:
	// the same GPU has a fresher or a normally priced offer that runs the
	// job, passOver; reason.stale_estimated and reason.stale_undated when
	// the date is an estimate or missing); its Key is "" for a row the
	// picks may rest on.
	Stale      bool
	PassedOver Reason

	// RankedCostDisp and RankedSeconds are what the row is ranked by, in
	// Request.Currency and seconds: the job (training, batch) or the month
	// (serving; time is a request's p95 end-to-end latency), on spot the
	// expected values with reclaims (SpotExpectedCostUSD and
	// SpotExpectedSeconds). A page shows these next to the pick, so the
	// figure a user reads is the one that ranked it.
	RankedCostDisp, RankedSeconds float64

	cost, time   float64 // ranking keys (USD, seconds)
	prefillShare float64 // inference: prefill's share of GPU time
	// pastLimit is, on a serving row refused for the instance limit
	// (fit.too_big) because the target rate needs more replicas than it
	// allows, the fewest instances whose replicas carry the rate (the
	// closed-form sizing, a spot row's spare included); 0 otherwise.
	pastLimit int
	// idle is a fixed training layout's idle GPUs (idleGPUs); nil where
	// the layout uses every GPU rented.
	idle *idleFleet
	// wide is the note of a training fleet whose replicas take more GPUs
	// each than the fewest instances' because the global batch holds no
	// more replicas (wider); no Key otherwise.
	wide Reason
	// ladder is a training or batch tech row's larger fleets (climb,
	// batchLadder); scale is a priced row's scaled-out plan (scaleOut)
	// until the plan lists it.
	ladder *ladder
	scale  *scaling
}

// HostedComparison sets a hosted API against the best self-hosted row,
// or with OverLoadCurve (PlanFleet) against the cheapest rented fleet
// over the day's load curve.
type HostedComparison struct {
	API            HostedAPI
	MonthlyCostUSD float64 // the API at the target rate, or over the load curve
	SelfHostedUSD  float64 // the cheapest row's (or fleet's) monthly bill; 0 when none fits (Why: hosted.no_fit)
	BreakEvenRPS   float64 // rate above which self-hosting wins; 0: never within one replica, or over a load curve
	// AlwaysAboveRPS is the rate past which self-hosting wins at every
	// rate, the replicas added as the rate grows (breakEven): BreakEvenRPS
	// where a second replica already pays for itself, higher where the
	// replica a rate adds costs more than the API's tokens at that rate;
	// 0 where BreakEvenRPS is.
	AlwaysAboveRPS float64
	OverLoadCurve  bool
	Why            Reason
}

// Result is a ranked plan.
type Result struct {
	Rows []Row // fitting rows by cost, then time; unfit rows after (Options.KeepUnfit)

	// Indexes into Rows; -1 when none. Fastest is the faster alternative
	// beside the cheapest (AltCostBound, AltMinSpeedup): the quickest
	// front row within AltCostBound × the cheapest's cost, where it runs
	// at least AltMinSpeedup × as fast; the cheapest itself where it is
	// the quickest plan; -1 where no plan within the bound is that much
	// faster (WhyFastest then says what the quickest plan would buy).
	Cheapest, Fastest, Value int
	// Quickest is the plan of the shortest time, whatever its cost: the
	// cheapest front row within FastestTolerance of it (-1: none fits).
	Quickest int
	Pareto   []int
	// CheaperFlagged is the cheapest row the picks pass over for its
	// price (stale, or far below the median) that would cost less than
	// the cheapest pick: shown beside the answer as "cheaper if the price
	// holds — verify", never as the answer. -1: none.
	CheaperFlagged int
	// WhyCheapest, WhyFastest and WhyValue are each pick's sentence. A
	// pick that is the same row as another says so ("the cheapest is also
	// the best value") rather than repeating that row's Why.
	WhyCheapest, WhyFastest, WhyValue Reason

	Considered, Fitting int
	// OverBudget and PastDeadline count the plans that run the job but
	// were cut by the budget or the deadline filter: where nothing fits,
	// they say whether a filter is the cause rather than the job.
	OverBudget, PastDeadline int
	// AssumedDeadline is set where a pre-training job gave no deadline
	// and the plan held the assumed run length
	// (DefaultPretrainDeadlineSeconds): what it changed.
	AssumedDeadline *AssumedDeadline
	// FreshnessDays is the freshness window the picks were chosen with.
	FreshnessDays int

	CheckpointBytes float64 // training: trainable weights (a LoRA's adapters) + optimizer states
	Currency        string
	FXAsOf          string
	Hosted          []HostedComparison
	Notes           []Reason
	// Disagg is the cheapest disaggregated prefill/decode deployment of a
	// serving plan and whether it beats the aggregated one (disagg.go);
	// nil when none applies.
	Disagg *DisaggPlan
	// Unfit are, where no row fits, a row for each offer the filters
	// left, in offer order, with its Offer, Engine and FitReason only,
	// whether or not Options.KeepUnfit keeps the rows in Rows: why an
	// empty plan is empty (one reason for every offer, app/page's
	// FindNoneCause) without planning the request again. nil where a
	// row fits.
	Unfit []Row
}

// MarshalText keeps a typed argument a string in JSON, as it was before
// arguments were typed: the CLI's JSON reasons keep their shape.
func (m Money) MarshalText() ([]byte, error)    { return []byte(m.String()), nil }
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
func (o OfferRef) MarshalText() ([]byte, error) { return []byte(o.String()), nil }
