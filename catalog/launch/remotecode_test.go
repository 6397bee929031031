package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestRemoteCodeCheckpoint: Kimi K2's tokenizer is code in its repository,
// so every engine's launch of it (by catalog ID or by repository) passes
// the engine's trust-remote-code flag, which a launch without it needs to
// load the tokenizer; a checkpoint the engines implement (Llama) gets no
// such flag.
func TestRemoteCodeCheckpoint(t *testing.T) {
	req := serving(t, "llama-3.1-8b", 2, estimator.VLLM, plan.OnDemand)
	row := servingRow(t, req, "aws-p5.4xlarge", 1, 1, 1)
	flags := map[launch.Kind]string{launch.VLLM: " --trust-remote-code ", launch.SGLang: " --trust-remote-code ", launch.TRTLLM: " --trust_remote_code "}
	for k, flag := range flags {
		for _, c := range []struct {
			model string
			want  bool
		}{{"kimi-k2", true}, {"moonshotai/Kimi-K2-Instruct", true}, {"llama-3.1-8b", false}} {
			l, err := launch.Emit(k, req, row, nil, c.model)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(l.Files[0].Text, "\n", " ")
			if got := strings.Contains(text, flag); got != c.want {
				t.Errorf("%v %s: %s %v, want %v:\n%s", k, c.model, flag, got, c.want, l.Files[0].Text)
			}
			if got := strings.Contains(strings.Join(l.Notes, "; "), "tokenization_kimi.py"); got != c.want {
				t.Errorf("%v %s: notes %q", k, c.model, l.Notes)
			}
		}
	}
}
