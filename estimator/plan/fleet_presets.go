package plan

import (
	"math"
	"strings"
)

// Workload presets: request-size mixes of public traces and benchmarks,
// each with its source. A preset is the size classes the workload parser
// (ParseWorkload, sizeClass) makes of its source, so a preset and the
// source's file plan alike; TestPresetsMatchTraces reads the vendored
// traces (testdata/azure-llm-2023) and holds the literals below to them.
//
// Left out for want of a verified public source: a retrieval-augmented
// (RAG) mix, a summarisation mix and a batch-generation mix. The
// InferenceX fixed-length shapes below are benchmark shapes, not traffic:
// the 8k/1k one has long prompts and short answers (as RAG and
// summarisation requests do) and the 1k/8k one long answers, but no
// source ties them to those uses.

// Preset is a named workload mix.
type Preset struct {
	Name        string
	Description string // one English line
	Source      string // where the mix comes from
	Buckets     []Bucket
	// MaxTokens is the longest request's prompt + output where the
	// source gives it (0: not known; the launch then takes the model's
	// context length).
	MaxTokens int
}

// presets is the list, in the order the CLI lists them.
var presets = []Preset{
	{
		Name:        "chat",
		Description: "conversation service (Azure LLM inference trace 2023, conversation: 19,366 requests)",
		// Azure/AzurePublicDataset data/AzureLLMInferenceTrace_conv.csv
		// (commit 790921015d50dd6aae7f7e47f39ba0e235ad6b08, CC-BY 4.0), the
		// trace of Patel et al., "Splitwise: Efficient generative LLM
		// inference using phase splitting", ISCA 2024: ContextTokens and
		// GeneratedTokens of 19,366 requests on 2023-11-16, in the parser's
		// size classes (mean 1,155 prompt / 211 output tokens).
		Source: "Azure LLM inference trace 2023 (Splitwise, ISCA 2024), AzureLLMInferenceTrace_conv.csv",
		// The longest request in the trace: 14,089 tokens
		// (TestPresetsMatchTraces).
		MaxTokens: 14089,
		Buckets: []Bucket{
			{PromptTokens: 321, OutputTokens: 109, Share: 0.3917690798306311},
			{PromptTokens: 243, OutputTokens: 398, Share: 0.002891665806051844},
			{PromptTokens: 1287, OutputTokens: 109, Share: 0.13255189507384077},
			{PromptTokens: 1078, OutputTokens: 426, Share: 0.3332128472580812},
			{PromptTokens: 3565, OutputTokens: 77, Share: 0.13838686357533825},
			{PromptTokens: 3767, OutputTokens: 418, Share: 0.0011360115666632245},
			{PromptTokens: 14050, OutputTokens: 39, Share: 5.1636889393782924e-05},
		},
	},
	{
		Name:        "code",
		Description: "code completion service (Azure LLM inference trace 2023, code: 8,819 requests)",
		// Azure/AzurePublicDataset data/AzureLLMInferenceTrace_code.csv
		// (same commit and paper): 8,819 requests, mean 2,048 prompt / 28
		// output tokens.
		Source: "Azure LLM inference trace 2023 (Splitwise, ISCA 2024), AzureLLMInferenceTrace_code.csv",
		// The longest request in the trace: 7,841 tokens.
		MaxTokens: 7841,
		Buckets: []Bucket{
			{PromptTokens: 200, OutputTokens: 24, Share: 0.2306383943757796},
			{PromptTokens: 237, OutputTokens: 507, Share: 0.0022678308198208416},
			{PromptTokens: 1225, OutputTokens: 24, Share: 0.38870620251729227},
			{PromptTokens: 1318, OutputTokens: 431, Share: 0.0034017462297312624},
			{PromptTokens: 4056, OutputTokens: 23, Share: 0.37124390520467176},
			{PromptTokens: 3958, OutputTokens: 518, Share: 0.0037419208527043886},
		},
	},
	inferenceX("1k1k", 1024, 1024, "balanced prompts and answers"),
	inferenceX("8k1k", 8192, 1024, "long prompts, short answers"),
	inferenceX("1k8k", 1024, 8192, "short prompts, long answers"),
}

// inferenceX is one of InferenceX's fixed-length shapes: its client draws
// each request's input and output lengths uniformly from [0.8 × ISL, ISL]
// and [0.8 × OSL, OSL] (RANDOM_RANGE_RATIO 0.8; README.inferencex.md in
// estimator/testdata/calibration/inferencex), so a request averages 0.9 ×
// the nominal lengths: one size class at that mean.
func inferenceX(name string, isl, osl int, what string) Preset {
	p, o := int(math.Round(0.9*float64(isl))), int(math.Round(0.9*float64(osl)))
	return Preset{
		Name:        "inferencex-" + name,
		Description: "InferenceX fixed-length benchmark shape " + strings.Replace(name, "k", "k/", 1) + ": " + what,
		Source:      "SemiAnalysis InferenceX single_turn runs, lengths uniform in [0.8, 1] × nominal (estimator/testdata/calibration/inferencex)",
		Buckets:     []Bucket{{PromptTokens: p, OutputTokens: o, Share: 1}},
		MaxTokens:   isl + osl,
	}
}

// Presets lists the workload presets: a copy, buckets included, so a
// caller that edits it changes no later plan.
func Presets() []Preset {
	out := make([]Preset, len(presets))
	for i, p := range presets {
		p.Buckets = append([]Bucket(nil), p.Buckets...)
		out[i] = p
	}
	return out
}

// PresetNames is the presets' names, in order.
func PresetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	return out
}

// PresetWorkload is the named preset as a workload mix (its Source the
// preset's name); false when there is none by that name.
func PresetWorkload(name string) (WorkloadMix, bool) {
	for _, p := range presets {
		if strings.EqualFold(p.Name, name) {
			w := WorkloadMix{Source: "preset " + p.Name, Buckets: append([]Bucket(nil), p.Buckets...), MaxTokens: p.MaxTokens}
			sp, so, st := 0.0, 0.0, 0.0
			for _, b := range p.Buckets {
				sp += b.Share * float64(b.PromptTokens)
				so += b.Share * float64(b.OutputTokens)
				st += b.Share
			}
			w.MeanPrompt, w.MeanOutput = int(math.Round(sp/st)), max(int(math.Round(so/st)), 1)
			return w, true
		}
	}
	return WorkloadMix{}, false
}
