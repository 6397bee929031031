package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
)

// cliFlags is every flag of rightsize plan (estimate's, plan's, the
// fleet's, the price sheet's, the launch script's) and of simulate.
func cliFlags(t *testing.T) []*flag.FlagSet {
	t.Helper()
	pc := &planCmd{stderr: io.Discard}
	if code := estimateCommand("plan", []string{"--help"}, io.Discard, io.Discard, pc); code != 0 || pc.fs == nil {
		t.Fatalf("plan --help: exit %d", code)
	}
	sc := &simulateCmd{}
	if code := estimateCommand("simulate", []string{"--help"}, io.Discard, io.Discard, sc); code != 0 || sc.fs == nil {
		t.Fatalf("simulate --help: exit %d", code)
	}
	return []*flag.FlagSet{pc.fs, sc.fs}
}

// TestDoorsShareJobFields holds the command line and the page to one
// table of the job fields (jobspec.Fields): each field is a CLI flag with
// the table's default and type, and a page field of the same name with
// the table's link key and default (but the page's sample job). A page
// field named like a CLI flag is in the table, or listed here with why
// not, so a new field cannot take a second default at either door.
func TestDoorsShareJobFields(t *testing.T) {
	fss := cliFlags(t)
	lookup := func(name string) *flag.Flag {
		for _, fs := range fss {
			if f := fs.Lookup(name); f != nil {
				return f
			}
		}
		return nil
	}
	pageField := map[string]page.Field{}
	for f, n := range page.FieldNames {
		pageField[n] = page.Field(f)
	}
	// Job fields the one parser reads that the page does not show: their
	// link keys are reserved, and the page reads their defaults.
	pageHides := map[string]string{
		"compile":   "HF transformers' torch.compile: the page's engines are HF eager and the serving engines",
		"pure-bf16": "reached on the page through the precision's Lightning names (bf16-true, 16-true)",
		// LitGPT's own ways, which the page takes with a Lightning
		// precision name (page.litgptDefaults).
		"lora-fused-qkv":   "LitGPT's fused qkv adapter: the page's Lightning precision names",
		"quantize-head":    "Lightning's 4-bit LM head: the page's Lightning precision names",
		"keeps-last-graph": "LitGPT's fit loop's held graph: the page's Lightning precision names",
		"litgpt-attention": "LitGPT's attention's saved K and V: the page's Lightning precision names",
		"fsdp-fp32-gather": "Lightning's FSDP over fp32 weights under autocast: the page's Lightning precision names (bf16-mixed, 16-mixed)",
		"loss-chunks":      "LitGPT's 128-token loss chunks: the page's Lightning precision names",
		"optimizer-impl":   "LitGPT's foreach AdamW: the page's Lightning precision names",
		"fsdp-no-sync":     "FSDP's no_sync accumulation: the page takes the stacks' default (estimator.FSDPNoSyncDefault)",
		"fsdp2":            "FSDP2 in place of FSDP1: the page plans FSDP1, the stack its launch writes",
	}
	keys := map[string]string{}
	for j, s := range jobspec.Fields {
		if s.Flag == "" || s.Key == "" {
			t.Errorf("field %d: flag %q, key %q", j, s.Flag, s.Key)
			continue
		}
		if other, dup := keys[s.Key]; dup {
			t.Errorf("link key %q is both --%s's and --%s's", s.Key, other, s.Flag)
		}
		keys[s.Key] = s.Flag
		cf := lookup(s.Flag)
		if cf == nil {
			t.Errorf("--%s: in jobspec.Fields, not a flag of rightsize plan or simulate", s.Flag)
		} else {
			if cf.DefValue != s.CLIDefault() {
				t.Errorf("--%s: default %q on the command line, %q in jobspec.Fields", s.Flag, cf.DefValue, s.CLIDefault())
			}
			var kind jobspec.Kind
			switch cf.Value.(flag.Getter).Get().(type) {
			case int:
				kind = jobspec.Int
			case float64:
				kind = jobspec.Float
			case bool:
				kind = jobspec.Bool
			}
			if kind != s.Kind {
				t.Errorf("--%s: a %T flag, kind %d in jobspec.Fields", s.Flag, cf.Value.(flag.Getter).Get(), s.Kind)
			}
		}
		pf, ok := pageField[s.Flag]
		if _, hidden := pageHides[s.Flag]; hidden {
			if ok {
				t.Errorf("--%s: listed as not on the page, but the page has it", s.Flag)
			}
			continue
		}
		if !ok {
			t.Errorf("--%s: no page field of that name (page.FieldNames): its link key %q reads nothing", s.Flag, s.Key)
			continue
		}
		if page.FieldKeys[pf] != s.Key {
			t.Errorf("%s: link key %q on the page, %q in jobspec.Fields", s.Flag, page.FieldKeys[pf], s.Key)
		}
		// An unset field's page default is empty: not given, the job's
		// own default, as the flag not given (page.UnsetFields).
		if d := page.DefaultState[pf]; d != s.Default && !slices.Contains(page.SampleFields, pf) && !(slices.Contains(page.UnsetFields, pf) && d == "") {
			t.Errorf("%s: default %q on the page, %q in jobspec.Fields", s.Flag, d, s.Default)
		}
	}
	// Page fields named like a CLI flag whose text means something else
	// at each door, or whose "not set" is written differently.
	apart := map[string]string{
		"calibration": "a file on the command line, the calibration's text in the link",
		"emit":        "a launch script's dialect and file on the command line, the page's launch tab",
		"emit-router": `"engine" on the command line, "" on the page: the engine's own`,
	}
	for _, n := range page.FieldNames {
		if _, shared := jobspec.ByFlag(n); shared || lookup(n) == nil {
			continue
		}
		if _, ok := apart[n]; !ok {
			t.Errorf("--%s is a CLI flag and a page field outside jobspec.Fields: add it to the table (one default, one key)", n)
		}
	}
	// Every link key, the page's own and the table's, reads one field.
	seen := map[string]string{}
	for f, k := range page.FieldKeys {
		if other, dup := seen[k]; dup || k == "" {
			t.Errorf("link key %q: fields %s and %s", k, other, page.FieldNames[f])
		}
		seen[k] = page.FieldNames[f]
	}
	for n := range apart {
		if _, shared := jobspec.ByFlag(n); shared || lookup(n) == nil || !slices.Contains(page.FieldNames[:], n) {
			t.Errorf("%s: listed as apart, but it is shared or not at both doors", n)
		}
	}
}

// TestPureBF16HelpSaysFP16: --pure-bf16 is pure 16-bit training in the
// weights' dtype, fp16 (Lightning's 16-true) as well as bf16; its help
// said the optimizer states were bf16 whatever the weights.
func TestPureBF16HelpSaysFP16(t *testing.T) {
	for _, fs := range cliFlags(t) {
		f := fs.Lookup("pure-bf16")
		if f == nil {
			continue
		}
		for _, want := range []string{"bf16 or fp16", "the weights' dtype", "16-true"} {
			if !strings.Contains(f.Usage, want) {
				t.Errorf("%s --pure-bf16: %q lacks %q", fs.Name(), f.Usage, want)
			}
		}
	}
}
