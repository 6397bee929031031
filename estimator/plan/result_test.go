package plan_test

import (
	"errors"
	"math"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// Amounts print with three significant digits, whole numbers in full
// with their thousands grouped by commas (as English writes a sum), and
// from 10¹⁵ up in exponent form: an input of 1e308 echoed back was 309
// digits long. The echoed input keeps plain digits.
func TestNumbersPrintCompactly(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.001234, "0.00123"}, {0.5, "0.5"}, {1.234, "1.23"}, {12.34, "12.3"}, {730, "730"}, {1234.56, "1,235"},
		{123456789, "123,456,789"}, {999999999999999, "999,999,999,999,999"}, {1e15, "1e+15"}, {1.5e20, "1.5e+20"},
		{1e308, "1e+308"}, {math.MaxFloat64, "1.8e+308"}, {math.Inf(1), "+Inf"},
	} {
		if got := (plan.Money{Amount: c.v, Currency: "USD"}).String(); got != c.want+" USD" {
			t.Errorf("%g: %q, want %q", c.v, got, c.want+" USD")
		}
	}
	_, err := plan.Plan(plan.Request{Input: modelInput(t, "qwen2.5-0.5b"), Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 1e308, PromptTokens: 1, OutputTokens: 1}}, nil, plan.Options{})
	var ie *estimator.InputError
	if !errors.As(err, &ie) || ie.Field != "requests-per-second" || ie.Value != "1e+308" {
		t.Errorf("1e308 requests/s: %v", err)
	}
}
