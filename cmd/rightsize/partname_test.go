package main

import (
	"strings"
	"testing"
)

// TestBreakdownNamesTheRuntime: the text breakdown says HIP on an AMD GPU
// and CUDA on an NVIDIA one; the JSON keeps its field names.
func TestBreakdownNamesTheRuntime(t *testing.T) {
	for _, c := range []struct{ gpu, want, not string }{
		{"mi300x", "hip graphs", "cuda graphs"},
		{"h100-sxm", "cuda graphs", "hip graphs"},
	} {
		out, errOut, code := runCLI("estimate", "--model", "llama-3.1-8b", "--gpu", c.gpu, "--engine", "vllm")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.gpu, code, errOut)
		}
		if !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("%s: want %q and no %q in\n%s", c.gpu, c.want, c.not, out)
		}
	}
	out, _, _ := runCLI("estimate", "--model", "llama-3.1-8b", "--gpu", "mi300x", "--engine", "vllm", "--json")
	if !strings.Contains(out, `"cuda_graphs_bytes"`) {
		t.Errorf("JSON lost cuda_graphs_bytes:\n%s", out)
	}
}
