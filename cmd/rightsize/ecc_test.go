package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestECCUsableAgrees: the page, the CLI and the planner fit a job on an
// A10G in the same memory, 0.99 of the 23,028 MiB CUDA sees with ECC on
// (catalog ECCMemory), not of the card's 24 GiB; --usable-vram still wins.
func TestECCUsableAgrees(t *testing.T) {
	cat := catalog.Default()
	g, ok := cat.GPU("a10g")
	if !ok {
		t.Fatal("no a10g")
	}
	want := g.UsableBytes()
	if exp := estimator.Bytes(math.Ceil(0.99 * 23028 * float64(estimator.MiB))); want != exp || g.Memory != 24*estimator.GiB {
		t.Fatalf("a10g: memory %d, usable %d, want %d of 24 GiB", g.Memory, want, exp)
	}

	usableOf := func(args ...string) int64 {
		t.Helper()
		code, out, errs := runEst(t, append(args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Usable int64 `json:"usable_bytes"`
			Peak   int64 `json:"peak_bytes"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.Usable
	}
	job := []string{"--model", "llama-3.2-1b", "--task", "lora", "--gpu", "a10g", "--batch", "1", "--seq", "512"}
	if u := usableOf(job...); u != int64(want) {
		t.Errorf("CLI usable %d, catalog %d", u, want)
	}
	if u := usableOf(append(job, "--usable-vram", "20GiB")...); u != int64(20*estimator.GiB) {
		t.Errorf("CLI with --usable-vram 20GiB: usable %d", u)
	}
	fig, err := page.LinkFigures("m=llama-3.2-1b&t=lora&g=a10g&b=1&s=512")
	if err != nil && fig.UsableBytes == 0 {
		t.Fatal(err)
	}
	if fig.UsableBytes != int64(want) {
		t.Errorf("page usable %d, catalog %d", fig.UsableBytes, want)
	}

	// The planner: a one-GPU A10G offer's headroom is its usable memory
	// less the estimate's peak.
	m, _ := cat.Model("llama-3.2-1b")
	a, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	in := estimator.DefaultInput(a)
	in.Task, in.Batch, in.Seq = estimator.LoRA, 1, 512
	in.GPUs, in.TP, in.PP = 1, 1, 1
	var offers []plan.Offer
	for _, o := range cat.PlanOffers(in.Weights) {
		if o.GPU == "a10g" && o.GPUCount == 1 {
			offers = append(offers, o)
		}
	}
	if len(offers) == 0 {
		t.Fatal("no one-GPU a10g offer")
	}
	req := plan.Request{Input: in, FX: cat.PlanFX(), FixedParallelism: true,
		Workload: plan.Workload{Kind: plan.Training, TrainTokens: 1e6}}
	res, err := plan.Plan(req, offers[:1], plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) == 0 || !res.Rows[0].Fits {
		t.Fatalf("a10g does not fit: %+v", res.Rows)
	}
	x := in
	g.SetMemory(&x)
	r, err := estimator.Estimate(x)
	if err != nil {
		t.Fatal(err)
	}
	if got, exp := res.Rows[0].HeadroomGiB, (want - r.Peak).GiB(); math.Abs(got-exp) > 1e-9 {
		t.Errorf("planner headroom %.6f GiB, page/CLI %.6f GiB (usable %d)", got, exp, want)
	}
}

// TestECCFitCallAgrees: a job between the two figures, Llama 3.1 8B LoRA
// at 1 × 1000 on one A10G (23.35 GiB needed), is called out of memory by
// the page and by the CLI alike, against 0.99 × the 23,028 MiB CUDA sees
// with ECC on; with the card's 24 GiB (0.99 × 24 GiB = 23.76 GiB given as
// --usable-vram) both would call it fitting. The CLI says where its usable
// figure comes from, as the page's verdict does (app/page TestECCVerdict).
func TestECCFitCallAgrees(t *testing.T) {
	const usable24 = "25512105739B" // ceil(0.99 × 24 GiB) bytes: the old usable memory
	call := func(args ...string) (fits bool, text string) {
		t.Helper()
		code, out, errs := runEst(t, append(args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Fits bool `json:"fits"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		_, text, _ = runEst(t, args...)
		return r.Fits, text
	}
	job := []string{"--model", "llama-3.1-8b", "--task", "lora", "--gpu", "a10g", "--batch", "1", "--seq", "1000"}
	frag := "m=llama-3.1-8b&t=lora&g=a10g&b=1&s=1000"

	cli, text := call(job...)
	fig, err := page.LinkFigures(frag)
	if err != nil && fig.UsableBytes == 0 {
		t.Fatal(err)
	}
	if cli || fig.Fits {
		t.Errorf("A10G with ECC on: CLI fits %v, page fits %v; want both out of memory (page peak %.2f GiB, usable %.2f GiB)",
			cli, fig.Fits, estimator.Bytes(fig.PeakBytes).GiB(), estimator.Bytes(fig.UsableBytes).GiB())
	}
	if want := "usable (ECC): 0.99 × the 22.49 GiB CUDA sees with ECC on, of the card's 24.00 GiB"; !strings.Contains(text, want) {
		t.Errorf("CLI text lacks %q:\n%s", want, text)
	}

	cli, text = call(append(job, "--usable-vram", usable24)...)
	fig, err = page.LinkFigures(frag + "&uv=" + usable24)
	if err != nil && fig.UsableBytes == 0 {
		t.Fatal(err)
	}
	if !cli || !fig.Fits {
		t.Errorf("usable 0.99 × 24 GiB: CLI fits %v, page fits %v; want both fitting", cli, fig.Fits)
	}
	if strings.Contains(text, "ECC") {
		t.Errorf("a measured --usable-vram is the user's own, no ECC note:\n%s", text)
	}
}
