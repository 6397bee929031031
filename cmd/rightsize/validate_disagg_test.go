package main

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestDisaggRecipeDecodeBatch: the replay gives a TensorRT-LLM row the
// decode max_batch_size of the recipe InferenceX names for it, per worker
// (× the GPUs under attention DP, where each rank schedules its own).
func TestDisaggRecipeDecodeBatch(t *testing.T) {
	cases, err := disaggCases("../../estimator/testdata/calibration")
	if err != nil {
		t.Fatal(err)
	}
	batchOf := func(set string) string {
		t.Helper()
		for _, c := range cases {
			if c.Group == disaggTTFT && strings.HasPrefix(c.Setting, set) {
				if i := slices.Index(c.Args, "--decode-batch"); i >= 0 {
					return c.Args[i+1]
				}
				return ""
			}
		}
		t.Fatalf("no row %q", set)
		return ""
	}
	for _, c := range []struct{ set, want string }{
		// recipes/trtllm/h100-fp8/1k1k/stp/ctx1_gen3_tep16_batch1_eplb0_mtp0.yaml
		{"DeepSeek-R1-0528 h100 dynamo-trt fp8 1P(TP 16 EP 16 DP-attn) 3D(TP 16 EP 16) 1024/1024 conc 6 ", "1"},
		// recipes/trtllm/gb200-fp8/1k1k/stp/ctx1_gen1_dep32_batch32_eplb0_mtp0_1127.yaml: 32 a rank × 32 ranks
		{"DeepSeek-R1-0528 gb200 dynamo-trt fp8 1P(TP 8 EP 8 DP-attn) 1D(TP 32 EP 32 DP-attn) 1024/1024 conc 1127 ", "1024"},
		// SGLang rows keep every request in flight decoding.
		{"DeepSeek-R1-0528 mi355x mori-sglang", ""},
	} {
		if got := batchOf(c.set); got != c.want {
			t.Errorf("%s: --decode-batch %q, want %q", c.set, got, c.want)
		}
	}
}

// TestWideEPCases: the two published SGLang EP 72 decode steps replay
// through `rightsize estimate --steady-state` within 10% (87.8 ms against
// 91.9 with two-batch overlap, 117.7 against 115.2 without; the
// catalog's H100 runs MLA's attention at its 16-bit rate), with the
// overlap and without it as the rows say; the 48-GB200 NVFP4 decode of
// 1,408 sequences a GPU, a test row, within 40% (141.1 ms against 105.2:
// the exchange past 128 tokens a rank at NVLink's figure,
// estimator.inferModel.lowLatencyExtra; 237.8 ms, +126%, at the
// low-latency kernels' 128-token figure throughout).
func TestWideEPCases(t *testing.T) {
	cases, err := wideEPCases("../../estimator/testdata/calibration")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 {
		t.Fatalf("%d cases, want the 3 rows marked for replay", len(cases))
	}
	overlap, test := 0, 0
	for i := range cases {
		c := &cases[i]
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.Setting, err)
		}
		if slices.Contains(c.Args, "--two-batch-overlap") {
			overlap++
		}
		switch {
		case slices.Contains(c.Args, "gb200"):
			test++
			if c.Split != "test" || !(c.Error > 0.25 && c.Error < 0.40) {
				t.Errorf("%s: %s, step %.1f ms against %.1f: want a test row 25–40%% long", c.Setting, c.Split, c.Estimated, c.Measured)
			}
		case c.Split != "fit" || !(math.Abs(c.Error) < 0.10):
			t.Errorf("%s: %s, step %.1f ms against %.1f: want a fit row within 10%%", c.Setting, c.Split, c.Estimated, c.Measured)
		}
	}
	if overlap != 1 || test != 1 {
		t.Errorf("%d rows with two-batch overlap and %d GB200 rows, want 1 and 1", overlap, test)
	}
}

// TestSGLangPrefillWorkerRate: two InferenceX SGLang rows saturate their
// one H200 prefill worker (DeepSeek-R1 FP8, 1k/1k, 2,048 in flight, six
// decode workers), so their measured request rate (output tokens/s per
// GPU × 56 GPUs / 1,024) is that worker's prompt rate: 30.6 prompts/s
// with attention DP 8 and EP 8 (MTP), 23.3 with TP 8. The estimate's
// replica is prefill-bound too and its rate within 25% of each: 35.3 and
// 26.4, where the forward alone gave 74.9 and 43.7
// (estimator.sglangPrefillHandoverSeconds: each prompt's handover keeps
// the worker busy).
func TestSGLangPrefillWorkerRate(t *testing.T) {
	cases, err := disaggCases("../../estimator/testdata/calibration")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		set  string
		rate float64
	}{
		{"DeepSeek-R1-0528 h200 dynamo-sglang fp8 1P(TP 8 EP 8 DP-attn) 6D(TP 8 EP 8 DP-attn) 1024/1024 conc 2048 ", 560.240673 * 56 / 1024},
		{"DeepSeek-R1-0528 h200 dynamo-sglang fp8 1P(TP 8 EP 1) 6D(TP 8 EP 1) 1024/1024 conc 2048 ", 425.573272 * 56 / 1024},
	} {
		i := slices.IndexFunc(cases, func(c valCase) bool { return c.Group == disaggTTFT && strings.HasPrefix(c.Setting, r.set) })
		if i < 0 {
			t.Fatalf("no row %q", r.set)
		}
		d, _ := perfOf(estJSON(t, cases[i].Args...))["disaggregated"].(map[string]any)
		rate, _ := d["requests_per_second"].(float64)
		util, _ := d["prefill_utilization"].(float64)
		if !(math.Abs(rate/r.rate-1) < 0.25) || !(util > 0.95) {
			t.Errorf("%s: %.1f requests/s at prefill load %.2f, measured %.1f: want a saturated prefill worker within 25%%", r.set, rate, util, r.rate)
		}
	}
}

// TestDisaggBreakdown: the disaggregated table's decode-worker and
// concurrency breakdowns read the replay's own flags, and every
// expressible TTFT row falls in exactly one value of each.
func TestDisaggBreakdown(t *testing.T) {
	c := valCase{Args: []string{"--disagg", "--decode-dp", "8", "--mtp-draft-tokens", "1"}, Concurrency: 17}
	if got := disaggBy(c, "decode worker"); got != "attention DP, MTP" {
		t.Errorf("decode worker %q, want attention DP, MTP", got)
	}
	if got := disaggBy(c, "concurrency"); got != "17–64" {
		t.Errorf("concurrency band %q, want 17–64", got)
	}
	c = valCase{Args: []string{"--disagg", "--decode-dp", "1"}, Concurrency: 16}
	if got := disaggBy(c, "decode worker"); got != "TP" {
		t.Errorf("decode worker %q, want TP", got)
	}
	if got := disaggBy(c, "concurrency"); got != "5–16" {
		t.Errorf("concurrency band %q, want 5–16", got)
	}
	cases, err := disaggCases("../../estimator/testdata/calibration")
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []string{"decode worker", "concurrency"} {
		n := map[string]int{}
		total := 0
		for _, c := range cases {
			if c.Group == disaggTTFT {
				n[disaggBy(c, by)]++
				total++
			}
		}
		if n[""] > 0 || len(n) < 3 || total < 500 {
			t.Errorf("%s: %v over %d rows, want every row in one of at least 3 values", by, n, total)
		}
	}
}
