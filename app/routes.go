// Package app is Rightsize's user interface: go-app components that turn
// text fields into typed estimator inputs and typed results into text. It
// holds no formula: every number comes from package estimator or catalog.
package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// Routes registers the pages. The whole calculator is one route; its state
// lives in the URL fragment, which the service worker's precache of "/"
// serves offline (a query string would miss the cache).
func Routes() {
	guardLink()
	takeStaticPage() // before go-app replaces the prerendered DOM with its own
	app.Route("/", func() app.Composer { return &Calculator{} })
}

// Mark records a User Timing mark (performance.mark) in the browser, so
// start-up can be split into download, compile, Go init, the first
// estimate and the first render (make bench prints them); natively it
// does nothing.
func Mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", name)
	}
}

// A link is text a user can type, so it may hold a "%" that starts no
// escape ("#mfu=40%", "#%", "#m=%E0%A4%A"). go-app reads the address with
// url.Parse and drops its error: the nil URL then panics in Navigate and
// the WebAssembly page dies. page.CleanHref rewrites such an address before
// go-app reads it, at start-up and on every history change: the loader
// (app.js) does it first (cmd/build prepends linkGuardJS), guardLink is
// the same rule in Go (page.CleanHref) for a loader that lacks it. What the
// page then cannot read from the fragment is named to the user
// (page.IgnoredInLink).

// guardLink cleans the page's address now, and again on each popstate
// before go-app's own handler reads it: a listener added here runs before
// the window.onpopstate go-app sets when it starts (listeners run in the
// order they were added).
func guardLink() {
	if !app.IsClient {
		return
	}
	fix := func() {
		w := app.Window()
		href := w.Get("location").Get("href").String()
		if clean, changed := page.CleanHref(href); changed {
			w.Get("history").Call("replaceState", w.Get("history").Get("state"), "", clean)
		}
	}
	fix()
	app.Window().Call("addEventListener", "popstate", app.FuncOf(func(app.Value, []app.Value) any {
		fix()
		return nil
	}))
}
