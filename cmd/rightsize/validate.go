package main

// "rightsize validate": replays the public measurements vendored under
// estimator/testdata/calibration through the same path as "rightsize
// estimate --json" and reports the error per group, split into the rows
// the constants were fitted on, the test rows and the held-back slice
// (testdata/calibration/README.md says which is which and why).

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"rightsize/estimator"
)

// Validation groups, in report order.
var valGroups = []string{"memory", "fine-tune memory", "fine-tune memory, generic flags", "decode", "prefill/TTFT", "serving TPOT", "serving throughput",
	"load TTFT", "load TTFT vs median", "load TTFT p50", "load TTFT p99", "load TPOT", "load TPOT vs median", "load TPOT p50",
	"load TPOT p99", "load throughput/GPU", "load TPOT, tables", "load throughput/GPU, tables",
	"load TPOT, blog tables", "load throughput/GPU, blog tables",
	"GPUStack TTFT p50, conc ≤ 8", "GPUStack TTFT mean, conc ≤ 8", "GPUStack TTFT p50, burst", "GPUStack TTFT mean, burst",
	"GPUStack TPOT p50", "GPUStack throughput", "training time", "MFU", "wide-EP decode step"}

// Splits: fit rows fixed a constant; test rows did not; held-back rows
// were set aside before any fitting and never looked at while fitting.
var valSplits = []string{"fit", "test", "heldback"}

// valCase is one published measurement and the CLI arguments that
// describe its setup.
type valCase struct {
	Group, Split string
	Source       string // file under testdata/calibration
	Engine       string // engine and version as the source states it
	Setting      string // human description
	Args         []string
	Field        string  // JSON path in the estimate's output
	Scale        float64 // estimate × Scale is in the measured unit
	Measured     float64
	Estimated    float64
	Unit         string
	Error        float64 // Estimated / Measured − 1
	// Serving under load (the InferenceX rows): the engine as Rightsize
	// names it, the GPU, and the client's concurrency.
	EngineID    string `json:",omitempty"`
	GPU         string `json:",omitempty"`
	Concurrency int    `json:",omitempty"`
	// Reserved: a torch.cuda.max_memory_reserved figure over a run whose
	// samples average MeanTokens tokens (ms-swift v2), compared with
	// estimator.RunReserved for the input in.
	Reserved   bool             `json:",omitempty"`
	MeanTokens float64          `json:",omitempty"`
	in         *estimator.Input // the input Args describe, for Reserved
	// Fit calls (the LitGPT rows): Call asks whether the estimate calls
	// the row's run fitting (EstFits, the estimate's "fits": its total
	// within the GPU's usable memory); OOM marks a run that ran out of
	// memory, which has no Measured and no Error.
	Call    bool `json:",omitempty"`
	OOM     bool `json:",omitempty"`
	EstFits bool `json:",omitempty"`
	// Inconsistent (Call rows): the printed peak is below the weights,
	// gradients and optimizer states the printed setup must hold at once,
	// so the run cannot have been that setup; the row is shown but left
	// out of the summary and the fit calls.
	Inconsistent bool `json:",omitempty"`
	// SetupArgs (Call rows), when set, are the arguments of the printed
	// setup the Inconsistent check weighs the model states of, where Args
	// replay the row otherwise (the generic-flags replay of the LitGPT
	// rows leaves out the same rows as the replay as the configs run).
	SetupArgs []string `json:",omitempty"`
}

// runValidate implements "rightsize validate [--format markdown|json]
// [--data DIR]".
func runValidate(args []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintln(stderr, "rightsize validate: "+strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", "; "))
		return 2
	}
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "markdown", "markdown|json")
	data := fs.String("data", "", "calibration directory (default: estimator/testdata/calibration under the repository root)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: rightsize validate [--format markdown|json] [--data DIR]")
			return 0
		}
		return fail("%v", err)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q; usage: rightsize validate [--format markdown|json] [--data DIR]", fs.Arg(0))
	}
	if *format != "markdown" && *format != "json" {
		return fail("--format %q: want markdown or json", *format)
	}
	dir := *data
	if dir == "" {
		dir = findCalibrationDir()
	}
	cases, err := validationCases(dir)
	if err != nil {
		return fail("%v", err)
	}
	var ran []valCase
	var skipped []string
	for _, c := range cases {
		switch err := c.run(); {
		case errors.Is(err, errNoSpeed):
			skipped = append(skipped, c.Setting+" ("+c.Source+"): "+err.Error())
		case err != nil:
			return fail("%s %s: %v", c.Source, c.Setting, err)
		default:
			ran = append(ran, c)
		}
	}
	cases = ran
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Summary []valSummary `json:"summary"`
			Cases   []valCase    `json:"cases"`
			Skipped []string     `json:"skipped"`
		}{summarize(cases), cases, skipped}); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	writeAccuracy(stdout, cases, skipped)
	return 0
}

// errNoSpeed: the catalog GPU lacks the datasheet figures a speed
// estimate needs, so the row cannot be replayed. errors.Is matches it for
// errNoFit too: either way the row is skipped, with its own reason.
var errNoSpeed = errors.New("no speed estimate for this GPU")

// errNoFit: the row's serving job does not start on its GPUs as the
// estimate counts them, and the estimate gives serving speed only for a
// job that runs (estimator.Result.Runs), so the row cannot be replayed. A
// training job that does not fit is still timed (performance.does_not_fit)
// and replayed.
var errNoFit error = noFitError{}

type noFitError struct{}

func (noFitError) Error() string {
	return "does not fit in the GPUs' memory"
}
func (noFitError) Is(target error) bool { return target == errNoSpeed }

// findCalibrationDir looks for estimator/testdata/calibration from the
// working directory up.
func findCalibrationDir() string {
	d, err := os.Getwd()
	if err != nil {
		return filepath.Join("estimator", "testdata", "calibration")
	}
	for range 6 {
		p := filepath.Join(d, "estimator", "testdata", "calibration")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		d = filepath.Dir(d)
	}
	return filepath.Join("estimator", "testdata", "calibration")
}

// run replays c through "rightsize estimate --json".
func (c *valCase) run() error {
	v, err := estimateField(append(slices.Clone(c.Args), "--json"), c.Field)
	if err != nil {
		return err
	}
	if c.Call {
		fits, err := estimateField(append(slices.Clone(c.Args), "--json"), "fits")
		if err != nil {
			return err
		}
		c.EstFits = fits == 1
	}
	if c.OOM {
		c.Estimated = v * c.Scale
		return nil
	}
	if c.Call {
		states := 0.0
		for _, f := range []string{"per_gpu.weights_bytes", "per_gpu.gradients_bytes", "per_gpu.optimizer_bytes"} {
			setup := c.Args
			if c.SetupArgs != nil {
				setup = c.SetupArgs
			}
			b, err := estimateField(append(slices.Clone(setup), "--json"), f)
			if err != nil {
				return err
			}
			states += b
		}
		c.Inconsistent = states*c.Scale > c.Measured
	}
	if c.Reserved {
		if v, err = c.reserved(v); err != nil {
			return err
		}
	}
	c.Estimated = v * c.Scale
	c.Error = c.Estimated/c.Measured - 1
	return nil
}

// reserved turns the estimate's peak_bytes into what
// torch.cuda.max_memory_reserved reports after the run (estimator.RunReserved):
// the peak with the allocator's whole reserve (the step's total_bytes or
// the load peak: the cache the fit call leaves out, allocator_cache_bytes,
// is held where memory is plentiful) without the CUDA context, plus the
// allocator's cache of the loss's blocks, up to the usable memory.
func (c *valCase) reserved(peak float64) (float64, error) {
	args := append(slices.Clone(c.Args), "--json")
	usable, err := estimateField(args, "usable_bytes")
	if err != nil {
		return 0, err
	}
	total, err := estimateField(args, "per_gpu.total_bytes")
	if err != nil {
		return 0, err
	}
	load, err := estimateField(args, "load_peak_bytes")
	if err != nil {
		return 0, err
	}
	peak = math.Max(peak, math.Max(total, load))
	ctx, err := estimateField(args, "per_gpu.cuda_context_bytes")
	if err != nil {
		return 0, err
	}
	cache := float64(estimator.ReservedLossCache(*c.in, c.MeanTokens))
	return math.Max(0, math.Min(peak+cache, usable)-ctx), nil
}

// estimateCache holds the parsed output of each estimate command run, so
// the cases of one measured point (TTFT, TPOT, throughput, percentiles)
// run its serving simulation once.
var estimateCache = map[string]map[string]any{}

// estimateField runs the estimate command and reads one JSON field.
func estimateField(args []string, field string) (float64, error) {
	key := strings.Join(args, "\x00")
	m, ok := estimateCache[key]
	if !ok {
		var out, errb bytes.Buffer
		if code := runEstimate(args, &out, &errb); code != 0 {
			return 0, fmt.Errorf("estimate %s: %s", strings.Join(args, " "), strings.TrimSpace(errb.String()))
		}
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			return 0, err
		}
		estimateCache[key] = m
	}
	var cur any = m
	for _, k := range strings.Split(field, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			if strings.HasPrefix(field, "performance.") {
				if fits, ok := m["fits"].(bool); ok && !fits {
					return 0, errNoFit
				}
				return 0, errNoSpeed
			}
			return 0, fmt.Errorf("no field %q in the estimate", field)
		}
		cur = obj[k]
	}
	if b, ok := cur.(bool); ok {
		if b {
			return 1, nil
		}
		return 0, nil
	}
	f, ok := cur.(float64)
	if !ok {
		return 0, fmt.Errorf("field %q is %v, not a number", field, cur)
	}
	return f, nil
}

type valSummary struct {
	Group   string   `json:"group"`
	Split   string   `json:"split"`
	N       int      `json:"n"`
	Median  float64  `json:"median_abs_error"`
	P90     float64  `json:"p90_abs_error"`
	Signed  float64  `json:"median_signed_error"`
	Engines []string `json:"engines"`
	Sources []string `json:"sources"`
}

func summarize(cases []valCase) []valSummary {
	var out []valSummary
	for _, g := range valGroups {
		for _, s := range valSplits {
			var abs, signed []float64
			engines, sources := map[string]bool{}, map[string]bool{}
			for _, c := range cases {
				if c.Group != g || c.Split != s || c.OOM || c.Inconsistent {
					continue
				}
				abs = append(abs, math.Abs(c.Error))
				signed = append(signed, c.Error)
				engines[c.Engine], sources[c.Source] = true, true
			}
			if len(abs) == 0 {
				continue
			}
			out = append(out, valSummary{Group: g, Split: s, N: len(abs), Median: quantile(abs, 0.5), P90: quantile(abs, 0.9),
				Signed: quantile(signed, 0.5), Engines: keys(engines), Sources: keys(sources)})
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// quantile is the q-quantile of v by linear interpolation between order
// statistics (v is not modified).
func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

var splitNames = map[string]string{"fit": "fit (in-sample)", "test": "test", "heldback": "held back"}

// writeAccuracy prints the Markdown report committed as docs/accuracy.md.
func writeAccuracy(w io.Writer, cases []valCase, skipped []string) {
	fmt.Fprintln(w, "# Speed and memory accuracy")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Generated by `make validate` (`rightsize validate --format markdown`); do not edit by hand. Every row is a")
	fmt.Fprintln(w, "published measurement replayed through `rightsize estimate --json` with the catalog's model and GPU. Error is")
	fmt.Fprintln(w, "estimate / measured − 1. *Fit* rows fixed a constant of the model; *test* rows did not; *held back* rows were")
	fmt.Fprintln(w, "set aside before fitting (estimator/testdata/calibration/README.md lists the sources, licences, dates and splits).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| group | split | n | median \\|error\\| | p90 \\|error\\| | median error | engines | sources |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---|---|")
	for _, s := range summarize(cases) {
		fmt.Fprintf(w, "| %s | %s | %d | %.1f%% | %.1f%% | %+.1f%% | %s | %s |\n", s.Group, splitNames[s.Split], s.N, 100*s.Median, 100*s.P90,
			100*s.Signed, strings.Join(s.Engines, "; "), strings.Join(s.Sources, ", "))
	}
	for _, g := range valGroups {
		if strings.HasPrefix(g, "load ") || strings.HasPrefix(g, "GPUStack ") {
			continue // hundreds of points: by engine, GPU, concurrency or model below; each point in --format json
		}
		fmt.Fprintf(w, "\n## %s\n\n", g)
		fmt.Fprintln(w, "| split | setting | measured | estimated | error | source |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---|")
		for _, c := range cases {
			if c.Group != g {
				continue
			}
			if c.OOM {
				fmt.Fprintf(w, "| %s | %s | out of memory | %s | fits=%v | %s |\n", c.Split, c.Setting, fmtNum(c.Estimated), c.EstFits, c.Source)
				continue
			}
			note := ""
			if c.Inconsistent {
				note = " (below the setup's own weights, gradients and optimizer states: not that setup; left out of the summary)"
			}
			fmt.Fprintf(w, "| %s | %s%s | %s %s | %s | %+.1f%% | %s |\n", c.Split, c.Setting, note, fmtNum(c.Measured), c.Unit, fmtNum(c.Estimated),
				100*c.Error, c.Source)
		}
		writeFitCalls(w, cases, g)
	}
	writeLoadBreakdown(w, cases)
	writeGPUStackBreakdown(w, cases)
	writeMTPSection(w, cases)
	writeDisaggSection(w, cases)
	fmt.Fprintln(w, "\n## What the model leaves out")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "- **A request's fixed cost by model.** At 1–8 requests in flight the serving engines' TTFT carries a fixed cost")
	fmt.Fprintln(w, "  that depends on the model more than on the engine or the benchmark: 56–190 ms for DeepSeek-R1 on SGLang,")
	fmt.Fprintln(w, "  TensorRT-LLM and vLLM in both families replayed here, at most 48 ms for Qwen3-8B, gpt-oss-120b and Llama 3.1.")
	fmt.Fprintln(w, "  For SGLang and TensorRT-LLM the cost follows the model's prefill operations (layers × operations a layer;")
	fmt.Fprintln(w, "  DeepSeek-R1 80 and 68 ms, Qwen3-8B 14 and 25 ms), fitted on the two families' rows; what the engines do per")
	fmt.Fprintln(w, "  request that scales so is not read in their source. vLLM keeps one cost (28 ms, on Qwen3-8B and gpt-oss-120b),")
	fmt.Fprintln(w, "  so it comes out low for DeepSeek-R1 (−41%); estimator/testdata/calibration/README.md, seventh and hundred-sixth")
	fmt.Fprintln(w, "  rounds, give the figures and what was tried.")
	fmt.Fprintln(w, "- **The host CPU itself.** HF transformers decoding at small batch is bound by the host's per-op launch cost. It is")
	fmt.Fprintln(w, "  modelled by host class, chosen from the host, not the GPU: `--host` (a class or a CPU name), else the class of the")
	fmt.Fprintln(w, "  instance CPUs the catalog offers the GPU in, a desktop for consumer cards, a server otherwise: server (17.4 µs per")
	fmt.Fprintln(w, "  op, the bitsandbytes table's H100 host; optimum's A100 rows), desktop (9 µs, its RTX 4090 host), legacy server for")
	fmt.Fprintln(w, "  Xeons of the Skylake family and earlier (28 µs, its T4 host). No row names its CPU, so the replay passes none;")
	fmt.Fprintln(w, "  `--host-op-us` sets a measured figure.")
	fmt.Fprintln(w, "- **Engine versions.** The release (`--engine-version`, default the current one) sets whether a serving engine's host")
	fmt.Fprintln(w, "  work per step runs under the GPU's step (SGLang from 0.4, vLLM from 0.8, TensorRT-LLM) or adds to it. The replay")
	fmt.Fprintln(w, "  passes each row's release: SGLang 0.3.0 and vLLM 0.6.0 (the SGLang team's benchmark), vLLM 0.19 (the vLLM blog,")
	fmt.Fprintln(w, "  llm-d's KV pools), the container image's release for the InferenceX points that keep one (the others run the")
	fmt.Fprintln(w, "  current release). The host work an older release adds is the engines' one fitted floor (4 ms), not SGLang 0.3.0's")
	fmt.Fprintln(w, "  own: its 8B TPOT rows come out 9–25% slow with it. The schedulers are simulated with today's defaults and a fitted")
	fmt.Fprintln(w, "  per-request cost each; vLLM v0.6's multi-step scheduling (`--scheduler-steps`), which delays first tokens, is")
	fmt.Fprintln(w, "  modelled in the closed-form steady state (`--steady-state`).")
	fmt.Fprintln(w, "- **TensorRT-LLM by release.** Its releases have no term of their own. InferenceX changed only the image on")
	fmt.Fprintln(w, "  2026-05-18 (its PRs 1487–1489), and the same recipes decode faster on 1.3.0rc14: H200 FP8 at 4–8 in flight")
	fmt.Fprintln(w, "  ×0.84–0.90 against 1.1.0rc2, B200 FP8 at TP 8 ×0.83–0.86 and B200 FP4 ×0.95–0.99 against 1.2.0rc6. The rows that")
	fmt.Fprintln(w, "  name no image ran 1.1.0rc2 (the recipes' config at the run's date), the B200 FP8 ones with the DEEPGEMM MoE")
	fmt.Fprintln(w, "  backend until 2026-01-29 (−33% TPOT at 4 in flight, a 2.5–5.7 ms step the model misses at 4–64). The constants")
	fmt.Fprintln(w, "  sit between the releases: 1.1 FP4 rows +2%, 1.3 FP4 rows +16…+19% TPOT.")
	fmt.Fprintln(w, "- **HF transformers prefill.** Prompts run their linears at the serving engines' share of peak (the same cuBLAS")
	fmt.Fprintln(w, "  GEMMs; decode steps at half of it, as fitted on accelerate's BLOOM rows): optimum's Llama-2-13B prefills of 512")
	fmt.Fprintln(w, "  tokens on an A100 reach 44% (batch 1) to 56% (batch 16) of its FP16 peak, and its FP16 and exllama rows land")
	fmt.Fprintln(w, "  within −7…+17%. AutoGPTQ's cuda-old kernel, whose prefill dequantises as it goes, is slower than that (−72% to")
	fmt.Fprintln(w, "  −11%); neither its prefill nor its decode above batch 1 is modelled.")
	fmt.Fprintln(w, "- **Serving recipes beyond the engines' defaults.** The replay passes what an estimate takes (GPU, engine,")
	fmt.Fprintln(w, "  precision, TP/EP/DP, concurrency, lengths) and the recipes' scheduler settings that the estimate takes as flags:")
	fmt.Fprintln(w, "  TensorRT-LLM's `--max_num_tokens` (`--max-batched-tokens`) and attention-DP balance (`enable_balance` with")
	fmt.Fprintln(w, "  `timeout_iters` 60: `--attention-dp-balance 60`), and the B200 and B300 SGLang recipes' receive interval: new")
	fmt.Fprintln(w, "  requests taken off the socket every 10 decode steps, 30 from concurrency 16, and at the step after each prefill")
	fmt.Fprintln(w, "  (`--scheduler-recv-interval`; SGLang's receive skipper). Without the flags an estimate prices the")
	fmt.Fprintln(w, "  engines' defaults (no balance; a poll every pass). TensorRT-LLM with attention data parallelism at concurrency")
	fmt.Fprintln(w, "  128–256 measures about 2 s TTFT that the model does not reproduce (−90%).")
	fmt.Fprintln(w, "- **AMD Instinct links.** MI300X, MI325X and MI355X run their TP all-reduces and EP exchanges over Infinity Fabric at")
	fmt.Fprintln(w, "  the datasheets' figures for all seven links (MI300X 896 GB/s, MI355X 1,075 GB/s, both directions together), the")
	fmt.Fprintln(w, "  share of them a collective reaches not measured on AMD (the serving tables by GPU above show where that leaves them).")
	fmt.Fprintln(w, "- **TTFT tails.** Measured p99 TTFT of many InferenceX rows is 60–100 s (cold starts and JIT compilation in runs")
	fmt.Fprintln(w, "  without warm-up), and their mean TTFT with it; the simulator models neither, so compare medians.")
	fmt.Fprintln(w, "- **Wide expert parallelism's kernels.** `--ep` and `--dp` (serving) are modelled from the bytes moved and held, DeepEP's")
	fmt.Fprintln(w, "  low-latency kernels from DeepEP's published time at 128 tokens a rank (a rank's tokens past 128 at the link's figure),")
	fmt.Fprintln(w, "  and replayed against the SGLang team's published decode steps (\"wide-EP decode step\": 72 H100s, fit; 48 GB200s in")
	fmt.Fprintln(w, "  NVFP4, test, +34%: that run overlaps the combine with the experts' down GEMM and the shared experts, which the step")
	fmt.Fprintln(w, "  model does not) and the disaggregated InferenceX rows above. AMD's MoRI kernels keep the link's figure (MoRI's own")
	fmt.Fprintln(w, "  published table is for MI300X only).")
	fmt.Fprintln(w, "- **What a table leaves unsaid**: torchtune's RTX A6000 rows name the same recipes as its RTX 4090 rows yet report")
	fmt.Fprintln(w, "  about twice the peak memory and more tokens/s (probably without activation checkpointing; not stated). Even then its")
	fmt.Fprintln(w, "  LoRA row needs 156 TFLOP/s (33.2 GFLOP a token: 4N + attention, no recomputation, × 4,699 tok/s), more than the")
	fmt.Fprintln(w, "  A6000's 154.85 dense bf16 peak, and its full row 136 (88%) outside the optimizer step: no efficiency reproduces them.")
	fmt.Fprintln(w, "- **torch.compile** is not modelled: torchtune's own flags table measures +27% tokens/s from it (Llama 3.2 3B, A100);")
	fmt.Fprintln(w, "  the estimate sits between its eager row (+9%) and its compiled rows (−15..−21%).")
	fmt.Fprintln(w, "- **The RTX 4090's large L2 cache** under bitsandbytes NF4 at batch > 1: its rows run 37–60% faster than modelled.")
	fmt.Fprintln(w, "- **Reserved memory over samples of varying length.** ms-swift v2's rows print `max_memory_reserved` over a run of")
	fmt.Fprintln(w, "  unpacked samples (3234 ± 2548 tokens, truncated to max_length). Its tables place the excess over the step's peak:")
	fmt.Fprintln(w, "  not the model (Qwen-1 1.8B, 7B and 14B, one vocabulary, alike at each length), the adapters (rank 2–64, attention")
	fmt.Fprintln(w, "  or all linears: 27.72–27.87 GiB), accumulation (1–64 steps) or the attention kernel under checkpointing (27.71")
	fmt.Fprintln(w, "  against 27.74 GiB); it follows the dataset's mean truncated length, as the caching allocator's blocks cached from")
	fmt.Fprintln(w, "  earlier steps of other lengths would. It is compared with `estimator.RunReserved`: the peak plus 9 fp32 copies")
	fmt.Fprintln(w, "  of a mean step's logits (fitted on the Qwen-1.8B rows), up to the GPU, which the fit call does not count (the")
	fmt.Fprintln(w, "  allocator frees its cache before it fails). Its QLoRA rows stay 7–14% under it (2–3 GiB at 7B–14B, 11 GiB at")
	fmt.Fprintln(w, "  72B), which no mechanism here explains.")
	fmt.Fprintln(w, "- **QLoRA under Lightning's bitsandbytes plugin.** LitGPT's QLoRA rows (A10G and A100, NF4 without double quantisation,")
	fmt.Fprintln(w, "  bf16-true) are within 11% of the printed peak (adapters on q and v, lora.py's own layers: −6.8% … −2.2%; on")
	fmt.Fprintln(w, "  every linear: −5.7% … +0.6%, phi-2 +10.6%) with its 4-bit LM head, fused qkv")
	fmt.Fprintln(w, "  adapter, adapter dropout, the previous step's 4-bit linear inputs (bitsandbytes' MatMul4Bit keeps them on its")
	fmt.Fprintln(w, "  ctx, and LitGPT's loop holds that graph into the next forward: --keeps-last-graph) and the logits that loop")
	fmt.Fprintln(w, "  holds (Fabric casts every chunk to fp32 as the forward returns, beside the previous step's fp32 list: 10 bytes")
	fmt.Fprintln(w, "  a logit). The LoRA rows of the same models keep none of the frozen 16-bit linears' inputs once their adapters")
	fmt.Fprintln(w, "  drop out (q and v: −4.0% … +1.1%; every linear: −0.6% … +6.9%, phi-2 the +6.9%). Both count what LitGPT's")
	fmt.Fprintln(w, "  attention hands SDPA to save (--litgpt-attention; CausalSelfAttention.forward at 00af8b0d): K and V copied out")
	fmt.Fprintln(w, "  to every query head where the model has fewer KV heads (TinyLlama's 4 for 32: 0.65 GB of its rows' 1.06 GB")
	fmt.Fprintln(w, "  short, −10% → −4%), and with as many V as a view that keeps the fused qkv output whole. phi-2's rows read over;")
	fmt.Fprintln(w, "  part of it (2%) is its LayerNorm's saved input, counted in fp32 where bf16-true saves it in bf16.")
	fmt.Fprintln(w, "  Three of its full fine-tuning rows print less than one GPU's weights, gradients")
	fmt.Fprintln(w, "  and AdamW states and are left out of the summary.")
	fmt.Fprintln(w, "- **The LitGPT rows with generic flags** (\"fine-tune memory, generic flags\": what the table and the row's config")
	fmt.Fprintln(w, "  print — model, task, GPU and the config's devices, micro-batch, max_seq_length 512, global batch, bf16-true as")
	fmt.Fprintln(w, "  --pure-bf16, NF4 for QLoRA, LoRA rank, dropout and layers, FSDP with Block checkpointing on more than one GPU —")
	fmt.Fprintln(w, "  without LitGPT's chunked loss, held graph, fused qkv adapter, untied and 4-bit head) call every run right. Its")
	fmt.Fprintln(w, "  QLoRA rows take the 4-bit head and the held graph from the estimate's default for pure-bf16 QLoRA on")
	fmt.Fprintln(w, "  bitsandbytes NF4, which is Lightning's BitsandbytesPrecision (`estimator.LightningQLoRADefault`): −8% … +5%,")
	fmt.Fprintln(w, "  phi-2 +13% (+6% with LitGPT's fused qkv adapter, whose one dropout copy PEFT's q, k and v take three of); LoRA")
	fmt.Fprintln(w, "  on every linear at micro-batch 4–8 (phi-2, TinyLlama, phi-3) +2 to +9%, PEFT's separate q, k and v adapters")
	fmt.Fprintln(w, "  each saving a dropped copy of the input where LitGPT's fused qkv adapter saves one; Gemma 2B's FSDP full")
	fmt.Fprintln(w, "  fine-tune 33% under (3% with LitGPT's untied head and held logits: FSDP1's root unit assembles the head's and")
	fmt.Fprintln(w, "  the embedding's gradient at the backward's end, the peak_allocated_bytes every allocated row is compared on).")
	fmt.Fprintln(w, "  The hand-written table LitGPT printed before (2024-03..04) adds Llama 2 7B and Llama 3 8B full fine-tunes on")
	fmt.Fprintln(w, "  4 A100s (−1.9%, −4.0%), Gemma 7B LoRA and QLoRA on one A100 and TinyLlama with adapters on q and v (−7% … −5%).")
	fmt.Fprintln(w, "  A replay that gives neither the global batch nor the adapters' layers plans what those flags default to: one")
	fmt.Fprintln(w, "  micro-batch per step, so FSDP shards the gradients (the 4-A100 rows −41%, −42%; the 4-A10G runs that ran out")
	fmt.Fprintln(w, "  of memory called fitting), and adapters on attention only (Gemma 7B LoRA −13%, called fitting on an A10G).")
	fmt.Fprintln(w, "- **Lit-GPT's A100 40GB rows** (\"fine-tune memory, A100 40GB\", generic flags, every fit call right): LoRA")
	fmt.Fprintln(w, "  under FSDP counts the gradient FSDP1 keeps for the frozen Block weights that share a flat parameter with the")
	fmt.Fprintln(w, "  adapters (Lightning's use_orig_params and Block wrap); without it Llama 2 7B on 2 GPUs read −60%. The")
	fmt.Fprintln(w, "  adapters are lora.py's, on q and v (`--lora-targets query-value`): the trainable parameters are the ones each")
	fmt.Fprintln(w, "  row printed, and the single-GPU 16-bit rows read −6% … +5% (+1% … +16% on q, k, v and o). Left: under FSDP the")
	fmt.Fprintln(w, "  estimate grows faster with micro-batch than printed (phi-1.5 on 2 GPUs +2% → +20%), as the replay computes the")
	fmt.Fprintln(w, "  loss over the whole sequence where lora.py chunks its LM head by 128 tokens; and the bnb.nf4 rows read +4…+22%")
	fmt.Fprintln(w, "  where bnb.nf4-dq reads −10…+2%: the estimate holds the previous step's 4-bit graph at the longest length,")
	fmt.Fprintln(w, "  while only Lit-GPT's first step is that long.")
	fmt.Fprintln(w, "- **LitGPT's rows named by their precision** (\"fine-tune memory, Lightning precision\": every bf16-true row of both")
	fmt.Fprintln(w, "  LitGPT tables with `--precision bf16-true` and only the model, task, GPU, GPU count, micro-batch, sequence, the")
	fmt.Fprintln(w, "  global batch of the config the row names and, where the row ran it, `--zero 3 --grad-checkpointing`): the Lightning")
	fmt.Fprintln(w, "  name plans LitGPT's scripts with their defaults (FSDP with Block checkpointing, the 128-token chunked loss, the")
	fmt.Fprintln(w, "  untied head, the held graph, the fused qkv adapter, bf16 adapters, QLoRA's 4-bit head, its attention's saved K and")
	fmt.Fprintln(w, "  V). Every fit call is right: the Llama 2 7B and Llama 3 8B full fine-tunes on 4 A10Gs at micro-batch 4, whose")
	fmt.Fprintln(w, "  configs set a global batch of 64 where the scripts default to 16, accumulate under no_sync and are called out of")
	fmt.Fprintln(w, "  memory. The name takes lora.py's adapters too, rank 8 on q and v (`--lora-targets query-value`): the rows whose")
	fmt.Fprintln(w, "  configs put adapters on every linear and the head read 8–25% under (Gemma, phi-2, phi-3, TinyLlama's automated")
	fmt.Fprintln(w, "  rows), as the replay gives no layers; the rows on q and v alone (lora.py's layers; rank 8 where the configs set")
	fmt.Fprintln(w, "  their own) read −7.5% … +0.5%. Lit-GPT's single-GPU Llama 2 7B LoRA is −3.2% and −4.6% at micro-batch 1 and 2 and")
	fmt.Fprintln(w, "  called out of memory at 4, as it ran (V's view keeps Llama 2's fused qkv output: 2 × 4096 × 2 B a token a layer);")
	fmt.Fprintln(w, "  still 0.7 GB a micro-batch slower than printed, which no source read yet explains.")
	if len(skipped) > 0 {
		fmt.Fprintf(w, "\n## Not replayed\n\n`rightsize estimate` gives no speed for these rows: the catalog lacks their GPU's tensor FLOP/s, or the job does not fit (each row says which):\n\n")
		for _, s := range skipped {
			fmt.Fprintln(w, "- "+s)
		}
	}
}

// writeFitCalls prints, per split, how many of group g's runs the estimate
// calls right: a run that fitted must fit (total within the usable
// memory), one that ran out of memory must not.
func writeFitCalls(w io.Writer, cases []valCase, g string) {
	type tally struct{ fit, fitRight, oom, oomRight int }
	var t [3]tally
	any := false
	for _, c := range cases {
		if c.Group != g || !c.Call || c.Inconsistent {
			continue
		}
		any = true
		i := slices.Index(valSplits, c.Split)
		if c.OOM {
			t[i].oom++
			if !c.EstFits {
				t[i].oomRight++
			}
		} else {
			t[i].fit++
			if c.EstFits {
				t[i].fitRight++
			}
		}
	}
	if !any {
		return
	}
	fmt.Fprintln(w, "\nFit calls (rows that give one: a run that fitted must fit the GPU's usable memory, one that ran out of memory must not):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| split | fitted runs called fitting | out-of-memory runs called out of memory |")
	fmt.Fprintln(w, "|---|---:|---:|")
	for i, s := range valSplits {
		if t[i].fit+t[i].oom > 0 {
			fmt.Fprintf(w, "| %s | %d/%d | %d/%d |\n", splitNames[s], t[i].fitRight, t[i].fit, t[i].oomRight, t[i].oom)
		}
	}
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }

// --- the cases -------------------------------------------------------

// readJSON decodes the calibration file dir/file into v.
func readJSON(dir, file string, v any) error {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

func readRecords(dir, file string) (map[string]any, []map[string]any, error) {
	var f map[string]any
	if err := readJSON(dir, file, &f); err != nil {
		return nil, nil, err
	}
	raw, _ := f["records"].([]any)
	recs := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		if m, ok := r.(map[string]any); ok {
			recs = append(recs, m)
		}
	}
	return f, recs, nil
}

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil {
			return f
		}
	}
	return math.NaN()
}

func str(v any) string { s, _ := v.(string); return s }

func itoa(i int) string { return strconv.Itoa(i) }

// validationCases builds every case from the files in dir.
func validationCases(dir string) ([]valCase, error) {
	var all []valCase
	for _, f := range []func(string) ([]valCase, error){memoryCases, bnbCases, optimumGPTQCases, gptFastCases, llamaCppCases, vllmBlogCases, sglangCases, trtllmCases,
		inferencexCases, inferencexMTPCases, inferencexTableCases, inferencexBlogCases, gpustackCases, foundryCases, llama2Cases, llama3Cases, megatronCases, megatronBridgeCases, nemoCases, torchtuneCases, torchtuneFlagsCases, torchtuneFSDPCases, swiftCases, litgptCases, litgptGenericCases, litgptA100Cases, litgptLightningCases, deviceMemoryCases, deviceDecodeCases, devicePrefillCases, deviceH200MemoryCases, deviceFSDPMemoryCases, disaggCases, wideEPCases} {
		c, err := f(dir)
		if err != nil {
			return nil, err
		}
		all = append(all, c...)
	}
	return all, nil
}

// gptFastCases: the PyTorch team's gpt-fast Llama-2-7B decode on an
// A100-80GB at batch 1 (eager, then compiled with CUDA graphs, int8 and
// int4 weight-only), replayed as HF eager and HF --compile.
func gptFastCases(dir string) ([]valCase, error) {
	const file = "pytorch_gpt_fast_blog.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		args := []string{"--model", "llama-2-7b", "--gpu", "a100-80gb-sxm", "--engine", "hf", "--batch", "1",
			"--seq", "400", "--prompt-tokens", "200", "--output-tokens", "200", "--precision", str(r["precision"])}
		if str(r["precision"]) == "int4" {
			args = append(args, "--quant", "int4-g128")
		}
		if r["compiled"] == true {
			args = append(args, "--compile")
		}
		tps := num(r["tokens_per_s"])
		out = append(out, valCase{Group: "decode", Split: str(r["split"]), Source: file, Engine: "gpt-fast (PyTorch, 2023-11)",
			Setting: "Llama-2-7B A100-80GB (330 W) " + str(r["setting"]) + ", batch 1", Args: args,
			Field: "performance.decode_token_latency_seconds", Scale: 1000, Measured: 1000 / tps, Unit: "ms/token"})
	}
	return out, nil
}

// bnbCases: HF transformers 4.46.3 decode steps (bitsandbytes benchmark
// table). BF16/FP16, NF4 with double quantisation (Rightsize's nf4) and
// LLM.int8() with outlier decomposition (transformers' default int8);
// NF4 without double quantisation and int8 without decomposition have no
// Rightsize setting and are left out.
func bnbCases(dir string) ([]valCase, error) {
	const file = "bnb_optimum_benchmark.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"qwen2.5-3b-instruct": "qwen2.5-3b", "llama-3.1-8b": "llama-3.1-8b", "qwen2.5-14b-instruct": "qwen2.5-14b",
		"qwen2.5-32b-instruct": "qwen2.5-32b", "llama-3.1-70b": "llama-3.1-70b"}
	gpus := map[string]string{"T4": "t4", "RTX 4090": "rtx-4090", "H100 SXM": "h100-sxm"}
	var out []valCase
	for _, r := range recs {
		var prec []string
		switch str(r["format"]) {
		case "BF16":
			prec = []string{"--precision", "bf16"}
		case "FP16":
			prec = []string{"--precision", "fp16"}
		case "NF4+DQ":
			prec = []string{"--precision", "int4", "--quant", "nf4"}
		case "INT8+Decomp":
			prec = []string{"--precision", "int8"}
		default:
			continue
		}
		b := int(num(r["batch_size"]))
		args := append([]string{"--model", models[str(r["model"])], "--gpu", gpus[str(r["gpu"])], "--engine", "hf",
			"--batch", itoa(b), "--seq", "320", "--prompt-tokens", "256", "--output-tokens", "64"}, prec...)
		out = append(out, valCase{Group: "decode", Split: str(r["split"]), Source: file, Engine: "HF transformers 4.46.3 (bitsandbytes 0.45.0.dev)",
			Setting: fmt.Sprintf("%s %s %s batch %d, decode step", r["model"], r["gpu"], r["format"], b), Args: args,
			Field: "performance.decode_token_latency_seconds", Scale: 1000, Measured: 1000 * num(r["decode_latency_s"]), Unit: "ms"})
	}
	return out, nil
}

// optimumGPTQCases: optimum's GPTQ benchmark of HF transformers on one
// A100-SXM4-80GB (2023-08; auto-gptq 0.4 era): Llama-2-13B-chat (the
// catalog's llama-2-13b, the same shapes) in FP16 and TheBloke's GPTQ
// 4-bit group-128 checkpoint, each GPTQ row on the kernel it ran:
// --kernel exllama (transformers' GPTQ default) or --kernel autogptq
// (AutoGPTQ's cuda-old). Prompt 512, 512 new tokens; the table's
// per-token latency includes the prefill, so the decode step is (512 ×
// per-token latency − prefill latency) / 511 (the file's caveat); the
// prefill latency is the time to the first token. The host is not
// printed: the catalog's A100 host. Decode splits as the file states them
// (batch 1 fit, the rest test); the prefill rows are all test rows.
func optimumGPTQCases(dir string) ([]valCase, error) {
	const file = "optimum_gptq_a100.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	kernels := map[string]string{"exllama": "exllama", "autogptq-cuda-old": "autogptq"}
	var out []valCase
	for _, r := range recs {
		b := int(num(r["batch_size"]))
		prompt, gen := int(num(r["prompt_tokens"])), int(num(r["new_tokens"]))
		args := []string{"--model", "llama-2-13b", "--gpu", "a100-80gb-sxm", "--engine", "hf", "--batch", itoa(b), "--seq", itoa(prompt + gen),
			"--prompt-tokens", itoa(prompt), "--output-tokens", itoa(gen)}
		kernel := str(r["kernel"])
		switch f := str(r["format"]); {
		case f == "FP16" && kernel == "":
			args = append(args, "--precision", "fp16")
		case f == "GPTQ-int4-g128" && kernels[kernel] != "":
			args = append(args, "--precision", "int4", "--quant", "int4-g128", "--kernel", kernels[kernel])
		default:
			return nil, fmt.Errorf("%s %s: format %q kernel %q has no Rightsize setting", file, str(r["id"]), f, kernel)
		}
		step := (float64(gen)*num(r["per_token_latency_ms"]) - num(r["prefill_latency_ms"])) / float64(gen-1)
		set := strings.TrimSpace(fmt.Sprintf("Llama-2-13B A100-80GB %s %s", r["format"], kernel)) + fmt.Sprintf(" batch %d, ", b)
		const eng = "HF transformers + auto-gptq (optimum, 2023-08)"
		out = append(out,
			valCase{Group: "decode", Split: str(r["split"]), Source: file, Engine: eng, Setting: set + "decode step", Args: args,
				Field: "performance.decode_step_seconds", Scale: 1000, Measured: step, Unit: "ms"},
			// The prefill-only table (prompt 512, one new token): its
			// latencies fixed no constant (the split note's fit rows
			// placed the host for decoding), so every row is a test row.
			valCase{Group: "prefill/TTFT", Split: "test", Source: file, Engine: eng, Setting: set + "prefill (prompt 512)", Args: args,
				Field: "performance.time_to_first_token_seconds", Scale: 1000, Measured: num(r["prefill_latency_ms"]), Unit: "ms"})
	}
	return out, nil
}

// llamaCppCases: llama-bench tg (batch-1 decode) and pp (prompt) rows on
// catalog GPUs. Fit: builds from 2025 on (RTX 6000 Ada); test: the
// early-2024 builds; held back: the RTX PRO 6000 Blackwell rows.
func llamaCppCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/llama_cpp_llama_bench.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	type setup struct{ model, quant, prec string }
	models := map[string]setup{
		"llama 7B F16": {"llama-2-7b", "auto", "fp16"}, "llama 7B Q8_0": {"llama-2-7b", "q8_0", "int8"},
		"llama 8B Q4_0": {"llama-3.1-8b", "q4_0", "int4"}, "llama 3B Q4_K_M": {"llama-3.2-3b", "q4_k_m", "int4"},
		"qwen2 7B Q4_K - Medium": {"qwen2.5-7b", "q4_k_m", "int4"},
	}
	gpus := map[string]string{"NVIDIA GeForce RTX 4090": "rtx-4090", "NVIDIA RTX 6000 Ada Generation": "rtx-6000-ada",
		"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition": "rtx-pro-6000-ws-maxq"}
	var out []valCase
	for _, r := range recs {
		s, ok := models[str(r["model_type_as_printed"])]
		g, gok := gpus[str(r["gpu"])]
		if !ok || !gok || num(r["num_gpus"]) != 1 {
			continue
		}
		id := str(r["id"])
		split := "test"
		switch {
		case strings.Contains(id, "blackwell"):
			split = "heldback"
		case strings.Contains(id, "pr19053"):
			split = "fit"
		}
		test := strings.ReplaceAll(str(r["test"]), " ", "")
		n, _ := strconv.Atoi(strings.TrimLeft(test, "pgt"))
		if n == 0 {
			continue
		}
		args := []string{"--model", s.model, "--gpu", g, "--engine", "llamacpp", "--precision", s.prec, "--quant", s.quant, "--batch", "1"}
		tps := num(r["tokens_per_s"])
		c := valCase{Split: split, Source: file, Engine: "llama.cpp " + orDash(str(r["build"])), Measured: tps, Unit: "tok/s"}
		if strings.HasPrefix(test, "tg") {
			c.Group, c.Setting = "decode", fmt.Sprintf("%s %s tg%d (batch 1)", r["model_type_as_printed"], g, n)
			c.Args = append(args, "--seq", itoa(n+1), "--prompt-tokens", "1", "--output-tokens", itoa(n))
			// tokens/s of one stream = 1 / time per token
			c.Field, c.Scale, c.Measured, c.Unit = "performance.decode_token_latency_seconds", 1000, 1000/tps, "ms/token"
		} else {
			c.Group, c.Setting = "prefill/TTFT", fmt.Sprintf("%s %s pp%d", r["model_type_as_printed"], g, n)
			c.Args = append(args, "--seq", itoa(n), "--prompt-tokens", itoa(n), "--output-tokens", "0")
			c.Field, c.Scale = "performance.tokens_per_second", 1
		}
		out = append(out, c)
	}
	return out, nil
}

func orDash(s string) string {
	if s == "" {
		return "(build not stated)"
	}
	return s
}

// vllmBlogCases: vLLM v0.19.1 on one H100, Llama-3.1-8B: the concurrency-1
// inter-token latency line at a 1000-token prompt (decode), and the
// concurrency-8 load test (~20k in, ~2k out): TTFT, ITL, output tok/s.
// gpt-oss-20b is not in the catalog (its intercept fixed servingStepFloor).
func vllmBlogCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/vllm_blog_fp8_kvcache.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		id := str(r["id"])
		if !strings.Contains(id, "llama3.1-8b") {
			continue
		}
		kv := "bf16"
		if str(r["kv_cache_dtype"]) == "FP8" {
			kv = "fp8"
		}
		// The post's improvements are in v0.19.1 (its summary table; the
		// file's caveat).
		base := []string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--engine-version", "0.19.1", "--kv-dtype", kv,
			"--gpu-mem-util", "0.9"}
		eng := "vLLM v0.19.1"
		switch {
		case strings.Contains(id, "itl-fit"):
			itl := num(r["itl_intercept_ms"]) + 1000*num(r["itl_slope_ms_per_input_token"])
			out = append(out, valCase{Group: "decode", Split: "test", Source: file, Engine: eng,
				Setting: "Llama-3.1-8B H100 " + kv + " KV, concurrency 1, prompt 1000, ITL",
				Args:    append(base, "--batch", "1", "--seq", "1128", "--prompt-tokens", "1000", "--output-tokens", "128"),
				Field:   "performance.decode_token_latency_seconds", Scale: 1000, Measured: itl, Unit: "ms"})
		case strings.Contains(id, "load"):
			args := append(base, "--batch", "8", "--seq", "22000", "--prompt-tokens", "20000", "--output-tokens", "2000")
			set := "Llama-3.1-8B H100 " + kv + " KV, concurrency 8, 20k/2k, "
			out = append(out,
				valCase{Group: "prefill/TTFT", Split: "test", Source: file, Engine: eng, Setting: set + "median TTFT", Args: args,
					Field: "performance.time_to_first_token_seconds", Scale: 1000, Measured: num(r["median_ttft_ms"]), Unit: "ms"},
				valCase{Group: "serving TPOT", Split: "test", Source: file, Engine: eng, Setting: set + "median ITL", Args: args,
					Field: "performance.decode_token_latency_seconds", Scale: 1000, Measured: num(r["median_itl_ms"]), Unit: "ms"},
				valCase{Group: "serving throughput", Split: "test", Source: file, Engine: eng, Setting: set + "output tok/s", Args: args,
					Field: "performance.tokens_per_second", Scale: 1, Measured: num(r["output_tokens_per_s"]), Unit: "tok/s"})
		}
	}
	return out, nil
}

// sglangCases: SGLang v0.3.0 and vLLM v0.6.0 online serving of ShareGPT at
// 4 and 8 requests/s, each replayed at its release (--engine-version). The concurrency is Little's law (rate × median
// end-to-end latency); the output length is (E2E − TTFT) / TPOT + 1; the
// prompt length is not published: 256 tokens assumed (ShareGPT prompts
// are short), so TTFT rows carry that assumption. vLLM ran with
// --num-scheduler-steps 10, replayed as --scheduler-steps 10. The 8B rows
// (A100) are test rows, the 70B TP 4 rows (H100) held back.
func sglangCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/sglang_benchmark_docs.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		if str(r["kind"]) != "online" {
			continue
		}
		e2e, ttft, tpot := num(r["median_e2e_latency_ms"]), num(r["median_ttft_ms"]), num(r["median_tpot_ms"])
		conc := max(1, int(math.Round(num(r["request_rate_per_s"])*e2e/1000)))
		outTok := max(1, int(math.Round((e2e-ttft)/tpot+1)))
		model, gpu, split := "llama-3.1-8b", "a100-80gb-sxm", "test"
		tp := int(num(r["tensor_parallel"]))
		if tp == 4 {
			model, gpu, split = "llama-3.1-70b", "h100-sxm", "heldback"
		}
		// Each row at the release it measured (the README's title and
		// setup: pip sglang[all]==0.3.0, vLLM v0.6.0), which runs its
		// scheduler between the GPU's steps (--engine-version).
		eng, rel := "sglang", "0.3.0"
		args := []string{"--model", model, "--gpu", gpu, "--engine", eng, "--tp", itoa(tp), "--gpus", itoa(tp), "--batch", itoa(conc),
			"--seq", itoa(256 + outTok), "--prompt-tokens", "256", "--output-tokens", itoa(outTok)}
		ver := "SGLang v" + rel
		if str(r["engine"]) == "vLLM" { // run with --num-scheduler-steps 10 (the README's setup)
			eng, rel = "vllm", "0.6.0"
			ver = "vLLM v" + rel
			args[5] = eng
			args = append(args, "--scheduler-steps", "10")
		}
		args = append(args, "--engine-version", rel)
		set := fmt.Sprintf("%s %s TP %d, %g req/s ≈ %d in flight, out %d, ", model, ver, tp, num(r["request_rate_per_s"]), conc, outTok)
		out = append(out,
			valCase{Group: "serving TPOT", Split: split, Source: file, Engine: ver, Setting: set + "median TPOT", Args: args,
				Field: "performance.decode_token_latency_seconds", Scale: 1000, Measured: tpot, Unit: "ms"},
			// The rows are medians of an open-loop run (requests sent at
			// the rate, no closed loop's cold first wave): the simulated
			// run's median, without one.
			valCase{Group: "prefill/TTFT", Split: split, Source: file, Engine: ver, Setting: set + "median TTFT (prompt 256 assumed)",
				Args:  append(slices.Clone(args), "--first-wave-seconds", "0"),
				Field: "performance.serving.time_to_first_token_p50_seconds", Scale: 1000, Measured: ttft, Unit: "ms"})
	}
	return out, nil
}

// trtllmCases: TensorRT-LLM max-throughput rows on H100 SXM, FP8 weights
// and KV: the engine picks the batch, taken as the KV pool's sequences at
// 0.95 utilisation (capped at 2048, its default max_batch_size). The
// serving constants were fitted to these rows.
func trtllmCases(dir string) ([]valCase, error) {
	const file = "inference_throughput.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"Llama-3.1-8B-Instruct": "llama-3.1-8b", "Llama-3.3-70B-Instruct": "llama-3.3-70b", "Llama-3.1-405B-Instruct": "llama-3.1-405b"}
	var out []valCase
	for _, r := range recs {
		if !strings.HasPrefix(str(r["id"]), "trtllm-") {
			continue
		}
		isl, osl, tp := int(num(r["input_len"])), int(num(r["output_len"])), int(num(r["tensor_parallel"]))
		base := []string{"--model", models[str(r["model"])], "--gpu", "h100-sxm", "--engine", "trtllm", "--precision", "fp8", "--kv-dtype", "fp8",
			"--gpu-mem-util", "0.95", "--tp", itoa(tp), "--gpus", itoa(tp), "--seq", itoa(isl + osl)}
		seqs, err := estimateField(append(slices.Clone(base), "--json"), "max_concurrent_seqs")
		if err != nil {
			return nil, err
		}
		b := int(min(max(seqs, 1), 2048))
		out = append(out, valCase{Group: "serving throughput", Split: "fit", Source: file, Engine: "TensorRT-LLM (PyTorch backend)",
			Setting: fmt.Sprintf("%s H100 TP %d fp8 %d/%d, batch %d", r["model"], tp, isl, osl, b),
			Args:    append(base, "--batch", itoa(b), "--prompt-tokens", itoa(isl), "--output-tokens", itoa(osl)),
			Field:   "performance.tokens_per_second", Scale: 1, Measured: num(r["total_output_tokens_per_s"]), Unit: "tok/s"})
	}
	return out, nil
}

// foundryCases: llm-foundry MPT training MFU, BF16 and FP8 (Transformer
// Engine; its MFU is over the FP8 peak, as Rightsize's is). FSDP FULL_SHARD = ZeRO-3, SHARD_GRAD_OP =
// ZeRO-2; the A100 rows ran over 1600 Gb/s RoCE per node, the H100 rows'
// fabric is not stated (3200 Gb/s assumed, as on DGX H100). The loss is
// llm-foundry's default, flash-attn's fused cross-entropy
// (--flash-cross-entropy); the MPT shapes under mpt/ train without
// dropout, as MPTConfig's defaults. Fit: the 8-GPU rows (one node); test:
// 16–512 GPUs.
func foundryCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/llm_foundry_benchmarks.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	gpus := map[string]string{"a100_40gb": "a100-40gb-sxm", "a100_80gb": "a100-80gb-sxm", "h100_80gb": "h100-sxm"}
	var out []valCase
	for _, r := range recs {
		g := str(r["gpu"])
		prec := "bf16"
		if strings.Contains(str(r["precision"]), "fp8") {
			prec = "fp8"
		}
		n := int(num(r["num_gpus"]))
		zero := "3"
		if strings.HasPrefix(str(r["fsdp_sharding_strategy"]), "SHARD_GRAD_OP") {
			zero = "2"
		}
		net := "1600"
		if g == "h100_80gb" {
			net = "3200"
		}
		args := []string{"--config", filepath.Join(dir, "mpt", "mpt-"+str(r["model"])+".json"), "--task", "train", "--gpu", gpus[g],
			"--gpus", itoa(n), "--zero", zero, "--batch", itoa(int(num(r["micro_batch_size"]))), "--seq", itoa(int(num(r["seq_len_tokens"]))),
			"--global-batch", itoa(int(num(r["global_batch_size_samples"]))), "--network-gbps", net, "--precision", prec, "--flash-cross-entropy"}
		if r["activation_checkpointing"] == true {
			args = append(args, "--grad-checkpointing")
		}
		split := "fit"
		if n > 8 || prec == "fp8" {
			split = "test"
		}
		out = append(out, valCase{Group: "MFU", Split: split, Source: file, Engine: "MosaicML Composer/llm-foundry (FSDP)",
			Setting: fmt.Sprintf("MPT-%s %s %s ×%d seq %d mb %d", r["model"], g, prec, n, int(num(r["seq_len_tokens"])), int(num(r["micro_batch_size"]))),
			Args:    args, Field: "performance.mfu", Scale: 100, Measured: num(r["mfu_percent"]), Unit: "% MFU"})
	}
	return out, nil
}

// llama2Cases: Llama 2 pre-training GPU-hours (model card: 2.0T tokens,
// 4096 context, A100-80GB). The card gives no GPU count or batch: 2048
// GPUs with a 4M-token global batch (1024 sequences, the paper's §2.2),
// TP 8 for 70B and TP 2 for 7B and 13B are assumed. 1024 sequences feed at
// most 1024 data-parallel replicas a whole sequence each: at TP 1 the 2048
// GPUs would be a layout Megatron-LM, torchtitan and llm-foundry refuse
// (estimator.TrainBatch); LLaMA's own runs used model parallelism
// (Touvron et al. 2023a, §2.4: "model and sequence parallelism"). The fabric (Meta RSC, 200 Gb/s InfiniBand per
// GPU) is the default network. What the figure includes: the card's "total
// GPU time required for training each model", so restarts, evaluation and
// stragglers are in it (each record's figure_includes): the replay reads
// the whole run's GPU-hours, the steps' over their goodput
// (performance.gpu_hours_with_overhead, estimator.TrainGoodput).
func llama2Cases(dir string) ([]valCase, error) {
	const file = "training_compute.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string][]string{"llama2-7b": {"llama-2-7b", "2"}, "llama2-13b": {"llama-2-13b", "2"}, "llama2-70b": {"llama-2-70b", "8"}}
	var out []valCase
	for _, r := range recs {
		m, ok := models[str(r["id"])]
		if !ok {
			continue
		}
		args := []string{"--model", m[0], "--task", "train", "--gpu", "a100-80gb-sxm", "--gpus", "2048", "--tp", m[1], "--zero", "1",
			"--seq", "4096", "--batch", "1", "--global-batch", "1024", "--train-tokens", "2T"}
		out = append(out, valCase{Group: "training time", Split: "test", Source: file, Engine: "Meta (model card)",
			Setting: str(r["model"]) + " pre-training, 2.0T tokens, A100-80GB (2048 GPUs assumed)", Args: args,
			Field: "performance.gpu_hours_with_overhead", Scale: 1, Measured: num(r["training_gpu_hours"]), Unit: "GPU-h"})
	}
	return out, nil
}

// llama3Cases: Llama 3.1 405B's GPU-hours (model card: 30.84M H100-80GB
// hours) replayed at the layout the paper gives for its 16K-GPU stage
// (Table 4: TP 8 × CP 1 × PP 16 on 16,384 GPUs, 16 sequences of 8,192 per
// data-parallel rank, i.e. 2,048 a step; §3.3.2: no activation
// checkpointing, the interleaved schedule with one Transformer layer fewer
// on the first and last stages, so that the first chunk of the first stage
// holds only the embedding and the last chunk of the last stage only the
// output projection and loss: chunks of one layer, 126 + 2 = 16 stages × 8
// chunks, as in estimator/testdata/calibration/training_scale.json)
// over the 15.6T tokens. The figure includes more than this layout's steady
// state (the record's figure_includes: the early 4M/8M-token batches, the
// long-context stage at CP 16, annealing and the interruptions): the
// replay reads the whole run's GPU-hours at the goodput Llama 3 reported
// for this run (performance.gpu_hours_with_overhead, 90% on 16,384 GPUs:
// estimator.TrainGoodput); the other stages are not replayed. ZeRO 2: the run's FSDP sharded
// the model, the optimizer states and the gradients (§3.3.2); ZeRO 2
// counts the last two sharded and the parameters whole, no less than the
// run held. At ZeRO 1 the interleaved warm-up (all 16 micro-batches on the
// early stages) needs 0.2 GiB more than an H100 has. A test row.
func llama3Cases(dir string) ([]valCase, error) {
	const file = "training_compute.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		if str(r["id"]) != "llama3.1-405b" {
			continue
		}
		mc, _ := r["model_config"].(map[string]any)
		if mc == nil {
			continue
		}
		args := []string{"--model", "llama-3.1-405b", "--task", "train", "--gpu", "h100-sxm", "--gpus", itoa(int(num(r["num_gpus"]))),
			"--tp", itoa(int(num(mc["tensor_parallel"]))), "--pp", itoa(int(num(mc["pipeline_parallel"]))), "--cp", itoa(int(num(mc["context_parallel"]))),
			"--zero", "2", "--seq", itoa(int(num(mc["seq_len"]))), "--batch", itoa(int(num(mc["micro_batch"]))),
			"--global-batch", itoa(int(num(mc["global_batch"]))), "--virtual-stages", "8", "--train-tokens", "15.6T"}
		out = append(out, valCase{Group: "training time", Split: "test", Source: file, Engine: "Meta (model card; Llama 3 paper layout)",
			Setting: "Llama 3.1 405B pre-training, 15.6T tokens, 16,384 H100, TP 8 PP 16, 8K, no recompute", Args: args,
			Field: "performance.gpu_hours_with_overhead", Scale: 1, Measured: num(r["training_gpu_hours"]), Unit: "GPU-h"})
	}
	return out, nil
}

// megatronBridgeCases: the NeMo Framework performance summary
// (Megatron-Bridge docs, containers 25.09–26.06) for the dense Llama
// pre-training rows on DGX-H100 (8 GPUs a node, 8 × 400 Gb/s InfiniBand):
// Llama 3 8B on 8 GPUs, 70B on 64 (TP 4 PP 8 VP 5), 3.1 405B on 1,024 (TP 8
// PP 8 CP 2 VP 8), tokens/s per GPU with the printed GBS, MBS, TP, PP, CP,
// VP, FP8 (Transformer Engine; current or delayed scaling as fp8) and
// Megatron's distributed optimizer (ZeRO 1), or Megatron FSDP (ZeRO 3)
// where the FSDP column is set. The newest container of each
// configuration is replayed. The published layouts ran, so each must fit;
// the 405B row exercises pipeline stage balance with context parallelism
// at the largest GPU count of the table. Attention runs cuDNN's fused
// kernel, which Transformer Engine selects on Hopper (estimator.AttnCuDNN).
// With TP the recipes run sequence parallelism and overlap its collectives
// with the GEMMs (--tp-comm-overlap). Not passed: the 8B preset's full
// recomputation of 5 layers (recompute_num_layers=5, recompute_method
// block), which no flag expresses (--grad-checkpointing recomputes every
// layer). Test rows: no constant was fitted on them.
func megatronBridgeCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/megatron_bridge_performance_summary.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"LLAMA3_8B": "llama-3-8b", "LLAMA3_70B": "llama-3-70b", "LLAMA3.1_405B": "llama-3.1-405b"}
	type key struct {
		model                 string
		gpus, gbs, tp, pp, cp int
		prec                  string
	}
	newest := map[key]map[string]any{}
	var order []key
	for _, r := range recs {
		m, ok := models[str(r["model"])]
		prec := strings.ToUpper(str(r["precision"]))
		if !ok || str(r["task"]) != "Pre-Training" || str(r["system"]) != "DGX-H100" || !strings.HasPrefix(prec, "FP8") && prec != "" {
			continue
		}
		k := key{m, int(num(r["num_gpus"])), int(num(r["global_batch_size"])), max(1, int(num(r["tp"]))), max(1, int(num(r["pp"]))), max(1, int(num(r["cp"]))), "fp8"}
		if old, seen := newest[k]; !seen || str(r["container"]) > str(old["container"]) {
			if !seen {
				order = append(order, k)
			}
			newest[k] = r
		}
	}
	var out []valCase
	for _, k := range order {
		r := newest[k]
		zero := "1"
		if num(r["fsdp"]) > 0 {
			zero = "3" // the table's FSDP column: Megatron FSDP over that many ranks
		}
		args := []string{"--model", k.model, "--task", "train", "--precision", k.prec, "--gpu", "h100-sxm", "--gpus", itoa(k.gpus),
			"--tp", itoa(k.tp), "--pp", itoa(k.pp), "--cp", itoa(k.cp), "--zero", zero,
			"--batch", itoa(int(num(r["micro_batch_size"]))), "--seq", itoa(int(num(r["seq_len_tokens"]))),
			"--global-batch", itoa(k.gbs), "--network-gbps", "3200", "--train-tokens", "1B", "--attention-kernel", "cudnn"}
		if vp := int(num(r["vp"])); vp > 1 {
			args = append(args, "--virtual-stages", itoa(vp))
		}
		if k.tp > 1 {
			// The recipes set sequence_parallel = TP > 1 and the 70B and
			// 405B H100 ones CommOverlapConfig(tp_comm_overlap=True) with
			// userbuffers_fp8_h100_* (scripts/performance/configs and
			// src/megatron/bridge/recipes/llama/llama3.py at v0.2.0, v0.4.2
			// and v0.5.0, the 25.11, 26.04 and 26.06 containers'
			// Megatron-Bridge); the 8B at TP 1 has nothing to overlap.
			args = append(args, "--sequence-parallel", "--tp-comm-overlap")
		}
		out = append(out, valCase{Group: "training time", Split: "test", Source: file, Engine: "NeMo " + str(r["container"]) + " (Megatron-Bridge, FP8)",
			Setting: fmt.Sprintf("%s pre-training, %d×H100, TP %d PP %d CP %d, GBS %d, tokens/s/GPU", r["model"], k.gpus, k.tp, k.pp, k.cp, k.gbs),
			Args:    args, Field: "performance.tokens_per_second", Scale: 1 / float64(k.gpus), Measured: num(r["tokens_per_sec_per_gpu"]), Unit: "tok/s/GPU"})
	}
	return out, nil
}

// torchtuneCases: torchtune's README fine-tuning table (Llama 3.1 8B on
// one RTX 4090 / RTX A6000, batch 2 packed to 2048, torch.compile), run as
// its single-device recipes at the table's commit set them: pure bf16
// (dtype bf16), activation checkpointing, the chunked cross-entropy (8
// chunks); full fine-tuning with paged 8-bit AdamW stepped in the backward
// pass, LoRA rank 8 on q and v, QLoRA rank 8 on every linear. Tokens/s
// (training time) and peak memory per GPU (memory, compared with the
// allocator's peak: torchtune logs peak_memory_active, without the CUDA
// context and the allocator's cache). LoRA and QLoRA rows are held back;
// the full fine-tuning rows became replayable with --pure-bf16,
// --optimizer-in-backward and --loss-chunks and are test rows.
func torchtuneCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/torchtune_readme.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	gpus := map[string]string{"NVIDIA GeForce RTX 4090": "rtx-4090", "NVIDIA RTX A6000": "rtx-a6000"}
	var out []valCase
	for _, r := range recs {
		g, ok := gpus[str(r["gpu"])]
		task := map[string]string{"Full finetune": "finetune", "LoRA": "lora", "QLoRA": "qlora"}[str(r["method"])]
		if !ok || task == "" || str(r["model"]) != "Llama 3.1 8B" {
			continue
		}
		args := []string{"--model", "llama-3.1-8b", "--task", task, "--gpu", g, "--batch", "2", "--seq", "2048", "--grad-checkpointing",
			"--pure-bf16", "--loss-chunks", "8"}
		split := "heldback"
		switch task {
		case "finetune":
			args = append(args, "--optimizer", "paged-adamw-8bit", "--optimizer-in-backward")
			split = "test"
		case "lora": // 8B_lora_single_device.yaml at 30b8519e: lora_attn_modules ['q_proj', 'v_proj'], apply_lora_to_mlp False
			args = append(args, "--lora-targets", "query-value", "--lora-rank", "8", "--lora-dropout", "0", "--adapter-dtype", "bf16")
		case "qlora": // its recipe puts adapters on q, k, v, o and the MLP
			// torchao's NF4, double-quantised scalers: --quant nf4
			args = append(args, "--precision", "int4", "--quant", "nf4", "--lora-targets", "all-linear", "--lora-rank", "8", "--lora-dropout", "0", "--adapter-dtype", "bf16")
		}
		// --adapter-dtype bf16: the recipes build the model under
		// training.set_default_dtype(dtype) and check the adapters are in
		// it (validate_expected_param_dtype,
		// recipes/lora_finetune_single_device.py at bd2a0fc7)
		// lora_dropout 0: at the table's commit (30b8519e, 2024-09-24) the
		// 8B LoRA and QLoRA configs set lora_dropout: 0.0 and the
		// lora_llama3_1_* builders default to 0.0 (torchtune d7fae967,
		// 2024-09-11, "expose and set lora_dropout = 0.0"; before it the
		// builders passed 0.05), and LoRALinear then uses nn.Identity.
		set := fmt.Sprintf("Llama 3.1 8B %s %s batch 2 × 2048, ", r["method"], g)
		out = append(out,
			valCase{Group: "training time", Split: split, Source: file, Engine: "torchtune (2024-09)", Setting: set + "tokens/s",
				Args: args, Field: "performance.tokens_per_second", Scale: 1, Measured: num(r["tokens_per_sec"]), Unit: "tok/s"},
			valCase{Group: "fine-tune memory", Split: split, Source: file, Engine: "torchtune (2024-09)", Setting: set + "peak memory (allocated)",
				Args: args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: num(r["peak_memory_per_gpu_gib"]), Unit: "GiB"})
	}
	return out, nil
}

// torchtuneFlagsCases: torchtune's README "Optimization flags" table
// (commit 1814feb1, 2024-11-18): its full_finetune_single_device recipe on
// Llama 3.2 3B, one A100 (80 GB: the packed row's 60 GiB peak; SXM
// assumed), batch 2 packed to 4096, bf16, each technique added on top of
// the ones above it. Replayed: + packed dataset (AdamW, one-piece loss),
// + compile (the same flags: compilation is not modelled), + chunked
// cross-entropy (8 chunks, CEWithChunkedOutputLoss), + activation
// checkpointing, + optimizer step in backward. Not replayed: the unpacked
// baseline (its padding is not stated), activation offloading and the rows
// after it, and LoRA/QLoRA (rank 64 on q, v, o and the MLP: not a
// --lora-targets choice). Tokens/s as the recipe logs it (batch["tokens"]
// numel over step time). Test rows: no constant was fitted on them.
func torchtuneFlagsCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/torchtune_readme.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	extra := map[string][]string{
		"+ Packed Dataset":                    nil,
		"+ Compile":                           nil,
		"+ Chunked Cross Entropy":             {"--loss-chunks", "8"},
		"+ Activation Checkpointing":          {"--loss-chunks", "8", "--grad-checkpointing"},
		"+ Fuse optimizer step into backward": {"--loss-chunks", "8", "--grad-checkpointing", "--optimizer-in-backward"},
	}
	var out []valCase
	for _, r := range recs {
		tech := str(r["technique"])
		add, ok := extra[tech]
		if !ok || str(r["model"]) != "Llama 3.2 3B" {
			continue
		}
		args := append([]string{"--model", "llama-3.2-3b", "--task", "finetune", "--gpu", "a100-80gb-sxm", "--batch", "2", "--seq", "4096",
			"--pure-bf16", "--optimizer", "adamw"}, add...)
		out = append(out, valCase{Group: "training time", Split: "test", Source: file, Engine: "torchtune (2024-11)",
			Setting: "Llama 3.2 3B full fine-tune a100-80gb-sxm batch 2 × 4096, " + strings.TrimPrefix(tech, "+ ") + ", tokens/s",
			Args:    args, Field: "performance.tokens_per_second", Scale: 1, Measured: num(r["tokens_per_second"]), Unit: "tok/s"})
	}
	return out, nil
}

// torchtuneFSDPCases: torchtune's README rows on 8 A100s (memory size not
// stated; 80 GB assumed) with its distributed recipes (FSDP2's
// fully_shard: --zero 3 --fsdp2):
// Llama 3.1 70B LoRA and 405B QLoRA, batch 2 packed to 2048, pure bf16,
// checkpointing, 8 loss chunks. Peak memory per GPU as torchtune logs it;
// the 405B row prints GB. Held back.
func torchtuneFSDPCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/torchtune_readme.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"Llama 3.1 70B": "llama-3.1-70b", "Llama 3.1 405B": "llama-3.1-405b"}
	var out []valCase
	for _, r := range recs {
		m, ok := models[str(r["model"])]
		task := map[string]string{"LoRA": "lora", "QLoRA": "qlora"}[str(r["method"])]
		if !ok || task == "" {
			continue
		}
		rank, err := recipeRank(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", file, r["id"], err)
		}
		args := []string{"--model", m, "--task", task, "--gpu", "a100-80gb-sxm", "--gpus", "8", "--zero", "3", "--fsdp2", "--batch", "2", "--seq", "2048",
			"--grad-checkpointing", "--pure-bf16", "--adapter-dtype", "bf16", "--loss-chunks", "8", "--lora-rank", itoa(rank),
			"--lora-dropout", "0"} // at the table's commit: 70B_lora.yaml lora_dropout 0.0, the 405B builder's default 0.0 (torchtune d7fae967)
		if task == "lora" {
			// 70B_lora.yaml at 30b8519e: lora_attn_modules ['q_proj',
			// 'k_proj', 'v_proj'], no set of its own: attention's o
			// adapter is the excess
			args = append(args, "--lora-targets", "attention")
		} else {
			args = append(args, "--precision", "int4", "--quant", "nf4", "--lora-targets", "all-linear") // torchao's NF4
		}
		gib := num(r["peak_memory_per_gpu_gib"])
		if math.IsNaN(gib) {
			gib = num(r["peak_memory_per_gpu_gb"]) * 1e9 / (1 << 30)
		}
		out = append(out, valCase{Group: "fine-tune memory", Split: "heldback", Source: file, Engine: "torchtune (2024-09)",
			Setting: fmt.Sprintf("%s %s 8×A100 FSDP batch 2 × 2048, peak memory (allocated)", r["model"], r["method"]),
			Args:    args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: gib, Unit: "GiB"})
	}
	return out, nil
}

// recipeRank is the lora_rank of the recipe config a torchtune_readme.json
// record attaches (the repository's config at the table's commit,
// 30b8519e: 70B_lora.yaml and 405B_qlora.yaml set 16).
func recipeRank(r map[string]any) (int, error) {
	cfgs, _ := r["recipe_config_in_repo_at_commit (README does not name it)"].(map[string]any)
	if len(cfgs) != 1 {
		return 0, fmt.Errorf("%d recipe configs attached, want one", len(cfgs))
	}
	for name, c := range cfgs {
		cfg, _ := c.(map[string]any)
		rank := num(cfg["lora_rank"])
		if !(rank >= 1) || rank != math.Trunc(rank) {
			return 0, fmt.Errorf("%s: lora_rank %v", name, cfg["lora_rank"])
		}
		return int(rank), nil
	}
	return 0, nil // not reached: one config
}

// litgptCases: LitGPT's config-hub fine-tuning table
// (public-2026-11/litgpt_finetune_benchmarks.json): full, LoRA and QLoRA
// fine-tunes of 1B-9B models on A10G (24 GB) GPUs (and, in the
// hand-written table before it, A100s), max_seq_length 512,
// each run as its config file and LitGPT's scripts at the table's commit
// set it: bf16-true (--pure-bf16: weights, adapters, gradients and AdamW
// states in bf16), the logits in 128-token chunks (--loss-chunks 4 at
// 512), the config's micro-batch, LoRA rank and layers (litgptTargets: q
// and v only, query-value; every layer, all-linear), NF4 for bnb.nf4; one GPU
// without activation checkpointing, or FSDP over the config's devices
// (full shard, checkpointing every Block: --zero 3 --grad-checkpointing)
// on a machine with that many. Peak memory as LitGPT prints it,
// torch.cuda.max_memory_allocated()/1e9, compared with the allocated
// peak; every row, OOM rows too, also checks the fit call. Splits, set
// before any replay: held back, the rows of the models the table added
// last (Gemma 2, Llama 3.2: 2024-07..09); fit, falcon-7b, llama-2-7b,
// mistral-7b, phi-2, stablelm-base-alpha-3b and tiny-llama; test, the
// rest (gemma-2b, gemma-7b, llama-3-8b, llama-3.1-8b, mistral-7b-v0.2,
// phi-3). The rows of the hand-written table before it (records with a
// table_commit, 2024-03-14 .. 04-19; their A100 is taken as the 40 GB
// card, on which every one of them must fit) are split by the date the
// table first printed them, set before their replay as the first rule was:
// the table's first week (to 2024-03-17) fit, 2024-03-27 test, the last
// row it added (2024-04-19) held back.
func litgptCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/litgpt_finetune_benchmarks.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	cfg := func(name string) []string {
		return []string{"--config", filepath.Join(dir, "finetune_configs", name+".json")}
	}
	models := map[string][]string{"falcon-7b": {"--model", "falcon-7b"}, "gemma-2b": cfg("gemma-2b"), "gemma-7b": cfg("gemma-7b"),
		"gemma2-2b": {"--model", "gemma-2-2b"}, "gemma2b": {"--model", "gemma-2-2b"}, "gemma2-9b": {"--model", "gemma-2-9b"},
		"llama-2-7b": {"--model", "llama-2-7b"}, "llama-3-8b": {"--model", "llama-3-8b"}, "llama-3.1-8b": {"--model", "llama-3.1-8b"},
		"llama-3.2-1b": {"--model", "llama-3.2-1b"}, "llama-3.2-3b": {"--model", "llama-3.2-3b"},
		"mistral-7b": {"--model", "mistral-7b-v0.1"}, "mistral-7b-v0.2": {"--model", "mistral-7b-v0.1"}, // v0.2: the same shapes
		"phi-2": cfg("phi-2"), "phi-3": cfg("phi-3-mini-4k"), "stablelm-base-alpha-3b": cfg("stablelm-base-alpha-3b"), "tiny-llama": cfg("tinyllama-1.1b")}
	split := map[string]string{"gemma2-2b": "heldback", "gemma2b": "heldback", "gemma2-9b": "heldback", "llama-3.2-1b": "heldback",
		"llama-3.2-3b": "heldback", "falcon-7b": "fit", "llama-2-7b": "fit", "mistral-7b": "fit", "phi-2": "fit",
		"stablelm-base-alpha-3b": "fit", "tiny-llama": "fit"}
	var out []valCase
	for _, r := range recs {
		key, _, _ := strings.Cut(str(r["config_as_printed"]), "/")
		m, ok := models[key]
		if !ok {
			return nil, fmt.Errorf("%s: no model for config %q", file, r["config_as_printed"])
		}
		method := str(r["method"])
		task := map[string]string{"full fine-tune": "finetune", "LoRA": "lora", "QLoRA": "qlora"}[method]
		gpus := int(num(r["devices_in_config"]))
		if mach := int(num(r["gpus_on_machine"])); mach < gpus {
			gpus = mach
		}
		mb, seq := int(num(r["micro_batch_size"])), int(num(r["max_seq_length"]))
		gpu := "a10g"
		if strings.HasSuffix(str(r["machine_as_printed"]), "A100") {
			// the hand-written table's "A100", its memory not printed: a run
			// that ran there fits the 40 GB card too
			gpu = "a100-40gb-sxm"
		}
		args := append(slices.Clone(m), "--task", task, "--gpu", gpu, "--gpus", itoa(gpus), "--batch", itoa(mb), "--seq", itoa(seq),
			"--global-batch", itoa(int(num(r["global_batch_size"]))), "--pure-bf16", "--loss-chunks", itoa(max(1, seq/128)),
			// LitGPT's GPT keeps wte and lm_head apart; its checkpoint
			// conversion copies a tied embedding (Gemma, Llama 3.2) into lm_head
			"--separate-head",
			// the fit loops reassign logits and loss only when the next
			// forward and loss return, so the previous graph is held
			"--keeps-last-graph",
			// its CausalSelfAttention saves K and V at every query head
			// (estimator.Input.LitGPTAttention)
			"--litgpt-attention")
		if gpus > 1 {
			// full.py/lora.py accumulate inside fabric.no_backward_sync:
			// the estimate's default with --global-batch above one
			// micro-batch per GPU (estimator.FSDPNoSyncDefault)
			args = append(args, "--zero", "3", "--grad-checkpointing")
		}
		if task != "finetune" {
			targets, err := litgptTargets(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", file, r["id"], err)
			}
			// LitGPT's LoRA layers: one fused qkv adapter, dropout on
			// each adapter's input (lora_dropout from the config)
			args = append(args, "--lora-rank", itoa(int(num(r["lora_r"]))), "--lora-targets", targets, "--lora-fused-qkv",
				"--lora-dropout", strconv.FormatFloat(num(r["lora_dropout"]), 'g', -1, 64),
				// the adapters in bf16: the GPT is built inside
				// fabric.init_module() under bf16-true, where PEFT keeps
				// fp32 adapters (estimator.ResolveAdapterDType)
				"--adapter-dtype", "bf16")
		}
		if task == "qlora" {
			// lora.py's BitsandbytesPrecision(nf4) quantises every linear, lm_head too
			args = append(args, "--precision", "int4", "--quantize-head")
		} else {
			// full.py and lora.py build torch.optim.AdamW with neither
			// foreach nor fused (instantiate_torch_optimizer): foreach on
			// CUDA; QLoRA takes bitsandbytes' PagedAdamW
			args = append(args, "--optimizer-impl", "foreach")
		}
		sp, engine := split[key], "LitGPT (2024-04..09, bf16-true)"
		if sp == "" {
			sp = "test"
		}
		if date := str(r["table_commit_date"]); date != "" {
			sp, engine = "test", "LitGPT (2024-03..04, bf16-true)"
			switch {
			case date <= "2024-03-17":
				sp = "fit"
			case date >= "2024-04-19":
				sp = "heldback"
			}
		}
		c := valCase{Group: "fine-tune memory", Split: sp, Source: file, Engine: engine,
			Setting: fmt.Sprintf("%s %s, %s (%d GPU), batch %d × %d, peak allocated", r["model_as_printed"], method, r["machine_as_printed"], gpus, mb, seq),
			Args:    args, Field: "peak_allocated_bytes", Scale: 1e-9, Unit: "GB", Call: true}
		if r["out_of_memory"] == true {
			c.OOM = true
		} else {
			c.Measured = num(r["peak_memory_gb"])
		}
		out = append(out, c)
	}
	return out, nil
}

// litgptTargets is the --lora-targets of a LitGPT record's layer flags
// (lora_query … lora_head, from its config or lora.py's defaults): q and
// v only (lora.py's defaults) is query-value; every layer is all-linear,
// whose head adapter (lora_head) the estimate leaves out (r·(h + V)
// parameters, under 0.1% of the peak at rank 8 on these models).
func litgptTargets(r map[string]any) (string, error) {
	var on []string
	for _, k := range []string{"lora_query", "lora_key", "lora_value", "lora_projection", "lora_mlp", "lora_head"} {
		if r[k] == true {
			on = append(on, strings.TrimPrefix(k, "lora_"))
		}
	}
	switch strings.Join(on, ",") {
	case "query,value":
		return "query-value", nil
	case "query,key,value,projection":
		return "attention", nil
	case "query,key,value,projection,mlp", "query,key,value,projection,mlp,head":
		return "all-linear", nil
	}
	return "", fmt.Errorf("LoRA on %v: not a --lora-targets set", on)
}

// litgptGenericCases replays LitGPT's config-hub rows (litgptCases) as a
// user who reads only the table and the row's config file would, with
// the flags every fine-tuning framework has: the model, the task, the GPU
// and the config's devices, its micro-batch, max_seq_length and global
// batch, its precision bf16-true as --pure-bf16 (weights, gradients and
// AdamW states in bf16: Lightning's "bf16-true"; the adapters in it, as
// --adapter-dtype auto takes them under a 16-bit-only step), QLoRA's bnb.nf4 as
// --precision int4, its LoRA rank, dropout and layers (litgptTargets:
// q and v only, query-value; every layer, all-linear) and, on more than one GPU, the
// row's strategy: FSDP full shard with every Block checkpointed (--zero 3
// --grad-checkpointing). It leaves out what only LitGPT's code does and
// the table does not print (litgptOnly), so those are the estimate's
// defaults: whole-sequence cross-entropy, PEFT's separate q/k/v adapters,
// a tied head where the checkpoint ties it, the loop dropping each step's
// graph and a 16-bit LM head except under QLoRA, where bf16-true with
// bnb.nf4 is Lightning's BitsandbytesPrecision and the estimate's default
// takes its 4-bit head and LitGPT's held graph
// (estimator.LightningQLoRADefault). Group "fine-tune memory, generic
// flags"; the splits and the rows left out as not the printed setup are
// litgptCases'.
func litgptGenericCases(dir string) ([]valCase, error) {
	rows, err := litgptCases(dir)
	if err != nil {
		return nil, err
	}
	out := make([]valCase, 0, len(rows))
	for _, c := range rows {
		var args []string
		for i := 0; i < len(c.Args); i++ {
			if n, ok := litgptOnly[c.Args[i]]; ok {
				i += n
				continue
			}
			args = append(args, c.Args[i])
		}
		g := c
		g.Group, g.Args, g.SetupArgs = "fine-tune memory, generic flags", args, c.Args
		g.Setting = c.Setting + ", generic flags"
		out = append(out, g)
	}
	return out, nil
}

// litgptOnly is litgptCases' flags for what LitGPT's scripts do that its
// table and config files do not say, with the count of values each takes.
var litgptOnly = map[string]int{"--adapter-dtype": 1, "--optimizer-impl": 1, "--loss-chunks": 1, "--separate-head": 0, "--keeps-last-graph": 0, "--litgpt-attention": 0, "--lora-fused-qkv": 0, "--quantize-head": 0}

// swiftCases: ms-swift's v2 benchmark (A100 80GB, HF Trainer + PEFT, 2024-01),
// its Quantization table: LoRA rank 8 on Qwen-1's c_attn over a bf16, GPTQ
// int4/int8 or bitsandbytes NF4 base (QLoRA), batch 1, max_length 2048,
// checkpointing, flash attention; and its Model Type & Max Length table's
// Qwen-1.8B LoRA rows at max_length 512–8192 (the fit rows of the
// allocator's cache, estimator.ReservedLossCache). The figure is
// torch.cuda.max_memory_reserved over a run of the dataset's varying
// lengths (its record gives their mean and spread, truncated to
// max_length), compared with estimator.RunReserved at their mean truncated
// length. Qwen-1 shapes are in finetune_configs/. Test rows: Qwen-7B and
// 14B; held back: Qwen-72B.
func swiftCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/ms_swift_training_benchmarks.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"qwen-7b-chat": "qwen-7b", "qwen-14b-chat": "qwen-14b", "qwen-72b-chat": "qwen-72b"}
	bases := map[string][]string{"bf16": {"--task", "lora"}, "int4 (gptq)": {"--task", "lora", "--precision", "int4", "--quant", "int4-g128"},
		"int8 (gptq)": {"--task", "lora", "--precision", "int8", "--kernel", "autogptq"}, "int4 (bnb)": {"--task", "qlora", "--precision", "int4"}}
	var out []valCase
	for _, r := range recs {
		gib := num(r["gpu_memory_gib"])
		id := str(r["id"])
		var m, split, setting string
		var base []string
		seq := 2048
		switch {
		case strings.Contains(id, "-quantization-"):
			var ok, okq bool
			m, ok = models[str(r["Model Type [LoRA]"])]
			base, okq = bases[str(r["Quantization"])]
			if !ok || !okq {
				continue
			}
			split = "test"
			if m == "qwen-72b" {
				split = "heldback"
			}
			setting = fmt.Sprintf("%s LoRA on a %s base, A100, batch 1 × 2048, peak reserved", r["Model Type [LoRA]"], r["Quantization"])
		case strings.Contains(id, "-model-type-max-length-lora-") && str(r["Model Type [LoRA]"]) == "qwen-1_8b-chat":
			m, split, base, seq = "qwen-1_8b", "fit", bases["bf16"], int(num(r["Max Length"]))
			setting = fmt.Sprintf("qwen-1_8b-chat LoRA on a bf16 base, A100, batch 1 × %d, peak reserved", seq)
		default:
			continue
		}
		mean, sd, ok := swiftTokens(str(r["dataset_tokens"]))
		if math.IsNaN(gib) || !ok {
			continue
		}
		cfg := filepath.Join(dir, "finetune_configs", m+".json")
		data, err := os.ReadFile(cfg)
		if err != nil {
			return nil, err
		}
		a, err := estimator.ParseConfig(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", cfg, err)
		}
		in := estimator.DefaultInput(a)
		in.Task, in.Batch, in.Seq = estimator.LoRA, 1, seq
		args := append([]string{"--config", cfg, "--gpu", "a100-80gb-sxm", "--cuda-context", "0MiB",
			"--batch", "1", "--seq", itoa(seq), "--grad-checkpointing", "--lora-rank", "8", "--lora-targets", "attention",
			// ms-swift v2's SftArguments.lora_dropout_p default; the
			// benchmark's --lora_target_modules DEFAULT is Qwen-1's
			// c_attn (LoRATM.qwen = ['c_attn'], swift/llm/utils/model.py
			// at cfcb6726, 2023-12-14), one fused qkv linear (one
			// dropout): no set of its own, attention's c_proj adapter is
			// the excess
			"--lora-dropout", "0.05", "--lora-fused-qkv"}, base...)
		out = append(out, valCase{Group: "fine-tune memory", Split: split, Source: file, Engine: "ms-swift v2 (HF Trainer, PEFT, 2024-01)",
			Setting: setting, Args: args, Field: "peak_bytes", Scale: 1.0 / (1 << 30), Measured: gib, Unit: "GiB",
			Reserved: true, MeanTokens: estimator.MeanTruncatedTokens(mean, sd, float64(seq)), in: &in})
	}
	return out, nil
}

// swiftTokens reads the mean and standard deviation of the ms-swift v2
// dataset's sample lengths from its record ("... (qwen tokenizer):
// 3234.4±2547.5, min=91, ...").
func swiftTokens(s string) (mean, sd float64, ok bool) {
	i := strings.Index(s, "±")
	if i < 0 {
		return 0, 0, false
	}
	j := strings.LastIndexAny(s[:i], " :")
	k := strings.IndexByte(s[i:], ',')
	if k < 0 {
		return 0, 0, false
	}
	mean, err1 := strconv.ParseFloat(s[j+1:i], 64)
	sd, err2 := strconv.ParseFloat(s[i+len("±"):i+k], 64)
	return mean, sd, err1 == nil && err2 == nil
}

// deviceDecodeCases: our own HF transformers 5.17 decode steps on one
// H100 80GB (device-h100-2026-11-26/hf_h100_shapes.json: random weights,
// batch 1, 32 new tokens), the steady step: with PyTorch's cuDNN attention
// on, the second pass over the same lengths (the first builds a cuDNN plan
// per new length, about 50 ms a step: README.md there); with it off, the
// only pass. Test rows: nothing was fitted on them.
func deviceDecodeCases(dir string) ([]valCase, error) {
	const file = "device-h100-2026-11-26/hf_h100_shapes.json"
	var f struct{ Rows []map[string]any }
	if err := readJSON(dir, file, &f); err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range f.Rows {
		p, o := int(num(r["prompt_tokens"])), int(num(r["output_tokens"]))
		cudnn := "off"
		if r["cudnn_sdp"] == true {
			cudnn = "on, lengths seen before"
		}
		out = append(out, valCase{Group: "decode", Split: "test", Source: file, Engine: "HF transformers 5.17, PyTorch 2.11 (SDPA)",
			Setting: fmt.Sprintf("%s H100 BF16 batch 1, prompt %d, cuDNN attention %s, decode step", r["model"], p, cudnn),
			Args: []string{"--model", str(r["model"]), "--gpu", "h100-sxm", "--engine", "hf", "--precision", "bf16", "--batch", "1",
				"--seq", itoa(p + o), "--prompt-tokens", itoa(p), "--output-tokens", itoa(o)},
			Field: "performance.decode_token_latency_seconds", Scale: 1000, Measured: 1000 * num(r["tpot_warm_shapes_s"]), Unit: "ms"})
	}
	return out, nil
}

// deviceMemoryCases: our own fine-tuning runs on one H100 80GB
// (device-h100-2026-11-26: HF transformers 5.17, PEFT LoRA r16 on q and v
// over a bf16 base, or a full fine-tune in bf16, fused AdamW), peak
// torch.cuda.max_memory_allocated. Test rows.
func deviceMemoryCases(dir string) ([]valCase, error) {
	var out []valCase
	for _, file := range []string{"device-h100-2026-11-26/hf_h100_measurements.json", "device-h100-2026-11-26/hf_h100_measurements_2.json"} {
		var f struct{ Runs []map[string]any }
		if err := readJSON(dir, file, &f); err != nil {
			return nil, err
		}
		for _, r := range f.Runs {
			task := str(r["task"])
			if task != "lora" && task != "finetune" {
				continue
			}
			b, sq := int(num(r["batch"])), int(num(r["seq"]))
			args := []string{"--model", str(r["model"]), "--task", task, "--gpu", "h100-sxm", "--batch", itoa(b), "--seq", itoa(sq), "--pure-bf16"}
			if task == "lora" {
				// measure.py's LoraConfig(r=16, target_modules=["q_proj",
				// "v_proj"], lora_dropout=0.0), PEFT's fp32 adapters over
				// the bf16 model with no autocast: --adapter-dtype fp32
				args = append(args, "--lora-rank", "16", "--lora-targets", "query-value", "--lora-dropout", "0", "--adapter-dtype", "fp32")
			}
			if r["grad_checkpointing"] == true {
				args = append(args, "--grad-checkpointing")
			}
			out = append(out, valCase{Group: "fine-tune memory", Split: "test", Source: file, Engine: "HF transformers 5.17 (PEFT)",
				Setting: fmt.Sprintf("%s %s H100 batch %d × %d checkpointing=%v, peak memory (allocated)", r["model"], task, b, sq, r["grad_checkpointing"] == true),
				Args:    args, Field: "peak_allocated_bytes", Scale: 1.0 / (1 << 30), Measured: num(r["peak_allocated_gib"]), Unit: "GiB"})
		}
	}
	return out, nil
}

// memoryCases: the memory rows the memory model was calibrated on (fit):
// HF's bert-large-uncased training series on a V100 16 GB (nvidia-smi MiB,
// CUDA context 1343 MiB as the series measured it, 2021-era eager
// attention) and vLLM v0.19's KV pools on an H100 (79.19 GiB usable,
// utilisation 0.95, max_model_len 8192; llm-d planner accuracy report).
func memoryCases(dir string) ([]valCase, error) {
	const file = "memory_measurements.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		id := str(r["id"])
		if !strings.HasPrefix(id, "hf-bert-large-train") {
			continue
		}
		prec, opt := "fp32", "adamw"
		if strings.HasPrefix(str(r["precision"]), "fp16") {
			prec = "fp16"
		}
		switch o := str(r["optimizer"]); {
		case strings.Contains(o, "Adafactor"):
			opt = "adafactor"
		case strings.Contains(o, "8bit"):
			opt = "adamw-8bit"
		}
		b, sq := int(num(r["batch_size"])), int(num(r["seq_len"]))
		args := []string{"--model", "bert-large-uncased", "--task", "finetune", "--vram", "16GiB", "--usable-vram", "16160MiB",
			"--cuda-context", "1343MiB", "--flash-attention=false", "--precision", prec, "--optimizer", opt, "--batch", itoa(b), "--seq", itoa(sq)}
		gc := r["gradient_checkpointing"] == true
		if gc {
			args = append(args, "--grad-checkpointing")
		}
		out = append(out, valCase{Group: "memory", Split: "fit", Source: file, Engine: "HF transformers (2021)",
			Setting: fmt.Sprintf("bert-large train %s %s bs%d s%d gc=%v (V100, nvidia-smi)", prec, opt, b, sq, gc), Args: args,
			Field: "per_gpu.total_bytes", Scale: 1.0 / (1 << 20), Measured: num(r["measured_gpu_memory"]), Unit: "MiB"})
	}
	for _, c := range []struct {
		model, kv string
		tokens    float64
	}{{"llama-3.1-8b", "bf16", 476016}, {"qwen2.5-7b", "bf16", 1096000}, {"qwen2.5-7b", "fp8", 2192000}} {
		out = append(out, valCase{Group: "memory", Split: "fit", Source: "engine_observations.md", Engine: "vLLM v0.19.0",
			Setting: c.model + " H100 util 0.95 KV " + c.kv + ", KV pool tokens",
			Args: []string{"--model", c.model, "--engine", "vllm", "--engine-version", "0.19.0", "--vram", "80GiB", "--usable-vram", "79.19GiB", "--gpu-mem-util", "0.95",
				"--seq", "8192", "--kv-dtype", c.kv},
			Field: "kv_pool_tokens", Scale: 1, Measured: c.tokens, Unit: "tokens"})
	}
	return out, nil
}

// megatronCases: Megatron-LM iteration times on A100 80GB (Selene: NVLink
// in the node, 8 × 200 Gb/s HDR InfiniBand per node) from Korthikanti et
// al. 2022 Table 5, with selective recomputation and sequence parallelism
// ("present work") and with full recomputation; TP 8, PP and micro-batch
// as printed (training_compute.json); attention without FlashAttention
// (published the same month; the paper's activation count keeps the
// 5as/h score tensors that only unfused attention has); plain 1F1B, as
// replayed since the rows were added (Table 5 names no schedule). Test rows.
func megatronCases(dir string) ([]valCase, error) {
	const file = "training_compute.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range recs {
		id := str(r["id"])
		if !strings.HasPrefix(id, "korthikanti2022-mfu-") || strings.HasSuffix(id, "gpu") {
			continue
		}
		mc, _ := r["model_config"].(map[string]any)
		it, _ := r["iteration_time_s"].(map[string]any)
		if mc == nil || it == nil {
			continue
		}
		name := strings.TrimPrefix(id, "korthikanti2022-mfu-")
		args := []string{"--config", filepath.Join(dir, "megatron", "gpt-"+name+".json"), "--task", "train", "--gpu", "a100-80gb-sxm",
			"--gpus", itoa(int(num(r["num_gpus"]))), "--tp", itoa(int(num(mc["tensor_parallel"]))), "--pp", itoa(int(num(mc["pipeline_parallel"]))),
			"--batch", itoa(int(num(mc["micro_batch"]))), "--seq", itoa(int(num(mc["seq_len"]))),
			"--global-batch", itoa(int(num(mc["global_batch"]))), "--network-gbps", "1600", "--flash-attention=false",
			"--virtual-stages", "1"}
		for _, v := range []struct{ key, flag, what string }{{"present_work", "--selective-recompute", "selective recompute + SP"},
			{"full_recompute", "--grad-checkpointing", "full recompute"}} {
			out = append(out, valCase{Group: "training time", Split: "test", Source: file, Engine: "Megatron-LM (2022)",
				Setting: fmt.Sprintf("GPT %s, %d×A100, TP %v PP %v, %s, iteration", name, int(num(r["num_gpus"])), mc["tensor_parallel"],
					mc["pipeline_parallel"], v.what),
				Args: append(slices.Clone(args), v.flag), Field: "performance.step_seconds", Scale: 1, Measured: num(it[v.key]), Unit: "s"})
		}
	}
	return out, nil
}

// nemoCases: NVIDIA NeMo 24.07's performance summary on DGX-H100 (8 GPUs
// per node, 8 × 400 Gb/s InfiniBand), FP8 (Transformer Engine), Llama 2
// and Llama 3 pre-training, SFT and LoRA: tokens/s per GPU with the
// printed GBS, MBS, TP and PP and Megatron's distributed optimizer (ZeRO
// 1), the interleaved pipeline's virtual stages (VP) and context
// parallelism (CP 2 on the Llama 3 rows; counted as data parallelism
// until the interleaved warm-up's activations were counted, which a
// replay of 8K sequences uncut by CP does not fit), with cuDNN's fused
// attention, Transformer Engine's choice on Hopper (estimator.AttnCuDNN).
// The SFT rows ran NeMo-Framework-Launcher 24.07's Llama SFT recipe
// (launcher_scripts/conf/peft/llama/sft.yaml, tag 24.07 at 8325688d:
// distributed_fused_adam with bf16 states, --bf16-optimizer-states) as
// its H100 examples for these rows set it (examples/peft/llama/h100/
// 7b_1node.sh, 13b_1node.sh, 70b_2node.sh: the table's GPUs, batches, TP
// and PP, fp8_params, and the virtual stages the table leaves out).
// Held back.
func nemoCases(dir string) ([]valCase, error) {
	const file = "public-2026-11/nemo_performance_summary.json"
	_, recs, err := readRecords(dir, file)
	if err != nil {
		return nil, err
	}
	models := map[string]string{"LLAMA2-7B": "llama-2-7b", "LLAMA2-13B": "llama-2-13b", "LLAMA2-70B": "llama-2-70b",
		"LLAMA3-8B": "llama-3-8b", "LLAMA3-70B": "llama-3-70b"}
	tasks := map[string]string{"pretraining": "train", "SFT": "finetune", "LoRA": "lora"}
	sftVP := map[string]int{"LLAMA2-13B": 10, "LLAMA2-70B": 20} // the launcher's examples' virtual_pipeline_model_parallel_size
	var out []valCase
	for _, r := range recs {
		m, ok := models[str(r["model"])]
		task := tasks[str(r["task"])]
		if !ok || task == "" || str(r["container"]) != "NeMo 24.07" {
			continue
		}
		n := int(num(r["num_gpus"]))
		tp, pp := max(1, int(num(r["tp"]))), max(1, int(num(r["pp"])))
		args := []string{"--model", m, "--task", task, "--precision", "fp8", "--gpu", "h100-sxm", "--gpus", itoa(n), "--tp", itoa(tp), "--pp", itoa(pp),
			"--batch", itoa(int(num(r["micro_batch_size"]))), "--seq", itoa(int(num(r["seq_len_tokens"]))),
			"--global-batch", itoa(int(num(r["global_batch_size"]))), "--network-gbps", "3200", "--attention-kernel", "cudnn"}
		if task != "lora" {
			args = append(args, "--zero", "1")
		}
		vp := int(num(r["vp"]))
		if task == "finetune" {
			args = append(args, "--bf16-optimizer-states")
			vp = max(vp, sftVP[str(r["model"])])
		}
		if vp > 1 {
			args = append(args, "--virtual-stages", itoa(vp))
		}
		if cp := int(num(r["cp"])); cp > 1 {
			args = append(args, "--cp", itoa(cp))
		}
		out = append(out, valCase{Group: "training time", Split: "heldback", Source: file, Engine: "NeMo 24.07 (Megatron-Core, FP8)",
			Setting: fmt.Sprintf("%s %s, %d×H100, TP %d PP %d, GBS %v, tokens/s/GPU", r["model"], r["task"], n, tp, pp, r["global_batch_size"]),
			Args:    args, Field: "performance.tokens_per_second", Scale: 1 / float64(n), Measured: num(r["tokens_per_sec_per_gpu"]), Unit: "tok/s/GPU"})
	}
	return out, nil
}

// valGroupIndex is each group's place in the report (valGroups).
func valGroupIndex() map[string]int {
	gi := make(map[string]int, len(valGroups))
	for i, g := range valGroups {
		gi[g] = i
	}
	return gi
}

// breakdownRow is one cell of a breakdown table: a group, the columns
// that name the cell, a split, and the cases' errors in it.
type breakdownRow struct {
	group, split string
	cols         []string
	abs, signed  []float64
}

// breakdownTables is a breakdown table's rows, in report order.
type breakdownTables []*breakdownRow

// breakdownTable gathers the cases' errors into cells: cells gives, for
// each case, the column values of each cell it counts in (nil: none).
// The rows are ordered by group (valGroups), then by their columns, then
// by split.
func breakdownTable(cases []valCase, cells func(valCase) [][]string) breakdownTables {
	byKey := map[string]*breakdownRow{}
	var t breakdownTables
	for _, c := range cases {
		for _, cols := range cells(c) {
			k := c.Group + "\x00" + strings.Join(cols, "\x00") + "\x00" + c.Split
			r := byKey[k]
			if r == nil {
				r = &breakdownRow{group: c.Group, split: c.Split, cols: cols}
				byKey[k] = r
				t = append(t, r)
			}
			r.abs, r.signed = append(r.abs, math.Abs(c.Error)), append(r.signed, c.Error)
		}
	}
	gi := valGroupIndex()
	sort.Slice(t, func(i, j int) bool {
		a, b := t[i], t[j]
		if a.group != b.group {
			return gi[a.group] < gi[b.group]
		}
		if c := slices.Compare(a.cols, b.cols); c != 0 {
			return c < 0
		}
		return a.split < b.split
	})
	return t
}

// write prints the rows as markdown: group, columns, split, count,
// median |error| and median signed error.
func (t breakdownTables) write(w io.Writer) {
	for _, r := range t {
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.1f%% | %+.1f%% |\n", r.group, strings.Join(r.cols, " | "), splitNames[r.split], len(r.abs),
			100*quantile(r.abs, 0.5), 100*quantile(r.signed, 0.5))
	}
}
