package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog/launch"
)

// TestEmitSpeculativeDecoding: a plan priced with two MTP drafts a step
// launches every engine with them, aggregated and disaggregated (both
// roles of SGLang's PD run the draft module, as the estimate prices
// them): vLLM's --speculative-config with the model's proposer, SGLang's
// EAGLE chain with SGLANG_ENABLE_SPEC_V2 (its overlap scheduler, which
// the plan priced) and --max-running-requests (SGLang would otherwise
// drop to 48 running requests with speculative decoding), TensorRT-LLM's
// speculative_config; a plan without drafts writes none of it.
func TestEmitSpeculativeDecoding(t *testing.T) {
	want := map[launch.Kind][]string{
		launch.VLLM:   {`--speculative-config '{"method":"mtp","num_speculative_tokens":2}'`},
		launch.SGLang: {"SGLANG_ENABLE_SPEC_V2=1 ", "--speculative-algorithm EAGLE", "--speculative-num-steps 2", "--speculative-eagle-topk 1", "--speculative-num-draft-tokens 3", "--max-running-requests "},
		launch.TRTLLM: {"speculative_config:\n  decoding_type: \"MTP\"\n  num_nextn_predict_layers: 2\n", "--extra_llm_api_options"},
	}
	scenarios(t)
	seen := map[bool]int{}
	for _, s := range append(append([]scenario(nil), serveCases...), disaggCases...) {
		if s.req.Input.DraftTokens != 2 {
			continue
		}
		seen[s.disagg]++
		l, err := emit(s, benign(names{provider: "aws", instance: "x", region: "r", model: "m"}))
		if err != nil {
			t.Fatal(err)
		}
		text := l.Text()
		for _, w := range want[s.kind] {
			if n := strings.Count(text, w); n == 0 || s.disagg && s.kind == launch.SGLang && strings.HasPrefix(w, "--speculative") && n < 2 {
				t.Errorf("%s (disaggregated %v): %q written %d times\n%s", s.kind, s.disagg, w, n, text)
			}
		}
		// The same launch without the drafts writes none of them.
		s.req.Input.DraftTokens = 0
		plain, err := emit(s, benign(names{provider: "aws", instance: "x", region: "r", model: "m"}))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(plain.Text(), "speculative") || strings.Contains(plain.Text(), "SPEC_V2") {
			t.Errorf("%s (disaggregated %v) without drafts writes speculative settings", s.kind, s.disagg)
		}
	}
	// Every engine, and SGLang and TensorRT-LLM again with the overlap
	// scheduler off.
	if seen[false] != 5 || seen[true] != 5 {
		t.Fatalf("scenarios with drafts: %v, want 5 aggregated and 5 disaggregated", seen)
	}
}
