package app

// Leaf components: each renders formatted values it receives as props,
// so go-app skips it when its props did not change. A leaf's view is a
// pointer into the page's page.View, never changed once built: go-app
// copies and compares exported fields by reflection on every render of
// the parent, a heap copy per field (two more per slice or struct) and
// none for a pointer, whose values it compares as before. Picks travel
// up as an actionApply action, never through func props.

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

const svgNS = "http://www.w3.org/2000/svg"

func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// hooks are what a component puts into the nodes it renders: handlers
// for their NodeAction buttons and leaves for their slots, by name.
type hooks struct {
	on map[string]app.EventHandler
	ui map[string]app.UI
}

// nodeUI renders a piece page laid out (page.AnswerNode, page.PickNode,
// a table cell's) with the component's hooks h.
func nodeUI(n page.Node, h hooks) app.UI {
	switch n.Kind {
	case page.NodeSpan:
		return app.Span().Class(n.Class).Text(n.Text)
	case page.NodeDiv:
		return app.Div().Class(n.Class).Text(n.Text)
	case page.NodeCompare:
		return compareButton(n.Text, n.Ref, n.Cmp)
	case page.NodeSource:
		return foldUI(n.Ref, n.Text)
	case page.NodeRemove:
		return app.Button().Class("rs-cmp-remove").Attr("data-cmp", n.Ref).Attr("aria-label", n.Label).Title(n.Text).Text("✕")
	case page.NodeBasis:
		basis := n // the fold's own copy, which nothing changes (see selectBox)
		return &basisBox{N: &basis}
	case page.NodeAction:
		return app.Button().Class(n.Class).ID(n.ID).OnClick(h.on[n.Ref]).Text(n.Text)
	case page.NodeCopy:
		return &copyButton{ID: n.ID, Label: n.Text, What: page.Copy(n.Cmp)}
	case page.NodeSlot:
		return h.ui[n.Ref]
	case page.NodeEl:
		var e app.HTMLElem
		switch tag, svgTag := strings.CutPrefix(n.Tag, "svg:"); {
		case svgTag:
			e = svg(tag)
		case tag == "br":
			return app.Br()
		case tag == "input": // a void element, as br
			return attrsUI(app.Input(), n, h)
		default:
			e = app.Elem(tag)
		}
		e = attrsUI(e, n, h)
		if len(n.Kids) == 0 {
			return e.Text(n.Text)
		}
		return e.Body(append(when(n.Text != "", app.Text(n.Text)), nodesUI(n.Kids, h)...)...)
	}
	return app.Text(n.Text)
}

// attrsUI gives element e node n's class, id and attributes, and binds
// its "on:<event>" attributes to the handlers h names.
func attrsUI[E interface {
	Class(...string) E
	ID(string, ...any) E
	Attr(string, any) E
	On(string, app.EventHandler, ...app.EventOption) E
}](e E, n page.Node, h hooks) E {
	e = e.Class(n.Class).ID(n.ID)
	for _, a := range n.Attrs {
		if ev, ok := strings.CutPrefix(a.K, "on:"); ok {
			e = e.On(ev, h.on[a.V])
		} else {
			e = e.Attr(a.K, a.V)
		}
	}
	return e
}

// nodesUI renders pieces in order.
func nodesUI(ns []page.Node, h hooks) []app.UI {
	out := make([]app.UI, len(ns))
	for i := range ns {
		out[i] = nodeUI(ns[i], h)
	}
	return out
}

// when is ui, or nothing unless ok.
func when(ok bool, ui app.UI) []app.UI {
	if !ok {
		return nil
	}
	return []app.UI{ui}
}

// basisBox is one "how this number was made" fold (page.BasisNode). In
// the browser its body is built only once the user opens it (a fold per
// number: go-app would otherwise create them all at start-up and compare
// them on every input); the prerendered page carries every body.
type basisBox struct {
	app.Compo
	N    *page.Node
	open bool
}

func (b *basisBox) Render() app.UI {
	summary := app.Summary().Text(b.N.Text)
	if b.N.Cmp >= 0 {
		summary = app.Summary().Body(app.Span().Class("rs-key rs-seg-"+strconv.Itoa(b.N.Cmp)), app.Text(b.N.Text))
	}
	d := app.Details().Class("rs-basis").OnToggle(b.onToggle)
	if app.IsClient && !b.open {
		return d.Body(summary)
	}
	facts := make([]app.UI, len(b.N.Kids))
	for i, f := range b.N.Kids {
		facts[i] = app.Div().Class("rs-fact").Body(app.Dt().Text(f.Label), app.Dd().Text(f.Text))
	}
	if b.open {
		d = d.Open(true) // never Open(false): the static HTML would read open="false", which is open
	}
	return d.Body(summary, app.Dl().Body(facts...), app.A().Class("rs-accuracy").Href("accuracy.html").Text(b.N.Label))
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

// tableUI renders a table page laid out (page.FitTable, page.OfferTable…)
// in its scrolling box.
func tableUI(t page.Table) app.UI { return app.Div().Class("rs-scroll").Body(&table{T: &t}) }

// table is one of the page's tables as a leaf: go-app skips it while its
// rows did not change. A picking table's rows carry their plans in data
// attributes (page.Row.Attrs), and its body holds one click and one key
// handler for all rows: a handler never goes stale after a re-sort, and
// the page binds two listeners instead of two per row.
type table struct {
	app.Compo
	T *page.Table
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
	return e.Body(nodesUI(c.Nodes, hooks{})...)
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
	// An attribute the row does not carry reads as "", not as the
	// JavaScript "<undefined>" (data-offer names an offer).
	get := func(k string) string {
		if v := d.Get(k); v.Truthy() {
			return v.String()
		}
		return ""
	}
	if gpu, p, ok := page.PlanFromData(get); ok {
		ctx.NewActionWithValue(actionApply, applyPlan{GPU: gpu, Plan: p})
	}
}
