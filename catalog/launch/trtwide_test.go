package launch_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestEmitDisaggWideTRTLLM: DeepSeek-R1 in FP8 on TensorRT-LLM at 100
// requests/s of 1000 prompt and 1000 output tokens on CoreWeave's GB200
// NVL72 (rightsize plan ... --gpu gb200 --engine trtllm --emit trtllm
// --emit-pick disaggregated) plans a decode worker over several trays of
// one rack. Its script starts the worker as one MPI job from its first
// tray, mpirun -np (the worker's GPUs) -H over the trays WORKER_HOSTS
// names, four slots each, passing the rack's NCCL settings with -x, each
// rank trtllm-serve under trtllm-llmapi-launch with the worker's TP/EP and
// the generation options; the one-tray prefill workers keep their
// single-instance start. Before, the launch was refused (ErrDisaggWide).
// Behind Dynamo it still is, with the way out in the message.
func TestEmitDisaggWideTRTLLM(t *testing.T) {
	req := deepseekR1FP8(t)
	req.Input.Engine = estimator.TRTLLM
	req.Workload.PromptTokens, req.Workload.OutputTokens = 1000, 1000
	o := offer(t, gb200Rack, req.Input.Weights)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Disagg
	if d == nil || d.DecodeWorker.InstancesPerWorker < 2 {
		t.Fatalf("want a decode worker over several trays, got %+v", d)
	}
	nodes, tp := d.DecodeWorker.InstancesPerWorker, d.DecodeWorker.TP
	l, err := launch.EmitDisagg(launch.TRTLLM, req, res, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range l.Files {
		if f.Format == "sh" {
			shellParses(t, f.Name, f.Text)
		}
	}
	pre, dec := l.Files[0].Text, l.Files[1].Text
	if strings.Contains(pre, "mpirun") || !strings.Contains(pre, "CUDA_VISIBLE_DEVICES=0,1,2,3 trtllm-serve") {
		t.Errorf("prefill.sh, want its one-tray workers as before:\n%s", pre)
	}
	for _, want := range []string{"exec mpirun \\\n  -np " + strconv.Itoa(tp) + " \\\n  -H \"$MPI_HOSTS\" \\\n  -x NCCL_MNNVL_ENABLE \\\n  -x NCCL_CUMEM_ENABLE \\\n  trtllm-llmapi-launch \\\n  trtllm-serve deepseek-ai/DeepSeek-R1",
		"--tp_size " + strconv.Itoa(tp), "--ep_size " + strconv.Itoa(d.DecodeWorker.EP), "--extra_llm_api_options gen_config.yaml",
		"export NCCL_MNNVL_ENABLE=1 NCCL_CUMEM_ENABLE=1\n"} {
		if !strings.Contains(dec, want) {
			t.Errorf("decode.sh lacks %q:\n%s", want, dec)
		}
	}
	if strings.Contains(dec, "CUDA_VISIBLE_DEVICES") || strings.Count(dec, "trtllm-serve") != 1 {
		t.Errorf("decode.sh, want one job on every GPU of each tray:\n%s", dec)
	}
	// The script, run with a mpirun that prints its arguments: one
	// host:4 a tray, in WORKER_HOSTS' order; a list of another length
	// stops it.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mpirun"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(n int) ([]string, error) {
		cmd := exec.Command(sh, "-c", dec)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "WORKER_HOSTS=" + hosts("t", n)}
		out, err := cmd.Output()
		return strings.Split(strings.TrimSpace(string(out)), "\n"), err
	}
	args, err := run(nodes)
	if err != nil {
		t.Fatalf("decode.sh: %v", err)
	}
	want := make([]string, nodes)
	for i := range want {
		want[i] = "t" + strconv.Itoa(i) + ":4"
	}
	if len(args) < 4 || args[0] != "-np" || args[1] != strconv.Itoa(tp) || args[2] != "-H" || args[3] != strings.Join(want, ",") {
		t.Errorf("mpirun %q, want -np %d -H %s", args, tp, strings.Join(want, ","))
	}
	if _, err := run(nodes - 1); err == nil {
		t.Errorf("decode.sh took %d trays for a worker of %d", nodes-1, nodes)
	}
	// The router names the worker's first tray; the notes say where each
	// script runs.
	rargs, err := routerArgs(t, l.Files[2].Text, "PREFILL_HOSTS="+hosts("p", d.Prefill), "DECODE_HOSTS="+hosts("d", d.Decode))
	if err != nil {
		t.Fatalf("router.sh: %v", err)
	}
	if j := strings.Join(rargs, "\n"); !strings.Contains(j, "tensor_parallel_size: "+strconv.Itoa(tp)) || !strings.Contains(j, "- \"d0:30000\"") {
		t.Errorf("disagg_config.yaml:\n%s", j)
	}
	notes := strings.Join(l.Notes, "\n")
	for _, want := range []string{"decode.sh once a decode worker, on its first instance", "WORKER_HOSTS its " + strconv.Itoa(nodes) + " instances' addresses", "mpirun -x NCCL_MNNVL_ENABLE"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q: %q", want, l.Notes)
		}
	}
	if strings.Contains(notes, "under mpirun or srun") {
		t.Errorf("notes carry the aggregated launch's mpirun advice: %q", l.Notes)
	}
	var le *launch.Error
	if _, err := launch.EmitDisaggVia(launch.TRTLLM, launch.DynamoRouter, req, res, nil, ""); !errors.As(err, &le) || le.Key != launch.ErrDisaggWide || !strings.Contains(err.Error(), "--emit-router engine") {
		t.Errorf("trtllm behind Dynamo: %v, want %s", err, launch.ErrDisaggWide)
	}
}
