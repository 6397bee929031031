package catalog

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// FuzzParsePriceSheet: any bytes a user loads give rows or an error, never
// a panic; accepted rows carry finite, non-negative prices and merging them
// into the catalog either succeeds or reports why; merged as the user's own
// sheet, every offer it prices is the user's, priced, in a currency the FX
// table converts.
func FuzzParsePriceSheet(f *testing.F) {
	f.Add([]byte("offer_id,on_demand_per_hour,currency,as_of,source\naws-g4dn.xlarge,0.5,USD,2026-01-01,quote\n"))
	f.Add([]byte(`{"prices":[{"provider":"aws","instance_type":"g4dn.xlarge","spot_per_hour":0.2,"currency":"USD","as_of":"2026-01-01","source":"x"}]}`))
	f.Add([]byte(`[{"offer_id":"x","gpu_count":-1,"on_demand_per_hour":1e309}]`))
	f.Add([]byte("offer_id,bogus\n1,2\n"))
	f.Add([]byte("\xef\xbb\xbfoffer_id,on_demand_per_hour\n\"a,1\n"))
	f.Add([]byte("\xef\xbb\xbfoffer_id,on_demand_per_hour,as_of,source\r\naws-g4dn.xlarge,0.4,2026-11-01,q\r\n"))
	f.Add([]byte(`[{"offer_id":"aws-g4dn.xlarge","on_demand_per_hour":-1,"network_gbps":-5,"as_of":"2026-11-01","source":"q"}]`))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\naws,x8,h100-sxm,8,0.01,USD,2026-01-01,q\naws,x8,h100-sxm,8,30,USD,2026-01-01,q\n"))
	f.Add([]byte("offer_id,offer_id\na,b\n"))
	f.Add([]byte("offer_id,on_demand_per_hour,currency\nlambda-gpu_1x_h100_sxm5,1.1,eur\n"))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,notes\nvast,ours,h100-sxm,1,1,\"a\nb\"\n"))
	// Providers of the user's own, hostile names among them.
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nMy Lab (west),8xH100,h100-sxm,8,12,USD\n"))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n\"a\x1b[31mred\",x,h100-sxm,1,1,USD\n"))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n\"lab\u202egnp.exe\",x,h100-sxm,1,1,USD\n"))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n\"$(rm -rf ~)\",x,h100-sxm,1,1,USD\n"))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nLab'; echo pwned #,x,h100-sxm,1,1,USD\nЛаб 計算,y,a100-80gb,1,1,USD\n"))
	f.Add([]byte(`[{"provider":"<b>x</b>","instance_type":"x","gpu":"h100-sxm","gpu_count":1,"on_demand_per_hour":1,"currency":"USD"},{"provider":"AWS","instance_type":"x","gpu":"h100-sxm","gpu_count":1,"on_demand_per_hour":1,"currency":"USD"}]`))
	f.Add([]byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n" + strings.Repeat("L", 200) + ",x,h100-sxm,1,1,USD\n"))
	cat := Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		// The user's own sheet (the page's and --prices): a catalog whose
		// offers the sheet priced are the user's, in a currency the FX
		// table converts, with a price; or an error that says it is the
		// sheet's.
		if own, changes, n, err := cat.MergeOwnPrices(data, nil); err != nil {
			if !strings.HasPrefix(err.Error(), "catalog: price sheet: ") {
				t.Fatalf("own sheet: error %q does not name the sheet", err)
			}
		} else {
			if own == nil || n == 0 {
				t.Fatalf("own sheet: catalog %v, %d rows", own != nil, n)
			}
			for _, p := range own.Providers {
				// A provider of the user's own is named as written, and
				// only a name CheckName passes is written.
				if _, known := cat.Provider(p.ID); !known && (p.Kind != KindOwn || p.Name != p.ID || CheckName("provider", p.ID) != nil) {
					t.Fatalf("own sheet: provider %+v", p)
				}
			}
			for _, ch := range changes {
				o, ok := own.Offer(ch.OfferID)
				if _, known := own.Provider(o.Provider); ok && !known {
					t.Fatalf("own sheet: offer %s on provider %q the catalog lacks", o.ID, o.Provider)
				}
				if !ok || !o.UserPrice {
					t.Fatalf("own sheet: offer %s (found %v) is not the user's", ch.OfferID, ok)
				}
				if fx, ok := own.FX(o.Currency); !ok || !(fx.PerUSD > 0) {
					t.Fatalf("own sheet: offer %s in %q, which the FX table lacks", o.ID, o.Currency)
				}
				sum := 0.0
				for _, p := range o.Prices() {
					if math.IsNaN(p.X) || math.IsInf(p.X, 0) || p.X < 0 {
						t.Fatalf("own sheet: offer %s: %s %v", o.ID, p.Field, p.X)
					}
					sum += p.X
				}
				if !(sum > 0) {
					t.Fatalf("own sheet: offer %s has no price", o.ID)
				}
			}
		}
		rows, err := ParsePriceSheet(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range rows {
			for _, v := range []float64{r.GPUCount, r.OnDemandPerHour, r.SpotPerHour, r.Reserved1yPerHour, r.Reserved3yPerHour, r.MonthlyPrice, r.NetworkGbps} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("accepted row %d with %v: %+v", r.Line, v, r)
				}
			}
		}
		out, _, err := cat.WithPrices(rows)
		if err == nil && out == nil {
			t.Fatal("WithPrices returned neither a catalog nor an error")
		}
	})
}

// FuzzAsOfTime: the hand-read dates agree with time.Parse on every input,
// the accepted dates and the refused ones alike.
func FuzzAsOfTime(f *testing.F) {
	for _, s := range []string{"2026-08-22", "2024-02-29", "2023-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
		"0000-01-01", "9999-12-31", "2026-1-01", "2026/01/01", "２０２６-01-01", "2026-01-01 ", "", "+026-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := AsOfTime(s)
		want, wantErr := time.Parse(DateLayout, s)
		if (gotErr == nil) != (wantErr == nil) || !got.Equal(want) {
			t.Fatalf("AsOfTime(%q) = %v, %v; time.Parse gives %v, %v", s, got, gotErr, want, wantErr)
		}
	})
}
