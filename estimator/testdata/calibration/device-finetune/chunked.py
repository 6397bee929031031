"""Two questions of the GPUStack burst rows (calibration README, the round
after the H200 runs): (1) how fast attention runs for a chunked prefill's
chunk over a long cached prefix, and (2) how fast a whole-model prefill
runs when the GPU is kept busy for tens of seconds (clocks under the
power cap), against the same prefill timed alone.

(1) SDPA with a bottom-right causal mask (torch.nn.attention.bias.
causal_lower_right: the chunk's queries see the whole prefix and the
chunk causally), Qwen3-14B's heads (40 query, 8 KV, head dim 128, GQA
expanded as SDPA needs) and Llama-3.1-8B's (32, 8), chunk 2048 and 8192
tokens over prefixes of 0 to 24,576, on SDPA's cuDNN, flash and
memory-efficient backends; FLOPs counted as 4 · Lq · (P + Lq/2) · D · H.
(2) Qwen2.5-7B, 8,192-token prompts, forward after forward for 20 s with
nvidia-smi sampling the SM clock, power and throttle reasons every 200 ms.
Writes $OUT/chunked.json after every point."""
import argparse, json, os, subprocess, time, traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.normpath(os.path.join(HERE, "..", "..", "configs"))


def bench(fn, n=10):
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / 1000)
    ts.sort()
    return ts[len(ts) // 2], ts[0], ts[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--budget-s", type=float, default=90)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    heads = [("qwen3-14b", 40, 8), ("llama-3.1-8b", 32, 8)]
    chunks, prefixes = [2048, 8192], [0, 4096, 8192, 16384, 24576]
    if a.dry_run:
        print(len(heads) * len(chunks) * len(prefixes) * 3, "attention points + 1 sustained run")
        return
    import torch, torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.attention.bias import causal_lower_right
    start = time.time()
    out = {"env": {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "cudnn": torch.backends.cudnn.version(),
                   "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, "attention": [], "sustained": {}}
    path = os.path.join(a.out, "chunked.json")

    def save():
        with open(path, "w") as f:
            json.dump(out, f, indent=1)

    backends = [("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION), ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
    for name, hq, hkv in heads:
        for lq in chunks:
            for p in prefixes:
                if time.time() - start > a.budget_s * 0.6:
                    break
                lk = p + lq
                q = torch.randn(1, hq, lq, 128, device="cuda", dtype=torch.bfloat16)
                k = torch.randn(1, hkv, lk, 128, device="cuda", dtype=torch.bfloat16).repeat_interleave(hq // hkv, dim=1)
                v = torch.randn_like(k)
                mask = causal_lower_right(lq, lk)
                flops = 4 * lq * (p + lq / 2) * 128 * hq
                for bname, b in backends:
                    rec = {"heads": name, "q_heads": hq, "kv_heads": hkv, "chunk": lq, "prefix": p, "backend": bname, "flops": flops}
                    try:
                        with sdpa_kernel([b]):
                            med, lo, hi = bench(lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
                        rec.update({"seconds_median": med, "seconds_min": lo, "seconds_max": hi, "tflops": flops / med / 1e12})
                    except Exception as e:
                        rec["error"] = repr(e)[:300]
                    out["attention"].append(rec)
                    print(json.dumps(rec), flush=True)
                save()
                del q, k, v
                torch.cuda.empty_cache()
    # (2) sustained prefill
    try:
        from transformers import AutoConfig, AutoModelForCausalLM
        cfg = AutoConfig.from_pretrained(os.path.join(CONFIGS, "qwen2.5-7b.json"))
        with torch.device("cuda"):
            m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
        m.eval()
        ids = torch.randint(100, 30000, (1, 8192), device="cuda")
        with torch.inference_mode():
            alone = bench(lambda: m(input_ids=ids, use_cache=False, logits_to_keep=1), n=5)
            time.sleep(2)  # let the clocks settle back
            smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active",
                                    "--format=csv,noheader", "-lms", "200"], stdout=subprocess.PIPE, text=True)
            slices, t0 = [], time.time()
            while time.time() - t0 < 20:
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                for _ in range(4):
                    m(input_ids=ids, use_cache=False, logits_to_keep=1)
                e.record(); torch.cuda.synchronize()
                slices.append({"t_s": time.time() - t0, "seconds_per_forward": s.elapsed_time(e) / 4000})
            smi.terminate()
            samples = smi.communicate(timeout=5)[0].strip().split("\n")
        out["sustained"] = {"model": "qwen2.5-7b", "tokens": 8192, "alone_seconds_median_min_max": alone, "slices": slices,
                            "nvidia_smi_fields": "timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active",
                            "nvidia_smi_samples": samples}
        print(json.dumps({"alone": alone, "last": slices[-3:], "smi_last": samples[-3:]}), flush=True)
    except Exception:
        out["sustained"] = {"error": traceback.format_exc()[-1200:]}
    save()
    print("done in %.0f s" % (time.time() - start))


if __name__ == "__main__":
    main()
