//go:build !js

package main

// End-to-end checks of the answer-first page: recommendation, chart,
// plan applied from a fit row, compare by link, embed mode, Russian and
// Chinese formats, a pasted config.json, the Content-Security-Policy and
// screenshots at desktop and 360 px in every language.

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// watchCSP records Content-Security-Policy violations from the first byte
// of every document (a script added by the browser's debugger, which the
// policy does not apply to).
func (s *site) watchCSP() {
	s.t.Helper()
	s.do("watching CSP violations", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__csp = [];
			document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`).Do(ctx)
		return err
	}))
}

func (s *site) checkNoCSPViolation() {
	s.t.Helper()
	if v := s.eval(`JSON.stringify(window.__csp || [])`); v != "[]" {
		s.t.Errorf("Content-Security-Policy violations: %s", v)
	}
}

// openPlanned opens the default page of the RIGHTSIZE_DIST site and waits
// until it is live and its planner's answer is on screen.
func openPlanned(t *testing.T) *site {
	t.Helper()
	s := newSite(t, distDir(t, "RIGHTSIZE_DIST"), "/")
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitPlan()
	return s
}

// waitPlan waits for the planner's answer to the current inputs: the page
// marks itself pending for at least 250 ms after a change (the planner's
// delay), so after 100 ms a change has shown it, and the answer has come
// once the mark is gone.
func (s *site) waitPlan() {
	s.t.Helper()
	time.Sleep(100 * time.Millisecond)
	s.do("waiting for the plan", chromedp.WaitNotPresent(`.rs-plan-pending`, chromedp.ByQuery),
		chromedp.WaitVisible(`#rs-recommendation [data-roles~="value"]`, chromedp.ByQuery))
}

func (s *site) count(sel string) string {
	s.t.Helper()
	return s.eval(`String(document.querySelectorAll(` + jsString(sel) + `).length)`)
}

func TestE2EAnswers(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	s.watchCSP()
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()

	// The policy is the first tag of <head> and names only the page's origin.
	if v := s.eval(`document.head.firstElementChild.getAttribute("http-equiv") + " | " + document.head.firstElementChild.content`); !strings.HasPrefix(v, "Content-Security-Policy | default-src 'self'") {
		t.Errorf("first head tag: %s", v)
	}
	// The answer first: three picks (the planner runs once the page is
	// up), a card per plan (picks naming one plan share a card:
	// page.PickCards), and the chart with one circle per offer.
	s.waitPlan()
	roles := strings.Split(s.eval(`[...document.querySelectorAll("#rs-recommendation > [data-kind]")].map(e => e.dataset.roles).join(",")`), ",")
	if all := strings.Fields(strings.Join(roles, " ")); len(roles) < 1 || len(roles) > 3 || len(all) != 3 ||
		!slices.Contains(all, "cheapest") || !slices.Contains(all, "fastest") || !slices.Contains(all, "value") {
		t.Fatalf("cards' roles %q: want cheapest, fastest and value once each, a card per plan", roles)
	}
	if !strings.HasPrefix(roles[0], "cheapest") {
		t.Errorf("the first card is %q, not the cheapest", roles[0])
	}
	if n := s.count("svg#rs-pareto circle"); n == "0" {
		t.Error("no points on the Pareto chart")
	}
	s.screenshot("answer-en-desktop.png", 1280)
	s.screenshot("answer-en-360.png", 360)
	if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
		t.Errorf("at 360 px the page is %s px wide", w)
	}
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))

	// Every control has a label a screen reader can say.
	if v := s.eval(`[...document.querySelectorAll("input, select, textarea")].filter(e => !(e.labels && e.labels.length) && !e.getAttribute("aria-label")).map(e => e.id || e.type).join(",")`); v != "" {
		t.Errorf("controls without a label: %s", v)
	}

	// A fit-table row applies the whole plan: on Llama 3.1 8B in bf16 the
	// T4 row carries the planner's cheapest T4 plan (count and split),
	// and a click sets every one of them.
	s.waitPlan()
	s.fitRow("t4")
	row := `#rs-fit tr[data-gpu="t4"]`
	data := map[string]string{}
	for _, k := range []string{"gpus", "tp", "pp", "zero"} {
		data[k] = s.eval(`document.querySelector(` + jsString(row) + `).dataset.` + k)
	}
	if g, _ := strconv.Atoi(data["gpus"]); g < 2 {
		t.Errorf("T4 row data-gpus = %s; the job needs at least two T4s", data["gpus"])
	}
	s.clickRow("t4")
	// (ZeRO is a training field: for this inference job it is hidden and 0.)
	if data["zero"] != "0" {
		t.Errorf("T4 row for an inference job carries data-zero = %s", data["zero"])
	}
	for id, want := range map[string]string{"rs-gpu": "t4", "rs-gpus": data["gpus"], "rs-pp": data["pp"], "rs-tp": data["tp"]} {
		if v := s.eval(`document.getElementById("` + id + `").value`); v != want {
			t.Errorf("after clicking the T4 row, %s = %q, want %q", id, v, want)
		}
	}
	if v := s.text("#rs-verdict"); !strings.HasPrefix(v, "Fits") {
		t.Errorf("after applying the T4 plan the verdict reads %q", v)
	}
	// The T4 row runs fp16 (no bf16 on Turing; vLLM refuses bf16 there):
	// applying it applies its precision, so the page shows the job the
	// engine runs, with no bf16 left to warn about.
	if v := s.eval(`document.getElementById("rs-precision").value`); v != "fp16" {
		t.Errorf("after applying the T4 plan the precision is %q, want the row's fp16", v)
	}
	if v := s.text("#rs-warnings"); strings.Contains(v, "bf16") {
		t.Errorf("a bf16 warning after applying the T4 row's fp16: %q", v)
	}
	// A pick applies its GPU and instance.
	s.waitPlan()
	s.do("using the cheapest pick", chromedp.Click(`#rs-recommendation [data-kind="cheapest"] button`, chromedp.ByQuery))
	want := s.eval(`document.querySelector('#rs-recommendation [data-kind="cheapest"]').dataset.gpu`)
	s.do("waiting for the pick", chromedp.WaitVisible(`#rs-fit tr.rs-selected[data-gpu="`+want+`"]`, chromedp.ByQuery))

	// Pin, change, compare; the pin is in the link.
	s.do("pinning", chromedp.Click("#rs-pin", chromedp.ByQuery), chromedp.WaitVisible("#rs-compare", chromedp.ByQuery))
	s.setField("rs-precision", "int8")
	if h := s.waitHash("pin="); !strings.Contains(h, "pin=") {
		t.Errorf("the pin is not in the link: %s", h)
	}
	s.waitPlan()
	s.screenshot("compare-en-desktop.png", 1280)

	// A serving workload: replicas and a monthly bill.
	s.setField("rs-engine", "vllm")
	s.setField("rs-requests-per-second", "20")
	s.do("waiting for the serving plan", chromedp.WaitVisible("#rs-replicas", chromedp.ByQuery), chromedp.WaitVisible("#rs-monthly", chromedp.ByQuery))
	if v := s.text("#rs-monthly"); !strings.HasPrefix(v, "$") {
		t.Errorf("monthly bill reads %q", v)
	}
	t.Logf("serving 20 req/s: %s replicas, %s a month", s.text("#rs-replicas"), s.text("#rs-monthly"))
	s.waitPlan()
	s.screenshot("serving-en-desktop.png", 1280)
	// The Assumptions box: a hosted API's prices typed in are set against
	// the self-hosted month, with the break-even rate.
	s.do("opening the assumptions", chromedp.Click("#rs-assumptions > summary", chromedp.ByQuery),
		chromedp.WaitVisible("#rs-api-input-price", chromedp.ByQuery))
	s.setField("rs-api-input-price", "0.2")
	s.setField("rs-api-output-price", "0.6")
	s.waitPlan()
	if v := s.text("#rs-hosted-table"); !strings.Contains(v, "$0.20 / $0.60") {
		t.Errorf("hosted API table at $0.20/$0.60 per 1M reads %q", v)
	}
	for _, id := range []string{"rs-spot-interruptions", "rs-checkpoint-write", "rs-restart"} {
		if s.count("#"+id) != "1" {
			t.Errorf("no #%s in the Assumptions box", id)
		}
	}
	s.do("scrolling to the assumptions", chromedp.ScrollIntoView("#rs-assumptions", chromedp.ByQuery))
	s.screenshot("assumptions-en-desktop.png", 1280)
	s.screenshot("assumptions-en-360.png", 360)
	s.setField("rs-api-input-price", "")
	s.setField("rs-api-output-price", "")
	s.setField("rs-requests-per-second", "")

	// Compare opened from a link.
	s.do("opening a compare link", chromedp.Navigate(s.base+"#g=a100-80gb-sxm&pin=g%3Dt4%26p%3Dint8%26m%3Dllama-3.1-8b&m=llama-3.1-8b"), chromedp.Reload())
	s.waitLive()
	if v := s.text("#rs-compare"); !strings.Contains(v, "T4") || !strings.Contains(v, "A100") {
		t.Errorf("compare table from a link: %q", v)
	}

	// A pasted config.json becomes the model, and the link carries it.
	cfg, err := os.ReadFile("../../estimator/testdata/configs/qwen2.5-7b.json")
	if err != nil {
		t.Fatal(err)
	}
	s.do("opening the default page", chromedp.Navigate(s.base+"#m=llama-3.1-8b"), chromedp.Reload())
	s.waitLive()
	s.openSection("model")
	s.setField("rs-config-paste", string(cfg))
	s.do("waiting for the pasted model", chromedp.WaitVisible("//dd[@id='rs-params'][contains(., '7,615,616,512')]", chromedp.BySearch))
	if h := s.waitHash("cfg=", "m=custom"); !strings.Contains(h, "cfg=") || !strings.Contains(h, "m=custom") {
		t.Errorf("the link does not carry the pasted config: %s", h)
	}
	link := s.eval(`location.href`)

	// Russian and Chinese: numbers, units and dates per locale.
	s.setField("rs-lang", "ru")
	s.do("waiting for Russian", chromedp.WaitVisible("//dd[@id='rs-params'][contains(., '7\u00a0615\u00a0616\u00a0512')]", chromedp.BySearch))
	if v := s.text("#rs-weights"); !strings.HasSuffix(v, " ГиБ") || !strings.Contains(v, ",") {
		t.Errorf("ru weights read %q", v)
	}
	s.waitPlan() // the screenshots show the settled answer, not the greyed one
	s.screenshot("answer-ru-desktop.png", 1280)
	s.screenshot("answer-ru-360.png", 360)
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))
	s.setField("rs-lang", "zh")
	s.do("waiting for Chinese", chromedp.WaitVisible("//h2[contains(., '租什么')]", chromedp.BySearch))
	s.setField("rs-gpu", "a10") // Chinese clouds list A10s in CNY
	s.openSection("offers")
	s.do("showing every A10 offer", chromedp.WaitVisible("#rs-more-offers", chromedp.ByQuery), chromedp.Click("#rs-more-offers", chromedp.ByQuery),
		chromedp.WaitNotPresent("#rs-more-offers", chromedp.ByQuery))
	if v := s.text("#rs-offers"); !strings.Contains(v, "¥") {
		t.Errorf("zh A10 offers show no ¥ price")
	}
	s.waitPlan()
	s.screenshot("answer-zh-desktop.png", 1280)
	s.screenshot("answer-zh-360.png", 360)
	s.do("back to desktop", chromedp.EmulateViewport(1280, 900))

	// Another browser opening the link gets the pasted model.
	o := newSite(t, dir, "/")
	o.do("opening the link elsewhere", chromedp.Navigate(strings.Replace(link, s.base, o.base, 1)))
	o.waitLive()
	if v := o.text("#rs-params"); !strings.Contains(v, "7,615,616,512") {
		t.Errorf("the link's config on a fresh browser: params %q", v)
	}

	// Embed: results only, a link to the full page, the height sent to the parent.
	s.do("opening the embed", chromedp.Navigate(s.base+"#embed=1&m=qwen2.5-7b"), chromedp.Reload())
	s.waitLive()
	s.waitPlan()
	if s.count("#rs-model") != "0" || s.count("#rs-recommendation") != "1" || s.count("#rs-open-full") != "1" {
		t.Error("embed mode: want the answer and the open link, no inputs")
	}
	h := s.eval(`new Promise(r => {
		addEventListener("message", e => { if (e.data && e.data.type === "rightsize:height") r(String(e.data.height)); });
		const d = document.createElement("div"); d.textContent = "x"; document.body.append(d);
		setTimeout(() => r("none"), 3000);
	})`)
	if h == "none" || h == "0" {
		t.Errorf("embed: height message %s", h)
	}
	s.screenshot("embed-360.png", 360)
	time.Sleep(100 * time.Millisecond)
	s.checkNoCSPViolation()
	s.checkSameOrigin()
}

// TestE2EInputUpdate changes the batch size in the page 15 times (full
// catalog: fit table over every GPU, offers, picks and chart), between 2
// and 8, 400 ms apart, so the planner (250 ms after input pauses) runs
// between them, as it does between a user's edits. It checks that every
// change reaches the page: the speed summary's throughput (the figure
// the batch size moves: the default job runs on vLLM, whose memory total
// is its KV pool's share of the GPU whatever the batch) changes after
// each one, the field keeps the value typed, each batch size shows one
// throughput whenever it is set (two, one per size), the planner's pass
// after the last change leaves that change's figure on screen, and the
// link says the last size. Changes that never reach the page fail it
// after 20 s; no time is asserted.
//
// It also reports how long a change takes, for make bench (speed goals
// are read from reports, not asserted): the median of the 15. "DOM" ends
// with the task that wrote the new throughput (a MutationObserver's callback
// runs right after it); "painted" ends when the browser has drawn the
// frame after it (the task after the next animation frame), so it adds
// the browser's style, layout and paint. Each main-thread task over 50 ms
// is listed with what it wrote to the page: the plan's answer, a change's
// tables, or nothing (the planner's slices and the Go runtime's
// collections between them; TestE2EReplanProfile names their functions).
func TestE2EInputUpdate(t *testing.T) {
	s := openPlanned(t)
	raw := s.eval(batchChangesJS)
	var got struct {
		Seen []struct {
			Value, Field, Before, Total string
			Updated                     bool
		}
		Final, Field, Hash, Report string
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("the page's measurements %q: %v", raw, err)
	}
	totals := map[string]string{} // batch size → the throughput it showed (the "total" the page script reads)
	for i, c := range got.Seen {
		if !c.Updated {
			t.Fatalf("change %d (batch %s): the throughput still reads %q after 20 s", i+1, c.Value, c.Total)
		}
		if c.Field != c.Value {
			t.Errorf("change %d: the batch field reads %q, %q was typed", i+1, c.Field, c.Value)
		}
		if w, ok := totals[c.Value]; ok && w != c.Total {
			t.Errorf("change %d (batch %s): throughput %q, %q the last time it was set", i+1, c.Value, c.Total, w)
		}
		totals[c.Value] = c.Total
	}
	if len(got.Seen) != 15 || len(totals) != 2 || totals["2"] == totals["8"] {
		t.Fatalf("%d changes seen; throughputs by batch size %v: want 15 changes and one throughput per size, two apart", len(got.Seen), totals)
	}
	last := got.Seen[len(got.Seen)-1]
	if got.Final != last.Total || got.Field != last.Value {
		t.Errorf("after the last change's plan: throughput %q, field %q; the change showed %q for batch %s", got.Final, got.Field, last.Total, last.Value)
	}
	if !slices.Contains(strings.Split(strings.TrimPrefix(got.Hash, "#"), "&"), "b="+last.Value) {
		t.Errorf("the link %q does not say batch %s", got.Hash, last.Value)
	}
	t.Logf("input → updated tables: %s; medians of 15 changes", got.Report)
}

// batchChangesJS is TestE2EInputUpdate's page script: 15 changes of the
// batch size, 400 ms apart, each timed to its DOM write and its paint,
// with the main thread's long tasks meanwhile (TestE2EReplanProfile runs
// it under the CPU profiler).
const batchChangesJS = `(async () => {
		const e = document.getElementById("rs-batch"), total = () => document.getElementById("rs-throughput").textContent;
		const sleep = ms => new Promise(r => setTimeout(r, ms));
		const dom = [], painted = [], seen = [], long = [], writes = [];
		const lo = new PerformanceObserver(l => { for (const x of l.getEntries()) long.push({start: x.startTime, ms: x.duration}); });
		lo.observe({type: "longtask"});
		// What each long task wrote: a mutation observer's callback runs
		// at the end of the task that changed the DOM, so each record's
		// time falls inside it. "answer": the plan's answer replaced the
		// greyed tables (the pending class left main); "input": a change
		// greyed them (it came); "render": other writes.
		const main = document.querySelector("main");
		const mo = new MutationObserver(rs => {
			let kind = "render";
			for (const r of rs) {
				if (r.target !== main || r.attributeName !== "class") continue;
				const was = (r.oldValue || "").includes("rs-plan-pending"), is = main.classList.contains("rs-plan-pending");
				if (was && !is) kind = "answer"; else if (!was && is && kind !== "answer") kind = "input";
			}
			writes.push({t: performance.now(), n: rs.length, kind});
		});
		mo.observe(main, {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true});
		for (let i = 0; i < 15; i++) {
			const before = total(), value = String(2 + (i % 2) * 6);
			let written;
			const done = new Promise(r => written = r);
			const obs = new MutationObserver(() => { if (total() !== before) { obs.disconnect(); written(performance.now()); } });
			obs.observe(document.querySelector("main"), {subtree: true, childList: true, characterData: true});
			const t0 = performance.now();
			e.value = value; e.dispatchEvent(new Event("change", {bubbles: true}));
			const t1 = await Promise.race([done, sleep(20000).then(() => -1)]);
			if (t1 < 0) {
				obs.disconnect();
				seen.push({value, field: e.value, before, total: total(), updated: false});
				break;
			}
			dom.push(t1 - t0);
			await new Promise(r => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));
			painted.push(performance.now() - t0);
			seen.push({value, field: e.value, before, total: total(), updated: true});
			await sleep(400);
		}
		await sleep(3000); // the last change's plan
		lo.disconnect(); mo.disconnect();
		const median = a => a.length ? a.slice().sort((x, y) => x - y)[a.length >> 1].toFixed(1) : "-";
		const tasks = long.map(x => {
			const w = writes.filter(m => m.t >= x.start && m.t <= x.start + x.ms + 1);
			const kind = w.some(m => m.kind === "answer") ? "answer" : w.some(m => m.kind === "input") ? "input" : w.length ? "render" : "no DOM write";
			return Math.round(x.ms) + " ms " + kind + (w.length ? " (" + w.reduce((a, m) => a + m.n, 0) + " mutations)" : "");
		});
		return JSON.stringify({seen, final: total(), field: e.value, hash: location.hash,
			report: "DOM " + median(dom) + " ms, painted " + median(painted) + " ms; main-thread tasks over 50 ms while the changes were computed and planned: " +
				long.length + (long.length ? " (longest " + Math.round(Math.max(...long.map(x => x.ms))) + " ms: " + tasks.join(", ") + ")" : "")});
	})()`

// TestE2EStartupKeepsAnswer: on the default view the static page's
// recommendation stays on screen while the browser plans, so nothing at
// the top of the page disappears and the inputs never move; a link to
// another view gets the "Planning…" line instead.
func TestE2EStartupKeepsAnswer(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	s.do("watching the start-up", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`
			window.__su = {planning: false, noAnswer: false, tops: [], restTops: [], optionsAtLive: -1};
			const look = () => {
				if (__su.optionsAtLive < 0 && document.querySelector("main.rs-live")) {
					__su.optionsAtLive = document.querySelectorAll("#rs-model option").length;
					// A user opens the Assumptions box as soon as the page answers.
					const a = document.getElementById("rs-assumptions");
					if (a) a.open = true;
				}
				if (document.getElementById("rs-planning")) __su.planning = true;
				if (!document.querySelector("main .rs-answer")) __su.noAnswer = true;
				const i = document.querySelector("main .rs-inputs");
				if (i) __su.tops.push(Math.round(i.getBoundingClientRect().top + scrollY));
				const r = document.querySelector("main.rs-live .rs-rest");
				if (r) __su.restTops.push(Math.round(r.getBoundingClientRect().top + scrollY));
			};
			document.addEventListener("DOMContentLoaded", () => {
				look();
				new MutationObserver(look).observe(document.body, {subtree: true, childList: true});
			});`).Do(ctx)
		return err
	}))
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitPlan()
	var su struct {
		Planning, NoAnswer bool
		Tops, RestTops     []int
		OptionsAtLive      int
	}
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(`__su`, &su)); err != nil {
		t.Fatal(err)
	}
	if su.Planning || su.NoAnswer {
		t.Errorf("default view during start-up: planning line shown %v, answer missing %v", su.Planning, su.NoAnswer)
	}
	// A script (or a user) may set any drop-down as soon as the page is
	// live: every option is there from the first render.
	if su.OptionsAtLive < 90 {
		t.Errorf("the model list held %d options when the page went live", su.OptionsAtLive)
	}
	// The box opened on the first screen is still open, and filled, once
	// the page is complete.
	if v := s.eval(`(() => { const a = document.getElementById("rs-assumptions"); return String(a.open && !!a.querySelector("#rs-spot-interruptions")); })()`); v != "true" {
		t.Errorf("the Assumptions box opened at start-up is closed or empty on the complete page")
	}
	if len(su.Tops) < 2 || slices.Max(su.Tops)-slices.Min(su.Tops) > 4 {
		t.Errorf("the inputs moved during start-up: their top went through %v", su.Tops)
	}
	// Nor do the folded sections below the summary on the live page,
	// which a user may click as soon as they appear: the summary's static
	// copy stays until the first plan, so its cost lines never leave and
	// come back.
	if len(su.RestTops) < 2 || slices.Max(su.RestTops)-slices.Min(su.RestTops) > 4 {
		t.Errorf("the sections below the summary moved during start-up: their top went through %v", su.RestTops)
	}
	if s.count("#rs-answer-slot") != "0" || s.count("#rs-recommendation [data-roles~=cheapest]") != "1" ||
		s.count("#rs-recommendation [data-roles~=fastest]") != "1" || s.count("#rs-recommendation [data-roles~=value]") != "1" {
		t.Error("after planning: the slot is still there or one of the three picks is missing")
	}
	// The breakdown and the summary are live (go-app's) once the page is
	// complete: no slot, no static copy beside them.
	for _, sel := range []string{"#rs-result-slot", "#rs-perf-slot"} {
		if s.count(sel) != "0" {
			t.Errorf("%s is still on the complete page", sel)
		}
	}
	if s.count("#rs-total") != "1" || s.count("main .rs-result") != "1" || s.count("main .rs-perf") != "1" {
		t.Errorf("complete page: %s totals, %s breakdowns, %s summaries", s.count("#rs-total"), s.count("main .rs-result"), s.count("main .rs-perf"))
	}
	// The batch moves the speed summary's throughput (on vLLM, the job's
	// engine on auto, the memory total is the KV pool's share whatever the
	// batch).
	before := s.text("#rs-throughput")
	s.setField("rs-batch", "8")
	if v := s.waitTextChange("#rs-throughput", before); v == "" {
		t.Error("the live summary did not follow the batch")
	}
	// Another view: its own plan, never the default view's answer.
	s.do("opening another view", chromedp.Navigate(s.base+"#m=qwen2.5-7b&g=a100-80gb-sxm"), chromedp.Reload())
	s.waitLive()
	s.waitPlan()
	if v := s.count("main .rs-answer"); v != "1" {
		t.Errorf("another view shows %s answer sections", v)
	}
	if v := s.eval(`String(__su.planning)`); v != "true" {
		t.Errorf("another view: the planning line was not shown while planning (%s)", v)
	}
}

// TestE2EServingAtScale: DeepSeek-R1 in FP8 on SGLang at 100 requests/s.
// The serving section shows the fleet, its latency chart and the
// planner's word on disaggregated prefill and decode; screenshots at
// both widths in English and Russian.
func TestE2EServingAtScale(t *testing.T) {
	s := newSite(t, distDir(t, "RIGHTSIZE_DIST"), "/")
	for _, lang := range []string{"en", "ru"} {
		s.do("opening DeepSeek-R1 at 100 req/s", chromedp.Navigate(s.base+"#l="+lang+"&m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50"))
		s.waitLive()
		s.do("waiting for the serving plan", chromedp.WaitVisible("#rs-replicas", chromedp.ByQuery), chromedp.WaitVisible("#rs-disagg", chromedp.ByQuery))
		s.waitPlan()
		v := s.text("#rs-disagg")
		if lang == "en" && !strings.Contains(v, "pay") || lang == "ru" && !strings.Contains(v, "окупается") || !strings.Contains(v, "TP 8") {
			t.Errorf("%s: the disaggregated line reads %q", lang, v)
		}
		t.Logf("%s: %s replicas, %s a month; %s", lang, s.text("#rs-replicas"), s.text("#rs-monthly"), v)
		s.do("scrolling to the serving plan", chromedp.ScrollIntoView("#rs-fleet-plan", chromedp.ByQuery))
		s.screenshot("scale-"+lang+"-desktop.png", 1280)
		s.screenshot("scale-"+lang+"-360.png", 360)
	}
	// The Run it box, opened by the link, hands over SGLang's launch and,
	// under it, the disaggregated alternative's prefill, decode and router
	// scripts.
	s.do("opening the launch box", chromedp.Navigate(s.base+"#m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50&show=launch"))
	s.waitLive()
	s.do("waiting for the launch", chromedp.WaitVisible("#rs-launch-text", chromedp.ByQuery), chromedp.WaitVisible("#rs-launch-disagg", chromedp.ByQuery))
	if a, d := s.text("#rs-launch-text"), s.text("#rs-launch-disagg"); !strings.Contains(a, "sglang.launch_server") || !strings.Contains(d, "--disaggregation-mode prefill") || !strings.Contains(d, "sglang_router.launch_router") {
		t.Errorf("the launch box shows\n%s\nand\n%s", a, d)
	}
	s.do("scrolling to the disaggregated launch", chromedp.ScrollIntoView("#rs-launch-disagg", chromedp.ByQuery))
	s.screenshot("scale-launch-desktop.png", 1280)
}
