package sim_test

import (
	"fmt"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// A benchmark result read, and a calibration applied to a job: what the
// CLI's calibrate and --calibration do, without the CLI.
func ExampleParse() {
	csv := "concurrency,ttft_ms,tpot_ms,prompt_tokens,output_tokens\n1,45.2,7.9,1024,256\n32,240,11.4,1024,256\n"
	runs, format, err := sim.Parse("runs.csv", []byte(csv))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(format, len(runs), runs[1].Concurrency, runs[1].TTFTSeconds)

	cal, err := sim.ParseCalibration("h100-sxm,vllm,23.6,0.61,0.71")
	if err != nil {
		fmt.Println(err)
		return
	}
	in, eff := estimator.Input{Engine: estimator.VLLM}, estimator.Efficiency{}
	fmt.Println(cal.ApplyTo("h100-sxm", &in, &eff), eff.InferenceMFU, eff.BandwidthUtil)
	// Output:
	// csv 2 32 0.24
	// true 0.61 0.71
}
