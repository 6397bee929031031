"""Measure HF transformers memory and speed on this GPU for Rightsize's
default questions, with randomly initialised weights built from the
public config.json files (the timing and memory of a forward pass do not
depend on the weights' values). Writes one JSON file to $OUT."""
import json, os, sys, time, platform, subprocess, traceback
import torch
from transformers import AutoConfig, AutoModelForCausalLM
import transformers

out = {"torch": torch.__version__, "transformers": transformers.__version__,
       "python": platform.python_version(), "gpu": torch.cuda.get_device_name(0),
       "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": []}
try:
    out["nvidia_smi"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
except Exception as e:
    out["nvidia_smi"] = str(e)
GiB = 2**30
def smi_used():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"], capture_output=True, text=True)
        return float(r.stdout.strip().split("\n")[0])  # MiB
    except Exception:
        return None

def load(cfgpath):
    cfg = AutoConfig.from_pretrained(cfgpath)
    cfg.torch_dtype = torch.bfloat16
    t = time.time()
    with torch.device("cuda"):
        try:
            m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
        except TypeError:
            m = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16, attn_implementation="sdpa")
    torch.cuda.synchronize()
    return m, time.time() - t

def save():
    with open(os.path.join(os.environ.get("OUT", "."), "hf_h100_measurements.json"), "w") as f:
        json.dump(out, f, indent=1)

def infer(name, cfgpath, batches, prompt, gen):
    torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    m, secs = load(cfgpath)
    m.eval()
    m.generation_config.eos_token_id = None
    m.generation_config.pad_token_id = 0
    base = torch.cuda.memory_allocated()
    for b in batches:
        torch.cuda.reset_peak_memory_stats()
        ids = torch.randint(100, 20000, (b, prompt), device="cuda")
        with torch.no_grad():
            m.generate(ids, max_new_tokens=4, min_new_tokens=4, do_sample=False)  # warm-up
            torch.cuda.synchronize()
            # prefill + first token
            t0 = time.time()
            m.generate(ids, max_new_tokens=1, min_new_tokens=1, do_sample=False)
            torch.cuda.synchronize(); ttft = time.time() - t0
            t0 = time.time()
            m.generate(ids, max_new_tokens=gen, min_new_tokens=gen, do_sample=False)
            torch.cuda.synchronize(); total = time.time() - t0
        r = {"model": name, "task": "inference", "engine": "hf", "dtype": "bf16", "attn": "sdpa", "batch": b,
             "prompt_tokens": prompt, "output_tokens": gen, "ttft_seconds": ttft, "e2e_seconds": total,
             "tpot_seconds": (total - ttft) / (gen - 1), "tokens_per_second_all": b * gen / total,
             "weights_allocated_gib": base / GiB, "peak_allocated_gib": torch.cuda.max_memory_allocated() / GiB,
             "peak_reserved_gib": torch.cuda.max_memory_reserved() / GiB, "nvidia_smi_used_mib": smi_used(), "init_seconds": secs}
        out["runs"].append(r); print(json.dumps(r)); save()
    del m; torch.cuda.empty_cache()

def train(name, cfgpath, task, batch, seq, gc, steps=3):
    torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    m, _ = load(cfgpath)
    if task == "lora":
        from peft import LoraConfig, get_peft_model
        m = get_peft_model(m, LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"], lora_dropout=0.0))
    if gc:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if task == "lora":
            m.enable_input_require_grads()
    m.train()
    params = [p for p in m.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5, fused=True)
    static = torch.cuda.memory_allocated()
    times = []
    for i in range(steps):
        ids = torch.randint(100, 20000, (batch, seq), device="cuda")
        torch.cuda.synchronize(); t0 = time.time()
        loss = m(input_ids=ids, labels=ids).loss
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize(); times.append(time.time() - t0)
    r = {"model": name, "task": task, "dtype": "bf16 weights, AdamW fused (fp32 states for bf16 params as torch keeps them: param dtype)",
         "batch": batch, "seq": seq, "grad_checkpointing": gc, "lora": "r16 q_proj,v_proj" if task == "lora" else None,
         "trainable_params": sum(p.numel() for p in params), "static_allocated_gib": static / GiB,
         "peak_allocated_gib": torch.cuda.max_memory_allocated() / GiB, "peak_reserved_gib": torch.cuda.max_memory_reserved() / GiB,
         "nvidia_smi_used_mib": smi_used(), "step_seconds": times, "tokens_per_second": batch * seq / min(times[1:] or times)}
    out["runs"].append(r); print(json.dumps(r)); save()
    del m, opt; torch.cuda.empty_cache()

C = "estimator/testdata/configs/"
OUTNAME = "hf_h100_measurements_2.json"
def save():
    with open(os.path.join(os.environ.get("OUT", "."), OUTNAME), "w") as f:
        json.dump(out, f, indent=1)
for job in [
    lambda: infer("llama-3.1-8b", C + "llama-3.1-8b.json", [1], 16384, 32),
    lambda: infer("qwen2.5-3b", C + "qwen2.5-3b.json", [1, 16], 1024, 64),
    lambda: train("llama-3.1-8b", C + "llama-3.1-8b.json", "lora", 2, 4096, True),
    lambda: train("qwen2.5-3b", C + "qwen2.5-3b.json", "finetune", 2, 4096, True),
    lambda: train("qwen2.5-3b", C + "qwen2.5-3b.json", "finetune", 1, 2048, False),
    lambda: train("llama-3.2-1b", C + "llama-3.2-1b.json", "finetune", 8, 4096, True),
]:
    try:
        job()
    except Exception as e:
        out["runs"].append({"error": traceback.format_exc()[-2000:]}); save()
        torch.cuda.empty_cache()
save()
print("done")
