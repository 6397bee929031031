//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rightsize/catalog/source"
)

// copyData copies the real catalog/data JSON into a temporary directory.
func copyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"gpus.json", "models.json", "providers.json", "offers.json", "fx.json", "hosted_apis.json"} {
		b, err := os.ReadFile(filepath.Join("../../catalog/data", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const replayDir = "../../catalog/source/testdata/refresh"

// A user's refresh from the recorded responses prints the diff summary,
// writes a catalog that validates, and dates the refreshed prices.
func TestCatalogRefreshReplay(t *testing.T) {
	t.Setenv("GCP_API_KEY", "k")
	t.Setenv("LAMBDA_API_KEY", "k")
	dir := copyData(t)
	out, errOut, code := runCLI("catalog", "refresh", "-dir", dir, "--replay", replayDir, "-as-of", "2026-11-23")
	if code != 0 {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"aws                updated", "azure              updated", "gcp                updated",
		"vast               updated   2 rows, 2 offers added", "total: 2 offers added", "fx cbr: rates of 2026-08-22", "wrote " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = runCLI("catalog", "validate", "-dir", dir)
	if code != 0 {
		t.Fatalf("refreshed catalog does not validate: %s %s", out, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if !strings.Contains(string(b), `"id":"vast-1x-h100_nvl"`) || !strings.Contains(string(b), "fetched 2026-11-23") {
		t.Error("offers.json lacks the refreshed offers")
	}
}

// --dry-run prints the summary and writes nothing; without keys the key
// adapters are skipped with the variable named.
func TestCatalogRefreshDryRun(t *testing.T) {
	t.Setenv("GCP_API_KEY", "")
	t.Setenv("LAMBDA_API_KEY", "")
	dir := copyData(t)
	before, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	out, _, code := runCLI("catalog", "refresh", "-dir", dir, "--replay", replayDir, "--dry-run", "--providers", "oci,gcp", "--fx", "none")
	after, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if code != 0 || string(before) != string(after) || !strings.Contains(out, "dry run: nothing written") ||
		!strings.Contains(out, "gcp                skipped   GCP_API_KEY is not set") || strings.Contains(out, "aws ") {
		t.Errorf("code %d, files changed %v:\n%s", code, string(before) != string(after), out)
	}
	if _, errOut, code := runCLI("catalog", "refresh", "-dir", dir, "--providers", "nope"); code != 2 || !strings.Contains(errOut, "unknown provider") {
		t.Errorf("unknown provider: %d %q", code, errOut)
	}
}

// When every selected source fails, the refresh says why per provider,
// keeps the data, and exits 1.
func TestCatalogRefreshAllFail(t *testing.T) {
	dir := copyData(t)
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "replay.json"), []byte(`{"responses":[]}`), 0o644)
	before, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	out, _, code := runCLI("catalog", "refresh", "-dir", dir, "--replay", empty, "--providers", "azure,vast", "--fx", "ecb")
	after, _ := os.ReadFile(filepath.Join(dir, "offers.json"))
	if code != 1 || string(before) != string(after) || !strings.Contains(out, "azure              failed") ||
		!strings.Contains(out, "HTTP 404") || !strings.Contains(out, "fx ecb: failed") {
		t.Errorf("code %d, changed %v:\n%s", code, string(before) != string(after), out)
	}
}

func TestCatalogRefreshHelpListsProviders(t *testing.T) {
	out, _, code := runCLI("catalog", "refresh", "--help")
	if code != 0 {
		t.Fatal(code)
	}
	for _, a := range source.Adapters {
		if !strings.Contains(out, "  "+a.Name+" ") {
			t.Errorf("--help lacks %s", a.Name)
		}
	}
	for _, s := range []string{"cbr", "ecb", "pboc", "--from-skypilot", "GCP_API_KEY"} {
		if !strings.Contains(out, s) {
			t.Errorf("--help lacks %s", s)
		}
	}
}
