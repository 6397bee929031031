package sim

import (
	"strings"

	"rightsize/estimator"
)

// Stat is the statistic over a run's requests that an SLO's TTFT and TPOT
// bound (SLO.Stat): the mean, the median or a tail percentile, each a
// field of Dist. Users state SLOs in all of them: vLLM's benchmark client
// (benchmarks/benchmark_serving.py) prints the mean, median and p99 of
// TTFT, TPOT and ITL by default and other percentiles on request
// (--percentile-metrics ttft,tpot,itl --metric-percentiles 90,95,99);
// SGLang's bench_serving prints mean, median and p99 alike; SLO documents
// usually name a p99. The zero value is p95, the statistic sizing read
// before it could be chosen.
type Stat uint8

const (
	StatP95 Stat = iota
	StatMean
	StatP50
	StatP90
	StatP99
)

var statNames = [...]string{StatP95: "p95", StatMean: "mean", StatP50: "p50", StatP90: "p90", StatP99: "p99"}

// Stats lists the statistics in the order a picker shows them.
var Stats = []Stat{StatMean, StatP50, StatP90, StatP95, StatP99}

func (s Stat) String() string {
	if int(s) < len(statNames) {
		return statNames[s]
	}
	return "Stat(" + itoa(int(s)) + ")"
}

// MarshalText writes s's String, so JSON carries the name.
func (s Stat) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Valid reports whether s is one of Stats.
func (s Stat) Valid() bool { return int(s) < len(statNames) }

// ParseStat parses "mean", "p50", "p90", "p95" or "p99" (case and
// surrounding space ignored; "median" is p50, "" the default p95). Its
// error is an *estimator.InputError for the field slo-stat.
func ParseStat(s string) (Stat, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "":
		return StatP95, nil
	case "median":
		return StatP50, nil
	}
	for i, n := range statNames {
		if n == t {
			return Stat(i), nil
		}
	}
	return 0, StatError(s)
}

// StatError is the error for a statistic that is not one of Stats, the
// value as the user wrote it: ParseStat's, and a Request's whose Stat is
// out of range.
func StatError(value string) error {
	return &estimator.InputError{Field: "slo-stat", Value: value, Err: estimator.ErrUnknown,
		Reason: "want mean, p50, p90, p95 or p99"}
}

// Quantile is the statistic's quantile (0.5 for p50), or 0 for the mean.
func (s Stat) Quantile() float64 {
	switch s {
	case StatMean:
		return 0
	case StatP50:
		return 0.5
	case StatP90:
		return 0.9
	case StatP99:
		return 0.99
	}
	return 0.95
}

// Of is the statistic of d. A p99 over a run of a few hundred requests is
// among its few largest values: the run sees the tail, but coarsely.
func (s Stat) Of(d Dist) float64 {
	switch s {
	case StatMean:
		return d.Mean
	case StatP50:
		return d.P50
	case StatP90:
		return d.P90
	case StatP99:
		return d.P99
	}
	return d.P95
}

// Meets reports whether r meets slo's TTFT and TPOT bounds at its
// statistic (a zero bound: none).
func (slo SLO) Meets(r Result) bool {
	return (slo.TTFTSeconds == 0 || slo.Stat.Of(r.TTFT) <= slo.TTFTSeconds) &&
		(slo.TPOTSeconds == 0 || slo.Stat.Of(r.TPOT) <= slo.TPOTSeconds)
}
