package plan

import (
	"errors"
	"math"
)

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
