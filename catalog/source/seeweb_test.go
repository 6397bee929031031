//go:build !js

package source

import (
	"os"
	"slices"
	"strings"
	"testing"

	"rightsize/catalog/data"
)

// Seeweb's SkyPilot prices are euros (fetch_seeweb.py copies the API's
// hourly_price unconverted; the evidence is in providers.json): the import
// keeps the shipped offers in EUR, adds new ones in EUR, and refuses to
// write a euro number into an offer held in USD.
func TestImportSkyPilotSeewebEUR(t *testing.T) {
	fixture := os.DirFS("testdata/skypilot-seeweb")
	f, err := ReadFiles(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(f.Providers.Providers, func(p providerJSON) bool { return p.ID == "seeweb" })
	if i < 0 || f.Providers.Providers[i].Currency != "EUR" {
		t.Fatalf("seeweb provider currency is not EUR")
	}
	for _, o := range f.Offers.Offers {
		if o.Provider == "seeweb" && o.Currency != "EUR" {
			t.Errorf("%s: currency %s, want EUR", o.ID, o.Currency)
		}
	}
	if _, err := f.ImportSkyPilot(fixture, "2026-11-21", "fixture"); err != nil {
		t.Fatal(err)
	}
	j := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == "seeweb-ecs1gpu10" })
	if o := f.Offers.Offers[j]; o.OnDemandPerHour != 2.7 || o.Currency != "EUR" {
		t.Errorf("seeweb-ecs1gpu10 after import: %v %s, want 2.7 EUR", o.OnDemandPerHour, o.Currency)
	}

	// Added from scratch: in EUR, never USD.
	f, _ = ReadFiles(data.FS)
	f.Offers.Offers = slices.DeleteFunc(f.Offers.Offers, func(o offerJSON) bool { return o.Provider == "seeweb" })
	if _, err := f.ImportSkyPilot(fixture, "2026-11-21", "fixture"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"seeweb-ecs1gpu10", "seeweb-ecs1gpu6"} {
		j := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id })
		if j < 0 {
			t.Errorf("%s: not added", id)
		} else if f.Offers.Offers[j].Currency != "EUR" {
			t.Errorf("%s: added in %s, want EUR", id, f.Offers.Offers[j].Currency)
		}
	}

	// An offer held in USD is not relabelled: the import stops.
	f, _ = ReadFiles(data.FS)
	j = slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == "seeweb-ecs1gpu10" })
	f.Offers.Offers[j].Currency = "USD"
	if _, err := f.ImportSkyPilot(fixture, "2026-11-21", "fixture"); err == nil || !strings.Contains(err.Error(), "currency EUR differs") {
		t.Errorf("import into a USD seeweb offer: err %v, want a currency mismatch", err)
	}
}
