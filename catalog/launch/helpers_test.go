package launch_test

import (
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// input is the estimator input of a catalog model, as the command line
// builds it (estimator.DefaultInput of the parsed config).
func input(t *testing.T, model string) estimator.Input {
	t.Helper()
	m, ok := catalog.Default().Model(model)
	if !ok {
		t.Fatalf("no model %s", model)
	}
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	m.ScaleContext(&a) // as the CLI and the page read a catalog model
	return estimator.DefaultInput(a)
}

// offer is a catalog offer as the planner sees it.
func offer(t *testing.T, id string, w estimator.DType) *plan.Offer {
	t.Helper()
	for _, o := range catalog.Default().PlanOffers(w) {
		if o.ID == id {
			return &o
		}
	}
	t.Fatalf("no offer %s", id)
	return nil
}

// planOn plans req on the one offer id and returns its row.
func planOn(t *testing.T, req plan.Request, id string) plan.Row {
	t.Helper()
	o := offer(t, id, req.Input.Weights)
	res, err := plan.Plan(req, []plan.Offer{*o}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) == 0 || !res.Rows[0].Fits {
		t.Fatalf("%s does not fit: %+v", id, res.Rows)
	}
	return res.Rows[0]
}
