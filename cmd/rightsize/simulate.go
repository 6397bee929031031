package main

// The serving simulation behind "rightsize estimate" for serving engines
// and "rightsize simulate": estimator/sim run on the replica the speed
// estimate describes.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// simJSON is the simulated closed-loop benchmark behind the serving
// figures: --batch requests in flight per replica (the client's
// --max-concurrency), --num-requests requests. Latencies in seconds.
type simJSON struct {
	Concurrency int    `json:"concurrency"`
	Requests    int    `json:"requests"`
	Limit       string `json:"limit"` // what held queued requests back: none, max-seqs, kv-cache, token-budget
	percentilesJSON
	// FirstWaveSeconds is the cold first wave the run was given
	// (--first-wave-seconds); absent when none.
	FirstWaveSeconds float64 `json:"first_wave_seconds,omitempty"`
	E2EMean          float64 `json:"e2e_latency_seconds"`
	E2EP99           float64 `json:"e2e_latency_p99_seconds"`
	// QueueMean is the mean wait at the engine before a request's first
	// step; RequestSeconds the engine's fixed cost per request (in TTFT).
	QueueMean         float64 `json:"queue_seconds"`
	RequestSeconds    float64 `json:"request_overhead_seconds"`
	RequestsPerSecond float64 `json:"requests_per_second"`
	Preemptions       int     `json:"preemptions"`
	// KVUnbounded: the memory estimate's KV pool cannot hold one request,
	// so the steps were simulated without a KV bound.
	KVUnbounded bool `json:"kv_unbounded,omitempty"`
	// ClosedForm* are the steady-state figures of the closed-form model
	// (estimator.Throughput) for the same inputs.
	ClosedFormTTFT float64 `json:"closed_form_time_to_first_token_seconds"`
	ClosedFormTPOT float64 `json:"closed_form_decode_token_latency_seconds"`
	ClosedFormTPS  float64 `json:"closed_form_tokens_per_second"`
}

// percentilesJSON is a simulated run's TTFT and TPOT percentiles over its
// requests, linear between order statistics as benchmark clients report
// them (the means are the performance fields time_to_first_token_seconds
// and decode_token_latency_seconds; p95 is the statistic the planner
// sizes by): the one set of names the aggregated (simJSON) and the
// disaggregated (disaggServingJSON) simulated runs report them under.
type percentilesJSON struct {
	TTFTP50 float64 `json:"time_to_first_token_p50_seconds"`
	TTFTP90 float64 `json:"time_to_first_token_p90_seconds"`
	TTFTP95 float64 `json:"time_to_first_token_p95_seconds"`
	TTFTP99 float64 `json:"time_to_first_token_p99_seconds"`
	TPOTP50 float64 `json:"decode_token_latency_p50_seconds"`
	TPOTP90 float64 `json:"decode_token_latency_p90_seconds"`
	TPOTP95 float64 `json:"decode_token_latency_p95_seconds"`
	TPOTP99 float64 `json:"decode_token_latency_p99_seconds"`
}

// applySim replaces the serving figures of p with the simulated
// benchmark's (sim.Result.Apply: the means over the run's requests, the
// generated tokens/s of all replicas) and adds the percentiles.
func (p *perfJSON) applySim(cfg sim.Config, res sim.Result, replicas int) {
	s := &simJSON{Concurrency: cfg.Load.Concurrency, Requests: res.Requests, Limit: res.Limit.String(),
		percentilesJSON: percentilesJSON{TTFTP50: res.TTFT.P50, TTFTP90: res.TTFT.P90, TTFTP95: res.TTFT.P95, TTFTP99: res.TTFT.P99,
			TPOTP50: res.TPOT.P50, TPOTP90: res.TPOT.P90, TPOTP95: res.TPOT.P95, TPOTP99: res.TPOT.P99},
		FirstWaveSeconds: cfg.Load.FirstWaveSeconds, E2EMean: res.E2E.Mean, E2EP99: res.E2E.P99,
		QueueMean: res.Queue.Mean, RequestSeconds: cfg.Policy.RequestSeconds, RequestsPerSecond: res.RequestsPerSecond * float64(replicas),
		Preemptions: res.Preemptions, KVUnbounded: cfg.KVTokens == sim.KVUnbounded, ClosedFormTTFT: p.TimeToFirstToken,
		ClosedFormTPOT: p.DecodeTokenLatency, ClosedFormTPS: p.TokensPerSecond}
	q := res.Apply(estimator.Perf{TokensPerSecond: p.TokensPerSecond, TokensPerSecondLow: p.TokensPerSecondLow,
		TokensPerSecondHigh: p.TokensPerSecondHigh, MFU: p.MFU}, replicas)
	p.TokensPerSecond, p.TokensPerSecondLow, p.TokensPerSecondHigh, p.MFU = q.TokensPerSecond, q.TokensPerSecondLow, q.TokensPerSecondHigh, q.MFU
	p.TimeToFirstToken, p.DecodeTokenLatency = q.TimeToFirstToken, q.DecodeTokenLatency
	p.Serving = s
}

// firstWaveFlag is --first-wave-seconds of estimate and simulate: the
// closed-loop benchmark's first --batch requests reach the engine that
// many seconds late (sim.Load.FirstWaveSeconds). "auto", the default,
// takes the estimator's cold first wave for the engine and the GPU's
// vendor (estimator.ColdFirstWaveSeconds: the first-use work a
// benchmark client's warm-up does not reach, as benchmark_serving's mean
// TTFT holds it); 0 turns it off; a number overrides. Only closed loops
// take it: the open-loop request rates (simulate --rates, --rate) and the
// planner's sizing runs model a service in its steady state, which has
// no first wave.
type firstWaveFlag struct {
	set   bool    // a number was given, or a calibration's 0 (loadCalibration)
	value float64 // seconds, when set
}

func (f *firstWaveFlag) String() string {
	if f == nil || !f.set {
		return "auto"
	}
	return strconv.FormatFloat(f.value, 'g', -1, 64)
}

func (f *firstWaveFlag) Set(s string) error {
	if s == "auto" {
		*f = firstWaveFlag{}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 3600) {
		return errors.New("want auto or seconds from 0 to 3600")
	}
	*f = firstWaveFlag{set: true, value: v}
	return nil
}

// seconds is the first wave of a closed-loop benchmark of engine e on a
// GPU of vendor.
func (f *firstWaveFlag) seconds(e estimator.Engine, vendor string) float64 {
	if f.set {
		return f.value
	}
	return estimator.ColdFirstWaveSeconds(e, vendor)
}

// defineFirstWave defines --first-wave-seconds on fs.
func defineFirstWave(fs *flag.FlagSet) *firstWaveFlag {
	f := &firstWaveFlag{}
	auto := func(e estimator.Engine, vendor string) string {
		return strconv.FormatFloat(estimator.ColdFirstWaveSeconds(e, vendor), 'g', -1, 64)
	}
	fs.Var(f, "first-wave-seconds", "serving engines: the simulated closed-loop benchmark's first --batch requests reach the engine this many seconds late, "+
		"as a benchmark's cold first wave does (first-use work its warm-up did not reach, such as kernels compiled for new shapes). "+
		"auto, the default: the estimated wave for the engine and GPU vendor, fitted on InferenceX's benchmark runs (SGLang and TensorRT-LLM "+
		auto(estimator.SGLang, "NVIDIA")+" s on NVIDIA GPUs, SGLang "+auto(estimator.SGLang, "AMD")+" s on AMD GPUs, vLLM none); 0: none, as a service in its steady state has")
	return f
}

// simulateCmd is "rightsize simulate": the estimate flags for one replica
// and a list of loads; it prints latency against load.
type simulateCmd struct {
	fs          *flag.FlagSet
	conc, rates *string
	size        *float64
	maxReplicas *int
	ttft, tpot  *float64
	stat        *string
	format      *string
	seed        *uint64
}

// runSimulate implements "rightsize simulate": a serving replica's TTFT,
// TPOT and throughput against the load (closed-loop concurrencies with
// --concurrencies, or Poisson request rates with --rates), with the SLO's
// goodput and the saturation point; with --rate, the fewest replicas
// whose simulated TTFT and TPOT at --slo-stat (p95 by default) meet the
// SLO at that rate (sim.Replicas) and the limit that binds.
func runSimulate(args []string, stdout, stderr io.Writer) int {
	return estimateCommand("simulate", args, stdout, stderr, &simulateCmd{})
}

func (c *simulateCmd) define(fs *flag.FlagSet) {
	c.fs = fs
	c.conc = fs.String("concurrencies", "1,2,4,8,16,32,64,128,256", "closed loop: comma-separated requests in flight per replica")
	c.rates = fs.String("rates", "", "open loop: comma-separated Poisson request rates per replica (requests/s); replaces --concurrencies")
	c.size = fs.Float64("rate", 0, "size a deployment: the fewest replicas whose simulated TTFT and TPOT at --slo-stat meet --slo-ttft and --slo-tpot at this many requests/s")
	c.maxReplicas = fs.Int("max-replicas", 1024, "with --rate: the most replicas to consider")
	c.ttft = fs.Float64("slo-ttft", 0, "SLO on time to first token, seconds (0: none)")
	c.tpot = fs.Float64("slo-tpot", 0, "SLO on time per output token, seconds (0: none)")
	c.stat = fs.String("slo-stat", "p95", "with --rate: the statistic over the requests that --slo-ttft and --slo-tpot bound: mean|p50|p90|p95|p99")
	c.format = fs.String("format", "table", "table|json")
	c.seed = fs.Uint64("seed", 0, "seed of the simulated client's lengths and arrivals")
}

// simPoint is one load of the curve.
type simPoint struct {
	Concurrency   int     `json:"concurrency,omitempty"`
	RatePerSecond float64 `json:"rate_per_second,omitempty"`
	sim.Result
}

func (c *simulateCmd) run(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	in := job.in
	if *c.format != "table" && *c.format != "json" {
		return fail("--format %q: want table or json", *c.format)
	}
	if job.gpu.ID == "" {
		return fail("need --gpu: the simulation steps the GPU's speed model")
	}
	hw, ok := job.gpu.HardwareOn(in.Weights, catalog.Node{})
	if !ok {
		return fail("--gpu %s: the catalog lacks its FLOP/s or bandwidth", job.gpu.ID)
	}
	if in.TP >= 1 && in.PP >= 1 && !job.set["gpus"] {
		in.GPUs = in.TP * in.PP
	}
	// The job as estimate checks it (--gpus -1, or fewer GPUs than
	// --tp × --pp, reached the simulation unseen: it steps one replica
	// of TP × PP GPUs whatever --gpus says).
	if err := in.Validate(); err != nil {
		return fail("%v", err)
	}
	w := estimator.Workload{PromptTokens: job.prompt, OutputTokens: job.output}
	// The prefill and decode shares as the one job parser read them
	// (page.ParseInput: --inference-mfu, --bandwidth-util, or a
	// calibration's; 0: the model's).
	cfg, err := sim.NewConfig(in, hw, estimator.Efficiency{InferenceMFU: job.eff.InferenceMFU, BandwidthUtil: job.eff.BandwidthUtil}, w)
	if err != nil {
		return fail("%v", err)
	}
	cfg.Load.Seed = *c.seed
	n := 0 // the estimate flags' --num-requests
	if f := c.fs.Lookup("num-requests"); f != nil {
		n, _ = strconv.Atoi(f.Value.String())
	}
	cfg.SLO = sim.SLO{TTFTSeconds: *c.ttft, TPOTSeconds: *c.tpot}
	if cfg.SLO.Stat, err = sim.ParseStat(*c.stat); err != nil {
		return fail("--slo-stat: %v", err)
	}
	cfg.Load.RangeRatio = sim.DefaultRangeRatio
	if f := c.fs.Lookup("range-ratio"); f != nil {
		if v, err := strconv.ParseFloat(f.Value.String(), 64); err == nil {
			cfg.Load.RangeRatio = v
		}
	}
	firstWave := 0.0 // the estimate flags' --first-wave-seconds: the closed loops' cold first wave
	if f := c.fs.Lookup("first-wave-seconds"); f != nil {
		if fw, ok := f.Value.(*firstWaveFlag); ok {
			firstWave = fw.seconds(in.Engine, job.gpu.Vendor)
		}
	}
	var points []simPoint
	if *c.rates != "" {
		rates, err := parseList(*c.rates, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) })
		if err != nil {
			return fail("--rates: %v", err)
		}
		for _, r := range rates {
			cfg.Load.Concurrency, cfg.Load.RatePerSecond = 0, r
			cfg.Load.Requests = n
			if n == 0 {
				cfg.Load.Requests = 1000
			}
			res, err := sim.Run(cfg)
			if err != nil {
				return fail("%v", err)
			}
			points = append(points, simPoint{RatePerSecond: r, Result: res})
		}
	} else {
		concs, err := parseList(*c.conc, strconv.Atoi)
		if err != nil {
			return fail("--concurrencies: %v", err)
		}
		for _, k := range concs {
			cfg.Load.Concurrency, cfg.Load.Requests = k, n
			if n == 0 {
				cfg.Load.Requests = sim.DefaultRequests(k)
			}
			c := cfg
			c.Load.FirstWaveSeconds = firstWave
			res, err := sim.Run(c)
			if err != nil {
				return fail("%v", err)
			}
			points = append(points, simPoint{Concurrency: k, Result: res})
		}
	}
	satCfg := cfg
	satCfg.Load.Requests = n
	sat, satErr := sim.Saturation(satCfg)
	var sizing *sim.Sizing
	if *c.size != 0 {
		sc := cfg
		sc.Load.Requests = n
		sz, err := sim.Replicas(sc, *c.size, cfg.SLO, *c.maxReplicas)
		if err != nil {
			return fail("%v", err)
		}
		sizing = &sz
	}
	if *c.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Engine         string      `json:"engine"`
			RequestSeconds float64     `json:"request_overhead_seconds"`
			TokenBudget    int         `json:"token_budget"`
			MaxSeqs        int         `json:"max_seqs"`
			KVPoolTokens   int64       `json:"kv_pool_tokens"`
			Saturation     *sim.Point  `json:"saturation,omitempty"`
			Sizing         *sim.Sizing `json:"sizing,omitempty"`
			SLOStat        *sim.Stat   `json:"slo_stat,omitempty"` // with sizing
			Points         []simPoint  `json:"points"`
		}{in.Engine.String(), cfg.Policy.RequestSeconds, cfg.Policy.TokenBudget, cfg.Policy.MaxSeqs, cfg.Model.KVPoolTokens(), nil, sizing, nil, points}
		if satErr == nil {
			out.Saturation = &sat
		}
		if sizing != nil {
			out.SLOStat = &cfg.SLO.Stat
		}
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "%s on %s, TP %d, %d/%d tokens per request (simulated, estimate); %s scheduler: token budget %d, max seqs %d, KV pool %d tokens, %.0f ms per request outside the GPU\n",
		job.name, job.gpu.ID, in.TP, cfg.Load.PromptTokens, cfg.Load.OutputTokens, in.Engine, cfg.Policy.TokenBudget, cfg.Policy.MaxSeqs,
		cfg.Model.KVPoolTokens(), 1000*cfg.Policy.RequestSeconds)
	if p, err := cfg.Model.Perf(1); err == nil && p.AcceptedTokens > 0 {
		// The estimate's speculative line (printPerf), here too.
		fmt.Fprintf(stdout, "speculative decoding with the MTP module: draft tokens a step %d, tokens accepted a step %.2f (%s)\n",
			in.DraftTokens, p.AcceptedTokens, acceptanceSource(in))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "load\tTTFT mean\tp50\tp99\tTPOT mean\tp50\tp99\ttok/s\treq/s\tgoodput\tlimit\t")
	for _, p := range points {
		load := fmt.Sprintf("%d in flight", p.Concurrency)
		if p.Concurrency == 0 {
			load = fmt.Sprintf("%g req/s", p.RatePerSecond)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%.2f\t%.0f%%\t%s\t\n", load, ms(p.TTFT.Mean), ms(p.TTFT.P50), ms(p.TTFT.P99),
			ms(p.TPOT.Mean), ms(p.TPOT.P50), ms(p.TPOT.P99), p.OutputTokensPerSecond, p.RequestsPerSecond, 100*p.SLOAttainment, p.Limit)
	}
	tw.Flush()
	if satErr == nil {
		fmt.Fprintf(stdout, "\nsaturation: %.2f requests/s (%.0f tokens/s) at %d in flight, bound by %s\n", sat.RequestsPerSecond,
			sat.OutputTokensPerSecond, sat.Concurrency, sat.Limit)
	}
	if sizing != nil {
		verdict := "meet"
		if !sizing.Meets {
			verdict = "do NOT meet"
		}
		st := cfg.SLO.Stat
		fmt.Fprintf(stdout, "at %g requests/s: %d replicas %s the SLO: %s TTFT %s, %s TPOT %s", *c.size, sizing.Replicas, verdict,
			st, ms(st.Of(sizing.Result.TTFT)), st, ms(st.Of(sizing.Result.TPOT)))
		if sizing.Binding != sim.BindNone {
			fmt.Fprintf(stdout, "; binding: %s (%s)", sizing.Binding, sizing.Result.Limit)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}

func ms(s float64) string { return strconv.FormatFloat(1000*s, 'f', 0, 64) + " ms" }

func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
