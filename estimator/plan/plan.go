package plan

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// HoursPerMonth is the billing month cloud price lists use: 8,760 h / 12
// (AWS, GCP and Azure monthly estimates use 730 h).
const HoursPerMonth = 730

// Defaults for the Assumptions and Workload fields left at zero. Each is an
// assumption, shown next to the plan and editable.
const (
	// DefaultMaxUtilisation: docs/planning.md (Erlang C section): real arrivals
	// are burstier than Poisson, keep target utilisation below ~0.7–0.8.
	DefaultMaxUtilisation = 0.8
	// DefaultTTFTSeconds and DefaultTPOTSeconds: the serving targets a
	// plan holds when the user sets none: the first token within 2 s
	// (longer for long prompts: DefaultTTFT), then 10 tokens/s per user
	// or better, at the SLO statistic (p95). MLPerf Inference's server
	// scenario bounds its chat-length benchmarks alike: TTFT 2 s for
	// Llama 2 70B, Llama 3.1 8B, Mixtral 8x7B and DeepSeek-R1, TPOT
	// 100 ms for Llama 3.1 8B (at p99: mlcommons/inference_policies
	// inference_rules.adoc, benchmark table, 2026-07-23;
	// mlcommons/inference loadgen/mlperf.conf). Without a target a plan
	// sizes replicas to DefaultMaxUtilisation of their capacity alone,
	// which leaves a KV-bound replica of few slots queueing requests for
	// tens of seconds (Gemma 3 27B on 13 × A100 80GB: p95 TTFT 43 s).
	// The CLI's --tpot and the page's field default to DefaultTPOTSeconds,
	// an unset --ttft-p95 or TTFT field to DefaultTTFT (Workload.
	// TTFTByDefault); 0 sets no target.
	DefaultTTFTSeconds = 2
	DefaultTPOTSeconds = 0.1
	// DefaultCheckpointWriteBytesPerSecond: assumption, one cloud block
	// volume's write throughput (AWS EBS gp3 volumes are provisioned up
	// to 1,000 MiB/s, AWS EBS User Guide, "General Purpose SSD volumes").
	DefaultCheckpointWriteBytesPerSecond = 1000 * float64(estimator.MiB)
	// DefaultRestartSeconds: assumption, re-provisioning an instance and
	// reloading weights and optimizer state after a reclaim; editable.
	DefaultRestartSeconds = 600
	// DefaultNetworkGbps: assumption for offers whose inter-node network
	// the catalog does not give: a 100 Gbit/s Ethernet NIC; editable.
	DefaultNetworkGbps = 100
	// DefaultSpotInterruptionsPerMonth: assumption for offers without an
	// AWS Spot Advisor bucket: 20% of instances reclaimed per month, the
	// lower edge of the Advisor's worst bucket (">20%"); editable.
	DefaultSpotInterruptionsPerMonth = 0.20
	// defaultMaxInstances bounds a plan's instances.
	defaultMaxInstances = 64
)

// spotBuckets turns AWS Spot Advisor buckets ("frequency of interruption:
// the rate at which Spot has reclaimed capacity during the trailing month",
// EC2 Spot Instance Advisor; docs/planning.md) into a monthly
// share: the bucket's midpoint, and 25% for ">20%". An assumption: the
// bucket is a range, not a rate.
var spotBuckets = map[string]float64{"<5%": 0.025, "5-10%": 0.075, "10-15%": 0.125, "15-20%": 0.175, ">20%": 0.25}

// SpotInterruptionsPerMonth is the monthly reclaim share assumed for a
// bucket, and whether the bucket is known.
func SpotInterruptionsPerMonth(bucket string) (float64, bool) {
	f, ok := spotBuckets[bucket]
	if !ok {
		return DefaultSpotInterruptionsPerMonth, false
	}
	return f, true
}

// bad is an out-of-range request field.
func bad(field string, v float64, reason string) error {
	return &estimator.InputError{Field: field, Value: formatNumber(v), Err: estimator.ErrRange, Reason: reason}
}

const maxValue = 1e18

func okPos(v float64) bool    { return v > 0 && v <= maxValue }
func okNonNeg(v float64) bool { return v >= 0 && v <= maxValue }

// Validate checks the request: the estimator input, the workload for its
// kind, the assumptions and the FX table. It returns errors.Join of
// *estimator.InputError values, one per bad field.
func (r Request) Validate() error {
	var errs []error
	in := r.Input
	if in.GPUs == 0 {
		in.GPUs, in.TP, in.PP = 1, 1, 1
	}
	in.ZeRO = max(in.ZeRO, r.zeroFloor())
	if err := in.Validate(); err != nil {
		errs = append(errs, err)
	}
	// A layout the user fixed for a block-quantised checkpoint at a TP
	// that splits its blocks: the plan refuses what its launch would
	// (startable; the estimate alone only warns).
	if why := estimator.BlockRefusal(in); in.TP > 1 && why != "" {
		errs = append(errs, &estimator.InputError{Field: "tp", Value: strconv.Itoa(in.TP), Err: estimator.ErrIncompatible, Reason: why})
	}
	w := r.Workload
	switch w.Kind {
	case Training:
		if !r.Input.Task.Training() {
			errs = append(errs, &estimator.InputError{Field: "task", Value: r.Input.Task.String(), Err: estimator.ErrIncompatible, Reason: "a training plan needs a training task"})
		}
		if !okPos(w.TrainTokens) {
			errs = append(errs, bad("train-tokens", w.TrainTokens, "want tokens > 0"))
		}
		if !okNonNeg(w.GlobalBatchTokens) {
			errs = append(errs, bad("global-batch-tokens", w.GlobalBatchTokens, "want tokens ≥ 0"))
		}
	case Batch, Serving:
		if r.Input.Task.Training() {
			errs = append(errs, &estimator.InputError{Field: "task", Value: r.Input.Task.String(), Err: estimator.ErrIncompatible, Reason: "an inference plan needs --task inference"})
		}
		if w.PromptTokens < 0 || w.PromptTokens > 1<<24 || (w.PromptTokens == 0 && w.OutputTokens != 0) {
			errs = append(errs, bad("prompt-tokens", float64(w.PromptTokens), "want 1..16777216"))
		}
		if w.OutputTokens < 0 || w.OutputTokens > 1<<24 {
			errs = append(errs, bad("output-tokens", float64(w.OutputTokens), "want 0..16777216"))
		}
		// A request longer than the model's context (the config's
		// max_position_embeddings, Arch.MaxPositions) is refused by the
		// engines: vLLM takes --max-model-len from it and refuses a longer
		// one (vllm/config.py _get_and_verify_max_len), SGLang's
		// --context-length likewise, and a learned position table (GPT-2,
		// BERT) has no row for it. GPT-2 (1,024) was sized at the default
		// 2,048 tokens a request without a word. A mix of request sizes
		// is checked at the mean request it is given as (PromptTokens,
		// OutputTokens), not where it names only its longest
		// (MaxRequestTokens); a fixed-size input (ViT) is not this
		// check's.
		if a := r.Input.Arch; a.ServeContext() > 0 && a.SeqLen == 0 {
			// The field to mend: the sequence where the request is it
			// (the page's and the CLI's prompt is --seq less the output).
			field, n := "prompt-tokens", w.requestTokens(r.Input.Seq)
			if n == r.Input.Seq {
				field = "seq"
			}
			if n > a.ServeContext() {
				errs = append(errs, &estimator.InputError{Field: field, Value: strconv.Itoa(n), Err: estimator.ErrRange,
					Reason: overContext(a, n)})
			}
		}
		if w.Kind == Batch && !okPos(w.Requests) {
			errs = append(errs, bad("requests", w.Requests, "want requests > 0"))
		}
		// A request here is a prompt prefilled and output tokens decoded
		// against a KV cache (Kwon et al., SOSP 2023). A rightsize-generic
		// model (diffusion, vision, speech) has no attention layout to
		// time that with, so a batch of its "requests" came out 75× faster than
		// FLUX.1's ~15 s a 1024² image on an H100; an encoder (BERT) keeps
		// no KV cache, so at a rate its KV pool held no request and every
		// offer failed without saying why.
		if a := r.Input.Arch; a.Generic() || (w.Kind == Serving && a.Encoder) {
			why := "a rightsize-generic model (diffusion, convolutional, speech or encoder–decoder: FLUX.1, ResNet, Whisper, T5) has no decoder layout to time prompt and output tokens with: rightsize estimate gives its memory"
			if !a.Generic() {
				why = "an encoder keeps no KV cache and generates no tokens: serving at a rate plans decoders; plan its embedding job with --requests"
			}
			errs = append(errs, &estimator.InputError{Field: "model", Value: a.ModelType, Err: estimator.ErrIncompatible, Reason: why})
		}
		// A GGUF format (Q4_K_M and kin) is llama.cpp's: the estimator
		// runs it there only (Input.Validate), as vLLM's docs call its
		// GGUF loader "highly experimental and under-optimized" (vLLM,
		// "GGUF"), and a rate is served on a continuous-batching engine
		// (note.serving_engine). Planned anyway, every offer's estimate
		// failed and was refused as if the model did not fit: an 8B at
		// Q4_K_M, 4.9 GB, had "one instance does not hold it" on 903
		// offers.
		if w.Kind == Serving && r.Input.Quant.GGUF() {
			errs = append(errs, &estimator.InputError{Field: "quant", Value: r.Input.Quant.String(), Err: estimator.ErrIncompatible,
				Reason: "a GGUF format runs on llama.cpp, and serving at a rate is planned on the continuous-batching engines (vLLM, SGLang, TensorRT-LLM), which do not run it: plan 4-bit weights as --precision int4 (AWQ or GPTQ, Marlin kernels on vLLM), or the GGUF model as a batch job (--requests)"})
		}
		if w.Kind == Serving {
			if !okPos(w.RequestsPerSecond) {
				errs = append(errs, bad("requests-per-second", w.RequestsPerSecond, "want a rate > 0"))
			}
			if !okNonNeg(w.TTFTP95Seconds) {
				errs = append(errs, bad("ttft-p95", w.TTFTP95Seconds, "want seconds ≥ 0"))
			}
			if !okNonNeg(w.TPOTSeconds) {
				errs = append(errs, bad("tpot", w.TPOTSeconds, "want seconds ≥ 0"))
			}
			if !w.SLOStat.Valid() {
				errs = append(errs, sim.StatError(w.SLOStat.String())) // the text ParseSLOStat gives
			}
			if !(w.MaxUtilisation >= 0 && w.MaxUtilisation <= 1) {
				errs = append(errs, bad("max-utilisation", w.MaxUtilisation, "want a fraction in (0, 1] (0: default)"))
			}
		}
	default:
		errs = append(errs, bad("workload", float64(w.Kind), "unknown workload kind"))
	}
	a := r.Assumptions
	if !(a.SpotInterruptionsPerMonth >= 0 && a.SpotInterruptionsPerMonth <= 1000) {
		errs = append(errs, bad("spot-interruptions", a.SpotInterruptionsPerMonth, "want a monthly share ≥ 0"))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"checkpoint-write", a.CheckpointWriteBytesPerSecond}, {"restart", a.RestartSeconds}, {"network-gbps", a.NetworkGbps}} {
		if !okNonNeg(f.v) {
			errs = append(errs, bad(f.name, f.v, "want a value ≥ 0 (0: default)"))
		}
	}
	for _, e := range []struct {
		name string
		v    float64
	}{{"mfu", a.Efficiency.MFU}, {"inference-mfu", a.Efficiency.InferenceMFU}, {"bandwidth-util", a.Efficiency.BandwidthUtil}} {
		if !(e.v >= 0 && e.v <= 1) {
			errs = append(errs, bad(e.name, e.v, "want a fraction in (0, 1] (0: default)"))
		}
	}
	if g := a.Goodput; !(g >= 0 && g <= 1) {
		errs = append(errs, bad("goodput", g, "want a share in (0, 1] (0: estimated from the GPU count)"))
	}
	f := r.Filters
	if !okNonNeg(f.BudgetUSD) {
		errs = append(errs, bad("budget", f.BudgetUSD, "want an amount ≥ 0"))
	}
	if !okNonNeg(f.DeadlineSeconds) {
		errs = append(errs, bad("deadline", f.DeadlineSeconds, "want a duration ≥ 0"))
	}
	if !okNonNeg(f.MinRAMGiB) || f.MinVCPUs < 0 {
		errs = append(errs, bad("min-ram", f.MinRAMGiB, "want ≥ 0"))
	}
	for _, x := range r.FX {
		if !okPos(x.PerUSD) {
			errs = append(errs, bad("fx", x.PerUSD, x.Currency+": want a rate > 0"))
		}
	}
	if r.FreshnessDays < 0 || r.FreshnessDays > maxFreshnessDays {
		errs = append(errs, &estimator.InputError{Field: "freshness-days", Value: strconv.Itoa(r.FreshnessDays), Err: estimator.ErrRange,
			Reason: "want a window of 1 to 36500 days (0: the default, 180)"})
	}
	if c := r.currency(); c != "USD" {
		if _, ok := r.rate(c); !ok {
			errs = append(errs, &estimator.InputError{Field: "currency", Value: c, Err: estimator.ErrUnknown, Reason: "no exchange rate"})
		}
	}
	for _, h := range r.HostedAPIs {
		if !okNonNeg(h.InputUSDPerMillion) || !okNonNeg(h.OutputUSDPerMillion) {
			errs = append(errs, bad("api-price", h.OutputUSDPerMillion, h.ID+": want prices ≥ 0"))
		}
	}
	return errors.Join(errs...)
}

func (r Request) currency() string {
	if r.Currency == "" {
		return "USD"
	}
	return strings.ToUpper(r.Currency)
}

// rate is units of currency per USD.
func (r Request) rate(currency string) (FXRate, bool) {
	if strings.EqualFold(currency, "USD") {
		return FXRate{Currency: "USD", PerUSD: 1}, true
	}
	for _, x := range r.FX {
		if strings.EqualFold(x.Currency, currency) && x.PerUSD > 0 {
			return x, true
		}
	}
	return FXRate{}, false
}

// planner holds one Plan call's settings and memo tables: offers share
// GPUs and shapes, so each memory estimate and speed estimate is computed
// once per distinct setup.
type planner struct {
	req       Request
	opts      Options
	in        estimator.Input // the job with the workload's sequence and engine
	work      estimator.Workload
	prompt    float64
	output    float64
	disp      FXRate
	fits      map[fitKey]fitOut
	needs     map[fitKey]needOut
	hostWarn  map[hostKey]HostCheck // the sizing rules' warnings, per host shape
	shapeBuf  []copyShape
	slab      []Row // tech rows are carved from it
	scaleRows []Row // scaleOut's scratch: one offer's priced fleets
	stepRow   Row   // scaleOut's scratch: a batch ladder's fleet as a row
	perfs     map[perfKey]perfOut
	serves    map[perfKey]*serveCurve // curves live in curveSlab
	curveSlab []serveCurve
	techs     map[techNum]int32 // index into techSlots: the last slot with those numbers
	techSlots []techSlot
	shapes    map[shapeKey]shapeOut
	hints     map[gpuMem]int // GPUs the last training plan on this memory size needed
	rates     []rateMemo
	ckpt      float64
	maxInst   int
	notes     *noteLog // shared with the sub-planners: their notes are the plan's
	// own is the fit reason of each shape of the user's own offers that
	// one instance does not hold (ownShortfall).
	own map[techKey]Reason
	// subs plan the same job with one setting changed: the 16-bit weights
	// that run where the job's format has no kernel (estimator.SupportFor),
	// or a rental memory layout (rentalRow), one planner per variant.
	subs map[variant]*planner
	// rental: this planner plans a rental layout (no further variants).
	rental bool
	// dataParallel: this rental planner tries data-parallel shapes only
	// (TP 1, PP 1: StackDataParallel), a fine-tune's first choice.
	dataParallel bool
	// bare: this planner fits training layouts with no margin
	// (trainMargin), to tell a layout that fits only inside it.
	bare bool
	// batchVLLM: a batch job with no engine given, planned on vLLM by
	// the planner (Request.EngineOpen), not by the user.
	batchVLLM bool
	// relaxed: this planner plans a longer TTFT target than the default
	// for its cheapest pick alone (relaxDefaultTTFT): no disaggregated
	// search, no hosted API comparison.
	relaxed bool
}

// fitKey is a memory memo's key: the fields the planner varies, the
// attention-DP and EP layout included (it moves the KV cache and the
// experts each GPU holds).
type fitKey struct {
	mem                               gpuMem
	gpus, tp, pp, zero, batch, dp, ep int
}

// layoutKey is the ZeRO stage (0..3) and the memory's pipeline schedule
// in one key field: a plan that chooses the layout per shape
// (resolveLayout) estimates each with its schedule, and the keys keep
// their size (the serving memo's too).
func layoutKey(in estimator.Input) int { return in.ZeRO + 4*in.Schedule.VirtualStages }

// perfKey is a speed memo's key. It stays within 128 bytes (128 now),
// which Go maps store inline (a larger key is allocated per entry): the
// counts are int32, and settings beyond that range are not memoised
// (mkPerfKey).
type perfKey struct {
	hw                                    estimator.Hardware
	mem                                   gpuMem
	gpus, tp, pp, zero, batch, mb, dp, ep int32
}

// mkPerfKey is the key of a setup (counts: GPUs, TP, PP, ZeRO, batch,
// micro-batches, attention DP, EP), and false when a count does not fit
// in an int32.
func mkPerfKey(hw estimator.Hardware, mem gpuMem, counts ...int) (perfKey, bool) {
	var c [8]int32
	for i, v := range counts {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return perfKey{}, false
		}
		c[i] = int32(v)
	}
	return perfKey{hw, mem, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]}, true
}

// perfOut is the part of an estimator.Perf the planner reads.
type perfOut struct {
	stepSeconds, commSeconds, tokensPerStep             float64 // training
	tokensPerSecond, prefillTokensPerSecond, decodeStep float64
	bound                                               estimator.Bound
	ok                                                  bool
	virtualStages                                       int32 // training: the schedule the step ran (in ok's padding)
}

// Plan plans req on every offer and ranks the results. It returns an
// error only for an invalid request; offers that cannot run the job come
// back as unfit rows with their reasons (Options.KeepUnfit).
func Plan(req Request, offers []Offer, opts Options) (Result, error) {
	if err := req.Validate(); err != nil {
		return Result{}, err
	}
	if dl := req.assumedDeadline(); dl > 0 {
		return planAssumed(req, offers, opts, dl), nil
	}
	return newPlanner(req, opts, len(offers)).plan(offers), nil
}

// plan plans p's request on every offer (Plan, after validation); the
// planner keeps its memoised curves for a caller that sizes more.
func (p *planner) plan(offers []Offer) Result {
	req, opts := p.req, p.opts
	res := Result{Cheapest: -1, Fastest: -1, Quickest: -1, Value: -1, CheaperFlagged: -1, Currency: req.currency(), FXAsOf: p.disp.AsOf, CheckpointBytes: p.ckpt,
		FreshnessDays: req.freshness()}
	// A training or batch row may add a scaled-out fleet, at most one
	// per offer, listed behind the rows kept. A batch's requests are
	// independent, so most of its fitting offers add one (the default
	// page job: 943 rows and 907 fleets over 1,127 offers), and its array
	// has room for them from the start; a training plan's fleets pay
	// less often (a Llama 3.1 8B fine-tune: 515 and 130) and fit in the
	// room the offers filtered out or unfit leave. A row is large: an
	// array grown by appends allocated several times the rows returned.
	spare := 0
	if req.Workload.Kind == Batch {
		spare = len(offers)
	}
	rows := make([]Row, len(offers), len(offers)+spare)
	var scaled []*Row // each its scaling's own fleet
	// While no offer fits, each unfit offer's refusal (Result.Unfit).
	var refused []refusal
	// past is the cheapest serving offer the instance limit alone
	// refused (pastLimitNote).
	var past pastLimitOffer
	// noFX counts the offers left out for want of an exchange rate, by
	// currency (noFXNotes).
	var noFX noFXCount
	fits := false
	n := 0
	for i := range offers {
		o := &offers[i]
		if !p.passes(o) {
			continue // filtered out: not a candidate, not listed
		}
		res.Considered++
		opts.yield()
		// Planned in place: a row is large, and most are kept.
		r := &rows[n]
		p.row(o, r)
		r.Stale = stale(o, res.FreshnessDays)
		past.consider(r, req.Filters.BudgetUSD)
		switch r.FitReason.Key {
		case MsgFitOverBudget:
			res.OverBudget++
		case MsgFitPastDeadline:
			res.PastDeadline++
		case MsgFitNoFX:
			noFX.add(o.Currency)
		}
		if sc := r.scale; sc != nil {
			// A training or batch row's scaled-out fleet is a row of its
			// own; where no doubling pays, the fewest instances say why.
			r.scale = nil
			if sc.row != nil {
				s := sc.row
				scaledRow(r, sc)
				s.Stale = r.Stale
				markUnchecked(s, p.ownUnchecked(o))
				scaled = append(scaled, s)
			} else {
				r.Notes = append(slices.Clip(r.Notes), sc.stop)
			}
		}
		if k := r.FitReason.Key; !r.Fits && r.Offer.UserPrice && (k == MsgFitNoFabric || k == MsgFitSpanNode) {
			// The user's own machines: how many GPUs one of them would
			// need, or the network between them, theirs to state in the
			// sheet's row (set here, not in tooBig: rows of one shape
			// share their fit reason).
			r.FitReason = p.ownShortfall(o)
		}
		markUnchecked(r, p.ownUnchecked(o))
		if fits = fits || r.Fits; !fits {
			refused = append(refused, refusal{r.Offer, r.Engine, r.FitReason})
		}
		if !r.Fits && !opts.KeepUnfit && !r.Offer.UserPrice {
			continue
		}
		n++
	}
	if need := n + len(scaled); need <= cap(rows) {
		clear(rows[n:len(offers)])
		rows = rows[:need]
	} else {
		rows = append(make([]Row, 0, need), rows[:n]...)[:need]
	}
	for i, s := range scaled {
		rows[n+i] = *s
	}
	// The ranking and the picks are slices of work of their own: a
	// caller's yield may give the thread away before each, as between
	// offers.
	opts.yield()
	rows = rank(rows)
	opts.yield()
	passOver(rows, res.FreshnessDays)
	rows = pruneScaled(rows)
	opts.yield()
	for i := range rows {
		r := &rows[i]
		if r.Fits {
			res.Fitting++
		}
		r.RankedCostDisp, r.RankedSeconds = p.display(r.cost), r.time
	}
	res.Rows = rows
	p.noFXNotes(noFX)
	if res.Fitting == 0 {
		res.Unfit = make([]Row, len(refused))
		for i, f := range refused {
			res.Unfit[i] = Row{Offer: f.offer, Engine: f.engine, FitReason: f.why}
		}
	}
	recommend(&res, req.Workload.Kind)
	if p.relaxed {
		return res
	}
	opts.yield()
	res.CheaperFlagged = cheaperFlagged(&res)
	p.pastLimitNote(&res, past)
	p.relaxDefaultTTFT(&res, offers)
	// The disaggregated alternative is searched over every fitting row,
	// before the table is cut to Top (which keeps the row its workers
	// take their settings from): a plan's alternative is the one its
	// launch writes whatever rows it lists.
	opts.yield()
	res.Disagg = p.disagg(&res)
	if opts.Top > 0 {
		res.trim(opts.Top)
	}
	opts.yield()
	res.Hosted = p.hosted(res)
	p.hostedBatch(res)
	res.Notes = p.notes.list
	return res
}

// noFXCount is the offers a plan left out for want of an exchange rate,
// by currency, in the order first met.
type noFXCount struct {
	currencies []string
	n          []int
}

func (c *noFXCount) add(currency string) {
	for i, x := range c.currencies {
		if x == currency {
			c.n[i]++
			return
		}
	}
	c.currencies, c.n = append(c.currencies, currency), append(c.n, 1)
}

// noFXNotes says, for each currency with no exchange rate, how many offers
// priced in it the plan left out (fit.no_fx): an unfit row is listed only
// with Options.KeepUnfit, so without the note the answer changed without a
// word where a price sheet or a catalog row names a currency the FX table
// lacks.
func (p *planner) noFXNotes(c noFXCount) {
	for i, cur := range c.currencies {
		// One note a currency, where note keeps one a key.
		p.noteAs(MsgNoteNoFX.String()+" "+cur, Reason{Key: MsgNoteNoFX, Args: []any{cur, c.n[i]}})
	}
}

// refusal is an unfit row's offer, engine and reason (Result.Unfit).
type refusal struct {
	offer  *Offer
	engine estimator.Engine
	why    Reason
}

func newPlanner(req Request, opts Options, offers int) *planner {
	// The memo tables (needs, fits, shapes, perfs, serves, hints) are
	// made on first use (memo).
	p := &planner{req: req, opts: opts, techs: make(map[techNum]int32, min(offers, 256)), techSlots: make([]techSlot, 0, min(offers, 256)), notes: &noteLog{seen: map[string]bool{}}}
	p.disp, _ = req.rate(req.currency())
	p.maxInst = opts.MaxInstances
	if p.maxInst <= 0 {
		p.maxInst = defaultMaxInstances
	}
	req = req.WithDefaultTTFT()
	p.req = req
	in := req.Input
	w := req.Workload
	// A batch job runs its engine offline (vLLM's LLM class), with no API
	// server streaming its tokens (estimator.Input.Offline).
	in.Offline = w.Kind == Batch
	if w.Kind != Training {
		// The estimator's lengths: a model that generates nothing (an
		// encoder, ViT) has no output tokens to count a batch job's work
		// in (the planner's own halves of the sequence counted half of
		// each input as output, and timed a batch of either at about
		// twice the estimate's speed).
		pr, o := estimator.SampleLengths(in, estimator.Workload{PromptTokens: w.PromptTokens, OutputTokens: w.OutputTokens})
		prompt, out := int(pr), int(o)
		p.prompt, p.output = pr, o
		p.work = estimator.Workload{PromptTokens: prompt, OutputTokens: out}
		if in.Arch.SeqLen == 0 || in.Arch.Generic() {
			in.Seq = prompt + out
		}
	}
	if req.EngineOpen {
		// No engine given: the one the job runs on (AutoEngine), for
		// any GPU here and offer by offer in row (a batch row on HF
		// transformers where vLLM does not run the job).
		e, why := AutoEngine(in, w.Kind, estimator.GenUnknown)
		in.Engine, p.batchVLLM = e, w.Kind == Batch && e == estimator.VLLM
		if why.Key != NoMsg {
			p.note(why)
		}
	}
	if w.Kind == Serving && !in.Engine.Pooled() {
		// An engine given without continuous batching (HF transformers,
		// llama.cpp) serving at a rate is planned as vLLM, as AutoEngine
		// plans a serving job. SGLang and TensorRT-LLM are planned as
		// themselves, with their own schedulers (estimator/sim).
		in.Engine = estimator.VLLM
		p.note(Reason{Key: MsgNoteServingEngine})
	}
	if n := w.longestRequest(in.Seq); w.Kind != Training && in.Arch.SeqLen == 0 && in.Arch.CardContext > 0 && n > in.Arch.CardContext && n <= in.Arch.ServeContext() {
		// Past the card's context, inside the config's: the engines
		// serve it (vLLM's --max-model-len defaults to the config's
		// max_position_embeddings, Mistral NeMo's 1,024,000 positions),
		// on positions the model's card does not claim (NeMo's 128k).
		p.note(Reason{Key: MsgNotePastCardContext, Args: []any{n, in.Arch.CardContext, in.Arch.ServeContext()}})
	}
	if z := req.zeroFloor(); in.ZeRO < z {
		in.ZeRO = z
		p.note(Reason{Key: MsgNoteBF16StatesZero})
	}
	if c := max(in.TP, 1) * max(in.PP, 1); w.Kind != Training && req.FixedParallelism && in.GPUs > c {
		// A serving or batch layout's GPUs past TP × PP are copies of
		// the engine, as the estimate reads them (--gpus 2 --tp 1 is two
		// data-parallel replicas, twice one's tokens/s; attention DP and
		// EP sit inside the TP group): the planner's copy is TP × PP
		// GPUs and an instance holds as many as it has room for. A copy
		// of the layout's GPUs ran one engine of TP × PP on them and
		// billed the rest idle (2 A100s at one A100's requests/s).
		in.GPUs = c
	}
	p.in = in
	if w.Kind == Training {
		p.ckpt = checkpointBytes(in)
	}
	return p
}

// zeroFloor is the lowest ZeRO stage the planner searches where the user
// gave none (ZeROOpen): 1 for bf16 optimizer states, which a distributed
// optimizer keeps (apex DistributedFusedAdam, as NeMo's recipes set it:
// estimator.Input.BF16OptimizerStates), else 0.
func (r Request) zeroFloor() int {
	if r.ZeROOpen && r.Input.BF16OptimizerStates {
		return 1
	}
	return 0
}

// noteLog is the plan's notes, each key once, in the order first noted.
type noteLog struct {
	seen map[string]bool
	list []Reason
}

func (p *planner) note(r Reason) { p.noteAs(r.Key.String(), r) }

// noteAs adds r to the plan's notes unless a note of key is there.
func (p *planner) noteAs(key string, r Reason) {
	if p.notes.seen[key] {
		return
	}
	p.notes.seen[key] = true
	p.notes.list = append(p.notes.list, r)
}

// noted reports whether the note key is already in the plan's notes (so
// callers need not build its arguments again).
func (p *planner) noted(m Msg) bool { return p.notes.seen[m.String()] }

// InRegion reports whether a region the offer lists (Regions, or Region
// where Regions is empty) starts with prefix, case aside: "cn-north-1"
// matches cn-north-1 and its local zone cn-north-1-pkx-1.
func (o *Offer) InRegion(prefix string) bool {
	in := func(r string) bool { return RegionMatches(r, prefix) }
	if len(o.Regions) == 0 {
		return in(o.Region)
	}
	return slices.ContainsFunc(o.Regions, in)
}

// RegionMatches reports whether region starts with the region filter's
// prefix, case aside ("eu-west" matches eu-west-1).
func RegionMatches(region, prefix string) bool {
	return region != "" && strings.HasPrefix(strings.ToLower(region), strings.ToLower(prefix))
}

// passes applies the filters that do not need a plan.
func (p *planner) passes(o *Offer) bool {
	f := p.req.Filters
	if f.GPU != "" && o.GPU != f.GPU && o.Chip != f.GPU {
		return false
	}
	if len(f.Providers) > 0 && !slices.ContainsFunc(f.Providers, func(s string) bool { return strings.EqualFold(s, o.Provider) }) {
		return false
	}
	// The kinds sort the market's listings by how far a plan can rest on
	// them (catalog.DefaultKinds leaves marketplaces and decentralised
	// networks out); the user's own price is not a listing, so a rate
	// negotiated on a marketplace's provider is planned whatever the kinds.
	if len(f.Kinds) > 0 && !o.UserPrice && !slices.ContainsFunc(f.Kinds, func(s string) bool { return strings.EqualFold(s, o.ProviderKind) }) {
		return false
	}
	// The user's own row that leaves a filter's column empty is kept and
	// marked, not dropped (ownUnchecked says why).
	unchecked := p.ownUnchecked(o)
	if len(f.Countries) > 0 && !slices.Contains(unchecked, ColumnCountry) && !slices.ContainsFunc(f.Countries, func(s string) bool { return strings.EqualFold(s, o.Country) }) {
		return false
	}
	if len(f.Regions) > 0 && !slices.Contains(unchecked, ColumnRegion) && !slices.ContainsFunc(f.Regions, o.InRegion) {
		return false
	}
	if f.MinVCPUs > 0 && !slices.Contains(unchecked, ColumnVCPUs) && o.VCPUs < f.MinVCPUs {
		return false
	}
	if f.MinRAMGiB > 0 && !slices.Contains(unchecked, ColumnRAM) && o.RAMGiB < f.MinRAMGiB {
		return false
	}
	return true
}

// support is what the job's engine runs on o's GPU for the job's weights
// (estimator.SupportFor, the one table of what runs where).
func (p *planner) support(o *Offer) estimator.Support {
	return estimator.SupportForJob(o.Hardware.Generation, p.in)
}

// supportNote is the row note of a plan that runs other weights than the
// job asked for: the asked format, the one that runs, and the GPU's
// generation.
func (p *planner) supportNote(o *Offer, s estimator.Support) Reason {
	key := MsgNoteWeightsSubstituted
	switch s.Why {
	case estimator.SupportNoBF16:
		key = MsgNoteFP16ForBF16
	case estimator.SupportNoFP16Model:
		kv := p.sub(variant{weights: s.Weights, offload: p.in.Offload}).in.KV // as sub sets it
		return Reason{Key: MsgNoteFP16RefusedModel, Args: []any{p.in.Arch.ModelType, o.Hardware.Generation.String(), s.Weights.String(), kv.String()}}
	case estimator.SupportNoQuantModel:
		kv := p.sub(variant{weights: s.Weights, offload: p.in.Offload}).in.KV
		return Reason{Key: MsgNoteQuantRefusedModel, Args: []any{p.in.Weights.String(), p.in.Arch.ModelType, o.Hardware.Generation.String(), s.Weights.String(), kv.String()}}
	}
	return Reason{Key: key, Args: []any{p.in.Weights.String(), o.Hardware.Generation.String(), s.Weights.String()}}
}

// variant is the settings a sub-planner changes.
type variant struct {
	weights estimator.DType
	offload estimator.Offload
	// rental: a rental layout (rentalRow) with activation checkpointing
	// ckpt, ZeRO from stage 0 and no CPU offload; dataParallel keeps it
	// to TP 1 and PP 1.
	rental, ckpt, dataParallel bool
	// hf: the batch job on HF transformers where the planner would have
	// chosen vLLM (AutoEngine at the offer's GPU).
	hf bool
	// bare: training layouts fitted with no margin (planner.bare).
	bare bool
}

// sub is the planner of the job with v's settings: the same request,
// options and workload, its own memo tables.
func (p *planner) sub(v variant) *planner {
	if q, ok := p.subs[v]; ok {
		return q
	}
	req := p.req
	req.Input.Weights, req.Input.Offload = v.weights, v.offload
	if v.weights == estimator.FP32 && p.req.Input.Weights != estimator.FP32 && (req.Input.KV == estimator.BF16 || req.Input.KV == estimator.FP16) {
		// fp32 that runs for 16-bit weights (a model vLLM refuses in fp16,
		// estimator.SupportNoFP16Model) keeps its KV cache in fp32 too:
		// vLLM's --kv-cache-dtype auto is the model's dtype (vllm
		// config/cache.py CacheConfig.cache_dtype, read 2026-11-30), and
		// the launch sets no other 16-bit one.
		req.Input.KV = estimator.FP32
	}
	if v.hf {
		req.Input.Engine, req.EngineOpen = estimator.HF, false
	}
	if v.rental {
		// The rental's own layout: FSDP's no_sync accumulation (the
		// default of the user's accumulating ZeRO-3 fine-tune,
		// Input.FSDPNoSync) belongs to the user's layout as ZeRO does,
		// unless the user said it (FSDPNoSyncGiven).
		req.Input.ZeRO, req.Input.GradCheckpointing = 0, v.ckpt
		if !req.FSDPNoSyncGiven {
			req.Input.FSDPNoSync = false
		}
	}
	q := newPlanner(req, p.opts, 0)
	q.rental, q.dataParallel, q.notes, q.bare = v.rental, v.dataParallel, p.notes, v.bare
	if p.subs == nil {
		p.subs = map[variant]*planner{}
	}
	p.subs[v] = q
	return q
}

// rentalRow plans a training job on o with the memory layout a rented
// fleet would choose, and reports whether it did (r then holds that plan,
// noted where it differs from the user's settings). ZeRO stage,
// activation checkpointing and CPU offload are how a job fits the user's
// own few GPUs: offload (DeepSpeed ZeRO-Offload, Ren et al. 2021) at a
// large cost in speed, checkpointing at about a third more compute
// (Korthikanti et al. 2022, §4: a full recompute of the forward pass),
// ZeRO-3 at 1.5× ZeRO-2's traffic (Rajbhandari et al. 2020, §7.2.2). A
// rental plan chooses its own: no offload, the lowest ZeRO stage that
// fits (fitTraining's search from stage 0), and checkpointing on or off,
// whichever costs less; the user's settings are constraints only where
// the user fixed the parallelism (Request.FixedParallelism). An offer
// that holds the job only with offload is not a rental plan: its row
// says it does not fit.
//
// A fine-tune (full or LoRA; QLoRA is data-parallel only, fitTraining)
// tries data-parallel shapes first, TP 1 and PP 1 with ZeRO sharding
// and checkpointing on or off (StackDataParallel): fine-tunes of a
// Hugging Face checkpoint run on FSDP or DeepSpeed ZeRO-3 with
// activation checkpointing (transformers' Trainer with
// --gradient_checkpointing; torchtune's full-finetune recipes with
// enable_activation_checkpointing: True), which --emit fsdp|deepspeed
// writes, and recomputing costs about one forward pass more per step
// (Korthikanti et al. 2022, §4: ~33% more compute), which the estimate
// counts in the step time the cost is ranked on. A tensor- or pipeline-
// parallel split, which needs Megatron-LM or NeMo and a checkpoint
// conversion, is planned only when no data-parallel shape fits the
// offer.
//
// A job planned for LitGPT's scripts (Request.LitGPT) is laid out as
// they run it, or not at all (litgptRuns): the cheaper of one GPU
// without checkpointing and FSDP full shard with every Block recomputed,
// no offload, over every GPU of the instances rented. Its layout is not
// the fleet's choice, so the rental notes do not say it is; its stack
// note says what runs it.
func (p *planner) rentalRow(o *Offer, r *Row) bool {
	if p.req.Workload.Kind != Training || p.req.FixedParallelism || p.rental {
		return false
	}
	var best Row
	if t := p.in.Task; t == estimator.FullFinetune || t == estimator.LoRA || p.req.LitGPT {
		best = p.rentalBest(o, true)
	}
	if !best.Fits && !p.req.LitGPT {
		best = p.rentalBest(o, false)
	}
	*r = best
	if r.Fits && !p.req.LitGPT {
		p.rentalNotes(r)
	}
	if r.scale != nil && r.scale.row != nil && !p.req.LitGPT {
		p.rentalNotes(r.scale.row)
	}
	return true
}

// overContext is the refusal of a request of n tokens over a's context:
// the engines refuse it (vLLM takes --max-model-len from
// max_position_embeddings, SGLang --context-length likewise). Where the
// model's card reaches n with a RoPE scaling its config leaves out
// (Arch.ScaledContext: the Qwen2.5 model cards, "Processing Long Texts",
// YaRN to 131,072 tokens), it says that setting and where it goes.
func overContext(a estimator.Arch, n int) string {
	ctx := a.ServeContext()
	s := "a request of " + strconv.Itoa(n) + " tokens is over the model's context of " + strconv.Itoa(ctx) + " (max_position_embeddings)"
	if ctx < a.MaxPositions {
		s = "a request of " + strconv.Itoa(n) + " tokens is over the context of " + strconv.Itoa(ctx) + " tokens the served instruction-tuned checkpoint's config.json declares (max_position_embeddings; the pretrained one's is " + strconv.Itoa(a.MaxPositions) + ")"
	}
	s += ", which the engines refuse"
	if a.ScaledContext >= n {
		return s + "; its model card reaches " + strconv.Itoa(a.ScaledContext) + " tokens with YaRN: add \"rope_scaling\": " + a.ScaledRope +
			" to config.json and set max_position_embeddings to " + strconv.Itoa(a.ScaledContext) +
			" (vLLM --hf-overrides, SGLang --json-model-override-args; the card warns it may cost quality on short texts), and plan with that config (--config), or plan requests within " +
			strconv.Itoa(ctx) + " tokens"
	}
	return s + ": plan requests within it (--seq, --prompt-tokens and --output-tokens, or a --workload of shorter requests)"
}

// rentalNotes says where rental row r's memory layout differs from the
// user's settings.
func (p *planner) rentalNotes(r *Row) {
	var notes []Reason
	if p.in.Offload != estimator.OffloadNone {
		notes = append(notes, Reason{Key: MsgNoteRentalNoOffload, Args: []any{p.in.Offload.String()}})
	}
	// The row's stack note (finish) says its ZeRO stage already.
	if r.GradCheckpointing != p.in.GradCheckpointing || r.ZeRO != p.in.ZeRO {
		key := MsgNoteRentalLayoutNoCkpt
		if r.GradCheckpointing {
			key = MsgNoteRentalLayoutCkpt
		}
		notes = append(notes, Reason{Key: key})
	}
	if len(notes) > 0 {
		r.Notes = append(slices.Clip(r.Notes), notes...)
	}
}

// rentalBest is the cheaper rental layout on o of checkpointing off and
// on, data-parallel shapes only when dataParallel is set; a row that does
// not fit (with the user's checkpointing) when neither fits.
func (p *planner) rentalBest(o *Offer, dataParallel bool) Row {
	var best Row
	// The scaled-out fleet is the faster of the two layouts' (by more
	// than frontTolerance, else the cheaper): a layout that needs
	// checkpointing on its fewest instances may not on many more.
	var scale *scaling
	for i, ckpt := range [2]bool{false, true} {
		if ckpt && best.Fits && best.Instances == 1 && (dataParallel || best.TP*best.PP == 1) && !p.req.LitGPT {
			// Checkpointing fits a data-parallel shape on no fewer
			// than one instance, at the same price per hour, and
			// recomputes: never cheaper. A split by TP or PP on one
			// instance may give way to TP 1 with checkpointing, which
			// is priced. LitGPT's checkpointed layout is FSDP over
			// more GPUs than one, another fleet: priced too.
			break
		}
		var c Row
		// Each layout's row is a slice of work of its own (Options.Yield).
		p.opts.yield()
		p.sub(variant{weights: p.in.Weights, rental: true, ckpt: ckpt, dataParallel: dataParallel}).row(o, &c)

		if sc := c.scale; sc != nil && sc.row != nil {
			if f := sc.row; scale == nil || f.time < scale.row.time*(1-frontTolerance) ||
				!(scale.row.time < f.time*(1-frontTolerance)) && f.cost < scale.row.cost {
				scale = sc
			}
		}
		switch {
		case i == 0,
			c.Fits && (!best.Fits || c.JobCostUSD < best.JobCostUSD),
			!c.Fits && !best.Fits && ckpt == p.in.GradCheckpointing && !p.req.LitGPT,
			// LitGPT's FSDP layout (checkpointed) holds the most per
			// offer: its reason, unless the other came within the margin.
			!c.Fits && !best.Fits && p.req.LitGPT && best.FitReason.Key != MsgFitInsideMargin,
			// Neither fits, and this layout misses only by the margin:
			// the row says how close it came.
			!c.Fits && !best.Fits && c.FitReason.Key == MsgFitInsideMargin && best.FitReason.Key != MsgFitInsideMargin:
			best = c
		}
	}
	if scale != nil && scale.row.Instances > best.Instances &&
		best.time >= math.Pow(scaleOutSpeedup, math.Log2(float64(scale.row.Instances)/float64(best.Instances)))*scale.row.time {
		// The other layout's fleet, where it passes scaleOut's rule
		// against best, the row its note sets it against (the rule held
		// against that layout's own fewest instances only, so Llama
		// 3.1 405B's LoRA listed a fleet "scaled out from 9 to 16
		// instances: 1.16× as fast … for 1.54× the cost"). Else best
		// keeps its own note of where scaling stops.
		best.scale = scale
	}
	return best
}

// price is the offer's hourly price under the request's pricing, native
// currency, with VAT removed when asked.
func (p *planner) price(o *Offer, pr Pricing) float64 {
	var v float64
	switch pr {
	case OnDemand:
		v = o.OnDemandPerHour
		if monthlyOnly(o) {
			v = o.MonthlyPrice / HoursPerMonth
		}
	case Spot:
		v = o.SpotPerHour
		if o.SpotFarBelow && p.req.Pricing != Spot {
			// A flagged spot price prices no daily fleet nor side column;
			// a spot plan still lists it, passed over (trust).
			v = 0
		}
	case Reserved1y:
		v = o.Reserved1yPerHour
	case Reserved3y:
		v = o.Reserved3yPerHour
	}
	return p.vat(o, v)
}

// vat normalises a VAT-inclusive price: price_excl = price_incl / (1 +
// VAT) (docs/planning.md, "Currency and tax").
func (p *planner) vat(o *Offer, v float64) float64 {
	if p.req.ExcludeVAT && o.PricesIncludeVAT && o.VATRate > 0 {
		return v / (1 + o.VATRate)
	}
	return v
}

// rate is Request.rate memoised per currency (offers repeat a handful:
// a short list beats a map).
func (p *planner) rate(currency string) (FXRate, bool) {
	for i := range p.rates {
		if p.rates[i].Currency == currency {
			x := p.rates[i].x
			return x, x.PerUSD > 0
		}
	}
	x, ok := p.req.rate(currency)
	p.rates = append(p.rates, rateMemo{currency, x})
	return x, ok
}

// rateMemo is one currency's rate (x.PerUSD 0: none).
type rateMemo struct {
	Currency string
	x        FXRate
}

// usd converts a native amount to USD; ok is false without a rate.
func (p *planner) usd(o *Offer, v float64) (float64, bool) {
	x, ok := p.rate(o.Currency)
	if !ok {
		return 0, false
	}
	return v / x.PerUSD, true
}

func (p *planner) display(usd float64) float64 { return usd * p.disp.PerUSD }

// row plans one offer into r, whatever r held.
func (p *planner) row(o *Offer, r *Row) {
	price := p.price(o, p.req.Pricing)
	if !(price > 0) {
		*r = Row{Offer: o, Pricing: p.req.Pricing, FitReason: Reason{Key: MsgFitNoPrice, Args: []any{p.req.Pricing.String()}}}
		return
	}
	x, ok := p.rate(o.Currency)
	if !ok {
		*r = Row{Offer: o, Pricing: p.req.Pricing, FitReason: Reason{Key: MsgFitNoFX, Args: []any{o.Currency}}}
		return
	}
	priceUSD := price / x.PerUSD // usd
	if !o.HasHardware || !(o.GPUCount > 0) || o.GPUMemory <= 0 {
		*r = Row{Offer: o, Pricing: p.req.Pricing, FitReason: Reason{Key: MsgFitNoHardware}}
		r.PricePerHour, r.PricePerHourUSD, r.PricePerHourDisp = price, priceUSD, p.display(priceUSD)
		return
	}
	sup := p.support(o)
	if p.batchVLLM {
		if e, why := AutoEngine(p.in, Batch, o.Hardware.Generation); e == estimator.HF {
			p.sub(variant{weights: p.in.Weights, offload: p.in.Offload, hf: true}).row(o, r)
			r.Notes = append(slices.Clip(r.Notes), why)
			if r.scale != nil && r.scale.row != nil {
				s := r.scale.row
				s.Notes = append(slices.Clip(s.Notes), why)
			}
			return
		}
	}
	if !sup.Runs {
		why := Reason{Key: MsgFitEngineGPU, Args: []any{p.in.Engine.String(), o.Hardware.Generation.String()}}
		if sup.Why == estimator.SupportNoEngineRelease {
			why = Reason{Key: MsgFitEngineRelease, Args: []any{p.in.Engine.String(), estimator.EngineRelease(p.in).String(),
				o.Hardware.Generation.String(), estimator.FirstReleaseWithout(p.in.Engine, o.Hardware.Generation).String()}}
		}
		*r = Row{Offer: o, Pricing: p.req.Pricing, Engine: p.in.Engine, Weights: p.in.Weights, FitReason: why}
		r.PricePerHour, r.PricePerHourUSD, r.PricePerHourDisp = price, priceUSD, p.display(priceUSD)
		return
	}
	if sup.ReplannedFor(p.in) {
		// Planned whole with the weights that run: their memory, speed
		// and cost, and the note that says so.
		p.sub(variant{weights: sup.Weights, offload: p.in.Offload}).row(o, r)
		r.Notes = append(slices.Clip(r.Notes), p.supportNote(o, sup))
		if r.scale != nil && r.scale.row != nil {
			s := r.scale.row
			s.Notes = append(slices.Clip(s.Notes), p.supportNote(o, sup))
		}
		return
	}
	if p.rentalRow(o, r) {
		return
	}
	var notes []Reason
	if sup.Substituted() {
		notes = append(notes, p.supportNote(o, sup))
	}
	if o.PricesIncludeVAT && o.VATRate > 0 {
		if p.req.ExcludeVAT {
			notes = append(notes, Reason{Key: MsgNoteVATExcluded, Args: []any{100 * o.VATRate}})
		} else {
			notes = append(notes, Reason{Key: MsgNoteVATIncluded, Args: []any{100 * o.VATRate}})
		}
	}
	// priced is a tech row t (the price-free plan of o's hardware) as o's
	// plan at its price: the row itself, and each fleet of a training
	// row's ladder (scaleOut).
	priced := func(t, r *Row) {
		*r = *t
		r.Offer, r.Pricing, r.Engine, r.Weights, r.KV = o, p.req.Pricing, p.in.Engine, sup.Weights, p.in.KV
		r.PricePerHour, r.PricePerHourUSD, r.PricePerHourDisp = price, priceUSD, p.display(priceUSD)
		r.FXAsOf = x.AsOf
		r.ladder = nil
		if len(t.Notes) > 0 || len(notes) > 0 {
			r.Notes = append(slices.Clip(t.Notes), notes...)
		}
	}
	t := p.tech(o)
	priced(t, r)
	if !r.Fits {
		return
	}
	p.finish(o, r)
	if t.ladder != nil && (r.Fits || r.FitReason.Key == MsgFitPastDeadline) {
		r.scale = p.scaleOut(o, r, t.ladder, priced)
	}
}

// finish prices a fitting row r on o (the job's bill), names the stack
// of a training layout, checks the host and applies the budget and the
// deadline.
func (p *planner) finish(o *Offer, r *Row) {
	switch p.req.Workload.Kind {
	case Training:
		p.trainMoney(o, r)
		// Which stack runs the layout, so a launch is never refused
		// unannounced (catalog/launch's training emitters judge by
		// TrainStack too).
		in := p.in
		in.TP, in.PP, in.ZeRO, in.EP, in.CP = r.TP, r.PP, r.ZeRO, max(r.EP, p.in.EP), max(r.CP, p.in.CP)
		in.GPUs = max(r.DP, 1) * max(r.TP, 1) * max(r.PP, 1) * max(in.CP, 1)
		in.GradCheckpointing, in.Offload = r.GradCheckpointing, r.Offload
		r.Notes = append(slices.Clip(r.Notes), p.stackNote(in))
		if r.wide.Key != NoMsg {
			r.Notes = append(r.Notes, r.wide)
		}
		if r.idle != nil {
			r.Notes = append(r.Notes, p.idleNote(r))
		}
		if n := p.fineTuneBatchNote(r); n.Key != NoMsg {
			r.Notes = append(r.Notes, n)
		}
	case Batch:
		p.batchMoney(o, r)
	case Serving:
		p.servingMoney(o, r)
		if r.Fits && r.Replicas == 1 && r.Pricing != Spot {
			// One replica serves the whole rate: sized, not redundant.
			// Said, so N+1 is the user's choice (spot plans add their
			// spare: spot.serving).
			r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteNoSpare, Args: []any{100 * r.Utilisation}})
		}
	}
	p.reserved(o, r)
	if n := p.rentalNote(o, r); n.Key != NoMsg {
		r.Notes = append(slices.Clip(r.Notes), n)
	}
	if o.AccountsLocalOnly && !slices.ContainsFunc(p.req.Filters.Countries, func(c string) bool { return strings.EqualFold(c, o.Country) }) {
		// Renting it needs a legal entity of that country (AWS's China
		// regions): a user who did not ask for that country's providers
		// learns it from the plan, not from the sign-up form.
		r.Notes = append(slices.Clip(r.Notes), Reason{Key: MsgNoteAccountsLocal, Args: []any{o.Country}})
	}
	p.hostCheck(o, r)
	if r.Host.Status == HostFail {
		r.Fits = false
		r.FitReason = r.Host.Reason
	}
	if peak := o.Hardware.PeakFLOPS * o.GPUCount / 1e12; peak > 0 {
		r.USDPerDenseTFLOPSHour = r.PricePerHourUSD / peak
	}
	// Budget and deadline.
	f := p.req.Filters
	if r.Fits && f.BudgetUSD > 0 && r.cost > f.BudgetUSD {
		r.Fits, r.FitReason = false, Reason{Key: MsgFitOverBudget}
	}
	// The deadline holds the time the row is ranked on, as the budget
	// holds its cost: on spot the expected time with reclaims,
	// checkpoints and restarts (SpotExpectedSeconds, Daly), not the
	// uninterrupted JobSeconds.
	if r.Fits && f.DeadlineSeconds > 0 && p.req.Workload.Kind != Serving && r.time > f.DeadlineSeconds {
		r.Fits, r.FitReason = false, Reason{Key: MsgFitPastDeadline}
	}
}

// techKey is what a plan's shape and speed depend on: offers that share it
// (the same GPU sold by many providers in the same shape) share one plan
// and differ only in price.
type techKey struct {
	gpu          string
	hw           estimator.Hardware
	mem          estimator.Bytes
	count        float64
	interconnect string
	nvlink, rack int
	// unit: the rental unit (Offer.RentalUnit) sets which shape rents
	// the fewest instances.
	unit    int
	network float64
	// fabric: an offer naming its fabric without a figure may span
	// instances (hasNetwork) where one naming neither may not.
	fabric string
}

// techNum is techKey's numbers, the key of the techs index: plain
// memory hashes fast, where the full key's strings and floats (hashed one
// field at a time) cost more than the rest of a row. Floats are their
// bits with −0 as +0, so equal keys have equal numbers.
type techNum struct {
	mem                                                  estimator.Bytes
	nvlink, rack, unit                                   int
	count, network, peak, bw, link, netBW, hostLink, hop uint64
	domain                                               int
}

func fbits(f float64) uint64 {
	if f == 0 {
		return 0
	}
	return math.Float64bits(f)
}

// techSlot is one distinct techKey (that of its first offer) and its
// plan; next chains the slots whose keys share numbers (-1 ends the
// chain).
type techSlot struct {
	o    *Offer
	row  *Row
	next int32
}

// keyOf is o's techKey.
func keyOf(o *Offer) techKey {
	return techKey{o.GPU, o.Hardware, o.GPUMemory, o.GPUCount, o.Interconnect, o.NVLinkDomain, o.RackGPUs, o.RentalUnit, o.NetworkGbps, o.NetworkFabric}
}

// tech returns the price-free part of o's plan, computed once per techKey.
func (p *planner) tech(o *Offer) *Row {
	k := keyOf(o)
	h := &o.Hardware
	num := techNum{o.GPUMemory, o.NVLinkDomain, o.RackGPUs, o.RentalUnit, fbits(o.GPUCount), fbits(o.NetworkGbps), fbits(h.PeakFLOPS), fbits(h.MemBandwidth),
		fbits(h.LinkBandwidth), fbits(h.NetworkBandwidth), fbits(h.HostLinkBandwidth), fbits(h.HostOpSeconds), h.NVLinkDomain}
	head, seen := p.techs[num]
	if seen {
		for i := head; i >= 0; i = p.techSlots[i].next {
			if keyOf(p.techSlots[i].o) == k {
				return p.techSlots[i].row
			}
		}
	} else {
		head = -1
	}
	if len(p.slab) == 0 {
		p.slab = make([]Row, 32)
	}
	r := &p.slab[0]
	p.slab = p.slab[1:]
	r.Pricing = p.req.Pricing
	switch p.req.Workload.Kind {
	case Training:
		p.trainTech(o, r)
	case Batch:
		p.batchTech(o, r)
	case Serving:
		p.servingTech(o, r)
	}
	p.techs[num] = int32(len(p.techSlots))
	p.techSlots = append(p.techSlots, techSlot{o, r, head})
	return r
}

// networkGbps is the inter-node network of o in Gbit/s per instance, and
// whether it is the assumption (Assumptions.NetworkGbps, else
// DefaultNetworkGbps) rather than the catalog's figure.
func (p *planner) networkGbps(o *Offer) (float64, bool) { return networkGbps(o, p.req.Assumptions) }

// networkGbps is o's inter-node network in Gbit/s: the catalog's, else
// the request's assumption, else DefaultNetworkGbps; assumed says the
// catalog gave none.
func networkGbps(o *Offer, a Assumptions) (gbps float64, assumed bool) {
	if g := o.NetworkGbps; g > 0 {
		return g, false
	}
	if g := a.NetworkGbps; g > 0 {
		return g, true
	}
	return DefaultNetworkGbps, true
}

// fabric reports whether a plan may span several instances of o: its
// provider names the network between them (the catalog's NetworkGbps or
// NetworkFabric, with its source), or the request allows unknown networks
// (Assumptions.UnknownNetworks).
func (p *planner) fabric(o *Offer) bool {
	return o.NetworkGbps > 0 || o.NetworkFabric != "" || p.req.Assumptions.UnknownNetworks
}

// instLimit is how many instances of o one model copy (training: the job)
// may span: p.maxInst over a known fabric, else the instances that share
// one NVLink domain (rackInstances: one, or a rack's trays), which need
// no network between them.
func (p *planner) instLimit(o *Offer) int {
	if p.fabric(o) {
		return p.maxInst
	}
	return min(rackInstances(o), p.maxInst)
}

// minWideEPGbpsPerGPU is the least stated network per GPU, in Gbit/s,
// over which a wide expert-parallel copy spans instances without a named
// RDMA fabric: the 400 Gbit/s InfiniBand NDR per H100 (3,200 Gbit/s per
// 8-GPU node) of the cluster LMSYS ran its multi-node DeepSeek deployment
// on (12 nodes of 8 H100s, LMSYS, "Deploying DeepSeek with PD
// Disaggregation and Large-scale Expert Parallelism on 96 H100 GPUs",
// 2025-05), as AWS p5's 3,200 Gbit/s EFA and Azure ND H100 v5's 3,200
// Gbit/s InfiniBand.
const minWideEPGbpsPerGPU = 400

// serveNode reports whether o's instances are nodes one serving copy may
// span: several GPUs on one NVLink (or Infinity Fabric) domain. Every
// multi-node serving guide runs over such nodes: vLLM's tensor
// parallelism inside each node and pipeline stages across nodes (vLLM
// docs, "Distributed Inference and Serving", v0.8: 16 GPUs in 2 nodes of
// 8 as TP 8 × PP 2), LMSYS's DeepSeek over 8-GPU H100 nodes, SGLang's
// multi-node DeepSeek (--nnodes 2 of 8 GPUs; SGLang docs, DeepSeek
// usage), TensorRT-LLM's wide EP on GB200 NVL72 (its docs, "Wide Expert
// Parallelism"); DeepEP needs NVLink between a node's GPUs
// (deepseek-ai/DeepEP README, "Requirements"). A copy over single-GPU or
// PCIe VMs (8 g4dn.2xlarge T4s for a 30B model) sends every layer's
// traffic over the NIC where a 4- or 8-GPU instance, or a GPU with more
// memory, keeps it on one board: no practitioner rents it, whatever the
// network.
func serveNode(o *Offer) bool {
	return o.GPUCount >= 2 && gpuLink(o.Interconnect)
}

// serveInstLimit is how many instances of o one serving copy may span:
// instLimit (a stated network, or unknown networks allowed) where o's
// instances are NVLink nodes (serveNode), else one. A pipeline copy
// passes only activations from stage to stage, and vLLM's guide names no
// fabric for it (its InfiniBand advice is for tensor parallelism across
// nodes); a wide expert-parallel copy asks more (wideInstLimit).
func (p *planner) serveInstLimit(o *Offer) int {
	if !serveNode(o) {
		return 1
	}
	return p.instLimit(o)
}

// wideNetwork reports whether the network between o's instances carries
// a wide expert-parallel copy's all-to-all as the guides run it: a named
// RDMA fabric (DeepEP's internode kernels need RDMA, deepseek-ai/DeepEP
// README "Requirements"; LMSYS and SGLang run it over InfiniBand), or a
// stated bandwidth at least minWideEPGbpsPerGPU. An unstated network
// passes only where the user allows unknown networks
// (Assumptions.UnknownNetworks: they vouch for it): the catalog leaves
// most 8-GPU H100 offers' network unstated though such HGX nodes are what
// the guides ran (serveNode still keeps small VMs out). A stated network
// short of both (Ethernet below the guides' bandwidth, as 1,000 Gbit/s
// over 8 GPUs) does not pass: the row says why (note.wide_ep_network).
//
// GCP's a3-highgpu-8g and a3-megagpu-8g (GPUDirect-TCPX and -TCPXO, 800
// and 1,600 Gbit/s of GPU NICs) stay out, their fabric "ethernet": no
// source has DeepEP's internode all-to-all over them. DeepEP's internode
// and low-latency kernels run on NVSHMEM's IBGDA transport, GPUDirect
// RDMA over InfiniBand or RoCE verbs ("IBGDA is necessary", DeepEP issue
// #9, 2025-02-25; NVSHMEM's IBGDA opens mlx5 devices only, DeepEP issue
// #759, 2026-09-21; third-party/README "GPUs across different nodes
// needs to be connected by RDMA devices", DeepEP PR #201, 2025-06-10).
// TCPX/TCPXO are a TCP offload that NCCL reaches through Google's net
// plugin (google/nccl-plugin-gpudirect-tcpxo); NIXL needed a plugin of
// its own for them (ai-dynamo/nixl PR #2276, open 2026-09-18: "A3-High
// and A3-Mega VMs use an in-house IPU for the networking"), and llm-d's
// GKE wide-EP guides run on A3 Ultra and A4 over RoCE (llm-d PRs #215,
// 2025-09-12, and #1679, 2026-06-03), not on A3 Mega. Read 2026-11-30.
func (p *planner) wideNetwork(o *Offer) bool {
	switch o.NetworkFabric {
	case "efa", "infiniband", "roce":
		return true
	}
	if o.NetworkGbps > 0 {
		return o.NetworkGbps >= minWideEPGbpsPerGPU*math.Max(o.GPUCount, 1)
	}
	return o.NetworkFabric == "" && p.req.Assumptions.UnknownNetworks
}

// wideInstLimit is how many instances of o one wide expert-parallel copy
// (or disaggregated worker) may span: the instances of one NVLink domain
// (rackInstances: a GB200 NVL72 rack's 18 trays, whose all-to-all runs
// over NVLink), or serveInstLimit up to maxWideEPInstances over a network
// that carries its all-to-all (wideNetwork), whichever is more; else one.
func (p *planner) wideInstLimit(o *Offer) int {
	n := min(rackInstances(o), p.serveInstLimit(o))
	if p.wideNetwork(o) {
		n = max(n, min(p.serveInstLimit(o), maxWideEPInstances))
	}
	return n
}

// tooBig is the fit reason of a job that no allowed count of o holds: a
// serving copy's says where o's instances are not nodes it spans
// (serveNode).
func (p *planner) tooBig(o *Offer) Reason {
	switch {
	case !p.in.Task.Training() && !serveNode(o):
		return Reason{Key: MsgFitSpanNode}
	case !p.fabric(o):
		return Reason{Key: MsgFitNoFabric}
	}
	return Reason{Key: MsgFitTooBig, Args: []any{p.maxInst}}
}

// fitOut is the part of an estimator.Result the planner reads (the whole
// Result is large, and the memo tables hold hundreds of them per plan).
type fitOut struct {
	Fits                                       bool
	Headroom, HostOffload                      estimator.Bytes
	MaxConcurrentSeqs, TrainableParams, Params int64
}

// needOut is a training setup's peak memory per GPU, whatever the GPU.
type needOut struct {
	ok                      bool
	peak, hostOffload       estimator.Bytes
	trainableParams, params int64
}

// estimate memoises estimator.Estimate over the fields the planner varies;
// an invalid setup does not fit. Training needs the same memory per GPU
// on any GPU and fits where its peak is at most the usable memory
// (estimator.Result.Fits: Result.Peak, the larger of the step and of
// loading a base quantised on the GPU, not the step's PerGPU.Total), so
// its estimates are shared by every memory size and a QLoRA job the
// estimator calls out of memory while loading never fits here.
func (p *planner) estimate(in estimator.Input) fitOut {
	if p.in.Task.Training() {
		if p.rental && p.req.LitGPT && !p.req.FSDPNoSyncGiven {
			// LitGPT accumulates inside Fabric's no_backward_sync, FSDP's
			// no_sync under its FSDPStrategy (finetune/lora.py and
			// full.py at 00af8b0d): the whole model's gradients between
			// syncs wherever a rank accumulates, as the estimate at the
			// job's own GPUs counts them (estimator.FSDPNoSyncDefault).
			// Its inputs are the key's: GPUs, ZeRO stage and micro-batch,
			// TP, PP and CP being 1. A --fsdp-no-sync given wins.
			in.FSDPNoSync = estimator.FSDPNoSyncDefault(in, p.trainWork(in))
		}
		k := fitKey{gpuMem{}, in.GPUs, in.TP, in.PP, layoutKey(in), in.Batch, in.DP, in.EP}
		n, ok := p.needs[k]
		if !ok {
			r, err := estimator.Estimate(in)
			n = needOut{err == nil, r.Peak, r.HostOffload, r.TrainableParams, r.Params}
			memo(&p.needs, 448)[k] = n
		}
		if !n.ok {
			return fitOut{}
		}
		usable := in.UsableBytes()
		return fitOut{n.peak <= usable-p.trainMargin(usable), usable - n.peak, n.hostOffload, 0, n.trainableParams, n.params}
	}
	k := fitKey{memOf(in), in.GPUs, in.TP, in.PP, layoutKey(in), in.Batch, in.DP, in.EP}
	if r, ok := p.fits[k]; ok {
		return r
	}
	var f fitOut
	if r, err := estimator.Estimate(in); err == nil {
		f = fitOut{r.Fits, r.Headroom, r.HostOffload, r.MaxConcurrentSeqs, r.TrainableParams, r.Params}
	}
	memo(&p.fits, 64)[k] = f
	return f
}

// memo is the memo table *m, made on first use with room for hint
// entries: the tables are sized for a catalog of offers that share a few
// hundred shapes (a hint of h holds 8h/7 slots rounded up to a power of
// two: 448 fills 512 slots, where 512 would take 1024; a larger catalog
// only grows the maps). A planner that never writes a table allocates
// none: a rented fine-tune's own planner hands every offer to its
// layouts' sub-planners (rentalRow), and some of those never time one.
func memo[K comparable, V any](m *map[K]V, hint int) map[K]V {
	if *m == nil {
		*m = make(map[K]V, hint)
	}
	return *m
}

// perf memoises estimator.Throughput.
func (p *planner) perf(in estimator.Input, hw estimator.Hardware, w estimator.Workload) perfOut {
	if in.GPUs <= hw.NVLinkDomain {
		// Nothing crosses the network: offers that differ only in it
		// share the estimate.
		hw.NetworkBandwidth = 0
	}
	// The ZeRO stage and the schedule share a slot (layoutKey): the
	// key's 128 bytes are full.
	k, memoise := mkPerfKey(hw, memOf(in), in.GPUs, in.TP, in.PP, layoutKey(in), in.Batch, w.MicroBatches, in.DP, in.EP)
	if r, ok := p.perfs[k]; ok && memoise {
		return r
	}
	var r perfOut
	if pf, err := estimator.Throughput(in, hw, p.req.Assumptions.Efficiency, w); err == nil {
		r = perfOut{pf.StepSeconds, pf.CommSeconds, pf.TokensPerStep, pf.TokensPerSecond, pf.PrefillTokensPerSecond,
			pf.DecodeStepSeconds, pf.Bound, true, int32(min(pf.VirtualStages, math.MaxInt32))}
	}
	if memoise {
		hint := 64
		if p.req.Workload.Kind == Training {
			hint = 224
		}
		memo(&p.perfs, hint)[k] = r
	}
	return r
}

// gpuLink reports whether an instance's GPUs talk over a GPU link (NVLink,
// or AMD's Infinity Fabric) rather than PCIe.
func gpuLink(interconnect string) bool {
	return interconnect == "nvlink" || interconnect == "infinity-fabric"
}

// rackInstances is how many instances of o share one NVLink domain: the
// trays of a rack whose NVLink the provider joins between them
// (Offer.RackGPUs over the instance's GPUs: 18 four-GPU trays of a GB200
// NVL72 at CoreWeave, whose docs say all nodes of a rack share its NVLink
// domain), else one, the domain ending at the instance. It is the
// planner's one rack rule: slice sets the hardware's NVLinkDomain from it,
// and instLimit, wideInstLimit, wideEP and the disaggregated workers span
// up to it without a network. Inside it a copy's traffic between trays,
// the experts' all-to-all and the KV handover included, runs over NVLink
// (estimator epAllToAllSecondsPerByte and the disaggregated KV handover
// read Hardware.NVLinkDomain), as the engines run DeepSeek on GB200 NVL72:
// TensorRT-LLM's wide EP with its MNNVL all-to-all inside the rack (its
// docs, "Wide Expert Parallelism"; fused_moe select_alltoall_method_type)
// and SGLang's decode over 12 trays, 48 GPUs, of one rack (LMSYS,
// "Deploying DeepSeek on GB200 NVL72 with PD and Large Scale EP (Part
// I)", 2025-06-16). Never more than the rack: past it the network
// carries the copy, as between any instances.
func rackInstances(o *Offer) int {
	n := int(o.GPUCount)
	if o.RackGPUs <= 0 || n < 1 || float64(n) != o.GPUCount || !gpuLink(o.Interconnect) {
		return 1
	}
	return max(o.RackGPUs/n, 1)
}

// Rented is the instances of o a plan that uses n of them rents and pays
// for: n rounded up to the provider's rental unit (Offer.RentalUnit: a
// GB200 NVL72 offer of CoreWeave, whose docs say its 4-GPU trays "must be
// deployed as full racks of 18 Nodes", rents 18 trays for a plan of 2 and
// 36 for one of 19), n itself where each instance rents alone. It is the
// one place an instance count turns into a bill: every cost of a row (the
// month, the job, spot, reservations, the disaggregated pools, the
// fleets) multiplies the hourly price by it, so the CLI, its JSON and the
// page quote one bill.
func (o *Offer) Rented(n int) int {
	if n <= 0 {
		return n
	}
	return roundUp(n, o.RentalUnit)
}

// Rented is the instances r's plan rents and pays for: its Instances
// rounded up to its offer's rental unit (Offer.Rented).
func (r *Row) Rented() int {
	if r.Offer == nil {
		return r.Instances
	}
	return r.Offer.Rented(r.Instances)
}

// rentalNote says where r pays for instances it leaves idle: o rents
// whole orders of Offer.RentalUnit instances (CoreWeave's GB200 NVL72
// trays, whole racks of 18) and r uses fewer than it rents (Row.Rented).
// A serving row says how many more copies of its layout the idle
// instances hold, as an operator renting the rack would run them there
// for headroom at no extra cost (its figures stay those of the copies
// sized for the target); a training or batch row says they idle.
func (p *planner) rentalNote(o *Offer, r *Row) Reason {
	rented := r.Rented()
	if !r.Fits || rented <= r.Instances {
		return Reason{}
	}
	u := o.RentalUnit
	gpus := float64(u) * o.GPUCount
	if p.req.Workload.Kind == Serving {
		if per := max(r.InstancesPerReplica, 1); (rented-r.Instances)/per > 0 {
			more := (rented - r.Instances) / per * max(r.DP, 1)
			return Reason{Key: MsgNoteRentalUnitCopies, Args: []any{u, gpus, r.Instances, rented, more}}
		}
	}
	return Reason{Key: MsgNoteRentalUnit, Args: []any{u, gpus, r.Instances, rented}}
}

// rentalReplicas is how a daily fleet of replicas of inst instances each
// rents o (Offer.Rented's rule by the replica): step is the replicas one
// order holds, so the fleet's count each hour moves in steps of it, and
// billed the instances each replica pays for. A GB200 NVL72 rack of 18
// trays holds 9 replicas of 2 trays (step 9, billed 2) or 4 of 4 trays
// (step 4, billed 4.5: the rack's 2 trays left over are paid by its 4
// replicas). A replica of a whole unit or more rents Rented(inst) on its
// own (step 1), an upper bound where two such replicas could share a
// unit; elsewhere step is 1 and billed inst.
func rentalReplicas(o *Offer, inst int) (step int, billed float64) {
	inst = max(inst, 1)
	if o == nil {
		return 1, float64(inst)
	}
	if u := o.RentalUnit; u > inst {
		step = u / inst
		return step, float64(u) / float64(step)
	}
	return 1, float64(o.Rented(inst))
}

// roundUp is n rounded up to a multiple of step (n itself where step is
// 1 or less): the instances a rental unit bills (Offer.Rented), and a
// fleet's replicas in whole orders (rentalReplicas' step).
func roundUp(n, step int) int {
	if step <= 1 {
		return n
	}
	return (n + step - 1) / step * step
}

// maxTP is the largest tensor-parallel degree to try inside one instance
// of gpus GPUs; the degrees tried are the powers of two up to it, smallest
// first, inside the NVLink domain (or the whole instance over PCIe): TP
// stays inside the instance, as Megatron-LM places it (Narayanan et al.
// 2021 §3.3: tensor parallelism within a multi-GPU server, pipeline
// parallelism across servers).
func maxTP(o *Offer, gpus int) int {
	dom := gpus
	if gpuLink(o.Interconnect) && o.NVLinkDomain > 0 {
		dom = min(dom, o.NVLinkDomain)
	}
	t := 1
	for t*2 <= dom {
		t *= 2
	}
	return t
}

// slice returns the setup of one GPU (or slice) of o: its memory, and the
// speed figures the estimator prices the job with.
//   - A fractional GPU count scales memory, compute and bandwidth (a 1/8 L4
//     has 3 GB and an eighth of the compute and bandwidth; AWS g6f and
//     Azure NVadsA10 v5 list the slice's memory that way).
//   - The NVLink domain is the instance's NVLink-connected GPUs (the GPU's
//     domain, at most the instance: two 4-GPU instances of an 8-GPU board
//     do not share NVLink), or the rack's where the instances are trays
//     the provider joins by NVLink (rackInstances: 72 GPUs over 18 GB200
//     trays); PCIe instances talk over PCIe inside the instance
//     (LinkBandwidth 0), which is their domain.
//   - NetworkBandwidth is the instance's inter-node network shared by its
//     GPUs: Gbit/s × 10⁹ / 8 / GPUs per instance (AWS p5.48xlarge: 3,200
//     Gbit/s EFA over 8 H100s = 50 GB/s per GPU). The estimator prices the
//     data-parallel, ZeRO and FSDP collectives that cross it
//     (estimator/perf_train.go), so the planner adds no traffic of its own.
func (p *planner) slice(o *Offer) (gpuMem, estimator.Hardware) { return slice(o, p.req.Assumptions) }

// OnOffer is job in on one GPU (or slice) of o as the planner estimates
// and times a row of o for a request with assumptions a (slice): in with
// the GPU's or the slice's memory, and the hardware its speed is timed
// on: the instance's NVLink domain and its network per GPU. A page that
// applies a row estimates the row's job with it, so that its headroom
// and time are the row's.
func OnOffer(in estimator.Input, o *Offer, a Assumptions) (estimator.Input, estimator.Hardware) {
	m, hw := slice(o, a)
	m.set(&in)
	return in, hw
}

func slice(o *Offer, a Assumptions) (gpuMem, estimator.Hardware) {
	hw := o.Hardware
	per := math.Max(o.GPUCount, 1)
	gbps, _ := networkGbps(o, a)
	hw.NetworkBandwidth = gbps * 1e9 / 8 / per
	dom := int(per)
	if gpuLink(o.Interconnect) {
		if d := o.NVLinkDomain; d > 0 && d < dom {
			dom = d
		}
		if r := rackInstances(o); r > 1 {
			dom = r * int(per)
		}
	} else {
		hw.LinkBandwidth = 0 // PCIe between the instance's GPUs
	}
	hw.NVLinkDomain = max(dom, 1)
	small := hw.VLLMSmallDefaults
	if o.GPUCount >= 1 {
		return gpuMem{o.GPUMemory, o.GPUVisibleMemory, small, 0}, hw
	}
	f := o.GPUCount
	hw.PeakFLOPS *= f
	hw.MemBandwidth *= f
	return gpuMem{estimator.Bytes(float64(o.GPUMemory) * f), estimator.Bytes(float64(o.GPUVisibleMemory) * f), small, 0}, hw
}

// gpuMem is one GPU's (or vGPU slice's) memory as the estimator takes it:
// the card's (Input.VRAM) and what CUDA sees of it where ECC takes a share
// (Input.VisibleVRAM, 0: all), with the GPU's vLLM class
// (Input.VLLMSmallDefaults, the offer's Hardware.VLLMSmallDefaults: vLLM
// profiles and schedules an A100 80GB with its smaller limits), so that
// an A100 80GB and an H100 80GB do not share an estimate. The request's
// own Input.UsableVRAM, the user's measured figure, is left as it is and
// wins over both. share is the engine's memory share the copy runs at
// (Input.GPUMemUtil): the request's, or the one the planner sets where
// the engine's default leaves no KV pool (estimator.EngineShareFor); 0
// leaves the input's own, so that estimates at two shares never share a
// memo.
type gpuMem struct {
	vram, visible estimator.Bytes
	vllmSmall     bool
	share         float64
}

func (m gpuMem) set(in *estimator.Input) {
	in.VRAM, in.VisibleVRAM, in.VLLMSmallDefaults = m.vram, m.visible, m.vllmSmall
	if m.share > 0 && m.share != in.GPUMemUtil {
		// The planner's share (Row.MemShare), with the CUDA-graph cap
		// the launch writes beside it (estimator.PlannedShareFix).
		*in = estimator.PlannedShareFix(m.share, *in).Apply(*in)
	}
}

func memOf(in estimator.Input) gpuMem {
	return gpuMem{in.VRAM, in.VisibleVRAM, in.VLLMSmallDefaults, in.GPUMemUtil}
}

// rank orders fitting rows by cost, then the user's own price before a
// catalog price, then time, then hourly price, then offer ID; unfit rows
// follow in offer ID order. It sorts compact keys and moves each row once
// (rows are large).
//
// At a cost equal to the cent the user's row comes first: the user knows
// what they pay, and a catalog price the same to the cent is a listing
// they would still have to buy. recommend keeps the rule that a plan
// faster by more than frontTolerance takes a cost tie.
func rank(rows []Row) []Row {
	type key struct {
		cents, time, hour float64
		id                string
		unfit, catalog    bool
	}
	// The sort moves 16-byte entries. prim orders them by (fit first,
	// cost in cents) wherever the full order agrees: a fitting row's
	// non-negative cents as IEEE bits (their order is the numbers'),
	// unfit rows after every fitting one; equal prims (and NaN or
	// negative cents, at 0) fall back to the full comparison.
	type entry struct {
		prim uint64
		i    int
	}
	keys := make([]key, len(rows))
	order := make([]entry, len(rows))
	for i := range rows {
		r := &rows[i]
		k := key{unfit: !r.Fits, id: r.Offer.ID, catalog: !r.Offer.UserPrice}
		e := entry{prim: math.MaxUint64, i: i}
		if r.Fits {
			// Costs equal to the cent are a tie (two instance sizes at
			// the same per-GPU price): the faster plan ranks first.
			k.cents, k.time, k.hour = math.Round(r.cost*100), r.time, r.PricePerHourUSD
			e.prim = 0
			if k.cents > 0 {
				e.prim = math.Float64bits(k.cents)
			}
		}
		keys[i], order[i] = k, e
	}
	// Stable or not, the order is total (the row index decides last).
	estimator.SortStable(order, func(x, y *entry) int {
		if x.prim != y.prim {
			if x.prim < y.prim {
				return -1
			}
			return 1
		}
		a, b := &keys[x.i], &keys[y.i]
		if a.unfit != b.unfit {
			if b.unfit {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.cents, b.cents); c != 0 {
			return c
		}
		if a.catalog != b.catalog && !a.unfit {
			if b.catalog {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.time, b.time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.hour, b.hour); c != 0 {
			return c
		}
		if c := cmp.Compare(a.id, b.id); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})
	// Apply the permutation in place, cycle by cycle: row k takes the
	// row at order[k].i.
	for k := range order {
		if order[k].i < 0 {
			continue
		}
		tmp := rows[k]
		j := k
		for {
			next := order[j].i
			order[j].i = -1
			if next == k {
				rows[j] = tmp
				break
			}
			rows[j] = rows[next]
			j = next
		}
	}
	return rows
}
