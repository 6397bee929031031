//go:build !js

package source

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rightsize/catalog"
)

// Fuzz targets for every refresh parser, seeded with the recorded
// responses. Each checks properties of what a parser accepts: prices and
// rates are positive and finite, dates are dates, and GPU names map to
// catalog GPUs or to nothing; never a panic.

func seed(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata/refresh", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("{}"))
	f.Add([]byte(""))
}

func finite(t *testing.T, what string, xs ...float64) {
	t.Helper()
	for _, x := range xs {
		if x < 0 || !(x == 0 || positive(x)) {
			t.Fatalf("%s: %v is not a finite price", what, x)
		}
	}
}

func FuzzParseAWSOffer(f *testing.F) {
	seed(f, "aws/us-east-1.json", "aws/us-west-2.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		rates, err := ParseAWSOffer(b, "fuzz")
		if err == nil {
			for _, byType := range rates {
				for it, r := range byType {
					finite(t, it, r.od, r.y1, r.y3)
				}
			}
		}
	})
}

func FuzzParseAWSSpot(f *testing.F) {
	seed(f, "aws/spot.js", "aws/spot-advisor-data.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := ParseAWSSpot(b); err == nil {
			for it, m := range s {
				for _, x := range m {
					finite(t, it, x)
				}
			}
		}
		if a, err := ParseAWSSpotAdvisor(b); err == nil {
			for _, m := range a {
				for _, l := range m {
					if !strings.Contains(strings.Join(catalog.SpotBuckets, " "), l) {
						t.Fatalf("bucket %q", l)
					}
				}
			}
		}
	})
}

func FuzzParseAzurePage(f *testing.F) {
	seed(f, "azure/page1.json", "azure/page2.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		into := map[string]map[string]*azureRates{}
		if _, err := ParseAzurePage(b, "fuzz", into); err == nil {
			for sku, m := range into {
				for _, r := range m {
					finite(t, sku, r.od, r.spot, r.y1, r.y3, r.sp1)
				}
			}
		}
	})
}

func FuzzParseGCPPage(f *testing.F) {
	seed(f, "gcp/skus-page1.json", "gcp/skus-page2.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		into := map[skuKey]float64{}
		if _, err := ParseGCPPage(b, into); err == nil {
			for k, x := range into {
				if !positive(x) {
					t.Fatalf("%v: %v", k, x)
				}
			}
		}
	})
}

func FuzzParseOCIProducts(f *testing.F) {
	seed(f, "oci/products.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		into := map[string]float64{}
		if _, err := ParseOCIProducts(b, into); err == nil {
			for g, x := range into {
				if _, ok := catalog.Default().GPU(g); !ok || !positive(x) {
					t.Fatalf("%s: %v", g, x)
				}
			}
		}
	})
}

func FuzzParseGPUClouds(f *testing.F) {
	seed(f, "vast/bundles.json", "runpod/gputypes.json", "lambda/instance-types.json", "cudo/machine-types.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		gpuOK := func(g string) {
			if _, ok := catalog.Default().GPU(g); g != "" && !ok {
				t.Fatalf("GPU %q is not in the catalog", g)
			}
		}
		if v, err := ParseVastOffers(b); err == nil {
			for it, x := range v {
				finite(t, it, x.od, x.spot)
				gpuOK(x.gpu)
			}
		}
		if r, err := ParseRunPodGPUTypes(b); err == nil {
			for _, x := range r {
				gpuOK(GPUForName(x.DisplayName, x.MemoryInGb))
			}
		}
		if l, err := ParseLambdaTypes(b); err == nil {
			for it, q := range l {
				finite(t, it, q.OnDemandPerHour)
				gpuOK(q.GPU)
			}
		}
		if c, err := ParseCudoMachineTypes(b); err == nil {
			for _, x := range c {
				finite(t, x.MachineType, x.GPUPriceHr.f(), x.VCPUPriceHr.f(), x.MemoryGibPriceHr.f())
			}
		}
	})
}

func FuzzParseGPUHuntCSV(f *testing.F) {
	f.Add([]byte("instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot\na,eu,1.5,8,32,1,H100,80,False\na,eu,0.5,8,32,1,H100,80,True\n"))
	f.Add([]byte("instance_name,location,price,gpu_count,gpu_name,gpu_memory,spot\nb,x,NaN,Inf,A100,1e400,True\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := ParseGPUHuntCSV(bytes.NewReader(b)); err == nil {
			for it, x := range m {
				finite(t, it, x.od, x.spot)
				if !positive(x.count) || x.count > 64 {
					t.Fatalf("%s: count %v", it, x.count)
				}
			}
		}
	})
}

func FuzzParseFX(f *testing.F) {
	seed(f, "fx/cbr.xml", "fx/ecb.xml", "fx/pboc.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, s := range FXSources {
			rates, asOf, err := s.Parse(b)
			if err != nil {
				continue
			}
			if _, err := catalog.AsOfTime(asOf); err != nil {
				t.Fatalf("%s: as_of %q", s.Name, asOf)
			}
			if rates["USD"] != 1 {
				t.Fatalf("%s: USD %v", s.Name, rates["USD"])
			}
			for c, x := range rates {
				if !positive(x) && !(x == 0 && c != "USD") {
					t.Fatalf("%s: %s %v", s.Name, c, x)
				}
			}
		}
	})
}

func FuzzGPUForName(f *testing.F) {
	for _, s := range []string{"H100 SXM", "A100 SXM4", "RTX 4090", "NVIDIA A40", "Tesla V100", "", "RTXPRO6000"} {
		f.Add(s, 80.0)
	}
	f.Fuzz(func(t *testing.T, name string, mem float64) {
		if g := GPUForName(name, mem); g != "" {
			if _, ok := catalog.Default().GPU(g); !ok {
				t.Fatalf("GPUForName(%q) = %q, not a catalog GPU", name, g)
			}
		}
	})
}
