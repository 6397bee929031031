package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/estimator/plan"
)

// Checks shared by the commands' flags: values a user may type but no
// plan can honour, files that never end, and flags the chosen workload
// ignores. Each failure is one line naming the flag.

const (
	// maxPlanInstances bounds --max-instances: 8,192 eight-GPU instances
	// are the estimator's 65,536 GPUs; above it every plan failed with a
	// reason that blamed the offer.
	maxPlanInstances = 8192
	// maxConfigBytes bounds --config, as the page bounds an uploaded or
	// linked config.json (real ones are 1-10 KB).
	maxConfigBytes = 256 << 10
)

// workloadFlags are the plan flags only one workload reads; given for
// another they would be ignored without a word.
var workloadFlags = map[plan.Kind][]string{
	plan.Serving:  {"requests-per-second", "ttft-p95", "tpot", "slo-stat", "max-utilisation", "api-input-price", "api-output-price"},
	plan.Training: {"train-tokens", "epochs", "dataset-tokens", "global-batch-tokens", "checkpoint-write", "goodput"},
	plan.Batch:    {"requests"},
}

// planIgnored are estimate flags no plan reads, with why: the flags that
// shape one simulated benchmark (rightsize estimate and simulate), as a
// plan sizes every offer on its own sizing runs (estimator/plan
// serve_sim.go: simRequests requests of the workload's fixed lengths, no
// late first wave); and --vram, as a plan takes each offer's GPU memory.
var planIgnored = []struct {
	flags []string
	why   string
}{
	{[]string{"num-requests", "range-ratio", "first-wave-seconds", "steady-state"}, "which sizes each offer on its own simulated runs (rightsize estimate and simulate take them)"},
	{[]string{"vram"}, "which takes each offer's GPU memory (--usable-vram gives a measured figure)"},
}

// checkPlanFlags reports the plan flags set that the workload ignores,
// and values out of the bounds above. get reads a flag's text.
func checkPlanFlags(w plan.Workload, set map[string]bool, get func(string) string) error {
	kind := w.Kind
	for _, ig := range planIgnored {
		var given []string
		for _, n := range ig.flags {
			if set[n] {
				given = append(given, "--"+n)
			}
		}
		if len(given) > 0 {
			return fmt.Errorf("%s: not used by a plan, %s", strings.Join(given, ", "), ig.why)
		}
	}
	var unused []string
	for k, names := range workloadFlags {
		if k == kind {
			continue
		}
		for _, n := range names {
			if set[n] {
				unused = append(unused, "--"+n)
			}
		}
	}
	// --deadline caps a job's time (training, batch); serving has a rate
	// and SLOs, not an end (plan.Filters.DeadlineSeconds).
	if kind == plan.Serving && set["deadline"] {
		unused = append(unused, "--deadline")
	}
	// --restart is a spot reclaim's restart for training and batch rows
	// (spotParams) and a new replica's start-up for the daily fleet of
	// --load-curve or --workload (FleetRow.StartUpSeconds); a serving
	// plan without a fleet has neither.
	if kind == plan.Serving && set["restart"] && !set["load-curve"] && !set["workload"] {
		unused = append(unused, "--restart")
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		return fmt.Errorf("%s: not used by a %s plan", strings.Join(unused, ", "), kind)
	}
	if n, err := strconv.Atoi(get("max-instances")); err == nil && n > maxPlanInstances {
		return fmt.Errorf("--max-instances %d: want 0..%d (65,536 GPUs, the estimator's limit, on 8-GPU instances)", n, maxPlanInstances)
	}
	return nil
}

// readConfig reads a config file of at most maxConfigBytes: a path such as
// /dev/zero or a pipe that never ends is refused, not read until memory
// runs out.
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("%s: larger than %d KiB (a config.json is a few KB)", path, maxConfigBytes>>10)
	}
	return data, nil
}

// The flags of the job fields the page's link has too (jobspec.Fields):
// their names and defaults come from that table, so the command line and
// the page start from one value; the help is the command line's own.

func textFlag(fs *flag.FlagSet, f jobspec.Field, usage string) *string {
	s := jobspec.Fields[f]
	if s.Kind != jobspec.Text {
		panic("textFlag: --" + s.Flag + " is not a text field")
	}
	return fs.String(s.Flag, s.Default, usage)
}

func intFlag(fs *flag.FlagSet, f jobspec.Field, usage string) *int {
	s := jobspec.Fields[f]
	return fs.Int(s.Flag, s.Int(), usage)
}

func floatFlag(fs *flag.FlagSet, f jobspec.Field, usage string) *float64 {
	s := jobspec.Fields[f]
	return fs.Float64(s.Flag, s.Float(), usage)
}

func boolFlag(fs *flag.FlagSet, f jobspec.Field, usage string) *bool {
	s := jobspec.Fields[f]
	return fs.Bool(s.Flag, s.Bool(), usage)
}

// sharedFlag is a row of a string-flag list (planFlags, fleetFlags) for a
// shared text field: its name and default from jobspec.Fields.
func sharedFlag(f jobspec.Field, usage string) flagRow {
	s := jobspec.Fields[f]
	if s.Kind != jobspec.Text {
		panic("sharedFlag: --" + s.Flag + " is not a text field")
	}
	return flagRow{s.Flag, s.Default, usage}
}

// jobText collects the shared job fields' flags as text, as the page
// holds its fields (page.JobText): every flag of the table that the
// command has is read, at its default unless given; set names the flags
// given. An on/off flag is "1" or "0".
func jobText(fs *flag.FlagSet, set map[string]bool) page.JobText {
	var t page.JobText
	for f, s := range jobspec.Fields {
		fl := fs.Lookup(s.Flag)
		if fl == nil {
			continue
		}
		t.Text[f], t.Read[f], t.Set[f] = fl.Value.String(), true, set[s.Flag]
		if b, ok := fl.Value.(flag.Getter).Get().(bool); ok {
			t.Text[f] = "0"
			if b {
				t.Text[f] = "1"
			}
		}
	}
	return t
}

// flagRow is one string flag of a command's list: its name, default and
// help.
type flagRow struct{ name, def, usage string }
