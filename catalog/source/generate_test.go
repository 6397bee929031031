//go:build !js

package source_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/catalog/data"
	"rightsize/catalog/source"
)

var fix = flag.Bool("fix", false, "rewrite ../zz_generated.go when it is stale")

// TestGenerated fails when catalog/zz_generated.go differs from what the
// generator makes of catalog/data; run "go generate ./catalog" (or this test
// with -fix) to update it.
func TestGenerated(t *testing.T) {
	c, err := source.Load(data.FS, time.Now().UTC())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		gen  func(*catalog.Catalog) ([]byte, error)
	}{{"../zz_generated.go", source.Generate}, {"../zz_generated_notes.go", source.GenerateNotes}} {
		want, err := f.gen(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			if *fix {
				if err := os.WriteFile(f.name, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("catalog/%s is stale: run go generate ./catalog", f.name[3:])
		}
	}
}

// TestNativeOnlyFieldsStayOffThePage: the generator leaves the NativeOnly
// fields out of app.wasm's catalog, so no package app.wasm compiles may
// read them (the page would read an empty string). Notes is left out of
// the search: other records (the planner's offers, its rows) have Notes of
// their own, so the name alone does not tell them apart.
func TestNativeOnlyFieldsStayOffThePage(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}\t{{join .GoFiles \"\\t\"}}{{end}}", "rightsize/cmd/web")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var names []string
	for _, f := range source.NativeOnly {
		if f != "Notes" {
			names = append(names, f)
		}
	}
	read := regexp.MustCompile(`\.(` + strings.Join(names, "|") + `)\b`)
	files := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		for _, name := range fields[1:] {
			if strings.HasPrefix(name, "zz_generated") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(fields[0], name))
			if err != nil {
				t.Fatal(err)
			}
			files++
			if m := read.Find(b); m != nil {
				t.Errorf("%s reads %s, which app.wasm's catalog does not hold (source.NativeOnly)", filepath.Join(filepath.Base(fields[0]), name), m)
			}
		}
	}
	if files < 50 {
		t.Fatalf("searched %d files of app.wasm's packages; go list gave %q", files, out)
	}
}
