// Command rightsize is Rightsize's command line: memory estimates and catalog
// tools for scripts and docs pipelines.
//
//	rightsize estimate [flags]   per-GPU memory breakdown and fit
//	rightsize plan [flags]       what to rent for a job, what it costs, and why (see runPlan)
//	rightsize catalog  <verb>    validate, stats, export, import-skypilot, import-prices
//	rightsize validate [flags]   speed and memory against published measurements (docs/accuracy.md)
//	rightsize simulate [flags]   a serving replica's latency against load (simulated engine scheduler)
//	rightsize calibrate [flags] FILE  fit the engine's factors to your own serving benchmark (see runCalibrate)
//
// Invalid flags or files print a one-line error on stderr and exit with code 2.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: rightsize estimate [flags] | rightsize plan [flags] | rightsize catalog <validate|stats|export|import-skypilot|import-prices> [flags] | rightsize validate [--format markdown|json] | rightsize simulate [flags] | rightsize calibrate [flags] FILE"

// run dispatches a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "estimate":
		return runEstimate(args[1:], stdout, stderr)
	case "plan":
		return runPlan(args[1:], stdout, stderr)
	case "catalog":
		return runCatalog(args[1:], stdout, stderr)
	case "validate":
		return runValidate(args[1:], stdout, stderr)
	case "simulate":
		return runSimulate(args[1:], stdout, stderr)
	case "calibrate":
		return runCalibrate(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "rightsize: unknown command %q; %s\n", args[0], usage)
	return 2
}
