package plan_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"rightsize/estimator/plan"
)

// Trace formats: the Azure LLM inference trace's columns and time format,
// and BurstGPT's columns.
func TestParseWorkloadTraces(t *testing.T) {
	w, err := plan.ParseWorkload([]byte("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,4808,10\n2023-11-16 18:15:50.9951690,3180,8\n2023-11-17 09:00:00.0000000,100,300\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Requests != 3 || w.Days != 2 || len(w.Buckets) != 2 || w.Curve == nil || !near(w.Curve[18], 2.0/(2*3600)) || !near(w.Curve[9], 1.0/(2*3600)) {
		t.Errorf("azure: %+v, curve %v", w, w.Curve)
	}
	w, err = plan.ParseWorkload([]byte("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,ChatGPT,472,18,490,Conversation log\n45,ChatGPT,1087,0,1087,Conversation log\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Requests != 2 || w.MeanPrompt != 780 || w.MeanOutput != 9 {
		t.Errorf("burstgpt: %+v", w)
	}
}

// The parsers never panic, and what they accept is a workload the planner
// takes: shares summing to 1, token counts within the caps, a curve of
// finite rates.
func FuzzParseWorkload(f *testing.F) {
	f.Add([]byte(`{"id":"r0","created":1795996800,"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}` + "\n" +
		`{"id":"r1","created":1795997400,"usage":{"prompt_tokens":800,"completion_tokens":300,"total_tokens":1100}}`))
	f.Add([]byte("prompt_tokens,output_tokens,share\n200,150,0.5\n1500,300,0.3\n6000,200,0.2\n"))
	f.Add([]byte("prompt_tokens,output_tokens,timestamp\n10,5,2026-11-26T10:00:00Z\n"))
	f.Add([]byte(`{"input_tokens":3,"output_tokens":4,"timestamp":"2026-11-26 10:00:00"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := plan.ParseWorkload(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error over lines: %q", err)
			}
			return
		}
		sum := 0.0
		for _, b := range w.Buckets {
			if b.PromptTokens < 0 || b.OutputTokens < 0 || b.PromptTokens > plan.MaxTokens || b.OutputTokens > plan.MaxTokens || !(b.Share > 0) {
				t.Errorf("bucket %+v", b)
			}
			sum += b.Share
		}
		if len(w.Buckets) == 0 || math.Abs(sum-1) > 1e-9 || w.MeanOutput < 1 {
			t.Errorf("workload %+v", w)
		}
		if w.Curve != nil {
			if err := w.Curve.Validate(); err != nil {
				t.Errorf("curve %v: %v", *w.Curve, err)
			}
		}
	})
}

func FuzzParseLoadCurve(f *testing.F) {
	var csv strings.Builder
	csv.WriteString("hour,requests_per_second\n")
	list := make([]string, 24)
	for h, v := range chatCurve {
		fmt.Fprintf(&csv, "%d,%g\n", h, v)
		list[h] = fmt.Sprint(v)
	}
	f.Add(csv.String(), false)
	f.Add(strings.Join(list, ","), true)
	f.Fuzz(func(t *testing.T, s string, list bool) {
		var c plan.LoadCurve
		var err error
		if list {
			c, err = plan.ParseCurveList(s)
		} else {
			c, err = plan.ParseCurveCSV([]byte(s))
		}
		if err != nil {
			return
		}
		for _, v := range c {
			if !(v >= 0) || v > 1e6 {
				t.Errorf("rate %g accepted", v)
			}
		}
	})
}
