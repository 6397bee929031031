package main

import "fmt"

// devicePrefillCases: our own whole-model prefills on one H200
// (device-h200-2026-11-30/prefill.json: HF transformers 5.17, PyTorch
// 2.11, SDPA on cuDNN, random bf16 weights from the public configs, batch
// 1, the last token's logits only, the median of 5 forwards after 2
// warm-ups). The forward is the prefill without sampling the first token,
// which the estimate's time to first token also holds (one decode-sized
// step's worth at most): test rows, nothing was fitted on them.
func devicePrefillCases(dir string) ([]valCase, error) {
	const file = "device-h200-2026-11-30/prefill.json"
	var f struct{ Points []map[string]any }
	if err := readJSON(dir, file, &f); err != nil {
		return nil, err
	}
	var out []valCase
	for _, p := range f.Points {
		n, sec := int(num(p["tokens"])), num(p["seconds_median"])
		if n <= 0 || sec <= 0 {
			continue // a point that recorded an error
		}
		out = append(out, valCase{Group: "prefill/TTFT", Split: "test", Source: file, Engine: "HF transformers 5.17, PyTorch 2.11 (SDPA, cuDNN)",
			Setting: fmt.Sprintf("%s H200 BF16 batch 1, prompt %d, whole-model forward", p["model"], n),
			Args: []string{"--model", str(p["model"]), "--gpu", "h200-sxm", "--engine", "hf", "--precision", "bf16", "--batch", "1",
				"--seq", itoa(n + 1), "--prompt-tokens", itoa(n), "--output-tokens", "1"},
			Field: "performance.time_to_first_token_seconds", Scale: 1000, Measured: 1000 * sec, Unit: "ms"})
	}
	return out, nil
}
