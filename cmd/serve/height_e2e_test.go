//go:build !js

package main

// The default page's length, the way a user meets it: a fresh browser on
// the bare URL (no fragment), the planner's answer on screen, at desktop
// 1280 × 900 and phone 360 × 780, in every language. The targets are the
// page in screens: at most 4 screens tall on a desktop and 8 on a phone
// (progressive disclosure: the first screen holds the job, the answer and
// why; every other section opens on demand).

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"

	"github.com/chromedp/chromedp"
)

// Screens a default page may take, at each viewport.
const (
	desktopScreens = 4
	phoneScreens   = 8
)

func TestE2EDefaultPageHeight(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	for _, lang := range []string{"en", "ru", "zh"} {
		for _, vp := range []struct {
			w, h    int64
			screens int
		}{{1280, 900, desktopScreens}, {360, 780, phoneScreens}} {
			s := newSite(t, dir, "/")
			s.do("sizing the window", chromedp.EmulateViewport(vp.w, vp.h))
			s.do("loading the page", chromedp.Navigate(s.base+"#l="+lang))
			s.waitLive()
			s.waitPlan()
			h, err := strconv.Atoi(s.eval(`String(document.documentElement.scrollHeight)`))
			if err != nil {
				t.Fatal(err)
			}
			screens := float64(h) / float64(vp.h)
			if vp.w == 360 {
				if o := s.eval(phoneWraps); o != "" {
					t.Errorf("%s at 360 × 780: wraps a short line: %s", lang, o)
				}
			}
			s.screenshot("default-"+lang+"-"+strconv.Itoa(int(vp.w))+".png", vp.w)
			t.Logf("%s at %d × %d: %d px, %.2f screens", lang, vp.w, vp.h, h, screens)
			if screens > float64(vp.screens) {
				t.Errorf("%s at %d × %d: the default page is %.2f screens (%d px); at most %d", lang, vp.w, vp.h, screens, h, vp.screens)
			}
			s.close()
		}
	}
	// A serving job at scale and a pre-training job, measured and shot
	// for a person to look at (their length follows the plan's depth, so
	// only the default page has a target).
	for _, job := range []struct{ name, frag string }{
		{"serving", "m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50"},
		{"training", "m=llama-3.1-8b&t=train&n=64"},
	} {
		for _, lang := range []string{"en", "ru", "zh"} {
			s := newSite(t, dir, "/")
			s.do("loading the "+job.name+" job", chromedp.Navigate(s.base+"#l="+lang+"&"+job.frag))
			s.waitLive()
			s.waitPlan()
			for _, w := range []int64{1280, 360} {
				s.screenshot(job.name+"-"+lang+"-"+strconv.Itoa(int(w))+".png", w)
				t.Logf("%s job, %s at %d px: %s px", job.name, lang, w, s.eval(`String(document.documentElement.scrollHeight)`))
			}
			s.close()
		}
	}
}

// phoneWraps lists what a 360 px phone must not wrap, each a line the
// Russian page once lost to a label a few letters too long: the share
// buttons on one row, the speed section's title, the engine settings'
// fold and the attention DP field's label on one line each, and the
// speed section's figure names on at most two.
const phoneWraps = `(() => {
	const out = [];
	const lines = e => {
		const r = document.createRange(); r.selectNodeContents(e);
		return new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.bottom))).size;
	};
	const a = document.getElementById("rs-copy-link"), b = document.getElementById("rs-pin");
	if (!a || !b) out.push("no share buttons");
	else if (Math.round(a.getBoundingClientRect().top) !== Math.round(b.getBoundingClientRect().top)) out.push("share buttons on two rows");
	for (const [sel, most] of [["section.rs-perf > h2", 1], ["#rs-overrides > summary", 1], ["label[for=rs-dp]", 1], ["section.rs-perf dt", 2]]) {
		const es = document.querySelectorAll(sel);
		if (!es.length) out.push("no " + sel);
		for (const e of es) if (lines(e) > most) out.push(sel + " " + JSON.stringify(e.innerText.trim()) + ": " + lines(e) + " lines");
	}
	return out.join(" | ");
})()`

// TestE2EFirstScreenText reads the Russian and Chinese phone's first
// screen: every Latin word on it must be a name (a GPU, model, provider,
// instance, engine or the product's own), never interface text left in
// English such as a price's provenance or an exchange-rate source.
func TestE2EFirstScreenText(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	names := nameWords()
	// A word with a Latin letter, whole: an instance type may start with
	// a digit (Hyperbolic's "3x-H100-224-2165").
	latin := regexp.MustCompile(`[A-Za-z0-9_.-]*[A-Za-z][A-Za-z0-9_.-]*`)
	for _, lang := range []string{"ru", "zh"} {
		s := newSite(t, dir, "/")
		s.do("sizing the window", chromedp.EmulateViewport(360, 780))
		s.do("loading the page", chromedp.Navigate(s.base+"#l="+lang))
		s.waitLive()
		s.waitPlan()
		text := s.eval(firstScreenText)
		if len([]rune(text)) < 200 {
			t.Fatalf("%s first screen: only %q", lang, text)
		}
		var foreign []string
		for _, w := range latin.FindAllString(text, -1) {
			if w = strings.Trim(w, ".-_"); len(w) > 1 && !names[strings.ToLower(w)] {
				foreign = append(foreign, w)
			}
		}
		if len(foreign) > 0 {
			t.Errorf("%s first screen at 360 × 780 has Latin words that are no name: %q\n%s", lang, foreign, text)
		}
		// The answer on the first screen: the first pick and its price,
		// above the scope notes (web/rightsize.css moves them under it).
		if b := s.eval(`(() => { const c = document.querySelector("#rs-recommendation .rs-pick-cost");
			return c ? String(Math.round(c.getBoundingClientRect().bottom)) : "none"; })()`); b == "none" {
			t.Errorf("%s at 360 × 780: no pick's cost on the page", lang)
		} else if y, _ := strconv.Atoi(b); y > 780 {
			t.Errorf("%s at 360 × 780: the first pick's cost ends at %d px, below the first screen", lang, y)
		}
		// Every control on the first screen takes a tap within 15 px of
		// its middle, up and down, and 11 px either side.
		if o := s.eval(shortTaps); o != "" {
			t.Errorf("%s at 360 × 780: controls a finger misses: %s", lang, o)
		}
		s.close()
	}
}

// nameWords is every word of the catalog's names (GPUs, models,
// providers, instances), the engines' labels and the product's own name,
// lowercased: what a localized page shows in Latin letters.
func nameWords() map[string]bool {
	c := catalog.Default()
	var all []string
	for _, g := range c.GPUs {
		all = append(all, g.Name)
	}
	for _, m := range c.Models {
		all = append(all, m.Name)
	}
	for _, p := range c.Providers {
		all = append(all, p.Name)
	}
	for _, o := range c.Offers {
		all = append(all, o.InstanceType)
	}
	for _, e := range estimator.Engines {
		all = append(all, e.Label())
	}
	// "token" is how Chinese model providers write the unit on their own
	// price pages (DeepSeek's 百万 tokens), not English left untranslated.
	all = append(all, "Rightsize", "GPU", "DP", "TP", "PP", "EP", "token")
	words := map[string]bool{}
	split := regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
	for _, n := range all {
		for _, w := range split.Split(n, -1) {
			words[strings.ToLower(strings.Trim(w, ".-_"))] = true
			words[strings.ToLower(w)] = true
		}
	}
	return words
}

// firstScreenText is the visible text of the first screen: every text
// node whose box starts above the viewport's bottom edge, less the body
// of a closed <details>.
const firstScreenText = `(() => {
	const out = [], w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n; (n = w.nextNode());) {
		const t = n.textContent.trim();
		if (!t) continue;
		const e = n.parentElement;
		if (!e || e.closest("script,style,noscript,[hidden]")) continue;
		const d = e.closest("details");
		if (d && !d.open && !e.closest("summary")) continue;
		const st = getComputedStyle(e);
		if (st.display === "none" || st.visibility === "hidden") continue;
		const r = document.createRange(); r.selectNodeContents(n);
		const b = r.getBoundingClientRect();
		if (b.height === 0 || b.top >= innerHeight) continue;
		out.push(t);
	}
	return out.join(" | ");
})()`

// shortTaps lists the first screen's controls whose tap area is under
// about 30 × 22 px: a point 15 px above or below the middle, or 11 px
// to either side, that lands on no control.
const shortTaps = `(() => {
	const out = [], ctl = "button, summary, select, a[href], input, label";
	for (const e of document.querySelectorAll("main button, main summary, main select, main a[href]")) {
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || r.top >= innerHeight || r.bottom <= 0) continue;
		const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
		// A control whose middle is below the fold is tapped after a
		// scroll: it is not the first screen's.
		if (cy >= innerHeight) continue;
		for (const [x, y] of [[cx, cy - 15], [cx, cy + 15], [cx - 11, cy], [cx + 11, cy]]) {
			if (y < 0 || y >= innerHeight) continue;
			const h = document.elementFromPoint(x, y);
			if (!h || !h.closest(ctl)) {
				out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(r.width) + "×" + Math.round(r.height) + " " + (e.tagName === "SELECT" ? e.value : e.innerText || "").trim().slice(0, 20));
				break;
			}
		}
	}
	return out.join(" | ");
})()`
