package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// servingAchieved is the median |error| the simulated benchmark reached on
// the InferenceX points (2026-11-26) by group and split (fit, test, held
// back): all GPUs, and NVIDIA GPUs only. Since the MI300X carries its
// Infinity Fabric figure (896 GB/s over 7 links) its TP all-reduces no
// longer run over PCIe in the model: TTFT over all GPUs went from
// 53.9/58.4/57.8% to 38.6/33.7/31.0%, while AMD decode, which the slow
// all-reduce had masked, now comes out 16–55% too fast (TPOT 11.3 → 14.4%,
// throughput per GPU 13.0 → 17.9% in-sample): AMD's decode efficiency is
// the next mechanism to fit (a bandwidth share alone does not fit it:
// 0.35–0.75 leaves MI300X and MI355X too fast or MI325X too slow). TestServingAccuracy fails when a figure gets
// worse by more than servingSlack; when the model improves, lower them.
// The targets (TTFT 30%, TPOT and throughput per GPU 12%) are
// not all met: docs/accuracy.md says where the error comes from.
var servingAchieved = []struct {
	group  string
	nvidia bool
	splits [3]float64
}{
	{"load TTFT p50", false, [3]float64{0.386, 0.337, 0.310}},
	{"load TPOT p50", false, [3]float64{0.144, 0.152, 0.201}},
	{"load throughput/GPU", false, [3]float64{0.179, 0.195, 0.309}},
	{"load TTFT p50", true, [3]float64{0.346, 0.350, 0.259}},
	{"load TPOT p50", true, [3]float64{0.079, 0.098, 0.085}},
	{"load throughput/GPU", true, [3]float64{0.100, 0.144, 0.124}},
}

const servingSlack = 0.02

func TestServingAccuracy(t *testing.T) {
	cases, err := inferencexCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string][]float64{}
	for i := range cases {
		c := &cases[i]
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		for _, nv := range []bool{false, true} {
			if nv && strings.HasPrefix(c.GPU, "mi") {
				continue
			}
			k := c.Group + "|" + c.Split + "|" + map[bool]string{false: "all", true: "nvidia"}[nv]
			errs[k] = append(errs[k], math.Abs(c.Error))
		}
	}
	for _, a := range servingAchieved {
		for i, s := range valSplits {
			k := a.group + "|" + s + "|" + map[bool]string{false: "all", true: "nvidia"}[a.nvidia]
			v := errs[k]
			if len(v) < 20 {
				t.Errorf("%s: %d points", k, len(v))
				continue
			}
			got := quantile(v, 0.5)
			t.Logf("%-40s n=%4d median |error| %.1f%% (recorded %.1f%%)", k, len(v), 100*got, 100*a.splits[i])
			if got > a.splits[i]+servingSlack {
				t.Errorf("%s: median |error| %.1f%%, worse than the recorded %.1f%%", k, 100*got, 100*a.splits[i])
			}
		}
	}
}
