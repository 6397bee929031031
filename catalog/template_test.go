//go:build !js

package catalog_test

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"rightsize/catalog"
)

// The Russian and Chinese price-sheet template parses, names providers the
// catalog has, and, once a row is filled, adds offers the page can rank.
func TestRUCNPriceSheetTemplate(t *testing.T) {
	b, err := os.ReadFile("../docs/price-sheets/ru-cn-template.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(catalog.PriceSheetColumns, ",") {
		t.Errorf("header %v, want %v", recs[0], catalog.PriceSheetColumns)
	}
	c := catalog.Default()
	fill := map[string]string{"instance_type": "gpu-a100-1", "gpu": "a100-80gb-pcie", "gpu_count": "1", "region": "r1",
		"as_of": "2026-11-26", "source": "test"}
	var filled strings.Builder
	w := csv.NewWriter(&filled)
	w.Write(recs[0])
	for _, r := range recs[1:] {
		p, ok := c.Provider(r[1])
		if !ok || p.Currency != r[10] {
			t.Errorf("row %v: provider not in the catalog or currency differs", r)
		}
		for i, col := range recs[0] {
			if v, ok := fill[col]; ok {
				r[i] = v
			}
			if col == "on_demand_per_hour" {
				r[i] = map[string]string{"RUB": "300", "CNY": "30"}[p.Currency]
			}
		}
		w.Write(r)
	}
	w.Flush()
	rows, err := catalog.ParsePriceSheet(strings.NewReader(filled.String()))
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := c.WithPrices(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"selectel-gpu-a100-1", "cloudru-gpu-a100-1", "vkcloud-gpu-a100-1", "huaweicloud-gpu-a100-1", "volcengine-gpu-a100-1"} {
		if _, ok := out.Offer(id); !ok {
			t.Errorf("filled template did not add %s", id)
		}
	}
}
