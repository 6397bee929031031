package page

import (
	"math"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// userJobs are the questions users bring, as links: the ones the checks
// of the page's one story are run on.
var userJobs = []string{
	"",                                   // Llama 3.1 8B, HF, one H100, a batch job
	"g=t4&p=int8",                        // 7B-class inference on a T4
	"g=a100-80gb-sxm&e=vllm&b=32",        // the same on an A100 with vLLM
	"t=lora&tok=100M",                    // LoRA 8B for 100M tokens
	"m=mistral-7b-v0.3&rps=20&ttft=1000", // serving at 20 req/s within a TTFT target
	"m=llama-3.1-70b&t=finetune&n=8&z=3&gc=1&tok=1B", // 70B FSDP on 8 × H100
	"m=llama-3.1-70b&t=train&s=8192&gc=1&tok=20B",    // pre-training at 8K
	"t=finetune&gc=1&pr=spot",                        // spot pricing
	"cur=RUB&g=l4",                                   // another currency
	"m=mixtral-8x7b&p=fp4&g=b200&e=vllm&rps=5",       // MoE, Blackwell FP4, serving
	"t=qlora&g=rtx-4090&tok=50M",                     // QLoRA on a 24 GB card
}

// answer runs a link through the page's path: parse, compute, plan.
func answer(t *testing.T, frag string) (Job, Results, PlanOut) {
	t.Helper()
	cat := catalog.Default()
	j, errs, general, ok := ParseJob(ParseFragment(frag, DefaultState), cat, Archs{}, nil, "")
	if !ok {
		for f, e := range errs {
			if !e.OK() {
				t.Fatalf("%q: field %s: %+v", frag, FieldNames[f], e)
			}
		}
		t.Fatalf("%q: %+v", frag, general)
	}
	pr := NewPrices(cat, nil)
	r, _ := Compute(j, pr)
	if !r.OK {
		t.Fatalf("%q: no estimate", frag)
	}
	out := RunPlan(j, pr)
	if !out.OK {
		t.Fatalf("%q: no plan: %v", frag, out.Err)
	}
	return j, r, out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestOneStory holds the page's figures for one job to one plan, as plain
// values (the components only lay them out; app's TestPageTellsOneStory
// checks the rendered text):
//   - the picks are the planner's rows, carry the cost they are ranked by,
//     and none is dominated by another plan the picks may rest on;
//   - the tables' indexes point at each GPU's and offer's cheapest row;
//   - the speed box's cost per 1M tokens (or job cost) is the planner's
//     price on its cheapest plan for the GPU × the job's GPUs × its time;
//   - the serving fleet is the cheapest pick's plan, on its GPU and offer;
//   - a plan's communication share is a share (0 on one GPU).
func TestOneStory(t *testing.T) {
	for _, frag := range userJobs {
		t.Run(frag, func(t *testing.T) {
			j, r, out := answer(t, frag)
			if len(out.Picks) == 0 || len(out.Cands) == 0 {
				t.Fatalf("%d picks of %d plans", len(out.Picks), len(out.Cands))
			}
			kinds := map[PickKind]bool{}
			for _, p := range out.Picks {
				if kinds[p.Kind] {
					t.Errorf("two %v picks", p.Kind)
				}
				kinds[p.Kind] = true
				if p.PassedOver {
					t.Errorf("%v pick rests on a passed-over row %s", p.Kind, p.Offer.ID)
				}
				if !(p.Cost > 0) || !(p.Seconds > 0) {
					t.Errorf("%v pick: cost %v, time %v", p.Kind, p.Cost, p.Seconds)
				}
				// The pick is a planner row, with the figures it is ranked by.
				found := false
				for _, c := range out.Cands {
					if c.Offer == p.Offer && c.Plan == p.Plan && c.Pricing == p.Pricing && near(c.Cost, p.Cost) && near(c.Seconds, p.Seconds) {
						found = true
					}
				}
				if !found {
					t.Errorf("%v pick %s (%v) is not one of the plans", p.Kind, p.Offer.ID, p.Plan)
				}
				// Not dominated: no plan the picks may rest on is both
				// cheaper and faster by more than the front's 1%.
				for _, c := range out.Cands {
					if !c.PassedOver && c.Cost < p.Cost*0.99 && c.Seconds < p.Seconds*0.99 {
						t.Errorf("%v pick %s (%.4g, %.4g s) dominated by %s (%.4g, %.4g s)", p.Kind, p.Offer.ID, p.Cost, p.Seconds, c.Offer.ID, c.Cost, c.Seconds)
						break
					}
				}
				// The planner ranks by cost, a plan within
				// planner.CostTolerance of the lowest and faster winning
				// the tie: nothing the picks may rest on is cheaper by
				// more than that.
				if p.Kind == PickCheapest {
					for _, c := range out.Cands {
						if !c.PassedOver && c.Cost < p.Cost*(1-planner.CostTolerance)-0.01 {
							t.Errorf("cheapest pick %.6g, but %s costs %.6g", p.Cost, c.Offer.ID, c.Cost)
							break
						}
					}
				}
				if !(p.CommShare >= 0 && p.CommShare <= 1) || (p.Plan.GPUs == 1 && p.CommShare != 0) {
					t.Errorf("%v pick on %d GPUs: communication share %v", p.Kind, p.Plan.GPUs, p.CommShare)
				}
			}
			if !kinds[PickCheapest] {
				t.Error("no cheapest pick")
			}
			for gpu, i := range out.ByGPU {
				c := out.Cands[i]
				if c.Offer.GPU != gpu {
					t.Errorf("ByGPU[%s] is %s", gpu, c.Offer.ID)
				}
				// The cheapest plan the picks may rest on, else (every
				// plan of the GPU passed over) its cheapest plan.
				for j, d := range out.Cands {
					if d.Offer.GPU == gpu && ((j < i && (!d.PassedOver || c.PassedOver)) || (c.PassedOver && !d.PassedOver)) {
						t.Errorf("ByGPU[%s] is %s (passed over %v), not its cheapest plan the picks may rest on (%s)", gpu, c.Offer.ID, c.PassedOver, d.Offer.ID)
						break
					}
				}
			}
			for id, i := range out.ByOffer {
				if out.Cands[i].Offer.ID != id {
					t.Errorf("ByOffer[%s] is %s", id, out.Cands[i].Offer.ID)
				}
			}
			// Fewest per GPU, against a scan of every candidate: the
			// fewest GPUs, the cheapest (first) of those.
			if len(out.FewestByGPU) != len(out.ByGPU) {
				t.Errorf("%d GPUs with a fewest plan, %d with a cheapest", len(out.FewestByGPU), len(out.ByGPU))
			}
			for gpu := range out.ByGPU {
				want := -1
				for i, c := range out.Cands {
					if c.Offer.GPU == gpu && (want < 0 || c.Plan.GPUs < out.Cands[want].Plan.GPUs) {
						want = i
					}
				}
				if got, ok := out.Fewest(gpu); !ok || got.Row != out.Cands[want].Row {
					t.Errorf("Fewest(%s) is row %d (%v), want row %d (%d GPUs)", gpu, got.Row, ok, out.Cands[want].Row, out.Cands[want].Plan.GPUs)
				}
			}
			// The speed box prices the job as set on the planner's own plan
			// for the GPU: per 1M = price × GPUs / (tokens/s × 3600) × 10⁶;
			// a job, price × GPUs × the hours the offer bills for its time.
			if s := AtSpeed(r.Perf, j, &out); s.OK {
				best, _ := out.Best(j.GPU.ID)
				if s.Offer != best.Offer || s.Pricing != best.Pricing || !near(s.PerGPUHour, best.PerGPUHour) || s.Currency != out.Currency {
					t.Errorf("speed box on %s %v at %v, planner's best %s %v at %v", s.Offer.ID, s.Pricing, s.PerGPUHour, best.Offer.ID, best.Pricing, best.PerGPUHour)
				}
				perHour := s.PerGPUHour * float64(j.In.GPUs)
				if j.In.Task.Training() {
					if want := perHour * planner.BilledHours(s.Offer, s.Pricing, r.Perf.Seconds); !near(s.JobCost, want) {
						t.Errorf("job cost at speed %v, want %v", s.JobCost, want)
					}
				} else if want := perHour / (r.Perf.P.TokensPerSecond * 3600) * 1e6; !near(s.PerMOut, want) {
					t.Errorf("per 1M at speed %v, want %v", s.PerMOut, want)
				}
			}
			if out.Kind == planner.Serving {
				var cheap Pick
				for _, p := range out.Picks {
					if p.Kind == PickCheapest {
						cheap = p
					}
				}
				v := out.Serve
				if !v.OK || v.Offer != cheap.Offer || v.Plan != cheap.Plan || v.Pricing != cheap.Pricing || v.Engine != cheap.Engine {
					t.Errorf("fleet %v on %v, cheapest pick %v on %s", v.Plan, v.Offer, cheap.Plan, cheap.Offer.ID)
				}
				if !near(v.Monthly, cheap.Cost) {
					t.Errorf("fleet bills %v a month, the pick %v", v.Monthly, cheap.Cost)
				}
				if v.Replicas < 1 || v.GPUs != v.Plan.GPUs {
					t.Errorf("fleet: %d replicas of %d GPUs (plan %v)", v.Replicas, v.GPUs, v.Plan)
				}
				if h := out.ServeHere; h.OK && h.Offer.GPU != j.GPU.ID {
					t.Errorf("the selected GPU's fleet is on %s, not %s", h.Offer.GPU, j.GPU.ID)
				}
			}
		})
	}
}

// TestFitRowsAgreeWithPlanner: the fit table's cost column is the
// planner's, row for row. Every GPU the planner runs the job on has a fit
// row, priced (PlanOut.Best) by the planner's cheapest row on that GPU of
// those the picks may rest on (of all its rows where there is none): the
// same offer, GPUs and split, cost and price per GPU-hour as that row. A
// GPU the planner has no row on is not priced. Where the row's offer is
// the GPU's cheapest listing (the "from" column), both columns say one
// price per GPU-hour. A GPU that fits the job as set shows the user's own
// count.
func TestFitRowsAgreeWithPlanner(t *testing.T) {
	cat := catalog.Default()
	samePrice := 0
	for _, frag := range userJobs {
		j, r, out := answer(t, frag)
		// The planner's cheapest fitting row per GPU, read from its rows
		// (ranked cheapest first, costs equal to the cent by time):
		// best[g] indexes out.Rows, free[g] says whether the picks may
		// rest on some row of g, low[g] is the least cost of those.
		best, free, low := map[string]int{}, map[string]bool{}, map[string]float64{}
		for i := range out.Rows {
			w := &out.Rows[i]
			if !w.Fits {
				continue
			}
			g, ok := w.Offer.GPU, w.PassedOver.Key == planner.NoMsg
			if _, seen := best[g]; !seen || (ok && !free[g]) {
				best[g] = i
			}
			if ok && (!free[g] || w.RankedCostDisp < low[g]) {
				low[g] = w.RankedCostDisp
			}
			free[g] = free[g] || ok
		}
		listed := map[string]bool{}
		priced := 0
		for _, f := range r.Fit {
			g := f.GPU.ID
			listed[g] = true
			if f.Fits && f.Plan != PlanOf(j.In) {
				t.Errorf("%q: %s fits as set but shows %+v, not the user's %+v", frag, g, f.Plan, PlanOf(j.In))
			}
			if f.Fits && !f.Found {
				t.Errorf("%q: %s fits but was not found", frag, g)
			}
			x, ok := out.Best(g)
			b, planned := best[g]
			if ok != planned {
				t.Errorf("%q: %s: fit row priced %v, planner rows on it %v", frag, g, ok, planned)
				continue
			}
			if !ok {
				continue
			}
			priced++
			if x.Row < 0 || x.Row >= len(out.Rows) {
				t.Errorf("%q: %s: fit row's plan is row %d of %d", frag, g, x.Row, len(out.Rows))
				continue
			}
			w, want := &out.Rows[x.Row], &out.Rows[b]
			switch {
			case x.Offer != w.Offer || x.Offer.GPU != g || !w.Fits:
				t.Errorf("%q: %s: fit row on %s (a %s), the planner's row %d on %s", frag, g, x.Offer.ID, x.Offer.GPU, x.Row, w.Offer.ID)
			case x.Plan != RowPlan(w, PlanRequest(j).Input):
				t.Errorf("%q: %s: fit row's plan %+v, the planner's row %v GPUs TP %d PP %d ZeRO %d", frag, g, x.Plan, w.GPUs, w.TP, w.PP, w.ZeRO)
			case !near(x.Cost, w.RankedCostDisp) || !near(x.Cost, want.RankedCostDisp):
				t.Errorf("%q: %s: fit row costs %v, its planner row %v, the planner's cheapest on the GPU %v (%s)", frag, g, x.Cost, w.RankedCostDisp, want.RankedCostDisp, want.Offer.ID)
			case free[g] && x.Cost > low[g]+0.01*out.PerUSD*(1+1e-9):
				// the planner ranks costs equal to the cent (USD) by time
				t.Errorf("%q: %s: fit row costs %v, another plan on the GPU %v", frag, g, x.Cost, low[g])
			case x.PassedOver != (want.PassedOver.Key != planner.NoMsg):
				t.Errorf("%q: %s: fit row passed over %v, the planner's cheapest on the GPU %q", frag, g, x.PassedOver, want.PassedOver.Key)
			case !near(x.PerGPUHour, w.PricePerHourDisp/w.Offer.GPUCount):
				t.Errorf("%q: %s: fit row at %v per GPU-hour, its planner row %v", frag, g, x.PerGPUHour, w.PricePerHourDisp/w.Offer.GPUCount)
			}
			if x.Pricing == planner.OnDemand && f.From.offer != nil && f.From.offer.ID == x.Offer.ID {
				from, cur := f.From.In(cat, out.Currency)
				if cur != out.Currency || !near(from, x.PerGPUHour) {
					t.Errorf("%q: %s on %s: from %v %s per GPU-hour, the plan's cost at %v %s", frag, g, x.Offer.ID, from, cur, x.PerGPUHour, out.Currency)
				}
				samePrice++
			}
		}
		if priced == 0 {
			t.Errorf("%q: no fit row priced", frag)
		}
		for g := range best {
			if !listed[g] {
				t.Errorf("%q: the planner runs the job on %s, which has no fit row", frag, g)
			}
		}
	}
	if samePrice == 0 {
		t.Error("no fit row's plan is on its GPU's cheapest listing: the two price columns were never compared")
	}
}

// TestLinkRoundTrip: a state written into a link reads back the same, and
// a link with junk keeps what it can and drops the rest.
func TestLinkRoundTrip(t *testing.T) {
	s := ParseFragment("m=qwen2.5-7b&t=lora&r=64&l=zh&rps=3&cur=EUR", DefaultState)
	if s[FieldModel] != "qwen2.5-7b" || s[FieldTask] != "lora" || s[FieldLoRARank] != "64" || s[FieldLang] != "zh" || s[FieldCurrency] != "EUR" {
		t.Fatalf("parsed %v", s)
	}
	frag := s.Fragment(DefaultState)
	if got := ParseFragment(frag, DefaultState); got != s {
		t.Errorf("round trip %q: %v, want %v", frag, got, s)
	}
	for _, kv := range strings.Split(frag, "&") {
		if strings.HasPrefix(kv, "b=") || strings.HasPrefix(kv, "g=") {
			t.Errorf("fragment %q repeats a default (%s)", frag, kv)
		}
	}
	if got := ParseFragment("zz=1&m=gpt2&%zz", DefaultState); got[FieldModel] != "gpt2" || got[FieldBatch] != DefaultState[FieldBatch] {
		t.Errorf("junk link: %v", got)
	}
}

// TestTextOnly: a vision-language model counts its tower apart, and the
// text-only switch (as rightsize estimate --text-only) leaves it
// unloaded: on HF transformers less memory by at least the tower's
// 16-bit weights (a pooled engine's KV pool takes the memory it frees).
func TestTextOnly(t *testing.T) {
	_, full, _ := answer(t, "m=gemma-3-27b&e=hf")
	_, text, _ := answer(t, "m=gemma-3-27b&e=hf&to=1")
	v := full.Res.VisionParams
	if v < 400e6 || v > 500e6 || text.Res.VisionParams != v {
		t.Fatalf("vision params %d / %d", v, text.Res.VisionParams)
	}
	if saved := int64(full.Res.Peak) - int64(text.Res.Peak); saved < 2*v {
		t.Errorf("text only saves %d B, want at least %d (the tower in bf16)", saved, 2*v)
	}
	if _, errs, _, ok := ParseJob(ParseFragment("to=maybe", DefaultState), catalog.Default(), Archs{}, nil, ""); ok || errs[FieldTextOnly].OK() {
		t.Error("to=maybe accepted")
	}
}

// TestLever: the basis names the input that moves a figure most, with the
// value assumed: the MFU for a compute-bound training step, the bandwidth
// share for decoding, the network for a communication-bound step.
func TestLever(t *testing.T) {
	_, r, _ := answer(t, "t=finetune&n=8&z=3&gc=1")
	p := r.Perf.P
	if p.Bound != estimator.BoundCompute {
		t.Fatalf("8B fine-tune on 8 × H100: bound %v", p.Bound)
	}
	enl := Locale{Lang: "en"}
	en := Lever(enl, p.Bound, estimator.FullFinetune, r.Perf.Eff)
	if want := enl.Fixed(r.Perf.Eff.MFU*100, 0) + "%"; !strings.Contains(en, "MFU") || !strings.Contains(en, want) {
		t.Errorf("lever %q, want the MFU assumed (%s)", en, want)
	}
	if ru := Lever(Locale{Lang: "ru"}, p.Bound, estimator.FullFinetune, r.Perf.Eff); ru == en || ru == "" {
		t.Errorf("Russian lever %q", ru)
	}
	_, r, _ = answer(t, "e=vllm&b=1")
	if p := r.Perf.P; p.Bound != estimator.BoundBandwidth || !strings.Contains(Lever(Locale{Lang: "en"}, p.Bound, estimator.Inference, r.Perf.Eff), "bandwidth") {
		t.Errorf("vLLM batch 1 decode: bound %v", p.Bound)
	}
	if s := Lever(Locale{Lang: "zh"}, estimator.BoundCommunication, estimator.Pretrain, estimator.Efficiency{}); s != Tr("zh", MsgLeverComm) {
		t.Errorf("communication lever %q", s)
	}
	if s := Lever(Locale{Lang: "en"}, estimator.BoundNone, estimator.Pretrain, estimator.Efficiency{}); s != "" {
		t.Error("a lever without a bound")
	}
}

// TestBudgetInDisplayCurrency: a budget is typed in the cards' currency
// (as rightsize plan --budget in --currency) and filters in USD.
func TestBudgetInDisplayCurrency(t *testing.T) {
	cat := catalog.Default()
	fx, ok := cat.FX("EUR")
	if !ok {
		t.Fatal("no EUR rate in the catalog")
	}
	j, _, _, ok := ParseJob(ParseFragment("cur=EUR&bud=1000", DefaultState), cat, Archs{}, nil, "")
	if !ok || math.Abs(j.Filters.BudgetUSD-1000/fx.PerUSD) > 1e-9 {
		t.Errorf("budget 1000 EUR: %v USD, want %v", j.Filters.BudgetUSD, 1000/fx.PerUSD)
	}
}

// TestEpochs: a dataset and its epochs set the training tokens (as
// rightsize plan --epochs --dataset-tokens); epochs alone ask for the
// dataset next to its field.
func TestEpochs(t *testing.T) {
	j, _, _ := answer(t, "t=finetune&ds=250M&ep=3")
	if j.Tokens != 750e6 || j.Dataset != 250e6 || j.Epochs != 3 {
		t.Errorf("3 epochs of 250M: tokens %v (dataset %v × %v)", j.Tokens, j.Dataset, j.Epochs)
	}
	_, errs, _, ok := ParseJob(ParseFragment("t=finetune&ep=3", DefaultState), catalog.Default(), Archs{}, nil, "")
	if ok || errs[FieldDataset].Key != MsgNeedsDataset {
		t.Errorf("epochs without a dataset: ok %v, %+v", ok, errs[FieldDataset])
	}
}

// TestFXLine: converted prices say the dated rate they were converted at;
// USD prices say nothing.
func TestFXLine(t *testing.T) {
	cat := catalog.Default()
	x, ok := cat.FX("RUB")
	if !ok {
		t.Fatal("no RUB rate in the catalog")
	}
	l := Locale{Lang: "ru"}
	s := FXLine(l, cat, "RUB")
	if !strings.Contains(s, l.Money(x.PerUSD, "RUB")) || !strings.Contains(s, l.Date(x.AsOf)) || strings.Contains(s, "%s") {
		t.Errorf("RUB line %q lacks the rate %s or its date %s", s, l.Money(x.PerUSD, "RUB"), l.Date(x.AsOf))
	}
	// The rate's source is a long English string: it stays in the
	// Assumptions box's rate table, off the first screen.
	if strings.Contains(s, SourceText(x.Source)) {
		t.Errorf("RUB line %q carries the rate's source", s)
	}
	if FXLine(l, cat, "USD") != "" || FXLine(l, cat, "XXX") != "" {
		t.Error("a rate line for USD or an unknown currency")
	}
}

// TestFitRowsBySize: the fit table estimates once per memory size and
// hands the result to every GPU of that size; each row must be what its
// own estimate and GPU-count search give (a GPU-specific input sneaking
// into the job would make rows of one size differ).
func TestFitRowsBySize(t *testing.T) {
	shared := 0
	for _, frag := range userJobs {
		j, r, _ := answer(t, frag)
		seen := map[estimator.Bytes]int{}
		for _, f := range r.Fit {
			seen[f.GPU.Memory]++
			x := j.In
			f.GPU.SetMemory(&x)
			x.UsableVRAM = 0
			want := FitResult{GPU: f.GPU, Plan: PlanOf(x), From: f.From}
			if res, err := estimator.Estimate(x); err == nil {
				want.Fits, want.Headroom = res.Fits, res.Headroom
			}
			if min, found := estimator.MinGPUsInput(x, MaxGPUsSearched); found {
				want.Found, want.Plan = true, PlanOf(min)
				if want.Fits {
					want.Plan = PlanOf(x)
				}
			}
			if f.GPU.ID != want.GPU.ID || f.Fits != want.Fits || f.Headroom != want.Headroom || f.Found != want.Found || f.Plan != want.Plan || f.From != want.From {
				t.Errorf("%q: %s: row %+v, its own estimate %+v", frag, f.GPU.ID, f, want)
			}
		}
		for _, n := range seen {
			if n > 1 {
				shared++
			}
		}
	}
	if shared == 0 {
		t.Fatal("no two GPUs of one size in the catalog: the test checks nothing")
	}
}
