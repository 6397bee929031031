package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// servingAchieved is the median |error| the simulated benchmark reached on
// the InferenceX points (2026-11-26) by group and split (fit, test, held
// back): all GPUs, and NVIDIA GPUs only (the catalog gives the AMD
// Instinct GPUs no Infinity Fabric bandwidth, so their TP all-reduces run
// over PCIe in the model). TestServingAccuracy fails when a figure gets
// worse by more than servingSlack; when the model improves, lower them.
// The targets (TTFT 30%, TPOT and throughput per GPU 12%) are
// not all met: docs/accuracy.md says where the error comes from.
var servingAchieved = []struct {
	group  string
	nvidia bool
	splits [3]float64
}{
	{"load TTFT p50", false, [3]float64{0.539, 0.584, 0.578}},
	{"load TPOT p50", false, [3]float64{0.113, 0.134, 0.220}},
	{"load throughput/GPU", false, [3]float64{0.130, 0.165, 0.212}},
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
