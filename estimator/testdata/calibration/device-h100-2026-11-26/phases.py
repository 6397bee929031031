"""Where a full fine-tune's peak memory is, phase by phase: HF transformers,
pure bf16 weights, fused AdamW, random weights from the public configs.
Allocated memory after the model, after the forward, at the forward's peak,
after the backward, at the backward's peak and at the optimizer step's peak,
for the third of three steps. Writes JSON to $OUT."""
import json, os, time
import torch, transformers
from transformers import AutoConfig, AutoModelForCausalLM
GiB = 2**30
out = {"torch": torch.__version__, "transformers": transformers.__version__, "gpu": torch.cuda.get_device_name(0), "runs": []}
def save():
    json.dump(out, open(os.path.join(os.environ.get("OUT", "."), "phases.json"), "w"), indent=1)
def run(name, batch, seq, gc):
    torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    cfg = AutoConfig.from_pretrained(f"estimator/testdata/configs/{name}.json")
    with torch.device("cuda"):
        m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
    if gc:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    m.train()
    opt = torch.optim.AdamW([p for p in m.parameters() if p.requires_grad], lr=1e-5, fused=True)
    r = {"model": name, "batch": batch, "seq": seq, "grad_checkpointing": gc,
         "params": sum(p.numel() for p in m.parameters()), "tied": bool(getattr(cfg, "tie_word_embeddings", False)),
         "vocab": cfg.vocab_size, "weights_gib": torch.cuda.memory_allocated() / GiB}
    for step in range(3):
        ids = torch.randint(100, 20000, (batch, seq), device="cuda")
        torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats(); a0 = torch.cuda.memory_allocated()
        out_ = m(input_ids=ids, labels=ids); loss = out_.loss
        torch.cuda.synchronize(); after_fwd = torch.cuda.memory_allocated(); peak_fwd = torch.cuda.max_memory_allocated()
        logits_bytes = out_.logits.numel() * out_.logits.element_size(); logits_dtype = str(out_.logits.dtype)
        del out_
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        torch.cuda.synchronize(); after_bwd = torch.cuda.memory_allocated(); peak_bwd = torch.cuda.max_memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        opt.step()
        torch.cuda.synchronize(); peak_step = torch.cuda.max_memory_allocated(); after_step = torch.cuda.memory_allocated()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize(); after_zero = torch.cuda.memory_allocated()
        if step == 2:
            r.update({"start_gib": a0 / GiB, "after_forward_gib": after_fwd / GiB, "peak_forward_gib": peak_fwd / GiB,
                      "logits_gib": logits_bytes / GiB, "logits_dtype": logits_dtype,
                      "after_backward_gib": after_bwd / GiB, "peak_backward_gib": peak_bwd / GiB,
                      "peak_optimizer_step_gib": peak_step / GiB, "after_step_gib": after_step / GiB, "after_zero_grad_gib": after_zero / GiB})
    out["runs"].append(r); print(json.dumps(r), flush=True); save()
    del m, opt; torch.cuda.empty_cache()
for args in [("qwen2.5-3b", 1, 2048, False), ("llama-3.2-1b", 4, 2048, False), ("qwen2.5-3b", 2, 4096, True)]:
    try:
        run(*args)
    except Exception as e:
        out["runs"].append({"args": list(args), "error": repr(e)[-500:]}); save()
save()
