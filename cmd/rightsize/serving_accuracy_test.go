package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// servingAchieved is the median |error| the simulated benchmark reached on
// the InferenceX points (2026-11-26) by group and split (fit, test, held
// back): all GPUs, and NVIDIA GPUs only. Three mechanisms moved them at
// this date: the MI325X's Infinity Fabric (its TP all-reduces ran over
// PCIe in the model: SGLang MI325X TTFT +176% → +27% median error), the
// AMD generations' all-reduce latency (servingAllReduceLatency: AMD TPOT
// −42% → −2% in-sample) and the recipes' SGLang receive interval on
// Blackwell (sim.recvInterval: SGLang B200 TTFT −48.5% → +8.4%); then
// attention's products at the 16-bit peak under FP8/FP4 linears
// (Hardware.AttnFLOPS: throughput per GPU 10.8/12.7/12.3% → 10.9/11.8/12.0%,
// 8k-prompt TTFT at concurrency 1–4 −40% → −37%). The mean
// the estimate reports is compared with the measured mean where a row keeps
// one ("load TTFT", 213 rows) and with the median where it does not ("load
// TTFT vs median", 878 history rows). The measured means run at about twice
// the medians (median ratio 1.9; ours 1.1): the first wave of each run waits
// seconds more than the steady state, p99 of 68–83 s at a median of
// 0.3–0.8 s on the 2025-11/12 SGLang B200 runs that had no warm-up, and still
// 1.9× after InferenceX added warm-up requests (2026-01-21). The simulator's
// first wave queues only for its prefills, so its mean is about half the
// measured mean there; on the rows whose p99 is under 8× their median the
// mean's error is about 30%. TestServingAccuracy fails when a figure gets
// worse by more than servingSlack; when the model improves, lower them. The
// issue's targets (TTFT 30%, TPOT and throughput per GPU 12%) are met by the
// TTFT medians and the TPOTs, nearly by the throughput, not by the mean TTFT.
var servingAchieved = []struct {
	group  string
	nvidia bool
	splits [3]float64
}{
	{"load TTFT", false, [3]float64{0.499, 0.582, 0.569}},
	{"load TTFT vs median", false, [3]float64{0.305, 0.326, 0.296}},
	{"load TTFT p50", false, [3]float64{0.222, 0.255, 0.253}},
	{"load TPOT", false, [3]float64{0.111, 0.120, 0.112}},
	{"load TPOT vs median", false, [3]float64{0.088, 0.101, 0.087}},
	{"load TPOT p50", false, [3]float64{0.088, 0.106, 0.092}},
	{"load throughput/GPU", false, [3]float64{0.109, 0.118, 0.120}},
	{"load TTFT p50", true, [3]float64{0.212, 0.180, 0.211}},
	{"load TPOT p50", true, [3]float64{0.072, 0.084, 0.084}},
	{"load throughput/GPU", true, [3]float64{0.095, 0.127, 0.119}},
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

// The vLLM H100 sweep InferenceX published as tables (issue #828; test
// rows, nothing fitted to them): 14 TPOTs and 9 throughputs, within the
// issue's 12% target at the median (9.9% and 9.0% on 2026-11-26), each
// row but the concurrency-64 1k/8k one (the report's "hard wall", −54%)
// within 20%.
func TestInferencexTableCases(t *testing.T) {
	cases, err := inferencexTableCases(filepath.Join("..", "..", "estimator", "testdata", "calibration"))
	if err != nil {
		t.Fatal(err)
	}
	abs, walls := map[string][]float64{}, 0
	for i := range cases {
		c := &cases[i]
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		if c.Split != "test" || c.EngineID != "vllm" || c.GPU != "h100" {
			t.Errorf("%s: split %s, engine %s, GPU %s", c.Setting, c.Split, c.EngineID, c.GPU)
		}
		abs[c.Group] = append(abs[c.Group], math.Abs(c.Error))
		if strings.Contains(c.Setting, "1024/8192 conc 64 ") {
			walls++ // the report's "hard wall" (16.01 ms), not modelled
		} else if math.Abs(c.Error) > 0.2 {
			t.Errorf("%s: %+.1f%%, want within 20%% (every row but the wall was within 16%% on 2026-11-26)", c.Setting, 100*c.Error)
		}
	}
	if walls != 1 {
		t.Errorf("%d rows of the 1k/8k concurrency-64 wall, want 1", walls)
	}
	for g, n := range map[string]int{"load TPOT, tables": 14, "load throughput/GPU, tables": 9} {
		if len(abs[g]) != n {
			t.Errorf("%s: %d cases, want %d", g, len(abs[g]), n)
			continue
		}
		if m := quantile(abs[g], 0.5); m > 0.12 {
			t.Errorf("%s: median |error| %.1f%%, want ≤ 12%%", g, 100*m)
		}
	}
}
