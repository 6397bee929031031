package source

// Adapters are the price sources "rightsize catalog refresh" knows, in the
// order it runs them. Providers not here have no public, unauthenticated
// price source the refresh can read (see catalog/README.md, "Refreshing
// prices"): their offers change through price sheets and imports only.
var Adapters = []Adapter{
	{Name: "aws", Provider: "aws", Owns: allPrices, Fetch: fetchAWS,
		Doc: "AWS Price List bulk API (EC2 offer files per region: on-demand, Standard RI 1y/3y All Upfront), spot.js spot prices, Spot Instance Advisor buckets"},
	{Name: "aws-cn", Provider: "aws-cn", Owns: []string{"on_demand_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour"}, Fetch: fetchAWSChina,
		Doc: "AWS China Price List bulk API (pricing.cn-north-1.amazonaws.com.cn, CNY): Beijing and Ningxia on-demand, Standard RI 1y/3y All Upfront"},
	{Name: "azure", Provider: "azure", Owns: allPrices, Fetch: fetchAzure,
		Doc: "Azure Retail Prices API (prices.azure.com, NextPageLink pagination): pay-as-you-go, spot, 1y/3y reservations, 1y savings plan"},
	{Name: "gcp", Provider: "gcp", Env: "GCP_API_KEY", Owns: allPrices, Fetch: fetchGCP,
		Doc: "Google Cloud Billing Catalog API: A2/A3/G2 totals from core, RAM and GPU SKUs; on-demand, spot, 1y/3y commitments. Without a key, internal/bootstrap/market.py reads Cyclenerd's pricing.yml"},
	{Name: "oci", Provider: "oci", Owns: []string{"on_demand_per_hour"}, Fetch: fetchOCI,
		Doc: "Oracle Cloud price list API (apexapps.oracle.com cetools products): GPU-hour list prices × GPUs"},
	{Name: "lambda", Provider: "lambda", Env: "LAMBDA_API_KEY", Owns: []string{"on_demand_per_hour"}, Fetch: fetchLambda,
		Doc: "Lambda Cloud API instance-types (gpuhunt-lambdalabs needs no key)"},
	{Name: "runpod", Provider: "runpod", Owns: []string{"on_demand_per_hour", "spot_per_hour"}, Fetch: fetchRunPod,
		Doc: "RunPod GraphQL gpuTypes (api.runpod.io/graphql): secure/community per-GPU on-demand and spot prices × GPUs"},
	{Name: "vast", Provider: "vast", Owns: []string{"on_demand_per_hour", "spot_per_hour"}, Fetch: fetchVast,
		Doc: "Vast.ai public offer search (console.vast.ai/api/v0/bundles): cheapest verified on-demand and interruptible listing per GPU and count"},
	{Name: "cudo", Provider: "cudo", Owns: []string{"on_demand_per_hour"}, Fetch: fetchCudo,
		Doc: "Cudo Compute machine types (rest.compute.cudo.org/v1/vms/machine-types-2): GPU + vCPU + memory prices per data centre"},
	gpuhuntAdapter("nebius", "nebius", "dstack gpuhunt catalog v3 for Nebius (Nebius's own price API needs an account)"),
	gpuhuntAdapter("verda", "verda", "dstack gpuhunt catalog v3 for Verda (ex-DataCrunch; its API needs client credentials)"),
	gpuhuntAdapter("lambdalabs", "lambda", "dstack gpuhunt catalog v3 for Lambda (no key needed)"),
}

// AdapterNames lists the adapters' names, for --help and --providers.
func AdapterNames() []string {
	var out []string
	for _, a := range Adapters {
		out = append(out, a.Name)
	}
	return out
}
