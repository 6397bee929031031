package launch

import (
	"strings"

	"rightsize/catalog"
	"rightsize/estimator/plan"
)

// Disaggregated prefill and decode (plan.DisaggPlan) as SGLang runs it
// (SGLang docs, "PD Disaggregation", docs/advanced_features/
// pd_disaggregation.md, and its router's "Prefill-Decode
// Disaggregation" mode): every worker is a python -m
// sglang.launch_server with --disaggregation-mode prefill or decode and a
// KV transfer backend; each prefill server listens for the decode
// servers' handshake on its --disaggregation-bootstrap-port (8998 by
// default, one per server on an instance); python -m
// sglang_router.launch_router --pd-disaggregation takes every prefill
// server as --prefill URL BOOTSTRAP_PORT and every decode server as
// --decode URL, and sends each request to a pair.

// Error keys of EmitDisagg.
const (
	ErrDisaggKind = "launch.disagg_kind" // an engine whose disaggregated launch is not written
	ErrNoDisagg   = "launch.no_disagg"   // the plan has no disaggregated alternative
)

// Ports of the disaggregated workers on an instance: the k-th worker
// serves on disaggPort+k and, on a prefill instance, takes the decode
// servers' handshake on disaggBootstrap+k (SGLang's default bootstrap
// port is 8998). The router serves on servePort.
const (
	disaggPort      = 30000
	disaggBootstrap = 8998
)

// disaggBackend is the KV transfer backend the launch names: NIXL needs
// no device name (Mooncake, SGLang's default, takes the RDMA device with
// --disaggregation-ib-device; a note says so).
const disaggBackend = "nixl"

// EmitDisagg writes the disaggregated deployment of res.Disagg, res being
// plan.Plan's result for req, with engine kind k: three files, the
// prefill instances' script, the decode instances' and the router's.
// Only SGLang's is written; other kinds return an Error. The workers
// take the aggregated row's settings on the same offer and copy shape
// (the memory share, the engine limits, the dtype), checked as Emit
// checks them.
func EmitDisagg(k Kind, req plan.Request, res plan.Result, cat *catalog.Catalog, model string) (Launch, error) {
	if cat == nil {
		cat = catalog.Default()
	}
	if k != SGLang {
		return Launch{}, &Error{Kind: k, Key: ErrDisaggKind, Reason: "disaggregated prefill and decode is written for sglang (its PD disaggregation and router); vLLM's (NIXL connector, Dynamo) and TensorRT-LLM's are not"}
	}
	d := res.Disagg
	if d == nil || d.Offer == nil || d.TP < 1 || d.Prefill < 1 || d.Decode < 1 {
		return Launch{}, &Error{Kind: k, Key: ErrNoDisagg, Reason: "the plan has no disaggregated alternative (it needs a serving plan with a request rate, a TTFT or TPOT target and a fitting row on one instance)"}
	}
	var base *plan.Row
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.Offer == d.Offer && r.TP == d.TP && r.PP <= 1 && r.Fits {
			base = r
			break
		}
	}
	per := int(d.Offer.GPUCount) / d.TP
	if base == nil || per < 1 {
		return Launch{}, &Error{Kind: k, Key: ErrInconsistent, Reason: "the disaggregated plan's offer and copy shape have no fitting aggregated row to take the workers' settings from"}
	}
	e := emitter{k: k, req: req, row: *base, in: req.Input, cat: cat}
	e.in.Engine = d.Engine
	var err error
	if e.model, err = e.modelRef(model); err != nil {
		return Launch{}, err
	}
	if err := e.support(); err != nil {
		return Launch{}, err
	}
	if d.Engine.String() != k.String() {
		e.note("the plan was sized for " + d.Engine.String() + "; these settings run sglang")
	}
	// Both sides as the planner sized them: each worker at the plan's
	// attention-DP and EP degrees.
	s := e.shape()
	s.copies, s.nodes, s.dp, s.ep = per, 1, max(d.DP, 1), max(d.EP, 1)
	if err := e.checkServe(k, s); err != nil {
		return Launch{}, err
	}
	pInst, dInst := (d.Prefill+per-1)/per, (d.Decode+per-1)/per
	if pInst+dInst != d.Instances {
		return Launch{}, &Error{Kind: k, Key: ErrInconsistent, Reason: "the workers need " + itoa(pInst+dInst) + " instances and the plan rents " + itoa(d.Instances)}
	}
	head := "# rightsize plan: " + catalog.Printable(d.Offer.Provider+" "+d.Offer.InstanceType) + " ×" + itoa(d.Instances) +
		", disaggregated: " + plural(d.Prefill, "prefill worker") + " and " + plural(d.Decode, "decode worker") + " of " + plural(d.TP, "GPU")
	if s.dp > 1 || s.ep > 1 {
		head += " (attention DP " + itoa(s.dp) + ", EP " + itoa(s.ep) + ")"
	}
	head += "\n"
	for _, side := range []struct {
		mode, file         string
		workers, instances int
	}{{"prefill", "prefill.sh", d.Prefill, pInst}, {"decode", "decode.sh", d.Decode, dInst}} {
		text, err := e.disaggWorkers(s, side.mode, per, side.workers, side.instances)
		if err != nil {
			return Launch{}, err
		}
		e.file(side.file, "sh", "#!/bin/sh\n"+head+text)
	}
	e.file("router.sh", "sh", "#!/bin/sh\n"+head+disaggRouter(per, d.Prefill, pInst, d.Decode, dInst))
	e.note("run prefill.sh on each of the " + plural(pInst, "prefill instance") + " and decode.sh on each of the " + plural(dInst, "decode instance") +
		" (WORKERS=N on an instance that runs fewer workers), then router.sh with PREFILL_HOSTS and DECODE_HOSTS set to their addresses; clients call the router on port " + itoa(servePort))
	e.note("the KV cache moves over NIXL (pip install nixl); for Mooncake, SGLang's default, write --disaggregation-transfer-backend mooncake and name the RDMA device with --disaggregation-ib-device")
	return Launch{Kind: k, Files: e.files, Notes: e.notes}, nil
}

// disaggWorkers is the script that starts one instance's workers of one
// side: per workers of shape s (WORKERS of them where the user says so),
// each on its own GPUs, port and, for prefill, bootstrap port.
func (e *emitter) disaggWorkers(s copyShape, mode string, per, workers, instances int) (string, error) {
	c, err := e.engineCommand(e.k, s, true)
	if err != nil {
		return "", err
	}
	c.flag("--disaggregation-mode", mode)
	c.flag("--disaggregation-transfer-backend", disaggBackend)
	if mode == "prefill" {
		c.num("--disaggregation-bootstrap-port", disaggBootstrap)
	}
	var b strings.Builder
	last := workers - (instances-1)*per
	b.WriteString("# " + plural(workers, mode+" worker") + " on " + plural(instances, "instance") + ": " + itoa(per) + " on each")
	if last != per {
		b.WriteString(", " + itoa(last) + " on the last (start it with WORKERS=" + itoa(last) + ")")
	}
	b.WriteString("\nWORKERS=${WORKERS:-" + itoa(per) + "}\n")
	for i := range per {
		c.onGPUs(i*s.tp, s.tp)
		c.set("--port", itoa(disaggPort+i))
		c.set("--disaggregation-bootstrap-port", itoa(disaggBootstrap+i)) // prefill only: absent on decode
		b.WriteString("if [ \"$WORKERS\" -gt " + itoa(i) + " ]; then\n  " + strings.ReplaceAll(c.String(), "\n", "\n  ") + " &\nfi\n")
	}
	b.WriteString("wait\n")
	return b.String(), nil
}

// disaggRouter is the router's script: every worker of the instances in
// $PREFILL_HOSTS and $DECODE_HOSTS, per on each and the rest on the
// last, after a check that the lists name as many instances as the plan.
func disaggRouter(per, prefill, pInst, decode, dInst int) string {
	var b strings.Builder
	b.WriteString("# PREFILL_HOSTS and DECODE_HOSTS: the instances' addresses, space-separated, in the order their scripts ran\n")
	b.WriteString("set --\n")
	for _, side := range []struct {
		list, flag         string
		workers, instances int
		bootstrap          bool
	}{{"PREFILL_HOSTS", "--prefill", prefill, pInst, true}, {"DECODE_HOSTS", "--decode", decode, dInst, false}} {
		last := side.workers - (side.instances-1)*per
		b.WriteString("n=0\nfor h in $" + side.list + "; do\n  n=$((n + 1))\n  w=" + itoa(per) + "\n")
		if last != per {
			b.WriteString("  if [ \"$n\" -eq " + itoa(side.instances) + " ]; then w=" + itoa(last) + "; fi\n")
		}
		b.WriteString("  i=0\n  while [ \"$i\" -lt \"$w\" ]; do\n    set -- \"$@\" " + side.flag + " \"http://$h:$((" + itoa(disaggPort) + " + i))\"")
		if side.bootstrap {
			b.WriteString(" \"$((" + itoa(disaggBootstrap) + " + i))\"")
		}
		b.WriteString("\n    i=$((i + 1))\n  done\ndone\n")
		b.WriteString("if [ \"$n\" -ne " + itoa(side.instances) + " ]; then echo \"" + side.list + ": want " + itoa(side.instances) + " addresses, got $n\" >&2; exit 1; fi\n")
	}
	b.WriteString("exec python -m sglang_router.launch_router --pd-disaggregation \"$@\" --host 0.0.0.0 --port " + itoa(servePort) + "\n")
	return b.String()
}
