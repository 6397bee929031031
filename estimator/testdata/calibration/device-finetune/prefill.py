"""Prefill time of whole models on one lent GPU: HF transformers' forward
pass (SDPA attention, no KV cache kept, logits of the last token only) at
batch 1 over prompts of 512 to 16,384 tokens, randomly initialised bf16
weights from ../../configs/. The median of 5 timed passes after 2 warm-ups
(CUDA events), each on its own random prompt. It is the model's compute at
the kernels PyTorch picks, without an engine's scheduling, tokeniser or
HTTP: the floor under a serving engine's time to first token. Writes
$OUT/prefill.json after every point."""
import argparse, json, os, platform, time, traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.normpath(os.path.join(HERE, "..", "..", "configs"))
MODELS = [("llama-3.1-8b", "llama-3.1-8b.json"), ("qwen2.5-7b", "qwen2.5-7b.json"), ("llama-3.2-1b", "llama-3.2-1b.json")]
LENGTHS = [512, 1024, 2048, 4096, 8192, 16384]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget-s", type=float, default=60)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    if a.dry_run:
        for _, f in MODELS:
            assert os.path.exists(os.path.join(CONFIGS, f)), f
        print(len(MODELS) * len(LENGTHS), "points")
        return
    import torch, transformers
    from transformers import AutoConfig, AutoModelForCausalLM
    start = time.time()
    out = {"env": {"torch": torch.__version__, "transformers": transformers.__version__, "gpu": torch.cuda.get_device_name(0),
                   "python": platform.python_version(), "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
           "method": "model(input_ids, use_cache=False, logits_to_keep=1) under torch.inference_mode; median of 5 after 2 warm-ups",
           "points": []}
    path = os.path.join(a.out, "prefill.json")
    for name, f in MODELS:
        if time.time() - start > a.budget_s:
            break
        try:
            cfg = AutoConfig.from_pretrained(os.path.join(CONFIGS, f))
            with torch.device("cuda"):
                m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
            m.eval()
            params = sum(p.numel() for p in m.parameters())
            for n in LENGTHS:
                if time.time() - start > a.budget_s:
                    break
                times = []
                with torch.inference_mode():
                    for i in range(7):
                        ids = torch.randint(100, 30000, (1, n), device="cuda")
                        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        s.record()
                        m(input_ids=ids, use_cache=False, logits_to_keep=1)
                        e.record()
                        torch.cuda.synchronize()
                        if i >= 2:
                            times.append(s.elapsed_time(e) / 1000)
                times.sort()
                p = {"model": name, "params": params, "tokens": n, "seconds_median": times[len(times) // 2],
                     "seconds_min": times[0], "seconds_max": times[-1],
                     "linear_tflops_at_median": 2 * params * n / times[len(times) // 2] / 1e12}
                out["points"].append(p)
                print(json.dumps(p), flush=True)
                with open(path, "w") as fh:
                    json.dump(out, fh, indent=1)
            del m
            torch.cuda.empty_cache()
        except Exception:
            out["points"].append({"model": name, "error": traceback.format_exc()[-1200:]})
            torch.cuda.empty_cache()
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
