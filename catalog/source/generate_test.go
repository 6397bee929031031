//go:build !js

package source_test

import (
	"bytes"
	"flag"
	"os"
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
