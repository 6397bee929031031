//go:build !js

package rightsize_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComponentIsAShell holds the go-app component to the size the page's
// structure set (issue "The page as one pure view"): Calculator keeps
// state, lifecycle and handlers (at most 15 fields and 30 methods), app/
// without app/page stays under 2,500 lines, and app/page, where every
// join, label and decision lives, carries more test lines than app/.
func TestComponentIsAShell(t *testing.T) {
	const maxFields, maxMethods, maxLines = 15, 30, 2500
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("app", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no app/*.go: %v", err)
	}
	fields, methods, lines, testLines := -1, 0, 0, 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") {
			testLines += strings.Count(string(src), "\n")
			continue
		}
		lines += strings.Count(string(src), "\n")
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) == 1 && recvName(d.Recv.List[0].Type) == "Calculator" {
					methods++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Calculator" {
						fields = 0
						for _, f := range ts.Type.(*ast.StructType).Fields.List {
							fields += max(len(f.Names), 1) // an embedded field has no name
						}
					}
				}
			}
		}
	}
	pageTests := 0
	err = filepath.WalkDir(filepath.Join("app", "page"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := os.ReadFile(p)
		pageTests += strings.Count(string(src), "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Calculator: %d fields, %d methods; app/: %d lines (%d of tests); app/page: %d test lines", fields, methods, lines, testLines, pageTests)
	if fields < 0 {
		t.Fatal("no Calculator struct in app/")
	}
	if fields > maxFields || methods > maxMethods {
		t.Errorf("Calculator has %d fields and %d methods; at most %d and %d", fields, methods, maxFields, maxMethods)
	}
	if lines > maxLines {
		t.Errorf("app/ (without app/page and tests) is %d lines; at most %d", lines, maxLines)
	}
	if pageTests <= testLines {
		t.Errorf("app/page has %d test lines and app/ %d: the page's decisions are tested as plain values in app/page", pageTests, testLines)
	}
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
