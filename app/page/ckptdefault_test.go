package page

import (
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
)

// viewOfState is the view of s, derived and planned as the page does.
func viewOfState(t *testing.T, s ViewState) (View, Derived) {
	t.Helper()
	pr := NewPrices(catalog.Default(), nil)
	d := Derive(s, nil, pr, nil, "")
	in := ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs}
	if d.R.OK {
		in.Plan = RunPlan(d.Job, pr)
	}
	return BuildView(in), d
}

// TestQLoRACheckpointingBoxShowsTheDefault: the page's checkpointing box
// is not given until the user ticks or unticks it (UnsetFields), and
// shows the value in effect: ticked for QLoRA, which its stacks run
// checkpointed (estimator.QLoRACheckpointingDefault), with a fact saying
// so in each language; unticked for LoRA and for a Lightning precision
// (LitGPT's lora.py). Unticked by the user, the link says gc=0 and the
// job runs without it. Llama 3.1 8B QLoRA on one A10G.
func TestQLoRACheckpointingBoxShowsTheDefault(t *testing.T) {
	const frag = "m=llama-3.1-8b&t=qlora&p=int4&g=a10g"
	s := ParseFragment(frag, DefaultState)
	if s[FieldCheckpointing] != "" || strings.Contains(s.Fragment(DefaultState), "gc=") {
		t.Fatalf("a link without gc: field %q, fragment %q", s[FieldCheckpointing], s.Fragment(DefaultState))
	}
	v, d := viewOfState(t, s)
	if box := formField(t, v.Form.Fields, FieldCheckpointing); box.Value != "1" || !d.Job.In.GradCheckpointing || !d.Job.CheckpointingDefault {
		t.Errorf("QLoRA: box %q, checkpointing %v (default %v); want ticked, on by default", box.Value, d.Job.In.GradCheckpointing, d.Job.CheckpointingDefault)
	}
	wants := map[string]string{"en": "QLoRA's default", "ru": "по умолчанию для QLoRA", "zh": "QLoRA 的默认设置"}
	for lang, want := range wants {
		sl := s
		sl[FieldLang] = lang
		v, _ := viewOfState(t, sl)
		if f := factOf(t, v.Result.Facts, "rs-ckpt-default"); !strings.Contains(f.Value, want) || !strings.Contains(f.Detail, "prepare_model_for_kbit_training") {
			t.Errorf("%s: fact %q: %q, want %q", lang, f.Value, f.Detail, want)
		}
	}
	// Unticked by the user: given, in the link, and off.
	off := s
	off[FieldCheckpointing] = "0"
	if fr := off.Fragment(DefaultState); !strings.Contains(fr, "gc=0") {
		t.Errorf("unticked: fragment %q lacks gc=0", fr)
	}
	v, d = viewOfState(t, ParseFragment(off.Fragment(DefaultState), DefaultState))
	if box := formField(t, v.Form.Fields, FieldCheckpointing); box.Value != "0" || d.Job.In.GradCheckpointing || d.Job.CheckpointingDefault ||
		slices.ContainsFunc(v.Result.Facts, func(f Fact) bool { return f.ID == "rs-ckpt-default" }) {
		t.Errorf("unticked: box %q, checkpointing %v (default %v)", box.Value, d.Job.In.GradCheckpointing, d.Job.CheckpointingDefault)
	}
	// The task changed on the page: the box follows the job's default.
	for task, p := range map[string]string{"lora": "bf16", "qlora": "bf16-true"} {
		o := s
		o[FieldTask], o[FieldPrecision] = task, p
		v, d := viewOfState(t, o)
		if box := formField(t, v.Form.Fields, FieldCheckpointing); box.Value != "0" || d.Job.In.GradCheckpointing || d.Job.CheckpointingDefault {
			t.Errorf("%s %s: box %q, checkpointing %v (default %v); want off", task, p, box.Value, d.Job.In.GradCheckpointing, d.Job.CheckpointingDefault)
		}
	}
}
