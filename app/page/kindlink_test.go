package page

import (
	"testing"

	"rightsize/catalog"
)

// TestUnknownProviderKindMarked: a link whose provider kind no provider
// has marks the field, as --kind does on the command line (catalog
// KindsFilter); it planned on no offer without a word.
func TestUnknownProviderKindMarked(t *testing.T) {
	cat := catalog.Default()
	for frag, bad := range map[string]bool{
		"m=llama-3.1-8b&rps=5&pk=gpucloud":  true,
		"m=llama-3.1-8b&rps=5&pk=any":       false,
		"m=llama-3.1-8b&rps=5&pk=gpu-cloud": false,
	} {
		_, errs, _, ok := ParseJob(ParseFragment(frag, DefaultState), cat, Archs{}, nil, "")
		if got := !errs[FieldProviderKind].OK(); got != bad || ok == bad {
			t.Errorf("%s: provider kind marked %v (ok %v), want %v", frag, got, ok, bad)
		}
		if bad && errs[FieldProviderKind].Key != MsgUnknownChoice {
			t.Errorf("%s: %v, want unknown choice", frag, errs[FieldProviderKind])
		}
	}
}
