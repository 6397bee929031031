package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/catalog"
)

// TestQLoRACheckpointsByDefaultAtBothDoors: a QLoRA job checkpoints its
// activations unless told not to, as PEFT, TRL, qlora.py and torchtune
// run it (estimator.QLoRACheckpointingDefault), at the command line and
// in a page link alike; --grad-checkpointing=false (gc=0) turns it off,
// and a job planned for LitGPT's lora.py (a Lightning precision), which
// does not checkpoint on one device, keeps it off. Llama 3.1 8B QLoRA on
// one A10G at 2,048 tokens: the default estimate holds far less than the
// one without checkpointing.
func TestQLoRACheckpointsByDefaultAtBothDoors(t *testing.T) {
	args := []string{"--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "a10g", "--train-tokens", "100M"}
	frag := "m=llama-3.1-8b&t=qlora&g=a10g&tok=100M"
	total := map[string]int64{}
	for _, c := range []struct {
		name, link string
		extra      []string
		on, def    bool
	}{
		{"default", "&p=int4", []string{"--precision", "int4"}, true, true},
		{"off", "&p=int4&gc=0", []string{"--precision", "int4", "--grad-checkpointing=false"}, false, false},
		{"on", "&p=int4&gc=1", []string{"--precision", "int4", "--grad-checkpointing"}, true, false},
		{"litgpt", "&p=bf16-true", []string{"--precision", "bf16-true"}, false, false},
	} {
		cliArgs := append(slices.Clone(args), c.extra...)
		cap := &planCapture{planCmd: planCmd{stderr: io.Discard}}
		if code := estimateCommand("plan", cliArgs, io.Discard, io.Discard, cap); code != 0 || cap.err != nil {
			t.Fatalf("%s: exit %d, %v", c.name, code, cap.err)
		}
		j, _, _, ok := page.ParseJob(page.ParseFragment(frag+c.link, page.DefaultState), catalog.Default(), page.Archs{}, nil, "")
		if !ok {
			t.Fatalf("%s: the page refuses %s", c.name, frag+c.link)
		}
		web := page.PlanRequest(j)
		if cap.req.Input.GradCheckpointing != c.on || web.Input.GradCheckpointing != c.on || j.CheckpointingDefault != c.def || cap.ckptDefault != c.def {
			t.Errorf("%s: checkpointing CLI %v (default %v), page %v (default %v); want %v (default %v)", c.name,
				cap.req.Input.GradCheckpointing, cap.ckptDefault, web.Input.GradCheckpointing, j.CheckpointingDefault, c.on, c.def)
		}
		code, out, errs := runEst(t, append(cliArgs, "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		var r struct {
			PerGPU struct {
				Total int64 `json:"total_bytes"`
			} `json:"per_gpu"`
			Default bool `json:"grad_checkpointing_default"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		fig, _ := page.LinkFigures(frag + c.link)
		if r.Default != c.def || r.PerGPU.Total != fig.TotalBytes || r.PerGPU.Total == 0 {
			t.Errorf("%s: grad_checkpointing_default %v (want %v), %d B a GPU, the page %d B", c.name, r.Default, c.def, r.PerGPU.Total, fig.TotalBytes)
		}
		if noted := strings.Contains(errs, ckptDefaultNote); noted != c.def {
			t.Errorf("%s: the note said %v, want %v: %s", c.name, noted, c.def, errs)
		}
		total[c.name] = r.PerGPU.Total
	}
	if !(total["default"] == total["on"] && float64(total["off"]) > 1.5*float64(total["default"])) {
		t.Errorf("per GPU: %d B by default, %d B with --grad-checkpointing, %d B without: want the default checkpointed, far under the one without", total["default"], total["on"], total["off"])
	}
}

// TestQLoRAPlanCheckpointsByDefault: a plan of the user's own layout
// (--gpu with --gpus) takes QLoRA's default checkpointing and says so
// (grad_checkpointing_default), where --grad-checkpointing=false plans
// the layout without it; a plan over rented fleets chooses each row's
// checkpointing itself, and its rows are the same either way. Llama 3.1
// 8B QLoRA at 2,048 tokens: one A10G holds it checkpointed, not without.
func TestQLoRAPlanCheckpointsByDefault(t *testing.T) {
	type row struct {
		ID   string  `json:"offer_id"`
		Cost float64 `json:"job_cost_usd"`
		Fits bool    `json:"fits"`
		Par  struct {
			GC bool `json:"grad_checkpointing"`
		} `json:"parallelism"`
	}
	run := func(args ...string) (rows []row, def bool) {
		t.Helper()
		var out, errb strings.Builder
		if code := runPlan(append([]string{"--model", "llama-3.1-8b", "--task", "qlora", "--precision", "int4", "--train-tokens", "100M", "--format", "json", "--top", "8"}, args...), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var p struct {
			Rows    []row `json:"rows"`
			Default bool  `json:"grad_checkpointing_default"`
		}
		if err := json.Unmarshal([]byte(out.String()), &p); err != nil {
			t.Fatal(err)
		}
		return p.Rows, p.Default
	}
	fixed, def := run("--gpu", "a10g", "--gpus", "1", "--all")
	off, offDef := run("--gpu", "a10g", "--gpus", "1", "--all", "--grad-checkpointing=false")
	if len(fixed) == 0 || len(off) == 0 || !def || offDef || !fixed[0].Par.GC || off[0].Par.GC || !fixed[0].Fits || off[0].Fits {
		t.Fatalf("one A10G: default %v %+v; --grad-checkpointing=false %v %+v", def, fixed, offDef, off)
	}
	rented, _ := run()
	rentedOff, _ := run("--grad-checkpointing=false")
	if len(rented) == 0 || len(rented) != len(rentedOff) {
		t.Fatalf("rented: %d rows by default, %d with --grad-checkpointing=false", len(rented), len(rentedOff))
	}
	for i := range rented {
		a, b := rented[i], rentedOff[i]
		if a.ID != b.ID || a.Cost != b.Cost || a.Par.GC != b.Par.GC || a.Fits != b.Fits {
			t.Errorf("rented row %d: %+v by default, %+v with --grad-checkpointing=false", i, a, b)
		}
	}
}
