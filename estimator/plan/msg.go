package plan

import "fmt"

// Msg names one of the planner's sentences: a Reason's key. The page
// translates a sentence by its Msg (app/page/planmsg.go), English renders
// it for the command line; each language is a [NMsgs]string table, so a
// sentence without a text in some language is an empty entry a test sees.
type Msg int

// The sentences, in the order of their English texts below. NoMsg is
// the zero Reason's key: no sentence.
const (
	NoMsg Msg = iota
	MsgFitOK
	MsgFitNoHardware
	MsgFitBatchShort
	MsgFitNoPrice
	MsgFitNoFX
	MsgFitFractionTraining
	MsgFitTooBig
	MsgFitInsideMargin
	MsgNoteInsideMargin
	MsgNoteIdleGPUs
	MsgNoteIdleGPUsAll
	MsgFitLayoutOOM
	MsgFitEngineGPU
	MsgFitEngineRelease
	MsgFitLayoutRefused
	MsgFitBatchShortLitGPT
	MsgFitLitGPTQLoRA
	MsgFitLitGPTLayout
	MsgFitNoFabric
	MsgFitSpanNode
	MsgFitNoFabricOwn
	MsgFitOverBudget
	MsgFitPastDeadline
	MsgFitOwnMoreGPUs
	MsgFitOwnGPUs
	MsgFitOwnGPUsOrWeights
	MsgFitOwnWeights
	MsgHostOK
	MsgHostUnknown
	MsgHostFewVCPUs
	MsgHostLittleRAM
	MsgHostOffloadUnlisted
	MsgHostOffloadRAM
	MsgSLOTTFTPrefill
	MsgSLOTPOTBandwidth
	MsgSLOTPOTCompute
	MsgSLOTPOTHost
	MsgSLOTPOTCommunication
	MsgSLOKVPool
	MsgNoneLatency
	MsgNoneLatency2
	MsgNoneTTFTFloor
	MsgNoneTPOTFloor
	MsgSpotServing
	MsgReasonCheapest
	MsgReasonCheapestAlone
	MsgReasonCheapestFlagged
	MsgReasonCheapestOnly
	MsgReasonCheapestOwnTie
	MsgReasonCheapestTwin
	MsgReasonCheapestTie
	MsgReasonCostTie
	MsgReasonFastest
	MsgReasonFastestTie
	MsgReasonFastestCheapestTie
	MsgReasonNoAlternative
	MsgReasonPastBound
	MsgReasonFastestPassed
	MsgReasonValue
	MsgReasonPareto
	MsgReasonFastestIsCheapest
	MsgReasonValueIsCheapest
	MsgReasonValueIsFastest
	MsgReasonValueIsFaster
	MsgReasonNone
	MsgReasonTie
	MsgReasonStale
	MsgReasonStaleEstimated
	MsgReasonStaleElsewhere
	MsgReasonStaleEstElsewhere
	MsgReasonStaleUndated
	MsgReasonHostShort
	MsgReasonFarBelow
	MsgReasonSpotFarBelow
	MsgReasonFarBelowElsewhere
	MsgReasonToVerify
	MsgReasonToVerifyElsewhere
	MsgNoteWideEPNetwork
	MsgNoteNVLinkRack
	MsgNoteRedundantExperts
	MsgNoteRentalUnit
	MsgNoteRentalUnitCopies
	MsgNoteNetworkAssumed
	MsgNoteAccountsLocal
	MsgNoteSpotDefaultRate
	MsgNoteReservedCommitment
	MsgNoteReservedTerm
	MsgNoteVATExcluded
	MsgNoteNoFX
	MsgNoteVATIncluded
	MsgNoteWeightsSubstituted
	MsgNoteFP16ForBF16
	MsgNoteQuantRefusedModel
	MsgNoteFP16RefusedModel
	MsgNoteRentalNoOffload
	MsgNoteRentalLayoutCkpt
	MsgNoteRentalLayoutNoCkpt
	MsgNoteStackDP
	MsgNoteStackDPFT
	MsgNoteStackDPZero1
	MsgNoteStackDPFTZero1
	MsgNoteStackLitGPT
	MsgNoteStackMegatron
	MsgNoteStackMegatronFT
	MsgNoteStackTorchtitan
	MsgNoteStackNone
	MsgNoteScaleOut
	MsgNoteScaleOutDeadline
	MsgNoteScaleStopSlow
	MsgNoteScaleStopComm
	MsgNoteBatchWider
	MsgNoteScaleStopBatch
	MsgNoteScaleStopBatchFT
	MsgNoteFTBatchLarge
	MsgNoteScaleStopLimit
	MsgNoteScaleStopLayout
	MsgNoteMemShare
	MsgNoteNoSpare
	MsgNotePastLimitCheaper
	MsgNotePastLimitOnly
	MsgNoteTTFTBinds
	MsgNoteTTFTDefaultRelax
	MsgNoteTPOTBinds
	MsgNoteServingEngine
	MsgNotePastCardContext
	MsgNoteBF16StatesZero
	MsgNoteBatchEngine
	MsgNoteBatchEngineEncoder
	MsgNoteBatchHFGPU
	MsgNoteBatchHFQuantModel
	MsgNoteBatchHFWeights
	MsgNoteOwnNoRegion
	MsgNoteOwnNoVCPUs
	MsgNoteOwnNoRAM
	MsgNoteOwnNoCountry
	MsgHostedCheaperThanAPI
	MsgHostedCheaperThanAPIAbove
	MsgHostedNever
	MsgDisaggSidesWin
	MsgDisaggRackSpan
	MsgDisaggSidesLose
	MsgDisaggPastLimit
	MsgDisaggBoundTTFT
	MsgDisaggBoundTPOT
	MsgDisaggBoundRate
	MsgDisaggBoundRateKV
	MsgDisaggBoundRateSeqs
	MsgDisaggBoundOne
	MsgDisaggBoundSpare
	MsgHostedNoFit
	MsgHostedBatchAPI
	MsgHostedBatchSelf
	MsgHostedDayRentCheaper
	MsgHostedDayAPICheaper
	NMsgs
)

// msgNames are the keys' names, which the CLI's JSON writes (why_key,
// none_reasons' key, a nested reason's Key): a public contract, so a
// name never changes with the constant's.
var msgNames = [NMsgs]string{
	MsgFitOK:                     "fit.ok",
	MsgFitNoHardware:             "fit.no_hardware",
	MsgFitBatchShort:             "fit.batch_short",
	MsgFitNoPrice:                "fit.no_price",
	MsgFitNoFX:                   "fit.no_fx",
	MsgFitFractionTraining:       "fit.fraction_training",
	MsgFitTooBig:                 "fit.too_big",
	MsgFitInsideMargin:           "fit.inside_margin",
	MsgNoteInsideMargin:          "note.inside_margin",
	MsgNoteIdleGPUs:              "note.idle_gpus",
	MsgNoteIdleGPUsAll:           "note.idle_gpus_all",
	MsgFitLayoutOOM:              "fit.layout_oom",
	MsgFitEngineGPU:              "fit.engine_gpu",
	MsgFitEngineRelease:          "fit.engine_release",
	MsgFitLayoutRefused:          "fit.layout_refused",
	MsgFitBatchShortLitGPT:       "fit.batch_short_litgpt",
	MsgFitLitGPTQLoRA:            "fit.litgpt_qlora",
	MsgFitLitGPTLayout:           "fit.litgpt_layout",
	MsgFitNoFabric:               "fit.no_fabric",
	MsgFitSpanNode:               "fit.span_node",
	MsgFitNoFabricOwn:            "fit.no_fabric_own",
	MsgFitOverBudget:             "fit.over_budget",
	MsgFitPastDeadline:           "fit.past_deadline",
	MsgFitOwnMoreGPUs:            "fit.own_more_gpus",
	MsgFitOwnGPUs:                "fit.own_gpus",
	MsgFitOwnGPUsOrWeights:       "fit.own_gpus_or_weights",
	MsgFitOwnWeights:             "fit.own_weights",
	MsgHostOK:                    "host.ok",
	MsgHostUnknown:               "host.unknown",
	MsgHostFewVCPUs:              "host.few_vcpus",
	MsgHostLittleRAM:             "host.little_ram",
	MsgHostOffloadUnlisted:       "host.offload_unlisted",
	MsgHostOffloadRAM:            "host.offload_ram",
	MsgSLOTTFTPrefill:            "slo.ttft_prefill",
	MsgSLOTPOTBandwidth:          "slo.tpot_bandwidth",
	MsgSLOTPOTCompute:            "slo.tpot_compute",
	MsgSLOTPOTHost:               "slo.tpot_host",
	MsgSLOTPOTCommunication:      "slo.tpot_communication",
	MsgSLOKVPool:                 "slo.kv_pool",
	MsgNoneLatency:               "none.latency",
	MsgNoneLatency2:              "none.latency2",
	MsgNoneTTFTFloor:             "none.ttft_floor",
	MsgNoneTPOTFloor:             "none.tpot_floor",
	MsgSpotServing:               "spot.serving",
	MsgReasonCheapest:            "reason.cheapest",
	MsgReasonCheapestAlone:       "reason.cheapest_alone",
	MsgReasonCheapestFlagged:     "reason.cheapest_flagged",
	MsgReasonCheapestOnly:        "reason.cheapest_only",
	MsgReasonCheapestOwnTie:      "reason.cheapest_own_tie",
	MsgReasonCheapestTwin:        "reason.cheapest_twin",
	MsgReasonCheapestTie:         "reason.cheapest_tie",
	MsgReasonCostTie:             "reason.cost_tie",
	MsgReasonFastest:             "reason.fastest",
	MsgReasonFastestTie:          "reason.fastest_tie",
	MsgReasonFastestCheapestTie:  "reason.fastest_cheapest_tie",
	MsgReasonNoAlternative:       "reason.no_alternative",
	MsgReasonPastBound:           "reason.past_bound",
	MsgReasonFastestPassed:       "reason.fastest_passed",
	MsgReasonValue:               "reason.value",
	MsgReasonPareto:              "reason.pareto",
	MsgReasonFastestIsCheapest:   "reason.fastest_is_cheapest",
	MsgReasonValueIsCheapest:     "reason.value_is_cheapest",
	MsgReasonValueIsFastest:      "reason.value_is_fastest",
	MsgReasonValueIsFaster:       "reason.value_is_faster",
	MsgReasonNone:                "reason.none",
	MsgReasonTie:                 "reason.tie",
	MsgReasonStale:               "reason.stale",
	MsgReasonStaleEstimated:      "reason.stale_estimated",
	MsgReasonStaleElsewhere:      "reason.stale_elsewhere",
	MsgReasonStaleEstElsewhere:   "reason.stale_est_elsewhere",
	MsgReasonStaleUndated:        "reason.stale_undated",
	MsgReasonHostShort:           "reason.host_short",
	MsgReasonFarBelow:            "reason.far_below",
	MsgReasonSpotFarBelow:        "reason.spot_far_below",
	MsgReasonFarBelowElsewhere:   "reason.far_below_elsewhere",
	MsgReasonToVerify:            "reason.to_verify",
	MsgReasonToVerifyElsewhere:   "reason.to_verify_elsewhere",
	MsgNoteWideEPNetwork:         "note.wide_ep_network",
	MsgNoteNVLinkRack:            "note.nvlink_rack",
	MsgNoteRedundantExperts:      "note.redundant_experts",
	MsgNoteRentalUnit:            "note.rental_unit",
	MsgNoteRentalUnitCopies:      "note.rental_unit_copies",
	MsgNoteNetworkAssumed:        "note.network_assumed",
	MsgNoteAccountsLocal:         "note.accounts_local",
	MsgNoteSpotDefaultRate:       "note.spot_default_rate",
	MsgNoteReservedCommitment:    "note.reserved_commitment",
	MsgNoteReservedTerm:          "note.reserved_term",
	MsgNoteVATExcluded:           "note.vat_excluded",
	MsgNoteNoFX:                  "note.no_fx",
	MsgNoteVATIncluded:           "note.vat_included",
	MsgNoteWeightsSubstituted:    "note.weights_substituted",
	MsgNoteFP16ForBF16:           "note.fp16_for_bf16",
	MsgNoteQuantRefusedModel:     "note.quant_refused_model",
	MsgNoteFP16RefusedModel:      "note.fp16_refused_model",
	MsgNoteRentalNoOffload:       "note.rental_no_offload",
	MsgNoteRentalLayoutCkpt:      "note.rental_layout_ckpt",
	MsgNoteRentalLayoutNoCkpt:    "note.rental_layout_no_ckpt",
	MsgNoteStackDP:               "note.stack_dp",
	MsgNoteStackDPFT:             "note.stack_dp_ft",
	MsgNoteStackDPZero1:          "note.stack_dp_zero1",
	MsgNoteStackDPFTZero1:        "note.stack_dp_ft_zero1",
	MsgNoteStackLitGPT:           "note.stack_litgpt",
	MsgNoteStackMegatron:         "note.stack_megatron",
	MsgNoteStackMegatronFT:       "note.stack_megatron_ft",
	MsgNoteStackTorchtitan:       "note.stack_torchtitan",
	MsgNoteStackNone:             "note.stack_none",
	MsgNoteScaleOut:              "note.scale_out",
	MsgNoteScaleOutDeadline:      "note.scale_out_deadline",
	MsgNoteScaleStopSlow:         "note.scale_stop_slow",
	MsgNoteScaleStopComm:         "note.scale_stop_comm",
	MsgNoteBatchWider:            "note.batch_wider",
	MsgNoteScaleStopBatch:        "note.scale_stop_batch",
	MsgNoteScaleStopBatchFT:      "note.scale_stop_batch_ft",
	MsgNoteFTBatchLarge:          "note.ft_batch_large",
	MsgNoteScaleStopLimit:        "note.scale_stop_limit",
	MsgNoteScaleStopLayout:       "note.scale_stop_layout",
	MsgNoteMemShare:              "note.mem_share",
	MsgNoteNoSpare:               "note.no_spare",
	MsgNotePastLimitCheaper:      "note.past_limit_cheaper",
	MsgNotePastLimitOnly:         "note.past_limit_only",
	MsgNoteTTFTBinds:             "note.ttft_binds",
	MsgNoteTTFTDefaultRelax:      "note.ttft_default_relax",
	MsgNoteTPOTBinds:             "note.tpot_binds",
	MsgNoteServingEngine:         "note.serving_engine",
	MsgNotePastCardContext:       "note.past_card_context",
	MsgNoteBF16StatesZero:        "note.bf16_states_zero",
	MsgNoteBatchEngine:           "note.batch_engine",
	MsgNoteBatchEngineEncoder:    "note.batch_engine_encoder",
	MsgNoteBatchHFGPU:            "note.batch_hf_gpu",
	MsgNoteBatchHFQuantModel:     "note.batch_hf_quant_model",
	MsgNoteBatchHFWeights:        "note.batch_hf_weights",
	MsgNoteOwnNoRegion:           "note.own_no_region",
	MsgNoteOwnNoVCPUs:            "note.own_no_vcpus",
	MsgNoteOwnNoRAM:              "note.own_no_ram",
	MsgNoteOwnNoCountry:          "note.own_no_country",
	MsgHostedCheaperThanAPI:      "hosted.cheaper_than_api",
	MsgHostedCheaperThanAPIAbove: "hosted.cheaper_than_api_above",
	MsgHostedNever:               "hosted.never",
	MsgDisaggSidesWin:            "disagg.sides_win",
	MsgDisaggRackSpan:            "disagg.rack_span",
	MsgDisaggSidesLose:           "disagg.sides_lose",
	MsgDisaggPastLimit:           "disagg.past_limit",
	MsgDisaggBoundTTFT:           "disagg.bound_ttft",
	MsgDisaggBoundTPOT:           "disagg.bound_tpot",
	MsgDisaggBoundRate:           "disagg.bound_rate",
	MsgDisaggBoundRateKV:         "disagg.bound_rate_kv",
	MsgDisaggBoundRateSeqs:       "disagg.bound_rate_seqs",
	MsgDisaggBoundOne:            "disagg.bound_one",
	MsgDisaggBoundSpare:          "disagg.bound_spare",
	MsgHostedNoFit:               "hosted.no_fit",
	MsgHostedBatchAPI:            "hosted.batch_api",
	MsgHostedBatchSelf:           "hosted.batch_self",
	MsgHostedDayRentCheaper:      "hosted.day_rent_cheaper",
	MsgHostedDayAPICheaper:       "hosted.day_api_cheaper",
}

// String is m's name ("reason.past_bound"); "" for NoMsg.
func (m Msg) String() string {
	if m >= 0 && m < NMsgs {
		return msgNames[m]
	}
	return fmt.Sprintf("Msg(%d)", int(m))
}

// MarshalText writes m as its name, so a Reason in JSON keeps the key
// string it had before keys were typed.
func (m Msg) MarshalText() ([]byte, error) {
	if m < 0 || m >= NMsgs {
		return nil, fmt.Errorf("plan: no message %d", int(m))
	}
	return []byte(msgNames[m]), nil
}

// UnmarshalText reads a name MarshalText wrote.
func (m *Msg) UnmarshalText(b []byte) error {
	s := string(b)
	for i, n := range msgNames {
		if n == s {
			*m = Msg(i)
			return nil
		}
	}
	return fmt.Errorf("plan: unknown message %q", s)
}

// English is each sentence's English text. A translation gives each Msg
// its text with the same arguments in the same order (%[n]s may reorder
// them).
var English = [NMsgs]string{
	MsgFitOK:                     "fits with %s GiB headroom per GPU",
	MsgFitNoHardware:             "the catalog lacks this GPU's speed figures",
	MsgFitBatchShort:             "%s data-parallel replicas need more sequences a step than the global batch's %s, a layout Megatron-LM, torchtitan and FSDP stacks refuse: at most %s replicas (fewer GPUs, larger TP or PP, context parallelism) or a larger global batch",
	MsgFitNoPrice:                "no %s price",
	MsgFitNoFX:                   "no exchange rate for %s",
	MsgFitFractionTraining:       "a GPU slice is for inference only",
	MsgFitTooBig:                 "needs more than %s instances",
	MsgFitInsideMargin:           "fits with %s GiB free per GPU at best — inside the memory estimate's error (%s%% of the GPU's memory): a plan would risk running out of memory",
	MsgNoteInsideMargin:          "the layout given fits with %s GiB free per GPU — inside the memory estimate's error (%s%% of the GPU's memory): a fragmentation spike may run it out of memory",
	MsgNoteIdleGPUs:              "the layout given runs on %s of the %s GPUs rented; %s idle, paid",
	MsgNoteIdleGPUsAll:           "the layout given runs on %s of the %s GPUs rented; %s idle, paid: the same job at DP %s on all of them takes %s for %s",
	MsgFitLayoutOOM:              "%s GiB per GPU short at the layout given (%s GPUs, TP %s, PP %s, ZeRO %s): set a higher --zero or --grad-checkpointing, or leave --gpus, --tp and --pp out to let the plan choose",
	MsgFitEngineGPU:              "%s does not run on %s GPUs",
	MsgFitEngineRelease:          "%s %s does not run on %s GPUs: its releases from %s are built without their kernels (an earlier release runs there)",
	MsgFitLayoutRefused:          "%s does not run the layout given (attention DP %s, EP %s) on %s GPUs as it is priced, and its launch refuses it: DeepEP's all-to-all needs Hopper or Blackwell GPUs joined by NVLink, an EP load balancer CUDA or ROCm GPUs; leave --dp and --ep out to let the plan choose",
	MsgFitBatchShortLitGPT:       "%s GPUs need more sequences a step than the global batch's %s, which LitGPT's fine-tune scripts refuse at the start (each device takes one sequence or more, TrainArgs in litgpt/args.py); they run data-parallel only (no TP, PP or CP): at most %s GPUs, or a larger global batch (--global-batch, which --emit litgpt writes as --train.global_batch_size)",
	MsgFitLitGPTQLoRA:            "LitGPT's lora.py runs QLoRA on one GPU only (\"Quantization is currently not supported for multi-GPU training\"), not on %s: plan --gpus 1 on an instance of one GPU, or --task lora",
	MsgFitLitGPTLayout:           "LitGPT's fine-tune scripts run one GPU as the job is, or on more FSDP full shard (ZeRO-3) with every Block recomputed and nothing offloaded, not the layout given (%s GPUs, TP %s, PP %s, ZeRO %s, with its checkpointing and offload): leave --gpus, --zero, --grad-checkpointing and --offload out to plan LitGPT's",
	MsgFitNoFabric:               "one instance does not hold it, and the provider names no cluster network between instances (allow unknown networks to plan across them)",
	MsgFitSpanNode:               "one instance does not hold it, and one serving copy is not split over instances without NVLink between their GPUs: multi-node serving runs over whole NVLink nodes (take an instance with more GPUs, or a GPU with more memory)",
	MsgFitNoFabricOwn:            "one instance does not hold it, and your price sheet names no network between your instances: give the row's network_gbps and network_fabric (or allow unknown networks) to plan across them",
	MsgFitOverBudget:             "over budget",
	MsgFitPastDeadline:           "misses the deadline",
	MsgFitOwnMoreGPUs:            "%s × %s cannot hold the job; one instance of %s × %s would, at %s",
	MsgFitOwnGPUs:                "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; one instance of %s × %s would, at %s",
	MsgFitOwnGPUsOrWeights:       "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; one instance of %s × %s would, at %s, or %s weights on these GPUs",
	MsgFitOwnWeights:             "%s × %s cannot hold one copy of the model: %s GiB per GPU at TP %s, %s GiB usable; %s weights would fit these GPUs (no instance of up to 8 of them holds the job as set, and planning across instances needs the row's network_gbps and network_fabric)",
	MsgHostOK:                    "host sized to the guides' rule",
	MsgHostUnknown:               "the offer does not list vCPUs or RAM",
	MsgHostFewVCPUs:              "%s vCPUs per GPU, below the %s per GPU that host sizing guides give for this task: data-loader workers, tokenising and the serving front end run on them, and too few leave the GPUs waiting (a soft rule: pre-tokenise the data, or take a larger host shape)",
	MsgHostLittleRAM:             "%s GiB RAM per GPU, below the %s GiB per GPU that host sizing guides give for this task: loading the checkpoint and the data loader's pinned buffers use it (a soft rule: load the weights sharded or memory-mapped, or take a larger host shape)",
	MsgHostOffloadUnlisted:       "CPU offload needs %s GiB of host RAM, and the offer does not list its RAM",
	MsgHostOffloadRAM:            "CPU offload needs %s GiB of host RAM, the instance has %s GiB",
	MsgSLOTTFTPrefill:            "TTFT is bound by prefill: %s s for one prompt on an idle replica",
	MsgSLOTPOTBandwidth:          "TPOT is bound by memory bandwidth: %s s per token even alone",
	MsgSLOTPOTCompute:            "TPOT is bound by compute: %s s per token even alone",
	MsgSLOTPOTHost:               "TPOT is bound by the host and engine overhead: %s s per token even alone",
	MsgSLOTPOTCommunication:      "TPOT is bound by tensor-parallel communication: %s s per token even alone",
	MsgSLOKVPool:                 "the KV pool cannot hold one request",
	MsgNoneLatency:               "no offer meets the latency targets (%s)",
	MsgNoneLatency2:              "no offer meets the latency targets (%s; %s)",
	MsgNoneTTFTFloor:             "TTFT %s s at best, one prompt on an idle replica on %s, against a target of %s s: take a longer target or shorter prompts",
	MsgNoneTPOTFloor:             "TPOT %s s at best, one sequence alone on %s, against a target of %s s: take a longer target, lighter weights or a smaller model",
	MsgSpotServing:               "spot reclaims break serving SLOs unless a spare replica covers them; one is added",
	MsgReasonCheapest:            "%s: cheapest that fits at %s; the runner-up, %s, costs %s× as much for %s× the speed",
	MsgReasonCheapestAlone:       "%s: the only plan that fits on an unflagged price, at %s",
	MsgReasonCheapestFlagged:     "%s: the only plan that fits on a price flagged no worse than its own, at %s",
	MsgReasonCheapestOnly:        "%s: the only plan that fits, at %s",
	MsgReasonCheapestOwnTie:      "%s: cheapest that fits at %s; %s costs the same, and the tie goes to your price",
	MsgReasonCheapestTwin:        "%s: cheapest that fits at %s; %s costs the same and runs as fast",
	MsgReasonCheapestTie:         "%s: cheapest that fits at %s, within %s%% of the lowest cost (%s, at %s) for %s× its speed",
	MsgReasonCostTie:             "%s: %s costs at most %s%% more and runs %s× as fast",
	MsgReasonFastest:             "%s: %s× faster for %s× the cost of the cheapest plan, %s",
	MsgReasonFastestTie:          "%s: %s× faster for %s× the cost of the cheapest plan, %s, within %s%% of the shortest time at up to %s× that cost (%s, %s)",
	MsgReasonFastestCheapestTie:  "%s: the cheapest plan is also the fastest, %s, within %s%% of the shortest time (%s, %s) for %s× its cost",
	MsgReasonNoAlternative:       "%s: no plan within %s× its cost runs at least %s%% faster, so no faster plan is shown; the fastest, %s, runs %s× as fast for %s× the cost",
	MsgReasonPastBound:           "%s: %s× faster for %s× the cost of the cheapest plan, more than the %s× its cost a faster alternative may take",
	MsgReasonFastestPassed:       "%s: %s× as fast as %s, within the %s%% the estimate cannot tell apart, for %s× its cost: not the fastest pick",
	MsgReasonValue:               "%s: the knee of cost against time, %s× the cheapest plan's cost for %s× its speed",
	MsgReasonPareto:              "%s: no other plan is both cheaper and faster",
	MsgReasonFastestIsCheapest:   "%s: the cheapest plan is also the fastest, %s",
	MsgReasonValueIsCheapest:     "%s: the cheapest plan is also the best value: no dearer plan within %s× its cost buys enough speed for its cost",
	MsgReasonValueIsFastest:      "%s: the fastest plan is also the best value, %s× the cheapest plan's cost for %s× its speed",
	MsgReasonValueIsFaster:       "%s: the faster alternative is also the best value, %s× the cheapest plan's cost for %s× its speed",
	MsgReasonNone:                "%s: another plan is both cheaper and faster (%s)",
	MsgReasonTie:                 "%s: no faster than %s, which costs no more, by over %s%%",
	MsgReasonStale:               "%s: its price, from %s, is older than the %s-day freshness window, and a fresher price for this GPU runs the job: not picked (verify the price to use it)",
	MsgReasonStaleEstimated:      "%s: its price's date, %s, is an estimate, and a price dated within the freshness window for this GPU runs the job: not picked (verify the price to use it)",
	MsgReasonStaleElsewhere:      "%s: its price, from %s, is older than the %s-day freshness window, and plans on prices dated within the window run the job: not picked (verify the price to use it)",
	MsgReasonStaleEstElsewhere:   "%s: its price's date, %s, is an estimate, and plans on prices dated within the freshness window run the job: not picked (verify the price to use it)",
	MsgReasonStaleUndated:        "%s: its price is undated, and a price dated within the freshness window for this GPU runs the job: not picked (verify the price to use it)",
	MsgReasonHostShort:           "%s: its host is below what sizing guides give for this task (%s), and an offer of a host that meets it runs the job: not picked",
	MsgReasonFarBelow:            "%s: under half what the other providers ask for this GPU, and a normally priced offer of it runs the job: not picked (verify the price to use it)",
	MsgReasonSpotFarBelow:        "%s: its spot price is under %s%% of its own on-demand price, deeper than the clouds' documented discounts, and other plans run the job: not picked (verify the price to use it)",
	MsgReasonFarBelowElsewhere:   "%s: under half what the other providers ask for this GPU, and plans on normally priced offers run the job: not picked (verify the price to use it)",
	MsgReasonToVerify:            "%s: its source quotes this price as a floor (\"starting at\") or leaves a condition of it open (a footnote, a column or a region it does not settle), and a confirmed price of this GPU runs the job: not picked (verify the price to use it)",
	MsgReasonToVerifyElsewhere:   "%s: its source quotes this price as a floor (\"starting at\") or leaves a condition of it open (a footnote, a column or a region it does not settle), and plans on confirmed prices run the job: not picked (verify the price to use it)",
	MsgNoteWideEPNetwork:         "the experts are not spread over the instances (wide expert parallelism): the provider names no RDMA network (InfiniBand, RoCE, EFA) or %s Gbit/s per GPU between them, which DeepEP's all-to-all and the multi-node guides run on (DeepEP's internode kernels need GPUDirect RDMA; Google's GPUDirect-TCPX/TCPXO carry NCCL only); the copy runs as pipeline stages instead",
	MsgNoteNVLinkRack:            "each copy spans %s trays in one NVLink domain (a rack of %s trays, %s GPUs, joined by NVLink): the traffic between its trays runs over NVLink, not the network",
	MsgNoteRedundantExperts:      "EP %s does not divide the model's %s experts: the plan adds %s redundant expert copies, %s a GPU (SGLang --ep-num-redundant-experts, vLLM --enable-eplb --eplb-config num_redundant_experts, TensorRT-LLM's MoE load balancer num_slots), as NVIDIA Dynamo's GB200 DeepSeek-R1 recipe runs EP 48 with 32",
	MsgNoteRentalUnit:            "the provider rents these instances only in whole orders of %s (%s GPUs): the plan uses %s of the %s instances it pays for, the rest idle",
	MsgNoteRentalUnitCopies:      "the provider rents these instances only in whole orders of %s (%s GPUs): the plan uses %s of the %s instances it pays for; copies of this layout the idle ones hold at no extra cost (headroom past the target): %s",
	MsgNoteNetworkAssumed:        "inter-node network unknown: %s Gbit/s assumed",
	MsgNoteAccountsLocal:         "the provider opens accounts only to legal entities registered in %s, its home country: renting it needs one",
	MsgNoteSpotDefaultRate:       "spot interruption rate unknown: %s%% of instances per month assumed",
	MsgNoteReservedCommitment:    "a reservation bills every hour of its term: %s over %s years (%s), cheaper than on-demand only above %s%% use",
	MsgNoteReservedTerm:          "a reservation bills every hour of its term: %s over %s years (%s)",
	MsgNoteVATExcluded:           "prices normalised to exclude %s%% VAT",
	MsgNoteNoFX:                  "no exchange rate for %s: %s offers priced in it are left out of the plan",
	MsgNoteVATIncluded:           "prices include %s%% VAT",
	MsgNoteWeightsSubstituted:    "%s weights have no kernel in this engine on %s GPUs: planned with %s weights",
	MsgNoteFP16ForBF16:           "%s does not run on %s GPUs: runs %s instead, same memory",
	MsgNoteQuantRefusedModel:     "vLLM does not run %s %s models on %s GPUs: its kernels for them take fp16 or bf16 activations, and it refuses fp16 for the model (numerical instability) where the GPU has no bf16; planned at %s weights from the unquantised checkpoint, its KV cache in %s (SGLang runs the quantised model in fp16 from Turing on; an Ampere or newer GPU runs it on vLLM)",
	MsgNoteFP16RefusedModel:      "vLLM refuses fp16 for %s models (numerical instability): on %s GPUs it runs %s weights, its KV cache in %s",
	MsgNoteRentalNoOffload:       "planned without your CPU offload (%s): a rented fleet holds the job on its GPUs, faster",
	MsgNoteRentalLayoutCkpt:      "planned with activation checkpointing: a rented fleet takes the memory layout (ZeRO stage, checkpointing) that costs least, not your own GPUs' settings",
	MsgNoteRentalLayoutNoCkpt:    "planned without activation checkpointing: a rented fleet takes the memory layout (ZeRO stage, checkpointing) that costs least, not your own GPUs' settings",
	MsgNoteStackDP:               "data-parallel (TP 1 × PP 1) at ZeRO-%s: FSDP or DeepSpeed runs it, and --emit fsdp or deepspeed writes its launch",
	MsgNoteStackDPFT:             "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on FSDP or DeepSpeed (--emit fsdp or deepspeed writes its launch), with no checkpoint conversion for a tensor-parallel stack",
	MsgNoteStackDPZero1:          "data-parallel (TP 1 × PP 1) at ZeRO-%s: DeepSpeed runs it, FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory), and --emit fsdp or deepspeed writes its launch",
	MsgNoteStackDPFTZero1:        "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on DeepSpeed, or on FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory); --emit fsdp or deepspeed writes its launch, with no checkpoint conversion for a tensor-parallel stack",
	MsgNoteStackLitGPT:           "LitGPT's layout on %s GPU(s) at ZeRO-%s, as its fine-tune scripts run one (as the job is) or more (FSDP full shard, every Block recomputed, nothing offloaded): --emit litgpt writes its launch",
	MsgNoteStackMegatron:         "TP %s × PP %s at ZeRO-%s: Megatron-LM or NeMo runs this split (their distributed optimizer is ZeRO-1); --emit fsdp and deepspeed write data-parallel launches only",
	MsgNoteStackMegatronFT:       "TP %s × PP %s at ZeRO-%s, as no data-parallel layout fits these GPUs: Megatron-LM or NeMo runs this split after converting the checkpoint (their distributed optimizer is ZeRO-1); --emit fsdp and deepspeed write data-parallel launches only",
	MsgNoteStackTorchtitan:       "TP %s × PP %s at ZeRO-%s: torchtitan runs this split (FSDP2 with --parallelism.tensor_parallel_degree and pipeline_parallel_degree); --emit fsdp and deepspeed write data-parallel launches only",
	MsgNoteStackNone:             "TP %s × PP %s at ZeRO-%s runs on no training stack: Megatron-LM shards optimizer states only (ZeRO-1), torchtitan pre-trains Llama 3, Qwen3 and DeepSeek-V3 only, and a QLoRA base shards data-parallel only; plan with --zero 1 or without --tp",
	MsgNoteScaleOut:              "scaled out from %s to %s instances: %s× as fast as the fewest that hold the job, for %s× the cost (each doubling must buy 1.5× the speed, CSC's scaling rule)",
	MsgNoteScaleOutDeadline:      "scaled out from %s to %s instances: %s× as fast as the fewest that meet the deadline, for %s× the cost (each doubling must buy 1.5× the speed, CSC's scaling rule)",
	MsgNoteScaleStopSlow:         "scaling out stops here: doubling to %s instances would speed the job %s× for %s× the cost, under the 1.5× a doubling must buy",
	MsgNoteScaleStopComm:         "scaling out stops here: doubling to %s instances would speed the job %s× for %s× the cost, under the 1.5× a doubling must buy, as communication compute does not hide takes more of each step",
	MsgNoteBatchWider:            "the global batch of %s sequences holds at most %s data-parallel replicas at this layout (each steps a micro-batch or more, as many as its pipeline stages under the default batch), so this fleet runs fewer, wider replicas: %s of %s GPUs each (TP %s × PP %s × CP %s), as published runs scale past their batch (Llama 3 405B: TP 8 × CP × PP 16, Llama 3 paper §3.3.2); the time counts each split's cost: TP's all-reduces, PP's pipeline bubble, CP's ring of keys and values",
	MsgNoteScaleStopBatch:        "scaling out stops here: more data-parallel replicas would step more than the job's global batch of %s tokens (--global-batch-tokens sets it)",
	MsgNoteScaleStopBatchFT:      "scaling out stops here: more data-parallel replicas would step more than %s sequences (%s tokens), a fine-tune's usual global batch (Stanford Alpaca, alpaca-lora); a larger one is another training recipe (--global-batch-tokens sets it)",
	MsgNoteFTBatchLarge:          "%s sequences a step, above a fine-tune's usual global batch of 128 (Stanford Alpaca, alpaca-lora): its %s data-parallel replicas step one micro-batch each, so the training recipe (batch, and the learning rate tuned for it) differs from the usual one (fewer instances keep the usual batch, and take longer)",
	MsgNoteScaleStopLimit:        "scaling out stops here: doubling again would pass the instance limit, %s (--max-instances)",
	MsgNoteScaleStopLayout:       "scaling out stops here: on %s instances no layout runs on a training stack",
	MsgNoteMemShare:              "SGLang's default --mem-fraction-static leaves no KV cache at attention DP %s; the plan sets %s, as the SGLang DeepSeek-R1 multi-node recipes do (InferenceX, H100)",
	MsgNoteNoSpare:               "one replica at %s%% load serves the whole rate: no spare if it fails (add one for N+1)",
	MsgNotePastLimitCheaper:      "cheaper past the instance limit, %s (--max-instances): %s would carry the rate at about %s, %s× the cheapest pick's bill; --max-instances %s plans it",
	MsgNotePastLimitOnly:         "past the instance limit, %s (--max-instances): %s would carry the rate at about %s; --max-instances %s plans it",
	MsgNoteTTFTBinds:             "the TTFT target sets the replica count: one prompt alone takes %s s to its first token, %s%% of the %s s target, so each replica runs at %s%% load; a longer target serves more on each",
	MsgNoteTTFTDefaultRelax:      "the TTFT target is the default, %s s for %s-token prompts (2 s, or 0.2 s per 1,000 prompt tokens where longer, after MLPerf Inference's server limits), and it sets the cheapest pick's replica count: %s at %s; at a TTFT of %s s — %s× one prompt's prefill there — the cheapest is %s at %s. Set the TTFT your users accept",
	MsgNoteTPOTBinds:             "the TPOT target sets the replica count: one sequence alone decodes at %s s per token, %s%% of the %s s target, so each replica runs at %s%% load; a longer target serves more on each",
	MsgNoteServingEngine:         "serving assumes continuous batching (vLLM)",
	MsgNotePastCardContext:       "a request of %s tokens is past the %s-token context the model card gives: the engines serve it (the config declares %s positions, vLLM's default --max-model-len), but the card claims no quality past its context; plan requests within it, or test the model at this length",
	MsgNoteBF16StatesZero:        "bf16 optimizer states are a distributed optimizer's: the plan searches ZeRO 1 to 3 only (a ZeRO stage given is kept)",
	MsgNoteBatchEngine:           "batch inference planned on vLLM (continuous batching, offline LLM.generate), the engine the launch runs",
	MsgNoteBatchEngineEncoder:    "the model generates no tokens (an encoder or a fixed-input model): its batch is planned on HF transformers",
	MsgNoteBatchHFGPU:            "planned on HF transformers: vLLM does not run on %s GPUs",
	MsgNoteBatchHFQuantModel:     "planned on HF transformers: vLLM does not run %s %s models on %s GPUs (its kernels take fp16 or bf16 activations, and it refuses fp16 for the model)",
	MsgNoteBatchHFWeights:        "planned on HF transformers: vLLM has no %s kernel on %s GPUs",
	MsgNoteOwnNoRegion:           "region not given in your sheet: kept, the region filter not checked",
	MsgNoteOwnNoVCPUs:            "vCPUs not given in your sheet: kept, the vCPU floor not checked",
	MsgNoteOwnNoRAM:              "RAM not given in your sheet: kept, the RAM floor not checked",
	MsgNoteOwnNoCountry:          "your provider's country is not known: kept, the country filter not checked",
	MsgHostedCheaperThanAPI:      "self-hosting on %s beats %s above %s requests/s",
	MsgHostedCheaperThanAPIAbove: "self-hosting on %s beats %s from %s requests/s while one replica carries the rate (to %s requests/s), and at every rate above %s; between them, a rate that needs one replica more can cost more than the API's tokens",
	MsgHostedNever:               "%s stays cheaper than self-hosting at any rate one replica sustains",
	MsgDisaggSidesWin:            "it pays on %s: prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), %s, %s%% less than the aggregated plan at the targets (an estimate)%s",
	MsgDisaggRackSpan:            "; its workers span trays of one NVLink domain (%s a prefill worker, %s a decode worker; a rack of %s trays, %s GPUs, joined by NVLink): the traffic between a worker's trays runs over NVLink, not the network",
	MsgDisaggSidesLose:           "it would not pay: the cheapest, on %s, prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), costs %s, %s× the aggregated plan%s",
	MsgDisaggPastLimit:           "none within the instance limit: the cheapest takes %s instances, past the limit of %s (--max-instances), on %s, prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), at %s, %s× the aggregated plan%s",
	MsgDisaggBoundTTFT:           "as many as the TTFT target needs",
	MsgDisaggBoundTPOT:           "as many as the TPOT target needs",
	MsgDisaggBoundRate:           "as many as the request rate needs under the load cap",
	MsgDisaggBoundRateKV:         "as many as the request rate needs under the load cap, each decoding at most %s requests at once, as many as its KV cache holds",
	MsgDisaggBoundRateSeqs:       "as many as the request rate needs under the load cap, each decoding at most %s requests at once, the engine's running-sequence limit (%s)",
	MsgDisaggBoundOne:            "one is enough",
	MsgDisaggBoundSpare:          "%s; %s of them a spare for a spot reclaim",
	MsgHostedNoFit:               "no self-hosted plan fits the job to compare with %s",
	MsgHostedBatchAPI:            "hosted API %s at %s/%s USD per 1M input/output tokens, list price as of %s, runs the batch for %s, less than the cheapest self-hosted plan, %s at %s",
	MsgHostedBatchSelf:           "hosted API %s, the cheapest for the model at %s/%s USD per 1M input/output tokens, list price as of %s, runs the batch for %s, more than the cheapest self-hosted plan, %s at %s",
	MsgHostedDayRentCheaper:      "over the day's load curve the cheapest rented fleet, on %s, costs less than %s",
	MsgHostedDayAPICheaper:       "over the day's load curve %s costs less than the cheapest rented fleet, on %s",
}

// Formatter writes a Reason in one language: its text for each Msg and
// each typed argument (Money, Duration, OfferRef, a number, a count).
// English's is englishFormatter (Reason.String, the command line's); the
// page passes its locale's (app/page: Locale.ReasonWith).
type Formatter interface {
	Text(Msg) string
	Number(float64) string
	Count(int) string
	Money(Money) string
	Duration(Duration) string
	Offer(OfferRef) string
}

// Format renders r with f: each argument by its type, a nested Reason (a
// clause of the sentence) with f too, a string as it is (a name: a
// formatter never reaches inside it), anything else by fmt.Sprint. A key
// with no text in f renders as its name.
func (r Reason) Format(f Formatter) string {
	tmpl := f.Text(r.Key)
	if tmpl == "" {
		return r.Key.String()
	}
	args := make([]any, len(r.Args))
	for i, a := range r.Args {
		switch v := a.(type) {
		case float64:
			args[i] = f.Number(v)
		case int:
			args[i] = f.Count(v)
		case Money:
			args[i] = f.Money(v)
		case Duration:
			args[i] = f.Duration(v)
		case OfferRef:
			args[i] = f.Offer(v)
		case Reason:
			args[i] = v.Format(f)
		case string:
			args[i] = v
		default:
			args[i] = fmt.Sprint(v)
		}
	}
	return fmt.Sprintf(tmpl, args...)
}

// englishFormatter writes a Reason as the command line does.
type englishFormatter struct{}

func (englishFormatter) Text(m Msg) string {
	if m >= 0 && m < NMsgs {
		return English[m]
	}
	return ""
}
func (englishFormatter) Number(v float64) string    { return displayNumber(v) }
func (englishFormatter) Count(n int) string         { return GroupInt(n) }
func (englishFormatter) Money(m Money) string       { return m.String() }
func (englishFormatter) Duration(d Duration) string { return d.String() }
func (englishFormatter) Offer(o OfferRef) string    { return o.String() }

// String renders r in English.
func (r Reason) String() string { return r.Format(englishFormatter{}) }
