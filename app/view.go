package app

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// Render formats the current state through leaf components; it computes
// nothing.
func (c *Calculator) Render() app.UI {
	cls := "rs-page"
	if app.IsClient {
		// Every render in the browser is the app's own DOM, with its
		// handlers: the page answers input from the first one (the static
		// page never carries rs-live).
		cls += " rs-live"
	}
	if c.live && c.restShown == len(c.restSections()) {
		cls += " rs-complete"
	}
	if c.ps.pending() {
		cls += " rs-plan-pending" // the tables' costs wait for the planner
	}
	if c.embed {
		cls += " rs-embed"
		return app.Main().Class(cls).Body(
			c.renderLinkNote(),
			c.renderAnswer(),
			c.renderResult(),
			c.renderPerf(),
			c.renderServe(),
			app.P().Class("rs-open").Body(app.A().ID("rs-open-full").Href("#"+c.fullLink()).Target("_blank").
				Rel("noopener").Text(c.t(mOpenInRightsize))),
		)
	}
	return app.Main().Class(cls).Body(
		c.renderLinkNote(),
		app.If(c.updateReady, func() app.UI {
			return app.Div().Class("rs-update").ID("rs-update").Body(
				app.Text(c.t(mUpdateReady)+" "),
				app.Button().Class("rs-more").OnClick(c.onReload).Text(c.t(mReload)),
			)
		}),
		app.Header().Class("rs-header").Body(
			app.Div().Class("rs-title").Body(
				app.H1().Text("Rightsize"),
				c.selectField(fLang, mLanguage, langOptions()),
			),
			app.Div().Class("rs-share").Body(
				app.P().Class("rs-tagline").Text(c.t(mTagline)),
				app.Div().Class("rs-actions").Body(
					app.Button().Class("rs-more").ID("rs-copy-link").OnClick(c.onCopyLink).Text(c.t(mCopyLink)),
					c.pinButton(),
				),
			),
			app.If(c.linkCopied, func() app.UI { return app.P().Class("rs-ok").ID("rs-link-copied").Text(c.t(mLinkCopied)) }),
			app.If(c.shareURL != "", func() app.UI {
				return app.Input().Type("text").ID("rs-share-url").ReadOnly(true).Value(c.shareURL).Attr("aria-label", c.t(mCopyLink))
			}),
		),
		c.staticOr(staticAnswer, c.renderAnswer),
		app.If(c.pin != nil, c.renderCompare),
		c.renderInputs(),
		c.staticOr(staticResult, c.renderResult),
		c.staticOr(staticPerf, c.renderPerf),
		app.If(c.serving(), c.renderServe),
		app.If(c.restShown > 0, func() app.UI {
			secs := c.restSections()
			body := make([]app.UI, 0, len(secs))
			for _, f := range secs[:min(c.restShown, len(secs))] {
				body = append(body, f())
			}
			return app.Div().Class("rs-rest").Body(body...)
		}),
	)
}

// restSections are the sections below the first screen, in page order.
// In the browser they are rendered one at a time after mount (see
// showRest), so no single render holds the main thread for long.
func (c *Calculator) restSections() []func() app.UI {
	return []func() app.UI{
		c.renderRules,
		c.renderFit,
		c.renderOffers,
		c.renderExport,
		c.renderPrices,
		c.renderCustomModel,
		c.renderBenchmark,
		func() app.UI {
			return app.Footer().Class("rs-footer").Body(app.P().Class("rs-sub").Text(c.t(mFooter)),
				app.If(!c.now.IsZero(), func() app.UI { return app.P().Class("rs-sub").ID("rs-fresh").Text(c.freshnessFooter()) }))
		},
	}
}

// fullLink is the fragment of this view without the embed flag.
func (c *Calculator) fullLink() string {
	l := c.link()
	l.embed = false
	return l.encode(defaultState)
}

type option struct{ value, label string }

func langOptions() []option {
	o := make([]option, len(languages))
	for i, l := range languages {
		o[i] = option{l.code, l.name}
	}
	return o
}

func enumOptions[T interface{ String() string }](vals []T) []option {
	o := make([]option, len(vals))
	for i, v := range vals {
		o[i] = option{v.String(), v.String()}
	}
	return o
}

func (c *Calculator) renderInputs() app.UI {
	l := c.loc()
	models := make([]option, len(c.pr.cat.Models), len(c.pr.cat.Models)+1)
	for i, m := range c.pr.cat.Models {
		models[i] = option{m.ID, m.Name}
	}
	if c.custom != nil {
		models = append(models, option{customModelID, c.customModelName()})
	}
	gpus := make([]option, len(c.pr.cat.GPUs))
	for i, g := range c.pr.cat.GPUs {
		gpus[i] = option{g.ID, g.Name + " · " + l.bytes(g.Memory)}
	}
	engines := make([]option, len(estimator.Engines))
	for i, e := range estimator.Engines {
		engines[i] = option{e.String(), engineLabels[e]}
	}
	fields := []app.UI{
		c.selectField(fModel, mModel, models),
		c.selectField(fTask, mTask, labelled(c, estimator.Tasks, mTaskInference, mTaskTrain, mTaskFinetune, mTaskLoRA, mTaskQLoRA)),
		c.selectField(fPrecision, mPrecision, enumOptions(estimator.DTypes)),
		c.selectField(fQuant, mQuant, c.quantOptions()),
		c.textField(fBatch, mBatch, "numeric"),
		c.textField(fSeq, mSeq, "numeric"),
		c.selectField(fGPU, mGPU, gpus),
		c.textField(fGPUs, mGPUs, "numeric"),
		c.textField(fTrainTokens, mTrainTokens, "text"),
		c.textField(fOutput, mOutputTokens, "numeric"),
		c.textField(fRPS, mRPS, "decimal"),
		c.textField(fRequests, mRequests, "numeric"),
		c.textField(fTTFT, mTTFTTarget, "decimal"),
		c.textField(fTPOT, mTPOTTarget, "decimal"),
		c.textField(fGlobalBatch, mGlobalBatch, "numeric"),
		c.selectField(fOptimizer, mOptimizer, enumOptions(estimator.Optimizers)),
		c.checkField(fCheckpointing, mCheckpointing),
		c.checkField(fSelective, mSelective),
		c.textField(fLoRARank, mLoRARank, "numeric"),
		c.selectField(fLoRATargets, mLoRATargets, labelled(c, []estimator.LoRATargets{estimator.LoRAAttention, estimator.LoRAAllLinear}, mTargetsAttn, mTargetsAll)),
		c.selectField(fZeRO, mZeRO, []option{{"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}}),
		c.selectField(fOffload, mOffload, labelled(c, estimator.Offloads, mOffNone, mOffOptimizer, mOffAll)),
		c.selectField(fEngine, mEngine, engines),
		c.selectField(fKV, mKV, enumOptions(estimator.DTypes)),
		c.textField(fMemUtil, mMemUtil, "decimal"),
		c.textField(fMaxBatched, mMaxBatched, "numeric"),
		c.checkField(fEager, mEager),
		c.checkField(fFlash, mFlash),
		c.textField(fTP, mTP, "numeric"),
		c.textField(fPP, mPP, "numeric"),
		c.selectField(fUnits, mUnits, []option{{unitGiB.String(), c.t(mUnitsGiB)}, {unitGB.String(), c.t(mUnitsGB)}}),
	}
	return app.Section().Class("rs-inputs").Attr("aria-label", c.t(mInputs)).Body(
		app.Div().Class("rs-fields").Body(fields...),
		app.If(c.firstScreen(), func() app.UI { return foldStub("rs-overrides", c.t(mOverrides)) }).
			Else(c.renderOverrides),
		c.renderFilters(),
		app.If(c.firstScreen(), func() app.UI { return foldStub("rs-assumptions", c.t(mAssumptions)) }).
			Else(c.renderAssumptions),
	)
}

// renderOverrides is the Overheads box: each overhead the estimator
// assumed, as the placeholder of a field that replaces it.
func (c *Calculator) renderOverrides() app.UI {
	res := c.r.Res
	overrides := []app.UI{
		app.Summary().Text(c.t(mOverrides)),
		app.P().Class("rs-sub").Text(c.t(mOverridesNote)),
		app.Div().Class("rs-fields").Body(
			c.sizeInput(fUsable, mUsableOverride, res.Usable),
			c.sizeInput(fCtx, mCUDAContext, res.PerGPU.CUDAContext),
			c.sizeInput(fAlloc, mAllocator, res.PerGPU.AllocatorReserve),
			c.sizeInput(fNCCL, mNCCL, res.PerGPU.NCCL),
			c.sizeInput(fGraphs, mCUDAGraphs, res.PerGPU.CUDAGraphs),
		),
	}
	// Open when a link carries an override, one is wrong or the user has
	// typed one (so clearing it does not fold the box mid-edit).
	open := c.overridesOpen
	for _, f := range overrideFields {
		open = open || c.state[f] != "" || !c.errs[f].ok()
	}
	return app.Details().Class("rs-overrides").ID("rs-overrides").Open(open).Body(overrides...)
}

// foldStub is a folded box with its summary only: the first screen's
// stand-in for a box whose body the page renders from the first step
// after it is live (Calculator.firstScreen). go-app keeps the element
// and fills it in then. It carries the full box's open="false" (the
// default view opens neither), so go-app has no attribute to rewrite and
// a box the user opened meanwhile stays open.
func foldStub(id, summary string) app.UI {
	return app.Details().Class("rs-overrides").ID(id).Open(false).Body(app.Summary().Text(summary))
}

// labelled gives enum values their translated labels, in order.
func labelled[T interface{ String() string }](c *Calculator, vals []T, labels ...msgKey) []option {
	o := make([]option, len(vals))
	for i, v := range vals {
		o[i] = option{v.String(), v.String()}
		if i < len(labels) {
			o[i].label = c.t(labels[i])
		}
	}
	return o
}

// quantOptions are the weight storage formats; the names are the tools' own.
func (c *Calculator) quantOptions() []option {
	labels := map[estimator.Quant]string{
		estimator.QuantGroup128: "INT4, group 128 (GPTQ / AWQ)", estimator.QuantNF4: "NF4 (bitsandbytes)",
		estimator.QuantQ4_0: "GGUF Q4_0", estimator.QuantQ4KM: "GGUF Q4_K_M", estimator.QuantQ5KM: "GGUF Q5_K_M",
		estimator.QuantQ6K: "GGUF Q6_K", estimator.QuantQ8_0: "GGUF Q8_0",
	}
	o := make([]option, len(estimator.Quants))
	for i, q := range estimator.Quants {
		o[i] = option{q.String(), labels[q]}
		if q == estimator.QuantAuto {
			o[i].label = c.t(mQuantAuto)
		}
	}
	return o
}

func fieldID(f field) string { return "rs-" + fieldNames[f] }

// fieldError renders the message under a field, or nothing.
func (c *Calculator) fieldError(f field) app.UI {
	return app.If(!c.errs[f].ok(), func() app.UI {
		return app.P().Class("rs-error").ID(fieldID(f) + "-error").Text(c.errText(c.errs[f]))
	})
}

func (c *Calculator) selectField(f field, label msgKey, opts []option) app.UI {
	if !c.state.shown(f) {
		return app.Text("")
	}
	s := &selectBox{F: int(f), Label: c.t(label), Cur: c.state[f], Opts: opts}
	if !c.errs[f].ok() {
		s.Err = c.errText(c.errs[f])
	}
	return s
}

// selectBox is one drop-down as a leaf component: its props are
// comparable values, so on an input change go-app skips every select
// whose value, options and error did not change. A change travels up as
// actionField.
//
// In the browser its options are one innerHTML write (writeOptions, on
// mount and on a change of props), not go-app elements: the page's
// selects hold about 200 options, which were a third of the elements the
// first screen created one by one through syscall/js at start-up. The
// static page renders them as children, so the HTML is the same.
type selectBox struct {
	app.Compo
	F          int
	Label, Cur string
	Err        string
	Opts       []option
}

func (s *selectBox) Render() app.UI {
	id := fieldID(field(s.F))
	sel := app.Select().ID(id).Attr("data-f", strconv.Itoa(s.F)).Attr("aria-invalid", s.Err != "").OnChange(s.onChange)
	if !app.IsClient {
		sel = sel.Body(s.optionElems()...)
	}
	return app.Div().Class("rs-field").Body(
		app.Label().For(id).Text(s.Label),
		sel,
		app.If(s.Err != "", func() app.UI { return app.P().Class("rs-error").ID(id + "-error").Text(s.Err) }),
	)
}

// OnMount and OnUpdate keep the browser's options in step with the props;
// both run before the browser gets the main thread back, so no script or
// user ever sees the select without its options. Writing them changes
// nothing go-app renders: OnMount cancels the update go-app schedules
// after it, for this select and for the page around it.
func (s *selectBox) OnMount(ctx app.Context) {
	s.writeOptions()
	ctx.PreventUpdate()
}

func (s *selectBox) OnUpdate(ctx app.Context) { s.writeOptions() }

// options lists what the select holds: a bad value from a link first (so
// its error has context), then the choices; chosen marks the current one.
func (s *selectBox) options() (opts []option, chosen int) {
	chosen = -1
	for i, o := range s.Opts {
		if o.value == s.Cur {
			chosen = i
		}
	}
	if chosen < 0 {
		return append([]option{{s.Cur, s.Cur}}, s.Opts...), 0
	}
	return s.Opts, chosen
}

func (s *selectBox) optionElems() []app.UI {
	opts, chosen := s.options()
	body := make([]app.UI, len(opts))
	for i, o := range opts {
		// Only the chosen option carries "selected": in the static HTML,
		// selected="false" would select it too.
		opt := app.Option().Value(o.value).Text(o.label)
		if i == chosen {
			opt = opt.Selected(true)
		}
		body[i] = opt
	}
	return body
}

// writeEscaped writes text for an HTML attribute or element body. By
// hand rather than html.EscapeString: its strings.Replacer added about
// 7 KB of brotli to app.wasm.
func writeEscaped(b *strings.Builder, text string) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteByte(c)
		}
	}
}

func (s *selectBox) writeOptions() {
	if !app.IsClient || !s.Mounted() {
		return
	}
	sel := s.JSValue().Call("querySelector", "select")
	if !sel.Truthy() {
		return
	}
	sel.Set("innerHTML", s.optionsHTML())
	sel.Set("value", s.Cur)
}

// optionsHTML is the select's options as HTML, every value and label
// escaped (a custom model's label is the user's file name).
func (s *selectBox) optionsHTML() string {
	opts, chosen := s.options()
	var b strings.Builder
	for i, o := range opts {
		b.WriteString(`<option value="`)
		writeEscaped(&b, o.value)
		b.WriteByte('"')
		if i == chosen {
			b.WriteString(" selected")
		}
		b.WriteByte('>')
		writeEscaped(&b, o.label)
		b.WriteString("</option>")
	}
	return b.String()
}

func (s *selectBox) onChange(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionField, fieldChange{F: field(s.F), V: ctx.JSSrc().Get("value").String()})
}

// actionField carries a leaf component's input change to the page.
const actionField = "rs/field"

type fieldChange struct {
	F field
	V string
}

func (c *Calculator) textField(f field, label msgKey, mode string) app.UI {
	if !c.state.shown(f) {
		return app.Text("")
	}
	return app.Div().Class("rs-field").Body(
		app.Label().For(fieldID(f)).Text(c.t(label)),
		c.fieldInput(f).Attr("inputmode", mode),
		c.fieldError(f),
	)
}

// fieldInput is the text input of field f: its id, its index for
// onField, the state's text and whether it is invalid. Callers add the
// keyboard hint and the placeholder.
func (c *Calculator) fieldInput(f field) app.HTMLInput {
	return app.Input().Type("text").ID(fieldID(f)).Attr("data-f", strconv.Itoa(int(f))).
		Value(c.state[f]).Attr("aria-invalid", !c.errs[f].ok()).OnChange(c.onField)
}

// sizeInput is an optional size field whose placeholder is the estimate
// it would replace.
func (c *Calculator) sizeInput(f field, label msgKey, est estimator.Bytes) app.UI {
	if !c.state.shown(f) {
		return app.Text("")
	}
	ph := ""
	if c.r.OK {
		ph = c.loc().bytes(est)
	}
	return app.Div().Class("rs-field").Body(
		app.Label().For(fieldID(f)).Text(c.t(label)),
		c.fieldInput(f).Placeholder(ph),
		c.fieldError(f),
	)
}

func (c *Calculator) checkField(f field, label msgKey) app.UI {
	if !c.state.shown(f) {
		return app.Text("")
	}
	return app.Div().Class("rs-field rs-check").Body(
		app.Label().For(fieldID(f)).Body(
			app.Input().Type("checkbox").ID(fieldID(f)).Attr("data-f", strconv.Itoa(int(f))).
				Checked(c.state[f] == "1").OnChange(c.onField),
			app.Text(" "+c.t(label)),
		),
		c.fieldError(f),
	)
}

func (c *Calculator) renderResult() app.UI {
	if !c.r.OK {
		return app.Section().Class("rs-result").Body(
			app.P().Class("rs-sub").Text(c.t(mFixFields)),
			app.Range(c.general).Slice(func(i int) app.UI {
				return app.P().Class("rs-error").Text(c.errText(c.general[i]))
			}),
		)
	}
	l := c.loc()
	r := c.r.Res
	facts := []factView{{Label: c.t(mParams), Value: l.count(r.Params) + " (" + l.billions(r.Params) + ")", ID: "rs-params"}}
	if r.ActiveParams != r.Params {
		facts = append(facts, factView{Label: c.t(mActive), Value: l.count(r.ActiveParams)})
	}
	if r.KVBytesPerToken > 0 {
		facts = append(facts, factView{Label: c.t(mKVPerToken), Value: l.fixed(float64(r.KVBytesPerToken)/float64(estimator.KiB), 1) + " " + c.t(mKiB)})
	}
	if r.KVPoolTokens > 0 {
		facts = append(facts, factView{Label: c.t(mKVPool), Value: l.count(r.KVPoolTokens) + " " + c.t(mTokens) + " · " + l.count(r.MaxConcurrentSeqs) + " × " + c.state[fSeq]})
	}
	maxSeq := l.countOrNone(c.r.MaxSeq)
	if c.r.SeqCapped {
		maxSeq += " (" + c.t(mModelLimit) + ")"
	}
	facts = append(facts,
		factView{Label: c.t(mMaxBatch), Value: l.countOrNone(c.r.MaxBatch), ID: "rs-max-batch"},
		factView{Label: c.t(mMaxSeq), Value: maxSeq, ID: "rs-max-seq"},
	)
	var warns []string
	for _, k := range c.r.HWWarn {
		warns = append(warns, c.t(k)+" ("+c.job.GPU.Name+")")
	}
	for w := range r.Warnings.Each() {
		warns = append(warns, c.t(warningKeys[w]))
	}
	verdict := c.t(mFits) + " · " + c.t(mHeadroom) + " " + l.bytes(r.Headroom)
	if !r.Fits {
		verdict = c.t(mDoesNotFit) + " · " + c.t(mShortBy) + " " + l.bytes(-r.Headroom)
	}
	return app.Section().Class("rs-result").Body(
		&breakdownView{
			Lang: c.lang(), Title: c.t(mPerGPU) + " · " + c.modelName() + " · " + c.job.GPU.Name,
			Verdict: verdict, Fits: r.Fits, Parts: c.partViews(),
			Total: l.bytes(r.PerGPU.Total()), Band: l.bytesRange(r.Confidence.Low, r.Confidence.High),
			Usable: l.bytes(r.Usable),
		},
		&factList{Facts: facts},
		app.If(len(warns) > 0, func() app.UI {
			return app.Div().Class("rs-warnings").ID("rs-warnings").Body(
				app.H3().Text(c.t(mWarnings)),
				app.Ul().Body(app.Range(warns).Slice(func(i int) app.UI { return app.Li().Class("rs-warn").Text(warns[i]) })),
			)
		}),
	)
}

func (c *Calculator) modelName() string {
	if c.job.Model.ID == customModelID {
		return c.customModelName()
	}
	return c.job.Model.Name
}

// partViews are the breakdown's lines with their basis.
func (c *Calculator) partViews() []partView {
	l := c.loc()
	b, cf := c.r.Res.PerGPU, c.r.Res.Confidence
	all := []struct {
		key, formula msgKey
		id           string
		b            estimator.Bytes
		conf         float64
	}{
		{mWeights, mFWeights, "rs-weights", b.Weights, cf.Weights},
		{mGradients, mFGradients, "rs-gradients", b.Gradients, cf.Gradients},
		{mOptimizerStates, mFOptimizer, "rs-optimizer", b.Optimizer, cf.Optimizer},
		{mActivations, mFActivations, "rs-activations", b.Activations, cf.Activations},
		{mLogits, mFLogits, "rs-logits", b.Logits, cf.Logits},
		{mKVCache, mFKV, "rs-kv", b.KVCache, cf.KVCache},
		{mCUDAContext, mFOverhead, "rs-cuda", b.CUDAContext, cf.Overhead},
		{mAllocator, mFOverhead, "rs-alloc", b.AllocatorReserve, cf.Overhead},
		{mNCCL, mFOverhead, "rs-nccl", b.NCCL, cf.Overhead},
		{mCUDAGraphs, mFOverhead, "rs-graphs", b.CUDAGraphs, cf.Overhead},
		{mQuantState, mFOverhead, "rs-quant", b.QuantState, cf.Overhead},
	}
	total := b.Total()
	var out []partView
	for i, p := range all {
		if p.b <= 0 && i != 0 {
			continue
		}
		share := 0.0
		if total > 0 {
			share = float64(p.b) / float64(total)
		}
		out = append(out, partView{
			ID: p.id, Name: c.t(p.key), Value: l.bytes(p.b), Share: l.fixed(share*100, 1) + "%",
			Band: l.percent(p.conf), Formula: c.t(p.formula), Seg: len(out), Permille: int(share*1000 + 0.5),
		})
	}
	return out
}

// renderPerf shows the speed-and-cost summary under the breakdown, each
// number with its basis.
func (c *Calculator) renderPerf() app.UI {
	if !c.r.OK {
		return app.Text("")
	}
	l := c.loc()
	v := c.r.Perf
	if !v.OK {
		return app.Section().Class("rs-perf").Body(
			app.H2().Text(c.t(mSpeedTitle)),
			app.P().Class("rs-sub").ID("rs-no-perf").Text(c.t(mNoPerf)),
		)
	}
	p := v.P
	band := l.percent(p.Uncertainty)
	bound := c.t(boundKeys[p.Bound])
	eff := c.t(mEffMFU) + " " + l.fixed(v.Eff.MFU*100, 0) + "%"
	if c.job.In.Task == estimator.Inference {
		eff = c.t(mEffBandwidth) + " " + l.fixed(v.Eff.BandwidthUtil*100, 0) + "% · " + c.t(mEffMFU) + " " + l.fixed(v.Eff.InferenceMFU*100, 0) + "%"
	}
	hw := c.job.GPU.Name + ": " + l.fixed(v.HW.PeakFLOPS/1e12, 0) + " TFLOPS · " + l.fixed(v.HW.MemBandwidth/1e9, 0) + " GB/s"
	basis := func(formula, verify msgKey) basisView {
		return basisView{Formula: c.t(formula), Inputs: hw, Efficiency: eff, Band: band, Bound: bound, Verify: c.t(verify)}
	}
	// Two plans, each named: the job as set (its speed, and its cost at
	// that speed on the offer and price of the planner's cheapest plan on
	// this GPU: atSpeed), and that plan itself (its own count, engine,
	// batch and price model), as in the tables.
	atSpeedV, atSpeedWhere := "…", ""
	if sc := atSpeed(v, c.job, &c.ps.out); sc.OK && !c.ps.pending() {
		atSpeedWhere = l.money(sc.PerGPUHour, sc.Currency) + "/" + c.t(mGPUHour) + " " + c.t(pricingKeys[sc.Pricing]) +
			" · " + c.providerName(sc.Offer.Provider) + " " + sc.Offer.InstanceType
		atSpeedV = l.money(sc.JobCost, sc.Currency)
		if c.job.In.Task == estimator.Inference {
			atSpeedV = l.money(sc.PerMOut, sc.Currency)
		}
	} else if !c.ps.pending() {
		atSpeedV = "—"
	}
	planned, plannedWhat := "…", ""
	if x, ok := c.ps.out.best(c.job.GPU.ID); ok && !c.ps.pending() {
		where := c.t(pricingKeys[x.Pricing]) + " · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType + instances(x.Instances)
		shape := l.count(int64(x.Plan.GPUs)) + " × " + c.job.GPU.Name + planSuffix(x.Plan)
		if c.job.In.Task == estimator.Inference {
			planned = l.money(x.PerMOutUSD, "USD")
			plannedWhat = shape + " · " + engineLabels[x.Engine] + " · " + l.count(int64(math.Round(x.Concurrency))) + " " + c.t(mInFlight) + " · " + where
		} else {
			planned = l.money(x.Cost, c.ps.out.Currency)
			plannedWhat = l.duration(x.Seconds) + " · " + shape + " · " + where
		}
	} else if !c.ps.pending() {
		planned = "—"
	}
	var facts []factView
	if c.job.In.Task == estimator.Inference {
		facts = []factView{
			{ID: "rs-ttft", Label: c.t(mTTFT), Value: l.duration(p.TimeToFirstToken), Basis: basis(mFTTFT, mVerifyVLLM)},
			{ID: "rs-per-seq", Label: c.t(mPerSeq), Value: l.rate(safeInv(p.DecodeTokenLatency)), Basis: basis(mFDecode, mVerifyVLLM)},
			{ID: "rs-throughput", Label: c.t(mThroughputInfer), Value: l.rate(p.TokensPerSecond) + " " + band, Basis: basis(mFDecode, mVerifyVLLM)},
			{ID: "rs-cost-at-speed", Label: c.t(mCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(mFCostPerM, mVerifyVLLM)},
		}
	} else {
		facts = []factView{
			{ID: "rs-throughput", Label: c.t(mThroughputTrain), Value: l.rate(p.TokensPerSecond) + " " + band, Basis: basis(mFTrain, mVerifyTrain)},
			{ID: "rs-job-time", Label: c.t(mJobTime), Value: l.duration(v.Seconds), Basis: basis(mFJobTime, mVerifyTrain)},
			{ID: "rs-gpu-hours", Label: c.t(mGPUHours), Value: l.rate(v.GPUHours), Basis: basis(mFJobTime, mVerifyTrain)},
			{ID: "rs-steps", Label: c.t(mOptimizerSteps), Value: l.countOrNone(int(safeDiv(c.job.Tokens, p.TokensPerStep)))},
			{ID: "rs-cost-at-speed", Label: c.t(mJobCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(mFJobCost, mVerifyTrain)},
		}
	}
	if c.job.In.Task.Training() && c.job.In.GPUs > 1 {
		facts = append(facts, factView{ID: "rs-comm", Label: c.t(mCommFact), Value: l.smallPercent(safeShare(p.CommSeconds, p.StepSeconds)), Detail: c.t(mOfStep)})
	}
	facts = append(facts, factView{ID: "rs-mfu", Label: c.t(mMFUImplied), Value: l.smallPercent(p.MFU)},
		factView{ID: "rs-cheapest", Label: c.t(mPlannerBest), Value: planned, Detail: plannedWhat})
	return app.Section().Class("rs-perf").Body(
		app.H2().Text(c.t(mSpeedTitle)),
		app.P().Class("rs-sub").ID("rs-perf-setup").Text(c.t(mAsSet)+": "+c.setupLine()),
		&factList{Facts: facts, Lang: c.lang()},
		app.P().Class("rs-sub").Body(app.Text(c.t(mSpeedNote)+" "), accuracyLink(c.lang())),
	)
}

// pricingKeys name the price models, by planner.Pricing.
var pricingKeys = map[planner.Pricing]msgKey{
	planner.OnDemand: mPrOnDemand, planner.Spot: mPrSpot, planner.Reserved1y: mPrRes1, planner.Reserved3y: mPrRes3,
}

// setupLine says the job as set, which the speed box's figures describe:
// "1 × NVIDIA H100 SXM 80GB · Hugging Face transformers · batch 1".
func (c *Calculator) setupLine() string {
	in := c.job.In
	s := c.loc().count(int64(in.GPUs)) + " × " + c.job.GPU.Name + planSuffix(planOf(in))
	if in.Task == estimator.Inference {
		s += " · " + engineLabels[in.Engine]
	}
	return s + " · " + c.t(mBatch) + " " + strconv.Itoa(in.Batch)
}

// taskKeys name the tasks, by estimator.Task.
var taskKeys = map[estimator.Task]msgKey{
	estimator.Inference: mTaskInference, estimator.Pretrain: mTaskTrain, estimator.FullFinetune: mTaskFinetune,
	estimator.LoRA: mTaskLoRA, estimator.QLoRA: mTaskQLoRA,
}

// jobLine says the job the answer is planned for, above the picks:
// "Llama 3.1 8B · Inference · 100,000 requests × 2,048 tokens · 1 × NVIDIA
// H100 SXM 80GB · Hugging Face transformers · Batch size 1".
func (c *Calculator) jobLine() string {
	j, l := c.job, c.loc()
	var work string
	switch {
	case j.In.Task.Training():
		work = fill(c.t(mJobTokens), l.count(int64(j.Tokens)))
	case j.RPS > 0:
		work = fill(c.t(mJobRate), l.sig3(j.RPS), l.count(int64(j.Work.PromptTokens)), l.count(int64(j.Work.OutputTokens)))
	default:
		work = fill(c.t(mJobRequests), l.count(int64(j.Requests)), l.count(int64(j.In.Seq)))
	}
	return c.t(mJobFor) + ": " + j.Model.Name + " · " + c.t(taskKeys[j.In.Task]) + " · " + work + " · " + c.setupLine()
}

// engineLabels are the engines' product names, one per estimator.Engines.
var engineLabels = map[estimator.Engine]string{
	estimator.HF: "Hugging Face transformers", estimator.VLLM: "vLLM", estimator.SGLang: "SGLang",
	estimator.TRTLLM: "TensorRT-LLM", estimator.LlamaCpp: "llama.cpp (GGUF)",
}

// boundKeys name what bounded a phase, by estimator.Bound.
var boundKeys = map[estimator.Bound]msgKey{
	estimator.BoundNone: mNone, estimator.BoundCompute: mBoundCompute, estimator.BoundBandwidth: mBoundBandwidth,
	estimator.BoundHost: mBoundHost, estimator.BoundCommunication: mBoundComm,
}

func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return math.Ceil(a / b)
}

// serving reports whether the page shows the serving plan (a request
// rate was set and planned). The page calls the sections it hides only
// when they show: WebAssembly code is compiled on a function's first call.
func (c *Calculator) serving() bool { return c.r.OK && c.ps.out.Serve.OK }

// renderServe shows the fleet the planner's cheapest plan needs for the
// request rate under the targets.
func (c *Calculator) renderServe() app.UI {
	if !c.serving() {
		return app.Text("")
	}
	l := c.loc()
	fleet := func(id string, v serveResult) app.UI {
		facts := []factView{
			{ID: id + "concurrency", Label: c.t(mConcurrency), Value: l.sig3(v.Concurrency)},
			{ID: id + "serve-ttft", Label: c.t(mTTFT) + " (p95)", Value: l.duration(v.TTFTP95)},
			{ID: id + "serve-tpot", Label: c.t(mTPOT), Value: l.duration(v.TPOT)},
			{ID: id + "replicas", Label: c.t(mReplicas), Value: l.count(int64(v.Replicas))},
			{ID: id + "fleet-gpus", Label: c.t(mFleetGPUs), Value: l.count(int64(v.GPUs))},
			{ID: id + "monthly", Label: c.t(mMonthly), Value: l.money(v.Monthly, c.ps.out.Currency)},
		}
		return &factList{Facts: facts, Lang: c.lang()}
	}
	// Each fleet names its plan: GPUs, engine, price model, offer.
	named := func(v serveResult) string {
		return l.count(int64(v.GPUs)) + " × " + c.gpuName(v.Offer.GPU) + planSuffix(v.Plan) + " · " + engineLabels[v.Engine] +
			" · " + c.t(pricingKeys[v.Pricing]) + " · " + c.providerName(v.Offer.Provider) + " " + v.Offer.InstanceType + instances(v.Instances)
	}
	// What set each fleet's replica count, under its facts.
	binds := func(id string, v serveResult) app.UI {
		if s := c.bindingText(v); s != "" {
			return app.P().Class("rs-sub rs-binds").ID(id).Text(s)
		}
		return app.Text("")
	}
	v := c.ps.out.Serve
	body := []app.UI{
		app.H2().Text(c.t(mServeTitle)),
		app.P().Class("rs-sub").ID("rs-fleet-plan").Text(c.t(mFleetOf) + ": " + named(v)),
		fleet("rs-", v),
		binds("rs-binds", v),
		c.loadChartUI(),
	}
	if h := c.ps.out.ServeHere; h.OK && h.Offer.GPU != v.Offer.GPU {
		body = append(body,
			app.P().Class("rs-sub").ID("rs-fleet-here").Text(c.t(mFleetHere)+": "+named(h)),
			fleet("rs-here-", h),
			binds("rs-here-binds", h))
	}
	return app.Section().Class("rs-serve").Body(body...)
}

func safeInv(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return 1 / x
}

// ruleLabels name the rules of thumb, by estimator.Rule.
var ruleLabels = map[estimator.Rule]msgKey{
	estimator.RuleParams4Bytes: mRuleParams4, estimator.RuleParamMemory1_5: mRuleParamMem15,
	estimator.RuleWeights1_2: mRuleWeights12, estimator.RuleHF18Bytes: mRuleHF18,
}

// renderRules compares the rules of thumb users meet in guides with the
// estimate for the same job on one GPU.
func (c *Calculator) renderRules() app.UI {
	if !c.r.OK || len(c.r.Rules) == 0 {
		return app.Text("")
	}
	l := c.loc()
	rows := c.r.Rules
	return app.Section().Class("rs-rules").Body(
		app.H2().Text(c.t(mRulesTitle)),
		app.P().Class("rs-sub").Text(c.t(mRulesNote)),
		app.Div().Class("rs-scroll").Body(app.Table().ID("rs-rules").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text(""), app.Th().Class("num").Text(c.t(mRuleSays)),
				app.Th().Class("num").Text(c.t(mThisEstimate)), app.Th().Class("num").Text(c.t(mOffBy)),
			)),
			app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
				r := rows[i]
				e := r.Error()
				// Red when following the rule would risk an OOM (more than
				// 10% short) or rent a much larger GPU than needed (25% over).
				cls := "num rs-ok"
				if e < -0.1 || e > 0.25 {
					cls = "num rs-bad"
				}
				return app.Tr().Attr("data-rule", r.Rule.String()).Body(
					app.Td().Text(c.t(ruleLabels[r.Rule])), app.Td().Class("num").Text(l.bytes(r.Bytes)),
					app.Td().Class("num").Text(l.bytes(r.Estimate)), app.Td().Class(cls).Text(l.signedPercent(e)),
				)
			})),
		)),
	)
}

func (c *Calculator) renderFit() app.UI {
	if len(c.r.Fit) == 0 {
		return app.Text("")
	}
	l := c.loc()
	cheapestGPU := ""
	for _, p := range c.ps.out.Picks {
		if p.Kind == pickCheapest {
			cheapestGPU = p.Offer.GPU
		}
	}
	rows := make([]fitRowView, len(c.r.Fit))
	costs := make([]float64, len(c.r.Fit))
	for i, f := range c.r.Fit {
		v := fitRowView{
			GPU: f.GPU.ID, Name: f.GPU.Name, VRAM: l.bytes(f.GPU.Memory), Fits: f.Fits,
			Selected: f.GPU.ID == c.job.GPU.ID, Need: c.t(mNone), From: c.t(mNone), Cost: c.t(mNone),
			Plan: f.Plan,
		}
		if f.Fits {
			v.Verdict = "✓ " + c.t(mFits) + " · " + l.bytes(f.Headroom)
		} else {
			v.Verdict = "✗ " + c.t(mDoesNotFit)
		}
		if f.Found {
			v.Need, v.Split = strconv.Itoa(f.Plan.GPUs), splitText(f.Plan)
		} else {
			v.Need = "> " + strconv.Itoa(maxGPUsSearched)
		}
		if f.From.perGPUHour > 0 {
			v.From = l.money(f.From.perGPUHour, f.From.currency) + "/" + c.t(mGPUHour)
		}
		// The cost is the planner's best row on this GPU, and a click
		// applies that whole plan (count, split), as a pick does.
		// While the planner works on a change, the last answer stays, greyed
		// by the page's rs-plan-pending class like the recommendation it
		// agrees with: rewriting every cost twice per keystroke is most of
		// an input change's DOM work.
		switch x, ok := c.ps.out.best(f.GPU.ID); {
		case ok:
			v.Cost, v.Plan = l.money(x.Cost, c.ps.out.Currency), x.Plan
			v.Where = strconv.Itoa(x.Plan.GPUs) + "× · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType + instances(x.Instances)
			v.Cheapest = f.GPU.ID == cheapestGPU
			costs[i] = x.Cost
			// The planner's plan holds the job too: where the memory
			// search stopped at maxGPUsSearched, or the planner's layout
			// (ZeRO, TP, PP) needs fewer GPUs, the row says the planner's
			// count, never "> 64" next to a priced plan.
			if !f.Found || x.Plan.GPUs < f.Plan.GPUs {
				v.Need, v.Split = strconv.Itoa(x.Plan.GPUs), splitText(x.Plan)
			}
		}
		rows[i] = v
	}
	if c.job.Sort == sortCost {
		// Cheapest plan first; GPUs without one keep memory order after them.
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(priceKey(costs[a]), priceKey(costs[b])) })
		sorted := make([]fitRowView, len(rows))
		for i, k := range idx {
			sorted[i] = rows[k]
		}
		rows = sorted
	}
	return app.Section().Class("rs-fit").Body(
		app.H2().Text(c.t(mGPUFit)),
		app.Div().Class("rs-fit-head").Body(
			app.P().Class("rs-sub").Text(c.t(mPickGPU)),
			c.selectField(fSort, mSortBy, []option{{sortVRAM.String(), c.t(mSortVRAM)}, {sortCost.String(), c.t(mSortCost)}}),
		),
		&fitTable{
			Rows: rows, Lang: c.lang(), CostHeader: c.planCostHeader() + " · " + c.pricingName(),
		},
	)
}

// splitText says how the GPUs are used: tensor-parallel degree, pipeline
// stages and data-parallel copies (with the ZeRO stage that shards them).
func splitText(p plan) string {
	var s string
	add := func(x string) {
		if s != "" {
			s += " · "
		}
		s += x
	}
	if p.TP > 1 {
		add("TP " + strconv.Itoa(p.TP))
	}
	if p.PP > 1 {
		add("PP " + strconv.Itoa(p.PP))
	}
	if dp := p.GPUs / max(1, p.TP*p.PP); dp > 1 {
		d := "DP " + strconv.Itoa(dp)
		if p.ZeRO > 0 {
			d += " ZeRO-" + strconv.Itoa(p.ZeRO)
		}
		add(d)
	}
	return s
}

func (c *Calculator) renderOffers() app.UI {
	if !c.r.OK {
		return app.Text("")
	}
	l := c.loc()
	// The planner's row prices each offer; offers it priced come first,
	// cheapest first, then the rest in catalog order (USD, price per GPU-hour).
	offers := make([]offerResult, 0, len(c.r.Offers))
	for _, o := range c.r.Offers {
		if _, planned := c.ps.out.ByOffer[o.Offer.ID]; o.Holds || planned {
			offers = append(offers, o)
		}
	}
	cost := func(o offerResult) float64 {
		if i, ok := c.ps.out.ByOffer[o.Offer.ID]; ok {
			return c.ps.out.Cands[i].Cost
		}
		return 0
	}
	slices.SortStableFunc(offers, func(a, b offerResult) int { return cmp.Compare(priceKey(cost(a)), priceKey(cost(b))) })
	more := 0
	if !c.allOffers && len(offers) > offersShown {
		more = len(offers) - offersShown
		offers = offers[:offersShown]
	}
	rows := make([]offerRowView, len(offers))
	for i, o := range offers {
		rows[i] = offerRowView{
			ID: o.Offer.ID, GPU: o.Offer.GPU, Plan: o.Plan,
			Provider: o.Provider, Instance: o.Offer.InstanceType,
			GPUs:     strconv.FormatFloat(o.Offer.GPUCount, 'f', -1, 64) + "×",
			OnDemand: l.money(o.Offer.OnDemandPerHour, o.Offer.Currency), Spot: l.money(o.Offer.SpotPerHour, o.Offer.Currency),
			Reserved: c.reservedText(o.Offer.Reserved1yPerHour, o.Offer.Reserved3yPerHour, o.Offer.Currency),
			Cost:     c.t(mNone), Time: c.t(mNone), AsOf: l.date(o.Offer.AsOf), Source: o.Offer.Source,
			Estimated: o.Offer.AsOfEstimated, Own: o.Own,
		}
		c.flagOffer(&rows[i], o.Offer)
		if k, ok := c.ps.out.ByOffer[o.Offer.ID]; ok {
			x := c.ps.out.Cands[k]
			rows[i].Cost, rows[i].Plan, rows[i].Time = l.money(x.Cost, c.ps.out.Currency), x.Plan, l.duration(x.Seconds)
			rows[i].Where = splitText(x.Plan) + instances(x.Instances)
			if x.CommShare > 0 {
				rows[i].Where += " · " + strings.Replace(c.t(mCommShare), "%s", l.smallPercent(x.CommShare), 1)
			}
		}
		if len(o.Offer.Regions) > 0 {
			rows[i].Region = o.Offer.Regions[0]
		}
	}
	return app.Section().Class("rs-offers").Body(
		app.H2().Text(c.t(mOffers)+" · "+c.job.GPU.Name),
		app.P().Class("rs-sub").Text(c.t(mPricesNote)),
		app.If(len(rows) == 0, func() app.UI {
			return app.P().Class("rs-sub").Text(c.t(mNoOffers))
		}).Else(func() app.UI {
			return &offerTable{Rows: rows, Lang: c.lang(), CostHeader: c.planCostHeader() + " · " + c.pricingName(), TimeHeader: c.planTimeHeader()}
		}),
		app.If(more > 0, func() app.UI {
			return app.Button().Class("rs-more").ID("rs-more-offers").OnClick(c.onShowAllOffers).
				Text(c.t(mShowAll) + " (+" + strconv.Itoa(more) + ")")
		}),
	)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// reservedText shows the effective hourly rates of 1- and 3-year
// commitments, or "—" when the catalog has none for the offer.
func (c *Calculator) reservedText(r1, r3 float64, cur string) string {
	l := c.loc()
	s := ""
	if r1 > 0 {
		s = l.money(r1, cur) + " " + c.t(mYear1)
	}
	if r3 > 0 {
		if s != "" {
			s += " · "
		}
		s += l.money(r3, cur) + " " + c.t(mYear3)
	}
	if s == "" {
		return "—"
	}
	return s
}

// renderAssumptions is the box of editable efficiencies (each with the
// estimator's figure as placeholder) and the dated exchange rates.
func (c *Calculator) renderAssumptions() app.UI {
	l := c.loc()
	eff := assumedEfficiency(c.job, c.r.Perf)
	def := func(v float64) float64 { return v }
	open := c.overridesOpen
	for _, f := range assumptionFields {
		open = open || c.state[f] != "" || !c.errs[f].ok()
	}
	effField := func(f field, label msgKey, v float64) app.UI {
		if !c.state.shown(f) {
			return app.Text("")
		}
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Attr("inputmode", "decimal").Placeholder(l.fixed(def(v), 2)),
			c.fieldError(f),
		)
	}
	// The planner's assumptions: each field shows its default as its
	// placeholder and where the default comes from below it.
	planField := func(f field, label msgKey, placeholder string, source string) app.UI {
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Placeholder(placeholder),
			app.Div().Class("rs-where rs-src").Text(c.t(mDefaultIs)+" "+placeholder+" · "+source),
			c.fieldError(f),
		)
	}
	spotDefault := l.fixed(planner.DefaultSpotInterruptionsPerMonth, 2)
	var spotNow string
	if x, ok := c.ps.out.best(c.job.GPU.ID); ok && !c.ps.pending() && x.CheckpointEvery > 0 {
		spotNow = c.t(mSpotNow) + " " + l.fixed(x.SpotPerMonth, 3) + " · " + c.t(mYoungDaly) + " " + l.duration(x.CheckpointEvery) +
			" · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType
	}
	rates := c.pr.cat.FXRates
	return app.Details().Class("rs-overrides").ID("rs-assumptions").Open(open).Body(
		app.Summary().Text(c.t(mAssumptions)),
		app.P().Class("rs-sub").Text(c.t(mAssumptionsNote)),
		app.Div().Class("rs-fields").Body(
			effField(fMFU, mMFUField, eff.MFU),
			effField(fInfMFU, mInfMFUField, eff.InferenceMFU),
			effField(fBWUtil, mBWField, eff.BandwidthUtil),
		),
		app.P().Class("rs-sub").Text(c.t(mPlanAssumptionsNote)),
		app.Div().Class("rs-fields").Body(
			planField(fSpotRate, mSpotRateField, spotDefault, c.t(mSrcSpot)),
			planField(fCkptWrite, mCkptWriteField, "1000MiB", c.t(mSrcCkpt)),
			planField(fRestart, mRestartField, l.fixed(planner.DefaultRestartSeconds/60, 0)+"m", c.t(mSrcRestart)),
		),
		app.If(spotNow != "", func() app.UI { return app.P().Class("rs-sub").ID("rs-checkpoint-interval").Text(spotNow) }),
		c.renderHosted(),
		app.If(len(rates) > 0, func() app.UI {
			return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-fx").Body(
				app.Caption().Text(c.t(mFXTitle)),
				app.THead().Body(app.Tr().Body(app.Th().Text(c.t(mCurrency)), app.Th().Class("num").Text(c.t(mPerUSD)),
					app.Th().Text(c.t(mAsOfSource)))),
				app.TBody().Body(app.Range(rates).Slice(func(i int) app.UI {
					r := rates[i]
					return app.Tr().Body(app.Td().Text(r.Currency), app.Td().Class("num").Text(l.fixed(r.PerUSD, 4)),
						app.Td().Class("rs-asof").Body(app.Text(l.date(r.AsOf)), app.Div().Class("rs-where rs-src").Text(r.Source)))
				})),
			))
		}),
	)
}

// renderHosted sets hosted APIs against the serving plan: the user's
// prices (rs-api-input-price, rs-api-output-price) or the catalog's dated
// list prices for the model, the API's month at the target rate next to
// the cheapest self-hosted month, and the break-even request rate.
func (c *Calculator) renderHosted() app.UI {
	l := c.loc()
	apis := c.pr.cat.PlanHostedAPIs(c.job.Model.ID)
	src := c.t(mSrcAPINone)
	if len(apis) > 0 {
		a := apis[0]
		src = a.Provider + " " + a.Model + " · " + l.date(a.AsOf) + " · " + a.Source
	}
	in, out := "—", "—"
	if len(apis) > 0 {
		in, out = l.money(apis[0].InputUSDPerMillion, "USD"), l.money(apis[0].OutputUSDPerMillion, "USD")
	}
	apiField := func(f field, label msgKey, placeholder string) app.UI {
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Attr("inputmode", "decimal").Placeholder(placeholder),
			app.Div().Class("rs-where rs-src").Text(c.t(mDefaultIs)+" "+placeholder+" · "+src),
			c.fieldError(f),
		)
	}
	type hostedRow struct{ API, Prices, Source, API730, Self, BreakEven, Why string }
	var rows []hostedRow
	if !c.ps.pending() && c.ps.out.Kind == planner.Serving {
		for _, h := range c.ps.out.Hosted {
			r := hostedRow{
				API:    cmpOr(h.API.Provider+" "+h.API.Model, h.API.ID),
				Prices: l.money(h.API.InputUSDPerMillion, "USD") + " / " + l.money(h.API.OutputUSDPerMillion, "USD"),
				Source: c.t(mYourPrice),
				API730: l.money(h.MonthlyCostUSD, "USD"), Self: l.money(h.SelfHostedUSD, "USD"),
				BreakEven: "—", Why: l.reasonWith(h.Why, c.providerName),
			}
			if h.API.AsOf != "" {
				r.Source = l.date(h.API.AsOf) + " · " + h.API.Source
			}
			if h.BreakEvenRPS > 0 {
				r.BreakEven = l.rate(h.BreakEvenRPS) + " " + c.t(mPerSecond)
			}
			rows = append(rows, r)
		}
	}
	return app.Div().ID("rs-hosted").Body(
		app.P().Class("rs-sub").Text(c.t(mHostedNote)),
		app.Div().Class("rs-fields").Body(
			apiField(fAPIIn, mAPIInField, in),
			apiField(fAPIOut, mAPIOutField, out),
		),
		app.If(len(rows) > 0, func() app.UI {
			return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-hosted-table").Body(
				app.Caption().Text(c.t(mHostedTitle)),
				app.THead().Body(app.Tr().Body(
					app.Th().Text(c.t(mHostedAPI)), app.Th().Class("num").Text(c.t(mAPIPrices)),
					app.Th().Class("num").Text(c.t(mAPIMonthly)), app.Th().Class("num").Text(c.t(mSelfHosted)),
					app.Th().Class("num").Text(c.t(mBreakEven)), app.Th().Text(c.t(mAsOfSource)),
				)),
				app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
					r := rows[i]
					return app.Tr().Body(
						app.Td().Body(app.Text(r.API), app.Div().Class("rs-where").Text(r.Why)),
						app.Td().Class("num").Text(r.Prices), app.Td().Class("num").Text(r.API730),
						app.Td().Class("num").Text(r.Self), app.Td().Class("num").Text(r.BreakEven),
						app.Td().Class("rs-asof rs-src").Text(r.Source),
					)
				})),
			))
		}),
	)
}

// renderFilters is the planner's price model, currency and filters.
func (c *Calculator) renderFilters() app.UI {
	pricing := make([]option, len(planner.Pricings))
	for i, p := range planner.Pricings {
		pricing[i] = option{p.String(), c.t(pricingKeys[p])}
	}
	var currencies []option
	for _, cur := range c.pr.cat.Currencies() {
		currencies = append(currencies, option{cur, cur})
	}
	kinds := []option{{"", c.t(mAny)}}
	for _, k := range []string{catalog.KindHyperscaler, catalog.KindGPUCloud, catalog.KindMarketplace, catalog.KindBroker, catalog.KindDecentralized} {
		kinds = append(kinds, option{k, k})
	}
	open := false
	for _, f := range []field{fPricing, fCurrency, fProviderKind, fCountry, fBudget, fDeadline, fMinVCPU, fMinRAM, fUnknownNet, fFreshness} {
		open = open || c.state[f] != defaultState[f] || !c.errs[f].ok()
	}
	return app.Details().Class("rs-overrides").ID("rs-filters").Open(open).Body(
		app.Summary().Text(c.t(mFilters)),
		app.Div().Class("rs-fields").Body(
			c.selectField(fPricing, mPricing, pricing),
			c.selectField(fCurrency, mCurrencyField, currencies),
			c.selectField(fProviderKind, mProviderKind, kinds),
			c.textField(fCountry, mCountry, "text"),
			c.textField(fBudget, mBudget, "decimal"),
			c.textField(fDeadline, mDeadline, "decimal"),
			c.textField(fMinVCPU, mMinVCPU, "numeric"),
			c.textField(fMinRAM, mMinRAM, "decimal"),
			c.checkField(fUnknownNet, mUnknownNet),
			c.textField(fFreshness, mFreshnessField, "numeric"),
		),
	)
}

// pricingName is the price model the planner prices with (on-demand,
// spot, reserved), as the pricing field shows it.
func (c *Calculator) pricingName() string { return c.job.Pricing.String() }
