package plan

import "rightsize/estimator/sim"

// SLOStat is the statistic of the request latencies that a serving plan's
// TTFT and TPOT targets (Workload.TTFTP95Seconds, Workload.TPOTSeconds)
// bound: the mean, the median or a tail percentile over the requests
// (sim.Stat, which cites the benchmark clients' statistics). The zero
// value is p95, the statistic plans were sized on before it could be
// chosen.
type SLOStat = sim.Stat

const (
	SLOP95  = sim.StatP95
	SLOMean = sim.StatMean
	SLOP50  = sim.StatP50
	SLOP90  = sim.StatP90
	SLOP99  = sim.StatP99
)

// SLOStats lists the statistics in the order a picker shows them.
var SLOStats = sim.Stats

// ParseSLOStat parses "mean", "p50", "p90", "p95" or "p99" ("median" is
// p50, "" the default p95): sim.ParseStat.
func ParseSLOStat(s string) (SLOStat, error) { return sim.ParseStat(s) }

// meetsSLO reports whether a simulated run meets the workload's targets at
// its statistic (0: no target on that metric).
func meetsSLO(w Workload, res sim.Result) bool {
	return sim.SLO{TTFTSeconds: w.TTFTP95Seconds, TPOTSeconds: w.TPOTSeconds, Stat: w.SLOStat}.Meets(res)
}
