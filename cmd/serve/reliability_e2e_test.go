//go:build !js

package main

// End-to-end checks that the built site survives what users do to it:
// hostile links, a deploy while a visitor has the previous build cached.

import (
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
// the total.
func (s *site) answers(what string) {
	s.t.Helper()
	old := s.text("#rs-total")
	next := "4"
	if strings.Contains(s.eval(`document.getElementById("rs-batch").value`), "4") {
		next = "2"
	}
	s.setField("rs-batch", next)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if v := s.text("#rs-total"); v != old {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Errorf("%s: the page no longer answers input (total still %q)", what, old)
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
		s.do("opening #"+tc.frag, chromedp.Navigate(s.base+"#"+tc.frag), chromedp.Reload())
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

// bareWriter drops Cache-Control from a response.
type bareWriter struct{ http.ResponseWriter }

func (w bareWriter) WriteHeader(code int) {
	w.Header().Del("Cache-Control")
	w.ResponseWriter.WriteHeader(code)
}

func (w bareWriter) Write(b []byte) (int, error) {
	w.Header().Del("Cache-Control")
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
	if err := os.CopyFS(a, os.DirFS(distA)); err != nil {
		t.Fatal(err)
	}
	month := time.Now().Add(-30 * 24 * time.Hour)
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, month, month)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
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
	s.bareHost.Store(true)
	s.do("loading build A", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitCached()
	h, err := newSiteHandler(b, "/")
	if err != nil {
		t.Fatal(err)
	}
	s.handler.Store(h)
	s.do("revisiting after build B is published", chromedp.Reload())
	s.waitLive()
	s.do("waiting for the update banner", chromedp.WaitVisible("#rs-update", chromedp.ByQuery))
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
