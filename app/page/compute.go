package page

// compute turns a job, the catalog (with the user's price sheet applied)
// into results: numbers only, no text. It is a pure function of its inputs
// (no go-app, no browser), so it is tested and benchmarked natively; the
// components format what it returns.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// MaxGPUsSearched bounds the "GPUs needed" search: 64 GPUs is eight 8-GPU
// nodes, past which a memory calculator stops being the right tool.
const MaxGPUsSearched = 64

// OffersShown is how many offers the table shows before "Show all".
const OffersShown = 12

// paretoPoints bounds the points of the cost-vs-time chart: the cheapest
// candidates plus every point of the Pareto front (each point costs the
// page DOM work on every input change; the export lists them all).
const paretoPoints = 40

// Plan is how a job uses its GPUs: the count and the split.
type Plan struct {
	GPUs, TP, PP, ZeRO int
	// CP is a training job's context-parallel degree (estimator.Input.CP,
	// planner.Row.CP): each sequence split over CP GPUs of a replica; 0:
	// none.
	CP int
	// AttnDP and EP are an inference copy's layout inside its TP GPUs:
	// attention data-parallel ranks and the GPUs its routed experts
	// spread over (estimator.Input.DP and EP, planner.Row.AttnDP and
	// EP); 0: none.
	AttnDP, EP int
	// Redundant is the extra copies of the routed experts over a serving
	// copy's EP ranks (estimator.Input.RedundantExperts,
	// planner.Row.RedundantExperts): a row whose EP does not divide the
	// model's experts adds them (note.redundant_experts), so applying it
	// sets them, or the applied job would not estimate. 0: none.
	Redundant int
	// Ckpt is a training plan's activation checkpointing
	// (estimator.Input.GradCheckpointing, planner.Row.GradCheckpointing):
	// a rented fleet's row takes the memory layout that costs least, so
	// applying it sets the job's checkpointing too, or the page would
	// estimate another memory and time than the row it took.
	Ckpt bool
	// Offload is a training plan's CPU offload (estimator.Input.Offload,
	// planner.Row.Offload): a rented fleet's row plans without the
	// user's (note.rental_no_offload), so applying it clears the job's,
	// or the page would estimate the offloaded job's memory and its far
	// slower step rather than the row's.
	Offload estimator.Offload
	// MemShare is the engine memory share the planner set on a serving
	// row's copies where the engine's default leaves them no KV pool
	// (estimator.Input.GPUMemUtil, planner.Row.MemShare: SGLang's
	// --mem-fraction-static at data-parallel attention); 0 where the row
	// runs at the job's own.
	MemShare float64
	// Weights and KV are the precision a planner row runs where it is
	// not the job's (planner.Row.Weights and KV: fp16 on a GPU without
	// bf16, fp32 for a model vLLM refuses in fp16 there, 16-bit where a
	// quantised format has no kernel: estimator.SupportForJob), as
	// estimator.DType names; "": the job's own. Applying the row sets
	// them, or the page would show a job the engine refuses.
	Weights, KV string
	// Offer is the offer a planner row rents (planner.Row.Offer.ID);
	// "": none (the fit table's own setup). Applying the row sets the
	// job's offer (FieldOffer), whose instance the page then estimates
	// and times the job on as the planner did (planner.OnOffer): its
	// network between instances, its NVLink domain, and the memory and
	// speed of a slice of a GPU (Vultr's "1/2 GPU").
	Offer string
}

// PlanOf is the split of the job in.
func PlanOf(in estimator.Input) Plan {
	p := Plan{GPUs: in.GPUs, TP: in.TP, PP: in.PP, ZeRO: in.ZeRO}
	if !in.Task.Training() {
		p.AttnDP, p.EP, p.Redundant = layoutDegree(in.DP), layoutDegree(in.EP), max(in.RedundantExperts, 0)
	} else {
		p.CP, p.Ckpt, p.Offload = layoutDegree(in.CP), in.GradCheckpointing, in.Offload
	}
	return p
}

// RowPlan is the split of a planner row of a request for job in: its
// layout, its offer, and the precision it runs where that is not in's.
func RowPlan(r *planner.Row, in estimator.Input) Plan {
	p := Plan{GPUs: int(r.GPUs), TP: r.TP, PP: r.PP, ZeRO: r.ZeRO, CP: layoutDegree(r.CP), AttnDP: layoutDegree(r.AttnDP), EP: layoutDegree(r.EP),
		Redundant: r.RedundantExperts, Ckpt: r.GradCheckpointing, Offload: r.Offload, MemShare: r.MemShare}
	if r.Offer != nil {
		p.Offer = r.Offer.ID
	}
	if r.Weights != in.Weights {
		p.Weights = r.Weights.String()
	}
	if r.KV != in.KV && !in.Task.Training() {
		p.KV = r.KV.String()
	}
	return p
}

// layoutDegree is an attention-DP, EP or CP degree, 0 for none (0 or 1).
func layoutDegree(n int) int {
	if n > 1 {
		return n
	}
	return 0
}

// Results is everything the page shows for one job, as numbers.
type Results struct {
	OK        bool
	Res       estimator.Result
	MaxBatch  int
	MaxSeq    int
	SeqCapped bool // MaxSeq stopped at the model's context length
	// Checkpointed is a training job that does not fit as set, redone with
	// full activation checkpointing (estimator.WithCheckpointing, the CLI's
	// with_grad_checkpointing); HasCheckpointed says whether there is one.
	Checkpointed    estimator.Result
	HasCheckpointed bool
	// Fix is what makes a training job that does not fit as set fit
	// (estimator.MakeItFit, the CLI's fits_with); HasFix says whether
	// there is one.
	Fix    estimator.Fix
	HasFix bool
	Need   int // GPUs of the selected kind the job needs (0: more than MaxGPUsSearched)
	Fit    []FitResult
	Offers []OfferResult // the selected GPU's offers able to hold the job; the planner prices them
	Rules  []estimator.RuleCheck
	Perf   PerfResult
	HWWarn []MsgKey // the GPU disagrees with the input (bf16 on T4, ...)
	// PerfErr is the estimator's objection to the speed inputs (a workload
	// with no prompt left), for the page to place next to its field.
	PerfErr error
}

// PerfResult is the speed and cost of the job as set.
type PerfResult struct {
	OK       bool
	P        estimator.Perf
	HW       estimator.Hardware
	Eff      estimator.Efficiency
	Seconds  float64 // training: the whole job's steps
	GPUHours float64
	// Run is a training job's steps and whole run at its goodput
	// (estimator.TrainRunOf, the CLI's job_seconds_with_overhead).
	Run estimator.TrainRun
	// FirstWaveSeconds is the cold first wave of the simulated
	// closed-loop benchmark whose mean TTFT P holds (serving engines;
	// 0 when none): the speed section says so beside the TTFT.
	FirstWaveSeconds float64
}

// Fewest is the fit table's row for gpu, when the table has one: its
// Plan is the fewest of that GPU that hold the job (Found) and their
// split. The page's fact "Fewest of this GPU that fit" and
// Figures.MinGPUs read it.
func (r *Results) Fewest(gpu string) (FitResult, bool) {
	for _, f := range r.Fit {
		if f.GPU.ID == gpu {
			return f, true
		}
	}
	return FitResult{}, false
}

// FitResult is one GPU of the fit table: memory only. What the job costs
// on the GPU is the planner's (PlanOut.ByGPU), so the table agrees with
// the recommendation.
type FitResult struct {
	GPU      catalog.GPU
	Fits     bool // with the user's own GPU count and split
	Headroom estimator.Bytes
	Found    bool // some count up to MaxGPUsSearched holds the job
	Plan     Plan // the user's setup when it fits (or nothing holds it), else the fewest GPUs that hold it
	From     OfferPrice
}

// OfferResult is one offer of the selected GPU. Its cost is the
// planner's row for it (PlanOut.ByOffer); Plan is the instance used whole,
// the pick until the planner has answered.
type OfferResult struct {
	Offer    *catalog.Offer // in the catalog's table: a sort moves a pointer, not the offer
	Provider string         // the provider's name
	Plan     Plan
	Holds    bool // one instance holds the job as set (else only the planner's multi-instance plan may run it)
	Own      bool // the user's price sheet set this price
}

// OfferPrice is the cheapest on-demand price per GPU-hour of one GPU in one
// currency, and the offer that asks it.
type OfferPrice struct {
	PerGPUHour float64
	Currency   string
	offer      *catalog.Offer
}

// In is the price in currency cur at the catalog's dated rates (the
// rates the planner converts with), and cur; in its own currency where
// the catalog has no rate for either.
func (o OfferPrice) In(cat *catalog.Catalog, cur string) (float64, string) {
	if o.Currency == cur {
		return o.PerGPUHour, cur
	}
	from, ok1 := cat.FX(o.Currency)
	to, ok2 := cat.FX(cur)
	if !ok1 || !ok2 || !(from.PerUSD > 0) || !(to.PerUSD > 0) {
		return o.PerGPUHour, o.Currency
	}
	return o.PerGPUHour / from.PerUSD * to.PerUSD, cur
}

// Prices is the catalog with the user's sheet applied and the indexes
// compute needs; NewPrices makes it.
type Prices struct {
	Cat      *catalog.Catalog
	cheapest map[string]OfferPrice
	bySize   []int // the catalog's GPUs, smallest memory first (fitResults)
	Own      map[string]bool
	offers   map[offersKey][]planner.Offer // the planner's view of the offers, by weight dtype and day
	// Today dates the planner's prices for its freshness window (zero
	// outside the browser: every price undated, none passed over as stale).
	Today time.Time
	// Yield, set in the browser, lets its event loop run while a plan is
	// computed (planner.Options.Yield); it never changes a plan.
	Yield func()
	// Archs memoizes the catalog's parsed model configs.
	Archs Archs
	// options memoizes the select fields' choices (FieldOptions).
	options map[optionsKey][]Option
}

// offersKey is a planner offer list's weight dtype and the day its prices
// are aged to.
type offersKey struct {
	d   estimator.DType
	day int64
}

func NewPrices(cat *catalog.Catalog, own map[string]bool) Prices {
	return Prices{Cat: cat, cheapest: CheapestUSD(cat), bySize: gpusBySize(cat), Own: own, offers: map[offersKey][]planner.Offer{}, Archs: Archs{}, options: map[optionsKey][]Option{}}
}

// gpusBySize orders cat's GPUs by memory, then ID: the fit table's order.
func gpusBySize(cat *catalog.Catalog) []int {
	idx := make([]int, len(cat.GPUs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(cat.GPUs[a].Memory, cat.GPUs[b].Memory), cmp.Compare(cat.GPUs[a].ID, cat.GPUs[b].ID))
	})
	return idx
}

// PlanOffers is the catalog's offers for the planner (catalog.PlanOffersAt
// pr.today), made once per weight dtype and day.
func (pr Prices) PlanOffers(d estimator.DType) []planner.Offer {
	k := offersKey{d, 0}
	if !pr.Today.IsZero() {
		k.day = pr.Today.Unix() / 86400
	}
	o, ok := pr.offers[k]
	if !ok {
		o = pr.Cat.PlanOffersAt(d, pr.Today)
		pr.offers[k] = o
	}
	return o
}

// Compute estimates j and prices it on every GPU and offer.
func Compute(j Job, pr Prices) (r Results, general []FieldErr) {
	in := j.In
	res, err := estimator.Estimate(in)
	if err != nil {
		var errs [NFields]FieldErr
		s := DefaultState
		PlaceErrors(err, &s, &errs, &general)
		return r, general
	}
	r.OK, r.Res = true, res
	r.MaxBatch = estimator.MaxBatch(in)
	r.MaxSeq = estimator.MaxSeq(in)
	r.Checkpointed, r.HasCheckpointed = estimator.WithCheckpointing(in, res)
	// The levers weighed by their step times on the job's GPU, as the
	// CLI's fits_with weighs them (catalog.GPU.StepTimer).
	r.Fix, r.HasFix = estimator.MakeItFitTimed(in, res, j.GPU.StepTimer(j.Eff, j.Work, catalog.Node{Host: j.Host}))
	if limit := contextLimit(j); limit > 0 && r.MaxSeq > limit {
		r.MaxSeq, r.SeqCapped = limit, true
	}
	r.HWWarn = hardwareWarnings(in, j.GPU)
	if j.Model.WeightsDType == "fp8" && in.Task == estimator.Inference && in.Weights.BitsPerElement() > 8 {
		// The checkpoint ships FP8 weights (catalog.Model.WeightsDType):
		// the engines serve it in FP8, so a wider precision sizes weights
		// no engine loads; the CLI plans its serving in FP8 by default.
		r.HWWarn = append(r.HWWarn, MsgShipsFP8)
	}
	r.Fit, r.Need = fitResults(j, pr)
	r.Perf, r.PerfErr = perfOf(j)
	r.Offers = offerResults(j, pr, r.Need)
	if rules, n, err := estimator.RuleChecks(in); err == nil {
		r.Rules = slices.Clone(rules[:n])
	}
	return r, nil
}

// contextLimit is the model's context length (catalog card, else the
// config's max_position_embeddings); for serving, at most the served
// checkpoint's (estimator.Arch.ServeContext: Qwen2.5-7B-Instruct's 32,768
// under its card's 131,072), which the engines hold requests to. 0 when
// unknown.
func contextLimit(j Job) int {
	n := j.Model.ContextLength
	if n == 0 {
		n = j.In.Arch.MaxPositions
	}
	if ctx := j.In.Arch.ServeContext(); j.In.Task == estimator.Inference && ctx > 0 && (n == 0 || ctx < n) {
		n = ctx
	}
	return n
}

// hardwareWarnings: the selected GPU lacks units for the input's formats.
// bf16 tensor cores arrived with Ampere (T4 is Turing, V100 Volta), fp8
// with Ada and Hopper (NVIDIA H100 and L40S datasheets), FP4 with
// Blackwell (NVIDIA, "Introducing NVFP4", 2025); the catalog records each
// as a GPU flag.
func hardwareWarnings(in estimator.Input, g catalog.GPU) []MsgKey {
	var w []MsgKey
	// A 16-bit KV cache follows the weights (vLLM's and SGLang's
	// --kv-cache-dtype auto is the model's dtype), so only an 8-bit one
	// asks the GPU for a format of its own: fp16 weights with the default
	// bf16 KV setting run in fp16 on a T4.
	uses := func(d estimator.DType) bool {
		return in.Weights == d || (d == estimator.FP8 && in.KV == d && !in.Task.Training() && in.Arch.HasKVCache())
	}
	if uses(estimator.BF16) && !g.SupportsBF16 && g.ID != "" {
		w = append(w, MsgHWNoBF16)
	}
	if uses(estimator.FP8) && !g.SupportsFP8 && g.ID != "" {
		msg := MsgHWNoFP8
		if estimator.FP8Marlin(in, g.Generation()) {
			// vLLM and SGLang keep the weights 8-bit there (W8A16 Marlin).
			msg = MsgHWFP8Marlin
		}
		w = append(w, msg)
	}
	if uses(estimator.FP4) && !g.SupportsFP4 && g.ID != "" {
		w = append(w, MsgHWNoFP4)
	}
	// The inference engine does not start on the GPU at all (the table of
	// what runs where, estimator.SupportForJob; the CLI's estimate says so
	// in its note and the planner refuses such rows): the page says so
	// beside the figures too.
	if g.ID != "" && !in.Task.Training() && in.Engine != estimator.HF {
		switch s := estimator.SupportForJob(g.Generation(), in); {
		case s.Runs:
		case s.Why == estimator.SupportNoEngineRelease:
			w = append(w, MsgHWEngineRelease)
		default:
			w = append(w, MsgHWEngineNoStart)
		}
		// A layout the user set that the engine does not run on these
		// GPUs as estimated (estimator.GPULayoutRefusal; the CLI's
		// estimate notes it, the planner lays out no such copy).
		if hw, ok := g.Hardware(in.Weights); ok && estimator.GPULayoutRefusal(in, hw) != "" {
			w = append(w, MsgHWLayoutRefused)
		}
	}
	return w
}

// perfOf is the speed of the job as set on the selected GPU: the CLI's
// path (catalog.GPU.Speed, the catalog's node figures), or on the
// applied offer's instance (Job.Hardware). Not OK when the
// job does not run (Result.Runs) or the catalog lacks the GPU's figures.
func perfOf(j Job) (PerfResult, error) {
	res, err := estimator.Estimate(j.In)
	if err != nil || !res.Runs(j.In) {
		return PerfResult{}, nil
	}
	// The global batch limit, the CLI's refusal (estimator.TrainBatchOf):
	// a layout no training stack starts is not timed.
	if err := estimator.TrainBatchOf(j.In, j.Work).Err(); err != nil {
		return PerfResult{}, err
	}
	// On the applied offer's instance, or the GPU's usual box
	// (Job.Hardware); catalog.GPU.Speed's estimate otherwise.
	hw, ok := j.Hardware()
	if !ok {
		return PerfResult{}, nil
	}
	p, err := estimator.Throughput(j.In, hw, j.Eff, j.Work)
	if err != nil {
		return PerfResult{}, err
	}
	// Serving engines: the simulated closed-loop benchmark at the batch as
	// requests in flight per engine copy, as the CLI's estimate reports
	// it (catalog.GPU.Benchmark, the same defaults as its flags: the
	// estimator's cold first wave for the engine and GPU vendor).
	wave := estimator.ColdFirstWaveSeconds(j.In.Engine, j.GPU.Vendor)
	_, bench, ok, err := catalog.BenchmarkOn(j.In, hw, j.Eff, j.Work, sim.Bench{Concurrency: j.In.Batch, RangeRatio: sim.DefaultRangeRatio,
		FirstWaveSeconds: wave})
	if err != nil {
		return PerfResult{}, err
	}
	if ok {
		p = bench.Apply(p, catalog.CopiesOf(j.In))
	} else {
		wave = 0
	}
	// The efficiencies the estimate used (Perf.ComputeEfficiency): the
	// page shows these, never a second default.
	r := PerfResult{OK: true, P: p, HW: hw, Eff: estimator.ResolveEfficiency(j.In, hw, j.Eff), FirstWaveSeconds: wave}
	if j.In.Task.Training() {
		r.Run = estimator.TrainRunOf(p, j.Tokens, 0)
		r.Seconds, r.GPUHours = r.Run.Seconds, r.Run.GPUHours
	}
	return r, nil
}

// AssumedEfficiency is what the Assumptions box shows as each field's
// default: the figures the estimate used on the selected GPU, or the
// estimator's defaults when it has no speed.
func AssumedEfficiency(j Job, r PerfResult) estimator.Efficiency {
	if r.OK {
		return r.Eff
	}
	return estimator.ResolveEfficiency(j.In, estimator.Hardware{}, j.Eff)
}

// memKey is what of a catalog GPU the job's estimate reads
// (catalog.GPU.SetMemory): its memory, what CUDA sees of it, and whether
// vLLM gives it its smaller limits by name (the A100).
type memKey struct {
	vram, visible estimator.Bytes
	vllmSmall     bool
}

// fitResults estimates the job's memory on every catalog GPU, smallest
// memory first, and how many of the selected GPU it needs.
func fitResults(j Job, pr Prices) ([]FitResult, int) {
	need := 0
	rows := make([]FitResult, 0, len(pr.bySize))
	// The job's input differs from GPU to GPU only in its memory, so GPUs
	// of one size (55 GPUs, 17 sizes) share one estimate and one search:
	// the previous row's, as the list is sorted by memory. The size is the
	// card's memory and what CUDA sees of it (ECC on GDDR takes a share),
	// and vLLM's class of the GPU (memKey).
	var (
		last        memKey
		fits, found bool
		headroom    estimator.Bytes
		minIn       estimator.Input
	)
	for _, i := range pr.bySize {
		g := &pr.Cat.GPUs[i]
		if g.Memory <= 0 {
			continue
		}
		x := j.In
		g.SetMemory(&x)
		x.UsableVRAM = 0 // the user's measured figure is their own GPU's
		if m := (memKey{x.VRAM, x.VisibleVRAM, x.VLLMSmallDefaults}); m != last {
			last, fits, found, headroom = m, false, false, 0
			if res, err := estimator.Estimate(x); err == nil {
				fits, headroom = res.Fits, res.Headroom
			}
			minIn, found = estimator.MinGPUsInput(x, MaxGPUsSearched)
		}
		// Without a count that holds the job, a pick keeps the user's setup.
		r := FitResult{GPU: *g, Plan: PlanOf(x), From: pr.cheapest[g.ID], Fits: fits, Headroom: headroom}
		if found {
			r.Found, r.Plan = true, PlanOf(minIn)
			if g.ID == j.GPU.ID {
				need = minIn.GPUs
			}
			if r.Fits {
				r.Plan = PlanOf(x) // the user's own GPU count and parallelism fit
			}
		}
		rows = append(rows, r)
	}
	return rows, need
}

// instancePlan is how a job set up as p runs on an instance of n GPUs:
// all of them, as whole model copies (a multiple of TP × PP). ok is false
// when the instance has fewer GPUs than p.
func instancePlan(p Plan, n float64) (Plan, bool) {
	per := max(1, p.TP*p.PP)
	q := p
	q.GPUs = int(n) / per * per
	return q, q.GPUs >= p.GPUs && q.GPUs >= 1
}

// offerResults lists the selected GPU's offers, marking those with enough
// GPUs in one instance for this job, USD first, then by price per GPU-hour (the page
// orders them by the planner's cost once it has answered).
func offerResults(j Job, pr Prices, need int) []OfferResult {
	base := PlanOf(j.In)
	if res, err := estimator.Estimate(j.In); err == nil && !res.Fits && need > 0 {
		if min, ok := estimator.MinGPUsInput(j.In, MaxGPUsSearched); ok {
			base = PlanOf(min)
		}
	}
	var rows []OfferResult
	for i := range pr.Cat.Offers {
		o := &pr.Cat.Offers[i]
		if o.GPU != j.GPU.ID {
			continue
		}
		q, ok := instancePlan(base, o.GPUCount)
		if !ok {
			q = base
		}
		r := OfferResult{Offer: o, Provider: o.Provider, Plan: q, Holds: ok, Own: pr.Own[o.ID]}
		if p, ok := pr.Cat.Provider(o.Provider); ok && p.Name != "" {
			r.Provider = p.Name
		}
		rows = append(rows, r)
	}
	// Sorted by index, with each row's price key computed once: a row is
	// large to move, and the selected GPU has up to a few hundred offers.
	keys := make([]float64, len(rows))
	idx := make([]int, len(rows))
	for i, r := range rows {
		keys[i], idx[i] = PriceKey(r.Offer.OnDemandPerGPUHour()), i
	}
	slices.SortStableFunc(idx, func(i, k int) int {
		a, b := rows[i].Offer, rows[k].Offer
		return cmp.Or(
			cmp.Compare(currencyRank(a.Currency), currencyRank(b.Currency)),
			cmp.Compare(a.Currency, b.Currency),
			cmp.Compare(keys[i], keys[k]),
			cmp.Compare(a.ID, b.ID),
		)
	})
	sorted := make([]OfferResult, len(rows))
	for n, i := range idx {
		sorted[n] = rows[i]
	}
	return sorted
}

func currencyRank(cur string) int {
	if cur == "USD" {
		return 0
	}
	return 1
}

// PriceKey sorts unknown (0) prices last.
func PriceKey(p float64) float64 {
	if p <= 0 {
		return 1e18
	}
	return p
}

// CheapestUSD finds, per GPU, the lowest on-demand USD price per GPU-hour.
func CheapestUSD(cat *catalog.Catalog) map[string]OfferPrice {
	m := map[string]OfferPrice{}
	for i := range cat.Offers {
		o := &cat.Offers[i]
		if o.Currency != "USD" || o.GPUCount < 1 {
			continue
		}
		p := o.OnDemandPerGPUHour()
		if p <= 0 {
			continue
		}
		if cur, ok := m[o.GPU]; !ok || p < cur.PerGPUHour {
			m[o.GPU] = OfferPrice{p, "USD", &cat.Offers[i]}
		}
	}
	return m
}

// leverMsgs name MakeItFit's levers in the page's words.
var leverMsgs = [...]MsgKey{estimator.LeverCheckpointing: MsgLeverCheckpointing, estimator.LeverZeRO3: MsgLeverZeRO3,
	estimator.LeverMicroBatch: MsgLeverMicroBatch, estimator.LeverOffloadOptimizer: MsgLeverOffloadOptimizer,
	estimator.LeverOffloadAll: MsgLeverOffloadAll, estimator.LeverMoreGPUs: MsgLeverMoreGPUs,
	estimator.LeverZeRO2: MsgLeverZeRO2, estimator.LeverPlain1F1B: MsgLeverPlain1F1B}

// FixText is the "Fits with" fact: the levers, then the memory per GPU on
// the GPUs it needs and the host memory its offload takes ("gradient
// checkpointing + ZeRO-3 + … · 17.3 GiB per GPU on 2 GPUs · host 18.9 GiB
// per GPU").
func (l Locale) FixText(f estimator.Fix) string {
	s := ""
	for i, lv := range f.Levers {
		if i > 0 {
			s += " + "
		}
		if int(lv) >= 0 && int(lv) < len(leverMsgs) {
			s += l.T(leverMsgs[lv])
		}
		if lv == estimator.LeverMicroBatch {
			s += " " + strconv.Itoa(f.In.Batch)
		}
	}
	// In the page's numbers ("16,384"), and one GPU said as one ("on 1
	// GPUs" read as a slip).
	if f.In.GPUs == 1 {
		s += " · " + fmt.Sprintf(l.T(MsgFixOneGPU), l.Bytes(f.Result.Peak))
	} else {
		s += " · " + fmt.Sprintf(l.T(MsgFixPerGPU), l.Bytes(f.Result.Peak), l.Count(int64(f.In.GPUs)))
	}
	if f.Result.HostOffload > 0 {
		s += " · " + fmt.Sprintf(l.T(MsgFixHost), l.Bytes(f.Result.HostOffload))
	}
	return s
}

// Derived is what a page state yields: its job, the problems of its
// fields, its results, and the pinned state's job and results.
type Derived struct {
	Job     Job
	Errs    [NFields]FieldErr
	General []FieldErr
	R       Results
	PinJob  Job
	Pinned  Results // the pin's results (OK false: no pin, or it does not read)
}

// Derive parses state s into a job and computes its results at prices
// pr, and the pin's when there is one.
func Derive(s ViewState, pin *ViewState, pr Prices, custom *estimator.Arch, customName string) Derived {
	var d Derived
	archs := pr.Archs
	if archs == nil {
		archs = Archs{}
	}
	var ok bool
	d.Job, d.Errs, d.General, ok = ParseJob(s, pr.Cat, archs, custom, customName)
	if ok {
		var gen []FieldErr
		d.R, gen = Compute(d.Job, pr)
		d.General = append(d.General, gen...)
		if d.R.PerfErr != nil {
			PlaceErrors(d.R.PerfErr, &s, &d.Errs, &d.General)
		}
	}
	if pin != nil {
		if j, _, _, ok := ParseJob(*pin, pr.Cat, archs, custom, customName); ok {
			d.PinJob = j
			d.Pinned, _ = Compute(j, pr)
		}
	}
	return d
}
