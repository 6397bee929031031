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

// sloMiss reads a row's refusal for a latency target (slo.ttft_prefill,
// slo.tpot_*): the target it misses ("ttft" or "tpot") and the figure of
// the idle run that misses it, one prompt's TTFT or one sequence's decode
// step alone; ok is false for any other reason.
func sloMiss(r Reason) (target string, seconds float64, ok bool) {
	if len(r.Args) == 0 {
		return "", 0, false
	}
	s, isNum := r.Args[0].(float64)
	switch {
	case !isNum:
		return "", 0, false
	case r.Key == "slo.ttft_prefill":
		return "ttft", s, true
	case r.Key == "slo.tpot_bandwidth", r.Key == "slo.tpot_compute", r.Key == "slo.tpot_host", r.Key == "slo.tpot_communication":
		return "tpot", s, true
	}
	return "", 0, false
}

// closerMiss reports whether refusal a comes closer to fitting than b,
// the reason an offer's row keeps when none of its copy shapes fits: a
// latency target missed by a smaller idle figure (TP 8's prefill, not
// TP 1's), or missed at all where b's shape held no request (slo.kv_pool)
// or none was kept yet. An offer that misses the TTFT target by 0.3 s at
// TP 8 said "290 s for one prompt" from its first shape, and an empty
// plan's answer (LatencyFloor) read the floor from those figures.
func closerMiss(a, b Reason) bool {
	ta, sa, ok := sloMiss(a)
	if !ok {
		return b.Key == ""
	}
	tb, sb, okb := sloMiss(b)
	switch {
	case b.Key == "", b.Key == "slo.kv_pool":
		return true
	case !okb:
		return false
	}
	return ta == tb && sa < sb
}

// LatencyFloor is the answer to a serving plan on which nothing fits
// because the latency targets are out of reach: rows are the plan's rows
// kept unfit (Options.KeepUnfit), and for each target some row misses,
// the shortest idle figure any offer reaches and the offer, against the
// target ("none.latency" with one "none.ttft_floor" or "none.tpot_floor"
// clause each). A TTFT target under one prompt's prefill on the fastest
// offer (Llama 3.1 70B with 120k-token prompts at a 2 s TTFT) is refused
// by every offer for that reason or for memory; without this sentence the
// plan said nothing, and the page sent the user to the GPU count and the
// precision. ok is false where a row fits or no row misses a target.
func LatencyFloor(w Workload, rows []Row) (Reason, bool) {
	var best [2]*Row
	var fig [2]float64
	for i := range rows {
		r := &rows[i]
		if r.Fits {
			return Reason{}, false
		}
		t, s, ok := sloMiss(r.FitReason)
		if !ok {
			continue
		}
		k := 0
		if t == "tpot" {
			k = 1
		}
		if best[k] == nil || s < fig[k] {
			best[k], fig[k] = r, s
		}
	}
	var clauses []any
	if r := best[0]; r != nil && w.TTFTP95Seconds > 0 {
		clauses = append(clauses, Reason{Key: "none.ttft_floor", Args: []any{fig[0], label(r), w.TTFTP95Seconds}})
	}
	if r := best[1]; r != nil && w.TPOTSeconds > 0 {
		clauses = append(clauses, Reason{Key: "none.tpot_floor", Args: []any{fig[1], label(r), w.TPOTSeconds}})
	}
	switch len(clauses) {
	case 0:
		return Reason{}, false
	case 1:
		return Reason{Key: "none.latency", Args: clauses}, true
	}
	return Reason{Key: "none.latency2", Args: clauses}, true
}
