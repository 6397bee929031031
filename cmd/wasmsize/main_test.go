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
	})
}
