package launch

// A GB200 NVL72 rack is one NVLink domain of 18 four-GPU trays, rented
// whole at CoreWeave (plan.Offer.RackGPUs, RentalUnit). The planner lays
// a serving copy or a disaggregated worker over up to 18 trays of it
// without a network (estimator/plan rackInstances): its tensor-parallel
// all-reduces, the experts' all-to-all and the KV handover run over the
// NVLink between trays. That NVLink carries them only where the launch
// asks for it, and the settings below say how.

// rackEnv is the line that makes NCCL use the NVLink between a rack's
// trays: NCCL_MNNVL_ENABLE=1, its multi-node NVLink transport, and
// NCCL_CUMEM_ENABLE=1, the cuMem allocations that transport maps across
// trays. SGLang's deployment guide sets both for GB200 and GB300
// multi-node launches (sgl-project/sglang#24977, "fix gb envs in
// deployment guide", 2026-05-11), and SGLang's engine sets them itself
// for --nnodes over 1 on a GB200 or GB300 only where they are unset,
// while it otherwise sets NCCL_CUMEM_ENABLE to 0 (python/sglang/srt/
// entrypoints/engine.py, _set_envs_and_config, at 001067fffe33, the
// commit testdata/sglang_flags.txt was read at; "cross-node NVLink needs
// NCCL's cuMem-based buffers and MNNVL transport"): older SGLang
// releases set 0 unconditionally. Exported, they reach every process the
// script starts, the Ray head and workers of a vLLM copy included (Ray
// starts its workers with the environment of ray start). NVIDIA's
// multi-node NVLink tuning guide gives NCCL 2.25.2 as the first release
// with GB200 MNNVL.
const rackEnv = "export NCCL_MNNVL_ENABLE=1 NCCL_CUMEM_ENABLE=1\n"

// inRack reports whether a copy or worker of nodes instances spans
// several trays of one NVLink rack: the row's offer joins its instances
// into a domain of RackGPUs GPUs and the copy's GPUs fit in it (the
// planner's rule, estimator/plan rackInstances).
func (e *emitter) inRack(nodes int) bool {
	o := e.row.Offer
	return nodes > 1 && o.RackGPUs > 0 && o.Interconnect == "nvlink" && nodes*e.gpusPerInstance() <= o.RackGPUs
}

// rackSetup is the environment line a script of a copy or worker of nodes
// instances starts with, and its note: "" where the copy does not span
// trays of a rack. The note says what the rack needs beside the
// environment: the trays must be the rack's, sharing its NVLink domain,
// and a process reaches another tray's GPU memory over NVLink only
// through an IMEX channel. On CoreWeave's Kubernetes that is a
// ComputeDomain, whose ResourceClaimTemplate the copy's pods claim, and
// pod affinity on the nvidia.com/gpu.clique label, the NVLink partition,
// so they land on trays of one rack (CoreWeave docs, "IMEX overview" and
// "IMEX with Dynamic Resource Allocation", docs.coreweave.com/products/
// cks/clusters/scheduling; NVIDIA's DRA Driver for GPUs, "ComputeDomains:
// Multi-Node NVLink simplified"); on Slurm (CoreWeave's SUNK), the
// topology/block plugin places a job's nodes in one rack's block
// (CoreWeave docs, "Topology and block scheduling in Slurm"). TensorRT-LLM's ranks start under mpirun,
// which passes a variable to the ranks on other instances only when told
// to (-x).
func (e *emitter) rackSetup(nodes int) string {
	if !e.inRack(nodes) {
		return ""
	}
	o := e.row.Offer
	pass := "the script exports NCCL_MNNVL_ENABLE=1 and NCCL_CUMEM_ENABLE=1, NCCL's multi-node NVLink and the cuMem memory it maps (NCCL 2.25.2 or later)"
	if e.k == TRTLLM {
		pass = "set NCCL_MNNVL_ENABLE=1 and NCCL_CUMEM_ENABLE=1 on every rank (mpirun -x NCCL_MNNVL_ENABLE -x NCCL_CUMEM_ENABLE), NCCL's multi-node NVLink and the cuMem memory it maps (NCCL 2.25.2 or later)"
	}
	unit := "copy"
	if e.disagg {
		unit = "worker"
	}
	e.note("each " + unit + "'s " + itoa(nodes) + " instances must be trays of one " + itoa(o.RackGPUs) + "-GPU NVLink rack, as planned: the traffic between them runs over the rack's NVLink only through an IMEX channel. " +
		"On CoreWeave's Kubernetes give the " + unit + "'s pods one ComputeDomain (resource.nvidia.com/v1beta1) and claim its IMEX channel in each pod (resourceClaims from its ResourceClaimTemplate), with pod affinity on topologyKey nvidia.com/gpu.clique so they land in one NVLink partition; on Slurm (SUNK) keep them in one block, the rack, of its topology/block scheduling; " + pass)
	return rackEnv
}
