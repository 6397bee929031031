package app

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// TestMonthlyBillSaysItsPricing: the serving box's monthly bill names the
// price model the plan is priced with (it said "on-demand" under a
// reserved plan).
func TestMonthlyBillSaysItsPricing(t *testing.T) {
	for _, c := range []struct{ frag, pricing string }{{"m=mistral-7b-v0.3&rps=20&ttft=1000&pr=reserved-1y", "reserved-1y"}, {"m=mistral-7b-v0.3&rps=20&ttft=1000", "on-demand"}} {
		calc, _ := load(t)
		calc.state = page.ParseFragment(c.frag, page.DefaultState)
		calc.start.drop(calc.plainView(), calc.ps.Out.OK)
		calc.recompute(none)
		doc := app.HTMLString(calc.Render())
		want := page.Fill(tr(calc, page.MsgMonthly), tr(calc, page.PricingKeys[calc.d.Job.Pricing]))
		if !strings.Contains(doc, html.EscapeString(want)) || calc.d.Job.Pricing.String() != c.pricing {
			t.Errorf("%s: no %q (pricing %v)", c.frag, want, calc.d.Job.Pricing)
		}
		if c.pricing != "on-demand" && strings.Contains(doc, html.EscapeString(page.Fill(tr(calc, page.MsgMonthly), tr(calc, page.PricingKeys[0])))) {
			t.Errorf("%s: the bill says on-demand", c.frag)
		}
	}
}

// TestStaticPricePickerDisabled: the prerendered page's price-sheet picker
// is disabled (a file picked before the page is live was lost when the
// live page replaced the input); the live page's is not (the browser
// tests pick files on it).
func TestStaticPricePickerDisabled(t *testing.T) {
	c, _ := load(t)
	doc := app.HTMLString(sheetUIOf(c))
	i := strings.Index(doc, `id="rs-prices-file"`)
	if i < 0 {
		t.Fatal("no picker")
	}
	tag := doc[strings.LastIndex(doc[:i], "<"):]
	tag = tag[:strings.Index(tag, ">")]
	// Natively the component renders as the prerenderer does; in the
	// browser (the WebAssembly tests) as the live page.
	if strings.Contains(tag, "disabled") == app.IsClient {
		t.Fatalf("picker on the %s page: %s", map[bool]string{true: "live", false: "prerendered"}[app.IsClient], tag)
	}
}
