// Command web is Rightsize's browser entry point, compiled to app.wasm. It
// only registers routes and starts go-app: keep net/http, the site generator
// and goccy/go-json out of this binary (each adds megabytes).
package main

import (
	"runtime/debug"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app"
)

// gcPercent is the page's GOGC. In WebAssembly a collection's marking
// and sweeping run on the browser's only thread, at the planner's next
// yield (the runtime marks while no goroutine runs, before it returns to
// the browser), so each one lengthens a task. The page's live heap is
// 4–8 MB and fifteen batch-size changes with their plans allocate about
// 80 MB (TestE2EInputUpdate, 2026-11-30; runtime.ReadMemStats in the
// page): at GOGC 100 that set off 14–17 collections, at 400 three or
// four. In six interleaved pairs of runs on a loaded machine, 400 had the
// fewer tasks over 50 ms in each (7/11, 13/19, 15/19, 6/13, 15/21,
// 3/25), though its longest was longer (250–675 ms against 142–464 ms):
// a collection sweeps a larger heap. The runtime's memory grows to about
// 38 MB instead of 22 MB.
const gcPercent = 400

func main() {
	debug.SetGCPercent(gcPercent)
	app.Mark("rightsize:main") // Go runtime and package initialisation done
	app.Routes()
	goapp.RunWhenOnBrowser()
}
