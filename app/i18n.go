package app

import "rightsize/estimator"

// Rightsize speaks the languages its users write: English, Russian and
// Chinese. Messages are looked up by key; a key missing in a language falls
// back to English, so a new string never shows up blank.

// languages in the order the picker shows them.
var languages = []struct{ code, name string }{{"en", "English"}, {"ru", "Русский"}, {"zh", "中文"}}

type msgKey int

const (
	mTagline msgKey = iota
	mModel
	mTask
	mPrecision
	mKV
	mBatch
	mSeq
	mOptimizer
	mCheckpointing
	mFlash
	mLoRARank
	mEngine
	mMemUtil
	mGPU
	mGPUs
	mZeRO
	mTP
	mPP
	mOffload
	mUnits
	mLanguage
	mPerGPU
	mPart
	mMemory
	mShare
	mUncertainty
	mWeights
	mGradients
	mOptimizerStates
	mActivations
	mLogits
	mKVCache
	mCUDAContext
	mAllocator
	mNCCL
	mCUDAGraphs
	mQuantState
	mTotal
	mUsable
	mFits
	mDoesNotFit
	mHeadroom
	mShortBy
	mParams
	mActive
	mKVPerToken
	mKVPool
	mMaxBatch
	mMaxSeq
	mFixFields
	mGPUFit
	mGPUCol
	mVRAM
	mWithYourSetup
	mMinGPUs
	mFromPrice
	mNone
	mOffers
	mProvider
	mInstance
	mOnDemand
	mSpot
	mReserved
	mRegion
	mAsOf
	mStale
	mShowAll
	mNoOffers
	mRange
	mNotNumber
	mUnknownChoice
	mIncompatible
	mWarnings
	mTrainOnly
	mVLLMOnly
	mPickGPU
	mPricesNote
	mQuant
	mLoRATargets
	mSelective
	mMaxBatched
	mEager
	mOverrides
	mOverridesNote
	mUsableOverride
	mNotSize
	mTaskInference
	mTaskTrain
	mTaskFinetune
	mTaskLoRA
	mTaskQLoRA
	mOffNone
	mOffOptimizer
	mOffAll
	mTargetsAttn
	mTargetsAll
	mQuantAuto
	mSheetTitle
	mSheetHelp
	mSheetPick
	mSheetClear
	mSheetRows
	mSheetOffers
	mSheetTooBig
	mSheetUnreadable
	mYourPrice
	mRulesTitle
	mRulesNote
	mRuleParams4
	mRuleParamMem15
	mRuleWeights12
	mRuleHF18
	mRuleSays
	mThisEstimate
	mOffBy
	mYourModel
	mConfigHelp
	mNoCustomModel
	mUpdateReady
	mLinkIgnored
	mSheetApplying
	mSavedKept
	mNotKept
	mConfigDrop
	mReload
	mNotCount
	mMs
	mSec
	mMin
	mHours
	mDays
	mSpeedTitle
	mSpeedNote
	mThroughputTrain
	mThroughputInfer
	mJobTime
	mGPUHours
	mTTFT
	mPerSeq
	mJobCost
	mPerMTokens
	mTrainTokens
	mOutputTokens
	mNoPerf
	mMFUImplied
	mFrom
	mCheapest
	mSortBy
	mSortVRAM
	mSortCost
	mSpotShort
	mCopyLink
	mLinkCopied
	mBadConfig
	mInvalid
	mNoModel
	mHWNoBF16
	mHWNoFP8
	mUnitGB
	mUnitGiB
	mBillionSuffix
	mMillionSuffix
	mKiB
	mTokens
	mModelLimit
	mInputs
	mUnitsGiB
	mUnitsGB
	mFooter
	mOpenInRightsize
	mFWeights
	mFGradients
	mFOptimizer
	mFActivations
	mFLogits
	mFKV
	mFOverhead
	mBoundCompute
	mBoundBandwidth
	mEffMFU
	mEffBandwidth
	mFTTFT
	mFDecode
	mFCostPerM
	mFTrain
	mFJobTime
	mFJobCost
	mVerifyVLLM
	mVerifyTrain
	mVerifyMemory
	mTimePerM
	mGPUHour
	mYear1
	mYear3
	mBasis
	mBasisFormula
	mBasisInputs
	mBasisEfficiency
	mBasisBand
	mBasisBound
	mBasisVerify
	mAsOfSource
	mEstimatedDate
	mAgeFresh
	mAgeAging
	mAgeOld
	mPickCheapest
	mPickFastest
	mPickValue
	mAnswerTitle
	mNoAnswer
	mAnswerNote
	mUseThis
	mParetoTitle
	mParetoHint
	mPin
	mUnpin
	mVerdict
	mTokensPerSec
	mCheapestCost
	mCompareTitle
	mPinned
	mLive
	mExportTitle
	mExportCSV
	mExportJSON
	mCopyMarkdown
	mMarkdownCopied
	mConfigTooBig
	mConfigPick
	mConfigPaste
	mFileTooBig
	mBadSheet
	mWarnTightFit
	mWarnSeqBeyondContext
	mWarnKVHeadsReplicated
	mWarnUnevenPipeline
	mWarnNoActivationModel
	mWarnVisionApprox
	mWarnFP8NotInLlamaCpp
	mWarnPoolBelowOneSeq
	mWarnNoKVCache
	mWarnZeROWithoutDP
	mHWNoFP4
	mHowAccurate
	mRPS
	mTTFTTarget
	mTPOTTarget
	mGlobalBatch
	mOptimizerSteps
	mServeTitle
	mConcurrency
	mReplicas
	mFleetGPUs
	mMonthly
	mTargetsMissed
	mTPOT
	mBoundHost
	mBoundComm
	mAssumptions
	mAssumptionsNote
	mMFUField
	mInfMFUField
	mBWField
	mFXTitle
	mCurrency
	mPerUSD
	mPlanning
	mFixToUpdate
	mMonthlyShort
	mBatchCost
	mBatchTime
	mE2EP95
	mRequests
	mPricing
	mCurrencyField
	mProviderKind
	mCountry
	mBudget
	mDeadline
	mMinVCPU
	mMinRAM
	mAny
	mFilters
	mPlanNotes
	mDefaultIs
	mPlanAssumptionsNote
	mSpotRateField
	mCkptWriteField
	mRestartField
	mSrcSpot
	mSrcCkpt
	mSrcRestart
	mSpotNow
	mYoungDaly
	mSrcAPINone
	mHostedNote
	mAPIInField
	mAPIOutField
	mHostedTitle
	mHostedAPI
	mAPIPrices
	mAPIMonthly
	mSelfHosted
	mBreakEven
	mPerSecond
	mAsSet
	mCostAtSpeed
	mJobCostAtSpeed
	mPlannerBest
	mInFlight
	mPrOnDemand
	mPrSpot
	mPrRes1
	mPrRes3
	mGPUsWord
	mFleetOf
	mFleetHere
	mPerMonthUnit
	mPerRequestP95
	mUnknownNet
	mCommShare
	mCommFact
	mOfStep
	mFreshnessField
	mPriceAsOf
	mVerifyPrice
	mAge180to365
	mAgeUndated
	mFarBelow
	mFromListing
	mFooterFresh
	mLoadTitle
	mLoadX
	mLoadY
	mLoadTTFT95
	mLoadTTFT50
	mLoadTPOT95
	mLoadTTFTTarget
	mLoadTPOTTarget
	mLoadOp
	mLoadSat
	mLoadCaption
	mBindTTFT
	mBindTPOT
	mBindThroughput
	mBindNone
	mLimitNone
	mLimitSeqs
	mLimitKV
	mLimitTokens
	mLimitPolling
	mBindAnd
	mBenchTitle
	mBenchHelp
	mBenchPick
	mBenchApplied
	mBenchMismatch
	mBenchBad
	mJobTokens
	mJobRequests
	mJobRate
	mJobFor
	nMsgs
)

// messages are the page's strings by language. Each language is a
// package-level array, laid out by the linker as static data: a map
// literal here compiled to 44 KB of WebAssembly that built the three
// tables at start-up.
var messages = map[string]*[nMsgs]string{"en": &messagesEN, "ru": &messagesRU, "zh": &messagesZH}

var messagesEN = [nMsgs]string{
	mTagline: "How much GPU memory your model needs, which GPUs fit, and where to rent them.",
	mModel:   "Model", mTask: "Task", mPrecision: "Precision", mKV: "KV-cache dtype", mBatch: "Batch size",
	mSeq: "Sequence length (tokens)", mOptimizer: "Optimizer", mCheckpointing: "Gradient checkpointing",
	mFlash: "FlashAttention / SDPA", mLoRARank: "LoRA rank", mEngine: "Inference engine",
	mMemUtil: "vLLM gpu_memory_utilization", mGPU: "GPU", mGPUs: "GPUs", mZeRO: "ZeRO stage (3 = FSDP)",
	mTP: "Tensor parallel", mPP: "Pipeline stages", mOffload: "CPU offload", mUnits: "Units", mLanguage: "Language",
	mPerGPU: "Memory per GPU", mPart: "Part", mMemory: "Memory", mShare: "Share", mUncertainty: "±",
	mWeights: "Weights", mGradients: "Gradients", mOptimizerStates: "Optimizer states", mActivations: "Activations",
	mLogits: "Logits / loss", mKVCache: "KV cache", mCUDAContext: "CUDA context", mAllocator: "Allocator reserve",
	mNCCL: "NCCL buffers", mCUDAGraphs: "CUDA graphs", mQuantState: "Quantization state", mTotal: "Total",
	mUsable: "Usable on this GPU", mFits: "Fits", mDoesNotFit: "Does not fit", mHeadroom: "headroom",
	mShortBy: "short by", mParams: "Parameters", mActive: "active per token", mKVPerToken: "KV cache per token",
	mKVPool: "vLLM KV pool", mMaxBatch: "Largest batch that fits", mMaxSeq: "Longest sequence that fits",
	mFixFields: "Fix the highlighted fields to see an estimate.", mGPUFit: "Which GPUs fit",
	mGPUCol: "GPU", mVRAM: "VRAM", mWithYourSetup: "With your GPU count", mMinGPUs: "GPUs needed",
	mFromPrice: "From (on-demand)", mNone: "—", mOffers: "Where to rent", mProvider: "Provider",
	mInstance: "Instance", mOnDemand: "On-demand /h", mSpot: "Spot /h", mReserved: "Reserved /h", mRegion: "Region", mAsOf: "As of",
	mStale: "older than 90 days", mShowAll: "Show all", mNoOffers: "No offer in the catalog has this GPU.",
	mRange: "out of range", mNotNumber: "not a number", mUnknownChoice: "unknown choice",
	mIncompatible: "does not work with the other settings", mWarnings: "Notes", mTrainOnly: "training only",
	mVLLMOnly: "vLLM only", mPickGPU: "Click a row to pick that GPU.",
	mPricesNote:            "Prices per instance and hour in the provider's currency; dated and sourced per row. Estimates, not quotes.",
	mQuant:                 "Weight format",
	mLoRATargets:           "LoRA targets",
	mSelective:             "Selective recompute (attention scores only)",
	mMaxBatched:            "vLLM max_num_batched_tokens (0 = 8192)",
	mEager:                 "vLLM --enforce-eager (no CUDA graphs)",
	mOverrides:             "Overheads you measured",
	mOverridesNote:         "Leave empty to use the estimate. Sizes take a unit: 1343MiB, 0.5GiB, 2GB.",
	mUsableOverride:        "Usable memory per GPU (torch.cuda.mem_get_info)",
	mNotSize:               "not a size with a unit (e.g. 1343MiB, 0.5GiB)",
	mTaskInference:         "Inference",
	mTaskTrain:             "Pre-training",
	mTaskFinetune:          "Full fine-tune",
	mTaskLoRA:              "LoRA",
	mTaskQLoRA:             "QLoRA (4-bit base)",
	mOffNone:               "None",
	mOffOptimizer:          "Optimizer states",
	mOffAll:                "Optimizer states and parameters",
	mTargetsAttn:           "Attention (q, k, v, o)",
	mTargetsAll:            "All linear layers",
	mQuantAuto:             "Auto (from precision and engine)",
	mSheetTitle:            "Your prices",
	mSheetHelp:             "Load a price sheet (CSV or JSON: offer_id or provider + instance_type, prices per instance-hour, currency, as_of, source) to compare negotiated prices. It stays in this browser.",
	mSheetPick:             "Price sheet",
	mSheetClear:            "Back to catalog prices",
	mSheetRows:             "rows",
	mSheetOffers:           "offers changed or added",
	mSheetTooBig:           "larger than 4 MiB",
	mSheetUnreadable:       "the browser could not read the file",
	mYourPrice:             "your price",
	mRulesTitle:            "Rules of thumb vs this estimate",
	mRulesNote:             "What common rules give for the same job held by one copy of the model on one GPU. A negative error means the rule under-sizes the GPU.",
	mRuleParams4:           "Parameters × 4 bytes (guides' naive formula)",
	mRuleParamMem15:        "Parameter memory × 1.5 (guides, training)",
	mRuleWeights12:         "Weights × 1.2 (common serving formula)",
	mRuleHF18:              "18 bytes per parameter, AdamW mixed precision (Hugging Face; activations not included)",
	mRuleSays:              "Rule gives",
	mThisEstimate:          "Rightsize, one GPU",
	mOffBy:                 "Rule's error",
	mYourModel:             "Your model",
	mConfigHelp:            "Not in the list? Load its Hugging Face config.json: parameters, GQA/MoE/MLA and KV cache are read from it. It stays in this browser.",
	mNoCustomModel:         "your config.json is not loaded in this browser: load it under “Your model”",
	mUpdateReady:           "A new version of Rightsize is ready.",
	mLinkIgnored:           "Ignored in the link (not valid URL text)",
	mSheetApplying:         "applying",
	mSavedKept:             "Saved from your last visit, not applied (kept until you load a corrected file or remove it):",
	mNotKept:               "Applied, but the browser's storage is full or refused it: it will not be kept for your next visit.",
	mConfigDrop:            "Remove the saved config",
	mReload:                "Reload",
	mNotCount:              "not a count (e.g. 1B, 500M, 2T)",
	mMs:                    "ms",
	mSec:                   "s",
	mMin:                   "min",
	mHours:                 "h",
	mDays:                  "days",
	mSpeedTitle:            "Speed and cost (estimate)",
	mSpeedNote:             "Roofline estimate from the GPU's datasheet at the efficiencies in each figure's basis (the assumed MFU and bandwidth use; change them under Assumptions). Implied MFU is what is left after communication, bubbles and host overhead. Real runs vary with the engine and kernels; the band says how far the public measurements were.",
	mThroughputTrain:       "Training throughput, tokens/s",
	mThroughputInfer:       "Generated tokens/s, all requests",
	mJobTime:               "Time for the training tokens",
	mGPUHours:              "GPU-hours",
	mTTFT:                  "Time to first token",
	mPerSeq:                "Tokens/s per request",
	mJobCost:               "Job cost",
	mPerMTokens:            "Per 1M tokens",
	mTrainTokens:           "Training tokens (e.g. 1B, 2T)",
	mOutputTokens:          "Generated tokens per request (of the sequence)",
	mNoPerf:                "No speed estimate: the job does not fit, or the catalog lacks this GPU's FLOPS or bandwidth.",
	mMFUImplied:            "Implied MFU",
	mFrom:                  "from",
	mCheapest:              "cheapest",
	mSortBy:                "Sort by",
	mSortVRAM:              "Memory",
	mSortCost:              "Job cost",
	mSpotShort:             "spot",
	mCopyLink:              "Copy link to this estimate",
	mLinkCopied:            "Link copied: it reopens this exact estimate, offline too.",
	mBadConfig:             "config.json could not be read",
	mInvalid:               "invalid input",
	mNoModel:               "no model architecture: load a config first",
	mHWNoBF16:              "this GPU has no bf16 tensor cores (Turing, Volta): frameworks fall back to fp16 or emulate bf16, slower",
	mHWNoFP8:               "this GPU has no fp8 tensor cores (they start with Ada and Hopper): fp8 weights are upcast, no fp8 speed-up",
	mUnitGB:                "GB",
	mUnitGiB:               "GiB",
	mBillionSuffix:         "B",
	mMillionSuffix:         "M",
	mKiB:                   "KiB",
	mTokens:                "tokens",
	mModelLimit:            "model limit",
	mInputs:                "Inputs",
	mUnitsGiB:              "GiB (nvidia-smi)",
	mUnitsGB:               "GB (datasheet)",
	mFooter:                "Every formula and price is sourced and dated; every figure is an estimate with its band. The page works offline and sends nothing anywhere.",
	mOpenInRightsize:       "Open in Rightsize",
	mFWeights:              "parameters × bytes per parameter of the weight format (group scales of quantized formats included)",
	mFGradients:            "trainable parameters × gradient bytes, divided over the GPUs by ZeRO-2/3",
	mFOptimizer:            "trainable parameters × optimizer bytes (AdamW: fp32 master copy + two moments), divided by ZeRO-1/2/3",
	mFActivations:          "per layer: batch × sequence × hidden size × bytes, as Korthikanti et al. 2022 count them; less with checkpointing",
	mFLogits:               "batch × sequence × vocabulary × bytes of the logits and the loss",
	mFKV:                   "2 × layers × KV heads × head size × tokens × KV bytes (MLA: the compressed latent)",
	mFOverhead:             "measured runtime overheads (CUDA context, allocator, NCCL, CUDA graphs) from public measurements",
	mBoundCompute:          "compute (tensor FLOPS)",
	mBoundBandwidth:        "memory bandwidth",
	mEffMFU:                "MFU assumed",
	mEffBandwidth:          "bandwidth use",
	mFTTFT:                 "prompt FLOPs ÷ (peak × MFU), or weights ÷ bandwidth when that is slower",
	mFDecode:               "each step reads the weights and the KV cache: bytes ÷ (bandwidth × use), or FLOPs ÷ (peak × MFU) at large batches",
	mFCostPerM:             "instance price per hour ÷ (generated tokens per second × 3600) × 1,000,000",
	mFTrain:                "6 × parameters (+ attention) FLOPs per token ÷ (GPUs × peak × MFU), with TP communication and the pipeline bubble",
	mFJobTime:              "training tokens ÷ tokens per second",
	mFJobCost:              "job time × instance price per hour",
	mVerifyVLLM:            "vllm bench serve (or llama-bench for llama.cpp) with this prompt and output length",
	mVerifyTrain:           "log tokens/s over 50 steps after warm-up; MFU = 6 × parameters × tokens/s ÷ (GPUs × peak)",
	mVerifyMemory:          "torch.cuda.max_memory_allocated() after the first steps (add the CUDA context from nvidia-smi)",
	mTimePerM:              "time per 1M tokens",
	mGPUHour:               "GPU·h",
	mYear1:                 "1y",
	mYear3:                 "3y",
	mBasis:                 "How this is estimated",
	mBasisFormula:          "Formula",
	mBasisInputs:           "Inputs",
	mBasisEfficiency:       "Efficiency assumed",
	mBasisBand:             "Band",
	mBasisBound:            "Bound by",
	mBasisVerify:           "Verify it",
	mAsOfSource:            "As of · source",
	mEstimatedDate:         "estimated date",
	mAgeFresh:              "under 90 days old",
	mAgeAging:              "90 to 180 days old",
	mAgeOld:                "over a year old",
	mPickCheapest:          "Cheapest",
	mPickFastest:           "Fastest",
	mPickValue:             "Best value",
	mAnswerTitle:           "What to rent",
	mNoAnswer:              "No priced offer can run this job as set: change the GPU count, precision or model.",
	mAnswerNote:            "Planned over every offer in the catalog at the chosen price model and currency (other currencies converted at the dated rates under Assumptions). Estimates, not quotes.",
	mUseThis:               "Use this",
	mParetoTitle:           "Cost vs time of every offer that can run the job (log scales); the line is the Pareto front",
	mParetoHint:            "Point at a dot to see the offer; click it to use it.",
	mPin:                   "Pin to compare",
	mUnpin:                 "Unpin",
	mVerdict:               "Verdict",
	mTokensPerSec:          "Tokens/s",
	mCheapestCost:          "Cheapest cost (this GPU)",
	mCompareTitle:          "Pinned vs now",
	mPinned:                "Pinned",
	mLive:                  "Now",
	mExportTitle:           "Export",
	mExportCSV:             "Download CSV",
	mExportJSON:            "Download JSON",
	mCopyMarkdown:          "Copy Markdown table",
	mMarkdownCopied:        "Markdown copied.",
	mConfigTooBig:          "larger than 256 KiB: a config.json is a few KB",
	mConfigPick:            "config.json file",
	mConfigPaste:           "…or paste config.json here (or drop the file)",
	mFileTooBig:            "file too large",
	mBadSheet:              "price sheet refused",
	mWarnTightFit:          "fits with less than 5% headroom",
	mWarnSeqBeyondContext:  "sequence longer than the model's context length (max_position_embeddings)",
	mWarnKVHeadsReplicated: "tensor parallelism exceeds the KV heads: KV heads are replicated",
	mWarnUnevenPipeline:    "layers do not divide evenly over pipeline stages: showing the largest stage",
	mWarnNoActivationModel: "the model gives no shape numbers: activations not estimated",
	mWarnVisionApprox:      "vision tower parameters are approximate",
	mWarnFP8NotInLlamaCpp:  "llama.cpp has no fp8 weights: Q8_0 assumed",
	mWarnPoolBelowOneSeq:   "the vLLM KV pool is smaller than one sequence",
	mWarnNoKVCache:         "no KV cache for this architecture",
	mWarnZeROWithoutDP:     "ZeRO has no effect with a data-parallel degree of 1",
	mHWNoFP4:               "this GPU has no FP4 tensor cores (they start with Blackwell): FP4 weights are dequantized, no FP4 speed-up",
	mHowAccurate:           "How accurate is this?",
	mRPS:                   "Requests per second (serving; empty = off)",
	mTTFTTarget:            "Time to first token target, ms",
	mTPOTTarget:            "Time per output token target, ms",
	mGlobalBatch:           "Global batch (sequences per step; empty = one micro-batch per replica)",
	mOptimizerSteps:        "Optimizer steps",
	mServeTitle:            "Serving fleet (estimate)",
	mConcurrency:           "Requests in flight per replica",
	mReplicas:              "Replicas",
	mFleetGPUs:             "GPUs in all",
	mMonthly:               "Monthly bill (on-demand, 730 h)",
	mTargetsMissed:         "Even one request at a time misses the latency targets on this GPU: the figures are for one request per replica.",
	mTPOT:                  "Time per output token",
	mBoundHost:             "host (kernel launches, scheduler)",
	mBoundComm:             "communication",
	mAssumptions:           "Assumptions",
	mAssumptionsNote:       "Efficiencies the speed model assumes; empty uses the estimator's figure for this GPU and job (shown greyed), fitted on public measurements (see “How accurate is this?”). Shares of the datasheet peak, 0–1.",
	mMFUField:              "Training MFU (share of peak FLOP/s)",
	mInfMFUField:           "Prefill MFU (share of peak FLOP/s)",
	mBWField:               "Decode bandwidth use (share of peak)",
	mFXTitle:               "Exchange rates used to compare prices in other currencies",
	mCurrency:              "Currency",
	mPerUSD:                "per 1 USD",
	mPlanning:              "Planning every offer…",
	mFixToUpdate:           "The last answer, kept until the field marked in red is fixed.",
	mMonthlyShort:          "Per month",
	mBatchCost:             "Batch job cost",
	mBatchTime:             "Batch job time",
	mE2EP95:                "Request latency (p95)",
	mRequests:              "Requests in the batch job (when no rate is set)",
	mPricing:               "Pricing",
	mCurrencyField:         "Currency",
	mProviderKind:          "Provider kind",
	mCountry:               "Country or region (e.g. US, eu-)",
	mBudget:                "Budget, USD (job, or month for serving)",
	mDeadline:              "Deadline, hours",
	mMinVCPU:               "Minimum vCPUs per instance",
	mMinRAM:                "Minimum RAM per instance, GiB",
	mAny:                   "any",
	mFilters:               "Pricing and filters",
	mPlanNotes:             "Planner notes",
	mDefaultIs:             "default",
	mPlanAssumptionsNote:   "What the planner assumes about spot instances and checkpoints; empty uses the default shown under each field.",
	mSpotRateField:         "Spot interruptions (share of instances reclaimed per month, 0–1)",
	mCkptWriteField:        "Checkpoint write rate per instance per second (e.g. 2GB)",
	mRestartField:          "Restart time after a spot reclaim (e.g. 10m, 600)",
	mSrcSpot:               "per offer: the midpoint of its AWS Spot Advisor bucket (25% for “>20%”); offers without a bucket: 20%, the worst bucket’s lower edge (assumption)",
	mSrcCkpt:               "one cloud block volume’s write throughput: AWS EBS gp3 is provisioned up to 1,000 MiB/s (AWS EBS User Guide; assumption)",
	mSrcRestart:            "re-provisioning an instance and reloading weights and optimizer state (assumption)",
	mSpotNow:               "Spot on the cheapest plan for this GPU: reclaims per month",
	mYoungDaly:             "checkpoint every (Young/Daly)",
	mSrcAPINone:            "the catalog lists no hosted API for this model",
	mHostedNote:            "Serving: a hosted API to compare with self-hosting, USD per 1M input and output tokens; empty uses the catalog’s dated list price for the model.",
	mAPIInField:            "Hosted API: USD per 1M input tokens",
	mAPIOutField:           "Hosted API: USD per 1M output tokens",
	mHostedTitle:           "Hosted API against self-hosting at the target request rate",
	mHostedAPI:             "Hosted API",
	mAPIPrices:             "Input / output per 1M",
	mAPIMonthly:            "API per month",
	mSelfHosted:            "Self-hosted per month",
	mBreakEven:             "Break-even rate",
	mPerSecond:             "req/s",
	mAsSet:                 "As set",
	mCostAtSpeed:           "Per 1M generated tokens at this speed",
	mJobCostAtSpeed:        "Job cost at this speed",
	mPlannerBest:           "Planner's cheapest plan on this GPU",
	mInFlight:              "requests in flight",
	mPrOnDemand:            "on-demand",
	mPrSpot:                "spot",
	mPrRes1:                "reserved 1 year",
	mPrRes3:                "reserved 3 years",
	mGPUsWord:              "GPUs",
	mFleetOf:               "Fleet of the cheapest pick",
	mFleetHere:             "The same load on the selected GPU",
	mPerMonthUnit:          "/month",
	mPerRequestP95:         "p95 %s per request",
	mUnknownNet:            "Plan across instances whose provider names no network between them (assumed 100 Gbit/s)",
	mCommShare:             "communication %s of the step",
	mCommFact:              "Communication",
	mOfStep:                "of each step, not hidden by compute",
	mFreshnessField:        "Freshness window, days (the picks use prices no older)",
	mPriceAsOf:             "Price as of %s",
	mVerifyPrice:           "price from %s — verify",
	mAge180to365:           "180 days to a year old",
	mAgeUndated:            "undated",
	mFarBelow:              "under half what other providers ask for this GPU — verify",
	mFromListing:           "marketplace “from” price: the cheapest listing when read",
	mFooterFresh:           "Prices by age today: %s of %s offers under 90 days old, %s 90 to 180 days, %s 180 days to a year, %s over a year, %s undated; %s carry an estimated date.",
	mLoadTitle:             "Latency against load (one engine copy, simulated)",
	mLoadX:                 "Requests/s per engine copy (Poisson arrivals)",
	mLoadY:                 "Latency (log scale)",
	mLoadTTFT95:            "TTFT p95",
	mLoadTTFT50:            "TTFT p50",
	mLoadTPOT95:            "TPOT p95",
	mLoadTTFTTarget:        "TTFT target (p95) %s",
	mLoadTPOTTarget:        "TPOT target %s",
	mLoadOp:                "this plan: %s req/s per copy",
	mLoadSat:               "saturation: %s req/s",
	mLoadCaption:           "One engine copy (%s) simulated with the planner's settings. The plan spreads %s req/s over %s copies, %s req/s each: p95 TTFT %s, p95 TPOT %s. A copy saturates at %s req/s: above it requests arrive faster than it completes them, and a run longer than the %s requests simulated here queues without bound.",
	mBindTTFT:              "Replicas set by p95 TTFT at %s req/s",
	mBindTPOT:              "Replicas set by p95 TPOT at %s req/s",
	mBindThroughput:        "Replicas set by throughput: fewer would run above the utilisation cap at %s req/s",
	mBindNone:              "One replica meets the targets at %s req/s",
	mLimitNone:             "no request waited for an engine slot",
	mLimitSeqs:             "each engine copy limited by its running-sequence cap (max_num_seqs)",
	mLimitKV:               "each engine copy limited by its KV cache",
	mLimitTokens:           "each engine copy limited by its batched-token budget (prefill)",
	mLimitPolling:          "each engine copy limited by its scheduling interval",
	mBindAnd:               "%s; %s",
	mBenchTitle:            "Your benchmark",
	mBenchHelp:             "Fit the engine to a serving benchmark you ran (vllm bench serve JSON, SGLang bench_serving JSON lines, genai-perf's CSV, or a CSV concurrency,ttft_ms,tpot_ms) with the command line: rightsize calibrate --gpu G --engine E --model M FILE. Paste the link form it prints here: its per-request cost, prefill MFU and decode bandwidth share then set the speed and the plans (on every GPU, as the Assumptions box's figures do) when its GPU and engine are selected, and the link carries it.",
	mBenchPick:             "Calibration (gpu,engine,request ms,prefill MFU,decode bandwidth share)",
	mBenchApplied:          "Calibration applied for %s on %s: request overhead %s, prefill MFU %s, decode bandwidth share %s.",
	mBenchMismatch:         "The calibration in this link was fitted for %s on %s; it applies when that GPU and engine are selected.",
	mBenchBad:              "The calibration in this link does not read; it is ignored.",
	mJobTokens:             "%s training tokens",
	mJobRequests:           "%s requests × %s tokens",
	mJobRate:               "%s requests/s · %s + %s tokens each",
	mJobFor:                "Planned for",
}

var messagesRU = [nMsgs]string{
	mTagline: "Сколько видеопамяти нужно модели, какие GPU подходят и где их арендовать.",
	mModel:   "Модель", mTask: "Задача", mPrecision: "Точность", mKV: "Тип KV-кэша", mBatch: "Размер батча",
	mSeq: "Длина последовательности (токены)", mOptimizer: "Оптимизатор", mCheckpointing: "Gradient checkpointing",
	mFlash: "FlashAttention / SDPA", mLoRARank: "Ранг LoRA", mEngine: "Движок инференса",
	mMemUtil: "vLLM gpu_memory_utilization", mGPU: "GPU", mGPUs: "Число GPU", mZeRO: "Стадия ZeRO (3 = FSDP)",
	mTP: "Тензорный параллелизм", mPP: "Стадии конвейера", mOffload: "Выгрузка на CPU", mUnits: "Единицы", mLanguage: "Язык",
	mPerGPU: "Память на один GPU", mPart: "Часть", mMemory: "Память", mShare: "Доля", mUncertainty: "±",
	mWeights: "Веса", mGradients: "Градиенты", mOptimizerStates: "Состояния оптимизатора", mActivations: "Активации",
	mLogits: "Логиты / loss", mKVCache: "KV-кэш", mCUDAContext: "Контекст CUDA", mAllocator: "Резерв аллокатора",
	mNCCL: "Буферы NCCL", mCUDAGraphs: "CUDA graphs", mQuantState: "Состояние квантизации", mTotal: "Итого",
	mUsable: "Доступно на этом GPU", mFits: "Помещается", mDoesNotFit: "Не помещается", mHeadroom: "запас",
	mShortBy: "не хватает", mParams: "Параметры", mActive: "активных на токен", mKVPerToken: "KV-кэш на токен",
	mKVPool: "Пул KV vLLM", mMaxBatch: "Наибольший батч", mMaxSeq: "Наибольшая длина",
	mFixFields: "Исправьте выделенные поля, чтобы увидеть оценку.", mGPUFit: "Какие GPU подходят",
	mGPUCol: "GPU", mVRAM: "Память", mWithYourSetup: "С вашим числом GPU", mMinGPUs: "Нужно GPU",
	mFromPrice: "От (по требованию)", mNone: "—", mOffers: "Где арендовать", mProvider: "Провайдер",
	mInstance: "Инстанс", mOnDemand: "По требованию /ч", mSpot: "Spot /ч", mReserved: "Резерв /ч", mRegion: "Регион", mAsOf: "Дата",
	mStale: "старше 90 дней", mShowAll: "Показать все", mNoOffers: "В каталоге нет предложений с этим GPU.",
	mRange: "вне допустимого диапазона", mNotNumber: "не число", mUnknownChoice: "неизвестное значение",
	mIncompatible: "несовместимо с другими настройками", mWarnings: "Замечания", mTrainOnly: "только обучение",
	mVLLMOnly: "только vLLM", mPickGPU: "Нажмите на строку, чтобы выбрать GPU.",
	mPricesNote:            "Цены за инстанс в час в валюте провайдера; у каждой строки есть дата и источник. Это оценка, а не оферта.",
	mQuant:                 "Формат весов",
	mLoRATargets:           "Слои LoRA",
	mSelective:             "Выборочный пересчёт (только attention)",
	mMaxBatched:            "vLLM max_num_batched_tokens (0 = 8192)",
	mEager:                 "vLLM --enforce-eager (без CUDA graphs)",
	mOverrides:             "Измеренные накладные расходы",
	mOverridesNote:         "Оставьте пустым, чтобы взять оценку. Размер с единицей: 1343MiB, 0.5GiB, 2GB.",
	mUsableOverride:        "Доступная память на GPU (torch.cuda.mem_get_info)",
	mNotSize:               "не размер с единицей (например, 1343MiB, 0.5GiB)",
	mTaskInference:         "Инференс",
	mTaskTrain:             "Предобучение",
	mTaskFinetune:          "Полное дообучение",
	mTaskLoRA:              "LoRA",
	mTaskQLoRA:             "QLoRA (4-битная база)",
	mOffNone:               "Нет",
	mOffOptimizer:          "Состояния оптимизатора",
	mOffAll:                "Состояния оптимизатора и параметры",
	mTargetsAttn:           "Attention (q, k, v, o)",
	mTargetsAll:            "Все линейные слои",
	mQuantAuto:             "Авто (по точности и движку)",
	mSheetTitle:            "Ваши цены",
	mSheetHelp:             "Загрузите прайс-лист (CSV или JSON: offer_id или provider + instance_type, цены за инстанс в час, currency, as_of, source), чтобы сравнить договорные цены. Файл остаётся в этом браузере.",
	mSheetPick:             "Прайс-лист",
	mSheetClear:            "Вернуть цены каталога",
	mSheetRows:             "строк",
	mSheetOffers:           "изменено или добавлено предложений",
	mSheetTooBig:           "больше 4 МиБ",
	mSheetUnreadable:       "браузер не смог прочитать файл",
	mYourPrice:             "ваша цена",
	mRulesTitle:            "Эмпирические правила и эта оценка",
	mRulesNote:             "Что дают распространённые правила для той же задачи, если одна копия модели стоит на одном GPU. Отрицательная ошибка — правило занижает память.",
	mRuleParams4:           "Параметры × 4 байта (наивная формула из руководств)",
	mRuleParamMem15:        "Память параметров × 1,5 (руководства, обучение)",
	mRuleWeights12:         "Веса × 1,2 (распространённая формула для инференса)",
	mRuleHF18:              "18 байт на параметр, AdamW mixed precision (Hugging Face; без активаций)",
	mRuleSays:              "Правило даёт",
	mThisEstimate:          "Rightsize, один GPU",
	mOffBy:                 "Ошибка правила",
	mYourModel:             "Своя модель",
	mConfigHelp:            "Нет в списке? Загрузите её config.json с Hugging Face: параметры, GQA/MoE/MLA и KV-кэш берутся из него. Файл остаётся в этом браузере.",
	mNoCustomModel:         "ваш config.json не загружен в этом браузере: загрузите его в разделе «Своя модель»",
	mUpdateReady:           "Доступна новая версия Rightsize.",
	mLinkIgnored:           "Пропущено в ссылке (не читается как URL)",
	mSheetApplying:         "применяется",
	mSavedKept:             "Сохранён с прошлого визита, не применён (хранится, пока вы не загрузите исправленный файл или не удалите его):",
	mNotKept:               "Применён, но хранилище браузера переполнено или недоступно: к следующему визиту он не сохранится.",
	mConfigDrop:            "Удалить сохранённый config",
	mReload:                "Обновить",
	mNotCount:              "не число (например, 1B, 500M, 2T)",
	mMs:                    "мс",
	mSec:                   "с",
	mMin:                   "мин",
	mHours:                 "ч",
	mDays:                  "дн.",
	mSpeedTitle:            "Скорость и стоимость (оценка)",
	mSpeedNote:             "Оценка по паспорту GPU (roofline) при эффективностях, указанных в основании каждой цифры (принятый MFU и использование полосы; их можно изменить в «Допущениях»). Итоговый MFU — то, что остаётся после обменов, простоев конвейера и накладных расходов хоста. Реальные запуски зависят от движка и ядер; диапазон показывает расхождение с публичными измерениями.",
	mThroughputTrain:       "Скорость обучения, токенов/с",
	mThroughputInfer:       "Сгенерированных токенов/с, все запросы",
	mJobTime:               "Время на обучающие токены",
	mGPUHours:              "GPU-часы",
	mTTFT:                  "Время до первого токена",
	mPerSeq:                "Токенов/с на запрос",
	mJobCost:               "Стоимость задачи",
	mPerMTokens:            "За 1M токенов",
	mTrainTokens:           "Обучающие токены (например, 1B, 2T)",
	mOutputTokens:          "Генерируемых токенов на запрос (из длины)",
	mNoPerf:                "Нет оценки скорости: задача не помещается или в каталоге нет FLOPS или пропускной способности этого GPU.",
	mMFUImplied:            "Итоговый MFU",
	mFrom:                  "от",
	mCheapest:              "дешевле всех",
	mSortBy:                "Сортировка",
	mSortVRAM:              "Память",
	mSortCost:              "Стоимость задачи",
	mSpotShort:             "spot",
	mCopyLink:              "Скопировать ссылку на эту оценку",
	mLinkCopied:            "Ссылка скопирована: она откроет ровно эту оценку, в том числе офлайн.",
	mBadConfig:             "не удалось прочитать config.json",
	mInvalid:               "неверный ввод",
	mNoModel:               "нет архитектуры модели: сначала загрузите config",
	mHWNoBF16:              "у этого GPU нет тензорных ядер bf16 (Turing, Volta): фреймворки переходят на fp16 или эмулируют bf16 медленнее",
	mHWNoFP8:               "у этого GPU нет тензорных ядер fp8 (они появились в Ada и Hopper): веса fp8 расширяются, ускорения fp8 нет",
	mUnitGB:                "ГБ",
	mUnitGiB:               "ГиБ",
	mBillionSuffix:         " млрд",
	mMillionSuffix:         " млн",
	mKiB:                   "КиБ",
	mTokens:                "токенов",
	mModelLimit:            "предел модели",
	mInputs:                "Параметры",
	mUnitsGiB:              "ГиБ (nvidia-smi)",
	mUnitsGB:               "ГБ (спецификация)",
	mFooter:                "Каждая формула и цена имеет источник и дату; каждое число — оценка со своим интервалом. Страница работает офлайн и никуда ничего не отправляет.",
	mOpenInRightsize:       "Открыть в Rightsize",
	mFWeights:              "параметры × байт на параметр формата весов (с масштабами групп у квантованных форматов)",
	mFGradients:            "обучаемые параметры × байты градиента, делятся между GPU при ZeRO-2/3",
	mFOptimizer:            "обучаемые параметры × байты оптимизатора (AdamW: fp32-копия и два момента), делятся при ZeRO-1/2/3",
	mFActivations:          "на слой: пакет × последовательность × скрытый размер × байты, по Korthikanti et al. 2022; меньше с чекпоинтингом",
	mFLogits:               "пакет × последовательность × словарь × байты логитов и функции потерь",
	mFKV:                   "2 × слои × KV-головы × размер головы × токены × байты KV (MLA: сжатый латент)",
	mFOverhead:             "измеренные накладные расходы среды (контекст CUDA, аллокатор, NCCL, CUDA graphs) по публичным измерениям",
	mBoundCompute:          "вычисления (тензорные FLOPS)",
	mBoundBandwidth:        "пропускная способность памяти",
	mEffMFU:                "принятый MFU",
	mEffBandwidth:          "использование полосы",
	mFTTFT:                 "FLOP промпта ÷ (пик × MFU), или веса ÷ полоса, если это дольше",
	mFDecode:               "каждый шаг читает веса и KV-кэш: байты ÷ (полоса × использование), или FLOP ÷ (пик × MFU) при больших пакетах",
	mFCostPerM:             "цена инстанса в час ÷ (токенов в секунду × 3600) × 1 000 000",
	mFTrain:                "6 × параметры (+ внимание) FLOP на токен ÷ (GPU × пик × MFU), с обменом TP и пузырём конвейера",
	mFJobTime:              "токены обучения ÷ токенов в секунду",
	mFJobCost:              "время задачи × цена инстанса в час",
	mVerifyVLLM:            "vllm bench serve (или llama-bench для llama.cpp) с этими длинами промпта и ответа",
	mVerifyTrain:           "запишите токены/с за 50 шагов после разогрева; MFU = 6 × параметры × токены/с ÷ (GPU × пик)",
	mVerifyMemory:          "torch.cuda.max_memory_allocated() после первых шагов (плюс контекст CUDA из nvidia-smi)",
	mTimePerM:              "время на 1 млн токенов",
	mGPUHour:               "GPU·ч",
	mYear1:                 "1 г.",
	mYear3:                 "3 г.",
	mBasis:                 "Как это оценено",
	mBasisFormula:          "Формула",
	mBasisInputs:           "Входные данные",
	mBasisEfficiency:       "Принятая эффективность",
	mBasisBand:             "Интервал",
	mBasisBound:            "Ограничено",
	mBasisVerify:           "Как проверить",
	mAsOfSource:            "Дата · источник",
	mEstimatedDate:         "дата оценочная",
	mAgeFresh:              "моложе 90 дней",
	mAgeAging:              "от 90 до 180 дней",
	mAgeOld:                "старше года",
	mPickCheapest:          "Дешевле всего",
	mPickFastest:           "Быстрее всего",
	mPickValue:             "Лучшее соотношение",
	mAnswerTitle:           "Что арендовать",
	mNoAnswer:              "Ни одно предложение с ценой не может выполнить эту задачу: измените число GPU, точность или модель.",
	mAnswerNote:            "План по всем предложениям каталога для выбранной тарификации и валюты (другие валюты пересчитаны по датированным курсам из «Допущений»). Оценки, не коммерческие предложения.",
	mUseThis:               "Выбрать",
	mParetoTitle:           "Цена и время каждого предложения, способного выполнить задачу (логарифмические шкалы); линия — фронт Парето",
	mParetoHint:            "Наведите на точку, чтобы увидеть предложение; нажмите, чтобы выбрать его.",
	mPin:                   "Закрепить для сравнения",
	mUnpin:                 "Открепить",
	mVerdict:               "Вердикт",
	mTokensPerSec:          "Токенов/с",
	mCheapestCost:          "Минимальная стоимость (этот GPU)",
	mCompareTitle:          "Закреплённое и текущее",
	mPinned:                "Закреплено",
	mLive:                  "Сейчас",
	mExportTitle:           "Экспорт",
	mExportCSV:             "Скачать CSV",
	mExportJSON:            "Скачать JSON",
	mCopyMarkdown:          "Копировать таблицу Markdown",
	mMarkdownCopied:        "Markdown скопирован.",
	mConfigTooBig:          "больше 256 КиБ: config.json весит несколько КБ",
	mConfigPick:            "Файл config.json",
	mConfigPaste:           "…или вставьте config.json сюда (или перетащите файл)",
	mFileTooBig:            "файл слишком большой",
	mBadSheet:              "прайс-лист отклонён",
	mWarnTightFit:          "помещается с запасом меньше 5%",
	mWarnSeqBeyondContext:  "последовательность длиннее контекста модели (max_position_embeddings)",
	mWarnKVHeadsReplicated: "тензорный параллелизм больше числа KV-голов: KV-головы дублируются",
	mWarnUnevenPipeline:    "слои не делятся поровну между стадиями конвейера: показана самая большая",
	mWarnNoActivationModel: "у модели нет размеров слоёв: активации не оценены",
	mWarnVisionApprox:      "параметры визуального энкодера приблизительны",
	mWarnFP8NotInLlamaCpp:  "в llama.cpp нет весов fp8: принят Q8_0",
	mWarnPoolBelowOneSeq:   "пул KV vLLM меньше одной последовательности",
	mWarnNoKVCache:         "у этой архитектуры нет KV-кэша",
	mWarnZeROWithoutDP:     "ZeRO не действует при степени параллелизма по данным 1",
	mHWNoFP4:               "у этого GPU нет тензорных ядер FP4 (они появились в Blackwell): веса FP4 распаковываются, ускорения FP4 нет",
	mHowAccurate:           "Насколько это точно?",
	mRPS:                   "Запросов в секунду (сервинг; пусто — выкл.)",
	mTTFTTarget:            "Цель по времени до первого токена, мс",
	mTPOTTarget:            "Цель по времени на токен ответа, мс",
	mGlobalBatch:           "Глобальный пакет (последовательностей за шаг; пусто — один микропакет на реплику)",
	mOptimizerSteps:        "Шагов оптимизатора",
	mServeTitle:            "Парк для сервинга (оценка)",
	mConcurrency:           "Одновременных запросов на реплику",
	mReplicas:              "Реплик",
	mFleetGPUs:             "Всего GPU",
	mMonthly:               "Счёт за месяц (по требованию, 730 ч)",
	mTargetsMissed:         "Даже один запрос за раз не укладывается в цели по задержке на этом GPU: показано для одного запроса на реплику.",
	mTPOT:                  "Время на токен ответа",
	mBoundHost:             "хост (запуск ядер, планировщик)",
	mBoundComm:             "обмен данными",
	mAssumptions:           "Допущения",
	mAssumptionsNote:       "Эффективности, которые принимает модель скорости; пусто — значение оценщика для этого GPU и задачи (показано серым), подобранное по публичным измерениям (см. «Насколько это точно?»). Доли от пика по спецификации, 0–1.",
	mMFUField:              "MFU обучения (доля пиковых FLOP/s)",
	mInfMFUField:           "MFU префилла (доля пиковых FLOP/s)",
	mBWField:               "Использование полосы при декодировании (доля пика)",
	mFXTitle:               "Курсы валют для сравнения цен в других валютах",
	mCurrency:              "Валюта",
	mPerUSD:                "за 1 USD",
	mPlanning:              "Планирование по всем предложениям…",
	mFixToUpdate:           "Прежний ответ: он обновится, когда поле, отмеченное красным, будет исправлено.",
	mMonthlyShort:          "В месяц",
	mBatchCost:             "Стоимость пакетной задачи",
	mBatchTime:             "Время пакетной задачи",
	mE2EP95:                "Задержка запроса (p95)",
	mRequests:              "Запросов в пакетной задаче (если темп не задан)",
	mPricing:               "Тарификация",
	mCurrencyField:         "Валюта",
	mProviderKind:          "Тип провайдера",
	mCountry:               "Страна или регион (например, US, eu-)",
	mBudget:                "Бюджет, USD (задача или месяц сервинга)",
	mDeadline:              "Срок, часы",
	mMinVCPU:               "Минимум vCPU на инстанс",
	mMinRAM:                "Минимум RAM на инстанс, ГиБ",
	mAny:                   "любой",
	mFilters:               "Тарификация и фильтры",
	mPlanNotes:             "Заметки планировщика",
	mDefaultIs:             "по умолчанию",
	mPlanAssumptionsNote:   "Что планировщик принимает о спот-инстансах и чекпойнтах; пусто — значение по умолчанию под полем.",
	mSpotRateField:         "Вытеснения спота (доля инстансов в месяц, 0–1)",
	mCkptWriteField:        "Скорость записи чекпойнта на инстанс в секунду (напр. 2GB)",
	mRestartField:          "Время перезапуска после вытеснения (напр. 10m, 600)",
	mSrcSpot:               "для предложения — середина его диапазона AWS Spot Advisor (25% для «>20%»); без диапазона — 20%, нижняя граница худшего диапазона (допущение)",
	mSrcCkpt:               "пропускная способность записи одного облачного тома: AWS EBS gp3 — до 1000 МиБ/с (AWS EBS User Guide; допущение)",
	mSrcRestart:            "новый инстанс и перезагрузка весов и состояния оптимизатора (допущение)",
	mSpotNow:               "Спот в самом дешёвом плане на этом GPU: вытеснений в месяц",
	mYoungDaly:             "чекпойнт каждые (Янг/Дейли)",
	mSrcAPINone:            "в каталоге нет API для этой модели",
	mHostedNote:            "Сервинг: API для сравнения со своим сервером, USD за 1 млн входных и выходных токенов; пусто — датированная цена из каталога для модели.",
	mAPIInField:            "API: USD за 1 млн входных токенов",
	mAPIOutField:           "API: USD за 1 млн выходных токенов",
	mHostedTitle:           "API против своего сервера при целевой нагрузке",
	mHostedAPI:             "API",
	mAPIPrices:             "Вход / выход за 1 млн",
	mAPIMonthly:            "API в месяц",
	mSelfHosted:            "Свой сервер в месяц",
	mBreakEven:             "Точка безубыточности",
	mPerSecond:             "запр./с",
	mAsSet:                 "Как задано",
	mCostAtSpeed:           "За 1M сгенерированных токенов при этой скорости",
	mJobCostAtSpeed:        "Стоимость задачи при этой скорости",
	mPlannerBest:           "Самый дешёвый план на этом GPU (планировщик)",
	mInFlight:              "запросов одновременно",
	mPrOnDemand:            "по требованию",
	mPrSpot:                "спот",
	mPrRes1:                "резерв на 1 год",
	mPrRes3:                "резерв на 3 года",
	mGPUsWord:              "GPU",
	mFleetOf:               "Парк самого дешёвого варианта",
	mFleetHere:             "Та же нагрузка на выбранном GPU",
	mPerMonthUnit:          "/мес.",
	mPerRequestP95:         "p95 %s на запрос",
	mUnknownNet:            "Планировать на нескольких инстансах без указанной сети между ними (принять 100 Гбит/с)",
	mCommShare:             "обмены %s шага",
	mCommFact:              "Обмены между GPU",
	mOfStep:                "каждого шага не скрыто вычислениями",
	mFreshnessField:        "Окно свежести, дней (выбор — по ценам не старше)",
	mPriceAsOf:             "Цена на %s",
	mVerifyPrice:           "цена от %s — проверьте",
	mAge180to365:           "от 180 дней до года",
	mAgeUndated:            "без даты",
	mFarBelow:              "меньше половины того, что просят за этот GPU другие провайдеры — проверьте",
	mFromListing:           "цена маркетплейса «от»: самое дешёвое предложение на момент чтения",
	mFooterFresh:           "Цены по возрасту на сегодня: %s из %s предложений моложе 90 дней, %s — от 90 до 180 дней, %s — от 180 дней до года, %s — старше года, %s без даты; у %s дата оценочная.",
	mLoadTitle:             "Задержка в зависимости от нагрузки (одна копия движка, симуляция)",
	mLoadX:                 "Запросов в секунду на копию движка (пуассоновский поток)",
	mLoadY:                 "Задержка (логарифмическая шкала)",
	mLoadTTFT95:            "до 1-го токена, p95",
	mLoadTTFT50:            "до 1-го токена, p50",
	mLoadTPOT95:            "на токен ответа, p95",
	mLoadTTFTTarget:        "цель до 1-го токена (p95) %s",
	mLoadTPOTTarget:        "цель на токен ответа %s",
	mLoadOp:                "этот план: %s запр./с на копию",
	mLoadSat:               "насыщение: %s запр./с",
	mLoadCaption:           "Одна копия движка (%s), симуляция с настройками планировщика. План распределяет %s запр./с по %s копиям, по %s запр./с на каждую: p95 до первого токена %s, p95 на токен ответа %s. Копия насыщается при %s запр./с: выше запросы приходят быстрее, чем она их завершает, и на прогоне длиннее смоделированных здесь %s запросов очередь растёт без предела.",
	mBindTTFT:              "Число реплик задано p95 времени до первого токена при %s запр./с",
	mBindTPOT:              "Число реплик задано p95 времени на токен ответа при %s запр./с",
	mBindThroughput:        "Число реплик задано пропускной способностью: меньшее число превысит предел загрузки при %s запр./с",
	mBindNone:              "Одна реплика укладывается в цели при %s запр./с",
	mLimitNone:             "ни один запрос не ждал места в движке",
	mLimitSeqs:             "каждую копию движка ограничивает предел одновременных последовательностей (max_num_seqs)",
	mLimitKV:               "каждую копию движка ограничивает её KV-кэш",
	mLimitTokens:           "каждую копию движка ограничивает бюджет токенов на шаг (prefill)",
	mLimitPolling:          "каждую копию движка ограничивает интервал планирования",
	mBindAnd:               "%s; %s",
	mBenchTitle:            "Ваш бенчмарк",
	mBenchHelp:             "Подгоните движок к своему бенчмарку сервинга (JSON vllm bench serve, JSON-строки SGLang bench_serving, CSV genai-perf или CSV concurrency,ttft_ms,tpot_ms) в командной строке: rightsize calibrate --gpu G --engine E --model M FILE. Вставьте сюда строку для ссылки, которую она выводит: накладные расходы на запрос, MFU префилла и доля пропускной способности при декодировании зададут скорость и планы (на всех GPU, как значения блока «Допущения»), когда выбраны её GPU и движок; ссылка переносит её.",
	mBenchPick:             "Калибровка (gpu,движок,мс на запрос,MFU префилла,доля пропускной способности при декодировании)",
	mBenchApplied:          "Калибровка для %s на %s применена: накладные расходы на запрос %s, MFU префилла %s, доля пропускной способности при декодировании %s.",
	mBenchMismatch:         "Калибровка в этой ссылке подобрана для %s на %s; она применяется, когда выбраны этот GPU и движок.",
	mBenchBad:              "Калибровку в этой ссылке не удаётся прочитать; она не учитывается.",
	mJobTokens:             "%s токенов обучения",
	mJobRequests:           "%s запросов × %s токенов",
	mJobRate:               "%s запросов/с · %s + %s токенов на запрос",
	mJobFor:                "План для",
}

var messagesZH = [nMsgs]string{
	mTagline: "模型需要多少显存、哪些 GPU 装得下、去哪里租。",
	mModel:   "模型", mTask: "任务", mPrecision: "精度", mKV: "KV 缓存类型", mBatch: "批大小",
	mSeq: "序列长度（token）", mOptimizer: "优化器", mCheckpointing: "梯度检查点",
	mFlash: "FlashAttention / SDPA", mLoRARank: "LoRA 秩", mEngine: "推理引擎",
	mMemUtil: "vLLM gpu_memory_utilization", mGPU: "GPU", mGPUs: "GPU 数量", mZeRO: "ZeRO 阶段（3 = FSDP）",
	mTP: "张量并行", mPP: "流水线阶段", mOffload: "CPU 卸载", mUnits: "单位", mLanguage: "语言",
	mPerGPU: "每张 GPU 的显存", mPart: "组成", mMemory: "显存", mShare: "占比", mUncertainty: "±",
	mWeights: "权重", mGradients: "梯度", mOptimizerStates: "优化器状态", mActivations: "激活",
	mLogits: "Logits / 损失", mKVCache: "KV 缓存", mCUDAContext: "CUDA 上下文", mAllocator: "分配器预留",
	mNCCL: "NCCL 缓冲区", mCUDAGraphs: "CUDA graphs", mQuantState: "量化状态", mTotal: "合计",
	mUsable: "此 GPU 可用", mFits: "装得下", mDoesNotFit: "装不下", mHeadroom: "余量",
	mShortBy: "缺少", mParams: "参数量", mActive: "每 token 激活", mKVPerToken: "每 token 的 KV 缓存",
	mKVPool: "vLLM KV 池", mMaxBatch: "可容纳的最大批大小", mMaxSeq: "可容纳的最长序列",
	mFixFields: "请修正标出的字段以查看估算。", mGPUFit: "哪些 GPU 装得下",
	mGPUCol: "GPU", mVRAM: "显存", mWithYourSetup: "按您的 GPU 数量", mMinGPUs: "所需 GPU",
	mFromPrice: "起价（按需）", mNone: "—", mOffers: "去哪里租", mProvider: "服务商",
	mInstance: "实例", mOnDemand: "按需 /小时", mSpot: "竞价 /小时", mReserved: "预留 /小时", mRegion: "地域", mAsOf: "日期",
	mStale: "超过 90 天", mShowAll: "显示全部", mNoOffers: "目录中没有带此 GPU 的报价。",
	mRange: "超出范围", mNotNumber: "不是数字", mUnknownChoice: "未知选项",
	mIncompatible: "与其他设置不兼容", mWarnings: "提示", mTrainOnly: "仅训练",
	mVLLMOnly: "仅 vLLM", mPickGPU: "点击一行以选择该 GPU。",
	mPricesNote:            "价格为每实例每小时，使用服务商的币种；每行注明日期和来源。仅为估算，不是报价。",
	mQuant:                 "权重格式",
	mLoRATargets:           "LoRA 目标层",
	mSelective:             "选择性重计算（仅注意力分数）",
	mMaxBatched:            "vLLM max_num_batched_tokens（0 = 8192）",
	mEager:                 "vLLM --enforce-eager（不用 CUDA graphs）",
	mOverrides:             "您实测的开销",
	mOverridesNote:         "留空则使用估算值。大小需带单位：1343MiB、0.5GiB、2GB。",
	mUsableOverride:        "每张 GPU 的可用显存（torch.cuda.mem_get_info）",
	mNotSize:               "不是带单位的大小（例如 1343MiB、0.5GiB）",
	mTaskInference:         "推理",
	mTaskTrain:             "预训练",
	mTaskFinetune:          "全量微调",
	mTaskLoRA:              "LoRA",
	mTaskQLoRA:             "QLoRA（4 位基座）",
	mOffNone:               "无",
	mOffOptimizer:          "优化器状态",
	mOffAll:                "优化器状态和参数",
	mTargetsAttn:           "注意力（q、k、v、o）",
	mTargetsAll:            "全部线性层",
	mQuantAuto:             "自动（按精度和引擎）",
	mSheetTitle:            "您的价格",
	mSheetHelp:             "加载价格表（CSV 或 JSON：offer_id 或 provider + instance_type、每实例每小时价格、currency、as_of、source）以比较协议价。文件只保存在此浏览器中。",
	mSheetPick:             "价格表",
	mSheetClear:            "恢复目录价格",
	mSheetRows:             "行",
	mSheetOffers:           "已更改或添加的报价",
	mSheetTooBig:           "大于 4 MiB",
	mSheetUnreadable:       "浏览器无法读取该文件",
	mYourPrice:             "您的价格",
	mRulesTitle:            "经验法则与本估算对比",
	mRulesNote:             "同一任务、单张 GPU 上放一份模型副本时，常见规则给出的数值。误差为负表示规则低估了显存。",
	mRuleParams4:           "参数量 × 4 字节（指南中的简单公式）",
	mRuleParamMem15:        "参数显存 × 1.5（指南，训练）",
	mRuleWeights12:         "权重 × 1.2（常见推理公式）",
	mRuleHF18:              "每参数 18 字节，AdamW 混合精度（Hugging Face；不含激活）",
	mRuleSays:              "规则给出",
	mThisEstimate:          "Rightsize，单张 GPU",
	mOffBy:                 "规则误差",
	mYourModel:             "您的模型",
	mConfigHelp:            "列表里没有？加载它在 Hugging Face 上的 config.json：参数量、GQA/MoE/MLA 和 KV 缓存都从中读取。文件只保存在此浏览器中。",
	mNoCustomModel:         "此浏览器中未加载您的 config.json：请在“您的模型”中加载",
	mUpdateReady:           "Rightsize 有新版本可用。",
	mLinkIgnored:           "链接中已忽略（不是有效的 URL 文本）",
	mSheetApplying:         "正在应用",
	mSavedKept:             "上次访问保存的文件未能应用（已保留，直到您加载修正后的文件或将其删除）：",
	mNotKept:               "已应用，但浏览器存储已满或被拒绝：下次访问时不会保留。",
	mConfigDrop:            "删除已保存的 config",
	mReload:                "重新加载",
	mNotCount:              "不是数量（例如 1B、500M、2T）",
	mMs:                    "毫秒",
	mSec:                   "秒",
	mMin:                   "分钟",
	mHours:                 "小时",
	mDays:                  "天",
	mSpeedTitle:            "速度与成本（估算）",
	mSpeedNote:             "按 GPU 规格书的 roofline 估算，效率取各数字依据中所列的值（假定的 MFU 与带宽利用率，可在“假设”中修改）。实际 MFU 是扣除通信、流水线气泡和主机开销后的结果。实际运行取决于引擎和内核；区间表示与公开测量的偏差。",
	mThroughputTrain:       "训练吞吐，token/秒",
	mThroughputInfer:       "生成 token/秒，全部请求",
	mJobTime:               "训练这些 token 的时间",
	mGPUHours:              "GPU 小时",
	mTTFT:                  "首 token 时间",
	mPerSeq:                "每个请求的 token/秒",
	mJobCost:               "任务成本",
	mPerMTokens:            "每 100 万 token",
	mTrainTokens:           "训练 token 数（例如 1B、2T）",
	mOutputTokens:          "每个请求生成的 token（占序列长度）",
	mNoPerf:                "无速度估算：任务装不下，或目录缺少此 GPU 的 FLOPS 或带宽。",
	mMFUImplied:            "实际 MFU",
	mFrom:                  "起",
	mCheapest:              "最便宜",
	mSortBy:                "排序",
	mSortVRAM:              "显存",
	mSortCost:              "任务成本",
	mSpotShort:             "竞价",
	mCopyLink:              "复制此估算的链接",
	mLinkCopied:            "链接已复制：它会重新打开这次估算，离线也可以。",
	mBadConfig:             "无法读取 config.json",
	mInvalid:               "输入无效",
	mNoModel:               "没有模型结构：请先加载 config",
	mHWNoBF16:              "此 GPU 没有 bf16 张量核心（Turing、Volta）：框架会退回 fp16 或以更慢的方式模拟 bf16",
	mHWNoFP8:               "此 GPU 没有 fp8 张量核心（从 Ada 和 Hopper 开始才有）：fp8 权重会被升精度，没有 fp8 加速",
	mUnitGB:                "GB",
	mUnitGiB:               "GiB",
	mBillionSuffix:         "B",
	mMillionSuffix:         "M",
	mKiB:                   "KiB",
	mTokens:                "token",
	mModelLimit:            "模型上限",
	mInputs:                "输入",
	mUnitsGiB:              "GiB（nvidia-smi）",
	mUnitsGB:               "GB（规格书）",
	mFooter:                "每个公式和价格都注明来源和日期；每个数字都是带区间的估算。页面可离线使用，不向任何地方发送数据。",
	mOpenInRightsize:       "在 Rightsize 中打开",
	mFWeights:              "参数量 × 权重格式每参数字节数（含量化格式的分组缩放因子）",
	mFGradients:            "可训练参数 × 梯度字节数，ZeRO-2/3 时在 GPU 间分摊",
	mFOptimizer:            "可训练参数 × 优化器字节数（AdamW：fp32 主副本和两个动量），ZeRO-1/2/3 时分摊",
	mFActivations:          "每层：批量 × 序列 × 隐藏维度 × 字节，按 Korthikanti 等 2022 计算；启用检查点后更少",
	mFLogits:               "批量 × 序列 × 词表 × logits 和损失的字节数",
	mFKV:                   "2 × 层数 × KV 头数 × 头维度 × token 数 × KV 字节（MLA：压缩潜变量）",
	mFOverhead:             "公开测量的运行时开销（CUDA 上下文、分配器、NCCL、CUDA graphs）",
	mBoundCompute:          "算力（张量 FLOPS）",
	mBoundBandwidth:        "显存带宽",
	mEffMFU:                "假定 MFU",
	mEffBandwidth:          "带宽利用率",
	mFTTFT:                 "提示词 FLOPs ÷（峰值 × MFU），若读权重更慢则为 权重 ÷ 带宽",
	mFDecode:               "每步读取权重和 KV 缓存：字节 ÷（带宽 × 利用率），大批量时为 FLOPs ÷（峰值 × MFU）",
	mFCostPerM:             "实例每小时价格 ÷（每秒生成 token × 3600）× 1,000,000",
	mFTrain:                "每 token 6 × 参数量（+ 注意力）FLOPs ÷（GPU 数 × 峰值 × MFU），含 TP 通信和流水线气泡",
	mFJobTime:              "训练 token 数 ÷ 每秒 token 数",
	mFJobCost:              "任务时间 × 实例每小时价格",
	mVerifyVLLM:            "用此提示词和输出长度运行 vllm bench serve（llama.cpp 用 llama-bench）",
	mVerifyTrain:           "预热后记录 50 步的 token/秒；MFU = 6 × 参数量 × token/秒 ÷（GPU 数 × 峰值）",
	mVerifyMemory:          "前几步后的 torch.cuda.max_memory_allocated()（再加 nvidia-smi 中的 CUDA 上下文）",
	mTimePerM:              "每 100 万 token 用时",
	mGPUHour:               "GPU·时",
	mYear1:                 "1 年",
	mYear3:                 "3 年",
	mBasis:                 "估算依据",
	mBasisFormula:          "公式",
	mBasisInputs:           "输入",
	mBasisEfficiency:       "假设效率",
	mBasisBand:             "区间",
	mBasisBound:            "瓶颈",
	mBasisVerify:           "如何验证",
	mAsOfSource:            "日期 · 来源",
	mEstimatedDate:         "日期为估计",
	mAgeFresh:              "不到 90 天",
	mAgeAging:              "90 至 180 天",
	mAgeOld:                "超过一年",
	mPickCheapest:          "最便宜",
	mPickFastest:           "最快",
	mPickValue:             "最划算",
	mAnswerTitle:           "租什么",
	mNoAnswer:              "没有带价格的报价能运行此任务：请更改 GPU 数量、精度或模型。",
	mAnswerNote:            "按所选计费方式和币种对目录中的所有报价进行规划（其他币种按“假设”中注明日期的汇率换算）。仅为估算，不是报价。",
	mUseThis:               "使用此方案",
	mParetoTitle:           "每个能运行此任务的报价的成本与时间（对数坐标）；折线为帕累托前沿",
	mParetoHint:            "指向圆点查看报价；点击即可使用。",
	mPin:                   "固定以便比较",
	mUnpin:                 "取消固定",
	mVerdict:               "结论",
	mTokensPerSec:          "token/秒",
	mCheapestCost:          "最低成本（此 GPU）",
	mCompareTitle:          "固定方案与当前方案",
	mPinned:                "已固定",
	mLive:                  "当前",
	mExportTitle:           "导出",
	mExportCSV:             "下载 CSV",
	mExportJSON:            "下载 JSON",
	mCopyMarkdown:          "复制 Markdown 表格",
	mMarkdownCopied:        "Markdown 已复制。",
	mConfigTooBig:          "大于 256 KiB：config.json 通常只有几 KB",
	mConfigPick:            "config.json 文件",
	mConfigPaste:           "……或在此粘贴 config.json（或拖入文件）",
	mFileTooBig:            "文件太大",
	mBadSheet:              "价格表被拒绝",
	mWarnTightFit:          "余量不足 5%",
	mWarnSeqBeyondContext:  "序列长于模型上下文长度（max_position_embeddings）",
	mWarnKVHeadsReplicated: "张量并行度超过 KV 头数：KV 头被复制",
	mWarnUnevenPipeline:    "层数不能均分到流水线各阶段：显示最大的阶段",
	mWarnNoActivationModel: "模型未给出形状参数：未估算激活",
	mWarnVisionApprox:      "视觉编码器参数为近似值",
	mWarnFP8NotInLlamaCpp:  "llama.cpp 没有 fp8 权重：按 Q8_0 计算",
	mWarnPoolBelowOneSeq:   "vLLM KV 池小于一个序列",
	mWarnNoKVCache:         "此架构没有 KV 缓存",
	mWarnZeROWithoutDP:     "数据并行度为 1 时 ZeRO 无效",
	mHWNoFP4:               "此 GPU 没有 FP4 张量核心（从 Blackwell 开始才有）：FP4 权重会被反量化，没有 FP4 加速",
	mHowAccurate:           "这有多准确？",
	mRPS:                   "每秒请求数（推理服务；留空为关闭）",
	mTTFTTarget:            "首 token 时间目标（毫秒）",
	mTPOTTarget:            "每个输出 token 时间目标（毫秒）",
	mGlobalBatch:           "全局批量（每步序列数；留空为每副本一个微批）",
	mOptimizerSteps:        "优化器步数",
	mServeTitle:            "推理服务集群（估算）",
	mConcurrency:           "每副本并发请求数",
	mReplicas:              "副本数",
	mFleetGPUs:             "GPU 总数",
	mMonthly:               "每月费用（按需，730 小时）",
	mTargetsMissed:         "在此 GPU 上即使一次只处理一个请求也达不到延迟目标：以下按每副本一个请求计算。",
	mTPOT:                  "每个输出 token 用时",
	mBoundHost:             "主机（内核启动、调度）",
	mBoundComm:             "通信",
	mAssumptions:           "假设",
	mAssumptionsNote:       "速度模型假设的效率；留空则使用估算器针对此 GPU 和任务的数值（灰色显示），该数值基于公开测量拟合（见“这有多准确？”）。为规格书峰值的比例，0–1。",
	mMFUField:              "训练 MFU（峰值 FLOP/s 的比例）",
	mInfMFUField:           "预填充 MFU（峰值 FLOP/s 的比例）",
	mBWField:               "解码带宽利用率（峰值比例）",
	mFXTitle:               "用于比较其他币种价格的汇率",
	mCurrency:              "币种",
	mPerUSD:                "每 1 美元",
	mPlanning:              "正在为所有报价规划……",
	mFixToUpdate:           "上一次的答案：修正标红的字段后会更新。",
	mMonthlyShort:          "每月",
	mBatchCost:             "批处理任务成本",
	mBatchTime:             "批处理任务用时",
	mE2EP95:                "请求延迟（p95）",
	mRequests:              "批处理任务的请求数（未设请求率时）",
	mPricing:               "计费方式",
	mCurrencyField:         "币种",
	mProviderKind:          "服务商类型",
	mCountry:               "国家或地区（如 US、eu-）",
	mBudget:                "预算（美元，按任务或服务每月）",
	mDeadline:              "截止时间（小时）",
	mMinVCPU:               "每实例最少 vCPU",
	mMinRAM:                "每实例最少内存（GiB）",
	mAny:                   "任意",
	mFilters:               "计费与筛选",
	mPlanNotes:             "规划说明",
	mDefaultIs:             "默认",
	mPlanAssumptionsNote:   "规划器对竞价实例和检查点的假设；留空则使用各字段下方所示的默认值。",
	mSpotRateField:         "竞价回收率（每月被回收的实例比例，0–1）",
	mCkptWriteField:        "每实例每秒检查点写入速率（如 2GB）",
	mRestartField:          "竞价回收后的重启时间（如 10m、600）",
	mSrcSpot:               "按报价：其 AWS Spot Advisor 区间的中点（“>20%” 取 25%）；无区间的报价：20%，最差区间的下沿（假设）",
	mSrcCkpt:               "单个云块存储卷的写入吞吐：AWS EBS gp3 最高 1,000 MiB/s（AWS EBS 用户指南；假设）",
	mSrcRestart:            "重新开通实例并重新加载权重和优化器状态（假设）",
	mSpotNow:               "此 GPU 最便宜方案的竞价：每月回收次数",
	mYoungDaly:             "检查点间隔（Young/Daly）",
	mSrcAPINone:            "目录中没有此模型的托管 API",
	mHostedNote:            "推理服务：与自建比较的托管 API，每 1M 输入和输出 token 的美元价格；留空则使用目录中该模型带日期的标价。",
	mAPIInField:            "托管 API：每 1M 输入 token 美元",
	mAPIOutField:           "托管 API：每 1M 输出 token 美元",
	mHostedTitle:           "目标请求率下托管 API 与自建对比",
	mHostedAPI:             "托管 API",
	mAPIPrices:             "每 1M 输入 / 输出",
	mAPIMonthly:            "API 每月",
	mSelfHosted:            "自建每月",
	mBreakEven:             "盈亏平衡请求率",
	mPerSecond:             "次/秒",
	mAsSet:                 "按当前设置",
	mCostAtSpeed:           "按此速度每 100 万生成 token 成本",
	mJobCostAtSpeed:        "按此速度的任务成本",
	mPlannerBest:           "规划器在此 GPU 上的最便宜方案",
	mInFlight:              "个并发请求",
	mPrOnDemand:            "按需",
	mPrSpot:                "竞价",
	mPrRes1:                "预留 1 年",
	mPrRes3:                "预留 3 年",
	mGPUsWord:              "个 GPU",
	mFleetOf:               "最便宜方案的集群",
	mFleetHere:             "同样负载在所选 GPU 上",
	mPerMonthUnit:          "/月",
	mPerRequestP95:         "每请求 p95 %s",
	mUnknownNet:            "允许跨未标明互联网络的实例规划（假定 100 Gbit/s）",
	mCommShare:             "通信占每步 %s",
	mCommFact:              "GPU 间通信",
	mOfStep:                "的每步时间未被计算掩盖",
	mFreshnessField:        "新鲜期（天，推荐只用不超过此天数的价格）",
	mPriceAsOf:             "价格日期 %s",
	mVerifyPrice:           "价格来自 %s — 请核实",
	mAge180to365:           "180 天至一年",
	mAgeUndated:            "无日期",
	mFarBelow:              "不到其他服务商对此 GPU 报价的一半 — 请核实",
	mFromListing:           "市场平台“起价”：读取时最便宜的挂单",
	mFooterFresh:           "今日价格时效：%s 个（共 %s 个报价）不到 90 天，%s 个 90 至 180 天，%s 个 180 天至一年，%s 个超过一年，%s 个无日期；%s 个为估计日期。",
	mLoadTitle:             "延迟随负载变化（单个引擎副本，模拟）",
	mLoadX:                 "每个引擎副本的请求数/秒（泊松到达）",
	mLoadY:                 "延迟（对数刻度）",
	mLoadTTFT95:            "首 token 时间 p95",
	mLoadTTFT50:            "首 token 时间 p50",
	mLoadTPOT95:            "每输出 token 用时 p95",
	mLoadTTFTTarget:        "首 token 目标（p95）%s",
	mLoadTPOTTarget:        "每输出 token 目标 %s",
	mLoadOp:                "本方案：每副本 %s 次/秒",
	mLoadSat:               "饱和点：%s 次/秒",
	mLoadCaption:           "单个引擎副本（%s），按规划器的设置模拟。方案把 %s 次/秒分给 %s 个副本，每个 %s 次/秒：首 token 时间 p95 为 %s，每输出 token 用时 p95 为 %s。单个副本在 %s 次/秒时饱和：超过后请求到达快于完成，比此处模拟的 %s 个请求更长的运行中队列会无限增长。",
	mBindTTFT:              "副本数由 %s 次/秒下的首 token 时间 p95 决定",
	mBindTPOT:              "副本数由 %s 次/秒下的每输出 token 用时 p95 决定",
	mBindThroughput:        "副本数由吞吐量决定：更少的副本在 %s 次/秒下会超过利用率上限",
	mBindNone:              "一个副本即可在 %s 次/秒下满足目标",
	mLimitNone:             "没有请求等待引擎空位",
	mLimitSeqs:             "每个引擎副本受并发序列上限（max_num_seqs）限制",
	mLimitKV:               "每个引擎副本受其 KV 缓存限制",
	mLimitTokens:           "每个引擎副本受每步批处理 token 预算（prefill）限制",
	mLimitPolling:          "每个引擎副本受调度间隔限制",
	mBindAnd:               "%s；%s",
	mBenchTitle:            "您的基准测试",
	mBenchHelp:             "用命令行把引擎拟合到您运行的服务基准测试（vllm bench serve 的 JSON、SGLang bench_serving 的 JSON 行、genai-perf 的 CSV，或 concurrency,ttft_ms,tpot_ms 格式的 CSV）：rightsize calibrate --gpu G --engine E --model M FILE。把它输出的链接形式粘贴到这里：选择其 GPU 和引擎时，单请求开销、预填充 MFU 和解码带宽占比将决定速度和方案（与“假设”框中的数值一样，作用于所有 GPU），链接会携带它。",
	mBenchPick:             "校准（gpu,引擎,单请求毫秒,预填充 MFU,解码带宽占比）",
	mBenchApplied:          "已应用 %s 上 %s 的校准：单请求开销 %s，预填充 MFU %s，解码带宽占比 %s。",
	mBenchMismatch:         "此链接中的校准是为 %s 上的 %s 拟合的；选择该 GPU 和引擎时才会应用。",
	mBenchBad:              "此链接中的校准无法读取，已忽略。",
	mJobTokens:             "%s 个训练 token",
	mJobRequests:           "%s 个请求 × %s 个 token",
	mJobRate:               "每秒 %s 个请求 · 每个 %s + %s 个 token",
	mJobFor:                "规划对象",
}

// tr returns the message for key in lang, falling back to English.
func tr(lang string, key msgKey) string {
	if m, ok := messages[lang]; ok && m[key] != "" {
		return m[key]
	}
	return messages["en"][key]
}

// warningKeys translate the estimator's warnings, by code.
var warningKeys = map[estimator.Warning]msgKey{
	estimator.WarnTightFit: mWarnTightFit, estimator.WarnSeqBeyondContext: mWarnSeqBeyondContext,
	estimator.WarnKVHeadsReplicated: mWarnKVHeadsReplicated, estimator.WarnUnevenPipeline: mWarnUnevenPipeline,
	estimator.WarnNoActivationModel: mWarnNoActivationModel, estimator.WarnVisionApprox: mWarnVisionApprox,
	estimator.WarnFP8NotInLlamaCpp: mWarnFP8NotInLlamaCpp, estimator.WarnPoolBelowOneSeq: mWarnPoolBelowOneSeq,
	estimator.WarnNoKVCache: mWarnNoKVCache, estimator.WarnZeROWithoutDP: mWarnZeROWithoutDP,
}
