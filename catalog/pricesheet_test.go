package catalog_test

import (
	"strings"
	"testing"

	"rightsize/catalog"
)

func TestPriceSheetCSVAndJSON(t *testing.T) {
	csv := "offer_id,on_demand_per_hour,as_of,source\naws-g4dn.xlarge,0.4,2026-11-01,quote 7\n"
	js := `{"prices":[{"offer_id":"aws-g4dn.xlarge","on_demand_per_hour":0.4,"as_of":"2026-11-01","source":"quote 7"}]}`
	for _, in := range []string{csv, js} {
		rows, err := catalog.ParsePriceSheet(strings.NewReader(in))
		if err != nil || len(rows) != 1 {
			t.Fatalf("%q: %v %v", in, rows, err)
		}
		c, changes, err := catalog.Default().WithPrices(rows)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := c.Offer("aws-g4dn.xlarge")
		if o.OnDemandPerHour != 0.4 || o.AsOf != "2026-11-01" || o.AsOfEstimated || len(changes) < 2 {
			t.Errorf("offer %+v, changes %v", o, changes)
		}
		if d, _ := catalog.Default().Offer("aws-g4dn.xlarge"); d.OnDemandPerHour != 0.526 {
			t.Error("WithPrices modified the default catalog")
		}
	}
}

func TestPriceSheetErrors(t *testing.T) {
	for in, want := range map[string]string{
		"offer_id,price\nx,1\n": `unknown column "price"`,
		"offer_id,on_demand_per_hour,as_of,source\nx,-1,2026-01-01,q\n":                                                       "row 1: on_demand_per_hour \"-1\" is not a non-negative number",
		`{"prices":[{"offer_id":"x","cost":1}]}`:                                                                              "row 1:",
		"offer_id,on_demand_per_hour,source\naws-g4dn.xlarge,1,q\n":                                                           "row 1: as_of is missing",
		"offer_id,on_demand_per_hour,currency,as_of,source\naws-g4dn.xlarge,1,EUR,2026-01-01,q\n":                             "no conversion is done",
		"provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\naws,x1,no-gpu,1,1,USD,2026-01-01,q\n": `gpu "no-gpu" is not in the catalog`,
	} {
		rows, err := catalog.ParsePriceSheet(strings.NewReader(in))
		if err == nil {
			_, _, err = catalog.Default().WithPrices(rows)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestOfferIDFor(t *testing.T) {
	if got := catalog.OfferIDFor("vultr", "Cloud GPU NVIDIA A100 PCIe 1/8 GPU (2 vCPU, 15 GB)"); got != "vultr-cloud-gpu-nvidia-a100-pcie-1-8-gpu-2-vcpu-15-gb" {
		t.Errorf("got %q", got)
	}
}

// A sheet sets the inter-node network and the spot-risk bucket, sourced by
// the row (a bucket other than the catalog's, so the row changes it);
// values outside the lists are refused.
func TestPriceSheetNetworkAndSpotRisk(t *testing.T) {
	in := "offer_id,network_gbps,network_fabric,spot_interruption,as_of,source\naws-g4dn.xlarge,25,ethernet,15-20%,2026-11-01,our measurements\n"
	rows, err := catalog.ParsePriceSheet(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := catalog.Default().WithPrices(rows)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.Offer("aws-g4dn.xlarge")
	if o.NetworkGbps != 25 || o.NetworkFabric != "ethernet" || o.SpotInterruption != "15-20%" || o.SpotInterruptionSource != "our measurements" {
		t.Errorf("offer %+v", o)
	}
	for _, bad := range []string{
		"offer_id,spot_interruption,as_of,source\naws-g4dn.xlarge,rare,2026-11-01,q\n",
		"offer_id,network_fabric,as_of,source\naws-g4dn.xlarge,carrier-pigeon,2026-11-01,q\n",
	} {
		rows, err := catalog.ParsePriceSheet(strings.NewReader(bad))
		if err == nil {
			_, _, err = catalog.Default().WithPrices(rows)
		}
		if err == nil || !strings.Contains(err.Error(), "is not one of") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}
