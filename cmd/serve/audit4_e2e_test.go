//go:build !js

package main

// The fourth audit: the page after flagged prices, the cut fit table, the
// read-only embed view and training fleets, as a user reads it in English,
// Russian and Chinese at 1280 and 360 px. Each job is loaded by its link,
// shot whole and its text saved for a person to read, and held to what a
// reader needs: nothing past the window or past its table's frame.

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var audit4Jobs = []struct{ name, frag string }{
	{"default", ""},
	{"serve20", "rps=20"},
	{"lora70", "m=llama-3.1-70b&t=lora&tok=100M"},
	{"pretrain8", "m=llama-3.1-8b&t=train&tok=1T"},
	{"full70", "m=llama-3.1-70b&t=finetune&tok=100M"},
}

func TestE2EAudit4(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("en", "ru", "zh")
	want := auditJob
	open := func(what string, w, h int64, frag string) *site {
		s := openAt(t, dir, what, w, h, frag)
		s.waitPlan()
		return s
	}
	for _, job := range audit4Jobs {
		if !want(job.name) {
			continue
		}
		for _, lang := range langs {
			s := open(job.name, 1280, 900, "#l="+lang+"&"+job.frag+"&show="+allSections)
			time.Sleep(300 * time.Millisecond)
			s.audit4Save("audit4-"+job.name+"-"+lang, 1280)
			s.audit4Save("audit4-"+job.name+"-"+lang, 360)
			s.close()
		}
	}
	if want("embed") {
		for _, lang := range langs {
			s := open("the embed", 1280, 900, "#embed=1&l="+lang+"&rps=20")
			s.audit4Save("audit4-embed-"+lang, 1280)
			s.audit4Save("audit4-embed-"+lang, 360)
			s.close()
		}
	}
	if want("fitall") {
		for _, lang := range langs {
			s := open("the whole fit table", 360, 780, "#l="+lang+"&show=fit.all-fit")
			if n := s.count("#rs-more-fit"); n != "0" {
				t.Errorf("%s: all-fit in the link still shows the Show all button", lang)
			}
			s.shotOf("audit4-fitall-"+lang+"-360.png", "#rs-fold-fit", 360)
			s.audit4Save("audit4-fitall-"+lang, 1280)
			s.close()
		}
	}
}

// openAt loads frag of the site in dir in a w × h window and waits for
// the app to render it.
func openAt(t *testing.T, dir, what string, w, h int64, frag string) *site {
	t.Helper()
	s := newSite(t, dir, "/")
	s.do("a "+strconv.Itoa(int(w))+" px window", chromedp.EmulateViewport(w, h))
	s.do("loading "+what, chromedp.Navigate(s.base+frag))
	s.waitLive()
	return s
}

// audit4Save writes the page's text and a full-page shot at width, and
// fails on anything past the window's right edge, on text past its box
// or on a table wider than its frame.
func (s *site) audit4Save(name string, width int64) {
	s.t.Helper()
	s.do("resizing", chromedp.EmulateViewport(width, 900))
	time.Sleep(200 * time.Millisecond)
	text := s.eval(`document.body.innerText`)
	if err := os.WriteFile(filepath.Join(artifactDir(s.t), name+".txt"), []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if o := s.eval(overflowing); o != "" {
		s.t.Errorf("%s at %d px: wider than the window: %s", name, width, o)
	}
	if o := s.eval(textPastBox); o != "" {
		s.t.Errorf("%s at %d px: text past its box: %s", name, width, o)
	}
	if o := s.eval(scrollingTables); o != "" {
		// Each column's width and widest cell, to see which one pushes.
		cols := s.eval(`[...document.querySelectorAll("main table")].filter(t => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1).map(t =>
			t.id + ": " + [...t.querySelectorAll("thead th")].map(h => h.textContent.slice(0, 12) + " " + Math.round(h.getBoundingClientRect().width)).join(", ")).join(" | ")`)
		s.t.Errorf("%s at %d px: tables past their frame: %s (columns: %s)", name, width, o, cols)
	}
	s.screenshot(name+"-"+strconv.FormatInt(width, 10)+".png", width)
}

// textPastBox lists elements whose own text runs more than 8 px past
// their box (a word wider than its column, such as a JSON value in a
// field's message; the job line's buttons lean 4 px into their padding),
// at most five, and the page when it is wider than the window:
// an element's box may stay inside the window while its text does not.
const textPastBox = `(() => {
	const out = [], d = document.documentElement;
	if (d.scrollWidth > d.clientWidth + 1) out.push("the page " + d.scrollWidth + "/" + d.clientWidth);
	for (const e of document.querySelectorAll("main *")) {
		if (!e.clientWidth || e.scrollWidth <= e.clientWidth + 8 || getComputedStyle(e).overflowX !== "visible") continue;
		if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
		// A box that clips it (a phone table's head, kept for screen readers) hides it.
		let p = e.parentElement;
		for (; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") break;
		if (p && p !== document.body) continue;
		out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + e.scrollWidth + "/" + e.clientWidth + ": " + e.textContent.slice(0, 40));
		if (out.length >= 5) break;
	}
	return out.join(" | ");
})()`
