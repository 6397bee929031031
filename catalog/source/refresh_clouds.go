package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"rightsize/catalog"
)

// The hyperscalers' public price sources: AWS Price List bulk offer files
// and Spot data, the Azure Retail Prices API, Google's Cloud Billing Catalog
// API (needs an API key) and Oracle's price list API. Each parser reads the
// documented response format; the fixtures under testdata/refresh are
// trimmed responses in that format.

var allPrices = []string{"on_demand_per_hour", "spot_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour"}

// ---- AWS -----------------------------------------------------------------

const (
	awsPricingHost = "https://pricing.us-east-1.amazonaws.com"
	awsRegionIndex = awsPricingHost + "/offers/v1.0/aws/AmazonEC2/current/region_index.json"
	awsSpotPrices  = "https://website.spot.ec2.aws.a2z.com/spot.js"
	awsSpotAdvisor = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"
)

// AWSRegions are the regions whose offer files the AWS adapter reads
// (each us-east-1 file is several GB; RIGHTSIZE_AWS_REGIONS overrides).
var AWSRegions = []string{"us-east-1", "us-west-2"}

// awsProduct and awsTerm are the parts of an AWS Price List offer file
// (index.json) the adapter reads: products by SKU, and each SKU's OnDemand
// and Reserved terms.
type awsProduct struct {
	SKU           string `json:"sku"`
	ProductFamily string `json:"productFamily"`
	Attributes    struct {
		InstanceType    string `json:"instanceType"`
		RegionCode      string `json:"regionCode"`
		OperatingSystem string `json:"operatingSystem"`
		Tenancy         string `json:"tenancy"`
		PreInstalledSw  string `json:"preInstalledSw"`
		CapacityStatus  string `json:"capacitystatus"`
		GPU             string `json:"gpu"`
	} `json:"attributes"`
}

type awsTerm struct {
	PriceDimensions map[string]struct {
		Unit         string            `json:"unit"`
		PricePerUnit map[string]string `json:"pricePerUnit"`
	} `json:"priceDimensions"`
	TermAttributes struct {
		LeaseContractLength string `json:"LeaseContractLength"`
		OfferingClass       string `json:"OfferingClass"`
		PurchaseOption      string `json:"PurchaseOption"`
	} `json:"termAttributes"`
}

// awsRates are one instance type's Linux, shared-tenancy prices in one region.
type awsRates struct {
	od, y1, y3     float64
	y1conv, y3conv float64
	y1IsConv       bool
}

// ParseAWSOffer reads an AWS Price List EC2 offer file and returns, per
// region code and instance type with GPUs, the Linux shared-tenancy
// on-demand rate and the 1- and 3-year Standard Reserved Instance All
// Upfront effective hourly rates (upfront / term hours + hourly), or the
// Convertible ones where a type has no Standard RI. A region's file lists
// its Local Zones' products too, under their own region codes
// (cn-north-1-pkx-1 in cn-north-1's), each at its own price.
func ParseAWSOffer(data []byte, src string) (rates map[string]map[string]awsRates, err error) {
	return ParseAWSOfferStream(bytes.NewReader(data), src)
}

// ParseAWSOfferStream is ParseAWSOffer on a stream: it decodes one product
// and one SKU's terms at a time and keeps only GPU instances, so a
// multi-gigabyte offer file needs little memory. Products come before terms
// in the documented format; terms of SKUs not kept are skipped.
func ParseAWSOfferStream(r io.Reader, src string) (rates map[string]map[string]awsRates, err error) {
	dec := json.NewDecoder(r)
	bad := func(format string, a ...any) error { return schemaErr(src, format, a...) }
	delim := func(want json.Delim) error {
		t, err := dec.Token()
		if err != nil {
			return bad("%v", err)
		}
		if d, ok := t.(json.Delim); !ok || d != want {
			return bad("want %v, got %v", want, t)
		}
		return nil
	}
	key := func() (string, error) {
		t, err := dec.Token()
		if err != nil {
			return "", bad("%v", err)
		}
		k, ok := t.(string)
		if !ok {
			return "", bad("want a key, got %v", t)
		}
		return k, nil
	}
	skip := func() error {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad("%v", err)
		}
		return nil
	}
	products := map[string]awsProduct{}
	onDemand := map[string]map[string]awsTerm{}
	reserved := map[string]map[string]awsTerm{}
	sawProducts := false
	if err := delim('{'); err != nil {
		return nil, err
	}
	for dec.More() {
		k, err := key()
		if err != nil {
			return nil, err
		}
		switch k {
		case "products":
			sawProducts = true
			if err := delim('{'); err != nil {
				return nil, err
			}
			for dec.More() {
				sku, err := key()
				if err != nil {
					return nil, err
				}
				var p awsProduct
				if err := dec.Decode(&p); err != nil {
					return nil, bad("product %s: %v", sku, err)
				}
				a := p.Attributes
				if strings.HasPrefix(p.ProductFamily, "Compute Instance") && a.OperatingSystem == "Linux" && a.Tenancy == "Shared" &&
					a.PreInstalledSw == "NA" && (a.CapacityStatus == "" || a.CapacityStatus == "Used") && a.GPU != "" && a.GPU != "0" {
					products[sku] = p
				}
			}
			if err := delim('}'); err != nil {
				return nil, err
			}
		case "terms":
			if err := delim('{'); err != nil {
				return nil, err
			}
			for dec.More() {
				kind, err := key()
				if err != nil {
					return nil, err
				}
				into := map[string]map[string]map[string]awsTerm{"OnDemand": onDemand, "Reserved": reserved}[kind]
				if into == nil {
					if err := skip(); err != nil {
						return nil, err
					}
					continue
				}
				if err := delim('{'); err != nil {
					return nil, err
				}
				for dec.More() {
					sku, err := key()
					if err != nil {
						return nil, err
					}
					if _, ok := products[sku]; !ok {
						if err := skip(); err != nil {
							return nil, err
						}
						continue
					}
					var m map[string]awsTerm
					if err := dec.Decode(&m); err != nil {
						return nil, bad("terms of %s: %v", sku, err)
					}
					into[sku] = m
				}
				if err := delim('}'); err != nil {
					return nil, err
				}
			}
			if err := delim('}'); err != nil {
				return nil, err
			}
		default:
			if err := skip(); err != nil {
				return nil, err
			}
		}
	}
	if err := delim('}'); err != nil {
		return nil, err
	}
	if !sawProducts {
		return nil, bad("no products")
	}
	rates = map[string]map[string]awsRates{}
	for sku, p := range products {
		a := p.Attributes
		if rates[a.RegionCode] == nil {
			rates[a.RegionCode] = map[string]awsRates{}
		}
		r := rates[a.RegionCode][a.InstanceType]
		for _, t := range onDemand[sku] {
			for _, d := range t.PriceDimensions {
				if x := usd(d.PricePerUnit); d.Unit == "Hrs" && x > 0 {
					r.od = x
				}
			}
		}
		for _, t := range reserved[sku] {
			ta := t.TermAttributes
			years := map[string]float64{"1yr": 1, "3yr": 3}[ta.LeaseContractLength]
			if years == 0 || ta.PurchaseOption != "All Upfront" || ta.OfferingClass != "standard" && ta.OfferingClass != "convertible" {
				continue
			}
			eff := 0.0
			for _, d := range t.PriceDimensions {
				switch d.Unit {
				case "Quantity":
					eff += usd(d.PricePerUnit) / (8760 * years)
				case "Hrs":
					eff += usd(d.PricePerUnit)
				}
			}
			// Standard RIs are the cheaper commitment; a Convertible rate is
			// kept only where the type has no Standard one (p5.48xlarge).
			dst, conv := &r.y1, &r.y1conv
			if years == 3 {
				dst, conv = &r.y3, &r.y3conv
			}
			if ta.OfferingClass == "convertible" {
				dst = conv
			}
			*dst = round6(eff)
		}
		rates[a.RegionCode][a.InstanceType] = r
	}
	for _, byType := range rates {
		for it, r := range byType {
			if r.y1 == 0 {
				r.y1, r.y1IsConv = r.y1conv, r.y1conv > 0
			}
			if r.y3 == 0 {
				r.y3 = r.y3conv
			}
			byType[it] = r
		}
	}
	return rates, nil
}

func usd(p map[string]string) float64 {
	v, ok := p["USD"]
	if !ok {
		v = p["CNY"] // the AWS China price list
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0
	}
	return x
}

// awsSpot is AWS's public spot price feed (spot.js, a JSONP callback).
type awsSpot struct {
	Config struct {
		Regions []struct {
			Region        string `json:"region"`
			InstanceTypes []struct {
				Sizes []struct {
					Size         string `json:"size"`
					ValueColumns []struct {
						Name   string            `json:"name"`
						Prices map[string]string `json:"prices"`
					} `json:"valueColumns"`
				} `json:"sizes"`
			} `json:"instanceTypes"`
		} `json:"regions"`
	} `json:"config"`
}

// ParseAWSSpot reads spot.js ("callback({...});") and returns the Linux
// spot price per instance type and region.
func ParseAWSSpot(data []byte) (map[string]map[string]float64, error) {
	s := bytes.TrimSpace(data)
	if i := bytes.IndexByte(s, '('); i >= 0 && bytes.HasSuffix(bytes.TrimRight(s, ";"), []byte(")")) {
		s = bytes.TrimRight(s, ";")
		s = s[i+1 : len(s)-1]
	}
	var v awsSpot
	if err := json.Unmarshal(s, &v); err != nil {
		return nil, schemaErr(awsSpotPrices, "%v", err)
	}
	out := map[string]map[string]float64{}
	for _, r := range v.Config.Regions {
		for _, it := range r.InstanceTypes {
			for _, sz := range it.Sizes {
				for _, c := range sz.ValueColumns {
					if c.Name != "linux" {
						continue
					}
					if x := usd(c.Prices); x > 0 {
						if out[sz.Size] == nil {
							out[sz.Size] = map[string]float64{}
						}
						out[sz.Size][r.Region] = x
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, schemaErr(awsSpotPrices, "no Linux spot prices")
	}
	return out, nil
}

// ParseAWSSpotAdvisor reads the Spot Instance Advisor data and returns the
// interruption bucket label per region and instance type (Linux).
func ParseAWSSpotAdvisor(data []byte) (map[string]map[string]string, error) {
	var v struct {
		Ranges []struct {
			Index int    `json:"index"`
			Label string `json:"label"`
		} `json:"ranges"`
		SpotAdvisor map[string]map[string]map[string]struct {
			R int `json:"r"`
		} `json:"spot_advisor"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, schemaErr(awsSpotAdvisor, "%v", err)
	}
	label := map[int]string{}
	for _, r := range v.Ranges {
		label[r.Index] = strings.ReplaceAll(r.Label, " ", "")
	}
	out := map[string]map[string]string{}
	for region, oss := range v.SpotAdvisor {
		for it, a := range oss["Linux"] {
			if l := label[a.R]; slices.Contains(catalog.SpotBuckets, l) {
				if out[region] == nil {
					out[region] = map[string]string{}
				}
				out[region][it] = l
			}
		}
	}
	if len(out) == 0 {
		return nil, schemaErr(awsSpotAdvisor, "no Linux buckets")
	}
	return out, nil
}

func fetchAWS(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	return fetchAWSList(ctx, f, known, awsPricingHost, awsRegionIndex, AWSRegions, "RIGHTSIZE_AWS_REGIONS", true, false)
}

// AWS China publishes its price list in CNY from its own endpoint; the
// spot feed and Spot Advisor cover the global regions only. Its regions
// are priced apart (Beijing's on-demand about 1.4× Ningxia's in the
// 2026-01-21 list), so each region's price is its own offer
// (RegionalOfferID).
const (
	awsCNPricingHost = "https://pricing.cn-north-1.amazonaws.com.cn"
	awsCNRegionIndex = awsCNPricingHost + "/offers/v1.0/cn/AmazonEC2/current/region_index.json"
)

func fetchAWSChina(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	return fetchAWSList(ctx, f, known, awsCNPricingHost, awsCNRegionIndex, []string{"cn-north-1", "cn-northwest-1"}, "", false, true)
}

// RegionalOfferID is the ID of the offer of o's provider and instance type
// in region, where the provider prices its regions apart, one offer a
// region: the known offer of the type that lists the region; else, as
// catalog/internal/bootstrap names such offers (from_snapshot.py,
// aws_vantage.py), the type's plain ID (catalog.OfferIDFor) where the
// source prices it in this region alone and no offer has that ID, or the
// plain ID and the region ("aws-cn-g5.xlarge-cn-north-1").
func RegionalOfferID(known []catalog.Offer, o catalog.Offer, region string, regions int) string {
	for _, k := range known {
		if k.Provider == o.Provider && k.InstanceType == o.InstanceType && slices.Contains(k.Regions, region) {
			return k.ID
		}
	}
	id := catalog.OfferIDFor(o.Provider, o.InstanceType)
	if regions == 1 && !slices.ContainsFunc(known, func(k catalog.Offer) bool { return k.ID == id }) {
		return id
	}
	return catalog.OfferIDFor(o.Provider, o.InstanceType+" "+region)
}

// fetchAWSList reads the offer files of the regions (regionsEnv, when set,
// names them instead). Each instance type is quoted once, at its cheapest
// region's on-demand price, or with perRegion once a region
// (RegionalOfferID), each region's rates its own.
func fetchAWSList(ctx context.Context, f *Fetcher, known []catalog.Offer, host, index string, defRegions []string, regionsEnv string, withSpot, perRegion bool) ([]Quote, []string, error) {
	awsRegionIndex, awsPricingHost := index, host
	idx, err := f.Get(ctx, awsRegionIndex, nil)
	if err != nil {
		return nil, nil, err
	}
	var ri struct {
		Regions map[string]struct {
			CurrentVersionURL string `json:"currentVersionUrl"`
		} `json:"regions"`
	}
	if err := json.Unmarshal(idx, &ri); err != nil || len(ri.Regions) == 0 {
		return nil, nil, schemaErr(awsRegionIndex, "no regions (%v)", err)
	}
	regions := defRegions
	if s := f.getenv(regionsEnv); regionsEnv != "" && s != "" {
		regions = strings.Split(s, ",")
	}
	type best struct {
		region string
		awsRates
	}
	byType := map[string]best{}
	byRegion := map[string][]best{} // each region's rates by type (perRegion)
	var skipped []string
	for _, region := range regions {
		r, ok := ri.Regions[region]
		if !ok {
			skipped = append(skipped, "region "+region+" is not in the region index")
			continue
		}
		u := awsPricingHost + r.CurrentVersionURL
		var rates map[string]map[string]awsRates
		err := f.Stream(ctx, u, func(body io.Reader) (err error) {
			rates, err = ParseAWSOfferStream(body, u)
			return err
		})
		if err != nil {
			return nil, skipped, err
		}
		for _, code := range sortedKeys(rates) {
			for it, x := range rates[code] {
				if x.od <= 0 {
					continue
				}
				byRegion[it] = append(byRegion[it], best{code, x})
				if b, ok := byType[it]; !ok || x.od < b.od {
					byType[it] = best{code, x}
				}
			}
		}
	}
	spot, spotErr := map[string]map[string]float64{}, error(nil)
	advisor := map[string]map[string]string{}
	if !withSpot {
		spotErr = errNoSpot
	} else if b, err := f.Get(ctx, awsSpotPrices, nil); err == nil {
		spot, spotErr = ParseAWSSpot(b)
	} else {
		spotErr = err
	}
	if !withSpot {
	} else if b, err := f.Get(ctx, awsSpotAdvisor, nil); err == nil {
		if a, err := ParseAWSSpotAdvisor(b); err == nil {
			advisor = a
		} else {
			skipped = append(skipped, "spot advisor: "+err.Error())
		}
	} else {
		skipped = append(skipped, "spot advisor: "+err.Error())
	}
	if spotErr != nil && withSpot {
		skipped = append(skipped, "spot prices not refreshed: "+spotErr.Error())
	}
	var out []Quote
	quote := func(o catalog.Offer, b best) Quote {
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: b.od, Region: b.region,
			AsOf: f.AsOf(), Source: fmt.Sprintf("AWS Price List bulk API (%s), AmazonEC2 offer files (%s), Linux shared tenancy, fetched %s", host, strings.Join(regions, ", "), f.AsOf()),
			Notes: "on-demand: cheapest of the regions read; reserved: Standard RI All Upfront effective hourly in the same region"}}
		if perRegion {
			q.Notes = "on-demand and reserved (Standard RI All Upfront effective hourly) in " + b.region + " alone; none where the region lists none"
		}
		// A reserved rate above the on-demand one is not a commitment
		// anyone buys: left out.
		if b.y1 > 0 && b.y1 <= b.od {
			q.Reserved1yPerHour = b.y1
			if b.y1IsConv {
				q.Notes += "; 1-year rate is a Convertible RI (no Standard 1-year RI listed)"
			}
		}
		if b.y3 > 0 && b.y3 <= b.od {
			q.Reserved3yPerHour = b.y3
		}
		return q
	}
	if perRegion {
		// One offer a region. An offer of the type in another region
		// lends a region new to the catalog its GPU and host.
		done := map[string]bool{}
		for _, o := range known {
			if done[o.InstanceType] {
				continue
			}
			done[o.InstanceType] = true
			rs := byRegion[o.InstanceType]
			slices.SortFunc(rs, func(a, b best) int { return strings.Compare(a.region, b.region) })
			for _, b := range rs {
				q := quote(o, b)
				q.OfferID = RegionalOfferID(known, o, b.region, len(rs))
				if !slices.ContainsFunc(known, func(k catalog.Offer) bool { return k.ID == q.OfferID }) {
					q.GPU, q.GPUCount, q.Currency = o.GPU, o.GPUCount, o.Currency
					q.VCPUs, q.RAMGiB, q.NetworkGbps, q.NetworkFabric, q.BillingGranularity = float64(o.VCPUs), o.RAMGiB, o.NetworkGbps, o.NetworkFabric, o.BillingGranularity
				}
				out = append(out, q)
			}
		}
		return out, skippedTypes(skipped, byType, known), nil
	}
	for _, o := range known {
		b, ok := byType[o.InstanceType]
		if !ok {
			continue
		}
		q := quote(o, b)
		q.KeepSpot = spotErr != nil
		if spotErr == nil {
			for region, x := range spot[o.InstanceType] {
				if x <= b.od && (q.SpotPerHour == 0 || x < q.SpotPerHour || x == q.SpotPerHour && region < q.SpotRegion) {
					q.SpotPerHour, q.SpotRegion = x, region
				}
			}
			q.SpotInterruption = advisor[q.SpotRegion][o.InstanceType]
		}
		out = append(out, q)
	}
	return out, skippedTypes(skipped, byType, known), nil
}

// skippedTypes adds to skipped the instance types the offer files price
// that the catalog has no offer of, sorted.
func skippedTypes[T any](skipped []string, byType map[string]T, known []catalog.Offer) []string {
	for it := range byType {
		if !slices.ContainsFunc(known, func(o catalog.Offer) bool { return o.InstanceType == it }) {
			skipped = append(skipped, it+": GPU instance type not in the catalog (the offer files do not name the GPU model); add it by hand")
		}
	}
	slices.Sort(skipped)
	return skipped
}

func (f *Fetcher) getenv(k string) string {
	if f.Getenv == nil {
		return ""
	}
	return f.Getenv(k)
}

var errNoSpot = errors.New("no spot feed")

// ---- Azure ---------------------------------------------------------------

const azureRetail = "https://prices.azure.com/api/retail/prices"

// azurePage is one page of the Azure Retail Prices API.
type azurePage struct {
	Items []struct {
		CurrencyCode    string  `json:"currencyCode"`
		RetailPrice     float64 `json:"retailPrice"`
		UnitPrice       float64 `json:"unitPrice"`
		ArmRegionName   string  `json:"armRegionName"`
		ProductName     string  `json:"productName"`
		SkuName         string  `json:"skuName"`
		ServiceName     string  `json:"serviceName"`
		UnitOfMeasure   string  `json:"unitOfMeasure"`
		Type            string  `json:"type"`
		ArmSkuName      string  `json:"armSkuName"`
		ReservationTerm string  `json:"reservationTerm"`
		SavingsPlan     []struct {
			UnitPrice float64 `json:"unitPrice"`
			Term      string  `json:"term"`
		} `json:"savingsPlan"`
	} `json:"Items"`
	NextPageLink *string `json:"NextPageLink"`
	Count        int     `json:"Count"`
}

// azureRates are one VM size's Linux prices in one region.
type azureRates struct{ od, spot, y1, y3, sp1 float64 }

// ParseAzurePage reads one Retail Prices API page into rates by armSkuName
// and region, and returns the next page's link ("" at the end).
func ParseAzurePage(data []byte, src string, into map[string]map[string]*azureRates) (next string, err error) {
	var p azurePage
	if err := json.Unmarshal(data, &p); err != nil {
		return "", schemaErr(src, "%v", err)
	}
	if p.Items == nil {
		return "", schemaErr(src, "no Items array")
	}
	for _, it := range p.Items {
		if it.CurrencyCode != "USD" || it.ServiceName != "Virtual Machines" || strings.Contains(it.ProductName, "Windows") ||
			strings.Contains(it.SkuName, "Low Priority") || it.ArmSkuName == "" || it.UnitPrice <= 0 {
			continue
		}
		if into[it.ArmSkuName] == nil {
			into[it.ArmSkuName] = map[string]*azureRates{}
		}
		r := into[it.ArmSkuName][it.ArmRegionName]
		if r == nil {
			r = &azureRates{}
			into[it.ArmSkuName][it.ArmRegionName] = r
		}
		switch it.Type {
		case "Consumption":
			if it.UnitOfMeasure != "1 Hour" {
				continue
			}
			if strings.HasSuffix(it.SkuName, " Spot") {
				r.spot = it.UnitPrice
			} else {
				r.od = it.UnitPrice
				for _, s := range it.SavingsPlan {
					if s.Term == "1 Year" && s.UnitPrice > 0 {
						r.sp1 = s.UnitPrice
					}
				}
			}
		case "Reservation":
			// A reservation's unitPrice is the whole term's price.
			switch it.ReservationTerm {
			case "1 Year":
				r.y1 = round6(it.UnitPrice / 8760)
			case "3 Years":
				r.y3 = round6(it.UnitPrice / (3 * 8760))
			}
		}
	}
	if p.NextPageLink != nil {
		next = *p.NextPageLink
	}
	return next, nil
}

// AzureMaxPages bounds one query's pagination.
const AzureMaxPages = 200

func fetchAzure(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	rates := map[string]map[string]*azureRates{}
	var names []string
	for _, o := range known {
		names = append(names, o.InstanceType)
	}
	for i := 0; i < len(names); i += 8 {
		var or []string
		for _, n := range names[i:min(i+8, len(names))] {
			or = append(or, fmt.Sprintf("armSkuName eq '%s'", strings.ReplaceAll(n, "'", "''")))
		}
		filter := "serviceName eq 'Virtual Machines' and (" + strings.Join(or, " or ") + ")"
		u := azureRetail + "?api-version=2023-01-01-preview&$filter=" + url.QueryEscape(filter)
		for page := 0; u != ""; page++ {
			if page == AzureMaxPages {
				return nil, nil, fmt.Errorf("%s: more than %d pages", azureRetail, AzureMaxPages)
			}
			body, err := f.Get(ctx, u, nil)
			if err != nil {
				return nil, nil, err
			}
			if u, err = ParseAzurePage(body, azureRetail, rates); err != nil {
				return nil, nil, err
			}
		}
	}
	var out []Quote
	var skipped []string
	for _, o := range known {
		byRegion := rates[o.InstanceType]
		var region string
		var best *azureRates
		for _, rg := range sortedKeys(byRegion) {
			if r := byRegion[rg]; r.od > 0 && (best == nil || r.od < best.od) {
				region, best = rg, r
			}
		}
		if best == nil {
			continue
		}
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: best.od, Region: region,
			AsOf: f.AsOf(), Source: "Azure Retail Prices API (prices.azure.com, Linux), fetched " + f.AsOf(),
			Notes: "cheapest region's pay-as-you-go; spot, reservations (term price / term hours) and the 1-year savings plan in the same region"}}
		if best.spot > 0 && best.spot <= best.od {
			q.SpotPerHour, q.SpotRegion = best.spot, region
		}
		switch y1 := best.y1; {
		case y1 > 0 && y1 <= best.od:
			q.Reserved1yPerHour = y1
		case best.sp1 > 0 && best.sp1 <= best.od:
			q.Reserved1yPerHour = best.sp1
			q.Notes += "; 1-year rate is the savings plan (no reservation listed)"
		}
		if best.y3 > 0 && best.y3 <= best.od {
			q.Reserved3yPerHour = best.y3
		}
		out = append(out, q)
	}
	return out, skipped, nil
}

// ---- Google Cloud (Cloud Billing Catalog API) ----------------------------

const gcpSKUs = "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus"

type gcpSKU struct {
	Description string `json:"description"`
	Category    struct {
		ResourceGroup string `json:"resourceGroup"`
		UsageType     string `json:"usageType"`
	} `json:"category"`
	ServiceRegions []string `json:"serviceRegions"`
	PricingInfo    []struct {
		PricingExpression struct {
			UsageUnit   string `json:"usageUnit"`
			TieredRates []struct {
				UnitPrice struct {
					CurrencyCode string `json:"currencyCode"`
					Units        string `json:"units"`
					Nanos        int64  `json:"nanos"`
				} `json:"unitPrice"`
			} `json:"tieredRates"`
		} `json:"pricingExpression"`
	} `json:"pricingInfo"`
}

// gcpFamily names the SKUs a machine family is priced from: its vCPU and
// memory SKUs ("A2 Instance Core", "A2 Instance Ram"; commitments say "A2
// Cpu") and its GPU SKU.
type gcpFamily struct{ family, gpu string }

var gcpFamilies = map[string]gcpFamily{
	"a2-highgpu": {"a2", "nvidia tesla a100 gpu"}, "a2-megagpu": {"a2", "nvidia tesla a100 gpu"},
	"a2-ultragpu": {"a2", "nvidia tesla a100 80gb gpu"}, "a3-highgpu": {"a3", "nvidia h100 80gb gpu"},
	"g2-standard": {"g2", "nvidia l4 gpu"},
}

// skuKey names one unit price (USD): usage type, region and part.
type skuKey struct{ usage, region, part string }

// ParseGCPPage reads one page of the Billing Catalog's SKU list into unit
// prices keyed by usage type, region and part ("a2/core", "a2/ram", or the
// GPU SKU's name), and returns the next page token.
func ParseGCPPage(data []byte, into map[skuKey]float64) (next string, err error) {
	var p struct {
		SKUs          []gcpSKU `json:"skus"`
		NextPageToken string   `json:"nextPageToken"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return "", schemaErr(gcpSKUs, "%v", err)
	}
	if p.SKUs == nil {
		return "", schemaErr(gcpSKUs, "no skus array")
	}
	for _, s := range p.SKUs {
		if len(s.PricingInfo) == 0 {
			continue
		}
		tr := s.PricingInfo[0].PricingExpression.TieredRates
		if len(tr) == 0 || tr[len(tr)-1].UnitPrice.CurrencyCode != "USD" {
			continue
		}
		up := tr[len(tr)-1].UnitPrice
		units, _ := strconv.ParseFloat(up.Units, 64)
		price := units + float64(up.Nanos)/1e9
		if !positive(price) {
			continue
		}
		d := strings.ToLower(s.Description)
		var part string
		for _, fam := range gcpFamilies {
			switch {
			case strings.Contains(d, fam.gpu):
				part = fam.gpu
			case strings.Contains(d, fam.family+" instance core") || strings.Contains(d, fam.family+" cpu"):
				part = fam.family + "/core"
			case strings.Contains(d, fam.family+" instance ram") || strings.Contains(d, fam.family+" ram"):
				part = fam.family + "/ram"
			}
			if part != "" {
				break
			}
		}
		if part == "" || strings.Contains(d, "dws") || strings.Contains(d, "sole tenancy") || strings.Contains(d, "calendar") {
			continue
		}
		for _, rg := range s.ServiceRegions {
			into[skuKey{s.Category.UsageType, rg, part}] = price
		}
	}
	return p.NextPageToken, nil
}

func fetchGCP(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	key := f.getenv("GCP_API_KEY")
	prices := map[skuKey]float64{}
	token := ""
	for page := 0; ; page++ {
		if page == 100 {
			return nil, nil, fmt.Errorf("%s: more than 100 pages", gcpSKUs)
		}
		u := gcpSKUs + "?currencyCode=USD&pageSize=5000&key=" + url.QueryEscape(key)
		if token != "" {
			u += "&pageToken=" + url.QueryEscape(token)
		}
		body, err := f.Get(ctx, u, nil)
		if err != nil {
			if he, ok := err.(*HTTPError); ok {
				he.URL = strings.Replace(he.URL, url.QueryEscape(key), "KEY", 1)
			}
			return nil, nil, err
		}
		if token, err = ParseGCPPage(body, prices); err != nil {
			return nil, nil, err
		}
		if token == "" {
			break
		}
	}
	var out []Quote
	var skipped []string
	for _, o := range known {
		fam, ok := gcpFamilies[gcpFamilyOf(o.InstanceType)]
		if !ok || o.VCPUs == 0 || o.RAMGiB == 0 {
			continue
		}
		total := func(usage, region string) float64 {
			c, r, g := prices[skuKey{usage, region, fam.family + "/core"}], prices[skuKey{usage, region, fam.family + "/ram"}], prices[skuKey{usage, region, fam.gpu}]
			if c == 0 || r == 0 || g == 0 {
				return 0
			}
			return round6(float64(o.VCPUs)*c + o.RAMGiB*r + o.GPUCount*g)
		}
		var region string
		var od float64
		for k := range prices {
			if k.usage == "OnDemand" && k.part == fam.gpu {
				if x := total("OnDemand", k.region); x > 0 && (od == 0 || x < od || x == od && k.region < region) {
					region, od = k.region, x
				}
			}
		}
		if od == 0 {
			continue
		}
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: od, Region: region, AsOf: f.AsOf(),
			Source: "Google Cloud Billing Catalog API (Compute Engine SKUs), fetched " + f.AsOf(),
			Notes:  "vCPUs × core SKU + GiB × RAM SKU + GPUs × GPU SKU, cheapest on-demand region; spot and resource-based commitments in the same region"}}
		if x := total("Preemptible", region); x > 0 && x <= od {
			q.SpotPerHour, q.SpotRegion = x, region
		}
		for _, c := range []struct {
			usage string
			dst   *float64
		}{{"Commit1Yr", &q.Reserved1yPerHour}, {"Commit3Yr", &q.Reserved3yPerHour}} {
			switch x := total(c.usage, region); {
			case x <= 0 || x > od:
			case !commitPlausible("gcp", x, od):
				// Google's A2 3-year SKUs sum to 65% under on-demand, past
				// the discount Google publishes (maxCommitDiscount).
				skipped = append(skipped, fmt.Sprintf("gcp %s: %s price %v is past Google's published commitment discount; not imported", o.InstanceType, c.usage, x))
			default:
				*c.dst = x
			}
		}
		out = append(out, q)
	}
	return out, skipped, nil
}

// gcpFamilyOf returns "a2-highgpu" for "a2-highgpu-8g".
func gcpFamilyOf(it string) string {
	if i := strings.LastIndexByte(it, '-'); i > 0 {
		return it[:i]
	}
	return it
}

// ---- Oracle Cloud (price list API) ---------------------------------------

const ociProducts = "https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/"

// ociGPUs maps the price list's GPU part names to catalog GPU IDs, most
// specific first.
var ociGPUs = []struct{ name, gpu string }{
	{"H200", "h200-sxm"}, {"H100", "h100-sxm"}, {"B200", "b200"}, {"MI300X", "mi300x"}, {"L40S", "l40s"},
	{"A100 - v2", "a100-80gb-sxm"}, {"A100-v2", "a100-80gb-sxm"}, {"A100", "a100-40gb-sxm"}, {"A10", "a10"},
	{"GPU Standard - V3", "v100-16gb"}, {"GPU3", "v100-16gb"}, {"GPU Standard - V2", "p100"}, {"GPU2", "p100"},
}

// ParseOCIProducts reads the price list API and returns the pay-as-you-go
// USD price per GPU-hour by catalog GPU ID, and whether more pages follow.
func ParseOCIProducts(data []byte, into map[string]float64) (hasMore bool, err error) {
	var p struct {
		Items []struct {
			PartNumber               string `json:"partNumber"`
			DisplayName              string `json:"displayName"`
			MetricName               string `json:"metricName"`
			ServiceCategory          string `json:"serviceCategory"`
			CurrencyCodeLocalization []struct {
				CurrencyCode string `json:"currencyCode"`
				Prices       []struct {
					Model string   `json:"model"`
					Value *float64 `json:"value"`
				} `json:"prices"`
			} `json:"currencyCodeLocalizations"`
		} `json:"items"`
		HasMore bool `json:"hasMore"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return false, schemaErr(ociProducts, "%v", err)
	}
	if p.Items == nil {
		return false, schemaErr(ociProducts, "no items array")
	}
	for _, it := range p.Items {
		if !strings.Contains(it.DisplayName, "GPU") || !strings.Contains(strings.ToLower(it.MetricName), "gpu per hour") {
			continue
		}
		gpu := ""
		for _, g := range ociGPUs {
			if strings.Contains(it.DisplayName, g.name) {
				gpu = g.gpu
				break
			}
		}
		if gpu == "" {
			continue
		}
		for _, c := range it.CurrencyCodeLocalization {
			for _, pr := range c.Prices {
				if c.CurrencyCode == "USD" && pr.Model == "PAY_AS_YOU_GO" && pr.Value != nil && *pr.Value > 0 {
					into[gpu] = *pr.Value
				}
			}
		}
	}
	return p.HasMore, nil
}

func fetchOCI(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	perGPU := map[string]float64{}
	for offset := 0; ; offset += 500 {
		u := ociProducts + "?currencyCode=USD"
		if offset > 0 {
			u += "&offset=" + strconv.Itoa(offset)
		}
		body, err := f.Get(ctx, u, nil)
		if err != nil {
			return nil, nil, err
		}
		more, err := ParseOCIProducts(body, perGPU)
		if err != nil {
			return nil, nil, err
		}
		if !more || offset > 20000 {
			break
		}
	}
	var out []Quote
	var skipped []string
	for _, o := range known {
		p := perGPU[o.GPU]
		if p == 0 {
			continue
		}
		out = append(out, Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: round6(p * o.GPUCount),
			AsOf: f.AsOf(), Source: "Oracle Cloud price list API (apexapps.oracle.com cetools products, USD, pay as you go), fetched " + f.AsOf(),
			Notes: "per-GPU-hour list price × GPUs (OCI bills GPU shapes per GPU-hour, the same in every commercial region)"}})
	}
	return out, skipped, nil
}
