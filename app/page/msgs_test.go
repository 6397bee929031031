package page

import (
	"os"
	"path/filepath"
	"regexp"
	planner "rightsize/estimator/plan"
	"strings"
	"testing"
)

// TestNoUnusedMessages: every message key is used somewhere besides its
// declaration and its three translations (the page's code under app/, or
// the estimator warnings' table in i18n.go), so no string is translated for
// nothing.
func TestNoUnusedMessages(t *testing.T) {
	src, err := os.ReadFile("i18n.go")
	if err != nil {
		t.Fatal(err)
	}
	decl := string(src)
	start, end := strings.Index(decl, "const (\n\tMsgTagline MsgKey = iota"), -1
	if start >= 0 {
		end = strings.Index(decl[start:], "\n)\n")
	}
	if start < 0 || end < 0 {
		t.Fatal("i18n.go: no MsgKey const block")
	}
	keys := regexp.MustCompile(`\n\t(Msg\w+)`).FindAllStringSubmatch(decl[start:start+end], -1)
	if len(keys) < 100 {
		t.Fatalf("%d keys found: the pattern no longer matches i18n.go", len(keys))
	}
	var code strings.Builder
	code.Write(src)
	for _, dir := range []string{".", ".."} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "i18n.go" {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			code.Write(b)
		}
	}
	seen := map[string]int{}
	for _, id := range regexp.MustCompile(`\bMsg\w+`).FindAllString(code.String(), -1) {
		seen[id]++
	}
	for _, k := range keys {
		// Declaration plus one translation per language: 4 mentions.
		if seen[k[1]] <= len(Languages)+1 {
			t.Errorf("%s is declared and translated but never used", k[1])
		}
	}
}

// TestPlanMessagesTakeStrings: the page formats every reason argument as
// text (Locale.ReasonWith), so a template takes each as %s; a %d would
// print "%!d(string=1)". Each language's template takes as many as the
// English one.
func TestPlanMessagesTakeStrings(t *testing.T) {
	// A verb is %s or an indexed %[n]s (a translation may reorder them).
	verbs := regexp.MustCompile(`%(\[\d+\])?.`)
	args := func(key planner.Msg, lang, tmpl string) int {
		n, indexed := 0, map[string]bool{}
		for _, m := range verbs.FindAllStringSubmatch(strings.ReplaceAll(tmpl, "%%", ""), -1) {
			if !strings.HasSuffix(m[0], "s") {
				t.Errorf("%s in %s uses %s", key, lang, m[0])
			}
			if m[1] != "" {
				indexed[m[1]] = true
			} else {
				n++
			}
		}
		return n + len(indexed)
	}
	for key := planner.NoMsg + 1; key < planner.NMsgs; key++ {
		want := args(key, "en", planner.English[key])
		for _, lang := range []string{"en", "ru", "zh"} {
			if tmpl := PlanMessages[lang][key]; tmpl != "" && args(key, lang, tmpl) != want {
				t.Errorf("%s in %s takes another number of arguments than in English", key, lang)
			}
		}
	}
	r := planner.Reason{Key: planner.MsgNoteStackDP, Args: []any{1}}
	for _, lang := range []string{"en", "ru", "zh"} {
		if got := (Locale{Lang: lang}).Reason(r); !strings.Contains(got, "ZeRO-1") {
			t.Errorf("%s: %q", lang, got)
		}
	}
	if got := r.String(); !strings.Contains(got, "at ZeRO-1:") {
		t.Errorf("CLI: %q", got)
	}
}

// TestMonthlyHoursKeepTheirUnit: the monthly bill's label keeps "730 h"
// on one line (a phone broke it as "730 / h)").
func TestMonthlyHoursKeepTheirUnit(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		if s := (Locale{Lang: lang}).T(MsgMonthly); !strings.Contains(s, "730\u00a0") {
			t.Errorf("%s: %q breaks between 730 and its unit", lang, s)
		}
	}
}
