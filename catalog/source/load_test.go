//go:build !js

package source_test

import (
	"rightsize/estimator"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"rightsize/catalog/data"
	"rightsize/catalog/source"
)

var today = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

// TestLoad proves the embedded data decodes strictly and validates.
func TestLoad(t *testing.T) {
	c, err := source.Load(data.FS, time.Now().UTC())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.GPUs) < 30 || len(c.Providers) < 15 || len(c.Offers) < 500 {
		t.Errorf("catalog too small: %d GPUs, %d providers, %d offers", len(c.GPUs), len(c.Providers), len(c.Offers))
	}
}

const (
	okGPUs      = `{"gpus":[{"id":"t4","name":"NVIDIA T4","vendor":"NVIDIA","architecture":"Turing","memory_gb":16,"memory_bandwidth_gb_s":300,"fp16_tflops_dense":65,"supports_bf16":false,"supports_fp8":false,"interconnect":"pcie","source":"datasheet","as_of":"2026-01-01"},{"id":"a100-40gb-sxm","name":"A100","vendor":"NVIDIA","architecture":"Ampere","memory_gb":40,"memory_bandwidth_gb_s":1555,"fp16_tflops_dense":312,"supports_bf16":true,"supports_fp8":false,"interconnect":"nvlink","source":"datasheet","as_of":"2026-01-01"}]}`
	okModels    = `{"models":[{"id":"tiny","name":"Tiny","family":"T","license":"MIT","task":"text-generation","context_length":1024,"published_params":1000,"config":{"model_type":"rightsize-generic","num_parameters":1000,"seq_len":16},"config_source":"x","source":"card","as_of":"2026-01-01"}]}`
	okFX        = `{"rates":[{"currency":"USD","per_usd":1,"as_of":"2026-08-22","source":"identity"},{"currency":"EUR","per_usd":0.856091,"as_of":"2026-08-22","source":"CBR"},{"currency":"RUB","per_usd":82.9211,"as_of":"2026-08-22","source":"CBR"},{"currency":"CNY","per_usd":6.722806,"as_of":"2026-08-22","source":"CBR"}]}`
	okHosted    = `{"prices":[{"id":"together-tiny","provider":"together_ai","model":"tiny","model_id":"tiny","input_per_million":0.1,"output_per_million":0.2,"currency":"USD","as_of":"2026-08-01","source":"litellm"}]}`
	okProviders = `{"providers":[{"id":"aws","name":"AWS","kind":"hyperscaler","country":"US","currency":"USD","url":"https://aws.amazon.com","source":"s","as_of":"2026-07-09"}]}`
)

func offers(entries ...string) string {
	return `{"offers":[` + strings.Join(entries, ",") + `]}`
}

const okOffer = `{"id":"aws-g4dn.xlarge","provider":"aws","instance_type":"g4dn.xlarge","gpu":"t4","gpu_count":1,"gpu_memory_gb":16,"on_demand_per_hour":0.526,"currency":"USD","as_of":"2026-07-09","source":"s"}`

func fixture(files map[string]string) fstest.MapFS {
	fs := fstest.MapFS{
		"gpus.json":        {Data: []byte(okGPUs)},
		"models.json":      {Data: []byte(okModels)},
		"providers.json":   {Data: []byte(okProviders)},
		"offers.json":      {Data: []byte(offers(okOffer))},
		"fx.json":          {Data: []byte(okFX)},
		"hosted_apis.json": {Data: []byte(okHosted)},
	}
	for k, v := range files {
		fs[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fs
}

func TestFixtureOK(t *testing.T) {
	c, err := source.Load(fixture(nil), today)
	if err != nil {
		t.Fatal(err)
	}
	// memory_gb is a DRAM capacity: JEDEC's binary GB.
	if g, _ := c.GPU("t4"); g.Memory != 16*estimator.GiB {
		t.Errorf("t4 memory %d", g.Memory)
	}
}

// Bad fixtures are rejected with a message naming the file, the entry and
// the field.
func TestRejects(t *testing.T) {
	p4d := func(extra string) string {
		return `{"id":"aws-p4d.24xlarge","provider":"aws","instance_type":"p4d.24xlarge","gpu":"a100-40gb-sxm","gpu_count":8,"currency":"USD","as_of":"2026-07-09","source":"s"` + extra + `}`
	}
	filler := make([]string, 12)
	for i := range filler {
		filler[i] = strings.Replace(okOffer, "aws-g4dn.xlarge", "aws-g4dn.xlarge-"+string(rune('a'+i)), 1)
	}
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"spot above on-demand", map[string]string{"offers.json": offers(append(filler, p4d(`,"on_demand_per_hour":21.96,"spot_per_hour":40.1`))...)},
			"catalog: offers.json: entry 12 (aws-p4d.24xlarge): spot_per_hour 40.1 > on_demand_per_hour 21.96"},
		// Google's A2 3-year SKU sum, 65% under on-demand: Google publishes
		// at most 57% for GPU machines (maxCommitDiscount).
		{"commitment past the provider's published discount", map[string]string{"offers.json": offers(
			`{"id":"gcp-a2-highgpu-1g","provider":"gcp","instance_type":"a2-highgpu-1g","gpu":"a100-40gb-sxm","gpu_count":1,"currency":"USD","as_of":"2026-07-30","source":"s","on_demand_per_hour":3.673385,"reserved_1y_per_hour":2.314207,"reserved_3y_per_hour":1.285708}`)},
			"catalog: offers.json: entry 0 (gcp-a2-highgpu-1g): reserved_3y_per_hour 1.285708 is 65% under on_demand_per_hour 3.673385, past the 57% gcp publishes as its deepest commitment discount"},
		{"implausibly cheap", map[string]string{"offers.json": offers(p4d(`,"on_demand_per_hour":0.08`))},
			"catalog: offers.json: entry 0 (aws-p4d.24xlarge): on_demand_per_hour 0.08 is 0.01 USD per GPU-hour, implausible for a100-40gb-sxm"},
		{"unknown field", map[string]string{"offers.json": offers(p4d(`,"on_demand_per_hour":21.96,"price":1`))},
			"catalog: offers.json: entry 0 (aws-p4d.24xlarge): "},
		{"unknown gpu", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"gpu":"t4"`, `"gpu":"t5"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): gpu "t5" is not in gpus.json`},
		{"unknown provider", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"provider":"aws"`, `"provider":"awz"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): provider "awz" is not in providers.json`},
		{"duplicate id", map[string]string{"offers.json": offers(okOffer, okOffer)},
			"catalog: offers.json: entry 1 (aws-g4dn.xlarge): duplicate id (also entry 0)"},
		{"memory mismatch", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"gpu_memory_gb":16`, `"gpu_memory_gb":24`, 1))},
			"catalog: offers.json: entry 0 (aws-g4dn.xlarge): gpu_memory_gb 24 does not match t4 memory 16 GiB"},
		{"future as_of", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"as_of":"2026-07-09"`, `"as_of":"2027-01-01"`, 1))},
			"catalog: offers.json: entry 0 (aws-g4dn.xlarge): as_of 2027-01-01 is in the future"},
		{"missing as_of", map[string]string{"offers.json": offers(strings.Replace(okOffer, `,"as_of":"2026-07-09"`, ``, 1))},
			"catalog: offers.json: entry 0 (aws-g4dn.xlarge): as_of is missing"},
		{"missing source", map[string]string{"offers.json": offers(strings.Replace(okOffer, `,"source":"s"`, ``, 1))},
			"catalog: offers.json: entry 0 (aws-g4dn.xlarge): source is missing"},
		{"two memory units", map[string]string{"gpus.json": strings.Replace(okGPUs, `"memory_gb":16,`, `"memory_gb":16,"memory_gib":16,`, 1)},
			"catalog: gpus.json: entry 0 (t4): exactly one of memory_gb, memory_gib, memory_mib is required (have 2)"},
		{"ecc memory above the card's", map[string]string{"gpus.json": strings.Replace(okGPUs, `"memory_gb":16,`, `"memory_gb":16,"ecc_memory_mib":16385,"ecc_memory_source":"s",`, 1)},
			"catalog: gpus.json: entry 0 (t4): ecc_memory_mib 16385 must be > 0 and at most the GPU's memory"},
		{"ecc memory zero", map[string]string{"gpus.json": strings.Replace(okGPUs, `"memory_gb":16,`, `"memory_gb":16,"ecc_memory_mib":0,"ecc_memory_source":"s",`, 1)},
			"catalog: gpus.json: entry 0 (t4): ecc_memory_mib 0 must be > 0 and at most the GPU's memory"},
		{"ecc memory without a source", map[string]string{"gpus.json": strings.Replace(okGPUs, `"memory_gb":16,`, `"memory_gb":16,"ecc_memory_mib":15360,`, 1)},
			"catalog: gpus.json: entry 0 (t4): ecc_memory_mib needs ecc_memory_source"},
		{"unknown gpu field", map[string]string{"gpus.json": strings.Replace(okGPUs, `"memory_gb":16,`, `"mem":16,"memory_gb":16,`, 1)},
			"catalog: gpus.json: entry 0 (t4): "},
		{"bad model type", map[string]string{"models.json": strings.Replace(okModels, "rightsize-generic", "t5", 1)},
			`catalog: models.json: entry 0 (tiny): config: estimator: config: model_type="t5": unsupported`},
		{"count off", map[string]string{"models.json": strings.Replace(okModels, `{"model_type":"rightsize-generic","num_parameters":1000,"seq_len":16}`,
			`{"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100}`, 1)},
			"catalog: models.json: entry 0 (tiny): published_params 1000 but estimator.ParseConfig counts 95040"},
		{"fx missing EUR", map[string]string{"fx.json": strings.Replace(okFX, `"EUR"`, `"GBP"`, 1)},
			"catalog: fx.json: no rate for EUR"},
		{"fx implausible", map[string]string{"fx.json": strings.Replace(okFX, `82.9211`, `8.29211`, 1)},
			"catalog: fx.json: entry 2 (RUB): per_usd 8.29211 out of range"},
		{"hosted unknown model", map[string]string{"hosted_apis.json": strings.Replace(okHosted, `"model_id":"tiny"`, `"model_id":"huge"`, 1)},
			`catalog: hosted_apis.json: entry 0 (together-tiny): model_id "huge" is not in models.json`},
		{"spot bucket", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"spot_interruption":"<6%","spot_interruption_source":"x","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): spot_interruption "<6%" must be`},
		{"spot bucket unsourced", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"spot_interruption":"<5%","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): spot_interruption needs spot_interruption_source`},
		// One price for two regions the source prices apart (AWS China's
		// Beijing and Ningxia) is refused; so is a region two offers of
		// one instance type both price.
		{"regions at one price", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"regions":["cn-northwest-1","cn-north-1"],"currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): regions lists 2 regions at one price: give each region its own offer (aws-g4dn.xlarge-cn-north-1)`},
		{"region priced twice", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"regions":["cn-north-1"],"currency"`, 1),
			strings.Replace(strings.Replace(okOffer, `"currency"`, `"regions":["cn-north-1"],"currency"`, 1), `"id":"aws-g4dn.xlarge"`, `"id":"aws-g4dn.xlarge-cn-north-1"`, 1))},
			`catalog: offers.json: entry 1 (aws-g4dn.xlarge-cn-north-1): region cn-north-1: aws-g4dn.xlarge also prices g4dn.xlarge there (entry 0)`},
		// An offer rented in whole orders (a GB200 NVL72 rack's 18 trays)
		// needs the provider's word and a count of 1 or more.
		{"rental unit unsourced", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"rental_unit_instances":18,"currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): rental_unit_instances 18 needs rental_unit_source`},
		{"rental unit below one", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"rental_unit_instances":-2,"rental_unit_source":"x","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): rental_unit_instances -2 must be 1 or more`},
		{"rental source alone", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"rental_unit_source":"x","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): rental_unit_source without rental_unit_instances`},
		// An offer's rack NVLink domain (trays of a GB200 NVL72) needs the
		// provider's word, NVLink, whole instances and the GPU's reach.
		{"nvlink rack unsourced", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"nvlink_domain":72,"currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): nvlink_domain 72 needs nvlink_domain_source`},
		{"nvlink rack over pcie", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"nvlink_domain":72,"nvlink_domain_source":"x","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): nvlink_domain 72 on GPUs joined by "pcie", not NVLink`},
		{"nvlink rack past the gpu", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"gpu":"t4","gpu_count":1,"gpu_memory_gb":16`,
			`"gpu":"a100-40gb-sxm","gpu_count":4,"gpu_memory_gb":40,"nvlink_domain":8,"nvlink_domain_source":"x"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): nvlink_domain 8 is past a100-40gb-sxm's own NVLink domain of 0 GPUs`},
		{"nvlink rack not whole trays", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"gpu":"t4","gpu_count":1,"gpu_memory_gb":16`,
			`"gpu":"a100-40gb-sxm","gpu_count":4,"gpu_memory_gb":40,"nvlink_domain":6,"nvlink_domain_source":"x"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): nvlink_domain 6 must be a multiple (2 or more) of the instance's 4 GPUs`},
		{"fabric", map[string]string{"offers.json": offers(strings.Replace(okOffer, `"currency"`, `"network_gbps":25,"network_fabric":"token-ring","currency"`, 1))},
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): network_fabric "token-ring" must be`},
		{"fp4 unsupported", map[string]string{"gpus.json": strings.Replace(okGPUs, `"fp16_tflops_dense":65,`, `"fp16_tflops_dense":65,"fp4_tflops_dense":9000,`, 1)},
			"catalog: gpus.json: entry 0 (t4): fp4_tflops_dense 9000 but supports_fp4 is false"},
		{"mig profile", map[string]string{"gpus.json": strings.Replace(okGPUs, `"fp16_tflops_dense":312,`, `"fp16_tflops_dense":312,"mig_slices":7,"mig_profiles":["1g.5gb","big"],`, 1)},
			`catalog: gpus.json: entry 1 (a100-40gb-sxm): mig_profiles: "big" is not a profile name`},
		{"vat", map[string]string{"providers.json": strings.Replace(okProviders, `"currency"`, `"prices_include_vat":true,"currency"`, 1)},
			"catalog: providers.json: entry 0 (aws): prices_include_vat needs vat_rate"},
		{"billing minimum unsourced", map[string]string{"providers.json": strings.Replace(okProviders, `"currency"`, `"billing_minimum_seconds":60,"currency"`, 1)},
			"catalog: providers.json: entry 0 (aws): billing_minimum_seconds needs billing_minimum_source"},
		{"local accounts unsourced", map[string]string{"providers.json": strings.Replace(okProviders, `"currency"`, `"accounts_local_only":true,"currency"`, 1)},
			"catalog: providers.json: entry 0 (aws): accounts_local_only needs accounts_local_source"},
		{"billing minimum over an hour", map[string]string{"providers.json": strings.Replace(okProviders, `"currency"`, `"billing_minimum_seconds":7200,"billing_minimum_source":"s","currency"`, 1)},
			"catalog: providers.json: entry 0 (aws): billing_minimum_seconds 7200"},
		{"checkpoint precision 16-bit", map[string]string{"models.json": strings.Replace(okModels, `"as_of":"2026-01-01"`, `"as_of":"2026-01-01","weights_dtype":"bf16","weights_source":"config"`, 1)},
			`catalog: models.json: entry 0 (tiny): weights_dtype "bf16": want an 8- or 4-bit precision`},
		{"checkpoint precision unsourced", map[string]string{"models.json": strings.Replace(okModels, `"as_of":"2026-01-01"`, `"as_of":"2026-01-01","weights_dtype":"fp8"`, 1)},
			"catalog: models.json: entry 0 (tiny): weights_source is missing"},
		{"served context unsourced", map[string]string{"models.json": strings.Replace(okModels, `"as_of":"2026-01-01"`, `"as_of":"2026-01-01","served_context":8`, 1)},
			"catalog: models.json: entry 0 (tiny): served_context_source is missing"},
		{"served context over the config's", map[string]string{"models.json": strings.Replace(okModels, `"as_of":"2026-01-01"`, `"as_of":"2026-01-01","served_context":16,"served_context_source":"s"`, 1)},
			"catalog: models.json: entry 0 (tiny): served_context 16 must be in (0, the config's max_position_embeddings 0)"},
		{"generic params differ", map[string]string{"models.json": strings.Replace(okModels, `"num_parameters":1000`, `"num_parameters":999`, 1)},
			"catalog: models.json: entry 0 (tiny): config.num_parameters 999 must equal published_params 1000"},
		{"bad kind", map[string]string{"providers.json": strings.Replace(okProviders, "hyperscaler", "cloud", 1)},
			`catalog: providers.json: entry 0 (aws): kind "cloud" must be one of`},
		{"top-level typo", map[string]string{"providers.json": `{"provider":[]}`},
			`catalog: providers.json: unknown top-level field "provider"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := source.Load(fixture(tt.files), today)
			if err == nil {
				t.Fatalf("accepted; want error %q", tt.want)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if strings.HasPrefix(line, tt.want) {
					return
				}
			}
			t.Errorf("error\n%s\nhas no line starting with\n%s", err, tt.want)
		})
	}
}
