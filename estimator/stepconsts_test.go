package estimator

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStepConstsMatch: the per-step figures read once when a serving model
// is built are, bit for bit, the functions they stand for, over every test
// config (sliding, chunked and linear-attention layouts included) and
// every engine, task, weight format, quant and kernel, at contexts and
// token counts around their thresholds.
func TestStepConstsMatch(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "configs", "*.json"))
	if len(files) < 20 {
		t.Fatalf("%d test configs", len(files))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	ctxs := []float64{0, 0.5, 1, 7, 8, 9, 127.5, 128, 4096, 4097, 8191, 8192, 131072, 1e6, math.Inf(1), math.NaN()}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".SOURCE.txt") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseConfig(data)
		if err != nil {
			continue
		}
		for range 40 {
			in := DefaultInput(a)
			in.Engine = Engines[rng.IntN(len(Engines))]
			in.Task = Tasks[rng.IntN(len(Tasks))]
			in.Weights = DTypes[rng.IntN(len(DTypes))]
			in.Quant = Quants[rng.IntN(len(Quants))]
			in.Kernel = Kernels[rng.IntN(len(Kernels))]
			c := newStepConsts(in)
			for _, x := range ctxs {
				if got, want := c.attended(x), a.AttendedContext(x); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s: attended(%g) = %v, AttendedContext %v", f, x, got, want)
				}
				if got, want := 4*x*c.qDim, attnFLOPs(a, x); math.Float64bits(got) != math.Float64bits(want) && !math.IsNaN(want) {
					t.Fatalf("%s: 4·%g·qDim = %v, attnFLOPs %v", f, x, got, want)
				}
			}
			for _, tok := range ctxs {
				if got, want := c.dequant(tok), dequantBytesFactor(in, tok); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s %+v: dequant(%g) = %v, dequantBytesFactor %v", f, in.Kernel, tok, got, want)
				}
				if got, want := c.serial(tok), hostSerial(in, tok); got != want {
					t.Fatalf("%s %v %v: serial(%g) = %v, hostSerial %v", f, in.Engine, in.Kernel, tok, got, want)
				}
			}
			checked++
		}
	}
	t.Logf("%d inputs checked", checked)
}

// TestPooledStepIgnoresHost: a serving engine under CUDA graphs prices its
// steps the same whatever the host CPU's class, which the planner relies
// on to share one serving curve between offers that differ only in their
// CPU (plan's curve), from host-bound single decodes to full prefills.
func TestPooledStepIgnoresHost(t *testing.T) {
	for _, f := range []string{"llama-3.2-1b.json", "llama-3.1-8b.json", "qwen3-30b-a3b.json"} {
		a := loadArch(t, f)
		for _, eng := range Engines {
			if !eng.Pooled() {
				continue
			}
			in := DefaultInput(a)
			in.Engine, in.Batch, in.Seq = eng, 16, 2048
			for _, st := range []Step{{DecodeSeqs: 1, DecodeContext: 10}, {DecodeSeqs: 64, DecodeContext: 64 * 3000},
				{PrefillTokens: 2048, PrefillSeqs: 1, PrefillContext: 2048 * 1024, PrefillKV: 2048, DecodeSeqs: 15, DecodeContext: 15 * 1500}} {
				var steps []float64
				for _, hc := range HostClasses {
					hw := Hardware{PeakFLOPS: 989e12, MemBandwidth: 3.35e12, Generation: GenHopper, HostClass: hc}
					sm := NewServingModel(in, hw, Efficiency{}, Workload{PromptTokens: 1024, OutputTokens: 256})
					steps = append(steps, sm.StepSeconds(st))
				}
				if !(steps[0] > 0) || steps[0] != steps[1] || steps[1] != steps[2] {
					t.Errorf("%s %v %+v: step %v over the host classes, want one figure", f, eng, st, steps)
				}
			}
		}
	}
}
