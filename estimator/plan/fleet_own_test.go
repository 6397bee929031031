package plan

import (
	"errors"
	"math"
	"strings"
	"testing"

	"rightsize/estimator"
)

// TestOwnFleetHandComputed: 2 replicas of one 8-GPU instance at the peak,
// a day needing 2 replicas for 6 hours and 1 for 18 (utilisation
// (12+18)/48 = 0.625), H100s at $30,000 over 4 years, 700 W at the
// default PUE and $0.10/kWh, against $24/h for the instance ($3 per
// GPU-hour):
//
//	capital per hour = 30,000 / (4 × 8,760)      = 0.856164 USD
//	energy per busy hour = 0.7 kW × 1.58 × 0.10  = 0.1106 USD
//	monthly = 16 × (0.856164 + 0.625 × 0.1106) × 730 = 10,807.38 USD
//	break-even u* = 0.856164 / (3 − 0.1106)      = 0.296312
func TestOwnFleetHandComputed(t *testing.T) {
	fr := FleetRow{Row: Row{Offer: &Offer{GPU: "h100-sxm", GPUCount: 8}, PricePerHourUSD: 24, InstancesPerReplica: 1}}
	fr.Plan.Peak = 2
	for h := range fr.Plan.AllOnDemand.Hours {
		fr.Plan.AllOnDemand.Hours[h].Need = 1
		if h >= 10 && h < 16 {
			fr.Plan.AllOnDemand.Hours[h].Need = 2
		}
	}
	o, err := OwnFleet(Owned{PriceUSD: 30000, KWhUSD: 0.10, DepreciationYears: 4}, fr, 700)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"utilisation", o.Owned.Utilisation, 0.625}, {"watts", o.Owned.Watts, 700}, {"PUE", o.Owned.PUE, 1.58},
		{"GPUs", o.GPUs, 16}, {"capital/h", o.CapitalPerHourUSD, 30000.0 / (4 * 8760)}, {"energy/h", o.EnergyPerBusyHourUSD, 0.7 * 1.58 * 0.10},
		{"monthly", o.MonthlyUSD, 16 * (30000.0/(4*8760) + 0.625*0.7*1.58*0.10) * 730},
		{"break-even", o.BreakEvenUtilisation, 30000.0 / (4 * 8760) / (3 - 0.7*1.58*0.10)},
	} {
		if math.Abs(c.got-c.want) > 1e-9*math.Max(1, c.want) {
			t.Errorf("%s %v, want %v", c.what, c.got, c.want)
		}
	}
	if math.Abs(o.MonthlyUSD-10807.38) > 0.01 || !o.PaysOff() {
		t.Errorf("monthly %.2f, pays off %v", o.MonthlyUSD, o.PaysOff())
	}
	if _, err := OwnFleet(Owned{PriceUSD: 30000, KWhUSD: 0.10, DepreciationYears: 4}, fr, 0); err != ErrNoWatts {
		t.Errorf("no TDP: %v", err)
	}
}

// TestOwnCostRefusalsSayTheRange: an owned figure out of range is refused
// naming the field and the range it wants; "--pue 0.5" read "out of range:
// out of range".
func TestOwnCostRefusalsSayTheRange(t *testing.T) {
	ok := Owned{PriceUSD: 25000, Watts: 700, PUE: 1.5, KWhUSD: 0.1, DepreciationYears: 5, Utilisation: 0.5}
	for _, tc := range []struct {
		set   func(*Owned)
		field string
		want  string
	}{
		{func(o *Owned) { o.PUE = 0.5 }, "pue", "want 1 to 10"},
		{func(o *Owned) { o.Utilisation = 2 }, "utilisation", "want a busy share above 0 up to 1"},
		{func(o *Owned) { o.PriceUSD = math.NaN() }, "own-price", "want USD above 0"},
		{func(o *Owned) { o.DepreciationYears = 0 }, "depreciation-years", "want years above 0 up to 100"},
	} {
		o := ok
		tc.set(&o)
		_, err := OwnCost(o, 3)
		var ie *estimator.InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "out of range") != 1 {
			t.Errorf("%s: %v, want one range error naming %q", tc.field, err, tc.want)
		}
	}
	if _, err := OwnCost(ok, 3); err != nil {
		t.Fatal(err)
	}
}
