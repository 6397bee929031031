package source

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"rightsize/catalog"
)

// ApplyPrices merges price-sheet rows into the offers (see
// catalog.PriceRow for the format). It changes f in place and returns what
// changed; the caller validates f before writing it.
func (f *Files) ApplyPrices(rows []catalog.PriceRow) ([]catalog.PriceChange, error) {
	var all []catalog.PriceChange
	for _, row := range rows {
		id := row.OfferID
		if id == "" && row.Provider != "" && row.InstanceType != "" {
			id = catalog.OfferIDFor(row.Provider, row.InstanceType)
		}
		// A row with a region but no offer_id names the instance type's
		// offer in that region where the provider has one (one offer a
		// region, as AWS China), else its first offer.
		i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool {
			return row.OfferID == "" && row.Region != "" && o.Provider == row.Provider && o.InstanceType == row.InstanceType && slices.Contains(o.Regions, row.Region)
		})
		if i < 0 {
			i = slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool {
				return o.ID == id || row.OfferID == "" && o.Provider == row.Provider && o.InstanceType == row.InstanceType
			})
		}
		var o catalog.Offer
		if i >= 0 {
			o = offerOf(f.Offers.Offers[i])
		}
		ch, err := catalog.ApplyPriceRow(&o, row)
		if err != nil {
			return nil, err
		}
		if i >= 0 {
			setOffer(&f.Offers.Offers[i], o)
		} else {
			var oj offerJSON
			setOffer(&oj, o)
			oj.ID, oj.Provider, oj.InstanceType, oj.GPU, oj.GPUCount, oj.Currency = o.ID, o.Provider, o.InstanceType, o.GPU, o.GPUCount, o.Currency
			f.Offers.Offers = append(f.Offers.Offers, oj)
		}
		all = append(all, ch...)
	}
	slices.SortStableFunc(f.Offers.Offers, func(a, b offerJSON) int { return strings.Compare(a.ID, b.ID) })
	f.bumpProviders()
	return all, nil
}

// offerOf converts the fields a price update touches.
func offerOf(o offerJSON) catalog.Offer {
	return catalog.Offer{
		ID: o.ID, Provider: o.Provider, InstanceType: o.InstanceType, GPU: o.GPU, GPUCount: o.GPUCount,
		OnDemandPerHour: o.OnDemandPerHour, SpotPerHour: o.SpotPerHour,
		Reserved1yPerHour: o.Reserved1yPerHour, Reserved3yPerHour: o.Reserved3yPerHour, MonthlyPrice: o.MonthlyPrice,
		Currency: o.Currency, Regions: slices.Clone(o.Regions), AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, AsOfLowerBound: o.AsOfLowerBound,
		Source: o.Source, Notes: o.Notes, NetworkGbps: o.NetworkGbps, NetworkFabric: o.NetworkFabric,
		SpotInterruption: o.SpotInterruption, SpotInterruptionSource: o.SpotInterruptionSource,
		VCPUs: o.VCPUs, RAMGiB: o.RAMGiB, BillingGranularity: o.BillingGranularity,
	}
}

func setOffer(dst *offerJSON, o catalog.Offer) {
	dst.OnDemandPerHour, dst.SpotPerHour = o.OnDemandPerHour, o.SpotPerHour
	dst.Reserved1yPerHour, dst.Reserved3yPerHour, dst.MonthlyPrice = o.Reserved1yPerHour, o.Reserved3yPerHour, o.MonthlyPrice
	dst.Regions, dst.AsOf, dst.AsOfEstimated, dst.AsOfLowerBound, dst.Source, dst.Notes = o.Regions, o.AsOf, o.AsOfEstimated, o.AsOfLowerBound, o.Source, o.Notes
	dst.NetworkGbps, dst.NetworkFabric = o.NetworkGbps, o.NetworkFabric
	dst.SpotInterruption, dst.SpotInterruptionSource = o.SpotInterruption, o.SpotInterruptionSource
	dst.VCPUs, dst.BillingGranularity = o.VCPUs, o.BillingGranularity
	if o.RAMGiB != dst.RAMGiB {
		dst.RAMGiB, dst.RAMGB = o.RAMGiB, 0 // a sheet's ram_gib replaces the file's ram_gb
	}
}

// bumpProviders sets each provider's as_of to its newest offer's.
func (f *Files) bumpProviders() {
	newest := map[string]offerJSON{}
	for _, o := range f.Offers.Offers {
		n, ok := newest[o.Provider]
		if !ok || o.AsOf > n.AsOf || o.AsOf == n.AsOf && n.AsOfEstimated && !o.AsOfEstimated {
			newest[o.Provider] = o
		}
	}
	for i := range f.Providers.Providers {
		p := &f.Providers.Providers[i]
		if n, ok := newest[p.ID]; ok && (n.AsOf > p.AsOf || n.AsOf == p.AsOf && p.AsOfEstimated && !n.AsOfEstimated) {
			p.AsOf, p.AsOfEstimated = n.AsOf, n.AsOfEstimated
		}
	}
}

// SkyPilotProviders maps skypilot-catalog cloud directory names to provider
// IDs. GCP's catalog prices machines ("hosts") and accelerators in separate
// rows; ImportSkyPilot composes them into per-machine totals first (see
// composeGCP and catalog/README.md).
var SkyPilotProviders = map[string]string{
	"aws": "aws", "gcp": "gcp", "azure": "azure", "oci": "oci", "ibm": "ibm", "lambda": "lambda", "nebius": "nebius",
	"cudo": "cudo", "fluidstack": "fluidstack", "seeweb": "seeweb", "vast": "vast", "runpod": "runpod",
	"verda": "verda", "hyperstack": "hyperstack", "jarvislabs": "jarvislabs", "hyperbolic": "hyperbolic",
	"lium": "lium", "yotta": "yotta", "shadeform": "shadeform", "primeintellect": "primeintellect",
}

// skyPilotCurrency names the currency of a cloud's Price column where it is
// not USD. SkyPilot's catalogs carry no currency column; each fetcher copies
// the provider's own number. fetch_seeweb.py (skypilot-org/skypilot,
// sky/catalog/data_fetchers) writes the Seeweb API's hourly_price
// unconverted, and those are Seeweb's euro list prices (the evidence is in
// the seeweb provider's notes in data/providers.json).
var skyPilotCurrency = map[string]string{"seeweb": "EUR"}

// SkyPilotCurrency returns the currency of provider prov's prices in a
// skypilot-catalog vms.csv: USD unless skyPilotCurrency says otherwise.
func SkyPilotCurrency(prov string) string {
	if c, ok := skyPilotCurrency[prov]; ok {
		return c
	}
	return "USD"
}

// SkyPilotImport is the outcome of ImportSkyPilot.
type SkyPilotImport struct {
	Changes []catalog.PriceChange
	// Skipped lists rows not imported and why (unknown accelerator, no price).
	Skipped []string
	// Missing lists offers of an imported provider that the new catalog no
	// longer lists; they are kept unchanged.
	Missing []string
}

// ImportSkyPilot reads catalogs/v*/<cloud>/vms.csv from a skypilot-catalog
// checkout (the newest schema version that has the cloud) and updates the
// matching offers' prices to the cheapest region's, with the given as_of
// and a source naming the file. Instance types not yet in the catalog are
// added when their accelerator maps to a GPU ID (gpuFor); everything else
// is reported, never dropped silently.
func (f *Files) ImportSkyPilot(fsys fs.FS, asOf, sourceNote string) (*SkyPilotImport, error) {
	versions, err := fs.Glob(fsys, "catalogs/v*")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(versions, func(a, b string) int { return cmp.Compare(schemaNum(b), schemaNum(a)) })
	res := &SkyPilotImport{}
	seenCloud := map[string]bool{}
	for _, v := range versions {
		clouds, _ := fs.ReadDir(fsys, v)
		for _, cl := range clouds {
			prov, ok := SkyPilotProviders[cl.Name()]
			if !ok || seenCloud[cl.Name()] {
				continue
			}
			file := path.Join(v, cl.Name(), "vms.csv")
			r, err := fsys.Open(file)
			if err != nil {
				continue
			}
			seenCloud[cl.Name()] = true
			rows, err := readVMs(r, file)
			r.Close()
			if err != nil {
				return nil, err
			}
			if cl.Name() == "gcp" {
				var skipped []string
				rows, skipped = composeGCP(rows)
				res.Skipped = append(res.Skipped, skipped...)
			}
			src := "skypilot-catalog " + file
			if sourceNote != "" {
				src += " (" + sourceNote + ")"
			}
			if err := f.mergeVMs(prov, rows, asOf, src, res); err != nil {
				return nil, err
			}
		}
	}
	if len(seenCloud) == 0 {
		return nil, fmt.Errorf("catalog: no catalogs/v*/<cloud>/vms.csv for a known cloud under the directory")
	}
	return res, nil
}

func schemaNum(dir string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(path.Base(dir), "v"))
	return n
}

type vmRow struct {
	instance, accel, region string
	count, vcpus, memGiB    float64
	price, spot             float64
	// hasPrice and hasSpot tell a listed 0.0 from an empty cell.
	hasPrice, hasSpot bool
	// gpu and note, when set, are the GPU ID and notes of an offer added
	// from this row (composed GCP rows); otherwise skyPilotGPUs decides.
	gpu, note string
}

func readVMs(r io.Reader, name string) ([]vmRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("catalog: %s: %v", name, err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, need := range []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("catalog: %s: missing column %s", name, need)
		}
	}
	get := func(rec []string, k string) string {
		if i, ok := col[k]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	num := func(rec []string, k string) float64 {
		x, err := strconv.ParseFloat(get(rec, k), 64)
		if err != nil || math.IsNaN(x) || x < 0 {
			return 0
		}
		return x
	}
	has := func(rec []string, k string) bool {
		x, err := strconv.ParseFloat(get(rec, k), 64)
		return err == nil && !math.IsNaN(x) && x >= 0
	}
	var out []vmRow
	for _, rec := range recs[1:] {
		out = append(out, vmRow{
			instance: get(rec, "InstanceType"), accel: get(rec, "AcceleratorName"), region: get(rec, "Region"),
			count: num(rec, "AcceleratorCount"), vcpus: num(rec, "vCPUs"), memGiB: num(rec, "MemoryGiB"),
			price: num(rec, "Price"), spot: num(rec, "SpotPrice"),
			hasPrice: has(rec, "Price"), hasSpot: has(rec, "SpotPrice"),
		})
	}
	return out, nil
}

// skyPilotGPUs maps SkyPilot accelerator names to GPU IDs where the name is
// unambiguous. Names without a form factor map to the "unspecified" entries.
var skyPilotGPUs = map[string]string{
	"T4": "t4", "T4g": "t4", "L4": "l4", "A10G": "a10g", "A10": "a10", "A30": "a30", "A40": "a40", "A16": "a16",
	"L40": "l40", "L40S": "l40s", "V100": "v100-16gb", "V100-32GB": "v100-32gb", "P100": "p100", "P4": "p4",
	"A100": "a100-40gb", "A100-80GB": "a100-80gb", "A100-80GB-SXM": "a100-80gb-sxm", "H100": "h100-80gb",
	"H100-SXM": "h100-sxm", "H100-MEGA": "h100-sxm", "H100-NVL": "h100-nvl", "H200": "h200-141gb", "H200-SXM": "h200-sxm",
	"B200": "b200", "B300": "b300", "GH200": "gh200-96gb", "MI300X": "mi300x",
	"RTX4090": "rtx-4090", "RTX3090": "rtx-3090", "RTX5090": "rtx-5090", "RTXA6000": "rtx-a6000", "A6000": "rtx-a6000",
	"RTXA5000": "rtx-a5000", "A5000": "rtx-a5000", "RTXA4000": "rtx-a4000", "A4000": "rtx-a4000",
	"RTX6000-Ada": "rtx-6000-ada", "RTXPRO6000": "rtx-pro-6000",
}

func (f *Files) mergeVMs(prov string, rows []vmRow, asOf, src string, res *SkyPilotImport) error {
	type agg struct {
		vmRow
		spotMin, odMin   float64
		odRegion, spotRg string
	}
	byType := map[string]*agg{}
	var order []string
	for _, r := range rows {
		if r.instance == "" || r.accel == "" || r.count <= 0 {
			continue
		}
		if err := errors.Join(catalog.CheckName("instance_type", r.instance), catalog.CheckName("region", r.region)); err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s %q: %v; not imported", prov, r.instance, strings.ReplaceAll(err.Error(), "\n", "; ")))
			continue
		}
		a := byType[r.instance]
		if a == nil {
			a = &agg{vmRow: r}
			byType[r.instance] = a
			order = append(order, r.instance)
		}
		if r.price > 0 && (a.odMin == 0 || r.price < a.odMin || r.price == a.odMin && r.region < a.odRegion) {
			a.odMin, a.odRegion = r.price, r.region
		}
		if r.spot > 0 && (a.spotMin == 0 || r.spot < a.spotMin) {
			a.spotMin, a.spotRg = r.spot, r.region
		}
	}
	seen := map[string]bool{}
	for _, it := range order {
		a := byType[it]
		if a.odMin == 0 && a.spotMin == 0 {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s %s: no price", prov, it))
			continue
		}
		spot := a.spotMin
		if a.odMin > 0 && spot > a.odMin {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s %s: cheapest spot %v above cheapest on-demand %v; spot not imported", prov, it, spot, a.odMin))
			spot = 0
		}
		// Currency on every row: ApplyPrices refuses an offer held in
		// another currency rather than relabel its number.
		row := catalog.PriceRow{Provider: prov, InstanceType: it, OnDemandPerHour: a.odMin, SpotPerHour: spot,
			Region: a.odRegion, AsOf: asOf, Source: src, Currency: SkyPilotCurrency(prov)}
		i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.Provider == prov && o.InstanceType == it })
		if i < 0 {
			gpu, ok := skyPilotGPUs[a.accel]
			if a.gpu != "" {
				gpu, ok = a.gpu, true
			}
			if !ok {
				res.Skipped = append(res.Skipped, fmt.Sprintf("%s %s: accelerator %q has no GPU id mapping; not added", prov, it, a.accel))
				continue
			}
			row.GPU, row.GPUCount, row.Notes = gpu, a.count, a.note
		}
		seen[catalog.OfferIDFor(prov, it)] = true
		ch, err := f.ApplyPrices([]catalog.PriceRow{row})
		if err != nil {
			return err
		}
		if i < 0 {
			j := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.Provider == prov && o.InstanceType == it })
			f.Offers.Offers[j].VCPUs, f.Offers.Offers[j].RAMGiB = int(a.vcpus), a.memGiB
		}
		if j := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.Provider == prov && o.InstanceType == it }); j >= 0 {
			o := &f.Offers.Offers[j]
			if spot == 0 && o.SpotPerHour != 0 && a.spotMin == 0 {
				// The new catalog lists no spot price: keep the old one but say so.
				res.Skipped = append(res.Skipped, fmt.Sprintf("%s: no spot price in the new catalog; kept %v from %s", o.ID, o.SpotPerHour, "the previous data"))
			}
			if o.SpotRegion != a.spotRg && spot > 0 {
				o.SpotRegion = a.spotRg
			}
		}
		res.Changes = append(res.Changes, ch...)
	}
	for _, o := range f.Offers.Offers {
		if o.Provider == prov && !seen[o.ID] {
			res.Missing = append(res.Missing, o.ID)
		}
	}
	return nil
}
