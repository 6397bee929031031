package plan_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"slices"
	"testing"

	"rightsize/estimator/plan"
)

// The trace presets are the parser's size classes of the vendored Azure
// traces, to the last bit.
func TestPresetsMatchTraces(t *testing.T) {
	for name, file := range map[string]string{"chat": "conv", "code": "code"} {
		f, err := os.Open("testdata/azure-llm-2023/AzureLLMInferenceTrace_" + file + ".csv.gz")
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(z)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		w, err := plan.ParseWorkload(bytes.TrimSpace(data))
		if err != nil {
			t.Fatal(err)
		}
		p, ok := plan.PresetWorkload(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		// The longest request (conv 14,089 tokens, code 7,841) is what
		// the launch settings' context length must cover.
		if p.MaxTokens != w.MaxTokens || w.MaxTokens == 0 {
			t.Errorf("%s: preset's longest request %d, trace's %d", name, p.MaxTokens, w.MaxTokens)
		}
		if !slices.Equal(p.Buckets, w.Buckets) || p.MeanPrompt != w.MeanPrompt || p.MeanOutput != w.MeanOutput {
			t.Errorf("%s: preset %v (mean %d/%d), trace %v (mean %d/%d)", name, p.Buckets, p.MeanPrompt, p.MeanOutput, w.Buckets, w.MeanPrompt, w.MeanOutput)
		}
		t.Logf("%s: %d requests, mean %d/%d tokens", name, w.Requests, w.MeanPrompt, w.MeanOutput)
	}
}

// InferenceX shapes by hand: 0.9 × 1,024 = 921.6 → 922; 0.9 × 8,192 =
// 7,372.8 → 7,373.
func TestPresetInferenceX(t *testing.T) {
	for name, want := range map[string][2]int{"inferencex-1k1k": {922, 922}, "inferencex-8k1k": {7373, 922}, "inferencex-1k8k": {922, 7373}} {
		w, ok := plan.PresetWorkload(name)
		if w.MaxTokens != map[string]int{"inferencex-1k1k": 2048, "inferencex-8k1k": 9216, "inferencex-1k8k": 9216}[name] {
			t.Errorf("%s: longest request %d", name, w.MaxTokens)
		}
		if !ok || len(w.Buckets) != 1 || w.Buckets[0].PromptTokens != want[0] || w.Buckets[0].OutputTokens != want[1] || w.MeanPrompt != want[0] || w.MeanOutput != want[1] {
			t.Errorf("%s: %+v, want %v", name, w, want)
		}
	}
	if _, ok := plan.PresetWorkload("rag"); ok {
		t.Error("a rag preset without a source")
	}
	for _, p := range plan.Presets() {
		total := 0.0
		for _, b := range p.Buckets {
			total += b.Share
		}
		if p.Source == "" || p.Description == "" || total < 1-1e-12 || total > 1+1e-12 {
			t.Errorf("%s: source %q, shares sum to %v", p.Name, p.Source, total)
		}
	}
}

// TestPresetsIsACopy: a caller editing the list Presets returns, or a
// preset's buckets, changes neither the next call nor a preset's workload.
func TestPresetsIsACopy(t *testing.T) {
	ps := plan.Presets()
	name, share := ps[0].Name, ps[0].Buckets[0].Share
	ps[0].Name = "edited"
	ps[0].Buckets[0].Share = share + 1
	again := plan.Presets()
	if again[0].Name != name || again[0].Buckets[0].Share != share {
		t.Fatalf("Presets()[0] = %q share %v after an edit of an earlier copy, want %q share %v", again[0].Name, again[0].Buckets[0].Share, name, share)
	}
	w, ok := plan.PresetWorkload(name)
	if !ok || w.Buckets[0].Share != share {
		t.Fatalf("PresetWorkload(%q) = %+v, %v: an edit of Presets() reached it", name, w, ok)
	}
}
