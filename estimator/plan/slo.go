package plan

import (
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// SLOStat is the statistic of the request latencies that a serving plan's
// TTFT and TPOT targets (Workload.TTFTP95Seconds, Workload.TPOTSeconds)
// bound: the mean, the median or a tail percentile over the requests.
// Users state SLOs in all of them: vLLM's benchmark client
// (benchmarks/benchmark_serving.py) prints the mean, median and p99 of
// TTFT, TPOT and ITL by default and other percentiles on request
// (--percentile-metrics ttft,tpot,itl --metric-percentiles 90,95,99);
// SGLang's bench_serving prints mean, median and p99 alike; SLO documents
// usually name a p99. The zero value is p95, the statistic plans were
// sized on before it could be chosen.
type SLOStat uint8

const (
	SLOP95 SLOStat = iota
	SLOMean
	SLOP50
	SLOP90
	SLOP99
)

var sloStatNames = [...]string{SLOP95: "p95", SLOMean: "mean", SLOP50: "p50", SLOP90: "p90", SLOP99: "p99"}

// SLOStats lists the statistics in the order a picker shows them.
var SLOStats = []SLOStat{SLOMean, SLOP50, SLOP90, SLOP95, SLOP99}

func (s SLOStat) String() string {
	if int(s) < len(sloStatNames) {
		return sloStatNames[s]
	}
	return "SLOStat(?)"
}

// Valid reports whether s is one of SLOStats.
func (s SLOStat) Valid() bool { return int(s) < len(sloStatNames) }

// ParseSLOStat parses "mean", "p50", "p90", "p95" or "p99" (case and
// surrounding space ignored; "median" is p50, "" the default p95).
func ParseSLOStat(s string) (SLOStat, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "":
		return SLOP95, nil
	case "median":
		return SLOP50, nil
	}
	for i, n := range sloStatNames {
		if n == t {
			return SLOStat(i), nil
		}
	}
	return 0, &estimator.InputError{Field: "slo-stat", Value: s, Err: estimator.ErrUnknown,
		Reason: "want mean, p50, p90, p95 or p99"}
}

// quantile is the statistic's quantile (0.5 for p50), or 0 for the mean.
func (s SLOStat) quantile() float64 {
	switch s {
	case SLOP50:
		return 0.5
	case SLOP90:
		return 0.9
	case SLOP99:
		return 0.99
	case SLOMean:
		return 0
	}
	return 0.95
}

// Of is the statistic of a simulated run's latencies (sim.Dist: the mean
// and the p50/p90/p95/p99 over the run's requests). A p99 over the
// planner's simRequests requests is its second-largest value: the run
// sees the tail, but coarsely.
func (s SLOStat) Of(d sim.Dist) float64 {
	switch s {
	case SLOMean:
		return d.Mean
	case SLOP50:
		return d.P50
	case SLOP90:
		return d.P90
	case SLOP99:
		return d.P99
	}
	return d.P95
}

// meetsSLO reports whether a simulated run meets the workload's targets at
// its statistic (0: no target on that metric).
func meetsSLO(w Workload, res sim.Result) bool {
	return (w.TTFTP95Seconds == 0 || w.SLOStat.Of(res.TTFT) <= w.TTFTP95Seconds) &&
		(w.TPOTSeconds == 0 || w.SLOStat.Of(res.TPOT) <= w.TPOTSeconds)
}
