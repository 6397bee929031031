package main

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
	"rightsize/estimator/sim"
)

// The jobs of the plan goldens (TestPlanGolden): two serving plans and
// two fine-tunes, one on spot.
var (
	hostedArgs = []string{"--model", "llama-3.1-8b", "--requests-per-second", "20", "--prompt-tokens", "500", "--output-tokens", "200", "--ttft-p95", "1s"}
	goldenJobs = []struct {
		name string
		args []string
	}{{"serving mistral-7b", servingArgs}, {"serving llama-3.1-8b", hostedArgs}, {"fsdp llama-3.1-70b", fsdpArgs}, {"spot llama-3.1-8b", spotArgs}}
)

// launchFiles splits an --emit output into its files ("# file: NAME"
// lines; one file unnamed: ""), the notes left out.
func launchFiles(out string) map[string]string {
	out, _, _ = strings.Cut(out, "\n# note: ")
	files := map[string]string{}
	if !strings.HasPrefix(out, "# file: ") {
		files[""] = out
		return files
	}
	for _, part := range strings.Split(out, "# file: ")[1:] {
		name, text, _ := strings.Cut(part, "\n")
		files[name] = text
	}
	return files
}

// TestGoldenJobsLaunchAsPlanned: every launcher's settings for the picks
// of the plan goldens' jobs are the plan's row. Serving, each engine
// (the one planned and the two others) and SkyPilot's task: TP, PP,
// attention DP and EP, the context of the workload's requests, the GPUs
// an instance rents, the running sequences the row was sized with (the
// engine's default policy on its GPU, sim.DefaultPolicyOn) and, on the
// engine planned, the planner's memory share. Training, DeepSpeed, FSDP
// and SkyPilot: instances and GPUs an instance, ZeRO stage (FSDP's
// sharding strategy), precision, activation recomputation, offload, and
// one micro-batch and accumulation in all three whose global batch is
// the plan's tokens per optimizer step; a spot row saves checkpoints at
// the plan's interval.
func TestGoldenJobsLaunchAsPlanned(t *testing.T) {
	for _, job := range goldenJobs {
		// SkyPilot launches on the clouds it knows: its task is of the
		// same job planned on AWS.
		plans := map[bool]planJSON{false: planJSONOf(t, job.args...), true: planJSONOf(t, append(append([]string{}, job.args...), "--provider", "aws")...)}
		kinds := []string{"deepspeed", "fsdp", "skypilot"}
		if plans[false].Workload == "serving" {
			kinds = []string{"vllm", "sglang", "trtllm", "skypilot"}
		}
		for _, pick := range emitPicks[:3] {
			var micro, accum []int
			for _, kind := range kinds {
				sky := kind == "skypilot"
				p := plans[sky]
				r, args := picksOf(t, p)[pick], append([]string{}, job.args...)
				if sky {
					args = append(args, "--provider", "aws")
				}
				where := job.name + " " + pick + " " + kind
				code, out, errs := runPlanArgs(t, append(args, "--emit", kind, "--emit-pick", pick)...)
				if code != 0 {
					t.Errorf("%s: exit %d: %s", where, code, errs)
					continue
				}
				if p.Workload == "serving" {
					checkServeStory(t, where, kind, r, out)
					continue
				}
				m, a := checkTrainStory(t, where, kind, job.args, r, out)
				if !sky || picksOf(t, plans[false])[pick].OfferID == r.OfferID {
					micro, accum = append(micro, m), append(accum, a)
				}
			}
			for i := range micro {
				if micro[i] != micro[0] || accum[i] != accum[0] {
					t.Errorf("%s %s: micro-batches %v and accumulation steps %v differ between the launchers of one row", job.name, pick, micro, accum)
				}
			}
		}
	}
}

// checkServeStory checks a serving launch of kind for row r.
func checkServeStory(t *testing.T, where, kind string, r planRowJSON, out string) {
	t.Helper()
	text := launchFiles(out)[""]
	engine := kind
	if kind == "skypilot" {
		doc := parseTaskYAML(t, out)
		text, _ = doc["run"].(string)
		engine = r.Engine
		if n, _ := doc["num_nodes"].(int64); int(n) != max(r.InstancesPerReplica, 1) {
			t.Errorf("%s: num_nodes %d, the row's %d instances a replica", where, n, r.InstancesPerReplica)
		}
		if n, _ := doc["service.replicas"].(int64); int(n) != r.Replicas {
			t.Errorf("%s: %d replicas, the row's %d", where, n, r.Replicas)
		}
	}
	tokens := 700 // the golden serving jobs' 500 + 200 tokens a request
	t.Run(where, func(t *testing.T) {
		checkServeLaunch(t, engine, r, text, tokens)
		share := 0.0 // another engine's launch writes its own share
		if engine == r.Engine {
			share = r.MemShare
		}
		if gpus := checkEngineProcs(t, engine, false, max(r.InstancesPerReplica, 1), share, text); gpus != int(math.Ceil(r.GPUsPerInstance)) {
			t.Errorf("the launch runs %d GPUs an instance; the plan rents %v", gpus, r.GPUsPerInstance)
		}
		var o *plan.Offer
		for _, x := range catalog.Default().PlanOffers(estimator.BF16) {
			if x.ID == r.OfferID {
				o = &x
			}
		}
		if o == nil {
			t.Fatalf("no offer %s", r.OfferID)
		}
		eng, err := estimator.ParseEngine(engine)
		if err != nil {
			t.Fatal(err)
		}
		pol, err := sim.DefaultPolicyOn(eng, o.GPUMemory, o.Hardware)
		if err != nil {
			t.Fatal(err)
		}
		seqs := map[string]string{"vllm": "--max-num-seqs", "sglang": "--max-running-requests", "trtllm": "--max_batch_size"}[engine]
		if got := flagNum(t, text, seqs, -1); got != pol.MaxSeqs && !(got == -1 && pol.MaxSeqs == 0) {
			t.Errorf("%s %d, the row was sized at %d running sequences a copy", seqs, got, pol.MaxSeqs)
		}
	})
}

// checkTrainStory checks a training launch of kind for row r of the job
// of args, and returns its micro-batch and accumulation steps.
func checkTrainStory(t *testing.T, where, kind string, args []string, r planRowJSON, out string) (micro, accum int) {
	t.Helper()
	files := launchFiles(out)
	script, ds := files["launch.sh"], files["ds_config.json"]
	if kind == "skypilot" {
		doc := parseTaskYAML(t, out)
		script, _ = doc["run"].(string)
		setup, _ := doc["setup"].(string)
		_, ds, _ = strings.Cut(setup, "cat > ds_config.json <<'EOF'\n")
		ds, _, _ = strings.Cut(ds, "EOF\n")
		if n, _ := doc["num_nodes"].(int64); int(n) != r.Instances {
			t.Errorf("%s: num_nodes %d, the row's %d instances", where, n, r.Instances)
		}
	}
	par, gpus := r.Parallelism, int(math.Round(r.GPUsPerInstance))
	micro, accum = flagNum(t, script, "--per_device_train_batch_size", -1), flagNum(t, script, "--gradient_accumulation_steps", -1)
	if micro < 1 || accum < 1 {
		t.Fatalf("%s: micro-batch %d, accumulation %d in\n%s", where, micro, accum, script)
	}
	var seq, tokens float64
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--seq":
			seq, _ = strconv.ParseFloat(args[i+1], 64)
		case "--train-tokens":
			tokens = map[string]float64{"1B": 1e9, "17B": 17e9}[args[i+1]]
		}
	}
	if step := float64(micro*accum*par.DP) * seq; tokens == 0 || !near(step, tokens/r.OptimizerSteps) {
		t.Errorf("%s: %d × %d sequences × DP %d × %v tokens = %v tokens a step; the plan's %v (%v steps)", where, micro, accum, par.DP, seq, step, tokens/r.OptimizerSteps, r.OptimizerSteps)
	}
	prec := map[string]string{"bf16": "--bf16 true", "fp16": "--fp16 true"}[r.Weights]
	if prec == "" || !strings.Contains(script, prec) {
		t.Errorf("%s: a %s row without %q", where, r.Weights, prec)
	}
	if kind == "fsdp" {
		if n, d := flagNum(t, script, "--nnodes", -1), flagNum(t, script, "--nproc-per-node", -1); n != -1 || d != -1 {
			t.Errorf("%s: torchrun flags in an accelerate launch", where)
		}
		cfg := parseTaskYAML(t, files["fsdp.yaml"])
		want := map[string]any{"num_machines": int64(r.Instances), "num_processes": int64(r.Instances * gpus), "mixed_precision": r.Weights,
			"fsdp_config.fsdp_sharding_strategy":        map[int]string{3: "FULL_SHARD", 2: "SHARD_GRAD_OP", 1: "SHARD_GRAD_OP", 0: "NO_SHARD"}[par.ZeRO],
			"fsdp_config.fsdp_activation_checkpointing": par.GradCheckpointing, "fsdp_config.fsdp_offload_params": par.Offload != "none"}
		for k, v := range want {
			if cfg[k] != v {
				t.Errorf("%s: fsdp.yaml %s = %v, the row's %v (ZeRO %d)", where, k, cfg[k], v, par.ZeRO)
			}
		}
		return micro, accum
	}
	if n, d := flagNum(t, script, "--nnodes", -1), flagNum(t, script, "--nproc-per-node", -1); n != r.Instances || d != gpus {
		t.Errorf("%s: torchrun --nnodes %d --nproc-per-node %d, the row's %d instances of %d GPUs", where, n, d, r.Instances, gpus)
	}
	if got := strings.Contains(script, "--gradient_checkpointing true"); got != par.GradCheckpointing {
		t.Errorf("%s: --gradient_checkpointing %v, the row's %v", where, got, par.GradCheckpointing)
	}
	var cfg struct {
		TrainBatch int `json:"train_batch_size"`
		Micro      int `json:"train_micro_batch_size_per_gpu"`
		Accum      int `json:"gradient_accumulation_steps"`
		BF16       *struct {
			Enabled bool `json:"enabled"`
		} `json:"bf16"`
		ZeRO struct {
			Stage            int             `json:"stage"`
			OffloadOptimizer json.RawMessage `json:"offload_optimizer"`
		} `json:"zero_optimization"`
		Checkpointing json.RawMessage `json:"activation_checkpointing"`
	}
	if err := json.Unmarshal([]byte(ds), &cfg); err != nil {
		t.Fatalf("%s: ds_config.json: %v\n%s", where, err, ds)
	}
	if cfg.Micro != micro || cfg.Accum != accum || cfg.TrainBatch != micro*accum*par.DP || cfg.ZeRO.Stage != par.ZeRO ||
		(cfg.BF16 != nil && cfg.BF16.Enabled) != (r.Weights == "bf16") || (cfg.Checkpointing != nil) != par.GradCheckpointing ||
		(cfg.ZeRO.OffloadOptimizer != nil) != (par.Offload != "none") {
		t.Errorf("%s: ds_config.json %+v, the script's micro-batch %d and %d steps; the row's DP %d, ZeRO %d, %s, recompute %v, offload %s",
			where, cfg, micro, accum, par.DP, par.ZeRO, r.Weights, par.GradCheckpointing, par.Offload)
	}
	if r.Pricing == "spot" && r.CheckpointIntervalSeconds > 0 {
		stepSeconds := r.JobHours * 3600 / r.OptimizerSteps
		if n := flagNum(t, script, "--save_steps", -1); n < 1 || math.Abs(float64(n)*stepSeconds-r.CheckpointIntervalSeconds) > stepSeconds {
			t.Errorf("%s: --save_steps %d of %.1f s each, the plan's checkpoint every %.0f s", where, n, stepSeconds, r.CheckpointIntervalSeconds)
		}
	}
	return micro, accum
}
