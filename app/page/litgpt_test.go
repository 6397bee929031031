package page

import (
	"slices"
	"strings"
	"testing"
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
