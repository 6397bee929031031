package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"rightsize/estimator/plan"
)

// TestPlanEmitSkyPilot is the check: plan --emit skypilot prints
// a task YAML that parses, with the fields SkyPilot documents and their
// types (catalog/launch/testdata/skypilot_schema.txt, from SkyPilot's
// sky/utils/schemas.py), for the plan's cheapest pick.
func TestPlanEmitSkyPilot(t *testing.T) {
	args := append([]string{}, fsdpArgs...)
	args = append(args, "--provider", "aws", "--pricing", "spot")
	code, out, errs := runPlanArgs(t, append(args, "--emit", "skypilot")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p := planJSONOf(t, args...)
	var cheapest planRowJSON
	for _, r := range p.Rows {
		if r.Recommendation == "cheapest" {
			cheapest = r
		}
	}
	if cheapest.OfferID == "" {
		t.Fatal("no cheapest row")
	}
	if !strings.Contains(errs, "the cheapest pick, aws "+cheapest.InstanceType) {
		t.Errorf("stderr does not name the pick %s: %q", cheapest.InstanceType, errs)
	}
	doc := parseTaskYAML(t, out)
	schema := readSchema(t)
	for path, v := range doc {
		want, ok := schema[path]
		if !ok {
			t.Errorf("%s is not a SkyPilot task field", path)
		} else if got := yamlType(v); got != want {
			t.Errorf("%s is %s, SkyPilot wants %s", path, got, want)
		}
	}
	for path, want := range map[string]any{
		"resources.cloud": "aws", "resources.instance_type": cheapest.InstanceType, "resources.use_spot": true,
		"num_nodes": int64(cheapest.Instances), "resources.accelerators": "H100:8",
	} {
		if doc[path] != want {
			t.Errorf("%s = %v, want %v", path, doc[path], want)
		}
	}
	run, _ := doc["run"].(string)
	for _, s := range []string{"torchrun", "--nnodes " + strconv.Itoa(cheapest.Instances), "--nproc-per-node 8", "--deepspeed ds_config.json"} {
		if !strings.Contains(run, s) {
			t.Errorf("run lacks %q:\n%s", s, run)
		}
	}
	setup, _ := doc["setup"].(string)
	if !strings.Contains(setup, `"stage": 3`) {
		t.Errorf("setup's DeepSpeed config is not ZeRO-3 (--zero 3):\n%s", setup)
	}
}

// TestPlanEmitServing: --emit vllm prints the engine command of the
// cheapest row with its TP; --emit-pick fastest launches the fastest row.
func TestPlanEmitServing(t *testing.T) {
	p := planJSONOf(t, servingArgs...)
	rows := map[string]planRowJSON{}
	for _, r := range p.Rows {
		rows[r.Recommendation] = r
	}
	for _, pick := range []string{"cheapest", "fastest"} {
		want, ok := rows[pick]
		if !ok {
			// the cheapest row is also the fastest
			want = rows["cheapest"]
		}
		code, out, errs := runPlanArgs(t, append(servingArgs, "--emit", "vllm", "--emit-pick", pick)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", pick, code, errs)
		}
		if !strings.HasPrefix(out, "#!/bin/sh\n# rightsize plan: "+want.Provider+" "+want.InstanceType) {
			t.Errorf("%s: does not launch %s %s:\n%s", pick, want.Provider, want.InstanceType, out)
		}
		for _, s := range []string{"vllm serve mistralai/Mistral-7B-Instruct-v0.1 ", "--tensor-parallel-size " + strconv.Itoa(want.Parallelism.TP) + " ", "--max-model-len 700 "} {
			if !strings.Contains(out, s) {
				t.Errorf("%s: lacks %q:\n%s", pick, s, out)
			}
		}
	}
}

// TestPlanEmitDeepSpeed: the config part of --emit deepspeed is JSON
// with the plan's ZeRO stage and a consistent global batch.
func TestPlanEmitDeepSpeed(t *testing.T) {
	code, out, errs := runPlanArgs(t, append(fsdpArgs, "--emit", "deepspeed", "--global-batch-tokens", "2M")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, cfg, ok := strings.Cut(out, "# file: ds_config.json\n")
	if !ok {
		t.Fatalf("no ds_config.json in\n%s", out)
	}
	cfg, _, _ = strings.Cut(cfg, "\n# note:")
	var ds struct {
		TrainBatch int `json:"train_batch_size"`
		Micro      int `json:"train_micro_batch_size_per_gpu"`
		Accum      int `json:"gradient_accumulation_steps"`
		ZeRO       struct {
			Stage int `json:"stage"`
		} `json:"zero_optimization"`
	}
	if err := json.Unmarshal([]byte(cfg), &ds); err != nil {
		t.Fatalf("%v:\n%s", err, cfg)
	}
	// The cheapest row's data-parallel degree; 2M tokens per step at
	// 2048 tokens per sequence is 976.6 sequences, rounded to whole
	// micro-batches per replica as the planner ran the step.
	var dp int
	for _, r := range planJSONOf(t, append(fsdpArgs, "--global-batch-tokens", "2M")...).Rows {
		if r.Recommendation == "cheapest" {
			dp = r.Parallelism.DP
		}
	}
	accum := max(1, int(math.Round(2e6/float64(dp*2048))))
	if ds.ZeRO.Stage != 3 || ds.Micro != 1 || ds.Accum != accum || ds.TrainBatch != ds.Micro*ds.Accum*dp {
		t.Errorf("config %+v: want ZeRO-3, micro-batch 1, %d micro-batches on each of %d replicas", ds, accum, dp)
	}
}

// TestPlanEmitErrors: a bad or misplaced --emit is one clear line and a
// non-zero exit.
func TestPlanEmitErrors(t *testing.T) {
	train := []string{"--model", "llama-3.1-8b", "--task", "train", "--train-tokens", "1B"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(servingArgs, "--emit", "kubernetes"), `--emit "kubernetes": want vllm|sglang|trtllm|fsdp|deepspeed|litgpt|skypilot`},
		{append(train, "--emit", "vllm"), "--emit vllm: vllm serves inference and this plan is training (task train): use deepspeed, fsdp or skypilot"},
		{append(servingArgs, "--emit", "deepspeed"), "--emit deepspeed: deepspeed launches training and this plan is serving inference"},
		{append(servingArgs, "--emit", "vllm", "--emit-pick", "best"), `--emit-pick "best": want cheapest|fastest|value`},
		{append(servingArgs, "--emit-pick", "fastest"), "--emit-pick needs --emit"},
		{append(servingArgs, "--emit-pick", "cheapest"), "--emit-pick needs --emit"},
		{append(servingArgs, "--emit", ""), `--emit "": want vllm|sglang|trtllm|fsdp|deepspeed|litgpt|skypilot`},
		{append(servingArgs, "--emit", "vllm", "--format", "json"), "--emit prints launch settings, not a table"},
		{append(servingArgs, "--emit", "vllm", "--json"), "--emit prints launch settings, not a table"},
		{append(servingArgs, "--emit", "vllm", "--load-curve", "1"), "--load-curve: 1 rates: want 24"},
		{append(servingArgs, "--emit", "skypilot", "--provider", "coreweave"), "SkyPilot does not support CoreWeave (coreweave); clouds it launches on: aws, azure, cudo, fluidstack, gcp, hyperbolic, ibm, lambda, nebius, oci, paperspace, primeintellect, runpod, seeweb, shadeform, vast, verda, yotta (narrow the plan with --provider to one SkyPilot supports)"},
	} {
		code, out, errs := runPlanArgs(t, c.args...)
		if code == 0 || out != "" {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
		if !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: stderr %q, want one line with %q", c.args, errs, c.want)
		}
	}
}

// parseTaskYAML reads the block YAML subset launch writes (two-space
// nesting, JSON-quoted strings, integers, booleans, literal blocks) into
// dotted paths; anything else fails.
func parseTaskYAML(t *testing.T, text string) map[string]any {
	t.Helper()
	out := map[string]any{}
	var path []string
	var indents []int
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if trim == "" || trim[0] == '#' {
			continue
		}
		indent := len(line) - len(trim)
		for len(indents) > 0 && indent <= indents[len(indents)-1] {
			indents, path = indents[:len(indents)-1], path[:len(path)-1]
		}
		key, val, ok := strings.Cut(trim, ":")
		if !ok || !regexp.MustCompile(`^[a-z_]+$`).MatchString(key) {
			t.Fatalf("line %d: %q is not a mapping entry", i+1, line)
		}
		p := strings.Join(append(append([]string{}, path...), key), ".")
		switch val = strings.TrimSpace(val); {
		case val == "":
			out[p] = map[string]any{}
			path, indents = append(path, key), append(indents, indent)
		case val == "|":
			var b strings.Builder
			for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || strings.HasPrefix(lines[i+1], strings.Repeat(" ", indent+2))) {
				i++
				b.WriteString(strings.TrimPrefix(lines[i], strings.Repeat(" ", indent+2)) + "\n")
			}
			out[p] = b.String()
		case val[0] == '"':
			s, err := strconv.Unquote(val)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			out[p] = s
		case val == "true" || val == "false":
			out[p] = val == "true"
		default:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				t.Fatalf("line %d: plain scalar %q", i+1, val)
			}
			out[p] = n
		}
	}
	return out
}

func yamlType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	}
	return "?"
}

// readSchema reads the SkyPilot task fields vendored for catalog/launch.
func readSchema(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../catalog/launch/testdata/skypilot_schema.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "field" {
			m[f[1]] = f[2]
		}
	}
	if len(m) < 10 {
		t.Fatalf("%d fields in the schema list", len(m))
	}
	return m
}

// TestPlanEmitDisaggregated: --emit-pick disaggregated writes the
// planner's disaggregated alternative as SGLang PD (prefill, decode and
// router scripts) and names it on stderr with its cost against the
// aggregated plan, the same figures as the plan's JSON; vLLM and
// TensorRT-LLM write theirs; a launcher that does not serve gets the
// reason, not a script.
func TestPlanEmitDisaggregated(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--engine", "sglang", "--gpu", "h100-sxm", "--requests-per-second", "20",
		"--prompt-tokens", "2000", "--output-tokens", "500", "--ttft-p95", "2s", "--tpot", "50ms"}
	p := planJSONOf(t, args...)
	if p.Disagg == nil {
		t.Fatal("the plan has no disaggregated alternative")
	}
	code, out, errs := runPlanArgs(t, append(args, "--emit", "sglang", "--emit-pick", "disaggregated")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# file: prefill.sh", "# file: decode.sh", "# file: router.sh", "--disaggregation-mode prefill", "sglang_router.launch_router --pd-disaggregation"} {
		if !strings.Contains(out, want) {
			t.Errorf("launch lacks %q:\n%s", want, out)
		}
	}
	banner := fmt.Sprintf("%d prefill and %d decode workers of TP %d", p.Disagg.Prefill, p.Disagg.Decode, p.Disagg.TP)
	if pre := p.Disagg.PrefillWorker; pre.TP != p.Disagg.TP || pre.DP != p.Disagg.DP || pre.EP != p.Disagg.EP {
		banner = fmt.Sprintf("%d prefill workers of TP %s and %d decode workers of TP %s", p.Disagg.Prefill, plan.WorkerLayout{TP: pre.TP, DP: pre.DP, EP: pre.EP},
			p.Disagg.Decode, plan.WorkerLayout{TP: p.Disagg.TP, DP: p.Disagg.DP, EP: p.Disagg.EP})
	}
	if !strings.Contains(errs, banner) || !strings.Contains(errs, p.Disagg.InstanceType) {
		t.Errorf("stderr %q does not name %q on %s", errs, banner, p.Disagg.InstanceType)
	}
	// vLLM's (NixlConnector workers behind the proxy its guide runs) and
	// TensorRT-LLM's (trtllm-serve workers with their options files behind
	// trtllm-serve disaggregated) for the same alternative.
	for kind, wants := range map[string][]string{
		"vllm":   {"# file: prefill.sh", "# file: router.sh", `--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'`, "toy_proxy_server.py"},
		"trtllm": {"# file: decode.sh", "# file: context_config.yaml", "# file: gen_config.yaml", "--extra_llm_api_options context_config.yaml", "exec trtllm-serve disaggregated -c disagg_config.yaml"},
	} {
		code, out, errs := runPlanArgs(t, append(args, "--emit", kind, "--emit-pick", "disaggregated")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, code, errs)
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("%s launch lacks %q:\n%s", kind, want, out)
			}
		}
		if !strings.Contains(errs, "rightsize: "+kind+" settings for the disaggregated alternative") {
			t.Errorf("%s: stderr %q", kind, errs)
		}
	}
	code, _, errs = runPlanArgs(t, append(args, "--emit", "skypilot", "--emit-pick", "disaggregated")...)
	if code == 0 || !strings.Contains(errs, "runs on a serving engine") {
		t.Errorf("skypilot disaggregated: exit %d, %q", code, errs)
	}
	// Behind NVIDIA Dynamo: each engine's Dynamo workers and Dynamo's
	// frontend; --emit-router engine is the default; a router with
	// another pick, or an unknown one, is refused.
	for _, kind := range []string{"sglang", "vllm", "trtllm"} {
		code, out, errs := runPlanArgs(t, append(args, "--emit", kind, "--emit-pick", "disaggregated", "--emit-router", "dynamo")...)
		if code != 0 {
			t.Fatalf("%s dynamo: exit %d: %s", kind, code, errs)
		}
		for _, want := range []string{"python -m dynamo." + kind + " \\", "--disaggregation-mode prefill", "--disaggregation-mode decode", "exec python -m dynamo.frontend \\\n  --http-port 8000", `"${ETCD_ENDPOINTS:?`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s dynamo launch lacks %q:\n%s", kind, want, out)
			}
		}
		if !strings.Contains(errs, "rightsize: "+kind+" settings behind NVIDIA Dynamo for the disaggregated alternative") {
			t.Errorf("%s dynamo: stderr %q", kind, errs)
		}
		_, def, _ := runPlanArgs(t, append(args, "--emit", kind, "--emit-pick", "disaggregated", "--emit-router", "engine")...)
		_, plain, _ := runPlanArgs(t, append(args, "--emit", kind, "--emit-pick", "disaggregated")...)
		if def != plain || strings.Contains(plain, "dynamo") {
			t.Errorf("%s: --emit-router engine is not the default launch", kind)
		}
	}
	for _, bad := range [][]string{{"--emit-pick", "cheapest", "--emit-router", "dynamo"}, {"--emit-pick", "disaggregated", "--emit-router", "nginx"}} {
		if code, _, errs := runPlanArgs(t, append(args, append([]string{"--emit", "sglang"}, bad...)...)...); code == 0 || !strings.Contains(errs, "--emit-router") {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// TestPlanDisaggSparesJSON: on spot the disaggregated block names each
// pool's spare workers (prefill_spare_workers, decode_spare_workers),
// counted in its workers and instances, and the launch starts them all;
// on demand they are 0.
func TestPlanDisaggSparesJSON(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--engine", "sglang", "--gpu", "h100-sxm", "--requests-per-second", "20",
		"--prompt-tokens", "2000", "--output-tokens", "500", "--ttft-p95", "2s", "--tpot", "50ms"}
	od := planJSONOf(t, args...)
	spot := planJSONOf(t, append(args, "--pricing", "spot")...)
	if od.Disagg == nil || spot.Disagg == nil {
		t.Fatal("no disaggregated alternative")
	}
	if d := od.Disagg; d.PrefillSpare != 0 || d.DecodeSpare != 0 {
		t.Errorf("on demand: %d + %d spare workers", d.PrefillSpare, d.DecodeSpare)
	}
	d := spot.Disagg
	if d.PrefillSpare < 1 || d.DecodeSpare < 1 || d.PrefillSpare >= d.Prefill || d.DecodeSpare >= d.Decode {
		t.Errorf("spot: %d + %d spare of %d + %d workers", d.PrefillSpare, d.DecodeSpare, d.Prefill, d.Decode)
	}
	for pricing, want := range map[string]bool{"on-demand": false, "spot": true} {
		_, out, _ := runPlanArgs(t, append(args, "--pricing", pricing)...)
		if got := strings.Contains(out, "; the figures leave the spares out, as while a reclaimed instance is replaced)"); got != want {
			t.Errorf("%s: the disaggregated line says the figures leave the spares out: %v", pricing, got)
		}
	}
	code, out, errs := runPlanArgs(t, append(args, "--pricing", "spot", "--emit", "sglang", "--emit-pick", "disaggregated")...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("×%d, disaggregated", d.Instances)) {
		t.Errorf("exit %d: %s; the launch does not rent the plan's %d instances:\n%s", code, errs, d.Instances, out)
	}
}

// TestEmitSkyPilotPlansItsClouds: --emit skypilot with no --provider
// launches the plan's pick over the clouds SkyPilot runs on. Llama 3.1 8B
// over 10M requests within a day is cheapest on CoreWeave, which SkyPilot
// does not launch: the command exited 2 with nothing to run; it now
// writes the task for the cheapest pick on a SkyPilot cloud and says the
// plan was so narrowed. A provider named stays the user's choice. (Over
// every GPU the cheapest is on Cudo now, a SkyPilot cloud: its July 2026
// date is a lower bound, so its price is fresh. On GH200s it is still
// CoreWeave's.)
func TestEmitSkyPilotPlansItsClouds(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--requests", "10M", "--prompt-tokens", "1000", "--output-tokens", "200", "--seq", "1200", "--deadline", "24h", "--gpu", "gh200-96gb"}
	if r := cheapest(t, planJSONOf(t, job...)); r.Provider != "coreweave" {
		t.Fatalf("the plan's cheapest is on %s, not CoreWeave: the case is gone", r.Provider)
	}
	code, out, errs := runPlanArgs(t, append(job, "--emit", "skypilot")...)
	if code != 0 || !strings.Contains(out, "\nresources:\n  cloud: \"lambda\"\n") || !strings.Contains(out, "vllm run-batch") || !strings.Contains(out, "--model meta-llama/Llama-3.1-8B-Instruct") ||
		!strings.Contains(errs, "the cheapest pick, lambda gpu_1x_gh200 ") || !strings.Contains(errs, "rightsize: planned on the clouds SkyPilot launches on (aws, azure, ") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	code, _, errs = runPlanArgs(t, append(job, "--emit", "skypilot", "--provider", "coreweave")...)
	if code == 0 || !strings.Contains(errs, "SkyPilot does not support CoreWeave (coreweave)") {
		t.Errorf("--provider coreweave: exit %d, %q", code, errs)
	}
}
