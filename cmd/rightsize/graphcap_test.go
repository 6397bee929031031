package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestSimulateGraphCapFallback replays SGLang's own measurement of decode
// past the captured CUDA graphs (sgl-project/sglang PR #40346, 2026-09-19,
// for issue #33483): Qwen3-0.6B on an RTX 5090 32 GB, SGLang v0.5.20,
// 1,000 random requests of 128 prompt and 256 output tokens at 50
// requests/s, --mem-fraction-static 0.28: median TPOT 5.44–5.51 ms with
// graphs to 48 sequences, 2.64 ms with graphs to 128, 2.07× (the batch
// outgrows 48 and, decoding eager, stays there). The simulated open-loop
// benchmark at the same settings reads 11.7 and 4.9 ms: the ratio within
// a fifth (2.4×), the decode batch more than doubled by the fallback; the
// absolute figures are the 4 ms host floor's on a model this small, which
// the estimate keeps (calibration README, hundred-seventeenth round).
func TestSimulateGraphCapFallback(t *testing.T) {
	tpot := func(graphs string) (p50, running float64) {
		t.Helper()
		var out, errb bytes.Buffer
		args := []string{"simulate", "--model", "qwen3-0.6b", "--gpu", "rtx-5090", "--engine", "sglang", "--engine-version", "0.5.20",
			"--prompt-tokens", "128", "--output-tokens", "256", "--range-ratio", "0", "--rates", "50", "--num-requests", "1000",
			"--gpu-mem-util", "0.28", "--cuda-graph-max-bs", graphs, "--format", "json"}
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var r struct {
			Points []struct {
				TPOT        struct{ P50 float64 } `json:"tpot_seconds"`
				MeanRunning float64               `json:"mean_running"`
			} `json:"points"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Points) != 1 {
			t.Fatalf("%v: %v", args, err)
		}
		return r.Points[0].TPOT.P50, r.Points[0].MeanRunning
	}
	eager, runE := tpot("48")
	graphs, runG := tpot("128")
	const measured = 5.475 / 2.64
	if ratio := eager / graphs; ratio < measured*0.8 || ratio > measured*1.25 {
		t.Errorf("median TPOT %.2f ms at graphs to 48, %.2f ms to 128: %.2f×, want within a fifth of the measured %.2f×", eager*1e3, graphs*1e3, ratio, measured)
	}
	if runE < 2*runG || runG > 128 || runE <= 48 {
		t.Errorf("mean running %.0f at graphs to 48, %.0f to 128: want the batch past 48 and over twice the graphs' one", runE, runG)
	}
}
