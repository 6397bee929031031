package plan

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Workloads as distributions: a request log or a histogram of request
// sizes becomes a few size classes (Bucket) with their shares, and a log's
// timestamps a daily load curve; a curve can also be typed. The parsers
// are pure (bytes in, values out) so the page reads a dropped file with
// the same code as the command line; nothing leaves the machine.

// Caps on what a parser reads: a few million requests are enough for a
// day's shape; a million requests a second is above any one deployment
// (the CLI's --requests-per-second bound).
//
// A histogram's share is a weight (a fraction, a percentage or a count
// of requests); 10¹⁵ bounds any of them, and keeps the sums of
// MaxLogRequests rows of MaxTokens tokens each finite (2·10²⁸), where a
// share of 1e308 made them +Inf and every class's mean 0 or negative.
const (
	MaxLogRequests = 2_000_000
	MaxTokens      = 10_000_000
	maxCurveRate   = 1e6
	maxShare       = 1e15
)

// LineError is a parse error at a line of the input (1-based).
type LineError struct {
	Line   int
	Reason string
}

func (e *LineError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Reason }

func lineErr(line int, format string, a ...any) error {
	return &LineError{Line: line, Reason: fmt.Sprintf(format, a...)}
}

// ParseCurveList reads "r0,r1,...,r23".
func ParseCurveList(s string) (LoadCurve, error) {
	var c LoadCurve
	f := strings.Split(s, ",")
	if len(f) != 24 {
		return c, fmt.Errorf("%d rates: want 24, one per hour from 00:00", len(f))
	}
	for h, v := range f {
		x, err := parseRate(v)
		if err != nil {
			return c, fmt.Errorf("hour %d: %v", h, err)
		}
		c[h] = x
	}
	return c, nil
}

func parseRate(v string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(x >= 0) || x > maxCurveRate {
		return 0, fmt.Errorf("%q: want requests/s from 0 to %g", strings.TrimSpace(v), float64(maxCurveRate))
	}
	return x, nil
}

// ParseCurveCSV reads "hour,requests_per_second" rows, hours 0–23 each
// once, with or without that header.
func ParseCurveCSV(data []byte) (LoadCurve, error) {
	var c LoadCurve
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord, r.TrimLeadingSpace, r.Comment = -1, true, '#'
	var seen [24]bool
	line := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line++
		if err != nil {
			return c, lineErr(line, "%v", err)
		}
		if len(rec) != 2 {
			return c, lineErr(line, "%d fields, want hour,requests_per_second", len(rec))
		}
		if line == 1 && strings.EqualFold(strings.TrimSpace(rec[0]), "hour") {
			continue
		}
		h, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || h < 0 || h > 23 {
			return c, lineErr(line, "hour %q: want 0..23", rec[0])
		}
		if seen[h] {
			return c, lineErr(line, "hour %d given twice", h)
		}
		x, err := parseRate(rec[1])
		if err != nil {
			return c, lineErr(line, "%v", err)
		}
		c[h], seen[h] = x, true
	}
	for h, ok := range seen {
		if !ok {
			return c, fmt.Errorf("no rate for hour %d: want 24 rows, hours 0..23", h)
		}
	}
	return c, nil
}

// WorkloadMix is a request mix: its size classes and, from a log with
// timestamps, its daily curve.
type WorkloadMix struct {
	Source   string // the file's name, set by the caller
	Requests int    // log lines, or 0 for a histogram
	Buckets  []Bucket
	// MeanPrompt and MeanOutput are the mix's request-weighted means.
	MeanPrompt, MeanOutput int
	// MaxTokens is the longest request's prompt + output (a log's
	// longest line, a fixed-length benchmark's nominal lengths); 0 where
	// the mix does not say (a histogram of class means).
	MaxTokens int
	Curve     *LoadCurve
	Days      int // days the timestamps cover
}

// sizeClass is a request's bucket: prompt up to 512, 2,048, 8,192 tokens
// or longer, times output up to 256 tokens or longer (8 classes): the
// prompt sets the prefill and the KV footprint, the output the decode
// time, so a class holds requests that load a replica alike.
func sizeClass(prompt, output int) int {
	p := 3
	for i, lim := range []int{512, 2048, 8192} {
		if prompt <= lim {
			p = i
			break
		}
	}
	o := 0
	if output > 256 {
		o = 1
	}
	return 2*p + o
}

// mix accumulates requests into size classes.
type mix struct {
	share          [8]float64
	prompt, output [8]float64 // share-weighted token sums
	totalP, totalO float64
	total          float64
	longest        int // the longest request with a share, prompt + output
}

func (m *mix) add(prompt, output int, share float64) {
	if share > 0 {
		m.longest = max(m.longest, prompt+output)
	}
	k := sizeClass(prompt, output)
	m.share[k] += share
	m.prompt[k] += share * float64(prompt)
	m.output[k] += share * float64(output)
	m.totalP += share * float64(prompt)
	m.totalO += share * float64(output)
	m.total += share
}

// finite reports whether the sums are finite numbers (maxShare keeps
// them so).
func (m *mix) finite() bool {
	sum := m.total + m.totalP + m.totalO
	return !math.IsInf(sum, 0) && !math.IsNaN(sum)
}

func (m *mix) result() (WorkloadMix, error) {
	if !m.finite() {
		return WorkloadMix{}, errors.New("the shares' sum is not a finite number")
	}
	if !(m.total > 0) {
		return WorkloadMix{}, errors.New("no requests")
	}
	var w WorkloadMix
	for k := range m.share {
		if m.share[k] > 0 {
			// A class's mean lies between its requests' token counts;
			// the bound holds it there when a share is so small (5e-324)
			// that the products round.
			b := Bucket{PromptTokens: min(int(math.Round(m.prompt[k]/m.share[k])), MaxTokens),
				OutputTokens: min(int(math.Round(m.output[k]/m.share[k])), MaxTokens), Share: m.share[k] / m.total}
			if b.PromptTokens+b.OutputTokens == 0 {
				continue
			}
			w.Buckets = append(w.Buckets, b)
		}
	}
	if len(w.Buckets) == 0 {
		return WorkloadMix{}, errors.New("every request has 0 tokens")
	}
	// A class whose mean rounds to no tokens is dropped: the others
	// share its requests.
	kept := 0.0
	for _, b := range w.Buckets {
		kept += b.Share
	}
	for i := range w.Buckets {
		w.Buckets[i].Share /= kept
	}
	w.MeanPrompt, w.MeanOutput = int(math.Round(m.totalP/m.total)), int(math.Round(m.totalO/m.total))
	w.MaxTokens = m.longest
	if w.MeanOutput == 0 {
		w.MeanOutput = 1
	}
	return w, nil
}

// ParseWorkload reads a histogram CSV, a request-log CSV or a JSONL log.
func ParseWorkload(data []byte) (WorkloadMix, error) {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return WorkloadMix{}, errors.New("empty file")
	}
	if t[0] == '{' {
		return parseJSONLog(t)
	}
	return parseWorkloadCSV(t)
}

// tokens reads a token count.
func tokens(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		if f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64); ferr == nil && f == math.Trunc(f) && f >= 0 && f <= MaxTokens {
			return int(f), nil
		}
		return 0, fmt.Errorf("%q: want a whole number of tokens", v)
	}
	if n < 0 || n > MaxTokens {
		return 0, fmt.Errorf("%d tokens: want 0..%d", n, MaxTokens)
	}
	return n, nil
}

// column finds the first of names in a header.
func column(header []string, names ...string) int {
	for _, n := range names {
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), n) {
				return i
			}
		}
	}
	return -1
}

// parseWorkloadCSV reads prompt_tokens,output_tokens[,share] with a header
// (with share: a histogram; without: one request a row, and an optional
// timestamp column).
func parseWorkloadCSV(data []byte) (WorkloadMix, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord, r.TrimLeadingSpace, r.Comment, r.ReuseRecord = -1, true, '#', true
	head, err := r.Read()
	if err != nil {
		return WorkloadMix{}, lineErr(1, "%v", err)
	}
	header := slices.Clone(head)
	// Column names of OpenAI-style exports, the Azure LLM inference
	// traces (ContextTokens, GeneratedTokens, TIMESTAMP) and BurstGPT
	// (Request tokens, Response tokens, Timestamp).
	ip := column(header, "prompt_tokens", "input_tokens", "usage.prompt_tokens", "ContextTokens", "Request tokens")
	io_ := column(header, "output_tokens", "completion_tokens", "usage.completion_tokens", "GeneratedTokens", "Response tokens")
	is := column(header, "share")
	it := column(header, "timestamp", "created", "TIMESTAMP")
	if ip < 0 || io_ < 0 {
		return WorkloadMix{}, lineErr(1, "header %q: want prompt_tokens and output_tokens columns (or input_tokens, completion_tokens)", strings.Join(header, ","))
	}
	var m mix
	var ts tsCurve
	n := 0
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return WorkloadMix{}, lineErr(line, "%v", err)
		}
		if n++; n > MaxLogRequests {
			return WorkloadMix{}, fmt.Errorf("more than %d rows", MaxLogRequests)
		}
		need := max(ip, io_, is, it)
		if len(rec) <= need {
			return WorkloadMix{}, lineErr(line, "%d fields, the header has %d", len(rec), len(header))
		}
		p, err := tokens(rec[ip])
		if err != nil {
			return WorkloadMix{}, lineErr(line, "prompt_tokens %v", err)
		}
		o, err := tokens(rec[io_])
		if err != nil {
			return WorkloadMix{}, lineErr(line, "output_tokens %v", err)
		}
		share := 1.0
		if is >= 0 {
			share, err = strconv.ParseFloat(strings.TrimSpace(rec[is]), 64)
			if err != nil || !(share >= 0) || share > maxShare {
				return WorkloadMix{}, lineErr(line, "share %q: want a number from 0 to %g", rec[is], float64(maxShare))
			}
		} else if it >= 0 {
			at, err := parseTime(rec[it])
			if err != nil {
				return WorkloadMix{}, lineErr(line, "timestamp %v", err)
			}
			ts.add(at)
		}
		if m.add(p, o, share); !m.finite() {
			return WorkloadMix{}, lineErr(line, "the shares' sum is no longer a finite number")
		}
	}
	w, err := m.result()
	if err != nil {
		return WorkloadMix{}, err
	}
	if is < 0 {
		w.Requests = n
	}
	w.Curve, w.Days = ts.curve()
	return w, nil
}

// logLine is one JSONL request: token counts at the top level or under
// usage (OpenAI-style), and an optional time.
type logLine struct {
	PromptTokens     *int            `json:"prompt_tokens"`
	InputTokens      *int            `json:"input_tokens"`
	OutputTokens     *int            `json:"output_tokens"`
	CompletionTokens *int            `json:"completion_tokens"`
	Usage            *logLine        `json:"usage"`
	Timestamp        json.RawMessage `json:"timestamp"`
	Created          json.RawMessage `json:"created"`
}

func first(ps ...*int) (int, bool) {
	for _, p := range ps {
		if p != nil {
			return *p, true
		}
	}
	return 0, false
}

// parseJSONLog reads one JSON object a line.
func parseJSONLog(data []byte) (WorkloadMix, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var m mix
	var ts tsCurve
	n := 0
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if n++; n > MaxLogRequests {
			return WorkloadMix{}, fmt.Errorf("more than %d requests", MaxLogRequests)
		}
		var l logLine
		if err := json.Unmarshal(b, &l); err != nil {
			return WorkloadMix{}, lineErr(line, "not a JSON object: %v", err)
		}
		u := &l
		if l.Usage != nil {
			u = l.Usage
		}
		p, ok := first(u.PromptTokens, u.InputTokens, l.PromptTokens, l.InputTokens)
		if !ok {
			return WorkloadMix{}, lineErr(line, "no prompt_tokens (want prompt_tokens or usage.prompt_tokens)")
		}
		o, ok := first(u.CompletionTokens, u.OutputTokens, l.CompletionTokens, l.OutputTokens)
		if !ok {
			return WorkloadMix{}, lineErr(line, "no completion_tokens (want completion_tokens, output_tokens or usage.completion_tokens)")
		}
		if p < 0 || o < 0 || p > MaxTokens || o > MaxTokens {
			return WorkloadMix{}, lineErr(line, "%d prompt, %d output tokens: want 0..%d", p, o, MaxTokens)
		}
		raw := l.Timestamp
		if len(raw) == 0 {
			raw = l.Created
		}
		if len(raw) > 0 && string(raw) != "null" {
			s := strings.Trim(string(raw), `"`)
			at, err := parseTime(s)
			if err != nil {
				return WorkloadMix{}, lineErr(line, "timestamp %v", err)
			}
			ts.add(at)
		}
		m.add(p, o, 1)
	}
	if err := sc.Err(); err != nil {
		return WorkloadMix{}, fmt.Errorf("after line %d: %v (lines are capped at 1 MiB)", n, err)
	}
	w, err := m.result()
	if err != nil {
		return WorkloadMix{}, err
	}
	w.Requests = n
	w.Curve, w.Days = ts.curve()
	return w, nil
}

// parseTime reads Unix seconds (OpenAI's "created") or RFC 3339.
func parseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if !(f >= 0 && f < 1e11) {
			return time.Time{}, fmt.Errorf("%q: want Unix seconds", s)
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q: want Unix seconds or RFC 3339 (2026-11-26T14:00:00Z)", s)
}

// tsCurve counts requests per hour of the day (UTC) and the calendar days
// they fall on.
type tsCurve struct {
	count [24]float64
	days  map[int64]bool
	n     int
}

func (t *tsCurve) add(at time.Time) {
	if t.days == nil {
		t.days = map[int64]bool{}
	}
	t.count[at.Hour()]++
	t.days[at.Unix()/86400] = true
	t.n++
}

// curve is each hour's mean rate over the days seen: requests in that
// hour / (days × 3,600 s); nil without timestamps. An assumption: every
// day the log touches is a whole day of traffic.
func (t *tsCurve) curve() (*LoadCurve, int) {
	if t.n == 0 {
		return nil, 0
	}
	d := float64(len(t.days))
	var c LoadCurve
	for h := range c {
		c[h] = t.count[h] / (d * 3600)
	}
	return &c, len(t.days)
}
