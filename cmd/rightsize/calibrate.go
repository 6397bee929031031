package main

// "rightsize calibrate": fit the serving engine's factors to a benchmark
// the user ran on their own deployment, and "--calibration FILE" on
// estimate, plan and simulate, which applies such a fit.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// runCalibrate implements "rightsize calibrate": the estimate flags name
// the job the benchmark ran (--model or --config, --gpu, --engine,
// --precision, --tp, …) and FILE is its result:
//
//	rightsize calibrate --gpu h100-sxm --engine vllm --model llama-3.1-8b [--tp 2] [--json] [--out cal.json] FILE
//
// FILE is a `vllm bench serve --save-result` JSON (one run, or several as
// JSON lines or an array), SGLang `bench_serving --output-file` JSON
// lines, genai-perf's profile_export_genai_perf.csv, or a CSV with the
// header concurrency,ttft_ms,tpot_ms[,throughput_tok_s][,prompt_tokens,
// output_tokens] (ttft_ms and tpot_ms are medians; name the columns
// mean_ttft_ms and mean_tpot_ms for means). Runs that do not say their
// concurrency (genai-perf) take --concurrency, and runs without lengths
// take --prompt-tokens and --output-tokens.
//
// It fits the per-request cost, the prefill MFU and the decode bandwidth
// share (sim.Fit), prints the factors and every run's measured and
// simulated TTFT and TPOT before and after, and with --out writes the
// calibration, which --calibration FILE applies to estimate, plan and
// simulate on the same GPU and engine.
//
// A run's figures must be a real benchmark's (sim.Measurement's bounds):
// 1 to 4096 requests in flight, at most 10,485,760 prompt and output
// tokens together, TTFT from 0.1 ms to a day, TPOT from 10 µs to a
// minute, a range ratio in [0, 1]; the flags that fill in what a file
// lacks have the same bounds. The fit's work is bounded (600 simulations,
// 4 million scheduler events: seconds); on a terminal, stderr shows
// "calibrating… n/600" (the budget spent) while it runs past a second.
//
// JSON output (--json) is one object:
//
//	calibration         the fit, as --out writes it (fields below)
//	link                the same in the page's short form:
//	                    gpu,engine,request ms,inference MFU,bandwidth share
//	format              the file's layout: vllm, sglang, genai-perf or csv
//	before, after       the factors: {request_overhead_seconds,
//	                    inference_mfu, bandwidth_util}; before are the
//	                    estimator's own for the job
//	median_abs_log_error_before, median_abs_log_error_after
//	                    median |ln(simulated / measured)| over every run's
//	                    TTFT and TPOT (0.1 ≈ 10% off)
//	simulations         simulated benchmarks the fit ran
//	at_bound            factors that stopped at a bound of the search
//	                    (inference_mfu ≥ 0.1, bandwidth_util ≥ 0.2, both
//	                    ≤ 1): the runs show something the factors do not
//	                    model, so the fit is a compromise; [] when none
//	runs                one per measured run (fields below)
//
// Each run:
//
//	concurrency         requests in flight (the client's --max-concurrency)
//	prompt_tokens, output_tokens, range_ratio  the lengths simulated
//	statistic           "median" or "mean": what the file measured and the
//	                    simulation is compared with
//	ttft_measured_seconds, ttft_before_seconds, ttft_after_seconds
//	tpot_measured_seconds, tpot_before_seconds, tpot_after_seconds
//	ttft_error_before, ttft_error_after, tpot_error_before, tpot_error_after
//	                    simulated / measured − 1
//	output_tokens_per_second_measured  the run's throughput (0: not in the file)
//	output_tokens_per_second_after     the simulation's with the fitted factors
//
// The calibration file (--out):
//
//	gpu, engine         what it applies to (catalog GPU ID, engine name)
//	model, tp, precision, source  the job and file it was fitted on
//	request_overhead_seconds  fixed cost per request outside the GPU's steps
//	inference_mfu       share of peak FLOP/s prefill reaches
//	bandwidth_util      share of memory bandwidth decode reaches
func runCalibrate(args []string, stdout, stderr io.Writer) int {
	return estimateCommand("calibrate", args, stdout, stderr, &calibrateCmd{stderr: stderr})
}

// positional is a subcommand that takes the arguments after its flags.
type positional interface {
	positional(args []string) error
}

func (c *calibrateCmd) positional(args []string) error {
	switch len(args) {
	case 0:
		return errors.New("need the benchmark result FILE after the flags; usage: rightsize calibrate --gpu ID --engine E --model ID [--tp T] [--json] [--out FILE] FILE")
	}
	// Flags after FILE are read too (the flag package stops at the first
	// argument that is not one).
	c.file = args[0]
	if err := c.fs.Parse(args[1:]); err != nil {
		return err
	}
	if c.fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: one benchmark FILE at a time", c.fs.Arg(0))
	}
	return nil
}

type calibrateCmd struct {
	fs     *flag.FlagSet
	file   string
	out    *string
	stderr io.Writer // the progress line, on a terminal
}

func (c *calibrateCmd) define(fs *flag.FlagSet) {
	c.fs = fs
	c.out = fs.String("out", "", "write the calibration JSON to this file (estimate, plan and simulate read it with --calibration)")
}

// calibrateJSON is calibrate's --json output (documented at runCalibrate).
type calibrateJSON struct {
	Calibration sim.Calibration  `json:"calibration"`
	Link        string           `json:"link"`
	Format      string           `json:"format"`
	Before      sim.Factors      `json:"before"`
	After       sim.Factors      `json:"after"`
	ErrBefore   float64          `json:"median_abs_log_error_before"`
	ErrAfter    float64          `json:"median_abs_log_error_after"`
	Simulations int              `json:"simulations"`
	AtBound     []string         `json:"at_bound"`
	Runs        []calibrateRunJS `json:"runs"`
}

type calibrateRunJS struct {
	Concurrency      int     `json:"concurrency"`
	PromptTokens     int     `json:"prompt_tokens"`
	OutputTokens     int     `json:"output_tokens"`
	RangeRatio       float64 `json:"range_ratio"`
	Statistic        string  `json:"statistic"`
	TTFTMeasured     float64 `json:"ttft_measured_seconds"`
	TTFTBefore       float64 `json:"ttft_before_seconds"`
	TTFTAfter        float64 `json:"ttft_after_seconds"`
	TPOTMeasured     float64 `json:"tpot_measured_seconds"`
	TPOTBefore       float64 `json:"tpot_before_seconds"`
	TPOTAfter        float64 `json:"tpot_after_seconds"`
	TTFTErrBefore    float64 `json:"ttft_error_before"`
	TTFTErrAfter     float64 `json:"ttft_error_after"`
	TPOTErrBefore    float64 `json:"tpot_error_before"`
	TPOTErrAfter     float64 `json:"tpot_error_after"`
	ThroughputMeas   float64 `json:"output_tokens_per_second_measured"`
	ThroughputFitted float64 `json:"output_tokens_per_second_after"`
}

func (c *calibrateCmd) run(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	in := job.in
	if job.gpu.ID == "" {
		return fail("need --gpu: the calibration is for one GPU")
	}
	if !in.Engine.Pooled() {
		return fail("--engine %s: calibration fits vllm, sglang or trtllm", in.Engine)
	}
	hw, ok := job.gpu.HardwareOn(in.Weights, catalog.Node{})
	if !ok {
		return fail("--gpu %s: the catalog lacks its FLOP/s or bandwidth", job.gpu.ID)
	}
	// The flags that fill in what a file lacks have the bounds of the
	// file's own figures (sim.Measurement).
	if job.set["batch"] || job.set["concurrency"] {
		name := "--concurrency"
		if !job.set["concurrency"] {
			name = "--batch"
		}
		if in.Batch < 1 || in.Batch > sim.MaxBenchmarkConcurrency {
			return fail("%s %d: want 1..%d requests in flight", name, in.Batch, sim.MaxBenchmarkConcurrency)
		}
	}
	if job.prompt < 0 || job.output < 0 || job.prompt > sim.MaxBenchmarkTokens-job.output {
		return fail("--prompt-tokens %d, --output-tokens %d: want lengths ≥ 0, at most %d tokens together", job.prompt, job.output, sim.MaxBenchmarkTokens)
	}
	data, err := readLimited(c.file, sim.MaxBenchmarkBytes)
	if err != nil {
		return fail("%v", err)
	}
	pts, format, err := sim.Parse(c.file, data)
	if err != nil {
		return fail("%s: %v", c.file, err)
	}
	for i := range pts {
		p := &pts[i]
		if p.Concurrency == 0 && (job.set["batch"] || job.set["concurrency"]) {
			p.Concurrency = in.Batch
		}
		if p.PromptTokens == 0 && p.OutputTokens == 0 && job.prompt > 0 && job.output > 0 {
			p.PromptTokens, p.OutputTokens = job.prompt, job.output
		}
		if p.RangeRatio == 0 {
			p.RangeRatio = sim.DefaultRangeRatio
		}
	}
	prog := newProgress(c.stderr)
	res, err := sim.FitWith(in, hw, pts, sim.FitOptions{Progress: prog.update})
	prog.end()
	if err != nil {
		if strings.Contains(err.Error(), "concurrency unknown") {
			return fail("%s: %v (--concurrency)", c.file, err)
		}
		if strings.Contains(err.Error(), "lengths unknown") {
			return fail("%s: %v (--prompt-tokens and --output-tokens)", c.file, err)
		}
		return fail("%s: %v", c.file, err)
	}
	cal := sim.Calibration{GPU: job.gpu.ID, Engine: in.Engine, Model: job.name, TP: in.TP, Precision: in.Weights.String(),
		Source: filepath.Base(c.file), Factors: res.After}
	if err := cal.Validate(); err != nil {
		return fail("%v", err)
	}
	out := calibrateJSON{Calibration: cal, Link: cal.Text(), Format: format.String(), Before: res.Before, After: res.After,
		ErrBefore: res.BeforeError, ErrAfter: res.AfterError, Simulations: res.Simulations, AtBound: res.AtBound}
	if out.AtBound == nil {
		out.AtBound = []string{}
	}
	for i, p := range pts {
		b, a := res.BeforeResiduals[i], res.AfterResiduals[i]
		stat := "mean"
		if p.Median {
			stat = "median"
		}
		out.Runs = append(out.Runs, calibrateRunJS{Concurrency: p.Concurrency, PromptTokens: p.PromptTokens, OutputTokens: p.OutputTokens,
			RangeRatio: p.RangeRatio, Statistic: stat, TTFTMeasured: p.TTFTSeconds, TTFTBefore: b.TTFTSimulated, TTFTAfter: a.TTFTSimulated,
			TPOTMeasured: p.TPOTSeconds, TPOTBefore: b.TPOTSimulated, TPOTAfter: a.TPOTSimulated,
			TTFTErrBefore: b.TTFTError(), TTFTErrAfter: a.TTFTError(), TPOTErrBefore: b.TPOTError(), TPOTErrAfter: a.TPOTError(),
			ThroughputMeas: p.OutputTokensPerSecond, ThroughputFitted: a.ThroughputSimulated})
	}
	if *c.out != "" {
		b, _ := json.MarshalIndent(cal, "", "  ")
		if err := os.WriteFile(*c.out, append(b, '\n'), 0o644); err != nil {
			return fail("--out: %v", err)
		}
	}
	if f := c.fs.Lookup("json"); f != nil && f.Value.String() == "true" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	printCalibration(stdout, out, *c.out)
	return 0
}

func printCalibration(w io.Writer, o calibrateJSON, outFile string) {
	c := o.Calibration
	fmt.Fprintf(w, "%s on %s, %s (%s), TP %d: %d %s run(s) from %s\n\n", c.Model, c.GPU, c.Engine, c.Precision, c.TP, len(o.Runs), o.Format, c.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "factor\tbefore\tfitted\t\n")
	fmt.Fprintf(tw, "request overhead\t%.1f ms\t%.1f ms\t\n", 1000*o.Before.RequestSeconds, 1000*o.After.RequestSeconds)
	fmt.Fprintf(tw, "prefill MFU\t%.3f\t%.3f\t\n", o.Before.InferenceMFU, o.After.InferenceMFU)
	fmt.Fprintf(tw, "decode bandwidth share\t%.3f\t%.3f\t\n", o.Before.BandwidthUtil, o.After.BandwidthUtil)
	fmt.Fprintf(tw, "median |error|\t%.1f%%\t%.1f%%\t\n", 100*math.Expm1(o.ErrBefore), 100*math.Expm1(o.ErrAfter))
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "concurrency\tstat\tTTFT measured\tbefore\tafter\tTPOT measured\tbefore\tafter\t\n")
	for _, r := range o.Runs {
		fmt.Fprintf(tw, "%d\t%s\t%.1f ms\t%+.0f%%\t%+.0f%%\t%.2f ms\t%+.0f%%\t%+.0f%%\t\n", r.Concurrency, r.Statistic,
			1000*r.TTFTMeasured, 100*r.TTFTErrBefore, 100*r.TTFTErrAfter, 1000*r.TPOTMeasured, 100*r.TPOTErrBefore, 100*r.TPOTErrAfter)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d simulations; link form %s\n", o.Simulations, o.Link)
	if len(o.AtBound) > 0 {
		fmt.Fprintf(w, "warning: %s stopped at the search's bound: the runs show something these factors do not model; the fit is a compromise\n", strings.Join(o.AtBound, ", "))
	}
	if outFile != "" {
		fmt.Fprintf(w, "wrote %s (use it with --calibration %s)\n", outFile, outFile)
	}
}

// progress is a "calibrating… n/N" (or "planning… n/N") line on stderr
// for a run over a second: written only to a terminal (stdout's JSON and
// a redirected stderr carry none of it), redrawn at most every 100 ms
// and cleared when the fit ends.
type progress struct {
	label       string    // "calibrating…" unless set
	w           io.Writer // nil: off
	now         func() time.Time
	start, last time.Time
	width       int // of the line drawn, in characters; 0: none
}

func newProgress(stderr io.Writer) *progress {
	p := &progress{now: time.Now}
	if isTerminal(stderr) {
		p.w = stderr
	}
	p.start = p.now()
	return p
}

// update draws done of total (sim.FitOptions.Progress).
func (p *progress) update(done, total int) {
	if p.w == nil {
		return
	}
	t := p.now()
	if t.Sub(p.start) < time.Second || t.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = t
	label := p.label
	if label == "" {
		label = "calibrating…"
	}
	line := fmt.Sprintf("%s %d/%d", label, min(done, total), total)
	fmt.Fprintf(p.w, "\r%-*s", p.width, line)
	p.width = max(p.width, utf8.RuneCountInString(line))
}

// end clears the line, if one was drawn.
func (p *progress) end() {
	if p.w != nil && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// readLimited reads a file of at most limit bytes.
func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		if limit >= 1<<20 {
			return nil, fmt.Errorf("%s: larger than %d MiB", name, limit>>20)
		}
		return nil, fmt.Errorf("%s: over %d KiB", name, limit>>10)
	}
	return data, nil
}

// loadCalibration applies --calibration FILE to the estimate flags before
// they are read: the calibration's GPU and engine where --gpu and
// --engine are not given (a mismatch is an error), and its factors as
// --request-overhead, --inference-mfu and --bandwidth-util where those
// are not given (a flag the user sets wins).
func loadCalibration(fs *flag.FlagSet, file string) error {
	data, err := readLimited(file, 64<<10)
	if err != nil {
		return err
	}
	var c sim.Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: not a calibration file (rightsize calibrate --out): %v", file, err)
		}
		return fmt.Errorf("%s: %v", file, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if g := fs.Lookup("gpu").Value.String(); set["gpu"] && g != c.GPU {
		return fmt.Errorf("%s: %w", file, c.Matches(g, c.Engine))
	}
	if set["engine"] {
		e, err := estimator.ParseEngine(fs.Lookup("engine").Value.String())
		if err == nil && e != c.Engine {
			return fmt.Errorf("%s: %w", file, c.Matches(c.GPU, e))
		}
	}
	for _, f := range []struct{ name, v string }{
		{"gpu", c.GPU}, {"engine", c.Engine.String()},
		{"request-overhead", ftoa(c.RequestSeconds)}, {"inference-mfu", ftoa(c.InferenceMFU)}, {"bandwidth-util", ftoa(c.BandwidthUtil)},
	} {
		if !set[f.name] {
			if err := fs.Set(f.name, f.v); err != nil {
				return fmt.Errorf("%s: %s: %v", file, f.name, err)
			}
		}
	}
	// The calibration's fit (sim.Fit) simulates its runs without a cold
	// first wave, so whatever cold start the user's measured means held
	// sits in its fitted request cost: the estimated wave (firstWaveFlag's
	// auto) would count it twice. Set in place, not with fs.Set, so a plan
	// (which refuses the flag given) reads it as not given.
	if f := fs.Lookup("first-wave-seconds"); f != nil && !set[f.Name] {
		if fw, ok := f.Value.(*firstWaveFlag); ok {
			*fw = firstWaveFlag{set: true}
		}
	}
	return nil
}

func ftoa(v float64) string { return fmt.Sprint(v) }
