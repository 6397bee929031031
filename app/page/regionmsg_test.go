package page

import (
	"testing"

	"rightsize/catalog"
)

// TestRegionUnlisted: a region no offer of the chosen provider stands in
// marks the field with the regions the provider lists, in each language;
// a region one of its offers lists (Beijing's, beside Ningxia's) passes.
func TestRegionUnlisted(t *testing.T) {
	cat := catalog.Default()
	state := func(provider, region string) ViewState {
		s := DefaultState
		s[FieldProvider], s[FieldRegion] = provider, region
		return s
	}
	_, errs, _, ok := ParseJob(state("aws-cn", "cn-north-2"), cat, Archs{}, nil, "")
	if ok {
		t.Fatal("region cn-north-2 accepted")
	}
	for lang, want := range map[string]string{
		"en": "no aws-cn offer is hosted in a region starting with “cn-north-2”; aws-cn lists: cn-north-1 · cn-north-1-pkx-1 · cn-northwest-1",
		"ru": "у aws-cn нет предложений в регионе, начинающемся с «cn-north-2»; регионы aws-cn: cn-north-1 · cn-north-1-pkx-1 · cn-northwest-1",
		"zh": "aws-cn 没有位于以“cn-north-2”开头的地域的报价；aws-cn 的地域：cn-north-1 · cn-north-1-pkx-1 · cn-northwest-1",
	} {
		if got := (Locale{Lang: lang}).ErrText(errs[FieldRegion]); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	// One prefix of several that an offer's region starts with keeps
	// the filter's offers.
	for _, c := range [][2]string{{"aws-cn", "cn-north-1"}, {"", "cn-north-1"}, {"aws-cn", "eu,cn-northwest"}} {
		if _, errs, _, _ := ParseJob(state(c[0], c[1]), cat, Archs{}, nil, ""); !errs[FieldRegion].OK() {
			t.Errorf("provider %q, region %s: %+v", c[0], c[1], errs[FieldRegion])
		}
	}
	_, errs, _, _ = ParseJob(state("", "zz"), cat, Archs{}, nil, "")
	if e := errs[FieldRegion]; e.Key != MsgRegionUnlistedAny {
		t.Errorf("region zz: %+v", e)
	}
}
