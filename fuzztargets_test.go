package rightsize_test

// make fuzz runs every fuzz target in the tree: a Fuzz function the
// Makefile's fuzz target does not list is never fuzzed (its seed corpus
// still runs as a test), and a line for a function that is gone fails
// make fuzz at that line.

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	fuzzFunc = regexp.MustCompile(`^func (Fuzz\w+)\(`)
	fuzzLine = regexp.MustCompile(`^\t\$\(GO\) test (\./\S+) -run '\^\$\$' -fuzz '\^(Fuzz\w+)\$\$' -fuzztime \$\(FUZZTIME\)$`)
)

func TestMakeFuzzListsEveryTarget(t *testing.T) {
	var inTree []string // "./pkg FuzzName"
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "build" || n == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if m := fuzzFunc.FindStringSubmatch(sc.Text()); m != nil {
				inTree = append(inTree, "./"+filepath.ToSlash(filepath.Dir(path))+" "+m[1])
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inTree) == 0 {
		t.Fatal("no Fuzz functions found")
	}
	data, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	inFuzz := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "fuzz:"):
			inFuzz = true
		case inFuzz && strings.HasPrefix(line, "\t"):
			m := fuzzLine.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("Makefile fuzz: line %q is not $(GO) test ./PKG -run '^$$' -fuzz '^FuzzNAME$$' -fuzztime $(FUZZTIME)", line)
				continue
			}
			listed = append(listed, m[1]+" "+m[2])
		case inFuzz:
			inFuzz = false
		}
	}
	for _, f := range inTree {
		if !slices.Contains(listed, f) {
			t.Errorf("make fuzz does not run %s: add a line to the Makefile's fuzz target", f)
		}
	}
	for _, l := range listed {
		if !slices.Contains(inTree, l) {
			t.Errorf("make fuzz runs %s, which is not a Fuzz function in that package", l)
		}
	}
	if n := len(slices.Compact(slices.Sorted(slices.Values(listed)))); n != len(listed) {
		t.Errorf("make fuzz lists a target twice (%d lines, %d targets)", len(listed), n)
	}
}
