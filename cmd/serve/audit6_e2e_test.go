//go:build !js

package main

// The sixth audit: the page after applied plans carry their offer and
// layout, the speed box names the applied offer, exports carry the
// prices' date and the new planner notes, as an ML engineer reads it in
// English, Russian and Chinese at 1280 × 900 and 360 × 780: the default
// page, two serving jobs and two training jobs, each loaded by its link,
// shot whole and as its first screen, its text saved for a person to
// read, and held to what audit4Save and audit5FirstScreen hold.

import (
	"context"
	"github.com/chromedp/cdproto/cdp"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var audit6Jobs = []struct{ name, frag string }{
	{"default", ""},
	{"serve70", "m=llama-3.1-70b&rps=5"},
	{"r1fp8", "m=deepseek-r1&p=fp8&rps=100"},
	{"lora70", "m=llama-3.1-70b&t=lora"},
	{"pretrain4096", "m=llama-3.1-8b&t=train&tok=1T&g=h100-sxm&n=4096"},
}

func TestE2EAudit6(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("en", "ru", "zh")
	for _, job := range audit6Jobs {
		if !auditJob(job.name) {
			continue
		}
		for _, lang := range langs {
			name := "audit6-" + job.name + "-" + lang
			s := openAt(t, dir, job.name, 1280, 900, "#l="+lang+"&"+job.frag)
			exceptions := s.watchExceptions()
			s.waitPlan()
			for _, w := range []int64{1280, 360} {
				h := int64(900)
				if w == 360 {
					h = 780
				}
				s.audit5FirstScreen(name, w, h, "")
				s.audit4Save(name, w)
			}
			s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
			if e := exceptions(); len(e) > 0 {
				t.Errorf("%s: exceptions: %q", name, e)
			}
			s.close()
		}
	}
}

// audit6Facts is what a reader compares between the page's places: the
// cards' offer, cost and time, the speed box, the serving fleet and the
// form's fields.
const audit6Facts = `(() => {
	const q = s => { const e = document.querySelector(s); return e ? e.innerText.replace(/\s+/g, " ").trim() : "-"; };
	const v = id => { const e = document.getElementById(id); return e ? e.value : "-"; };
	const cards = [...document.querySelectorAll("#rs-recommendation > [data-kind]")].map(c =>
		c.dataset.kind + " " + JSON.stringify(Object.assign({}, c.dataset)) + " | " + q("#rs-recommendation [data-kind='" + c.dataset.kind + "'] .rs-pick-cost") + " | " + q("#rs-recommendation [data-kind='" + c.dataset.kind + "'] .rs-pick-time"));
	const form = ["rs-gpu","rs-gpus","rs-precision","rs-tp","rs-pp","rs-cp","rs-ep","rs-dp","rs-zero","rs-offload","rs-batch","rs-engine","rs-currency","rs-pricing"].map(id => id.slice(3) + "=" + v(id)).join(" ");
	return ["JOB: " + q("#rs-job-line"), ...cards.map(c => "CARD: " + c), "FORM: " + form, "PERF: " + q("section.rs-perf"), "SERVE: " + q("section.rs-serve"), "VERDICT: " + q("#rs-verdict")].join("\n");
})()`

// TestE2EAudit6Apply uses the page as an engineer would: a pick's "Use
// this", a fit-table row, a chart point, pin and compare, another
// currency, bad input, and an offline reload, saving what each place
// says after each step.
func TestE2EAudit6Apply(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("en")
	for _, job := range audit6Jobs {
		if !auditJob(job.name) {
			continue
		}
		for _, lang := range langs {
			name := "audit6apply-" + job.name + "-" + lang
			var log strings.Builder
			s := openAt(t, dir, job.name, 1280, 900, "#l="+lang+"&"+job.frag)
			exceptions := s.watchExceptions()
			s.waitPlan()
			log.WriteString("== loaded\n" + s.eval(audit6Facts) + "\n")
			for _, kind := range []string{"cheapest", "fastest"} {
				sel := `#rs-recommendation [data-kind~="` + kind + `"] button`
				if s.count(sel) == "0" {
					sel = `#rs-recommendation [data-roles~="` + kind + `"] button`
				}
				if s.count(sel) == "0" {
					continue
				}
				s.do("use "+kind, chromedp.Click(sel, chromedp.ByQuery))
				time.Sleep(300 * time.Millisecond)
				s.waitPlan()
				time.Sleep(300 * time.Millisecond)
				log.WriteString("== used " + kind + "\n" + s.eval(audit6Facts) + "\n")
				s.audit4Save(name+"-used-"+kind, 1280)
				s.audit4Save(name+"-used-"+kind, 360)
				s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
			}
			// A fit-table row: the second row of the table.
			s.openSection("fit")
			row := `#rs-fit tbody tr:nth-child(2)`
			if s.count(row) != "0" {
				log.WriteString("== fit row " + s.eval(`(() => { const r = document.querySelector(`+jsString(row)+`); return JSON.stringify(Object.assign({}, r.dataset)) + " | " + r.innerText.replace(/\s+/g, " "); })()`) + "\n")
				s.do("clicking a fit row", chromedp.ScrollIntoView(row, chromedp.ByQuery), chromedp.Click(row+" td:nth-child(3)", chromedp.ByQuery))
				time.Sleep(300 * time.Millisecond)
				s.waitPlan()
				time.Sleep(300 * time.Millisecond)
				log.WriteString(s.eval(audit6Facts) + "\n")
				s.shotOf(name+"-fitrow-1280.png", "#rs-fold-fit", 1280)
			}
			// A chart point: the last one (the dearest).
			if s.count("svg#rs-pareto circle") != "0" {
				info := s.eval(`(() => { const p = [...document.querySelectorAll("svg#rs-pareto circle")].pop(); p.dispatchEvent(new FocusEvent("focusin", {bubbles: true})); return p.getAttribute("aria-label") + " | " + JSON.stringify(Object.assign({}, p.dataset)); })()`)
				log.WriteString("== chart point " + info + "\n")
				s.eval(`(() => { const p = [...document.querySelectorAll("svg#rs-pareto circle")].pop(); p.dispatchEvent(new MouseEvent("click", {bubbles: true})); return ""; })()`)
				time.Sleep(300 * time.Millisecond)
				s.waitPlan()
				time.Sleep(300 * time.Millisecond)
				log.WriteString(s.eval(audit6Facts) + "\n")
			}
			// Pin, change the precision, compare.
			s.do("pinning", chromedp.Click("#rs-pin", chromedp.ByQuery), chromedp.WaitVisible("#rs-compare", chromedp.ByQuery))
			s.setField("rs-precision", "int8")
			s.waitPlan()
			time.Sleep(300 * time.Millisecond)
			log.WriteString("== pinned, int8\n" + s.eval(`document.getElementById("rs-compare").innerText`) + "\n" + s.eval(audit6Facts) + "\n")
			s.shotOf(name+"-compare-1280.png", "#rs-compare", 1280)
			s.shotOf(name+"-compare-360.png", "#rs-compare", 360)
			s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
			// Another currency.
			s.openSection("prices")
			s.setField("rs-currency", "EUR")
			time.Sleep(300 * time.Millisecond)
			s.waitPlan()
			time.Sleep(300 * time.Millisecond)
			log.WriteString("== EUR\n" + s.eval(audit6Facts) + "\n")
			s.audit4Save(name+"-eur", 1280)
			s.audit4Save(name+"-eur", 360)
			s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
			// Bad input.
			for _, f := range [][2]string{{"rs-batch", "abc"}, {"rs-seq", "-5"}, {"rs-requests-per-second", "1e309"}} {
				if s.count("#"+f[0]) == "0" {
					log.WriteString("== no field " + f[0] + "\n")
					continue
				}
				s.setField(f[0], f[1])
				time.Sleep(700 * time.Millisecond)
				log.WriteString("== " + f[0] + "=" + f[1] + ": " + s.eval(`(document.getElementById(`+jsString(f[0]+"-error")+`) || {}).textContent || "NO MESSAGE"`) + "\n")
			}
			text := s.eval(`document.body.innerText`)
			for _, bad := range []string{"NaN", "Infinity", "+Inf", "undefined", "%!"} {
				if strings.Contains(text, bad) {
					t.Errorf("%s: the page says %q after bad input", name, bad)
				}
			}
			s.audit4Save(name+"-bad", 1280)
			s.audit4Save(name+"-bad", 360)
			if e := exceptions(); len(e) > 0 {
				t.Errorf("%s: exceptions: %q", name, e)
			}
			if err := os.WriteFile(filepath.Join(artifactDir(t), name+".log"), []byte(log.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			s.close()
		}
	}
}

// TestE2EAudit6Offline: a serving job visited once in each language,
// then reloaded with the network cut, answers from the worker's cache
// with no request to the server and no exception, at 360 px.
func TestE2EAudit6Offline(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("en", "ru", "zh")
	for _, lang := range langs {
		s := newSite(t, dir, "/")
		exceptions := s.watchExceptions()
		s.phoneVisit(lang)
		s.do("going offline", chromedp.ActionFunc(func(ctx context.Context) error {
			return cdp.Execute(ctx, "Network.emulateNetworkConditions",
				networkConditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}, nil)
		}))
		s.offline.Store(true)
		s.do("reloading offline", chromedp.Navigate(s.base+"#l="+lang+"&m=llama-3.1-70b&rps=5"), chromedp.Reload())
		s.waitLive()
		s.waitPlan()
		s.audit4Save("audit6-offline-"+lang, 360)
		if n := s.offlineHits.Load(); n != 0 {
			t.Errorf("%s: %d requests to the server while offline", lang, n)
		}
		if e := exceptions(); len(e) > 0 {
			t.Errorf("%s offline: exceptions: %q", lang, e)
		}
		s.close()
	}
}
