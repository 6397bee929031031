package page

import (
	"errors"
	"rightsize/catalog"
	"slices"
	"strings"
	"testing"
)

// The serving fleet's cards give TPOT at the targets' statistic, as they
// give TTFT, and as the load chart under them and the disaggregated line
// do: the mean under a bare label read as a second figure for one TPOT
// (36 ms on the card, 46.3 ms p95 in the chart's caption).
func TestFleetTPOTAtTheTargetsStatistic(t *testing.T) {
	for _, frag := range []string{"m=mistral-7b-v0.3&e=vllm&rps=16", "m=mistral-7b-v0.3&e=vllm&rps=16&slo=p99"} {
		v, in := viewOf(t, frag, nil)
		s := in.Plan.Load
		if !v.Serve.Shown || !s.OK {
			t.Fatalf("%s: no fleet or no load chart", frag)
		}
		stat := SLOStatLabel(Locale{Lang: "en"}, in.Job.SLOStat)
		f := factOf(t, v.Serve.Best.Facts, "rs-serve-tpot")
		op := s.Points[s.Op]
		if f.Label != "Time per output token ("+stat+")" || f.Value != (Locale{Lang: "en"}).Duration(op.TPOTStat) {
			t.Errorf("%s: TPOT card %q = %q; the chart's %s TPOT at the plan is %g s", frag, f.Label, f.Value, stat, op.TPOTStat)
		}
		if ttft := factOf(t, v.Serve.Best.Facts, "rs-serve-ttft"); !strings.HasSuffix(ttft.Label, "("+stat+")") {
			t.Errorf("%s: TTFT card %q", frag, ttft.Label)
		}
	}
}

// Generated tokens as many as the sequence leave no prompt: the field
// says its own range, 0 to the sequence less one, where it said the
// prompt's "1 to 16,777,216" next to 512 (BERT at its 512 tokens with the
// sample's 512 generated).
func TestOutputTokensWithinTheSequence(t *testing.T) {
	cat := catalog.Default()
	for frag, want := range map[string]string{
		"m=bert-base-uncased&s=512&rps=5":         "out of range: 0 to 511",
		"m=llama-3.1-8b&s=1024&out=4096&rps=5":    "out of range: 0 to 1,023",
		"m=llama-3.1-8b&s=1024&out=1024&req=1000": "out of range: 0 to 1,023",
		"m=llama-3.1-8b&s=1024&out=1000&rps=5":    "",
	} {
		_, errs, _, ok := ParseJob(ParseFragment(frag, DefaultState), cat, Archs{}, nil, "")
		got := ""
		if !errs[FieldOutput].OK() {
			got = (Locale{Lang: "en"}).ErrText(errs[FieldOutput])
		}
		if got != want || ok != (want == "") {
			t.Errorf("%s: output field %q (ok %v), want %q", frag, got, ok, want)
		}
	}
	_, errs, _, _ := ParseJob(ParseFragment("m=bert-base-uncased&s=512&rps=5", DefaultState), cat, Archs{}, nil, "")
	if got := (Locale{Lang: "ru"}).ErrText(errs[FieldOutput]); !strings.Contains(got, "от 0 до 511") {
		t.Errorf("in Russian: %q", got)
	}
}

// A plan the planner refused (the estimator's check of a field it reads)
// says to fix the marked field, or that nothing runs the job: it showed
// the page's tagline, the text of the zero message key.
func TestRefusedPlanSaysWhy(t *testing.T) {
	refused := func(field bool) func(*ViewIn) {
		return func(in *ViewIn) {
			in.Plan = PlanOut{Err: errors.New("estimator: prompt-tokens=0: out of range")}
			if field {
				in.Errs[FieldOutput] = FieldErr{Key: MsgRange, Value: "0"}
			}
		}
	}
	for field, want := range map[bool]string{true: Fill(Tr("en", MsgFixNamed), "“"+Tr("en", MsgOutputTokens)+"”"), false: Tr("en", MsgNoAnswer)} {
		v, _ := viewOf(t, "", refused(field))
		if v.Answer.Note != want || v.Answer.Note == Tr("en", 0) {
			t.Errorf("field error %v: the answer's note %q", field, v.Answer.Note)
		}
	}
}

// A price to verify names its month the way the language writes dates
// (it was "цена от 2026-07 — проверьте" beside "09.07.2026").
func TestVerifyMonthInTheLanguage(t *testing.T) {
	for lang, want := range map[string]string{"en": "2026-07", "ru": "07.2026", "zh": "2026年7月"} {
		if got := (Locale{Lang: lang}).Month("2026-07-09"); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := (Locale{Lang: "ru"}).Month("soon"); got != "soon" {
		t.Errorf("not a date: %q", got)
	}
	v, _ := viewOf(t, "m=llama-3.1-70b&e=vllm&rps=5&cur=RUB&l=ru", nil)
	seen := false
	for _, r := range v.Offers.Rows {
		if r.Verify == "" {
			continue
		}
		seen = true
		if strings.Contains(r.Verify, "-") {
			t.Errorf("Russian verify note %q", r.Verify)
		}
	}
	if !seen {
		t.Error("no offer to verify: the test no longer reaches the note")
	}
}

// A fix that fits on one GPU says so ("on 1 GPUs" read as a slip).
func TestFixOnOneGPU(t *testing.T) {
	_, r, _ := answer(t, "m=llama-3.1-8b&t=train&tok=1T")
	if !r.HasFix || r.Fix.In.GPUs != 1 {
		t.Fatalf("fix %v on %d GPUs", r.HasFix, r.Fix.In.GPUs)
	}
	for lang, want := range map[string]string{"en": " on one GPU", "ru": " на одном GPU", "zh": "单个 GPU "} {
		if got := (Locale{Lang: lang}).FixText(r.Fix); !strings.Contains(got, want) || strings.Contains(got, "1 GPUs") {
			t.Errorf("%s: %q", lang, got)
		}
	}
}

// The daily fleet in Russian: the replica count agrees with its noun at
// any number ("4 реплик в пик" did not), and spot is «спот» as elsewhere.
func TestDailyFleetRussian(t *testing.T) {
	if got := Fill(Tr("ru", MsgFleetPeak), "4", "16,0", "1"); strings.Contains(got, "4 реплик") || !strings.Contains(got, ": 4") {
		t.Errorf("peak line %q", got)
	}
	if got := Tr("ru", MsgFleetAllSpot); strings.Contains(got, "spot") {
		t.Errorf("spot row %q", got)
	}
}

// The job line says the plan's bounds when they are set: the deadline
// and the budget (a serving fleet's a month's), in the display currency,
// each editable in place; without them it says neither.
func TestJobLineBounds(t *testing.T) {
	text := func(v View) string {
		var b strings.Builder
		for _, p := range v.Job.Parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	for frag, want := range map[string]string{
		"m=llama-3.1-8b&t=train&tok=1T&dl=720&bud=500000": " · within 30.0 days · budget $500,000; ",
		"m=llama-3.1-8b&e=vllm&rps=5&bud=3000&cur=EUR":    " · budget €3,000.00 a month; ",
		"m=llama-3.1-8b&e=vllm&req=100000&dl=12":          " · within 12.0 h; ",
	} {
		v, _ := viewOf(t, frag, nil)
		if got := text(v); !strings.Contains(got, want) {
			t.Errorf("%s: job line %q, want %q in it", frag, got, want)
		}
		found := map[Field]bool{}
		for _, p := range v.Job.Parts {
			found[p.F] = true
		}
		if strings.Contains(frag, "dl=") != found[FieldDeadline] || strings.Contains(frag, "bud=") != found[FieldBudget] {
			t.Errorf("%s: editable bounds %v", frag, found)
		}
	}
	if v, _ := viewOf(t, "m=llama-3.1-8b&t=train&tok=1T", nil); strings.Contains(text(v), "within") || strings.Contains(text(v), "budget") {
		t.Errorf("no bounds set: %q", text(v))
	}
}

// Plans side by side name the GPU's memory as one GPU's: "VRAM 80.00
// GiB" under "8 × NVIDIA H100" read as the plan's total.
func TestCompareVRAMPerGPU(t *testing.T) {
	for lang, want := range map[string]string{"en": "VRAM per GPU", "ru": "Память одного GPU", "zh": "单卡显存"} {
		v, _ := viewOf(t, "m=llama-3.1-8b&e=vllm&rps=5&l="+lang, func(in *ViewIn) { in.Compare = []string{"aws-p5.48xlarge"} })
		if len(v.Plans.Cols) != 1 || v.Plans.Labels[2] != want || v.Plans.Cols[0].VRAM == "—" {
			t.Errorf("%s: labels %q, columns %+v", lang, v.Plans.Labels, v.Plans.Cols)
		}
	}
}

// Picking a model whose checkpoint ships in fp8 serves it in fp8, as the
// command line plans it without --precision and the engines load it;
// leaving it goes back to bf16; a precision the user chose, or a
// training task, stays.
func TestPickingAnFP8Checkpoint(t *testing.T) {
	cat := catalog.Default()
	s := DefaultState.WithModel("deepseek-r1", cat)
	if s[FieldModel] != "deepseek-r1" || s[FieldPrecision] != "fp8" {
		t.Errorf("DeepSeek-R1 picked: model %q precision %q", s[FieldModel], s[FieldPrecision])
	}
	d := Derive(s, nil, NewPrices(cat, nil), nil, "")
	if !d.R.OK || slices.Contains(d.R.HWWarn, MsgShipsFP8) {
		t.Errorf("DeepSeek-R1 at fp8: ok %v, still told to set fp8: %v", d.R.OK, d.R.HWWarn)
	}
	if b := s.WithModel("llama-3.1-8b", cat); b[FieldPrecision] != "bf16" {
		t.Errorf("back to Llama: precision %q", b[FieldPrecision])
	}
	// From one published format to another: gpt-oss ships MXFP4, so it
	// plans at fp4 as a link to it without a precision does.
	if g := s.WithModel("gpt-oss-120b", cat); g[FieldPrecision] != "fp4" {
		t.Errorf("DeepSeek-R1 to gpt-oss-120b: precision %q, want fp4", g[FieldPrecision])
	}
	if g := s.WithModel("gpt-oss-120b", cat); g[FieldPrecision] != ParseFragment("m=gpt-oss-120b", DefaultState)[FieldPrecision] {
		t.Errorf("DeepSeek-R1 to gpt-oss-120b: precision %q, a link to it plans %q", g[FieldPrecision], ParseFragment("m=gpt-oss-120b", DefaultState)[FieldPrecision])
	}
	for frag, want := range map[string]string{"p=int4": "int4", "t=lora": "bf16", "m=deepseek-r1&p=fp16": "fp16"} {
		x := ParseFragment(frag, DefaultState)
		if got := x.WithModel("deepseek-v3", cat)[FieldPrecision]; got != want {
			t.Errorf("%s, DeepSeek-V3 picked: precision %q, want %q", frag, got, want)
		}
	}
	if got := ParseFragment("p=fp8", DefaultState).WithModel("llama-3.1-8b", cat)[FieldPrecision]; got != "fp8" {
		t.Errorf("fp8 chosen for Llama: %q", got)
	}
}

// A model that generates no tokens (a diffusion transformer, an encoder)
// gets no serving plan, and the page says why, not "change the GPU count,
// precision or model" beside a breakdown that fits.
func TestNoServingPlanForModelsWithoutTokens(t *testing.T) {
	cat := catalog.Default()
	pr := NewPrices(cat, nil)
	for _, frag := range []string{"m=flux.1-dev&rps=1", "m=bert-base-uncased&s=512&out=64&rps=50"} {
		st := ParseFragment(frag, DefaultState)
		d := Derive(st, nil, pr, nil, "")
		out := RunPlan(d.Job, pr)
		v := BuildView(ViewIn{State: st, Job: d.Job, Errs: d.Errs, General: d.General, R: d.R, Plan: out, Prices: pr})
		if !d.R.OK || !d.R.Res.Fits || len(out.Picks) != 0 || v.Answer.Note != Tr("en", MsgNoAnswerNoTokens) {
			t.Errorf("%s: fits %v, %d picks, note %q", frag, d.R.Res.Fits, len(out.Picks), v.Answer.Note)
		}
	}
	// A language model still gets its plan.
	if _, _, out := answer(t, "m=llama-3.1-8b&rps=1"); len(out.Picks) == 0 {
		t.Errorf("Llama 3.1 8B at 1 req/s: no picks (%q)", Tr("en", out.NoneWhy))
	}
}

// A breakdown part too small for two decimals reads "< 0.01 GiB" (as its
// share reads "< 0.1%"), not "0.00 GiB" beside memory it takes: the
// logits of one 2,048-token sequence of Qwen2.5 7B at batch 1.
func TestTinyPartIsNotZero(t *testing.T) {
	for units, want := range map[string]string{"GiB": "< 0.01 GiB", "GB": "< 0.01 GB"} {
		l := Locale{Lang: "en"}
		if units == "GB" {
			l.Units = UnitGB
		}
		if got := l.PartBytes(600_000); got != want {
			t.Errorf("%s: %q, want %q", units, got, want)
		}
		if got := l.PartBytes(0); got != l.Bytes(0) {
			t.Errorf("%s: nothing reads %q", units, got)
		}
	}
	if got := (Locale{Lang: "ru"}).PartBytes(600_000); got != "< 0,01 ГиБ" {
		t.Errorf("ru: %q", got)
	}
	v, _ := viewOf(t, "m=qwen2.5-7b&b=1", nil)
	for _, p := range v.Result.Breakdown.Parts {
		if strings.HasPrefix(p.Value, "0.00 ") {
			t.Errorf("part %s reads %q", p.Name, p.Value)
		}
	}
}

// The planner's figure in the speed box says what it counts: per 1M
// generated tokens when serving, the job's cost when training.
func TestPlannerFigureSaysWhatItCounts(t *testing.T) {
	for frag, want := range map[string]string{
		"m=llama-3.1-8b&e=vllm&rps=5":      "Planner's cheapest plan on this GPU, per 1M generated tokens",
		"m=llama-3.1-8b&t=lora&tok=100M":   "Planner's cheapest plan on this GPU, job cost",
		"m=llama-3.1-8b&e=vllm&rps=5&l=ru": "Самый дешёвый план на этом GPU (планировщик), за 1M выходных токенов",
	} {
		v, _ := viewOf(t, frag, nil)
		if f := factOf(t, v.Perf.Facts, "rs-cheapest"); f.Label != want || f.Value == "—" {
			t.Errorf("%s: %q = %q, want the label %q", frag, f.Label, f.Value, want)
		}
	}
}

// A refused sheet says "price sheet" once: "ours.csv: price sheet
// refused: price sheet: row 1: …" named it twice.
func TestRefusedSheetSaysItOnce(t *testing.T) {
	var s Sheet
	s.Use("ours.csv", nil, 0, errors.New(`catalog: price sheet: row 1: provider "ourcloud" is not in the catalog`), "en")
	if want := `ours.csv: price sheet refused: row 1: provider "ourcloud" is not in the catalog`; s.Err != want {
		t.Errorf("%q, want %q", s.Err, want)
	}
}

// With the generated tokens refused the job line does not add a prompt
// to them ("256 + 512" under a 512-token sequence); in Russian the rate
// reads "запр./с", which agrees with any count ("1 запросов/с" did not).
func TestJobLineRateParts(t *testing.T) {
	cat := catalog.Default()
	d := Derive(ParseFragment("m=bert-base-uncased&s=512&rps=5", DefaultState), nil, NewPrices(cat, nil), nil, "")
	v := BuildView(ViewIn{State: ParseFragment("m=bert-base-uncased&s=512&rps=5", DefaultState), Job: d.Job, Errs: d.Errs, R: d.R, Prices: NewPrices(cat, nil)})
	var line strings.Builder
	for _, p := range v.Job.Parts {
		line.WriteString(p.Text)
	}
	if !strings.Contains(line.String(), " · — + 512 tokens each") {
		t.Errorf("job line %q", line.String())
	}
	if got := Fill(Tr("ru", MsgJobRate), "1", "1 536", "512"); !strings.HasPrefix(got, "1 запр./с") {
		t.Errorf("Russian rate %q", got)
	}
}

// A planner that refuses a model generating no tokens outright (an error,
// no field to mark) gets the same note as one that plans it out.
func TestRefusedTokenlessModelSaysWhy(t *testing.T) {
	for _, frag := range []string{"m=flux.1-dev&rps=1", "m=bert-base-uncased&s=512&out=64&rps=50"} {
		v, _ := viewOf(t, "", func(in *ViewIn) {
			in.State = ParseFragment(frag, DefaultState)
			d := Derive(in.State, nil, in.Prices, nil, "")
			in.Job, in.R, in.Errs = d.Job, d.R, d.Errs
			in.Plan = PlanOut{Err: errors.New("plan: model: incompatible")}
		})
		if v.Answer.Note != Tr("en", MsgNoAnswerNoTokens) {
			t.Errorf("%s: the answer's note %q", frag, v.Answer.Note)
		}
	}
}

// TestGenericModelHasNoSpeed: a rightsize-generic model served (FLUX.1,
// ResNet-50) gets the speed box's one reason, in each language, as
// rightsize estimate says "speed: not modelled", not tokens per second
// per request; a transformer keeps its figures.
func TestGenericModelHasNoSpeed(t *testing.T) {
	for _, m := range []string{"flux.1-dev", "resnet-50"} {
		v, _, _ := pageOf(t, "m="+m, nil)
		if !v.Perf.NoPerf || !v.Perf.Generic || len(v.Perf.Facts) != 0 {
			t.Errorf("%s: speed view %+v, want no speed for a generic model", m, v.Perf)
		}
		for _, lang := range []string{"en", "ru", "zh"} {
			var text string
			find(PerfNode(lang, &v.Perf), func(n Node) bool {
				if n.ID == "rs-no-perf" {
					text = n.Text
				}
				return false
			})
			if text != Tr(lang, MsgNoPerfGeneric) || text == "" {
				t.Errorf("%s %s: the box says %q", m, lang, text)
			}
		}
	}
	if v, _, _ := pageOf(t, "", nil); v.Perf.NoPerf || len(v.Perf.Facts) == 0 {
		t.Errorf("the default job lost its speed: %+v", v.Perf)
	}
}

// TestEncoderSpeedCountsTokensRead: BERT reads its tokens in one forward
// pass and generates none, so the speed box says one forward pass per
// request (the CLI's "one forward pass per request"), has no tokens per
// request, and counts throughput and cost in tokens read, in each
// language.
func TestEncoderSpeedCountsTokensRead(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		v, _, _ := pageOf(t, "m=bert-base-uncased&s=512&out=0&l="+lang, nil)
		var ids, labels []string
		for _, f := range v.Perf.Facts {
			ids, labels = append(ids, f.ID), append(labels, f.Label)
		}
		want := []string{Tr(lang, MsgForwardPass), Tr(lang, MsgThroughputEncoder), Tr(lang, MsgCostAtSpeedTokens), Tr(lang, MsgMFUImplied), Tr(lang, MsgPlannerBestPerMTokens)}
		if !slices.Equal(ids, []string{"rs-ttft", "rs-throughput", "rs-cost-at-speed", "rs-mfu", "rs-cheapest"}) || !slices.Equal(labels, want) {
			t.Errorf("%s: facts %q %q", lang, ids, labels)
		}
		if v.Perf.Facts[0].Value == "" || v.Perf.Facts[0].Value == "—" {
			t.Errorf("%s: no forward-pass time", lang)
		}
	}
	v, _, _ := pageOf(t, "", nil)
	if len(v.Perf.Facts) < 2 || v.Perf.Facts[1].ID != "rs-per-seq" || v.Perf.Facts[0].Label != Tr("en", MsgTTFT) {
		t.Errorf("a decoder's speed box changed: %+v", v.Perf.Facts)
	}
}

// TestBadInputSaysItsOwnField: a refused request rate leaves the job line
// a serving job showing the rate as typed with its message (it read
// "0 requests × 2,048 tokens", a batch of none), and a sequence under one
// token is refused on its own field without a "0 to -6" range put on the
// generated tokens beside it.
func TestBadInputSaysItsOwnField(t *testing.T) {
	v, d := viewOfState(t, ParseFragment("m=llama-3.1-70b&rps=1e309", DefaultState))
	var line strings.Builder
	var rate *JobPart
	for i, p := range v.Job.Parts {
		line.WriteString(p.Text)
		if p.F == FieldRPS {
			rate = &v.Job.Parts[i]
		}
	}
	if rate == nil || rate.Text != "1e309" || rate.Err == "" || strings.Contains(line.String(), "requests ×") {
		t.Errorf("job line %q, rate part %+v", line.String(), rate)
	}
	if d.Errs[FieldRPS].OK() {
		t.Error("1e309 requests/s accepted")
	}
	// A refused sequence: its halves are not said ("1 + -2 tokens
	// each"); generated tokens typed are.
	for frag, want := range map[string]string{"m=llama-3.1-70b&rps=5&s=-5&out=0": " · — + — tokens each",
		"m=llama-3.1-70b&rps=5&s=-5": " · — + 512 tokens each"} {
		v, _ := viewOfState(t, ParseFragment(frag, DefaultState))
		var line strings.Builder
		for _, p := range v.Job.Parts {
			line.WriteString(p.Text)
		}
		if !strings.Contains(line.String(), want) {
			t.Errorf("%s: job line %q, want %q in it", frag, line.String(), want)
		}
	}
	_, d = viewOfState(t, ParseFragment("m=llama-3.1-70b&rps=5&s=-5&out=512", DefaultState))
	if d.Errs[FieldSeq].OK() {
		t.Error("a sequence of -5 accepted")
	}
	if e := d.Errs[FieldOutput]; !e.OK() {
		t.Errorf("512 generated tokens refused beside a bad sequence: %s", ErrText("en", e))
	}
}

// Moonshot's experts-only INT4 is one of the weight formats, and chosen for
// a dense model its message stands next to the weight-format field (the
// estimator's reason with it), in every language; on Kimi K2 it plans.
func TestExpertsOnlyQuantField(t *testing.T) {
	if !slices.ContainsFunc(quantOptions(Locale{Lang: "en"}), func(o Option) bool { return o.Value == "int4-experts-g32" && o.Label != "" }) {
		t.Fatal("int4-experts-g32 is not among the weight formats")
	}
	cat := catalog.Default()
	_, errs, _, ok := ParseJob(ParseFragment("m=llama-3.1-8b&p=int4&q=int4-experts-g32", DefaultState), cat, Archs{}, nil, "")
	if ok || errs[FieldQuant].OK() {
		t.Fatalf("a dense model took int4-experts-g32: ok %v, %+v", ok, errs[FieldQuant])
	}
	if got := (Locale{Lang: "en"}).ErrText(errs[FieldQuant]); !strings.Contains(got, "routed experts") {
		t.Errorf("en: weight-format message %q", got)
	}
	for _, l := range []string{"ru", "zh"} {
		if got := (Locale{Lang: l}).ErrText(errs[FieldQuant]); got == "" || got == (Locale{Lang: "en"}).ErrText(errs[FieldQuant]) || !strings.Contains(errs[FieldQuant].Detail, "routed experts") {
			t.Errorf("%s: weight-format message %q, detail %q", l, got, errs[FieldQuant].Detail)
		}
	}
	j, errs, _, ok := ParseJob(ParseFragment("m=kimi-k2&p=int4&q=int4-experts-g32&e=vllm&g=h200-sxm&n=8&tp=8", DefaultState), cat, Archs{}, nil, "")
	if !ok || !errs[FieldQuant].OK() || !j.In.Quant.ExpertsOnly() {
		t.Errorf("Kimi K2 at int4-experts-g32: ok %v, quant %v, %+v", ok, j.In.Quant, errs[FieldQuant])
	}
}
