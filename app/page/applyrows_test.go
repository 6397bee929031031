package page

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// TestApplyGivesTheRowsFigures: applying any planner row, from a pick
// card (WithPlan of the candidate's Plan) or from a table row or chart
// point (its data attributes read back, PlanFromData), gives the job the
// row's whole layout, so the page's estimate after apply is the row's:
// the same memory headroom per GPU, the row's ZeRO stage, TP, PP, CP,
// checkpointing and CPU offload (a rented fleet's row plans without the
// user's offload, note.rental_no_offload), the precision the row runs
// (fp16 where the GPU has no bf16), the row's offer, the serving copy's attention
// DP, EP and engine memory share (SGLang's --mem-fraction-static at
// data-parallel attention), and, for a training row, on one instance or
// across several, on a slice of a GPU or on whole ones, the same
// whole-run time (the row's JobSeconds is the page's run at its goodput
// plus the planner's start-up, planner.DefaultRestartSeconds): the page
// times the job on the offer's instance (planner.OnOffer).
// Training, fine-tuning, LoRA, QLoRA, a fine-tune set to offload its
// optimizer, dense and MoE serving.
func TestApplyGivesTheRowsFigures(t *testing.T) {
	multis, slices, otherPrecision := 0, 0, 0
	for _, c := range []struct {
		frag string
		// at least this many rows of the kind the case is there for
		want func(in *ViewIn, r *planner.Row) bool
	}{
		{"t=lora&tok=100M", nil},
		{"m=llama-3.1-8b&t=qlora&tok=100M", nil},
		{"m=llama-3.1-8b&t=train&n=64", nil},
		{"m=llama-3.1-70b&t=finetune&tok=100M", nil},
		// The user's own few GPUs offload the optimizer; every rented row
		// plans without it.
		{"m=llama-3.1-70b&t=finetune&tok=100M&off=optimizer&z=3&gc=1", func(in *ViewIn, r *planner.Row) bool {
			return in.Job.In.Offload == estimator.OffloadOptimizer && r.Offload == estimator.OffloadNone
		}},
		{"m=llama-3.1-8b&rps=5", nil},
		{"m=qwen3-30b-a3b&rps=20", nil},
		// Attention DP and EP inside each copy, and a memory share.
		{"m=deepseek-r1&p=fp8&e=sglang&rps=100&s=2048&out=1024&ttft=2000&tpot=50", func(_ *ViewIn, r *planner.Row) bool {
			return r.AttnDP > 1 && r.EP > 1 && r.MemShare > 0
		}},
	} {
		_, in, _ := pageOf(t, c.frag, nil)
		if !in.Plan.OK || len(in.Plan.Cands) == 0 {
			t.Fatalf("%s: no plan", c.frag)
		}
		training := in.Job.In.Task.Training()
		rows, timed, wanted, multi := 0, 0, 0, 0
		for _, x := range in.Plan.Cands {
			r := &in.Plan.Rows[x.Row]
			name := fmt.Sprintf("%s: %s %+v", c.frag, x.Offer.ID, x.Plan)
			if x.Offer.GPUCount < 1 {
				slices++ // a slice of a GPU (Vultr's "1/2 GPU", GCP's G4 halves)
			}
			if c.want != nil && c.want(&in, r) {
				wanted++
			}
			card := in.State.WithPlan(x.Offer.GPU, x.Plan, training)
			attrs := map[string]string{}
			for _, a := range planAttrs(x.Offer.GPU, x.Plan) {
				attrs[a.K] = a.V
			}
			gpu, p, ok := PlanFromData(func(k string) string { return attrs["data-"+k] })
			if !ok || p != x.Plan {
				t.Fatalf("%s: the table's attributes %v read back as %+v", name, attrs, p)
			}
			if table := in.State.WithPlan(gpu, p, training); table != card {
				t.Fatalf("%s: a table row applies another job than the card", name)
			}
			d := Derive(card, nil, in.Prices, nil, "")
			if !d.R.OK {
				t.Errorf("%s: the applied job does not estimate: %v %v", name, d.Errs, d.General)
				continue
			}
			rows++
			j := d.Job.In
			// The precision the row runs (fp16 on a GPU without bf16, fp32
			// for a model vLLM refuses in fp16 there), not the form's.
			if j.Weights != r.Weights || !training && j.KV != r.KV {
				t.Errorf("%s: applied weights %v KV %v, the row runs %v KV %v", name, j.Weights, j.KV, r.Weights, r.KV)
			}
			if j.Weights != in.Job.In.Weights {
				otherPrecision++
			}
			if d.Job.Offer == nil || d.Job.Offer.ID != x.Offer.ID {
				t.Errorf("%s: the applied job is not on the row's offer", name)
			}
			if hr := d.R.Res.Headroom.GiB(); math.Abs(hr-r.HeadroomGiB) > 1e-9*math.Max(1, math.Abs(hr)) {
				t.Errorf("%s: headroom per GPU after apply %.4f GiB, the row's %.4f", name, hr, r.HeadroomGiB)
			}
			if j.ZeRO != r.ZeRO || j.TP != r.TP || j.PP != r.PP {
				t.Errorf("%s: applied ZeRO %d TP %d PP %d, the row's %d %d %d", name, j.ZeRO, j.TP, j.PP, r.ZeRO, r.TP, r.PP)
			}
			if !training {
				share := j.GPUMemUtil
				if r.MemShare == 0 {
					share = 0 // the row runs at the job's own share
				}
				if layoutDegree(j.DP) != layoutDegree(r.AttnDP) || layoutDegree(j.EP) != layoutDegree(r.EP) || share != r.MemShare {
					t.Errorf("%s: applied attention DP %d EP %d share %v, the row's %d %d %v", name, j.DP, j.EP, j.GPUMemUtil, r.AttnDP, r.EP, r.MemShare)
				}
				continue
			}
			if j.Offload != r.Offload || j.GradCheckpointing != r.GradCheckpointing || layoutDegree(j.CP) != layoutDegree(r.CP) {
				t.Errorf("%s: applied offload %v checkpointing %v CP %d, the row's %v %v %d", name, j.Offload, j.GradCheckpointing, j.CP, r.Offload, r.GradCheckpointing, r.CP)
			}
			if !d.R.Perf.OK {
				t.Errorf("%s: no time after apply", name)
				continue
			}
			timed++
			if r.Instances > 1 {
				multi++
			}
			if got := d.R.Perf.Run.SecondsWithOverhead + planner.DefaultRestartSeconds; math.Abs(got-r.JobSeconds) > 1e-6*r.JobSeconds {
				t.Errorf("%s: the run after apply takes %.0f s (with start-up), the row %.0f s", name, got, r.JobSeconds)
			}
		}
		if rows < 5 || training && timed == 0 || c.want != nil && wanted == 0 {
			t.Errorf("%s: %d rows applied, %d timed, %d of the kind the case is for: the test asks little", c.frag, rows, timed, wanted)
		}
		t.Logf("%s: %d rows applied, %d timed (%d across instances), %d of the case's kind", c.frag, rows, timed, multi, wanted)
		multis += multi
	}
	// The cases reach rows that span instances, slices of a GPU and rows
	// run in another precision than the job's.
	if multis == 0 || slices == 0 || otherPrecision == 0 {
		t.Errorf("%d rows timed across instances, %d slices, %d in another precision: the test asks little", multis, slices, otherPrecision)
	}
}

// TestAppliedOfferNamed: after a planner row is applied, the speed box's
// setup line names the offer whose instance the job is now timed on
// (Job.Hardware), in the row's words ("Nebius gpu-h100-sxm…"); before, it
// names none.
func TestAppliedOfferNamed(t *testing.T) {
	v, in, _ := pageOf(t, "m=llama-3.1-8b&t=lora&tok=100M", nil)
	if strings.Count(v.Perf.Setup, " · ") != 1 {
		t.Fatalf("before apply: %q", v.Perf.Setup)
	}
	x := in.Plan.Cands[0]
	s := in.State.WithPlan(x.Offer.GPU, x.Plan, true)
	v, _, _ = pageOf(t, s.Fragment(DefaultState), nil)
	want := " · " + in.Prices.ProviderName(x.Offer.Provider) + " " + x.Offer.Name()
	if !strings.HasSuffix(v.Perf.Setup, want) {
		t.Errorf("after apply: %q, want it to end %q", v.Perf.Setup, want)
	}
}

// TestRackRentedOnCards: DeepSeek-R1 at 10 req/s 1k/1k uses 2 trays of
// CoreWeave's GB200 NVL72 and pays for the rack's 18 (planner.Row.Rented):
// the offers table's row says "×2 of 18" in English, "×2 из 18" in
// Russian, "×2（共 18）" in Chinese, as the CLI's instances cell does,
// beside the rack's bill.
func TestRackRentedOnCards(t *testing.T) {
	for lang, want := range map[string]string{"en": " ×2 of 18", "ru": " ×2 из 18", "zh": " ×2（共 18）"} {
		v, in, _ := pageOf(t, "l="+lang+"&m=deepseek-r1&p=fp8&g=gb200&n=8&rps=10&s=2000&out=1000&show=offers.all-offers", nil)
		var rack *Candidate
		for i := range in.Plan.Cands {
			if c := &in.Plan.Cands[i]; c.Offer.RentalUnit == 18 {
				rack = c
			}
		}
		if rack == nil || rack.Instances != 2 || rack.Rented != 18 {
			t.Fatalf("%s: the rack's plan %+v", lang, rack)
		}
		found := false
		for _, r := range v.Offers.Rows {
			found = found || strings.Contains(r.Where, want)
		}
		if !found {
			t.Errorf("%s: no offers row says %q", lang, want)
		}
	}
}

// TestAppliedOfferPriced: after a planner row on a dearer offer of its
// GPU is applied, the speed box prices the job at its speed on that
// offer, the one its setup line names, not on the GPU's cheapest offer
// (Llama 3.1 70B at 5 req/s: the fastest pick, Nebius's 8 × B200 at
// $5.50/GPU·h, was priced at Lambda's $6.89 beside a line naming Nebius).
func TestAppliedOfferPriced(t *testing.T) {
	_, in, _ := pageOf(t, "m=llama-3.1-8b&t=lora&tok=100M", nil)
	tried := 0
	for _, x := range in.Plan.Cands {
		best, _ := in.Plan.Best(x.Offer.GPU)
		if best.Offer.ID == x.Offer.ID || x.PerGPUHour == best.PerGPUHour || tried >= 3 {
			continue
		}
		tried++
		s := in.State.WithPlan(x.Offer.GPU, x.Plan, true)
		v, in2, d := pageOf(t, s.Fragment(DefaultState), nil)
		if d.Job.Offer == nil || d.Job.Offer.ID != x.Offer.ID {
			t.Fatalf("applying %s: the job carries %v", x.Offer.ID, d.Job.Offer)
		}
		sc := AtSpeed(d.R.Perf, d.Job, &in2.Plan)
		if !sc.OK || sc.Offer.ID != x.Offer.ID || !near(sc.PerGPUHour, x.PerGPUHour) {
			t.Errorf("applied %s at %v/GPU·h: the speed box prices it on %s at %v", x.Offer.ID, x.PerGPUHour, sc.Offer.ID, sc.PerGPUHour)
		}
		l := Locale{Lang: "en", Units: d.Job.Units}
		want := l.Money(x.PerGPUHour, in2.Plan.Currency) + "/GPU·h on-demand · " + in.Prices.ProviderName(x.Offer.Provider) + " " + x.Offer.Name()
		for _, f := range v.Perf.Facts {
			if f.ID == "rs-cost-at-speed" && f.Detail != want {
				t.Errorf("applied %s: cost at speed %q, want %q", x.Offer.ID, f.Detail, want)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no plan on a dearer offer of its GPU: the test asks nothing")
	}
}

// TestApplyKeepsThePicks: applying a pre-training pick leaves the ZeRO
// field on auto where the row's stage is auto's own at its layout, so the
// planner's search, and the picks the row came from, stay as they were
// (Llama 3.1 8B on 1T tokens: the cheapest pick's 8 × B200 at 78.2 days
// and $82,599 became 78.6 days and $83,021 once applied, planned at a
// given ZeRO 1, and the fastest pick moved from B300s to H100s), and
// the page's estimate runs the row's stage.
func TestApplyKeepsThePicks(t *testing.T) {
	_, in, _ := pageOf(t, "m=llama-3.1-8b&t=train&tok=1T&g=h100-sxm&n=4096", nil)
	if len(in.Plan.Picks) == 0 {
		t.Fatal("no picks")
	}
	for _, p := range in.Plan.Picks {
		s := in.State.WithPlan(p.Offer.GPU, p.Plan, true)
		_, after, d := pageOf(t, s.Fragment(DefaultState), nil)
		if d.Job.In.ZeRO != p.Plan.ZeRO {
			t.Errorf("applied %s at ZeRO %d: the page estimates ZeRO %d", p.Offer.ID, p.Plan.ZeRO, d.Job.In.ZeRO)
		}
		if len(after.Plan.Picks) != len(in.Plan.Picks) {
			t.Fatalf("applied %s: %d picks, were %d", p.Offer.ID, len(after.Plan.Picks), len(in.Plan.Picks))
		}
		for i, q := range after.Plan.Picks {
			was := in.Plan.Picks[i]
			if q.Offer.ID != was.Offer.ID || q.Plan.GPUs != was.Plan.GPUs || !near(q.Cost, was.Cost) || !near(q.Seconds, was.Seconds) {
				t.Errorf("applied %s: pick %d is %s ×%d at %.0f in %.0f s, was %s ×%d at %.0f in %.0f s", p.Offer.ID, i,
					q.Offer.ID, q.Plan.GPUs, q.Cost, q.Seconds, was.Offer.ID, was.Plan.GPUs, was.Cost, was.Seconds)
			}
		}
	}
}
