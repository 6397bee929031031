//go:build !js

package main

// End-to-end checks of the job line edited in place and of the
// comparison of several plans, on the built site.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// shotOf writes a screenshot of one element (scrolled into view) at width.
func (s *site) shotOf(name, sel string, width int64) {
	s.t.Helper()
	s.do("resizing", chromedp.EmulateViewport(width, 900))
	var png []byte
	s.do("screenshot of "+sel, chromedp.ScrollIntoView(sel, chromedp.ByQuery), chromedp.Screenshot(sel, &png, chromedp.ByQuery))
	p := filepath.Join(artifactDir(s.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("screenshot: %s", p)
}

// waitFor polls a JavaScript condition for up to 10 s.
func (s *site) waitFor(what, cond string) {
	s.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if s.eval(`String(!!(`+cond+`))`) == "true" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s: %s stays false", what, cond)
		}
	}
}

// TestE2EJobLineEdit: each part of the job line opens its field in place,
// by mouse or keyboard; a value typed there changes the form field and
// the link as the form does; a bad one gets the form's message next to
// it; Escape closes the box and gives the focus back. At 360 px the line
// and its open box stay within the page.
func TestE2EJobLineEdit(t *testing.T) {
	s := openPlanned(t)

	// The batch size, by mouse: the box opens with the focus in it.
	s.do("opening the batch part", chromedp.Click("#rs-job-batch", chromedp.ByQuery))
	s.waitFor("the batch box", `document.activeElement && document.activeElement.id === "rs-job-edit"`)
	if v := s.eval(`document.getElementById("rs-job-edit").value`); v != "1" {
		t.Errorf("the batch box holds %q", v)
	}
	// A bad value: the form's message next to it, the box stays open.
	s.setField("rs-job-edit", "abc")
	s.do("waiting for the line's message", chromedp.WaitVisible("#rs-job-batch-error", chromedp.ByQuery))
	if line, form := strings.TrimSpace(s.text("#rs-job-batch-error")), s.text("#rs-batch-error"); line != form || !strings.Contains(form, "not a number") {
		t.Errorf("the line says %q, the form %q", line, form)
	}
	if v := s.eval(`document.getElementById("rs-batch").value`); v != "abc" {
		t.Errorf("the form's batch field reads %q", v)
	}
	s.shotOf("jobline-bad-en-1280.png", "#rs-job-line", 1280)
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
	// A good value: the form field, the link and the line follow; the
	// box closes and the focus returns to the part.
	s.setField("rs-job-edit", "8")
	if h := s.waitHash("b=8"); !strings.Contains(h, "b=8") {
		t.Errorf("the link %q lacks b=8", h)
	}
	s.waitFor("the batch part back", `document.getElementById("rs-job-batch") && document.activeElement.id === "rs-job-batch"`)
	if v := s.eval(`document.getElementById("rs-batch").value`); v != "8" {
		t.Errorf("the form's batch field reads %q", v)
	}
	if v := s.text("#rs-job-batch"); v != "8" {
		t.Errorf("the batch part reads %q", v)
	}
	if n := s.count("#rs-job-batch-error, #rs-batch-error"); n != "0" {
		t.Errorf("%s messages stay after a valid batch size", n)
	}

	// The GPU, by keyboard: Enter opens a select holding the form's
	// choices; a pick changes the form's GPU and the link.
	s.do("opening the GPU part by keyboard", chromedp.Focus("#rs-job-gpu", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	s.waitFor("the GPU select", `document.activeElement && document.activeElement.id === "rs-job-edit" && document.activeElement.tagName === "SELECT"`)
	if a, b := s.count("#rs-job-edit option"), s.count("#rs-gpu option"); a != b {
		t.Errorf("the line's GPU select has %s choices, the form's %s", a, b)
	}
	s.shotOf("jobline-select-en-360.png", "#rs-job-line", 360)
	if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
		t.Errorf("at 360 px with the GPU select open the page is %s px wide", w)
	}
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
	s.setField("rs-job-edit", "a100-80gb-sxm")
	if h := s.waitHash("g=a100-80gb-sxm"); !strings.Contains(h, "g=a100-80gb-sxm") {
		t.Errorf("the link %q lacks the GPU", h)
	}
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "a100-80gb-sxm" {
		t.Errorf("the form's GPU reads %q", v)
	}
	s.waitPlan()
	// Escape closes a box without a change.
	s.do("opening the model part", chromedp.Focus("#rs-job-model", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	s.waitFor("the model select", `document.activeElement && document.activeElement.id === "rs-job-edit"`)
	s.do("closing it", chromedp.KeyEvent(kb.Escape))
	s.waitFor("the model part back", `!document.getElementById("rs-job-edit") && document.activeElement.id === "rs-job-model"`)

	// Russian, at 360 px: the line wraps inside the page.
	s.setField("rs-lang", "ru")
	s.waitFor("the Russian line", `document.getElementById("rs-job-line").textContent.includes("План для")`)
	s.shotOf("jobline-ru-360.png", "#rs-job-line", 360)
	if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
		t.Errorf("at 360 px in Russian the page is %s px wide", w)
	}
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
	s.setField("rs-lang", "zh")
	s.waitFor("the Chinese line", `!document.getElementById("rs-job-line").textContent.includes("План для")`)
	s.do("opening the requests part", chromedp.Click("#rs-job-requests", chromedp.ByQuery))
	s.waitFor("the requests box", `document.activeElement && document.activeElement.id === "rs-job-edit"`)
	s.shotOf("jobline-zh-360.png", "#rs-job-line", 360)
	if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
		t.Errorf("at 360 px in Chinese the page is %s px wide", w)
	}
}

// TestE2EComparePlans: rows of the offers and fit tables and a chart
// point join the comparison; its cells are the tables' cells; a plan is
// removed with its button; the link carries the comparison and a link
// with bad values keeps the good ones and names the rest.
func TestE2EComparePlans(t *testing.T) {
	s := openPlanned(t)
	s.openSection("offers", "fit")

	first := s.eval(`document.querySelector("#rs-offers button[data-cmp]").dataset.cmp`)
	s.do("adding the first offer", chromedp.Click(`#rs-offers button[data-cmp]`, chromedp.ByQuery))
	s.do("waiting for the comparison", chromedp.WaitVisible("#rs-plans-table", chromedp.ByQuery))
	if v := s.eval(`document.querySelector("#rs-offers button[data-cmp]").getAttribute("aria-pressed")`); v != "true" {
		t.Errorf("the added row's button reads aria-pressed=%q", v)
	}
	// Adding a row does not apply it: the GPU stays.
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "h100-sxm" {
		t.Errorf("adding a row to the comparison changed the GPU to %q", v)
	}
	// One story: the comparison's cost and time are the offers row's.
	row := `#rs-offers tr[data-offer="` + first + `"]`
	for _, c := range [][2]string{{"rs-cost", "rs-cmp-cost"}, {"rs-time", "rs-cmp-time"}} {
		tbl := s.eval(`document.querySelector(` + jsString(row+" td."+c[0]) + `).firstChild.textContent`)
		cmp := s.text("#rs-plans-table td." + c[1])
		if tbl == "" || tbl != cmp {
			t.Errorf("%s: offers table %q, comparison %q", c[0], tbl, cmp)
		}
	}
	// A fit-table row (the A100's cheapest plan) and a chart point.
	s.fitRow("a100-80gb-sxm")
	fitOffer := s.eval(`document.querySelector('#rs-fit tr[data-gpu="a100-80gb-sxm"] button[data-cmp]').dataset.cmp`)
	s.do("adding the A100 row", chromedp.ScrollIntoView(`#rs-fit tr[data-gpu="a100-80gb-sxm"] button[data-cmp]`, chromedp.ByQuery),
		chromedp.Click(`#rs-fit tr[data-gpu="a100-80gb-sxm"] button[data-cmp]`, chromedp.ByQuery))
	s.waitFor("two plans", `document.querySelectorAll("#rs-plans-table thead th[data-offer]").length === 2`)
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "h100-sxm" {
		t.Errorf("adding a fit row to the comparison changed the GPU to %q", v)
	}
	s.eval(`(() => { const p = [...document.querySelectorAll("svg#rs-pareto circle")].find(c => true); p.dispatchEvent(new FocusEvent("focusin", {bubbles: true})); return ""; })()`)
	s.do("waiting for the chart's compare button", chromedp.WaitVisible("#rs-pareto-cmp button[data-cmp]", chromedp.ByQuery))
	point := s.eval(`document.querySelector("#rs-pareto-cmp button[data-cmp]").dataset.cmp`)
	if point != first && point != fitOffer {
		s.do("adding the chart point", chromedp.Click("#rs-pareto-cmp button[data-cmp]", chromedp.ByQuery))
		s.waitFor("three plans", `document.querySelectorAll("#rs-plans-table thead th[data-offer]").length === 3`)
	}
	// The keyboard: Tab on a chart point goes to its "+ Compare", then on
	// to the next point; Shift+Tab walks back the same way.
	const cmpFocused = `document.activeElement && document.activeElement.matches("#rs-pareto-cmp button[data-cmp]")`
	pointFocused := func(i string) string {
		return `document.activeElement && document.activeElement.matches('svg#rs-pareto circle[data-i="` + i + `"]')`
	}
	label := func(i string) string {
		return `document.querySelector('svg#rs-pareto circle[data-i="` + i + `"]').getAttribute("aria-label")`
	}
	s.eval(`(document.querySelector('svg#rs-pareto circle[data-i="0"]').focus(), "")`)
	s.waitFor("the first point's info", `document.getElementById("rs-pareto-info").textContent === `+label("0"))
	s.do("Tab on the first point", chromedp.KeyEvent(kb.Tab))
	s.waitFor("the focus on the first point's + Compare", cmpFocused)
	if s.count("svg#rs-pareto circle") != "1" {
		s.do("Tab on its + Compare", chromedp.KeyEvent(kb.Tab))
		s.waitFor("the focus on the second point", pointFocused("1"))
		s.waitFor("the second point's info", `document.getElementById("rs-pareto-info").textContent === `+label("1"))
		s.do("Shift+Tab on the second point", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(input.ModifierShift)))
		s.waitFor("the focus back on the first point's + Compare", cmpFocused+` && document.getElementById("rs-pareto-info").textContent === `+label("0"))
		s.do("Shift+Tab on the + Compare", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(input.ModifierShift)))
		s.waitFor("the focus back on the first point", pointFocused("0"))
	}
	h := s.waitHash("cmp=" + first + "," + fitOffer)
	if !strings.Contains(h, "cmp="+first+","+fitOffer) {
		t.Errorf("the link %q lacks the comparison", h)
	}
	s.shotOf("plans-offer-row-en-360.png", "#rs-offers tbody tr:first-child", 360)
	s.shotOf("plans-fit-row-en-360.png", `#rs-fit tr[data-gpu="a100-80gb-sxm"]`, 360)
	s.shotOf("plans-fit-row-en-1280.png", `#rs-fit tr[data-gpu="a100-80gb-sxm"]`, 1280)
	s.shotOf("plans-offer-row-en-1280.png", "#rs-offers tbody tr:first-child", 1280)
	s.shotOf("plans-chart-en-1280.png", ".rs-pareto figcaption", 1280)
	s.shotOf("plans-en-1280.png", "#rs-plans", 1280)
	s.shotOf("plans-en-360.png", "#rs-plans", 360)
	if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
		t.Errorf("at 360 px with the comparison the page is %s px wide", w)
	}
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))

	// Remove the first plan with its button.
	s.do("removing the first plan", chromedp.Click(`#rs-plans-table th[data-offer="`+first+`"] button[data-cmp]`, chromedp.ByQuery))
	s.waitFor("the first plan gone", `!document.querySelector('#rs-plans-table th[data-offer="`+first+`"]')`)
	if h := s.waitHash("cmp=" + fitOffer); strings.Contains(h, first) {
		t.Errorf("the link %q still holds the removed plan", h)
	}

	// A link with a bad value, a repeat and an unknown offer; Russian.
	s.do("opening a hand-edited link", chromedp.Navigate(s.base+"#l=ru&m=llama-3.1-8b&cmp="+first+",bad!,"+first+",no-such-offer"))
	s.do("reloading", chromedp.Reload())
	s.waitLive()
	s.waitPlan()
	s.waitFor("the comparison from the link", `document.querySelectorAll("#rs-plans-table thead th[data-offer]").length === 2`)
	if v := s.text("#rs-cmp-ignored"); !strings.Contains(v, "Не вошло в сравнение") || !strings.HasSuffix(v, ": bad! · "+first) {
		t.Errorf("the comparison's link note reads %q", v)
	}
	if v := s.text("#rs-plans"); !strings.Contains(v, "Планы рядом") || !strings.Contains(v, "плана нет") {
		t.Errorf("the Russian comparison reads %q", v)
	}
	s.shotOf("plans-ru-1280.png", "#rs-plans", 1280)
	s.shotOf("plans-ru-360.png", "#rs-plans", 360)

	// An old pinned link still compares the pin with the live state.
	s.do("opening a pinned link", chromedp.Navigate(s.base+"#m=llama-3.1-8b&b=4&pin=m%3Dllama-3.1-8b%26b%3D2"))
	s.do("reloading", chromedp.Reload())
	s.waitLive()
	s.do("waiting for the pinned comparison", chromedp.WaitVisible("#rs-compare", chromedp.ByQuery))
	if n := s.count("#rs-plans"); n != "0" {
		t.Errorf("a pinned link without cmp shows %s plan comparisons", n)
	}
}

// TestE2EStaticJobLineOpens: the job line of the prerendered answer, which
// stands until the browser's first plan, opens its part on a click from
// the moment the page is live; before, its buttons were markup without
// handlers until the plan arrived.
func TestE2EStaticJobLineOpens(t *testing.T) {
	s := newSite(t, distDir(t, "RIGHTSIZE_DIST"), "/")
	s.do("clicking the static job line as the page goes live", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`
			window.__sj = "not live";
			document.addEventListener("DOMContentLoaded", () => {
				const obs = new MutationObserver(() => {
					if (!document.querySelector("main.rs-live")) return;
					obs.disconnect();
					const b = document.querySelector("#rs-answer-slot #rs-job-batch");
					window.__sj = b ? "clicked" : "no static job line";
					if (b) b.click();
				});
				obs.observe(document.body, {subtree: true, childList: true, attributes: true});
			});`).Do(ctx)
		return err
	}))
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitInteractive()
	if v := s.eval(`window.__sj`); v != "clicked" {
		t.Fatalf("at go-live: %s", v)
	}
	s.waitFor("the batch box from the static line", `document.activeElement && document.activeElement.id === "rs-job-edit"`)
	if v := s.eval(`document.getElementById("rs-job-edit").value`); v != "1" {
		t.Errorf("the batch box holds %q", v)
	}
	if n := s.count("#rs-answer-slot"); n != "0" {
		t.Errorf("the static answer stayed after its job line was opened")
	}
	s.shotOf("jobline-static-open-en-1280.png", ".rs-answer", 1280)
	s.setField("rs-job-edit", "4")
	if h := s.waitHash("b=4"); !strings.Contains(h, "b=4") {
		t.Errorf("the link %q lacks b=4", h)
	}
	s.waitPlan()
	if v := s.text("#rs-job-batch"); v != "4" {
		t.Errorf("after the plan the batch part reads %q", v)
	}
}
