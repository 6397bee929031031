//go:build !js

package source_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// and NativeOnlyOf fields out of app.wasm's catalog, so no package
// app.wasm compiles may read them (the page would read an empty string).
// Every package is type-checked as GOOS=js builds it (its imports from
// their export data), so a field is told apart from another record's of
// the same name (a GPU's Source, which the page never reads, from an
// offer's, which it shows); writes count as reads. Notes is left out, as
// before the check was typed: the page reads an offer's Notes where the
// user's own price sheet gives them (PriceMerge) and Offer.HostCPU reads
// them too.
func TestNativeOnlyFieldsStayOffThePage(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-export", "-f", "{{.ImportPath}}\t{{.Export}}\t{{if not .Standard}}{{.Dir}}\t{{join .GoFiles \"\t\"}}{{end}}", "rightsize/cmd/web")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		path, dir string
		files     []string
	}
	export := map[string]string{}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		export[f[0]] = f[1]
		if len(f) > 3 && strings.HasPrefix(f[0], "rightsize") {
			pkgs = append(pkgs, pkg{f[0], f[2], f[3:]})
		}
	}
	// owner names the record type of a selected field, "GPU" for
	// catalog.GPU's, "" for a field of any other type.
	owner := func(sel *types.Selection) string {
		typ := sel.Recv()
		for _, k := range sel.Index()[:len(sel.Index())-1] {
			if p, ok := typ.Underlying().(*types.Pointer); ok {
				typ = p.Elem()
			}
			typ = typ.Underlying().(*types.Struct).Field(k).Type()
		}
		if p, ok := typ.Underlying().(*types.Pointer); ok {
			typ = p.Elem()
		}
		if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "rightsize/catalog" {
			return n.Obj().Name()
		}
		return ""
	}
	records := []string{"GPU", "Model", "Provider", "Offer"}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if export[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(export[path])
	})
	files := 0
	for _, p := range pkgs {
		var asts []*ast.File
		for _, name := range p.files {
			f, err := parser.ParseFile(fset, filepath.Join(p.dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			asts = append(asts, f)
		}
		files += len(asts)
		info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, GoVersion: "", Sizes: types.SizesFor("gc", "wasm")}
		if _, err := conf.Check(p.path, fset, asts, info); err != nil {
			t.Fatalf("type-checking %s: %v", p.path, err)
		}
		for e, sel := range info.Selections {
			if sel.Kind() != types.FieldVal {
				continue
			}
			typ, name := owner(sel), sel.Obj().Name()
			if name == "Notes" {
				continue
			}
			if slices.Contains(source.NativeOnlyOf[typ], name) || slices.Contains(records, typ) && slices.Contains(source.NativeOnly, name) {
				t.Errorf("%s reads %s.%s, which app.wasm's catalog does not hold (source.NativeOnly)", fset.Position(e.Pos()), typ, name)
			}
		}
	}
	if files < 50 {
		t.Fatalf("checked %d files of app.wasm's packages; go list gave %q", files, out)
	}
}
