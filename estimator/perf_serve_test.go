package estimator

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// servingPointRef is ServingPoint as it was written before ServingModel
// shared its setup: Throughput at the concurrency, then the memory
// estimate at one request. ServingModel must return exactly the same.
func servingPointRef(in Input, hw Hardware, eff Efficiency, w Workload, concurrency int) (ServePoint, Perf, error) {
	if concurrency < 1 || concurrency > maxBatch {
		return ServePoint{}, Perf{}, &InputError{Field: "concurrency", Value: itoa(concurrency), Reason: "want 1..1048576", Err: ErrRange}
	}
	if in.TP >= 1 && in.PP >= 1 && in.TP <= maxGPUs && in.PP <= maxGPUs {
		in.GPUs = in.TP * in.PP
	}
	in.Batch = concurrency
	prompt, out := sampleLengths(in, w)
	if p, o := int(prompt), int(out); p+o >= 1 && p+o <= maxSeq {
		in.Seq = p + o
	}
	p, err := Throughput(in, hw, eff, w)
	if err != nil {
		return ServePoint{}, Perf{}, err
	}
	sp := ServePoint{Concurrency: concurrency, TTFTSeconds: p.TimeToFirstToken, TPOTSeconds: p.DecodeTokenLatency,
		TokensPerSecond: p.TokensPerSecond, Bound: p.Bound}
	if out > 0 {
		sp.RequestsPerSecond = p.TokensPerSecond / out
	} else {
		sp.RequestsPerSecond = p.TokensPerSecond / math.Max(prompt, 1)
	}
	one := in
	one.Batch = 1
	if r, err := Estimate(one); err == nil {
		if in.Engine.Pooled() {
			sp.MaxConcurrency = r.MaxConcurrentSeqs
		} else if r.Fits {
			sp.MaxConcurrency = int64(MaxBatch(one))
		}
	} else if !errors.Is(err, ErrRange) {
		return ServePoint{}, Perf{}, err
	}
	return sp, p, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ServingModel's points, Perfs and errors equal ServingPoint's as it was
// written (servingPointRef) bit for bit, over models, engines, weight
// formats, parallelism, workloads, concurrencies and invalid inputs; and
// ServingPoint, now built on it, too.
func TestServingModelMatchesServingPoint(t *testing.T) {
	hws := []Hardware{
		h100SXMFP8,
		{PeakFLOPS: 121e12, MemBandwidth: 300e9, Generation: GenAda},
		{PeakFLOPS: 165e12, MemBandwidth: 1008e9, Generation: GenAda, HostClass: HostDesktop, NVLinkDomain: 2},
		{PeakFLOPS: -1, MemBandwidth: 1e12}, // invalid
	}
	works := []Workload{{PromptTokens: 500, OutputTokens: 200}, {}, {PromptTokens: 1000}, {PromptTokens: 0, OutputTokens: 5}}
	concs := []int{1, 2, 8, 37, 64, 512, 4096, 0, maxBatch + 1}
	n := 0
	for mi, f := range testConfigs {
		a := loadArch(t, f)
		for _, engine := range []Engine{VLLM, HF, LlamaCpp, SGLang} {
			for _, x := range []struct {
				tp, pp  int
				weights DType
				quant   Quant
				task    Task
			}{{1, 1, BF16, QuantAuto, Inference}, {2, 1, BF16, QuantAuto, Inference}, {4, 2, INT4, QuantAuto, Inference},
				{1, 1, INT4, QuantNF4, Inference}, {8, 1, FP8, QuantAuto, Inference}, {2, 1, BF16, QuantAuto, FullFinetune}} {
				in := DefaultInput(a)
				in.Engine, in.TP, in.PP, in.GPUs, in.Weights, in.Quant, in.Task = engine, x.tp, x.pp, 3, x.weights, x.quant, x.task
				in.VRAM = Bytes(int64(24+mi*8)) * GiB
				if x.task.Training() {
					in.Engine = HF
				}
				for hi, hw := range hws {
					for _, w := range works {
						m := NewServingModel(in, hw, Efficiency{}, w)
						for _, c := range concs {
							want, wantPerf, wantErr := servingPointRef(in, hw, Efficiency{}, w, c)
							got, err := m.Point(c)
							gotPerf, perfErr := m.Perf(c)
							sp, spErr := ServingPoint(in, hw, Efficiency{}, w, c)
							name := fmt.Sprintf("%s engine %v %+v hw %d %+v c=%d", f, engine, x, hi, w, c)
							if got != want || errText(err) != errText(wantErr) {
								t.Fatalf("%s: Point %+v, %v; want %+v, %v", name, got, err, want, wantErr)
							}
							if sp != want || errText(spErr) != errText(wantErr) {
								t.Fatalf("%s: ServingPoint %+v, %v; want %+v, %v", name, sp, spErr, want, wantErr)
							}
							if wantErr == nil && (gotPerf != wantPerf || perfErr != nil) {
								t.Fatalf("%s: Perf %+v, %v; want %+v", name, gotPerf, perfErr, wantPerf)
							}
							if wantErr == nil && m.MaxConcurrency() != want.MaxConcurrency {
								t.Fatalf("%s: MaxConcurrency %d, want %d", name, m.MaxConcurrency(), want.MaxConcurrency)
							}
							if wantErr == nil {
								n++
							}
						}
					}
				}
			}
		}
	}
	if n < 5000 {
		t.Errorf("only %d valid points compared", n)
	}
}

// A serving curve allocates nothing once its model is set up.
func TestServingModelAllocs(t *testing.T) {
	in := DefaultInput(loadArch(t, "mixtral-8x7b-v0.1.mlc_preset.json"))
	in.Engine, in.TP = VLLM, 2
	w := Workload{PromptTokens: 500, OutputTokens: 200}
	if n := testing.AllocsPerRun(100, func() {
		m := NewServingModel(in, h100SXMFP8, Efficiency{}, w)
		for _, c := range []int{1, 8, 64, 300} {
			_, _ = m.Point(c)
		}
	}); n != 0 {
		t.Errorf("a serving curve allocates %v times", n)
	}
}
