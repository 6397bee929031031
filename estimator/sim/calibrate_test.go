package sim

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rightsize/estimator"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "calibrate", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Each committed layout parses to its runs with the figures in the file
// (testdata/calibrate/README.md).
func TestParseFixtures(t *testing.T) {
	for _, c := range []struct {
		file   string
		format Format
		n      int
		first  Measurement
	}{
		{"vllm_gptoss120b_b200_tp4.jsonl", FormatVLLM, 5, Measurement{Concurrency: 16, PromptTokens: 1024, OutputTokens: 1024, RangeRatio: 0.8,
			TTFTSeconds: 0.026274724, TPOTSeconds: 0.003653284, Median: true, OutputTokensPerSecond: 3415.831261}},
		{"sglang_dsr1_b200_tp8.jsonl", FormatSGLang, 4, Measurement{Concurrency: 16, PromptTokens: 1024, OutputTokens: 1024, RangeRatio: 0.8,
			TTFTSeconds: 0.34964927, TPOTSeconds: 0.013299684, Median: true, OutputTokensPerSecond: 1068.153334}},
		{"genai-perf-concurrency1/profile_export_genai_perf.csv", FormatGenAIPerf, 1, Measurement{Concurrency: 1, PromptTokens: 128, OutputTokens: 512, RangeRatio: 1,
			TTFTSeconds: 0.0232, TPOTSeconds: 0.01153, Median: true, OutputTokensPerSecond: 86.48}},
		{"plain.csv", FormatCSV, 3, Measurement{Concurrency: 1, PromptTokens: 1024, OutputTokens: 256, RangeRatio: 0.8,
			TTFTSeconds: 0.0452, TPOTSeconds: 0.0079, Median: true, OutputTokensPerSecond: 126}},
	} {
		pts, f, err := Parse(c.file, readFixture(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if f != c.format || len(pts) != c.n {
			t.Fatalf("%s: format %v, %d runs; want %v, %d", c.file, f, len(pts), c.format, c.n)
		}
		got, want := pts[0], c.first
		if math.Abs(got.TTFTSeconds-want.TTFTSeconds) > 1e-12 || math.Abs(got.TPOTSeconds-want.TPOTSeconds) > 1e-12 {
			t.Errorf("%s: %+v, want %+v", c.file, got, want)
		}
		got.TTFTSeconds, got.TPOTSeconds = want.TTFTSeconds, want.TPOTSeconds
		if got != want {
			t.Errorf("%s: %+v, want %+v", c.file, got, want)
		}
	}
}

// Layout variants: a JSON array, means only, lengths from totals, an
// unbounded run without max_concurrency, genai-perf's older names.
func TestParseVariants(t *testing.T) {
	pts, f, err := Parse("r.json", []byte(`[{"mean_ttft_ms": 100, "mean_tpot_ms": 10, "max_concurrency": 4, "completed": 10, "total_input_tokens": 9000, "total_output_tokens": 1800, "mean_e2el_ms": 2000}]`))
	if err != nil || f != FormatVLLM {
		t.Fatal(f, err)
	}
	// Means of 900 and 180 tokens over [0.8 L, L]: L = 1000 and 200.
	if m := pts[0]; m.Median || m.PromptTokens != 1000 || m.OutputTokens != 200 || m.Concurrency != 4 || m.TTFTSeconds != 0.1 {
		t.Errorf("%+v", m)
	}
	pts, _, err = Parse("r.json", []byte(`{"median_ttft_ms": 100, "median_tpot_ms": 10, "request_rate": "inf", "num_prompts": 32}`))
	if err != nil || pts[0].Concurrency != 32 {
		t.Errorf("unbounded run: %+v %v", pts, err)
	}
	pts, _, err = Parse("x-concurrency16/p.csv", []byte("Metric,avg,min\nTime To First Token (ns),2000000,1\nInter Token Latency (ns),3000000,1\nNum Output Token,4,3\n"))
	if err != nil || pts[0].Concurrency != 16 || pts[0].Median || pts[0].TTFTSeconds != 0.002 || pts[0].TPOTSeconds != 0.003 {
		t.Errorf("old genai-perf: %+v %v", pts, err)
	}
	pts, _, err = Parse("p.csv", []byte("Concurrency, mean_ttft_ms, mean_tpot_ms\n2,50,5\n"))
	if err != nil || pts[0].Median || pts[0].Concurrency != 2 {
		t.Errorf("means CSV: %+v %v", pts, err)
	}
}

// Foreign, empty, oversized or broken files give one error that says what
// was expected; figures out of range name the run.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"e.json", "", "empty"},
		{"e.json", "   \n", "empty"},
		{"a.json", `{"foo": 1}`, "vllm bench serve"},
		{"a.json", `{"median_ttft_ms": 1, `, "invalid JSON"},
		{"a.json", `[1, 2]`, "invalid JSON"},
		{"a.csv", "a,b,c\n1,2,3\n", "without concurrency"},
		{"a.csv", "concurrency,ttft_ms,tpot_ms\n1,NaN,3\n", "not a number"},
		{"a.csv", "concurrency,ttft_ms,tpot_ms\n1.5,2,3\n", "whole number"},
		{"a.csv", "concurrency,ttft_ms,tpot_ms\n1,-2,3\n", "time to first token"},
		{"a.csv", "concurrency,ttft_ms,tpot_ms\n1,1e300,3\n", "time to first token"},
		{"a.csv", "concurrency,ttft_ms,tpot_ms\n", "no runs"},
		{"a.json", `{"median_ttft_ms": 10, "median_tpot_ms": 1, "request_rate": 4}`, "open-loop"},
		{"a.json", `{"median_ttft_ms": NaN, "median_tpot_ms": 1, "max_concurrency": 4}`, "no mean_ttft_ms"},
		{"a.json", `{"median_ttft_ms": 5, "median_tpot_ms": NaN, "max_concurrency": 4}`, "needs median_ttft_ms"},
		{"a.png", "\x89PNG\r\n\x1a\n", "vllm bench serve"},
		{"big.csv", strings.Repeat("x", MaxBenchmarkBytes+1), "over 1 MiB"},
		{"many.csv", "concurrency,ttft_ms,tpot_ms\n" + strings.Repeat("1,2,3\n", MaxBenchmarkPoints+1), "more than 256"},
		{"many.jsonl", strings.Repeat(`{"median_ttft_ms": 10, "median_tpot_ms": 1, "max_concurrency": 4}`+"\n", MaxBenchmarkPoints+1), "more than 256"},
	} {
		_, _, err := Parse(c.name, []byte(c.data))
		var ie *estimator.InputError
		if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, %.40q) = %v; want an InputError with %q", c.name, c.data, err, c.want)
		}
	}
}

// synthetic is runs measured on the simulator itself with factors f: the
// fit's own model, so its optimum is f.
func synthetic(t testing.TB, in estimator.Input, f Factors, concs []int, prompt, output int) []Measurement {
	t.Helper()
	var pts []Measurement
	for _, c := range concs {
		j, eff := in, estimator.Efficiency{}
		f.Apply(&j, &eff)
		_, r, err := Benchmark(j, h100SXM, eff, estimator.Workload{PromptTokens: prompt, OutputTokens: output},
			Bench{Concurrency: c, Requests: fitRequests(c), RangeRatio: DefaultRangeRatio, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		pts = append(pts, Measurement{Concurrency: c, PromptTokens: prompt, OutputTokens: output, RangeRatio: DefaultRangeRatio,
			TTFTSeconds: r.TTFT.P50, TPOTSeconds: r.TPOT.P50, Median: true, OutputTokensPerSecond: r.OutputTokensPerSecond})
	}
	return pts
}

// The fit recovers the factors that generated a synthetic measurement:
// each within 10% (the request cost within 10% or 3 ms), and the fitted
// runs within 2% of the measured.
func TestFitRecoversFactors(t *testing.T) {
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = estimator.VLLM, 80*gib
	for _, truth := range []Factors{
		{RequestSeconds: 0.080, InferenceMFU: 0.35, BandwidthUtil: 0.55},
		{RequestSeconds: 0.010, InferenceMFU: 0.6, BandwidthUtil: 0.85},
	} {
		// Two prompt lengths, as a calibration sweep should have: at one
		// length a longer request cost and a faster prefill give the same
		// TTFT at low load.
		pts := append(synthetic(t, in, truth, []int{1, 16, 64}, 2048, 256), synthetic(t, in, truth, []int{1, 8}, 256, 256)...)
		res, err := Fit(in, h100SXM, pts)
		if err != nil {
			t.Fatal(err)
		}
		got := res.After
		t.Logf("truth %+v: fitted %+v (from %+v), median |log error| %.4f -> %.4f, %d simulations",
			truth, got, res.Before, res.BeforeError, res.AfterError, res.Simulations)
		rel := func(a, b float64) float64 { return math.Abs(a/b - 1) }
		if rel(got.InferenceMFU, truth.InferenceMFU) > 0.10 || rel(got.BandwidthUtil, truth.BandwidthUtil) > 0.10 ||
			math.Abs(got.RequestSeconds-truth.RequestSeconds) > max(0.003, 0.1*truth.RequestSeconds) {
			t.Errorf("truth %+v: fitted %+v", truth, got)
		}
		if res.AfterError > 0.02 || res.AfterError > res.BeforeError || res.Simulations > fitMaxSimulations {
			t.Errorf("error %.4f (before %.4f), %d simulations", res.AfterError, res.BeforeError, res.Simulations)
		}
		if len(res.AfterResiduals) != len(pts) || len(res.BeforeResiduals) != len(pts) {
			t.Errorf("residuals %d/%d for %d runs", len(res.BeforeResiduals), len(res.AfterResiduals), len(pts))
		}
	}
}

// Runs without a concurrency or lengths, and engines the simulator does
// not model, are refused before any simulation.
func TestFitRefuses(t *testing.T) {
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = estimator.VLLM, 80*gib
	ok := Measurement{Concurrency: 4, PromptTokens: 100, OutputTokens: 100, TTFTSeconds: 0.1, TPOTSeconds: 0.01}
	noConc, noLen := ok, ok
	noConc.Concurrency, noLen.OutputTokens = 0, 0
	for _, pts := range [][]Measurement{nil, {noConc}, {noLen}} {
		if _, err := Fit(in, h100SXM, pts); err == nil {
			t.Errorf("Fit(%+v): no error", pts)
		}
	}
	in.Engine = estimator.HF
	if _, err := Fit(in, h100SXM, []Measurement{ok}); err == nil {
		t.Error("HF: no error")
	}
}

// A calibration survives its link form (rounded) and its file form
// (exactly); bad forms and mismatches are InputErrors.
func TestCalibrationForms(t *testing.T) {
	c := Calibration{GPU: "h100-sxm", Engine: estimator.SGLang, Model: "llama-3.1-8b", TP: 2, Precision: "bf16", Source: "run.jsonl",
		Factors: Factors{RequestSeconds: 0.01623, InferenceMFU: 0.41234, BandwidthUtil: 0.7777}}
	s := c.Text()
	if s != "h100-sxm,sglang,16.2,0.412,0.778" {
		t.Errorf("Text = %q", s)
	}
	back, err := ParseCalibration(s)
	if err != nil || back.GPU != c.GPU || back.Engine != c.Engine || math.Abs(back.RequestSeconds-0.0162) > 1e-12 || back.InferenceMFU != 0.412 {
		t.Errorf("ParseCalibration(%q) = %+v, %v", s, back, err)
	}
	data, err := json.Marshal(c)
	if err != nil || !strings.Contains(string(data), `"engine":"sglang"`) || !strings.Contains(string(data), `"request_overhead_seconds":0.01623`) {
		t.Fatalf("%s %v", data, err)
	}
	var j Calibration
	if err := json.Unmarshal(data, &j); err != nil || j != c {
		t.Errorf("round trip %+v, %v", j, err)
	}
	for _, bad := range []string{"", "a,b", "h100-sxm,hf,1,0.5,0.5", "h100-sxm,vllm,x,0.5,0.5", "h100-sxm,vllm,1,0,0.5", "h100-sxm,vllm,1,0.5,1.5", ",vllm,1,0.5,0.5", "h,vllm,-1,0.5,0.5", "h,vllm,NaN,0.5,0.5"} {
		if _, err := ParseCalibration(bad); err == nil {
			t.Errorf("ParseCalibration(%q): no error", bad)
		}
	}
	for _, bad := range []string{`{}`, `{"gpu":"h100-sxm","engine":"vllm","inference_mfu":0.5,"bandwidth_util":0.5,"extra":1}`, `{"gpu":"h100-sxm","engine":"vllm","inference_mfu":2,"bandwidth_util":0.5}`} {
		if err := json.Unmarshal([]byte(bad), &j); err == nil {
			t.Errorf("Unmarshal(%s): no error", bad)
		}
	}
	in, eff := estimator.Input{Engine: estimator.SGLang}, estimator.Efficiency{BandwidthUtil: 0.5}
	if !c.ApplyTo("h100-sxm", &in, &eff) || in.RequestSeconds != c.RequestSeconds || eff.InferenceMFU != c.InferenceMFU || eff.BandwidthUtil != 0.5 {
		t.Errorf("ApplyTo: %+v %+v", in.RequestSeconds, eff)
	}
	if in, eff := (estimator.Input{Engine: estimator.VLLM}), (estimator.Efficiency{}); c.ApplyTo("h100-sxm", &in, &eff) || in.RequestSeconds != 0 || eff != (estimator.Efficiency{}) {
		t.Errorf("ApplyTo on another engine: %+v %+v", in.RequestSeconds, eff)
	}
	if err := c.Matches("h100-sxm", estimator.SGLang); err != nil {
		t.Error(err)
	}
	if err := c.Matches("h200", estimator.SGLang); !errors.Is(err, ErrCalibrationMismatch) {
		t.Errorf("mismatch: %v", err)
	}
}

// FuzzParse: any bytes either parse to runs that pass the range checks or
// return an InputError; never a panic.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"vllm_gptoss120b_b200_tp4.jsonl", "sglang_dsr1_b200_tp8.jsonl", "genai-perf-concurrency1/profile_export_genai_perf.csv", "plain.csv"} {
		f.Add(name, readFixture(f, name))
	}
	for _, s := range []string{"", "{", "[", "[{}]", `{"median_ttft_ms": NaN}`, `{"median_ttft_ms": 1e400, "median_tpot_ms": 1, "max_concurrency": 1e30}`,
		"Metric,avg\nTime To First Token (ms),\"1,0,0\"\n", "concurrency,ttft_ms,tpot_ms\n9999999999999,1,1\n", "concurrency,ttft_ms,tpot_ms,prompt_tokens\n1,1,1,1e300\n",
		`"unterminated`, "\xef\xbb\xbf{}", `{"a": "NaN\"Infinity"} NaN`} {
		f.Add("x-concurrency3.csv", []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		pts, _, err := Parse(name, data)
		if err != nil {
			var ie *estimator.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an InputError", err)
			}
			return
		}
		if len(pts) == 0 || len(pts) > MaxBenchmarkPoints {
			t.Fatalf("%d runs", len(pts))
		}
		for _, p := range pts {
			if err := p.check(); err != nil {
				t.Fatalf("%+v: %v", p, err)
			}
		}
	})
}

// FuzzParseCalibration: the link form either reads to a valid
// calibration whose own text reads back to the same, or errors.
func FuzzParseCalibration(f *testing.F) {
	f.Add("h100-sxm,vllm,16.2,0.412,0.78")
	f.Add("h,trtllm,0,1,1")
	f.Add("h,sglang,1e400,0.5,0.5")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCalibration(s)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		d, err := ParseCalibration(c.Text())
		if err != nil || d.GPU != c.GPU || d.Engine != c.Engine {
			t.Fatalf("%q -> %q: %+v %v", s, c.Text(), d, err)
		}
	})
}

// FuzzCalibrationJSON: a calibration file either reads to a valid
// calibration that writes back to the same, or errors.
func FuzzCalibrationJSON(f *testing.F) {
	f.Add([]byte(`{"gpu":"h100-sxm","engine":"vllm","request_overhead_seconds":0.016,"inference_mfu":0.5,"bandwidth_util":0.75}`))
	f.Add([]byte(`{"gpu":"h","engine":"sglang","model":"m","tp":2,"inference_mfu":1e-300,"bandwidth_util":1}`))
	f.Add([]byte(`{"gpu":"h","engine":"vllm","inference_mfu":NaN}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Calibration
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var d Calibration
		if err := json.Unmarshal(out, &d); err != nil || d != c {
			t.Fatalf("%s -> %s: %+v %v", data, out, d, err)
		}
	})
}

// Figures no real benchmark has are refused, each naming the run and
// the bound: a million requests in flight, lengths beyond the longest
// context, times that would be fitted and printed with a hundred digits,
// a range ratio outside [0, 1] (it was replaced by the default without a
// word), throughput beyond any deployment.
func TestParseRefusesAbsurdFigures(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"c.json", `{"max_concurrency": 1048576, "median_ttft_ms": 100, "median_tpot_ms": 10}`, "concurrency 1048576: want 1..4096"},
		{"c.json", `{"request_rate": "inf", "num_prompts": 10000, "median_ttft_ms": 100, "median_tpot_ms": 10}`, "concurrency 10000: want 1..4096"},
		{"l.json", `{"max_concurrency": 4, "random_input_len": 16777216, "random_output_len": 16777216, "median_ttft_ms": 100, "median_tpot_ms": 10}`,
			"16777216 + 16777216 tokens: want at most 10485760"},
		{"l.json", `{"max_concurrency": 4, "random_input_len": 10000000, "random_output_len": 1000000, "median_ttft_ms": 100, "median_tpot_ms": 10}`,
			"10000000 + 1000000 tokens: want at most 10485760"},
		{"r.json", `{"max_concurrency": 4, "random_input_len": 1024, "random_output_len": 128, "random_range_ratio": 5, "median_ttft_ms": 100, "median_tpot_ms": 10}`,
			"random_range_ratio 5: want a share in [0, 1]"},
		{"r.json", `{"max_concurrency": 4, "random_range_ratio": -0.5, "median_ttft_ms": 100, "median_tpot_ms": 10}`, "random_range_ratio -0.5"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms\n1,1e-150,3\n", "time to first token 1e-153 s: want 0.0001 to 86400 s"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms\n1,50,1e-150\n", "time per output token 1e-153 s: want 1e-05 to 60 s"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms\n1,1e9,5\n", "time to first token 1e+06 s"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms\n1,50,1e6\n", "time per output token 1000 s"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms,throughput_tok_s\n1,50,5,1e11\n", "throughput 1e+11 tokens/s: want 0 to 1e+08"},
		{"t.csv", "concurrency,ttft_ms,tpot_ms,prompt_tokens,output_tokens\n5000,50,5,100,100\n", "concurrency 5000: want 1..4096"},
	} {
		_, _, err := Parse(c.name, []byte(c.data))
		var ie *estimator.InputError
		if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 300 {
			t.Errorf("Parse(%.60q) = %v; want an InputError with %q", c.data, err, c.want)
		}
	}
	// The bounds themselves are real benchmarks.
	for _, data := range []string{
		`{"max_concurrency": 4096, "random_input_len": 1024, "random_output_len": 1024, "random_range_ratio": 1, "median_ttft_ms": 0.1, "median_tpot_ms": 0.01}`,
		`{"max_concurrency": 1, "random_input_len": 10485000, "random_output_len": 760, "random_range_ratio": 0, "median_ttft_ms": 86400000, "median_tpot_ms": 60000}`,
	} {
		if _, _, err := Parse("ok.json", []byte(data)); err != nil {
			t.Errorf("Parse(%s): %v", data, err)
		}
	}
}

// The fit's work is bounded whatever the runs: the longest runs the
// bounds allow stop at the fit's budget of scheduler events (the run
// that took 229 s before now takes a few seconds), and progress reaches
// its total.
func TestFitBoundedWork(t *testing.T) {
	in := estimator.DefaultInput(llama8B(t))
	in.Engine, in.VRAM = estimator.VLLM, 141*gib
	pts := []Measurement{
		{Concurrency: 4096, PromptTokens: 131072, OutputTokens: 32768, RangeRatio: 0.8, TTFTSeconds: 30, TPOTSeconds: 0.05, Median: true},
		{Concurrency: 1, PromptTokens: 10 << 20 / 2, OutputTokens: 10 << 20 / 2, RangeRatio: 1, TTFTSeconds: 600, TPOTSeconds: 0.02, Median: true},
	}
	var calls, last, total int
	start := time.Now()
	res, err := FitWith(in, h100SXM, pts, FitOptions{Progress: func(done, n int) {
		if done < last || done > n {
			t.Errorf("progress %d/%d after %d", done, n, last)
		}
		calls, last, total = calls+1, done, n
	}})
	took := time.Since(start)
	t.Logf("%v: %d simulations, %d events, %d progress calls, error %v", took, res.Simulations, res.events, calls, err)
	if err != nil {
		if !strings.Contains(err.Error(), "too large to simulate") {
			t.Fatal(err)
		}
	} else if res.events > fitMaxEvents || res.Simulations > fitMaxSimulations {
		t.Errorf("%d events, %d simulations: over the budget", res.events, res.Simulations)
	}
	if calls == 0 || total != fitMaxSimulations {
		t.Errorf("progress: %d calls, total %d", calls, total)
	}
	if took > 60*time.Second {
		t.Errorf("took %v", took)
	}
}
