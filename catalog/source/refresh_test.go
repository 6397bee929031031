//go:build !js

package source_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/catalog/data"
	"rightsize/catalog/source"
)

var refreshDay = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

func replayFetcher(t *testing.T, sleeps *[]time.Duration) *source.Fetcher {
	t.Helper()
	rt, err := source.NewReplayTransport("testdata/refresh")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GCP_API_KEY": "test-key", "LAMBDA_API_KEY": "test-key"}
	return &source.Fetcher{Client: &http.Client{Transport: rt}, Today: refreshDay, Getenv: func(k string) string { return env[k] },
		Retries: 2, Sleep: func(d time.Duration) { *sleeps = append(*sleeps, d) }}
}

func readFiles(t *testing.T) *source.Files {
	t.Helper()
	f, err := source.ReadFiles(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func offerIn(t *testing.T, f *source.Files, id string) catalog.Offer {
	t.Helper()
	c, err := f.Catalog(refreshDay)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := c.Offer(id)
	if !ok {
		t.Fatalf("no offer %s", id)
	}
	return o
}

// A refresh from the recorded responses updates every provider, reads
// every documented field, follows Azure's NextPageLink and GCP's
// nextPageToken, retries Vast's 429, and leaves a catalog that validates.
func TestRefreshReplay(t *testing.T) {
	var sleeps []time.Duration
	f := readFiles(t)
	reports := f.Refresh(context.Background(), replayFetcher(t, &sleeps), source.Adapters, refreshDay)
	for _, r := range reports {
		if r.Status != "updated" && r.Status != "unchanged" {
			t.Errorf("%s: %s: %v", r.Adapter, r.Status, r.Err)
		}
	}
	if len(sleeps) != 1 || sleeps[0] != 0 {
		t.Errorf("Vast's 429 with Retry-After: 0 should be retried once at once; slept %v", sleeps)
	}
	if _, err := f.Catalog(refreshDay); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id                   string
		od, spot, y1, y3     float64
		spotRegion, spotRisk string
		wantSourcePrefixAsOf string
	}{
		// p5.48xlarge has a 1-year Convertible RI only; 3-year Standard All Upfront 543875.99 / 26280 h.
		{"aws-p5.48xlarge", 55.04, 11.2276, 40.454452, 20.695053, "us-east-2", "5-10%", "AWS Price List"},
		{"aws-g5.xlarge", 1.006, 0.3578, 0.591553, 0.378272, "ap-northeast-2", ">20%", "AWS Price List"},
		// AWS China in CNY, each region its own offer at its own prices:
		// Ningxia, Beijing with its own reservations, and Beijing's local
		// zone (in cn-north-1's file) with none.
		{"aws-cn-p4d.24xlarge", 172.873412, 0, 102.294635, 64.236492, "", "", "AWS Price List bulk API (https://pricing.cn-north-1"},
		{"aws-cn-g5.xlarge-cn-northwest-1", 6.70086, 0, 3.907306, 2.488014, "", "", "AWS Price List bulk API (https://pricing.cn-north-1"},
		{"aws-cn-g5.xlarge-cn-north-1", 9.51389, 0, 5.127968, 3.398364, "", "", "AWS Price List bulk API (https://pricing.cn-north-1"},
		{"aws-cn-g5.xlarge-cn-north-1-pkx-1", 9.51389, 0, 0, 0, "", "", "AWS Price List bulk API (https://pricing.cn-north-1"},
		// Page 1 (T4, with its 1-year savings plan) and page 2 (H100).
		{"azure-standard_nc4as_t4_v3", 0.558, 0.16182, 0.37944, 0, "swedencentral", "", "Azure Retail Prices API"},
		{"azure-standard_nd96isr_h100_v5", 127.816, 23.620397, 0, 0, "swedencentral", "", "Azure Retail Prices API"},
		// 12 × core + 85 GiB × RAM + 1 × A100, on-demand and 1-year commitment.
		{"gcp-a2-highgpu-1g", 3.673385, 0, 2.314207, 0, "", "", "Google Cloud Billing Catalog API"},
		{"oci-bm.gpu.h100.8", 80, 0, 0, 0, "", "", "Oracle Cloud price list API"},
		{"runpod-10x_a40_secure", 4, 2, 0, 0, "US", "", "RunPod GraphQL"},
		{"cudo-epyc-genoa-a100-pcie_1x2v4gb", 1.5294, 0, 0, 0, "", "", "Cudo Compute API"},
		{"nebius-gpu-h100-sxm_8gpu-128vcpu-1600gb", 23.6, 10, 0, 0, "eu-north1", "", "dstack gpuhunt catalog"},
		{"verda-1h100.80s.30v", 1.99, 1, 0, 0, "FIN-03", "", "dstack gpuhunt catalog"},
		{"vast-1x-h100_nvl", 1.98, 1.0, 0, 0, "", "", "Vast.ai public offer search"},
	} {
		o := offerIn(t, f, c.id)
		if o.OnDemandPerHour != c.od || o.SpotPerHour != c.spot || o.Reserved1yPerHour != c.y1 || o.Reserved3yPerHour != c.y3 {
			t.Errorf("%s: od %v spot %v 1y %v 3y %v, want %v %v %v %v", c.id, o.OnDemandPerHour, o.SpotPerHour, o.Reserved1yPerHour, o.Reserved3yPerHour, c.od, c.spot, c.y1, c.y3)
		}
		if c.spotRegion != "" && o.SpotRegion != c.spotRegion || c.spotRisk != "" && o.SpotInterruption != c.spotRisk {
			t.Errorf("%s: spot region %q risk %q, want %q %q", c.id, o.SpotRegion, o.SpotInterruption, c.spotRegion, c.spotRisk)
		}
		if o.AsOf != refreshDay.Format(catalog.DateLayout) || o.AsOfEstimated || !strings.HasPrefix(o.Source, c.wantSourcePrefixAsOf) || !strings.Contains(o.Source, refreshDay.Format(catalog.DateLayout)) {
			t.Errorf("%s: as_of %s (estimated %v), source %q", c.id, o.AsOf, o.AsOfEstimated, o.Source)
		}
	}
	for id, region := range map[string]string{"aws-cn-g5.xlarge-cn-northwest-1": "cn-northwest-1", "aws-cn-g5.xlarge-cn-north-1": "cn-north-1", "aws-cn-g5.xlarge-cn-north-1-pkx-1": "cn-north-1-pkx-1"} {
		if o := offerIn(t, f, id); !slices.Equal(o.Regions, []string{region}) {
			t.Errorf("%s: regions %v, want %s alone", id, o.Regions, region)
		}
	}
	// The provider names its new source first and keeps the earlier one.
	if c, _ := f.Catalog(refreshDay); c != nil {
		if p, _ := c.Provider("oci"); p.AsOf != refreshDay.Format(catalog.DateLayout) || !strings.HasPrefix(p.Source, "Oracle Cloud price list API") || !strings.Contains(p.Source, "earlier: ") {
			t.Errorf("oci provider: as_of %s, source %q", p.AsOf, p.Source)
		}
	}
	// Offers a source does not list are kept with their old date.
	if o := offerIn(t, f, "aws-p4d.24xlarge"); o.AsOf != "2026-07-09" || o.OnDemandPerHour == 0 {
		t.Errorf("aws-p4d.24xlarge should be kept unchanged: %+v", o)
	}
	var sum bytes.Buffer
	source.WriteSummary(&sum, reports)
	for _, want := range []string{"vast               updated", "added: vast-1x-h100_nvl", "not listed (kept, as_of unchanged): aws-g4dn.12xlarge", "total: 2 offers added"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
}

// TestRefreshAddsRegion: a region whose price the catalog lacks becomes
// its own offer, with the GPU and host of the type's offer elsewhere and
// no reservation where the region lists none.
func TestRefreshAddsRegion(t *testing.T) {
	var sleeps []time.Duration
	f := readFiles(t)
	kept := f.Offers.Offers[:0]
	for _, o := range f.Offers.Offers {
		if !strings.HasPrefix(o.ID, "aws-cn-g5.xlarge-cn-north-1") {
			kept = append(kept, o)
		}
	}
	f.Offers.Offers = kept
	i := slices.IndexFunc(source.Adapters, func(a source.Adapter) bool { return a.Name == "aws-cn" })
	r := f.Refresh(context.Background(), replayFetcher(t, &sleeps), source.Adapters[i:i+1], refreshDay)
	if r[0].Status != "updated" || !slices.Equal(r[0].Added, []string{"aws-cn-g5.xlarge-cn-north-1", "aws-cn-g5.xlarge-cn-north-1-pkx-1"}) {
		t.Fatalf("%s: %v, added %v", r[0].Status, r[0].Err, r[0].Added)
	}
	o := offerIn(t, f, "aws-cn-g5.xlarge-cn-north-1-pkx-1")
	if o.GPU != "a10g" || o.GPUCount != 1 || o.VCPUs != 4 || o.RAMGiB != 16 || o.OnDemandPerHour != 9.51389 || o.Reserved1yPerHour != 0 ||
		o.Currency != "CNY" || !slices.Equal(o.Regions, []string{"cn-north-1-pkx-1"}) {
		t.Errorf("added %+v", o)
	}
}

// Every adapter, faced with a network error, an HTTP error, a rate limit
// that outlasts the retries, a malformed answer, or an answer in another
// shape, fails with a reason and leaves its provider's offers exactly as
// they were.
func TestRefreshFailuresKeepData(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		closed  bool
		wantErr string
	}{
		{"network error", 200, "", true, "connect"},
		{"server error", 500, "internal error", false, "HTTP 500"},
		{"rate limited", 429, "slow down", false, "rate limited"},
		{"malformed", 200, "{\"Items\": [", false, ""},
		{"other shape", 200, "{\"unexpected\": true}", false, ""},
		{"html", 200, "<html>maintenance</html>", false, ""},
	}
	for _, a := range source.Adapters {
		for _, c := range cases {
			t.Run(a.Name+"/"+c.name, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.WriteHeader(c.status)
					w.Write([]byte(c.body))
				}))
				if c.closed {
					srv.Close()
				} else {
					defer srv.Close()
				}
				var sleeps []time.Duration
				fetch := &source.Fetcher{BaseURL: srv.URL, Today: refreshDay, Retries: 2,
					Getenv: func(string) string { return "test-key" }, Sleep: func(d time.Duration) { sleeps = append(sleeps, d) }}
				f := readFiles(t)
				before := slicesOf(f, a.Provider)
				r := f.Refresh(context.Background(), fetch, []source.Adapter{a}, refreshDay)[0]
				if r.Status != "failed" || r.Err == nil || !strings.Contains(r.Err.Error(), "previous data kept") {
					t.Fatalf("status %s, err %v", r.Status, r.Err)
				}
				if c.wantErr != "" && !strings.Contains(r.Err.Error(), c.wantErr) {
					t.Errorf("error %q lacks %q", r.Err, c.wantErr)
				}
				if c.status == 429 && len(sleeps) != 2 {
					t.Errorf("429: %d retries, want 2", len(sleeps))
				}
				if after := slicesOf(f, a.Provider); !reflect.DeepEqual(before, after) {
					t.Errorf("%s offers changed after a failed refresh", a.Provider)
				}
			})
		}
	}
}

func slicesOf(f *source.Files, provider string) []catalog.Offer {
	c, _ := f.Catalog(refreshDay)
	return c.OffersByProvider(provider)
}

// An answer that parses but lists nothing is a failure, never an empty
// provider.
func TestRefreshEmptyAnswer(t *testing.T) {
	for name, body := range map[string]string{
		"azure":  `{"BillingCurrency":"USD","Items":[],"NextPageLink":null,"Count":0}`,
		"oci":    `{"items":[],"hasMore":false}`,
		"runpod": `{"data":{"gpuTypes":[]}}`,
		"vast":   `{"offers":[]}`,
		"cudo":   `{"machineTypes":[]}`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		var a source.Adapter
		for _, x := range source.Adapters {
			if x.Name == name {
				a = x
			}
		}
		f := readFiles(t)
		n := len(slicesOf(f, a.Provider))
		r := f.Refresh(context.Background(), &source.Fetcher{BaseURL: srv.URL, Today: refreshDay}, []source.Adapter{a}, refreshDay)[0]
		srv.Close()
		if r.Status != "failed" || !strings.Contains(r.Err.Error(), "listed no GPU prices") || len(slicesOf(f, a.Provider)) != n {
			t.Errorf("%s: status %s, err %v, %d offers (had %d)", name, r.Status, r.Err, len(slicesOf(f, a.Provider)), n)
		}
	}
}

// Rows that would make the catalog invalid (an implausible price) fail the
// provider as a whole, and a GraphQL error answer is an error.
func TestRefreshInvalidRowsRevert(t *testing.T) {
	f := readFiles(t)
	before := slicesOf(f, "oci")
	bad := source.Adapter{Name: "bad", Provider: "oci", Owns: []string{"on_demand_per_hour"},
		Fetch: func(ctx context.Context, fe *source.Fetcher, known []catalog.Offer) ([]source.Quote, []string, error) {
			return []source.Quote{
				{PriceRow: catalog.PriceRow{InstanceType: "BM.GPU.A10.4", OnDemandPerHour: 9, AsOf: fe.AsOf(), Source: "t"}},
				{PriceRow: catalog.PriceRow{InstanceType: "BM.GPU.H100.8", OnDemandPerHour: 1e6, AsOf: fe.AsOf(), Source: "t"}},
			}, nil, nil
		}}
	r := f.Refresh(context.Background(), &source.Fetcher{Today: refreshDay}, []source.Adapter{bad}, refreshDay)[0]
	if r.Status != "failed" || !strings.Contains(r.Err.Error(), "implausible") {
		t.Fatalf("status %s, err %v", r.Status, r.Err)
	}
	if !reflect.DeepEqual(before, slicesOf(f, "oci")) {
		t.Error("oci offers changed")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"errors":[{"message":"Unauthorized"}]}`))
	}))
	defer srv.Close()
	for _, a := range source.Adapters {
		if a.Name == "runpod" {
			r := f.Refresh(context.Background(), &source.Fetcher{BaseURL: srv.URL, Today: refreshDay}, []source.Adapter{a}, refreshDay)[0]
			if r.Status != "failed" || !strings.Contains(r.Err.Error(), "GraphQL error: Unauthorized") {
				t.Errorf("runpod: %s %v", r.Status, r.Err)
			}
		}
	}
}

// Adapters that need a key are skipped, with the variable named, when it
// is not set.
// When AWS's spot feed fails, the offer files still refresh on-demand and
// commitments, and the spot prices stay as they were.
func TestRefreshAWSSpotFeedDown(t *testing.T) {
	var sleeps []time.Duration
	fetch := replayFetcher(t, &sleeps)
	rt := fetch.Client.Transport
	fetch.Client = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host == "website.spot.ec2.aws.a2z.com" {
			return &http.Response{StatusCode: 500, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
		}
		return rt.RoundTrip(r)
	})}
	f := readFiles(t)
	before := offerIn(t, f, "aws-g5.xlarge")
	var aws source.Adapter
	for _, a := range source.Adapters {
		if a.Name == "aws" {
			aws = a
		}
	}
	r := f.Refresh(context.Background(), fetch, []source.Adapter{aws}, refreshDay)[0]
	after := offerIn(t, f, "aws-g5.xlarge")
	if r.Status != "updated" || after.SpotPerHour != before.SpotPerHour || after.SpotRegion != before.SpotRegion ||
		after.SpotInterruption != before.SpotInterruption || after.Reserved1yPerHour != 0.591553 {
		t.Errorf("%s %v: spot %v/%s/%s (was %v/%s/%s), 1y %v", r.Status, r.Err, after.SpotPerHour, after.SpotRegion, after.SpotInterruption,
			before.SpotPerHour, before.SpotRegion, before.SpotInterruption, after.Reserved1yPerHour)
	}
	if !strings.Contains(strings.Join(r.Skipped, "\n"), "spot prices not refreshed") {
		t.Errorf("skipped %v", r.Skipped)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRefreshNeedsKey(t *testing.T) {
	f := readFiles(t)
	for _, a := range source.Adapters {
		if a.Env == "" {
			continue
		}
		r := f.Refresh(context.Background(), &source.Fetcher{Today: refreshDay, Getenv: func(string) string { return "" }}, []source.Adapter{a}, refreshDay)[0]
		if r.Status != "skipped" || !strings.Contains(r.Err.Error(), a.Env) {
			t.Errorf("%s: %s %v", a.Name, r.Status, r.Err)
		}
	}
}

func TestRefreshFX(t *testing.T) {
	for _, c := range []struct {
		src            string
		asOf           string
		want           map[string]float64
		kept           string
		changedAtLeast int
	}{
		// Bank of Russia of 2026-08-22: the rates fx.json already holds (INR quoted per 100).
		{"cbr", "2026-08-22", map[string]float64{"RUB": 82.9211, "EUR": 0.856091, "CNY": 6.722806, "INR": 95.746651}, "", 0},
		// ECB of 2026-04-13: per USD = per EUR / USD per EUR; no RUB.
		{"ecb", "2026-04-13", map[string]float64{"EUR": 0.855871, "CNY": 6.832164}, "RUB", 1},
		// PBoC central parity: USD/CNY 6.7889; EUR via EUR/CNY; RUB from CNY/RUB.
		{"pboc", "2026-08-05", map[string]float64{"CNY": 6.7889, "EUR": 0.869714, "RUB": 83.736329}, "GBP", 1},
	} {
		var sleeps []time.Duration
		f := readFiles(t)
		var src source.FXSource
		for _, s := range source.FXSources {
			if s.Name == c.src {
				src = s
			}
		}
		r := f.RefreshFX(context.Background(), replayFetcher(t, &sleeps), src, refreshDay)
		if r.Err != nil || r.AsOf != c.asOf {
			t.Fatalf("%s: %v, as_of %s", c.src, r.Err, r.AsOf)
		}
		got := map[string]float64{}
		for _, x := range f.FX.Rates {
			got[x.Currency] = x.PerUSD
			if _, ok := c.want[x.Currency]; ok && x.AsOf != c.asOf {
				t.Errorf("%s: %s as_of %s", c.src, x.Currency, x.AsOf)
			}
		}
		for cur, w := range c.want {
			if got[cur] != w {
				t.Errorf("%s: %s per USD %v, want %v", c.src, cur, got[cur], w)
			}
		}
		if c.kept != "" && !strings.Contains(strings.Join(r.Kept, " "), c.kept) {
			t.Errorf("%s: kept %v, want %s kept", c.src, r.Kept, c.kept)
		}
		if len(r.Changed) < c.changedAtLeast {
			t.Errorf("%s: changed %v", c.src, r.Changed)
		}
		if _, err := f.FXJSON(); err != nil {
			t.Error(err)
		}
	}
	// A failed fetch keeps fx.json as it was.
	f := readFiles(t)
	before := append([]any(nil), f.FX.Rates)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<ValCurs Date=\"x\"/>")) }))
	defer srv.Close()
	r := f.RefreshFX(context.Background(), &source.Fetcher{BaseURL: srv.URL, Today: refreshDay}, source.FXSources[0], refreshDay)
	if r.Err == nil || !errors.Is(r.Err, source.ErrSchema) || !reflect.DeepEqual(before, append([]any(nil), f.FX.Rates)) {
		t.Errorf("err %v; rates changed: %v", r.Err, !reflect.DeepEqual(before, append([]any(nil), f.FX.Rates)))
	}
}

func TestGPUForName(t *testing.T) {
	for name, want := range map[string]string{
		"H100 SXM": "h100-sxm", "NVIDIA H100 NVL": "h100-nvl", "RTX 4090": "rtx-4090", "A100 SXM4|80": "a100-80gb-sxm",
		"A100 SXM4|40": "a100-40gb-sxm", "A100 PCIe|80": "a100-80gb-pcie", "RTX A6000": "rtx-a6000", "Tesla T4": "t4",
		"RTX 6000 Ada": "rtx-6000-ada", "RTXPRO6000": "rtx-pro-6000", "L40S": "l40s", "Titan Xp": "",
	} {
		n, mem, _ := strings.Cut(name, "|")
		gb := 0.0
		if mem == "80" {
			gb = 80
		} else if mem == "40" {
			gb = 40
		}
		if got := source.GPUForName(n, gb); got != want {
			t.Errorf("GPUForName(%q, %v) = %q, want %q", n, gb, got, want)
		}
	}
}

// TestImportPricesRegion: an imported sheet's row naming a region prices
// that region's offer of the instance type (one offer a region, as AWS
// China), not the type's first offer moved to the region.
func TestImportPricesRegion(t *testing.T) {
	f := readFiles(t)
	if _, err := f.ApplyPrices([]catalog.PriceRow{{Provider: "aws-cn", InstanceType: "g5.xlarge", Region: "cn-northwest-1", OnDemandPerHour: 5.5, AsOf: "2026-11-01", Source: "quote"}}); err != nil {
		t.Fatal(err)
	}
	if o := offerIn(t, f, "aws-cn-g5.xlarge-cn-northwest-1"); o.OnDemandPerHour != 5.5 {
		t.Errorf("Ningxia's offer: on demand %v, want 5.5", o.OnDemandPerHour)
	}
	if o := offerIn(t, f, "aws-cn-g5.xlarge-cn-north-1"); o.OnDemandPerHour != 9.51389 || !slices.Equal(o.Regions, []string{"cn-north-1"}) {
		t.Errorf("Beijing's offer: on demand %v in %v, want 9.51389 in cn-north-1", o.OnDemandPerHour, o.Regions)
	}
}
