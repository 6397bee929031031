package page

import (
	"testing"

	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// TestSLOStatField: the latency targets' statistic is a select next to
// them (link key "slo", default p95 as rightsize plan's --slo-stat), it
// reaches the planner's request, and a bad value in a link is an error
// next to the field, not a silent p95.
func TestSLOStatField(t *testing.T) {
	cat := catalog.Default()
	if DefaultState[FieldSLOStat] != "p95" || FieldKeys[FieldSLOStat] != "slo" || FieldNames[FieldSLOStat] != "slo-stat" {
		t.Fatalf("default %q, key %q, name %q", DefaultState[FieldSLOStat], FieldKeys[FieldSLOStat], FieldNames[FieldSLOStat])
	}
	for _, c := range []struct {
		frag string
		want planner.SLOStat
	}{{"rps=5", planner.SLOP95}, {"rps=5&slo=p99", planner.SLOP99}, {"rps=5&slo=mean", planner.SLOMean}, {"rps=5&slo=p50", planner.SLOP50}} {
		j, errs, _, ok := ParseJob(ParseFragment(c.frag, DefaultState), cat, Archs{}, nil, "")
		if !ok || !errs[FieldSLOStat].OK() {
			t.Fatalf("%s: ok %v, %+v", c.frag, ok, errs[FieldSLOStat])
		}
		if got := PlanRequest(j).Workload.SLOStat; got != c.want {
			t.Errorf("%s: the planner gets %s, want %s", c.frag, got, c.want)
		}
	}
	_, errs, _, ok := ParseJob(ParseFragment("rps=5&slo=p97", DefaultState), cat, Archs{}, nil, "")
	if ok || errs[FieldSLOStat].Key != MsgUnknownChoice {
		t.Errorf("slo=p97: ok %v, %+v", ok, errs[FieldSLOStat])
	}
	// Every statistic has a label in every language; the binding names it.
	for _, lang := range Languages {
		in := ViewIn{State: DefaultState}
		in.State[FieldLang] = lang.Code
		opts := in.FieldOptions(FieldSLOStat)
		if len(opts) != len(planner.SLOStats) {
			t.Fatalf("%s: %d options", lang.Code, len(opts))
		}
		for _, o := range opts {
			if o.Label == "" {
				t.Errorf("%s: %s unlabelled", lang.Code, o.Value)
			}
		}
		if Messages[lang.Code][MsgSLOStat] == "" || Messages[lang.Code][MsgSLOMean] == "" {
			t.Errorf("%s: no label for the statistic's select", lang.Code)
		}
	}
	if got := Fill(Tr("en", MsgBindTTFT), SLOStatLabel(Locale{Lang: "en"}, planner.SLOP99), "12"); got != "Replicas set by p99 TTFT at 12 req/s" {
		t.Errorf("binding %q", got)
	}
}
