package sim

// Reading the result of a serving benchmark a user ran on their own
// deployment, so that Fit can calibrate the engine's factors to it
// (calibrate_fit.go). Four layouts are read; Parse tells them apart:
//
//   - vLLM: `vllm bench serve --save-result` (vllm/benchmarks/serve.py) and
//     its predecessor benchmarks/benchmark_serving.py write one JSON object
//     per run with max_concurrency, num_prompts, request_rate, completed,
//     total_input_tokens, total_output_tokens, output_throughput,
//     mean_/median_/p99_ttft_ms and mean_/median_/p99_tpot_ms (and, with
//     --metadata or newer versions, random_input_len, random_output_len,
//     random_range_ratio). Several runs may be concatenated (JSON lines) or
//     listed in a JSON array. Python's json module writes NaN and Infinity
//     for empty statistics and an unbounded request rate; they are read as
//     null.
//   - SGLang: `python -m sglang.bench_serving --output-file F.jsonl`
//     (sglang/bench_serving.py) appends one JSON object per run with the
//     same statistics plus random_input_len, random_output_len,
//     random_range_ratio, mean_e2e_latency_ms and "concurrency" (the mean
//     requests in flight it measured); docs/developer_guide/bench_serving.md.
//   - genai-perf: profile_export_genai_perf.csv (triton-inference-server
//     genai-perf's CsvExporter): a block "Metric,avg,min,max,p99,…,p50,…"
//     with rows "Time To First Token (ms)", "Inter Token Latency (ms)"
//     (genai-perf's ITL is (request latency − TTFT)/(output tokens − 1), the
//     TPOT the others report), "Output Sequence Length (tokens)", "Input
//     Sequence Length (tokens)" (older versions: "Num Output Token" and
//     nanosecond units), then a block "Metric,Value" with "Output Token
//     Throughput (per sec)". Numbers may carry thousands separators
//     ("5,919.16"). The file does not say the concurrency: genai-perf's
//     artifact directory does ("…-concurrency8/"), so Parse reads it from
//     the name it is given, else the caller supplies it.
//   - a plain CSV with a header: concurrency, ttft_ms, tpot_ms and
//     optionally throughput_tok_s, prompt_tokens, output_tokens (ttft_ms
//     and tpot_ms are medians; mean_ttft_ms, mean_tpot_ms, median_ttft_ms
//     and median_tpot_ms say which).

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"rightsize/estimator"
)

// Limits on what Parse reads: a benchmark result is a few kilobytes per
// run, so these leave room for a sweep of hundreds of runs while keeping
// a dropped file of the wrong kind from costing the page its memory.
const (
	MaxBenchmarkBytes  = 1 << 20 // 1 MiB
	MaxBenchmarkPoints = 256
)

// Bounds on one run's figures, as serving benchmarks of one deployment
// have them. A figure beyond them is a broken or hand-made file: fitted,
// it ran for minutes (a million requests in flight, 16M-token requests)
// or gave errors printed with a hundred digits (a TTFT of 1e-150 s).
const (
	// MaxBenchmarkConcurrency is the most requests in flight: published
	// sweeps stop at 256–1024 (InferenceX, vllm bench serve
	// --max-concurrency), and the engines' running batch defaults to
	// 256–1024 sequences (vLLM max_num_seqs, SGLang, TensorRT-LLM
	// max_batch_size); 4096 leaves room above every one of them.
	MaxBenchmarkConcurrency = 4096
	// MaxBenchmarkTokens is the most prompt plus output tokens of one
	// request: the longest context a catalog model has (Llama 4 Scout's
	// max_position_embeddings, 10,485,760; cmd/rightsize's
	// TestBenchmarkBoundsCoverCatalog holds it to the catalog).
	MaxBenchmarkTokens = 10 << 20
	// The time to first token is at least 0.1 ms (one forward pass and the
	// client's round trip take more; measured TTFTs start near 5 ms) and
	// at most a day; the time per output token at least 10 µs (100,000
	// tokens/s for one request, far above any GPU's decode) and at most a
	// minute (a stalled deployment, not a speed).
	minTTFTSeconds, maxTTFTSeconds = 1e-4, 86400
	minTPOTSeconds, maxTPOTSeconds = 1e-5, 60
	// maxOutputTokensPerSecond bounds a run's generated tokens/s: a
	// 72-GPU rack generates some hundreds of thousands; 10^8 is far above.
	maxOutputTokensPerSecond = 1e8
)

// Format is the layout of a benchmark result.
type Format int

const (
	FormatUnknown   Format = iota
	FormatVLLM             // vllm bench serve / benchmark_serving.py result JSON
	FormatSGLang           // sglang.bench_serving --output-file JSON lines
	FormatGenAIPerf        // genai-perf profile_export_genai_perf.csv
	FormatCSV              // concurrency,ttft_ms,tpot_ms[,throughput_tok_s][,prompt_tokens,output_tokens]
)

var formatNames = [...]string{"unknown", "vllm", "sglang", "genai-perf", "csv"}

// String returns "vllm", "sglang", "genai-perf", "csv" or "unknown".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return "Format(" + itoa(int(f)) + ")"
	}
	return formatNames[f]
}

// MarshalText writes f's String, so JSON carries the name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Measurement is one measured closed-loop benchmark run: Concurrency
// requests in flight, each with about PromptTokens in and OutputTokens out.
// Zero fields are unknown (the caller may fill them in).
type Measurement struct {
	Concurrency int `json:"concurrency"`
	// PromptTokens and OutputTokens are the per-request lengths the client
	// drew from, the longest when RangeRatio spreads them (as
	// --random-input-len with --random-range-ratio): each request's length
	// is uniform in [RangeRatio × L, L]. Where the file gives only totals,
	// L is set so that the mean over DefaultRangeRatio's spread matches.
	PromptTokens int     `json:"prompt_tokens"`
	OutputTokens int     `json:"output_tokens"`
	RangeRatio   float64 `json:"range_ratio"`
	// TTFTSeconds and TPOTSeconds are the measured time to first token and
	// time per output token: medians when Median, else means.
	TTFTSeconds float64 `json:"ttft_seconds"`
	TPOTSeconds float64 `json:"tpot_seconds"`
	Median      bool    `json:"median"`
	// OutputTokensPerSecond is the run's generated tokens/s (0: not given).
	OutputTokensPerSecond float64 `json:"output_tokens_per_second,omitempty"`
}

// ErrBenchmarkFormat: a file Parse cannot read as any of the benchmark
// results it knows. The *estimator.InputError wrapping it says what was
// expected.
var ErrBenchmarkFormat = errors.New("not a serving benchmark result")

// expected is what Parse reads, for its errors.
const expected = "want a vllm bench serve result JSON, SGLang bench_serving JSON lines, genai-perf profile_export_genai_perf.csv or a CSV with a header concurrency,ttft_ms,tpot_ms"

func formatError(reason string) error {
	return &estimator.InputError{Field: "benchmark", Value: "", Reason: reason + "; " + expected, Err: ErrBenchmarkFormat}
}

func pointError(i int, reason string) error {
	return &estimator.InputError{Field: "benchmark", Value: "run " + itoa(i+1), Reason: reason, Err: estimator.ErrRange}
}

// Parse reads a serving benchmark's result (data, from the file called
// name; the name only helps genai-perf's concurrency) into measurements.
// A file of another kind, over MaxBenchmarkBytes, with more than
// MaxBenchmarkPoints runs or with a figure that is not a finite positive
// number returns an *estimator.InputError (ErrBenchmarkFormat or
// estimator.ErrRange) naming what was expected.
func Parse(name string, data []byte) ([]Measurement, Format, error) {
	pts, f, err := parse(name, data)
	var ie *estimator.InputError
	if errors.As(err, &ie) && ie.Value == "" {
		ie.Value = name[strings.LastIndexAny(name, "/\\")+1:]
	}
	return pts, f, err
}

func parse(name string, data []byte) ([]Measurement, Format, error) {
	if len(data) > MaxBenchmarkBytes {
		return nil, FormatUnknown, formatError("the file is over 1 MiB")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, FormatUnknown, formatError("the file is empty")
	}
	var (
		pts []Measurement
		f   Format
		err error
	)
	switch data[0] {
	case '{', '[':
		pts, f, err = parseJSONRuns(data)
	default:
		pts, f, err = parseCSV(name, data)
	}
	if err != nil {
		return nil, f, err
	}
	if len(pts) == 0 {
		return nil, f, formatError("no runs in the file")
	}
	for i, p := range pts {
		if err := p.check(); err != nil {
			return nil, f, pointError(i, err.Error())
		}
	}
	return pts, f, nil
}

// check rejects figures no benchmark produces (the bounds above); zero
// lengths and concurrency are unknown, not wrong.
func (m Measurement) check() error {
	within := func(v, lo, hi float64) bool { return v >= lo && v <= hi }
	switch {
	case m.Concurrency < 0 || m.Concurrency > MaxBenchmarkConcurrency:
		return errors.New("concurrency " + itoa(m.Concurrency) + ": want 1.." + itoa(MaxBenchmarkConcurrency) + " requests in flight (run the benchmark with --max-concurrency)")
	case m.PromptTokens < 0 || m.OutputTokens < 0 || m.PromptTokens > MaxBenchmarkTokens-m.OutputTokens:
		return errors.New("lengths " + itoa(m.PromptTokens) + " + " + itoa(m.OutputTokens) + " tokens: want at most " + itoa(MaxBenchmarkTokens) + " together, the longest context of any model")
	case !within(m.RangeRatio, 0, 1):
		return errors.New("range ratio " + ftoa(m.RangeRatio) + ": want a share in [0, 1]")
	case !within(m.TTFTSeconds, minTTFTSeconds, maxTTFTSeconds):
		return errors.New("time to first token " + ftoa(m.TTFTSeconds) + " s: want " + ftoa(minTTFTSeconds) + " to " + ftoa(maxTTFTSeconds) + " s")
	case !within(m.TPOTSeconds, minTPOTSeconds, maxTPOTSeconds):
		return errors.New("time per output token " + ftoa(m.TPOTSeconds) + " s: want " + ftoa(minTPOTSeconds) + " to " + ftoa(maxTPOTSeconds) + " s")
	case !within(m.OutputTokensPerSecond, 0, maxOutputTokensPerSecond):
		return errors.New("throughput " + ftoa(m.OutputTokensPerSecond) + " tokens/s: want 0 to " + ftoa(maxOutputTokensPerSecond))
	}
	return nil
}

// runJSON is the fields of a vLLM or SGLang result that Parse reads. A
// pointer is a figure the file may lack (or hold as null, NaN or Infinity).
type runJSON struct {
	MaxConcurrency   *float64        `json:"max_concurrency"`
	NumPrompts       *float64        `json:"num_prompts"`
	RequestRate      json.RawMessage `json:"request_rate"`
	Completed        *float64        `json:"completed"`
	TotalInput       *float64        `json:"total_input_tokens"`
	TotalOutput      *float64        `json:"total_output_tokens"`
	OutputThroughput *float64        `json:"output_throughput"`
	MeanTTFT         *float64        `json:"mean_ttft_ms"`
	MedianTTFT       *float64        `json:"median_ttft_ms"`
	MeanTPOT         *float64        `json:"mean_tpot_ms"`
	MedianTPOT       *float64        `json:"median_tpot_ms"`
	RandomInput      *float64        `json:"random_input_len"`
	RandomOutput     *float64        `json:"random_output_len"`
	RandomRange      *float64        `json:"random_range_ratio"`
	Backend          string          `json:"backend"`
	// Keys only one of the two clients writes.
	MeanE2ESGLang *float64 `json:"mean_e2e_latency_ms"`
	MeanE2EVLLM   *float64 `json:"mean_e2el_ms"`
	ModelID       *string  `json:"model_id"`
}

// parseJSONRuns reads one JSON object, a JSON array of objects or JSON
// lines (objects one after another).
func parseJSONRuns(data []byte) ([]Measurement, Format, error) {
	data = pythonJSON(data)
	var runs []runJSON
	if data[0] == '[' {
		if err := json.Unmarshal(data, &runs); err != nil {
			return nil, FormatUnknown, formatError("invalid JSON (" + jsonReason(err) + ")")
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var r runJSON
			err := dec.Decode(&r)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, FormatUnknown, formatError("invalid JSON (" + jsonReason(err) + ")")
			}
			if len(runs) == MaxBenchmarkPoints {
				return nil, FormatUnknown, formatError("more than 256 runs")
			}
			runs = append(runs, r)
		}
	}
	if len(runs) > MaxBenchmarkPoints {
		return nil, FormatUnknown, formatError("more than 256 runs")
	}
	f := FormatUnknown
	pts := make([]Measurement, 0, len(runs))
	for i, r := range runs {
		rf := r.format()
		if rf == FormatUnknown {
			return nil, FormatUnknown, formatError("run " + itoa(i+1) + " has no mean_ttft_ms or median_ttft_ms")
		}
		if f == FormatUnknown {
			f = rf
		}
		m, err := r.measurement()
		if err != nil {
			return nil, f, pointError(i, err.Error())
		}
		pts = append(pts, m)
	}
	return pts, f, nil
}

func (r runJSON) format() Format {
	if r.MeanTTFT == nil && r.MedianTTFT == nil {
		return FormatUnknown
	}
	if r.MeanE2ESGLang != nil || strings.HasPrefix(r.Backend, "sglang") && r.MeanE2EVLLM == nil && r.ModelID == nil {
		return FormatSGLang
	}
	return FormatVLLM
}

// measurement is the run's medians where it has them (robust to the
// slow tail), else its means.
func (r runJSON) measurement() (Measurement, error) {
	var m Measurement
	ttft, tpot := r.MedianTTFT, r.MedianTPOT
	m.Median = ttft != nil && tpot != nil
	if !m.Median {
		ttft, tpot = r.MeanTTFT, r.MeanTPOT
	}
	if ttft == nil || tpot == nil {
		return m, errors.New("needs median_ttft_ms and median_tpot_ms (or mean_ttft_ms and mean_tpot_ms)")
	}
	m.TTFTSeconds, m.TPOTSeconds = *ttft/1000, *tpot/1000
	if r.OutputThroughput != nil {
		m.OutputTokensPerSecond = *r.OutputThroughput
	}
	// Concurrency: the client's limit; without one a run with an infinite
	// request rate sends every prompt at once.
	switch {
	case r.MaxConcurrency != nil && *r.MaxConcurrency > 0:
		m.Concurrency = count(*r.MaxConcurrency)
	case unboundedRate(r.RequestRate) && r.NumPrompts != nil && *r.NumPrompts > 0:
		m.Concurrency = count(*r.NumPrompts)
	case !unboundedRate(r.RequestRate):
		return m, errors.New("an open-loop run (a request rate and no max_concurrency): run the benchmark with --max-concurrency")
	}
	// Lengths: the client's settings, else the means of what it sent.
	m.RangeRatio = DefaultRangeRatio
	if r.RandomRange != nil && !(*r.RandomRange >= 0 && *r.RandomRange <= 1) {
		return m, errors.New("random_range_ratio " + ftoa(*r.RandomRange) + ": want a share in [0, 1]")
	}
	if r.RandomRange != nil && *r.RandomRange > 0 {
		m.RangeRatio = *r.RandomRange
	}
	if r.RandomInput != nil && r.RandomOutput != nil && *r.RandomInput >= 1 && *r.RandomOutput >= 1 {
		m.PromptTokens, m.OutputTokens = count(*r.RandomInput), count(*r.RandomOutput)
		if r.RandomRange != nil && *r.RandomRange == 0 {
			m.RangeRatio = 1 // vLLM's default 0 means fixed lengths
		}
		return m, nil
	}
	if n := r.Completed; n != nil && *n >= 1 && r.TotalInput != nil && r.TotalOutput != nil {
		m.RangeRatio = DefaultRangeRatio
		spread := (1 + DefaultRangeRatio) / 2
		m.PromptTokens = count(*r.TotalInput / *n / spread)
		m.OutputTokens = count(*r.TotalOutput / *n / spread)
	}
	return m, nil
}

// count rounds a non-negative figure to an int, saturating far above any
// limit check so that huge values fail there, not overflow here.
func count(v float64) int {
	switch {
	case !(v > 0):
		return 0
	case v > 1<<40:
		return 1 << 40
	}
	return int(math.Round(v))
}

// unboundedRate: request_rate absent, null, Infinity or "inf".
func unboundedRate(raw json.RawMessage) bool {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	switch strings.ToLower(s) {
	case "", "null", "inf", "infinity":
		return true
	}
	return false
}

// pythonJSON replaces the NaN, Infinity and -Infinity that Python's json
// module writes outside strings with null, which encoding/json reads.
func pythonJSON(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	out := make([]byte, 0, len(data))
	inStr, esc := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			out, i = append(out, "null"...), i+2
			continue
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			out, i = append(out, "null"...), i+8
			continue
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			out, i = append(out, "null"...), i+7
			continue
		}
		out = append(out, c)
	}
	return out
}

// jsonReason is encoding/json's error without its package prefix.
func jsonReason(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// parseCSV reads genai-perf's export or the plain CSV.
func parseCSV(name string, data []byte) ([]Measurement, Format, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.ReuseRecord = false
	var recs [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, FormatUnknown, formatError("unreadable CSV (" + strings.TrimPrefix(err.Error(), "record on ") + ")")
		}
		if len(recs) > 4*MaxBenchmarkPoints {
			return nil, FormatUnknown, formatError("more than 256 runs")
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 || len(recs[0]) == 0 {
		return nil, FormatUnknown, formatError("no header")
	}
	if strings.EqualFold(strings.TrimSpace(recs[0][0]), "Metric") {
		m, err := parseGenAIPerf(name, recs)
		if err != nil {
			return nil, FormatGenAIPerf, err
		}
		return []Measurement{m}, FormatGenAIPerf, nil
	}
	pts, err := parsePlainCSV(recs)
	if err != nil {
		return nil, FormatCSV, err
	}
	return pts, FormatCSV, nil
}

// number reads a CSV figure: thousands separators and spaces removed,
// NaN and infinities refused.
func number(s string) (float64, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// parseGenAIPerf reads one genai-perf run: the averages or (where the
// header has p50) the medians of the per-request metrics and the output
// throughput.
func parseGenAIPerf(name string, recs [][]string) (Measurement, error) {
	var m Measurement
	col := -1 // the statistic's column in the current block
	blockMedian := false
	var ttft, tpot, outLen, inLen float64
	for _, rec := range recs {
		if len(rec) == 0 || len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		key := strings.TrimSpace(rec[0])
		if strings.EqualFold(key, "Metric") {
			col = -1
			avg := -1
			for j, h := range rec {
				switch strings.ToLower(strings.TrimSpace(h)) {
				case "p50":
					col = j
				case "avg", "value":
					avg = j
				}
			}
			if col < 0 {
				col = avg
			}
			blockMedian = col >= 0 && strings.EqualFold(strings.TrimSpace(rec[col]), "p50")
			continue
		}
		if col < 0 || col >= len(rec) {
			continue
		}
		v, ok := number(rec[col])
		if !ok {
			continue
		}
		// Times in (ms), or (ns) in genai-perf before 0.0.4.
		scale := 1e-3
		if strings.Contains(key, "(ns)") {
			scale = 1e-9
		}
		k := strings.ToLower(key)
		switch {
		case strings.HasPrefix(k, "time to first token"):
			ttft, m.Median = v*scale, blockMedian
		case strings.HasPrefix(k, "inter token latency"):
			tpot = v * scale
		case strings.HasPrefix(k, "output sequence length"), strings.HasPrefix(k, "num output token"):
			outLen = v
		case strings.HasPrefix(k, "input sequence length"), strings.HasPrefix(k, "num input token"):
			inLen = v
		case strings.HasPrefix(k, "output token throughput (") && !strings.Contains(k, "per user"):
			m.OutputTokensPerSecond = v
		}
	}
	if ttft == 0 && tpot == 0 {
		return m, formatError("a genai-perf CSV without Time To First Token and Inter Token Latency rows")
	}
	m.TTFTSeconds, m.TPOTSeconds = ttft, tpot
	// genai-perf draws lengths from a normal distribution around
	// --synthetic-input-tokens-mean; the run's mean is the length.
	m.PromptTokens, m.OutputTokens, m.RangeRatio = count(inLen), count(outLen), 1
	m.Concurrency = concurrencyInName(name)
	return m, nil
}

// concurrencyInName finds "concurrency" followed by digits in a path, as
// genai-perf names its artifact directories ("…-openai-chat-concurrency8").
func concurrencyInName(name string) int {
	low := strings.ToLower(name)
	i := strings.LastIndex(low, "concurrency")
	if i < 0 {
		return 0
	}
	s := low[i+len("concurrency"):]
	s = strings.TrimLeft(s, "_-=")
	n := 0
	for n < len(s) && n < 8 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, err := strconv.Atoi(s[:n])
	if err != nil {
		return 0
	}
	return v
}

// parsePlainCSV reads concurrency,ttft_ms,tpot_ms[,throughput_tok_s]
// [,prompt_tokens,output_tokens], columns in any order.
func parsePlainCSV(recs [][]string) ([]Measurement, error) {
	idx := map[string]int{}
	median := true
	for j, h := range recs[0] {
		h = strings.ToLower(strings.TrimSpace(h))
		switch h {
		case "mean_ttft_ms", "mean_tpot_ms":
			median = false
			h = strings.TrimPrefix(h, "mean_")
		case "median_ttft_ms", "median_tpot_ms":
			h = strings.TrimPrefix(h, "median_")
		}
		if _, dup := idx[h]; !dup {
			idx[h] = j
		}
	}
	for _, need := range []string{"concurrency", "ttft_ms", "tpot_ms"} {
		if _, ok := idx[need]; !ok {
			return nil, formatError("a CSV header without " + need)
		}
	}
	rows := recs[1:]
	if len(rows) > MaxBenchmarkPoints {
		return nil, formatError("more than 256 runs")
	}
	pts := make([]Measurement, 0, len(rows))
	for i, rec := range rows {
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		get := func(col string) (float64, bool, error) {
			j, ok := idx[col]
			if !ok {
				return 0, false, nil
			}
			if j >= len(rec) || strings.TrimSpace(rec[j]) == "" {
				return 0, false, nil
			}
			v, ok := number(rec[j])
			if !ok {
				return 0, false, errors.New(col + " " + strconv.Quote(rec[j]) + ": not a number")
			}
			return v, true, nil
		}
		m := Measurement{Median: median, RangeRatio: DefaultRangeRatio}
		var vals [6]float64
		for k, col := range []string{"concurrency", "ttft_ms", "tpot_ms", "throughput_tok_s", "prompt_tokens", "output_tokens"} {
			v, ok, err := get(col)
			if err != nil {
				return nil, pointError(i, err.Error())
			}
			if !ok && k < 3 {
				return nil, pointError(i, "no "+col)
			}
			vals[k] = v
		}
		if vals[0] != math.Trunc(vals[0]) || vals[0] < 1 {
			return nil, pointError(i, "concurrency "+ftoa(vals[0])+": want a whole number ≥ 1")
		}
		m.Concurrency = count(vals[0])
		m.TTFTSeconds, m.TPOTSeconds, m.OutputTokensPerSecond = vals[1]/1000, vals[2]/1000, vals[3]
		if vals[4] < 0 || vals[5] < 0 {
			return nil, pointError(i, "negative lengths")
		}
		m.PromptTokens, m.OutputTokens = count(vals[4]), count(vals[5])
		pts = append(pts, m)
	}
	return pts, nil
}
