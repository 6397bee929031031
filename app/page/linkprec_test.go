package page

import (
	"strings"
	"testing"
)

// TestLinkPrecisionFollowsTheCheckpoint: a link that names no precision
// serves DeepSeek-R1 in the fp8 it is published in, as picking it on the
// page and rightsize plan without --precision do (it planned bf16: 144
// H200 at 1.34M USD a month against the command line's tenth); a link to
// it at bf16 says so, and both round-trip; other models and training keep
// bf16 as the link's default.
func TestLinkPrecisionFollowsTheCheckpoint(t *testing.T) {
	for frag, want := range map[string]string{
		"m=deepseek-r1":          "fp8",
		"m=deepseek-r1&p=bf16":   "bf16",
		"m=deepseek-r1&t=lora":   "bf16",
		"m=llama-3.1-8b":         "bf16",
		"m=llama-3.1-8b&p=fp8":   "fp8",
		"m=gpt-oss-120b":         "fp4",
		"m=deepseek-r1&p=int4":   "int4",
		"m=no-such-model&p=fp16": "fp16",
		"m=no-such-model":        "bf16",
	} {
		s := ParseFragment(frag, DefaultState)
		if s[FieldPrecision] != want {
			t.Errorf("%s: precision %q, want %q", frag, s[FieldPrecision], want)
			continue
		}
		again := ParseFragment(s.Fragment(DefaultState), DefaultState)
		if again != s {
			t.Errorf("%s: %q does not round-trip (precision %q)", frag, s.Fragment(DefaultState), again[FieldPrecision])
		}
	}
	r1 := DefaultState.WithModel("deepseek-r1", DefaultCatalog())
	if f := r1.Fragment(DefaultState); strings.Contains(f, "p=") {
		t.Errorf("R1 at its own fp8 writes %q: the model's format is the link's default", f)
	}
	r1[FieldPrecision] = "bf16"
	if f := r1.Fragment(DefaultState); !strings.Contains(f, "p=bf16") {
		t.Errorf("R1 at bf16 writes %q: a reader would plan fp8", f)
	}
}
