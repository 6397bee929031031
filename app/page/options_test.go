package page

import (
	"strconv"
	"strings"
	"testing"
)

// A select's options written as HTML in the browser escape every value
// and label (a custom model's label is the user's file name) and mark the
// chosen one; a value that is not a choice comes first, chosen.
func TestSelectOptionsHTML(t *testing.T) {
	opts := []Option{{Value: "a", Label: "A & <b>"}, {Value: `b"1`, Label: `it's "x"`}}
	want := `<option value="a">A &amp; &lt;b&gt;</option><option value="b&quot;1" selected>it&#39;s &quot;x&quot;</option>`
	if got := OptionsHTML(opts, `b"1`); got != want {
		t.Errorf("options HTML\n got %s\nwant %s", got, want)
	}
	if got := OptionsHTML(opts, "zz<"); !strings.HasPrefix(got, `<option value="zz&lt;" selected>zz&lt;</option><option value="a">`) {
		t.Errorf("unknown value: %s", got)
	}
}

// TestOptionsOf: the current value is chosen among the choices; a value
// that is not one comes first, chosen, and the choices are left as they
// were.
func TestOptionsOf(t *testing.T) {
	opts := []Option{{"a", "A"}, {"b", "B"}}
	if out, i := OptionsOf(opts, "b"); len(out) != 2 || i != 1 {
		t.Errorf("b: %v, chosen %d", out, i)
	}
	out, i := OptionsOf(opts, "x")
	if len(out) != 3 || i != 0 || out[0] != (Option{"x", "x"}) || out[1] != opts[0] || len(opts) != 2 {
		t.Errorf("x: %v, chosen %d", out, i)
	}
}

func TestFieldOfData(t *testing.T) {
	if f, ok := FieldOfData("1"); !ok || f != Field(1) {
		t.Errorf("1: %v %v", f, ok)
	}
	for _, s := range []string{"", "x", "-1", strconv.Itoa(int(NFields))} {
		if f, ok := FieldOfData(s); ok {
			t.Errorf("%q read as field %v", s, f)
		}
	}
}
