//go:build js && wasm

package page

import (
	"syscall/js"
	"time"
)

// turn waits for a turn of the browser's event loop: a message posted to
// a MessageChannel of the page's own runs as a task after what the
// browser has queued (input, rendering), and the goroutine resumes only
// from that task. A time.Sleep does not promise the turn: while a
// collection is marking, the runtime runs its mark worker in the sleep
// and then, the sleeper's timer having passed, wakes it in the same task,
// so a collection and two of the planner's slices around it ran as one
// task (TestE2EReplanProfile: 137–275 ms stretches of planner and GC,
// 2026-11-30). A message is not clamped to 4 ms as nested timers are.
var turn = newTurn()

func newTurn() func() {
	mc := js.Global().Get("MessageChannel")
	if !mc.Truthy() {
		return func() { time.Sleep(time.Millisecond) }
	}
	ch := mc.New()
	// Room for every goroutine that may wait at once (a replaced plan
	// and its successor); the callback never blocks the browser.
	woke := make(chan struct{}, 16)
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case woke <- struct{}{}:
		default:
		}
		return nil
	}))
	port := ch.Get("port2")
	return func() {
		port.Call("postMessage", 0)
		<-woke
	}
}
