package source

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"rightsize/catalog"
	"rightsize/estimator"
)

// Interconnects a GPU or an offer may name.
var interconnects = map[string]bool{"nvlink": true, "pcie": true, "infinity-fabric": true, "roce": true}

var tasks = map[string]bool{
	"text-generation": true, "fill-mask": true, "text2text": true, "image-classification": true,
	"image-generation": true, "speech-recognition": true, "sentence-embedding": true, "text-ranking": true, "text-to-video": true,
}

// currencyPerUSD and PriceBoundsUSD are the catalog's plausibility rules,
// which the page applies to a user's price sheet too.
var currencyPerUSD = catalog.CurrencyPerUSD

// PriceBoundsUSD is catalog.PriceBoundsUSD.
func PriceBoundsUSD(g catalog.GPU) (lo, hi float64) { return catalog.PriceBoundsUSD(g) }

func isUpper(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func convertGPU(v *validator, i int, g gpuJSON) catalog.GPU {
	id := g.ID
	v.nonEmpty(i, id, "name", g.Name)
	v.name(i, id, "name", g.Name)
	v.nonEmpty(i, id, "vendor", g.Vendor)
	v.nonEmpty(i, id, "architecture", g.Architecture)
	v.nonEmpty(i, id, "source", g.Source)
	v.date(i, id, "as_of", g.AsOf)

	out := catalog.GPU{
		ID: g.ID, Name: g.Name, Vendor: g.Vendor, Architecture: g.Architecture, FormFactor: g.FormFactor,
		MemoryType: g.MemoryType,
		FP32TFLOPS: g.FP32TFLOPS, TF32TFLOPS: g.TF32TFLOPSDense, BF16TFLOPS: g.BF16TFLOPSDense,
		FP16TFLOPS: g.FP16TFLOPSDense, FP16Acc16TFLOPS: g.FP16Acc16TFLOPSDense, FP8TFLOPS: g.FP8TFLOPSDense, INT8TOPS: g.INT8TOPSDense,
		FP4TFLOPS: g.FP4TFLOPSDense, SupportsBF16: g.SupportsBF16, SupportsFP8: g.SupportsFP8, SupportsFP4: g.SupportsFP4,
		Interconnect: g.Interconnect, NVLinkGBps: g.NVLinkGBs, NVLinkDomain: g.NVLinkDomain, PCIeGen: g.PCIeGen,
		MIGSlices: g.MIGSlices, MIGProfiles: g.MIGProfiles, TDPWatts: g.TDPW, Source: g.Source, AsOf: g.AsOf, Notes: g.Notes,
	}

	n := 0
	for _, m := range []struct {
		field string
		x     *float64
		unit  estimator.Bytes
	}{
		// A datasheet's "80 GB" of GPU memory is a DRAM capacity, and JEDEC
		// counts those in binary units (JESD100B.01: giga = 2^30 "as a
		// prefix to units of semiconductor storage capacity"). An "80 GB"
		// H100 has 80 GiB of HBM: torch sees 79.19 GiB of it (llm-d vLLM
		// v0.19 report), which a decimal 74.5 GiB could never hold.
		{"memory_gb", g.MemoryGB, estimator.GiB}, {"memory_gib", g.MemoryGiB, estimator.GiB}, {"memory_mib", g.MemoryMiB, estimator.MiB}} {
		if m.x == nil {
			continue
		}
		n++
		b, err := bytesOf(*m.x, m.unit)
		if err != nil || b > 1024*estimator.GB {
			v.add(i, id, "%s %v must be > 0 and at most 1024 GB", m.field, *m.x)
			continue
		}
		out.Memory = b
	}
	if n != 1 {
		v.add(i, id, "exactly one of memory_gb, memory_gib, memory_mib is required (have %d)", n)
	}
	switch {
	case g.ECCMemoryMiB == nil:
		if g.ECCMemorySource != "" {
			v.add(i, id, "ecc_memory_source without ecc_memory_mib")
		}
	case g.ECCMemorySource == "":
		v.add(i, id, "ecc_memory_mib needs ecc_memory_source")
	default:
		b, err := bytesOf(*g.ECCMemoryMiB, estimator.MiB)
		if err != nil || (out.Memory > 0 && b > out.Memory) {
			v.add(i, id, "ecc_memory_mib %v must be > 0 and at most the GPU's memory", *g.ECCMemoryMiB)
			break
		}
		out.ECCMemory, out.ECCSource = b, g.ECCMemorySource
	}

	switch {
	case g.MemoryBandwidthGBs != nil && g.MemoryBandwidthTBs != nil:
		v.add(i, id, "give memory_bandwidth_gb_s or memory_bandwidth_tb_s, not both")
	case g.MemoryBandwidthGBs != nil:
		v.rangeF(i, id, "memory_bandwidth_gb_s", *g.MemoryBandwidthGBs, 50, 20000)
		out.MemoryBandwidthBytesPerSecond = *g.MemoryBandwidthGBs * 1e9
	case g.MemoryBandwidthTBs != nil:
		v.rangeF(i, id, "memory_bandwidth_tb_s", *g.MemoryBandwidthTBs, 0.05, 20)
		out.MemoryBandwidthBytesPerSecond = *g.MemoryBandwidthTBs * 1e12
	default:
		if g.Notes == "" {
			v.add(i, id, "memory bandwidth is missing (leave it out only with a note saying why)")
		}
	}

	for _, t := range []struct {
		field string
		x     float64
	}{{"fp32_tflops", g.FP32TFLOPS}, {"tf32_tflops_dense", g.TF32TFLOPSDense}, {"bf16_tflops_dense", g.BF16TFLOPSDense},
		{"fp16_tflops_dense", g.FP16TFLOPSDense}, {"fp8_tflops_dense", g.FP8TFLOPSDense}, {"int8_tops_dense", g.INT8TOPSDense},
		{"fp4_tflops_dense", g.FP4TFLOPSDense}, {"fp16_acc16_tflops_dense", g.FP16Acc16TFLOPSDense}} {
		v.rangeF(i, id, t.field, t.x, 0, 40000)
	}
	if g.FP16Acc16TFLOPSDense > 0 && g.FP16Acc16TFLOPSDense <= g.FP16TFLOPSDense {
		v.add(i, id, "fp16_acc16_tflops_dense %v is not above fp16_tflops_dense %v (give it only where FP16 accumulation is faster)",
			g.FP16Acc16TFLOPSDense, g.FP16TFLOPSDense)
	}
	if g.BF16TFLOPSDense > 0 && !g.SupportsBF16 {
		v.add(i, id, "bf16_tflops_dense %v but supports_bf16 is false", g.BF16TFLOPSDense)
	}
	if g.FP8TFLOPSDense > 0 && !g.SupportsFP8 {
		v.add(i, id, "fp8_tflops_dense %v but supports_fp8 is false", g.FP8TFLOPSDense)
	}
	if g.FP4TFLOPSDense > 0 && !g.SupportsFP4 {
		v.add(i, id, "fp4_tflops_dense %v but supports_fp4 is false", g.FP4TFLOPSDense)
	}
	if g.SupportsFP4 && !g.SupportsFP8 {
		v.add(i, id, "supports_fp4 without supports_fp8")
	}
	if g.FP16TFLOPSDense == 0 && g.FP32TFLOPS == 0 && g.Notes == "" {
		v.add(i, id, "neither fp16_tflops_dense nor fp32_tflops is given (leave both out only with a note)")
	}
	if !interconnects[g.Interconnect] {
		v.add(i, id, "interconnect %q must be one of nvlink, pcie, infinity-fabric, roce", g.Interconnect)
	}
	v.rangeF(i, id, "nvlink_gb_s", g.NVLinkGBs, 0, 3600)
	v.rangeF(i, id, "pcie_gen", float64(g.PCIeGen), 0, 6)
	v.rangeF(i, id, "mig_slices", float64(g.MIGSlices), 0, 7)
	v.rangeF(i, id, "nvlink_domain", float64(g.NVLinkDomain), 0, 576)
	if g.NVLinkDomain > 1 && g.NVLinkGBs == 0 {
		v.add(i, id, "nvlink_domain %d without nvlink_gb_s", g.NVLinkDomain)
	}
	if len(g.MIGProfiles) > 0 && g.MIGSlices == 0 {
		v.add(i, id, "mig_profiles given but mig_slices is 0")
	}
	for _, p := range g.MIGProfiles {
		if !migProfile(p) {
			v.add(i, id, "mig_profiles: %q is not a profile name like 1g.10gb or 1g.10gb+me", p)
		}
	}
	v.rangeF(i, id, "tdp_w", float64(g.TDPW), 0, 2000)
	return out
}

func convertModel(v *validator, i int, m modelJSON) catalog.Model {
	id := m.ID
	v.nonEmpty(i, id, "name", m.Name)
	v.nonEmpty(i, id, "family", m.Family)
	v.nonEmpty(i, id, "license", m.License)
	v.nonEmpty(i, id, "source", m.Source)
	v.nonEmpty(i, id, "config_source", m.ConfigSource)
	v.date(i, id, "as_of", m.AsOf)
	if !tasks[m.Task] {
		v.add(i, id, "task %q is not one of text-generation, fill-mask, text2text, image-classification, image-generation, speech-recognition, sentence-embedding, text-ranking, text-to-video", m.Task)
	}
	// Image models may have no sequence at all; text models must say.
	if m.ContextLength < 0 || m.ContextLength == 0 && (m.Task == "text-generation" || m.Task == "fill-mask" || m.Task == "text2text") {
		v.add(i, id, "context_length %d must be > 0", m.ContextLength)
	}
	if m.PublishedParams <= 0 || m.PublishedParams > 10_000_000_000_000 {
		v.add(i, id, "published_params %d out of range (0, 1e13]", m.PublishedParams)
	}
	if m.ActiveParams < 0 || m.ActiveParams > m.PublishedParams {
		v.add(i, id, "active_params %d must be in [0, published_params %d]", m.ActiveParams, m.PublishedParams)
	}
	out := catalog.Model{
		ID: m.ID, Name: m.Name, Family: m.Family, License: m.License, Task: m.Task,
		ContextLength: m.ContextLength, PublishedParams: m.PublishedParams, ActiveParams: m.ActiveParams,
		ConfigSource: m.ConfigSource, Source: m.Source, AsOf: m.AsOf, Notes: m.Notes,
		WeightsDType: m.WeightsDType, WeightsSource: m.WeightsSource, RopeScalingSource: m.RopeScalingSource,
		ServedContext: m.ServedContext, ServedContextSource: m.ServedContextSource,
	}
	// A RoPE scaling the card documents for a longer context than the
	// config declares: compact JSON, with its source.
	if len(m.RopeScaling) > 0 || m.RopeScalingSource != "" {
		var b bytes.Buffer
		if err := json.Compact(&b, m.RopeScaling); err != nil || b.Len() == 0 || b.Bytes()[0] != '{' {
			v.add(i, id, "rope_scaling: want a JSON object, as config.json's rope_scaling")
		}
		out.RopeScaling = b.String()
		v.nonEmpty(i, id, "rope_scaling_source", m.RopeScalingSource)
	}
	// A checkpoint's own precision is one the estimator plans in, narrower
	// than 16 bits, with its source.
	if m.WeightsDType != "" || m.WeightsSource != "" {
		d, err := estimator.ParseDType(m.WeightsDType)
		if err != nil || d.BitsPerElement() >= 16 {
			v.add(i, id, "weights_dtype %q: want an 8- or 4-bit precision (fp8, int8, fp4, int4), or none for a 16-bit checkpoint", m.WeightsDType)
		}
		v.nonEmpty(i, id, "weights_source", m.WeightsSource)
	}
	if len(m.Config) == 0 {
		v.add(i, id, "config is missing")
		return out
	}
	// The estimator is the only judge of configs: what it cannot parse is
	// not in the catalog, and its count must match the published one.
	a, err := estimator.ParseConfig(m.Config)
	if err != nil {
		v.add(i, id, "config: %v", err)
		return out
	}
	out.ModelType = a.ModelType
	// The served checkpoint's own context: less than the config's, with
	// its source (equal or more would change nothing a launch loads).
	if m.ServedContext != 0 || m.ServedContextSource != "" {
		if m.ServedContext <= 0 || a.MaxPositions == 0 || m.ServedContext >= a.MaxPositions {
			v.add(i, id, "served_context %d must be in (0, the config's max_position_embeddings %d)", m.ServedContext, a.MaxPositions)
		}
		v.nonEmpty(i, id, "served_context_source", m.ServedContextSource)
	}
	if a.Generic() {
		if a.Params() != m.PublishedParams {
			v.add(i, id, "config.num_parameters %d must equal published_params %d", a.Params(), m.PublishedParams)
		}
	} else {
		checkCount(v, i, id, "published_params", m.PublishedParams, a.Params(), m.ParamsTolerance)
		if m.ActiveParams > 0 {
			checkCount(v, i, id, "active_params", m.ActiveParams, a.ActiveParams(), m.ParamsTolerance)
		}
	}
	if m.ParamsTolerance != 0 && (m.ParamsTolerance < 0 || m.ParamsTolerance > 0.2 || m.Notes == "") {
		v.add(i, id, "params_tolerance %v must be in (0, 0.2] and explained in notes", m.ParamsTolerance)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, m.Config); err != nil {
		v.add(i, id, "config: %v", err)
	}
	out.Config = buf.String()
	return out
}

func convertProvider(v *validator, i int, p providerJSON) catalog.Provider {
	id := p.ID
	v.nonEmpty(i, id, "name", p.Name)
	v.name(i, id, "name", p.Name)
	v.nonEmpty(i, id, "source", p.Source)
	v.date(i, id, "as_of", p.AsOf)
	if !slices.Contains(catalog.Kinds, p.Kind) {
		v.add(i, id, "kind %q must be one of hyperscaler, gpu-cloud, marketplace, broker, decentralized", p.Kind)
	}
	if p.Country == "" && p.Notes == "" {
		v.add(i, id, "country is missing (leave it empty only with a note saying why)")
	} else if p.Country != "" && !isUpper(p.Country, 2) {
		v.add(i, id, "country %q must be an ISO 3166 alpha-2 code", p.Country)
	}
	if !isUpper(p.Currency, 3) {
		v.add(i, id, "currency %q must be an ISO 4217 code", p.Currency)
	}
	if !strings.HasPrefix(p.URL, "https://") {
		v.add(i, id, "url %q must start with https://", p.URL)
	}
	v.rangeF(i, id, "vat_rate", p.VATRate, 0, 0.3)
	if p.PricesIncludeVAT && p.VATRate == 0 {
		v.add(i, id, "prices_include_vat needs vat_rate")
	}
	// A billing minimum is the provider's documented rule, never a guess:
	// at most an hour (a longer one is a billing unit), with its page.
	v.rangeF(i, id, "billing_minimum_seconds", p.BillingMinimumSeconds, 0, 3600)
	if p.BillingMinimumSeconds > 0 && p.BillingMinimumSource == "" {
		v.add(i, id, "billing_minimum_seconds needs billing_minimum_source (the provider's page and the date read)")
	}
	// So is an account rule: a provider's own terms, with their page.
	if p.AccountsLocalOnly && p.AccountsLocalSource == "" {
		v.add(i, id, "accounts_local_only needs accounts_local_source (the provider's page and the date read)")
	}
	return catalog.Provider{
		ID: p.ID, Name: p.Name, Kind: p.Kind, Country: p.Country, Currency: p.Currency, URL: p.URL,
		PricesIncludeVAT: p.PricesIncludeVAT, VATRate: p.VATRate, Source: p.Source, AsOf: p.AsOf, AsOfEstimated: p.AsOfEstimated, Notes: p.Notes,
		BillingMinimumSeconds: p.BillingMinimumSeconds, BillingMinimumSource: p.BillingMinimumSource,
		AccountsLocalOnly: p.AccountsLocalOnly, AccountsLocalSource: p.AccountsLocalSource,
	}
}

// SameRegionPrice is what an offer's notes say where one price holds in
// each region it lists.
const SameRegionPrice = "same price in"

// regionOffers reports a region two offers of one instance type at one
// provider both list: which price holds there would be a guess.
func regionOffers(v *validator, offers []offerJSON) {
	type key struct{ provider, instance, region string }
	first := map[key]int{}
	for i, o := range offers {
		for _, r := range o.Regions {
			k := key{o.Provider, o.InstanceType, r}
			if j, ok := first[k]; ok {
				v.add(i, o.ID, "region %s: %s also prices %s there (entry %d)", r, offers[j].ID, o.InstanceType, j)
				continue
			}
			first[k] = i
		}
	}
}

func convertOffer(v *validator, i int, o offerJSON, gpus map[string]catalog.GPU, providers map[string]catalog.Provider) catalog.Offer {
	id := o.ID
	v.nonEmpty(i, id, "instance_type", o.InstanceType)
	v.nonEmpty(i, id, "source", o.Source)
	v.date(i, id, "as_of", o.AsOf)
	if o.AsOfLowerBound && !o.AsOfEstimated {
		// A bound is what an estimated date rests on; a dated price needs none.
		v.add(i, id, "as_of_lower_bound without as_of_estimated: a dated price is its own date")
	}
	if _, ok := providers[o.Provider]; !ok {
		v.add(i, id, "provider %q is not in %s", o.Provider, ProvidersFile)
	} else if !strings.HasPrefix(o.ID, o.Provider+"-") {
		v.add(i, id, "id must start with the provider id %q", o.Provider+"-")
	}
	g, gpuOK := gpus[o.GPU]
	if !gpuOK {
		v.add(i, id, "gpu %q is not in %s", o.GPU, GPUsFile)
	}
	if !(o.GPUCount > 0 && o.GPUCount <= 16) {
		v.add(i, id, "gpu_count %v out of range (0, 16]", o.GPUCount)
	}
	if gpuOK && o.GPUMemoryGB != 0 {
		// Per GPU, in GB or GiB as the provider wrote it, rounded.
		if math.Abs(o.GPUMemoryGB-g.Memory.GB()) > 0.5 && math.Abs(o.GPUMemoryGB-g.Memory.GiB()) > 0.5 {
			v.add(i, id, "gpu_memory_gb %v does not match %s memory %.4g GiB", o.GPUMemoryGB, o.GPU, g.Memory.GiB())
		}
	}
	v.rangeF(i, id, "vcpus", float64(o.VCPUs), 0, 1024)
	ram := o.RAMGiB
	if o.RAMGB != 0 {
		if o.RAMGiB != 0 {
			v.add(i, id, "give ram_gib or ram_gb, not both")
		}
		ram = o.RAMGB * float64(estimator.GB) / float64(estimator.GiB)
	}
	v.rangeF(i, id, "ram", ram, 0, 32768)
	if o.Interconnect != "" && !interconnects[o.Interconnect] {
		v.add(i, id, "interconnect %q must be one of nvlink, pcie, infinity-fabric, roce or empty", o.Interconnect)
	}
	if !isUpper(o.Currency, 3) {
		v.add(i, id, "currency %q must be an ISO 4217 code", o.Currency)
	}
	if o.BillingGranularity != "" && !slices.Contains(catalog.BillingGranularities, o.BillingGranularity) {
		v.add(i, id, "billing_granularity %q must be %s", o.BillingGranularity, strings.Join(catalog.BillingGranularities, ", "))
	}
	for _, r := range o.Regions {
		if strings.TrimSpace(r) == "" {
			v.add(i, id, "regions has an empty name")
		}
		v.name(i, id, "region", r)
	}
	// An offer's prices are one region's: a provider that prices its
	// regions apart (AWS China's Beijing at 1.4× Ningxia) has one offer a
	// region, each with its own price and source. Several regions share
	// an offer only where its notes say the source lists one price in
	// each.
	if len(o.Regions) > 1 && !strings.Contains(o.Notes, SameRegionPrice) {
		v.add(i, id, "regions lists %d regions at one price: give each region its own offer (%s-%s), or say in notes that the source lists %q",
			len(o.Regions), id, o.Regions[1], SameRegionPrice+" each region")
	}
	v.name(i, id, "provider", o.Provider)
	v.name(i, id, "instance_type", o.InstanceType)
	v.name(i, id, "gpu", o.GPU)
	v.name(i, id, "spot_region", o.SpotRegion)
	v.name(i, id, "underlying_provider", o.UnderlyingProvider)
	prices := []struct {
		field string
		x     float64
		hours float64
	}{
		{"on_demand_per_hour", o.OnDemandPerHour, 1}, {"spot_per_hour", o.SpotPerHour, 1},
		{"reserved_1y_per_hour", o.Reserved1yPerHour, 1}, {"reserved_3y_per_hour", o.Reserved3yPerHour, 1},
		{"monthly_price", o.MonthlyPrice, 730},
	}
	any := false
	_, knownCur := currencyPerUSD[o.Currency]
	if !knownCur && isUpper(o.Currency, 3) {
		v.add(i, id, "currency %s has no plausibility range; add it to currencyPerUSD", o.Currency)
	}
	for _, p := range prices {
		if math.IsNaN(p.x) || p.x < 0 {
			v.add(i, id, "%s %v must be >= 0", p.field, p.x)
			continue
		}
		if p.x == 0 {
			continue
		}
		any = true
		if !gpuOK || !knownCur || o.GPUCount <= 0 {
			continue
		}
		// The page checks a user's price sheet with the same rule.
		if why := catalog.ImplausiblePrice(catalog.OfferPrice{Field: p.field, X: p.x, Hours: p.hours}, g, o.GPUCount, o.Currency); why != "" {
			v.add(i, id, "%s", why)
		}
	}
	if !any {
		v.add(i, id, "no price: need at least one of on_demand_per_hour, spot_per_hour, reserved_*_per_hour, monthly_price")
	}
	if o.OnDemandPerHour > 0 {
		if o.SpotPerHour > o.OnDemandPerHour && !o.SpotAboveOnDemand {
			v.add(i, id, "spot_per_hour %v > on_demand_per_hour %v", o.SpotPerHour, o.OnDemandPerHour)
		}
		for _, r := range []struct {
			field string
			x     float64
		}{{"reserved_1y_per_hour", o.Reserved1yPerHour}, {"reserved_3y_per_hour", o.Reserved3yPerHour}} {
			if r.x > o.OnDemandPerHour {
				v.add(i, id, "%s %v > on_demand_per_hour %v", r.field, r.x, o.OnDemandPerHour)
			}
			if r.x > 0 && !commitPlausible(o.Provider, r.x, o.OnDemandPerHour) {
				v.add(i, id, "%s %v is %.0f%% under on_demand_per_hour %v, past the %.0f%% %s publishes as its deepest commitment discount",
					r.field, r.x, 100*(1-r.x/o.OnDemandPerHour), o.OnDemandPerHour, 100*maxCommitDiscount[o.Provider], o.Provider)
			}
		}
	}
	v.rangeF(i, id, "network_gbps", o.NetworkGbps, 0, 100000)
	if o.NetworkFabric != "" && !fabrics[o.NetworkFabric] {
		v.add(i, id, "network_fabric %q must be efa, infiniband, roce, ethernet or empty", o.NetworkFabric)
	}
	v.nvlinkRack(i, id, o, g, gpuOK)
	v.rentalUnit(i, id, o)
	if o.SpotInterruption != "" {
		if !spotBuckets[o.SpotInterruption] {
			v.add(i, id, "spot_interruption %q must be <5%%, 5-10%%, 10-15%%, 15-20%% or >20%%", o.SpotInterruption)
		}
		if o.SpotInterruptionSource == "" {
			v.add(i, id, "spot_interruption needs spot_interruption_source")
		}
	}
	if o.SpotAboveOnDemand && o.Notes == "" {
		v.add(i, id, "spot_above_on_demand needs a note")
	}
	return catalog.Offer{
		ID: o.ID, Provider: o.Provider, InstanceType: o.InstanceType, GPU: o.GPU, GPUCount: o.GPUCount,
		VCPUs: o.VCPUs, RAMGiB: math.Round(ram*100) / 100, Interconnect: o.Interconnect,
		NetworkGbps: o.NetworkGbps, NetworkFabric: o.NetworkFabric,
		NVLinkDomain: o.NVLinkDomain, NVLinkDomainSource: o.NVLinkDomainSource,
		RentalUnitInstances: o.RentalUnitInstances, RentalUnitSource: o.RentalUnitSource,
		SpotInterruption: o.SpotInterruption, SpotInterruptionSource: o.SpotInterruptionSource,
		OnDemandPerHour: o.OnDemandPerHour, SpotPerHour: o.SpotPerHour,
		Reserved1yPerHour: o.Reserved1yPerHour, Reserved3yPerHour: o.Reserved3yPerHour,
		MonthlyPrice: o.MonthlyPrice, Currency: o.Currency, BillingGranularity: o.BillingGranularity,
		Regions: o.Regions, SpotRegion: o.SpotRegion, UnderlyingProvider: o.UnderlyingProvider,
		AsOf: o.AsOf, AsOfEstimated: o.AsOfEstimated, AsOfLowerBound: o.AsOfLowerBound, Source: o.Source, Notes: o.Notes,
		PriceOpen: catalog.NotesLeavePriceOpen(o.Notes),
	}
}

// nvlinkRack checks offer o's nvlink_domain, the GPUs its trays share
// NVLink with (catalog.Offer.NVLinkDomain): whole instances of NVLink-
// connected GPUs, more than one instance and at most the GPU's own NVLink
// reach (gpus.json nvlink_domain: 72 for GB200 NVL72), with the provider's
// statement that it joins them (nvlink_domain_source).
func (v *validator) nvlinkRack(i int, id string, o offerJSON, g catalog.GPU, gpuOK bool) {
	d := o.NVLinkDomain
	switch {
	case d == 0:
		if o.NVLinkDomainSource != "" {
			v.add(i, id, "nvlink_domain_source without nvlink_domain")
		}
		return
	case o.NVLinkDomainSource == "":
		v.add(i, id, "nvlink_domain %d needs nvlink_domain_source (where the provider says its instances share the rack's NVLink)", d)
	}
	if ic := cmp.Or(o.Interconnect, g.Interconnect); ic != "nvlink" {
		v.add(i, id, "nvlink_domain %d on GPUs joined by %q, not NVLink", d, ic)
	}
	if n := int(o.GPUCount); float64(n) != o.GPUCount || n < 1 || d <= n || d%n != 0 {
		v.add(i, id, "nvlink_domain %d must be a multiple (2 or more) of the instance's %v GPUs", d, o.GPUCount)
	}
	if gpuOK && d > g.NVLinkDomain {
		v.add(i, id, "nvlink_domain %d is past %s's own NVLink domain of %d GPUs", d, o.GPU, g.NVLinkDomain)
	}
}

// rentalUnit checks offer o's rental_unit_instances, the instances the
// provider rents together (catalog.Offer.RentalUnitInstances): 1 or more
// where given, with the provider's statement of it (rental_unit_source),
// as a billing minimum needs its source.
func (v *validator) rentalUnit(i int, id string, o offerJSON) {
	u := o.RentalUnitInstances
	switch {
	case u == 0:
		if o.RentalUnitSource != "" {
			v.add(i, id, "rental_unit_source without rental_unit_instances")
		}
		return
	case u < 1:
		v.add(i, id, "rental_unit_instances %d must be 1 or more", u)
	}
	if o.RentalUnitSource == "" {
		v.add(i, id, "rental_unit_instances %d needs rental_unit_source (where the provider says it rents its instances that many at a time)", u)
	}
}

// checkCount compares the estimator's parameter count with the published
// one. A published count is as precise as its last significant digit:
// "8B" allows 1e9 either way (publishers round and truncate), an exact
// count like 8,030,261,248 allows 0.1% (the estimator's layer-by-layer count
// must match the checkpoint's tensors). tol, when set, is a wider relative
// tolerance the record explains in its notes.
func checkCount(v *validator, i int, id, field string, published, parsed int64, tol float64) {
	if published <= 0 {
		return
	}
	unit := int64(1)
	for p := published; p%10 == 0 && p > 0; p /= 10 {
		unit *= 10
	}
	allowed := max(float64(unit), 0.001*float64(published), tol*float64(published))
	if d := math.Abs(float64(parsed - published)); d > allowed {
		v.add(i, id, "%s %d but estimator.ParseConfig counts %d (off by %.2f%%, allowed %.0f)",
			field, published, parsed, 100*d/float64(published), allowed)
	}
}

// migProfile reports whether p looks like an NVIDIA MIG profile name:
// "<n>g.<m>gb", optionally with "+me" or "+gfx" suffixes.
func migProfile(p string) bool {
	base, _, _ := strings.Cut(p, "+")
	g, mem, ok := strings.Cut(base, ".")
	return ok && strings.HasSuffix(g, "g") && len(g) >= 2 && strings.HasSuffix(mem, "gb") && len(mem) >= 3
}

// spotBuckets and fabrics are catalog.SpotBuckets and catalog.NetworkFabrics as sets.
var spotBuckets, fabrics = set(catalog.SpotBuckets), set(catalog.NetworkFabrics)

// maxCommitDiscount is the deepest commitment discount off on-demand a
// provider publishes for GPU machines, by provider ID: a reserved price
// deeper than it is a transcription or composition error, not a price.
// gcp: "The discount is up to 57% for most resources like machine types
// or GPUs. The discount is up to 70% for memory-optimized machine types"
// (Google Cloud, "Resource-based committed use discounts",
// cloud.google.com/compute/docs/instances/signing-up-committed-use-discounts,
// read 2026-11-30); GPU machines are not memory-optimized ones. Half a
// point of slack covers a composed price's rounding.
var maxCommitDiscount = map[string]float64{"gcp": 0.57}

// commitPlausible is whether a commitment price x is within the discount
// off on-demand od that provider publishes (maxCommitDiscount); true where
// it publishes none the catalog records.
func commitPlausible(provider string, x, od float64) bool {
	most, ok := maxCommitDiscount[provider]
	return !ok || od <= 0 || 1-x/od <= most+0.005
}

func set(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func convertFX(v *validator, i int, r fxJSON, seen map[string]int) catalog.FXRate {
	id := r.Currency
	if !isUpper(r.Currency, 3) {
		v.add(i, id, "currency %q must be an ISO 4217 code", r.Currency)
	}
	if j, dup := seen[r.Currency]; dup {
		v.add(i, id, "duplicate currency (also entry %d)", j)
	}
	seen[r.Currency] = i
	v.nonEmpty(i, id, "source", r.Source)
	v.date(i, id, "as_of", r.AsOf)
	if r.Currency == "USD" && r.PerUSD != 1 {
		v.add(i, id, "per_usd must be 1 for USD")
	}
	if band, ok := currencyPerUSD[r.Currency]; ok && r.Currency != "USD" {
		v.rangeF(i, id, "per_usd", r.PerUSD, band[0], band[1])
	} else if !(r.PerUSD > 0 && r.PerUSD < 1e6) {
		v.add(i, id, "per_usd %v must be > 0", r.PerUSD)
	}
	return catalog.FXRate{Currency: r.Currency, PerUSD: r.PerUSD, AsOf: r.AsOf, Source: r.Source}
}

func convertHosted(v *validator, i int, h hostedJSON, models map[string]bool) catalog.HostedAPIPrice {
	id := h.ID
	v.nonEmpty(i, id, "provider", h.Provider)
	v.nonEmpty(i, id, "model", h.Model)
	v.nonEmpty(i, id, "source", h.Source)
	v.date(i, id, "as_of", h.AsOf)
	if h.ModelID != "" && !models[h.ModelID] {
		v.add(i, id, "model_id %q is not in %s", h.ModelID, ModelsFile)
	}
	if !isUpper(h.Currency, 3) {
		v.add(i, id, "currency %q must be an ISO 4217 code", h.Currency)
	}
	v.rangeF(i, id, "input_per_million", h.InputPerMillion, 0, 1000)
	v.rangeF(i, id, "output_per_million", h.OutputPerMillion, 0, 1000)
	if h.InputPerMillion == 0 && h.OutputPerMillion == 0 {
		v.add(i, id, "no price: input_per_million and output_per_million are both 0")
	}
	return catalog.HostedAPIPrice{ID: h.ID, Provider: h.Provider, Model: h.Model, ModelID: h.ModelID,
		InputPerMillion: h.InputPerMillion, OutputPerMillion: h.OutputPerMillion, Currency: h.Currency,
		AsOf: h.AsOf, Source: h.Source}
}
