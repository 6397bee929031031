// Package jobspec is the one table of the job fields that both of
// Rightsize's doors read: the command line's flags (cmd/rightsize) and
// the page's link (app/page). Each field has its CLI flag name (also the
// name estimator.InputError.Field reports and the page's field name), its
// link key, how the command line types it, and its default, written once.
//
// The defaults the estimator and the planner choose are theirs
// (estimator.DefaultInput, plan.DefaultFreshnessDays …), written here as
// text and held equal to them by TestDefaultsAreTheEstimators, like a
// generated table with its staleness test: the table stays static data,
// which costs the page's binary no code (built at start-up from
// DefaultInput it was 6.8 KB of WebAssembly).
//
// The words differ by door and stay there: the command line's help next
// to its flag definitions, the page's labels and messages as message
// keys in app/page. Fields only the page has (its language and units)
// and the command line's own switches (--json) are not listed. A job
// field the page does not show yet (--compile, --pure-bf16) is listed
// with its link key: the one parser reads it at both doors, and the page
// takes its default.
package jobspec

import "strconv"

// Kind is how the command line types a field's flag. The page holds every
// field as text; a Bool as "1" or "0".
type Kind uint8

const (
	Text  Kind = iota // a string flag: the text as typed
	Int               // an int flag; an empty default is 0
	Float             // a float64 flag; an empty default is 0
	Bool              // a bool flag; the default is "1" (true) or "0" (false)
)

// Spec is one shared field.
type Spec struct {
	Flag string // the CLI flag without dashes, and the page's field name
	Key  string // the link key (short: links get pasted into chats)
	// Default is the field's text when nobody sets it, as the page holds
	// it: a whole number in decimal, a flag "1" or "0", and "" for a
	// figure the estimator or planner chooses when not given.
	Default string
	Kind    Kind
}

// Field indexes the shared fields.
type Field int

const (
	// The estimator's input (rightsize estimate; plan and simulate too).
	Model Field = iota
	Task
	Precision
	KVDType
	Quant
	Kernel
	Batch
	Seq
	Optimizer
	OptimizerImpl
	GradCheckpointing
	SelectiveRecompute
	FlashAttention
	AttnKernel
	LoRARank
	LoRATargets
	AdapterDType
	LoRAFusedQKV
	QuantizeHead
	KeepsLastGraph
	LitGPTAttention
	FSDPGatherFP32
	LossChunks
	FSDPNoSync
	FSDP2
	Engine
	TextOnly
	MFU
	InferenceMFU
	BandwidthUtil
	Host
	EngineVersion
	Compile
	PureBF16
	GlobalBatch
	GPUMemUtil
	MaxBatchedTokens
	EnforceEager
	AsyncScheduling
	NoOverlapSchedule
	CUDAGraphMaxBS
	MTPDraftTokens
	MTPAcceptance
	GPU
	UsableVRAM
	GPUs
	ZeRO
	Offload
	TP
	PP
	CP
	EP
	DP
	RedundantExperts
	CUDAContext
	AllocatorReserve
	NCCL
	CUDAGraphs
	TrainTokens
	OutputTokens
	// The planner's question (rightsize plan).
	RequestsPerSecond
	SLOStat
	Requests
	Pricing
	Currency
	Country
	Region
	Provider
	CheckpointWrite
	Restart
	UnknownNetworks
	FreshnessDays
	DatasetTokens
	Epochs
	// The daily fleet and the owned-GPU alternative (rightsize plan).
	LoadCurve
	Workload
	OwnPrice
	KWhPrice
	DepreciationYears
	// The planner's instance floor, spot reclaims and hosted-API prices
	// (rightsize plan).
	MinVCPUs
	SpotInterruptions
	APIInputPrice
	APIOutputPrice
	N // the number of shared fields
)

// Fields is the table.
var Fields = [N]Spec{
	// estimator.DefaultInput for a model without a sample length of its
	// own: inference in bf16, one sequence of 2,048 tokens on one GPU.
	Model:     {"model", "m", "", Text},
	Task:      {"task", "t", "inference", Text},
	Precision: {"precision", "p", "bf16", Text},
	KVDType:   {"kv-dtype", "kv", "bf16", Text},
	Quant:     {"quant", "q", "auto", Text},
	Kernel:    {"kernel", "kr", "auto", Text},
	Batch:     {"batch", "b", "1", Int},
	Seq:       {"seq", "s", "2048", Int},
	Optimizer: {"optimizer", "o", "adamw", Text},
	// auto: the stack's (estimator.ResolveOptimizerImpl: fused; foreach
	// where a Lightning precision names LitGPT's scripts, app/page's
	// litgptDefaults). The page shows none.
	OptimizerImpl:      {"optimizer-impl", "oi", "auto", Text},
	GradCheckpointing:  {"grad-checkpointing", "gc", "0", Bool}, // not given: on for QLoRA (estimator.QLoRACheckpointingDefault); the page's box unset (app/page's UnsetFields)
	SelectiveRecompute: {"selective-recompute", "sr", "0", Bool},
	FlashAttention:     {"flash-attention", "fa", "1", Bool},
	AttnKernel:         {"attention-kernel", "ak", "fa2", Text}, // estimator.AttnFA2: training's fused attention at FlashAttention-2's speed
	LoRARank:           {"lora-rank", "r", "16", Int},
	LoRATargets:        {"lora-targets", "lt", "attention", Text},
	// auto: the stack's (estimator.ResolveAdapterDType: fp32 under
	// autocast, PEFT's; the model's 16-bit dtype in 16-bit-only training,
	// torchtune's and LitGPT's).
	AdapterDType: {"adapter-dtype", "ad", "auto", Text},
	// What LitGPT's fine-tune scripts do and a generic stack does not
	// (estimator.Input's fields of the same names): off, and the loss in
	// one piece, unless the job names a Lightning precision
	// (app/page's litgptDefaults) or the flag is given. The page shows
	// none of them.
	LoRAFusedQKV:    {"lora-fused-qkv", "lfq", "0", Bool},
	QuantizeHead:    {"quantize-head", "qh", "0", Bool},
	KeepsLastGraph:  {"keeps-last-graph", "klg", "0", Bool},
	LitGPTAttention: {"litgpt-attention", "lga", "0", Bool},
	FSDPGatherFP32:  {"fsdp-fp32-gather", "f32g", "0", Bool},
	LossChunks:      {"loss-chunks", "lch", "0", Int},
	// Accumulation inside FSDP's no_sync (estimator.Input.FSDPNoSync):
	// where not given, estimator.FSDPNoSyncDefault (on for a fine-tune
	// that accumulates, as Accelerate and LitGPT run it); given, at
	// either value, it holds in every layout a plan tries. The page
	// shows none.
	FSDPNoSync: {"fsdp-no-sync", "fns", "0", Bool},
	// PyTorch's FSDP2 (estimator.Input.FSDP2) in place of FSDP1: the
	// root's gradient assembled once. The page shows none.
	FSDP2: {"fsdp2", "f2", "0", Bool},
	// auto: no engine given, the one the planner runs the job on
	// (plan.AutoEngine: vLLM for a decoder's batch or serving, HF
	// transformers for training and for models that generate no tokens).
	Engine:   {"engine", "e", "auto", Text},
	TextOnly: {"text-only", "to", "0", Bool},
	// Efficiencies: empty (0 on the command line) is the estimator's own.
	MFU:           {"mfu", "mfu", "", Float},
	InferenceMFU:  {"inference-mfu", "imfu", "", Float},
	BandwidthUtil: {"bandwidth-util", "bw", "", Float},
	// The host CPU and engine release: empty is the GPU's usual host
	// and the engine's current release.
	Host:          {"host", "host", "", Text},
	EngineVersion: {"engine-version", "ev", "", Text},
	// HF transformers with a static KV cache and torch.compile, which the
	// auto engine keeps on HF (plan.AutoEngine); pure 16-bit training, no
	// fp32 master copy (estimator.Input.PureBF16). The page shows neither.
	Compile:     {"compile", "hc", "0", Bool},
	PureBF16:    {"pure-bf16", "pb", "0", Bool},
	GlobalBatch: {"global-batch", "gb", "", Int},
	// 0: the engine's own memory share and tokens per step for the GPU's
	// memory (estimator.Input.GPUMemUtil, MaxBatchedTokens).
	GPUMemUtil:       {"gpu-mem-util", "u", "0", Float},
	MaxBatchedTokens: {"max-batched-tokens", "mbt", "0", Int},
	EnforceEager:     {"enforce-eager", "ee", "0", Bool},
	// vLLM's --async-scheduling on a release before 0.14, where it is
	// opt-in (estimator.Input.AsyncScheduling); the page shows it among a
	// vLLM job's engine settings.
	AsyncScheduling: {"async-scheduling", "as", "0", Bool},
	// SGLang's --disable-overlap-schedule, TensorRT-LLM's
	// disable_overlap_scheduler (estimator.Input.NoOverlapSchedule).
	NoOverlapSchedule: {"no-overlap-schedule", "nos", "0", Bool},
	// SGLang's --cuda-graph-max-bs (estimator.Input.CUDAGraphMaxBS): 0,
	// graphs cover the job's decode batch, as the launch sets them to.
	CUDAGraphMaxBS: {"cuda-graph-max-bs", "cgb", "0", Int},
	// Speculative decoding with the model's multi-token-prediction module
	// (estimator.Input.DraftTokens, DraftAcceptance): 0 drafts is none,
	// acceptance 0 the measured figure for the module.
	MTPDraftTokens: {"mtp-draft-tokens", "mtp", "0", Int},
	MTPAcceptance:  {"mtp-acceptance", "mtpa", "0", Float},
	GPU:            {"gpu", "g", "", Text},
	UsableVRAM:     {"usable-vram", "uv", "", Text},
	GPUs:           {"gpus", "n", "1", Int},
	// Empty (0 on the command line unless given): estimator.ZeRODefault,
	// 1 for pre-training over data-parallel replicas, else 0.
	ZeRO:    {"zero", "z", "", Int},
	Offload: {"offload", "off", "none", Text},
	TP:      {"tp", "tp", "1", Int},
	PP:      {"pp", "pp", "1", Int},
	// DefaultInput leaves CP, EP and DP at 0, which the estimator reads
	// as 1; both doors show the 1.
	CP: {"cp", "cp", "1", Int},
	EP: {"ep", "xp", "1", Int},
	DP: {"dp", "adp", "1", Int},
	// Serving with EP: extra copies of the routed experts over the EP
	// ranks (estimator.Input.RedundantExperts), so that EP divides the
	// experts and their copies; a planner row that adds them carries
	// them into the job it applies.
	RedundantExperts: {"redundant-experts", "re", "0", Int},
	// Measured overheads: empty is the estimator's own figure.
	CUDAContext:      {"cuda-context", "oc", "", Text},
	AllocatorReserve: {"allocator-reserve", "oa", "", Text},
	NCCL:             {"nccl", "on", "", Text},
	CUDAGraphs:       {"cuda-graphs", "og", "", Text},
	// A 1B-token job when training.
	TrainTokens: {"train-tokens", "tok", "1B", Text},
	// 0: no split given, half of the sequence generated
	// (estimator.Workload's zero value) at both doors.
	OutputTokens: {"output-tokens", "out", "0", Int},

	RequestsPerSecond: {"requests-per-second", "rps", "", Text},
	// The statistic over the requests that the serving targets bound.
	SLOStat:         {"slo-stat", "slo", "p95", Text}, // plan.SLOP95
	Requests:        {"requests", "req", "", Text},
	Pricing:         {"pricing", "pr", "on-demand", Text}, // plan.OnDemand
	Currency:        {"currency", "cur", "USD", Text},
	Country:         {"country", "cc", "", Text},
	Region:          {"region", "hr", "", Text},
	Provider:        {"provider", "pv", "", Text},
	CheckpointWrite: {"checkpoint-write", "ckw", "", Text},
	Restart:         {"restart", "rst", "", Text},
	// Plans span only instances whose provider names the network
	// between them (plan.Assumptions.UnknownNetworks).
	UnknownNetworks: {"unknown-networks", "un", "0", Bool},
	FreshnessDays:   {"freshness-days", "fw", "180", Text}, // plan.DefaultFreshnessDays
	DatasetTokens:   {"dataset-tokens", "ds", "", Text},
	Epochs:          {"epochs", "ep", "", Text},

	LoadCurve:         {"load-curve", "lc", "", Text},
	Workload:          {"workload", "wl", "", Text},
	OwnPrice:          {"own-price", "own", "", Text},
	KWhPrice:          {"kwh-price", "kwh", "", Text},
	DepreciationYears: {"depreciation-years", "dep", "", Text},

	// Empty (or 0): no vCPU floor, the planner's reclaim share (per
	// offer, else plan's default), the catalog's list prices for the
	// model; a price given, 0 included, is the user's.
	MinVCPUs:          {"min-vcpus", "vc", "", Text},
	SpotInterruptions: {"spot-interruptions", "spot", "", Text},
	APIInputPrice:     {"api-input-price", "api-in", "", Text},
	APIOutputPrice:    {"api-output-price", "api-out", "", Text},
}

// ByFlag returns the shared field with the CLI flag (page field) name.
func ByFlag(flag string) (Field, bool) {
	for f, s := range Fields {
		if s.Flag == flag {
			return Field(f), true
		}
	}
	return 0, false
}

// Int is an Int field's default as the command line takes it.
func (s Spec) Int() int {
	if s.Default == "" && s.Kind == Int {
		return 0
	}
	n, err := strconv.Atoi(s.Default)
	if err != nil || s.Kind != Int {
		panic("jobspec: " + s.Flag + " is not a whole-number field")
	}
	return n
}

// Float is a Float field's default as the command line takes it.
func (s Spec) Float() float64 {
	if s.Default == "" && s.Kind == Float {
		return 0
	}
	x, err := strconv.ParseFloat(s.Default, 64)
	if err != nil || s.Kind != Float {
		panic("jobspec: " + s.Flag + " is not a number field")
	}
	return x
}

// Bool is a Bool field's default as the command line takes it.
func (s Spec) Bool() bool {
	if s.Kind != Bool || (s.Default != "0" && s.Default != "1") {
		panic("jobspec: " + s.Flag + " is not an on/off field")
	}
	return s.Default == "1"
}

// CLIDefault is the default as the command line's help prints it
// (flag.Flag.DefValue): 0 for an empty number, true or false for a flag.
func (s Spec) CLIDefault() string {
	switch s.Kind {
	case Int:
		return strconv.Itoa(s.Int())
	case Float:
		return strconv.FormatFloat(s.Float(), 'g', -1, 64)
	case Bool:
		return strconv.FormatBool(s.Bool())
	}
	return s.Default
}
