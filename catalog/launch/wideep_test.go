package launch_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestLaunchWritesThePlannedShare: DeepSeek-R1 FP8 on SGLang with no
// --gpu-mem-util, planned on 8 × H100 instances, gets the wide
// attention-DP 16 / EP 16 copy over two instances at the share the
// planner set where SGLang's default leaves no KV pool (plan.Row.MemShare,
// 0.85); its SGLang launch writes that share and the recipes' CUDA-graph
// batch with it, where the engine's default (0.331 at DP 16) would not
// start. The same row launched on vLLM writes vLLM's own 0.9.
func TestLaunchWritesThePlannedShare(t *testing.T) {
	req := serving(t, "deepseek-r1", 100, estimator.SGLang, plan.OnDemand)
	req.Input.Weights = estimator.FP8
	req.Workload.PromptTokens, req.Workload.OutputTokens = 1024, 1024
	req.Workload.TTFTP95Seconds, req.Workload.TPOTSeconds = 2, 0.05
	o := offer(t, "aws-p5.48xlarge", req.Input.Weights)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("no plan: %v", err)
	}
	row := res.Rows[res.Cheapest]
	if row.TP != 16 || row.AttnDP != 16 || row.EP != 16 || row.MemShare != estimator.SGLangDPAttentionMemFraction {
		t.Fatalf("planned TP %d DP %d EP %d at share %v, want TP = DP = EP = 16 at %v", row.TP, row.AttnDP, row.EP, row.MemShare, estimator.SGLangDPAttentionMemFraction)
	}
	l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	text := l.Text()
	for _, want := range []string{"--enable-dp-attention", "--ep-size 16", "--nnodes 2", "--mem-fraction-static 0.85 ", "--cuda-graph-max-bs 64 "} {
		if !strings.Contains(text, want) {
			t.Errorf("the SGLang launch lacks %q:\n%s", want, text)
		}
	}
	// A cap the job sets itself (estimator.Input.CUDAGraphMaxBS, priced
	// eager past it) is the one written beside the share, not the recipes'.
	capped := req
	capped.Input.CUDAGraphMaxBS = 128
	l, err = launch.Emit(launch.SGLang, capped, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Text(); !strings.Contains(text, "--cuda-graph-max-bs 128 ") || strings.Contains(text, "--cuda-graph-max-bs 64 ") {
		t.Errorf("the SGLang launch of a job capped at 128:\n%s", text)
	}
	l, err = launch.Emit(launch.VLLM, req, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Text(); !strings.Contains(text, "--gpu-memory-utilization 0.9 ") || strings.Contains(text, "0.85") {
		t.Errorf("the vLLM launch of the same row:\n%s", text)
	}
}

// TestLaunchWritesTwoBatchOverlap: a plan made with two-batch overlap
// (estimator.Input.TwoBatchOverlap) for DeepSeek-R1 FP8 on SGLang over two
// 8 × H100 instances, attention DP and EP over both, launches with
// SGLang's --enable-two-batch-overlap; the same plan without the option
// does not, as SGLang's default is off. The TPOT target is one the
// overlapped steps meet: at about 110 requests a 16-GPU copy, each half
// batch reads its busiest EP group's experts (51 ms a token against 40 ms
// without the overlap on 8 × H100 instances' 3,200 Gbit/s).
func TestLaunchWritesTwoBatchOverlap(t *testing.T) {
	for _, tbo := range []bool{true, false} {
		req := serving(t, "deepseek-r1", 100, estimator.SGLang, plan.OnDemand)
		req.Input.Weights, req.Input.TwoBatchOverlap = estimator.FP8, tbo
		req.Workload.PromptTokens, req.Workload.OutputTokens = 1024, 1024
		req.Workload.TTFTP95Seconds, req.Workload.TPOTSeconds = 2, 0.06
		o := offer(t, "aws-p5.48xlarge", req.Input.Weights)
		res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
		if err != nil || res.Cheapest < 0 {
			t.Fatalf("two-batch overlap %v: no plan: %v", tbo, err)
		}
		row := res.Rows[res.Cheapest]
		if row.EP <= 1 || row.AttnDP <= 1 {
			t.Fatalf("two-batch overlap %v: planned TP %d DP %d EP %d, want attention DP and EP", tbo, row.TP, row.AttnDP, row.EP)
		}
		l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		if text := l.Text(); strings.Contains(text, "--enable-two-batch-overlap") != tbo {
			t.Errorf("two-batch overlap %v, the SGLang launch:\n%s", tbo, text)
		}
	}
}

// TestSGLangDeepEPInOneNode: SGLang's expert parallelism under attention
// DP is priced as DeepEP's all-to-all inside one node as across several
// (estimator.SGLangDeepEP), so DeepSeek-R1 FP8 at TP = DP = EP = 8 on one
// 8 × H100 instance launches with --moe-a2a-backend deepep, as SGLang's
// own CI runs it, and says DeepEP must be installed (not the RDMA set-up a
// multi-node copy needs); the same copy without attention DP keeps
// SGLang's default exchange. SGLang's DeepEP spreads the experts over the
// whole TP group, so EP 4 under TP 8 is refused, and so is the layout on
// GPUs DeepEP does not run on: Ampere (A100 SXM), or Hopper over PCIe.
func TestSGLangDeepEPInOneNode(t *testing.T) {
	emit := func(model string, w estimator.DType, offerID string, tp, dp, ep int) (string, error) {
		req := serving(t, model, 20, estimator.SGLang, plan.OnDemand)
		req.Input.Weights = w
		row := servingRow(t, req, offerID, tp, 8/tp, 1)
		row.AttnDP, row.EP = dp, ep
		l, err := launch.Emit(launch.SGLang, req, row, nil, model)
		return l.Text(), err
	}
	text, err := emit("deepseek-r1", estimator.FP8, "aws-p5.48xlarge", 8, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--enable-dp-attention", "--ep-size 8", "--moe-a2a-backend deepep", "needs DeepEP installed beside SGLang"} {
		if !strings.Contains(text, want) {
			t.Errorf("TP = DP = EP = 8 on one H100 instance lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "RDMA") {
		t.Errorf("one instance's launch asks for an RDMA set-up:\n%s", text)
	}
	if text, err := emit("deepseek-r1", estimator.FP8, "aws-p5.48xlarge", 8, 1, 8); err != nil || strings.Contains(text, "--moe-a2a-backend") {
		t.Errorf("TP 8 EP 8 without attention DP (%v):\n%s", err, text)
	}
	for _, c := range []struct {
		model, offer string
		w            estimator.DType
		ep           int
		why          string
	}{
		{"deepseek-r1", "aws-p5.48xlarge", estimator.FP8, 4, "not EP 4"},
		{"qwen3-30b-a3b", "aws-p4de.24xlarge", estimator.BF16, 8, "these are Ampere GPUs"},
		{"qwen3-30b-a3b", "hyperstack-n3-h100x8", estimator.BF16, 8, "these talk over PCIe"},
	} {
		_, err := emit(c.model, c.w, c.offer, 8, 8, c.ep)
		var le *launch.Error
		if !errors.As(err, &le) || le.Key != launch.ErrLayoutUnsupported || !strings.Contains(le.Reason, c.why) {
			t.Errorf("%s on %s at DP 8 EP %d: %v, want the DeepEP refusal (%q)", c.model, c.offer, c.ep, err, c.why)
		}
	}
}

// TestSGLangDPAttentionByArchitecture: SGLang runs attention data
// parallelism with DeepEP only for the model types whose code builds it
// (estimator.SGLangDPAttention): Qwen3-30B-A3B at TP = DP = EP = 8 on one
// 8 × H100 instance launches with --enable-dp-attention and DeepEP, as
// DeepSeek-R1 does; Mixtral 8x7B, whose SGLang attention splits its heads
// over the whole TP group, is refused at DP 4 with or without EP (the
// refusal the planner's layout search applies: estimator.DeepEPRefusal).
func TestSGLangDPAttentionByArchitecture(t *testing.T) {
	emit := func(model string, tp, dp, ep int) (string, error) {
		req := serving(t, model, 20, estimator.SGLang, plan.OnDemand)
		row := servingRow(t, req, "aws-p5.48xlarge", tp, 8/tp, 1)
		row.AttnDP, row.EP = dp, ep
		l, err := launch.Emit(launch.SGLang, req, row, nil, model)
		return l.Text(), err
	}
	text, err := emit("qwen3-30b-a3b", 8, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--enable-dp-attention", "--ep-size 8", "--moe-a2a-backend deepep"} {
		if !strings.Contains(text, want) {
			t.Errorf("Qwen3-30B-A3B at TP = DP = EP = 8 lacks %q:\n%s", want, text)
		}
	}
	for _, ep := range []int{4, 1} {
		_, err := emit("mixtral-8x7b", 4, 4, ep)
		var le *launch.Error
		if !errors.As(err, &le) || le.Key != launch.ErrLayoutUnsupported || !strings.Contains(le.Reason, "mixtral runs no attention data parallelism") {
			t.Errorf("Mixtral 8x7B at TP 4 DP 4 EP %d: %v, want the architecture refusal", ep, err)
		}
	}
}

// TestSGLangDenseDPAsCopies: a dense model at DP 2 over TP 8 (a
// user-fixed --dp) is priced as two copies of TP 4 (each holds the
// weights over 4 GPUs; vLLM writes --tensor-parallel-size 4
// --data-parallel-size 2). SGLang runs it so with --dp-size and no
// --enable-dp-attention, which its dense model code cannot run (it
// wrote --tp-size 8 --dp-size 2 --enable-dp-attention); each copy has
// its own scheduler, so the step budget and a batch's sequences are a
// copy's, not multiplied or divided by SGLang as under DP attention.
func TestSGLangDenseDPAsCopies(t *testing.T) {
	req := serving(t, "llama-3.1-70b", 20, estimator.SGLang, plan.OnDemand)
	row := servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)
	row.AttnDP = 2
	l, err := launch.Emit(launch.SGLang, req, row, nil, "llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	text := l.Text()
	if strings.Contains(text, "--enable-dp-attention") || flagInt(t, text, "sglang", "--tp-size") != 4 || flagInt(t, text, "sglang", "--dp-size") != 2 ||
		flagInt(t, text, "sglang", "--chunked-prefill-size") != 8192 || strings.Contains(text, "SGLang divides it by --dp-size") {
		t.Errorf("Llama 3.1 70B on SGLang at TP 8 DP 2:\n%s", text)
	}
	vllm, err := launch.Emit(launch.VLLM, req, row, nil, "llama-3.1-70b")
	if err != nil || flagInt(t, vllm.Text(), "vllm", "--tensor-parallel-size") != 4 || flagInt(t, vllm.Text(), "vllm", "--data-parallel-size") != 2 {
		t.Errorf("the same row on vLLM: %v\n%s", err, vllm.Text())
	}
	// A batch of 100 sequences on the copy: 50 a copy.
	req.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 1000, OutputTokens: 200}
	row.Concurrency = 100
	if l, err = launch.Emit(launch.SGLang, req, row, nil, "llama-3.1-70b"); err != nil || flagInt(t, l.Text(), "sglang", "--max-running-requests") != 50 {
		t.Errorf("a batch of 100 over 2 copies: %v\n%s", err, l.Text())
	}
}

// TestSGLangGatherExchange: a job that states SGLang's own default
// exchange (estimator.Input.MoEA2A "none": every rank gathers every DP
// rank's tokens before the experts, as NVIDIA's B200 and H200
// attention-DP recipes run) launches with attention DP and its EP but no
// DeepEP, and DeepEP's own limits no longer refuse it: the same layout
// on A100s, whose GPUs DeepEP does not run on, launches too.
func TestSGLangGatherExchange(t *testing.T) {
	emit := func(model string, w estimator.DType, offerID string, ep int) (string, error) {
		req := serving(t, model, 20, estimator.SGLang, plan.OnDemand)
		req.Input.Weights, req.Input.MoEA2A = w, estimator.MoEA2ANone
		row := servingRow(t, req, offerID, 8, 1, 1)
		row.AttnDP, row.EP = 8, ep
		l, err := launch.Emit(launch.SGLang, req, row, nil, model)
		return l.Text(), err
	}
	for _, c := range []struct {
		model, offer string
		w            estimator.DType
		ep           int
	}{
		{"deepseek-r1", "aws-p5.48xlarge", estimator.FP8, 8},
		{"qwen3-30b-a3b", "aws-p4de.24xlarge", estimator.BF16, 8},
	} {
		text, err := emit(c.model, c.w, c.offer, c.ep)
		if err != nil {
			t.Errorf("%s on %s at DP 8 EP %d with the gather: %v", c.model, c.offer, c.ep, err)
			continue
		}
		for _, want := range []string{"--enable-dp-attention", "--ep-size " + strconv.Itoa(c.ep)} {
			if !strings.Contains(text, want) {
				t.Errorf("%s on %s lacks %q:\n%s", c.model, c.offer, want, text)
			}
		}
		if strings.Contains(text, "deepep") || strings.Contains(text, "DeepEP") {
			t.Errorf("%s on %s with the gather writes DeepEP:\n%s", c.model, c.offer, text)
		}
	}
}
