package plan

import (
	"errors"
	"math"

	"rightsize/estimator"
)

// Owning the GPUs instead of renting them. An owned GPU costs its
// purchase price spread over its depreciation period whether it is busy
// or not, plus the energy it draws while it works:
//   - capital per hour = price / (years × 8,760 h): straight-line
//     depreciation to no salvage value (IRS Publication 946, "How To
//     Depreciate Property", straight line method: cost less salvage over
//     the recovery period);
//   - energy per busy hour = W / 1,000 × PUE × price per kWh, PUE being
//     the facility's energy over the IT equipment's (The Green Grid, White
//     Paper #49, "PUE: A Comprehensive Examination of the Metric", 2012).
//     The GPU is assumed to draw W while busy and nothing while idle (an
//     idle GPU draws tens of watts: the figure leans towards owning).
//
// At utilisation u (busy share of the clock's hours) a busy GPU-hour costs
// capital/u + energy. Renting the same busy hours at p per GPU-hour costs
// u·p per clock hour; owning costs capital + u·energy; they are equal at
// the break-even utilisation u* = capital / (p − energy), above which
// owning is cheaper (never when p ≤ energy).

// DefaultPUE is the industry-average power usage effectiveness of 2023,
// 1.58 (Uptime Institute, Global Data Center Survey 2023; Uptime
// Intelligence Update 221, "Large data centers are mostly more efficient,
// analysis confirms", Nov 2023: "In 2023, industry average PUE stood at
// 1.58").
const DefaultPUE = 1.58

// Owned is one owned GPU's figures.
type Owned struct {
	PriceUSD          float64 // purchase price per GPU (its share of the server)
	Watts             float64 // power per GPU while busy
	PUE               float64 // facility energy / IT energy (0: DefaultPUE)
	KWhUSD            float64 // electricity, USD per kWh
	DepreciationYears float64
	Utilisation       float64 // busy share of the clock's hours, (0, 1]
}

// OwnedCost is an owned GPU's cost against a rented price.
type OwnedCost struct {
	CapitalPerHourUSD    float64 // per clock hour
	EnergyPerBusyHourUSD float64
	PerBusyGPUHourUSD    float64 // capital/u + energy
	RentedPerGPUHourUSD  float64
	// BreakEvenUtilisation is u* = capital/(rented − energy); +Inf when
	// renting is never dearer.
	BreakEvenUtilisation float64
}

// OwnCost prices an owned GPU at o against renting at rented USD per
// GPU-hour.
func OwnCost(o Owned, rented float64) (OwnedCost, error) {
	if o.PUE == 0 {
		o.PUE = DefaultPUE
	}
	for _, f := range []struct {
		name string
		v    float64
		ok   bool
		want string
	}{{"own-price", o.PriceUSD, okPos(o.PriceUSD), "want USD above 0"}, {"own-watts", o.Watts, okNonNeg(o.Watts), "want watts ≥ 0"},
		{"pue", o.PUE, o.PUE >= 1 && o.PUE <= 10, "want 1 to 10 (the facility's energy over its IT equipment's)"},
		{"kwh-price", o.KWhUSD, okNonNeg(o.KWhUSD), "want USD ≥ 0"},
		{"depreciation-years", o.DepreciationYears, o.DepreciationYears > 0 && o.DepreciationYears <= 100, "want years above 0 up to 100"},
		{"utilisation", o.Utilisation, o.Utilisation > 0 && o.Utilisation <= 1, "want a busy share above 0 up to 1"},
		{"rented price", rented, okNonNeg(rented), "want USD ≥ 0"}} {
		if !f.ok {
			return OwnedCost{}, &estimator.InputError{Field: f.name, Value: fleetNum(f.v), Err: estimator.ErrRange, Reason: f.want}
		}
	}
	c := OwnedCost{RentedPerGPUHourUSD: rented}
	c.CapitalPerHourUSD = o.PriceUSD / (o.DepreciationYears * 8760)
	c.EnergyPerBusyHourUSD = o.Watts / 1000 * o.PUE * o.KWhUSD
	c.PerBusyGPUHourUSD = c.CapitalPerHourUSD/o.Utilisation + c.EnergyPerBusyHourUSD
	c.BreakEvenUtilisation = math.Inf(1)
	if d := rented - c.EnergyPerBusyHourUSD; d > 0 {
		c.BreakEvenUtilisation = c.CapitalPerHourUSD / d
	}
	return c, nil
}

// OwnedFleet is a daily fleet's peak owned instead of rented: the GPUs,
// the owned figures used (TDP and the fleet's own utilisation filled in)
// and their cost against the offer's on-demand price.
type OwnedFleet struct {
	Owned Owned // as used: Watts, PUE and Utilisation filled in
	OwnedCost
	// GPUs is peak replicas × GPUs per replica.
	GPUs float64
	// MonthlyUSD is what owning them costs a month: GPUs × (capital per
	// hour + utilisation × energy per busy hour) × HoursPerMonth.
	MonthlyUSD float64
	// RentedMonthlyUSD is the best rented fleet for the same day on the
	// same offer (FleetPlan.Best: its mix of on-demand, spot and
	// reservations), the basis the verdict compares with; the break-even
	// utilisation above is against the on-demand price alone.
	RentedMonthlyUSD float64
}

// CheaperThanRenting reports whether owning the fleet's peak costs less a
// month than the best rented fleet for the same day.
func (f OwnedFleet) CheaperThanRenting() bool {
	return f.RentedMonthlyUSD > 0 && f.MonthlyUSD < f.RentedMonthlyUSD
}

// ErrNoWatts is OwnFleet's answer when neither the owned figures nor the
// catalog give the GPU's power.
var ErrNoWatts = errors.New("no power figure for the GPU: give the watts per GPU")

// OwnFleet prices owning fr's peak: peak replicas × GPUs per replica owned
// GPUs, drawing o.Watts (else tdpWatts, the GPU's TDP) while busy, busy
// the fleet's own share of their hours (replica-hours needed over 24 ×
// the peak) unless o.Utilisation says otherwise, against the offer's
// on-demand price per GPU-hour. The CLI's --own-* flags and the page's
// owned-GPU fields both ask it.
func OwnFleet(o Owned, fr FleetRow, tdpWatts float64) (OwnedFleet, error) {
	off := fr.Row.Offer
	if off == nil || !(off.GPUCount > 0) {
		return OwnedFleet{}, errors.New("the fleet has no offer")
	}
	fp := fr.Plan
	if o.Watts == 0 {
		if !(tdpWatts > 0) {
			return OwnedFleet{}, ErrNoWatts
		}
		o.Watts = tdpWatts
	}
	if o.Utilisation == 0 {
		busy := 0
		for _, x := range fp.AllOnDemand.Hours {
			busy += x.Need
		}
		o.Utilisation = float64(busy) / float64(24*max(fp.Peak, 1))
	}
	if o.PUE == 0 {
		o.PUE = DefaultPUE
	}
	c, err := OwnCost(o, fr.Row.PricePerHourUSD/off.GPUCount)
	if err != nil {
		return OwnedFleet{}, err
	}
	gpus := float64(fp.Peak) * float64(max(fr.Row.InstancesPerReplica, 1)) * off.GPUCount
	return OwnedFleet{Owned: o, OwnedCost: c, GPUs: gpus, RentedMonthlyUSD: fp.Best.MonthlyUSD,
		MonthlyUSD: gpus * (c.CapitalPerHourUSD + o.Utilisation*c.EnergyPerBusyHourUSD) * HoursPerMonth}, nil
}

// PaysOff reports whether owning beats renting at some utilisation (at
// or below 100% only when BreakEvenUtilisation ≤ 1).
func (f OwnedFleet) PaysOff() bool { return !math.IsInf(f.BreakEvenUtilisation, 0) }
