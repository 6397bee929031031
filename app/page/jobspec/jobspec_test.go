package jobspec

import (
	"strconv"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestFieldsRead: every default reads as its kind, and no two fields share
// a flag or a link key.
func TestFieldsRead(t *testing.T) {
	flags, keys := map[string]bool{}, map[string]bool{}
	for f, s := range Fields {
		if s.Flag == "" || s.Key == "" || flags[s.Flag] || keys[s.Key] {
			t.Errorf("field %d: flag %q, key %q (empty or taken)", f, s.Flag, s.Key)
		}
		flags[s.Flag], keys[s.Key] = true, true
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("--%s default %q: %v", s.Flag, s.Default, r)
				}
			}()
			s.CLIDefault()
		}()
	}
	if f, ok := ByFlag("gpu-mem-util"); !ok || f != GPUMemUtil {
		t.Fatalf("ByFlag(gpu-mem-util) = %d, %v", f, ok)
	}
	if _, ok := ByFlag("json"); ok {
		t.Error("--json is the command line's alone")
	}
}

// TestDefaultsAreTheEstimators holds the table's text to the figures the
// estimator and the planner choose (estimator.DefaultInput for a model
// without a sample length of its own, the planner's constants): whichever
// door reads a field, it starts where the estimator does.
func TestDefaultsAreTheEstimators(t *testing.T) {
	in := estimator.DefaultInput(estimator.Arch{})
	itoa := strconv.Itoa
	bit := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	want := map[Field]string{
		Task: in.Task.String(), Precision: in.Weights.String(), KVDType: in.KV.String(), Quant: in.Quant.String(),
		Kernel: in.Kernel.String(), Batch: itoa(in.Batch), Seq: itoa(in.Seq), Optimizer: in.Optimizer.String(),
		GradCheckpointing: bit(in.GradCheckpointing), SelectiveRecompute: bit(in.SelectiveRecompute),
		FlashAttention: bit(in.FlashAttention), AttnKernel: in.AttnKernel.String(), LoRARank: itoa(in.LoRARank), LoRATargets: in.LoRATargets.String(),
		AdapterDType: in.AdapterDType.String(),
		Engine:       plan.AutoEngineName, TextOnly: bit(in.TextOnly), GPUMemUtil: strconv.FormatFloat(in.GPUMemUtil, 'g', -1, 64),
		MaxBatchedTokens: itoa(in.MaxBatchedTokens), EnforceEager: bit(in.EnforceEager), GPUs: itoa(in.GPUs),
		ZeRO: "", Offload: in.Offload.String(), TP: itoa(in.TP), PP: itoa(in.PP),
		CP: itoa(max(1, in.CP)), EP: itoa(max(1, in.EP)), DP: itoa(max(1, in.DP)),
		Pricing: plan.OnDemand.String(), FreshnessDays: itoa(plan.DefaultFreshnessDays), SLOStat: plan.SLOP95.String(),
		// The overrides and efficiencies the estimator chooses itself.
		MFU: "", InferenceMFU: "", BandwidthUtil: "", CUDAContext: "", AllocatorReserve: "", NCCL: "", CUDAGraphs: "",
		UsableVRAM: "", EngineVersion: "", Host: "",
		LoRAFusedQKV: bit(in.LoRAFusedQKV), QuantizeHead: bit(in.QuantizeHead), KeepsLastGraph: bit(in.KeepsLastGraph), LitGPTAttention: bit(in.LitGPTAttention), LossChunks: itoa(in.LossChunks),
		FSDPNoSync: bit(in.FSDPNoSync),
	}
	for f, w := range want {
		if got := Fields[f].Default; got != w {
			t.Errorf("--%s: default %q in the table, %q the estimator's or planner's", Fields[f].Flag, got, w)
		}
	}
	if got := Fields[GPUMemUtil].Float(); got != in.GPUMemUtil {
		t.Errorf("--gpu-mem-util reads back as %v, want %v", got, in.GPUMemUtil)
	}
}
