package launch_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// disaggPlan plans model on SGLang at 20 req/s on 8-GPU H100 offers
// with TTFT and TPOT targets: a plan with a disaggregated alternative.
func disaggPlan(t *testing.T, model string) (plan.Request, plan.Result) {
	t.Helper()
	in := input(t, model)
	in.Engine = estimator.SGLang
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 2000, OutputTokens: 500,
		TTFTP95Seconds: 2, TPOTSeconds: 0.05}}
	res := planOnH100Nodes(t, req)
	if res.Disagg == nil {
		t.Fatal("no disaggregated alternative")
	}
	return req, res
}

// planOnH100Nodes plans req on the catalog's 8 × H100 SXM instances.
func planOnH100Nodes(t *testing.T, req plan.Request) plan.Result {
	t.Helper()
	var offers []plan.Offer
	for _, o := range catalog.Default().PlanOffers(req.Input.Weights) {
		if o.GPU == "h100-sxm" && o.GPUCount == 8 {
			offers = append(offers, o)
		}
	}
	res, err := plan.Plan(req, offers, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// routerArgs runs the router script in a scratch directory with a python
// that prints its arguments, one a line, and a trtllm-serve that prints
// its arguments and then the file its -c names, and returns the lines.
func routerArgs(t *testing.T, script string, env ...string) ([]string, error) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	const printArgs = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"
	if err := os.WriteFile(filepath.Join(dir, "python"), []byte(printArgs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "trtllm-serve"), []byte(printArgs+"cat \"$3\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-c", script)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)
	out, err := cmd.Output()
	return strings.Split(strings.TrimSpace(string(out)), "\n"), err
}

// TestEmitDisaggSGLang: the disaggregated alternative's launch is three
// shell scripts that parse; each worker runs in its own mode on its own
// GPUs, port and (prefill) bootstrap port, with the aggregated row's
// settings; the router, run with the instances' addresses, names every
// worker of the plan once, prefill with its bootstrap port, and refuses
// a host list of the wrong length. Launchers that do not serve get a
// reason.
func TestEmitDisaggSGLang(t *testing.T) {
	type tc struct {
		req      plan.Request
		res      plan.Result
		per      int
		p, dd, n int
	}
	var cases []tc
	for _, c := range disaggPlans(t) {
		d := c.res.Disagg
		cases = append(cases, tc{c.req, c.res, int(d.Offer.GPUCount) / d.PrefillWorker.TP, d.Prefill, d.Decode, d.Instances})
	}
	for _, c := range cases {
		l, err := launch.EmitDisagg(launch.SGLang, c.req, c.res, nil, "")
		if err != nil {
			t.Fatalf("TP %d: %v", c.res.Disagg.PrefillWorker.TP, err)
		}
		names := []string{}
		for _, f := range l.Files {
			names = append(names, f.Name)
			shellParses(t, f.Name, f.Text)
		}
		if !slices.Equal(names, []string{"prefill.sh", "decode.sh", "router.sh"}) {
			t.Fatalf("files %v", names)
		}
		pre, dec, router := l.Files[0].Text, l.Files[1].Text, l.Files[2].Text
		for _, want := range []string{"--disaggregation-mode prefill", "--disaggregation-bootstrap-port 8998", "--tp-size " + strconv.Itoa(c.res.Disagg.PrefillWorker.TP), "--mem-fraction-static"} {
			if !strings.Contains(pre, want) {
				t.Errorf("TP %d prefill.sh lacks %q:\n%s", c.res.Disagg.PrefillWorker.TP, want, pre)
			}
		}
		// WORKERS starts fewer of an instance's several workers; an
		// instance of one worker has none fewer, and neither the script
		// nor the note names it.
		notes := strings.Join(l.Notes, "\n")
		if several := c.per > 1; strings.Contains(pre, "WORKERS=${WORKERS:-"+strconv.Itoa(c.per)+"}") != several || strings.Contains(notes, "WORKERS=N") != several {
			t.Errorf("TP %d, %d workers an instance: WORKERS in\n%s\n%s", c.res.Disagg.PrefillWorker.TP, c.per, pre, notes)
		}
		if strings.Count(pre, "sglang.launch_server") != c.per || strings.Count(dec, "sglang.launch_server") != c.per {
			t.Errorf("TP %d: %d prefill and %d decode servers an instance, want %d", c.res.Disagg.PrefillWorker.TP,
				strings.Count(pre, "sglang.launch_server"), strings.Count(dec, "sglang.launch_server"), c.per)
		}
		if !strings.Contains(dec, "--disaggregation-mode decode") || strings.Contains(dec, "bootstrap-port") {
			t.Errorf("decode.sh:\n%s", dec)
		}
		var ids []string
		for g := c.res.Disagg.PrefillWorker.TP; g < 2*c.res.Disagg.PrefillWorker.TP; g++ {
			ids = append(ids, strconv.Itoa(g))
		}
		if second := "CUDA_VISIBLE_DEVICES=" + strings.Join(ids, ",") + " "; c.per > 1 && !strings.Contains(pre, second) {
			t.Errorf("the second worker does not run on GPUs 2,3:\n%s", pre)
		}
		pInst := (c.p + c.per - 1) / c.per
		args, err := routerArgs(t, router, "PREFILL_HOSTS="+hosts("p", pInst), "DECODE_HOSTS="+hosts("d", c.n-pInst))
		if err != nil {
			t.Fatalf("router.sh: %v", err)
		}
		var prefills, decodes []string
		v := readVocab(t, "sglang_router_flags.txt", "")
		for i := 0; i < len(args); i++ {
			if strings.HasPrefix(args[i], "-") && i > 0 && args[i] != "-m" {
				v.check(t, "router.sh", args[i], "")
			}
			switch args[i] {
			case "--prefill":
				prefills = append(prefills, args[i+1]+" "+args[i+2])
			case "--decode":
				decodes = append(decodes, args[i+1])
			}
		}
		if len(prefills) != c.p || len(decodes) != c.dd || args[0] != "-m" || args[1] != "sglang_router.launch_router" || !slices.Contains(args, "--pd-disaggregation") {
			t.Errorf("TP %d: router %v: %d prefill, %d decode workers; want %d and %d", c.res.Disagg.PrefillWorker.TP, args, len(prefills), len(decodes), c.p, c.dd)
		}
		if c.per > 1 && (prefills[1] != "http://p0:30001 8999" || prefills[len(prefills)-1] != "http://p"+strconv.Itoa(pInst-1)+":"+strconv.Itoa(30000+(c.p-1)%c.per)+" "+strconv.Itoa(8998+(c.p-1)%c.per)) {
			t.Errorf("prefill workers %v", prefills)
		}
		if _, err := routerArgs(t, router, "PREFILL_HOSTS="+hosts("p", pInst+1), "DECODE_HOSTS="+hosts("d", c.n-pInst)); err == nil {
			t.Error("the router took one prefill address too many")
		}
	}
	var le *launch.Error
	req, res := cases[0].req, cases[0].res
	for _, k := range []launch.Kind{launch.FSDP, launch.DeepSpeed, launch.SkyPilot} {
		if _, err := launch.EmitDisagg(k, req, res, nil, "llama-3.1-70b"); !errors.As(err, &le) || le.Key != launch.ErrDisaggKind {
			t.Errorf("%s: %v", k, err)
		}
	}
	none := res
	none.Disagg = nil
	if _, err := launch.EmitDisagg(launch.SGLang, req, none, nil, "llama-3.1-70b"); !errors.As(err, &le) || le.Key != launch.ErrNoDisagg {
		t.Errorf("no alternative: %v", err)
	}
	// An alternative past the plan's instance limit (plan.DisaggPlan.
	// PastLimit) is named in the plan, not launched.
	past := res
	d := *res.Disagg
	d.PastLimit = true
	past.Disagg = &d
	if _, err := launch.EmitDisagg(launch.SGLang, req, past, nil, "llama-3.1-70b"); !errors.As(err, &le) || le.Key != launch.ErrDisaggPastLimit ||
		!strings.Contains(err.Error(), "--max-instances "+strconv.Itoa(d.Instances)) {
		t.Errorf("past the limit: %v", err)
	}
}

// workerLines is a prefill or decode script's engine commands: the shell
// around them (the WORKERS default and its check, a wide vLLM worker's
// DP_START_RANK, the HOST_IP check, the if/else blocks) dropped, for
// checkShell.
func workerLines(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		tr := strings.TrimSpace(line)
		if strings.HasPrefix(tr, "if [") || tr == "else" || tr == "fi" || strings.HasPrefix(tr, "WORKERS=") || strings.HasPrefix(tr, "case $WORKERS ") || strings.HasPrefix(tr, "DP_START_RANK=") || strings.HasPrefix(tr, "case $NODE_RANK ") || strings.HasPrefix(tr, ": ") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

// disaggFlag is the flag that makes each engine's worker a disaggregated
// one.
var disaggFlag = map[launch.Kind]string{launch.SGLang: "--disaggregation-mode", launch.VLLM: "--kv-transfer-config", launch.TRTLLM: "--extra_llm_api_options"}

// checkDisagg checks every file of a disaggregated launch of kind k by
// its format: the scripts parse, the workers' commands use their
// engine's documented flags and the flag that disaggregates them (vLLM's
// KV transfer config is the NixlConnector's JSON), and the options files
// are the LLM API's.
func checkDisagg(t *testing.T, where string, k launch.Kind, l launch.Launch) {
	t.Helper()
	checkDisaggVia(t, where, k, launch.EngineRouter, l)
}

// checkDisaggVia is checkDisagg for router r: behind NVIDIA Dynamo every
// worker is the engine's Dynamo worker in its --disaggregation-mode, and
// router.sh runs Dynamo's frontend with its documented flags.
func checkDisaggVia(t *testing.T, where string, k launch.Kind, r launch.Router, l launch.Launch) {
	t.Helper()
	flag := disaggFlag[k]
	if r == launch.DynamoRouter {
		flag = "--disaggregation-mode"
	}
	var names []string
	for _, f := range l.Files {
		names = append(names, f.Name)
		w := where + " " + f.Name
		switch f.Format {
		case "sh":
			shellParses(t, w, f.Text)
			if f.Name == "router.sh" {
				if r == launch.DynamoRouter {
					cmds := checkShell(t, w, strings.ReplaceAll(workerLines(f.Text), "exec ", ""))
					if len(cmds) != 1 || cmds[0].tool != "dynamo-frontend" {
						t.Errorf("%s: router.sh runs %v", w, cmds)
					}
				}
				continue
			}
			for _, c := range checkShell(t, w, workerLines(f.Text)) {
				if want := "dynamo-" + k.String(); r == launch.DynamoRouter && c.tool != want {
					t.Errorf("%s: runs %s, want %s", w, c.tool, want)
				}
				v, ok := c.has(flag)
				if !ok {
					t.Errorf("%s: %s lacks %s", w, c.tool, flag)
				}
				if r == launch.DynamoRouter {
					if mode := strings.TrimSuffix(f.Name, ".sh"); v != mode {
						t.Errorf("%s: --disaggregation-mode %q, want %s", w, v, mode)
					}
					v, _ = c.has("--kv-transfer-config")
				}
				if k == launch.VLLM {
					var cfg struct {
						KVConnector string `json:"kv_connector"`
						KVRole      string `json:"kv_role"`
					}
					if err := json.Unmarshal([]byte(v), &cfg); err != nil || cfg.KVConnector != "NixlConnector" ||
						!slices.Contains([]string{"kv_producer", "kv_consumer", "kv_both"}, cfg.KVRole) {
						t.Errorf("%s: --kv-transfer-config %s (%v)", w, v, err)
					}
				}
			}
		case "yaml":
			checkLLMAPIOptions(t, w, f.Text)
		default:
			t.Errorf("%s: unexpected file", w)
		}
	}
	want := []string{"prefill.sh", "decode.sh", "router.sh"}
	if k == launch.TRTLLM {
		want = append(want, "context_config.yaml", "gen_config.yaml")
	}
	if !slices.Equal(names, want) {
		t.Errorf("%s: files %v, want %v", where, names, want)
	}
}

// routes runs a vLLM or TensorRT-LLM router script with the instances'
// addresses in env and returns the workers it routes to, "host:port" on
// each side, after checking its arguments (vLLM's proxy) or the
// configuration it writes (TensorRT-LLM's) against their vocabularies.
func routes(t *testing.T, k launch.Kind, router string, env ...string) (prefill, decode []string, err error) {
	t.Helper()
	out, err := routerArgs(t, router, env...)
	if err != nil {
		return nil, nil, err
	}
	switch k {
	case launch.VLLM:
		if out[0] != "tests/v1/kv_connector/nixl_integration/toy_proxy_server.py" {
			t.Errorf("router runs %q", out[0])
		}
		v := readVocab(t, "vllm_proxy_flags.txt", "")
		lists := map[string][]string{}
		var flag string
		for _, a := range out[1:] {
			if strings.HasPrefix(a, "--") {
				flag = a
				v.check(t, "router.sh", a, "")
				continue
			}
			lists[flag] = append(lists[flag], a)
		}
		if lists["--host"][0] != "0.0.0.0" || lists["--port"][0] != "8000" {
			t.Errorf("router serves on %v:%v", lists["--host"], lists["--port"])
		}
		pair := func(hosts, ports []string) []string {
			if len(hosts) != len(ports) {
				t.Errorf("%d hosts and %d ports", len(hosts), len(ports))
				return nil
			}
			var s []string
			for i := range hosts {
				s = append(s, hosts[i]+":"+ports[i])
			}
			return s
		}
		return pair(lists["--prefiller-hosts"], lists["--prefiller-ports"]), pair(lists["--decoder-hosts"], lists["--decoder-ports"]), nil
	case launch.TRTLLM:
		if len(out) < 3 || out[0] != "disaggregated" || out[1] != "-c" || out[2] != "disagg_config.yaml" {
			t.Fatalf("router runs trtllm-serve %v", out)
		}
		// parseYAML reads mappings; the urls lists are taken out first.
		var rest []string
		urls := map[string][]string{}
		section := ""
		for _, line := range out[3:] {
			if !strings.HasPrefix(line, " ") {
				section, _, _ = strings.Cut(line, ":")
			}
			if item, ok := strings.CutPrefix(line, "    - "); ok {
				u, err := strconv.Unquote(item)
				if err != nil {
					t.Fatalf("url %s: %v", item, err)
				}
				urls[section] = append(urls[section], u)
				continue
			}
			rest = append(rest, line)
		}
		doc := leaves(parseYAML(t, strings.Join(rest, "\n")), "", map[string]any{})
		v := readVocab(t, "trtllm_disagg_keys.txt", "")
		for key, val := range doc {
			want := v[key]
			got := typeOf(val)
			if strings.HasSuffix(key, ".urls") {
				got = "list"
			}
			if len(want) != 1 || got != want[0] {
				t.Errorf("disagg_config.yaml: %s: %v (%s), want %v", key, val, got, want)
			}
		}
		for _, s := range []string{"context_servers", "generation_servers"} {
			if n, _ := doc[s+".num_instances"].(int64); int(n) != len(urls[s]) {
				t.Errorf("disagg_config.yaml: %s: %d instances, %d urls", s, n, len(urls[s]))
			}
		}
		if doc["hostname"] != "0.0.0.0" || doc["port"] != int64(8000) {
			t.Errorf("router serves on %v:%v", doc["hostname"], doc["port"])
		}
		return urls["context_servers"], urls["generation_servers"], nil
	}
	t.Fatalf("no router reader for %s", k)
	return nil, nil, nil
}

// disaggPlans are the plans the SGLang, vLLM, TensorRT-LLM and Dynamo tests
// launch: Llama 3.1 70B's disaggregated plan, and Llama 3.1 8B's with 10
// prefill and 3 decode workers, so one instance holds several of a side.
func disaggPlans(t *testing.T) []disaggCase {
	t.Helper()
	req, res := disaggPlan(t, "llama-3.1-70b")
	req8, res8 := disaggPlan(t, "llama-3.1-8b")
	// Both sides at the aggregated row's copy shape, several workers an
	// instance (the planner's own sides for the 8B model are one TP 8
	// worker each: as many instances, the lower TPOT).
	d8 := *res8.Disagg
	row := res8.Rows[d8.Base(res8.Rows)]
	w8 := rowWorker(row)
	w8.MemShare = row.MemShare
	d8.PrefillWorker, d8.DecodeWorker = w8, w8
	per8 := int(d8.Offer.GPUCount) / w8.TP
	if per8 < 2 || 10%per8 == 0 {
		t.Fatalf("8B alternative: %d workers an instance, want 2+ and not dividing 10", per8)
	}
	d8.Prefill, d8.Decode, d8.Instances = 10, 3, (10+per8-1)/per8+(3+per8-1)/per8
	res8.Disagg = &d8
	return []disaggCase{{req, res}, {req8, res8}}
}

// rowWorker is the worker shape of aggregated row's copy (at least one
// GPU), on one instance at the request's memory share: a disaggregated
// plan whose sides both run it.
func rowWorker(row plan.Row) plan.DisaggWorker {
	return plan.DisaggWorker{TP: max(row.TP, 1), DP: max(row.AttnDP, 1), EP: max(row.EP, 1), InstancesPerWorker: 1}
}

// disaggCase is one disaggregated plan and the request it answers.
type disaggCase struct {
	req plan.Request
	res plan.Result
}

// TestEmitDisaggVLLMAndTRTLLM: vLLM's (NixlConnector) and TensorRT-LLM's
// disaggregated launches, on the plans TestEmitDisaggSGLang launches:
// scripts that parse, with documented flags and options; each worker on
// its own GPUs and port (vLLM: and its own NIXL side-channel ports); the
// router, run with the instances' addresses, names every worker of the
// plan once, in order, and refuses a host list of the wrong length.
func TestEmitDisaggVLLMAndTRTLLM(t *testing.T) {
	cases := disaggPlans(t)
	for _, k := range []launch.Kind{launch.VLLM, launch.TRTLLM} {
		for _, c := range cases {
			d := c.res.Disagg
			pw := d.PrefillWorker
			per := int(d.Offer.GPUCount) / pw.TP
			where := k.String() + " TP " + strconv.Itoa(pw.TP)
			l, err := launch.EmitDisagg(k, c.req, c.res, nil, "")
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			checkDisagg(t, where, k, l)
			pre, dec, router := l.Files[0].Text, l.Files[1].Text, l.Files[2].Text
			tool := map[launch.Kind]string{launch.VLLM: "vllm serve", launch.TRTLLM: "trtllm-serve"}[k]
			if strings.Count(pre, tool) != per || strings.Count(dec, tool) != per {
				t.Errorf("%s: %d prefill and %d decode workers an instance, want %d", where, strings.Count(pre, tool), strings.Count(dec, tool), per)
			}
			if per > 1 {
				var ids []string
				for g := pw.TP; g < 2*pw.TP; g++ {
					ids = append(ids, strconv.Itoa(g))
				}
				second := "CUDA_VISIBLE_DEVICES=" + strings.Join(ids, ",") + " "
				if !strings.Contains(pre, second) || !strings.Contains(pre, "--port 30001") {
					t.Errorf("%s: the second worker does not run on GPUs %v and port 30001:\n%s", where, ids, pre)
				}
				if k == launch.VLLM && !strings.Contains(pre, "VLLM_NIXL_SIDE_CHANNEL_PORT="+strconv.Itoa(5600+max(pw.DP, 1))+" ") {
					t.Errorf("%s: the second worker's NIXL side channel:\n%s", where, pre)
				}
			}
			if k == launch.TRTLLM && (!strings.Contains(pre, "--extra_llm_api_options context_config.yaml") || !strings.Contains(dec, "--extra_llm_api_options gen_config.yaml")) {
				t.Errorf("%s: the sides' options files:\n%s\n%s", where, pre, dec)
			}
			if k == launch.VLLM && !strings.Contains(pre, `VLLM_NIXL_SIDE_CHANNEL_HOST="$HOST_IP"`) {
				t.Errorf("%s: no NIXL side-channel host:\n%s", where, pre)
			}
			pInst := (d.Prefill + per - 1) / per
			ps, ds, err := routes(t, k, router, "PREFILL_HOSTS="+hosts("p", pInst), "DECODE_HOSTS="+hosts("d", d.Instances-pInst))
			if err != nil {
				t.Fatalf("%s router.sh: %v", where, err)
			}
			if len(ps) != d.Prefill || len(ds) != d.Decode {
				t.Fatalf("%s: router routes to %v and %v; want %d prefill and %d decode workers", where, ps, ds, d.Prefill, d.Decode)
			}
			if lastP := "p" + strconv.Itoa(pInst-1) + ":" + strconv.Itoa(30000+(d.Prefill-1)%per); ps[0] != "p0:30000" || ps[len(ps)-1] != lastP || ds[0] != "d0:30000" {
				t.Errorf("%s: prefill workers %v (last want %s), decode %v", where, ps, lastP, ds)
			}
			if per > 1 && ps[1] != "p0:30001" {
				t.Errorf("%s: prefill workers %v", where, ps)
			}
			if _, _, err := routes(t, k, router, "PREFILL_HOSTS="+hosts("p", pInst), "DECODE_HOSTS="+hosts("d", d.Instances-pInst+1)); err == nil {
				t.Errorf("%s: the router took one decode address too many", where)
			}
			// TensorRT-LLM's urls are "host:port", split at the colon.
			if _, _, err := routes(t, k, router, "PREFILL_HOSTS="+hosts("p", pInst-1)+" fe80::1", "DECODE_HOSTS="+hosts("d", d.Instances-pInst)); k == launch.TRTLLM && err == nil {
				t.Errorf("%s: the router took an IPv6 address into its urls", where)
			}
		}
	}
}

// TestGoldenDisagg: the disaggregated launch of DeepSeek-R1 at DP 8/EP 8
// on 8 × H200 (the golden deepseek-r1-dp8-ep8 row's offer and layout), 2
// prefill and 3 decode workers, for each serving engine, against
// testdata/golden/deepseek-r1-dp8-ep8-disagg.KIND.txt.
func TestGoldenDisagg(t *testing.T) {
	var c goldenCase
	for _, g := range goldenCases {
		if g.name == "deepseek-r1-dp8-ep8" {
			c = g
		}
	}
	req := c.req(t)
	row := c.row(t, req)
	d := plan.DisaggPlan{Offer: row.Offer, Engine: row.Engine, PrefillWorker: rowWorker(row), DecodeWorker: rowWorker(row), Prefill: 2, Decode: 3, Instances: 5}
	res := plan.Result{Rows: []plan.Row{row}, Disagg: &d}
	for _, r := range launch.Routers {
		for _, k := range []launch.Kind{launch.VLLM, launch.SGLang, launch.TRTLLM} {
			name := c.name + "-disagg." + k.String() + ".txt"
			if r != launch.EngineRouter {
				name = c.name + "-disagg-" + r.String() + "." + k.String() + ".txt"
			}
			t.Run(name, func(t *testing.T) {
				l, err := launch.EmitDisaggVia(k, r, req, res, nil, c.model)
				if err != nil {
					t.Fatal(err)
				}
				checkDisaggVia(t, name, k, r, l)
				golden(t, name, l.Text())
			})
		}
	}
}

// TestEmitDisaggDynamo: the disaggregated launches behind NVIDIA Dynamo,
// on the plans TestEmitDisaggSGLang launches: every engine's workers are
// its Dynamo worker (python -m dynamo.ENGINE) in their side's mode, per
// on an instance, each on its own GPUs (SGLang: its own --port, from
// which it derives its internal ports, and on the prefill side its own
// bootstrap port; vLLM: its own NIXL side channel, and none of vllm
// serve's HTTP flags); the scripts refuse to start without etcd's and
// NATS's addresses; router.sh starts Dynamo's frontend on port 8000 and
// needs no list of workers. An unknown router is refused.
func TestEmitDisaggDynamo(t *testing.T) {
	cases := disaggPlans(t)
	env := []string{"ETCD_ENDPOINTS=10.0.0.1:2379", "NATS_SERVER=nats://10.0.0.1:4222", "HOST_IP=10.0.0.2"}
	for _, k := range []launch.Kind{launch.SGLang, launch.VLLM, launch.TRTLLM} {
		for _, c := range cases {
			d := c.res.Disagg
			pw := d.PrefillWorker
			per := int(d.Offer.GPUCount) / pw.TP
			where := k.String() + " TP " + strconv.Itoa(pw.TP)
			l, err := launch.EmitDisaggVia(k, launch.DynamoRouter, c.req, c.res, nil, "")
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			checkDisaggVia(t, where, k, launch.DynamoRouter, l)
			pre, dec, router := l.Files[0].Text, l.Files[1].Text, l.Files[2].Text
			worker := "python -m dynamo." + k.String()
			if strings.Count(pre, worker) != per || strings.Count(dec, worker) != per {
				t.Errorf("%s: %d prefill and %d decode workers an instance, want %d", where, strings.Count(pre, worker), strings.Count(dec, worker), per)
			}
			switch k {
			case launch.VLLM:
				if strings.Contains(pre, "--port") || strings.Contains(pre, "--host") || strings.Contains(pre, "vllm serve") {
					t.Errorf("%s: vllm serve's HTTP flags on a Dynamo worker:\n%s", where, pre)
				}
				if per > 1 && !strings.Contains(pre, "VLLM_NIXL_SIDE_CHANNEL_PORT="+strconv.Itoa(5600+max(pw.DP, 1))+" ") {
					t.Errorf("%s: the second worker's NIXL side channel:\n%s", where, pre)
				}
			case launch.SGLang:
				if per > 1 && (!strings.Contains(pre, "--port 30001") || !strings.Contains(pre, "--disaggregation-bootstrap-port 8999")) {
					t.Errorf("%s: the second worker's ports:\n%s", where, pre)
				}
				if strings.Contains(dec, "bootstrap-port") {
					t.Errorf("%s: a bootstrap port on a decode worker:\n%s", where, dec)
				}
			case launch.TRTLLM:
				if !strings.Contains(pre, "--extra-engine-args context_config.yaml") || !strings.Contains(dec, "--extra-engine-args gen_config.yaml") {
					t.Errorf("%s: the sides' options files:\n%s\n%s", where, pre, dec)
				}
			}
			args, err := routerArgs(t, router, env...)
			if err != nil || !slices.Equal(args, []string{"-m", "dynamo.frontend", "--http-port", "8000"}) {
				t.Errorf("%s: router.sh runs python %v (%v)", where, args, err)
			}
			for name, script := range map[string]string{"prefill.sh": pre, "decode.sh": dec, "router.sh": router} {
				for _, drop := range []int{0, 1} {
					rest := slices.Delete(slices.Clone(env), drop, drop+1)
					if _, err := routerArgs(t, script, rest...); err == nil {
						t.Errorf("%s: %s starts without %s", where, name, env[drop])
					}
				}
			}
			out, err := routerArgs(t, pre, env...)
			if err != nil || slices.Index(out, "dynamo."+k.String()) < 0 || strings.Count(strings.Join(out, "\n"), "dynamo."+k.String()) != per {
				t.Errorf("%s: prefill.sh starts %v (%v)", where, out, err)
			}
		}
	}
	var le *launch.Error
	if _, err := launch.EmitDisaggVia(launch.SGLang, launch.Router(7), cases[0].req, cases[0].res, nil, ""); !errors.As(err, &le) || le.Key != launch.ErrUnknownRouter {
		t.Errorf("router 7: %v", err)
	}
	for s, want := range map[string]launch.Router{"": launch.EngineRouter, "engine": launch.EngineRouter, "dynamo": launch.DynamoRouter} {
		if r, err := launch.ParseRouter(s); err != nil || r != want || (s != "" && r.String() != s) {
			t.Errorf("ParseRouter(%q) = %v, %v", s, r, err)
		}
	}
	if _, err := launch.ParseRouter("nginx"); err == nil || !strings.Contains(err.Error(), "engine, dynamo") {
		t.Errorf("ParseRouter(nginx): %v", err)
	}
}

// TestEmitDisaggWideWorkers: DeepSeek-R1 FP8 on SGLang at 100 requests/s
// on 8-GPU H100 offers plans 16-GPU workers over two instances each at
// the recipes' share (plan.DisaggWorker.InstancesPerWorker, MemShare). Both
// sides' scripts start one worker over --nnodes 2 on the instance's own 8
// GPUs with that --mem-fraction-static and --cuda-graph-max-bs, as
// InferenceX's H100 recipes run them; the router takes each worker's
// first instance once; vLLM and TensorRT-LLM, whose scripts do not start
// a worker over several instances, get a reason.
func TestEmitDisaggWideWorkers(t *testing.T) {
	in := input(t, "deepseek-r1")
	in.Engine, in.Weights = estimator.SGLang, estimator.FP8
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024,
		TTFTP95Seconds: 2, TPOTSeconds: 0.05}}
	res := planOnH100Nodes(t, req)
	d := res.Disagg
	if d == nil || d.DecodeWorker.InstancesPerWorker != 2 || d.DecodeWorker.TP != 16 {
		t.Fatalf("disaggregated plan %+v, want 16-GPU workers over 2 instances", d)
	}
	l, err := launch.EmitDisagg(launch.SGLang, req, res, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range l.Files {
		shellParses(t, f.Name, f.Text)
	}
	// One note says how a worker spans its instances (HEAD_IP its
	// worker's first instance), not also the aggregated launch's "the
	// first one's address", which would point every worker at one head.
	for _, n := range l.Notes {
		if strings.Contains(n, "the first one's address") {
			t.Errorf("a disaggregated launch carries the aggregated note %q", n)
		}
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, "HEAD_IP its worker's first instance") }) {
		t.Errorf("notes %q: none says which instance is each worker's head", l.Notes)
	}
	share := "--mem-fraction-static " + strconv.FormatFloat(estimator.SGLangDPAttentionMemFraction, 'g', -1, 64)
	graphs := "--cuda-graph-max-bs " + strconv.Itoa(estimator.SGLangDPAttentionCUDAGraphMaxBS)
	for _, f := range l.Files[:2] {
		for _, want := range []string{share, graphs, "--tp-size 16", "--dp-size 16", "--ep-size 16", "--nnodes 2", "--node-rank \"$NODE_RANK\"", "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 "} {
			if !strings.Contains(f.Text, want) {
				t.Errorf("%s lacks %q:\n%s", f.Name, want, f.Text)
			}
		}
		if n := strings.Count(f.Text, "sglang.launch_server"); n != 1 {
			t.Errorf("%s starts %d servers, want 1", f.Name, n)
		}
	}
	args, err := routerArgs(t, l.Files[2].Text, "PREFILL_HOSTS="+hosts("p", d.Prefill), "DECODE_HOSTS="+hosts("d", d.Decode))
	if err != nil {
		t.Fatalf("router.sh: %v", err)
	}
	if p, dd := slices.Index(args, "--prefill"), strings.Count(strings.Join(args, "\n"), "--decode\n"); p < 0 || strings.Count(strings.Join(args, "\n"), "--prefill\n") != d.Prefill || dd != d.Decode {
		t.Errorf("router args %v, want %d prefill and %d decode workers", args, d.Prefill, d.Decode)
	}
	// Heads only: a list of every instance is the wrong length.
	if _, err := routerArgs(t, l.Files[2].Text, "PREFILL_HOSTS="+hosts("p", 2*d.Prefill), "DECODE_HOSTS="+hosts("d", d.Decode)); err == nil {
		t.Error("router.sh took every prefill instance, want each worker's first")
	}
	// TensorRT-LLM's wide workers each start as one MPI job
	// (TestEmitDisaggWideTRTLLM).
	lt, err := launch.EmitDisagg(launch.TRTLLM, req, res, nil, "")
	if err != nil {
		t.Fatalf("trtllm: %v", err)
	}
	for _, f := range lt.Files[:2] {
		if !strings.Contains(f.Text, "-np 16 \\\n  -H \"$MPI_HOSTS\"") {
			t.Errorf("trtllm %s, want one mpirun over 2 instances:\n%s", f.Name, f.Text)
		}
	}
}

// TestEmitDisaggWideVLLM: DeepSeek-R1 FP8 on vLLM at 20 requests/s on
// 8-GPU H100 offers (the model needs two of them) plans workers of 16
// GPUs over two instances on both sides. Each side's script starts a
// worker's data-parallel ranks without Ray: on the first instance vllm
// serve with --data-parallel-size 16, 8 of them local, meeting at
// HEAD_IP's RPC port, and serving the API; on the second the same with
// --headless from rank 8. The router names each worker's first instance;
// behind NVIDIA Dynamo, or as tensor parallelism across the instances,
// such workers get a reason.
func TestEmitDisaggWideVLLM(t *testing.T) {
	in := input(t, "deepseek-r1")
	in.Engine, in.Weights = estimator.VLLM, estimator.FP8
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 1024, OutputTokens: 1024,
		TTFTP95Seconds: 2, TPOTSeconds: 0.05}}
	res := planOnH100Nodes(t, req)
	d := res.Disagg
	wide := plan.DisaggWorker{TP: 16, DP: 16, EP: 16, InstancesPerWorker: 2}
	if d == nil || d.PrefillWorker != wide || d.DecodeWorker != wide {
		t.Fatalf("disaggregated plan %+v, want workers of TP/DP/EP 16 over 2 instances", d)
	}
	l, err := launch.EmitDisagg(launch.VLLM, req, res, nil, "deepseek-ai/DeepSeek-R1")
	if err != nil {
		t.Fatal(err)
	}
	checkDisagg(t, "vllm wide", launch.VLLM, l)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "vllm"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	common := []string{"serve deepseek-ai/DeepSeek-R1 ", " --tensor-parallel-size 1 ", " --data-parallel-size 16 ", " --enable-expert-parallel ",
		" --data-parallel-size-local 8 ", " --data-parallel-address 10.0.0.1 ", " --data-parallel-rpc-port 29550 "}
	for _, f := range l.Files[:2] {
		for _, rank := range []string{"0", "1"} {
			cmd := exec.Command(sh, "-c", f.Text)
			cmd.Env = []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "NODE_RANK=" + rank, "HEAD_IP=10.0.0.1", "HOST_IP=10.0.0.2"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s at NODE_RANK %s: %v", f.Name, rank, err)
			}
			argv := strings.ReplaceAll(string(out), "\n", " ")
			for _, want := range common {
				if !strings.Contains(argv, want) {
					t.Errorf("%s at NODE_RANK %s: no %q in vllm %s", f.Name, rank, want, argv)
				}
			}
			if headless := strings.Contains(argv, " --headless --data-parallel-start-rank 8 "); headless != (rank == "1") || strings.Count(argv, "--headless") > 1 {
				t.Errorf("%s at NODE_RANK %s: vllm %s", f.Name, rank, argv)
			}
		}
	}
	// A NODE_RANK that is no rank stops the script before bash's
	// arithmetic reads it (a subscript's command substitution would run
	// there), and so does a leading zero or a rank past the last.
	if bash, err := exec.LookPath("bash"); err == nil {
		for _, rank := range []string{"a[$(touch canary)]", "01", "2", ""} {
			wd := t.TempDir()
			cmd := exec.Command(bash, "-c", l.Files[1].Text)
			cmd.Dir = wd
			cmd.Env = []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "NODE_RANK=" + rank, "HEAD_IP=10.0.0.1", "HOST_IP=10.0.0.2"}
			out, err := cmd.CombinedOutput()
			if _, statErr := os.Stat(filepath.Join(wd, "canary")); err == nil || statErr == nil || strings.Contains(string(out), "serve") {
				t.Errorf("decode.sh under bash at NODE_RANK %q: %v, canary %v, output %s", rank, err, statErr == nil, out)
			}
		}
	}
	args, err := routerArgs(t, l.Files[2].Text, "PREFILL_HOSTS=p0", "DECODE_HOSTS="+hosts("d", d.Decode))
	if err != nil {
		t.Fatalf("router.sh: %v", err)
	}
	want := "--prefiller-hosts p0 --prefiller-ports 30000 --decoder-hosts " + hosts("d", d.Decode) + " --decoder-ports" + strings.Repeat(" 30000", d.Decode)
	if d.Prefill != 1 || !strings.Contains(strings.Join(args, " "), want) {
		t.Errorf("router args %v, want %q", args, want)
	}
	var le *launch.Error
	if _, err := launch.EmitDisaggVia(launch.VLLM, launch.DynamoRouter, req, res, nil, ""); !errors.As(err, &le) || le.Key != launch.ErrDisaggWide {
		t.Errorf("vllm behind Dynamo: %v, want %s", err, launch.ErrDisaggWide)
	}
	// Tensor parallelism across the instances needs a Ray cluster these
	// scripts do not start.
	tp := *d
	tp.DecodeWorker.DP = 1
	res.Disagg = &tp
	if _, err := launch.EmitDisagg(launch.VLLM, req, res, nil, ""); !errors.As(err, &le) || le.Key != launch.ErrDisaggWide || !strings.Contains(err.Error(), "decode worker") {
		t.Errorf("vllm TP 16 over 2 instances: %v, want %s", err, launch.ErrDisaggWide)
	}
}

// TestDynamoRefusalIsOneLine: the refusal of a Dynamo launch on a GPU
// Dynamo does not run on names the GPU as one printable line, whatever
// the price sheet called it.
func TestDynamoRefusalIsOneLine(t *testing.T) {
	scenarios(t)
	s := disaggCases[0]
	o := *s.row.Offer
	o.GPU, o.HasHardware, o.Hardware.Generation = "mi300x\n# rm -rf ~\x1b[2J", true, estimator.GenCDNA3
	row := s.row
	row.Offer = &o
	d := plan.DisaggPlan{Offer: &o, Engine: row.Engine, PrefillWorker: rowWorker(row), DecodeWorker: rowWorker(row), Prefill: 1, Decode: 1, Instances: 2}
	_, err := launch.EmitDisaggVia(s.kind, launch.DynamoRouter, s.req, plan.Result{Rows: []plan.Row{row}, Disagg: &d}, nil, "")
	var le *launch.Error
	if !errors.As(err, &le) || le.Key != launch.ErrDynamoGPU {
		t.Fatalf("got %v, want the Dynamo GPU refusal", err)
	}
	if msg := err.Error(); catalog.Printable(msg) != msg || !strings.Contains(msg, `mi300x\n# rm -rf ~\x1b[2J`) {
		t.Errorf("error %q is not one printable line naming the GPU", msg)
	}
}

// TestRouterCountMessage: the router's check of an address list says
// how many addresses the plan wants in English, "1 address" for a side on
// one instance (two TP-4 workers an instance: 3 prefill workers on 2
// instances, 2 decode workers on 1).
func TestRouterCountMessage(t *testing.T) {
	scenarios(t)
	for _, s := range disaggCases {
		if s.router != launch.EngineRouter || s.row.TP != 4 || s.row.Offer.GPUCount != 8 {
			continue
		}
		l, err := emit(s, names{provider: "aws", instance: "p5.48xlarge", region: "us-east-1", model: "org/model"})
		if err != nil {
			t.Fatal(err)
		}
		router := l.Files[2].Text
		for _, want := range []string{`echo "PREFILL_HOSTS: want 2 addresses, got $n"`, `echo "DECODE_HOSTS: want 1 address, got $n"`} {
			if !strings.Contains(router, want) {
				t.Errorf("%s: no %s in\n%s", s.kind, want, router)
			}
		}
		return
	}
	t.Fatal("no disaggregated scenario of TP-4 workers on 8-GPU instances")
}

// TestRouterHostListsAreNotGlobbed: the router splits PREFILL_HOSTS and
// DECODE_HOSTS at spaces without pathname expansion. Run where files
// are ("python" and "trtllm-serve" in routerArgs' directory), a list
// holding "*" and "??????" (which match them) is refused by every
// router naming "*", which is no host name: none counts the directory's
// files as instances or passes them on as hosts.
func TestRouterHostListsAreNotGlobbed(t *testing.T) {
	c := disaggPlans(t)[0]
	d := c.res.Disagg
	per := int(d.Offer.GPUCount) / d.PrefillWorker.TP
	pInst := (d.Prefill + per - 1) / per
	if pInst < 2 {
		t.Fatalf("%d prefill instances, want 2 or more", pInst)
	}
	pre := strings.Fields(hosts("p", pInst))
	pre[0], pre[1] = "*", "??????"
	env := []string{"PREFILL_HOSTS=" + strings.Join(pre, " "), "DECODE_HOSTS=" + hosts("d", d.Instances-pInst)}
	for _, k := range []launch.Kind{launch.SGLang, launch.VLLM, launch.TRTLLM} {
		l, err := launch.EmitDisagg(k, c.req, c.res, nil, "")
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		args, err := routerArgs(t, l.Files[2].Text, env...)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !strings.Contains(string(ee.Stderr), "PREFILL_HOSTS: *: want a host name") {
			t.Errorf("%s: router %v, %v; want the host * refused", k, args, err)
		}
		if slices.Contains(args, "python") || slices.Contains(args, "http://python:30000") {
			t.Errorf("%s: the host list was expanded to the directory's files: %v", k, args)
		}
	}
}

// TestEmitDisaggSidesOwnShapes: each side's script starts workers of its
// own layout (plan.DisaggPlan's PrefillWorker and DecodeWorker).
// DeepSeek-R1 FP8 on SGLang at 100
// requests/s of 8,000-token prompts on the catalog's 8 × H200 instances
// plans prefill workers of tensor-parallel attention with EP 8 beside
// decode workers of attention DP 8 / EP 8 (at 1,000-token prompts both
// sides now run attention DP: plan's TestDisaggPlan): prefill.sh runs no attention DP, decode.sh does, and
// TensorRT-LLM's option files and router configuration say the same.
// With its decode workers widened to attention DP and EP over two
// instances' 16 GPUs, decode.sh starts one worker over --nnodes 2 while
// prefill.sh keeps one 8-GPU worker an instance; the router takes each
// prefill instance and each decode worker's first instance. vLLM's
// decode.sh starts the wide worker's ranks headless on its second
// instance, its prefill.sh one worker an instance; TensorRT-LLM, whose
// scripts do not start a worker over several instances, gets a reason
// that names the side.
func TestEmitDisaggSidesOwnShapes(t *testing.T) {
	in := input(t, "deepseek-r1")
	in.Engine, in.Weights = estimator.SGLang, estimator.FP8
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 8000, OutputTokens: 1000,
		TTFTP95Seconds: 2, TPOTSeconds: 0.1}}
	var offers []plan.Offer
	for _, o := range catalog.Default().PlanOffers(in.Weights) {
		if o.GPU == "h200-sxm" && o.GPUCount == 8 {
			offers = append(offers, o)
		}
	}
	res, err := plan.Plan(req, offers, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Disagg
	if d == nil {
		t.Fatal("no disaggregated alternative")
	}
	pre, dec := d.PrefillWorker, d.DecodeWorker
	if pre != (plan.DisaggWorker{TP: 8, DP: 1, EP: 8, InstancesPerWorker: 1}) || dec != (plan.DisaggWorker{TP: 8, DP: 8, EP: 8, InstancesPerWorker: 1}) {
		t.Fatalf("sides %+v and %+v, want TP 8 · EP 8 prefill and TP 8 · attn-DP 8 · EP 8 decode", pre, dec)
	}
	l, err := launch.EmitDisagg(launch.SGLang, req, res, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	checkDisagg(t, "sglang", launch.SGLang, l)
	if p, dd := l.Files[0].Text, l.Files[1].Text; strings.Contains(p, "--enable-dp-attention") || !strings.Contains(p, "--ep-size 8") ||
		!strings.Contains(dd, "--enable-dp-attention") || !strings.Contains(dd, "--dp-size 8") {
		t.Errorf("prefill.sh and decode.sh do not run their own layouts:\n%s\n%s", p, dd)
	}
	lt, err := launch.EmitDisagg(launch.TRTLLM, req, res, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range lt.Files {
		files[f.Name] = f.Text
	}
	if strings.Contains(files["context_config.yaml"], "enable_attention_dp: true") || !strings.Contains(files["gen_config.yaml"], "enable_attention_dp: true") ||
		!strings.Contains(files["router.sh"], "context_servers:\n  num_instances: "+strconv.Itoa(d.Prefill)+"\n  tensor_parallel_size: 8\n  moe_expert_parallel_size: 8\n  enable_attention_dp: false") {
		t.Errorf("TensorRT-LLM's options do not carry each side's layout:\n%s\n%s\n%s", files["context_config.yaml"], files["gen_config.yaml"], files["router.sh"])
	}

	// The decode workers widened over two instances each.
	wide := *d
	wide.DecodeWorker.TP, wide.DecodeWorker.DP, wide.DecodeWorker.EP, wide.DecodeWorker.InstancesPerWorker = 16, 16, 16, 2
	wide.Instances = d.Prefill + 2*d.Decode
	res.Disagg = &wide
	l, err = launch.EmitDisagg(launch.SGLang, req, res, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range l.Files {
		shellParses(t, f.Name, f.Text)
	}
	p, dd := l.Files[0].Text, l.Files[1].Text
	if strings.Contains(p, "--nnodes") || strings.Count(p, "sglang.launch_server") != 1 || !strings.Contains(p, "--tp-size 8") {
		t.Errorf("prefill.sh, want one 8-GPU worker an instance:\n%s", p)
	}
	for _, want := range []string{"--tp-size 16", "--dp-size 16", "--ep-size 16", "--nnodes 2", "--node-rank \"$NODE_RANK\""} {
		if !strings.Contains(dd, want) {
			t.Errorf("decode.sh lacks %q:\n%s", want, dd)
		}
	}
	args, err := routerArgs(t, l.Files[2].Text, "PREFILL_HOSTS="+hosts("p", d.Prefill), "DECODE_HOSTS="+hosts("d", d.Decode))
	if err != nil {
		t.Fatalf("router.sh: %v", err)
	}
	if j := strings.Join(args, "\n"); strings.Count(j, "--prefill\n") != d.Prefill || strings.Count(j, "--decode\n") != d.Decode {
		t.Errorf("router args %v, want %d prefill and %d decode workers", args, d.Prefill, d.Decode)
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, "2 a decode worker (NODE_RANK 0..1") }) {
		t.Errorf("notes %q: none says the decode workers span 2 instances", l.Notes)
	}
	lv, err := launch.EmitDisagg(launch.VLLM, req, res, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	checkDisagg(t, "vllm wide decode", launch.VLLM, lv)
	if p, dd := lv.Files[0].Text, lv.Files[1].Text; strings.Contains(p, "--headless") || !strings.Contains(dd, "--data-parallel-size 16") ||
		!strings.Contains(dd, "--data-parallel-size-local 8") || !strings.Contains(dd, "--headless \\\n    --data-parallel-start-rank \"$DP_START_RANK\"") {
		t.Errorf("vllm: prefill.sh and decode.sh do not run their own shapes:\n%s\n%s", p, dd)
	}
	lt, err = launch.EmitDisagg(launch.TRTLLM, req, res, nil, "")
	if err != nil {
		t.Fatalf("trtllm: %v", err)
	}
	if p, dd := lt.Files[0].Text, lt.Files[1].Text; strings.Contains(p, "mpirun") || !strings.Contains(dd, "-np 16 \\\n  -H \"$MPI_HOSTS\"") {
		t.Errorf("trtllm: want one-instance prefill workers and an MPI decode worker:\n%s\n%s", p, dd)
	}
}

// TestDisaggHeadingNamesTheLayout: the disaggregated scripts' heading
// names the degrees above one: DeepSeek-R1's workers of EP 8 without
// attention DP are "(EP 8)", where it read "(attention DP 1, EP 8)".
func TestDisaggHeadingNamesTheLayout(t *testing.T) {
	for dp, want := range map[int]string{1: "(EP 8)", 8: "(attention DP 8, EP 8)"} {
		req, row := dsr1DP8(t, estimator.TRTLLM)
		req.Input.DP, row.AttnDP = dp, dp
		l, err := launch.EmitDisagg(launch.TRTLLM, req, disagg5(row), nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		head := "# rightsize plan: aws p5en.48xlarge ×5, disaggregated: 2 prefill workers and 3 decode workers of 8 GPUs " + want + "\n"
		for _, f := range l.Files[:3] {
			if !strings.Contains(f.Text, head) {
				t.Errorf("DP %d: %s:\n%s", dp, f.Name, f.Text)
			}
		}
	}
}

// hosts is a router's host list of n instances: "p0 p1 …" for prefix "p".
func hosts(prefix string, n int) string {
	h := make([]string, n)
	for i := range h {
		h[i] = prefix + strconv.Itoa(i)
	}
	return strings.Join(h, " ")
}

// TestEmitDisaggWithoutOverlapScheduler: TensorRT-LLM's context servers
// always run without the overlap scheduler (they do not support it); a
// plan made with it off (estimator.Input.NoOverlapSchedule) turns it off on
// the generation servers too, and SGLang's workers get
// --disable-overlap-schedule on both sides.
func TestEmitDisaggWithoutOverlapScheduler(t *testing.T) {
	c := disaggPlans(t)[0]
	for _, off := range []bool{false, true} {
		c.req.Input.NoOverlapSchedule = off
		l, err := launch.EmitDisagg(launch.TRTLLM, c.req, c.res, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		checkDisagg(t, "trtllm", launch.TRTLLM, l)
		files := map[string]string{}
		for _, f := range l.Files {
			files[f.Name] = f.Text
		}
		const key = "disable_overlap_scheduler: true"
		if !strings.Contains(files["context_config.yaml"], key) || strings.Contains(files["gen_config.yaml"], key) != off {
			t.Errorf("overlap scheduler off %v: context options\n%s\ngeneration options\n%s", off, files["context_config.yaml"], files["gen_config.yaml"])
		}
		l, err = launch.EmitDisagg(launch.SGLang, c.req, c.res, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		checkDisagg(t, "sglang", launch.SGLang, l)
		if pre, dec := l.Files[0].Text, l.Files[1].Text; strings.Contains(pre, "--disable-overlap-schedule") != off || strings.Contains(dec, "--disable-overlap-schedule") != off {
			t.Errorf("sglang, overlap scheduler off %v:\n%s\n%s", off, pre, dec)
		}
	}
}
