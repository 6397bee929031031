package page

// Export: the plan and the offers as CSV and JSON, and a Markdown table of
// the breakdown and the top offers for internal docs. Everything is made
// in the page; nothing is sent anywhere.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// exportOffer is one row of the exports (numbers unformatted, so a
// spreadsheet can compute with them).
type exportOffer struct {
	Pick            string  `json:"pick,omitempty"`
	OfferID         string  `json:"offer_id"`
	Provider        string  `json:"provider"`
	InstanceType    string  `json:"instance_type"`
	GPU             string  `json:"gpu"`
	GPUs            int     `json:"gpus"`
	Split           string  `json:"split"`
	OnDemandPerHour float64 `json:"on_demand_per_hour"`
	Currency        string  `json:"currency"`
	Cost            float64 `json:"cost"`
	CostUnit        string  `json:"cost_unit"`
	Seconds         float64 `json:"seconds"`
	AsOf            string  `json:"as_of"`
	Source          string  `json:"source"`
	// The price's freshness: its date is an estimate; that estimate is
	// the earliest the price can date from (catalog.Offer.AsOfLowerBound,
	// SkyPilot's v9 files: the price is at most its age old; the CLI's
	// plan --json as_of_lower_bound, its table's "≥2026-07-09"); it is
	// older than the freshness window, undated or estimated without such
	// a bound (planner.Row.Stale); it is under half what the other
	// providers ask for the GPU. Every flag is written, false included,
	// so a sheet's column reads the same on every row.
	AsOfEstimated  bool `json:"as_of_estimated"`
	AsOfLowerBound bool `json:"as_of_lower_bound"`
	Stale          bool `json:"stale"`
	FarBelowMedian bool `json:"far_below_median"`
}

type exportDoc struct {
	Model      string        `json:"model"`
	Task       string        `json:"task"`
	Precision  string        `json:"precision"`
	GPU        string        `json:"gpu"`
	GPUs       int           `json:"gpus"`
	TotalBytes int64         `json:"memory_per_gpu_bytes"` // the step's, as the breakdown's total
	PeakBytes  int64         `json:"peak_bytes"`           // the most at any time, what fits is judged on
	Fits       bool          `json:"fits"`
	Link       string        `json:"link_fragment"`
	Offers     []exportOffer `json:"offers"`
	Estimate   string        `json:"note"`
}

// exportRows are the recommendation's picks, then every candidate offer.
func exportRows(in *ViewIn) []exportOffer {
	unit := in.Plan.Currency + " per job"
	if in.Plan.Kind == planner.Serving {
		unit = in.Plan.Currency + " per month"
	}
	row := func(kind string, x Candidate) exportOffer {
		return exportOffer{
			Pick: kind, OfferID: x.Offer.ID, Provider: x.Offer.Provider, InstanceType: x.Offer.InstanceType,
			GPU: x.Offer.GPU, GPUs: x.Plan.GPUs, Split: SplitText(x.Plan), OnDemandPerHour: x.Offer.OnDemandPerHour,
			Currency: x.Offer.Currency, Cost: round4(x.Cost), CostUnit: unit, Seconds: round4(x.Seconds),
			AsOf: x.Offer.AsOf, Source: x.Offer.Source,
			AsOfEstimated: x.Offer.AsOfEstimated, AsOfLowerBound: x.Offer.AsOfLowerBound, Stale: x.Stale, FarBelowMedian: x.Offer.FarBelowMedian,
		}
	}
	var out []exportOffer
	for _, p := range in.Plan.Picks {
		out = append(out, row(p.Kind.String(), p.Candidate))
	}
	for _, x := range in.Plan.Cands {
		out = append(out, row("", x))
	}
	return out
}

func round4(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return f
}

// ExportJSON is the job, its memory and every plan as JSON; link is the
// view's fragment.
func ExportJSON(in ViewIn, link string) string {
	d := exportDoc{
		Model: in.Job.Model.ID, Task: in.Job.In.Task.String(), Precision: in.Job.In.Weights.String(),
		GPU: in.Job.GPU.ID, GPUs: in.Job.In.GPUs, TotalBytes: int64(in.R.Res.PerGPU.Total()), PeakBytes: int64(in.R.Res.Peak), Fits: in.R.Res.Fits,
		Link: link, Offers: exportRows(&in),
		Estimate: "Estimates from Rightsize's sourced formulas and dated catalog prices; not quotes.",
	}
	b, _ := json.MarshalIndent(d, "", "  ")
	return string(b)
}

// ExportCSV is every plan as CSV, the picks first.
func ExportCSV(in ViewIn) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"pick", "offer_id", "provider", "instance_type", "gpu", "gpus", "split", "on_demand_per_hour", "currency", "cost", "cost_unit", "seconds", "as_of", "source",
		"as_of_estimated", "as_of_lower_bound", "stale", "far_below_median"})
	for _, o := range exportRows(&in) {
		t := CSVText
		w.Write([]string{t(o.Pick), t(o.OfferID), t(o.Provider), t(o.InstanceType), t(o.GPU), strconv.Itoa(o.GPUs), t(o.Split),
			strconv.FormatFloat(o.OnDemandPerHour, 'f', -1, 64), t(o.Currency), strconv.FormatFloat(o.Cost, 'f', -1, 64),
			t(o.CostUnit), strconv.FormatFloat(o.Seconds, 'f', -1, 64), t(o.AsOf), t(o.Source),
			strconv.FormatBool(o.AsOfEstimated), strconv.FormatBool(o.AsOfLowerBound), strconv.FormatBool(o.Stale), strconv.FormatBool(o.FarBelowMedian)})
	}
	w.Flush()
	return b.String()
}

// CSVText neutralises a text cell a spreadsheet would run as a formula
// (OWASP "CSV Injection", owasp.org/www-community/attacks/CSV_Injection):
// one starting with =, +, -, @, a tab, a carriage return or a line feed
// (the line feed added to OWASP's list on 2025-08-01, OWASP/www-community
// pull request 1116) is prefixed with an apostrophe, which spreadsheets
// show as text, rather than refused: the cell keeps every character of
// the name it stands for. A price sheet's free-text source, or a shared
// link's custom names, reach these cells; a number the page or the CLI
// writes is not a text cell and stays as it is.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune(csvFormulaStarts, rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVCell is CSVText for a cell that may hold a number written as text
// (the CLI's table cells): a finite number ("-0.5", "1e3") is not a
// formula and stays as it is; anything else is text.
func CSVCell(s string) string {
	if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
		return s
	}
	return CSVText(s)
}

// csvFormulaStarts are the first characters of a cell that Excel, Sheets
// or LibreOffice may read as a formula (OWASP's list, above).
const csvFormulaStarts = "=+-@\t\r\n"

// MDEscape makes text safe in a Markdown table cell: a pipe would end the
// cell, HTML would reach a wiki raw (a custom model's name comes from the
// link), and link, image, emphasis and code marks would be read as such;
// a line break would end the table. A name that reads as a web address
// ("https://x.example/login", "www.x.example") would become a link under
// GitHub's autolink extension (GFM spec, "Autolinks (extension)"): the
// slashes after its "://" and the dot after its "www" are escaped, which
// cmark-gfm 0.29 shows as the same text, unlinked. An e-mail address stays
// one: cmark-gfm links it whatever is escaped, to the address it shows.
func MDEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '|', '`', '*', '_', '[', ']', '!', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\r', '\n':
			b.WriteByte(' ')
		case '/':
			if strings.HasSuffix(s[:i], ":") || strings.HasSuffix(s[:i], ":/") {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '.':
			if len(s[:i]) >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ExportMarkdown is the breakdown and the top offers as Markdown tables,
// in the page's language. The picks' figures are labelled by what the
// planner priced: a monthly bill and a p95 time for serving, the batch's
// cost and time, or the job's.
func ExportMarkdown(in ViewIn) string {
	var b strings.Builder
	l := Locale{Lang: in.lang(), Units: in.Job.Units}
	e := MDEscape
	row := func(cells ...string) {
		for _, x := range cells {
			b.WriteString("| " + e(x) + " ")
		}
		b.WriteString("|\n")
	}
	b.WriteString("### " + e(l.T(MsgPerGPU)+" · "+ModelName(l, in.Job, in.CustomName)+" · "+in.Job.GPU.Name) + "\n\n")
	row(l.T(MsgPart), l.T(MsgMemory), l.T(MsgUncertainty))
	b.WriteString("|---|---:|---:|\n")
	for _, p := range Parts(l, in.R.Res, in.Job.GPU.Vendor) {
		row(p.Name, p.Value, p.Band)
	}
	b.WriteString("| **" + e(l.T(MsgTotal)) + "** | **" + e(l.Bytes(in.R.Res.PerGPU.Total())) + "** | " +
		e(l.BytesRange(in.R.Res.Confidence.Low, in.R.Res.Confidence.High)) + " |\n")
	switch {
	case in.R.Res.PeakPhase == estimator.PhaseLoad:
		row(l.T(MsgLoadPeak), l.Bytes(in.R.Res.Peak), "")
	case in.R.Res.PeakPhase == estimator.PhaseBackwardEnd:
		row(l.T(MsgBackwardEndPeak), l.Bytes(in.R.Res.Peak), "")
	case in.R.Res.PeakPhase == estimator.PhaseOptimizerStep:
		row(l.T(MsgOptimizerStepPeak), l.Bytes(in.R.Res.Peak), "")
	case in.R.Res.AllocatorCache > 0:
		row(l.T(MsgNeeded), l.Bytes(in.R.Res.Peak), "")
	}
	b.WriteString("\n")
	if len(in.Plan.Picks) > 0 {
		b.WriteString("| ")
		row(l.T(MsgGPU), l.T(MsgProvider), in.Plan.PlanCostHeader(l), in.Plan.PlanTimeHeader(l), l.T(MsgAsOfSource))
		b.WriteString("|---|---|---|---:|---:|---|\n")
		for _, p := range PickViews(in) {
			price := p.Price.AsOf() + " · " + p.Price.Source
			for _, w := range []string{p.Price.Verify, p.Price.Caveat} {
				if w != "" {
					price += "; " + w
				}
			}
			row(p.Title, p.What, p.Where, p.Cost, p.Time, price)
		}
		b.WriteString("\n")
	}
	b.WriteString("_" + e(l.T(MsgPricesNote)) + "_\n")
	return b.String()
}
