package launch_test

import (
	"strings"
	"testing"

	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestEmitWithoutCUDAGraphs: a plan made without CUDA graphs
// (estimator.Input.EnforceEager: no graphs' memory, eager decode steps)
// starts each engine without them — vLLM --enforce-eager, SGLang
// --disable-cuda-graph, TensorRT-LLM cuda_graph_config: null in its LLM
// API options — and a plan with graphs writes none of the three, in the
// aggregated launch and on both sides of the disaggregated one.
func TestEmitWithoutCUDAGraphs(t *testing.T) {
	in := input(t, "llama-3.1-8b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 10, PromptTokens: 1000, OutputTokens: 200}}
	row := planOn(t, req, "aws-p5en.48xlarge")
	off := map[launch.Kind]string{launch.VLLM: "--enforce-eager", launch.SGLang: "--disable-cuda-graph", launch.TRTLLM: "cuda_graph_config: null"}
	for _, eager := range []bool{false, true} {
		req.Input.EnforceEager = eager
		for k, want := range off {
			l, err := launch.Emit(k, req, row, nil, "meta-llama/Llama-3.1-8B-Instruct")
			if err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			checkLaunch(t, k.String(), l, row.DP)
			text := l.Text()
			if got := strings.Contains(text, want); got != eager {
				t.Errorf("%s, enforce-eager %v: %q written %v:\n%s", k, eager, want, got, text)
			}
			if k == launch.TRTLLM && eager && !strings.Contains(l.Files[0].Text, "--extra_llm_api_options extra_llm_api_options.yaml") {
				t.Errorf("trtllm: serve.sh does not read the options file:\n%s", l.Files[0].Text)
			}
			for _, other := range off {
				if other != want && strings.Contains(text, other) {
					t.Errorf("%s: another engine's setting %q:\n%s", k, other, text)
				}
			}
		}
	}

	dreq, dres := disaggPlan(t, "llama-3.1-8b")
	for _, eager := range []bool{false, true} {
		dreq.Input.EnforceEager = eager
		for _, k := range []launch.Kind{launch.SGLang, launch.TRTLLM, launch.VLLM} {
			l, err := launch.EmitDisagg(k, dreq, dres, nil, "meta-llama/Llama-3.1-8B-Instruct")
			if err != nil {
				t.Fatalf("disaggregated %s: %v", k, err)
			}
			checkDisagg(t, "disaggregated "+k.String(), k, l)
			seen := 0
			for _, f := range l.Files {
				if f.Name != "prefill.sh" && f.Name != "decode.sh" && f.Name != "context_config.yaml" && f.Name != "gen_config.yaml" {
					continue
				}
				if k != launch.TRTLLM && f.Format != "sh" || k == launch.TRTLLM && f.Format != "yaml" {
					continue
				}
				seen++
				if got := strings.Contains(f.Text, off[k]); got != eager {
					t.Errorf("disaggregated %s %s, enforce-eager %v: %q written %v:\n%s", k, f.Name, eager, off[k], got, f.Text)
				}
			}
			if seen != 2 {
				t.Errorf("disaggregated %s: %d prefill/decode files checked, want 2", k, seen)
			}
			// Under Dynamo the workers take the same settings, within
			// the vocabulary its workers accept (checkDisaggVia).
			dl, err := launch.EmitDisaggVia(k, launch.DynamoRouter, dreq, dres, nil, "")
			if err != nil {
				t.Fatalf("dynamo %s: %v", k, err)
			}
			checkDisaggVia(t, "dynamo "+k.String(), k, launch.DynamoRouter, dl)
			if got := strings.Contains(dl.Text(), off[k]); got != eager {
				t.Errorf("dynamo %s, enforce-eager %v: %q written %v", k, eager, off[k], got)
			}
		}
	}
}

// TestEmitPrequantizedCheckpoint: a model whose published checkpoint
// stores the planned format (DeepSeek-R1's block FP8) is launched without
// --quantization, by its catalog ID or its repository, as SGLang's
// quantization docs ask for a pre-quantized model; a 16-bit checkpoint
// planned at fp8 keeps --quantization fp8 (online quantisation).
func TestEmitPrequantizedCheckpoint(t *testing.T) {
	in := input(t, "deepseek-r1")
	in.Weights, in.Engine = estimator.FP8, estimator.SGLang
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 1024, OutputTokens: 1024}}
	row := planOn(t, req, "aws-p5en.48xlarge")
	for _, k := range []launch.Kind{launch.SGLang, launch.VLLM} {
		for _, name := range []string{"deepseek-r1", "deepseek-ai/DeepSeek-R1"} {
			l, err := launch.Emit(k, req, row, nil, name)
			if err != nil {
				t.Fatalf("%s %s: %v", k, name, err)
			}
			if strings.Contains(l.Files[0].Text, "--quantization") || !strings.Contains(l.Text(), "the published checkpoint stores them so") {
				t.Errorf("%s %s: a pre-quantized checkpoint launched with --quantization or without the note:\n%s", k, name, l.Text())
			}
		}
	}
	llama := input(t, "llama-3.1-8b")
	llama.Weights = estimator.FP8
	lreq := plan.Request{Input: llama, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 10, PromptTokens: 1000, OutputTokens: 200}}
	lrow := planOn(t, lreq, "aws-p5en.48xlarge")
	l, err := launch.Emit(launch.VLLM, lreq, lrow, nil, "llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(l.Files[0].Text, "--quantization fp8") {
		t.Errorf("a 16-bit checkpoint planned at fp8 lost --quantization fp8:\n%s", l.Text())
	}
}

// TestEmitWithoutPrefixCache: a plan made without the prefix cache
// (estimator.Input.NoPrefixCache, which changes SGLang's admission of
// ignore-eos requests) starts vLLM with --no-enable-prefix-caching and
// SGLang with --disable-radix-cache; a plan with it writes neither.
func TestEmitWithoutPrefixCache(t *testing.T) {
	checkSettingWritten(t, "no prefix cache", func(in *estimator.Input, on bool) { in.NoPrefixCache = on },
		map[launch.Kind]string{launch.VLLM: "--no-enable-prefix-caching", launch.SGLang: "--disable-radix-cache"})
}

// TestEmitWithoutOverlapScheduler: a plan made with the overlap scheduler
// off (estimator.Input.NoOverlapSchedule) starts SGLang with
// --disable-overlap-schedule and gives TensorRT-LLM an options file with
// disable_overlap_scheduler: true; a plan with it writes neither.
func TestEmitWithoutOverlapScheduler(t *testing.T) {
	checkSettingWritten(t, "overlap scheduler off", func(in *estimator.Input, on bool) { in.NoOverlapSchedule = on },
		map[launch.Kind]string{launch.SGLang: "--disable-overlap-schedule", launch.TRTLLM: "disable_overlap_scheduler: true"})
}

// checkSettingWritten emits Llama 3.1 8B's serving plan on an
// aws-p5en.48xlarge with a boolean setting off and on (set) for each
// engine of want, checks each launch, and wants the engine's text in it
// exactly when the setting is on.
func checkSettingWritten(t *testing.T, name string, set func(*estimator.Input, bool), want map[launch.Kind]string) {
	t.Helper()
	in := input(t, "llama-3.1-8b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 10, PromptTokens: 1000, OutputTokens: 200}}
	row := planOn(t, req, "aws-p5en.48xlarge")
	for _, on := range []bool{false, true} {
		set(&req.Input, on)
		for k, text := range want {
			l, err := launch.Emit(k, req, row, nil, "meta-llama/Llama-3.1-8B-Instruct")
			if err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			checkLaunch(t, k.String(), l, row.DP)
			if got := strings.Contains(l.Text(), text); got != on {
				t.Errorf("%s, %s %v: %q written %v:\n%s", k, name, on, text, got, l.Text())
			}
		}
	}
}
