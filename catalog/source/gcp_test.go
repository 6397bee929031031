//go:build !js

package source

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"rightsize/catalog/data"
)

// gcpWant is a composed GCP offer, computed by hand from the rows in
// testdata/skypilot-gcp (same numbers as the v9 catalog the shipped GCP
// offers were built from, so the prices equal the shipped ones).
type gcpWant struct {
	od, spot           float64
	region, spotRegion string
}

var gcpFixtureWant = map[string]gcpWant{
	// A2: host + A100 x1 row. europe-west4: 0.81406 + 1.61365; spot 0.36774 + 1.3251.
	"gcp-a2-highgpu-1g": {2.42771, 1.69284, "europe-west4", "europe-west4"},
	// A3: spot only, host + H100 x1 in europe-north1: 0.13858 + 1.1485. The
	// on-demand composite (us-central1: 1.18251 + 4.20076 = 5.38327) is not
	// Google's list price (11.06125 in pricing.yml), so it is not imported:
	// od -1 means "left as it was".
	"gcp-a3-highgpu-1g": {-1, 1.28708, "", "europe-north1"},
	// A4: host row 0.0 + B200 x8.
	"gcp-a4-highgpu-8g": {64.44, 32.6064, "us-east4", "us-east4"},
	// G2: g2-standard-4 host × vCPU/4 + L4 rows. us-east4: 0.14631 + 0.55821;
	// spot asia-northeast3: 0.05112 + 0.1951.
	"gcp-g2-standard-4": {0.70452, 0.24622, "us-east4", "asia-northeast3"},
	// 2 × 0.14631 + 0.55821; spot 2 × 0.05112 + 0.1951.
	"gcp-g2-standard-8": {0.85083, 0.29734, "us-east4", "asia-northeast3"},
	// 6 × 0.14631 + the L4 x2 row 1.11642; spot 6 × 0.05112 + 2 × 0.1951 (no x2 row there).
	"gcp-g2-standard-24": {1.99428, 0.69692, "us-east4", "asia-northeast3"},
	// 24 × 0.14631 + 8 × 0.55821; spot 24 × 0.05112 + 8 × 0.1951.
	"gcp-g2-standard-96": {7.97712, 2.78768, "us-east4", "asia-northeast3"},
	// G4: the machine row alone.
	"gcp-g4-standard-48": {3.40428, 1.36152, "us-central1", "us-central1"},
	// N1: n1-highmem-8 + N × T4. us-central1: 0.47321 + 0.35;
	// spot asia-southeast2: 0.10016 + 0.1108.
	"gcp-n1-highmem-8plus1xt4": {0.82321, 0.21096, "us-central1", "asia-southeast2"},
	// 0.47321 + 2 × 0.35; spot asia-southeast1: 0.12314 + 2 × 0.0983.
	"gcp-n1-highmem-8plus2xt4": {1.17321, 0.31974, "us-central1", "asia-southeast1"},
	// 0.47321 + 4 × 0.35; spot 0.12314 + 4 × 0.0983.
	"gcp-n1-highmem-8plus4xt4": {1.87321, 0.51634, "us-central1", "asia-southeast1"},
}

func checkGCPOffers(t *testing.T, f *Files) {
	t.Helper()
	for id, w := range gcpFixtureWant {
		i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id })
		if i < 0 {
			t.Errorf("%s: not in the catalog after import", id)
			continue
		}
		o := f.Offers.Offers[i]
		if w.od < 0 {
			w.od, w.region = o.OnDemandPerHour, ""
			if len(o.Regions) > 0 {
				w.region = o.Regions[0]
			}
		}
		regions := []string{w.region}
		if w.region == "" {
			regions = nil
		}
		if o.OnDemandPerHour != w.od || o.SpotPerHour != w.spot || !slices.Equal(o.Regions, regions) || o.SpotRegion != w.spotRegion {
			t.Errorf("%s: on-demand %v %v, spot %v %s; want %v [%s], spot %v %s", id,
				o.OnDemandPerHour, o.Regions, o.SpotPerHour, o.SpotRegion, w.od, w.region, w.spot, w.spotRegion)
		}
		if o.AsOf != "2026-11-21" || o.AsOfEstimated || o.Source != "skypilot-catalog catalogs/v9/gcp/vms.csv (fixture)" {
			t.Errorf("%s: as_of %s (estimated %v), source %q", id, o.AsOf, o.AsOfEstimated, o.Source)
		}
	}
}

func TestImportSkyPilotGCP(t *testing.T) {
	f, err := ReadFiles(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.ImportSkyPilot(os.DirFS("testdata/skypilot-gcp"), "2026-11-21", "fixture")
	if err != nil {
		t.Fatal(err)
	}
	checkGCPOffers(t, f)
	for _, want := range []string{
		"gcp a3-edgegpu-8g-nolssd: no rule pairs this machine type with an accelerator; not imported",
		"gcp a2-highgpu-1g: no A100 x1 accelerator row in me-west1; not priced there",
		"gcp accelerator H100 x1: no machine row to pair with in europe-west2; not used there",
		"gcp accelerators no rule pairs with a machine type (not imported): tpu-v6e-1 x1",
		"gcp a3-highgpu-1g: the H100 accelerator row is not the on-demand list price (DWS flex-start level); on-demand not imported, spot only",
	} {
		if !slices.Contains(res.Skipped, want) {
			t.Errorf("Skipped lacks %q:\n%s", want, strings.Join(res.Skipped, "\n"))
		}
	}
	if len(res.Skipped) != 5 {
		t.Errorf("Skipped has %d lines, want 5:\n%s", len(res.Skipped), strings.Join(res.Skipped, "\n"))
	}
	// Offers the fixture does not price are kept and listed; CPU-only
	// machines (n1-highcpu-4) and the g2-standard-8 machine row (G2 sizes
	// are derived from g2-standard-4) are neither offers nor skipped rows.
	for _, id := range []string{"gcp-a3-megagpu-8g", "gcp-n1-highmem-8plus1xv100", "gcp-g4-standard-6"} {
		if !slices.Contains(res.Missing, id) {
			t.Errorf("Missing lacks %s: %v", id, res.Missing)
		}
	}
	for id := range gcpFixtureWant {
		if slices.Contains(res.Missing, id) {
			t.Errorf("Missing lists imported offer %s", id)
		}
	}
	for _, ch := range res.Changes {
		if strings.HasPrefix(ch.OfferID, "gcp-") && ch.Field == "offer" {
			t.Errorf("offer added to a catalog that already has it: %s", ch.OfferID)
		}
	}
	if _, err := f.Catalog(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatalf("imported catalog does not validate: %v", err)
	}
}

// Without GCP offers in the catalog, the import adds them with the GPU ID,
// count, vCPUs, RAM and notes the shipped offers have.
func TestImportSkyPilotGCPAdds(t *testing.T) {
	f, err := ReadFiles(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	f.Offers.Offers = slices.DeleteFunc(f.Offers.Offers, func(o offerJSON) bool { return o.Provider == "gcp" })
	res, err := f.ImportSkyPilot(os.DirFS("testdata/skypilot-gcp"), "2026-11-21", "fixture")
	if err != nil {
		t.Fatal(err)
	}
	checkGCPOffers(t, f)
	type spec struct {
		gpu      string
		count    float64
		vcpus    int
		ram      float64
		noteHead string
	}
	for id, w := range map[string]spec{
		"gcp-a2-highgpu-1g":        {"a100-40gb-sxm", 1, 12, 85, "GCP price = machine (host) row + accelerator row"},
		"gcp-a3-highgpu-1g":        {"h100-sxm", 1, 26, 234, "GCP price = machine (host) row + accelerator row"},
		"gcp-a4-highgpu-8g":        {"b200", 8, 224, 3968, "GCP price = machine (host) row + accelerator row"},
		"gcp-g2-standard-24":       {"l4", 2, 24, 96, "GCP G2: host price scaled linearly"},
		"gcp-g4-standard-48":       {"rtx-pro-6000", 1, 48, 180, "G4: catalog has no separate RTX PRO 6000 accelerator row"},
		"gcp-n1-highmem-8plus2xt4": {"t4", 2, 8, 52, "GCP N1 + attached GPU"},
	} {
		i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id })
		if i < 0 {
			t.Errorf("%s: not added", id)
			continue
		}
		o := f.Offers.Offers[i]
		if o.InstanceType != strings.TrimPrefix(id, "gcp-") && id != "gcp-n1-highmem-8plus2xt4" || o.GPU != w.gpu || o.GPUCount != w.count ||
			o.VCPUs != w.vcpus || o.RAMGiB != w.ram || !strings.HasPrefix(o.Notes, w.noteHead) || o.Currency != "USD" {
			t.Errorf("%s: %s %v x %s, %d vCPU, %v GiB, %s, notes %q; want %v x %s, %d vCPU, %v GiB, notes %q…", id,
				o.InstanceType, o.GPUCount, o.GPU, o.VCPUs, o.RAMGiB, o.Currency, o.Notes, w.count, w.gpu, w.vcpus, w.ram, w.noteHead)
		}
	}
	if i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == "gcp-n1-highmem-8plus2xt4" }); i >= 0 {
		if it := f.Offers.Offers[i].InstanceType; it != "n1-highmem-8+2xT4" {
			t.Errorf("N1 instance type %q, want n1-highmem-8+2xT4", it)
		}
	}
	if len(res.Missing) != 0 {
		t.Errorf("Missing = %v, want none", res.Missing)
	}
	if _, err := f.Catalog(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatalf("imported catalog does not validate: %v", err)
	}
}

// An empty price cell is "no price", not 0.0: the total for that region is
// left out instead of being the accelerator's price alone.
func TestComposeGCPEmptyCell(t *testing.T) {
	const csv = "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n" +
		"a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,,0.38812\n" +
		",,,A100,1,,us-central1,us-central1-a,2.93391,1.5399\n"
	rows, err := readVMs(strings.NewReader(csv), "vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	out, skipped := composeGCP(rows)
	if len(out) != 1 || out[0].price != 0 || out[0].spot != 1.92802 || len(skipped) != 0 {
		t.Errorf("composed %+v, skipped %v; want on-demand 0 (no price), spot 1.92802", out, skipped)
	}
}
