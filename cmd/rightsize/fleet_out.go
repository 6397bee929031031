package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"rightsize/catalog"
	"rightsize/estimator/plan"
)

// The fleet's JSON ("fleet" in plan's --format json) and its table; the
// fields are listed in the comment at the top of plan.go.

type bucketJSON struct {
	PromptTokens int     `json:"prompt_tokens"`
	OutputTokens int     `json:"output_tokens"`
	Share        float64 `json:"share"`
}

type workloadJSON struct {
	Source           string       `json:"source"`
	Requests         int          `json:"requests"`
	Days             int          `json:"days"`
	MeanPromptTokens int          `json:"mean_prompt_tokens"`
	MeanOutputTokens int          `json:"mean_output_tokens"`
	Buckets          []bucketJSON `json:"buckets"`
	CurveFromLog     bool         `json:"curve_from_log"`
}

type hourJSON struct {
	Hour              int     `json:"hour"`
	RequestsPerSecond float64 `json:"requests_per_second"`
	Need              int     `json:"need"`
	Reserved          int     `json:"reserved"`
	OnDemand          int     `json:"on_demand"`
	Spot              int     `json:"spot"`
	ReservedUSD       float64 `json:"reserved_usd"`
	OnDemandUSD       float64 `json:"on_demand_usd"`
	SpotUSD           float64 `json:"spot_usd"`
	StartUpUSD        float64 `json:"start_up_usd"`
	SpotReclaimUSD    float64 `json:"spot_reclaim_usd"`
	USD               float64 `json:"usd"`
	MonthlyUSD        float64 `json:"monthly_usd"`
}

type choiceJSON struct {
	Term       string     `json:"term"`
	Reserved   int        `json:"reserved"`
	MonthlyUSD float64    `json:"monthly_usd"`
	Hours      []hourJSON `json:"hours"`
}

type ownedJSON struct {
	// GPU is the catalog GPU owned: the fleet's offer's, which --own-price
	// prices one of (without --gpu, whichever GPU the best fleet rents).
	GPU                  string   `json:"gpu"`
	PriceUSD             float64  `json:"price_usd"`
	Watts                float64  `json:"watts"`
	PUE                  float64  `json:"pue"`
	KWhUSD               float64  `json:"kwh_usd"`
	DepreciationYears    float64  `json:"depreciation_years"`
	Utilisation          float64  `json:"utilisation"`
	CapitalPerHourUSD    float64  `json:"capital_per_gpu_hour_usd"`
	EnergyPerBusyHourUSD float64  `json:"energy_per_busy_gpu_hour_usd"`
	PerBusyGPUHourUSD    float64  `json:"cost_per_busy_gpu_hour_usd"`
	RentedPerGPUHourUSD  float64  `json:"rented_per_gpu_hour_usd"`
	BreakEvenUtilisation *float64 `json:"break_even_utilisation"`
	GPUs                 float64  `json:"gpus"`
	MonthlyUSD           float64  `json:"monthly_usd"`
	// BestRentedMonthlyUSD is the best rented fleet of the same day (the
	// offer's best mix); CheaperThanRenting compares owning with it.
	BestRentedMonthlyUSD float64 `json:"best_rented_monthly_usd"`
	CheaperThanRenting   bool    `json:"cheaper_than_renting"`
}

type fleetOfferJSON struct {
	OfferID                   string      `json:"offer_id"`
	Provider                  string      `json:"provider"`
	InstanceType              string      `json:"instance_type"`
	GPU                       string      `json:"gpu"`
	InstancesPerReplica       int         `json:"instances_per_replica"`
	GPUsPerReplica            float64     `json:"gpus_per_replica"`
	BillingGranularity        string      `json:"billing_granularity"`
	BillingAssumedHour        bool        `json:"billing_assumed_hour"`
	BilledStartUpHours        float64     `json:"billed_start_up_hours"`
	StartUpSeconds            float64     `json:"start_up_seconds"`
	SpotInterruptionsPerMonth float64     `json:"spot_interruptions_per_month"`
	Sized                     bool        `json:"sized"`
	Why                       string      `json:"why,omitempty"`
	PeakReplicas              int         `json:"peak_replicas"`
	MinReplicas               int         `json:"min_replicas"`
	BreakEven1y               float64     `json:"reserved_1y_break_even_utilisation"`
	BreakEven3y               float64     `json:"reserved_3y_break_even_utilisation"`
	OnDemand                  *choiceJSON `json:"all_on_demand"`
	Spot                      *choiceJSON `json:"all_spot"`
	Reserved1y                *choiceJSON `json:"all_reserved_1y"`
	Reserved3y                *choiceJSON `json:"all_reserved_3y"`
	Best                      *choiceJSON `json:"best"`
	SavingUSD                 float64     `json:"saving_usd"`
	SavingShare               float64     `json:"saving_share"`
	DeclinedSpotMonthlyUSD    float64     `json:"declined_spot_monthly_usd,omitempty"`
	SecondSpareMonthlyUSD     float64     `json:"second_spare_monthly_usd,omitempty"`
	Owned                     *ownedJSON  `json:"owned,omitempty"`
	// OwnedError says why this offer has no owned alternative (its GPU
	// has no TDP in the catalog and --own-watts is not given); the other
	// offers keep theirs.
	OwnedError string `json:"owned_error,omitempty"`
}

type fleetJSON struct {
	LoadCurve     []float64        `json:"load_curve"`
	Workload      *workloadJSON    `json:"workload,omitempty"`
	MinReplicas   int              `json:"min_replicas"`
	SpotInBestMix bool             `json:"spot_in_best_mix"`
	Offers        []fleetOfferJSON `json:"offers"`
	Mixed         *mixJSON         `json:"mixed,omitempty"`
}

func newChoiceJSON(c plan.FleetChoice, curve plan.LoadCurve) *choiceJSON {
	if !c.Priced {
		return nil
	}
	out := &choiceJSON{Term: c.Term.String(), Reserved: c.Reserved, MonthlyUSD: c.MonthlyUSD, Hours: make([]hourJSON, 24)}
	if c.Reserved == 0 {
		out.Term = "none"
	}
	for h, x := range c.Hours {
		out.Hours[h] = hourJSON{Hour: x.Hour, RequestsPerSecond: curve[h], Need: x.Need, Reserved: x.Reserved, OnDemand: x.OnDemand, Spot: x.Spot,
			ReservedUSD: x.ReservedUSD, OnDemandUSD: x.OnDemandUSD, SpotUSD: x.SpotUSD, StartUpUSD: x.StartUpUSD, SpotReclaimUSD: x.SpotReclaimUSD,
			USD: x.USD, MonthlyUSD: x.MonthlyUSD}
	}
	return out
}

// newFleetJSON shapes the fleets; own prices the owned alternative per
// offer (nil: not asked).
func newFleetJSON(res plan.FleetResult, fo plan.FleetOptions, wl *plan.WorkloadMix, own *plan.Owned, cat *catalog.Catalog) (fleetJSON, error) {
	out := fleetJSON{LoadCurve: fo.Curve[:], MinReplicas: max(fo.MinReplicas, 1), SpotInBestMix: !fo.NoSpot, Offers: []fleetOfferJSON{}}
	if wl != nil {
		w := &workloadJSON{Source: wl.Source, Requests: wl.Requests, Days: wl.Days, MeanPromptTokens: wl.MeanPrompt, MeanOutputTokens: wl.MeanOutput,
			CurveFromLog: wl.Curve != nil && *wl.Curve == fo.Curve}
		for _, b := range wl.Buckets {
			w.Buckets = append(w.Buckets, bucketJSON{b.PromptTokens, b.OutputTokens, b.Share})
		}
		out.Workload = w
	}
	for _, fr := range res.Rows {
		o := fr.Row.Offer
		fp := fr.Plan
		j := fleetOfferJSON{OfferID: o.ID, Provider: o.Provider, InstanceType: o.InstanceType, GPU: o.GPU,
			InstancesPerReplica: fr.Row.InstancesPerReplica, GPUsPerReplica: float64(fr.Row.InstancesPerReplica) * o.GPUCount,
			BillingGranularity: o.BillingGranularity, BillingAssumedHour: fp.AssumedHourBilling, BilledStartUpHours: fp.BilledStartUpHours,
			StartUpSeconds: fr.StartUpSeconds, SpotInterruptionsPerMonth: fr.SpotInterruptionsPerMonth, Sized: fr.Sized,
			PeakReplicas: fp.Peak, MinReplicas: fp.Min, BreakEven1y: fp.BreakEven1y, BreakEven3y: fp.BreakEven3y,
			OnDemand: newChoiceJSON(fp.AllOnDemand, fo.Curve), Spot: newChoiceJSON(fp.AllSpot, fo.Curve),
			Reserved1y: newChoiceJSON(fp.AllReserved1y, fo.Curve), Reserved3y: newChoiceJSON(fp.AllReserved3y, fo.Curve),
			Best: newChoiceJSON(fp.Best, fo.Curve), SavingUSD: fp.SavingUSD, SavingShare: fp.SavingShare,
			DeclinedSpotMonthlyUSD: fp.DeclinedSpotMonthlyUSD, SecondSpareMonthlyUSD: fp.SecondSpareMonthlyUSD}
		if !fr.Sized {
			j.Why = fr.Reason.String()
		}
		if own != nil && fr.Sized && fp.AllOnDemand.Priced && o.GPUCount > 0 {
			ow, err := ownedFleet(*own, fr, cat)
			switch {
			case errors.Is(err, plan.ErrNoWatts):
				j.OwnedError = err.Error()
			case err != nil:
				return fleetJSON{}, err
			default:
				j.Owned = ow
			}
		}
		out.Offers = append(out.Offers, j)
	}
	return out, nil
}

// ownedFleet prices owning the fleet's peak with plan.OwnFleet, which the
// page's owned-GPU fields ask too: peak replicas × GPUs per replica owned
// GPUs, busy the fleet's own share of their hours unless --utilisation
// says otherwise, drawing --own-watts (else the catalog's TDP), against
// the offer's on-demand price per GPU-hour.
func ownedFleet(o plan.Owned, fr plan.FleetRow, cat *catalog.Catalog) (*ownedJSON, error) {
	tdp := 0.0
	if g, ok := cat.GPU(fr.Row.Offer.GPU); ok {
		tdp = float64(g.TDPWatts)
	}
	f, err := plan.OwnFleet(o, fr, tdp)
	if errors.Is(err, plan.ErrNoWatts) {
		return nil, fmt.Errorf("%w (the catalog has no TDP for %s): give --own-watts", err, fr.Row.Offer.GPU)
	}
	if err != nil {
		return nil, err
	}
	u := f.Owned
	j := &ownedJSON{GPU: fr.Row.Offer.GPU, PriceUSD: u.PriceUSD, Watts: u.Watts, PUE: u.PUE, KWhUSD: u.KWhUSD, DepreciationYears: u.DepreciationYears,
		Utilisation: u.Utilisation, CapitalPerHourUSD: f.CapitalPerHourUSD, EnergyPerBusyHourUSD: f.EnergyPerBusyHourUSD,
		PerBusyGPUHourUSD: f.PerBusyGPUHourUSD, RentedPerGPUHourUSD: f.RentedPerGPUHourUSD, GPUs: f.GPUs, MonthlyUSD: f.MonthlyUSD,
		BestRentedMonthlyUSD: f.RentedMonthlyUSD, CheaperThanRenting: f.CheaperThanRenting()}
	if f.PaysOff() {
		v := f.BreakEvenUtilisation
		j.BreakEvenUtilisation = &v
	}
	return j, nil
}

func usd(v float64) string {
	if v >= 100 {
		return "$" + plan.GroupFixed(math.Round(v), 0)
	}
	return fmt.Sprintf("$%.2f", v)
}

// money writes US dollar amounts in the plan's currency: "$1,234" and
// "$68.94" in USD, "1,234 EUR" and "68.94 EUR" in another at its rate
// (perUSD units a dollar), as the plan's table shows money in --currency.
type money struct {
	currency string
	perUSD   float64
}

// moneyOf is p's currency.
func moneyOf(p planJSON) money { return money{p.Currency, p.perUSD} }

func (m money) of(v float64) string {
	if m.currency == "" || m.currency == "USD" || !(m.perUSD > 0) {
		return usd(v)
	}
	return strings.TrimPrefix(usd(v*m.perUSD), "$") + " " + m.currency
}

// of3 is a small rate (electricity per kWh) to three decimals.
func (m money) of3(v float64) string {
	if m.currency == "" || m.currency == "USD" || !(m.perUSD > 0) {
		return fmt.Sprintf("$%.3f", v)
	}
	return fmt.Sprintf("%.3f %s", v*m.perUSD, m.currency)
}

// unit is the currency's name for column heads: "USD", "EUR".
func (m money) unit() string {
	if m.currency == "" || !(m.perUSD > 0) {
		return "USD"
	}
	return m.currency
}

func choiceText(c *choiceJSON, m money) string {
	if c == nil {
		return "-"
	}
	return m.of(c.MonthlyUSD)
}

// mixText names a best mix: "2 reserved-1y + on demand/spot".
func mixText(c *choiceJSON) string {
	if c == nil {
		return "-"
	}
	od, sp := false, false
	for _, h := range c.Hours {
		od, sp = od || h.OnDemand > 0, sp || h.Spot > 0
	}
	var parts []string
	if c.Reserved > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", c.Reserved, c.Term))
	}
	if od {
		parts = append(parts, "on demand")
	}
	if sp {
		parts = append(parts, "spot")
	}
	return strings.Join(parts, " + ")
}

// writeFleet prints the fleets: one line per offer, then the best
// offer's day hour by hour and its bills.
func writeFleet(w io.Writer, f fleetJSON, m money) {
	curve := plan.LoadCurve(f.LoadCurve)
	peakH, lowH := 0, 0
	for h, v := range curve {
		if v > curve[peakH] {
			peakH = h
		}
		if v < curve[lowH] {
			lowH = h
		}
	}
	fmt.Fprintf(w, "Daily load: peak %.4g req/s at %02d:00, lowest %.4g req/s at %02d:00, mean %.4g req/s; at least %d replica(s)\n",
		curve[peakH], peakH, curve[lowH], lowH, curve.Mean(), f.MinReplicas)
	if wl := f.Workload; wl != nil {
		fmt.Fprintf(w, "Workload %s: ", wl.Source)
		if wl.Requests > 0 {
			fmt.Fprintf(w, "%s requests", plan.GroupInt(wl.Requests))
			if wl.Days > 0 {
				fmt.Fprintf(w, " on %d day(s)", wl.Days)
			}
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "mean %d prompt / %d output tokens; size classes (prompt/output tokens, share):", wl.MeanPromptTokens, wl.MeanOutputTokens)
		for _, b := range wl.Buckets {
			fmt.Fprintf(w, " %d/%d %.0f%%", b.PromptTokens, b.OutputTokens, 100*b.Share)
		}
		fmt.Fprintln(w)
		if len(wl.Buckets) > 1 {
			fmt.Fprintln(w, "Each hour's replicas carry the sum of each size class's load at its share of the rate (its rate / the most one engine copy serves of that class within the SLOs); short requests queueing behind long prompts are not modelled.")
		}
		if wl.CurveFromLog {
			fmt.Fprintln(w, "The load curve is the log's requests per hour of the day (UTC) over the days it touches.")
		}
	}
	if len(f.Offers) == 0 {
		fmt.Fprintln(w, "No offer serves the peak within the SLOs.")
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OFFER\tGPU\tREPLICAS\tON DEMAND\tSPOT\tRESERVED 1Y\tRESERVED 3Y\tBEST MIX\tBEST /MONTH\tSAVING")
	declined := false
	for _, o := range f.Offers {
		if !o.Sized {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\t%s\t-\t-\n", o.OfferID, o.GPU, o.Why)
			continue
		}
		mix := mixText(o.Best)
		if o.DeclinedSpotMonthlyUSD > 0 {
			mix += " (no spot*)"
			declined = true
		}
		fmt.Fprintf(tw, "%s\t%s\t%d..%d × %g GPU\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f%%\n", o.OfferID, o.GPU, o.MinReplicas, o.PeakReplicas, o.GPUsPerReplica,
			choiceText(o.OnDemand, m), choiceText(o.Spot, m), choiceText(o.Reserved1y, m), choiceText(o.Reserved3y, m), mix, choiceText(o.Best, m), 100*o.SavingShare)
	}
	tw.Flush()
	if declined {
		fmt.Fprintln(w, "* a mix on spot was cheaper, by less than a second spare replica costs: one offer's spot replicas are one pool, reclaimed together, so the saving does not pay for the reclaims (--json: declined_spot_monthly_usd, second_spare_monthly_usd).")
	}
	o := f.Offers[0]
	if !o.Sized || o.Best == nil {
		return
	}
	fmt.Fprintf(w, "\n%s (%s, %s), best mix hour by hour (monthly bills; a month is 730 h, each hour of the day 30.4 times):\n", o.OfferID, o.Provider, o.GPU)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "HOUR\tREQ/S\tNEED\tRESERVED\tON DEMAND\tSPOT\t"+m.unit()+"/MONTH\t")
	for _, h := range o.Best.Hours {
		fmt.Fprintf(tw, "%02d\t%.4g\t%d\t%d\t%d\t%d\t%s\t\n", h.Hour, h.RequestsPerSecond, h.Need, h.Reserved, h.OnDemand, h.Spot, m.of(h.MonthlyUSD))
	}
	tw.Flush()
	fmt.Fprintf(w, "Monthly bill: all on demand %s; all spot %s (one spare replica); all reserved at the peak: 1 year %s, 3 years %s; best mix (%s) %s",
		choiceText(o.OnDemand, m), choiceText(o.Spot, m), choiceText(o.Reserved1y, m), choiceText(o.Reserved3y, m), mixText(o.Best), choiceText(o.Best, m))
	if o.OnDemand != nil {
		fmt.Fprintf(w, ", %s (%.0f%%) less than all on demand", m.of(o.SavingUSD), 100*o.SavingShare)
	}
	fmt.Fprintln(w, ".")
	if o.BreakEven1y > 0 || o.BreakEven3y > 0 {
		fmt.Fprintf(w, "A reservation pays off for a replica busy more than %s of the day (reserved rate / on-demand rate).\n", breakEvenText(o))
	}
	if o.DeclinedSpotMonthlyUSD > 0 {
		fmt.Fprintf(w, "Spot left out: the cheapest mix on spot, %s, saves less than a second spare replica costs (%s): one offer's spot replicas are one pool, reclaimed together, so a smaller saving does not pay for the reclaims.\n",
			m.of(o.DeclinedSpotMonthlyUSD), m.of(o.SecondSpareMonthlyUSD))
	}
	if strings.Contains(mixText(o.Best), "spot") {
		fmt.Fprintln(w, "The best mix serves on spot with one spare replica: a reclaim takes a replica away until its replacement starts, and the providers' guides advise against spot for production serving; --no-spot plans without it.")
	}
	start := fmt.Sprintf("Start-up %.0f s per new replica", o.StartUpSeconds)
	switch {
	case o.BillingAssumedHour:
		start += ", billed by the hour (the catalog gives no granularity: assumed)"
	default:
		start += ", billed by the " + o.BillingGranularity
	}
	fmt.Fprintf(w, "%s; spot reclaims %.1f%% of replicas a month.\n", start, 100*o.SpotInterruptionsPerMonth)
	if o.OwnedError != "" {
		fmt.Fprintf(w, "Owned: %s.\n", o.OwnedError)
	}
	if ow := o.Owned; ow != nil {
		be := "never (electricity costs more than renting)"
		if ow.BreakEvenUtilisation != nil {
			be = fmt.Sprintf("%.0f%% busy", 100**ow.BreakEvenUtilisation)
		}
		fmt.Fprintf(w, "Owned: %g %s GPUs at %s each over %g years, %g W × PUE %.2f at %s/kWh, %.0f%% busy: %s per busy GPU-hour against %s rented; %s a month; owning breaks even at %s.\n",
			ow.GPUs, ow.GPU, m.of(ow.PriceUSD), ow.DepreciationYears, ow.Watts, ow.PUE, m.of3(ow.KWhUSD), 100*ow.Utilisation, m.of(ow.PerBusyGPUHourUSD), m.of(ow.RentedPerGPUHourUSD),
			m.of(ow.MonthlyUSD), be)
		verdict := "renting is cheaper"
		if ow.CheaperThanRenting {
			verdict = "owning is cheaper"
		}
		fmt.Fprintf(w, "Owned against the best rented fleet of the same day: %s a month against %s: %s.\n", m.of(ow.MonthlyUSD), m.of(ow.BestRentedMonthlyUSD), verdict)
	}
}

func breakEvenText(o fleetOfferJSON) string {
	var p []string
	if o.BreakEven1y > 0 {
		p = append(p, fmt.Sprintf("%.0f%% (1 year)", 100*o.BreakEven1y))
	}
	if o.BreakEven3y > 0 {
		p = append(p, fmt.Sprintf("%.0f%% (3 years)", 100*o.BreakEven3y))
	}
	return strings.Join(p, ", ")
}
