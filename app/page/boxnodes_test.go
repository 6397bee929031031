package page

import "testing"

// TestBoxNodes: the "Run it" box's error path leaves out the settings and
// their copy button; its disaggregated launch comes with the router's
// slot; the export's buttons name what they copy or save.
func TestBoxNodes(t *testing.T) {
	n := LaunchNode("en", &LaunchView{Shown: true, Err: "no pick"}, false)
	if e, ok := find(n, byID("rs-launch-error")); !ok || e.Text != "no pick" {
		t.Errorf("error %+v", e)
	}
	if _, ok := find(n, byID("rs-copy-launch")); ok || n.ID != "rs-launch" {
		t.Errorf("an error's box %+v", n)
	}
	n = LaunchNode("en", &LaunchView{Shown: true, Text: "vllm serve", DisaggText: "x", DisaggTitle: "Disaggregated"}, true)
	if got := slots(n); len(got) != 2 || got[0] != "kind" || got[1] != "router" {
		t.Errorf("slots %v", got)
	}
	if c, ok := find(n, byID("rs-copy-launch-disagg")); !ok || c.Kind != NodeCopy || Copy(c.Cmp) != CopyLaunchDisagg {
		t.Errorf("disaggregated copy %+v", c)
	}
	if _, ok := find(n, byID("rs-launch-copied")); !ok {
		t.Error("copied: no note")
	}
	if n := LaunchNode("en", &LaunchView{}, false); n.Tag != "" {
		t.Errorf("a hidden box renders %+v", n)
	}
	n = ExportNode("en", false)
	if c, ok := find(n, byID("rs-export-json")); !ok || Copy(c.Cmp) != SaveJSON {
		t.Errorf("JSON button %+v", c)
	}
	if _, ok := find(n, byID("rs-markdown-copied")); ok {
		t.Error("a copied note before a copy")
	}
	if n := BenchNode("en", &BenchView{Shown: true, Status: "fitted", StatusOK: true}); n.ID != "rs-benchmark" {
		t.Errorf("bench %+v", n)
	} else if s, _ := find(n, byID("rs-calibration-status")); s.Class != "rs-ok" {
		t.Errorf("status %+v", s)
	}
	if n := LinkNoteNode("en", nil, nil); n.Tag != "" {
		t.Errorf("a link without notes renders %+v", n)
	}
	if n := FooterNode("en", "prices as of 2026-11-01"); len(n.Kids) != 2 || n.Kids[1].ID != "rs-fresh" {
		t.Errorf("footer %+v", n)
	}
}
