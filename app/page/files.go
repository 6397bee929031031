package page

import (
	"strings"
)

// The user's files as the page keeps them: a price sheet merged over the
// built-in catalog, and a model's config.json. Both are read in the
// browser and never sent anywhere; the component reads and keeps the
// files, and this is what it records of them and says about them.

// Sheet is the user's price sheet: its file name, its rows, and why the
// last one did not read ("" when it did).
type Sheet struct {
	Name, Err string
	Rows      int
}

// Fits reports whether a sheet of text is within the page's limit
// (MaxSheetBytes), and says why not in language lang when it is not.
func (s *Sheet) Fits(name, text, lang string) bool {
	s.Err = ""
	if len(text) > MaxSheetBytes {
		s.Err = name + Locale{Lang: lang}.Colon() + TooBig(lang, MaxSheetBytes)
		return false
	}
	return true
}

// Use records a merged sheet (Catalog.MergeOwnPrices: the offers it
// priced, its rows, its error), or why it was refused, in language lang;
// own is the offers the sheet prices, and ok reports whether it read.
func (s *Sheet) Use(name string, changes []PriceChange, rows int, err error, lang string) (own map[string]bool, ok bool) {
	if err != nil {
		// The catalog's reason names the sheet too ("catalog: price
		// sheet: row 1: …"): the message says "price sheet" once.
		why := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "catalog: "), "price sheet: ")
		l := Locale{Lang: lang}
		s.Err = name + l.Colon() + l.T(MsgBadSheet) + l.Colon() + why
		return nil, false
	}
	own = map[string]bool{}
	for _, ch := range changes {
		own[ch.OfferID] = true
	}
	s.Name, s.Rows = name, rows
	return own, true
}

// SheetStatus is the line over the sheet's file picker: while a sheet
// (busy) is applied, its progress (0 to 1); with a sheet in use, its name,
// rows and the offers it prices; else how to make one. id is the line's
// element id ("" for the help), ok whether it reports a sheet in use.
func SheetStatus(lang, busy string, progress float64, name string, rows, offers int) (id, text string, ok bool) {
	l := Locale{Lang: lang}
	switch {
	case busy != "":
		return "rs-prices-progress", busy + " · " + l.T(MsgSheetApplying) + " " + l.Fixed(100*progress, 0) + " %", false
	case name != "":
		return "rs-prices-status", name + " · " + l.T(MsgSheetRows) + l.Colon() + l.Count(int64(rows)) + " · " +
			l.T(MsgSheetOffers) + l.Colon() + l.Count(int64(offers)), true
	}
	return "", l.T(MsgSheetHelp), false
}

// TooBig says a file is over limit bytes, in language lang.
func TooBig(lang string, limit int) string {
	l := Locale{Lang: lang}
	return l.T(MsgFileTooBig) + l.Aside(l.T(MsgFileTooBig), l.Fixed(float64(limit)/(1<<10), 0)+" "+l.T(MsgKiB))
}

// ReadConfig reads a model's config.json named name: its architecture, or
// why it does not read in language lang ("" when it does).
func ReadConfig(name, text, lang string) (Arch, string) {
	l := Locale{Lang: lang}
	if len(text) > MaxConfigBytes {
		return Arch{}, name + l.Colon() + l.T(MsgConfigTooBig)
	}
	a, err := ParseConfig(text)
	if err != nil {
		return Arch{}, name + l.Colon() + l.T(MsgBadConfig) + l.Colon() + strings.TrimPrefix(err.Error(), "estimator: ")
	}
	return a, ""
}
