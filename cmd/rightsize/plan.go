package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// subcommand extends the estimate flags with a verb of its own.
type subcommand interface {
	define(fs *flag.FlagSet)
	run(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int
}

// estimateJob is the parsed estimate flags.
type estimateJob struct {
	in             estimator.Input
	name           string
	gpu            catalog.GPU
	eff            estimator.Efficiency // --mfu, --inference-mfu, --bandwidth-util (0: the model's)
	trainTokens    float64
	prompt, output int
	set            map[string]bool
	// engineOpen: no engine given (no --engine, or --engine auto):
	// in's is plan.AutoEngine's at --gpu, and the planner chooses it per
	// offer (plan.Request.EngineOpen).
	engineOpen bool
	// stack is what a fine-tune took from the stack its precision names
	// (page.InputJob.Stack: LitGPT's scripts for a Lightning name), which
	// its launch then runs (launch.StackError); nil: none.
	stack *page.StackDefaults
	// noSyncGiven: in.FSDPNoSync is the user's (page.InputJob.FSDPNoSyncGiven).
	noSyncGiven bool
	// ckptDefault: in's activation checkpointing is QLoRA's default
	// (page.InputJob.CheckpointingDefault).
	ckptDefault bool
}

// runPlan implements "rightsize plan": the estimate flags plus a workload,
// pricing, currency and filters; it prints the ranked offers.
//
// JSON output (--format json) is one object:
//
//	currency            display currency (ISO 4217); *_disp fields are in it
//	fx_as_of            date of the display currency's rate ("" for USD)
//	fx_source           where that rate comes from
//	workload            "training", "batch" or "serving"
//	slo_stat            serving: the statistic the TTFT and TPOT targets
//	                    bound (--slo-stat: mean | p50 | p90 | p95 | p99);
//	                    absent for training and batch
//	ttft_target_seconds, tpot_target_seconds  serving: the targets held at
//	                    slo_stat (--ttft-p95, --tpot; default 2 s, or
//	                    0.2 s per 1,000 prompt tokens where longer, and
//	                    100 ms, the page's too); absent: none (0)
//	ttft_target_from    serving: "user" (--ttft-p95 given) or "default"
//	ttft_target_source  serving, the default's: its rule and source
//	checkpoint_bytes    training: trainable weights + optimizer states, bytes
//	deadline_seconds    training and batch: the deadline held (--deadline, or
//	                    pre-training's assumed run length, 117 days);
//	                    absent: none
//	deadline_from       "user" (--deadline given) or "default" (assumed)
//	deadline_source     the assumed run length's source
//	assumed_deadline    pre-training without --deadline: missed (no plan of
//	                    at most max_instances instances finishes within it),
//	                    gpus (missed: the fewest of the fastest plan's GPUs
//	                    that could: its GPU-hours over the run length),
//	                    raised_max_instances (without --max-instances,
//	                    where no plan within the default 64 finishes in
//	                    time: the limit raised to so that one does, at
//	                    most 4,096), pick_cost_disp (the cheapest pick's cost), without
//	                    (missed: the fastest plan; else the cheapest plan
//	                    without the run length, where another row: offer_id,
//	                    provider, instance_name, gpu, instances, gpus,
//	                    pricing, hours, gpu_hours, cost_disp)
//	considered, fitting offers planned after the filters, and those that fit
//	notes               assumptions the plan used, English
//	grad_checkpointing_default  true: QLoRA's activation checkpointing
//	                    taken by default, no --grad-checkpointing given
//	                    (the user's own layout; a rented fleet's rows take
//	                    their own); absent otherwise
//	freshness_days      the freshness window (--freshness-days): the picks
//	                    rest on prices dated within it wherever the pick's
//	                    GPU has such an offer that runs the job
//	warnings            one English line when a pick rests on a stale price
//	                    (no fresher offer of its GPU runs the job) or one
//	                    far below the median; [] when none
//	rows                one per offer, best first (fields below)
//	hosted              serving: hosted APIs against the cheapest row
//	                    (fields below)
//	commitments         serving on demand: for each 1- and 3-year
//	                    reservation whose cheapest plan of the job bills
//	                    less a month than the cheapest row, that plan:
//	                    pricing (reserved-1y | reserved-3y), offer_id,
//	                    provider, instance_name, instances,
//	                    monthly_cost_usd, monthly_cost_disp (in currency)
//	                    and saving (the share of the on-demand month it
//	                    saves); absent when none does
//	fleet               with --load-curve or --workload: the daily fleet
//	                    (fields below, fleet.go); rows are then the plan at
//	                    the curve's peak, on demand
//	disaggregated       serving: the cheapest disaggregated prefill/decode
//	                    deployment (plan.DisaggPlan): offer_id, provider,
//	                    instance_type, gpu, engine, prefill_workers,
//	                    decode_workers (spares included),
//	                    prefill_spare_workers and decode_spare_workers
//	                    (on spot, each pool's spare: one instance's
//	                    workers, standby for a reclaim; 0 on demand),
//	                    tp (each decode worker's GPUs), dp
//	                    and ep (its attention data- and expert-parallel
//	                    degrees: the request's --dp and --ep or the
//	                    planner's choice for the side),
//	                    instances_per_worker (1, or the instances one wide
//	                    expert-parallel worker spans), mem_share (the
//	                    engine memory share the workers run at where the
//	                    planner set one, as the rows' mem_share),
//	                    prefill_worker (the prefill workers' tp, dp, ep,
//	                    instances_per_worker, mem_share and
//	                    redundant_experts, the worker's extra expert
//	                    copies where it has any: each side
//	                    takes its own layout), decode_worker (the same
//	                    for the decode workers, as the flat fields),
//	                    instances, gpus (spares included; instances at
//	                    most --max-instances),
//	                    mean_ttft_seconds and tpot_seconds (the disaggregated
//	                    model's means at the target rate on the pools
//	                    without their spares; an estimate),
//	                    ttft_slo_seconds and tpot_slo_seconds (the same at
//	                    slo_stat, the figures the pools were sized on),
//	                    kv_transfer_seconds, monthly_cost_usd,
//	                    monthly_cost_disp, aggregated_monthly_cost_usd, wins
//	                    (cheaper than the cheapest aggregated row), why;
//	                    absent when none applies
//
// Each row:
//
//	offer_id, provider, instance_type, gpu    the offer
//	instance_name       the instance as shown: instance_type, or where that
//	                    is a broker's encoded listing ID, a name built from
//	                    the offer's fields (catalog.Catalog.InstanceName)
//	gpus_per_instance   GPUs per instance (fractional for slices)
//	instances           instances rented; gpus = instances × gpus_per_instance
//	parallelism         {tp, pp, dp, zero}: TP × PP GPUs per model copy; dp
//	                    copies (training: data-parallel degree; serving and
//	                    batch: engine copies per replica); attention_dp and
//	                    expert_parallel: inference, the layout inside each
//	                    copy's TP GPUs (attention data-parallel ranks and
//	                    the GPUs the routed experts spread over: SGLang
//	                    --dp-size with --enable-dp-attention and --ep-size;
//	                    the request's --dp and --ep, or what the planner
//	                    chose for a mixture-of-experts model); 1: none;
//	                    virtual_stages: training with pp > 1, the model
//	                    chunks per stage of the pipeline schedule (1:
//	                    plain 1F1B), chosen with zero when --zero is not
//	                    given
//	replicas            serving: replicas of instances_per_replica instances
//	instances_per_replica
//	pricing             on-demand | spot | reserved-1y | reserved-3y
//	currency            the offer's own currency; price_per_hour is in it,
//	                    per instance (VAT removed with --exclude-vat)
//	price_per_hour_usd  the same converted to USD at the FX table, whose
//	                    date for the offer's currency is fx_as_of
//	job_hours           training: wall-clock hours of the whole run, the
//	                    steps over goodput (interruptions, restarts,
//	                    checkpoints; as estimate's job_seconds_with_overhead)
//	                    plus the start-up; batch: without interruptions
//	goodput             training: the share of the run's wall time in steps
//	                    (--goodput, else 1 − 10% × GPUs / 16,384, Llama 3
//	                    §3.3.4; an estimate)
//	billed_hours        training/batch: the hours each instance is billed for
//	                    job_hours, in the offer's billing units (whole hours
//	                    on an hourly-billed offer; AWS: 60 s at least)
//	gpu_hours           gpus × job_hours
//	comm_seconds_per_step  training: communication per optimizer step that
//	                    compute does not hide (TP, DP/ZeRO/FSDP over NVLink,
//	                    PCIe or the instance's network, offload)
//	bound               training: what limits the step (compute | communication)
//	job_cost            native currency: instances × price_per_hour × billed_hours
//	job_cost_usd        the same in USD; job_cost_disp in the display currency
//	monthly_cost_usd    serving: replicas × instances_per_replica ×
//	                    price_per_hour_usd × 730
//	sustainable_rps_per_replica  serving: requests/s one replica serves within the SLOs
//	ttft_p50_seconds, ttft_p95_seconds, tpot_seconds, e2e_p95_seconds,
//	utilisation         serving, at the target rate (tpot_seconds: the mean)
//	ttft_slo_seconds, tpot_slo_seconds  serving: TTFT and TPOT at slo_stat,
//	                    the figures the sizing held under --ttft-p95 and
//	                    --tpot (the simulated run's, or the closed form's)
//	binding             serving, when the engine simulator sized the row:
//	                    what set the replica count (ttft | tpot: the SLO
//	                    figure, at slo_stat, that one replica fewer
//	                    misses; throughput:
//	                    fewer replicas would run above --max-utilisation;
//	                    none: one replica is enough); absent otherwise
//	engine_limit        serving, with binding: what held requests back in
//	                    each engine copy in the simulated run at the target
//	                    (kv-cache | token-budget | max-seqs |
//	                    admission-interval | none)
//	usd_per_million_input_tokens, usd_per_million_output_tokens
//	                    inference: GPU time split between prefill and decode
//	on_demand_job_cost_usd  training/batch: the job at the on-demand price
//	spot_expected_cost_usd  expected cost on spot (training: Young/Daly
//	                    checkpointing, lost work and restarts, so above spot
//	                    price × job_hours; serving: a month with a spare
//	                    replica); with --pricing spot the ranking uses it
//	spot_expected_hours training/batch: expected hours on spot
//	checkpoint_interval_seconds  spot training: Daly's optimum
//	spot_interruptions_per_month  share of instances reclaimed per month assumed
//	reserved_break_even_utilisation  reserved rate / on-demand rate (0: no reservation price)
//	reserved_monthly_commitment_usd  reserved rate × 730 × instances
//	reserved_term_years the reservation those two describe (1 or 3; the
//	                    1-year one unless only the 3-year one is known)
//	usd_per_dense_tflops_hour, tokens_per_usd
//	vcpus, ram_gib      the instance's host (0: not listed)
//	host_offload_gib    CPU-offloaded state the instance's RAM must hold
//	                    (--offload; 0 without)
//	host_check          {status: ok|unknown|warn|fail, reason}; fail (offload
//	                    beyond ram_gib) also makes fits false
//	fits                whether the offer runs the job (and passes the host check, budget, deadline)
//	recommendation      cheapest | fastest | value | pareto | none
//	why                 one English sentence; why_key and why_args for translation
//	                    (reason.stale, reason.stale_estimated,
//	                    reason.stale_undated, reason.far_below: the picks
//	                    pass the row over for a fresher or normally priced
//	                    offer of its GPU; reason.host_short: its host has
//	                    fewer than 2 vCPUs or 8 GB of RAM a GPU, and a row
//	                    on a larger host runs the job)
//	as_of               the date of the offer's price (YYYY-MM-DD)
//	as_of_estimated     the date is the earliest the price can date from,
//	                    not a date its source states
//	as_of_lower_bound   (present when true) the estimated date is proven the
//	                    earliest by its source's history, not inferred from
//	                    its content: the price is at most price_age_days
//	                    old (SkyPilot's v9 files, created 2026-07-09); the
//	                    table writes such a date "≥2026-07-09"
//	source              where the price comes from
//	price_age_days      whole days from as_of to today (-1: undated)
//	stale               the price is older than freshness_days, undated or
//	                    its date estimated without a lower bound: verify it
//	                    before renting
//	far_below_median    the price per GPU-hour is under half the median of
//	                    the other providers' cheapest on-demand prices for
//	                    the GPU (at least two of them): a marketplace "from"
//	                    price, a lapsed promotion or an error
//	price_to_verify     the price's own source record leaves a condition
//	                    open (a footnote not captured, a column read one of
//	                    two ways, a regional outlier): the picks pass it
//	                    over while a confirmed price runs the job
//	from_price          the provider is a marketplace: its price is the
//	                    cheapest listing when read (a "from" price)
//
// Each hosted entry (--api-input-price/--api-output-price when given,
// else the catalog's list prices for --model), cheapest at the target
// rate first:
//
//	api, provider, model   the hosted API (catalog ID, "api" for the flags)
//	input_usd_per_million, output_usd_per_million
//	                    its price per 1M prompt and generated tokens, USD
//	                    (converted at the FX table when listed otherwise)
//	list_currency       the currency the list price is in
//	as_of, source       the list price's date and where it comes from
//	monthly_cost_usd    the API at the target rate: requests/s × 730 h ×
//	                    3,600 s × (prompt × input + output × output price) / 10⁶
//	self_hosted_monthly_cost_usd  the cheapest row's monthly_cost_usd (0
//	                    when no row fits: why_key hosted.no_fit)
//	break_even_requests_per_second  the rate above which self-hosting on
//	                    the cheapest row's replica costs less than the API
//	                    (one replica's month / the API's price per request-
//	                    second); 0 when one replica never gets there
//	always_cheaper_above_requests_per_second  the rate past which
//	                    self-hosting costs less at every rate, replicas
//	                    added as the rate grows: the break-even rate where a
//	                    second replica pays for itself, higher where the
//	                    replica a rate adds costs more than the API's tokens
//	                    at that rate; 0 with a break-even of 0
//	over_load_curve     with --load-curve or --workload: monthly_cost_usd
//	                    is the API over the day's curve (Σ hourly rate ×
//	                    3,600 s × the mean request's price, × 730/24), and
//	                    self_hosted_monthly_cost_usd the cheapest rented
//	                    fleet's best mix for that day; no break-even rate
//	why, why_key, why_args  the comparison as a sentence and message key
//
// The fleet object (plan.PlanFleet, plan.Fleet):
//
//	load_curve          24 requests/s, hour 0 (00:00) first
//	workload            with --workload: source (the file, or "preset
//	                    NAME"), requests (log lines; 0 for a histogram or a
//	                    preset), days the timestamps touch,
//	                    mean_prompt_tokens, mean_output_tokens, buckets
//	                    [{prompt_tokens, output_tokens, share}] (size
//	                    classes: each hour's engine copies carry the sum of
//	                    each class's load at its share of the rate),
//	                    curve_from_log
//	min_replicas        fewest replicas at any hour (--min-replicas)
//	spot_in_best_mix    false with --no-spot
//	offers              the best --fleet-offers offers, cheapest best mix
//	                    first, each:
//	  offer_id, provider, instance_type, gpu, instances_per_replica,
//	  gpus_per_replica   the peak plan's replica on the offer
//	  billing_granularity  the catalog's (second | minute | hour | month | "")
//	  billing_assumed_hour  the catalog gives none: billed by the hour
//	  billed_start_up_hours  what one start-up is billed, hours
//	  start_up_seconds  a new replica's start-up (--restart, default 600)
//	  spot_interruptions_per_month  share of spot replicas reclaimed a month
//	  sized, why        false with the reason when an hour or a size class
//	                    cannot be served on the offer's shape
//	  peak_replicas, min_replicas  replicas at the busiest and quietest hour
//	  reserved_1y_break_even_utilisation, reserved_3y_break_even_utilisation
//	                    reserved rate / on-demand rate (0: no price)
//	  all_on_demand, all_spot, all_reserved_1y, all_reserved_3y, best
//	                    each price model alone (spot with one spare
//	                    replica; reserved at the peak count) and the
//	                    cheapest mix, or null where the offer lacks the
//	                    price: {term (reserved-1y | reserved-3y | none),
//	                    reserved (replicas committed), monthly_usd, hours}
//	  hours             24 rows: hour, requests_per_second, need, reserved,
//	                    on_demand, spot (counting the spare), reserved_usd,
//	                    on_demand_usd, spot_usd, start_up_usd (replicas
//	                    joining this hour, billed at the granularity),
//	                    spot_reclaim_usd (expected replacements), usd (their
//	                    sum, one day's hour), monthly_usd (usd × 730/24);
//	                    monthly_usd of the choice is the sum of its rows
//	  saving_usd, saving_share  all_on_demand less best, per month
//	  declined_spot_monthly_usd, second_spare_monthly_usd  where the cheapest
//	                    mix held spot but saved less than a second spare
//	                    spot replica costs: that mix's bill and the spare's
//	                    (best is then the cheapest mix without spot)
//	  owned             with --own-price: gpu (the offer's, one of which
//	                    --own-price prices), price_usd, watts, pue, kwh_usd,
//	                    depreciation_years, utilisation,
//	                    capital_per_gpu_hour_usd, energy_per_busy_gpu_hour_usd,
//	                    cost_per_busy_gpu_hour_usd, rented_per_gpu_hour_usd
//	                    (on demand), break_even_utilisation (null: never),
//	                    gpus (the peak's), monthly_usd (owning them)
//	mixed               with a --workload of two or more size classes
//	                    (plan.PlanMix): each class on its own offer, classes
//	                    on one offer sharing its replicas, against the best
//	                    single offer (the cheapest of the search's and of
//	                    the offers above); omitted otherwise:
//	  mixed             false when one offer is cheapest for every class
//	                    (groups is then that offer alone)
//	  monthly_usd       the sum of the groups' best.monthly_usd
//	  single_monthly_usd  the best single offer's best.monthly_usd; never
//	                    below monthly_usd, nor above any offers[].best
//	  saving_usd, saving_share  single_monthly_usd less monthly_usd, and
//	                    that as a share of single_monthly_usd
//	  why               the mix in one English sentence (classes, offers,
//	                    cost per million requests there and on the single)
//	  offers_screened   offers searched (the filters', with an on-demand
//	                    price)
//	  classes           the workload's size classes: prompt_tokens,
//	                    output_tokens, share (of requests), group (index in
//	                    groups), requests_per_second_per_copy (the most one
//	                    engine copy of the group's shape serves of the
//	                    class within the SLOs, simulated),
//	                    single_requests_per_second_per_copy (the same on
//	                    the single offer), usd_per_million_requests and
//	                    single_usd_per_million_requests (on-demand replica
//	                    price / (3,600 × that rate × copies per replica) ×
//	                    10⁶)
//	  groups, single    an offer and its classes: offer_id, provider,
//	                    instance_type, gpu, tp, pp, copies_per_instance,
//	                    instances_per_replica, gpus_per_replica, classes
//	                    (indices), share, peak_replicas, min_replicas,
//	                    all_on_demand_monthly_usd, best (as in offers)
func runPlan(args []string, stdout, stderr io.Writer) int {
	return estimateCommand("plan", args, stdout, stderr, &planCmd{stderr: stderr})
}

// planCmd reads its flags by name after parsing: a flag that the estimate
// command defines too (say, a future --network-gbps) is shared, not
// redefined (flag.FlagSet panics on redefinition).
type planCmd struct {
	fs     *flag.FlagSet
	stderr io.Writer // warnings for the table, CSV and Markdown formats
	// tokensByDefault: a training --task with no workload flag plans
	// --train-tokens' default, as the page's training job does (request);
	// the plan says so in a note.
	tokensByDefault bool
	// ckptDefault: the job's activation checkpointing is QLoRA's default
	// (estimateJob.ckptDefault), which the JSON says.
	ckptDefault bool
}

// planFlags are the plan's own flags; every value is parsed by request,
// so a bad one is a one-line error naming the flag.
var planFlags = []flagRow{
	sharedFlag(jobspec.Epochs, "training: passes over --dataset-tokens"),
	sharedFlag(jobspec.DatasetTokens, "training: tokens in the dataset, e.g. 2B"),
	{"global-batch-tokens", "", "training: tokens per optimizer step, e.g. 4M (default: pre-training's published batch for the model's size, 0.5M-4M tokens; fine-tunes one micro-batch per replica, 4×PP with PP)"},
	sharedFlag(jobspec.Requests, "batch inference: requests in the job, e.g. 1M"),
	sharedFlag(jobspec.RequestsPerSecond, "online serving: target request rate"),
	{"ttft-p95", "", "serving SLO: time to first token at --slo-stat (p95 by default), e.g. 1s, 800ms; 0: none (default: " + ttftDefaultRule + ")"},
	{"tpot", strconv.FormatFloat(1000*plan.DefaultTPOTSeconds, 'g', -1, 64) + "ms", "serving SLO: time per output token at --slo-stat, e.g. 50ms; 0: none"},
	sharedFlag(jobspec.SLOStat, "serving: the statistic --ttft-p95 and --tpot bound over the requests: mean|p50|p90|p95|p99"),
	{"max-utilisation", "0", "serving: cap on each replica's load (0: 0.8)"},
	sharedFlag(jobspec.Pricing, "on-demand|spot|reserved-1y|reserved-3y"),
	sharedFlag(jobspec.Currency, "display currency (the catalog's FX table's)"),
	sharedFlag(jobspec.Provider, "comma-separated provider IDs (a comma inside a name of your own price sheet is written \\,)"),
	{"kind", "", "comma-separated provider kinds: hyperscaler,gpu-cloud,marketplace,broker,decentralized, or any (default: hyperscaler,gpu-cloud,broker)"},
	sharedFlag(jobspec.Country, "comma-separated ISO codes of the provider's home country (billing, law, VAT); where the machines stand is --region"),
	sharedFlag(jobspec.MinVCPUs, "minimum vCPUs per instance (0: no floor)"),
	{"min-ram", "0", "minimum host RAM per instance, GiB"},
	{"budget", "", "maximum job cost (serving: monthly bill) in --currency"},
	{"deadline", "", "maximum job time, e.g. 72h, 3d; 0: none (default: none, except pre-training, which assumes " + runLengthDays + " days, the longest published pre-training run: BLOOM 176B)"},
	sharedFlag(jobspec.SpotInterruptions, "share of spot instances reclaimed per month, 0 to 1 (0: per-offer bucket, else 0.20)"),
	sharedFlag(jobspec.CheckpointWrite, "checkpoint write rate per instance per second, e.g. 2GB (default 1000MiB)"),
	sharedFlag(jobspec.Restart, "an instance's start-up: a batch job's before its first request, a restart after a spot reclaim (training, batch), a new replica's in the daily fleet of --load-curve or --workload (default 10m)"),
	{"network-gbps", "0", "inter-node network where the catalog has none (0: 100)"},
	sharedFlag(jobspec.APIInputPrice, "hosted API: USD per 1M input tokens, to compare with self-hosting (default: the catalog's list prices for --model)"),
	sharedFlag(jobspec.APIOutputPrice, "hosted API: USD per 1M output tokens (default: the catalog's list prices for --model)"),
	{"max-instances", "0", "most instances one plan may rent (0: 64)"},
	sharedFlag(jobspec.FreshnessDays, "freshness window in days: the picks rest on prices no older than this (and not estimated) wherever the GPU has one"),
	{"top", "10", "rows to print (0: all fitting)"},
	{"format", "table", "table|json|csv|markdown"},
}

func (c *planCmd) define(fs *flag.FlagSet) {
	c.fs = fs
	for _, f := range planFlags {
		if f.name == "currency" {
			// The currencies the catalog's FX table converts, as the
			// page's picker lists them.
			f.usage = "display currency: " + strings.Join(catalog.Default().Currencies(), "|")
		}
		if fs.Lookup(f.name) == nil {
			fs.String(f.name, f.def, f.usage)
		}
	}
	defineFleetFlags(fs)
	defineEmitFlags(fs)  // emit.go
	definePriceFlags(fs) // prices.go
	for _, b := range []struct{ name, usage string }{{"exclude-vat", "normalise VAT-inclusive prices to exclude VAT"},
		{"all", "also print offers that do not fit, with the reason"}} {
		if fs.Lookup(b.name) == nil {
			fs.Bool(b.name, false, b.usage)
		}
	}
	if fs.Lookup(jobspec.Fields[jobspec.UnknownNetworks].Flag) == nil {
		boolFlag(fs, jobspec.UnknownNetworks, "let a plan span instances whose provider names no network between them (at --network-gbps, with a note); off: such offers run on one instance only")
	}
}

// s is a flag's value as text.
func (c *planCmd) s(name string) string { return c.fs.Lookup(name).Value.String() }

// parseDuration reads "1.5s", "800ms", "72h", "3d" or bare seconds, as
// the page reads its times (page.ParseDuration, there with a bare number
// in milliseconds or hours).
func parseDuration(s string) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, errors.New("empty duration")
	}
	v, _, err := page.ParseDuration(s, 1)
	if err != nil {
		return 0, fmt.Errorf("duration %q: want e.g. 3d, 72h, 800ms (0 to 10^9 s)", s)
	}
	return v, nil
}

// parseAmount reads a finite number from 0 to 10^15, as the page reads
// its amounts (page.ParseAmount).
func parseAmount(s string) (float64, error) {
	v, _, err := page.ParseAmount(s)
	return v, err
}

// request turns the flags into a plan request.
func (c *planCmd) request(job estimateJob, cat *catalog.Catalog) (plan.Request, error) {
	var errs []error
	add := func(flagName string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flagName, err))
		}
	}
	// The planner's assumptions the page has too, read as it reads them
	// (page.ParsePlan); each problem is said where the flag is checked.
	text := jobText(c.fs, job.set)
	pj, perrs := page.ParsePlan(&text, cat)
	said := func(f jobspec.Field) {
		for _, e := range perrs {
			if e.Field == f {
				errs = append(errs, e)
			}
		}
	}
	req := plan.Request{Input: job.in, Currency: pj.Currency, FX: cat.PlanFX(), ExcludeVAT: c.s("exclude-vat") == "true"}
	said(jobspec.Currency)
	// Without --zero the planner chooses pre-training's ZeRO stage, and
	// the schedule unless --virtual-stages is given, for each shape it
	// tries (plan.Request.ZeROOpen), from the user's own settings rather
	// than those the estimate resolved at --gpus.
	if req.ZeROOpen = !job.set["zero"]; req.ZeROOpen && !job.set["virtual-stages"] {
		req.Input.Schedule.VirtualStages = 0
	}
	// Without --engine a decoder's batch job is planned on vLLM, the
	// engine --emit launches (plan.Request.EngineOpen).
	req.EngineOpen = job.engineOpen
	// A fine-tune named by Lightning's precision is laid out as LitGPT's
	// scripts run it, the launch --emit litgpt writes (plan.Request.LitGPT).
	req.LitGPT = job.stack != nil
	req.FSDPNoSyncGiven = job.noSyncGiven
	var err error
	req.Pricing = pj.Pricing
	said(jobspec.Pricing)
	w := &req.Workload
	w.PromptTokens, w.OutputTokens = job.prompt, job.output
	count := func(name, v string) float64 {
		if v == "" {
			return 0
		}
		x, err := estimator.ParseCount(v)
		add(name, err)
		return x
	}
	num := func(name string) float64 {
		x, err := parseAmount(c.s(name))
		add(name, err)
		return x
	}
	integer := func(name string) int {
		x, err := strconv.Atoi(c.s(name))
		if err != nil || x < 0 {
			add(name, fmt.Errorf("%q: want a whole number ≥ 0", c.s(name)))
		}
		return max(x, 0)
	}
	dur := func(name, v string) float64 {
		if v == "" {
			return 0
		}
		x, err := parseDuration(v)
		add(name, err)
		return x
	}
	epochs, dataset, requests := pj.Epochs, pj.DatasetTokens, pj.Requests
	said(jobspec.Epochs)
	said(jobspec.DatasetTokens)
	said(jobspec.Requests)
	rps := pj.RequestsPerSecond
	said(jobspec.RequestsPerSecond)
	train := job.set["train-tokens"] || c.s("dataset-tokens") != "" || c.s("epochs") != ""
	// A training task named with no workload trains --train-tokens'
	// default, as the page plans its training job; it refused.
	c.tokensByDefault = !train && job.set["task"] && job.in.Task.Training() && c.s("requests") == "" && c.s("requests-per-second") == ""
	train = train || c.tokensByDefault
	c.ckptDefault = job.ckptDefault
	kinds := 0
	for _, b := range []bool{train, c.s("requests") != "", c.s("requests-per-second") != ""} {
		if b {
			kinds++
		}
	}
	switch {
	case kinds == 0:
		errs = append(errs, errors.New("need a workload: --train-tokens N, --epochs E --dataset-tokens N, --requests N or --requests-per-second R"))
	case kinds > 1:
		errs = append(errs, errors.New("--train-tokens/--epochs, --requests and --requests-per-second are exclusive"))
	case train:
		w.Kind = plan.Training
		w.TrainTokens = job.trainTokens
		if c.s("dataset-tokens") != "" || c.s("epochs") != "" {
			if c.s("dataset-tokens") == "" || job.set["train-tokens"] {
				errs = append(errs, errors.New("--epochs needs --dataset-tokens (and replaces --train-tokens)"))
			}
			if c.s("epochs") == "" {
				epochs = 1
			}
			w.TrainTokens = epochs * dataset
		}
		w.GlobalBatchTokens = count("global-batch-tokens", c.s("global-batch-tokens"))
		switch gb := page.GlobalBatchTokens(req.Input); {
		case gb > 0 && job.set["global-batch-tokens"]:
			errs = append(errs, errors.New("--global-batch and --global-batch-tokens are exclusive: give the step in sequences or in tokens"))
		case gb > 0:
			// --global-batch in sequences, as the page asks the planner.
			w.GlobalBatchTokens = gb
		}
		if !job.set["task"] {
			req.Input.Task = estimator.FullFinetune
		}
	case c.s("requests") != "":
		w.Kind, w.Requests = plan.Batch, requests
	default:
		w.Kind, w.RequestsPerSecond = plan.Serving, rps
		w.TPOTSeconds = dur("tpot", c.s("tpot"))
		if w.TTFTByDefault = c.s("ttft-p95") == ""; !w.TTFTByDefault {
			w.TTFTP95Seconds = dur("ttft-p95", c.s("ttft-p95"))
		}
		w.SLOStat = pj.SLOStat
		said(jobspec.SLOStat)
		w.MaxUtilisation = num("max-utilisation")
	}
	if err := checkPlanFlags(*w, job.set, c.s); kinds == 1 && err != nil {
		errs = append(errs, err)
	}
	f := &req.Filters
	// No --kind is the default set (catalog.DefaultKinds), --kind any every kind.
	f.Providers, f.Countries, f.Regions = pj.Providers, pj.Countries, pj.Regions
	f.Kinds, err = catalog.KindsFilter(c.s("kind"))
	add("kind", err)
	said(jobspec.Provider)
	said(jobspec.Region)
	f.MinVCPUs, f.MinRAMGiB = pj.MinVCPUs, num("min-ram")
	said(jobspec.MinVCPUs)
	if c.s("budget") != "" {
		b, err := parseAmount(c.s("budget"))
		add("budget", err)
		for _, x := range req.FX {
			if x.Currency == req.Currency {
				f.BudgetUSD = b / x.PerUSD
			}
		}
	}
	f.DeadlineSeconds = dur("deadline", c.s("deadline"))
	// --deadline 0: none, not even pre-training's assumed run length.
	f.NoDeadline = c.s("deadline") != "" && f.DeadlineSeconds == 0
	// The layout flags: a plan over every GPU chooses each offer's GPUs,
	// TP and PP, as the page's plans do; with --gpu they plan that layout
	// on that GPU (--gpus, else one model copy of TP × PP × CP GPUs, as
	// the estimate reads them). Without --gpu they are refused, not
	// dropped unsaid. --ep and --cp are kept by every plan (training
	// splits the experts over EP data-parallel ranks, and the sequence
	// over CP GPUs); --zero, --grad-checkpointing and --offload are the
	// rows' notes where a rented fleet's layout differs.
	var layout []string
	for _, n := range []string{"gpus", "tp", "pp"} {
		if job.set[n] {
			layout = append(layout, "--"+n)
		}
	}
	switch {
	case job.set["gpu"]:
		f.GPU = job.gpu.ID
		job.gpu.SetMemory(&req.Input)
		req.FixedParallelism = len(layout) > 0
	case len(layout) > 0:
		errs = append(errs, fmt.Errorf("%s: a plan over every GPU chooses each offer's GPUs, TP and PP; give --gpu too to plan this layout on one GPU", strings.Join(layout, ", ")))
	}
	a := &req.Assumptions
	a.SpotInterruptionsPerMonth, a.NetworkGbps = pj.SpotInterruptions, num("network-gbps")
	said(jobspec.SpotInterruptions)
	a.UnknownNetworks = pj.UnknownNetworks
	a.Efficiency = job.eff
	a.CheckpointWriteBytesPerSecond, a.RestartSeconds = pj.CkptWriteBytesPerSecond, pj.RestartSeconds
	a.Goodput = num("goodput") // a training run's, as rightsize estimate --goodput reads it
	said(jobspec.CheckpointWrite)
	said(jobspec.Restart)
	// Hosted APIs: the user's price when given, else the catalog's dated,
	// sourced list prices for the model.
	said(jobspec.APIInputPrice)
	said(jobspec.APIOutputPrice)
	if pj.HostedAPI != nil {
		req.HostedAPIs = []plan.HostedAPI{*pj.HostedAPI}
	} else {
		req.HostedAPIs = cat.PlanHostedAPIs(job.name)
	}
	switch c.s("format") {
	case "table", "json", "csv", "markdown":
	default:
		errs = append(errs, fmt.Errorf("--format %q: want table, json, csv or markdown", c.s("format")))
	}
	integer("top")
	integer("max-instances")
	req.FreshnessDays = pj.FreshnessDays
	said(jobspec.FreshnessDays)
	if len(errs) > 0 {
		return req, errors.Join(errs...)
	}
	// The TTFT target in effect, which the JSON and the table echo.
	req = req.WithDefaultTTFT()
	return req, req.Validate()
}

func (c *planCmd) run(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	// --json, which the estimate command defines and plan shares, is
	// --format json, as in "rightsize estimate --json"; it conflicts with
	// another --format.
	if f := c.fs.Lookup("json"); f != nil && f.Value.String() == "true" {
		switch c.s("format") {
		case "table", "json":
			if err := c.fs.Set("format", "json"); err != nil {
				return fail("%v", err)
			}
		default:
			return fail("--json and --format %s: give one", c.s("format"))
		}
	}
	if c.emitAsked() {
		return c.runEmit(job, stdout, fail) // emit.go
	}
	if c.fleetAsked() {
		return c.runFleet(job, stdout, fail) // fleet.go
	}
	// Owned GPUs are priced against the rented fleet over a day's load
	// (fleet.go, ownedInputs); a plan without one would drop them unsaid.
	for _, n := range []string{"own-price", "own-watts", "pue", "kwh-price", "depreciation-years", "utilisation"} {
		if c.s(n) != "" {
			return fail("--%s: owned GPUs are set against a rented fleet over a day's load: give --load-curve or --workload too", n)
		}
	}
	// The fleet's own settings have defaults, so only one given on the
	// command line is refused: a plan without a day's load has no fleet
	// for them to shape.
	var fleetOnly string
	c.fs.Visit(func(f *flag.Flag) {
		if fleetOnly == "" && (f.Name == "min-replicas" || f.Name == "fleet-offers" || f.Name == "no-spot") {
			fleetOnly = f.Name
		}
	})
	if fleetOnly != "" {
		return fail("--%s: shapes the fleet over a day's load: give --load-curve or --workload too", fleetOnly)
	}
	cat, err := c.catalog()
	if err != nil {
		return fail("%v", err)
	}
	req, err := c.request(job, cat)
	if err != nil {
		return fail("%v", err)
	}
	top, _ := strconv.Atoi(c.s("top"))
	maxInst, _ := strconv.Atoi(c.s("max-instances"))
	offers := planOffers(cat, req.Input.Weights)
	// A plan over a second says how far it is on a terminal's stderr
	// (the planner yields between offers).
	prog, done := newProgress(c.stderr), 0
	prog.label = "planning… offers"
	res, err := plan.Plan(req, offers, plan.Options{Top: top, KeepUnfit: c.s("all") == "true", MaxInstances: maxInst,
		Yield: func() { done++; prog.update(done, len(offers)) }})
	prog.end()
	if err != nil {
		return fail("%v", err)
	}
	out := newPlanJSON(req, res, cat)
	out.GradCheckpointingDefault = c.ckptDefault
	if forms := cat.Forms(req.Filters.GPU); len(forms) > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("--gpu %s names the chip in no form factor: the plan takes its %s offers too (the gpu column says which a row rents)", req.Filters.GPU, strings.Join(forms, " and ")))
	}
	if c.tokensByDefault {
		out.Notes = append(out.Notes, fmt.Sprintf("%s training tokens, --train-tokens' default (the page's too): give --train-tokens, or --epochs with --dataset-tokens, for your job's", c.s("train-tokens")))
	}
	out.Commitments = commitments(req, res, offers, maxInst)
	if res.Cheapest < 0 {
		// Nothing fits: say what does exist without the narrowest filter.
		if w, dropped, ok := plan.Widen(req, offers, plan.Options{MaxInstances: maxInst}); ok {
			r := w.Rows[w.Cheapest]
			out.Widened = &widenedJSON{Dropped: dropped, OfferID: r.Offer.ID, Provider: r.Offer.Provider, InstanceType: r.Offer.InstanceType,
				InstanceName: r.Offer.Name(), GPU: r.Offer.GPU, Instances: r.Instances, PricePerHourDisp: r.PricePerHourDisp, CostDisp: r.RankedCostDisp}
		}
		// One reason for every offer left: say it ("vllm does not run
		// on Pascal GPUs") and the engines that do run the job there.
		if res.OverBudget == 0 && res.PastDeadline == 0 {
			if cause, ok := page.NoneCauseOf(req, res, offers, plan.Options{MaxInstances: maxInst}); ok {
				en := page.Locale{Lang: "en"}
				out.NoneCause = cause.Clause(en, estimator.Engine.String)
				switch {
				case cause.Layout:
					out.NoneCause = cause.Why.String() // the flags to change, not the page's fields
				case len(cause.Mixed) > 0:
					// Different reasons, the most common first, in the
					// planner's own words (its flags).
					out.NoneCause = cause.MixedLine(en, plan.Reason.String)
					for _, m := range cause.Mixed {
						out.NoneReasons = append(out.NoneReasons, noneReasonJSON{Reason: m.Why.String(), Key: m.Why.Key.String(), Offers: m.Offers})
					}
				}
				for _, e := range cause.Runs {
					out.NoneCauseEngines = append(out.NoneCauseEngines, e.String())
				}
			}
		}
	}
	if c.s("format") != "json" && c.stderr != nil {
		for _, w := range out.Warnings {
			fmt.Fprintln(c.stderr, "warning: "+w)
		}
	}
	switch c.s("format") {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
	case "csv":
		writeCSV(stdout, out)
	case "markdown":
		writeMarkdown(stdout, out)
	default:
		writeTable(stdout, out)
	}
	return 0
}

// parallelismJSON is a row's layout. For training rows, zero,
// grad_checkpointing and offload are the memory layout planned: the
// user's with --gpu and --gpus fixed, else the rental layout the planner
// chose (the row's notes say when it differs from the flags).
type parallelismJSON struct {
	TP                int    `json:"tp"`
	PP                int    `json:"pp"`
	DP                int    `json:"dp"`
	ZeRO              int    `json:"zero"`
	VirtualStages     int    `json:"virtual_stages,omitempty"`
	ContextParallel   int    `json:"context_parallel,omitempty"`
	GradCheckpointing bool   `json:"grad_checkpointing"`
	Offload           string `json:"offload"`
	AttentionDP       int    `json:"attention_dp"`
	ExpertParallel    int    `json:"expert_parallel"`
}

type hostJSON struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

type planRowJSON struct {
	OfferID         string  `json:"offer_id"`
	Provider        string  `json:"provider"`
	InstanceType    string  `json:"instance_type"`
	InstanceName    string  `json:"instance_name"` // as shown (catalog.Catalog.InstanceName)
	GPU             string  `json:"gpu"`
	GPUsPerInstance float64 `json:"gpus_per_instance"`
	Instances       int     `json:"instances"`
	// RentedInstances is plan.Row.Rented, the instances the bill pays for
	// where the provider rents them in whole orders (a GB200 NVL72 rack's
	// 18 trays); absent where it is Instances.
	RentedInstances              int             `json:"rented_instances,omitempty"`
	GPUs                         float64         `json:"gpus"`
	Parallelism                  parallelismJSON `json:"parallelism"`
	MemShare                     float64         `json:"mem_share,omitempty"`         // plan.Row.MemShare: the share the planner set, the launch's --mem-fraction-static
	RedundantExperts             int             `json:"redundant_experts,omitempty"` // plan.Row.RedundantExperts: extra expert copies over the EP ranks
	Replicas                     int             `json:"replicas"`
	InstancesPerReplica          int             `json:"instances_per_replica"`
	ScaledFrom                   int             `json:"scaled_from,omitempty"` // plan.Row.ScaledFrom: a scaled-out training or batch row's fewest instances
	Pricing                      string          `json:"pricing"`
	Currency                     string          `json:"currency"`
	PricePerHour                 float64         `json:"price_per_hour"`
	PricePerHourUSD              float64         `json:"price_per_hour_usd"`
	PricePerHourDisp             float64         `json:"price_per_hour_disp"`
	FXAsOf                       string          `json:"fx_as_of"`
	JobHours                     float64         `json:"job_hours"`
	Goodput                      float64         `json:"goodput,omitempty"`
	BilledHours                  float64         `json:"billed_hours,omitempty"`
	GPUHours                     float64         `json:"gpu_hours"`
	JobCost                      float64         `json:"job_cost"`
	JobCostUSD                   float64         `json:"job_cost_usd"`
	JobCostDisp                  float64         `json:"job_cost_disp"`
	OptimizerSteps               float64         `json:"optimizer_steps,omitempty"`
	TokensPerSecond              float64         `json:"tokens_per_second"`
	CommSecondsPerStep           float64         `json:"comm_seconds_per_step,omitempty"`
	Bound                        string          `json:"bound,omitempty"`
	MonthlyCostUSD               float64         `json:"monthly_cost_usd"`
	MonthlyCostDisp              float64         `json:"monthly_cost_disp"`
	SustainableRPSPerReplica     float64         `json:"sustainable_rps_per_replica"`
	TTFTP50Seconds               float64         `json:"ttft_p50_seconds"`
	TTFTP95Seconds               float64         `json:"ttft_p95_seconds"`
	TTFTAtSLOSeconds             float64         `json:"ttft_slo_seconds,omitempty"`
	TPOTAtSLOSeconds             float64         `json:"tpot_slo_seconds,omitempty"`
	TPOTSeconds                  float64         `json:"tpot_seconds"`
	E2EP95Seconds                float64         `json:"e2e_p95_seconds"`
	Utilisation                  float64         `json:"utilisation"`
	Binding                      string          `json:"binding,omitempty"`
	EngineLimit                  string          `json:"engine_limit,omitempty"`
	USDPerMillionInput           float64         `json:"usd_per_million_input_tokens"`
	USDPerMillionOutput          float64         `json:"usd_per_million_output_tokens"`
	OnDemandJobCostUSD           float64         `json:"on_demand_job_cost_usd"`
	SpotExpectedCostUSD          float64         `json:"spot_expected_cost_usd"`
	SpotExpectedHours            float64         `json:"spot_expected_hours,omitempty"`
	CheckpointIntervalSeconds    float64         `json:"checkpoint_interval_seconds,omitempty"`
	SpotInterruptionsPerMonth    float64         `json:"spot_interruptions_per_month,omitempty"`
	ReservedBreakEvenUtilisation float64         `json:"reserved_break_even_utilisation"`
	ReservedMonthlyCommitmentUSD float64         `json:"reserved_monthly_commitment_usd"`
	ReservedCommitmentUSD        float64         `json:"reserved_commitment_usd"` // the whole term at the reserved price
	ReservedTermYears            int             `json:"reserved_term_years,omitempty"`
	USDPerDenseTFLOPSHour        float64         `json:"usd_per_dense_tflops_hour"`
	TokensPerUSD                 float64         `json:"tokens_per_usd"`
	VCPUs                        int             `json:"vcpus"`
	RAMGiB                       float64         `json:"ram_gib"`
	HostOffloadGiB               float64         `json:"host_offload_gib"`
	HostCheck                    hostJSON        `json:"host_check"`
	Fits                         bool            `json:"fits"`
	Recommendation               string          `json:"recommendation"`
	// Quickest marks the plan of the shortest time whatever its cost
	// (plan.Result.Quickest): "fastest" is the faster alternative within
	// plan.AltCostBound × the cheapest plan's cost, which is this row only
	// where the quickest plan is within that bound.
	Quickest       bool     `json:"quickest,omitempty"`
	Why            string   `json:"why"`
	WhyKey         string   `json:"why_key"`
	WhyArgs        []any    `json:"why_args"`
	Notes          []string `json:"notes"`
	AsOf           string   `json:"as_of"`
	AsOfEstimated  bool     `json:"as_of_estimated"`
	AsOfLowerBound bool     `json:"as_of_lower_bound,omitempty"`
	Source         string   `json:"source"`
	PriceAgeDays   int      `json:"price_age_days"`
	Stale          bool     `json:"stale"`
	FarBelowMedian bool     `json:"far_below_median"`
	PriceToVerify  bool     `json:"price_to_verify"`
	FromPrice      bool     `json:"from_price"`
	// Weights is the weight format the row runs: the job's, or what the
	// GPU and engine run instead (fp16 where there is no bf16; a note
	// says so). UserPrice marks a price from --prices.
	Weights string `json:"weights"`
	// Engine is the inference engine the row is planned on (plan.Row.Engine:
	// the user's, or vLLM for serving and for a decoder's batch job with
	// no --engine); empty for training.
	Engine       string `json:"engine,omitempty"`
	UserPrice    bool   `json:"user_price"`
	ProviderKind string `json:"provider_kind"`
	// Unchecked names the filters (--region, --min-vcpus, --min-ram,
	// --country) the user's own row could not be checked against, its
	// sheet's column left empty: "region", "vcpus", "ram_gib", or its
	// provider the user's own, of no known country: "country"
	// (plan.Row.Unchecked).
	Unchecked []string `json:"unchecked_filters,omitempty"`
}

type hostedJSON struct {
	API                 string  `json:"api"`
	Provider            string  `json:"provider"`
	Model               string  `json:"model"`
	InputUSDPerMillion  float64 `json:"input_usd_per_million"`
	OutputUSDPerMillion float64 `json:"output_usd_per_million"`
	Currency            string  `json:"list_currency"`
	AsOf                string  `json:"as_of"`
	Source              string  `json:"source"`
	MonthlyCostUSD      float64 `json:"monthly_cost_usd"`
	SelfHostedUSD       float64 `json:"self_hosted_monthly_cost_usd"`
	BreakEvenRPS        float64 `json:"break_even_requests_per_second"`
	AlwaysAboveRPS      float64 `json:"always_cheaper_above_requests_per_second"`
	OverLoadCurve       bool    `json:"over_load_curve"`
	Why                 string  `json:"why"`
	WhyKey              string  `json:"why_key"`
	WhyArgs             []any   `json:"why_args"`
}

type planJSON struct {
	Currency string `json:"currency"`
	FXAsOf   string `json:"fx_as_of"`
	FXSource string `json:"fx_source"`
	Workload string `json:"workload"`
	SLOStat  string `json:"slo_stat,omitempty"`
	// TTFTTargetSeconds and TPOTTargetSeconds are the serving targets the
	// plan held at slo_stat (--ttft-p95, --tpot; their defaults are
	// plan.DefaultTTFT of the prompt and DefaultTPOTSeconds); 0: none.
	// TTFTTargetFrom says whose the TTFT target is, "user" or "default",
	// and TTFTTargetSource the default's rule and source.
	TTFTTargetSeconds float64 `json:"ttft_target_seconds,omitempty"`
	TPOTTargetSeconds float64 `json:"tpot_target_seconds,omitempty"`
	TTFTTargetFrom    string  `json:"ttft_target_from,omitempty"`
	TTFTTargetSource  string  `json:"ttft_target_source,omitempty"`
	CheckpointBytes   float64 `json:"checkpoint_bytes,omitempty"`
	// DeadlineSeconds is the deadline a training or batch plan held:
	// --deadline, or pre-training's assumed run length
	// (plan.DefaultPretrainDeadlineSeconds) where deadline_from is
	// "default", with deadline_source its source; 0: none.
	DeadlineSeconds float64 `json:"deadline_seconds,omitempty"`
	DeadlineFrom    string  `json:"deadline_from,omitempty"`
	DeadlineSource  string  `json:"deadline_source,omitempty"`
	// AssumedDeadline is what the assumed run length changed
	// (plan.AssumedDeadline); absent where no run length was assumed.
	AssumedDeadline *assumedDeadlineJSON `json:"assumed_deadline,omitempty"`
	Considered      int                  `json:"considered"`
	Fitting         int                  `json:"fitting"`
	Notes           []string             `json:"notes"`
	FreshnessDays   int                  `json:"freshness_days"`
	Warnings        []string             `json:"warnings"`
	// GradCheckpointingDefault: the job's activation checkpointing is on
	// as QLoRA's stacks run it, no --grad-checkpointing given; a rented
	// fleet's rows take their own (parallelism.grad_checkpointing).
	GradCheckpointingDefault bool `json:"grad_checkpointing_default,omitempty"`
	// CheaperFlagged is the index in rows of the cheapest plan passed over
	// for its price (stale or far below the median) that would cost less
	// than the cheapest pick: "cheaper if the price holds — verify". -1:
	// none.
	CheaperFlagged int `json:"cheaper_flagged"`
	// WhyValue is the best value's sentence (plan.Result.WhyValue): its
	// row's own, or where the best value is the cheapest or the fastest
	// plan, the sentence that says so; "" when nothing fits.
	WhyValue string `json:"why_value"`
	// WhyFastest is the fastest pick's sentence (plan.Result.WhyFastest):
	// its row's own, or where the cheapest plan is also the fastest, the
	// sentence that says so; "" when nothing fits.
	WhyFastest string `json:"why_fastest"`
	// Widened is what fits with the narrowest filter dropped when nothing
	// fits with all of them (plan.Widen); absent otherwise.
	Widened *widenedJSON `json:"widened,omitempty"`
	// NoneCause is, when nothing fits for no budget or deadline, the one
	// reason every offer left is refused for, with the engines that run
	// the job where that reason is an engine's (page.NoneCause, the
	// page's sentence); NoneCauseEngines those engines' --engine values.
	NoneCause        string   `json:"none_cause,omitempty"`
	NoneCauseEngines []string `json:"none_cause_engines,omitempty"`
	// NoneReasons are, when nothing fits for no budget or deadline and
	// the offers left are refused for different reasons, every reason
	// and the offers it refused, the most common first
	// (plan.CountReasons); NoneCause then names the three most common.
	NoneReasons []noneReasonJSON `json:"none_reasons,omitempty"`
	// ProviderKinds are the provider kinds the plan considered (empty:
	// every kind, --kind any); the default is hyperscaler, gpu-cloud and
	// broker.
	ProviderKinds []string        `json:"provider_kinds"`
	Rows          []planRowJSON   `json:"rows"`
	Hosted        []hostedJSON    `json:"hosted,omitempty"`
	Commitments   []commitJSON    `json:"commitments,omitempty"`
	Fleet         *fleetJSON      `json:"fleet,omitempty"`
	Disagg        *disaggPlanJSON `json:"disaggregated,omitempty"`
	// perUSD is Currency's units per US dollar (0: USD), for the table's
	// columns whose JSON fields are in USD.
	perUSD float64
	// fx is the request's FX table, for the table's line on the rows
	// listed in another currency than the plan's.
	fx []plan.FXRate
	// promptTokens is the prompt a default TTFT target was read at, for
	// the table's targets line.
	promptTokens float64
}

// disp is usd in the plan's currency, as the table shows money.
func (p planJSON) disp(usd float64) float64 {
	if p.perUSD > 0 {
		return usd * p.perUSD
	}
	return usd
}

// disaggPlanJSON is plan.DisaggPlan (the package comment lists its fields).
type disaggPlanJSON struct {
	OfferID       string           `json:"offer_id"`
	Provider      string           `json:"provider"`
	InstanceType  string           `json:"instance_type"`
	GPU           string           `json:"gpu"`
	Engine        string           `json:"engine"`
	TP            int              `json:"tp"`
	Prefill       int              `json:"prefill_workers"`
	Decode        int              `json:"decode_workers"`
	PrefillSpare  int              `json:"prefill_spare_workers"`
	DecodeSpare   int              `json:"decode_spare_workers"`
	DP            int              `json:"dp"`
	EP            int              `json:"ep"`
	Instances     int              `json:"instances"`
	PerWorker     int              `json:"instances_per_worker"`
	MemShare      float64          `json:"mem_share,omitempty"`
	PrefillWorker disaggWorkerJSON `json:"prefill_worker"`
	DecodeWorker  disaggWorkerJSON `json:"decode_worker"`
	GPUs          float64          `json:"gpus"`
	TTFT          float64          `json:"mean_ttft_seconds"`
	TPOT          float64          `json:"tpot_seconds"`
	TTFTAtSLO     float64          `json:"ttft_slo_seconds"`
	TPOTAtSLO     float64          `json:"tpot_slo_seconds"`
	KVTransfer    float64          `json:"kv_transfer_seconds"`
	MonthlyUSD    float64          `json:"monthly_cost_usd"`
	MonthlyDisp   float64          `json:"monthly_cost_disp"`
	AggregatedUSD float64          `json:"aggregated_monthly_cost_usd"`
	Wins          bool             `json:"wins"`
	// PastLimit: no disaggregated deployment fits the instance limit
	// (--max-instances); this one, the cheapest past it, is named for
	// why, and does not launch.
	PastLimit bool   `json:"past_instance_limit"`
	Why       string `json:"why"`
}

// disaggWorkerJSON is plan.DisaggWorker: one side's worker shape.
type disaggWorkerJSON struct {
	TP        int     `json:"tp"`
	DP        int     `json:"dp"`
	EP        int     `json:"ep"`
	PerWorker int     `json:"instances_per_worker"`
	MemShare  float64 `json:"mem_share,omitempty"`
	Redundant int     `json:"redundant_experts,omitempty"`
}

// newDisaggWorkerJSON is w, one pool's worker shape, as the JSON writes it.
func newDisaggWorkerJSON(w plan.DisaggWorker) disaggWorkerJSON {
	return disaggWorkerJSON{w.TP, w.DP, w.EP, w.InstancesPerWorker, w.MemShare, w.RedundantExperts}
}

func newPlanJSON(req plan.Request, res plan.Result, cat *catalog.Catalog) planJSON {
	out := planJSON{Currency: res.Currency, FXAsOf: res.FXAsOf, Workload: req.Workload.Kind.String(),
		CheckpointBytes: res.CheckpointBytes, Considered: res.Considered, Fitting: res.Fitting, Notes: []string{}, Rows: []planRowJSON{},
		FreshnessDays: res.FreshnessDays, Warnings: pickWarnings(res), CheaperFlagged: res.CheaperFlagged, WhyValue: catalog.Printable(res.WhyValue.String()),
		WhyFastest:    catalog.Printable(res.WhyFastest.String()),
		ProviderKinds: append([]string{}, req.Filters.Kinds...), fx: req.FX}
	out.DeadlineSeconds = req.Filters.DeadlineSeconds
	if out.DeadlineSeconds > 0 {
		out.DeadlineFrom = "user"
	}
	if a := res.AssumedDeadline; a != nil {
		out.DeadlineSeconds, out.DeadlineFrom, out.DeadlineSource = a.Seconds, "default", runLengthSource
		out.AssumedDeadline = &assumedDeadlineJSON{Missed: a.Missed, MaxInstances: a.MaxInstances, RaisedMaxInstances: a.RaisedMaxInstances, GPUs: a.GPUs}
		if r := a.Without; r != nil {
			out.AssumedDeadline.Without = &runJSON{OfferID: r.Offer.ID, Provider: r.Offer.Provider, InstanceName: r.Offer.Name(), GPU: r.Offer.GPU,
				Instances: r.Instances, GPUs: float64(r.Instances) * r.Offer.GPUCount, Pricing: r.Pricing.String(), Hours: r.RankedSeconds / 3600,
				GPUHours: r.GPUHours, CostDisp: r.RankedCostDisp}
		}
		if c := res.Cheapest; c >= 0 {
			out.AssumedDeadline.PickCostDisp = res.Rows[c].RankedCostDisp
		}
	}
	if req.Workload.Kind == plan.Serving {
		out.SLOStat = req.Workload.SLOStat.String()
		out.TTFTTargetSeconds, out.TPOTTargetSeconds = req.Workload.TTFTP95Seconds, req.Workload.TPOTSeconds
		out.TTFTTargetFrom = "user"
		if req.Workload.TTFTByDefault {
			out.TTFTTargetFrom, out.TTFTTargetSource = "default", ttftDefaultRule+"; "+ttftDefaultSource
			_, out.promptTokens = req.DefaultTTFT()
		}
	}
	for _, x := range req.FX {
		if x.Currency == res.Currency && x.Currency != "USD" {
			out.FXSource, out.perUSD = x.Source, x.PerUSD
		}
	}
	if d := res.Disagg; d != nil {
		// Each side's shape has a field of its own; the decode worker's
		// is also written flat (tp, dp, ep, instances_per_worker,
		// mem_share), as before the prefill worker's had one.
		dec := d.DecodeWorker
		out.Disagg = &disaggPlanJSON{PrefillWorker: newDisaggWorkerJSON(d.PrefillWorker), DecodeWorker: newDisaggWorkerJSON(dec), OfferID: d.Offer.ID, Provider: d.Offer.Provider, InstanceType: d.Offer.InstanceType, GPU: d.Offer.GPU,
			Engine: d.Engine.String(), TP: dec.TP, Prefill: d.Prefill, Decode: d.Decode, PrefillSpare: d.PrefillSpare, DecodeSpare: d.DecodeSpare, DP: dec.DP, EP: dec.EP, Instances: d.Instances, PerWorker: dec.InstancesPerWorker, MemShare: dec.MemShare, GPUs: d.GPUs,
			TTFT: d.TTFTSeconds, TPOT: d.TPOTSeconds, TTFTAtSLO: d.TTFTAtSLOSeconds, TPOTAtSLO: d.TPOTAtSLOSeconds, KVTransfer: d.KVTransferSeconds, MonthlyUSD: d.MonthlyCostUSD,
			MonthlyDisp: d.MonthlyCostDisp, AggregatedUSD: d.AggregatedUSD, Wins: d.Wins, PastLimit: d.PastLimit, Why: catalog.Printable(d.Why.String())}
	}
	for _, n := range res.Notes {
		out.Notes = append(out.Notes, n.String())
	}
	for i := range res.Rows {
		r := &res.Rows[i]
		o := r.Offer
		j := planRowJSON{OfferID: o.ID, Provider: o.Provider, InstanceType: o.InstanceType, InstanceName: o.Name(), GPU: o.GPU,
			GPUsPerInstance: o.GPUCount, Instances: r.Instances, RentedInstances: rentedJSON(r), GPUs: r.GPUs,
			Parallelism: parallelismJSON{r.TP, r.PP, r.DP, r.ZeRO, r.VirtualStages, r.CP, r.GradCheckpointing, r.Offload.String(), max(r.AttnDP, 1), max(r.EP, 1)}, MemShare: r.MemShare, RedundantExperts: r.RedundantExperts, Replicas: r.Replicas, InstancesPerReplica: r.InstancesPerReplica, ScaledFrom: r.ScaledFrom,
			Pricing: r.Pricing.String(), Currency: o.Currency, PricePerHour: r.PricePerHour, PricePerHourUSD: r.PricePerHourUSD,
			PricePerHourDisp: r.PricePerHourDisp, FXAsOf: r.FXAsOf, JobHours: r.JobSeconds / 3600, Goodput: r.Goodput, BilledHours: r.BilledHours, GPUHours: r.GPUHours,
			JobCost: r.JobCost, JobCostUSD: r.JobCostUSD, JobCostDisp: r.JobCostDisp, OptimizerSteps: r.OptimizerSteps,
			TokensPerSecond: r.TokensPerSecond, CommSecondsPerStep: r.CommSeconds, Bound: r.Bound.String(),
			MonthlyCostUSD: r.MonthlyCostUSD, MonthlyCostDisp: r.MonthlyCostDisp, SustainableRPSPerReplica: r.SustainableRPSPerReplica,
			TTFTP50Seconds: r.TTFTP50Seconds, TTFTP95Seconds: r.TTFTP95Seconds, TPOTSeconds: r.TPOTSeconds,
			TTFTAtSLOSeconds: r.TTFTAtSLOSeconds, TPOTAtSLOSeconds: r.TPOTAtSLOSeconds,
			E2EP95Seconds: r.E2EP95Seconds, Utilisation: r.Utilisation,
			USDPerMillionInput: r.USDPerMillionInput, USDPerMillionOutput: r.USDPerMillionOutput,
			OnDemandJobCostUSD: r.OnDemandJobCostUSD, SpotExpectedCostUSD: r.SpotExpectedCostUSD, SpotExpectedHours: r.SpotExpectedSeconds / 3600, CheckpointIntervalSeconds: r.CheckpointIntervalSeconds,
			SpotInterruptionsPerMonth:    r.SpotInterruptionsPerMonth,
			ReservedBreakEvenUtilisation: r.ReservedBreakEvenUtilisation, ReservedMonthlyCommitmentUSD: r.ReservedMonthlyCommitmentUSD, ReservedCommitmentUSD: r.ReservedCommitmentUSD, ReservedTermYears: r.ReservedTermYears,
			USDPerDenseTFLOPSHour: r.USDPerDenseTFLOPSHour, TokensPerUSD: r.TokensPerUSD,
			VCPUs: o.VCPUs, RAMGiB: o.RAMGiB, HostOffloadGiB: r.HostOffloadGiB,
			HostCheck: hostJSON{r.Host.Status.String(), r.Host.Reason.String()}, Fits: r.Fits,
			Recommendation: r.Recommendation.String(), Quickest: i == res.Quickest, AsOf: o.AsOf, Notes: []string{}, WhyArgs: []any{},
			AsOfEstimated: o.AsOfEstimated, AsOfLowerBound: o.AsOfLowerBound, Source: o.Source, PriceAgeDays: o.PriceAgeDays, Stale: r.Stale, FarBelowMedian: o.FarBelowMedian,
			PriceToVerify: o.ToVerify, FromPrice: o.ProviderKind == "marketplace" && !o.UserPrice,
			Weights: r.Weights.String(), UserPrice: o.UserPrice, ProviderKind: o.ProviderKind, Unchecked: r.Unchecked,
		}
		if r.Host.Reason.Key == plan.NoMsg {
			j.HostCheck.Reason = ""
		}
		if req.Workload.Kind != plan.Training && r.Fits {
			j.Engine = r.Engine.String()
		}
		if r.Sim != nil {
			j.Binding, j.EngineLimit = r.Binding.String(), r.EngineLimit.String()
		}
		why := res.WhyNot(i)
		if why.Key != plan.NoMsg {
			j.Why, j.WhyKey, j.WhyArgs = why.String(), why.Key.String(), why.Args
			if j.WhyArgs == nil {
				j.WhyArgs = []any{}
			}
		}
		for _, n := range r.Notes {
			j.Notes = append(j.Notes, n.String())
		}
		out.Rows = append(out.Rows, j)
	}
	for _, h := range res.Hosted {
		j := hostedJSON{API: h.API.ID, Provider: h.API.Provider, Model: h.API.Model, InputUSDPerMillion: h.API.InputUSDPerMillion,
			OutputUSDPerMillion: h.API.OutputUSDPerMillion, Currency: h.API.Currency, AsOf: h.API.AsOf, Source: h.API.Source,
			MonthlyCostUSD: h.MonthlyCostUSD, SelfHostedUSD: h.SelfHostedUSD,
			BreakEvenRPS: h.BreakEvenRPS, AlwaysAboveRPS: h.AlwaysAboveRPS, OverLoadCurve: h.OverLoadCurve, Why: h.Why.String(), WhyKey: h.Why.Key.String(), WhyArgs: h.Why.Args}
		if j.WhyArgs == nil {
			j.WhyArgs = []any{}
		}
		out.Hosted = append(out.Hosted, j)
	}
	return out
}

// recLabel is a row's role as the table, CSV and Markdown write it: its
// recommendation, except that the faster alternative reads "faster"
// where a dearer plan past plan.AltCostBound is quicker still (the row
// is not Quickest), as the page titles that card "Faster", not
// "Fastest". The JSON keeps "fastest" (a documented field value).
func recLabel(r planRowJSON) string {
	if r.Recommendation == plan.RecFastest.String() && !r.Quickest {
		return "faster"
	}
	return r.Recommendation
}

// columns are the table, CSV and Markdown columns for a workload.
func columns(p planJSON) ([]string, func(r planRowJSON) []string) {
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	head := []string{"rec", "provider", "instance", "gpu", "instances", "gpus", "tp/pp/dp/zero", "pricing", "price/h (" + p.Currency + ")",
		"price as of", "age d", "price flags"}
	base := func(r planRowJSON) []string {
		// "8 of 18" where the offer rents whole orders (the bill's count),
		// written as the pick's sentence writes it (plan.InstancesLabel);
		// plain digits, as the table's other figures and its CSV are.
		inst := plan.InstancesLabel(r.Instances, r.RentedInstances, plan.InstancesOfEnglish, strconv.Itoa)
		return []string{recLabel(r), r.Provider, r.InstanceName, r.GPU, inst, f(r.GPUs, 3),
			shapeText(r.Parallelism), r.Pricing, f(r.PricePerHourDisp, 2),
			asOfText(r), ageText(r), priceFlags(r)}
	}
	switch p.Workload {
	case "serving":
		head = append(head, "replicas", "monthly ("+p.Currency+")", "rps/replica", "ttft p95 s", "tpot ms", "util", "binding", "engine limit", p.Currency+"/1M out", "host", "why")
		return head, func(r planRowJSON) []string {
			return append(base(r), strconv.Itoa(r.Replicas), f(r.MonthlyCostDisp, 0), f(r.SustainableRPSPerReplica, 2),
				f(r.TTFTP95Seconds, 3), f(1000*r.TPOTSeconds, 1), f(r.Utilisation, 2), r.Binding, r.EngineLimit, f(p.disp(r.USDPerMillionOutput), 3), r.HostCheck.Status, whyCell(r))
		}
	}
	// "hours" is the job uninterrupted; on spot the picks rank on (and
	// --deadline holds) the expected hours with reclaims, checkpoints and
	// restarts, which "spot exp. hours" gives beside the expected cost.
	head = append(head, "hours", "gpu-hours", "job ("+p.Currency+")", "on-demand ("+p.Currency+")", "spot exp. ("+p.Currency+")", "spot exp. hours", "host", "why")
	return head, func(r planRowJSON) []string {
		// No spot price: "—", not a spot job at $0.00; likewise an offer
		// without an on-demand price (a spot-only listing).
		spot, spotHours, onDemand := "—", "—", "—"
		if r.SpotExpectedCostUSD > 0 {
			spot, spotHours = f(p.disp(r.SpotExpectedCostUSD), 2), f(r.SpotExpectedHours, 2)
		}
		if r.OnDemandJobCostUSD > 0 {
			onDemand = f(p.disp(r.OnDemandJobCostUSD), 2)
		}
		return append(base(r), f(r.JobHours, 2), f(r.GPUHours, 1), f(r.JobCostDisp, 2), onDemand, spot, spotHours, r.HostCheck.Status, whyCell(r))
	}
}

// whyCell is the table's why cell: the row's reason, then each filter the
// user's own row could not be checked against ("region not given in your
// sheet: …"), so a row kept past --region says so where it is listed.
func whyCell(r planRowJSON) string {
	s := r.Why
	for _, c := range r.Unchecked {
		if s != "" {
			s += "; "
		}
		s += plan.UncheckedNote(c).String()
	}
	return s
}

// shapeText is the table's parallelism cell: tp/pp/dp/zero, then an
// interleaved pipeline's chunks per stage ("8/16/4/1 vp4"; plain 1F1B
// has none), a training row's context parallelism ("2/1/256/1 cp4": DP
// replicas of TP × PP × CP GPUs) and the attention-DP and EP layout
// inside each copy where it has one ("8/1/1/0 attn-dp8 ep8").
func shapeText(p parallelismJSON) string {
	s := fmt.Sprintf("%d/%d/%d/%d", p.TP, p.PP, p.DP, p.ZeRO)
	if p.VirtualStages > 1 {
		s += " vp" + strconv.Itoa(p.VirtualStages)
	}
	if p.ContextParallel > 1 {
		s += " cp" + strconv.Itoa(p.ContextParallel)
	}
	if p.AttentionDP > 1 {
		s += " attn-dp" + strconv.Itoa(p.AttentionDP)
	}
	if p.ExpertParallel > 1 {
		s += " ep" + strconv.Itoa(p.ExpertParallel)
	}
	return s
}

// targetsLine says the serving targets a plan held, and how to change them.
func targetsLine(p planJSON) string {
	t := func(name string, s float64, unit time.Duration) string {
		if s == 0 {
			return name + " none"
		}
		return name + " " + time.Duration(math.Round(s*float64(time.Second)/float64(unit))*float64(unit)).String()
	}
	ttft := t("TTFT", p.TTFTTargetSeconds, time.Millisecond)
	if p.TTFTTargetFrom == "default" {
		ttft += " (the default for " + strconv.FormatFloat(p.promptTokens, 'f', 0, 64) + "-token prompts: " + ttftDefaultRule + ")"
	}
	return "targets: " + ttft + ", " + t("TPOT", p.TPOTTargetSeconds, 100*time.Microsecond) +
		" at " + p.SLOStat + " (--ttft-p95, --tpot, --slo-stat; 0: no target)"
}

// runLengthDays and runLengthSource say the run length a pre-training
// plan assumes without --deadline (plan.DefaultPretrainDeadlineSeconds)
// and where it comes from.
var (
	runLengthDays   = strconv.Itoa(plan.DefaultPretrainDeadlineSeconds / 86400)
	runLengthSource = "an assumption: the longest published pre-training run, BLOOM 176B's 117 days on 384 A100s (11 March to 6 July 2022, BigScience, https://bigscience.huggingface.co/blog/bloom; arXiv:2211.05100); the Llama 3 paper reports a 54-day period of 405B's pre-training (arXiv:2407.21783 §3.3.4), DeepSeek-V3 pre-trained in under two months (arXiv:2412.19437)"
)

// assumedDeadlineJSON is what pre-training's assumed run length changed
// (plan.AssumedDeadline): missed when no plan of at most max_instances
// instances finishes within it (without is then the fastest plan, and
// gpus the fewest of its GPUs that could: its GPU-hours over the run
// length); else without is the cheapest plan without it, where that is
// another row than the cheapest pick (pick_cost_disp). raised_max_instances:
// where no plan within the default limit (no --max-instances) finishes
// in time, the limit raised to so that one does.
type assumedDeadlineJSON struct {
	Missed             bool     `json:"missed"`
	MaxInstances       int      `json:"max_instances"`
	RaisedMaxInstances int      `json:"raised_max_instances,omitempty"`
	GPUs               int      `json:"gpus,omitempty"`
	PickCostDisp       float64  `json:"pick_cost_disp,omitempty"`
	Without            *runJSON `json:"without,omitempty"`
}

// runJSON is a training plan in brief: offer, fleet, time and cost in the
// plan's currency.
type runJSON struct {
	OfferID      string  `json:"offer_id"`
	Provider     string  `json:"provider"`
	InstanceName string  `json:"instance_name"`
	GPU          string  `json:"gpu"`
	Instances    int     `json:"instances"`
	GPUs         float64 `json:"gpus"`
	Pricing      string  `json:"pricing"`
	Hours        float64 `json:"hours"`
	GPUHours     float64 `json:"gpu_hours"`
	CostDisp     float64 `json:"cost_disp"`
}

// runLengthLine says, above the table of a pre-training plan without
// --deadline, the run length it assumed.
func runLengthLine(w io.Writer, p planJSON) {
	if p.DeadlineFrom == "default" {
		fmt.Fprintf(w, "run length: within %s days, assumed for pre-training without --deadline (the longest published pre-training run, BLOOM 176B's; --json's deadline_source cites it and others); --deadline sets yours, 0: none\n", runLengthDays)
	}
}

// runLengthNote says, under the table, what the assumed run length
// changed: the instance limit it raised, the cheapest plan without it,
// or, where no plan meets it, the fastest and the GPUs it would take.
func runLengthNote(w io.Writer, p planJSON) {
	a := p.AssumedDeadline
	if a != nil && a.RaisedMaxInstances > 0 {
		fmt.Fprintf(w, "run length: the instance limit, %s by default, is raised to %s for the run length; --max-instances sets yours\n", plan.GroupInt(a.MaxInstances), plan.GroupInt(a.RaisedMaxInstances))
	}
	if a == nil || a.Without == nil {
		return
	}
	r := a.Without
	name := fmt.Sprintf("%s%s (%s GPUs of %s)", catalog.Printable(r.Provider+" "+r.InstanceName), instancesSuffix(r.Instances), strconv.FormatFloat(r.GPUs, 'f', -1, 64), r.GPU)
	if a.Missed {
		per := r.GPUs / float64(max(r.Instances, 1))
		need := int(math.Ceil(float64(a.GPUs)/per - 1e-9))
		grow := fmt.Sprintf("--max-instances %d lets the plan grow", need)
		if need > maxPlanInstances {
			// More instances than the flag takes: say so rather than
			// name a value it refuses.
			grow = fmt.Sprintf("that is more instances than --max-instances takes (%d)", maxPlanInstances)
		}
		fmt.Fprintf(w, "run length: no plan of at most %s instances finishes within %s days; the fastest, %s, takes %s at %s %s; %s days need at least %s of its GPUs (%s GPU-hours over the run length; more where scaling loses speed): %s, --deadline 0 plans without a run length\n",
			plan.GroupInt(a.MaxInstances), runLengthDays, name, spanText(r.Hours), plan.GroupFixed(r.CostDisp, 2), p.Currency,
			runLengthDays, plan.GroupInt(a.GPUs), plan.GroupFixed(r.GPUHours, 0), grow)
		return
	}
	less := ""
	if d := a.PickCostDisp - r.CostDisp; d > 0 {
		less = fmt.Sprintf(", %s %s less than the cheapest pick", strconv.FormatFloat(d, 'f', 2, 64), p.Currency)
	}
	fmt.Fprintf(w, "run length: without it the cheapest plan is %s for %s at %s %s%s (--deadline 0 plans it)\n",
		name, spanText(r.Hours), strconv.FormatFloat(r.CostDisp, 'f', 2, 64), p.Currency, less)
}

// spanText is h hours with the days or years they make: "246562 h
// (28.1 years)", "6377 h (266 days)".
func spanText(h float64) string {
	s := strconv.FormatFloat(h, 'f', 0, 64) + " h"
	switch {
	case h >= 2*8766:
		s += fmt.Sprintf(" (%.1f years)", h/8766)
	case h >= 48:
		s += fmt.Sprintf(" (%.0f days)", h/24)
	}
	return s
}

// ttftDefaultRule and ttftDefaultSource say the TTFT target a serving
// plan holds without --ttft-p95 (plan.DefaultTTFT) and where it comes from.
var (
	ttftDefaultRule = strconv.FormatFloat(plan.DefaultTTFTSeconds, 'g', -1, 64) + "s, or " +
		strconv.FormatFloat(plan.DefaultTTFTSecondsPerKPromptTokens, 'g', -1, 64) + "s per 1,000 prompt tokens where longer"
	ttftDefaultSource = "an estimate after MLPerf Inference's server-scenario TTFT limits at each benchmark's longest prompt: 2 s for chat-length prompts (1,024 to 3,136 tokens), 3 s for 15,330, 6 s for 20,000 (https://github.com/mlcommons/inference_policies/blob/master/inference_rules.adoc, 2026-07-23)"
)

func writeTable(w io.Writer, p planJSON) {
	fmt.Fprintf(w, "%s plan: %s offers considered, %s fit; prices in %s", p.Workload, plan.GroupInt(p.Considered), plan.GroupInt(p.Fitting), p.Currency)
	if p.FXAsOf != "" {
		fmt.Fprintf(w, " (FX as of %s)", p.FXAsOf)
	}
	fmt.Fprintln(w)
	if p.CheckpointBytes > 0 {
		// A LoRA's checkpoint is its adapters' (estimator/plan checkpointBytes).
		fmt.Fprintf(w, "checkpoint: %.1f GB (trainable weights + optimizer states)\n", p.CheckpointBytes/1e9)
	}
	for _, n := range p.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
	if len(p.ProviderKinds) > 0 {
		fmt.Fprintln(w, "providers: "+strings.Join(p.ProviderKinds, ", ")+" (--kind any adds marketplaces and decentralised networks)")
	}
	if p.SLOStat != "" {
		fmt.Fprintln(w, targetsLine(p))
	}
	runLengthLine(w, p)
	head, cells := columns(p)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range p.Rows {
		fmt.Fprintln(tw, strings.Join(cells(r), "\t"))
	}
	tw.Flush()
	writeFXLines(w, p)
	writePickNotes(w, p)
	runLengthNote(w, p)
	writeHosted(w, p)
}

// writeFXLines writes, under the table, one line per currency other than
// the plan's that a listed row is priced in: the rate its prices were
// converted at once (one unit in the plan's currency, through the FX
// table's rates per USD, and their date) and the rows' list prices, so a
// price sheet in EUR read into a plan in USD shows what it became.
func writeFXLines(w io.Writer, p planJSON) {
	var curs []string
	listed := map[string][]string{}
	for _, r := range p.Rows {
		if r.Currency == "" || r.Currency == p.Currency || !(r.PricePerHour > 0) {
			continue
		}
		if _, ok := listed[r.Currency]; !ok {
			curs = append(curs, r.Currency)
		}
		listed[r.Currency] = append(listed[r.Currency], fmt.Sprintf("%s %s %s/h", catalog.Printable(r.Provider+" "+r.InstanceName),
			strconv.FormatFloat(r.PricePerHour, 'f', -1, 64), r.Currency))
	}
	perUSD := func(cur string) (float64, string) {
		for _, x := range p.fx {
			if x.Currency == cur {
				return x.PerUSD, x.AsOf
			}
		}
		return 0, ""
	}
	disp, dispAsOf := perUSD(p.Currency)
	for _, cur := range curs {
		x, asOf := perUSD(cur)
		if !(x > 0) || !(disp > 0) {
			continue // unconverted rows do not fit (fit.no_fx) and say so
		}
		if asOf == "" {
			asOf = dispAsOf
		}
		rows, more := listed[cur], ""
		if len(rows) > 3 {
			rows, more = rows[:3], fmt.Sprintf(" and %d more", len(rows)-3)
		}
		n := "1 row"
		if k := len(listed[cur]); k != 1 {
			n = strconv.Itoa(k) + " rows"
		}
		fmt.Fprintf(w, "fx: prices listed in %s (%s) converted at 1 %s = %.5g %s (FX table as of %s): %s%s\n",
			cur, n, cur, disp/x, p.Currency, asOf, strings.Join(rows, ", "), more)
	}
}

// writeHosted writes one line per hosted API against self-hosting (at
// the target rate, or over a daily fleet's load curve) and their sources.
// The API's list price stays in its list currency (USD per 1M tokens, as
// its source quotes it); the monthly bills are in the plan's currency,
// as the table's. The cheapest hostedShown are written, each on its line,
// and the rest as one line of their count and bills: a model that dozens
// of APIs list (DeepSeek-R1: 21) would otherwise bury the plan under
// them; --json keeps every one.
func writeHosted(w io.Writer, p planJSON) {
	var sources []string
	shown := p.Hosted[:min(len(p.Hosted), hostedShown)]
	for _, h := range shown {
		dated := ""
		if h.AsOf != "" {
			dated = ", list price as of " + h.AsOf
		}
		against := " against " + plan.GroupFixed(p.disp(h.SelfHostedUSD), 0) + " self-hosted"
		if h.WhyKey == plan.MsgHostedNoFit.String() {
			against = "" // nothing self-hosted fits: no bill of 0 to set against it
		}
		at := "at the target rate"
		if h.OverLoadCurve {
			at = "over the load curve"
		}
		fmt.Fprintf(w, "hosted API %s: %s/%s USD per 1M input/output tokens%s: %s %s/month %s%s; %s\n",
			h.API, strconv.FormatFloat(h.InputUSDPerMillion, 'f', -1, 64), strconv.FormatFloat(h.OutputUSDPerMillion, 'f', -1, 64), dated,
			plan.GroupFixed(p.disp(h.MonthlyCostUSD), 0), p.Currency, at, against, h.Why)
		if h.Source != "" && !slices.Contains(sources, h.Source) {
			sources = append(sources, h.Source)
		}
	}
	if rest := p.Hosted[len(shown):]; len(rest) > 0 {
		lo, hi := plan.GroupFixed(p.disp(rest[0].MonthlyCostUSD), 0), plan.GroupFixed(p.disp(rest[len(rest)-1].MonthlyCostUSD), 0)
		if hi != lo {
			lo += "–" + hi
		}
		beaten := 0
		for _, h := range rest {
			if h.WhyKey != plan.MsgHostedNoFit.String() && h.SelfHostedUSD > 0 && h.SelfHostedUSD < h.MonthlyCostUSD {
				beaten++
			}
		}
		self := ""
		if beaten > 0 {
			self = "; self-hosting costs less than " + plan.GroupInt(beaten) + " of them"
		}
		fmt.Fprintf(w, "hosted APIs: %s more, at %s %s/month%s (--json lists each)\n", plan.GroupInt(len(rest)), lo, p.Currency, self)
	}
	for _, s := range sources {
		fmt.Fprintln(w, "hosted API prices: "+s)
	}
}

// hostedShown is how many hosted APIs the text output writes a line for
// (writeHosted): the cheapest, the ones a self-hosted plan competes with.
const hostedShown = 3

// writeCSV writes the table as CSV, each text cell through the page's
// export rule (page.CSVCell): a cell a spreadsheet would run as a formula
// is written as text, whatever name or note reaches it.
func writeCSV(w io.Writer, p planJSON) {
	head, cells := columns(p)
	cw := csv.NewWriter(w)
	cw.Write(head)
	for _, r := range p.Rows {
		row := cells(r)
		for i := range row {
			row[i] = page.CSVCell(row[i])
		}
		cw.Write(row)
	}
	cw.Flush()
}

// writeMarkdown writes a GitHub-flavoured table, each cell escaped as the
// page's Markdown export escapes it (page.MDEscape: pipes, line breaks,
// HTML, link, image, emphasis and code marks).
func writeMarkdown(w io.Writer, p planJSON) {
	head, cells := columns(p)
	esc := func(s []string) string {
		for i := range s {
			s[i] = page.MDEscape(s[i])
		}
		return "| " + strings.Join(s, " | ") + " |"
	}
	fmt.Fprintln(w, esc(head))
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	fmt.Fprintln(w, "|"+strings.Join(sep, "|")+"|")
	for _, r := range p.Rows {
		fmt.Fprintln(w, esc(cells(r)))
	}
}

// asOfText is a row's price date, marked when it is an estimate, and as
// "≥ date" when the estimate is the earliest the price can date from
// (as_of_lower_bound).
func asOfText(r planRowJSON) string {
	switch {
	case r.AsOfLowerBound:
		return "≥" + r.AsOf
	case r.AsOfEstimated:
		return r.AsOf + " est."
	}
	return r.AsOf
}

// ageText is a row's price age in days, "" when undated.
func ageText(r planRowJSON) string {
	if r.PriceAgeDays < 0 {
		return ""
	}
	return strconv.Itoa(r.PriceAgeDays)
}

// priceFlags names whose a row's price is ("yours": from --prices) and
// what it needs checked: "stale" (older than
// the freshness window, undated or estimated), "far-below-median",
// "to-verify" (its source leaves a condition open) and "from-price" (a
// marketplace's cheapest listing when read).
func priceFlags(r planRowJSON) string {
	var f []string
	if r.UserPrice {
		// The user's own price (--prices): never flagged against the
		// market, and the table says whose it is.
		f = append(f, "yours")
	}
	if r.Stale {
		f = append(f, "stale")
	}
	if r.FarBelowMedian {
		f = append(f, "far-below-median")
	}
	if r.PriceToVerify {
		f = append(f, "to-verify")
	}
	if r.FromPrice {
		f = append(f, "from-price")
	}
	return strings.Join(f, ",")
}

// pickWarnings is one line naming the picks that rest on a stale price
// (no fresher offer of their GPU runs the job, or the planner would have
// picked it), one naming those far below the median and one naming those
// whose source leaves the price open; none when the picks rest on fresh,
// normally priced, confirmed offers.
func pickWarnings(res plan.Result) []string {
	out := []string{}
	var stale, far, open []string
	seen := map[int]bool{}
	for _, k := range []struct {
		name string
		i    int
	}{{"cheapest", res.Cheapest}, {"fastest", res.Fastest}, {"value", res.Value}} {
		if k.i < 0 || seen[k.i] {
			continue
		}
		seen[k.i] = true
		r := &res.Rows[k.i]
		o := r.Offer
		if r.Stale {
			when := "undated price"
			switch {
			case o.AsOf != "" && o.AsOfGuessed():
				when = "price of an estimated date, " + o.AsOf
			case o.AsOf != "":
				when = "price from " + o.AsOf
			}
			stale = append(stale, k.name+" ("+o.Provider+" "+o.Name()+": "+when+")")
		}
		if o.FarBelowMedian {
			far = append(far, k.name+" ("+o.Provider+" "+o.Name()+")")
		}
		if o.ToVerify {
			open = append(open, k.name+" ("+o.Provider+" "+o.Name()+")")
		}
	}
	picks := func(xs []string) string {
		if len(xs) == 1 {
			return "the " + xs[0] + " pick rests"
		}
		return "the " + strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1] + " picks rest"
	}
	if len(stale) > 0 {
		out = append(out, picks(stale)+" on a price older than "+strconv.Itoa(res.FreshnessDays)+
			" days or with an estimated date, and no fresher offer of the GPU runs the job: verify the price before renting")
	}
	if len(far) > 0 {
		out = append(out, picks(far)+" on a price under half what the other providers ask for the GPU, and no normally priced offer of it runs the job: verify the price before renting")
	}
	if len(open) > 0 {
		out = append(out, picks(open)+" on a price whose source leaves a condition open (a footnote, a column or a region), and no confirmed price of the GPU runs the job: verify the price before renting")
	}
	return out
}

// widenedJSON is the cheapest plan without one filter: the filter
// dropped ("gpu", "region", "provider", "country", "budget", "deadline"),
// the offer, its hourly price and the plan's ranked cost (job or monthly),
// in the plan's currency.
type widenedJSON struct {
	Dropped          string  `json:"dropped"`
	OfferID          string  `json:"offer_id"`
	Provider         string  `json:"provider"`
	InstanceType     string  `json:"instance_type"`
	InstanceName     string  `json:"instance_name"`
	GPU              string  `json:"gpu"`
	Instances        int     `json:"instances"`
	PricePerHourDisp float64 `json:"price_per_hour_disp"`
	CostDisp         float64 `json:"cost_disp"`
}

// writePickNotes writes, under the table, what each pick runs other than
// the job asked (the support table's substitutions) and the cheaper plan
// the picks passed over for its price.
func writePickNotes(w io.Writer, p planJSON) {
	seen := map[string]bool{}
	for _, r := range p.Rows {
		if r.Recommendation == "none" || r.Recommendation == "" || r.Recommendation == "pareto" {
			continue
		}
		for _, n := range r.Notes {
			line := recLabel(r) + catalog.Aside(recLabel(r), catalog.Printable(r.Provider+" "+r.InstanceName)) + ": " + n
			if !seen[line] {
				seen[line] = true
				fmt.Fprintln(w, "note: "+line)
			}
		}
	}
	// The fastest or the best value shares its row with another pick: the
	// table's rec column names that role, so say it here.
	if p.WhyFastest != "" && !slices.ContainsFunc(p.Rows, func(r planRowJSON) bool { return r.Recommendation == "fastest" }) {
		fmt.Fprintln(w, "fastest: "+p.WhyFastest)
	}
	if p.WhyValue != "" && !slices.ContainsFunc(p.Rows, func(r planRowJSON) bool { return r.Recommendation == "value" }) {
		fmt.Fprintln(w, "best value: "+p.WhyValue)
	}
	for _, c := range p.Commitments {
		years := strings.TrimPrefix(strings.TrimSuffix(c.Pricing, "y"), "reserved-")
		fmt.Fprintf(w, "commitment: %s on %s%s at %s %s/month, %.0f%% under the cheapest on demand: a service at a steady rate uses every hour a %s-year reservation bills (--pricing %s plans it)\n",
			c.Pricing, catalog.Printable(c.Provider+" "+c.InstanceName), instancesSuffix(c.Instances),
			plan.GroupFixed(c.MonthlyCostDisp, 0), p.Currency, 100*c.Saving, years, c.Pricing)
	}
	if x := p.Widened; x != nil {
		unit := "" // a job's cost; serving's is a monthly bill
		if p.Workload == "serving" {
			unit = "/month"
		}
		// No offer left to try is not "nothing fits": a GPU the catalog
		// has no offer of (Gaudi 2, MI355X) read as a model too big for it.
		verb := "nothing fits"
		if p.Considered == 0 {
			verb = "no offer matches"
		}
		fmt.Fprintf(w, "%s with --%s as given%s; without it the cheapest plan is %s%s (%s) at %s %s/h, %s %s%s\n", verb, x.Dropped, noneCause(p),
			catalog.Printable(x.Provider+" "+x.InstanceName), instancesSuffix(x.Instances), x.GPU, strconv.FormatFloat(x.PricePerHourDisp, 'f', 2, 64), p.Currency,
			strconv.FormatFloat(x.CostDisp, 'f', 2, 64), p.Currency, unit)
	} else if p.NoneCause != "" {
		fmt.Fprintln(w, "nothing fits"+noneCause(p))
	}
	if i := p.CheaperFlagged; i >= 0 && i < len(p.Rows) {
		r := p.Rows[i]
		cost, unit := r.JobCostDisp, ""
		if p.Workload == "serving" {
			cost, unit = r.MonthlyCostDisp, "/month"
		}
		// The reason starts with the row's name ("runpod 2x_MI300X_SECURE
		// ×3: its price's date …"): the line says it once.
		name := catalog.Printable(r.Provider+" "+r.InstanceName) + plan.InstancesSuffix(r.Instances, r.RentedInstances, plan.InstancesOfEnglish, plan.GroupInt)
		fmt.Fprintf(w, "cheaper if the price holds (verify): %s at %s %s%s — %s\n", name,
			plan.GroupFixed(cost, 2), p.Currency, unit, strings.TrimPrefix(r.Why, name+": "))
	}
	if d := p.Disagg; d != nil {
		spares := ""
		if d.PrefillSpare+d.DecodeSpare > 0 {
			spares = "; the figures leave the spares out, as while a reclaimed instance is replaced"
		}
		fmt.Fprintf(w, "disaggregated prefill and decode: %s (at the target rate: TTFT %s s and TPOT %s ms at %s, mean TTFT %s s; KV handover %s ms%s)\n", d.Why,
			strconv.FormatFloat(d.TTFTAtSLO, 'g', 3, 64), strconv.FormatFloat(1000*d.TPOTAtSLO, 'g', 3, 64), p.SLOStat,
			strconv.FormatFloat(d.TTFT, 'g', 3, 64), strconv.FormatFloat(1000*d.KVTransfer, 'g', 3, 64), spares)
	}
}

// planOffers is the catalog's offers for the planner on today's date,
// each marked with its chip's ID where its GPU names a form factor
// (catalog.Catalog.Chips): --gpu a100-80gb plans a100-80gb-sxm's offers
// too. The page plans every GPU, so the mark stays out of app.wasm.
func planOffers(cat *catalog.Catalog, w estimator.DType) []plan.Offer {
	offers := cat.PlanOffersAt(w, now())
	chip := cat.Chips()
	for i := range offers {
		offers[i].Chip = chip[offers[i].GPU]
	}
	return offers
}

// commitJSON is a reservation's cheapest plan of a serving job that
// bills less a month than the cheapest plan on demand (commitments).
type commitJSON struct {
	Pricing         string  `json:"pricing"`
	OfferID         string  `json:"offer_id"`
	Provider        string  `json:"provider"`
	InstanceName    string  `json:"instance_name"`
	Instances       int     `json:"instances"`
	MonthlyCostUSD  float64 `json:"monthly_cost_usd"`
	MonthlyCostDisp float64 `json:"monthly_cost_disp"`
	Saving          float64 `json:"saving"`
}

// commitments are, for a serving plan billed on demand, the 1- and
// 3-year reservations whose cheapest plan of the job bills less a month
// than the on-demand pick. A service at a steady request rate runs every
// hour of the month (its bill is 730 h), and a reservation wins above the
// share of hours r/o (its effective hourly rate over on demand's: the
// planning notes' break-even, docs/planning.md "Reserved and committed
// prices"), so for such a service the reservation's month is the
// comparison. The reservations are planned on the offers priced for them
// (the hyperscalers' and a few GPU clouds'), with the same picks' rules.
func commitments(req plan.Request, res plan.Result, offers []plan.Offer, maxInst int) []commitJSON {
	if req.Workload.Kind != plan.Serving || req.Pricing != plan.OnDemand || res.Cheapest < 0 {
		return nil
	}
	onDemand := res.Rows[res.Cheapest]
	var out []commitJSON
	for _, pr := range []plan.Pricing{plan.Reserved1y, plan.Reserved3y} {
		var priced []plan.Offer
		for _, o := range offers {
			if pr == plan.Reserved1y && o.Reserved1yPerHour > 0 || pr == plan.Reserved3y && o.Reserved3yPerHour > 0 {
				priced = append(priced, o)
			}
		}
		r := req
		r.Pricing = pr
		alt, err := plan.Plan(r, priced, plan.Options{Top: 1, MaxInstances: maxInst})
		if err != nil || alt.Cheapest < 0 {
			continue
		}
		row := alt.Rows[alt.Cheapest]
		if row.MonthlyCostUSD >= onDemand.MonthlyCostUSD {
			continue
		}
		out = append(out, commitJSON{Pricing: pr.String(), OfferID: row.Offer.ID, Provider: row.Offer.Provider, InstanceName: row.Offer.Name(),
			Instances: row.Instances, MonthlyCostUSD: row.MonthlyCostUSD, MonthlyCostDisp: row.MonthlyCostDisp,
			Saving: 1 - row.MonthlyCostUSD/onDemand.MonthlyCostUSD})
	}
	return out
}

// noneReasonJSON is one reason of an empty plan's offers (planJSON.NoneReasons).
type noneReasonJSON struct {
	Reason string `json:"reason"`
	Key    string `json:"key"`
	Offers int    `json:"offers"`
}

// noneCause is ": " and the reason every offer left was refused for
// (planJSON.NoneCause), with the --engine values that run the job; ""
// without one.
func noneCause(p planJSON) string {
	if p.NoneCause == "" {
		return ""
	}
	s := ": " + p.NoneCause
	if len(p.NoneCauseEngines) > 0 {
		s += " (--engine " + strings.Join(p.NoneCauseEngines, " or --engine ") + ")"
	}
	return s
}

// instancesSuffix is " ×3" after an instance type rented three times, ""
// for one.
func instancesSuffix(n int) string {
	return plan.InstancesSuffix(n, 0, plan.InstancesOfEnglish, plan.GroupInt)
}

// rentedJSON is r's rented instances for its JSON (planRowJSON.
// RentedInstances): 0, left out, where the row rents what it uses.
func rentedJSON(r *plan.Row) int {
	if n := r.Rented(); n != r.Instances {
		return n
	}
	return 0
}
