"""Prefill time of whole MoE models on one lent GPU: HF transformers' forward
(SDPA attention, experts through torch._grouped_mm where the installed
transformers offers that experts backend, else its default), batch 1, no KV
cache kept, logits of the last token only, over prompts of 512 to 16,384
tokens; randomly initialised BF16 weights from moe_configs.json (the
catalog's configs). The median of 3 timed passes after 1 warm-up (CUDA
events), each on its own random prompt. The dense counterpart is
prefill.py; together they say whether a MoE model's prefill runs as far
below the step model as the serving engines' first tokens do. Writes
$OUT/moe_prefill.json after every point."""
import argparse, json, os, platform, time, traceback

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ["qwen3-30b-a3b", "gpt-oss-20b", "mixtral-8x7b"]
LENGTHS = [512, 2048, 8192, 16384]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=150)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    a = ap.parse_args()
    import torch, transformers
    from transformers import AutoConfig, AutoModelForCausalLM
    cfgs = json.load(open(os.path.join(HERE, "moe_configs.json")))
    start = time.time()
    out = {"env": {"torch": torch.__version__, "transformers": transformers.__version__, "gpu": torch.cuda.get_device_name(0),
                   "python": platform.python_version(), "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
           "method": "model(input_ids, use_cache=False, logits_to_keep=1) under torch.inference_mode; median of 3 after 1 warm-up",
           "points": [], "errors": []}
    path = os.path.join(a.out, "moe_prefill.json")
    for name in MODELS:
        if time.time() - start > a.budget_s:
            break
        m = None
        try:
            d = dict(cfgs[name])
            mt = d.pop("model_type")
            cfg = AutoConfig.for_model(mt, **d)
            impl = "grouped_mm"
            t0 = time.time()
            with torch.device("cuda"):
                try:
                    m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa",
                                                         experts_implementation="grouped_mm")
                except TypeError as e:
                    impl = "default (%s)" % str(e)[:120]
                    m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
            m.eval()
            params = sum(p.numel() for p in m.parameters())
            print("%s: %.2f B params, experts %s, built in %.0f s, %.1f GB allocated" % (
                name, params / 1e9, impl, time.time() - t0, torch.cuda.memory_allocated() / 1e9), flush=True)
            for n in LENGTHS:
                if time.time() - start > a.budget_s:
                    break
                times = []
                with torch.inference_mode():
                    for i in range(4):
                        ids = torch.randint(100, 30000, (1, n), device="cuda")
                        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        s.record()
                        m(input_ids=ids, use_cache=False, logits_to_keep=1)
                        e.record()
                        torch.cuda.synchronize()
                        if i >= 1:
                            times.append(s.elapsed_time(e) / 1000)
                times.sort()
                p = {"model": name, "params": params, "experts_implementation": impl, "tokens": n,
                     "seconds_median": times[len(times) // 2], "seconds": times,
                     "peak_allocated_gb": torch.cuda.max_memory_allocated() / 1e9}
                out["points"].append(p)
                print("  %6d tokens: %.1f ms" % (n, 1e3 * p["seconds_median"]), flush=True)
                with open(path, "w") as f:
                    json.dump(out, f, indent=1)
        except Exception as e:
            out["errors"].append({"model": name, "error": "%s: %s" % (type(e).__name__, str(e)[:400]),
                                  "trace": traceback.format_exc()[-1500:]})
            print("ERROR", name, type(e).__name__, str(e)[:300], flush=True)
        del m
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
    out["elapsed_s"] = time.time() - start
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("moe_prefill done: %d points, %d errors, %.0f s" % (len(out["points"]), len(out["errors"]), out["elapsed_s"]))


if __name__ == "__main__":
    main()
