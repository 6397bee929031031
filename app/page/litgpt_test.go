package page

import "testing"

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
