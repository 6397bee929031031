//go:build js && wasm

package app

import (
	"strings"
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
	for range 3 {
		watchHeight()
	}
	if n := w.Get("__roCount").Int(); n != 1 {
		t.Errorf("%d ResizeObservers after three navigations", n)
	}
}

// TestFullStorageReported: a sheet the browser's storage cannot keep (its
// quota is a few MiB) is applied, and the page says it will not be kept.
func TestFullStorageReported(t *testing.T) {
	ctx := contextOf(t)
	big := savedFile{"big.csv", strings.Repeat("x", 12<<20)}
	if keep(ctx, "rightsize.test/full", big) {
		ctx.LocalStorage().Del("rightsize.test/full")
		t.Skip("this browser's storage took 12 MiB")
	}
	c, _ := load(t)
	c.sheet.load.sheetUnsaved = !keep(ctx, "rightsize.test/full", big)
	if !strings.Contains(app.HTMLString(sheetUIOf(c)), `id="rs-prices-unsaved"`) {
		t.Error("a sheet the storage refused is not reported")
	}
}
