package app

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
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
		// The embed page is the answer and its figures only, for an iframe
		// in a docs page: no inputs, no fit or offers tables, and so no
		// comparison of plans either (its plans are added from those
		// tables, and the chart there offers no "+ Compare"). A cmp= in
		// the link is kept for "Open in Rightsize", whose page shows it.
		cls += " rs-embed"
		return app.Main().Class(cls).Body(
			c.renderLinkNote(),
			c.renderAnswer(),
			c.renderResult(),
			c.renderPerf(),
			c.renderServe(),
			app.P().Class("rs-open").Body(app.A().ID("rs-open-full").Href("#"+c.fullLink()).Target("_blank").
				Rel("noopener").Text(c.t(page.MsgOpenInRightsize))),
		)
	}
	return app.Main().Class(cls).Body(
		c.renderLinkNote(),
		app.If(c.updateReady, func() app.UI {
			return app.Div().Class("rs-update").ID("rs-update").Body(
				app.Text(c.t(page.MsgUpdateReady)+" "),
				app.Button().Class("rs-more").OnClick(c.onReload).Text(c.t(page.MsgReload)),
			)
		}),
		app.Header().Class("rs-header").Body(
			app.Div().Class("rs-title").Body(
				app.H1().Text("Rightsize"),
				c.selectField(page.FieldLang, page.MsgLanguage, langOptions()),
			),
			app.Div().Class("rs-share").Body(
				app.P().Class("rs-tagline").Text(c.t(page.MsgTagline)),
				app.Div().Class("rs-actions").Body(
					app.Button().Class("rs-more").ID("rs-copy-link").OnClick(c.onCopyLink).Text(c.t(page.MsgCopyLink)),
					c.pinButton(),
				),
			),
			app.If(c.linkCopied, func() app.UI { return app.P().Class("rs-ok").ID("rs-link-copied").Text(c.t(page.MsgLinkCopied)) }),
			app.If(c.shareURL != "", func() app.UI {
				return app.Input().Type("text").ID("rs-share-url").ReadOnly(true).Value(c.shareURL).Attr("aria-label", c.t(page.MsgCopyLink))
			}),
		),
		c.staticOr(staticAnswer, c.renderAnswer),
		app.If(c.pin != nil, c.renderCompare),
		app.If(len(c.cmp) > 0, c.renderPlans),
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
		c.renderLaunch,
		c.renderPrices,
		c.renderCustomModel,
		c.renderFleetInputs,
		c.renderBenchmark,
		func() app.UI {
			return app.Footer().Class("rs-footer").Body(app.P().Class("rs-sub").Text(c.t(page.MsgFooter)),
				app.If(!c.now.IsZero(), func() app.UI { return app.P().Class("rs-sub").ID("rs-fresh").Text(c.freshnessFooter()) }))
		},
	}
}

// fullLink is the fragment of this view without the embed flag.
func (c *Calculator) fullLink() string {
	l := c.link()
	l.Embed = false
	return l.Encode(page.DefaultState)
}

type option struct{ value, label string }

func langOptions() []option {
	o := make([]option, len(page.Languages))
	for i, l := range page.Languages {
		o[i] = option{l.Code, l.Name}
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

// modelOptions, gpuOptions, engineOptions and taskOptions are the
// choices of the form's selects, which the job line offers too.
func (c *Calculator) modelOptions() []option {
	models := make([]option, len(c.pr.Cat.Models), len(c.pr.Cat.Models)+1)
	for i, m := range c.pr.Cat.Models {
		models[i] = option{m.ID, m.Name}
	}
	if c.custom != nil {
		models = append(models, option{page.CustomModelID, c.customModelName()})
	}
	return models
}

func (c *Calculator) gpuOptions() []option {
	l := c.loc()
	gpus := make([]option, len(c.pr.Cat.GPUs))
	for i, g := range c.pr.Cat.GPUs {
		gpus[i] = option{g.ID, g.Name + " · " + l.Bytes(g.Memory)}
	}
	return gpus
}

func engineOptions() []option {
	engines := make([]option, len(estimator.Engines))
	for i, e := range estimator.Engines {
		engines[i] = option{e.String(), engineLabels[e]}
	}
	return engines
}

func (c *Calculator) taskOptions() []option {
	return labelled(c, estimator.Tasks, page.MsgTaskInference, page.MsgTaskTrain, page.MsgTaskFinetune, page.MsgTaskLoRA, page.MsgTaskQLoRA)
}

func (c *Calculator) renderInputs() app.UI {
	fields := []app.UI{
		c.selectField(page.FieldModel, page.MsgModel, c.modelOptions()),
		c.selectField(page.FieldTask, page.MsgTask, c.taskOptions()),
		c.selectField(page.FieldPrecision, page.MsgPrecision, enumOptions(estimator.DTypes)),
		c.selectField(page.FieldQuant, page.MsgQuant, c.quantOptions()),
		c.selectField(page.FieldKernel, page.MsgKernel, enumOptions(estimator.Kernels)),
		c.textField(page.FieldBatch, page.MsgBatch, "numeric"),
		c.textField(page.FieldSeq, page.MsgSeq, "numeric"),
		c.selectField(page.FieldGPU, page.MsgGPU, c.gpuOptions()),
		c.textField(page.FieldGPUs, page.MsgGPUs, "numeric"),
		c.textField(page.FieldTrainTokens, page.MsgTrainTokens, "text"),
		c.textField(page.FieldDataset, page.MsgDataset, "text"),
		c.textField(page.FieldEpochs, page.MsgEpochs, "decimal"),
		c.textField(page.FieldOutput, page.MsgOutputTokens, "numeric"),
		c.textField(page.FieldRPS, page.MsgRPS, "decimal"),
		c.textField(page.FieldRequests, page.MsgRequests, "numeric"),
		c.textField(page.FieldTTFT, page.MsgTTFTTarget, "decimal"),
		c.textField(page.FieldTPOT, page.MsgTPOTTarget, "decimal"),
		c.textField(page.FieldGlobalBatch, page.MsgGlobalBatch, "numeric"),
		c.selectField(page.FieldOptimizer, page.MsgOptimizer, enumOptions(estimator.Optimizers)),
		c.checkField(page.FieldCheckpointing, page.MsgCheckpointing),
		c.checkField(page.FieldSelective, page.MsgSelective),
		c.textField(page.FieldLoRARank, page.MsgLoRARank, "numeric"),
		c.selectField(page.FieldLoRATargets, page.MsgLoRATargets, labelled(c, []estimator.LoRATargets{estimator.LoRAAttention, estimator.LoRAAllLinear}, page.MsgTargetsAttn, page.MsgTargetsAll)),
		c.selectField(page.FieldZeRO, page.MsgZeRO, []option{{"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}}),
		c.selectField(page.FieldOffload, page.MsgOffload, labelled(c, estimator.Offloads, page.MsgOffNone, page.MsgOffOptimizer, page.MsgOffAll)),
		c.selectField(page.FieldEngine, page.MsgEngine, engineOptions()),
		c.selectField(page.FieldKV, page.MsgKV, enumOptions(estimator.DTypes)),
		c.textField(page.FieldMemUtil, page.MsgMemUtil, "decimal"),
		c.textField(page.FieldMaxBatched, page.MsgMaxBatched, "numeric"),
		c.checkField(page.FieldEager, page.MsgEager),
		c.checkField(page.FieldFlash, page.MsgFlash),
		app.If(c.r.Res.VisionParams > 0 || c.state[page.FieldTextOnly] == "1", func() app.UI { return c.checkField(page.FieldTextOnly, page.MsgTextOnly) }),
		c.textField(page.FieldTP, page.MsgTP, "numeric"),
		c.textField(page.FieldPP, page.MsgPP, "numeric"),
		c.textField(page.FieldCP, page.MsgCP, "numeric"),
		app.If(c.r.Res.Params != c.r.Res.ActiveParams || c.state[page.FieldEP] != "1", func() app.UI { return c.textField(page.FieldEP, page.MsgEP, "numeric") }),
		c.textField(page.FieldDP, page.MsgDP, "numeric"),
		c.selectField(page.FieldUnits, page.MsgUnits, []option{{page.UnitGiB.String(), c.t(page.MsgUnitsGiB)}, {page.UnitGB.String(), c.t(page.MsgUnitsGB)}}),
	}
	return app.Section().Class("rs-inputs").Attr("aria-label", c.t(page.MsgInputs)).Body(
		app.Div().Class("rs-fields").Body(fields...),
		app.If(c.firstScreen(), func() app.UI { return foldStub("rs-overrides", c.t(page.MsgOverrides)) }).
			Else(c.renderOverrides),
		c.renderFilters(),
		app.If(c.firstScreen(), func() app.UI { return foldStub("rs-assumptions", c.t(page.MsgAssumptions)) }).
			Else(c.renderAssumptions),
	)
}

// renderOverrides is the Overheads box: each overhead the estimator
// assumed, as the placeholder of a field that replaces it.
func (c *Calculator) renderOverrides() app.UI {
	res := c.r.Res
	overrides := []app.UI{
		app.Summary().Text(c.t(page.MsgOverrides)),
		app.P().Class("rs-sub").Text(c.t(page.MsgOverridesNote)),
		app.Div().Class("rs-fields").Body(
			c.sizeInput(page.FieldUsable, page.MsgUsableOverride, res.Usable),
			c.sizeInput(page.FieldCtx, page.MsgCUDAContext, res.PerGPU.CUDAContext),
			c.sizeInput(page.FieldAlloc, page.MsgAllocator, res.PerGPU.AllocatorReserve),
			c.sizeInput(page.FieldNCCL, page.MsgNCCL, res.PerGPU.NCCL),
			c.sizeInput(page.FieldGraphs, page.MsgCUDAGraphs, res.PerGPU.CUDAGraphs),
			c.textField(page.FieldEngineVersion, page.MsgEngineVersion, "decimal"),
			c.textField(page.FieldHost, page.MsgHost, "text"),
		),
	}
	// Open when a link carries an override, one is wrong or the user has
	// typed one (so clearing it does not fold the box mid-edit).
	open := c.overridesOpen
	for _, f := range page.OverrideFields {
		open = open || c.state[f] != "" || !c.errs[f].OK()
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
func labelled[T interface{ String() string }](c *Calculator, vals []T, labels ...page.MsgKey) []option {
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
			o[i].label = c.t(page.MsgQuantAuto)
		}
	}
	return o
}

func fieldID(f page.Field) string { return "rs-" + page.FieldNames[f] }

// fieldError renders the message under a field, or nothing.
func (c *Calculator) fieldError(f page.Field) app.UI {
	return app.If(!c.errs[f].OK(), func() app.UI {
		return app.P().Class("rs-error").ID(fieldID(f) + "-error").Text(c.errText(c.errs[f]))
	})
}

func (c *Calculator) selectField(f page.Field, label page.MsgKey, opts []option) app.UI {
	if !c.state.Shown(f) {
		return app.Text("")
	}
	s := &selectBox{F: int(f), Label: c.t(label), Cur: c.state[f], Opts: opts}
	if !c.errs[f].OK() {
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
	id := fieldID(page.Field(s.F))
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
	ctx.NewActionWithValue(actionField, fieldChange{F: page.Field(s.F), V: ctx.JSSrc().Get("value").String()})
}

// actionField carries a leaf component's input change to the page.
const actionField = "rs/field"

type fieldChange struct {
	F page.Field
	V string
}

func (c *Calculator) textField(f page.Field, label page.MsgKey, mode string) app.UI {
	if !c.state.Shown(f) {
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
func (c *Calculator) fieldInput(f page.Field) app.HTMLInput {
	return app.Input().Type("text").ID(fieldID(f)).Attr("data-f", strconv.Itoa(int(f))).
		Value(c.state[f]).Attr("aria-invalid", !c.errs[f].OK()).OnChange(c.onField)
}

// sizeInput is an optional size field whose placeholder is the estimate
// it would replace.
func (c *Calculator) sizeInput(f page.Field, label page.MsgKey, est estimator.Bytes) app.UI {
	if !c.state.Shown(f) {
		return app.Text("")
	}
	ph := ""
	if c.r.OK {
		ph = c.loc().Bytes(est)
	}
	return app.Div().Class("rs-field").Body(
		app.Label().For(fieldID(f)).Text(c.t(label)),
		c.fieldInput(f).Placeholder(ph),
		c.fieldError(f),
	)
}

func (c *Calculator) checkField(f page.Field, label page.MsgKey) app.UI {
	if !c.state.Shown(f) {
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
			app.P().Class("rs-sub").Text(c.t(page.MsgFixFields)),
			app.Range(c.general).Slice(func(i int) app.UI {
				return app.P().Class("rs-error").Text(c.errText(c.general[i]))
			}),
		)
	}
	l := c.loc()
	r := c.r.Res
	facts := []factView{{Label: c.t(page.MsgParams), Value: l.Count(r.Params) + " (" + l.Billions(r.Params) + ")", ID: "rs-params"}}
	if r.VisionParams > 0 {
		// A vision-language model: its text model and vision tower apart.
		facts[0].Value = page.Fill(c.t(page.MsgTextVision), l.Billions(r.Params-r.VisionParams), l.Billions(r.VisionParams))
	}
	if r.ActiveParams != r.Params {
		facts = append(facts, factView{Label: c.t(page.MsgActive), Value: l.Count(r.ActiveParams)})
	}
	if r.KVBytesPerToken > 0 {
		facts = append(facts, factView{Label: c.t(page.MsgKVPerToken), Value: l.Fixed(float64(r.KVBytesPerToken)/float64(estimator.KiB), 1) + " " + c.t(page.MsgKiB)})
	}
	if r.KVPoolTokens > 0 {
		facts = append(facts, factView{Label: c.t(page.MsgKVPool), Value: l.Count(r.KVPoolTokens) + " " + c.t(page.MsgTokens) + " · " + l.Count(r.MaxConcurrentSeqs) + " × " + c.state[page.FieldSeq]})
	}
	maxSeq := l.CountOrNone(c.r.MaxSeq)
	if c.r.SeqCapped {
		maxSeq += " (" + c.t(page.MsgModelLimit) + ")"
	}
	facts = append(facts,
		factView{Label: c.t(page.MsgMaxBatch), Value: l.CountOrNone(c.r.MaxBatch), ID: "rs-max-batch"},
		factView{Label: c.t(page.MsgMaxSeq), Value: maxSeq, ID: "rs-max-seq"},
	)
	if g := c.r.Checkpointed; c.r.HasCheckpointed {
		// A training job that does not fit: what checkpointing would need.
		v := l.Bytes(g.PerGPU.Total()) + " · ✗ " + c.t(page.MsgDoesNotFit)
		if g.Fits {
			v = l.Bytes(g.PerGPU.Total()) + " · ✓ " + c.t(page.MsgFits) + " · " + c.t(page.MsgHeadroom) + " " + l.Bytes(g.Headroom)
		}
		facts = append(facts, factView{Label: c.t(page.MsgWithCheckpointing), Value: v, ID: "rs-with-gc"})
	}
	if c.r.HasFix && !(c.r.HasCheckpointed && c.r.Checkpointed.Fits) {
		// Checkpointing alone is not enough: the settings that are.
		facts = append(facts, factView{Label: c.t(page.MsgFitsWith), Value: l.FixText(c.r.Fix), ID: "rs-fits-with"})
	}
	var warns []string
	for _, k := range c.r.HWWarn {
		warns = append(warns, c.t(k)+" ("+c.job.GPU.Name+")")
	}
	for w := range r.Warnings.Each() {
		warns = append(warns, c.t(page.WarningKeys[w]))
	}
	loadPeak := ""
	if r.PeakPhase == estimator.PhaseLoad {
		loadPeak = l.Bytes(r.Peak)
	}
	verdict := c.t(page.MsgFits) + " · " + c.t(page.MsgHeadroom) + " " + l.Bytes(r.Headroom)
	if !r.Fits {
		verdict = c.t(page.MsgDoesNotFit) + " · " + c.t(page.MsgShortBy) + " " + l.Bytes(-r.Headroom)
	}
	return app.Section().Class("rs-result").Body(
		&breakdownView{
			Lang: c.lang(), Title: c.t(page.MsgPerGPU) + " · " + c.modelName() + " · " + c.job.GPU.Name,
			Verdict: verdict, Fits: r.Fits, Parts: c.partViews(),
			Total: l.Bytes(r.PerGPU.Total()), Band: l.BytesRange(r.Confidence.Low, r.Confidence.High),
			Usable: l.Bytes(r.Usable), LoadPeak: loadPeak,
		},
		&factList{Facts: facts},
		app.If(len(warns) > 0, func() app.UI {
			return app.Div().Class("rs-warnings").ID("rs-warnings").Body(
				app.H3().Text(c.t(page.MsgWarnings)),
				app.Ul().Body(app.Range(warns).Slice(func(i int) app.UI { return app.Li().Class("rs-warn").Text(warns[i]) })),
			)
		}),
	)
}

func (c *Calculator) modelName() string {
	if c.job.Model.ID == page.CustomModelID {
		return c.customModelName()
	}
	return c.job.Model.Name
}

// partViews are the breakdown's lines with their basis.
func (c *Calculator) partViews() []partView {
	l := c.loc()
	b, cf := c.r.Res.PerGPU, c.r.Res.Confidence
	all := []struct {
		key, formula page.MsgKey
		id           string
		b            estimator.Bytes
		conf         float64
	}{
		{page.MsgWeights, page.MsgFWeights, "rs-weights", b.Weights, cf.Weights},
		{page.MsgGradients, page.MsgFGradients, "rs-gradients", b.Gradients, cf.Gradients},
		{page.MsgOptimizerStates, page.MsgFOptimizer, "rs-optimizer", b.Optimizer, cf.Optimizer},
		{page.MsgActivations, page.MsgFActivations, "rs-activations", b.Activations, cf.Activations},
		{page.MsgLogits, page.MsgFLogits, "rs-logits", b.Logits, cf.Logits},
		{page.MsgKVCache, page.MsgFKV, "rs-kv", b.KVCache, cf.KVCache},
		{page.MsgCUDAContext, page.MsgFOverhead, "rs-cuda", b.CUDAContext, cf.Overhead},
		{page.MsgAllocator, page.MsgFOverhead, "rs-alloc", b.AllocatorReserve, cf.Overhead},
		{page.MsgNCCL, page.MsgFOverhead, "rs-nccl", b.NCCL, cf.Overhead},
		{page.MsgCUDAGraphs, page.MsgFOverhead, "rs-graphs", b.CUDAGraphs, cf.Overhead},
		{page.MsgQuantState, page.MsgFOverhead, "rs-quant", b.QuantState, cf.Overhead},
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
			ID: p.id, Name: c.t(p.key), Value: l.Bytes(p.b), Share: l.Fixed(share*100, 1) + "%",
			Band: l.Percent(p.conf), Formula: c.t(p.formula), Seg: len(out), Permille: int(share*1000 + 0.5),
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
			app.H2().Text(c.t(page.MsgSpeedTitle)),
			app.P().Class("rs-sub").ID("rs-no-perf").Text(c.t(page.MsgNoPerf)),
		)
	}
	p := v.P
	band := l.Percent(p.Uncertainty)
	bound := c.t(boundKeys[p.Bound])
	if lever := page.Lever(l, p.Bound, c.job.In.Task, v.Eff); lever != "" {
		bound += " — " + lever
	}
	eff := c.t(page.MsgEffMFU) + " " + l.Fixed(v.Eff.MFU*100, 0) + "%"
	if c.job.In.Task == estimator.Inference {
		eff = c.t(page.MsgEffBandwidth) + " " + l.Fixed(v.Eff.BandwidthUtil*100, 0) + "% · " + c.t(page.MsgEffMFU) + " " + l.Fixed(v.Eff.InferenceMFU*100, 0) + "%"
	}
	hw := c.job.GPU.Name + ": " + l.Fixed(v.HW.PeakFLOPS/1e12, 0) + " TFLOPS · " + l.Fixed(v.HW.MemBandwidth/1e9, 0) + " GB/s"
	basis := func(formula, verify page.MsgKey) basisView {
		return basisView{Formula: c.t(formula), Inputs: hw, Efficiency: eff, Band: band, Bound: bound, Verify: c.t(verify)}
	}
	// Two plans, each named: the job as set (its speed, and its cost at
	// that speed on the offer and price of the planner's cheapest plan on
	// this GPU: page.AtSpeed), and that plan itself (its own count, engine,
	// batch and price model), as in the tables.
	atSpeedV, atSpeedWhere := "…", ""
	if sc := page.AtSpeed(v, c.job, &c.ps.out); sc.OK && !c.ps.pending() {
		atSpeedWhere = l.Money(sc.PerGPUHour, sc.Currency) + "/" + c.t(page.MsgGPUHour) + " " + c.t(pricingKeys[sc.Pricing]) +
			" · " + c.providerName(sc.Offer.Provider) + " " + sc.Offer.InstanceType
		atSpeedV = l.Money(sc.JobCost, sc.Currency)
		if c.job.In.Task == estimator.Inference {
			atSpeedV = l.Money(sc.PerMOut, sc.Currency)
		}
	} else if !c.ps.pending() {
		atSpeedV = "—"
	}
	planned, plannedWhat := "…", ""
	if x, ok := c.ps.out.Best(c.job.GPU.ID); ok && !c.ps.pending() {
		where := c.t(pricingKeys[x.Pricing]) + " · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType + instances(x.Instances)
		shape := l.Count(int64(x.Plan.GPUs)) + " × " + c.job.GPU.Name + planSuffix(x.Plan)
		if c.job.In.Task == estimator.Inference {
			planned = l.Money(c.ps.out.FromUSD(x.PerMOutUSD), c.ps.out.Currency)
			plannedWhat = shape + " · " + engineLabels[x.Engine] + " · " + l.Count(int64(math.Round(x.Concurrency))) + " " + c.t(page.MsgInFlight) + " · " + where
		} else {
			planned = l.Money(x.Cost, c.ps.out.Currency)
			plannedWhat = l.Duration(x.Seconds) + " · " + shape + " · " + where
		}
	} else if !c.ps.pending() {
		planned = "—"
	}
	var facts []factView
	if c.job.In.Task == estimator.Inference {
		// How to check the figures: a serving engine's benchmark client,
		// or for HF transformers a timed generate() after a pass over the
		// same lengths (testdata/calibration/device-h100-2026-11-26: the
		// first pass over each length reads 3–6× the step on an H100).
		verify := page.MsgVerifyVLLM
		if c.job.In.Engine == estimator.HF {
			verify = page.MsgVerifyHF
		}
		facts = []factView{
			{ID: "rs-ttft", Label: c.t(page.MsgTTFT), Value: l.Duration(p.TimeToFirstToken), Basis: basis(page.MsgFTTFT, verify)},
			{ID: "rs-per-seq", Label: c.t(page.MsgPerSeq), Value: l.Rate(safeInv(p.DecodeTokenLatency)), Basis: basis(page.MsgFDecode, verify)},
			{ID: "rs-throughput", Label: c.t(page.MsgThroughputInfer), Value: l.Rate(p.TokensPerSecond) + " " + band, Basis: basis(page.MsgFDecode, verify)},
			{ID: "rs-cost-at-speed", Label: c.t(page.MsgCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(page.MsgFCostPerM, verify)},
		}
	} else {
		perEpoch := ""
		if c.job.Dataset > 0 {
			perEpoch = page.Fill(c.t(page.MsgPerEpoch), l.CountOrNone(int(safeDiv(c.job.Dataset, p.TokensPerStep))))
		}
		facts = []factView{
			{ID: "rs-throughput", Label: c.t(page.MsgThroughputTrain), Value: l.Rate(p.TokensPerSecond) + " " + band, Basis: basis(page.MsgFTrain, page.MsgVerifyTrain)},
			{ID: "rs-job-time", Label: c.t(page.MsgJobTime), Value: l.Duration(v.Seconds), Basis: basis(page.MsgFJobTime, page.MsgVerifyTrain)},
			{ID: "rs-gpu-hours", Label: c.t(page.MsgGPUHours), Value: l.Rate(v.GPUHours), Basis: basis(page.MsgFJobTime, page.MsgVerifyTrain)},
			{ID: "rs-steps", Label: c.t(page.MsgOptimizerSteps), Value: l.CountOrNone(int(safeDiv(c.job.Tokens, p.TokensPerStep))), Detail: perEpoch},
			{ID: "rs-cost-at-speed", Label: c.t(page.MsgJobCostAtSpeed), Value: atSpeedV, Detail: atSpeedWhere, Basis: basis(page.MsgFJobCost, page.MsgVerifyTrain)},
		}
	}
	if c.job.In.Task.Training() && c.job.In.GPUs > 1 {
		// The exposed share of the step, and the whole volume's time
		// (most of it hidden under compute on one node).
		exposed := l.SmallPercent(page.SafeShare(p.CommSeconds, p.StepSeconds))
		facts = append(facts, factView{ID: "rs-comm", Label: c.t(page.MsgCommFact), Value: exposed,
			Detail: page.Fill(c.t(page.MsgCommHidden), exposed, l.Duration(p.CommTotalSeconds))})
	}
	facts = append(facts, factView{ID: "rs-mfu", Label: c.t(page.MsgMFUImplied), Value: l.SmallPercent(p.MFU)},
		factView{ID: "rs-cheapest", Label: c.t(page.MsgPlannerBest), Value: planned, Detail: plannedWhat})
	return app.Section().Class("rs-perf").Body(
		app.H2().Text(c.t(page.MsgSpeedTitle)),
		app.P().Class("rs-sub").ID("rs-perf-setup").Text(c.t(page.MsgAsSet)+": "+c.setupLine()),
		&factList{Facts: facts, Lang: c.lang()},
		app.P().Class("rs-sub").Body(app.Text(c.t(page.MsgSpeedNote)+" "), accuracyLink(c.lang())),
	)
}

// pricingKeys name the price models, by planner.Pricing.
var pricingKeys = map[planner.Pricing]page.MsgKey{
	planner.OnDemand: page.MsgPrOnDemand, planner.Spot: page.MsgPrSpot, planner.Reserved1y: page.MsgPrRes1, planner.Reserved3y: page.MsgPrRes3,
}

// setupLine says the job as set, which the speed box's figures describe:
// "1 × NVIDIA H100 SXM 80GB · Hugging Face transformers · batch 1".
func (c *Calculator) setupLine() string {
	in := c.job.In
	s := c.loc().Count(int64(in.GPUs)) + " × " + c.job.GPU.Name + planSuffix(page.PlanOf(in))
	if in.Task == estimator.Inference {
		s += " · " + engineLabels[in.Engine]
	}
	return s + " · " + c.t(page.MsgBatch) + " " + strconv.Itoa(in.Batch)
}

// taskKeys name the tasks, by estimator.Task.
var taskKeys = map[estimator.Task]page.MsgKey{
	estimator.Inference: page.MsgTaskInference, estimator.Pretrain: page.MsgTaskTrain, estimator.FullFinetune: page.MsgTaskFinetune,
	estimator.LoRA: page.MsgTaskLoRA, estimator.QLoRA: page.MsgTaskQLoRA,
}

// engineLabels are the engines' product names, one per estimator.Engines.
var engineLabels = map[estimator.Engine]string{
	estimator.HF: "Hugging Face transformers", estimator.VLLM: "vLLM", estimator.SGLang: "SGLang",
	estimator.TRTLLM: "TensorRT-LLM", estimator.LlamaCpp: "llama.cpp (GGUF)",
}

// boundKeys name what bounded a phase, by estimator.Bound.
var boundKeys = map[estimator.Bound]page.MsgKey{
	estimator.BoundNone: page.MsgNone, estimator.BoundCompute: page.MsgBoundCompute, estimator.BoundBandwidth: page.MsgBoundBandwidth,
	estimator.BoundHost: page.MsgBoundHost, estimator.BoundCommunication: page.MsgBoundComm,
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
	fleet := func(id string, v page.ServeResult) app.UI {
		facts := []factView{
			{ID: id + "concurrency", Label: c.t(page.MsgConcurrency), Value: l.Sig3(v.Concurrency)},
			{ID: id + "serve-ttft", Label: c.t(page.MsgTTFT) + " (p95)", Value: l.Duration(v.TTFTP95)},
			{ID: id + "serve-tpot", Label: c.t(page.MsgTPOT), Value: l.Duration(v.TPOT)},
			{ID: id + "replicas", Label: c.t(page.MsgReplicas), Value: l.Count(int64(v.Replicas))},
			{ID: id + "fleet-gpus", Label: c.t(page.MsgFleetGPUs), Value: l.Count(int64(v.GPUs))},
			{ID: id + "monthly", Label: page.Fill(c.t(page.MsgMonthly), c.t(pricingKeys[v.Pricing])), Value: l.Money(v.Monthly, c.ps.out.Currency)},
		}
		return &factList{Facts: facts, Lang: c.lang()}
	}
	// Each fleet names its plan: GPUs, engine, price model, offer.
	named := func(v page.ServeResult) string {
		return l.Count(int64(v.GPUs)) + " × " + c.gpuName(v.Offer.GPU) + planSuffix(v.Plan) + " · " + engineLabels[v.Engine] +
			" · " + c.t(pricingKeys[v.Pricing]) + " · " + c.providerName(v.Offer.Provider) + " " + v.Offer.InstanceType + instances(v.Instances)
	}
	// What set each fleet's replica count, under its facts.
	binds := func(id string, v page.ServeResult) app.UI {
		if s := c.bindingText(v); s != "" {
			return app.P().Class("rs-sub rs-binds").ID(id).Text(s)
		}
		return app.Text("")
	}
	v := c.ps.out.Serve
	body := []app.UI{
		app.H2().Text(c.t(page.MsgServeTitle)),
		app.P().Class("rs-sub").ID("rs-fleet-plan").Text(c.t(page.MsgFleetOf) + ": " + named(v)),
		fleet("rs-", v),
		binds("rs-binds", v),
		c.loadChartUI(),
		c.fleetUI(),
	}
	if h := c.ps.out.ServeHere; h.OK && h.Offer.GPU != v.Offer.GPU {
		body = append(body,
			app.P().Class("rs-sub").ID("rs-fleet-here").Text(c.t(page.MsgFleetHere)+": "+named(h)),
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
var ruleLabels = map[estimator.Rule]page.MsgKey{
	estimator.RuleParams4Bytes: page.MsgRuleParams4, estimator.RuleParamMemory1_5: page.MsgRuleParamMem15,
	estimator.RuleWeights1_2: page.MsgRuleWeights12, estimator.RuleHF18Bytes: page.MsgRuleHF18,
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
		app.H2().Text(c.t(page.MsgRulesTitle)),
		app.P().Class("rs-sub").Text(c.t(page.MsgRulesNote)),
		app.Div().Class("rs-scroll").Body(app.Table().ID("rs-rules").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text(""), app.Th().Class("num").Text(c.t(page.MsgRuleSays)),
				app.Th().Class("num").Text(c.t(page.MsgThisEstimate)), app.Th().Class("num").Text(c.t(page.MsgOffBy)),
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
					app.Td().Text(c.t(ruleLabels[r.Rule])), app.Td().Class("num").Text(l.Bytes(r.Bytes)),
					app.Td().Class("num").Text(l.Bytes(r.Estimate)), app.Td().Class(cls).Text(l.SignedPercent(e)),
				)
			})),
		)),
	)
}

func (c *Calculator) renderFit() app.UI {
	if len(c.r.Fit) == 0 {
		return app.Text("")
	}
	return app.Section().Class("rs-fit").Body(
		app.H2().Text(c.t(page.MsgGPUFit)),
		app.Div().Class("rs-fit-head").Body(
			app.P().Class("rs-sub").Text(c.t(page.MsgPickGPU)),
			c.selectField(page.FieldSort, page.MsgSortBy, []option{{page.SortVRAM.String(), c.t(page.MsgSortVRAM)}, {page.SortCost.String(), c.t(page.MsgSortCost)}}),
		),
		&fitTable{
			Rows: c.fitRows(), Lang: c.lang(), CostHeader: c.planCostHeader() + " · " + c.pricingName(),
		},
	)
}

// fitRows are the fit table's rows, formatted, in the table's order.
func (c *Calculator) fitRows() []fitRowView {
	l := c.loc()
	cheapestGPU := ""
	for _, p := range c.ps.out.Picks {
		if p.Kind == page.PickCheapest {
			cheapestGPU = p.Offer.GPU
		}
	}
	rows := make([]fitRowView, len(c.r.Fit))
	costs := make([]float64, len(c.r.Fit))
	passed := make([]bool, len(c.r.Fit))
	for i, f := range c.r.Fit {
		v := fitRowView{
			GPU: f.GPU.ID, Name: f.GPU.Name, VRAM: c.gpuVRAM(f.GPU.ID), Fits: f.Fits,
			Selected: f.GPU.ID == c.job.GPU.ID, Need: c.t(page.MsgNone), From: c.t(page.MsgNone), Cost: c.t(page.MsgNone),
			Plan: f.Plan,
		}
		if f.Fits {
			v.Verdict = "✓ " + c.t(page.MsgFits) + " · " + l.Bytes(f.Headroom)
		} else {
			v.Verdict = "✗ " + c.t(page.MsgDoesNotFit)
		}
		if f.Found {
			v.Need, v.Split = strconv.Itoa(f.Plan.GPUs), splitText(f.Plan)
		} else {
			v.Need = "> " + strconv.Itoa(page.MaxGPUsSearched)
		}
		if f.From.PerGPUHour > 0 {
			// The listing's price in the page's currency, as the cost
			// beside it (at the catalog's dated rate).
			v.From = l.Money(f.From.In(c.pr.Cat, c.job.Currency)) + "/" + c.t(page.MsgGPUHour)
		}
		// The cost is the planner's best row on this GPU, and a click
		// applies that whole plan (count, split), as a pick does.
		// While the planner works on a change, the last answer stays, greyed
		// by the page's rs-plan-pending class like the recommendation it
		// agrees with: rewriting every cost twice per keystroke is most of
		// an input change's DOM work.
		switch x, ok := c.ps.out.Best(f.GPU.ID); {
		case ok:
			v.Cost, v.Plan = c.ps.out.Cells(l, c.job, x).Cost, x.Plan
			v.Offer, v.Cmp = x.Offer.ID, c.cmpState(x.Offer.ID)
			v.Where = strconv.Itoa(x.Plan.GPUs) + "× · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType + instances(x.Instances)
			v.Cheapest = f.GPU.ID == cheapestGPU
			costs[i], passed[i] = x.Cost, x.PassedOver
			if x.PassedOver && len(x.Offer.AsOf) >= 7 {
				// Every plan of this GPU rests on a stale price: the picks
				// pass it over, and the row says so.
				v.Where += " · " + page.Fill(c.t(page.MsgVerifyPrice), x.Offer.AsOf[:7])
			}
			// The planner's plan holds the job too: where the memory
			// search stopped at page.MaxGPUsSearched, or the planner's layout
			// (ZeRO, TP, PP) needs fewer GPUs, the row says the planner's
			// count, never "> 64" next to a priced plan.
			if !f.Found || x.Plan.GPUs < f.Plan.GPUs {
				v.Need, v.Split = strconv.Itoa(x.Plan.GPUs), splitText(x.Plan)
			}
		}
		rows[i] = v
	}
	if c.job.Sort == page.SortCost {
		// Cheapest plan first; plans the picks pass over (stale prices)
		// after those they may rest on, so the cheapest pick's GPU leads;
		// GPUs without a plan keep memory order after them.
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if passed[a] != passed[b] {
				if passed[a] {
					return 1
				}
				return -1
			}
			return cmp.Compare(page.PriceKey(costs[a]), page.PriceKey(costs[b]))
		})
		sorted := make([]fitRowView, len(rows))
		for i, k := range idx {
			sorted[i] = rows[k]
		}
		rows = sorted
	}
	return rows
}

// splitText says how the GPUs are used: tensor-parallel degree, pipeline
// stages and data-parallel copies (with the ZeRO stage that shards them).
func splitText(p page.Plan) string {
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
	rows, more := c.offerRows()
	return app.Section().Class("rs-offers").Body(
		app.H2().Text(c.t(page.MsgOffers)+" · "+c.job.GPU.Name),
		app.P().Class("rs-sub").Text(c.t(page.MsgPricesNote)),
		app.If(len(rows) == 0, func() app.UI {
			return app.P().Class("rs-sub").Text(c.t(page.MsgNoOffers))
		}).Else(func() app.UI {
			return &offerTable{Rows: rows, Lang: c.lang(), CostHeader: c.planCostHeader() + " · " + c.pricingName(), TimeHeader: c.planTimeHeader()}
		}),
		app.If(more > 0, func() app.UI {
			return app.Button().Class("rs-more").ID("rs-more-offers").OnClick(c.onShowAllOffers).
				Text(c.t(page.MsgShowAll) + " (+" + strconv.Itoa(more) + ")")
		}),
	)
}

// offerRows are the offers table's rows, formatted, and how many more
// "Show all" would list.
func (c *Calculator) offerRows() (rows []offerRowView, more int) {
	l := c.loc()
	// The planner's row prices each offer; offers it priced come first,
	// cheapest first, then the rest in catalog order (USD, price per GPU-hour).
	offers := make([]page.OfferResult, 0, len(c.r.Offers))
	for _, o := range c.r.Offers {
		if _, planned := c.ps.out.ByOffer[o.Offer.ID]; o.Holds || planned {
			offers = append(offers, o)
		}
	}
	cost := func(o page.OfferResult) float64 {
		if i, ok := c.ps.out.ByOffer[o.Offer.ID]; ok {
			return c.ps.out.Cands[i].Cost
		}
		return 0
	}
	estimator.SortStable(offers, func(a, b *page.OfferResult) int { return cmp.Compare(page.PriceKey(cost(*a)), page.PriceKey(cost(*b))) })
	if !c.allOffers && len(offers) > page.OffersShown {
		more = len(offers) - page.OffersShown
		offers = offers[:page.OffersShown]
	}
	rows = make([]offerRowView, len(offers))
	for i, o := range offers {
		rows[i] = offerRowView{
			ID: o.Offer.ID, GPU: o.Offer.GPU, Plan: o.Plan,
			Provider: o.Provider, Instance: o.Offer.InstanceType,
			GPUs:     strconv.FormatFloat(o.Offer.GPUCount, 'f', -1, 64) + "×",
			OnDemand: l.Money(o.Offer.OnDemandPerHour, o.Offer.Currency), Spot: l.Money(o.Offer.SpotPerHour, o.Offer.Currency),
			Reserved: c.reservedText(o.Offer.Reserved1yPerHour, o.Offer.Reserved3yPerHour, o.Offer.Currency),
			Cost:     c.t(page.MsgNone), Time: c.t(page.MsgNone), AsOf: l.Date(o.Offer.AsOf), Source: page.SourceText(o.Offer.Source),
			Estimated: o.Offer.AsOfEstimated, Own: o.Own, Cmp: -1,
		}
		c.flagOffer(&rows[i], o.Offer)
		if x, ok := c.ps.out.Row(o.Offer.ID); ok {
			cells := c.ps.out.Cells(l, c.job, x)
			rows[i].Cost, rows[i].Plan, rows[i].Time, rows[i].AsOf = cells.Cost, x.Plan, cells.Time, cells.AsOf
			rows[i].Cmp = c.cmpState(o.Offer.ID)
			rows[i].Where = splitText(x.Plan) + instances(x.Instances)
			if x.CommShare > 0 {
				rows[i].Where += " · " + strings.Replace(c.t(page.MsgCommShare), "%s", l.SmallPercent(x.CommShare), 1)
			}
		}
		if len(o.Offer.Regions) > 0 {
			rows[i].Region = o.Offer.Regions[0]
		}
	}
	return rows, more
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
		s = l.Money(r1, cur) + " " + c.t(page.MsgYear1)
	}
	if r3 > 0 {
		if s != "" {
			s += " · "
		}
		s += l.Money(r3, cur) + " " + c.t(page.MsgYear3)
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
	eff := page.AssumedEfficiency(c.job, c.r.Perf)
	def := func(v float64) float64 { return v }
	open := c.overridesOpen
	for _, f := range page.AssumptionFields {
		open = open || c.state[f] != "" || !c.errs[f].OK()
	}
	effField := func(f page.Field, label page.MsgKey, v float64) app.UI {
		if !c.state.Shown(f) {
			return app.Text("")
		}
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Attr("inputmode", "decimal").Placeholder(l.Fixed(def(v), 2)),
			c.fieldError(f),
		)
	}
	// The planner's assumptions: each field shows its default as its
	// placeholder and where the default comes from below it.
	planField := func(f page.Field, label page.MsgKey, placeholder string, source string) app.UI {
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Placeholder(placeholder),
			app.Div().Class("rs-where rs-src").Text(c.t(page.MsgDefaultIs)+" "+placeholder+" · "+source),
			c.fieldError(f),
		)
	}
	spotDefault := l.Fixed(planner.DefaultSpotInterruptionsPerMonth, 2)
	var spotNow string
	if x, ok := c.ps.out.Best(c.job.GPU.ID); ok && !c.ps.pending() && x.CheckpointEvery > 0 {
		spotNow = c.t(page.MsgSpotNow) + " " + l.Fixed(x.SpotPerMonth, 3) + " · " + c.t(page.MsgYoungDaly) + " " + l.Duration(x.CheckpointEvery) +
			" · " + c.providerName(x.Offer.Provider) + " " + x.Offer.InstanceType
	}
	rates := c.pr.Cat.FXRates
	return app.Details().Class("rs-overrides").ID("rs-assumptions").Open(open).Body(
		app.Summary().Text(c.t(page.MsgAssumptions)),
		app.P().Class("rs-sub").Text(c.t(page.MsgAssumptionsNote)),
		app.Div().Class("rs-fields").Body(
			effField(page.FieldMFU, page.MsgMFUField, eff.MFU),
			effField(page.FieldInfMFU, page.MsgInfMFUField, eff.InferenceMFU),
			effField(page.FieldBWUtil, page.MsgBWField, eff.BandwidthUtil),
		),
		app.P().Class("rs-sub").Text(c.t(page.MsgPlanAssumptionsNote)),
		app.Div().Class("rs-fields").Body(
			planField(page.FieldSpotRate, page.MsgSpotRateField, spotDefault, c.t(page.MsgSrcSpot)),
			planField(page.FieldCkptWrite, page.MsgCkptWriteField, "1000MiB", c.t(page.MsgSrcCkpt)),
			planField(page.FieldRestart, page.MsgRestartField, l.Fixed(planner.DefaultRestartSeconds/60, 0)+"m", c.t(page.MsgSrcRestart)),
		),
		app.If(spotNow != "", func() app.UI { return app.P().Class("rs-sub").ID("rs-checkpoint-interval").Text(spotNow) }),
		c.renderHosted(),
		app.If(len(rates) > 0, func() app.UI {
			return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-fx").Body(
				app.Caption().Text(c.t(page.MsgFXTitle)),
				app.THead().Body(app.Tr().Body(app.Th().Text(c.t(page.MsgCurrency)), app.Th().Class("num").Text(c.t(page.MsgPerUSD)),
					app.Th().Text(c.t(page.MsgAsOfSource)))),
				app.TBody().Body(app.Range(rates).Slice(func(i int) app.UI {
					r := rates[i]
					return app.Tr().Body(app.Td().Text(r.Currency), app.Td().Class("num").Text(l.Fixed(r.PerUSD, 4)),
						app.Td().Class("rs-asof").Body(app.Text(l.Date(r.AsOf)), app.Div().Class("rs-where rs-src").Text(page.SourceText(r.Source))))
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
	apis := c.pr.Cat.PlanHostedAPIs(c.job.Model.ID)
	src := c.t(page.MsgSrcAPINone)
	if len(apis) > 0 {
		a := apis[0]
		src = a.Provider + " " + a.Model + " · " + l.Date(a.AsOf) + " · " + page.SourceText(a.Source)
	}
	in, out := "—", "—"
	if len(apis) > 0 {
		in, out = l.Money(apis[0].InputUSDPerMillion, "USD"), l.Money(apis[0].OutputUSDPerMillion, "USD")
	}
	apiField := func(f page.Field, label page.MsgKey, placeholder string) app.UI {
		return app.Div().Class("rs-field").Body(
			app.Label().For(fieldID(f)).Text(c.t(label)),
			c.fieldInput(f).Attr("inputmode", "decimal").Placeholder(placeholder),
			app.Div().Class("rs-where rs-src").Text(c.t(page.MsgDefaultIs)+" "+placeholder+" · "+src),
			c.fieldError(f),
		)
	}
	// The hosted APIs' figures in the plan's currency, as its cards.
	usd := func(v float64) string { return l.Money(c.ps.out.FromUSD(v), c.ps.out.Currency) }
	type hostedRow struct{ API, Prices, Source, API730, Self, BreakEven, Why string }
	var rows []hostedRow
	if !c.ps.pending() && c.ps.out.Kind == planner.Serving {
		for _, h := range c.ps.out.Hosted {
			r := hostedRow{
				API:    cmpOr(h.API.Provider+" "+h.API.Model, h.API.ID),
				Prices: usd(h.API.InputUSDPerMillion) + " / " + usd(h.API.OutputUSDPerMillion),
				Source: c.t(page.MsgYourPrice),
				API730: usd(h.MonthlyCostUSD), Self: usd(h.SelfHostedUSD),
				BreakEven: "—", Why: l.ReasonWith(h.Why, c.providerName),
			}
			if h.API.AsOf != "" {
				r.Source = l.Date(h.API.AsOf) + " · " + page.SourceText(h.API.Source)
			}
			if h.BreakEvenRPS > 0 {
				r.BreakEven = l.Rate(h.BreakEvenRPS) + " " + c.t(page.MsgPerSecond)
			}
			rows = append(rows, r)
		}
	}
	return app.Div().ID("rs-hosted").Body(
		app.P().Class("rs-sub").Text(c.t(page.MsgHostedNote)),
		app.Div().Class("rs-fields").Body(
			apiField(page.FieldAPIIn, page.MsgAPIInField, in),
			apiField(page.FieldAPIOut, page.MsgAPIOutField, out),
		),
		app.If(len(rows) > 0, func() app.UI {
			return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-hosted-table").Body(
				app.Caption().Text(c.t(page.MsgHostedTitle)),
				app.THead().Body(app.Tr().Body(
					app.Th().Text(c.t(page.MsgHostedAPI)), app.Th().Class("num").Text(c.t(page.MsgAPIPrices)),
					app.Th().Class("num").Text(c.t(page.MsgAPIMonthly)), app.Th().Class("num").Text(c.t(page.MsgSelfHosted)),
					app.Th().Class("num").Text(c.t(page.MsgBreakEven)), app.Th().Text(c.t(page.MsgAsOfSource)),
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
	for _, cur := range c.pr.Cat.Currencies() {
		currencies = append(currencies, option{cur, cur})
	}
	kinds := []option{{"", c.t(page.MsgKindsDefault)}, {catalog.AnyKind, c.t(page.MsgKindsAny)}}
	for _, k := range page.KindMsgs {
		kinds = append(kinds, option{k.Kind, c.t(k.Msg)})
	}
	providers := []option{{"", c.t(page.MsgAny)}}
	for _, p := range c.pr.Cat.Providers {
		providers = append(providers, option{p.ID, c.providerName(p.ID)})
	}
	open := false
	for _, f := range []page.Field{page.FieldPricing, page.FieldCurrency, page.FieldProviderKind, page.FieldProvider, page.FieldCountry, page.FieldRegion, page.FieldBudget, page.FieldDeadline, page.FieldMinVCPU, page.FieldMinRAM, page.FieldUnknownNet, page.FieldFreshness} {
		open = open || c.state[f] != page.DefaultState[f] || !c.errs[f].OK()
	}
	return app.Details().Class("rs-overrides").ID("rs-filters").Open(open).Body(
		app.Summary().Text(c.t(page.MsgFilters)),
		app.Div().Class("rs-fields").Body(
			c.selectField(page.FieldPricing, page.MsgPricing, pricing),
			c.selectField(page.FieldCurrency, page.MsgCurrencyField, currencies),
			c.selectField(page.FieldProviderKind, page.MsgProviderKind, kinds),
			c.selectField(page.FieldProvider, page.MsgProvider, providers),
			c.textField(page.FieldCountry, page.MsgCountry, "text"),
			c.textField(page.FieldRegion, page.MsgRegionField, "text"),
			c.textField(page.FieldBudget, page.MsgBudget, "decimal"),
			c.textField(page.FieldDeadline, page.MsgDeadline, "decimal"),
			c.textField(page.FieldMinVCPU, page.MsgMinVCPU, "numeric"),
			c.textField(page.FieldMinRAM, page.MsgMinRAM, "decimal"),
			c.checkField(page.FieldUnknownNet, page.MsgUnknownNet),
			c.textField(page.FieldFreshness, page.MsgFreshnessField, "numeric"),
		),
	)
}

// pricingName is the price model the planner prices with (on-demand,
// spot, reserved), as the pricing field shows it.
func (c *Calculator) pricingName() string { return c.t(pricingKeys[c.job.Pricing]) }
