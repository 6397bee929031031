package page

import "slices"

// LinkOf is what the URL fragment carries for a page showing state s,
// embedded or not, with the comparison's offers cmp and the pinned state
// (nil: none); the user's own config.json (config, named name) travels
// with it when the state or the pin shows that model.
func LinkOf(s ViewState, embed bool, cmp []string, pin *ViewState, config, name string) Link {
	l := Link{State: s, Embed: embed, Compare: cmp}
	if pin != nil {
		l.Pin, l.Pinned = *pin, true
	}
	if s[FieldModel] == CustomModelID || (pin != nil && pin[FieldModel] == CustomModelID) {
		l.Config, l.ConfigName = config, name
	}
	return l
}

// Shows reports whether link l holds the view of a page showing state s,
// embedded or not, with the comparison cmp, the pin (nil: none) and the
// user's own config.json config: opening it there changes nothing. A link
// without a config keeps the page's.
func (l *Link) Shows(s ViewState, embed bool, cmp []string, pin *ViewState, config string) bool {
	return l.State == s && l.Embed == embed && l.Pinned == (pin != nil) && (!l.Pinned || l.Pin == *pin) &&
		(l.Config == "" || l.Config == config) && slices.Equal(l.Compare, cmp)
}
