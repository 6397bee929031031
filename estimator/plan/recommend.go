package plan

import (
	"cmp"
	"math"
	"slices"

	"rightsize/estimator"
)

// label names a row in a reason: "aws p5.48xlarge ×2", "nebius my-l4
// ×3 (your price)" on the user's own price, and "coreweave … ×8 of 18"
// where the row pays for more instances than it uses (Row.Rented).
func label(r *Row) OfferRef {
	return OfferRef{Provider: r.Offer.Provider, InstanceType: r.Offer.Name(), Instances: r.Instances, Rented: r.Rented(), Own: r.Offer.UserPrice}
}

// costText is the row's ranking cost (on spot, the expected cost) in the
// request's currency, as RankedCostDisp.
func costText(r *Row, kind Kind, res *Result) Money {
	return Money{Amount: r.RankedCostDisp, Currency: res.Currency, PerMonth: kind == Serving}
}

// timeText is the row's ranking time, as RankedSeconds.
func timeText(r *Row, kind Kind) Duration {
	if kind == Serving {
		return Duration{Seconds: r.E2EP95Seconds, P95PerRequest: true}
	}
	return Duration{Seconds: r.time}
}

// ownTie reports whether r, on the user's own price, is the cheapest only
// by rank's rule that the user's row wins a cost equal to the cent with
// ru, on a catalog price.
func ownTie(r, ru *Row) bool {
	return r.Offer.UserPrice && !ru.Offer.UserPrice && math.Round(r.cost*100) == math.Round(ru.cost*100)
}

// twin reports whether the runner-up ru costs what r costs and runs as
// fast, to the 1.00× the sentences print (both ratios within half a
// hundredth of 1).
func twin(r, ru *Row) bool {
	return math.Abs(ratio(ru.cost, r.cost)-1) < 0.005 && math.Abs(ratio(r.time, ru.time)-1) < 0.005
}

// recommend marks the cheapest, the faster alternative beside it
// (AltCostBound), the quickest, the best value (the knee of the cost–time
// Pareto front) and the rest of the front, each with a sentence comparing
// it with its runner-up or the cheapest. Rows are already ranked by
// cost (ties: time, hourly price, offer ID), so every choice below is
// deterministic. Rows passed over for a stale or far-below-median price
// (passOver) take no part: the runner-ups are kept rows too.
func recommend(res *Result, kind Kind) {
	rows := res.Rows
	fit := make([]int, 0, len(rows))
	for i := range rows {
		// The picks and the front rest on the rows passOver keeps.
		if rows[i].Fits && rows[i].PassedOver.Key == NoMsg {
			fit = append(fit, i)
		}
	}
	if len(fit) == 0 {
		return
	}
	// The cheapest: the fastest of the rows within CostTolerance of the
	// lowest cost, so a plan 0.1% dearer at twice the speed is not passed
	// over for a cost difference the estimate cannot tell apart (a dearer
	// row must still be faster by more than frontTolerance).
	//
	// A training or batch offer's scaled-out fleet (Row.ScaledFrom) dearer than
	// the rows it ties with does not take the pick from them: it is on
	// the front for its speed, and fewer instances are the cheaper bet
	// where the estimate cannot tell the costs apart (each instance adds
	// its start-up, re-provisioning and loading the weights,
	// DefaultRestartSeconds, which the plan prices on spot reclaims only).
	lowest := fit[0]
	cheap := lowest
	for _, i := range fit[1:] {
		if rows[i].cost > rows[lowest].cost*(1+CostTolerance) {
			break // fit is in cost order
		}
		if rows[i].time < rows[cheap].time*(1-frontTolerance) &&
			(rows[i].ScaledFrom == 0 || rows[cheap].ScaledFrom > 0 || !(rows[i].cost > rows[cheap].cost)) {
			cheap = i
		}
	}
	// Pareto front: from the cheapest, walking in cost order, a row is on
	// the front when it is faster than every cheaper row. The rows within
	// CostTolerance of the lowest cost are the cheapest's tie, which it
	// wins, but for a dearer scaled-out fleet it kept the pick from.
	bestTime := math.Inf(1)
	for _, i := range fit {
		if i != cheap && rows[i].cost <= rows[lowest].cost*(1+CostTolerance) && !(i > cheap && rows[i].ScaledFrom > 0) {
			continue
		}
		// A dearer row joins the front only when it is faster by more
		// than frontTolerance: a B300 0.3% faster than a B200 at 1.3×
		// the cost is not "the fastest" but a tie the B200 wins.
		if rows[i].time < bestTime*(1-frontTolerance) {
			bestTime = rows[i].time
			res.Pareto = append(res.Pareto, i)
			rows[i].Recommendation = RecPareto
			rows[i].Why = Reason{Key: MsgReasonPareto, Args: []any{label(&rows[i])}}
		}
	}
	// The quickest: the cheapest front row within FastestTolerance(kind)
	// of the shortest time (top), so a plan 4% faster at six times the
	// cost does not count as quicker for a speed-up the estimate cannot
	// tell apart. The front is in cost order and faster at each step.
	top := res.Pareto[len(res.Pareto)-1]
	tol := FastestTolerance(kind)
	res.Quickest = res.Pareto[tieAt(rows, res.Pareto, tol)]
	// The faster alternative shown beside the cheapest (Result.Fastest):
	// the quickest, by the same tie, of the front rows that cost at most
	// AltCostBound × the cheapest's, where it runs at least AltMinSpeedup
	// × as fast as the cheapest (AltCostBound says why those two numbers).
	in := len(res.Pareto)
	for in > 1 && rows[res.Pareto[in-1]].cost > rows[cheap].cost*AltCostBound {
		in--
	}
	at := tieAt(rows, res.Pareto[:in], tol)
	fast := res.Pareto[at]
	pick, topIn := fast, res.Pareto[in-1] // the bound's quickest, by the tie and without it
	switch {
	case fast == cheap && in == len(res.Pareto):
		// The cheapest is the quickest plan, or ties with it: it is the
		// fastest pick too.
	case fast == cheap || rows[cheap].time < rows[fast].time*AltMinSpeedup:
		fast = -1
	}
	res.Cheapest, res.Fastest = cheap, fast
	// The best value lies within the bound too, between the cheapest and
	// the bound's quickest (the pick, where there is one): a row of the
	// tie the pick won is no better value than the pick.
	value := knee(rows, res.Pareto[:at+1])
	res.Value = value

	// Runner-up: the next fitting row in the same order.
	cr := &rows[cheap]
	switch {
	case cheap != lowest:
		lo := &rows[lowest]
		cr.Why = Reason{Key: MsgReasonCheapestTie, Args: []any{label(cr), costText(cr, kind, res), percent(CostTolerance), label(lo),
			costText(lo, kind, res), ratio(lo.time, cr.time)}}
	case len(fit) > 1 && ownTie(cr, &rows[fit[1]]):
		cr.Why = Reason{Key: MsgReasonCheapestOwnTie, Args: []any{label(cr), costText(cr, kind, res), label(&rows[fit[1]])}}
	case len(fit) > 1 && twin(cr, &rows[fit[1]]):
		// "the runner-up costs 1.00× as much for 1.00× the speed" said
		// the same plan twice (a provider's twin instance types, or one
		// type in two regions): the sentence names it as equal.
		cr.Why = Reason{Key: MsgReasonCheapestTwin, Args: []any{label(cr), costText(cr, kind, res), label(&rows[fit[1]])}}
	case len(fit) > 1:
		ru := &rows[fit[1]]
		cr.Why = Reason{Key: MsgReasonCheapest, Args: []any{label(cr), costText(cr, kind, res), label(ru),
			ratio(ru.cost, cr.cost), ratio(cr.time, ru.time)}}
	default:
		cr.Why = Reason{Key: aloneKey(rows, cr), Args: []any{label(cr), costText(cr, kind, res)}}
	}
	cr.Recommendation = RecCheapest
	// The front rows dearer than the alternative may be say what they
	// would buy, and why they are not it.
	for _, i := range res.Pareto[in:] {
		r := &rows[i]
		r.Why = Reason{Key: MsgReasonPastBound, Args: []any{label(r), ratio(cr.time, r.time), ratio(r.cost, cr.cost), altBound()}}
	}
	// Each dearer row of the tie within the bound says why the pick
	// passed it over.
	var fastTie Reason
	if pick != topIn {
		fr, tr := &rows[pick], &rows[topIn]
		for _, i := range res.Pareto[slices.Index(res.Pareto, pick)+1 : in] {
			r := &rows[i]
			r.Why = Reason{Key: MsgReasonFastestPassed, Args: []any{label(r), ratio(fr.time, r.time), label(fr),
				percent(tol), ratio(r.cost, fr.cost)}}
		}
		fastTie = Reason{Key: MsgReasonFastestTie, Args: []any{label(fr), ratio(cr.time, fr.time), ratio(fr.cost, cr.cost), timeText(fr, kind),
			percent(tol), altBound(), label(tr), timeText(tr, kind)}}
		if pick == cheap {
			fastTie = Reason{Key: MsgReasonFastestCheapestTie, Args: []any{label(fr), timeText(fr, kind), percent(tol), label(tr),
				timeText(tr, kind), ratio(fr.cost, tr.cost)}}
		}
	}
	switch {
	case fast < 0:
		// No faster alternative: the cheapest says what the quickest
		// plan would buy.
		tr := &rows[top]
		res.WhyFastest = Reason{Key: MsgReasonNoAlternative, Args: []any{label(cr), altBound(), percent(AltMinSpeedup - 1), label(tr),
			ratio(cr.time, tr.time), ratio(tr.cost, cr.cost)}}
	case fast == cheap && fastTie.Key != NoMsg:
		// The cheapest plan won the tie for the fastest too.
		res.WhyFastest = fastTie
	case fast == cheap:
		res.WhyFastest = Reason{Key: MsgReasonFastestIsCheapest, Args: []any{label(cr), timeText(cr, kind)}}
	default:
		fr := &rows[fast]
		fr.Why = fastTie
		if fastTie.Key == NoMsg {
			fr.Why = Reason{Key: MsgReasonFastest, Args: []any{label(fr), ratio(cr.time, fr.time), ratio(fr.cost, cr.cost), timeText(fr, kind)}}
		}
		fr.Recommendation = RecFastest
		res.WhyFastest = fr.Why
	}
	if value != cheap && value != fast && value >= 0 {
		vr := &rows[value]
		vr.Why = Reason{Key: MsgReasonValue, Args: []any{label(vr), ratio(vr.cost, cr.cost), ratio(cr.time, vr.time)}}
		vr.Recommendation = RecValue
	}
	// Each pick's own sentence: a pick that shares its row with the
	// cheapest says so, instead of repeating the cheapest's sentence.
	res.WhyCheapest, res.WhyValue = cr.Why, Reason{}
	if value >= 0 {
		res.WhyValue = rows[value].Why
	}
	switch {
	case value == cheap:
		res.WhyValue = Reason{Key: MsgReasonValueIsCheapest, Args: []any{label(cr), altBound()}}
	case value == fast && fast != cheap:
		// "Fastest" only where the alternative is the quickest plan
		// overall; one inside the cost bound with a quicker plan past it
		// is the faster alternative (the page titles its card so).
		key := MsgReasonValueIsFastest
		if fast != res.Quickest {
			key = MsgReasonValueIsFaster
		}
		res.WhyValue = Reason{Key: key, Args: []any{label(&rows[fast]), ratio(rows[fast].cost, cr.cost), ratio(cr.time, rows[fast].time)}}
	}
}

// tieAt is the index in front (a cost–time front in cost order, faster at
// each step) of its cheapest row within tol of its shortest time, the
// last row's: a lead inside tol is one the estimate cannot tell apart,
// and the cheaper row wins it (FastestTolerance).
func tieAt(rows []Row, front []int, tol float64) int {
	t := rows[front[len(front)-1]].time
	return slices.IndexFunc(front, func(i int) bool { return rows[i].time <= t*(1+tol) })
}

// AltCostBound and AltMinSpeedup are the rule for the faster alternative
// a plan shows beside its cheapest pick (Result.Fastest): the quickest
// plan on the cost–time front (nothing cheaper runs at least as fast)
// whose cost is at most AltCostBound × the cheapest's, shown only where
// it runs at least AltMinSpeedup × as fast as the cheapest. Both are
// judgements, not measurements (estimates):
//
//   - 2×: one doubling of the cheapest bill, the step CSC's scalability
//     criterion judges a fleet by (scaleOutSpeedup: a doubling must buy
//     1.5× the speed). The cheapest pick sets the user's budget; an
//     alternative that costs more than twice it is another budget, not a
//     faster way to spend this one. Without a bound the alternative was
//     the front's last row, whatever its price: a LoRA of Llama 3.1 8B
//     on 1B tokens showed 128 H100s at 7.6× the cheapest plan's cost, a
//     DeepSeek-R1 service at 100 req/s a GB200 rack at 4.4×. The dearer
//     front rows stay in the table, each saying what it would buy
//     (reason.past_bound).
//   - 1.2×: a lead under a fifth is within the reach of two plans'
//     speed errors in opposite directions (each row's spread about the
//     model, FastestTolerance, is 7–11%), so the estimate cannot promise
//     it; the plan then shows no alternative and says what the quickest
//     plan would buy (reason.no_alternative).
const (
	AltCostBound  = 2.0
	AltMinSpeedup = 1.2
)

// altBound is AltCostBound as a reason's whole-number argument ("2×").
func altBound() int { return int(AltCostBound) }

// aloneKey is the sentence of a cheapest pick cr alone among the rows the
// picks rest on. Rows on a stale, estimated or far-below-median price that
// fit too are passed over, not unfit: "the only plan that fits on an
// unflagged price" then, where cr's own price is unflagged; "on a price
// flagged no worse than its own" where cr's price is flagged too (every
// fitting price of the job is: a GPU with no fresh price, the picks' own
// warning says verify); and "the only plan that fits" where no other row
// fits at all, so a stale pick is never called unflagged.
func aloneKey(rows []Row, cr *Row) Msg {
	passed := false // another fitting row, passed over for its price
	for i := range rows {
		passed = passed || rows[i].Fits && rows[i].PassedOver.Key != NoMsg
	}
	switch {
	case !passed:
		return MsgReasonCheapestOnly
	case trust(cr) > 0:
		return MsgReasonCheapestFlagged
	}
	return MsgReasonCheapestAlone
}

// CostTolerance is how much cheaper a slower plan must be to count as
// cheaper: 1%, for the reason frontTolerance is (a cost is a time ×
// a price, so it carries the speed model's uncertainty): a plan cheaper
// by less is a tie, and the faster one wins it.
const CostTolerance = 0.01

// frontTolerance is how much faster a dearer plan must be to count as
// faster on the cost–time front: 1%, well inside the speed model's own
// uncertainty band (±10% and wider, estimator.Perf.Uncertainty), so a
// plan that is "faster" by less is a tie, and the cheaper one wins it.
const frontTolerance = 0.01

// FastestTolerance is how much faster the fastest plan must be than a
// cheaper plan on the front to be the fastest pick, for a job of this
// kind: a plan faster by less is faster inside the speed model's own
// error, and the cheaper plan is the fastest pick. Each kind compares its
// own statistic (Row.RankedSeconds), so each has its own tolerance, read
// from the measured error of that statistic. The part of the model's
// error that does not cancel when two plans are compared under one model
// is the spread of its errors about their median: the median absolute
// deviation (MAD) of the rows of a docs/accuracy.md group, on the test
// and the held-back splits. Each tolerance is the smaller of the two,
// rounded down to a whole per cent: a lead the model's row-to-row error
// can reverse goes to the cheaper plan, and a plan the estimate puts
// further ahead stays the fastest pick. It differs from frontTolerance,
// which keeps a row off the front; the rows of the tie stay on the front,
// each saying why the pick passed it over (reason.fastest_passed).
func FastestTolerance(kind Kind) float64 {
	switch kind {
	case Serving:
		return FastestToleranceServing
	case Batch:
		return FastestToleranceBatch
	}
	return FastestToleranceTraining
}

// FastestToleranceTraining is a training job's FastestTolerance: 7%.
// Its time is the job's wall time; the MAD of the rows of
// docs/accuracy.md "training time" (rightsize validate, 2026-11) is 9.1%
// on the test split (n = 24, median error −12.2%, median |error| 13.4%)
// and 7.4% held back (n = 14, median error −16.9%, median |error| 16.9%).
const FastestToleranceTraining = 0.07

// FastestToleranceServing is an online serving plan's FastestTolerance:
// 9%. Its time is the end-to-end time of a request at p95, TTFT p95 +
// (output − 1) × mean TPOT (serve.go), which the TPOT term carries: at
// the InferenceX points of docs/accuracy.md's load groups TTFT is a
// median 2.7% of the measured mean end-to-end time. The MAD of the rows
// of "load TPOT" (mean TPOT at load, InferenceX, rightsize validate
// 2026-11) is 11.8% on the test split (n = 77, median error −0.1%,
// median |error| 11.8%) and 9.0% held back (n = 49, median error −5.7%,
// median |error| 10.5%): 9%. The end-to-end time rebuilt from the same
// points' mean TTFT and mean TPOT, measured and estimated, spreads alike
// (MAD 12.2% test, 9.5% held back).
const FastestToleranceServing = 0.09

// FastestToleranceBatch is a batch-inference job's FastestTolerance: 11%.
// Its time is the job's wall time, its requests over the replicas'
// throughput; the MAD of the rows of docs/accuracy.md "load
// throughput/GPU" (output tokens/s per GPU at load, InferenceX,
// rightsize validate 2026-11) is 11.7% on the test split (n = 399, median
// error +5.3%, median |error| 10.8%) and 11.8% held back (n = 283,
// median error +7.3%, median |error| 9.9%): 11%.
const FastestToleranceBatch = 0.11

// WhyNot explains row i when it is not recommended: the first plan on the
// Pareto front that ranks before it (at least as cheap, to the cent) and is
// at least as fast. Rows carry no such
// sentence by default, so that re-planning a thousand offers stays cheap;
// callers ask for the rows they show. It returns the row's own Why when it
// has one, its fit reason when it does not fit, and why the picks pass it
// over (Row.PassedOver) when they do.
func (res *Result) WhyNot(i int) Reason {
	if i < 0 || i >= len(res.Rows) {
		return Reason{}
	}
	r := &res.Rows[i]
	if !r.Fits {
		return r.FitReason
	}
	if r.Why.Key != NoMsg {
		return r.Why
	}
	if r.PassedOver.Key != NoMsg {
		return r.PassedOver
	}
	// The fastest front row ranked before it (no dearer to the cent), or
	// dearer by no more than CostTolerance, is as fast (it dominates),
	// within frontTolerance of its time, or faster at a cost the
	// estimate cannot tell from its own.
	best := -1
	for _, j := range res.Pareto {
		if (j < i || res.Rows[j].cost <= r.cost*(1+CostTolerance)) && (best < 0 || res.Rows[j].time < res.Rows[best].time) {
			best = j
		}
	}
	if best < 0 {
		return Reason{}
	}
	f := &res.Rows[best]
	if f.cost > r.cost && f.time < r.time {
		return Reason{Key: MsgReasonCostTie, Args: []any{label(r), label(f), percent(CostTolerance), ratio(r.time, f.time)}}
	}
	if f.time <= r.time {
		return Reason{Key: MsgReasonNone, Args: []any{label(r), label(f)}}
	}
	return Reason{Key: MsgReasonTie, Args: []any{label(r), label(f), percent(frontTolerance)}}
}

// percent is a tolerance as a whole per cent, for the reasons' "1%".
func percent(share float64) int { return int(math.Round(100 * share)) }

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if !(b > 0) {
		return 0
	}
	return a / b
}

// knee is the best value on the cost–time front: the point with the least
// cost × time, ties to the cheaper. Log scales make a 2× saving count the
// same at any price and in either currency, money or hours, so from this
// point a dearer plan on the front buys less speed than its price rises
// and a cheaper one saves less money than it slows down: the sentences the
// value pick is given ("no dearer plan buys enough speed for its cost",
// "… × the cheapest plan's cost for … × its speed") hold by construction.
// On a smooth convex front it is where the front's slope in log cost
// against log time is −1, the knee for equal weights (Satopää et al. 2011,
// "Finding a 'Kneedle' in a Haystack", ICDCS workshops, take the point
// farthest below the chord between the ends instead; that point is
// undefined for two points and fell back to the cheapest, so a plan 1.33×
// the cost for 45× the speed was not the best value).
func knee(rows []Row, front []int) int {
	if len(front) == 0 {
		return -1
	}
	best, bestV := front[0], math.Inf(1)
	for _, i := range front {
		v := math.Log(math.Max(rows[i].cost, 1e-300)) + math.Log(math.Max(rows[i].time, 1e-300))
		// Strictly better by more than rounding: ties keep the cheaper
		// (the front is in cost order).
		if v < bestV-1e-12 {
			best, bestV = i, v
		}
	}
	return best
}

// trim keeps the Top best fitting rows plus the recommended ones, the
// disaggregated alternative's aggregated row (DisaggPlan.Base) and the
// first Top rows on the user's own price, and the first Top unfit rows when they
// were kept (Options.KeepUnfit), keeping the indexes right.
func (res *Result) trim(top int) {
	keep := make([]bool, len(res.Rows))
	n, unfit, own := 0, 0, 0
	for i := range res.Rows {
		switch {
		case res.Rows[i].Offer.UserPrice && own < top:
			// The user's own: listed whatever their rank, up to Top of
			// them (a sheet of 100,000 offers listed every one).
			keep[i] = true
			own++
		case res.Rows[i].Fits && n < top:
			keep[i] = true
			n++
		case !res.Rows[i].Fits && unfit < top:
			keep[i] = true
			unfit++
		}
	}
	for _, i := range []int{res.Cheapest, res.Fastest, res.Quickest, res.Value, res.CheaperFlagged, res.Disagg.Base(res.Rows)} {
		if i >= 0 {
			keep[i] = true
		}
	}
	if n := len(res.Pareto); n > 0 {
		// The shortest time, which the picks' sentences name (a tie the
		// fastest pick won, FastestTolerance; what no alternative buys).
		keep[res.Pareto[n-1]] = true
	}
	idx := make([]int, len(res.Rows))
	var rows []Row
	for i := range res.Rows {
		idx[i] = -1
		if keep[i] {
			idx[i] = len(rows)
			rows = append(rows, res.Rows[i])
		}
	}
	re := func(i int) int {
		if i < 0 {
			return -1
		}
		return idx[i]
	}
	res.Cheapest, res.Fastest, res.Quickest, res.Value, res.CheaperFlagged = re(res.Cheapest), re(res.Fastest), re(res.Quickest), re(res.Value), re(res.CheaperFlagged)
	var front []int
	for _, i := range res.Pareto {
		if j := re(i); j >= 0 {
			front = append(front, j)
		}
	}
	res.Pareto = front
	res.Rows = rows
}

// hostedBatch notes a batch job's cheapest self-hosted plan against the
// cheapest hosted API for the model at its dated list price, which bills
// the job's tokens: requests × (prompt × in + output × out) / 10⁶. A serving
// plan sets each API against it at the target rate (hosted); a batch job
// has no rate, but its bill is as plain, and an API at half the cost of
// the cheapest rented plan is the answer a practitioner gives first.
func (p *planner) hostedBatch(res Result) {
	if p.req.Workload.Kind != Batch || len(p.req.HostedAPIs) == 0 || res.Cheapest < 0 {
		return
	}
	var api *HostedAPI
	var usd float64
	for i := range p.req.HostedAPIs {
		h := &p.req.HostedAPIs[i]
		if h.AsOf == "" {
			continue // the catalog's prices are dated; a batch takes no price of the user's
		}
		c := p.req.Workload.Requests * h.RequestUSD(p.prompt, p.output)
		if api == nil || c < usd {
			api, usd = h, c // HostedAPIs are in ID order: ties keep the first
		}
	}
	if api == nil {
		return
	}
	best := &res.Rows[res.Cheapest]
	cost := Money{Amount: p.display(usd), Currency: res.Currency}
	key := MsgHostedBatchSelf
	if cost.Amount < best.RankedCostDisp {
		key = MsgHostedBatchAPI
	}
	p.note(Reason{Key: key, Args: []any{api.ID, api.InputUSDPerMillion, api.OutputUSDPerMillion, api.AsOf, cost, label(best), costText(best, Batch, &res)}})
}

// breakEven is where self-hosting at unit USD a month per replica, each
// replica carrying at most mu requests/s, costs less than an API billing
// perRPS USD a month for each request/s: be, the rate where one replica's
// month equals the API's bill (0 where one replica never gets there, at
// mu or below), and above, the rate past which self-hosting costs less at
// every rate. The replicas a rate needs grow by whole ones, ⌈λ/mu⌉, so
// the bill is a saw and the API's a line: just past n·mu, n + 1 replicas
// bill (n + 1)·unit against the API's n·mu·perRPS, less only from
// n ≥ N = ⌈mu·perRPS / (mu·perRPS − unit)⌉ on; below that the (N − 1)th
// replica's stretch is won above (N − 1)·unit / perRPS. With N = 2 that is
// be, and past be self-hosting wins throughout; with N ≥ 3 the second
// replica costs more than the API's tokens at the rate that needs it
// (DeepSeek-R1 at 1,000/1,000 tokens on 8 H200s, 15,184 USD a month for
// 16.2 req/s, against an API at 0.25 USD per 1M tokens: one replica wins
// from 11.6 req/s, two lose at 20, and self-hosting wins at every rate
// only from 34.7 req/s).
func breakEven(unit, perRPS, mu float64) (be, above float64) {
	if !(unit > 0) || !(perRPS > 0) || !(mu > 0) {
		return 0, 0
	}
	be = unit / perRPS
	d := mu*perRPS - unit
	if !(be <= mu) || !(d > 0) {
		return 0, 0
	}
	n := math.Ceil(mu * perRPS / d)
	return be, math.Max(be, (n-1)*unit/perRPS)
}

// hosted compares each hosted API with the cheapest self-hosted row at the
// target rate, cheapest API at that rate first. The API bills tokens: λ × 730 h × 3,600 s × (prompt × in +
// output × out) / 10⁶ per month. Self-hosting bills whole replicas, so at
// rates one replica sustains it costs one replica's month; the break-even
// rate is where the API's bill reaches that (docs/planning.md, "Cost per token
// and per job").
func (p *planner) hosted(res Result) []HostedComparison {
	if p.req.Workload.Kind != Serving || len(p.req.HostedAPIs) == 0 {
		return nil
	}
	var best *Row
	if res.Cheapest >= 0 {
		best = &res.Rows[res.Cheapest]
	}
	lam := p.req.Workload.RequestsPerSecond
	out := make([]HostedComparison, 0, len(p.req.HostedAPIs))
	for _, h := range p.req.HostedAPIs {
		perReq := h.RequestUSD(p.prompt, p.output)
		hc := HostedComparison{API: h, MonthlyCostUSD: lam * HoursPerMonth * 3600 * perReq}
		if best == nil {
			// Nothing self-hosted to set against the API: say so, with no
			// bill of 0 beside it.
			hc.Why = Reason{Key: MsgHostedNoFit, Args: []any{h.ID}}
		} else {
			hc.SelfHostedUSD = best.MonthlyCostUSD
			unit := best.MonthlyCostUSD / float64(max(best.Replicas, 1))
			be, above := breakEven(unit, HoursPerMonth*3600*perReq, best.SustainableRPSPerReplica)
			switch {
			case !(be > 0):
				hc.Why = Reason{Key: MsgHostedNever, Args: []any{h.ID}}
			case above > be:
				hc.BreakEvenRPS, hc.AlwaysAboveRPS = be, above
				hc.Why = Reason{Key: MsgHostedCheaperThanAPIAbove, Args: []any{label(best), h.ID, be, best.SustainableRPSPerReplica, above}}
			default:
				hc.BreakEvenRPS, hc.AlwaysAboveRPS = be, be
				hc.Why = Reason{Key: MsgHostedCheaperThanAPI, Args: []any{label(best), h.ID, be}}
			}
		}
		out = append(out, hc)
	}
	// Cheapest at the target rate first; ties keep the API's ID order.
	estimator.SortStable(out, func(a, b *HostedComparison) int {
		return cmp.Or(cmp.Compare(a.MonthlyCostUSD, b.MonthlyCostUSD), cmp.Compare(a.API.ID, b.API.ID))
	})
	return out
}
