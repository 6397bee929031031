// Command web is Rightsize's browser entry point, compiled to app.wasm. It
// only registers routes and starts go-app: keep net/http, the site generator
// and goccy/go-json out of this binary (each adds megabytes).
package main

import (
	"runtime/debug"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app"
)

// gcPercent is the page's GOGC. The live heap is small (about 2 MiB after
// an answer: the catalog is static data), and an input allocates about as
// much again, so at Go's default of 100 (a 4 MiB minimum heap goal) a
// collection ran on nearly every input, and with the catalog's static data
// as roots each one costs milliseconds in WebAssembly: the Go runtime was
// about half of an input's Go time (make profile). At 400 the goal's floor
// is 16 MiB, a collection every several inputs, for at most that much
// more memory. Measured with make profile, three runs each interleaved
// (a loaded machine): the runtime's share of an input 8.9/7.9/10.8 ms at
// 100, 4.8/6.4/5.2 ms at 400.
const gcPercent = 400

func main() {
	app.Mark("rightsize:main") // Go runtime and package initialisation done
	debug.SetGCPercent(gcPercent)
	app.Routes()
	goapp.RunWhenOnBrowser()
}
