package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/sim"
)

// TestEstimateColdFirstWave: a closed-loop estimate takes the estimator's
// cold first wave by default (--first-wave-seconds auto:
// estimator.ColdFirstWaveSeconds, 0.45 s for SGLang and TensorRT-LLM on
// NVIDIA GPUs, 3.35 s for SGLang on AMD GPUs, none for vLLM); 0 turns it
// off, a number overrides it, and the mean TTFT moves by the wave × 32 /
// 320 requests while the median does not.
func TestEstimateColdFirstWave(t *testing.T) {
	type run struct {
		ttft, p50, wave float64
		serving         bool
	}
	get := func(engine, gpu string, extra ...string) run {
		t.Helper()
		ttft, s := estimateServing(t, append([]string{"--gpu", gpu, "--engine", engine}, extra...)...)
		r := run{ttft: ttft, serving: s != nil}
		if r.serving {
			r.p50 = s["time_to_first_token_p50_seconds"].(float64)
			r.wave, _ = s["first_wave_seconds"].(float64)
		}
		return r
	}
	for _, c := range []struct {
		engine, gpu string
		want        float64
	}{{"sglang", "h100-sxm", 0.45}, {"trtllm", "h100-sxm", 0.45}, {"sglang", "mi300x", 3.35}, {"vllm", "h100-sxm", 0}} {
		def, auto, off, given := get(c.engine, c.gpu), get(c.engine, c.gpu, "--first-wave-seconds", "auto"),
			get(c.engine, c.gpu, "--first-wave-seconds", "0"), get(c.engine, c.gpu, "--first-wave-seconds", "1.5")
		if def != auto || def.wave != c.want || off.wave != 0 || given.wave != 1.5 {
			t.Errorf("%s on %s: first wave by default %v s, auto %v, 0 → %v, 1.5 → %v; want %v", c.engine, c.gpu, def.wave, auto.wave, off.wave, given.wave, c.want)
		}
		for _, r := range []run{def, given} {
			if d := r.ttft - off.ttft; math.Abs(d-r.wave*32/320) > 1e-6 || math.Abs(r.p50-off.p50) > 1e-9 {
				t.Errorf("%s on %s, wave %v s: mean TTFT +%v s, want +%v; p50 %v, without %v", c.engine, c.gpu, r.wave, d, r.wave*32/320, r.p50, off.p50)
			}
		}
	}
	// The text says so, and says nothing without a wave.
	for wave, want := range map[string]string{"auto": "first wave 0.45 s late", "0": ""} {
		var out, errb bytes.Buffer
		if code := runEstimate([]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "sglang", "--batch", "32", "--first-wave-seconds", wave}, &out, &errb); code != 0 {
			t.Fatalf("text, wave %s: exit %d: %s", wave, code, errb.String())
		}
		if got := strings.Contains(out.String(), "first wave"); got != (want != "") || !strings.Contains(out.String(), want) {
			t.Errorf("text, wave %s: want %q:\n%s", wave, want, out.String())
		}
	}
	// The closed form has no run and no wave.
	if ss := get("sglang", "h100-sxm", "--steady-state"); ss.serving {
		t.Errorf("--steady-state: a serving block")
	}
	for _, bad := range []string{"-1", "soon", "NaN", "3601"} {
		var out, errb bytes.Buffer
		if code := runEstimate([]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "sglang", "--first-wave-seconds", bad}, &out, &errb); code != 2 ||
			!strings.Contains(errb.String(), "want auto or seconds from 0 to 3600") {
			t.Errorf("--first-wave-seconds %s: exit %d, %q", bad, code, errb.String())
		}
	}
}

// TestSimulateColdFirstWave: simulate's closed-loop curve takes the same
// default wave; its open-loop request rates, a service in its steady
// state, take none whatever the flag says.
func TestSimulateColdFirstWave(t *testing.T) {
	get := func(extra ...string) []map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		args := append([]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "sglang", "--prompt-tokens", "2000",
			"--output-tokens", "300", "--format", "json"}, extra...)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var r struct {
			Points []map[string]any `json:"points"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Points) != 1 {
			t.Fatalf("%v: %v, %d points", args, err, len(r.Points))
		}
		return r.Points
	}
	mean := func(p []map[string]any) float64 { return p[0]["ttft_seconds"].(map[string]any)["mean"].(float64) }
	if d := mean(get("--concurrencies", "32")) - mean(get("--concurrencies", "32", "--first-wave-seconds", "0")); math.Abs(d-0.45*32/320) > 1e-6 {
		t.Errorf("closed loop at 32: the default wave moves the mean TTFT by %v s, want %v", d, 0.45*32/320)
	}
	if a, b := mean(get("--rates", "5")), mean(get("--rates", "5", "--first-wave-seconds", "2")); a != b {
		t.Errorf("open loop at 5 req/s: mean TTFT %v by default, %v with a 2 s wave; want the same", a, b)
	}
}

// TestCalibrationTakesNoFirstWave: a calibration's factors were fitted
// without a cold first wave (sim.Fit), so the request cost it carries
// holds whatever cold start the measured means had; applying it sets the
// wave to 0 unless --first-wave-seconds is given (SGLang on H100, whose
// estimated wave is 0.45 s).
func TestCalibrationTakesNoFirstWave(t *testing.T) {
	cal := sim.Calibration{GPU: "h100-sxm", Engine: estimator.SGLang, Model: "llama-3.1-8b", TP: 1, Precision: "bf16",
		Factors: sim.Factors{RequestSeconds: 0.05, InferenceMFU: 0.4, BandwidthUtil: 0.7}}
	data, err := json.Marshal(cal)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cal.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wave := func(extra ...string) float64 {
		t.Helper()
		_, s := estimateServing(t, extra...)
		if s == nil {
			t.Fatalf("%v: no serving block", extra)
		}
		w, _ := s["first_wave_seconds"].(float64)
		return w
	}
	if w := wave("--gpu", "h100-sxm", "--engine", "sglang"); w != 0.45 {
		t.Errorf("without the calibration: first wave %v s, want 0.45", w)
	}
	if w := wave("--calibration", file); w != 0 {
		t.Errorf("with the calibration: first wave %v s, want 0", w)
	}
	if w := wave("--calibration", file, "--first-wave-seconds", "0.7"); w != 0.7 {
		t.Errorf("with the calibration and --first-wave-seconds 0.7: %v s", w)
	}
}

// estimateServing runs estimate --json for Llama 3.1 8B with 2,000-token
// prompts, 300 generated tokens and 32 in flight, and extra flags: the
// mean TTFT and the simulated benchmark's block (nil under
// --steady-state).
func estimateServing(t *testing.T, extra ...string) (ttft float64, serving map[string]any) {
	t.Helper()
	args := append([]string{"--model", "llama-3.1-8b", "--prompt-tokens", "2000", "--output-tokens", "300", "--batch", "32", "--json"}, extra...)
	var out, errb bytes.Buffer
	if code := runEstimate(args, &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	var m struct {
		Performance struct {
			TTFT    float64        `json:"time_to_first_token_seconds"`
			Serving map[string]any `json:"serving"`
		} `json:"performance"`
	}
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out.String())
	}
	return m.Performance.TTFT, m.Performance.Serving
}
