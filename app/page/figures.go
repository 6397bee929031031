package page

import (
	"errors"
	"fmt"
	"time"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
)

// Figures are the speed figures the page shows for the job a link
// describes, on the link's GPU, as numbers: the page's own parse (link →
// job) and compute (perfOf). The CLI's agreement test holds `rightsize
// estimate --json` to them, so the page and the CLI print one story.
type Figures struct {
	OK                bool // the job fits and the GPU has speed figures
	TokensPerSecond   float64
	MFU               float64 // implied
	ComputeEfficiency float64 // assumed (the Assumptions box's default)
	BandwidthUtil     float64
	StepSeconds       float64 // training
	CommSeconds       float64
	JobSeconds        float64
	// Goodput and the whole run's time and GPU-hours at it (training;
	// estimator.TrainRunOf, the detail beside the steps' figures).
	Goodput                                      float64
	JobSecondsWithOverhead, GPUHoursWithOverhead float64
	TTFTSeconds                                  float64 // inference
	TPOTSeconds                                  float64
	PrefillTokensPerSec                          float64
	TotalBytes                                   int64 // memory per GPU: the step's
	PeakBytes                                    int64 // the most at any time (the step's or while loading)
	UsableBytes                                  int64 // what the job must fit in per GPU (estimator.Result.Usable)
	Fits                                         bool  // the page's verdict (estimator.Result.Fits)
	KVPoolTokens                                 int64 // a pooled engine's KV pool (the fact "KV pool", estimator.Result.KVPoolTokens)
	// CheckpointedBytes is the memory per GPU of a training job that does
	// not fit as set, redone with activation checkpointing (the fact "With
	// gradient checkpointing"); 0 where the page shows none.
	CheckpointedBytes int64
	// FitsWithBytes and FitsWith are what makes such a job fit (the fact
	// "Fits with", estimator.MakeItFit): the peak per GPU with the levers
	// pulled and the levers' names; 0 and nil where there is none.
	FitsWithBytes int64
	FitsWith      []string
	// Layout is the pre-training layout the page chose where the user
	// left ZeRO and the schedule open (the fact "Layout chosen").
	Layout estimator.TrainLayout
	// MinGPUs is, for a job that does not fit as set, the fewest of its
	// GPU that hold it (the fact "Fewest of this GPU that fit", Result.Fewest;
	// the CLI's min_gpus_that_fit); 0 where it fits or needs more than
	// MaxGPUsSearched.
	MinGPUs int
}

// LinkFigures parses fragment (the part of a link after "#") as the page
// does, over the page's defaults, and returns its figures. An input the
// page would flag next to a field is an error naming the field; a job
// without speed figures returns its memory figures with the error.
func LinkFigures(fragment string) (Figures, error) {
	_, j, err := linkJob(fragment)
	if err != nil {
		return Figures{}, err
	}
	r, _ := Compute(j, NewPrices(catalog.Default(), nil))
	if !r.OK {
		return Figures{}, errors.New("the estimate failed")
	}
	f := Figures{TotalBytes: int64(r.Res.PerGPU.Total()), PeakBytes: int64(r.Res.Peak), UsableBytes: int64(r.Res.Usable), Fits: r.Res.Fits, KVPoolTokens: r.Res.KVPoolTokens, Layout: j.Layout}
	if fr, ok := r.Fewest(j.GPU.ID); ok && fr.Found && !r.Res.Fits {
		f.MinGPUs = fr.Plan.GPUs
	}
	if r.HasCheckpointed {
		f.CheckpointedBytes = int64(r.Checkpointed.PerGPU.Total())
	}
	if r.HasFix {
		f.FitsWithBytes = int64(r.Fix.Result.Peak)
		for _, l := range r.Fix.Levers {
			f.FitsWith = append(f.FitsWith, l.String())
		}
	}
	if r.PerfErr != nil {
		// The memory figures stand without speed (a job that does not fit).
		return f, r.PerfErr
	}
	if v := r.Perf; v.OK {
		p := v.P
		f.OK = true
		f.TokensPerSecond, f.MFU, f.ComputeEfficiency, f.BandwidthUtil = p.TokensPerSecond, p.MFU, p.ComputeEfficiency, p.BandwidthUtil
		f.StepSeconds, f.CommSeconds, f.JobSeconds = p.StepSeconds, p.CommSeconds, v.Seconds
		f.Goodput, f.JobSecondsWithOverhead, f.GPUHoursWithOverhead = v.Run.Goodput, v.Run.SecondsWithOverhead, v.Run.GPUHoursWithOverhead
		f.TTFTSeconds, f.TPOTSeconds, f.PrefillTokensPerSec = p.TimeToFirstToken, p.DecodeTokenLatency, p.PrefillTokensPerSecond
	}
	return f, nil
}

// LinkFleet is the daily fleet the page plans for the job a link
// describes (its load curve, workload preset and owned-GPU prices), as
// numbers; the CLI's agreement test holds `rightsize plan --load-curve
// --workload --own-price --json` to it.
func LinkFleet(fragment string) (FleetOut, error) {
	_, j, err := linkJob(fragment)
	if err != nil {
		return FleetOut{}, err
	}
	if j.Curve == nil {
		return FleetOut{}, errors.New("the link asks for no daily fleet")
	}
	out, _, err := linkPlan(j)
	if err != nil {
		return FleetOut{}, err
	}
	return out.Fleet, nil
}

// LinkLaunch is the launch settings the page's "Run it" box writes for the
// job a link describes (its cheapest pick, the link's launcher); the CLI's
// agreement test holds `rightsize plan --emit` to it.
func LinkLaunch(fragment string) (string, error) {
	j, pr, out, k, err := linkLauncher(fragment)
	if err != nil {
		return "", err
	}
	l, _, err := LaunchOf(j, pr, &out, k)
	if err != nil {
		return "", err
	}
	return l.Text(), nil
}

// LinkLaunchDisagg is the disaggregated alternative's launch the page's
// "Run it" box shows for a link, with the launcher it picks: the text
// rightsize plan --emit KIND --emit-pick disaggregated prints for the same
// job.
func LinkLaunchDisagg(fragment string) (string, error) {
	j, pr, out, k, err := linkLauncher(fragment)
	if err != nil {
		return "", err
	}
	r, err := launch.ParseRouter(ParseFragment(fragment, DefaultState)[FieldRouter])
	if err != nil {
		return "", err
	}
	l, err := LaunchDisagg(j, pr, &out, k, r)
	if err != nil {
		return "", err
	}
	return l.Text(), nil
}

// linkLauncher is a link's job, its plan and prices, and the launcher
// the page picks for it.
func linkLauncher(fragment string) (Job, Prices, PlanOut, launch.Kind, error) {
	s, j, err := linkJob(fragment)
	if err != nil {
		return Job{}, Prices{}, PlanOut{}, 0, err
	}
	out, pr, err := linkPlan(j)
	if err != nil {
		return Job{}, Prices{}, PlanOut{}, 0, err
	}
	k, ok := LaunchKind(s, j, &out)
	if !ok {
		return Job{}, Prices{}, PlanOut{}, 0, fmt.Errorf("launcher %q does not fit the workload", s[FieldLaunch])
	}
	return j, pr, out, k, nil
}

// linkJob parses fragment as the page does, over its defaults; an input
// the page would flag next to a field is an error naming the field.
func linkJob(fragment string) (ViewState, Job, error) {
	s := ParseFragment(fragment, DefaultState)
	j, errs, general, ok := ParseJob(s, catalog.Default(), Archs{}, nil, "")
	if ok {
		return s, j, nil
	}
	for f, e := range errs {
		if !e.OK() {
			return s, j, fmt.Errorf("%s %q: %s %s", FieldNames[f], e.Value, Tr("en", e.Key), e.Detail)
		}
	}
	if len(general) > 0 {
		return s, j, fmt.Errorf("%s %s", Tr("en", general[0].Key), general[0].Detail)
	}
	return s, j, errors.New("the link does not describe a job")
}

// linkPlan plans j as the page does, its prices aged on today's date (the
// page's clock; the CLI's now).
func linkPlan(j Job) (PlanOut, Prices, error) {
	return planOn(j, catalog.Default(), nil)
}

// planOn plans j over cat with the offers in own marked as the user's, as
// the page does.
func planOn(j Job, cat *catalog.Catalog, own map[string]bool) (PlanOut, Prices, error) {
	pr := NewPrices(cat, own)
	pr.Today = time.Now().UTC()
	out := RunPlan(j, pr)
	return out, pr, out.Err
}

// LinkPlan is the plan the page makes for the job a link describes over
// the built-in catalog with the user's price sheet merged as the page
// merges a loaded one (Catalog.MergeOwnPrices, Sheet.Use); a refused
// sheet is the page's message. The CLI's agreement test holds `rightsize
// plan --prices` to it; a nil sheet plans over the built-in catalog alone,
// as rightsize plan without --prices.
func LinkPlan(fragment string, sheet []byte) (PlanOut, error) {
	_, j, err := linkJob(fragment)
	if err != nil {
		return PlanOut{}, err
	}
	if sheet == nil {
		out, _, err := planOn(j, catalog.Default(), nil)
		return out, err
	}
	cat, changes, n, err := catalog.Default().MergeOwnPrices(sheet, nil)
	var s Sheet
	own, ok := s.Use("sheet", changes, n, err, "en")
	if !ok {
		return PlanOut{}, errors.New(s.Err)
	}
	out, _, err := planOn(j, cat, own)
	return out, err
}

// Exports are the page's three exports of one view.
type Exports struct{ JSON, CSV, Markdown string }

// LinkExport is what the page's export buttons write for the job a link
// describes (its estimate and plan over the built-in catalog, in the
// link's language); the CLI's agreement test holds `rightsize plan
// --json` to it.
func LinkExport(fragment string) (Exports, error) {
	s, j, err := linkJob(fragment)
	if err != nil {
		return Exports{}, err
	}
	out, pr, err := linkPlan(j)
	if err != nil {
		return Exports{}, err
	}
	r, _ := Compute(j, pr)
	in := ViewIn{State: s, Job: j, R: r, Plan: out, Prices: pr, Now: pr.Today}
	return Exports{JSON: ExportJSON(in, fragment), CSV: ExportCSV(in), Markdown: ExportMarkdown(in)}, nil
}
