package plan

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxWorkers bounds the simulations a plan runs at once.
const maxWorkers = 8

// parallel runs do(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines (at most maxWorkers) and returns when all have run. With one
// thread (WebAssembly) it runs them in order on the caller's goroutine, so
// a yield inside do (Options.Yield) hands the browser's thread back rather
// than switching to another worker. do must not write what another i
// reads.
func parallel(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n, maxWorkers)
	if workers <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				do(i)
			}
		}()
	}
	wg.Wait()
}
