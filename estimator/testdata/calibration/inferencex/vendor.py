#!/usr/bin/env python3
"""Vendors the aggregated (single-node) serving points of SemiAnalysis
InferenceX that Rightsize replays (see README.md): reads the shared extract's
inferencex_dashboard_points.csv and inferencex_branch_result_points.csv and
writes inferencex_serving_points.csv with the columns the replay reads and a
deterministic fit/test/heldback split. For the development-branch rows it also
reads each result file in a clone of SemiAnalysisAI/InferenceX (all branches'
commits) for the lengths the client drew and the tokens the run measured.

    python3 vendor.py <dir of the shared extract> <InferenceX .git> > inferencex_serving_points.csv
"""
import csv, json, subprocess, sys

COLS = ['split', 'source', 'source_commit', 'run_date', 'run_url', 'model', 'hardware', 'framework', 'image', 'precision',
        'tp', 'ep', 'dp_attention', 'isl', 'osl', 'conc',
        'ttft_mean_ms', 'ttft_median_ms', 'ttft_p99_ms', 'tpot_mean_ms', 'tpot_median_ms', 'tpot_p99_ms',
        'tput_per_gpu_output_tok_s', 'tput_per_gpu_total_tok_s',
        'range_ratio', 'input_tokens_per_request', 'output_tokens_per_request']

# The branch runs' client (together_runner/run_3_test_client.sh at 1aadd1e5
# and 2a6a04c0, run_sglang_3_test_client.sh at 9e97721b) ran InferenceX's
# utils/bench_serving/benchmark_serving.py with --random-range-ratio 0 (each
# length uniform in [0, nominal]: its sample_uniform draws
# randint(int(L * ratio), L + 1)) and without --ignore-eos. The dashboard
# rows' client ran 0.8 (.github/workflows/benchmark-tmpl.yml
# RANDOM_RANGE_RATIO): left empty, the replay's default.
BRANCH_RANGE_RATIO = '0'


def branch_tokens(git, commit, path):
    # Tokens a request, in and out, measured over the run: the result file's
    # total and output token throughputs over its request throughput.
    m = json.loads(subprocess.run(['git', '--git-dir', git, 'show', commit + ':' + path], check=True,
                                  capture_output=True, text=True).stdout)['metrics']
    rps = m['request_throughput']
    out = m['output_token_throughput'] / rps
    return '%.1f' % ((m['total_token_throughput'] - m['output_token_throughput']) / rps), '%.1f' % out


def fnv1a(s):
    h = 0x811c9dc5
    for b in s.encode():
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


def split(key):
    # 40% fit, 40% test, 20% held back, by configuration (every date of
    # one configuration lands in the same split).
    r = fnv1a(key) % 10
    return 'fit' if r < 4 else 'test' if r < 8 else 'heldback'


def main(src, git):
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(COLS)
    for r in csv.DictReader(open(src + '/inferencex_dashboard_points.csv')):
        if r['disagg'] != 'false' or r['spec_decoding'] != 'none' or r['framework'] not in ('sglang', 'trt'):
            continue
        tp, ep, dp = r['decode_tp'], r['decode_ep'], r['decode_dp_attention']
        key = '|'.join([r['hardware'], r['framework'], r['precision'], tp, ep, dp, r['isl'], r['osl'], r['conc']])
        w.writerow([split(key), 'dashboard', r['source_commit'], r['run_date'], r['run_url'], r['model'], r['hardware'], r['framework'],
                    r['image'], r['precision'], tp, ep, dp, r['isl'], r['osl'], r['conc']] + [r[c] for c in COLS[16:24]] + ['', '', ''])
    for r in csv.DictReader(open(src + '/inferencex_branch_result_points.csv')):
        if r['hardware'] != 'b200':
            continue
        # vLLM has no dashboard row: its gpt-oss-120b rows were fit rows (they
        # fixed its per-request cost until their outputs were found to end at
        # end-of-sequence; the replay skips them); the SGLang DeepSeek-R1 rows
        # are test rows.
        s = 'fit' if r['framework'] == 'vllm' else 'test'
        w.writerow([s, 'branch', r['source_commit'], r['run_date'], '', r['model'], r['hardware'], r['framework'], r['image'],
                    r['precision'], r['tp'], r['ep'] or '1', r['dp_attention'] or 'false', r['isl'], r['osl'], r['conc']] +
                   [r[c] for c in COLS[16:24]] + [BRANCH_RANGE_RATIO] +
                   list(branch_tokens(git, r['source_commit'], r['source_path'])))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
