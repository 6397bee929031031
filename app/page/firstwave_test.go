package page

import (
	"strings"
	"testing"
)

// TestTTFTSaysItsFirstWave: where the TTFT is the mean of a simulated
// closed-loop benchmark whose first wave starts cold (SGLang on an H100:
// estimator.ColdFirstWaveSeconds 0.45 s), the speed section says so
// beside it, in each language, as the CLI's estimate does; vLLM's runs
// take no wave and say nothing.
func TestTTFTSaysItsFirstWave(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "mean of a benchmark at 32 in flight, its first wave 450 ms late",
		"ru": "среднее бенчмарка при 32 запросах в работе, первая волна позже на 450 мс",
		"zh": "并发 32 的基准测试均值，首批请求因预热后的冷启动晚 450 毫秒",
	} {
		v, _, _ := pageOf(t, "m=llama-3.1-8b&g=h100-sxm&e=sglang&b=32&rps=1&l="+lang, nil)
		if len(v.Perf.Facts) == 0 || v.Perf.Facts[0].ID != "rs-ttft" || !strings.Contains(v.Perf.Facts[0].Detail, want) {
			t.Errorf("%s: TTFT fact %+v, want %q in its detail", lang, v.Perf.Facts, want)
		}
	}
	v, _, _ := pageOf(t, "m=llama-3.1-8b&g=h100-sxm&e=vllm&b=32&rps=1", nil)
	if len(v.Perf.Facts) == 0 || v.Perf.Facts[0].Detail != "" {
		t.Errorf("vLLM: TTFT fact %+v, want no first wave", v.Perf.Facts)
	}
}
