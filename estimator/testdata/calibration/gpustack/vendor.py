#!/usr/bin/env python3
"""Flatten GPUStack's performance-lab pages into one row per benchmark result.

Usage: vendor.py CHECKOUT [COMMIT] > gpustack_serving_points.csv

CHECKOUT is a git clone of github.com/gpustack/gpustack; COMMIT defaults to
the one named in README.md. Every "Serving Benchmark Result" block of
docs/performance-lab/**.md (vllm bench serve's printout) becomes a row with
the serving command that produced it, the label the page gives the block
inside its code fence ("# random 4K input", "# BS=4", "# --max-num-batched-tokens
8192"), the page's engine versions and the printed figures. Nothing is
computed here beyond the mean lengths (total tokens / requests); which rows
a replay can set up is decided by cmd/rightsize (validate_gpustack.go).
"""
import csv, re, subprocess, sys

COMMIT = "47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d"

FIELDS = [
    ("successful_requests", r"Successful requests:\s+([\d.]+)"),
    ("max_concurrency", r"Maximum request concurrency:\s+([\d.]+)"),
    ("duration_s", r"Benchmark duration \(s\):\s+([\d.]+)"),
    ("total_input_tokens", r"Total input tokens:\s+([\d.]+)"),
    ("total_output_tokens", r"Total generated tokens:\s+([\d.]+)"),
    ("output_tok_s", r"Output token throughput \(tok/s\):\s+([\d.]+)"),
    ("total_tok_s", r"Total Token throughput \(tok/s\):\s+([\d.]+)"),
    ("ttft_mean_ms", r"Mean TTFT \(ms\):\s+([\d.]+)"),
    ("ttft_median_ms", r"Median TTFT \(ms\):\s+([\d.]+)"),
    ("ttft_p99_ms", r"P99 TTFT \(ms\):\s+([\d.]+)"),
    ("tpot_mean_ms", r"Mean TPOT \(ms\):\s+([\d.]+)"),
    ("tpot_median_ms", r"Median TPOT \(ms\):\s+([\d.]+)"),
    ("tpot_p99_ms", r"P99 TPOT \(ms\):\s+([\d.]+)"),
    ("itl_mean_ms", r"Mean ITL \(ms\):\s+([\d.]+)"),
    ("itl_median_ms", r"Median ITL \(ms\):\s+([\d.]+)"),
]


def git(*args):
    return subprocess.run(["git", "-C", sys.argv[1]] + list(args), check=True, capture_output=True, text=True).stdout


def section(text, heading):
    m = re.search(r"^###? " + re.escape(heading) + r"\s*\n(.*?)(?=^##)", text, re.S | re.M)
    return m.group(1).strip() if m else ""


def versions(text):
    out = {}
    for line in section(text, "Engine Version").splitlines():
        m = re.match(r"\s*-\s*(vLLM|SGLang|TensorRT-LLM)\s*:\s*(\S+)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def engine_of(cmd):
    if cmd.startswith("vllm serve"):
        return "vLLM"
    if "sglang.launch_server" in cmd:
        return "SGLang"
    if cmd.startswith("trtllm-serve"):
        return "TensorRT-LLM"
    return ""


def rows(commit):
    pages = [p for p in git("ls-tree", "-r", "--name-only", commit, "docs/performance-lab").split()
             if p.endswith(".md") and "/references/" not in p and not p.endswith("overview.md")]
    for page in sorted(pages):
        text = git("show", f"{commit}:{page}")
        ver = versions(text)
        model = section(text, "Model").splitlines()[0].strip() if section(text, "Model") else ""
        hardware = " ".join(section(text, "Hardware").split())
        lines = text.splitlines()
        cmd, heading, label, block = "", "", "", None
        in_serving = False
        i = 0
        while i < len(lines):
            line = lines[i]
            s = line.strip()
            if s.startswith("### "):
                heading = s[4:]
            if re.match(r'\?\?\?\+? info "[^"]*[Ss]erving script"', s):
                in_serving = True
                label = ""
            elif in_serving and s and not s.startswith("```") and not s.startswith("???"):
                # the command, joined across backslash continuations
                parts = [s]
                while parts[-1].endswith("\\") and i + 1 < len(lines):
                    i += 1
                    parts[-1] = parts[-1][:-1].strip()
                    parts.append(lines[i].strip())
                cmd = " ".join(p for p in parts if p)
                in_serving = False
            elif re.match(r'\?\?\?\+? info "[^"]*[Bb]enchmark result', s):
                label = ""
            elif s.startswith("# ") and block is None:
                label = s[2:].strip()
            elif "Serving Benchmark Result" in s:
                block = []
            elif block is not None:
                if s.startswith("=====") and block:
                    body = "\n".join(block)
                    r = {"page": page, "model_as_printed": model, "hardware_as_printed": hardware, "section": heading,
                         "label": label, "serving_command": cmd, "engine": engine_of(cmd),
                         "engine_version": ver.get(engine_of(cmd), "")}
                    for name, rx in FIELDS:
                        m = re.search(rx, body)
                        r[name] = m.group(1) if m else ""
                    yield r
                    block = None
                else:
                    block.append(s)
            i += 1


def main():
    commit = sys.argv[2] if len(sys.argv) > 2 else COMMIT
    date = git("show", "-s", "--format=%cs", commit).strip()
    w = csv.writer(sys.stdout, lineterminator="\n")
    cols = ["source_commit", "commit_date", "page", "model_as_printed", "hardware_as_printed", "section", "label",
            "serving_command", "engine", "engine_version"] + [n for n, _ in FIELDS]
    w.writerow(cols)
    for r in rows(commit):
        r["source_commit"], r["commit_date"] = commit, date
        w.writerow([r[c] for c in cols])


if __name__ == "__main__":
    main()
