package launch_test

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestNewlineInNameStaysInComment: an instance name with a newline (from
// a price sheet or a provider's API) stays inside the comment that names
// the offer, in the serve script, the training scripts and the SkyPilot
// YAML: no "touch" line, no extra key, the name shown escaped.
func TestNewlineInNameStaysInComment(t *testing.T) {
	scenarios(t)
	const esc = `p5.48xlarge\ntouch /tmp/pwned\n#`
	for _, s := range []scenario{serveCases[0], trainCases[0], trainCases[2], skies[0], skies[1]} {
		for _, inst := range []string{"p5.48xlarge\ntouch /tmp/pwned\n#", "p5.48xlarge\r\ntouch /tmp/pwned\r\n#"} {
			l, err := emit(s, names{provider: "aws", instance: inst, region: "us-east-1\nenvs:\n  X: y", model: "org/model"})
			if err != nil {
				t.Fatalf("%s: %v", s.kind, err)
			}
			f := l.Files[0]
			first := strings.SplitN(strings.TrimPrefix(f.Text, "#!/bin/sh\n"), "\n", 2)[0]
			if !strings.HasPrefix(first, "# rightsize plan: aws p5.48xlarge\\") || !strings.Contains(strings.ReplaceAll(first, `\r`, ""), esc) {
				t.Errorf("%s %s: first comment %q", s.kind, f.Name, first)
			}
			for _, line := range strings.Split(f.Text, "\n") {
				if tr := strings.TrimSpace(line); strings.HasPrefix(tr, "touch") || strings.HasPrefix(tr, "envs") || strings.HasPrefix(tr, "X:") {
					t.Errorf("%s %s: the name starts a line %q:\n%s", s.kind, f.Name, line, f.Text)
				}
			}
			if strings.ContainsRune(f.Text, '\r') {
				t.Errorf("%s %s: a carriage return is written", s.kind, f.Name)
			}
			switch f.Format {
			case "sh":
				shellParses(t, f.Name, f.Text)
				if len(commands(t, f.Text)) == 0 {
					t.Errorf("%s: no command", f.Name)
				}
			case "yaml":
				doc := checkSkyPilot(t, s.kind.String(), f.Text)
				if _, ok := doc["envs"]; ok {
					t.Errorf("envs key added:\n%s", f.Text)
				}
				res := doc["resources"].(map[string]any)
				if res["instance_type"] != inst || res["region"] != "us-east-1\nenvs:\n  X: y" {
					t.Errorf("resources %q", res)
				}
			}
		}
	}
}

// TestModelRefIsOneLiteralWord: a checkpoint path with $, braces, globs,
// quotes or a command substitution is one word whose value is the path,
// under sh and under bash (which expands {a,b}): nothing is expanded.
func TestModelRefIsOneLiteralWord(t *testing.T) {
	scenarios(t)
	for _, ref := range []string{"x$HOME/ckpt", "{--trust-remote-code,evil}", "ckpt/{a,b}", "$(touch /tmp/pwned)", "`id`",
		"a b", "it's", `a"b\c`, "~/ckpt", "ckpt*", "x;touch /tmp/pwned", "%PATH%", "a=b"} {
		for _, s := range []scenario{serveCases[0], serveCases[2], trainCases[0]} {
			l, err := emit(s, names{provider: "aws", instance: "p5.48xlarge", model: ref})
			if err != nil {
				t.Fatalf("%q: %v", ref, err)
			}
			text := l.Files[0].Text
			var word string
			for _, line := range shellSplit(text) {
				for i, w := range line.words {
					if w.value == ref && w.unquoted == "" {
						word = w.raw
					}
					if (w.raw == "serve" || w.raw == "--model_name_or_path") && i+1 < len(line.words) && word == "" {
						word = line.words[i+1].raw
					}
				}
			}
			if word == "" || strings.ContainsAny(strings.Trim(word, "'"), "\n") {
				t.Fatalf("%s %q: no model word in\n%s", s.kind, ref, text)
			}
			for _, sh := range []string{"sh", "bash"} {
				path, err := exec.LookPath(sh)
				if err != nil {
					continue
				}
				out, err := exec.Command(path, "-c", "printf '%s|' "+word).Output()
				if err != nil || string(out) != ref+"|" {
					t.Errorf("%s: %s reads %s as %q (%v), want %q", s.kind, sh, word, out, err, ref)
				}
			}
		}
	}
	// The reported cases, as the launch writes them.
	l, _ := emit(serveCases[0], names{provider: "aws", instance: "p5.48xlarge", model: "{--trust-remote-code,evil}"})
	if !strings.Contains(l.Files[0].Text, "vllm serve '{--trust-remote-code,evil}' \\\n") {
		t.Errorf("brace path:\n%s", l.Files[0].Text)
	}
	l, _ = emit(serveCases[0], names{provider: "aws", instance: "p5.48xlarge", model: "x$HOME/ckpt"})
	if !strings.Contains(l.Files[0].Text, "vllm serve 'x$HOME/ckpt' \\\n") {
		t.Errorf("$HOME path:\n%s", l.Files[0].Text)
	}
}

// TestModelRefRefused: a reference an engine would read as a flag, or
// that holds a control character, is refused in one line.
func TestModelRefRefused(t *testing.T) {
	scenarios(t)
	for _, ref := range []string{"--trust-remote-code", "-rf", "org/model\ntouch /tmp/pwned", "model\x1b[2J", "a\u202eb", "bad\xff",
		strings.Repeat("a", 1025)} {
		_, err := emit(serveCases[0], names{provider: "aws", instance: "p5.48xlarge", model: ref})
		var le *launch.Error
		if !errors.As(err, &le) || le.Key != launch.ErrModelRef || !strings.HasPrefix(le.Reason, "model \"") {
			t.Errorf("%q: %v", ref, err)
			continue
		}
		checkMessage(t, err)
	}
}

// TestConfigIsNotCheckpoint: a config file is not a checkpoint. A launch
// for a config (a --config path, the page's own model) loads the Hugging
// Face repository the config names in _name_or_path, or a placeholder it
// says to replace; never the config's path.
func TestConfigIsNotCheckpoint(t *testing.T) {
	scenarios(t)
	for _, c := range []struct{ model, nameOrPath, want, note string }{
		{"x$HOME/config.json", "", "vllm serve '<your-checkpoint>' \\\n",
			"a config file is not a checkpoint, and the config names no Hugging Face repository (_name_or_path): replace <your-checkpoint> with the checkpoint's Hugging Face repository or path"},
		{"{--trust-remote-code,evil}/config.json", "meta-llama/Llama-3.2-1B", "vllm serve meta-llama/Llama-3.2-1B \\\n",
			"the checkpoint is meta-llama/Llama-3.2-1B, the Hugging Face repository the config names (_name_or_path)"},
		{"cfg/CONFIG.JSON", "/home/user/.cache/huggingface/hub/models--meta-llama--Meta-Llama-3-8B/snapshots/e194", "vllm serve '<your-checkpoint>' \\\n",
			"replace <your-checkpoint>"},
		{"", "", "vllm serve '<your-checkpoint>' \\\n", "no model named: replace <your-checkpoint>"},
		{"", "Phi-3.5-mini-instruct", "vllm serve '<your-checkpoint>' \\\n", "no model named"},
		{"", "org/../etc", "vllm serve '<your-checkpoint>' \\\n", "no model named"},
		{"", "meta-llama/Llama-3.2-1B\ntouch /tmp/pwned", "vllm serve '<your-checkpoint>' \\\n", "no model named"},
	} {
		l, err := emit(serveCases[0], names{provider: "aws", instance: "p5.48xlarge", model: c.model, nameOrPath: c.nameOrPath})
		if err != nil {
			t.Fatalf("%q: %v", c.model, err)
		}
		text := l.Text()
		if !strings.Contains(text, c.want) || !strings.Contains(strings.Join(l.Notes, "\n"), c.note) {
			t.Errorf("%q (%q):\n%s\nwant %q and a note %q", c.model, c.nameOrPath, text, c.want, c.note)
		}
		if c.model != "" && strings.Contains(text, c.model) {
			t.Errorf("%q: the config path is written:\n%s", c.model, text)
		}
	}
}

// TestLoRANoteKeepsModelTypeOutOfCode: the LoRA note's LoraConfig call
// names the target modules of a family the launch knows; for another, a
// config's model_type (the user's own config.json) is a quoted string
// after the call, never part of it, whatever it holds.
func TestLoRANoteKeepsModelTypeOutOfCode(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	in.Task = estimator.LoRA
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 2e8}}
	row := planOn(t, req, "aws-p5en.48xlarge")
	for modelType, want := range map[string]string{
		"llama": `LoraConfig(r=` + strconv.Itoa(in.LoRARank) + `, lora_dropout=` + strconv.FormatFloat(in.LoRADropout, 'g', -1, 64) +
			`, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])`,
		`x"]); __import__("os").system("id"); (["`: `target_modules=[...]), target_modules listing the attention projections of model_type "x\"]); __import__(\"os\").system(\"id\"); ([\""`,
		"a\nb":  `target_modules=[...]), target_modules listing the attention projections of model_type "a\nb"`,
		"qwen9": `target_modules=[...]), target_modules listing the attention projections of model_type "qwen9"`,
	} {
		r := req
		r.Input.Arch.ModelType = modelType
		l, err := launch.Emit(launch.DeepSpeed, r, row, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		var note string
		for _, n := range l.Notes {
			if strings.Contains(n, "LoraConfig(") {
				note = n
			}
		}
		if !strings.Contains(note, want) || !strings.HasSuffix(note, strings.TrimPrefix(want, "target_modules=[...])")) {
			t.Errorf("model_type %q: note %q, want %q", modelType, note, want)
		}
	}
}
