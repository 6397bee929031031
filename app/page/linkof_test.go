package page

import "testing"

// TestLinkShows: a link read back from LinkOf shows the page it was made
// of, and each part of the view it differs in makes it another view.
func TestLinkShows(t *testing.T) {
	s := DefaultState
	s[FieldGPU] = "t4"
	pin := DefaultState
	custom := s
	custom[FieldModel] = CustomModelID
	for _, tc := range []struct {
		name  string
		s     ViewState
		embed bool
		cmp   []string
		pin   *ViewState
	}{
		{"plain", DefaultState, false, nil, nil},
		{"gpu", s, false, nil, nil},
		{"embed", s, true, nil, nil},
		{"compare", s, false, []string{"a", "b"}, nil},
		{"pin", s, false, nil, &pin},
		{"custom", custom, false, nil, nil},
	} {
		l := ParseLink(LinkOf(tc.s, tc.embed, tc.cmp, tc.pin, `{"model_type": "llama"}`, "c.json").Encode(DefaultState), DefaultState)
		if !l.Shows(tc.s, tc.embed, tc.cmp, tc.pin, `{"model_type": "llama"}`) {
			t.Errorf("%s: the link %+v does not show the page it was made of", tc.name, l)
		}
		if tc.name == "custom" && (l.Config != `{"model_type": "llama"}` || l.ConfigName != "c.json") {
			t.Errorf("custom: the link lost the config: %q %q", l.Config, l.ConfigName)
		}
		if tc.name == "plain" && l.Config != "" {
			t.Errorf("plain: the link carries a config it does not show: %q", l.Config)
		}
		if l.Shows(tc.s, !tc.embed, tc.cmp, tc.pin, "") || l.Shows(tc.s, tc.embed, append(tc.cmp, "z"), tc.pin, "") ||
			l.Shows(tc.s, tc.embed, tc.cmp, nil, "") && tc.pin != nil || l.Shows(tc.s, tc.embed, tc.cmp, &s, "") {
			t.Errorf("%s: the link shows a page that differs from it", tc.name)
		}
	}
	if l := LinkOf(custom, false, nil, nil, "{}", "x"); !l.Shows(custom, false, nil, nil, "{}") || l.Shows(custom, false, nil, nil, "{1}") {
		t.Error("a link's config must match the page's")
	}
}
