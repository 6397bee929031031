//go:build !js

package main

// End-to-end checks that the built site survives what users do to it:
// hostile links, a deploy while a visitor has the previous build cached.

import (
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
