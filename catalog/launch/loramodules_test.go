package launch

import (
	"strings"
	"testing"

	"rightsize/estimator"
)

// The HF launch names the adapters the estimate sized: q_proj and v_proj
// for query-value (PEFT's own default for Llama), the four attention
// projections for attention, PEFT's "all-linear"; phi3's fused qkv_proj
// cannot take q and v alone, so the script is told so.
func TestLoRAModules(t *testing.T) {
	for _, c := range []struct {
		t         estimator.LoRATargets
		model     string
		list, why string
	}{
		{estimator.LoRAQueryValue, "llama", `["q_proj", "v_proj"]`, ""},
		{estimator.LoRAAttention, "llama", `["q_proj", "k_proj", "v_proj", "o_proj"]`, ""},
		{estimator.LoRAAllLinear, "phi3", `"all-linear"`, ""},
		{estimator.LoRAAttention, "phi3", `["qkv_proj", "o_proj"]`, ""},
		{estimator.LoRAQueryValue, "phi3", "[...]", "one fused qkv_proj"},
		{estimator.LoRAQueryValue, "falcon", "[...]", "the query and value projections of model_type \"falcon\""},
	} {
		list, after := loraModules(c.t, c.model)
		if list != c.list || !strings.Contains(after, c.why) || (c.why == "") != (after == "") {
			t.Errorf("%v on %s: target_modules=%s%s; want %s and %q", c.t, c.model, list, after, c.list, c.why)
		}
	}
}
