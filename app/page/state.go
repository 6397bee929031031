package page

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"

	"rightsize/app/page/jobspec"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// Field indexes one user input of the calculator.
type Field int

const (
	FieldLang Field = iota
	FieldModel
	FieldTask
	FieldPrecision
	FieldKV
	FieldBatch
	FieldSeq
	FieldOptimizer
	FieldCheckpointing
	FieldFlash
	FieldLoRARank
	FieldEngine
	FieldMemUtil
	FieldGPU
	FieldGPUs
	FieldZeRO
	FieldTP
	FieldPP
	FieldOffload
	FieldUnits
	FieldQuant
	FieldLoRATargets
	FieldSelective
	FieldMaxBatched
	FieldEager
	FieldCtx
	FieldAlloc
	FieldNCCL
	FieldGraphs
	FieldUsable
	FieldTrainTokens
	FieldOutput
	FieldSort
	FieldRPS
	FieldTTFT
	FieldTPOT
	FieldGlobalBatch
	FieldMFU
	FieldInfMFU
	FieldBWUtil
	FieldRequests
	FieldPricing
	FieldCurrency
	FieldProviderKind
	FieldCountry
	FieldBudget
	FieldDeadline
	FieldMinVCPU
	FieldMinRAM
	FieldSpotRate
	FieldCkptWrite
	FieldRestart
	FieldAPIIn
	FieldAPIOut
	FieldUnknownNet
	FieldFreshness
	FieldCalibration
	FieldCurve
	FieldWorkload
	FieldOwnPrice
	FieldKWh
	FieldOwnYears
	FieldTextOnly
	FieldKernel
	FieldEngineVersion
	FieldHost
	FieldLaunch
	FieldCP
	FieldDataset
	FieldEpochs
	FieldEP
	FieldDP
	FieldRegion
	FieldProvider
	FieldSLOStat
	FieldAttnKernel
	FieldAdapterDType
	FieldRedundant
	FieldAsync
	FieldNoOverlap   // the engine's overlap scheduler off (estimator.Input.NoOverlapSchedule)
	FieldDraft       // speculative decoding's drafts a step (estimator.Input.DraftTokens)
	FieldDraftAccept // their acceptance (estimator.Input.DraftAcceptance)
	FieldGraphCap    // SGLang's largest decode batch from CUDA graphs (estimator.Input.CUDAGraphMaxBS)
	// FieldOffer is the offer a planner row the user applied rents
	// (WithPlan, Plan.Offer): the job is estimated and timed on one GPU
	// (or slice) of its instances as the planner did (planner.OnOffer);
	// empty, or an offer of another GPU: the GPU's usual box.
	FieldOffer
	FieldRouter // the disaggregated launch's router (catalog/launch.Router)
	FieldShow   // the sections opened (Opens) and the tables shown whole (ShowsAll), not an input
	NFields
)

// FieldKeys are the URL-fragment keys, short because links get pasted into
// chats and docs. A field the command line has too (jobspec.Fields, found
// by its name) takes its key from that table; the page's own are here.
var FieldKeys = fieldKeys([NFields]string{
	FieldLang: "l", FieldUnits: "units", FieldSort: "sort",
	FieldTTFT: "ttft", FieldTPOT: "tpot", FieldSLOStat: "slo",
	FieldProviderKind: "pk", FieldBudget: "bud", FieldDeadline: "dl", FieldMinRAM: "ram",
	FieldCalibration: "cal", FieldLaunch: "run", FieldRouter: "rt", FieldShow: "show", FieldOffer: "of",
})

// fieldKeys fills in the keys of the shared fields.
func fieldKeys(own [NFields]string) [NFields]string {
	for f, name := range FieldNames {
		if j, ok := jobspec.ByFlag(name); ok {
			own[f] = jobspec.Fields[j].Key
		}
	}
	return own
}

// FieldNames name each input: its element id is "rs-"+name, and for the
// estimator's inputs the name is the CLI flag that estimator.InputError.Field
// reports, so an estimator error lands next to the field that caused it.
var FieldNames = [NFields]string{
	FieldLang: "lang", FieldModel: "model", FieldTask: "task", FieldPrecision: "precision", FieldKV: "kv-dtype", FieldBatch: "batch",
	FieldSeq: "seq", FieldOptimizer: "optimizer", FieldCheckpointing: "grad-checkpointing", FieldFlash: "flash-attention",
	FieldLoRARank: "lora-rank", FieldEngine: "engine", FieldMemUtil: "gpu-mem-util", FieldGPU: "gpu", FieldGPUs: "gpus",
	FieldZeRO: "zero", FieldTP: "tp", FieldPP: "pp", FieldOffload: "offload", FieldUnits: "units",
	FieldQuant: "quant", FieldLoRATargets: "lora-targets", FieldSelective: "selective-recompute",
	FieldMaxBatched: "max-batched-tokens", FieldEager: "enforce-eager", FieldCtx: "cuda-context",
	FieldAlloc: "allocator-reserve", FieldNCCL: "nccl", FieldGraphs: "cuda-graphs", FieldUsable: "usable-vram",
	FieldTrainTokens: "train-tokens", FieldOutput: "output-tokens", FieldSort: "sort",
	FieldRPS: "requests-per-second", FieldTTFT: "ttft-ms", FieldTPOT: "tpot-ms", FieldGlobalBatch: "global-batch",
	FieldMFU: "mfu", FieldInfMFU: "inference-mfu", FieldBWUtil: "bandwidth-util",
	FieldRequests: "requests", FieldPricing: "pricing", FieldCurrency: "currency", FieldProviderKind: "provider-kind",
	FieldCountry: "country", FieldBudget: "budget-usd", FieldDeadline: "deadline-hours", FieldMinVCPU: "min-vcpus", FieldMinRAM: "min-ram-gib",
	FieldSpotRate: "spot-interruptions", FieldCkptWrite: "checkpoint-write", FieldRestart: "restart",
	FieldAPIIn: "api-input-price", FieldAPIOut: "api-output-price", FieldUnknownNet: "unknown-networks",
	FieldFreshness: "freshness-days", FieldCalibration: "calibration",
	FieldCurve: "load-curve", FieldWorkload: "workload", FieldOwnPrice: "own-price", FieldKWh: "kwh-price", FieldOwnYears: "depreciation-years",
	FieldTextOnly: "text-only", FieldKernel: "kernel", FieldEngineVersion: "engine-version", FieldHost: "host",
	FieldLaunch: "emit", FieldCP: "cp", FieldDataset: "dataset-tokens", FieldEpochs: "epochs", FieldEP: "ep", FieldDP: "dp",
	FieldRegion: "region", FieldProvider: "provider", FieldSLOStat: "slo-stat", FieldRouter: "emit-router", FieldShow: "show",
	FieldAttnKernel: "attention-kernel", FieldAdapterDType: "adapter-dtype", FieldOffer: "offer", FieldRedundant: "redundant-experts", FieldAsync: "async-scheduling",
	FieldNoOverlap: "no-overlap-schedule",
	FieldDraft:     "mtp-draft-tokens", FieldDraftAccept: "mtp-acceptance", FieldGraphCap: "cuda-graph-max-bs",
}

// fieldOf returns the field an estimator.InputError names. The GPU picker
// sets the estimator's VRAM, so errors about "vram" belong next to it.
func fieldOf(flag string) (Field, bool) {
	if flag == "vram" {
		return FieldGPU, true
	}
	if flag == "prompt" { // the prompt is the sequence minus the generated tokens
		return FieldOutput, true
	}
	for f, n := range FieldNames {
		if n == flag {
			return Field(f), true
		}
	}
	return 0, false
}

// ViewState is everything a shared link reproduces, kept as the raw text
// of each field so that a bad value in a hand-edited link is shown next to
// its field instead of being silently replaced.
type ViewState [NFields]string

// DefaultState is what a visitor without a link sees: Llama 3.1 8B served
// in bf16 with Hugging Face transformers on one H100. A field the command
// line has too takes its default from jobspec.Fields (the estimator's are
// estimator.DefaultInput's, the freshness window the planner's), as the
// CLI's flag does; the page's own fields and its sample job are set here.
// Every other field starts empty: the estimator's own figure, every filter
// at "anything".
var DefaultState = newDefaultState()

// SampleFields are the fields whose default on the page is its sample
// job's, not the command line's: the command line asks for a model and
// takes a GPU's memory from --gpu or --vram, generates no tokens unless
// asked and plans no batch job unless given its requests.
var SampleFields = []Field{FieldModel, FieldGPU, FieldOutput, FieldRequests}

// UnsetFields are the on/off fields whose page default is empty: not
// given, the job's own default, as the command line without the flag
// (activation checkpointing: on for QLoRA, as its stacks run it,
// estimator.QLoRACheckpointingDefault). The tick box shows the value in
// effect; ticking or unticking it gives the field ("1" or "0").
var UnsetFields = []Field{FieldCheckpointing}

func newDefaultState() ViewState {
	var s ViewState
	for f, name := range FieldNames {
		if j, ok := jobspec.ByFlag(name); ok {
			s[f] = jobspec.Fields[j].Default
		}
	}
	// The sample job: Llama 3.1 8B on one H100; requests that generate
	// 512 of their tokens; a batch job of 100,000 requests when no
	// request rate is set.
	s[FieldModel], s[FieldGPU], s[FieldOutput], s[FieldRequests] = "llama-3.1-8b", "h100-sxm", "512", "100000"
	s[FieldLang], s[FieldUnits], s[FieldSort] = "en", "GiB", "vram"
	// Serving targets (used once a request rate is set), the planner's
	// defaults: 10 tokens/s per user or better; the first token's target
	// left empty is the planner's default for the job's prompt
	// (planner.DefaultTTFT: 2 s, longer for long prompts), which the
	// field's placeholder shows.
	s[FieldTPOT] = strconv.FormatFloat(1000*planner.DefaultTPOTSeconds, 'g', -1, 64)
	for _, f := range UnsetFields {
		s[f] = ""
	}
	return s
}

// OverrideFields are the measured-overhead inputs, folded by default.
var OverrideFields = []Field{FieldUsable, FieldCtx, FieldAlloc, FieldNCCL, FieldGraphs, FieldEngineVersion, FieldHost}

// AssumptionFields are the efficiencies in the Assumptions box, folded
// by default; empty means the estimator's own figure.
var AssumptionFields = []Field{FieldMFU, FieldInfMFU, FieldBWUtil, FieldSpotRate, FieldCkptWrite, FieldRestart, FieldAPIIn, FieldAPIOut}

// engineNamed is the engine the engine field names; false for auto (the
// field's default) and for a name no engine has. The view asks it per
// field: estimator.ParseEngine's error for auto spells out every engine's
// name, which made it about a fifth of BuildView on the default job.
func engineNamed(s string) (estimator.Engine, bool) {
	for _, e := range estimator.Engines {
		if e.String() == s {
			return e, true
		}
	}
	return 0, false
}

// Shown reports whether a field is on the page for the current task and
// engine. Hidden fields keep their text (a link round-trips) but are not
// parsed, so a stale value in a hidden field never blocks the estimate.
func (s *ViewState) Shown(f Field) bool {
	task := s[FieldTask]
	train := task != "inference"
	// The pool and CUDA-graph fields belong to every engine that
	// pre-allocates a KV pool (vLLM, SGLang, TensorRT-LLM), as the
	// estimator decides (Engine.Pooled).
	// Auto runs an inference job on vLLM where vLLM runs it
	// (planner.AutoEngine): the pool's fields are shown for it.
	eng, ok := engineNamed(s[FieldEngine])
	pooled := ok && eng.Pooled() || s[FieldEngine] == planner.AutoEngineName
	// An inference job is served at a request rate (or a daily curve) or
	// run as a batch of requests: the latency targets bound only the
	// first (ParseJob reads them only then, and rightsize plan refuses
	// --slo-stat with --requests), the batch's size and deadline only
	// the second (rightsize plan refuses --requests with a rate).
	rate := strings.TrimSpace(s[FieldRPS]) != "" || strings.TrimSpace(s[FieldCurve]) != ""
	switch f {
	case FieldOptimizer, FieldCheckpointing, FieldSelective, FieldZeRO, FieldOffload, FieldTrainTokens:
		return train
	case FieldOutput, FieldRPS:
		return !train
	case FieldTTFT, FieldTPOT, FieldSLOStat:
		return !train && rate
	case FieldRequests:
		return !train && !rate
	case FieldDeadline:
		return train || !rate
	case FieldGlobalBatch, FieldMFU, FieldCP, FieldDataset, FieldEpochs, FieldAttnKernel:
		return train
	case FieldInfMFU, FieldBWUtil, FieldCalibration, FieldCurve, FieldWorkload:
		return !train
	case FieldOwnPrice, FieldKWh, FieldOwnYears:
		// Owning is priced against a daily fleet.
		return !train && (strings.TrimSpace(s[FieldCurve]) != "" || strings.TrimSpace(s[FieldWorkload]) != "")
	case FieldLoRARank, FieldLoRATargets, FieldAdapterDType:
		return task == "lora" || task == "qlora"
	case FieldQuant:
		return task == "inference" || task == "lora" || task == "qlora"
	case FieldEngine, FieldKV:
		return !train
	case FieldMemUtil, FieldMaxBatched, FieldEager, FieldGraphs, FieldEngineVersion:
		return !train && pooled
	case FieldAsync:
		// vLLM's opt-in before 0.14 (estimator.Input.AsyncScheduling).
		return !train && ok && eng == estimator.VLLM
	case FieldNoOverlap:
		// SGLang's and TensorRT-LLM's overlap scheduler
		// (estimator.Input.NoOverlapSchedule).
		return !train && ok && (eng == estimator.SGLang || eng == estimator.TRTLLM)
	case FieldGraphCap:
		// SGLang's --cuda-graph-max-bs (estimator.Input.CUDAGraphMaxBS).
		return !train && ok && eng == estimator.SGLang
	case FieldDraft, FieldDraftAccept:
		// Speculative decoding with the model's MTP module runs on the
		// serving engines (estimator.Input.DraftTokens).
		return !train && pooled
	case FieldDP:
		// Attention data parallelism is a serving engine's (SGLang's
		// --enable-dp-attention, vLLM's and TensorRT-LLM's attention DP).
		return !train && pooled
	case FieldKernel:
		// A weight-only kernel for int4/int8 weights (estimator.Kernel).
		p := s[FieldPrecision]
		return (task == "inference" || task == "lora" || task == "qlora") && (p == "int4" || p == "int8")
	case FieldHost:
		// The host's cost per op matters to HF eager, where auto may run
		// the job (planner.AutoEngine).
		return !train && (ok && eng == estimator.HF || s[FieldEngine] == planner.AutoEngineName)
	}
	return true
}

// ParseFragment reads a URL fragment such as "m=llama-3.1-8b&p=int4" over
// the defaults in def. Unknown keys are ignored (links from newer versions
// keep working); a pair that does not decode is skipped (ignoredInLink
// names it) and the rest of the link is read.
func ParseFragment(frag string, def ViewState) ViewState {
	v, _ := url.ParseQuery(frag) // holds every pair that decodes
	s := def
	for f, k := range FieldKeys {
		if x, ok := v[k]; ok && len(x) > 0 {
			s[f] = x[0]
		}
	}
	if x, ok := v[FieldKeys[FieldPrecision]]; !ok || len(x) == 0 {
		s[FieldPrecision] = s.precisionDefault(def)
	}
	for _, f := range stackFields {
		if x, ok := v[FieldKeys[f]]; !ok || len(x) == 0 {
			s[f] = s.linkDefault(f, def)
		}
	}
	return s
}

// Fragment encodes the fields that differ from def, in a stable order;
// the precision against the model's own default (precisionDefault).
func (s ViewState) Fragment(def ViewState) string {
	v := url.Values{}
	for f, k := range FieldKeys {
		d := def[f]
		switch f {
		case int(FieldPrecision):
			d = s.precisionDefault(def)
		case int(FieldLoRARank), int(FieldLoRATargets):
			d = s.linkDefault(Field(f), def)
		}
		if s[f] != d || f == int(FieldModel) {
			v.Set(k, s[f])
		}
	}
	return v.Encode()
}

// stackFields are the page fields whose value a link that names none
// takes from the job's fine-tuning stack (linkDefault).
var stackFields = [...]Field{FieldLoRARank, FieldLoRATargets}

// linkDefault is what a link that names no field f (one of stackFields)
// means for s's task and precision: LitGPT's lora.py's rank and targets
// (litgptRank, litgptTargets) for a LoRA or QLoRA fine-tune named by a
// Lightning precision, as the command line takes them without
// --lora-rank or --lora-targets (litgptDefaults); otherwise def's.
func (s ViewState) linkDefault(f Field, def ViewState) string {
	if (s[FieldTask] == "lora" || s[FieldTask] == "qlora") && isLightning(s[FieldPrecision]) {
		switch f {
		case FieldLoRARank:
			return strconv.Itoa(litgptRank)
		case FieldLoRATargets:
			return litgptTargets.String()
		}
	}
	return def[f]
}

// precisionDefault is the precision a link that names none means for s's
// model and task: serving a checkpoint published in a narrower format
// (catalog.Model.StoredWeights: DeepSeek-V3 and R1 and Kimi K2 in fp8,
// gpt-oss in fp4) starts from that format, as WithModel sets it on the
// page and rightsize plan plans it without --precision; otherwise def's.
// A link to such a model at bf16 therefore says p=bf16, and one that says
// nothing plans what the command line plans.
func (s ViewState) precisionDefault(def ViewState) string {
	if task, err := estimator.ParseTask(s[FieldTask]); err != nil || task != estimator.Inference {
		return def[FieldPrecision]
	}
	if p := storedPrecision(DefaultCatalog(), s[FieldModel]); p != "" {
		return p
	}
	return def[FieldPrecision]
}

// Link is everything the URL fragment carries: the state, a pinned state
// for comparison, the embed flag and a custom model's config.json
// (deflated, base64url) so that the link works on another machine.
type Link struct {
	State      ViewState
	Pin        ViewState
	Pinned     bool
	Embed      bool
	Config     string
	ConfigName string
	// Compare is the comparison's offer IDs (CompareKey); CompareBad, what
	// ParseCompare ignored in the link's value.
	Compare    []string
	CompareBad []string
}

// MaxLinkConfig bounds a config.json inflated from a link: the same cap
// as a file the user loads (it was 1 MiB against 256 KiB).
const MaxLinkConfig = MaxConfigBytes

// CustomModelID is the model field's value for a loaded config.
const CustomModelID = "custom"

// MaxConfigBytes bounds a config.json: real ones are 1–10 KB; a VLM's
// with its processor settings stays under 100 KB.
const MaxConfigBytes = 256 << 10

// ParseLink reads a fragment over the defaults in def.
func ParseLink(frag string, def ViewState) Link {
	l := Link{State: ParseFragment(frag, def)}
	v, _ := url.ParseQuery(frag) // holds every pair that decodes
	l.Embed = v.Get("embed") == "1"
	if p, ok := v["pin"]; ok && len(p) > 0 {
		l.Pin, l.Pinned = ParseFragment(p[0], def), true
	}
	if z := v.Get("cfg"); z != "" {
		if text, err := Inflate(z); err == nil {
			l.Config, l.ConfigName = text, v.Get("cfgn")
		}
	}
	l.Compare, l.CompareBad = ParseCompare(v.Get(CompareKey))
	return l
}

// Encode writes the fragment: changed fields, the pin, the embed flag and
// the compressed config.
func (l Link) Encode(def ViewState) string {
	s := l.State.Fragment(def)
	v := url.Values{}
	if l.Pinned {
		v.Set("pin", l.Pin.Fragment(def))
	}
	if l.Embed {
		v.Set("embed", "1")
	}
	if l.Config != "" {
		v.Set("cfg", Deflate(l.Config))
		v.Set("cfgn", l.ConfigName)
	}
	if e := v.Encode(); e != "" {
		s += "&" + e
	}
	if len(l.Compare) > 0 {
		// Commas unescaped: the IDs are URL-safe, and the link stays readable.
		s += "&" + CompareKey + "=" + EncodeCompare(l.Compare)
	}
	return s
}

func Deflate(text string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(text))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func Inflate(z string) (string, error) {
	data, err := base64.RawURLEncoding.DecodeString(z)
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), MaxLinkConfig+1))
	if err != nil {
		return "", err
	}
	if len(out) > MaxLinkConfig {
		return "", errConfigTooBig
	}
	return string(out), nil
}

var errConfigTooBig = errors.New("config in the link is larger than 256 KiB")

// usedGPUs is the GPUs of plan p its copies or replicas run on: a whole
// number of TP × PP (× CP in training) groups, which the estimator asks
// of a job (estimator.Input's check "not a multiple of tp×pp"). A row
// rents whole instances, so 7 RTX A5000s served at TP 2 run three copies
// on 6 and leave one idle; the job applied is those 6, each GPU's memory
// and speed the row's, where 7 would be refused.
func usedGPUs(p Plan, training bool) int {
	group := max(1, p.TP) * max(1, p.PP)
	if training {
		group *= max(1, p.CP)
	}
	if p.GPUs > group {
		return p.GPUs - p.GPUs%group
	}
	return p.GPUs
}

// WithPlan is s with a picked plan applied: the GPU, its count and the
// split in one step, so every table agrees with the pick. An inference
// plan also sets the attention-DP and EP layout inside each copy (the
// planner's row names it, TP-only rows as 1), so the page's estimate and
// launch settings are the row's; a training plan leaves the job's EP,
// which its rows do not choose, and sets its context parallelism where
// the row splits the sequence or the job named one (a row past the
// global batch may take CP: planner.Row.CP), and its activation
// checkpointing (Plan.Ckpt), given, so a row planned without it is not
// estimated with QLoRA's default, and its CPU offload (Plan.Offload:
// none on a rented fleet's row). A serving row whose copies the planner
// gave an engine memory share (Plan.MemShare) sets the job's. The
// row's offer (Plan.Offer) becomes the job's (FieldOffer), and a row
// that runs another precision than the job (Plan.Weights, KV) sets it.
func (s ViewState) WithPlan(gpu string, p Plan, training bool) ViewState {
	s[FieldGPU] = gpu
	// The row's offer, and the precision it runs where that is not the
	// job's (Plan.Weights, KV): the job the page estimates is the row's,
	// on the row's instance.
	s[FieldOffer] = p.Offer
	if p.Weights != "" {
		s[FieldPrecision] = p.Weights
	}
	if p.KV != "" && !training {
		s[FieldKV] = p.KV
	}
	used := usedGPUs(p, training)
	s[FieldGPUs] = strconv.Itoa(used)
	s[FieldTP] = strconv.Itoa(max(1, p.TP))
	s[FieldPP] = strconv.Itoa(max(1, p.PP))
	// Pre-training's ZeRO on auto stays on auto where the row's stage is
	// the one auto starts from at the row's layout (estimator.ZeRODefault:
	// 1 over data-parallel replicas), which the page's auto keeps where
	// it fits, as the row does (estimator.ResolveTrainDefaults). A stage
	// given turns the planner's own search off (planner.Request.ZeROOpen),
	// so the picks the row came from moved under the user: Llama 3.1 8B
	// on 1T tokens, the cheapest pick's 8 × B200 at 78.2 days, $82,599,
	// became 78.6 days, $83,021 once applied, and the fastest pick
	// another GPU. A row at another stage (ZeRO 3 on a pipeline) sets it.
	auto := estimator.ZeRODefault(estimator.Input{Task: estimator.Pretrain, GPUs: used, TP: max(1, p.TP), PP: max(1, p.PP)})
	if t, err := estimator.ParseTask(s[FieldTask]); !training || err != nil || t != estimator.Pretrain || strings.TrimSpace(s[FieldZeRO]) != "" ||
		p.ZeRO != 1 || auto != 1 {
		s[FieldZeRO] = strconv.Itoa(p.ZeRO)
	}
	if !training {
		s[FieldDP] = strconv.Itoa(max(1, p.AttnDP))
		s[FieldEP] = strconv.Itoa(max(1, p.EP))
		s[FieldRedundant] = strconv.Itoa(p.Redundant)
		if p.MemShare > 0 {
			s[FieldMemUtil] = strconv.FormatFloat(p.MemShare, 'g', -1, 64)
		}
		return s
	}
	s[FieldOffload] = p.Offload.String()
	if p.CP > 1 || s[FieldCP] != "" {
		s[FieldCP] = strconv.Itoa(max(1, p.CP))
	}
	s[FieldCheckpointing] = "0"
	if p.Ckpt {
		s[FieldCheckpointing] = "1"
	}
	return s
}
