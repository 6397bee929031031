// Command wasmsize prints the code bytes of a Go WebAssembly binary per
// package, from the function bodies of its code section and the names in
// its "name" custom section (WebAssembly Core Specification 2.0, §5.5.13
// and the name section appendix §7.4). The binary must keep its names:
// build it without -ldflags=-s. make size runs it on app.wasm built so.
//
//	wasmsize [-top N] [-pkg PACKAGE] [-base BASE] FILE
//
// With -pkg it lists that package's largest functions instead (the
// package as the list names it, e.g. slices or rightsize_app_page).
// With -base (another module, such as go-app's hello world built the same
// way: make size) it compares the two instead: each section's raw and
// brotli bytes (quality 11, 16 MB window, as cmd/build serves app.wasm)
// and their ratio, then the packages whose code grew most over BASE. Both
// modules must keep their names for the package lines.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/andybalholm/brotli"
)

func main() {
	top := flag.Int("top", 25, "packages (or functions, with -pkg) to list")
	pkg := flag.String("pkg", "", "list this package's functions instead of the packages")
	base := flag.String("base", "", "compare with this module: sections raw and in brotli, and the packages that grew most")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-pkg PACKAGE] [-base BASE] FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err == nil && *base != "" {
		var b []byte
		if b, err = os.ReadFile(*base); err == nil {
			err = compare(os.Stdout, data, b, *top)
		}
	} else if err == nil {
		err = report(os.Stdout, data, *top, *pkg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// report writes the packages' code bytes, largest first, or with pkg set
// that package's functions'.
func report(w io.Writer, data []byte, top int, pkg string) error {
	funcs, err := functionSizes(data)
	if err != nil {
		return err
	}
	sizes := map[string]int{}
	for name, n := range funcs {
		p := pkgOf(name)
		if pkg == "" {
			sizes[p] += n
		} else if p == pkg {
			sizes[name] += n
		}
	}
	type row struct {
		pkg   string
		bytes int
	}
	var rows []row
	total := 0
	for p, n := range sizes {
		rows = append(rows, row{p, n})
		total += n
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].bytes != rows[j].bytes {
			return rows[i].bytes > rows[j].bytes
		}
		return rows[i].pkg < rows[j].pkg
	})
	what := "all"
	if pkg != "" {
		what = pkg
	}
	fmt.Fprintf(w, "%10d B  code in %s\n", total, what)
	for i, r := range rows {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%10d B  %s\n", r.bytes, r.pkg)
	}
	return nil
}

// compare writes what module a holds beyond module base: the code and
// data sections, the rest (types, imports, tables, exports) and the whole
// (all three without the names a stripped build drops), raw and in
// brotli, with a's ÷ base's brotli ratio, and the top packages by the code
// bytes a adds over base.
func compare(w io.Writer, a, base []byte, top int) error {
	sa, err := sections(a)
	if err != nil {
		return err
	}
	sb, err := sections(base)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-8s %12s %12s %12s %12s %7s\n", "section", "raw", "base raw", "brotli", "base brotli", "ratio")
	line := func(name string, x, y []byte) {
		bx, by := brotliSize(x), brotliSize(y)
		ratio := "-"
		if by > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(bx)/float64(by))
		}
		fmt.Fprintf(w, "%-8s %12d %12d %12d %12d %7s\n", name, len(x), len(y), bx, by, ratio)
	}
	for _, name := range []string{"code", "data", "rest", "module"} {
		line(name, sa[name], sb[name])
	}
	pa, err := packageSizes(a)
	if err != nil {
		return err
	}
	pb, err := packageSizes(base)
	if err != nil {
		return err
	}
	type row struct {
		pkg         string
		grew, a, in int
	}
	var rows []row
	for p, n := range pa {
		rows = append(rows, row{p, n - pb[p], n, pb[p]})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].grew != rows[j].grew {
			return rows[i].grew > rows[j].grew
		}
		return rows[i].pkg < rows[j].pkg
	})
	fmt.Fprintf(w, "%10s %10s %10s  code bytes by package, most grown first\n", "grew", "raw", "base")
	for i, r := range rows {
		if i == top || r.grew <= 0 {
			break
		}
		fmt.Fprintf(w, "%10d %10d %10d  %s\n", r.grew, r.a, r.in, r.pkg)
	}
	return nil
}

// sections splits a module into its code section's body, its data
// section's body, the rest of its bytes (header and every other section
// but the "name" custom section, which a stripped build does not carry)
// and the whole module without that name section.
func sections(data []byte) (map[string][]byte, error) {
	r := &reader{b: data}
	if string(r.bytes(4)) != "\x00asm" {
		return nil, errFormat
	}
	r.bytes(4) // version
	out := map[string][]byte{"rest": append([]byte(nil), data[:r.i]...)}
	module := append([]byte(nil), data[:r.i]...)
	for r.err == nil && r.i < len(r.b) {
		start := r.i
		id := r.byte()
		body := r.bytes(r.u32())
		if r.err != nil {
			break
		}
		switch {
		case id == 10:
			out["code"] = body
		case id == 11:
			out["data"] = body
		case id == 0 && isNameSection(body):
			continue
		default:
			out["rest"] = append(out["rest"], data[start:r.i]...)
		}
		module = append(module, data[start:r.i]...)
	}
	if r.err != nil {
		return nil, r.err
	}
	out["module"] = module
	return out, nil
}

// isNameSection reports whether a custom section's body is the "name"
// section.
func isNameSection(body []byte) bool {
	c := &reader{b: body}
	return string(c.bytes(c.u32())) == "name" && c.err == nil
}

// brotliSize is b's size in brotli at quality 11 with a 16 MB window,
// the settings cmd/build precompresses app.wasm with.
func brotliSize(b []byte) int {
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	bw.Write(b) // a bytes.Buffer does not fail
	bw.Close()
	return buf.Len()
}

var errFormat = errors.New("not a WebAssembly binary with a name section")

// reader walks a WebAssembly binary's bytes.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.err = errFormat
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

// u32 reads an unsigned LEB128 number.
func (r *reader) u32() int {
	var x uint64
	for s := uint(0); s < 35; s += 7 {
		c := r.byte()
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return int(x)
		}
	}
	r.err = errFormat
	return 0
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.i {
		r.err = errFormat
		return nil
	}
	s := r.b[r.i : r.i+n]
	r.i += n
	return s
}

// limits skips a table's or memory's limits.
func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.u32()
	}
	r.u32()
}

// packageSizes sums the body bytes of the defined functions by the
// package their name gives ("rightsize/estimator.(*inferModel).device"
// counts for rightsize/estimator).
func packageSizes(data []byte) (map[string]int, error) {
	funcs, err := functionSizes(data)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for name, n := range funcs {
		out[pkgOf(name)] += n
	}
	return out, nil
}

// functionSizes is the body bytes of each defined function by its name
// (functions of one name summed).
func functionSizes(data []byte) (map[string]int, error) {
	r := &reader{b: data}
	if string(r.bytes(4)) != "\x00asm" {
		return nil, errFormat
	}
	r.bytes(4) // version
	imported := 0
	var bodies []int
	names := map[int]string{}
	for r.err == nil && r.i < len(r.b) {
		id := r.byte()
		sec := &reader{b: r.bytes(r.u32())}
		switch id {
		case 0: // custom
			if string(sec.bytes(sec.u32())) != "name" {
				continue
			}
			for sec.err == nil && sec.i < len(sec.b) {
				sub := sec.byte()
				body := &reader{b: sec.bytes(sec.u32())}
				if sub != 1 { // function names
					continue
				}
				for n := body.u32(); n > 0 && body.err == nil; n-- {
					idx := body.u32()
					names[idx] = string(body.bytes(body.u32()))
				}
				if body.err != nil {
					return nil, body.err
				}
			}
		case 2: // imports
			for n := sec.u32(); n > 0 && sec.err == nil; n-- {
				sec.bytes(sec.u32()) // module
				sec.bytes(sec.u32()) // name
				switch sec.byte() {
				case 0: // function
					sec.u32()
					imported++
				case 1: // table
					sec.byte()
					sec.limits()
				case 2: // memory
					sec.limits()
				case 3: // global
					sec.bytes(2)
				}
			}
		case 10: // code
			for n := sec.u32(); n > 0 && sec.err == nil; n-- {
				size := sec.u32()
				sec.bytes(size)
				bodies = append(bodies, size)
			}
		}
		if sec.err != nil {
			return nil, sec.err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(names) == 0 {
		return nil, errors.New("no function names: build without -ldflags=-s")
	}
	out := map[string]int{}
	for i, size := range bodies {
		name := names[imported+i]
		if name == "" {
			name = "(unnamed)"
		}
		out[name] += size
	}
	return out, nil
}

// pkgOf is the package of a Go function's symbol name: up to the first
// dot after the path ("rightsize/estimator/plan.(*planner).row" →
// rightsize/estimator/plan). The Go linker writes the name section with
// the path's slashes as underscores ("rightsize_estimator_plan.row",
// "github.com_maxence_charriere_go_app_v10_pkg_app.Div"), where the only
// dot inside a path is its domain's.
func pkgOf(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	start := strings.LastIndex(name, "/") + 1
	if start == 0 {
		if k := strings.Index(name, "_"); k > 0 && isDomain(name[:k]) {
			start = k // past the domain's dot
		}
	}
	if d := strings.Index(name[start:], "."); d >= 0 {
		return name[:start+d]
	}
	return name
}

// isDomain reports whether s is a module path's first element, a host
// name ("github.com", "golang.org"), rather than a package and a symbol
// ("runtime.gc", "slices.pdqsortCmpFunc").
func isDomain(s string) bool {
	dot := strings.LastIndex(s, ".")
	if dot <= 0 {
		return false
	}
	switch s[dot+1:] {
	case "com", "org", "net", "io", "in", "dev", "edu", "gov", "co", "me":
		return true
	}
	return false
}
