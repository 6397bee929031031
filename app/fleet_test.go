package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// TestFleetBox: the daily-load box appears for inference, a bad curve is
// said next to its field, and a good one puts the planner's fleet, its
// bills, the chart, the mixed fleet and the owned alternative in the
// serving section, with the same best-mix bill as page.FleetTextOf.
func TestFleetBox(t *testing.T) {
	c, _ := load(t)
	c.start.drop(c.plainView(), c.ps.Out.OK)
	// The box's fields: page.TestFormFleet.
	c.state = c.state.WithOpen(page.SecFleet, true)
	if html := app.HTMLString(c.Render()); !strings.Contains(html, `id="rs-load-curve"`) || strings.Contains(html, `id="rs-own-price"`) {
		t.Errorf("inference box without a curve: %s", html)
	}
	c.set(none, page.FieldModel, "mistral-7b-v0.3")
	c.set(none, page.FieldCurve, "2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3")
	c.set(none, page.FieldWorkload, "code")
	c.set(none, page.FieldOwnPrice, "9000")
	c.set(none, page.FieldKWh, "0.15")
	c.set(none, page.FieldOwnYears, "4")
	if !c.d.R.OK || !c.ps.Out.Fleet.OK {
		t.Fatalf("no fleet: errs %v, fleet %+v", c.d.Errs, c.ps.Out.Fleet.Reason)
	}
	html := app.HTMLString(c.Render())
	want := page.FleetTextOf(c.ps.Out.Fleet, locOf(c), page.Names{GPU: c.pr.GPUName, Provider: c.pr.ProviderName})
	if !strings.Contains(html, `id="rs-fleet-chart"`) || !strings.Contains(html, `class="rs-fc-need"`) {
		t.Error("no fleet chart")
	}
	for _, s := range append([]string{want.Headline, tr(c, page.MsgOwnTitle)}, want.Own...) {
		if !strings.Contains(html, htmlText(s)) {
			t.Errorf("page lacks %q", s)
		}
	}
	if got, _ := textByID(html, "rs-fleet-best"); got != want.Headline {
		t.Errorf("headline %q, want %q", got, want.Headline)
	}
	if !strings.Contains(c.link().Encode(page.DefaultState), "wl=code") {
		t.Errorf("link %q lacks the preset", c.link().Encode(page.DefaultState))
	}
}
