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
	for _, provider := range []string{"aws-cn", ""} {
		if _, errs, _, _ := ParseJob(state(provider, "cn-north-1"), cat, Archs{}, nil, ""); !errs[FieldRegion].OK() {
			t.Errorf("provider %q, region cn-north-1: %+v", provider, errs[FieldRegion])
		}
	}
	_, errs, _, _ = ParseJob(state("", "zz"), cat, Archs{}, nil, "")
	if e := errs[FieldRegion]; e.Key != MsgRegionUnlistedAny {
		t.Errorf("region zz: %+v", e)
	}
}
