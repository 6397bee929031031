package launch

import (
	"math"
	"slices"
	"strings"

	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// skyClouds maps catalog provider IDs to SkyPilot cloud names: the
// providers in SkyPilot's ALL_CLOUDS (sky/skylet/constants.py at
// skypilot-org/skypilot 0015e8ec; testdata/skypilot_schema.txt). A
// provider missing here is refused.
var skyClouds = map[string]string{
	"aws": "aws", "gcp": "gcp", "azure": "azure", "oci": "oci", "ibm": "ibm",
	"lambda": "lambda", "runpod": "runpod", "vast": "vast", "cudo": "cudo",
	"fluidstack": "fluidstack", "paperspace": "paperspace", "primeintellect": "primeintellect",
	"nebius": "nebius", "hyperbolic": "hyperbolic", "seeweb": "seeweb", "shadeform": "shadeform",
	"yotta": "yotta", "verda": "verda",
}

// skyInstanceTypes are the clouds whose catalog instance types are the
// names SkyPilot's catalogs use: the cloud's own API names, or the rows
// of SkyPilot's v9 vms.csv the catalog imported verbatim (Cudo's
// per-vCPU shapes such as sapphire-rapids-h100_1x4v8gb, Seeweb's plans,
// Nebius's platform presets, Fluidstack's, IBM's profiles:
// skypilot-org/skypilot-catalog catalogs/v9/<cloud>/vms.csv). The task
// names the instance the plan priced: with accelerators alone SkyPilot
// takes the cheapest shape that has them, on Cudo the 2-vCPU, 4-GB host
// the planner passes over. Elsewhere (Vast, whose rows the catalog splits
// by GPU memory, and the v8 clouds) the task names the accelerators and
// SkyPilot picks the instance.
var skyInstanceTypes = map[string]bool{
	"aws": true, "gcp": true, "azure": true, "oci": true, "lambda": true,
	"cudo": true, "seeweb": true, "nebius": true, "fluidstack": true, "ibm": true,
}

// skyInstanceOnly are the clouds whose task names the instance type
// alone: SkyPilot reads its accelerators from the catalog row and refuses
// a task whose accelerators differ from that row's ("Infeasible resource
// demands found … To fix: either only specify instance_type",
// sky/clouds/cloud.py _check_instance_type_accelerators_combination), and
// these catalogs spell GPUs their own way: Cudo's SXM H100 is "H100-SXM",
// its 80 GB PCIe A100 and Seeweb's 80 GB A100 "A100", Cudo's A800 "A800"
// (catalogs/v9/cudo/vms.csv, catalogs/v9/seeweb/vms.csv).
//
// Vast, Shadeform, Verda, Prime Intellect and Hyperbolic are here too:
// their catalog offers are rows of SkyPilot's vms.csv (catalogs/v9/vast,
// catalogs/v8/<cloud>; testdata/skypilot_instances.txt), whose accelerator
// names would not rent the priced GPU. Shadeform, Prime Intellect and Vast
// give one name to parts the plan tells apart (Shadeform's and Prime
// Intellect's H100 and A100-80GB are SXM and PCIe cards; Vast's H100 is
// its SXM and NVL ones, whose instance types are 1x-H100_SXM-… and
// 1x-H100_NVL-…), so a task asking for H100:8 rents whichever is
// cheapest; Verda names its parts RTX-A6000, RTX-6000-Ada, RTX-PRO-6000,
// Tesla-V100 and its multi-GPU A100s by their total memory
// (A100-80GB-160GB for 2A100.44V), and Shadeform RTX6000Ada, A6000 and
// A4000, none of them the shared table's names. The instance type names
// the part: Vast's launch queries its market by the GPU name in it
// (sky/provision/vast/utils.py launch: gpu_name from instance_type). These
// clouds take no region: their markets and brokers list an instance where
// they have one, and the cheapest region in the catalog is not promised
// to have it when the task starts.
var skyInstanceOnly = map[string]bool{
	"cudo": true, "seeweb": true, "nebius": true, "fluidstack": true, "ibm": true,
	"vast": true, "shadeform": true, "verda": true, "primeintellect": true, "hyperbolic": true,
}

// skyInstanceType is the instance type a SkyPilot task names for the
// catalog's: GCP's N1 offers are a host and the GPUs attached to it
// (catalog/source/gcp.go names them n1-highmem-8+4xV100), which SkyPilot
// writes as instance_type n1-highmem-8 with accelerators V100:4 (GCP
// attaches accelerators to VMs: sky/resources.py skips the instance
// type's accelerator check there).
//
// Vast's catalog offers split SkyPilot's A100 rows by GPU memory, which
// SkyPilot's Vast instance type does not carry (1x-A100_SXM4-32-65536 is
// 40 GB and 80 GB cards alike): the catalog adds "-40GB" or "-80GB"
// (1x-A100_SXM4-32-65536-80GB), which the task drops, and memory reports
// it.
func skyInstanceType(provider, itype string) (name string, memory bool) {
	if host, _, ok := strings.Cut(itype, "+"); ok && provider == "gcp" {
		return host, false
	}
	if provider == "vast" {
		if i := strings.LastIndexByte(itype, '-'); i > 0 && strings.HasSuffix(itype, "GB") && allDigits(itype[i+1:len(itype)-2]) {
			return itype[:i], true
		}
	}
	return itype, false
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// skyAccelerators maps catalog GPU IDs to SkyPilot accelerator names (sky
// show-gpus; SkyPilot's catalogs in skypilot-org/skypilot-catalog).
var skyAccelerators = map[string]string{
	"h100-sxm": "H100", "h100-80gb": "H100", "h100-pcie": "H100",
	"h200-sxm": "H200", "h200-141gb": "H200",
	"a100-80gb": "A100-80GB", "a100-80gb-sxm": "A100-80GB", "a100-80gb-pcie": "A100-80GB",
	"a100-40gb": "A100", "a100-40gb-sxm": "A100", "a100-40gb-pcie": "A100",
	"b200": "B200", "gb200": "GB200", "l4": "L4", "l40s": "L40S", "l40": "L40",
	"a10g": "A10G", "a10": "A10", "a40": "A40", "t4": "T4",
	"v100-16gb": "V100", "v100-32gb": "V100-32GB", "mi300x": "MI300X",
	// The names catalog/source's skyPilotGPUs reads back to one GPU ID
	// alone (SkyPilot's catalogs name the RTX A4000/A5000/A6000 two ways,
	// RTXA6000 and A6000, so those stay out): the GPUs of the clouds that
	// take an accelerator name, not an instance type (RunPod, Vast,
	// Shadeform, Cudo).
	"a16": "A16", "a30": "A30", "b300": "B300", "h100-nvl": "H100-NVL",
	"rtx-3090": "RTX3090", "rtx-4090": "RTX4090", "rtx-5090": "RTX5090",
	"rtx-6000-ada": "RTX6000-Ada", "rtx-pro-6000": "RTXPRO6000",
}

// skyCloudAccelerators are a cloud's own SkyPilot accelerator names where
// its SkyPilot catalog spells a GPU otherwise than skyAccelerators, and
// they win there. RunPod's catalog names the SXM H100, H200 and A100 by
// their form factor (H100-SXM, H200-SXM, A100-80GB-SXM) and the PCIe ones
// without it (H100, A100-80GB): a task asking for H100:8 on RunPod rents
// PCIe H100s, not the SXM instance the plan priced. The names are those
// of skypilot-org/skypilot-catalog catalogs/v8/runpod/vms.csv
// (46062acbb2c0, the file the catalog's RunPod offers are imported from),
// whose instance types carry them: 8x_H100-SXM_SECURE is AcceleratorName
// H100-SXM, 1x_A100-80GB_SECURE is A100-80GB ("A100 PCIe" in its
// GpuInfo).
var skyCloudAccelerators = map[string]map[string]string{
	"runpod": {
		"h100-sxm": "H100-SXM", "h100-pcie": "H100", "h100-nvl": "H100-NVL",
		"h200-sxm": "H200-SXM", "h200-nvl": "NVIDIA-H200-NVL",
		"a100-80gb-sxm": "A100-80GB-SXM", "a100-80gb-pcie": "A100-80GB",
		"a40": "A40", "b200": "B200", "l4": "L4", "l40": "L40", "l40s": "L40S", "mi300x": "MI300X",
		"rtx-2000-ada": "RTX2000-Ada", "rtx-4000-ada": "RTX4000-Ada", "rtx-6000-ada": "RTX6000-Ada",
		"rtx-3090": "RTX3090", "rtx-4090": "RTX4090", "rtx-5090": "RTX5090",
		"rtx-a4000": "RTXA4000", "rtx-a4500": "RTXA4500", "rtx-a5000": "RTXA5000", "rtx-a6000": "RTXA6000",
		"rtx-pro-6000": "RTXPRO6000", "rtx-pro-6000-ws": "RTXPRO6000-WK",
	},
}

// skyAccelerator is the SkyPilot accelerator name of GPU gpu on
// provider's cloud, and whether one is known.
func skyAccelerator(provider, gpu string) (string, bool) {
	if a, ok := skyCloudAccelerators[provider][gpu]; ok {
		return a, true
	}
	a, ok := skyAccelerators[gpu]
	return a, ok
}

// SkyCloud is the SkyPilot cloud name of a catalog provider ID, and
// whether SkyPilot supports the provider.
func SkyCloud(provider string) (string, bool) {
	c, ok := skyClouds[provider]
	return c, ok
}

// skypilot writes a SkyPilot task YAML (fields of get_task_schema and
// _get_single_resources_schema in sky/utils/schemas.py, the service
// block of get_service_schema; testdata/skypilot_schema.txt): the row's
// instances as resources and num_nodes, spot or on-demand, and the engine
// or training command as run. Serving rows add a service block with the
// replica count, for sky serve up.
func (e *emitter) skypilot() error {
	o := e.row.Offer
	cloud, ok := skyClouds[o.Provider]
	if !ok {
		p := o.Provider
		if pr, found := e.cat.Provider(p); found && pr.Name != "" && pr.Name != p {
			p = pr.Name + " (" + o.Provider + ")" // a provider of the user's own is named as its ID
		}
		return e.fail(ErrNoSkyPilotCloud, "SkyPilot does not support "+p+"; clouds it launches on: "+strings.Join(skyCloudList(), ", "))
	}
	acc, accOK := skyAccelerator(o.Provider, o.GPU)
	itype := ""
	if skyInstanceTypes[o.Provider] || skyInstanceOnly[o.Provider] {
		var memory bool
		if itype, memory = skyInstanceType(o.Provider, o.InstanceType); memory {
			e.note("SkyPilot's Vast instance type " + itype + " names the GPU model, not its memory (" + o.InstanceType + " in the catalog): check that the card rented has the " + ftoa(math.Round(float64(o.GPUMemory)/1e9)) + " GB planned")
		}
	}
	if skyInstanceOnly[o.Provider] {
		accOK = false
	}
	if !accOK && itype == "" {
		return e.fail(ErrNoAccelerator, "no SkyPilot accelerator name is known for GPU "+o.GPU+" and "+o.Provider+" instance types are not SkyPilot's")
	}
	train := e.req.Workload.Kind == plan.Training

	// The run: the engine copies of one replica, or the training launch
	// (DeepSpeed, whose config the setup writes).
	var setup, run, image string
	// batchFile marks an offline batch job that reads a request file (runBatch).
	var batchFile bool
	g := o.Hardware.Generation
	amd := g == estimator.GenCDNA2 || g == estimator.GenCDNA3 || g == estimator.GenCDNA4
	nodes := max(e.row.InstancesPerReplica, 1)
	// SkyPilot's node rank and the first of its node addresses, one a
	// line (SkyPilot docs, "Distributed multi-node jobs"), each value in
	// double quotes: an older dash splits an unquoted one in export's
	// arguments.
	env := "export NODE_RANK=\"$SKYPILOT_NODE_RANK\"\nexport MASTER_ADDR=\"$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\"\nexport HEAD_IP=\"$MASTER_ADDR\"\n"
	if train {
		s, err := e.train()
		if err != nil {
			return err
		}
		if err := e.deepspeedPure(); err != nil {
			return err
		}
		nodes = s.nodes
		cfg := e.deepspeedJSON(s)
		setup = e.cu126Torch() + "pip install " + e.trainPackages() + "\ncat > ds_config.json <<'EOF'\n" + cfg + "EOF\n"
		if amd {
			// PyTorch from pip is the CUDA build: on AMD the task runs in
			// AMD's ROCm PyTorch image (ROCm docs, "PyTorch on ROCm").
			image = "docker:rocm/pytorch:latest"
		}
		run = e.deepspeedCommand(s).String() + "\n"
		if nodes > 1 {
			run = env + run
		}
		e.note("train.py is your Trainer script in the directory sky launch runs from (workdir)")
	} else {
		k := VLLM
		switch e.row.Engine {
		case estimator.SGLang:
			k = SGLang
		case estimator.TRTLLM:
			k = TRTLLM
		}
		if e.row.Engine != engineOf(k) {
			// A row planned on HF transformers runs on vLLM here: the
			// table of what runs where must let vLLM start on the GPU
			// (not the current vLLM on a V100, estimator.SupportForJob),
			// which the support check of the row's own engine did not ask.
			in := e.supportInput()
			in.Engine = engineOf(k)
			if s := estimator.SupportForJob(g, in); !s.Runs {
				return e.fail(ErrUnsupported, s.Cause(g, in)+" ("+o.GPU+"): the plan runs this job on "+e.row.Engine.String()+
					", which has no SkyPilot task here; plan it with --engine vllm and an --engine-version that starts there to launch vLLM")
			}
		}
		batchFile = e.runBatch(k)
		e.batchClient(k)
		if batchFile && e.row.Instances > nodes {
			// Every instance syncs the same workdir: each reads its own
			// share, named by its rank.
			e.rankFiles = true
			e.note("the task runs from the directory sky launch runs in (workdir): split " + batchInput + " into one file an instance, " +
				string(rankFile(batchInput, -1)) + " for SKYPILOT_NODE_RANK 0 to " + itoa(e.row.Instances-1) + "; copy each instance's results off it before it is taken down")
		} else if batchFile {
			e.note("the task runs from the directory sky launch runs in (workdir), which holds " + batchInput + "; copy " + batchOutput + " off the instance before it is taken down")
		}
		if s := e.shape(); e.req.Workload.Kind == plan.Serving && e.perProcess(k, s) {
			// SkyServe sends a replica's requests to the one port the
			// service names (service.ports, sky/utils/schemas.py
			// get_service_schema: an integer): the copies on the others
			// would get none, and the replica would serve at 1/copies of
			// the planned rate.
			return e.fail(ErrSkyServePorts, "SkyServe sends each replica's requests to one port, and this plan runs "+plural(s.copies, "engine copy")+
				" on each instance, one process and port each: emit "+k.String()+" and put a load balancer in front of the copies")
		}
		cmds, err := e.engineCommands(k)
		if err != nil {
			return err
		}
		if !amd {
			setup = e.serveSetup(k)
		} else {
			// pip's vllm wheel is the CUDA build: on AMD the task runs in
			// AMD's prebuilt ROCm vLLM image (ROCm docs, "vLLM inference
			// and serving on ROCm": the Docker image is the recommended
			// install). SGLang's ROCm builds are per-GPU image tags, not
			// one name to write here.
			if k != VLLM {
				return e.fail(ErrUnsupported, k.String()+" on AMD GPUs runs from its own ROCm image, which SkyPilot is not given here: emit vllm for "+o.GPU)
			}
			// No pip install there: serveSetup's pin, and its note that
			// the setup installs the latest release, are not this setup's.
			image, setup = "docker:rocm/vllm:latest", "vllm --version\n"
			if v := e.engineRelease(k); !v.IsZero() {
				e.note("the estimate models vLLM " + v.String() + "; rocm/vllm:latest is AMD's newest build, which may hold another vLLM release (vllm --version in the setup prints it): name the image tag of " + v.String() + " to run what was priced")
			}
		}
		run = cmds
		if nodes > 1 {
			run = env + run
		}
		if e.req.Workload.Kind == plan.Batch && e.row.Instances > nodes {
			nodes = e.row.Instances
			if !batchFile {
				e.note("the batch job runs on " + plural(nodes, "instance") + ": split the requests between them")
			}
		}
	}

	y := &yamlWriter{}
	y.comment(strings.TrimPrefix(strings.TrimSuffix(e.header(), "\n"), "# "))
	name := "rightsize"
	if e.model != "" {
		name += "-" + skyName(e.model)
	}
	y.str("name", name)
	if train || batchFile {
		// The directory sky launch runs from, with train.py or the
		// batch job's request file, synced to the instances.
		y.str("workdir", ".")
	}
	y.section("resources")
	y.str("cloud", cloud)
	spot := e.row.Pricing == plan.Spot
	if r := e.region(spot); r != "" && skyInstanceTypes[o.Provider] {
		y.str("region", r)
	}
	if accOK {
		y.str("accelerators", acc+":"+ftoa(o.GPUCount))
	}
	if itype != "" {
		y.str("instance_type", itype)
	}
	if image != "" {
		y.str("image_id", image)
	}
	y.boolean("use_spot", spot)
	y.end()
	y.num("num_nodes", nodes)
	if e.req.Workload.Kind == plan.Serving {
		// SkyServe: each replica is one copy of this task.
		y.section("service")
		y.str("readiness_probe", "/v1/models")
		y.num("replicas", max(e.row.Replicas, 1))
		y.num("ports", servePort)
		y.end()
		e.note("start it with sky serve up; " + plural(max(e.row.Replicas, 1), "replica") + " as planned")
	}
	y.block("setup", setup)
	y.block("run", run)
	switch {
	case spot && train:
		e.note("spot: launch with sky jobs launch so SkyPilot recovers from reclaims; the plan checkpoints every " + ftoa(math.Round(e.row.CheckpointIntervalSeconds/60)) + " min (Young/Daly)")
	case e.row.Pricing == plan.Reserved1y || e.row.Pricing == plan.Reserved3y:
		e.note("the plan is priced at a " + e.row.Pricing.String() + " reservation, which is bought from the provider, not through SkyPilot; the task runs on demand")
	}
	e.file("task.yaml", "yaml", y.String())
	return nil
}

// region is where the row's price was read: the catalog offer's spot
// region for a spot row (spot prices are quoted in their cheapest
// region), else its cheapest on-demand region.
func (e *emitter) region(spot bool) string {
	if co, ok := e.cat.Offer(e.row.Offer.ID); ok {
		if spot && co.SpotRegion != "" {
			return co.SpotRegion
		}
		if len(co.Regions) > 0 {
			return co.Regions[0]
		}
	}
	return e.row.Offer.Region
}

// skyCloudList is the supported provider IDs, sorted.
// SkyCloudList is the catalog providers SkyPilot launches on, comma-separated.
func SkyCloudList() string { return strings.Join(skyCloudList(), ", ") }

func skyCloudList() []string {
	out := make([]string, 0, len(skyClouds))
	for p := range skyClouds {
		out = append(out, p)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// skyName makes a task name from a model reference: lower case, letters,
// digits and dashes.
func skyName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// serveSetup installs a serving engine on a SkyPilot instance: vLLM and
// SGLang from pip (their "Installation" pages); TensorRT-LLM's wheel
// after the MPI library it imports at start-up (TensorRT-LLM docs,
// "Installing on Linux via pip", 0.19 to 1.3: "sudo apt-get -y install
// libopenmpi-dev" before "pip3 install tensorrt_llm", read 2026-11-29;
// without it trtllm-serve stops at import); a vLLM copy over several
// instances adds the Ray its run starts (rayPackage). The engine is pinned to the
// release the estimate models (engineRelease) where that release is known
// to be published (publishedReleases); otherwise pip takes the latest
// release, and a note names the one the estimate modelled.
func (e *emitter) serveSetup(k Kind) string {
	pkg := enginePackages[k]
	v := e.engineRelease(k)
	switch {
	case !v.IsZero() && slices.Contains(publishedReleases[k], v):
		pkg = pinned(pkg, v)
	case !v.IsZero() && !e.latestStarts(k):
		// The latest release does not start on this GPU (vLLM from 0.20.0
		// on a V100): the release the plan was made for is pinned, as
		// the only install that runs.
		pkg = pinned(pkg, v)
		e.note("the latest " + engineOf(k).Label() + " does not start on " + e.row.Offer.Hardware.Generation.String() +
			" GPUs: the setup pins the release planned (" + pinned(enginePackages[k], v) + ")")
	case !v.IsZero():
		e.note("the estimate models " + engineOf(k).Label() + " " + v.String() + "; the setup installs the latest release, which may differ: pin it (" +
			pinned(enginePackages[k], v) + ") where that release is published")
	}
	if k == TRTLLM {
		return "sudo apt-get update && sudo apt-get -y install libopenmpi-dev\npip install " + pkg + "\n"
	}
	if e.rayCluster(k, e.shape()) {
		pkg += " " + rayPackage // the run starts Ray, which vLLM does not install (rayPackage)
	}
	return "pip install " + pkg + "\n"
}

// cu126Torch is the setup line that installs PyTorch's CUDA 12.6 build on
// a GPU older than Turing (Pascal, Volta), "" elsewhere (e.train notes
// why): from release 2.11 PyTorch's CUDA 12.8 and
// 13.0 builds, which pip installs by default, start at Turing, and its
// CUDA 12.6 build keeps Maxwell, Pascal and Volta ("Dropping Volta support
// from CUDA-12.8 binaries for release 2.11", PyTorch developer forum,
// 2026-01-15), so a training task on a V100 or a P100 that lets pip choose
// gets "no kernel image is available for execution on the device".
func (e *emitter) cu126Torch() string {
	if !preTuring(e.row.Offer.Hardware.Generation) {
		return ""
	}
	return "pip install torch --index-url " + cu126TorchIndex + "\n"
}

// preTuring reports whether g is an NVIDIA generation older than Turing,
// which PyTorch's CUDA 12.8 and 13.0 builds leave out (cu126Torch).
func preTuring(g estimator.Generation) bool {
	return g == estimator.GenPascal || g == estimator.GenVolta
}

// cu126TorchIndex is PyTorch's package index of its CUDA 12.6 build, the
// one that keeps the generations before Turing (cu126Torch).
const cu126TorchIndex = "https://download.pytorch.org/whl/cu126"

// latestStarts reports whether the current release of k's engine starts
// on the row's GPU (estimator.SupportForJob at the current release).
func (e *emitter) latestStarts(k Kind) bool {
	in := e.supportInput()
	in.Engine, in.EngineVersion = engineOf(k), estimator.EngineVersion{}
	return estimator.SupportForJob(e.row.Offer.Hardware.Generation, in).Runs
}

// enginePackages are the serving engines' pip requirements.
var enginePackages = map[Kind]string{VLLM: "vllm", SGLang: "\"sglang[all]\"", TRTLLM: "tensorrt-llm"}

// pinned is a pip requirement pkg (a name, or a quoted name with extras)
// pinned to release v.
func pinned(pkg string, v estimator.EngineVersion) string {
	if t, ok := strings.CutSuffix(pkg, "\""); ok {
		return t + "==" + v.String() + "\""
	}
	return pkg + "==" + v.String()
}

// publishedReleases are the engine releases known to be published, which
// a setup pins. SGLang 0.5.12: LMSYS's v0.5.12 release (its release notes,
// summarised by AI Primer, "SGLang 0.5.12 adds DeepSeek V4 serving",
// read 2026-11-30), its lmsysorg/sglang:v0.5.12-cu130 images (SemiAnalysis
// InferenceX runs, estimator/testdata/calibration/inferencex), and
// projects pinning sglang==0.5.12 from PyPI (2026-06). Not pinned: vLLM
// 0.33.0 (the release of 2026-11, estimator.CurrentEngineVersion, but the
// launches' flags were read at a development commit, not at that tag, so
// a pin would promise flags unread at that release) and TensorRT-LLM 1.3.0
// (release candidates up to 1.3.0rc26 only; PyPI's newest tensorrt-llm is
// 1.2.1, 2026-04, so no such pin installs). testdata/README.md says what
// pinning either takes.
var publishedReleases = map[Kind][]estimator.EngineVersion{
	SGLang: {{Major: 0, Minor: 5, Patch: 12}},
}

// engineRelease is the release of k's engine that the estimate models:
// the input's --engine-version when the row runs the input's engine, else
// the engine's current release (estimator.CurrentEngineVersion); zero
// when the row's engine is not k's (a row priced on another engine).
func (e *emitter) engineRelease(k Kind) estimator.EngineVersion {
	if e.row.Engine != engineOf(k) {
		return estimator.EngineVersion{}
	}
	in := e.in
	if in.Engine != e.row.Engine {
		in.Engine, in.EngineVersion = e.row.Engine, estimator.EngineVersion{}
	}
	return estimator.EngineVersionOf(in)
}

// trainPackages are the pip packages the training task's Trainer script
// imports: transformers, accelerate and DeepSpeed (whose config the setup
// writes); PEFT for LoRA adapters (PEFT docs, "Installation": pip install
// peft); and bitsandbytes for QLoRA's 4-bit base weights (transformers
// docs, "bitsandbytes": pip install bitsandbytes, which BitsAndBytesConfig
// needs at load). Without them a LoRA or QLoRA task stops at its first
// import. A pure bf16 config at ZeRO 1–3 needs DeepSpeed 0.18.3 or later,
// the first release with bf16_master_weights_and_grads and
// bf16_optimizer_states (deepspeedai/DeepSpeed 39a682d79921, first in tag
// v0.18.3), quoted so the shell does not read ">" as a redirection.
func (e *emitter) trainPackages() string {
	ds := "deepspeed"
	if e.pure16() != "" && e.mixedPrecision() != "no" {
		ds = "'deepspeed>=0.18.3'"
	}
	pkgs := "transformers accelerate " + ds
	switch e.in.Task {
	case estimator.LoRA:
		pkgs += " peft"
	case estimator.QLoRA:
		pkgs += " peft bitsandbytes"
	}
	return pkgs
}
