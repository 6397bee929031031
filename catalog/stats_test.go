package catalog

import (
	"reflect"
	"testing"
	"time"
)

func TestAgeBucket(t *testing.T) {
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	for asOf, want := range map[string]string{
		"2026-11-01": "<30d", "2026-09-01": "30-90d", "2026-07-30": "90-180d", "2026-01-28": "180-365d",
		"2020-09-01": ">365d", "soon": "undated",
	} {
		if got := AgeBucket(asOf, now); got != want {
			t.Errorf("AgeBucket(%s) = %s, want %s", asOf, got, want)
		}
	}
}

func TestStats(t *testing.T) {
	c := Default()
	s := c.Stats(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC))
	if s.GPUs != len(c.GPUs) || s.GPUsWithSpeed != s.GPUs || s.Offers != len(c.Offers) || s.Models < 80 {
		t.Errorf("counts: %d GPUs (%d with speed), %d models, %d offers", s.GPUs, s.GPUsWithSpeed, s.Models, s.Offers)
	}
	n := 0
	for _, b := range AgeBuckets {
		n += s.OffersByAge[b]
	}
	if n != s.Offers {
		t.Errorf("age buckets hold %d of %d offers", n, s.Offers)
	}
	// Every offer's provider is in the catalog, so the providers' counts
	// add up to the totals, property by property.
	sum := OfferCounts{OffersByAge: map[string]int{}}
	for _, p := range s.ByProvider {
		for b, n := range p.OffersByAge {
			sum.OffersByAge[b] += n
		}
		sum.Offers += p.Offers
		sum.OffersAsOfEstimated += p.OffersAsOfEstimated
		sum.Reserved1y += p.Reserved1y
		sum.Reserved3y += p.Reserved3y
		sum.Spot += p.Spot
		sum.SpotRisk += p.SpotRisk
		sum.Network += p.Network
		sum.Fresh += p.Fresh
		sum.FarBelowMedian += p.FarBelowMedian
	}
	if !reflect.DeepEqual(sum, s.OfferCounts) || s.Spot == 0 || s.SpotRisk == 0 || s.Network == 0 || s.Reserved1y == 0 || s.FarBelowMedian == 0 {
		t.Errorf("providers' counts %+v; totals %+v", sum, s.OfferCounts)
	}
	if len(s.ProvidersWithReserved3y) < 3 || len(s.ProvidersWithReserved1y) < 3 {
		t.Errorf("commitments from %v (3-year) and %v (1-year), want at least 3 providers each", s.ProvidersWithReserved3y, s.ProvidersWithReserved1y)
	}
	cn := 0
	for _, p := range s.ByProvider {
		if p.Country == "CN" && p.Offers > 0 {
			cn++
		}
	}
	if s.ProvidersWithOffers < 30 || cn < 3 {
		t.Errorf("%d providers with offers, %d of them in China; want at least 30 and 3", s.ProvidersWithOffers, cn)
	}
	if s.FXAsOf == "" || s.FX["RUB"] < 40 || s.FX["USD"] != 1 {
		t.Errorf("FX %s %v", s.FXAsOf, s.FX)
	}
	// GCP's a3-highgpu-8g is Google's list price, not the DWS-level composite.
	o, _ := c.Offer("gcp-a3-highgpu-8g")
	if o.OnDemandPerHour < 80 || o.Reserved1yPerHour == 0 || o.Reserved3yPerHour >= o.Reserved1yPerHour || o.AsOfEstimated {
		t.Errorf("gcp-a3-highgpu-8g: %+v", o)
	}
	p5, _ := c.Offer("aws-p5.48xlarge")
	if p5.NetworkGbps != 3200 || p5.NetworkFabric != "efa" {
		t.Errorf("aws-p5.48xlarge network %v %q", p5.NetworkGbps, p5.NetworkFabric)
	}
	// Outside AWS, GCP and Azure (internal/bootstrap/networks.py): OCI's
	// cluster network is the RDMA figure of the shapes page (8 x 2 x 200).
	oci, _ := c.Offer("oci-bm.gpu.h100.8")
	if oci.NetworkGbps != 3200 || oci.NetworkFabric != "roce" {
		t.Errorf("oci-bm.gpu.h100.8 network %v %q", oci.NetworkGbps, oci.NetworkFabric)
	}
	// A broker's listing does not take the underlying cloud's fabric: neither
	// broker documents that its instances join that cloud's cluster network.
	eight, eightNet := 0, 0
	for _, o := range c.Offers {
		if o.GPUCount == 8 {
			eight++
			if o.NetworkGbps > 0 {
				eightNet++
			}
		}
		if (o.Provider == "shadeform" || o.Provider == "primeintellect") && (o.NetworkGbps != 0 || o.NetworkFabric != "") {
			t.Errorf("%s: broker listing with network %v %q", o.ID, o.NetworkGbps, o.NetworkFabric)
		}
	}
	if eightNet < 60 {
		t.Errorf("8-GPU offers with a network figure: %d of %d, want at least 60", eightNet, eight)
	}
	// Azure's 1-year savings plan for compute, from the same retail snapshot and
	// meter as the pay-as-you-go price (swedencentral 1.276 → 0.86768 $/h).
	t4, _ := c.Offer("azure-standard_nc16as_t4_v3")
	if t4.OnDemandPerHour != 1.276 || t4.Reserved1yPerHour != 0.86768 || t4.Regions[0] != "swedencentral" {
		t.Errorf("azure-standard_nc16as_t4_v3: on-demand %v, 1-year %v, %v", t4.OnDemandPerHour, t4.Reserved1yPerHour, t4.Regions)
	}
	if len(s.ProvidersWithReserved1y) < 2 {
		t.Errorf("1-year commitments from %v, want at least gcp and azure", s.ProvidersWithReserved1y)
	}
	if y, ok := c.Provider("yandex"); !ok || !y.PricesIncludeVAT || y.VATRate != 0.22 {
		t.Errorf("yandex VAT basis: %+v", y)
	}
	if usd, r, ok := c.ToUSD(82.9211, "RUB"); !ok || usd < 0.999 || usd > 1.001 || r.AsOf == "" {
		t.Errorf("82.9211 RUB = %v USD (%+v)", usd, r)
	}
}
