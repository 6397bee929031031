package launch_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

func TestParseKind(t *testing.T) {
	for _, k := range launch.Kinds {
		got, err := launch.ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	_, err := launch.ParseKind("kubernetes")
	var ie *estimator.InputError
	if !errors.As(err, &ie) || ie.Field != "emit" || !errors.Is(err, estimator.ErrUnknown) {
		t.Fatalf("ParseKind(kubernetes) = %v", err)
	}
	for _, k := range launch.Kinds {
		if !strings.Contains(err.Error(), k.String()) {
			t.Errorf("%q does not list %s", err, k)
		}
	}
}

func TestFor(t *testing.T) {
	if got := launch.For(plan.Training, false); len(got) != 3 || got[0] != launch.DeepSpeed || got[2] != launch.SkyPilot {
		t.Errorf("For(training) = %v", got)
	}
	if got := launch.For(plan.Training, true); len(got) != 1 || got[0] != launch.LitGPT {
		t.Errorf("For(training, LitGPT's) = %v", got)
	}
	for _, w := range []plan.Kind{plan.Batch, plan.Serving} {
		for _, litgpt := range []bool{false, true} {
			if got := launch.For(w, litgpt); len(got) != 4 || got[0] != launch.VLLM || got[3] != launch.SkyPilot {
				t.Errorf("For(%v, %v) = %v", w, litgpt, got)
			}
		}
	}
	for _, k := range launch.Kinds {
		if k.Training() == k.Serving() && k != launch.SkyPilot {
			t.Errorf("%v is neither or both", k)
		}
	}
}

// TestRefusals: a launch that would not run the plan is refused with one
// sentence saying why and what to use instead.
func TestRefusals(t *testing.T) {
	train := goldenCases[4].req(t)
	trainRow := goldenCases[4].row(t, train)
	serve := serving(t, "llama-3.1-8b", 2, estimator.VLLM, plan.OnDemand)
	serveRow := servingRow(t, serve, "aws-p5.4xlarge", 1, 1, 1)
	cw := servingRow(t, serve, "coreweave-nvidia-hgx-h100", 1, 8, 1)
	tp := trainRow
	tp.TP, tp.DP, tp.ZeRO = 2, 4, 1
	fsdpTP := tp // TP with the parameters sharded too: torchtitan's FSDP2 + TP
	fsdpTP.ZeRO = 3
	pretrain := train // torchtitan pre-trains Llama 3; fine-tunes it does not run
	pretrain.Input.Task = estimator.Pretrain
	fsdpOpt := train // OffloadOptimizer
	ep := trainRow
	ep.EP = 8      // a MoE plan with its experts over 8 of the DP ranks
	cp := trainRow // each sequence over 2 GPUs (a fleet past its global batch)
	cp.CP, cp.DP = 2, 4
	fsdpCP := cp // CP with the parameters sharded: torchtitan's FSDP2 + CP
	fsdpCP.TP, fsdpCP.DP, fsdpCP.ZeRO = 2, 2, 3
	unfit := serveRow
	unfit.Fits = false
	for _, c := range []struct {
		name string
		k    launch.Kind
		req  plan.Request
		row  plan.Row
		want string
		key  string
	}{
		{"vllm for training", launch.VLLM, train, trainRow, "serves inference and this plan is training (task finetune): use deepspeed, fsdp or skypilot", launch.ErrTrainingPlan},
		{"trtllm for training", launch.TRTLLM, train, trainRow, "use deepspeed", launch.ErrTrainingPlan},
		{"deepspeed for serving", launch.DeepSpeed, serve, serveRow, "launches training and this plan is serving inference: use vllm", launch.ErrInferencePlan},
		{"fsdp for serving", launch.FSDP, serve, serveRow, "use vllm, sglang, trtllm or skypilot", launch.ErrInferencePlan},
		{"skypilot on coreweave", launch.SkyPilot, serve, cw, "SkyPilot does not support CoreWeave (coreweave); clouds it launches on: aws, azure, cudo", launch.ErrNoSkyPilotCloud},
		{"deepspeed with TP", launch.DeepSpeed, train, tp, "TP 2 × PP 1 at ZeRO-1; DeepSpeed ZeRO and FSDP configs here are data-parallel only: run it with Megatron-LM or NeMo", launch.ErrModelParallel},
		{"fsdp with TP at ZeRO-3", launch.FSDP, pretrain, fsdpTP, "run it with torchtitan (FSDP2 with --parallelism.tensor_parallel_degree 2 --parallelism.pipeline_parallel_degree 1)", launch.ErrModelParallel},
		{"fine-tune with TP at ZeRO-3", launch.FSDP, train, fsdpTP, "no training stack runs it (Megatron-LM's distributed optimizer shards optimizer states only, ZeRO-1; torchtitan pre-trains Llama 3, Qwen3 and DeepSeek-V3 only", launch.ErrModelParallel},
		{"skypilot training with TP", launch.SkyPilot, train, tp, "Megatron-LM", launch.ErrModelParallel},
		{"deepspeed with EP", launch.DeepSpeed, train, ep, "splits the experts over EP 8 ranks; DeepSpeed ZeRO and FSDP configs here have no expert parallelism", launch.ErrModelParallel},
		{"fsdp with EP", launch.FSDP, train, ep, "--expert-model-parallel-size", launch.ErrModelParallel},
		{"skypilot training with EP", launch.SkyPilot, train, ep, "no expert parallelism", launch.ErrModelParallel},
		{"deepspeed with CP", launch.DeepSpeed, train, cp, "TP 1 × PP 1 × CP 2 at ZeRO-", launch.ErrModelParallel},
		{"fsdp with CP at ZeRO-3", launch.FSDP, pretrain, fsdpCP, "--parallelism.pipeline_parallel_degree 1 --parallelism.context_parallel_degree 2)", launch.ErrModelParallel},
		{"fsdp with optimizer offload", launch.FSDP, fsdpOpt, trainRow, "FSDP cannot", launch.ErrOptimizerOnly},
		{"unfit row", launch.VLLM, serve, unfit, "does not fit", launch.ErrUnfit},
		{"bad kind", launch.Kind(99), serve, serveRow, "want vllm, sglang, trtllm, fsdp, deepspeed, skypilot", launch.ErrUnknownKind},
	} {
		_, err := launch.Emit(c.k, c.req, c.row, nil, "llama-3.1-8b")
		var le *launch.Error
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) || le.Key != c.key {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: more than one line: %q", c.name, err)
		}
	}
}

// TestModelRef: a catalog model runs from its Hugging Face repository (its
// instruction-tuned sibling for inference: instructRepo); a
// repository ID or a path is used as given; no model takes the
// repository the config names, and says so (TestConfigIsNotCheckpoint:
// or leaves a placeholder).
func TestModelRef(t *testing.T) {
	req := serving(t, "llama-3.1-8b", 2, estimator.VLLM, plan.OnDemand)
	row := servingRow(t, req, "aws-p5.4xlarge", 1, 1, 1)
	for _, c := range []struct{ model, want, note string }{
		// A catalog model whose ID names a pretrained checkpoint and its
		// chat model serves the chat model, and says how to serve the other.
		{"llama-3.1-8b", "vllm serve meta-llama/Llama-3.1-8B-Instruct ", "inference takes meta-llama/Llama-3.1-8B-Instruct, which answers chat requests; name meta-llama/Llama-3.1-8B as the model"},
		{"llama-4-scout-17b-16e", "vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct ", "name meta-llama/Llama-4-Scout-17B-16E as the model"},
		{"llama-4-maverick-17b-128e", "vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct ", "Maverick-17B-128E as the model"},
		{"llama-2-7b", "vllm serve meta-llama/Llama-2-7b-chat-hf ", "Llama-2-7b-hf as the model"},
		{"qwen2.5-7b", "vllm serve Qwen/Qwen2.5-7B-Instruct ", "Qwen/Qwen2.5-7B as the model"},
		{"gemma-3-4b", "vllm serve google/gemma-3-4b-it ", "google/gemma-3-4b-pt as the model"},
		{"mistral-nemo-12b", "vllm serve mistralai/Mistral-Nemo-Instruct-2407 ", "Mistral-Nemo-Base-2407 as the model"},
		{"mixtral-8x7b", "vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 ", "mistralai/Mixtral-8x7B-v0.1 as the model"},
		// Qwen3's plain names are its post-trained models; a chat model
		// in the catalog, or a repository named, is served as it is.
		{"qwen3-8b", "vllm serve Qwen/Qwen3-8B ", ""},
		{"llama-3.3-70b", "vllm serve meta-llama/Llama-3.3-70B-Instruct ", ""},
		{"meta-llama/Llama-3.1-8B", "vllm serve meta-llama/Llama-3.1-8B ", ""},
		{"org/My-Model", "vllm serve org/My-Model ", ""},
		{"/models/ckpt", "vllm serve /models/ckpt ", ""},
		{"", "vllm serve meta-llama/Llama-3.1-8B ", "the checkpoint is meta-llama/Llama-3.1-8B, the Hugging Face repository the config names (_name_or_path)"},
		{"resnet-50", "vllm serve resnet-50 ", "names no Hugging Face repository for resnet-50"},
	} {
		l, err := launch.Emit(launch.VLLM, req, row, nil, c.model)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(l.Files[0].Text, c.want) {
			t.Errorf("%q: %s", c.model, l.Files[0].Text)
		}
		if got := strings.Join(l.Notes, "; "); (c.note == "") != (got == "") || !strings.Contains(got, c.note) {
			t.Errorf("%q: notes %q, want %q", c.model, got, c.note)
		}
	}
}

// TestEveryTextModelHasACheckpoint: a serving launch of any catalog
// text-generation model names the Hugging Face repository its engine
// downloads, not the catalog's ID, which no engine resolves (DeepSeek-V3,
// Mixtral 8x7B and 8x22B and Llama 3.2 3B once launched as "deepseek-v3",
// "mixtral-8x7b", ...).
func TestEveryTextModelHasACheckpoint(t *testing.T) {
	req := serving(t, "llama-3.1-8b", 2, estimator.VLLM, plan.OnDemand)
	row := servingRow(t, req, "aws-p5.4xlarge", 1, 1, 1)
	for _, m := range catalog.Default().Models {
		if m.Task != "text-generation" {
			continue
		}
		l, err := launch.Emit(launch.VLLM, req, row, nil, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if notes := strings.Join(l.Notes, "; "); strings.Contains(notes, "names no Hugging Face repository") {
			t.Errorf("%s: %s", m.ID, notes)
		}
		if strings.Contains(l.Files[0].Text, "vllm serve "+m.ID+" ") {
			t.Errorf("%s: launched by its catalog ID:\n%s", m.ID, l.Files[0].Text)
		}
	}
}

// flagInt is an integer flag of the first command of tool in text.
func flagInt(t *testing.T, text, tool, flag string) int {
	t.Helper()
	for _, c := range commands(t, text) {
		if c.is(tool) {
			v, ok := c.has(flag)
			if !ok {
				return 0
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s %s %q", tool, flag, v)
			}
			return n
		}
	}
	t.Fatalf("no %s command in\n%s", tool, text)
	return 0
}

// TestRealPlans plans jobs over the whole catalog as the command line
// does and launches the best rows of each with every kind that fits the
// workload: each output holds only documented flags and keys, parses, and
// carries the row's figures (TP, copies, nodes, replicas, ZeRO stage,
// micro-batch and accumulation, the estimator input's memory share and
// request length).
func TestRealPlans(t *testing.T) {
	cat := catalog.Default()
	type job struct {
		name, model string
		req         func() plan.Request
		litgpt      bool // planned for LitGPT's scripts (launch.For)
	}
	jobs := []job{
		{"8b serving", "llama-3.1-8b", func() plan.Request { return serving(t, "llama-3.1-8b", 20, estimator.VLLM, plan.OnDemand) }, false},
		{"70b serving spot", "llama-3.1-70b", func() plan.Request { return serving(t, "llama-3.1-70b", 10, estimator.VLLM, plan.Spot) }, false},
		{"8b batch", "llama-3.1-8b", func() plan.Request {
			in := input(t, "llama-3.1-8b")
			in.Engine = estimator.VLLM
			return plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 1500, OutputTokens: 500}}
		}, false},
		{"8b finetune", "llama-3.1-8b", func() plan.Request {
			in := input(t, "llama-3.1-8b")
			in.Task, in.GradCheckpointing = estimator.FullFinetune, true
			return plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 2e9, GlobalBatchTokens: 1 << 20}}
		}, false},
		{"8b lora", "llama-3.1-8b", func() plan.Request {
			in := input(t, "llama-3.1-8b")
			in.Task = estimator.LoRA
			return plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 2e8}}
		}, false},
		// A LitGPT fine-tune on the layout LitGPT runs on 4 GPUs (FSDP
		// full shard, every Block recomputed), fixed as --gpu and
		// --gpus fix it.
		{"8b lora litgpt", "llama-3-8b", func() plan.Request {
			r := litgptJob(t, "llama-3-8b", estimator.LoRA)
			r.Input.GPUs, r.Input.ZeRO, r.Input.GradCheckpointing, r.FixedParallelism = 4, 3, true, true
			return r
		}, true},
	}
	launched := map[launch.Kind]int{}
	for _, j := range jobs {
		req := j.req()
		res, err := plan.Plan(req, cat.PlanOffers(req.Input.Weights), plan.Options{Top: 12})
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		if res.Cheapest < 0 {
			t.Fatalf("%s: nothing fits", j.name)
		}
		for _, row := range res.Rows {
			if !row.Fits {
				continue
			}
			for _, k := range launch.For(req.Workload.Kind, j.litgpt) {
				where := j.name + " " + row.Offer.ID + " " + k.String()
				l, err := launch.Emit(k, req, row, cat, j.model)
				var le *launch.Error
				if errors.As(err, &le) && le.Key == launch.ErrUnsupported {
					// The engine does not start on this GPU: the support
					// table says so, or the refusal is a defect.
					eng := map[launch.Kind]estimator.Engine{launch.VLLM: estimator.VLLM, launch.SGLang: estimator.SGLang, launch.TRTLLM: estimator.TRTLLM}[k]
					if !k.Serving() {
						eng = row.Engine
					}
					if estimator.SupportFor(row.Offer.Hardware.Generation, eng, req.Input.Task, req.Input.Weights).Runs {
						t.Errorf("%s: refused though the support table runs it: %v", where, err)
					}
					continue
				}
				if errors.As(err, &le) {
					// Refusals the row explains: a provider SkyPilot
					// lacks, a GPU without a SkyPilot name, a
					// parallelism beyond ZeRO/FSDP.
					if _, ok := launch.SkyCloud(row.Offer.Provider); (k == launch.SkyPilot && !ok) || row.TP > 1 || row.PP > 1 ||
						strings.Contains(le.Reason, "no SkyPilot accelerator name") {
						continue
					}
				}
				if err != nil {
					t.Errorf("%s: %v", where, err)
					continue
				}
				launched[k]++
				checkLaunch(t, where, l, row.DP)
				checkFigures(t, where, req, row, l)
			}
		}
	}
	t.Logf("rows launched per kind: %v", launched)
	for _, k := range launch.Kinds {
		if launched[k] < 3 {
			t.Errorf("%v launched %d rows of real plans, want ≥ 3", k, launched[k])
		}
	}
}

// checkFigures compares a launch's numbers with the row's and the input's.
func checkFigures(t *testing.T, where string, req plan.Request, row plan.Row, l launch.Launch) {
	t.Helper()
	main := l.Files[0].Text
	prompt, output := req.Workload.PromptTokens, req.Workload.OutputTokens
	switch l.Kind {
	case launch.VLLM:
		if got := flagInt(t, main, "vllm", "--tensor-parallel-size"); got != row.TP {
			t.Errorf("%s: TP %d, row %d", where, got, row.TP)
		}
		if dp := flagInt(t, main, "vllm", "--data-parallel-size"); max(dp, 1) != max(row.DP, 1) {
			t.Errorf("%s: DP %d, row's copies %d", where, dp, row.DP)
		}
		if got := flagInt(t, main, "vllm", "--max-model-len"); got != prompt+output {
			t.Errorf("%s: max-model-len %d, want %d", where, got, prompt+output)
		}
		checkSemantics(t, where, req, row, main, "vllm", estimator.VLLM, "--dtype", "--tensor-parallel-size", "--max-model-len")
		if req.Workload.Kind == plan.Serving {
			// vLLM's own defaults on the row's GPU, which the simulator
			// sized the row with: 1024 sequences at ≥ 70 GiB, else 256,
			// and 256 on an A100 whatever its memory (the engine names
			// it).
			want := 256
			if row.Offer.GPUMemory >= 70*estimator.GiB && row.Offer.GPUCount >= 1 && !row.Offer.Hardware.VLLMSmallDefaults {
				want = 1024
			}
			if got := flagInt(t, main, "vllm", "--max-num-seqs"); got != want {
				t.Errorf("%s: max-num-seqs %d on %s, want vLLM's default %d", where, got, row.Offer.GPU, want)
			}
		}
		if req.Workload.Kind == plan.Batch {
			if got := flagInt(t, main, "vllm", "--max-num-seqs"); got < 1 || float64(got) < row.Concurrency || float64(got) > row.Concurrency+1 {
				t.Errorf("%s: max-num-seqs %d, the plan's batch per copy %g", where, got, row.Concurrency)
			}
		}
		if !strings.Contains(main, "--gpu-memory-utilization "+strconv.FormatFloat(req.Input.GPUMemUtil, 'g', -1, 64)) {
			t.Errorf("%s: not at the input's memory share %g", where, req.Input.GPUMemUtil)
		}
	case launch.SGLang:
		if got := flagInt(t, main, "sglang", "--tp-size"); got != row.TP {
			t.Errorf("%s: TP %d, row %d", where, got, row.TP)
		}
		checkSemantics(t, where, req, row, main, "sglang", estimator.SGLang, "--dtype", "--tp-size", "--context-length")
	case launch.TRTLLM:
		if got := flagInt(t, main, "trtllm", "--tp_size"); got != row.TP {
			t.Errorf("%s: TP %d, row %d", where, got, row.TP)
		}
		if n := strings.Count(main, "trtllm-serve "); n != max(row.DP, 1) {
			t.Errorf("%s: %d processes for %d copies", where, n, row.DP)
		}
	case launch.DeepSpeed:
		ds := checkDeepSpeed(t, where, l.Files[1].Text, row.DP)
		z := ds["zero_optimization"].(map[string]any)["stage"]
		if z.(interface{ String() string }).String() != strconv.Itoa(row.ZeRO) {
			t.Errorf("%s: ZeRO %v, row %d", where, z, row.ZeRO)
		}
		if got := flagInt(t, main, "torchrun", "--nnodes"); got != row.Instances {
			t.Errorf("%s: %d nodes, row %d instances", where, got, row.Instances)
		}
		if got := flagInt(t, main, "torchrun", "--nproc-per-node"); got != int(row.Offer.GPUCount) {
			t.Errorf("%s: %d per node, offer %g", where, got, row.Offer.GPUCount)
		}
		if got := flagInt(t, main, "script", "--per_device_train_batch_size"); got != req.Input.Batch {
			t.Errorf("%s: micro-batch %d, input %d", where, got, req.Input.Batch)
		}
	case launch.FSDP:
		doc := parseYAML(t, l.Files[1].Text)
		if doc["num_processes"] != int64(row.GPUs) || doc["num_machines"] != int64(row.Instances) {
			t.Errorf("%s: %v processes on %v machines, row %g GPUs on %d", where, doc["num_processes"], doc["num_machines"], row.GPUs, row.Instances)
		}
	case launch.LitGPT:
		tool := "litgpt-finetune_lora"
		if req.Input.Task == estimator.FullFinetune {
			tool = "litgpt-finetune_full"
		}
		devices, nodes := flagInt(t, main, tool, "--devices"), flagInt(t, main, tool, "--num_nodes")
		if nodes != max(row.Instances, 1) || devices*nodes != row.DP {
			t.Errorf("%s: %d devices on %d nodes, row DP %d on %d instances", where, devices, nodes, row.DP, row.Instances)
		}
		if got := flagInt(t, main, tool, "--train.micro_batch_size"); got != req.Input.Batch {
			t.Errorf("%s: micro-batch %d, input %d", where, got, req.Input.Batch)
		}
		// lora.py's global batch counts one instance's GPUs; over all
		// of them it is the plan's sequences a step.
		if got, want := flagInt(t, main, tool, "--train.global_batch_size")*nodes, int(req.Workload.GlobalBatchTokens)/req.Input.Seq; got != max(want, row.DP*req.Input.Batch) {
			t.Errorf("%s: global batch %d sequences, the plan's %d", where, got, want)
		}
		if got := flagInt(t, main, tool, "--train.max_seq_length"); got != req.Input.Seq {
			t.Errorf("%s: sequence %d, input %d", where, got, req.Input.Seq)
		}
		if got := flagInt(t, main, tool, "--lora_r"); tool == "litgpt-finetune_lora" && got != req.Input.LoRARank {
			t.Errorf("%s: rank %d, input %d", where, got, req.Input.LoRARank)
		}
	case launch.SkyPilot:
		doc := parseYAML(t, main)
		res := doc["resources"].(map[string]any)
		if res["use_spot"] != (row.Pricing == plan.Spot) {
			t.Errorf("%s: use_spot %v for %v", where, res["use_spot"], row.Pricing)
		}
		nodes := doc["num_nodes"].(int64)
		switch req.Workload.Kind {
		case plan.Serving:
			svc := doc["service"].(map[string]any)
			if svc["replicas"] != int64(row.Replicas) || nodes != int64(row.InstancesPerReplica) {
				t.Errorf("%s: %v replicas of %d nodes, row %d of %d", where, svc["replicas"], nodes, row.Replicas, row.InstancesPerReplica)
			}
		default:
			if nodes != int64(row.Instances) {
				t.Errorf("%s: %d nodes, row %d instances", where, nodes, row.Instances)
			}
		}
		if cloud, _ := launch.SkyCloud(row.Offer.Provider); res["cloud"] != cloud {
			t.Errorf("%s: cloud %v, provider %s", where, res["cloud"], row.Offer.Provider)
		}
	}
}

// TestImports keeps the package as light as the page needs: the
// standard library (no JSON or template package: the text is written
// directly) and Rightsize's catalog, estimator, planner and its serving
// simulator (whose engine defaults the serving rows were sized with).
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "rightsize/catalog/launch").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{"rightsize/catalog": true, "rightsize/estimator": true, "rightsize/estimator/plan": true, "rightsize/estimator/sim": true}
	for _, p := range strings.Fields(string(out)) {
		switch {
		case p == "encoding/json" || strings.HasSuffix(p, "/template") || p == "fmt":
			t.Errorf("catalog/launch imports %s: write the text directly", p)
		case strings.Contains(p, ".") || (strings.HasPrefix(p, "rightsize/") && !allowed[p]):
			t.Errorf("catalog/launch imports %s", p)
		}
	}
}

// checkSemantics holds a serving launch to what runs where, beyond its
// flag names: the dtype it asks for runs on the row's GPU under the
// engine (estimator.SupportFor gives no substitute for it), the tensor
// parallelism divides the attention heads, and the context length is
// within the model's.
func checkSemantics(t *testing.T, where string, req plan.Request, row plan.Row, text, tool string, eng estimator.Engine, dtypeFlag, tpFlag, ctxFlag string) {
	t.Helper()
	for _, c := range commands(t, text) {
		if !c.is(tool) {
			continue
		}
		if v, ok := c.has(dtypeFlag); ok {
			d := map[string]estimator.DType{"bfloat16": estimator.BF16, "float16": estimator.FP16, "half": estimator.FP16, "float32": estimator.FP32}[v]
			if s := estimator.SupportFor(row.Offer.Hardware.Generation, eng, req.Input.Task, d); !s.Runs || s.Weights != d {
				t.Errorf("%s: %s %s on %v, which runs %v", where, dtypeFlag, v, row.Offer.Hardware.Generation, s.Weights)
			}
		}
		a := req.Input.Arch
		if tp := flagInt(t, text, tool, tpFlag); tp > 0 && a.Heads > 0 && a.Heads%tp != 0 {
			t.Errorf("%s: TP %d does not divide %d heads", where, tp, a.Heads)
		}
		if n := flagInt(t, text, tool, ctxFlag); a.MaxPositions > 0 && n > a.MaxPositions {
			t.Errorf("%s: context %d over the model's %d", where, n, a.MaxPositions)
		}
		return
	}
}

// TestEmitPlannedExpertLayout: the layout the planner chooses for
// DeepSeek-R1 on 8 × H200 (attention DP 8, EP 8: plan.Row.AttnDP, EP)
// is the layout each engine's launch starts, with no layout in the
// request.
func TestEmitPlannedExpertLayout(t *testing.T) {
	in := input(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 100, PromptTokens: 1024, OutputTokens: 1024,
		TTFTP95Seconds: 2, TPOTSeconds: 0.05}}
	row := planOn(t, req, "aws-p5en.48xlarge")
	if row.TP != 8 || row.AttnDP != 8 || row.EP != 8 {
		t.Fatalf("planned TP %d DP %d EP %d, want TP 8 DP 8 EP 8", row.TP, row.AttnDP, row.EP)
	}
	want := map[launch.Kind]map[string]string{
		launch.SGLang: {"--tp-size": "8", "--dp-size": "8", "--enable-dp-attention": "", "--ep-size": "8"},
		launch.VLLM:   {"--tensor-parallel-size": "1", "--data-parallel-size": "8", "--enable-expert-parallel": ""},
		launch.TRTLLM: {"--tp_size": "8", "--ep_size": "8", "--extra_llm_api_options": "extra_llm_api_options.yaml"},
	}
	for k, flags := range want {
		l, err := launch.Emit(k, req, row, nil, "deepseek-ai/DeepSeek-R1")
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		cmds := commands(t, l.Files[0].Text)
		if len(cmds) != 1 {
			t.Fatalf("%s: %d commands, want one engine copy per instance:\n%s", k, len(cmds), l.Text())
		}
		for f, v := range flags {
			if got, ok := cmds[0].has(f); !ok || got != v {
				t.Errorf("%s: %s %q (set %v), want %q:\n%s", k, f, got, ok, v, l.Files[0].Text)
			}
		}
		if k == launch.TRTLLM && (len(l.Files) != 2 || !strings.Contains(l.Files[1].Text, "\nenable_attention_dp: true\n")) {
			t.Errorf("trtllm: no LLM API options file with enable_attention_dp:\n%s", l.Text())
		}
	}
}

// TestEmitWideExpertLayoutVLLM: a wide expert-parallel copy over two
// instances (TP = DP = EP = 16) runs on vLLM as 16 data-parallel ranks
// placed by Ray, 8 on each instance, not as one Ray-executor copy.
func TestEmitWideExpertLayoutVLLM(t *testing.T) {
	var c goldenCase
	for _, g := range goldenCases {
		if g.name == "deepseek-r1-wide-ep16" {
			c = g
		}
	}
	if c.req == nil {
		t.Fatal("no wide-EP golden case")
	}
	req := c.req(t)
	l, err := launch.Emit(launch.VLLM, req, c.row(t, req), nil, c.model)
	if err != nil {
		t.Fatal(err)
	}
	text := l.Files[0].Text
	for _, want := range []string{"--tensor-parallel-size 1 \\", "--data-parallel-size 16 \\", "--enable-expert-parallel \\",
		"--data-parallel-backend ray \\", "--data-parallel-size-local 8 \\", "ray start --head"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "--distributed-executor-backend") {
		t.Errorf("a Ray-executor copy:\n%s", text)
	}
}

// TestVLLMMoECopiesRunApart: copies of a mixture-of-experts model that
// the plan runs side by side on one instance (TP 2, four copies on an
// 8-GPU H100 instance, no expert parallelism) are four vllm serve
// processes, each on its own two GPUs and port. vLLM's
// --data-parallel-size would join them: for an MoE model its ranks step
// together and its expert layers form one tensor-parallel group of DP x TP
// GPUs (vLLM docs, "Data Parallel Deployment"), a layout the plan did not
// price. A dense model's copies stay one process with
// --data-parallel-size, whose ranks are independent.
func TestVLLMMoECopiesRunApart(t *testing.T) {
	for _, c := range []struct {
		model    string
		procs    int
		dpFlag   bool
		wantGPUs []string
	}{
		{"qwen3-30b-a3b", 4, false, []string{"0,1", "2,3", "4,5", "6,7"}},
		{"mixtral-8x7b", 4, false, []string{"0,1", "2,3", "4,5", "6,7"}},
		{"llama-3.1-8b", 1, true, []string{""}},
	} {
		req := serving(t, c.model, 20, estimator.VLLM, plan.OnDemand)
		row := servingRow(t, req, "aws-p5.48xlarge", 2, 4, 1)
		l, err := launch.Emit(launch.VLLM, req, row, nil, c.model)
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		text := l.Files[0].Text
		cmds := commands(t, text)
		if len(cmds) != c.procs {
			t.Fatalf("%s: %d vllm serve processes, want %d:\n%s", c.model, len(cmds), c.procs, text)
		}
		for i, cmd := range cmds {
			if tp, _ := cmd.has("--tensor-parallel-size"); tp != "2" {
				t.Errorf("%s copy %d: --tensor-parallel-size %q, want 2", c.model, i, tp)
			}
			if dp, ok := cmd.has("--data-parallel-size"); ok != c.dpFlag || (ok && dp != "4") {
				t.Errorf("%s copy %d: --data-parallel-size %q (set %v):\n%s", c.model, i, dp, ok, text)
			}
			if port, _ := cmd.has("--port"); port != strconv.Itoa(8000+i) && c.procs > 1 {
				t.Errorf("%s copy %d: --port %s", c.model, i, port)
			}
			if got := cmd.env["CUDA_VISIBLE_DEVICES"]; got != c.wantGPUs[i] {
				t.Errorf("%s copy %d: CUDA_VISIBLE_DEVICES %q, want %q", c.model, i, got, c.wantGPUs[i])
			}
		}
	}
}

// TestEmitVLLMLimitsOnA100: a serving row on an A100 80GB writes vLLM's
// own defaults there, 256 sequences and 2048 tokens a step (the engine
// gives a GPU whose name holds "a100" its smaller limits whatever its
// memory: vllm/engine/arg_utils.py, get_batch_defaults), the limits the
// simulator sized the row with; an H100 row of the same 80 GiB writes 1024
// and 8192.
func TestEmitVLLMLimitsOnA100(t *testing.T) {
	cat := catalog.Default()
	req := serving(t, "llama-3.1-8b", 2, estimator.VLLM, plan.OnDemand)
	for _, c := range []struct {
		offer         string
		seqs, perStep int
	}{{"akash-a100-80gb-sxm4", 256, 2048}, {"aws-p5.4xlarge", 1024, 8192}} {
		l, err := launch.Emit(launch.VLLM, req, servingRow(t, req, c.offer, 1, 1, 1), cat, "llama-3.1-8b")
		if err != nil {
			t.Fatal(err)
		}
		main := l.Files[0].Text
		if s, b := flagInt(t, main, "vllm", "--max-num-seqs"), flagInt(t, main, "vllm", "--max-num-batched-tokens"); s != c.seqs || b != c.perStep {
			t.Errorf("%s: --max-num-seqs %d --max-num-batched-tokens %d, want %d and %d", c.offer, s, b, c.seqs, c.perStep)
		}
	}
}

// TestSkyPilotAdapterPackages: a SkyPilot task for LoRA installs PEFT,
// and one for QLoRA PEFT and bitsandbytes, beside transformers,
// accelerate and DeepSpeed; the note already told the script to wrap
// the model with PEFT, and the setup installed neither, so the task
// stopped at its first import.
func TestSkyPilotAdapterPackages(t *testing.T) {
	for _, c := range []struct {
		task estimator.Task
		want string
	}{
		{estimator.FullFinetune, "pip install transformers accelerate deepspeed\n"},
		{estimator.LoRA, "pip install transformers accelerate deepspeed peft\n"},
		{estimator.QLoRA, "pip install transformers accelerate deepspeed peft bitsandbytes\n"},
	} {
		in := input(t, "llama-3.1-8b")
		in.Task = c.task
		if c.task == estimator.QLoRA {
			in.Weights = estimator.INT4
		}
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
		o := offer(t, "aws-p5.48xlarge", req.Input.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(launch.SkyPilot, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Fatalf("%v: %v", c.task, err)
		}
		if text := l.Files[0].Text; !strings.Contains(text, "  "+c.want) {
			t.Errorf("%v: want %q in\n%s", c.task, c.want, text)
		}
	}
}

// TestNativeMXFP4Checkpoint: gpt-oss is published in MXFP4, so its fp4
// launch names the published checkpoint without sending the user to
// look for an AWQ/GPTQ/NVFP4 one; a 16-bit model at fp4 still is.
func TestNativeMXFP4Checkpoint(t *testing.T) {
	for _, c := range []struct{ model, note string }{
		{"gpt-oss-120b", "the published checkpoint stores its experts in MXFP4"},
		{"llama-3.1-8b", "replace <your-checkpoint> with a copy of it stored in fp4 (NVFP4 or MXFP4)"},
	} {
		req := serving(t, c.model, 2, estimator.VLLM, plan.OnDemand)
		req.Input.Weights = estimator.FP4
		row := servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)
		l, err := launch.Emit(launch.VLLM, req, row, nil, c.model)
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		if notes := strings.Join(l.Notes, "; "); !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes %q, want %q", c.model, notes, c.note)
		}
	}
}

// TestSkyPilotServeSetup: the task installs the engine the row runs, at
// the release the estimate models where that release is known to be
// published (SGLang 0.5.12), else the latest with a note naming the
// modelled release (vLLM 0.33.0, TensorRT-LLM 1.3.0, an --engine-version
// not on record); TensorRT-LLM's wheel imports MPI at start-up, so its
// setup installs libopenmpi-dev first, as TensorRT-LLM's pip instructions
// do.
func TestSkyPilotServeSetup(t *testing.T) {
	for _, c := range []struct {
		engine     estimator.Engine
		version    string
		want, note string
	}{
		{estimator.VLLM, "", "setup: |\n  pip install vllm\nrun:", "the estimate models vLLM 0.33.0; the setup installs the latest release, which may differ: pin it (vllm==0.33.0)"},
		{estimator.SGLang, "", "setup: |\n  pip install \"sglang[all]==0.5.12\"\nrun:", ""},
		{estimator.SGLang, "0.5.12", "setup: |\n  pip install \"sglang[all]==0.5.12\"\nrun:", ""},
		{estimator.SGLang, "0.5.9", "setup: |\n  pip install \"sglang[all]\"\nrun:", "the estimate models SGLang 0.5.9; the setup installs the latest release, which may differ: pin it (\"sglang[all]==0.5.9\")"},
		{estimator.TRTLLM, "", "setup: |\n  sudo apt-get update && sudo apt-get -y install libopenmpi-dev\n  pip install tensorrt-llm\nrun:", "(tensorrt-llm==1.3.0)"},
	} {
		req := serving(t, "llama-3.1-8b", 2, c.engine, plan.OnDemand)
		if c.version != "" {
			v, err := estimator.ParseEngineVersion(c.version)
			if err != nil {
				t.Fatal(err)
			}
			req.Input.EngineVersion = v
		}
		row := servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)
		l, err := launch.Emit(launch.SkyPilot, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Fatalf("%v %s: %v", c.engine, c.version, err)
		}
		if text := l.Files[0].Text; !strings.Contains(text, c.want) {
			t.Errorf("%v %s: want %q in\n%s", c.engine, c.version, c.want, text)
		}
		notes := strings.Join(l.Notes, "\n")
		if c.note != "" && !strings.Contains(notes, c.note) || c.note == "" && strings.Contains(notes, "the estimate models") {
			t.Errorf("%v %s: notes %q, want %q", c.engine, c.version, notes, c.note)
		}
	}
}

// TestTRTLLMTokenBudgetCoversPrompt: trtllm-serve, chunked prefill off,
// refuses a prompt over --max_num_tokens, so a workload of 16,384-token
// prompts raises it from the default 8192; vLLM chunks prompts and keeps
// its budget; short prompts keep TensorRT-LLM's default.
func TestTRTLLMTokenBudgetCoversPrompt(t *testing.T) {
	for _, c := range []struct {
		kind   launch.Kind
		prompt int
		want   string
	}{
		{launch.TRTLLM, 16384, "--max_num_tokens 16384 \\\n"},
		{launch.TRTLLM, 1000, "--max_num_tokens 8192 \\\n"},
		{launch.VLLM, 16384, "--max-num-batched-tokens 8192 \\\n"},
	} {
		req := serving(t, "llama-3.1-8b", 0.5, estimator.VLLM, plan.OnDemand)
		req.Workload.PromptTokens, req.Workload.OutputTokens = c.prompt, 200
		row := servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)
		l, err := launch.Emit(c.kind, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Fatalf("%v %d: %v", c.kind, c.prompt, err)
		}
		if text := l.Files[0].Text; !strings.Contains(text, c.want) {
			t.Errorf("%v prompt %d: want %q in\n%s", c.kind, c.prompt, c.want, text)
		}
	}
}

// TestSGLangShareForAVLLMRow: DeepSeek-R1 in FP8 planned for vLLM over
// two 8 × H100 instances at attention DP 16 and EP 16, launched with
// SGLang: SGLang's default --mem-fraction-static at DP attention 16
// (0.331 of each GPU) is under the weights' share, and SGLang stops at
// start-up, so the launch sets the share and CUDA-graph batch its
// DP-attention recipes run (estimator.EngineShareFor), as for a row
// planned for SGLang.
func TestSGLangShareForAVLLMRow(t *testing.T) {
	req := deepseekR1FP8(t)
	req.Input.Engine, req.Input.GPUMemUtil = estimator.VLLM, 0
	row := servingRow(t, req, "aws-p5.48xlarge", 16, 1, 7)
	row.AttnDP, row.EP, row.InstancesPerReplica, row.Instances, row.GPUs = 16, 16, 2, 14, 112
	l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	want := "  --mem-fraction-static 0.85 \\\n  --cuda-graph-max-bs 64 \\\n"
	if text := l.Files[0].Text; !strings.Contains(text, want) {
		t.Errorf("want %q in\n%s", want, text)
	}
}

// TestFP8BlockSplit: DeepSeek-R1's published checkpoint stores FP8 in
// 128 × 128 blocks, and vLLM and SGLang refuse a TP shard of a layer that
// is not whole blocks: its 2048-wide experts load at TP 16 (128 each) and
// not at TP 32 (64) unless expert parallelism keeps them whole. Qwen3's
// 16-bit checkpoint quantised at load (--quantization fp8, per tensor)
// has no blocks: 768-wide experts at TP 8 are 96 each and load.
func TestFP8BlockSplit(t *testing.T) {
	for _, c := range []struct {
		kind      launch.Kind
		model     string
		tp, ep    int
		refused   bool
		instances int
	}{
		{launch.VLLM, "deepseek-r1", 16, 1, false, 2},
		{launch.VLLM, "deepseek-r1", 32, 1, true, 4},
		{launch.SGLang, "deepseek-r1", 32, 1, true, 4},
		{launch.SGLang, "deepseek-r1", 32, 32, false, 4},
		{launch.VLLM, "qwen3-30b-a3b", 8, 1, false, 1},
	} {
		req := serving(t, c.model, 2, estimator.VLLM, plan.OnDemand)
		req.Input.Weights = estimator.FP8
		row := servingRow(t, req, "aws-p5.48xlarge", c.tp, 1, 1)
		row.InstancesPerReplica, row.Instances, row.GPUs = c.instances, c.instances, float64(c.tp)
		if c.ep > 1 {
			row.AttnDP, row.EP = c.ep, c.ep
		}
		name := c.kind.String() + " " + c.model + " TP " + strconv.Itoa(c.tp) + " EP " + strconv.Itoa(c.ep)
		_, err := launch.Emit(c.kind, req, row, nil, c.model)
		var le *launch.Error
		switch {
		case c.refused && (!errors.As(err, &le) || le.Key != launch.ErrInconsistent || !strings.Contains(err.Error(), "128-wide blocks")):
			t.Errorf("%s: %v, want the block refusal", name, err)
		case !c.refused && err != nil:
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestQLoRAQuantStorage: FSDP flattens every wrapped unit's parameters,
// whatever its sharding strategy, and refuses bitsandbytes' uint8 4-bit
// storage, so a QLoRA launch under FSDP (NO_SHARD and SHARD_GRAD_OP too)
// or ZeRO-3 stores the 4-bit weights in the other weights' dtype;
// DeepSpeed below ZeRO-3 does not shard parameters and needs nothing.
func TestQLoRAQuantStorage(t *testing.T) {
	const want = "bnb_4bit_quant_storage=torch.bfloat16"
	for _, c := range []struct {
		kind launch.Kind
		zero int
		want bool
	}{
		{launch.FSDP, 0, true}, {launch.FSDP, 2, true}, {launch.FSDP, 3, true},
		{launch.DeepSpeed, 0, false}, {launch.DeepSpeed, 2, false}, {launch.DeepSpeed, 3, true},
	} {
		in := input(t, "llama-3.1-8b")
		in.Task, in.Weights = estimator.QLoRA, estimator.INT4
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: c.zero, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(c.kind, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Fatalf("%v ZeRO %d: %v", c.kind, c.zero, err)
		}
		if notes := strings.Join(l.Notes, "; "); strings.Contains(notes, want) != c.want {
			t.Errorf("%v ZeRO %d: %q in the notes is %v, want %v: %s", c.kind, c.zero, want, !c.want, c.want, notes)
		}
	}
}

// TestPublishedCheckpointFormat: a serving launch names a catalog
// model's published checkpoint only where it is stored in the weights
// the launch serves, since the engines load a checkpoint in its own
// format whatever --dtype says. gpt-oss's MXFP4 checkpoint needs compute
// capability 8.0 in vLLM and SGLang, so on a T4 the plan runs fp16 and
// the launch asks for a 16-bit copy (vLLM refuses the published one
// there); on an H100 it names it. A 16-bit checkpoint planned int4 asks
// for an AWQ/GPTQ copy; planned fp8 it is quantised at load; a QLoRA
// fine-tune quantises the 16-bit checkpoint itself.
func TestPublishedCheckpointFormat(t *testing.T) {
	for _, c := range []struct {
		kind          launch.Kind
		model, offer  string
		weights       estimator.DType
		train         bool
		wantRef, note string
	}{
		{launch.VLLM, "gpt-oss-20b", "azure-standard_nc64as_t4_v3", estimator.FP4, false, "'<your-checkpoint>'", "openai/gpt-oss-20b is published with fp4 weights and these settings serve fp16: replace <your-checkpoint> with a 16-bit copy of it"},
		{launch.SGLang, "gpt-oss-20b", "azure-standard_nc64as_t4_v3", estimator.FP4, false, "'<your-checkpoint>'", "a 16-bit copy of it"},
		{launch.VLLM, "gpt-oss-20b", "aws-p5.48xlarge", estimator.FP4, false, "openai/gpt-oss-20b", "the published checkpoint stores its experts in MXFP4"},
		{launch.VLLM, "llama-3.1-8b", "aws-p5.48xlarge", estimator.INT4, false, "'<your-checkpoint>'", "replace <your-checkpoint> with a copy of it stored in int4 (AWQ or GPTQ 4-bit)"},
		{launch.VLLM, "llama-3.1-8b", "azure-standard_nd40rs_v2", estimator.INT4, false, "'<your-checkpoint>'", "replace <your-checkpoint> with a copy of it stored in int4 (GPTQ 4-bit)"},
		{launch.VLLM, "llama-3.1-8b", "aws-p5.48xlarge", estimator.FP8, false, "meta-llama/Llama-3.1-8B-Instruct", ""},
		{launch.SGLang, "llama-3.1-8b", "aws-p5.48xlarge", estimator.FP8, false, "meta-llama/Llama-3.1-8B-Instruct", ""},
		// trtllm-serve has no flag that quantises at load: given the
		// 16-bit checkpoint it serves 16-bit weights, twice the plan's.
		{launch.TRTLLM, "llama-3.1-8b", "aws-p5.48xlarge", estimator.FP8, false, "'<your-checkpoint>'", "replace <your-checkpoint> with a copy of it stored in fp8 (FP8, a ModelOpt export)"},
		{launch.VLLM, "meta-llama/Llama-3.1-8B", "aws-p5.48xlarge", estimator.INT4, false, "'<your-checkpoint>'", "a copy of it stored in int4"},
		{launch.VLLM, "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "aws-p5.48xlarge", estimator.INT4, false, "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "serve a checkpoint stored in that format (AWQ or GPTQ 4-bit)"},
		{launch.DeepSpeed, "llama-3.1-8b", "aws-p5.48xlarge", estimator.INT4, true, "meta-llama/Llama-3.1-8B", ""},
	} {
		name := c.kind.String() + " " + c.model + " " + c.weights.String() + " on " + c.offer
		cfg := c.model
		if strings.Contains(cfg, "/") { // a repository: the config of the model it is
			cfg = "llama-3.1-8b"
		}
		var req plan.Request
		var row plan.Row
		if c.train {
			in := input(t, cfg)
			in.Task, in.Weights = estimator.QLoRA, c.weights
			req = plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
			o := offer(t, c.offer, in.Weights)
			row = plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, Replicas: 1, InstancesPerReplica: 1}
		} else {
			req = serving(t, cfg, 1, estimator.VLLM, plan.OnDemand)
			req.Input.Weights = c.weights
			if strings.Contains(c.offer, "nd40rs") {
				// A V100 runs vLLM before 0.20.0 only (estimator.SupportForJob).
				req.Input.EngineVersion = estimator.EngineVersion{Major: 0, Minor: 19, Patch: 1}
			}
			o := offer(t, c.offer, c.weights)
			tp := int(o.GPUCount)
			row = servingRow(t, req, c.offer, tp, 1, 1)
		}
		l, err := launch.Emit(c.kind, req, row, nil, c.model)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text, notes := l.Files[0].Text, strings.Join(l.Notes, "; ")
		if !strings.Contains(text, " "+c.wantRef+" ") && !strings.Contains(text, " "+c.wantRef+"\n") && !strings.Contains(text, "--model_name_or_path "+c.wantRef) {
			t.Errorf("%s: want checkpoint %s in\n%s", name, c.wantRef, text)
		}
		if c.note != "" && !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes %q, want %q", name, notes, c.note)
		}
		if c.note == "" && strings.Contains(notes, launch.Placeholder) {
			t.Errorf("%s: notes %q name the placeholder", name, notes)
		}
	}
}

// TestTrainerModelSource: a pre-train builds the model from its config
// (run_clm.py --config_name and --tokenizer_name) instead of loading the
// published weights, which --model_name_or_path did, so the "pre-train"
// fine-tuned Llama 3.1; fine-tunes still load the weights.
func TestTrainerModelSource(t *testing.T) {
	for _, c := range []struct {
		task      estimator.Task
		want, not string
	}{
		{estimator.Pretrain, "--config_name meta-llama/Llama-3.1-8B \\\n  --tokenizer_name meta-llama/Llama-3.1-8B \\\n", "--model_name_or_path"},
		{estimator.FullFinetune, "--model_name_or_path meta-llama/Llama-3.1-8B \\\n", "--config_name"},
	} {
		in := input(t, "llama-3.1-8b")
		in.Task = c.task
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: 1, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(launch.DeepSpeed, req, row, nil, "meta-llama/Llama-3.1-8B")
		if err != nil {
			t.Fatalf("%v: %v", c.task, err)
		}
		text := l.Files[0].Text
		if !strings.Contains(text, c.want) || strings.Contains(text, c.not) {
			t.Errorf("%v: want %q and no %s in\n%s", c.task, c.want, c.not, text)
		}
	}
}

// TestSpotSaveSteps: a spot row's time and cost count on a checkpoint
// every CheckpointIntervalSeconds, so the Trainer saves at that many
// optimizer steps (3600 s at 10 s a step: 360), not at its default of
// 500; on demand it keeps the default.
func TestSpotSaveSteps(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	in.Task = estimator.Pretrain
	for _, c := range []struct {
		pricing plan.Pricing
		want    int // 0: no --save_steps
	}{{plan.Spot, 360}, {plan.OnDemand, 0}} {
		req := plan.Request{Input: in, Pricing: c.pricing, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e10}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Pricing: c.pricing, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: 1,
			Replicas: 1, InstancesPerReplica: 1, CheckpointIntervalSeconds: 3600, JobSeconds: 36000, OptimizerSteps: 3600}
		for _, k := range []launch.Kind{launch.DeepSpeed, launch.FSDP} {
			l, err := launch.Emit(k, req, row, nil, "meta-llama/Llama-3.1-8B")
			if err != nil {
				t.Fatalf("%v %v: %v", c.pricing, k, err)
			}
			text := l.Files[0].Text
			if c.want == 0 {
				if strings.Contains(text, "--save_steps") {
					t.Errorf("%v %v: --save_steps on demand in\n%s", c.pricing, k, text)
				}
				continue
			}
			if got := flagInt(t, text, "script", "--save_steps"); got != c.want {
				t.Errorf("%v %v: --save_steps %d, want %d", c.pricing, k, got, c.want)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), "outlives a reclaimed instance") {
				t.Errorf("%v %v: no note on keeping the checkpoints: %q", c.pricing, k, l.Notes)
			}
		}
	}
}

// TestAdapterNotes: the notes name the adapters' PEFT settings as the
// plan sized them, and QLoRA's bitsandbytes 4-bit load: NF4,
// double-quantised only under --quant nf4, computing in bf16 (the
// float32 default of bnb_4bit_compute_dtype runs the matmuls in fp32).
func TestAdapterNotes(t *testing.T) {
	for _, c := range []struct {
		model   string
		task    estimator.Task
		targets estimator.LoRATargets
		quant   estimator.Quant
		want    []string
	}{
		{"llama-3.1-8b", estimator.LoRA, estimator.LoRAAttention, estimator.QuantAuto, []string{`LoraConfig(r=16, lora_dropout=0.05, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])`}},
		{"phi-4", estimator.LoRA, estimator.LoRAAttention, estimator.QuantAuto, []string{`target_modules=["qkv_proj", "o_proj"])`}},
		{"llama-3.1-8b", estimator.QLoRA, estimator.LoRAAllLinear, estimator.QuantAuto, []string{`target_modules="all-linear"`,
			`BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=False, bnb_4bit_compute_dtype=torch.bfloat16)`}},
		{"llama-3.1-8b", estimator.QLoRA, estimator.LoRAAttention, estimator.QuantNF4, []string{`bnb_4bit_use_double_quant=True`}},
	} {
		in := input(t, c.model)
		in.Task, in.LoRATargets, in.Quant = c.task, c.targets, c.quant
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(launch.DeepSpeed, req, row, nil, "meta-llama/Llama-3.1-8B")
		if err != nil {
			t.Fatalf("%v: %v", c.task, err)
		}
		notes := strings.Join(l.Notes, "\n")
		for _, w := range c.want {
			if !strings.Contains(notes, w) {
				t.Errorf("%v %v %v: want %s in notes\n%s", c.task, c.targets, c.quant, w, notes)
			}
		}
	}
}

// TestFP8TrainingRunsOnBF16: an fp8 (Transformer Engine) plan's launch
// runs bf16 mixed precision, the memory the plan sized, and says the
// fp8 speed needs Transformer Engine in the script; it wrote
// mixed_precision "no" and no --bf16, so the Trainer ran in fp32.
func TestFP8TrainingRunsOnBF16(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	in.Task, in.Weights = estimator.FullFinetune, estimator.FP8
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
	o := offer(t, "aws-p5.48xlarge", in.Weights)
	row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: 1, Replicas: 1, InstancesPerReplica: 1}
	for _, c := range []struct {
		k    launch.Kind
		want []string
	}{
		{launch.DeepSpeed, []string{"--bf16 true", "\"bf16\": {\n    \"enabled\": true"}},
		{launch.FSDP, []string{"--bf16 true", "mixed_precision: \"bf16\""}},
	} {
		l, err := launch.Emit(c.k, req, row, nil, "meta-llama/Llama-3.1-8B")
		if err != nil {
			t.Fatalf("%v: %v", c.k, err)
		}
		var text string
		for _, f := range l.Files {
			text += f.Text
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: want %q in\n%s", c.k, w, text)
			}
		}
		if !strings.Contains(strings.Join(l.Notes, "\n"), "fp8_autocast") {
			t.Errorf("%v: no note on fp8: %q", c.k, l.Notes)
		}
	}
}

// TestSkyPilotConsumerGPUs: a LoRA on one RTX 4090 at RunPod, where
// SkyPilot takes an accelerator name, names it RTX4090 (the name
// SkyPilot's RunPod and Vast catalogs give it, as catalog/source reads
// them); it was refused for want of a name.
func TestSkyPilotConsumerGPUs(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	in.Task, in.GradCheckpointing = estimator.LoRA, true
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 5e7}}
	o := offer(t, "runpod-1x_rtx4090_secure", in.Weights)
	row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 1, TP: 1, PP: 1, DP: 1, Replicas: 1, InstancesPerReplica: 1}
	l, err := launch.Emit(launch.SkyPilot, req, row, nil, "meta-llama/Llama-3.1-8B")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Files[0].Text; !strings.Contains(text, "  accelerators: \"RTX4090:1\"\n") {
		t.Errorf("want accelerators RTX4090:1 in\n%s", text)
	}
}

// TestCatalogRepoFromNameOrPath: Llama 3.2 1B's config was transcribed
// from a ChatML re-upload (Emm9625/Llama-3.2-1B-chatml) that names the
// original in _name_or_path; its launches load meta-llama/Llama-3.2-1B,
// where they loaded the re-upload.
func TestCatalogRepoFromNameOrPath(t *testing.T) {
	in := input(t, "llama-3.2-1b")
	in.Task = estimator.FullFinetune
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
	o := offer(t, "aws-p5.48xlarge", in.Weights)
	row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, Replicas: 1, InstancesPerReplica: 1}
	l, err := launch.Emit(launch.DeepSpeed, req, row, nil, "llama-3.2-1b")
	if err != nil {
		t.Fatal(err)
	}
	if text := l.Files[0].Text; !strings.Contains(text, "--model_name_or_path meta-llama/Llama-3.2-1B \\\n") || strings.Contains(text, "Emm9625") {
		t.Errorf("want meta-llama/Llama-3.2-1B in\n%s", text)
	}
}

// TestSGLangChunkPerRank: a copy at attention DP 8 writes SGLang's
// --chunked-prefill-size as 8 times the step budget the plan gave each
// rank (SGLang's default on the row's GPU, 8192 on an H200), since SGLang
// divides the flag by --dp-size under DP attention: DeepSeek-R1's copy at
// TP 8, DP 8 wrote 8192 and ran 1024-token prefill chunks a rank. A copy
// without DP attention keeps the flag as the plan's budget.
func TestSGLangChunkPerRank(t *testing.T) {
	req := deepseekR1FP8(t)
	for _, c := range []struct {
		dp   int
		want string
	}{{8, "65536"}, {1, "8192"}} {
		row := servingRow(t, req, "aws-p5en.48xlarge", 8, 1, 1)
		row.AttnDP, row.EP = c.dp, 8
		l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatal(err)
		}
		cmds := commands(t, l.Files[0].Text)
		if got, _ := cmds[0].has("--chunked-prefill-size"); got != c.want {
			t.Errorf("DP %d: --chunked-prefill-size %s, want %s:\n%s", c.dp, got, c.want, l.Files[0].Text)
		}
		note := "--chunked-prefill-size 65536 is the copy's: SGLang divides it by --dp-size, so each attention rank runs 8192 tokens a step, as planned"
		if got := slices.Contains(l.Notes, note); got != (c.dp > 1) {
			t.Errorf("DP %d: note %v in %q", c.dp, got, l.Notes)
		}
	}
}

// TestSkyServeOnePortPerReplica: SkyServe sends a replica's requests to
// the one port its service names, so a serving task whose instance runs
// its engine copies as processes on ports of their own (TensorRT-LLM's two
// TP-4 copies of Llama 3.1 70B on an 8-GPU H100 instance, vLLM's four TP-2
// copies of Qwen3-30B-A3B) is refused with the reason, where it was
// written and served every request on the first copy. vLLM's copies of a
// dense model are one process on one port and still launch, and so does a
// batch job, which is not a SkyServe service (its note says to send each
// copy its share of the requests, not to put a load balancer in front).
func TestSkyServeOnePortPerReplica(t *testing.T) {
	for _, c := range []struct {
		model   string
		engine  estimator.Engine
		tp      int
		copies  int
		batch   bool
		refused bool
	}{
		{"llama-3.1-70b", estimator.TRTLLM, 4, 2, false, true},
		{"qwen3-30b-a3b", estimator.VLLM, 2, 4, false, true},
		{"llama-3.1-70b", estimator.VLLM, 4, 2, false, false},
		{"llama-3.1-70b", estimator.TRTLLM, 4, 2, true, false},
	} {
		req := serving(t, c.model, 8, c.engine, plan.OnDemand)
		if c.batch {
			req.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 1000, OutputTokens: 200}
		}
		l, err := launch.Emit(launch.SkyPilot, req, servingRow(t, req, "aws-p5.48xlarge", c.tp, c.copies, 1), nil, c.model)
		var le *launch.Error
		if got := errors.As(err, &le) && le.Key == launch.ErrSkyServePorts; got != c.refused {
			t.Errorf("%s on %v, %d copies (batch %v): refused %v, want %v: %v\n%s", c.model, c.engine, c.copies, c.batch, got, c.refused, err, l.Text())
			continue
		}
		if c.refused {
			checkMessage(t, err)
			if !strings.Contains(le.Reason, "runs "+strconv.Itoa(c.copies)+" engine copies on each instance") {
				t.Errorf("%s: %s", c.model, le.Reason)
			}
		}
		// A batch job's copies are each sent their share of the requests,
		// with no load balancer to put in front.
		if notes := strings.Join(l.Notes, "\n"); c.batch && (!strings.Contains(notes, "2 engine copies per instance, each on its own GPUs and port from 8000: send each copy its share of the requests") ||
			strings.Contains(notes, "load balancer")) {
			t.Errorf("batch notes:\n%s", notes)
		}
	}
}

// TestBatchSeqsPerRank: a batch job's planned concurrency is the copy's
// (plan.Row.Concurrency), and vLLM's --max-num-seqs applies per
// data-parallel rank, as TensorRT-LLM's --max_batch_size does under
// attention DP (the executor admits tp_size × max_batch_size to the
// copy): a copy at attention DP 8 running 100 sequences writes 13 a rank
// (it wrote 100, which let the copy admit 800); a copy without attention
// DP writes the copy's 100.
func TestBatchSeqsPerRank(t *testing.T) {
	for _, k := range []struct {
		kind       launch.Kind
		engine     estimator.Engine
		prog, flag string
	}{{launch.VLLM, estimator.VLLM, "vllm", "--max-num-seqs"}, {launch.TRTLLM, estimator.TRTLLM, "trtllm", "--max_batch_size"}} {
		req := deepseekR1FP8(t)
		req.Input.Engine = k.engine
		req.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 1000, OutputTokens: 200}
		for _, c := range []struct{ dp, want int }{{8, 13}, {1, 100}} {
			row := servingRow(t, req, "aws-p5en.48xlarge", 8, 1, 1)
			row.AttnDP, row.EP, row.Concurrency = c.dp, 8, 100
			l, err := launch.Emit(k.kind, req, row, nil, "deepseek-r1")
			if err != nil {
				t.Fatal(err)
			}
			if got := flagInt(t, l.Files[0].Text, k.prog, k.flag); got != c.want {
				t.Errorf("%s DP %d: %s %d, want %d:\n%s", k.kind, c.dp, k.flag, got, c.want, l.Files[0].Text)
			}
		}
	}
}

// TestPureBF16Launch: a pure bf16 plan (--pure-bf16, Lightning's
// bf16-true) counts 16-bit weights and optimizer states with no fp32
// master copy, and its launch runs that: FSDP with accelerate's
// mixed_precision "no" and no --bf16 over a model loaded in bf16 (under
// FSDP mixed precision accelerate upcasts the parameters to fp32);
// DeepSpeed at ZeRO 1–3 with its bf16 master weights and optimizer
// states, at ZeRO-0 without its BF16_Optimizer. The mixed-precision plan
// beside it keeps its bf16 autocast. A LoRA plan with 16-bit adapters says
// to keep PEFT from upcasting them; one that counted fp32 adapters does not.
func TestPureBF16Launch(t *testing.T) {
	const dsPure = "\"bf16\": {\n    \"enabled\": true,\n    \"bf16_master_weights_and_grads\": true,\n    \"bf16_optimizer_states\": true\n  }"
	for _, c := range []struct {
		name       string
		k          launch.Kind
		task       estimator.Task
		zero       int
		pure       bool
		want, dont []string
	}{
		{"fsdp", launch.FSDP, estimator.FullFinetune, 3, true,
			[]string{"mixed_precision: \"no\"", "--dtype bfloat16"}, []string{"--bf16", "mixed_precision: \"bf16\""}},
		{"fsdp mixed", launch.FSDP, estimator.FullFinetune, 3, false,
			[]string{"mixed_precision: \"bf16\"", "--bf16 true"}, []string{"--dtype"}},
		{"deepspeed zero-3", launch.DeepSpeed, estimator.FullFinetune, 3, true,
			[]string{dsPure, "--bf16 true", "--dtype bfloat16", "need DeepSpeed 0.18.3 or later"}, nil},
		{"deepspeed mixed", launch.DeepSpeed, estimator.FullFinetune, 3, false,
			[]string{"\"bf16\": {\n    \"enabled\": true\n  }", "--bf16 true"}, []string{"bf16_master_weights_and_grads", "--dtype"}},
		{"deepspeed zero-0", launch.DeepSpeed, estimator.FullFinetune, 0, true,
			[]string{"--dtype bfloat16"}, []string{"\"bf16\"", "--bf16"}},
		{"skypilot zero-1", launch.SkyPilot, estimator.FullFinetune, 1, true,
			[]string{"\"bf16_master_weights_and_grads\": true", "\"bf16_optimizer_states\": true", "--bf16 true", "--dtype bfloat16", "pip install transformers accelerate 'deepspeed>=0.18.3'\n"}, nil},
		{"fsdp pre-training", launch.FSDP, estimator.Pretrain, 3, true,
			[]string{"mixed_precision: \"no\"", "from_config(config, dtype=torch.bfloat16)"}, []string{"--bf16", "--dtype bfloat16"}},
		{"fsdp lora", launch.FSDP, estimator.LoRA, 0, true,
			[]string{"mixed_precision: \"no\"", "--dtype bfloat16", "autocast_adapter_dtype=False"}, []string{"--bf16"}},
		// A plan that counted PEFT's fp32 adapters (--adapter-dtype fp32)
		// runs PEFT's default: no autocast_adapter_dtype setting.
		{"fsdp lora, fp32 adapters", launch.FSDP, estimator.LoRA, 0, true,
			[]string{"mixed_precision: \"no\"", "--dtype bfloat16"}, []string{"--bf16", "autocast_adapter_dtype=False"}},
	} {
		in := input(t, "llama-3.1-8b")
		in.Task, in.Weights, in.PureBF16, in.ZeRO = c.task, estimator.BF16, c.pure, c.zero
		if c.task == estimator.LoRA {
			in.LoRARank = 16
		}
		if strings.HasSuffix(c.name, "fp32 adapters") {
			in.AdapterDType = estimator.AdapterFP32
		}
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: c.zero, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(c.k, req, row, nil, "meta-llama/Llama-3.1-8B")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		text := strings.Join(l.Notes, "\n")
		for _, f := range l.Files {
			text += "\n" + f.Text
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: want %q in\n%s", c.name, w, text)
			}
		}
		for _, w := range c.dont {
			if strings.Contains(text, w) {
				t.Errorf("%s: %q in\n%s", c.name, w, text)
			}
		}
	}
}

// TestPureBF16DeepSpeedRefusals: DeepSpeed offloads bf16 optimizer
// states only to a CPU Adam built for them, not the one the Trainer hands
// it, and keeps fp16 master weights only under ZeRO-Offload, so those
// pure plans are refused with what to change.
func TestPureBF16DeepSpeedRefusals(t *testing.T) {
	for _, c := range []struct {
		name    string
		k       launch.Kind
		weights estimator.DType
		offload estimator.Offload
		want    string
	}{
		{"bf16 offload", launch.DeepSpeed, estimator.BF16, estimator.OffloadOptimizer, "plan without --offload"},
		{"bf16 offload on skypilot", launch.SkyPilot, estimator.BF16, estimator.OffloadAll, "a CPU Adam with fp32 states"},
		{"fp16", launch.DeepSpeed, estimator.FP16, estimator.OffloadNone, "pure fp16 at ZeRO-2"},
	} {
		in := input(t, "llama-3.1-8b")
		in.Task, in.Weights, in.PureBF16, in.ZeRO, in.Offload = estimator.FullFinetune, c.weights, true, 2, c.offload
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: 2, Offload: c.offload, Replicas: 1, InstancesPerReplica: 1}
		_, err := launch.Emit(c.k, req, row, nil, "meta-llama/Llama-3.1-8B")
		var le *launch.Error
		if !errors.As(err, &le) || le.Key != launch.ErrPrecision || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s containing %q", c.name, err, launch.ErrPrecision, c.want)
		}
	}
	// ZeRO-0 runs it (no DeepSpeed mixed precision at all).
	in := input(t, "llama-3.1-8b")
	in.Task, in.Weights, in.PureBF16 = estimator.FullFinetune, estimator.FP16, true
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e9}}
	row := plan.Row{Offer: offer(t, "aws-p5.48xlarge", in.Weights), Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, Replicas: 1, InstancesPerReplica: 1}
	l, err := launch.Emit(launch.DeepSpeed, req, row, nil, "meta-llama/Llama-3.1-8B")
	if err != nil || !strings.Contains(l.Files[0].Text, "--dtype float16") || strings.Contains(l.Files[0].Text, "--fp16") || strings.Contains(l.Files[1].Text, "fp16") {
		t.Errorf("pure fp16 at ZeRO-0: %v\n%v", err, l.Files)
	}
}

// A batch job runs offline where the engine has a command for it: vLLM's
// vllm run-batch reads a request file and writes a results file, with the
// engine settings serve takes and no HTTP server; copies on one instance
// each read their own share. SGLang serves, and says a client sends the
// requests.
func TestBatchRunsOffline(t *testing.T) {
	for _, c := range []struct {
		model       string
		copies      int
		in, out     string
		tool        string
		noteContain string
	}{
		{"llama-3.1-8b", 1, "requests.jsonl", "results.jsonl", "vllm-run-batch", "OpenAI's batch format"},
		// vLLM runs a mixture-of-experts model's copies as one process
		// each (perProcess): the last reads the eighth share.
		{"qwen3-30b-a3b", 8, "requests-7.jsonl", "results-7.jsonl", "vllm-run-batch", "split requests.jsonl into requests-0.jsonl to requests-7.jsonl"},
	} {
		req := batchJob(t, c.model)
		row := servingRow(t, req, "aws-p5.48xlarge", 1, c.copies, 1)
		l, err := launch.Emit(launch.VLLM, req, row, nil, c.model)
		if err != nil {
			t.Fatal(err)
		}
		cmds := checkShell(t, "batch", l.Files[0].Text)
		last := cmds[len(cmds)-1]
		if last.tool != c.tool {
			t.Fatalf("copies %d: runs %s, want %s:\n%s", c.copies, last.tool, c.tool, l.Files[0].Text)
		}
		if in, _ := last.has("-i"); in != c.in {
			t.Errorf("copies %d: -i %q, want %q", c.copies, in, c.in)
		}
		if out, _ := last.has("-o"); out != c.out {
			t.Errorf("copies %d: -o %q, want %q", c.copies, out, c.out)
		}
		if _, ok := last.has("--host"); ok {
			t.Errorf("copies %d: run-batch has no HTTP server, yet --host is written", c.copies)
		}
		if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, c.noteContain) }) {
			t.Errorf("copies %d: no note with %q: %q", c.copies, c.noteContain, l.Notes)
		}
	}
	req := batchJob(t, "llama-3.1-8b")
	l, err := launch.Emit(launch.SGLang, req, servingRow(t, req, "aws-p5.48xlarge", 1, 1, 1), nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if cmds := checkShell(t, "batch sglang", l.Files[0].Text); cmds[0].tool != "sglang" {
		t.Errorf("sglang batch runs %s", cmds[0].tool)
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, "no batch-file command") }) {
		t.Errorf("sglang batch: no note on the client: %q", l.Notes)
	}
}

// TestSkyPilotNamesThePricedInstance: a SkyPilot task names the instance
// the plan priced where SkyPilot's catalog knows it by that name. Cudo's
// rows are SkyPilot's own per-vCPU shapes (catalogs/v9/cudo/vms.csv):
// the task names sapphire-rapids-h100_1x4v8gb alone, where it named
// accelerators H100:1, which no Cudo row matches (SkyPilot's Cudo catalog
// calls the SXM H100 "H100-SXM") and which, matched, would take the
// cheapest shape, the 2-vCPU, 4-GB host the planner passes over; Cudo's
// A800, which no accelerator table names, launched nothing. GCP's N1
// offers write their host as the instance type and the GPUs as
// accelerators: n1-highmem-8+4xV100 is no GCP machine type.
func TestSkyPilotNamesThePricedInstance(t *testing.T) {
	for _, c := range []struct {
		offer     string
		want, not []string
	}{
		{"cudo-sapphire-rapids-h100_1x4v8gb", []string{"  cloud: \"cudo\"\n", "  instance_type: \"sapphire-rapids-h100_1x4v8gb\"\n"}, []string{"accelerators:"}},
		{"cudo-intel-ice-lake-a800-pci_1x4v8gb", []string{"  instance_type: \"intel-ice-lake-a800-pci_1x4v8gb\"\n"}, []string{"accelerators:"}},
		{"seeweb-ecs1gpu3", []string{"  cloud: \"seeweb\"\n", "  instance_type: \"ECS1GPU3\"\n"}, []string{"accelerators:"}},
		{"gcp-n1-highmem-8plus4xt4", []string{"  accelerators: \"T4:4\"\n", "  instance_type: \"n1-highmem-8\"\n"}, []string{"instance_type: \"n1-highmem-8+"}},
		{"aws-p5.48xlarge", []string{"  accelerators: \"H100:8\"\n", "  instance_type: \"p5.48xlarge\"\n"}, nil},
	} {
		req := serving(t, "llama-3.1-8b", 5, estimator.VLLM, plan.OnDemand)
		row := servingRow(t, req, c.offer, int(offer(t, c.offer, req.Input.Weights).GPUCount), 1, 1)
		l, err := launch.Emit(launch.SkyPilot, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Errorf("%s: %v", c.offer, err)
			continue
		}
		text := l.Files[0].Text
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: want %q in\n%s", c.offer, w, text)
			}
		}
		for _, w := range c.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: want no %q in\n%s", c.offer, w, text)
			}
		}
	}
}

// TestSkyPilotRunPodRentsThePricedGPU: on RunPod, where a task names
// accelerators alone, the name is the one RunPod's SkyPilot catalog gives
// the priced instance's GPU, which its instance type carries
// (8x_H100-SXM_SECURE: H100-SXM). Every RunPod offer of the catalog is
// launched: the SXM H100 was H100:8, RunPod's PCIe H100, and the SXM
// H200 and A100 likewise; the RTX A-series and Ada workstation cards were
// refused for want of a name.
func TestSkyPilotRunPodRentsThePricedGPU(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	in.Task, in.GradCheckpointing = estimator.LoRA, true
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 5e7}}
	name := regexp.MustCompile(`^(\d+)x_(.+)_(SECURE|COMMUNITY)$`)
	var n int
	for _, o := range catalog.Default().PlanOffers(in.Weights) {
		if o.Provider != "runpod" {
			continue
		}
		m := name.FindStringSubmatch(o.InstanceType)
		if m == nil {
			t.Fatalf("%s: instance type %q", o.ID, o.InstanceType)
		}
		_, res, ok := skyPilotTask(t, req, &o)
		if !ok {
			continue // a GPU the Trainer's stack does not run the job on
		}
		if want := m[2] + ":" + m[1]; res["accelerators"] != want {
			t.Errorf("%s (%s): accelerators %v, want %s", o.ID, o.GPU, res["accelerators"], want)
		}
		n++
	}
	if n < 20 {
		t.Fatalf("%d RunPod offers launched", n)
	}
}

// TestSkyPilotOtherCloudsRentThePricedInstance: on Vast, Shadeform,
// Verda, Prime Intellect and Hyperbolic, whose catalog offers are rows of
// SkyPilot's own catalogs, a task names the priced row's instance type
// (testdata/skypilot_instances.txt), with no accelerators for SkyPilot
// to check against it. With the shared table's names a task rented
// another part or nothing: H100:8 on Shadeform or Prime Intellect is SXM
// or PCIe, whichever is cheaper, and on Vast SXM or NVL; Verda's catalog
// has no RTX6000-Ada, A100-80GB:2 or V100 (it names them RTX-6000-Ada,
// A100-80GB-160GB, Tesla-V100), Shadeform's no RTX6000-Ada or
// RTXA6000-style name either; Vast's RTX A6000 and A5000 were refused.
// Every offer of each cloud is launched.
func TestSkyPilotOtherCloudsRentThePricedInstance(t *testing.T) {
	rows := map[string]map[string]int{} // cloud → instance type → GPUs
	text, err := os.ReadFile(filepath.Join("testdata", "skypilot_instances.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		n, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if rows[f[0]] == nil {
			rows[f[0]] = map[string]int{}
		}
		rows[f[0]][f[1]] = int(n)
	}
	in := input(t, "llama-3.1-8b")
	in.Task, in.GradCheckpointing = estimator.LoRA, true
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 5e7}}
	launched := map[string]int{}
	for _, o := range catalog.Default().PlanOffers(in.Weights) {
		if rows[o.Provider] == nil {
			continue
		}
		l, res, ok := skyPilotTask(t, req, &o)
		if !ok {
			continue // a GPU the Trainer's stack does not run the job on
		}
		it, _ := res["instance_type"].(string)
		gpus, ok := rows[o.Provider][it]
		switch {
		case !ok:
			t.Errorf("%s (%s): instance_type %q, not a row of SkyPilot's %s catalog (accelerators %v)", o.ID, o.GPU, it, o.Provider, res["accelerators"])
		case gpus != int(o.GPUCount):
			t.Errorf("%s: instance_type %s holds %d GPUs, the offer %v", o.ID, it, gpus, o.GPUCount)
		case res["accelerators"] != nil:
			t.Errorf("%s: accelerators %v beside instance_type %s, which SkyPilot checks against its row", o.ID, res["accelerators"], it)
		}
		if it != o.InstanceType && !strings.Contains(strings.Join(l.Notes, "\n"), "names the GPU model, not its memory") {
			t.Errorf("%s: instance_type %s for %s without a note on the memory", o.ID, it, o.InstanceType)
		}
		launched[o.Provider]++
	}
	for cloud := range rows {
		if launched[cloud] == 0 {
			t.Errorf("no %s offer launched", cloud)
		}
	}
	t.Logf("launched %v", launched)
}

// skyPilotTask is the SkyPilot launch of a fine-tune of req over every
// GPU of one instance of o (data parallel, ZeRO 3) and its task's
// resources block, and false where the Trainer's stack does not run the
// job on o's GPU (launch.ErrUnsupported).
func skyPilotTask(t *testing.T, req plan.Request, o *plan.Offer) (launch.Launch, map[string]any, bool) {
	t.Helper()
	row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: o.GPUCount, TP: 1, PP: 1, DP: int(o.GPUCount), ZeRO: 3, Replicas: 1, InstancesPerReplica: 1}
	l, err := launch.Emit(launch.SkyPilot, req, row, nil, "meta-llama/Llama-3.1-8B")
	var le *launch.Error
	if errors.As(err, &le) && le.Key == launch.ErrUnsupported {
		return launch.Launch{}, nil, false
	}
	if err != nil {
		t.Fatalf("%s: %v", o.ID, err)
	}
	return l, parseYAML(t, l.Files[0].Text)["resources"].(map[string]any), true
}

// TestFSDP2Config: a fine-tune the plan sized as FSDP2 (estimator.Input.
// FSDP2: the root's gradient assembled once) launches FSDP2: accelerate's
// fsdp_version 2 with fsdp_reshard_after_forward for FULL_SHARD and none
// of the keys accelerate's to_fsdp2 removes; without it, FSDP1's config.
func TestFSDP2Config(t *testing.T) {
	for _, fsdp2 := range []bool{false, true} {
		in := input(t, "llama-3.1-8b")
		in.Task, in.GPUs, in.ZeRO, in.FSDP2 = estimator.FullFinetune, 8, 3, fsdp2
		req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e8}}
		o := offer(t, "aws-p5.48xlarge", in.Weights)
		row := plan.Row{Offer: o, Fits: true, Engine: estimator.HF, Instances: 1, GPUs: 8, TP: 1, PP: 1, DP: 8, ZeRO: 3, Replicas: 1, InstancesPerReplica: 1}
		l, err := launch.Emit(launch.FSDP, req, row, nil, "llama-3.1-8b")
		if err != nil {
			t.Fatalf("FSDP2 %v: %v", fsdp2, err)
		}
		checkLaunch(t, "fsdp", l, 8)
		var cfg map[string]any
		for _, f := range l.Files {
			if f.Name == "fsdp.yaml" {
				cfg, _ = parseYAML(t, f.Text)["fsdp_config"].(map[string]any)
			}
		}
		if cfg == nil {
			t.Fatalf("FSDP2 %v: no fsdp_config", fsdp2)
		}
		_, v2 := cfg["fsdp_version"]
		_, strategy := cfg["fsdp_sharding_strategy"]
		_, origParams := cfg["fsdp_use_orig_params"]
		if fsdp2 && (fmt.Sprint(cfg["fsdp_version"]) != "2" || cfg["fsdp_reshard_after_forward"] != true || strategy || origParams) ||
			!fsdp2 && (v2 || cfg["fsdp_sharding_strategy"] != "FULL_SHARD" || cfg["fsdp_use_orig_params"] != true) {
			t.Errorf("FSDP2 %v: fsdp_config %v", fsdp2, cfg)
		}
		// DeepSpeed's launches say which stack the plan sized.
		for _, k := range []launch.Kind{launch.DeepSpeed, launch.SkyPilot} {
			d, err := launch.Emit(k, req, row, nil, "llama-3.1-8b")
			if err != nil {
				t.Fatalf("%v, FSDP2 %v: %v", k, fsdp2, err)
			}
			if said := strings.Contains(strings.Join(d.Notes, "; "), "the plan sized FSDP2 (--fsdp2)"); said != fsdp2 {
				t.Errorf("%v, FSDP2 %v: the FSDP2 note %v: %v", k, fsdp2, said, d.Notes)
			}
		}
	}
}

// TestExpertsOnlyCheckpointNote: Kimi K2 planned at int4-experts-g32 asks
// for a checkpoint stored the way Moonshot stores its INT4 releases (the
// routed experts alone in compressed-tensors INT4), not an AWQ/GPTQ copy
// of every linear, which would be another plan's memory.
func TestExpertsOnlyCheckpointNote(t *testing.T) {
	req := serving(t, "kimi-k2", 1, estimator.VLLM, plan.OnDemand)
	req.Input.Weights, req.Input.Quant = estimator.INT4, estimator.QuantExpertsG32
	o := offer(t, "aws-p5.48xlarge", estimator.INT4)
	row := servingRow(t, req, "aws-p5.48xlarge", int(o.GPUCount), 1, 1)
	l, err := launch.Emit(launch.VLLM, req, row, nil, "kimi-k2")
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(l.Notes, "; ")
	if !strings.Contains(notes, "stored in int4 (Moonshot's INT4 layout: experts in compressed-tensors INT4)") || strings.Contains(notes, "AWQ or GPTQ") {
		t.Errorf("notes %q", notes)
	}
}

// TestSGLangTightShareForAVLLMRow: DeepSeek-R1 FP8 at TP 4 on B200s,
// planned for vLLM, launched on SGLang: SGLang's default reserve at TP 4
// (a 16,384-token chunk and graphs to batch 512, a share of 0.856) leaves
// the 156.7 GiB of weights a GPU no KV pool, so the launch writes the
// share InferenceX's TP-4 recipes set with the chunk and graph batch they
// set beside it (estimator.EngineShareFor); SGLang would not start at its
// default.
func TestSGLangTightShareForAVLLMRow(t *testing.T) {
	req := deepseekR1FP8(t)
	req.Input.Engine, req.Input.GPUMemUtil = estimator.VLLM, 0
	row := servingRow(t, req, "aws-p6-b200.48xlarge", 4, 2, 1)
	l, err := launch.Emit(launch.SGLang, req, row, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	text := l.Files[0].Text
	for _, want := range []string{"--mem-fraction-static 0.95 \\\n", "--cuda-graph-max-bs 32 \\\n", "--chunked-prefill-size 8192 \\\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in\n%s", want, text)
		}
	}
}
