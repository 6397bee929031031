#!/usr/bin/env python3
"""Writes inferencex_blog_points.csv: the single-replica (aggregated) serving
tables of four InferenceX-app blog posts, one row per table cell, with the
setting each table ran under as InferenceX's recipes of that date say
(README.md, "Blog tables").

Usage: vendor_blog.py BLOG_TABLE_POINTS_CSV > inferencex_blog_points.csv

BLOG_TABLE_POINTS_CSV is inferencex_blog_table_points.csv as staged from
SemiAnalysisAI/InferenceX-app (extract_inferencex.py there). Nothing is
computed here beyond parsing: the posts print total (input + output) tokens
a second per GPU, kept as printed; the replay derives the output share.
"""
import csv
import sys

BASE = "https://github.com/SemiAnalysisAI/InferenceX-app/blob/{commit}/{path}"

# post file → (run date, split) and, per caption prefix, the setting:
# (hardware, framework, model, precision, tp, ep, kv dtype, engine release,
# max batched tokens). Settings read from SemiAnalysisAI/InferenceX
# .github/configs/nvidia-master.yaml and benchmarks/single_node/
# kimik2.5_{int4,fp4}_{h200,b200}.sh at the run's date (README.md).
POSTS = {
    "b200-nvfp4-vs-h200-int4-kimi-k2-vllm-perf-per-dollar.mdx": ("2026-05-19", "test", [
        ("**H200 vLLM INT4 (TP=8)**", ("h200", "vllm", "moonshotai/Kimi-K2.5", "int4", None, "1", "bf16", "0.21.0", "")),
        ("**B200 vLLM INT4 (TP=8)**", ("b200", "vllm", "moonshotai/Kimi-K2.5", "int4", None, "1", "bf16", "0.21.0", "")),
        ("**B200 vLLM NVFP4 (TP=4 + TP=8)**", ("b200", "vllm", "nvidia/Kimi-K2.5-NVFP4", "fp4", None, "1", "fp8", "0.21.0", "16384")),
    ]),
    "gb200-nvl72-kimi-k2-5-vllm-wide-ep-3x-vs-b200.mdx": ("2026-03-27", "heldback", [
        # The config says TP 4 EP 4; the script of that date passes no
        # --enable-expert-parallel, so vLLM shards the experts TP 4 ways.
        ("B200 vLLM, 2026-03-27 run, non disaggregated", ("b200", "vllm", "nvidia/Kimi-K2.5-NVFP4", "fp4", "4", "1", "bf16", "0.17.0", "")),
    ]),
    # MiniMax-M2.5 at 8k/1k, run of 2026-05-22: H100 vLLM v0.19.1-cu130 TP 8
    # with --enable-expert-parallel and no KV dtype; B200 vLLM v0.21.0 FP8
    # and NVFP4 with --kv-cache-dtype fp8 and --max-num-batched-tokens
    # 2 × ISL, EP only where the config names one (NVFP4 TP 2 at 128–512).
    "b200-minimax-m2-5-vllm-nvfp4-vs-h100-fp8-perf-per-dollar.mdx": ("2026-05-22", "test", [
        ("**H100 vLLM FP8, TP=8 on 8 GPUs**", ("h100", "vllm", "MiniMaxAI/MiniMax-M2.5", "fp8", "8", "8", "bf16", "0.19.1", "")),
        ("**B200 vLLM FP8, TP=2 on 2 GPUs**", ("b200", "vllm", "MiniMaxAI/MiniMax-M2.5", "fp8", "2", "1", "fp8", "0.21.0", "16384")),
        ("**B200 vLLM FP8, TP=4 on 4 GPUs**", ("b200", "vllm", "MiniMaxAI/MiniMax-M2.5", "fp8", "4", "1", "fp8", "0.21.0", "16384")),
        ("**B200 vLLM NVFP4, TP=2 on 2 GPUs**", ("b200", "vllm", "nvidia/MiniMax-M2.5-NVFP4", "fp4", "2", "2", "fp8", "0.21.0", "16384")),
        ("**B200 vLLM NVFP4, TP=1 on 1 GPU**", ("b200", "vllm", "nvidia/MiniMax-M2.5-NVFP4", "fp4", "1", "1", "fp8", "0.21.0", "16384")),
        ("**B200 vLLM NVFP4, TP=4 and TP=8", ("b200", "vllm", "nvidia/MiniMax-M2.5-NVFP4", "fp4", None, "1", "fp8", "0.21.0", "16384")),
    ]),
    # The post dates its runs 2025-11-10 to 2025-12-31 without saying which
    # table cell ran when: no run date (the replay reads it only on AMD
    # GPUs and TensorRT-LLM).
    "sglang-0-5-6-b200-deepseek-r1-fp4-up-to-1-8x.mdx": ("", "test", [
        ("B200 SGLang, DeepSeek R1 NVFP4, TP 4 / EP 4", ("b200", "sglang", "nvidia/DeepSeek-R1-0528-FP4", "fp4", "4", "4", "", None, "")),
    ]),
}

# The weight format of a checkpoint beyond its precision: Moonshot's INT4
# Kimi K2.5 quantises the routed experts alone (compressed-tensors INT4,
# groups of 32; estimator.Quant.ExpertsOnly).
QUANT = {"moonshotai/Kimi-K2.5": "int4-experts-g32"}

COLS = ["source_url", "posted", "table", "model", "hardware", "framework", "image", "precision", "tp", "ep", "dp_attention", "conc",
        "isl", "osl", "tpot_ms", "tput_per_gpu_output_tok_s", "tput_per_gpu_total_tok_s", "kv_dtype", "engine_version",
        "max_batched_tokens", "quant", "run_date", "split"]


def num(s):
    return s.replace(",", "").replace("*", "").strip()


def main(path):
    w = csv.DictWriter(sys.stdout, COLS, lineterminator="\n")
    w.writeheader()
    for r in csv.DictReader(open(path, newline="")):
        post = r["source_path"].rsplit("/", 1)[-1]
        if post not in POSTS:
            continue
        run_date, split, tables = POSTS[post]
        for prefix, (hw, fw, model, prec, tp, ep, kv, rel, mbt) in tables:
            if not r["table_caption"].startswith(prefix):
                continue
            # The SGLang post's 128-in-flight cells are dashboard rows
            # already in inferencex_serving_points.csv (fit: 2025-12-08…15
            # and 2025-12-31, the same TPOT and throughput): not repeated.
            if fw == "sglang" and num(r["conc"]) == "128":
                continue
            if tp is None:  # the table's first or last cell ("TP=4 / 4 GPUs", "TP=4"), else TP 8
                cells = [c.strip() for c in r["table_row_raw"].split("|")]
                tp = next((c[3:].split("/")[0].strip() for c in (cells[0], cells[-1]) if c.startswith("TP=")), "8")
            if rel is None:
                rel = r["version_in_table"].strip()
            w.writerow({
                "source_url": BASE.format(commit=r["source_commit"], path=r["source_path"]), "posted": r["post_date"],
                "table": r["table_caption"][:120].replace("**", "").strip(), "model": model, "hardware": hw, "framework": fw,
                "image": "", "precision": prec, "tp": tp, "ep": ep, "dp_attention": "false", "conc": num(r["conc"]),
                "isl": r["isl_parsed"], "osl": r["osl_parsed"], "tpot_ms": num(r["tpot_ms"]), "tput_per_gpu_output_tok_s": "",
                "tput_per_gpu_total_tok_s": num(r["tput_per_gpu_tok_s"]), "kv_dtype": kv, "engine_version": rel,
                "max_batched_tokens": mbt, "quant": QUANT.get(model, ""), "run_date": run_date, "split": split})


if __name__ == "__main__":
    main(sys.argv[1])
