package main

import (
	"math"
	"strings"
	"testing"
)

// TestTPCommOverlapFlag: --tp-comm-overlap replays Megatron-Bridge's Llama
// 3 70B H100 FP8 row (NeMo 26.04.01: TP 4, PP 8, VP 5, GBS 256, measured
// 1,664 tokens/s a GPU) at 1,550 tokens/s a GPU, from 1,408 with the TP
// all-reduces in turn (estimator.tpOverlapExposed), and is refused without
// sequence parallelism or outside training.
func TestTPCommOverlapFlag(t *testing.T) {
	args := []string{"--model", "llama-3-70b", "--task", "train", "--precision", "fp8", "--gpu", "h100-sxm", "--gpus", "64",
		"--tp", "4", "--pp", "8", "--zero", "1", "--batch", "1", "--seq", "8192", "--global-batch", "256", "--network-gbps", "3200",
		"--train-tokens", "1B", "--attention-kernel", "cudnn", "--virtual-stages", "5"}
	for _, c := range []struct {
		flags []string
		want  float64
	}{{nil, 1408.3}, {[]string{"--tp-comm-overlap"}, 1549.7}} {
		p := perfOf(estJSON(t, append(args, c.flags...)...))
		if got, _ := p["tokens_per_second"].(float64); math.Abs(got/64-c.want) > 0.1 {
			t.Errorf("%v: %.1f tokens/s a GPU, want %.1f", c.flags, got/64, c.want)
		}
	}
	for _, bad := range [][]string{
		append(append([]string{}, args...), "--tp-comm-overlap", "--sequence-parallel=false"),
		{"--model", "llama-3-70b", "--gpu", "h100-sxm", "--gpus", "4", "--tp", "4", "--tp-comm-overlap"},
	} {
		code, _, errs := runEst(t, bad...)
		if code == 0 || !strings.Contains(errs, "tp-comm-overlap") {
			t.Errorf("%v: exit %d, %q: want a refusal naming --tp-comm-overlap", bad, code, errs)
		}
	}
}
