package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
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

// engineProc is one engine process a launch starts: its VAR=value
// prefix and its flags, in order ("" for a bare flag).
type engineProc struct {
	env   map[string]string
	flags [][2]string
	// batch marks vLLM's offline batch runner (vllm run-batch), whose
	// own flags are testdata/vllm_run_batch_flags.txt.
	batch bool
}

func (p engineProc) num(name string, def int) int {
	for _, f := range p.flags {
		if f[0] == name {
			if n, err := strconv.Atoi(f[1]); err == nil {
				return n
			}
		}
	}
	return def
}

func (p engineProc) has(name string) bool {
	return slices.ContainsFunc(p.flags, func(f [2]string) bool { return f[0] == name })
}

// engineProcs splits a serving launch into its engine processes (vllm
// serve, python -m sglang.launch_server, trtllm-serve); the model
// argument is skipped.
func engineProcs(text string) []engineProc {
	var out []engineProc
	for _, line := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		toks := strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), "&"))
		env := map[string]string{}
		for len(toks) > 0 && strings.Contains(toks[0], "=") && !strings.HasPrefix(toks[0], "-") {
			k, v, _ := strings.Cut(toks[0], "=")
			env[k] = v
			toks = toks[1:]
		}
		batch := false
		switch {
		case len(toks) > 2 && toks[0] == "vllm" && toks[1] == "serve":
			toks = toks[3:]
		case len(toks) > 1 && toks[0] == "vllm" && toks[1] == "run-batch":
			toks, batch = toks[2:], true
		case len(toks) > 2 && toks[0] == "python" && toks[2] == "sglang.launch_server":
			toks = toks[3:]
		case len(toks) > 1 && toks[0] == "trtllm-serve":
			toks = toks[2:]
		default:
			continue
		}
		p := engineProc{env: env, batch: batch}
		for i := 0; i < len(toks); i++ {
			name, v := toks[i], ""
			if !strings.HasPrefix(name, "--") {
				continue
			}
			if i+1 < len(toks) && !strings.HasPrefix(toks[i+1], "--") {
				v = strings.Trim(toks[i+1], "'")
				i++
			}
			p.flags = append(p.flags, [2]string{name, v})
		}
		out = append(out, p)
	}
	return out
}

// engineVocab is the flags engine kind's parser names at the release the
// launch package pins (catalog/launch/testdata/KIND_flags.txt), each with
// the values its choices allow (none listed: any value).
func engineVocab(t *testing.T, kind string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "catalog", "launch", "testdata", kind+"_flags.txt"))
	if err != nil {
		t.Fatal(err)
	}
	v := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] != "#" && strings.HasPrefix(f[0], "--") {
			v[f[0]] = f[1:]
		}
	}
	return v
}

// memShareFlags are the engines' memory share flags.
var memShareFlags = map[string]string{"vllm": "--gpu-memory-utilization", "sglang": "--mem-fraction-static", "trtllm": "--kv_cache_free_gpu_memory_fraction"}

// checkServeProcs says where the engine processes of a launch do not run
// row r as planned: a flag the engine's parser does not name or a value
// outside its choices; GPUs per instance other than the row rents (each
// process's TP x PP, times its data-parallel ranks on the instance, over
// the instances a copy spans), processes whose CUDA_VISIBLE_DEVICES do not
// hold their own GPUs, disjoint; a memory share outside (0, 1] or other
// than the planner's (mem_share); vLLM's step budget under its sequence
// limit (its SchedulerConfig refuses that); and vLLM's --data-parallel-size
// joining copies of a mixture-of-experts model, whose ranks then step
// together with their experts split over all of them (vLLM docs, "Data
// Parallel Deployment").
func checkServeProcs(t *testing.T, kind string, moe bool, r planRowJSON, text string) {
	t.Helper()
	gpus := checkEngineProcs(t, kind, moe, max(r.InstancesPerReplica, 1), r.MemShare, text)
	if want := int(math.Ceil(r.GPUsPerInstance)); gpus != want {
		t.Errorf("the launch runs %d GPUs an instance; the plan rents %v (TP %d PP %d, %d copies)", gpus, r.GPUsPerInstance, r.Parallelism.TP, r.Parallelism.PP, r.Parallelism.DP)
	}
}

// checkEngineProcs checks each engine process of a launch whose copies
// span nodes instances, with the planner's memory share (0: the
// engine's), and returns the GPUs they run on one instance.
func checkEngineProcs(t *testing.T, kind string, moe bool, nodes int, memShare float64, text string) int {
	t.Helper()
	procs := engineProcs(text)
	if len(procs) == 0 {
		t.Fatalf("no engine process in\n%s", text)
	}
	vocab := engineVocab(t, kind)
	batchVocab := engineVocab(t, "vllm_run_batch")
	var gpus int
	var devices []string
	for i, p := range procs {
		for _, f := range p.flags {
			choices, ok := vocab[f[0]]
			if p.batch && !ok {
				choices, ok = batchVocab[f[0]]
			}
			if !ok {
				t.Errorf("process %d: %s is not a flag of %s at the pinned release", i, f[0], kind)
			} else if len(choices) > 0 && f[1] != "" && !slices.Contains(choices, f[1]) {
				t.Errorf("process %d: %s %s, want one of %v", i, f[0], f[1], choices)
			}
		}
		n := 0
		switch kind {
		case "vllm":
			ranks := p.num("--data-parallel-size", 1)
			if p.has("--data-parallel-size-local") {
				ranks = p.num("--data-parallel-size-local", 1) * nodes
			}
			n = p.num("--tensor-parallel-size", 1) * p.num("--pipeline-parallel-size", 1) * ranks
			if moe && ranks > 1 && !p.has("--enable-expert-parallel") {
				t.Errorf("process %d: --data-parallel-size %d joins copies of an MoE model into one expert group of %d GPUs", i, ranks, n)
			}
			if s, b := p.num("--max-num-seqs", 0), p.num("--max-num-batched-tokens", 0); s > 0 && b > 0 && b < s {
				t.Errorf("process %d: --max-num-batched-tokens %d under --max-num-seqs %d", i, b, s)
			}
		case "sglang":
			n = p.num("--tp-size", 1) * p.num("--pp-size", 1)
			if !p.has("--enable-dp-attention") {
				n *= p.num("--dp-size", 1)
			}
			// Expert parallelism under attention DP is priced as DeepEP's
			// all-to-all, in one node or over several
			// (estimator.SGLangDeepEP): the launch runs it, with EP the
			// TP group as SGLang's DeepEP makes it, and runs it nowhere
			// else.
			priced := moe && p.has("--enable-dp-attention") && p.num("--dp-size", 1) > 1 && p.num("--ep-size", 1) > 1
			switch deepep := flagValue(p, "--moe-a2a-backend") == "deepep"; {
			case priced && !deepep:
				t.Errorf("process %d: expert parallelism under attention DP, priced as DeepEP's all-to-all, launched without --moe-a2a-backend deepep", i)
			case deepep && !priced:
				t.Errorf("process %d: --moe-a2a-backend deepep where the plan priced no DeepEP all-to-all", i)
			case deepep && p.num("--ep-size", 1) != p.num("--tp-size", 1):
				t.Errorf("process %d: --ep-size %d under DeepEP, which SGLang sets to --tp-size %d", i, p.num("--ep-size", 1), p.num("--tp-size", 1))
			}
		case "trtllm":
			n = p.num("--tp_size", 1) * p.num("--pp_size", 1)
		}
		if n%nodes != 0 {
			t.Errorf("process %d: %d GPUs over %d instances", i, n, nodes)
		}
		n /= nodes
		if cvd, ok := p.env["CUDA_VISIBLE_DEVICES"]; ok {
			ids := strings.Split(cvd, ",")
			if len(ids) != n {
				t.Errorf("process %d: CUDA_VISIBLE_DEVICES=%s for %d GPUs", i, cvd, n)
			}
			devices = append(devices, ids...)
		}
		gpus += n
		share, err := strconv.ParseFloat(flagValue(p, memShareFlags[kind]), 64)
		if err != nil || share <= 0 || share > 1 || (memShare > 0 && share != memShare) {
			t.Errorf("process %d: %s %q, the planner's %v", i, memShareFlags[kind], flagValue(p, memShareFlags[kind]), memShare)
		}
	}
	slices.Sort(devices)
	if len(slices.Compact(slices.Clone(devices))) != len(devices) {
		t.Errorf("processes share GPUs: CUDA_VISIBLE_DEVICES %v", devices)
	}
	return gpus
}

func flagValue(p engineProc, name string) string {
	for _, f := range p.flags {
		if f[0] == name {
			return f[1]
		}
	}
	return ""
}

// isMoE is whether the catalog's model id is a mixture of experts.
func isMoE(t *testing.T, id string) bool {
	t.Helper()
	m, ok := catalog.Default().Model(id)
	if !ok {
		t.Fatalf("no catalog model %s", id)
	}
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	return a.IsMoE()
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
		// A V100 runs vLLM before 0.20.0 only (estimator.SupportForJob).
		{"vllm", []string{"--model", "llama-3.1-8b", "--requests-per-second", "2", "--gpu", "v100-32gb", "--kind", "any", "--engine-version", "0.19.1"}},
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
		{"sglang", []string{"--model", "deepseek-r1", "--requests-per-second", "20", "--gpu", "h200-sxm"}},
		{"sglang", []string{"--model", "qwen3-235b-a22b", "--requests-per-second", "20", "--gpu", "h100-sxm"}},
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
				r, ok := rows[pick]
				if !ok && pick == "fastest" {
					// No faster alternative: --emit says so.
					if code == 0 || !strings.Contains(errs, "so no faster plan is shown") {
						t.Errorf("%s, none shown: exit %d: %s", pick, code, errs)
					}
					continue
				}
				if code != 0 {
					t.Errorf("%s (%s, TP %d DP %d EP %d, %s): exit %d: %s", pick, r.OfferID, r.Parallelism.TP, r.Parallelism.AttentionDP, r.Parallelism.ExpertParallel, r.Weights, code, errs)
					continue
				}
				if d := p.Disagg; pick == "disaggregated" {
					// The launch is of the alternative the plan shows, and
					// each side's script starts workers of its own TP.
					pre := d.PrefillWorker
					if dw := d.DecodeWorker; dw != (disaggWorkerJSON{d.TP, d.DP, d.EP, d.PerWorker, d.MemShare, dw.Redundant}) {
						t.Errorf("decode_worker %+v, the flat decode fields %d/%d/%d over %d at %v", dw, d.TP, d.DP, d.EP, d.PerWorker, d.MemShare)
					}
					want := fmt.Sprintf("%d prefill and %d decode workers of TP %d", d.Prefill, d.Decode, d.TP)
					if pre.TP != d.TP || pre.DP != d.DP || pre.EP != d.EP || pre.PerWorker != d.PerWorker || pre.MemShare != d.MemShare {
						want = fmt.Sprintf("%d prefill workers of TP %s and %d decode workers of TP %s", d.Prefill,
							plan.WorkerLayout{TP: pre.TP, DP: pre.DP, EP: pre.EP}, d.Decode, plan.WorkerLayout{TP: d.TP, DP: d.DP, EP: d.EP})
					}
					if !strings.Contains(errs, want) || !strings.Contains(errs, d.InstanceType) {
						t.Errorf("disaggregated: %q does not name %q on %s", errs, want, d.InstanceType)
					}
					for _, side := range []struct {
						file          string
						tp, perWorker int
						share         float64
					}{{"prefill.sh", pre.TP, pre.PerWorker, pre.MemShare}, {"decode.sh", d.TP, d.PerWorker, d.MemShare}} {
						script, _, _ := strings.Cut(strings.SplitN(out, "# file: "+side.file+"\n", 2)[1], "\n# file: ")
						nodes := max(side.perWorker, 1)
						gpus := checkEngineProcs(t, c.engine, isMoE(t, c.args[1]), nodes, side.share, script)
						if workers := len(engineProcs(script)); gpus != workers*side.tp/nodes {
							t.Errorf("disaggregated %s: %d workers on %d GPUs an instance, want TP %d each", side.file, workers, gpus, side.tp)
						}
					}
					continue
				}
				t.Run(pick, func(t *testing.T) {
					checkServeLaunch(t, c.engine, r, out, 1300)
					checkServeProcs(t, c.engine, isMoE(t, c.args[1]), r, out)
				})
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
