package plan_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestNoPickRunsWhatItsGPULacks plans random jobs (GPU generation ×
// precision × engine × task over the catalog's offers) and holds every
// row to the support table: a row whose engine does not start on its
// GPU never fits, a fitting row runs the weights the table gives and
// says so when they differ from the job's, and the picks rest on such
// rows only.
func TestNoPickRunsWhatItsGPULacks(t *testing.T) {
	base, offers := catalogRequest(t, "mistral-7b-v0.3")
	rng := rand.New(rand.NewPCG(28, 1))
	n := 10
	if testing.Short() {
		n = 4
	}
	planned, refused, substituted := 0, 0, 0
	for k := 0; k < n; k++ {
		req := base
		req.Input.Weights = estimator.DTypes[rng.IntN(len(estimator.DTypes))]
		req.Input.Engine = estimator.Engines[rng.IntN(len(estimator.Engines))]
		if k%3 == 2 {
			req.Input.Task, req.Input.Seq = estimator.LoRA, 1024
			if req.Input.Weights != estimator.BF16 && req.Input.Weights != estimator.FP16 {
				req.Input.Weights = estimator.BF16
			}
			req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e7}
		} else {
			req.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e4, PromptTokens: 500, OutputTokens: 200}
		}
		res, err := plan.Plan(req, offers, plan.Options{KeepUnfit: true})
		if err != nil {
			continue // a combination the estimator refuses (fp32 QLoRA…)
		}
		planned++
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Offer == nil || !r.Offer.HasHardware || r.FitReason.Key == plan.MsgFitNoPrice || r.FitReason.Key == plan.MsgFitNoFX {
				continue
			}
			s := estimator.SupportForJob(r.Offer.Hardware.Generation, req.Input)
			if !s.Runs {
				want := plan.MsgFitEngineGPU
				if s.Why == estimator.SupportNoEngineRelease {
					want = plan.MsgFitEngineRelease
				}
				if r.Fits || r.FitReason.Key != want {
					t.Errorf("%v %v on %s (%v): fits=%v reason %q, want unfit %s", req.Input.Engine, req.Input.Weights, r.Offer.ID, r.Offer.Hardware.Generation, r.Fits, r.FitReason.Key, want)
				}
				refused++
				continue
			}
			if s.Substituted() && r.Fits {
				substituted++
			}
			if r.Weights != s.Weights {
				t.Errorf("%v %v on %s (%v): row runs %v, table says %v", req.Input.Engine, req.Input.Weights, r.Offer.ID, r.Offer.Hardware.Generation, r.Weights, s.Weights)
			}
			noted := false
			for _, n := range r.Notes {
				noted = noted || n.Key == plan.MsgNoteWeightsSubstituted || n.Key == plan.MsgNoteFP16ForBF16 || n.Key == plan.MsgNoteFP16RefusedModel
			}
			if noted != s.Substituted() {
				t.Errorf("%v %v on %s: substitution note %v, substituted %v (notes %v)", req.Input.Engine, req.Input.Weights, r.Offer.ID, noted, s.Substituted(), r.Notes)
			}
		}
		for _, i := range []int{res.Cheapest, res.Fastest, res.Quickest, res.Value} {
			if i >= 0 && (!res.Rows[i].Fits || res.Rows[i].PassedOver.Key != plan.NoMsg) {
				t.Errorf("pick %d rests on a row that is unfit or passed over: %+v", i, res.Rows[i].PassedOver)
			}
		}
	}
	// The property is only worth its name if the jobs hit both cases.
	if planned < n/2 || refused == 0 || substituted == 0 {
		t.Fatalf("%d of %d jobs planned, %d rows refused, %d fitting rows substituted", planned, n, refused, substituted)
	}
}

// TestTuringServesFP16: the default serving job in bf16 on a Turing card
// runs fp16 (vLLM refuses bf16 below compute capability 8.0), with the
// note; on Pascal vLLM does not start.
func TestTuringServesFP16(t *testing.T) {
	req, offers := servingRequest(t)
	req.Input.Engine = estimator.VLLM
	var turing, pascal []plan.Offer
	for _, o := range offers {
		switch o.Hardware.Generation {
		case estimator.GenTuring:
			turing = append(turing, o)
		case estimator.GenPascal:
			pascal = append(pascal, o)
		}
	}
	if len(turing) == 0 || len(pascal) == 0 {
		t.Fatalf("catalog has %d Turing and %d Pascal offers", len(turing), len(pascal))
	}
	res := mustPlan(t, req, append(turing, pascal...), plan.Options{KeepUnfit: true})
	fit := 0
	for i := range res.Rows {
		r := &res.Rows[i]
		switch r.Offer.Hardware.Generation {
		case estimator.GenTuring:
			if r.Fits {
				fit++
				if r.Weights != estimator.FP16 {
					t.Errorf("%s runs %v, want fp16", r.Offer.ID, r.Weights)
				}
			}
		case estimator.GenPascal:
			if r.Fits || r.FitReason.Key != plan.MsgFitEngineGPU || !strings.Contains(r.FitReason.String(), "Pascal") {
				t.Errorf("%s on Pascal: fits %v, %q", r.Offer.ID, r.Fits, r.FitReason.String())
			}
		}
	}
	if fit == 0 {
		t.Fatal("no Turing offer runs the job")
	}
}

// fresh is o priced yesterday, its date stated: a price the picks rest on
// unless a test flags it.
func fresh(o plan.Offer) plan.Offer {
	o.PriceAgeDays, o.AsOfEstimated = 1, false
	return o
}

// trustedA100H100 are the catalog's first single-GPU A100 80GB SXM and
// H100 SXM offers priced in USD on demand that no price flag marks: the
// normally priced offers the flagged-price tests set against a flagged one.
func trustedA100H100(t *testing.T, offers []plan.Offer) (a100, h100 *plan.Offer) {
	t.Helper()
	for i := range offers {
		o := &offers[i]
		if o.GPUCount == 1 && !o.FarBelowMedian && !o.ToVerify && o.OnDemandPerHour > 0 && o.Currency == "USD" {
			switch {
			case o.GPU == "a100-80gb-sxm" && a100 == nil:
				a100 = o
			case o.GPU == "h100-sxm" && h100 == nil:
				h100 = o
			}
		}
	}
	if a100 == nil || h100 == nil {
		t.Fatal("no single A100 and H100 offers in USD")
	}
	return a100, h100
}

// TestOpenPriceIsNotTheAnswer: a price whose own source leaves a
// condition open (Paperspace's A100-80G "$ 1.15** / hour", its footnote
// not captured) never wins a pick while a confirmed price runs the job:
// of the same GPU (reason.to_verify) or of another (…_elsewhere). It is
// CheaperFlagged instead, beside the answer.
func TestOpenPriceIsNotTheAnswer(t *testing.T) {
	req, offers := servingRequest(t)
	a100, h100 := trustedA100H100(t, offers)
	open, same, other := fresh(*a100), fresh(*a100), fresh(*h100)
	open.ID, open.OnDemandPerHour, open.ToVerify = "open", 0.5, true
	same.ID, same.OnDemandPerHour = "same", 5
	for _, c := range []struct {
		offers []plan.Offer
		want   string
		key    plan.Msg
	}{
		{[]plan.Offer{open, same}, "same", plan.MsgReasonToVerify},
		{[]plan.Offer{open, other}, other.ID, plan.MsgReasonToVerifyElsewhere},
	} {
		res := mustPlan(t, req, c.offers, plan.Options{KeepUnfit: true})
		if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != c.want {
			t.Fatalf("cheapest = %d, want %s", res.Cheapest, c.want)
		}
		if res.CheaperFlagged < 0 || res.Rows[res.CheaperFlagged].Offer.ID != "open" || res.Rows[res.CheaperFlagged].PassedOver.Key != c.key {
			t.Fatalf("CheaperFlagged = %d, want the open price passed over with %s", res.CheaperFlagged, c.key)
		}
	}
	// Alone, it is the answer: no confirmed price runs the job.
	res := mustPlan(t, req, []plan.Offer{open}, plan.Options{KeepUnfit: true})
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != "open" {
		t.Fatalf("alone: cheapest %d", res.Cheapest)
	}
}

// TestFlaggedPriceIsNotTheAnswer: a price far below the median never
// wins a pick while a normally priced offer of any GPU runs the job; it
// is CheaperFlagged instead, beside the answer.
func TestFlaggedPriceIsNotTheAnswer(t *testing.T) {
	req, offers := servingRequest(t)
	a100, h100 := trustedA100H100(t, offers)
	cheap, normal := fresh(*a100), fresh(*h100)
	cheap.ID, cheap.OnDemandPerHour, cheap.FarBelowMedian = "flagged", 0.05, true
	res := mustPlan(t, req, []plan.Offer{cheap, normal}, plan.Options{KeepUnfit: true})
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != normal.ID {
		t.Fatalf("cheapest = %d, want %s", res.Cheapest, normal.ID)
	}
	if res.CheaperFlagged < 0 || res.Rows[res.CheaperFlagged].Offer.ID != "flagged" ||
		res.Rows[res.CheaperFlagged].PassedOver.Key != plan.MsgReasonFarBelowElsewhere {
		t.Fatalf("CheaperFlagged = %d, want the flagged row passed over", res.CheaperFlagged)
	}
	// The same price as the user's own is the answer.
	cheap.UserPrice = true
	res = mustPlan(t, req, []plan.Offer{cheap, normal}, plan.Options{KeepUnfit: true})
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != "flagged" || res.CheaperFlagged != -1 {
		t.Fatalf("with the user's own price: cheapest %d, CheaperFlagged %d", res.Cheapest, res.CheaperFlagged)
	}
}

// TestCountryIsTheProviders: --country matches the provider's home
// jurisdiction only; where the machines stand is --region.
func TestCountryIsTheProviders(t *testing.T) {
	req, offers := servingRequest(t)
	req.Filters.Countries = []string{"RU"}
	res := mustPlan(t, req, offers, plan.Options{KeepUnfit: true})
	if len(res.Rows) == 0 {
		t.Fatal("no Russian provider in the catalog")
	}
	for i := range res.Rows {
		if o := res.Rows[i].Offer; o.Country != "RU" {
			t.Errorf("--country RU listed %s (%s, country %q, region %q)", o.ID, o.Provider, o.Country, o.Region)
		}
	}
	req.Filters.Countries, req.Filters.Regions = nil, []string{"ru"}
	res = mustPlan(t, req, offers, plan.Options{KeepUnfit: true})
	for i := range res.Rows {
		if o := res.Rows[i].Offer; !strings.HasPrefix(strings.ToLower(o.Region), "ru") {
			t.Errorf("--region ru listed %s in %q", o.ID, o.Region)
		}
	}
}

// TestOwnHardwareSettingsStayHome: CPU offload set for the user's own
// GPUs does not slow every rental: a rented plan that holds the job
// without it runs without it (the same time as the job set without
// offload) and says so; with the parallelism fixed, the setting stands.
func TestOwnHardwareSettingsStayHome(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Task, req.Input.Seq, req.Input.ZeRO = estimator.FullFinetune, 2048, 1
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e8}
	plain := mustPlan(t, req, offers, plan.Options{})
	req.Input.Offload = estimator.OffloadOptimizer
	off := mustPlan(t, req, offers, plan.Options{})
	if plain.Cheapest < 0 || off.Cheapest < 0 {
		t.Fatal("no plan")
	}
	a, b := &plain.Rows[plain.Cheapest], &off.Rows[off.Cheapest]
	if a.Offer.ID != b.Offer.ID || !closeTo(a.JobSeconds, b.JobSeconds) || b.HostOffloadGiB != 0 {
		t.Fatalf("with offload set: %s %.0f s (offload %v GiB), without: %s %.0f s", b.Offer.ID, b.JobSeconds, b.HostOffloadGiB, a.Offer.ID, a.JobSeconds)
	}
	noted := false
	for _, n := range b.Notes {
		noted = noted || n.Key == plan.MsgNoteRentalNoOffload
	}
	if !noted {
		t.Fatalf("no note on %s: %v", b.Offer.ID, b.Notes)
	}
	// Fixed parallelism: the user's own layout, offload and all.
	req.FixedParallelism, req.Input.GPUs, req.Filters.GPU = true, 1, "h100-sxm"
	fixed := mustPlan(t, req, offers, plan.Options{})
	if fixed.Cheapest < 0 || !(fixed.Rows[fixed.Cheapest].HostOffloadGiB > 0) {
		t.Fatalf("fixed layout dropped the offload: %+v", fixed.Cheapest)
	}
}

// TestRentalChoosesItsMemoryLayout: the ZeRO stage and activation
// checkpointing set for the user's own GPUs (ZeRO-3, checkpointing, CPU
// offload: what fits a 70B fine-tune on two 24 GB cards) do not slow the
// rental plans: each offer's row is the one planned from no settings at
// all (the lowest ZeRO stage that fits, checkpointing where it costs
// less), notes the layout, and the fixed layout keeps the user's.
func TestRentalChoosesItsMemoryLayout(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Task, req.Input.Seq, req.Input.Batch = estimator.FullFinetune, 4096, 4
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 2e8}
	plain := mustPlan(t, req, offers, plan.Options{KeepUnfit: true})
	home := req
	home.Input.ZeRO, home.Input.GradCheckpointing, home.Input.Offload = 3, true, estimator.OffloadOptimizer
	// FSDP's no_sync accumulation, the default of an accumulating FSDP
	// fine-tune, is a ZeRO-3 setting: it must not pin the rentals to it.
	home.Input.FSDPNoSync = true
	own := mustPlan(t, home, offers, plan.Options{KeepUnfit: true})
	if plain.Cheapest < 0 || own.Cheapest < 0 || len(plain.Rows) != len(own.Rows) {
		t.Fatalf("cheapest %d / %d, rows %d / %d", plain.Cheapest, own.Cheapest, len(plain.Rows), len(own.Rows))
	}
	type key struct {
		id     string
		scaled bool
	}
	byID := map[key]plan.Row{}
	for _, r := range plain.Rows {
		byID[key{r.Offer.ID, r.ScaledFrom > 0}] = r
	}
	var ckptOff, lowZeRO int
	for _, b := range own.Rows {
		a := byID[key{b.Offer.ID, b.ScaledFrom > 0}]
		if a.Fits != b.Fits || !closeTo(a.JobSeconds, b.JobSeconds) || a.ZeRO != b.ZeRO || a.GradCheckpointing != b.GradCheckpointing || b.Offload != estimator.OffloadNone {
			t.Errorf("%s: own settings %v %.0f s ZeRO-%d ckpt %v offload %v; none %v %.0f s ZeRO-%d ckpt %v", b.Offer.ID,
				b.Fits, b.JobSeconds, b.ZeRO, b.GradCheckpointing, b.Offload, a.Fits, a.JobSeconds, a.ZeRO, a.GradCheckpointing)
		}
		if !b.Fits {
			continue
		}
		if !b.GradCheckpointing {
			ckptOff++
		}
		if b.ZeRO < 3 {
			lowZeRO++
		}
		noted, saidStage := false, 0
		for _, n := range b.Notes {
			noted = noted || n.Key == plan.MsgNoteRentalLayoutCkpt || n.Key == plan.MsgNoteRentalLayoutNoCkpt
			if strings.Contains(n.String(), "ZeRO-"+strconv.Itoa(b.ZeRO)) {
				saidStage++
			}
		}
		// The stack note says the stage; the layout note does not say
		// it again ("at ZeRO-3 … planned with ZeRO-3").
		if saidStage != 1 {
			t.Errorf("%s: %d notes say ZeRO-%d: %v", b.Offer.ID, saidStage, b.ZeRO, b.Notes)
		}
		if !noted && (b.ZeRO != 3 || !b.GradCheckpointing) {
			t.Errorf("%s: ZeRO-%d, checkpointing %v without a note: %v", b.Offer.ID, b.ZeRO, b.GradCheckpointing, b.Notes)
		}
	}
	if ckptOff == 0 || lowZeRO == 0 {
		t.Errorf("no rental row dropped checkpointing (%d) or ZeRO-3 (%d)", ckptOff, lowZeRO)
	}
	// The user's layout stands where the parallelism is fixed.
	home.FixedParallelism, home.Input.GPUs, home.Filters.GPU = true, 2, "h100-sxm"
	fixed := mustPlan(t, home, offers, plan.Options{})
	if fixed.Cheapest < 0 {
		t.Fatal("no fixed plan")
	}
	if f := fixed.Rows[fixed.Cheapest]; f.ZeRO != 3 || !f.GradCheckpointing || f.Offload != estimator.OffloadOptimizer {
		t.Errorf("fixed layout: ZeRO-%d ckpt %v offload %v", f.ZeRO, f.GradCheckpointing, f.Offload)
	}
}

// TestSpotNoteOnlyOnSpot: an on-demand job does not carry the caveat on
// the spot reclaim rate (its spot figures are a side column); a spot job
// does.
func TestSpotNoteOnlyOnSpot(t *testing.T) {
	req, offers := trainingRequest(t)
	has := func(res plan.Result) bool {
		for _, n := range res.Notes {
			if n.Key == plan.MsgNoteSpotDefaultRate {
				return true
			}
		}
		return false
	}
	if res := mustPlan(t, req, offers, plan.Options{}); has(res) {
		t.Error("on-demand plan notes the spot reclaim rate")
	}
	req.Pricing = plan.Spot
	if res := mustPlan(t, req, offers, plan.Options{}); !has(res) {
		t.Error("spot plan without the reclaim-rate note")
	}
}

// TestReservedPickStatesItsCommitment: a reserved plan's pick says what
// the reservation commits in full (the term at its price), not only the
// job's hours of it.
func TestReservedPickStatesItsCommitment(t *testing.T) {
	req, offers := catalogRequest(t, "llama-3.1-8b")
	req.Input.Task, req.Input.Seq = estimator.LoRA, 1024
	req.Workload = plan.Workload{Kind: plan.Training, TrainTokens: 1e8}
	req.Pricing = plan.Reserved3y
	res := mustPlan(t, req, offers, plan.Options{})
	if res.Cheapest < 0 {
		t.Fatal("no reserved plan")
	}
	r := &res.Rows[res.Cheapest]
	if !closeTo(r.ReservedCommitmentUSD, r.ReservedMonthlyCommitmentUSD*36) || !(r.ReservedCommitmentUSD > 100*r.JobCostUSD) {
		t.Fatalf("%s: commitment %v, monthly %v, job %v", r.Offer.ID, r.ReservedCommitmentUSD, r.ReservedMonthlyCommitmentUSD, r.JobCostUSD)
	}
	said := false
	for _, n := range r.Notes {
		said = said || ((n.Key == plan.MsgNoteReservedCommitment || n.Key == plan.MsgNoteReservedTerm) && strings.Contains(n.String(), " over 3 years"))
	}
	if !said {
		t.Fatalf("%s: notes %v", r.Offer.ID, r.Notes)
	}
}

// TestSpotFloor: a spot price deeper than the clouds' documented discounts
// (under 10% of the offer's own on-demand) is passed over in a spot plan
// while another plan runs the job, and prices no daily fleet.
func TestSpotFloor(t *testing.T) {
	req, offers := servingRequest(t)
	var h100 *plan.Offer
	for i := range offers {
		o := &offers[i]
		if o.GPU == "h100-sxm" && o.GPUCount == 1 && o.OnDemandPerHour > 0 && o.Currency == "USD" && !o.FarBelowMedian && !o.ToVerify {
			h100 = o
			break
		}
	}
	if h100 == nil {
		t.Fatal("no single H100 offer")
	}
	deep, fair := fresh(*h100), fresh(*h100)
	deep.ID, deep.SpotPerHour, deep.SpotFarBelow = "deep", 0.05*h100.OnDemandPerHour, true
	fair.ID, fair.SpotPerHour = "fair", 0.5*h100.OnDemandPerHour
	req.Pricing = plan.Spot
	res := mustPlan(t, req, []plan.Offer{deep, fair}, plan.Options{KeepUnfit: true})
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != "fair" || res.CheaperFlagged < 0 || res.Rows[res.CheaperFlagged].PassedOver.Key != plan.MsgReasonSpotFarBelow {
		t.Fatalf("spot plan: cheapest %d, flagged %d", res.Cheapest, res.CheaperFlagged)
	}
}

// TestSingleReplicaSaysNoSpare: a serving plan of one replica says it has
// no spare, with its load; one of several does not.
func TestSingleReplicaSaysNoSpare(t *testing.T) {
	req, offers := servingRequest(t)
	res := mustPlan(t, req, offers, plan.Options{})
	ones, many := 0, 0
	for i := range res.Rows {
		r := &res.Rows[i]
		if !r.Fits {
			continue
		}
		noted := false
		for _, n := range r.Notes {
			noted = noted || n.Key == plan.MsgNoteNoSpare
		}
		if r.Replicas == 1 {
			ones++
		} else {
			many++
		}
		if noted != (r.Replicas == 1) {
			t.Errorf("%s: %d replicas, no-spare note %v", r.Offer.ID, r.Replicas, noted)
		}
	}
	if ones == 0 || many == 0 {
		t.Fatalf("%d single-replica and %d multi-replica rows", ones, many)
	}
}

// TestMonthlyPlanBillsTheMonth: a plan sold only by the month
// (Paperspace's "A100 monthly", $1994 / month) costs a batch job of a few
// hours the whole month, where it had cost those hours at 1994/730 an hour
// and won the job's cheapest pick from hourly offers; the same price sold
// by the hour costs the hours.
func TestMonthlyPlanBillsTheMonth(t *testing.T) {
	req, offers := catalogRequest(t, "qwen2.5-7b")
	req.Workload = plan.Workload{Kind: plan.Batch, Requests: 1e5, PromptTokens: 500, OutputTokens: 512}
	i := slices.IndexFunc(offers, func(o plan.Offer) bool { return o.ID == "paperspace-a100-monthly" })
	if i < 0 {
		t.Fatal("no paperspace-a100-monthly offer")
	}
	monthly := offers[i]
	hourly := monthly
	hourly.ID, hourly.OnDemandPerHour, hourly.MonthlyPrice = "hourly", monthly.MonthlyPrice/plan.HoursPerMonth, 0
	res := mustPlan(t, req, []plan.Offer{monthly, hourly}, plan.Options{})
	for _, r := range res.Rows {
		h, months := r.JobSeconds/3600, 0.0
		if h <= 0 || h >= plan.HoursPerMonth {
			t.Fatalf("%s: %v h: want a job of hours", r.Offer.ID, h)
		}
		want := float64(r.Instances) * hourly.OnDemandPerHour * h
		if r.Offer.ID == monthly.ID {
			months = 1
			want = float64(r.Instances) * monthly.MonthlyPrice
		}
		if math.Abs(r.JobCostUSD-want) > 1e-6*want {
			t.Errorf("%s: %v USD for %d × %.2f h (%v months), want %v", r.Offer.ID, r.JobCostUSD, r.Instances, h, months, want)
		}
	}
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != "hourly" {
		t.Errorf("cheapest %d, want the hourly price", res.Cheapest)
	}
}

// TestOwnPriceWinsATie: the user's own price and a catalog price of the
// same machine at the same cost: the user's row is the cheapest, whatever
// the offer IDs' order, and its reason says the tie went to it.
func TestOwnPriceWinsATie(t *testing.T) {
	req, offers := servingRequest(t)
	_, h100 := trustedA100H100(t, offers)
	for _, ids := range [][2]string{{"a-mine", "z-listed"}, {"z-mine", "a-listed"}} {
		mine, listed := fresh(*h100), fresh(*h100)
		mine.ID, listed.ID, mine.UserPrice = ids[0], ids[1], true
		mine.InstanceType, listed.InstanceType = ids[0], ids[1]
		res := mustPlan(t, req, []plan.Offer{listed, mine}, plan.Options{KeepUnfit: true})
		if res.Cheapest < 0 {
			t.Fatalf("%v: no cheapest", ids)
		}
		r := res.Rows[res.Cheapest]
		if r.Offer.ID != ids[0] || r.Why.Key != plan.MsgReasonCheapestOwnTie {
			t.Fatalf("%v: cheapest %s (%s), want %s on the tie rule", ids, r.Offer.ID, r.Why.Key, ids[0])
		}
		if got := r.Why.String(); !strings.Contains(got, "the tie goes to your price") || !strings.Contains(got, ids[1]) {
			t.Errorf("%v: why %q", ids, got)
		}
	}
}

// TestOwnPricePassesTheKinds: the provider kinds sort the market's
// listings; the user's own price on a decentralised network's provider is
// planned under the default kinds (it was dropped unsaid), a listing of
// the same provider is not.
func TestOwnPricePassesTheKinds(t *testing.T) {
	req, offers := servingRequest(t)
	_, h100 := trustedA100H100(t, offers)
	mine, listed := fresh(*h100), fresh(*h100)
	mine.ID, mine.InstanceType, mine.ProviderKind, mine.UserPrice = "mine", "mine", "decentralized", true
	listed.ID, listed.InstanceType, listed.ProviderKind = "listed", "listed", "decentralized"
	req.Filters.Kinds = []string{"hyperscaler", "gpu-cloud", "broker"}
	res := mustPlan(t, req, []plan.Offer{listed, mine, fresh(*h100)}, plan.Options{KeepUnfit: true})
	seen := map[string]bool{}
	for _, r := range res.Rows {
		seen[r.Offer.ID] = true
	}
	if !seen["mine"] || seen["listed"] || !seen[h100.ID] {
		t.Fatalf("rows %v: want mine and %s, not listed", seen, h100.ID)
	}
}

// TestOwnUnfitIsListed: the user's own offer that does not hold the job is
// listed, beyond Top and without KeepUnfit, with the reason and what to
// give (its network, in the sheet); a catalog twin that does not fit is
// not listed. The offers are 8-GPU NVLink nodes, which a serving copy
// spans given a network (a single-GPU box is told fit.span_node instead).
func TestOwnUnfitIsListed(t *testing.T) {
	req, offers := servingRequest(t)
	_, h100 := trustedA100H100(t, offers)
	small := func(id string, own bool) plan.Offer {
		o := fresh(*h100)
		o.ID, o.InstanceType, o.UserPrice = id, id, own
		o.GPUCount, o.Interconnect = 8, "nvlink"
		o.GPUMemory, o.GPUVisibleMemory = 1e9, 0
		o.NetworkGbps, o.NetworkFabric = 0, ""
		return o
	}
	res := mustPlan(t, req, []plan.Offer{small("listed", false), small("mine", true), fresh(*h100), fresh(*h100)}, plan.Options{Top: 1})
	var mine *plan.Row
	for i := range res.Rows {
		switch r := &res.Rows[i]; r.Offer.ID {
		case "mine":
			mine = r
		case "listed":
			t.Errorf("the catalog's unfit offer is listed without KeepUnfit")
		}
	}
	if mine == nil || mine.Fits || mine.FitReason.Key != plan.MsgFitNoFabricOwn ||
		!strings.Contains(mine.FitReason.String(), "give the row's network_gbps and network_fabric") {
		t.Fatalf("the user's unfit offer: %+v", mine)
	}
	if res.Cheapest < 0 || res.Rows[res.Cheapest].Offer.ID != h100.ID {
		t.Errorf("cheapest %d", res.Cheapest)
	}
}

// TestGemmaOnTuringRunsFP32: vLLM refuses fp16 for Gemma 3
// (_FLOAT16_NOT_SUPPORTED_MODELS) and a T4 has no bf16, so vLLM runs it
// in fp32, its KV cache too (--kv-cache-dtype auto is the model's dtype):
// the plan's row on T4s holds 4-byte weights (Gemma 3 12B's take 45 GiB
// so, more than two 16 GB T4s hold), runs fp32 and says why; it was
// planned in fp16, a launch (--dtype float16) vLLM stops at start-up.
func TestGemmaOnTuringRunsFP32(t *testing.T) {
	in := modelInput(t, "gemma-3-12b")
	w := plan.Workload{RequestsPerSecond: 0.2, PromptTokens: 500, OutputTokens: 200}
	row := serveOne(t, in, gpuOffer(t, "t4", 4, estimator.BF16), w, false)
	if row.Weights != estimator.FP32 {
		t.Fatalf("Gemma 3 on T4 runs %v weights, want fp32", row.Weights)
	}
	if !row.Fits || row.TP*row.PP < 4 {
		t.Errorf("fits %v (%s) at TP %d PP %d, want 4 T4s for 45 GiB of fp32 weights", row.Fits, row.FitReason, row.TP, row.PP)
	}
	want := "vLLM refuses fp16 for gemma3_text models (numerical instability): on Turing GPUs it runs fp32 weights, its KV cache in fp32"
	if !slices.ContainsFunc(row.Notes, func(n plan.Reason) bool { return n.String() == want }) {
		t.Errorf("notes %v, want %q", row.Notes, want)
	}
	// Llama on the same T4s runs fp16, as before.
	if row := serveOne(t, modelInput(t, "llama-3.1-8b"), gpuOffer(t, "t4", 4, estimator.BF16), w, false); row.Weights != estimator.FP16 {
		t.Errorf("Llama 3.1 8B on T4 runs %v weights, want fp16", row.Weights)
	}
}
