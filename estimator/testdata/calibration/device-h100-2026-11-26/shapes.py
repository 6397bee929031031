"""HF transformers generate() decode step on an H100, cold and warm
sequence-length shapes, with PyTorch's cuDNN attention backend on and off
(random weights from the public configs)."""
import json, os, time
import torch, transformers
from transformers import AutoConfig, AutoModelForCausalLM
out = {"transformers": transformers.__version__, "torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "rows": []}
def save():
    json.dump(out, open(os.path.join(os.environ.get("OUT", "."), "shapes.json"), "w"), indent=1)
def tpot(m, prompt, n=33):
    ids = torch.randint(100, 20000, (1, prompt), device="cuda")
    with torch.no_grad():
        t0 = time.perf_counter(); m.generate(ids, max_new_tokens=1, min_new_tokens=1, do_sample=False); torch.cuda.synchronize(); t1 = time.perf_counter() - t0
        t0 = time.perf_counter(); m.generate(ids, max_new_tokens=n, min_new_tokens=n, do_sample=False); torch.cuda.synchronize(); tn = time.perf_counter() - t0
    return (tn - t1) / (n - 1)
for name in ["llama-3.2-1b", "llama-3.1-8b"]:
    cfg = AutoConfig.from_pretrained(f"estimator/testdata/configs/{name}.json")
    with torch.device("cuda"):
        m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
    m.eval(); m.generation_config.eos_token_id = None; m.generation_config.pad_token_id = 0
    tpot(m, 300, 4)  # load kernels
    for cudnn in [True, False]:
        torch.backends.cuda.enable_cudnn_sdp(cudnn)
        p = 1000 if cudnn else 2000  # lengths no earlier run has seen
        cold = tpot(m, p); warm = tpot(m, p)
        r = {"model": name, "batch": 1, "prompt_tokens": p, "output_tokens": 33, "cudnn_sdp": cudnn, "tpot_cold_shapes_s": cold, "tpot_warm_shapes_s": warm}
        out["rows"].append(r); print(json.dumps(r), flush=True); save()
    torch.backends.cuda.enable_cudnn_sdp(True)
    del m; torch.cuda.empty_cache()
save()
