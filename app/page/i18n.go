package page

import "rightsize/estimator"

// Rightsize speaks the languages its users write: English, Russian and
// Chinese. Messages are looked up by key; a key missing in a language falls
// back to English, so a new string never shows up blank.

// Languages in the order the picker shows them.
var Languages = []struct{ Code, Name string }{{"en", "English"}, {"ru", "Русский"}, {"zh", "中文"}}

type MsgKey int

const (
	MsgTagline MsgKey = iota
	MsgModel
	MsgTask
	MsgPrecision
	MsgKV
	MsgBatch
	MsgSeq
	MsgOptimizer
	MsgCheckpointing
	MsgFlash
	MsgLoRARank
	MsgEngine
	MsgMemUtil
	MsgGPU
	MsgGPUs
	MsgZeRO
	MsgTP
	MsgPP
	MsgOffload
	MsgUnits
	MsgLanguage
	MsgPerGPU
	MsgPart
	MsgMemory
	MsgShare
	MsgUncertainty
	MsgWeights
	MsgGradients
	MsgOptimizerStates
	MsgActivations
	MsgLogits
	MsgKVCache
	MsgCUDAContext
	MsgAllocator
	MsgNCCL
	MsgCUDAGraphs
	MsgQuantState
	MsgTotal
	MsgUsable
	MsgFits
	MsgDoesNotFit
	MsgHeadroom
	MsgShortBy
	MsgParams
	MsgActive
	MsgKVPerToken
	MsgKVPool
	MsgMaxBatch
	MsgMaxSeq
	MsgFixFields
	MsgGPUFit
	MsgGPUCol
	MsgVRAM
	MsgVRAMPerGPU
	MsgWithYourSetup
	MsgMinGPUs
	MsgFromPrice
	MsgNone
	MsgOffers
	MsgProvider
	MsgInstance
	MsgOnDemand
	MsgSpot
	MsgReserved
	MsgRegion
	MsgShowAll
	MsgNoOffers
	MsgRange
	MsgNotNumber
	MsgUnknownChoice
	MsgIncompatible
	MsgWarnings
	MsgPickGPU
	MsgPricesNote
	MsgQuant
	MsgLoRATargets
	MsgSelective
	MsgMaxBatched
	MsgDefaultHere
	MsgEager
	MsgOverrides
	MsgOverridesNote
	MsgUsableOverride
	MsgNotSize
	MsgTaskInference
	MsgTaskTrain
	MsgTaskFinetune
	MsgTaskLoRA
	MsgTaskQLoRA
	MsgOffNone
	MsgZeROAuto
	MsgOffOptimizer
	MsgOffAll
	MsgTargetsQV
	MsgTargetsAttn
	MsgTargetsAll
	MsgQuantAuto
	MsgSheetTitle
	MsgSheetHelp
	MsgSheetPick
	MsgSheetClear
	MsgSheetRows
	MsgSheetOffers
	MsgSheetUnreadable
	MsgYourPrice
	MsgRulesTitle
	MsgRulesNote
	MsgRuleParams4
	MsgRuleParamMem15
	MsgRuleWeights12
	MsgRuleHF18
	MsgRuleSays
	MsgThisEstimate
	MsgOffBy
	MsgYourModel
	MsgConfigHelp
	MsgNoCustomModel
	MsgUpdateReady
	MsgLinkIgnored
	MsgSheetApplying
	MsgSavedKept
	MsgNotKept
	MsgConfigDrop
	MsgReload
	MsgNotCount
	MsgMs
	MsgSec
	MsgMin
	MsgHours
	MsgDays
	MsgSpeedTitle
	MsgSpeedNote
	MsgThroughputTrain
	MsgThroughputInfer
	MsgJobTime
	MsgGPUHours
	MsgTTFT
	MsgPerSeq
	MsgJobCost
	MsgPerMTokens
	MsgTrainTokens
	MsgOutputTokens
	MsgNoPerf
	MsgNoPerfNoFit
	MsgNoPerfGeneric
	MsgForwardPass
	MsgThroughputEncoder
	MsgCostAtSpeedTokens
	MsgPlannerBestPerMTokens
	MsgMFUImplied
	MsgCheapest
	MsgSortBy
	MsgSortVRAM
	MsgSortCost
	MsgCopyLink
	MsgLinkCopied
	MsgBadConfig
	MsgInvalid
	MsgNoModel
	MsgHWNoBF16
	MsgHWNoFP8
	MsgUnitGB
	MsgUnitGiB
	MsgBillionSuffix
	MsgMillionSuffix
	MsgKiB
	MsgTokens
	MsgModelLimit
	MsgOverContextYaRN
	MsgInputs
	MsgUnitsGiB
	MsgUnitsGB
	MsgFooter
	MsgOpenInRightsize
	MsgFWeights
	MsgFGradients
	MsgFGradientsInFlight
	MsgFOptimizer
	MsgFActivations
	MsgFLogits
	MsgFKV
	MsgFOverhead
	MsgBoundCompute
	MsgBoundBandwidth
	MsgEffMFU
	MsgEffBandwidth
	MsgFTTFT
	MsgFirstWave
	MsgFDecode
	MsgFCostPerM
	MsgFTrain
	MsgFJobTime
	MsgFJobCost
	MsgVerifyVLLM
	MsgVerifyTrain
	MsgVerifyMemory
	MsgGPUHour
	MsgYear1
	MsgYear3
	MsgBasis
	MsgBasisFormula
	MsgBasisInputs
	MsgBasisEfficiency
	MsgBasisBand
	MsgBasisBound
	MsgBasisVerify
	MsgAsOfSource
	MsgSource
	MsgEstimatedDate
	MsgAgeFresh
	MsgAgeAging
	MsgAgeOld
	MsgPickCheapest
	MsgPickFastest
	MsgPickFaster
	MsgPickValue
	MsgAnswerTitle
	MsgNoAnswer
	MsgAnswerNote
	MsgUseThis
	MsgPickMore
	MsgParetoTitle
	MsgParetoHint
	MsgParetoHintView // the read-only chart's (embed page)
	MsgPin
	MsgUnpin
	MsgVerdict
	MsgTokensPerSec
	MsgCheapestCost
	MsgCompareTitle
	MsgPinned
	MsgLive
	MsgExportTitle
	MsgExportCSV
	MsgExportJSON
	MsgCopyMarkdown
	MsgMarkdownCopied
	MsgConfigTooBig
	MsgConfigPick
	MsgConfigPaste
	MsgFileTooBig
	MsgBadSheet
	MsgWarnTightFit
	MsgWarnSeqBeyondContext
	MsgWarnKVHeadsReplicated
	MsgWarnUnevenPipeline
	MsgWarnNoActivationModel
	MsgWarnVisionApprox
	MsgWarnFP8NotInLlamaCpp
	MsgWarnPoolBelowOneSeq
	MsgWarnNoKVCache
	MsgWarnZeROWithoutDP
	MsgWarnBlockSplit
	MsgWarnNoDPAttention
	MsgHWNoFP4
	MsgShipsFP8
	MsgDisaggFigures
	MsgDisaggSpares
	MsgDisaggTitle
	MsgHowAccurate
	MsgRPS
	MsgTTFTTarget
	MsgTPOTTarget
	MsgTTFTDefault
	MsgSLOStat
	MsgSLOMean
	MsgSLOMedian
	MsgGlobalBatch
	MsgOptimizerSteps
	MsgServeTitle
	MsgConcurrency
	MsgReplicas
	MsgFleetGPUs
	MsgMonthly
	MsgTPOT
	MsgBoundHost
	MsgBoundComm
	MsgAssumptions
	MsgAssumptionsNote
	MsgMFUField
	MsgInfMFUField
	MsgBWField
	MsgFXTitle
	MsgCurrency
	MsgPerUSD
	MsgPlanning
	MsgFixToUpdate
	MsgFixToAnswer
	MsgFixNamed
	MsgMonthlyShort
	MsgBatchCost
	MsgBatchTime
	MsgE2EP95
	MsgRequests
	MsgPricing
	MsgCurrencyField
	MsgProviderKind
	MsgCountry
	MsgBudget
	MsgDeadline
	MsgMinVCPU
	MsgMinRAM
	MsgAny
	MsgFilters
	MsgPlanNotes
	MsgDefaultIs
	MsgPlanAssumptionsNote
	MsgSpotRateField
	MsgCkptWriteField
	MsgRestartField
	MsgSrcSpot
	MsgSrcCkpt
	MsgSrcRestart
	MsgSpotNow
	MsgYoungDaly
	MsgSrcAPINone
	MsgHostedNote
	MsgAPIInField
	MsgAPIOutField
	MsgHostedTitle
	MsgHostedAPI
	MsgAPIPrices
	MsgAPIMonthly
	MsgSelfHosted
	MsgBreakEven
	MsgBreakEvenAlways
	MsgInstancesOf
	MsgPerSecond
	MsgAsSet
	MsgCostAtSpeed
	MsgJobCostAtSpeed
	MsgPlannerBestPerM
	MsgPlannerBestJob
	MsgInFlight
	MsgPrOnDemand
	MsgPrSpot
	MsgPrRes1
	MsgPrRes3
	MsgFleetOf
	MsgFleetHere
	MsgPerMonthUnit
	MsgPerRequestP95
	MsgUnknownNet
	MsgCommShare
	MsgCommFact
	MsgFreshnessField
	MsgPriceAsOf
	MsgVerifyPrice
	MsgVerifyDated
	MsgAge180to365
	MsgAgeUndated
	MsgOwnUndated
	MsgFarBelow
	MsgSourceOpen
	MsgSpotFarBelow
	MsgFromListing
	MsgFooterFresh
	MsgLoadTitle
	MsgLoadX
	MsgLoadY
	MsgLoadTTFT95
	MsgLoadTTFTTarget
	MsgLoadOp
	MsgLoadSat
	MsgLoadCaption
	MsgLoadCaptionOne
	MsgBindTTFT
	MsgBindTPOT
	MsgBindThroughput
	MsgBindNone
	MsgLimitNone
	MsgLimitSeqs
	MsgLimitKV
	MsgLimitTokens
	MsgLimitPolling
	MsgBindAnd
	MsgBenchTitle
	MsgBenchHelp
	MsgBenchPick
	MsgBenchApplied
	MsgBenchMismatch
	MsgBenchBad
	MsgJobTokens
	MsgJobRequests
	MsgJobRate
	MsgJobWithin
	MsgJobBudget
	MsgJobBudgetMonth
	MsgJobFor
	MsgJobSetupOn
	MsgBadCurve
	MsgOwnNeeds
	MsgCurveField
	MsgWorkloadField
	MsgWorkloadAsSet
	MsgOwnPriceField
	MsgKWhField
	MsgOwnYearsField
	MsgFleetTitle
	MsgFleetBest
	MsgFleetCommit
	MsgFleetNoCommit
	MsgFleetSaving
	MsgFleetNoSpot
	MsgFleetPeak
	MsgFleetChoice
	MsgFleetAllOD
	MsgFleetAllSpot
	MsgFleetAll1y
	MsgFleetAll3y
	MsgFleetBestMix
	MsgFleetUnpriced
	MsgFleetChartTitle
	MsgFleetNeed
	MsgFleetCostHour
	MsgMixTitle
	MsgMixSaves
	MsgMixSame
	MsgMixGroup
	MsgOwnTitle
	MsgOwnLine
	MsgOwnBreakEven
	MsgOwnNever
	MsgFleetUnsized
	MsgFleetReserved
	MsgLoadPeak
	MsgNeeded
	MsgBackwardEndPeak
	MsgOptimizerStepPeak
	MsgTextVision
	MsgTextOnly
	MsgKernel
	MsgEngineVersion
	MsgHost
	MsgOwnNoWatts
	MsgLaunchTitle
	MsgLaunchHelp
	MsgLaunchKind
	MsgLaunchRouter
	MsgRouterEngine
	MsgCopyLaunch
	MsgLaunchCopied
	MsgLaunchNoSky
	MsgLaunchModelParallel
	MsgLaunchSkyServePorts
	MsgLaunchLayout
	MsgLaunchPrecision
	MsgLaunchStack
	MsgLaunchLitGPT
	MsgLaunchLitGPTModel
	MsgLaunchNone
	MsgCP
	MsgLeverMFU
	MsgLeverInfMFU
	MsgLeverBW
	MsgLeverHost
	MsgLeverComm
	MsgCommHidden
	MsgDataset
	MsgEpochs
	MsgJobEpochs
	MsgPerEpoch
	MsgNeedsDataset
	MsgEP
	MsgRedundant
	MsgAsync
	MsgNoOverlap
	MsgDraft
	MsgGraphCap
	MsgDraftAccept
	MsgMTPDetail
	MsgDP
	MsgKindHyperscaler
	MsgKindGPUCloud
	MsgKindMarketplace
	MsgKindBroker
	MsgKindDecentralized
	MsgFXLine
	MsgCompareAdd
	MsgCompared
	MsgCompareRemove
	MsgComparePlans
	MsgCompareFull
	MsgCompareNoPlan
	MsgPriceDate
	MsgCompareIgnored
	MsgVerifyHF
	MsgPresetChat
	MsgPresetCode
	MsgPreset1k1k
	MsgPreset8k1k
	MsgPreset1k8k
	MsgWithCheckpointing
	MsgFewestGPUs
	MsgMoreThanGPUs
	MsgRegionField
	MsgCheaperFlagged
	MsgOwnPriceMark
	MsgOwnUnfit
	MsgOwnUnfitMore
	MsgFitsWith
	MsgLeverCheckpointing
	MsgLeverZeRO3
	MsgLeverMicroBatch
	MsgLeverOffloadOptimizer
	MsgLeverOffloadAll
	MsgLeverMoreGPUs
	MsgLeverZeRO2
	MsgLeverPlain1F1B
	MsgFixPerGPU
	MsgFixOneGPU
	MsgFixHost
	MsgLoadTTFT50
	MsgLoadTPOT95
	MsgLoadTPOTTarget
	MsgNoAnswerBudget
	MsgNoAnswerDeadline
	MsgNoAnswerNoTokens
	MsgNoAnswerGGUF
	MsgOwnCheaper
	MsgOwnDearer
	MsgFleetVsCard
	MsgKindsDefault
	MsgKindsAny
	MsgKindsNote
	MsgWidened
	MsgNoAnswerRunLength
	MsgRunLengthMissed
	MsgRunLengthWithout
	MsgRunLengthRaised
	MsgNotWhole
	MsgLayoutChosen
	MsgLayoutWhy
	MsgLayoutNeeds
	MsgSchedPlain
	MsgSchedInterleaved
	MsgAttnKernel
	MsgAttnFA2
	MsgAttnCuDNN
	MsgAttnFA3
	MsgAttnKernelHelp
	MsgAdapterDType
	MsgAdapterAuto
	MsgAdapterDTypeHelp
	MsgHIPContext
	MsgHIPGraphs
	MsgRuntimeContext
	MsgHPUGraphs
	MsgEagerHIP
	MsgEagerHPU
	MsgRangeFromTo
	MsgEngineAuto
	MsgEngineAutoWhy
	MsgStackDefaults
	MsgStackDefaultsWhy
	MsgStackRefusesQLoRA
	MsgCkptDefault
	MsgCkptDefaultWhy
	MsgNoneSameReason
	MsgNoneEngineRuns
	MsgNoneEngineAlike
	MsgNoneCause
	MsgNoneCauseEngine
	MsgNoneMixed
	MsgNoneMixedRest
	MsgNoneMixedSep
	MsgBatchShort        // trainmsg.go
	MsgBatchUneven       // trainmsg.go
	MsgBatchRaised       // trainmsg.go
	MsgWholeRun          // trainmsg.go
	MsgRegionUnlisted    // regionmsg.go
	MsgRegionUnlistedAny // regionmsg.go
	MsgUsableECC         // eccmsg.go
	MsgECCSees           // eccmsg.go
	MsgHWFP8Marlin
	MsgHWEngineNoStart
	MsgHWEngineRelease
	MsgHWLayoutRefused
	NMsgs
)

// Messages are the page's strings by language. Each language is a
// package-level array, laid out by the linker as static data: a map
// literal here compiled to 44 KB of WebAssembly that built the three
// tables at start-up.
var Messages = map[string]*[NMsgs]string{"en": &messagesEN, "ru": &MessagesRU, "zh": &messagesZH}

var messagesEN = [NMsgs]string{
	MsgTagline: "How much GPU memory your model needs, which GPUs fit, and where to rent them.",
	MsgModel:   "Model", MsgTask: "Task", MsgPrecision: "Precision", MsgKV: "KV-cache dtype", MsgBatch: "Batch size",
	MsgSeq: "Sequence length (tokens)", MsgOptimizer: "Optimizer", MsgCheckpointing: "Gradient checkpointing",
	MsgFlash: "FlashAttention / SDPA", MsgLoRARank: "LoRA rank", MsgEngine: "Inference engine",
	MsgMemUtil: "Memory share (%s %s; 0: the engine's default%s)", MsgGPU: "GPU", MsgGPUs: "GPUs", MsgZeRO: "ZeRO stage (3 = FSDP)",
	MsgTP: "Tensor parallel", MsgPP: "Pipeline stages", MsgOffload: "CPU offload", MsgUnits: "Units", MsgLanguage: "Language",
	MsgPerGPU: "Memory per GPU", MsgPart: "Part", MsgMemory: "Memory", MsgShare: "Share", MsgUncertainty: "±",
	MsgWeights: "Weights", MsgGradients: "Gradients", MsgOptimizerStates: "Optimizer states", MsgActivations: "Activations",
	MsgLogits: "Logits / loss", MsgKVCache: "KV cache", MsgCUDAContext: "CUDA context", MsgAllocator: "Allocator reserve",
	MsgNCCL: "NCCL buffers", MsgCUDAGraphs: "CUDA graphs", MsgQuantState: "Quantization state", MsgTotal: "Total",
	MsgUsable: "Usable on this GPU", MsgFits: "Fits", MsgDoesNotFit: "Does not fit", MsgHeadroom: "headroom",
	MsgShortBy: "short by", MsgParams: "Parameters", MsgActive: "Active per token", MsgKVPerToken: "KV cache per token",
	MsgKVPool: "KV pool", MsgMaxBatch: "Largest batch that fits", MsgMaxSeq: "Longest sequence that fits",
	MsgFixFields: "Fix the highlighted fields to see an estimate.", MsgGPUFit: "Which GPUs fit",
	MsgGPUCol: "GPU", MsgVRAM: "VRAM", MsgVRAMPerGPU: "VRAM per GPU", MsgWithYourSetup: "With your GPU count", MsgMinGPUs: "GPUs needed",
	MsgFromPrice: "From (on-demand)", MsgNone: "—", MsgOffers: "Where to rent", MsgProvider: "Provider",
	MsgInstance: "Instance", MsgOnDemand: "On-demand /h", MsgSpot: "Spot /h", MsgReserved: "Reserved /h", MsgRegion: "Region",
	MsgShowAll: "Show all", MsgNoOffers: "No offer in the catalog has this GPU.",
	MsgRange: "out of range", MsgNotNumber: "not a number", MsgUnknownChoice: "unknown choice",
	MsgIncompatible: "does not work with the other settings", MsgWarnings: "Notes",
	MsgPickGPU:     "Click a row to pick that GPU.",
	MsgPricesNote:  "Prices per instance and hour in the provider's currency; dated and sourced per row. Estimates, not quotes.",
	MsgQuant:       "Weight format",
	MsgLoRATargets: "LoRA targets",
	MsgSelective:   "Selective recompute (attention scores only)",
	MsgMaxBatched:  "Tokens per step (%s %s; 0: the engine's default%s)",
	MsgDefaultHere: ", %s on this GPU",
	MsgEager:       "No CUDA graphs (%s)",
	// ROCm's names on AMD (HIP module API, hipGraph: ROCm HIP docs) and
	// Intel Gaudi's (HPU Graphs: docs.habana.ai "Run Inference Using HPU
	// Graphs"); Gaudi names no context, so the row says the runtime's.
	MsgHIPContext: "HIP context", MsgHIPGraphs: "HIP graphs", MsgRuntimeContext: "Runtime context", MsgHPUGraphs: "HPU graphs",
	MsgEagerHIP: "No HIP graphs (%s)", MsgEagerHPU: "No HPU graphs (%s)",
	MsgRangeFromTo:   "%s to %s",
	MsgEngineAuto:    "Auto (as planned)",
	MsgEngineAutoWhy: "auto: %s",

	// A fine-tune named by a Lightning precision (LitGPT's defaults taken).
	MsgStackDefaults:     "%s's defaults",
	MsgStackDefaultsWhy:  "the precision is Lightning's name, so the job runs %s's fine-tune scripts with their defaults where no field says otherwise (%s)",
	MsgStackRefusesQLoRA: "%s's lora.py refuses QLoRA on more than one GPU: plan one GPU, or LoRA",
	MsgCkptDefault:       "on: QLoRA's default",
	MsgCkptDefaultWhy:    "on by default for QLoRA, as PEFT's prepare_model_for_kbit_training, TRL's SFTConfig, the QLoRA paper's qlora.py and torchtune's QLoRA recipes run it; untick the box if your script turns it off",

	MsgOverrides:      "Engine settings and measured overheads",
	MsgOverridesNote:  "Leave empty to use the estimate. Sizes take a unit: 1343MiB, 0.5GiB, 2GB.",
	MsgUsableOverride: "Usable memory per GPU (torch.cuda.mem_get_info)",
	MsgNotSize:        "not a size with a unit (e.g. 1343MiB, 0.5GiB)",
	MsgTaskInference:  "Inference",
	MsgTaskTrain:      "Pre-training",
	MsgTaskFinetune:   "Full fine-tune",
	MsgTaskLoRA:       "LoRA",
	MsgTaskQLoRA:      "QLoRA (4-bit base)",
	MsgOffNone:        "None",
	MsgZeROAuto:       "auto (pre-training over replicas: the lowest from 1 that fits)",
	MsgOffOptimizer:   "Optimizer states",
	MsgOffAll:         "Optimizer states and parameters",
	MsgTargetsQV:      "Query and value (q, v)",
	MsgTargetsAttn:    "Attention (q, k, v, o)",
	MsgTargetsAll:     "All linear layers",
	MsgQuantAuto:      "Auto (from precision and engine)",
	MsgSheetTitle:     "Your prices",
	MsgSheetHelp:      "Load a price sheet (CSV or JSON: offer_id or provider + instance_type, prices per instance-hour, currency, as_of, source) to compare negotiated prices. It stays in this browser.",
	MsgSheetPick:      "Price sheet",
	MsgSheetClear:     "Back to catalog prices",
	MsgSheetRows:      "rows",
	MsgSheetOffers:    "offers changed or added",

	MsgSheetUnreadable:       "the browser could not read the file",
	MsgYourPrice:             "your price",
	MsgRulesTitle:            "Rules of thumb vs this estimate",
	MsgRulesNote:             "What common rules give for the same job held by one copy of the model on one GPU. A negative error means the rule under-sizes the GPU.",
	MsgRuleParams4:           "Parameters × 4 bytes (guides' naive formula)",
	MsgRuleParamMem15:        "Parameter memory × 1.5 (guides, training)",
	MsgRuleWeights12:         "Weights × 1.2 (common serving formula)",
	MsgRuleHF18:              "18 bytes per parameter, AdamW mixed precision (Hugging Face; activations not included)",
	MsgRuleSays:              "Rule gives",
	MsgThisEstimate:          "Rightsize, one GPU",
	MsgOffBy:                 "Rule's error",
	MsgYourModel:             "Your model",
	MsgConfigHelp:            "Not in the list? Load its Hugging Face config.json: parameters, GQA/MoE/MLA and KV cache are read from it. It stays in this browser.",
	MsgNoCustomModel:         "your config.json is not loaded in this browser: load it under “Your model”",
	MsgUpdateReady:           "A new version of Rightsize is ready.",
	MsgLinkIgnored:           "Ignored in the link (not valid URL text)",
	MsgSheetApplying:         "applying",
	MsgSavedKept:             "Saved from your last visit, not applied (kept until you load a corrected file or remove it):",
	MsgNotKept:               "Applied, but the browser's storage is full or refused it: it will not be kept for your next visit.",
	MsgConfigDrop:            "Remove the saved config",
	MsgReload:                "Reload",
	MsgNotCount:              "not a count (e.g. 1B, 500M, 2T)",
	MsgMs:                    "ms",
	MsgSec:                   "s",
	MsgMin:                   "min",
	MsgHours:                 "h",
	MsgDays:                  "days",
	MsgSpeedTitle:            "Speed and cost (estimate)",
	MsgSpeedNote:             "Roofline estimate from the GPU's datasheet at the efficiencies in each figure's basis (the assumed MFU and bandwidth use; change them under Assumptions). Implied MFU is what is left after communication, bubbles and host overhead. Real runs vary with the engine and kernels; the band says how far the public measurements were.",
	MsgThroughputTrain:       "Training throughput, tokens/s",
	MsgThroughputInfer:       "Generated tokens/s, all requests",
	MsgJobTime:               "Time for the training tokens",
	MsgGPUHours:              "GPU-hours",
	MsgTTFT:                  "Time to first token",
	MsgPerSeq:                "Tokens/s per request",
	MsgForwardPass:           "One forward pass per request",
	MsgThroughputEncoder:     "Tokens/s read, all requests",
	MsgCostAtSpeedTokens:     "Per 1M tokens read at this speed",
	MsgPlannerBestPerMTokens: "Planner's cheapest plan on this GPU, per 1M tokens read",
	MsgJobCost:               "Job cost",
	MsgPerMTokens:            "Per 1M tokens",
	MsgTrainTokens:           "Training tokens (e.g. 1B, 2T)",
	MsgOutputTokens:          "Generated tokens per request (of the sequence; 0: half of it)",
	MsgNoPerf:                "No speed estimate: the catalog lacks this GPU's FLOPS or bandwidth.",
	MsgNoPerfNoFit:           "No speed estimate on the GPUs as set: the job does not fit them.",
	MsgNoPerfGeneric:         "No speed estimate: a generic model is a parameter count with no attention layout, so only its memory above is estimated.",
	MsgMFUImplied:            "Implied MFU",

	MsgCheapest: "cheapest",
	MsgSortBy:   "Sort by",
	MsgSortVRAM: "Memory",
	MsgSortCost: "Job cost",

	MsgCopyLink:           "Copy link to this estimate",
	MsgLinkCopied:         "Link copied: it reopens this exact estimate, offline too.",
	MsgBadConfig:          "config.json could not be read",
	MsgInvalid:            "invalid input",
	MsgNoModel:            "no model architecture: load a config first",
	MsgHWNoBF16:           "this GPU has no bf16 tensor cores (Turing, Volta): frameworks fall back to fp16 or emulate bf16, slower",
	MsgHWNoFP8:            "this GPU has no fp8 tensor cores (they start with Ada and Hopper): fp8 weights are upcast, no fp8 speed-up",
	MsgUnitGB:             "GB",
	MsgUnitGiB:            "GiB",
	MsgBillionSuffix:      "B",
	MsgMillionSuffix:      "M",
	MsgKiB:                "KiB",
	MsgTokens:             "tokens",
	MsgModelLimit:         "model limit",
	MsgOverContextYaRN:    "a request of %s tokens is over the context of %s tokens the served checkpoint's config.json declares, which the engines refuse; its model card reaches %s tokens with YaRN: add \"rope_scaling\": %s to config.json, set max_position_embeddings to %s and load it under “Your model” (the card warns it may cost quality on short texts), or shorten the requests to %s tokens",
	MsgInputs:             "Inputs",
	MsgUnitsGiB:           "GiB (%s)",
	MsgUnitsGB:            "GB (datasheet)",
	MsgFooter:             "Every formula and price is sourced and dated; every figure is an estimate with its band. The page works offline and sends nothing anywhere.",
	MsgOpenInRightsize:    "Open in Rightsize",
	MsgFWeights:           "parameters × bytes per parameter of the weight format (group scales of quantized formats included)",
	MsgFGradients:         "trainable parameters × gradient bytes, divided over the GPUs by ZeRO-2/3",
	MsgFGradientsInFlight: "at the backward pass's start: the LM head's and one block's, being made; the shards are whole at its end",
	MsgFOptimizer:         "trainable parameters × optimizer bytes (AdamW: fp32 master copy + two moments), divided by ZeRO-1/2/3",
	MsgFActivations:       "per layer: batch × sequence × hidden size × bytes, as Korthikanti et al. 2022 count them; less with checkpointing",
	MsgFLogits:            "batch × sequence × vocabulary × bytes of the logits and the loss",
	MsgFKV:                "2 × layers × KV heads × head size × tokens × KV bytes (MLA: the compressed latent)",
	MsgFOverhead:          "measured runtime overheads (CUDA context, allocator, NCCL, CUDA graphs) from public measurements",
	MsgBoundCompute:       "compute (tensor FLOPS)",
	MsgBoundBandwidth:     "memory bandwidth",
	MsgEffMFU:             "MFU assumed",
	MsgEffBandwidth:       "bandwidth use",
	MsgFTTFT:              "prompt FLOPs ÷ (peak × MFU), or weights ÷ bandwidth when that is slower",
	MsgFDecode:            "each step reads the weights and the KV cache: bytes ÷ (bandwidth × use), or FLOPs ÷ (peak × MFU) at large batches",
	MsgFCostPerM:          "instance price per hour ÷ (generated tokens per second × 3600) × 1,000,000",
	MsgFTrain:             "6 × parameters (+ attention) FLOPs per token ÷ (GPUs × peak × MFU), with TP communication and the pipeline bubble",
	MsgFJobTime:           "training tokens ÷ tokens per second",
	MsgFJobCost:           "job time, in the offer's billing units, × instance price per hour",
	MsgVerifyVLLM:         "vllm bench serve (or llama-bench for llama.cpp) with this prompt and output length",
	MsgVerifyTrain:        "log tokens/s over 50 steps after warm-up; MFU = 6 × parameters × tokens/s ÷ (GPUs × peak)",
	MsgVerifyMemory:       "torch.cuda.max_memory_allocated() after the first steps (add the CUDA context from %s)",

	MsgGPUHour:               "GPU·h",
	MsgYear1:                 "1y",
	MsgYear3:                 "3y",
	MsgBasis:                 "How this is estimated",
	MsgBasisFormula:          "Formula",
	MsgBasisInputs:           "Inputs",
	MsgBasisEfficiency:       "Efficiency assumed",
	MsgBasisBand:             "Band",
	MsgBasisBound:            "Bound by",
	MsgBasisVerify:           "Verify it",
	MsgAsOfSource:            "As of · source",
	MsgSource:                "source",
	MsgEstimatedDate:         "estimated date",
	MsgAgeFresh:              "under 90 days old",
	MsgAgeAging:              "90 to 180 days old",
	MsgAgeOld:                "over a year old",
	MsgPickCheapest:          "Cheapest",
	MsgPickFastest:           "Fastest",
	MsgPickFaster:            "Faster",
	MsgPickValue:             "Best value",
	MsgAnswerTitle:           "What to rent",
	MsgNoAnswer:              "No priced offer can run this job as set: change the GPU count, precision or model.",
	MsgAnswerNote:            "Planned over every offer in the catalog at the chosen price model and currency (other currencies converted at the dated rates under Assumptions). Estimates, not quotes.",
	MsgUseThis:               "Use this",
	MsgPickMore:              "more on this plan",
	MsgParetoTitle:           "Cost vs time of every offer that can run the job (log scales); the line is the Pareto front",
	MsgParetoHint:            "Point at or tap a dot to see its offer; click it, or tap it again, to use it.",
	MsgParetoHintView:        "Point at or tap a dot to see its offer.",
	MsgPin:                   "Pin to compare",
	MsgUnpin:                 "Unpin",
	MsgVerdict:               "Verdict",
	MsgTokensPerSec:          "Tokens/s",
	MsgCheapestCost:          "Cheapest cost (this GPU)",
	MsgCompareTitle:          "Pinned vs now",
	MsgPinned:                "Pinned",
	MsgLive:                  "Now",
	MsgExportTitle:           "Export",
	MsgExportCSV:             "Download CSV",
	MsgExportJSON:            "Download JSON",
	MsgCopyMarkdown:          "Copy Markdown table",
	MsgMarkdownCopied:        "Markdown copied.",
	MsgConfigTooBig:          "larger than 256 KiB: a config.json is a few KB",
	MsgConfigPick:            "config.json file",
	MsgConfigPaste:           "…or paste config.json here (or drop the file)",
	MsgFileTooBig:            "file too large",
	MsgBadSheet:              "price sheet refused",
	MsgWarnTightFit:          "fits with less than 5% headroom",
	MsgWarnSeqBeyondContext:  "sequence longer than the model's context length (max_position_embeddings)",
	MsgWarnKVHeadsReplicated: "tensor parallelism exceeds the KV heads: KV heads are replicated",
	MsgWarnUnevenPipeline:    "layers do not divide evenly over pipeline stages: showing the stage that needs the most memory (in training the first and last stages hold the fewer layers)",
	MsgWarnNoActivationModel: "the model gives no shape numbers: activations not estimated",
	MsgWarnVisionApprox:      "vision tower parameters are approximate",
	MsgWarnFP8NotInLlamaCpp:  "llama.cpp has no fp8 weights: Q8_0 assumed",
	MsgWarnPoolBelowOneSeq:   "the serving engine's KV pool is smaller than one sequence",
	MsgWarnNoKVCache:         "no KV cache for this architecture",
	MsgWarnZeROWithoutDP:     "ZeRO has no effect with a data-parallel degree of 1",
	MsgWarnBlockSplit:        "this tensor parallelism splits the checkpoint's fp8 blocks, which the engine refuses at start-up: estimated as if it loaded",
	MsgWarnNoDPAttention:     "SGLang runs this model without attention data parallelism, so it cannot start this layout: estimated as if it ran with DeepEP",
	MsgHWNoFP4:               "this GPU has no FP4 tensor cores (they start with Blackwell): FP4 weights are dequantized, no FP4 speed-up",
	MsgHWEngineNoStart:       "the inference engine does not start on this GPU's generation: these figures are for a setup that would not run, and the plan leaves such GPUs out",
	MsgHWEngineRelease:       "vLLM's releases from 0.20.0 are built without this GPU's kernels (Volta): these figures need an earlier release, and the plan leaves such GPUs out unless one is named",
	MsgHWLayoutRefused:       "the engine does not run this layout (attention DP, EP or redundant experts) on this GPU as estimated, and its launch refuses it: these figures are for a setup that would not run; leave DP, EP and redundant experts empty for the plan's own",
	MsgHWFP8Marlin:           "this GPU has no fp8 tensor cores: vLLM and SGLang run fp8 weights as W8A16 (Marlin), 8-bit in memory and read as 8-bit, multiplied at the 16-bit rate — faster than bf16 at small batches, slower at large ones and in long prompts",
	MsgShipsFP8:              "this model's checkpoint stores its weights in fp8 (the quantization_config of its config.json): vLLM and SGLang serve it in fp8 whatever precision is set, and at 16 bits its weights take twice the memory — set the precision to fp8",
	MsgDisaggFigures:         "TTFT %s, TPOT %s (%s; mean TTFT %s), KV handover %s at the target rate",
	MsgDisaggSpares:          "the figures leave the spares out, as while a reclaimed instance is replaced",
	MsgDisaggTitle:           "Disaggregated prefill and decode",
	MsgHowAccurate:           "How accurate is this?",
	MsgRPS:                   "Requests per second (serving; empty = off)",
	MsgTTFTTarget:            "Time to first token target, ms",
	MsgTPOTTarget:            "Time per output token target, ms",
	MsgTTFTDefault:           "empty: %s ms, the default for %s-token prompts (2 s, or 0.2 s per 1,000 tokens where longer; an estimate after MLPerf Inference's server limits); 0: no target",
	MsgSLOStat:               "Latency targets at",
	MsgSLOMean:               "mean",
	MsgSLOMedian:             "p50 (median)",
	MsgGlobalBatch:           "Global batch (sequences per step; empty = one micro-batch per replica)",
	MsgOptimizerSteps:        "Optimizer steps",
	MsgServeTitle:            "Serving fleet (estimate)",
	MsgConcurrency:           "Requests in flight per replica",
	MsgReplicas:              "Replicas",
	MsgFleetGPUs:             "GPUs in all",
	MsgMonthly:               "Monthly bill (%s, 730\u00a0h)",

	MsgTPOT:                "Time per output token",
	MsgBoundHost:           "host (kernel launches, scheduler)",
	MsgBoundComm:           "communication",
	MsgAssumptions:         "Assumptions",
	MsgAssumptionsNote:     "Efficiencies the speed model assumes; empty uses the estimator's figure for this GPU and job (shown greyed), fitted on public measurements (see “How accurate is this?”). Shares of the datasheet peak, 0–1.",
	MsgMFUField:            "Training MFU (share of peak FLOP/s)",
	MsgInfMFUField:         "Prefill MFU (share of peak FLOP/s)",
	MsgBWField:             "Decode bandwidth use (share of peak)",
	MsgFXTitle:             "Exchange rates used to compare prices in other currencies",
	MsgCurrency:            "Currency",
	MsgPerUSD:              "per 1 USD",
	MsgPlanning:            "Planning every offer…",
	MsgFixToUpdate:         "The last answer, kept until the field marked in red is fixed.",
	MsgFixToAnswer:         "No answer yet: fix the fields marked in red.",
	MsgFixNamed:            "No answer yet: fix the fields marked in red: %s.",
	MsgMonthlyShort:        "Per month",
	MsgBatchCost:           "Batch job cost",
	MsgBatchTime:           "Batch job time",
	MsgE2EP95:              "Request latency (p95)",
	MsgRequests:            "Requests in the batch job",
	MsgPricing:             "Pricing",
	MsgCurrencyField:       "Currency",
	MsgProviderKind:        "Provider kind",
	MsgCountry:             "Provider's country (e.g. US, RU, CN)",
	MsgBudget:              "Budget, in the display currency (job, or month for serving)",
	MsgDeadline:            "Deadline, hours",
	MsgMinVCPU:             "Minimum vCPUs per instance",
	MsgMinRAM:              "Minimum RAM per instance, GiB",
	MsgAny:                 "any",
	MsgFilters:             "Pricing and filters",
	MsgPlanNotes:           "Planner notes",
	MsgDefaultIs:           "default",
	MsgPlanAssumptionsNote: "What the planner assumes about spot instances and checkpoints; empty uses the default shown under each field.",
	MsgSpotRateField:       "Spot interruptions (share of instances reclaimed per month, 0–1)",
	MsgCkptWriteField:      "Checkpoint write rate per instance per second (e.g. 2GB)",
	MsgRestartField:        "Restart time after a spot reclaim (e.g. 10m, 600)",
	MsgSrcSpot:             "per offer: the midpoint of its AWS Spot Advisor bucket (25% for “>20%”); offers without a bucket: 20%, the worst bucket’s lower edge (assumption)",
	MsgSrcCkpt:             "one cloud block volume’s write throughput: AWS EBS gp3 is provisioned up to 1,000 MiB/s (AWS EBS User Guide; assumption)",
	MsgSrcRestart:          "re-provisioning an instance and reloading weights and optimizer state (assumption)",
	MsgSpotNow:             "Spot on the cheapest plan for this GPU: reclaims per month",
	MsgYoungDaly:           "checkpoint every (Young/Daly)",
	MsgSrcAPINone:          "the catalog lists no hosted API for this model",
	MsgHostedNote:          "Serving: a hosted API to compare with self-hosting, USD per 1M input and output tokens; empty uses the catalog’s dated list price for the model.",
	MsgAPIInField:          "Hosted API: USD per 1M input tokens",
	MsgAPIOutField:         "Hosted API: USD per 1M output tokens",
	MsgHostedTitle:         "Hosted API against self-hosting at the target request rate",
	MsgHostedAPI:           "Hosted API",
	MsgAPIPrices:           "Input / output per 1M",
	MsgAPIMonthly:          "API per month",
	MsgSelfHosted:          "Self-hosted per month",
	MsgBreakEven:           "Break-even rate",
	MsgBreakEvenAlways:     "%s; at every rate above %s",
	MsgInstancesOf:         "%s of %s",
	MsgPerSecond:           "req/s",
	MsgAsSet:               "As set",
	MsgCostAtSpeed:         "Per 1M generated tokens at this speed",
	MsgJobCostAtSpeed:      "Job cost at this speed",
	MsgPlannerBestPerM:     "Planner's cheapest plan on this GPU, per 1M generated tokens",
	MsgPlannerBestJob:      "Planner's cheapest plan on this GPU, job cost",
	MsgInFlight:            "requests in flight",
	MsgPrOnDemand:          "on-demand",
	MsgPrSpot:              "spot",
	MsgPrRes1:              "reserved 1 year",
	MsgPrRes3:              "reserved 3 years",

	MsgFleetOf:       "Fleet of the cheapest pick",
	MsgFleetHere:     "The same load on the selected GPU",
	MsgPerMonthUnit:  "/month",
	MsgPerRequestP95: "p95 %s per request",
	MsgUnknownNet:    "Plan across instances whose provider names no network between them (assumed 100 Gbit/s)",
	MsgCommShare:     "communication %s of the step",
	MsgCommFact:      "Communication",

	MsgFreshnessField: "Freshness window, days (the picks use prices no older)",
	MsgPriceAsOf:      "Price as of %s",
	MsgVerifyPrice:    "price from %s — verify",
	MsgVerifyDated:    "verify the price",
	MsgAge180to365:    "180 days to a year old",
	MsgAgeUndated:     "undated",
	MsgOwnUndated:     "undated: your prices are never judged stale",
	MsgFarBelow:       "under half what other providers ask for this GPU — verify",
	MsgSourceOpen:     "its source quotes this price as a floor (\"starting at\") or leaves a condition of it open — verify",
	MsgSpotFarBelow:   "spot price far under its own on-demand price, deeper than the clouds' documented discounts — verify",
	MsgFromListing:    "marketplace “from” price: the cheapest listing when read",
	MsgFooterFresh:    "Prices by age today: %s of %s offers under 90 days old, %s 90 to 180 days, %s 180 days to a year, %s over a year, %s undated; %s carry an estimated date.",
	MsgLoadTitle:      "Latency against load (one engine copy, simulated)",
	MsgLoadX:          "Requests/s per engine copy (Poisson arrivals)",
	MsgLoadY:          "Latency (log scale)",
	MsgLoadTTFT95:     "TTFT %s",

	MsgLoadTTFTTarget: "TTFT target (%s) %s",

	MsgLoadOp:          "this plan: %s req/s per copy",
	MsgLoadSat:         "saturation: %s req/s",
	MsgLoadCaptionOne:  "One engine copy (%s) simulated with the planner's settings. The plan serves %s req/s on this one copy: %s TTFT %s, %s TPOT %s. A copy saturates at %s req/s: above it requests arrive faster than it completes them, and a run longer than the %s requests simulated here queues without bound.",
	MsgLoadCaption:     "One engine copy (%s) simulated with the planner's settings. The plan spreads %s req/s over %s copies, %s req/s each: %s TTFT %s, %s TPOT %s. A copy saturates at %s req/s: above it requests arrive faster than it completes them, and a run longer than the %s requests simulated here queues without bound.",
	MsgBindTTFT:        "Replicas set by %s TTFT at %s req/s",
	MsgBindTPOT:        "Replicas set by %s TPOT at %s req/s",
	MsgBindThroughput:  "Replicas set by throughput: fewer would run above the utilisation cap at %s req/s",
	MsgBindNone:        "One replica meets the targets at %s req/s",
	MsgLimitNone:       "no request waited for an engine slot",
	MsgLimitSeqs:       "each engine copy limited by its running-sequence cap (max_num_seqs)",
	MsgLimitKV:         "each engine copy limited by its KV cache",
	MsgLimitTokens:     "each engine copy limited by its batched-token budget (prefill)",
	MsgLimitPolling:    "each engine copy limited by its scheduling interval",
	MsgBindAnd:         "%s; %s",
	MsgBenchTitle:      "Your benchmark",
	MsgBenchHelp:       "Fit the engine to a serving benchmark you ran (vllm bench serve JSON, SGLang bench_serving JSON lines, genai-perf's CSV, or a CSV concurrency,ttft_ms,tpot_ms) with the command line: rightsize calibrate --gpu G --engine E --model M FILE. Paste the link form it prints here: its per-request cost, prefill MFU and decode bandwidth share then set the speed and the plans (on every GPU, as the Assumptions box's figures do) when its GPU and engine are selected, and the link carries it.",
	MsgBenchPick:       "Calibration (gpu,engine,request ms,prefill MFU,decode bandwidth share)",
	MsgBenchApplied:    "Calibration applied for %s on %s: request overhead %s, prefill MFU %s, decode bandwidth share %s.",
	MsgBenchMismatch:   "The calibration in this link was fitted for %s on %s; it applies when that GPU and engine are selected.",
	MsgBenchBad:        "The calibration in this link does not read; it is ignored.",
	MsgJobTokens:       "%s training tokens",
	MsgJobRequests:     "%s requests × %s tokens",
	MsgJobRate:         "%s requests/s · %s + %s tokens each",
	MsgJobWithin:       "within %s",
	MsgJobBudget:       "budget %s",
	MsgJobBudgetMonth:  "budget %s a month",
	MsgJobFor:          "Planned for",
	MsgJobSetupOn:      "memory and speed below on",
	MsgBadCurve:        "want 24 requests/s figures, one per hour, separated by commas",
	MsgOwnNeeds:        "needed with a purchase price",
	MsgCurveField:      "Daily load, req/s per hour (24, comma-separated)",
	MsgWorkloadField:   "Request mix",
	MsgWorkloadAsSet:   "as set (one prompt and answer length)",
	MsgOwnPriceField:   "Own instead: price per GPU, USD",
	MsgKWhField:        "Electricity, USD per kWh",
	MsgOwnYearsField:   "Depreciation, years",
	MsgFleetTitle:      "Daily fleet",
	MsgFleetBest:       "Best mix on %s: %s a month — %s",
	MsgFleetCommit:     "%s replicas %s, the rest %s",
	MsgFleetNoCommit:   "nothing reserved: %s by the hour",
	MsgFleetSaving:     "%s (%s) less than all on demand",
	MsgFleetNoSpot:     "no spot: the cheapest mix on spot, %s a month, saves less than a second spare replica costs (%s), and one offer's spot replicas are reclaimed together",
	MsgFleetPeak:       "%s replicas at the peak (%s req/s), %s at the quietest hour",
	MsgFleetChoice:     "Price model",
	MsgFleetAllOD:      "All on demand",
	MsgFleetAllSpot:    "All on spot (with a spare)",
	MsgFleetAll1y:      "All committed for 1 year",
	MsgFleetAll3y:      "All committed for 3 years",
	MsgFleetBestMix:    "Best mix",
	MsgFleetUnpriced:   "no price",
	MsgFleetChartTitle: "Replicas and cost by hour of the day",

	MsgFleetNeed:             "needed",
	MsgFleetCostHour:         "cost per hour",
	MsgMixTitle:              "Mixed fleet",
	MsgMixSaves:              "%s a month against %s on the best single offer (%s): saves %s (%s)",
	MsgMixSame:               "one offer serves every request size best: %s",
	MsgMixGroup:              "%s: %s of requests (%s)",
	MsgOwnTitle:              "Own the GPUs instead?",
	MsgOwnLine:               "%s GPUs owned: %s per busy GPU-hour against %s rented; %s a month",
	MsgOwnBreakEven:          "against on-demand, owning pays off above %s utilisation (the fleet's own: %s)",
	MsgOwnNever:              "against on-demand, renting stays cheaper at any utilisation",
	MsgFleetUnsized:          "no fleet: %s",
	MsgFleetReserved:         "reserved",
	MsgLoadPeak:              "Peak while loading (quantising on the GPU)",
	MsgNeeded:                "Needed (without cached blocks the allocator frees under pressure)",
	MsgBackwardEndPeak:       "Peak at the end of the backward pass (FSDP's root unit gathering its gradients)",
	MsgOptimizerStepPeak:     "Peak during the optimizer step (foreach AdamW's temporary, one moment's size)",
	MsgTextVision:            "Parameters: text %s + vision %s",
	MsgTextOnly:              "Text only (leave the vision tower unloaded)",
	MsgKernel:                "Weight-only kernel",
	MsgEngineVersion:         "Engine release (empty: current)",
	MsgHost:                  "Host CPU (class or CPU name; empty: the GPU's usual host)",
	MsgOwnNoWatts:            "no power figure for %s in the catalog: owning is not priced",
	MsgLaunchTitle:           "Run it",
	MsgLaunchHelp:            "Launch settings for the cheapest pick, from the figures it was planned with: check the paths and the model before running.",
	MsgLaunchKind:            "Launcher",
	MsgLaunchRouter:          "Router of the disaggregated workers",
	MsgRouterEngine:          "The engine's own",
	MsgCopyLaunch:            "Copy",
	MsgLaunchCopied:          "Launch settings copied",
	MsgLaunchNoSky:           "SkyPilot does not support this provider: pick another launcher or an offer on a SkyPilot cloud",
	MsgLaunchModelParallel:   "this launcher writes data-parallel training only; the plan splits the model (TP, PP or CP): use Megatron-style launchers",
	MsgLaunchSkyServePorts:   "SkyServe sends each replica's requests to one port, and this plan runs several engine copies on each instance, each on its own port: pick the engine's launcher and put a load balancer in front of the copies",
	MsgLaunchLayout:          "this engine cannot start the plan's attention data parallelism or expert parallelism for this model on these GPUs: pick another engine, or a layout without attention data parallelism",
	MsgLaunchPrecision:       "DeepSpeed cannot run this plan's pure 16-bit training as priced (with its optimizer offloaded, or in fp16 at ZeRO 1–3, it keeps a 32-bit copy or refuses to start): pick the FSDP launcher, or plan with mixed precision",
	MsgLaunchStack:           "this launcher runs another program than the one the plan is sized for: a fine-tune named by Lightning's precision (bf16-true) plans LitGPT's fine-tune scripts, which only the LitGPT launcher runs; other precisions plan the Hugging Face Trainer's",
	MsgLaunchLitGPT:          "LitGPT's fine-tune scripts cannot run this pick as sized: they train on one GPU without activation checkpointing, or under FSDP full shard with every block recomputed, with nothing offloaded to the host, QLoRA on one GPU only, and no model split (TP, PP, EP or CP), in the precisions their --precision names and the adapter sets their --lora_* flags give; rightsize plan --emit litgpt says what differs",
	MsgLaunchLitGPTModel:     "LitGPT 0.4.13's config hub has no checkpoint of this model (litgpt download list names those it takes): pick another model, or plan with precision bf16 for a Hugging Face Trainer launch",
	MsgLaunchNone:            "no launch settings for this plan",
	MsgCP:                    "Context parallel (CP)",
	MsgLeverMFU:              "the figure rests most on the MFU assumed (%s): enter your measured MFU under Assumptions",
	MsgLeverInfMFU:           "the figure rests most on the prefill MFU assumed (%s): enter your measured one under Assumptions, or your benchmark",
	MsgLeverBW:               "the figure rests most on the share of memory bandwidth decoding reaches (%s): enter your measured share under Assumptions, or your benchmark",
	MsgLeverHost:             "the figure rests most on the host's time per step: name your host CPU and engine release under the measured overrides",
	MsgLeverComm:             "the figure rests most on the network between the GPUs: fewer GPUs per model copy, or an offer with a named cluster fabric, changes it most",
	MsgCommHidden:            "%s of the step exposed; all communication takes %s per step, the rest hidden under compute",
	MsgDataset:               "Dataset tokens (with epochs: replaces training tokens)",
	MsgEpochs:                "Epochs",
	MsgJobEpochs:             "%s epochs × %s tokens",
	MsgPerEpoch:              "%s per epoch",
	MsgFirstWave:             "mean of a benchmark at %s in flight, its first wave %s late, as a cold start after the warm-up (estimate)",
	MsgNeedsDataset:          "give the dataset's tokens for epochs",
	MsgEP:                    "Expert parallel (EP, MoE)",
	MsgRedundant:             "Redundant experts (EPLB copies)",
	MsgAsync:                 "Async scheduling (vLLM --async-scheduling, opt-in before 0.14)",
	MsgNoOverlap:             "Overlap scheduler off (SGLang, TensorRT-LLM)",
	MsgDraft:                 "MTP draft tokens per step (speculative decoding; 0: off)",
	MsgGraphCap:              "Largest decode batch from CUDA graphs (SGLang --cuda-graph-max-bs; larger batches decode eager; 0: the job's batch)",
	MsgDraftAccept:           "Draft acceptance (0: measured for the model)",
	MsgMTPDetail:             "MTP draft tokens a step: %s; tokens accepted a step: %s",
	MsgDP:                    "Attention data parallel (DP, serving)",
	MsgKindHyperscaler:       "hyperscaler",
	MsgKindGPUCloud:          "GPU cloud",
	MsgKindMarketplace:       "marketplace",
	MsgKindBroker:            "broker",
	MsgKindDecentralized:     "decentralized network",
	MsgFXLine:                "Prices in %s: converted at 1 USD = %s (%s; the rates' sources under Assumptions)",
	MsgCompareAdd:            "+ Compare",
	MsgCompared:              "✓ Comparing",
	MsgCompareRemove:         "Remove from comparison",
	MsgComparePlans:          "Plans side by side",
	MsgCompareFull:           "The comparison holds %s plans: remove one to add another.",
	MsgCompareNoPlan:         "—: no plan on this offer for the job as set.",
	MsgPriceDate:             "Price date",
	MsgCompareIgnored:        "Left out of the comparison (not an offer ID, a repeat, or past %s plans)",
	MsgVerifyHF:              "time model.generate() at these lengths after one pass over the same lengths: on PyTorch 2.11 with an H100 the first pass builds a cuDNN attention plan for each new length and reads 3–6× slower",
	MsgPresetChat:            "conversation service (Azure LLM inference trace 2023, conversation: 19,366 requests)",
	MsgPresetCode:            "code completion service (Azure LLM inference trace 2023, code: 8,819 requests)",
	MsgPreset1k1k:            "InferenceX fixed-length benchmark shape 1k/1k: balanced prompts and answers",
	MsgPreset8k1k:            "InferenceX fixed-length benchmark shape 8k/1k: long prompts, short answers",
	MsgPreset1k8k:            "InferenceX fixed-length benchmark shape 1k/8k: short prompts, long answers",
	MsgWithCheckpointing:     "With gradient checkpointing",
	MsgFewestGPUs:            "Fewest of this GPU that fit",
	MsgMoreThanGPUs:          "more than %s",
	MsgRegionField:           "Hosted in (region prefix, e.g. eu-, ru)",
	MsgCheaperFlagged:        "Cheaper if the price holds — verify: %s, %s",
	MsgOwnPriceMark:          "your price",
	MsgOwnUnfit:              "Your price, not picked: %s does not run this job: %s",
	MsgOwnUnfitMore:          "and %s more of your offers do not run it",
	MsgFitsWith:              "Fits with",
	MsgLayoutChosen:          "Layout chosen",
	MsgLayoutWhy:             "%s fits at %s; %s",
	MsgLayoutNeeds:           "%s needs %s of %s usable",
	MsgSchedPlain:            "plain 1F1B",
	MsgSchedInterleaved:      "interleaved 1F1B, %d chunks a stage",
	MsgLeverCheckpointing:    "gradient checkpointing",
	MsgLeverZeRO3:            "ZeRO-3",
	MsgLeverMicroBatch:       "micro-batch",
	MsgLeverOffloadOptimizer: "optimizer offload to CPU",
	MsgLeverOffloadAll:       "parameter offload to CPU",
	MsgLeverMoreGPUs:         "more GPUs",
	MsgLeverZeRO2:            "ZeRO-2",
	MsgLeverPlain1F1B:        "plain 1F1B (no interleaving)",
	MsgFixPerGPU:             "%s per GPU on %s GPUs",
	MsgFixOneGPU:             "%s on one GPU",
	MsgFixHost:               "host RAM %s per GPU",
	MsgLoadTTFT50:            "TTFT p50",
	MsgLoadTPOT95:            "TPOT %s",
	MsgLoadTPOTTarget:        "TPOT target (%s) %s",
	MsgNoAnswerBudget:        "Plans run this job, but none within your budget: raise it, or clear it to see what the job costs.",
	MsgNoAnswerDeadline:      "Plans run this job, but none within your deadline: extend it, or clear it to see how long the job takes.",
	MsgNoAnswerNoTokens:      "No serving plan: the planner sizes a fleet by the tokens a model generates, and this one generates none (no KV cache). The memory it needs and the GPUs that fit are below.",
	MsgNoAnswerGGUF:          "No serving plan: a GGUF format (Q4_K_M and the like) runs on llama.cpp, and a request rate is planned on the continuous-batching engines (vLLM, SGLang, TensorRT-LLM), which do not run it. Choose int4 precision (AWQ or GPTQ, which vLLM runs) for 4-bit weights, or plan the GGUF model as a batch of requests.",
	MsgOwnCheaper:            "owning: %s a month against %s for the best rented fleet of the same day: owning is cheaper",
	MsgOwnDearer:             "owning: %s a month against %s for the best rented fleet of the same day: renting is cheaper",
	MsgFleetVsCard:           "The cheapest pick above (%s a month) holds the peak on demand all day; this fleet follows the day's load and buys its hours the cheapest way: %s a month.",
	MsgKindsDefault:          "clouds and brokers (default)",
	MsgKindsAny:              "any, with marketplaces and decentralised networks",
	MsgKindsNote:             "Plans on hyperscalers, GPU clouds and brokers; marketplaces and decentralised networks are under Filters, provider kind.",
	MsgWidened:               "Without the filter “%s”: %s at %s an hour, %s.",
	MsgNoAnswerRunLength:     "Plans run this pre-training job, but none within the run length assumed without a deadline: the longest published pre-training run (BLOOM 176B's). Set a deadline, or 0 for none.",
	MsgRunLengthMissed:       "No plan of at most %s instances finishes within %s; the fastest, %s, takes %s for %s, and %s need at least %s of its GPUs.",
	MsgRunLengthWithout:      "Planned to finish within %s, the longest published pre-training run (BLOOM 176B), as no deadline is set; without it the cheapest plan is %s, taking %s for %s. Set a deadline to change it, 0 for none.",
	MsgRunLengthRaised:       "No plan of at most %s instances, the default limit, finishes within %s, so the limit is raised to %s instances for it.",
	MsgNoneSameReason:        "every offer is refused for one reason, %s",
	MsgNoneEngineRuns:        "%s; engines that run the job on them: %s",
	MsgNoneEngineAlike:       "%s, nor does any other engine the plan serves a request rate on (%s)",
	MsgNoneCause:             "Nothing the filters leave runs this job: %s.",
	MsgNoneCauseEngine:       "Nothing the filters leave runs this job: %s. Choose one under %s.",
	MsgNoneMixed:             "the offers are refused for different reasons, the most common first: %s",
	MsgNoneMixedRest:         "%s × other reasons",
	MsgNoneMixedSep:          "; ",
	MsgNotWhole:              "not a whole number",
	MsgAttnKernel:            "Attention kernel (training)",
	MsgAttnFA2:               "FlashAttention-2 / Triton",
	MsgAttnCuDNN:             "cuDNN fused (Transformer Engine: Megatron-Core, NeMo)",
	MsgAttnFA3:               "FlashAttention-3",
	MsgAttnKernelHelp:        "cuDNN: Megatron-Core and NeMo on Hopper; FA2: llm-foundry, Hugging Face. On an H100 ×1.62 (cuDNN), ×1.74 (FA3) the FA2 speed; memory unchanged.",
	MsgAdapterDType:          "Adapter dtype",
	MsgAdapterAuto:           "auto (mixed precision: fp32; 16-bit only: the model's)",
	MsgAdapterDTypeHelp:      "Hugging Face PEFT keeps adapters in fp32 over a bf16 base; without autocast each adapted layer then keeps an fp32 copy of its input. torchtune and LitGPT keep them in the model's dtype.",
}

var MessagesRU = [NMsgs]string{
	MsgTagline: "Сколько видеопамяти нужно модели, какие GPU подходят и где их арендовать.",
	MsgModel:   "Модель", MsgTask: "Задача", MsgPrecision: "Точность", MsgKV: "Тип KV-кэша", MsgBatch: "Размер батча",
	MsgSeq: "Длина последовательности (токены)", MsgOptimizer: "Оптимизатор", MsgCheckpointing: "Пересчёт активаций (gradient checkpointing)",
	MsgFlash: "FlashAttention / SDPA", MsgLoRARank: "Ранг LoRA", MsgEngine: "Движок инференса",
	MsgMemUtil: "Доля памяти (%s %s; 0: значение движка по умолчанию%s)", MsgGPU: "GPU", MsgGPUs: "Число GPU", MsgZeRO: "Стадия ZeRO (3 = FSDP)",
	MsgTP: "Тензорный параллелизм", MsgPP: "Стадии конвейера", MsgOffload: "Выгрузка на CPU", MsgUnits: "Единицы", MsgLanguage: "Язык",
	MsgPerGPU: "Память на GPU", MsgPart: "Часть", MsgMemory: "Память", MsgShare: "Доля", MsgUncertainty: "±",
	MsgWeights: "Веса", MsgGradients: "Градиенты", MsgOptimizerStates: "Состояния оптимизатора", MsgActivations: "Активации",
	MsgLogits: "Логиты / потери", MsgKVCache: "KV-кэш", MsgCUDAContext: "Контекст CUDA", MsgAllocator: "Резерв аллокатора",
	MsgNCCL: "Буферы NCCL", MsgCUDAGraphs: "CUDA graphs", MsgQuantState: "Состояние квантизации", MsgTotal: "Итого",
	MsgUsable: "Доступно на этом GPU", MsgFits: "Помещается", MsgDoesNotFit: "Не помещается", MsgHeadroom: "запас",
	MsgShortBy: "не хватает", MsgParams: "Параметры", MsgActive: "Активных на токен", MsgKVPerToken: "KV-кэш на токен",
	MsgKVPool: "Пул KV", MsgMaxBatch: "Наибольший батч", MsgMaxSeq: "Наибольшая длина",
	MsgFixFields: "Исправьте выделенные поля, чтобы увидеть оценку.", MsgGPUFit: "Какие GPU подходят",
	MsgGPUCol: "GPU", MsgVRAM: "Память", MsgVRAMPerGPU: "Память одного GPU", MsgWithYourSetup: "С вашим числом GPU", MsgMinGPUs: "Нужно GPU",
	MsgFromPrice: "От (по требованию)", MsgNone: "—", MsgOffers: "Где арендовать", MsgProvider: "Провайдер",
	MsgInstance: "Инстанс", MsgOnDemand: "По требованию /ч", MsgSpot: "Спот /ч", MsgReserved: "Резерв /ч", MsgRegion: "Регион",
	MsgShowAll: "Показать все", MsgNoOffers: "В каталоге нет предложений с этим GPU.",
	MsgRange: "вне допустимого диапазона", MsgNotNumber: "не число", MsgUnknownChoice: "неизвестное значение",
	MsgIncompatible: "несовместимо с другими настройками", MsgWarnings: "Замечания",
	MsgPickGPU:     "Нажмите на строку, чтобы выбрать GPU.",
	MsgPricesNote:  "Цены за инстанс в час в валюте провайдера; у каждой строки есть дата и источник. Это оценка, а не оферта.",
	MsgQuant:       "Формат весов",
	MsgLoRATargets: "Слои LoRA",
	MsgSelective:   "Выборочный пересчёт (только attention)",
	MsgMaxBatched:  "Токенов за шаг (%s %s; 0: значение движка по умолчанию%s)",
	MsgDefaultHere: ", на этом GPU %s",
	MsgEager:       "Без CUDA graphs (%s)",
	MsgHIPContext:  "Контекст HIP", MsgHIPGraphs: "HIP graphs", MsgRuntimeContext: "Контекст среды выполнения", MsgHPUGraphs: "HPU graphs",
	MsgEagerHIP: "Без HIP graphs (%s)", MsgEagerHPU: "Без HPU graphs (%s)",
	MsgRangeFromTo:   "от %s до %s",
	MsgEngineAuto:    "Авто (как в плане)",
	MsgEngineAutoWhy: "авто: %s",

	// A fine-tune named by a Lightning precision (LitGPT's defaults taken).
	MsgStackDefaults:     "Настройки %s по умолчанию",
	MsgStackDefaultsWhy:  "точность названа по-Lightning, поэтому задача запускается скриптами дообучения %s с их значениями по умолчанию там, где поле не задано (%s)",
	MsgStackRefusesQLoRA: "lora.py из %s не запускает QLoRA больше чем на одном GPU: выберите один GPU или LoRA",
	MsgCkptDefault:       "вкл.: по умолчанию для QLoRA",
	MsgCkptDefaultWhy:    "для QLoRA включён по умолчанию, как его включают prepare_model_for_kbit_training из PEFT, SFTConfig из TRL, qlora.py из статьи о QLoRA и рецепты QLoRA в torchtune; снимите флажок, если ваш скрипт его выключает",

	MsgOverrides:      "Настройки движка и замеры памяти",
	MsgOverridesNote:  "Оставьте пустым, чтобы взять оценку. Размер с единицей: 1343MiB, 0.5GiB, 2GB.",
	MsgUsableOverride: "Доступная память на GPU (torch.cuda.mem_get_info)",
	MsgNotSize:        "не размер с единицей (например, 1343MiB, 0.5GiB)",
	MsgTaskInference:  "Инференс",
	MsgTaskTrain:      "Предобучение",
	MsgTaskFinetune:   "Полное дообучение",
	MsgTaskLoRA:       "LoRA",
	MsgTaskQLoRA:      "QLoRA (4-битная база)",
	MsgOffNone:        "Нет",
	MsgZeROAuto:       "авто (предобучение на нескольких репликах: наименьшая от 1, при которой помещается)",
	MsgOffOptimizer:   "Состояния оптимизатора",
	MsgOffAll:         "Состояния оптимизатора и параметры",
	MsgTargetsQV:      "Запрос и значение (q, v)",
	MsgTargetsAttn:    "Attention (q, k, v, o)",
	MsgTargetsAll:     "Все линейные слои",
	MsgQuantAuto:      "Авто (по точности и движку)",
	MsgSheetTitle:     "Ваши цены",
	MsgSheetHelp:      "Загрузите прайс-лист (CSV или JSON: offer_id или provider + instance_type, цены за инстанс в час, currency, as_of, source), чтобы сравнить договорные цены. Файл остаётся в этом браузере.",
	MsgSheetPick:      "Прайс-лист",
	MsgSheetClear:     "Вернуть цены каталога",
	MsgSheetRows:      "строк",
	MsgSheetOffers:    "изменено или добавлено предложений",

	MsgSheetUnreadable:       "браузер не смог прочитать файл",
	MsgYourPrice:             "ваша цена",
	MsgRulesTitle:            "Эмпирические правила и эта оценка",
	MsgRulesNote:             "Что дают распространённые правила для той же задачи, если одна копия модели стоит на одном GPU. Отрицательная ошибка — правило занижает память.",
	MsgRuleParams4:           "Параметры × 4 байта (наивная формула из руководств)",
	MsgRuleParamMem15:        "Память параметров × 1,5 (руководства, обучение)",
	MsgRuleWeights12:         "Веса × 1,2 (распространённая формула для инференса)",
	MsgRuleHF18:              "18 байт на параметр, AdamW mixed precision (Hugging Face; без активаций)",
	MsgRuleSays:              "Правило даёт",
	MsgThisEstimate:          "Rightsize, один GPU",
	MsgOffBy:                 "Ошибка правила",
	MsgYourModel:             "Своя модель",
	MsgConfigHelp:            "Нет в списке? Загрузите её config.json с Hugging Face: параметры, GQA/MoE/MLA и KV-кэш берутся из него. Файл остаётся в этом браузере.",
	MsgNoCustomModel:         "ваш config.json не загружен в этом браузере: загрузите его в разделе «Своя модель»",
	MsgUpdateReady:           "Доступна новая версия Rightsize.",
	MsgLinkIgnored:           "Пропущено в ссылке (не читается как URL)",
	MsgSheetApplying:         "применяется",
	MsgSavedKept:             "Сохранён с прошлого визита, не применён (хранится, пока вы не загрузите исправленный файл или не удалите его):",
	MsgNotKept:               "Применён, но хранилище браузера переполнено или недоступно: к следующему визиту он не сохранится.",
	MsgConfigDrop:            "Удалить сохранённый config",
	MsgReload:                "Обновить",
	MsgNotCount:              "не число (например, 1B, 500M, 2T)",
	MsgMs:                    "мс",
	MsgSec:                   "с",
	MsgMin:                   "мин",
	MsgHours:                 "ч",
	MsgDays:                  "дн.",
	MsgSpeedTitle:            "Скорость и цена (оценка)",
	MsgSpeedNote:             "Оценка roofline по паспорту GPU при эффективностях из основания каждой цифры (принятый MFU и использование полосы; их меняют в «Допущениях»). Итоговый MFU — то, что остаётся после обменов, простоев конвейера и накладных расходов хоста. Реальные запуски зависят от движка и ядер; диапазон — расхождение с публичными измерениями.",
	MsgThroughputTrain:       "Скорость обучения, токенов/с",
	MsgThroughputInfer:       "Сгенерированных токенов/с, все запросы",
	MsgJobTime:               "Время на обучающие токены",
	MsgGPUHours:              "GPU-часы",
	MsgTTFT:                  "Время до первого токена",
	MsgPerSeq:                "Токенов/с на запрос",
	MsgForwardPass:           "Один прямой проход на запрос",
	MsgThroughputEncoder:     "Прочитанных токенов/с, все запросы",
	MsgCostAtSpeedTokens:     "За 1M прочитанных токенов при этой скорости",
	MsgPlannerBestPerMTokens: "Самый дешёвый план на этом GPU (планировщик), за 1M прочитанных токенов",
	MsgJobCost:               "Стоимость задачи",
	MsgPerMTokens:            "За 1M токенов",
	MsgTrainTokens:           "Обучающие токены (например, 1B, 2T)",
	MsgOutputTokens:          "Генерируемых токенов на запрос (из длины; 0: её половина)",
	MsgNoPerf:                "Нет оценки скорости: в каталоге нет FLOPS или пропускной способности этого GPU.",
	MsgNoPerfNoFit:           "Нет оценки скорости на заданных GPU: задача на них не помещается.",
	MsgNoPerfGeneric:         "Нет оценки скорости: обобщённая модель — это число параметров без схемы внимания, оценена только её память выше.",
	MsgMFUImplied:            "Итоговый MFU",

	MsgCheapest: "дешевле всех",
	MsgSortBy:   "Сортировка",
	MsgSortVRAM: "Память",
	MsgSortCost: "Стоимость задачи",

	MsgCopyLink:           "Скопировать ссылку",
	MsgLinkCopied:         "Ссылка скопирована: она откроет ровно эту оценку, в том числе офлайн.",
	MsgBadConfig:          "не удалось прочитать config.json",
	MsgInvalid:            "неверный ввод",
	MsgNoModel:            "нет архитектуры модели: сначала загрузите config",
	MsgHWNoBF16:           "у этого GPU нет тензорных ядер bf16 (Turing, Volta): фреймворки переходят на fp16 или эмулируют bf16 медленнее",
	MsgHWNoFP8:            "у этого GPU нет тензорных ядер fp8 (они появились в Ada и Hopper): веса fp8 расширяются, ускорения fp8 нет",
	MsgUnitGB:             "ГБ",
	MsgUnitGiB:            "ГиБ",
	MsgBillionSuffix:      " млрд",
	MsgMillionSuffix:      " млн",
	MsgKiB:                "КиБ",
	MsgTokens:             "токенов",
	MsgModelLimit:         "предел модели",
	MsgOverContextYaRN:    "запрос из %s токенов длиннее контекста в %s токенов, который объявляет config.json запускаемого чекпойнта, и движки его отклонят; по карточке модели она работает с %s токенами при YaRN: добавьте в config.json \"rope_scaling\": %s, задайте max_position_embeddings = %s и загрузите его в разделе «Своя модель» (карточка предупреждает, что на коротких текстах качество может снизиться) или сократите запросы до %s токенов",
	MsgInputs:             "Параметры",
	MsgUnitsGiB:           "ГиБ (%s)",
	MsgUnitsGB:            "ГБ (спецификация)",
	MsgFooter:             "Формулы и цены — с источником и датой; числа — оценки с интервалом. Страница работает офлайн, ничего не отправляя.",
	MsgOpenInRightsize:    "Открыть в Rightsize",
	MsgFWeights:           "параметры × байт на параметр формата весов (с масштабами групп у квантованных форматов)",
	MsgFGradients:         "обучаемые параметры × байты градиента, делятся между GPU при ZeRO-2/3",
	MsgFGradientsInFlight: "в начале обратного прохода: градиенты LM-головы и одного блока, которые вычисляются; шарды целиком — в его конце",
	MsgFOptimizer:         "обучаемые параметры × байты оптимизатора (AdamW: fp32-копия и два момента), делятся при ZeRO-1/2/3",
	MsgFActivations:       "на слой: пакет × последовательность × скрытый размер × байты, по Korthikanti et al. 2022; меньше с чекпоинтингом",
	MsgFLogits:            "пакет × последовательность × словарь × байты логитов и функции потерь",
	MsgFKV:                "2 × слои × KV-головы × размер головы × токены × байты KV (MLA: сжатый латент)",
	MsgFOverhead:          "измеренные накладные расходы среды (контекст CUDA, аллокатор, NCCL, CUDA graphs) по публичным измерениям",
	MsgBoundCompute:       "вычисления (тензорные FLOPS)",
	MsgBoundBandwidth:     "пропускная способность памяти",
	MsgEffMFU:             "принятый MFU",
	MsgEffBandwidth:       "использование полосы",
	MsgFTTFT:              "FLOP промпта ÷ (пик × MFU), или веса ÷ полоса, если это дольше",
	MsgFDecode:            "каждый шаг читает веса и KV-кэш: байты ÷ (полоса × использование), или FLOP ÷ (пик × MFU) при больших пакетах",
	MsgFCostPerM:          "цена инстанса в час ÷ (токенов в секунду × 3600) × 1 000 000",
	MsgFTrain:             "6 × параметры (+ внимание) FLOP на токен ÷ (GPU × пик × MFU), с обменом TP и пузырём конвейера",
	MsgFJobTime:           "токены обучения ÷ токенов в секунду",
	MsgFJobCost:           "время задачи в единицах оплаты предложения × цена инстанса в час",
	MsgVerifyVLLM:         "vllm bench serve (или llama-bench для llama.cpp) с этими длинами промпта и ответа",
	MsgVerifyTrain:        "запишите токены/с за 50 шагов после разогрева; MFU = 6 × параметры × токены/с ÷ (GPU × пик)",
	MsgVerifyMemory:       "torch.cuda.max_memory_allocated() после первых шагов (плюс контекст CUDA из %s)",

	MsgGPUHour:               "GPU·ч",
	MsgYear1:                 "1 г.",
	MsgYear3:                 "3 г.",
	MsgBasis:                 "Как это оценено",
	MsgBasisFormula:          "Формула",
	MsgBasisInputs:           "Входные данные",
	MsgBasisEfficiency:       "Принятая эффективность",
	MsgBasisBand:             "Интервал",
	MsgBasisBound:            "Ограничено",
	MsgBasisVerify:           "Как проверить",
	MsgAsOfSource:            "Дата · источник",
	MsgSource:                "источник",
	MsgEstimatedDate:         "дата оценочная",
	MsgAgeFresh:              "моложе 90 дней",
	MsgAgeAging:              "от 90 до 180 дней",
	MsgAgeOld:                "старше года",
	MsgPickCheapest:          "Дешевле всего",
	MsgPickFastest:           "Быстрее всего",
	MsgPickFaster:            "Быстрее",
	MsgPickValue:             "Лучшее соотношение",
	MsgAnswerTitle:           "Что арендовать",
	MsgNoAnswer:              "Ни одно предложение с ценой не может выполнить эту задачу: измените число GPU, точность или модель.",
	MsgAnswerNote:            "План по всем предложениям каталога для выбранной тарификации и валюты (другие валюты — по датированным курсам из «Допущений»). Оценки, а не оферты.",
	MsgUseThis:               "Выбрать",
	MsgPickMore:              "подробнее о плане",
	MsgParetoTitle:           "Цена и время каждого предложения, способного выполнить задачу (логарифмические шкалы); линия — фронт Парето",
	MsgParetoHint:            "Наведите на точку или коснитесь её, чтобы увидеть предложение; нажмите на неё или коснитесь ещё раз, чтобы выбрать его.",
	MsgParetoHintView:        "Наведите на точку или коснитесь её, чтобы увидеть предложение.",
	MsgPin:                   "В сравнение",
	MsgUnpin:                 "Открепить",
	MsgVerdict:               "Вердикт",
	MsgTokensPerSec:          "Токенов/с",
	MsgCheapestCost:          "Минимальная стоимость (этот GPU)",
	MsgCompareTitle:          "Закреплённое и текущее",
	MsgPinned:                "Закреплено",
	MsgLive:                  "Сейчас",
	MsgExportTitle:           "Экспорт",
	MsgExportCSV:             "Скачать CSV",
	MsgExportJSON:            "Скачать JSON",
	MsgCopyMarkdown:          "Копировать таблицу Markdown",
	MsgMarkdownCopied:        "Markdown скопирован.",
	MsgConfigTooBig:          "больше 256 КиБ: config.json весит несколько КБ",
	MsgConfigPick:            "Файл config.json",
	MsgConfigPaste:           "…или вставьте config.json сюда (или перетащите файл)",
	MsgFileTooBig:            "файл слишком большой",
	MsgBadSheet:              "прайс-лист отклонён",
	MsgWarnTightFit:          "помещается с запасом меньше 5%",
	MsgWarnSeqBeyondContext:  "последовательность длиннее контекста модели (max_position_embeddings)",
	MsgWarnKVHeadsReplicated: "тензорный параллелизм больше числа KV-голов: KV-головы дублируются",
	MsgWarnUnevenPipeline:    "слои не делятся поровну между стадиями конвейера: показана стадия, которой нужно больше всего памяти (при обучении меньше слоёв у первой и последней стадий)",
	MsgWarnNoActivationModel: "у модели нет размеров слоёв: активации не оценены",
	MsgWarnVisionApprox:      "параметры визуального энкодера приблизительны",
	MsgWarnFP8NotInLlamaCpp:  "в llama.cpp нет весов fp8: принят Q8_0",
	MsgWarnPoolBelowOneSeq:   "пул KV движка меньше одной последовательности",
	MsgWarnNoKVCache:         "у этой архитектуры нет KV-кэша",
	MsgWarnZeROWithoutDP:     "ZeRO не действует при степени параллелизма по данным 1",
	MsgWarnBlockSplit:        "такой тензорный параллелизм делит fp8-блоки чекпойнта, и движок не запустится: оценка — как если бы он загрузился",
	MsgWarnNoDPAttention:     "SGLang запускает эту модель без параллелизма внимания по данным, и такая раскладка не запустится: оценка — как если бы она работала с DeepEP",
	MsgHWNoFP4:               "у этого GPU нет тензорных ядер FP4 (они появились в Blackwell): веса FP4 распаковываются, ускорения FP4 нет",
	MsgHWEngineNoStart:       "движок инференса не запускается на GPU этого поколения: эти цифры — для конфигурации, которая не заработает, и план такие GPU пропускает",
	MsgHWEngineRelease:       "релизы vLLM начиная с 0.20.0 собраны без ядер для этого GPU (Volta): эти цифры требуют более раннего релиза, и план пропускает такие GPU, если релиз не указан",
	MsgHWLayoutRefused:       "движок не запускает эту раскладку (attention DP, EP или избыточные эксперты) на этом GPU так, как она оценена, и её запуск отказывает: эти цифры — для конфигурации, которая не заработает; оставьте DP, EP и избыточных экспертов пустыми, чтобы план выбрал сам",
	MsgHWFP8Marlin:           "у этого GPU нет тензорных ядер fp8: vLLM и SGLang запускают веса fp8 как W8A16 (Marlin) — в памяти и при чтении 8 бит, умножение с 16-битной скоростью: быстрее bf16 на малых батчах, медленнее на больших и на длинных промптах",
	MsgShipsFP8:              "чекпойнт этой модели хранит веса в fp8 (quantization_config в её config.json): vLLM и SGLang обслуживают её в fp8 при любой заданной точности, а в 16 битах веса заняли бы вдвое больше памяти — выберите точность fp8",
	MsgDisaggFigures:         "TTFT %s, TPOT %s (%s; средний TTFT %s), передача KV %s при целевой нагрузке",
	MsgDisaggSpares:          "цифры без учёта запаса, как пока отозванный инстанс заменяют",
	MsgDisaggTitle:           "Раздельные prefill и decode",
	MsgHowAccurate:           "Насколько это точно?",
	MsgRPS:                   "Запросов в секунду (сервинг; пусто — выкл.)",
	MsgTTFTTarget:            "Цель по времени до первого токена, мс",
	MsgTPOTTarget:            "Цель по времени на токен ответа, мс",
	MsgTTFTDefault:           "пусто: %s мс, по умолчанию для промптов в %s токенов (2 с или 0,2 с на 1000 токенов, если дольше; оценка по серверным лимитам MLPerf Inference); 0: без цели",
	MsgSLOStat:               "Статистика целей задержки",
	MsgSLOMean:               "среднее",
	MsgSLOMedian:             "p50 (медиана)",
	MsgGlobalBatch:           "Глобальный пакет (последовательностей за шаг; пусто — один микропакет на реплику)",
	MsgOptimizerSteps:        "Шагов оптимизатора",
	MsgServeTitle:            "Парк для сервинга (оценка)",
	MsgConcurrency:           "Одновременных запросов на реплику",
	MsgReplicas:              "Реплик",
	MsgFleetGPUs:             "Всего GPU",
	MsgMonthly:               "Счёт за месяц (%s, 730\u00a0ч)",

	MsgTPOT:                "Время на токен ответа",
	MsgBoundHost:           "хост (запуск ядер, планировщик)",
	MsgBoundComm:           "обмен данными",
	MsgAssumptions:         "Допущения",
	MsgAssumptionsNote:     "Эффективности, которые принимает модель скорости; пусто — значение оценщика для этого GPU и задачи (показано серым), подобранное по публичным измерениям (см. «Насколько это точно?»). Доли от пика по спецификации, 0–1.",
	MsgMFUField:            "MFU обучения (доля пиковых FLOP/s)",
	MsgInfMFUField:         "MFU префилла (доля пиковых FLOP/s)",
	MsgBWField:             "Использование полосы при декодировании (доля пика)",
	MsgFXTitle:             "Курсы валют для сравнения цен в других валютах",
	MsgCurrency:            "Валюта",
	MsgPerUSD:              "за 1 USD",
	MsgPlanning:            "Планирование по всем предложениям…",
	MsgFixToUpdate:         "Прежний ответ: он обновится, когда поле, отмеченное красным, будет исправлено.",
	MsgFixToAnswer:         "Ответа пока нет: исправьте поля, отмеченные красным.",
	MsgFixNamed:            "Ответа пока нет: исправьте поля, отмеченные красным: %s.",
	MsgMonthlyShort:        "В месяц",
	MsgBatchCost:           "Стоимость задачи",
	MsgBatchTime:           "Время задачи",
	MsgE2EP95:              "Задержка запроса (p95)",
	MsgRequests:            "Запросов в пакетной задаче",
	MsgPricing:             "Тарификация",
	MsgCurrencyField:       "Валюта",
	MsgProviderKind:        "Тип провайдера",
	MsgCountry:             "Страна провайдера (например, US, RU, CN)",
	MsgBudget:              "Бюджет в выбранной валюте (задача или месяц сервинга)",
	MsgDeadline:            "Срок, часы",
	MsgMinVCPU:             "Минимум vCPU на инстанс",
	MsgMinRAM:              "Минимум RAM на инстанс, ГиБ",
	MsgAny:                 "любой",
	MsgFilters:             "Тарификация и фильтры",
	MsgPlanNotes:           "Заметки планировщика",
	MsgDefaultIs:           "по умолчанию",
	MsgPlanAssumptionsNote: "Что планировщик принимает о спот-инстансах и чекпойнтах; пусто — значение по умолчанию под полем.",
	MsgSpotRateField:       "Вытеснения спота (доля инстансов в месяц, 0–1)",
	MsgCkptWriteField:      "Скорость записи чекпойнта на инстанс в секунду (напр. 2GB)",
	MsgRestartField:        "Время перезапуска после вытеснения (напр. 10m, 600)",
	MsgSrcSpot:             "для предложения — середина его диапазона AWS Spot Advisor (25% для «>20%»); без диапазона — 20%, нижняя граница худшего диапазона (допущение)",
	MsgSrcCkpt:             "пропускная способность записи одного облачного тома: AWS EBS gp3 — до 1000 МиБ/с (AWS EBS User Guide; допущение)",
	MsgSrcRestart:          "новый инстанс и перезагрузка весов и состояния оптимизатора (допущение)",
	MsgSpotNow:             "Спот в самом дешёвом плане на этом GPU: вытеснений в месяц",
	MsgYoungDaly:           "чекпойнт каждые (Янг/Дейли)",
	MsgSrcAPINone:          "в каталоге нет API для этой модели",
	MsgHostedNote:          "Сервинг: API для сравнения со своим сервером, USD за 1 млн входных и выходных токенов; пусто — датированная цена из каталога для модели.",
	MsgAPIInField:          "API: USD за 1 млн входных токенов",
	MsgAPIOutField:         "API: USD за 1 млн выходных токенов",
	MsgHostedTitle:         "API против своего сервера при целевой нагрузке",
	MsgHostedAPI:           "API",
	MsgAPIPrices:           "Вход / выход за 1 млн",
	MsgAPIMonthly:          "API в месяц",
	MsgSelfHosted:          "Свой сервер в месяц",
	MsgBreakEven:           "Точка безубыточности",
	MsgBreakEvenAlways:     "%s; при любой нагрузке выше %s",
	MsgInstancesOf:         "%s из %s",
	MsgPerSecond:           "запр./с",
	MsgAsSet:               "Как задано",
	MsgCostAtSpeed:         "За 1M выходных токенов при этой скорости",
	MsgJobCostAtSpeed:      "Стоимость задачи при этой скорости",
	MsgPlannerBestPerM:     "Самый дешёвый план на этом GPU (планировщик), за 1M выходных токенов",
	MsgPlannerBestJob:      "Самый дешёвый план на этом GPU (планировщик), стоимость задачи",
	MsgInFlight:            "запросов одновременно",
	MsgPrOnDemand:          "по требованию",
	MsgPrSpot:              "спот",
	MsgPrRes1:              "резерв на 1 год",
	MsgPrRes3:              "резерв на 3 года",

	MsgFleetOf:       "Парк самого дешёвого варианта",
	MsgFleetHere:     "Та же нагрузка на выбранном GPU",
	MsgPerMonthUnit:  "/мес.",
	MsgPerRequestP95: "p95 %s на запрос",
	MsgUnknownNet:    "Планировать на нескольких инстансах без указанной сети между ними (принять 100 Гбит/с)",
	MsgCommShare:     "обмены %s шага",
	MsgCommFact:      "Обмены между GPU",

	MsgFreshnessField: "Окно свежести, дней (выбор — по ценам не старше)",
	MsgPriceAsOf:      "Цена на %s",
	MsgVerifyPrice:    "цена от %s — проверьте",
	MsgVerifyDated:    "проверьте цену",
	MsgAge180to365:    "от 180 дней до года",
	MsgAgeUndated:     "без даты",
	MsgOwnUndated:     "без даты: ваши цены не считаются устаревшими",
	MsgFarBelow:       "меньше половины того, что просят за этот GPU другие провайдеры — проверьте",
	MsgSourceOpen:     "источник называет эту цену нижней границей («от») или оставляет её условие открытым — проверьте",
	MsgSpotFarBelow:   "спотовая цена намного ниже собственной цены по требованию, глубже скидок, которые документируют облака, — проверьте",
	MsgFromListing:    "цена маркетплейса «от»: самое дешёвое предложение на момент чтения",
	MsgFooterFresh:    "Возраст цен: %s из %s предложений моложе 90 дней, %s — 90–180 дней, %s — от 180 дней до года, %s — старше года, %s без даты; у %s дата оценочная.",
	MsgLoadTitle:      "Задержка в зависимости от нагрузки (одна копия движка, симуляция)",
	MsgLoadX:          "Запросов в секунду на копию движка (пуассоновский поток)",
	MsgLoadY:          "Задержка (логарифмическая шкала)",
	MsgLoadTTFT95:     "до 1-го токена, %s",

	MsgLoadTTFTTarget: "цель до 1-го токена (%s) %s",

	MsgLoadOp:          "этот план: %s запр./с на копию",
	MsgLoadSat:         "насыщение: %s запр./с",
	MsgLoadCaptionOne:  "Одна копия движка (%s), симуляция с настройками планировщика. План обслуживает %s запр./с этой одной копией: до первого токена (%s) %s, на токен ответа (%s) %s. Копия насыщается при %s запр./с: выше запросы приходят быстрее, чем она их завершает, и на прогоне длиннее смоделированных здесь %s запросов очередь растёт без предела.",
	MsgLoadCaption:     "Одна копия движка (%s), симуляция с настройками планировщика. План распределяет %s запр./с по %s копиям, по %s запр./с на каждую: до первого токена (%s) %s, на токен ответа (%s) %s. Копия насыщается при %s запр./с: выше запросы приходят быстрее, чем она их завершает, и на прогоне длиннее смоделированных здесь %s запросов очередь растёт без предела.",
	MsgBindTTFT:        "Число реплик задано временем до первого токена (%s) при %s запр./с",
	MsgBindTPOT:        "Число реплик задано временем на токен ответа (%s) при %s запр./с",
	MsgBindThroughput:  "Число реплик задано пропускной способностью: меньшее число превысит предел загрузки при %s запр./с",
	MsgBindNone:        "Одна реплика укладывается в цели при %s запр./с",
	MsgLimitNone:       "ни один запрос не ждал места в движке",
	MsgLimitSeqs:       "каждую копию движка ограничивает предел одновременных последовательностей (max_num_seqs)",
	MsgLimitKV:         "каждую копию движка ограничивает её KV-кэш",
	MsgLimitTokens:     "каждую копию движка ограничивает бюджет токенов на шаг (prefill)",
	MsgLimitPolling:    "каждую копию движка ограничивает интервал планирования",
	MsgBindAnd:         "%s; %s",
	MsgBenchTitle:      "Ваш бенчмарк",
	MsgBenchHelp:       "Подгоните движок к своему бенчмарку сервинга (JSON vllm bench serve, JSON-строки SGLang bench_serving, CSV genai-perf или CSV concurrency,ttft_ms,tpot_ms) в командной строке: rightsize calibrate --gpu G --engine E --model M FILE. Вставьте сюда строку для ссылки, которую она выводит: накладные расходы на запрос, MFU префилла и доля пропускной способности при декодировании зададут скорость и планы (на всех GPU, как значения блока «Допущения»), когда выбраны её GPU и движок; ссылка переносит её.",
	MsgBenchPick:       "Калибровка (gpu,движок,мс на запрос,MFU префилла,доля пропускной способности при декодировании)",
	MsgBenchApplied:    "Калибровка для %s на %s применена: накладные расходы на запрос %s, MFU префилла %s, доля пропускной способности при декодировании %s.",
	MsgBenchMismatch:   "Калибровка в этой ссылке подобрана для %s на %s; она применяется, когда выбраны этот GPU и движок.",
	MsgBenchBad:        "Калибровку в этой ссылке не удаётся прочитать; она не учитывается.",
	MsgJobTokens:       "%s токенов обучения",
	MsgJobRequests:     "%s запросов × %s токенов",
	MsgJobRate:         "%s запр./с · %s + %s токенов на запрос",
	MsgJobWithin:       "не дольше %s",
	MsgJobBudget:       "бюджет %s",
	MsgJobBudgetMonth:  "бюджет %s в месяц",
	MsgJobFor:          "План для",
	MsgJobSetupOn:      "память и скорость ниже — на",
	MsgBadCurve:        "нужно 24 значения запросов/с, по одному на час, через запятую",
	MsgOwnNeeds:        "нужно вместе с ценой покупки",
	MsgCurveField:      "Нагрузка за сутки, запросов/с по часам (24 через запятую)",
	MsgWorkloadField:   "Состав запросов",
	MsgWorkloadAsSet:   "как задано (одна длина запроса и ответа)",
	MsgOwnPriceField:   "Купить: цена за GPU, USD",
	MsgKWhField:        "Электричество, USD за кВт·ч",
	MsgOwnYearsField:   "Амортизация, лет",
	MsgFleetTitle:      "Парк на сутки",
	MsgFleetBest:       "Лучшая смесь на %s: %s в месяц — %s",
	MsgFleetCommit:     "реплик: %s — %s, остальные — %s",
	MsgFleetNoCommit:   "без резерва: %s по часам",
	MsgFleetSaving:     "на %s (%s) дешевле, чем всё по требованию",
	MsgFleetNoSpot:     "без спота: самый дешёвый вариант со спотом, %s в месяц, экономит меньше, чем стоит вторая запасная реплика (%s), а споты одного предложения отзывают вместе",
	MsgFleetPeak:       "Реплик в пик: %s (%s запр./с), в самый тихий час: %s",
	MsgFleetChoice:     "Модель цены",
	MsgFleetAllOD:      "Всё по требованию",
	MsgFleetAllSpot:    "Всё на споте (с запасной)",
	MsgFleetAll1y:      "Всё в резерве на 1 год",
	MsgFleetAll3y:      "Всё в резерве на 3 года",
	MsgFleetBestMix:    "Лучшая смесь",
	MsgFleetUnpriced:   "нет цены",
	MsgFleetChartTitle: "Реплики и стоимость по часам суток",

	MsgFleetNeed:             "нужно",
	MsgFleetCostHour:         "стоимость в час",
	MsgMixTitle:              "Смешанный парк",
	MsgMixSaves:              "%s в месяц против %s на лучшем одном предложении (%s): экономия %s (%s)",
	MsgMixSame:               "одно предложение лучше всего обслуживает все размеры запросов: %s",
	MsgMixGroup:              "%s: %s запросов (%s)",
	MsgOwnTitle:              "Купить GPU вместо аренды?",
	MsgOwnLine:               "%s GPU в собственности: %s за занятый GPU-час против %s в аренду; %s в месяц",
	MsgOwnBreakEven:          "против аренды по требованию покупка окупается при загрузке выше %s (у этого парка: %s)",
	MsgOwnNever:              "аренда дешевле при любой загрузке",
	MsgFleetUnsized:          "нет парка: %s",
	MsgFleetReserved:         "резерв",
	MsgLoadPeak:              "Пик при загрузке (квантование на GPU)",
	MsgNeeded:                "Нужно (без кэша, который аллокатор освобождает при нехватке памяти)",
	MsgBackwardEndPeak:       "Пик в конце обратного прохода (корневой блок FSDP собирает свои градиенты)",
	MsgOptimizerStepPeak:     "Пик во время шага оптимизатора (временный буфер foreach AdamW размером с один момент)",
	MsgTextVision:            "Параметры: текст %s + зрение %s",
	MsgTextOnly:              "Только текст (без модуля зрения)",
	MsgKernel:                "Ядро для квантованных весов",
	MsgEngineVersion:         "Версия движка (пусто: текущая)",
	MsgHost:                  "CPU хоста (класс или модель; пусто: обычный для GPU)",
	MsgOwnNoWatts:            "в каталоге нет мощности %s: стоимость владения не рассчитана",
	MsgLaunchTitle:           "Запустить",
	MsgLaunchHelp:            "Параметры запуска для самого дешёвого варианта, из тех же цифр, по которым он спланирован: проверьте пути и модель перед запуском.",
	MsgLaunchKind:            "Чем запускать",
	MsgLaunchRouter:          "Маршрутизатор разделённых воркеров",
	MsgRouterEngine:          "Собственный маршрутизатор движка",
	MsgCopyLaunch:            "Копировать",
	MsgLaunchCopied:          "Параметры запуска скопированы",
	MsgLaunchNoSky:           "SkyPilot не поддерживает этого провайдера: выберите другой способ запуска или предложение облака SkyPilot",
	MsgLaunchModelParallel:   "этот способ запуска — только для параллелизма по данным, а план делит модель (TP, PP или CP)",
	MsgLaunchSkyServePorts:   "SkyServe отправляет запросы реплики на один порт, а план запускает на каждом инстансе несколько копий движка, каждую на своём порту: выберите запуск самого движка и поставьте перед копиями балансировщик нагрузки",
	MsgLaunchLayout:          "этот движок не запустит параллелизм внимания по данным или параллелизм экспертов из плана для этой модели на этих GPU: выберите другой движок или раскладку без параллелизма внимания по данным",
	MsgLaunchPrecision:       "DeepSpeed не запустит чистое 16-битное обучение этого плана так, как оно оценено (с выгруженным оптимизатором или в fp16 при ZeRO 1–3 он держит 32-битную копию или не стартует): выберите запуск через FSDP или планируйте со смешанной точностью",
	MsgLaunchStack:           "этот способ запуска выполняет другую программу, чем та, под которую рассчитан план: дообучение с точностью в именах Lightning (bf16-true) планирует скрипты дообучения LitGPT, и запускает их только LitGPT; другие точности планируют Hugging Face Trainer",
	MsgLaunchLitGPT:          "скрипты дообучения LitGPT не выполнят этот вариант так, как он рассчитан: они обучают на одном GPU без пересчёта активаций или под FSDP с полным шардированием и пересчётом каждого блока, ничего не выгружая на хост, QLoRA — только на одном GPU, без разбиения модели (TP, PP, EP или CP), в точностях, которые называет их --precision, и с наборами адаптеров, которые задают флаги --lora_*; rightsize plan --emit litgpt скажет, что не так",
	MsgLaunchLitGPTModel:     "в каталоге конфигураций LitGPT 0.4.13 нет чекпойнта этой модели (litgpt download list перечисляет доступные): выберите другую модель или планируйте с точностью bf16 для запуска через Hugging Face Trainer",
	MsgLaunchNone:            "для этого плана нет параметров запуска",
	MsgCP:                    "Контекстный параллелизм (CP)",
	MsgLeverMFU:              "больше всего цифра зависит от принятого MFU (%s): введите измеренный MFU в «Допущениях»",
	MsgLeverInfMFU:           "больше всего цифра зависит от принятого MFU префилла (%s): введите измеренный в «Допущениях» или свой бенчмарк",
	MsgLeverBW:               "больше всего цифра зависит от доли пропускной способности памяти при декодировании (%s): введите измеренную в «Допущениях» или свой бенчмарк",
	MsgLeverHost:             "больше всего цифра зависит от времени хоста на шаг: укажите CPU хоста и версию движка в измеренных поправках",
	MsgLeverComm:             "больше всего цифра зависит от сети между GPU: меньше GPU на копию модели или предложение с указанной кластерной сетью изменят её сильнее всего",
	MsgCommHidden:            "%s шага не скрыто; вся коммуникация занимает %s на шаг, остальное скрыто под вычислениями",
	MsgDataset:               "Токенов в датасете (с эпохами: вместо токенов обучения)",
	MsgEpochs:                "Эпох",
	MsgJobEpochs:             "%s эп. × %s токенов",
	MsgPerEpoch:              "%s за эпоху",
	MsgFirstWave:             "среднее бенчмарка при %s запросах в работе, первая волна позже на %s — холодный старт после прогрева (оценка)",
	MsgNeedsDataset:          "для эпох укажите токены датасета",
	MsgEP:                    "Экспертный параллелизм (EP, MoE)",
	MsgRedundant:             "Избыточные эксперты (копии EPLB)",
	MsgAsync:                 "Асинхронное планирование (vLLM --async-scheduling, до 0.14 по запросу)",
	MsgNoOverlap:             "Без планировщика с перекрытием (SGLang, TensorRT-LLM)",
	MsgDraft:                 "Черновых токенов MTP за шаг (спекулятивное декодирование; 0: выкл.)",
	MsgGraphCap:              "Наибольший батч декодирования из CUDA-графов (SGLang --cuda-graph-max-bs; больший идёт без графов; 0: батч задачи)",
	MsgDraftAccept:           "Доля принятых черновиков (0: измеренная для модели)",
	MsgMTPDetail:             "черновых токенов MTP за шаг: %s; принятых токенов за шаг: %s",
	MsgDP:                    "DP-параллелизм внимания (сервинг)",
	MsgKindHyperscaler:       "гиперскейлер",
	MsgKindGPUCloud:          "GPU-облако",
	MsgKindMarketplace:       "маркетплейс",
	MsgKindBroker:            "брокер",
	MsgKindDecentralized:     "децентрализованная сеть",
	MsgFXLine:                "Цены в %s: пересчитаны по курсу 1 USD = %s (%s; источники курсов — в разделе «Допущения»)",
	MsgCompareAdd:            "+ Сравнить",
	MsgCompared:              "✓ В сравнении",
	MsgCompareRemove:         "Убрать из сравнения",
	MsgComparePlans:          "Планы рядом",
	MsgCompareFull:           "В сравнении не больше %s планов: уберите один, чтобы добавить другой.",
	MsgCompareNoPlan:         "—: для задачи в её нынешнем виде на этом предложении плана нет.",
	MsgPriceDate:             "Дата цены",
	MsgCompareIgnored:        "Не вошло в сравнение (не ID предложения, повтор или сверх %s планов)",
	MsgVerifyHF:              "замерьте model.generate() на этих длинах после одного прохода по тем же длинам: в PyTorch 2.11 на H100 первый проход строит план cuDNN-внимания для каждой новой длины и идёт в 3–6 раз медленнее",
	MsgPresetChat:            "диалоговый сервис (трасса Azure LLM inference 2023, conversation: 19 366 запросов)",
	MsgPresetCode:            "автодополнение кода (трасса Azure LLM inference 2023, code: 8 819 запросов)",
	MsgPreset1k1k:            "фиксированная форма бенчмарка InferenceX 1k/1k: запросы и ответы поровну",
	MsgPreset8k1k:            "фиксированная форма бенчмарка InferenceX 8k/1k: длинные запросы, короткие ответы",
	MsgPreset1k8k:            "фиксированная форма бенчмарка InferenceX 1k/8k: короткие запросы, длинные ответы",
	MsgWithCheckpointing:     "С пересчётом активаций (gradient checkpointing)",
	MsgFewestGPUs:            "Меньше всего таких GPU, чтобы поместилось",
	MsgMoreThanGPUs:          "больше %s",
	MsgRegionField:           "Где размещено (префикс региона, например eu-, ru)",
	MsgCheaperFlagged:        "Дешевле, если цена верна, — проверьте: %s, %s",
	MsgOwnPriceMark:          "ваша цена",
	MsgOwnUnfit:              "Ваша цена, не выбрана: %s не выполняет эту задачу: %s",
	MsgOwnUnfitMore:          "и ещё %s ваших предложений её не выполняют",
	MsgFitsWith:              "Поместится с",
	MsgLayoutChosen:          "Выбранная раскладка",
	MsgLayoutWhy:             "%s помещается: %s; %s",
	MsgLayoutNeeds:           "%s нужно %s из %s доступных",
	MsgSchedPlain:            "обычное 1F1B",
	MsgSchedInterleaved:      "чередующееся 1F1B (частей на стадию: %d)",
	MsgLeverCheckpointing:    "пересчётом активаций",
	MsgLeverZeRO3:            "ZeRO-3",
	MsgLeverMicroBatch:       "микробатчем",
	MsgLeverOffloadOptimizer: "выгрузкой оптимизатора на CPU",
	MsgLeverOffloadAll:       "выгрузкой параметров на CPU",
	MsgLeverMoreGPUs:         "большим числом GPU",
	MsgLeverZeRO2:            "ZeRO-2",
	MsgLeverPlain1F1B:        "обычным 1F1B (без чередования)",
	MsgFixPerGPU:             "%s на GPU, GPU: %s",
	MsgFixOneGPU:             "%s на одном GPU",
	MsgFixHost:               "ОЗУ хоста %s на GPU",
	MsgLoadTTFT50:            "до 1-го токена, p50",
	MsgLoadTPOT95:            "на токен, %s",
	MsgLoadTPOTTarget:        "цель на токен (%s) %s",
	MsgNoAnswerBudget:        "Задачу выполняют планы, но ни один не укладывается в бюджет: увеличьте его или очистите поле, чтобы увидеть стоимость.",
	MsgNoAnswerDeadline:      "Задачу выполняют планы, но ни один не укладывается в срок: продлите его или очистите поле, чтобы увидеть длительность.",
	MsgNoAnswerNoTokens:      "Плана сервинга нет: планировщик подбирает парк по токенам, которые генерирует модель, а эта модель их не генерирует (нет KV-кэша). Нужная ей память и подходящие GPU — ниже.",
	MsgNoAnswerGGUF:          "Плана сервинга нет: формат GGUF (Q4_K_M и подобные) запускает llama.cpp, а поток запросов планируется на движках с непрерывным батчингом (vLLM, SGLang, TensorRT-LLM), которые его не запускают. Для 4-битных весов выберите точность int4 (AWQ или GPTQ, их запускает vLLM) или спланируйте модель GGUF как пакет запросов.",
	MsgOwnCheaper:            "свои GPU: %s в месяц против %s за лучший арендованный парк на тот же день: покупка дешевле",
	MsgOwnDearer:             "свои GPU: %s в месяц против %s за лучший арендованный парк на тот же день: аренда дешевле",
	MsgFleetVsCard:           "Самый дешёвый вариант выше (%s в месяц) весь день держит пиковую нагрузку по требованию; этот парк следует дневной нагрузке и покупает часы самым дешёвым способом: %s в месяц.",
	MsgKindsDefault:          "облака и брокеры (по умолчанию)",
	MsgKindsAny:              "любой, с маркетплейсами и децентрализованными сетями",
	MsgKindsNote:             "Планы: гиперскейлеры, GPU-облака, брокеры; маркетплейсы и децентрализованные сети — в фильтре «Тип провайдера».",
	MsgWidened:               "Без фильтра «%s»: %s за %s в час, %s.",
	MsgNoAnswerRunLength:     "Задачу предобучения выполняют планы, но ни один не укладывается в срок, принятый без дедлайна: самый долгий опубликованный прогон предобучения (BLOOM 176B). Задайте срок или 0, чтобы снять его.",
	MsgRunLengthMissed:       "Ни один план не больше чем из %s инстансов не укладывается в %s; самый быстрый, %s, идёт %s за %s, а %s требуют не меньше %s его GPU.",
	MsgRunLengthWithout:      "Без заданного срока план укладывается в %s — самый долгий опубликованный прогон предобучения (BLOOM 176B); без этого допущения самый дешёвый план — %s, %s за %s. Задайте срок, чтобы изменить его, или 0, чтобы снять.",
	MsgRunLengthRaised:       "Ни один план не больше чем из %s инстансов (предел по умолчанию) не укладывается в %s, поэтому для него предел поднят до %s инстансов.",
	MsgNoneSameReason:        "каждое предложение отклонено по одной причине: %s",
	MsgNoneEngineRuns:        "%s; на них задачу выполняют: %s",
	MsgNoneEngineAlike:       "%s, как и другие движки, на которых план обслуживает поток запросов (%s)",
	MsgNoneCause:             "Ни одно предложение, оставленное фильтрами, не выполняет эту задачу: %s.",
	MsgNoneCauseEngine:       "Ни одно предложение, оставленное фильтрами, не выполняет эту задачу: %s. Выберите один из них в поле «%s».",
	MsgNoneMixed:             "предложения отклонены по разным причинам, сначала самые частые: %s",
	MsgNoneMixedRest:         "%s × другие причины",
	MsgNoneMixedSep:          "; ",
	MsgNotWhole:              "не целое число",
	MsgAttnKernel:            "Ядро внимания (обучение)",
	MsgAttnFA2:               "FlashAttention-2 / Triton",
	MsgAttnCuDNN:             "cuDNN fused (Transformer Engine: Megatron-Core, NeMo)",
	MsgAttnFA3:               "FlashAttention-3",
	MsgAttnKernelHelp:        "cuDNN: Megatron-Core и NeMo на Hopper; FA2: llm-foundry, Hugging Face. На H100 ×1,62 (cuDNN), ×1,74 (FA3) к скорости FA2; память та же.",
	MsgAdapterDType:          "Тип данных адаптеров",
	MsgAdapterAuto:           "авто (смешанная точность: fp32; только 16 бит: как у модели)",
	MsgAdapterDTypeHelp:      "Hugging Face PEFT держит адаптеры в fp32 поверх базы в bf16; без autocast каждый слой с адаптером хранит ещё fp32-копию своего входа. torchtune и LitGPT держат их в типе модели.",
}

var messagesZH = [NMsgs]string{
	MsgTagline: "模型需要多少显存、哪些 GPU 装得下、去哪里租。",
	MsgModel:   "模型", MsgTask: "任务", MsgPrecision: "精度", MsgKV: "KV 缓存类型", MsgBatch: "批大小",
	MsgSeq: "序列长度（token）", MsgOptimizer: "优化器", MsgCheckpointing: "梯度检查点",
	MsgFlash: "FlashAttention / SDPA", MsgLoRARank: "LoRA 秩", MsgEngine: "推理引擎",
	MsgMemUtil: "显存占比（%s %s；0：引擎默认值%s）", MsgGPU: "GPU", MsgGPUs: "GPU 数量", MsgZeRO: "ZeRO 阶段（3 = FSDP）",
	MsgTP: "张量并行", MsgPP: "流水线阶段", MsgOffload: "CPU 卸载", MsgUnits: "单位", MsgLanguage: "语言",
	MsgPerGPU: "每张 GPU 的显存", MsgPart: "组成", MsgMemory: "显存", MsgShare: "占比", MsgUncertainty: "±",
	MsgWeights: "权重", MsgGradients: "梯度", MsgOptimizerStates: "优化器状态", MsgActivations: "激活",
	MsgLogits: "Logits / 损失", MsgKVCache: "KV 缓存", MsgCUDAContext: "CUDA 上下文", MsgAllocator: "分配器预留",
	MsgNCCL: "NCCL 缓冲区", MsgCUDAGraphs: "CUDA graphs", MsgQuantState: "量化状态", MsgTotal: "合计",
	MsgUsable: "此 GPU 可用", MsgFits: "装得下", MsgDoesNotFit: "装不下", MsgHeadroom: "余量",
	MsgShortBy: "缺少", MsgParams: "参数量", MsgActive: "每 token 激活", MsgKVPerToken: "每 token 的 KV 缓存",
	MsgKVPool: "KV 池", MsgMaxBatch: "可容纳的最大批大小", MsgMaxSeq: "可容纳的最长序列",
	MsgFixFields: "请修正标出的字段以查看估算。", MsgGPUFit: "哪些 GPU 装得下",
	MsgGPUCol: "GPU", MsgVRAM: "显存", MsgVRAMPerGPU: "单卡显存", MsgWithYourSetup: "按您的 GPU 数量", MsgMinGPUs: "所需 GPU",
	MsgFromPrice: "起价（按需）", MsgNone: "—", MsgOffers: "去哪里租", MsgProvider: "服务商",
	MsgInstance: "实例", MsgOnDemand: "按需 /小时", MsgSpot: "竞价 /小时", MsgReserved: "预留 /小时", MsgRegion: "地域",
	MsgShowAll: "显示全部", MsgNoOffers: "目录中没有带此 GPU 的报价。",
	MsgRange: "超出范围", MsgNotNumber: "不是数字", MsgUnknownChoice: "未知选项",
	MsgIncompatible: "与其他设置不兼容", MsgWarnings: "提示",
	MsgPickGPU:     "点击一行以选择该 GPU。",
	MsgPricesNote:  "价格为每实例每小时，使用服务商的币种；每行注明日期和来源。仅为估算，不是报价。",
	MsgQuant:       "权重格式",
	MsgLoRATargets: "LoRA 目标层",
	MsgSelective:   "选择性重计算（仅注意力分数）",
	MsgMaxBatched:  "每步 token 数（%s %s；0：引擎默认值%s）",
	MsgDefaultHere: "，此 GPU 上为 %s",
	MsgEager:       "不用 CUDA graphs（%s）",
	MsgHIPContext:  "HIP 上下文", MsgHIPGraphs: "HIP graphs", MsgRuntimeContext: "运行时上下文", MsgHPUGraphs: "HPU graphs",
	MsgEagerHIP: "不用 HIP graphs（%s）", MsgEagerHPU: "不用 HPU graphs（%s）",
	MsgRangeFromTo:   "%s 至 %s",
	MsgEngineAuto:    "自动（按规划）",
	MsgEngineAutoWhy: "自动：%s",

	// A fine-tune named by a Lightning precision (LitGPT's defaults taken).
	MsgStackDefaults:     "%s 的默认设置",
	MsgStackDefaultsWhy:  "精度采用 Lightning 的名称，因此按 %s 的微调脚本运行，未填写的项取其默认值（%s）",
	MsgStackRefusesQLoRA: "%s 的 lora.py 不支持在多张 GPU 上运行 QLoRA：请选用单张 GPU，或改用 LoRA",
	MsgCkptDefault:       "开启：QLoRA 的默认设置",
	MsgCkptDefaultWhy:    "QLoRA 默认开启，与 PEFT 的 prepare_model_for_kbit_training、TRL 的 SFTConfig、QLoRA 论文的 qlora.py 以及 torchtune 的 QLoRA 配方一致；若你的脚本关闭了它，请取消勾选",

	MsgOverrides:      "引擎设置与实测开销",
	MsgOverridesNote:  "留空则使用估算值。大小需带单位：1343MiB、0.5GiB、2GB。",
	MsgUsableOverride: "每张 GPU 的可用显存（torch.cuda.mem_get_info）",
	MsgNotSize:        "不是带单位的大小（例如 1343MiB、0.5GiB）",
	MsgTaskInference:  "推理",
	MsgTaskTrain:      "预训练",
	MsgTaskFinetune:   "全量微调",
	MsgTaskLoRA:       "LoRA",
	MsgTaskQLoRA:      "QLoRA（4 位基座）",
	MsgOffNone:        "无",
	MsgZeROAuto:       "自动（多副本预训练：从 1 起能放下的最低阶段）",
	MsgOffOptimizer:   "优化器状态",
	MsgOffAll:         "优化器状态和参数",
	MsgTargetsQV:      "查询和值（q、v）",
	MsgTargetsAttn:    "注意力（q、k、v、o）",
	MsgTargetsAll:     "全部线性层",
	MsgQuantAuto:      "自动（按精度和引擎）",
	MsgSheetTitle:     "您的价格",
	MsgSheetHelp:      "加载价格表（CSV 或 JSON：offer_id 或 provider + instance_type、每实例每小时价格、currency、as_of、source）以比较协议价。文件只保存在此浏览器中。",
	MsgSheetPick:      "价格表",
	MsgSheetClear:     "恢复目录价格",
	MsgSheetRows:      "行",
	MsgSheetOffers:    "已更改或添加的报价",

	MsgSheetUnreadable:       "浏览器无法读取该文件",
	MsgYourPrice:             "您的价格",
	MsgRulesTitle:            "经验法则与本估算对比",
	MsgRulesNote:             "同一任务、单张 GPU 上放一份模型副本时，常见规则给出的数值。误差为负表示规则低估了显存。",
	MsgRuleParams4:           "参数量 × 4 字节（指南中的简单公式）",
	MsgRuleParamMem15:        "参数显存 × 1.5（指南，训练）",
	MsgRuleWeights12:         "权重 × 1.2（常见推理公式）",
	MsgRuleHF18:              "每参数 18 字节，AdamW 混合精度（Hugging Face；不含激活）",
	MsgRuleSays:              "规则给出",
	MsgThisEstimate:          "Rightsize，单张 GPU",
	MsgOffBy:                 "规则误差",
	MsgYourModel:             "您的模型",
	MsgConfigHelp:            "列表里没有？加载它在 Hugging Face 上的 config.json：参数量、GQA/MoE/MLA 和 KV 缓存都从中读取。文件只保存在此浏览器中。",
	MsgNoCustomModel:         "此浏览器中未加载您的 config.json：请在“您的模型”中加载",
	MsgUpdateReady:           "Rightsize 有新版本可用。",
	MsgLinkIgnored:           "链接中已忽略（不是有效的 URL 文本）",
	MsgSheetApplying:         "正在应用",
	MsgSavedKept:             "上次访问保存的文件未能应用（已保留，直到您加载修正后的文件或将其删除）：",
	MsgNotKept:               "已应用，但浏览器存储已满或被拒绝：下次访问时不会保留。",
	MsgConfigDrop:            "删除已保存的 config",
	MsgReload:                "重新加载",
	MsgNotCount:              "不是数量（例如 1B、500M、2T）",
	MsgMs:                    "毫秒",
	MsgSec:                   "秒",
	MsgMin:                   "分钟",
	MsgHours:                 "小时",
	MsgDays:                  "天",
	MsgSpeedTitle:            "速度与成本（估算）",
	MsgSpeedNote:             "按 GPU 规格书的 roofline 估算，效率取各数字依据中所列的值（假定的 MFU 与带宽利用率，可在“假设”中修改）。实际 MFU 是扣除通信、流水线气泡和主机开销后的结果。实际运行取决于引擎和内核；区间表示与公开测量的偏差。",
	MsgThroughputTrain:       "训练吞吐，token/秒",
	MsgThroughputInfer:       "生成 token/秒，全部请求",
	MsgJobTime:               "训练这些 token 的时间",
	MsgGPUHours:              "GPU 小时",
	MsgTTFT:                  "首 token 时间",
	MsgPerSeq:                "每个请求的 token/秒",
	MsgForwardPass:           "每个请求一次前向计算",
	MsgThroughputEncoder:     "读取 token/秒，全部请求",
	MsgCostAtSpeedTokens:     "按此速度每 100 万读取 token 成本",
	MsgPlannerBestPerMTokens: "规划器在此 GPU 上的最便宜方案（每 100 万读取 token）",
	MsgJobCost:               "任务成本",
	MsgPerMTokens:            "每 100 万 token",
	MsgTrainTokens:           "训练 token 数（例如 1B、2T）",
	MsgOutputTokens:          "每个请求生成的 token（占序列长度；0：其一半）",
	MsgNoPerf:                "无速度估算：目录缺少此 GPU 的 FLOPS 或带宽。",
	MsgNoPerfNoFit:           "所设 GPU 上无速度估算：任务装不下。",
	MsgNoPerfGeneric:         "无速度估算：通用模型只有参数量、没有注意力结构，仅估算上方的显存。",
	MsgMFUImplied:            "实际 MFU",

	MsgCheapest: "最便宜",
	MsgSortBy:   "排序",
	MsgSortVRAM: "显存",
	MsgSortCost: "任务成本",

	MsgCopyLink:           "复制此估算的链接",
	MsgLinkCopied:         "链接已复制：它会重新打开这次估算，离线也可以。",
	MsgBadConfig:          "无法读取 config.json",
	MsgInvalid:            "输入无效",
	MsgNoModel:            "没有模型结构：请先加载 config",
	MsgHWNoBF16:           "此 GPU 没有 bf16 张量核心（Turing、Volta）：框架会退回 fp16 或以更慢的方式模拟 bf16",
	MsgHWNoFP8:            "此 GPU 没有 fp8 张量核心（从 Ada 和 Hopper 开始才有）：fp8 权重会被升精度，没有 fp8 加速",
	MsgUnitGB:             "GB",
	MsgUnitGiB:            "GiB",
	MsgBillionSuffix:      "B",
	MsgMillionSuffix:      "M",
	MsgKiB:                "KiB",
	MsgTokens:             "token",
	MsgModelLimit:         "模型上限",
	MsgOverContextYaRN:    "%s 个 token 的请求超过了所部署检查点的 config.json 声明的 %s 个 token 上下文，推理引擎会拒绝；模型卡说明启用 YaRN 后可达 %s 个 token：在 config.json 中加入 \"rope_scaling\": %s，将 max_position_embeddings 设为 %s，并在“您的模型”中加载（模型卡提醒这可能降低短文本上的效果），或将请求缩短到 %s 个 token",
	MsgInputs:             "输入",
	MsgUnitsGiB:           "GiB（%s）",
	MsgUnitsGB:            "GB（规格书）",
	MsgFooter:             "每个公式和价格都注明来源和日期；每个数字都是带区间的估算。页面可离线使用，不向任何地方发送数据。",
	MsgOpenInRightsize:    "在 Rightsize 中打开",
	MsgFWeights:           "参数量 × 权重格式每参数字节数（含量化格式的分组缩放因子）",
	MsgFGradients:         "可训练参数 × 梯度字节数，ZeRO-2/3 时在 GPU 间分摊",
	MsgFGradientsInFlight: "反向传播开始时：正在计算的 LM 头和一个块的梯度；分片梯度在反向传播结束时才完整",
	MsgFOptimizer:         "可训练参数 × 优化器字节数（AdamW：fp32 主副本和两个动量），ZeRO-1/2/3 时分摊",
	MsgFActivations:       "每层：批量 × 序列 × 隐藏维度 × 字节，按 Korthikanti 等 2022 计算；启用检查点后更少",
	MsgFLogits:            "批量 × 序列 × 词表 × logits 和损失的字节数",
	MsgFKV:                "2 × 层数 × KV 头数 × 头维度 × token 数 × KV 字节（MLA：压缩潜变量）",
	MsgFOverhead:          "公开测量的运行时开销（CUDA 上下文、分配器、NCCL、CUDA graphs）",
	MsgBoundCompute:       "算力（张量 FLOPS）",
	MsgBoundBandwidth:     "显存带宽",
	MsgEffMFU:             "假定 MFU",
	MsgEffBandwidth:       "带宽利用率",
	MsgFTTFT:              "提示词 FLOPs ÷（峰值 × MFU），若读权重更慢则为 权重 ÷ 带宽",
	MsgFDecode:            "每步读取权重和 KV 缓存：字节 ÷（带宽 × 利用率），大批量时为 FLOPs ÷（峰值 × MFU）",
	MsgFCostPerM:          "实例每小时价格 ÷（每秒生成 token × 3600）× 1,000,000",
	MsgFTrain:             "每 token 6 × 参数量（+ 注意力）FLOPs ÷（GPU 数 × 峰值 × MFU），含 TP 通信和流水线气泡",
	MsgFJobTime:           "训练 token 数 ÷ 每秒 token 数",
	MsgFJobCost:           "任务时间（按报价的计费单位）× 实例每小时价格",
	MsgVerifyVLLM:         "用此提示词和输出长度运行 vllm bench serve（llama.cpp 用 llama-bench）",
	MsgVerifyTrain:        "预热后记录 50 步的 token/秒；MFU = 6 × 参数量 × token/秒 ÷（GPU 数 × 峰值）",
	MsgVerifyMemory:       "前几步后的 torch.cuda.max_memory_allocated()（再加 %s 中的 CUDA 上下文）",

	MsgGPUHour:               "GPU·时",
	MsgYear1:                 "1 年",
	MsgYear3:                 "3 年",
	MsgBasis:                 "估算依据",
	MsgBasisFormula:          "公式",
	MsgBasisInputs:           "输入",
	MsgBasisEfficiency:       "假设效率",
	MsgBasisBand:             "区间",
	MsgBasisBound:            "瓶颈",
	MsgBasisVerify:           "如何验证",
	MsgAsOfSource:            "日期 · 来源",
	MsgSource:                "来源",
	MsgEstimatedDate:         "日期为估计",
	MsgAgeFresh:              "不到 90 天",
	MsgAgeAging:              "90 至 180 天",
	MsgAgeOld:                "超过一年",
	MsgPickCheapest:          "最便宜",
	MsgPickFastest:           "最快",
	MsgPickFaster:            "更快",
	MsgPickValue:             "最划算",
	MsgAnswerTitle:           "租什么",
	MsgNoAnswer:              "没有带价格的报价能运行此任务：请更改 GPU 数量、精度或模型。",
	MsgAnswerNote:            "按所选计费方式和币种对目录中的所有报价进行规划（其他币种按“假设”中注明日期的汇率换算）。仅为估算，不是报价。",
	MsgUseThis:               "使用此方案",
	MsgPickMore:              "方案详情",
	MsgParetoTitle:           "每个能运行此任务的报价的成本与时间（对数坐标）；折线为帕累托前沿",
	MsgParetoHint:            "指向或轻点圆点查看报价；单击或再次轻点即可使用。",
	MsgParetoHintView:        "指向或轻点圆点查看报价。",
	MsgPin:                   "固定以便比较",
	MsgUnpin:                 "取消固定",
	MsgVerdict:               "结论",
	MsgTokensPerSec:          "token/秒",
	MsgCheapestCost:          "最低成本（此 GPU）",
	MsgCompareTitle:          "固定方案与当前方案",
	MsgPinned:                "已固定",
	MsgLive:                  "当前",
	MsgExportTitle:           "导出",
	MsgExportCSV:             "下载 CSV",
	MsgExportJSON:            "下载 JSON",
	MsgCopyMarkdown:          "复制 Markdown 表格",
	MsgMarkdownCopied:        "Markdown 已复制。",
	MsgConfigTooBig:          "大于 256 KiB：config.json 通常只有几 KB",
	MsgConfigPick:            "config.json 文件",
	MsgConfigPaste:           "……或在此粘贴 config.json（或拖入文件）",
	MsgFileTooBig:            "文件太大",
	MsgBadSheet:              "价格表被拒绝",
	MsgWarnTightFit:          "余量不足 5%",
	MsgWarnSeqBeyondContext:  "序列长于模型上下文长度（max_position_embeddings）",
	MsgWarnKVHeadsReplicated: "张量并行度超过 KV 头数：KV 头被复制",
	MsgWarnUnevenPipeline:    "层数不能均分到流水线各阶段：显示显存需求最大的阶段（训练时首、末阶段分到较少的层）",
	MsgWarnNoActivationModel: "模型未给出形状参数：未估算激活",
	MsgWarnVisionApprox:      "视觉编码器参数为近似值",
	MsgWarnFP8NotInLlamaCpp:  "llama.cpp 没有 fp8 权重：按 Q8_0 计算",
	MsgWarnPoolBelowOneSeq:   "推理引擎的 KV 池小于一个序列",
	MsgWarnNoKVCache:         "此架构没有 KV 缓存",
	MsgWarnZeROWithoutDP:     "数据并行度为 1 时 ZeRO 无效",
	MsgWarnBlockSplit:        "该张量并行度会拆分检查点的 fp8 块，引擎启动时会拒绝：按能加载的情况估算",
	MsgWarnNoDPAttention:     "SGLang 运行此模型时不支持注意力数据并行，该布局无法启动：按使用 DeepEP 运行的情况估算",
	MsgHWNoFP4:               "此 GPU 没有 FP4 张量核心（从 Blackwell 开始才有）：FP4 权重会被反量化，没有 FP4 加速",
	MsgHWEngineNoStart:       "该推理引擎无法在此代 GPU 上启动：这些数字对应的是无法运行的配置，规划会跳过此类 GPU",
	MsgHWEngineRelease:       "vLLM 0.20.0 及之后的版本构建时不含此 GPU（Volta）的内核：这些数字需要更早的版本，除非指定了版本，规划会跳过此类 GPU",
	MsgHWLayoutRefused:       "该引擎无法按估算的方式在此 GPU 上运行这一布局（注意力 DP、EP 或冗余专家），其启动命令会拒绝：这些数字对应的是无法运行的配置；留空 DP、EP 和冗余专家，让计划自行选择",
	MsgHWFP8Marlin:           "此 GPU 没有 fp8 张量核心：vLLM 和 SGLang 以 W8A16（Marlin）运行 fp8 权重，显存中和读取时均为 8 位，按 16 位速率相乘——小批量时比 bf16 快，大批量和长提示时更慢",
	MsgShipsFP8:              "此模型的检查点以 fp8 存储权重（其 config.json 中的 quantization_config）：无论设定何种精度，vLLM 和 SGLang 都以 fp8 提供服务；按 16 位计算权重会占用两倍显存——请将精度设为 fp8",
	MsgDisaggFigures:         "目标请求率下 TTFT %s、TPOT %s（%s；平均 TTFT %s）、KV 传输 %s",
	MsgDisaggSpares:          "数字不含备用：即被回收实例替换期间的情况",
	MsgDisaggTitle:           "分离式 prefill 与 decode",
	MsgHowAccurate:           "这有多准确？",
	MsgRPS:                   "每秒请求数（推理服务；留空为关闭）",
	MsgTTFTTarget:            "首 token 时间目标（毫秒）",
	MsgTPOTTarget:            "每个输出 token 时间目标（毫秒）",
	MsgTTFTDefault:           "留空：%s 毫秒，即 %s token 提示词的默认值（2 秒，较长时每 1,000 token 0.2 秒；依据 MLPerf Inference 服务器场景上限的估计值）；0：不设目标",
	MsgSLOStat:               "延迟目标按",
	MsgSLOMean:               "均值",
	MsgSLOMedian:             "p50（中位数）",
	MsgGlobalBatch:           "全局批量（每步序列数；留空为每副本一个微批）",
	MsgOptimizerSteps:        "优化器步数",
	MsgServeTitle:            "推理服务集群（估算）",
	MsgConcurrency:           "每副本并发请求数",
	MsgReplicas:              "副本数",
	MsgFleetGPUs:             "GPU 总数",
	MsgMonthly:               "每月费用（%s，730\u00a0小时）",

	MsgTPOT:                "每个输出 token 用时",
	MsgBoundHost:           "主机（内核启动、调度）",
	MsgBoundComm:           "通信",
	MsgAssumptions:         "假设",
	MsgAssumptionsNote:     "速度模型假设的效率；留空则使用估算器针对此 GPU 和任务的数值（灰色显示），该数值基于公开测量拟合（见“这有多准确？”）。为规格书峰值的比例，0–1。",
	MsgMFUField:            "训练 MFU（峰值 FLOP/s 的比例）",
	MsgInfMFUField:         "预填充 MFU（峰值 FLOP/s 的比例）",
	MsgBWField:             "解码带宽利用率（峰值比例）",
	MsgFXTitle:             "用于比较其他币种价格的汇率",
	MsgCurrency:            "币种",
	MsgPerUSD:              "每 1 美元",
	MsgPlanning:            "正在为所有报价规划……",
	MsgFixToUpdate:         "上一次的答案：修正标红的字段后会更新。",
	MsgFixToAnswer:         "尚无答案：请修正标红的字段。",
	MsgFixNamed:            "尚无答案：请修正标红的字段：%s。",
	MsgMonthlyShort:        "每月",
	MsgBatchCost:           "批处理任务成本",
	MsgBatchTime:           "批处理任务用时",
	MsgE2EP95:              "请求延迟（p95）",
	MsgRequests:            "批处理任务的请求数",
	MsgPricing:             "计费方式",
	MsgCurrencyField:       "币种",
	MsgProviderKind:        "服务商类型",
	MsgCountry:             "提供商所属国家（如 US、RU、CN）",
	MsgBudget:              "预算（以显示币种计，按任务或服务每月）",
	MsgDeadline:            "截止时间（小时）",
	MsgMinVCPU:             "每实例最少 vCPU",
	MsgMinRAM:              "每实例最少内存（GiB）",
	MsgAny:                 "任意",
	MsgFilters:             "计费与筛选",
	MsgPlanNotes:           "规划说明",
	MsgDefaultIs:           "默认",
	MsgPlanAssumptionsNote: "规划器对竞价实例和检查点的假设；留空则使用各字段下方所示的默认值。",
	MsgSpotRateField:       "竞价回收率（每月被回收的实例比例，0–1）",
	MsgCkptWriteField:      "每实例每秒检查点写入速率（如 2GB）",
	MsgRestartField:        "竞价回收后的重启时间（如 10m、600）",
	MsgSrcSpot:             "按报价：其 AWS Spot Advisor 区间的中点（“>20%” 取 25%）；无区间的报价：20%，最差区间的下沿（假设）",
	MsgSrcCkpt:             "单个云块存储卷的写入吞吐：AWS EBS gp3 最高 1,000 MiB/s（AWS EBS 用户指南；假设）",
	MsgSrcRestart:          "重新开通实例并重新加载权重和优化器状态（假设）",
	MsgSpotNow:             "此 GPU 最便宜方案的竞价：每月回收次数",
	MsgYoungDaly:           "检查点间隔（Young/Daly）",
	MsgSrcAPINone:          "目录中没有此模型的托管 API",
	MsgHostedNote:          "推理服务：与自建比较的托管 API，每 1M 输入和输出 token 的美元价格；留空则使用目录中该模型带日期的标价。",
	MsgAPIInField:          "托管 API：每 1M 输入 token 美元",
	MsgAPIOutField:         "托管 API：每 1M 输出 token 美元",
	MsgHostedTitle:         "目标请求率下托管 API 与自建对比",
	MsgHostedAPI:           "托管 API",
	MsgAPIPrices:           "每 1M 输入 / 输出",
	MsgAPIMonthly:          "API 每月",
	MsgSelfHosted:          "自建每月",
	MsgBreakEven:           "盈亏平衡请求率",
	MsgBreakEvenAlways:     "%s；高于 %s 时始终更省",
	MsgInstancesOf:         "%s（共 %s）",
	MsgPerSecond:           "次/秒",
	MsgAsSet:               "按当前设置",
	MsgCostAtSpeed:         "按此速度每 100 万生成 token 成本",
	MsgJobCostAtSpeed:      "按此速度的任务成本",
	MsgPlannerBestPerM:     "规划器在此 GPU 上的最便宜方案（每 100 万生成 token）",
	MsgPlannerBestJob:      "规划器在此 GPU 上的最便宜方案（任务成本）",
	MsgInFlight:            "个并发请求",
	MsgPrOnDemand:          "按需",
	MsgPrSpot:              "竞价",
	MsgPrRes1:              "预留 1 年",
	MsgPrRes3:              "预留 3 年",

	MsgFleetOf:       "最便宜方案的集群",
	MsgFleetHere:     "同样负载在所选 GPU 上",
	MsgPerMonthUnit:  "/月",
	MsgPerRequestP95: "每请求 p95 %s",
	MsgUnknownNet:    "允许跨未标明互联网络的实例规划（假定 100 Gbit/s）",
	MsgCommShare:     "通信占每步 %s",
	MsgCommFact:      "GPU 间通信",

	MsgFreshnessField: "新鲜期（天，推荐只用不超过此天数的价格）",
	MsgPriceAsOf:      "价格日期 %s",
	MsgVerifyPrice:    "价格来自 %s — 请核实",
	MsgVerifyDated:    "请核实价格",
	MsgAge180to365:    "180 天至一年",
	MsgAgeUndated:     "无日期",
	MsgOwnUndated:     "无日期：您的价格不会被判为过期",
	MsgFarBelow:       "不到其他服务商对此 GPU 报价的一半 — 请核实",
	MsgSourceOpen:     "来源将此价格标为起价（“起”）或未说明其某项条件 — 请核实",
	MsgSpotFarBelow:   "竞价价格远低于其自身按需价格，超出各云厂商公布的折扣 — 请核实",
	MsgFromListing:    "市场平台“起价”：读取时最便宜的挂单",
	MsgFooterFresh:    "今日价格时效：%s 个（共 %s 个报价）不到 90 天，%s 个 90 至 180 天，%s 个 180 天至一年，%s 个超过一年，%s 个无日期；%s 个为估计日期。",
	MsgLoadTitle:      "延迟随负载变化（单个引擎副本，模拟）",
	MsgLoadX:          "每个引擎副本的请求数/秒（泊松到达）",
	MsgLoadY:          "延迟（对数刻度）",
	MsgLoadTTFT95:     "首 token 时间 %s",

	MsgLoadTTFTTarget: "首 token 目标（%s）%s",

	MsgLoadOp:          "本方案：每副本 %s 次/秒",
	MsgLoadSat:         "饱和点：%s 次/秒",
	MsgLoadCaptionOne:  "单个引擎副本（%s），按规划器的设置模拟。方案由这一个副本承担 %s 次/秒：首 token 时间（%s）为 %s，每输出 token 用时（%s）为 %s。单个副本在 %s 次/秒时饱和：超过后请求到达快于完成，比此处模拟的 %s 个请求更长的运行中队列会无限增长。",
	MsgLoadCaption:     "单个引擎副本（%s），按规划器的设置模拟。方案把 %s 次/秒分给 %s 个副本，每个 %s 次/秒：首 token 时间（%s）为 %s，每输出 token 用时（%s）为 %s。单个副本在 %s 次/秒时饱和：超过后请求到达快于完成，比此处模拟的 %s 个请求更长的运行中队列会无限增长。",
	MsgBindTTFT:        "副本数由首 token 时间（%s）在 %s 次/秒下决定",
	MsgBindTPOT:        "副本数由每输出 token 用时（%s）在 %s 次/秒下决定",
	MsgBindThroughput:  "副本数由吞吐量决定：更少的副本在 %s 次/秒下会超过利用率上限",
	MsgBindNone:        "一个副本即可在 %s 次/秒下满足目标",
	MsgLimitNone:       "没有请求等待引擎空位",
	MsgLimitSeqs:       "每个引擎副本受并发序列上限（max_num_seqs）限制",
	MsgLimitKV:         "每个引擎副本受其 KV 缓存限制",
	MsgLimitTokens:     "每个引擎副本受每步批处理 token 预算（prefill）限制",
	MsgLimitPolling:    "每个引擎副本受调度间隔限制",
	MsgBindAnd:         "%s；%s",
	MsgBenchTitle:      "您的基准测试",
	MsgBenchHelp:       "用命令行把引擎拟合到您运行的服务基准测试（vllm bench serve 的 JSON、SGLang bench_serving 的 JSON 行、genai-perf 的 CSV，或 concurrency,ttft_ms,tpot_ms 格式的 CSV）：rightsize calibrate --gpu G --engine E --model M FILE。把它输出的链接形式粘贴到这里：选择其 GPU 和引擎时，单请求开销、预填充 MFU 和解码带宽占比将决定速度和方案（与“假设”框中的数值一样，作用于所有 GPU），链接会携带它。",
	MsgBenchPick:       "校准（gpu,引擎,单请求毫秒,预填充 MFU,解码带宽占比）",
	MsgBenchApplied:    "已应用 %s 上 %s 的校准：单请求开销 %s，预填充 MFU %s，解码带宽占比 %s。",
	MsgBenchMismatch:   "此链接中的校准是为 %s 上的 %s 拟合的；选择该 GPU 和引擎时才会应用。",
	MsgBenchBad:        "此链接中的校准无法读取，已忽略。",
	MsgJobTokens:       "%s 个训练 token",
	MsgJobRequests:     "%s 个请求 × %s 个 token",
	MsgJobRate:         "每秒 %s 个请求 · 每个 %s + %s 个 token",
	MsgJobWithin:       "%s 内完成",
	MsgJobBudget:       "预算 %s",
	MsgJobBudgetMonth:  "预算每月 %s",
	MsgJobFor:          "规划对象",
	MsgJobSetupOn:      "下方内存与速度基于",
	MsgBadCurve:        "需要 24 个每秒请求数，每小时一个，用逗号分隔",
	MsgOwnNeeds:        "填写购买价格时必填",
	MsgCurveField:      "每日负载，每小时请求/秒（24 个，逗号分隔）",
	MsgWorkloadField:   "请求组成",
	MsgWorkloadAsSet:   "按设置（单一提示与回答长度）",
	MsgOwnPriceField:   "自购：每块 GPU 价格（美元）",
	MsgKWhField:        "电价，美元/千瓦时",
	MsgOwnYearsField:   "折旧年限（年）",
	MsgFleetTitle:      "全天机群",
	MsgFleetBest:       "%s 上的最佳组合：每月 %s —— %s",
	MsgFleetCommit:     "%s 个副本%s，其余%s",
	MsgFleetNoCommit:   "不预留：按小时%s",
	MsgFleetSaving:     "比全部按需便宜 %s（%s）",
	MsgFleetNoSpot:     "不用竞价：最便宜的竞价组合每月 %s，省下的钱不及第二个备用副本的费用（%s），且同一报价的竞价实例会被一起回收",
	MsgFleetPeak:       "高峰 %s 个副本（%s 请求/秒），最闲时 %s 个",
	MsgFleetChoice:     "计费方式",
	MsgFleetAllOD:      "全部按需",
	MsgFleetAllSpot:    "全部竞价（含备用）",
	MsgFleetAll1y:      "全部预留 1 年",
	MsgFleetAll3y:      "全部预留 3 年",
	MsgFleetBestMix:    "最佳组合",
	MsgFleetUnpriced:   "无价格",
	MsgFleetChartTitle: "按小时的副本数与费用",

	MsgFleetNeed:             "所需",
	MsgFleetCostHour:         "每小时费用",
	MsgMixTitle:              "混合机群",
	MsgMixSaves:              "每月 %s，对比最佳单一方案（%s）的 %s：节省 %s（%s）",
	MsgMixSame:               "单一方案对所有请求规模最优：%s",
	MsgMixGroup:              "%s：%s 的请求（%s）",
	MsgOwnTitle:              "改为自购 GPU？",
	MsgOwnLine:               "自购 %s 块 GPU：每个忙碌 GPU 小时 %s，租用为 %s；每月 %s",
	MsgOwnBreakEven:          "相对按需租用，利用率高于 %s 时自购更划算（本机群：%s）",
	MsgOwnNever:              "任何利用率下租用都更便宜",
	MsgFleetUnsized:          "无机群：%s",
	MsgFleetReserved:         "预留",
	MsgLoadPeak:              "加载时峰值（在 GPU 上量化）",
	MsgNeeded:                "所需（不含分配器在内存不足时释放的缓存块）",
	MsgBackwardEndPeak:       "反向传播结束时的峰值（FSDP 根单元汇集其梯度）",
	MsgOptimizerStepPeak:     "优化器步骤中的峰值（foreach AdamW 的临时张量，与一个动量同大）",
	MsgTextVision:            "参数：文本 %s + 视觉 %s",
	MsgTextOnly:              "仅文本（不加载视觉塔）",
	MsgKernel:                "仅权重量化内核",
	MsgEngineVersion:         "引擎版本（留空：当前）",
	MsgHost:                  "主机 CPU（类别或型号；留空：该 GPU 常见主机）",
	MsgOwnNoWatts:            "目录中没有 %s 的功耗数据：无法计算自购成本",
	MsgLaunchTitle:           "运行它",
	MsgLaunchHelp:            "按最便宜方案的规划数据生成的启动设置：运行前请检查路径与模型。",
	MsgLaunchKind:            "启动方式",
	MsgLaunchRouter:          "分离式 worker 的路由",
	MsgRouterEngine:          "引擎自带路由",
	MsgCopyLaunch:            "复制",
	MsgLaunchCopied:          "启动设置已复制",
	MsgLaunchNoSky:           "SkyPilot 不支持该云厂商：请换一种启动方式或选择 SkyPilot 支持的云",
	MsgLaunchModelParallel:   "此启动方式仅支持数据并行训练；该方案切分了模型（TP、PP 或 CP）",
	MsgLaunchSkyServePorts:   "SkyServe 将每个副本的请求发往一个端口，而该方案在每个实例上运行多个引擎副本，各占一个端口：请选择引擎本身的启动方式，并在副本前放置负载均衡器",
	MsgLaunchLayout:          "该引擎无法在这些 GPU 上为此模型启动方案中的注意力数据并行或专家并行：请选择其他引擎，或不使用注意力数据并行的布局",
	MsgLaunchPrecision:       "DeepSpeed 无法按估算方式运行此方案的纯 16 位训练（优化器卸载时，或 ZeRO 1–3 下的 fp16，它会保留 32 位副本或拒绝启动）：请选择 FSDP 启动方式，或使用混合精度规划",
	MsgLaunchStack:           "此启动方式运行的程序与方案估算所依据的程序不同：以 Lightning 精度名（bf16-true）指定的微调按 LitGPT 的微调脚本规划，只有 LitGPT 启动方式运行它；其他精度按 Hugging Face Trainer 规划",
	MsgLaunchLitGPT:          "LitGPT 的微调脚本无法按估算方式运行此方案：它们在单个 GPU 上不做激活重计算地训练，或在 FSDP 完全分片下对每个块重计算，不向主机卸载任何内容，QLoRA 仅限单个 GPU，且不切分模型（TP、PP、EP 或 CP），且只支持其 --precision 所列的精度和 --lora_* 参数能给出的适配器组合；rightsize plan --emit litgpt 会说明不符之处",
	MsgLaunchLitGPTModel:     "LitGPT 0.4.13 的配置库中没有此模型的检查点（litgpt download list 列出它支持的模型）：请选择其他模型，或以 bf16 精度规划以使用 Hugging Face Trainer 启动",
	MsgLaunchNone:            "此方案没有启动设置",
	MsgCP:                    "上下文并行（CP）",
	MsgLeverMFU:              "该数字最依赖假定的 MFU（%s）：请在“假设”中填入实测 MFU",
	MsgLeverInfMFU:           "该数字最依赖假定的预填充 MFU（%s）：请在“假设”中填入实测值或您的基准测试",
	MsgLeverBW:               "该数字最依赖解码达到的显存带宽比例（%s）：请在“假设”中填入实测值或您的基准测试",
	MsgLeverHost:             "该数字最依赖主机每步耗时：请在实测覆盖项中填写主机 CPU 与引擎版本",
	MsgLeverComm:             "该数字最依赖 GPU 之间的网络：减少每个模型副本的 GPU 数，或选择注明集群网络的方案，影响最大",
	MsgCommHidden:            "步骤中 %s 未被掩盖；全部通信每步耗时 %s，其余被计算掩盖",
	MsgDataset:               "数据集 token 数（配合轮数：替代训练 token）",
	MsgEpochs:                "训练轮数",
	MsgJobEpochs:             "%s 轮 × %s token",
	MsgPerEpoch:              "每轮 %s",
	MsgFirstWave:             "并发 %s 的基准测试均值，首批请求因预热后的冷启动晚 %s（估算）",
	MsgNeedsDataset:          "设置轮数时请填写数据集 token 数",
	MsgEP:                    "专家并行（EP，MoE）",
	MsgRedundant:             "冗余专家（EPLB 副本）",
	MsgAsync:                 "异步调度（vLLM --async-scheduling，0.14 之前需手动开启）",
	MsgNoOverlap:             "关闭重叠调度（SGLang、TensorRT-LLM）",
	MsgDraft:                 "每步 MTP 草稿 token 数（投机解码；0：关闭）",
	MsgGraphCap:              "CUDA 图覆盖的最大解码批次（SGLang --cuda-graph-max-bs；更大批次以 eager 解码；0：任务的批次）",
	MsgDraftAccept:           "草稿接受率（0：该模型的实测值）",
	MsgMTPDetail:             "每步 MTP 草稿 token：%s；每步接受的 token：%s",
	MsgDP:                    "注意力数据并行（DP，推理服务）",
	MsgKindHyperscaler:       "超大规模云",
	MsgKindGPUCloud:          "GPU 云",
	MsgKindMarketplace:       "算力市场",
	MsgKindBroker:            "经纪平台",
	MsgKindDecentralized:     "去中心化网络",
	MsgFXLine:                "价格以 %s 显示：按 1 美元 = %s 换算（%s；汇率来源见“假设”）",
	MsgCompareAdd:            "+ 对比",
	MsgCompared:              "✓ 对比中",
	MsgCompareRemove:         "从对比中移除",
	MsgComparePlans:          "方案对比",
	MsgCompareFull:           "对比最多容纳 %s 个方案：请先移除一个再添加。",
	MsgCompareNoPlan:         "—：按当前设置的任务，此报价没有可行方案。",
	MsgPriceDate:             "价格日期",
	MsgCompareIgnored:        "未加入对比（不是报价 ID、重复，或超过 %s 个方案）",
	MsgVerifyHF:              "先在相同长度上运行一遍，再对这些长度的 model.generate() 计时：在 H100 上的 PyTorch 2.11 中，第一遍会为每个新长度构建 cuDNN 注意力计划，慢 3–6 倍",
	MsgPresetChat:            "对话服务（Azure LLM 推理轨迹 2023，conversation：19,366 个请求）",
	MsgPresetCode:            "代码补全服务（Azure LLM 推理轨迹 2023，code：8,819 个请求）",
	MsgPreset1k1k:            "InferenceX 固定长度基准形状 1k/1k：提示与回答均衡",
	MsgPreset8k1k:            "InferenceX 固定长度基准形状 8k/1k：长提示、短回答",
	MsgPreset1k8k:            "InferenceX 固定长度基准形状 1k/8k：短提示、长回答",
	MsgWithCheckpointing:     "开启梯度检查点后",
	MsgFewestGPUs:            "可容纳的此 GPU 最少数量",
	MsgMoreThanGPUs:          "超过 %s 块",
	MsgRegionField:           "托管地区（地区前缀，如 eu-、ru）",
	MsgCheaperFlagged:        "若价格属实则更便宜——请核实：%s，%s",
	MsgOwnPriceMark:          "您的价格",
	MsgOwnUnfit:              "您的价格，未选用：%s 无法运行此任务：%s",
	MsgOwnUnfitMore:          "另有 %s 个您的报价也无法运行此任务",
	MsgFitsWith:              "这样可以装下",
	MsgLayoutChosen:          "所选布局",
	MsgLayoutWhy:             "%s 可装下：%s；%s",
	MsgLayoutNeeds:           "%s 需要 %s（可用 %s）",
	MsgSchedPlain:            "普通 1F1B",
	MsgSchedInterleaved:      "交错式 1F1B，每段 %d 个模型块",
	MsgLeverCheckpointing:    "梯度检查点",
	MsgLeverZeRO3:            "ZeRO-3",
	MsgLeverMicroBatch:       "微批次",
	MsgLeverOffloadOptimizer: "优化器卸载到 CPU",
	MsgLeverOffloadAll:       "参数卸载到 CPU",
	MsgLeverMoreGPUs:         "更多 GPU",
	MsgLeverZeRO2:            "ZeRO-2",
	MsgLeverPlain1F1B:        "普通 1F1B（不交错）",
	MsgFixPerGPU:             "每 GPU %s，共 %s 个 GPU",
	MsgFixOneGPU:             "单个 GPU %s",
	MsgFixHost:               "每 GPU 主机内存 %s",
	MsgLoadTTFT50:            "首 token 时间 p50",
	MsgLoadTPOT95:            "每 token 时间 %s",
	MsgLoadTPOTTarget:        "每 token 目标（%s）%s",
	MsgNoAnswerBudget:        "有方案能运行此任务，但都超出您的预算：请提高预算，或清空以查看任务费用。",
	MsgNoAnswerDeadline:      "有方案能运行此任务，但都超出您的期限：请延长期限，或清空以查看任务耗时。",
	MsgNoAnswerNoTokens:      "没有服务方案：规划器按模型生成的 token 规划集群，而此模型不生成 token（无 KV 缓存）。所需显存与装得下的 GPU 见下方。",
	MsgNoAnswerGGUF:          "没有服务方案：GGUF 格式（Q4_K_M 等）由 llama.cpp 运行，而按请求速率的服务按连续批处理引擎（vLLM、SGLang、TensorRT-LLM）规划，它们不运行该格式。如需 4 比特权重，请选择 int4 精度（vLLM 运行的 AWQ 或 GPTQ），或将 GGUF 模型按批量请求规划。",
	MsgOwnCheaper:            "自购：每月 %s，同一天最佳租用机群为 %s：自购更便宜",
	MsgOwnDearer:             "自购：每月 %s，同一天最佳租用机群为 %s：租用更便宜",
	MsgFleetVsCard:           "上方最便宜的方案（每月 %s）全天按需承载峰值；此机群随每日负载伸缩，并以最便宜的方式购买时长：每月 %s。",
	MsgKindsDefault:          "云厂商与经纪商（默认）",
	MsgKindsAny:              "任意，含市场平台与去中心化网络",
	MsgKindsNote:             "方案来自超大规模云、GPU 云与经纪商；市场平台与去中心化网络见筛选中的服务商类型。",
	MsgWidened:               "去掉筛选“%s”后：%s，每小时 %s，共 %s。",
	MsgNoAnswerRunLength:     "有方案能运行此预训练任务，但都超出未设期限时假定的运行时长：已公开的最长预训练（BLOOM 176B）。请设置期限，或设为 0 取消。",
	MsgRunLengthMissed:       "不超过 %s 个实例的方案都无法在 %s 内完成；最快的 %s 需要 %s，费用 %s，而 %s 至少需要其 %s 块 GPU。",
	MsgRunLengthWithout:      "未设期限，按已公开的最长预训练（BLOOM 176B）在 %s 内完成来规划；不作此假定时最便宜的方案是 %s，耗时 %s，费用 %s。设置期限可更改，设为 0 取消。",
	MsgRunLengthRaised:       "不超过 %s 个实例（默认上限）的方案都无法在 %s 内完成，因此为此将上限提高到 %s 个实例。",
	MsgNoneSameReason:        "每个报价都因同一原因被排除：%s",
	MsgNoneEngineRuns:        "%s；可在其上运行此任务的引擎：%s",
	MsgNoneEngineAlike:       "%s，计划按请求速率提供服务所用的其他引擎（%s）也不支持",
	MsgNoneCause:             "筛选后剩下的报价都无法运行此任务：%s。",
	MsgNoneCauseEngine:       "筛选后剩下的报价都无法运行此任务：%s。请在“%s”中选择其一。",
	MsgNoneMixed:             "各报价被拒的原因不同，最常见的在前：%s",
	MsgNoneMixedRest:         "%s × 其他原因",
	MsgNoneMixedSep:          "；",
	MsgNotWhole:              "不是整数",
	MsgAttnKernel:            "注意力内核（训练）",
	MsgAttnFA2:               "FlashAttention-2 / Triton",
	MsgAttnCuDNN:             "cuDNN 融合（Transformer Engine：Megatron-Core、NeMo）",
	MsgAttnFA3:               "FlashAttention-3",
	MsgAttnKernelHelp:        "cuDNN：Hopper 上的 Megatron-Core 和 NeMo；FA2：llm-foundry、Hugging Face。H100 上为 FA2 速度的 ×1.62（cuDNN）、×1.74（FA3）；显存不变。",
	MsgAdapterDType:          "适配器数据类型",
	MsgAdapterAuto:           "自动（混合精度：fp32；纯 16 位：与模型相同）",
	MsgAdapterDTypeHelp:      "Hugging Face PEFT 在 bf16 基座上将适配器保持为 fp32；不使用 autocast 时，每个带适配器的层还会保存其输入的一份 fp32 副本。torchtune 和 LitGPT 将适配器保持为模型的数据类型。",
}

// Tr returns the message for key in lang, falling back to English.
func Tr(lang string, key MsgKey) string {
	if m, ok := Messages[lang]; ok && m[key] != "" {
		return m[key]
	}
	return Messages["en"][key]
}

// PinLabel is the pin button's label.
func PinLabel(lang string, pinned bool) string {
	if pinned {
		return Tr(lang, MsgUnpin)
	}
	return Tr(lang, MsgPin)
}

// PresetKeys translate the planner's workload presets' descriptions
// (planner.Preset.Description, one English line), by preset name.
var PresetKeys = map[string]MsgKey{
	"chat": MsgPresetChat, "code": MsgPresetCode,
	"inferencex-1k1k": MsgPreset1k1k, "inferencex-8k1k": MsgPreset8k1k, "inferencex-1k8k": MsgPreset1k8k,
}

// PresetLabel is a workload preset's name and description in lang; a
// preset without a message keeps its English description.
func PresetLabel(lang, name, description string) string {
	if k, ok := PresetKeys[name]; ok {
		description = Tr(lang, k)
	}
	return name + " — " + description
}

// WarningKeys translate the estimator's warnings, by code.
var WarningKeys = map[estimator.Warning]MsgKey{
	estimator.WarnTightFit: MsgWarnTightFit, estimator.WarnSeqBeyondContext: MsgWarnSeqBeyondContext,
	estimator.WarnKVHeadsReplicated: MsgWarnKVHeadsReplicated, estimator.WarnUnevenPipeline: MsgWarnUnevenPipeline,
	estimator.WarnNoActivationModel: MsgWarnNoActivationModel, estimator.WarnVisionApprox: MsgWarnVisionApprox,
	estimator.WarnFP8NotInLlamaCpp: MsgWarnFP8NotInLlamaCpp, estimator.WarnPoolBelowOneSeq: MsgWarnPoolBelowOneSeq,
	estimator.WarnNoKVCache: MsgWarnNoKVCache, estimator.WarnZeROWithoutDP: MsgWarnZeROWithoutDP, estimator.WarnBlockSplit: MsgWarnBlockSplit,
	estimator.WarnNoDPAttention: MsgWarnNoDPAttention,
}
