package catalog_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

// TestInstanceName: every offer's instance as the page and the CLI show it
// (plan.Offer.Name, set from Catalog.InstanceName) is free of a broker's
// encoded listing ID ("__"); a broker listing's name says its GPU count
// and model, and the cloud behind the broker; two instance types of one
// provider keep two names, and so do two regions' offers of one type (the
// region added: AWS China's Beijing and Ningxia, Alibaba's regions); the
// offer ID and instance type stay as they are (links, price sheets and
// SkyPilot use them).
func TestInstanceName(t *testing.T) {
	c := catalog.Default()
	byID := map[string]catalog.Offer{}
	encoded := 0
	names := map[[2]string]string{}
	for _, o := range c.Offers {
		byID[o.ID] = o
		n := c.InstanceName(o)
		if strings.Contains(n, "__") || n == "" {
			t.Errorf("%s: shown as %q", o.ID, n)
		}
		if k := [2]string{o.Provider, n}; names[k] != "" && names[k] != o.InstanceType {
			t.Errorf("%s: %q and %q both shown as %q", o.Provider, names[k], o.InstanceType, n)
		} else {
			names[k] = o.InstanceType
		}
		if !strings.Contains(o.InstanceType, "__") {
			regional := len(o.Regions) == 1 && n == o.InstanceType+" ("+o.Regions[0]+")"
			if n != o.InstanceType && !regional {
				t.Errorf("%s: plain instance type %q shown as %q", o.ID, o.InstanceType, n)
			}
			continue
		}
		encoded++
		g, ok := c.GPU(o.GPU)
		if !ok {
			t.Fatalf("%s: no GPU %s", o.ID, o.GPU)
		}
		model := strings.TrimPrefix(g.Name, g.Vendor+" ")
		if !strings.Contains(n, strconv.FormatFloat(o.GPUCount, 'f', -1, 64)+"× "+model) || o.UnderlyingProvider == "" {
			t.Errorf("%s: %q does not say %v× %s", o.ID, n, o.GPUCount, model)
		}
	}
	if encoded < 50 {
		t.Errorf("%d broker listings with encoded IDs, want the Prime Intellect snapshot's 79", encoded)
	}
	o, ok := byID["primeintellect-datacrunch__8xh200_141gb__176__1450"]
	if !ok {
		t.Fatal("no Prime Intellect DataCrunch 8 × H200 listing")
	}
	if got, want := c.InstanceName(o), "datacrunch 8× H200 SXM 141GB (176 vCPU, 1450 GiB RAM)"; got != want {
		t.Errorf("shown as %q, want %q", got, want)
	}
	// The plan's offers carry it; ID and instance type stay.
	for _, po := range c.PlanOffers(estimator.FP8) {
		if po.ID != "primeintellect-datacrunch__8xh200_141gb__176__1450" {
			continue
		}
		if po.Name() != c.InstanceName(o) || po.InstanceType != "datacrunch__8xH200_141GB__176__1450" {
			t.Errorf("plan offer %s: name %q, instance type %q", po.ID, po.Name(), po.InstanceType)
		}
		return
	}
	t.Error("the listing is not among the plan's offers")
}

// TestPlanOffersNameRegionsAsInstanceName: the plan's offers carry the
// name InstanceName gives each offer, regional names included (an own
// offer of a type listed with no region names the catalog's regional
// offers of that type with their region), from one pass over the catalog
// rather than a scan per offer.
func TestPlanOffersNameRegionsAsInstanceName(t *testing.T) {
	c := *catalog.Default()
	c.Offers = append(slices.Clip(c.Offers), catalog.Offer{ID: "own-g5", Provider: "aws", InstanceType: "g5.xlarge", GPU: "a10g", GPUCount: 1, OnDemandPerHour: 1, Currency: "USD", UserPrice: true})
	byID := map[string]catalog.Offer{}
	for _, o := range c.Offers {
		byID[o.ID] = o
	}
	named := 0
	for _, o := range c.PlanOffers(estimator.BF16) {
		want := c.InstanceName(byID[o.ID])
		got := o.InstanceName
		if got == "" {
			got = o.InstanceType
		}
		if got != want {
			t.Errorf("%s: plan names %q, InstanceName %q", o.ID, got, want)
		}
		if got == o.InstanceType+" ("+o.Region+")" {
			named++
		}
	}
	if named < 3 {
		t.Errorf("%d offers named with their region; want AWS China's Beijing and Ningxia offers and the g5.xlarge beside the own one", named)
	}
}
