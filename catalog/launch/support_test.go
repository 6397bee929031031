package launch_test

import (
	"os/exec"
	"slices"
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
	if _, err := launch.Emit(launch.TRTLLM, req, turing, nil, "llama-3.1-8b"); err == nil || !strings.Contains(err.Error(), "does not start on Turing") {
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
	// The image's tag is the newest build, not the release the estimate
	// models: a note says which one that is.
	// and none says the setup installs a release with pip, which it
	// does not there.
	if notes := strings.Join(l.Notes, "\n"); !strings.Contains(notes, "the estimate models vLLM 0.33.0; rocm/vllm:latest is AMD's newest build") ||
		strings.Contains(notes, "the setup installs") || strings.Contains(notes, "vllm==") {
		t.Errorf("AMD SkyPilot notes: %q", notes)
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

// TestContextIsTheServedCheckpoints: Qwen2.5-7B is sized from its
// pretrained config (131,072 tokens), but a serving launch loads
// Qwen2.5-7B-Instruct, whose config.json declares 32,768: a workload
// whose longest request is longer starts every engine at 32,768 (vLLM
// refuses a --max-model-len over the checkpoint's at start-up), where it
// took the longest request's 100,000.
func TestContextIsTheServedCheckpoints(t *testing.T) {
	for k, flag := range map[launch.Kind]string{launch.VLLM: "--max-model-len 32768", launch.SGLang: "--context-length 32768",
		launch.TRTLLM: "--max_seq_len 32768", launch.SkyPilot: "--max-model-len 32768"} {
		engine := estimator.VLLM
		if k == launch.SGLang {
			engine = estimator.SGLang
		} else if k == launch.TRTLLM {
			engine = estimator.TRTLLM
		}
		req := serving(t, "qwen2.5-7b", 5, engine, plan.OnDemand)
		req.Workload.MaxRequestTokens = 100000
		row := rowOn(t, req, "h100-sxm")
		l, err := launch.Emit(k, req, row, nil, "qwen2.5-7b")
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		text := l.Text()
		if !strings.Contains(text, flag) || !strings.Contains(text, "Qwen/Qwen2.5-7B-Instruct") ||
			!strings.Contains(strings.Join(l.Notes, "\n"), "requests over the model's context of 32768 tokens are refused by the engine") {
			t.Errorf("%s launch, longest request 100,000 tokens:\n%s", k, text)
		}
	}
}

// TestMultiNodeVLLMRuns: one vLLM copy over two instances is one runnable
// script: the first instance (NODE_RANK 0) starts the Ray head and
// serves, the other joins it; it parses as POSIX shell.
func TestMultiNodeVLLMRuns(t *testing.T) {
	req := serving(t, "llama-3.1-405b", 2, estimator.VLLM, plan.OnDemand)
	row := servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)
	row.PP, row.InstancesPerReplica, row.Instances, row.GPUs = 2, 2, 2, 16
	l, err := launch.Emit(launch.VLLM, req, row, nil, "llama-3.1-405b")
	if err != nil {
		t.Fatal(err)
	}
	text := l.Files[0].Text
	head, worker := strings.Index(text, "ray start --head --port=6379"), strings.Index(text, `ray start --address="$HEAD_IP:6379" --block`)
	serve := strings.Index(text, "vllm serve")
	if !strings.Contains(text, `if [ "$NODE_RANK" = 0 ]; then`) || head < 0 || worker < 0 || !(head < serve && serve < worker) ||
		!strings.Contains(text, "--pipeline-parallel-size 2") || !strings.Contains(text, "--distributed-executor-backend ray") {
		t.Fatalf("multi-node launch:\n%s", text)
	}
	if sh, err := exec.LookPath("sh"); err == nil {
		cmd := exec.Command(sh, "-n")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sh -n: %v: %s\n%s", err, out, text)
		}
	}
	checkRayCluster(t, "serve.sh", l, text)
	sky, err := launch.Emit(launch.SkyPilot, req, row, nil, "llama-3.1-405b")
	if err != nil {
		t.Fatal(err)
	}
	doc := checkSkyPilot(t, "task.yaml", sky.Files[0].Text)
	setup, _ := doc["setup"].(string)
	run, _ := doc["run"].(string)
	if !strings.Contains(setup, `"ray[cgraph]"`) {
		t.Errorf("the task starts Ray and does not install it:\n%s", setup)
	}
	checkRayCluster(t, "task.yaml run", sky, run)
}

// checkRayCluster checks a vLLM copy over several instances: ray start's
// flags are Ray's (testdata/ray_start_flags.txt), the head listens on the
// port the other instances join at, and the note says to install Ray,
// which vLLM's wheel no longer brings.
func checkRayCluster(t *testing.T, where string, l launch.Launch, text string) {
	t.Helper()
	var head, join []invocation
	for _, c := range checkShell(t, where, text) {
		if c.tool != "ray" {
			continue
		}
		if _, ok := c.has("--head"); ok {
			head = append(head, c)
		} else {
			join = append(join, c)
		}
	}
	if len(head) != 1 || len(join) != 1 {
		t.Fatalf("%s: %d ray heads and %d joins:\n%s", where, len(head), len(join), text)
	}
	port, _ := head[0].has("--port")
	addr, _ := join[0].has("--address")
	if _, block := join[0].has("--block"); port == "" || addr != "$HEAD_IP:"+port || !block {
		t.Errorf("%s: head port %q, the others join %q (block %v)", where, port, addr, block)
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, `pip install "ray[cgraph]"`) }) {
		t.Errorf("%s: no note installs Ray: %q", where, l.Notes)
	}
}

// TestLaunchSaysWhyGemmaRunsFP32: a Gemma 3 launch on Turing runs fp32
// and its note gives vLLM's reason (fp16 refused for the model family,
// quantised kernels' fp16 activations refused too), not "bf16 does not
// run on Turing", which alone would have led to fp16.
func TestLaunchSaysWhyGemmaRunsFP32(t *testing.T) {
	for _, c := range []struct {
		prec estimator.DType
		want string
	}{
		{estimator.BF16, "vllm refuses fp16 for gemma3_text models (numerical instability), and Turing GPUs have no bf16: these settings run fp32"},
		{estimator.INT4, "int4 kernels run fp16 activations, which vllm refuses for gemma3_text models, and Turing GPUs have no bf16: these settings run fp32 weights from the unquantised checkpoint"},
	} {
		req := serving(t, "gemma-3-12b", 1, estimator.VLLM, plan.OnDemand)
		req.Input.Weights = c.prec
		row := rowOn(t, req, "t4")
		l, err := launch.Emit(launch.VLLM, req, row, nil, "gemma-3-12b")
		if err != nil {
			t.Fatalf("%v: %v", c.prec, err)
		}
		if text := l.Text(); !strings.Contains(text, "--dtype float32") || !strings.Contains(text, c.want) {
			t.Errorf("%v Gemma 3 on T4:\n%s", c.prec, text)
		}
	}
}

// TestLaunchOnAV100NamesTheRelease: vLLM's releases from 0.20.0 ship no
// Volta kernels (estimator.SupportForJob), so a V100 row planned for
// vLLM 0.19.1 launches, and the same row at the current release is
// refused with the release that dropped Volta and the way out.
func TestLaunchOnAV100NamesTheRelease(t *testing.T) {
	req := serving(t, "llama-3.1-8b", 1, estimator.VLLM, plan.OnDemand)
	req.Input.EngineVersion = estimator.EngineVersion{Major: 0, Minor: 19, Patch: 1}
	row := rowOn(t, req, "v100-32gb")
	l, err := launch.Emit(launch.VLLM, req, row, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatalf("vLLM 0.19.1 on a V100: %v", err)
	}
	if text := l.Text(); !strings.Contains(text, "--dtype float16") {
		t.Errorf("vLLM 0.19.1 on a V100 runs fp16:\n%s", text)
	}
	req.Input.EngineVersion = estimator.EngineVersion{}
	_, err = launch.Emit(launch.VLLM, req, row, nil, "llama-3.1-8b")
	if err == nil || !strings.Contains(err.Error(), "vllm 0.33.0 does not start on Volta GPUs") || !strings.Contains(err.Error(), "before 0.20.0") {
		t.Fatalf("the current vLLM on a V100: %v", err)
	}
}

// TestSkyPilotOnAV100: a V100's SkyPilot tasks install what starts there.
// A batch job the plan runs on HF transformers there (no current vLLM on
// Volta) is refused rather than written as a vLLM task that would not
// start; a vLLM job planned for 0.19.1 pins that release, the latest
// being built without Volta's kernels; a fine-tune installs PyTorch's
// CUDA 12.6 build before the training packages, and the DeepSpeed launch
// says why.
func TestSkyPilotOnAV100(t *testing.T) {
	batch := serving(t, "llama-3.1-8b", 1, estimator.VLLM, plan.OnDemand)
	batch.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e4, PromptTokens: 500, OutputTokens: 200}
	batch.Input.Engine = estimator.HF
	row := rowOn(t, batch, "v100-32gb")
	if row.Engine != estimator.HF {
		t.Fatalf("the batch row on a V100 runs on %v, want hf", row.Engine)
	}
	if _, err := launch.Emit(launch.SkyPilot, batch, row, nil, "llama-3.1-8b"); err == nil || !strings.Contains(err.Error(), "does not start on Volta") {
		t.Errorf("a vLLM task for an HF row on a V100: %v", err)
	}

	serve := serving(t, "llama-3.1-8b", 1, estimator.VLLM, plan.OnDemand)
	serve.Input.EngineVersion = estimator.EngineVersion{Major: 0, Minor: 19, Patch: 1}
	row = rowOn(t, serve, "v100-32gb")
	l, err := launch.Emit(launch.SkyPilot, serve, row, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if y := l.Files[0].Text; !strings.Contains(y, "pip install vllm==0.19.1\n") {
		t.Errorf("vLLM 0.19.1 on a V100 installs:\n%s", y)
	}

	lora := serving(t, "llama-3.1-8b", 1, estimator.VLLM, plan.OnDemand)
	lora.Input.Task, lora.Input.Engine, lora.Input.Seq = estimator.LoRA, estimator.HF, 1024
	lora.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e7}
	row = rowOn(t, lora, "v100-32gb")
	l, err = launch.Emit(launch.SkyPilot, lora, row, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	y := l.Files[0].Text
	torch, pkgs := strings.Index(y, "pip install torch --index-url https://download.pytorch.org/whl/cu126\n"), strings.Index(y, "pip install transformers")
	if torch < 0 || pkgs < torch {
		t.Errorf("a LoRA on a V100 installs:\n%s", y)
	}
	ds, err := launch.Emit(launch.DeepSpeed, lora, row, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ds.Notes, "\n"), "Volta GPUs run its CUDA 12.6 build") {
		t.Errorf("the DeepSpeed launch on a V100 notes %q", ds.Notes)
	}
	// Elsewhere nothing changes.
	h100 := rowOn(t, lora, "h100-sxm")
	if l, err := launch.Emit(launch.SkyPilot, lora, h100, nil, "llama-3.1-8b"); err != nil || strings.Contains(l.Files[0].Text, "cu126") {
		t.Errorf("a LoRA on an H100: %v", err)
	}
}
