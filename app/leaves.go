package app

// Leaf components: each renders formatted values it receives as props
// (exported, comparable: strings, numbers, slices of small structs), so
// go-app skips it when its props did not change. Picks travel up as an
// actionApply action, never through func props.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

const svgNS = "http://www.w3.org/2000/svg"

func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

func renderBasis(lang string, b page.Basis) app.UI {
	return &basisBox{Lang: lang, Label: page.Tr(lang, page.MsgBasis), Seg: -1, Facts: [6]basisFact{
		{page.MsgBasisFormula, b.Formula}, {page.MsgBasisInputs, b.Inputs}, {page.MsgBasisEfficiency, b.Efficiency},
		{page.MsgBasisBand, b.Band}, {page.MsgBasisBound, b.Bound}, {page.MsgBasisVerify, b.Verify},
	}}
}

// basisFact is one line of a basis: what it is and its text ("" leaves it out).
type basisFact struct {
	Key   page.MsgKey
	Value string
}

// basisBox is one "how this number was made" fold. In the browser its
// body is built only once the user opens it: the page has a fold per
// number (about 200 elements on the first screen), which go-app would
// otherwise create at start-up and compare on every input while nobody
// reads them. The prerendered page carries every body, so the static
// HTML stays complete.
type basisBox struct {
	app.Compo
	Lang, Label string
	Seg         int // colour key of a breakdown part; -1: none
	Facts       [6]basisFact
	open        bool
}

func (b *basisBox) Render() app.UI {
	summary := app.Summary().Text(b.Label)
	if b.Seg >= 0 {
		summary = app.Summary().Body(app.Span().Class("rs-key rs-seg-"+strconv.Itoa(b.Seg)), app.Text(b.Label))
	}
	d := app.Details().Class("rs-basis").OnToggle(b.onToggle)
	if app.IsClient && !b.open {
		return d.Body(summary)
	}
	facts := make([]app.UI, 0, len(b.Facts))
	for _, f := range b.Facts {
		if f.Value != "" {
			facts = append(facts, app.Div().Class("rs-fact").Body(app.Dt().Text(page.Tr(b.Lang, f.Key)), app.Dd().Text(f.Value)))
		}
	}
	if b.open {
		d = d.Open(true) // never Open(false): the static HTML would read open="false", which is open
	}
	return d.Body(summary, app.Dl().Body(facts...), accuracyLink(b.Lang))
}

// onToggle builds the body when the fold opens (and drops it when it closes).
func (b *basisBox) onToggle(ctx app.Context, e app.Event) {
	b.open = ctx.JSSrc().Get("open").Bool()
}

// accuracyLink opens the validation report (cmd/build renders
// docs/accuracy.md to accuracy.html next to the page, precached).
func accuracyLink(lang string) app.UI {
	return app.A().Class("rs-accuracy").Href("accuracy.html").Text(page.Tr(lang, page.MsgHowAccurate))
}

type factList struct {
	app.Compo
	Facts []page.Fact
	Lang  string
}

func (f *factList) Render() app.UI {
	return app.Dl().Class("rs-facts").Body(app.Range(f.Facts).Slice(func(i int) app.UI {
		x := f.Facts[i]
		dd := app.Dd().Text(x.Value)
		if x.ID != "" {
			dd = app.Dd().ID(x.ID).Text(x.Value)
		}
		return app.Div().Class("rs-fact").Body(
			app.Dt().Text(x.Label), dd,
			app.If(x.Detail != "", func() app.UI { return app.Div().Class("rs-where").Text(x.Detail) }),
			app.If(x.Basis.Formula != "", func() app.UI { return renderBasis(f.Lang, x.Basis) }),
		)
	}))
}

// breakdownView is the memory per GPU as a bar and a table of parts.
type breakdownView struct {
	app.Compo
	page.Breakdown
}

func (b *breakdownView) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(b.Lang, k) }
	cls := "rs-verdict rs-ok"
	if !b.Fits {
		cls = "rs-verdict rs-bad"
	}
	// The bar is SVG with widths as attributes: the page's
	// Content-Security-Policy refuses inline style attributes.
	x := 0
	bar := make([]app.UI, 0, len(b.Parts))
	for _, p := range b.Parts {
		bar = append(bar, svg("rect").Class("rs-seg-"+strconv.Itoa(p.Seg)).
			Attr("x", x).Attr("y", 0).Attr("width", p.Permille).Attr("height", 10).
			Body(svg("title").Text(p.Name)))
		x += p.Permille
	}
	verify := page.Tr(b.Lang, page.MsgVerifyMemory)
	return app.Div().Body(
		app.H2().Text(b.Title),
		app.P().Class(cls).ID("rs-verdict").Text(b.Verdict),
		svg("svg").Class("rs-bar").Attr("viewBox", "0 0 1000 10").Attr("preserveAspectRatio", "none").
			Attr("aria-hidden", true).Body(bar...),
		app.Table().Class("rs-breakdown").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text(t(page.MsgPart)), app.Th().Class("num").Text(t(page.MsgMemory)),
				app.Th().Class("num").Text(t(page.MsgShare)), app.Th().Class("num").Text(t(page.MsgUncertainty)),
			)),
			app.TBody().Body(
				app.Range(b.Parts).Slice(func(i int) app.UI {
					p := b.Parts[i]
					return app.Tr().Body(
						app.Td().Body(
							&basisBox{Lang: b.Lang, Label: p.Name, Seg: p.Seg, Facts: [6]basisFact{
								{page.MsgBasisFormula, p.Formula}, {page.MsgBasisBand, p.Band}, {page.MsgBasisVerify, verify},
							}},
						),
						app.Td().Class("num").ID(p.ID).Text(p.Value),
						app.Td().Class("num").Text(p.Share),
						app.Td().Class("num").Text(p.Band),
					)
				}),
				app.Tr().Class("rs-total").Body(
					app.Td().Text(t(page.MsgTotal)),
					app.Td().Class("num").ID("rs-total").Text(b.Total),
					app.Td().Class("num").Text("100%"),
					app.Td().Class("num rs-band").Body(app.Text(b.Band+" "), app.A().ID("rs-accuracy-link").Href("accuracy.html").Text("ⓘ").Attr("aria-label", t(page.MsgHowAccurate)).Title(t(page.MsgHowAccurate))),
				),
				app.If(b.LoadPeak != "", func() app.UI {
					return app.Tr().Class("rs-total").Body(
						app.Td().Text(t(page.MsgLoadPeak)),
						app.Td().Class("num").ID("rs-load-peak").Text(b.LoadPeak),
						app.Td(), app.Td(),
					)
				}),
				app.If(b.Needed != "", func() app.UI {
					return app.Tr().Class("rs-total").Body(
						app.Td().Text(t(page.MsgNeeded)),
						app.Td().Class("num").ID("rs-needed").Text(b.Needed),
						app.Td(), app.Td(),
					)
				}),
				app.Tr().Body(
					app.Td().Text(t(page.MsgUsable)),
					app.Td().Class("num").ID("rs-usable").Text(b.Usable),
					app.Td(), app.Td(),
				),
			),
		),
	)
}

type fitTable struct {
	app.Compo
	Rows       []page.FitRow
	Lang       string
	CostHeader string
}

func (f *fitTable) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(f.Lang, k) }
	return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-fit").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text(t(page.MsgGPUCol)), app.Th().Class("num").Text(t(page.MsgVRAM)),
			app.Th().Text(t(page.MsgWithYourSetup)), app.Th().Class("num").Text(t(page.MsgMinGPUs)),
			app.Th().Class("num").Text(t(page.MsgFromPrice)),
			app.Th().Class("num").Text(f.CostHeader),
		)),
		// One click and one key handler for all rows: each row carries its
		// plan in data attributes, so a handler never goes stale after a
		// re-sort, and the page binds two listeners instead of two per row.
		app.TBody().OnClick(onPickRow).OnKeyDown(onPickRow).Body(app.Range(f.Rows).Slice(func(i int) app.UI {
			return &fitRow{R: f.Rows[i], Lang: f.Lang, CostHeader: f.CostHeader}
		})),
	))
}

// onPickRow applies the plan of the clicked row (or the focused one, on
// Enter or Space): data-gpu, data-gpus, data-tp, data-pp, data-zero.
func onPickRow(ctx app.Context, e app.Event) {
	if onCompareButton(ctx, e) {
		return
	}
	if e.Get("type").String() == "keydown" {
		if k := e.Get("key").String(); k != "Enter" && k != " " {
			return
		}
		e.PreventDefault()
	}
	row := e.Get("target").Call("closest", "tr[data-gpu]")
	if !row.Truthy() {
		return
	}
	if p, ok := planFromData(row.Get("dataset")); ok {
		ctx.NewActionWithValue(actionApply, p)
	}
}

// planFromData reads a pick from an element's dataset.
func planFromData(d app.Value) (applyPlan, bool) {
	num := func(k string) int {
		n, _ := strconv.Atoi(d.Get(k).String())
		return n
	}
	p := applyPlan{GPU: d.Get("gpu").String(), Plan: page.Plan{GPUs: num("gpus"), TP: num("tp"), PP: num("pp"), ZeRO: num("zero")}}
	return p, p.GPU != "" && p.Plan.GPUs > 0
}

// withPlan puts a plan in an element's data attributes.
func withPlan(e app.HTMLTr, gpu string, p page.Plan) app.HTMLTr {
	return e.Attr("data-gpu", gpu).Attr("data-gpus", strconv.Itoa(p.GPUs)).Attr("data-tp", strconv.Itoa(p.TP)).Attr("data-pp", strconv.Itoa(p.PP)).Attr("data-zero", strconv.Itoa(p.ZeRO))
}

// fitRow is one row; its picks are handled by the table. Each cell
// carries its column's header in data-label: on a phone the stylesheet
// lays a row out as a card and writes the label above the value.
type fitRow struct {
	app.Compo
	R          page.FitRow
	Lang       string
	CostHeader string
}

// labelCell is a table cell that names its column (data-label).
func labelCell(label string) app.HTMLTd { return app.Td().Attr("data-label", label) }

func (r *fitRow) Render() app.UI {
	x := r.R
	cls := "rs-row"
	if x.Selected {
		cls += " rs-selected"
	}
	verdict := app.Span().Class("rs-ok").Text(x.Verdict)
	if !x.Fits {
		verdict = app.Span().Class("rs-bad").Text(x.Verdict)
	}
	t := func(k page.MsgKey) string { return page.Tr(r.Lang, k) }
	cost := labelCell(r.CostHeader).Class("num rs-cost").Body(
		app.If(x.Cheapest, func() app.UI { return app.Span().Class("rs-badge").Text(page.Tr(r.Lang, page.MsgCheapest) + " ") }),
		app.Text(x.Cost),
		app.If(x.Where != "", func() app.UI { return app.Div().Class("rs-where").Text(x.Where) }),
	)
	return withPlan(app.Tr().Class(cls), x.GPU, x.Plan).TabIndex(0).Attr("aria-selected", x.Selected).Body(
		labelCell(t(page.MsgGPUCol)).Class("rs-name").Body(app.Text(x.Name+" "), compareButton(r.Lang, x.Offer, x.Cmp)),
		labelCell(t(page.MsgVRAM)).Class("num rs-vram").Text(x.VRAM),
		labelCell(t(page.MsgWithYourSetup)).Class("rs-fits").Body(verdict),
		labelCell(t(page.MsgMinGPUs)).Class("num rs-need").Body(
			app.Text(x.Need),
			app.If(x.Split != "", func() app.UI { return app.Div().Class("rs-where").Text(x.Split) }),
		),
		labelCell(t(page.MsgFromPrice)).Class("num rs-price").Text(x.From),
		cost,
	)
}

type offerTable struct {
	app.Compo
	Rows                   []page.OfferRow
	Lang                   string
	CostHeader, TimeHeader string
}

func (o *offerTable) Render() app.UI {
	t := func(k page.MsgKey) string { return page.Tr(o.Lang, k) }
	return app.Div().Class("rs-scroll").Body(app.Table().ID("rs-offers").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text(t(page.MsgProvider)), app.Th().Text(t(page.MsgInstance)), app.Th().Class("num").Text(t(page.MsgGPUs)),
			app.Th().Class("num").Text(t(page.MsgOnDemand)), app.Th().Class("num").Text(t(page.MsgSpot)),
			app.Th().Class("num").Text(t(page.MsgReserved)), app.Th().Class("num").Text(o.CostHeader),
			app.Th().Class("num").Text(o.TimeHeader),
			app.Th().Text(t(page.MsgRegion)), app.Th().Text(t(page.MsgAsOfSource)),
		)),
		app.TBody().OnClick(onPickRow).OnKeyDown(onPickRow).Body(app.Range(o.Rows).Slice(func(i int) app.UI {
			return &offerRow{R: o.Rows[i], Lang: o.Lang, CostHeader: o.CostHeader, TimeHeader: o.TimeHeader}
		})),
	))
}

// offerRow is one offer; a click (handled by the table) applies its GPU
// and its whole instance. Its cells name their columns (data-label), as
// fitRow's do.
type offerRow struct {
	app.Compo
	R                      page.OfferRow
	Lang                   string
	CostHeader, TimeHeader string
}

func (r *offerRow) Render() app.UI {
	o := r.R
	t := func(k page.MsgKey) string { return page.Tr(r.Lang, k) }
	cmpID := o.ID
	if o.Cmp < 0 {
		cmpID = ""
	}
	provider := labelCell(t(page.MsgProvider)).Class("rs-name").Body(
		app.Text(o.Provider+" "),
		app.If(o.Own, func() app.UI { return app.Span().Class("rs-badge").Text(t(page.MsgYourPrice)) }),
		compareButton(r.Lang, cmpID, o.Cmp),
	)
	date := o.AsOf
	if o.Estimated {
		date += " (" + t(page.MsgEstimatedDate) + ")"
	}
	cls := ""
	if o.Age > 0 {
		cls = page.GradeClass[o.Age-1]
	}
	return withPlan(app.Tr().Class("rs-row").Attr("data-offer", o.ID), o.GPU, o.Plan).TabIndex(0).Body(
		provider, labelCell(t(page.MsgInstance)).Class("rs-instance").Text(o.Instance),
		labelCell(t(page.MsgGPUs)).Class("num rs-count").Text(o.GPUs),
		labelCell(t(page.MsgOnDemand)).Class("num rs-price").Text(o.OnDemand),
		labelCell(t(page.MsgSpot)).Class("num rs-spot").Text(o.Spot),
		labelCell(t(page.MsgReserved)).Class("num rs-reserved").Text(o.Reserved),
		labelCell(r.CostHeader).Class("num rs-cost").Body(
			app.Text(o.Cost),
			app.If(o.Where != "", func() app.UI { return app.Div().Class("rs-where").Text(o.Where) }),
		),
		labelCell(r.TimeHeader).Class("num rs-time").Text(o.Time),
		labelCell(t(page.MsgRegion)).Class("rs-region").Text(o.Region),
		labelCell(t(page.MsgAsOfSource)).Class("rs-asof").Body(
			app.Span().Class(cls).Text(date),
			app.If(o.Age > 0, func() app.UI { return app.Span().Class("rs-where " + cls).Text(" " + t(page.GradeKeys[o.Age-1])) }),
			app.If(o.Verify != "", func() app.UI { return app.Div().Class("rs-warn rs-verify").Text(o.Verify) }),
			app.If(o.FarBelow != "", func() app.UI { return app.Div().Class("rs-warn rs-far-below").Text(o.FarBelow) }),
			sourceFold(r.Lang, page.SourceText(o.Source)),
		),
	)
}
