package main

import (
	"fmt"
	"slices"
	"sort"
	"testing"
)

// publishedRunsCalledOOM are the published training and fine-tune runs
// that ran with the layout and flags their row states and that the memory
// estimate still calls out of memory, each with why (the calibration
// README's rounds say what each needs). A row that leaves this list
// because it now fits must be taken off it.
var publishedRunsCalledOOM = map[string]string{
	// ms-swift's Qwen-72B LoRA on a GPTQ int8 base: 79.9 GiB counted
	// against 79.2 usable, 1.9% over its measured 78.44 GiB reserved; no
	// source yet separates the over-count (the calibration README's
	// sixty-seventh round).
	"qwen-72b-chat LoRA on a int8 (gptq) base, A100, batch 1 × 2048, peak reserved": "1.9% over its measured peak, no source for the over-count",
}

// Every published training and fine-tune run the validation replays, with
// the layout and flags its row states, is called fitting: a layout a
// published run used is never called out of memory (runs the row records
// as out of memory, and rows whose printed peak cannot be their printed
// setup, are left out). The few that still are fail unless listed in
// publishedRunsCalledOOM, and a listed row that fits fails too.
func TestPublishedTrainingRunsFit(t *testing.T) {
	cases, err := validationCases(findCalibrationDir())
	if err != nil {
		t.Fatal(err)
	}
	var over []string
	stillOOM := map[string]bool{}
	seen := map[string]bool{}
	n := 0
	for _, c := range cases {
		switch c.Group {
		case "training time", "MFU", "fine-tune memory", "fine-tune memory, generic flags":
		default:
			continue
		}
		if c.OOM {
			continue
		}
		if c.Call {
			if err := c.run(); err != nil {
				t.Fatalf("%s: %v", c.Setting, err)
			}
			if c.Inconsistent {
				continue
			}
		}
		args := append(slices.Clone(c.Args), "--json")
		key := fmt.Sprint(args)
		if seen[key] {
			continue
		}
		seen[key] = true
		n++
		fits, err := estimateField(args, "fits")
		if err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		if fits == 1 {
			if _, listed := publishedRunsCalledOOM[c.Setting]; listed {
				t.Errorf("%s (%s) now fits: take it off publishedRunsCalledOOM", c.Setting, c.Source)
			}
			continue
		}
		if _, listed := publishedRunsCalledOOM[c.Setting]; listed {
			stillOOM[c.Setting] = true
			continue
		}
		peak, _ := estimateField(args, "peak_bytes")
		usable, _ := estimateField(args, "usable_bytes")
		over = append(over, fmt.Sprintf("%s (%s): %.1f GiB needed of %.1f usable", c.Setting, c.Source, peak/(1<<30), usable/(1<<30)))
	}
	sort.Strings(over)
	for _, s := range over {
		t.Errorf("published run called out of memory: %s", s)
	}
	for s := range publishedRunsCalledOOM {
		if !stillOOM[s] && !slices.ContainsFunc(cases, func(c valCase) bool { return c.Setting == s }) {
			t.Errorf("publishedRunsCalledOOM names %q, which no validation case replays", s)
		}
	}
	if n < 300 {
		t.Errorf("%d published training runs checked; want the whole replay (over 300)", n)
	}
}
