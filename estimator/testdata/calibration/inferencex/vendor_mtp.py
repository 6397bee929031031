#!/usr/bin/env python3
"""Vendors the aggregated (single-node) InferenceX serving points that ran
DeepSeek's MTP speculative decoding on SGLang and TensorRT-LLM (see
README.md, "The MTP rows"): reads the shared extract's
inferencex_dashboard_points.csv and writes inferencex_mtp_points.csv with the
columns the replay reads, the recipe's draft tokens and stream interval, the
tokens a step the run accepted (read from its inter-token latency), and the
split of vendor.py (by configuration; "fit" is written as "test": no constant
is fitted on these rows).

    python3 vendor_mtp.py <dir of the shared extract> > inferencex_mtp_points.csv
"""
import csv, sys

from vendor import split

COLS = ['split', 'source', 'source_commit', 'run_date', 'run_url', 'model', 'hardware', 'framework', 'image', 'precision',
        'tp', 'ep', 'dp_attention', 'isl', 'osl', 'conc',
        'ttft_mean_ms', 'ttft_median_ms', 'ttft_p99_ms', 'tpot_mean_ms', 'tpot_median_ms', 'tpot_p99_ms',
        'tput_per_gpu_output_tok_s', 'tput_per_gpu_total_tok_s',
        'itl_mean_ms', 'draft_tokens', 'stream_interval', 'accepted_tokens_per_step']


def recipe(r):
    """The draft tokens a step and the server's stream interval of the
    recipe that ran row r, read from every version of the DeepSeek-R1 MTP
    scripts in SemiAnalysisAI/InferenceX (benchmarks/,
    benchmarks/single_node/ and benchmarks/single_node/fixed_seq_len/
    dsr1_*_mtp.sh, 2026-01 to 2026-07, at 843c6254 and its history):

    - TensorRT-LLM (dsr1_{fp4,fp8}_{b200,h200}_trt_mtp.sh): MTP=1 with
      attention DP, else 3 (speculative_config num_nextn_predict_layers);
      stream_interval: 10 in every version.
    - SGLang on NVIDIA GPUs (dsr1_fp8_{h200,b200,b300}_mtp.sh,
      dsr1_fp4_b200_mtp.sh): SPECULATIVE_NUM_STEPS=2 (topk 1, 3 draft
      tokens) in every version; --stream-interval 10 on H200, 30 on B200
      and B300 FP8, 30 on B200 FP4 until the 2026-06-30 version, 10 after.
    - SGLang on AMD GPUs (dsr1_fp8_{mi355x,mi325x}_mtp.sh,
      dsr1_fp4_mi355x_mtp.sh): --speculative-num-steps 3; no
      --stream-interval (SGLang's default, 1).
    """
    fw, hw = r['framework'], r['hardware']
    if fw == 'trt':
        return (1 if r['decode_dp_attention'] == 'true' else 3), 10
    if hw in ('mi355x', 'mi325x'):
        return 3, 1
    if hw == 'h200':
        return 2, 10
    if hw == 'b200' and r['precision'] == 'fp4' and r['run_date'] >= '2026-06-30':
        return 2, 10
    return 2, 30


def accepted(r, d, interval):
    """Tokens a step the run accepted: the client's inter-token latency is
    the time between streamed chunks and its TPOT the time per token, and
    the server streams one chunk every `interval` steps (SGLang
    --stream-interval, TensorRT-LLM stream_interval), so ITL / TPOT /
    interval is the mean tokens a step (means over the run). Empty where
    the row keeps no ITL, where the figure is above d + 1 tokens (the
    stream interval of that run is not the recipe's), and where it is under
    1.05: the MI325X runs read exactly 1.00 with three drafts a step, so
    their server streamed each token apart and the ratio says nothing of
    the steps."""
    try:
        itl, tpot = float(r['itl_mean_ms']), float(r['tpot_mean_ms'])
    except ValueError:
        return ''
    a = itl / tpot / interval
    if not (1.05 <= a <= d + 1):
        return ''
    return '%.3f' % a


def main(src):
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(COLS)
    for r in csv.DictReader(open(src + '/inferencex_dashboard_points.csv')):
        if r['disagg'] != 'false' or r['spec_decoding'] != 'mtp' or r['framework'] not in ('sglang', 'trt'):
            continue
        tp, ep, dp = r['decode_tp'], r['decode_ep'], r['decode_dp_attention']
        key = '|'.join([r['hardware'], r['framework'], r['precision'], tp, ep, dp, r['isl'], r['osl'], r['conc'], 'mtp'])
        s = split(key)
        if s == 'fit':
            s = 'test'
        d, interval = recipe(r)
        w.writerow([s, 'dashboard', r['source_commit'], r['run_date'], r['run_url'], r['model'], r['hardware'], r['framework'],
                    r['image'], r['precision'], tp, ep, dp, r['isl'], r['osl'], r['conc']] + [r[c] for c in COLS[16:24]] +
                   [r['itl_mean_ms'], d, interval, accepted(r, d, interval)])


if __name__ == '__main__':
    main(sys.argv[1])
