//go:build !js

package main

// Long tables and the embed view in the browser: the fit table opens on
// its best rows with "Show all", which lists the rest and says so in the
// link; the embed view (an iframe in a docs page) shows the linked job
// read-only with one link to the full page; the chart's hint is true on a
// phone, where a tap shows a point and a second tap uses it.

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"rightsize/app/page"
)

func TestE2EShowAllAndEmbed(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	for _, lang := range []string{"en", "ru", "zh"} {
		s := newSite(t, dir, "/")
		s.phoneVisit(lang)
		s.do("opening the fit table", chromedp.Navigate(s.base+"#l="+lang+"&show=fit"), chromedp.Reload())
		s.waitLive()
		s.waitPlan()
		rows, _ := strconv.Atoi(s.count("#rs-fit tbody tr"))
		if rows != page.FitShown {
			t.Errorf("%s: the fit table opens on %d rows, want %d", lang, rows, page.FitShown)
		}
		more := s.text("#rs-more-fit")
		if !strings.HasPrefix(more, page.Tr(lang, page.MsgShowAll)+" (+") {
			t.Errorf("%s: the fit table's button says %q", lang, more)
		}
		cut := s.eval(`String(document.getElementById("rs-fold-fit").offsetHeight)`)
		s.shotOf("showall-fit-"+lang+"-360.png", "#rs-fold-fit", 360)
		s.shotOf("showall-fit-"+lang+"-1280.png", "#rs-fold-fit", 1280)
		s.do("a phone", chromedp.EmulateViewport(360, 780))
		s.do("showing every GPU", chromedp.Click("#rs-more-fit", chromedp.ByQuery), chromedp.WaitNotPresent("#rs-more-fit", chromedp.ByQuery))
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(more, page.Tr(lang, page.MsgShowAll)+" (+"), ")"))
		if all, _ := strconv.Atoi(s.count("#rs-fit tbody tr")); all != rows+n {
			t.Errorf("%s: Show all lists %d rows, want %d + %d", lang, all, rows, n)
		}
		whole := s.eval(`String(document.getElementById("rs-fold-fit").offsetHeight)`)
		t.Logf("%s: the fit table at 360 px: %s px on its best rows, %s px whole", lang, cut, whole)
		s.waitHash("all-fit")

		// The chart's hint, and a tap: the first shows the point, the
		// second uses it.
		hint := s.text("#rs-pareto-info")
		if hint != page.Tr(lang, page.MsgParetoHint) {
			t.Errorf("%s: the chart says %q", lang, hint)
		}
		s.shotOf("showall-chart-"+lang+"-360.png", "figure.rs-pareto", 360)
		// A point on another GPU (its data-gpu: a label names the
		// instance, which need not name the GPU, as Cudo's do not) with no
		// other point within 30 px (a provider's host shapes of one GPU lie
		// on top of each other, and the browser moves a touch to the
		// nearest target), so both taps land on it.
		gpu := s.eval(`document.getElementById("rs-gpu").value`)
		i := s.eval(`(() => { const ps = [...document.querySelectorAll("svg#rs-pareto circle")];
			const mid = p => { const r = p.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
			const j = ps.findIndex((p, k) => p.dataset.gpu !== ` + jsString(gpu) + ` &&
				ps.every((q, m) => m === k || Math.hypot(mid(p)[0] - mid(q)[0], mid(p)[1] - mid(q)[1]) > 30));
			return String(j); })()`)
		if i == "-1" {
			t.Fatalf("%s: every point is on the selected GPU or beside another", lang)
		}
		dot := `svg#rs-pareto circle[data-i="` + i + `"]`
		label := s.eval(`document.querySelector(` + jsString(dot) + `).getAttribute("aria-label")`)
		s.tap(dot)
		s.waitFor("the tapped point's offer", `document.getElementById("rs-pareto-info").textContent === `+jsString(label))
		if g := s.eval(`document.getElementById("rs-gpu").value`); g != gpu {
			t.Errorf("%s: one tap on a point changed the GPU to %s", lang, g)
		}
		s.tap(dot)
		s.waitFor("the second tap's plan", `document.getElementById("rs-gpu").value !== `+jsString(gpu))
		s.close()

		// The embed view: the job read-only and one link to the page.
		s = newSite(t, dir, "/")
		frag := "l=" + lang + "&m=llama-3.1-8b&e=vllm&rps=20"
		s.do("a phone", chromedp.EmulateViewport(360, 780))
		s.do("loading the embed", chromedp.Navigate(s.base+"#embed=1&"+frag))
		s.waitLive()
		s.waitPlan()
		for what, sel := range map[string]string{
			"a job-line control": "#rs-job-line button, #rs-job-line input, #rs-job-line select",
			"Use this":           "#rs-recommendation button",
			"a form field":       "#rs-model, #rs-gpu",
		} {
			if c := s.count(sel); c != "0" {
				t.Errorf("%s: the embed view has %s %s", lang, c, what)
			}
		}
		href := s.eval(`document.getElementById("rs-open-full").href`)
		got, _ := url.ParseQuery(strings.TrimPrefix(href, s.base+"#"))
		want, _ := url.ParseQuery(strings.TrimPrefix(frag, "l=en&"))
		if !strings.HasPrefix(href, s.base+"#") || !maps.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: Open in Rightsize goes to %q, want this page with %q", lang, href, frag)
		}
		if hint := s.text("#rs-pareto-info"); hint != page.Tr(lang, page.MsgParetoHintView) {
			t.Errorf("%s: the embed's chart says %q", lang, hint)
		}
		h := s.eval(`location.hash`)
		s.do("clicking a point", chromedp.Click(`svg#rs-pareto circle[data-i="0"]`, chromedp.ByQuery))
		s.waitFor("the point's offer", `document.getElementById("rs-pareto-info").textContent !== `+jsString(page.Tr(lang, page.MsgParetoHintView)))
		if now := s.eval(`location.hash`); now != h {
			t.Errorf("%s: a click in the embed view changed the link from %q to %q", lang, h, now)
		}
		s.screenshot("showall-embed-"+lang+"-360.png", 360)
		s.screenshot("showall-embed-"+lang+"-1280.png", 1280)
		for _, w := range []int64{360, 1280} {
			s.shotOf("showall-embed-answer-"+lang+"-"+strconv.FormatInt(w, 10)+".png", "section.rs-answer", w)
			s.shotOf("showall-embed-open-"+lang+"-"+strconv.FormatInt(w, 10)+".png", "p.rs-open", w)
		}
		s.checkSameOrigin() // the embed view calls no other origin
		s.close()
	}
}

// tap touches the middle of the element sel as a finger would: the
// browser sends touch, pointer (pointerType "touch") and click events.
func (s *site) tap(sel string) {
	s.t.Helper()
	s.do("a touch screen", chromedp.EmulateViewport(360, 780, chromedp.EmulateTouch))
	box := s.eval(`(() => { const el = document.querySelector(` + jsString(sel) + `); el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect(); return (r.left + r.width / 2) + "," + (r.top + r.height / 2); })()`)
	xs, ys, _ := strings.Cut(box, ",")
	x, _ := strconv.ParseFloat(xs, 64)
	y, _ := strconv.ParseFloat(ys, 64)
	pt := []*input.TouchPoint{{X: x, Y: y}}
	s.do("tapping "+sel, chromedp.ActionFunc(func(ctx context.Context) error {
		if err := input.DispatchTouchEvent(input.TouchStart, pt).Do(ctx); err != nil {
			return err
		}
		return input.DispatchTouchEvent(input.TouchEnd, []*input.TouchPoint{}).Do(ctx)
	}))
}
