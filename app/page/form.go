package page

import (
	"math"
	"slices"
	"strconv"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// The inputs form as values: which fields show, in which order, with
// which label, choices, placeholder, source line and message. The go-app
// component renders each field as a leaf from its FieldView, so an input
// re-renders only the fields whose values changed.

// FieldKind is how a field is entered.
type FieldKind uint8

const (
	KindText FieldKind = iota
	KindSelect
	KindCheck
)

// Option is one choice of a select: the value the state holds and its label.
type Option struct{ Value, Label string }

// FieldView is one form field, formatted.
type FieldView struct {
	F     Field
	Kind  FieldKind
	Label string
	Value string // the state's text; "1" for a ticked box
	// Mode is a text field's keyboard hint (inputmode), "" for none.
	Mode        string
	Placeholder string
	// Where is the line under the field saying what its default is and
	// where that comes from ("" for none).
	Where string
	Err   string // the field's problem in the page's language, "" when none
	Opts  []Option
	// Code marks machine text (a list of numbers, a calibration line):
	// no spell check; Wide gives it the form's whole width.
	Code, Wide bool
}

// BoxView is a folded group of fields: its element id, title, note, and
// whether it opens. Stub is the first screen's stand-in: the title only,
// the body rendered from the first step after the page is live.
type BoxView struct {
	ID, Title, Note string
	Open, Stub      bool
	Fields          []FieldView
}

// FormView is the whole form.
type FormView struct {
	Label       string    // the form's accessible name
	Language    FieldView // the language select in the page's header
	Fields      []FieldView
	Overrides   BoxView
	Filters     BoxView
	Assumptions AssumptionsView
	// Fleet is the "Daily load" box's fields, for inference (nil: hidden).
	Fleet []FieldView
	Bench BenchView
}

// BenchView is the "Your benchmark" box: the calibration line's field and
// what became of it (Shown false: the box is hidden).
type BenchView struct {
	Shown    bool
	Field    FieldView
	Status   string
	StatusOK bool
}

// AssumptionsView is the box of editable efficiencies and planner
// assumptions, the hosted APIs set against the plan and the dated
// exchange rates.
type AssumptionsView struct {
	BoxView
	PlanNote string
	Plan     []FieldView
	SpotNow  string // the checkpoint interval the pick plans, "" when none
	Hosted   HostedView
	FX       FXView
}

// HostedView is the hosted APIs' fields and their table against the plan.
type HostedView struct {
	Note   string
	Fields []FieldView
	Title  string
	Heads  [6]string
	Rows   []HostedRow
}

// HostedRow is one hosted API against the serving plan.
type HostedRow struct{ API, Why, Prices, Monthly, Self, BreakEven, Source string }

// FXView is the exchange-rate table.
type FXView struct {
	Title string
	Heads [3]string
	Rows  []FXRow
}

// FXRow is one currency's rate, its date and its source.
type FXRow struct{ Currency, PerUSD, AsOf, Source string }

// LangOptions are the page's languages.
func LangOptions() []Option {
	o := make([]Option, len(Languages))
	for i, l := range Languages {
		o[i] = Option{l.Code, l.Name}
	}
	return o
}

func enumOptions[T interface{ String() string }](vals []T) []Option {
	o := make([]Option, len(vals))
	for i, v := range vals {
		o[i] = Option{v.String(), v.String()}
	}
	return o
}

// labelled gives enum values their translated labels, in order.
func labelled[T interface{ String() string }](l Locale, vals []T, labels ...MsgKey) []Option {
	o := enumOptions(vals)
	for i := range o {
		if i < len(labels) {
			o[i].Label = l.T(labels[i])
		}
	}
	return o
}

// FieldOptions are the choices of a select field, which the form and the
// job line's editor both offer; nil for a field entered as text.
//
// The lists depend on the field, the language, the units, the catalog (its
// models, GPUs, currencies and providers, whose names a price sheet sets)
// and the user's own model, so Prices keeps each list once built: an input
// then builds none, and the leaves that show them compare the same slice
// (reflect.DeepEqual's identical-slice shortcut) instead of every option.
// The slices are shared: callers read them, never write.
func (in *ViewIn) FieldOptions(f Field) []Option {
	k := optionsKey{f: f, lang: in.lang(), units: in.Job.Units, custom: in.HasCustom, customName: in.CustomName, cat: in.Prices.Cat, vendor: in.Job.GPU.Vendor}
	if o, ok := in.Prices.options[k]; ok {
		return o
	}
	o := slices.Clip(in.fieldOptions(f))
	if in.Prices.options != nil {
		in.Prices.options[k] = o
	}
	return o
}

// optionsKey is what a field's choices depend on (FieldOptions).
type optionsKey struct {
	f          Field
	lang       string
	units      Unit
	custom     bool
	customName string
	cat        *catalog.Catalog
	vendor     string // the GPU's maker names the tool that reports GiB
}

func (in *ViewIn) fieldOptions(f Field) []Option {
	l := Locale{Lang: in.lang(), Units: in.Job.Units}
	cat := in.Prices.Cat
	if cat == nil {
		cat = &catalog.Catalog{}
	}
	switch f {
	case FieldModel:
		models := make([]Option, len(cat.Models), len(cat.Models)+1)
		for i, m := range cat.Models {
			models[i] = Option{m.ID, m.Name}
		}
		if in.HasCustom {
			models = append(models, Option{CustomModelID, l.T(MsgYourModel) + ": " + in.CustomName})
		}
		return models
	case FieldTask:
		return labelled(l, estimator.Tasks, MsgTaskInference, MsgTaskTrain, MsgTaskFinetune, MsgTaskLoRA, MsgTaskQLoRA)
	case FieldGPU:
		gpus := make([]Option, len(cat.GPUs))
		for i, g := range cat.GPUs {
			gpus[i] = Option{g.ID, g.Name + " · " + l.Bytes(g.Memory)}
		}
		return gpus
	case FieldEngine:
		// Auto first, the default: the engine the planner runs the job
		// on (planner.AutoEngine); an engine chosen is kept.
		engines := []Option{{planner.AutoEngineName, l.T(MsgEngineAuto)}}
		for _, e := range estimator.Engines {
			engines = append(engines, Option{e.String(), e.Label()})
		}
		return engines
	case FieldLang:
		return LangOptions()
	case FieldPrecision:
		// The dtypes, then Lightning's names as LitGPT's configs print
		// them (ParseInput reads both; the -mixed ones train only).
		return append(enumOptions(estimator.DTypes), enumOptions(LightningPrecisions)...)
	case FieldKV:
		return enumOptions(estimator.DTypes)
	case FieldKernel:
		return enumOptions(estimator.Kernels)
	case FieldOptimizer:
		return enumOptions(estimator.Optimizers)
	case FieldAttnKernel:
		return labelled(l, estimator.AttnKernels, MsgAttnFA2, MsgAttnCuDNN, MsgAttnFA3)
	case FieldQuant:
		return quantOptions(l)
	case FieldLoRATargets:
		return labelled(l, estimator.LoRATargetSets, MsgTargetsQV, MsgTargetsAttn, MsgTargetsAll)
	case FieldAdapterDType:
		// Auto first (estimator.ResolveAdapterDType), then the dtypes.
		return labelled(l, estimator.AdapterDTypes, MsgAdapterAuto)
	case FieldZeRO:
		// Empty: estimator.ResolveTrainDefaults, as the CLI without --zero.
		return []Option{{"", l.T(MsgZeROAuto)}, {"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}}
	case FieldOffload:
		return labelled(l, estimator.Offloads, MsgOffNone, MsgOffOptimizer, MsgOffAll)
	case FieldUnits:
		return []Option{{UnitGiB.String(), Fill(l.T(MsgUnitsGiB), SMITool(in.Job.GPU.Vendor))}, {UnitGB.String(), l.T(MsgUnitsGB)}}
	case FieldSLOStat:
		stats := make([]Option, len(planner.SLOStats))
		for i, s := range planner.SLOStats {
			stats[i] = Option{s.String(), SLOStatLabel(l, s)}
		}
		return stats
	case FieldPricing:
		pricing := make([]Option, len(planner.Pricings))
		for i, p := range planner.Pricings {
			pricing[i] = Option{p.String(), l.T(PricingKeys[p])}
		}
		return pricing
	case FieldCurrency:
		var currencies []Option
		for _, cur := range cat.Currencies() {
			currencies = append(currencies, Option{cur, cur})
		}
		return currencies
	case FieldProviderKind:
		kinds := []Option{{"", l.T(MsgKindsDefault)}, {catalog.AnyKind, l.T(MsgKindsAny)}}
		for _, k := range KindMsgs {
			kinds = append(kinds, Option{k.Kind, l.T(k.Msg)})
		}
		return kinds
	case FieldProvider:
		providers := []Option{{"", l.T(MsgAny)}}
		for _, p := range cat.Providers {
			providers = append(providers, Option{ProviderList(p.ID), in.Prices.ProviderName(p.ID)})
		}
		return providers
	}
	return nil
}

// quantOptions are the weight storage formats; the names are the tools' own.
func quantOptions(l Locale) []Option {
	labels := map[estimator.Quant]string{
		estimator.QuantGroup128: "INT4, group 128 (GPTQ / AWQ)", estimator.QuantExpertsG32: "INT4 experts, group 32 (Kimi K2 Thinking / K2.5)",
		estimator.QuantNF4:  "NF4 (bitsandbytes)",
		estimator.QuantQ4_0: "GGUF Q4_0", estimator.QuantQ4KM: "GGUF Q4_K_M", estimator.QuantQ5KM: "GGUF Q5_K_M",
		estimator.QuantQ6K: "GGUF Q6_K", estimator.QuantQ8_0: "GGUF Q8_0",
	}
	o := make([]Option, len(estimator.Quants))
	for i, q := range estimator.Quants {
		o[i] = Option{q.String(), labels[q]}
		if q == estimator.QuantAuto {
			o[i].Label = l.T(MsgQuantAuto)
		}
	}
	return o
}

// FieldMode is the keyboard hint of a text field (inputmode).
func FieldMode(f Field) string {
	switch f {
	case FieldTrainTokens, FieldDataset, FieldCountry, FieldRegion, FieldHost:
		return "text"
	case FieldEpochs, FieldOwnPrice, FieldKWh, FieldOwnYears, FieldRPS, FieldTTFT, FieldTPOT, FieldMemUtil, FieldBudget, FieldDeadline, FieldMinRAM,
		FieldEngineVersion, FieldMFU, FieldInfMFU, FieldBWUtil, FieldAPIIn, FieldAPIOut:
		return "decimal"
	}
	return "numeric"
}

// ttftDefault is the TTFT field's placeholder, the planner's target for
// the job's prompt where the field is empty (planner.Request.DefaultTTFT)
// in milliseconds, and the line under the field that says its rule and
// source.
func (b *viewBuilder) ttftDefault() (placeholder, where string) {
	s, prompt := PlanRequest(b.in.Job).DefaultTTFT()
	ms := math.Round(1000 * s)
	return strconv.FormatFloat(ms, 'f', 0, 64), Fill(b.t(MsgTTFTDefault), b.l.Count(int64(ms)), b.l.Count(int64(prompt)))
}

// formField is field f as a select (when it has choices) or a text box,
// or with ok false when the state hides it.
func (b *viewBuilder) formField(f Field, label MsgKey, kind FieldKind) (FieldView, bool) {
	in := &b.in
	if !in.State.Shown(f) {
		return FieldView{}, false
	}
	v := FieldView{F: f, Kind: kind, Label: b.t(label), Value: in.State[f]}
	if f == FieldMemUtil || f == FieldMaxBatched {
		v.Label, v.Placeholder = b.engineLabel(f, label)
	}
	if f == FieldEager {
		// The chosen engine's own switch, not every engine's.
		eng, ok := engineNamed(in.State[FieldEngine])
		if !ok || int(eng) < 0 || int(eng) >= len(noGraphs) || noGraphs[eng] == "" {
			eng = estimator.VLLM
		}
		_, _, eager := RuntimeKeys(in.Job.GPU.Vendor)
		v.Label = Fill(b.t(eager), eng.Label()+" "+noGraphs[eng])
	}
	if kind == KindCheck && v.Value == "" {
		// Not given (UnsetFields): the value in effect.
		v.Value = "0"
		if f == FieldCheckpointing && in.Job.In.GradCheckpointing {
			v.Value = "1"
		}
	}
	if f == FieldAttnKernel {
		v.Where = b.t(MsgAttnKernelHelp) // which stack runs which kernel, and its speed
	}
	if f == FieldAdapterDType {
		v.Where = b.t(MsgAdapterDTypeHelp) // which stack keeps which dtype, and PEFT's fp32 input copies
	}
	if f == FieldTTFT {
		v.Placeholder, v.Where = b.ttftDefault()
	}
	if !in.Errs[f].OK() {
		v.Err = b.l.ErrText(in.Errs[f])
	}
	switch kind {
	case KindSelect:
		v.Opts = in.FieldOptions(f)
	case KindText:
		v.Mode = FieldMode(f)
	}
	return v, true
}

// engineLabel names the serving engine's own setting behind field f (the
// memory share or the step's token budget), as its launch command spells
// it (estimator.Engine.Settings), with the engine's default for the job
// on its GPU, which 0 in the field stands for: the memory share the
// estimate used (estimator.Input.MemShare: vLLM's and TensorRT-LLM's 0.9,
// SGLang's mem_fraction_static from the GPU's memory and the job's TP,
// 0.819 at TP 8 on an 80 GB H100), the budget from the simulator's
// DefaultPolicyOn (which the estimate and the launch use too). The default
// is also the field's placeholder, as the field accepts it: the link
// keeps 0.
func (b *viewBuilder) engineLabel(f Field, label MsgKey) (text, placeholder string) {
	in := &b.in
	eng, ok := engineNamed(in.State[FieldEngine])
	if !ok {
		eng = estimator.VLLM
	}
	set := eng.Settings()
	here := ""
	if f == FieldMemUtil {
		if j := in.Job.In; j.VRAM > 0 && j.Engine == eng {
			j.GPUMemUtil = 0
			if share := j.MemShare(); share > 0 {
				placeholder = strconv.FormatFloat(share, 'f', -1, 64)
				here = Fill(b.t(MsgDefaultHere), placeholder)
			}
		}
		return Fill(b.t(label), eng.Label(), set.MemShare, here), placeholder
	}
	if vram := in.Job.In.VRAM; vram > 0 {
		// The GPU's name matters too: vLLM gives the A100 its smaller
		// limits whatever its memory (catalog.GPU.VLLMNamesSmall, which
		// ParseInput copies into the estimate's input).
		hw := estimator.Hardware{VLLMSmallDefaults: in.Job.In.VLLMSmallDefaults}
		if pol, err := sim.DefaultPolicyOn(eng, vram, hw); err == nil && pol.TokenBudget > 0 {
			here = Fill(b.t(MsgDefaultHere), b.l.Count(int64(pol.TokenBudget)))
			placeholder = strconv.Itoa(pol.TokenBudget)
		}
	}
	return Fill(b.t(label), eng.Label(), set.TokenBudget, here), placeholder
}

// SMITool is the command that reports a maker's GPU memory in MiB (GiB
// at the page's units): NVIDIA's nvidia-smi, AMD's amd-smi (ROCm's
// successor to rocm-smi, "AMD SMI" in the ROCm documentation), Intel
// Gaudi's hl-smi (Habana's System Management Interface).
func SMITool(vendor string) string {
	switch vendor {
	case "AMD":
		return "amd-smi"
	case "Intel":
		return "hl-smi"
	}
	return "nvidia-smi"
}

// noGraphs is each pooled engine's switch that turns CUDA graphs off, as
// catalog/launch writes it into the engine's launch: vLLM's
// --enforce-eager, SGLang's --disable-cuda-graph (ServerArgs in
// python/sglang/srt/server_args.py), TensorRT-LLM's extra option
// cuda_graph_config: null (tensorrt_llm/llmapi/llm_args.py).
var noGraphs = [...]string{estimator.VLLM: "--enforce-eager", estimator.SGLang: "--disable-cuda-graph", estimator.TRTLLM: "cuda_graph_config: null"}

// fields appends the shown ones of fs to out.
func (b *viewBuilder) fields(out []FieldView, fs ...fieldSpec) []FieldView {
	for _, s := range fs {
		if v, ok := b.formField(s.f, s.label, s.kind); ok {
			out = append(out, v)
		}
	}
	return out
}

type fieldSpec struct {
	f     Field
	label MsgKey
	kind  FieldKind
}

func textF(f Field, label MsgKey) fieldSpec   { return fieldSpec{f, label, KindText} }
func selectF(f Field, label MsgKey) fieldSpec { return fieldSpec{f, label, KindSelect} }
func checkF(f Field, label MsgKey) fieldSpec  { return fieldSpec{f, label, KindCheck} }

// form builds the inputs form.
func (b *viewBuilder) form() FormView {
	in := &b.in
	res := in.R.Res
	specs := []fieldSpec{
		selectF(FieldModel, MsgModel), selectF(FieldTask, MsgTask), selectF(FieldPrecision, MsgPrecision),
		selectF(FieldQuant, MsgQuant), selectF(FieldKernel, MsgKernel),
		textF(FieldBatch, MsgBatch), textF(FieldSeq, MsgSeq), selectF(FieldGPU, MsgGPU), textF(FieldGPUs, MsgGPUs),
		textF(FieldTrainTokens, MsgTrainTokens), textF(FieldDataset, MsgDataset), textF(FieldEpochs, MsgEpochs),
		textF(FieldOutput, MsgOutputTokens), textF(FieldRPS, MsgRPS), textF(FieldRequests, MsgRequests),
		textF(FieldTTFT, MsgTTFTTarget), textF(FieldTPOT, MsgTPOTTarget), selectF(FieldSLOStat, MsgSLOStat), textF(FieldGlobalBatch, MsgGlobalBatch),
		selectF(FieldOptimizer, MsgOptimizer), selectF(FieldAttnKernel, MsgAttnKernel),
		checkF(FieldCheckpointing, MsgCheckpointing), checkF(FieldSelective, MsgSelective),
		textF(FieldLoRARank, MsgLoRARank), selectF(FieldLoRATargets, MsgLoRATargets),
		selectF(FieldAdapterDType, MsgAdapterDType), selectF(FieldZeRO, MsgZeRO),
		selectF(FieldOffload, MsgOffload), selectF(FieldEngine, MsgEngine), selectF(FieldKV, MsgKV), checkF(FieldFlash, MsgFlash),
	}
	// Text-only shows for a vision model, EP for a mixture of experts (or
	// when a link set them).
	if res.VisionParams > 0 || in.State[FieldTextOnly] == "1" {
		specs = append(specs, checkF(FieldTextOnly, MsgTextOnly))
	}
	specs = append(specs, textF(FieldTP, MsgTP), textF(FieldPP, MsgPP), textF(FieldCP, MsgCP))
	if res.Params != res.ActiveParams || in.State[FieldEP] != "1" {
		specs = append(specs, textF(FieldEP, MsgEP))
	}
	// Redundant experts where a serving job's EP is set (or a link set
	// them): an applied planner row of EP 24 over 256 experts holds 8.
	if r := in.State[FieldRedundant]; (r != "" && r != "0") || (!in.Job.In.Task.Training() && in.Job.In.EP > 1) {
		specs = append(specs, textF(FieldRedundant, MsgRedundant))
	}
	specs = append(specs, textF(FieldDP, MsgDP), selectF(FieldUnits, MsgUnits))
	v := FormView{Label: b.t(MsgInputs), Fields: b.fields(nil, specs...)}
	v.Language, _ = b.formField(FieldLang, MsgLanguage, KindSelect)
	v.Overrides = b.overrides()
	v.Filters = b.filters()
	v.Assumptions = b.assumptions()
	v.Fleet = b.fleetInputs()
	v.Bench = b.bench()
	return v
}

// fleetInputs are the daily fleet's inputs: a load curve, a workload
// preset and the owned-GPU prices.
func (b *viewBuilder) fleetInputs() []FieldView {
	curve, ok := b.formField(FieldCurve, MsgCurveField, KindText)
	if !ok {
		return nil
	}
	curve.Mode, curve.Code, curve.Wide = "decimal", true, true
	curve.Placeholder = "2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3"
	work, _ := b.formField(FieldWorkload, MsgWorkloadField, KindSelect)
	work.Opts = []Option{{"", b.t(MsgWorkloadAsSet)}}
	for _, p := range planner.Presets() {
		work.Opts = append(work.Opts, Option{p.Name, PresetLabel(b.l.Lang, p.Name, p.Description)})
	}
	return b.fields([]FieldView{curve, work},
		textF(FieldOwnPrice, MsgOwnPriceField), textF(FieldKWh, MsgKWhField), textF(FieldOwnYears, MsgOwnYearsField))
}

// bench is the "Your benchmark" box: the calibration `rightsize
// calibrate` fitted, and whether it applies to the job's GPU and engine.
func (b *viewBuilder) bench() BenchView {
	f, ok := b.formField(FieldCalibration, MsgBenchPick, KindText)
	if !ok {
		return BenchView{}
	}
	f.Mode, f.Code, f.Placeholder = "", true, "h100-sxm,vllm,16,0.5,0.75"
	v := BenchView{Shown: true, Field: f}
	j, l := &b.in.Job, b.l
	switch {
	case j.CalBad:
		v.Status = b.t(MsgBenchBad)
	case j.CalApplied:
		v.Status, v.StatusOK = Fill(b.t(MsgBenchApplied), j.Cal.GPU, j.Cal.Engine.String(),
			l.Fixed(j.Cal.RequestSeconds*1000, 1)+" "+b.t(MsgMs), l.Fixed(j.Cal.InferenceMFU, 2), l.Fixed(j.Cal.BandwidthUtil, 2)), true
	case j.Cal.GPU != "":
		v.Status = Fill(b.t(MsgBenchMismatch), j.Cal.GPU, j.Cal.Engine.String())
	}
	return v
}

// overrides is the engine settings and overheads box: a serving engine's
// own settings (memory share, token budget, CUDA graphs: engineSettings),
// then each overhead the estimator assumed, as the placeholder of a field
// that replaces it. It opens when a link carries a setting or an
// override, one is wrong or the user has typed one (so clearing it does
// not fold the box mid-edit).
func (b *viewBuilder) overrides() BoxView {
	in := &b.in
	box := BoxView{ID: "rs-overrides", Title: b.t(MsgOverrides), Note: b.t(MsgOverridesNote), Stub: in.FirstScreen}
	if box.Stub {
		return box
	}
	res := in.R.Res
	box.Fields = b.fields(nil, textF(FieldMemUtil, MsgMemUtil), textF(FieldMaxBatched, MsgMaxBatched), checkF(FieldEager, MsgEager))
	size := func(f Field, label MsgKey, est estimator.Bytes) {
		if v, ok := b.formField(f, label, KindText); ok {
			v.Mode = ""
			if in.R.OK {
				v.Placeholder = b.l.Bytes(est)
			}
			box.Fields = append(box.Fields, v)
		}
	}
	size(FieldUsable, MsgUsableOverride, res.Usable)
	ctxKey, graphsKey, _ := RuntimeKeys(in.Job.GPU.Vendor)
	size(FieldCtx, ctxKey, res.PerGPU.CUDAContext)
	size(FieldAlloc, MsgAllocator, res.PerGPU.AllocatorReserve)
	size(FieldNCCL, MsgNCCL, res.PerGPU.NCCL)
	size(FieldGraphs, graphsKey, res.PerGPU.CUDAGraphs)
	box.Fields = b.fields(box.Fields, textF(FieldEngineVersion, MsgEngineVersion), checkF(FieldAsync, MsgAsync), checkF(FieldNoOverlap, MsgNoOverlap), textF(FieldGraphCap, MsgGraphCap), textF(FieldHost, MsgHost))
	// Speculative decoding where the model has an MTP module (or a link
	// set it), its acceptance once drafts are set.
	drafts := in.State[FieldDraft] != "" && in.State[FieldDraft] != "0"
	if in.Job.In.Arch.MTPLayers > 0 || drafts {
		box.Fields = b.fields(box.Fields, textF(FieldDraft, MsgDraft))
	}
	if a := in.State[FieldDraftAccept]; drafts || (a != "" && a != "0") {
		box.Fields = b.fields(box.Fields, textF(FieldDraftAccept, MsgDraftAccept))
	}
	box.Open = in.Typed
	for _, f := range OverrideFields {
		box.Open = box.Open || in.State[f] != "" || !in.Errs[f].OK()
	}
	for _, f := range engineSettings {
		box.Open = box.Open || in.State[f] != DefaultState[f] || !in.Errs[f].OK()
	}
	// vLLM's async scheduling, shown for vLLM alone, the overlap
	// scheduler off, shown for SGLang and TensorRT-LLM, SGLang's graph
	// cap, and speculative decoding, shown for a model with an MTP module,
	// open it when set or in error (a link's bad value shows its message
	// by the field).
	box.Open = box.Open || in.State[FieldAsync] == "1" || in.State[FieldNoOverlap] == "1" || drafts ||
		in.State[FieldGraphCap] != "" && in.State[FieldGraphCap] != "0"
	for _, f := range []Field{FieldAsync, FieldNoOverlap, FieldGraphCap, FieldDraft, FieldDraftAccept} {
		box.Open = box.Open || !in.Errs[f].OK()
	}
	return box
}

// engineSettings are a serving engine's own settings, folded with the
// overheads: most jobs leave them at the engine's defaults.
var engineSettings = []Field{FieldMemUtil, FieldMaxBatched, FieldEager}

// filters is the planner's price model, currency and filters; the box
// opens when one differs from the default or is wrong.
func (b *viewBuilder) filters() BoxView {
	in := &b.in
	box := BoxView{ID: "rs-filters", Title: b.t(MsgFilters)}
	box.Fields = b.fields(nil,
		selectF(FieldPricing, MsgPricing), selectF(FieldCurrency, MsgCurrencyField), selectF(FieldProviderKind, MsgProviderKind),
		selectF(FieldProvider, MsgProvider), textF(FieldCountry, MsgCountry), textF(FieldRegion, MsgRegionField),
		textF(FieldBudget, MsgBudget), textF(FieldDeadline, MsgDeadline), textF(FieldMinVCPU, MsgMinVCPU),
		textF(FieldMinRAM, MsgMinRAM), checkF(FieldUnknownNet, MsgUnknownNet), textF(FieldFreshness, MsgFreshnessField))
	for _, f := range []Field{FieldPricing, FieldCurrency, FieldProviderKind, FieldProvider, FieldCountry, FieldRegion, FieldBudget, FieldDeadline, FieldMinVCPU, FieldMinRAM, FieldUnknownNet, FieldFreshness} {
		box.Open = box.Open || in.State[f] != DefaultState[f] || !in.Errs[f].OK()
	}
	return box
}

// assumptions is the box of editable efficiencies (each with the
// estimator's figure as placeholder), the planner's assumptions (each
// with its default and that default's source), the hosted APIs and the
// dated exchange rates.
func (b *viewBuilder) assumptions() AssumptionsView {
	in, l := &b.in, b.l
	v := AssumptionsView{BoxView: BoxView{ID: "rs-assumptions", Title: b.t(MsgAssumptions), Note: b.t(MsgAssumptionsNote), Stub: in.FirstScreen}}
	if v.Stub {
		return v
	}
	v.Open = in.Typed
	for _, f := range AssumptionFields {
		v.Open = v.Open || in.State[f] != "" || !in.Errs[f].OK()
	}
	eff := AssumedEfficiency(in.Job, in.R.Perf)
	for _, e := range []struct {
		f     Field
		label MsgKey
		v     float64
	}{{FieldMFU, MsgMFUField, eff.MFU}, {FieldInfMFU, MsgInfMFUField, eff.InferenceMFU}, {FieldBWUtil, MsgBWField, eff.BandwidthUtil}} {
		if f, ok := b.formField(e.f, e.label, KindText); ok {
			f.Placeholder = l.Fixed(e.v, 2)
			v.Fields = append(v.Fields, f)
		}
	}
	v.PlanNote = b.t(MsgPlanAssumptionsNote)
	withDefault := func(f Field, label MsgKey, placeholder, source string) FieldView {
		fv, _ := b.formField(f, label, KindText)
		fv.Mode, fv.Placeholder = "", placeholder
		fv.Where = b.t(MsgDefaultIs) + " " + placeholder + " · " + source
		return fv
	}
	v.Plan = []FieldView{
		withDefault(FieldSpotRate, MsgSpotRateField, l.Fixed(planner.DefaultSpotInterruptionsPerMonth, 2), b.t(MsgSrcSpot)),
		withDefault(FieldCkptWrite, MsgCkptWriteField, "1000MiB", b.t(MsgSrcCkpt)),
		withDefault(FieldRestart, MsgRestartField, l.Fixed(planner.DefaultRestartSeconds/60, 0)+"m", b.t(MsgSrcRestart)),
	}
	if x, ok := in.Plan.Best(in.Job.GPU.ID); ok && !in.Pending && x.CheckpointEvery > 0 {
		v.SpotNow = b.t(MsgSpotNow) + " " + l.Fixed(x.SpotPerMonth, 3) + " · " + b.t(MsgYoungDaly) + " " + l.Duration(x.CheckpointEvery) +
			" · " + in.Prices.ProviderName(x.Offer.Provider) + " " + x.Offer.Name()
	}
	v.Hosted = b.hosted(withDefault)
	if in.Prices.Cat == nil {
		return v
	}
	if rates := in.Prices.Cat.FXRates; len(rates) > 0 {
		v.FX = FXView{Title: b.t(MsgFXTitle), Heads: [3]string{b.t(MsgCurrency), b.t(MsgPerUSD), b.t(MsgAsOfSource)}}
		for _, r := range rates {
			v.FX.Rows = append(v.FX.Rows, FXRow{Currency: r.Currency, PerUSD: l.Fixed(r.PerUSD, 4), AsOf: l.Date(r.AsOf), Source: SourceText(r.Source)})
		}
	}
	return v
}

// hosted sets hosted APIs against the serving plan: the user's prices or
// the catalog's dated list prices for the model, the API's month at the
// target rate next to the cheapest self-hosted month, and the break-even
// request rate, in the plan's currency.
func (b *viewBuilder) hosted(withDefault func(f Field, label MsgKey, placeholder, source string) FieldView) HostedView {
	in, l := &b.in, b.l
	var apis []planner.HostedAPI
	if in.Prices.Cat != nil {
		apis = in.Prices.Cat.PlanHostedAPIs(in.Job.Model.ID)
	}
	src, price := b.t(MsgSrcAPINone), [2]string{"—", "—"}
	if len(apis) > 0 {
		a := apis[0]
		src = a.Provider + " " + a.Model + " · " + l.Date(a.AsOf) + " · " + SourceText(a.Source)
		price = [2]string{l.Money(a.InputUSDPerMillion, "USD"), l.Money(a.OutputUSDPerMillion, "USD")}
	}
	h := HostedView{Note: b.t(MsgHostedNote), Fields: []FieldView{
		withDefault(FieldAPIIn, MsgAPIInField, price[0], src),
		withDefault(FieldAPIOut, MsgAPIOutField, price[1], src),
	}}
	for i := range h.Fields {
		h.Fields[i].Mode = "decimal"
	}
	if in.Pending || in.Plan.Kind != planner.Serving {
		return h
	}
	usd := func(v float64) string { return l.Money(in.Plan.FromUSD(v), in.Plan.Currency) }
	for _, x := range in.Plan.Hosted {
		r := HostedRow{
			API:    x.API.Provider + " " + x.API.Model,
			Prices: usd(x.API.InputUSDPerMillion) + " / " + usd(x.API.OutputUSDPerMillion),
			Source: b.t(MsgYourPrice), Monthly: usd(x.MonthlyCostUSD), Self: usd(x.SelfHostedUSD),
			BreakEven: "—", Why: l.ReasonWith(x.Why, in.Prices.ProviderName),
		}
		if x.API.Provider == "" && x.API.Model == "" {
			r.API = x.API.ID
		}
		if x.API.AsOf != "" {
			r.Source = l.Date(x.API.AsOf) + " · " + SourceText(x.API.Source)
		}
		if x.BreakEvenRPS > 0 {
			r.BreakEven = l.Rate(x.BreakEvenRPS) + " " + b.t(MsgPerSecond)
			if x.AlwaysAboveRPS > x.BreakEvenRPS {
				// Whole replicas make the bill a saw: past the first
				// replica's stretch a rate can cost more than the API
				// again, until AlwaysAboveRPS (the CLI's JSON
				// always_cheaper_above_requests_per_second).
				r.BreakEven = Fill(b.t(MsgBreakEvenAlways), r.BreakEven, l.Rate(x.AlwaysAboveRPS)+" "+b.t(MsgPerSecond))
			}
		}
		h.Rows = append(h.Rows, r)
	}
	if len(h.Rows) > 0 {
		h.Title = b.t(MsgHostedTitle)
		h.Heads = [6]string{b.t(MsgHostedAPI), b.t(MsgAPIPrices), b.t(MsgAPIMonthly), b.t(MsgSelfHosted), b.t(MsgBreakEven), b.t(MsgAsOfSource)}
	}
	return h
}
