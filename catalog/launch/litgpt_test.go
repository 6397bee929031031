package launch_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// litgptCase is litgptCases[i]'s request and row.
func litgptCase(t *testing.T, i int) (plan.Request, plan.Row) {
	t.Helper()
	req := litgptCases[i].req(t)
	return req, litgptCases[i].row(t, req)
}

// TestLitGPTRefusals: a row LitGPT's scripts would not run as planned is
// refused with one sentence naming what differs and what to plan instead,
// never written as a command that runs another memory layout.
func TestLitGPTRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		base  int // litgptCases index
		mod   func(*plan.Request, *plan.Row)
		model string
		key   string
		says  []string
	}{
		{"QLoRA on 4 GPUs", 1, func(r *plan.Request, _ *plan.Row) { r.Input.Task = estimator.QLoRA }, "llama-3-8b",
			launch.ErrLitGPT, []string{"QLoRA on 4 GPUs", "Quantization is currently not supported for multi-GPU training", "--gpus 1"}},
		{"ZeRO-2 on 4 GPUs", 1, func(_ *plan.Request, r *plan.Row) { r.ZeRO = 2 }, "llama-3-8b",
			launch.ErrLitGPT, []string{"ZeRO-2 on 4 GPUs", "--gpu l40s --gpus 4", "FULL_SHARD"}},
		{"ZeRO-0 data parallel", 1, func(_ *plan.Request, r *plan.Row) { r.ZeRO, r.GradCheckpointing = 0, false }, "llama-3-8b",
			launch.ErrLitGPT, []string{"ZeRO-0 on 4 GPUs"}},
		{"recomputation on one GPU", 0, func(_ *plan.Request, r *plan.Row) { r.GradCheckpointing = true }, "llama-3-8b",
			launch.ErrLitGPT, []string{"recomputes activations on one GPU", "--gpu h100-sxm --gpus 1"}},
		{"offload", 1, func(_ *plan.Request, r *plan.Row) { r.Offload = estimator.OffloadAll }, "llama-3-8b",
			launch.ErrLitGPT, []string{"offloads", "cpu_offload=False"}},
		{"tensor parallel", 1, func(_ *plan.Request, r *plan.Row) { r.TP, r.DP = 2, 2 }, "llama-3-8b",
			launch.ErrLitGPT, []string{"splits the model", "data parallel only"}},
		{"pre-training", 0, func(r *plan.Request, _ *plan.Row) { r.Input.Task = estimator.Pretrain }, "llama-3-8b",
			launch.ErrLitGPT, []string{"fine-tune", "task is train"}},
		{"fp8", 0, func(r *plan.Request, _ *plan.Row) { r.Input.Weights = estimator.FP8 }, "llama-3-8b",
			launch.ErrLitGPT, []string{"fp8", "--precision"}},
		{"QLoRA in mixed precision", 2, func(r *plan.Request, _ *plan.Row) { r.Input.PureBF16 = false }, "llama-3-8b",
			launch.ErrLitGPT, []string{"bf16-mixed", "Quantization and mixed precision is not supported"}},
		{"fp32 adapters under bf16-true", 0, func(r *plan.Request, _ *plan.Row) { r.Input.AdapterDType = estimator.AdapterFP32 }, "llama-3-8b",
			launch.ErrLitGPT, []string{"adapters are fp32", "builds them in bf16 under --precision bf16-true", "--adapter-dtype bf16"}},
		{"bf16 adapters under bf16-mixed", 0, func(r *plan.Request, _ *plan.Row) {
			r.Input.PureBF16, r.Input.AdapterDType = false, estimator.AdapterBF16
		},
			"llama-3-8b", launch.ErrLitGPT, []string{"adapters are bf16", "builds them in fp32 under --precision bf16-mixed", "--adapter-dtype fp32"}},
		{"adapters LitGPT has no flags for", 0, func(r *plan.Request, _ *plan.Row) { r.Input.LoRATargets = estimator.LoRATargets(99) }, "llama-3-8b",
			launch.ErrLitGPT, []string{"--lora_*"}},
		{"a model not in the hub", 0, nil, "qwen3-8b", launch.ErrLitGPTModel, []string{"LitGPT 0.4.13", "Qwen/Qwen3-8B", "--precision bf16"}},
		{"a repository not in the hub", 0, nil, "org/model", launch.ErrLitGPTModel, []string{"org/model"}},
		{"no model", 0, nil, "", launch.ErrLitGPTModel, []string{"no model named"}},
	} {
		req, row := litgptCase(t, c.base)
		if c.mod != nil {
			c.mod(&req, &row)
		}
		if c.model == "" {
			req.Input.Arch.NameOrPath = ""
		}
		_, err := launch.Emit(launch.LitGPT, req, row, nil, c.model)
		var le *launch.Error
		if !errors.As(err, &le) || le.Key != c.key {
			t.Errorf("%s: %v, want a %s refusal", c.name, err, c.key)
			continue
		}
		checkMessage(t, err)
		for _, s := range c.says {
			if !strings.Contains(le.Reason, s) {
				t.Errorf("%s: %q does not say %q", c.name, le.Reason, s)
			}
		}
	}
	// FSDP full shard without recomputation runs, in less memory than
	// planned: a note says so.
	req, row := litgptCase(t, 1)
	row.GradCheckpointing = false
	l, err := launch.Emit(launch.LitGPT, req, row, nil, "llama-3-8b")
	if err != nil || !strings.Contains(strings.Join(l.Notes, "\n"), "activation_checkpointing_policy={Block}") {
		t.Errorf("ZeRO-3 without recomputation: %v, notes %q", err, l.Notes)
	}
}

// TestStackError: a training plan sized for LitGPT's scripts launches with
// LitGPT alone, and LitGPT launches no other plan; inference plans are
// Emit's to judge.
func TestStackError(t *testing.T) {
	for _, k := range launch.Kinds {
		for _, litgpt := range []bool{false, true} {
			err := launch.StackError(k, plan.Training, litgpt)
			var le *launch.Error
			if refused := (k == launch.LitGPT) != litgpt; refused != (err != nil) || refused && (!errors.As(err, &le) || le.Key != launch.ErrStack) {
				t.Errorf("StackError(%v, training, %v) = %v", k, litgpt, err)
			}
			if err != nil && !strings.Contains(err.Error(), map[bool]string{true: "use litgpt", false: "--precision bf16-true"}[litgpt]) {
				t.Errorf("StackError(%v, training, %v) = %q: says nothing of what to use", k, litgpt, err)
			}
			if err := launch.StackError(k, plan.Serving, litgpt); err != nil {
				t.Errorf("StackError(%v, serving, %v) = %v", k, litgpt, err)
			}
		}
	}
}

// TestLitGPTAdapters: the --lora_* flags are the plan's adapter targets:
// the attention projections (q, k, v of the fused qkv and the output
// projection) or every linear of the blocks (and the MLP's), never the
// head; lora.py's own default (query and value) is not what was planned.
func TestLitGPTAdapters(t *testing.T) {
	for targets, want := range map[estimator.LoRATargets]string{
		estimator.LoRAAttention: "--lora_query true --lora_key true --lora_value true --lora_projection true --lora_mlp false --lora_head false",
		estimator.LoRAAllLinear: "--lora_query true --lora_key true --lora_value true --lora_projection true --lora_mlp true --lora_head false",
	} {
		req, row := litgptCase(t, 0)
		req.Input.Task, req.Input.LoRATargets, req.Input.LoRARank, req.Input.LoRADropout = estimator.LoRA, targets, 16, 0.1
		l, err := launch.Emit(launch.LitGPT, req, row, nil, "llama-3-8b")
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Join(strings.Fields(strings.ReplaceAll(l.Files[0].Text, "\\\n", "")), " ")
		if !strings.Contains(line, want) || !strings.Contains(line, "--lora_r 16 --lora_alpha 16 --lora_dropout 0.1") {
			t.Errorf("%v: %s\nwant %s", targets, line, want)
		}
	}
}

// TestLitGPTHub: the repository litgpt download takes is the name LitGPT's
// config hub has for the model, in its spelling: Llama 3.1 under the name
// Meta gave it before the Hub's rename, a repository given in another
// case as the hub spells it; every catalog model in the hub launches.
func TestLitGPTHub(t *testing.T) {
	req, row := litgptCase(t, 0)
	for model, want := range map[string]string{
		"llama-3.1-8b":               "meta-llama/Meta-Llama-3.1-8B",
		"meta-llama/Llama-3.1-8B":    "meta-llama/Meta-Llama-3.1-8B",
		"META-LLAMA/meta-llama-3-8b": "meta-llama/Meta-Llama-3-8B",
		"gemma-2-9b":                 "google/gemma-2-9b",
		"microsoft/phi-2":            "microsoft/phi-2",
	} {
		r := req
		if m, ok := catalog.Default().Model(model); ok {
			a, err := estimator.ParseConfig([]byte(m.Config))
			if err != nil {
				t.Fatal(err)
			}
			r.Input.Arch = a
		}
		l, err := launch.Emit(launch.LitGPT, r, row, nil, model)
		if err != nil {
			t.Errorf("%s: %v", model, err)
			continue
		}
		if text := l.Files[0].Text; !strings.Contains(text, "litgpt download "+want+"\n") || !strings.Contains(text, "litgpt finetune_lora checkpoints/"+want+" \\\n") {
			t.Errorf("%s: want %s downloaded and fine-tuned:\n%s", model, want, text)
		}
	}
	launched := 0
	for _, m := range catalog.Default().Models {
		if _, err := launch.Emit(launch.LitGPT, req, row, nil, m.ID); err == nil {
			launched++
		}
	}
	// Llama 2, 3, 3.1 and 3.2, Gemma 2, Mistral, Mixtral, Phi-3.5 and
	// Falcon of the catalog (19 of its models on 2026-11-30).
	if launched < 19 {
		t.Errorf("%d catalog models launch with LitGPT, want ≥ 19", launched)
	}
}

// FuzzLitGPTScript: launch.sh of LitGPT's fine-tunes (LoRA, QLoRA and
// full, on one instance and on two), whatever the offer's names, and a
// model reference LitGPT's hub lacks is refused in one printable line.
func FuzzLitGPTScript(f *testing.F) {
	seed(f)
	hub := []string{"llama-3-8b", "meta-llama/Meta-Llama-3-8B", "llama-3.1-70b", "google/gemma-2-9b"}
	f.Fuzz(func(t *testing.T, provider, instance, region, model string, pick uint8) {
		req, row := litgptCase(t, int(pick)%len(litgptCases))
		ref := hub[int(pick)%len(hub)]
		s := scenario{kind: launch.LitGPT, req: req, row: row}
		got, err := emit(s, names{provider: provider, instance: instance, region: region, gpu: region, model: ref})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		want, err := emit(s, names{provider: benignProvider, instance: benignInstance, region: benignRegion, gpu: region, model: ref})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Files) != 1 || len(want.Files) != 1 {
			t.Fatalf("%d files, want 1", len(got.Files))
		}
		sameShell(t, "launch.sh", got.Files[0].Text, want.Files[0].Text, nil)
		for _, note := range got.Notes {
			if catalog.Printable(note) != note {
				t.Errorf("note %q is not printable", note)
			}
		}
		// A hostile model: refused, unless it names a repository of the
		// hub in another spelling.
		l, err := emit(s, names{provider: provider, instance: instance, region: region, gpu: region, model: model, nameOrPath: model})
		var le *launch.Error
		switch {
		case errors.As(err, &le) && (le.Key == launch.ErrLitGPTModel || le.Key == launch.ErrModelRef):
			checkMessage(t, err)
		case err != nil:
			t.Fatalf("model %q: %v", model, err)
		default:
			// A repository of the hub, written in the hub's spelling:
			// one plain word of the letters a repository ID has.
			shellParses(t, "launch.sh", l.Files[0].Text)
			for _, line := range shellSplit(l.Files[0].Text) {
				if len(line.words) > 2 && line.words[0].raw == "litgpt" && line.words[1].raw == "download" {
					if w := line.words[2]; w.raw != w.value || !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`).MatchString(w.value) ||
						!strings.EqualFold(w.value, model) && !strings.EqualFold(w.value, "meta-llama/Meta-"+strings.TrimPrefix(strings.ToLower(model), "meta-llama/")) {
						t.Errorf("model %q downloads %q", model, w.raw)
					}
				}
			}
		}
		// A refusal naming the offer's GPU is one printable line.
		row.ZeRO = 2
		if _, err := emit(scenario{kind: launch.LitGPT, req: req, row: row}, names{provider: provider, instance: instance, region: region, gpu: instance, model: ref}); err != nil {
			checkMessage(t, err)
		}
	})
}
