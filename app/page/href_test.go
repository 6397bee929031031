package page

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCleanHref: a "%" that starts no escape becomes "%25", so url.Parse
// reads the address; a valid address is left as it is.
func TestCleanHref(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://x/#m=gpt2&b=8", "http://x/#m=gpt2&b=8"},
		{"http://x/#mfu=40%", "http://x/#mfu=40%25"},
		{"http://x/#%", "http://x/#%25"},
		{"http://x/#m=%E0%A4%A", "http://x/#m=%E0%A4%25A"},
	} {
		got, changed := CleanHref(c.in)
		if got != c.want || changed != (c.in != c.want) {
			t.Errorf("CleanHref(%q) = %q, %v; want %q", c.in, got, changed, c.want)
		}
		if _, err := url.Parse(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
}

// TestIgnoredInLink: the parts of a fragment that do not decode, and only
// those, are named, each valid UTF-8 and cut to MaxIgnoredShown bytes.
func TestIgnoredInLink(t *testing.T) {
	if got := IgnoredInLink("m=gpt2&&b=8&x=%zz&a;b=1"); strings.Join(got, "|") != "x=%zz|a;b=1" {
		t.Errorf("ignored %q", got)
	}
	long := "m=%zz" + strings.Repeat("é", 100)
	got := IgnoredInLink(long)
	if len(got) != 1 || !utf8.ValidString(got[0]) || len(got[0]) > MaxIgnoredShown+len("…") || !strings.HasSuffix(got[0], "…") {
		t.Errorf("long part shown as %q", got)
	}
	if got := IgnoredInLink("m=\xff%"); len(got) != 1 || !utf8.ValidString(got[0]) {
		t.Errorf("bad UTF-8 shown as %q", got)
	}
}

func TestLinkNotes(t *testing.T) {
	l, c := LinkNotes("en", []string{"a=%", "b=%zz"}, nil)
	if l != Tr("en", MsgLinkIgnored)+": a=% · b=%zz" || c != "" {
		t.Errorf("link notes %q, %q", l, c)
	}
	l, c = LinkNotes("en", nil, []string{"x!"})
	if l != "" || !strings.HasSuffix(c, ": x!") || strings.Contains(c, "%s") || !strings.Contains(c, "past 4 plans") {
		t.Errorf("comparison note %q, %q", l, c)
	}
}
