package estimator

// The cold first wave of a closed-loop serving benchmark: how much later
// than the simulated schedulers give them the first --max-concurrency
// requests of a benchmark_serving-style run get their first tokens. The
// simulator applies it as sim.Load.FirstWaveSeconds; `rightsize estimate`
// takes this table by default (--first-wave-seconds auto).
//
// An estimate, not a mechanism: an estimate of the first-use work the
// client's warm-up does not reach, fitted per GPU vendor because its
// cause was not found in the engines' source. What the calibration found
// (estimator/testdata/calibration/README.md, twelfth, twenty-first and
// thirty-fifth rounds): on AMD GPUs the measured first wave is a stall of
// 1–14 s carried by one or two requests, and SGLang builds AITER modules
// lazily inside the scheduler on first use (sgl-project/sglang PR #34586,
// 2026-08: 633 s for a cold cache of 16 modules on MI355X); on NVIDIA
// GPUs it is mostly a delay of the whole wave, 0.1–2 s, where the
// candidates are kernels compiled at first use for a batch's token count
// (Triton MoE variants per tile configuration and 16-divisibility: vLLM PR
// #55268, TensorRT-LLM PR #15311, 0.2–2 s a compile); and it moves with
// the release where no source says why (B300 SGLang v0.5.10.post1 →
// v0.5.12: 2.0 → 0.03 s; MI355X SGLang v0.5.9 → v0.5.12: 3.7 → 0.7 s). A
// production service that has been up for a while has no first wave: the
// open-loop (request-rate) simulations, the disaggregated simulation and
// the planner's steady-state sizing do not take it.
//
// Fitted on the fit rows only of SemiAnalysis InferenceX's single-node
// DeepSeek-R1 points that keep a mean TTFT
// (testdata/calibration/inferencex/inferencex_serving_points.csv, split
// "fit", 86 rows: SGLang v0.5.9–v0.5.12, and rows that name no image, on
// B200, B300, H200 (35 rows) and MI300X, MI325X, MI355X (29 rows);
// TensorRT-LLM 1.1.0rc2–1.3.0rc14 on B200 and H200 (22 rows)). Each cell
// is the delay, on a 0.05 s grid, that minimises the median |error| of
// the mean TTFT of its fit rows replayed by
// cmd/rightsize/validate_serving.go (testdata/calibration/README.md,
// sixty-eighth round). Finer tables fitted the fit rows and carried over
// worse: SGLang and TensorRT-LLM apart on NVIDIA (1.0 s and 1.05 s) put
// the test rows at 25.6% against this table's 24.4% and the p99 TTFT
// 2–20 points further off; the NVIDIA SGLang cell split by generation
// and release (Hopper 1.65 s, Blackwell 1.05 s, none before v0.5.9) at
// 28.8%. So the table keeps one cell a vendor.
//
// vLLM: none. No InferenceX vLLM row keeps a mean, and GPUStack's
// `vllm bench serve` runs (no warm-up) show a mean 1.05 × the median at 4
// in flight (DeepSeek-R1, 8 H200s) and a gap to the simulated mean flat
// from 1 to 8 in flight (Qwen3-8B, H100), which is a per-request cost, not
// a first wave.
const (
	// firstWaveNVIDIA: SGLang and TensorRT-LLM on NVIDIA GPUs (57 fit
	// rows; median |error| 0 s: 32.1%, 0.25 s: 22.8%, 0.45 s: 17.4%,
	// 0.5 s: 17.7%, 0.75 s: 19.7%, 1 s: 24.2%). The twelfth round's
	// 0.5 s, fitted on 58 of the same rows, is within a point.
	firstWaveNVIDIA = 0.45
	// firstWaveSGLangAMD: SGLang on AMD GPUs (29 fit rows; 0 s: 52.2%,
	// 2 s: 29.4%, 3 s: 20.6%, 3.35 s: 18.4%, 4 s: 21.0%, 5 s: 31.5%). The
	// measured excess there is mostly one or two requests' stall, so a
	// whole wave this late puts the simulated p99 above the measured one.
	firstWaveSGLangAMD = 3.35
)

// ColdFirstWaveSeconds is the estimated cold first wave of a closed-loop
// benchmark of engine e on a GPU of vendor ("NVIDIA", "AMD", as the
// catalog names them): seconds its first wave of requests reaches the
// engine late. 0 for engines and vendors the table has no rows for.
func ColdFirstWaveSeconds(e Engine, vendor string) float64 {
	switch {
	case e == SGLang && vendor == "AMD":
		return firstWaveSGLangAMD
	case (e == SGLang || e == TRTLLM) && vendor == "NVIDIA":
		return firstWaveNVIDIA
	}
	return 0
}
