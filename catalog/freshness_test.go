package catalog_test

import (
	"slices"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
)

func TestPriceAgeDays(t *testing.T) {
	today := time.Date(2026, 11, 26, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		asOf  string
		days  int
		grade string
	}{
		{"2026-11-26", 0, "fresh"}, {"2026-11-25", 1, "fresh"}, {"2026-08-29", 89, "fresh"}, {"2026-08-28", 90, "aging"},
		{"2026-05-31", 179, "aging"}, {"2026-05-30", 180, "stale"}, {"2025-11-27", 364, "stale"}, {"2025-11-26", 365, "old"},
		{"2020-09-01", 2277, "old"}, {"2026-12-01", 0, "fresh"}, {"", -1, "undated"}, {"2026-02-30", -1, "undated"},
	} {
		o := catalog.Offer{AsOf: c.asOf}
		if got := o.PriceAgeDays(today); got != c.days {
			t.Errorf("PriceAgeDays(%q) = %d, want %d", c.asOf, got, c.days)
		}
		if got := o.PriceAgeGrade(today).String(); got != c.grade {
			t.Errorf("grade(%q) = %s, want %s", c.asOf, got, c.grade)
		}
	}
	// The window includes its last day; an estimated date is never fresh.
	o := catalog.Offer{AsOf: "2026-05-30"}
	if !o.FreshWithin(today, 180) || o.FreshWithin(today, 179) {
		t.Error("FreshWithin should include day 180 and exclude it for a 179-day window")
	}
	if o.AsOfEstimated = true; o.FreshWithin(today, 180) {
		t.Error("an estimated date is not fresh")
	}
}

func TestFarBelowMedian(t *testing.T) {
	c := &catalog.Catalog{
		Providers: []catalog.Provider{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "m", Kind: catalog.KindMarketplace}, {ID: "r", Currency: "RUB"}},
		FXRates:   []catalog.FXRate{{Currency: "RUB", PerUSD: 80}},
		Offers: []catalog.Offer{
			{ID: "a-1", Provider: "a", GPU: "h100", GPUCount: 8, OnDemandPerHour: 24, Currency: "USD"},  // 3.00/GPU-h
			{ID: "a-2", Provider: "a", GPU: "h100", GPUCount: 1, OnDemandPerHour: 2.5, Currency: "USD"}, // a's cheapest: 2.50
			{ID: "b-1", Provider: "b", GPU: "h100", GPUCount: 1, OnDemandPerHour: 3.5, Currency: "USD"},
			{ID: "c-1", Provider: "c", GPU: "h100", GPUCount: 1, OnDemandPerHour: 4, Currency: "USD"},
			{ID: "m-1", Provider: "m", GPU: "h100", GPUCount: 1, OnDemandPerHour: 1.2, Currency: "USD"},
			{ID: "r-1", Provider: "r", GPU: "h100", GPUCount: 1, OnDemandPerHour: 96, Currency: "RUB"}, // 1.20 USD
			{ID: "a-l4", Provider: "a", GPU: "l4", GPUCount: 1, OnDemandPerHour: 0.1, Currency: "USD"},
			{ID: "b-l4", Provider: "b", GPU: "l4", GPUCount: 1, OnDemandPerHour: 0.8, Currency: "USD"},
		},
	}
	m := c.Medians()
	// Others of m: a 2.50, b 3.50, c 4.00, r 1.20 → median 3.00; 1.20 < 1.50.
	if med, n := m.OthersMedianPerGPUHour("h100", "m"); med != 3 || n != 4 {
		t.Errorf("median %v over %d", med, n)
	}
	for id, want := range map[string]bool{"m-1": true, "r-1": true, "a-2": false, "b-1": false, "a-l4": false} {
		o, _ := c.Offer(id)
		if got := m.FarBelowMedian(c, o); got != want || c.FarBelowMedian(o) != want {
			t.Errorf("%s: far below %v, want %v", id, got, want)
		}
	}
	if o, _ := c.Offer("m-1"); !c.FromPrice(o) {
		t.Error("a marketplace price is a 'from' price")
	}
}

// On the shipped catalog the checks run and flag a minority of offers.
func TestFreshnessOnCatalog(t *testing.T) {
	c := catalog.Default()
	m := c.Medians()
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	far, undated := 0, 0
	for _, o := range c.Offers {
		if m.FarBelowMedian(c, o) {
			far++
		}
		if o.PriceAgeDays(today) < 0 {
			undated++
		}
	}
	if undated != 0 || far == 0 || far > len(c.Offers)/4 {
		t.Errorf("%d undated, %d of %d far below the median", undated, far, len(c.Offers))
	}
}

// TestPriceToVerify: the offers whose own record leaves the price open
// are the ones its transcription closes with "verify" — Paperspace's
// A100-80G at "$ 1.15** / hour" (the footnote not captured) and its H100 at
// 3.09, where the broker lists the same machine at 5.99 and every other
// Paperspace GPU 0.04 above the page — or quotes a floor ("Starting at":
// Akash's lowest bid), and a user's own price never is.
func TestPriceToVerify(t *testing.T) {
	c := catalog.Default()
	var open []string
	for _, o := range c.Offers {
		if o.PriceToVerify() {
			open = append(open, o.ID)
		}
	}
	for _, id := range []string{"paperspace-a100-80g", "paperspace-h100", "paperspace-hgx-h100-3-year-commitment", "akash-rtx-3090-24gb-pcie", "akash-b200-180gb-hbm3e", "vultr-bare-metal-nvidia-hgx-h100-x8-36-month-prepaid-from"} {
		if !slices.Contains(open, id) {
			t.Errorf("%s: its price is open, not flagged", id)
		}
	}
	if len(open) > len(c.Offers)/20 {
		t.Errorf("%d offers left open: %v", len(open), open)
	}
	for _, id := range []string{"paperspace-a6000", "paperspace-a100-monthly", "coreweave-nvidia-hgx-b200", "gcp-g4-standard-24"} {
		if o, ok := c.Offer(id); !ok || o.PriceToVerify() {
			t.Errorf("%s (%v): its price is stated plainly", id, ok)
		}
	}
	o, _ := c.Offer("paperspace-a100-80g")
	o.UserPrice = true
	if o.PriceToVerify() {
		t.Error("a user's own price is left open")
	}
}

// TestPriceOpenWithoutNotes: the generated table carries the judgement, so
// app.wasm, built without the records' Notes, flags the same offers as the
// CLI (it had flagged none: the page's Paperspace A100-80G at 1.15 was a
// confirmed price).
func TestPriceOpenWithoutNotes(t *testing.T) {
	o, _ := catalog.Default().Offer("paperspace-a100-80g")
	o.Notes = ""
	if !o.PriceToVerify() {
		t.Error("paperspace-a100-80g without its notes: price confirmed, want open")
	}
	for notes, want := range map[string]bool{
		"source shows \"$ 1.15** / hour\"; footnote not captured - verify before use": true,
		"page states prices as \"Starting at\" per GPU-hour (provider bids vary)":     true,
		"\"Starting from $2.300/GPU/hour\" prepaid contract":                          true,
		"vCPU/RAM not in source; GPU memory from model name":                          false,
		"price is per 8-GPU instance":                                                 false,
	} {
		if got := catalog.NotesLeavePriceOpen(notes); got != want {
			t.Errorf("NotesLeavePriceOpen(%q) = %v, want %v", notes, got, want)
		}
	}
}

// TestPaperspaceA100Monthly: the monthly A100 plan, whose card the page
// does not name, is planned on the 40 GB card, the smaller.
func TestPaperspaceA100Monthly(t *testing.T) {
	c := catalog.Default()
	o, ok := c.Offer("paperspace-a100-monthly")
	g, _ := c.GPU(o.GPU)
	if !ok || o.GPU != "a100-40gb" || o.TotalGPUMemory(g) != 40*estimator.GiB {
		t.Errorf("paperspace-a100-monthly: %s, %v: want a100-40gb, 40 GiB", o.GPU, o.TotalGPUMemory(g))
	}
}

// TestPaperspaceHGXCommitment: Paperspace's "$ 2.24* / hour" HGX H100
// 3-year commitment, read as per GPU-hour of an 8-GPU node, is the whole
// node (8 × 2.24), as the catalog holds Vultr's per-GPU HGX quotes, not
// one H100 rented alone for three years.
func TestPaperspaceHGXCommitment(t *testing.T) {
	o, ok := catalog.Default().Offer("paperspace-hgx-h100-3-year-commitment")
	if !ok || o.GPUCount != 8 || o.Reserved3yPerHour != 17.92 || o.Interconnect != "nvlink" || !o.PriceToVerify() {
		t.Errorf("%v: %v GPUs at %v/h reserved 3y over %q, to verify %v: want 8 at 17.92 over nvlink, to verify",
			ok, o.GPUCount, o.Reserved3yPerHour, o.Interconnect, o.PriceToVerify())
	}
}
