"""Where an HF transformers eager decode step's time goes on this host:
the cost of one tiny CUDA op launched from Python, the kernels one decode
step launches (torch.profiler), and the step's time. Writes JSON to $OUT."""
import json, os, time, platform, subprocess
import torch, transformers
from transformers import AutoConfig, AutoModelForCausalLM
out = {"torch": torch.__version__, "transformers": transformers.__version__, "python": platform.python_version(),
       "gpu": torch.cuda.get_device_name(0), "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
try:
    out["cpu"] = [l for l in open("/proc/cpuinfo").read().split("\n") if l.startswith("model name")][0]
    out["nproc"] = os.cpu_count()
except Exception as e:
    out["cpu"] = str(e)
def save():
    json.dump(out, open(os.path.join(os.environ.get("OUT", "."), "hostops.json"), "w"), indent=1)
x = torch.zeros(16, device="cuda"); a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
def loop(fn, n=20000):
    for _ in range(200): fn()
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): fn()
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n
out["us_per_add_"] = 1e6 * loop(lambda: x.add_(1))
out["us_per_mul"] = 1e6 * loop(lambda: x * 2)
out["us_per_matmul_64"] = 1e6 * loop(lambda: a @ a)
out["us_per_linear_64"] = 1e6 * loop(lambda: torch.nn.functional.linear(a, a))
print(json.dumps(out)); save()
out["models"] = []
for name in ["llama-3.2-1b", "llama-3.1-8b"]:
    cfg = AutoConfig.from_pretrained(f"estimator/testdata/configs/{name}.json")
    with torch.device("cuda"):
        m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
    m.eval(); m.generation_config.eos_token_id = None; m.generation_config.pad_token_id = 0
    r = {"model": name, "layers": cfg.num_hidden_layers}
    for b in [1, 8]:
        ids = torch.randint(100, 20000, (b, 512), device="cuda")
        with torch.no_grad():
            m.generate(ids, max_new_tokens=8, min_new_tokens=8, do_sample=False)
            torch.cuda.synchronize()
            t0 = time.perf_counter(); m.generate(ids, max_new_tokens=1, min_new_tokens=1, do_sample=False); torch.cuda.synchronize(); t1 = time.perf_counter() - t0
            t0 = time.perf_counter(); m.generate(ids, max_new_tokens=65, min_new_tokens=65, do_sample=False); torch.cuda.synchronize(); t65 = time.perf_counter() - t0
            # one bare forward decode step with a cache, outside generate()
            o = m(ids, use_cache=True); pkv = o.past_key_values; nxt = o.logits[:, -1:].argmax(-1)
            torch.cuda.synchronize()
            for _ in range(3):
                o = m(nxt, past_key_values=pkv, use_cache=True); pkv = o.past_key_values
            torch.cuda.synchronize(); t0 = time.perf_counter()
            for _ in range(20):
                o = m(nxt, past_key_values=pkv, use_cache=True); pkv = o.past_key_values
            torch.cuda.synchronize(); fwd = (time.perf_counter() - t0) / 20
            from torch.profiler import profile, ProfilerActivity
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                m.generate(ids, max_new_tokens=5, min_new_tokens=5, do_sample=False); torch.cuda.synchronize()
            ev = prof.key_averages()
            launches = sum(e.count for e in ev if e.key in ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx"))
            aten = sum(e.count for e in ev if e.key.startswith("aten::"))
            kernels = sum(e.count for e in ev if getattr(e, "device_type", None) is not None and str(e.device_type).endswith("CUDA"))
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof1:
                m.generate(ids, max_new_tokens=1, min_new_tokens=1, do_sample=False); torch.cuda.synchronize()
            ev1 = prof1.key_averages()
            launches1 = sum(e.count for e in ev1 if e.key in ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx"))
            aten1 = sum(e.count for e in ev1 if e.key.startswith("aten::"))
            top = sorted(((e.key, e.count) for e in ev if e.key.startswith("aten::")), key=lambda kv: -kv[1])[:40]
        r[f"b{b}"] = {"ttft_s": t1, "gen65_s": t65, "tpot_generate_s": (t65 - t1) / 64, "forward_step_s": fwd,
                      "launches_5tok": launches, "launches_1tok": launches1, "launches_per_decode_step": (launches - launches1) / 4,
                      "aten_per_decode_step": (aten - aten1) / 4, "aten_top_5tok": top}
        print(json.dumps({name: r[f"b{b}"]}, default=str)[:1500]); out["models"] = out["models"] + [] ; save()
    out["models"].append(r); save()
    del m; torch.cuda.empty_cache()
save()
