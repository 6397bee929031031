package page

import (
	"testing"

	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator"
)

// TestParseInputErrors: each bad shared field is one JobError with the
// page's message key and the command line's English wording; the good
// fields around it are still read.
func TestParseInputErrors(t *testing.T) {
	for _, c := range []struct {
		f    jobspec.Field
		text string
		key  MsgKey
		cli  string
	}{
		{jobspec.Batch, "2.5", MsgNotWhole, "--batch 2.5: want a whole number"},
		{jobspec.Batch, "many", MsgNotNumber, "--batch many: want a whole number"},
		{jobspec.TP, "1e30", MsgRange, "--tp 1e30: out of range"},
		{jobspec.GPU, "h999", MsgUnknownChoice, `--gpu "h999": not in the catalog`},
		{jobspec.GPUMemUtil, "1.5", MsgRange, "--gpu-mem-util 1.5: want a share of GPU memory in [0, 1] (0: the engine's default)"},
		{jobspec.MFU, "0.001", MsgRange, "--mfu 0.001: want a share of peak FLOP/s in [0, 1] (0: the model's; from 0.01 when set)"},
		{jobspec.NCCL, "-1GiB", MsgNotSize, ""},
		{jobspec.TrainTokens, "0", MsgNotCount, "--train-tokens: want a count above 0, e.g. 500M or 2T"},
		{jobspec.FlashAttention, "yes", MsgUnknownChoice, "--flash-attention yes: want 1 (on) or 0 (off)"},
	} {
		var text JobText
		text.Read[jobspec.Batch], text.Text[jobspec.Batch] = true, "8"
		text.Read[c.f], text.Text[c.f] = true, c.text
		text.Read[jobspec.GPU] = true
		if c.f != jobspec.GPU {
			text.Text[jobspec.GPU] = "h100-sxm"
		}
		j, errs := ParseInput(&text, estimator.Arch{}, catalog.Default())
		if len(errs) != 1 {
			t.Errorf("--%s %q: %d errors %v", jobspec.Fields[c.f].Flag, c.text, len(errs), errs)
			continue
		}
		e := errs[0]
		if e.Field != c.f || e.Key != c.key || e.Value != c.text || (c.cli != "" && e.Error() != c.cli) {
			t.Errorf("--%s %q: %+v %q, want key %d, %q", jobspec.Fields[c.f].Flag, c.text, *e, e.Error(), c.key, c.cli)
		}
		if c.f != jobspec.Batch && j.In.Batch != 8 {
			t.Errorf("--%s %q: the batch read %d, want 8", jobspec.Fields[c.f].Flag, c.text, j.In.Batch)
		}
		if c.f != jobspec.GPU && j.GPU.ID != "h100-sxm" {
			t.Errorf("--%s %q: GPU %q", jobspec.Fields[c.f].Flag, c.text, j.GPU.ID)
		}
	}
}
