#!/usr/bin/env python3
"""Kernel-level timings on one lent GPU for Rightsize's open accuracy questions.

One script, standard library plus torch (flash_attn, flash_attn_interface and
transformer_engine are used when present, and their absence is recorded). Four
sections, in order of value (README.md beside this file names the calibration
rounds each one answers):

  1. decode  BF16 linears at M = 1..1024 tokens (Llama-3.1-8B, Qwen3-14B,
             Llama-3.1-70B at TP 8), decode attention at batch 64..1024 x
             context 512..8192, an HBM copy, a large BF16 GEMM, and the clocks
             under a sustained GEMM load.
  2. train   causal attention forward and forward+backward, head dim 128, BF16,
             sequence 2k..32k: PyTorch SDPA's default and each of its backends,
             FlashAttention-2/-3 and Transformer Engine when installed.
  3. fp8     torch._scaled_mm (per-tensor, row-wise, DeepSeek-style block
             scaling) against BF16 at training and decode shapes, and at the
             dense shapes of DeepGEMM's published H800 table.
  4. moe     grouped expert GEMMs by tokens per expert (DeepSeek-V3, Qwen3-235B
             at EP 8, Qwen3-30B-A3B): batched matmul, torch._grouped_mm, FP8
             torch._scaled_grouped_mm, and a loop of per-expert linears.

Every point is timed with CUDA events around one call, after a 256 MiB write
that flushes the L2 cache (as triton.testing.do_bench does), warm-up first,
the median of N calls reported. Results are written after every point to
$OUT/kernels.json (or --out DIR). The script stops starting new points at
--budget-s seconds (each section also has its own share, so a slow section
cannot starve the later ones of all their time).

  python3 kernels.py --dry-run            # the plan and a time estimate, no torch
  python3 kernels.py                      # the run (needs torch and a CUDA GPU)
  python3 kernels.py --summarize FILE     # print the summary of a results file, no torch
"""

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

SCHEMA = "rightsize-device-kernels/1"

# ---------------------------------------------------------------------------
# Shapes. Model figures from the public config.json files in
# estimator/testdata/configs/ (llama-3.1-8b, llama-3.1-70b, deepseek-v3,
# qwen3-30b-a3b) and the catalog's copies of Qwen/Qwen3-14B and
# Qwen/Qwen3-235B-A22B config.json (catalog/data/models.json).
# ---------------------------------------------------------------------------

DENSE = {
    # name: hidden, intermediate, attention heads, KV heads, head dim, tensor parallel
    "llama-3.1-8b": dict(hidden=4096, inter=14336, heads=32, kv=8, hd=128, tp=1),
    "qwen3-14b": dict(hidden=5120, inter=17408, heads=40, kv=8, hd=128, tp=1),
    "llama-3.1-70b-tp8": dict(hidden=8192, inter=28672, heads=64, kv=8, hd=128, tp=8),
}

MOE = {
    # name: hidden, expert intermediate, experts on one GPU (experts / EP)
    "deepseek-v3-ep8": dict(hidden=7168, inter=2048, experts=256 // 8),
    "qwen3-235b-a22b-ep8": dict(hidden=4096, inter=1536, experts=128 // 8),
    "qwen3-30b-a3b-ep1": dict(hidden=2048, inter=768, experts=128),
}

# Section 1: tokens in one decode step's linears (1 and 16 are the
# bandwidth-bound baseline; 64..1024 the large-batch question).
DECODE_M = [1, 16, 64, 128, 256, 512, 1024]
# Decode attention: batch x context, at most DECODE_MAX_TOKENS cached tokens a
# layer (8 GiB of BF16 K and V for 8 KV heads of 128; a server's whole KV pool
# holds fewer tokens than that across all its layers).
DECODE_BATCH = [64, 128, 256, 512, 1024]
DECODE_CONTEXT = [512, 2048, 8192]
DECODE_MAX_TOKENS = 1 << 21
DECODE_ATTN_MODELS = ["qwen3-14b", "llama-3.1-70b-tp8"]
SUSTAIN_S = 10.0
REF_GEMM = 8192          # the BF16 reference and sustained-load GEMM is REF_GEMM^3
REF_COPY_BYTES = 2**30   # HBM copy: this many bytes read and as many written

# Section 2: the FlashAttention-3 paper's setting (Shah et al. 2024,
# arXiv:2407.08608, section 4.1: head dim 128, hidden 2048 = 16 heads, 16k
# tokens a batch, causal), extended to 32k (batch 1), and Llama-3.1-8B's GQA
# attention at 8k (the fortieth round's kernel check).
TRAIN_SEQ = [2048, 4096, 8192, 16384, 32768]
TRAIN_TOKENS = 16384
TRAIN_HEADS = 16
TRAIN_GQA = (1, 8192, 32, 8, "llama-3.1-8b")  # batch, seq, heads, KV heads
TRAIN_FP8_MAX_SEQ = 8192                       # FA3's FP8 forward up to this length

# Section 3: a training micro-batch (8192 tokens) and decode steps.
FP8_TRAIN_M = 8192
FP8_TRAIN_MODELS = ["llama-3.1-8b", "llama-3.1-70b-tp8"]
FP8_DECODE_MODEL = "qwen3-14b"
FP8_DECODE_M = [64, 256, 1024]
# Dense (m, n, k) of DeepGEMM's README "Normal GEMMs for dense models" table
# (github.com/deepseek-ai/DeepGEMM a6d97a1c, H800; our copy:
# ../kernels/deepgemm_h800_fp8.csv), timed here with PyTorch's own kernels.
DEEPGEMM_NK = [(2112, 7168), (24576, 1536), (32768, 512), (7168, 16384), (4096, 7168), (7168, 2048)]
DEEPGEMM_M = [64, 128, 4096]
# Grouped rows of the same table: (groups, m per group, n, k).
DEEPGEMM_GROUPED = [
    (4, 8192, 4096, 7168), (4, 8192, 7168, 2048), (8, 4096, 4096, 7168), (8, 4096, 7168, 2048),
    (1, 1024, 4096, 7168), (1, 1024, 7168, 2048), (2, 512, 4096, 7168), (2, 512, 7168, 2048),
    (4, 256, 4096, 7168), (4, 256, 7168, 2048),
]

# Section 4: tokens routed to each expert.
MOE_M = [1, 8, 32, 128, 512, 2048]

SECTIONS = ["decode", "train", "fp8", "moe"]
# Cumulative share of the budget by which each section must stop starting
# points; time a section leaves unused passes to the next.
SECTION_DEADLINE_SHARE = {"decode": 0.45, "train": 0.70, "fp8": 0.85, "moe": 1.0}

# For the dry run's time estimate only: H100 SXM datasheet figures (989 dense
# BF16 TFLOP/s, 1,979 FP8, 3.35 TB/s), at the shares a good kernel reaches.
EST_BF16 = 989e12 * 0.6
EST_FP8 = 1979e12 * 0.5
EST_BW = 3.35e12 * 0.8
EST_POINT_OVERHEAD_S = 0.08   # allocation, launch, sync and the JSON write of one point
EST_FLUSH_S = 256 * 2**20 / EST_BW + 10e-6

WARMUP = 3
MIN_REPS, MAX_REPS, TARGET_S = 5, 30, 0.15
L2_FLUSH_BYTES = 256 * 2**20


def linears(m):
    """The four linears of one transformer layer on one GPU: (name, K, N)."""
    c = DENSE[m]
    tp, hd = c["tp"], c["hd"]
    q = c["heads"] // tp
    kv = max(1, c["kv"] // tp)
    return [
        ("qkv", c["hidden"], (q + 2 * kv) * hd),
        ("o", q * hd, c["hidden"]),
        ("gate_up", c["hidden"], 2 * c["inter"] // tp),
        ("down", c["inter"] // tp, c["hidden"]),
    ]


def gemm_flops(m, n, k):
    return 2.0 * m * n * k


def gemm_bytes(m, n, k, in_bytes, out_bytes=2):
    return m * k * in_bytes + k * n * in_bytes + m * n * out_bytes


def attn_train_flops(batch, seq, heads, hd, causal=True):
    """Forward FLOPs as the FlashAttention-3 paper counts them: 4 * seqlen^2 *
    head dim * heads * batch, halved for causal; the backward is 2.5x that."""
    f = 4.0 * seq * seq * hd * heads * batch
    return f / 2 if causal else f


def decode_attn_flops(batch, ctx, heads, hd):
    return 4.0 * batch * heads * ctx * hd


def decode_attn_bytes(batch, ctx, kv, heads, hd):
    """K and V read once, plus the query and output (BF16)."""
    return batch * ctx * kv * hd * 2 * 2 + 2 * batch * heads * hd * 2


# ---------------------------------------------------------------------------
# The plan: every point the run would time, for the dry run's count and
# estimate (the run builds its points from the same lists).
# ---------------------------------------------------------------------------

def decode_attn_grid():
    return [(b, l) for b in DECODE_BATCH for l in DECODE_CONTEXT if b * l <= DECODE_MAX_TOKENS]


def est_time(flops, nbytes, peak):
    return max(flops / peak, nbytes / EST_BW) + 5e-6


def est_point(t):
    reps = min(MAX_REPS, max(MIN_REPS, int(TARGET_S / max(t, 1e-6))))
    return EST_POINT_OVERHEAD_S + (WARMUP + 1 + reps) * (t + EST_FLUSH_S)


def plan():
    """(section, description, number of points, estimated seconds)."""
    rows = []
    # 1. decode
    n, s = 0, 0.0
    for m in DENSE:
        for (_, k, nn) in linears(m):
            for tok in DECODE_M:
                n += 1
                s += est_point(est_time(gemm_flops(tok, nn, k), gemm_bytes(tok, nn, k, 2), EST_BF16))
    rows.append(("decode", "BF16 linears: %d models x 4 linears x M %s" % (len(DENSE), DECODE_M), n, s))
    grid = decode_attn_grid()
    backends = ["sdpa-default", "sdpa-flash", "sdpa-cudnn", "sdpa-efficient", "sdpa-default-gqa", "flash_attn-kvcache"]
    n, s = 0, 0.0
    for m in DECODE_ATTN_MODELS:
        c = DENSE[m]
        q, kv = c["heads"] // c["tp"], max(1, c["kv"] // c["tp"])
        for (b, l) in grid:
            for _ in backends:
                n += 1
                s += est_point(est_time(decode_attn_flops(b, l, q, c["hd"]), decode_attn_bytes(b, l, kv, q, c["hd"]), EST_BF16))
            s += 0.2  # allocating and filling the KV
    rows.append(("decode", "decode attention: %s x batch x context %s (<= %d tokens) x %d backends (absent ones fail fast)"
                 % (DECODE_ATTN_MODELS, grid, DECODE_MAX_TOKENS, len(backends)), n, s))
    rows.append(("decode", "references: HBM copy (%d MiB read and written), HBM read %d MiB, BF16 GEMM %d^3, default SDPA kernel names"
                 % (REF_COPY_BYTES >> 20, REF_COPY_BYTES >> 19, REF_GEMM), 4,
                 2 * est_point(2 * REF_COPY_BYTES / EST_BW) + est_point(2.0 * REF_GEMM ** 3 / EST_BF16) + 2.0))
    rows.append(("decode", "sustained BF16 GEMM %.0f s with nvidia-smi clocks sampled" % SUSTAIN_S, 1, SUSTAIN_S + 2.0))
    # 2. train
    backends = ["sdpa-default", "sdpa-flash", "sdpa-cudnn", "sdpa-efficient", "flash_attn", "flash_attn_interface(FA3)", "transformer_engine"]
    n, s = 0, 0.0
    shapes = [(max(1, TRAIN_TOKENS // L), L, TRAIN_HEADS, TRAIN_HEADS) for L in TRAIN_SEQ] + [TRAIN_GQA[:4]]
    for (b, L, h, _) in shapes:
        f = attn_train_flops(b, L, h, 128)
        for _ in backends:
            n += 2
            s += est_point(est_time(f, 0, EST_BF16 * 0.6)) + est_point(est_time(3.5 * f, 0, EST_BF16 * 0.5))
    for L in [L for L in TRAIN_SEQ if L <= TRAIN_FP8_MAX_SEQ]:
        n += 1
        s += est_point(est_time(attn_train_flops(max(1, TRAIN_TOKENS // L), L, TRAIN_HEADS, 128), 0, EST_FP8 * 0.6))
    rows.append(("train", "causal attention fwd and fwd+bwd, hd 128, (batch, seq, heads, kv heads) %s x %d backends; FA3 FP8 fwd up to seq %d"
                 % (shapes, len(backends), TRAIN_FP8_MAX_SEQ), n, s))
    # 3. fp8
    shapes = []
    for m in FP8_TRAIN_MODELS:
        shapes += [(FP8_TRAIN_M, nn, k) for (_, k, nn) in linears(m)]
    for tok in FP8_DECODE_M:
        shapes += [(tok, nn, k) for (_, k, nn) in linears(FP8_DECODE_MODEL)]
    shapes += [(mm, nn, k) for mm in DEEPGEMM_M for (nn, k) in DEEPGEMM_NK]
    variants = ["bf16", "fp8-tensorwise", "fp8-rowwise", "fp8-block1x128x128"]
    n, s = 0, 0.0
    for (mm, nn, k) in shapes:
        for v in variants:
            n += 1
            peak = EST_BF16 if v == "bf16" else EST_FP8
            s += est_point(est_time(gemm_flops(mm, nn, k), gemm_bytes(mm, nn, k, 2 if v == "bf16" else 1), peak))
    n_cast = 4 * len(FP8_TRAIN_MODELS)
    s += n_cast * est_point(FP8_TRAIN_M * 8192 * 13 / EST_BW)
    rows.append(("fp8", "%d (M, N, K) shapes (training M %d, Qwen3-14B decode M %s, DeepGEMM dense) x %s, + %d activation casts"
                 % (len(shapes), FP8_TRAIN_M, FP8_DECODE_M, variants, n_cast), n + n_cast, s))
    # 4. moe
    variants = ["bmm", "grouped_mm", "scaled_grouped_mm-fp8-rowwise", "loop-linear"]
    n, s = 0, 0.0
    for m, c in MOE.items():
        for (k, nn) in [(c["hidden"], 2 * c["inter"]), (c["inter"], c["hidden"])]:
            for tok in MOE_M:
                g = c["experts"]
                for v in variants:
                    n += 1
                    t = est_time(gemm_flops(g * tok, nn, k), g * gemm_bytes(tok, nn, k, 1 if "fp8" in v else 2),
                                 EST_FP8 if "fp8" in v else EST_BF16)
                    if v == "loop-linear":
                        t = max(t, g * 8e-6)
                    s += est_point(t)
    for (g, tok, nn, k) in DEEPGEMM_GROUPED:
        for v in variants[:3]:
            n += 1
            s += est_point(est_time(gemm_flops(g * tok, nn, k), g * gemm_bytes(tok, nn, k, 2), EST_BF16))
    rows.append(("moe", "experts %s x (gate_up, down) x tokens per expert %s x %s; DeepGEMM grouped rows x 3"
                 % (list(MOE), MOE_M, variants), n, s))
    return rows


def dry_run(budget_s):
    print("Rightsize device kernels: the plan (no torch needed for this)")
    print("timing: warm-up %d, then N = clamp(%.2f s / first call, %d, %d) calls, each after a %d MiB L2 flush; median reported"
          % (WARMUP, TARGET_S, MIN_REPS, MAX_REPS, L2_FLUSH_BYTES >> 20))
    print("estimate per point = %.2f s overhead + (warm-up + 1 + N) x (kernel + flush); kernel = max(FLOPs / peak, bytes / bandwidth)"
          % EST_POINT_OVERHEAD_S)
    print("  with H100 SXM figures at good-kernel shares: BF16 %.0f, FP8 %.0f TFLOP/s, %.2f TB/s"
          % (EST_BF16 / 1e12, EST_FP8 / 1e12, EST_BW / 1e12))
    total_n, total_s = 0, 0.0
    for (sec, desc, n, s) in plan():
        total_n += n
        total_s += s
        print("- [%s] %s: %d points, ~%.0f s" % (sec, desc, n, s))
    print("sections stop starting points at these shares of --budget-s %d: %s"
          % (budget_s, ", ".join("%s %.0f s" % (k, v * budget_s) for k, v in SECTION_DEADLINE_SHARE.items())))
    print("total: %d points, ~%.0f s estimated (+ ~20 s for CUDA start-up and cuDNN/cuBLAS first calls), budget %d s"
          % (total_n, total_s, budget_s))
    return total_n, total_s


# ---------------------------------------------------------------------------
# Results file
# ---------------------------------------------------------------------------

class Results:
    def __init__(self, path, budget_s):
        self.path = path
        self.t0 = time.time()
        self.doc = {
            "schema": SCHEMA,
            "script": "estimator/testdata/calibration/device-kernels/kernels.py",
            "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "budget_s": budget_s,
            "timing": {"warmup": WARMUP, "min_reps": MIN_REPS, "max_reps": MAX_REPS, "target_s": TARGET_S,
                       "l2_flush_bytes": L2_FLUSH_BYTES, "statistic": "median of CUDA-event times of single calls"},
            "env": {},
            "sections": {},
            "points": [],
            "sustained": None,
        }

    def elapsed(self):
        return time.time() - self.t0

    def save(self):
        self.doc["elapsed_s"] = round(self.elapsed(), 2)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.doc, f, indent=1, allow_nan=False, default=str)
        os.replace(tmp, self.path)

    def add(self, p):
        self.doc["points"].append(p)
        self.save()


def finite(x):
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def point(section, op, model, shape, dtype, backend, seconds=None, flops=None, nbytes=None, **extra):
    p = {"section": section, "op": op, "model": model, "shape": shape, "dtype": dtype, "backend": backend}
    if seconds is not None:
        p["seconds"] = seconds
        if finite(flops) and flops > 0 and seconds > 0:
            p["flops"] = flops
            p["tflops"] = flops / seconds / 1e12
        if finite(nbytes) and nbytes > 0 and seconds > 0:
            p["bytes"] = nbytes
            p["gb_per_s"] = nbytes / seconds / 1e9
    p.update(extra)
    return p


# ---------------------------------------------------------------------------
# Environment
# ---------------------------------------------------------------------------

def sh(args, timeout=20):
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return (r.stdout or r.stderr).strip()
    except Exception as e:  # nvidia-smi absent, or it hangs
        return "unavailable: %r" % (e,)


SMI_FIELDS = "name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,power.limit,temperature.gpu,pstate"
_reason_field = []


def smi_reason_field():
    """The throttle-reasons field this driver knows (newer drivers call them
    clock event reasons); an unknown field would fail the whole query."""
    if not _reason_field:
        found = ""
        for f in ["clocks_event_reasons.active", "clocks_throttle_reasons.active"]:
            try:
                r = subprocess.run(["nvidia-smi", "--query-gpu=" + f, "--format=csv,noheader"],
                                   capture_output=True, text=True, timeout=20)
            except Exception:
                break
            if r.returncode == 0 and "not a valid" not in (r.stdout + r.stderr).lower():
                found = "," + f
                break
        _reason_field.append(found)
    return _reason_field[0]


def smi_query():
    fields = SMI_FIELDS + smi_reason_field()
    out = sh(["nvidia-smi", "--query-gpu=" + fields, "--format=csv,noheader"])
    return {"fields": fields, "values": out}


def optional_module(name):
    try:
        mod = __import__(name)
        return mod, getattr(mod, "__version__", "present (no __version__)")
    except Exception as e:
        return None, "absent: %s" % (type(e).__name__,)


def environment(torch):
    env = {"python": platform.python_version(), "platform": platform.platform(), "torch": torch.__version__,
           "cuda": torch.version.cuda, "cuda_available": torch.cuda.is_available()}
    try:
        env["cudnn"] = torch.backends.cudnn.version()
    except Exception as e:
        env["cudnn"] = repr(e)
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        env.update({"device": p.name, "capability": "%d.%d" % (p.major, p.minor), "sms": p.multi_processor_count,
                    "memory_bytes": p.total_memory})
    env["nvidia_smi"] = smi_query()
    env["nvidia_smi_clocks"] = sh(["nvidia-smi", "-q", "-d", "CLOCK"])[:4000]
    for name in ["flash_attn", "flash_attn_interface", "transformer_engine", "triton", "deep_gemm"]:
        env[name] = optional_module(name)[1]
    try:
        env["sdpa_enabled"] = {
            "flash": torch.backends.cuda.flash_sdp_enabled(),
            "mem_efficient": torch.backends.cuda.mem_efficient_sdp_enabled(),
            "math": torch.backends.cuda.math_sdp_enabled(),
            "cudnn": torch.backends.cuda.cudnn_sdp_enabled(),
        }
    except Exception as e:
        env["sdpa_enabled"] = repr(e)
    env["has"] = {k: hasattr(torch, k) for k in ["_scaled_mm", "_grouped_mm", "_scaled_grouped_mm"]}
    try:
        import torch.nn.functional as F
        env["has"]["nn.functional.scaled_mm"] = hasattr(F, "scaled_mm")
        env["has"]["nn.functional.scaled_grouped_mm"] = hasattr(F, "scaled_grouped_mm")
    except Exception:
        pass
    return env


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

class Timer:
    def __init__(self, torch):
        self.torch = torch
        self.flush_buf = torch.empty(L2_FLUSH_BYTES, dtype=torch.int8, device="cuda")

    def time(self, fn):
        """Median, min and count of single-call CUDA-event times (seconds)."""
        torch = self.torch
        for _ in range(WARMUP):
            fn()
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.flush_buf.zero_()
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        first = s.elapsed_time(e) / 1e3
        reps = min(MAX_REPS, max(MIN_REPS, int(TARGET_S / max(first, 1e-6))))
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        for i in range(reps):
            self.flush_buf.zero_()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        ts = [a.elapsed_time(b) / 1e3 for a, b in zip(starts, ends)]
        med = statistics.median(ts)
        if not (math.isfinite(med) and med > 0):
            raise RuntimeError("non-positive or non-finite time %r" % (med,))
        return {"seconds": med, "seconds_min": min(ts), "seconds_max": max(ts), "reps": reps}


class Budget(Exception):
    pass


class guard:
    """Records an exception from a block as an error point and lets the run go
    on (a shape that cannot even be allocated loses only itself); the budget's
    stop passes through."""

    def __init__(self, r, op, model=None, shape=None, dtype="", backend="setup"):
        self.r, self.args = r, (op, model, shape or {}, dtype, backend)

    def __enter__(self):
        return self

    def __exit__(self, et, e, tb):
        if et is None or issubclass(et, Budget) or not issubclass(et, Exception):
            return False
        self.r.record_error(*self.args, err="%s: %s" % (et.__name__, str(e)[:300]))
        try:
            self.r.torch.cuda.empty_cache()
        except Exception:
            pass
        return True


class Runner:
    def __init__(self, torch, res, budget_s):
        self.torch = torch
        self.res = res
        self.budget_s = budget_s
        self.timer = Timer(torch)
        self.deadline = budget_s
        self.section = None

    def over(self):
        return self.res.elapsed() > self.deadline

    def measure(self, op, model, shape, dtype, backend, fn, flops=None, nbytes=None, **extra):
        """Time fn and record the point; a failure records the error and the run goes on."""
        if self.over():
            raise Budget()
        torch = self.torch
        try:
            t = self.timer.time(fn)
            p = point(self.section, op, model, shape, dtype, backend, t["seconds"], flops, nbytes,
                      seconds_min=t["seconds_min"], seconds_max=t["seconds_max"], reps=t["reps"], **extra)
        except Budget:
            raise
        except Exception as e:
            p = point(self.section, op, model, shape, dtype, backend, error="%s: %s" % (type(e).__name__, str(e)[:300]), **extra)
            if isinstance(e, torch.cuda.OutOfMemoryError):
                torch.cuda.empty_cache()
        self.res.add(p)
        return p

    def record_error(self, op, model, shape, dtype, backend, err, **extra):
        self.res.add(point(self.section, op, model, shape, dtype, backend, error=err, **extra))


def kernel_names(torch, fn, top=4):
    """The CUDA kernels one call launches, by total device time (which backend ran)."""
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    rows = []
    for ev in prof.key_averages():
        dt = getattr(ev, "device_time_total", None)
        if dt is None:
            dt = getattr(ev, "cuda_time_total", 0)
        # Kernels only: the CPU-side aten:: ops and CUDA runtime calls carry
        # their children's device time in some releases.
        if dt and not ev.key.startswith(("aten::", "cuda", "ProfilerStep")):
            rows.append((dt, ev.key))
    rows.sort(reverse=True)
    return [k[:160] for _, k in rows[:top]]


# ---------------------------------------------------------------------------
# Section 1: large-batch decode
# ---------------------------------------------------------------------------

def sdpa_backend_ctx(torch, name):
    """A context that pins SDPA to one backend (None for PyTorch's own choice)."""
    import contextlib
    if name is None:
        return contextlib.nullcontext()
    from torch.nn.attention import sdpa_kernel, SDPBackend
    member = {"flash": "FLASH_ATTENTION", "cudnn": "CUDNN_ATTENTION", "efficient": "EFFICIENT_ATTENTION", "math": "MATH"}[name]
    return sdpa_kernel([getattr(SDPBackend, member)])


def section_decode(r):
    torch = r.torch
    import torch.nn.functional as F
    bf16 = torch.bfloat16
    # References: what this board's HBM and tensor cores give to a plain kernel.
    try:
        x = torch.ones(REF_COPY_BYTES, dtype=torch.int8, device="cuda")
        y = torch.empty_like(x)
        r.measure("hbm_copy", None, {"bytes": REF_COPY_BYTES}, "int8", "torch.copy_", lambda: y.copy_(x),
                  nbytes=2 * REF_COPY_BYTES)
        del x, y
        x = torch.ones(REF_COPY_BYTES, dtype=bf16, device="cuda")  # 2 x REF_COPY_BYTES
        r.measure("hbm_read", None, {"bytes": 2 * REF_COPY_BYTES}, "bf16", "torch.amax", lambda: torch.amax(x),
                  nbytes=2 * REF_COPY_BYTES)
        del x
        n = REF_GEMM
        a = torch.randn(n, n, dtype=bf16, device="cuda")
        b = torch.randn(n, n, dtype=bf16, device="cuda")
        r.measure("gemm_reference", None, {"m": n, "n": n, "k": n}, "bf16", "torch.mm",
                  lambda: torch.mm(a, b), flops=gemm_flops(n, n, n), nbytes=gemm_bytes(n, n, n, 2))
        del a, b
    except Budget:
        raise
    except Exception as e:
        r.record_error("references", None, {}, "", "", "%s: %s" % (type(e).__name__, e))
    torch.cuda.empty_cache()

    # BF16 linears as a serving engine runs them: y = x W^T with W [N, K].
    for m in DENSE:
        with guard(r, "linear", m, dtype="bf16"):
            for (name, k, n) in linears(m):
                w = torch.randn(n, k, dtype=bf16, device="cuda")
                for tok in DECODE_M:
                    x = torch.randn(tok, k, dtype=bf16, device="cuda")
                    r.measure("linear_" + name, m, {"m": tok, "n": n, "k": k}, "bf16", "F.linear(cuBLAS)",
                              lambda: F.linear(x, w), flops=gemm_flops(tok, n, k), nbytes=gemm_bytes(tok, n, k, 2))
                    del x
                del w
    torch.cuda.empty_cache()

    # Decode attention: one new token per sequence against its cached K and V.
    fa = None
    try:
        from flash_attn import flash_attn_with_kvcache as fa
    except Exception:
        pass
    profiled = False
    for m in DECODE_ATTN_MODELS:
        c = DENSE[m]
        hq, hkv, hd = c["heads"] // c["tp"], max(1, c["kv"] // c["tp"]), c["hd"]
        g = hq // hkv
        for (b, l) in decode_attn_grid():
            k = v = qf = q1 = kc = vc = qc = None
            with guard(r, "decode_attention", m, {"batch": b, "context": l}, "bf16"):
                if r.over():
                    raise Budget()
                shape = {"batch": b, "context": l, "q_heads": hq, "kv_heads": hkv, "head_dim": hd}
                flops = decode_attn_flops(b, l, hq, hd)
                nbytes = decode_attn_bytes(b, l, hkv, hq, hd)
                try:
                    k = torch.randn(b, hkv, l, hd, dtype=bf16, device="cuda")
                    v = torch.randn(b, hkv, l, hd, dtype=bf16, device="cuda")
                except Exception as e:
                    r.record_error("decode_attention", m, shape, "bf16", "all", "%s: %s" % (type(e).__name__, str(e)[:300]))
                    torch.cuda.empty_cache()
                    continue
                # The query heads of one KV head folded into the query length (G
                # rows against one K/V, no mask): the same arithmetic as GQA
                # decode, and every SDPA backend takes it.
                qf = torch.randn(b, hkv, g, hd, dtype=bf16, device="cuda")
                for backend in [None, "flash", "cudnn", "efficient"]:
                    label = "sdpa-" + (backend or "default")

                    def run(backend=backend):
                        with sdpa_backend_ctx(torch, backend):
                            return F.scaled_dot_product_attention(qf, k, v)
                    extra = {"layout": "gqa folded: q [B, Hkv, G, D]"}
                    if backend is None and not profiled:
                        try:
                            extra["kernels"] = kernel_names(torch, run)
                        except Exception as e:
                            extra["kernels"] = "profiler failed: %r" % (e,)
                        profiled = True
                    r.measure("decode_attention", m, shape, "bf16", label, run, flops=flops, nbytes=nbytes, **extra)
                # The layout HF transformers passes: q [B, Hq, 1, D] with enable_gqa.
                q1 = qf.reshape(b, hq, 1, hd)
                r.measure("decode_attention", m, shape, "bf16", "sdpa-default-gqa",
                          lambda: F.scaled_dot_product_attention(q1, k, v, enable_gqa=True), flops=flops, nbytes=nbytes,
                          layout="q [B, Hq, 1, D], enable_gqa=True")
                del qf, q1
                if fa is not None:
                    with guard(r, "decode_attention", m, shape, "bf16", "flash_attn.flash_attn_with_kvcache"):
                        kc, vc = k.transpose(1, 2).contiguous(), v.transpose(1, 2).contiguous()  # [B, L, Hkv, D]
                        del k, v
                        qc = torch.randn(b, 1, hq, hd, dtype=bf16, device="cuda")
                        r.measure("decode_attention", m, shape, "bf16", "flash_attn.flash_attn_with_kvcache",
                                  lambda: fa(qc, kc, vc), flops=flops, nbytes=nbytes, layout="bshd, contiguous cache")
                        del kc, vc, qc
                else:
                    r.record_error("decode_attention", m, shape, "bf16", "flash_attn.flash_attn_with_kvcache", "flash_attn absent")
                k = v = None
                torch.cuda.empty_cache()

    with guard(r, "sustained", None, {}, "bf16"):
        sustained(r)


def sustained(r):
    """Back-to-back BF16 REF_GEMM^3 GEMMs for SUSTAIN_S seconds while nvidia-smi
    samples the clocks, power and throttle reasons every 200 ms: whether the
    board holds its clocks under a long load (the forty-seventh round's third
    candidate)."""
    torch = r.torch
    if r.over():
        raise Budget()
    n = REF_GEMM
    a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    smi = None
    try:
        smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu" + smi_reason_field(),
                                "--format=csv,noheader", "-lms", "200"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except Exception as e:
        smi_err = repr(e)
    else:
        smi_err = None
    slices = []
    t_end = time.time() + SUSTAIN_S
    batch = 20
    while time.time() < t_end:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(batch):
            torch.mm(a, b)
        e.record()
        e.synchronize()
        dt = s.elapsed_time(e) / 1e3
        slices.append({"t_s": round(SUSTAIN_S - (t_end - time.time()), 3),
                       "tflops": round(batch * gemm_flops(n, n, n) / dt / 1e12, 2)})
    samples = smi_err
    if smi is not None:
        smi.terminate()
        try:
            samples = smi.communicate(timeout=5)[0].strip().splitlines()
        except Exception as e:
            smi.kill()
            samples = "nvidia-smi sampling failed: %r" % (e,)
    r.res.doc["sustained"] = {"op": "torch.mm bf16 %d^3 back to back" % n, "seconds": SUSTAIN_S, "gemms_per_slice": batch,
                              "nvidia_smi_fields": "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu" + smi_reason_field(),
                              "slices": slices, "nvidia_smi_samples": samples}
    r.res.save()
    del a, b
    torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Section 2: training attention
# ---------------------------------------------------------------------------

def section_train(r):
    torch = r.torch
    import torch.nn.functional as F
    bf16 = torch.bfloat16
    fa2 = fa3 = te_mod = None
    try:
        from flash_attn import flash_attn_func as fa2
    except Exception:
        pass
    try:
        import flash_attn_interface
        fa3 = flash_attn_interface.flash_attn_func
    except Exception:
        pass
    try:
        import transformer_engine.pytorch as te_mod
    except Exception:
        pass
    for lib, val in [("flash_attn", fa2), ("flash_attn_interface(FA3)", fa3), ("transformer_engine", te_mod)]:
        if val is None:
            r.record_error("attention_train", None, {}, "bf16", lib, "absent (not importable in this image)")

    shapes = [(max(1, TRAIN_TOKENS // L), L, TRAIN_HEADS, TRAIN_HEADS, "fa3-paper-setting") for L in TRAIN_SEQ]
    shapes.append(TRAIN_GQA)
    profiled = False
    for (b, L, h, hkv, model) in shapes:
        q = k = v = do = qb = kb = vb = dob = None
        with guard(r, "attention_train", model, {"batch": b, "seq": L, "heads": h, "kv_heads": hkv}, "bf16"):
            if r.over():
                raise Budget()
            hd = 128
            shape = {"batch": b, "seq": L, "heads": h, "kv_heads": hkv, "head_dim": hd, "causal": True}
            f_fwd = attn_train_flops(b, L, h, hd)
            f_bwd = 2.5 * f_fwd
            # SDPA layout [B, H, L, D]
            q = torch.randn(b, h, L, hd, dtype=bf16, device="cuda", requires_grad=True)
            k = torch.randn(b, hkv, L, hd, dtype=bf16, device="cuda", requires_grad=True)
            v = torch.randn(b, hkv, L, hd, dtype=bf16, device="cuda", requires_grad=True)
            do = torch.randn(b, h, L, hd, dtype=bf16, device="cuda")
            gqa = hkv != h

            def sdpa(backend):
                def fwd():
                    with sdpa_backend_ctx(torch, backend):
                        if gqa:
                            return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
                        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
                return fwd

            cands = [("sdpa-" + (bk or "default"), sdpa(bk)) for bk in [None, "flash", "cudnn", "efficient"]]
            # Libraries with their own layout [B, L, H, D].
            qb = kb = vb = dob = None
            if fa2 is not None or fa3 is not None or te_mod is not None:
                qb = q.detach().transpose(1, 2).contiguous().requires_grad_()
                kb = k.detach().transpose(1, 2).contiguous().requires_grad_()
                vb = v.detach().transpose(1, 2).contiguous().requires_grad_()
                dob = do.transpose(1, 2).contiguous()
            if fa2 is not None:
                cands.append(("flash_attn(FA2)", lambda: fa2(qb, kb, vb, causal=True)))
            if fa3 is not None:
                def fa3_fwd():
                    o = fa3(qb, kb, vb, causal=True)
                    return o[0] if isinstance(o, tuple) else o
                cands.append(("flash_attn_interface(FA3)", fa3_fwd))
            if te_mod is not None:
                try:
                    dpa = te_mod.DotProductAttention(h, hd, num_gqa_groups=hkv, attn_mask_type="causal", qkv_format="bshd")
                    cands.append(("transformer_engine.DotProductAttention", lambda: dpa(qb, kb, vb)))
                except Exception as e:
                    r.record_error("attention_train", model, shape, "bf16", "transformer_engine.DotProductAttention",
                                   "%s: %s" % (type(e).__name__, str(e)[:300]))
            for (label, fwd) in cands:
                layout_bshd = not label.startswith("sdpa")
                inputs = (qb, kb, vb) if layout_bshd else (q, k, v)
                grad = dob if layout_bshd else do

                def fwd_only(fwd=fwd):
                    with torch.no_grad():
                        return fwd()

                def fwd_bwd(fwd=fwd, inputs=inputs, grad=grad):
                    o = fwd()
                    return torch.autograd.grad(o, inputs, grad.reshape(o.shape))
                extra = {}
                if label == "sdpa-default" and not profiled:
                    try:
                        extra["kernels"] = kernel_names(torch, fwd_bwd, top=6)
                    except Exception as e:
                        extra["kernels"] = "profiler failed: %r" % (e,)
                    profiled = True
                pf = r.measure("attention_fwd", model, shape, "bf16", label, fwd_only, flops=f_fwd, **extra)
                pt = r.measure("attention_fwd_bwd", model, shape, "bf16", label, fwd_bwd, flops=f_fwd + f_bwd,
                               flops_note="FA3 paper count: causal fwd 2*L^2*D*H*B, bwd 2.5x fwd")
                if "seconds" in pf and "seconds" in pt and pt["seconds"] > pf["seconds"]:
                    # The backward alone, as the difference of the two medians.
                    pt["bwd_seconds"] = pt["seconds"] - pf["seconds"]
                    pt["bwd_tflops"] = f_bwd / pt["bwd_seconds"] / 1e12
                    r.res.save()
            # FlashAttention-3's FP8 forward (e4m3), where the library has it.
            if fa3 is not None and L <= TRAIN_FP8_MAX_SEQ and hkv == h:
                with guard(r, "attention_fwd", model, shape, "fp8_e4m3", "flash_attn_interface(FA3)"):
                    f8 = torch.float8_e4m3fn
                    q8, k8, v8 = qb.detach().to(f8), kb.detach().to(f8), vb.detach().to(f8)

                    def fa3_fp8():
                        with torch.no_grad():
                            return fa3(q8, k8, v8, causal=True)
                    r.measure("attention_fwd", model, shape, "fp8_e4m3", "flash_attn_interface(FA3)", fa3_fp8, flops=f_fwd)
                    del q8, k8, v8
            del q, k, v, do, qb, kb, vb, dob
            torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Section 3: FP8 GEMM
# ---------------------------------------------------------------------------

def fp8_variants(torch, m, n, k):
    """(label, fn) for each FP8 scaling this torch build might run, at (m, n, k).
    Weights are [N, K] row-major, passed as the column-major [K, N] cuBLASLt
    wants. Scales are ones: the time does not depend on their values."""
    f8 = torch.float8_e4m3fn
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16).to(f8)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).to(f8)
    bt = w.t()
    one = torch.ones((), device="cuda", dtype=torch.float32)
    out = torch.bfloat16
    v = [("fp8-tensorwise", lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=out))]
    sa = torch.ones(m, 1, device="cuda", dtype=torch.float32)
    sb = torch.ones(1, n, device="cuda", dtype=torch.float32)
    v.append(("fp8-rowwise", lambda: torch._scaled_mm(a, bt, scale_a=sa, scale_b=sb, out_dtype=out)))
    # DeepSeek-V3's recipe: activations in 1x128 blocks, weights in 128x128
    # blocks. Scale layouts as PyTorch's test_scaled_matmul_cuda.py and
    # operator benchmark build them: A's (M, K/128) outer-dim-major, B's
    # (K/128, N/128) from a contiguous (N/128, K/128).
    if k % 128 == 0 and n % 128 == 0:
        sa_b = torch.ones(k // 128, m, device="cuda", dtype=torch.float32).t()
        sb_b = torch.ones(n // 128, k // 128, device="cuda", dtype=torch.float32).t()
        F = torch.nn.functional
        if hasattr(F, "scaled_mm") and hasattr(F, "ScalingType"):
            ST = F.ScalingType
            v.append(("fp8-block1x128x128", lambda: F.scaled_mm(a, bt, scale_a=sa_b, scale_recipe_a=ST.BlockWise1x128,
                                                                 scale_b=sb_b, scale_recipe_b=ST.BlockWise128x128,
                                                                 output_dtype=out)))
        else:
            v.append(("fp8-block1x128x128", lambda: torch._scaled_mm(a, bt, scale_a=sa_b, scale_b=sb_b, out_dtype=out)))
    return v


def section_fp8(r):
    torch = r.torch
    import torch.nn.functional as F
    bf16 = torch.bfloat16
    have_fp8 = hasattr(torch, "_scaled_mm") and hasattr(torch, "float8_e4m3fn")
    if not have_fp8:
        r.record_error("gemm", None, {}, "fp8_e4m3", "torch._scaled_mm", "absent in this torch (no _scaled_mm or float8_e4m3fn)")
    shapes = []
    for m in FP8_TRAIN_MODELS:
        shapes += [(m + ":" + nm, FP8_TRAIN_M, n, k) for (nm, k, n) in linears(m)]
    for tok in FP8_DECODE_M:
        shapes += [(FP8_DECODE_MODEL + ":" + nm, tok, n, k) for (nm, k, n) in linears(FP8_DECODE_MODEL)]
    shapes += [("deepgemm-dense", mm, n, k) for mm in DEEPGEMM_M for (n, k) in DEEPGEMM_NK]
    for (model, m, n, k) in shapes:
        x = w = variants = None
        with guard(r, "gemm", model, {"m": m, "n": n, "k": k}):
            if r.over():
                raise Budget()
            shape = {"m": m, "n": n, "k": k}
            fl = gemm_flops(m, n, k)
            x = torch.randn(m, k, dtype=bf16, device="cuda")
            w = torch.randn(n, k, dtype=bf16, device="cuda")
            r.measure("gemm", model, shape, "bf16", "F.linear(cuBLAS)", lambda: F.linear(x, w), flops=fl,
                      nbytes=gemm_bytes(m, n, k, 2))
            if have_fp8 and m == FP8_TRAIN_M and k >= 512:
                # The activation's per-tensor cast as eager PyTorch does it (amax,
                # scale, cast: three kernels); fused recipes do less.
                f8 = torch.float8_e4m3fn

                def cast():
                    s = 448.0 / torch.clamp(x.abs().amax().float(), min=1e-12)
                    return (x.float() * s).to(f8)
                r.measure("fp8_cast", model, {"m": m, "k": k}, "bf16->fp8_e4m3", "eager amax+scale+cast", cast,
                          nbytes=m * k * (2 + 2 + 4 + 4 + 1))
            del x, w
            if not have_fp8:
                continue
            try:
                variants = fp8_variants(torch, m, n, k)
            except Exception as e:
                r.record_error("gemm", model, shape, "fp8_e4m3", "setup", "%s: %s" % (type(e).__name__, str(e)[:300]))
                continue
            for (label, fn) in variants:
                r.measure("gemm", model, shape, "fp8_e4m3", label, fn, flops=fl, nbytes=gemm_bytes(m, n, k, 1))
            del variants
            torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Section 4: MoE grouped GEMM
# ---------------------------------------------------------------------------

def section_moe(r):
    torch = r.torch
    import torch.nn.functional as F
    bf16 = torch.bfloat16
    f8 = getattr(torch, "float8_e4m3fn", None)
    cases = []
    for model, c in MOE.items():
        for (nm, k, n) in [("gate_up", c["hidden"], 2 * c["inter"]), ("down", c["inter"], c["hidden"])]:
            for tok in MOE_M:
                cases.append((model + ":" + nm, c["experts"], tok, n, k, True))
    cases += [("deepgemm-grouped", g, tok, n, k, False) for (g, tok, n, k) in DEEPGEMM_GROUPED]
    for (model, g, tok, n, k, with_loop) in cases:
        w = x = wt = x3 = offs = None
        with guard(r, "grouped_gemm", model, {"groups": g, "m_per_group": tok, "n": n, "k": k}):
            if r.over():
                raise Budget()
            shape = {"groups": g, "m_per_group": tok, "n": n, "k": k}
            fl = gemm_flops(g * tok, n, k)
            nb2 = g * gemm_bytes(tok, n, k, 2)
            try:
                w = torch.randn(g, n, k, dtype=bf16, device="cuda")      # experts' weights, [G, N, K] as stored
                x = torch.randn(g * tok, k, dtype=bf16, device="cuda")   # tokens sorted by expert
            except Exception as e:
                r.record_error("grouped_gemm", model, shape, "bf16", "all", "%s: %s" % (type(e).__name__, str(e)[:300]))
                torch.cuda.empty_cache()
                continue
            wt = w.transpose(1, 2)      # [G, K, N], column-major per expert
            x3 = x.view(g, tok, k)
            r.measure("grouped_gemm", model, shape, "bf16", "torch.bmm", lambda: torch.bmm(x3, wt), flops=fl, nbytes=nb2)
            offs = torch.arange(tok, g * tok + 1, tok, device="cuda", dtype=torch.int32)
            if hasattr(torch, "_grouped_mm"):
                r.measure("grouped_gemm", model, shape, "bf16", "torch._grouped_mm",
                          lambda: torch._grouped_mm(x, wt, offs=offs, out_dtype=bf16), flops=fl, nbytes=nb2)
            else:
                r.record_error("grouped_gemm", model, shape, "bf16", "torch._grouped_mm", "absent in this torch")
            if f8 is not None and hasattr(torch, "_scaled_grouped_mm"):
                with guard(r, "grouped_gemm", model, shape, "fp8_e4m3", "torch._scaled_grouped_mm(rowwise)"):
                    x8 = x.to(f8)
                    w8t = w.to(f8).transpose(1, 2)
                    sa = torch.ones(g * tok, device="cuda", dtype=torch.float32)
                    sb = torch.ones(g, n, device="cuda", dtype=torch.float32)
                    r.measure("grouped_gemm", model, shape, "fp8_e4m3", "torch._scaled_grouped_mm(rowwise)",
                              lambda: torch._scaled_grouped_mm(x8, w8t, sa, sb, offs=offs, out_dtype=bf16),
                              flops=fl, nbytes=g * gemm_bytes(tok, n, k, 1))
                    del x8, w8t
            else:
                r.record_error("grouped_gemm", model, shape, "fp8_e4m3", "torch._scaled_grouped_mm(rowwise)", "absent in this torch")
            if with_loop:
                xs = list(x3.unbind(0))
                ws = list(w.unbind(0))

                def loop():
                    return [F.linear(xi, wi) for xi, wi in zip(xs, ws)]
                r.measure("grouped_gemm", model, shape, "bf16", "loop of F.linear", loop, flops=fl, nbytes=nb2)
                del xs, ws
            del w, x, wt, x3, offs
            torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Summary (works on a results file without torch)
# ---------------------------------------------------------------------------

def summarize(doc, out=sys.stdout):
    env = doc.get("env", {})
    pts = doc.get("points", [])
    ok = [p for p in pts if "seconds" in p]
    bad = [p for p in pts if "error" in p]
    w = out.write
    w("device %s, torch %s, CUDA %s, cuDNN %s; %d points timed, %d failed or absent; %.0f s of %s s budget%s\n" % (
        env.get("device"), env.get("torch"), env.get("cuda"), env.get("cudnn"), len(ok), len(bad),
        doc.get("elapsed_s", 0), doc.get("budget_s"), ", stopped early: " + str(doc.get("stopped_early")) if doc.get("stopped_early") else ""))
    for name, s in doc.get("sections", {}).items():
        w("  section %-7s %s (%.0f s)%s\n" % (name, s.get("status"), s.get("seconds", 0), (": " + s["error"][:200]) if s.get("error") else ""))

    def best(filterfn, key):
        c = [p for p in ok if filterfn(p) and key in p]
        return max(c, key=lambda p: p[key]) if c else None
    for label, fn, key in [
        ("HBM copy", lambda p: p["op"] == "hbm_copy", "gb_per_s"),
        ("HBM read", lambda p: p["op"] == "hbm_read", "gb_per_s"),
        ("BF16 GEMM reference", lambda p: p["op"] == "gemm_reference", "tflops"),
    ]:
        p = best(fn, key)
        if p:
            w("  %s: %.1f %s\n" % (label, p[key], "GB/s" if key == "gb_per_s" else "TFLOP/s"))
    lin = [p for p in ok if p["op"].startswith("linear_")]
    if lin:
        w("  decode linears, TFLOP/s (GB/s) by M, summed over a layer's four linears:\n")
        models = sorted(set(p["model"] for p in lin))
        for m in models:
            row = []
            for tok in sorted(set(p["shape"]["m"] for p in lin)):
                ps = [p for p in lin if p["model"] == m and p["shape"]["m"] == tok]
                t = sum(p["seconds"] for p in ps)
                f = sum(p.get("flops", 0) for p in ps)
                b = sum(p.get("bytes", 0) for p in ps)
                row.append("M%d %.0f (%.0f)" % (tok, f / t / 1e12, b / t / 1e9))
            w("    %-18s %s\n" % (m, "  ".join(row)))
    da = [p for p in ok if p["op"] == "decode_attention"]
    if da:
        w("  decode attention, best GB/s by (model, batch x context) and the backend that gave it:\n")
        keys = sorted(set((p["model"], p["shape"]["batch"], p["shape"]["context"]) for p in da))
        for (m, b, l) in keys:
            ps = [p for p in da if p["model"] == m and p["shape"]["batch"] == b and p["shape"]["context"] == l]
            bp = max(ps, key=lambda p: p.get("gb_per_s", 0))
            w("    %-18s %5d x %5d  %7.0f GB/s  %s\n" % (m, b, l, bp.get("gb_per_s", 0), bp["backend"]))
    tr = [p for p in ok if p["op"] == "attention_fwd_bwd"]
    if tr:
        w("  training attention fwd+bwd TFLOP/s (FA3-paper count):\n")
        for key in sorted(set((p["model"], p["shape"]["seq"]) for p in tr)):
            ps = [p for p in tr if (p["model"], p["shape"]["seq"]) == key]
            w("    %-18s seq %5d  %s\n" % (key[0], key[1], "  ".join("%s %.0f" % (p["backend"], p.get("tflops", 0)) for p in ps)))
    g = [p for p in ok if p["op"] == "gemm"]
    if g:
        w("  FP8 / BF16 speed by shape (first 12):\n")
        keys = []
        for p in g:
            kk = (p["model"], p["shape"]["m"], p["shape"]["n"], p["shape"]["k"])
            if kk not in keys:
                keys.append(kk)
        for kk in keys[:12]:
            ps = {p["backend"]: p for p in g if (p["model"], p["shape"]["m"], p["shape"]["n"], p["shape"]["k"]) == kk}
            base = ps.get("F.linear(cuBLAS)")
            if not base:
                continue
            w("    %-24s m%5d n%6d k%6d  bf16 %.0f TFLOP/s  %s\n" % (kk + (base.get("tflops", 0),) + (
                "  ".join("%s x%.2f" % (lb, base["seconds"] / p["seconds"]) for lb, p in ps.items() if lb != "F.linear(cuBLAS)"),)))
    mo = [p for p in ok if p["op"] == "grouped_gemm"]
    if mo:
        w("  grouped GEMM TFLOP/s by tokens per expert (best BF16 backend):\n")
        for m in sorted(set(p["model"] for p in mo)):
            row = []
            for tok in sorted(set(p["shape"]["m_per_group"] for p in mo if p["model"] == m)):
                ps = [p for p in mo if p["model"] == m and p["shape"]["m_per_group"] == tok and p["dtype"] == "bf16"]
                if ps:
                    bp = max(ps, key=lambda p: p.get("tflops", 0))
                    row.append("%d:%.0f" % (tok, bp.get("tflops", 0)))
            w("    %-28s %s\n" % (m, " ".join(row)))
    errs = {}
    for p in bad:
        errs.setdefault((p["backend"], p["error"][:90]), 0)
        errs[(p["backend"], p["error"][:90])] += 1
    if errs:
        w("  failures and absences (backend: error x count):\n")
        for (b, e), c in sorted(errs.items(), key=lambda kv: -kv[1])[:15]:
            w("    %s: %s x%d\n" % (b, e, c))


def check(doc):
    """Go-free validation of a results file: returns a list of problems."""
    probs = []
    if doc.get("schema") != SCHEMA:
        probs.append("schema is %r, want %r" % (doc.get("schema"), SCHEMA))
    for k in ["env", "sections", "points", "budget_s", "elapsed_s"]:
        if k not in doc:
            probs.append("missing %s" % k)
    for i, p in enumerate(doc.get("points", [])):
        for k in ["section", "op", "shape", "dtype", "backend"]:
            if k not in p:
                probs.append("point %d lacks %s" % (i, k))
        if ("seconds" in p) == ("error" in p):
            probs.append("point %d has both or neither of seconds and error" % i)
        for k in ["seconds", "tflops", "gb_per_s"]:
            if k in p and not (finite(p[k]) and p[k] > 0):
                probs.append("point %d: %s = %r" % (i, k, p[k]))
    if not any("seconds" in p for p in doc.get("points", [])):
        probs.append("no point was timed")
    return probs


# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-s", type=float, default=420, help="stop starting points after this many seconds (default 420)")
    ap.add_argument("--out", default=os.environ.get("OUT", "."), help="folder for kernels.json (default $OUT or .)")
    ap.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated subset of %s" % ",".join(SECTIONS))
    ap.add_argument("--dry-run", action="store_true", help="print the plan and a time estimate; needs no torch")
    ap.add_argument("--summarize", metavar="FILE", help="print the summary of a results file; needs no torch")
    ap.add_argument("--check", metavar="FILE", help="validate a results file and print its summary; needs no torch")
    args = ap.parse_args(argv)
    if not (args.budget_s > 0 and math.isfinite(args.budget_s)):
        ap.error("--budget-s must be a positive number of seconds, got %r" % args.budget_s)
    wanted = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown:
        ap.error("unknown section(s) %s; choose from %s" % (",".join(unknown), ",".join(SECTIONS)))
    if args.dry_run:
        dry_run(args.budget_s)
        return 0
    if args.summarize or args.check:
        path = args.summarize or args.check
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("cannot read %s: %s" % (path, e), file=sys.stderr)
            return 2
        summarize(doc)
        if args.check:
            probs = check(doc)
            for p in probs[:30]:
                print("PROBLEM:", p)
            print("check: %s (%d problems)" % ("ok" if not probs else "FAILED", len(probs)))
            return 1 if probs else 0
        return 0

    try:
        import torch
    except Exception as e:
        print("torch is not importable here (%s); use --dry-run on a machine without it" % (e,), file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    res = Results(os.path.join(args.out, "kernels.json"), args.budget_s)
    res.doc["argv"] = sys.argv[1:]
    try:
        res.doc["env"] = environment(torch)
    except Exception as e:
        res.doc["env"] = {"error": traceback.format_exc()[-2000:]}
    res.save()
    if not torch.cuda.is_available():
        res.doc["stopped_early"] = "no CUDA device"
        res.save()
        print("no CUDA device visible to torch; environment written to", res.path, file=sys.stderr)
        return 3
    torch.backends.cuda.matmul.allow_tf32 = False
    r = Runner(torch, res, args.budget_s)
    funcs = {"decode": section_decode, "train": section_train, "fp8": section_fp8, "moe": section_moe}
    for name in SECTIONS:
        if name not in wanted:
            res.doc["sections"][name] = {"status": "not requested"}
            continue
        r.section = name
        r.deadline = args.budget_s * SECTION_DEADLINE_SHARE[name]
        t = time.time()
        sec = {"status": "running", "deadline_s": round(r.deadline, 1)}
        res.doc["sections"][name] = sec
        res.save()
        print("[%6.1f s] section %s (stops starting points at %.0f s)" % (res.elapsed(), name, r.deadline), flush=True)
        try:
            if r.over():
                raise Budget()
            funcs[name](r)
            sec["status"] = "done"
        except Budget:
            sec["status"] = "stopped at its deadline"
            res.doc["stopped_early"] = True
        except Exception:
            sec["status"] = "error"
            sec["error"] = traceback.format_exc()[-3000:]
        sec["seconds"] = round(time.time() - t, 1)
        sec["points"] = sum(1 for p in res.doc["points"] if p["section"] == name)
        res.save()
        try:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        except Exception:
            pass
    res.doc.setdefault("stopped_early", False)
    res.doc["env"]["nvidia_smi_end"] = smi_query()
    res.doc["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    res.save()
    summarize(res.doc)
    print("wrote", res.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
