package page

import (
	"strings"
	"testing"

	planner "rightsize/estimator/plan"
)

// Counts in the page's sentences are grouped as each language writes them
// (Locale.Count): a price sheet's rows and offers, the "show all" button's
// hidden rows, and a planner note's integers.
func TestCountsGroupedInEachLanguage(t *testing.T) {
	for lang, want := range map[string][4]string{
		"en": {"1,234", "1,066", "(+1,020)", "200,500"},
		"ru": {"1\u00a0234", "1\u00a0066", "(+1\u00a0020)", "200\u00a0500"},
		"zh": {"1,234", "1,066", "(+1,020)", "200,500"},
	} {
		_, text, _ := SheetStatus(lang, "", 0, "mine.csv", 1234, 1066)
		if !strings.Contains(text, want[0]) || !strings.Contains(text, want[1]) {
			t.Errorf("%s: sheet status %q, want %s rows and %s offers", lang, text, want[0], want[1])
		}
		if b := showAll(lang, "rs-more-offers", 1020); len(b) != 1 || !strings.HasSuffix(b[0].Text, want[2]) {
			t.Errorf("%s: show-all button %+v, want it to end %q", lang, b, want[2])
		}
		n := Locale{Lang: lang}.Reason(planner.Reason{Key: planner.MsgNotePastCardContext, Args: []any{200500, 128000, 1024000}})
		if !strings.Contains(n, want[3]) {
			t.Errorf("%s: note %q does not say %q", lang, n, want[3])
		}
	}
}
