//go:build !unix

package plan_test

import "time"

// cpuTime is unknown here: BenchmarkPlan reports no CPU time.
func cpuTime() time.Duration { return 0 }
