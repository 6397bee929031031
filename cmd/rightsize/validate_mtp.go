package main

// The InferenceX aggregated rows that ran DeepSeek's MTP speculative
// decoding (inferencexMTPFile): replayed with the recipe's draft tokens,
// reported in groups of their own and broken down by engine, GPU and
// drafts (writeMTPSection).

import (
	"fmt"
	"io"
	"slices"
	"strconv"
)

// inferencexMTPFile holds the InferenceX aggregated rows that ran
// DeepSeek's MTP (vendor_mtp.py there): the recipe's draft tokens a step
// and stream interval, and the tokens a step the run accepted.
const inferencexMTPFile = "inferencex/inferencex_mtp_points.csv"

// The MTP rows' groups: the estimate at its default acceptance (what a
// user is told who names the recipe's drafts), and its TPOT at the
// acceptance the run measured, which leaves the step to be tested.
const (
	mtpTTFT       = "MTP load TTFT p50"
	mtpTPOT       = "MTP load TPOT p50"
	mtpThroughput = "MTP load throughput/GPU"
	mtpTPOTAtRun  = "MTP load TPOT p50, the run's acceptance"
)

func init() {
	i := slices.Index(valGroups, "load throughput/GPU")
	valGroups = slices.Insert(valGroups, i+1, mtpTTFT, mtpTPOT, mtpThroughput, mtpTPOTAtRun)
}

// inferencexMTPCases: each MTP row replayed with the recipe's draft
// tokens (--mtp-draft-tokens, vendor_mtp.py's recipe rule): its median
// TTFT and TPOT and its output tokens/s per GPU at the estimate's default
// acceptance, and its median TPOT again at the acceptance that gives the
// tokens a step the run accepted (--mtp-acceptance, acceptanceFor).
func inferencexMTPCases(dir string) ([]valCase, error) {
	rows, err := readCSV(dir, inferencexMTPFile)
	if err != nil {
		return nil, err
	}
	var out []valCase
	for _, r := range rows {
		args, ok := inferencexArgs(r)
		if !ok {
			continue
		}
		args = append(args, "--mtp-draft-tokens", r["draft_tokens"])
		if mtpWithoutSpecV2(r) {
			args = append(args, "--no-overlap-schedule")
		}
		tp, _ := strconv.Atoi(r["tp"])
		base, set := inferencexRow(r, inferencexMTPFile, args, "MTP "+r["draft_tokens"])
		add := func(group, what, field, col string, scale float64, unit string, extra ...string) {
			if v := num(r[col]); v > 0 {
				c := base
				c.Group, c.Setting, c.Field, c.Scale, c.Measured, c.Unit = group, set+", "+what, field, scale, v, unit
				c.Args = append(args[:len(args):len(args)], extra...)
				out = append(out, c)
			}
		}
		const perf = "performance."
		add(mtpTTFT, "median TTFT", perf+"serving.time_to_first_token_p50_seconds", "ttft_median_ms", 1000, "ms")
		add(mtpTPOT, "median TPOT", perf+"serving.decode_token_latency_p50_seconds", "tpot_median_ms", 1000, "ms")
		add(mtpThroughput, "output tok/s per GPU", perf+"tokens_per_second", "tput_per_gpu_output_tok_s", 1/float64(max(tp, 1)), "tok/s/GPU")
		d, _ := strconv.Atoi(r["draft_tokens"])
		if a, ok := acceptanceFor(d, num(r["accepted_tokens_per_step"])); ok {
			add(mtpTPOTAtRun, fmt.Sprintf("median TPOT at the run's %s tokens a step", r["accepted_tokens_per_step"]),
				perf+"serving.decode_token_latency_p50_seconds", "tpot_median_ms", 1000, "ms",
				"--mtp-acceptance", strconv.FormatFloat(a, 'f', 4, 64))
		}
	}
	return out, nil
}

// mtpWithoutSpecV2 reports whether row r's SGLang MTP recipe leaves
// SGLANG_ENABLE_SPEC_V2 out of the server's environment, so that SGLang
// runs EAGLE without its overlap scheduler (--no-overlap-schedule,
// estimator.Input.NoOverlapSchedule). InferenceX's DeepSeek-R1 FP8 scripts
// for B200 and B300 assign SGLANG_ENABLE_SPEC_V2=1 as a shell variable
// without export, which the python3 they start does not inherit
// (benchmarks/single_node/fixed_seq_len/dsr1_fp8_b200_mtp.sh since
// 2026-02-05 and dsr1_fp8_b300_mtp.sh since 2026-04-17, unchanged at
// 843c6254); the H200, B200 FP4, MI325X and MI355X scripts export it.
func mtpWithoutSpecV2(r map[string]string) bool {
	return r["framework"] == "sglang" && r["precision"] == "fp8" && (r["hardware"] == "b200" || r["hardware"] == "b300")
}

// acceptanceFor is the acceptance a (each draft accepted with probability
// a given the ones before) at which d drafts yield tau tokens a step, 1 +
// a + … + a^d = tau (the estimate's --mtp-acceptance), found by
// bisection; false where tau is not in (1, d + 1).
func acceptanceFor(d int, tau float64) (float64, bool) {
	if d < 1 || !(tau > 1 && tau < float64(d+1)) {
		return 0, false
	}
	lo, hi := 0.0, 1.0
	for range 60 {
		a, sum, p := (lo+hi)/2, 1.0, 1.0
		for range d {
			p *= (lo + hi) / 2
			sum += p
		}
		if sum < tau {
			lo = a
		} else {
			hi = a
		}
	}
	return (lo + hi) / 2, true
}

// writeMTPSection prints the MTP groups by engine, GPU and draft count,
// each split apart, under a note on how the rows are replayed.
func writeMTPSection(w io.Writer, cases []valCase) {
	t := breakdownTable(cases, func(c valCase) [][]string {
		if c.Source != inferencexMTPFile {
			return nil
		}
		return [][]string{{c.EngineID, c.GPU, argValue(c.Args, "--mtp-draft-tokens")}}
	})
	if len(t) == 0 {
		return
	}
	fmt.Fprintln(w, "\n## Speculative decoding (MTP) on one copy, by engine, GPU and drafts")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "InferenceX's single-node DeepSeek-R1 runs with MTP on SGLang and TensorRT-LLM (inferencex/inferencex_mtp_points.csv,")
	fmt.Fprintln(w, "`vendor_mtp.py`), replayed with the recipe's draft tokens (`--mtp-draft-tokens`: SGLang 2 on NVIDIA GPUs and 3 on")
	fmt.Fprintln(w, "AMD GPUs, TensorRT-LLM 3, or 1 with attention DP), SGLang FP8 on B200 and B300 without the overlap scheduler")
	fmt.Fprintln(w, "(`--no-overlap-schedule`: those two recipes set SGLANG_ENABLE_SPEC_V2=1 without exporting it, so SGLang runs")
	fmt.Fprintln(w, "EAGLE's first version, which turns the overlap off; the other recipes export it) and every other setting as the")
	fmt.Fprintln(w, "aggregated rows. No constant was")
	fmt.Fprintln(w, "fitted on them: 80% test, 20% held back. Three groups read the estimate at its default acceptance (DeepSeek-R1's")
	fmt.Fprintln(w, "measured tokens a step by draft count, 1.92 / 2.58 / 2.82 at 1 / 2 / 3 drafts, from a reasoning dataset); the")
	fmt.Fprintln(w, "fourth reads TPOT at the acceptance the run had (`--mtp-acceptance`), which isolates the draft-and-verify step:")
	fmt.Fprintln(w, "the client's mean inter-token latency over its mean TPOT is the tokens a streamed chunk holds, and the server")
	fmt.Fprintln(w, "streams a chunk every `--stream-interval` (SGLang) or `stream_interval` (TensorRT-LLM) steps, so that ratio over")
	fmt.Fprintln(w, "the recipe's interval is the tokens a step. These prompts are random tokens in a chat template: the runs accept")
	fmt.Fprintln(w, "1.8 tokens a step at one draft, 2.0–2.2 at two and 2.4–2.6 at three, under the table's figures. At that")
	fmt.Fprintln(w, "acceptance TensorRT-LLM's MTP rows read as its rows without MTP of the same layouts; SGLang's read fast by a")
	fmt.Fprintln(w, "step cost that grows with the requests decoding (a few ms a step at 4–16 in flight, tens at 64–512), which")
	fmt.Fprintln(w, "the step model does not have (testdata/calibration/README.md, hundred-fourteenth round). The overlap")
	fmt.Fprintln(w, "scheduler off takes the B200 and B300 rows' TPOT from 32.7 and 35.3% to 28.7 and 32.9% and their throughput")
	fmt.Fprintln(w, "from +50 and +57% to +39 and +37% (hundred-fifteenth round); the rest of the gap grows with the batch.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| group | engine | GPU | drafts | split | n | median \\|error\\| | median error |")
	fmt.Fprintln(w, "|---|---|---|---:|---|---:|---:|---:|")
	t.write(w)
}
