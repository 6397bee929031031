// Package app is Rightsize's user interface: go-app components that turn
// text fields into typed estimator inputs and typed results into text. It
// holds no formula: every number comes from package estimator or catalog.
package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the pages. The whole calculator is one route; its state
// lives in the URL fragment, which the service worker's precache of "/"
// serves offline (a query string would miss the cache).
func Routes() {
	if app.IsClient {
		// Taken before go-app replaces the prerendered DOM with its own.
		if v := app.Window().Get("document").Call("querySelector", "main section.rs-answer"); v.Truthy() {
			prerenderedAnswer = v
		}
	}
	app.Route("/", func() app.Composer { return &Calculator{} })
}

// prerenderedAnswer is the static page's recommendation (the default
// view's plan, computed when the site was built). While the browser's
// first plan is pending, a visitor on the default view keeps seeing it
// instead of a "Planning…" line: the answer is the top of the page, and
// swapping it out and back moved every input by its height twice during
// start-up.
var prerenderedAnswer app.Value

// Mark records a User Timing mark (performance.mark) in the browser, so
// start-up can be split into download, compile, Go init, the first
// estimate and the first render (make bench prints them); natively it
// does nothing.
func Mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", name)
	}
}
