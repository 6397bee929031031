package page

// The view: everything the page shows, as formatted values, built by one
// pure function (BuildView) from the job, its results and the plan. Every
// join, sort, cut, label, unit and currency is decided here; the go-app
// components only lay the values out. Each section is its own struct of
// plain values, so a section whose values did not change is skipped by
// go-app's diff, and tests compare sections with ==-like checks on plain
// values instead of driving a component.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// ViewIn is what the view is built from: the page's state, its parsed
// job and results, the planner's answer (Pending: an answer for the job
// is on its way, the one held is the last job's), the prices it used and
// the page's clock (zero: the prerendered page, which grades no price).
type ViewIn struct {
	State   ViewState
	Job     Job
	R       Results
	Plan    PlanOut
	Pending bool
	Prices  Prices
	Now     time.Time
	Compare []string // the offers in the comparison, in the order added
	// CompareFull: the last add found the comparison full.
	CompareFull bool
	// Pin is the pinned configuration, nil when none.
	Pin *PinIn
	// CustomName is the user's own model's file name (CustomModelID);
	// HasCustom is set while one is loaded.
	CustomName string
	HasCustom  bool
	// Errs is each field's problem, General the job's (Derived).
	Errs    [NFields]FieldErr
	General []FieldErr
	// Typed is set once the user typed in a folded box of the form, which
	// then stays open while its fields are cleared.
	Typed bool
	// FirstScreen: the default view's first screen, whose folded boxes
	// render their bodies only from the first step after the page is live.
	FirstScreen bool
}

// View is the page's sections, formatted.
type View struct {
	Lang   string
	Answer AnswerView
	Result ResultView
	Perf   PerfView
	Rules  RulesView
	Fit    FitView
	Offers OffersView
	Form   FormView
	Job    JobLineView
	Launch LaunchView
	Serve  ServeView
	Plans  PlansView
	Pinned PinView
	// Problems are the job's problems that are no one field's.
	Problems []string
	// Fresh is the footer's count of offers by price age ("" without a clock).
	Fresh string
}

// BuildView builds the page's view from in. It is pure: the same in gives
// the same view, and it writes nothing.
func BuildView(in ViewIn) View {
	in.Errs = planRangeErrs(in)
	b := newViewBuilder(in)
	v := View{Lang: b.l.Lang, Answer: b.answer(), Form: b.form(), Job: b.jobLine(), Plans: b.plans(), Pinned: b.pinned(), Fresh: b.fresh()}
	if v.Answer.Kind == AnswerStale {
		// The note names the fields to fix: on a phone they may lie
		// screens below it.
		if names := errFieldNames(b.l, &v.Form); names != "" {
			v.Answer.Note = Fill(b.t(MsgFixNamed), names)
		}
	}
	for _, e := range in.General {
		v.Problems = append(v.Problems, b.l.ErrText(e))
	}
	if !in.R.OK {
		return v
	}
	v.Result = b.result()
	v.Perf = b.perf()
	v.Rules = b.rules()
	v.Fit = b.fit()
	v.Offers = b.offers()
	v.Serve = b.serve()
	if in.State.Opens(SecLaunch) {
		v.Launch = b.launch() // folded, it would be built on every input for nobody
	}
	return v
}

// errFieldNames are the labels of form f's fields that show a problem,
// quoted and listed in l's way ("“Batch size”, “GPUs”"); "" for none.
func errFieldNames(l Locale, f *FormView) string {
	open, shut, sep := "“", "”", ", "
	switch l.Lang {
	case "ru":
		open, shut = "«", "»"
	case "zh":
		sep = "、"
	}
	var names []string
	for _, fields := range [][]FieldView{f.Fields, f.Overrides.Fields, f.Filters.Fields} {
		for _, x := range fields {
			if x.Err != "" {
				names = append(names, open+x.Label+shut)
			}
		}
	}
	return strings.Join(names, sep)
}

// lang is the state's language (LangOf).
func (in *ViewIn) lang() string { return LangOf(&in.State) }

// LangOf is state s's language, English when it names none the page has.
func LangOf(s *ViewState) string {
	for _, l := range Languages {
		if l.Code == s[FieldLang] {
			return l.Code
		}
	}
	return "en"
}

type viewBuilder struct {
	in ViewIn
	l  Locale
}

func newViewBuilder(in ViewIn) *viewBuilder {
	return &viewBuilder{in: in, l: Locale{Lang: in.lang(), Units: in.Job.Units}}
}

// PickViews are the answer's picks as BuildView formats them (for the
// export, which lists them without the rest of the view).
func PickViews(in ViewIn) []PickView { return newViewBuilder(in).picks() }

func (b *viewBuilder) t(k MsgKey) string { return b.l.T(k) }

// ProviderName is a provider's display name, its ID when it has none.
func (pr Prices) ProviderName(id string) string {
	if pr.Cat != nil {
		if p, ok := pr.Cat.Provider(id); ok && p.Name != "" {
			return p.Name
		}
	}
	return id
}

// InstanceName is offer o's instance as shown (catalog.Catalog.InstanceName,
// the plan's plan.Offer.Name).
func (pr Prices) InstanceName(o catalog.Offer) string {
	if pr.Cat != nil {
		return pr.Cat.InstanceName(o)
	}
	return o.InstanceType
}

// GPUName is a GPU's display name, its ID when the catalog has none.
func (pr Prices) GPUName(id string) string {
	if pr.Cat != nil {
		if g, ok := pr.Cat.GPU(id); ok {
			return g.Name
		}
	}
	return id
}

// GPUVRAM is a GPU's memory as the fit table's VRAM column writes it.
func (pr Prices) GPUVRAM(l Locale, id string) string {
	if pr.Cat != nil {
		if g, ok := pr.Cat.GPU(id); ok {
			return l.Bytes(g.Memory)
		}
	}
	return "—"
}

// ModelName is job j's model as the page names it; custom is the file
// name of the user's own model.
func ModelName(l Locale, j Job, custom string) string {
	if j.Model.ID == CustomModelID {
		return l.T(MsgYourModel) + l.Colon() + custom
	}
	return j.Model.Name
}

// CompareState is how a row's "+ Compare" button reads: 0 add, 1 added
// (a click removes it), 2 the comparison is full.
func CompareState(cmp []string, id string) int {
	switch {
	case slices.Contains(cmp, id):
		return 1
	case len(cmp) >= MaxCompare:
		return 2
	}
	return 0
}

// Labels of the planner's and the estimator's enums.
var (
	// PricingKeys name the price models, by planner.Pricing.
	PricingKeys = map[planner.Pricing]MsgKey{
		planner.OnDemand: MsgPrOnDemand, planner.Spot: MsgPrSpot, planner.Reserved1y: MsgPrRes1, planner.Reserved3y: MsgPrRes3,
	}
	// TaskKeys name the tasks, by estimator.Task.
	TaskKeys = map[estimator.Task]MsgKey{
		estimator.Inference: MsgTaskInference, estimator.Pretrain: MsgTaskTrain, estimator.FullFinetune: MsgTaskFinetune,
		estimator.LoRA: MsgTaskLoRA, estimator.QLoRA: MsgTaskQLoRA,
	}
	// boundKeys name what bounded a phase, by estimator.Bound.
	boundKeys = map[estimator.Bound]MsgKey{
		estimator.BoundNone: MsgNone, estimator.BoundCompute: MsgBoundCompute, estimator.BoundBandwidth: MsgBoundBandwidth,
		estimator.BoundHost: MsgBoundHost, estimator.BoundCommunication: MsgBoundComm,
	}
	// ruleLabels name the rules of thumb, by estimator.Rule.
	ruleLabels = map[estimator.Rule]MsgKey{
		estimator.RuleParams4Bytes: MsgRuleParams4, estimator.RuleParamMemory1_5: MsgRuleParamMem15,
		estimator.RuleWeights1_2: MsgRuleWeights12, estimator.RuleHF18Bytes: MsgRuleHF18,
	}
)

// SplitText says how the GPUs are used: tensor-parallel degree, the
// attention data-parallel ranks and expert-parallel GPUs inside it (as
// the CLI's table writes them: attn-DP, EP), pipeline stages, a
// training job's context-parallel split of each sequence (CP) and
// data-parallel copies (with the ZeRO stage that shards them). The
// abbreviations are the engines' own in every language.
func SplitText(p Plan) string {
	var parts []string
	if p.TP > 1 {
		parts = append(parts, "TP "+strconv.Itoa(p.TP))
	}
	if p.AttnDP > 1 {
		parts = append(parts, "attn-DP "+strconv.Itoa(p.AttnDP))
	}
	if p.EP > 1 {
		e := "EP " + strconv.Itoa(p.EP)
		if p.Redundant > 0 {
			e += " +" + strconv.Itoa(p.Redundant) // the redundant expert copies (note.redundant_experts)
		}
		parts = append(parts, e)
	}
	if p.PP > 1 {
		parts = append(parts, "PP "+strconv.Itoa(p.PP))
	}
	if p.CP > 1 {
		parts = append(parts, "CP "+strconv.Itoa(p.CP))
	}
	if dp := p.GPUs / max(1, p.TP*p.PP*max(p.CP, 1)); dp > 1 {
		d := "DP " + strconv.Itoa(dp)
		if p.ZeRO > 0 {
			d += " ZeRO-" + strconv.Itoa(p.ZeRO)
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, " · ")
}

// PlanSuffix is SplitText after the GPU label it follows: in brackets
// ("H100 SXM (TP 4)"), or after a comma where the label ends in brackets
// of its own ("NVIDIA GB200 (one Blackwell GPU), TP 4"); "" for one GPU.
func PlanSuffix(label string, p Plan) string {
	return catalog.Aside(label, SplitText(p))
}

// GPULabel is a GPU's name with its layout, as PlanSuffix joins them.
func GPULabel(name string, p Plan) string {
	return name + PlanSuffix(name, p)
}

// InstancesOf is " ×3" after an instance type rented three times, "" for
// one, and for a plan that uses n instances and pays for
// rented (planner.Row.Rented: the provider's whole orders, a GB200 NVL72
// rack of 18 trays): " ×2 of 18", as the CLI's instances cell says it.
func InstancesOf(l Locale, n, rented int) string {
	return planner.InstancesSuffix(n, rented, l.T(MsgInstancesOf), func(n int) string { return l.Count(int64(n)) })
}

// PlanCostHeader names the planner's cost column for the plan's kind.
func (o *PlanOut) PlanCostHeader(l Locale) string {
	switch o.Kind {
	case planner.Serving:
		return l.T(MsgMonthlyShort)
	case planner.Batch:
		return l.T(MsgBatchCost)
	}
	return l.T(MsgJobCost)
}

// PlanTimeHeader names the planner's time column for the plan's kind.
func (o *PlanOut) PlanTimeHeader(l Locale) string {
	switch o.Kind {
	case planner.Serving:
		return l.T(MsgE2EP95)
	case planner.Batch:
		return l.T(MsgBatchTime)
	}
	return l.T(MsgJobTime)
}

// ceilDiv is ⌈a/b⌉, 0 when b is not positive.
func ceilDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return math.Ceil(a / b)
}

func safeInv(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return 1 / x
}

// Basis is how a number was made: the formula in words, its inputs,
// the efficiency assumed, the band, what bound it and how to check it.
type Basis struct {
	Formula, Inputs, Efficiency, Band, Bound, Verify string
}

// Fact is one labelled number.
type Fact struct {
	ID, Label, Value string
	// Detail names what the value describes (the plan, the price), in
	// smaller type under it.
	Detail string
	Basis  Basis
}

// Part is one line of the memory breakdown.
type Part struct {
	ID, Name, Value, Share, Band, Formula string
	Seg, Permille                         int
}

// Breakdown is the memory per GPU, part by part, with the verdict.
type Breakdown struct {
	Lang, Title, Verdict string
	Fits                 bool
	Parts                []Part
	Total, Band, Usable  string
	// UsableNote says where the usable memory comes from when ECC sets
	// it ("ECC on: CUDA sees 22.49 GiB of 24.00 GiB", ECCSees), else "".
	UsableNote string
	// LoadPeak is the peak while the weights load, when it is above the
	// step's (estimator.Result.PeakPhase == PhaseLoad), else "".
	LoadPeak string
	// BackwardEndPeak is the peak at the end of the backward pass, when
	// it is above the step's (estimator.Result.PeakPhase ==
	// PhaseBackwardEnd: FSDP1's root unit assembling its gradient after
	// the activations are gone), else "". The CLI prints the same figure
	// as "peak per GPU (end of backward)".
	BackwardEndPeak string
	// OptimizerStepPeak is the peak during the optimizer step, when it is
	// above the step's (estimator.Result.PeakPhase == PhaseOptimizerStep:
	// foreach AdamW's temporary beside the weights, gradients and
	// states), else "". The CLI prints it as "peak per GPU (optimizer
	// step)".
	OptimizerStepPeak string
	// Needed is the step's peak without the allocator's cache, which
	// PyTorch frees before an allocation fails (estimator.Result.
	// AllocatorCache), when there is such cache, else "". The verdict is
	// judged on it.
	Needed string
	// Verify says how to measure a part on this GPU's maker's tools.
	Verify string
}

// ResultView is the memory section: the breakdown, the facts under it and
// the estimator's warnings.
type ResultView struct {
	Breakdown Breakdown
	Facts     []Fact
	Warnings  []string
}

func (b *viewBuilder) result() ResultView {
	l, in := b.l, &b.in
	r := in.R.Res
	facts := []Fact{{Label: b.t(MsgParams), Value: l.Count(r.Params) + " (" + l.Billions(r.Params) + ")", ID: "rs-params"}}
	if r.VisionParams > 0 {
		// A vision-language model: its text model and vision tower apart.
		facts[0].Value = Fill(b.t(MsgTextVision), l.Billions(r.Params-r.VisionParams), l.Billions(r.VisionParams))
	}
	if r.ActiveParams != r.Params {
		facts = append(facts, Fact{Label: b.t(MsgActive), Value: l.Count(r.ActiveParams) + " (" + l.Billions(r.ActiveParams) + ")"})
	}
	if d := in.Job.Stack; d != nil {
		// A fine-tune named by a Lightning precision plans LitGPT's
		// scripts with their defaults (ParseInput): which were taken.
		facts = append(facts, Fact{ID: "rs-stack-defaults", Label: Fill(b.t(MsgStackDefaults), d.Stack), Value: strings.Join(d.Flags, " "),
			Detail: Fill(b.t(MsgStackDefaultsWhy), d.Stack, d.Source)})
		if d.Refused {
			facts[len(facts)-1].Detail += " — " + Fill(b.t(MsgStackRefusesQLoRA), d.Stack)
		}
	}
	if in.Job.CheckpointingDefault {
		// QLoRA's stacks checkpoint activations by default (ParseInput,
		// estimator.QLoRACheckpointingDefault): the estimate says so.
		facts = append(facts, Fact{ID: "rs-ckpt-default", Label: b.t(MsgCheckpointing), Value: b.t(MsgCkptDefault), Detail: b.t(MsgCkptDefaultWhy)})
	}
	if in.Job.In.Task == estimator.Inference {
		// The memory is the engine's (a pool, or HF transformers' batch
		// as set): which, and on auto why (the planner's, AutoEngine).
		facts = append(facts, Fact{ID: "rs-engine-run", Label: b.t(MsgEngine), Value: in.Job.In.Engine.Label(), Detail: engineDetail(l, in.Job)})
	}
	if r.KVBytesPerToken > 0 && in.Job.In.Task == estimator.Inference {
		// Only inference keeps a KV cache: a training step recomputes
		// attention over the sequence and its memory is activations.
		facts = append(facts, Fact{Label: b.t(MsgKVPerToken), Value: l.Fixed(float64(r.KVBytesPerToken)/float64(estimator.KiB), 1) + " " + b.t(MsgKiB)})
	}
	if r.KVPoolTokens > 0 {
		facts = append(facts, Fact{Label: b.t(MsgKVPool) + " · " + in.Job.In.Engine.Label(), Value: l.Count(r.KVPoolTokens) + " " + b.t(MsgTokens) + " · " + l.Count(r.MaxConcurrentSeqs) + " × " + in.State[FieldSeq]})
	}
	maxSeq := l.CountOrNone(in.R.MaxSeq)
	if in.R.SeqCapped {
		maxSeq += " (" + b.t(MsgModelLimit) + ")"
	}
	facts = append(facts,
		Fact{Label: b.t(MsgMaxBatch), Value: l.CountOrNone(in.R.MaxBatch), ID: "rs-max-batch"},
		Fact{Label: b.t(MsgMaxSeq), Value: maxSeq, ID: "rs-max-seq"},
	)
	if f, ok := in.R.Fewest(in.Job.GPU.ID); ok && !r.Fits {
		// A job that does not fit on the GPUs as set: the fewest of this
		// GPU that hold it and their split (the fit table's row for it,
		// estimator.MinGPUsInput; the CLI's "min GPUs", min_gpus_that_fit).
		v := Fill(b.t(MsgMoreThanGPUs), b.l.Count(MaxGPUsSearched))
		if f.Found {
			v = b.l.Count(int64(f.Plan.GPUs)) + " × " + GPULabel(in.Job.GPU.Name, f.Plan)
		}
		facts = append(facts, Fact{Label: b.t(MsgFewestGPUs), Value: v, ID: "rs-min-gpus"})
	}
	if g := in.R.Checkpointed; in.R.HasCheckpointed {
		// A training job that does not fit: what checkpointing would need.
		v := l.Bytes(g.PerGPU.Total()) + " · ✗ " + b.t(MsgDoesNotFit)
		if g.Fits {
			v = l.Bytes(g.PerGPU.Total()) + " · ✓ " + b.t(MsgFits) + " · " + b.t(MsgHeadroom) + " " + l.Bytes(g.Headroom)
		}
		facts = append(facts, Fact{Label: b.t(MsgWithCheckpointing), Value: v, ID: "rs-with-gc"})
	}
	if why := LayoutWhy(l, in.Job.Layout); why != "" {
		facts = append(facts, Fact{Label: b.t(MsgLayoutChosen), Value: why, ID: "rs-layout-why"})
	}
	if f := in.R.Fix; in.R.HasFix && !slices.Equal(f.Levers, []estimator.Lever{estimator.LeverCheckpointing}) {
		// The settings that make it fit, unless checkpointing alone is
		// the fix (the fact above says so): ZeRO-2 or plain 1F1B, which
		// cost less, or checkpointing with more.
		facts = append(facts, Fact{Label: b.t(MsgFitsWith), Value: l.FixText(in.R.Fix), ID: "rs-fits-with"})
	}
	var warns []string
	for _, k := range in.R.HWWarn {
		if k == MsgShipsFP8 {
			warns = append(warns, b.t(k)) // the model's, not the GPU's
			continue
		}
		warns = append(warns, b.t(k)+" ("+in.Job.GPU.Name+")")
	}
	for w := range r.Warnings.Each() {
		warns = append(warns, b.t(WarningKeys[w]))
	}
	loadPeak, backwardEnd, optStep, needed := "", "", "", ""
	switch {
	case r.PeakPhase == estimator.PhaseLoad:
		loadPeak = l.Bytes(r.Peak)
	case r.PeakPhase == estimator.PhaseBackwardEnd:
		backwardEnd = l.Bytes(r.Peak)
	case r.PeakPhase == estimator.PhaseOptimizerStep:
		optStep = l.Bytes(r.Peak)
	case r.AllocatorCache > 0:
		needed = l.Bytes(r.Peak)
	}
	verdict := b.t(MsgFits) + " · " + b.t(MsgHeadroom) + " " + l.Bytes(r.Headroom)
	if !r.Fits {
		verdict = b.t(MsgDoesNotFit) + " · " + b.t(MsgShortBy) + " " + l.Bytes(-r.Headroom)
	}
	// On a GDDR GPU with ECC on the fit is decided against what CUDA
	// sees, not the card's marketed size (eccmsg.go).
	verdict += UsableECC(l, in.Job.In.ECCVisible(), r.Usable)
	return ResultView{
		Breakdown: Breakdown{
			Lang: l.Lang, Title: b.t(MsgPerGPU) + " · " + ModelName(l, in.Job, in.CustomName) + " · " + in.Job.GPU.Name,
			Verdict: verdict, Fits: r.Fits, Parts: Parts(l, r, in.Job.GPU.Vendor),
			Total: l.Bytes(r.PerGPU.Total()), Band: l.BytesRange(r.Confidence.Low, r.Confidence.High),
			Usable: l.Bytes(r.Usable), UsableNote: ECCSees(l, in.Job.In), LoadPeak: loadPeak, BackwardEndPeak: backwardEnd, OptimizerStepPeak: optStep, Needed: needed,
			Verify: Fill(b.t(MsgVerifyMemory), SMITool(in.Job.GPU.Vendor)),
		},
		Facts:    facts,
		Warnings: warns,
	}
}

// RuntimeKeys names the GPU runtime's context, graphs and "no graphs"
// switch by the catalog GPU's vendor (catalog.GPU.Vendor): ROCm's HIP on
// AMD (hipCtx, hipGraph in the ROCm HIP API reference), Intel Gaudi's HPU
// Graphs (docs.habana.ai, "Run Inference Using HPU Graphs"), CUDA's
// otherwise. The estimator's parts keep their CUDA names (the JSON's
// cuda_context_bytes); only the words change.
func RuntimeKeys(vendor string) (context, graphs, eager MsgKey) {
	switch vendor {
	case "AMD":
		return MsgHIPContext, MsgHIPGraphs, MsgEagerHIP
	case "Intel":
		return MsgRuntimeContext, MsgHPUGraphs, MsgEagerHPU
	}
	return MsgCUDAContext, MsgCUDAGraphs, MsgEager
}

// Parts are the breakdown's lines with their basis: the weights always,
// every other part when it holds memory. vendor is the GPU's
// (RuntimeKeys names the runtime's lines).
func Parts(l Locale, r estimator.Result, vendor string) []Part {
	b, cf := r.PerGPU, r.Confidence
	ctxKey, graphsKey, _ := RuntimeKeys(vendor)
	gradsF := MsgFGradients
	if r.GradientsInFlight {
		gradsF = MsgFGradientsInFlight
	}
	all := []struct {
		key, formula MsgKey
		id           string
		b            estimator.Bytes
		conf         float64
	}{
		{MsgWeights, MsgFWeights, "rs-weights", b.Weights, cf.Weights},
		{MsgGradients, gradsF, "rs-gradients", b.Gradients, cf.Gradients},
		{MsgOptimizerStates, MsgFOptimizer, "rs-optimizer", b.Optimizer, cf.Optimizer},
		{MsgActivations, MsgFActivations, "rs-activations", b.Activations, cf.Activations},
		{MsgLogits, MsgFLogits, "rs-logits", b.Logits, cf.Logits},
		{MsgKVCache, MsgFKV, "rs-kv", b.KVCache, cf.KVCache},
		{ctxKey, MsgFOverhead, "rs-cuda", b.CUDAContext, cf.Overhead},
		{MsgAllocator, MsgFOverhead, "rs-alloc", b.AllocatorReserve, cf.Overhead},
		{MsgNCCL, MsgFOverhead, "rs-nccl", b.NCCL, cf.Overhead},
		{graphsKey, MsgFOverhead, "rs-graphs", b.CUDAGraphs, cf.Overhead},
		{MsgQuantState, MsgFOverhead, "rs-quant", b.QuantState, cf.Overhead},
	}
	total := b.Total()
	var out []Part
	for i, p := range all {
		if p.b <= 0 && i != 0 {
			continue
		}
		share := 0.0
		if total > 0 {
			share = float64(p.b) / float64(total)
		}
		out = append(out, Part{
			ID: p.id, Name: l.T(p.key), Value: l.PartBytes(p.b), Share: l.PartShare(share),
			Band: l.Percent(p.conf), Formula: l.T(p.formula), Seg: len(out), Permille: int(share*1000 + 0.5),
		})
	}
	return out
}

// PerfView is the speed-and-cost section: the job as set (Setup) and its
// figures; NoPerf says the estimator has no speed for it, and NoFit
// that this is because the job does not fit the GPUs as set (else the
// catalog lacks the GPU's figures).
type PerfView struct {
	Setup         string
	Facts         []Fact
	NoPerf, NoFit bool
	// Generic: no speed because a rightsize-generic model (FLUX.1, SDXL's
	// UNet, ResNet-50) served is a parameter count with no attention
	// layout, as rightsize estimate says it.
	Generic bool
}

// SetupLine says the job as set, which the speed box's figures describe:
// "1 × NVIDIA H100 SXM 80GB · vLLM · batch 1". Why an engine on auto is
// that engine (EngineWhy) is said once, beside the memory it sizes (the
// result's "rs-engine-run" fact).
func SetupLine(l Locale, j Job) string {
	in := j.In
	s := l.Count(int64(in.GPUs)) + " × " + GPULabel(j.GPU.Name, PlanOf(in))
	if in.Task == estimator.Inference {
		s += " · " + in.Engine.Label()
	}
	return s + " · " + l.T(MsgBatch) + " " + l.Count(int64(in.Batch))
}

// engineDetail is what the memory section says under the engine an
// inference job runs on: for an engine on auto, the field's own "Auto (as
// planned)" where the engine is the one every plan runs (the planner's
// notes say why: note.batch_engine, note.serving_engine), and the reason
// where auto turned from it (Pascal GPUs, weights vLLM has no kernel for,
// models that generate no tokens: EngineWhy); "" for an engine chosen.
func engineDetail(l Locale, j Job) string {
	why := EngineWhy(l, j)
	if why != "" && (j.EngineWhy.Key == planner.MsgNoteBatchEngine || j.EngineWhy.Key == planner.MsgNoteServingEngine) {
		return l.T(MsgEngineAuto)
	}
	return why
}

// EngineWhy says why an inference job on auto runs on its engine, the
// planner's reason ("auto: batch inference planned on vLLM …"); "" for
// an engine chosen, and for training.
func EngineWhy(l Locale, j Job) string {
	if !j.EngineOpen || j.EngineWhy.Key == planner.NoMsg || j.In.Task != estimator.Inference {
		return ""
	}
	return Fill(l.T(MsgEngineAutoWhy), l.Reason(j.EngineWhy))
}

func (b *viewBuilder) perf() PerfView {
	l, in := b.l, &b.in
	v, j := in.R.Perf, in.Job
	if j.In.Arch.Generic() && j.In.Task == estimator.Inference {
		// Its "tokens" per second measure nothing a user serves.
		return PerfView{NoPerf: true, Generic: true}
	}
	if !v.OK {
		// perfOf has a speed for every job that runs and a GPU with figures.
		return PerfView{NoPerf: true, NoFit: !in.R.Res.Runs(j.In)}
	}
	p := v.P
	band := l.Percent(p.Uncertainty)
	bound := b.t(boundKeys[p.Bound])
	if lever := Lever(l, p.Bound, j.In.Task, v.Eff); lever != "" {
		bound += " — " + lever
	}
	eff := b.t(MsgEffMFU) + " " + l.Fixed(v.Eff.MFU*100, 0) + "%"
	if j.In.Task == estimator.Inference {
		eff = b.t(MsgEffBandwidth) + " " + l.Fixed(v.Eff.BandwidthUtil*100, 0) + "% · " + b.t(MsgEffMFU) + " " + l.Fixed(v.Eff.InferenceMFU*100, 0) + "%"
	}
	hw := j.GPU.Name + ": " + l.Fixed(v.HW.PeakFLOPS/1e12, 0) + " TFLOPS · " + l.Fixed(v.HW.MemBandwidth/1e9, 0) + " GB/s"
	basis := func(formula, verify MsgKey) Basis {
		return Basis{Formula: b.t(formula), Inputs: hw, Efficiency: eff, Band: band, Bound: bound, Verify: b.t(verify)}
	}
	// Two plans, each named: the job as set (its speed, and its cost at
	// that speed on the offer and price of the planner's cheapest plan on
	// this GPU: AtSpeed), and that plan itself (its own count, engine,
	// batch and price model), as in the tables.
	out := &in.Plan
	names := in.Prices.ProviderName
	// While a plan for a changed job is on its way, the last plan's
	// figures stay (greyed by the page's pending class), as the answer
	// and the tables keep theirs: dropping them and their offer lines
	// shrank the box by several lines and grew it back, moving every
	// section below under the user's pointer. With no plan held they
	// wait ("…").
	atSpeedV, atSpeedWhere := "—", ""
	if sc := AtSpeed(v, j, out); sc.OK {
		atSpeedWhere = l.Money(sc.PerGPUHour, sc.Currency) + "/" + b.t(MsgGPUHour) + " " + b.t(PricingKeys[sc.Pricing]) +
			" · " + names(sc.Offer.Provider) + " " + sc.Offer.Name()
		atSpeedV = l.Money(sc.JobCost, sc.Currency)
		if j.In.Task == estimator.Inference {
			atSpeedV = l.Money(sc.PerMOut, sc.Currency)
		}
	} else if in.Pending {
		atSpeedV = "…"
	}
	// The planner's figure says what it counts: per 1M generated tokens
	// for serving, the job's cost for training ("$0.31" under a bare
	// "cheapest plan" read as a price per hour).
	planned, plannedWhat, plannerBest := "—", "", MsgPlannerBestJob
	if j.In.Task == estimator.Inference {
		plannerBest = MsgPlannerBestPerM
	}
	if x, ok := out.Best(j.GPU.ID); ok {
		where := b.t(PricingKeys[x.Pricing]) + " · " + names(x.Offer.Provider) + " " + x.Offer.Name() + InstancesOf(l, x.Instances, x.Rented)
		shape := l.Count(int64(x.Plan.GPUs)) + " × " + GPULabel(j.GPU.Name, x.Plan)
		if j.In.Task == estimator.Inference {
			planned = l.Money(out.FromUSD(x.PerMOutUSD), out.Currency)
			plannedWhat = shape + " · " + x.Engine.Label() + " · " + l.Count(int64(math.Round(x.Concurrency))) + " " + b.t(MsgInFlight) + " · " + where
		} else {
			planned = l.Money(x.Cost, out.Currency)
			plannedWhat = l.Duration(x.Seconds) + " · " + shape + " · " + where
		}
	} else if in.Pending {
		planned = "…"
	}
	var facts []Fact
	if j.In.Task == estimator.Inference {
		// How to check the figures: a serving engine's benchmark client,
		// or for HF transformers a timed generate() after a pass over the
		// same lengths (testdata/calibration/device-h100-2026-11-26: the
		// first pass over each length reads 3–6× the step on an H100).
		verify := MsgVerifyVLLM
		if j.In.Engine == estimator.HF {
			verify = MsgVerifyHF
		}
		facts = []Fact{
			{ID: "rs-ttft", Label: b.t(MsgTTFT), Value: l.Duration(p.TimeToFirstToken), Basis: basis(MsgFTTFT, verify)},
			{ID: "rs-per-seq", Label: b.t(MsgPerSeq), Value: l.Rate(safeInv(p.DecodeTokenLatency)), Basis: basis(MsgFDecode, verify)},
			{ID: "rs-throughput", Label: b.t(MsgThroughputInfer), Value: l.Rate(p.TokensPerSecond) + " " + band, Basis: basis(MsgFDecode, verify)},
			{ID: "rs-cost-at-speed", Label: b.t(MsgCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(MsgFCostPerM, verify)},
		}
		if p.AcceptedTokens > 0 {
			// Speculative decoding: the drafts a step and the tokens a
			// step yields, as rightsize estimate's speculative line says.
			facts[1].Detail = Fill(b.t(MsgMTPDetail), l.Count(int64(j.In.DraftTokens)), l.Fixed(p.AcceptedTokens, 2))
		}
		if v.FirstWaveSeconds > 0 {
			// The mean TTFT is the simulated closed-loop benchmark's,
			// its first wave late by the estimated cold start, as the
			// CLI's estimate says (estimator.ColdFirstWaveSeconds).
			facts[0].Detail = Fill(b.t(MsgFirstWave), l.Count(int64(j.In.Batch)), l.Duration(v.FirstWaveSeconds))
		}
		if j.In.Arch.Encoder {
			// An encoder reads its tokens in one forward pass and
			// generates none, as rightsize estimate prints it ("one
			// forward pass per request"): no first token, no tokens per
			// request, and its throughput and cost count tokens read.
			facts[0].Label = b.t(MsgForwardPass)
			facts = slices.Delete(facts, 1, 2)
			facts[1].Label, facts[2].Label = b.t(MsgThroughputEncoder), b.t(MsgCostAtSpeedTokens)
			plannerBest = MsgPlannerBestPerMTokens
		}
	} else {
		perEpoch := ""
		if j.Dataset > 0 {
			perEpoch = Fill(b.t(MsgPerEpoch), l.CountOrNone(int(ceilDiv(j.Dataset, p.TokensPerStep))))
		}
		runTime, runHours := b.wholeRun(v.Run)
		facts = []Fact{
			{ID: "rs-throughput", Label: b.t(MsgThroughputTrain), Value: l.Rate(p.TokensPerSecond) + " " + band, Basis: basis(MsgFTrain, MsgVerifyTrain)},
			{ID: "rs-job-time", Label: b.t(MsgJobTime), Value: l.Duration(v.Seconds), Detail: runTime, Basis: basis(MsgFJobTime, MsgVerifyTrain)},
			{ID: "rs-gpu-hours", Label: b.t(MsgGPUHours), Value: l.Rate(v.GPUHours), Detail: runHours, Basis: basis(MsgFJobTime, MsgVerifyTrain)},
			{ID: "rs-steps", Label: b.t(MsgOptimizerSteps), Value: l.CountOrNone(int(ceilDiv(j.Tokens, p.TokensPerStep))), Detail: joinDetail(perEpoch, b.unevenBatch(j))},
			{ID: "rs-cost-at-speed", Label: b.t(MsgJobCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(MsgFJobCost, MsgVerifyTrain)},
		}
	}
	if j.In.Task.Training() && j.In.GPUs > 1 {
		// The exposed share of the step, and the whole volume's time
		// (most of it hidden under compute on one node).
		exposed := l.SmallPercent(SafeShare(p.CommSeconds, p.StepSeconds))
		facts = append(facts, Fact{ID: "rs-comm", Label: b.t(MsgCommFact), Value: exposed,
			Detail: Fill(b.t(MsgCommHidden), exposed, l.Duration(p.CommTotalSeconds))})
	}
	facts = append(facts, Fact{ID: "rs-mfu", Label: b.t(MsgMFUImplied), Value: l.SmallPercent(p.MFU)},
		Fact{ID: "rs-cheapest", Label: b.t(plannerBest), Value: planned, Detail: plannedWhat})
	setup := SetupLine(l, j)
	if j.Offer != nil {
		// A planner row applied: the job is timed on its offer's instance
		// (Job.Hardware), so the box names it, as the row does.
		setup += " · " + in.Prices.ProviderName(j.Offer.Provider) + " " + j.Offer.Name()
	}
	return PerfView{Setup: b.t(MsgAsSet) + l.Colon() + setup, Facts: facts}
}

// RuleRow is one rule of thumb against the estimate: Bad when following
// the rule would risk an OOM (more than 10% short) or rent a much larger
// GPU than needed (25% over).
type RuleRow struct {
	Rule, Label, Says, Estimate, OffBy string
	Bad                                bool
}

// RulesView compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU.
type RulesView struct{ Rows []RuleRow }

func (b *viewBuilder) rules() RulesView {
	var v RulesView
	for _, r := range b.in.R.Rules {
		e := r.Error()
		v.Rows = append(v.Rows, RuleRow{
			Rule: r.Rule.String(), Label: b.t(ruleLabels[r.Rule]), Says: b.l.Bytes(r.Bytes), Estimate: b.l.Bytes(r.Estimate),
			OffBy: b.l.SignedPercent(e), Bad: e < -0.1 || e > 0.25,
		})
	}
	return v
}

// FitRow is one GPU of the fit table, formatted.
type FitRow struct {
	GPU, Name, VRAM, Verdict, Need, Split, From, Cost, Where string
	Fits, Selected, Cheapest                                 bool
	Plan                                                     Plan
	Offer                                                    string // the planner's row the cost is (for the comparison)
	Cmp                                                      int    // its "+ Compare" button (CompareState)
}

// FitView is the fit table: every GPU with the job's verdict on it, or
// its first rows (fitShown); More is how many "Show all" would add.
type FitView struct {
	Rows       []FitRow
	More       int
	CostHeader string
	// Sort is the sort field's text, SortErr its problem ("" when none).
	Sort, SortErr string
}

func (b *viewBuilder) fit() FitView {
	in := &b.in
	if len(in.R.Fit) == 0 {
		return FitView{}
	}
	rows, more := b.fitRows()
	v := FitView{Rows: rows, More: more, CostHeader: in.Plan.PlanCostHeader(b.l) + " · " + b.t(PricingKeys[in.Job.Pricing]), Sort: in.State[FieldSort]}
	if !in.Errs[FieldSort].OK() {
		v.SortErr = b.l.ErrText(in.Errs[FieldSort])
	}
	return v
}

// fitRows are the fit table's rows, formatted, in the table's order (by
// memory, or by the planner's cost when the job sorts by cost), cut to
// the best FitShown unless the state shows the table whole; more is how
// many rows "Show all" would add.
func (b *viewBuilder) fitRows() (_ []FitRow, more int) {
	l, in := b.l, &b.in
	out := &in.Plan
	cheapestGPU := ""
	for _, p := range out.Picks {
		if p.Kind == PickCheapest {
			cheapestGPU = p.Offer.GPU
		}
	}
	rows := make([]FitRow, len(in.R.Fit))
	costs := make([]float64, len(in.R.Fit))
	passed := make([]bool, len(in.R.Fit))
	for i, f := range in.R.Fit {
		v := FitRow{
			GPU: f.GPU.ID, Name: f.GPU.Name, VRAM: in.Prices.GPUVRAM(l, f.GPU.ID), Fits: f.Fits,
			Selected: f.GPU.ID == in.Job.GPU.ID, Need: b.t(MsgNone), From: b.t(MsgNone), Cost: b.t(MsgNone),
			Plan: f.Plan,
		}
		if f.Fits {
			v.Verdict = "✓ " + b.t(MsgFits) + " · " + l.Bytes(f.Headroom)
		} else {
			v.Verdict = "✗ " + b.t(MsgDoesNotFit)
		}
		// The rows are estimated without the user's --usable-vram
		// (fitResults), so a GDDR GPU with ECC on fits in its own figure.
		v.Verdict += UsableECC(l, f.GPU.ECCVisible(), f.GPU.UsableBytes())
		if f.Found {
			v.Need, v.Split = l.Count(int64(f.Plan.GPUs)), SplitText(f.Plan)
		} else {
			v.Need = "> " + l.Count(MaxGPUsSearched)
		}
		if f.From.PerGPUHour > 0 {
			// The listing's price in the page's currency, as the cost
			// beside it (at the catalog's dated rate).
			v.From = l.Money(f.From.In(in.Prices.Cat, in.Job.Currency)) + "/" + b.t(MsgGPUHour)
		}
		// The cost is the planner's best row on this GPU, and a click
		// applies that whole plan (count, split), as a pick does.
		// While the planner works on a change, the last answer stays, greyed
		// by the page's rs-plan-pending class like the recommendation it
		// agrees with: rewriting every cost twice per keystroke is most of
		// an input change's DOM work.
		if x, ok := out.Best(f.GPU.ID); ok {
			v.Cost, v.Plan = out.Cells(l, in.Job, x).Cost, x.Plan
			v.Offer, v.Cmp = x.Offer.ID, CompareState(in.Compare, x.Offer.ID)
			v.Where = b.l.Count(int64(x.Plan.GPUs)) + "× · " + in.Prices.ProviderName(x.Offer.Provider) + " " + x.Offer.Name() + InstancesOf(b.l, x.Instances, x.Rented)
			v.Cheapest = f.GPU.ID == cheapestGPU
			costs[i], passed[i] = x.Cost, x.PassedOver
			if x.PassedOver {
				// Every plan of this GPU rests on a price the picks pass
				// over: the row says why, as the offers table does.
				v.Where += " · " + passedOverLabel(b.l, out.Rows[x.Row].PassedOver.Key, x.Offer.AsOf)
			}
			// The planner's plans hold the job too: where the memory
			// search stopped at MaxGPUsSearched, or one of the planner's
			// layouts (ZeRO, TP, PP) needs fewer GPUs than the job's own
			// settings, the row says the planner's fewest and that
			// layout, never "> 64" next to a priced plan, nor a 46-stage
			// pipeline where 16 GPUs under ZeRO-3 hold the job.
			if y, _ := out.Fewest(f.GPU.ID); !f.Found || y.Plan.GPUs < f.Plan.GPUs {
				v.Need, v.Split = l.Count(int64(y.Plan.GPUs)), SplitText(y.Plan)
			}
		}
		rows[i] = v
	}
	// byCost: the cheapest plan first; plans the picks pass over (stale
	// prices) after those they may rest on; GPUs without a plan last.
	byCost := func(a, b int) int {
		if passed[a] != passed[b] {
			if passed[a] {
				return 1
			}
			return -1
		}
		return cmp.Compare(PriceKey(costs[a]), PriceKey(costs[b]))
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	if in.Job.Sort == SortCost {
		// The cheapest pick's GPU leads; GPUs without a plan keep memory
		// order after the others.
		slices.SortStableFunc(order, byCost)
	}
	if !in.State.ShowsAll(SecFit) && len(rows) > FitShown {
		order = bestFit(rows, order, byCost)
	}
	shown := make([]FitRow, len(order))
	for i, k := range order {
		shown[i] = rows[k]
	}
	return shown, len(rows) - len(shown)
}

// FitShown is how many rows the fit table shows before "Show all": the
// catalog's 57 GPUs made it about 10,000 px tall on a 360 px phone.
const FitShown = 12

// bestFit is order (the table's, of rows) cut to the FitShown best rows,
// in the table's order: the GPUs the job fits with the user's own setup,
// then those it needs more GPUs on, each the cheapest plan first (byCost);
// and the selected GPU's row wherever it ranks, so the table always shows
// the GPU the page is sized on.
func bestFit(rows []FitRow, order []int, byCost func(a, b int) int) []int {
	best := slices.Clone(order)
	slices.SortStableFunc(best, func(a, b int) int {
		if rows[a].Fits != rows[b].Fits {
			if rows[a].Fits {
				return -1
			}
			return 1
		}
		return byCost(a, b)
	})
	keep := make([]bool, len(rows))
	for _, k := range best[:FitShown] {
		keep[k] = true
	}
	return slices.DeleteFunc(order, func(k int) bool { return !keep[k] && !rows[k].Selected })
}

// OfferRow is one offer, formatted.
type OfferRow struct {
	ID, GPU, Provider, Instance, GPUs, OnDemand, Spot, Reserved, Cost, Time, Where, Region, AsOf, Source string
	Verify, Caveat                                                                                       string // the price's warnings (PriceLabels); Verify without the month the row shows
	Estimated, Own                                                                                       bool
	Floor                                                                                                bool // an estimated date that is the earliest the price can be from (catalog.Offer.AsOfLowerBound)
	Age                                                                                                  int  // catalog.AgeGrade + 1; 0: no clock (the prerendered page)
	Plan                                                                                                 Plan
	Cmp                                                                                                  int // its "+ Compare" button (CompareState); -1: none (no plan)
}

// OffersView is the selected GPU's offers: those the planner priced
// first, cheapest first; More is how many "show all" would add.
type OffersView struct {
	Title                  string
	Rows                   []OfferRow
	More                   int
	CostHeader, TimeHeader string
}

func (b *viewBuilder) offers() OffersView {
	in := &b.in
	rows, more := b.offerRows()
	return OffersView{
		Title: b.t(MsgOffers) + " · " + in.Job.GPU.Name, Rows: rows, More: more,
		CostHeader: in.Plan.PlanCostHeader(b.l) + " · " + b.t(PricingKeys[in.Job.Pricing]),
		TimeHeader: in.Plan.PlanTimeHeader(b.l),
	}
}

// offerRows are the offers table's rows, formatted, and how many more
// "Show all" would list.
func (b *viewBuilder) offerRows() (rows []OfferRow, more int) {
	l, in := b.l, &b.in
	out := &in.Plan
	// The planner's row prices each offer; offers it priced come first,
	// cheapest first, then the rest in catalog order (USD, price per GPU-hour).
	offers := make([]OfferResult, 0, len(in.R.Offers))
	for _, o := range in.R.Offers {
		if _, planned := out.ByOffer[o.Offer.ID]; o.Holds || planned {
			offers = append(offers, o)
		}
	}
	cost := func(o OfferResult) float64 {
		if i, ok := out.ByOffer[o.Offer.ID]; ok {
			return out.Cands[i].Cost
		}
		return 0
	}
	estimator.SortStable(offers, func(a, b *OfferResult) int { return cmp.Compare(PriceKey(cost(*a)), PriceKey(cost(*b))) })
	if !in.State.ShowsAll(SecOffers) && len(offers) > OffersShown {
		more = len(offers) - OffersShown
		offers = offers[:OffersShown]
	}
	rows = make([]OfferRow, len(offers))
	for i, o := range offers {
		rows[i] = OfferRow{
			ID: o.Offer.ID, GPU: o.Offer.GPU, Plan: o.Plan,
			Provider: o.Provider, Instance: in.Prices.InstanceName(*o.Offer),
			GPUs:     strconv.FormatFloat(o.Offer.GPUCount, 'f', -1, 64) + "×",
			OnDemand: l.Money(o.Offer.OnDemandPerHour, o.Offer.Currency), Spot: l.Money(o.Offer.SpotPerHour, o.Offer.Currency),
			Reserved: ReservedText(l, o.Offer.Reserved1yPerHour, o.Offer.Reserved3yPerHour, o.Offer.Currency),
			Cost:     b.t(MsgNone), Time: b.t(MsgNone), AsOf: l.Date(o.Offer.AsOf), Source: SourceText(o.Offer.Source),
			Estimated: o.Offer.AsOfEstimated, Floor: o.Offer.AsOfLowerBound, Own: o.Own, Cmp: -1,
		}
		if x, ok := out.Row(o.Offer.ID); ok {
			cells := out.Cells(l, in.Job, x)
			rows[i].Cost, rows[i].Plan, rows[i].Time, rows[i].AsOf = cells.Cost, x.Plan, cells.Time, cells.AsOf
			rows[i].Cmp = CompareState(in.Compare, o.Offer.ID)
			rows[i].Where = SplitText(x.Plan) + InstancesOf(b.l, x.Instances, x.Rented)
			if x.CommShare > 0 {
				rows[i].Where += " · " + strings.Replace(b.t(MsgCommShare), "%s", l.SmallPercent(x.CommShare), 1)
			}
		}
		b.flagOffer(&rows[i], o.Offer)
		if len(o.Offer.Regions) > 0 {
			rows[i].Region = o.Offer.Regions[0]
		}
	}
	return rows, more
}

// ReservedText shows the effective hourly rates of 1- and 3-year
// commitments, or "—" when the catalog has none for the offer.
func ReservedText(l Locale, r1, r3 float64, cur string) string {
	// A rate and its term hold together (no-break spaces): the cell may
	// wrap after the first term's " ·", never inside "$40.45 1y" or "1 г.".
	term := func(v float64, k MsgKey) string {
		return l.Money(v, cur) + "\u00a0" + strings.ReplaceAll(l.T(k), " ", "\u00a0")
	}
	var parts []string
	if r1 > 0 {
		parts = append(parts, term(r1, MsgYear1))
	}
	if r3 > 0 {
		parts = append(parts, term(r3, MsgYear3))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "\u00a0· ")
}

// flagOffer grades an offers-table row's price on the page's clock and
// labels it as a pick card is labelled: "verify" when older than the
// freshness window, undated or estimated, far below the median (the
// planner's flag, on the offers it planned) or left open by its source.
func (b *viewBuilder) flagOffer(r *OfferRow, o *catalog.Offer) {
	in := &b.in
	days := in.Job.FreshnessDays
	if days <= 0 {
		days = catalog.DefaultFreshnessDays
	}
	if o.UserPrice {
		// The user's own price: dated as given, never graded or flagged.
		if o.AsOf == "" {
			r.AsOf = b.t(MsgOwnUndated)
		}
		return
	}
	po := planner.Offer{AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, AsOfLowerBound: o.AsOfLowerBound, PriceAgeDays: -1, ToVerify: o.PriceToVerify()}
	if !in.Now.IsZero() {
		po.PriceAgeDays = o.PriceAgeDays(in.Now)
		r.Age = int(catalog.GradeAge(po.PriceAgeDays)) + 1
	}
	if k, ok := in.Plan.ByOffer[o.ID]; ok {
		po.FarBelowMedian = in.Plan.Cands[k].Offer.FarBelowMedian
	}
	p := PriceLabelsOf(b.l, &po, !o.FreshWithin(in.Now, days), !in.Now.IsZero())
	r.Verify, r.Caveat = p.Verify, p.Caveat
	// The row's cell shows the date above its warnings: the warning does
	// not say the month again ("2025-10-01 · price from 2025-10 —
	// verify"), and a caveat, which ends in "verify", says it once.
	switch {
	case r.Caveat != "":
		r.Verify = ""
	case r.Verify != "":
		r.Verify = b.t(MsgVerifyDated)
	}
}

// passedOverLabel says why the picks pass over a price, by the planner's
// reason (planner.Row.PassedOver): its source leaves it open or quotes a
// floor, it is far below the other providers', or it is old, undated or
// of an estimated date ("price from 2025-10 — verify").
func passedOverLabel(l Locale, key planner.Msg, asOf string) string {
	switch key {
	case planner.MsgReasonToVerify, planner.MsgReasonToVerifyElsewhere:
		return l.T(MsgSourceOpen)
	case planner.MsgReasonSpotFarBelow:
		return l.T(MsgSpotFarBelow)
	case planner.MsgReasonFarBelow, planner.MsgReasonFarBelowElsewhere:
		return l.T(MsgFarBelow)
	}
	return verifyFrom(l, asOf)
}

// verifyFrom is the staleness warning of a price dated asOf: "price from
// 2025-10 — verify", or "verify the price" when undated (its date line
// says undated).
func verifyFrom(l Locale, asOf string) string {
	month := l.Month(asOf)
	if month == "" {
		return l.T(MsgVerifyDated)
	}
	return Fill(l.T(MsgVerifyPrice), month)
}

// GradeKeys and GradeClass label and colour a catalog.AgeGrade.
var (
	GradeKeys  = [...]MsgKey{catalog.AgeFresh: MsgAgeFresh, catalog.AgeAging: MsgAgeAging, catalog.AgeStale: MsgAge180to365, catalog.AgeOld: MsgAgeOld, catalog.AgeUndated: MsgAgeUndated}
	GradeClass = [...]string{catalog.AgeFresh: "rs-age-fresh", catalog.AgeAging: "rs-age-aging", catalog.AgeStale: "rs-age-old", catalog.AgeOld: "rs-age-old", catalog.AgeUndated: "rs-age-old"}
)

// PriceLabels are a price's date line and its warnings, formatted.
type PriceLabels struct {
	Date   string // "Price as of 2026-07-30 (estimated date)"
	Age    string // the age grade ("under 90 days old"); "" without a clock
	Class  string // the age grade's colour; "" without a clock
	Source string
	Verify string // "price from 2025-10 — verify" when stale or estimated
	Caveat string // under half the other providers' median, or a price its source leaves open
	From   string // a marketplace's "from" price
}

// AsOf is the date line with its age grade: "Price as of 2026-07-30
// (estimated date) · under 90 days old".
func (p PriceLabels) AsOf() string {
	if p.Age == "" {
		return p.Date
	}
	return p.Date + " · " + p.Age
}

// datedText is a price's date as the page writes it: "≥ date" where an
// estimated date is the earliest the price can be from
// (catalog.Offer.AsOfLowerBound), as the CLI's table writes it; an
// estimate said as one; else the date. The pick cards and the offers
// table both write it so.
func datedText(t func(MsgKey) string, date string, estimated, floor bool) string {
	switch {
	case estimated && floor:
		return "≥" + date
	case estimated:
		return date + " (" + t(MsgEstimatedDate) + ")"
	}
	return date
}

// PriceLabelsOf labels offer o's price; stale is the planner's verdict
// (Row.Stale), read only when the page has a clock: the prerendered page
// grades nothing, but an estimated date is always said. The user's own
// price (Offer.UserPrice) is dated as given and never graded or flagged:
// the planner never judges it stale, far below the market or a
// marketplace's "from" price.
func PriceLabelsOf(l Locale, o *planner.Offer, stale, clock bool) PriceLabels {
	p := PriceLabels{Date: Fill(l.T(MsgPriceAsOf), datedText(l.T, l.Date(o.AsOf), o.AsOfEstimated, o.AsOfLowerBound)), Source: SourceText(o.Source)}
	if o.UserPrice {
		if o.AsOf == "" {
			p.Date = l.T(MsgOwnUndated)
		}
		return p
	}
	if o.AsOf == "" {
		p.Date = l.T(MsgAgeUndated)
	}
	if clock {
		g := catalog.GradeAge(o.PriceAgeDays)
		p.Class = GradeClass[g]
		if g != catalog.AgeUndated {
			p.Age = l.T(GradeKeys[g])
		}
	} else {
		stale = false
	}
	if stale || o.AsOfGuessed() || o.AsOf == "" {
		p.Verify = verifyFrom(l, o.AsOf)
	}
	switch {
	case o.FarBelowMedian:
		p.Caveat = l.T(MsgFarBelow)
	case o.ToVerify:
		p.Caveat = l.T(MsgSourceOpen)
	}
	if o.ProviderKind == catalog.KindMarketplace {
		p.From = l.T(MsgFromListing)
	}
	return p
}

// ErrText is a field problem in the page's language (Locale.ErrText, in
// GiB).
func ErrText(lang string, e FieldErr) string { return Locale{Lang: lang}.ErrText(e) }

// ErrText is a field problem in l's language: the message, the value that
// did not read, the range a value out of range should lie in (in l's
// numbers: "от 1 до 16 777 216"), and else the estimator's reason on the
// English page (its reasons are English prose; the message carries the
// meaning). Config errors name the JSON field, which reads the same
// everywhere.
func (l Locale) ErrText(e FieldErr) string {
	if e.Key == MsgBatchShort {
		return l.batchShortText(e)
	}
	if e.Key == MsgRegionUnlisted || e.Key == MsgRegionUnlistedAny {
		return l.regionUnlistedText(e)
	}
	if e.Key == MsgOverContextYaRN {
		count := func(s string) string {
			n, _ := strconv.ParseInt(s, 10, 64)
			return l.Count(n)
		}
		n, ctx, scaled := count(e.Value), count(e.Args[0]), count(e.Args[1])
		// max_position_embeddings is a config.json value: digits only.
		return Fill(l.T(e.Key), n, ctx, scaled, spacedJSON(e.Args[2]), e.Args[1], ctx)
	}
	s := l.T(e.Key)
	if e.Value != "" && (e.Key == MsgUnknownChoice || e.Key == MsgNotNumber || e.Key == MsgNotSize || e.Key == MsgNotCount) {
		s += l.Colon() + l.Quote(e.Value)
	}
	switch {
	case e.Key == MsgRange && e.Range.Set():
		s += l.Colon() + l.RangeText(e.Range)
	case e.Detail != "" && (l.Lang == "en" || e.Key == MsgBadConfig):
		s += l.Colon() + e.Detail
	}
	return s
}

// RangeText writes the values r accepts in l's numbers and r's unit:
// "1 to 16,777,216", "от 1 до 16 777 216", "1 至 16,777,216"; a bound left
// open or missing as a sign: "> 0", "≥ 0", "> 0, ≤ 1".
func (l Locale) RangeText(r estimator.Range) string {
	num := func(v float64) string {
		switch r.Unit {
		case estimator.RangeBytes:
			return l.Bytes(estimator.Bytes(v))
		case estimator.RangeSeconds:
			if v < 120 {
				return l.Given(v) + " " + l.T(MsgSec)
			}
			return l.Duration(v)
		}
		return l.Given(v)
	}
	if r.HasMin && r.HasMax && !r.MinOpen && !r.MaxOpen {
		return Fill(l.T(MsgRangeFromTo), num(r.Min), num(r.Max))
	}
	var s string
	if r.HasMin {
		s = "≥ "
		if r.MinOpen {
			s = "> "
		}
		s += num(r.Min)
	}
	if r.HasMax {
		if s != "" {
			s += ", "
		}
		op := "≤ "
		if r.MaxOpen {
			op = "< "
		}
		s += op + num(r.Max)
	}
	return s
}

// AnswerKind is which form the answer takes.
type AnswerKind int

const (
	AnswerPicks      AnswerKind = iota // the plan's picks, chart and notes
	AnswerStalePicks                   // a field does not read: the last picks stay, greyed
	AnswerStale                        // a field does not read and there is no last answer
	AnswerPlanning                     // the first plan for the job is on its way
	AnswerNone                         // nothing fits: why, and what would without a filter
)

// PickView is one recommendation, formatted.
type PickView struct {
	Kind, Title, What, Where, Cost, Time, Reason string
	// Roles are the picks the card shows, space-separated ("cheapest
	// value"): picks naming one plan share a card (PickCards), whose Kind
	// is the first and whose Reason holds each role's sentence, one a
	// line.
	Roles string
	Notes string // the row's own planner notes (VAT, spot spare), joined
	GPU   string
	Plan  Plan
	Price PriceLabels // the price's date, source, age and warnings
}

// Point is one plan on the cost-vs-time chart, in chart coordinates.
type Point struct {
	ID, GPU, Label string
	X, Y           int
	Front, Picked  bool
	Plan           Plan
}

// ChartView is the cost-vs-time chart: the points on log axes and the
// axes' names with their ranges.
type ChartView struct {
	Points                []Point
	Title, XLabel, YLabel string
}

// The chart's geometry (SVG user units).
const (
	ChartW, ChartH       = 900, 280
	ChartLeft, ChartBot  = 16, 12
	ChartTop, ChartRight = 12, 12
)

// AnswerView is the answer: what to rent, why, and what it rests on.
type AnswerView struct {
	Kind                 AnswerKind
	Note                 string // under the job line: the answer's note, why nothing fits, or that it waits
	Widened              string // AnswerNone: the plan without the filter that emptied the answer
	FX                   string // the rate the answer's money was converted at ("" in USD)
	KindsNote            bool   // the default provider kinds are in force: say which
	Picks                []PickView
	CostLabel, TimeLabel string
	Flagged              string   // the cheaper plan the picks passed over for its price
	Notes                []string // what the planner assumed for the whole plan
	OwnUnfit             []string // the user's own offers that do not run the job, and why (PlanOut.OwnUnfitLines)
	Chart                ChartView
}

var pickTitles = [...]MsgKey{PickCheapest: MsgPickCheapest, PickFastest: MsgPickFastest, PickValue: MsgPickValue}

// pickTitle is p's card title: "Faster" for a faster alternative that is
// not the quickest plan (Pick.Bounded), else its kind's.
func pickTitle(p Pick) MsgKey {
	if p.Bounded {
		return MsgPickFaster
	}
	return pickTitles[p.Kind]
}

// planRangeErrs is in.Errs with the planner's refusal of a shown field's
// value marked on that field (estimator.ErrRange: a request longer than
// the model's context, which the planner checks and the speed estimate
// does not), as the estimator's refusals are, so the answer says to fix
// the marked field where it said no offer could run the job. Refusals of
// the model itself keep their own answer (generatesNoTokens).
func planRangeErrs(in ViewIn) [NFields]FieldErr {
	errs := in.Errs
	if in.Plan.OK || in.Plan.Err == nil {
		return errs
	}
	var ranged []error
	var walk func(error)
	walk = func(e error) {
		if u, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range u.Unwrap() {
				walk(x)
			}
			return
		}
		if errors.Is(e, estimator.ErrRange) {
			ranged = append(ranged, e)
		}
	}
	walk(in.Plan.Err)
	if len(ranged) == 0 {
		return errs
	}
	var general []FieldErr // not a shown field's: answer() says why
	PlaceErrors(errors.Join(ranged...), &in.State, &errs, &general)
	// A request the model's card admits with YaRN says so in the page's
	// language and words.
	if e := errs[FieldSeq]; e != in.Errs[FieldSeq] && e.Key == MsgRange {
		if n, err := strconv.Atoi(e.Value); err == nil {
			if y, ok := overContextErr(in.Job.In.Arch, n); ok {
				errs[FieldSeq] = y
			}
		}
	}
	return errs
}

// hasErrors reports whether a field or the job as a whole has a problem.
func (in *ViewIn) hasErrors() bool {
	for _, e := range in.Errs {
		if !e.OK() {
			return true
		}
	}
	for _, e := range in.General {
		if !e.OK() {
			return true
		}
	}
	return false
}

func (b *viewBuilder) answer() AnswerView {
	in, out := &b.in, &b.in.Plan
	v := AnswerView{Kind: AnswerPicks, Note: b.t(MsgAnswerNote)}
	switch {
	case !in.R.OK && (!out.OK || len(out.Picks) == 0):
		// No last answer to keep: say what brings one.
		return AnswerView{Kind: AnswerStale, Note: b.t(MsgFixToAnswer)}
	case !in.R.OK:
		v.Kind, v.Note = AnswerStalePicks, b.t(MsgFixToUpdate)
	case !out.OK && in.Pending:
		return AnswerView{Kind: AnswerPlanning, Note: b.t(MsgPlanning)}
	case !out.OK && out.Err != nil:
		// The planner refused the job's figures (the estimator's check of
		// a field it reads, which the speed estimate placed next to the
		// field): nothing was planned to say none fits, and NoneWhy's
		// zero key wrote the page's tagline here.
		switch {
		case in.hasErrors():
			return AnswerView{Kind: AnswerStale, Note: b.t(MsgFixToAnswer)}
		case generatesNoTokens(in.Job):
			// The planner refuses such a model outright, with no
			// field of the page to mark.
			return AnswerView{Kind: AnswerNone, Note: b.t(MsgNoAnswerNoTokens)}
		case servesGGUF(in.Job):
			// So it refuses a GGUF format served at a rate.
			return AnswerView{Kind: AnswerNone, Note: b.t(MsgNoAnswerGGUF)}
		}
		return AnswerView{Kind: AnswerNone, Note: b.t(MsgNoAnswer)}
	case len(out.Picks) == 0:
		note := b.t(out.NoneWhy)
		if out.HasCause {
			note = out.Cause.NoteWith(b.l, in.Prices.ProviderName)
		}
		if s := out.RunLengthLine(b.l, Names{GPU: in.Prices.GPUName, Provider: in.Prices.ProviderName}); s != "" {
			note += " " + s
		}
		return AnswerView{Kind: AnswerNone, Note: note,
			Widened:  out.WidenedLine(b.l, Names{GPU: in.Prices.GPUName, Provider: in.Prices.ProviderName}),
			OwnUnfit: out.OwnUnfitLines(b.l, in.Prices.ProviderName)}
	}
	v.OwnUnfit = out.OwnUnfitLines(b.l, in.Prices.ProviderName)
	v.FX = FXLine(b.l, in.Prices.Cat, out.Currency)
	v.KindsNote = in.State[FieldProviderKind] == ""
	v.Picks = b.picks()
	v.CostLabel, v.TimeLabel = out.PlanCostHeader(b.l), out.PlanTimeHeader(b.l)
	v.Flagged = out.FlaggedLine(b.l, in.Prices.ProviderName)
	for _, n := range out.Notes {
		v.Notes = append(v.Notes, b.l.ReasonWith(n, in.Prices.ProviderName))
	}
	if s := out.RunLengthLine(b.l, Names{GPU: in.Prices.GPUName, Provider: in.Prices.ProviderName}); s != "" {
		v.Notes = append(v.Notes, s)
	}
	v.Chart = b.chart()
	return v
}

// EngineText is " · vLLM" after a plan of an inference job, "" for training.
func (o *PlanOut) EngineText(x Candidate) string {
	if o.Kind == planner.Training {
		return ""
	}
	return " · " + x.Engine.Label()
}

// kindText is " (broker)" after a provider's name, " (your price)" on
// the user's own price; ", broker" after a name in brackets of its own
// ("Verda (formerly DataCrunch), broker"). Hyperscalers and GPU clouds,
// where every plan rents unless the filters say otherwise (the line
// above the cards says so), take none: on a phone it was a card's third
// line.
func kindText(l Locale, name string, o *planner.Offer) string {
	switch {
	case o.UserPrice:
		return l.Aside(name, l.T(MsgOwnPriceMark))
	case o.ProviderKind == catalog.KindHyperscaler || o.ProviderKind == catalog.KindGPUCloud:
		return ""
	}
	return l.Aside(name, l.KindLabel(o.ProviderKind))
}

// Picks that name one plan (the same offer, instances, layout and price
// model) are one card: its title names each role ("Cheapest · Fastest"),
// its data-kind the first, and its reason keeps each role's why. Three
// identical cards said the same thing three times and pushed the rest of
// the page one and a half screens down on a phone; the CLI's table keeps
// a row per role. A best value that is the faster alternative's plan says
// nothing its card does not: its sentence ("the faster alternative is
// also the best value, 1.72× the cheapest plan's cost for 9.30× its
// speed") repeats the faster one's ratios, and the title already says
// "Best value", so the card keeps the faster sentence alone
// (sameAsFaster); the CLI prints it once, as its "best value:" line.
func (b *viewBuilder) picks() []PickView {
	l, in, out := b.l, &b.in, &b.in.Plan
	names := in.Prices.ProviderName
	card, n := PickCards(out.Picks)
	views := make([]PickView, n)
	for x, p := range out.Picks {
		i := card[x]
		if views[i].Kind != "" {
			v := &views[i]
			v.Title += " · " + b.t(pickTitle(p))
			v.Roles += " " + p.Kind.String()
			if !sameAsFaster(p) {
				v.Reason += "\n" + l.ReasonWith(p.Why, names)
			}
			continue
		}
		provider := names(p.Offer.Provider)
		views[i] = PickView{
			Kind: p.Kind.String(), Roles: p.Kind.String(), Title: b.t(pickTitle(p)),
			What: l.Count(int64(p.Plan.GPUs)) + " × " + GPULabel(in.Prices.GPUName(p.Offer.GPU), p.Plan),
			Where: provider + kindText(l, provider, p.Offer) + " · " + p.Offer.Name() + InstancesOf(l, p.Instances, p.Rented) +
				" · " + b.t(PricingKeys[p.Pricing]) + out.EngineText(p.Candidate),
			Cost:   l.Money(p.Cost, out.Currency),
			Time:   l.Duration(p.Seconds),
			Reason: l.ReasonWith(p.Why, names),
			GPU:    p.Offer.GPU, Plan: p.Plan,
			Price: PriceLabelsOf(l, p.Offer, p.Stale, !in.Now.IsZero()),
		}
		notes := make([]string, len(p.Notes))
		for k, n := range p.Notes {
			notes[k] = l.ReasonWith(n, names)
		}
		views[i].Notes = strings.Join(notes, " · ")
	}
	return views
}

// sameAsFaster reports whether p is the best value whose plan is the
// faster (or fastest) pick's, its sentence those ratios again
// (planner.MsgReasonValueIsFaster, MsgReasonValueIsFastest).
func sameAsFaster(p Pick) bool {
	return p.Kind == PickValue && (p.Why.Key == planner.MsgReasonValueIsFaster || p.Why.Key == planner.MsgReasonValueIsFastest)
}

// PickCards is, for each of picks, the index of the card that shows it,
// and the number of cards: picks that name one plan (the same offer,
// instances, layout and price model) share the card of the first.
func PickCards(picks []Pick) (card []int, n int) {
	type planKey struct {
		offer     string
		instances int
		plan      Plan
		pricing   planner.Pricing
	}
	seen := map[planKey]int{}
	card = make([]int, len(picks))
	for x, p := range picks {
		k := planKey{p.Offer.ID, p.Instances, p.Plan, p.Pricing}
		i, ok := seen[k]
		if !ok {
			i = n
			seen[k] = i
			n++
		}
		card[x] = i
	}
	return card, n
}

// chart places the candidates on log axes: cost (x) and time (y); none
// for fewer than two, where axes from one value to itself say nothing the
// picks above do not.
func (b *viewBuilder) chart() ChartView {
	l, in, out := b.l, &b.in, &b.in.Plan
	pts := out.Points
	if len(pts) < 2 {
		return ChartView{}
	}
	minC, maxC, minT, maxT := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, p := range pts {
		minC, maxC = math.Min(minC, p.Cost), math.Max(maxC, p.Cost)
		minT, maxT = math.Min(minT, p.Seconds), math.Max(maxT, p.Seconds)
	}
	scale := func(v, lo, hi float64, size int) int {
		if hi <= lo {
			return size / 2
		}
		return int(math.Round((math.Log(v) - math.Log(lo)) / (math.Log(hi) - math.Log(lo)) * float64(size)))
	}
	w, h := ChartW-ChartLeft-ChartRight, ChartH-ChartTop-ChartBot
	picked := map[string]bool{}
	for _, p := range out.Picks {
		picked[p.Offer.ID] = true
	}
	views := make([]Point, len(pts))
	for i, p := range pts {
		views[i] = Point{
			ID: p.Offer.ID, GPU: p.Offer.GPU, Plan: p.Plan, Front: p.Front, Picked: picked[p.Offer.ID],
			X: ChartLeft + scale(p.Cost, minC, maxC, w),
			Y: ChartTop + h - scale(p.Seconds, minT, maxT, h),
			Label: l.Count(int64(p.Plan.GPUs)) + " × " + in.Prices.GPUName(p.Offer.GPU) + " · " + in.Prices.ProviderName(p.Offer.Provider) + " " +
				p.Offer.Name() + InstancesOf(l, p.Instances, p.Rented) + " · " + l.Money(p.Cost, out.Currency) + " · " + l.Duration(p.Seconds),
		}
	}
	return ChartView{
		Points: views, Title: b.t(MsgParetoTitle),
		XLabel: out.PlanCostHeader(l) + " (" + l.Money(minC, out.Currency) + " … " + l.Money(maxC, out.Currency) + ")",
		YLabel: out.PlanTimeHeader(l) + " (" + l.Duration(minT) + " … " + l.Duration(maxT) + ")",
	}
}

// LayoutWhy words why the pre-training layout the user left open is the
// one chosen: the layouts tried first and the memory each needs, then the
// one that fits (the CLI's note, layoutNotes in cmd/rightsize, in the
// page's language). Empty when the first default fit or nothing was
// chosen.
func LayoutWhy(l Locale, lay estimator.TrainLayout) string {
	if len(lay.Tried) == 0 || !lay.Fits {
		return ""
	}
	name := func(z, v int) string {
		var s []string
		if lay.ZeROChosen {
			s = append(s, fmt.Sprintf("ZeRO-%d", z))
		}
		if lay.ScheduleChosen {
			if v <= 1 {
				s = append(s, l.T(MsgSchedPlain))
			} else {
				s = append(s, fmt.Sprintf(l.T(MsgSchedInterleaved), v))
			}
		}
		return strings.Join(s, ", ")
	}
	tried := make([]string, len(lay.Tried))
	for i, t := range lay.Tried {
		tried[i] = fmt.Sprintf(l.T(MsgLayoutNeeds), name(t.ZeRO, t.VirtualStages), l.Bytes(t.Peak), l.Bytes(lay.Usable))
	}
	return fmt.Sprintf(l.T(MsgLayoutWhy), name(lay.ZeRO, lay.VirtualStages), l.Bytes(lay.Peak), strings.Join(tried, "; "))
}
