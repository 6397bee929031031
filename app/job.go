package app

// The page state (raw text of every field, viewState) parses into a job:
// typed estimator input plus the page's own choices. Parsing is pure (no
// go-app, no browser): every problem is a fieldErr carrying a message key,
// translated only when rendered.

import (
	"errors"
	"strconv"
	"strings"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// sortOrder is the fit table's order.
type sortOrder int

const (
	sortVRAM sortOrder = iota // smallest memory first
	sortCost                  // cheapest job first
)

var sortNames = [...]string{sortVRAM: "vram", sortCost: "cost"}

func (o sortOrder) String() string { return sortNames[o] }

func parseSort(s string) (sortOrder, error) {
	return parseName[sortOrder](sortNames[:], s, errUnknownValue)
}

// unit is how memory is shown: GiB (binary, what nvidia-smi and the CUDA
// allocator report) or GB (decimal, datasheets).
type unit int

const (
	unitGiB unit = iota
	unitGB
)

var unitNames = [...]string{unitGiB: "GiB", unitGB: "GB"}

func (u unit) String() string { return unitNames[u] }

func parseUnit(s string) (unit, error) { return parseName[unit](unitNames[:], s, errUnknownValue) }

var errUnknownValue = errors.New("unknown value")

func parseName[T ~int](names []string, s string, err error) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, err
}

// fieldErr is a problem with one field: a message key, the offending text
// and an optional detail in the estimator's words (a config field name).
type fieldErr struct {
	Key    msgKey
	Value  string
	Detail string
}

func (e fieldErr) ok() bool { return e.Key == 0 && e.Value == "" && e.Detail == "" }

// job is the page state as typed values: what compute needs.
type job struct {
	In     estimator.Input
	Model  catalog.Model
	GPU    catalog.GPU
	Tokens float64            // training tokens of the job (training tasks)
	Work   estimator.Workload // prompt/output split (inference)
	Sort   sortOrder
	Units  unit
	// AllOffers lists every offer instead of the first offersShown.
	AllOffers bool
	// Serving: a request rate (0: not set) and latency targets in seconds.
	RPS, TTFT, TPOT float64
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
	// (seconds); and a hosted API's prices (USD per 1M tokens) to compare
	// with self-hosting instead of the catalog's list prices.
	SpotRate, CkptWriteBytesPerSecond, RestartSeconds float64
	UnknownNetworks                                   bool // plans may span instances with no named network
	APIInUSDPerM, APIOutUSDPerM                       float64

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
}

// archs memoizes parsed catalog model configs (the catalog is immutable).
type archs map[string]archOrErr

type archOrErr struct {
	arch estimator.Arch
	err  error
}

func (a archs) of(m catalog.Model) (estimator.Arch, error) {
	if x, ok := a[m.ID]; ok {
		return x.arch, x.err
	}
	arch, err := estimator.ParseConfig([]byte(m.Config))
	a[m.ID] = archOrErr{arch, err}
	return arch, err
}

// parser turns one viewState into a job; errs holds the per-field problems.
type parser struct {
	s      *viewState
	cat    *catalog.Catalog
	archs  archs
	custom *estimator.Arch // the user's config.json, or nil
	name   string          // its file name
	errs   [nFields]fieldErr
	gen    []fieldErr
}

func (p *parser) fail(f field, k msgKey) { p.errs[f] = fieldErr{Key: k, Value: p.s[f]} }

// parseJob reads every field over estimator.DefaultInput of the model.
// ok is false when a field is wrong; errs says which and why.
// general lists the problems not tied to a shown field.
func parseJob(s viewState, cat *catalog.Catalog, a archs, custom *estimator.Arch, customName string) (j job, errs [nFields]fieldErr, general []fieldErr, ok bool) {
	p := &parser{s: &s, cat: cat, archs: a, custom: custom, name: customName}
	j, ok = p.parse()
	return j, p.errs, p.gen, ok
}

func (p *parser) parse() (job, bool) {
	s := p.s
	var j job
	var arch estimator.Arch
	if s[fModel] == customModelID {
		if p.custom == nil {
			p.fail(fModel, mNoCustomModel)
			return j, false
		}
		j.Model = catalog.Model{ID: customModelID, Name: p.name, ContextLength: p.custom.MaxPositions}
		arch = *p.custom
	} else {
		m, ok := p.cat.Model(s[fModel])
		if !ok {
			p.fail(fModel, mUnknownChoice)
			return j, false
		}
		j.Model = m
		var err error
		if arch, err = p.archs.of(m); err != nil {
			p.errs[fModel] = fieldErr{Key: mBadConfig, Value: s[fModel], Detail: strings.TrimPrefix(err.Error(), "estimator: ")}
			return j, false
		}
	}
	in := estimator.DefaultInput(arch)
	choice(p, fTask, estimator.ParseTask, &in.Task)
	choice(p, fPrecision, estimator.ParseDType, &in.Weights)
	choice(p, fKV, estimator.ParseDType, &in.KV)
	choice(p, fOptimizer, estimator.ParseOptimizer, &in.Optimizer)
	choice(p, fEngine, estimator.ParseEngine, &in.Engine)
	choice(p, fOffload, estimator.ParseOffload, &in.Offload)
	choice(p, fQuant, estimator.ParseQuant, &in.Quant)
	choice(p, fLoRATargets, estimator.ParseLoRATargets, &in.LoRATargets)
	choice(p, fSort, parseSort, &j.Sort)
	choice(p, fUnits, parseUnit, &j.Units)
	p.intField(fBatch, &in.Batch)
	p.intField(fSeq, &in.Seq)
	p.intField(fLoRARank, &in.LoRARank)
	p.intField(fGPUs, &in.GPUs)
	p.intField(fZeRO, &in.ZeRO)
	p.intField(fTP, &in.TP)
	p.intField(fPP, &in.PP)
	p.intField(fMaxBatched, &in.MaxBatchedTokens)
	p.flag(fCheckpointing, &in.GradCheckpointing)
	p.flag(fSelective, &in.SelectiveRecompute)
	p.flag(fEager, &in.EnforceEager)
	p.flag(fFlash, &in.FlashAttention)
	if s.shown(fMemUtil) {
		if v, err := strconv.ParseFloat(s[fMemUtil], 64); err != nil {
			p.fail(fMemUtil, mNotNumber)
		} else {
			in.GPUMemUtil = v
		}
	}
	p.sizeField(fCtx, &in.Overheads.CUDAContext)
	p.sizeField(fAlloc, &in.Overheads.AllocatorReserve)
	p.sizeField(fNCCL, &in.Overheads.NCCL)
	p.sizeField(fGraphs, &in.Overheads.CUDAGraphs)
	if s.shown(fTrainTokens) {
		if v, err := estimator.ParseCount(s[fTrainTokens]); err != nil || v == 0 {
			p.fail(fTrainTokens, mNotCount)
		} else {
			j.Tokens = v
		}
	}
	if s.shown(fOutput) {
		var out int
		p.intField(fOutput, &out)
		if p.errs[fOutput].ok() && p.errs[fSeq].ok() {
			j.Work = estimator.Workload{PromptTokens: in.Seq - out, OutputTokens: out}
		}
	}
	if s.shown(fGlobalBatch) && strings.TrimSpace(s[fGlobalBatch]) != "" {
		p.intField(fGlobalBatch, &j.Work.GlobalBatch)
		if p.errs[fGlobalBatch].ok() && j.Work.GlobalBatch < 1 {
			p.fail(fGlobalBatch, mRange)
		}
	}
	if s.shown(fRPS) && strings.TrimSpace(s[fRPS]) != "" {
		p.positive(fRPS, &j.RPS)
		var ms float64
		p.positive(fTTFT, &ms)
		j.TTFT = ms / 1000
		p.positive(fTPOT, &ms)
		j.TPOT = ms / 1000
	}
	if s.shown(fRequests) {
		p.positive(fRequests, &j.Requests)
	}
	choice(p, fPricing, planner.ParsePricing, &j.Pricing)
	j.Currency = "USD"
	if _, ok := p.cat.FX(s[fCurrency]); ok {
		j.Currency = s[fCurrency]
	} else {
		p.fail(fCurrency, mUnknownChoice)
	}
	if k := strings.TrimSpace(s[fProviderKind]); k != "" {
		j.Filters.Kinds = []string{k}
	}
	if cc := strings.TrimSpace(s[fCountry]); cc != "" {
		j.Filters.Countries = strings.FieldsFunc(cc, func(r rune) bool { return r == ',' || r == ' ' })
	}
	p.optional(fBudget, &j.Filters.BudgetUSD)
	var hours float64
	p.optional(fDeadline, &hours)
	j.Filters.DeadlineSeconds = hours * 3600
	var vcpus float64
	p.optional(fMinVCPU, &vcpus)
	j.Filters.MinVCPUs = int(vcpus)
	p.optional(fMinRAM, &j.Filters.MinRAMGiB)
	p.fraction(fMFU, &j.Eff.MFU)
	p.fraction(fInfMFU, &j.Eff.InferenceMFU)
	p.fraction(fBWUtil, &j.Eff.BandwidthUtil)
	p.fraction(fSpotRate, &j.SpotRate)
	if v := strings.TrimSpace(s[fCkptWrite]); v != "" {
		if b, err := estimator.ParseBytes(v); err != nil {
			p.fail(fCkptWrite, mNotSize)
		} else if b <= 0 {
			p.fail(fCkptWrite, mRange)
		} else {
			j.CkptWriteBytesPerSecond = float64(b)
		}
	}
	if v := strings.TrimSpace(s[fRestart]); v != "" {
		if d, ok := parseSeconds(v); ok {
			j.RestartSeconds = d
		} else {
			p.fail(fRestart, mNotNumber)
		}
	}
	p.flag(fUnknownNet, &j.UnknownNetworks)
	// The freshness window: empty takes the planner's default; 0 or a
	// negative window is out of range, not "no window".
	if strings.TrimSpace(s[fFreshness]) != "" {
		if p.intField(fFreshness, &j.FreshnessDays); p.errs[fFreshness].ok() && (j.FreshnessDays < 1 || j.FreshnessDays > 36500) {
			p.fail(fFreshness, mRange)
		}
	}
	p.optional(fAPIIn, &j.APIInUSDPerM)
	p.optional(fAPIOut, &j.APIOutUSDPerM)
	var usable estimator.OptionalBytes
	p.sizeField(fUsable, &usable)
	in.UsableVRAM = usable.Value
	if g, ok := p.cat.GPU(s[fGPU]); ok {
		j.GPU = g
		in.VRAM = g.Memory
	} else {
		p.fail(fGPU, mUnknownChoice)
	}
	if v := strings.TrimSpace(s[fCalibration]); v != "" && s.shown(fCalibration) {
		if cal, err := sim.ParseCalibration(v); err != nil {
			j.CalBad = true
		} else {
			j.Cal, j.CalApplied = cal, cal.ApplyTo(j.GPU.ID, &in, &j.Eff)
		}
	}
	j.In = in
	for _, e := range p.errs {
		if !e.ok() {
			return j, false
		}
	}
	if err := in.Validate(); err != nil {
		p.place(err)
		return j, false
	}
	return j, true
}

// choice parses an enum field with its parser; a hidden field keeps the
// default.
func choice[T any](p *parser, f field, parse func(string) (T, error), dst *T) {
	if !p.s.shown(f) {
		return
	}
	v, err := parse(p.s[f])
	if err != nil {
		p.fail(f, mUnknownChoice)
		return
	}
	*dst = v
}

// flag reads a checkbox ("1" on, "0" off); a hidden one keeps the default.
func (p *parser) flag(f field, dst *bool) {
	if !p.s.shown(f) {
		return
	}
	switch p.s[f] {
	case "1":
		*dst = true
	case "0":
		*dst = false
	default:
		p.fail(f, mUnknownChoice)
	}
}

// sizeField reads an optional size such as "1343MiB" or "0.5 GiB"; empty
// leaves the estimator's own figure.
func (p *parser) sizeField(f field, dst *estimator.OptionalBytes) {
	v := strings.TrimSpace(p.s[f])
	if v == "" || !p.s.shown(f) {
		return
	}
	b, err := estimator.ParseBytes(v)
	if err != nil || b < 0 {
		p.fail(f, mNotSize)
		return
	}
	*dst = estimator.OptionalBytes{Set: true, Value: b}
}

// fraction reads an optional share in (0, 1]; empty leaves 0 (the
// estimator's own figure).
func (p *parser) fraction(f field, dst *float64) {
	if !p.s.shown(f) || strings.TrimSpace(p.s[f]) == "" {
		return
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(p.s[f]), 64)
	switch {
	case err != nil:
		p.fail(f, mNotNumber)
	case !(v >= minFraction) || v > 1:
		// Below 1% an efficiency prices a job at hundreds of digits
		// (mfu=1e-300 in a link printed 400-digit costs).
		p.fail(f, mRange)
	default:
		*dst = v
	}
}

// minFraction is the smallest efficiency or utilisation a field accepts.
const minFraction = 0.01

// optional reads a number > 0, or leaves 0 for an empty field.
func (p *parser) optional(f field, dst *float64) {
	if !p.s.shown(f) || strings.TrimSpace(p.s[f]) == "" {
		return
	}
	p.positive(f, dst)
}

// positive reads a finite number > 0.
func (p *parser) positive(f field, dst *float64) {
	v, err := strconv.ParseFloat(strings.TrimSpace(p.s[f]), 64)
	switch {
	case err != nil:
		p.fail(f, mNotNumber)
	case !(v > 0) || v > 1e9:
		p.fail(f, mRange)
	default:
		*dst = v
	}
}

func (p *parser) intField(f field, dst *int) {
	if !p.s.shown(f) {
		return
	}
	v, err := strconv.Atoi(p.s[f])
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.fail(f, mRange)
		} else {
			p.fail(f, mNotNumber)
		}
		return
	}
	*dst = v
}

// place puts each estimator.InputError next to its field; the others go to
// the general list.
func (p *parser) place(err error) { placeErrors(err, p.s, &p.errs, &p.gen) }

// placeErrors maps estimator errors to message keys: the sentinel picks
// the key (ErrRange, ErrIncompatible, ErrUnknown, ErrNoModel), the field
// name (the CLI flag) picks the input; Reason stays as the detail.
func placeErrors(err error, s *viewState, errs *[nFields]fieldErr, general *[]fieldErr) {
	var walk func(error)
	walk = func(e error) {
		if u, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range u.Unwrap() {
				walk(x)
			}
			return
		}
		fe := fieldErr{Key: mInvalid, Detail: e.Error()}
		var ie *estimator.InputError
		if errors.As(e, &ie) {
			fe = fieldErr{Key: inputErrKey(ie.Err), Value: ie.Value, Detail: ie.Reason}
			if f, ok := fieldOf(ie.Field); ok && s.shown(f) {
				if errs[f].ok() {
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
func inputErrKey(err error) msgKey {
	switch {
	case errors.Is(err, estimator.ErrIncompatible):
		return mIncompatible
	case errors.Is(err, estimator.ErrUnknown):
		return mUnknownChoice
	case errors.Is(err, estimator.ErrNoModel):
		return mNoModel
	}
	return mRange
}

// parseSeconds reads a duration as the CLI's --restart does: seconds
// ("600"), or with a unit ("10m", "1h30m", "2d").
func parseSeconds(v string) (float64, bool) {
	x, err := estimator.ParseSeconds(v)
	return x, err == nil
}
