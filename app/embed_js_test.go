//go:build js && wasm

package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestEmbedOneResizeObserver: embed mode watches the page's height with one
// ResizeObserver however often the user navigates.
func TestEmbedOneResizeObserver(t *testing.T) {
	w := app.Window()
	w.Call("eval", `window.__roCount = 0; window.__ro = window.ResizeObserver;
		window.ResizeObserver = class extends window.__ro { constructor(cb) { super(cb); window.__roCount++; } };`)
	defer w.Call("eval", `window.ResizeObserver = window.__ro;`)
	c := &Calculator{}
	for range 3 {
		c.watchHeight(app.Context{})
	}
	if n := w.Get("__roCount").Int(); n != 1 {
		t.Errorf("%d ResizeObservers after three navigations", n)
	}
}
