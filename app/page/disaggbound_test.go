package page

import (
	"testing"

	planner "rightsize/estimator/plan"
)

// TestDisaggDecodeBoundSays: a decode pool the request rate sizes says
// what caps each worker's batch, its KV cache or the engine's sequence
// limit with the flag that sets it, in each language, the count as the
// page writes counts.
func TestDisaggDecodeBoundSays(t *testing.T) {
	kv := planner.Reason{Key: "disagg.bound_rate_kv", Args: []any{3856}}
	seqs := planner.Reason{Key: "disagg.bound_rate_seqs", Args: []any{1024, "--max-num-seqs"}}
	for _, c := range []struct {
		lang     string
		kv, seqs string
	}{
		{"en", "as many as the request rate needs under the load cap, each decoding at most 3,856 requests at once, as many as its KV cache holds",
			"as many as the request rate needs under the load cap, each decoding at most 1,024 requests at once, the engine's running-sequence limit (--max-num-seqs)"},
		{"ru", "столько, сколько требует поток запросов при предельной загрузке; каждый декодирует не больше 3\u00a0856 запросов сразу — столько вмещает его KV-кэш",
			"столько, сколько требует поток запросов при предельной загрузке; каждый декодирует не больше 1\u00a0024 запросов сразу — предел движка по числу последовательностей (--max-num-seqs)"},
		{"zh", "数量由负载上限下的请求速率决定，每个同时最多解码 3,856 个请求，即其 KV 缓存所能容纳的数量",
			"数量由负载上限下的请求速率决定，每个同时最多解码 1,024 个请求，即引擎的运行序列数上限（--max-num-seqs）"},
	} {
		l := Locale{Lang: c.lang}
		if got := l.Reason(kv); got != c.kv {
			t.Errorf("%s KV:\n got %q\nwant %q", c.lang, got, c.kv)
		}
		if got := l.Reason(seqs); got != c.seqs {
			t.Errorf("%s sequence limit:\n got %q\nwant %q", c.lang, got, c.seqs)
		}
	}
}
