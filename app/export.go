package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// Export: the plan and the offers as CSV and JSON downloads, and a
// Markdown table of the breakdown and the top offers for internal docs.
// Everything is made in the page; nothing is sent anywhere.

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
	// The price's freshness: its date is an estimate; it is older than
	// the freshness window, undated or estimated (planner.Row.Stale); it
	// is under half what the other providers ask for the GPU.
	AsOfEstimated  bool `json:"as_of_estimated"`
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
func (c *Calculator) exportRows() []exportOffer {
	unit := c.ps.out.Currency + " per job"
	if c.ps.out.Kind == planner.Serving {
		unit = c.ps.out.Currency + " per month"
	}
	row := func(kind string, x page.Candidate) exportOffer {
		return exportOffer{
			Pick: kind, OfferID: x.Offer.ID, Provider: x.Offer.Provider, InstanceType: x.Offer.InstanceType,
			GPU: x.Offer.GPU, GPUs: x.Plan.GPUs, Split: splitText(x.Plan), OnDemandPerHour: x.Offer.OnDemandPerHour,
			Currency: x.Offer.Currency, Cost: round4(x.Cost), CostUnit: unit, Seconds: round4(x.Seconds),
			AsOf: x.Offer.AsOf, Source: x.Offer.Source,
			AsOfEstimated: x.Offer.AsOfEstimated, Stale: x.Stale, FarBelowMedian: x.Offer.FarBelowMedian,
		}
	}
	var out []exportOffer
	for _, p := range c.ps.out.Picks {
		out = append(out, row(p.Kind.String(), p.Candidate))
	}
	for _, x := range c.ps.out.Cands {
		out = append(out, row("", x))
	}
	return out
}

func round4(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return f
}

func (c *Calculator) exportJSON() string {
	d := exportDoc{
		Model: c.job.Model.ID, Task: c.job.In.Task.String(), Precision: c.job.In.Weights.String(),
		GPU: c.job.GPU.ID, GPUs: c.job.In.GPUs, TotalBytes: int64(c.r.Res.PerGPU.Total()), PeakBytes: int64(c.r.Res.Peak), Fits: c.r.Res.Fits,
		Link: c.link().Encode(page.DefaultState), Offers: c.exportRows(),
		Estimate: "Estimates from Rightsize's sourced formulas and dated catalog prices; not quotes.",
	}
	b, _ := json.MarshalIndent(d, "", "  ")
	return string(b)
}

func (c *Calculator) exportCSV() string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"pick", "offer_id", "provider", "instance_type", "gpu", "gpus", "split", "on_demand_per_hour", "currency", "cost", "cost_unit", "seconds", "as_of", "source",
		"as_of_estimated", "stale", "far_below_median"})
	for _, o := range c.exportRows() {
		t := csvText
		w.Write([]string{t(o.Pick), t(o.OfferID), t(o.Provider), t(o.InstanceType), t(o.GPU), strconv.Itoa(o.GPUs), t(o.Split),
			strconv.FormatFloat(o.OnDemandPerHour, 'f', -1, 64), t(o.Currency), strconv.FormatFloat(o.Cost, 'f', -1, 64),
			t(o.CostUnit), strconv.FormatFloat(o.Seconds, 'f', -1, 64), t(o.AsOf), t(o.Source),
			strconv.FormatBool(o.AsOfEstimated), strconv.FormatBool(o.Stale), strconv.FormatBool(o.FarBelowMedian)})
	}
	w.Flush()
	return b.String()
}

// csvText neutralises a text cell a spreadsheet would run as a formula
// (OWASP "CSV injection"): one starting with =, +, -, @, a tab or a
// carriage return gets a leading apostrophe, which spreadsheets show as
// text. A price sheet's source or instance_type, or a shared link's
// custom names, reach these cells; the numbers written by the page are
// not text cells and stay as they are.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// mdEscape makes text safe in a Markdown table cell: a pipe would end the
// cell, HTML would reach a wiki raw (a custom model's name comes from the
// link), and link, image, emphasis and code marks would be read as such;
// a line break would end the table.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
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
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// exportMarkdown is the breakdown and the top offers as Markdown tables,
// in the page's language. The picks' figures are labelled by what the
// planner priced: a monthly bill and a p95 time for serving, the batch's
// cost and time, or the job's.
func (c *Calculator) exportMarkdown() string {
	var b strings.Builder
	l := c.loc()
	e := mdEscape
	row := func(cells ...string) {
		for _, x := range cells {
			b.WriteString("| " + e(x) + " ")
		}
		b.WriteString("|\n")
	}
	b.WriteString("### " + e(c.t(page.MsgPerGPU)+" · "+c.modelName()+" · "+c.job.GPU.Name) + "\n\n")
	row(c.t(page.MsgPart), c.t(page.MsgMemory), c.t(page.MsgUncertainty))
	b.WriteString("|---|---:|---:|\n")
	for _, p := range c.partViews() {
		row(p.Name, p.Value, p.Band)
	}
	b.WriteString("| **" + e(c.t(page.MsgTotal)) + "** | **" + e(l.Bytes(c.r.Res.PerGPU.Total())) + "** | " +
		e(l.BytesRange(c.r.Res.Confidence.Low, c.r.Res.Confidence.High)) + " |\n")
	if c.r.Res.PeakPhase == estimator.PhaseLoad {
		row(c.t(page.MsgLoadPeak), l.Bytes(c.r.Res.Peak), "")
	}
	b.WriteString("\n")
	if len(c.ps.out.Picks) > 0 {
		b.WriteString("| ")
		row(c.t(page.MsgGPU), c.t(page.MsgProvider), c.planCostHeader(), c.planTimeHeader(), c.t(page.MsgAsOfSource))
		b.WriteString("|---|---|---|---:|---:|---|\n")
		for _, p := range c.pickViews() {
			price := p.Price.AsOf() + " · " + p.Price.Source
			for _, w := range []string{p.Price.Verify, p.Price.FarBelow} {
				if w != "" {
					price += "; " + w
				}
			}
			row(p.Title, p.What, p.Where, p.Cost, p.Time, price)
		}
		b.WriteString("\n")
	}
	b.WriteString("_" + e(c.t(page.MsgPricesNote)) + "_\n")
	return b.String()
}

func (c *Calculator) renderExport() app.UI {
	if !c.r.OK {
		return app.Text("")
	}
	return app.Section().Class("rs-export").Body(
		app.H2().Text(c.t(page.MsgExportTitle)),
		app.Div().Class("rs-actions").Body(
			app.Button().Class("rs-more").ID("rs-export-csv").OnClick(c.onExportCSV).Text(c.t(page.MsgExportCSV)),
			app.Button().Class("rs-more").ID("rs-export-json").OnClick(c.onExportJSON).Text(c.t(page.MsgExportJSON)),
			app.Button().Class("rs-more").ID("rs-copy-markdown").OnClick(c.onCopyMarkdown).Text(c.t(page.MsgCopyMarkdown)),
		),
		app.If(c.copied == page.MsgCopyMarkdown, func() app.UI {
			return app.P().Class("rs-ok").ID("rs-markdown-copied").Text(c.t(page.MsgMarkdownCopied))
		}),
	)
}

func (c *Calculator) onExportCSV(ctx app.Context, e app.Event) {
	download("rightsize-plan.csv", "text/csv", c.exportCSV())
}

func (c *Calculator) onExportJSON(ctx app.Context, e app.Event) {
	download("rightsize-plan.json", "application/json", c.exportJSON())
}

func (c *Calculator) onCopyMarkdown(ctx app.Context, e app.Event) {
	c.copyOrDownload(ctx, page.MsgCopyMarkdown, c.exportMarkdown(), "rightsize-plan.md", "text/markdown")
}

// copyOrDownload puts text on the clipboard and records which button did
// (Calculator.copied); where the clipboard is missing or refuses, it saves
// text as the file name instead.
func (c *Calculator) copyOrDownload(ctx app.Context, button page.MsgKey, text, name, mime string) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		download(name, mime, text)
		return
	}
	settle(ctx, clip.Call("writeText", text),
		func(ctx app.Context, _ app.Value) { c.copied = button },
		func(ctx app.Context) { download(name, mime, text) })
}

// download saves text as a file through a blob: URL (same origin, allowed
// by the page's Content-Security-Policy).
func download(name, mime, text string) {
	w := app.Window()
	blob := w.Get("Blob").New([]any{text}, map[string]any{"type": mime + ";charset=utf-8"})
	u := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	a.Call("click")
	w.Get("URL").Call("revokeObjectURL", u)
}

// heightObserved is set once the page's one ResizeObserver watches its
// height: each navigation in embed mode calls watchHeight again, and
// added an observer (and a Go callback that is never released) each time.
var heightObserved bool

// watchHeight reports the page's height to the embedding page, now and on
// every change of size, so a docs page can size the iframe:
// {type: "rightsize:height", height: <px>}.
func (c *Calculator) watchHeight(ctx app.Context) {
	w := app.Window()
	parent := w.Get("parent")
	if !parent.Truthy() {
		return
	}
	body := w.Get("document").Get("body")
	post := func() {
		h := body.Get("scrollHeight").Int()
		parent.Call("postMessage", map[string]any{"type": "rightsize:height", "height": h}, "*")
	}
	ro := w.Get("ResizeObserver")
	if ro.Truthy() && !heightObserved {
		heightObserved = true
		cb := app.FuncOf(func(this app.Value, args []app.Value) any { post(); return nil })
		ro.New(cb).Call("observe", body)
	}
	post()
}
