package page

import (
	"math"
	"strings"
	"testing"

	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// dayCurve is a chat service's day: quiet at night, busy in the afternoon.
const dayCurve = "2,1,1,1,1,2,4,8,12,14,15,16,16,15,15,14,13,12,11,10,8,6,4,3"

// TestFleetOnThePage: a load curve, a workload preset and owned-GPU
// prices give the planner's daily fleet, with the picks at the curve's
// peak; the page's bills are the planner's, converted once; the chart
// stacks each hour's replicas as the plan buys them.
func TestFleetOnThePage(t *testing.T) {
	j, _, out := answer(t, "m=mistral-7b-v0.3&lc="+dayCurve+"&wl=chat&own=25000&kwh=0.12&dep=4&cur=EUR")
	if j.RPS != 16 || j.Curve == nil || j.Mix == nil || j.Own == nil {
		t.Fatalf("job: rps %v, curve %v, mix %v, own %v", j.RPS, j.Curve != nil, j.Mix != nil, j.Own != nil)
	}
	if j.Work.PromptTokens != j.Mix.MeanPrompt || j.Work.OutputTokens != j.Mix.MeanOutput {
		t.Errorf("workload %+v, preset means %d/%d", j.Work, j.Mix.MeanPrompt, j.Mix.MeanOutput)
	}
	f := out.Fleet
	if !f.OK || out.Kind != planner.Serving {
		t.Fatalf("no fleet: %+v", f.Reason)
	}
	if f.Currency != "EUR" || !(f.PerUSD > 0) || f.PerUSD == 1 {
		t.Errorf("currency %s at %v per USD", f.Currency, f.PerUSD)
	}
	best := f.Row.Plan.Best
	sum := 0.0
	for _, h := range best.Hours {
		sum += h.MonthlyUSD
		if h.Reserved+h.OnDemand+h.Spot < h.Need {
			t.Errorf("hour %d: %d+%d+%d replicas for %d needed", h.Hour, h.Reserved, h.OnDemand, h.Spot, h.Need)
		}
	}
	if math.Abs(sum-best.MonthlyUSD) > 1e-6*best.MonthlyUSD {
		t.Errorf("best mix %v a month, its hours sum to %v", best.MonthlyUSD, sum)
	}
	if od := f.Row.Plan.AllOnDemand; od.Priced && best.MonthlyUSD > od.MonthlyUSD*(1+1e-9) {
		t.Errorf("best mix %v dearer than all on demand %v", best.MonthlyUSD, od.MonthlyUSD)
	}
	if f.Mix == nil || len(f.Mix.Groups) == 0 || f.Mix.MonthlyUSD > f.Mix.Single.Plan.Best.MonthlyUSD*(1+1e-9) {
		t.Errorf("mixed fleet %+v", f.Mix)
	}
	if f.Own == nil || f.OwnErr != nil || !(f.Own.GPUs > 0) || !(f.Own.MonthlyUSD > 0) {
		t.Fatalf("owned: %+v %v", f.Own, f.OwnErr)
	}
	l := Locale{Lang: "en"}
	id := func(s string) string { return s }
	name := Names{GPU: id, Provider: id}
	tx := FleetTextOf(f, l, name)
	if !strings.Contains(tx.Headline, l.Money(best.MonthlyUSD*f.PerUSD, "EUR")) || !strings.Contains(tx.Headline, f.Row.Row.Offer.GPU) {
		t.Errorf("headline %q: want %s on %s", tx.Headline, l.Money(best.MonthlyUSD*f.PerUSD, "EUR"), f.Row.Row.Offer.GPU)
	}
	if len(tx.Choices) != 5 || !tx.Choices[4].Best || len(tx.Own) != 3 || tx.Mix == "" {
		t.Errorf("text %+v", tx)
	}
	// One "cheapest" per page: the fleet says why it costs less than the
	// cheapest pick's card above it.
	if day := best.MonthlyUSD * f.PerUSD; f.CardMonthly != out.Rows[out.Picks[0].Row].MonthlyCostDisp ||
		(day < f.CardMonthly) != (tx.VsCard != "") || (tx.VsCard != "" && !strings.Contains(tx.VsCard, l.Money(f.CardMonthly, "EUR"))) {
		t.Errorf("fleet %v against the card's %v: %q", day, f.CardMonthly, tx.VsCard)
	}
	// Own against rent on one basis: the best rented fleet of the same
	// day (here spot, far under the on-demand price the break-even uses).
	if o := f.Own; o.RentedMonthlyUSD != best.MonthlyUSD || o.CheaperThanRenting() != (o.MonthlyUSD < best.MonthlyUSD) ||
		!strings.Contains(tx.Own[1], map[bool]string{true: "owning is cheaper", false: "renting is cheaper"}[o.CheaperThanRenting()]) {
		t.Errorf("owned %v a month against the best rented %v: %q", o.MonthlyUSD, best.MonthlyUSD, tx.Own[1])
	}
	for _, lang := range []string{"ru", "zh"} {
		if x := FleetTextOf(f, Locale{Lang: lang}, name); x.Headline == tx.Headline || strings.Contains(x.Headline, "%s") {
			t.Errorf("%s headline %q", lang, x.Headline)
		}
	}
	v := FleetChartOf(f, l)
	var kinds []string
	for _, p := range v.Paths {
		kinds = append(kinds, p.Class)
	}
	if len(v.Paths) < 4 || v.Paths[len(v.Paths)-2].Class != "rs-fc-need" || v.Caption == "" {
		t.Errorf("chart paths %v, caption %q", kinds, v.Caption)
	}
}

// TestFleetFieldErrors: a bad curve, an unknown preset and a purchase
// price without its electricity price are said next to their fields.
func TestFleetFieldErrors(t *testing.T) {
	for frag, want := range map[string]Field{
		"lc=1,2,3":                                       FieldCurve,
		"lc=" + strings.Repeat("x,", 23) + "x":           FieldCurve,
		"wl=no-such-mix&rps=2":                           FieldWorkload,
		"lc=" + dayCurve + "&own=25000&dep=4":            FieldKWh,
		"lc=" + dayCurve + "&own=-1&kwh=0.1&dep=4":       FieldOwnPrice,
		"lc=" + dayCurve + "&own=25000&kwh=0.1&dep=1000": FieldOwnYears,
	} {
		_, errs, _, ok := ParseJob(ParseFragment(frag, DefaultState), catalog.Default(), Archs{}, nil, "")
		if ok || errs[want].OK() {
			t.Errorf("%q: ok %v, %s error %+v", frag, ok, FieldNames[want], errs[want])
		}
	}
}

// TestFleetNoSpotHeadline: a fleet whose spot saving did not pay for a
// second spare replica (planner.FleetPlan.DeclinedSpotMonthlyUSD) says so
// in its headline, in each language, with what spot would have cost.
func TestFleetNoSpotHeadline(t *testing.T) {
	fp, err := planner.Fleet(planner.FleetInput{Need: [24]int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
		OnDemandPerHour: 10, SpotPerHour: 7.35, BillingGranularity: "second"})
	if err != nil || fp.DeclinedSpotMonthlyUSD == 0 {
		t.Fatalf("spot not declined: %+v, %v", fp, err)
	}
	f := FleetOut{OK: true, PerUSD: 1, Currency: "USD"}
	f.Row.Plan = fp
	f.Row.Row.Offer = &planner.Offer{ID: "x", GPU: "l4", Provider: "p", GPUCount: 1}
	id := func(s string) string { return s }
	for lang, want := range map[string]string{"en": "no spot: the cheapest mix on spot, $21,462", "ru": "без спота", "zh": "不用竞价"} {
		if h := FleetTextOf(f, Locale{Lang: lang}, Names{GPU: id, Provider: id}).Headline; !strings.Contains(h, want) {
			t.Errorf("%s: headline %q, want %q", lang, h, want)
		}
	}
}
