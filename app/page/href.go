package page

import (
	"net/url"
	"strconv"
	"strings"
)

// A link is text a user can type, so it may hold a "%" that starts no
// escape ("#mfu=40%", "#%", "#m=%E0%A4%A"), which go-app cannot read
// (app.guardLink). CleanHref is the rule the page's loader applies before
// go-app reads the address; IgnoredInLink and LinkNotes name what the page
// then cannot read from the fragment.

// CleanHref returns href with every "%" that starts no escape written as
// "%25", so url.Parse accepts it, and whether it changed anything. An
// address url.Parse still refuses loses its fragment.
func CleanHref(href string) (string, bool) {
	if _, err := url.Parse(href); err == nil {
		return href, false
	}
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		if href[i] == '%' && !(i+2 < len(href) && isHex(href[i+1]) && isHex(href[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(href[i])
	}
	out := b.String()
	if _, err := url.Parse(out); err != nil {
		out, _, _ = strings.Cut(out, "#")
		if _, err := url.Parse(out); err != nil {
			out = "/"
		}
	}
	return out, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// MaxIgnoredShown bounds the text of one ignored part shown to the user.
const MaxIgnoredShown = 80

// IgnoredInLink lists the parts of a fragment ("key=value" between "&")
// that do not decode: the page cannot read them and ignores them. Each is
// valid UTF-8 and at most MaxIgnoredShown bytes, for display.
func IgnoredInLink(frag string) []string {
	var bad []string
	for part := range strings.SplitSeq(frag, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		_, errK := url.QueryUnescape(k)
		_, errV := url.QueryUnescape(v)
		if errK == nil && errV == nil && !strings.Contains(part, ";") {
			continue // url.ParseQuery reads it (it refuses ";" as a separator)
		}
		s := strings.ToValidUTF8(part, "�")
		if len(s) > MaxIgnoredShown {
			s = strings.ToValidUTF8(s[:MaxIgnoredShown], "") + "…"
		}
		bad = append(bad, s)
	}
	return bad
}

// LinkNotes are the notes on what the page ignored in the link it was
// opened with, in language lang: link, the parts that do not decode, and
// cmp, the comparison's values that do not read; "" where there is none.
func LinkNotes(lang string, link, cmp []string) (linkNote, cmpNote string) {
	if len(link) > 0 {
		linkNote = Tr(lang, MsgLinkIgnored) + ": " + strings.Join(link, " · ")
	}
	if len(cmp) > 0 {
		cmpNote = Fill(Tr(lang, MsgCompareIgnored), strconv.Itoa(MaxCompare)) + ": " + strings.Join(cmp, " · ")
	}
	return linkNote, cmpNote
}
