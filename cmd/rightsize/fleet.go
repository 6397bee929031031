package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"rightsize/catalog"
	"rightsize/estimator/plan"
)

// The daily fleet: "rightsize plan --load-curve CURVE [--workload FILE]"
// plans the serving fleet hour by hour over a day (plan.PlanFleet) and
// prints, for the best offers, the replicas by price model per hour, the
// monthly bill of each single price model and of the best mix, and the
// saving against all on demand; with the --own-* flags, the owned-GPU
// alternative and its break-even utilisation.

// fleetFlags are the fleet's flags (parsed by fleetQuestion).
var fleetFlags = []struct{ name, def, usage string }{
	{"load-curve", "", `serving: requests/s for each hour of the day, "r0,r1,...,r23", or a CSV file of hour,requests_per_second`},
	{"workload", "", "serving: a CSV histogram (prompt_tokens,output_tokens,share) or a request log (JSONL or CSV with prompt_tokens/output_tokens per request, OpenAI-style usage.prompt_tokens/usage.completion_tokens, optional timestamp for the load curve)"},
	{"min-replicas", "1", "fleet: fewest replicas at any hour"},
	{"fleet-offers", "3", "fleet: how many of the best offers get a fleet (0: every fitting offer)"},
	{"own-price", "", "owned GPUs: purchase price per GPU, USD"},
	{"own-watts", "", "owned GPUs: watts per GPU while busy (default: the GPU's TDP from the catalog)"},
	{"pue", "", "owned GPUs: power usage effectiveness (default 1.58, Uptime Institute 2023 average)"},
	{"kwh-price", "", "owned GPUs: electricity, USD per kWh"},
	{"depreciation-years", "", "owned GPUs: depreciation period, years"},
	{"utilisation", "", "owned GPUs: busy share of the hours, 0..1 (default: the fleet's own, mean replicas / peak)"},
}

// defineFleetFlags adds the fleet's flags (and a --no-spot switch).
func defineFleetFlags(fs *flag.FlagSet) {
	for _, f := range fleetFlags {
		if fs.Lookup(f.name) == nil {
			fs.String(f.name, f.def, f.usage)
		}
	}
	if fs.Lookup("no-spot") == nil {
		fs.Bool("no-spot", false, "fleet: keep spot out of the best mix (online serving on spot needs its spare)")
	}
}

// fleetAsked is whether the flags ask for a daily fleet.
func (c *planCmd) fleetAsked() bool { return c.s("load-curve") != "" || c.s("workload") != "" }

// Input caps: a file of a few million requests is enough for a day's
// shape; beyond that the page and the CLI refuse rather than stall.
const (
	maxFleetFileBytes = 64 << 20
	maxLogRequests    = 2_000_000
	maxTokens         = 10_000_000
)

// runFleet answers the daily question; it is run's one call.
func (c *planCmd) runFleet(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	cat := catalog.Default()
	var wl *workload
	if f := c.s("workload"); f != "" {
		if job.set["prompt-tokens"] || job.set["output-tokens"] {
			return fail("--workload gives the prompt and output tokens: drop --prompt-tokens/--output-tokens")
		}
		data, err := readCapped(f)
		if err != nil {
			return fail("--workload: %v", err)
		}
		w, err := parseWorkload(data)
		if err != nil {
			return fail("--workload %s: %v", f, err)
		}
		w.Source = f
		wl = &w
		job.prompt, job.output = w.MeanPrompt, w.MeanOutput
	}
	var curve plan.LoadCurve
	var notes []string
	switch s := c.s("load-curve"); {
	case s != "":
		var err error
		if curve, err = parseLoadCurve(s); err != nil {
			return fail("--load-curve: %v", err)
		}
		if c.s("requests-per-second") != "" {
			notes = append(notes, "--requests-per-second is replaced by the load curve's peak")
		}
	case wl != nil && wl.Curve != nil:
		curve = *wl.Curve
	case c.s("requests-per-second") != "":
		rps, err := strconv.ParseFloat(c.s("requests-per-second"), 64)
		if err != nil || !(rps > 0) || math.IsInf(rps, 0) {
			return fail("--requests-per-second %q: want a rate > 0", c.s("requests-per-second"))
		}
		for h := range curve {
			curve[h] = rps // a flat day
		}
	default:
		return fail("--workload %s has no timestamps: give --load-curve or --requests-per-second", c.s("workload"))
	}
	if err := curve.Validate(); err != nil {
		return fail("--load-curve: %v", err)
	}
	// The peak plan ranks the offers at the curve's busiest hour.
	if err := c.fs.Set("requests-per-second", strconv.FormatFloat(curve.Peak(), 'g', -1, 64)); err != nil {
		return fail("%v", err)
	}
	req, err := c.request(job, cat)
	if err != nil {
		return fail("%v", err)
	}
	if req.Workload.Kind != plan.Serving {
		return fail("--load-curve and --workload plan serving: drop --requests and the training flags")
	}
	fo := plan.FleetOptions{Curve: curve, NoSpot: c.s("no-spot") == "true"}
	for _, x := range []struct {
		name string
		to   *int
	}{{"min-replicas", &fo.MinReplicas}, {"fleet-offers", &fo.Rows}} {
		n, err := strconv.Atoi(c.s(x.name))
		if err != nil || n < 0 || n > 1<<16 {
			return fail("--%s %q: want a whole number 0..65536", x.name, c.s(x.name))
		}
		*x.to = n
	}
	if wl != nil && len(wl.Buckets) > 1 {
		fo.Buckets = wl.Buckets
	}
	maxInst, _ := strconv.Atoi(c.s("max-instances"))
	opts := plan.Options{MaxInstances: maxInst}
	res, err := plan.PlanFleet(req, cat.PlanOffersAt(req.Input.Weights, now()), opts, fo)
	if err != nil {
		return fail("%v", err)
	}
	own, err := c.ownedInputs()
	if err != nil {
		return fail("%v", err)
	}
	out := newPlanJSON(req, res.Peak, cat)
	out.Notes = append(out.Notes, notes...)
	top, _ := strconv.Atoi(c.s("top"))
	if top > 0 && len(out.Rows) > top {
		out.Rows = out.Rows[:top]
	}
	fj, err := newFleetJSON(res, fo, wl, own, cat)
	if err != nil {
		return fail("%v", err)
	}
	out.Fleet = &fj
	if c.s("format") == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "Note: "+n+".")
	}
	writeFleet(stdout, fj)
	return 0
}

// readCapped reads a file of at most maxFleetFileBytes.
func readCapped(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFleetFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFleetFileBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", name, maxFleetFileBytes>>20)
	}
	return data, nil
}

// parseLoadCurve reads 24 comma-separated rates, or a file of them.
func parseLoadCurve(s string) (plan.LoadCurve, error) {
	if strings.Count(s, ",") == 23 && !fileExists(s) {
		return parseCurveList(s)
	}
	data, err := readCapped(s)
	if err != nil {
		return plan.LoadCurve{}, err
	}
	return parseCurveCSV(data)
}

func fileExists(s string) bool {
	_, err := os.Stat(s)
	return err == nil
}

// parseCurveList reads "r0,r1,...,r23".
func parseCurveList(s string) (plan.LoadCurve, error) {
	var c plan.LoadCurve
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
	if err != nil || !(x >= 0) || x > maxRequestsPerSecond {
		return 0, fmt.Errorf("%q: want requests/s from 0 to %g", strings.TrimSpace(v), float64(maxRequestsPerSecond))
	}
	return x, nil
}

// parseCurveCSV reads "hour,requests_per_second" rows, hours 0–23 each
// once, with or without that header.
func parseCurveCSV(data []byte) (plan.LoadCurve, error) {
	var c plan.LoadCurve
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
			return c, fmt.Errorf("line %d: %v", line, err)
		}
		if len(rec) != 2 {
			return c, fmt.Errorf("line %d: %d fields, want hour,requests_per_second", line, len(rec))
		}
		if line == 1 && strings.EqualFold(strings.TrimSpace(rec[0]), "hour") {
			continue
		}
		h, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || h < 0 || h > 23 {
			return c, fmt.Errorf("line %d: hour %q: want 0..23", line, rec[0])
		}
		if seen[h] {
			return c, fmt.Errorf("line %d: hour %d given twice", line, h)
		}
		x, err := parseRate(rec[1])
		if err != nil {
			return c, fmt.Errorf("line %d: %v", line, err)
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

// workload is a request mix: its size classes and, from a log with
// timestamps, its daily curve.
type workload struct {
	Source   string
	Requests int // log lines, or 0 for a histogram
	Buckets  []plan.Bucket
	// MeanPrompt and MeanOutput are the mix's request-weighted means.
	MeanPrompt, MeanOutput int
	Curve                  *plan.LoadCurve
	Days                   int // days the timestamps cover
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
}

func (m *mix) add(prompt, output int, share float64) {
	k := sizeClass(prompt, output)
	m.share[k] += share
	m.prompt[k] += share * float64(prompt)
	m.output[k] += share * float64(output)
	m.totalP += share * float64(prompt)
	m.totalO += share * float64(output)
	m.total += share
}

func (m *mix) workload() (workload, error) {
	if !(m.total > 0) {
		return workload{}, errors.New("no requests")
	}
	var w workload
	for k := range m.share {
		if m.share[k] > 0 {
			b := plan.Bucket{PromptTokens: int(math.Round(m.prompt[k] / m.share[k])), OutputTokens: int(math.Round(m.output[k] / m.share[k])),
				Share: m.share[k] / m.total}
			if b.PromptTokens+b.OutputTokens == 0 {
				continue
			}
			w.Buckets = append(w.Buckets, b)
		}
	}
	if len(w.Buckets) == 0 {
		return workload{}, errors.New("every request has 0 tokens")
	}
	w.MeanPrompt, w.MeanOutput = int(math.Round(m.totalP/m.total)), int(math.Round(m.totalO/m.total))
	if w.MeanOutput == 0 {
		w.MeanOutput = 1
	}
	return w, nil
}

// parseWorkload reads a histogram CSV, a request-log CSV or a JSONL log.
func parseWorkload(data []byte) (workload, error) {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return workload{}, errors.New("empty file")
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
		if f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64); ferr == nil && f == math.Trunc(f) && f >= 0 && f <= maxTokens {
			return int(f), nil
		}
		return 0, fmt.Errorf("%q: want a whole number of tokens", v)
	}
	if n < 0 || n > maxTokens {
		return 0, fmt.Errorf("%d tokens: want 0..%d", n, maxTokens)
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
func parseWorkloadCSV(data []byte) (workload, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord, r.TrimLeadingSpace, r.Comment, r.ReuseRecord = -1, true, '#', true
	head, err := r.Read()
	if err != nil {
		return workload{}, fmt.Errorf("line 1: %v", err)
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
		return workload{}, fmt.Errorf("line 1: header %q: want prompt_tokens and output_tokens columns (or input_tokens, completion_tokens)", strings.Join(header, ","))
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
			return workload{}, fmt.Errorf("line %d: %v", line, err)
		}
		if n++; n > maxLogRequests {
			return workload{}, fmt.Errorf("more than %d rows", maxLogRequests)
		}
		need := max(ip, io_, is, it)
		if len(rec) <= need {
			return workload{}, fmt.Errorf("line %d: %d fields, the header has %d", line, len(rec), len(header))
		}
		p, err := tokens(rec[ip])
		if err != nil {
			return workload{}, fmt.Errorf("line %d: prompt_tokens %v", line, err)
		}
		o, err := tokens(rec[io_])
		if err != nil {
			return workload{}, fmt.Errorf("line %d: output_tokens %v", line, err)
		}
		share := 1.0
		if is >= 0 {
			share, err = strconv.ParseFloat(strings.TrimSpace(rec[is]), 64)
			if err != nil || !(share >= 0) || math.IsInf(share, 0) {
				return workload{}, fmt.Errorf("line %d: share %q: want a number ≥ 0", line, rec[is])
			}
		} else if it >= 0 {
			at, err := parseTime(rec[it])
			if err != nil {
				return workload{}, fmt.Errorf("line %d: timestamp %v", line, err)
			}
			ts.add(at)
		}
		m.add(p, o, share)
	}
	w, err := m.workload()
	if err != nil {
		return workload{}, err
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
func parseJSONLog(data []byte) (workload, error) {
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
		if n++; n > maxLogRequests {
			return workload{}, fmt.Errorf("more than %d requests", maxLogRequests)
		}
		var l logLine
		if err := json.Unmarshal(b, &l); err != nil {
			return workload{}, fmt.Errorf("line %d: not a JSON object: %v", line, err)
		}
		u := &l
		if l.Usage != nil {
			u = l.Usage
		}
		p, ok := first(u.PromptTokens, u.InputTokens, l.PromptTokens, l.InputTokens)
		if !ok {
			return workload{}, fmt.Errorf("line %d: no prompt_tokens (want prompt_tokens or usage.prompt_tokens)", line)
		}
		o, ok := first(u.CompletionTokens, u.OutputTokens, l.CompletionTokens, l.OutputTokens)
		if !ok {
			return workload{}, fmt.Errorf("line %d: no completion_tokens (want completion_tokens, output_tokens or usage.completion_tokens)", line)
		}
		if p < 0 || o < 0 || p > maxTokens || o > maxTokens {
			return workload{}, fmt.Errorf("line %d: %d prompt, %d output tokens: want 0..%d", line, p, o, maxTokens)
		}
		raw := l.Timestamp
		if len(raw) == 0 {
			raw = l.Created
		}
		if len(raw) > 0 && string(raw) != "null" {
			s := strings.Trim(string(raw), `"`)
			at, err := parseTime(s)
			if err != nil {
				return workload{}, fmt.Errorf("line %d: timestamp %v", line, err)
			}
			ts.add(at)
		}
		m.add(p, o, 1)
	}
	if err := sc.Err(); err != nil {
		return workload{}, fmt.Errorf("after line %d: %v (lines are capped at 1 MiB)", n, err)
	}
	w, err := m.workload()
	if err != nil {
		return workload{}, err
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
func (t *tsCurve) curve() (*plan.LoadCurve, int) {
	if t.n == 0 {
		return nil, 0
	}
	d := float64(len(t.days))
	var c plan.LoadCurve
	for h := range c {
		c[h] = t.count[h] / (d * 3600)
	}
	return &c, len(t.days)
}

// ownedInputs reads the --own-* flags; nil when --own-price is not given.
func (c *planCmd) ownedInputs() (*plan.Owned, error) {
	if c.s("own-price") == "" {
		for _, n := range []string{"own-watts", "pue", "kwh-price", "depreciation-years", "utilisation"} {
			if c.s(n) != "" {
				return nil, fmt.Errorf("--%s needs --own-price", n)
			}
		}
		return nil, nil
	}
	o := &plan.Owned{}
	for _, f := range []struct {
		name     string
		to       *float64
		required bool
	}{{"own-price", &o.PriceUSD, true}, {"own-watts", &o.Watts, false}, {"pue", &o.PUE, false},
		{"kwh-price", &o.KWhUSD, true}, {"depreciation-years", &o.DepreciationYears, true}, {"utilisation", &o.Utilisation, false}} {
		s := c.s(f.name)
		if s == "" {
			if f.required {
				return nil, fmt.Errorf("--own-price needs --%s (no sourced default)", f.name)
			}
			continue
		}
		v, err := parseAmount(s)
		if err != nil {
			return nil, fmt.Errorf("--%s: %v", f.name, err)
		}
		*f.to = v
	}
	return o, nil
}
