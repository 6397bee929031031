package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator/plan"
)

const gb200Rack = "coreweave-nvidia-gb200-nvl72-on-demand-north-america"

// TestRackCopiesAskForTheRacksNVLink: DeepSeek-R1 in FP8 at 100 req/s on
// CoreWeave's GB200 NVL72 plans one copy over 8 trays of a rack, whose
// traffic the plan prices over the rack's NVLink. Every engine's script
// exports NCCL's multi-node NVLink settings before it starts anything,
// and a note says the trays must share the rack and its IMEX channel
// (CoreWeave's ComputeDomain and NVLink-partition affinity), for
// TensorRT-LLM with mpirun -x. Before, the scripts ran the copy as over
// any instances: SGLang set NCCL_CUMEM_ENABLE=0 and NCCL ran the copy's
// traffic over the network, or the scheduler put its pods in other racks.
// A copy on one H100 instance, and one over two H100 instances joined by
// a network, say none of it.
func TestRackCopiesAskForTheRacksNVLink(t *testing.T) {
	req := deepseekR1FP8(t)
	req.Workload.OutputTokens = 1000
	row := planOn(t, req, gb200Rack)
	if row.InstancesPerReplica < 2 {
		t.Fatalf("the plan's copy spans %d trays, want several", row.InstancesPerReplica)
	}
	for _, k := range []launch.Kind{launch.SGLang, launch.VLLM, launch.TRTLLM} {
		l, err := launch.Emit(k, req, row, nil, "deepseek-r1")
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		text := l.Files[0].Text
		env := strings.Index(text, "export NCCL_MNNVL_ENABLE=1 NCCL_CUMEM_ENABLE=1\n")
		start := strings.Index(text, map[launch.Kind]string{launch.SGLang: "python -m sglang", launch.VLLM: "ray start", launch.TRTLLM: "trtllm-serve"}[k])
		if env < 0 || start < 0 || env > start {
			t.Errorf("%s: the NCCL settings at %d, the engine at %d:\n%s", k, env, start, text)
		}
		notes := strings.Join(l.Notes, "\n")
		for _, want := range []string{"trays of one 72-GPU NVLink rack", "ComputeDomain", "nvidia.com/gpu.clique"} {
			if !strings.Contains(notes, want) {
				t.Errorf("%s: no %q in the notes: %q", k, want, l.Notes)
			}
		}
		if k == launch.TRTLLM && !strings.Contains(notes, "mpirun -x NCCL_MNNVL_ENABLE -x NCCL_CUMEM_ENABLE") {
			t.Errorf("trtllm: the note does not pass the settings to the ranks: %q", l.Notes)
		}
	}
	for _, tc := range []struct {
		name string
		row  plan.Row
	}{
		{"one H100 instance", servingRow(t, req, "aws-p5.48xlarge", 8, 1, 1)},
		{"two H100 instances", func() plan.Row {
			r := servingRow(t, req, "aws-p5.48xlarge", 16, 1, 1)
			r.InstancesPerReplica, r.Instances, r.GPUs = 2, 2, 16
			return r
		}()},
	} {
		l, err := launch.Emit(launch.SGLang, req, tc.row, nil, "deepseek-r1")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if strings.Contains(l.Text(), "NCCL_MNNVL_ENABLE") || strings.Contains(l.Text(), "ComputeDomain") {
			t.Errorf("%s: rack settings off a rack:\n%s", tc.name, l.Text())
		}
	}
}

// TestRackDisaggregatedWorkersAskForTheRacksNVLink: the disaggregated
// alternative of the same plan runs its decode worker over several trays
// (8), whose script exports the settings too, and its prefill workers on
// one tray each (4 GPUs, since each SGLang prefill worker's scheduler
// handles its own prompts' handovers: estimator's
// sglangPrefillHandoverSeconds), whose scripts need none.
func TestRackDisaggregatedWorkersAskForTheRacksNVLink(t *testing.T) {
	req := deepseekR1FP8(t)
	req.Workload.OutputTokens = 1000
	o := offer(t, gb200Rack, req.Input.Weights)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Disagg == nil {
		t.Skip("no disaggregated alternative for this plan")
	}
	l, err := launch.EmitDisagg(launch.SGLang, req, res, nil, "deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	d := res.Disagg
	if d.DecodeWorker.InstancesPerWorker < 2 || d.PrefillWorker.InstancesPerWorker != 1 {
		t.Fatalf("prefill workers over %d trays, decode workers over %d: want 1 and several", d.PrefillWorker.InstancesPerWorker,
			d.DecodeWorker.InstancesPerWorker)
	}
	spanning, single := 0, 0
	for _, f := range l.Files {
		if !strings.Contains(f.Text, "--disaggregation-mode") {
			continue
		}
		rack := strings.Contains(f.Text, "export NCCL_MNNVL_ENABLE=1 NCCL_CUMEM_ENABLE=1\n")
		switch {
		case strings.Contains(f.Text, "--disaggregation-mode decode"):
			spanning++
			if !rack {
				t.Errorf("%s: a worker over %d trays without the NCCL settings:\n%s", f.Name, d.DecodeWorker.InstancesPerWorker, f.Text)
			}
		default:
			single++
			if rack {
				t.Errorf("%s: a worker on one tray with the rack's NCCL settings:\n%s", f.Name, f.Text)
			}
		}
	}
	if spanning == 0 || single == 0 || !strings.Contains(strings.Join(l.Notes, "\n"), "each worker's") {
		t.Errorf("%d spanning and %d one-tray worker scripts, notes %q", spanning, single, l.Notes)
	}
}
