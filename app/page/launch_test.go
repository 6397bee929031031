package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
)

// TestCustomModelLaunch: the launch of the user's own config.json loads
// the Hugging Face repository the config names (_name_or_path), or a
// placeholder with a note saying to replace it; never "custom".
func TestCustomModelLaunch(t *testing.T) {
	cat := catalog.Default()
	m, _ := cat.Model("llama-3.1-8b")
	arch, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ nameOrPath, want, note string }{
		{"meta-llama/Llama-3.1-8B", "vllm serve meta-llama/Llama-3.1-8B \\\n", "the Hugging Face repository the config names"},
		{"/home/me/ckpt", "vllm serve '<your-checkpoint>' \\\n", "replace <your-checkpoint>"},
		{"", "vllm serve '<your-checkpoint>' \\\n", "replace <your-checkpoint>"},
	} {
		a := arch
		a.NameOrPath = c.nameOrPath
		j, _, _, ok := ParseJob(ParseFragment("m=custom&rps=5", DefaultState), cat, Archs{}, &a, "config.json")
		if !ok {
			t.Fatal("custom job does not parse")
		}
		pr := NewPrices(cat, nil)
		out := RunPlan(j, pr)
		l, _, err := LaunchOf(j, pr, &out, launch.VLLM)
		if err != nil {
			t.Fatal(err)
		}
		text := l.Text()
		if !strings.Contains(text, c.want) || !strings.Contains(text, "# note: ") || !strings.Contains(strings.Join(l.Notes, "\n"), c.note) ||
			strings.Contains(text, "serve custom") {
			t.Errorf("%q:\n%s\nwant %q and a note %q", c.nameOrPath, text, c.want, c.note)
		}
	}
}

// launchViewOf is the "Run it" box of a link's state, opened.
func launchViewOf(t *testing.T, frag string) (LaunchView, ViewIn) {
	t.Helper()
	pr := NewPrices(catalog.Default(), nil)
	s := ParseFragment(frag, DefaultState).WithOpen(SecLaunch, true)
	d := Derive(s, nil, pr, nil, "")
	in := ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs}
	if d.R.OK {
		in.Plan = RunPlan(d.Job, pr)
	}
	return BuildView(in).Launch, in
}

// TestLaunchView: the box writes the cheapest pick's launch as
// catalog/launch does for the same plan (what rightsize plan --emit
// prints), offers the launchers that fit the workload, says so next to
// the picker when the link names one that does not, and is not built
// while its section is folded.
func TestLaunchView(t *testing.T) {
	v, in := launchViewOf(t, "rps=5")
	want, p, err := LaunchOf(in.Job, in.Prices, &in.Plan, launch.VLLM)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Shown || v.Text != want.Text() || !strings.Contains(v.Text, "vllm serve") || !strings.Contains(v.For, p.Offer.InstanceType) {
		t.Errorf("box %+v, want %q", v, want.Text())
	}
	if text, ok := LaunchText(&in); !ok || text != v.Text {
		t.Errorf("the copied text differs from the box's")
	}
	for _, o := range v.Kind.Opts {
		if o.Value == "deepspeed" {
			t.Error("a training launcher offered for serving")
		}
	}
	if bad, _ := launchViewOf(t, "rps=5&run=deepspeed"); bad.Kind.Err != Tr("en", MsgUnknownChoice) {
		t.Errorf("deepspeed for serving: %+v", bad.Kind)
	}
	ft, in := launchViewOf(t, "t=finetune&n=8&z=3")
	if k, ok := LaunchKind(in.State, in.Job, &in.Plan); !ok || k != launch.DeepSpeed {
		t.Fatalf("training launcher %v %v", k, ok)
	}
	if !strings.Contains(ft.Text, "zero_optimization") && ft.Err != Tr("en", MsgLaunchModelParallel) {
		t.Errorf("fine-tune launch: %+v", ft)
	}
	// A fine-tune named by a Lightning precision is planned for LitGPT's
	// scripts: LitGPT is its one launcher, and a link naming another
	// says so next to the picker.
	lit, in := launchViewOf(t, "m=llama-3.2-1b&t=lora&p=bf16-true")
	if k, ok := LaunchKind(in.State, in.Job, &in.Plan); !ok || k != launch.LitGPT || len(lit.Kind.Opts) != 1 || lit.Kind.Opts[0].Value != "litgpt" {
		t.Errorf("Lightning-named fine-tune: launcher %v %v, choices %+v", k, ok, lit.Kind.Opts)
	}
	if !strings.Contains(lit.Text, "litgpt finetune_lora checkpoints/meta-llama/Llama-3.2-1B") {
		t.Errorf("Lightning-named fine-tune's launch: %+v", lit)
	}
	if bad, _ := launchViewOf(t, "m=llama-3.2-1b&t=lora&p=bf16-true&run=fsdp"); bad.Kind.Err != Tr("en", MsgUnknownChoice) || bad.Kind.Value != "litgpt" {
		t.Errorf("fsdp for a LitGPT plan: %+v", bad.Kind)
	}
	// The picks are laid out as LitGPT runs them (planner.Request.LitGPT):
	// a QLoRA pick is one GPU, which the launch writes.
	if v, _ := launchViewOf(t, "m=llama-3-8b&t=qlora&p=bf16-true"); !strings.Contains(v.Text, "--quantize bnb.nf4") || !strings.Contains(v.Text, "--devices 1 ") {
		t.Errorf("Lightning-named QLoRA: %+v", v)
	}
	if v, _ := launchViewOf(t, "m=llama-3.1-8b&t=finetune&p=bf16-true"); !strings.Contains(v.Text, "litgpt finetune_full") {
		t.Errorf("Lightning-named full fine-tune: %+v", v)
	}
	if _, _, err := LaunchOf(in.Job, in.Prices, &in.Plan, launch.FSDP); LaunchErrorKey(err) != MsgLaunchStack {
		t.Errorf("fsdp for a LitGPT plan: %v", err)
	}
	for _, k := range []MsgKey{MsgLaunchStack, MsgLaunchLitGPT, MsgLaunchLitGPTModel} {
		for _, lang := range []string{"en", "ru", "zh"} {
			if Tr(lang, k) == "" || lang != "en" && Tr(lang, k) == Tr("en", k) {
				t.Errorf("%s: message %d untranslated", lang, k)
			}
		}
	}
	_, in = viewOf(t, "rps=5", nil)
	if v := BuildView(in); v.Launch.Shown {
		t.Error("the folded box was built")
	}
}

// TestLaunchBoxDisaggregated: an SGLang serving plan at scale hands over
// its disaggregated alternative under the aggregated launch, the planner's
// verdict above it, and the copy action copies the same text; the vLLM
// and TensorRT-LLM launchers write it in their dialects, SkyPilot not.
func TestLaunchBoxDisaggregated(t *testing.T) {
	const job = "m=llama-3.1-70b&rps=20&ttft=2000&tpot=50&s=2500&out=500"
	l, in := launchViewOf(t, job+"&e=sglang")
	if in.Plan.Disagg == nil {
		t.Fatal("no disaggregated alternative")
	}
	if !strings.Contains(l.DisaggText, "# file: router.sh") || !strings.Contains(l.DisaggText, "--disaggregation-mode decode") || l.DisaggFor == "" {
		t.Errorf("disaggregated launch %q for %q", l.DisaggText, l.DisaggFor)
	}
	if text, file, ok := LaunchCopy(&in, true); !ok || text != l.DisaggText || file != "rightsize-launch-disaggregated.txt" {
		t.Errorf("the copy action copies %q as %s", text, file)
	}
	if text, _, ok := LaunchCopy(&in, false); !ok || text != l.Text {
		t.Errorf("the aggregated copy action copies %q", text)
	}
	// The launcher picked writes the alternative in its own dialect.
	for launcher, want := range map[string]string{"vllm": "NixlConnector", "trtllm": "trtllm-serve disaggregated"} {
		l, in = launchViewOf(t, job+"&e=sglang&run="+launcher)
		if in.Plan.Disagg == nil || !l.Shown || !strings.Contains(l.DisaggText, "# file: router.sh") || !strings.Contains(l.DisaggText, want) {
			t.Errorf("%s box: alternative %v, shown %v, disaggregated launch %q", launcher, in.Plan.Disagg != nil, l.Shown, l.DisaggText)
		}
	}
	// SkyPilot writes none: the box shows the aggregated launch alone.
	l, _ = launchViewOf(t, job+"&e=sglang&run=skypilot")
	if l.DisaggText != "" || len(l.Router.Opts) != 0 {
		t.Errorf("SkyPilot box: disaggregated launch %q, router picker %v", l.DisaggText, l.Router.Opts)
	}
	// The router picker: the engine's own by default, NVIDIA Dynamo's
	// frontend over Dynamo's workers when picked (and copied as shown),
	// an unknown one flagged and the engine's own written.
	l, _ = launchViewOf(t, job+"&e=sglang")
	if l.Router.F != FieldRouter || l.Router.Value != "engine" || len(l.Router.Opts) != 2 || l.Router.Opts[1].Value != "dynamo" || l.Router.Err != "" {
		t.Errorf("router picker %+v", l.Router)
	}
	l, in = launchViewOf(t, job+"&e=sglang&rt=dynamo")
	if l.Router.Value != "dynamo" || !strings.Contains(l.DisaggText, "exec python -m dynamo.frontend") || !strings.Contains(l.DisaggText, "python -m dynamo.sglang") ||
		strings.Contains(l.DisaggText, "sglang_router") {
		t.Errorf("Dynamo box: router %q, launch %q", l.Router.Value, l.DisaggText)
	}
	if text, _, ok := LaunchCopy(&in, true); !ok || text != l.DisaggText {
		t.Errorf("the copy action copies %q", text)
	}
	l, _ = launchViewOf(t, job+"&e=sglang&rt=nginx")
	if l.Router.Err == "" || !strings.Contains(l.DisaggText, "sglang_router") {
		t.Errorf("unknown router: picker %+v, launch %q", l.Router, l.DisaggText)
	}
}

// TestLaunchErrorMessages: a launch's refusal is said in the page's
// language, not as the launch's English sentence: SkyPilot's of a serving
// plan whose instances run engine copies on ports of their own, a parallel
// layout the engine cannot start (SGLang's attention DP for Mixtral,
// DeepEP on Ampere), and a pure 16-bit plan DeepSpeed would not run as
// priced (an fp32 copy, or an offloaded optimizer it refuses).
func TestLaunchErrorMessages(t *testing.T) {
	for _, c := range []struct {
		kind launch.Kind
		key  string
		want MsgKey
		word string // in every language
	}{
		{launch.SkyPilot, launch.ErrSkyServePorts, MsgLaunchSkyServePorts, "SkyServe"},
		{launch.SGLang, launch.ErrLayoutUnsupported, MsgLaunchLayout, ""},
		{launch.DeepSpeed, launch.ErrPrecision, MsgLaunchPrecision, "DeepSpeed"},
	} {
		err := &launch.Error{Kind: c.kind, Key: c.key, Reason: "the launch's own sentence"}
		if k := LaunchErrorKey(err); k != c.want {
			t.Fatalf("%s: key %v, want %v", c.key, k, c.want)
		}
		seen := map[string]bool{}
		for _, lang := range []string{"en", "ru", "zh"} {
			m := Tr(lang, c.want)
			if m == "" || seen[m] || !strings.Contains(m, c.word) {
				t.Errorf("%s, %s: %q", c.key, lang, m)
			}
			seen[m] = true
		}
	}
}
