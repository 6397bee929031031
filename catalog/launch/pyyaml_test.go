package launch_test

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestYAMLReadsInPyYAML: every YAML file of the serving, training,
// SkyPilot and disaggregated scenarios, with hostile names (a newline and
// a key, an anchor and an alias, a flow mapping, a document marker, a
// comment, quotes, an RTL override, a zero-width space, a line separator, NEL, a byte-order mark, a NUL, 10 kB),
// reads in PyYAML, the parser SkyPilot loads task files with
// (yaml.safe_load), as the same document as in the subset parser the
// other tests use: same keys, same values, the names as given. Skipped
// where python3 with PyYAML is not installed.
func TestYAMLReadsInPyYAML(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil || exec.Command(python, "-c", "import yaml").Run() != nil {
		t.Skip("no python3 with PyYAML")
	}
	scenarios(t)
	values := []string{"x\nenvs:\n  A: b", "&a x", "*a", "{a: 1}", "--- x", "... x", "x # y", "'; rm -rf ~; '", `a"b\c`,
		"rtl\u202eevil", "zero\u200bwidth", "line\u2028sep", "nel\u0085x", "bom\ufeffx", "nul\x00x", "- item", "? k", "!!python/object/apply:os.system", strings.Repeat("A", 10240),
		"\u2066iso\u2069", "a\u061cb", "${HOME}", "a\u00a0b", "\u3164", "'\u0301x", "m\u0435ta-llama/x"}
	var docs []string
	// given is each document's hostile name and the resources key it is
	// written under in a SkyPilot task ("" in another file).
	type name struct{ key, value string }
	var given []name
	for _, s := range slices.Concat(serveCases, trainCases, skies, disaggCases) {
		for _, v := range values {
			for key, n := range map[string]names{
				"instance_type": {provider: "aws", instance: v, region: "us-east-1", model: "org/model"},
				"region":        {provider: "aws", instance: "p5.48xlarge", region: v, model: "org/model"},
			} {
				l, err := emit(s, n)
				if err != nil {
					t.Fatalf("%s %q: %v", s.kind, v, err)
				}
				for _, f := range l.Files {
					if f.Format != "yaml" {
						continue
					}
					docs = append(docs, f.Text)
					if f.Name == "task.yaml" {
						given = append(given, name{key, v})
					} else {
						given = append(given, name{})
					}
				}
			}
		}
	}
	in, _ := json.Marshal(docs)
	cmd := exec.Command(python, "-c", "import sys, json, yaml\n"+
		"print(json.dumps([yaml.safe_load(d) for d in json.load(sys.stdin)]))")
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("PyYAML: %v", err)
	}
	var got []any
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(docs) {
		t.Fatalf("PyYAML read %d documents of %d: %v", len(got), len(docs), err)
	}
	for i, d := range docs {
		// The subset parser's document, through JSON as PyYAML's was.
		b, _ := json.Marshal(parseYAML(t, d))
		var want any
		json.Unmarshal(b, &want)
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("PyYAML reads\n%v\nthe subset parser\n%v\nfrom\n%s", got[i], want, d)
		}
		if g := given[i]; g.key != "" {
			res, _ := got[i].(map[string]any)["resources"].(map[string]any)
			if res[g.key] != g.value {
				t.Fatalf("PyYAML reads resources.%s %q, want %q:\n%s", g.key, res[g.key], g.value, d)
			}
		}
	}
	t.Logf("%d documents", len(docs))
}
