package page

import (
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

// A link that names no LoRA rank means LitGPT's rank 8 for a LoRA or
// QLoRA fine-tune named by a Lightning precision, as the command line
// without --lora-rank plans it, and the page's default 16 otherwise; a
// link written from the page names the rank where it differs from that.
func TestLoRARankDefaultByPrecision(t *testing.T) {
	for frag, want := range map[string]string{"t=lora&p=bf16-true": "8", "t=qlora&p=16-true": "8", "t=lora&p=bf16": "16",
		"t=finetune&p=bf16-true": "16", "t=lora&p=bf16-true&r=16": "16", "t=lora&p=bf16&r=8": "8"} {
		s := ParseFragment(frag, DefaultState)
		if s[FieldLoRARank] != want {
			t.Errorf("%s: rank %q, want %q", frag, s[FieldLoRARank], want)
		}
		if back := ParseFragment(s.Fragment(DefaultState), DefaultState); back[FieldLoRARank] != want {
			t.Errorf("%s: the page's link %q reads rank %q, want %q", frag, s.Fragment(DefaultState), back[FieldLoRARank], want)
		}
	}
}

// LitGPT's lora.py refuses QLoRA on more than one device; a bf16-true
// QLoRA on two GPUs is estimated as set, without FSDP, and the page says
// the scripts refuse it, in each language.
func TestLitGPTRefusesMultiGPUQLoRA(t *testing.T) {
	for lang, want := range map[string]string{"en": "refuses QLoRA on more than one GPU", "ru": "не запускает QLoRA", "zh": "不支持在多张 GPU 上运行 QLoRA"} {
		v, in := viewOf(t, "m=llama-2-7b&t=qlora&p=bf16-true&g=a10g&n=2&b=1&s=512&l="+lang, nil)
		if d := in.Job.Stack; d == nil || !d.Refused || in.Job.In.ZeRO != 0 || slices.Contains(d.Flags, "--zero 3") {
			t.Errorf("%s: %+v, ZeRO %d", lang, d, in.Job.In.ZeRO)
		}
		if f := factOf(t, v.Result.Facts, "rs-stack-defaults"); !strings.Contains(f.Detail, want) {
			t.Errorf("%s: %q", lang, f.Detail)
		}
	}
	if _, in := viewOf(t, "m=llama-2-7b&t=qlora&p=bf16-true&g=a10g&b=1&s=512", nil); in.Job.Stack == nil || in.Job.Stack.Refused {
		t.Errorf("one GPU: %+v", in.Job.Stack)
	}
}

// The adapter dtype: on auto the estimator resolves it (fp32 under
// autocast, the base's 16-bit dtype under --pure-bf16:
// estimator.ResolveAdapterDType), a bf16-true LoRA names LitGPT's, in the
// model's dtype (--adapter-dtype bf16, 16-true fp16), and a dtype given
// on the page or in the link wins. The page shows the field for LoRA and
// QLoRA only, auto first with its label, in each language.
func TestAdapterDTypeByStack(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	for frag, want := range map[string]estimator.AdapterDType{
		"t=lora&p=bf16&pb=1":         estimator.AdapterAuto,
		"t=lora&p=bf16-true":         estimator.AdapterBF16,
		"t=lora&p=16-true":           estimator.AdapterFP16,
		"t=lora&p=bf16-mixed":        estimator.AdapterAuto,
		"t=lora&p=bf16-true&ad=fp32": estimator.AdapterFP32,
	} {
		d := Derive(ParseFragment("m=llama-3.1-8b&g=h200-sxm&"+frag, DefaultState), nil, pr, nil, "")
		if !d.R.OK || d.Job.In.AdapterDType != want {
			t.Errorf("%s: adapter dtype %v (ok %v), want %v", frag, d.Job.In.AdapterDType, d.R.OK, want)
		}
	}
	// bf16-true with PEFT's fp32 adapters: their input copies too.
	peft := Derive(ParseFragment("m=llama-3.1-8b&g=h200-sxm&t=lora&p=bf16-true&ad=fp32", DefaultState), nil, pr, nil, "")
	bf := Derive(ParseFragment("m=llama-3.1-8b&g=h200-sxm&t=lora&p=bf16-true", DefaultState), nil, pr, nil, "")
	if !(peft.R.Res.PerGPU.Weights > bf.R.Res.PerGPU.Weights && peft.R.Res.PerGPU.Activations > bf.R.Res.PerGPU.Activations) {
		t.Errorf("PEFT's fp32 adapters: weights %v, activations %v; bf16 adapters %v, %v", peft.R.Res.PerGPU.Weights,
			peft.R.Res.PerGPU.Activations, bf.R.Res.PerGPU.Weights, bf.R.Res.PerGPU.Activations)
	}
	for lang, label := range map[string]string{"en": "Adapter dtype", "ru": "Тип данных адаптеров", "zh": "适配器数据类型"} {
		s := ParseFragment("t=lora&l="+lang, DefaultState)
		var got *FieldView
		v, _ := viewOfState(t, s)
		for i, f := range v.Form.Fields {
			if f.F == FieldAdapterDType {
				got = &v.Form.Fields[i]
			}
		}
		if got == nil || got.Label != label || len(got.Opts) != 4 || got.Opts[0].Value != "auto" || !strings.Contains(got.Opts[0].Label, "fp32") || got.Where == "" {
			t.Errorf("%s: adapter dtype field %+v", lang, got)
		}
	}
	if s := ParseFragment("t=finetune", DefaultState); s.Shown(FieldAdapterDType) {
		t.Error("the adapter dtype is shown for a full fine-tune")
	}
}

// Lightning's -mixed precisions keep the module fp32 under autocast and
// its FSDPPrecision gathers the fp32 weights: a full fine-tune named
// bf16-mixed or 16-mixed on several GPUs (LitGPT's FSDP, ZeRO 3) takes
// --fsdp-fp32-gather and holds more per GPU than the same job in HF's
// bf16 (Accelerate's 16-bit gather); -true names and LoRA do not take
// it (the command line's --fsdp-fp32-gather=false turns it off).
func TestLightningMixedGathersFP32(t *testing.T) {
	const job = "m=qwen2.5-7b&g=h200-sxm&n=8&b=1&s=1024"
	for frag, want := range map[string]bool{
		"t=finetune&p=bf16-mixed": true,
		"t=finetune&p=16-mixed":   true,
		"t=finetune&p=bf16-true":  false,
		"t=lora&p=bf16-mixed":     false,
		"t=finetune&p=bf16":       false,
	} {
		_, in := viewOf(t, job+"&"+frag, nil)
		took := in.Job.Stack != nil && slices.Contains(in.Job.Stack.Flags, "--fsdp-fp32-gather")
		if in.Job.In.FSDPGatherFP32 != want || took != want {
			t.Errorf("%s: FSDPGatherFP32 %v, stack took it %v; want %v", frag, in.Job.In.FSDPGatherFP32, took, want)
		}
	}
	_, mixed := viewOf(t, job+"&t=finetune&p=bf16-mixed", nil)
	if mixed.Job.In.ZeRO != 3 {
		t.Fatalf("ZeRO %d, want LitGPT's FSDP (3)", mixed.Job.In.ZeRO)
	}
	rm, err := estimator.Estimate(mixed.Job.In)
	if err != nil {
		t.Fatal(err)
	}
	off := mixed.Job.In
	off.FSDPGatherFP32 = false
	ro, err := estimator.Estimate(off)
	if err != nil {
		t.Fatal(err)
	}
	// LitGPT's defaults accumulate under no_sync: the whole model's
	// gradients in fp32, 15.2 GB more than in 16-bit for Qwen2.5 7B's
	// 7.62 B weights (checkpointed, so no autocast copies are held).
	if d := float64(rm.PeakAllocated - ro.PeakAllocated); d < 15e9 {
		t.Errorf("bf16-mixed under FSDP holds %.2f GB more than with the 16-bit gather, want at least the 15.2 GB of fp32 over 16-bit gradients", d/1e9)
	}
}
