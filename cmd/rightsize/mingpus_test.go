package main

import (
	"net/url"
	"strconv"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
)

// TestMinGPUsOnBothDoors: a job that does not fit on the GPUs as set gets
// the same fewest count of its GPU at both doors: the page's fact "Fewest
// of this GPU that fit" (page.Figures.MinGPUs) and the CLI's
// min_gpus_that_fit, both estimator.MinGPUsInput; a job that fits has none
// on the page.
func TestMinGPUsOnBothDoors(t *testing.T) {
	for _, c := range []struct {
		job  map[string]string
		want int
	}{
		{map[string]string{"model": "deepseek-r1", "precision": "fp8", "engine": "sglang", "gpu": "h100-sxm"}, 16},
		{map[string]string{"model": "llama-3.1-70b", "gpu": "rtx-4090"}, 0}, // set below from the CLI
		{map[string]string{"model": "llama-3.1-70b", "task": "finetune", "gpu": "a100-80gb-sxm"}, 0},
	} {
		q := url.Values{}
		var args []string
		for k, v := range c.job {
			f, ok := jobspec.ByFlag(k)
			if !ok {
				t.Fatalf("--%s is not a shared job field", k)
			}
			q.Set(jobspec.Fields[f].Key, v)
			args = append(args, "--"+k, v)
		}
		r := estJSON(t, args...)
		cli := int(r["min_gpus_that_fit"].(float64))
		fig, _ := page.LinkFigures(q.Encode())
		if fig.MinGPUs != cli || cli < 2 || c.want > 0 && cli != c.want {
			t.Errorf("%v: page %d, CLI %d GPUs (want %d)", c.job, fig.MinGPUs, cli, c.want)
		}
		t.Logf("%v: %s GPUs", c.job, strconv.Itoa(cli))
	}
	fig, err := page.LinkFigures("m=llama-3.1-8b")
	if err != nil || fig.MinGPUs != 0 {
		t.Errorf("a job that fits: %d GPUs on the page (%v)", fig.MinGPUs, err)
	}
}
