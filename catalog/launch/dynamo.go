package launch

import (
	"strings"

	"rightsize/estimator"
)

// NVIDIA Dynamo (github.com/ai-dynamo/dynamo) as the router of a
// disaggregated deployment (EmitDisaggVia with DynamoRouter): its HTTP
// frontend takes the requests and routes each to a prefill and a decode
// worker it discovers, and each worker is the engine under Dynamo's
// wrapper, python -m dynamo.sglang, dynamo.vllm or dynamo.trtllm, in its
// disaggregation mode. The commands and flags come from Dynamo's source
// and docs (the flags Rightsize writes are in
// testdata/dynamo_flags.txt, with the commits read):
//
//   - python -m dynamo.frontend: --http-port (env DYN_HTTP_PORT, 8000 by
//     default) and --discovery-backend (etcd by default, whose address
//     the runtime reads from ETCD_ENDPOINTS);
//     components/src/dynamo/frontend/frontend_args.py @ 0243c51bb6e8.
//   - python -m dynamo.sglang: SGLang's own ServerArgs flags passed
//     through, --disaggregation-mode prefill|decode among them;
//     components/src/dynamo/sglang/args.py @ 010ba7526f5a (parse_args
//     adds ServerArgs.add_cli_args) and examples/backends/sglang/launch/
//     disagg.sh @ 15bb523898f7 (--disaggregation-transfer-backend nixl).
//   - python -m dynamo.vllm: vLLM's EngineArgs (not vllm serve's --host
//     and --port, which are its HTTP server's) with --model, and
//     --disaggregation-mode prefill|decode beside the NixlConnector's
//     --kv-transfer-config; examples/backends/vllm/launch/disagg.sh @
//     11bc2e865f7c.
//   - python -m dynamo.trtllm: its own flags (--model, --tensor-parallel-
//     size, --expert-parallel-size, --max-batch-size, --max-num-tokens,
//     --max-seq-len, --free-gpu-memory-fraction, --extra-engine-args, a
//     YAML of LLM API options, and --disaggregation-mode agg|pd|prefill|
//     decode|encode); components/src/dynamo/trtllm/backend_args.py @
//     0a6a115c6cd1 and examples/backends/trtllm/launch/disagg.sh @
//     0b03d3382bbf.
//
// Workers and frontend find one another through etcd and exchange
// events over NATS: on bare metal "the NATS/ETCD endpoints must be
// accessible by all other nodes" (Dynamo docs, "Multinode Examples";
// "Discovery Plane": etcd at ETCD_ENDPOINTS, localhost:2379 by default),
// started with deploy/docker-compose.yml; each script requires
// ETCD_ENDPOINTS and NATS_SERVER. The frontend needs no list of workers.
// The files were read at the commits named, Dynamo 1.x (pyproject.toml
// of the time: version 1.2.0; docs.nvidia.com/dynamo/v1.4.2's vLLM
// configuration reference runs a worker with --model and
// --disaggregation-mode alike). An older dynamo.vllm spelled the roles
// --is-prefill-worker and --is-decode-worker (components/src/dynamo/vllm/
// backend_args.py @ 036f289b17f2): a note says which to use.

// dynamoGens are the GPU generations Dynamo's support matrix lists
// (docs/reference/support-matrix.md @ Dynamo 1.x: NVIDIA Blackwell,
// Hopper, Ada Lovelace and Ampere).
var dynamoGens = map[estimator.Generation]bool{estimator.GenAmpere: true, estimator.GenAda: true, estimator.GenHopper: true, estimator.GenBlackwell: true}

// Router is what routes a disaggregated deployment's requests to its
// prefill and decode workers.
type Router int

const (
	EngineRouter Router = iota // the engine's own: SGLang's router, vLLM's proxy, trtllm-serve disaggregated
	DynamoRouter               // NVIDIA Dynamo's frontend over Dynamo's workers
)

var routerNames = [...]string{EngineRouter: "engine", DynamoRouter: "dynamo"}

// Routers lists every Router in display order.
var Routers = []Router{EngineRouter, DynamoRouter}

// ErrUnknownRouter is EmitDisaggVia's error key for a Router outside
// Routers.
const ErrUnknownRouter = "launch.unknown_router"

// String returns the name --emit-router takes ("engine", "dynamo").
func (r Router) String() string {
	if r.valid() {
		return routerNames[r]
	}
	return "Router(" + itoa(int(r)) + ")"
}

func (r Router) valid() bool { return r >= 0 && int(r) < len(routerNames) }

// ParseRouter reads a name written by Router.String; "" is EngineRouter.
func ParseRouter(s string) (Router, error) {
	if s == "" {
		return EngineRouter, nil
	}
	for i, n := range routerNames {
		if n == s {
			return Router(i), nil
		}
	}
	return 0, &estimator.InputError{Field: "emit-router", Value: s, Err: estimator.ErrUnknown, Reason: "want " + routerChoices()}
}

func routerChoices() string { return strings.Join(routerNames[:], ", ") }

// dynamoEnvCheck stops a script that does not know where etcd and NATS
// run.
var dynamoEnvCheck = guard("ETCD_ENDPOINTS", "the etcd every instance reaches, HOST:2379") +
	guard("NATS_SERVER", "the NATS server every instance reaches, nats://HOST:4222")

// dynamoAfter ends the run note of a Dynamo launch.
var dynamoAfter = "it starts Dynamo's frontend, which finds the workers through etcd; clients call it on port " + itoa(servePort)

// dynamoFrontend is router.sh's body: Dynamo's HTTP frontend on
// servePort, its workers found through etcd.
func dynamoFrontend() string {
	c := &command{argv: []string{"python", "-m", "dynamo.frontend"}}
	c.num("--http-port", servePort)
	return "# NVIDIA Dynamo 1.x's frontend (ai-dynamo/dynamo, components/src/dynamo/frontend/frontend_args.py\n" +
		"# @ 0243c51bb6e8): it finds the prefill and decode workers through etcd and routes each request to one of each\n" +
		dynamoEnvCheck + "exec " + c.String() + "\n"
}

// dynamoModule is each engine's Dynamo worker.
var dynamoModule = map[Kind]string{SGLang: "dynamo.sglang", VLLM: "dynamo.vllm", TRTLLM: "dynamo.trtllm"}

// trtllmDynamoFlags renames trtllm-serve's flags to dynamo.trtllm's
// (backend_args.py, DynamoTrtllmArgGroup).
var trtllmDynamoFlags = map[string]string{
	"--tp_size": "--tensor-parallel-size", "--pp_size": "--pipeline-parallel-size", "--ep_size": "--expert-parallel-size",
	"--max_batch_size": "--max-batch-size", "--max_num_tokens": "--max-num-tokens", "--max_seq_len": "--max-seq-len",
	"--kv_cache_free_gpu_memory_fraction": "--free-gpu-memory-fraction", "--extra_llm_api_options": "--extra-engine-args",
}

// dynamoWorker turns engine command c (engineCommand's, one worker) into
// the same worker under Dynamo in disaggregation mode: the engine's
// settings kept, the HTTP server's flags dropped where Dynamo's wrapper
// does not take them (the frontend serves HTTP), the model passed as the
// wrapper names it.
func (e *emitter) dynamoWorker(c *command, mode string) *command {
	w := &command{env: c.env, vars: c.vars, argv: []string{"python", "-m", dynamoModule[e.k]}}
	switch e.k {
	case SGLang:
		// ServerArgs as they are: SGLang derives its internal ports from
		// --port, so each worker on an instance keeps its own.
		w.args = c.args
	case VLLM:
		w.flag("--model", e.model)
		for _, a := range c.args {
			if a.flag != "--host" && a.flag != "--port" {
				w.args = append(w.args, a)
			}
		}
		w.flag("--disaggregation-mode", mode)
	case TRTLLM:
		w.flag("--model", e.model)
		if e.remoteCode != "" {
			// dynamo.trtllm has no flag of its own for it (testdata/
			// dynamo_flags.txt); the LLM API option is trust_remote_code.
			e.note("dynamo.trtllm: add trust_remote_code: true to the --extra-engine-args file")
		}
		for _, a := range c.args {
			if n, ok := trtllmDynamoFlags[a.flag]; ok {
				a.flag = n
				w.args = append(w.args, a)
			}
		}
		w.flag("--disaggregation-mode", mode)
	}
	return w
}

// dynamoNotes are what a Dynamo launch needs besides its scripts.
func (e *emitter) dynamoNotes() {
	e.note("NVIDIA Dynamo: pip install \"ai-dynamo[" + e.k.String() + "]\" on every instance (or run Dynamo's " + e.k.String() +
		" runtime container); start etcd and NATS (nats-server -js) where every instance reaches them, as Dynamo's deploy/docker-compose.yml does, and set ETCD_ENDPOINTS and NATS_SERVER before each script")
	if e.k == VLLM {
		e.note("the workers name their role with --disaggregation-mode, as Dynamo 1.x's dynamo.vllm does; an older dynamo.vllm takes --is-prefill-worker and --is-decode-worker instead")
	}
}
