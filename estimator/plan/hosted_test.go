package plan_test

import (
	"math"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// When no offer can serve the job, each hosted API keeps its bill at the
// target rate and says that nothing self-hosted fits, where it was set
// against a self-hosted bill of 0 with no sentence.
func TestHostedWhenNothingFits(t *testing.T) {
	req, _ := servingRequest(t)
	req.Workload.TTFTP95Seconds = 0.001 // below any prefill of 500 tokens
	req.HostedAPIs = []plan.HostedAPI{{ID: "api", InputUSDPerMillion: 0.2, OutputUSDPerMillion: 0.6}}
	res := mustPlan(t, req, []plan.Offer{gpuOffer(t, "l40s", 1, estimator.BF16)}, plan.Options{})
	if res.Fitting != 0 || len(res.Hosted) != 1 {
		t.Fatalf("%d fit, %d hosted", res.Fitting, len(res.Hosted))
	}
	h := res.Hosted[0]
	want := 20 * 730 * 3600 * (500*0.2 + 200*0.6) / 1e6
	if !closeTo(h.MonthlyCostUSD, want) || h.SelfHostedUSD != 0 || h.BreakEvenRPS != 0 || h.Why.Key != plan.MsgHostedNoFit ||
		h.Why.String() != "no self-hosted plan fits the job to compare with api" {
		t.Errorf("%+v (%q), want %.2f USD/month and hosted.no_fit", h, h.Why, want)
	}
}

// Over a daily load curve the hosted APIs bill the day's tokens, not the
// peak's around the clock, and stand against the cheapest rented fleet
// of the same day (the single offers' best mixes of price models, and
// the mixed fleet), where they were set against the peak plan's month.
func TestHostedOverLoadCurve(t *testing.T) {
	req, offers := servingRequest(t)
	req.HostedAPIs = []plan.HostedAPI{{ID: "cheap", InputUSDPerMillion: 0.01, OutputUSDPerMillion: 0.02},
		{ID: "dear", InputUSDPerMillion: 3, OutputUSDPerMillion: 15}}
	for _, fo := range []plan.FleetOptions{{Curve: chatCurve, Rows: 4}, {Curve: chatCurve, Buckets: chatMix, Mix: true, Rows: 3}} {
		res, err := plan.PlanFleet(req, offers, plan.Options{}, fo)
		if err != nil {
			t.Fatal(err)
		}
		// The day's requests: Σ λ_h × 3,600 s = 1,004,400 (chatCurve sums
		// to 279 req/s·h), × 730/24 a month.
		month := 279 * 3600 * 730 / 24.0
		prompt, output := 500.0, 200.0
		if len(fo.Buckets) > 0 {
			// 0.6 × 200 + 0.3 × 1,500 + 0.1 × 6,000 and 0.6 × 150 + 0.3 × 300 + 0.1 × 200.
			prompt, output = 1170, 200
		}
		self := math.Inf(1)
		for _, fr := range res.Rows {
			if fr.Sized && fr.Plan.Best.Priced {
				self = math.Min(self, fr.Plan.Best.MonthlyUSD)
			}
		}
		if m := res.Mix; m != nil {
			self = math.Min(self, math.Min(m.Single.Plan.Best.MonthlyUSD, m.MonthlyUSD))
		}
		if len(res.Peak.Hosted) != 2 || math.IsInf(self, 1) {
			t.Fatalf("%d hosted comparisons, cheapest fleet %v", len(res.Peak.Hosted), self)
		}
		for _, h := range res.Peak.Hosted {
			perReq := (prompt*h.API.InputUSDPerMillion + output*h.API.OutputUSDPerMillion) / 1e6
			want, key := month*perReq, plan.MsgHostedDayAPICheaper
			if self < want {
				key = plan.MsgHostedDayRentCheaper
			}
			if !h.OverLoadCurve || !closeTo(h.MonthlyCostUSD, want) || !closeTo(h.SelfHostedUSD, self) || h.BreakEvenRPS != 0 || h.Why.Key != key {
				t.Errorf("buckets %d: %+v, want %.2f USD/month against %.2f, %s", len(fo.Buckets), h, want, self, key)
			}
		}
		if h := res.Peak.Hosted; h[0].API.ID != "cheap" || h[0].Why.Key != plan.MsgHostedDayAPICheaper || h[1].Why.Key != plan.MsgHostedDayRentCheaper {
			t.Errorf("cheap API then dear, each against the fleet: %v; %v", h[0].Why, h[1].Why)
		}
	}
}

// TestHostedBatch: a batch job's plan sets its cheapest self-hosted plan
// against the cheapest dated hosted API for the model, which bills the
// job's tokens (requests × (prompt × in + output × out) / 10⁶), and says
// which is cheaper; a batch plan compared with none, where Llama 3.1 70B
// batch at 710 USD on a B200 node stood beside an API listed at 210 USD.
func TestHostedBatch(t *testing.T) {
	in := modelInput(t, "qwen2.5-1.5b")
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 500, OutputTokens: 200}}
	offers := []plan.Offer{gpuOffer(t, "l4", 1, estimator.BF16)}
	self := mustPlan(t, req, offers, plan.Options{})
	if self.Cheapest < 0 || hostedNote(self.Notes) != nil {
		t.Fatalf("no APIs: cheapest %d, note %v", self.Cheapest, hostedNote(self.Notes))
	}
	selfCost := self.Rows[self.Cheapest].RankedCostDisp
	for _, c := range []struct {
		name string
		apis []plan.HostedAPI
		key  plan.Msg
		usd  float64
	}{
		{"the API is cheaper", []plan.HostedAPI{{ID: "dear", InputUSDPerMillion: 5, OutputUSDPerMillion: 15, AsOf: "2026-08-01"},
			{ID: "cheap", InputUSDPerMillion: 0.001, OutputUSDPerMillion: 0.002, AsOf: "2026-08-01"}}, plan.MsgHostedBatchAPI, 1e5 * (500*0.001 + 200*0.002) / 1e6},
		{"self-hosting is cheaper", []plan.HostedAPI{{ID: "dear", InputUSDPerMillion: 5, OutputUSDPerMillion: 15, AsOf: "2026-08-01"}},
			plan.MsgHostedBatchSelf, 1e5 * (500*5 + 200*15) / 1e6},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := req
			r.HostedAPIs = c.apis
			res := mustPlan(t, r, offers, plan.Options{})
			n := hostedNote(res.Notes)
			if n == nil || n.Key != c.key {
				t.Fatalf("note %v, want %s", n, c.key)
			}
			if m, ok := n.Args[4].(plan.Money); !ok || !closeTo(m.Amount, c.usd) || m.Currency != "USD" {
				t.Errorf("API bill %v, want %.4f USD", n.Args[4], c.usd)
			}
			if m, ok := n.Args[6].(plan.Money); !ok || !closeTo(m.Amount, selfCost) {
				t.Errorf("self-hosted %v, want %.4f USD", n.Args[6], selfCost)
			}
			if len(res.Hosted) != 0 {
				t.Errorf("%d serving comparisons on a batch plan", len(res.Hosted))
			}
		})
	}
	if !strings.HasPrefix(hostedNote(mustPlan(t, plan.Request{Input: in, Workload: req.Workload,
		HostedAPIs: []plan.HostedAPI{{ID: "cheap", InputUSDPerMillion: 0.001, OutputUSDPerMillion: 0.002, AsOf: "2026-08-01"}}}, offers, plan.Options{}).Notes).String(),
		"hosted API cheap at 0.001/0.002 USD per 1M input/output tokens, list price as of 2026-08-01, runs the batch for 0.09 USD, less than the cheapest self-hosted plan, test l4 at ") {
		t.Error("the sentence")
	}
}

func hostedNote(notes []plan.Reason) *plan.Reason {
	for i := range notes {
		if notes[i].Key == plan.MsgHostedBatchAPI || notes[i].Key == plan.MsgHostedBatchSelf {
			return &notes[i]
		}
	}
	return nil
}

// TestHostedBreakEvenSaw: self-hosting's bill grows by whole replicas, so
// one replica can beat an API while the second, at the rate that needs
// it, costs more than the API's tokens. The comparison says from which
// rate one replica wins, up to what it carries, and the rate past which
// self-hosting wins at every rate; planning at rates on either side of
// that rate agrees. Llama 3.1 8B on one H100 at $4/h (2,920 USD a month),
// 1,000-token prompts and 200 out, against an API at 0.1/0.1 USD per 1M
// tokens: 0.00012 USD a request, 315.36 USD a month per request/s.
func TestHostedBreakEvenSaw(t *testing.T) {
	in := modelInput(t, "llama-3.1-8b")
	h100 := gpuOffer(t, "h100-sxm", 1, estimator.BF16)
	h100.OnDemandPerHour = 4
	api := plan.HostedAPI{ID: "api", InputUSDPerMillion: 0.1, OutputUSDPerMillion: 0.1, AsOf: "2026-08-01"}
	at := func(rate float64) (plan.Row, plan.HostedComparison) {
		w := plan.Workload{Kind: plan.Serving, RequestsPerSecond: rate, PromptTokens: 1000, OutputTokens: 200}
		res := mustPlan(t, plan.Request{Input: in, Workload: w, HostedAPIs: []plan.HostedAPI{api}}, []plan.Offer{h100}, plan.Options{})
		if res.Cheapest < 0 || len(res.Hosted) != 1 {
			t.Fatalf("%v req/s: cheapest %d, %d hosted", rate, res.Cheapest, len(res.Hosted))
		}
		return res.Rows[res.Cheapest], res.Hosted[0]
	}
	row, h := at(10)
	const unit, perRPS = 2920.0, 315.36
	mu := row.SustainableRPSPerReplica
	if h.Why.Key != plan.MsgHostedCheaperThanAPIAbove {
		t.Fatalf("why %s: want hosted.cheaper_than_api_above", h.Why)
	}
	if be := unit / perRPS; math.Abs(h.BreakEvenRPS-be) > 1e-9 {
		t.Errorf("break-even %v req/s, want one replica's month over the API's per request/s, %v", h.BreakEvenRPS, be)
	}
	// One replica carries 16.3 req/s: N = ⌈16.3 × 315.36 / (16.3 × 315.36 − 2,920)⌉ = 3,
	// and the rate past which self-hosting always wins 2 × 2,920 / 315.36.
	n := math.Ceil(mu * perRPS / (mu*perRPS - unit))
	if math.Abs(h.AlwaysAboveRPS-18.5185185) > 1e-6 || math.Abs(h.BreakEvenRPS-9.2592593) > 1e-6 {
		t.Errorf("break-even %v and always above %v req/s: want 9.26 and 18.5", h.BreakEvenRPS, h.AlwaysAboveRPS)
	}
	if want := (n - 1) * unit / perRPS; n < 3 || math.Abs(h.AlwaysAboveRPS-want) > 1e-9 {
		t.Errorf("always above %v req/s, want %v (N = %v)", h.AlwaysAboveRPS, want, n)
	}
	// Just past one replica's rate the API costs less; past the rate
	// named, self-hosting does.
	if r, h := at(mu * 1.05); r.Replicas != 2 || !(h.MonthlyCostUSD < r.MonthlyCostUSD) {
		t.Errorf("%v req/s: %d replicas at %v USD/month, the API %v: want two, dearer than the API", mu*1.05, r.Replicas, r.MonthlyCostUSD, h.MonthlyCostUSD)
	}
	for _, rate := range []float64{h.AlwaysAboveRPS * 1.02, (n - 1) * mu * 1.01, n * mu * 1.01} {
		if r, h := at(rate); !(r.MonthlyCostUSD < h.MonthlyCostUSD) {
			t.Errorf("%v req/s, past %v: self-hosted %v USD/month (%d replicas), the API %v", rate, h.AlwaysAboveRPS, r.MonthlyCostUSD, r.Replicas, h.MonthlyCostUSD)
		}
	}
}
