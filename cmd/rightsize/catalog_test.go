//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
)

func init() {
	now = func() time.Time { return time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC) }
}

func runCLI(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// copyFixture copies testdata/catalog into a temporary directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"gpus.json", "models.json", "providers.json", "offers.json", "fx.json", "hosted_apis.json"} {
		b, err := os.ReadFile(filepath.Join("testdata/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCatalogValidateEmbedded(t *testing.T) {
	out, errOut, code := runCLI("catalog", "validate")
	if code != 0 || !strings.HasPrefix(out, "catalog ok:") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCatalogValidateRejects(t *testing.T) {
	dir := copyFixture(t)
	p := filepath.Join(dir, "offers.json")
	b, _ := os.ReadFile(p)
	b = bytes.Replace(b, []byte(`"on_demand_per_hour": 21.957642,`), []byte(`"on_demand_per_hour": 21.96, "spot_per_hour": 40.1,`), 1)
	os.WriteFile(p, b, 0o644)
	_, errOut, code := runCLI("catalog", "validate", "-dir", dir)
	want := "catalog: offers.json: entry 1 (aws-p4d.24xlarge): spot_per_hour 40.1 > on_demand_per_hour 21.96\n"
	if code != 2 || errOut != want {
		t.Errorf("code %d, stderr %q; want 2, %q", code, errOut, want)
	}
}

func TestCatalogStatsJSON(t *testing.T) {
	out, _, code := runCLI("catalog", "stats", "--json")
	var s struct {
		GPUs, Models, Providers, Offers int
		Oldest                          string         `json:"oldest_as_of"`
		Newest                          string         `json:"newest_as_of"`
		FXAsOf                          string         `json:"fx_as_of"`
		Reserved3y                      []string       `json:"providers_with_reserved_3y"`
		ByAge                           map[string]int `json:"offers_by_age"`
		ByProvider                      []struct {
			ID          string         `json:"id"`
			Offers      int            `json:"offers"`
			OffersByAge map[string]int `json:"offers_by_age"`
		} `json:"by_provider"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
		t.Fatalf("code %d, output %q", code, out)
	}
	c := catalog.Default()
	// The oldest and newest price are over offers (a provider record with
	// no offers dates nothing).
	oldest, newest := c.Offers[0].AsOf, c.Offers[0].AsOf
	for _, o := range c.Offers {
		oldest, newest = min(oldest, o.AsOf), max(newest, o.AsOf)
	}
	if s.GPUs != len(c.GPUs) || s.Models != len(c.Models) || s.Providers != len(c.Providers) || s.Offers != len(c.Offers) ||
		s.Oldest != oldest || s.Newest != newest {
		t.Errorf("stats %+v disagree with the embedded tables", s)
	}
	if s.FXAsOf == "" || len(s.Reserved3y) < 3 || len(s.ByProvider) != len(c.Providers) {
		t.Errorf("stats: fx %q, 3-year commitments from %v, %d providers", s.FXAsOf, s.Reserved3y, len(s.ByProvider))
	}
	n := 0
	for _, p := range s.ByProvider {
		for _, k := range p.OffersByAge {
			n += k
		}
	}
	if n != s.Offers {
		t.Errorf("per-provider age buckets hold %d of %d offers", n, s.Offers)
	}
}

func TestCatalogExportJSON(t *testing.T) {
	out, _, code := runCLI("catalog", "export", "--json")
	var e struct {
		Schema string
		GPUs   []map[string]any `json:"gpus"`
		Offers []map[string]any `json:"offers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &e) != nil {
		t.Fatalf("code %d", code)
	}
	if e.Schema != "rightsize-catalog/v1" || len(e.Offers) != len(catalog.Default().Offers) {
		t.Errorf("schema %q, %d offers", e.Schema, len(e.Offers))
	}
	if _, ok := e.GPUs[0]["memory_bandwidth_bytes_per_second"]; !ok {
		t.Errorf("gpu keys: %v", e.GPUs[0])
	}
}

func TestCatalogBadArgs(t *testing.T) {
	for _, args := range [][]string{
		{"catalog"}, {"catalog", "frobnicate"}, {"catalog", "stats", "-nope"},
		{"catalog", "import-prices"}, {"catalog", "validate", "extra"}, {"catalog", "export"},
		{"catalog", "import-skypilot", "-as-of", "yesterday", "x"},
	} {
		out, errOut, code := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want 2 and one line on stderr", args, code, out, errOut)
		}
	}
}

func TestCatalogImportPrices(t *testing.T) {
	dir := copyFixture(t)
	out, errOut, code := runCLI("catalog", "import-prices", "-dir", dir, "testdata/prices.csv")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		"aws-p4d.24xlarge: on_demand_per_hour 21.957642 -> 18.5",
		"aws-p4d.24xlarge: as_of 2026-07-09 -> 2026-11-01",
		"aws-g4dn.4xlarge: added",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The result loads and keeps the offer the sheet did not name.
	_, _, code = runCLI("catalog", "validate", "-dir", dir)
	b, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if code != 0 || !bytes.Contains(b, []byte(`"id":"aws-g4dn.xlarge"`)) || !bytes.Contains(b, []byte(`"on_demand_per_hour":18.5`)) {
		t.Errorf("after import: validate %d, offers.json:\n%s", code, b)
	}
	pb, _ := os.ReadFile(filepath.Join(dir, "providers.json"))
	if !bytes.Contains(pb, []byte(`"as_of": "2026-11-01"`)) {
		t.Errorf("provider as_of not bumped:\n%s", pb)
	}
}

func TestCatalogImportPricesRejectsWithoutWriting(t *testing.T) {
	dir := copyFixture(t)
	sheet := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(sheet, []byte("offer_id,spot_per_hour,as_of,source\naws-g4dn.xlarge,0.9,2026-11-01,quote\n"), 0o644)
	before, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	_, errOut, code := runCLI("catalog", "import-prices", "-dir", dir, sheet)
	after, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if code != 2 || !strings.Contains(errOut, "spot_per_hour 0.9 > on_demand_per_hour 0.526") || !bytes.Equal(before, after) {
		t.Errorf("code %d, stderr %q, file changed %v", code, errOut, !bytes.Equal(before, after))
	}
}

func TestCatalogImportSkyPilot(t *testing.T) {
	dir := copyFixture(t)
	out, errOut, code := runCLI("catalog", "import-skypilot", "-dir", dir, "-as-of", "2026-11-20", "-source", "commit abc123", "testdata/skypilot")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		"aws-g4dn.xlarge: on_demand_per_hour 0.526 -> 0.5", // cheapest region, from v9 not v8
		"aws-g4dn.xlarge: spot_per_hour 0.2 -> 0.19",
		"aws-g4dn.xlarge: as_of 2026-07-09 -> 2026-11-20",
		"aws-g4dn.2xlarge: added",
		`skipped: aws inf2.xlarge: accelerator "Inferentia2" has no GPU id mapping; not added`,
		"kept: aws-p4d.24xlarge is not in the new catalog",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCLI("catalog", "validate", "-dir", dir); code != 0 {
		t.Error("imported catalog does not validate")
	}
	b, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if !bytes.Contains(b, []byte(`skypilot-catalog catalogs/v9/aws/vms.csv (commit abc123)`)) {
		t.Errorf("source not recorded:\n%s", b)
	}
}

// TestCatalogImportPricesHost: import-prices writes a row's vcpus, ram_gib
// and billing_granularity into offers.json (they were parsed nowhere), and
// the result validates.
func TestCatalogImportPricesHost(t *testing.T) {
	dir := copyFixture(t)
	sheet := filepath.Join(t.TempDir(), "host.csv")
	os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,vcpus,ram_gib,billing_granularity,as_of,source\n"+
		"aws,g4dn.8xlarge,t4,1,2.176,USD,32,128,second,2026-11-01,quote\n"), 0o644)
	if _, errOut, code := runCLI("catalog", "import-prices", "-dir", dir, sheet); code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	_, _, code := runCLI("catalog", "validate", "-dir", dir)
	for _, want := range []string{`"vcpus":32`, `"ram_gib":128`, `"billing_granularity":"second"`} {
		if code != 0 || !bytes.Contains(b, []byte(want)) {
			t.Errorf("validate %d; offers.json lacks %s", code, want)
		}
	}
}
