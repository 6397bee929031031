package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator/plan"
)

// The daily fleet: "rightsize plan --load-curve CURVE [--workload FILE]"
// plans the serving fleet hour by hour over a day (plan.PlanFleet) and
// prints, for the best offers, the replicas by price model per hour, the
// monthly bill of each single price model and of the best mix, and the
// saving against all on demand; with the --own-* flags, the owned-GPU
// alternative and its break-even utilisation.

// fleetFlags are the fleet's flags (parsed by fleetQuestion).
var fleetFlags = []flagRow{
	sharedFlag(jobspec.LoadCurve, `serving: requests/s for each hour of the day, "r0,r1,...,r23", or a CSV file of hour,requests_per_second`),
	sharedFlag(jobspec.Workload, "serving: a preset ("+strings.Join(plan.PresetNames(), ", ")+"), a CSV histogram (prompt_tokens,output_tokens,share) or a request log (JSONL or CSV with prompt_tokens/output_tokens per request, OpenAI-style usage.prompt_tokens/usage.completion_tokens, optional timestamp for the load curve)"),
	{"min-replicas", "1", "fleet: fewest replicas at any hour"},
	{"fleet-offers", "3", "fleet: how many of the best offers under each price model (on demand, spot, reserved 1y and 3y at the peak) get a fleet (0: every fitting offer)"},
	sharedFlag(jobspec.OwnPrice, "owned GPUs: purchase price per GPU, USD"),
	{"own-watts", "", "owned GPUs: watts per GPU while busy (default: the GPU's TDP from the catalog)"},
	{"pue", "", "owned GPUs: power usage effectiveness (default 1.58, Uptime Institute 2023 average)"},
	sharedFlag(jobspec.KWhPrice, "owned GPUs: electricity, USD per kWh"),
	sharedFlag(jobspec.DepreciationYears, "owned GPUs: depreciation period, years"),
	{"utilisation", "", "owned GPUs: busy share of the hours, 0..1 (default: the fleet's own, mean replicas / peak)"},
}

// defineFleetFlags adds the fleet's flags (and a --no-spot switch).
func defineFleetFlags(fs *flag.FlagSet) {
	for _, f := range fleetFlags {
		if fs.Lookup(f.name) == nil {
			fs.String(f.name, f.def, f.usage)
		}
	}
	if fs.Lookup("no-spot") == nil {
		fs.Bool("no-spot", false, "fleet: keep spot out of the best mix (online serving on spot needs its spare)")
	}
}

// fleetAsked is whether the flags ask for a daily fleet.
func (c *planCmd) fleetAsked() bool { return c.s("load-curve") != "" || c.s("workload") != "" }

// Input caps: a file of a few million requests is enough for a day's
// shape; beyond that the page and the CLI refuse rather than stall.
const maxFleetFileBytes = 64 << 20

// runFleet answers the daily question; it is run's one call.
func (c *planCmd) runFleet(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	cat, err := c.catalog()
	if err != nil {
		return fail("%v", err)
	}
	req, wl, curve, notes, err := c.fleetRequest(job, cat)
	if err != nil {
		return fail("%v", err)
	}
	fo := plan.FleetOptions{Curve: curve, NoSpot: c.s("no-spot") == "true"}
	for _, x := range []struct {
		name string
		to   *int
	}{{"min-replicas", &fo.MinReplicas}, {"fleet-offers", &fo.Rows}} {
		n, err := strconv.Atoi(c.s(x.name))
		if err != nil || n < 0 || n > 1<<16 {
			return fail("--%s %q: want a whole number 0..65536", x.name, c.s(x.name))
		}
		*x.to = n
	}
	if wl != nil && len(wl.Buckets) > 1 {
		// Two or more size classes: the mixed fleet too (each class on its
		// own offer), beside the single-offer fleets.
		fo.Buckets, fo.Mix = wl.Buckets, true
	}
	maxInst, _ := strconv.Atoi(c.s("max-instances"))
	opts := plan.Options{MaxInstances: maxInst}
	offers := planOffers(cat, req.Input.Weights)
	res, err := plan.PlanFleet(req, offers, opts, fo)
	if err != nil {
		return fail("%v", err)
	}
	var mix *mixJSON
	if res.Mix != nil {
		mix = newMixJSON(*res.Mix, fo.Curve)
	}
	own, err := c.ownedInputs(job, cat)
	if err != nil {
		return fail("%v", err)
	}
	out := newPlanJSON(req, res.Peak, cat)
	out.Notes = append(out.Notes, notes...)
	top, _ := strconv.Atoi(c.s("top"))
	if top > 0 && len(out.Rows) > top {
		out.Rows = out.Rows[:top]
	}
	fj, err := newFleetJSON(res, fo, wl, own, cat)
	if err != nil {
		return fail("%v", err)
	}
	fj.Mixed = mix
	out.Fleet = &fj
	if c.s("format") == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "Note: "+n+".")
	}
	writeFleet(stdout, fj, moneyOf(out))
	writeMix(stdout, fj.Mixed, moneyOf(out))
	writeHosted(stdout, out) // plan.go: over the load curve
	return 0
}

// readWorkload reads --workload: a file, else a preset by name.
func readWorkload(f string) (plan.WorkloadMix, error) {
	if !fileExists(f) {
		if w, ok := plan.PresetWorkload(f); ok {
			return w, nil
		}
		if !strings.ContainsAny(f, `/\.`) {
			return plan.WorkloadMix{}, fmt.Errorf("--workload %q: no such file or preset (presets: %s)", f, strings.Join(plan.PresetNames(), ", "))
		}
	}
	data, err := readLimited(f, maxFleetFileBytes)
	if err != nil {
		return plan.WorkloadMix{}, fmt.Errorf("--workload: %v", err)
	}
	w, err := plan.ParseWorkload(data)
	if err != nil {
		return plan.WorkloadMix{}, fmt.Errorf("--workload %s: %v", f, err)
	}
	w.Source = f
	return w, nil
}

// parseLoadCurve reads 24 comma-separated rates, or a file of them (after
// the UTF-8 byte order mark spreadsheets write). Numbers that name no
// file are a list however many there are, so 23 or 25 of them are told
// they need 24, not that no such file exists.
func parseLoadCurve(s string) (plan.LoadCurve, error) {
	if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); (err == nil || strings.Contains(s, ",")) && !fileExists(s) {
		return plan.ParseCurveList(s)
	}
	data, err := readLimited(s, maxFleetFileBytes)
	if err != nil {
		return plan.LoadCurve{}, err
	}
	return plan.ParseCurveCSV(bytes.TrimPrefix(data, []byte("\ufeff")))
}

func fileExists(s string) bool {
	_, err := os.Stat(s)
	return err == nil
}

// ownedInputs reads the --own-* flags; nil when --own-price is not given.
// The purchase price, electricity price and depreciation period are read
// as the page reads its own-GPU fields (page.ParsePlan); the power, PUE
// and utilisation are the command line's own.
func (c *planCmd) ownedInputs(job estimateJob, cat *catalog.Catalog) (*plan.Owned, error) {
	if c.s("own-price") == "" {
		for _, n := range []string{"own-watts", "pue", "kwh-price", "depreciation-years", "utilisation"} {
			if c.s(n) != "" {
				return nil, fmt.Errorf("--%s needs --own-price", n)
			}
		}
		return nil, nil
	}
	text := jobText(c.fs, job.set)
	pj, perrs := page.ParsePlan(&text, cat)
	for _, e := range perrs {
		switch e.Field {
		case jobspec.OwnPrice, jobspec.KWhPrice, jobspec.DepreciationYears:
			return nil, e
		}
	}
	o := pj.Own
	for _, f := range []struct {
		name string
		to   *float64
	}{{"own-watts", &o.Watts}, {"pue", &o.PUE}, {"utilisation", &o.Utilisation}} {
		s := c.s(f.name)
		if s == "" {
			continue
		}
		v, err := parseAmount(s)
		if err != nil {
			return nil, fmt.Errorf("--%s: %v", f.name, err)
		}
		*f.to = v
	}
	return o, nil
}

// fleetRequest is the serving request at the busiest hour of the day the
// flags give (--load-curve, the --workload log's timestamps, or a flat
// --requests-per-second), planned at the workload's mean lengths with its
// longest request kept for the launch settings (Workload.MaxRequestTokens:
// the log's or preset's longest, else the model's context). The daily
// fleet and --emit read the same one, as the page does.
func (c *planCmd) fleetRequest(job estimateJob, cat *catalog.Catalog) (req plan.Request, wl *plan.WorkloadMix, curve plan.LoadCurve, notes []string, err error) {
	bad := func(e error) (plan.Request, *plan.WorkloadMix, plan.LoadCurve, []string, error) {
		return plan.Request{}, nil, plan.LoadCurve{}, nil, e
	}
	if f := c.s("workload"); f != "" {
		if job.set["prompt-tokens"] || job.set["output-tokens"] {
			return bad(errors.New("--workload gives the prompt and output tokens: drop --prompt-tokens/--output-tokens"))
		}
		w, err := readWorkload(f)
		if err != nil {
			return bad(err)
		}
		wl = &w
		job.prompt, job.output = w.MeanPrompt, w.MeanOutput
	}
	switch s := c.s("load-curve"); {
	case s != "":
		if curve, err = parseLoadCurve(s); err != nil {
			return bad(fmt.Errorf("--load-curve: %v", err))
		}
		if c.s("requests-per-second") != "" {
			notes = append(notes, "--requests-per-second is replaced by the load curve's peak")
		}
	case wl != nil && wl.Curve != nil:
		curve = *wl.Curve
	case c.s("requests-per-second") != "":
		// The rate read as the page reads it (page.ParsePlan).
		text := jobText(c.fs, job.set)
		pj, perrs := page.ParsePlan(&text, cat)
		for _, e := range perrs {
			if e.Field == jobspec.RequestsPerSecond {
				return bad(e)
			}
		}
		rps := pj.RequestsPerSecond
		for h := range curve {
			curve[h] = rps // a flat day
		}
	default:
		return bad(fmt.Errorf("--workload %s has no timestamps: give --load-curve or --requests-per-second", c.s("workload")))
	}
	if err := curve.Validate(); err != nil {
		return bad(fmt.Errorf("--load-curve: %v", err))
	}
	// The peak plan ranks the offers at the curve's busiest hour.
	if err := c.fs.Set("requests-per-second", strconv.FormatFloat(curve.Peak(), 'g', -1, 64)); err != nil {
		return bad(err)
	}
	if req, err = c.request(job, cat); err != nil {
		return bad(err)
	}
	if req.Workload.Kind != plan.Serving {
		return bad(errors.New("--load-curve and --workload plan serving: drop --requests and the training flags"))
	}
	if wl != nil {
		req.Workload.MaxRequestTokens = wl.MaxTokens
		if wl.MaxTokens == 0 {
			req.Workload.MaxRequestTokens = req.Input.Arch.ServeContext()
		}
	}
	return req, wl, curve, notes, nil
}
