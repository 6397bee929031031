package main

import (
	"fmt"
	"io"
	"strings"

	"rightsize/estimator/plan"
)

// The mixed fleet ("mixed" in the fleet's JSON, plan.PlanMix): each size
// class of a --workload with two or more classes on its own offer, the
// best single offer beside it, and the saving; the fields are listed in
// the comment at the top of plan.go.

type mixClassJSON struct {
	PromptTokens                int     `json:"prompt_tokens"`
	OutputTokens                int     `json:"output_tokens"`
	Share                       float64 `json:"share"`
	Group                       int     `json:"group"`
	PerCopyRPS                  float64 `json:"requests_per_second_per_copy"`
	SinglePerCopyRPS            float64 `json:"single_requests_per_second_per_copy"`
	USDPerMillionRequests       float64 `json:"usd_per_million_requests"`
	SingleUSDPerMillionRequests float64 `json:"single_usd_per_million_requests"`
}

type mixGroupJSON struct {
	OfferID             string      `json:"offer_id"`
	Provider            string      `json:"provider"`
	InstanceType        string      `json:"instance_type"`
	GPU                 string      `json:"gpu"`
	TP                  int         `json:"tp"`
	PP                  int         `json:"pp"`
	CopiesPerInstance   int         `json:"copies_per_instance"`
	InstancesPerReplica int         `json:"instances_per_replica"`
	GPUsPerReplica      float64     `json:"gpus_per_replica"`
	Classes             []int       `json:"classes"`
	Share               float64     `json:"share"`
	PeakReplicas        int         `json:"peak_replicas"`
	MinReplicas         int         `json:"min_replicas"`
	OnDemandMonthlyUSD  float64     `json:"all_on_demand_monthly_usd"`
	Best                *choiceJSON `json:"best"`
}

type mixJSON struct {
	Mixed            bool           `json:"mixed"`
	MonthlyUSD       float64        `json:"monthly_usd"`
	SingleMonthlyUSD float64        `json:"single_monthly_usd"`
	SavingUSD        float64        `json:"saving_usd"`
	SavingShare      float64        `json:"saving_share"`
	Why              string         `json:"why"`
	OffersScreened   int            `json:"offers_screened"`
	Classes          []mixClassJSON `json:"classes"`
	Groups           []mixGroupJSON `json:"groups"`
	Single           mixGroupJSON   `json:"single"`
}

func newMixGroupJSON(g plan.MixGroup, curve plan.LoadCurve) mixGroupJSON {
	o := g.Row.Offer
	return mixGroupJSON{OfferID: o.ID, Provider: o.Provider, InstanceType: o.InstanceType, GPU: o.GPU, TP: g.Row.TP, PP: g.Row.PP,
		CopiesPerInstance: g.Row.DP, InstancesPerReplica: g.Row.InstancesPerReplica, GPUsPerReplica: float64(g.Row.InstancesPerReplica) * o.GPUCount,
		Classes: g.Buckets, Share: g.Share, PeakReplicas: g.Plan.Peak, MinReplicas: g.Plan.Min,
		OnDemandMonthlyUSD: g.Plan.AllOnDemand.MonthlyUSD, Best: newChoiceJSON(g.Plan.Best, curve)}
}

// newMixJSON shapes a mixed fleet; nil when no offer serves every class.
func newMixJSON(m plan.MixedFleet, curve plan.LoadCurve) *mixJSON {
	if len(m.Groups) == 0 {
		return nil
	}
	out := &mixJSON{Mixed: m.Mixed, MonthlyUSD: m.MonthlyUSD, SingleMonthlyUSD: m.Single.Plan.Best.MonthlyUSD, SavingUSD: m.SavingUSD,
		SavingShare: m.SavingShare, OffersScreened: m.Offers, Single: newMixGroupJSON(m.Single, curve)}
	for _, b := range m.Buckets {
		out.Classes = append(out.Classes, mixClassJSON{PromptTokens: b.PromptTokens, OutputTokens: b.OutputTokens, Share: b.Share, Group: b.Group,
			PerCopyRPS: b.PerCopyRPS, SinglePerCopyRPS: b.SinglePerCopyRPS, USDPerMillionRequests: b.USDPerMillionRequests,
			SingleUSDPerMillionRequests: b.SingleUSDPerMillionRequests})
	}
	for _, g := range m.Groups {
		out.Groups = append(out.Groups, newMixGroupJSON(g, curve))
	}
	out.Why = mixWhy(out)
	return out
}

// className names a class by its size: "100/100 tokens, 80%".
func className(c mixClassJSON) string {
	return fmt.Sprintf("%d/%d tokens, %.0f%%", c.PromptTokens, c.OutputTokens, 100*c.Share)
}

// mixWhy is the mix in one sentence: which classes run where and what a
// million of each costs there against the single offer.
func mixWhy(m *mixJSON) string {
	if !m.Mixed {
		return fmt.Sprintf("one offer serves every class cheapest: %s (%s); splitting the classes over offers saves nothing at this load and SLO", m.Single.OfferID, m.Single.GPU)
	}
	var parts []string
	for gi, g := range m.Groups {
		var cs []string
		for _, ci := range g.Classes {
			c := m.Classes[ci]
			cs = append(cs, fmt.Sprintf("%s (%s/M requests there, %s on %s)", className(c), usd(c.USDPerMillionRequests), usd(c.SingleUSDPerMillionRequests), m.Single.GPU))
		}
		parts = append(parts, fmt.Sprintf("group %d on %s (%s): %s", gi+1, g.GPU, g.OfferID, strings.Join(cs, "; ")))
	}
	return strings.Join(parts, "; ")
}

// writeMix prints the mixed fleet under the fleets' table.
func writeMix(w io.Writer, m *mixJSON, cur money) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "\nMixed fleet over %d offers (each size class on its own offer; classes on one offer share its replicas):\n", m.OffersScreened)
	if !m.Mixed {
		fmt.Fprintf(w, "One offer is cheapest for the whole mix: %s (%s), %s a month.\n", m.Single.OfferID, m.Single.GPU, cur.of(m.SingleMonthlyUSD))
		return
	}
	for gi, g := range m.Groups {
		var cs []string
		for _, ci := range g.Classes {
			c := m.Classes[ci]
			cs = append(cs, fmt.Sprintf("%s at %s/M requests (%s on %s)", className(c), cur.of(c.USDPerMillionRequests), cur.of(c.SingleUSDPerMillionRequests), m.Single.GPU))
		}
		fmt.Fprintf(w, "  %d. %s (%s, %g GPU per replica), %d..%d replicas, %s, %s a month: %s\n", gi+1, g.OfferID, g.GPU, g.GPUsPerReplica,
			g.MinReplicas, g.PeakReplicas, mixText(g.Best), choiceText(g.Best, cur), strings.Join(cs, "; "))
	}
	fmt.Fprintf(w, "Mixed %s a month against %s on the best single offer, %s (%s): %s (%.1f%%) less.\n", cur.of(m.MonthlyUSD), cur.of(m.SingleMonthlyUSD),
		m.Single.OfferID, m.Single.GPU, cur.of(m.SavingUSD), 100*m.SavingShare)
}
