package catalog_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
)

func TestDefaultLookups(t *testing.T) {
	c := catalog.Default()
	for _, id := range []string{"t4", "l4", "a10g", "a100-80gb-sxm", "h100-sxm", "rtx-4090"} {
		if _, ok := c.GPU(id); !ok {
			t.Errorf("GPU(%q) missing", id)
		}
	}
	for _, id := range []string{"llama-3.1-8b", "qwen2.5-7b", "mistral-7b-v0.1"} {
		m, ok := c.Model(id)
		if !ok {
			t.Errorf("Model(%q) missing", id)
			continue
		}
		if !strings.Contains(m.Config, `"model_type"`) {
			t.Errorf("Model(%q).Config has no model_type: %.80s", id, m.Config)
		}
	}
	if _, ok := c.GPU("no-such-gpu"); ok {
		t.Error(`GPU("no-such-gpu") found`)
	}
	// The datasheet's "80GB" is JEDEC's binary GB: 80 GiB of HBM3.
	if g, _ := c.GPU("h100-sxm"); g.Memory != 80*estimator.GiB {
		t.Errorf("h100-sxm memory = %d, want 80 GiB", g.Memory)
	}
}

func TestDefaultSortedAndResolved(t *testing.T) {
	c := catalog.Default()
	if !slices.IsSortedFunc(c.GPUs, func(a, b catalog.GPU) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("GPUs not sorted by ID")
	}
	if !slices.IsSortedFunc(c.Offers, func(a, b catalog.Offer) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("Offers not sorted by ID")
	}
	for _, o := range c.Offers {
		if _, ok := c.GPU(o.GPU); !ok {
			t.Errorf("offer %s: GPU %q unresolved", o.ID, o.GPU)
		}
		if _, ok := c.Provider(o.Provider); !ok {
			t.Errorf("offer %s: provider %q unresolved", o.ID, o.Provider)
		}
	}
}

// Prices quoted by the guides our users read (DOMAIN.md), as checks on the
// snapshot (skypilot-catalog v9 AWS, us-east-1).
func TestGuidePrices(t *testing.T) {
	c := catalog.Default()
	for _, tt := range []struct {
		id    string
		gpu   string
		count float64
		usd   float64
	}{
		{"aws-g4dn.xlarge", "t4", 1, 0.526},
		{"aws-p3.2xlarge", "v100-16gb", 1, 3.06},
		// The guides quote $32.77, the price before AWS's 2025 P4/P5 cut.
		{"aws-p4d.24xlarge", "a100-40gb-sxm", 8, 21.957642},
	} {
		o, ok := c.Offer(tt.id)
		if !ok || o.OnDemandPerHour != tt.usd || o.GPU != tt.gpu || o.GPUCount != tt.count || o.Currency != "USD" {
			t.Errorf("%s = %+v, want %v x %s at %v USD/h", tt.id, o, tt.count, tt.gpu, tt.usd)
		}
	}
	// Notes are compiled into native builds only (zz_generated_notes.go).
	if o, _ := c.Offer("aws-p4d.24xlarge"); runtime.GOOS != "js" && !strings.Contains(o.Notes, "32.77") {
		t.Errorf("aws-p4d.24xlarge notes do not mention the pre-2025 price: %q", o.Notes)
	}
}

func TestCoverage(t *testing.T) {
	c := catalog.Default()
	// Providers our users' guides name, plus Russian- and Chinese-market
	// clouds with public prices.
	for _, id := range []string{"aws", "gcp", "azure", "alibaba", "lambda", "runpod", "vast", "coreweave", "vultr", "ovhcloud", "yandex", "tencent", "akash", "salad"} {
		p, ok := c.Provider(id)
		if !ok {
			t.Errorf("provider %q missing", id)
			continue
		}
		if len(c.OffersByProvider(id)) == 0 {
			t.Errorf("provider %q has no offers", id)
		}
		if _, err := catalog.AsOfTime(p.AsOf); err != nil {
			t.Errorf("provider %q: %v", id, err)
		}
	}
	if len(c.GPUs) < 30 || len(c.Offers) < 500 || len(c.Providers) < 15 {
		t.Errorf("%d GPUs, %d offers, %d providers", len(c.GPUs), len(c.Offers), len(c.Providers))
	}
}

func TestStaleness(t *testing.T) {
	p := catalog.Provider{AsOf: "2026-01-01"}
	if p.StaleAt(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("59 days old reported stale")
	}
	if !p.StaleAt(time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)) {
		t.Error("91 days old not reported stale")
	}
	if !(catalog.Provider{}).StaleAt(time.Now()) {
		t.Error("undated provider not reported stale")
	}
	c := catalog.Default()
	if c.OldestAsOf() == "" || c.OldestAsOf() > c.NewestAsOf() {
		t.Errorf("OldestAsOf %q, NewestAsOf %q", c.OldestAsOf(), c.NewestAsOf())
	}
}

func TestPerGPUHour(t *testing.T) {
	o := catalog.Offer{GPUCount: 8, OnDemandPerHour: 21.957642}
	if got := o.OnDemandPerGPUHour(); got < 2.7447 || got > 2.7448 {
		t.Errorf("OnDemandPerGPUHour = %v, want 2.74470525", got)
	}
	if (catalog.Offer{}).OnDemandPerGPUHour() != 0 {
		t.Error("zero offer has a price")
	}
}

// TestKindsFilter: the default set, every kind, a list of kinds, and a
// kind no provider has refused by name (it planned on no offer, silently).
func TestKindsFilter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", catalog.DefaultKinds, ""},
		{" any ", nil, ""},
		{"marketplace, decentralized,", []string{catalog.KindMarketplace, catalog.KindDecentralized}, ""},
		{"gpu-cloud,gpucloud", nil, `"gpucloud": not a provider kind`},
		{"NaN", nil, `"NaN": not a provider kind`},
	} {
		got, err := catalog.KindsFilter(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("KindsFilter(%q): %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("KindsFilter(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestFormsNameTheChip: the entry for a chip in no form factor stands for
// the chip in every form the catalog names (an A100 80GB is sold as
// a100-80gb where the provider does not say SXM or PCIe), and for no
// other chip: not the H100 NVL of 94 GB, not the V100S, not itself.
func TestFormsNameTheChip(t *testing.T) {
	c := catalog.Default()
	for id, want := range map[string][]string{
		"a100-80gb":     {"a100-80gb-pcie", "a100-80gb-sxm"},
		"a100-40gb":     {"a100-40gb-pcie", "a100-40gb-sxm"},
		"h100-80gb":     {"h100-pcie", "h100-sxm"},
		"h200-141gb":    {"h200-nvl", "h200-sxm"},
		"v100-32gb":     nil,
		"a800-80gb":     nil,
		"a100-80gb-sxm": nil,
		"h100-sxm":      nil,
		"no-such-gpu":   nil,
	} {
		if got := c.Forms(id); !slices.Equal(got, want) {
			t.Errorf("Forms(%s) = %v, want %v", id, got, want)
		}
	}
	chips := c.Chips()
	for gpu, want := range map[string]string{"h200-sxm": "h200-141gb", "a100-40gb-sxm": "a100-40gb", "h100-pcie": "h100-80gb", "h200-141gb": "", "h100-nvl": "", "mi300x": ""} {
		if got := chips[gpu]; got != want {
			t.Errorf("%s's chip is %q, want %q", gpu, got, want)
		}
	}
}
