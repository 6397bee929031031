package app

// The inputs form: page.FormView rendered field by field, each field a
// leaf component whose prop points at its page.FieldView, so an input
// re-renders only the fields whose value, message or choices changed.
// Every change travels up as actionField.

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

func fieldID(f page.Field) string { return "rs-" + page.FieldNames[f] }

// fieldUI is one field as its leaf: a select, or a text box or tick box.
// v is the view's, never changed once built (see selectBox).
func fieldUI(v *page.FieldView) app.UI {
	if v.Kind == page.KindSelect {
		return &selectBox{V: v}
	}
	return &fieldBox{V: v}
}

func fieldsUI(fs []page.FieldView) []app.UI {
	out := make([]app.UI, len(fs))
	for i := range fs {
		out[i] = fieldUI(&fs[i])
	}
	return out
}

// fieldsDiv is fields in a row of fields.
func fieldsDiv(fs []page.FieldView) app.UI { return app.Div().Class("rs-fields").Body(fieldsUI(fs)...) }

// formUI is the inputs section; each folded box is a leaf (boxLeaf), so
// an input re-renders the boxes whose fields changed only.
func formUI(v *page.FormView) app.UI {
	return app.Section().Class("rs-inputs").Attr("aria-label", v.Label).Body(
		app.Div().Class("rs-fields").Body(fieldsUI(v.Fields)...),
		&boxLeaf{V: &v.Overrides},
		&boxLeaf{V: &v.Filters},
		&assumptionsBox{V: &v.Assumptions},
	)
}

type boxLeaf struct {
	app.Compo
	V *page.BoxView
}

func (b *boxLeaf) Render() app.UI { return boxUI(b.V) }

// assumptionsBox is the Assumptions box: its fields, then the planner's,
// the hosted APIs and the exchange rates.
type assumptionsBox struct {
	app.Compo
	V *page.AssumptionsView
}

func (b *assumptionsBox) Render() app.UI {
	a := b.V
	return boxUI(&a.BoxView, func() []app.UI {
		return []app.UI{
			app.P().Class("rs-sub").Text(a.PlanNote),
			app.Div().Class("rs-fields").Body(fieldsUI(a.Plan)...),
			app.If(a.SpotNow != "", func() app.UI { return app.P().Class("rs-sub").ID("rs-checkpoint-interval").Text(a.SpotNow) }),
			nodeUI(page.HostedNode(&a.Hosted), hooks{ui: map[string]app.UI{"fields": fieldsDiv(a.Hosted.Fields), "table": tableUI(page.HostedTable(&a.Hosted))}}),
			app.If(len(a.FX.Rows) > 0, func() app.UI { return tableUI(page.FXTable(&a.FX)) }),
		}
	})
}

// boxUI is a folded group of fields, and what more follows them. Only an
// open box carries open: the prerendered page's open="false" is open (the
// static page showed all three boxes' fields, then closed them). A stub
// carries the full box's attribute, so go-app has none to rewrite when
// the body arrives and a box the user opened meanwhile stays open.
func boxUI(b *page.BoxView, more ...func() []app.UI) app.UI {
	d := app.Details().Class("rs-overrides").ID(b.ID)
	if b.Open {
		d = d.Open(true)
	}
	if b.Stub {
		return d.Body(app.Summary().Text(b.Title))
	}
	body := []app.UI{app.Summary().Text(b.Title)}
	if b.Note != "" {
		body = append(body, app.P().Class("rs-sub").Text(b.Note))
	}
	body = append(body, app.Div().Class("rs-fields").Body(fieldsUI(b.Fields)...))
	for _, m := range more {
		body = append(body, m()...)
	}
	return d.Body(body...)
}

// fieldBox is one text box or tick box; its prop is a pointer as
// selectBox's is.
type fieldBox struct {
	app.Compo
	V *page.FieldView
}

func (b *fieldBox) Render() app.UI {
	v := b.V
	id := fieldID(v.F)
	if v.Kind == page.KindCheck {
		return app.Div().Class("rs-field rs-check").Body(
			app.Label().For(id).Body(
				app.Input().Type("checkbox").ID(id).Attr("data-f", strconv.Itoa(int(v.F))).
					Checked(v.Value == "1").OnChange(b.onChange),
				app.Text(" "+v.Label),
			),
			errLine(id, v.Err),
		)
	}
	in := app.Input().Type("text").ID(id).Attr("data-f", strconv.Itoa(int(v.F))).
		Value(v.Value).Attr("aria-invalid", v.Err != "").OnChange(b.onChange)
	if v.Mode != "" {
		in = in.Attr("inputmode", v.Mode)
	}
	if v.Code {
		in = in.Attr("spellcheck", "false")
	}
	if v.Placeholder != "" {
		in = in.Placeholder(v.Placeholder)
	}
	cls := "rs-field"
	if v.Wide {
		cls += " rs-field-wide"
	}
	return app.Div().Class(cls).Body(
		app.Label().For(id).Text(v.Label),
		in,
		whereLine(v.Where),
		errLine(id, v.Err),
	)
}

// whereLine and errLine are the lines under a field (text box, tick box
// or select): what its default or choices mean, and its problem.
func whereLine(w string) app.UI {
	return app.If(w != "", func() app.UI { return app.Div().Class("rs-where rs-src").Text(w) })
}
func errLine(id, e string) app.UI {
	return app.If(e != "", func() app.UI { return app.P().Class("rs-error").ID(id + "-error").Text(e) })
}

// OnUpdate clears the text box's value when the page's value for it is
// empty. go-app 10.1.11 keeps no empty "value" attribute (attributes.Set
// switches on the value, not the name), so going from text to empty
// removes the attribute, which leaves an input's current value as it was:
// a box reused for another field when the task changes (the fine-tune's
// global batch under the inference form's 100000 requests), or one a plan
// resets, kept showing the old text while the job held none.
func (b *fieldBox) OnUpdate(ctx app.Context) {
	if b.V.Kind == page.KindCheck || b.V.Value != "" {
		return
	}
	id := fieldID(b.V.F)
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() && el.Get("value").String() != "" {
			el.Set("value", "")
		}
	})
}

func (b *fieldBox) onChange(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	v := src.Get("value").String()
	if b.V.Kind == page.KindCheck {
		v = "0"
		if src.Get("checked").Bool() {
			v = "1"
		}
	}
	ctx.NewActionWithValue(actionField, fieldChange{F: b.V.F, V: v})
}
