package page

import (
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// TestPicksAnExpertSigns: on the users' jobs no pick rests on a price the
// page flags (far below the median, stale while fresh prices run the
// job), and none runs a precision its GPU or engine lacks without saying
// so; the default serving job's cheaper flagged plan, when there is one,
// is named beside the answer with "verify".
func TestPicksAnExpertSigns(t *testing.T) {
	cat := catalog.Default()
	flagged := 0
	for _, frag := range append(userJobs, "m=mistral-7b-v0.3&e=vllm&rps=20&ttft=1000&out=200&s=700") {
		_, _, out := answer(t, frag)
		for _, p := range out.Picks {
			if p.Offer.FarBelowMedian || p.PassedOver {
				t.Errorf("%q: %v pick %s rests on a flagged price", frag, p.Kind, p.Offer.ID)
			}
			g, _ := cat.GPU(p.Offer.GPU)
			r := out.Rows[p.Row]
			s := estimator.SupportFor(g.Generation(), r.Engine, estimator.Inference, r.Weights)
			if !s.Runs || s.Weights != r.Weights {
				t.Errorf("%q: %v pick %s runs %v under %v on %v, which does not start", frag, p.Kind, p.Offer.ID, r.Weights, r.Engine, g.Generation())
			}
		}
		if out.Flagged >= 0 {
			flagged++
			line := out.FlaggedLine(Locale{Lang: "en"}, func(id string) string { return id })
			c := out.Cands[out.Flagged]
			if !c.PassedOver || !strings.Contains(line, "verify") || !strings.Contains(line, c.Offer.Name()) || strings.Contains(line, "__") || out.Picks[0].Cost <= c.Cost {
				t.Errorf("%q: flagged line %q for %s (passed over %v, %v vs cheapest %v)", frag, line, c.Offer.ID, c.PassedOver, c.Cost, out.Picks[0].Cost)
			}
		}
	}
	if flagged == 0 {
		t.Fatal("no job has a cheaper flagged plan: the line is untested")
	}
}

// TestFiltersInUsersTerms: the country is the provider's home, the
// region where it hosts, the provider an ID from the catalog (an unknown
// one is a message next to the field).
func TestFiltersInUsersTerms(t *testing.T) {
	j, _, out := answer(t, "cc=RU&hr=ru&pv=yandex")
	if got := j.Filters; len(got.Countries) != 1 || got.Countries[0] != "RU" || len(got.Regions) != 1 || got.Regions[0] != "ru" ||
		len(got.Providers) != 1 || got.Providers[0] != "yandex" {
		t.Fatalf("filters %+v", got)
	}
	for _, c := range out.Cands {
		if c.Offer.Provider != "yandex" || c.Offer.Country != "RU" {
			t.Errorf("plan on %s (%s, %s)", c.Offer.ID, c.Offer.Provider, c.Offer.Country)
		}
	}
	_, errs, _, ok := ParseJob(ParseFragment("pv=../../x", DefaultState), catalog.Default(), Archs{}, nil, "")
	if ok || errs[FieldProvider].OK() {
		t.Fatalf("an unknown provider parsed: ok %v, %+v", ok, errs[FieldProvider])
	}
	// Every pick says its provider's kind.
	l := Locale{Lang: "ru"}
	if k := l.KindLabel(catalog.KindDecentralized); k != "децентрализованная сеть" {
		t.Fatalf("ru decentralised = %q", k)
	}
}

// TestLoadChartLegend: each curve and target of the serving chart is
// named by its own message in every language, never a format verb left
// unfilled nor a neighbouring message (the legend read "TTFT target (p95)
// %s" for the p50 curve and "this plan: …" for the TPOT target).
func TestLoadChartLegend(t *testing.T) {
	s := ServeLoad{OK: true, Points: []LoadPoint{{RPS: 1, TTFTStat: 0.2, TTFTP50: 0.1, TPOTStat: 0.03}, {RPS: 2, TTFTStat: 0.3, TTFTP50: 0.15, TPOTStat: 0.04}},
		Op: 0, Copies: 1, SatRPS: 3, TTFTTarget: 1, TPOTTarget: 0.05}
	for _, lang := range []string{"en", "ru", "zh"} {
		l := Locale{Lang: lang}
		v := LoadChartOf(s, l, "x")
		want := map[string]string{
			"rs-lc-ttft95": Fill(l.T(MsgLoadTTFT95), "p95"), "rs-lc-ttft50": l.T(MsgLoadTTFT50), "rs-lc-tpot95": Fill(l.T(MsgLoadTPOT95), "p95"),
			"rs-lc-target rs-lc-ttft95": Fill(l.T(MsgLoadTTFTTarget), "p95", TickSeconds(l, 1)),
			"rs-lc-target rs-lc-tpot95": Fill(l.T(MsgLoadTPOTTarget), "p95", TickSeconds(l, 0.05)),
		}
		for _, k := range v.Keys {
			if strings.Contains(k.Text, "%") {
				t.Errorf("%s: key %q has an unfilled verb", lang, k.Text)
			}
			if w, ok := want[k.Class]; ok {
				if k.Text != w {
					t.Errorf("%s: %s legend %q, want %q", lang, k.Class, k.Text, w)
				}
				delete(want, k.Class)
			}
		}
		if len(want) > 0 {
			t.Errorf("%s: no legend for %v", lang, want)
		}
	}
	// Targets at p99 are drawn against the p99 curves, and say so.
	s.Stat = planner.SLOP99
	v := LoadChartOf(s, Locale{Lang: "en"}, "x")
	var keys []string
	for _, k := range v.Keys {
		keys = append(keys, k.Text)
	}
	if got := strings.Join(keys, "|"); !strings.Contains(got, "TTFT p99|") || !strings.Contains(got, "TPOT p99|") || !strings.Contains(got, "TTFT target (p99) 1 s") ||
		!strings.Contains(v.Caption, "p99 TTFT") {
		t.Errorf("p99 chart: legend %q, caption %q", got, v.Caption)
	}
}

// TestNoFalseBF16Warning: fp16 weights on a T4 (no bf16) do not warn
// about bf16 because of the KV setting's default; bf16 weights do.
func TestNoFalseBF16Warning(t *testing.T) {
	g, _ := catalog.Default().GPU("t4")
	a := loadTestArch(t)
	in := estimator.DefaultInput(a)
	in.Weights, in.KV = estimator.FP16, estimator.BF16
	for _, w := range hardwareWarnings(in, g) {
		if w == MsgHWNoBF16 {
			t.Fatal("fp16 weights warn about bf16")
		}
	}
	in.Weights = estimator.BF16
	if w := hardwareWarnings(in, g); len(w) == 0 || w[0] != MsgHWNoBF16 {
		t.Fatalf("bf16 weights on a T4: %v", w)
	}
}

// TestFP8MarlinWarning: fp8 weights served by vLLM or SGLang on an A100
// (no fp8 tensor cores) say they run as W8A16 Marlin, in every language;
// TensorRT-LLM, HF transformers and an fp8 KV cache alone keep the plain
// no-fp8 warning, and an H100 has none.
func TestFP8MarlinWarning(t *testing.T) {
	a100, _ := catalog.Default().GPU("a100-80gb-sxm")
	h100, _ := catalog.Default().GPU("h100-sxm")
	in := estimator.DefaultInput(loadTestArch(t))
	in.Task, in.Weights, in.KV = estimator.Inference, estimator.FP8, estimator.BF16
	for _, e := range []estimator.Engine{estimator.VLLM, estimator.SGLang} {
		in.Engine = e
		if w := hardwareWarnings(in, a100); !slices.Equal(w, []MsgKey{MsgHWFP8Marlin}) {
			t.Errorf("%v fp8 on an A100: %v, want the W8A16 Marlin note", e, w)
		}
		if w := hardwareWarnings(in, h100); len(w) != 0 {
			t.Errorf("%v fp8 on an H100: %v, want none", e, w)
		}
	}
	for _, e := range []estimator.Engine{estimator.TRTLLM, estimator.HF} {
		in.Engine = e
		if w := hardwareWarnings(in, a100); !slices.Equal(w, []MsgKey{MsgHWNoFP8}) {
			t.Errorf("%v fp8 on an A100: %v, want the plain no-fp8 warning", e, w)
		}
	}
	in.Engine, in.Weights, in.KV = estimator.VLLM, estimator.BF16, estimator.FP8
	if w := hardwareWarnings(in, a100); !slices.Equal(w, []MsgKey{MsgHWNoFP8}) {
		t.Errorf("fp8 KV cache alone on an A100: %v, want the plain no-fp8 warning", w)
	}
	for lang, m := range Messages {
		if !strings.Contains(m[MsgHWFP8Marlin], "W8A16") {
			t.Errorf("%s: %q does not name W8A16", lang, m[MsgHWFP8Marlin])
		}
	}
}

func loadTestArch(t *testing.T) estimator.Arch {
	t.Helper()
	m, _ := catalog.Default().Model("llama-3.1-8b")
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEmptyAnswerNamesItsCause: a budget or deadline nothing meets is
// named as the cause of an empty answer, not the GPU count.
func TestEmptyAnswerNamesItsCause(t *testing.T) {
	cat := catalog.Default()
	for frag, want := range map[string]MsgKey{"m=llama-3.1-8b&bud=1": MsgNoAnswerBudget, "m=llama-3.1-8b&dl=0.001": MsgNoAnswerDeadline} {
		j, _, _, ok := ParseJob(ParseFragment(frag, DefaultState), cat, Archs{}, nil, "")
		if !ok {
			t.Fatalf("%s: does not parse", frag)
		}
		out := RunPlan(j, NewPrices(cat, nil))
		if len(out.Cands) != 0 || out.NoneWhy != want {
			t.Errorf("%s: %d plans, why %v, want %v", frag, len(out.Cands), out.NoneWhy, want)
		}
		// And what fits without it.
		id := func(s string) string { return s }
		line := out.WidenedLine(Locale{Lang: "en"}, Names{GPU: id, Provider: id})
		if out.Widened.Offer == nil || !strings.Contains(line, out.Widened.Offer.Name()) || !strings.Contains(line, Locale{Lang: "en"}.T(widenedFields[out.WidenedDrop])) {
			t.Errorf("%s: widened %q (dropped %q)", frag, line, out.WidenedDrop)
		}
	}
}

// TestDefaultKindsOnThePage: the page's default plan, like the CLI's,
// rests on hyperscalers, GPU clouds and brokers; "any" widens it.
func TestDefaultKindsOnThePage(t *testing.T) {
	j, _, out := answer(t, "m=mistral-7b-v0.3&rps=20&ttft=1000")
	if strings.Join(j.Filters.Kinds, ",") != strings.Join(catalog.DefaultKinds, ",") {
		t.Fatalf("kinds %v", j.Filters.Kinds)
	}
	for _, c := range out.Cands {
		if c.Offer.ProviderKind == catalog.KindMarketplace || c.Offer.ProviderKind == catalog.KindDecentralized {
			t.Fatalf("default plan on %s (%s)", c.Offer.ID, c.Offer.ProviderKind)
		}
	}
	j, _, _ = answer(t, "m=mistral-7b-v0.3&rps=20&ttft=1000&pk=any")
	if j.Filters.Kinds != nil {
		t.Fatalf("pk=any: kinds %v", j.Filters.Kinds)
	}
}

// TestCountsInScientificNotation: a count written 1e9 or 1e308 is a
// number (it read "not a number"): read when whole and in range, out of
// range when huge, "not a whole number" when a fraction.
func TestCountsInScientificNotation(t *testing.T) {
	for frag, want := range map[string]MsgKey{"b=1e308": MsgRange, "n=1e99": MsgRange, "b=2.5": MsgNotWhole, "b=x": MsgNotNumber} {
		f := map[string]Field{"b": FieldBatch, "n": FieldGPUs}[frag[:1]]
		_, errs, _, _ := ParseJob(ParseFragment(frag, DefaultState), catalog.Default(), Archs{}, nil, "")
		if errs[f].Key != want {
			t.Errorf("%s: %+v, want %v", frag, errs[f], want)
		}
	}
	j, errs, _, ok := ParseJob(ParseFragment("b=1e1", DefaultState), catalog.Default(), Archs{}, nil, "")
	if !ok || !errs[FieldBatch].OK() || j.In.Batch != 10 {
		t.Fatalf("b=1e1: batch %d, %+v", j.In.Batch, errs[FieldBatch])
	}
}

// TestAllZeroCurveIsAnError: a day of 0 requests/s is a message next to
// the curve (it planned a batch job without a word), as the CLI's.
func TestAllZeroCurveIsAnError(t *testing.T) {
	zeros := strings.TrimSuffix(strings.Repeat("0,", 24), ",")
	_, errs, _, ok := ParseJob(ParseFragment("lc="+zeros, DefaultState), catalog.Default(), Archs{}, nil, "")
	if ok || errs[FieldCurve].Key != MsgBadCurve || !strings.Contains(errs[FieldCurve].Detail, "above 0") {
		t.Fatalf("all-zero curve: ok %v, %+v", ok, errs[FieldCurve])
	}
}

// TestEngineNoStartWarning: beside the figures of a job whose inference
// engine does not start on the GPU, the page says so, as the CLI's
// estimate note does: TensorRT-LLM on a T4 (no engine there), the current
// vLLM on a V100 (the release: MsgHWEngineRelease names 0.20.0 in every
// language); vLLM 0.19.1 on a V100 and HF transformers there have neither.
func TestEngineNoStartWarning(t *testing.T) {
	t4, _ := catalog.Default().GPU("t4")
	v100, _ := catalog.Default().GPU("v100-32gb")
	in := estimator.DefaultInput(loadTestArch(t))
	in.Task, in.Weights = estimator.Inference, estimator.FP16
	in.Engine = estimator.TRTLLM
	if w := hardwareWarnings(in, t4); !slices.Equal(w, []MsgKey{MsgHWEngineNoStart}) {
		t.Errorf("trtllm on a T4: %v", w)
	}
	in.Engine = estimator.VLLM
	if w := hardwareWarnings(in, v100); !slices.Equal(w, []MsgKey{MsgHWEngineRelease}) {
		t.Errorf("the current vLLM on a V100: %v", w)
	}
	in.EngineVersion = estimator.EngineVersion{Major: 0, Minor: 19, Patch: 1}
	if w := hardwareWarnings(in, v100); len(w) != 0 {
		t.Errorf("vLLM 0.19.1 on a V100: %v", w)
	}
	in.Engine, in.EngineVersion = estimator.HF, estimator.EngineVersion{}
	if w := hardwareWarnings(in, v100); len(w) != 0 {
		t.Errorf("HF on a V100: %v", w)
	}
	for lang, m := range Messages {
		if !strings.Contains(m[MsgHWEngineRelease], "0.20.0") || !strings.Contains(m[MsgHWEngineRelease], "Volta") || m[MsgHWEngineNoStart] == "" {
			t.Errorf("%s: %q / %q", lang, m[MsgHWEngineRelease], m[MsgHWEngineNoStart])
		}
	}
}

// TestGradientsInFlightFormula: a sharded full fine-tune with one
// micro-batch a step shows at its step's moment the gradients in flight
// (estimator.Result.GradientsInFlight), and the gradients line says so in
// its basis, in every language; accumulating, the line keeps the shards'.
func TestGradientsInFlightFormula(t *testing.T) {
	in := estimator.DefaultInput(loadTestArch(t))
	in.Task, in.GPUs, in.ZeRO, in.Batch, in.Seq, in.PureBF16, in.VRAM = estimator.FullFinetune, 4, 3, 1, 512, true, 80*estimator.GiB
	formula := func(in estimator.Input, lang string) string {
		t.Helper()
		r, err := estimator.Estimate(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Parts(Locale{Lang: lang}, r, "nvidia") {
			if p.ID == "rs-gradients" {
				return p.Formula
			}
		}
		t.Fatalf("%s: no gradients line", lang)
		return ""
	}
	for _, lang := range []string{"en", "ru", "zh"} {
		l := Locale{Lang: lang}
		if got := formula(in, lang); got != l.T(MsgFGradientsInFlight) {
			t.Errorf("%s, one micro-batch a step: %q", lang, got)
		}
	}
	acc := in
	acc.Schedule.GlobalBatch = 8
	if got := formula(acc, "en"); got != (Locale{Lang: "en"}).T(MsgFGradients) {
		t.Errorf("accumulating: %q", got)
	}
}

// TestLayoutRefusedWarning: a serving layout the user set that the engine
// does not run on the selected GPU as estimated (estimator.GPULayoutRefusal:
// SGLang's DeepEP attention DP × EP on an MI300X) is flagged beside the
// figures, in every language; the same layout on H200s, where DeepEP runs
// over NVLink, is not.
func TestLayoutRefusedWarning(t *testing.T) {
	const frag = "m=deepseek-r1&p=fp8&e=sglang&n=8&tp=8&adp=8&xp=8&rps=10&g="
	for _, c := range []struct {
		gpu  string
		want bool
	}{{"mi300x", true}, {"h200-sxm", false}} {
		_, in, d := pageOf(t, frag+c.gpu, nil)
		if !d.R.OK || in.Job.In.DP != 8 || in.Job.In.EP != 8 {
			t.Fatalf("%s: not estimated with DP 8 EP 8: %+v", c.gpu, d.General)
		}
		if got := slices.Contains(d.R.HWWarn, MsgHWLayoutRefused); got != c.want {
			t.Errorf("%s: layout refused warning %v, want %v (%v)", c.gpu, got, c.want, d.R.HWWarn)
		}
	}
	for lang, m := range Messages {
		if !strings.Contains(m[MsgHWLayoutRefused], "EP") || !strings.Contains(m[MsgHWLayoutRefused], "DP") {
			t.Errorf("%s: %q", lang, m[MsgHWLayoutRefused])
		}
	}
}

// TestDisaggPastLimitOnThePage: where the only disaggregated deployment
// takes more instances than the planner's limit (DeepSeek-R1 FP8 on
// SGLang at 100 requests/s of 7,168-token prompts and 1,024-token replies,
// priced on CoreWeave's GB200 trays alone: 81 trays), the serving section
// says so in the page's words (no CLI flag), in every language, and
// offers no disaggregated launch.
func TestDisaggPastLimitOnThePage(t *testing.T) {
	cat := *catalog.Default()
	cat.Offers = slices.DeleteFunc(slices.Clone(cat.Offers), func(o catalog.Offer) bool { return o.GPU != "gb200" })
	pr := NewPrices(&cat, nil)
	for lang, want := range map[string]string{"en": "the page plans", "ru": "планирует страница", "zh": "超过页面规划的"} {
		s := ParseFragment("l="+lang+"&m=deepseek-r1&p=fp8&e=sglang&rps=100&s=8192&out=1024&g=gb200", DefaultState)
		d := Derive(s, nil, pr, nil, "")
		in := ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General}
		in.Plan = RunPlan(d.Job, pr)
		if in.Plan.Disagg == nil || !in.Plan.Disagg.PastLimit {
			t.Fatalf("%s: no disaggregated plan past the limit: %+v", lang, in.Plan.Disagg)
		}
		v := BuildView(in)
		if !strings.Contains(v.Serve.Disagg, want) || strings.Contains(v.Serve.Disagg, "--max-instances") {
			t.Errorf("%s: %q", lang, v.Serve.Disagg)
		}
		if _, err := LaunchDisagg(in.Job, pr, &in.Plan, launch.SGLang, launch.EngineRouter); err == nil {
			t.Errorf("%s: a launch of the disaggregated plan past the limit", lang)
		}
	}
}
