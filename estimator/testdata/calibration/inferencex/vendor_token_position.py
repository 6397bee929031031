#!/usr/bin/env python3
"""Writes inferencex_token_position_points.csv: InferenceX's experimental
vLLM long-prompt sweep ("token position"), one row per result file
(README.md, "vLLM long prompts").

Usage: vendor_token_position.py INFERENCEX_CHECKOUT > inferencex_token_position_points.csv

INFERENCEX_CHECKOUT is a clone of SemiAnalysisAI/InferenceX; the results are
read with `git show` at COMMIT. Nothing is computed here beyond parsing and
unit conversion (seconds to milliseconds, the client's output tokens/s over
the copy's GPUs).
"""
import csv
import json
import re
import subprocess
import sys
import zlib

COMMIT = "843c6254f"  # the checkout's HEAD read; the results landed in #709 (5969d0ad2, 2026-02-18)
DIR = "experimental/token_position_decode_slo"

# Result file prefix → (model as the replay names it, hardware, precision,
# TP, EP, attention DP, what the serve script says). MiniMax-M2.5: the
# server's sbatch (serve_minimax_tep8_sbatch.sh) runs on the cluster's h200
# partition, `vllm serve MiniMaxAI/MiniMax-M2.5 --tensor-parallel-size 8
# --enable-expert-parallel`, vLLM from the wheel of commit dea63512 (no
# --kv-cache-dtype: the checkpoint's FP8 weights, a BF16 KV cache); "tep8"
# is that layout and "dep8" the same eight GPUs with attention data
# parallelism (InferenceX's recipe names; the dep8 serve script is not in
# the repository). GLM-5 ran on a partition the scripts do not name, with
# MTP; Qwen3.5-397B-A17B is no catalog model: neither is kept.
CONFIGS = {
    "minimax_m25_vllm_tep8": ("MiniMaxAI/MiniMax-M2.5", "h200", "fp8", "8", "8", "false"),
    "minimax_m25_vllm_dep8": ("MiniMaxAI/MiniMax-M2.5", "h200", "fp8", "8", "8", "true"),
}

COLS = ["source", "source_commit", "path", "model", "hardware", "framework", "image", "precision", "tp", "ep", "dp_attention",
        "isl", "osl", "conc", "num_prompts", "duration_s", "ttft_median_ms", "ttft_p99_ms", "tpot_median_ms", "tpot_p99_ms",
        "e2el_median_ms", "tput_per_gpu_output_tok_s", "kv_dtype", "engine_version", "run_date", "split"]

NAME = re.compile(r"^(?P<cfg>.+)_isl(?P<isl>\d+)_osl(?P<osl>\d+)_conc(?P<conc>\d+)\.json$")


def git(checkout, *args):
    return subprocess.run(["git", "-C", checkout, *args], check=True, capture_output=True, text=True).stdout


def split(row):
    # Deterministic, by configuration, over the key the dashboard rows'
    # split hashes (README.md "Split"), here with crc32 mod 10: 0–6 test,
    # 7–9 held back. Nothing is fitted on these rows.
    key = "|".join(row[k] for k in ("hardware", "framework", "precision", "tp", "ep", "dp_attention", "isl", "osl", "conc"))
    return "test" if zlib.crc32(key.encode()) % 10 < 7 else "heldback"


def main():
    checkout = sys.argv[1]
    w = csv.DictWriter(sys.stdout, COLS, lineterminator="\n")
    w.writeheader()
    rows = []
    for path in git(checkout, "ls-tree", "-r", "--name-only", COMMIT, DIR).split():
        if "/results/" not in path:
            continue
        m = NAME.match(path.rsplit("/", 1)[1])
        if not m or m["cfg"] not in CONFIGS:
            continue
        model, hw, prec, tp, ep, dp = CONFIGS[m["cfg"]]
        r = json.loads(git(checkout, "show", COMMIT + ":" + path))
        if r["completed"] != r["num_prompts"] or r["max_concurrency"] != int(m["conc"]):
            continue
        date = r["date"]  # YYYYMMDD-HHMMSS
        row = {
            "source": "experimental", "source_commit": COMMIT, "path": path, "model": model, "hardware": hw, "framework": "vllm",
            "image": "", "precision": prec, "tp": tp, "ep": ep, "dp_attention": dp, "isl": m["isl"], "osl": m["osl"],
            "conc": m["conc"], "num_prompts": str(r["num_prompts"]), "duration_s": "%.3f" % r["duration"],
            "ttft_median_ms": "%.3f" % (1000 * r["median_ttft"]), "ttft_p99_ms": "%.3f" % (1000 * r["p99_ttft"]),
            "tpot_median_ms": "%.4f" % (1000 * r["median_tpot"]), "tpot_p99_ms": "%.4f" % (1000 * r["p99_tpot"]),
            "e2el_median_ms": "%.3f" % (1000 * r["median_e2el"]),
            "tput_per_gpu_output_tok_s": "%.4f" % (r["output_throughput"] / int(tp)),
            "kv_dtype": "bf16", "engine_version": "", "run_date": "%s-%s-%s" % (date[:4], date[4:6], date[6:8]),
        }
        row["split"] = split(row)
        rows.append(row)
    rows.sort(key=lambda r: (r["model"], r["dp_attention"], int(r["isl"]), int(r["conc"])))
    for r in rows:
        w.writerow(r)


if __name__ == "__main__":
    main()
