package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHostileFlags: values a user may type that no plan can honour, files
// that never end and flags the workload would ignore exit 2 with one line
// naming the flag, promptly.
func TestHostileFlags(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), maxConfigBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5e17"}, "--requests-per-second 5e17"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "1e18"}, "--requests-per-second 1e18"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "2M"}, "--requests-per-second 2M"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--max-instances", "10000"}, "--max-instances 10000"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests", "1M", "--ttft-p95", "1s", "--tpot", "50ms"}, "--tpot, --ttft-p95: not used by a batch plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--global-batch-tokens", "4M"}, "--global-batch-tokens: not used by a serving plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--train-tokens", "1B", "--api-input-price", "1"}, "--api-input-price: not used by a training plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests", "5", "--no-such-flag", "1"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"estimate", "--config", big}, "larger than 256 KiB"},
		// A kind no provider has, a negative node size and the
		// benchmark's own flags were taken without a word: the plan
		// came back empty, or as if they had not been given.
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--kind", "gpucloud"}, `--kind: "gpucloud": not a provider kind`},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--gpus-per-node", "-1"}, "--gpus-per-node -1: want ≥ 1"},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--disagg", "--gpus-per-node", "-8"}, "--gpus-per-node -8: want ≥ 1"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--engine", "vllm", "--num-requests", "500", "--range-ratio", "1"}, "--num-requests, --range-ratio: not used by a plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests", "1M", "--steady-state"}, "--steady-state: not used by a plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--deadline", "1s"}, "--deadline: not used by a serving plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--vram", "1TB"}, "--vram: not used by a plan, which takes each offer's GPU memory"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--restart", "5m"}, "--restart: not used by a serving plan"},
		{[]string{"plan", "--model", "llama-3.1-8b", "--requests-per-second", "5", "--lora-rank", "64"}, "--lora-rank: the adapters of --task lora or qlora; --task inference has none"},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--lora-targets", "all-linear", "--lora-rank", "-1"}, "--lora-rank, --lora-targets: the adapters of --task lora or qlora"},
		// simulate checked neither its SLO nor the job as estimate does.
		{[]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--concurrencies", "4", "--slo-ttft", "NaN"}, "slo-ttft=NaN: out of range"},
		{[]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--rate", "5", "--slo-tpot", "-0.05"}, "slo-tpot=-0.05: out of range"},
		{[]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--gpus", "-1"}, "gpus=-1: out of range"},
		{[]string{"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--tp", "2", "--gpus", "1"}, "gpus=1: incompatible"},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"estimate", "--config", "/dev/zero"}, "/dev/zero: larger than 256 KiB"})
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		start := time.Now()
		code := run(tc.args, &out, &errb)
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%q took %v", tc.args, took)
		}
		if code != 2 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want one line with %q", tc.args, code, errb.String(), tc.want)
		}
	}
	// The largest bounds still plan.
	var out, errb bytes.Buffer
	if code := run([]string{"plan", "--model", "qwen2.5-0.5b", "--requests-per-second", "5", "--max-instances", "8192", "--top", "1"}, &out, &errb); code != 0 {
		t.Errorf("--max-instances 8192: exit %d: %s", code, errb.String())
	}
}

// TestPlanAmountAndProviderFlags: an amount beyond any bill is refused
// at its flag with a short echo of the value, and a provider the
// catalog does not list is an error naming the known ones.
func TestPlanAmountAndProviderFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--requests", "1000", "--budget", "1e308"}, []string{`--budget: "1e308": want a number from 0 to 1e+15`}},
		{[]string{"--requests-per-second", "1", "--min-ram", "1e308"}, []string{`--min-ram: "1e308": want a number from 0 to 1e+15`}},
		{[]string{"--requests", "1000", "--provider", "../../x"}, []string{`--provider: "../../x": not a catalog provider; known: `, "aws", "lambda"}},
		{[]string{"--requests", "1000", "--provider", "aws,nosuch"}, []string{`"nosuch": not a catalog provider`}},
	} {
		_, errs, code := runCLI(append([]string{"plan", "--model", "llama-3.1-8b", "--top", "1"}, c.args...)...)
		if code != 2 || strings.Count(errs, "\n") != 1 || len(errs) > 2000 {
			t.Errorf("%v: code %d, stderr %q", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q, want %q", c.args, errs, w)
			}
		}
	}
	// A known provider in any case plans.
	out, errs, code := runCLI("plan", "--model", "llama-3.1-8b", "--requests", "1000", "--provider", "AWS", "--top", "1", "--format", "json")
	if code != 0 || !strings.Contains(out, `"provider": "aws"`) {
		t.Errorf("--provider AWS: code %d, %s", code, errs)
	}
}

// TestEfficiencyFlagsChecked: the efficiency and hardware flags refuse
// NaN, infinities and values out of range by their own names in every
// command that takes them, with or without --gpu (without it NaN was
// accepted, since no speed model read it).
func TestEfficiencyFlagsChecked(t *testing.T) {
	cmds := map[string][]string{
		"estimate":          {"estimate", "--model", "llama-3.1-8b"},
		"estimate with GPU": {"estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm"},
		"plan":              {"plan", "--model", "llama-3.1-8b", "--requests", "1000"},
		"simulate":          {"simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--concurrencies", "1"},
	}
	for _, c := range []struct{ flag, value, want string }{
		{"--mfu", "NaN", "--mfu NaN: want a share of peak FLOP/s in [0, 1]"},
		{"--mfu", "1.5", "--mfu 1.5: want a share of peak FLOP/s in [0, 1]"},
		{"--inference-mfu", "Inf", "--inference-mfu +Inf: want a share of peak FLOP/s"},
		{"--bandwidth-util", "-3", "--bandwidth-util -3: want a share of memory bandwidth in [0, 1]"},
		{"--host-op-us", "NaN", "--host-op-us NaN: want microseconds per op from 0 to 1e6"},
		{"--network-gbps", "NaN", "--network-gbps NaN: want Gbit/s per node from 0 to 1e6"},
		{"--network-gbps", "-5", "--network-gbps -5: want Gbit/s per node"},
		{"--gpu-mem-util", "-0.1", "--gpu-mem-util -0.1: want a share of GPU memory in [0, 1]"},
		{"--range-ratio", "5", "--range-ratio 5: want a share in [0, 1]"},
		{"--request-overhead", "NaN", "--request-overhead NaN: want seconds from 0 to 3600"},
	} {
		for name, cmd := range cmds {
			_, errs, code := runCLI(append(append([]string{}, cmd...), c.flag, c.value)...)
			if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%s %s %s: code %d, %q; want %q", name, c.flag, c.value, code, errs, c.want)
			}
		}
	}
	// In range, they run.
	if _, errs, code := runCLI("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm", "--mfu", "0.4",
		"--inference-mfu", "1", "--bandwidth-util", "0.8", "--host-op-us", "20", "--network-gbps", "3200", "--range-ratio", "0"); code != 0 {
		t.Errorf("in range: %s", errs)
	}
}

// TestLoadCurveFlag: a list of rates that is not 24 long says it needs
// 24 (23 or 25 were looked up as a file name), and a load-curve CSV that
// starts with a UTF-8 byte order mark reads as without one.
func TestLoadCurveFlag(t *testing.T) {
	rates := func(n int) string {
		r := make([]string, n)
		for i := range r {
			r[i] = strconv.Itoa(1 + i%5)
		}
		return strings.Join(r, ",")
	}
	base := []string{"plan", "--model", "qwen2.5-0.5b", "--gpu", "l4", "--fleet-offers", "1", "--top", "1"}
	for _, c := range []struct{ curve, want string }{
		{rates(23), "--load-curve: 23 rates: want 24, one per hour from 00:00"},
		{rates(25), "--load-curve: 25 rates: want 24, one per hour from 00:00"},
		{"5", "--load-curve: 1 rates: want 24"},
	} {
		_, errs, code := runCLI(append(base, "--load-curve", c.curve)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("--load-curve %s: code %d, %q; want %q", c.curve, code, errs, c.want)
		}
	}
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("hour,requests_per_second\r\n")
	for h := range 24 {
		fmt.Fprintf(&csv, "%d,%d\r\n", h, 1+h%5)
	}
	plain, bom := filepath.Join(dir, "curve.csv"), filepath.Join(dir, "bom.csv")
	if err := os.WriteFile(plain, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bom, []byte("\ufeff"+csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, errs, code := runCLI(append(base, "--format", "json", "--load-curve", plain)...)
	if code != 0 {
		t.Fatalf("curve.csv: %s", errs)
	}
	got, errs, code := runCLI(append(base, "--format", "json", "--load-curve", bom)...)
	if code != 0 || got != want {
		t.Errorf("with a byte order mark: code %d, %s; the plan differs from the file's without", code, errs)
	}
	if list, _, _ := runCLI(append(base, "--format", "json", "--load-curve", rates(24))...); list != want {
		t.Error("the CSV and the list of the same rates plan differently")
	}
}

// TestRestartFlagRead: --restart is read by a batch plan (a spot
// reclaim's restart in its expected cost) and by the daily fleet (a new
// replica's start-up); both were refused as "not used", so neither could
// be changed from 10 minutes. A serving plan without a fleet refuses it.
func TestRestartFlagRead(t *testing.T) {
	batch := func(restart string) float64 {
		args := []string{"--model", "llama-3.1-8b", "--requests", "1M", "--gpu", "h100-sxm", "--provider", "aws", "--top", "0"}
		if restart != "" {
			args = append(args, "--restart", restart)
		}
		p := planJSONOf(t, args...)
		for _, r := range p.Rows {
			if r.Fits && r.SpotExpectedCostUSD > 0 {
				return r.SpotExpectedCostUSD
			}
		}
		t.Fatalf("no fitting spot row: %+v", p.Rows)
		return 0
	}
	if long, short := batch("2h"), batch(""); !(long > short) {
		t.Errorf("batch spot expected cost %.4g USD with --restart 2h, %.4g with the default 10m: want it dearer", long, short)
	}
	code, out, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--restart", "5m",
		"--load-curve", "1,1,1,1,1,1,2,4,8,10,12,12,12,12,10,8,6,4,3,2,2,1,1,1")
	if code != 0 || !strings.Contains(out, "Start-up 300 s per new replica") {
		t.Errorf("fleet with --restart 5m: exit %d, stderr %q, want its start-up 300 s in:\n%s", code, errs, out)
	}
}
