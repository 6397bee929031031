//go:build !js

package main

// End-to-end checks that the built site survives what users do to it:
// hostile links, a deploy while a visitor has the previous build cached.

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// watchExceptions records uncaught exceptions and console errors: a Go
// panic in the WebAssembly ends in one ("Go program has already exited"
// on the next event, or go-app's own panic report).
func (s *site) watchExceptions() func() []string {
	var mu sync.Mutex
	var seen []string
	chromedp.ListenTarget(s.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			seen = append(seen, e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type != runtime.APITypeError {
				return
			}
			var b strings.Builder
			for _, a := range e.Args {
				b.Write(a.Value)
				b.WriteString(a.Description)
			}
			if t := b.String(); strings.Contains(t, "panic") || strings.Contains(t, "exited") {
				seen = append(seen, t)
			}
		}
	})
	s.do("watching exceptions", runtime.Enable())
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// answers checks that the page still computes: a new batch size changes
// the memory total or the speed summary's throughput (the default job
// runs on vLLM, whose total is its KV pool's share of the GPU whatever
// the batch; a job with a bad efficiency field shows no speed).
func (s *site) answers(what string) {
	s.t.Helper()
	// After the first steps below the first screen: the first replaces the
	// static copy of the summary that holds #rs-total and #rs-throughput
	// (figures read before it may change without any input). Read by
	// script, not by node, all the same: a node looked up as it is
	// replaced is gone when its text is read.
	s.waitLive()
	total := func() string {
		return s.eval(`["rs-total", "rs-throughput"].map(id => { const e = document.getElementById(id); return e ? e.textContent : ""; }).join(" | ")`)
	}
	old := total()
	next := "4"
	if strings.Contains(s.eval(`document.getElementById("rs-batch").value`), "4") {
		next = "2"
	}
	s.setField("rs-batch", next)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if v := total(); v != old && v != "" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Errorf("%s: the page no longer answers input (total | throughput still %q)", what, old)
}

// TestE2EHostileLinks opens links with a "%" that starts no escape (they
// killed the WebAssembly page: go-app's url.Parse failed and Navigate
// panicked on the nil URL), and types one into the address while the page
// runs: the page stays live, reads what it can and says what it ignored.
func TestE2EHostileLinks(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	exceptions := s.watchExceptions()
	for _, tc := range []struct{ frag, ignored string }{
		{"t=finetune&mfu=40%", "mfu=40%"},
		{"%", "%"},
		{"m=%E0%A4%A", "m="},
	} {
		// A new document each time (from a blank page, not a fragment change
		// and a reload): the previous page's pending write of its own link
		// cannot replace the one opened.
		s.do("opening #"+tc.frag, chromedp.Navigate("about:blank"), chromedp.Navigate(s.base+"#"+tc.frag))
		s.waitInteractive()
		s.do("waiting for the note on #"+tc.frag, chromedp.WaitVisible("#rs-link-ignored", chromedp.ByQuery))
		if v := s.text("#rs-link-ignored"); !strings.Contains(v, tc.ignored) {
			t.Errorf("#%s: the note reads %q, want it to name %q", tc.frag, v, tc.ignored)
		}
		if tc.frag[0] == 't' {
			if v := s.eval(`document.getElementById("rs-task").value`); v != "finetune" {
				t.Errorf("#%s: task %q: the readable part of the link was lost", tc.frag, v)
			}
		}
		s.answers("#" + tc.frag)
	}

	// A "%" typed into the address of the running page.
	s.do("opening the plain page", chromedp.Navigate(s.base), chromedp.Reload())
	s.waitLive()
	s.eval(`(() => { location.hash = "b=3&mfu=50%"; return location.hash; })()`)
	s.do("waiting for the note after a typed %", chromedp.WaitVisible("#rs-link-ignored", chromedp.ByQuery))
	if v := s.eval(`document.getElementById("rs-batch").value`); v != "3" {
		t.Errorf("after a typed link: batch %q, want 3", v)
	}
	s.answers("after a typed %")
	s.eval(`(() => { location.hash = "%"; return location.hash; })()`)
	time.Sleep(300 * time.Millisecond)
	s.answers("after a typed #%")
	if e := exceptions(); len(e) > 0 {
		t.Errorf("exceptions in the page: %q", e)
	}
	s.screenshot("hostile-link.png", 1280)
}

// bareWriter drops Cache-Control from a response and sends lastModified:
// with a date and no Cache-Control a browser holds the response as fresh
// for a tenth of its age (RFC 9111 §4.2.2).
type bareWriter struct {
	http.ResponseWriter
	lastModified string
}

func (w bareWriter) WriteHeader(code int) {
	w.Header().Del("Cache-Control")
	w.Header().Set("Last-Modified", w.lastModified)
	w.ResponseWriter.WriteHeader(code)
}

func (w bareWriter) Write(b []byte) (int, error) {
	w.Header().Del("Cache-Control")
	w.Header().Set("Last-Modified", w.lastModified)
	return w.ResponseWriter.Write(b)
}

// TestE2EDeployServesNewBytes: build A is served by a host that sends no
// Cache-Control and files a month old (so the browser's HTTP cache holds
// them as fresh for days: RFC 9111 heuristic freshness), a visitor caches
// it, build B (A's app.wasm, a changed stylesheet) is published, and after
// the update the page runs on B's bytes. go-app's worker filled the new
// cache through the HTTP cache and kept A's stylesheet under B's version.
func TestE2EDeployServesNewBytes(t *testing.T) {
	distA := distDir(t, "RIGHTSIZE_DIST")
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a")
	month := time.Now().Add(-30 * 24 * time.Hour)
	copyDated(t, distA, a, month)
	// B: the same app.wasm, the stylesheet of a new release.
	web := filepath.Join(tmp, "web")
	if err := os.CopyFS(web, os.DirFS("../../web")); err != nil {
		t.Fatal(err)
	}
	css := filepath.Join(web, "rightsize.css")
	old, err := os.ReadFile(css)
	if err != nil {
		t.Fatal(err)
	}
	const marker = "/* release B */"
	if err := os.WriteFile(css, append(old, "\n"+marker+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(tmp, "b")
	cmd := exec.Command("go", "run", "../build", "-wasm", filepath.Join(distA, "web", "app.wasm"), "-web", web,
		"-out", b, "-prefix", "/", "-accuracy", "../../docs/accuracy.md")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building B: %v\n%s", err, out)
	}

	s := newSite(t, a, "/")
	s.bareHost.Store(&month)
	s.do("loading build A", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitCached()
	s.publish(b)
	s.do("reloading into build B", chromedp.Click("#rs-update button", chromedp.ByQuery))
	s.waitLive()
	got := s.eval(`(async () => {
		const cached = await caches.match("web/rightsize.css");
		const served = await fetch("web/rightsize.css");
		const has = (t) => String(t.includes(` + jsString(marker) + `));
		return "cached " + (cached ? has(await cached.text()) : "none") + ", served " + has(await served.text());
	})()`)
	if got != "cached true, served true" {
		t.Errorf("after the update the page does not run on build B's stylesheet (B's bytes: %s)", got)
	}
}

// TestE2ELargePriceSheet loads a 4 MiB price sheet of 100,000 new offers
// (it froze the tab for over ten minutes): the page shows its progress,
// never holds the main thread for more than a second, and finishes.
func TestE2ELargePriceSheet(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	var b strings.Builder
	b.WriteString("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "aws,x%06d,t4,1,%d.25,USD,2026-11-01,q\n", i, 1+i%9)
	}
	sheet := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(sheet, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSite(t, dir, "/")
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()
	s.openSection("prices")
	// The longest the main thread went without running a 10 ms timer.
	s.eval(`(() => { window.__gap = 0; window.__progress = false; let last = performance.now();
		const tick = () => { const now = performance.now(); __gap = Math.max(__gap, now - last); last = now;
			if (document.getElementById("rs-prices-progress")) __progress = true; setTimeout(tick, 10); };
		setTimeout(tick, 10);
		window.__long = []; window.__t0 = 0;
		new PerformanceObserver(l => { for (const e of l.getEntries()) __long.push([e.entryType === "mark" ? e.name : "long", Math.round(e.startTime - __t0), Math.round(e.duration)]); })
			.observe({entryTypes: ["longtask", "mark"]});
		document.getElementById("rs-prices-file").addEventListener("change", () => { __t0 = performance.now(); });
		return "ok"; })()`)
	start := time.Now()
	s.do("picking the sheet", chromedp.SetUploadFiles("#rs-prices-file", []string{sheet}, chromedp.ByQuery))
	s.do("waiting for the sheet", chromedp.WaitVisible("#rs-prices-status", chromedp.ByQuery))
	took := time.Since(start)
	if v := s.text("#rs-prices-status"); !strings.Contains(v, "100,000") {
		t.Errorf("status %q", v)
	}
	s.waitPlan() // the planner's answer over the 101,000 offers, too
	gap := s.eval(`String(Math.round(__gap))`)
	t.Logf("100,000-row sheet applied in %v; longest main-thread block %s ms; progress shown %s", took.Round(time.Millisecond), gap, s.eval(`String(__progress)`))
	t.Logf("long tasks and marks (ms since the pick): %s", s.eval(`JSON.stringify(__long)`))
	// The merge yields every 40 ms; what remains are Go's garbage
	// collections, which in WebAssembly hold the main thread while they
	// mark the heap (the file's text, then 101,000 offers): 0.6 to 1.4 s
	// each on a loaded 2-core machine. The bound is 2 s; the goal 1 s.
	if g, _ := strconv.Atoi(gap); g > 2000 {
		t.Errorf("the page held the main thread for %d ms", g)
	}
	if s.eval(`String(__progress)`) != "true" {
		t.Error("no progress was shown while the sheet was applied")
	}
	s.answers("after the sheet")

	// The sheet is kept for the next visit: a reload applies it again
	// without holding the main thread either (it froze the tab 10-12 s).
	// The timer runs from the new document's first script.
	s.do("timing the reload", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__gap = 0; window.__long = [];
			(() => { let last = performance.now();
				const tick = () => { const now = performance.now(); if (document.querySelector("main.rs-live")) __gap = Math.max(__gap, now - last); last = now; setTimeout(tick, 10); };
				setTimeout(tick, 10);
				new PerformanceObserver(l => { for (const e of l.getEntries()) __long.push([e.entryType === "mark" ? e.name : "long", Math.round(e.startTime), Math.round(e.duration)]); })
					.observe({entryTypes: ["longtask", "mark"]}); })();`).Do(ctx)
		return err
	}))
	start = time.Now()
	s.do("reloading with the saved sheet", chromedp.Reload())
	s.waitLive()
	s.do("waiting for the saved sheet", chromedp.WaitVisible("#rs-prices-status", chromedp.ByQuery))
	s.waitPlan()
	took = time.Since(start)
	if v := s.text("#rs-prices-status"); !strings.Contains(v, "100,000") {
		t.Errorf("after the reload, status %q", v)
	}
	gap = s.eval(`String(Math.round(__gap))`)
	t.Logf("reload with the saved 100,000-row sheet: answered in %v; longest main-thread block once live %s ms", took.Round(time.Millisecond), gap)
	t.Logf("reload long tasks and marks (ms since navigation): %s", s.eval(`JSON.stringify(__long)`))
	if g, _ := strconv.Atoi(gap); g > 2000 {
		t.Errorf("after the reload the live page held the main thread for %d ms", g)
	}
}

// workerVersion reads the cache name's version from a build's service
// worker (go-app: const cacheName = "app-" + "<version>").
func workerVersion(t testing.TB, dir string) string {
	t.Helper()
	js, err := os.ReadFile(filepath.Join(dir, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(js), `const cacheName = "app-" + "`)
	v, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 || v == "" {
		t.Fatalf("%s/app-worker.js: no cache name", dir)
	}
	return v
}

// copyDated copies a built site to dst and dates every file at when.
func copyDated(t testing.TB, src, dst string, when time.Time) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, when, when)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestE2EDeployOlderDatedBuild: a deploy whose files are dated before the
// visitor's copy (a rollback to a kept artifact, a copy that keeps dates:
// cp -p, rsync -t, a tarball) replaces the served folder while the server
// runs. The visitor must reach the new build through go-app's update flow
// (a visit finds the new worker, the banner's Reload runs it) and keep it
// offline. With dates as the only validator the server answered 304 to
// the browser's check of app-worker.js, and the visitor stayed on the
// previous build, offline too.
func TestE2EDeployOlderDatedBuild(t *testing.T) {
	distA := distDir(t, "RIGHTSIZE_DIST")
	distB := distDir(t, "RIGHTSIZE_DIST_NEXT")
	verA, verB := workerVersion(t, distA), workerVersion(t, distB)
	if verA == verB {
		t.Fatalf("builds A and B share the cache name %q", verA)
	}
	tmp := t.TempDir()
	live, next := filepath.Join(tmp, "live"), filepath.Join(tmp, "next")
	dateA := time.Now().Add(-time.Hour).Truncate(time.Second)
	copyDated(t, distA, live, dateA)
	copyDated(t, distB, next, dateA.Add(-30*24*time.Hour))

	s := newSite(t, live, "/")
	running := func() string {
		return s.eval(`(async () => goappGetenv("GOAPP_VERSION") + " " + (await caches.keys()).join(","))()`)
	}
	s.do("loading build A", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitCached()
	if got, want := running(), verA+" app-"+verA; got != want {
		t.Fatalf("build A: the page runs %q, want %q", got, want)
	}

	// The deploy: B's folder takes the served folder's place.
	if err := os.Rename(live, filepath.Join(tmp, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, live); err != nil {
		t.Fatal(err)
	}
	s.do("revisiting after build B is deployed", chromedp.Reload())
	s.waitLive()
	ctx, cancel := context.WithTimeout(s.ctx, 60*time.Second)
	err := chromedp.Run(ctx, chromedp.WaitVisible("#rs-update", chromedp.ByQuery))
	cancel()
	if err != nil {
		t.Fatalf("no update banner a minute after the visit (%v): the visitor stays on %q", err, running())
	}
	s.do("reloading into build B", chromedp.Click("#rs-update button", chromedp.ByQuery))
	s.waitLive()
	if got, want := running(), verB+" app-"+verB; got != want {
		t.Errorf("after the reload the page runs %q, want build B %q", got, want)
	}
	if v := s.eval(`fetch("web/next.txt").then(r => r.ok ? "B" : "A")`); v != "B" {
		t.Errorf("after the reload the served site is build %s", v)
	}

	// Offline the worker's cache answers, with B.
	s.srv.CloseClientConnections()
	s.do("going offline", chromedp.ActionFunc(func(ctx context.Context) error {
		return cdp.Execute(ctx, "Network.emulateNetworkConditions",
			networkConditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}, nil)
	}))
	s.offline.Store(true)
	s.do("reloading offline", chromedp.Navigate(s.base), chromedp.Reload())
	s.waitLive()
	if got, want := running(), verB+" app-"+verB; got != want {
		t.Errorf("offline the page runs %q, want build B %q", got, want)
	}
	s.answers("offline on build B")
	if n := s.offlineHits.Load(); n != 0 {
		t.Errorf("the page sent %d requests to the server while offline", n)
	}
}
