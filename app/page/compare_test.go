package page

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseCompare: the comparison's link value keeps at most MaxCompare
// distinct readable offer IDs and names what it ignored.
func TestParseCompare(t *testing.T) {
	for _, tc := range []struct {
		v        string
		ids, bad []string
	}{
		{"", nil, nil},
		{"aws-p5.48xlarge", []string{"aws-p5.48xlarge"}, nil},
		{"a,b,,c", []string{"a", "b", "c"}, nil},
		{" a , b ", []string{"a", "b"}, nil},
		{"a,a,b", []string{"a", "b"}, []string{"a"}},
		{"a,b,c,d,e", []string{"a", "b", "c", "d"}, []string{"e"}},
		{"a,<script>,b", []string{"a", "b"}, []string{"<script>"}},
		{"a,\xff,b", []string{"a", "b"}, []string{"\uFFFD"}},
		{strings.Repeat("x", 200), nil, []string{strings.Repeat("x", 40) + "…"}},
		{strings.Repeat("!,", 100), nil, []string{"!", "!", "!", "!", "!", "!", "!", "!", "…"}},
	} {
		ids, bad := ParseCompare(tc.v)
		if !slices.Equal(ids, tc.ids) || !slices.Equal(bad, tc.bad) {
			t.Errorf("ParseCompare(%q) = %q, %q; want %q, %q", tc.v, ids, bad, tc.ids, tc.bad)
		}
	}
}

// TestCompareLink: the link carries the comparison next to the state and
// the pin; links without it (and pinned links) read as before.
func TestCompareLink(t *testing.T) {
	l := Link{State: DefaultState, Compare: []string{"lambda-gpu_1x_h100_sxm5", "aws-p5.48xlarge"}}
	frag := l.Encode(DefaultState)
	if !strings.Contains(frag, "&cmp=lambda-gpu_1x_h100_sxm5,aws-p5.48xlarge") {
		t.Errorf("fragment %q lacks the comparison", frag)
	}
	if got := ParseLink(frag, DefaultState); !slices.Equal(got.Compare, l.Compare) || got.State != l.State {
		t.Errorf("round trip: %+v", got.Compare)
	}
	old := ParseLink("m=llama-3.1-8b&b=4&pin=m%3Dllama-3.1-8b%26b%3D2", DefaultState)
	if old.Compare != nil || old.CompareBad != nil || !old.Pinned || old.Pin[FieldBatch] != "2" || old.State[FieldBatch] != "4" {
		t.Errorf("old pinned link: %+v", old)
	}
}

// TestToggleCompare adds, removes and refuses past MaxCompare.
func TestToggleCompare(t *testing.T) {
	var ids []string
	for _, id := range []string{"a", "b", "c", "d"} {
		var ok bool
		if ids, ok = ToggleCompare(ids, id); !ok {
			t.Fatalf("adding %s refused", id)
		}
	}
	before := slices.Clone(ids)
	if out, ok := ToggleCompare(ids, "e"); ok || !slices.Equal(out, before) {
		t.Errorf("a fifth plan: %q, %v", out, ok)
	}
	out, ok := ToggleCompare(ids, "b")
	if !ok || !slices.Equal(out, []string{"a", "c", "d"}) || !slices.Equal(ids, before) {
		t.Errorf("removing b: %q (input now %q)", out, ids)
	}
	if _, ok := ToggleCompare(nil, "a b"); ok {
		t.Error("an unreadable ID joined the comparison")
	}
}

// FuzzCompareLink: whatever the link's cmp value holds, reading it never
// panics; what it keeps is at most MaxCompare distinct readable IDs that
// survive a round trip through the link; what it names as ignored is
// short, valid text.
func FuzzCompareLink(f *testing.F) {
	for _, s := range []string{"", "a,b", "a,a,a", "a,b,c,d,e,f", "%zz", "a%2Cb", ",,,", "<>,\x00,\xff", "cmp=a&cmp=b", strings.Repeat("ab,", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		l := ParseLink("m=llama-3.1-8b&cmp="+v, DefaultState)
		if len(l.Compare) > MaxCompare {
			t.Fatalf("%q: %d plans", v, len(l.Compare))
		}
		for i, id := range l.Compare {
			if !validOfferID(id) || id == "" || slices.Contains(l.Compare[:i], id) {
				t.Fatalf("%q: kept %q", v, id)
			}
		}
		if len(l.CompareBad) > maxBadShown+1 {
			t.Fatalf("%q: %d ignored values named", v, len(l.CompareBad))
		}
		for _, b := range l.CompareBad {
			if !utf8.ValidString(b) || utf8.RuneCountInString(b) > 41 {
				t.Fatalf("%q: ignored value shown as %q", v, b)
			}
		}
		back := ParseLink(Link{State: l.State, Compare: l.Compare}.Encode(DefaultState), DefaultState)
		if !slices.Equal(back.Compare, l.Compare) || len(back.CompareBad) != 0 {
			t.Fatalf("%q: round trip %q → %q (%q)", v, l.Compare, back.Compare, back.CompareBad)
		}
	})
}

// TestLowerFirst: a column header inside a pinned cell's brackets reads
// in lower case, "$103,964 (per month)", in each language.
func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"Per month": "per month", "В месяц": "в месяц", "每月": "每月", "": "", "Job cost": "job cost"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
