package app

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/estimator"
)

func TestParseFragment(t *testing.T) {
	def := defaultState
	with := func(kv ...any) viewState {
		s := def
		for i := 0; i < len(kv); i += 2 {
			s[kv[i].(field)] = kv[i+1].(string)
		}
		return s
	}
	for _, tc := range []struct {
		frag string
		want viewState
	}{
		{"", def},
		{"m=qwen2.5-7b", with(fModel, "qwen2.5-7b")},
		{"m=mistral-7b-v0.1&p=int4", with(fModel, "mistral-7b-v0.1", fPrecision, "int4")},
		{"p=fp32&zz=ignored", with(fPrecision, "fp32")},
		{"m=%zz", def}, // malformed escape: keep defaults, do not crash
		{"m=no-such-model&b=abc", with(fModel, "no-such-model", fBatch, "abc")},
		{"t=lora&r=64&l=zh", with(fTask, "lora", fLoRARank, "64", fLang, "zh")},
	} {
		if got := parseFragment(tc.frag, def); got != tc.want {
			t.Errorf("parseFragment(%q) = %v, want %v", tc.frag, got, tc.want)
		}
	}
	s := with(fModel, "qwen2.5-7b", fPrecision, "int8", fBatch, "8")
	if got := parseFragment(s.fragment(def), def); got != s {
		t.Errorf("round trip of %q = %v, want %v", s.fragment(def), got, s)
	}
	if got, want := s.fragment(def), "b=8&m=qwen2.5-7b&p=int8"; got != want {
		t.Errorf("fragment() = %q, want %q (only changed fields, plus the model)", got, want)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {8030261248, "8,030,261,248"}, {-1234567, "-1,234,567"}} {
		if got := formatCount(tc.n); got != tc.want {
			t.Errorf("formatCount(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := formatGiB(16 * estimator.GiB); got != "16.00 GiB" {
		t.Errorf("formatGiB(16 GiB) = %q", got)
	}
	if got := formatGB(16 * estimator.GB); got != "16.00 GB" {
		t.Errorf("formatGB(16 GB) = %q", got)
	}
	for _, tc := range []struct {
		v    float64
		cur  string
		want string
	}{{0.526, "USD", "$0.53"}, {0, "USD", "—"}, {0.05, "USD", "$0.050"}, {245.5, "RUB", "₽ 245.50"}, {12, "CNY", "¥12.00"}, {3, "CHF", "CHF 3.00"}} {
		if got := money(tc.v, tc.cur); got != tc.want {
			t.Errorf("money(%v, %s) = %q, want %q", tc.v, tc.cur, got, tc.want)
		}
	}
}

func load(t *testing.T) (*Calculator, app.TestEngine) {
	t.Helper()
	e := app.NewTestEngine()
	c := &Calculator{}
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return c, e
}

// TestCalculatorDefault renders the page natively (OnInit runs, OnMount and
// OnNav do not) and checks the default estimate: Llama 3.1 8B in bf16 holds
// 8,030,261,248 parameters × 2 bytes = 16,060,522,496 B = 14.96 GiB of
// weights (model card / safetensors index total_size).
func TestCalculatorDefault(t *testing.T) {
	c, _ := load(t)
	if !c.haveResult {
		t.Fatalf("no result for the defaults: errors %v %v", c.errs, c.general)
	}
	if c.res.Params != 8030261248 {
		t.Errorf("params = %d, want 8,030,261,248", c.res.Params)
	}
	if got := c.bytes(c.res.PerGPU.Weights); got != "14.96 GiB" {
		t.Errorf("weights = %s, want 14.96 GiB", got)
	}
	if !c.res.Fits {
		t.Error("Llama 3.1 8B bf16 batch 1 does not fit an H100")
	}
	// main > section.rs-result (index 2) > h2, verdict
	if err := app.Match(app.P().Class("rs-verdict rs-ok").ID("rs-verdict").Text(
		"Fits · headroom "+c.bytes(c.res.Headroom)), c, 0, 2, 1); err != nil {
		t.Fatal(err)
	}
	if len(c.fit) < 30 {
		t.Fatalf("fit table has %d GPUs", len(c.fit))
	}
	var t4, h100 *fitRow
	for i := range c.fit {
		switch c.fit[i].ID {
		case "t4":
			t4 = &c.fit[i]
		case "h100-sxm":
			h100 = &c.fit[i]
		}
	}
	if t4 == nil || h100 == nil {
		t.Fatal("fit table lacks t4 or h100-sxm")
	}
	// 16 GiB of bf16 weights cannot fit a 16 GB T4, but two T4s can, with
	// HF transformers splitting the layers over them (device_map).
	if t4.Fits || t4.Need != "2" || t4.Split != "PP 2" {
		t.Errorf("t4: fits %v, needs %s (%s); want no fit, 2 GPUs as PP 2", t4.Fits, t4.Need, t4.Split)
	}
	if !h100.Fits || !h100.Selected || h100.Need != "1" {
		t.Errorf("h100: %+v", *h100)
	}
	if len(c.offers) == 0 {
		t.Error("no H100 offers listed")
	}

	// On T4s the job needs two GPUs, so only instances with ≥ 2 are offered.
	c.set(fGPU, "t4")
	if c.res.Fits || c.need != 2 {
		t.Fatalf("t4: fits %v, need %d; want no fit, 2", c.res.Fits, c.need)
	}
	if len(c.offers) == 0 {
		t.Fatal("no multi-T4 offers listed")
	}
	for _, o := range c.offers {
		if o.GPUs == "1×" {
			t.Errorf("single-T4 offer %s %s listed for a two-GPU job", o.Provider, o.Instance)
		}
	}
}

// loadP4D opens the page on eight A100 40GB SXM GPUs with every offer
// listed; find returns the p4d.24xlarge row of the current table.
func loadP4D(t *testing.T) (*Calculator, func() *offerRow) {
	c, _ := load(t)
	c.allOffer = true
	c.set(fGPU, "a100-40gb-sxm")
	c.set(fGPUs, "8")
	return c, func() *offerRow {
		t.Helper()
		for i := range c.offers {
			if c.offers[i].Instance == "p4d.24xlarge" {
				return &c.offers[i]
			}
		}
		t.Fatalf("p4d.24xlarge not among %d eight-GPU A100 offers", len(c.offers))
		return nil
	}
}

// AWS's 3-year commitment for p4d.24xlarge (reserved.csv: $8.1591/h) shows in
// the offers table next to on-demand; offers without one show a dash.
func TestOffersReserved(t *testing.T) {
	c, find := loadP4D(t)
	p4d := find()
	var other *offerRow
	for i := range c.offers {
		if c.offers[i].Instance != "p4d.24xlarge" {
			other = &c.offers[i]
			break
		}
	}
	if p4d.OnDemand != "$21.96" || p4d.Reserved != "$8.16 3y" {
		t.Errorf("p4d.24xlarge: on-demand %q reserved %q, want $21.96 and $8.16 3y", p4d.OnDemand, p4d.Reserved)
	}
	if other != nil && other.Reserved != "—" && !strings.Contains(other.Reserved, "y") {
		t.Errorf("%s %s: reserved %q", other.Provider, other.Instance, other.Reserved)
	}
}

func TestSplitText(t *testing.T) {
	for _, c := range []struct {
		gpus, tp, pp, zero int
		want               string
	}{{1, 1, 1, 0, ""}, {2, 2, 1, 0, "TP 2"}, {16, 1, 16, 0, "PP 16"}, {8, 1, 1, 3, "DP 8 ZeRO-3"}, {64, 8, 2, 1, "TP 8 · PP 2 · DP 4 ZeRO-1"}} {
		in := estimator.Input{GPUs: c.gpus, TP: c.tp, PP: c.pp, ZeRO: c.zero}
		if got := splitText(in); got != c.want {
			t.Errorf("%+v: %q, want %q", c, got, c.want)
		}
	}
}

func TestBytesRange(t *testing.T) {
	c := &Calculator{state: defaultState}
	if got := c.bytesRange(15*estimator.GiB, 16*estimator.GiB+estimator.GiB/2); got != "15.00–16.50 GiB" {
		t.Errorf("range = %q", got)
	}
	c.state[fUnits] = "GB"
	if got := c.bytesRange(2*estimator.GB, 3*estimator.GB); got != "2.00–3.00 GB" {
		t.Errorf("range in GB = %q", got)
	}
}

func TestCalculatorBadInput(t *testing.T) {
	c, _ := load(t)
	for _, tc := range []struct {
		f     field
		v     string
		field field
		want  string
	}{
		{fModel, "no-such-model", fModel, "unknown choice"},
		{fPrecision, "fp5", fPrecision, "unknown choice"},
		{fBatch, "abc", fBatch, "not a number"},
		{fBatch, "0", fBatch, "out of range"},
		{fBatch, "99999999999999999999", fBatch, "out of range"},
		{fSeq, "-5", fSeq, "out of range"},
		{fTP, "3", fTP, ""}, // 3 does not divide Llama's 32 heads
		{fGPU, "gtx-9999", fGPU, "unknown choice"},
	} {
		c.set(tc.f, tc.v)
		if c.haveResult {
			t.Errorf("%s=%q: a result is shown", fieldKeys[tc.f], tc.v)
		}
		if !strings.Contains(c.errs[tc.field], tc.want) || c.errs[tc.field] == "" {
			t.Errorf("%s=%q: error next to %s = %q, want it to contain %q (all: %q, general %q)",
				fieldKeys[tc.f], tc.v, fieldKeys[tc.field], c.errs[tc.field], tc.want, c.errs, c.general)
		}
		c.set(tc.f, defaultState[tc.f])
		if !c.haveResult {
			t.Fatalf("back to defaults after %s=%q: no result: %q %q", fieldKeys[tc.f], tc.v, c.errs, c.general)
		}
	}
}

// TestCalculatorTasks walks the tasks the page offers for a small model and
// checks each gives a result whose parts add up.
func TestCalculatorTasks(t *testing.T) {
	c, _ := load(t)
	c.set(fModel, "qwen2.5-7b")
	for _, task := range estimator.Tasks {
		c.set(fTask, task.String())
		if !c.haveResult {
			t.Errorf("task %s: no result: %q %q", task, c.errs, c.general)
			continue
		}
		sum := estimator.Bytes(0)
		for _, p := range c.parts() {
			sum += p.b
		}
		if sum != c.res.PerGPU.Total() {
			t.Errorf("task %s: shown parts sum to %d, total %d", task, sum, c.res.PerGPU.Total())
		}
	}
	c.set(fTask, "finetune")
	if c.res.PerGPU.Optimizer == 0 || c.res.PerGPU.Gradients == 0 {
		t.Errorf("full fine-tune without optimizer states or gradients: %+v", c.res.PerGPU)
	}
}

func TestCalculatorUnitsAndLanguage(t *testing.T) {
	c, _ := load(t)
	c.set(fUnits, "GB")
	if got := c.bytes(16 * estimator.GB); got != "16.00 GB" {
		t.Errorf("GB display = %q", got)
	}
	for _, l := range languages {
		c.set(fLang, l.code)
		for k := msgKey(0); k < nMsgs; k++ {
			if messages[l.code][k] == "" {
				t.Errorf("message %d not translated into %s", k, l.code)
			}
		}
	}
	c.set(fLang, "ru")
	if got := c.t(mFits); got != "Помещается" {
		t.Errorf("ru fits = %q", got)
	}
	c.set(fLang, "xx")
	if got := c.t(mFits); got != "Fits" {
		t.Errorf("unknown language does not fall back to English: %q", got)
	}
}

// Fields that do not apply to the task are not on the page and are not
// parsed, so a stale value in one (from an old link) never blocks the
// estimate; once the task needs the field, its error shows next to it.
func TestHiddenFields(t *testing.T) {
	c, _ := load(t)
	c.set(fTask, "finetune")
	c.set(fLoRARank, "abc")
	if !c.haveResult {
		t.Fatalf("hidden LoRA rank blocked a full fine-tune: %q %q", c.errs, c.general)
	}
	html := app.HTMLString(c.Render())
	for id, want := range map[string]bool{"rs-lora-rank": false, "rs-optimizer": true, "rs-engine": false, "rs-gpu-mem-util": false} {
		if got := strings.Contains(html, `id="`+id+`"`); got != want {
			t.Errorf("finetune page: %s shown = %v, want %v", id, got, want)
		}
	}
	c.set(fTask, "lora")
	if c.haveResult || !strings.Contains(c.errs[fLoRARank], c.t(mNotNumber)) {
		t.Errorf("LoRA with rank %q: result %v, error %q", c.state[fLoRARank], c.haveResult, c.errs[fLoRARank])
	}
	c.set(fLoRARank, "16")
	attn := c.res.TrainableParams
	c.set(fLoRATargets, "all-linear")
	if c.res.TrainableParams <= attn {
		t.Errorf("all-linear LoRA trains %d parameters, attention-only %d", c.res.TrainableParams, attn)
	}
	c.set(fTask, "inference")
	c.set(fEngine, "vllm")
	if html := app.HTMLString(c.Render()); !strings.Contains(html, `id="rs-max-batched-tokens"`) || strings.Contains(html, `id="rs-optimizer"`) {
		t.Error("vLLM inference page: want max_num_batched_tokens, no optimizer")
	}
}

// Measured overheads replace the estimator's lines; a size without a unit
// is refused next to its field.
func TestOverrides(t *testing.T) {
	c, _ := load(t)
	c.set(fCtx, "2GiB")
	if c.res.PerGPU.CUDAContext != 2*estimator.GiB {
		t.Errorf("CUDA context = %d, want 2 GiB", c.res.PerGPU.CUDAContext)
	}
	c.set(fUsable, "70GiB")
	if c.res.Usable != 70*estimator.GiB {
		t.Errorf("usable = %d, want 70 GiB", c.res.Usable)
	}
	c.set(fAlloc, "2")
	if c.haveResult || !strings.Contains(c.errs[fAlloc], c.t(mNotSize)) {
		t.Errorf("allocator reserve %q: result %v, error %q", c.state[fAlloc], c.haveResult, c.errs[fAlloc])
	}
	c.set(fAlloc, "")
	c.set(fUsable, "900TiB")
	if c.haveResult || c.errs[fUsable] == "" {
		t.Errorf("usable 900 TiB: result %v, error %q", c.haveResult, c.errs[fUsable])
	}
}

// Picking a GGUF type changes the weights line: Q8_0 stores blocks of 32
// weights as 32 int8 + one fp16 scale = 34 bytes (ggml-common.h block_q8_0),
// so Llama 3.1 8B is 8,030,261,248 × 34/32 = 8,532,152,576 bytes; the
// K-quants sit between Q4_0 and Q8_0 in size order.
func TestQuantField(t *testing.T) {
	c, _ := load(t)
	c.set(fPrecision, "int4")
	c.set(fEngine, "llamacpp")
	var prev estimator.Bytes
	for _, q := range []string{"q4_0", "q4_k_m", "q5_k_m", "q6_k", "q8_0"} {
		c.set(fQuant, q)
		w := c.res.PerGPU.Weights
		if !c.haveResult || w <= prev {
			t.Errorf("%s: weights %d after %d (result %v, errors %q)", q, w, prev, c.haveResult, c.errs)
		}
		prev = w
	}
	if prev != 8532152576 {
		t.Errorf("Q8_0 weights = %d, want 8,532,152,576", prev)
	}
	c.set(fPrecision, "bf16")
	c.set(fQuant, "nf4")
	c.set(fTask, "finetune")
	if !c.haveResult {
		t.Errorf("a hidden weight format blocked a full fine-tune: %q %q", c.errs, c.general)
	}
}

// A user's price sheet replaces catalog prices in the page (offers table,
// cheapest-price column) and marks the rows it changed; a broken sheet is
// refused with the row named and the prices unchanged.
func TestPriceSheet(t *testing.T) {
	c, find := loadP4D(t)
	sheet := "offer_id,on_demand_per_hour,currency,as_of,source\naws-p4d.24xlarge,4,USD,2026-11-01,our AWS private pricing addendum\n"
	if !c.applySheet("aws.csv", sheet) {
		t.Fatalf("sheet refused: %s", c.sheetErr)
	}
	if o := find(); o.OnDemand != "$4.00" || !o.Own || o.AsOf != "2026-11-01" {
		t.Errorf("after the sheet: %+v", *o)
	}
	if c.sheetRows != 1 || len(c.own) != 1 {
		t.Errorf("sheet summary: %d rows, %d offers", c.sheetRows, len(c.own))
	}
	// $4.00 / 8 GPUs = $0.50 per GPU-hour: now the cheapest A100 40GB SXM.
	for _, r := range c.fit {
		if r.ID == "a100-40gb-sxm" && r.From != "$0.50/GPU·h" {
			t.Errorf("fit table From = %q, want $0.50/GPU·h", r.From)
		}
	}
	if c.applySheet("bad.csv", "offer_id,on_demand_per_hour,currency,as_of,source\naws-p4d.24xlarge,cheap,USD,2026-11-01,x\n") {
		t.Fatal("a sheet with a non-numeric price was accepted")
	}
	if !strings.Contains(c.sheetErr, "bad.csv") || !strings.Contains(c.sheetErr, "on_demand_per_hour") {
		t.Errorf("sheet error %q does not name the file and column", c.sheetErr)
	}
	if o := find(); o.OnDemand != "$4.00" {
		t.Errorf("a refused sheet changed prices: %+v", *o)
	}
	c.clearSheet()
	if o := find(); o.OnDemand != "$21.96" || o.Own {
		t.Errorf("after clearing: %+v", *o)
	}
	if c.applySheet("empty.json", "[]") {
		t.Error("an empty sheet was accepted")
	}
}

// The rules-of-thumb table: on the default page (Llama 3.1 8B, bf16,
// batch 1 × 2048), parameters × 4 bytes = 32,121,044,992 B = 29.92 GiB
// against the estimate, and weights × 1.2 = 17.95 GiB.
func TestRulesTable(t *testing.T) {
	c, _ := load(t)
	if len(c.rules) != 2 {
		t.Fatalf("%d rules on the default page", len(c.rules))
	}
	if got := c.bytes(c.rules[0].Bytes); got != "29.92 GiB" {
		t.Errorf("params×4 = %s", got)
	}
	if got := c.bytes(c.rules[1].Bytes); got != "17.95 GiB" {
		t.Errorf("weights×1.2 = %s", got)
	}
	if c.rules[0].Estimate != c.res.PerGPU.Total() {
		t.Errorf("one-GPU estimate %d, page total %d", c.rules[0].Estimate, c.res.PerGPU.Total())
	}
	html := app.HTMLString(c.Render())
	if !strings.Contains(html, `data-rule="params-x4-bytes"`) || !strings.Contains(html, signedPercent(c.rules[0].Error())) {
		t.Error("rules table missing from the page")
	}
	for f, want := range map[float64]string{0.8712: "+87%", -0.234: "−23%", 0: "+0%"} {
		if got := signedPercent(f); got != want {
			t.Errorf("signedPercent(%v) = %q, want %q", f, got, want)
		}
	}
	c.set(fTask, "finetune")
	if len(c.rules) != 3 {
		t.Errorf("%d rules for a full fine-tune, want 3", len(c.rules))
	}
}

// A user's own config.json becomes the model: parsed by the estimator,
// listed in the model field, and a broken one is refused with its field
// named. A link to m=custom on a browser without the file says what to do.
func TestCustomModel(t *testing.T) {
	c, _ := load(t)
	c.set(fModel, customModelID)
	if c.haveResult || c.errs[fModel] != c.t(mNoCustomModel) {
		t.Errorf("m=custom without a file: result %v, error %q", c.haveResult, c.errs[fModel])
	}
	cfg, err := os.ReadFile("../estimator/testdata/configs/qwen2.5-7b.json")
	if err != nil {
		t.Fatal(err)
	}
	if !c.applyConfig("config.json", string(cfg)) {
		t.Fatalf("config refused: %s", c.configErr)
	}
	// Qwen2.5-7B: 7,615,616,512 parameters (model card / safetensors total).
	if !c.haveResult || c.res.Params != 7615616512 || c.state[fModel] != customModelID {
		t.Fatalf("custom model: result %v, params %d, model %q", c.haveResult, c.res.Params, c.state[fModel])
	}
	if html := app.HTMLString(c.Render()); !strings.Contains(html, c.t(mYourModel)+": config.json") {
		t.Error("the loaded config is not in the model list")
	}
	if c.applyConfig("broken.json", `{"model_type":"llama","hidden_size":4096}`) {
		t.Fatal("a config without layers was accepted")
	}
	if !strings.Contains(c.configErr, "broken.json") || !strings.Contains(c.configErr, "num_hidden_layers") {
		t.Errorf("config error %q does not name the file and the missing field", c.configErr)
	}
	if c.res.Params != 7615616512 {
		t.Error("a refused config replaced the loaded one")
	}
}

// A newer build fetched by the service worker is offered as a reload
// banner, not swapped in under the user.
func TestUpdateBanner(t *testing.T) {
	c, _ := load(t)
	if strings.Contains(app.HTMLString(c.Render()), `id="rs-update"`) {
		t.Fatal("update banner shown without an update")
	}
	c.updateReady = true
	if !strings.Contains(app.HTMLString(c.Render()), c.t(mUpdateReady)) {
		t.Error("no update banner when an update is ready")
	}
}

// Speed and cost: the page runs the estimator's throughput model with the
// selected GPU's datasheet figures and prices every listed offer.
func TestPerfAndCost(t *testing.T) {
	c, _ := load(t)
	if !c.perf.OK || c.perf.TTFT == "" || c.perf.PerSeq == "" || c.perf.Cheapest == "" {
		t.Fatalf("default inference: %+v", c.perf)
	}
	c.set(fTask, "finetune")
	c.set(fGPUs, "8")
	c.set(fZeRO, "3")
	if !c.perf.OK {
		t.Fatalf("8×H100 ZeRO-3 fine-tune: no speed estimate (%q %q)", c.errs, c.general)
	}
	hw, _ := c.gpu.Hardware(c.in.Weights)
	p, err := estimator.Throughput(c.in, hw, estimator.Efficiency{}, estimator.Workload{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.perf.JobTime, c.duration(estimator.JobTime(p, 1e9)); got != want {
		t.Errorf("job time %q, want %q", got, want)
	}
	// An 8-GPU instance runs this 8-GPU job: its cost is price × time.
	var row *offerRow
	for i := range c.offers {
		if c.offers[i].GPUs == "8×" && c.offers[i].OnDemand != "—" {
			row = &c.offers[i]
			break
		}
	}
	if row == nil {
		t.Fatal("no 8-GPU H100 offer")
	}
	price, _ := strconv.ParseFloat(strings.TrimPrefix(row.OnDemand, "$"), 64)
	if want := money(estimator.JobCost(price, estimator.JobTime(p, 1e9)), "USD"); row.Cost != want {
		t.Errorf("%s %s: cost %s, want %s", row.Provider, row.Instance, row.Cost, want)
	}
	one := c.perf.cheapestUSD
	c.set(fTrainTokens, "2B")
	if r := c.perf.cheapestUSD / one; math.Abs(r-2) > 1e-9 {
		t.Errorf("twice the tokens cost %.3f× as much", r)
	}
	c.set(fTrainTokens, "lots")
	if !strings.Contains(c.errs[fTrainTokens], c.t(mNotCount)) {
		t.Errorf("training tokens %q: error %q", c.state[fTrainTokens], c.errs[fTrainTokens])
	}
	c.set(fTrainTokens, "1B")
	c.set(fTask, "inference")
	c.set(fOutput, "2048") // the whole 2048-token sequence: no prompt left
	if c.errs[fOutput] == "" {
		t.Error("generating the whole sequence left no prompt but no error")
	}
	c.set(fOutput, "512")
	c.set(fGPU, "rtx-pro-6000")
	if !c.perf.OK || strings.Contains(app.HTMLString(c.Render()), `id="rs-no-perf"`) {
		t.Error("the RTX PRO 6000, now with datasheet figures, got no speed estimate")
	}
}

// Ranking: the fit table prices the job on every GPU (cheapest USD offer
// per GPU-hour × GPUs × time) and marks the cheapest; the offers table is
// ordered by what the job costs on each offer, not by the hourly price.
func TestCostRanking(t *testing.T) {
	c, _ := load(t)
	c.set(fTask, "finetune")
	c.set(fZeRO, "3")
	c.set(fGPUs, "8")
	cheapest, priced := 0, 0
	var min float64
	for _, r := range c.fit {
		if r.cost > 0 {
			priced++
			if min == 0 || r.cost < min {
				min = r.cost
			}
		}
		if r.Cheapest {
			cheapest++
		}
	}
	if priced < 10 || cheapest != 1 {
		t.Fatalf("%d GPUs priced, %d marked cheapest", priced, cheapest)
	}
	for _, r := range c.fit {
		if r.Cheapest && r.cost != min {
			t.Errorf("%s marked cheapest at %v, the minimum is %v", r.ID, r.cost, min)
		}
		if r.ID == "h100-sxm" {
			g, _ := c.cat.GPU("h100-sxm")
			x := c.in
			x.VRAM, x.UsableVRAM = g.Memory, 0
			if want := c.jobCostOn(g, x, c.cheapest["h100-sxm"].perGPUHour); r.cost != want || want <= 0 {
				t.Errorf("h100-sxm job cost %v, want %v", r.cost, want)
			}
		}
	}
	prev := 0.0
	c.allOffer = true
	c.recompute()
	for _, o := range c.offers {
		if !strings.HasPrefix(o.Cost, "$") {
			continue
		}
		v, _ := strconv.ParseFloat(strings.TrimPrefix(o.Cost, "$"), 64)
		if v+0.005 < prev {
			t.Errorf("offers not ordered by job cost: %s %s %s after %.2f", o.Provider, o.Instance, o.Cost, prev)
		}
		prev = v
	}
}

// Sorting the fit table by job cost puts priced GPUs first, cheapest
// first; spot costs scale with the spot price.
func TestSortByCostAndSpot(t *testing.T) {
	c, _ := load(t)
	c.set(fSort, "cost")
	if !c.fit[0].Cheapest || c.fit[0].cost <= 0 {
		t.Fatalf("first row after sorting by cost: %+v", c.fit[0])
	}
	for i := 1; i < len(c.fit); i++ {
		if a, b := c.fit[i-1].cost, c.fit[i].cost; b > 0 && (a <= 0 || a > b) {
			t.Fatalf("row %d (%s, %v) after %v", i, c.fit[i].ID, b, a)
		}
	}
	c.set(fSort, "price")
	if c.errs[fSort] == "" {
		t.Error("unknown sort order accepted silently")
	}
	c.set(fSort, "vram")
	c.allOffer = true
	c.recompute()
	checked := 0
	for _, o := range c.offers {
		if o.SpotCost == "" || !strings.HasPrefix(o.Cost, "$") {
			continue
		}
		od, _ := strconv.ParseFloat(strings.TrimPrefix(o.OnDemand, "$"), 64)
		sp, _ := strconv.ParseFloat(strings.TrimPrefix(o.Spot, "$"), 64)
		cost, _ := strconv.ParseFloat(strings.TrimPrefix(o.Cost, "$"), 64)
		spotCost, _ := strconv.ParseFloat(strings.TrimPrefix(o.SpotCost, "$"), 64)
		// Same job, same speed: the costs are in the ratio of the prices
		// (to the rounding of the displayed figures).
		if want := cost * sp / od; math.Abs(spotCost-want) > 0.02+0.01*want {
			t.Errorf("%s %s: spot cost %v, want about %v", o.Provider, o.Instance, spotCost, want)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no H100 offer with a spot price got a spot cost")
	}
}
