package jobspec

import (
	"strconv"
	"testing"

	"rightsize/estimator"
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

// TestDefaultsAreTheEstimators: the estimator's inputs start where
// estimator.DefaultInput does, whichever door reads them.
func TestDefaultsAreTheEstimators(t *testing.T) {
	in := estimator.DefaultInput(estimator.Arch{})
	for _, c := range []struct {
		f    Field
		want string
	}{
		{Batch, strconv.Itoa(in.Batch)}, {Seq, "2048"}, {Task, "inference"}, {Precision, "bf16"}, {Engine, in.Engine.String()},
		{GPUMemUtil, strconv.FormatFloat(in.GPUMemUtil, 'g', -1, 64)}, {FlashAttention, "1"}, {LoRARank, "16"},
		{LoRATargets, "attention"}, {Kernel, estimator.KernelAuto.String()}, {GPUs, "1"}, {TP, "1"}, {CP, "1"},
	} {
		if got := Fields[c.f].Default; got != c.want {
			t.Errorf("--%s: default %q, want %q", Fields[c.f].Flag, got, c.want)
		}
	}
	if got := Fields[GPUMemUtil].Float(); got != in.GPUMemUtil {
		t.Errorf("--gpu-mem-util reads back as %v, want %v", got, in.GPUMemUtil)
	}
}
