"""The expert GEMMs of MoE layers whose experts are split by tensor
parallelism, on one lent GPU: each GPU holds every expert with its
intermediate dimension divided by TP (vLLM's and SGLang's MoE at TP without
expert parallelism), so the gate/up GEMM is N = 2·I/TP wide and the down
GEMM K = I/TP deep: DeepSeek-V3 at TP 8 gives K = 256. Timed through
torch._grouped_mm (BF16) and torch._scaled_grouped_mm (FP8 e4m3, row-wise
scales, inputs quantised beforehand, so the time is the GEMM's alone), each
in a CUDA graph replayed back to back, routes a uniform draw over the
experts, at 1 to 16,384 tokens a step. Shapes from the catalog's configs.
Writes $OUT/moe_tp.json after every shape."""
import argparse, json, os, platform, time, traceback

SHAPES = [
    # name, experts, top-k, hidden, intermediate per GPU
    ("deepseek-v3-tp8", 256, 8, 7168, 256),
    ("deepseek-v3-tp4", 256, 8, 7168, 512),
    ("qwen3-235b-a22b-tp8", 128, 8, 4096, 192),
    ("qwen3-235b-a22b-tp4", 128, 8, 4096, 384),
    ("gpt-oss-120b-tp4", 128, 4, 2880, 720),
    ("gpt-oss-120b-tp2", 128, 4, 2880, 1440),
    ("qwen3-30b-a3b-tp2", 128, 8, 2048, 384),
]
TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=90)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    a = ap.parse_args()
    import torch
    start = time.time()
    dev, bf16, f8 = "cuda", torch.bfloat16, torch.float8_e4m3fn
    out = {"env": {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "python": platform.python_version(),
                   "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
           "method": "each GEMM captured in a CUDA graph, replayed back to back (reps) after 3 warm-up replays; seconds = "
                     "CUDA-event time / reps; uniform routes; FP8 inputs quantised before the graph",
           "points": [], "errors": []}
    path = os.path.join(a.out, "moe_tp.json")

    def timed_graph(fn, reps):
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
        for _ in range(3):
            g.replay()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(reps):
            g.replay()
        e1.record()
        torch.cuda.synchronize()
        return e0.elapsed_time(e1) / 1000 / reps

    for (name, E, k, H, I) in SHAPES:
        try:
            w1 = torch.randn(E, 2 * I, H, device=dev, dtype=bf16) * 0.02
            w2 = torch.randn(E, H, I, device=dev, dtype=bf16) * 0.02
            w1t, w2t = w1.transpose(1, 2), w2.transpose(1, 2)
            w1q, w2q = w1.to(f8).transpose(1, 2), w2.to(f8).transpose(1, 2)
            s1 = torch.ones(E, 2 * I, device=dev, dtype=torch.float32)
            s2 = torch.ones(E, H, device=dev, dtype=torch.float32)
        except Exception as e:
            out["errors"].append({"shape": name, "error": "%s: %s" % (type(e).__name__, str(e)[:300])})
            continue
        for T in TOKENS:
            if time.time() - start > a.budget_s:
                break
            R = T * k
            try:
                ids = torch.randint(0, E, (R,), device=dev)
                cnt = torch.bincount(ids, minlength=E)
                offs = torch.cumsum(cnt, 0).to(torch.int32)
                xs = torch.randn(R, H, device=dev, dtype=bf16)
                act = torch.randn(R, I, device=dev, dtype=bf16)
                xq, aq = xs.to(f8), act.to(f8)
                sx = torch.ones(R, device=dev, dtype=torch.float32)
                sa = torch.ones(R, device=dev, dtype=torch.float32)
                reps = 60 if T <= 256 else (20 if T <= 4096 else 5)
                pt = {"shape": name, "experts": E, "top_k": k, "hidden": H, "inter": I, "tokens": T,
                      "experts_touched": int((cnt > 0).sum().item()), "reps": reps, "seconds": {}}
                pt["seconds"]["gate_up_bf16"] = timed_graph(lambda: torch._grouped_mm(xs, w1t, offs=offs, out_dtype=bf16), reps)
                pt["seconds"]["down_bf16"] = timed_graph(lambda: torch._grouped_mm(act, w2t, offs=offs, out_dtype=bf16), reps)
                for nm, fn in [("gate_up_fp8", lambda: torch._scaled_grouped_mm(xq, w1q, sx, s1, offs=offs, out_dtype=bf16)),
                               ("down_fp8", lambda: torch._scaled_grouped_mm(aq, w2q, sa, s2, offs=offs, out_dtype=bf16))]:
                    try:
                        pt["seconds"][nm] = timed_graph(fn, reps)
                    except Exception as e:
                        pt.setdefault("fp8_error", "%s: %s" % (type(e).__name__, str(e)[:200]))
                out["points"].append(pt)
                s = pt["seconds"]
                print("%-20s T=%6d touched %3d  bf16 %8.1f + %8.1f us   fp8 %s" % (
                    name, T, pt["experts_touched"], 1e6 * s["gate_up_bf16"], 1e6 * s["down_bf16"],
                    ("%8.1f + %8.1f us" % (1e6 * s["gate_up_fp8"], 1e6 * s["down_fp8"])) if "down_fp8" in s else pt.get("fp8_error", "")), flush=True)
                del xs, act, xq, aq
            except Exception as e:
                out["errors"].append({"shape": name, "tokens": T, "error": "%s: %s" % (type(e).__name__, str(e)[:300]),
                                      "trace": traceback.format_exc()[-1000:]})
                print("ERROR", name, T, type(e).__name__, str(e)[:200], flush=True)
            torch.cuda.empty_cache()
        w1 = w2 = w1t = w2t = w1q = w2q = None
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
    out["elapsed_s"] = time.time() - start
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("moe_tp done: %d points, %d errors, %.0f s" % (len(out["points"]), len(out["errors"]), out["elapsed_s"]))


if __name__ == "__main__":
    main()
