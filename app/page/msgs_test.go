package page

import (
	"os"
	"path/filepath"
	"regexp"
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
