package estimator

// Disaggregated serving: prefill and decode on separate workers that hand
// each request's KV cache over the network (Zhong et al. 2024,
// "DistServe: Disaggregating Prefill and Decoding for Goodput-optimized
// Large Language Model Serving", OSDI; Patel et al. 2024, "Splitwise:
// Efficient Generative LLM Inference Using Phase Splitting", ISCA; SGLang's
// PD disaggregation, NVIDIA Dynamo's disaggregated serving, DeepSeek's
// inference system overview of 2025-03-01: prefill and decode instances of
// their own layouts). A replica is P prefill workers and D decode workers,
// each worker one engine instance of its own TP/DP/EP layout.
//
// A request queues for a prefill worker, is prefilled there (in a batch
// with the prompts that queued with it; under attention DP each prompt on
// one rank, rankSkewSeconds), its KV cache goes to a decode worker, which
// admits it in its own loop (decodeAdmissionSteps), and it joins that
// worker's running batch: TTFT = fixed per-request cost + queue + prefill
// + KV transfer + the decode worker's admission (the first token at the
// join, steady's comment: the engines stream the token the prefill made
// once the request holds a decode slot and its KV, before its first
// decode step, which yields the second token; DistServe §3 ends TTFT with
// that step). Each worker's steps are the existing
// forward-pass model (ServingModel.StepSeconds: the roofline, per-layer
// cost, TP/EP collectives and engine floor the aggregated estimate uses),
// on its own layout. The client keeps C requests in flight (closed loop),
// so by Little's law (Little 1961) C = λ × (TTFT + (OSL − 1) × TPOT) at
// the completion rate λ, which is at most the slower side's capacity.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// DisaggSide is one side's workers: how many, and each one's layout.
type DisaggSide struct {
	Workers    int // engine instances on this side
	TP, DP, EP int // each worker's tensor, attention data and expert parallel degrees (as Input's)
	// RedundantExperts is each worker's extra expert copies over its EP
	// ranks (as Input's): a wide-EP decode worker of 48 GPUs serves
	// DeepSeek's 256 experts with 32 of them (288 = 48 × 6; SGLang
	// --ep-num-redundant-experts 32 in NVIDIA Dynamo's GB200 DeepSeek-R1
	// recipe).
	RedundantExperts int
	// Batch caps each worker: prompts in one prefill forward (0: one
	// prompt), or requests decoding together, the rest waiting for a
	// slot (0: no cap beyond every request the client keeps in flight,
	// or at a Rate, what the worker's KV pool holds).
	Batch int
	// MemShare is each worker's engine memory share (as
	// Input.GPUMemUtil); 0: the model input's. A planner that gives the
	// sides layouts of their own sets the share each layout runs at
	// (SGLang's attention-DP workers at the recipes' share,
	// EngineShareFor) on its side alone.
	MemShare float64
	// MoEA2A is each worker's SGLang expert exchange under attention DP
	// (as Input.MoEA2A); "": the model input's. NVIDIA's GB200 FP4
	// recipes run their prefill workers without DeepEP (--ep-size 4,
	// no --moe-a2a-backend) and their decode workers with it.
	MoEA2A string
}

// Disagg is a disaggregated replica serving a closed-loop client.
type Disagg struct {
	Prefill, Decode DisaggSide
	Concurrency     int // requests in flight on the replica
	// KVBandwidth is the bytes/s of one GPU's link the KV cache crosses
	// from a prefill GPU to a decode GPU, one direction. 0: the NVLink
	// figure where both sides' GPUs fit one NVLink domain (a GB200 NVL72
	// rack), the network's per-GPU figure otherwise.
	KVBandwidth float64
	// KVLatencySeconds is each request's fixed handover cost (the
	// transfer engine's bootstrap and the decode worker's admission); 0:
	// DisaggHandoverSeconds.
	KVLatencySeconds float64
	// PrefillHandoverSeconds is the prefill worker's own time on each
	// prompt's handover besides its forward; 0: the engine's figure
	// (PrefillHandoverSeconds: 15 ms on SGLang, none on the others).
	PrefillHandoverSeconds float64
	// RequestSeconds is the engine's fixed cost per request outside the
	// GPU's steps (the simulator's Policy.RequestSeconds); 0: none.
	RequestSeconds float64
	// DraftTokens is speculative decoding with the model's own
	// multi-token-prediction module (Arch.MTPLayers; DeepSeek-V3 MTP as
	// SGLang runs it, --speculative-algorithm EAGLE
	// --speculative-num-steps d, and TensorRT-LLM, speculative_config
	// decoding_type MTP num_nextn_predict_layers d): each decode step
	// drafts d tokens with the MTP block, one block per token, and the
	// model verifies the d + 1 tokens in one forward. 0: none.
	DraftTokens int
	// Acceptance is the probability that a draft token is accepted when
	// the ones before it were; 0: the measured acceptance by draft
	// position where one is published for the model's module
	// (mtpAcceptedTokens), else MTPAcceptance for every draft.
	Acceptance float64
	// Rate, when positive, is the replica's completion rate in requests/s
	// (an open loop, as a planner sizes a fleet): the steady state is the
	// one at that rate, Concurrency is not read, and each decode worker
	// holds as many requests as its KV pool holds, at most Decode.Batch
	// where that is set. A rate at or above either side's capacity is
	// refused.
	Rate float64
	// Quantile is the quantile of TTFT and TPOT over the requests that
	// DisaggPoint.TTFTAtSeconds and TPOTAtSeconds report (0.95 for a
	// p95 SLO; 0: the means): a planner sizes on the statistic the SLOs
	// name (disagg_quantile.go).
	Quantile float64
}

// maxDraftTokens is the most draft tokens a speculative decode step takes
// (Input.DraftTokens, Disagg.DraftTokens): the engines' recipes use 1 to 4.
const maxDraftTokens = 16

// MTPAcceptance is the acceptance of every draft where none is given
// (Input.DraftAcceptance, Disagg.Acceptance) and the model's module has
// no measured table (mtpAcceptedTokens): DeepSeek-V3's report
// (arXiv:2412.19437 §5.4.3) measures "the acceptance rate of the second
// token prediction ranges between 85% and 90%"; the lower end is taken.
const MTPAcceptance = 0.85

// acceptedTokens is the tokens one verify step yields with d drafts each
// accepted with probability a given the ones before: 1 + a + … + a^d =
// (1 − a^(d+1))/(1 − a) (Leviathan et al. 2023, "Fast Inference from
// Transformers via Speculative Decoding", ICML, Eq. 1, with a fixed
// acceptance rate).
func acceptedTokens(d int, a float64) float64 {
	if d <= 0 {
		return 1
	}
	if a >= 1 {
		return float64(d + 1)
	}
	return (1 - math.Pow(a, float64(d+1))) / (1 - a)
}

// deepSeekMTPPrefix is P(the first k drafts are all accepted), k = 1..5,
// for DeepSeek-R1's MTP module run as a chain (the one module run k times,
// strict top-1 acceptance), from the mean accepted tokens per step NVIDIA
// measured at 1 to 5 drafts on TensorRT-LLM: 1.92, 2.58, 2.82, 2.99, 3.01
// (NVIDIA/TensorRT-LLM docs/source/blogs/tech_blog/blog1_Pushing_Latency_
// Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md,
// table "Autoregressive MTP Layers", column "Acceptance Rate", and
// "MTP3_top1, d0.0 2.82" in the relaxed-acceptance table; DeepSeek-R1 FP4
// on 8 B200, ISL/OSL 1k/2k, batch 1; published 2025). A chain draft's k-th
// token is drafted the same way whatever the count after it, so the k-th
// term is the difference of consecutive rows: 0.92, 0.66, 0.24, 0.17, 0.02
// (per position given the ones before: 0.92, 0.72, 0.36, 0.71, 0.12 — the
// later rows are separate runs of ten requests, so only their sums are read
// as measured). What is accepted is the module's prediction against the
// model's own greedy token, which the engine does not change: SGLang's
// EAGLE worker with --speculative-eagle-topk 1 and vLLM's deepseek_mtp
// proposer run the same chain and verify the same way, so every engine
// reads the one table.
var deepSeekMTPPrefix = [...]float64{0.92, 0.66, 0.24, 0.17, 0.02}

// mtpAcceptedTokens is the tokens one verify step yields with d drafts:
// with an acceptance a given (Input.DraftAcceptance, Disagg.Acceptance),
// acceptedTokens(d, a); else, for a DeepSeek-V3-family model (DeepSeek-R1's
// MTP head), 1 + Σ_{k≤d} P(first k accepted) from the measured table
// (drafts past the table's fifth add nothing: its fifth adds 0.02); else
// acceptedTokens(d, MTPAcceptance), on every engine (deepSeekMTPPrefix).
func mtpAcceptedTokens(a Arch, d int, acc float64) float64 {
	if acc > 0 || d <= 0 {
		return acceptedTokens(d, acc)
	}
	if deepSeekMTP(a) {
		tau := 1.0
		for k := 0; k < d && k < len(deepSeekMTPPrefix); k++ {
			tau += deepSeekMTPPrefix[k]
		}
		return tau
	}
	return acceptedTokens(d, MTPAcceptance)
}

// deepSeekMTP reports whether a's MTP module is DeepSeek-V3's (the
// architecture DeepSeek-V3 and R1 share, config model_type deepseek_v3).
func deepSeekMTP(a Arch) bool { return a.ModelType == "deepseek_v3" && a.MTPLayers > 0 }

// MeasuredMTP reports whether a speculative decode step of model a yields
// a measured figure by draft count (deepSeekMTPPrefix) rather than
// MTPAcceptance a draft, where no acceptance is given.
func MeasuredMTP(a Arch) bool { return deepSeekMTP(a) }

// DisaggPoint is the replica's steady state.
type DisaggPoint struct {
	// TTFTSeconds, TPOTSeconds: a request's mean time to first token and
	// time per output token after it; TokensPerSecond the replica's
	// generated tokens/s, RequestsPerSecond its completed requests/s (λ).
	TTFTSeconds, TPOTSeconds, TokensPerSecond, RequestsPerSecond float64
	QueueSeconds                                                 float64 // TTFT's wait for a prefill worker (or, decode-bound, a decode slot)
	// Prefill: the seconds of the forward that prefills a request (a
	// batch of PrefillBatch prompts), the side's capacity in prompts/s
	// at its largest batch, and its load at λ (λ over that capacity).
	PrefillSeconds, PrefillBatch, PrefillCapacity, PrefillUtilization float64
	// PrefillHandoverSeconds is the prefill worker's own time on that
	// batch's handovers after its forward: PrefillBatch × the figure a
	// prompt (Disagg.PrefillHandoverSeconds, or the engine's,
	// PrefillHandoverSeconds: 15 ms on SGLang, 0 otherwise). The worker is
	// busy for PrefillSeconds + PrefillHandoverSeconds a batch, and TTFT
	// holds both.
	PrefillHandoverSeconds float64
	// KVBytes is one request's KV cache, KVTransferSeconds its handover
	// (latency + bytes over the links + the decode worker's admission
	// steps, decodeAdmissionSteps).
	KVBytes, KVTransferSeconds float64
	// Decode: the step time (= TPOT; with DraftTokens the verify step,
	// AcceptedTokens × TPOT), the requests decoding per worker,
	// the side's capacity in requests/s at its largest batch, and its
	// generated tokens/s (= TokensPerSecond).
	DecodeStepSeconds, DecodeBatch, DecodeCapacity float64
	// DecodeSlots is the most requests one decode worker decodes at once
	// (its batch at DecodeCapacity), and DecodeSlotsBound what sets it:
	// "kv" (the worker's KV pool, at an open loop's rate), "batch"
	// (Decode.Batch, an engine's running-sequence limit where a planner
	// sets it) or "concurrency" (the client's requests per worker, at a
	// closed loop's concurrency).
	DecodeSlots      float64
	DecodeSlotsBound string
	// AcceptedTokens is the tokens one decode step yields (1 without
	// speculative decoding).
	AcceptedTokens float64
	// Bound is what limits λ: "concurrency" (neither side is full),
	// "prefill" (the prefill queue grows) or "decode" (every decode slot
	// is taken and requests wait for one).
	Bound string
	GPUs  int // P × prefill GPUs per worker + D × decode GPUs per worker
	// TTFTAtSeconds and TPOTAtSeconds are TTFT and TPOT at
	// Disagg.Quantile over the requests (the means at 0). The TTFT's
	// spread is the prefill queue's: its wait at the quantile, M/D/1's
	// at the same load and forward as the mean wait (mdWaitQuantile).
	// The TPOT's is the number decoding on a worker, which under
	// Poisson arrivals is Poisson around the mean n (an infinite-server
	// queue, M/G/∞: Kleinrock, "Queueing Systems" vol. 1, §3.8), about
	// n + z_q·√n at its q-quantile (at most the worker's slots), the
	// closed form the aggregated plan uses (plan's tpotQuantile); the
	// median is the mean. The step time at that count overstates a
	// request's TPOT, which averages its steps.
	TTFTAtSeconds, TPOTAtSeconds float64
}

// DisaggHandoverSeconds is the fixed cost of one request's KV handover
// (DisaggPoint.KVTransferSeconds less the bytes over the links): the
// transfer engine's per-request bootstrap and the decode worker's
// admission of the transferred request. Fitted as the one constant of the
// disaggregated model: the median TTFT residual of the InferenceX fit rows
// at concurrency ≤ 16 without MTP set to zero (first 12 rows: 20 ms left a
// median residual of 66 ms, 70 ms one of 16 ms, so 85 ms;
// testdata/calibration/inferencex/README.md). Refitted the same way when
// TTFT stopped counting a decode step after the handover (steady's
// comment, the first token at the join; testdata/calibration/README.md,
// ninety-first round): on the 13 such fit rows 85 ms left −49.2 ms, 36 ms
// leaves −0.2 ms (35.8 ms zero; with the decode step still counted the
// same objective gives 26.5 ms: most of the change is the drift of the
// rounds since the first fit). The 21 MTP fit rows there leave +75.9 ms
// (the engines' MTP adds to the first token something the estimate does
// not model), not folded into the constant. It also holds whatever of the
// decode worker's admission the engines add beyond, on SGLang,
// decodeAdmissionSteps.
const DisaggHandoverSeconds = 0.036

// maxWorkers bounds DisaggSide.Workers.
const maxWorkers = 1 << 12

// DisaggServing estimates the replica d of model in (its weights, KV
// dtype and engine; its TP, DP, EP, GPUs and Batch are ignored) serving w
// on GPUs like hw. Invalid input gives an *InputError naming the flag.
func DisaggServing(in Input, hw Hardware, eff Efficiency, w Workload, d Disagg) (DisaggPoint, error) {
	return NewDisaggSizer(in, hw, eff, w).At(d)
}

// DisaggPrefillBatch is the most prompts of prompt tokens one prefill
// forward of a worker of dp attention-DP ranks carries (DisaggSide.Batch
// where none is given): as many as the engine's token budget per step
// holds, budget (SGLang's chunked_prefill_size, TensorRT-LLM's
// max_num_tokens, vLLM's max_num_batched_tokens, by GPU memory:
// sim.DefaultPolicyOn; Input.MaxBatchedTokens replaces it, as the
// simulator's scheduler takes it), at least one; dp budgets where each
// rank schedules a whole one (RankBudgets). Taking at least one prompt a
// rank instead under SGLang (each rank chunking its own prompt while the
// others run theirs) put the InferenceX SGLang attention-DP prefill
// workers' 8k-prompt rows at −57% median TTFT error against +13% (63
// rows), so the measured workers do not reach it.
func DisaggPrefillBatch(in Input, dp, budget, prompt int) int {
	if in.MaxBatchedTokens > 0 {
		budget = in.MaxBatchedTokens
	}
	if RankBudgets(in.Engine) {
		budget *= max(dp, 1)
	}
	return max(1, budget/max(prompt, 1))
}

// RankBudgets reports whether each attention-DP rank of engine e
// schedules a whole token budget of its own, a budget the user names
// included, so a copy of dp ranks steps dp budgets. TensorRT-LLM with
// attention DP runs one executor, scheduler and max_num_tokens budget per
// rank (its PyTorch backend's PyExecutor on every attention-DP rank, ADP
// balancing requests over them; max_num_tokens is the config every rank's
// PyExecutor is built from). So does vLLM: each of its
// --data-parallel-size ranks is "a separate 'core engine' process" (vLLM
// docs, "Data Parallel Deployment"), a DPEngineCoreProc whose EngineCore
// builds its own Scheduler from the one scheduler_config
// (vllm/v1/engine/core.py), the ranks' forwards aligned for the experts.
// SGLang does not: it divides its chunked_prefill_size by dp_size over
// the ranks ("self.chunked_prefill_size = self.chunked_prefill_size //
// self.dp_size", sgl-project/sglang python/sglang/srt/server_args.py,
// _handle_data_parallelism: "DP attention is enabled. The chunked prefill
// size is adjusted to … to avoid MoE kernel issues"), so the copy keeps
// the one budget and a prompt, on one rank, takes at most a dp-th of it a
// step. The disaggregated prefill worker (DisaggPrefillBatch) and the
// simulator's scheduler (sim.NewConfig) both read it.
func RankBudgets(e Engine) bool { return e == VLLM || e == TRTLLM }

// DisaggSizer is DisaggServing for one model, hardware, efficiency and
// workload at many replicas: a search over worker counts (the planner's)
// evaluates dozens, and building the sides' serving models was most of
// each evaluation. The sizer keeps the last model it built for each
// side's parallelism; a model is a function of its inputs alone, and its
// only state, the admission memo, caches a pure function, so a kept copy
// is the model built again and At(d) is DisaggServing(in, hw, eff, w, d)
// to the bit.
type DisaggSizer struct {
	in    Input
	hw    Hardware
	eff   Efficiency
	w     Workload
	kept  [4]keptSide
	nkept int
}

// keptSide is a side's model as built, with its parallelism.
type keptSide struct {
	tp, dp, ep, redundant, draft int
	share, accept                float64
	a2a                          string
	m                            ServingModel
}

// NewDisaggSizer is the sizer of model in serving w on GPUs like hw.
func NewDisaggSizer(in Input, hw Hardware, eff Efficiency, w Workload) *DisaggSizer {
	return &DisaggSizer{in: in, hw: hw, eff: eff, w: w}
}

// side is the serving model of one side of the replica (its TP, DP, EP
// and redundant experts; workers and batch do not enter it), built once.
func (z *DisaggSizer) side(s DisaggSide, d Disagg) (ServingModel, error) {
	for _, k := range z.kept[:z.nkept] {
		if k.tp == s.TP && k.dp == s.DP && k.ep == s.EP && k.redundant == s.RedundantExperts && k.share == s.MemShare &&
			k.draft == d.DraftTokens && k.accept == d.Acceptance && k.a2a == s.MoEA2A {
			return k.m, k.m.Err()
		}
	}
	m := NewServingModel(z.sideInput(s, d), z.hw, z.eff, z.w)
	// A few slots (a planner tries several layouts a side against one of
	// the other side's); a new shape replaces the oldest.
	i := z.nkept
	if i == len(z.kept) {
		copy(z.kept[:], z.kept[1:])
		i--
	} else {
		z.nkept++
	}
	z.kept[i] = keptSide{s.TP, s.DP, s.EP, s.RedundantExperts, d.DraftTokens, s.MemShare, d.Acceptance, s.MoEA2A, m}
	return m, m.Err()
}

// sideInput is the job as one worker of side s runs it: its TP, DP, EP
// and redundant experts, no pipeline or context split, its memory share
// where the side sets one, and d's speculative decoding (both roles run
// the draft module: the prefill worker over each prompt, the decode
// worker in its steps; InferenceX's MoRI launcher passes the speculative
// flags to both, benchmarks/multi_node/amd_utils/server_sglang.sh).
func (z *DisaggSizer) sideInput(s DisaggSide, d Disagg) Input {
	si := z.in
	si.TP, si.DP, si.EP, si.PP, si.CP, si.RedundantExperts = s.TP, s.DP, s.EP, 1, 1, s.RedundantExperts
	si.DraftTokens, si.DraftAcceptance = d.DraftTokens, d.Acceptance
	if s.MoEA2A != "" {
		si.MoEA2A = s.MoEA2A
	}
	if s.MemShare > 0 && s.MemShare != si.GPUMemUtil {
		// A share of the side's own (a planner's, at the recipes' share
		// for an attention-DP worker) with the CUDA-graph cap the launch
		// writes beside it.
		si = PlannedShareFix(s.MemShare, si).Apply(si)
	}
	return si
}

// SideInput is the job as one worker of side s of d runs it (sideInput):
// the input whose memory and speed a caller reports for that worker.
func (z *DisaggSizer) SideInput(s DisaggSide, d Disagg) Input { return z.sideInput(s, d) }

// noKVRoom is the error of a side whose worker holds no request's KV
// cache, on its TP field. Where the cause is SGLang's default memory share
// under attention DP (EngineShareFor: mem_fraction_static's CUDA-graph
// reserve grows with the DP size, so a DP 32 worker of 80 GB GPUs keeps
// almost nothing for the pool), the message says so and names the share
// that fits, as the aggregated estimate's note does; a user reading "the
// model does not fit" of DeepSeek-R1 on 32 H100s would look for the wrong
// cause.
func (z *DisaggSizer) noKVRoom(side string, s DisaggSide, d Disagg) error {
	reason := "the model and one request's KV cache do not fit a " + side + " worker"
	si := z.sideInput(s, d)
	si.GPUs, si.Batch = s.TP, 1 // one worker at one request, as NewServingModel sizes it
	if f, ok := EngineShareFor(si); ok {
		reason = fmt.Sprintf("SGLang's default --mem-fraction-static, %g here (%s), leaves a %s worker no KV cache; %s (%s, %s) fits it",
			si.MemShare(), f.Cause, side, f.Flags(), f.EngineFlags(), f.Recipe)
	}
	return &InputError{Field: side + "-tp", Value: itoa(s.TP), Err: ErrRange, Reason: reason}
}

// disaggSteps is the step model of one replica, which the steady state
// (At) and the simulation (Simulate, disagg_sim.go) share: each side's
// forward, the handover and the decode worker's slots.
type disaggSteps struct {
	prompt, out float64 // the mean lengths (SampleLengths)
	// forward is the seconds a prefill worker spends on one batch of k
	// prompts of tokens tokens in all, ctx their summed causal attention
	// context (Σ p(p+1)/2) and kv their KV tokens: the forward and, on
	// SGLang, each prompt's handover work (PrefillHandoverSeconds).
	forward func(k, tokens int, ctx, kv float64) float64
	// prefill is forward at k mean prompts (fractional k between the
	// two integers around it); decode the seconds per generated token
	// of a decode step of n requests (the step is decode(n) × tau).
	prefill, decode func(float64) float64
	tau             float64 // tokens one decode step yields (mtpAcceptedTokens)
	kMax, nMax      float64 // prompts in one prefill forward; requests decoding on one decode worker
	slotsBound      string  // what sets nMax (DisaggPoint.DecodeSlotsBound)
	admit           float64 // decode steps a handed-over request waits (decodeAdmissionSteps)
	handoverWork    float64 // the prefill worker's own time on one prompt's handover (PrefillHandoverSeconds), inside forward
	kvBytes, xfer   float64 // a mean request's KV bytes and handover seconds
	// handover is the latency and the seconds per prompt token of the
	// handover: xfer = latency + prompt × perToken.
	latency, kvPerToken, linkBW float64
	dm                          ServingModel
}

// At is DisaggServing(in, hw, eff, w, d) of the sizer's in, hw, eff and w.
func (z *DisaggSizer) At(d Disagg) (DisaggPoint, error) {
	m, err := z.model(d)
	if err != nil {
		return DisaggPoint{}, err
	}
	return m.steady(d)
}

// model checks d and builds its step model.
func (z *DisaggSizer) model(d Disagg) (*disaggSteps, error) {
	in, hw, w := z.in, z.hw, z.w
	if d.DraftTokens == 0 {
		// A replica laid out for a job with speculative decoding (a
		// planner's disaggregated alternative) runs the job's drafts.
		d.DraftTokens, d.Acceptance = in.DraftTokens, in.DraftAcceptance
	}
	var l errList
	for _, s := range []struct {
		name string
		s    DisaggSide
	}{{"prefill", d.Prefill}, {"decode", d.Decode}} {
		n := s.name
		if s.s.Workers < 1 || s.s.Workers > maxWorkers {
			l.add(n+"-workers", float64(s.s.Workers), ErrRange, "want 1..4096")
		}
		if s.s.TP < 1 || s.s.TP > maxGPUs {
			l.add(n+"-tp", float64(s.s.TP), ErrRange, "want 1..65536")
		}
		if s.s.DP < 1 || s.s.DP > maxGPUs {
			l.add(n+"-dp", float64(s.s.DP), ErrRange, "want 1..65536")
		}
		if s.s.EP < 1 || s.s.EP > maxGPUs {
			l.add(n+"-ep", float64(s.s.EP), ErrRange, "want 1..65536")
		}
		if s.s.Batch < 0 || s.s.Batch > maxBatch {
			l.add(n+"-batch", float64(s.s.Batch), ErrRange, "want 0..1048576 (0: the default)")
		}
		if !(s.s.MemShare >= 0 && s.s.MemShare <= 1) {
			l.add(n+"-gpu-mem-util", s.s.MemShare, ErrRange, "want a share in (0, 1] (0: the model's)")
		}
	}
	if d.Rate == 0 && (d.Concurrency < 1 || d.Concurrency > maxBatch) {
		l.add("concurrency", float64(d.Concurrency), ErrRange, "want 1..1048576")
	}
	if !(d.Rate >= 0 && d.Rate <= 1e9) {
		l.add("rate", d.Rate, ErrRange, "want requests/s from 0 to 1e9 (0: a closed loop at the concurrency)")
	}
	if !(d.KVBandwidth >= 0 && d.KVBandwidth <= 1e15) {
		l.add("kv-transfer-gbps", d.KVBandwidth*8/1e9, ErrRange, "want Gbit/s per GPU from 0 to 8e6 (0: the node's)")
	}
	if !(d.KVLatencySeconds >= 0 && d.KVLatencySeconds <= 3600) {
		l.add("kv-transfer-latency", d.KVLatencySeconds, ErrRange, "want seconds from 0 to 3600 (0: the fitted figure)")
	}
	if !(d.PrefillHandoverSeconds >= 0 && d.PrefillHandoverSeconds <= 3600) {
		l.add("prefill-handover", d.PrefillHandoverSeconds, ErrRange, "want seconds from 0 to 3600 (0: the fitted figure)")
	}
	if !(d.RequestSeconds >= 0 && d.RequestSeconds <= 3600) {
		l.add("request-overhead", d.RequestSeconds, ErrRange, "want seconds in [0, 3600]")
	}
	l.drafts(in, d.DraftTokens, d.Acceptance)
	if !(d.Quantile >= 0 && d.Quantile < 1) {
		l.add("quantile", d.Quantile, ErrRange, "want a quantile in [0, 1) (0: the means)")
	}
	if in.Task.Training() {
		l.add("task", 0, ErrIncompatible, "disaggregated serving is an inference task")
	}
	if l.n > 0 {
		return nil, errors.Join(l.errs[:l.n]...)
	}
	prompt, out := SampleLengths(in, w)
	if out < 1 {
		return nil, &InputError{Field: "output-tokens", Value: itoa(int(out)), Err: ErrRange,
			Reason: "disaggregated serving generates tokens: want ≥ 1"}
	}
	// Sides of one shape (a planner's sizing of equal workers) share
	// the model (side).
	pm, err := z.side(d.Prefill, d)
	if err != nil {
		return nil, prefixed("prefill-", err)
	}
	dm, err := z.side(d.Decode, d)
	if err != nil {
		return nil, prefixed("decode-", err)
	}
	if pm.MaxConcurrency() < 1 {
		return nil, z.noKVRoom("prefill", d.Prefill, d)
	}
	if dm.MaxConcurrency() < 1 {
		return nil, z.noKVRoom("decode", d.Decode, d)
	}
	hw = hw.withDefaults()

	// Prefill of k prompts in one forward (fractional k between the two
	// integers around it): Step of k whole prompts, as prefill(k, p).
	// With speculative decoding the side models run the MTP module too
	// (sideInput): over each prompt once, and in every decode step
	// (StepSeconds, specTokenSeconds).
	// Attention DP on the prefill worker: a prompt is one rank's, and the
	// forward lasts as long as its busiest rank (StepSeconds counts it:
	// rankSkewGrowth). Each prompt's handover then keeps the worker's
	// scheduler busy a while (PrefillHandoverSeconds): the worker's time
	// for a batch of k prompts, as the queue and the first token see it.
	handoverWork := d.PrefillHandoverSeconds
	if handoverWork == 0 {
		handoverWork = PrefillHandoverSeconds(in.Engine)
	}
	forward := func(k, tokens int, ctx, kv float64) float64 {
		st := Step{PrefillTokens: tokens, PrefillSeqs: k, PrefillContext: ctx, PrefillKV: kv}
		return pm.StepSeconds(st) + float64(k)*handoverWork
	}
	prefill := func(k float64) float64 {
		at := func(k int) float64 {
			return forward(k, k*int(prompt), float64(k)*prompt*(prompt+1)/2, float64(k)*prompt)
		}
		return between(at, k)
	}
	// A decode step of n requests at the mean context of a request in
	// its decode phase: prompt plus half the output; with DraftTokens the
	// seconds per generated token of a draft-and-verify step
	// (specTokenSeconds), which yields tau tokens a request.
	tau := 1.0
	if dm.m.draft > 0 {
		tau = dm.m.tau // the decode worker's model's, built with d's drafts (sideInput)
	}
	decode := func(n float64) float64 {
		at := func(n int) float64 {
			return dm.StepSeconds(Step{DecodeSeqs: n, DecodeContext: float64(n) * (prompt + out/2)})
		}
		return between(at, n)
	}
	kMax := float64(max(d.Prefill.Batch, 1))
	// Decode slots: at a closed loop's concurrency, every request the
	// client keeps in flight (the measured engines admit them all; the KV
	// pool estimate is reported with the decode worker's memory, not used
	// as a cap); at an open loop's rate, what the KV pool holds; either at
	// most Decode.Batch where it is set (--decode-batch, or a planner's
	// engine running-sequence limit).
	nMax, slotsBound := math.Max(1, math.Ceil(float64(d.Concurrency)/float64(d.Decode.Workers))), "concurrency"
	if d.Rate > 0 {
		nMax, slotsBound = float64(dm.MaxConcurrency()), "kv"
	}
	if b := float64(d.Decode.Batch); b > 0 && b < nMax {
		nMax, slotsBound = b, "batch"
	}
	// The decode worker's loop admits a request in its own steps
	// (decodeAdmissionSteps): the handover waits that many decode steps
	// besides its fixed cost and bytes.
	admit := decodeAdmissionSteps(in.Engine)

	// KV handover: the prompt's KV bytes (Arch.KVBytesPerToken, every
	// layer) leave the prefill worker over as many links as GPUs hold a
	// distinct shard of one request's KV (attention's TP ranks, at most
	// the KV heads; one for MLA's latent, which every rank holds whole:
	// kvTPShare), and arrive on as many on the decode side; the slower
	// side sets the links. Both sides inside one NVLink domain (GB200
	// NVL72) hand over NVLink; otherwise the network per GPU (SGLang's
	// Mooncake/NIXL and Dynamo's NIXL move it with RDMA over the NICs).
	// The transfer starts when the prefill ends: the engines' default
	// (layer-by-layer overlap is not modelled).
	kvBytes := float64(in.Arch.KVBytesPerToken(in.KV)) * prompt
	links := func(s DisaggSide) float64 {
		si := in
		si.TP, si.DP = s.TP, s.DP
		return math.Max(1, math.Round(1/kvTPShare(in.Arch, attnTP(si))))
	}
	bw := d.KVBandwidth
	if bw == 0 {
		bw = hw.NetworkBandwidth
		if d.Prefill.Workers*d.Prefill.TP+d.Decode.Workers*d.Decode.TP <= hw.NVLinkDomain {
			bw = hw.LinkBandwidth
		}
	}
	lat := d.KVLatencySeconds
	if lat == 0 {
		lat = DisaggHandoverSeconds
	}
	linkBW := bw * math.Min(links(d.Prefill), links(d.Decode))
	xfer := lat + kvBytes/linkBW
	return &disaggSteps{prompt: prompt, out: out, forward: forward, prefill: prefill, decode: decode, tau: tau,
		kMax: kMax, nMax: nMax, slotsBound: slotsBound, admit: admit, handoverWork: handoverWork, kvBytes: kvBytes, xfer: xfer, latency: lat,
		kvPerToken: float64(in.Arch.KVBytesPerToken(in.KV)), linkBW: linkBW, dm: dm}, nil
}

// steady is the replica's steady state (the analytic closed or open loop).
//
// The first token at the join: a request's first token is the one its
// prefill made, and the client gets it from the decode worker as soon as
// the request holds a decode slot and its KV cache, before that batch's
// decode forward; the first decode step yields the second token. So TTFT
// ends with the admission, and the output − 1 tokens after the first take
// their decode steps, the first of them included, in E2E − TTFT (the
// client's TPOT). TensorRT-LLM: tensorrt_llm/_torch/pyexecutor/
// py_executor.py, _executor_loop: _prepare_disagg_gen_transmission_complete
// (the context's first_gen_tokens appended), then
// _handle_first_token_response(scheduled_batch) ("Return the first token
// to the client"), then _forward_step. SGLang: python/sglang/srt/
// disaggregation/decode.py at 0035ca42 (a PrebuiltExtendBatch "skip[s] the
// prefill forward") and process_batch_result_prebuilt
// (scheduler_output_processor_mixin.py), which calls stream_output for the
// handed-over token before the request's first decode forward. NVIDIA
// Dynamo streams the decode worker's output to the client (components/
// backends/trtllm/src/dynamo/trtllm/request_handlers/handlers.py at
// 0fca8c3d, DecodeHandler.generate; lib/llm/src/kv_router/
// prefill_router.rs at 007ddea7). testdata/calibration/README.md,
// eighty-ninth and ninety-first rounds.
func (m *disaggSteps) steady(d Disagg) (DisaggPoint, error) {
	out, prefill, decode, tau := m.out, m.prefill, m.decode, m.tau
	kMax, nMax, admit, kvBytes, xfer := m.kMax, m.nMax, m.admit, m.kvBytes, m.xfer
	P, D, C := float64(d.Prefill.Workers), float64(d.Decode.Workers), float64(d.Concurrency)
	steps := out - 1 // decode steps after the first token

	// The state at completion rate lam: the prefill batch k that forms
	// while a worker is busy (arrivals during one forward, 1..kMax), its
	// load and queue, the requests decoding per worker (Little's law on
	// the decode phase, n = λ × steps × TPOT(n) / D, at most nMax) and
	// the cycle R = TTFT + steps × TPOT. A worker that batches takes every
	// waiting prompt (up to kMax) into its next forward, so the queue
	// builds against the capacity of full batches, capP: the load is ρ =
	// λ / capP and the wait Pollaczek–Khinchine's for deterministic
	// service, ρ/(2(1−ρ)) × the forward that runs (the bulk-service queue
	// taken as one server of capP's rate; a load λ·forward(k)/(P·k), as
	// the arrivals during a forward define k, is 1 whenever k > 1 and
	// would leave a batching worker no headroom at all).
	capP := P * kMax / prefill(kMax)
	type state struct{ k, s, rho, wait, n, tpot, ttft, r float64 }
	// firstToken is a request's TTFT in state st: its fixed cost, its
	// wait for and its prefill forward, the handover and the decode
	// worker's admission; the first token streams when the request joins
	// the decode batch, before that batch's step.
	firstToken := func(st state) float64 { return d.RequestSeconds + st.wait + st.s + xfer + admit*st.tpot*tau }
	at := func(lam float64) state {
		var st state
		st.k = 1
		for range 40 {
			st.k = math.Min(kMax, math.Max(1, lam/P*prefill(st.k)))
		}
		st.s = prefill(st.k)
		st.rho = lam / capP
		if st.rho < 1 {
			st.wait = st.rho / (2 * (1 - st.rho)) * st.s
		} else {
			st.wait = math.Inf(1)
		}
		st.n = 1
		for range 60 {
			st.n = math.Min(nMax, math.Max(1, lam*steps*decode(st.n)/D))
		}
		st.tpot = decode(st.n)
		st.ttft = firstToken(st)
		st.r = st.ttft + steps*st.tpot
		return st
	}
	tMax := decode(nMax)
	capD := math.Inf(1)
	if steps > 0 && tMax > 0 {
		capD = D * nMax / (steps * tMax)
	}
	var lam float64
	if d.Rate > 0 {
		// An open loop at the given rate: below both capacities, or the
		// queue of that side grows without bound.
		if d.Rate >= capP || d.Rate >= capD {
			side, capacity := "prefill", capP
			if capD < capP {
				side, capacity = "decode", capD
			}
			return DisaggPoint{}, &InputError{Field: "rate", Value: strconv.FormatFloat(d.Rate, 'g', 4, 64), Err: ErrRange,
				Reason: "at or above the " + side + " side's capacity, " + strconv.FormatFloat(capacity, 'g', 4, 64) + " requests/s"}
		}
		lam = d.Rate
	} else {
		// λ solves λ × R(λ) = C (R grows with λ): bisect below the
		// smaller capacity, and below C / R(0).
		hi := math.Min(math.Min(capP, capD), C/at(0).r)
		lo := 0.0
		for range 100 {
			mid := (lo + hi) / 2
			if st := at(mid); mid*st.r < C {
				lo = mid
			} else {
				hi = mid
			}
		}
		lam = lo
	}
	st := at(lam)
	pkWait := st.wait // the prefill queue's mean wait (the decode-bound case adds its own)
	bound := "concurrency"
	switch {
	case d.Rate > 0:
		bound = "rate"
		if st.rho > 0.9 {
			bound = "prefill"
		}
	case lam >= 0.999*capD && C > lam*st.r:
		// Every decode slot is taken: the requests beyond them wait for
		// one after their handover, and the cycle is C / λ.
		lam, bound = capD, "decode"
		st = at(lam * (1 - 1e-9))
		pkWait = st.wait
		st.n, st.tpot = nMax, tMax
		st.ttft = firstToken(st)
		st.r = st.ttft + steps*st.tpot
		extra := math.Max(0, C/lam-st.r)
		st.wait += extra
		st.ttft += extra
	case st.rho > 0.9:
		bound = "prefill"
	}
	ttftAt, tpotAt := st.ttft, st.tpot
	if q := d.Quantile; q > 0 {
		if math.IsInf(pkWait, 1) {
			ttftAt = pkWait
		} else {
			ttftAt += mdWaitQuantile(st.rho, st.s, q) - pkWait
		}
		if z := normalQuantile(q); z > 0 {
			tpotAt = decode(math.Min(math.Max(nMax, st.n), st.n+z*math.Sqrt(st.n)))
		}
	}
	return DisaggPoint{
		TTFTAtSeconds: finite(ttftAt), TPOTAtSeconds: finite(tpotAt),
		TTFTSeconds: finite(st.ttft), TPOTSeconds: finite(st.tpot), TokensPerSecond: finite(lam * out), RequestsPerSecond: finite(lam),
		QueueSeconds: finite(st.wait), PrefillSeconds: finite(st.s - st.k*m.handoverWork), PrefillHandoverSeconds: finite(st.k * m.handoverWork),
		PrefillBatch: finite(st.k), PrefillCapacity: finite(capP),
		PrefillUtilization: finite(math.Min(st.rho, 1)), KVBytes: finite(kvBytes), KVTransferSeconds: finite(xfer + admit*st.tpot*tau),
		DecodeStepSeconds: finite(st.tpot * tau), DecodeBatch: finite(st.n), DecodeCapacity: finite(capD), AcceptedTokens: tau, Bound: bound,
		DecodeSlots: nMax, DecodeSlotsBound: m.slotsBound,
		GPUs: d.Prefill.Workers*d.Prefill.TP + d.Decode.Workers*d.Decode.TP,
	}, nil
}

// between is f at a fractional argument x ≥ 1: linear between f(⌊x⌋)
// and f(⌈x⌉).
func between(f func(int) float64, x float64) float64 {
	x = math.Max(x, 1)
	lo := math.Floor(x)
	a := f(int(lo))
	if x == lo {
		return a
	}
	return a + (f(int(lo)+1)-a)*(x-lo)
}

// prefixed renames an *InputError's field to one side's flag ("tp" →
// "prefill-tp"); other errors pass unchanged.
func prefixed(p string, err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, prefixed(p, e))
		}
		return errors.Join(out...)
	}
	if e, ok := err.(*InputError); ok {
		c := *e
		switch c.Field {
		case "tp", "dp", "ep", "redundant-experts", "moe-a2a-backend":
			c.Field = p + c.Field
		}
		return &c
	}
	return err
}
