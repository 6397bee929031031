package launch_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator/plan"
)

// The fuzz targets below write each output form (serve script, training
// script, SkyPilot task) for a plan whose offer names, region, model
// reference and config _name_or_path are hostile, and check that the
// output is exactly the plan's whatever the names: it parses (sh -n and
// bash -n, the YAML subset parser), it has the lines, commands and words
// the same plan has with benign names, and the names come back as the
// values they are.

// hostile are the reported payloads and their relatives: seeds of every
// fuzz target.
var hostile = []string{
	"p5.48xlarge\ntouch /tmp/pwned\n#",
	"p5.48xlarge\r\ntouch /tmp/pwned",
	"x\nfile_mounts: {/remote/keys: ~/.ssh}",
	"p5.48xlarge\nenvs:\n  A: b",
	"x$HOME/config.json",
	"{--trust-remote-code,evil}",
	"$(touch /tmp/pwned)",
	"`touch /tmp/pwned`",
	"a'b\"c\\d",
	"~/ckpt",
	"*",
	"--trust-remote-code",
	"x;touch /tmp/pwned",
	"\x1b]0;owned\a\x1b[2J",
	"rtl\u202eevil\u2028line\u0085nel",
	"bad\xffutf8",
	"\U000e0041tag",
	"",
	" ",
	"#",
	"\"",
	"key: value",
	"- item",
	"org/model.json",
	"&anchor x",
	"*alias",
	"!!python/object/apply:os.system ['id']",
	"nul\x00byte",
	"a\\\nb",
	"--decoder-hosts",
	"? key",
	"| block",
	"x # comment",
	"=HYPERLINK(\"http://x.example\")",
	"[x](javascript:alert(1))",
	"<img src=x onerror=alert(1)>",
	// Bidi isolates and the Arabic letter mark (Trojan Source's other
	// controls), look-alikes that read as the real thing (a Cyrillic е
	// in a Hub ID, a Unicode minus and a fullwidth dollar that no shell
	// or parser reads as their ASCII twins), blanks that print as
	// nothing (NBSP, the Hangul filler), a combining mark after a quote,
	// and a variable in braces.
	"\u2066evil\u2069 \u2067x\u2068y",
	"a\u061cb",
	"m\u0435ta-llama/Llama-3.1-8B-Instruct",
	"\u2212\u2212trust-remote-code",
	"\uff04(touch /tmp/pwned)",
	"a\u00a0b",
	"org/model\u3164--trust-remote-code",
	"'\u0301; touch /tmp/pwned",
	"${HOME}",
}

// benign are the names the structure is compared with.
const (
	benignProvider = "aws"
	benignInstance = "p5.48xlarge"
	benignRegion   = "us-east-1"
	benignModel    = "org/model"
)

// scenario is one planned row to launch with kind.
type scenario struct {
	kind launch.Kind
	req  plan.Request
	row  plan.Row
	// disagg writes the disaggregated alternative on the row's offer and
	// copy shape (3 prefill and 2 decode workers) instead of the row,
	// behind router.
	disagg bool
	router launch.Router
}

var (
	scenariosOnce                 sync.Once
	serveCases, trainCases, skies []scenario
	disaggCases                   []scenario
)

// scenarios builds the rows once: every serving engine on one GPU, on two
// TP-4 copies (TensorRT-LLM one process per copy), on a copy at attention
// DP 8 and EP 8 (TensorRT-LLM's options file), on a wide expert-parallel
// copy over two instances and on a tensor-parallel copy spanning two
// instances; DeepSpeed and FSDP on one instance and on two; SkyPilot
// for serving on spot and for training on one and two instances.
func scenarios(t *testing.T) {
	scenariosOnce.Do(func() {
		row := func(i int) (plan.Request, plan.Row) {
			req := goldenCases[i].req(t)
			return req, goldenCases[i].row(t, req)
		}
		for _, i := range []int{0, 2, len(goldenCases) - 2, len(goldenCases) - 1} {
			req, r := row(i)
			for _, k := range []launch.Kind{launch.VLLM, launch.SGLang, launch.TRTLLM} {
				serveCases = append(serveCases, scenario{kind: k, req: req, row: r})
			}
		}
		// Disaggregated: every serving engine on one GPU a worker, on two
		// TP-4 workers an instance, at DP 8/EP 8 and at DP 4/EP 4 with
		// two workers an instance.
		for _, i := range []int{0, 2, len(goldenCases) - 3, len(goldenCases) - 2} {
			req, r := row(i)
			for _, k := range []launch.Kind{launch.VLLM, launch.SGLang, launch.TRTLLM} {
				for _, rt := range launch.Routers {
					disaggCases = append(disaggCases, scenario{kind: k, req: req, row: r, disagg: true, router: rt})
				}
			}
		}
		// Speculative decoding (the MTP golden case), aggregated and
		// disaggregated, on every serving engine.
		for i, c := range goldenCases {
			if c.name != "deepseek-r1-tp8-mtp2" {
				continue
			}
			req, r := row(i)
			for _, k := range []launch.Kind{launch.VLLM, launch.SGLang, launch.TRTLLM} {
				serveCases = append(serveCases, scenario{kind: k, req: req, row: r})
				disaggCases = append(disaggCases, scenario{kind: k, req: req, row: r, disagg: true, router: launch.Routers[0]})
			}
			// The same with the overlap scheduler off
			// (estimator.Input.NoOverlapSchedule), SGLang's and
			// TensorRT-LLM's setting.
			req.Input.NoOverlapSchedule = true
			for _, k := range []launch.Kind{launch.SGLang, launch.TRTLLM} {
				serveCases = append(serveCases, scenario{kind: k, req: req, row: r})
				disaggCases = append(disaggCases, scenario{kind: k, req: req, row: r, disagg: true, router: launch.Routers[0]})
			}
		}
		req, r := row(1)
		r.InstancesPerReplica, r.Instances = 2, 2
		for _, k := range []launch.Kind{launch.VLLM, launch.SGLang} {
			serveCases = append(serveCases, scenario{kind: k, req: req, row: r})
		}
		for _, i := range []int{4, 7} {
			req, r := row(i)
			trainCases = append(trainCases, scenario{kind: launch.DeepSpeed, req: req, row: r})
		}
		for _, i := range []int{5, 7} {
			req, r := row(i)
			trainCases = append(trainCases, scenario{kind: launch.FSDP, req: req, row: r})
		}
		for _, i := range []int{4, 6, 7} {
			req, r := row(i)
			skies = append(skies, scenario{kind: launch.SkyPilot, req: req, row: r})
		}
	})
}

// names is what one fuzz input sets.
type names struct {
	provider, instance, region, gpu, model, nameOrPath string
}

// emit writes s's launch with the names in n: the offer's (a copy; its ID
// is not the catalog's, so the region is the offer's own), the model
// reference and the config's _name_or_path.
func emit(s scenario, n names) (launch.Launch, error) {
	o := *s.row.Offer
	o.ID, o.Provider, o.InstanceType, o.Region = "fuzz-offer", n.provider, n.instance, n.region
	if n.gpu != "" {
		o.GPU = n.gpu
	}
	row, req := s.row, s.req
	row.Offer = &o
	req.Input.Arch.NameOrPath = n.nameOrPath
	if s.disagg {
		per := max(int(o.GPUCount)/max(row.TP, 1), 1)
		d := plan.DisaggPlan{Offer: &o, Engine: row.Engine, PrefillWorker: rowWorker(row), DecodeWorker: rowWorker(row), Prefill: 3, Decode: 2, Instances: (3+per-1)/per + (2+per-1)/per}
		return launch.EmitDisaggVia(s.kind, s.router, req, plan.Result{Rows: []plan.Row{row}, Disagg: &d}, nil, n.model)
	}
	return launch.Emit(s.kind, req, row, nil, n.model)
}

// benign is n with each name given replaced by a benign one (a name left
// empty stays empty: the plan then has no such line at all; a cloud
// SkyPilot knows stays, as it decides the task's resources).
func benign(n names) names {
	or := func(s, b string) string {
		if s == "" {
			return ""
		}
		return b
	}
	provider := or(n.provider, benignProvider)
	if _, ok := launch.SkyCloud(n.provider); ok {
		provider = n.provider
	}
	return names{provider: provider, instance: or(n.instance, benignInstance),
		region: or(n.region, benignRegion), gpu: n.gpu, model: benignModel}
}

// modelRefused is whether Emit must refuse model as a reference: given,
// not a catalog model nor a config file, and not one printable word that
// cannot be read as a flag.
func modelRefused(model string) bool {
	if model == "" || strings.HasSuffix(strings.ToLower(model), ".json") {
		return false
	}
	return model[0] == '-' || catalog.Printable(model) != model || len(model) > 1024
}

// modelValues are the checkpoints a launch may name for the input: the
// reference as given, the config's repository, or the placeholder.
func modelValues(n names) []string {
	return []string{n.model, n.nameOrPath, launch.Placeholder}
}

// checkEmitted emits s with hostile names n and with benign ones and
// compares them file by file. It returns false when the input is one
// Emit rightly refuses.
func checkEmitted(t *testing.T, s scenario, n names) bool {
	t.Helper()
	if _, ok := catalog.Default().Model(n.model); ok {
		return false
	}
	got, err := emit(s, n)
	var le *launch.Error
	if errors.As(err, &le) && le.Key == launch.ErrModelRef {
		if !modelRefused(n.model) {
			t.Fatalf("model %q refused: %v", n.model, err)
		}
		checkMessage(t, err)
		return false
	}
	if err != nil {
		t.Fatalf("%q: %v", n, err)
	}
	if modelRefused(n.model) {
		t.Fatalf("model %q accepted", n.model)
	}
	want, err := emit(s, benign(n))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != len(want.Files) {
		t.Fatalf("%d files, want %d", len(got.Files), len(want.Files))
	}
	for i, f := range got.Files {
		w := want.Files[i]
		if f.Name != w.Name || f.Format != w.Format {
			t.Fatalf("file %s.%s, want %s.%s", f.Name, f.Format, w.Name, w.Format)
		}
		switch f.Format {
		case "sh":
			sameShell(t, f.Name, f.Text, w.Text, modelValues(n))
		case "yaml":
			sameYAML(t, f.Name, f.Text, w.Text, n)
		case "json":
			if f.Text != w.Text {
				t.Errorf("%s changed with the names:\n%s", f.Name, f.Text)
			}
		}
	}
	// The copyable text: the files, then one comment line per note.
	text := got.Text()
	notes := text[strings.LastIndex(text, f0(got))+len(f0(got)):]
	for _, line := range strings.Split(strings.TrimSuffix(notes, "\n"), "\n") {
		if line != "" && !strings.HasPrefix(line, "# note: ") {
			t.Errorf("note line %q", line)
		}
	}
	for _, note := range got.Notes {
		if catalog.Printable(note) != note {
			t.Errorf("note %q is not printable", note)
		}
	}
	return true
}

// f0 is the last file's text as Text writes it.
func f0(l launch.Launch) string {
	t := l.Files[len(l.Files)-1].Text
	if !strings.HasSuffix(t, "\n") {
		t += "\n"
	}
	return t
}

// checkMessage: an error is one printable line.
func checkMessage(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); catalog.Printable(msg) != msg {
		t.Errorf("error %q is not one printable line", msg)
	}
}

// shWord is one word of a shell line: its raw text, its value once the
// quotes are removed, and the characters a shell would act on that stand
// outside any quotes.
type shWord struct {
	raw, value, unquoted string
}

// shLine is one logical line: a comment, or a command's words.
type shLine struct {
	comment string
	isCmt   bool
	words   []shWord
}

// shellSplit reads the sh subset launch writes: comment lines, words
// separated by blanks, single quotes, backslash escapes, backslash-newline
// continuations. Characters special to a shell outside quotes are kept in
// the word's unquoted set.
func shellSplit(text string) []shLine {
	var lines []shLine
	var cur shLine
	var w shWord
	inWord := false
	endWord := func() {
		if inWord {
			cur.words = append(cur.words, w)
		}
		w, inWord = shWord{}, false
	}
	endLine := func() {
		endWord()
		lines = append(lines, cur)
		cur = shLine{}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '#' && !inWord && len(cur.words) == 0 && !cur.isCmt:
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			cur.isCmt, cur.comment = true, text[i:i+j]
			i += j - 1
		case c == '\n':
			endLine()
		case c == ' ' || c == '\t':
			endWord()
		case c == '\\' && i+1 < len(text) && text[i+1] == '\n':
			endWord()
			i++
		case c == '\\' && i+1 < len(text):
			inWord = true
			w.raw += text[i : i+2]
			w.value += text[i+1 : i+2]
			i++
		case c == '\'':
			inWord = true
			j := strings.IndexByte(text[i+1:], '\'')
			if j < 0 {
				w.unquoted += "'"
				w.raw += text[i:]
				i = len(text)
				continue
			}
			w.raw += text[i : i+j+2]
			w.value += text[i+1 : i+1+j]
			i += j + 1
		default:
			inWord = true
			if strings.IndexByte("$`\"{}*?[]~();|<>&!=#", c) >= 0 {
				w.unquoted += string(c)
			}
			w.raw += string(c)
			w.value += string(c)
		}
	}
	if inWord || len(cur.words) > 0 || cur.isCmt {
		endLine()
	}
	return lines
}

var (
	shOnce  sync.Once
	shPaths []string
)

// shells are the shells found of sh and bash: the scripts start with
// #!/bin/sh, and people run them with bash too, as SkyPilot runs a
// task's setup and run.
func shells() []string {
	shOnce.Do(func() {
		for _, sh := range []string{"sh", "bash"} {
			if p, err := exec.LookPath(sh); err == nil {
				shPaths = append(shPaths, p)
			}
		}
	})
	return shPaths
}

// shellParses runs sh -n and bash -n on text; it says nothing where
// neither is found.
func shellParses(t *testing.T, where, text string) {
	t.Helper()
	for _, sh := range shells() {
		cmd := exec.Command(sh, "-n")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %s -n: %v: %s\n%s", where, sh, err, out, text)
		}
	}
}

// sameShell checks a hostile shell text against the benign one: it
// parses; it has as many lines, each a comment where the benign one is
// and otherwise the same words, except the model reference, which is one
// word quoted to a value in models.
func sameShell(t *testing.T, where, got, want string, models []string) {
	t.Helper()
	shellParses(t, where, got)
	g, w := shellSplit(got), shellSplit(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d lines, want %d:\n%s", where, len(g), len(w), got)
	}
	for i := range g {
		if g[i].isCmt != w[i].isCmt {
			t.Fatalf("%s: line %d is a comment: %v, want %v:\n%s", where, i+1, g[i].isCmt, w[i].isCmt, got)
		}
		if g[i].isCmt {
			if catalog.Printable(g[i].comment) != g[i].comment {
				t.Errorf("%s: comment %q is not printable", where, g[i].comment)
			}
			continue
		}
		if len(g[i].words) != len(w[i].words) {
			t.Fatalf("%s: line %d has %d words, want %d:\n%s", where, i+1, len(g[i].words), len(w[i].words), got)
		}
		for j, gw := range g[i].words {
			ww := w[i].words[j]
			if gw.raw == ww.raw {
				continue
			}
			if ww.value != benignModel {
				t.Fatalf("%s: line %d word %d %q, want %q", where, i+1, j+1, gw.raw, ww.raw)
			}
			if gw.unquoted != "" || !slices.Contains(models, gw.value) {
				t.Fatalf("%s: model word %q (unquoted %q, value %q), want one of %q", where, gw.raw, gw.unquoted, gw.value, models)
			}
		}
	}
}

// yamlValue is what a double-quoted YAML string of quoteString reads back
// as: s with invalid UTF-8 and unprintable runes beyond the BMP as U+FFFD.
func yamlValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r > 0xFFFF && !unicode.IsPrint(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

var yamlKeyLine = regexp.MustCompile(`^( *)([a-z_][a-z0-9_]*):`)

// sameYAML checks a hostile task YAML against the benign one: only YAML's
// printable characters; the same lines, each a comment, a key or block
// text where the benign one is, with the same indentation and key; the
// same keys once parsed, the same values except the names, which read
// back as given; run and setup the same shell text (sameShell).
func sameYAML(t *testing.T, where, got, want string, n names) {
	t.Helper()
	for _, r := range got {
		if r != '\n' && !unicode.IsPrint(r) && r != ' ' {
			t.Fatalf("%s: %q is not a YAML printable character:\n%s", where, r, got)
		}
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		t.Fatalf("%s: %d lines, want %d:\n%s", where, len(gl), len(wl), got)
	}
	for i := range gl {
		g, w := gl[i], wl[i]
		gi, wi := len(g)-len(strings.TrimLeft(g, " ")), len(w)-len(strings.TrimLeft(w, " "))
		if gi != wi || strings.HasPrefix(g[gi:], "#") != strings.HasPrefix(w[wi:], "#") {
			t.Fatalf("%s: line %d %q, want the shape of %q", where, i+1, g, w)
		}
		gk, wk := yamlKeyLine.FindString(g), yamlKeyLine.FindString(w)
		if gk != wk {
			t.Fatalf("%s: line %d key %q, want %q", where, i+1, gk, wk)
		}
		// A double-quoted scalar uses only the escapes JSON and YAML
		// share, so both read the same string.
		if v := strings.TrimSpace(strings.TrimPrefix(g, gk)); gk != "" && strings.HasPrefix(v, `"`) {
			var js string
			uq, err := strconv.Unquote(v)
			if json.Unmarshal([]byte(v), &js) != nil || err != nil || js != uq {
				t.Fatalf("%s: line %d: %s is not a JSON string", where, i+1, v)
			}
		}
	}
	gd, wd := leaves(parseYAML(t, got), "", map[string]any{}), leaves(parseYAML(t, want), "", map[string]any{})
	if len(gd) != len(wd) {
		t.Fatalf("%s: keys %v, want %v", where, keys(gd), keys(wd))
	}
	for k, wv := range wd {
		gv, ok := gd[k]
		if !ok {
			t.Fatalf("%s: no %s; keys %v", where, k, keys(gd))
		}
		switch k {
		case "run", "setup":
			sameShell(t, where+" "+k, gv.(string), wv.(string), modelValues(n))
		case "resources.region":
			if gv != yamlValue(n.region) {
				t.Errorf("%s: region %q, want %q", where, gv, n.region)
			}
		case "resources.instance_type":
			if gv != yamlValue(n.instance) {
				t.Errorf("%s: instance_type %q, want %q", where, gv, n.instance)
			}
		case "name":
			if s, _ := gv.(string); !regexp.MustCompile(`^rightsize(-[a-z0-9-]*)?$`).MatchString(s) {
				t.Errorf("%s: name %q", where, s)
			}
		default:
			if _, isMap := wv.(map[string]any); !isMap && gv != wv {
				t.Errorf("%s: %s = %v, want %v", where, k, gv, wv)
			}
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func seed(f *testing.F) {
	for i, s := range hostile {
		next := hostile[(i+1)%len(hostile)]
		f.Add(s, s, s, next, uint8(i))
		f.Add(benignProvider, s, benignRegion, "", uint8(i))
		f.Add(benignProvider, benignInstance, s, benignModel, uint8(i))
		f.Add(benignProvider, benignInstance, benignRegion, s, uint8(i))
	}
}

// FuzzServeScript: serve.sh of every engine, whatever the names.
func FuzzServeScript(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, provider, instance, region, model string, pick uint8) {
		scenarios(t)
		s := serveCases[int(pick)%len(serveCases)]
		checkEmitted(t, s, names{provider: provider, instance: instance, region: region, model: model, nameOrPath: instance})
	})
}

// FuzzDisaggScript: the disaggregated launch of every serving engine
// (SGLang PD, vLLM's NixlConnector, TensorRT-LLM's disaggregated
// serving), behind the engine's router and behind NVIDIA Dynamo's
// frontend: its prefill, decode and router scripts and options files,
// whatever the names.
func FuzzDisaggScript(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, provider, instance, region, model string, pick uint8) {
		scenarios(t)
		s := disaggCases[int(pick)%len(disaggCases)]
		checkEmitted(t, s, names{provider: provider, instance: instance, region: region, model: model, nameOrPath: instance})
	})
}

// FuzzTrainScript: launch.sh (and its config) of DeepSpeed and FSDP,
// whatever the names.
func FuzzTrainScript(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, provider, instance, region, model string, pick uint8) {
		scenarios(t)
		s := trainCases[int(pick)%len(trainCases)]
		checkEmitted(t, s, names{provider: provider, instance: instance, region: region, model: model, nameOrPath: region})
	})
}

// FuzzSkyPilotYAML: task.yaml for serving and training, whatever the
// names; a provider SkyPilot does not know, or a GPU it has no name for,
// is refused in one printable line.
func FuzzSkyPilotYAML(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, provider, instance, region, model string, pick uint8) {
		scenarios(t)
		s := skies[int(pick)%len(skies)]
		n := names{provider: provider, instance: instance, region: region, model: model, nameOrPath: provider}
		if _, err := emit(s, n); err != nil {
			checkMessage(t, err)
		}
		for _, cloud := range []string{"aws", "runpod"} {
			n.provider = cloud
			if cloud == "runpod" {
				n.gpu = provider // not a catalog GPU: refused, naming it
				if _, err := emit(s, n); err != nil {
					checkMessage(t, err)
					n.gpu = ""
				}
			}
			checkEmitted(t, s, n)
		}
	})
}
