//go:build !(js && wasm)

package page

import "time"

// turn gives the thread back for a moment (turn_js.go waits for the
// browser's event loop instead).
var turn = func() { time.Sleep(time.Millisecond) }
