package main

import (
	"net/url"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
)

// TestLayoutWhyOnBothDoors: for Llama 3.1 405B's published layouts with
// ZeRO and the schedule left open, the page chooses the CLI's layout and
// says why with the CLI's figures, in every language.
func TestLayoutWhyOnBothDoors(t *testing.T) {
	for _, c := range []struct {
		gpus string
		page string   // the page's fact, in English
		cli  []string // the CLI note's figures
	}{
		{"16384", "ZeRO-2, interleaved 1F1B, 4 chunks a stage fits at 73.55 GiB; ZeRO-1, interleaved 1F1B, 4 chunks a stage needs 79.44 GiB of 79.20 GiB usable",
			[]string{"needs 79.4 GiB of 79.2 usable", "fits at 73.6 GiB"}},
		{"8192", "ZeRO-1, plain 1F1B fits at 75.75 GiB; ZeRO-1, interleaved 1F1B, 4 chunks a stage needs 92.63 GiB of 79.20 GiB usable; ZeRO-2, interleaved 1F1B, 4 chunks a stage needs 86.79 GiB of 79.20 GiB usable",
			[]string{"needs 92.6 GiB of 79.2 usable", "needs 86.8 GiB", "fits at 75.7 GiB"}},
	} {
		job := map[string]string{"model": "llama-3.1-405b", "task": "train", "gpu": "h100-sxm", "gpus": c.gpus, "tp": "8", "pp": "16", "batch": "1", "seq": "8192", "global-batch": "2048"}
		q := url.Values{}
		args := []string{"--train-tokens", "1B"}
		for k, v := range job {
			f, ok := jobspec.ByFlag(k)
			if !ok {
				t.Fatalf("--%s is not a shared job field", k)
			}
			q.Set(jobspec.Fields[f].Key, v)
			args = append(args, "--"+k, v)
		}
		fig, err := page.LinkFigures(q.Encode())
		if err != nil {
			t.Fatalf("%s GPUs: page: %v", c.gpus, err)
		}
		en := page.LayoutWhy(page.Locale{Lang: "en"}, fig.Layout)
		if en != c.page {
			t.Errorf("%s GPUs: page says\n%q; want\n%q", c.gpus, en, c.page)
		}
		_, stdout, stderr := runEst(t, args...)
		out := stdout + stderr
		for _, w := range c.cli {
			if !strings.Contains(out, w) {
				t.Errorf("%s GPUs: the CLI's note lacks %q:\n%s", c.gpus, w, out)
			}
		}
		for _, lang := range []string{"ru", "zh"} {
			if w := page.LayoutWhy(page.Locale{Lang: lang}, fig.Layout); w == "" || w == en || strings.Contains(w, "needs") || strings.Contains(w, "fits") {
				t.Errorf("%s GPUs, %s: %q", c.gpus, lang, w)
			}
		}
	}
}
