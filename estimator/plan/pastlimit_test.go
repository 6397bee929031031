package plan_test

import (
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestPastLimitNote: where the instance limit alone refuses an offer that
// would carry the rate for less than the cheapest pick, or where nothing
// fits within it, the plan says which offer, on how many instances, at
// what bill, and the --max-instances that plans it; planned at that limit,
// the offer is the cheapest pick at those figures. Llama 3.1 8B at 20
// req/s (1,000-token prompts, 200 tokens out) needs 20 one-GPU L4
// replicas, or 2 H100s.
func TestPastLimitNote(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	l4 := gpuOffer(t, "l4", 1, estimator.BF16)
	l4.ID, l4.Provider, l4.OnDemandPerHour = "cheap-l4", "cheap", 0.3
	h100 := gpuOffer(t, "h100-sxm", 1, estimator.BF16)
	h100.ID, h100.Provider, h100.OnDemandPerHour = "dear-h100", "dear", 4
	w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 1000, OutputTokens: 200}
	req := plan.Request{Input: in, Workload: w}
	notes := func(res plan.Result, key plan.Msg) []plan.Reason {
		var out []plan.Reason
		for _, n := range res.Notes {
			if n.Key == key {
				out = append(out, n)
			}
		}
		return out
	}

	res := mustPlan(t, req, []plan.Offer{l4, h100}, plan.Options{MaxInstances: 4})
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != "dear-h100" || res.Rows[res.Cheapest].MonthlyCostUSD != 5840 {
		t.Fatalf("within 4 instances the cheapest should be dear-h100 ×2 at 5840 USD/month: %+v", res.Rows)
	}
	got := notes(res, plan.MsgNotePastLimitCheaper)
	if len(got) != 1 {
		t.Fatalf("notes %v: want one note.past_limit_cheaper", res.Notes)
	}
	want := "cheaper past the instance limit, 4 (--max-instances): cheap l4 ×20 would carry the rate at about 4,380 USD/month, 0.75× the cheapest pick's bill; --max-instances 20 plans it"
	if s := got[0].String(); s != want {
		t.Errorf("note\n got %s\nwant %s", s, want)
	}

	// At the limit the note names, the offer is the pick it described.
	wide := mustPlan(t, req, []plan.Offer{l4, h100}, plan.Options{MaxInstances: 20})
	if c := wide.Cheapest; c < 0 || wide.Rows[c].Offer.ID != "cheap-l4" || wide.Rows[c].Instances != 20 || wide.Rows[c].MonthlyCostUSD != 4380 {
		t.Errorf("at --max-instances 20 the cheapest should be cheap-l4 ×20 at 4380 USD/month: %+v", wide.Rows)
	}
	if n := notes(wide, plan.MsgNotePastLimitCheaper); len(n) != 0 {
		t.Errorf("at --max-instances 20: %v", n)
	}

	// Nothing fits within the limit: the note says what would.
	alone := mustPlan(t, req, []plan.Offer{l4}, plan.Options{MaxInstances: 4})
	if alone.Cheapest >= 0 {
		t.Fatalf("one L4 offer within 4 instances should not fit")
	}
	if n := notes(alone, plan.MsgNotePastLimitOnly); len(n) != 1 ||
		n[0].String() != "past the instance limit, 4 (--max-instances): cheap l4 ×20 would carry the rate at about 4,380 USD/month; --max-instances 20 plans it" {
		t.Errorf("nothing fits: notes %v", alone.Notes)
	}

	// Over the budget, or dearer than the pick: nothing to say.
	req.Filters.BudgetUSD = 4000
	if n := notes(mustPlan(t, req, []plan.Offer{l4}, plan.Options{MaxInstances: 4}), plan.MsgNotePastLimitOnly); len(n) != 0 {
		t.Errorf("over the budget: %v", n)
	}
	req.Filters.BudgetUSD = 0
	l4.OnDemandPerHour = 0.5 // 20 × 0.5 × 730 = 7300 USD/month, above the H100s' 5840
	if n := notes(mustPlan(t, req, []plan.Offer{l4, h100}, plan.Options{MaxInstances: 4}), plan.MsgNotePastLimitCheaper); len(n) != 0 {
		t.Errorf("dearer past the limit: %v", n)
	}
}
