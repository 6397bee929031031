// Package app is Rightsize's user interface: go-app components that turn
// text fields into typed estimator inputs and typed results into text. It
// holds no formula: every number comes from package estimator or catalog.
package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the pages. The whole calculator is one route; its state
// lives in the URL fragment, which the service worker's precache of "/"
// serves offline (a query string would miss the cache).
func Routes() {
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
