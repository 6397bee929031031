package source

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"rightsize/catalog"
)

// The GPU clouds with open listings: Vast.ai's public offer search, RunPod's
// GraphQL GPU types, Lambda's instance-types API (needs an API key), Cudo
// Compute's machine types, and dstack's published gpuhunt catalogs, which
// carry Nebius and Verda (whose own price APIs need an account).

// GPUForName maps a vendor's GPU name ("H100 SXM", "RTX 4090", "A100-80GB",
// "NVIDIA A40") and, where the name leaves it open, the memory per GPU in
// GB to a catalog GPU ID; "" when the name is not known.
func GPUForName(name string, memGB float64) string {
	n := strings.ToUpper(name)
	n = strings.TrimPrefix(n, "NVIDIA ")
	n = strings.TrimPrefix(n, "AMD ")
	n = strings.TrimPrefix(n, "TESLA ")
	n = strings.NewReplacer(" ", "", "-", "", "_", "", "GEFORCE", "", "INSTINCT", "").Replace(n)
	big := memGB >= 60
	switch n {
	case "A100SXM4", "A100SXM":
		if big {
			return "a100-80gb-sxm"
		}
		return "a100-40gb-sxm"
	case "A100PCIE":
		if big {
			return "a100-80gb-pcie"
		}
		return "a100-40gb-pcie"
	case "A100", "A10080GB":
		if big || n == "A10080GB" {
			return "a100-80gb"
		}
		return "a100-40gb"
	}
	return gpuNames[n]
}

var gpuNames = map[string]string{
	"H100SXM": "h100-sxm", "H100SXM5": "h100-sxm", "H10080GBHBM3": "h100-sxm", "H100NVL": "h100-nvl", "H100PCIE": "h100-pcie",
	"H100": "h100-80gb", "H200": "h200-141gb", "H200SXM": "h200-sxm", "H200NVL": "h200-nvl", "GH200": "gh200-96gb",
	"B200": "b200", "B300": "b300", "MI300X": "mi300x", "MI325X": "mi325x", "L40S": "l40s", "L40": "l40", "L4": "l4",
	"L20": "l20", "H20": "h20", "A40": "a40", "A30": "a30", "A16": "a16", "A10": "a10", "A10G": "a10g", "T4": "t4",
	"V100": "v100-16gb", "V10032GB": "v100-32gb", "P100": "p100", "P4": "p4", "P40": "p40",
	"RTX4090": "rtx-4090", "RTX3090": "rtx-3090", "RTX5090": "rtx-5090", "RTXA6000": "rtx-a6000", "A6000": "rtx-a6000",
	"RTXA5000": "rtx-a5000", "A5000": "rtx-a5000", "RTXA4000": "rtx-a4000", "A4000": "rtx-a4000", "RTXA4500": "rtx-a4500",
	"RTX6000ADA": "rtx-6000-ada", "RTX6000ADAGENERATION": "rtx-6000-ada", "RTX4000ADA": "rtx-4000-ada",
	"RTX2000ADA": "rtx-2000-ada", "RTX5880ADA": "rtx-5880-ada", "RTXPRO6000": "rtx-pro-6000", "RTXPRO6000SE": "rtx-pro-6000",
	"A800": "a800-80gb", "QUADRORTX6000": "quadro-rtx-6000",
}

// ---- Vast.ai -------------------------------------------------------------

const vastBundles = "https://console.vast.ai/api/v0/bundles/"

// VastQuery is the offer search the adapter sends: verified, rentable
// machines, on-demand, cheapest first.
const VastQuery = `{"verified":{"eq":true},"rentable":{"eq":true},"rented":{"eq":false},"type":"on-demand","order":[["dph_total","asc"]],"limit":5000}`

// ParseVastOffers reads the offer search response and keeps, per GPU model
// and count, the cheapest on-demand (dph_total) and interruptible (min_bid)
// price per hour.
func ParseVastOffers(data []byte) (map[string]vastBest, error) {
	var v struct {
		Offers []struct {
			GPUName     string   `json:"gpu_name"`
			NumGPUs     int      `json:"num_gpus"`
			GPURAM      float64  `json:"gpu_ram"` // MB
			DPHTotal    *float64 `json:"dph_total"`
			MinBid      float64  `json:"min_bid"`
			Geolocation string   `json:"geolocation"`
		} `json:"offers"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, schemaErr(vastBundles, "%v", err)
	}
	if v.Offers == nil {
		return nil, schemaErr(vastBundles, "no offers array")
	}
	out := map[string]vastBest{}
	for _, o := range v.Offers {
		if o.DPHTotal == nil || *o.DPHTotal <= 0 || o.NumGPUs <= 0 || o.NumGPUs > 16 || math.IsNaN(*o.DPHTotal) {
			continue
		}
		it := fmt.Sprintf("%dx-%s", o.NumGPUs, strings.ReplaceAll(strings.TrimSpace(o.GPUName), " ", "_"))
		b := out[it]
		if b.od == 0 || *o.DPHTotal < b.od {
			b.od, b.region = *o.DPHTotal, o.Geolocation
			b.gpu, b.count = GPUForName(o.GPUName, o.GPURAM/1024), o.NumGPUs
		}
		if o.MinBid > 0 && (b.spot == 0 || o.MinBid < b.spot) {
			b.spot = o.MinBid
		}
		out[it] = b
	}
	return out, nil
}

type vastBest struct {
	od, spot    float64
	region, gpu string
	count       int
}

func fetchVast(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	body, err := f.Get(ctx, vastBundles+"?q="+url.QueryEscape(VastQuery), map[string]string{"Accept": "application/json"})
	if err != nil {
		return nil, nil, err
	}
	best, err := ParseVastOffers(body)
	if err != nil {
		return nil, nil, err
	}
	var out []Quote
	var skipped []string
	for _, it := range sortedKeys(best) {
		b := best[it]
		if b.gpu == "" {
			skipped = append(skipped, "vast "+it+": GPU name not mapped to a catalog GPU")
			continue
		}
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: it, GPU: b.gpu, GPUCount: float64(b.count), Currency: "USD",
			OnDemandPerHour: b.od, Region: b.region, AsOf: f.AsOf(),
			Source: "Vast.ai public offer search (console.vast.ai/api/v0/bundles, verified rentable on-demand offers), fetched " + f.AsOf(),
			Notes:  "marketplace: the cheapest verified listing of this GPU and count at fetch time (a 'from' price; listings change by the minute)"}}
		if b.spot > 0 && b.spot <= b.od {
			q.SpotPerHour = b.spot
		}
		out = append(out, q)
	}
	return out, skipped, nil
}

// ---- RunPod --------------------------------------------------------------

const runpodGraphQL = "https://api.runpod.io/graphql"

// RunPodQuery asks for every GPU type's per-GPU prices.
const RunPodQuery = `{"query":"query GpuTypes { gpuTypes { id displayName memoryInGb secureCloud communityCloud securePrice communityPrice secureSpotPrice communitySpotPrice } }"}`

type runpodGPU struct {
	ID                 string   `json:"id"`
	DisplayName        string   `json:"displayName"`
	MemoryInGb         float64  `json:"memoryInGb"`
	SecureCloud        bool     `json:"secureCloud"`
	CommunityCloud     bool     `json:"communityCloud"`
	SecurePrice        *float64 `json:"securePrice"`
	CommunityPrice     *float64 `json:"communityPrice"`
	SecureSpotPrice    *float64 `json:"secureSpotPrice"`
	CommunitySpotPrice *float64 `json:"communitySpotPrice"`
}

// ParseRunPodGPUTypes reads the GraphQL answer; a GraphQL "errors" answer
// is an error.
func ParseRunPodGPUTypes(data []byte) ([]runpodGPU, error) {
	var v struct {
		Data *struct {
			GPUTypes []runpodGPU `json:"gpuTypes"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, schemaErr(runpodGraphQL, "%v", err)
	}
	if len(v.Errors) > 0 {
		return nil, fmt.Errorf("%s: GraphQL error: %s", runpodGraphQL, v.Errors[0].Message)
	}
	if v.Data == nil || v.Data.GPUTypes == nil {
		return nil, schemaErr(runpodGraphQL, "no data.gpuTypes")
	}
	return v.Data.GPUTypes, nil
}

var runpodType = regexp.MustCompile(`^(\d+)x_(.+)_(SECURE|COMMUNITY)$`)

func fetchRunPod(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	u := runpodGraphQL
	if k := f.getenv("RUNPOD_API_KEY"); k != "" {
		u += "?api_key=" + url.QueryEscape(k)
	}
	body, err := f.Do(ctx, "POST", u, map[string]string{"Content-Type": "application/json"}, RunPodQuery)
	if err != nil {
		if he, ok := err.(*HTTPError); ok {
			he.URL = runpodGraphQL
		}
		return nil, nil, err
	}
	types, err := ParseRunPodGPUTypes(body)
	if err != nil {
		return nil, nil, err
	}
	byGPU := map[string]runpodGPU{}
	for _, t := range types {
		if g := GPUForName(t.DisplayName, t.MemoryInGb); g != "" {
			byGPU[g] = t
		}
	}
	var out []Quote
	var skipped []string
	src := "RunPod GraphQL API gpuTypes (api.runpod.io/graphql; per-GPU prices × GPUs), fetched " + f.AsOf()
	for _, o := range known {
		m := runpodType.FindStringSubmatch(o.InstanceType)
		t, ok := byGPU[o.GPU]
		if m == nil || !ok {
			continue
		}
		od, spot := t.SecurePrice, t.SecureSpotPrice
		if m[3] == "COMMUNITY" {
			od, spot = t.CommunityPrice, t.CommunitySpotPrice
		}
		if od == nil || *od <= 0 {
			continue
		}
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: round6(*od * o.GPUCount), AsOf: f.AsOf(), Source: src}}
		if spot != nil && *spot > 0 && *spot <= *od {
			q.SpotPerHour, q.SpotRegion = round6(*spot*o.GPUCount), o.SpotRegion
		}
		out = append(out, q)
	}
	return out, skipped, nil
}

// ---- Lambda --------------------------------------------------------------

const lambdaTypes = "https://cloud.lambdalabs.com/api/v1/instance-types"

var lambdaDesc = regexp.MustCompile(`^(\d+)x (.+?) \((\d+) GB`)

// ParseLambdaTypes reads the instance-types answer: instance type → price
// per hour, GPU and count (from the description "8x H100 (80 GB SXM5)").
func ParseLambdaTypes(data []byte) (map[string]Quote, error) {
	var v struct {
		Data map[string]struct {
			InstanceType struct {
				Name              string `json:"name"`
				Description       string `json:"description"`
				PriceCentsPerHour int    `json:"price_cents_per_hour"`
				Specs             struct {
					VCPUs     int     `json:"vcpus"`
					MemoryGiB float64 `json:"memory_gib"`
					GPUs      int     `json:"gpus"`
				} `json:"specs"`
			} `json:"instance_type"`
			Regions []struct {
				Name string `json:"name"`
			} `json:"regions_with_capacity_available"`
		} `json:"data"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, schemaErr(lambdaTypes, "%v", err)
	}
	if v.Error != nil {
		return nil, fmt.Errorf("%s: %s: %s", lambdaTypes, v.Error.Code, v.Error.Message)
	}
	if v.Data == nil {
		return nil, schemaErr(lambdaTypes, "no data object")
	}
	out := map[string]Quote{}
	for name, d := range v.Data {
		it := d.InstanceType
		if it.PriceCentsPerHour <= 0 || it.Specs.GPUs <= 0 {
			continue
		}
		gpu := ""
		if m := lambdaDesc.FindStringSubmatch(it.Description); m != nil {
			mem, _ := strconv.ParseFloat(m[3], 64)
			form := strings.TrimSuffix(strings.TrimPrefix(it.Description[strings.Index(it.Description, "GB")+2:], " "), ")")
			gpu = GPUForName(m[2]+" "+strings.TrimSuffix(form, "5"), mem)
			if gpu == "" {
				gpu = GPUForName(m[2], mem)
			}
		}
		q := Quote{PriceRow: catalog.PriceRow{InstanceType: name, GPU: gpu, GPUCount: float64(it.Specs.GPUs), Currency: "USD",
			OnDemandPerHour: float64(it.PriceCentsPerHour) / 100}}
		if len(d.Regions) > 0 {
			q.Region = d.Regions[0].Name
		}
		out[name] = q
	}
	return out, nil
}

func fetchLambda(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	body, err := f.Get(ctx, lambdaTypes, map[string]string{"Authorization": "Bearer " + f.getenv("LAMBDA_API_KEY")})
	if err != nil {
		return nil, nil, err
	}
	types, err := ParseLambdaTypes(body)
	if err != nil {
		return nil, nil, err
	}
	var out []Quote
	var skipped []string
	for _, name := range sortedKeys(types) {
		q := types[name]
		if q.GPU == "" && !slices.ContainsFunc(known, func(o catalog.Offer) bool { return o.InstanceType == name }) {
			skipped = append(skipped, "lambda "+name+": GPU not mapped to a catalog GPU")
			continue
		}
		q.AsOf, q.Source = f.AsOf(), "Lambda Cloud API instance-types (cloud.lambdalabs.com/api/v1), fetched "+f.AsOf()
		out = append(out, q)
	}
	return out, skipped, nil
}

// ---- Cudo Compute --------------------------------------------------------

const cudoMachineTypes = "https://rest.compute.cudo.org/v1/vms/machine-types-2"

type cudoDecimal struct {
	Value string `json:"value"`
}

func (d cudoDecimal) f() float64 {
	x, err := strconv.ParseFloat(d.Value, 64)
	if err != nil || !positive(x) {
		return 0
	}
	return x
}

type cudoType struct {
	DataCenterID     string      `json:"dataCenterId"`
	MachineType      string      `json:"machineType"`
	GPUModel         string      `json:"gpuModel"`
	VCPUPriceHr      cudoDecimal `json:"vcpuPriceHr"`
	MemoryGibPriceHr cudoDecimal `json:"memoryGibPriceHr"`
	GPUPriceHr       cudoDecimal `json:"gpuPriceHr"`
}

// ParseCudoMachineTypes reads the machine-types answer.
func ParseCudoMachineTypes(data []byte) ([]cudoType, error) {
	var v struct {
		MachineTypes []cudoType `json:"machineTypes"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, schemaErr(cudoMachineTypes, "%v", err)
	}
	if v.MachineTypes == nil {
		return nil, schemaErr(cudoMachineTypes, "no machineTypes array")
	}
	return v.MachineTypes, nil
}

var cudoSize = regexp.MustCompile(`^(.+)_(\d+)x(\d+)v(\d+)gb$`)

func fetchCudo(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
	body, err := f.Get(ctx, cudoMachineTypes, nil)
	if err != nil {
		return nil, nil, err
	}
	types, err := ParseCudoMachineTypes(body)
	if err != nil {
		return nil, nil, err
	}
	var out []Quote
	var skipped []string
	for _, o := range known {
		m := cudoSize.FindStringSubmatch(o.InstanceType)
		if m == nil {
			skipped = append(skipped, o.ID+": instance type is not machine-type_GxVvMgb")
			continue
		}
		g, _ := strconv.ParseFloat(m[2], 64)
		v, _ := strconv.ParseFloat(m[3], 64)
		mem, _ := strconv.ParseFloat(m[4], 64)
		var best float64
		var region string
		for _, t := range types {
			if t.MachineType != m[1] || t.GPUPriceHr.f() == 0 {
				continue
			}
			p := round6(g*t.GPUPriceHr.f() + v*t.VCPUPriceHr.f() + mem*t.MemoryGibPriceHr.f())
			if best == 0 || p < best || p == best && t.DataCenterID < region {
				best, region = p, t.DataCenterID
			}
		}
		if best == 0 {
			continue
		}
		out = append(out, Quote{PriceRow: catalog.PriceRow{InstanceType: o.InstanceType, OnDemandPerHour: best, Region: region, AsOf: f.AsOf(),
			Source: "Cudo Compute API machine-types (rest.compute.cudo.org/v1/vms/machine-types-2), fetched " + f.AsOf(),
			Notes:  "GPUs × GPU price + vCPUs × vCPU price + GiB × memory price, cheapest data centre; storage and IPv4 extra"}})
	}
	return out, skipped, nil
}

// ---- gpuhunt catalogs (dstack) -------------------------------------------

const gpuhuntBase = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"

// ParseGPUHuntCSV reads a gpuhunt provider catalog (instance_name, location,
// price per instance-hour, cpu, memory, gpu_count, gpu_name, gpu_memory,
// spot, ...) and keeps per instance the cheapest on-demand and spot price
// and their locations.
func ParseGPUHuntCSV(r io.Reader) (map[string]*gpuhuntBest, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, schemaErr(gpuhuntBase, "no header: %v", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"instance_name", "location", "price", "gpu_count", "gpu_name", "gpu_memory", "spot"} {
		if _, ok := col[need]; !ok {
			return nil, schemaErr(gpuhuntBase, "missing column %s", need)
		}
	}
	out := map[string]*gpuhuntBest{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, schemaErr(gpuhuntBase, "%v", err)
		}
		get := func(k string) string {
			if i := col[k]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		price, err1 := strconv.ParseFloat(get("price"), 64)
		count, err2 := strconv.ParseFloat(get("gpu_count"), 64)
		mem, _ := strconv.ParseFloat(get("gpu_memory"), 64)
		if err1 != nil || err2 != nil || !positive(price) || !positive(count) || count > 64 {
			continue
		}
		name := get("instance_name")
		b := out[name]
		if b == nil {
			b = &gpuhuntBest{gpu: GPUForName(get("gpu_name"), mem), count: count}
			out[name] = b
		}
		if strings.EqualFold(get("spot"), "true") {
			if b.spot == 0 || price < b.spot {
				b.spot, b.spotLoc = price, get("location")
			}
		} else if b.od == 0 || price < b.od || price == b.od && get("location") < b.odLoc {
			b.od, b.odLoc = price, get("location")
		}
	}
	return out, nil
}

type gpuhuntBest struct {
	gpu            string
	count          float64
	od, spot       float64
	odLoc, spotLoc string
}

// gpuhuntAdapter refreshes one provider from its gpuhunt catalog.
func gpuhuntAdapter(slug, provider, doc string) Adapter {
	return Adapter{Name: "gpuhunt-" + slug, Provider: provider, Doc: doc, Owns: []string{"on_demand_per_hour", "spot_per_hour"},
		Fetch: func(ctx context.Context, f *Fetcher, known []catalog.Offer) ([]Quote, []string, error) {
			v, err := f.Get(ctx, gpuhuntBase+"/"+slug+"/version", nil)
			if err != nil {
				return nil, nil, err
			}
			version := strings.TrimSpace(string(v))
			if version == "" || strings.ContainsAny(version, "/?# ") {
				return nil, nil, schemaErr(gpuhuntBase+"/"+slug+"/version", "bad version %q", version)
			}
			u := gpuhuntBase + "/" + slug + "/" + version + "/catalog.zip"
			blob, err := f.Get(ctx, u, nil)
			if err != nil {
				return nil, nil, err
			}
			zr, err := zip.NewReader(bytes.NewReader(blob), int64(len(blob)))
			if err != nil {
				return nil, nil, schemaErr(u, "%v", err)
			}
			var best map[string]*gpuhuntBest
			for _, zf := range zr.File {
				if !strings.HasSuffix(zf.Name, ".csv") {
					continue
				}
				rc, err := zf.Open()
				if err != nil {
					return nil, nil, schemaErr(u, "%v", err)
				}
				best, err = ParseGPUHuntCSV(io.LimitReader(rc, 256<<20))
				rc.Close()
				if err != nil {
					return nil, nil, err
				}
				break
			}
			if best == nil {
				return nil, nil, schemaErr(u, "no CSV in the archive")
			}
			var out []Quote
			var skipped []string
			for _, name := range sortedKeys(best) {
				b := best[name]
				isKnown := slices.ContainsFunc(known, func(o catalog.Offer) bool { return o.InstanceType == name })
				if b.od == 0 && !isKnown {
					continue
				}
				if b.gpu == "" && !isKnown {
					skipped = append(skipped, provider+" "+name+": GPU not mapped to a catalog GPU")
					continue
				}
				q := Quote{PriceRow: catalog.PriceRow{InstanceType: name, GPU: b.gpu, GPUCount: b.count, Currency: "USD",
					OnDemandPerHour: b.od, Region: b.odLoc, AsOf: f.AsOf(),
					Source: fmt.Sprintf("dstack gpuhunt catalog %s/%s/%s/catalog.zip, fetched %s", gpuhuntBase, slug, version, f.AsOf())}}
				if b.spot > 0 && (b.od == 0 || b.spot <= b.od) {
					q.SpotPerHour, q.SpotRegion = b.spot, b.spotLoc
				}
				if q.OnDemandPerHour == 0 && q.SpotPerHour == 0 {
					continue
				}
				out = append(out, q)
			}
			return out, skipped, nil
		}}
}
