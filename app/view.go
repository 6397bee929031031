package app

import (
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
	v := page.BuildView(c.viewIn())
	cls := "rs-page"
	if app.IsClient {
		// Every render in the browser is the app's own DOM, with its
		// handlers: the page answers input from the first one (the static
		// page never carries rs-live).
		cls += " rs-live"
	}
	if c.start.live && c.start.restShown == nRest {
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
			c.renderAnswer(&v.Answer),
			c.resultSection(&v),
			&perfSection{V: v.Perf, Lang: v.Lang},
			c.renderServe(),
			app.P().Class("rs-open").Body(app.A().ID("rs-open-full").Href("#"+c.fullLink()).Target("_blank").
				Rel("noopener").Text(c.t(page.MsgOpenInRightsize))),
		)
	}
	return app.Main().Class(cls).Body(
		c.renderLinkNote(),
		app.If(c.start.updateReady, func() app.UI {
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
			app.If(c.share.copied, func() app.UI { return app.P().Class("rs-ok").ID("rs-link-copied").Text(c.t(page.MsgLinkCopied)) }),
			app.If(c.share.url != "", func() app.UI {
				return app.Input().Type("text").ID("rs-share-url").ReadOnly(true).Value(c.share.url).Attr("aria-label", c.t(page.MsgCopyLink))
			}),
		),
		c.staticOr(staticAnswer, func() app.UI { return c.renderAnswer(&v.Answer) }),
		app.If(c.pin != nil, c.renderCompare),
		app.If(len(c.cmp.ids) > 0, c.renderPlans),
		c.renderInputs(),
		c.staticOr(staticResult, func() app.UI { return c.resultSection(&v) }),
		c.staticOr(staticPerf, func() app.UI { return &perfSection{V: v.Perf, Lang: v.Lang} }),
		app.If(c.serving(), c.renderServe),
		app.If(c.start.restShown > 0, func() app.UI {
			secs := c.restSections(&v)
			body := make([]app.UI, 0, len(secs))
			for _, f := range secs[:min(c.start.restShown, len(secs))] {
				body = append(body, f())
			}
			return app.Div().Class("rs-rest").Body(body...)
		}),
	)
}

// restSections are the sections below the first screen, in page order,
// nRest of them. In the browser they are rendered one at a time after
// mount (see showRest), so no single render holds the main thread for long.
func (c *Calculator) restSections(v *page.View) []func() app.UI {
	return []func() app.UI{
		c.folded(page.SecRules, len(v.Rules.Rows) > 0, func() app.UI { return &rulesSection{V: v.Rules, Lang: v.Lang} }),
		c.folded(page.SecFit, len(v.Fit.Rows) > 0, func() app.UI {
			return &fitSection{V: v.Fit, Lang: v.Lang, Sort: c.state[page.FieldSort], SortErr: c.fieldErrText(page.FieldSort)}
		}),
		c.folded(page.SecOffers, v.Offers.Title != "", func() app.UI { return &offersSection{V: v.Offers, Lang: v.Lang} }),
		c.folded(page.SecExport, c.d.R.OK, c.renderExport),
		c.folded(page.SecLaunch, true, c.renderLaunch),
		c.folded(page.SecPrices, true, c.renderPrices),
		c.folded(page.SecModel, true, c.renderCustomModel),
		c.folded(page.SecFleet, true, c.renderFleetInputs),
		c.folded(page.SecBench, true, c.renderBenchmark),
		func() app.UI {
			return app.Footer().Class("rs-footer").Body(app.P().Class("rs-sub").Text(c.t(page.MsgFooter)),
				app.If(!c.now.IsZero(), func() app.UI { return app.P().Class("rs-sub").ID("rs-fresh").Text(c.freshnessFooter()) }))
		},
	}
}

// folded is section sec under its name, its body rendered only while it
// is open (the link's "show" key); shown false leaves the section out.
// The prerendered page and a closed section carry no body: opening one
// renders it, so the first screen builds only what is on it.
func (c *Calculator) folded(sec page.Section, shown bool, body func() app.UI) func() app.UI {
	return func() app.UI {
		if !shown {
			return app.Text("")
		}
		key := page.SectionKeys[sec]
		open := c.state.Opens(sec)
		d := app.Details().Class("rs-fold").ID("rs-fold-"+key).Attr("data-s", key).OnToggle(c.onFold)
		if open {
			d = d.Open(true) // never Open(false): the static HTML would read open="false", which is open
		}
		return d.Body(app.Summary().Class("rs-fold-title").Text(c.t(page.SectionTitles[sec])), app.If(open, body))
	}
}

// onFold keeps a section's open state in the state (and so in the link)
// when the user opens or closes it; nothing is recomputed, unless the
// default view's first screen stood in for the results until now.
func (c *Calculator) onFold(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	sec, ok := page.SectionOf(src.Get("dataset").Get("s").String())
	open := src.Get("open").Bool()
	if !ok || c.state.Opens(sec) == open {
		return
	}
	first := c.firstScreen()
	c.state = c.state.WithOpen(sec, open)
	if first {
		c.recompute()
	}
	c.syncURL(ctx)
}

// nRest is how many sections restSections lists.
const nRest = 10

// viewIn is what page.BuildView builds the page's view from.
func (c *Calculator) viewIn() page.ViewIn {
	return page.ViewIn{
		State: c.state, Job: c.d.Job, R: c.d.R, Plan: c.ps.out, Pending: c.ps.pending(), Prices: c.pr, Now: c.now,
		Compare: c.cmp.ids, AllOffers: c.open.allOffers, CustomName: c.own.name,
	}
}

// resultSection is the memory section of view v, with the job's problems
// when it does not read.
func (c *Calculator) resultSection(v *page.View) app.UI {
	errs := make([]string, len(c.d.General))
	for i, e := range c.d.General {
		errs[i] = page.ErrText(v.Lang, e)
	}
	return &resultSection{V: v.Result, OK: c.d.R.OK, Lang: v.Lang, Errors: errs}
}

// fieldErrText is field f's problem in the page's language, or "".
func (c *Calculator) fieldErrText(f page.Field) string {
	if c.d.Errs[f].OK() {
		return ""
	}
	return page.ErrText(c.lang(), c.d.Errs[f])
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
	if c.own.arch != nil {
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
		engines[i] = option{e.String(), page.EngineLabels[e]}
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
		app.If(c.d.R.Res.VisionParams > 0 || c.state[page.FieldTextOnly] == "1", func() app.UI { return c.checkField(page.FieldTextOnly, page.MsgTextOnly) }),
		c.textField(page.FieldTP, page.MsgTP, "numeric"),
		c.textField(page.FieldPP, page.MsgPP, "numeric"),
		c.textField(page.FieldCP, page.MsgCP, "numeric"),
		app.If(c.d.R.Res.Params != c.d.R.Res.ActiveParams || c.state[page.FieldEP] != "1", func() app.UI { return c.textField(page.FieldEP, page.MsgEP, "numeric") }),
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
	res := c.d.R.Res
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
	open := c.open.overrides
	for _, f := range page.OverrideFields {
		open = open || c.state[f] != "" || !c.d.Errs[f].OK()
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
	return app.If(!c.d.Errs[f].OK(), func() app.UI {
		return app.P().Class("rs-error").ID(fieldID(f) + "-error").Text(page.ErrText(c.lang(), c.d.Errs[f]))
	})
}

func (c *Calculator) selectField(f page.Field, label page.MsgKey, opts []option) app.UI {
	if !c.state.Shown(f) {
		return app.Text("")
	}
	s := &selectBox{F: int(f), Label: c.t(label), Cur: c.state[f], Opts: opts}
	if !c.d.Errs[f].OK() {
		s.Err = page.ErrText(c.lang(), c.d.Errs[f])
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
		Value(c.state[f]).Attr("aria-invalid", !c.d.Errs[f].OK()).OnChange(c.onField)
}

// sizeInput is an optional size field whose placeholder is the estimate
// it would replace.
func (c *Calculator) sizeInput(f page.Field, label page.MsgKey, est estimator.Bytes) app.UI {
	if !c.state.Shown(f) {
		return app.Text("")
	}
	ph := ""
	if c.d.R.OK {
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

// serving reports whether the page shows the serving plan (a request
// rate was set and planned). The page calls the sections it hides only
// when they show: WebAssembly code is compiled on a function's first call.
func (c *Calculator) serving() bool { return c.d.R.OK && c.ps.out.Serve.OK }

// renderServe shows the fleet the planner's cheapest plan needs for the
// request rate under the targets.
func (c *Calculator) renderServe() app.UI {
	if !c.serving() {
		return app.Text("")
	}
	l := c.loc()
	fleet := func(id string, v page.ServeResult) app.UI {
		facts := []page.Fact{
			{ID: id + "concurrency", Label: c.t(page.MsgConcurrency), Value: l.Sig3(v.Concurrency)},
			{ID: id + "serve-ttft", Label: c.t(page.MsgTTFT) + " (p95)", Value: l.Duration(v.TTFTP95)},
			{ID: id + "serve-tpot", Label: c.t(page.MsgTPOT), Value: l.Duration(v.TPOT)},
			{ID: id + "replicas", Label: c.t(page.MsgReplicas), Value: l.Count(int64(v.Replicas))},
			{ID: id + "fleet-gpus", Label: c.t(page.MsgFleetGPUs), Value: l.Count(int64(v.GPUs))},
			{ID: id + "monthly", Label: page.Fill(c.t(page.MsgMonthly), c.t(page.PricingKeys[v.Pricing])), Value: l.Money(v.Monthly, c.ps.out.Currency)},
		}
		return &factList{Facts: facts, Lang: c.lang()}
	}
	// Each fleet names its plan: GPUs, engine, price model, offer.
	named := func(v page.ServeResult) string {
		return l.Count(int64(v.GPUs)) + " × " + c.pr.GPUName(v.Offer.GPU) + page.PlanSuffix(v.Plan) + " · " + page.EngineLabels[v.Engine] +
			" · " + c.t(page.PricingKeys[v.Pricing]) + " · " + c.pr.ProviderName(v.Offer.Provider) + " " + v.Offer.InstanceType + page.Instances(v.Instances)
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

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// renderAssumptions is the box of editable efficiencies (each with the
// estimator's figure as placeholder) and the dated exchange rates.
func (c *Calculator) renderAssumptions() app.UI {
	l := c.loc()
	eff := page.AssumedEfficiency(c.d.Job, c.d.R.Perf)
	def := func(v float64) float64 { return v }
	open := c.open.overrides
	for _, f := range page.AssumptionFields {
		open = open || c.state[f] != "" || !c.d.Errs[f].OK()
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
	if x, ok := c.ps.out.Best(c.d.Job.GPU.ID); ok && !c.ps.pending() && x.CheckpointEvery > 0 {
		spotNow = c.t(page.MsgSpotNow) + " " + l.Fixed(x.SpotPerMonth, 3) + " · " + c.t(page.MsgYoungDaly) + " " + l.Duration(x.CheckpointEvery) +
			" · " + c.pr.ProviderName(x.Offer.Provider) + " " + x.Offer.InstanceType
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
	apis := c.pr.Cat.PlanHostedAPIs(c.d.Job.Model.ID)
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
				BreakEven: "—", Why: l.ReasonWith(h.Why, c.pr.ProviderName),
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
		pricing[i] = option{p.String(), c.t(page.PricingKeys[p])}
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
		providers = append(providers, option{p.ID, c.pr.ProviderName(p.ID)})
	}
	open := false
	for _, f := range []page.Field{page.FieldPricing, page.FieldCurrency, page.FieldProviderKind, page.FieldProvider, page.FieldCountry, page.FieldRegion, page.FieldBudget, page.FieldDeadline, page.FieldMinVCPU, page.FieldMinRAM, page.FieldUnknownNet, page.FieldFreshness} {
		open = open || c.state[f] != page.DefaultState[f] || !c.d.Errs[f].OK()
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
