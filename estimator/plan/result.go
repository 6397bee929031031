package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// Recommendation marks a row.
type Recommendation int

const (
	RecNone Recommendation = iota
	RecCheapest
	RecFastest
	RecValue
	RecPareto
)

var recNames = [...]string{RecNone: "none", RecCheapest: "cheapest", RecFastest: "fastest", RecValue: "value", RecPareto: "pareto"}

func (r Recommendation) String() string {
	if r >= 0 && int(r) < len(recNames) {
		return recNames[r]
	}
	return "Recommendation(?)"
}

// HostStatus is the verdict of the host checks.
type HostStatus int

const (
	// HostUnknown: not checked (the offer does not fit) or the offer
	// lists no vCPUs or RAM.
	HostUnknown HostStatus = iota
	HostOK
	HostWarn
	HostFail
)

var hostNames = [...]string{HostUnknown: "unknown", HostOK: "ok", HostWarn: "warn", HostFail: "fail"}

func (h HostStatus) String() string {
	if h >= 0 && int(h) < len(hostNames) {
		return hostNames[h]
	}
	return "HostStatus(?)"
}

// Reason is a sentence as a message key and its arguments, so the page can
// translate it; English renders it for the command line (msg.go). Args are
// strings (names) and float64 (numbers) in the order the key's message
// uses them.
type Reason struct {
	Key  Msg
	Args []any // float64 (a plain number), int, string (a name), Money, Duration, OfferRef
}

// Typed arguments of a Reason. Numbers and their units stay apart until a
// formatter writes them (as golang.org/x/perf's benchunit keeps values and
// units apart): String below for the CLI, the page's locale for the page,
// so a figure in a sentence is formatted like the same figure on a card.

// Money is an amount in Currency; PerMonth marks a monthly bill.
type Money struct {
	Amount   float64
	Currency string
	PerMonth bool
}

// Duration is a job's time in seconds; P95PerRequest marks a serving
// plan's p95 end-to-end latency of one request.
type Duration struct {
	Seconds       float64
	P95PerRequest bool
}

// OfferRef names a plan: its offer's provider (an ID: a formatter may
// show the provider's name) and instance type, and the instances rented;
// Own marks an offer on the user's own price (Offer.UserPrice), which the
// sentence says, as the page's cards and the table's price flags do.
type OfferRef struct {
	Provider, InstanceType string
	Instances              int
	// Rented is the instances the bill pays for (Row.Rented) where the
	// provider rents whole orders and the plan uses fewer; 0 or Instances:
	// it rents what it uses.
	Rented int
	Own    bool
}

// InstancesOfEnglish is InstancesLabel's of in English.
const InstancesOfEnglish = "%s of %s"

// InstancesLabel is the one way a plan's instance count is written: "8"
// where the plan rents what it uses, "8 of 18" where the provider rents
// whole orders and the plan uses fewer than it pays for (Row.Rented: a
// CoreWeave GB200 NVL72 rack of 18 trays). of is InstancesOfEnglish or its
// translation ("%s из %s"), num writes a count in the reader's digits. The
// CLI's instances column, every reason naming a plan (OfferRef.String) and
// the page's cards and sentences (page.InstancesOf) all write it here, so
// the pick's sentence says what its card says.
func InstancesLabel(n, rented int, of string, num func(int) string) string {
	if rented > n {
		return fmt.Sprintf(of, num(n), num(rented))
	}
	return num(n)
}

// InstancesSuffix is " ×" and InstancesLabel after an instance type rented
// more than once ("aws p5.48xlarge ×2", "coreweave … ×8 of 18"), or "".
func InstancesSuffix(n, rented int, of string, num func(int) string) string {
	if n > 1 || rented > n && n > 0 {
		return " ×" + InstancesLabel(n, rented, of, num)
	}
	return ""
}

// WorkerLayout names a disaggregated worker's layout in a reason: its
// tensor-parallel GPUs and, inside them, the attention data-parallel
// ranks and expert-parallel degree (1: none), abbreviated as the page's
// and the CLI's plan tables write them ("8 · attn-DP 8 · EP 8").
type WorkerLayout struct{ TP, DP, EP int }

func (w WorkerLayout) String() string {
	s := strconv.Itoa(w.TP)
	if w.DP > 1 {
		s += " · attn-DP " + strconv.Itoa(w.DP)
	}
	if w.EP > 1 {
		s += " · EP " + strconv.Itoa(w.EP)
	}
	return s
}

func (m Money) String() string {
	s := displayNumber(m.Amount) + " " + m.Currency
	if m.PerMonth {
		s += "/month"
	}
	return s
}

func (d Duration) String() string {
	if d.P95PerRequest {
		return "p95 " + displayNumber(d.Seconds) + " s per request"
	}
	return displayNumber(d.Seconds/3600) + " h"
}

func (o OfferRef) String() string {
	s := o.Provider + " " + o.InstanceType + InstancesSuffix(o.Instances, o.Rented, InstancesOfEnglish, GroupInt)
	if o.Own {
		s += " (your price)"
	}
	return s
}

// GroupInt writes n with its thousands grouped by commas, as English
// writes a count (CLDR "en": #,##0): 16,384.
func GroupInt(n int) string { return groupDigits(strconv.Itoa(n)) }

// GroupFixed writes v with prec decimals and its thousands grouped by
// commas, as English writes an amount: 124,155 or 66,868.00.
func GroupFixed(v float64, prec int) string {
	return groupDigits(strconv.FormatFloat(v, 'f', prec, 64))
}

// displayNumber is formatNumber with the thousands of its whole part
// grouped, for a sentence a reader reads (106,288 USD/month); an input
// echoed back in an error keeps formatNumber's plain digits.
func displayNumber(v float64) string { return groupDigits(formatNumber(v)) }

// groupDigits puts a comma between each three digits of the leading run
// of digits in s (after a minus sign): "106288.5" is "106,288.5"; the
// exponent form ("1.5e+20") has one leading digit and stays as it is.
func groupDigits(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := 0; i < n; i++ {
		if i > 0 && (n-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	b.WriteString(s[n:])
	return b.String()
}

// formatNumber writes v with three significant digits (two decimals at
// most for numbers ≥ 1; whole numbers below 10¹⁵ in full), and from 10¹⁵
// up in the exponent form of %.3g ("1.5e+20"): no bill or rate is that
// large, an out-of-range input echoed back in an error can be, and a
// float64 near its limit written in full runs to 309 digits.
func formatNumber(v float64) string {
	switch {
	case v >= 1e15:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case v >= 10 && v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strings.TrimRight(strconv.FormatFloat(v, 'g', 3, 64), ".")
}

// HostCheck is the host's verdict and why.
type HostCheck struct {
	Status HostStatus
	Reason Reason
	// Short: the host is below the guides' floor for any GPU job, the
	// inference rule's 2 vCPUs and 8 GB of RAM per GPU (a training job's
	// rule asks more, and missing that is a warning only). The picks pass
	// such a row over where a row on a larger host runs the job (trust).
	Short bool
}

// Row is one offer's plan. Money fields ending in USD are converted at the
// request's FX table; fields without a currency suffix are in the offer's
// native Currency, and Display fields in Request.Currency.
type Row struct {
	Offer *Offer

	// Shape: instances rented, GPUs used, parallelism. For serving, a
	// replica is InstancesPerReplica instances running DP engine copies
	// of TP × PP GPUs each.
	Instances        int
	GPUs             float64 // Instances × GPUCount
	TP, PP, DP, ZeRO int
	// VirtualStages is a training row's pipeline schedule when PP > 1:
	// the model chunks per stage (estimator.Perf.VirtualStages; 1: plain
	// 1F1B), chosen with the ZeRO stage where Request.ZeROOpen; 0
	// without pipeline stages.
	VirtualStages int
	// CP is a training row's context-parallel degree, each sequence split
	// over CP GPUs of a replica (estimator.Input.CP: the user's --cp, or
	// the planner's past the global batch, wider); 0 or 1: none. DP is
	// then GPUs / (TP × PP × CP).
	CP int
	// AttnDP and EP are an inference row's layout inside each engine copy
	// of TP GPUs (estimator.Input.DP and EP; 0 or 1: none): attention data
	// parallelism over AttnDP ranks of TP/AttnDP GPUs each, and the routed
	// experts spread whole over EP GPUs (SGLang --dp-size
	// --enable-dp-attention --ep-size, vLLM --data-parallel-size
	// --enable-expert-parallel, TensorRT-LLM enable_attention_dp and
	// moe_expert_parallel_size). The copy is still TP × PP GPUs; DP above
	// stays the engine copies per replica.
	AttnDP, EP int
	// RedundantExperts is the extra copies of routed experts over the EP
	// ranks of each copy (estimator.Input.RedundantExperts): the
	// request's, or the fewest the planner gave a rack-wide copy whose EP
	// does not divide the experts (the row notes it,
	// note.redundant_experts); 0: none.
	RedundantExperts int
	// MemShare is the engine's memory share the planner set on the row's
	// copies where the engine's default leaves them no KV pool
	// (estimator.EngineShareFor: SGLang's --mem-fraction-static at
	// data-parallel attention; the row notes it, note.mem_share, and the
	// launch writes it); 0 where the copies run at the request's
	// --gpu-mem-util or the engine's default.
	MemShare float64
	// GradCheckpointing and Offload are a training row's memory layout:
	// the user's settings, or the rental layout the planner chose
	// (rentalRow's notes say so).
	GradCheckpointing   bool
	Offload             estimator.Offload
	Replicas            int
	InstancesPerReplica int
	// ScaledFrom is, on a training or batch row that rents more
	// instances than the fewest that hold the job (a scaled-out fleet,
	// for speed: scaleOut), that fewest count, its offer's other row; 0
	// on every other row.
	ScaledFrom int

	Fits        bool
	FitReason   Reason
	HeadroomGiB float64 // per GPU

	// Engine is the engine the row is planned on: the request's, or vLLM
	// for serving at a rate (note.serving_engine) and for a decoder's batch
	// job with no engine given (Request.EngineOpen, note.batch_engine).
	Engine estimator.Engine
	// Weights is the weight format the row runs: the request's, or what
	// runs on the GPU (estimator.SupportFor: fp16 where there is no bf16,
	// 16-bit where the format has no kernel; the row's notes say so).
	Weights estimator.DType
	// KV is the KV cache's dtype the row runs (serving and batch rows):
	// the request's, or fp32 where its weights run in fp32 for a
	// 16-bit job (a model vLLM refuses in fp16: planner.sub).
	KV estimator.DType

	Pricing          Pricing
	PricePerHour     float64 // native, per instance, after VAT normalisation
	PricePerHourUSD  float64
	PricePerHourDisp float64
	FXAsOf           string // date of the rate that converted the offer's currency ("" for USD)

	// ReservedCommitmentUSD is a reservation's whole term at its price:
	// ReservedMonthlyCommitmentUSD × 12 × ReservedTermYears.
	ReservedCommitmentUSD float64

	// Training and batch jobs. BilledHours is what each instance is
	// billed for JobSeconds on the row's price model (BilledHours):
	// JobCost = Instances × PricePerHour × BilledHours.
	// A training row's JobSeconds is the whole run: its steps over
	// Goodput (estimator.TrainGoodput of the GPUs the layout uses; the
	// interruptions, restarts and checkpoints a run of that size loses,
	// estimator.RunSeconds), plus the start-up; 0 for batch jobs.
	Goodput         float64
	JobSeconds      float64
	BilledHours     float64
	GPUHours        float64
	JobCost         float64 // native
	JobCostUSD      float64
	JobCostDisp     float64
	TokensPerSecond float64
	OptimizerSteps  float64
	// CommSeconds is the communication per optimizer step that compute
	// does not hide (tensor-parallel all-reduces, data-parallel and
	// ZeRO/FSDP collectives over NVLink, PCIe or the network, offload
	// traffic: estimator.Perf.CommSeconds); Bound is what limits the step.
	CommSeconds float64
	Bound       estimator.Bound

	// Serving.
	MonthlyCostUSD                 float64
	MonthlyCostDisp                float64
	SustainableRPSPerReplica       float64
	TTFTP50Seconds, TTFTP95Seconds float64
	TPOTSeconds                    float64
	// TTFTAtSLOSeconds and TPOTAtSLOSeconds are TTFT and TPOT at the
	// statistic the targets bound (Workload.SLOStat): the figures the
	// sizing held under the targets (TTFTP95Seconds and the mean
	// TPOTSeconds at the default p95 and the mean).
	TTFTAtSLOSeconds, TPOTAtSLOSeconds float64
	E2EP50Seconds, E2EP95Seconds       float64
	Utilisation                        float64
	Concurrency                        float64 // sequences in flight per engine copy at the target
	// Binding is what set the replica count when the engine simulator
	// sized the row (serve_sim.go): the p95 TTFT or TPOT that one copy
	// fewer misses, the utilisation cap (throughput), or none (one
	// copy); EngineLimit is what held requests back in the simulated
	// run at the target (kv-cache, token-budget, max-seqs, none).
	Binding     sim.Binding
	EngineLimit sim.Limit
	// Sim is the simulation of one engine copy the row was sized with
	// (simConfig: its model, scheduler, hardware and lengths; 150
	// requests from seed 1), nil when the engine simulator did not size
	// it. The rows of one copy shape share it; never write through it.
	// The page's latency chart runs it at other rates, so its points are
	// the simulator's own at the plan's setup.
	Sim *sim.Config

	// Inference jobs and serving.
	USDPerMillionInput, USDPerMillionOutput float64

	// OnDemandJobCostUSD is the job at the on-demand price (training and
	// batch), next to SpotExpectedCostUSD whatever the pricing.
	OnDemandJobCostUSD float64

	// Spot.
	SpotExpectedSeconds       float64
	SpotExpectedCostUSD       float64
	SpotInterruptionsPerMonth float64
	CheckpointIntervalSeconds float64

	// Reserved.
	ReservedBreakEvenUtilisation float64
	ReservedTermYears            int // the reservation the two fields above describe: 1 or 3
	ReservedMonthlyCommitmentUSD float64

	USDPerDenseTFLOPSHour float64
	TokensPerUSD          float64

	// HostOffloadGiB is the CPU-offloaded state one instance's host RAM
	// must hold (per-GPU offload × GPUs per instance; 0 without offload),
	// next to Offer.RAMGiB in the host check.
	HostOffloadGiB float64

	Host  HostCheck
	Notes []Reason
	// Unchecked names the filters the user's own row could not be
	// checked against, its sheet's column left empty (ColumnRegion,
	// ColumnVCPUs, ColumnRAM) or its provider's country unknown
	// (ColumnCountry): the row is kept, and a note says each.
	Unchecked      []string
	Recommendation Recommendation
	Why            Reason

	// Stale marks a price older than the freshness window, undated or
	// with an estimated date (Offer.PriceAgeDays, Offer.AsOfEstimated);
	// the row is planned and listed all the same. PassedOver says why the
	// picks pass a fitting row over (reason.stale or reason.far_below:
	// the same GPU has a fresher or a normally priced offer that runs the
	// job, passOver; reason.stale_estimated and reason.stale_undated when
	// the date is an estimate or missing); its Key is NoMsg for a row the
	// picks may rest on.
	Stale      bool
	PassedOver Reason

	// RankedCostDisp and RankedSeconds are what the row is ranked by, in
	// Request.Currency and seconds: the job (training, batch) or the month
	// (serving; time is a request's p95 end-to-end latency), on spot the
	// expected values with reclaims (SpotExpectedCostUSD and
	// SpotExpectedSeconds). A page shows these next to the pick, so the
	// figure a user reads is the one that ranked it.
	RankedCostDisp, RankedSeconds float64

	cost, time   float64 // ranking keys (USD, seconds)
	prefillShare float64 // inference: prefill's share of GPU time
	// pastLimit is, on a serving row refused for the instance limit
	// (fit.too_big) because the target rate needs more replicas than it
	// allows, the fewest instances whose replicas carry the rate (the
	// closed-form sizing, a spot row's spare included); 0 otherwise.
	pastLimit int
	// idle is a fixed training layout's idle GPUs (idleGPUs); nil where
	// the layout uses every GPU rented.
	idle *idleFleet
	// wide is the note of a training fleet whose replicas take more GPUs
	// each than the fewest instances' because the global batch holds no
	// more replicas (wider); no Key otherwise.
	wide Reason
	// ladder is a training or batch tech row's larger fleets (climb,
	// batchLadder); scale is a priced row's scaled-out plan (scaleOut)
	// until the plan lists it.
	ladder *ladder
	scale  *scaling
}

// HostedComparison sets a hosted API against the best self-hosted row,
// or with OverLoadCurve (PlanFleet) against the cheapest rented fleet
// over the day's load curve.
type HostedComparison struct {
	API            HostedAPI
	MonthlyCostUSD float64 // the API at the target rate, or over the load curve
	SelfHostedUSD  float64 // the cheapest row's (or fleet's) monthly bill; 0 when none fits (Why: hosted.no_fit)
	BreakEvenRPS   float64 // rate above which self-hosting wins; 0: never within one replica, or over a load curve
	// AlwaysAboveRPS is the rate past which self-hosting wins at every
	// rate, the replicas added as the rate grows (breakEven): BreakEvenRPS
	// where a second replica already pays for itself, higher where the
	// replica a rate adds costs more than the API's tokens at that rate;
	// 0 where BreakEvenRPS is.
	AlwaysAboveRPS float64
	OverLoadCurve  bool
	Why            Reason
}

// Result is a ranked plan.
type Result struct {
	Rows []Row // fitting rows by cost, then time; unfit rows after (Options.KeepUnfit)

	// Indexes into Rows; -1 when none. Fastest is the faster alternative
	// beside the cheapest (AltCostBound, AltMinSpeedup): the quickest
	// front row within AltCostBound × the cheapest's cost, where it runs
	// at least AltMinSpeedup × as fast; the cheapest itself where it is
	// the quickest plan; -1 where no plan within the bound is that much
	// faster (WhyFastest then says what the quickest plan would buy).
	Cheapest, Fastest, Value int
	// Quickest is the plan of the shortest time, whatever its cost: the
	// cheapest front row within FastestTolerance of it (-1: none fits).
	Quickest int
	Pareto   []int
	// CheaperFlagged is the cheapest row the picks pass over for its
	// price (stale, or far below the median) that would cost less than
	// the cheapest pick: shown beside the answer as "cheaper if the price
	// holds — verify", never as the answer. -1: none.
	CheaperFlagged int
	// WhyCheapest, WhyFastest and WhyValue are each pick's sentence. A
	// pick that is the same row as another says so ("the cheapest is also
	// the best value") rather than repeating that row's Why.
	WhyCheapest, WhyFastest, WhyValue Reason

	Considered, Fitting int
	// OverBudget and PastDeadline count the plans that run the job but
	// were cut by the budget or the deadline filter: where nothing fits,
	// they say whether a filter is the cause rather than the job.
	OverBudget, PastDeadline int
	// AssumedDeadline is set where a pre-training job gave no deadline
	// and the plan held the assumed run length
	// (DefaultPretrainDeadlineSeconds): what it changed.
	AssumedDeadline *AssumedDeadline
	// FreshnessDays is the freshness window the picks were chosen with.
	FreshnessDays int

	CheckpointBytes float64 // training: trainable weights (a LoRA's adapters) + optimizer states
	Currency        string
	FXAsOf          string
	Hosted          []HostedComparison
	Notes           []Reason
	// Disagg is the cheapest disaggregated prefill/decode deployment of a
	// serving plan and whether it beats the aggregated one (disagg.go);
	// nil when none applies.
	Disagg *DisaggPlan
	// Unfit are, where no row fits, a row for each offer the filters
	// left, in offer order, with its Offer, Engine and FitReason only,
	// whether or not Options.KeepUnfit keeps the rows in Rows: why an
	// empty plan is empty (one reason for every offer, app/page's
	// FindNoneCause) without planning the request again. nil where a
	// row fits.
	Unfit []Row
}

// MarshalText keeps a typed argument a string in JSON, as it was before
// arguments were typed: the CLI's JSON reasons keep their shape.
func (m Money) MarshalText() ([]byte, error)    { return []byte(m.String()), nil }
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
func (o OfferRef) MarshalText() ([]byte, error) { return []byte(o.String()), nil }
