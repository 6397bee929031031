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

// tableUI renders a table page laid out (page.FitTable, page.OfferTable…)
// in its scrolling box.
func tableUI(t page.Table) app.UI { return app.Div().Class("rs-scroll").Body(&table{T: t}) }

// table is one of the page's tables as a leaf: go-app skips it while its
// rows did not change. A picking table's rows carry their plans in data
// attributes (page.Row.Attrs), and its body holds one click and one key
// handler for all rows: a handler never goes stale after a re-sort, and
// the page binds two listeners instead of two per row.
type table struct {
	app.Compo
	T page.Table
}

func (t *table) Render() app.UI {
	head := make([]app.UI, len(t.T.Head))
	for i := range t.T.Head {
		head[i] = cellUI(app.Th(), &t.T.Head[i])
	}
	thead, body := app.THead(), app.TBody()
	if t.T.Removes {
		thead = thead.OnClick(onRemove)
	}
	if t.T.Picks {
		body = body.OnClick(onPickRow).OnKeyDown(onPickRow)
	}
	return app.Table().ID(t.T.ID).Body(
		app.If(t.T.Caption != "", func() app.UI { return app.Caption().Text(t.T.Caption) }),
		thead.Body(app.Tr().Body(head...)),
		body.Body(app.Range(t.T.Rows).Slice(func(i int) app.UI {
			r := &t.T.Rows[i]
			tr := app.Tr()
			if r.Class != "" {
				tr = tr.Class(r.Class)
			}
			for _, a := range r.Attrs {
				tr = tr.Attr(a.K, a.V)
			}
			cells := make([]app.UI, len(r.Cells))
			for j := range r.Cells {
				c := &r.Cells[j]
				if c.Th {
					cells[j] = cellUI(app.Th(), c)
				} else {
					cells[j] = cellUI(app.Td(), c)
				}
			}
			return tr.Body(cells...)
		})),
	)
}

// cellUI fills a cell element with c's class, id, column name and pieces.
func cellUI[E interface {
	app.UI
	Class(...string) E
	ID(string, ...any) E
	Attr(string, any) E
	Body(...app.UI) E
}](e E, c *page.Cell) app.UI {
	if c.Class != "" {
		e = e.Class(c.Class)
	}
	if c.ID != "" {
		e = e.ID(c.ID)
	}
	if c.Label != "" {
		e = e.Attr("data-label", c.Label)
	}
	for _, a := range c.Attrs {
		e = e.Attr(a.K, a.V)
	}
	body := make([]app.UI, len(c.Nodes))
	for i, n := range c.Nodes {
		switch n.Kind {
		case page.NodeSpan:
			body[i] = app.Span().Class(n.Class).Text(n.Text)
		case page.NodeDiv:
			body[i] = app.Div().Class(n.Class).Text(n.Text)
		case page.NodeCompare:
			body[i] = compareButton(n.Text, n.Ref, n.Cmp)
		case page.NodeSource:
			body[i] = foldUI(n.Ref, n.Text)
		case page.NodeRemove:
			body[i] = app.Button().Class("rs-cmp-remove").Attr("data-cmp", n.Ref).Attr("aria-label", n.Label).Title(n.Text).Text("✕")
		default:
			body[i] = app.Text(n.Text)
		}
	}
	return e.Body(body...)
}

// onRemove takes a plan out of the comparison (its ✕ button's data-cmp).
func onRemove(ctx app.Context, e app.Event) { onCompareButton(ctx, e) }

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
	d := row.Get("dataset")
	if gpu, p, ok := page.PlanFromData(func(k string) string { return d.Get(k).String() }); ok {
		ctx.NewActionWithValue(actionApply, applyPlan{GPU: gpu, Plan: p})
	}
}
