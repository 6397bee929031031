package source

import (
	json "github.com/goccy/go-json"
)

// The file formats of catalog/data. Every record carries "source" and
// "as_of" (YYYY-MM-DD, not in the future). Unknown fields are errors.
//
// Units are spelled in the field name, in the unit the source uses:
// exactly one of memory_gb (as datasheets print it; for DRAM capacity JEDEC's
// GB is 2^30 bytes, so it converts like memory_gib), memory_gib or
// memory_mib (2^30 / 2^20 bytes, nvidia-smi and ROCm docs); one of
// memory_bandwidth_gb_s or memory_bandwidth_tb_s (decimal). Throughput is
// dense peak; leave a field out when the datasheet gives no figure.

type gpuFile struct {
	Comment string    `json:"comment,omitempty"`
	GPUs    []gpuJSON `json:"gpus"`
}

type gpuJSON struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Vendor       string   `json:"vendor"`
	Architecture string   `json:"architecture"`
	FormFactor   string   `json:"form_factor,omitempty"`
	MemoryGB     *float64 `json:"memory_gb,omitempty"`
	MemoryGiB    *float64 `json:"memory_gib,omitempty"`
	MemoryMiB    *float64 `json:"memory_mib,omitempty"`
	MemoryType   string   `json:"memory_type,omitempty"`
	// ECCMemoryMiB is nvidia-smi's memory total with ECC on (cloud
	// default), where the card's ECC bits take part of its DRAM (GDDR);
	// ECCMemorySource says where it was read.
	ECCMemoryMiB       *float64 `json:"ecc_memory_mib,omitempty"`
	ECCMemorySource    string   `json:"ecc_memory_source,omitempty"`
	MemoryBandwidthGBs *float64 `json:"memory_bandwidth_gb_s,omitempty"`
	MemoryBandwidthTBs *float64 `json:"memory_bandwidth_tb_s,omitempty"`
	FP32TFLOPS         float64  `json:"fp32_tflops,omitempty"`
	TF32TFLOPSDense    float64  `json:"tf32_tflops_dense,omitempty"`
	BF16TFLOPSDense    float64  `json:"bf16_tflops_dense,omitempty"`
	FP16TFLOPSDense    float64  `json:"fp16_tflops_dense,omitempty"`
	// FP16Acc16TFLOPSDense: dense FP16 tensor with FP16 accumulation,
	// only where the vendor lists it above fp16_tflops_dense (GeForce).
	FP16Acc16TFLOPSDense float64  `json:"fp16_acc16_tflops_dense,omitempty"`
	FP8TFLOPSDense       float64  `json:"fp8_tflops_dense,omitempty"`
	INT8TOPSDense        float64  `json:"int8_tops_dense,omitempty"`
	FP4TFLOPSDense       float64  `json:"fp4_tflops_dense,omitempty"`
	SupportsBF16         bool     `json:"supports_bf16"`
	SupportsFP8          bool     `json:"supports_fp8"`
	SupportsFP4          bool     `json:"supports_fp4,omitempty"`
	Interconnect         string   `json:"interconnect"`
	NVLinkGBs            float64  `json:"nvlink_gb_s,omitempty"`
	NVLinkDomain         int      `json:"nvlink_domain,omitempty"`
	PCIeGen              int      `json:"pcie_gen,omitempty"`
	MIGSlices            int      `json:"mig_slices,omitempty"`
	MIGProfiles          []string `json:"mig_profiles,omitempty"`
	TDPW                 int      `json:"tdp_w,omitempty"`
	Source               string   `json:"source"`
	AsOf                 string   `json:"as_of"`
	Notes                string   `json:"notes,omitempty"`
}

type modelFile struct {
	Comment string      `json:"comment,omitempty"`
	Models  []modelJSON `json:"models"`
}

type modelJSON struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Family          string `json:"family"`
	License         string `json:"license"`
	Task            string `json:"task"`
	ContextLength   int    `json:"context_length"`
	PublishedParams int64  `json:"published_params"`
	ActiveParams    int64  `json:"active_params,omitempty"`
	// ParamsTolerance widens the count check (a fraction) where the
	// published figure counts differently; the notes must say why.
	ParamsTolerance float64         `json:"params_tolerance,omitempty"`
	Config          json.RawMessage `json:"config"`
	ConfigSource    string          `json:"config_source"`
	Source          string          `json:"source"`
	AsOf            string          `json:"as_of"`
	Notes           string          `json:"notes,omitempty"`
	// WeightsDType and WeightsSource: catalog.Model's.
	WeightsDType  string `json:"weights_dtype,omitempty"`
	WeightsSource string `json:"weights_source,omitempty"`
	// RopeScaling and RopeScalingSource: catalog.Model's.
	RopeScaling       json.RawMessage `json:"rope_scaling,omitempty"`
	RopeScalingSource string          `json:"rope_scaling_source,omitempty"`
	// ServedContext and ServedContextSource: catalog.Model's.
	ServedContext       int    `json:"served_context,omitempty"`
	ServedContextSource string `json:"served_context_source,omitempty"`
}

type providerFile struct {
	Comment   string         `json:"comment,omitempty"`
	Providers []providerJSON `json:"providers"`
}

type providerJSON struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	Country       string `json:"country"`
	Currency      string `json:"currency"`
	URL           string `json:"url"`
	Source        string `json:"source"`
	AsOf          string `json:"as_of"`
	AsOfEstimated bool   `json:"as_of_estimated,omitempty"`
	// VAT basis of the price list: included (at vat_rate) or not.
	PricesIncludeVAT bool    `json:"prices_include_vat,omitempty"`
	VATRate          float64 `json:"vat_rate,omitempty"`
	// The shortest run the provider bills an instance for, where its own
	// documentation states one, and that page (URL and date read).
	BillingMinimumSeconds float64 `json:"billing_minimum_seconds,omitempty"`
	BillingMinimumSource  string  `json:"billing_minimum_source,omitempty"`
	// The provider opens accounts only to legal entities registered in
	// its home country (country), as its sign-up terms say (the page and
	// the date read).
	AccountsLocalOnly   bool   `json:"accounts_local_only,omitempty"`
	AccountsLocalSource string `json:"accounts_local_source,omitempty"`
	Notes               string `json:"notes,omitempty"`
}

type offerFile struct {
	Comment string      `json:"comment,omitempty"`
	Offers  []offerJSON `json:"offers"`
}

type offerJSON struct {
	ID                     string   `json:"id"`
	Provider               string   `json:"provider"`
	InstanceType           string   `json:"instance_type"`
	GPU                    string   `json:"gpu"`
	GPUCount               float64  `json:"gpu_count"`
	GPUMemoryGB            float64  `json:"gpu_memory_gb,omitempty"`
	VCPUs                  int      `json:"vcpus,omitempty"`
	RAMGiB                 float64  `json:"ram_gib,omitempty"`
	RAMGB                  float64  `json:"ram_gb,omitempty"`
	Interconnect           string   `json:"interconnect,omitempty"`
	NetworkGbps            float64  `json:"network_gbps,omitempty"`
	NetworkFabric          string   `json:"network_fabric,omitempty"`
	NVLinkDomain           int      `json:"nvlink_domain,omitempty"`
	NVLinkDomainSource     string   `json:"nvlink_domain_source,omitempty"`
	RentalUnitInstances    int      `json:"rental_unit_instances,omitempty"`
	RentalUnitSource       string   `json:"rental_unit_source,omitempty"`
	OnDemandPerHour        float64  `json:"on_demand_per_hour,omitempty"`
	SpotPerHour            float64  `json:"spot_per_hour,omitempty"`
	Reserved1yPerHour      float64  `json:"reserved_1y_per_hour,omitempty"`
	Reserved3yPerHour      float64  `json:"reserved_3y_per_hour,omitempty"`
	MonthlyPrice           float64  `json:"monthly_price,omitempty"`
	SpotAboveOnDemand      bool     `json:"spot_above_on_demand,omitempty"`
	Currency               string   `json:"currency"`
	BillingGranularity     string   `json:"billing_granularity,omitempty"`
	Regions                []string `json:"regions,omitempty"`
	SpotRegion             string   `json:"spot_region,omitempty"`
	SpotInterruption       string   `json:"spot_interruption,omitempty"`
	SpotInterruptionSource string   `json:"spot_interruption_source,omitempty"`
	UnderlyingProvider     string   `json:"underlying_provider,omitempty"`
	AsOf                   string   `json:"as_of"`
	AsOfEstimated          bool     `json:"as_of_estimated,omitempty"`
	AsOfLowerBound         bool     `json:"as_of_lower_bound,omitempty"`
	Source                 string   `json:"source"`
	Notes                  string   `json:"notes,omitempty"`
}

// fx.json: reference exchange rates, units of currency per 1 USD.
type fxFile struct {
	Comment string   `json:"comment,omitempty"`
	Rates   []fxJSON `json:"rates"`
}

type fxJSON struct {
	Currency string  `json:"currency"`
	PerUSD   float64 `json:"per_usd"`
	AsOf     string  `json:"as_of"`
	Source   string  `json:"source"`
}

// hosted_apis.json: per-token prices of hosted model APIs. Rows with the
// same source may share it through the file's "sources" list by index.
type hostedFile struct {
	Comment string       `json:"comment,omitempty"`
	Prices  []hostedJSON `json:"prices"`
}

type hostedJSON struct {
	ID               string  `json:"id"`
	Provider         string  `json:"provider"`
	Model            string  `json:"model"`
	ModelID          string  `json:"model_id,omitempty"`
	InputPerMillion  float64 `json:"input_per_million"`
	OutputPerMillion float64 `json:"output_per_million"`
	Currency         string  `json:"currency"`
	AsOf             string  `json:"as_of"`
	Source           string  `json:"source"`
}
