package page

import (
	"errors"
	"fmt"
	"time"

	"rightsize/catalog"
)

// Figures are the speed figures the page shows for the job a link
// describes, on the link's GPU, as numbers: the page's own parse (link →
// job) and compute (perfOf). The CLI's agreement test holds `rightsize
// estimate --json` to them, so the page and the CLI print one story.
type Figures struct {
	OK                  bool // the job fits and the GPU has speed figures
	TokensPerSecond     float64
	MFU                 float64 // implied
	ComputeEfficiency   float64 // assumed (the Assumptions box's default)
	BandwidthUtil       float64
	StepSeconds         float64 // training
	CommSeconds         float64
	JobSeconds          float64
	TTFTSeconds         float64 // inference
	TPOTSeconds         float64
	PrefillTokensPerSec float64
	TotalBytes          int64 // memory per GPU: the step's
	PeakBytes           int64 // the most at any time (the step's or while loading)
}

// LinkFigures parses fragment (the part of a link after "#") as the page
// does, over the page's defaults, and returns its figures. An input the
// page would flag next to a field is an error naming the field.
func LinkFigures(fragment string) (Figures, error) {
	s := ParseFragment(fragment, DefaultState)
	j, errs, general, ok := ParseJob(s, catalog.Default(), Archs{}, nil, "")
	if !ok {
		for f, e := range errs {
			if !e.OK() {
				return Figures{}, fmt.Errorf("%s %q: %s %s", FieldNames[f], e.Value, Tr("en", e.Key), e.Detail)
			}
		}
		if len(general) > 0 {
			return Figures{}, fmt.Errorf("%s %s", Tr("en", general[0].Key), general[0].Detail)
		}
		return Figures{}, errors.New("the link does not describe a job")
	}
	r, general := Compute(j, NewPrices(catalog.Default(), nil))
	if !r.OK {
		return Figures{}, errors.New("the estimate failed")
	}
	if r.PerfErr != nil {
		return Figures{}, r.PerfErr
	}
	f := Figures{TotalBytes: int64(r.Res.PerGPU.Total()), PeakBytes: int64(r.Res.Peak)}
	if v := r.Perf; v.OK {
		p := v.P
		f.OK = true
		f.TokensPerSecond, f.MFU, f.ComputeEfficiency, f.BandwidthUtil = p.TokensPerSecond, p.MFU, p.ComputeEfficiency, p.BandwidthUtil
		f.StepSeconds, f.CommSeconds, f.JobSeconds = p.StepSeconds, p.CommSeconds, v.Seconds
		f.TTFTSeconds, f.TPOTSeconds, f.PrefillTokensPerSec = p.TimeToFirstToken, p.DecodeTokenLatency, p.PrefillTokensPerSecond
	}
	return f, nil
}

// LinkFleet is the daily fleet the page plans for the job a link
// describes (its load curve, workload preset and owned-GPU prices), as
// numbers; the CLI's agreement test holds `rightsize plan --load-curve
// --workload --own-price --json` to it.
func LinkFleet(fragment string) (FleetOut, error) {
	s := ParseFragment(fragment, DefaultState)
	j, errs, _, ok := ParseJob(s, catalog.Default(), Archs{}, nil, "")
	if !ok {
		for f, e := range errs {
			if !e.OK() {
				return FleetOut{}, fmt.Errorf("%s %q: %s %s", FieldNames[f], e.Value, Tr("en", e.Key), e.Detail)
			}
		}
		return FleetOut{}, errors.New("the link does not describe a job")
	}
	if j.Curve == nil {
		return FleetOut{}, errors.New("the link asks for no daily fleet")
	}
	// Prices age on today's date, as the page's clock and the CLI's.
	pr := NewPrices(catalog.Default(), nil)
	pr.Today = time.Now().UTC()
	out := RunPlan(j, pr)
	if out.Err != nil {
		return FleetOut{}, out.Err
	}
	return out.Fleet, nil
}

// LinkLaunch is the launch settings the page's "Run it" box writes for the
// job a link describes (its cheapest pick, the link's launcher); the CLI's
// agreement test holds `rightsize plan --emit` to it.
func LinkLaunch(fragment string) (string, error) {
	s := ParseFragment(fragment, DefaultState)
	j, errs, _, ok := ParseJob(s, catalog.Default(), Archs{}, nil, "")
	if !ok {
		for f, e := range errs {
			if !e.OK() {
				return "", fmt.Errorf("%s %q: %s %s", FieldNames[f], e.Value, Tr("en", e.Key), e.Detail)
			}
		}
		return "", errors.New("the link does not describe a job")
	}
	pr := NewPrices(catalog.Default(), nil)
	pr.Today = time.Now().UTC()
	out := RunPlan(j, pr)
	if out.Err != nil {
		return "", out.Err
	}
	k, ok := LaunchKind(s, &out)
	if !ok {
		return "", fmt.Errorf("launcher %q does not fit the workload", s[FieldLaunch])
	}
	l, _, err := LaunchOf(j, pr, &out, k)
	if err != nil {
		return "", err
	}
	return l.Text(), nil
}
