package plan_test

import (
	"errors"
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

// A histogram's shares are weights from 0 to 10¹⁵: a larger one is
// refused at its line, where a share of 1e308 overflowed the sums into
// "every request has 0 tokens" and 1e302 on 10⁷-token prompts gave a
// class a negative token count; shares up to the bound keep the classes'
// means and shares exact.
func TestWorkloadShareBounds(t *testing.T) {
	for _, c := range []struct{ csv, line string }{
		{"prompt_tokens,output_tokens,share\n100,50,1e308\n200,60,1e308\n", "line 2: share \"1e308\": want a number from 0 to 1e+15"},
		{"prompt_tokens,output_tokens,share\n100,10,1\n10000000,50,1e302\n", "line 3: share \"1e302\": want a number from 0 to 1e+15"},
		{"prompt_tokens,output_tokens,share\n100,10,1\n100,10,+Inf\n", "line 3: share \"+Inf\""},
		{"prompt_tokens,output_tokens,share\n100,10,NaN\n", "line 2: share \"NaN\""},
	} {
		_, err := plan.ParseWorkload([]byte(c.csv))
		var le *plan.LineError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.line) {
			t.Errorf("%q: %v, want %q", c.csv, err, c.line)
		}
	}
	w, err := plan.ParseWorkload([]byte("prompt_tokens,output_tokens,share\n10000000,50,1e15\n100,10,3e15\n"))
	if err == nil {
		t.Fatalf("a share of 3e15 accepted: %+v", w)
	}
	w, err = plan.ParseWorkload([]byte("prompt_tokens,output_tokens,share\n10000000,50,1e15\n100,10,3e14\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []plan.Bucket{{PromptTokens: 100, OutputTokens: 10, Share: 3.0 / 13}, {PromptTokens: 10000000, OutputTokens: 50, Share: 10.0 / 13}}
	if len(w.Buckets) != 2 || w.Buckets[0].PromptTokens != 100 || w.Buckets[1].PromptTokens != 10000000 || w.Buckets[1].OutputTokens != 50 ||
		!near(w.Buckets[0].Share, want[0].Share) || !near(w.Buckets[1].Share, want[1].Share) || w.MeanPrompt != 7692331 {
		t.Errorf("%+v, want buckets %+v", w, want)
	}
	// A share too small for its products to be exact still gives its
	// class tokens within the caps.
	w, err = plan.ParseWorkload([]byte("prompt_tokens,output_tokens,share\n10000000,10000000,5e-324\n1,1,0\n"))
	if err != nil || len(w.Buckets) != 1 || w.Buckets[0].PromptTokens != plan.MaxTokens || w.Buckets[0].OutputTokens != plan.MaxTokens {
		t.Errorf("%+v, %v", w, err)
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
	f.Add([]byte("prompt_tokens,output_tokens,share\n10000000,50,1e302\n100,10,1\n"))
	f.Add([]byte("prompt_tokens,output_tokens,share\n10000000,10000000,5e-324\n1,1,0\n"))
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
