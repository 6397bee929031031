package source

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"unicode"

	json "github.com/goccy/go-json"

	"rightsize/catalog"
)

// WriteFiles writes providers.json and offers.json into dir in the
// canonical layout (providers indented, one offer per line). gpus.json and
// models.json are reviewed by hand and never rewritten by tools.
func (f *Files) WriteFiles(dir string) error {
	p, err := f.ProvidersJSON()
	if err != nil {
		return err
	}
	o, err := f.OffersJSON()
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, ProvidersFile), p); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, OffersFile), o)
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ProvidersJSON renders providers.json.
func (f *Files) ProvidersJSON() ([]byte, error) {
	b, err := json.MarshalIndentWithOption(f.Providers, "", "  ", json.DisableHTMLEscape())
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// OffersJSON renders offers.json with one offer per line, for reviewable
// diffs.
func (f *Files) OffersJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	if f.Offers.Comment != "" {
		c, _ := json.MarshalWithOption(f.Offers.Comment, json.DisableHTMLEscape())
		fmt.Fprintf(&b, "  \"comment\": %s,\n", c)
	}
	b.WriteString("  \"offers\": [\n")
	for i, o := range f.Offers.Offers {
		line, err := json.MarshalWithOption(o, json.DisableHTMLEscape())
		if err != nil {
			return nil, err
		}
		b.WriteString("    ")
		b.Write(line)
		if i < len(f.Offers.Offers)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}

// Export renders the validated catalog as JSON: {"schema":
// "rightsize-catalog/v1", "gpus": [...], "models": [...], "providers":
// [...], "offers": [...]}. Keys are the catalog Go field names in
// snake_case (Memory -> "memory" in bytes, MemoryBandwidthBytesPerSecond ->
// "memory_bandwidth_bytes_per_second", FP16TFLOPS -> "fp16_tflops",
// OnDemandPerHour -> "on_demand_per_hour"); every field is present, 0 or ""
// meaning unknown; models' "config" is the config.json text.
func Export(c *catalog.Catalog) ([]byte, error) {
	out := map[string]any{
		"schema":      "rightsize-catalog/v1",
		"gpus":        exportSlice(reflect.ValueOf(c.GPUs)),
		"models":      exportSlice(reflect.ValueOf(c.Models)),
		"providers":   exportSlice(reflect.ValueOf(c.Providers)),
		"offers":      exportSlice(reflect.ValueOf(c.Offers)),
		"fx_rates":    exportSlice(reflect.ValueOf(c.FXRates)),
		"hosted_apis": exportSlice(reflect.ValueOf(c.HostedAPIs)),
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func exportSlice(s reflect.Value) []map[string]any {
	out := make([]map[string]any, s.Len())
	for i := range out {
		v := s.Index(i)
		m := map[string]any{}
		for j := 0; j < v.NumField(); j++ {
			f := v.Field(j)
			val := f.Interface()
			if f.Kind() == reflect.Slice && f.IsNil() {
				val = []string{}
			} else if f.Kind() == reflect.Int64 && f.Type().PkgPath() != "" {
				val = f.Int()
			}
			m[SnakeCase(v.Type().Field(j).Name)] = val
		}
		out[i] = m
	}
	return out
}

// SnakeCase converts a Go field name to the export key: "OnDemandPerHour" ->
// "on_demand_per_hour", "FP16TFLOPS" -> "fp16_tflops", "GPUCount" ->
// "gpu_count", "RAMGiB" -> "ram_gib", "NVLinkGBps" -> "nvlink_gbps".
func SnakeCase(name string) string {
	special := map[string]string{
		"FP32TFLOPS": "fp32_tflops", "TF32TFLOPS": "tf32_tflops", "BF16TFLOPS": "bf16_tflops",
		"FP16TFLOPS": "fp16_tflops", "FP16Acc16TFLOPS": "fp16_acc16_tflops", "FP8TFLOPS": "fp8_tflops", "INT8TOPS": "int8_tops",
		"SupportsBF16": "supports_bf16", "SupportsFP8": "supports_fp8", "NVLinkGBps": "nvlink_gbps",
		"PCIeGen": "pcie_gen", "MIGSlices": "mig_slices", "TDPWatts": "tdp_watts", "RAMGiB": "ram_gib",
		"VCPUs": "vcpus", "GPUCount": "gpu_count", "GPU": "gpu", "ID": "id", "URL": "url", "AsOf": "as_of",
		"AsOfEstimated": "as_of_estimated", "AsOfLowerBound": "as_of_lower_bound", "Reserved1yPerHour": "reserved_1y_per_hour",
		"Reserved3yPerHour": "reserved_3y_per_hour", "FP4TFLOPS": "fp4_tflops", "SupportsFP4": "supports_fp4",
		"NVLinkDomain": "nvlink_domain", "NVLinkDomainSource": "nvlink_domain_source", "MIGProfiles": "mig_profiles", "PerUSD": "per_usd", "ModelID": "model_id",
		"PricesIncludeVAT": "prices_include_vat", "VATRate": "vat_rate",
	}
	if s, ok := special[name]; ok {
		return s
	}
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
