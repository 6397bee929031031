package page

import (
	"slices"
	"strings"
	"testing"
)

// formFields are the fields the form shows, in every box.
func formFields(v *View) []Field {
	var out []Field
	for _, fs := range [][]FieldView{v.Form.Fields, v.Form.Overrides.Fields, v.Form.Filters.Fields, v.Form.Fleet} {
		for _, f := range fs {
			out = append(out, f.F)
		}
	}
	return out
}

// TestServingAndBatchFieldsApart: an inference job is served at a rate
// or run as a batch, and the form shows the fields of the one it is. The
// latency targets (read only at a rate) are not on a batch job's form;
// the batch's size and deadline are not on a served job's.
func TestServingAndBatchFieldsApart(t *testing.T) {
	for _, c := range []struct {
		frag     string
		shown    []Field
		notShown []Field
	}{
		{"", []Field{FieldRequests, FieldDeadline, FieldRPS}, []Field{FieldTTFT, FieldTPOT, FieldSLOStat}},
		{"e=vllm&req=2000000&dl=12", []Field{FieldRequests, FieldDeadline}, []Field{FieldTTFT, FieldTPOT, FieldSLOStat}},
		{"e=vllm&rps=10", []Field{FieldTTFT, FieldTPOT, FieldSLOStat, FieldRPS}, []Field{FieldRequests, FieldDeadline}},
		{"lc=2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3", []Field{FieldTTFT, FieldTPOT}, []Field{FieldRequests, FieldDeadline}},
		{"t=lora", []Field{FieldDeadline}, []Field{FieldTTFT, FieldTPOT, FieldSLOStat, FieldRequests, FieldRPS}},
	} {
		v, _ := viewOf(t, c.frag, nil)
		got := formFields(&v)
		for _, f := range c.shown {
			if !slices.Contains(got, f) {
				t.Errorf("%q: no %s on the form", c.frag, FieldNames[f])
			}
		}
		for _, f := range c.notShown {
			if slices.Contains(got, f) {
				t.Errorf("%q: %s on the form, where it changes nothing", c.frag, FieldNames[f])
			}
		}
	}
	// A rate with an empty batch size is a served job, not a bad batch.
	if _, _, d := pageOf(t, "rps=5&req=", nil); !d.Errs[FieldRequests].OK() || !d.R.OK {
		t.Errorf("rps=5 with no batch size: %+v", d.Errs[FieldRequests])
	}
}

// TestTrainingHasNoInferenceSections: the daily fleet and the benchmark
// price serving only; on a training job they are left out, not shown as
// titles that open on nothing. On inference both are there.
func TestTrainingHasNoInferenceSections(t *testing.T) {
	for _, frag := range []string{"t=lora", "t=qlora&m=llama-3.1-70b", "t=train&n=8"} {
		v, _ := viewOf(t, frag, nil)
		for _, sec := range []Section{SecFleet, SecBench} {
			if v.Shows(sec) {
				t.Errorf("%s: the %s section is on a training job's page", frag, SectionKeys[sec])
			}
		}
		if !v.Shows(SecFit) || !v.Shows(SecLaunch) {
			t.Errorf("%s: fit %v, launch %v", frag, v.Shows(SecFit), v.Shows(SecLaunch))
		}
	}
	v, _ := viewOf(t, "e=vllm&rps=10", nil)
	for _, sec := range []Section{SecFleet, SecBench, SecFit, SecRules} {
		if !v.Shows(sec) {
			t.Errorf("serving: no %s section", SectionKeys[sec])
		}
	}
}

// TestTrainingHasNoKVFact: only inference keeps a KV cache; a training
// job's facts do not list its size per token.
func TestTrainingHasNoKVFact(t *testing.T) {
	kv := Tr("en", MsgKVPerToken)
	has := func(frag string) bool {
		v, _ := viewOf(t, frag, nil)
		for _, f := range v.Result.Facts {
			if f.Label == kv {
				return f.Value != ""
			}
		}
		return false
	}
	if !has("") {
		t.Error("inference: no KV cache per token")
	}
	for _, frag := range []string{"t=lora", "t=finetune", "t=train"} {
		if has(frag) {
			t.Errorf("%s: KV cache per token on a training job", frag)
		}
	}
}

// TestPartShareNeverZero: a part that takes memory never reads "0.0%".
func TestPartShareNeverZero(t *testing.T) {
	for _, c := range []struct {
		lang string
		f    float64
		want string
	}{
		{"en", 0.435, "43.5%"}, {"en", 0.0004, "< 0.1%"}, {"ru", 0.0004, "< 0,1%"}, {"en", 0.0005, "0.1%"}, {"en", 0, "0.0%"}, {"en", 1, "100.0%"},
	} {
		if got := (Locale{Lang: c.lang}).PartShare(c.f); got != c.want {
			t.Errorf("%s %g: %q, want %q", c.lang, c.f, got, c.want)
		}
	}
	// Llama 3.1 405B fully fine-tuned on one L4: the CUDA context is
	// 0.49 GiB of 7,032 GiB.
	v, _ := viewOf(t, "m=llama-3.1-405b&t=finetune&g=l4", nil)
	for _, p := range v.Result.Breakdown.Parts {
		if strings.HasPrefix(p.Share, "0.0") && p.Value != "0.00 GiB" {
			t.Errorf("%s: %s reads %s", p.Name, p.Value, p.Share)
		}
	}
}

// TestNoPerfSaysWhy: with no speed for the job as set, the page says the
// one reason that holds: the job does not fit the GPUs, or (it fits)
// the catalog lacks the GPU's figures. Never both as "or".
func TestNoPerfSaysWhy(t *testing.T) {
	v, _ := viewOf(t, "t=lora&g=rtx-4090", nil)
	if !v.Perf.NoPerf || !v.Perf.NoFit {
		t.Fatalf("LoRA 8B on a 4090 (does not fit): %+v", v.Perf)
	}
	n := PerfNode("en", &v.Perf)
	got, ok := find(n, byID("rs-no-perf"))
	if !ok || got.Text != "No speed estimate on the GPUs as set: the job does not fit them." {
		t.Errorf("no-fit reason: %q", got.Text)
	}
	v, _ = viewOf(t, "", nil)
	if v.Perf.NoPerf || v.Perf.NoFit {
		t.Errorf("the default job has a speed: %+v", v.Perf)
	}
	if Tr("en", MsgNoPerf) == Tr("en", MsgNoPerfNoFit) || strings.Contains(Tr("en", MsgNoPerf), "fit") {
		t.Errorf("the two reasons: %q, %q", Tr("en", MsgNoPerf), Tr("en", MsgNoPerfNoFit))
	}
}

// TestEveryBadFieldAtOnce: two bad fields are marked together, one that
// does not read and one out of range, so a user fixes both in one look.
func TestEveryBadFieldAtOnce(t *testing.T) {
	for _, c := range []struct {
		frag       string
		batch, seq MsgKey
	}{
		{"b=abc&s=-5", MsgNotNumber, MsgRange},
		{"b=0&s=abc", MsgRange, MsgNotNumber},
		{"b=abc&s=xyz", MsgNotNumber, MsgNotNumber},
	} {
		_, _, d := pageOf(t, c.frag, nil)
		if d.R.OK || d.Errs[FieldBatch].Key != c.batch || d.Errs[FieldSeq].Key != c.seq {
			t.Errorf("%s: ok %v, batch %+v, seq %+v", c.frag, d.R.OK, d.Errs[FieldBatch], d.Errs[FieldSeq])
		}
		if len(d.General) > 0 {
			t.Errorf("%s: general problems %+v beside the fields' own", c.frag, d.General)
		}
	}
	// One bad field alone: only it is marked.
	_, _, d := pageOf(t, "b=abc", nil)
	for f, e := range d.Errs {
		if !e.OK() && Field(f) != FieldBatch {
			t.Errorf("b=abc: %s marked too: %+v", FieldNames[f], e)
		}
	}
}

// TestEngineOwnLabels: the CUDA-graph switch names the chosen engine's
// own flag only, and a MoE model's active parameters read like its
// parameters (a capitalised label, the count in billions).
func TestEngineOwnLabels(t *testing.T) {
	for _, c := range []struct{ frag, want string }{
		{"e=vllm&rps=5", "No CUDA graphs (vLLM --enforce-eager)"},
		{"e=sglang&rps=5", "No CUDA graphs (SGLang --disable-cuda-graph)"},
		{"e=trtllm&rps=5", "No CUDA graphs (TensorRT-LLM cuda_graph_config: null)"},
	} {
		v, _ := viewOf(t, c.frag, nil)
		found := false
		for _, f := range append(v.Form.Fields, v.Form.Overrides.Fields...) {
			if f.F == FieldEager {
				found = true
				if f.Label != c.want {
					t.Errorf("%s: %q, want %q", c.frag, f.Label, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no CUDA-graph switch", c.frag)
		}
	}
	v, _ := viewOf(t, "m=mixtral-8x7b", nil)
	for _, f := range v.Result.Facts {
		if f.Label == Tr("en", MsgActive) {
			if !strings.HasSuffix(f.Value, "B)") {
				t.Errorf("active parameters %q: no count in billions", f.Value)
			}
			return
		}
	}
	t.Errorf("Mixtral: no active-parameter fact among %+v", v.Result.Facts)
}

// TestMoneyRoundsLargeSums: a cost of tens of thousands drops its cents
// (an estimate's band is wider than a cent); smaller sums keep them.
func TestMoneyRoundsLargeSums(t *testing.T) {
	for _, c := range []struct {
		lang string
		v    float64
		want string
	}{
		{"en", 251120, "$251,120"}, {"en", 9999.5, "$9,999.50"}, {"en", 56.36, "$56.36"}, {"en", 0.042, "$0.042"},
		{"ru", 30660, "30\u00a0660\u00a0$"}, {"zh", 102345.67, "$102,346"},
	} {
		if got := (Locale{Lang: c.lang}).Money(c.v, "USD"); got != c.want {
			t.Errorf("%s %g: %q, want %q", c.lang, c.v, got, c.want)
		}
	}
}

// TestAMDNamesItsTool: on an AMD GPU the units and the breakdown's
// "how to verify" name amd-smi, not nvidia-smi; NVIDIA's keep theirs.
func TestAMDNamesItsTool(t *testing.T) {
	for _, c := range []struct{ frag, tool, not string }{
		{"g=mi300x&e=vllm&rps=10", "amd-smi", "nvidia-smi"},
		{"", "nvidia-smi", "amd-smi"},
	} {
		v, in := viewOf(t, c.frag, nil)
		opts := in.FieldOptions(FieldUnits)
		if len(opts) == 0 || !strings.Contains(opts[0].Label, c.tool) {
			t.Errorf("%q: units %+v, want %s", c.frag, opts, c.tool)
		}
		if b := v.Result.Breakdown.Verify; !strings.Contains(b, c.tool) || strings.Contains(b, c.not) {
			t.Errorf("%q: verify %q, want %s", c.frag, b, c.tool)
		}
	}
}

// TestStaleNoteTellsTheTruth: a page opened with bad input has no last
// answer to keep, and its note does not claim one; a page with a last
// plan says it keeps it.
func TestStaleNoteTellsTheTruth(t *testing.T) {
	v, _, _ := pageOf(t, "b=abc&s=-5", nil)
	if v.Answer.Kind != AnswerStale || !strings.HasPrefix(v.Answer.Note, "No answer yet: fix the fields marked in red: “Batch size”, “Sequence length (tokens)”") {
		t.Errorf("fresh bad link: %v %q", v.Answer.Kind, v.Answer.Note)
	}
	_, good, _ := pageOf(t, "", nil)
	v, _, _ = pageOf(t, "b=abc", func(in *ViewIn) { in.Plan = good.Plan })
	if v.Answer.Kind != AnswerStalePicks || !strings.HasPrefix(v.Answer.Note, "The last answer") {
		t.Errorf("bad edit after a plan: %v %q", v.Answer.Kind, v.Answer.Note)
	}
}

// TestJobLineRepeatsWholeNumbers: the job line says a typed rate or
// epoch count as typed, "100 requests/s", not "100.0".
func TestJobLineRepeatsWholeNumbers(t *testing.T) {
	for _, c := range []struct{ frag, want, not string }{
		{"e=vllm&rps=100", "100 requests/s", "100.0"},
		{"e=vllm&rps=2.5", "2.50 requests/s", ""},
		{"t=lora&ds=10M&ep=2", "2 epochs", "2.00"},
	} {
		v, _ := viewOf(t, c.frag, nil)
		var line strings.Builder
		for _, p := range v.Job.Parts {
			line.WriteString(p.Text)
		}
		if !strings.Contains(line.String(), c.want) || c.not != "" && strings.Contains(line.String(), c.not) {
			t.Errorf("%s: %q, want %q", c.frag, line.String(), c.want)
		}
	}
}
