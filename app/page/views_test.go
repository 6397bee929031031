package page

import (
	"math"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/estimator/sim"
)

// pageOf derives and plans a link's state as the page does and builds its
// view; edit changes the view's input before the build.
func pageOf(t *testing.T, frag string, edit func(*ViewIn)) (View, ViewIn, Derived) {
	t.Helper()
	pr := NewPrices(catalog.Default(), nil)
	s := ParseFragment(frag, DefaultState)
	d := Derive(s, nil, pr, nil, "")
	in := ViewIn{State: s, Job: d.Job, R: d.R, Prices: pr, Errs: d.Errs, General: d.General}
	if d.R.OK {
		in.Plan = RunPlan(d.Job, pr)
	}
	if edit != nil {
		edit(&in)
	}
	return BuildView(in), in, d
}

// TestComparisonCellsAreTheTables: a plan added to the comparison shows
// the cells its row shows in the offers table (cost, time, price date)
// and in the fit table (cost of the GPU's cheapest plan, VRAM): one
// formatter, one story. Checked on a batch job, a LoRA job, a serving job
// and a job priced in euros.
func TestComparisonCellsAreTheTables(t *testing.T) {
	for _, frag := range []string{"", "t=lora&tok=100M", "m=mistral-7b-v0.3&rps=20&ttft=1000", "g=a100-80gb-sxm&e=vllm&b=32&cur=EUR"} {
		v, in, _ := pageOf(t, frag, nil)
		var want []OfferRow
		for _, r := range v.Offers.Rows {
			if r.Cmp >= 0 && len(want) < 2 {
				want = append(want, r)
			}
		}
		var fit FitRow
		for _, r := range v.Fit.Rows {
			if r.Offer != "" && r.GPU != in.Job.GPU.ID {
				fit = r
				break
			}
		}
		if len(want) == 0 || fit.Offer == "" {
			t.Fatalf("%q: no planned offer (%d) or no other GPU with a plan (%q)", frag, len(want), fit.Offer)
		}
		ids := []string{want[0].ID}
		if len(want) > 1 {
			ids = append(ids, want[1].ID)
		}
		ids = append(ids, fit.Offer)
		in.Compare = ids
		p := BuildView(in).Plans
		if len(p.Cols) != len(ids) || p.Title == "" || p.Labels[0] == "" || p.Note != "" || p.Full != "" {
			t.Fatalf("%q: comparison %+v", frag, p)
		}
		for i, r := range want {
			x := p.Cols[i]
			if !x.OK || x.ID != r.ID || x.Cost != r.Cost || x.Time != r.Time || x.AsOf != r.AsOf {
				t.Errorf("%q: %s in the comparison: %q, %q, %q; in the offers table: %q, %q, %q", frag, r.ID, x.Cost, x.Time, x.AsOf, r.Cost, r.Time, r.AsOf)
			}
			if x.VRAM != in.Prices.GPUVRAM(Locale{Lang: "en", Units: in.Job.Units}, in.Job.GPU.ID) {
				t.Errorf("%q: %s VRAM %q", frag, r.ID, x.VRAM)
			}
		}
		if x := p.Cols[len(p.Cols)-1]; x.Cost != fit.Cost || x.VRAM != fit.VRAM {
			t.Errorf("%q: %s in the comparison: %q, %q; in the fit table: %q, %q", frag, fit.Offer, x.Cost, x.VRAM, fit.Cost, fit.VRAM)
		}
	}
	// An offer without a plan for the job: its column says so; a full
	// comparison says it holds MaxCompare plans.
	_, in, _ := pageOf(t, "", nil)
	in.Compare, in.CompareFull = []string{"no-such-offer"}, true
	p := BuildView(in).Plans
	if c := p.Cols[0]; c.OK || c.Cost != "—" || c.Title != "no-such-offer" || p.Note != Tr("en", MsgCompareNoPlan) || !strings.Contains(p.Full, "4") {
		t.Errorf("unplanned column %+v, note %q, full %q", c, p.Note, p.Full)
	}
}

// TestServeView: the serving section's fleet is the planner's cheapest
// serving plan, its facts the plan's own figures, with what set its size;
// a batch job has no serving section.
func TestServeView(t *testing.T) {
	v, in, _ := pageOf(t, "m=mistral-7b-v0.3&rps=20&ttft=1000", nil)
	s := v.Serve
	x := in.Plan.Serve
	if !s.Shown || !x.OK {
		t.Fatalf("no serving section: %+v", in.Plan.Err)
	}
	l := Locale{Lang: "en", Units: in.Job.Units}
	if !strings.HasPrefix(s.Best.Name, Tr("en", MsgFleetOf)+": ") || !strings.Contains(s.Best.Name, x.Offer.InstanceType) || !strings.Contains(s.Best.Name, x.Engine.Label()) {
		t.Errorf("fleet named %q", s.Best.Name)
	}
	want := map[string]string{
		"rs-replicas": l.Count(int64(x.Replicas)), "rs-fleet-gpus": l.Count(int64(x.GPUs)),
		"rs-serve-ttft": l.Duration(x.TTFTP95), "rs-monthly": l.Money(x.Monthly, in.Plan.Currency),
	}
	for id, value := range want {
		if f := factOf(t, s.Best.Facts, id); f.Value != value {
			t.Errorf("%s: %q, want %q", id, f.Value, value)
		}
	}
	if x.Sized != (s.Best.Binds != "") || (x.Sized && !strings.Contains(s.Best.Binds, ShortRate(l, 20))) {
		t.Errorf("sized %v, binding %q", x.Sized, s.Best.Binds)
	}
	if x.Sized && x.Binding == sim.BindTTFT && !strings.HasPrefix(s.Best.Binds, Fill(Tr("en", MsgBindTTFT), ShortRate(l, 20))) {
		t.Errorf("a TTFT-bound fleet says %q", s.Best.Binds)
	}
	if in.Plan.Load.OK != (s.Chart.Title != "") {
		t.Errorf("latency chart %v, simulated load %v", s.Chart.Title != "", in.Plan.Load.OK)
	}
	if s.Daily.Shown {
		t.Error("a daily fleet without a load curve")
	}
	if d := in.Plan.Disagg; d == nil || s.DisaggTitle != Tr("en", MsgDisaggTitle) || !strings.HasPrefix(s.Disagg, "It ") || !strings.Contains(s.Disagg, d.Offer.InstanceType) {
		t.Errorf("disaggregated line %q under %q", s.Disagg, s.DisaggTitle)
	}
	if batch, _, _ := pageOf(t, "", nil); batch.Serve.Shown {
		t.Error("the batch job has a serving section")
	}
	ru, _, _ := pageOf(t, "m=mistral-7b-v0.3&rps=20&ttft=1000&l=ru", nil)
	if ru.Serve.Title != Tr("ru", MsgServeTitle) || ru.Serve.Best.Facts[0].Label == s.Best.Facts[0].Label {
		t.Errorf("the Russian serving section reads %q / %q", ru.Serve.Title, ru.Serve.Best.Facts[0].Label)
	}
}

// TestPinView: the pin compares the pinned job with the live one, row by
// row, each side's cost being its own plan's.
func TestPinView(t *testing.T) {
	_, pinIn, pinD := pageOf(t, "g=a100-80gb-sxm", nil)
	v, in, _ := pageOf(t, "", func(in *ViewIn) {})
	if len(v.Pinned.Rows) != 0 {
		t.Fatal("a pin comparison without a pin")
	}
	in.Pin = &PinIn{Job: pinD.Job, R: pinD.R, Plan: pinIn.Plan}
	p := BuildView(in).Pinned
	if p.Title == "" || len(p.Rows) != 9 {
		t.Fatalf("pin comparison %+v", p)
	}
	l := Locale{Lang: "en", Units: in.Job.Units}
	// The task is named as the form names it, in the page's language.
	if r := p.Rows[1]; r.Pinned != "Inference" || r.Live != "Inference" {
		t.Errorf("task row %+v", r)
	}
	in.State[FieldLang] = "ru"
	if r := BuildView(in).Pinned.Rows[1]; r.Pinned != "Инференс" || r.Live != "Инференс" {
		t.Errorf("Russian task row %+v", r)
	}
	in.State[FieldLang] = "en"
	if r := p.Rows[3]; !strings.Contains(r.Pinned, "A100") || !strings.Contains(r.Live, "H100") {
		t.Errorf("GPU row %+v", r)
	}
	if r := p.Rows[4]; r.Pinned != l.Bytes(pinD.R.Res.Peak) || r.Live != l.Bytes(in.R.Res.Peak) {
		t.Errorf("memory row %+v", r)
	}
	pinBest, ok1 := pinIn.Plan.Best(pinD.Job.GPU.ID)
	liveBest, ok2 := in.Plan.Best(in.Job.GPU.ID)
	if r := p.Rows[7]; !ok1 || !ok2 || !strings.HasPrefix(r.Pinned, l.Money(pinBest.Cost, pinIn.Plan.Currency)) || !strings.HasPrefix(r.Live, l.Money(liveBest.Cost, in.Plan.Currency)) {
		t.Errorf("cost row %+v", r)
	}
	in.Pending = true
	if r := BuildView(in).Pinned.Rows[7]; r.Pinned != "—" || r.Live != "—" {
		t.Errorf("costs while the plan is pending: %+v", r)
	}
}

// TestViewProblemsAndFresh: the job's own problems are said in the page's
// language, and the footer's count of offers by age needs the page's clock.
func TestViewProblemsAndFresh(t *testing.T) {
	v, in, _ := pageOf(t, "", nil)
	if v.Fresh != "" || len(v.Problems) != 0 {
		t.Errorf("default view: fresh %q, problems %q", v.Fresh, v.Problems)
	}
	now, err := time.Parse(time.DateOnly, in.Prices.Cat.NewestAsOf())
	if err != nil {
		t.Fatal(err)
	}
	in.Now = now
	f := BuildView(in).Fresh
	if !strings.Contains(f, " "+strconv.Itoa(len(in.Prices.Cat.Offers))+" ") {
		t.Errorf("footer %q lacks the %d offers", f, len(in.Prices.Cat.Offers))
	}
	in.General = []FieldErr{{Key: MsgNoModel}}
	if p := BuildView(in).Problems; len(p) != 1 || p[0] != ErrText("en", FieldErr{Key: MsgNoModel}) {
		t.Errorf("problems %q", p)
	}
}

// TestPerfAndCost: the speed box's job time is the estimator's, the
// planner's cost scales with the tokens, bad counts are refused next to
// their fields, and a job that cannot run has no speed.
func TestPerfAndCost(t *testing.T) {
	if _, _, d := pageOf(t, "", nil); !d.R.Perf.OK || d.R.Perf.P.TimeToFirstToken <= 0 {
		t.Fatalf("default inference: %+v", d.R.Perf)
	}
	_, in, d := pageOf(t, "t=finetune&n=8&z=3", nil)
	if !d.R.Perf.OK {
		t.Fatalf("8×H100 ZeRO-3 fine-tune: no speed estimate (%v %v)", d.Errs, d.General)
	}
	hw, _ := d.Job.GPU.Hardware(d.Job.In.Weights)
	p, err := estimator.Throughput(d.Job.In, hw, estimator.Efficiency{}, estimator.Workload{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.R.Perf.Seconds, estimator.JobTime(p, 1e9); got != want {
		t.Errorf("job time %v, want %v", got, want)
	}
	one, ok := in.Plan.Best(d.Job.GPU.ID)
	if !ok || one.Cost <= 0 {
		t.Fatalf("no planned H100 cost: %+v", in.Plan.Err)
	}
	_, in2, _ := pageOf(t, "t=finetune&n=8&z=3&tok=2B", nil)
	// Twice the tokens, about twice the cost: each job also pays a fixed
	// part of its time (0.167 h in rightsize plan's H100 rows of an 8B
	// fine-tune), a larger share of the shorter jobs of the plans that
	// leave the memory estimate's error free (trainMemoryMargin).
	if two, _ := in2.Plan.Best(d.Job.GPU.ID); math.Abs(two.Cost/one.Cost-2) > 0.03 {
		t.Errorf("twice the tokens cost %.3f× as much", two.Cost/one.Cost)
	}
	if _, _, d := pageOf(t, "t=finetune&tok=lots", nil); d.Errs[FieldTrainTokens].Key != MsgNotCount {
		t.Errorf("training tokens lots: error %v", d.Errs[FieldTrainTokens])
	}
	if _, _, d := pageOf(t, "out=2048", nil); d.Errs[FieldOutput].OK() {
		t.Error("generating the whole 2,048-token sequence left no prompt but no error")
	}
	if v, _, d := pageOf(t, "g=rtx-pro-6000", nil); !d.R.Perf.OK || v.Perf.NoPerf {
		t.Error("the RTX PRO 6000, with datasheet figures, got no speed estimate")
	}
	// 16 GiB of weights do not fit one T4: no speed for a job that cannot run.
	if v, _, d := pageOf(t, "g=t4", nil); d.R.Perf.OK || !v.Perf.NoPerf {
		t.Error("a job that does not fit got a speed estimate")
	}
}

// TestHiddenFields: a field the job does not use is hidden and its bad
// text blocks nothing; the same text blocks the job that uses it.
func TestHiddenFields(t *testing.T) {
	v, _, d := pageOf(t, "t=finetune&r=abc", nil)
	if !d.R.OK {
		t.Fatalf("hidden LoRA rank blocked a full fine-tune: %v %v", d.Errs, d.General)
	}
	for f, want := range map[Field]bool{FieldLoRARank: false, FieldOptimizer: true, FieldEngine: false, FieldMemUtil: false} {
		if got := hasField(append(v.Form.Fields, v.Form.Overrides.Fields...), f); got != want {
			t.Errorf("finetune form: %s shown = %v, want %v", FieldNames[f], got, want)
		}
	}
	if _, _, d := pageOf(t, "t=lora&r=abc", nil); d.R.OK || d.Errs[FieldLoRARank].Key != MsgNotNumber {
		t.Errorf("LoRA with rank abc: result %v, error %v", d.R.OK, d.Errs[FieldLoRARank])
	}
	_, _, attn := pageOf(t, "t=lora&r=16", nil)
	if _, _, all := pageOf(t, "t=lora&r=16&lt=all-linear", nil); all.R.Res.TrainableParams <= attn.R.Res.TrainableParams {
		t.Errorf("all-linear LoRA trains %d parameters, attention-only %d", all.R.Res.TrainableParams, attn.R.Res.TrainableParams)
	}
	v, _, _ = pageOf(t, "e=vllm", nil)
	if !hasField(v.Form.Overrides.Fields, FieldMaxBatched) || hasField(v.Form.Fields, FieldOptimizer) {
		t.Error("vLLM inference form: want max_num_batched_tokens, no optimizer")
	}
}

// TestDefaultJob: Llama 3.1 8B in bf16 on an H100 at batch 1: its
// parameters and weights, the fit table's verdicts and plans (two T4s
// split the model with vLLM's tensor parallelism, the engine on auto;
// the planner's T4 plan in one instance), the T4's offers and its bf16
// warning.
func TestDefaultJob(t *testing.T) {
	_, in, d := pageOf(t, "", nil)
	l := Locale{Lang: "en", Units: d.Job.Units}
	if d.R.Res.Params != 8030261248 || l.Bytes(d.R.Res.PerGPU.Weights) != "14.96 GiB" || !d.R.Res.Fits {
		t.Errorf("params %d, weights %s, fits %v", d.R.Res.Params, l.Bytes(d.R.Res.PerGPU.Weights), d.R.Res.Fits)
	}
	if len(d.R.Fit) < 30 {
		t.Fatalf("fit table has %d GPUs", len(d.R.Fit))
	}
	fit := map[string]FitResult{}
	for _, f := range d.R.Fit {
		fit[f.GPU.ID] = f
	}
	// 16 GiB of bf16 weights cannot fit a 16 GB T4, but two T4s can.
	if t4, h100 := fit["t4"], fit["h100-sxm"]; t4.Fits || t4.Plan.GPUs != 2 || SplitText(t4.Plan) != "TP 2" || !h100.Fits || h100.Plan.GPUs != 1 {
		t.Errorf("t4 %+v, h100 %+v", t4.Plan, h100.Plan)
	}
	// At least the two GPUs that hold the job, in one instance (two
	// single-T4 instances with no named network between them are no plan).
	if x, ok := in.Plan.Best("t4"); !ok || x.Plan.GPUs < 2 || x.Instances != 1 {
		t.Errorf("the planner's T4 plan: %+v", x)
	}
	if len(d.R.Offers) == 0 {
		t.Error("no H100 offers listed")
	}
	_, _, d = pageOf(t, "g=t4", nil)
	if d.R.Res.Fits || d.R.Need != 2 || len(d.R.Offers) == 0 {
		t.Fatalf("t4: fits %v, need %d, %d offers", d.R.Res.Fits, d.R.Need, len(d.R.Offers))
	}
	for _, o := range d.R.Offers {
		if o.Offer.GPUCount < 2 && o.Holds {
			t.Errorf("single-T4 offer %s holds a two-GPU job", o.Offer.ID)
		}
	}
	// bf16 on a T4 (Turing, no bf16 units) is flagged.
	if !slices.Contains(d.R.HWWarn, MsgHWNoBF16) {
		t.Errorf("bf16 on a T4: warnings %v", d.R.HWWarn)
	}
}

// TestServing: a request rate makes a serving plan whose cheapest fleet
// meets the targets and whose bill is the cheapest pick's; no rate, no
// serving plan; the bill is in the currency asked for; bad targets and
// currencies are refused next to their fields.
func TestServing(t *testing.T) {
	v, in, d := pageOf(t, "e=vllm&rps=20", nil)
	x := in.Plan.Serve
	if in.Plan.Kind != planner.Serving || !x.OK || x.Replicas < 1 || x.Monthly <= 0 {
		t.Fatalf("serving 20 req/s: %+v (%v %v %v)", x, d.Errs, d.General, in.Plan.Err)
	}
	// The TTFT field is empty: the target in effect is the planner's
	// default for the prompt (2 s).
	if w := PlanRequest(d.Job).Workload; w.TTFTP95Seconds != 2 || x.TTFTP95 > w.TTFTP95Seconds || x.TPOT > d.Job.TPOT {
		t.Errorf("the cheapest plan misses the targets (TTFT %v s): %+v", w.TTFTP95Seconds, x)
	}
	if x.Monthly != in.Plan.Picks[0].Cost || !v.Serve.Shown || !hasField(v.Form.Fields, FieldRPS) {
		t.Errorf("monthly bill %v, cheapest pick %v; section %v", x.Monthly, in.Plan.Picks[0].Cost, v.Serve.Shown)
	}
	if _, _, d := pageOf(t, "e=vllm&rps=20&ttft=abc", nil); d.Errs[FieldTTFT].Key != MsgNotNumber {
		t.Errorf("ttft abc: %v", d.Errs[FieldTTFT])
	}
	if _, in, _ := pageOf(t, "e=vllm", nil); in.Plan.Serve.OK || in.Plan.Kind != planner.Batch {
		t.Error("serving planned without a request rate")
	}
	if _, in, _ := pageOf(t, "e=vllm&rps=20&cur=EUR", nil); in.Plan.Currency != "EUR" {
		t.Errorf("currency %q", in.Plan.Currency)
	}
	if _, _, d := pageOf(t, "cur=XXX", nil); d.Errs[FieldCurrency].OK() {
		t.Error("an unknown currency was accepted")
	}
}

// TestPicks: the cheapest pick costs least of the offers it may pick
// (stale or far-below-median prices are passed over), the fastest takes
// least time of the plans within twice its cost (planner.AltCostBound),
// nothing dominates the value pick, and the reason says why in the page's
// language.
func TestPicks(t *testing.T) {
	_, in, _ := pageOf(t, "", nil)
	out := &in.Plan
	if !out.OK || len(out.Picks) != 3 {
		t.Fatalf("plan %v: %d picks (%v)", out.OK, len(out.Picks), out.Err)
	}
	cheap, fast, value := out.Picks[0], out.Picks[1], out.Picks[2]
	for _, x := range out.Cands {
		if x.PassedOver {
			continue
		}
		// Cheaper to the cent only within the planner's 1% cost tie, and
		// then slower: the faster plan wins a tie.
		if math.Round(100*x.Cost) < math.Round(100*cheap.Cost) && (x.Cost*1.01 < cheap.Cost || x.Seconds <= cheap.Seconds) {
			t.Errorf("%s costs %v, less than the cheapest pick %v, in %v s against %v s", x.Offer.ID, x.Cost, cheap.Cost, x.Seconds, cheap.Seconds)
		}
		// Faster only within the planner's tie for the fastest, or
		// dearer than the faster alternative may be.
		if x.Seconds*(1+planner.FastestTolerance(in.Plan.Kind)) < fast.Seconds && x.Cost <= cheap.Cost*planner.AltCostBound {
			t.Errorf("%s takes %v, under the fastest pick's %v by more than the tie", x.Offer.ID, x.Seconds, fast.Seconds)
		}
		if x.Cost < value.Cost && x.Seconds < value.Seconds {
			t.Errorf("%s dominates the value pick %s", x.Offer.ID, value.Offer.ID)
		}
	}
	if cheap.Kind != PickCheapest || fast.Kind != PickFastest || value.Kind != PickValue {
		t.Errorf("picks: %v %v %v", cheap.Kind, fast.Kind, value.Kind)
	}
	if out.Kind != planner.Batch || !strings.HasPrefix(cheap.Why.Key.String(), planner.MsgReasonCheapest.String()) {
		t.Errorf("default page: kind %v, cheapest reason %q", out.Kind, cheap.Why.Key)
	}
	ru, en := Locale{Lang: "ru"}.Reason(cheap.Why), Locale{Lang: "en"}.Reason(cheap.Why)
	if ru == en || !strings.Contains(ru, "самый дешёвый") && !strings.Contains(ru, "единственный") {
		t.Errorf("the cheapest reason in Russian: %q", ru)
	}
}

// TestRulesOfThumb: the guides' rules against the estimate: params × 4
// bytes and weights × 1.2 for the default job on HF transformers, a third
// rule for a full fine-tune, each against the estimate's own total (on a
// pooled engine, the pool holding the batch: estimator.RuleChecks).
func TestRulesOfThumb(t *testing.T) {
	_, _, d := pageOf(t, "e=hf", nil)
	l := Locale{Lang: "en", Units: d.Job.Units}
	if len(d.R.Rules) != 2 {
		t.Fatalf("%d rules on the default page", len(d.R.Rules))
	}
	if got := l.Bytes(d.R.Rules[0].Bytes); got != "29.92 GiB" {
		t.Errorf("params×4 = %s", got)
	}
	if got := l.Bytes(d.R.Rules[1].Bytes); got != "17.95 GiB" {
		t.Errorf("weights×1.2 = %s", got)
	}
	if d.R.Rules[0].Estimate != d.R.Res.PerGPU.Total() {
		t.Errorf("one-GPU estimate %d, page total %d", d.R.Rules[0].Estimate, d.R.Res.PerGPU.Total())
	}
	for f, want := range map[float64]string{0.8712: "+87%", -0.234: "−23%", 0: "+0%"} {
		if got := l.SignedPercent(f); got != want {
			t.Errorf("SignedPercent(%v) = %q, want %q", f, got, want)
		}
	}
	if _, _, d := pageOf(t, "t=finetune", nil); len(d.R.Rules) != 3 {
		t.Errorf("%d rules for a full fine-tune, want 3", len(d.R.Rules))
	}
}

// TestShipsFP8: serving DeepSeek-R1, whose checkpoint stores FP8 weights,
// at 16 bits is flagged next to its results; at fp8, or when training,
// it is not, and a 16-bit checkpoint never is.
func TestShipsFP8(t *testing.T) {
	for _, tc := range []struct {
		frag string
		want bool
	}{
		{"m=deepseek-r1&n=16&e=vllm&p=bf16", true},
		{"m=deepseek-r1&n=8&e=vllm&p=fp8", false},
		{"m=deepseek-r1&n=64&t=finetune&z=3", false},
		{"", false},
	} {
		v, _, d := pageOf(t, tc.frag, nil)
		if got := slices.Contains(d.R.HWWarn, MsgShipsFP8); got != tc.want {
			t.Errorf("%q: flagged %v, want %v (%v)", tc.frag, got, tc.want, d.R.HWWarn)
		}
		if tc.want && !slices.Contains(v.Result.Warnings, Tr("en", MsgShipsFP8)) {
			t.Errorf("%q: the result does not say it: %q", tc.frag, v.Result.Warnings)
		}
	}
	for lang, word := range map[string]string{"en": "checkpoint", "ru": "чекпойнт", "zh": "检查点"} {
		if !strings.Contains(Tr(lang, MsgShipsFP8), word) {
			t.Errorf("%s: %q", lang, Tr(lang, MsgShipsFP8))
		}
	}
}

// TestEngineFieldsNameTheEngine: the memory-share and token-budget fields
// name the selected engine's own settings, with the engine's default
// budget on the job's GPU, and the launch the page hands over sets those
// same settings (one table: estimator.Engine.Settings).
func TestEngineFieldsNameTheEngine(t *testing.T) {
	for _, tc := range []struct {
		frag, mem, budget, def string
	}{
		{"e=vllm", "vLLM --gpu-memory-utilization", "vLLM --max-num-batched-tokens", "8,192 on this GPU"},
		// vLLM gives the A100 its smaller limits by name, whatever its
		// memory (catalog.GPU.VLLMNamesSmall).
		{"e=vllm&g=a100-80gb", "vLLM --gpu-memory-utilization", "vLLM --max-num-batched-tokens", "2,048 on this GPU"},
		{"e=sglang", "SGLang --mem-fraction-static", "SGLang --chunked-prefill-size", "8,192 on this GPU"},
		{"e=sglang&g=b200", "SGLang --mem-fraction-static", "SGLang --chunked-prefill-size", "16,384 on this GPU"},
		{"e=trtllm", "TensorRT-LLM --kv_cache_free_gpu_memory_fraction", "TensorRT-LLM --max_num_tokens", "8,192 on this GPU"},
	} {
		v, in, d := pageOf(t, tc.frag, nil)
		if !d.R.OK {
			t.Fatalf("%s: no result: %v", tc.frag, d.General)
		}
		var mem, budget string
		for _, f := range v.Form.Overrides.Fields { // the engine's own settings, folded with the overheads
			switch f.F {
			case FieldMemUtil:
				mem = f.Label
			case FieldMaxBatched:
				budget = f.Label
			}
		}
		if !strings.Contains(mem, tc.mem) || !strings.Contains(budget, tc.budget) || !strings.Contains(budget, tc.def) {
			t.Errorf("%s: fields %q and %q, want %q and %q with %q", tc.frag, mem, budget, tc.mem, tc.budget, tc.def)
		}
		text, ok := LaunchText(&in)
		flag := tc.mem[strings.Index(tc.mem, "--"):]
		if !ok || !strings.Contains(text, flag+" ") {
			t.Errorf("%s: the launch does not set %s:\n%s", tc.frag, flag, text)
		}
	}
	ru, _, _ := pageOf(t, "e=sglang&l=ru", nil)
	for _, f := range ru.Form.Fields {
		if f.F == FieldMemUtil && !strings.HasPrefix(f.Label, "Доля памяти (SGLang --mem-fraction-static") {
			t.Errorf("Russian memory-share field: %q", f.Label)
		}
	}
}

// TestChartNeedsTwoPoints: the cost-vs-time chart is drawn from two
// candidates up; one candidate (every pick the same offer) gets none,
// not axes from a figure to itself.
func TestChartNeedsTwoPoints(t *testing.T) {
	v, in, _ := pageOf(t, "rps=5", nil)
	if len(in.Plan.Points) < 2 || len(v.Answer.Chart.Points) != len(in.Plan.Points) {
		t.Fatalf("%d candidates, %d points drawn", len(in.Plan.Points), len(v.Answer.Chart.Points))
	}
	in.Plan.Points = in.Plan.Points[:1]
	if c := BuildView(in).Answer.Chart; len(c.Points) != 0 || c.Title != "" {
		t.Errorf("one candidate drawn as %d points under %q", len(c.Points), c.Title)
	}
}

// TestNeededLine: a LoRA job's breakdown shows what it needs without the
// allocator's cache (the fit's figure) beside the total that holds it;
// an inference job, whose reserve counts whole, shows no such line.
func TestNeededLine(t *testing.T) {
	v, _, d := pageOf(t, "t=lora", nil)
	l := Locale{Lang: "en", Units: d.Job.Units}
	if r := d.R.Res; r.AllocatorCache <= 0 || v.Result.Breakdown.Needed != l.Bytes(r.Peak) || r.Peak >= r.PerGPU.Total() {
		t.Errorf("lora: cache %d, needed %q, peak %d, total %d", r.AllocatorCache, v.Result.Breakdown.Needed, r.Peak, r.PerGPU.Total())
	}
	if v, _, _ := pageOf(t, "", nil); v.Result.Breakdown.Needed != "" {
		t.Errorf("inference: needed %q", v.Result.Breakdown.Needed)
	}
}

// TestMemShareFieldShowsEngineDefault: the memory-share field's 0 stands
// for the engine's own default, which its label and placeholder give as
// the estimate used it (estimator.Input.MemShare), in each language; the
// link keeps 0.
func TestMemShareFieldShowsEngineDefault(t *testing.T) {
	for _, tc := range []struct{ frag, share, here string }{
		{"e=vllm", "0.9", "0.9 on this GPU"},
		{"e=trtllm", "0.9", "0.9 on this GPU"},
		// SGLang's mem_fraction_static on an 80 GB H100 at TP 8.
		{"e=sglang&g=h100-sxm&tp=8&n=8", "0.819", "0.819 on this GPU"},
		{"e=sglang&g=h100-sxm&tp=8&n=8&l=ru", "0.819", "на этом GPU 0.819"},
		{"e=sglang&g=h100-sxm&tp=8&n=8&l=zh", "0.819", "此 GPU 上为 0.819"},
	} {
		v, in, d := pageOf(t, tc.frag, nil)
		if !d.R.OK {
			t.Fatalf("%s: no result: %v", tc.frag, d.General)
		}
		found := false
		for _, f := range v.Form.Overrides.Fields {
			if f.F != FieldMemUtil {
				continue
			}
			found = true
			if f.Placeholder != tc.share || !strings.Contains(f.Label, tc.here) || f.Value != "0" {
				t.Errorf("%s: label %q, placeholder %q, value %q; want %q in the label, placeholder %q, value 0", tc.frag, f.Label, f.Placeholder, f.Value, tc.here, tc.share)
			}
		}
		if !found {
			t.Errorf("%s: no memory-share field", tc.frag)
		}
		if got := in.State[FieldMemUtil]; got != "0" {
			t.Errorf("%s: the state holds %q, want 0", tc.frag, got)
		}
	}
}

// TestPicksNamingOnePlanShareACard: the batch job on vLLM at 10M requests
// has a fastest plan that is also its best value (64 instances of 8 ×
// B200 in 26 minutes, scaled out from the cheapest, one instance of the
// same offer, in 16.9 h), so the page shows two cards for three picks:
// the second titled with both roles, "Use this" on it applying that plan;
// its reason is the fastest's alone, since the best value's ("the fastest
// plan is also the best value, …× the cost for …× the speed") repeats
// those ratios (sameAsFaster); a job whose picks differ keeps a card
// each, and a cheapest that is also the best value keeps both sentences
// (the second says why no dearer plan is worth it).
func TestPicksNamingOnePlanShareACard(t *testing.T) {
	_, in, _ := pageOf(t, "e=vllm&req=10M", nil)
	picks := in.Plan.Picks
	same := func(a, b Pick) bool { return a.Offer.ID == b.Offer.ID && a.Instances == b.Instances }
	if len(picks) != 3 || !same(picks[1], picks[2]) || same(picks[0], picks[1]) {
		t.Fatalf("the vLLM job's picks changed: %d, want cheapest ≠ fastest = value", len(picks))
	}
	card, n := PickCards(picks)
	if n != 2 || !slices.Equal(card, []int{0, 1, 1}) {
		t.Fatalf("cards %v (%d), want [0 1 1] (2)", card, n)
	}
	v := PickViews(in)
	l := Locale{Lang: "en"}
	names := in.Prices.ProviderName
	if len(v) != 2 || v[0].Title != "Cheapest" || v[1].Title != "Fastest · Best value" || v[1].Kind != "fastest" ||
		v[0].Roles != "cheapest" || v[1].Roles != "fastest value" ||
		v[1].Reason != l.ReasonWith(picks[1].Why, names) ||
		v[1].GPU != picks[1].Offer.GPU || v[1].Plan != picks[1].Plan {
		t.Errorf("cards %+v", v)
	}
	if k := picks[2].Why.Key; k != planner.MsgReasonValueIsFastest && k != planner.MsgReasonValueIsFaster {
		t.Errorf("the shared value pick's reason is %v, want the value-is-fastest sentence", k)
	}
	// One paragraph on the shared card: the fastest's sentence, not its
	// ratios twice.
	var reasons []string
	n2 := PickNode("en", &v[1], "Cost", "Time", false)
	find(n2, func(n Node) bool {
		if n.Class == "rs-reason" {
			reasons = append(reasons, n.Text)
		}
		return false
	})
	if len(reasons) != 1 || strings.Contains(reasons[0], "also the best value") {
		t.Errorf("the shared card's reasons %q", reasons)
	}
	// A cheapest that is also the best value keeps both sentences.
	cheapValue := picks[2]
	cheapValue.Why = planner.Reason{Key: planner.MsgReasonValueIsCheapest, Args: []any{"x", "2"}}
	if sameAsFaster(cheapValue) || !sameAsFaster(picks[2]) {
		t.Error("sameAsFaster: the cheapest's value sentence counted as a repeat, or the fastest's not")
	}
	// Three different plans: three cards.
	distinct := slices.Clone(picks)
	distinct[2].Instances++
	if card, n := PickCards(distinct); n != 3 || !slices.Equal(card, []int{0, 1, 2}) {
		t.Errorf("distinct plans: cards %v (%d)", card, n)
	}
}

// TestFewestGPUsFact: a job that does not fit on the GPUs as set names the
// fewest of its GPU that hold it, with their split (the fit table's row
// for that GPU); in Russian too; a job that fits has no such fact.
func TestFewestGPUsFact(t *testing.T) {
	fact := func(v View) (Fact, bool) {
		for _, f := range v.Result.Facts {
			if f.ID == "rs-min-gpus" {
				return f, true
			}
		}
		return Fact{}, false
	}
	v, _, d := pageOf(t, "m=deepseek-r1&p=fp8&e=sglang", nil)
	f, ok := fact(v)
	if d.R.Need != 16 || !ok || f.Label != "Fewest of this GPU that fit" || !strings.HasPrefix(f.Value, "16 × NVIDIA H100 SXM 80GB (TP ") {
		t.Errorf("need %d, fact %+v", d.R.Need, f)
	}
	ru, _, _ := pageOf(t, "m=deepseek-r1&p=fp8&e=sglang&l=ru", nil)
	if f, ok := fact(ru); !ok || f.Label != "Меньше всего таких GPU, чтобы поместилось" {
		t.Errorf("Russian fact %+v", f)
	}
	if v, _, _ := pageOf(t, "", nil); func() bool { _, ok := fact(v); return ok }() {
		t.Error("a job that fits names a fewest count")
	}
}

// TestEngineSettingsFolded: a serving engine's own settings (memory
// share, token budget, CUDA graphs) sit folded with the overheads, not
// among the job's fields, and the box opens for a link that sets one.
func TestEngineSettingsFolded(t *testing.T) {
	v, _, _ := pageOf(t, "", nil)
	for _, f := range engineSettings {
		if hasField(v.Form.Fields, f) || !hasField(v.Form.Overrides.Fields, f) {
			t.Errorf("default page: %s among the job's fields, or not in the box", FieldNames[f])
		}
	}
	if v.Form.Overrides.Open {
		t.Error("default page: the engine settings box is open")
	}
	if v, _, _ := pageOf(t, FieldKeys[FieldMemUtil]+"=0.8", nil); !v.Form.Overrides.Open {
		t.Error("a link with a memory share: the box stays folded")
	}
}
