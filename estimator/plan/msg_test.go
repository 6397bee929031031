package plan_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"rightsize/estimator/plan"
)

// TestMsgTables: every sentence has a name and an English text, the names
// are distinct and read back (UnmarshalText) as the sentence they name;
// NoMsg has neither, as a zero Reason says nothing.
func TestMsgTables(t *testing.T) {
	if plan.NoMsg.String() != "" || plan.English[plan.NoMsg] != "" || (plan.Reason{}).String() != "" {
		t.Errorf("NoMsg: name %q, English %q", plan.NoMsg.String(), plan.English[plan.NoMsg])
	}
	seen := map[string]plan.Msg{}
	for m := plan.NoMsg + 1; m < plan.NMsgs; m++ {
		name := m.String()
		if name == "" || plan.English[m] == "" {
			t.Errorf("Msg %d: name %q, English %q", int(m), name, plan.English[m])
		}
		if o, ok := seen[name]; ok {
			t.Errorf("Msg %d and %d are both %q", int(o), int(m), name)
		}
		seen[name] = m
		b, err := m.MarshalText()
		var back plan.Msg
		if err != nil || back.UnmarshalText(b) != nil || back != m {
			t.Errorf("%s: MarshalText %q (%v) reads back as %d", name, b, err, int(back))
		}
	}
	var m plan.Msg
	if err := m.UnmarshalText([]byte("reason.no_such")); err == nil {
		t.Error("an unknown name read as a message")
	}
	if got := plan.Msg(-1).String(); got != "Msg(-1)" {
		t.Errorf("Msg(-1) = %q", got)
	}
	if got := (plan.Reason{Key: plan.NMsgs}).String(); got != "Msg("+strconv.Itoa(int(plan.NMsgs))+")" {
		t.Errorf("a reason past the table renders %q", got)
	}
}

// TestReasonJSON: a Reason in JSON keeps its key's name, nested reasons'
// too, and its typed arguments as the text the command line writes, as
// before keys were typed (the CLI's why_args and the page's link carry
// them).
func TestReasonJSON(t *testing.T) {
	r := plan.Reason{Key: plan.MsgDisaggBoundSpare, Args: []any{plan.Reason{Key: plan.MsgDisaggBoundTTFT}, 4}}
	b, err := json.Marshal(r)
	if want := `{"Key":"disagg.bound_spare","Args":[{"Key":"disagg.bound_ttft","Args":null},4]}`; err != nil || string(b) != want {
		t.Errorf("JSON %s (%v), want %s", b, err, want)
	}
	var back plan.Reason
	if err := json.Unmarshal(b, &back); err != nil || back.Key != plan.MsgDisaggBoundSpare {
		t.Errorf("read back %+v (%v)", back, err)
	}
	cost := plan.Reason{Key: plan.MsgReasonCheapestOnly, Args: []any{
		plan.OfferRef{Provider: "aws", InstanceType: "p5.48xlarge", Instances: 2}, plan.Money{Amount: 106288.5, Currency: "USD", PerMonth: true}}}
	b, err = json.Marshal(cost)
	if want := `{"Key":"reason.cheapest_only","Args":["aws p5.48xlarge ×2","106,288 USD/month"]}`; err != nil || string(b) != want {
		t.Errorf("JSON %s (%v), want %s", b, err, want)
	}
}

// bracketFormatter marks each argument by the method that wrote it.
type bracketFormatter struct{}

func (bracketFormatter) Text(m plan.Msg) string {
	return map[plan.Msg]string{plan.MsgDisaggBoundSpare: "<%s|%s>", plan.MsgDisaggBoundRateKV: "kv %s"}[m]
}
func (bracketFormatter) Number(v float64) string         { return "n" }
func (bracketFormatter) Count(n int) string              { return "c" }
func (bracketFormatter) Money(m plan.Money) string       { return "m" }
func (bracketFormatter) Duration(d plan.Duration) string { return "d" }
func (bracketFormatter) Offer(o plan.OfferRef) string    { return "o" }

// TestReasonFormat: one renderer writes a sentence in any language: its
// text and each typed argument come from the formatter, a nested reason
// is written with the same formatter, a name as it is, and a key the
// formatter has no text for as its name.
func TestReasonFormat(t *testing.T) {
	f := bracketFormatter{}
	r := plan.Reason{Key: plan.MsgDisaggBoundSpare, Args: []any{plan.Reason{Key: plan.MsgDisaggBoundRateKV, Args: []any{3856}}, 1.5}}
	if got := r.Format(f); got != "<kv c|n>" {
		t.Errorf("nested: %q", got)
	}
	for _, c := range []struct {
		arg  any
		want string
	}{
		{2.5, "n"}, {7, "c"}, {plan.Money{Amount: 1}, "m"}, {plan.Duration{Seconds: 1}, "d"},
		{plan.OfferRef{Provider: "aws"}, "o"}, {"verda 8B300.240V", "verda 8B300.240V"},
		{plan.WorkerLayout{TP: 8, DP: 8, EP: 8}, "8 · attn-DP 8 · EP 8"},
	} {
		r := plan.Reason{Key: plan.MsgDisaggBoundRateKV, Args: []any{c.arg}}
		if got := r.Format(f); got != "kv "+c.want {
			t.Errorf("%T: %q, want %q", c.arg, got, "kv "+c.want)
		}
	}
	if got := (plan.Reason{Key: plan.MsgFitOK, Args: []any{2.0}}).Format(f); got != "fit.ok" {
		t.Errorf("no text: %q", got)
	}
	// English's formatter is the command line's.
	r = plan.Reason{Key: plan.MsgDisaggBoundSpare, Args: []any{plan.Reason{Key: plan.MsgDisaggBoundRateKV, Args: []any{3856}}, 4}}
	if got, want := r.String(), "as many as the request rate needs under the load cap, each decoding at most 3,856 requests at once, as many as its KV cache holds; 4 of them a spare for a spot reclaim"; got != want {
		t.Errorf("English:\n got %q\nwant %q", got, want)
	}
}
