package page

// The answer: the planner (rightsize/estimator/plan) plans the job on every
// offer of the catalog and ranks them; this file asks it the page's
// question and keeps what the page shows. Pure, like compute.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// Candidate is one offer the planner found able to run the job: cost in
// the chosen currency (the job, or the month for serving) and time (the
// job, or a request's p95 end-to-end latency for serving).
type Candidate struct {
	Offer     *planner.Offer
	Row       int  // the planner's row (PlanOut.Rows)
	Plan      Plan // GPUs rented and their split
	Instances int
	// Rented is the instances the bill pays for (planner.Row.Rented):
	// Instances rounded up to the provider's whole orders.
	Rented  int
	Cost    float64
	Seconds float64
	// PerMOutUSD is the cost of a million generated tokens (inference).
	PerMOutUSD float64
	// What the plan runs: its price model, engine, and requests in flight
	// per engine copy (inference); the page says them next to its figures.
	Pricing     planner.Pricing
	Engine      estimator.Engine
	Concurrency float64
	// CommShare is the share of a training step spent in communication
	// that compute does not hide (Row.CommSeconds over the step); 0 for
	// inference and single-GPU plans.
	CommShare float64
	Notes     []planner.Reason // the row's own notes (VAT normalised, spot spare replica)
	// PerGPUHour is the offer's price per GPU-hour under the plan's price
	// model, in PlanOut.Currency.
	PerGPUHour float64
	// Spot: reclaims per month assumed for the offer and the Young/Daly
	// checkpoint interval the planner chose (seconds; 0 when not on spot).
	SpotPerMonth, CheckpointEvery float64
	Front                         bool // on the cost-vs-time Pareto front
	// Stale: the price is older than the freshness window, undated or
	// estimated (planner.Row.Stale); the card says "verify". PassedOver:
	// the picks pass the row over for a fresher or normally priced offer
	// of its GPU (planner.Row.PassedOver); it is listed, not picked.
	Stale, PassedOver bool
	Why               planner.Reason
}

// PickKind names a recommendation.
type PickKind int

const (
	PickCheapest PickKind = iota
	PickFastest
	PickValue
)

var pickNames = [...]string{PickCheapest: "cheapest", PickFastest: "fastest", PickValue: "value"}

func (k PickKind) String() string { return pickNames[k] }

type Pick struct {
	Kind PickKind
	Candidate
	// Bounded marks a fastest pick that is the faster alternative within
	// planner.AltCostBound of the cheapest's cost, not the quickest plan
	// (planner.Result.Quickest): its card says "Faster", not "Fastest".
	Bounded bool
}

// ServeResult is the serving fleet of one plan, named: its offer, shape,
// engine and price model.
type ServeResult struct {
	OK                      bool
	Offer                   *planner.Offer
	Instances, Rented       int // used, and paid for (planner.Row.Rented)
	Plan                    Plan
	Pricing                 planner.Pricing
	Engine                  estimator.Engine
	Replicas, GPUs          int
	Concurrency             float64
	TTFTP95, TPOT, Utilised float64
	// TTFTAtSLO and TPOTAtSLO are TTFT and TPOT at the statistic the
	// targets bound (planner.Row.TTFTAtSLOSeconds, TPOTAtSLOSeconds):
	// the figures the fleet's cards show, as the load chart and the
	// disaggregated line do.
	TTFTAtSLO, TPOTAtSLO float64
	Monthly              float64 // in PlanOut.Currency
	// Sized: the engine simulator set the replica count; Binding names
	// what needed the last replica and Limit what held requests back in
	// each engine copy (planner.Row.Binding, EngineLimit).
	Sized   bool
	Binding sim.Binding
	Limit   sim.Limit
}

// serveOf is row r's fleet, planned for req.
func serveOf(req planner.Request, r *planner.Row) ServeResult {
	return ServeResult{
		OK: true, Offer: r.Offer, Instances: r.Instances, Rented: r.Rented(), Plan: RowPlan(r, req.Input),
		Pricing: r.Pricing, Engine: r.Engine, Replicas: r.Replicas, GPUs: int(r.GPUs), Concurrency: r.Concurrency,
		TTFTP95: r.TTFTP95Seconds, TPOT: r.TPOTSeconds, Utilised: r.Utilisation, Monthly: r.MonthlyCostDisp, TTFTAtSLO: r.TTFTAtSLOSeconds,
		TPOTAtSLO: r.TPOTAtSLOSeconds,
		Sized:     r.Sim != nil, Binding: r.Binding, Limit: r.EngineLimit,
	}
}

// Best is the cheapest candidate on GPU gpu, if any.
func (o *PlanOut) Best(gpu string) (Candidate, bool) {
	i, ok := o.ByGPU[gpu]
	if !ok {
		return Candidate{}, false
	}
	return o.Cands[i], true
}

// OnOffer is the cheapest candidate on offer id, if any.
func (o *PlanOut) OnOffer(id string) (Candidate, bool) {
	for _, c := range o.Cands {
		if c.Offer != nil && c.Offer.ID == id {
			return c, true
		}
	}
	return Candidate{}, false
}

// Fewest is the candidate on GPU gpu with the fewest GPUs, the cheapest
// of those, if any: the planner's smallest layout that holds the job.
func (o *PlanOut) Fewest(gpu string) (Candidate, bool) {
	i, ok := o.FewestByGPU[gpu]
	if !ok {
		return Candidate{}, false
	}
	return o.Cands[i], true
}

// PlanOut is the planner's answer as the page shows it.
type PlanOut struct {
	OK       bool
	Kind     planner.Kind
	Currency string
	PerUSD   float64 // Currency per USD at the catalog's dated rate (1 for USD)
	Picks    []Pick
	// Flagged is the cheapest plan the picks passed over for its price
	// (stale, or far below what others ask) that would cost less than the
	// cheapest pick (planner.Result.CheaperFlagged): shown beside the
	// answer as "cheaper if the price holds — verify", never as it. -1:
	// none.
	Flagged int
	// NoneWhy is why nothing fits, when nothing does: the budget or the
	// deadline where plans run the job but cost or take too much
	// (MsgNoAnswerBudget, MsgNoAnswerDeadline), else MsgNoAnswer.
	NoneWhy MsgKey
	// Cause is, when nothing fits for no budget or deadline, the one
	// reason every offer left is refused for (NoneCauseOf); HasCause
	// false where their reasons differ.
	Cause    NoneCause
	HasCause bool
	// Widened is, when nothing fits, the cheapest plan with the narrowest
	// filter dropped (planner.Widen) and WidenedDrop that filter ("" and
	// a nil Offer: none).
	Widened     planner.Row
	WidenedDrop string
	// RunLength is what pre-training's assumed run length changed, where
	// the job gave no deadline (planner.Result.AssumedDeadline); nil
	// where none was assumed.
	RunLength *planner.AssumedDeadline
	Cands     []Candidate // every plan that fits, cheapest first
	Points    []Candidate // the chart: the cheapest paretoPoints and the whole front
	Serve     ServeResult // the cheapest pick's fleet
	// Load is one engine copy of the cheapest pick's fleet against the
	// request rate (the serving latency chart), simulated once per plan.
	Load ServeLoad
	// ServeHere is the selected GPU's cheapest fleet (OK false when none
	// fits or it is the cheapest pick's GPU).
	ServeHere ServeResult
	// Fleet is the daily fleet (a load curve or a workload preset); OK
	// false when none was asked or sized.
	Fleet  FleetOut
	Hosted []planner.HostedComparison
	// Disagg is the planner's disaggregated prefill/decode alternative
	// (nil: none applies).
	Disagg *planner.DisaggPlan
	Notes  []planner.Reason
	Err    error
	// ByGPU and ByOffer index the cheapest candidate per GPU (of those
	// the picks may rest on, else of all its plans) and per offer: the fit table and the offers
	// table show these rows, so every table agrees with the
	// recommendation.
	ByGPU, ByOffer map[string]int
	// FewestByGPU indexes the candidate with the fewest GPUs per GPU, the
	// cheapest of those (Fewest). The fit table asks it of every row on
	// each input: a scan of every candidate per row was most of the
	// view's time once a plan was on screen.
	FewestByGPU map[string]int
	// Rows are the planner's rows (Candidate.Row indexes them), for the
	// launch settings of a pick.
	Rows []planner.Row
}

// GlobalBatchTokens is the tokens an optimizer step of the job takes when
// it names a global batch in sequences (the page's field, the CLI's
// --global-batch): sequences × sequence length; 0 when it names none, and
// the planner takes its default. The page and `rightsize plan` both ask
// the planner with it.
func GlobalBatchTokens(in estimator.Input) float64 {
	if in.Schedule.GlobalBatch <= 0 || in.Seq <= 0 {
		return 0
	}
	return float64(in.Schedule.GlobalBatch) * float64(in.Seq)
}

// PlanRequest is the page's question to the planner.
func PlanRequest(j Job) planner.Request {
	w := planner.Workload{PromptTokens: j.Work.PromptTokens, OutputTokens: j.Work.OutputTokens}
	switch {
	case j.In.Task.Training():
		w = planner.Workload{Kind: planner.Training, TrainTokens: j.Tokens, GlobalBatchTokens: GlobalBatchTokens(j.In)}
	case j.RPS > 0:
		w.Kind, w.RequestsPerSecond, w.TTFTP95Seconds, w.TPOTSeconds = planner.Serving, j.RPS, j.TTFT, j.TPOT
		w.TTFTByDefault = j.TTFTByDefault
		w.SLOStat = j.SLOStat
		if j.Mix != nil {
			// Planned at the mix's means; the launch's context length
			// covers its longest request (the model's context where the
			// mix does not say), as rightsize plan --workload --emit.
			w.MaxRequestTokens = j.Mix.MaxTokens
			if w.MaxRequestTokens == 0 {
				w.MaxRequestTokens = j.In.Arch.ServeContext()
			}
		}
	default:
		w.Kind, w.Requests = planner.Batch, j.Requests
	}
	in := j.In
	if j.ZeROAuto {
		// The planner chooses the stage and schedule per shape from the
		// user's own (the page sets no schedule), not from those resolved
		// at the job's GPUs.
		in.Schedule.VirtualStages = 0
	}
	// The TTFT target in effect, which the load chart draws too.
	return planner.Request{
		Input: in, ZeROOpen: j.ZeROAuto, EngineOpen: j.EngineOpen, LitGPT: j.Stack != nil, Workload: w, Pricing: j.Pricing, Currency: j.Currency,
		Filters: j.Filters, Assumptions: planner.Assumptions{
			Efficiency: j.Eff, SpotInterruptionsPerMonth: j.SpotRate,
			CheckpointWriteBytesPerSecond: j.CkptWriteBytesPerSecond, RestartSeconds: j.RestartSeconds,
			UnknownNetworks: j.UnknownNetworks,
		},
		FreshnessDays: j.FreshnessDays,
	}.WithDefaultTTFT()
}

// hostedAPIs are the hosted APIs to compare a serving or batch plan with: the
// user's prices when given (as the CLI's --api-input-price and
// --api-output-price), else the catalog's dated list prices for the model.
func hostedAPIs(j Job, pr Prices) []planner.HostedAPI {
	if j.API != nil {
		return []planner.HostedAPI{*j.API}
	}
	return pr.Cat.PlanHostedAPIs(j.Model.ID)
}

// RunPlan plans j on every offer.
func RunPlan(j Job, pr Prices) PlanOut {
	req := PlanRequest(j)
	req.FX = pr.Cat.PlanFX()
	if req.Workload.Kind == planner.Serving || req.Workload.Kind == planner.Batch {
		req.HostedAPIs = hostedAPIs(j, pr)
	}
	var (
		res   planner.Result
		err   error
		fleet FleetOut
	)
	if j.Curve != nil && req.Workload.Kind == planner.Serving {
		// A daily load: the picks and tables show the plan at its peak,
		// the fleet box the day.
		res, fleet, err = planFleet(j, pr, req, pr.PlanOffers(j.In.Weights))
	} else {
		res, err = planner.Plan(req, pr.PlanOffers(j.In.Weights), planner.Options{Yield: pr.Yield})
	}
	if err != nil {
		return PlanOut{Err: err}
	}
	out := PlanOut{OK: true, Kind: req.Workload.Kind, Currency: res.Currency, Notes: res.Notes, Hosted: res.Hosted, Disagg: res.Disagg,
		ByGPU: map[string]int{}, ByOffer: map[string]int{}, FewestByGPU: map[string]int{}, Fleet: fleet, Rows: res.Rows, PerUSD: 1, Flagged: -1}
	if x, ok := pr.Cat.FX(res.Currency); ok && x.PerUSD > 0 {
		out.PerUSD = x.PerUSD
	}
	// No faster alternative within the cost bound: the cheapest pick's
	// sentence on what the quickest plan would buy goes with the planner's
	// notes, as the CLI prints it ("fastest: …"), so the page says why
	// it shows no faster card.
	if res.Fastest < 0 && res.WhyFastest.Key != planner.NoMsg {
		out.Notes = append(slices.Clip(res.Notes), res.WhyFastest)
	}
	out.RunLength = res.AssumedDeadline
	out.Fleet.Currency, out.Fleet.PerUSD = out.Currency, out.PerUSD
	front := map[int]bool{}
	for _, i := range res.Pareto {
		front[i] = true
	}
	out.Cands = make([]Candidate, 0, res.Fitting)
	for i := range res.Rows {
		r := &res.Rows[i]
		if !r.Fits {
			continue
		}
		c := Candidate{
			Offer: r.Offer, Row: i, Instances: r.Instances, Rented: r.Rented(), Why: r.Why,
			Plan: RowPlan(r, req.Input),
			Cost: r.RankedCostDisp, Seconds: r.RankedSeconds, PerMOutUSD: r.USDPerMillionOutput,
			Pricing: r.Pricing, Engine: r.Engine, Concurrency: r.Concurrency,
			CommShare: commShare(r), PerGPUHour: r.PricePerHourDisp / math.Max(r.Offer.GPUCount, 1e-9), Notes: r.Notes,
			SpotPerMonth: r.SpotInterruptionsPerMonth, CheckpointEvery: r.CheckpointIntervalSeconds,
			Front: front[i] || i == res.Cheapest || i == res.Fastest || i == res.Value,
			Stale: r.Stale, PassedOver: r.PassedOver.Key != planner.NoMsg,
		}
		// Rows come cheapest first: the first row of a GPU or an offer is
		// its best; a GPU's best is one the picks may rest on.
		if _, ok := out.ByGPU[r.Offer.GPU]; !ok && !c.PassedOver {
			out.ByGPU[r.Offer.GPU] = len(out.Cands)
		}
		if _, ok := out.ByOffer[r.Offer.ID]; !ok {
			out.ByOffer[r.Offer.ID] = len(out.Cands)
		}
		if f, ok := out.FewestByGPU[r.Offer.GPU]; !ok || c.Plan.GPUs < out.Cands[f].Plan.GPUs {
			out.FewestByGPU[r.Offer.GPU] = len(out.Cands)
		}
		out.Cands = append(out.Cands, c)
	}
	// A GPU whose every plan is passed over (all its prices stale while
	// another GPU's fresh price runs the job) still shows its cheapest
	// plan in the fit table, labelled by its offer's price date.
	for i, c := range out.Cands {
		if _, ok := out.ByGPU[c.Offer.GPU]; !ok {
			out.ByGPU[c.Offer.GPU] = i
		}
	}
	for _, k := range []struct {
		kind PickKind
		row  int
		why  planner.Reason
	}{{PickCheapest, res.Cheapest, res.WhyCheapest}, {PickFastest, res.Fastest, res.WhyFastest}, {PickValue, res.Value, res.WhyValue}} {
		if i, ok := out.candOf(k.row); ok {
			// Each pick says its own sentence: a pick that is the
			// cheapest row too says so, not the cheapest's sentence.
			p := Pick{Kind: k.kind, Candidate: out.Cands[i], Bounded: k.kind == PickFastest && res.Fastest != res.Quickest}
			if k.why.Key != planner.NoMsg {
				p.Why = k.why
			}
			out.Picks = append(out.Picks, p)
		}
	}
	if i, ok := out.candOf(res.CheaperFlagged); ok {
		out.Flagged = i
	}
	if len(out.Cands) == 0 {
		if w, dropped, ok := planner.Widen(req, pr.PlanOffers(j.In.Weights), planner.Options{Yield: pr.Yield}); ok {
			out.Widened, out.WidenedDrop = w.Rows[w.Cheapest], dropped
		}
	}
	switch {
	case len(out.Cands) > 0:
	case res.OverBudget > 0:
		out.NoneWhy = MsgNoAnswerBudget
	case res.PastDeadline > 0 && res.AssumedDeadline != nil:
		out.NoneWhy = MsgNoAnswerRunLength
	case res.PastDeadline > 0:
		out.NoneWhy = MsgNoAnswerDeadline
	case generatesNoTokens(j):
		out.NoneWhy = MsgNoAnswerNoTokens
	default:
		out.NoneWhy = MsgNoAnswer
		out.Cause, out.HasCause = NoneCauseOf(req, res, pr.PlanOffers(j.In.Weights), planner.Options{Yield: pr.Yield})
	}
	// The chart: the cheapest paretoPoints plans the picks may rest on
	// (rows passed over for their price do not take a place: the cheapest
	// forty cands of the default job were all stale or open prices, and
	// its chart showed the one plan on the front) and the whole front.
	shown := 0
	for _, c := range out.Cands {
		if (shown < paretoPoints && !c.PassedOver) || c.Front {
			out.Points = append(out.Points, c)
			if !c.PassedOver {
				shown++
			}
		}
	}
	if out.Kind == planner.Serving && res.Cheapest >= 0 {
		out.Fleet.CardMonthly = res.Rows[res.Cheapest].MonthlyCostDisp
		out.Serve = serveOf(req, &res.Rows[res.Cheapest])
		out.Load = ServeLoadOf(req, &res.Rows[res.Cheapest], pr.Yield)
		// The selected GPU's own fleet: its cheapest row the picks may
		// rest on (rows come cheapest first), as ByGPU.
		for i := range res.Rows {
			if r := &res.Rows[i]; r.Fits && r.PassedOver.Key == planner.NoMsg && r.Offer.GPU == j.GPU.ID {
				out.ServeHere = serveOf(req, r)
				break
			}
		}
	}
	estimator.SortStable(out.Points, func(a, b *Candidate) int { return cmp.Compare(a.Cost, b.Cost) })
	return out
}

// candOf is the candidate of the planner's row (PlanOut.Rows), if it
// fits: the candidates are the fitting rows in their order.
func (out *PlanOut) candOf(row int) (int, bool) {
	return slices.BinarySearchFunc(out.Cands, row, func(c Candidate, row int) int { return cmp.Compare(c.Row, row) })
}

// CommShare is r's exposed communication over its optimizer step (the job
// time over the optimizer steps).
func commShare(r *planner.Row) float64 {
	return SafeShare(r.CommSeconds, r.JobSeconds/r.OptimizerSteps)
}

// SafeShare is a/b in [0, 1], or 0 when b is not positive.
func SafeShare(a, b float64) float64 {
	if !(b > 0) || !(a > 0) {
		return 0
	}
	return math.Min(1, a/b)
}

// SpeedCost is the job as set priced at its own speed (the speed box's
// figures) on the offer of the planner row the user applied, else on the
// offer of the planner's cheapest plan on the selected GPU: that offer's
// price per GPU-hour under the plan's price model × the job's GPUs × its
// time as the offer bills it (planner.BilledHours). Without an applied
// row the speed box's two costs thus rest on one offer and one price (the
// planner's, which passes over stale and far-below prices); with one, the
// first is the applied offer's, as the box's setup line says, and the
// second the planner's cheapest plan on the GPU, each naming its offer.
// Per 1M tokens = price × GPUs / (tokens/s × 3600) × 10⁶.
type SpeedCost struct {
	OK         bool
	Offer      *planner.Offer
	Pricing    planner.Pricing
	Currency   string
	PerGPUHour float64
	PerMOut    float64 // inference
	JobCost    float64 // training
}

// AtSpeed prices the job as set at its own speed (SpeedCost). A job that
// carries an applied planner row's offer (Job.Offer) is priced
// on that offer, the one the box's setup line names and the job is timed
// on: the cheapest plan the planner has on it (its price per GPU-hour
// and price model are the offer's, whatever the plan's count). Only where
// the plan has none on it (a later change dropped it) does the
// planner's cheapest plan on the GPU price it, and the line names that
// offer.
func AtSpeed(v PerfResult, j Job, o *PlanOut) SpeedCost {
	x, ok := o.Best(j.GPU.ID)
	if j.Offer != nil {
		if y, on := o.OnOffer(j.Offer.ID); on {
			x, ok = y, true
		}
	}
	if !v.OK || !ok || !(x.PerGPUHour > 0) {
		return SpeedCost{}
	}
	c := SpeedCost{OK: true, Offer: x.Offer, Pricing: x.Pricing, Currency: o.Currency, PerGPUHour: x.PerGPUHour}
	perHour := x.PerGPUHour * float64(j.In.GPUs)
	if j.In.Task.Training() {
		c.JobCost = perHour * planner.BilledHours(x.Offer, x.Pricing, v.Seconds)
	} else if v.P.TokensPerSecond > 0 {
		c.PerMOut = perHour / (v.P.TokensPerSecond * 3600) * 1e6
	}
	return c
}

// FromUSD converts a planner figure in USD (a cost per 1M tokens, a hosted
// API's bill) into the plan's display currency, at the rate the planner
// converted its costs with.
func (o *PlanOut) FromUSD(usd float64) float64 {
	if !(o.PerUSD > 0) {
		return usd
	}
	return usd * o.PerUSD
}

// FlaggedLine is the line beside the answer naming the cheaper plan the
// picks passed over for its price ("Cheaper if the price holds — verify:
// Akash · V100 32GB PCIe ×6, $745"), or "" when there is none. names turns
// a provider ID into its display name.
func (o *PlanOut) FlaggedLine(l Locale, names func(string) string) string {
	if o.Flagged < 0 || o.Flagged >= len(o.Cands) {
		return ""
	}
	c := o.Cands[o.Flagged]
	what := names(c.Offer.Provider) + " · " + c.Offer.Name() + InstancesOf(l, c.Instances, c.Rented)
	return fmt.Sprintf(l.T(MsgCheaperFlagged), what, o.costText(l, c.Cost))
}

// costText is a plan's ranked cost in the plan's currency, per month for
// a serving job, as the picks' reasons write it; a training or batch
// job's cost is the job's.
func (o *PlanOut) costText(l Locale, v float64) string {
	s := l.Money(v, o.Currency)
	if o.Kind == planner.Serving {
		s += l.T(MsgPerMonthUnit)
	}
	return s
}

// OwnUnfitLines are the user's own offers (a loaded price sheet) that do
// not run the job, each with the planner's reason: the planner lists them
// whatever the top rows (planner.Options.Top), so the page says why the
// user's machines were not picked rather than leaving them out unsaid.
func (o *PlanOut) OwnUnfitLines(l Locale, names func(string) string) []string {
	var out []string
	more := 0
	for i := range o.Rows {
		r := &o.Rows[i]
		if r.Fits || !r.Offer.UserPrice {
			continue
		}
		if len(out) == ownUnfitShown {
			more++
			continue
		}
		out = append(out, fmt.Sprintf(l.T(MsgOwnUnfit), names(r.Offer.Provider)+" · "+r.Offer.Name(), l.ReasonWith(r.FitReason, names)))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf(l.T(MsgOwnUnfitMore), l.Count(int64(more))))
	}
	return out
}

// ownUnfitShown is how many of the user's offers that do not run the job
// the page names one by one; the rest are counted (a sheet of 100,000
// offers that do not hold the model wrote 100,000 lines and held the
// browser's main thread for 20 s).
const ownUnfitShown = 5

// KindMsgs are the provider kinds in display order with their labels:
// the filter's choices and the kind shown on every pick.
var KindMsgs = []struct {
	Kind string
	Msg  MsgKey
}{{catalog.KindHyperscaler, MsgKindHyperscaler}, {catalog.KindGPUCloud, MsgKindGPUCloud}, {catalog.KindMarketplace, MsgKindMarketplace},
	{catalog.KindBroker, MsgKindBroker}, {catalog.KindDecentralized, MsgKindDecentralized}}

// KindLabel is a provider kind in the locale's words ("" for an unknown
// kind).
func (l Locale) KindLabel(kind string) string {
	for _, k := range KindMsgs {
		if k.Kind == kind {
			return l.T(k.Msg)
		}
	}
	return ""
}

// widenedFields are the filters planner.Widen drops, as the page names
// them.
var widenedFields = map[string]MsgKey{"region": MsgRegionField, "provider": MsgProvider, "country": MsgCountry,
	"budget": MsgBudget, "deadline": MsgDeadline}

// WidenedLine says what fits without the filter that emptied the answer
// ("Without Provider's country: Yandex · gpu-standard-v3 (A100 80GB) at
// $5.70/h, $27.92"), or "".
func (o *PlanOut) WidenedLine(l Locale, n Names) string {
	r := o.Widened
	k, ok := widenedFields[o.WidenedDrop]
	if r.Offer == nil || !ok {
		return ""
	}
	what := n.Provider(r.Offer.Provider) + " · " + r.Offer.Name() + InstancesOf(l, r.Instances, r.Rented())
	what += catalog.Aside(what, n.GPU(r.Offer.GPU))
	return Fill(l.T(MsgWidened), l.T(k), what, l.Money(r.PricePerHourDisp, o.Currency), o.costText(l, r.RankedCostDisp))
}

// RunLengthLine says what pre-training's assumed run length changed: where
// no plan meets it, the fastest plan and the GPUs the run length needs;
// else the instance limit it raised, where it did, and the cheapest plan
// without it, where that is another row. "" where no run length was
// assumed or it changed nothing.
func (o *PlanOut) RunLengthLine(l Locale, n Names) string {
	a := o.RunLength
	if a == nil || a.Without == nil || a.Without.Offer == nil {
		return ""
	}
	raised := ""
	if a.RaisedMaxInstances > 0 {
		raised = Fill(l.T(MsgRunLengthRaised), l.Count(int64(a.MaxInstances)), l.Duration(a.Seconds), l.Count(int64(a.RaisedMaxInstances))) + " "
	}
	r := a.Without
	what := n.Provider(r.Offer.Provider) + " · " + r.Offer.Name() + InstancesOf(l, r.Instances, r.Rented())
	what += catalog.Aside(what, l.Fixed(float64(r.Instances)*r.Offer.GPUCount, 0)+" × "+n.GPU(r.Offer.GPU))
	if a.Missed {
		return Fill(l.T(MsgRunLengthMissed), l.Count(int64(a.MaxInstances)), l.Duration(a.Seconds), what,
			l.Duration(r.RankedSeconds), o.costText(l, r.RankedCostDisp), l.Duration(a.Seconds), l.Count(int64(a.GPUs)))
	}
	return raised + Fill(l.T(MsgRunLengthWithout), l.Duration(a.Seconds), what, l.Duration(r.RankedSeconds), o.costText(l, r.RankedCostDisp))
}

// generatesNoTokens reports whether j serves a model that generates no
// tokens: an encoder (BERT, ViT) or a model known by its parameters alone
// (FLUX, SDXL). The planner's serving model is token generation, whose KV
// pool such a model lacks, so no offer holds one request (or the planner
// refuses the model); changing the GPU count, precision or model, as the
// default note says, would not help while the memory fits.
func generatesNoTokens(j Job) bool {
	return j.In.Task == estimator.Inference && (j.In.Arch.Encoder || j.In.Arch.Generic())
}

// servesGGUF reports whether j serves a GGUF format (Q4_K_M and kin) at a
// rate, which the planner refuses: llama.cpp runs the format, and a rate
// is planned on the continuous-batching engines (plan.Request's check).
func servesGGUF(j Job) bool {
	return !j.In.Task.Training() && j.RPS > 0 && j.In.Quant.GGUF()
}
