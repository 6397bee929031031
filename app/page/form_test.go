package page

import (
	"math"
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// formOf is the form of a link's state, derived (with its fields'
// problems) and planned as the page does.
func formOf(t *testing.T, frag string) (FormView, Derived) {
	t.Helper()
	pr := NewPrices(catalog.Default(), nil)
	s := ParseFragment(frag, DefaultState)
	d := Derive(s, nil, pr, nil, "")
	in := ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs}
	if d.R.OK {
		in.Plan = RunPlan(d.Job, pr)
	}
	return BuildView(in).Form, d
}

func formField(t *testing.T, fs []FieldView, f Field) FieldView {
	t.Helper()
	for _, v := range fs {
		if v.F == f {
			return v
		}
	}
	t.Fatalf("no field %s among %d", FieldNames[f], len(fs))
	return FieldView{}
}

func hasField(fs []FieldView, f Field) bool {
	for _, v := range fs {
		if v.F == f {
			return true
		}
	}
	return false
}

// The default form: the job's fields in order, each select with its
// choices and each text box with its keyboard hint; text-only shows only
// for a vision model and EP only for a mixture of experts.
func TestFormDefault(t *testing.T) {
	v, _ := formOf(t, "")
	first := []Field{FieldModel, FieldTask, FieldPrecision, FieldQuant, FieldBatch, FieldSeq, FieldGPU, FieldGPUs}
	for i, f := range first {
		if v.Fields[i].F != f {
			t.Errorf("field %d is %s, want %s", i, FieldNames[v.Fields[i].F], FieldNames[f])
		}
	}
	model := formField(t, v.Fields, FieldModel)
	if model.Kind != KindSelect || model.Label != "Model" || model.Value != DefaultState[FieldModel] || len(model.Opts) != len(catalog.Default().Models) {
		t.Errorf("model field %+v with %d choices", model.Label, len(model.Opts))
	}
	gpu := formField(t, v.Fields, FieldGPU)
	if o := gpu.Opts[0]; !strings.Contains(o.Label, " · ") || !strings.HasSuffix(o.Label, "GiB") {
		t.Errorf("GPU choice %+v lacks its memory", o)
	}
	if b := formField(t, v.Fields, FieldBatch); b.Kind != KindText || b.Mode != "numeric" || b.Value != "1" {
		t.Errorf("batch field %+v", b)
	}
	if r := formField(t, v.Fields, FieldRPS); r.Mode != "decimal" {
		t.Errorf("rate field's keyboard %q", r.Mode)
	}
	if hasField(v.Fields, FieldKernel) || hasField(v.Fields, FieldTextOnly) || hasField(v.Fields, FieldEP) {
		t.Error("the dense bf16 text model's form offers a kernel, text-only or EP")
	}
	if v.Language.F != FieldLang || len(v.Language.Opts) != len(Languages) {
		t.Errorf("language select %+v", v.Language)
	}
	moe, _ := formOf(t, "m=mixtral-8x7b")
	if !hasField(moe.Fields, FieldEP) {
		t.Error("the MoE model's form lacks EP")
	}
	if v.Overrides.Open || v.Filters.Open || v.Assumptions.Open || v.Overrides.Stub {
		t.Errorf("default boxes open %v %v %v, stub %v", v.Overrides.Open, v.Filters.Open, v.Assumptions.Open, v.Overrides.Stub)
	}
	// The overheads' placeholders are the estimate's own figures.
	if u := formField(t, v.Overrides.Fields, FieldCtx); u.Placeholder == "" || u.Mode != "" {
		t.Errorf("CUDA context field %+v", u)
	}
}

// A bad value gets its message next to its field, and a box holding one
// opens; the first screen renders the folded boxes as stubs.
func TestFormErrors(t *testing.T) {
	v, d := formOf(t, "b=abc")
	if d.Errs[FieldBatch].OK() {
		t.Fatal("batch abc accepted")
	}
	if b := formField(t, v.Fields, FieldBatch); b.Err == "" || b.Err != ErrText("en", d.Errs[FieldBatch]) || b.Value != "abc" {
		t.Errorf("batch field %+v", b)
	}
	ru, _ := formOf(t, "b=abc&l=ru")
	if b := formField(t, ru.Fields, FieldBatch); b.Err == formField(t, v.Fields, FieldBatch).Err {
		t.Errorf("the Russian page's message is the English one: %q", b.Err)
	}
	s := ParseFragment("", DefaultState)
	pr := NewPrices(catalog.Default(), nil)
	stub := BuildView(ViewIn{State: s, Prices: pr, FirstScreen: true}).Form
	if !stub.Overrides.Stub || len(stub.Overrides.Fields) != 0 || !stub.Assumptions.Stub || len(stub.Assumptions.Plan) != 0 {
		t.Errorf("first screen boxes: %+v", stub.Overrides)
	}
	typed := BuildView(ViewIn{State: s, Prices: pr, Typed: true}).Form
	if !typed.Overrides.Open || !typed.Assumptions.Open {
		t.Error("a box the user typed in closes")
	}
}

// The Assumptions box: each planner assumption with its default and that
// default's source, the dated exchange rates, and, for serving, the hosted
// APIs against the plan in the plan's currency.
func TestFormAssumptions(t *testing.T) {
	v, _ := formOf(t, "")
	a := v.Assumptions
	want := map[Field]string{FieldSpotRate: "0.20", FieldCkptWrite: "1000MiB", FieldRestart: "10m"}
	for f, ph := range want {
		x := formField(t, a.Plan, f)
		if x.Placeholder != ph || !strings.HasPrefix(x.Where, Tr("en", MsgDefaultIs)+" "+ph+" · ") {
			t.Errorf("%s: placeholder %q, source line %q", FieldNames[f], x.Placeholder, x.Where)
		}
	}
	if !strings.Contains(formField(t, a.Plan, FieldSpotRate).Where, "AWS Spot Advisor") || !strings.Contains(formField(t, a.Plan, FieldCkptWrite).Where, "gp3") {
		t.Errorf("sources: %q, %q", formField(t, a.Plan, FieldSpotRate).Where, formField(t, a.Plan, FieldCkptWrite).Where)
	}
	if mfu := formField(t, a.Fields, FieldInfMFU); mfu.Placeholder == "" || mfu.Mode != "decimal" {
		t.Errorf("inference MFU field %+v", mfu)
	}
	rates := catalog.Default().FXRates
	if len(a.FX.Rows) != len(rates) || len(rates) == 0 || a.FX.Rows[0].Currency != rates[0].Currency {
		t.Errorf("%d exchange rates shown of %d", len(a.FX.Rows), len(rates))
	}
	// Serving in euros at the user's API prices: the hosted table's months
	// are the plan's, converted once, in euros.
	sv, d := formOf(t, "rps=2&cur=EUR&api-in=0.2&api-out=0.6")
	h := sv.Assumptions.Hosted
	if !d.R.OK || len(h.Rows) != 1 {
		t.Fatalf("hosted rows %+v", h.Rows)
	}
	pr := NewPrices(catalog.Default(), nil)
	out := RunPlan(d.Job, pr)
	l := Locale{Lang: "en", Units: d.Job.Units}
	x := out.Hosted[0]
	if h.Rows[0].Monthly != l.Money(out.FromUSD(x.MonthlyCostUSD), "EUR") || !strings.HasPrefix(h.Rows[0].Monthly, "€") {
		t.Errorf("hosted month %q, want %q", h.Rows[0].Monthly, l.Money(out.FromUSD(x.MonthlyCostUSD), "EUR"))
	}
	if h.Rows[0].Source != "Your price" && h.Rows[0].Source != Tr("en", MsgYourPrice) {
		t.Errorf("user's API price sourced %q", h.Rows[0].Source)
	}
	if out.Kind != planner.Serving || h.Title == "" || h.Heads[0] == "" {
		t.Errorf("hosted table title %q", h.Title)
	}
}

// The daily-load box shows for inference only, with the planner's
// workload presets described in the page's language.
func TestFormFleet(t *testing.T) {
	v, _ := formOf(t, "l=ru")
	work := formField(t, v.Fleet, FieldWorkload)
	var labels []string
	for _, o := range work.Opts {
		labels = append(labels, o.Label)
	}
	all := strings.Join(labels, "\n")
	for _, want := range []string{"chat — диалоговый сервис", "inferencex-8k1k — фиксированная форма бенчмарка InferenceX 8k/1k"} {
		if !strings.Contains(all, want) {
			t.Errorf("the Russian workload picker lacks %q: %q", want, labels)
		}
	}
	if len(labels) != len(planner.Presets())+1 || strings.Contains(all, "conversation service") {
		t.Errorf("the Russian workload picker reads %q", labels)
	}
	if c := formField(t, v.Fleet, FieldCurve); !c.Wide || !c.Code || c.Mode != "decimal" {
		t.Errorf("curve field %+v", c)
	}
	if hasField(v.Fleet, FieldOwnPrice) {
		t.Error("owned-GPU price shown without a curve")
	}
	bad, d := formOf(t, "lc=1,2,3")
	if c := formField(t, bad.Fleet, FieldCurve); d.Errs[FieldCurve].Key != MsgBadCurve || c.Err != ErrText("en", d.Errs[FieldCurve]) {
		t.Errorf("bad curve: %+v", c)
	}
	train, _ := formOf(t, "t=finetune")
	if len(train.Fleet) != 0 || train.Bench.Shown {
		t.Error("training shows the daily-load or benchmark box")
	}
}

// A calibration from rightsize calibrate applies on the GPU and engine
// it was fitted for, and the box says which happened.
func TestFormBench(t *testing.T) {
	v, d := formOf(t, "e=vllm&g=h100-sxm&cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69")
	if !d.Job.CalApplied || math.Abs(d.Job.In.RequestSeconds-0.0236) > 1e-12 {
		t.Fatalf("calibration not applied: %+v", d.Job.Cal)
	}
	if _, plain := formOf(t, "e=vllm&g=h100-sxm"); plain.R.Perf.P.TimeToFirstToken == d.R.Perf.P.TimeToFirstToken || d.R.Perf.Eff.BandwidthUtil != 0.69 {
		t.Errorf("speed box unchanged by the calibration: TTFT %v, bandwidth share %v", d.R.Perf.P.TimeToFirstToken, d.R.Perf.Eff.BandwidthUtil)
	}
	if !v.Bench.Shown || !v.Bench.StatusOK || !strings.Contains(v.Bench.Status, "23.6") || v.Bench.Field.Value != "h100-sxm,vllm,23.6,0.79,0.69" {
		t.Errorf("applied: %+v", v.Bench)
	}
	// The link carries it; a user's own assumption wins over it.
	if frag := (Link{State: ParseFragment("cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69", DefaultState)}).Encode(DefaultState); !strings.Contains(frag, "cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69") {
		t.Errorf("link %q", frag)
	}
	if _, d := formOf(t, "e=vllm&g=h100-sxm&bw=0.5&cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69"); d.Job.Eff.BandwidthUtil != 0.5 || d.Job.Eff.InferenceMFU != 0.79 {
		t.Errorf("bandwidth share %v (want the field's 0.5), MFU %v", d.Job.Eff.BandwidthUtil, d.Job.Eff.InferenceMFU)
	}
	other, d := formOf(t, "e=vllm&g=h200-sxm&cal=h100-sxm%2Cvllm%2C23.6%2C0.79%2C0.69")
	if d.Job.CalApplied || other.Bench.StatusOK || !strings.Contains(other.Bench.Status, "h100-sxm") {
		t.Errorf("another GPU: %+v", other.Bench)
	}
	bad, d := formOf(t, "e=vllm&g=h100-sxm&cal=h100-sxm%2Cvllm%2Coops")
	if !d.R.OK || bad.Bench.Status != Tr("en", MsgBenchBad) {
		t.Errorf("bad calibration: %+v", bad.Bench)
	}
}

// TestJobLineParts: the job line's editable parts for each kind of job,
// in order, each with its editor's choices or keyboard hint.
func TestJobLineParts(t *testing.T) {
	for _, tc := range []struct {
		frag   string
		fields []Field
	}{
		{"", []Field{FieldModel, FieldTask, FieldRequests, FieldSeq, FieldGPUs, FieldGPU, FieldEngine, FieldBatch}},
		{"t=lora&tok=100M", []Field{FieldModel, FieldTask, FieldTrainTokens, FieldGPUs, FieldGPU, FieldBatch}},
		{"t=finetune&ds=1B&ep=2", []Field{FieldModel, FieldTask, FieldEpochs, FieldDataset, FieldGPUs, FieldGPU, FieldBatch}},
		{"m=mistral-7b-v0.3&rps=20", []Field{FieldModel, FieldTask, FieldRPS, FieldOutput, FieldGPUs, FieldGPU, FieldEngine, FieldBatch}},
	} {
		pr := NewPrices(catalog.Default(), nil)
		s := ParseFragment(tc.frag, DefaultState)
		d := Derive(s, nil, pr, nil, "")
		v := BuildView(ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs}).Job
		var got []Field
		for _, p := range v.Parts {
			if p.Editable() {
				got = append(got, p.F)
				if (p.Opts == nil) == (p.Mode == "") {
					t.Errorf("%q: part %s has choices %d and keyboard %q", tc.frag, FieldNames[p.F], len(p.Opts), p.Mode)
				}
			}
		}
		if !slices.Equal(got, tc.fields) {
			t.Errorf("%q: parts %v, want %v", tc.frag, got, tc.fields)
		}
	}
	// A bad value: the part shows the text as typed and the form's message.
	pr := NewPrices(catalog.Default(), nil)
	s := ParseFragment("s=lots", DefaultState)
	d := Derive(s, nil, pr, nil, "")
	for _, p := range BuildView(ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs}).Job.Parts {
		if p.F == FieldSeq && (p.Text != "lots" || p.Err != ErrText("en", d.Errs[FieldSeq])) {
			t.Errorf("bad sequence part %+v", p)
		}
	}
}

// TestAssumptionsReachThePlanner: the Assumptions box's values reach the
// planner (spot reclaims, checkpoint write rate, restart time), the spot
// plan's Young/Daly checkpoint interval is shown, bad values are refused
// next to their fields, and a hosted API's prices set the serving plan's
// comparison.
func TestAssumptionsReachThePlanner(t *testing.T) {
	v, in, d := pageOf(t, "t=finetune&n=8&z=3&pr=spot&spot=0.3&ckw=2GB&rst=15m", nil)
	a := PlanRequest(d.Job).Assumptions
	if a.SpotInterruptionsPerMonth != 0.3 || a.CheckpointWriteBytesPerSecond != 2e9 || a.RestartSeconds != 900 {
		t.Errorf("assumptions sent to the planner: %+v", a)
	}
	x, ok := in.Plan.Best(d.Job.GPU.ID)
	if !ok || x.CheckpointEvery <= 0 || x.SpotPerMonth != 0.3 {
		t.Fatalf("spot plan on H100: ok %v, checkpoint every %v s, %v reclaims/month", ok, x.CheckpointEvery, x.SpotPerMonth)
	}
	l := Locale{Lang: "en", Units: d.Job.Units}
	if !strings.Contains(v.Form.Assumptions.SpotNow, l.Duration(x.CheckpointEvery)) || !strings.Contains(v.Form.Assumptions.SpotNow, x.Offer.InstanceType) {
		t.Errorf("checkpoint interval line %q", v.Form.Assumptions.SpotNow)
	}
	for f, bad := range map[Field]string{FieldSpotRate: "1.5", FieldCkptWrite: "fast", FieldRestart: "soon"} {
		frag := FieldKeys[f] + "=" + bad
		v, _, d := pageOf(t, frag, nil)
		if d.Errs[f].OK() || formField(t, v.Form.Assumptions.Plan, f).Err == "" || !v.Form.Assumptions.Open {
			t.Errorf("%s accepted or not shown", frag)
		}
	}
	_, in, _ = pageOf(t, "rps=2&api-in=0.2&api-out=0.6", nil)
	if h := in.Plan.Hosted; len(h) != 1 || h[0].API.InputUSDPerMillion != 0.2 || h[0].API.OutputUSDPerMillion != 0.6 {
		t.Fatalf("hosted comparison at the user's prices: %+v", h)
	}
}

// TestFieldOptionsBuiltOnce: an input rebuilds no select field's choices
// (the same slice comes back, so the leaves' comparison is one pointer);
// another language or the user's own model gets its own list.
func TestFieldOptionsBuiltOnce(t *testing.T) {
	pr := NewPrices(DefaultCatalog(), nil)
	in := ViewIn{State: DefaultState, Prices: pr}
	a, b := in.FieldOptions(FieldGPU), in.FieldOptions(FieldGPU)
	if len(a) == 0 || &a[0] != &b[0] {
		t.Fatalf("the GPU list was built twice (%d options)", len(a))
	}
	if cap(a) != len(a) {
		t.Errorf("a shared list has room to append into: len %d, cap %d", len(a), cap(a))
	}
	ru := in
	ru.State[FieldLang] = "ru"
	tr := ru.FieldOptions(FieldTask)
	if en := in.FieldOptions(FieldTask); tr[0].Label == en[0].Label {
		t.Errorf("the Russian task list reuses the English one: %q", tr[0].Label)
	}
	own := in
	own.HasCustom, own.CustomName = true, "my-model"
	m := own.FieldOptions(FieldModel)
	if last := m[len(m)-1]; last.Value != CustomModelID || !strings.Contains(last.Label, "my-model") {
		t.Errorf("the model list with the user's model ends with %+v", last)
	}
	if n := len(in.FieldOptions(FieldModel)); n != len(m)-1 {
		t.Errorf("the catalog's model list has %d options, with the user's model %d", n, len(m))
	}
}

// The training attention kernel (estimator.AttnKernel, the CLI's
// --attention-kernel) is a select among the training settings, shown only
// for training tasks, with its stacks named under it; the link keeps it,
// hidden or not, and the job reads it only when it shows.
func TestFormAttentionKernel(t *testing.T) {
	if v, d := formOf(t, "ak=cudnn"); hasField(v.Fields, FieldAttnKernel) || d.Job.In.AttnKernel != estimator.AttnFA2 {
		t.Errorf("serving: the form offers the attention kernel, or the job reads it (%v)", d.Job.In.AttnKernel)
	}
	for _, task := range []string{"train", "finetune", "lora", "qlora"} {
		v, d := formOf(t, "t="+task+"&ak=cudnn&n=8")
		k := formField(t, v.Fields, FieldAttnKernel)
		if k.Kind != KindSelect || k.Value != "cudnn" || k.Label != "Attention kernel (training)" || k.Err != "" {
			t.Errorf("%s: field %+v", task, k)
		}
		if d.Job.In.AttnKernel != estimator.AttnCuDNN {
			t.Errorf("%s: the job runs %v", task, d.Job.In.AttnKernel)
		}
		// Next to the optimizer, among the training settings.
		if i, j := slices.IndexFunc(v.Fields, func(f FieldView) bool { return f.F == FieldOptimizer }), slices.IndexFunc(v.Fields, func(f FieldView) bool { return f.F == FieldAttnKernel }); j != i+1 {
			t.Errorf("%s: the kernel is field %d, the optimizer %d", task, j, i)
		}
	}
	v, _ := formOf(t, "t=train")
	k := formField(t, v.Fields, FieldAttnKernel)
	want := []Option{{"fa2", "FlashAttention-2 / Triton"}, {"cudnn", "cuDNN fused (Transformer Engine: Megatron-Core, NeMo)"}, {"fa3", "FlashAttention-3"}}
	if k.Value != "fa2" || !slices.Equal(k.Opts, want) {
		t.Errorf("default %q, choices %v", k.Value, k.Opts)
	}
	for _, s := range []string{"Megatron-Core", "llm-foundry", "Hugging Face", "1.62", "1.74"} {
		if !strings.Contains(k.Where, s) {
			t.Errorf("the help line %q does not name %s", k.Where, s)
		}
	}
	for _, lang := range []string{"ru", "zh"} {
		tr, _ := formOf(t, "t=train&l="+lang)
		if x := formField(t, tr.Fields, FieldAttnKernel); x.Label == k.Label || x.Where == k.Where || x.Opts[1].Label == "" {
			t.Errorf("%s: label %q, help %q untranslated", lang, x.Label, x.Where)
		}
	}
	// The link: only a kernel other than the default, read back as given.
	for _, frag := range []string{"t=train&ak=fa3", "ak=cudnn"} {
		s := ParseFragment(frag, DefaultState)
		back := ParseFragment(s.Fragment(DefaultState), DefaultState)
		if back != s || !strings.Contains(s.Fragment(DefaultState), "ak="+s[FieldAttnKernel]) {
			t.Errorf("%s: the link is %q", frag, s.Fragment(DefaultState))
		}
	}
	if strings.Contains(ParseFragment("t=train", DefaultState).Fragment(DefaultState), "ak=") {
		t.Error("the default kernel is written into the link")
	}
	// Refused next to the field: an unknown kernel, and a fused kernel
	// without FlashAttention-style attention (the estimator's rule).
	for _, frag := range []string{"t=train&ak=fa4", "t=train&ak=cudnn&fa=0"} {
		v, d := formOf(t, frag)
		if d.Errs[FieldAttnKernel].OK() || formField(t, v.Fields, FieldAttnKernel).Err == "" {
			t.Errorf("%s: taken (%+v)", frag, d.Errs[FieldAttnKernel])
		}
	}
}

// TestHostedBreakEvenSawOnPage: DeepSeek-R1 at 20 req/s of 1,000/1,000
// tokens against an API at 0.25/0.25 USD per 1M tokens: one replica
// beats the API from its break-even while it carries the rate, a second
// loses again, and self-hosting wins at every rate only past
// AlwaysAboveRPS (the CLI's always_cheaper_above_requests_per_second).
// The page's break-even cell says both rates, from the planner's figures.
func TestHostedBreakEvenSawOnPage(t *testing.T) {
	v, d := formOf(t, "m=deepseek-r1&p=fp8&g=h200-sxm&n=8&rps=20&s=2000&out=1000&api-in=0.25&api-out=0.25")
	h := v.Assumptions.Hosted
	if !d.R.OK || len(h.Rows) != 1 {
		t.Fatalf("hosted rows %+v, errs %+v %+v", h.Rows, d.Errs, d.General)
	}
	out := RunPlan(d.Job, NewPrices(catalog.Default(), nil))
	x := out.Hosted[0]
	if !(x.AlwaysAboveRPS > x.BreakEvenRPS && x.BreakEvenRPS > 0) {
		t.Fatalf("break-even %v, always above %v: the case needs a saw", x.BreakEvenRPS, x.AlwaysAboveRPS)
	}
	l := Locale{Lang: "en", Units: d.Job.Units}
	ps := " " + Tr("en", MsgPerSecond)
	want := l.Rate(x.BreakEvenRPS) + ps + "; at every rate above " + l.Rate(x.AlwaysAboveRPS) + ps
	if h.Rows[0].BreakEven != want {
		t.Errorf("break-even cell %q, want %q", h.Rows[0].BreakEven, want)
	}
}
