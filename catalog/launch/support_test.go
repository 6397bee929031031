package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// rowOn plans req over the catalog and returns the cheapest fitting row
// on gpu.
func rowOn(t *testing.T, req plan.Request, gpu string) plan.Row {
	t.Helper()
	cat := catalog.Default()
	req.Filters.GPU = gpu
	res, err := plan.Plan(req, cat.PlanOffers(req.Input.Weights), plan.Options{})
	if err != nil || res.Cheapest < 0 {
		t.Fatalf("no plan on %s: %v", gpu, err)
	}
	return res.Rows[res.Cheapest]
}

// TestLaunchRunsWhatTheGPURuns: a bf16 job on a Turing card is launched
// in fp16 (vLLM refuses bf16 below compute capability 8.0) with a note;
// TensorRT-LLM, which does not run on Turing, is refused by name; an AMD
// pick's SkyPilot task runs AMD's ROCm vLLM image, not pip's CUDA wheel.
func TestLaunchRunsWhatTheGPURuns(t *testing.T) {
	req := serving(t, "llama-3.1-8b", 5, estimator.VLLM, plan.OnDemand)
	turing := rowOn(t, req, "quadro-rtx-6000")
	l, err := launch.Emit(launch.VLLM, req, turing, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Text(); !strings.Contains(text, "--dtype float16") || strings.Contains(text, "bfloat16 ") || !strings.Contains(text, "bf16 does not run on Turing") {
		t.Fatalf("Turing launch:\n%s", text)
	}
	if _, err := launch.Emit(launch.TRTLLM, req, turing, nil, "llama-3.1-8b"); err == nil || !strings.Contains(err.Error(), "does not run on Turing") {
		t.Fatalf("TensorRT-LLM on Turing: %v", err)
	}
	onRunPod := req
	onRunPod.Filters.Providers = []string{"runpod"} // a SkyPilot cloud with MI300X
	amd := rowOn(t, onRunPod, "mi300x")
	l, err = launch.Emit(launch.SkyPilot, req, amd, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if y := l.Files[0].Text; !strings.Contains(y, `image_id: "docker:rocm/vllm:latest"`) && !strings.Contains(y, "image_id: docker:rocm/vllm:latest") || strings.Contains(y, "pip install vllm") {
		t.Fatalf("AMD SkyPilot task:\n%s", y)
	}
}

// TestContextCoversLongestRequest: a workload mix is planned at its mean
// lengths, but the engine's context length covers its longest request
// (the chat preset's 14,089 tokens), else vLLM refuses the long ones.
func TestContextCoversLongestRequest(t *testing.T) {
	req := serving(t, "qwen3-30b-a3b", 50, estimator.VLLM, plan.OnDemand)
	w, _ := plan.PresetWorkload("chat")
	req.Workload.PromptTokens, req.Workload.OutputTokens, req.Workload.MaxRequestTokens = w.MeanPrompt, w.MeanOutput, w.MaxTokens
	row := rowOn(t, req, "h100-sxm")
	l, err := launch.Emit(launch.VLLM, req, row, nil, "qwen3-30b-a3b")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Text(); !strings.Contains(text, "--max-model-len 14089") {
		t.Fatalf("chat mix launch (mean %d+%d):\n%s", w.MeanPrompt, w.MeanOutput, text)
	}
}
