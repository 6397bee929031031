package plan_test

import (
	"fmt"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// The page and the command line call Plan the same way: the job as an
// estimator.Input, a workload, and the catalog's offers and FX table.
func Example() {
	cat := catalog.Default()
	m, _ := cat.Model("llama-3.1-8b")
	arch, _ := estimator.ParseConfig([]byte(m.Config))
	in := estimator.DefaultInput(arch)
	req := plan.Request{
		Input:    in,
		Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 5, PromptTokens: 500, OutputTokens: 200, TTFTP95Seconds: 1},
		Currency: "EUR",
		FX:       cat.PlanFX(),
		Filters:  plan.Filters{GPU: "l4", Providers: []string{"gcp"}},
	}
	res, err := plan.Plan(req, cat.PlanOffers(in.Weights), plan.Options{Top: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Rows[res.Cheapest]
	fmt.Printf("%s: %d × %s, %.0f %s a month\n", r.Recommendation, r.Instances, r.Offer.InstanceType, r.MonthlyCostDisp, res.Currency)
	fmt.Println(r.Why.Key)
	// Output:
	// cheapest: 1 × g2-standard-24, 1246 EUR a month
	// reason.cheapest
}
