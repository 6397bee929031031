package page

import (
	"strings"
	"testing"

	planner "rightsize/estimator/plan"
)

// TestDisaggDecodeBoundSays: a decode pool the request rate sizes says
// what caps each worker's batch, its KV cache or the engine's sequence
// limit with the flag that sets it, in each language, the count as the
// page writes counts.
func TestDisaggDecodeBoundSays(t *testing.T) {
	kv := planner.Reason{Key: planner.MsgDisaggBoundRateKV, Args: []any{3856}}
	seqs := planner.Reason{Key: planner.MsgDisaggBoundRateSeqs, Args: []any{1024, "--max-num-seqs"}}
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

// TestDisaggSparesSaid: a spot disaggregated plan says how many workers
// of each pool are its spare, and that the figures beside it are the
// pools' without them, in each language; on demand it says neither.
func TestDisaggSparesSaid(t *testing.T) {
	spare := planner.Reason{Key: planner.MsgDisaggBoundSpare, Args: []any{planner.Reason{Key: planner.MsgDisaggBoundTTFT}, 4}}
	for lang, want := range map[string]string{
		"en": "as many as the TTFT target needs; 4 of them a spare for a spot reclaim",
		"ru": "столько, сколько требует цель по TTFT; из них 4 — запас на случай отзыва spot",
		"zh": "数量由 TTFT 目标决定；其中 4 个为应对 spot 回收的备用",
	} {
		if got := (Locale{Lang: lang}).Reason(spare); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
	for _, c := range []struct {
		link   string
		spares bool
	}{{"m=mistral-7b-v0.3&rps=20&ttft=1000&pr=spot", true}, {"m=mistral-7b-v0.3&rps=20&ttft=1000", false}} {
		v, in, _ := pageOf(t, c.link, nil)
		d := in.Plan.Disagg
		if d == nil {
			t.Fatalf("%s: no disaggregated plan", c.link)
		}
		if (d.PrefillSpare > 0 && d.DecodeSpare > 0) != c.spares {
			t.Errorf("%s: %d + %d spare workers", c.link, d.PrefillSpare, d.DecodeSpare)
		}
		if got := strings.Contains(v.Serve.Disagg, Tr("en", MsgDisaggSpares)); got != c.spares {
			t.Errorf("%s: the line %q says the figures are without the spares: %v", c.link, v.Serve.Disagg, got)
		}
	}
}

// TestWideEPNetworkNoteSaysWhy: the note of a copy whose experts are not
// spread over a network without RDMA names the reason in each language:
// DeepEP's internode kernels need GPUDirect RDMA, which GCP's
// GPUDirect-TCPX/TCPXO (NCCL only) do not carry.
func TestWideEPNetworkNoteSaysWhy(t *testing.T) {
	n := planner.Reason{Key: planner.MsgNoteWideEPNetwork, Args: []any{400.0}}
	for _, lang := range []string{"en", "ru", "zh"} {
		got := (Locale{Lang: lang}).Reason(n)
		for _, want := range []string{"GPUDirect RDMA", "GPUDirect-TCPX/TCPXO", "NCCL", "400"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q lacks %q", lang, got, want)
			}
		}
	}
}
