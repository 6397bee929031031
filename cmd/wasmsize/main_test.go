package main

import (
	"bytes"
	"strings"
	"testing"
)

// module is a WebAssembly binary with one imported function and two
// defined ones of 3 and 5 body bytes, named through a name section.
func module(names ...string) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	sec := func(id byte, body []byte) {
		b = append(b, id, byte(len(body)))
		b = append(b, body...)
	}
	str := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	imp := []byte{1}
	imp = append(imp, str("go")...)
	imp = append(imp, str("debug")...)
	imp = append(imp, 0, 0)
	sec(2, imp)
	sec(10, []byte{2, 3, 0, 0, 0x0b, 5, 0, 0, 0, 0, 0x0b})
	sub := []byte{byte(len(names))}
	for i, n := range names {
		sub = append(sub, byte(i+1))
		sub = append(sub, str(n)...)
	}
	custom := str("name")
	custom = append(custom, 1, byte(len(sub)))
	custom = append(custom, sub...)
	sec(0, custom)
	return b
}

func TestPackageSizes(t *testing.T) {
	got, err := packageSizes(module("rightsize/estimator/plan.(*planner).row", "runtime.mallocgc"))
	if err != nil {
		t.Fatal(err)
	}
	if got["rightsize/estimator/plan"] != 3 || got["runtime"] != 5 || len(got) != 2 {
		t.Fatalf("sizes %v", got)
	}
	for name, want := range map[string]string{
		"rightsize_estimator_plan.(*planner).row":                       "rightsize_estimator_plan",
		"github.com_maxence_charriere_go_app_v10_pkg_app.Div":           "github.com_maxence_charriere_go_app_v10_pkg_app",
		"github.com/maxence-charriere/go-app/v10/pkg/app.(*elem).Mount": "github.com/maxence-charriere/go-app/v10/pkg/app",
		"type_.eq.internal_abi.UncommonType":                            "type_",
		"wasm_pc_f_loop":                                                "wasm_pc_f_loop",
	} {
		if got := pkgOf(name); got != want {
			t.Errorf("pkgOf(%q) = %q, want %q", name, got, want)
		}
	}
	var out bytes.Buffer
	if err := report(&out, module("a.f", "b.g"), 1, ""); err != nil {
		t.Fatal(err)
	}
	if want := "         8 B  code in all\n         5 B  b\n"; out.String() != want {
		t.Fatalf("report %q, want %q", out.String(), want)
	}
	out.Reset()
	if err := report(&out, module("a.f", "b.g"), 5, "a"); err != nil {
		t.Fatal(err)
	}
	if want := "         3 B  code in a\n         3 B  a.f\n"; out.String() != want {
		t.Fatalf("report -pkg a %q, want %q", out.String(), want)
	}
}

func TestBadInput(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("\x00asm"), []byte("not wasm at all"), module()[:20], module()} {
		if _, err := packageSizes(b); err == nil {
			t.Errorf("%q: no error", b)
		}
	}
	if _, err := packageSizes(module()); err == nil || !strings.Contains(err.Error(), "without -ldflags=-s") {
		t.Errorf("no names: %v", err)
	}
}

func FuzzPackageSizes(f *testing.F) {
	f.Add(module("a.f", "b.g"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0a\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		packageSizes(b) // never panics
		sections(b)
	})
}

// TestCompare: the sections of a module with a data section split into
// code, data and the rest, the name section out of all of them; the
// comparison lists only the packages that grew, largest first.
func TestCompare(t *testing.T) {
	a := module("a.f", "b.g")
	data := []byte{1, 0, 0x41, 0, 0x0b, 4, 'a', 'b', 'c', 'd'} // one active segment of 4 bytes
	withData := append(append([]byte(nil), a[:8]...), 11, byte(len(data)))
	withData = append(withData, data...)
	withData = append(withData, a[8:]...)
	sec, err := sections(withData)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sec["data"], data) || len(sec["code"]) != 11 {
		t.Fatalf("data %v, code %v", sec["data"], sec["code"])
	}
	// header 8 + the import section (2 + 12 bytes); no name section.
	if len(sec["rest"]) != 8+2+12 || len(sec["module"]) != len(sec["rest"])+2+11+2+len(data) {
		t.Fatalf("rest %d, module %d bytes", len(sec["rest"]), len(sec["module"]))
	}
	if bytes.Contains(sec["module"], []byte("name")) {
		t.Fatal("the module line keeps the name section")
	}
	var out bytes.Buffer
	if err := compare(&out, withData, module("a.f", "a.g"), 5); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	// a: 3 bytes in a and 5 in b; base: 8 bytes in a. b grew by 5; a shrank.
	if !strings.Contains(got, "         5          5          0  b\n") || strings.Contains(got, "  a\n") {
		t.Fatalf("compare:\n%s", got)
	}
	if !strings.Contains(got, "\ndata ") || !strings.Contains(got, "\nmodule ") {
		t.Fatalf("compare has no data or module line:\n%s", got)
	}
	if err := compare(&out, withData, []byte("not wasm"), 5); err == nil {
		t.Fatal("a bad base gave no error")
	}
}
