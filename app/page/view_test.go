package page

import (
	"reflect"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// viewOf builds the view of a link's job, planned.
func viewOf(t *testing.T, frag string, edit func(*ViewIn)) (View, ViewIn) {
	t.Helper()
	j, r, out := answer(t, frag)
	in := ViewIn{State: ParseFragment(frag, DefaultState), Job: j, R: r, Plan: out, Prices: NewPrices(catalog.Default(), nil)}
	if edit != nil {
		edit(&in)
	}
	return BuildView(in), in
}

func factOf(t *testing.T, facts []Fact, id string) Fact {
	t.Helper()
	for _, f := range facts {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no fact %s among %+v", id, facts)
	return Fact{}
}

// The default job's view: Llama 3.1 8B in bf16 on one H100, batch 1.
func TestBuildViewDefault(t *testing.T) {
	v, in := viewOf(t, "", nil)
	b := v.Result.Breakdown
	if b.Title != "Memory per GPU · Llama 3.1 8B · NVIDIA H100 SXM 80GB" || !b.Fits || !strings.HasPrefix(b.Verdict, "Fits · headroom ") {
		t.Errorf("breakdown %q %q fits %v", b.Title, b.Verdict, b.Fits)
	}
	// 8,030,261,248 parameters × 2 bytes = 14.96 GiB, the first part.
	if p := b.Parts[0]; p.ID != "rs-weights" || p.Value != "14.96 GiB" || p.Seg != 0 {
		t.Errorf("first part %+v", p)
	}
	permille := 0
	for i, p := range b.Parts {
		if p.Seg != i {
			t.Errorf("part %s: colour %d, want %d", p.ID, p.Seg, i)
		}
		permille += p.Permille
	}
	if permille < 990 || permille > 1010 {
		t.Errorf("the parts' shares add up to %d‰", permille)
	}
	if f := factOf(t, v.Result.Facts, "rs-params"); f.Value != "8,030,261,248 (8.03B)" {
		t.Errorf("params %q", f.Value)
	}
	if f := factOf(t, v.Result.Facts, "rs-max-seq"); f.Value != "131,072 (model limit)" {
		t.Errorf("longest sequence %q", f.Value)
	}
	// The engine on auto: vLLM, as the batch job's picks, and why, said
	// once, beside the memory (not again in the speed section's setup).
	const why = "auto: batch inference planned on vLLM (continuous batching, offline LLM.generate), the engine the launch runs"
	if v.Perf.Setup != "As set: 1 × NVIDIA H100 SXM 80GB · vLLM · Batch size 1" {
		t.Errorf("setup %q", v.Perf.Setup)
	}
	if f := factOf(t, v.Result.Facts, "rs-engine-run"); f.Value != "vLLM" || f.Detail != "Auto (as planned)" || EngineWhy(Locale{Lang: "en"}, in.Job) != why {
		t.Errorf("engine %+v", f)
	}
	// Where auto turns from the plans' engine, the memory says why.
	if p, _ := viewOf(t, "g=p100", nil); factOf(t, p.Result.Facts, "rs-engine-run").Value != "Hugging Face transformers" ||
		!strings.Contains(factOf(t, p.Result.Facts, "rs-engine-run").Detail, "vLLM does not run on Pascal GPUs") {
		t.Errorf("P100: engine %+v", factOf(t, p.Result.Facts, "rs-engine-run"))
	}
	// The planner's cheapest H100 plan, in the plan's currency.
	x, ok := in.Plan.Best("h100-sxm")
	if !ok {
		t.Fatal("no H100 plan")
	}
	l := Locale{Lang: "en"}
	best := factOf(t, v.Perf.Facts, "rs-cheapest")
	if best.Value != l.Money(in.Plan.FromUSD(x.PerMOutUSD), "USD") || !strings.Contains(best.Detail, "requests in flight") {
		t.Errorf("planner's best %+v", best)
	}
	if f := factOf(t, v.Perf.Facts, "rs-ttft"); f.Basis.Formula == "" || !strings.Contains(f.Basis.Inputs, "TFLOPS") {
		t.Errorf("TTFT basis %+v", f.Basis)
	}
	// The rules of thumb against HF transformers' batch as set: ×4 bytes
	// overshoots by far, ×1.2 is close.
	hf, _ := viewOf(t, "e=hf", nil)
	if f := factOf(t, hf.Result.Facts, "rs-engine-run"); f.Value != "Hugging Face transformers" || f.Detail != "" ||
		hf.Perf.Setup != "As set: 1 × NVIDIA H100 SXM 80GB · Hugging Face transformers · Batch size 1" {
		t.Errorf("e=hf: engine %+v, setup %q", f, hf.Perf.Setup)
	}
	rules := map[string]RuleRow{}
	for _, r := range hf.Rules.Rows {
		rules[r.Rule] = r
	}
	if r := rules["params-x4-bytes"]; !r.Bad || r.OffBy != "+87%" || r.Says != "29.92 GiB" {
		t.Errorf("params × 4 bytes: %+v", r)
	}
	if r := rules["weights-x1.2"]; r.Bad || r.OffBy != "+12%" {
		t.Errorf("weights × 1.2: %+v", r)
	}
	// On vLLM (auto) against the pool holding the batch, not the pool's
	// 0.9 of the GPU: ×1.2 is close again.
	for _, r := range v.Rules.Rows {
		if r.Rule == "weights-x1.2" && (r.Bad || r.OffBy != "−2%" || r.Estimate != "18.39 GiB") {
			t.Errorf("vLLM: weights × 1.2: %+v", r)
		}
	}
	if v.Fit.CostHeader != "Batch job cost · on-demand" || v.Offers.Title != "Where to rent · NVIDIA H100 SXM 80GB" {
		t.Errorf("headers %q %q", v.Fit.CostHeader, v.Offers.Title)
	}
}

// The fit table by cost: the cheapest pick's GPU first, then the planner's
// costs rising, rows the picks pass over after those they rest on, and GPUs
// without a plan last.
func TestBuildViewFitByCost(t *testing.T) {
	v, in := viewOf(t, "sort=cost&show=all-fit", nil)
	rows := v.Fit.Rows
	if len(rows) != len(in.R.Fit) {
		t.Fatalf("%d rows for %d GPUs", len(rows), len(in.R.Fit))
	}
	var cheapest string
	for _, p := range in.Plan.Picks {
		if p.Kind == PickCheapest {
			cheapest = p.Offer.GPU
		}
	}
	if rows[0].GPU != cheapest || !rows[0].Cheapest {
		t.Errorf("first row %s (cheapest %v), want the cheapest pick's %s", rows[0].GPU, rows[0].Cheapest, cheapest)
	}
	n := 0
	rank := func(r FitRow) (int, float64) {
		x, ok := in.Plan.Best(r.GPU)
		switch {
		case !ok:
			return 2, 0
		case x.PassedOver:
			return 1, x.Cost
		}
		return 0, x.Cost
	}
	for i, r := range rows {
		if r.Cheapest {
			n++
		}
		if i == 0 {
			continue
		}
		g0, c0 := rank(rows[i-1])
		g1, c1 := rank(r)
		if g1 < g0 || (g1 == g0 && g1 < 2 && c1 < c0) {
			t.Errorf("row %d (%s, %v %.2f) after (%s, %v %.2f)", i, r.GPU, g1, c1, rows[i-1].GPU, g0, c0)
		}
	}
	if n != 1 {
		t.Errorf("%d rows marked cheapest", n)
	}
	// By memory the same rows, in the catalog's size order.
	w, _ := viewOf(t, "show=all-fit", nil)
	for i, r := range w.Fit.Rows {
		if r.GPU != in.R.Fit[i].GPU.ID {
			t.Fatalf("by memory, row %d is %s, want %s", i, r.GPU, in.R.Fit[i].GPU.ID)
		}
	}
}

// The offers table: planned offers first, cheapest first, cut at
// OffersShown with the rest behind "show all".
func TestBuildViewOffers(t *testing.T) {
	v, in := viewOf(t, "", nil)
	all, _ := viewOf(t, "", func(in *ViewIn) { in.State = in.State.WithAll(SecOffers, true) })
	if len(v.Offers.Rows) != OffersShown || v.Offers.More != len(all.Offers.Rows)-OffersShown || all.Offers.More != 0 {
		t.Fatalf("%d rows and %d more; all: %d rows, %d more", len(v.Offers.Rows), v.Offers.More, len(all.Offers.Rows), all.Offers.More)
	}
	if !reflect.DeepEqual(v.Offers.Rows, all.Offers.Rows[:OffersShown]) {
		t.Error("the cut table is not the first rows of the whole one")
	}
	last, planned := 0.0, true
	for _, r := range all.Offers.Rows {
		x, ok := in.Plan.Row(r.ID)
		if ok != (r.Cmp >= 0) {
			t.Errorf("%s: planned %v, compare button %d", r.ID, ok, r.Cmp)
		}
		if ok && !planned {
			t.Errorf("%s: planned after an unplanned offer", r.ID)
		}
		planned = ok
		if ok {
			if x.Cost < last {
				t.Errorf("%s: cost %.2f after %.2f", r.ID, x.Cost, last)
			}
			last = x.Cost
			if r.Cost != in.Plan.Cells(Locale{Lang: "en"}, in.Job, x).Cost {
				t.Errorf("%s: cost %q is not the planner's", r.ID, r.Cost)
			}
		}
	}
	// Without a clock no price is graded, and stale prices are not flagged.
	for _, r := range all.Offers.Rows {
		if r.Age != 0 {
			t.Errorf("%s graded %d without a clock", r.ID, r.Age)
		}
	}
}

// The comparison's buttons: added, free, or full.
func TestBuildViewCompareButtons(t *testing.T) {
	v, _ := viewOf(t, "", nil)
	id := v.Offers.Rows[0].ID
	w, _ := viewOf(t, "", func(in *ViewIn) { in.Compare = []string{id} })
	if w.Offers.Rows[0].Cmp != 1 || w.Offers.Rows[1].Cmp != 0 {
		t.Errorf("one added: buttons %d %d, want 1 0", w.Offers.Rows[0].Cmp, w.Offers.Rows[1].Cmp)
	}
	full := []string{id}
	for len(full) < MaxCompare {
		full = append(full, "x"+strings.Repeat("y", len(full)))
	}
	w, _ = viewOf(t, "", func(in *ViewIn) { in.Compare = full })
	if w.Offers.Rows[0].Cmp != 1 || w.Offers.Rows[1].Cmp != 2 {
		t.Errorf("full: buttons %d %d, want 1 2", w.Offers.Rows[0].Cmp, w.Offers.Rows[1].Cmp)
	}
}

// While a plan for a changed job is on its way, the speed box's planner
// figures and their offer lines stay the last plan's, as the tables keep
// the last plan's costs, so nothing below them moves; with no plan held
// they wait ("…").
func TestBuildViewPending(t *testing.T) {
	v, _ := viewOf(t, "", nil)
	w, _ := viewOf(t, "", func(in *ViewIn) { in.Pending = true })
	for _, id := range []string{"rs-cheapest", "rs-cost-at-speed"} {
		if f, g := factOf(t, w.Perf.Facts, id), factOf(t, v.Perf.Facts, id); f != g || f.Detail == "" || strings.ContainsAny(f.Value, "…—") {
			t.Errorf("pending %s: %+v, planned %+v", id, f, g)
		}
	}
	if !reflect.DeepEqual(v.Fit, w.Fit) || !reflect.DeepEqual(v.Offers, w.Offers) {
		t.Error("the tables changed while the plan is pending")
	}
	// The first plan on its way: nothing held.
	y, _ := viewOf(t, "", func(in *ViewIn) { in.Plan, in.Pending = PlanOut{}, true })
	for _, id := range []string{"rs-cheapest", "rs-cost-at-speed"} {
		if f := factOf(t, y.Perf.Facts, id); f.Value != "…" || f.Detail != "" {
			t.Errorf("first plan pending %s: %+v", id, f)
		}
	}
	// No plan at all: "—".
	x, _ := viewOf(t, "", func(in *ViewIn) { in.Plan = PlanOut{} })
	if f := factOf(t, x.Perf.Facts, "rs-cheapest"); f.Value != "—" {
		t.Errorf("no plan: %+v", f)
	}
}

// The view speaks the state's language.
func TestBuildViewLanguage(t *testing.T) {
	for _, lang := range []string{"ru", "zh"} {
		v, _ := viewOf(t, "l="+lang, nil)
		if v.Lang != lang || v.Result.Breakdown.Lang != lang || !strings.HasPrefix(v.Result.Breakdown.Verdict, Tr(lang, MsgFits)) ||
			Tr(lang, MsgFits) == Tr("en", MsgFits) {
			t.Errorf("%s: %q %q", lang, v.Lang, v.Result.Breakdown.Verdict)
		}
		if v.Offers.Title != Tr(lang, MsgOffers)+" · NVIDIA H100 SXM 80GB" {
			t.Errorf("%s: offers title %q", lang, v.Offers.Title)
		}
	}
	// An unknown language reads as English.
	if v, _ := viewOf(t, "", func(in *ViewIn) { in.State[FieldLang] = "xx" }); v.Lang != "en" {
		t.Errorf("unknown language: %q", v.Lang)
	}
}

// BuildView is pure: the same input gives the same view, and the input is
// not changed (the plan's candidates keep their order).
func TestBuildViewPure(t *testing.T) {
	_, in := viewOf(t, "sort=cost", nil)
	cands := append([]Candidate(nil), in.Plan.Cands...)
	fit := append([]FitResult(nil), in.R.Fit...)
	a, b := BuildView(in), BuildView(in)
	if !reflect.DeepEqual(a, b) {
		t.Error("two views of one input differ")
	}
	if !reflect.DeepEqual(cands, in.Plan.Cands) || !reflect.DeepEqual(fit, in.R.Fit) {
		t.Error("BuildView changed its input")
	}
	// A job that does not read has no sections but its form.
	if v := BuildView(ViewIn{State: DefaultState}); !reflect.DeepEqual(v, View{Lang: "en", Answer: AnswerView{Kind: AnswerStale, Note: Tr("en", MsgFixToAnswer)}, Form: v.Form, Job: v.Job, Plans: v.Plans, Problems: v.Problems}) || len(v.Form.Fields) == 0 {
		t.Errorf("no result: %+v", v)
	}
}

// A training job: the speed box counts optimizer steps and the job's cost.
func TestBuildViewTraining(t *testing.T) {
	v, in := viewOf(t, "t=lora&tok=100M", nil)
	steps := factOf(t, v.Perf.Facts, "rs-steps")
	want := ceilDiv(in.Job.Tokens, in.R.Perf.P.TokensPerStep)
	if steps.Value != (Locale{Lang: "en"}).CountOrNone(int(want)) || want <= 0 {
		t.Errorf("steps %q, want %v", steps.Value, want)
	}
	if f := factOf(t, v.Perf.Facts, "rs-job-time"); f.Value == "" || f.Basis.Verify != Tr("en", MsgVerifyTrain) {
		t.Errorf("job time %+v", f)
	}
}

func TestSplitText(t *testing.T) {
	for _, c := range []struct {
		gpus, tp, pp, zero int
		want               string
		adp, ep, cp        int
	}{{1, 1, 1, 0, "", 0, 0, 0}, {2, 2, 1, 0, "TP 2", 0, 0, 0}, {16, 1, 16, 0, "PP 16", 0, 0, 0}, {8, 1, 1, 3, "DP 8 ZeRO-3", 0, 0, 0},
		{64, 8, 2, 1, "TP 8 · PP 2 · DP 4 ZeRO-1", 0, 0, 0},
		// Llama 3.1 8B past its 256-sequence batch: 256 replicas of TP 2 × CP 4.
		{2048, 2, 1, 1, "TP 2 · CP 4 · DP 256 ZeRO-1", 0, 0, 4},
		// DeepSeek-R1 on five 8-GPU copies at attention DP 8 and EP 8,
		// and one copy at EP 8 alone.
		{40, 8, 1, 0, "TP 8 · attn-DP 8 · EP 8 · DP 5", 8, 8, 0}, {8, 8, 1, 0, "TP 8 · EP 8", 0, 8, 0}} {
		p := Plan{GPUs: c.gpus, TP: c.tp, PP: c.pp, ZeRO: c.zero, AttnDP: c.adp, EP: c.ep, CP: c.cp}
		if got := SplitText(p); got != c.want {
			t.Errorf("%+v: %q, want %q", c, got, c.want)
		}
		if got, want := PlanSuffix("H100 SXM", p), " ("+c.want+")"; c.want != "" && got != want {
			t.Errorf("%+v: suffix %q, want %q", c, got, want)
		}
	}
	if en := (Locale{Lang: "en"}); InstancesOf(en, 1, 0) != "" || InstancesOf(en, 3, 0) != " ×3" {
		t.Error("instances")
	}
}

func TestReservedText(t *testing.T) {
	l := Locale{Lang: "en"}
	for _, c := range []struct {
		r1, r3 float64
		want   string
	}{{0, 0, "—"}, {8.1591, 0, "$8.16\u00a01y"}, {0, 8.1591, "$8.16\u00a03y"}, {12, 8.1591, "$12.00\u00a01y\u00a0· $8.16\u00a03y"}} {
		if got := ReservedText(l, c.r1, c.r3, "USD"); got != c.want {
			t.Errorf("%v %v: %q, want %q", c.r1, c.r3, got, c.want)
		}
	}
	// The cell wraps between terms, not inside one (the offers table ran
	// past its frame at 1280 px with the reserved column unwrapped).
	if got, want := ReservedText(Locale{Lang: "ru"}, 40.45, 20.7, "USD"), "40,45\u00a0$\u00a01\u00a0г.\u00a0· 20,70\u00a0$\u00a03\u00a0г."; got != want {
		t.Errorf("ru: %q, want %q", got, want)
	}
}

// A price's labels: dated, graded on the page's clock, "verify" when stale,
// estimated or undated.
func TestPriceLabelsOf(t *testing.T) {
	l := Locale{Lang: "en"}
	for _, c := range []struct {
		name         string
		o            planner.Offer
		stale, clock bool
		verify, age  bool
	}{
		{"fresh", planner.Offer{AsOf: "2026-11-01", PriceAgeDays: 27}, false, true, false, true},
		{"stale", planner.Offer{AsOf: "2025-10-01", PriceAgeDays: 400}, true, true, true, true},
		{"stale, no clock", planner.Offer{AsOf: "2025-10-01", PriceAgeDays: -1}, true, false, false, false},
		{"estimated, no clock", planner.Offer{AsOf: "2025-10-01", AsOfEstimated: true, PriceAgeDays: -1}, false, false, true, false},
		{"undated", planner.Offer{PriceAgeDays: -1}, false, true, true, false},
		{"the user's own, undated", planner.Offer{PriceAgeDays: -1, UserPrice: true}, false, true, false, false},
		{"the user's own, old", planner.Offer{AsOf: "2025-10-01", PriceAgeDays: 400, UserPrice: true}, false, true, false, false},
	} {
		p := PriceLabelsOf(l, &c.o, c.stale, c.clock)
		if (p.Verify != "") != c.verify || (p.Age != "") != c.age {
			t.Errorf("%s: %+v", c.name, p)
		}
		if c.verify && c.o.AsOf != "" && !strings.Contains(p.Verify, c.o.AsOf[:7]) {
			t.Errorf("%s: verify %q lacks the month", c.name, p.Verify)
		}
		if c.o.AsOfEstimated && !strings.Contains(p.Date, Tr("en", MsgEstimatedDate)) {
			t.Errorf("%s: date %q", c.name, p.Date)
		}
	}
}

func TestErrText(t *testing.T) {
	e := FieldErr{Key: MsgNotNumber, Value: "abc", Detail: "strconv: invalid"}
	if got := ErrText("en", e); got != Tr("en", MsgNotNumber)+": “abc”: strconv: invalid" {
		t.Errorf("en: %q", got)
	}
	// Each language's quotes and colon: «» in Russian, a full-width
	// colon in Chinese.
	if got := ErrText("ru", e); got != Tr("ru", MsgNotNumber)+": «abc»" {
		t.Errorf("ru: %q", got)
	}
	if got := ErrText("zh", e); got != Tr("zh", MsgNotNumber)+"：“abc”" {
		t.Errorf("zh: %q", got)
	}
}

// TestRowPlanLayout: a planner row's attention-DP and EP layout reaches
// the page's shape label; 1 means none, as 0 does.
func TestRowPlanLayout(t *testing.T) {
	r := planner.Row{GPUs: 40, TP: 8, PP: 1, DP: 1, AttnDP: 8, EP: 8}
	if got := PlanSuffix("H100", RowPlan(&r, estimator.Input{})); got != " (TP 8 · attn-DP 8 · EP 8 · DP 5)" {
		t.Errorf("DP 8 EP 8 row: %q", got)
	}
	r.AttnDP, r.EP = 1, 1
	if p := RowPlan(&r, estimator.Input{}); p != (Plan{GPUs: 40, TP: 8, PP: 1}) || PlanSuffix("H100", p) != " (TP 8 · DP 5)" {
		t.Errorf("TP-only row: %+v %q", p, PlanSuffix("H100", p))
	}
}

// TestGPULabelOneBracket: a GPU name that ends in brackets of its own
// takes its layout after a comma, never a second pair of brackets.
func TestGPULabelOneBracket(t *testing.T) {
	gb := "NVIDIA GB200 (one Blackwell GPU)"
	for _, c := range []struct {
		name string
		p    Plan
		want string
	}{
		{gb, Plan{GPUs: 4, TP: 1, PP: 1}, gb + ", DP 4"},
		{gb, Plan{GPUs: 8, TP: 4, PP: 1, ZeRO: 3}, gb + ", TP 4 · DP 2 ZeRO-3"},
		{gb, Plan{GPUs: 1, TP: 1, PP: 1}, gb},
		{"NVIDIA H100 SXM", Plan{GPUs: 4, TP: 4, PP: 1}, "NVIDIA H100 SXM (TP 4)"},
	} {
		if got := GPULabel(c.name, c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestFitNeedIsPlannersFewest: a 70B full fine-tune's fit table gave the
// A100 80GB SXM "46" GPUs as "PP 46", a 46-stage pipeline at the job's
// ZeRO 0, beside a priced plan and the A100 PCIe's row, both of which hold
// the job on 16 GPUs under ZeRO-3. The row says the planner's fewest and
// its layout. The planner's fewest leave the memory estimate's error free
// (trainMemoryMargin): 24 A100s (16 left too little); on B300 the
// planner's fewest, 8, are more than the 6 the memory search finds at the
// job's own ZeRO 0, which the row then shows.
func TestFitNeedIsPlannersFewest(t *testing.T) {
	v, _ := viewOf(t, "t=finetune&m=llama-3.1-70b", nil)
	want := map[string][2]string{"a100-80gb-sxm": {"24", "DP 24 ZeRO-3"}, "a100-80gb-pcie": {"24", "DP 24 ZeRO-3"},
		"b300": {"6", "PP 6"}}
	for _, r := range v.Fit.Rows {
		if w, ok := want[r.GPU]; ok && (r.Need != w[0] || r.Split != w[1]) {
			t.Errorf("%s: need %q, split %q; want %q, %q", r.GPU, r.Need, r.Split, w[0], w[1])
		}
	}
}

// TestPickCardsOneBracket: a pick card names a GPU or a provider whose
// name ends in brackets ("NVIDIA B300 (Blackwell Ultra)", "Verda
// (formerly DataCrunch)") without a second pair after it: the cards read
// "Verda (formerly DataCrunch) (GPU cloud)". A card names the kind of a
// broker, marketplace or network only: hyperscalers and GPU clouds, where
// every plan rents by default, take none (a third line on a phone).
func TestPickCardsOneBracket(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		v, _, _ := pageOf(t, "t=lora&m=llama-3.1-70b&l="+lang, nil)
		for _, c := range v.Answer.Picks {
			for _, s := range []string{c.What, c.Where} {
				if strings.Contains(s, ") (") || strings.Contains(s, ")（") {
					t.Errorf("%s: %q", lang, s)
				}
			}
		}
		l := Locale{Lang: lang}
		// Chinese joins the kind with its full-width comma (Locale.Aside).
		name := "Verda (formerly DataCrunch)"
		if got, want := kindText(l, name, &planner.Offer{ProviderKind: catalog.KindBroker}), map[bool]string{true: "，", false: ", "}[lang == "zh"]+l.KindLabel(catalog.KindBroker); got != want {
			t.Errorf("%s: %q after %q, want %q", lang, got, name, want)
		}
		if got := kindText(l, name, &planner.Offer{ProviderKind: catalog.KindGPUCloud}); got != "" {
			t.Errorf("%s: a GPU cloud's card says %q", lang, got)
		}
	}
}

// TestJobLineChinesePunctuation: the Chinese job line takes the
// full-width colon and semicolon ("规划对象：… token；下方内存与速度基于："),
// as the page's other Chinese sentences do; it read "规划对象: ". So do
// the lines that label a setup (the speed box's "按设置：").
func TestJobLineChinesePunctuation(t *testing.T) {
	for lang, want := range map[string][]string{
		"zh": {Tr("zh", MsgJobFor) + "：", "；" + Tr("zh", MsgJobSetupOn) + "："},
		"en": {Tr("en", MsgJobFor) + ": ", "; " + Tr("en", MsgJobSetupOn) + ": "},
	} {
		v, _, _ := pageOf(t, "l="+lang, nil)
		var line strings.Builder
		for _, p := range v.Job.Parts {
			line.WriteString(p.Text)
		}
		for _, w := range want {
			if !strings.Contains(line.String(), w) {
				t.Errorf("%s: the job line %q lacks %q", lang, line.String(), w)
			}
		}
		if w := Tr(lang, MsgAsSet) + (Locale{Lang: lang}).Colon(); !strings.HasPrefix(v.Perf.Setup, w) {
			t.Errorf("%s: the speed box's setup %q, want %q…", lang, v.Perf.Setup, w)
		}
	}
}

// A fine-tune named by a Lightning precision says, beside its memory,
// which of LitGPT's defaults it took, in each language; a bf16 one (HF
// Trainer) has no such fact.
func TestBuildViewStackDefaults(t *testing.T) {
	const frag = "m=llama-2-7b&t=lora&p=bf16-true&g=a100-40gb-sxm&n=2&b=1&s=1304"
	want := map[string][2]string{
		"en": {"LitGPT's defaults", "LitGPT's fine-tune scripts"},
		"ru": {"Настройки LitGPT по умолчанию", "скриптами дообучения LitGPT"},
		"zh": {"LitGPT 的默认设置", "LitGPT 的微调脚本"},
	}
	for lang, w := range want {
		v, _ := viewOf(t, frag+"&l="+lang, nil)
		f := factOf(t, v.Result.Facts, "rs-stack-defaults")
		if f.Label != w[0] || f.Value != "--global-batch 16 --zero 3 --grad-checkpointing --loss-chunks 11 --keeps-last-graph --litgpt-attention --optimizer-impl foreach --lora-rank 8 --lora-targets query-value --lora-fused-qkv --adapter-dtype bf16" ||
			!strings.Contains(f.Detail, w[1]) || !strings.Contains(f.Detail, "00af8b0d") {
			t.Errorf("%s: %+v", lang, f)
		}
	}
	v, _ := viewOf(t, "m=llama-2-7b&t=lora&p=bf16&g=a100-40gb-sxm&n=2&b=1&s=1304", nil)
	for _, f := range v.Result.Facts {
		if f.ID == "rs-stack-defaults" {
			t.Errorf("bf16 LoRA: %+v", f)
		}
	}
}
