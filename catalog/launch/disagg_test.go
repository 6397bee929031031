package launch_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// disaggPlan plans model on SGLang at 20 req/s on 8-GPU H100 offers
// with TTFT and TPOT targets: a plan with a disaggregated alternative.
func disaggPlan(t *testing.T, model string) (plan.Request, plan.Result) {
	t.Helper()
	in := input(t, model)
	in.Engine = estimator.SGLang
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 20, PromptTokens: 2000, OutputTokens: 500,
		TTFTP95Seconds: 2, TPOTSeconds: 0.05}}
	var offers []plan.Offer
	for _, o := range catalog.Default().PlanOffers(in.Weights) {
		if o.GPU == "h100-sxm" && o.GPUCount == 8 {
			offers = append(offers, o)
		}
	}
	res, err := plan.Plan(req, offers, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Disagg == nil {
		t.Fatal("no disaggregated alternative")
	}
	return req, res
}

// routerArgs runs the router script with a python that prints its
// arguments, one a line, and returns them.
func routerArgs(t *testing.T, script string, env ...string) ([]string, error) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "python"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-c", script)
	cmd.Env = append([]string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)
	out, err := cmd.Output()
	return strings.Split(strings.TrimSpace(string(out)), "\n"), err
}

// TestEmitDisaggSGLang: the disaggregated alternative's launch is three
// shell scripts that parse; each worker runs in its own mode on its own
// GPUs, port and (prefill) bootstrap port, with the aggregated row's
// settings; the router, run with the instances' addresses, names every
// worker of the plan once, prefill with its bootstrap port, and refuses
// a host list of the wrong length. Other engines get a reason.
func TestEmitDisaggSGLang(t *testing.T) {
	req, res := disaggPlan(t, "llama-3.1-70b")
	d := *res.Disagg
	type tc struct {
		req      plan.Request
		res      plan.Result
		per      int
		p, dd, n int
	}
	cases := []tc{{req, res, int(d.Offer.GPUCount) / d.TP, d.Prefill, d.Decode, d.Instances}}
	// Also several workers an instance and a partial last instance (the
	// arithmetic the scripts spell out): Llama 3.1 8B's alternative,
	// resized to 10 prefill and 3 decode workers.
	req8, res8 := disaggPlan(t, "llama-3.1-8b")
	d8 := *res8.Disagg
	if per := int(d8.Offer.GPUCount) / d8.TP; per < 2 || 10%per == 0 {
		t.Errorf("8B alternative: %d workers an instance, want 2+ and not dividing 10", per)
	} else {
		d8.Prefill, d8.Decode, d8.Instances = 10, 3, (10+per-1)/per+(3+per-1)/per
		res8.Disagg = &d8
		cases = append(cases, tc{req8, res8, per, 10, 3, d8.Instances})
	}
	for _, c := range cases {
		l, err := launch.EmitDisagg(launch.SGLang, c.req, c.res, nil, "")
		if err != nil {
			t.Fatalf("TP %d: %v", c.res.Disagg.TP, err)
		}
		names := []string{}
		for _, f := range l.Files {
			names = append(names, f.Name)
			shellParses(t, f.Name, f.Text)
		}
		if !slices.Equal(names, []string{"prefill.sh", "decode.sh", "router.sh"}) {
			t.Fatalf("files %v", names)
		}
		pre, dec, router := l.Files[0].Text, l.Files[1].Text, l.Files[2].Text
		for _, want := range []string{"--disaggregation-mode prefill", "--disaggregation-bootstrap-port 8998", "--tp-size " + strconv.Itoa(c.res.Disagg.TP), "--mem-fraction-static", "WORKERS=${WORKERS:-" + strconv.Itoa(c.per) + "}"} {
			if !strings.Contains(pre, want) {
				t.Errorf("TP %d prefill.sh lacks %q:\n%s", c.res.Disagg.TP, want, pre)
			}
		}
		if strings.Count(pre, "sglang.launch_server") != c.per || strings.Count(dec, "sglang.launch_server") != c.per {
			t.Errorf("TP %d: %d prefill and %d decode servers an instance, want %d", c.res.Disagg.TP,
				strings.Count(pre, "sglang.launch_server"), strings.Count(dec, "sglang.launch_server"), c.per)
		}
		if !strings.Contains(dec, "--disaggregation-mode decode") || strings.Contains(dec, "bootstrap-port") {
			t.Errorf("decode.sh:\n%s", dec)
		}
		var ids []string
		for g := c.res.Disagg.TP; g < 2*c.res.Disagg.TP; g++ {
			ids = append(ids, strconv.Itoa(g))
		}
		if second := "CUDA_VISIBLE_DEVICES=" + strings.Join(ids, ",") + " "; c.per > 1 && !strings.Contains(pre, second) {
			t.Errorf("the second worker does not run on GPUs 2,3:\n%s", pre)
		}
		pInst := (c.p + c.per - 1) / c.per
		hosts := func(prefix string, n int) string {
			var h []string
			for i := range n {
				h = append(h, prefix+strconv.Itoa(i))
			}
			return strings.Join(h, " ")
		}
		args, err := routerArgs(t, router, "PREFILL_HOSTS="+hosts("p", pInst), "DECODE_HOSTS="+hosts("d", c.n-pInst))
		if err != nil {
			t.Fatalf("router.sh: %v", err)
		}
		var prefills, decodes []string
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "--prefill":
				prefills = append(prefills, args[i+1]+" "+args[i+2])
			case "--decode":
				decodes = append(decodes, args[i+1])
			}
		}
		if len(prefills) != c.p || len(decodes) != c.dd || args[0] != "-m" || args[1] != "sglang_router.launch_router" || !slices.Contains(args, "--pd-disaggregation") {
			t.Errorf("TP %d: router %v: %d prefill, %d decode workers; want %d and %d", c.res.Disagg.TP, args, len(prefills), len(decodes), c.p, c.dd)
		}
		if c.per > 1 && (prefills[1] != "http://p0:30001 8999" || prefills[len(prefills)-1] != "http://p"+strconv.Itoa(pInst-1)+":"+strconv.Itoa(30000+(c.p-1)%c.per)+" "+strconv.Itoa(8998+(c.p-1)%c.per)) {
			t.Errorf("prefill workers %v", prefills)
		}
		if _, err := routerArgs(t, router, "PREFILL_HOSTS="+hosts("p", pInst+1), "DECODE_HOSTS="+hosts("d", c.n-pInst)); err == nil {
			t.Error("the router took one prefill address too many")
		}
	}
	var le *launch.Error
	if _, err := launch.EmitDisagg(launch.VLLM, req, res, nil, "llama-3.1-70b"); !errors.As(err, &le) || le.Key != launch.ErrDisaggKind {
		t.Errorf("vllm: %v", err)
	}
	none := res
	none.Disagg = nil
	if _, err := launch.EmitDisagg(launch.SGLang, req, none, nil, "llama-3.1-70b"); !errors.As(err, &le) || le.Key != launch.ErrNoDisagg {
		t.Errorf("no alternative: %v", err)
	}
}
