package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"rightsize/estimator"
)

// Factors are the engine factors a calibration fits: the fixed cost of a
// request outside the GPU's steps (Policy.RequestSeconds, through
// estimator.Input.RequestSeconds), the share of peak FLOP/s prefill
// achieves (estimator.Efficiency.InferenceMFU) and the share of memory
// bandwidth decode achieves (estimator.Efficiency.BandwidthUtil).
type Factors struct {
	RequestSeconds float64 `json:"request_overhead_seconds"`
	InferenceMFU   float64 `json:"inference_mfu"`
	BandwidthUtil  float64 `json:"bandwidth_util"`
}

// Apply puts f into a job's input and efficiencies: every estimate,
// benchmark and plan made with them uses the fitted factors.
func (f Factors) Apply(in *estimator.Input, eff *estimator.Efficiency) {
	in.RequestSeconds = f.RequestSeconds
	eff.InferenceMFU, eff.BandwidthUtil = f.InferenceMFU, f.BandwidthUtil
}

// Calibration is a fit of the engine's factors to a user's own benchmark,
// with what it was fitted for: it applies to estimates on that GPU and
// engine (Matches).
type Calibration struct {
	GPU    string           // catalog GPU ID
	Engine estimator.Engine // the serving engine
	// Model, TP and Precision are the job the benchmark ran, for the
	// record: the factors apply to other models on the same GPU and
	// engine as the estimator's own efficiencies do.
	Model     string
	TP        int
	Precision string
	// Source is the benchmark file's name (no directories).
	Source string
	Factors
}

// ErrCalibrationMismatch: a calibration used for another GPU or engine
// than it was fitted for.
var ErrCalibrationMismatch = errors.New("the calibration was fitted for another GPU or engine")

// Matches returns nil when c applies to GPU gpu on engine e, else an
// *estimator.InputError (ErrCalibrationMismatch) naming both.
func (c Calibration) Matches(gpu string, e estimator.Engine) error {
	if c.GPU == gpu && c.Engine == e {
		return nil
	}
	return &estimator.InputError{Field: "calibration", Value: c.GPU + "/" + c.Engine.String(),
		Reason: "fitted for " + c.GPU + " on " + c.Engine.String() + ", not " + gpu + " on " + e.String(), Err: ErrCalibrationMismatch}
}

// ApplyTo applies c to a job on GPU gpu when it was fitted for that GPU
// and in's engine, and reports whether it did: the request cost, and the
// efficiencies that eff leaves zero (a figure the user gave wins). The
// page applies a link's calibration with it; the CLI's --calibration
// follows the same rule through its flags (--request-overhead,
// --inference-mfu, --bandwidth-util).
func (c Calibration) ApplyTo(gpu string, in *estimator.Input, eff *estimator.Efficiency) bool {
	if c.Matches(gpu, in.Engine) != nil {
		return false
	}
	if in.RequestSeconds == 0 {
		in.RequestSeconds = c.RequestSeconds
	}
	if eff.InferenceMFU == 0 {
		eff.InferenceMFU = c.InferenceMFU
	}
	if eff.BandwidthUtil == 0 {
		eff.BandwidthUtil = c.BandwidthUtil
	}
	return true
}

// Validate checks the factors and names: the range each has in the
// estimator (shares in (0, 1], seconds in [0, 3600]) and an engine the
// simulator models.
func (c Calibration) Validate() error {
	bad := func(field, v, reason string) error {
		return &estimator.InputError{Field: "calibration", Value: field + "=" + v, Reason: reason, Err: estimator.ErrRange}
	}
	switch {
	case c.GPU == "" || len(c.GPU) > 64 || strings.ContainsAny(c.GPU, ",# \t\n"):
		return bad("gpu", strconv.Quote(c.GPU), "want a catalog GPU ID")
	case !c.Engine.Pooled():
		return bad("engine", c.Engine.String(), "want vllm, sglang or trtllm")
	case !(c.RequestSeconds >= 0 && c.RequestSeconds <= 3600):
		return bad("request_overhead_seconds", ftoa(c.RequestSeconds), "want seconds in [0, 3600]")
	case !(c.InferenceMFU > 0 && c.InferenceMFU <= 1):
		return bad("inference_mfu", ftoa(c.InferenceMFU), "want a share in (0, 1]")
	case !(c.BandwidthUtil > 0 && c.BandwidthUtil <= 1):
		return bad("bandwidth_util", ftoa(c.BandwidthUtil), "want a share in (0, 1]")
	}
	return nil
}

// Text is c's short form for a link: "gpu,engine,request
// milliseconds,inference MFU,bandwidth share", e.g.
// "h100-sxm,vllm,16.2,0.412,0.78" (ParseCalibration reads it). The
// model, TP and source stay out.
func (c Calibration) Text() string {
	r3 := func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }
	ms := strconv.FormatFloat(math.Round(c.RequestSeconds*1e4)/10, 'f', -1, 64)
	return c.GPU + "," + c.Engine.String() + "," + ms + "," + r3(c.InferenceMFU) + "," + r3(c.BandwidthUtil)
}

// ParseCalibration reads Text's form; a malformed one or factors out of
// range return an *estimator.InputError.
func ParseCalibration(s string) (Calibration, error) {
	if len(s) > 256 {
		return Calibration{}, &estimator.InputError{Field: "calibration", Value: "", Reason: "too long for a calibration", Err: estimator.ErrRange}
	}
	parts := strings.Split(s, ",")
	if len(parts) != 5 {
		return Calibration{}, &estimator.InputError{Field: "calibration", Value: s, Reason: "want gpu,engine,request ms,inference MFU,bandwidth share", Err: estimator.ErrRange}
	}
	e, err := estimator.ParseEngine(parts[1])
	if err != nil {
		return Calibration{}, err
	}
	var v [3]float64
	for i, f := range parts[2:] {
		if v[i], err = strconv.ParseFloat(f, 64); err != nil {
			return Calibration{}, &estimator.InputError{Field: "calibration", Value: s, Reason: "field " + itoa(i+3) + " is not a number", Err: estimator.ErrRange}
		}
	}
	c := Calibration{GPU: parts[0], Engine: e, Factors: Factors{RequestSeconds: v[0] / 1000, InferenceMFU: v[1], BandwidthUtil: v[2]}}
	return c, c.Validate()
}

// calibrationJSON is Calibration's file form: the engine by name.
type calibrationJSON struct {
	GPU       string `json:"gpu"`
	Engine    string `json:"engine"`
	Model     string `json:"model,omitempty"`
	TP        int    `json:"tp,omitempty"`
	Precision string `json:"precision,omitempty"`
	Source    string `json:"source,omitempty"`
	Factors
}

// MarshalJSON writes c as an object with the engine's name.
func (c Calibration) MarshalJSON() ([]byte, error) {
	return json.Marshal(calibrationJSON{c.GPU, c.Engine.String(), c.Model, c.TP, c.Precision, c.Source, c.Factors})
}

// UnmarshalJSON reads MarshalJSON's object strictly (unknown fields are
// errors) and validates it.
func (c *Calibration) UnmarshalJSON(b []byte) error {
	var j calibrationJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return &estimator.InputError{Field: "calibration", Value: "", Reason: jsonReason(err), Err: estimator.ErrRange}
	}
	e, err := estimator.ParseEngine(j.Engine)
	if err != nil {
		return err
	}
	n := Calibration{GPU: j.GPU, Engine: e, Model: j.Model, TP: j.TP, Precision: j.Precision, Source: j.Source, Factors: j.Factors}
	if err := n.Validate(); err != nil {
		return err
	}
	*c = n
	return nil
}

// Residual is one measured run against the simulation of it.
type Residual struct {
	Concurrency   int     `json:"concurrency"`
	TTFTMeasured  float64 `json:"ttft_measured_seconds"`
	TTFTSimulated float64 `json:"ttft_simulated_seconds"`
	TPOTMeasured  float64 `json:"tpot_measured_seconds"`
	TPOTSimulated float64 `json:"tpot_simulated_seconds"`
	// OutputTokensPerSecond of the run and of the simulation (0 when the
	// file does not give it); the fit does not use them.
	ThroughputMeasured  float64 `json:"output_tokens_per_second_measured,omitempty"`
	ThroughputSimulated float64 `json:"output_tokens_per_second_simulated"`
}

// TTFTError and TPOTError are simulated / measured − 1.
func (r Residual) TTFTError() float64 { return r.TTFTSimulated/r.TTFTMeasured - 1 }
func (r Residual) TPOTError() float64 { return r.TPOTSimulated/r.TPOTMeasured - 1 }

// FitResult is a calibration's fit: the factors before (the estimator's
// own) and after, the residuals of every run under each, and the median
// |log(simulated / measured)| over all TTFT and TPOT figures under each.
type FitResult struct {
	Before, After                   Factors
	BeforeResiduals, AfterResiduals []Residual
	BeforeError, AfterError         float64
	Simulations                     int
	// AtBound names the factors (by their JSON names) that stopped at a
	// bound of the search: the runs pull them further than an engine
	// plausibly reaches, so the model misses something they show.
	AtBound []string
	// events is the scheduler events the simulations took (at most
	// fitMaxEvents).
	events int64
}

// FitOptions are Fit's optional settings.
type FitOptions struct {
	// Progress, when set, is called after each simulation with the share
	// of the fit's budget spent, in simulations: done of total (done
	// reaches total only when the budget runs out).
	Progress func(done, total int)
}

// Fit bounds. The shares stay within what serving engines reach on
// datasheet peaks: prefill MFU from 10% (small batches of short prompts on
// a slow host) to 100%, decode bandwidth from 20% to 100%. Without them
// a fit to runs whose TTFT grows with load faster than the simulated
// scheduler queues (a mechanism the factors do not carry) drives the
// prefill MFU towards zero, which then ruins every other prompt length;
// FitResult.AtBound says when a factor stops at one.
const (
	fitMaxSimulations = 600 // simulations in all, over every point
	// fitMaxEvents bounds the simulations' work: scheduler events (an
	// arrival, a step or a run of decode-only steps, a preemption) in all.
	// The heaviest real sweep measured, five runs of 64-1024 in flight at
	// 1k/8k tokens, takes 2.9 million in 390 simulations; an event costs
	// 0.3-2 µs, so a fit ends within seconds whatever the runs.
	fitMaxEvents     = 4_000_000
	fitMinMFU        = 0.10
	fitMinBandwidth  = 0.20
	fitMaxShare      = 1.0
	fitMaxRequestSec = 60.0
)

// fitRequests is the requests simulated per measured run: fewer than the
// benchmark's (DefaultRequests), enough for stable medians.
func fitRequests(c int) int { return min(max(3*c, 48), 1500) }

// Fit fits the engine factors of job in (its engine, model, precision,
// TP; Batch is ignored) on hardware hw to the measured runs: the fixed
// per-request cost, the prefill MFU and the decode bandwidth share that
// minimise the median |log(simulated / measured)| over every run's time
// to first token and time per output token (means or medians, as
// measured), each run simulated at its own concurrency and lengths, plus
// the mean |log error| of the same figures: the median alone lets half
// of them drift (and is flat between runs), the mean alone lets one run
// that the model cannot follow pull every factor. FitResult reports the
// median.
//
// The search is deterministic: from the best of the estimator's own
// factors and a 4 × 4 grid of the two shares, Hooke and Jeeves' pattern
// search in log coordinates, within at most 600 simulations of
// fitRequests requests each and fitMaxEvents scheduler events in all.
// Runs without a concurrency or lengths, and runs too large to simulate
// once within that budget, return an *estimator.InputError.
func Fit(in estimator.Input, hw estimator.Hardware, pts []Measurement) (FitResult, error) {
	return FitWith(in, hw, pts, FitOptions{})
}

// FitWith is Fit with options.
func FitWith(in estimator.Input, hw estimator.Hardware, pts []Measurement, opts FitOptions) (FitResult, error) {
	var res FitResult
	if len(pts) == 0 {
		return res, formatError("no runs to fit")
	}
	if len(pts) > MaxBenchmarkPoints {
		return res, formatError("more than 256 runs")
	}
	for i, p := range pts {
		if err := p.check(); err != nil {
			return res, pointError(i, err.Error())
		}
		if p.Concurrency < 1 {
			return res, pointError(i, "concurrency unknown: give it (genai-perf's CSV does not say it)")
		}
		if p.PromptTokens < 1 || p.OutputTokens < 1 {
			return res, pointError(i, "prompt and output lengths unknown: give them")
		}
	}
	if !in.Engine.Pooled() {
		return res, &estimator.InputError{Field: "engine", Value: in.Engine.String(), Reason: "calibration fits continuously batching engines (vllm, sglang, trtllm)", Err: estimator.ErrIncompatible}
	}
	// The estimator's own factors: the efficiencies the closed-form model
	// resolves for this job, the engine's fitted request cost.
	in.Batch = pts[0].Concurrency
	p0 := pts[0]
	perf, err := estimator.Throughput(in, hw, estimator.Efficiency{}, estimator.Workload{PromptTokens: p0.PromptTokens, OutputTokens: p0.OutputTokens})
	if err != nil {
		return res, err
	}
	start := Factors{RequestSeconds: estimator.RequestSeconds(in, hw), InferenceMFU: perf.ComputeEfficiency, BandwidthUtil: perf.BandwidthUtil}
	start.InferenceMFU = clampShare(start.InferenceMFU, fitMinMFU)
	start.BandwidthUtil = clampShare(start.BandwidthUtil, fitMinBandwidth)

	type scored struct {
		obj, med float64
		res      []Residual
		err      error
	}
	memo := map[Factors]scored{}
	sims := 0
	var events, perEval int64 // events in all, and the most one evaluation took
	progress := func() {
		if opts.Progress != nil {
			spent := max(sims, int(events*fitMaxSimulations/fitMaxEvents))
			opts.Progress(min(spent, fitMaxSimulations), fitMaxSimulations)
		}
	}
	eval := func(f Factors) scored {
		if s, ok := memo[f]; ok {
			return s
		}
		s := scored{res: make([]Residual, len(pts))}
		errs := make([]float64, 0, 2*len(pts))
		defer func(e0 int64) { perEval = max(perEval, events-e0) }(events)
		for i, p := range pts {
			j := in
			eff := estimator.Efficiency{}
			f.Apply(&j, &eff)
			j.Batch = p.Concurrency
			w := estimator.Workload{PromptTokens: p.PromptTokens, OutputTokens: p.OutputTokens}
			_, r, err := Benchmark(j, hw, eff, w, Bench{Concurrency: p.Concurrency, Requests: fitRequests(p.Concurrency), RangeRatio: p.RangeRatio, Seed: 1,
				maxEvents: max(fitMaxEvents-events, 1)})
			sims++
			events += r.events
			if errors.Is(err, errEventBudget) {
				events = fitMaxEvents
			}
			progress()
			if err != nil {
				s.err = err
				s.obj = math.Inf(1)
				memo[f] = s
				return s
			}
			ttft, tpot := r.TTFT.Mean, r.TPOT.Mean
			if p.Median {
				ttft, tpot = r.TTFT.P50, r.TPOT.P50
			}
			s.res[i] = Residual{Concurrency: p.Concurrency, TTFTMeasured: p.TTFTSeconds, TTFTSimulated: ttft,
				TPOTMeasured: p.TPOTSeconds, TPOTSimulated: tpot, ThroughputMeasured: p.OutputTokensPerSecond, ThroughputSimulated: r.OutputTokensPerSecond}
			errs = append(errs, logErr(ttft, p.TTFTSeconds), logErr(tpot, p.TPOTSeconds))
		}
		s.med = median(errs)
		mean := 0.0
		for _, e := range errs {
			mean += e
		}
		s.obj = s.med + 1.0*mean/float64(len(errs))
		memo[f] = s
		return s
	}

	cur := start
	best := eval(cur)
	if errors.Is(best.err, errEventBudget) || errors.Is(best.err, errStuck) {
		return res, &estimator.InputError{Field: "benchmark", Value: itoa(len(pts)) + " runs", Err: estimator.ErrRange,
			Reason: "too large to simulate within the fit's budget (" + itoa(fitMaxEvents) + " scheduler events): fit fewer, shorter or less concurrent runs"}
	}
	if best.err != nil {
		return res, best.err
	}
	res.Before, res.BeforeResiduals, res.BeforeError = start, best.res, best.med
	// Each evaluation simulates every run; the next one is expected to
	// take as many events as the costliest so far.
	budget := func() bool {
		return sims+len(pts) <= fitMaxSimulations && events+perEval <= fitMaxEvents
	}
	// A coarse grid of the two shares first, so that the simplex starts
	// in the right basin: the median over a few runs is a bumpy objective
	// with local minima far apart.
	for _, bw := range []float64{0.3, 0.5, 0.7, 0.9} {
		for _, mfu := range []float64{0.15, 0.3, 0.5, 0.8} {
			if !budget() {
				break
			}
			f := Factors{RequestSeconds: start.RequestSeconds, InferenceMFU: mfu, BandwidthUtil: bw}
			if s := eval(f); s.obj < best.obj-1e-12 {
				cur, best = f, s
			}
		}
	}
	// Then Hooke and Jeeves' pattern search (Hooke & Jeeves 1961,
	// "'Direct Search' Solution of Numerical and Statistical Problems",
	// JACM 8(2)) in log coordinates: the shares' logarithms and
	// log(request seconds + 1 ms), clamped to the bounds. Exploratory
	// steps along each coordinate, pattern moves along the last
	// improvement (which follows the valley where a longer request cost
	// trades against a faster prefill), the steps halved when nothing
	// improves. Deterministic: a fixed start and order.
	toF := func(u [3]float64) Factors {
		return Factors{
			BandwidthUtil:  clampShare(math.Exp(u[0]), fitMinBandwidth),
			InferenceMFU:   clampShare(math.Exp(u[1]), fitMinMFU),
			RequestSeconds: min(max(math.Exp(u[2])-0.001, 0), fitMaxRequestSec),
		}
	}
	obj := func(u [3]float64) float64 {
		f := toF(u)
		s := eval(f)
		if s.obj < best.obj-1e-12 {
			cur, best = f, s
		}
		return s.obj
	}
	explore := func(u [3]float64, fu float64, step [3]float64) ([3]float64, float64) {
		for k := range u {
			for _, d := range []float64{step[k], -step[k]} {
				if !budget() {
					return u, fu
				}
				v := u
				v[k] += d
				if fv := obj(v); fv < fu-1e-12 {
					u, fu = v, fv
					break
				}
			}
		}
		return u, fu
	}
	x := [3]float64{math.Log(cur.BandwidthUtil), math.Log(cur.InferenceMFU), math.Log(cur.RequestSeconds + 0.001)}
	fx := best.obj
	step := [3]float64{math.Ln2, math.Ln2, math.Ln2}
	for budget() && step[0] > 0.004 {
		y, fy := explore(x, fx, step)
		if !(fy < fx-1e-12) {
			for k := range step {
				step[k] /= 2
			}
			continue
		}
		for budget() { // pattern moves
			var z [3]float64
			for k := range z {
				z[k] = 2*y[k] - x[k]
			}
			x, fx = y, fy
			w, fw := explore(z, obj(z), step)
			if !(fw < fy-1e-12) {
				break
			}
			y, fy = w, fw
		}
		x, fx = y, fy
	}
	res.After, res.AfterResiduals, res.AfterError, res.Simulations, res.events = cur, best.res, best.med, sims, events
	for _, b := range []struct {
		name string
		at   bool
	}{
		{"request_overhead_seconds", cur.RequestSeconds == 0 || cur.RequestSeconds == fitMaxRequestSec},
		{"inference_mfu", cur.InferenceMFU == fitMinMFU || cur.InferenceMFU == fitMaxShare},
		{"bandwidth_util", cur.BandwidthUtil == fitMinBandwidth || cur.BandwidthUtil == fitMaxShare},
	} {
		if b.at {
			res.AtBound = append(res.AtBound, b.name)
		}
	}
	return res, nil
}

func clampShare(v, lo float64) float64 {
	if !(v >= lo) {
		return lo
	}
	return min(v, fitMaxShare)
}

// logErr is |log(sim / meas)|; a non-positive simulated figure counts as
// a large error.
func logErr(sim, meas float64) float64 {
	if !(sim > 0) || !(meas > 0) {
		return 10
	}
	return math.Abs(math.Log(sim / meas))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
