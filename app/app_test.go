package app

import (
	"html"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog"
	"rightsize/estimator"
)

// Component tests read the plan right after an input change.
func init() { planSync = true }

func load(t testing.TB) (*Calculator, app.TestEngine) {
	t.Helper()
	e := app.NewTestEngine()
	c := &Calculator{}
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return c, e
}

// fitOf returns the fit-table row of a GPU.
func fitOf(t *testing.T, c *Calculator, id string) page.FitResult {
	t.Helper()
	for _, f := range c.d.R.Fit {
		if f.GPU.ID == id {
			return f
		}
	}
	t.Fatalf("fit table lacks %s", id)
	return page.FitResult{}
}

// TestCalculatorDefault: the default page renders the estimate's verdict
// and the fit table's rows carry the planner's plan (the figures
// themselves: page.TestDefaultJob).
func TestCalculatorDefault(t *testing.T) {
	c, _ := load(t)
	if !c.d.R.OK {
		t.Fatalf("no result for the defaults: errors %v %v", c.d.Errs, c.d.General)
	}
	// The breakdown leaf renders the verdict from its props.
	b := nodeUI(page.BreakdownNode(&page.Breakdown{Lang: "en", Title: "x", Verdict: "Fits · headroom 1.00 GiB", Fits: true}), hooks{})
	if err := app.Match(app.Elem("p").Class("rs-verdict rs-ok").ID("rs-verdict").Text("Fits · headroom 1.00 GiB"), b, 1); err != nil {
		t.Fatal(err)
	}
	c.state = c.state.WithOpen(page.SecFit, true).WithAll(page.SecFit, true)
	html := app.HTMLString(c.Render())
	if want := `>Fits · headroom ` + locOf(c).Bytes(c.d.R.Res.Headroom) + "<"; !strings.Contains(html, want) {
		t.Errorf("page lacks %q", want)
	}
	x, ok := c.ps.Out.Best("t4")
	if !ok {
		t.Fatal("no T4 plan")
	}
	if i := strings.Index(html, `data-gpu="t4"`); i < 0 || !strings.Contains(html[strings.LastIndex(html[:i], "<"):i+strings.Index(html[i:], ">")], `data-gpus="`+strconv.Itoa(x.Plan.GPUs)+`"`) {
		t.Errorf("the T4 row does not carry data-gpus=%d", x.Plan.GPUs)
	}
	// On T4s (two GPUs needed) a single-T4 offer without a plan is not listed.
	c.set(none, page.FieldGPU, "t4")
	for _, o := range c.d.R.Offers {
		if _, planned := c.ps.Out.ByOffer[o.Offer.ID]; o.Offer.GPUCount < 2 && !planned && strings.Contains(offersHTML(c), `data-offer="`+o.Offer.ID+`"`) {
			t.Errorf("single-T4 offer %s listed for a two-GPU job without a plan", o.Offer.ID)
		}
	}
}

// TestFoldedBoxesClosedInStaticHTML: the default view's three folded
// boxes carry no open attribute (open="false" in the prerendered page is
// open: the static page showed and laid out all their fields, then the
// live page closed them); a box the user opened carries open.
func TestFoldedBoxesClosedInStaticHTML(t *testing.T) {
	c, _ := load(t)
	doc := app.HTMLString(c.Render())
	for _, id := range []string{"rs-overrides", "rs-filters", "rs-assumptions"} {
		tag := detailsTag(t, doc, id)
		if strings.Contains(tag, "open") {
			t.Errorf("default view: %s", tag)
		}
	}
	c.open.overrides = true
	if tag := detailsTag(t, app.HTMLString(c.Render()), "rs-overrides"); !strings.Contains(tag, ` open`) || strings.Contains(tag, `open="false"`) {
		t.Errorf("opened box: %s", tag)
	}
}

// detailsTag is the opening <details> tag of the element with the id.
func detailsTag(t *testing.T, doc, id string) string {
	t.Helper()
	i := strings.Index(doc, `id="`+id+`"`)
	start := strings.LastIndex(doc[:max(i, 0)], "<details")
	if i < 0 || start < 0 {
		t.Fatalf("no <details id=%q>", id)
	}
	return doc[start : i+strings.Index(doc[i:], ">")+1]
}

// Clicking a fit-table row applies the whole plan: GPU, count and split,
// so the verdict and the offers agree with the row.
func TestApplyPlan(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldGPU, "t4")
	t4 := fitOf(t, c, "t4")
	c.set(none, page.FieldGPU, "h100-sxm")
	c.onApply(contextOf(t), app.Action{Value: applyPlan{GPU: "t4", Plan: t4.Plan}})
	// Two T4s split by vLLM's tensor parallelism (the engine on auto).
	if c.state[page.FieldGPU] != "t4" || c.state[page.FieldGPUs] != "2" || c.state[page.FieldPP] != "1" || c.state[page.FieldTP] != "2" {
		t.Fatalf("after applying the T4 row: gpu %s gpus %s tp %s pp %s", c.state[page.FieldGPU], c.state[page.FieldGPUs], c.state[page.FieldTP], c.state[page.FieldPP])
	}
	if !c.d.R.OK || !c.d.R.Res.Fits {
		t.Errorf("the applied plan does not fit: %v %v", c.d.Errs, c.d.General)
	}
	c.onApply(contextOf(t), app.Action{Value: applyPlan{GPU: "no-such-gpu", Plan: page.Plan{GPUs: 1, TP: 1, PP: 1}}})
	if c.state[page.FieldGPU] != "t4" {
		t.Error("an unknown GPU was applied")
	}
}

// loadP4D opens the page on eight A100 40GB SXM GPUs with every offer
// listed; find returns the p4d.24xlarge row of the current table.
func loadP4D(t *testing.T) (*Calculator, func() *page.OfferResult) {
	c, _ := load(t)
	c.state = c.state.WithAll(page.SecOffers, true)
	c.set(none, page.FieldGPU, "a100-40gb-sxm")
	c.state = c.state.WithAll(page.SecOffers, true)
	c.set(none, page.FieldGPUs, "8")
	return c, func() *page.OfferResult {
		t.Helper()
		for i := range c.d.R.Offers {
			if c.d.R.Offers[i].Offer.InstanceType == "p4d.24xlarge" {
				return &c.d.R.Offers[i]
			}
		}
		t.Fatalf("p4d.24xlarge not among %d eight-GPU A100 offers", len(c.d.R.Offers))
		return nil
	}
}

// AWS's 3-year commitment for p4d.24xlarge (reserved.csv: $8.1591/h) shows in
// the offers table next to on-demand.
func TestOffersReserved(t *testing.T) {
	c, find := loadP4D(t)
	p4d := find()
	l := locOf(c)
	if got := l.Money(p4d.Offer.OnDemandPerHour, "USD"); got != "$21.96" {
		t.Errorf("p4d.24xlarge on-demand %q, want $21.96", got)
	}
	if got := page.ReservedText(l, p4d.Offer.Reserved1yPerHour, p4d.Offer.Reserved3yPerHour, "USD"); !strings.Contains(got, "$8.16\u00a03y") {
		t.Errorf("p4d.24xlarge reserved %q, want $8.16 3y (a no-break space)", got)
	}
	if got := page.ReservedText(l, 0, 0, "USD"); got != "—" {
		t.Errorf("no commitment: %q", got)
	}
}

func TestCalculatorBadInput(t *testing.T) {
	c, _ := load(t)
	for _, tc := range []struct {
		f     page.Field
		v     string
		field page.Field
		want  string
	}{
		{page.FieldModel, "no-such-model", page.FieldModel, "unknown choice"},
		{page.FieldPrecision, "fp5", page.FieldPrecision, "unknown choice"},
		{page.FieldBatch, "abc", page.FieldBatch, "not a number"},
		{page.FieldBatch, "0", page.FieldBatch, "out of range"},
		{page.FieldBatch, "99999999999999999999", page.FieldBatch, "out of range"},
		{page.FieldSeq, "-5", page.FieldSeq, "out of range"},
		{page.FieldTP, "3", page.FieldTP, ""}, // 3 does not divide Llama's 32 heads
		{page.FieldGPU, "gtx-9999", page.FieldGPU, "unknown choice"},
		{page.FieldSort, "price", page.FieldSort, "unknown choice"},
	} {
		c.set(none, tc.f, tc.v)
		if c.d.R.OK {
			t.Errorf("%s=%q: a result is shown", page.FieldKeys[tc.f], tc.v)
		}
		if msg := page.ErrText(page.LangOf(&c.state), c.d.Errs[tc.field]); !strings.Contains(msg, tc.want) || c.d.Errs[tc.field].OK() {
			t.Errorf("%s=%q: error next to %s = %q, want it to contain %q (all: %v, general %v)",
				page.FieldKeys[tc.f], tc.v, page.FieldKeys[tc.field], msg, tc.want, c.d.Errs, c.d.General)
		}
		c.set(none, tc.f, page.DefaultState[tc.f])
		if !c.d.R.OK {
			t.Fatalf("back to defaults after %s=%q: no result: %v %v", page.FieldKeys[tc.f], tc.v, c.d.Errs, c.d.General)
		}
	}
	// In Russian the same problem reads in Russian, the estimator's
	// English reason left out.
	c.set(none, page.FieldLang, "ru")
	c.set(none, page.FieldTP, "3")
	if msg := page.ErrText(page.LangOf(&c.state), c.d.Errs[page.FieldTP]); msg != tr(c, page.MsgIncompatible) && msg != tr(c, page.MsgRange) {
		t.Errorf("ru: tp=3 reads %q", msg)
	}
}

// TestCalculatorTasks walks the tasks the page offers for a small model and
// checks each gives a result whose parts add up.
func TestCalculatorTasks(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldModel, "qwen2.5-7b")
	for _, task := range estimator.Tasks {
		c.set(none, page.FieldTask, task.String())
		if !c.d.R.OK {
			t.Errorf("task %s: no result: %v %v", task, c.d.Errs, c.d.General)
			continue
		}
		sum := 0
		for _, p := range page.Parts(locOf(c), c.d.R.Res, c.d.Job.GPU.Vendor) {
			sum += p.Permille
		}
		if sum < 995 || sum > 1005 {
			t.Errorf("task %s: shown parts sum to %d‰", task, sum)
		}
	}
	c.set(none, page.FieldTask, estimator.FullFinetune.String())
	if c.d.R.Res.PerGPU.Optimizer == 0 || c.d.R.Res.PerGPU.Gradients == 0 {
		t.Errorf("full fine-tune without optimizer states or gradients: %+v", c.d.R.Res.PerGPU)
	}
}

// Every message, estimator warning and recommendation reason exists in
// every language.
func TestTranslations(t *testing.T) {
	// Every message in every language: page.TestMessagesTranslated.
	c, _ := load(t)
	c.set(none, page.FieldLang, "ru")
	if got := tr(c, page.MsgFits); got != "Помещается" {
		t.Errorf("ru fits = %q", got)
	}
	html := app.HTMLString(c.Render())
	if !strings.Contains(html, "8\u00a0030\u00a0261\u00a0248") || !strings.Contains(html, "14,96 ГиБ") {
		t.Error("the Russian page does not write 8 030 261 248 (no-break spaces) and 14,96 ГиБ")
	}
	c.set(none, page.FieldLang, "xx")
	if got := tr(c, page.MsgFits); got != "Fits" {
		t.Errorf("unknown language does not fall back to English: %q", got)
	}
}

// Measured overheads replace the estimator's lines; a size without a unit
// is refused next to its field.
func TestOverrides(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldCtx, "2GiB")
	if c.d.R.Res.PerGPU.CUDAContext != 2*estimator.GiB {
		t.Errorf("CUDA context = %d, want 2 GiB", c.d.R.Res.PerGPU.CUDAContext)
	}
	c.set(none, page.FieldUsable, "70GiB")
	if c.d.R.Res.Usable != 70*estimator.GiB {
		t.Errorf("usable = %d, want 70 GiB", c.d.R.Res.Usable)
	}
	c.set(none, page.FieldAlloc, "2")
	if c.d.R.OK || c.d.Errs[page.FieldAlloc].Key != page.MsgNotSize {
		t.Errorf("allocator reserve %q: result %v, error %v", c.state[page.FieldAlloc], c.d.R.OK, c.d.Errs[page.FieldAlloc])
	}
	c.set(none, page.FieldAlloc, "")
	c.set(none, page.FieldUsable, "900TiB")
	if c.d.R.OK || c.d.Errs[page.FieldUsable].OK() {
		t.Errorf("usable 900 TiB: result %v, error %v", c.d.R.OK, c.d.Errs[page.FieldUsable])
	}
}

// Picking a GGUF type changes the weights line: Q8_0 stores blocks of 32
// weights as 32 int8 + one fp16 scale = 34 bytes (ggml-common.h block_q8_0),
// so Llama 3.1 8B is 8,030,261,248 × 34/32 = 8,532,152,576 bytes; the
// K-quants sit between Q4_0 and Q8_0 in size order.
func TestQuantField(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldPrecision, estimator.INT4.String())
	c.set(none, page.FieldEngine, estimator.LlamaCpp.String())
	var prev estimator.Bytes
	for _, q := range []estimator.Quant{estimator.QuantQ4_0, estimator.QuantQ4KM, estimator.QuantQ5KM, estimator.QuantQ6K, estimator.QuantQ8_0} {
		c.set(none, page.FieldQuant, q.String())
		w := c.d.R.Res.PerGPU.Weights
		if !c.d.R.OK || w <= prev {
			t.Errorf("%s: weights %d after %d (result %v, errors %v)", q, w, prev, c.d.R.OK, c.d.Errs)
		}
		prev = w
	}
	if prev != 8532152576 {
		t.Errorf("Q8_0 weights = %d, want 8,532,152,576", prev)
	}
	c.set(none, page.FieldPrecision, estimator.BF16.String())
	c.set(none, page.FieldQuant, estimator.QuantNF4.String())
	c.set(none, page.FieldTask, estimator.FullFinetune.String())
	if !c.d.R.OK {
		t.Errorf("a hidden weight format blocked a full fine-tune: %v %v", c.d.Errs, c.d.General)
	}
}

// A user's price sheet replaces catalog prices in the page (offers table,
// cheapest-price column) and marks the rows it changed; a broken sheet is
// refused with the row named and the prices unchanged.
func TestPriceSheet(t *testing.T) {
	c, find := loadP4D(t)
	sheet := "offer_id,on_demand_per_hour,currency,as_of,source\naws-p4d.24xlarge,4,USD,2026-11-01,our AWS private pricing addendum\n"
	if !c.applySheet(none, "aws.csv", sheet) {
		t.Fatalf("sheet refused: %s", c.sheet.Err)
	}
	if o := find(); o.Offer.OnDemandPerHour != 4 || !o.Own || o.Offer.AsOf != "2026-11-01" {
		t.Errorf("after the sheet: %+v", *o)
	}
	if c.sheet.Rows != 1 || len(c.pr.Own) != 1 {
		t.Errorf("sheet summary: %d rows, %d offers", c.sheet.Rows, len(c.pr.Own))
	}
	// $4.00 / 8 GPUs = $0.50 per GPU-hour: now the cheapest A100 40GB SXM.
	if f := fitOf(t, c, "a100-40gb-sxm"); f.From.PerGPUHour != 0.5 {
		t.Errorf("fit table From = %v, want 0.50", f.From.PerGPUHour)
	}
	if c.applySheet(none, "bad.csv", "offer_id,on_demand_per_hour,currency,as_of,source\naws-p4d.24xlarge,cheap,USD,2026-11-01,x\n") {
		t.Fatal("a sheet with a non-numeric price was accepted")
	}
	if !strings.Contains(c.sheet.Err, "bad.csv") || !strings.Contains(c.sheet.Err, "on_demand_per_hour") {
		t.Errorf("sheet error %q does not name the file and column", c.sheet.Err)
	}
	if o := find(); o.Offer.OnDemandPerHour != 4 {
		t.Errorf("a refused sheet changed prices: %+v", *o)
	}
	if c.applySheet(none, "huge.csv", strings.Repeat("x", maxSheetBytes+1)) || !strings.Contains(c.sheet.Err, tr(c, page.MsgFileTooBig)) {
		t.Errorf("an oversized sheet: %q", c.sheet.Err)
	}
	c.onSheet(contextOf(t), app.Action{Value: userFile{Remove: true}})
	if o := find(); locOf(c).Money(o.Offer.OnDemandPerHour, "USD") != "$21.96" || o.Own {
		t.Errorf("after clearing: %+v", *o)
	}
	if c.applySheet(none, "empty.json", "[]") {
		t.Error("an empty sheet was accepted")
	}
}

// The rules-of-thumb table: on the default page (Llama 3.1 8B, bf16,
// batch 1 × 2048), parameters × 4 bytes = 32,121,044,992 B = 29.92 GiB
// against the estimate, and weights × 1.2 = 17.95 GiB.
func TestRulesTable(t *testing.T) {
	// The rules' figures: page.TestRulesOfThumb.
	c, _ := load(t)
	l := locOf(c)
	// Folded by default: its name only; opened (as a link's show=rules
	// opens it), the table.
	html := app.HTMLString(c.Render())
	if !strings.Contains(html, `id="rs-fold-rules"`) || strings.Contains(html, `data-rule="params-x4-bytes"`) {
		t.Error("the rules section is not folded by default")
	}
	c.state = c.state.WithOpen(page.SecRules, true)
	html = app.HTMLString(c.Render())
	if !strings.Contains(html, `data-rule="params-x4-bytes"`) || !strings.Contains(html, l.SignedPercent(c.d.R.Rules[0].Error())) {
		t.Error("rules table missing from the opened section")
	}
}

// A user's own config.json becomes the model: parsed by the estimator,
// listed in the model field, and a broken one is refused with its field
// named. The config travels in the link, so another browser gets it.
func TestCustomModel(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldModel, page.CustomModelID)
	if c.d.R.OK || c.d.Errs[page.FieldModel].Key != page.MsgNoCustomModel {
		t.Errorf("m=custom without a file: result %v, error %v", c.d.R.OK, c.d.Errs[page.FieldModel])
	}
	cfg, err := os.ReadFile("../estimator/testdata/configs/qwen2.5-7b.json")
	if err != nil {
		t.Fatal(err)
	}
	if !useConfig(t, c, "config.json", string(cfg)) {
		t.Fatalf("config refused: %s", c.own.err)
	}
	// Qwen2.5-7B: 7,615,616,512 parameters (model card / safetensors total).
	if !c.d.R.OK || c.d.R.Res.Params != 7615616512 || c.state[page.FieldModel] != page.CustomModelID {
		t.Fatalf("custom model: result %v, params %d, model %q", c.d.R.OK, c.d.R.Res.Params, c.state[page.FieldModel])
	}
	if html := app.HTMLString(c.Render()); !strings.Contains(html, tr(c, page.MsgYourModel)+": config.json") {
		t.Error("the loaded config is not in the model list")
	}
	// The link carries the config: a fresh page opening it has the model.
	frag := c.link().Encode(page.DefaultState)
	if len(frag) > 2000 {
		t.Errorf("link with the config is %d bytes", len(frag))
	}
	d, _ := load(t)
	d.applyFragment(none, frag)
	if !d.d.R.OK || d.d.R.Res.Params != 7615616512 {
		t.Errorf("a link with the config opened elsewhere: result %v, params %d (%v)", d.d.R.OK, d.d.R.Res.Params, d.d.Errs[page.FieldModel])
	}
	if useConfig(t, c, "broken.json", `{"model_type":"llama","hidden_size":4096}`) {
		t.Fatal("a config without layers was accepted")
	}
	if !strings.Contains(c.own.err, "broken.json") || !strings.Contains(c.own.err, "num_hidden_layers") {
		t.Errorf("config error %q does not name the file and the missing field", c.own.err)
	}
	if c.d.R.Res.Params != 7615616512 {
		t.Error("a refused config replaced the loaded one")
	}
	if useConfig(t, c, "big.json", strings.Repeat(" ", page.MaxConfigBytes+1)) || !strings.Contains(c.own.err, tr(c, page.MsgConfigTooBig)) {
		t.Errorf("an oversized config: %q", c.own.err)
	}
}

// "Longest sequence that fits" stops at the model's context length.
func TestMaxSeqModelLimit(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldModel, "gpt2") // 1024 positions: an H100 holds far more
	if !c.d.R.OK {
		t.Fatalf("gpt2: %v %v", c.d.Errs, c.d.General)
	}
	if !c.d.R.SeqCapped || c.d.R.MaxSeq != 1024 {
		t.Errorf("gpt2 on an H100: max seq %d, capped %v; want 1024, capped", c.d.R.MaxSeq, c.d.R.SeqCapped)
	}
	if !strings.Contains(app.HTMLString(c.Render()), tr(c, page.MsgModelLimit)) {
		t.Error("the model limit is not said")
	}
}

// A newer build fetched by the service worker is offered as a reload
// banner, not swapped in under the user.
func TestUpdateBanner(t *testing.T) {
	c, _ := load(t)
	if strings.Contains(app.HTMLString(c.Render()), `id="rs-update"`) {
		t.Fatal("update banner shown without an update")
	}
	c.start.UpdateReady = true
	if !strings.Contains(app.HTMLString(c.Render()), tr(c, page.MsgUpdateReady)) {
		t.Error("no update banner when an update is ready")
	}
}

// Every table agrees with the recommendation: the fit table's cost for a
// GPU is the planner's cheapest row on it, the offers table's cost for an
// offer is the planner's row for it, the cheapest badge sits on the
// cheapest pick's GPU, and clicking either row applies that row's plan.
func TestTablesAgreeWithPlan(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldTask, estimator.FullFinetune.String())
	c.set(none, page.FieldZeRO, "3")
	c.set(none, page.FieldGPUs, "8")
	var cheap page.Pick
	for _, p := range c.ps.Out.Picks {
		if p.Kind == page.PickCheapest {
			cheap = p
		}
	}
	if cheap.Offer == nil {
		t.Fatalf("no cheapest pick: %v", c.ps.Out.Err)
	}
	l := locOf(c)
	html := fitHTML(c)
	row := rowOf(t, html, `data-gpu="`+cheap.Offer.GPU+`"`)
	if !strings.Contains(row, l.Money(cheap.Cost, c.ps.Out.Currency)) || !strings.Contains(row, tr(c, page.MsgCheapest)) {
		t.Errorf("fit row of the cheapest pick's GPU lacks its cost %s and badge: %s", l.Money(cheap.Cost, c.ps.Out.Currency), row)
	}
	if !strings.Contains(row, `data-gpus="`+strconv.Itoa(cheap.Plan.GPUs)+`"`) || !strings.Contains(row, `data-zero="`+strconv.Itoa(cheap.Plan.ZeRO)+`"`) {
		t.Errorf("fit row does not carry the pick's plan %+v: %s", cheap.Plan, row)
	}
	if n := strings.Count(html, tr(c, page.MsgCheapest)+" "); n != 1 {
		t.Errorf("%d rows marked cheapest", n)
	}
	// Sorted by cost, the cheapest pick's GPU is first.
	c.set(none, page.FieldSort, page.SortCost.String())
	html = fitHTML(c)
	first := html[strings.Index(html, "<tbody"):]
	if i := strings.Index(first, "data-gpu="); i < 0 || !strings.HasPrefix(first[i:], `data-gpu="`+cheap.Offer.GPU+`"`) {
		t.Errorf("sorted by cost, the first row is not %s", cheap.Offer.GPU)
	}
	// The offers table of the pick's GPU prices the pick's offer as the pick.
	c.onApply(contextOf(t), app.Action{Value: applyPlan{GPU: cheap.Offer.GPU, Plan: cheap.Plan}})
	c.state = c.state.WithAll(page.SecOffers, true)
	c.recompute(none)
	x, ok := c.ps.Out.ByOffer[cheap.Offer.ID]
	if !ok {
		t.Fatalf("offer %s not planned after applying its plan", cheap.Offer.ID)
	}
	want := c.ps.Out.Cands[x]
	html = offersHTML(c)
	row = rowOf(t, html, `data-offer="`+cheap.Offer.ID+`"`)
	if !strings.Contains(row, l.Money(want.Cost, c.ps.Out.Currency)) || !strings.Contains(row, `data-gpus="`+strconv.Itoa(want.Plan.GPUs)+`"`) {
		t.Errorf("offer row of %s lacks the planner's cost %s or plan %+v: %s", cheap.Offer.ID, l.Money(want.Cost, c.ps.Out.Currency), want.Plan, row)
	}
	// Offers the planner priced are listed cheapest first.
	prev := 0.0
	for _, id := range offerIDs(html) {
		i, ok := c.ps.Out.ByOffer[id]
		if !ok {
			prev = math.Inf(1)
			continue
		}
		if cost := c.ps.Out.Cands[i].Cost; cost < prev {
			t.Errorf("offer %s (%v) listed after a dearer or unpriced one (%v)", id, cost, prev)
		} else {
			prev = cost
		}
	}
}

// rowOf is the <tr> of html holding attr.
func rowOf(t *testing.T, html, attr string) string {
	t.Helper()
	i := strings.Index(html, attr)
	if i < 0 {
		t.Fatalf("no row with %s", attr)
	}
	start := strings.LastIndex(html[:i], "<tr")
	end := strings.Index(html[i:], "</tr>")
	return html[start : i+end]
}

// offerIDs are the offers' IDs in table order.
func offerIDs(html string) []string {
	var ids []string
	for {
		i := strings.Index(html, `data-offer="`)
		if i < 0 {
			return ids
		}
		html = html[i+len(`data-offer="`):]
		ids = append(ids, html[:strings.IndexByte(html, '"')])
	}
}

// The answer first: the planner's three picks, each one that runs the
// job; cheapest has the lowest cost, fastest the shortest time within
// twice its cost (planner.AltCostBound), and no
// plan is both cheaper and faster than the value pick; the chart has one
// circle per point; reasons come from the planner's keys, translated.
func TestRecommendation(t *testing.T) {
	c, _ := load(t)
	if !c.ps.Out.OK || len(c.ps.Out.Picks) != 3 {
		t.Fatalf("plan %v: %d picks (%v)", c.ps.Out.OK, len(c.ps.Out.Picks), c.ps.Out.Err)
	}
	// Which offers the picks are: page.TestPicks.
	cheap := c.ps.Out.Picks[0]
	html := app.HTMLString(c.Render())
	// A card per plan: picks naming one plan share it (page.PickCards).
	if _, cards := page.PickCards(c.ps.Out.Picks); strings.Count(html, `data-kind="`) != cards || cards < 1 {
		t.Errorf("%d cards on the page for %d plans", strings.Count(html, `data-kind="`), cards)
	}
	if n := strings.Count(html, "<circle"); n != len(c.ps.Out.Points) || n == 0 {
		t.Errorf("%d circles for %d points", n, len(c.ps.Out.Points))
	}
	if strings.Contains(html, "style=") {
		t.Error("an inline style attribute: the Content-Security-Policy refuses it")
	}
	// Applying a pick sets its GPU, count and split.
	c.onApply(contextOf(t), app.Action{Value: applyPlan{GPU: cheap.Offer.GPU, Plan: cheap.Plan}})
	if c.state[page.FieldGPU] != cheap.Offer.GPU || c.state[page.FieldGPUs] != strconv.Itoa(cheap.Plan.GPUs) {
		t.Errorf("after applying the cheapest pick: %s × %s", c.state[page.FieldGPUs], c.state[page.FieldGPU])
	}
}

// Pin keeps a configuration; the link carries it and the compare table
// shows both side by side.
func TestPinAndCompare(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldPrecision, estimator.INT8.String())
	c.set(none, page.FieldGPU, "t4")
	p := c.state
	c.pin = &p
	c.set(none, page.FieldPrecision, estimator.BF16.String())
	c.set(none, page.FieldGPU, "a100-80gb-sxm")
	frag := c.link().Encode(page.DefaultState)
	d, _ := load(t)
	d.applyFragment(none, frag)
	if d.pin == nil || d.pin[page.FieldGPU] != "t4" || d.state[page.FieldGPU] != "a100-80gb-sxm" {
		t.Fatalf("link %q: pin %v, gpu %s", frag, d.pin, d.state[page.FieldGPU])
	}
	if !d.d.Pinned.OK || d.d.Pinned.Res.PerGPU.Weights >= d.d.R.Res.PerGPU.Weights {
		t.Errorf("pinned int8 weights %d, live bf16 %d", d.d.Pinned.Res.PerGPU.Weights, d.d.R.Res.PerGPU.Weights)
	}
	html := app.HTMLString(d.Render())
	if !strings.Contains(html, `id="rs-compare"`) || !strings.Contains(html, "T4") {
		t.Error("no compare table with the pinned T4")
	}
}

// Embed mode: results only, a link to the full page, no inputs.
func TestEmbed(t *testing.T) {
	c, _ := load(t)
	c.applyFragment(none, "embed=1&m=qwen2.5-7b")
	html := app.HTMLString(c.Render())
	if strings.Contains(html, `id="rs-model"`) || !strings.Contains(html, `id="rs-recommendation"`) || !strings.Contains(html, `id="rs-open-full"`) {
		t.Error("embed page: want results and the open link, no inputs")
	}
	if strings.Contains(fullLinkOf(c), "embed") || !strings.Contains(fullLinkOf(c), "m=qwen2.5-7b") {
		t.Errorf("open-in-Rightsize link %q", fullLinkOf(c))
	}
}

// The embed page is a read-only view of the linked job in every language:
// its job line is text, not buttons that open editors; its picks have no
// "Use this"; its one link opens the same job on the full page.
func TestEmbedReadOnly(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		c, _ := load(t)
		c.applyFragment(none, "embed=1&m=qwen2.5-7b&l="+lang)
		html := app.HTMLString(c.Render())
		if !strings.Contains(html, `id="rs-job-line"`) || !strings.Contains(html, `id="rs-recommendation"`) {
			t.Fatalf("%s: embed page without its job line or picks", lang)
		}
		for _, editing := range []string{"rs-job-part", ">" + page.Tr(lang, page.MsgUseThis) + "<", "<button", "<input", "<select"} {
			if strings.Contains(html, editing) {
				t.Errorf("%s: the embed page has %q", lang, editing)
			}
		}
		// Links stay on the page's origin: the accuracy page, and one to
		// the full page.
		for _, a := range regexp.MustCompile(`<a [^>]*>`).FindAllString(html, -1) {
			_, href, _ := strings.Cut(a, `href="`)
			href, _, _ = strings.Cut(href, `"`)
			if href != "accuracy.html" && (!strings.HasPrefix(href, "#") || !strings.Contains(a, `id="rs-open-full"`)) {
				t.Errorf("%s: the embed page links to %q", lang, href)
			}
		}
		if strings.Count(html, `href="#`) != 1 || !strings.Contains(html, ">"+page.Tr(lang, page.MsgOpenInRightsize)+"<") {
			t.Errorf("%s: want one Open in Rightsize", lang)
		}
		if l := fullLinkOf(c); strings.Contains(l, "embed") || !strings.Contains(l, "m=qwen2.5-7b") || lang != "en" && !strings.Contains(l, "l="+lang) {
			t.Errorf("%s: open-in-Rightsize link %q", lang, l)
		}
	}
}

// "Show all" under the fit table lists every GPU and puts it in the
// link; picking another GPU keeps it there and cuts the offers table
// (another GPU's offers) to its first rows again.
func TestShowAllFit(t *testing.T) {
	c, _ := load(t)
	c.state = c.state.WithOpen(page.SecFit, true).WithAll(page.SecOffers, true)
	if n, more := len(viewOf(c).Fit.Rows), viewOf(c).Fit.More; n != page.FitShown || more != len(c.d.R.Fit)-n {
		t.Fatalf("fit table: %d rows, %d more of %d", n, more, len(c.d.R.Fit))
	}
	if !strings.Contains(fitHTML(c), `id="rs-more-fit"`) {
		t.Error("no Show all under the fit table")
	}
	c.onShowAll(contextOf(t), app.Action{Value: page.SecFit})
	if v := viewOf(c); len(v.Fit.Rows) != len(c.d.R.Fit) || v.Fit.More != 0 || strings.Contains(fitHTML(c), `id="rs-more-fit"`) {
		t.Errorf("shown whole: %d rows of %d, %d more", len(v.Fit.Rows), len(c.d.R.Fit), v.Fit.More)
	}
	if l := c.link().Encode(page.DefaultState); !strings.Contains(l, "show=fit.all-fit.all-offers") {
		t.Errorf("link %q", l)
	}
	c.set(none, page.FieldGPU, "a100-80gb")
	if !c.state.ShowsAll(page.SecFit) || c.state.ShowsAll(page.SecOffers) || viewOf(c).Offers.More == 0 {
		t.Errorf("another GPU: show %q, %d more offers", c.state[page.FieldShow], viewOf(c).Offers.More)
	}
}

// Exports carry the picks and every charted offer, with numbers a
// spreadsheet can use.
func TestExport(t *testing.T) {
	c, _ := load(t)
	rows := strings.Split(strings.TrimSpace(page.ExportCSV(c.viewIn())), "\n")
	if len(rows) != 1+3+len(c.ps.Out.Cands) || len(c.ps.Out.Cands) < len(c.ps.Out.Points) || !strings.HasPrefix(rows[1], "cheapest,") {
		t.Errorf("CSV: %d rows, first %q", len(rows), rows[1])
	}
	if js := page.ExportJSON(c.viewIn(), c.link().Encode(page.DefaultState)); !strings.Contains(js, `"pick": "value"`) || !strings.Contains(js, `"memory_per_gpu_bytes"`) {
		t.Error("JSON export lacks the picks or the memory")
	}
	if md := page.ExportMarkdown(c.viewIn()); !strings.Contains(md, "| Weights | 14.96 GiB |") {
		t.Errorf("Markdown export:\n%s", md)
	}
}

// The hardware disagrees with the input: fp8 before Ada/Hopper (A100,
// where the default serving engine runs it as W8A16 Marlin), FP4 before
// Blackwell (H100); none on a B200.
func TestHardwareWarnings(t *testing.T) {
	c, _ := load(t)
	for _, tc := range []struct {
		gpu  string
		d    estimator.DType
		want page.MsgKey
	}{{"a100-80gb-sxm", estimator.FP8, page.MsgHWFP8Marlin}, {"h100-sxm", estimator.FP4, page.MsgHWNoFP4}, {"v100-32gb", estimator.BF16, page.MsgHWNoBF16}} {
		c.set(none, page.FieldGPU, tc.gpu)
		c.set(none, page.FieldPrecision, tc.d.String())
		if !slices.Contains(c.d.R.HWWarn, tc.want) {
			t.Errorf("%s on %s: warnings %v", tc.d, tc.gpu, c.d.R.HWWarn)
		}
	}
	c.set(none, page.FieldGPU, "b200")
	c.set(none, page.FieldPrecision, estimator.FP4.String())
	if len(c.d.R.HWWarn) != 0 {
		t.Errorf("fp4 on a B200: warnings %v", c.d.R.HWWarn)
	}
}

// Assumptions: an MFU override changes the training speed in proportion
// (compute-bound), and a share above 1 is refused.
func TestAssumptions(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldTask, estimator.FullFinetune.String())
	c.set(none, page.FieldGPUs, "8")
	c.set(none, page.FieldZeRO, "3")
	base := c.d.R.Perf
	if !base.OK {
		t.Fatalf("no speed: %v %v", c.d.Errs, c.d.General)
	}
	c.set(none, page.FieldMFU, strconv.FormatFloat(base.Eff.MFU/2, 'f', -1, 64))
	if c.d.R.Perf.Eff.MFU != base.Eff.MFU/2 || c.d.R.Perf.P.TokensPerSecond >= base.P.TokensPerSecond {
		t.Errorf("half the MFU: %v tokens/s (was %v), MFU %v", c.d.R.Perf.P.TokensPerSecond, base.P.TokensPerSecond, c.d.R.Perf.Eff.MFU)
	}
	c.set(none, page.FieldMFU, "1.5")
	if c.d.R.OK || c.d.Errs[page.FieldMFU].Key != page.MsgRange {
		t.Errorf("MFU 1.5: %v", c.d.Errs[page.FieldMFU])
	}
	c.set(none, page.FieldMFU, "")
	if html := app.HTMLString(c.Render()); !strings.Contains(html, `id="rs-fx"`) || !strings.Contains(html, "RUB") {
		t.Error("the Assumptions box lacks the exchange rates")
	}
}

// An invalid field keeps the last answer, greyed with a note, instead of
// removing it (the page would lose and regain its height); a valid value
// replaces it with a fresh plan.
func TestAnswerKeptWhileFieldInvalid(t *testing.T) {
	c, _ := load(t)
	if !c.ps.Out.OK || len(c.ps.Out.Picks) != 3 {
		t.Fatalf("no plan on the default page: %v", c.ps.Out.Err)
	}
	_, cards := page.PickCards(c.ps.Out.Picks)
	c.set(none, page.FieldBatch, "abc")
	if c.d.R.OK {
		t.Fatal("batch abc gave a result")
	}
	html := app.HTMLString(c.Render())
	if !strings.Contains(html, `id="rs-answer-stale"`) || strings.Count(html, `data-kind="`) != cards {
		t.Errorf("with batch abc the page lost its last answer: stale note %v, %d picks",
			strings.Contains(html, `id="rs-answer-stale"`), strings.Count(html, `data-kind="`))
	}
	c.set(none, page.FieldBatch, "4")
	html = app.HTMLString(c.Render())
	if !c.d.R.OK || !c.ps.Out.OK || strings.Contains(html, `id="rs-answer-stale"`) || strings.Count(html, `data-kind="`) != cards {
		t.Errorf("after batch 4: result %v, plan %v, stale note %v", c.d.R.OK, c.ps.Out.OK, strings.Contains(html, `id="rs-answer-stale"`))
	}
}

// A link holding the view on screen changes nothing (OnNav then skips its
// update); any difference in state, pin or embed flag applies.
func TestApplyFragmentReportsChange(t *testing.T) {
	c, _ := load(t)
	if c.applyFragment(none, "") {
		t.Error("an empty fragment on the default view reported a change")
	}
	if c.applyFragment(none, c.link().Encode(page.DefaultState)) {
		t.Error("the view's own link reported a change")
	}
	// "#%" holds the default view but a part the page cannot read: its note
	// is a change on screen, and so is the note going away.
	if !c.applyFragment(none, "%") || !slices.Equal(c.share.notes.link, []string{"%"}) {
		t.Errorf(`"%%" on the default view: change not reported, ignored %q`, c.share.notes.link)
	}
	if !c.applyFragment(none, "") || len(c.share.notes.link) != 0 {
		t.Errorf("the note on an ignored part did not go: %q", c.share.notes.link)
	}
	if !c.applyFragment(none, "m=qwen2.5-7b") || c.state[page.FieldModel] != "qwen2.5-7b" {
		t.Errorf("a link to another model: model %s", c.state[page.FieldModel])
	}
	own := c.link().Encode(page.DefaultState)
	if c.applyFragment(none, own) {
		t.Errorf("re-applying %q reported a change", own)
	}
	if !c.applyFragment(none, own+"&embed=1") || !c.embed {
		t.Error("adding the embed flag was not applied")
	}
}

// TestFirstScreenComputesNothing: while the static page's results stand in
// on the default view's first screen, recompute parses and computes
// nothing (the browser would compile the estimator for it before the page
// answers input); the first step after the page is live computes and
// plans, and an input before it computes at once.
func TestFirstScreenComputesNothing(t *testing.T) {
	newCalc := func() *Calculator {
		c := &Calculator{state: page.DefaultState}
		c.sheet.base = catalog.Default()
		c.pr = page.NewPrices(c.sheet.base, nil)
		c.start.static[page.StaticResult] = app.Window().GetElementByID("rs-result") // a stand-in
		c.start.Held[page.StaticResult] = true
		return c
	}
	c := newCalc()
	if !c.firstScreen() {
		t.Fatal("default view with a static copy: not the first screen")
	}
	c.recompute(none)
	if c.d.R.OK || c.d.Job.Model.ID != "" || !c.ps.Pending() {
		t.Fatalf("first screen: result %v, job model %q, plan pending %v", c.d.R.OK, c.d.Job.Model.ID, c.ps.Pending())
	}
	if html := app.HTMLString(formUI(&viewOf(c).Form)); strings.Contains(html, `id="rs-spot-interruptions"`) || !strings.Contains(html, `id="rs-assumptions"`) {
		t.Error("first screen: the Assumptions box is missing or already filled")
	}
	if step := c.start.FirstStep(c.firstScreen()); step != page.StepCompute {
		t.Fatalf("first step %v, want StepCompute", step)
	}
	c.recompute(none) // what showRest's first step does
	if !c.d.R.OK || c.d.Job.Model.ID == "" || !c.ps.Out.OK || c.firstScreen() {
		t.Fatalf("first step: result %v, job model %q, plan %v", c.d.R.OK, c.d.Job.Model.ID, c.ps.Out.OK)
	}
	if html := app.HTMLString(formUI(&viewOf(c).Form)); !strings.Contains(html, `id="rs-spot-interruptions"`) {
		t.Error("after the first step the Assumptions box is still empty")
	}
	if !c.start.Keeps(page.StaticResult, c.plainView(), c.ps.Out.OK) {
		t.Error("the first step dropped the static breakdown: its live render belongs to the next step")
	}
	if step := c.start.FirstStep(c.firstScreen()); step != page.StepShow || c.start.Keeps(page.StaticResult, c.plainView(), c.ps.Out.OK) {
		t.Errorf("second step %v, static breakdown kept %v; want StepShow, not kept", step, c.start.Keeps(page.StaticResult, c.plainView(), c.ps.Out.OK))
	}

	c = newCalc()
	c.recompute(none)
	c.set(none, page.FieldBatch, "4")
	if !c.d.R.OK || c.firstScreen() {
		t.Errorf("an input on the first screen: result %v", c.d.R.OK)
	}
}

// TestVerifySaysHowToCheck: the speed box tells an HF transformers user
// to time generate() after a pass over the same lengths (the first pass
// builds a cuDNN plan per length on an H100: 3–6× the step), and a
// serving engine's user to run a benchmark client, in each language.
func TestVerifySaysHowToCheck(t *testing.T) {
	if app.IsClient {
		t.Skip("in the browser a basis box renders its body when opened; the prerendered page, built natively, carries it")
	}
	for _, c := range []struct {
		frag string
		want page.MsgKey
		lang string
	}{
		{"", page.MsgVerifyVLLM, "en"}, // the engine on auto: vLLM
		{"e=hf", page.MsgVerifyHF, "en"},
		{"e=vllm", page.MsgVerifyVLLM, "en"},
		{"l=ru&e=hf", page.MsgVerifyHF, "ru"},
		{"l=zh&e=sglang", page.MsgVerifyVLLM, "zh"},
	} {
		calc, _ := load(t)
		calc.state = page.ParseFragment(c.frag, page.DefaultState)
		calc.start.FirstStepDone = true
		calc.recompute(none)
		html := app.HTMLString(calc.Render())
		msgs := page.Messages[c.lang]
		if !strings.Contains(html, htmlText(msgs[c.want])) {
			t.Errorf("%q: the speed box lacks %q", c.frag, msgs[c.want])
		}
		other := page.MsgVerifyVLLM
		if c.want == page.MsgVerifyVLLM {
			other = page.MsgVerifyHF
		}
		if strings.Contains(html, htmlText(msgs[other])) {
			t.Errorf("%q: the speed box says %q", c.frag, msgs[other])
		}
	}
}

// The fit table's "From" price is in the page's currency, as the plan's
// cost beside it: with RUB an H100's cheapest USD listing reads in
// roubles at the catalog's dated rate (it read "$/GPU·h" next to rouble
// costs).
func TestFitFromInPageCurrency(t *testing.T) {
	c, _ := load(t)
	c.state = c.state.WithAll(page.SecFit, true)
	rate, ok := c.pr.Cat.FX("RUB")
	if !ok || !(rate.PerUSD > 0) {
		t.Fatal("the catalog has no RUB rate")
	}
	usd := map[string]string{}
	for _, r := range viewOf(c).Fit.Rows {
		usd[r.GPU] = r.From
	}
	c.set(none, page.FieldCurrency, "RUB")
	l := locOf(c)
	n := 0
	for _, r := range viewOf(c).Fit.Rows {
		f := fitOf(t, c, r.GPU).From
		if !(f.PerGPUHour > 0) {
			continue
		}
		n++
		want := l.Money(f.PerGPUHour*rate.PerUSD, "RUB") + "/" + tr(c, page.MsgGPUHour)
		if f.Currency != "USD" || r.From != want || r.From == usd[r.GPU] {
			t.Errorf("%s: from %q in RUB (%q in USD), want %q", r.GPU, r.From, usd[r.GPU], want)
		}
	}
	if n < 20 {
		t.Errorf("%d fit rows with a price", n)
	}
}

// A training job that does not fit says what gradient checkpointing would
// need (the CLI's with_grad_checkpointing): 70B QLoRA at 4 × 4,096 on an
// H100, checkpointing off (gc=0: QLoRA's default is on), does not fit
// either way; the default inference page shows no such line.
func TestCheckpointingFact(t *testing.T) {
	c, _ := load(t)
	if html := app.HTMLString(c.Render()); strings.Contains(html, `id="rs-with-gc"`) {
		t.Error("the inference page shows the checkpointing line")
	}
	c.state = page.ParseFragment("m=llama-3.1-70b&t=qlora&gc=0&b=4&s=4096&l=ru", page.DefaultState)
	c.recompute(none)
	if !c.d.R.OK || c.d.R.Res.Fits || !c.d.R.HasCheckpointed {
		t.Fatalf("70B QLoRA at 4 × 4096: ok %v, fits %v, checkpointed %v", c.d.R.OK, c.d.R.Res.Fits, c.d.R.HasCheckpointed)
	}
	html := app.HTMLString(c.Render())
	want := locOf(c).Bytes(c.d.R.Checkpointed.PerGPU.Total()) + " · ✗ " + tr(c, page.MsgDoesNotFit)
	if !strings.Contains(html, `id="rs-with-gc"`) || !strings.Contains(html, want) || !strings.Contains(html, "С пересчётом активаций") {
		t.Errorf("the checkpointing line is missing or wrong: want %q", want)
	}
}

// viewOf is the view the page renders now.
func viewOf(c *Calculator) *page.View {
	v := page.BuildView(c.viewIn())
	return &v
}

// offersHTML and fitHTML are the offers and fit sections as the page renders them.
func offersHTML(c *Calculator) string {
	v := viewOf(c)
	return app.HTMLString((&offersSection{V: &v.Offers, Lang: v.Lang}).Render())
}

func fitHTML(c *Calculator) string {
	v := viewOf(c)
	return app.HTMLString((&fitSection{V: &v.Fit, Lang: v.Lang}).Render())
}

// sheetUIOf and configUIOf render the page's price-sheet and own-model
// sections as the page does.
func sheetUIOf(c *Calculator) app.UI {
	return app.Div().Body(restOf(c, page.SecPrices))
}

func configUIOf(c *Calculator) app.UI {
	return app.Div().Body(restOf(c, page.SecModel))
}

// restOf is section sec below the first screen, opened.
func restOf(c *Calculator, sec page.Section) app.UI {
	c.state = c.state.WithOpen(sec, true)
	return &fold{Sec: sec, Open: true, C: c}
}

// fullLinkOf is the embed page's "Open in Rightsize" fragment.
func fullLinkOf(c *Calculator) string {
	doc := app.HTMLString(c.Render())
	i := strings.Index(doc, `id="rs-open-full"`)
	if i < 0 {
		return ""
	}
	a := doc[strings.LastIndex(doc[:i], "<"):]
	a = a[:strings.Index(a, ">")]
	_, href, _ := strings.Cut(a, `href="#`)
	href, _, _ = strings.Cut(href, `"`)
	return html.UnescapeString(href)
}

// answerOf is the page's answer section.
func answerOf(c *Calculator) app.UI {
	return answerUI(viewOf(c), c.open.part.Field(), c.cmp.ids, c.embed)
}

// useConfig hands the page a config.json as its own-model section does,
// and reports whether the page took it.
func useConfig(t *testing.T, c *Calculator, name, text string) bool {
	t.Helper()
	c.onConfig(contextOf(t), app.Action{Value: userFile{Name: name, Text: text}})
	return c.own.err == ""
}

// none is no context: the page's before mount, as natively, where it
// computes and plans at once.
var none app.Context

// locOf is the page's locale: its language and units.
func locOf(c *Calculator) page.Locale {
	return page.Locale{Lang: page.LangOf(&c.state), Units: c.d.Job.Units}
}
