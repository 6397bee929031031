package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// launchFlags are the flags of each serving engine's launch that carry a
// copy's layout and context (catalog/launch serve.go, engineCommand).
var launchFlags = map[string]struct{ tp, dp, ep, pp, ctx string }{
	"vllm":   {"--tensor-parallel-size", "--data-parallel-size", "", "--pipeline-parallel-size", "--max-model-len"},
	"sglang": {"--tp-size", "--dp-size", "--ep-size", "--pp-size", "--context-length"},
	"trtllm": {"--tp_size", "", "--ep_size", "--pp_size", "--max_seq_len"},
}

// flagNum is the number after the first "name " in a launch's text, and
// whether there is one; def where the launch leaves the flag out.
func flagNum(t *testing.T, text, name string, def int) int {
	t.Helper()
	i := strings.Index(text, " "+name+" ")
	if name == "" || i < 0 {
		return def
	}
	f := strings.Fields(text[i+len(name)+2:])
	n, err := strconv.Atoi(strings.TrimSuffix(f[0], "\\"))
	if err != nil {
		t.Fatalf("%s %q: %v", name, f[0], err)
	}
	return n
}

// checkServeLaunch says where the launch text of engine kind contradicts
// row r of a plan of prompt + output tokens: its layout (TP, attention
// DP, EP, PP), its weights and its context.
func checkServeLaunch(t *testing.T, kind string, r planRowJSON, text string, tokens int) {
	t.Helper()
	par, f := r.Parallelism, launchFlags[kind]
	dp, ep := max(par.AttentionDP, 1), max(par.ExpertParallel, 1)
	want := map[string]int{f.tp: par.TP, f.pp: max(par.PP, 1)}
	switch kind {
	case "vllm":
		// --data-parallel-size D runs D attention ranks of TP/D GPUs
		// each; without attention DP it counts copies on the instance.
		if dp > 1 {
			want[f.tp], want[f.dp] = par.TP/dp, dp
		}
		if got := strings.Contains(text, "--enable-expert-parallel"); got != (ep > 1) {
			t.Errorf("EP %d, --enable-expert-parallel %v", ep, got)
		}
	case "sglang":
		if dp > 1 {
			want[f.dp] = dp
		}
		want[f.ep] = ep
	case "trtllm":
		want[f.ep] = ep
		if got := strings.Contains(text, "enable_attention_dp: true"); got != (dp > 1) {
			t.Errorf("attention DP %d, enable_attention_dp %v", dp, got)
		}
	}
	for name, n := range want {
		if got := flagNum(t, text, name, 1); got != n {
			t.Errorf("%s %d, the plan's %d (TP %d PP %d DP %d EP %d)", name, got, n, par.TP, par.PP, dp, ep)
		}
	}
	if got := flagNum(t, text, f.ctx, 0); got != tokens {
		t.Errorf("%s %d, the plan's requests are %d tokens", f.ctx, got, tokens)
	}
	// The weights: a 16-bit row runs its --dtype and no quantisation; a
	// quantised one names its format, as a flag or a note.
	switch w := r.Weights; w {
	case "bf16", "fp16":
		d := map[string]string{"bf16": "bfloat16", "fp16": "float16"}[w]
		if strings.Contains(text, "--quantization") || (strings.Contains(text, "--dtype ") && !strings.Contains(text, "--dtype "+d)) {
			t.Errorf("a %s row launched as\n%s", w, text)
		}
	default:
		if !strings.Contains(text, "--quantization "+w) && !strings.Contains(text, w+" weights") {
			t.Errorf("a %s row launched as\n%s", w, text)
		}
	}
}

// TestServingPicksLaunch runs the cheapest, fastest and value picks of
// serving and batch jobs, and the disaggregated alternative where the
// plan offers one, through --emit of the engine planned: every pick
// launches, and its launch runs the plan's layout, weights and context.
// A pick the engine refuses at start-up (a block-FP8 checkpoint split
// into partial blocks, MXFP4 where the engine has no kernel) is the
// planner's defect, not the launch's.
func TestServingPicksLaunch(t *testing.T) {
	for _, c := range []struct {
		engine string
		args   []string
	}{
		{"vllm", []string{"--model", "llama-3.1-8b", "--requests-per-second", "5"}},
		{"sglang", []string{"--model", "llama-3.1-8b", "--requests-per-second", "50", "--kind", "any"}},
		{"trtllm", []string{"--model", "llama-3.1-8b", "--requests-per-second", "200"}},
		{"vllm", []string{"--model", "llama-3.1-8b", "--requests-per-second", "1", "--gpu", "t4"}},
		{"vllm", []string{"--model", "llama-3.1-8b", "--requests-per-second", "2", "--gpu", "v100-32gb", "--kind", "any"}},
		{"vllm", []string{"--model", "llama-3.1-70b", "--requests-per-second", "10"}},
		{"trtllm", []string{"--model", "llama-3.1-70b", "--requests-per-second", "1", "--kind", "any"}},
		{"vllm", []string{"--model", "llama-3.1-405b", "--requests-per-second", "2"}},
		{"sglang", []string{"--model", "llama-3.1-405b", "--requests-per-second", "5", "--precision", "fp8"}},
		{"vllm", []string{"--model", "qwen3-30b-a3b", "--requests-per-second", "20"}},
		{"sglang", []string{"--model", "qwen3-30b-a3b", "--requests-per-second", "100", "--kind", "any"}},
		{"vllm", []string{"--model", "qwen3-235b-a22b", "--requests-per-second", "5"}},
		{"trtllm", []string{"--model", "qwen3-235b-a22b", "--requests-per-second", "10", "--precision", "fp8"}},
		{"vllm", []string{"--model", "deepseek-r1", "--requests-per-second", "2"}},
		{"sglang", []string{"--model", "deepseek-r1", "--requests-per-second", "20", "--kind", "any"}},
		{"trtllm", []string{"--model", "deepseek-r1", "--requests-per-second", "5"}},
		{"sglang", []string{"--model", "kimi-k2", "--requests-per-second", "5"}},
		{"vllm", []string{"--model", "kimi-k2", "--requests-per-second", "1", "--kind", "any"}},
		{"vllm", []string{"--model", "gpt-oss-20b", "--requests-per-second", "10"}},
		{"vllm", []string{"--model", "gpt-oss-20b", "--requests-per-second", "1", "--gpu", "t4", "--kind", "any"}},
		{"sglang", []string{"--model", "gpt-oss-120b", "--requests-per-second", "20"}},
		{"trtllm", []string{"--model", "gpt-oss-120b", "--requests-per-second", "5"}},
		{"vllm", []string{"--model", "gemma-3-27b", "--requests-per-second", "10"}},
		{"sglang", []string{"--model", "mixtral-8x7b", "--requests-per-second", "20"}},
		{"vllm", []string{"--model", "llama-3.1-70b", "--requests", "1M", "--deadline", "12h"}},
		{"sglang", []string{"--model", "deepseek-r1", "--requests", "1M", "--deadline", "24h", "--kind", "any"}},
	} {
		args := append([]string{"--engine", c.engine, "--prompt-tokens", "1000", "--output-tokens", "300"}, c.args...)
		t.Run(c.engine+" "+strings.Join(c.args, " "), func(t *testing.T) {
			p := planJSONOf(t, args...)
			rows := picksOf(t, p)
			for _, pick := range emitPicks {
				if pick == "disaggregated" && p.Disagg == nil {
					continue
				}
				code, out, errs := runPlanArgs(t, append(append([]string{}, args...), "--emit", c.engine, "--emit-pick", pick)...)
				r := rows[pick]
				if code != 0 {
					t.Errorf("%s (%s, TP %d DP %d EP %d, %s): exit %d: %s", pick, r.OfferID, r.Parallelism.TP, r.Parallelism.AttentionDP, r.Parallelism.ExpertParallel, r.Weights, code, errs)
					continue
				}
				if d := p.Disagg; pick == "disaggregated" {
					// The launch is of the alternative the plan shows.
					want := fmt.Sprintf("%d prefill and %d decode workers of TP %d", d.Prefill, d.Decode, d.TP)
					if !strings.Contains(errs, want) || !strings.Contains(errs, d.InstanceType) {
						t.Errorf("disaggregated: %q does not name %q on %s", errs, want, d.InstanceType)
					}
					continue
				}
				t.Run(pick, func(t *testing.T) { checkServeLaunch(t, c.engine, r, out, 1300) })
			}
		})
	}
}

// TestBlockSplitRefusedAtPlan: the user's own TP 32 for DeepSeek-R1's
// block-FP8 checkpoint splits its 2048-wide experts into 64-wide shards,
// which vLLM and SGLang refuse at start-up; the plan refuses it with the
// launch's reason (it was planned, and only --emit refused it), and the
// same layout of 16-bit weights, which have no blocks, is planned.
func TestBlockSplitRefusedAtPlan(t *testing.T) {
	args := []string{"--model", "deepseek-r1", "--gpu", "h100-sxm", "--gpus", "32", "--tp", "32", "--requests-per-second", "5"}
	for _, engine := range []string{"vllm", "sglang"} {
		code, _, errs := runPlanArgs(t, append([]string{"--engine", engine}, args...)...)
		if code == 0 || !strings.Contains(errs, "tp=32") || !strings.Contains(errs, "2048-wide layers split over TP 32 are not whole 128-wide blocks") {
			t.Errorf("%s: exit %d, want the block refusal: %s", engine, code, errs)
		}
	}
	if code, _, errs := runPlanArgs(t, append([]string{"--precision", "bf16"}, args...)...); code != 0 {
		t.Errorf("bf16: exit %d: %s", code, errs)
	}
}
