package page

import (
	"math"
	"strconv"
	"strings"
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
		{jobspec.TrainTokens, "abc", MsgNotCount, "--train-tokens: estimator: count=abc: not a number: want a count such as 4096, 500M, 1.5B or 2T"},
		{jobspec.TrainTokens, "-5", MsgRange, "--train-tokens: estimator: count=-5: out of range: want a number ≥ 0 up to 10^18, optionally with K, M, B or T"},
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

// FuzzParsePlan: any text in the planner's fields reads as a plan within
// its documented ranges or as one problem per field it names, never a
// panic, NaN or a value out of range.
func FuzzParsePlan(f *testing.F) {
	f.Add("20", "32", "0.2", "0.15", "0.6", "25000", "0.1", "5")
	f.Add("1.5k", "0", "0", "0", "", "1e5", "0", "100")
	f.Add("0", "-1", "1.5", "-1", "1e16", "0", "-0.1", "101")
	f.Add("2e6", "2.5", "NaN", "Inf", "free", "lots", "", "Inf")
	f.Add("", "", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, rps, vcpus, spot, apiIn, apiOut, own, kwh, years string) {
		var text JobText
		for fl, v := range map[jobspec.Field]string{jobspec.RequestsPerSecond: rps, jobspec.MinVCPUs: vcpus, jobspec.SpotInterruptions: spot,
			jobspec.APIInputPrice: apiIn, jobspec.APIOutputPrice: apiOut, jobspec.OwnPrice: own, jobspec.KWhPrice: kwh, jobspec.DepreciationYears: years} {
			text.Text[fl], text.Read[fl], text.Set[fl] = v, true, true
		}
		j, errs := ParsePlan(&text, catalog.Default())
		bad := map[jobspec.Field]bool{}
		for _, e := range errs {
			if e.Error() == "" || e.Key == 0 {
				t.Fatalf("an empty problem %+v", e)
			}
			bad[e.Field] = true
		}
		if !(j.RequestsPerSecond == 0 || j.RequestsPerSecond > 0 && j.RequestsPerSecond <= MaxRequestsPerSecond) || j.MinVCPUs < 0 ||
			!(j.SpotInterruptions >= 0 && j.SpotInterruptions <= 1) {
			t.Fatalf("rate %g, vCPUs %d, reclaims %g", j.RequestsPerSecond, j.MinVCPUs, j.SpotInterruptions)
		}
		if a := j.HostedAPI; a != nil && (!(a.InputUSDPerMillion >= 0 && a.InputUSDPerMillion <= maxAmount) || !(a.OutputUSDPerMillion >= 0 && a.OutputUSDPerMillion <= maxAmount)) {
			t.Fatalf("hosted API %+v", *a)
		}
		if o := j.Own; o != nil && (!(o.PriceUSD > 0 && o.PriceUSD <= maxAmount) || !(o.KWhUSD >= 0 && o.KWhUSD <= maxAmount) || !(o.DepreciationYears > 0 && o.DepreciationYears <= 100)) {
			t.Fatalf("owned %+v", *o)
		}
		if (j.Own == nil) != (strings.TrimSpace(own) == "" || bad[jobspec.OwnPrice] || bad[jobspec.KWhPrice] || bad[jobspec.DepreciationYears]) {
			t.Fatalf("own %q %q %q: %+v, problems %v", own, kwh, years, j.Own, errs)
		}
	})
}

// FuzzParseUnits: ParseDuration and ParseAmount, the rule both doors
// read their renamed fields by, give a value in range or a problem with
// the page's message, for any text; a bare number is in the field's unit.
func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"500", "0.5s", "500ms", "3d", "1h30m", "-1", "NaN", "Inf", "1e400", "", " 72 ", "1e16", "0x1p4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, bare := range []float64{1, 1e-3, 3600} {
			v, key, err := ParseDuration(s, bare)
			if err != nil && key == 0 || err == nil && !(v >= 0 && v <= 1e9) {
				t.Fatalf("ParseDuration(%q, %g) = %g, %d, %v", s, bare, v, key, err)
			}
			if x, perr := strconv.ParseFloat(strings.TrimSpace(s), 64); perr == nil && err == nil && math.Abs(v-x*bare) > 1e-9*math.Abs(x*bare) {
				t.Fatalf("ParseDuration(%q, %g) = %g, want the bare number in the unit", s, bare, v)
			}
		}
		v, key, err := ParseAmount(s)
		if err != nil && key == 0 || err == nil && !(v >= 0 && v <= 1e15) {
			t.Fatalf("ParseAmount(%q) = %g, %d, %v", s, v, key, err)
		}
	})
}

// TestParseInputShippedPrecision: serving with no precision chosen takes
// the checkpoint's own (DeepSeek-V3 ships FP8), at either door; a chosen
// precision, training, or a model without a narrower checkpoint keeps it.
func TestParseInputShippedPrecision(t *testing.T) {
	for _, c := range []struct {
		model, task, precision string
		set                    bool
		want                   estimator.DType
		shipped                string
	}{
		{"deepseek-v3", "inference", "bf16", false, estimator.FP8, "DeepSeek-V3"},
		{"deepseek-v3", "inference", "bf16", true, estimator.BF16, ""},
		{"deepseek-v3", "finetune", "bf16", false, estimator.BF16, ""},
		{"llama-3.1-8b", "inference", "bf16", false, estimator.BF16, ""},
	} {
		var text JobText
		for f, v := range map[jobspec.Field]string{jobspec.Model: c.model, jobspec.Task: c.task, jobspec.Precision: c.precision} {
			text.Text[f], text.Read[f], text.Set[f] = v, true, true
		}
		text.Set[jobspec.Precision] = c.set
		j, errs := ParseInput(&text, estimator.Arch{}, catalog.Default())
		if len(errs) > 0 || j.In.Weights != c.want || j.ShippedBy != c.shipped {
			t.Errorf("%+v: weights %s, shipped by %q, %v", c, j.In.Weights, j.ShippedBy, errs)
		}
	}
}

// TestParseInputLightningPrecision: the precision field takes Lightning's
// names as LitGPT's configs and published fine-tune tables print them
// (bf16-true is 16-bit weights and states with no fp32 master copy, the
// estimator's pure 16-bit training; bf16-mixed autocast over fp32
// weights, its mixed precision), and refuses with the reason those it
// cannot model or that contradict --pure-bf16.
func TestParseInputLightningPrecision(t *testing.T) {
	for _, c := range []struct {
		task, precision, pure string // pure: --pure-bf16 given ("": not)
		want                  estimator.DType
		wantPure              bool
		err                   string // the command line's wording ("": read)
	}{
		{"finetune", "bf16-true", "", estimator.BF16, true, ""},
		{"lora", "16-true", "", estimator.FP16, true, ""},
		{"qlora", "bf16-true", "1", estimator.BF16, true, ""},
		{"finetune", "bf16-mixed", "", estimator.BF16, false, ""},
		{"train", "16-mixed", "0", estimator.FP16, false, ""},
		{"finetune", "32-true", "", estimator.FP32, false, ""},
		// Serving: the weights' dtype; no pure 16-bit training to plan.
		{"inference", "bf16-true", "", estimator.BF16, false, ""},
		{"inference", "32-true", "", estimator.FP32, false, ""},
		{"inference", "bf16-mixed", "", 0, false, "--precision bf16-mixed: Lightning's autocast over fp32 weights, a training precision; for --task inference give bf16 (16-bit weights, as bf16-true) or fp32"},
		{"finetune", "bf16-true", "0", 0, false, "--precision bf16-true: Lightning's bf16-true keeps no fp32 master copy, which --pure-bf16=false contradicts"},
		{"lora", "16-mixed", "1", 0, false, "--precision 16-mixed: Lightning's 16-mixed keeps fp32 weights, which --pure-bf16=true contradicts"},
		{"train", "transformer-engine", "", 0, false, "not modelled; --precision fp8 plans Transformer Engine over fp32 master weights"},
		{"finetune", "64-true", "", 0, false, "fp64 weights are not modelled"},
		{"finetune", "bf16_true", "", 0, false, "want fp32, bf16, fp16, fp8, fp4, int8 or int4; or Lightning's bf16-true, bf16-mixed, 16-true, 16-mixed, 32-true"},
	} {
		var text JobText
		for f, v := range map[jobspec.Field]string{jobspec.Model: "llama-3.1-8b", jobspec.Task: c.task, jobspec.Precision: c.precision} {
			text.Text[f], text.Read[f], text.Set[f] = v, true, true
		}
		if c.pure != "" {
			text.Text[jobspec.PureBF16], text.Read[jobspec.PureBF16], text.Set[jobspec.PureBF16] = c.pure, true, true
		}
		j, errs := ParseInput(&text, estimator.Arch{}, catalog.Default())
		if c.err != "" {
			if len(errs) != 1 || errs[0].Field != jobspec.Precision || !strings.Contains(errs[0].Error(), c.err) {
				t.Errorf("%+v: %v, want one --precision problem saying %q", c, errs, c.err)
			}
			continue
		}
		if len(errs) > 0 || j.In.Weights != c.want || j.In.PureBF16 != c.wantPure {
			t.Errorf("%+v: weights %s, pure 16-bit %v, %v; want %s, %v", c, j.In.Weights, j.In.PureBF16, errs, c.want, c.wantPure)
		}
	}
}
