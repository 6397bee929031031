"""Where transformers' generate() spends a decode step beyond the model's
forward: cProfile of generate on Llama 3.2 1B (random weights), with and
without an attention mask, and a bare forward loop for reference."""
import json, os, time, cProfile, pstats, io
import torch, transformers
from transformers import AutoConfig, AutoModelForCausalLM
out = {"transformers": transformers.__version__, "torch": torch.__version__}
cfg = AutoConfig.from_pretrained("estimator/testdata/configs/llama-3.2-1b.json")
with torch.device("cuda"):
    m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
m.eval(); m.generation_config.eos_token_id = None; m.generation_config.pad_token_id = 0
ids = torch.randint(100, 20000, (1, 512), device="cuda")
mask = torch.ones_like(ids)
def tpot(**kw):
    with torch.no_grad():
        m.generate(ids, max_new_tokens=8, do_sample=False, **kw); torch.cuda.synchronize()
        t0 = time.perf_counter(); m.generate(ids, max_new_tokens=1, do_sample=False, **kw); torch.cuda.synchronize(); t1 = time.perf_counter() - t0
        t0 = time.perf_counter(); m.generate(ids, max_new_tokens=33, do_sample=False, **kw); torch.cuda.synchronize(); t33 = time.perf_counter() - t0
    return (t33 - t1) / 32
out["tpot_no_mask_no_min"] = tpot()
out["tpot_mask"] = tpot(attention_mask=mask)
out["tpot_min_new_tokens"] = tpot(min_new_tokens=33)
out["tpot_static_cache"] = tpot(cache_implementation="static")
print(json.dumps(out), flush=True)
with torch.no_grad():
    pr = cProfile.Profile(); pr.enable()
    m.generate(ids, max_new_tokens=17, min_new_tokens=17, do_sample=False); torch.cuda.synchronize()
    pr.disable()
s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(45)
out["cprofile_cumulative"] = s.getvalue()[-9000:]
s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
out["cprofile_tottime"] = s.getvalue()[-7000:]
json.dump(out, open(os.path.join(os.environ.get("OUT", "."), "genover.json"), "w"), indent=1)
print(out["cprofile_tottime"][-5000:])
