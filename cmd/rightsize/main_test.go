package main

import (
	"strings"
	"testing"
)

// Every subcommand refuses an argument it does not take, in one line
// that names it ("rightsize validate extra" validated and exited 0).
func TestUnexpectedArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "extra"}, `rightsize validate: unexpected argument "extra"`},
		{[]string{"validate", "--format", "json", "extra"}, `rightsize validate: unexpected argument "extra"`},
		{[]string{"estimate", "--model", "llama-3.1-8b", "extra"}, `rightsize estimate: unexpected argument "extra"`},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests", "10", "extra"}, `rightsize plan: unexpected argument "extra"`},
		{[]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "extra"}, `rightsize simulate: unexpected argument "extra"`},
		{[]string{"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "a.json", "extra"}, `unexpected argument "extra": one benchmark FILE at a time`},
		{[]string{"catalog", "stats", "extra"}, "rightsize catalog stats: want 0 argument(s), got 1 (extra)"},
		{[]string{"catalog", "validate", "extra"}, "rightsize catalog validate: want 0 argument(s), got 1 (extra)"},
	} {
		out, errs, code := runCLI(c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "rightsize ") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: code %d, stdout %.80q, stderr %q; want one line with %q", c.args, code, out, errs, c.want)
		}
	}
}
