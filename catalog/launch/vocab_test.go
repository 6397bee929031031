package launch_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
)

// vocab is one tool's documented flags or keys (testdata/*.txt): each
// name, and the values it accepts when they are a fixed set (nil: any).
type vocab map[string][]string

// readVocab reads testdata/name; prefix keeps only the lines that start
// with it (and drops it), for files that hold several vocabularies.
func readVocab(t *testing.T, name, prefix string) vocab {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	v := vocab{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || line[0] == '#' {
			continue
		}
		if prefix != "" {
			rest, ok := strings.CutPrefix(line, prefix+" ")
			if !ok {
				continue
			}
			line = rest
		}
		f := strings.Fields(line)
		v[f[0]] = f[1:]
	}
	if len(v) == 0 {
		t.Fatalf("%s: no entries for %q", name, prefix)
	}
	return v
}

// check reports a flag or key that the vocabulary lacks, or a value
// outside its fixed set.
func (v vocab) check(t *testing.T, where, name, value string) {
	t.Helper()
	allowed, ok := v[name]
	if !ok {
		t.Errorf("%s: %s is not a documented flag or key", where, name)
		return
	}
	if len(allowed) > 0 && value != "" && !slices.Contains(allowed, value) {
		t.Errorf("%s: %s %s: want one of %v", where, name, value, allowed)
	}
}

// invocation is one command of a shell file: the tool and its flags with
// their values ("" for a bare flag).
type invocation struct {
	tool  string // "vllm", "sglang", "trtllm", "torchrun", "accelerate", "script", "litgpt-SUBCOMMAND"
	argv  []string
	flags [][2]string
	// env is the VAR=value prefix of the command (CUDA_VISIBLE_DEVICES of
	// one of several processes on an instance).
	env map[string]string
}

// is reports whether c runs tool; "vllm" takes in vllm run-batch, which
// takes vllm serve's engine settings.
func (c invocation) is(tool string) bool {
	return c.tool == tool || tool == "vllm" && c.tool == "vllm-run-batch"
}

func (c invocation) has(flag string) (string, bool) {
	for _, f := range c.flags {
		if f[0] == flag {
			return f[1], true
		}
	}
	return "", false
}

// commands splits a shell file into the commands it runs: continuation
// lines are joined, comments, wait, export and guard lines skipped, a leading
// VAR=value and a trailing & dropped; a launcher's script (train.py) and
// its flags are a command of their own.
func commands(t *testing.T, text string) []invocation {
	t.Helper()
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out []invocation
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line == "wait" || strings.HasPrefix(line, "export ") ||
			strings.HasPrefix(line, "pip install") || strings.HasPrefix(line, "cat >") || line == "EOF" ||
			strings.HasPrefix(line, `: "${`) || // a required variable's guard (nodeGuards)
			regexp.MustCompile(`^if \[ "\$NODE_RANK" = [0-9]+ \]; then$`).MatchString(line) || line == "else" || line == "fi" {
			// The branches of a script that runs on every instance of
			// a copy are each a command of their own.
			continue
		}
		toks := strings.Fields(strings.TrimSuffix(line, "&"))
		env := map[string]string{}
		for len(toks) > 0 && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(toks[0]) {
			k, v, _ := strings.Cut(toks[0], "=")
			env[k] = v
			toks = toks[1:]
		}
		var cur *invocation
		start := func(tool string, argv ...string) {
			out = append(out, invocation{tool: tool, argv: argv, env: env})
			cur = &out[len(out)-1]
		}
		for i := 0; i < len(toks); i++ {
			tok := toks[i]
			switch {
			case cur == nil && tok == "vllm" && i+1 < len(toks) && toks[i+1] == "serve":
				start("vllm", tok, toks[i+1], toks[i+2])
				i += 2
			case cur == nil && tok == "vllm" && i+1 < len(toks) && toks[i+1] == "run-batch":
				start("vllm-run-batch", tok, toks[i+1])
				i++
			case cur == nil && tok == "python" && i+2 < len(toks) && toks[i+2] == "sglang.launch_server":
				start("sglang", toks[i:i+3]...)
				i += 2
			case cur == nil && tok == "python" && i+2 < len(toks) && strings.HasPrefix(toks[i+2], "dynamo."):
				// NVIDIA Dynamo's frontend or an engine's Dynamo worker.
				start("dynamo-"+strings.TrimPrefix(toks[i+2], "dynamo."), toks[i:i+3]...)
				i += 2
			case cur == nil && tok == "ray" && i+1 < len(toks) && toks[i+1] == "start":
				start("ray", tok, toks[i+1])
				i++
			case cur == nil && tok == "trtllm-serve":
				start("trtllm", tok, toks[i+1])
				i++
			case cur == nil && tok == "torchrun":
				start("torchrun", tok)
			case cur == nil && tok == "litgpt" && i+2 < len(toks):
				// litgpt SUBCOMMAND REPO_OR_CHECKPOINT_DIR
				start("litgpt-"+toks[i+1], toks[i:i+3]...)
				i += 2
			case cur == nil && tok == "accelerate" && i+1 < len(toks) && toks[i+1] == "launch":
				start("accelerate", tok, toks[i+1])
				i++
			case cur != nil && tok == "train.py":
				start("script", tok)
			case cur != nil && strings.HasPrefix(tok, "-") && strings.Contains(tok, "="):
				// --flag=value, as ray start's are written.
				name, val, _ := strings.Cut(tok, "=")
				cur.flags = append(cur.flags, [2]string{name, strings.Trim(val, `'"`)})
			case cur != nil && strings.HasPrefix(tok, "-"):
				val := ""
				if i+1 < len(toks) && !strings.HasPrefix(toks[i+1], "-") && toks[i+1] != "train.py" {
					val = strings.Trim(toks[i+1], "'")
					i++
				}
				cur.flags = append(cur.flags, [2]string{tok, val})
			default:
				t.Errorf("unexpected token %q in %q", tok, line)
			}
		}
	}
	return out
}

// vocabularies of the command-line tools, by invocation tool.
func toolVocab(t *testing.T, tool string) vocab {
	switch tool {
	case "vllm":
		return readVocab(t, "vllm_flags.txt", "")
	case "sglang":
		return readVocab(t, "sglang_flags.txt", "")
	case "trtllm":
		return readVocab(t, "trtllm_flags.txt", "")
	case "torchrun":
		return readVocab(t, "torchrun_flags.txt", "")
	case "ray":
		return readVocab(t, "ray_start_flags.txt", "")
	case "accelerate":
		return readVocab(t, "accelerate_keys.txt", "flag")
	case "script":
		return readVocab(t, "transformers_flags.txt", "")
	case "litgpt-download", "litgpt-finetune_lora", "litgpt-finetune_full":
		return readVocab(t, "litgpt_flags.txt", strings.TrimPrefix(tool, "litgpt-"))
	case "dynamo-frontend", "dynamo-trtllm":
		return readVocab(t, "dynamo_flags.txt", strings.TrimPrefix(tool, "dynamo-"))
	case "dynamo-sglang":
		return readVocab(t, "sglang_flags.txt", "")
	case "vllm-run-batch":
		// vLLM's EngineArgs, not vllm serve's HTTP server flags, and
		// run-batch's own.
		v := readVocab(t, "vllm_flags.txt", "")
		for _, f := range []string{"--host", "--port", "--headless"} {
			delete(v, f)
		}
		for f, vals := range readVocab(t, "vllm_run_batch_flags.txt", "") {
			v[f] = vals
		}
		return v
	case "dynamo-vllm":
		// vLLM's EngineArgs, not vllm serve's HTTP server flags, and
		// Dynamo's own.
		v := readVocab(t, "vllm_flags.txt", "")
		delete(v, "--host")
		delete(v, "--port")
		for f, vals := range readVocab(t, "dynamo_flags.txt", "vllm") {
			v[f] = vals
		}
		return v
	}
	t.Fatalf("no vocabulary for %s", tool)
	return nil
}

// required flags each tool's command always carries: the settings the
// plan decides.
var requiredFlags = map[string][]string{
	"vllm": {"--tensor-parallel-size", "--max-model-len", "--gpu-memory-utilization", "--max-num-batched-tokens", "--port"},
	// vLLM's offline batch: its files and model, and the engine settings.
	"vllm-run-batch": {"-i", "-o", "--model", "--tensor-parallel-size", "--max-model-len", "--gpu-memory-utilization", "--max-num-batched-tokens"},
	"sglang":         {"--model-path", "--tp-size", "--context-length", "--mem-fraction-static", "--chunked-prefill-size", "--port"},
	"trtllm":         {"--tp_size", "--max_batch_size", "--max_num_tokens", "--max_seq_len", "--kv_cache_free_gpu_memory_fraction", "--port"},
	"torchrun":       {"--nnodes", "--nproc-per-node"},
	"accelerate":     {"--config_file"},
	"script":         {"--model_name_or_path", "--per_device_train_batch_size", "--gradient_accumulation_steps", "--max_grad_norm", "--output_dir"},
	// LitGPT's fine-tunes: the layout, batch, sequence and precision
	// planned, and every adapter flag (lora.py's defaults are not the
	// plan's targets).
	"litgpt-finetune_lora": {"--devices", "--num_nodes", "--precision", "--train.global_batch_size", "--train.micro_batch_size", "--train.max_seq_length",
		"--lora_r", "--lora_query", "--lora_key", "--lora_value", "--lora_projection", "--lora_mlp", "--lora_head", "--out_dir"},
	"litgpt-finetune_full": {"--devices", "--num_nodes", "--precision", "--train.global_batch_size", "--train.micro_batch_size", "--train.max_seq_length", "--out_dir"},
	// NVIDIA Dynamo's workers: the same settings under Dynamo's names,
	// and the role each plays.
	"dynamo-sglang":   {"--model-path", "--tp-size", "--context-length", "--mem-fraction-static", "--chunked-prefill-size", "--disaggregation-mode"},
	"dynamo-vllm":     {"--model", "--tensor-parallel-size", "--max-model-len", "--gpu-memory-utilization", "--max-num-batched-tokens", "--disaggregation-mode"},
	"dynamo-trtllm":   {"--model", "--tensor-parallel-size", "--max-batch-size", "--max-num-tokens", "--max-seq-len", "--free-gpu-memory-fraction", "--disaggregation-mode"},
	"dynamo-frontend": {"--http-port"},
}

// checkShell checks every command of a shell text against its tool's
// vocabulary and required flags, and returns the commands.
func checkShell(t *testing.T, where, text string) []invocation {
	t.Helper()
	cmds := commands(t, text)
	if len(cmds) == 0 {
		t.Errorf("%s: no command in\n%s", where, text)
	}
	for _, c := range cmds {
		v := toolVocab(t, c.tool)
		for _, f := range c.flags {
			v.check(t, where+" "+c.tool, f[0], f[1])
		}
		for _, r := range requiredFlags[c.tool] {
			if _, scratch := c.has("--config_name"); scratch && r == "--model_name_or_path" {
				// pre-training builds the model from its config
				// (run_clm.py), with the tokenizer named apart.
				r = "--tokenizer_name"
			}
			if _, ok := c.has(r); !ok {
				t.Errorf("%s: %s lacks %s", where, c.tool, r)
			}
		}
	}
	return cmds
}

// parseYAML reads the block-style YAML subset launch writes: nested
// mappings by two-space indentation, double-quoted JSON strings,
// integers, numbers, true/false and literal block scalars ("|"). Anything
// else fails the test, so output outside the subset is caught.
func parseYAML(t *testing.T, text string) map[string]any {
	t.Helper()
	lines := strings.Split(text, "\n")
	root := map[string]any{}
	type frame struct {
		indent int
		m      map[string]any
	}
	stack := []frame{{-1, root}}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if trim == "" || trim[0] == '#' {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		for len(stack) > 1 && indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].m
		key, val, ok := strings.Cut(trim, ":")
		if !ok || !regexp.MustCompile(`^[a-z_][a-z0-9_]*$`).MatchString(key) {
			t.Fatalf("line %d: not a mapping entry: %q", i+1, line)
		}
		if _, dup := parent[key]; dup {
			t.Fatalf("line %d: duplicate key %s", i+1, key)
		}
		val = strings.TrimSpace(val)
		switch {
		case val == "":
			m := map[string]any{}
			parent[key] = m
			stack = append(stack, frame{indent, m})
		case val == "|":
			var b strings.Builder
			blockIndent := -1
			for i+1 < len(lines) {
				next := lines[i+1]
				ni := len(next) - len(strings.TrimLeft(next, " "))
				if strings.TrimSpace(next) != "" && ni <= indent {
					break
				}
				i++
				if strings.TrimSpace(next) == "" {
					b.WriteByte('\n')
					continue
				}
				if blockIndent < 0 {
					blockIndent = ni
				}
				if ni < blockIndent {
					t.Fatalf("line %d: block scalar dedents", i+1)
				}
				b.WriteString(next[blockIndent:] + "\n")
			}
			parent[key] = strings.TrimRight(b.String(), "\n") + "\n"
		case val[0] == '"':
			s, err := strconv.Unquote(val)
			if err != nil {
				t.Fatalf("line %d: bad string %s", i+1, val)
			}
			parent[key] = s
		case val == "true" || val == "false":
			parent[key] = val == "true"
		case val == "null":
			parent[key] = nil
		default:
			if n, err := strconv.ParseInt(val, 10, 64); err == nil {
				parent[key] = n
			} else if f, err := strconv.ParseFloat(val, 64); err == nil {
				parent[key] = f
			} else {
				t.Fatalf("line %d: plain scalar %q outside the subset (quote strings)", i+1, val)
			}
		}
	}
	return root
}

// leaves flattens a parsed document to dotted paths.
func leaves(m map[string]any, prefix string, out map[string]any) map[string]any {
	for k, v := range m {
		p := prefix + k
		out[p] = v
		if sub, ok := v.(map[string]any); ok {
			leaves(sub, p+".", out)
		}
	}
	return out
}

// typeOf is a value's JSON-schema type name.
func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return "?"
}

// checkSkyPilot parses a task YAML and checks it against SkyPilot's
// schema (testdata/skypilot_schema.txt): every field documented and of
// its type, the required ones present, a cloud SkyPilot names.
func checkSkyPilot(t *testing.T, where, text string) map[string]any {
	t.Helper()
	doc := parseYAML(t, text)
	fields := readVocab(t, "skypilot_schema.txt", "field")
	for p, v := range leaves(doc, "", map[string]any{}) {
		want, ok := fields[p]
		if !ok {
			t.Errorf("%s: %s is not a SkyPilot task field", where, p)
			continue
		}
		if got := typeOf(v); got != want[0] {
			t.Errorf("%s: %s is %s, SkyPilot wants %s", where, p, got, want[0])
		}
	}
	all := leaves(doc, "", map[string]any{})
	for r := range readVocab(t, "skypilot_schema.txt", "required") {
		if _, ok := all[r]; !ok {
			t.Errorf("%s: no %s", where, r)
		}
	}
	if c, _ := all["resources.cloud"].(string); c != "" {
		if _, ok := readVocab(t, "skypilot_schema.txt", "cloud")[c]; !ok {
			t.Errorf("%s: cloud %q is not one SkyPilot names", where, c)
		}
	}
	if a, ok := all["resources.accelerators"].(string); ok && !regexp.MustCompile(`^[A-Za-z0-9-]+:[0-9.]+$`).MatchString(a) {
		t.Errorf("%s: accelerators %q: want NAME:COUNT", where, a)
	}
	if n, _ := all["num_nodes"].(int64); n < 1 {
		t.Errorf("%s: num_nodes %d", where, n)
	}
	run, _ := all["run"].(string)
	checkShell(t, where+" run", run)
	return doc
}

// checkDeepSpeed parses ds_config.json and checks its keys, types and
// values against DeepSpeed's (testdata/deepspeed_keys.txt), and its batch
// identity (train_batch_size = micro × accumulation × DP).
func checkDeepSpeed(t *testing.T, where, text string, dp int) map[string]any {
	t.Helper()
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v\n%s", where, err, text)
	}
	keys := readVocab(t, "deepspeed_keys.txt", "")
	flat := map[string]any{}
	var walk func(m map[string]any, prefix string)
	walk = func(m map[string]any, prefix string) {
		for k, v := range m {
			p := prefix + k
			flat[p] = v
			if sub, ok := v.(map[string]any); ok {
				walk(sub, p+".")
			}
		}
	}
	walk(doc, "")
	for p, v := range flat {
		want, ok := keys[p]
		if !ok {
			t.Errorf("%s: %s is not a DeepSpeed config key", where, p)
			continue
		}
		got := "?"
		switch x := v.(type) {
		case json.Number:
			got = "number"
			if _, err := x.Int64(); err == nil {
				got = "int"
			}
		case bool:
			got = "bool"
		case string:
			got = "string"
		case map[string]any:
			got = "object"
		}
		if got != want[0] {
			t.Errorf("%s: %s is %s, DeepSpeed wants %s", where, p, got, want[0])
		}
		if len(want) > 1 {
			s := ""
			switch x := v.(type) {
			case json.Number:
				s = x.String()
			case string:
				s = x
			}
			if !slices.Contains(want[1:], s) {
				t.Errorf("%s: %s = %v, want one of %v", where, p, v, want[1:])
			}
		}
	}
	mb, acc, gb := toFloat(flat["train_micro_batch_size_per_gpu"]), toFloat(flat["gradient_accumulation_steps"]), toFloat(flat["train_batch_size"])
	if gb != mb*acc*float64(dp) || gb < 1 {
		t.Errorf("%s: train_batch_size %v ≠ micro %v × accumulation %v × DP %d", where, gb, mb, acc, dp)
	}
	return doc
}

func toFloat(v any) float64 {
	n, _ := v.(json.Number)
	f, _ := n.Float64()
	return f
}

// checkAccelerate parses accelerate's FSDP config and checks its keys and
// values (testdata/accelerate_keys.txt).
func checkAccelerate(t *testing.T, where, text string) map[string]any {
	t.Helper()
	doc := parseYAML(t, text)
	top, fsdp := readVocab(t, "accelerate_keys.txt", "key"), readVocab(t, "accelerate_keys.txt", "fsdp")
	for k, v := range doc {
		s, _ := v.(string)
		top.check(t, where, k, s)
	}
	sub, _ := doc["fsdp_config"].(map[string]any)
	if sub == nil {
		t.Fatalf("%s: no fsdp_config", where)
	}
	for k, v := range sub {
		s, _ := v.(string)
		fsdp.check(t, where+" fsdp_config", k, s)
	}
	return doc
}

// llmAPIOptions are the TensorRT-LLM LLM API options (the LLM API's
// argument fields, tensorrt_llm/llmapi/llm_args.py at the commit of
// testdata/trtllm_flags.txt) a launch may write into the file
// trtllm-serve reads with --extra_llm_api_options, as dotted paths, and
// their types. The disaggregated servers' (launch.EmitDisagg) are
// disable_overlap_scheduler (TorchLlmArgs) and cache_transceiver_config
// (CacheTransceiverConfig: backend, max_tokens_in_buffer), as
// docs/source/features/disagg-serving.md @ 0434b982fa38 writes them; a
// plan without CUDA graphs sets TorchLlmArgs' cuda_graph_config to null;
// a plan priced with the attention-DP balance sets TorchLlmArgs'
// attention_dp_config (AttentionDpConfig: enable_balance, timeout_iters,
// batching_wait_iters; read 2026-11-30 in the stored llm_args.py copies,
// not at that commit); a copy with redundant experts sets TorchLlmArgs'
// moe_config.load_balancer (MoeConfig.load_balancer, a
// MoeLoadBalancerConfig: num_slots, layer_updates_per_iter; the same
// copies); a plan with speculative decoding sets TorchLlmArgs'
// speculative_config as an MTPDecodingConfig (decoding_type "MTP",
// num_nextn_predict_layers; llm_args.py in the stored copies, as the
// InferenceX TensorRT-LLM MTP recipes write it).
var llmAPIOptions = map[string]string{
	"enable_attention_dp":                             "boolean",
	"disable_overlap_scheduler":                       "boolean",
	"cuda_graph_config":                               "null",
	"cache_transceiver_config":                        "object",
	"cache_transceiver_config.backend":                "string",
	"cache_transceiver_config.max_tokens_in_buffer":   "integer",
	"attention_dp_config":                             "object",
	"attention_dp_config.enable_balance":              "boolean",
	"attention_dp_config.timeout_iters":               "integer",
	"attention_dp_config.batching_wait_iters":         "integer",
	"moe_config":                                      "object",
	"moe_config.load_balancer":                        "object",
	"moe_config.load_balancer.num_slots":              "integer",
	"moe_config.load_balancer.layer_updates_per_iter": "integer",
	"speculative_config":                              "object",
	"speculative_config.decoding_type":                "string",
	"speculative_config.num_nextn_predict_layers":     "integer",
}

// cacheTransceiverBackends are the values of cache_transceiver_config's
// backend (CacheTransceiverConfig.backend's Literal, llm_args.py).
var cacheTransceiverBackends = []string{"DEFAULT", "UCX", "NIXL", "MPI"}

// checkLLMAPIOptions checks a TensorRT-LLM options file: YAML whose keys
// are llmAPIOptions' with their types.
func checkLLMAPIOptions(t *testing.T, where, text string) {
	t.Helper()
	doc := leaves(parseYAML(t, text), "", map[string]any{})
	if len(doc) == 0 {
		t.Errorf("%s: no option:\n%s", where, text)
	}
	if b, ok := doc["cache_transceiver_config.backend"].(string); ok && !slices.Contains(cacheTransceiverBackends, b) {
		t.Errorf("%s: cache transceiver backend %q, want one of %v", where, b, cacheTransceiverBackends)
	}
	for k, v := range doc {
		if want, ok := llmAPIOptions[k]; !ok || typeOf(v) != want {
			t.Errorf("%s: option %s: %v (%s), want one of %v", where, k, v, typeOf(v), llmAPIOptions)
		}
	}
}

// checkLaunch checks every file of a launch by its format.
func checkLaunch(t *testing.T, where string, l launch.Launch, dp int) {
	t.Helper()
	if len(l.Files) == 0 {
		t.Fatalf("%s: no files", where)
	}
	for _, f := range l.Files {
		w := where + " " + f.Name
		switch {
		case f.Name == "task.yaml":
			checkSkyPilot(t, w, f.Text)
		case f.Name == "ds_config.json":
			checkDeepSpeed(t, w, f.Text, dp)
		case f.Name == "fsdp.yaml":
			checkAccelerate(t, w, f.Text)
		case f.Name == "extra_llm_api_options.yaml" || f.Name == "context_config.yaml" || f.Name == "gen_config.yaml":
			checkLLMAPIOptions(t, w, f.Text)
		case f.Format == "sh":
			checkShell(t, w, f.Text)
		default:
			t.Errorf("%s: unexpected file", w)
		}
	}
}
