"""Fine-tune memory by phase on one lent GPU: HF transformers + PEFT in
LitGPT's "bf16-true" setting (weights, gradients and AdamW states all in
bf16), plain and under FSDP2 (fully_shard per decoder layer, world size 1:
nothing is sharded, but the all-gather buffers, the unsharded layer in
flight and the wrappers' own tensors are allocated as on N GPUs).

Weights are randomly initialised from the public config.json files in
../../configs/ (memory and time do not depend on their values); the batch
is random token IDs at the full sequence length. Every job records the
allocator's peak per phase (forward, backward, optimizer step) of each of
three steps, plus the static allocation after the model, after the
optimizer's first step and nvidia-smi's view. Writes $OUT/ft.json after
every job; a job that fails records its error and frees the cache.

    python3 ft.py --dry-run        # the job list, no torch needed
    python3 ft.py --budget-s 130   # on the lent machine
"""
import argparse, json, os, platform, subprocess, sys, time, traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.normpath(os.path.join(HERE, "..", "..", "configs"))
GiB = 2**30

# (name, config file, method, micro-batch, seq, lora (r, targets) or None,
#  fsdp, activation checkpointing). The LoRA and full rows mirror
# LitGPT's config_hub/finetune recipes that ../public-2026-11/
# litgpt_finetune_benchmarks.json holds (seq 512, their micro-batches,
# r and target sets); the FSDP rows repeat a plain row under fully_shard
# to isolate what FSDP itself adds on one GPU.
QV = ["q_proj", "v_proj"]
ALL = "all+head"
JOBS = [
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 512, None, False, False),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 512, None, True, False),
    ("llama-3.2-1b", "llama-3.2-1b.json", "lora", 1, 512, (32, QV), False, False),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (32, QV), False, False),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (32, QV), True, False),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 2, 512, (32, QV), False, False),
    ("phi-3-mini", "phi-3-mini-4k-instruct.json", "lora", 4, 512, (8, ALL), False, False),
    ("phi-3-mini", "phi-3-mini-4k-instruct.json", "full", 4, 512, None, False, False),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, False, False),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, True, True),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 512, None, True, True),
    ("llama-2-7b", "llama-2-7b-hf.json", "lora", 2, 512, (32, QV), False, False),
]

# The second set (--set 2): the optimizer's implementation (torch's
# default foreach AdamW against fused=True), mixed precision as HF
# Trainer's bf16=True runs it (fp32 weights, gradients and AdamW states,
# bf16 autocast), adapter dropout 0 against 0.05, longer sequences with
# checkpointing, a large-vocabulary tied model and an 8B full fine-tune.
# The extra options ride in a trailing dict: opt ("foreach" | "fused"),
# mixed (bool), dropout (float).
ALLL = "all-linear"
JOBS2 = [
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, False, False, {"opt": "fused"}),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, False, False, {"mixed": True}),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, False, False, {"mixed": True, "opt": "fused"}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 2048, None, False, True, {}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 2048, None, False, True, {"opt": "fused"}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 2, 512, (32, QV), False, False, {"dropout": 0.0}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 2, 2048, (16, ALLL), False, True, {}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 2, 2048, (16, ALLL), True, True, {}),
    ("gemma-3-1b", "gemma-3-1b.json", "lora", 2, 512, (8, ALL), False, False, {}),
    ("gemma-3-1b", "gemma-3-1b.json", "full", 2, 512, None, False, False, {}),
    ("qwen2.5-7b", "qwen2.5-7b.json", "lora", 4, 1024, (8, ALLL), False, True, {}),
    ("phi-3-mini", "phi-3-mini-4k-instruct.json", "full", 4, 512, None, False, False, {"opt": "fused"}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, False, False, {}),
]


# The third set (--set 3): FSDP at world sizes 2–8 on one GPU through
# PyTorch's fake process group (torch.testing._internal.distributed.
# fake_pg: collectives return at once and write nothing, so a rank's
# buffers, shards, gathers in flight and reduce-scatter outputs are
# allocated as on W GPUs while the values are not the model's). The
# trailing dict's "world" is W and "fsdp" 1 (FullyShardedDataParallel, one
# unit per decoder layer and the root, limit_all_gathers, use_orig_params,
# as Lightning's FSDPStrategy wraps LitGPT's Block) or 2 (fully_shard per
# decoder layer and the root). Full fine-tunes in bf16-true unless
# "mixed"; the rows mirror LitGPT's FSDP recipes (micro-batch 1–4,
# sequence 512–2,048) at 2, 4 and 8 GPUs.
JOBS3 = [
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, True, False, {"world": 4, "fsdp": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, True, False, {"world": 4, "fsdp": 1}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, True, False, {"world": 8, "fsdp": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 2048, None, True, True, {"world": 4, "fsdp": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (32, QV), True, False, {"world": 4, "fsdp": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (32, QV), True, False, {"world": 4, "fsdp": 1}),
    ("llama-2-7b", "llama-2-7b-hf.json", "full", 1, 512, None, True, False, {"world": 4, "fsdp": 1}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 4, 512, None, True, False, {"world": 2, "fsdp": 2}),
    ("qwen2.5-7b", "qwen2.5-7b.json", "full", 1, 1024, None, True, True, {"world": 8, "fsdp": 2, "mixed": True}),
    ("phi-3-mini", "phi-3-mini-4k-instruct.json", "full", 4, 512, None, True, False, {"world": 4, "fsdp": 1}),
]


# The fourth set (--set 4): accumulation over 2 micro-batches without the
# gradient sync between them (LitGPT's global batch over micro-batches,
# Lightning's no_backward_sync), mixed precision with the fp32 gather and
# bf16-true, FSDP1 and FSDP2, at 4 and 8 ranks.
JOBS4 = [
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 2, 512, None, True, False, {"world": 4, "fsdp": 1, "mixed": True, "accum": 2}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 2, 512, None, True, False, {"world": 4, "fsdp": 2, "mixed": True, "accum": 2}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "full", 2, 512, None, True, False, {"world": 4, "fsdp": 1, "accum": 2}),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, True, True, {"world": 8, "fsdp": 1, "mixed": True, "accum": 2}),
    ("qwen2.5-3b", "qwen2.5-3b.json", "full", 1, 512, None, True, True, {"world": 8, "fsdp": 1, "accum": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, True, True, {"world": 8, "fsdp": 1, "mixed": True, "accum": 2}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "full", 1, 512, None, True, False, {"world": 8, "fsdp": 2, "mixed": True}),
]


# The fifth set (--set 5): LoRA under FSDP in bf16-true with the adapters
# in bf16 (LitGPT's setting: FSDP1 per Block with its adapters inside,
# use_orig_params), accumulating 2 micro-batches without the gradient
# sync as LitGPT's global batch makes it, at 2 and 4 ranks; and the same
# under FSDP2.
JOBS5 = [
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (8, QV), True, False, {"world": 4, "fsdp": 1, "accum": 2, "adapter16": True, "dropout": 0.05}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 1, 512, (8, QV), True, False, {"world": 4, "fsdp": 2, "accum": 2, "adapter16": True, "dropout": 0.05}),
    ("llama-3.1-8b", "llama-3.1-8b.json", "lora", 2, 512, (8, QV), True, True, {"world": 2, "fsdp": 1, "accum": 2, "adapter16": True, "dropout": 0.05}),
    ("llama-2-7b", "llama-2-7b-hf.json", "lora", 2, 512, (8, QV), True, False, {"world": 4, "fsdp": 1, "accum": 2, "adapter16": True, "dropout": 0.05}),
    ("qwen2.5-7b", "qwen2.5-7b.json", "lora", 1, 1024, (16, ALLL), True, True, {"world": 4, "fsdp": 1, "accum": 2, "adapter16": True, "dropout": 0.05}),
    ("llama-3.2-1b", "llama-3.2-1b.json", "lora", 4, 512, (8, QV), True, False, {"world": 2, "fsdp": 1, "accum": 2, "adapter16": True, "dropout": 0.05}),
]


def smi_used_mib():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                           capture_output=True, text=True, timeout=10)
        return float(r.stdout.strip().split("\n")[0])
    except Exception:
        return None


def lora_targets(m, spec):
    import torch
    if spec == ALLL:
        return "all-linear"
    if spec != ALL:
        return spec
    names = set()
    for n, mod in m.named_modules():
        if isinstance(mod, torch.nn.Linear):
            names.add(n.split(".")[-1])
    return sorted(names)


def run_job(job, out):
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    name, cfgfile, method, batch, seq, lora, fsdp, ckpt = job[:8]
    extra = job[8] if len(job) > 8 else {}
    torch.cuda.reset_peak_memory_stats()
    opt_impl, mixed, dropout = extra.get("opt", "foreach"), extra.get("mixed", False), extra.get("dropout", 0.05)
    wdtype = torch.float32 if mixed else torch.bfloat16
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    cfg = AutoConfig.from_pretrained(os.path.join(CONFIGS, cfgfile))
    with torch.device("cuda"):
        try:
            m = AutoModelForCausalLM.from_config(cfg, dtype=wdtype, attn_implementation="sdpa")
        except TypeError:
            m = AutoModelForCausalLM.from_config(cfg, torch_dtype=wdtype, attn_implementation="sdpa")
    torch.cuda.synchronize()
    weights = torch.cuda.memory_allocated()
    rec = {"model": name, "config": cfgfile, "method": method, "micro_batch": batch, "seq": seq,
           "precision": ("mixed (fp32 weights, gradients and AdamW states; bf16 autocast)" if mixed
                         else "bf16-true (bf16 weights, gradients and AdamW states)"), "optimizer": "torch.optim.AdamW " + opt_impl, "fsdp2_world1": fsdp,
           "activation_checkpointing": ckpt, "params": sum(p.numel() for p in m.parameters()),
           "tied_embeddings": bool(getattr(cfg, "tie_word_embeddings", False)), "vocab": cfg.vocab_size,
           "weights_allocated_bytes": weights}
    if lora:
        from peft import LoraConfig, get_peft_model
        targets = lora_targets(m, lora[1])
        # "adapter16": adapters in the base's 16-bit dtype, as LitGPT and
        # torchtune keep them (PEFT's autocast_adapter_dtype=False).
        m = get_peft_model(m, LoraConfig(r=lora[0], lora_alpha=16, lora_dropout=dropout, target_modules=targets),
                           autocast_adapter_dtype=not extra.get("adapter16", False))
        rec["lora"] = {"r": lora[0], "alpha": 16, "dropout": dropout, "targets": targets,
                       "adapter_dtype": "bf16" if extra.get("adapter16", False) else "fp32"}
    if ckpt:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if lora:
            m.enable_input_require_grads()
    world, fsdp_kind = extra.get("world", 1), extra.get("fsdp", 2)
    rec["fsdp_world"] = world if fsdp else 0
    rec["fsdp_kind"] = ("FSDP2 fully_shard" if fsdp_kind == 2 else "FSDP1 FullyShardedDataParallel") if fsdp else ""
    if fsdp and world > 1:
        import torch.distributed as dist
        from torch.testing._internal.distributed.fake_pg import FakeStore
        if dist.is_initialized():
            dist.destroy_process_group()
        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    if fsdp:
        layers = None
        for n, mod in m.named_modules():
            if n.endswith(".layers") and isinstance(mod, torch.nn.ModuleList):
                layers = mod
                break
        if fsdp_kind == 1:
            import functools
            from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
            from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
            policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={type(layers[0])})
            m = FSDP(m, auto_wrap_policy=policy, device_id=torch.cuda.current_device(), limit_all_gathers=True,
                     use_orig_params=True, sync_module_states=False)
        else:
            from torch.distributed.fsdp import fully_shard
            for layer in layers:
                fully_shard(layer)
            fully_shard(m)
        torch.cuda.synchronize()
        rec["after_shard_allocated_bytes"] = torch.cuda.memory_allocated()
    m.train()
    params = [p for p in m.parameters() if p.requires_grad]
    rec["trainable_params"] = sum(p.numel() for p in params)
    if opt_impl == "fused":
        opt = torch.optim.AdamW(params, lr=2e-4, weight_decay=0.0, betas=(0.9, 0.95), fused=True)
    else:
        opt = torch.optim.AdamW(params, lr=2e-4, weight_decay=0.0, betas=(0.9, 0.95))
    rec["static_before_first_step_bytes"] = torch.cuda.memory_allocated()
    steps = []
    for i in range(3):
        ids = torch.randint(100, min(cfg.vocab_size, 30000) - 1, (batch, seq), device="cuda")
        torch.cuda.synchronize()
        s = {}
        t0 = time.time()
        torch.cuda.reset_peak_memory_stats()
        # Accumulation (set 4's "accum": n): the first n − 1 micro-batches
        # run forward and backward without the gradient sync (FSDP1's
        # no_sync, as Lightning's no_backward_sync wraps them; FSDP2's
        # set_requires_gradient_sync(False)), so each rank accumulates
        # the whole model's unsharded gradients; the last one syncs.
        acc = extra.get("accum", 1)
        early = []
        for k in range(acc - 1):
            if hasattr(m, "no_sync"):
                ctx = m.no_sync()
            else:
                m.set_requires_gradient_sync(False)
                import contextlib
                ctx = contextlib.nullcontext()
            with ctx:
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=mixed):
                    l0 = m(input_ids=ids, labels=ids).loss
                torch.cuda.synchronize()
                early.append({"forward_peak_bytes": torch.cuda.max_memory_allocated()})
                torch.cuda.reset_peak_memory_stats()
                l0.backward()
                torch.cuda.synchronize()
                early[-1]["backward_peak_bytes"] = torch.cuda.max_memory_allocated()
                early[-1]["after_backward_bytes"] = torch.cuda.memory_allocated()
                torch.cuda.reset_peak_memory_stats()
            del l0
            if not hasattr(m, "no_sync"):
                m.set_requires_gradient_sync(True)
        if early:
            s["accumulating_micro_batches"] = early
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=mixed):
            loss = m(input_ids=ids, labels=ids).loss
        torch.cuda.synchronize()
        s["forward_peak_bytes"] = torch.cuda.max_memory_allocated()
        s["after_forward_bytes"] = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        torch.cuda.synchronize()
        s["backward_peak_bytes"] = torch.cuda.max_memory_allocated()
        s["after_backward_bytes"] = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        s["optimizer_peak_bytes"] = torch.cuda.max_memory_allocated()
        s["after_step_bytes"] = torch.cuda.memory_allocated()
        s["seconds"] = time.time() - t0
        s["reserved_bytes"] = torch.cuda.max_memory_reserved()
        steps.append(s)
        del loss
    rec["steps"] = steps
    rec["peak_allocated_bytes"] = max(max([s["forward_peak_bytes"], s["backward_peak_bytes"], s["optimizer_peak_bytes"]] +
                                          [max(e["forward_peak_bytes"], e["backward_peak_bytes"]) for e in s.get("accumulating_micro_batches", [])])
                                      for s in steps)
    rec["accumulation"] = extra.get("accum", 1)
    rec["peak_allocated_gib"] = rec["peak_allocated_bytes"] / GiB
    rec["peak_allocated_gb"] = rec["peak_allocated_bytes"] / 1e9
    rec["peak_reserved_bytes"] = torch.cuda.max_memory_reserved()
    rec["nvidia_smi_used_mib"] = smi_used_mib()
    rec["tokens_per_second"] = batch * seq / min(s["seconds"] for s in steps[1:])
    del m, opt, params
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--budget-s", type=float, default=130)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--set", type=int, default=1, choices=(1, 2, 3, 4, 5))
    a = ap.parse_args()
    jobs = {1: JOBS, 2: JOBS2, 3: JOBS3, 4: JOBS4, 5: JOBS5}[a.set]
    if a.dry_run:
        for j in jobs:
            assert os.path.exists(os.path.join(CONFIGS, j[1])), j[1]
            print(j)
        print(len(jobs), "jobs")
        return
    import torch, transformers
    start = time.time()
    out = {"env": {"torch": torch.__version__, "cuda": torch.version.cuda, "transformers": transformers.__version__,
                   "python": platform.python_version(), "gpu": torch.cuda.get_device_name(0),
                   "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, "runs": []}
    try:
        import peft
        out["env"]["peft"] = peft.__version__
    except Exception as e:
        out["env"]["peft"] = repr(e)
    path = os.path.join(a.out, {1: "ft.json", 2: "ft2.json", 3: "ft3.json", 4: "ft4.json", 5: "ft5.json"}[a.set])
    need_pg = any(j[6] for j in jobs) and a.set < 3
    if need_pg:
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29517")
        try:
            dist.init_process_group("nccl", rank=0, world_size=1)
        except Exception as e:
            out["env"]["process_group_error"] = repr(e)[:300]
    for j in jobs:
        if time.time() - start > a.budget_s:
            out["runs"].append({"job": list(map(str, j)), "skipped": "budget"})
            continue
        t = time.time()
        try:
            rec = run_job(j, out)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            rec = {"job": list(map(str, j)), "error": traceback.format_exc()[-1500:]}
        rec["job_seconds"] = time.time() - t
        out["runs"].append(rec)
        print(json.dumps({k: v for k, v in rec.items() if k != "steps"}), flush=True)
        import gc
        gc.collect()
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("done in %.0f s" % (time.time() - start))


if __name__ == "__main__":
    main()
