// Package plan turns "it fits" into "rent this, here is the bill, and here
// is why": for every offer it finds the parallelism that fits on whole
// instances, estimates the job's time (or a serving deployment's capacity
// at its latency targets), prices it in the offer's currency and in a
// chosen one, checks the host, and ranks the offers with one-sentence
// reasons built from message keys.
//
// The package is pure and deterministic: Plan takes plain values (offers,
// FX rates, assumptions) and returns plain values, imports only the
// standard library and rightsize/estimator, and is called by both the page
// and the command line. Every formula cites its source where it is used.
package plan

import "rightsize/estimator"

// Pricing is the price model a plan is billed at.
type Pricing int

const (
	OnDemand Pricing = iota
	Spot
	Reserved1y
	Reserved3y
)

var pricingNames = [...]string{OnDemand: "on-demand", Spot: "spot", Reserved1y: "reserved-1y", Reserved3y: "reserved-3y"}

// Pricings lists the price models in order.
var Pricings = []Pricing{OnDemand, Spot, Reserved1y, Reserved3y}

func (p Pricing) String() string {
	if p >= 0 && int(p) < len(pricingNames) {
		return pricingNames[p]
	}
	return "Pricing(?)"
}

// ParsePricing parses "on-demand", "spot", "reserved-1y" or "reserved-3y".
func ParsePricing(s string) (Pricing, error) {
	for i, n := range pricingNames {
		if n == s {
			return Pricing(i), nil
		}
	}
	return 0, &estimator.InputError{Field: "pricing", Value: s, Err: estimator.ErrUnknown,
		Reason: "want on-demand, spot, reserved-1y or reserved-3y"}
}

// Kind is what the plan is for.
type Kind int

const (
	// Training is a training or fine-tuning job of Workload.TrainTokens.
	Training Kind = iota
	// Batch is an offline inference job of Workload.Requests requests.
	Batch
	// Serving is an online deployment at Workload.RequestsPerSecond.
	Serving
)

// Name is the offer's instance as shown: InstanceName, else InstanceType.
func (o *Offer) Name() string {
	if o.InstanceName != "" {
		return o.InstanceName
	}
	return o.InstanceType
}

var kindNames = [...]string{Training: "training", Batch: "batch", Serving: "serving"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// Offer is one instance type at one provider, as plain values (the catalog
// adapter fills it). Prices are per hour for the whole instance in
// Currency; 0 means not offered or unknown.
type Offer struct {
	ID, Provider, ProviderKind, Country, Region, InstanceType string
	// Regions are every region the offer's prices hold in (Region is the
	// first, the one shown); the region filter matches any of them.
	Regions []string
	// InstanceName is the instance as people name it, where InstanceType
	// is a broker's encoded listing ID (catalog.Catalog.InstanceName);
	// empty: InstanceType. Name is what the page and the CLI show.
	InstanceName string
	// AccountsLocalOnly: the provider opens accounts only to legal
	// entities registered in Country (catalog.Provider.AccountsLocalOnly);
	// a row on it says so (note.accounts_local).
	AccountsLocalOnly bool

	GPU string
	// Chip is the GPU ID that names the offer's chip in no form factor
	// where GPU names one (a100-80gb for an a100-80gb-sxm offer:
	// catalog.Catalog.Forms); Filters.GPU of that ID takes the offer.
	// The command line marks it (its plans filter by GPU); the page
	// plans every GPU and leaves it empty.
	Chip     string
	GPUCount float64 // GPUs per instance; fractional for vGPU/MIG slices (0.125 of an L4)
	VCPUs    int     // 0: unknown
	RAMGiB   float64 // host memory, GiB; 0: unknown

	Interconnect string // between the instance's GPUs: "nvlink", "pcie", ...
	// NVLinkDomain is the GPUs in one NVLink domain (8 for HGX, 72 for
	// GB200 NVL72); 0 = the whole instance when Interconnect is "nvlink".
	NVLinkDomain int
	// RackGPUs is the GPUs whose NVLink joins the offer's instances,
	// where they are trays of a rack the provider rents with the rack's
	// NVLink between them (catalog.Offer.NVLinkDomain: 72 for CoreWeave's
	// GB200 NVL72, 18 trays of 4); 0: the NVLink domain ends at the
	// instance. rackInstances is the planner's one reading of it.
	RackGPUs int
	// RentalUnit is how many instances of the offer the provider rents
	// together, its smallest order (catalog.Offer.RentalUnitInstances: 18
	// for CoreWeave's GB200 NVL72 trays, rented as whole racks); 0 or 1:
	// each instance rents alone. Every row on the offer pays for a
	// multiple of it (Rented), whatever it uses.
	RentalUnit int
	// NetworkGbps is the instance's inter-node network in Gbit/s (AWS p5
	// EFA 3200); 0 = unknown (Assumptions.NetworkGbps is used).
	NetworkGbps   float64
	NetworkFabric string // "efa", "infiniband", "roce", "ethernet", "" unknown

	OnDemandPerHour, SpotPerHour, Reserved1yPerHour, Reserved3yPerHour, MonthlyPrice float64

	Currency         string
	PricesIncludeVAT bool
	VATRate          float64 // fraction, 0.20 for 20%

	// SpotInterruption is the AWS Spot Advisor monthly frequency bucket:
	// "<5%", "5-10%", "10-15%", "15-20%", ">20%"; "" unknown.
	SpotInterruption string
	// BillingGranularity is the smallest unit the provider bills an
	// instance by: "second", "minute", "hour", "month", or "" when its
	// source does not say (catalog.Offer.BillingGranularity).
	// BillingMinimumSeconds is the shortest run it bills, where its
	// documentation states one (the catalog fills it); 0 = none known.
	// BilledHours reads both.
	BillingGranularity    string
	BillingMinimumSeconds float64

	AsOf          string
	AsOfEstimated bool
	// AsOfLowerBound: an estimated AsOf that is the earliest the price can
	// date from (catalog.Offer.AsOfLowerBound), so PriceAgeDays is the
	// most it can be old and the window grades it as a dated price.
	AsOfLowerBound bool
	Source         string
	// PriceAgeDays is the price's age in whole days on the plan's date
	// (the catalog fills it: catalog.Offer.PriceAgeDays); -1 when AsOf is
	// not a date or no date was given. FarBelowMedian marks a price under
	// half the median the other providers ask for the same GPU
	// (catalog.PriceMedians): a marketplace "from" price, a lapsed
	// promotion or an error more often than a bargain. Both decide which
	// rows the picks may rest on (passOver).
	PriceAgeDays   int
	FarBelowMedian bool
	// SpotFarBelow marks a spot price under SpotFloorShare of the offer's
	// own on-demand price: beyond the deepest discount the clouds
	// document, more often a stale or mislabelled listing than a bargain.
	SpotFarBelow bool
	// ToVerify marks a price whose own source record leaves it open (a
	// footnote not captured, an ambiguous column, a regional outlier:
	// catalog.Offer.PriceToVerify). The picks treat it as they treat a
	// price far below the median (trust).
	ToVerify bool
	// UserPrice marks the user's own price (an uploaded price sheet, the
	// CLI's --prices): a negotiated rate the user vouches for, never
	// stale nor a market outlier to the picks (trust).
	UserPrice bool

	// Hardware is one whole GPU's figures for the job's dtype
	// (HasHardware false when the catalog lacks them); GPUMemory is one
	// whole GPU's memory and GPUVisibleMemory what CUDA sees of it where
	// ECC takes a share (estimator.Input.VisibleVRAM; 0: all of it).
	Hardware         estimator.Hardware
	HasHardware      bool
	GPUMemory        estimator.Bytes
	GPUVisibleMemory estimator.Bytes
}

// Workload is the job being planned.
type Workload struct {
	Kind Kind

	// Training: tokens processed (dataset tokens × epochs), and the
	// global batch in tokens per optimizer step (0: the estimator's
	// default: estimator.DefaultGlobalBatchTokens for pre-training, else
	// 4 × PP micro-batches per replica with PP, else one).
	TrainTokens       float64
	GlobalBatchTokens float64

	// Inference: tokens per request. Both 0: half of Input.Seq each.
	PromptTokens, OutputTokens int
	// MaxRequestTokens is the longest request the workload sends (prompt
	// + output), where a mix's means stand in PromptTokens and
	// OutputTokens: the launch settings' context length covers it
	// (vLLM --max-model-len refuses a longer request). 0: the request's
	// own lengths, or unknown for a mix (WorkloadMix.MaxTokens).
	MaxRequestTokens int

	// Batch: requests in the job.
	Requests float64

	// Serving: target rate and SLOs (0: no target on that metric). The
	// TTFT and TPOT targets bound the statistic SLOStat names over the
	// requests (the zero value: p95, whence TTFTP95Seconds's name).
	RequestsPerSecond float64
	TTFTP95Seconds    float64
	TPOTSeconds       float64
	SLOStat           SLOStat
	// TTFTByDefault: the user set no TTFT target, and the plan holds
	// DefaultTTFT of the request's prompt (Request.WithDefaultTTFT sets
	// TTFTP95Seconds to it; the planner does so itself, and a daily
	// fleet's classes of requests each hold their own prompt's). Where
	// that default sets the cheapest pick's replica count, the plan's
	// notes say what a longer target would buy (note.ttft_default_relax).
	TTFTByDefault bool
	// MaxUtilisation caps each replica's load as a share of its raw
	// capacity (0: DefaultMaxUtilisation).
	MaxUtilisation float64
}

// requestTokens is the request w is planned at, in tokens: prompt +
// output, or seq where w gives neither length nor a mix's longest (the
// page's and the CLI's --seq is then the request).
func (w Workload) requestTokens(seq int) int {
	n := w.PromptTokens + w.OutputTokens
	if n == 0 && w.MaxRequestTokens == 0 {
		n = seq
	}
	return n
}

// longestRequest is the longest request w sends, in tokens: the larger of
// the request it is planned at (requestTokens) and the longest of a mix
// (MaxRequestTokens).
func (w Workload) longestRequest(seq int) int {
	return max(w.requestTokens(seq), w.MaxRequestTokens)
}

// HostedAPI is a hosted API's token prices, to compare with self-hosting:
// USD per million input (prompt) and output tokens, converted from the
// list price's Currency at the FX table where it is not USD; AsOf and
// Source date and name the list price.
type HostedAPI struct {
	ID, Provider, Model                     string
	InputUSDPerMillion, OutputUSDPerMillion float64
	Currency                                string // the list price's currency ("" or "USD": dollars)
	AsOf, Source                            string
}

// RequestUSD is what the API bills one request of prompt input and output
// output tokens at its list prices: (prompt × input + output × output
// price) / 10⁶. The one bill every comparison with self-hosting uses
// (serving at a rate, a load curve's fleet, a batch job).
func (h *HostedAPI) RequestUSD(prompt, output float64) float64 {
	return (prompt*h.InputUSDPerMillion + output*h.OutputUSDPerMillion) / 1e6
}

// FXRate is a dated conversion: PerUSD units of Currency buy one USD.
type FXRate struct {
	Currency string
	PerUSD   float64
	AsOf     string
	Source   string
}

// Filters narrow the offers; zero values filter nothing.
type Filters struct {
	Providers []string // provider IDs
	Kinds     []string // provider kinds: "hyperscaler", "gpu-cloud", "marketplace", ...
	// Countries are ISO codes of the provider's home jurisdiction
	// (catalog providers[].country): billing, contract law and VAT, what
	// a user means by "a Russian provider". Where the machines stand is
	// Regions.
	Countries []string
	// Regions are prefixes of the offer's region ("ru", "eu-west",
	// "cn-north"): where the instances are hosted, whoever runs them.
	Regions []string
	// GPU is a GPU ID: its offers, and where the ID names the chip in
	// no form factor, the chip's offers in every form (Offer.Chip): a
	// provider that does not say SXM or PCIe sells the same A100 80GB.
	GPU       string
	MinVCPUs  int     // per instance
	MinRAMGiB float64 // per instance
	// BudgetUSD caps job cost (training, batch) or the monthly bill
	// (serving); DeadlineSeconds caps job time (training, batch). A
	// pre-training job with no deadline holds the assumed run length,
	// DefaultPretrainDeadlineSeconds (Plan, Result.AssumedDeadline),
	// unless NoDeadline is set ("--deadline 0": none at all).
	BudgetUSD       float64
	DeadlineSeconds float64
	NoDeadline      bool
}

// Assumptions are the editable constants; a zero field takes the default
// named next to it.
type Assumptions struct {
	// SpotInterruptionsPerMonth overrides every offer's spot reclaim
	// frequency (share of instances reclaimed per 730 h).
	SpotInterruptionsPerMonth float64
	// CheckpointWriteBytesPerSecond: DefaultCheckpointWriteBytesPerSecond.
	CheckpointWriteBytesPerSecond float64
	// RestartSeconds after an interruption: DefaultRestartSeconds.
	RestartSeconds float64
	// NetworkGbps for offers whose inter-node network is unknown:
	// DefaultNetworkGbps.
	NetworkGbps float64
	// UnknownNetworks lets a plan span instances whose provider names no
	// network between them (no NetworkGbps or NetworkFabric in the
	// catalog), at NetworkGbps with a note. Off by default: a job whose
	// gradients or pipeline cross separate pods with no cluster fabric
	// (62 RunPod pods of RTX A4000s for a 70B pre-train) is not a plan a
	// practitioner would rent, and its speed is a guess.
	UnknownNetworks bool
	// Efficiency overrides the estimator's MFU and bandwidth shares.
	Efficiency estimator.Efficiency
	// Goodput is a training run's share of wall time in its steps (what
	// interruptions, restarts and checkpoints leave; rightsize estimate
	// --goodput): every row's job time is its steps over it
	// (estimator.RunSeconds). 0: estimated from each row's GPUs
	// (estimator.TrainGoodput).
	Goodput float64
}

// Request is one planning question.
type Request struct {
	// Input is the job as the estimator sees it (model, task, precision,
	// batch, sequence, engine, ZeRO floor). Its GPUs, TP, PP and VRAM are
	// chosen per offer unless FixedParallelism is set.
	Input            estimator.Input
	FixedParallelism bool
	// ZeROOpen says the user gave no ZeRO stage (the CLI without --zero,
	// the page's ZeRO on auto). A pre-training job's stage, and its
	// pipeline schedule where Input.Schedule.VirtualStages is 0, are then
	// chosen for each shape the planner tries, as
	// estimator.ResolveTrainDefaults chooses them at the user's own
	// layout: Input.ZeRO is no floor, and Input.Schedule.VirtualStages
	// must be the user's own (0 when not given), not one resolved at
	// another layout.
	ZeROOpen bool
	// EngineOpen says the user gave no engine (the CLI without --engine
	// or with --engine auto, the page's engine on auto): Input.Engine is
	// not read, and the job is planned on AutoEngine's, offer by offer (a
	// decoder's batch job on vLLM, the engine its launch runs, wherever
	// vLLM runs the model and weights as HF transformers does). A given
	// engine is kept.
	EngineOpen bool
	// LitGPT says the job is a fine-tune planned for LitGPT's fine-tune
	// scripts and their defaults (a Lightning precision name: the page's
	// Job.Stack, which its launch runs with --emit litgpt alone). Its
	// rows are laid out only as those scripts run them (StackLitGPT,
	// litgptRuns), and their notes name that launch.
	LitGPT bool
	// FSDPNoSyncGiven says Input.FSDPNoSync is the user's (the CLI's
	// --fsdp-no-sync, either way): every layout the plan tries keeps it,
	// where the planner otherwise takes the stack's accumulation (LitGPT's
	// no_sync wherever a rank accumulates, estimator.FSDPNoSyncDefault)
	// or, for a layout of its own choosing, none.
	FSDPNoSyncGiven bool

	Workload Workload
	Pricing  Pricing

	// Currency to rank and show in ("" or "USD": dollars); FX converts.
	Currency string
	FX       []FXRate
	// ExcludeVAT normalises prices quoted with VAT to prices without it.
	ExcludeVAT bool

	Filters     Filters
	Assumptions Assumptions
	HostedAPIs  []HostedAPI

	// FreshnessDays is the freshness window: the picks rest on prices
	// dated (not estimated) and at most this many days old wherever the
	// same GPU has such an offer that runs the job (passOver). 0:
	// DefaultFreshnessDays; negative is rejected.
	FreshnessDays int
}

// Options tune the search.
type Options struct {
	// MaxInstances bounds the instances one plan may rent (0: 64).
	MaxInstances int
	// Top keeps only the best Top fitting rows (0: all), and every row
	// on the user's own price.
	Top int
	// KeepUnfit keeps the rows of offers that pass the filters but do
	// not fit (or are over budget, past the deadline, unpriced), with
	// their reasons, after the fitting ones. A row on the user's own
	// price (Offer.UserPrice) is kept unfit without it: the user asked
	// about those GPUs, and their row says why they do not run the job.
	KeepUnfit bool
	// Yield, when set, is called between offers, before each layout
	// search, doubling, serving curve and simulated run inside an
	// offer's row, and between the ranking's steps: a page running the
	// planner on the browser's only thread passes one that lets the
	// event loop handle input now and then (app/page's YieldToBrowser).
	// It never changes the plan.
	Yield func()
}

// yield calls o.Yield when it is set.
func (o Options) yield() {
	if o.Yield != nil {
		o.Yield()
	}
}
