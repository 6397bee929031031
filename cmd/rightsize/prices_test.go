package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"rightsize/catalog"
	"rightsize/estimator"
)

func cheapest(t *testing.T, p planJSON) planRowJSON {
	t.Helper()
	for _, r := range p.Rows {
		if r.Recommendation == "cheapest" {
			return r
		}
	}
	t.Fatal("no cheapest pick")
	return planRowJSON{}
}

// TestPlanOwnPrices: a negotiated price from --prices is the user's: it
// enters the ranking unflagged and, cheapest, is the cheapest pick (the
// catalog's median would call $0.99 an H100 outlier and pass it over),
// whose sentence says the price is the user's.
func TestPlanOwnPrices(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M"}
	before := cheapest(t, planJSONOf(t, job...))
	if before.OfferID == "lambda-gpu_1x_h100_sxm5" {
		t.Fatal("the catalog's own price already wins; the test needs another offer")
	}
	sheet := filepath.Join(t.TempDir(), "own.csv")
	if err := os.WriteFile(sheet, []byte("offer_id,on_demand_per_hour,currency,as_of,source\nlambda-gpu_1x_h100_sxm5,0.99,USD,2026-11-01,negotiated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := planJSONOf(t, append(job, "--prices", sheet)...)
	r := cheapest(t, p)
	if r.OfferID != "lambda-gpu_1x_h100_sxm5" || r.PricePerHour != 0.99 || !r.UserPrice || r.FarBelowMedian || r.Stale {
		t.Fatalf("cheapest with --prices: %s at %v (user %v, far below %v, stale %v)", r.OfferID, r.PricePerHour, r.UserPrice, r.FarBelowMedian, r.Stale)
	}
	// The pick's sentence says the price is the user's, as the table's
	// price flags and the page's card do.
	if want := "lambda gpu_1x_h100_sxm5 (your price): cheapest that fits at "; !strings.HasPrefix(r.Why, want) {
		t.Errorf("cheapest's why %q, want it to start %q", r.Why, want)
	}
	// A bad sheet is an error naming the flag.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("offer_id,on_demand_per_hour,currency,as_of,source\nlambda-gpu_1x_h100_sxm5,-1,USD,2026-11-01,x\n"), 0o644)
	var out, errb bytes.Buffer
	if rc := runPlan(append(job, "--prices", bad), &out, &errb); rc == 0 || !strings.Contains(errb.String(), "--prices") {
		t.Fatalf("bad sheet: exit %d, %q", rc, errb.String())
	}
}

// TestPlanOwnPricesInEUR: a sheet of the user's own EUR rate, undated and
// without a source, for an offer the catalog lists in USD, read into a
// plan in USD: the row is the cheapest pick, converted once at the FX
// table's EUR rate, and the table marks it "yours" and says the rate.
func TestPlanOwnPricesInEUR(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M"}
	sheet := filepath.Join(t.TempDir(), "own.csv")
	if err := os.WriteFile(sheet, []byte("offer_id,on_demand_per_hour,currency\nlambda-gpu_1x_h100_sxm5,1.1,EUR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eur, ok := catalog.Default().FX("EUR")
	if !ok {
		t.Fatal("no EUR rate")
	}
	r := cheapest(t, planJSONOf(t, append(job, "--prices", sheet)...))
	if r.OfferID != "lambda-gpu_1x_h100_sxm5" || r.Currency != "EUR" || r.PricePerHour != 1.1 ||
		math.Abs(r.PricePerHourUSD-1.1/eur.PerUSD) > 1e-9 || !r.UserPrice || r.Stale || r.AsOf != "" {
		t.Fatalf("cheapest: %s at %v %s (%v USD), user %v, stale %v, as of %q", r.OfferID, r.PricePerHour, r.Currency, r.PricePerHourUSD, r.UserPrice, r.Stale, r.AsOf)
	}
	code, out, errs := runPlanArgs(t, append(job, "--prices", sheet)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := fmt.Sprintf("fx: prices listed in EUR (1 row) converted at 1 EUR = %.5g USD (FX table as of %s): lambda gpu_1x_h100_sxm5 1.1 EUR/h\n", 1/eur.PerUSD, eur.AsOf)
	if !strings.Contains(out, want) {
		t.Errorf("table lacks %q:\n%s", want, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "cheapest ") && !strings.Contains(line, " yours ") {
			t.Errorf("the cheapest row does not say the price is yours: %s", line)
		}
	}
}

// TestPlanOwnPriceOnAMarketplace: the user's own rate on a marketplace's
// provider (vast) is planned under the default provider kinds, the
// cheapest pick at 1.0 USD/h, and is the user's price, not a marketplace's
// "from" price.
func TestPlanOwnPriceOnAMarketplace(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M"}
	sheet := filepath.Join(t.TempDir(), "own.csv")
	if err := os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nvast,our-h100,h100-sxm,1,1.0,USD\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := planJSONOf(t, append(job, "--prices", sheet)...)
	if strings.Join(p.ProviderKinds, ",") != "hyperscaler,gpu-cloud,broker" {
		t.Fatalf("kinds %v", p.ProviderKinds)
	}
	r := cheapest(t, p)
	if r.OfferID != "vast-our-h100" || r.PricePerHour != 1.0 || !r.UserPrice || r.FromPrice || priceFlags(r) != "yours" {
		t.Fatalf("cheapest %s at %v: user %v, from-price %v, flags %q", r.OfferID, r.PricePerHour, r.UserPrice, r.FromPrice, priceFlags(r))
	}
}

// TestPlanOwnHost: a sheet row of the user's own machine that states its
// host is checked against the job's host memory ("ok"), where a row
// without one is "unknown".
func TestPlanOwnHost(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M"}
	for host, want := range map[string]string{",": "unknown", "26,200": "ok"} {
		sheet := filepath.Join(t.TempDir(), "own.csv")
		os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,vcpus,ram_gib,billing_granularity\nlambda,our-h100,h100-sxm,1,1.2,USD,"+host+",second\n"), 0o644)
		r := cheapest(t, planJSONOf(t, append(job, "--prices", sheet)...))
		if r.OfferID != "lambda-our-h100" || r.HostCheck.Status != want {
			t.Errorf("host %q: cheapest %s, host %+v, want %s", host, r.OfferID, r.HostCheck, want)
		}
	}
}

// TestPlanOwnRowPastRegion: --region eu and --min-vcpus 8 keep the
// user's own row whose sheet leaves region and vcpus empty (they dropped
// it unsaid): the JSON names the filters it was not checked against, and
// the table's why cell and the pick's notes say so; a row whose region is
// given elsewhere is filtered out as before.
func TestPlanOwnRowPastRegion(t *testing.T) {
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M", "--region", "eu", "--min-vcpus", "8"}
	sheet := filepath.Join(t.TempDir(), "own.csv")
	os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,region\nlambda,our-h100,h100-sxm,1,1.0,USD,\nlambda,our-us-h100,h100-sxm,1,0.5,USD,us-east-1\n"), 0o644)
	p := planJSONOf(t, append(job, "--prices", sheet)...)
	r := cheapest(t, p)
	if r.OfferID != "lambda-our-h100" || strings.Join(r.Unchecked, ",") != "region,vcpus" {
		t.Fatalf("cheapest %s, unchecked %q; want lambda-our-h100, region and vcpus", r.OfferID, r.Unchecked)
	}
	for _, row := range p.Rows {
		if row.OfferID == "lambda-our-us-h100" {
			t.Errorf("the row in us-east-1 passed --region eu")
		}
	}
	code, out, errs := runPlanArgs(t, append(job, "--prices", sheet)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const said = "region not given in your sheet: kept, the region filter not checked; vCPUs not given in your sheet: kept, the vCPU floor not checked"
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "cheapest ") && !strings.HasSuffix(line, said) {
			t.Errorf("the cheapest row does not say what was not checked: %s", line)
		}
	}
	if !strings.Contains(out, "note: cheapest (lambda our-h100): region not given in your sheet") {
		t.Errorf("no pick note:\n%s", out)
	}
}

// TestPlanCountryIsHome: --country RU and CN return only providers whose
// home is that country (a foreign marketplace's host in Russia is
// --region's answer, not --country's).
func TestPlanCountryIsHome(t *testing.T) {
	homes := map[string]map[string]bool{"RU": {"yandex": true, "selectel": true, "cloudru": true, "vkcloud": true},
		"CN": {"aws-cn": true, "alibaba": true, "tencent": true, "huaweicloud": true, "volcengine": true}}
	for cc, ok := range homes {
		p := planJSONOf(t, "--model", "llama-3.1-8b", "--requests-per-second", "5", "--prompt-tokens", "500", "--output-tokens", "200", "--country", cc, "--all", "--top", "0")
		if len(p.Rows) == 0 {
			t.Fatalf("--country %s: no rows", cc)
		}
		for _, r := range p.Rows {
			if !ok[r.Provider] {
				t.Errorf("--country %s listed %s (%s)", cc, r.Provider, r.OfferID)
			}
		}
	}
}

// TestPlanNotesWhatPicksRun: the default serving job in bf16 never picks
// a GPU without bf16 to run bf16: a pick on one runs fp16 and the JSON
// says so.
func TestPlanNotesWhatPicksRun(t *testing.T) {
	p := planJSONOf(t, "--model", "mistral-7b-v0.3", "--engine", "vllm", "--prompt-tokens", "500", "--output-tokens", "200",
		"--requests-per-second", "20", "--ttft-p95", "1s", "--all", "--top", "0")
	seen := 0
	for _, r := range p.Rows {
		if !r.Fits {
			continue
		}
		g, _ := catalog.Default().GPU(r.GPU)
		if gen := g.Generation(); gen == estimator.GenTuring || gen == estimator.GenVolta {
			seen++
			if r.Weights != "fp16" || !strings.Contains(strings.Join(r.Notes, ";"), "bf16 does not run on") {
				t.Errorf("%s on %s runs %q, notes %v", r.OfferID, r.GPU, r.Weights, r.Notes)
			}
		} else if r.Weights != "bf16" {
			t.Errorf("%s on %s (%v) runs %q, want bf16", r.OfferID, r.GPU, gen, r.Weights)
		}
	}
	if seen == 0 {
		t.Fatal("no Turing or Volta row fits")
	}
}

// TestEmitWithWorkload: --emit works for a workload preset (the page
// emits for one too), and its context length covers the preset's
// longest request, not its mean (1,366 tokens for chat: about one chat
// request in seven would have been refused).
func TestEmitWithWorkload(t *testing.T) {
	code, out, errs := runPlanArgs(t, "--model", "qwen3-30b-a3b", "--engine", "vllm", "--requests-per-second", "50", "--ttft-p95", "1s",
		"--tpot", "40ms", "--workload", "chat", "--emit", "vllm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "--max-model-len 14089") {
		t.Fatalf("launch:\n%s", out)
	}
}

// TestPlanDefaultKinds: the plan rests on hyperscalers, GPU clouds and
// brokers unless asked (--kind any adds marketplaces and decentralised
// networks), and says so.
func TestPlanDefaultKinds(t *testing.T) {
	args := []string{"--model", "mistral-7b-v0.3", "--requests-per-second", "20", "--prompt-tokens", "500", "--output-tokens", "200", "--ttft-p95", "1s", "--all", "--top", "0"}
	def := planJSONOf(t, args...)
	if strings.Join(def.ProviderKinds, ",") != "hyperscaler,gpu-cloud,broker" {
		t.Fatalf("default kinds %v", def.ProviderKinds)
	}
	for _, r := range def.Rows {
		if r.ProviderKind == "marketplace" || r.ProviderKind == "decentralized" {
			t.Fatalf("default plan lists %s (%s)", r.OfferID, r.ProviderKind)
		}
	}
	all := planJSONOf(t, append(args, "--kind", "any")...)
	seen := map[string]bool{}
	for _, r := range all.Rows {
		seen[r.ProviderKind] = true
	}
	if len(all.ProviderKinds) != 0 || !seen["marketplace"] || !seen["decentralized"] || len(all.Rows) <= len(def.Rows) {
		t.Fatalf("--kind any: kinds %v, seen %v, %d rows against %d", all.ProviderKinds, seen, len(all.Rows), len(def.Rows))
	}
}

// TestPlanSaysWhatExists: no Russian provider prices an H100; the empty
// plan says no offer matches (not that nothing fits) and what a Russian
// provider does price.
func TestPlanSaysWhatExists(t *testing.T) {
	p := planJSONOf(t, "--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M", "--country", "RU", "--gpu", "h100-sxm")
	if p.Fitting != 0 || p.Widened == nil || p.Widened.Dropped != "gpu" || p.Widened.GPU == "h100-sxm" || p.Widened.Provider == "" || !(p.Widened.CostDisp > 0) {
		t.Fatalf("fitting %d, widened %+v", p.Fitting, p.Widened)
	}
	code, out, _ := runPlanArgs(t, "--model", "llama-3.1-8b", "--task", "lora", "--train-tokens", "100M", "--country", "RU", "--gpu", "h100-sxm")
	if code != 0 || !strings.Contains(out, "no offer matches with --gpu as given; without it the cheapest plan is "+p.Widened.Provider) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestPlanProgressLabel: a plan's progress line names its own work and
// stops at the offers' count (the planner yields a few more times than
// there are offers).
func TestPlanProgressLabel(t *testing.T) {
	var b strings.Builder
	t0 := time.Unix(1000, 0)
	p := &progress{w: &b, now: func() time.Time { return t0.Add(2 * time.Second) }, start: t0, label: "planning… offers"}
	p.update(1130, 1127)
	if b.String() != "\rplanning… offers 1127/1127" {
		t.Fatalf("%q", b.String())
	}
}

// TestPlanWidenedServingIsMonthly: nothing runs TensorRT-LLM on MI300X;
// the widened serving plan's cost is its monthly bill and says so, where
// the line ended "30660.00 USD" like a job's cost. The line says why
// (TensorRT-LLM does not start on CDNA3) and which engines run the job
// there.
func TestPlanWidenedServingIsMonthly(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--engine", "trtllm", "--gpu", "mi300x", "--requests-per-second", "5"}
	p := planJSONOf(t, args...)
	if p.Fitting != 0 || p.Widened == nil || !(p.Widened.CostDisp > 0) {
		t.Fatalf("fitting %d, widened %+v", p.Fitting, p.Widened)
	}
	want := " " + strconv.FormatFloat(p.Widened.CostDisp, 'f', 2, 64) + " USD/month\n"
	if code, out, _ := runPlanArgs(t, args...); code != 0 || !strings.Contains(out, "nothing fits with --gpu as given: trtllm does not run on CDNA3 GPUs; engines that run the job on them: vllm, sglang (--engine vllm or --engine sglang); without it") || !strings.Contains(out, want) {
		t.Fatalf("exit %d, want %q in:\n%s", code, want, out)
	}
}

// TestPlanOwnNeedsFleet: --own-price on a plan without a day's load was
// dropped without a word (the table had no owned row); it is refused,
// naming the flags that make it count, and the fleet question still takes it.
func TestPlanOwnNeedsFleet(t *testing.T) {
	code, out, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--requests-per-second", "5", "--gpu", "h100-sxm", "--own-price", "25000")
	if code == 0 || !strings.Contains(errs, "--own-price: owned GPUs are set against a rented fleet over a day's load: give --load-curve or --workload too") {
		t.Errorf("exit %d, stderr %q, stdout %d bytes", code, errs, len(out))
	}
	code, _, errs = runPlanArgs(t, "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--load-curve", "2,2,2,2,2,2,4,6,8,8,8,8,8,8,8,8,8,6,4,4,2,2,2,2",
		"--own-price", "25000", "--kwh-price", "0.1", "--depreciation-years", "4", "--format", "json")
	if code != 0 {
		t.Errorf("fleet with --own-price: exit %d: %s", code, errs)
	}
}

// TestPlanFleetFlagsNeedFleet: --min-replicas, --fleet-offers and
// --no-spot shape the fleet over a day's load; on a plan without one they
// were dropped without a word. Given, they are refused naming the flags
// that make them count; left at their defaults they do not stop a plan.
func TestPlanFleetFlagsNeedFleet(t *testing.T) {
	for _, f := range [][]string{{"--min-replicas", "2"}, {"--fleet-offers", "5"}, {"--no-spot"}} {
		args := append([]string{"--model", "llama-3.1-8b", "--requests-per-second", "5", "--gpu", "h100-sxm"}, f...)
		code, _, errs := runPlanArgs(t, args...)
		if want := f[0] + ": shapes the fleet over a day's load: give --load-curve or --workload too"; code == 0 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", f, code, errs, want)
		}
		args = append([]string{"--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--load-curve", "2,2,2,2,2,2,4,6,8,8,8,8,8,8,8,8,8,6,4,4,2,2,2,2", "--format", "json"}, f...)
		if code, _, errs := runPlanArgs(t, args...); code != 0 {
			t.Errorf("fleet with %v: exit %d: %s", f, code, errs)
		}
	}
	if code, _, errs := runPlanArgs(t, "--model", "llama-3.1-8b", "--requests-per-second", "5", "--gpu", "h100-sxm"); code != 0 {
		t.Errorf("plain plan: exit %d: %s", code, errs)
	}
}

// TestPlanOwnProvider: a sheet row naming a provider the catalog does not
// know (the user's cluster, a contract with a cloud the catalog lacks) is
// the user's own provider: planned under the default provider kinds,
// cheapest where its price is, labelled "your price", of kind "own", and
// named as written in the table, the JSON and the launch script's comment.
func TestPlanOwnProvider(t *testing.T) {
	const name = "Ünï Lab (west) @ co, 1"
	job := []string{"--model", "llama-3.1-8b", "--requests-per-second", "5"}
	sheet := filepath.Join(t.TempDir(), "own.csv")
	if err := os.WriteFile(sheet, []byte("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n\""+name+"\",1xH100,h100-sxm,1,1.5,USD,2026-11-01,contract\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := cheapest(t, planJSONOf(t, append(job, "--prices", sheet)...))
	if r.Provider != name || r.ProviderKind != catalog.KindOwn || r.OfferID != "ünï-lab-west-co-1-1xh100" || r.PricePerHour != 1.5 ||
		!r.UserPrice || r.Stale || r.FarBelowMedian || priceFlags(r) != "yours" {
		t.Fatalf("cheapest: %s on %q (%s) at %v, user %v, stale %v, flags %q", r.OfferID, r.Provider, r.ProviderKind, r.PricePerHour, r.UserPrice, r.Stale, priceFlags(r))
	}
	if want := name + " 1xH100 (your price): cheapest that fits at "; !strings.HasPrefix(r.Why, want) {
		t.Errorf("why %q, want it to start %q", r.Why, want)
	}
	code, out, errs := runPlanArgs(t, append(job, "--prices", sheet)...)
	if code != 0 || !strings.Contains(out, "\ncheapest  "+name+"  1xH100 ") {
		t.Errorf("table (exit %d, %s) lacks the cheapest row on %q:\n%s", code, errs, name, out)
	}
	code, out, errs = runPlanArgs(t, append(job, "--prices", sheet, "--emit", "vllm")...)
	if code != 0 || !strings.Contains(out, "\n# rightsize plan: "+name+" 1xH100, on-demand, 1 replica of 1 instance\nvllm serve ") {
		t.Errorf("--emit vllm (exit %d, %s):\n%s", code, errs, out)
	}
	// A country filter keeps the row, whose provider has no country the
	// catalog knows, and says so, as an empty region column is said.
	r = cheapest(t, planJSONOf(t, append(job, "--prices", sheet, "--country", "US")...))
	if r.Provider != name || strings.Join(r.Unchecked, ",") != "country" {
		t.Errorf("--country US: cheapest on %q, unchecked %v", r.Provider, r.Unchecked)
	}
	// SkyPilot launches on none of the user's own providers: it says so
	// once by name, the plan's exit status the emitter's.
	_, _, errs = runPlanArgs(t, append(job, "--prices", sheet, "--emit", "skypilot")...)
	if !strings.Contains(errs, "SkyPilot does not support "+name+"; clouds it launches on: ") {
		t.Errorf("--emit skypilot: %s", errs)
	}
}
