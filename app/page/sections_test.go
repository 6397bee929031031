package page

import "testing"

// Opened sections travel in the link, in page order, whatever order they
// were opened in; closing one keeps the others.
func TestSectionsInTheLink(t *testing.T) {
	s := DefaultState
	if s.Opens(SecFit) || s[FieldShow] != "" {
		t.Fatalf("the default view opens %q", s[FieldShow])
	}
	s = s.WithOpen(SecOffers, true).WithOpen(SecFit, true).WithOpen(SecOffers, true)
	if s[FieldShow] != "fit.offers" || !s.Opens(SecFit) || !s.Opens(SecOffers) || s.Opens(SecRules) {
		t.Errorf("opened fit and offers: %q", s[FieldShow])
	}
	frag := s.Fragment(DefaultState)
	if frag != "m=llama-3.1-8b&show=fit.offers" {
		t.Errorf("fragment %q", frag)
	}
	if back := ParseFragment(frag, DefaultState); back != s {
		t.Errorf("%q reads back as %q", frag, back[FieldShow])
	}
	if s = s.WithOpen(SecFit, false); s[FieldShow] != "offers" {
		t.Errorf("closed fit: %q", s[FieldShow])
	}
	if s = s.WithOpen(SecOffers, false); s != DefaultState {
		t.Errorf("closed all: %q", s[FieldShow])
	}
	for sec := range NSections {
		if got, ok := SectionOf(SectionKeys[sec]); !ok || got != sec {
			t.Errorf("section %d: key %q reads as %d", sec, SectionKeys[sec], got)
		}
		if Tr("ru", SectionTitles[sec]) == Tr("en", SectionTitles[sec]) {
			t.Errorf("section %s's title is not translated", SectionKeys[sec])
		}
	}
	if _, ok := SectionOf("nope"); ok {
		t.Error("an unknown key names a section")
	}
}
