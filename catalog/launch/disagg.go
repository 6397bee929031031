package launch

import (
	"slices"
	"strconv"
	"strings"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// Disaggregated prefill and decode (plan.DisaggPlan): prefill workers
// compute each prompt's KV cache, decode workers fetch it over the
// network and generate, and a router sends every request to a prefill
// worker and then to a decode worker. Each engine writes three scripts,
// prefill.sh and decode.sh (one instance's workers, each on its own GPUs
// and port) and router.sh (the router, given the instances' addresses),
// plus the files its workers read:
//
//   - SGLang (SGLang docs, "PD Disaggregation", docs/advanced_features/
//     pd_disaggregation.md, and its router's "Prefill-Decode
//     Disaggregation" mode): every worker is a python -m
//     sglang.launch_server with --disaggregation-mode prefill or decode
//     and a KV transfer backend; each prefill server listens for the
//     decode servers' handshake on its --disaggregation-bootstrap-port
//     (8998 by default, one per server on an instance); python -m
//     sglang_router.launch_router --pd-disaggregation takes every prefill
//     server as --prefill URL BOOTSTRAP_PORT and every decode server as
//     --decode URL.
//   - vLLM (vLLM docs, "NixlConnector Usage Guide",
//     docs/features/nixl_connector_usage.md @ 026c83f974fc, and
//     "Disaggregated Prefilling", docs/features/disagg_prefill.md): every
//     worker is a vllm serve with --kv-transfer-config naming the
//     NixlConnector; the decode side fetches the KV cache from the
//     prefill worker's NIXL side channel (VLLM_NIXL_SIDE_CHANNEL_HOST and
//     _PORT, 5600 by default, one port per data-parallel rank); the
//     router is the proxy that guide documents,
//     tests/v1/kv_connector/nixl_integration/toy_proxy_server.py
//     (--prefiller-hosts/-ports, --decoder-hosts/-ports).
//   - TensorRT-LLM (TensorRT-LLM docs, "Disaggregated Serving",
//     docs/source/features/disagg-serving.md @ 0434b982fa38, and
//     examples/disaggregated/README.md): every worker is a trtllm-serve
//     whose LLM API options (--extra_llm_api_options) set
//     cache_transceiver_config; context (prefill) servers also set
//     disable_overlap_scheduler; trtllm-serve disaggregated -c
//     disagg_config.yaml routes between the context_servers and
//     generation_servers the file lists (hostname, port, and each side's
//     num_instances and urls "host:port": tensorrt_llm/llmapi/
//     disagg_utils.py, extract_disagg_cfg and extract_ctx_gen_cfgs).

// Error keys of EmitDisagg.
const (
	ErrDisaggKind = "launch.disagg_kind" // a launcher that does not serve (training, SkyPilot)
	ErrNoDisagg   = "launch.no_disagg"   // the plan has no disaggregated alternative
	// ErrDisaggPastLimit: the disaggregated alternative takes more
	// instances than the plan's limit (plan.DisaggPlan.PastLimit).
	ErrDisaggPastLimit = "launch.disagg_past_limit"
	// ErrDisaggWide: TensorRT-LLM, or vLLM behind NVIDIA Dynamo, for
	// workers that span several instances
	// (plan.DisaggWorker.InstancesPerWorker > 1).
	ErrDisaggWide = "launch.disagg_wide"
	// ErrDynamoGPU: NVIDIA Dynamo's router on a GPU its support matrix
	// does not list (AMD, Gaudi, NVIDIA before Ampere).
	ErrDynamoGPU = "launch.dynamo_gpu"
)

// Ports of the disaggregated workers on an instance: the k-th worker
// serves on disaggPort+k and, on an SGLang prefill instance, takes the
// decode servers' handshake on disaggBootstrap+k (SGLang's default
// bootstrap port is 8998). The router serves on servePort.
const (
	disaggPort      = 30000
	disaggBootstrap = 8998
)

// disaggBackend is the KV transfer backend SGLang's launch names: NIXL
// needs no device name (Mooncake, SGLang's default, takes the RDMA device
// with --disaggregation-ib-device; a note says so). vLLM's and
// TensorRT-LLM's launches move the KV cache over NIXL too.
const disaggBackend = "nixl"

// vllmKVTransfer is vLLM's --kv-transfer-config for the NixlConnector
// (KVTransferConfig, vllm/config/kv_transfer.py: kv_connector, kv_role;
// the NixlConnector guide's JSON). The NixlConnector does not tell the
// roles apart (the guide: "kv_role ... is effectively a placeholder";
// the proxy decides which worker prefills), so both sides are kv_both.
const vllmKVTransfer = `{"kv_connector":"NixlConnector","kv_role":"kv_both"}`

// vllmNIXLPort is the first worker's NIXL side-channel port on an
// instance (VLLM_NIXL_SIDE_CHANNEL_PORT, 5600 by default); a worker's
// data-parallel ranks take the port plus their rank (the guide:
// base_port + dp_rank), so the k-th worker of DP d starts at 5600+k·d.
const vllmNIXLPort = 5600

// vllmProxy is the router vLLM's NixlConnector guide runs: a script in
// vLLM's repository, not in its package.
const vllmProxy = "tests/v1/kv_connector/nixl_integration/toy_proxy_server.py"

// TensorRT-LLM's option files: the context (prefill) and generation
// (decode) servers' LLM API options, as the disaggregated serving docs
// name them, and the router's configuration, which router.sh writes once
// it knows the workers' addresses.
const (
	trtllmContextOptions = "context_config.yaml"
	trtllmGenOptions     = "gen_config.yaml"
	trtllmDisaggConfig   = "disagg_config.yaml"
)

// disaggSide is one side of the deployment: its workers, their shape
// (each side its own: plan.DisaggPlan's PrefillWorker and DecodeWorker),
// the workers on one instance (per; 1 for a worker over several,
// shape.nodes of them), the memory share the planner set on them, and
// the instances they run on (the router's lists name each worker's first
// instance: for workers that span several, heads, the workers).
type disaggSide struct {
	mode, file                string
	workers, instances, heads int
	shape                     copyShape
	per                       int
	share                     float64
}

// last is how many of the side's workers the last of its instances (its
// heads) runs, per on each of the others.
func (s disaggSide) last() int { return s.workers - (s.heads-1)*s.per }

// EmitDisagg writes the disaggregated deployment of res.Disagg, res being
// plan.Plan's result for req, with serving engine k: the prefill
// instances' script, the decode instances' and the router's, then the
// files they read (TensorRT-LLM's options). Launchers that do not serve
// return an Error. The workers take the aggregated row's settings on the
// same offer and copy shape (the memory share, the engine limits, the
// dtype), checked as Emit checks them.
func EmitDisagg(k Kind, req plan.Request, res plan.Result, cat *catalog.Catalog, model string) (Launch, error) {
	return EmitDisaggVia(k, EngineRouter, req, res, cat, model)
}

// EmitDisaggVia is EmitDisagg with router r in front of the workers: the
// engine's own (EngineRouter, EmitDisagg's), or NVIDIA Dynamo's frontend
// over Dynamo's workers of engine k (DynamoRouter, dynamo.go).
func EmitDisaggVia(k Kind, r Router, req plan.Request, res plan.Result, cat *catalog.Catalog, model string) (Launch, error) {
	if cat == nil {
		cat = catalog.Default()
	}
	if !k.Serving() {
		return Launch{}, &Error{Kind: k, Key: ErrDisaggKind, Reason: "disaggregated prefill and decode runs on a serving engine: use vllm, sglang or trtllm"}
	}
	if !r.valid() {
		return Launch{}, &Error{Kind: k, Key: ErrUnknownRouter, Reason: "want router " + routerChoices()}
	}
	d := res.Disagg
	if d == nil || d.Offer == nil || d.PrefillWorker.TP < 1 || d.DecodeWorker.TP < 1 || d.Prefill < 1 || d.Decode < 1 {
		return Launch{}, &Error{Kind: k, Key: ErrNoDisagg, Reason: "the plan has no disaggregated alternative (it needs a serving plan with a request rate, a TTFT or TPOT target and a fitting row without pipeline stages across instances)"}
	}
	if d.PastLimit {
		return Launch{}, &Error{Kind: k, Key: ErrDisaggPastLimit, Reason: "the disaggregated alternative takes " + strconv.Itoa(d.Instances) +
			" instances, past the plan's instance limit: --max-instances " + strconv.Itoa(d.Instances) + " plans it, and then it launches"}
	}
	var base *plan.Row
	if i := d.Base(res.Rows); i >= 0 {
		base = &res.Rows[i]
	}
	if base == nil {
		return Launch{}, &Error{Kind: k, Key: ErrInconsistent, Reason: "the disaggregated plan's offer has no fitting aggregated row to take the workers' settings from"}
	}
	if g := d.Offer.Hardware.Generation; r == DynamoRouter && d.Offer.HasHardware && !dynamoGens[g] {
		// Dynamo's support matrix (docs/reference/support-matrix.md, "GPU
		// Compatibility") lists NVIDIA Ampere, Ada Lovelace, Hopper and
		// Blackwell only; its pip wheels and runtime containers are
		// CUDA builds. A Dynamo launch on MI300X would not start.
		return Launch{}, &Error{Kind: k, Key: ErrDynamoGPU, Reason: "NVIDIA Dynamo runs on NVIDIA Ampere, Ada, Hopper and Blackwell GPUs, not on " + g.String() + " (" + catalog.Printable(d.Offer.GPU) + "): use --emit-router engine"}
	}
	e := emitter{k: k, req: req, row: *base, in: req.Input, cat: cat, router: r, disagg: true}
	e.in.Engine = d.Engine
	var err error
	if e.model, err = e.modelRef(model); err != nil {
		return Launch{}, err
	}
	if err := e.support(); err != nil {
		return Launch{}, err
	}
	if d.Engine.String() != k.String() {
		e.note("the plan was sized for " + d.Engine.String() + "; these settings run " + k.String())
	}
	// Each side as the planner sized it: its workers' GPUs, attention-DP
	// and EP degrees, the instances one spans and the memory share.
	sides := [2]disaggSide{{mode: "prefill", file: "prefill.sh", workers: d.Prefill}, {mode: "decode", file: "decode.sh", workers: d.Decode}}
	gpus := int(d.Offer.GPUCount)
	for j, w := range [2]plan.DisaggWorker{d.PrefillWorker, d.DecodeWorker} {
		side := &sides[j]
		w.DP, w.EP, w.InstancesPerWorker = max(w.DP, 1), max(w.EP, 1), max(w.InstancesPerWorker, 1)
		// Workers per instance; a wide worker (one copy over
		// InstancesPerWorker instances, as the plan's wide
		// expert-parallel rows) is one per group of that many instances.
		nodes, per := w.InstancesPerWorker, 0
		switch {
		case nodes > 1 && w.TP == nodes*gpus:
			per = 1
		case nodes <= 1 && w.TP >= 1:
			per = gpus / w.TP
		}
		if per < 1 {
			return Launch{}, &Error{Kind: k, Key: ErrInconsistent, Reason: "the disaggregated plan's " + side.mode + " workers of " + plural(w.TP, "GPU") + " do not fill whole instances of " + plural(gpus, "GPU")}
		}
		if nodes > 1 && (k == TRTLLM && r == DynamoRouter || k == VLLM && (r == DynamoRouter || w.DP != w.TP)) {
			// SGLang starts a worker over several nodes from the one
			// command (--nnodes, --node-rank, --dist-init-addr), vLLM
			// its data-parallel ranks on each node (disaggWorkers: a
			// worker of attention DP over all its GPUs, the planner's
			// wide workers), TensorRT-LLM's trtllm-serve its ranks
			// under one mpirun over the worker's instances
			// (trtllmMPI); Dynamo's workers over several nodes, and
			// vLLM's tensor parallelism across nodes, need a start
			// these scripts do not write.
			return Launch{}, &Error{Kind: k, Key: ErrDisaggWide, Reason: "each " + side.mode + " worker spans " + plural(nodes, "instance") + ": the disaggregated launch of such workers is written for sglang, for trtllm behind its own router (trtllm-serve disaggregated), and for vllm workers of attention data parallelism over all their GPUs behind vllm's own router; use --emit-router engine"}
		}
		side.shape = copyShape{tp: w.TP, pp: 1, dp: w.DP, ep: w.EP, copies: per, nodes: nodes, redundant: max(w.RedundantExperts, 0)}
		if w.TP%w.DP != 0 {
			side.shape.dp = 1
		}
		side.per, side.share = per, w.MemShare
		side.instances = (side.workers + per - 1) / per * nodes
		side.heads = side.instances / nodes
		e.row.MemShare = w.MemShare
		if err := e.checkServe(k, side.shape); err != nil {
			return Launch{}, err
		}
	}
	if n := sides[0].instances + sides[1].instances; n != d.Instances {
		return Launch{}, &Error{Kind: k, Key: ErrInconsistent, Reason: "the workers need " + itoa(n) + " instances and the plan rents " + itoa(d.Instances)}
	}
	head := "# rightsize plan: " + catalog.Printable(d.Offer.Provider+" "+d.Offer.Name()) + " ×" + itoa(d.Instances) + ", disaggregated: "
	if sides[0].shape == sides[1].shape {
		head += plural(d.Prefill, "prefill worker") + " and " + sides[1].describe()
	} else {
		head += sides[0].describe() + " and " + sides[1].describe()
	}
	if r == DynamoRouter {
		head += ", behind NVIDIA Dynamo's frontend"
	}
	head += "\n"
	for _, side := range sides {
		e.row.MemShare = side.share
		text, err := e.disaggWorkers(side)
		if err != nil {
			return Launch{}, err
		}
		e.file(side.file, "sh", "#!/bin/sh\n"+head+text)
	}
	if r == DynamoRouter {
		e.file("router.sh", "sh", "#!/bin/sh\n"+head+dynamoFrontend())
	} else {
		e.file("router.sh", "sh", "#!/bin/sh\n"+head+e.disaggRouter(sides))
	}
	e.disaggExtras(sides)
	return Launch{Kind: k, Files: e.files, Notes: e.notes}, nil
}

// describe names the side's workers and their shape in the scripts'
// heading: "2 prefill workers of 8 GPUs (EP 8)", "1 decode worker of 24
// GPUs over 6 instances each (attention DP 24, EP 24, 8 redundant
// experts)".
func (s disaggSide) describe() string {
	t := plural(s.workers, s.mode+" worker") + " of " + plural(s.shape.tp, "GPU")
	if s.shape.nodes > 1 {
		t += " over " + plural(s.shape.nodes, "instance") + " each"
	}
	// Only the degrees above 1: "attention DP 1" is no attention DP.
	var layout []string
	if s.shape.dp > 1 {
		layout = append(layout, "attention DP "+itoa(s.shape.dp))
	}
	if s.shape.ep > 1 {
		layout = append(layout, "EP "+itoa(s.shape.ep))
	}
	if s.shape.redundant > 0 {
		layout = append(layout, plural(s.shape.redundant, "redundant expert"))
	}
	if len(layout) > 0 {
		t += " (" + strings.Join(layout, ", ") + ")"
	}
	return t
}

// disaggExtras writes what the engine's scripts need beside them (its
// options files) and the notes on how to run them.
func (e *emitter) disaggExtras(sides [2]disaggSide) {
	pre, dec := sides[0], sides[1]
	base := "run prefill.sh on each of the " + plural(pre.instances, "prefill instance") + " and decode.sh on each of the " + plural(dec.instances, "decode instance")
	if e.k == TRTLLM && (pre.shape.nodes > 1 || dec.shape.nodes > 1) {
		// A wide worker's script runs on its first instance only
		// (trtllmMPI): "each instance" would start it several times.
		where := func(s disaggSide) string {
			if s.shape.nodes > 1 {
				return s.file + " once a " + s.mode + " worker, on its first instance"
			}
			return s.file + " on each of the " + plural(s.instances, s.mode+" instance")
		}
		base = "run " + where(pre) + ", and " + where(dec)
	}
	after := ", then router.sh with PREFILL_HOSTS and DECODE_HOSTS set to their addresses; clients call the router on port " + itoa(servePort)
	rank := func(n int) string { return "NODE_RANK 0.." + itoa(n-1) + " and HEAD_IP its worker's first instance" }
	if e.k == TRTLLM {
		// One mpirun a worker, on its first instance (trtllmMPI).
		rank = func(n int) string {
			return "a worker's script runs once, on its first instance, with WORKER_HOSTS its " + itoa(n) + " instances' addresses, the first first: mpirun starts the worker's ranks on each over ssh, so the instances need passwordless ssh between them and the same software"
		}
	}
	// What the parenthesis says: each wide worker's ranks, and WORKERS
	// where a side's script starts several workers (disaggWorkers; an
	// instance of one worker has no fewer to run).
	var paren []string
	switch pn, dn := pre.shape.nodes, dec.shape.nodes; {
	case pn <= 1 && dn <= 1:
		if pre.per > 1 || dec.per > 1 {
			paren = append(paren, "WORKERS=N on an instance that runs fewer workers")
		}
	case pn == dn:
		base += ", " + itoa(pn) + " a worker"
		paren = append(paren, rank(pn))
	case pn > 1:
		base += ", " + itoa(pn) + " a prefill worker"
		paren = append(paren, rank(pn))
		if dec.per > 1 {
			paren = append(paren, "WORKERS=N on a decode instance that runs fewer workers")
		}
	default:
		base += ", " + itoa(dn) + " a decode worker"
		paren = append(paren, rank(dn))
		if pre.per > 1 {
			paren = append(paren, "WORKERS=N on a prefill instance that runs fewer workers")
		}
	}
	if pre.shape.nodes > 1 || dec.shape.nodes > 1 {
		after = ", then router.sh with PREFILL_HOSTS and DECODE_HOSTS set to each worker's first instance; clients call the router on port " + itoa(servePort)
	}
	dynamo := e.router == DynamoRouter
	if dynamo {
		after = ", and router.sh on any instance: " + dynamoAfter
		defer e.dynamoNotes()
	}
	// run is the note on how to start the scripts, the engine's own
	// conditions (extra) in the parenthesis.
	run := func(extra ...string) string {
		p := append(slices.Clip(paren), extra...)
		if len(p) == 0 {
			return base + after
		}
		return base + " (" + strings.Join(p, "; ") + ")" + after
	}
	switch e.k {
	case SGLang:
		e.note(run())
		e.note("the KV cache moves over NIXL (pip install nixl); for Mooncake, SGLang's default, write --disaggregation-transfer-backend mooncake and name the RDMA device with --disaggregation-ib-device")
	case VLLM:
		e.note(run("HOST_IP set to the instance's own address, where the decode workers fetch the KV cache"))
		e.note("the KV cache moves over vLLM's NixlConnector (pip install nixl); NIXL's UCX transport takes the network from UCX_NET_DEVICES (all by default) and UCX_TLS")
		if !dynamo {
			e.note("router.sh runs the proxy vLLM's NixlConnector guide documents, " + vllmProxy + ": an example in vLLM's repository, not part of the vllm package; run it from a checkout of the installed vLLM version, or set PROXY to the script's path")
		}
	case TRTLLM:
		// The transfer buffer holds the longest request the workers
		// take: their context length (--max_seq_len).
		buffer := e.contextLen()
		ctx, gen := trtllmDisaggOptions(pre.shape, "context (prefill)", true, buffer, e.in), trtllmDisaggOptions(dec.shape, "generation (decode)", false, buffer, e.in)
		how := " (router.sh writes " + trtllmDisaggConfig + " and runs trtllm-serve disaggregated)"
		if dynamo {
			// The same LLM API options, read by dynamo.trtllm's
			// --extra-engine-args.
			ctx = strings.Replace(ctx, "trtllm-serve --extra_llm_api_options", "dynamo.trtllm --extra-engine-args", 1)
			gen = strings.Replace(gen, "trtllm-serve --extra_llm_api_options", "dynamo.trtllm --extra-engine-args", 1)
			how = ""
		}
		e.file(trtllmContextOptions, "yaml", ctx)
		e.file(trtllmGenOptions, "yaml", gen)
		e.note(run(trtllmContextOptions+" and "+trtllmGenOptions+" in the directory the scripts run from") + how)
		e.note("the KV cache moves over NIXL (cache_transceiver_config backend NIXL); TRTLLM_NIXL_KVCACHE_BACKEND picks its transport, UCX by default or LIBFABRIC (AWS EFA)")
	}
}

// disaggWorkers is the script that starts one instance's workers of one
// side: per workers of shape s (WORKERS of them where the user says so),
// each on its own GPUs and port, with the engine's disaggregation
// settings.
func (e *emitter) disaggWorkers(side disaggSide) (string, error) {
	s, per := side.shape, side.per
	c, err := e.engineCommand(e.k, s, true)
	if err != nil {
		return "", err
	}
	if e.router == DynamoRouter {
		c = e.dynamoWorker(c, side.mode)
	}
	switch e.k {
	case SGLang:
		c.flag("--disaggregation-mode", side.mode)
		c.flag("--disaggregation-transfer-backend", disaggBackend)
		if side.mode == "prefill" {
			c.num("--disaggregation-bootstrap-port", disaggBootstrap)
		}
	case VLLM:
		c.flag("--kv-transfer-config", vllmKVTransfer)
		c.setenv("VLLM_NIXL_SIDE_CHANNEL_HOST", "", hostIP)
		if s.nodes > 1 {
			// One worker's data-parallel ranks over s.nodes instances,
			// without Ray: each instance runs its share of the ranks
			// (--data-parallel-size-local), all meet at the first
			// instance's RPC port (--data-parallel-address,
			// --data-parallel-rpc-port), which serves the API; the
			// others run theirs from their first rank on, headless
			// (vllmHeadless). vLLM docs, "Data Parallel Deployment"
			// (multi-node: vllm serve ... --data-parallel-size-local
			// --data-parallel-address --data-parallel-rpc-port on the
			// first node, --headless --data-parallel-start-rank on the
			// others); the flags in vllm/engine/arg_utils.py at
			// vllm-project/vllm 99d7eb5d6a51 (testdata/vllm_flags.txt).
			c.num("--data-parallel-size-local", s.dp/s.nodes)
			c.expand("--data-parallel-address", headAddr)
			c.num("--data-parallel-rpc-port", vllmDPRPCPort)
		} else if per > 1 && s.dp > 1 {
			// Each worker's data-parallel ranks meet at their own RPC
			// port, as engine copies on one instance do (engineCommands).
			c.num("--data-parallel-rpc-port", vllmDPRPCPort)
		}
	case TRTLLM:
		opts := trtllmGenOptions
		if side.mode == "prefill" {
			opts = trtllmContextOptions
		}
		// The side's options file replaces the aggregated launch's.
		if e.router == DynamoRouter {
			c.put("--extra-engine-args", opts)
		} else {
			c.put("--extra_llm_api_options", opts)
		}
	}
	var b strings.Builder
	if s.nodes > 1 {
		// One worker over s.nodes instances, on each the instance's own
		// GPUs, its rank and its first instance's address from the
		// environment: SGLang's same command on each (engineCommand's
		// --nnodes, --node-rank, --dist-init-addr), vLLM's API server
		// on the first and headless ranks on the others (vllmHeadless).
		b.WriteString("# " + plural(side.workers, side.mode+" worker") + " on " + plural(side.instances, "instance") + ": each worker over " + plural(s.nodes, "instance") +
			"; run this on each with NODE_RANK 0.." + itoa(s.nodes-1) + " and HEAD_IP the worker's first instance\n")
		if e.router == DynamoRouter {
			b.WriteString(dynamoEnvCheck)
		}
		c.onGPUs(0, s.tp/s.nodes)
		c.set("--port", itoa(disaggPort))
		if e.k == TRTLLM {
			return e.trtllmMPI(side, *c), nil
		}
		if e.k == VLLM {
			b.WriteString(hostIPGuard)
			script := vllmHeadless(*c, s.dp/s.nodes, s.nodes)
			b.WriteString(nodeGuards(s.nodes, script) + e.rackSetup(s.nodes) + script)
			return b.String(), nil
		}
		b.WriteString(nodeGuards(s.nodes, c.String()) + e.rackSetup(s.nodes) + c.String() + "\n")
		return b.String(), nil
	}
	last := side.last()
	b.WriteString("# " + plural(side.workers, side.mode+" worker") + " on " + plural(side.instances, "instance") + ": " + itoa(per) + " on each")
	if last != per {
		b.WriteString(", " + itoa(last) + " on the last (start it with WORKERS=" + itoa(last) + ")")
	}
	b.WriteString("\n")
	if per > 1 {
		// WORKERS starts fewer on an instance (the last); one worker an
		// instance has none fewer to start.
		// A value that is not a whole number from 1 would fail each
		// worker's test ("[ abc -gt 0 ]") and the script would start
		// none, ending with wait's success.
		b.WriteString("WORKERS=${WORKERS:-" + itoa(per) + "}\n" +
			"case $WORKERS in ''|0*|*[!0-9]*) echo \"WORKERS: $WORKERS: want 1 to " + itoa(per) + "\" >&2; exit 1;; esac\n")
	}
	if e.k == VLLM {
		b.WriteString(hostIPGuard)
	}
	if e.router == DynamoRouter {
		b.WriteString(dynamoEnvCheck)
	}
	for i := range per {
		c.onGPUs(i*s.tp, s.tp)
		c.set("--port", itoa(disaggPort+i))
		switch e.k {
		case SGLang:
			c.set("--disaggregation-bootstrap-port", itoa(disaggBootstrap+i)) // prefill only: absent on decode
		case VLLM:
			c.setenv("VLLM_NIXL_SIDE_CHANNEL_PORT", itoa(vllmNIXLPort+i*s.dp), "")
			c.set("--data-parallel-rpc-port", itoa(vllmDPRPCPort+i))
		}
		if per == 1 {
			b.WriteString(c.String() + "\n")
			break
		}
		b.WriteString("if [ \"$WORKERS\" -gt " + itoa(i) + " ]; then\n  " + strings.ReplaceAll(c.String(), "\n", "\n  ") + " &\nfi\n")
	}
	if per > 1 {
		b.WriteString("wait\n")
	}
	return b.String(), nil
}

// hostIPGuard stops a vLLM worker's script that does not know its
// instance's own address (hostIP, vLLM's NIXL side channel).
var hostIPGuard = guard("HOST_IP", "the address of this instance")

// headAddr is the first instance of a worker over several (the
// address its data-parallel ranks meet at).
const headAddr shellWord = "$HEAD_IP"

// dpStartRank is the first data-parallel rank of a worker's ranks on an
// instance (vllmHeadless sets it).
const dpStartRank shellWord = "$DP_START_RANK"

// vllmHeadless is the script of one vLLM worker over several instances,
// c with local data-parallel ranks an instance: c on the first (NODE_RANK
// 0), which serves the API; on the others c --headless from their first
// rank, NODE_RANK × local (--data-parallel-start-rank), the API left to
// the first.
func vllmHeadless(c command, local, nodes int) string {
	head := c.String()
	c.bare("--headless")
	c.expand("--data-parallel-start-rank", dpStartRank)
	indent := func(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
	return rankCheck(nodes) + "DP_START_RANK=$((NODE_RANK * " + itoa(local) + "))\nif [ \"$NODE_RANK\" = 0 ]; then\n" + indent(head) + "\nelse\n" + indent(c.String()) + "\nfi\n"
}

// rankCheck is the line that stops a script whose NODE_RANK is not one of
// the nodes instances' ranks (0 to nodes − 1, written out) before the
// arithmetic reads it: bash evaluates a variable's value inside $((...))
// as an expression, so a NODE_RANK of 'a[$(cmd)]' would run cmd (bash
// manual, "Shell Arithmetic": "the value of a variable is evaluated as an
// arithmetic expression when it is referenced"; array subscripts undergo
// command substitution), and a leading zero reads as octal ("08" fails).
func rankCheck(nodes int) string {
	ranks := make([]string, nodes)
	for i := range ranks {
		ranks[i] = itoa(i)
	}
	return "case $NODE_RANK in " + strings.Join(ranks, "|") + ") ;; *) echo \"NODE_RANK: $NODE_RANK: want 0 to " + itoa(nodes-1) + "\" >&2; exit 1;; esac\n"
}

// hostLoop is the shell loop over the instances in $list that runs body
// once for each worker, with $h the instance's address and $i the
// worker's index on it: per workers on each instance, last on the last
// of instances. It stops at an address that is not a host name or IPv4
// address (letters, digits, ".", "_" and "-", not first): each router
// writes it into a URL or a "host:port" pair, and one that starts with
// "-" would reach the router's argument parser as a flag.
func hostLoop(list string, per, last, instances int, body string) string {
	var b strings.Builder
	b.WriteString("n=0\nfor h in $" + list + "; do\n" +
		"  case $h in -*|*[!A-Za-z0-9._-]*) echo \"" + list + ": $h: want a host name or IPv4 address\" >&2; exit 1;; esac\n" +
		"  n=$((n + 1))\n  w=" + itoa(per) + "\n")
	if last != per {
		b.WriteString("  if [ \"$n\" -eq " + itoa(instances) + " ]; then w=" + itoa(last) + "; fi\n")
	}
	b.WriteString("  i=0\n  while [ \"$i\" -lt \"$w\" ]; do\n    " + body + "\n    i=$((i + 1))\n  done\ndone\n")
	return b.String()
}

// countCheck stops the router where $list names another number of
// instances than the plan.
func countCheck(list string, instances int) string {
	want := itoa(instances) + " addresses"
	if instances == 1 {
		want = "1 address"
	}
	return "if [ \"$n\" -ne " + itoa(instances) + " ]; then echo \"" + list + ": want " + want + ", got $n\" >&2; exit 1; fi\n"
}

// disaggRouter is the router's script: every worker of the instances in
// $PREFILL_HOSTS and $DECODE_HOSTS, per on each and the rest on the
// last, after a check that the lists name as many instances as the plan.
func (e *emitter) disaggRouter(sides [2]disaggSide) string {
	var b strings.Builder
	if sides[0].shape.nodes > 1 || sides[1].shape.nodes > 1 {
		first := "(NODE_RANK 0)"
		if e.k == TRTLLM {
			first = "(the first of its WORKER_HOSTS, where its mpirun serves)"
		}
		b.WriteString("# PREFILL_HOSTS and DECODE_HOSTS: each worker's first instance " + first + ", space-separated\n")
	} else {
		b.WriteString("# PREFILL_HOSTS and DECODE_HOSTS: the instances' addresses, space-separated, in the order their scripts ran\n")
	}
	// The lists are split at spaces unquoted (hostLoop); set -f turns
	// pathname expansion off first, so a "*" or "?" in them is a word,
	// not the names of the files where the router runs (POSIX sh, "set
	// -f": "Disable pathname expansion").
	b.WriteString("set -f\n")
	lists := [2]string{"PREFILL_HOSTS", "DECODE_HOSTS"}
	port := "$((" + itoa(disaggPort) + " + i))"
	switch e.k {
	case SGLang:
		b.WriteString("set --\n")
		for j, side := range sides {
			per, last := side.per, side.last()
			body := "set -- \"$@\" --decode \"http://$h:" + port + "\""
			if j == 0 {
				body = "set -- \"$@\" --prefill \"http://$h:" + port + "\" \"$((" + itoa(disaggBootstrap) + " + i))\""
			}
			b.WriteString(hostLoop(lists[j], per, last, side.heads, body))
			b.WriteString(countCheck(lists[j], side.heads))
		}
		b.WriteString("exec python -m sglang_router.launch_router --pd-disaggregation \"$@\" --host 0.0.0.0 --port " + itoa(servePort) + "\n")
	case VLLM:
		// toy_proxy_server.py's arguments (its parse_args): a list of
		// hosts and a list of ports on each side, paired in order; it
		// sends each request to the next prefill worker, then the next
		// decode worker, round robin.
		b.WriteString("PROXY=${PROXY:-" + vllmProxy + "}\nset --\n")
		for j, side := range sides {
			per, last := side.per, side.last()
			flag := [2]string{"--prefiller", "--decoder"}[j]
			b.WriteString("set -- \"$@\" " + flag + "-hosts\n")
			b.WriteString(hostLoop(lists[j], per, last, side.heads, "set -- \"$@\" \"$h\""))
			b.WriteString(countCheck(lists[j], side.heads))
			b.WriteString("set -- \"$@\" " + flag + "-ports\n")
			b.WriteString(hostLoop(lists[j], per, last, side.heads, "set -- \"$@\" \""+port+"\""))
		}
		b.WriteString("exec python \"$PROXY\" --host 0.0.0.0 --port " + itoa(servePort) + " \"$@\"\n")
	case TRTLLM:
		// disagg_config.yaml (extract_disagg_cfg): the router's own
		// hostname and port, and each side's servers as
		// num_instances and urls, "host:port" without a scheme
		// (extract_ctx_gen_cfgs splits them at the colon and wants
		// num_instances of them). The layout keys beside them are the
		// LLM API fields the MPI launch reads from the same file
		// (examples/disaggregated/README.md), written so the file says
		// each side's layout; the HTTP servers read their own options.
		conf := trtllmDisaggConfig
		b.WriteString("cat > " + conf + " <<EOF\nhostname: \"0.0.0.0\"\nport: " + itoa(servePort) + "\nbackend: \"pytorch\"\nEOF\n")
		for j, side := range sides {
			s, per, last := side.shape, side.per, side.last()
			section := [2]string{"context_servers", "generation_servers"}[j]
			b.WriteString("cat >> " + conf + " <<EOF\n" + section + ":\n  num_instances: " + itoa(side.workers) +
				"\n  tensor_parallel_size: " + itoa(s.tp) + "\n  moe_expert_parallel_size: " + itoa(s.ep) +
				"\n  enable_attention_dp: " + strconv.FormatBool(s.dp > 1) + "\n  urls:\nEOF\n")
			// The server splits each url at its one colon and the YAML
			// string is double-quoted: hostLoop passes a host name or
			// IPv4 address only.
			b.WriteString(hostLoop(lists[j], per, last, side.heads, "printf '    - \"%s:%s\"\\n' \"$h\" \""+port+"\" >> "+conf))
			b.WriteString(countCheck(lists[j], side.heads))
		}
		b.WriteString("exec trtllm-serve disaggregated -c " + conf + "\n")
	}
	return b.String()
}

// trtllmDisaggOptions is one side's LLM API options file (trtllm-serve
// --extra_llm_api_options; fields of tensorrt_llm/llmapi/llm_args.py):
// cache_transceiver_config (CacheTransceiverConfig: backend, one of
// DEFAULT, UCX, NIXL, MPI; max_tokens_in_buffer, the transfer buffer,
// which the docs advise to hold the longest prompt), attention data
// parallelism and its balance as the aggregated launch sets them
// (trtllmBalance), the side's redundant experts (trtllmLoadBalancer), and
// on the context side disable_overlap_scheduler (the
// docs: the overlap scheduler is not supported on context servers);
// without CUDA graphs where the plan assumed none (in.EnforceEager:
// trtllmNoGraphs), and the plan's speculative decoding on both sides
// (trtllmMTP: the context server drafts the first tokens' MTP state, as
// the estimate runs the module over every prompt).
func trtllmDisaggOptions(s copyShape, side string, context bool, bufferTokens int, in estimator.Input) string {
	var b strings.Builder
	b.WriteString("# trtllm-serve --extra_llm_api_options of the " + side + " servers\n")
	if context || in.NoOverlapSchedule {
		b.WriteString(trtllmNoOverlap)
	}
	if s.dp > 1 {
		b.WriteString("enable_attention_dp: true\n")
	}
	b.WriteString(trtllmBalance(s, in))
	b.WriteString(trtllmLoadBalancer(s, in.Arch))
	if in.EnforceEager {
		b.WriteString(trtllmNoGraphs)
	}
	b.WriteString(trtllmMTP(in))
	b.WriteString("cache_transceiver_config:\n  backend: \"NIXL\"\n  max_tokens_in_buffer: " + itoa(bufferTokens) + "\n")
	return b.String()
}

// mpiHosts is the list of a TensorRT-LLM worker's instances, host:slots
// pairs joined by commas, that its script builds from WORKER_HOSTS for
// mpirun -H (Open MPI's mpirun(1), "-H, --host <host1,host2,...>":
// "host:N" gives a host N slots).
const mpiHosts shellWord = "$MPI_HOSTS"

// trtllmMPI is the script of one TensorRT-LLM worker over s.nodes
// instances: one MPI job, started on the worker's first instance, whose
// s.tp ranks (one a GPU, gpus an instance) mpirun places on the
// instances WORKER_HOSTS names, each rank running trtllm-serve under
// trtllm-llmapi-launch, which makes rank 0 the HTTP server and the others
// its workers. TensorRT-LLM docs, "trtllm-serve", "Multi-node Serving
// with Slurm" (srun --ntasks N --mpi=pmix ... trtllm-llmapi-launch
// trtllm-serve ...), its DeepSeek-R1 example's multi-node server
// (mpirun -np 16 --hostfile ... trtllm-llmapi-launch trtllm-serve
// --tp_size 16 --ep_size ...), and the disaggregated Slurm scripts
// (examples/disaggregated/slurm, start_worker.sh: each context or
// generation server of several nodes is one trtllm-llmapi-launch
// trtllm-serve job over them, its first node the server's URL). The
// worker's GPUs are every GPU of each instance: no CUDA_VISIBLE_DEVICES.
// On a rack's trays the NCCL settings (rackSetup) reach the other trays'
// ranks only through mpirun -x.
func (e *emitter) trtllmMPI(side disaggSide, c command) string {
	s := side.shape
	gpus := s.tp / s.nodes
	var b strings.Builder
	b.WriteString("# " + plural(side.workers, side.mode+" worker") + " on " + plural(side.instances, "instance") + ": each worker over " + plural(s.nodes, "instance") +
		"; run this once a worker, on its first instance, with WORKER_HOSTS its instances' addresses (the first first), space-separated\n")
	b.WriteString(guard("WORKER_HOSTS", "the addresses of the instances of this worker, this one first"))
	// The list is split at spaces unquoted; set -f keeps a "*" in it a
	// word, and hostLoop stops at a host that is not a name or IPv4
	// address, or one starting with "-", before mpirun reads it, as the
	// router's lists (disaggRouter); countCheck at another number of them.
	b.WriteString("set -f\nMPI_HOSTS=\n" + hostLoop("WORKER_HOSTS", 1, 1, s.nodes, "MPI_HOSTS=\"$MPI_HOSTS${MPI_HOSTS:+,}$h:"+itoa(gpus)+"\"") +
		countCheck("WORKER_HOSTS", s.nodes))
	env := e.rackSetup(s.nodes)
	b.WriteString(env)
	c.env = ""
	mpi := command{argv: []string{"mpirun"}}
	mpi.num("-np", s.tp)
	mpi.expand("-H", mpiHosts)
	if env != "" {
		mpi.flag("-x", "NCCL_MNNVL_ENABLE")
		mpi.flag("-x", "NCCL_CUMEM_ENABLE")
	}
	mpi.then = &command{argv: []string{"trtllm-llmapi-launch"}, then: &c}
	b.WriteString("exec " + mpi.String() + "\n")
	return b.String()
}
