// Command web is Rightsize's browser entry point, compiled to app.wasm. It
// only registers routes and starts go-app: keep net/http, the site generator
// and goccy/go-json out of this binary (each adds megabytes).
package main

import (
	"runtime/debug"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app"
)

// The collector's pace in the browser. The page's live heap is small
// (about 2.6 MB with every section rendered, measured natively), so at
// Go's default GOGC=100 a collection starts after every 4 MB allocated
// (the runtime's minimum heap goal): every few inputs and during every
// plan, each one marking on WebAssembly's only thread, in the task the
// user waits on. The Go GC guide (go.dev/doc/gc-guide, "GOGC"): the
// collector's CPU cost falls in proportion as GOGC rises, and the heap
// grows to live×(1+GOGC/100); at 400 that is about 13 MB here, and the
// memory limit (same guide, "Memory limit") keeps a large price sheet's
// heap from growing fivefold past it.
const (
	gcPercent   = 400
	memoryLimit = 256 << 20 // bytes
)

func main() {
	app.Mark("rightsize:main") // Go runtime and package initialisation done
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	app.Routes()
	goapp.RunWhenOnBrowser()
}
