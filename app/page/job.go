package page

// The page state (raw text of every field, ViewState) parses into a job:
// typed estimator input plus the page's own choices. Parsing is pure (no
// go-app, no browser): every problem is a fieldErr carrying a message key,
// translated only when rendered.

import (
	"errors"
	"strconv"
	"strings"

	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// SortOrder is the fit table's order.
type SortOrder int

const (
	SortVRAM SortOrder = iota // smallest memory first
	SortCost                  // cheapest job first
)

var sortNames = [...]string{SortVRAM: "vram", SortCost: "cost"}

func (o SortOrder) String() string { return sortNames[o] }

func parseSort(s string) (SortOrder, error) {
	return parseName[SortOrder](sortNames[:], s, errUnknownValue)
}

// Unit is how memory is shown: GiB (binary, what nvidia-smi and the CUDA
// allocator report) or GB (decimal, datasheets).
type Unit int

const (
	UnitGiB Unit = iota
	UnitGB
)

var unitNames = [...]string{UnitGiB: "GiB", UnitGB: "GB"}

func (u Unit) String() string { return unitNames[u] }

func parseUnit(s string) (Unit, error) { return parseName[Unit](unitNames[:], s, errUnknownValue) }

var errUnknownValue = errors.New("unknown value")

func parseName[T ~int](names []string, s string, err error) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, err
}

// FieldErr is a problem with one field: a message key, the offending text
// and an optional detail in the estimator's words (a config field name).
type FieldErr struct {
	Key    MsgKey
	Value  string
	Detail string
	// Range is what a MsgRange field accepts (zero: not said), which the
	// page says in its language (Locale.RangeText) for the English Detail.
	Range estimator.Range
	// Args fill a message that takes more than the value
	// (MsgOverContextYaRN: the config's context, the card's, its
	// rope_scaling).
	Args [3]string
}

func (e FieldErr) OK() bool { return e.Key == 0 && e.Value == "" && e.Detail == "" }

// overContextErr is a request of n tokens over a's context where the
// model's card reaches n with a RoPE scaling its config leaves out
// (estimator.Arch.ScaledContext): the planner's refusal, said in the
// page's words (its config field, not the CLI's --config). ok is false
// where the card does not reach n.
func overContextErr(a estimator.Arch, n int) (FieldErr, bool) {
	if n <= a.ServeContext() || n > a.ScaledContext {
		return FieldErr{}, false
	}
	return FieldErr{Key: MsgOverContextYaRN, Value: strconv.Itoa(n),
		Args: [3]string{strconv.Itoa(a.ServeContext()), strconv.Itoa(a.ScaledContext), a.ScaledRope}}, true
}

// Job is the page state as typed values: what compute needs.
type Job struct {
	In estimator.Input
	// ZeROAuto: the ZeRO field is on auto (the CLI without --zero), so
	// pre-training's stage and schedule are chosen to fit, at the user's
	// GPUs in In and per shape by the planner (planner.Request.ZeROOpen).
	ZeROAuto bool
	// EngineOpen: the engine field is on auto (the CLI without
	// --engine): In's engine is the one the planner runs the job on at
	// the job's GPU (planner.AutoEngine: vLLM for a decoder's batch, as
	// its launch), EngineWhy says why, and the planner chooses it per
	// offer (planner.Request.EngineOpen).
	EngineOpen bool
	EngineWhy  planner.Reason
	// Stack is what a fine-tune took from the stack its precision names
	// (ParseInput's InputJob.Stack: LitGPT's scripts for a Lightning
	// precision name); nil: none.
	Stack *StackDefaults
	// CheckpointingDefault: activation checkpointing is on as the QLoRA
	// stacks' default, the field not given (InputJob's).
	CheckpointingDefault bool
	// Layout is what ResolveTrainDefaults chose and why (the layouts
	// tried first); LayoutWhy words it.
	Layout estimator.TrainLayout
	Model  catalog.Model
	GPU    catalog.GPU
	Tokens float64 // training tokens of the job (training tasks)
	// Dataset and Epochs, when the dataset is given: Tokens = Epochs ×
	// Dataset (0: the training tokens are given directly).
	Dataset, Epochs float64
	Work            estimator.Workload // prompt/output split (inference)
	Sort            SortOrder
	Units           Unit
	// Serving: a request rate (0: not set) and latency targets in seconds.
	// TTFTByDefault: the TTFT field is empty, and the plan holds the
	// planner's default for the prompt (planner.Workload.TTFTByDefault).
	RPS, TTFT, TPOT float64
	TTFTByDefault   bool
	// SLOStat is the statistic over the requests TTFT and TPOT bound.
	SLOStat planner.SLOStat
	// Eff overrides the estimator's efficiencies (zero fields: its own).
	Eff estimator.Efficiency
	// The planner's question: requests of a batch job, price model,
	// currency and filters (budget in USD, deadline in seconds).
	Requests float64
	Pricing  planner.Pricing
	Currency string
	Filters  planner.Filters
	// Assumptions the planner prices with (zero: its defaults): spot
	// reclaims per month, checkpoint write rate (bytes/s), restart time
	// (seconds); and a hosted API the user prices (USD per 1M tokens) to
	// compare with self-hosting instead of the catalog's list prices
	// (nil: the catalog's).
	SpotRate, CkptWriteBytesPerSecond, RestartSeconds float64
	UnknownNetworks                                   bool // plans may span instances with no named network
	API                                               *planner.HostedAPI

	// FreshnessDays is the freshness window the picks rest on
	// (planner.Request.FreshnessDays), 1 to 36,500 days; 0: the default.
	FreshnessDays int

	// Cal is the link's calibration (the "Your benchmark" box), applied
	// (CalApplied) when it was fitted for the selected GPU and engine: its
	// request cost, and its efficiencies where the Assumptions box leaves
	// them empty. CalBad: the link's text does not read; it is ignored
	// rather than blocking the estimate.
	Cal        sim.Calibration
	CalApplied bool
	CalBad     bool

	// The daily fleet (planner.PlanFleet), asked for by a load curve or a
	// workload preset: Curve is the requests/s of each hour (a flat day at
	// RPS for a preset alone), Mix the preset's request-size classes (nil:
	// the job's own prompt and output), Own the owned-GPU alternative
	// (nil: not asked).
	Curve *planner.LoadCurve
	Mix   *planner.WorkloadMix
	Own   *planner.Owned

	// Host is the host CPU the speed box assumes (catalog.Node.Host: a
	// class or a CPU name; "": the GPU's usual host), as --host.
	Host string

	// Offer is the offer of the planner row the user applied
	// (FieldOffer), as the planner reads it (catalog.PlanOffer); nil:
	// none, and the job runs on the GPU in its usual box. In's memory is
	// one GPU's, or slice's, of it (planner.OnOffer), and Hardware times
	// the job on its instance.
	Offer *planner.Offer
}

// Hardware is the hardware j's speed is estimated on: one GPU (or slice)
// of the applied offer's instance as the planner times a row there
// (planner.OnOffer: its NVLink domain, its network per GPU, a slice's
// share of the compute), else the GPU in its usual box (the CLI's
// catalog.GPU.HardwareOn); the user's host (Job.Host) either way. ok is
// false where the catalog lacks the GPU's figures.
func (j Job) Hardware() (estimator.Hardware, bool) {
	if j.Offer == nil {
		return j.GPU.HardwareOn(j.In.Weights, catalog.Node{Host: j.Host})
	}
	_, hw := planner.OnOffer(j.In, j.Offer, PlanRequest(j).Assumptions)
	if c, err := catalog.ParseHost(j.Host); err == nil && j.Host != "" {
		hw.HostClass = c
	}
	return hw, j.Offer.HasHardware
}

// Archs memoizes parsed catalog model configs (the catalog is immutable).
type Archs map[string]archOrErr

type archOrErr struct {
	arch estimator.Arch
	err  error
}

func (a Archs) of(m catalog.Model) (estimator.Arch, error) {
	if x, ok := a[m.ID]; ok {
		return x.arch, x.err
	}
	arch, err := estimator.ParseConfig([]byte(m.Config))
	m.ScaleContext(&arch)
	a[m.ID] = archOrErr{arch, err}
	return arch, err
}

// parser turns one ViewState into a job; errs holds the per-field problems.
type parser struct {
	s      *ViewState
	cat    *catalog.Catalog
	archs  Archs
	custom *estimator.Arch // the user's config.json, or nil
	name   string          // its file name
	errs   [NFields]FieldErr
	gen    []FieldErr
}

func (p *parser) fail(f Field, k MsgKey) { p.errs[f] = FieldErr{Key: k, Value: p.s[f]} }

// ParseJob reads every field over estimator.DefaultInput of the model.
// ok is false when a field is wrong; errs says which and why.
// general lists the problems not tied to a shown field.
func ParseJob(s ViewState, cat *catalog.Catalog, a Archs, custom *estimator.Arch, customName string) (j Job, errs [NFields]FieldErr, general []FieldErr, ok bool) {
	p := &parser{s: &s, cat: cat, archs: a, custom: custom, name: customName}
	j, ok = p.parse()
	return j, p.errs, p.gen, ok
}

func (p *parser) parse() (Job, bool) {
	s := p.s
	var j Job
	var arch estimator.Arch
	if s[FieldModel] == CustomModelID {
		if p.custom == nil {
			p.fail(FieldModel, MsgNoCustomModel)
			return j, false
		}
		j.Model = catalog.Model{ID: CustomModelID, Name: p.name, ContextLength: p.custom.MaxPositions}
		arch = *p.custom
	} else {
		m, ok := p.cat.Model(s[FieldModel])
		if !ok {
			p.fail(FieldModel, MsgUnknownChoice)
			return j, false
		}
		j.Model = m
		var err error
		if arch, err = p.archs.of(m); err != nil {
			p.errs[FieldModel] = FieldErr{Key: MsgBadConfig, Value: s[FieldModel], Detail: strings.TrimPrefix(err.Error(), "estimator: ")}
			return j, false
		}
	}
	// The estimator's fields are read as the command line reads its
	// flags (ParseInput); the page reads every field it shows.
	var t JobText
	for jf, f := range jobFields {
		if f >= 0 {
			t.Text[jf], t.Read[jf], t.Set[jf] = s[f], s.Shown(f), true
		}
	}
	// The LoRA rank and targets are given where they differ from what a
	// link without them means (ViewState.linkDefault: LitGPT's for a
	// Lightning precision), as the command line's --lora-rank and
	// --lora-targets are given or not.
	for _, f := range stackFields {
		if jf, ok := jobspec.ByFlag(FieldNames[f]); ok {
			t.Set[jf] = s[f] != s.linkDefault(f, DefaultState)
		}
	}
	// An on/off field left empty is not given (UnsetFields): the job's
	// own default, as the command line without the flag.
	for _, f := range UnsetFields {
		if jf, ok := jobspec.ByFlag(FieldNames[f]); ok && s[f] == "" {
			t.Read[jf], t.Set[jf] = false, false
		}
	}
	// The daily curve replaces the request rate (as rightsize plan
	// --load-curve, which notes it): a rate left in the field is not read.
	curve := s.Shown(FieldCurve) && strings.TrimSpace(s[FieldCurve]) != ""
	if curve {
		t.Read[jobspec.RequestsPerSecond] = false
	}
	ij, jerrs := ParseInput(&t, arch, p.cat)
	for _, e := range jerrs {
		if f := jobFields[e.Field]; p.errs[f].OK() {
			p.errs[f] = FieldErr{Key: e.Key, Value: e.Value, Range: e.Range(), Args: e.Args}
		}
	}
	in, zeroAuto := ij.In, ij.ZeROAuto
	j.GPU, j.Host, j.Eff = ij.GPU, ij.Host, ij.Eff
	if j.GPU.ID == "" && p.errs[FieldGPU].OK() {
		p.fail(FieldGPU, MsgUnknownChoice) // the page always sizes for a GPU
	}
	// The planner's assumptions and filters are read as the command
	// line reads its plan flags (ParsePlan).
	pj, perrs := ParsePlan(&t, p.cat)
	for _, e := range perrs {
		if f := jobFields[e.Field]; p.errs[f].OK() {
			p.errs[f] = FieldErr{Key: e.Key, Value: e.Value, Range: e.Range(), Args: e.Args}
		}
	}
	j.Pricing, j.CkptWriteBytesPerSecond, j.RestartSeconds = pj.Pricing, pj.CkptWriteBytesPerSecond, pj.RestartSeconds
	j.UnknownNetworks, j.FreshnessDays, j.Currency = pj.UnknownNetworks, pj.FreshnessDays, pj.Currency
	choice(p, FieldSort, parseSort, &j.Sort)
	choice(p, FieldUnits, parseUnit, &j.Units)
	if s.Shown(FieldTrainTokens) {
		j.Tokens = ij.TrainTokens
	}
	// A dataset and its epochs replace the training tokens, as
	// rightsize plan --epochs E --dataset-tokens N (one epoch when only
	// the dataset is given).
	if s.Shown(FieldDataset) && pj.DatasetTokens > 0 {
		j.Dataset, j.Epochs = pj.DatasetTokens, 1
		if pj.Epochs > 0 {
			j.Epochs = pj.Epochs
		}
		j.Tokens = j.Epochs * j.Dataset
		p.errs[FieldTrainTokens] = FieldErr{} // replaced
	} else if s.Shown(FieldEpochs) && strings.TrimSpace(s[FieldEpochs]) != "" && (!s.Shown(FieldDataset) || strings.TrimSpace(s[FieldDataset]) == "") {
		p.fail(FieldDataset, MsgNeedsDataset)
	}
	if s.Shown(FieldOutput) {
		var out int
		p.intField(FieldOutput, &out)
		// 0 is no split given: half of the sequence generated
		// (estimator.Workload's zero value), as rightsize's
		// --output-tokens 0, whose JSON the independent checks replay.
		switch {
		case !p.errs[FieldOutput].OK() || !p.errs[FieldSeq].OK() || out == 0 || in.Seq < 1:
			// A sequence under one token (-5) is refused on its own
			// field by the estimator's check; the generated tokens
			// have no range to be judged against ("0 to -6").
		case out >= in.Seq:
			// The prompt is the rest of the sequence, at least a token:
			// the field says its own range (0 to the sequence less one),
			// not the prompt's 1 to 16,777,216 that the estimator's
			// check of prompt=0 put next to it (BERT at 512 tokens with
			// the sample's 512 generated).
			p.errs[FieldOutput] = FieldErr{Key: MsgRange, Value: s[FieldOutput],
				Range: estimator.Range{Min: 0, Max: float64(in.Seq - 1), HasMin: true, HasMax: true}}
		default:
			j.Work = estimator.Workload{PromptTokens: in.Seq - out, OutputTokens: out}
		}
	}
	j.Work.GlobalBatch = ij.GlobalBatch
	if s.Shown(FieldWorkload) && strings.TrimSpace(s[FieldWorkload]) != "" {
		if w, ok := planner.PresetWorkload(strings.TrimSpace(s[FieldWorkload])); ok {
			j.Mix = &w
			j.Work.PromptTokens, j.Work.OutputTokens = w.MeanPrompt, w.MeanOutput
		} else {
			p.fail(FieldWorkload, MsgUnknownChoice)
		}
	}
	if curve {
		// The daily curve replaces the request rate: the planner ranks
		// the offers at its busiest hour (as rightsize plan --load-curve).
		c, err := planner.ParseCurveList(s[FieldCurve])
		if err == nil {
			// The CLI's check too: an all-zero day is no load (it planned
			// a batch job without a word).
			err = c.Validate()
		}
		if err != nil {
			p.errs[FieldCurve] = FieldErr{Key: MsgBadCurve, Value: s[FieldCurve], Detail: err.Error()}
		} else {
			j.Curve, j.RPS = &c, c.Peak()
		}
	}
	if s.Shown(FieldRPS) && (curve || strings.TrimSpace(s[FieldRPS]) != "") {
		if !curve {
			j.RPS = pj.RequestsPerSecond // ParsePlan
		}
		if j.Mix != nil && j.Curve == nil && j.RPS > 0 {
			// A preset at one request rate: a flat day.
			var c planner.LoadCurve
			for h := range c {
				c[h] = j.RPS
			}
			j.Curve = &c
		}
		// Milliseconds, or a time with its unit (ParseDuration, as
		// rightsize plan --ttft-p95 and --tpot); 0 is no target, and an
		// empty TTFT field the planner's default, as without --ttft-p95.
		if j.TTFTByDefault = strings.TrimSpace(s[FieldTTFT]) == ""; !j.TTFTByDefault {
			p.duration(FieldTTFT, 1e-3, &j.TTFT)
		}
		p.duration(FieldTPOT, 1e-3, &j.TPOT)
		j.SLOStat = pj.SLOStat // ParsePlan
	}
	if s.Shown(FieldRequests) {
		// A batch job's requests are needed where the field is shown.
		if j.Requests = pj.Requests; strings.TrimSpace(s[FieldRequests]) == "" {
			p.fail(FieldRequests, MsgNotNumber)
		}
	}
	// Country is the provider's home (billing, law, VAT); where the
	// machines stand is the region (planner.Filters).
	j.Filters.Providers, j.Filters.Countries, j.Filters.Regions = pj.Providers, pj.Countries, pj.Regions
	// "" is the default set (catalog.DefaultKinds), "any" every kind.
	kinds, err := catalog.KindsFilter(s[FieldProviderKind])
	if err != nil {
		p.fail(FieldProviderKind, MsgUnknownChoice)
	}
	j.Filters.Kinds = kinds
	// The budget is typed in the display currency, as the cards show
	// costs (rightsize plan --budget is in --currency); the planner's
	// filter is in USD.
	p.amount(FieldBudget, &j.Filters.BudgetUSD)
	if x, ok := p.cat.FX(j.Currency); ok && x.PerUSD > 0 {
		j.Filters.BudgetUSD /= x.PerUSD
	}
	// Hours, or a time with its unit (as --deadline); 0: none; empty:
	// none, except pre-training's assumed run length (the planner's
	// DefaultPretrainDeadlineSeconds).
	if s.Shown(FieldDeadline) && strings.TrimSpace(s[FieldDeadline]) != "" {
		p.duration(FieldDeadline, 3600, &j.Filters.DeadlineSeconds)
		j.Filters.NoDeadline = j.Filters.DeadlineSeconds == 0
	}
	j.Filters.MinVCPUs = pj.MinVCPUs // ParsePlan
	p.amount(FieldMinRAM, &j.Filters.MinRAMGiB)
	j.SpotRate = pj.SpotInterruptions
	j.Own = pj.Own // ParsePlan: nil without a purchase price
	j.API = pj.HostedAPI
	if v := strings.TrimSpace(s[FieldCalibration]); v != "" && s.Shown(FieldCalibration) {
		if cal, err := sim.ParseCalibration(v); err != nil {
			j.CalBad = true
		} else {
			j.Cal, j.CalApplied = cal, cal.ApplyTo(j.GPU.ID, &in, &j.Eff)
		}
	}
	// A fine-tune that accumulates under FSDP holds the whole model's
	// gradients between syncs, as Accelerate and Lightning run it by
	// default (estimator.FSDPNoSyncDefault; the CLI's default without
	// --fsdp-no-sync).
	// The stage's memory counts the schedule the step is timed with; the
	// ZeRO field on auto picks the layout as the CLI does without --zero.
	// A planner row applied names its offer (FieldOffer, WithPlan): the
	// job runs on one GPU, or slice, of its instance as the planner
	// estimated the row (planner.OnOffer): a slice's share of the GPU's
	// memory here, its instance's links and network in the speed
	// (Job.Hardware). An offer of another GPU (the GPU changed since) or
	// one the catalog lacks is not read.
	if id := strings.TrimSpace(s[FieldOffer]); id != "" {
		if o, ok := p.cat.PlanOffer(id, in.Weights); ok && o.GPU == j.GPU.ID && o.HasHardware && o.GPUCount > 0 && o.GPUMemory > 0 {
			j.Offer = &o
			in, _ = planner.OnOffer(in, j.Offer, planner.Assumptions{})
		}
	}
	in.Schedule = estimator.Schedule{MicroBatches: j.Work.MicroBatches, GlobalBatch: j.Work.GlobalBatch}
	in, j.Layout = estimator.ResolveTrainDefaults(in, zeroAuto)
	j.ZeROAuto = zeroAuto
	j.EngineOpen, j.EngineWhy, j.Stack, j.CheckpointingDefault = ij.EngineOpen, ij.EngineWhy, ij.Stack, ij.CheckpointingDefault
	in.FSDPNoSync = estimator.FSDPNoSyncDefault(in, j.Work)
	j.In = in
	bad := false
	for _, e := range p.errs {
		bad = bad || !e.OK()
	}
	if err := in.Validate(); err != nil {
		if !bad {
			p.place(err)
			return j, false
		}
		// The estimator's range checks still mark the other fields, so
		// one look shows every bad field ("abc" in the batch and -5 in
		// the sequence, both at once): a field that did not read keeps
		// its default, which the checks pass. A problem of no one field
		// waits until every field reads.
		var later []FieldErr
		PlaceErrors(err, p.s, &p.errs, &later)
	}
	return j, !bad
}

// choice parses an enum field with its parser; a hidden field keeps the
// default.
func choice[T any](p *parser, f Field, parse func(string) (T, error), dst *T) {
	if !p.s.Shown(f) {
		return
	}
	v, err := parse(p.s[f])
	if err != nil {
		p.fail(f, MsgUnknownChoice)
		return
	}
	*dst = v
}

// minFraction is the smallest efficiency or utilisation a field accepts.
const minFraction = 0.01

// duration reads a time (ParseDuration) as seconds; a bare number is in
// units of bare seconds.
func (p *parser) duration(f Field, bare float64, dst *float64) {
	v, key, err := ParseDuration(p.s[f], bare)
	if err != nil {
		p.failWith(f, key, err)
		return
	}
	*dst = v
}

// amount reads an optional amount (ParseAmount), as the command line's
// --budget and --min-ram; empty or 0 leaves 0, no limit.
func (p *parser) amount(f Field, dst *float64) {
	if !p.s.Shown(f) || strings.TrimSpace(p.s[f]) == "" {
		return
	}
	v, key, err := ParseAmount(p.s[f])
	if err != nil {
		p.failWith(f, key, err)
		return
	}
	*dst = v
}

func (p *parser) intField(f Field, dst *int) {
	if !p.s.Shown(f) {
		return
	}
	v, key, err := parseWhole(p.s[f])
	if err != nil {
		if r, ok := estimator.WholeRange(FieldNames[f]); ok {
			err = ranged(r, err) // too large to hold: the field's range
		}
		p.failWith(f, key, err)
		return
	}
	*dst = v
}

// failWith marks field f with key and the range err carries (RangeOf).
func (p *parser) failWith(f Field, key MsgKey, err error) {
	p.fail(f, key)
	if key == MsgRange {
		p.errs[f].Range = RangeOf(err)
	}
}

// jobFields is the page field of each shared job field (by its name).
var jobFields = func() (m [jobspec.N]Field) {
	for jf, s := range jobspec.Fields {
		m[jf] = -1
		if f, ok := fieldOf(s.Flag); ok && FieldNames[f] == s.Flag {
			m[jf] = f
		}
	}
	return m
}()

// place puts each estimator.InputError next to its field; the others go to
// the general list.
func (p *parser) place(err error) { PlaceErrors(err, p.s, &p.errs, &p.gen) }

// PlaceErrors maps estimator errors to message keys: the sentinel picks
// the key (ErrRange, ErrIncompatible, ErrUnknown, ErrNoModel), the field
// name (the CLI flag) picks the input; Reason stays as the detail.
func PlaceErrors(err error, s *ViewState, errs *[NFields]FieldErr, general *[]FieldErr) {
	var walk func(error)
	walk = func(e error) {
		if u, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range u.Unwrap() {
				walk(x)
			}
			return
		}
		fe := FieldErr{Key: MsgInvalid, Detail: e.Error()}
		var be *estimator.BatchLimitError
		if errors.As(e, &be) {
			// Beside the GPUs: their data-parallel replicas are what
			// outgrow the global batch.
			errs[FieldGPUs] = batchShortErr(be.TrainBatch)
			return
		}
		var ie *estimator.InputError
		if errors.As(e, &ie) {
			fe = FieldErr{Key: inputErrKey(ie.Err), Value: ie.Value, Detail: ie.Reason, Range: ie.Range}
			if f, ok := fieldOf(ie.Field); ok && s.Shown(f) {
				if errs[f].OK() {
					errs[f] = fe
				}
				return
			}
			fe.Detail = ie.Field + "=" + ie.Value
			if ie.Reason != "" {
				fe.Detail += ": " + ie.Reason
			}
		}
		*general = append(*general, fe)
	}
	walk(err)
}

// inputErrKey is the message for an estimator sentinel error.
func inputErrKey(err error) MsgKey {
	switch {
	case errors.Is(err, estimator.ErrIncompatible):
		return MsgIncompatible
	case errors.Is(err, estimator.ErrUnknown):
		return MsgUnknownChoice
	case errors.Is(err, estimator.ErrNoModel):
		return MsgNoModel
	}
	return MsgRange
}

// storedPrecision is the precision field's value for model id's
// published weight format where it is narrower than 16 bits
// (catalog.Model.StoredWeights), "" otherwise or without a catalog.
func storedPrecision(cat *catalog.Catalog, id string) string {
	if cat == nil {
		return ""
	}
	if m, ok := cat.Model(id); ok {
		if d, ok := m.StoredWeights(); ok {
			return d.String()
		}
	}
	return ""
}

// WithModel is s with model id picked. Serving a checkpoint published in
// a narrower format (catalog.Model.StoredWeights: fp8 for DeepSeek-V3 and
// R1 and Kimi K2) starts from that format, as rightsize plan does without
// --precision and as vLLM and SGLang load it whatever --dtype says: at
// the default bf16 the page planned DeepSeek-R1 at 100 req/s on 144 H200
// for $1.34M a month where the command line's fp8 plan costs a tenth.
// Leaving such a model with its format still set goes to the new model's
// published format, or back to the default where it has none: moving from
// DeepSeek-R1 (fp8) to gpt-oss (MXFP4, fp4 here) plans gpt-oss as
// published, as a link to it without a precision does (precisionDefault).
// A precision the user chose stays.
func (s ViewState) WithModel(id string, cat *catalog.Catalog) ViewState {
	was, now := storedPrecision(cat, s[FieldModel]), storedPrecision(cat, id)
	s[FieldModel] = id
	if task, err := estimator.ParseTask(s[FieldTask]); err != nil || task != estimator.Inference {
		return s
	}
	switch def := DefaultState[FieldPrecision]; {
	case now != "" && (s[FieldPrecision] == def || s[FieldPrecision] == was):
		s[FieldPrecision] = now
	case was != "" && now == "" && s[FieldPrecision] == was:
		s[FieldPrecision] = def
	}
	return s
}
