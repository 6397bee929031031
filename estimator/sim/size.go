package sim

import (
	"math"

	"rightsize/estimator"
)

// Binding is what set a deployment's replica count.
type Binding int

const (
	BindNone       Binding = iota // one replica is enough
	BindTTFT                      // the time to first token (at the SLO's statistic) needed the last replica
	BindTPOT                      // the time per output token did
	BindThroughput                // fewer replicas saturate (or exceed the utilisation cap)
)

var bindingNames = [...]string{"none", "ttft", "tpot", "throughput"}

// String returns "none", "ttft", "tpot" or "throughput".
func (b Binding) String() string {
	if b < 0 || int(b) >= len(bindingNames) {
		return "Binding(" + itoa(int(b)) + ")"
	}
	return bindingNames[b]
}

// MarshalText writes b's String, so JSON carries the name.
func (b Binding) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// Sizing is the smallest number of replicas that serves a rate within an
// SLO, and what binds there.
type Sizing struct {
	Replicas int `json:"replicas"`
	// Result is one replica's run at rate / Replicas (Poisson arrivals: a
	// least-loaded or random router splits a Poisson stream into Poisson
	// streams).
	Result Result `json:"result"`
	// Binding names what needed the last replica: the SLO figure that
	// fewer replicas miss (BindTTFT, BindTPOT), BindThroughput when the
	// replicas that meet them are the fewest that keep up with the rate
	// at all, BindNone when one replica is enough; Result.Limit names the engine limit
	// behind it (kv-cache, token-budget, max-seqs, admission-interval).
	Binding Binding `json:"binding"`
	// Meets reports whether Replicas meets the SLO; false when even
	// maxReplicas do not (the SLO is below what one request alone gets).
	Meets bool `json:"meets"`
}

// Replicas is the smallest number of replicas of cfg's replica, up to
// maxReplicas, whose simulated TTFT and TPOT at slo.Stat (p95 by
// default) meet slo when
// ratePerSecond requests/s arrive as a Poisson process spread evenly over
// them (cfg.Load.Requests per run, 1000 when 0; cfg.Load's lengths, spread
// and seed). A zero SLO figure is no bound. It returns an
// *estimator.InputError for a bad rate, replica limit or configuration.
func Replicas(cfg Config, ratePerSecond float64, slo SLO, maxReplicas int) (Sizing, error) {
	if !(ratePerSecond > 0 && ratePerSecond <= maxRate) {
		return Sizing{}, &estimator.InputError{Field: "rate", Value: ftoa(ratePerSecond), Reason: "want requests/s in (0, 1e9]", Err: estimator.ErrRange}
	}
	if maxReplicas < 1 || maxReplicas > 1<<16 {
		return Sizing{}, &estimator.InputError{Field: "max-replicas", Value: itoa(maxReplicas), Reason: "want 1..65536", Err: estimator.ErrRange}
	}
	if err := checkSLO(slo); err != nil {
		return Sizing{}, err
	}
	cfg.Load.Concurrency = 0
	if cfg.Load.Requests == 0 {
		cfg.Load.Requests = 1000
	}
	try := func(n int) (Result, bool, Binding, error) {
		c := cfg
		c.Load.RatePerSecond = ratePerSecond / float64(n)
		r, err := Run(c)
		if err != nil {
			return r, false, BindNone, err
		}
		switch {
		case slo.TTFTSeconds > 0 && slo.Stat.Of(r.TTFT) > slo.TTFTSeconds:
			return r, false, BindTTFT, nil
		case slo.TPOTSeconds > 0 && slo.Stat.Of(r.TPOT) > slo.TPOTSeconds:
			return r, false, BindTPOT, nil
		}
		return r, true, BindNone, nil
	}
	// Start at the replicas the saturation rate asks for (fewer cannot
	// keep up), then double until the SLO holds and bisect.
	lo := 1
	if sat, err := Saturation(cfg); err != nil {
		return Sizing{}, err
	} else if sat.RequestsPerSecond > 0 {
		lo = max(1, min(maxReplicas, int(math.Ceil(ratePerSecond/sat.RequestsPerSecond))))
	}
	r, ok, why, err := try(lo)
	if err != nil {
		return Sizing{}, err
	}
	if ok {
		s := Sizing{Replicas: lo, Result: r, Meets: true}
		if lo > 1 {
			s.Binding = BindThroughput // fewer replicas saturate
		}
		return s, nil
	}
	hi, bind := lo, why
	for !ok {
		if hi == maxReplicas {
			return Sizing{Replicas: hi, Result: r, Binding: why}, nil
		}
		lo, hi = hi, min(2*hi, maxReplicas)
		bind = why
		if r, ok, why, err = try(hi); err != nil {
			return Sizing{}, err
		}
	}
	best := Sizing{Replicas: hi, Result: r, Binding: bind, Meets: true}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		rm, okm, whym, err := try(mid)
		if err != nil {
			return Sizing{}, err
		}
		if okm {
			hi, best = mid, Sizing{Replicas: mid, Result: rm, Binding: bind, Meets: true}
		} else {
			lo, bind = mid, whym
			best.Binding = whym
		}
	}
	return best, nil
}
