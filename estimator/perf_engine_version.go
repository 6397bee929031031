package estimator

// Engine releases: whether a serving engine's host work per step (its
// scheduler, input preparation, sampler and output processing) runs while
// the GPU computes the previous step, or between steps.

import (
	"strconv"
	"strings"
)

// EngineVersion is a release of the engine, major.minor.patch; the zero
// value is the engine's current release (CurrentEngineVersion).
// Pre-release suffixes ("1.3.0rc14") are not kept.
type EngineVersion struct {
	Major, Minor, Patch int
}

// IsZero reports whether v is the zero value (the current release).
func (v EngineVersion) IsZero() bool { return v == EngineVersion{} }

// Less reports whether v is an earlier release than w.
func (v EngineVersion) Less(w EngineVersion) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// String returns "major.minor.patch", or "" for the zero value.
func (v EngineVersion) String() string {
	if v.IsZero() {
		return ""
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) + "." + strconv.Itoa(v.Patch)
}

// ParseEngineVersion reads "0.6.0", "v0.6.0", "0.5" or "1.3.0rc14" (the
// pre-release suffix is dropped); "" or "current" is the zero value.
func ParseEngineVersion(s string) (EngineVersion, error) {
	t := strings.TrimPrefix(strings.TrimSpace(strings.ToLower(s)), "v")
	if t == "" || t == "current" {
		return EngineVersion{}, nil
	}
	var v EngineVersion
	parts := strings.SplitN(t, ".", 3)
	for i, p := range parts {
		// Keep the leading digits of each part ("0rc14" → 0).
		n := 0
		for n < len(p) && p[n] >= '0' && p[n] <= '9' {
			n++
		}
		if n == 0 || (n < len(p) && (i < len(parts)-1 || !releaseSuffix(p[n:]))) {
			return EngineVersion{}, &InputError{Field: "engine-version", Value: s, Err: ErrUnknown,
				Reason: "want a release such as 0.6.0 or v0.5.12"}
		}
		x, err := strconv.Atoi(p[:n])
		if err != nil || x > 1<<20 {
			return EngineVersion{}, &InputError{Field: "engine-version", Value: s, Err: ErrUnknown,
				Reason: "want a release such as 0.6.0 or v0.5.12"}
		}
		switch i {
		case 0:
			v.Major = x
		case 1:
			v.Minor = x
		default:
			v.Patch = x
		}
	}
	if v.IsZero() {
		return EngineVersion{}, &InputError{Field: "engine-version", Value: s, Err: ErrRange, Reason: "want a release after 0.0.0"}
	}
	return v, nil
}

// releaseSuffix reports whether s, what follows a release's last number,
// is a pre-release, post-release or local tag (PEP 440: "rc14", "a1",
// "b2", "dev3", ".post1", "+cu121"; "-" as some builds write it): "1e400"
// is no release.
func releaseSuffix(s string) bool {
	for _, p := range []string{"rc", "a", "b", "alpha", "beta", "dev", "post", ".", "+", "-"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// CurrentEngineVersion is the release the model takes when
// Input.EngineVersion is zero: the newest release of each serving engine
// on record as of 2026-11: vLLM 0.33.0 (cut 2026-11-12: the
// vllm-project/vllm-torchtpu v0.33.0 release notes, 2026-11-17, "vLLM:
// v0.33.0 (was v0.32.0)"; projects pinning vllm==0.33.0, such as
// syv-ai/qwen38-27b-rtx3090 docs/vllm-0.33.md; 0.30.0 had been named the
// latest official release on 2026-09-23, AMD-AGI/TraceLens issue #1055;
// no version threshold of the model lies between them, and the
// calibration rows' newest image is vllm/vllm-openai:v0.22.0), SGLang
// 0.5.12 (its lmsysorg/sglang:v0.5.12 images in the InferenceX rows),
// TensorRT-LLM 1.3.0 (the 1.3.0 line: release candidates up to rc26 on
// record, the rows' 1.2–1.3 builds; no version threshold in the model
// lies between them). HF
// transformers (zero): its host figures are fitted on 4.46.3
// (bnb_optimum_benchmark.json) and its release does not enter the model
// yet; llama.cpp (zero) is versioned by build number.
func CurrentEngineVersion(e Engine) EngineVersion {
	switch e {
	case VLLM:
		return EngineVersion{0, 33, 0}
	case SGLang:
		return EngineVersion{0, 5, 12}
	case TRTLLM:
		return EngineVersion{1, 3, 0}
	}
	return EngineVersion{}
}

// EngineVersionOf is the engine release the speed model takes for in:
// Input.EngineVersion, or the engine's current release when it is zero.
func EngineVersionOf(in Input) EngineVersion { return engineVersion(in) }

// engineVersion is in's engine release: Input.EngineVersion, or the
// current release when it is zero.
func engineVersion(in Input) EngineVersion {
	if in.EngineVersion.IsZero() {
		return CurrentEngineVersion(in.Engine)
	}
	return in.EngineVersion
}

// First releases whose default engine loop prepares step n+1 on the host
// while the GPU runs step n (overlap, or asynchronous, scheduling; the
// idea of NanoFlow, Zhu et al. 2024, arXiv:2408.12757):
//   - SGLang 0.4.0: the "zero-overhead batch scheduler" runs one batch
//     ahead of the GPU (LMSYS blog, "SGLang v0.4", 2024-12-04: "an
//     unoptimized inference engine can spend as much as half of its time
//     on CPU overhead"; its Nsight trace shows no idle GPU time between
//     decode steps).
//   - vLLM 0.8.0: the V1 engine by default (vLLM blog, "vLLM V1: A Major
//     Upgrade to vLLM's Core Architecture", 2025-01-27): the scheduler and
//     model runner run in their own EngineCore process with a persistent
//     batch, while tokenisation, detokenisation and streaming run in the
//     API server's process beside it. Measured without async scheduling
//     (GPUStack's performance lab, gpustack/gpustack_serving_points.csv:
//     vLLM 0.11.0 Qwen3-8B on an H100 at 1–8 requests in flight, TPOT
//     7.2–7.7 ms; the device step is 7.5 ms), the step is the device's, not
//     device + servingStepFloor (11.5 ms, +57%). Async scheduling (opt-in
//     from v0.10, vllm-project/vllm#19970; the default from v0.14.0,
//     vllm-project/vllm#27614) overlaps the rest.
//   - TensorRT-LLM: its overlap scheduler is on by default (TensorRT-LLM
//     docs, "Overlap Scheduler": "CPU work (step n) and GPU computation
//     (step n+1) run concurrently"); no older release is measured, so
//     every release is taken as overlapping.
var (
	sglangOverlapSince = EngineVersion{0, 4, 0}
	vllmOverlapSince   = EngineVersion{0, 8, 0}
	// vllmAsyncSince is the first vLLM release that schedules
	// asynchronously by default (vllm-project/vllm#27614).
	vllmAsyncSince = EngineVersion{0, 14, 0}
)

// vllmSequenceGapSeconds is the host time per running sequence that vLLM's
// V1 engine spends between two GPU steps without async scheduling: its
// EngineCore schedules step n+1, prepares its inputs and applies step n's
// sampled tokens (scheduler, input batch and output updates, each a loop
// over the running requests) after step n's sampled tokens reach the host,
// while the GPU waits. Measured on the V1 engine: "on Llama2-7b, bs=256,
// … ShareGPT … the gap between the two decodes … is about 5-6ms"
// (vllm-project/vllm#10634, 2024-11-25), and 150–170 µs with the
// scheduling made asynchronous (vllm-project/vllm#11133, the same batch);
// (5.5 − 0.16) ms / 256 = 21 µs a sequence. Not fitted: the GPUStack
// vLLM 0.10–0.11 rows are its test (testdata/calibration/README.md,
// hundredth round). At 1–8 sequences it is under 0.2 ms, as the Qwen3-8B
// rows above measured no gap.
const vllmSequenceGapSeconds = 21e-6

// vllmSequenceGap is the host seconds per running sequence that in's
// engine adds to every step (vllmSequenceGapSeconds): vLLM's V1 engine
// (0.8.0 on) before its asynchronous scheduling, by default (0.14.0) or
// by --async-scheduling (Input.AsyncScheduling); 0 otherwise. Releases
// before 0.8 run their host work between the steps already
// (overlapsHost).
func vllmSequenceGap(in Input) float64 {
	v := engineVersion(in)
	if in.Engine != VLLM || in.AsyncScheduling || v.Less(vllmOverlapSince) || !v.Less(vllmAsyncSince) {
		return 0
	}
	return vllmSequenceGapSeconds
}

// vllmFrontEndTokenSeconds is the API server's time per streamed output
// token in vLLM's V1 engine: its API server process, beside the engine
// core, detokenises every request's new tokens and streams them in one
// Python loop per engine step (vllm-project/vllm vllm/v1/engine/
// output_processor.py, "the only function that should loop over
// EngineCoreOutputs"), and one such process serves a copy unless
// --api-server-count runs more (vllm-project/vllm#17546, 2025-05-01,
// whose RFC #12705 names the one process's CPU as the limit; with
// attention data parallelism behind vLLM's internal load balancer the
// count defaults to the DP size: vllm/entrypoints/cli/serve.py, "Internal
// LB: Use full DP size", read in the current tree, after the per-node load
// balancing of vllm-project/vllm#21238, 2025-07; earlier releases are
// taken alike, an estimate). The engine core does not wait for it, so at
// hundreds of streams the client receives each token at the server's
// pace: InferenceX's gpt-oss-120b on four B200s (vLLM 0.22, 1k/1k) decodes
// 512 streams at 22.5 ms a token where the step model gives 8.9 ms, 256 at
// 14.6 (7.7), 128 at 8.1 (7.1). Fitted, an estimate: the per-token cost
// that minimises the mean |error| of the fit rows' TPOT where the floor
// binds (those B200 rows at 256 and 512 in flight and GPUStack's
// gpt-oss-120b H100 page; 40, 45, 50, 60 µs: 17.9, 13.2, 14.3, 16.9%,
// 42.5% without; testdata/calibration/README.md, hundred-fourth round).
// It binds only where the GPU's step is shorter than 45 µs a stream:
// small or sparse models at hundreds of streams.
const vllmFrontEndTokenSeconds = 45e-6

// vllmFrontEndToken is the streamed token's front-end seconds over the
// copy's API servers for in's engine and release: vLLM's V1 engine (0.8.0
// on; before it detokenisation ran in the engine's loop, inside
// servingStepFloor) behind its API server (not Input.Offline), one API
// server per attention-DP rank; 0 otherwise (SGLang and TensorRT-LLM: no
// row measures theirs).
func vllmFrontEndToken(in Input) float64 {
	if in.Engine != VLLM || in.Offline || engineVersion(in).Less(vllmOverlapSince) {
		return 0
	}
	return vllmFrontEndTokenSeconds / dpRanks(in)
}

// overlapsHost reports whether in's serving engine hides its per-step
// host work under the GPU's step (the step is the longer of the two) or
// runs it between steps (the step is their sum): see the releases above,
// and Input.NoOverlapSchedule, which turns SGLang's and TensorRT-LLM's
// overlap scheduler off.
func overlapsHost(in Input) bool {
	if in.NoOverlapSchedule {
		return false
	}
	v := engineVersion(in)
	switch in.Engine {
	case SGLang:
		return !v.Less(sglangOverlapSince)
	case VLLM:
		return !v.Less(vllmOverlapSince)
	}
	return true
}
