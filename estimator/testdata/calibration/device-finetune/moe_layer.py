"""One MoE layer's step, piece by piece, on one lent GPU (the eighty-fifth
calibration round's "Left": per-step timings of the routing, permutation and
combine kernels around the grouped GEMMs, at 1 to 16,384 tokens a step).

The layer is written here in plain PyTorch, the way the engines' MoE layers
are built from pieces (router linear and top-k; sort the routes by expert;
gather the tokens; the gate/up grouped GEMM; SiLU-and-multiply; the down
grouped GEMM; weight the routes and add them back per token). It is not an
engine's fused kernel (vLLM's Triton fused_moe, SGLang's, DeepGEMM, CUTLASS):
what it measures is how much of such a step the non-GEMM pieces take at each
token count when every piece is a separate kernel, each timed inside a CUDA
graph (replayed back to back, so launch overhead is gone, as in the engines'
decode graphs). Weights are random BF16 (or FP8 e4m3 with row-wise scales
through torch._scaled_grouped_mm, where present); routes are drawn uniformly
(a balanced load, the best case for the GEMMs).

Shapes (experts, top-k, hidden, expert intermediate) are the catalog's
(catalog/data/models.json configs). DeepSeek-V3 at EP 8 is one GPU's share:
32 local experts and one local route per received token copy, so a step of T
received copies puts T/32 tokens on each expert, what T tokens in flight on
8 GPUs give at top-8 of 256.

Writes $OUT/moe_layer.json after every model."""
import argparse, json, os, platform, time, traceback

MODELS = [
    # name, experts, top-k, hidden, expert intermediate
    ("qwen3-30b-a3b", 128, 8, 2048, 768),
    ("qwen3-235b-a22b", 128, 8, 4096, 1536),
    ("gpt-oss-120b", 128, 4, 2880, 2880),
    ("deepseek-v3-ep8-local", 32, 1, 7168, 2048),
    ("mixtral-8x7b", 8, 2, 4096, 14336),
]
TOKENS = [1, 8, 32, 128, 512, 2048, 8192, 16384]
PIECES = ["router", "sort", "gather", "gate_up", "act", "down", "combine"]
# --set 2: decode-sized steps, and the combine as a gather and a sum over
# the top-k (the engines' moe_sum) instead of index_add_'s atomics; a dense
# MLP of Llama 3.1 8B's shape (hidden 4,096, intermediate 14,336) timed the
# same way as the reference a dense layer's MLP costs.
TOKENS2 = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 2048, 8192]
PIECES2 = ["router", "sort", "gather", "gate_up", "act", "down", "combine_sum"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=100)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--set", type=int, default=1)
    a = ap.parse_args()
    global TOKENS, PIECES
    if a.set == 2:
        TOKENS, PIECES = TOKENS2, PIECES2
    import torch
    import torch.nn.functional as F
    start = time.time()
    dev = "cuda"
    bf16 = torch.bfloat16
    f8 = getattr(torch, "float8_e4m3fn", None)
    out = {"env": {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "python": platform.python_version(),
                   "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "has_grouped_mm": hasattr(torch, "_grouped_mm"), "has_scaled_grouped_mm": hasattr(torch, "_scaled_grouped_mm")},
           "method": "each piece captured in its own CUDA graph, replayed back to back reps times after 3 warm-up replays; "
                     "seconds = CUDA-event time / reps; 'layer' is all pieces in one graph; 'eager' the layer without a graph",
           "points": [], "errors": []}
    path = os.path.join(a.out, "moe_layer.json" if a.set == 1 else "moe_layer2.json")
    out["set"] = a.set

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
        del g
        return e0.elapsed_time(e1) / 1000 / reps

    def timed_eager(fn, reps):
        for _ in range(3):
            fn()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        e0.record()
        for _ in range(reps):
            fn()
        e1.record()
        torch.cuda.synchronize()
        return e0.elapsed_time(e1) / 1000 / reps

    for (name, E, k, H, I) in MODELS:
        for dtype in ["bf16", "fp8"]:
            if dtype == "fp8" and (f8 is None or not hasattr(torch, "_scaled_grouped_mm")):
                out["errors"].append({"model": name, "dtype": dtype, "error": "no float8 or _scaled_grouped_mm"})
                continue
            try:
                wg = torch.randn(E, H, device=dev, dtype=bf16) * 0.02
                w1 = torch.randn(E, 2 * I, H, device=dev, dtype=bf16) * 0.02   # [E, N, K] as stored
                w2 = torch.randn(E, H, I, device=dev, dtype=bf16) * 0.02
                if dtype == "fp8":
                    w1q = w1.to(f8).transpose(1, 2)
                    w2q = w2.to(f8).transpose(1, 2)
                    s1 = torch.ones(E, 2 * I, device=dev, dtype=torch.float32)
                    s2 = torch.ones(E, H, device=dev, dtype=torch.float32)
                    del w1, w2
                else:
                    w1t, w2t = w1.transpose(1, 2), w2.transpose(1, 2)
            except Exception as e:
                out["errors"].append({"model": name, "dtype": dtype, "error": "%s: %s" % (type(e).__name__, str(e)[:300])})
                torch.cuda.empty_cache()
                continue
            for T in TOKENS:
                if time.time() - start > a.budget_s:
                    break
                R = T * k
                try:
                    x = torch.randn(T, H, device=dev, dtype=bf16)
                    # static buffers the pieces read and write (graph-safe)
                    logits = torch.empty(T, E, device=dev, dtype=bf16)
                    topw = torch.empty(T, k, device=dev, dtype=torch.float32)
                    topi = torch.randint(0, E, (T, k), device=dev)
                    order = torch.argsort(topi.flatten(), stable=True)
                    inv = torch.argsort(order)
                    offs = torch.empty(E, device=dev, dtype=torch.int32)
                    xs = torch.empty(R, H, device=dev, dtype=bf16)
                    h = torch.empty(R, 2 * I, device=dev, dtype=bf16)
                    act = torch.empty(R, I, device=dev, dtype=bf16)
                    y = torch.empty(R, H, device=dev, dtype=bf16)
                    o = torch.empty(T, H, device=dev, dtype=bf16)
                    ones = torch.ones(R, device=dev, dtype=torch.int32)
                    cnt = torch.zeros(E, device=dev, dtype=torch.int32)
                    # a uniform draw for the timed routes (the router's own top-k on random logits is not balanced)
                    fixed_ids = torch.randint(0, E, (T, k), device=dev)

                    def router():
                        torch.matmul(x, wg.t(), out=logits)
                        p = torch.softmax(logits.float(), dim=-1)
                        w, _ = torch.topk(p, k, dim=-1)
                        topw.copy_(w / w.sum(-1, keepdim=True))

                    def sort():
                        flat = fixed_ids.flatten()
                        order.copy_(torch.argsort(flat, stable=True))
                        cnt.zero_()
                        cnt.scatter_add_(0, flat, ones)
                        offs.copy_(torch.cumsum(cnt, 0, dtype=torch.int32))
                        if a.set == 2:
                            inv.copy_(torch.argsort(order))

                    def gather():
                        torch.index_select(x, 0, order // k, out=xs)

                    if dtype == "fp8":
                        xq = torch.empty(R, H, device=dev, dtype=f8)
                        sx = torch.empty(R, device=dev, dtype=torch.float32)
                        aq = torch.empty(R, I, device=dev, dtype=f8)
                        sa = torch.empty(R, device=dev, dtype=torch.float32)

                        def gate_up():
                            amax = xs.abs().amax(dim=-1).float().clamp(min=1e-4)
                            sx.copy_(amax / 448.0)
                            xq.copy_((xs.float() / sx[:, None]).to(f8))
                            h.copy_(torch._scaled_grouped_mm(xq, w1q, sx, s1, offs=offs, out_dtype=bf16))

                        def down():
                            amax = act.abs().amax(dim=-1).float().clamp(min=1e-4)
                            sa.copy_(amax / 448.0)
                            aq.copy_((act.float() / sa[:, None]).to(f8))
                            y.copy_(torch._scaled_grouped_mm(aq, w2q, sa, s2, offs=offs, out_dtype=bf16))
                    else:
                        def gate_up():
                            h.copy_(torch._grouped_mm(xs, w1t, offs=offs, out_dtype=bf16))

                        def down():
                            y.copy_(torch._grouped_mm(act, w2t, offs=offs, out_dtype=bf16))

                    def activation():
                        torch.mul(F.silu(h[:, :I]), h[:, I:], out=act)

                    def combine():
                        wsorted = topw.flatten()[order].to(bf16)
                        o.zero_()
                        o.index_add_(0, order // k, y * wsorted[:, None])

                    def combine_sum():
                        yv = torch.index_select(y, 0, inv).view(T, k, H)
                        torch.sum(yv * topw.to(bf16)[:, :, None], dim=1, out=o)

                    fns = {"router": router, "sort": sort, "gather": gather, "gate_up": gate_up, "act": activation,
                           "down": down, "combine": combine, "combine_sum": combine_sum}

                    def layer():
                        for p in PIECES:
                            fns[p]()
                    layer()
                    torch.cuda.synchronize()
                    reps = (a.reps * (3 if a.set == 2 and T <= 256 else 1)) if T <= 2048 else max(5, a.reps // 4)
                    pt = {"model": name, "dtype": dtype, "experts": E, "top_k": k, "hidden": H, "inter": I, "tokens": T,
                          "tokens_per_expert": R / E, "reps": reps, "seconds": {}}
                    for p in PIECES:
                        pt["seconds"][p] = timed_graph(fns[p], reps)
                    pt["seconds"]["layer"] = timed_graph(layer, reps)
                    pt["seconds"]["eager"] = timed_eager(layer, reps)
                    if a.set == 2 and dtype == "bf16" and name == MODELS[0][0]:
                        # the dense reference: Llama 3.1 8B's MLP at the same tokens
                        dw1 = torch.randn(2 * 14336, 4096, device=dev, dtype=bf16) * 0.02
                        dw2 = torch.randn(4096, 14336, device=dev, dtype=bf16) * 0.02
                        dx = torch.randn(T, 4096, device=dev, dtype=bf16)
                        dh = torch.empty(T, 2 * 14336, device=dev, dtype=bf16)
                        da = torch.empty(T, 14336, device=dev, dtype=bf16)
                        dy = torch.empty(T, 4096, device=dev, dtype=bf16)

                        def dense_up():
                            torch.matmul(dx, dw1.t(), out=dh)

                        def dense_act():
                            torch.mul(F.silu(dh[:, :14336]), dh[:, 14336:], out=da)

                        def dense_down():
                            torch.matmul(da, dw2.t(), out=dy)

                        def dense_mlp():
                            dense_up(); dense_act(); dense_down()
                        pt["dense_reference"] = {"model": "llama-3.1-8b mlp", "up": timed_graph(dense_up, reps),
                                                 "act": timed_graph(dense_act, reps), "down": timed_graph(dense_down, reps),
                                                 "mlp": timed_graph(dense_mlp, reps)}
                        del dw1, dw2, dx, dh, da, dy
                    gemm = pt["seconds"]["gate_up"] + pt["seconds"]["down"]
                    pt["gemm_share_of_layer"] = gemm / pt["seconds"]["layer"]
                    pt["gemm_tflops"] = 2 * R * H * 3 * I / gemm / 1e12
                    wbytes = E * 3 * H * I * (1 if dtype == "fp8" else 2)
                    pt["weight_read_tb_s"] = wbytes / gemm / 1e12
                    out["points"].append(pt)
                    print("%-22s %s T=%6d  layer %8.1f us  gemm %8.1f us (%.0f%%)  eager %8.1f us  %s" % (
                        name, dtype, T, pt["seconds"]["layer"] * 1e6, gemm * 1e6, 100 * pt["gemm_share_of_layer"],
                        pt["seconds"]["eager"] * 1e6,
                        " ".join("%s %.1f" % (p, pt["seconds"][p] * 1e6) for p in PIECES)), flush=True)
                    del x, logits, topw, topi, order, inv, offs, xs, h, act, y, o
                except Exception as e:
                    out["errors"].append({"model": name, "dtype": dtype, "tokens": T,
                                          "error": "%s: %s" % (type(e).__name__, str(e)[:400]),
                                          "trace": traceback.format_exc()[-1200:]})
                    print("ERROR", name, dtype, T, type(e).__name__, str(e)[:200], flush=True)
                torch.cuda.empty_cache()
            wg = w1 = w2 = w1t = w2t = w1q = w2q = None
            torch.cuda.empty_cache()
            with open(path, "w") as f:
                json.dump(out, f, indent=1)
    out["elapsed_s"] = time.time() - start
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("moe_layer done: %d points, %d errors, %.0f s" % (len(out["points"]), len(out["errors"]), out["elapsed_s"]))


if __name__ == "__main__":
    main()
