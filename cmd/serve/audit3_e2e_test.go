//go:build !js

package main

// The third audit: the page as a phone user reads it, at 360 × 780 in
// Russian and Chinese, with every section open; the embed view (results
// only, for an iframe) at 360 and 800 px; and the page reloaded offline
// after a first visit. Each job is shot for a person to read, its text
// saved, and held to what a phone needs: nothing wider than the screen.

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

var audit3Jobs = []struct{ name, frag string }{
	{"default", "show=" + allSections},
	{"serve20", "m=llama-3.1-8b&e=vllm&rps=20&s=2000&out=500&ttft=1000&tpot=50&show=" + allSections},
	{"lora", "m=llama-3.1-8b&t=lora&tok=100M&show=" + allSections},
	{"pretrain", "m=llama-3.1-8b&t=train&tok=1T&dl=720&show=" + allSections},
}

func TestE2EAudit3PhoneShots(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("ru", "zh")
	for _, job := range audit3Jobs {
		if !auditJob(job.name) {
			continue
		}
		for _, lang := range langs {
			s := newSite(t, dir, "/")
			s.do("a phone", chromedp.EmulateViewport(360, 780))
			s.do("loading "+job.name, chromedp.Navigate(s.base+"#l="+lang+"&"+job.frag))
			s.waitLive()
			time.Sleep(100 * time.Millisecond)
			s.do("waiting for the plan", chromedp.WaitNotPresent(`.rs-plan-pending`, chromedp.ByQuery))
			// The form's folds too: overheads, prices and filters, assumptions.
			for _, id := range []string{"rs-overrides", "rs-filters", "rs-assumptions"} {
				if s.eval(`String(!!document.querySelector("details#`+id+`"))`) == "true" && s.eval(`String(document.querySelector("details#`+id+`").open)`) != "true" {
					s.do("opening "+id, chromedp.Click("details#"+id+" > summary", chromedp.ByQuery))
				}
			}
			time.Sleep(300 * time.Millisecond)
			s.audit3Save("audit3-" + job.name + "-" + lang)
			s.close()
		}
	}
	if !auditJob("embed") {
		return
	}
	for _, lang := range langs {
		s := newSite(t, dir, "/")
		s.do("a phone", chromedp.EmulateViewport(360, 780))
		s.do("loading the embed", chromedp.Navigate(s.base+"#embed=1&l="+lang+"&m=llama-3.1-8b&e=vllm&rps=20"))
		s.waitLive()
		s.waitPlan()
		s.audit3Save("audit3-embed-" + lang)
		s.do("800 px", chromedp.EmulateViewport(800, 780))
		s.audit3Shot("audit3-embed-"+lang+"-800.png", 800)
		s.close()
	}
}

// phoneVisit is a first visit on a 360 × 780 phone in lang, left once
// the service worker has cached the page for the next one.
func (s *site) phoneVisit(lang string) {
	s.t.Helper()
	s.do("a phone", chromedp.EmulateViewport(360, 780))
	s.do("first visit", chromedp.Navigate(s.base+"#l="+lang))
	s.waitLive()
	s.waitCached()
}

func TestE2EAudit3Offline(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	for _, lang := range []string{"ru", "zh"} {
		s := newSite(t, dir, "/")
		s.phoneVisit(lang)
		s.do("going offline", chromedp.ActionFunc(func(ctx context.Context) error {
			return cdp.Execute(ctx, "Network.emulateNetworkConditions",
				networkConditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}, nil)
		}))
		s.offline.Store(true)
		s.do("reloading offline", chromedp.Navigate(s.base+"#l="+lang+"&show="+allSections), chromedp.Reload())
		s.waitLive()
		s.waitPlan()
		s.audit3Save("audit3-offline-" + lang)
		s.close()
	}
}

// audit3Save writes the page's text and a 360 px full-page shot, and
// logs what lies past the screen's right edge and tap targets under 32 px.
func (s *site) audit3Save(name string) {
	s.t.Helper()
	text := s.eval(`document.body.innerText`)
	if err := os.WriteFile(filepath.Join(artifactDir(s.t), name+".txt"), []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if o := s.eval(overflowing); o != "" {
		s.t.Logf("%s: wider than the window: %s", name, o)
	}
	// A table on a phone is cards or keeps its first column in place.
	if o := s.eval(scrollingTables); o != "" {
		s.t.Errorf("%s: tables scrolling sideways: %s", name, o)
	}
	// A table's caption runs across its box, not one word a line.
	if o := s.eval(`[...document.querySelectorAll("main table caption")].filter(c => { const w = c.getBoundingClientRect().width;
		return w > 0 && w < 0.8 * c.closest("table").parentElement.clientWidth; }).map(c => c.textContent + " " + Math.round(c.getBoundingClientRect().width) + " px").join(" | ")`); o != "" {
		s.t.Errorf("%s: captions narrower than their tables' box: %s", name, o)
	}
	s.audit3Shot(name+"-360.png", 360)
}

// scrollingTables lists tables wider than their box at this width, with
// whether their first column stays in place (position: sticky).
const scrollingTables = `(() => {
	const out = [];
	for (const t of document.querySelectorAll("main table")) {
		const box = t.parentElement;
		if (t.getBoundingClientRect().width === 0) continue;
		if (box.scrollWidth <= box.clientWidth + 1 && t.getBoundingClientRect().right <= innerWidth + 1) continue;
		const c = t.querySelector("tr > :first-child");
		if (c && getComputedStyle(c).position === "sticky") continue;
		out.push((t.id || t.className || t.closest("[id]").id) + " " + Math.round(box.scrollWidth) + "/" + Math.round(box.clientWidth) + " sticky=" + (c ? getComputedStyle(c).position : "-") + " box=" + box.className);
	}
	return out.join(" | ");
})()`

func (s *site) audit3Shot(name string, width int64) {
	s.t.Helper()
	s.do("resizing", chromedp.EmulateViewport(width, 780))
	var png []byte
	if err := chromedp.Run(s.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(artifactDir(s.t), name), png, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// TestE2EAudit3Update shoots the update banner on a phone in Russian and
// Chinese: a new build published while the old one is cached.
func TestE2EAudit3Update(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	next := distDir(t, "RIGHTSIZE_DIST_NEXT")
	for _, lang := range []string{"ru", "zh"} {
		s := newSite(t, dir, "/")
		s.phoneVisit(lang)
		s.publish(next)
		if o := s.eval(overflowing); o != "" {
			t.Errorf("%s: the update banner is wider than a phone: %s", lang, o)
		}
		s.audit3Shot("audit3-update-"+lang+"-360.png", 360)
		s.close()
	}
}
