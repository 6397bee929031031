package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator/plan"
)

// emitPicks are the plan's picks --emit-pick chooses from; "disaggregated"
// is the planner's disaggregated prefill/decode alternative
// (plan.Result.Disagg, launch.EmitDisaggVia: SGLang PD, vLLM's
// NixlConnector, TensorRT-LLM's disaggregated serving, or each behind
// NVIDIA Dynamo with --emit-router dynamo).
var emitPicks = []string{"cheapest", "fastest", "value", "disaggregated"}

func emitKinds() string {
	names := make([]string, len(launch.Kinds))
	for i, k := range launch.Kinds {
		names[i] = k.String()
	}
	return strings.Join(names, "|")
}

// defineEmitFlags adds plan's --emit and --emit-pick.
func defineEmitFlags(fs *flag.FlagSet) {
	if fs.Lookup("emit") == nil {
		fs.String("emit", "", "print launch settings for the plan's pick instead of the table: "+emitKinds()+
			" (vllm|sglang|trtllm for inference, fsdp|deepspeed for training, litgpt for a fine-tune named by Lightning's precision, which LitGPT's scripts are planned for, skypilot for both)")
	}
	if fs.Lookup("emit-pick") == nil {
		fs.String("emit-pick", "cheapest", "with --emit: the pick to launch, "+strings.Join(emitPicks, "|")+
			" (disaggregated: the planner's prefill/decode alternative as prefill, decode and router scripts, with --emit vllm, sglang or trtllm)")
	}
	if fs.Lookup("emit-router") == nil {
		fs.String("emit-router", "engine", "with --emit-pick disaggregated: what routes requests to the workers, "+emitRouters()+
			" (engine: the engine's own router; dynamo: NVIDIA Dynamo's frontend over Dynamo's workers of the engine, found through etcd)")
	}
}

func emitRouters() string {
	names := make([]string, len(launch.Routers))
	for i, r := range launch.Routers {
		names[i] = r.String()
	}
	return strings.Join(names, "|")
}

// emitAsked is whether the command line gives --emit or --emit-pick.
func (c *planCmd) emitAsked() bool {
	asked := false
	c.fs.Visit(func(f *flag.Flag) {
		asked = asked || f.Name == "emit" || f.Name == "emit-pick" || f.Name == "emit-router"
	})
	return asked
}

// runEmit plans as run does and prints launch.Emit's settings for the
// chosen pick (the cheapest unless --emit-pick says otherwise): the
// engine's command line, the training launch and its config, or a
// SkyPilot task YAML. The pick it launches goes to stderr.
func (c *planCmd) runEmit(job estimateJob, stdout io.Writer, fail func(string, ...any) int) int {
	emitSet := false
	c.fs.Visit(func(f *flag.Flag) { emitSet = emitSet || f.Name == "emit" })
	if !emitSet {
		return fail("--emit-pick needs --emit %s", emitKinds())
	}
	kind, err := launch.ParseKind(c.s("emit"))
	if err != nil {
		return fail("--emit %q: want %s", c.s("emit"), emitKinds())
	}
	pick := c.s("emit-pick")
	valid := false
	for _, p := range emitPicks {
		valid = valid || p == pick
	}
	if !valid {
		return fail("--emit-pick %q: want %s", pick, strings.Join(emitPicks, "|"))
	}
	router, err := launch.ParseRouter(c.s("emit-router"))
	if err != nil {
		return fail("--emit-router %q: want %s", c.s("emit-router"), emitRouters())
	}
	if router != launch.EngineRouter && pick != "disaggregated" {
		return fail("--emit-router %s routes a disaggregated deployment: add --emit-pick disaggregated", router)
	}
	if c.s("format") != "table" {
		return fail("--emit prints launch settings, not a table: drop --format/--json")
	}
	cat, err := c.catalog()
	if err != nil {
		return fail("%v", err)
	}
	var req plan.Request
	if c.fleetAsked() {
		// A daily load: the pick of the plan at the busiest hour, on
		// demand, as the page's picks and the fleet's peak plan; the
		// context length covers the workload's longest request.
		if req, _, _, _, err = c.fleetRequest(job, cat); err != nil {
			return fail("%v", err)
		}
		req.Pricing = plan.OnDemand
	} else if req, err = c.request(job, cat); err != nil {
		return fail("%v", err)
	}
	// The launch runs the program the plan was sized for: LitGPT's
	// fine-tune scripts for a Lightning precision name, the Trainer's
	// otherwise.
	if err := launch.StackError(kind, req.Workload.Kind, job.stack != nil); err != nil {
		return fail("--emit %s: %s", kind, err.(*launch.Error).Reason)
	}
	maxInst, _ := strconv.Atoi(c.s("max-instances"))
	offers := planOffers(cat, req.Input.Weights)
	// SkyPilot launches on its own clouds: with no --provider, the pick
	// is the plan's over the market offers it launches (a plan whose
	// cheapest was on CoreWeave left nothing to launch, and most plans'
	// are). A provider the user names, and the user's own prices, stay
	// in, and where the pick lands on one SkyPilot does not run, the
	// refusal says so.
	skyOnly := kind == launch.SkyPilot && len(req.Filters.Providers) == 0
	if skyOnly {
		offers = slices.DeleteFunc(offers, func(o plan.Offer) bool {
			_, ok := launch.SkyCloud(o.Provider)
			return !ok && !o.UserPrice
		})
	}
	res, err := plan.Plan(req, offers, plan.Options{MaxInstances: maxInst})
	if err != nil {
		return fail("%v", err)
	}
	// A --config run names a file, which no engine loads: Emit then takes
	// the Hugging Face repository the config names (_name_or_path) or
	// writes a placeholder and says so.
	model := job.name
	if _, ok := cat.Model(model); !ok {
		model = ""
	}
	var (
		l      launch.Launch
		banner string
	)
	if pick == "disaggregated" {
		l, err = launch.EmitDisaggVia(kind, router, req, res, cat, model)
		if res.Disagg != nil {
			banner = disaggBanner(kind, router, res.Disagg)
		}
	} else {
		i := map[string]int{"cheapest": res.Cheapest, "fastest": res.Fastest, "value": res.Value}[pick]
		if pick == "fastest" && i < 0 && res.Cheapest >= 0 {
			// A plan that fits, but no faster alternative within its
			// bound (plan.AltCostBound): say so, not that nothing fits.
			return fail("--emit %s --emit-pick fastest: %s", kind, catalog.Printable(res.WhyFastest.String()))
		}
		if i < 0 || i >= len(res.Rows) {
			return fail("--emit %s: no plan fits the job, so there is nothing to launch (plan without --emit shows why)", kind)
		}
		l, err = launch.Emit(kind, req, res.Rows[i], cat, model)
		banner = emitBanner(kind, pick, res.Rows[i])
	}
	var le *launch.Error
	if errors.As(err, &le) {
		if le.Key == launch.ErrNoSkyPilotCloud || le.Key == launch.ErrNoAccelerator {
			return fail("--emit %s: %s (narrow the plan with --provider to one SkyPilot supports)", kind, le.Reason)
		}
		return fail("--emit %s: %s", kind, le.Reason)
	} else if err != nil {
		return fail("%v", err)
	}
	if c.stderr != nil {
		io.WriteString(c.stderr, banner)
		if skyOnly {
			fmt.Fprintln(c.stderr, "rightsize: planned on the clouds SkyPilot launches on ("+launch.SkyCloudList()+"); --provider names one")
		}
		for _, w := range newPlanJSON(req, res, cat).Warnings {
			fmt.Fprintln(c.stderr, "warning: "+catalog.Printable(w))
		}
	}
	io.WriteString(stdout, l.Text())
	return 0
}

// emitBanner is the stderr line naming the pick --emit launches. The
// offer's names are data (a price sheet's, a provider's API's) and are
// printed with any control character escaped.
func emitBanner(kind launch.Kind, pick string, row plan.Row) string {
	ref := plan.OfferRef{Provider: row.Offer.Provider, InstanceType: row.Offer.Name(), Instances: row.Instances, Rented: row.Rented()}
	return fmt.Sprintf("rightsize: %s settings for the %s pick, %s (%s; --emit-pick %s)\n",
		kind, pick, catalog.Printable(ref.String()), row.Pricing, strings.Join(emitPicks, "|"))
}

// disaggBanner is emitBanner's line for the disaggregated alternative: its
// offer, workers and cost against the aggregated plan.
func disaggBanner(kind launch.Kind, router launch.Router, d *plan.DisaggPlan) string {
	ref := plan.OfferRef{Provider: d.Offer.Provider, InstanceType: d.Offer.Name(), Instances: d.Instances}
	verdict := "cheaper than"
	if !d.Wins {
		verdict = fmt.Sprintf("%.2f× the cost of", d.MonthlyCostUSD/d.AggregatedUSD)
	}
	via := ""
	if router == launch.DynamoRouter {
		via = " behind NVIDIA Dynamo"
	}
	pre, dec := d.PrefillWorker, d.DecodeWorker
	workers := fmt.Sprintf("%d prefill and %d decode workers of TP %d", d.Prefill, d.Decode, dec.TP)
	if pre != dec {
		workers = fmt.Sprintf("%d prefill workers of TP %s and %d decode workers of TP %s", d.Prefill, pre.Layout(), d.Decode, dec.Layout())
	}
	return fmt.Sprintf("rightsize: %s settings%s for the disaggregated alternative, %s: %s, %s the aggregated plan\n",
		kind, via, catalog.Printable(ref.String()), workers, verdict)
}
